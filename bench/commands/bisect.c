/*
 * bisect.c - the first commit between GOOD and BAD whose verdict against
 * GOOD is `regressed`: each revision built into a folder of its own by
 * scripts/build-rev.sh (a build made before is reused), each step an `ab`
 * of GOOD's build against the step's, interleaved, with a budget of A B B
 * A rounds for a cell still undecided. As `git bisect`, a revision whose
 * build fails is skipped; unlike it, a step that stays inconclusive is
 * reported as such, never guessed (Chromium's pinpoint re-measures the
 * same way; research note on history, §2).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "commands.h"
#include "label.h"
#include "measure.h"
#include "metric.h"
#include "params.h"
#include "results.h"
#include "store.h"

#define BISECT_MAX	1024	/* commits between GOOD and BAD */
#define BISECT_BIN	"bench/dispatchbench"	/* in a revision's build */

static const struct param bisect_opts[] = {
	{ .flag = "--db", .kind = PARAM_PATH, .dflt = "results/history.db",
	    ARG(h.db), .metavar = "FILE", .help = "the store that keeps every "
	    "step and its runs (from the source tree, under build/)" },
	{ .flag = "--cell", .kind = PARAM_TEXT, ARG(h.cell), .metavar = "WORDS",
	    .help = "the cells whose verdicts decide (their keys hold every "
	    "word); default: all the run options make" },
	{ .flag = "--threshold", .kind = PARAM_NUMBER, .flags = P_POSITIVE,
	    .hi = 99, .dflt = "5", ARG(h.threshold_pct), .metavar = "PCT",
	    .help = "the smallest change worth a verdict" },
	{ .flag = "--budget", .kind = PARAM_DURATION, .lo = 1, .hi = 7 * 86400,
	    .dflt = "60", ARG(h.budget_s), .metavar = "DURATION",
	    .help = "each step's A B B A rounds for an undecided cell" },
	{ .flag = "-o", .kind = PARAM_PATH, .dflt = "build-rev", ARG(h.out),
	    .metavar = "DIR",
	    .help = "where revisions are built and the steps' results go" },
	{ .flag = "--pair", .kind = PARAM_PATH, ARG(h.pair), .metavar = "FILE",
	    .help = "a plugin queue or design, by its path in a build "
	    "(examples/libtwolock.so): each step a pair of GOOD's against the "
	    "step's, in one process, instead of an ab of the two builds" },
};

/* A step's revision and what ab said of it. */
enum bisect_mark { BISECT_UNTESTED, BISECT_GOOD, BISECT_SLOWER,
    BISECT_SKIP, BISECT_OPEN };

static const char *const bisect_marks[] = { "untested", "not slower",
    "slower", "skipped", "inconclusive" };

/* What one ab step said, for the cells --cell names. */
struct bisect_step {
	enum bisect_mark mark;
	char verdict[32], why[512], cell[512];
	double ratio, lo, hi, p, seconds;
	int runs, rc;
};

struct bisect {
	struct call *c;
	char top[4096], self[4096], dir[4096];
	char out[4200];			/* the steps' results */
	char sha[BISECT_MAX][48], good[48], goodbin[4200];
	struct bisect_step said[BISECT_MAX];	/* each commit's step, if any */
	int n, steps, built;
	char threshold[32], budget[32];	/* the options each step passes on */
	long long id;			/* the bisection's row in the store */
	struct store *store;
	double started;
};

/* A git command's first line of output (up to four words); -1: it failed. */
static int
bisect_git(char *line, size_t len, const char *a, const char *b,
    const char *c, const char *d)
{
	char *argv[] = { "git", (char *)a, (char *)b, (char *)c, (char *)d,
	    NULL };

	if (child_output(argv, line, len) != 0)
		return -1;
	line[strcspn(line, "\n")] = '\0';
	return 0;
}

