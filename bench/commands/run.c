/*
 * run.c - the commands that run cells (run, cell) and those that show
 * what can run (list).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "commands.h"
#include "compare.h"
#include "count.h"
#include "designs.h"
#include "export.h"
#include "measure.h"
#include "results.h"
#include "runfields.h"
#include "valgrind.h"
#include "workload.h"

/* What the options of this file's commands fill (commands.h). */
struct run_args {
	const char *metric;
};
#define COMMAND_ARGS	struct run_args

const char *const command_run_sweep[] = { NULL };

/*
 * run's window, shorter than ab's and advise's: the first sweep is what a
 * newcomer waits for (432 runs of 0.3 + 0.8 s took 9.5 min on a 2-vCPU
 * guest). Against 0.3 + 0.8 s, 0.15 + 0.3 s interleaved run by run over
 * 30 cells, 6 runs each: the medians agree (ratio 1.01 at the median,
 * each inside the other's min-max in 28 cells), a cell's runs spread a
 * fifth wider (min-max 44 % of the median against 36 %), and a coroutine
 * is called starved after 0.3 s without a resumption, where it was 0.8 s.
 * Since every cell runs what compare needs (7 runs of 72 cells: 504 runs,
 * 5 min 40 s at 0.15 + 0.3 s), 0.1 + 0.25 s.
 */
static const char *const run_sweep[] = { "--warmup", "0.1", "--time", "0.25",
    NULL };

int
command_sweep_self(struct call *c, struct runner_arm *arm)
{
	static char self[4096];

	(void)child_self(self, sizeof(self));
	memset(arm, 0, sizeof(*arm));
	arm->words[0] = self;
	arm->nwords = 1;
	arm->cells = c->cells;
	arm->out = c->sweep.out;
	return runner_sweep(&c->sweep, c->ncells, arm, 1, c->argc, c->argv);
}

/*
 * Runs enough for compare to judge each cell of two such files: under
 * Holm over the sweep's cells, a cell's p must pass alpha / cells, and an
 * exact rank-sum test of 6 runs a side never gives one below 0.0022 (the
 * default 72 cells ask 0.00069: 7 a side). Stopping a cell at 3 to 6 runs
 * left every cell of two default sweeps `undecided`. Without --reps every
 * cell runs that many; fewer given are run, with a line saying what
 * compare will make of them. Counted windows need no test: two a side.
 */
static void
run_reps_judged(struct call *c)
{
	struct compare_opts o;
	size_t need;

	compare_defaults(&o);
	need = c->sweep.cell.count > 0 ? 2 : compare_min_runs(o.alpha /
	    (double)(c->ncells ? c->ncells : 1));
	c->sweep.reps_judged = (unsigned int)need;
	if (!cli_given(&c->sweep, "--reps") && c->sweep.reps < need)
		c->sweep.reps = (unsigned int)need;
	else if (c->sweep.reps < need)
		fprintf(stderr, "dispatchbench: note: --reps %u: compare of two "
		    "such files can decide none of their %zu cell%s (a p must "
		    "pass %.2g, which %zu runs a side can reach)\n",
		    c->sweep.reps, c->ncells, c->ncells == 1 ? "" : "s",
		    o.alpha / (double)c->ncells, need);
	return;
}

static const struct param run_opts[] = {
	OPT_METRIC(metric, "the figure measured: "
	    "the timed ones, or instructions (each window counted: --count)"),
};

static int
cmd_run(struct call *c)
{
	struct run_args *opt = ARGS_OF(c);
	struct runner_arm arm;
	char err[512];
	int rc;

	if (command_metric(c, &opt->metric, err, sizeof(err)) != 0)
		return command_bad("%s", err);
	if (strcmp(opt->metric, COUNT_FIELD) != 0 &&
	    strcmp(opt->metric, RF(cpu_us_per_dispatch)) != 0)
		return command_bad("--metric %s: run measures "
		    "cpu_us_per_dispatch (timed) or instructions (counted)",
		    opt->metric);
	run_reps_judged(c);
	rc = command_sweep_self(c, &arm);
	/* With --quiet and a format, stdout holds the export alone. */
	if (!c->sweep.quiet || c->sweep.format != TABLE_TEXT)
		export_write(stdout, arm.doc, c->sweep.format, "summary");
	cJSON_Delete(arm.doc);
	return rc;
}

/* One run of one cell as one JSON line; exit 1 when the run is not ok. */
static int
cmd_cell(struct call *c)
{
	cJSON *run;
	int rc;

	if (c->ncells != 1)
		return command_bad("cell: the options must name exactly one cell");
	if (valgrind_wrap(&c->cells[0], c->argc, c->argv, &rc))
		return rc;
	run = cell_run(&c->cells[0], &c->sweep.win);
	cell_print(stdout, run);
	rc = results_ok(run) ? 0 : RUNNER_RUN_FAILED;
	cJSON_Delete(run);
	return rc;
}

static int
cmd_list(struct call *c)
{
	const struct workload_kind *k;
	const struct db_disp_ops *d;
	const struct db_queue_ops *q;
	char name[32];
	size_t i;

	(void)c;
	printf("dispatchers:\n");
	for (i = 0; (d = disp_at(i)) != NULL; i++)
		printf("  %-15s %s%s%s%s\n", d->name, d->model,
		    d->real != NULL ? " [real: " : "", d->real != NULL ?
		    d->real : "", d->real != NULL ? "]" : "");
	printf("queues:\n");
	for (i = 0; (q = queue_at(i)) != NULL; i++) {
		printf("  %-15s %s%s%s%s%s%s\n", q->name, q->model,
		    q->flags & DB_Q_BOUNDED ? " [bounded]" : "",
		    q->flags & DB_Q_ONE_CONSUMER ?
		    " [one consumer: eventloop's inbox]" : "",
		    q->real != NULL ? " [real: " : "", q->real != NULL ?
		    q->real : "", q->real != NULL ? "]" : "");
	}
	printf("workloads:\n");
	for (i = 0; (k = workload_kind_at(i)) != NULL; i++) {
		snprintf(name, sizeof(name), "%s%s", k->name, k->takes_block ?
		    ":MS:SHARE" : "");
		printf("  %-16s %s\n", name, k->about);
	}
	return 0;
}

const struct command command_run = {
	.name = "run",
	.args = "[options]",
	.summary = "sweep the designs, a child per run; write --out, print a "
	    "summary",
	OPTS(run_opts),
	.sweep = run_sweep,
	.run = cmd_run,
};
const struct command command_cell = {
	.name = "cell",
	.args = "[options]",
	.summary = "one run of one cell as one JSON line (what run forks)",
	.sweep = command_run_sweep,
	.run = cmd_cell,
};
const struct command command_list = {
	.name = "list",
	.args = "",
	.summary = "the designs, the queues and the workloads",
	.run = cmd_list,
};
