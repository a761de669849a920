/*
 * runner.c - the sweep (see runner.h).
 *
 * A run is `dispatchbench cell ...` in a fresh process: one crash or hang
 * costs one run, and no run inherits another's threads, heap or caches. A
 * run that passes its deadline is killed and recorded as hung. After each
 * run the results file is rewritten whole (temporary file, then rename),
 * so an interrupted sweep leaves every finished run in a valid file.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "context.h"
#include "count.h"
#include "counters.h"
#include "measure.h"
#include "params.h"
#include "probe.h"
#include "probes.h"
#include "results.h"
#include "runfields.h"
#include "runner.h"
#include "stats.h"
#include "table.h"

#define RUNNER_GRACE_S	30.0	/* start-up, and gdb, beyond cell_deadline */
#define RUNNER_QUIET_S	60.0	/* --host quiet waits no longer for a run */
/* What an interval of the median covers once 6 runs or more allow it. */
#define RUNNER_COVERAGE	0.95

static volatile sig_atomic_t runner_interrupted;

static void
runner_on_signal(int sig)
{

	runner_interrupted = sig;
	return;
}

static void
runner_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = runner_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return;
}

static cJSON *
runner_status(const char *status, const char *error)
{
	cJSON *run = cJSON_CreateObject();

	cJSON_AddStringToObject(run, RF(status), status);
	cJSON_AddStringToObject(run, RF(error), error);
	cJSON_AddBoolToObject(run, RF(count_ok), 0);
	return run;
}

/*
 * A run that says ok but exited non-zero failed all the same (a sanitizer
 * reports after the result, and exits 66 or 1): its figures stay.
 */
static void
runner_exit_status(cJSON *run, int code)
{
	char why[32];

	if (code == 0 || !results_ok(run))
		return;
	snprintf(why, sizeof(why), "exit %d", code);
	cJSON_ReplaceItemInObject(run, RF(status), cJSON_CreateString("failed"));
	cJSON_AddStringToObject(run, RF(error), why);
	if (cJSON_GetObjectItem(run, RF(count_ok)) != NULL)
		cJSON_ReplaceItemInObject(run, RF(count_ok),
		    cJSON_CreateFalse());
	return;
}

double
runner_deadline(const struct sweep *o, const struct cell *c, size_t n,
    unsigned int reps)
{
	double s = RUNNER_GRACE_S;
	size_t i;

	if (o->deadline_s > 0)
		return o->deadline_s;
	for (i = 0; i < n; i++)
		s += reps * cell_deadline(&c[i], &o->win);
	return s;
}

static cJSON *
runner_child(const struct sweep *o, const struct cell *c,
    const struct runner_arm *arm)
{
	char buf[CLI_ARGS][CLI_WORD], *argv[CLI_ARGS + 1];
	double deadline = measure_now() + runner_deadline(o, c, 1, 1);
	struct child ch;
	cJSON *run;

	cli_argv(o, c, buf, argv);
	child_run(arm->words[0], argv, 0, deadline, runner_stopped, &ch);
	if (ch.end == CHILD_UNSTARTED)
		run = runner_status("failed", ch.why);
	else if (ch.end != CHILD_EXITED)
		run = ch.end == CHILD_STOPPED ? runner_status("interrupted",
		    "the sweep was interrupted") : runner_status("hung",
		    "the run passed its deadline and was killed");
	else if (WIFSIGNALED(ch.status))
		run = runner_status("crashed", strsignal(WTERMSIG(ch.status)));
	else if ((run = cJSON_Parse(ch.out)) == NULL)
		run = runner_status("failed", "the run printed no result");
	else
		runner_exit_status(run, WEXITSTATUS(ch.status));
	if (ch.stacks != NULL)
		cJSON_AddStringToObject(run, RF(stacks), ch.stacks);
	child_free(&ch);
	return run;
}