/* The commits GOOD..BAD along first parents, oldest first. */
static int
bisect_range(struct bisect *b, char *err, size_t errlen)
{
	static char list[BISECT_MAX * 48];
	char range[256], bad[48], *argv[] = { "git", "rev-list",
	    "--first-parent", "--reverse", range, NULL };
	char *line, *save;

	if (bisect_git(b->top, sizeof(b->top), "rev-parse", "--show-toplevel",
	    NULL, NULL) != 0)
		return snprintf(err, errlen, "bisect runs in a git clone of "
		    "dispatchbench"), -1;
	snprintf(range, sizeof(range), "%s^{commit}", b->c->words[0]);
	if (bisect_git(b->good, sizeof(b->good), "rev-parse", "--verify",
	    range, NULL) != 0)
		return snprintf(err, errlen, "GOOD: '%s' is not a commit",
		    b->c->words[0]), -1;
	snprintf(range, sizeof(range), "%s^{commit}", b->c->words[1]);
	if (bisect_git(bad, sizeof(bad), "rev-parse", "--verify", range,
	    NULL) != 0)
		return snprintf(err, errlen, "BAD: '%s' is not a commit",
		    b->c->words[1]), -1;
	snprintf(range, sizeof(range), "%s..%s", b->good, bad);
	if (child_output(argv, list, sizeof(list)) != 0 || *list == '\0')
		return snprintf(err, errlen, "no commit from GOOD to BAD: is "
		    "GOOD an ancestor of BAD?"), -1;
	for (line = strtok_r(list, "\n", &save); line != NULL && b->n <
	    BISECT_MAX; line = strtok_r(NULL, "\n", &save))
		snprintf(b->sha[b->n++], sizeof(b->sha[0]), "%s", line);
	return line == NULL ? 0 : (snprintf(err, errlen, "more than %d commits "
	    "from GOOD to BAD: give a narrower range", BISECT_MAX), -1);
}

/* The revision's binary, built (or found built) by build-rev.sh; -1: none. */
static int
bisect_build(struct bisect *b, const char *sha, char *bin, size_t len)
{
	char script[4200], where[4120], line[4200];
	char *argv[] = { "sh", script, (char *)sha, where, NULL };
	bool had;
	int rc;

	snprintf(script, sizeof(script), "%s/scripts/build-rev.sh", b->top);
	snprintf(where, sizeof(where), "%s/%.12s", b->dir, sha);
	snprintf(bin, len, "%s/" BISECT_BIN, where);
	had = access(bin, X_OK) == 0;
	rc = child_output(argv, line, sizeof(line));
	b->built += !had;
	if (rc == 0 && access(bin, X_OK) == 0)
		return 0;
	fprintf(stderr, "%.12s: its build failed (exit %d): skipped\n", sha,
	    rc);
	return -1;
}

/*
 * A cell that did not regress is not slower when it is equivalent or
 * improved, or when its interval rules out a rise past the threshold: a
 * bisection asks whether a commit is slower like BAD, not whether it is
 * within the threshold both ways, which a noisy cell takes far longer to
 * show.
 */
static bool
bisect_not_slower(const cJSON *row, const char *verdict, double threshold)
{

	return strcmp(verdict, "equivalent") == 0 ||
	    strcmp(verdict, "improved") == 0 ||
	    results_num(row, "ratio_hi") - 1 < threshold;
}

/*
 * The step's mark from ab's rows: slower if a named cell regressed; not
 * slower if none can have (above); skipped if a run broke; else
 * inconclusive. The row told is the one that decided.
 */
static void
bisect_judge(const cJSON *rows, const char *filter, double threshold,
    struct bisect_step *st)
{
	const cJSON *row, *told = NULL;
	int rank, worst = -1;
	const char *v;

