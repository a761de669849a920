/*
 * findings.h - what a reader asks of a sweep, in words computed from it,
 * the opening of the report: what a handoff costs per design at 1
 * worker, at one worker per CPU and at the widest width, and how that
 * cost moves with the width; the cheapest handoff at each width; which
 * designs never hand a resumption to another thread here; the harness's
 * floor; and where a figure is not to be taken as it stands (a coroutine
 * starved, the runs fell into two groups, the machine was busy, a window
 * stalled).
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
