/*
 * probes.h - the calibration probes of two sittings read side by side
 * (their fields: probe.h, results/README.md): whether the machine moved
 * between them, past each probe's own spread, whatever the code did.
 *
 * A probe moved when the two sittings' ranges (min to max of its
 * timings) do not overlap. A probe missing from either side, or with no
 * timings (n 0), is shown with its reason and never moved.
 */
#ifndef BENCH_PROBES_H
#define BENCH_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "rank.h"

/*
 * Writes each probe of ctx_a's "probes" beside ctx_b's: median [min-max]
 * and unit of each, the ratio B/A, and "moved"; A is BASE, B is NEW as
 * compare names them. Returns the probes written: 0, and nothing
 * written, when either context has no probes or both have the same (one
 * sitting's: ab's two arms).
 */
int probes_side_by_side(const cJSON *ctx_a, const cJSON *ctx_b, FILE *out);

/*
 * How many probes moved from ctx_a to ctx_b; buf names them on one line,
 * "line_round_trip 61 -> 95 ns, futex_wake 9100 -> 15000 ns" ("" when
 * none did).
 */
int probes_moved(const cJSON *ctx_a, const cJSON *ctx_b, char *buf,
    size_t len);

/*
 * Whether cores ran at different speeds in the runs of b than in those of
 * a, by the logs of their bare loop (bare_loop_us_per_dispatch, a[0..na),
 * b[0..nb), sorted here): the Hodges-Lehmann shift past threshold at a
 * rank-sum p below alpha, into *t; a side with no runs never moved.
 */
bool probes_core_shift(double *a, size_t na, double *b, size_t nb,
    double threshold, double alpha, struct rank_test *t);

/*
 * Whether the cores of a's sitting and b's ran at different speeds, which
 * a sitting's probes, taken once before its first cell, can miss: the bare
 * loop every timed run measures just before its window
 * (bare_loop_us_per_dispatch), each file's ok runs pooled, judged as compare
 * judges a cell: the Hodges-Lehmann shift past threshold at an exact (or,
 * past RANK_EXACT_MAX runs, normal) rank-sum p below alpha. Then -1, and
 * why says it as compare's other reasons for another machine do; 0 when
 * not, or when either file has no run with the figure (counted
 * windows, older files) or holds several machines.
 */
int probes_core_moved(const cJSON *a, const cJSON *b, double threshold,
    double alpha, char *why, size_t len);

/*
 * One line of a sitting's probes for people: each one's median and unit,
 * or why it has none.
 */
void probes_line(const cJSON *probes, char *buf, size_t len);

#endif /* BENCH_PROBES_H */
