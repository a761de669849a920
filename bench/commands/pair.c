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
#include "measure.h"
#include "paired.h"
#include "plugin.h"
#include "results.h"
#include "stats.h"

#define PAIR_MIN_UNITS	6	/* below, no exact p reaches 0.05 */
#define PAIR_MAX_UNITS	1000

static const struct param pair_opts[] = {
	OPT("--a", PARAM_TEXT, 0, 0, 0, NULL, p.a, "Q|D", "the baseline: a "
	    "queue or a dispatcher, by name or a plugin's PATH[:SYMBOL]"),
	OPT("--b", PARAM_TEXT, 0, 0, 0, NULL, p.b, "Q|D", "the candidate, of "
	    "the same kind"),
	OPT("--processes", PARAM_COUNT, 0, PAIR_MIN_UNITS, PAIR_MAX_UNITS, "10",
	    p.processes, "N", "processes, each one unit of the test"),
	OPT("--pairs", PARAM_COUNT, 0, 2, 100000, "10", p.pairs, "N",
	    "pairs of windows per process, alternately A B and B A"),
	OPT("--budget", PARAM_DURATION, 0, 1, 7 * 86400, NULL, p.budget_s,
	    "DURATION", "as many processes as fit, at least 6 (instead of "
	    "--processes)"),
	OPT("--threshold", PARAM_NUMBER, P_POSITIVE, 0, 99, "5",
	    p.threshold_pct, "PCT", "the smallest change worth a verdict"),
	OPT("--alpha", PARAM_NUMBER, P_POSITIVE, 0, 0.5, "0.05", p.alpha, "A",
	    "the false alarms allowed"),
	OPT("--metric", PARAM_TEXT, 0, 0, 0, "cpu_us_per_dispatch", p.metric,
	    "FIELD", "the run field compared"),
	OPT("--unit", PARAM_INT, 0, -1, PAIR_MAX_UNITS, "-1", p.unit, "K",
	    "run process K's pairs, one JSON line a window (what pair starts)"),
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
	const struct queue_ops *q = NULL;
	const struct disp_ops *d = NULL;
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
	if (q != NULL && !(base->disp->flags & DISP_USES_QUEUE))
		return snprintf(err, errlen, "%s: %s is a queue, and %s polls "
		    "none: give --dispatcher shared or limited", flag, spec,
		    base->disp->name), -1;
	if (q != NULL && (q->flags & Q_ONE_CONSUMER))
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
	unsigned int ok[2], failed[2];	/* windows of A and B */
	double *values[2];		/* every ok window's value, per arm */
	size_t nvalues[2];
	char crashed[256];		/* the first process that failed */
	char reason[2][256];		/* the first failed window of each arm */
};

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
		ok[i][arm] = strcmp(results_str(w, "status", "?"), "ok") == 0 &&
		    v[i][arm] > 0;
		if (ok[i][arm]) {
			t->ok[arm]++;
			t->values[arm][t->nvalues[arm]++] = v[i][arm];
		} else if (t->failed[arm]++ == 0)
			snprintf(t->reason[arm], sizeof(t->reason[arm]), "%s: %s",
			    results_str(w, "status", "?"), results_str(w,
			    "error", "its figure is not positive"));
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

/* The verdict's word, as compare gives it. */
static const char *
pair_verdict(const struct pair_tally *t, const struct paired_test *r,
    double thr, double alpha)
{

	if (t->crashed[0] != '\0' || (t->failed[1] > 0 && t->failed[0] == 0))
		return "broken";
	if (t->n < PAIR_MIN_UNITS)
		return "inconclusive";
	if (r->p < alpha && r->lo > log(1 + thr))
		return "regressed";
	if (r->p < alpha && r->hi < log(1 - thr))
		return "improved";
	if (r->lo > log(1 - thr) && r->hi < log(1 + thr))
		return "equivalent";
	return "inconclusive";
}

