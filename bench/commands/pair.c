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
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "context.h"
#include "label.h"
#include "measure.h"
#include "metric.h"
#include "paired.h"
#include "plugin.h"
#include "results.h"
#include "stats.h"

#define PAIR_MIN_UNITS	6	/* below, no exact p goes below 0.05 */
#define PAIR_MAX_UNITS	1000

static const struct param pair_opts[] = {
	{ .flag = "--a", .kind = PARAM_TEXT, ARG(p.a), .metavar = "Q|D",
	    .help = "the baseline: a queue or a dispatcher, by name or a "
	    "plugin's PATH[:SYMBOL]" },
	{ .flag = "--b", .kind = PARAM_TEXT, ARG(p.b), .metavar = "Q|D",
	    .help = "the candidate, of the same kind" },
	{ .flag = "--processes", .kind = PARAM_COUNT, .lo = PAIR_MIN_UNITS,
	    .hi = PAIR_MAX_UNITS, .dflt = "10", ARG(p.processes),
	    .metavar = "N", .help = "processes, each one unit of the test" },
	{ .flag = "--pairs", .kind = PARAM_COUNT, .lo = 2, .hi = 100000,
	    .dflt = "10", ARG(p.pairs), .metavar = "N",
	    .help = "pairs of windows per process, alternately A B and B A" },
	{ .flag = "--budget", .kind = PARAM_DURATION, .lo = 1, .hi = 7 * 86400,
	    ARG(p.budget_s), .metavar = "DURATION",
	    .help = "as many processes as fit, at least 6 (instead of "
	    "--processes)" },
	{ .flag = "--threshold", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 99, .dflt = "5", ARG(p.threshold_pct), .metavar = "PCT",
	    .help = "the smallest change worth a verdict" },
	{ .flag = "--alpha", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 0.5, .dflt = "0.05", ARG(p.alpha), .metavar = "A",
	    .help = "the false alarms allowed" },
	{ .flag = "--metric", .kind = PARAM_TEXT, .dflt = "cpu_us_per_dispatch",
	    ARG(p.metric), .metavar = "FIELD",
	    .help = "the run field compared" },
	{ .flag = "--accept-undecided", .kind = PARAM_SWITCH,
	    ARG(p.accept_undecided), .help = "exit 0, not 3, when the verdict "
	    "has no answer (too few processes gave an estimate)" },
	{ .flag = "--unit", .kind = PARAM_INT, .lo = -1, .hi = PAIR_MAX_UNITS,
	    .dflt = "-1", ARG(p.unit), .metavar = "K",
	    .help = "run process K's pairs, one JSON line a window (what pair "
	    "starts)" },
};

static const char *const pair_sweep[] = { "--dispatcher", "shared",
    "--workers", "8", "--warmup", "0.02", "--time", "0.05", NULL };

/*
 * One arm's cell: the base cell with the queue or the design spec names;
 * 0 or 1 as it is a queue or a design, -1 with err.
 */
static int
pair_arm(const char *flag, const char *spec, const struct cell *base,
    struct cell *arm, char *err, size_t errlen)
{
	const struct db_queue_ops *q = NULL;
	const struct db_disp_ops *d = NULL;
	char why[512];

	*arm = *base;
	if (plugin_is_spec(spec)) {
		if ((q = plugin_queue(spec, why, sizeof(why))) == NULL &&
		    (d = plugin_design(spec, why, sizeof(why))) == NULL)
			return snprintf(err, errlen, "%s: %s is neither a queue "
			    "nor a dispatcher plugin: %s", flag, spec, why), -1;
	} else if ((q = queue_find(spec)) == NULL &&
	    (d = disp_find(spec)) == NULL) {
		return snprintf(err, errlen, "%s: '%s' is neither a queue nor a "
		    "dispatcher (see `dispatchbench list`)", flag, spec), -1;
	}
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
	return q == NULL;
}