	cJSON_ArrayForEach(row, rows) {
		if (!label_key_holds(filter, results_str(row, "cell", "")))
			continue;
		v = results_str(row, "verdict", "");
		rank = strcmp(v, "broken") == 0 ? 3 :
		    strcmp(v, "regressed") == 0 ? 2 :
		    !bisect_not_slower(row, v, threshold);
		if (rank > worst) {
			worst = rank;
			told = row;
		}
	}
	st->mark = worst < 0 ? BISECT_OPEN : (enum bisect_mark[]){ BISECT_GOOD,
	    BISECT_OPEN, BISECT_SLOWER, BISECT_SKIP }[worst];
	snprintf(st->verdict, sizeof(st->verdict), "%s", told == NULL ?
	    "no such cell" : results_str(told, "verdict", "?"));
	snprintf(st->why, sizeof(st->why), "%s", results_str(told, "why", ""));
	snprintf(st->cell, sizeof(st->cell), "%s", results_str(told, "cell",
	    ""));
	st->ratio = results_num(told, "ratio");
	st->lo = results_num(told, "ratio_lo");
	st->hi = results_num(told, "ratio_hi");
	st->p = results_num(told, "p");
	st->runs = results_int(told, "runs_new", 0);
	return;
}

/* The step's two arms' results, into the store: the history of each. */
static void
bisect_keep(struct bisect *b, const char *path)
{
	char arm[4300], what[1024], err[1024];
	int k;

	for (k = 0; k < 2 && b->store != NULL; k++) {
		snprintf(arm, sizeof(arm), "%.*s-%c.json", (int)strlen(path) - 5,
		    path, 'a' + k);
		if (access(arm, R_OK) == 0 && store_add(b->store, arm, what,
		    sizeof(what), err, sizeof(err)) != 0)
			fprintf(stderr, "dispatchbench: %s\n", err);
	}
	return;
}

/*
 * This binary's command: the words fixed, then bisect's default run
 * options (when the command takes them: ab) and the run options given;
 * its stdout into out, its time and status into st.
 */
static void
bisect_run(struct bisect *b, const char *const *fixed, size_t nfixed,
    bool defaults, char *out, size_t len, struct bisect_step *st)
{
	double started = measure_now();
	char **argv;
	size_t n = 0;
	int i;

	if ((argv = calloc(nfixed + 16 + (size_t)b->c->nrest,
	    sizeof(*argv))) == NULL)
		abort();
	while (n < nfixed) {
		argv[n] = (char *)fixed[n];
		n++;
	}
	for (i = 0; defaults && command_bisect.sweep[i] != NULL; i++)
		argv[n++] = (char *)command_bisect.sweep[i];
	for (i = 0; i < b->c->nrest; i++)
		argv[n++] = b->c->rest[i];
	st->rc = child_output(argv, out, len);
	st->seconds = measure_now() - started;
	free(argv);
	return;
}

/* ab of GOOD's build against bin, its rows judged into st. */
static int
bisect_ab(struct bisect *b, const char *bin, const char *path,
    struct bisect_step *st)
{
	static char out[1 << 22];
	const struct history_args *h = &b->c->args.h;
	const char *fixed[] = { b->self, "ab", "--a", b->goodbin, "--b", bin,
	    "--format", "json", "--quiet", "--threshold", b->threshold,
	    "--budget", b->budget, "--out", path };
	cJSON *rows;

	bisect_run(b, fixed, sizeof(fixed) / sizeof(fixed[0]), true, out,
	    sizeof(out), st);
	rows = cJSON_Parse(out);
	bisect_judge(rows, h->cell, h->threshold_pct / 100, st);
	cJSON_Delete(rows);
	bisect_keep(b, path);
	return st->rc;
}

/*
 * pair of GOOD's build of the plugin against bin's: its verdict as the
 * one row of an ab, judged into st. A pair's results are not a sweep's:
 * the store keeps its step, not its windows.
 */
static int
bisect_pair(struct bisect *b, const char *bin, const char *path,
    struct bisect_step *st)
{
	const struct history_args *h = &b->c->args.h;
	char pa[4400], pb[4400], out[4096], key[1024], err[512];
	const char *fixed[] = { b->self, "pair", "--a", pa, "--b", pb,
	    "--threshold", b->threshold, "--budget", b->budget, "--out", path };
	cJSON *doc = NULL, *rows = cJSON_CreateArray(), *row;
	const cJSON *res;

