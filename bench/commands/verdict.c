/*
 * verdict.c - compare (two results files) and ab (two builds, run
 * interleaved, then compared): a verdict per cell, exit 1 when NEW is
 * broken or worse, 3 when a cell has no answer.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "compare.h"
#include "measure.h"
#include "rank.h"
#include "results.h"
#include "seq.h"

/* ab's take the first nine; compare's, from the fourth on. */
static const struct param verdict_opts[] = {
	{ .flag = "--a", .kind = PARAM_TEXT, ARG(v.a),
	    .metavar = "'BIN [OPTS]'",
	    .help = "the base build, with options of its own" },
	{ .flag = "--b", .kind = PARAM_TEXT, ARG(v.b),
	    .metavar = "'BIN [OPTS]'",
	    .help = "the new build, with options of its own" },
	{ .flag = "--budget", .kind = PARAM_DURATION, .lo = 1, .hi = 7 * 86400,
	    ARG(v.budget_s), .metavar = "DURATION",
	    .help = "add A B B A rounds to undecided cells for this long (90s, "
	    "2m, 1h; default: the --reps alone)" },
	{ .flag = "--threshold", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 99, .dflt = "5", ARG(v.threshold_pct), .metavar = "PCT",
	    .help = "the smallest change worth a verdict" },
	{ .flag = "--alpha", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 0.5, .dflt = "0.05", ARG(v.alpha), .metavar = "A",
	    .help = "false alarms allowed over the whole comparison (Holm)" },
	{ .flag = "--format", .kind = PARAM_FORMAT, .dflt = "table",
	    ARG(v.format), .metavar = "F", .help = "the verdicts' format" },
	{ .flag = "--metric", .kind = PARAM_TEXT, .dflt = "cpu_us_per_dispatch",
	    ARG(v.metric), .metavar = "FIELD",
	    .help = "the run field compared" },
	{ .flag = "--plot", .kind = PARAM_PATH, ARG(v.plot), .metavar = "DIR",
	    .help = "draw the ratios there (ratio.png, ratio.svg)" },
	{ .flag = "--accept-undecided", .kind = PARAM_SWITCH,
	    ARG(v.accept_undecided), .help = "exit 0, not 3, when a cell has "
	    "no answer and none regressed (missing, too few runs)" },
	{ .flag = "--allow-other-machine", .kind = PARAM_SWITCH,
	    ARG(v.allow_other_machine),
	    .help = "compare results of two machines" },
	{ .flag = "--beside", .kind = PARAM_SWITCH, ARG(v.beside),
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
	struct compare_opts o;
	cJSON *docs[2] = { NULL, NULL };
	char err[512];
	int i, cmp = COMPARE_BAD_INPUT;

	if (verdict_opts_apply(&c->args.v, &o, err, sizeof(err)) != 0)
		return command_bad("%s", err);
	for (i = 0; i < 2; i++)
		if (results_read(c->words[i], &docs[i], err, sizeof(err)) != 0)
			goto out;
	o.sides[0] = c->words[0];
	o.sides[1] = c->words[1];
	cmp = compare_docs(docs[0], docs[1], &o, stdout, err, sizeof(err));
out:
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	return verdict_status(cmp, err, &c->args.v);
}

/*
 * The cells an arm runs: the sweep's, with the arm's own options on top.
 * They may set a cell's parameters (--queue, --payload-ns, ...), which
 * its cells then record; never the sweep's window or output, and never so
 * that the arm's cells stop matching the sweep's one for one.
 */
static struct cell *
ab_arm_cells(const struct sweep *sweep, const struct runner_arm *arm,
    const char *flag, size_t n, char *err, size_t errlen)
{
	struct sweep *s = malloc(sizeof(*s));
	struct cell *cells = NULL;
	const char *own;
	char why[400];
	size_t m;

	if (s == NULL)
		abort();
	*s = *sweep;
	if (cli_parse(s, arm->nwords - 1, (char **)arm->words + 1, why,
	    sizeof(why)) != 0)
		snprintf(err, errlen, "%s: %s", flag, why);
	else if ((own = cli_sweep_differs(s, sweep)) != NULL)
		snprintf(err, errlen, "%s: %s: the window, the repetitions and "
		    "the output are the whole sweep's, not one arm's", flag,
		    own);
	else if ((cells = cli_cells(s, &m, why, sizeof(why))) == NULL)
		snprintf(err, errlen, "%s: %s", flag, why);
	else if (m != n) {
		snprintf(err, errlen, "%s: its options make %zu cells where the "
		    "sweep has %zu: they conflict with the sweep's own lists",
		    flag, m, n);
		free(cells);
		cells = NULL;
	}
	free(s);
	return cells;
}

/* The two arms from --a and --b, their cells and results files. */
static int
ab_arms(struct call *c, struct runner_arm *arms, char outs[2][4096],
    char *err, size_t errlen)
{
	const char *given[2] = { c->args.v.a, c->args.v.b }, *flag;
	size_t len = strlen(c->sweep.out);
	int k;

	if (given[0] == NULL || given[1] == NULL)
		return snprintf(err, errlen, "ab needs --a BINARY and --b BINARY"),
		    -1;
	if (len > 5 && strcmp(c->sweep.out + len - 5, ".json") == 0)
		len -= 5;
	for (k = 0; k < 2; k++) {
		flag = k ? "--b" : "--a";
		arms[k].label = k ? "b" : "a";
		if (runner_arm_parse(&arms[k], (char *)given[k]) != 0)
			return snprintf(err, errlen, "%s: give a binary and at most "
			    "%d options", flag, RUNNER_ARM_WORDS - 1), -1;
		if (access(arms[k].words[0], X_OK) != 0)
			return snprintf(err, errlen, "%s: '%s' is not an "
			    "executable", flag, arms[k].words[0]), -1;
		if ((arms[k].cells = ab_arm_cells(&c->sweep, &arms[k], flag,
		    c->ncells, err, errlen)) == NULL)
			return -1;
		snprintf(outs[k], 4096, "%.*s-%c.json", (int)len, c->sweep.out,
		    'a' + k);
		arms[k].out = outs[k];
	}
	return 0;
}

/*
 * `ab --budget`: the sweep's repetitions, then A B B A rounds of every
 * cell still undecided, each cell looked at after each round at the
 * nominal level of a group-sequential design that spends alpha / M on each
 * of the M cells, until every cell is decided or the next round would not
 * fit in the budget: that look is then the last, and spends what is left.
 * levels gets the level each cell was decided (or left) at.
 */
static int
ab_sequential(struct call *c, const struct compare_opts *co,
    struct runner_arm *arms, double *levels)
{
	double started = measure_now(), budget = c->args.v.budget_s, round_s;
	double level[SEQ_MAX_LOOKS], alpha = co->alpha / (double)c->ncells;
	size_t looks, k, ci, n = c->ncells, open = n, reps = c->sweep.reps;
	bool *done = calloc(n, sizeof(*done)), last;
	int failed;

	if (done == NULL)
		abort();
	runner_start(&c->sweep, n, arms, 2, c->argc, c->argv);
	failed = runner_reps(&c->sweep, n, arms, 2);
	/* One round of one cell: 4 runs, at the pace of the first sweep. */
	round_s = (measure_now() - started) * 2 / (double)(n * reps);
	looks = 1 + (size_t)fmax(0, (budget - (measure_now() - started)) /
	    (round_s * (double)n));
	looks = looks > SEQ_MAX_LOOKS ? SEQ_MAX_LOOKS : looks;
	seq_round_levels(reps, looks, alpha, false, level);
	for (k = 0;; k++) {
		last = k + 1 == looks || budget - (measure_now() - started) <
		    round_s * (double)open;
		if (last && k + 1 < looks)
			seq_round_levels(reps, k + 1, alpha, true, level);
		open = compare_look_open(arms[0].doc, arms[1].doc, co, level[k],
		    done, levels);
		if (open == 0 || last || runner_stopped())
			break;
		for (ci = 0; ci < n && !runner_stopped(); ci++)
			if (!done[ci])
				failed |= runner_round(&c->sweep, ci, reps + 2 * k,
				    arms);
	}
	fprintf(runner_talk(&c->sweep), "\nsequential: %zu of %zu cells decided "
	    "after %zu look%s in %.0f s of a %.0f s budget\n", n - open, n,
	    k + 1, k ? "s" : "", measure_now() - started, budget);
	free(done);
	return runner_finish(&c->sweep, arms, 2, failed);
}

/*
 * Before the first run: with --reps runs a side and no budget to add
 * more, can any cell's p pass Holm's first step, alpha / M? If not, no
 * campaign of this size can answer, and it is refused with the size that
 * can.
 */
static int
ab_plan(const struct call *c, char *err, size_t errlen)
{
	double level = c->args.v.alpha / (double)c->ncells;
	size_t reps = c->sweep.reps;

	/* A cell stopped early in one arm would leave its runs unpaired. */
	if (cli_given(&c->sweep, "--precision")) {
		snprintf(err, errlen, "--precision: ab runs every cell --reps "
		    "times in both builds, A B B A; give --reps or --budget");
		return -1;
	}
	if (c->args.v.budget_s > 0 || rank_p_min(reps, reps) < level)
		return 0;
	snprintf(err, errlen, "--reps %zu: no p of %zu runs a side can go below "
	    "%.2g (alpha %g over %zu cell%s, Holm): give --reps %zu or more, or "
	    "--budget", reps, reps, level, c->args.v.alpha, c->ncells,
	    c->ncells > 1 ? "s" : "", compare_min_runs(level));
	return -1;
}

/* An arm as people name it: "A: BIN OPTS, results FILE". */
static const char *
ab_side(const struct runner_arm *arm, char *buf, size_t len)
{
	size_t used;
	int w;

	used = (size_t)snprintf(buf, len, "%c:", arm->label[0] - 'a' + 'A');
	for (w = 0; w < arm->nwords && used < len; w++)
		used += (size_t)snprintf(buf + used, len - used, " %s",
		    arm->words[w]);
	if (used < len)
		snprintf(buf + used, len - used, ", results %s", arm->out);
	return buf;
}

/* Two builds, interleaved run by run, then compared: exit as compare. */
static int
cmd_ab(struct call *c)
{
	struct runner_arm arms[2];
	struct compare_opts co;
	double *levels = NULL;
	char err[512], outs[2][4096], sides[2][1024];
	int rc, cmp;

	memset(arms, 0, sizeof(arms));
	if (verdict_opts_apply(&c->args.v, &co, err, sizeof(err)) != 0 ||
	    ab_arms(c, arms, outs, err, sizeof(err)) != 0 ||
	    ab_plan(c, err, sizeof(err)) != 0) {
		rc = command_bad("%s", err);
		goto out;
	}
	co.by_position = true;
	/* Under a machine format the runs are told on stderr. */
	c->sweep.format = co.format;
	if ((levels = calloc(c->ncells, sizeof(*levels))) == NULL)
		abort();
	rc = c->args.v.budget_s > 0 ? ab_sequential(c, &co, arms, levels) :
	    runner_sweep(&c->sweep, c->ncells, arms, 2, c->argc, c->argv);
	co.levels = c->args.v.budget_s > 0 ? levels : NULL;
	co.sides[0] = ab_side(&arms[0], sides[0], sizeof(sides[0]));
	co.sides[1] = ab_side(&arms[1], sides[1], sizeof(sides[1]));
	if (rc < RUNNER_INTERRUPTED) {
		fprintf(runner_talk(&c->sweep), "\n");
		cmp = compare_docs(arms[0].doc, arms[1].doc, &co, stdout, err,
		    sizeof(err));
		rc = cmp == COMPARE_REGRESSED || (rc == RUNNER_RUN_FAILED &&
		    cmp != COMPARE_BAD_INPUT) ? 1 : verdict_status(cmp, err,
		    &c->args.v);
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
	.opts = verdict_opts,
	.nopts = 9,
	.sweep = command_run_sweep,
	.run = cmd_ab,
};
const struct command command_compare = {
	.name = "compare",
	.args = "BASE.json NEW.json [options]",
	.summary = "NEW against BASE, cell by cell, with a verdict (exit 1: "
	    "worse, 3: undecided)",
	.opts = verdict_opts + 3,
	.nopts = 8,
	.minwords = 2,
	.maxwords = 2,
	.run = cmd_compare,
};
