/*
 * main.c - the dispatchbench command: the only file that prints usage and
 * decides exit statuses. 0 success, 1 a run failed, 2 bad input, 130
 * interrupted by SIGINT, 143 by SIGTERM.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "advise.h"
#include "cli.h"
#include "compare.h"
#include "export.h"
#include "measure.h"
#include "pin.h"
#include "plot.h"
#include "report.h"
#include "results.h"
#include "runner.h"
#include "seq.h"

#define EXIT_USAGE	2

static const char usage[] =
"usage: dispatchbench run [--dispatcher LIST] [--queue LIST] [--workers LIST]\n"
"                         [--coroutines LIST] [--pin none|compact|scatter|PUS]\n"
"                         [--warmup S] [--time S] [--reps N] [--out FILE.json]\n"
"                         [--spins N] [--wake every|lazy] [--pool N]\n"
"                         [--keepalive S] [--capacity N] [--payload-ns N]\n"
"                         [--lifo on|off[,..]] [--searchers half|all[,..]]\n"
"                         [--workload LIST] [--latency-every N]\n"
"                         [--deadline S] [--stall S] [--quiet]\n"
"                         [--format table|csv|markdown|json|gbench]\n"
"       dispatchbench compare BASE.json NEW.json [--threshold PCT] [--alpha A]\n"
"                         [--format table|markdown|json|csv] [--metric FIELD]\n"
"                         [--plot DIR] [--allow-other-machine]\n"
"       dispatchbench ab --a 'BIN [OPTS]' --b 'BIN [OPTS]' [run options]\n"
"                         [--threshold PCT] [--alpha A] [--format F] [--plot DIR]\n"
"                         [--metric FIELD] [--budget DURATION]\n"
"       dispatchbench advise [--dispatcher D] [--queue Q] [--coroutines N]\n"
"                         [--blocking [sleep:|spin:]MS:SHARE] [--rate OPS]\n"
"                         [--p99 MS] [--from RESULTS.json] [run options]\n"
"       dispatchbench plot RESULTS.json [-o DIR]\n"
"       dispatchbench export RESULTS.json [--format table|csv|markdown|json|gbench]\n"
"       dispatchbench report RESULTS.json [-o PAGE.html]\n"
"       dispatchbench list\n"
"       dispatchbench topo\n"
"LIST is comma-separated; A..B is the powers of two from A to B.\n"
"A workload is resume, sleep:MS:SHARE or spin:MS:SHARE.\n";

static int
bad(const char *msg)
{

	fprintf(stderr, "dispatchbench: %s\n", msg);
	return EXIT_USAGE;
}

static int
cmd_list(void)
{
	size_t i;

	printf("dispatchers:\n");
	for (i = 0; i < disp_count(); i++)
		printf("  %-11s %s\n", disp_at(i)->name, disp_at(i)->model);
	printf("queues:\n");
	for (i = 0; i < queue_count(); i++)
		printf("  %-11s %s%s%s\n", queue_at(i)->name,
		    queue_at(i)->model,
		    queue_at(i)->flags & Q_BOUNDED ? " [bounded]" : "",
		    queue_at(i)->flags & Q_ONE_CONSUMER ?
		    " [one consumer: eventloop's inbox]" : "");
	return 0;
}

static int
cmd_topo(void)
{
	struct pin_plan plan;
	char err[256];

	if (pin_plan_init(&plan, "none", err, sizeof(err)) != 0)
		return bad(err);
	pin_topology_print(plan.topo, stdout);
	pin_plan_fini(&plan);
	return 0;
}

/*
 * Parses options over the defaults already in o and checks the pin plan
 * before anything runs.
 */
static struct cell *
parse_cells(struct cli_opts *o, int argc, char **argv, size_t *n, char *err,
    size_t errlen)
{
	struct pin_plan plan;

	if (cli_parse(o, argc, argv, err, errlen) != 0)
		return NULL;
	if (pin_plan_init(&plan, o->pin, err, errlen) != 0)
		return NULL;
	pin_plan_fini(&plan);
	return cli_cells(o, n, err, errlen);
}