cJSON *
runner_unit(int argc, char **argv, unsigned int k, double deadline,
    cJSON *u, char *why, size_t len)
{
	char self[4096], unit[16], late[64], **args, *line, *save;
	cJSON *lines = NULL, *w;
	struct child ch;
	int i;

	(void)child_self(self, sizeof(self));
	snprintf(unit, sizeof(unit), "%u", k);
	if ((args = calloc((size_t)argc + 3, sizeof(*args))) == NULL)
		abort();
	args[0] = self;
	for (i = 1; i < argc; i++)
		args[i] = argv[i];
	args[argc] = (char *)"--unit";
	args[argc + 1] = unit;
	child_run(self, args, 0, measure_now() + deadline, NULL, &ch);
	free(args);
	snprintf(late, sizeof(late), "passed its deadline of %.0f s and was "
	    "killed", deadline);
	if (child_exit(&ch) != 0)
		snprintf(why, len, "process %u %s", k, ch.end == CHILD_UNSTARTED ?
		    "could not start" : ch.end == CHILD_LATE ? late :
		    WIFSIGNALED(ch.status) ? strsignal(WTERMSIG(ch.status)) :
		    "exited non-zero");
	else
		lines = cJSON_CreateArray();
	for (line = strtok_r(ch.out, "\n", &save); lines != NULL &&
	    line != NULL; line = strtok_r(NULL, "\n", &save))
		if ((w = cJSON_Parse(line)) != NULL)
			cJSON_AddItemToArray(lines, w);
	if (ch.stacks != NULL)
		cJSON_AddStringToObject(u, RF(stacks), ch.stacks);
	child_free(&ch);
	return lines;
}

/*
 * Where a sweep talks: stdout, unless a machine format is asked for; then
 * stdout holds that format alone, as google-benchmark's does.
 */
FILE *
runner_talk(const struct sweep *o)
{

	return o->format == TABLE_TEXT ? stdout : stderr;
}

static void
runner_print_run(const struct sweep *o, size_t i, size_t total,
    const struct cell *c, const struct runner_arm *arm, const cJSON *run)
{
	FILE *out = runner_talk(o);
	char name[160], at[32];

	runner_cell_name(c, name, sizeof(name));
	snprintf(at, sizeof(at), total > 0 ? "%3zu/%zu" : "%3zu", i, total);
	fprintf(out, "[%s] %s%-30s ", at, arm->label == NULL ? "" :
	    arm->label[0] == 'a' ? "A " : "B ", name);
	if (!results_ok(run)) {
		fprintf(out, "%s: %s\n", results_str(run, RF(status), "?"),
		    results_str(run, RF(error), "?"));
	} else if (c->count > 0) {
		fprintf(out, "%10.3f instructions/dispatch (%s) %4.0f thr\n",
		    results_num(run, COUNT_FIELD), results_str(run,
		    RF(instructions_counter), "?"),
		    results_num(run, RF(threads)));
	} else {
		fprintf(out, "%8.3f us/dispatch %10.0f ops/s %7.3f ctxsw/disp "
		    "%4.0f thr %3.0f starved\n",
		    results_num(run, RF(cpu_us_per_dispatch)),
		    results_num(run, RF(ops_per_s)),
		    results_num(run, RF(ctx_switches_per_dispatch)),
		    results_num(run, RF(threads)),
		    results_num(run, RF(starved)));
	}
	if (cJSON_IsTrue(cJSON_GetObjectItem(run, RF(host_busy))))
		fprintf(out, "%*s^ the machine was busy: other processes kept "
		    "%.2f CPUs, %.1f %% stolen\n", (int)strlen(at) + 3, "",
		    results_num(run, RF(host_other_cpus)),
		    results_num(run, RF(host_steal_pct)));
	fflush(out);
	return;
}

/* The machine's context, stamped with the results file's schema. */
static cJSON *
runner_context(int argc, char **argv)
{
	cJSON *ctx = context_read(argc, argv);

	cJSON_AddNumberToObject(ctx, "schema", RESULTS_SCHEMA);
	return ctx;
}