/* Process K: its pairs, each window one JSON line on stdout. */
static int
pair_unit(const struct call *c, const struct cell arms[2])
{
	const struct pair_args *a = &c->args.p;
	unsigned int i, k, first;
	cJSON *run, *line;
	char *text;

	for (i = 0; i < a->pairs; i++) {
		first = (i + (unsigned int)a->unit) % 2;
		for (k = 0; k < 2; k++) {
			run = cell_run(&arms[first ^ k], &c->sweep.win);
			line = cJSON_CreateObject();
			cJSON_AddNumberToObject(line, "pair", i);
			cJSON_AddStringToObject(line, "arm", (first ^ k) ? "b" :
			    "a");
			cJSON_AddNumberToObject(line, "position", k);
			cJSON_AddStringToObject(line, "status", results_str(run,
			    "status", "?"));
			if (results_str(run, "error", NULL) != NULL)
				cJSON_AddStringToObject(line, "error",
				    results_str(run, "error", ""));
			cJSON_AddNumberToObject(line, "value", results_num(run,
			    a->metric));
			cJSON_AddBoolToObject(line, "host_busy", cJSON_IsTrue(
			    cJSON_GetObjectItem(run, "host_busy")));
			text = cJSON_PrintUnformatted(line);
			printf("%s\n", text);
			fflush(stdout);
			free(text);
			cJSON_Delete(line);
			cJSON_Delete(run);
		}
	}
	return 0;
}

/* Starts process K of this same command line; its windows, or NULL. */
static cJSON *
pair_spawn(const struct call *c, unsigned int k, char *why, size_t len)
{
	char self[4096], unit[16], **argv, buf[4096], *text = NULL, *line,
	    *save;
	size_t used = 0, cap = 0;
	int fds[2], status, i;
	cJSON *windows, *w;
	ssize_t n, got;
	pid_t pid;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	snprintf(unit, sizeof(unit), "%u", k);
	if ((argv = calloc((size_t)c->argc + 3, sizeof(*argv))) == NULL ||
	    pipe(fds) != 0)
		abort();
	argv[0] = self;
	for (i = 1; i < c->argc; i++)
		argv[i] = c->argv[i];
	argv[c->argc] = (char *)"--unit";
	argv[c->argc + 1] = unit;
	if ((pid = fork()) == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(self, argv);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (got = read(fds[0], buf, sizeof(buf))) > 0) {
		if (used + (size_t)got + 1 > cap && (text = realloc(text,
		    cap = 2 * (used + (size_t)got + 1))) == NULL)
			abort();
		memcpy(text + used, buf, (size_t)got);
		used += (size_t)got;
	}
	close(fds[0]);
	free(argv);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		snprintf(why, len, "process %u %s", k, pid < 0 ? "could not "
		    "start" : WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) :
		    "exited non-zero");
		free(text);
		return NULL;
	}
	windows = cJSON_CreateArray();
	if (text != NULL) {
		text[used] = '\0';
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			if ((w = cJSON_Parse(line)) != NULL)
				cJSON_AddItemToArray(windows, w);
	}
	free(text);
	return windows;
}

/* What the processes gave: one crossover estimate each, and the failures. */
struct pair_tally {
	double *delta;			/* per process, ln(B/A) */
	size_t n;
	struct paired_ends ends;	/* how the windows of A and B ended */
	double *values[2];		/* every ok window's value, per arm */
	size_t nvalues[2];
	unsigned int busy[2];		/* windows beside other load, per arm */
	char crashed[256];		/* the first process that failed */
	char reason[2][256];		/* the first failed window of each arm */
	char side[2][600];		/* each arm: its name, or its file */
	char cell[600];			/* the arms' cell, a->b where apart */
	char brief[128];		/* the design and width they share */
};

/*
 * How window w of an arm ended: ok with a positive figure, stalled (no
 * progress: the machine's, counted apart), or failed, its first reason
 * kept.
 */
static bool
pair_window_end(const cJSON *w, unsigned int arm, double v,
    struct pair_tally *t)
{
	const char *st = results_str(w, "status", "?");

	t->busy[arm] += cJSON_IsTrue(cJSON_GetObjectItem(w, "host_busy"));
	if (strcmp(st, "ok") == 0 && v > 0) {
		t->ends.ok[arm]++;
		t->values[arm][t->nvalues[arm]++] = v;
		return true;
	}
	if (strcmp(st, "stalled") == 0)
		t->ends.stalled[arm]++;
	else
		t->ends.failed[arm]++;
	if (t->reason[arm][0] == '\0')
		snprintf(t->reason[arm], sizeof(t->reason[arm]), "%s: %s", st,
		    results_str(w, "error", strcmp(st, "ok") == 0 ? "its figure "
		    "is not positive" : "no reason given"));
	return false;
}

