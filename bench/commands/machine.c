/*
 * machine.c - the commands about the machine under the suite: topo (the
 * tree as hwloc sees it), plan (where a pin policy puts each thread,
 * computed without running, on this machine or on one described) and
 * matrix (what a handoff costs between each pair of its PUs).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "context.h"
#include "handoff.h"
#include "heatmap.h"
#include "matrix.h"
#include "pin.h"
#include "plugin.h"
#include "queues.h"
#include "results.h"
#include "table.h"

/* What the options of this file's commands fill (commands.h). */
struct plan_args {			/* plan and matrix */
	const char *pin, *topology, *cpuset, *queue, *out, *plot;
	unsigned int workers, rounds, reps;
	int format;
};
#define COMMAND_ARGS	struct plan_args

static int
cmd_topo(struct call *c)
{
	struct pin_plan plan;
	char err[256];

	(void)c;
	if (pin_plan_init(&plan, "none", err, sizeof(err)) != 0)
		return command_bad("%s", err);
	pin_topology_print(plan.topo, stdout);
	pin_plan_fini(&plan);
	return 0;
}

static const struct param plan_opts[] = {
	{ .flag = "--pin", .kind = PARAM_TEXT, .dflt = "compact", ARG(pin),
	    .metavar = "POLICY|PUS", .help = "none, compact, smt, core, "
	    "scatter, numa, spread-numa or PUs" },
	{ .flag = "--workers", .kind = PARAM_COUNT, .hi = 1u << 20, .dflt = "0",
	    ARG(workers), .metavar = "N",
	    .help = "threads to place; 0: one per usable PU" },
	{ .flag = "--topology", .kind = PARAM_TEXT, ARG(topology),
	    .metavar = "SPEC", .help = "another machine: an XML file (lstopo "
	    "--of xml) or hwloc's synthetic description (\"pack:2 numa:2 "
	    "core:16 pu:2\")" },
	{ .flag = "--cpuset", .kind = PARAM_TEXT, ARG(cpuset),
	    .metavar = "LIST", .help = "plan within these CPUs (as taskset -c) "
	    "instead of this process's" },
	{ .flag = "--format", .kind = PARAM_FORMAT, .dflt = "table",
	    ARG(format), .metavar = "F", .help = "the plan's format" },
};

static const struct table_col plan_cols[] = {
	{ "thread", "thread" },
	{ "pu", "PU (L#)" },
	{ "os_index", "CPU (P#)" },
	{ "core", "core" },
	{ "numa", "NUMA node" },
	{ "package", "package" },
};

static int
cmd_plan(struct call *c)
{
	const struct plan_args *a = ARGS_OF(c);
	const struct table t = { "plan", plan_cols,
	    sizeof(plan_cols) / sizeof(plan_cols[0]) };
	struct pin_plan plan;
	unsigned int n;
	char err[256];
	cJSON *rows;

	pin_topology_use(a->topology);
	if (pin_plan_init_within(&plan, a->pin, a->cpuset, err,
	    sizeof(err)) != 0)
		return command_bad("%s", err);
	n = a->workers > 0 ? a->workers :
	    (unsigned int)hwloc_bitmap_weight(plan.usable);
	if (table_for_people(a->format))
		pin_plan_print(&plan, a->pin, n, stdout);
	rows = pin_plan_rows(&plan, n);
	table_write(stdout, a->format, &t, rows);
	cJSON_Delete(rows);
	pin_plan_fini(&plan);
	return 0;
}

const struct command command_topo = {
	.name = "topo",
	.args = "",
	.summary = "the machine as hwloc sees it",
	.run = cmd_topo,
};
const struct command command_plan = {
	.name = "plan",
	.args = "[options]",
	.summary = "where --pin puts each thread, without running",
	OPTS(plan_opts),
	.run = cmd_plan,
};

static const struct param matrix_opts[] = {
	{ .flag = "--queue", .kind = PARAM_TEXT, .dflt = "lfseg", ARG(queue),
	    .metavar = "Q", .help = "the queue of the handoff (`list`, or a "
	    "plugin); none: the cache line alone" },
	{ .flag = "--rounds", .kind = PARAM_COUNT, .lo = 100, .hi = 100000000,
	    .dflt = "20000", ARG(rounds), .metavar = "N",
	    .help = "round trips a timing" },
	{ .flag = "--reps", .kind = PARAM_COUNT, .lo = 1, .hi = 63, .dflt = "5",
	    ARG(reps), .metavar = "N",
	    .help = "timings of each pair (the median is kept)" },
	{ .flag = "--cpuset", .kind = PARAM_TEXT, ARG(cpuset),
	    .metavar = "LIST", .help = "these CPUs (as taskset -c) instead of "
	    "all this process may use" },
	{ .flag = "--format", .kind = PARAM_FORMAT, .dflt = "table",
	    ARG(format), .metavar = "F", .help = "the pairs' format" },
	{ .flag = "--out", .kind = PARAM_PATH, ARG(out),
	    .metavar = "FILE.json",
	    .help = "the pairs and the machine's context" },
	{ .flag = "--plot", .kind = PARAM_PATH, ARG(plot), .metavar = "DIR",
	    .help = "heatmaps there (matrix_line, matrix_queue: .png, .svg)" },
};