	snprintf(pa, sizeof(pa), "%.*s%s", (int)(strlen(b->goodbin) -
	    strlen(BISECT_BIN)), b->goodbin, h->pair);
	snprintf(pb, sizeof(pb), "%.*s%s", (int)(strlen(bin) -
	    strlen(BISECT_BIN)), bin, h->pair);
	if (access(pa, R_OK) != 0 || access(pb, R_OK) != 0) {
		snprintf(st->verdict, sizeof(st->verdict), "no plugin");
		snprintf(st->why, sizeof(st->why), "%s is not in %s build",
		    h->pair, access(pa, R_OK) != 0 ? "GOOD's" : "its");
		return 0;
	}
	bisect_run(b, fixed, sizeof(fixed) / sizeof(fixed[0]), false, out,
	    sizeof(out), st);
	if (results_read_json(path, &doc, err, sizeof(err)) == 0) {
		res = results_obj(doc, "result");
		params_key(results_obj(doc, "cell"), true, key, sizeof(key));
		row = cJSON_CreateObject();
		cJSON_AddStringToObject(row, "cell", key);
		cJSON_AddStringToObject(row, "verdict", results_str(res,
		    "verdict", "?"));
		cJSON_AddNumberToObject(row, "ratio", results_num(res, "ratio"));
		cJSON_AddNumberToObject(row, "ratio_lo", results_num(res, "lo"));
		cJSON_AddNumberToObject(row, "ratio_hi", results_num(res, "hi"));
		cJSON_AddNumberToObject(row, "p", results_num(res, "p"));
		cJSON_AddNumberToObject(row, "runs_new", results_num(res,
		    "processes"));
		cJSON_AddItemToArray(rows, row);
	}
	bisect_judge(rows, NULL, h->threshold_pct / 100, st);
	cJSON_Delete(rows);
	cJSON_Delete(doc);
	return st->rc;
}

/* A step's line, and its record in the store. */
static void
bisect_tell(struct bisect *b, int i, const struct bisect_step *st)
{
	struct store_step rec = { b->sha[i], bisect_marks[st->mark],
	    st->verdict, st->why, st->ratio, st->lo, st->hi, st->p, st->seconds,
	    st->runs };
	char change[128], err[1024], runs[16];

	metric_signed(st->ratio - 1, st->lo - 1, st->hi - 1, false, change,
	    sizeof(change));
	snprintf(runs, sizeof(runs), st->runs > 0 ? "%d" : "-", st->runs);
	printf("step %-2d %.7s%s %-12s %-26s p %-8.2g %3s %-16s %4.0f s"
	    "  %s: %s%s%s\n", b->steps, b->sha[i], i == b->n - 1 ? " (BAD)" :
	    "      ", bisect_marks[st->mark], isfinite(st->ratio) ? change : "-",
	    st->p, runs, b->c->args.h.pair ? "processes" : "runs a side",
	    st->seconds,
	    b->c->args.h.pair ? "pair" : "ab", st->verdict, *st->why ? ", " :
	    "", st->why);
	fflush(stdout);
	if (b->store != NULL && store_bisect_step(b->store, b->id, b->steps,
	    &rec, err, sizeof(err)) != 0)
		fprintf(stderr, "dispatchbench: %s\n", err);
	return;
}

/*
 * Marks commit i: built, then measured against GOOD. An ab that was
 * interrupted or refused its input ends the bisection (its status).
 */