/* A process's windows into its crossover estimate; false if it has none. */
static bool
pair_process(cJSON *windows, unsigned int pairs, struct pair_tally *t)
{
	double (*v)[2] = calloc(pairs, sizeof(*v));
	double *g_ab = calloc(pairs, sizeof(*g_ab));
	double *g_ba = calloc(pairs, sizeof(*g_ba));
	bool (*ok)[3] = calloc(pairs, sizeof(*ok));	/* a, b; a went first */
	bool (*seen)[2] = calloc(pairs, sizeof(*seen));
	size_t nab = 0, nba = 0;
	unsigned int i, arm;
	double pair;
	bool some;
	cJSON *w;

	if (v == NULL || g_ab == NULL || g_ba == NULL || ok == NULL ||
	    seen == NULL)
		abort();
	cJSON_ArrayForEach(w, windows) {
		pair = results_num(w, "pair");
		arm = strcmp(results_str(w, "arm", "a"), "b") == 0;
		/* A line not a window (a plugin's print), or a window twice. */
		if (!(pair >= 0 && pair < pairs) || seen[(size_t)pair][arm])
			continue;
		i = (unsigned int)pair;
		seen[i][arm] = true;
		if (results_num(w, "position") == 0)
			ok[i][2] = arm == 0;
		v[i][arm] = results_num(w, "value");
		ok[i][arm] = pair_window_end(w, arm, v[i][arm], t);
	}
	for (i = 0; i < pairs; i++) {
		if (!ok[i][0] || !ok[i][1])
			continue;
		if (ok[i][2])
			g_ab[nab++] = log(v[i][1] / v[i][0]);
		else
			g_ba[nba++] = log(v[i][0] / v[i][1]);
	}
	if ((some = nab > 0 && nba > 0))
		t->delta[t->n++] = paired_crossover(g_ab, nab, g_ba, nba);
	free(v);
	free(g_ab);
	free(g_ba);
	free(ok);
	free(seen);
	return some;
}

static double
pair_median(double *v, size_t n)
{
	struct stats_summary s;

	if (n == 0)
		return NAN;
	stats_summarize(v, n, &s);
	return s.median;
}

/* The change the verdict catches 80 % of the time, as a ratio - 1. */
static double
pair_sees(const struct pair_args *a, const struct pair_tally *t,
    const struct paired_test *r)
{
	double thr = a->threshold_pct / 100, t_log;

	if (r->n < paired_min_units(a->alpha))
		return INFINITY;
	t_log = metric_higher_is_better(a->metric) ? -log1p(-thr) : log1p(thr);
	return exp(paired_verdict_mde(r->n, a->alpha, paired_spread(t->delta,
	    t->n), t_log)) - 1;
}

/* Each arm's windows, on stderr; an arm's failures on stdout too. */
static void
pair_arms(const struct pair_tally *t)
{
	int k;

	for (k = 0; k < 2; k++) {
		fprintf(stderr, "%s: %u windows ok, %u failed, %u stalled%s%s; "
		    "median %.4g\n", k ? "B" : "A", t->ends.ok[k],
		    t->ends.failed[k], t->ends.stalled[k], t->reason[k][0] ?
		    ", the first " : "", t->reason[k],
		    pair_median(t->values[k], t->nvalues[k]));
		if (t->busy[k] > 0)
			printf("%s: %u of %u windows shared a busy machine "
			    "(host_busy): the verdict rests on figures other "
			    "processes shared\n", k ? "B" : "A", t->busy[k],
			    t->ends.ok[k] + t->ends.failed[k] +
			    t->ends.stalled[k]);
		if (t->reason[k][0] != '\0')
			printf("%s: %u of %u windows failed, %u stalled; the "
			    "first %s\n", k ? "B" : "A", t->ends.failed[k],
			    t->ends.ok[k] + t->ends.failed[k] + t->ends.stalled[k],
			    t->ends.stalled[k], t->reason[k]);
	}
	return;
}

/*
 * The lines above the verdict: the metric and its better side, the cell,
 * and each arm by its name and, a plugin, its file and checksum.
 */
static void
pair_header(const struct call *c, const struct pair_tally *t,
    const cJSON *doc)
{
	const char *metric = c->args.p.metric;
	struct metric m;
	const cJSON *side;
	int k;

	metric_of(metric, &m);
	printf("pair: B against A, %s (%s), %s is better\n  cell: %s\n",
	    m.quantity, metric, m.higher_is_better ? "higher" : "lower",
	    t->cell);
	for (k = 0; k < 2; k++) {
		side = results_obj(doc, k ? "b_side" : "a_side");
		printf("  %s: %s %s", k ? "B" : "A", results_str(side, "kind",
		    "?"), results_str(side, "name", "?"));
		if (results_str(side, "spec", NULL) != NULL)
			printf(", %s (sha256 %.12s)", results_str(side, "path",
			    "?"), results_str(side, "sha256", "unknown"));
		printf("\n");
	}
	return;
}

