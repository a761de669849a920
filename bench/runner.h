/*
 * runner.h - a sweep: every cell, every repetition, each run in a child
 * process of its own, the order of cells rotated between repetitions.
 */
#ifndef BENCH_RUNNER_H
#define BENCH_RUNNER_H

#include <cjson/cJSON.h>

#include "cli.h"

#define RUNNER_OK		0	/* every run measured and checked */
#define RUNNER_RUN_FAILED	1	/* some run failed, hung or crashed */
#define RUNNER_INTERRUPTED	128	/* + the signal: partial file */

#define RUNNER_ARM_WORDS	16

/*
 * One build under test: a binary, and words added to each of its runs'
 * command lines (an A/B arm; a plain sweep has one arm, this binary).
 */
struct runner_arm {
	const char *label;		/* "a", "b"; NULL for a plain sweep */
	char *words[RUNNER_ARM_WORDS];	/* binary, then extra options */
	int nwords;
	const char *out;		/* its results file */
	cJSON *doc;			/* its results, the caller frees */
};

/* Splits "BINARY [OPTIONS...]" at spaces into arm; -1 if empty or long. */
int runner_arm_parse(struct runner_arm *arm, char *command);

/*
 * Runs every cell reps times for each arm. Returns RUNNER_OK,
 * RUNNER_RUN_FAILED, or RUNNER_INTERRUPTED plus the signal (130 for
 * SIGINT, 143 for SIGTERM). With two arms the runs of a
 * cell alternate A B B A, so a drift of the machine hits both alike.
 */
int runner_sweep(const struct cli_opts *o, const struct cell *cells,
    size_t ncells, struct runner_arm *arms, int narms, int argc, char **argv);

#endif /* BENCH_RUNNER_H */