static int
cmd_run(int argc, char **argv, int all_argc, char **all_argv)
{
	struct runner_arm arm = { .label = NULL, .nwords = 1 };
	struct cli_opts o;
	struct cell *cells;
	char err[512], self[4096];
	ssize_t len;
	size_t n;
	int rc;

	cli_defaults(&o);
	if ((cells = parse_cells(&o, argc, argv, &n, err, sizeof(err))) == NULL)
		return bad(err);
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[len > 0 ? len : 0] = '\0';
	arm.words[0] = self;
	arm.cells = cells;
	arm.out = o.out;
	rc = runner_sweep(&o, n, &arm, 1, all_argc, all_argv);
	/* With --quiet and a format, stdout holds the export alone. */
	if (!o.quiet || o.format != EXPORT_TABLE)
		export_write(stdout, arm.doc, o.format);
	cJSON_Delete(arm.doc);
	free(cells);
	return rc;
}

/* Parses compare's own options; the rest is left for the caller. */
static int
parse_compare_option(struct compare_opts *o, const char *opt, const char *v,
    char *err, size_t errlen)
{
	char *end;
	double x;

	if (strcmp(opt, "--format") == 0) {
		if (strcmp(v, "table") == 0)
			o->format = COMPARE_TABLE;
		else if (strcmp(v, "markdown") == 0)
			o->format = COMPARE_MARKDOWN;
		else if (strcmp(v, "json") == 0)
			o->format = COMPARE_JSON;
		else if (strcmp(v, "csv") == 0)
			o->format = COMPARE_CSV;
		else
			return snprintf(err, errlen, "--format: '%s' is not "
			    "table, markdown, json or csv", v), -1;
		return 0;
	}
	if (strcmp(opt, "--metric") == 0) {
		o->metric = v;
		return 0;
	}
	if (strcmp(opt, "--plot") == 0) {
		o->plot_dir = v;
		mkdir(v, 0777);
		return 0;
	}
	x = strtod(v, &end);
	if (end == v || *end != '\0' || !(x > 0))
		return snprintf(err, errlen, "%s: '%s' is not a positive number",
		    opt, v), -1;
	if (strcmp(opt, "--threshold") == 0 && x < 100)
		o->threshold = x / 100;
	else if (strcmp(opt, "--alpha") == 0 && x < 1)
		o->alpha = x;
	else
		return snprintf(err, errlen, "%s: %s is out of range", opt, v), -1;
	return 0;
}

/* A duration: seconds, or a number with s, m or h. */
static int
parse_duration(const char *opt, const char *v, double *x, char *err,
    size_t errlen)
{
	char *end;

	*x = strtod(v, &end);
	if (end != v && strcmp(end, "m") == 0)
		*x *= 60;
	else if (end != v && strcmp(end, "h") == 0)
		*x *= 3600;
	else if (end == v || (*end != '\0' && strcmp(end, "s") != 0))
		return snprintf(err, errlen, "%s: '%s' is not a duration (90s, "
		    "2m, 1h)", opt, v), -1;
	if (!(*x >= 1 && *x <= 7 * 86400))
		return snprintf(err, errlen, "%s: %s is out of range 1s..7d",
		    opt, v), -1;
	return 0;
}

/*
 * Splits ab's arguments: --a, --b, --budget and compare's options here,
 * the rest (run options) into rest. Returns -1 with err on a bad one.
 */
static int
parse_ab(int argc, char **argv, struct runner_arm *arms,
    struct compare_opts *co, double *budget, char **rest, int *nrest,
    char *err, size_t errlen)
{
	int i, k;

	for (i = 0; i < argc; i++) {
		k = strcmp(argv[i], "--a") == 0 ? 0 :
		    strcmp(argv[i], "--b") == 0 ? 1 : -1;
		if (i + 1 < argc && k >= 0) {
			if (runner_arm_parse(&arms[k], argv[++i]) != 0)
				return snprintf(err, errlen, "%s: give a binary "
				    "and at most 15 options", argv[i - 1]), -1;
			if (access(arms[k].words[0], X_OK) != 0)
				return snprintf(err, errlen, "%s: '%s' is not an "
				    "executable", argv[i - 1], arms[k].words[0]), -1;
			continue;
		}
		if (i + 1 < argc && strcmp(argv[i], "--budget") == 0) {
			if (parse_duration(argv[i], argv[i + 1], budget, err,
			    errlen) != 0)
				return -1;
			i++;
			continue;
		}
		if (i + 1 < argc && (strcmp(argv[i], "--threshold") == 0 ||
		    strcmp(argv[i], "--alpha") == 0 ||
		    strcmp(argv[i], "--format") == 0 ||
		    strcmp(argv[i], "--plot") == 0 ||
		    strcmp(argv[i], "--metric") == 0)) {
			if (parse_compare_option(co, argv[i], argv[i + 1], err,
			    errlen) != 0)
				return -1;
			i++;
			continue;
		}
		rest[(*nrest)++] = argv[i];
	}
	if (arms[0].nwords == 0 || arms[1].nwords == 0)
		return snprintf(err, errlen, "ab needs --a BINARY and --b BINARY"),
		    -1;
	return 0;
}