static int
bisect_test(struct bisect *b, int i)
{
	struct bisect_step st = { .mark = BISECT_SKIP, .verdict = "no build",
	    .ratio = NAN, .lo = NAN, .hi = NAN, .p = NAN };
	char bin[4200], path[4300];

	b->steps++;
	snprintf(path, sizeof(path), "%s/step-%d.json", b->out, b->steps);
	if (bisect_build(b, b->sha[i], bin, sizeof(bin)) == 0 &&
	    (b->c->args.h.pair != NULL ? bisect_pair : bisect_ab)(b, bin, path,
	    &st) >= EXIT_USAGE && st.rc != EXIT_UNDECIDED) {
		fprintf(stderr, "dispatchbench: bisect: ab of %.7s ended with "
		    "status %d\n", b->sha[i], st.rc);
		return st.rc;
	}
	b->said[i] = st;
	bisect_tell(b, i, &st);
	return 0;
}

/* The untested commit between good and bad nearest their middle; -1: none. */
static int
bisect_next(const struct bisect *b, int good, int bad)
{
	int mid = good + (bad - good) / 2, d, i;

	for (d = 0; d < bad - good; d++)
		for (i = mid - d; i <= mid + d; i += 2 * d + (d == 0)) {
			if (i > good && i < bad &&
			    b->said[i].mark == BISECT_UNTESTED)
				return i;
		}
	return -1;
}

/* Why no single commit is named, when none is; NULL when one is. */
static const char *
bisect_search(struct bisect *b, int *good, int *bad, int *rc)
{
	int i;

	if ((*rc = bisect_test(b, b->n - 1)) != 0)
		return "an ab failed";
	if (b->said[b->n - 1].mark != BISECT_SLOWER)
		return b->said[b->n - 1].mark == BISECT_GOOD ? "BAD is not "
		    "slower than GOOD: nothing to bisect" : "BAD against GOOD "
		    "has no answer (see its step): give --budget more time, or "
		    "the cell that moved";
	while ((i = bisect_next(b, *good, *bad)) >= 0) {
		if ((*rc = bisect_test(b, i)) != 0)
			return "an ab failed";
		if (b->said[i].mark == BISECT_GOOD)
			*good = i;
		else if (b->said[i].mark == BISECT_SLOWER)
			*bad = i;
		else if (b->said[i].mark == BISECT_OPEN)
			return "a step stayed inconclusive after its budget: "
			    "the first slower commit is not told apart; give "
			    "--budget more time";
	}
	return *bad - *good > 1 ? "the commits before it could not be built "
	    "(skipped): the first slower one is among them" : NULL;
}

/* The commit named, what its step measured, and its parent's. */
static void
bisect_culprit(const struct bisect *b, int good, int bad, const char *subject)
{
	const struct bisect_step *st = &b->said[bad];
	char change[128];

	metric_signed(st->ratio - 1, st->lo - 1, st->hi - 1, false, change,
	    sizeof(change));
	printf("\nfirst slower commit: %.7s %s\n  %s: %s against GOOD\n",
	    b->sha[bad], subject, st->cell, change);
	if (good >= 0)
		printf("  its parent %.7s: not slower, %s\n", b->sha[good],
		    metric_signed(b->said[good].ratio - 1, b->said[good].lo - 1,
		    b->said[good].hi - 1, false, change, sizeof(change)));
	else
		printf("  its parent is GOOD\n");
	return;
}

static void
bisect_summary(struct bisect *b, int good, int bad, const char *why)
{
	char subject[512] = "", err[1024];
	const char *outcome = why == NULL ? "found" : "undecided";
	double took = measure_now() - b->started;
	int i, skipped;

	bisect_git(subject, sizeof(subject), "show", "-s", "--format=%s",
	    b->sha[bad]);
	if (why == NULL)
		bisect_culprit(b, good, bad, subject);
	else
		printf("\nno single commit named: %s.\n", why);
	/* BAD slower, and what is left between the last good and it. */
	if (why != NULL && b->said[bad].mark == BISECT_SLOWER) {
		printf("the first slower commit is one of:");
		for (i = good + 1; i <= bad; i++)
			printf(" %.7s", b->sha[i]);
		printf("\n");
	}
	for (i = skipped = 0; i < b->n; i++)
		skipped += b->said[i].mark == BISECT_SKIP;
	printf("%d steps over %d commits, %d skipped; %d builds made (the "
	    "rest reused); %.0f min %02.0f s\n", b->steps, b->n, skipped,
	    b->built, floor(took / 60), fmod(took, 60));
	if (b->store != NULL && store_bisect_end(b->store, b->id, outcome,
	    why == NULL ? b->sha[bad] : NULL, took, err, sizeof(err)) != 0)
		fprintf(stderr, "dispatchbench: %s\n", err);
	return;
}