static cJSON *
runner_doc(const struct sweep *o, const struct cell *cells, size_t n,
    int argc, char **argv)
{
	cJSON *doc = cJSON_CreateObject(), *arr = cJSON_CreateArray(), *cell;
	size_t i;

	cJSON_AddItemToObject(doc, "context", runner_context(argc, argv));
	cJSON_AddItemToObject(cJSON_GetObjectItem(doc, "context"), "counters",
	    counters_context(n > 0 && cells[0].counters != NULL ?
	    cells[0].counters : "none"));
	/* A counted sweep: what counted, which the verdicts hold alike. */
	if (n > 0 && cells[0].count > 0)
		cJSON_AddItemToObject(cJSON_GetObjectItem(doc, "context"),
		    "count", count_context(&cells[0]));
	cJSON_AddNumberToObject(doc, "warmup_s", o->win.warmup_s);
	cJSON_AddNumberToObject(doc, "time_s", o->win.time_s);
	cJSON_AddNumberToObject(doc, "reps", o->reps);
	cJSON_AddStringToObject(doc, "order", "rotated");
	cJSON_AddBoolToObject(doc, "complete", 0);
	for (i = 0; i < n; i++) {
		cell = cli_cell_json(&cells[i]);
		cJSON_AddItemToObject(cell, "runs", cJSON_CreateArray());
		cJSON_AddItemToObject(cell, "summary", cJSON_CreateObject());
		cJSON_AddItemToArray(arr, cell);
	}
	cJSON_AddItemToObject(doc, "cells", arr);
	return doc;
}

/* Creates the results file's folders that are missing (build/results). */
static void
runner_mkdir_for(const char *path)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + 1, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0777);
		*slash = '/';
	}
	return;
}

static void
runner_save(cJSON *doc, const char *path)
{
	int error = results_write(doc, path);

	if (error != 0)
		fprintf(stderr, "dispatchbench: cannot write %s: %s\n", path,
		    strerror(-error));
	return;
}

