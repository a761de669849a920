/*
 * sweep.h - a sweep's values, where the parameter table (param.h) keeps
 * them: a cell's in struct cell, the sweep's own and each list's here.
 * Below the tool's parser (cli.h) and the values' kinds (value.h), so
 * that the table's offsets need neither.
 */
#ifndef BENCH_SWEEP_H
#define BENCH_SWEEP_H

#include <stdint.h>

#include "cell.h"
#include "param.h"
#include "workload.h"

/* A P_AUTO count left to the workload kind. */
#define VALUE_AUTO	(~0u)

union param_value {
	unsigned int u;
	int i;
	double d;
	const void *p;			/* a design, a queue, a text */
	struct workload_profile profile;
};

/* The most values one option's list holds. */
#define SWEEP_MAX_LIST	64

/*
 * A sweep: every option's value. A list's values are in lists[] by the
 * index of its entry, and cell holds the rest; the odometer (cli.c) turns
 * it into cells.
 */
struct sweep {
	struct cell cell;
	struct {
		union param_value v[SWEEP_MAX_LIST];
		size_t n;
	} lists[PARAMS_MAX];
	struct cell_window win;
	unsigned int reps;		/* the most runs of a cell */
	unsigned int reps_judged;	/* the fewest compare can judge; 0: any */
	double precision_pct;		/* a cell may stop early (runner.h) */
	uint64_t given;			/* bit i: params[i] on the command line */
	const char *out;
	double deadline_s;		/* per run; 0: cell_deadline + grace */
	int format;			/* enum table_format */
	int quiet;
	int host_quiet;			/* wait for an idle machine */
};

#endif /* BENCH_SWEEP_H */
