/*
 * runner.h - a sweep: every cell, every repetition, each run in a child
 * process of its own, the order of cells rotated between repetitions.
 */
#ifndef BENCH_RUNNER_H
#define BENCH_RUNNER_H

#include "cli.h"

#define RUNNER_OK		0	/* every run measured and checked */
#define RUNNER_RUN_FAILED	1	/* some run failed, hung or crashed */
#define RUNNER_INTERRUPTED	130	/* SIGINT/SIGTERM: partial file */

int runner_sweep(const struct cli_opts *o, const struct cell *cells,
    size_t ncells, int argc, char **argv);

#endif /* BENCH_RUNNER_H */
