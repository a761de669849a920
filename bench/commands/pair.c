/*
 * pair.c - the pair command: two queues or two designs (built-in or
 * plugins, two builds of one plugin too) in one process, the same cell
 * run in short alternating windows, and a paired verdict.
 *
 * Each window is a fresh cell_run: the design (and its queue) is created,
 * warmed up, measured, stopped and count-checked, so no state of one arm
 * is reused by the other. The pairs alternate A B, B A, ... (each process
 * starts where the last one did not), so the penalty of going second
 * cancels (Koch's crossover); consecutive windows of one process are not
 * independent, so each process is one unit of the test (paired.h).
 * Processes are started afresh (exec), each with its own address layout.
 * The verdict line names what it judged: the metric and its unit, the
 * cell, each arm by its name or its plugin's file; --out keeps each arm's
 * own cell, file and checksum beside the cell they share.
 *
 * What pairing cannot remove: both arms share the process's caches, its
 * allocator and its threads' placement, and a state one arm leaves that
 * the next window inherits (differential carry-over) is aliased with the
 * change in any two-period design; re-creating the design per window and
 * discarding its warm-up limit it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dispatchbench/queue.h>

#include "commands.h"
#include "context.h"
#include "measure.h"
#include "paired.h"
#include "plugin.h"
#include "results.h"
#include "runfields.h"
#include "tally.h"
#include "valgrind.h"

/* What the options of this file's commands fill (commands.h). */
struct pair_args {
	const char *a, *b, *metric;
	unsigned int processes, pairs;
	double budget_s, threshold_pct, alpha;
	int unit;
	int accept_undecided;		/* undecided exits 0, not 3 */
};
#define COMMAND_ARGS	struct pair_args

#define PAIR_MIN_UNITS	6	/* below, no exact p goes below 0.05 */
#define PAIR_MAX_UNITS	1000

static const struct param pair_opts[] = {
	{ .flag = "--a", .kind = PARAM_TEXT, ARG(a), .metavar = "Q|D",
	    .help = "the baseline: a queue or a dispatcher, by name or a "
	    "plugin's PATH[:SYMBOL]" },
	{ .flag = "--b", .kind = PARAM_TEXT, ARG(b), .metavar = "Q|D",
	    .help = "the candidate, of the same kind" },
	{ .flag = "--processes", .kind = PARAM_COUNT, .lo = PAIR_MIN_UNITS,
	    .hi = PAIR_MAX_UNITS, .dflt = "10", ARG(processes),
	    .metavar = "N", .help = "processes, each one unit of the test" },
	{ .flag = "--pairs", .kind = PARAM_COUNT, .lo = 2, .hi = 100000,
	    .dflt = "10", ARG(pairs), .metavar = "N",
	    .help = "pairs of windows per process, alternately A B and B A" },
	{ .flag = "--budget", .kind = PARAM_DURATION, .lo = 1, .hi = 7 * 86400,
	    ARG(budget_s), .metavar = "DURATION",
	    .help = "as many processes as fit, at least 6 (instead of "
	    "--processes)" },
	{ .flag = "--threshold", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 99, .dflt = "5", ARG(threshold_pct), .metavar = "PCT",
	    .help = "the smallest change worth a verdict" },
	{ .flag = "--alpha", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 0.5, .dflt = "0.05", ARG(alpha), .metavar = "A",
	    .help = "the false alarms allowed" },
	OPT_METRIC(metric, "the run field compared"),
	{ .flag = "--accept-undecided", .kind = PARAM_SWITCH,
	    ARG(accept_undecided), .help = "exit 0, not 3, when the verdict "
	    "has no answer (too few processes gave an estimate)" },
	{ .flag = "--unit", .kind = PARAM_INT, .lo = -1, .hi = PAIR_MAX_UNITS,
	    .dflt = "-1", ARG(unit), .metavar = "K",
	    .help = "run process K's pairs, one JSON line a window (what pair "
	    "starts)" },
};

static const char *const pair_sweep[] = { "--dispatcher", "shared",
    "--workers", "8", "--warmup", "0.02", "--time", "0.05", NULL };

/*
 * One arm's cell: the base cell with the queue or the design spec names,
 * and how the results name it; 0 or 1 as it is a queue or a design, -1
 * with err.
 */
