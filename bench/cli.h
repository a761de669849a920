/*
 * cli.h - the options of `run` (and of the `cell` a run forks), parsed and
 * range-checked. A bad option is one line in err and -1; nothing here
 * prints or exits.
 */
#ifndef BENCH_CLI_H
#define BENCH_CLI_H

#include <stddef.h>

#include "cell.h"
#include "export.h"

#define CLI_MAX_LIST	64

struct cli_opts {
	const struct disp_ops *disps[CLI_MAX_LIST];
	size_t ndisps;
	const struct queue_ops *queues[CLI_MAX_LIST];
	size_t nqueues;
	unsigned int workers[CLI_MAX_LIST];	/* CELL_UNBOUNDED: inf */
	size_t nworkers;
	unsigned int coroutines[CLI_MAX_LIST];
	size_t ncoroutines;
	struct workload_profile profiles[CLI_MAX_LIST];
	size_t nprofiles;
	int lifos[2];				/* enum disp_lifo: stealing */
	size_t nlifos;
	int searchers[2];			/* enum disp_search: stealing */
	size_t nsearchers;
	unsigned int latency_every;
	const char *pin;
	struct cell_window win;
	unsigned int reps;
	const char *out;
	unsigned int pool;
	int spins;
	enum disp_wake wake;
	double keepalive_s;
	unsigned int capacity;
	unsigned int payload_ns;
	double deadline_s;		/* per run; 0: warm-up + time + 30 s */
	double stall_s;			/* no progress: hung; 0: the default */
	int quiet;
	enum export_format format;	/* of the summary `run` prints */
};

/* Defaults: the default sweep. */
void cli_defaults(struct cli_opts *o);

/* Latency sampling when none is asked for: 1 dispatch in this many. */
unsigned int cli_latency_default(const struct workload_profile *p);

/* Parses argv[0..argc) (after the command's name). */
int cli_parse(struct cli_opts *o, int argc, char **argv, char *err,
    size_t errlen);

/* The cells the options describe, in sweep order; NULL and err if none. */
struct cell *cli_cells(const struct cli_opts *o, size_t *ncells, char *err,
    size_t errlen);

#endif /* BENCH_CLI_H */