int
runner_arm_parse(struct runner_arm *arm, char *command)
{
	char *save = NULL, *w;

	arm->nwords = 0;
	for (w = strtok_r(command, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		if (arm->nwords == RUNNER_ARM_WORDS)
			return -1;
		arm->words[arm->nwords++] = w;
	}
	return arm->nwords > 0 ? 0 : -1;
}

/*
 * The arm's own context: its binary, its checksum, its revision and build
 * type, its extra options.
 */
static void
runner_arm_context(struct runner_arm *arm)
{
	cJSON *ctx = cJSON_GetObjectItem(arm->doc, "context"), *extra;
	char sum[80];
	int w;

	if (arm->label == NULL)
		return;
	context_sha256(arm->words[0], sum, sizeof(sum));
	cJSON_ReplaceItemInObject(ctx, "binary_sha256", cJSON_CreateString(sum));
	context_of_binary(ctx, arm->words[0]);
	cJSON_AddStringToObject(ctx, "arm", arm->label);
	cJSON_AddStringToObject(ctx, "arm_binary", arm->words[0]);
	extra = cJSON_AddArrayToObject(ctx, "arm_options");
	for (w = 1; w < arm->nwords; w++)
		cJSON_AddItemToArray(extra, cJSON_CreateString(arm->words[w]));
	return;
}

/* m:ss, or h:mm:ss. */
static const char *
runner_clock(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60,
		    t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
	return buf;
}

static bool
runner_tty(const struct sweep *o)
{

	return !o->quiet && isatty(STDERR_FILENO);
}

/*
 * On a terminal: the run about to start (i of total) and the time left,
 * from the time runs have taken so far (before the first, from the
 * window).
 */
static void
runner_progress(const struct sweep *o, const struct cell *c, size_t i,
    size_t total, double started)
{
	double done = measure_now() - started, per = i > 1 ?
	    done / (double)(i - 1) : o->win.warmup_s + o->win.time_s + 0.5;
	char name[160], el[32], left[32];

	if (!runner_tty(o))
		return;
	runner_cell_name(c, name, sizeof(name));
	fprintf(stderr, "\r\033[K[%zu/%zu] %s  %s elapsed, about %s left", i,
	    total, name, runner_clock(done, el, sizeof(el)),
	    runner_clock(per * (double)(total - i + 1), left, sizeof(left)));
	return;
}

static void
runner_progress_clear(const struct sweep *o)
{

	if (runner_tty(o))
		fputs("\r\033[K", stderr);
	return;
}

double
runner_quiet(void)
{
	struct timespec look = { 0, 500000000 };
	struct measure_sample a, b;
	struct measure_host h;
	double start = measure_now();

	do {
		measure_sample(0, &a);
		nanosleep(&look, NULL);
		measure_sample(0, &b);
		measure_host_between(&a, &b, &h);
	} while (measure_host_busy(&h) && !runner_interrupted &&
	    measure_now() - start < RUNNER_QUIET_S);
	return measure_now() - start;
}

/* One run of cell ci for one arm, recorded, printed and saved. */
static int
runner_one(const struct sweep *o, size_t ci, size_t rep,
    struct runner_arm *arm, size_t i, size_t total)
{
	const struct cell *c = &arm->cells[ci];
	double waited = o->host_quiet ? runner_quiet() : NAN;
	cJSON *run = runner_child(o, c, arm), *cell;

	if (runner_interrupted) {
		cJSON_Delete(run);
		return 0;
	}
	cJSON_AddNumberToObject(run, RF(rep), (double)rep);
	if (o->host_quiet)
		cJSON_AddNumberToObject(run, RF(host_wait_s), waited);
	cell = cJSON_GetArrayItem(cJSON_GetObjectItem(arm->doc, "cells"),
	    (int)ci);
	cJSON_AddItemToArray(cJSON_GetObjectItem(cell, "runs"), run);
	cJSON_ReplaceItemInObject(cell, "summary", results_summary(
	    cJSON_GetObjectItem(cell, "runs")));
	runner_progress_clear(o);
	if (!o->quiet)
		runner_print_run(o, i, total, c, arm, run);
	runner_save(arm->doc, arm->out);
	/* A stalled window lost nothing: the machine's, said at the end. */
	return !results_ok(run) &&
	    strcmp(results_str(run, RF(status), "?"), "stalled") != 0;
}

/*
 * Whether a cell may stop before --reps: in a plain sweep with
 * --precision on. ab's arms always run alike, run for run.
 */
static bool
runner_adapts(const struct sweep *o, int narms)
{

	return narms == 1 && cli_reps_min(o) < o->reps;
}

static cJSON *
runner_cell(const struct runner_arm *arm, size_t ci)
{

	return cJSON_GetArrayItem(cJSON_GetObjectItem(arm->doc, "cells"),
	    (int)ci);
}

/*
 * A cell's runs so far: how many, how many ok and how many of those
 * starved a coroutine, its median's interval.
 */
struct runner_spread {
	const char *metric;		/* what the precision rests on */
	size_t runs, ok, starved;
	double median, lo, hi, cover;
};

/* A counted sweep's figure is its count, a timed one's its CPU. */
static const char *
runner_metric(const struct sweep *o)
{

	return o->cell.count > 0 ? COUNT_FIELD : RF(cpu_us_per_dispatch);
}

static void
runner_spread(const struct sweep *o, const cJSON *cell,
    struct runner_spread *sp)
{
	const cJSON *runs = cJSON_GetObjectItem(cell, "runs"), *run;
	double *v = malloc(((size_t)cJSON_GetArraySize(runs) + 1) *
	    sizeof(*v)), x;

	if (v == NULL)
		abort();
	*sp = (struct runner_spread){ .metric = runner_metric(o),
	    .median = NAN, .lo = NAN, .hi = NAN, .cover = NAN };
	cJSON_ArrayForEach(run, runs) {
		sp->runs++;
		x = results_num(run, sp->metric);
		if (!results_ok(run) || !isfinite(x))
			continue;
		v[sp->ok++] = x;
		sp->starved += results_num(run, RF(starved)) > 0;
	}
	if (sp->ok > 0) {
		stats_sort(v, sp->ok);
		sp->median = stats_quantile(v, sp->ok, 0.5);
		sp->cover = stats_median_interval(v, sp->ok, RUNNER_COVERAGE,
		    &sp->lo, &sp->hi);
	}
	free(v);
	return;
}

/*
 * Whether a cell has run enough: every run ok, none starving a coroutine,
 * the sweep's minimum of them, and its median's interval within a factor
 * 1 + --precision of the median either way (figures compared as ratios,
 * as plots and verdicts read them). A cell with a run not ok, or one that
 * starved, goes on: how often it does is what its other runs tell.
 */
static bool
runner_settled(const struct sweep *o, const struct runner_spread *sp)
{
	double f = 1 + o->precision_pct / 100;

	return sp->ok == sp->runs && sp->starved == 0 &&
	    sp->ok >= cli_reps_min(o) && sp->lo * f >= sp->median &&
	    sp->hi <= sp->median * f;
}

/*
 * Says in the cell why it ran the runs it has ("stop"): early, once its
 * median's interval came within --precision ("precision"); or all of
 * --reps, because the interval stayed wider ("reps"), a run was not ok
 * ("run_not_ok") or starved a coroutine ("starved"), no cell stops early
 * ("fixed"), or the sweep was interrupted.
 */
static void
runner_stop_note(cJSON *cell, const struct runner_spread *sp, bool early,
    const char *why)
{
	cJSON *stop = cJSON_CreateObject();

	cJSON_AddBoolToObject(stop, "early", early);
	cJSON_AddStringToObject(stop, "why", why);
	cJSON_AddNumberToObject(stop, "runs", (double)sp->runs);
	cJSON_AddStringToObject(stop, "metric", sp->metric);
	if (sp->ok > 0) {
		cJSON_AddNumberToObject(stop, "median_lo", sp->lo);
		cJSON_AddNumberToObject(stop, "median_hi", sp->hi);
		cJSON_AddNumberToObject(stop, "coverage", sp->cover);
	}
	cJSON_DeleteItemFromObjectCaseSensitive(cell, "stop");
	cJSON_AddItemToObject(cell, "stop", stop);
	return;
}

bool
runner_may_stop(const struct sweep *o, const cJSON *cell)
{
	struct runner_spread sp;

	runner_spread(o, cell, &sp);
	return sp.runs < o->reps && runner_settled(o, &sp);
}

/* After a run of a cell: whether it stops now, said in the cell if so. */
static bool
runner_stop_early(const struct sweep *o, cJSON *cell)
{
	struct runner_spread sp;

	if (!runner_may_stop(o, cell))
		return false;
	runner_spread(o, cell, &sp);
	runner_stop_note(cell, &sp, true, "precision");
	return true;
}

/* Runs still to come: each open cell's repetitions not yet run. */
static size_t
runner_left(const struct sweep *o, size_t n, const struct runner_arm *arms,
    int narms)
{
	const cJSON *cell;
	size_t left = 0, ci, done;
	int a;

	for (a = 0; a < narms; a++)
		for (ci = 0; ci < n; ci++) {
			cell = runner_cell(&arms[a], ci);
			done = (size_t)cJSON_GetArraySize(
			    cJSON_GetObjectItem(cell, "runs"));
			if (cJSON_GetObjectItem(cell, "stop") == NULL &&
			    done < o->reps)
				left += o->reps - done;
		}
	return left;
}

cJSON *
runner_probes(const struct sweep *o)
{
	cJSON *probes;
	char line[512];

	if (o->host_quiet)
		runner_quiet();
	probes = probe_measure();
	probes_line(probes, line, sizeof(line));
	if (!o->quiet)
		fprintf(stderr, "probes (median of %d): %s\n", PROBE_REPS, line);
	return probes;
}

void
runner_start(const struct sweep *o, size_t n, struct runner_arm *arms,
    int narms, int argc, char **argv)
{
	const cJSON *absent;
	cJSON *probes;
	int a;

	runner_signals();
	for (a = 0; a < narms; a++) {
		arms[a].doc = runner_doc(o, arms[a].cells, n, argc, argv);
		cJSON_AddNumberToObject(arms[a].doc, "reps_min",
		    runner_adapts(o, narms) ? cli_reps_min(o) : o->reps);
		cJSON_AddNumberToObject(arms[a].doc, "precision_pct",
		    runner_adapts(o, narms) ? o->precision_pct : 0);
		runner_arm_context(&arms[a]);
		runner_mkdir_for(arms[a].out);
	}
	/* Once a sitting, both arms' alike: the machine, not a build. */
	probes = runner_probes(o);
	for (a = 0; a < narms; a++)
		cJSON_AddItemToObject(cJSON_GetObjectItem(arms[a].doc,
		    "context"), "probes", cJSON_Duplicate(probes, true));
	cJSON_Delete(probes);
	/* Once a sweep, not once a run: every run would say the same. */
	absent = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    arms[0].doc, "context"), "counters"), "absent");
	if (cJSON_IsString(absent))
		fprintf(stderr, "dispatchbench: %s\n", absent->valuestring);
	return;
}