/*
 * The cells an arm runs: the sweep's, with the arm's own options on top.
 * They may set a cell's parameters (--queue, --payload-ns, ...), which
 * its cells then record; never the sweep's window or output, and never so
 * that the arm's cells stop matching the sweep's one for one.
 */
static struct cell *
ab_arm_cells(const struct cli_opts *sweep, const struct runner_arm *arm,
    const char *flag, size_t n, char *err, size_t errlen)
{
	struct cli_opts o = *sweep;
	struct cell *cells;
	char why[400];
	size_t m;

	if (cli_parse(&o, arm->nwords - 1, (char **)arm->words + 1, why,
	    sizeof(why)) != 0)
		return snprintf(err, errlen, "%s: %s", flag, why), NULL;
	if (o.win.warmup_s != sweep->win.warmup_s ||
	    o.win.time_s != sweep->win.time_s || o.reps != sweep->reps ||
	    o.out != sweep->out || o.format != sweep->format ||
	    o.quiet != sweep->quiet || o.deadline_s != sweep->deadline_s)
		return snprintf(err, errlen, "%s: the window, the repetitions "
		    "and the output are the whole sweep's, not one arm's", flag),
		    NULL;
	if ((cells = cli_cells(&o, &m, why, sizeof(why))) == NULL)
		return snprintf(err, errlen, "%s: %s", flag, why), NULL;
	if (m != n) {
		free(cells);
		return snprintf(err, errlen, "%s: its options make %zu cells "
		    "where the sweep has %zu: they conflict with the sweep's own "
		    "lists", flag, m, n), NULL;
	}
	return cells;
}

/*
 * `ab --budget`: the sweep's repetitions, then A B B A rounds of every
 * cell still undecided, each cell looked at after each round at the
 * nominal level of a group-sequential design (seq.h) that spends alpha / M
 * on each of the M cells, until every cell is decided or the next round
 * would not fit in the budget: that look is then the last, and spends
 * what is left. levels gets the level each cell was decided (or left) at.
 */
