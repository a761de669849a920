/*
 * handoff.h - what a handoff between two PUs costs, by what the two
 * share: matrix's pairs (rows of from, to, shares, line_ns and queue_ns)
 * grouped by their sharing, each group's median, and as a grid.
 *
 * The handoff_* namespace reads the rows as JSON only.
 */
#ifndef BENCH_HANDOFF_H
#define BENCH_HANDOFF_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/*
 * One row per kind of sharing the pairs have, closest first (PU, core,
 * L1 to L4, NUMA, package, machine): shares, pairs, and the medians of
 * line_ns and, where measured, queue_ns.
 */
cJSON *handoff_groups(const cJSON *rows);

/*
 * The n by n rows (row-major, from each PU to each) as people read them:
 * a line per PU, its one-way cost to each; of queue_ns with queue, else
 * of line_ns.
 */
void handoff_grid(FILE *out, const cJSON *rows, int n, bool queue);

#endif /* BENCH_HANDOFF_H */