int
runner_reps(const struct sweep *o, size_t n, struct runner_arm *arms,
    int narms)
{
	size_t rep, k, i = 0, total, ci;
	double started = measure_now();
	bool adapts = runner_adapts(o, narms);
	int failed = 0, a, first;

	for (rep = 0; rep < o->reps && !runner_interrupted; rep++) {
		for (k = 0; k < n && !runner_interrupted; k++) {
			/* Rotate: each repetition starts one cell later. */
			ci = (k + rep) % n;
			if (adapts && cJSON_GetObjectItem(runner_cell(&arms[0],
			    ci), "stop") != NULL)
				continue;
			/* A B, then B A: ABBA over consecutive cells. */
			first = (int)((rep * n + k) % 2);
			for (a = 0; a < narms && !runner_interrupted; a++) {
				struct runner_arm *arm = &arms[(a + first) % narms];

				/* Those run and those to come, as cells stop. */
				total = i + runner_left(o, n, arms, narms);
				runner_progress(o, &arm->cells[ci], ++i, total,
				    started);
				failed |= runner_one(o, ci, rep, arm, i, total);
			}
			if (adapts)
				runner_stop_early(o, runner_cell(&arms[0], ci));
		}
	}
	runner_progress_clear(o);
	return failed;
}

int
runner_round(const struct sweep *o, size_t ci, size_t rep,
    struct runner_arm *arms)
{
	static const int abba[4] = { 0, 1, 1, 0 };
	static size_t i;
	int failed = 0, k, swap = (int)(rep / 2 % 2);