static int
ab_sequential(struct cli_opts *o, const struct compare_opts *co, size_t n,
    struct runner_arm *arms, double budget, double *levels, int argc,
    char **argv)
{
	double started = measure_now(), round_s, *t, *level;
	const cJSON *ca, *cb;
	size_t looks, k, ci, open = n, reps = o->reps;
	bool *done = calloc(n, sizeof(*done)), last;
	int failed;

	runner_start(o, n, arms, 2, argc, argv);
	failed = runner_reps(o, n, arms, 2);
	/* One round of one cell: 4 runs, at the pace of the first sweep. */
	round_s = (measure_now() - started) * 2 / (double)(n * o->reps);
	looks = 1 + (size_t)fmax(0, (budget - (measure_now() - started)) /
	    (round_s * (double)n));
	looks = looks > SEQ_MAX_LOOKS ? SEQ_MAX_LOOKS : looks;
	t = calloc(looks, sizeof(*t));
	level = calloc(looks, sizeof(*level));
	if (done == NULL || t == NULL || level == NULL)
		abort();
	for (k = 0; k < looks; k++)
		t[k] = seq_information(reps + 2 * k, reps + 2 * k) /
		    seq_information(reps + 2 * (looks - 1), reps + 2 * (looks - 1));
	seq_levels(t, looks, co->alpha / (double)n, false, level);
	for (k = 0; open > 0 && !runner_stopped(); k++) {
		last = k + 1 == looks || budget - (measure_now() - started) <
		    round_s * (double)open;
		if (last && k + 1 < looks)
			seq_levels(t, k + 1, co->alpha / (double)n, true, level);
		for (ci = 0; ci < n; ci++) {
			if (done[ci])
				continue;
			ca = cJSON_GetArrayItem(cJSON_GetObjectItem(arms[0].doc,
			    "cells"), (int)ci);
			cb = cJSON_GetArrayItem(cJSON_GetObjectItem(arms[1].doc,
			    "cells"), (int)ci);
			levels[ci] = level[k];
			if (compare_look(ca, cb, co, level[k]) != NULL) {
				done[ci] = true;
				open--;
			}
		}
		if (last)
			break;
		for (ci = 0; ci < n && !runner_stopped(); ci++)
			if (!done[ci])
				failed |= runner_round(o, ci, reps + 2 * k, arms);
	}
	fprintf(runner_talk(o), "\nsequential: %zu of %zu cells decided after "
	    "%zu look%s in %.0f s of a %.0f s budget\n", n - open, n, k + 1,
	    k ? "s" : "", measure_now() - started, budget);
	free(done);
	free(t);
	free(level);
	return runner_finish(o, arms, 2, failed);
}

/* Two builds, interleaved run by run, then compared: exit as compare. */
static int
cmd_ab(int argc, char **argv, int all_argc, char **all_argv)
{
	struct runner_arm arms[2] = { { .label = "a" }, { .label = "b" } };
	char err[512], outs[2][4096], **rest = calloc((size_t)argc + 1,
	    sizeof(*rest));
	struct compare_opts co;
	struct cli_opts o;
	struct cell *cells = NULL, *armcells[2] = { NULL, NULL };
	const int bad_usage = -1;
	double budget = 0, *levels = NULL;
	int nrest = 0, rc, cmp, k;
	size_t n, len;

	compare_defaults(&co);
	cli_defaults(&o);
	rc = bad_usage;
	if (parse_ab(argc, argv, arms, &co, &budget, rest, &nrest, err,
	    sizeof(err)) != 0 ||
	    (cells = parse_cells(&o, nrest, rest, &n, err, sizeof(err))) == NULL)
		goto out;
	for (k = 0; k < 2; k++)
		if ((armcells[k] = ab_arm_cells(&o, &arms[k], k ? "--b" : "--a", n,
		    err, sizeof(err))) == NULL)
			goto out;
	len = strlen(o.out);
	if (len > 5 && strcmp(o.out + len - 5, ".json") == 0)
		len -= 5;
	for (k = 0; k < 2; k++) {
		snprintf(outs[k], sizeof(outs[k]), "%.*s-%c.json", (int)len,
		    o.out, 'a' + k);
		arms[k].out = outs[k];
		arms[k].cells = armcells[k];
	}
	co.by_position = true;
	/* Under a machine format the runs are told on stderr. */
	o.format = co.format == COMPARE_TABLE ? EXPORT_TABLE : EXPORT_JSON;
	if (budget > 0 && (levels = calloc(n, sizeof(*levels))) == NULL)
		abort();
	rc = budget > 0 ? ab_sequential(&o, &co, n, arms, budget, levels,
	    all_argc, all_argv) : runner_sweep(&o, n, arms, 2, all_argc,
	    all_argv);
	co.levels = levels;
	if (rc < RUNNER_INTERRUPTED) {
		fprintf(runner_talk(&o), "\n");
		cmp = compare_docs(arms[0].doc, arms[1].doc, &co, stdout, err,
		    sizeof(err));
		if (cmp == COMPARE_BAD_INPUT)
			fprintf(stderr, "dispatchbench: %s\n", err);
		rc = cmp == COMPARE_REGRESSED || rc == RUNNER_RUN_FAILED ? 1 :
		    cmp == COMPARE_BAD_INPUT ? EXIT_USAGE : 0;
	}
	cJSON_Delete(arms[0].doc);
	cJSON_Delete(arms[1].doc);
out:
	free(armcells[0]);
	free(armcells[1]);
	free(cells);
	free(rest);
	free(levels);
	return rc == bad_usage ? bad(err) : rc;
}