static int
pair_arm(const char *flag, const char *spec, const struct cell *base,
    struct cell *arm, struct tally_arm *named, char *err, size_t errlen)
{
	const struct db_queue_ops *q = NULL;
	const struct db_disp_ops *d = NULL;
	char why[768];

	*arm = *base;
	if (plugin_find(spec, &q, &d, why, sizeof(why)) != 0)
		return snprintf(err, errlen, "%s: %s", flag, why), -1;
	if (q != NULL && !(base->disp->flags & DB_DISP_USES_QUEUE))
		return snprintf(err, errlen, "%s: %s is a queue, and %s polls "
		    "none: give --dispatcher shared or limited", flag, spec,
		    base->disp->name), -1;
	if (q != NULL && (q->flags & DB_Q_ONE_CONSUMER))
		return snprintf(err, errlen, "%s: queue %s has one consumer",
		    flag, spec), -1;
	if (q != NULL)
		arm->cfg.queue = q;
	else
		arm->disp = d;
	*named = (struct tally_arm){ q == NULL, q != NULL ? q->name : d->name,
	    plugin_spec(q != NULL ? (const void *)q : (const void *)d) };
	return q == NULL;
}

/*
 * Process K: its pairs, each window one JSON line on stdout, up to the
 * first window after which its own windows settle the verdict as broken
 * (paired_settled: a window of B failed, or B stalled in 3 windows more
 * than A): each window more of a B that loses a dispatch would wait a
 * stall time (10 s by default) for it.
 */
static int
pair_unit(const struct call *c, const struct cell arms[2])
{
	const struct pair_args *a = ARGS_OF(c);
	struct paired_ends e = { .crashed = false };
	unsigned int i, k, arm;
	enum tally_end end;
	bool settled = false;
	cJSON *run, *line;
	char why[128];

	for (i = 0; i < a->pairs && !settled; i++)
		for (k = 0; k < 2 && !settled; k++) {
			arm = ((i + (unsigned int)a->unit) % 2) ^ k;
			run = cell_run(&arms[arm], &c->sweep.win);
			line = tally_window(run, i, arm, k, a->metric);
			cell_print(stdout, line);
			end = tally_window_ended(line);
			e.ok[arm] += end == TALLY_OK;
			e.failed[arm] += end == TALLY_FAILED;
			e.stalled[arm] += end == TALLY_STALLED;
			settled = paired_settled(&e, why, sizeof(why));
			cJSON_Delete(line);
			cJSON_Delete(run);
		}
	return 0;
}

static void
pair_save(const struct call *c, cJSON *doc)
{

	/* Only where asked: run's default file is a sweep's, not a pair's. */
	if (cli_given(&c->sweep, "--out") && results_write(doc,
	    c->sweep.out) != 0)
		fprintf(stderr, "dispatchbench: could not write %s\n",
		    c->sweep.out);
	return;
}

/*
 * The processes, one after another; the budget sets their number. Each
 * one's line says what failed in it; the first after which the verdict
 * is broken whatever the rest would give (tally_settled: a process that
 * failed as a whole, a window of B that failed, B stalled in 3 windows
 * more than A) is the last, and its line and the verdict's say why.
 */
static void
pair_run(const struct call *c, const struct cell arms[2],
    struct tally *t, cJSON *units, cJSON *doc)
{
	const struct pair_args *a = ARGS_OF(c);
	unsigned int k, n = a->processes;
	double start = measure_now(), waited;
	char why[256], said[768], settled[128];
	cJSON *windows, *u;
	bool stop = false;

	for (k = 0; k < n && !stop && !runner_stopped(); k++) {
		waited = c->sweep.host_quiet ? runner_quiet() : NAN;
		u = cJSON_CreateObject();
		cJSON_AddNumberToObject(u, "process", k);
		if (c->sweep.host_quiet)
			cJSON_AddNumberToObject(u, RF(host_wait_s), waited);
		windows = runner_unit(c->argc, c->argv, k, runner_deadline(
		    &c->sweep, arms, 2, a->pairs), u, why, sizeof(why));
		tally_unit(t, u, windows, why);
		cJSON_AddItemToArray(units, u);
		/* The last process stops nothing. */
		if ((stop = k + 1 < n && tally_settled(t, settled,
		    sizeof(settled))))
			snprintf(t->stopped, sizeof(t->stopped), "stopped after "
			    "%u of %u processes: %s, which is the verdict "
			    "whatever the rest would give", k + 1, n, settled);
		pair_save(c, doc);
		tally_unit_words(u, said, sizeof(said));
		fprintf(stderr, "[%u/%u] process %u%s%s%s%s\n", k + 1, n, k, said,
		    stop ? "; stopping: " : "", stop ? settled : "", stop ?
		    ", broken whatever the rest gives" : "");
		/* A budget never buys fewer processes than a p needs. */
		if (k == 0 && a->budget_s > 0)
			n = (unsigned int)fmin(PAIR_MAX_UNITS, fmax((double)
			    paired_min_units(a->alpha), floor(a->budget_s /
			    (measure_now() - start))));
	}
	return;
}

