/*
 * cell.h - one point of a sweep (a design, its queue, its width, its
 * coroutines, its placement and knobs) and the measured run of it.
 */
#ifndef BENCH_CELL_H
#define BENCH_CELL_H

#include <stdio.h>

#include <cjson/cJSON.h>
#include <dispatchbench/dispatcher.h>

#include "knobs.h"
#include "workload.h"

#define CELL_UNBOUNDED	0	/* workers of a rendezvous without a bound */

/*
 * A cell: a design with its parameters (cfg: its width and its queue, the
 * thread hooks the run's; knobs: the suite's own designs', which cfg
 * points to in a run) and the workload put on it.
 */
struct cell {
	const struct db_disp_ops *disp;
	struct db_disp_config cfg;
	struct disp_knobs knobs;
	unsigned int coroutines;
	const char *pin;
	unsigned int payload_ns;	/* busy work added to every resumption */
	struct workload_profile profile;
	unsigned int split;		/* a view of this width takes the
					   blocking calls; 0: none */
	enum workload_spawn spawn;
	unsigned int latency_every;	/* sample 1 dispatch in N; 0: none */
	double stall_s;			/* no progress this long: hung; 0: default */
	const char *counters;		/* counters.h's list; NULL: none */
	unsigned int count;		/* a counted window's resumptions per
					   coroutine (count.h); 0: timed */
	int counter;			/* enum count_counter */
};

struct cell_window {
	double warmup_s;
	double time_s;
};

/*
 * Runs the cell in this process: warm-up, measured window, stop, count
 * check. Returns the run as a JSON object; "status" is "ok", "failed"
 * with "error", or "hung" with the watchdog's report. It returns only once
 * every thread it started is joined: when a thread cannot be stopped, it
 * prints the run (cell_print on stdout) and ends the process, status 1.
 */
cJSON *cell_run(const struct cell *c, const struct cell_window *win);

/*
 * The longest a run of c can take before it ends on its own, counted from
 * its start: the warm-up and the window, a stall the watchdog waits out,
 * and the stop with its guard. Start-up is not in it.
 */
double cell_deadline(const struct cell *c, const struct cell_window *win);

/* A run as one line of JSON: what `dispatchbench cell` prints. */
void cell_print(FILE *out, const cJSON *run);

/*
 * The parts of a run that a program's run (program.c) shares.
 * The bare loop's share of a run, before anything of the run starts: long
 * enough for a stable figure (its runs agree within a few per cent), short
 * beside a window.
 */
#define CELL_FLOOR_S		0.05

struct measure_sample;

/* Sets a field of a run, replacing the one it had. */
void cell_set(cJSON *run, const char *name, cJSON *v);
/* Marks the run failed, and why. */
cJSON *cell_fail(cJSON *run, const char *why);
/* Marks a window with no dispatch in it stalled. */
void cell_stalled(cJSON *run, double seconds);
/* The window's figures, from its two ends and what it dispatched. */
void cell_figures(cJSON *run, const struct measure_sample *a,
    const struct measure_sample *b, uint64_t dispatches, uint64_t hops);
/* The coroutines' shares of the window, from their counts at its ends. */
void cell_fairness(cJSON *run, const uint64_t *a, const uint64_t *b,
    unsigned int n);

#endif /* BENCH_CELL_H */