struct advise_args {
	struct workload_profile blocking;	/* WORKLOAD_RESUME: none */
	struct advise_target target;
	const char *from;
};

static int
parse_positive(const char *opt, const char *v, double scale, double *x,
    char *err, size_t errlen)
{
	char *end;

	*x = strtod(v, &end) * scale;
	if (end == v || *end != '\0' || !(*x > 0) || !isfinite(*x))
		return snprintf(err, errlen, "%s: '%s' is not a positive number",
		    opt, v), -1;
	return 0;
}

/* advise's own options here, run options into rest. */
static int
parse_advise(int argc, char **argv, struct advise_args *a, char **rest,
    int *nrest, char *err, size_t errlen)
{
	char spec[64];
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < argc; i++) {
		const char *opt = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(opt, "--workload") == 0)
			return snprintf(err, errlen, "advise: give the profile "
			    "with --blocking, not --workload"), -1;
		if (v == NULL || (strcmp(opt, "--blocking") != 0 &&
		    strcmp(opt, "--rate") != 0 && strcmp(opt, "--p99") != 0 &&
		    strcmp(opt, "--from") != 0)) {
			rest[(*nrest)++] = argv[i];
			continue;
		}
		i++;
		if (strcmp(opt, "--from") == 0)
			a->from = v;
		else if (strcmp(opt, "--rate") == 0 &&
		    parse_positive(opt, v, 1, &a->target.rate, err, errlen) != 0)
			return -1;
		else if (strcmp(opt, "--p99") == 0 &&
		    parse_positive(opt, v, 1e3, &a->target.p99_us, err,
		    errlen) != 0)
			return -1;
		else if (strcmp(opt, "--blocking") == 0) {
			snprintf(spec, sizeof(spec), "%s%s", strchr(v, ':') ==
			    strrchr(v, ':') ? "sleep:" : "", v);
			if (workload_profile_parse(&a->blocking, spec, err,
			    errlen) != 0 || !workload_blocks_some(&a->blocking))
				return snprintf(err, errlen, "--blocking: '%s' is "
				    "not MS:SHARE, sleep:MS:SHARE or spin:MS:SHARE",
				    v), -1;
		}
	}
	return 0;
}

/* Measures (or reads) both profiles at every width, then advises. */
static int
advise_doc(struct cli_opts *o, const struct advise_args *a, int all_argc,
    char **all_argv, cJSON **doc, char *err, size_t errlen)
{
	struct runner_arm arm = { .label = NULL, .nwords = 1 };
	char self[4096];
	struct cell *cells;
	ssize_t len;
	size_t n;
	int rc;

	if (a->from != NULL)
		return results_read(a->from, doc, err, errlen) != 0 ? EXIT_USAGE :
		    0;
	if ((cells = cli_cells(o, &n, err, errlen)) == NULL)
		return EXIT_USAGE;
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[len > 0 ? len : 0] = '\0';
	arm.words[0] = self;
	arm.cells = cells;
	arm.out = o->out;
	rc = runner_sweep(o, n, &arm, 1, all_argc, all_argv);
	free(cells);
	*doc = arm.doc;
	return rc;
}

