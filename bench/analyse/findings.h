/*
 * findings.h - what a reader asks of a sweep, in words computed from it,
 * the opening of the report: each design that hands resumptions over
 * in its own words (portrait.h: its cost, how that moves per doubling of
 * the width, and why, from its counters); the cheapest handoff at each
 * width; the designs that never hand a resumption to another thread
 * here, or keep it on its worker, and each of them in its own words; the
 * harness's floor; and where a figure is not to be taken as it stands (a
 * coroutine starved, the runs fell into two groups, the machine was busy,
 * a window stalled).
 */
#ifndef BENCH_FINDINGS_H
#define BENCH_FINDINGS_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "series.h"

/*
 * What the data says, computed from it, before any figure or table; of
 * machine, when it is not NULL (a merged file's, said one machine at a
 * time: a ranking never mixes two).
 */
void findings_write(FILE *out, const struct series_set *d,
    const char *machine);

/* A cell's ok runs in which a coroutine starved. */
unsigned int findings_starved(const cJSON *cell);

/* Where a cell's runs fell into two groups (stats_bimodal), or NULL. */
const cJSON *findings_split(const cJSON *cell);

#endif /* BENCH_FINDINGS_H */
