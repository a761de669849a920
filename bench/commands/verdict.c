/*
 * verdict.c - compare (two results files) and ab (two builds, run
 * interleaved, then compared): a verdict per cell, exit 1 when NEW is
 * broken or worse, 3 when a cell has no answer.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ab.h"
#include "commands.h"
#include "compare.h"
#include "results.h"

/* What the options of this file's commands fill (commands.h). */
struct verdict_args {			/* compare and ab */
	const char *a, *b;
	double budget_s;
	double threshold_pct, alpha;
	int format;
	const char *metric, *plot;
	int allow_other_machine;
	int beside;
	int accept_undecided;		/* undecided exits 0, not 3 */
};
#define COMMAND_ARGS	struct verdict_args

/* What a verdict is reached by, ab's or compare's. */
#define VERDICT_OPTS							\
	{ .flag = "--threshold", .kind = PARAM_NUMBER, .flags = P_POSITIVE, \
	    .hi = 99, .dflt = "5", ARG(threshold_pct), .metavar = "PCT", \
	    .help = "the smallest change worth a verdict" },		\
	{ .flag = "--alpha", .kind = PARAM_NUMBER, .flags = P_POSITIVE,	\
	    .hi = 0.5, .dflt = "0.05", ARG(alpha), .metavar = "A",	\
	    .help = "false alarms allowed over the whole comparison (Holm)" }, \
	{ .flag = "--format", .kind = PARAM_FORMAT, .dflt = "table",	\
	    ARG(format), .metavar = "F", .help = "the verdicts' format" }, \
	OPT_METRIC(metric, "the run field compared"),			\
	{ .flag = "--plot", .kind = PARAM_PATH, ARG(plot), .metavar = "DIR", \
	    .help = "draw the ratios there (ratio.png, ratio.svg)" },	\
	{ .flag = "--accept-undecided", .kind = PARAM_SWITCH,		\
	    ARG(accept_undecided), .help = "exit 0, not 3, when a cell has " \
	    "no answer and none regressed (missing, too few runs)" }

static const struct param verdict_ab_opts[] = {
	{ .flag = "--a", .kind = PARAM_TEXT, ARG(a),
	    .metavar = "'BIN [OPTS]'",
	    .help = "the base build, with options of its own" },
	{ .flag = "--b", .kind = PARAM_TEXT, ARG(b),
	    .metavar = "'BIN [OPTS]'",
	    .help = "the new build, with options of its own" },
	{ .flag = "--budget", .kind = PARAM_DURATION, .lo = 1, .hi = 7 * 86400,
	    ARG(budget_s), .metavar = "DURATION",
	    .help = "add A B B A rounds to undecided cells for this long (90s, "
	    "2m, 1h; default: the --reps alone)" },
	VERDICT_OPTS,
};

static const struct param verdict_compare_opts[] = {
	VERDICT_OPTS,
	{ .flag = "--allow-other-machine", .kind = PARAM_SWITCH,
	    ARG(allow_other_machine),
	    .help = "compare results of two machines" },
	{ .flag = "--beside", .kind = PARAM_SWITCH, ARG(beside),
	    .help = "each real runtime's cells of NEW against its models' in "
	    "BASE (BASE may be NEW: `compare R.json R.json --beside`)" },
};

static int
verdict_opts_apply(const struct verdict_args *v, struct compare_opts *o,
    char *err, size_t errlen)
{

	compare_defaults(o);
	if (v->format == TABLE_GBENCH)
		return snprintf(err, errlen, "--format: gbench is a results "
		    "file's (export), not a comparison's"), -1;
	o->threshold = v->threshold_pct / 100;
	o->alpha = v->alpha;
	o->format = (enum table_format)v->format;
	o->metric = v->metric;
	o->plot_dir = v->plot;
	o->allow_other_machine = v->allow_other_machine != 0;
	o->beside = v->beside != 0;
	if (v->plot != NULL)
		mkdir(v->plot, 0777);
	return 0;
}

/* compare's verdict as an exit status, its reason told. */
static int
verdict_status(int cmp, const char *err, const struct verdict_args *v)
{

	if (cmp == COMPARE_BAD_INPUT)
		return command_bad("%s", err);
	if (cmp == COMPARE_UNDECIDED)
		return v->accept_undecided ? 0 : EXIT_UNDECIDED;
	return cmp == COMPARE_REGRESSED ? 1 : 0;
}

static int
cmd_compare(struct call *c)
{
	struct verdict_args *opt = ARGS_OF(c);
	struct compare_opts o;
	cJSON *docs[2] = { NULL, NULL };
	char err[1024];
	int i, cmp = COMPARE_BAD_INPUT;

	if (command_metric(c, &opt->metric, err, sizeof(err)) != 0 ||
	    verdict_opts_apply(opt, &o, err, sizeof(err)) != 0)
		return command_bad("%s", err);
	o.threshold_given = cli_named(c->argv, c->argc, "--threshold");
	for (i = 0; i < 2; i++)
		if (results_read(c->words[i], &docs[i], err, sizeof(err)) != 0)
			goto out;
	o.sides[0] = c->words[0];
	o.sides[1] = c->words[1];
	cmp = compare_docs(docs[0], docs[1], &o, stdout, err, sizeof(err));
out:
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	return verdict_status(cmp, err, opt);
}