static cJSON *
pair_report(const struct call *c, const struct pair_tally *t,
    const char **verdict)
{
	const struct pair_args *a = &c->args.p;
	double thr = a->threshold_pct / 100, mde, sees;
	struct paired_test r;
	cJSON *o = cJSON_CreateObject();
	int k;

	paired_signed_rank(t->delta, t->n, a->alpha, &r);
	mde = paired_mde_factor(r.n, a->alpha);
	sees = isfinite(mde) ? exp(mde * paired_spread(t->delta, t->n)) - 1 :
	    INFINITY;
	*verdict = pair_verdict(t, &r, thr, a->alpha);
	for (k = 0; k < 2; k++)
		fprintf(stderr, "%s: %u windows ok, %u failed%s%s; median %.4g\n",
		    k ? "B" : "A", t->ok[k], t->failed[k], t->failed[k] ?
		    ", the first " : "", t->reason[k], pair_median(t->values[k],
		    t->nvalues[k]));
	printf("B/A %.4f [%.4f, %.4f] (%.1f %%), p %.3g, signed rank over %zu "
	    "processes; could see changes of %.3g %%\n", exp(r.shift),
	    exp(r.lo), exp(r.hi), 100 * r.conf, r.p, r.n, 100 * sees);
	if (t->crashed[0] != '\0')
		printf("%s\n", t->crashed);
	printf("verdict: %s (threshold %g %%, alpha %g)\n", *verdict,
	    a->threshold_pct, a->alpha);
	cJSON_AddStringToObject(o, "verdict", *verdict);
	cJSON_AddNumberToObject(o, "ratio", exp(r.shift));
	cJSON_AddNumberToObject(o, "lo", exp(r.lo));
	cJSON_AddNumberToObject(o, "hi", exp(r.hi));
	cJSON_AddNumberToObject(o, "conf", r.conf);
	cJSON_AddNumberToObject(o, "p", r.p);
	cJSON_AddNumberToObject(o, "processes", (double)r.n);
	if (isfinite(sees))
		cJSON_AddNumberToObject(o, "could_see", sees);
	return o;
}

static void
pair_save(const struct call *c, cJSON *doc)
{
	char *text;

	if (c->sweep.out == NULL)
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
	double start = measure_now();
	cJSON *windows, *u;
	char why[256];

	for (k = 0; k < n && !runner_stopped(); k++) {
		windows = pair_spawn(c, k, why, sizeof(why));
		u = cJSON_CreateObject();
		cJSON_AddNumberToObject(u, "process", k);
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
		if (k == 0 && a->budget_s > 0)
			n = (unsigned int)fmin(PAIR_MAX_UNITS, fmax(PAIR_MIN_UNITS,
			    floor(a->budget_s / (measure_now() - start))));
	}
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
	cJSON_AddItemToObject(doc, "cell", cli_cell_json(&c->cells[0]));
	cJSON_AddStringToObject(doc, "metric", a->metric);
	cJSON_AddNumberToObject(doc, "warmup_s", c->sweep.win.warmup_s);
	cJSON_AddNumberToObject(doc, "time_s", c->sweep.win.time_s);
	cJSON_AddNumberToObject(doc, "pairs", a->pairs);
	cJSON_AddFalseToObject(doc, "complete");
	units = cJSON_AddArrayToObject(doc, "processes");
	pair_run(c, &t, units, doc);
	cJSON_AddItemToObject(doc, "result", pair_report(c, &t, &verdict));
	cJSON_ReplaceItemInObject(doc, "complete", cJSON_CreateBool(
	    !runner_stopped()));
	pair_save(c, doc);
	cJSON_Delete(doc);
	free(t.delta);
	free(t.values[0]);
	free(t.values[1]);
	return strcmp(verdict, "broken") == 0 || strcmp(verdict, "regressed") ==
	    0 ? RUNNER_RUN_FAILED : 0;
}

const struct command command_pair = { "pair", "--a Q|D --b Q|D [options]",
    "two queues or designs in one process, alternating windows, a paired "
    "verdict", OPTS(pair_opts), 0, 0, pair_sweep, cmd_pair };