/* The options the steps share, as a line for the store's record. */
static void
bisect_options(const struct call *c, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	for (i = 2; i < c->argc && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    i > 2 ? " " : "", c->argv[i]);
	return;
}

static int
cmd_bisect(struct call *c)
{
	struct bisect *b = calloc(1, sizeof(*b));
	char err[1024], options[4096], dbpath[4096];
	int good, bad, rc;
	const char *why;
	ssize_t n;

	if (b == NULL)
		abort();
	b->c = c;
	b->started = measure_now();
	if (bisect_range(b, err, sizeof(err)) != 0) {
		free(b);
		return command_bad("%s", err);
	}
	snprintf(b->dir, sizeof(b->dir), "%s", c->args.h.out);
	snprintf(b->threshold, sizeof(b->threshold), "%g",
	    c->args.h.threshold_pct);
	snprintf(b->budget, sizeof(b->budget), "%g", c->args.h.budget_s);
	if ((n = readlink("/proc/self/exe", b->self, sizeof(b->self) - 1)) > 0)
		b->self[n] = '\0';
	if (strcmp(c->args.h.db, "results/history.db") == 0)
		c->args.h.db = cli_out_default(c->args.h.db, dbpath,
		    sizeof(dbpath));
	bisect_options(c, options, sizeof(options));
	if (store_open(c->args.h.db, true, &b->store, err, sizeof(err)) != 0 ||
	    (b->id = store_bisect_begin(b->store, b->good, b->sha[b->n - 1],
	    options, err, sizeof(err))) < 0) {
		store_close(b->store);
		free(b);
		return command_bad("%s", err);
	}
	printf("bisect: %d commits from GOOD %.7s to BAD %.7s; each step %s "
	    "against GOOD's (--budget %g s, --threshold %g %%), the steps kept "
	    "in %s\n\n", b->n, b->good, b->sha[b->n - 1], c->args.h.pair ?
	    "a pair of its plugin" : "an ab of its build",
	    c->args.h.budget_s, c->args.h.threshold_pct, c->args.h.db);
	snprintf(b->out, sizeof(b->out), "%s/bisect-%.7s", b->dir, b->good);
	mkdir(b->dir, 0777);
	mkdir(b->out, 0777);
	good = -1;
	bad = b->n - 1;
	rc = 0;
	why = bisect_build(b, b->good, b->goodbin, sizeof(b->goodbin)) != 0 ?
	    "GOOD could not be built" : bisect_search(b, &good, &bad, &rc);
	if (rc == 0)
		bisect_summary(b, good, bad, why);
	store_close(b->store);
	free(b);
	return rc != 0 ? rc : why == NULL ? 0 : EXIT_UNDECIDED;
}

/* The steps' cell by default: seed 003's, the shared queue at 8 workers. */
static const char *const bisect_sweep[] = { "--dispatcher", "shared",
    "--workers", "8", "--time", "0.3", "--warmup", "0.2", NULL };

const struct command command_bisect = {
	.name = "bisect",
	.args = "GOOD BAD [run options] [options]",
	.summary = "the first commit from GOOD to BAD that made a cell slower, "
	    "by ab at each step",
	OPTS(bisect_opts),
	.minwords = 2,
	.maxwords = 2,
	.sweep = bisect_sweep,
	.run = cmd_bisect,
};