/*
 * Before the first run: with --reps runs a side and no budget to add
 * more, can any cell's p pass Holm's first step, alpha / M? If not, no
 * campaign of this size can answer, and it is refused with the size that
 * can.
 */
static int
verdict_plan(const struct call *c, char *err, size_t errlen)
{
	struct verdict_args *opt = ARGS_OF(c);
	double level = opt->alpha / (double)c->ncells;
	size_t reps = c->sweep.reps, need = compare_min_runs(level);

	/* A cell stopped early in one arm would leave its runs unpaired. */
	if (cli_given(&c->sweep, "--precision")) {
		snprintf(err, errlen, "--precision: ab runs every cell --reps "
		    "times in both builds, A B B A; give --reps or --budget");
		return -1;
	}
	/* Counts that agree run to run need two runs a side to show it. */
	if (c->sweep.cell.count > 0 && reps < 2)
		return snprintf(err, errlen, "--reps %zu: a counted cell needs 2 "
		    "runs a side to show whether its count is exact", reps), -1;
	if (opt->budget_s > 0 || reps >= need || c->sweep.cell.count > 0)
		return 0;
	snprintf(err, errlen, "--reps %zu: no p of %zu runs a side can go below "
	    "%.2g (alpha %g over %zu cell%s, Holm): give --reps %zu or more, or "
	    "--budget", reps, reps, level, opt->alpha, c->ncells,
	    c->ncells > 1 ? "s" : "", need);
	return -1;
}

/* Two builds, interleaved run by run, then compared: exit as compare. */
static int
cmd_ab(struct call *c)
{
	struct verdict_args *opt = ARGS_OF(c);
	const char *const given[2] = { opt->a, opt->b };
	struct runner_arm arms[2];
	struct compare_opts co;
	double *levels = NULL;
	char err[1024], outs[2][4096], sides[2][1024];
	int rc, cmp;

	memset(arms, 0, sizeof(arms));
	if (command_metric(c, &opt->metric, err, sizeof(err)) != 0 ||
	    verdict_opts_apply(opt, &co, err, sizeof(err)) != 0 ||
	    ab_arms(&c->sweep, c->ncells, given, arms, outs, err,
	    sizeof(err)) != 0 || verdict_plan(c, err, sizeof(err)) != 0) {
		rc = command_bad("%s", err);
		goto out;
	}
	co.by_position = true;
	co.one_machine = true;
	co.threshold_given = cli_named(c->argv, c->argc, "--threshold");
	/* Under a machine format the runs are told on stderr. */
	c->sweep.format = co.format;
	if ((levels = calloc(c->ncells, sizeof(*levels))) == NULL)
		abort();
	rc = opt->budget_s > 0 ? ab_sequential(&c->sweep, c->ncells, arms,
	    &co, opt->budget_s, levels, c->argc, c->argv) :
	    runner_sweep(&c->sweep, c->ncells, arms, 2, c->argc, c->argv);
	co.levels = opt->budget_s > 0 ? levels : NULL;
	co.sides[0] = ab_side(&arms[0], sides[0], sizeof(sides[0]));
	co.sides[1] = ab_side(&arms[1], sides[1], sizeof(sides[1]));
	if (rc < RUNNER_INTERRUPTED) {
		fprintf(runner_talk(&c->sweep), "\n");
		cmp = compare_docs(arms[0].doc, arms[1].doc, &co, stdout, err,
		    sizeof(err));
		rc = cmp == COMPARE_REGRESSED || (rc == RUNNER_RUN_FAILED &&
		    cmp != COMPARE_BAD_INPUT) ? 1 : verdict_status(cmp, err,
		    opt);
	}
out:
	cJSON_Delete(arms[0].doc);
	cJSON_Delete(arms[1].doc);
	free((void *)arms[0].cells);
	free((void *)arms[1].cells);
	free(levels);
	return rc;
}

const struct command command_ab = {
	.name = "ab",
	.args = "--a 'BIN [OPTS]' --b 'BIN [OPTS]' [options]",
	.summary = "run two builds interleaved A B B A, then compare them",
	OPTS(verdict_ab_opts),
	.sweep = command_run_sweep,
	.run = cmd_ab,
};
const struct command command_compare = {
	.name = "compare",
	.args = "BASE.json NEW.json [options]",
	.summary = "NEW against BASE, cell by cell, with a verdict (exit 1: "
	    "worse, 3: undecided)",
	OPTS(verdict_compare_opts),
	.minwords = 2,
	.maxwords = 2,
	.run = cmd_compare,
};
