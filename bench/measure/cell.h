/*
 * cell.h - one point of a sweep (a design, its queue, its width, its
 * coroutines, its placement and knobs) and the measured run of it.
 */
#ifndef BENCH_CELL_H
#define BENCH_CELL_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "dispatcher.h"
#include "workload.h"

#define CELL_UNBOUNDED	0	/* workers of a rendezvous without a bound */

/*
 * A cell: a design with its parameters (cfg: its width, its queue, its
 * knobs; the thread hooks are the run's) and the workload put on it.
 */
struct cell {
	const struct disp_ops *disp;
	struct disp_config cfg;
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

#endif /* BENCH_CELL_H */
