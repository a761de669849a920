/*
 * runner.h - a sweep: every cell, every repetition, each run in a child
 * process of its own, the order of cells rotated between repetitions.
 */
#ifndef BENCH_RUNNER_H
#define BENCH_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "cli.h"

#define RUNNER_OK		0	/* every run measured and checked */
#define RUNNER_RUN_FAILED	1	/* some run failed, hung or crashed */
#define RUNNER_INTERRUPTED	128	/* + the signal: partial file */

#define RUNNER_ARM_WORDS	16

/*
 * One build under test: a binary, its cells, and its results (an A/B
 * arm; a plain sweep has one arm, this binary).
 */
struct runner_arm {
	const char *label;		/* "a", "b"; NULL for a plain sweep */
	char *words[RUNNER_ARM_WORDS];	/* binary, then extra options */
	int nwords;
	const struct cell *cells;	/* as this arm runs them, all arms alike
					   in number and order */
	const char *out;		/* its results file */
	cJSON *doc;			/* its results, the caller frees */
};

/* Splits "BINARY [OPTIONS...]" at spaces into arm; -1 if empty or long. */
int runner_arm_parse(struct runner_arm *arm, char *command);

/*
 * Runs each arm's n cells reps times; in a plain sweep, a cell stops
 * sooner once runner_may_stop (below) says it may. Returns RUNNER_OK,
 * RUNNER_RUN_FAILED, or RUNNER_INTERRUPTED plus the signal (130 for
 * SIGINT, 143 for SIGTERM). With two arms the runs of a cell alternate
 * A B B A, so a drift of the machine hits both alike.
 */
int runner_sweep(const struct sweep *o, size_t n, struct runner_arm *arms,
    int narms, int argc, char **argv);

/*
 * The sweep in its steps, for a campaign that adds runs as it goes:
 * start makes each arm's results, reps runs the sweep's repetitions
 * (nonzero if a run failed), round adds one A B B A round of cell ci as
 * repetitions rep and rep + 1, finish saves and says how it ended, as
 * runner_sweep returns.
 */
void runner_start(const struct sweep *o, size_t n, struct runner_arm *arms,
    int narms, int argc, char **argv);
int runner_reps(const struct sweep *o, size_t n, struct runner_arm *arms,
    int narms);
int runner_round(const struct sweep *o, size_t ci, size_t rep,
    struct runner_arm *arms);
int runner_finish(const struct sweep *o, struct runner_arm *arms,
    int narms, int failed);

/*
 * Whether a cell of a plain sweep (as its results file holds it) may stop
 * before --reps: it has cli_reps_min runs or more, every one ok and none
 * starving a coroutine, and its median's interval (the runs' lowest to
 * highest up to 6 runs, the order statistics of a 95 % one from 7) within
 * a factor 1 + --precision of the median, either way. A cell that stops
 * says so in its "stop": early, why, its interval and what it covers.
 */
bool runner_may_stop(const struct sweep *o, const cJSON *cell);

/*
 * --host quiet: waits, at most a minute, until a half-second look sees
 * other processes and the hypervisor under MEASURE_HOST_BUSY of the
 * machine; returns the seconds waited. A run after a wait that ran out
 * still goes ahead, and its window is marked host_busy.
 */
double runner_quiet(void);

/*
 * The seconds a child that runs each of the n cells c reps times may
 * take before it is killed as hung: --deadline, or each run's deadline
 * (cell_deadline) and a grace for its start and for gdb.
 */
double runner_deadline(const struct sweep *o, const struct cell *c, size_t n,
    unsigned int reps);

/*
 * Process k of a campaign of processes: this binary again, with the
 * command line argv and --unit K, killed past deadline seconds (its
 * stacks then kept in u as "stacks"). Returns the JSON lines it printed,
 * or NULL with why ("process K ...") when it did not exit 0.
 */
cJSON *runner_unit(int argc, char **argv, unsigned int k, double deadline,
    cJSON *u, char *why, size_t len);

/*
 * The machine's calibration probes (probe.h), taken once a sitting before
 * its first run (after --host quiet's wait), for the results' context;
 * one line of them on stderr, unless --quiet.
 */
cJSON *runner_probes(const struct sweep *o);

/* True once SIGINT or SIGTERM has asked the sweep to end. */
bool runner_stopped(void);

/* Where a sweep's progress and tables go: stderr under a machine format. */
FILE *runner_talk(const struct sweep *o);

/* A cell's name for people: its series (params_series) and its width. */
void runner_cell_name(const struct cell *c, char *buf, size_t len);

#endif /* BENCH_RUNNER_H */