static int
cmd_advise(int argc, char **argv, int all_argc, char **all_argv)
{
	char err[512], **rest = calloc((size_t)argc + 1, sizeof(*rest));
	struct advise_row rows[ADVISE_MAX_ROWS];
	const struct workload_profile *load;
	struct advise_pick pick;
	struct advise_args a;
	struct cli_opts o;
	cJSON *doc = NULL;
	struct cell *probe;
	size_t n;
	int nrest = 0, rc;

	cli_defaults(&o);
	o.disps[0] = &disp_shared;
	o.ndisps = 1;
	o.out = "results/advise.json";
	if (parse_advise(argc, argv, &a, rest, &nrest, err, sizeof(err)) != 0 ||
	    (probe = parse_cells(&o, nrest, rest, &n, err, sizeof(err))) == NULL) {
		free(rest);
		return bad(err);
	}
	free(probe);
	free(rest);
	if (o.ndisps != 1 || o.nqueues != 1 || o.ncoroutines != 1)
		return bad("advise: give one dispatcher, one queue and one "
		    "coroutine count");
	load = a.blocking.kind != WORKLOAD_RESUME ? &a.blocking : NULL;
	o.profiles[1] = a.blocking;
	o.nprofiles = load != NULL ? 2 : 1;
	rc = advise_doc(&o, &a, all_argc, all_argv, &doc, err, sizeof(err));
	if (rc == EXIT_USAGE)
		return bad(err);
	if (rc >= RUNNER_INTERRUPTED || advise_rows(doc, o.disps[0]->name,
	    o.disps[0]->flags & DISP_USES_QUEUE ? o.queues[0]->name : "-",
	    o.coroutines[0], load, rows, &n, err, sizeof(err)) != 0) {
		cJSON_Delete(doc);
		return rc >= RUNNER_INTERRUPTED ? rc : bad(err);
	}
	advise_choose(rows, n, &a.target, &pick);
	if (load != NULL)
		workload_profile_format(load, err, sizeof(err));
	printf("\nadvise: %s over %s, %u coroutines; cost from resume-only, "
	    "capacity and p99 under %s\n", o.disps[0]->name,
	    o.disps[0]->flags & DISP_USES_QUEUE ? o.queues[0]->name :
	    "no queue", o.coroutines[0], load != NULL ? err : "resume-only");
	advise_print(stdout, rows, n, &a.target, &pick, load, o.coroutines[0],
	    measure_cpus());
	results_memory_fits(doc);
	export_memory_fits(stdout, doc);
	cJSON_Delete(doc);
	return rc;
}

/*
 * One run of one cell, printed as one JSON line: what `run` forks. Exit
 * status 1 when the run is not ok.
 */
static int
cmd_cell(int argc, char **argv)
{
	struct cli_opts o;
	struct cell *cells;
	char err[512];
	cJSON *run;
	size_t n;
	int rc;

	cli_defaults(&o);
	if ((cells = parse_cells(&o, argc, argv, &n, err, sizeof(err))) == NULL)
		return bad(err);
	if (n != 1) {
		free(cells);
		return bad("cell: the options must name exactly one cell");
	}
	run = cell_run(&cells[0], &o.win);
	cell_print(stdout, run);
	rc = strcmp(results_str(run, "status", "?"), "ok") == 0 ? 0 :
	    RUNNER_RUN_FAILED;
	cJSON_Delete(run);
	free(cells);
	return rc;
}

static int
cmd_compare(int argc, char **argv)
{
	struct compare_opts o;
	const char *paths[2];
	cJSON *docs[2] = { NULL, NULL };
	char err[512];
	int i, n = 0, rc = EXIT_USAGE;

	compare_defaults(&o);
	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--allow-other-machine") == 0)
			o.allow_other_machine = true;
		else if (strncmp(argv[i], "--", 2) == 0 && i + 1 < argc) {
			if (parse_compare_option(&o, argv[i], argv[i + 1], err,
			    sizeof(err)) != 0)
				return bad(err);
			i++;
		} else if (argv[i][0] != '-' && n < 2)
			paths[n++] = argv[i];
		else
			return bad("usage: dispatchbench compare BASE.json NEW.json "
			    "[options]");
	}
	if (n != 2)
		return bad("usage: dispatchbench compare BASE.json NEW.json "
		    "[options]");
	for (i = 0; i < 2; i++) {
		if (results_read(paths[i], &docs[i], err, sizeof(err)) != 0)
			goto out;
	}
	switch (compare_docs(docs[0], docs[1], &o, stdout, err, sizeof(err))) {
	case COMPARE_REGRESSED:
		rc = 1;
		break;
	case COMPARE_NO_REGRESSION:
		rc = 0;
		break;
	}
out:
	cJSON_Delete(docs[0]);
	cJSON_Delete(docs[1]);
	return rc == EXIT_USAGE ? bad(err) : rc;
}