/*
 * The verdict line: B/A with its interval, then what it judged (the
 * metric, the cell, each arm), the change signed with its interval, both
 * medians with their unit, and what the p is.
 */
static void
pair_line(const struct pair_args *a, const struct pair_tally *t,
    const struct paired_test *r, double sees)
{
	struct metric m;
	char change[96];
	double med[2];

	metric_of(a->metric, &m);
	med[0] = pair_median(t->values[0], t->nvalues[0]);
	med[1] = pair_median(t->values[1], t->nvalues[1]);
	metric_signed(exp(r->shift) - 1, exp(r->lo) - 1, exp(r->hi) - 1,
	    false, change, sizeof(change));
	printf("B/A %.4f [%.4f, %.4f] (%.1f %%), %s%s%s, B %s against A %s: "
	    "%s; medians A %.3g, B %.3g%s%s; p %.3g (exact signed rank over "
	    "%zu processes, one test: not adjusted); could see changes of "
	    "%.3g %%\n", exp(r->shift), exp(r->lo), exp(r->hi), 100 * r->conf,
	    m.quantity, t->brief[0] ? " in " : "", t->brief, t->side[1],
	    t->side[0], change, med[0], med[1], m.unit[0] ? " " : "", m.unit,
	    r->p, r->n, 100 * sees);
	return;
}

/* The result's labels for programs: what the text lines say. */
static void
pair_result_labels(const struct pair_args *a, const struct pair_tally *t,
    const struct paired_test *r, cJSON *o)
{
	struct metric m;
	char buf[200];
	bool some = r->n > 0;

	metric_of(a->metric, &m);
	cJSON_AddStringToObject(o, "metric", a->metric);
	cJSON_AddStringToObject(o, "metric_words", m.quantity);
	cJSON_AddStringToObject(o, "unit", m.unit);
	cJSON_AddStringToObject(o, "better", m.higher_is_better ? "higher" :
	    "lower");
	cJSON_AddStringToObject(o, "cell_shown", t->cell);
	cJSON_AddStringToObject(o, "a_shown", t->side[0]);
	cJSON_AddStringToObject(o, "b_shown", t->side[1]);
	cJSON_AddNumberToObject(o, "median_a", pair_median(t->values[0],
	    t->nvalues[0]));
	cJSON_AddNumberToObject(o, "median_b", pair_median(t->values[1],
	    t->nvalues[1]));
	cJSON_AddNumberToObject(o, "change_pct", some ? 100 * (exp(r->shift) -
	    1) : NAN);
	cJSON_AddNumberToObject(o, "change_pct_lo", some ? 100 * (exp(r->lo) -
	    1) : NAN);
	cJSON_AddNumberToObject(o, "change_pct_hi", some ? 100 * (exp(r->hi) -
	    1) : NAN);
	cJSON_AddStringToObject(o, "p_kind", "exact signed rank over the "
	    "processes, one test: not adjusted");
	cJSON_AddStringToObject(o, "in_words", some ? metric_in_words(
	    a->metric, "B", exp(r->shift) - 1, false, buf, sizeof(buf)) : "-");
	return;
}

static cJSON *
pair_report(const struct call *c, struct pair_tally *t, const cJSON *doc,
    const char **verdict)
{
	const struct pair_args *a = &c->args.p;
	struct paired_test r;
	cJSON *o = cJSON_CreateObject();
	char why[256], words[160];
	double sees;

	t->ends.crashed = t->crashed[0] != '\0';
	t->ends.interrupted = runner_stopped();
	*verdict = paired_verdict(t->delta, t->n, &t->ends, a->threshold_pct /
	    100, a->alpha, metric_higher_is_better(a->metric), &r, why,
	    sizeof(why));
	sees = pair_sees(a, t, &r);
	pair_arms(t);
	pair_header(c, t, doc);
	if (r.n == 0)
		printf("B/A: no process gave an estimate (each pair needs both "
		    "windows ok)\n");
	else
		pair_line(a, t, &r, sees);
	if (t->crashed[0] != '\0')
		printf("%s\n", t->crashed);
	metric_verdict_words(a->metric, *verdict, "B", r.n > 0 ? exp(r.shift) -
	    1 : NAN, false, words, sizeof(words));
	printf("verdict: %s%s%s%s%s (threshold %g %%, alpha %g)\n", *verdict,
	    words[0] || why[0] ? ": " : "", words, words[0] && why[0] ? "; " :
	    "", why, a->threshold_pct, a->alpha);
	cJSON_AddStringToObject(o, "verdict", *verdict);
	cJSON_AddStringToObject(o, "why", why);
	cJSON_AddNumberToObject(o, "ratio", exp(r.shift));
	cJSON_AddNumberToObject(o, "lo", exp(r.lo));
	cJSON_AddNumberToObject(o, "hi", exp(r.hi));
	cJSON_AddNumberToObject(o, "conf", r.conf);
	cJSON_AddNumberToObject(o, "p", r.p);
	cJSON_AddNumberToObject(o, "processes", (double)r.n);
	if (isfinite(sees))
		cJSON_AddNumberToObject(o, "could_see", sees);
	pair_result_labels(a, t, &r, o);
	return o;
}