	/* A B B A, or B A A B every other round; reps rep and rep + 1. */
	for (k = 0; k < 4 && !runner_interrupted; k++)
		failed |= runner_one(o, ci, rep + (size_t)k / 2,
		    &arms[abba[k] ^ swap], ++i, 0);
	return failed;
}

/*
 * Once a sweep, what of an arm's runs the machine's other load touched:
 * the windows marked host_busy, and those that stalled.
 */
static void
runner_host_note(const struct sweep *o, const struct runner_arm *arm)
{
	const char *side = arm->label == NULL ? "" : arm->label[0] == 'a' ?
	    "A: " : "B: ";
	const cJSON *cell, *run;
	unsigned int runs = 0, busy = 0, stalled = 0;
	double most = 0;

	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(arm->doc, "cells"))
		cJSON_ArrayForEach(run, cJSON_GetObjectItem(cell, "runs")) {
			runs++;
			stalled += strcmp(results_str(run, RF(status), "?"),
			    "stalled") == 0;
			if (!cJSON_IsTrue(cJSON_GetObjectItem(run,
			    RF(host_busy))))
				continue;
			busy++;
			most = fmax(most, results_num(run, RF(host_other_cpus)));
		}
	if (busy > 0)
		fprintf(stderr, "dispatchbench: %s%u of %u runs shared the "
		    "machine (other processes kept up to %.2f CPUs busy; over "
		    "%.0f %% is marked host_busy): their figures are not the "
		    "designs' alone; run on a quiet machine%s\n", side, busy, runs, most, MEASURE_HOST_BUSY * 100,
		    o->host_quiet ? "" : ", or with --host quiet");
	if (stalled > 0)
		fprintf(stderr, "dispatchbench: %s%u of %u runs stalled (no "
		    "dispatch in the window): no statistic takes them\n",
		    side, stalled, runs);
	return;
}