/* A results file in another format. */
static int
cmd_export(int argc, char **argv)
{
	enum export_format f = EXPORT_TABLE;
	const char *path = NULL;
	char err[512];
	cJSON *doc;
	int i;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
			if (export_format_parse(argv[++i], &f) != 0)
				return bad("--format: not table, csv, markdown, "
				    "json or gbench");
		} else if (argv[i][0] != '-' && path == NULL)
			path = argv[i];
		else
			return bad("usage: dispatchbench export RESULTS.json "
			    "[--format table|csv|markdown|json|gbench]");
	}
	if (path == NULL)
		return bad("usage: dispatchbench export RESULTS.json "
		    "[--format table|csv|markdown|json|gbench]");
	if (results_read(path, &doc, err, sizeof(err)) != 0)
		return bad(err);
	export_write(stdout, doc, f);
	cJSON_Delete(doc);
	return 0;
}

/*
 * `plot` and `report`: RESULTS.json [-o OUT], OUT next to the results by
 * default (name: its folder, or that file in it). Reads the results.
 */
static int
parse_results_out(int argc, char **argv, const char *usage_line,
    const char *name, cJSON **doc, char *out, size_t outlen)
{
	const char *path = NULL, *o = NULL, *slash;
	char err[512];
	int i;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			o = argv[++i];
		else if (argv[i][0] != '-' && path == NULL)
			path = argv[i];
		else
			return bad(usage_line);
	}
	if (path == NULL)
		return bad(usage_line);
	slash = strrchr(path, '/');
	if (o != NULL)
		snprintf(out, outlen, "%s", o);
	else if (slash != NULL)
		snprintf(out, outlen, "%.*s%s%s", (int)(slash - path), path,
		    *name != '\0' ? "/" : "", name);
	else
		snprintf(out, outlen, "%s", *name != '\0' ? name : ".");
	if (results_read(path, doc, err, sizeof(err)) != 0)
		return bad(err);
	return 0;
}

static int
cmd_plot(int argc, char **argv)
{
	char err[512], dir[4096];
	cJSON *doc;
	int rc;

	if ((rc = parse_results_out(argc, argv, "usage: dispatchbench plot "
	    "RESULTS.json [-o DIR]", "", &doc, dir, sizeof(dir))) != 0)
		return rc;
	mkdir(dir, 0777);
	rc = plot_results(doc, dir, err, sizeof(err));
	cJSON_Delete(doc);
	if (rc != 0)
		return bad(err);
	printf("plots in %s\n", dir);
	return 0;
}

/* A results file as one self-contained HTML page. */
static int
cmd_report(int argc, char **argv)
{
	char err[512], page[4096];
	cJSON *doc;
	int rc;

	if ((rc = parse_results_out(argc, argv, "usage: dispatchbench report "
	    "RESULTS.json [-o PAGE.html]", "report.html", &doc, page,
	    sizeof(page))) != 0)
		return rc;
	rc = report_write(doc, page, err, sizeof(err));
	cJSON_Delete(doc);
	if (rc != 0)
		return bad(err);
	printf("report in %s\n", page);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 2, argv + 2, argc, argv);
	if (strcmp(cmd, "cell") == 0)
		return cmd_cell(argc - 2, argv + 2);
	if (strcmp(cmd, "plot") == 0)
		return cmd_plot(argc - 2, argv + 2);
	if (strcmp(cmd, "export") == 0)
		return cmd_export(argc - 2, argv + 2);
	if (strcmp(cmd, "report") == 0)
		return cmd_report(argc - 2, argv + 2);
	if (strcmp(cmd, "compare") == 0)
		return cmd_compare(argc - 2, argv + 2);
	if (strcmp(cmd, "ab") == 0)
		return cmd_ab(argc - 2, argv + 2, argc, argv);
	if (strcmp(cmd, "advise") == 0)
		return cmd_advise(argc - 2, argv + 2, argc, argv);
	if ((strcmp(cmd, "list") == 0 || strcmp(cmd, "topo") == 0) && argc > 2)
		return bad("list and topo take no arguments");
	if (strcmp(cmd, "list") == 0)
		return cmd_list();
	if (strcmp(cmd, "topo") == 0)
		return cmd_topo();
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 ||
	    strcmp(cmd, "-h") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	fputs(usage, stderr);
	return argc > 1 ? bad("unknown command") : EXIT_USAGE;
}