static void
pair_save(const struct call *c, cJSON *doc)
{
	char *text;

	/* Only where asked: run's default file is a sweep's, not a pair's. */
	if (!cli_given(&c->sweep, "--out"))
		return;
	text = cJSON_Print(doc);
	if (results_write_text(text, c->sweep.out) != 0)
		fprintf(stderr, "dispatchbench: could not write %s\n",
		    c->sweep.out);
	free(text);
	return;
}

/* The processes, one after another; the budget sets their number. */
static void
pair_run(const struct call *c, struct pair_tally *t, cJSON *units, cJSON *doc)
{
	const struct pair_args *a = &c->args.p;
	unsigned int k, n = a->processes;
	double start = measure_now(), waited;
	cJSON *windows, *u;
	char why[256];

	for (k = 0; k < n && !runner_stopped(); k++) {
		waited = c->sweep.host_quiet ? runner_quiet() : NAN;
		windows = pair_spawn(c, k, why, sizeof(why));
		u = cJSON_CreateObject();
		cJSON_AddNumberToObject(u, "process", k);
		if (c->sweep.host_quiet)
			cJSON_AddNumberToObject(u, "host_wait_s", waited);
		if (windows == NULL) {
			if (t->crashed[0] == '\0')
				snprintf(t->crashed, sizeof(t->crashed), "%s", why);
			cJSON_AddStringToObject(u, "failed", why);
		} else {
			if (pair_process(windows, a->pairs, t))
				cJSON_AddNumberToObject(u, "ratio",
				    exp(t->delta[t->n - 1]));
			cJSON_AddItemToObject(u, "windows", windows);
		}
		cJSON_AddItemToArray(units, u);
		pair_save(c, doc);
		fprintf(stderr, "[%u/%u] process %u%s\n", k + 1, n, k, windows ==
		    NULL ? ": failed" : "");
		/* A budget never buys fewer processes than a p needs. */
		if (k == 0 && a->budget_s > 0)
			n = (unsigned int)fmin(PAIR_MAX_UNITS, fmax((double)
			    paired_min_units(a->alpha), floor(a->budget_s /
			    (measure_now() - start))));
	}
	return;
}

/*
 * Arm k as the files record it: its kind and name and, a plugin, the
 * spec it was loaded by, its file and checksum (the context's entry);
 * into shown, as the verdict line names it.
 */
static cJSON *
pair_side(const cJSON *doc, const struct cell *arm, int design, char *shown,
    size_t len)
{
	const void *ops = design ? (const void *)arm->disp :
	    (const void *)arm->cfg.queue;
	const char *name = design ? arm->disp->name : arm->cfg.queue->name;
	const char *spec = plugin_spec(ops);
	cJSON *o = cJSON_CreateObject();
	const cJSON *p;

	cJSON_AddStringToObject(o, "kind", design ? "dispatcher" : "queue");
	cJSON_AddStringToObject(o, "name", name);
	snprintf(shown, len, "%s", spec != NULL ? spec : name);
	if (spec == NULL)
		return o;
	cJSON_AddStringToObject(o, "spec", spec);
	cJSON_ArrayForEach(p, results_arr(results_obj(doc, "context"),
	    "plugins"))
		if (strcmp(results_str(p, "spec", ""), spec) == 0) {
			cJSON_AddStringToObject(o, "path", results_str(p,
			    "path", "?"));
			cJSON_AddStringToObject(o, "sha256", results_str(p,
			    "sha256", "unknown"));
		}
	return o;
}