static int
cmd_pair(struct call *c)
{
	const struct pair_args *a = ARGS_OF(c);
	struct tally_arm named[2];
	struct cell arms[2];
	cJSON *doc, *units, *cells[2];
	const char *verdict;
	char err[1024];
	int k, kind[2];
	struct tally t;

	if (a->a == NULL || a->b == NULL)
		return command_bad("pair: give --a and --b");
	if (c->ncells != 1)
		return command_bad("pair: the options must name exactly one cell");
	if (command_metric(c, &ARGS_OF(c)->metric, err, sizeof(err)) != 0)
		return command_bad("pair: %s", err);
	if ((kind[0] = pair_arm("--a", a->a, &c->cells[0], &arms[0], &named[0],
	    err, sizeof(err))) < 0 || (kind[1] = pair_arm("--b", a->b,
	    &c->cells[0], &arms[1], &named[1], err, sizeof(err))) < 0)
		return command_bad("pair: %s", err);
	if (kind[0] != kind[1])
		return command_bad("pair: --a and --b must both be queues or "
		    "both dispatchers");
	if (a->budget_s == 0 && a->processes < paired_min_units(a->alpha))
		return command_bad("pair: --processes %u: no signed-rank p of %u "
		    "processes can go below %g (the smallest is %.3g): give "
		    "--processes %zu or more", a->processes, a->processes,
		    a->alpha, ldexp(2, -(int)a->processes),
		    paired_min_units(a->alpha));
	if (a->unit >= 0 && valgrind_wrap(&arms[0], c->argc, c->argv, &k))
		return k;
	if (a->unit >= 0)
		return pair_unit(c, arms);
	tally_init(&t, a->metric, a->threshold_pct, a->alpha, PAIR_MAX_UNITS,
	    a->pairs);
	t.threshold_given = cli_named(c->argv, c->argc, "--threshold");
	doc = cJSON_CreateObject();
	cJSON_AddItemToObject(doc, "context", context_read(c->argc, c->argv));
	cJSON_AddItemToObject(cJSON_GetObjectItem(doc, "context"), "probes",
	    runner_probes(&c->sweep));
	cJSON_AddStringToObject(doc, "a", a->a);
	cJSON_AddStringToObject(doc, "b", a->b);
	for (k = 0; k < 2; k++)
		cells[k] = cli_cell_json(&arms[k]);
	tally_sides(&t, doc, named, cells);
	cJSON_AddStringToObject(doc, "metric", a->metric);
	cJSON_AddNumberToObject(doc, "warmup_s", c->sweep.win.warmup_s);
	cJSON_AddNumberToObject(doc, "time_s", c->sweep.win.time_s);
	cJSON_AddNumberToObject(doc, "pairs", a->pairs);
	cJSON_AddFalseToObject(doc, "complete");
	units = cJSON_AddArrayToObject(doc, "processes");
	pair_run(c, arms, &t, units, doc);
	cJSON_AddItemToObject(doc, "result", tally_report(&t, doc,
	    runner_stopped(), &verdict));
	cJSON_ReplaceItemInObject(doc, "complete", cJSON_CreateBool(
	    !runner_stopped()));
	pair_save(c, doc);
	cJSON_Delete(doc);
	tally_free(&t);
	if (strcmp(verdict, "broken") == 0 || strcmp(verdict, "regressed") == 0)
		return RUNNER_RUN_FAILED;
	return strcmp(verdict, "undecided") == 0 && !a->accept_undecided ?
	    EXIT_UNDECIDED : 0;
}

const struct command command_pair = {
	.name = "pair",
	.args = "--a Q|D --b Q|D [options]",
	.summary = "two queues or designs in one process, alternating windows, "
	    "a paired verdict",
	OPTS(pair_opts),
	.sweep = pair_sweep,
	.run = cmd_pair,
};