/*
 * Every cell that did not stop early says why it ran all it did; and, once
 * a sweep, how many stopped early.
 */
static void
runner_stop_notes(const struct sweep *o, struct runner_arm *arm, int narms)
{
	unsigned int cells = 0, early = 0, runs = 0;
	struct runner_spread sp;
	const char *why;
	cJSON *cell;

	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(arm->doc, "cells")) {
		runner_spread(o, cell, &sp);
		cells++;
		runs += (unsigned int)sp.runs;
		if (cJSON_GetObjectItem(cell, "stop") != NULL) {
			early++;
			continue;
		}
		why = runner_interrupted ? "interrupted" : !runner_adapts(o,
		    narms) ? "fixed" : sp.ok < sp.runs ? "run_not_ok" :
		    sp.starved > 0 ? "starved" : "reps";
		runner_stop_note(cell, &sp, false, why);
	}
	if (runner_adapts(o, narms) && !o->quiet)
		fprintf(runner_talk(o), "\n%u of %u cells stopped before %u "
		    "runs, their median's interval within %g %% of it; %u runs "
		    "in all (\"stop\" in each cell says why)\n", early, cells,
		    o->reps, o->precision_pct, runs);
	return;
}

int
runner_finish(const struct sweep *o, struct runner_arm *arms, int narms,
    int failed)
{
	int a;

	for (a = 0; a < narms; a++) {
		runner_stop_notes(o, &arms[a], narms);
		runner_host_note(o, &arms[a]);
		if (!runner_interrupted)
			cJSON_ReplaceItemInObject(arms[a].doc, "complete",
			    cJSON_CreateTrue());
		else
			cJSON_AddStringToObject(arms[a].doc, "interrupted_by",
			    runner_interrupted == SIGINT ? "SIGINT" : "SIGTERM");
		results_memory_fits(arms[a].doc);
		runner_save(arms[a].doc, arms[a].out);
		if (!o->quiet)
			fprintf(runner_talk(o), "\n%s: %s\n", runner_interrupted ?
			    "interrupted, partial results in" : "results in",
			    arms[a].out);
	}
	if (runner_interrupted)
		return RUNNER_INTERRUPTED + runner_interrupted;
	return failed ? RUNNER_RUN_FAILED : RUNNER_OK;
}

bool
runner_stopped(void)
{

	return runner_interrupted != 0;
}

int
runner_sweep(const struct sweep *o, size_t n, struct runner_arm *arms,
    int narms, int argc, char **argv)
{

	runner_start(o, n, arms, narms, argc, argv);
	return runner_finish(o, arms, narms, runner_reps(o, n, arms, narms));
}

void
runner_cell_name(const struct cell *c, char *buf, size_t len)
{
	cJSON *json = cli_cell_json(c);
	size_t used;

	params_series(json, buf, len);
	used = strlen(buf);
	if (!(c->disp->flags & DB_DISP_NO_WIDTH) && c->cfg.workers != CELL_UNBOUNDED)
		snprintf(buf + used, len - used, " w=%u", c->cfg.workers);
	cJSON_Delete(json);
	return;
}