/*
 * The cell as the verdict line names it beside the arms: the design two
 * queues share and the width ("shared w=2"); the width of two designs.
 */
static void
pair_brief(const char *cell, int design, char *buf, size_t len)
{
	const char *w = strstr(cell, " w=");
	size_t used = 0;

	buf[0] = '\0';
	if (!design)
		used = (size_t)snprintf(buf, len, "%.*s", (int)strcspn(cell,
		    "/ "), cell);
	if (w != NULL && used < len)
		snprintf(buf + used, len - used, "%s%.*s", used ? " " : "",
		    (int)strcspn(w + 1, " "), w + 1);
	return;
}

/*
 * What each arm really was: its side (a plugin by its file and checksum)
 * and its cell, and the cell they share, without the fields in which
 * they differ (the queue or the design).
 */
static void
pair_sides(cJSON *doc, const struct cell arms[2], const int kind[2],
    struct pair_tally *t)
{
	cJSON *cells[2], *shared, *f, *next;
	int k;

	for (k = 0; k < 2; k++) {
		cJSON_AddItemToObject(doc, k ? "b_side" : "a_side",
		    pair_side(doc, &arms[k], kind[k], t->side[k],
		    sizeof(t->side[k])));
		cells[k] = cli_cell_json(&arms[k]);
	}
	label_cells(cells[0], cells[1], t->cell, sizeof(t->cell));
	pair_brief(t->cell, kind[0], t->brief, sizeof(t->brief));
	shared = cJSON_Duplicate(cells[0], 1);
	for (f = shared->child; f != NULL; f = next) {
		next = f->next;
		if (!cJSON_Compare(f, cJSON_GetObjectItemCaseSensitive(cells[1],
		    f->string), true))
			cJSON_Delete(cJSON_DetachItemViaPointer(shared, f));
	}
	cJSON_AddItemToObject(doc, "cell", shared);
	cJSON_AddItemToObject(doc, "a_cell", cells[0]);
	cJSON_AddItemToObject(doc, "b_cell", cells[1]);
	return;
}

static int
cmd_pair(struct call *c)
{
	const struct pair_args *a = &c->args.p;
	struct pair_tally t = { .n = 0 };
	struct cell arms[2];
	cJSON *doc, *units;
	const char *verdict;
	char err[1024];
	int k, kind[2];
	size_t cap;

	if (a->a == NULL || a->b == NULL)
		return command_bad("pair: give --a and --b");
	if (c->ncells != 1)
		return command_bad("pair: the options must name exactly one cell");
	if ((kind[0] = pair_arm("--a", a->a, &c->cells[0], &arms[0], err,
	    sizeof(err))) < 0 || (kind[1] = pair_arm("--b", a->b, &c->cells[0],
	    &arms[1], err, sizeof(err))) < 0)
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
	if (a->unit >= 0)
		return pair_unit(c, arms);
	cap = PAIR_MAX_UNITS;
	t.delta = calloc(cap, sizeof(*t.delta));
	for (k = 0; k < 2; k++)
		t.values[k] = calloc(cap * a->pairs, sizeof(double));
	if (t.delta == NULL || t.values[0] == NULL || t.values[1] == NULL)
		abort();
	doc = cJSON_CreateObject();
	cJSON_AddItemToObject(doc, "context", context_read(c->argc, c->argv));
	cJSON_AddStringToObject(doc, "a", a->a);
	cJSON_AddStringToObject(doc, "b", a->b);
	pair_sides(doc, arms, kind, &t);
	cJSON_AddStringToObject(doc, "metric", a->metric);
	cJSON_AddNumberToObject(doc, "warmup_s", c->sweep.win.warmup_s);
	cJSON_AddNumberToObject(doc, "time_s", c->sweep.win.time_s);
	cJSON_AddNumberToObject(doc, "pairs", a->pairs);
	cJSON_AddFalseToObject(doc, "complete");
	units = cJSON_AddArrayToObject(doc, "processes");
	pair_run(c, &t, units, doc);
	cJSON_AddItemToObject(doc, "result", pair_report(c, &t, doc,
	    &verdict));
	cJSON_ReplaceItemInObject(doc, "complete", cJSON_CreateBool(
	    !runner_stopped()));
	pair_save(c, doc);
	cJSON_Delete(doc);
	free(t.delta);
	free(t.values[0]);
	free(t.values[1]);
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
