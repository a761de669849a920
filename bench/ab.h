/*
 * ab.h - two builds of the tool as a sweep's two arms (runner.h), A the
 * base and B the new, run interleaved A B B A: the arms --a and --b name,
 * and the campaign of `ab --budget`, which adds rounds to the cells still
 * undecided and looks at them group-sequentially (seq.h) until the budget
 * runs out.
 */
#ifndef BENCH_AB_H
#define BENCH_AB_H

#include <stddef.h>

#include "cli.h"
#include "compare.h"
#include "runner.h"

/*
 * The arms given[0] (--a) and given[1] (--b) name, each "BIN [OPTS]":
 * the binary, its cells (the n cells of s with its own options on top)
 * and its results file, s's output with -a or -b, kept in outs. -1 and
 * err naming the flag when one is missing, is not an executable, or its
 * options do not fit the sweep.
 */
int ab_arms(const struct sweep *s, size_t n, const char *const given[2],
    struct runner_arm arms[2], char outs[2][4096], char *err,
    size_t errlen);

/*
 * The sweep's repetitions of the n cells, then A B B A rounds of every
 * cell still undecided, each cell looked at after each round at the
 * nominal level of a group-sequential design that spends co's alpha / n
 * on each cell, until every cell is decided or the next round would not
 * fit in budget_s seconds: that look is then the last, and spends what is
 * left. levels gets the level each cell was decided (or left) at; argc
 * and argv are the results' context. Returns as runner_sweep.
 */
int ab_sequential(const struct sweep *s, size_t n, struct runner_arm arms[2],
    const struct compare_opts *co, double budget_s, double *levels, int argc,
    char **argv);

/* An arm as people name it: "A: BIN OPTS, results FILE", in buf. */
const char *ab_side(const struct runner_arm *arm, char *buf, size_t len);

#endif /* BENCH_AB_H */