static const struct table_col matrix_cols[] = {
	{ "from", "from PU" },
	{ "to", "to PU" },
	{ "shares", "shares" },
	{ "line_ns", "cache line, ns" },
	{ "queue_ns", "queue, ns" },
};

static const struct table_col matrix_group_cols[] = {
	{ "shares", "shares" },
	{ "pairs", "pairs" },
	{ "line_ns", "cache line, ns (median)" },
	{ "queue_ns", "queue, ns (median)" },
};

static int
matrix_save(const struct call *c, const cJSON *rows, const cJSON *groups)
{
	const struct plan_args *a = ARGS_OF(c);
	cJSON *doc = cJSON_CreateObject();
	int error;

	cJSON_AddItemToObject(doc, "context", context_read(c->argc, c->argv));
	cJSON_AddStringToObject(doc, "queue", a->queue);
	cJSON_AddNumberToObject(doc, "rounds", a->rounds);
	cJSON_AddNumberToObject(doc, "reps", a->reps);
	cJSON_AddItemToObject(doc, "pairs", cJSON_Duplicate(rows, 1));
	cJSON_AddItemToObject(doc, "by_sharing", cJSON_Duplicate(groups, 1));
	error = results_write(doc, a->out);
	cJSON_Delete(doc);
	if (error != 0)
		fprintf(stderr, "dispatchbench: cannot write %s: %s\n", a->out,
		    strerror(-error));
	return error != 0;
}

static int
matrix_queue(const char *spec, const struct db_queue_ops **q, char *err,
    size_t errlen)
{
	char why[480];

	*q = NULL;
	if (strcmp(spec, "none") == 0)
		return 0;
	if (plugin_is_spec(spec) && (*q = plugin_queue(spec, why,
	    sizeof(why))) == NULL)
		snprintf(err, errlen, "--queue: %s", why);
	else if (!plugin_is_spec(spec) && (*q = queue_find(spec)) == NULL)
		snprintf(err, errlen, "--queue: unknown queue '%s' (see "
		    "`dispatchbench list`)", spec);
	return *q != NULL ? 0 : -1;
}

static int
cmd_matrix(struct call *c)
{
	const struct plan_args *a = ARGS_OF(c);
	struct matrix_opts o = { .rounds = a->rounds, .reps = a->reps };
	const struct table t = { "matrix", matrix_cols,
	    sizeof(matrix_cols) / sizeof(matrix_cols[0]) };
	const struct table tg = { "groups", matrix_group_cols,
	    sizeof(matrix_group_cols) / sizeof(matrix_group_cols[0]) };
	struct matrix_cell *cells;
	struct pin_plan plan;
	cJSON *rows, *groups;
	char err[512];
	int n, status = 0;

	if (matrix_queue(a->queue, &o.queue, err, sizeof(err)) != 0 ||
	    pin_plan_init_within(&plan, "compact", a->cpuset, err,
	    sizeof(err)) != 0)
		return command_bad("%s", err);
	cells = calloc((size_t)plan.nsets * plan.nsets, sizeof(*cells));
	if (cells == NULL)
		abort();
	if ((n = matrix_measure(&plan, &o, cells, err, sizeof(err))) < 0) {
		fprintf(stderr, "dispatchbench: %s\n", err);
		status = 1;
		goto out;
	}
	rows = matrix_rows(cells, n);
	groups = handoff_groups(rows);
	if (table_for_people(a->format)) {
		handoff_grid(stdout, rows, n, false);
		if (o.queue != NULL)
			handoff_grid(stdout, rows, n, true);
		printf("\nby what the two PUs share\n");
		table_write(stdout, a->format, &tg, groups);
	} else {
		table_write(stdout, a->format, &t, rows);
	}
	if (a->out != NULL)
		status |= matrix_save(c, rows, groups);
	if (a->plot != NULL && (mkdir(a->plot, 0777) == 0 || errno == EEXIST) &&
	    heatmap_matrix(rows, a->queue, a->plot, err,
	    sizeof(err)) != 0) {
		fprintf(stderr, "dispatchbench: %s\n", err);
		status = 1;
	}
	cJSON_Delete(rows);
	cJSON_Delete(groups);
out:
	free(cells);
	pin_plan_fini(&plan);
	return status;
}

const struct command command_matrix = {
	.name = "matrix",
	.args = "[options]",
	.summary = "a handoff's cost between every pair of PUs: a cache line, "
	    "a queue",
	OPTS(matrix_opts),
	.run = cmd_matrix,
};
