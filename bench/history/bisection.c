/*
 * bisection.c - the first slower commit between GOOD and BAD (see
 * bisection.h; research note on history, §2: Chromium's pinpoint
 * re-measures the same way).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisection.h"
#include "child.h"
#include "measure.h"
#include "metric.h"

/* A git command's first line of output (up to four words); -1: it failed. */
static int
bisection_git(char *line, size_t len, const char *a, const char *b,
    const char *c, const char *d)
{
	char *argv[] = { "git", (char *)a, (char *)b, (char *)c, (char *)d,
	    NULL };

	if (child_output(argv, line, len) != 0)
		return -1;
	line[strcspn(line, "\n")] = '\0';
	return 0;
}

int
bisection_range(struct bisection *b, const char *good, const char *bad,
    char *err, size_t errlen)
{
	static char list[BISECTION_MAX * 48];
	char range[256], last[48], *argv[] = { "git", "rev-list",
	    "--first-parent", "--reverse", range, NULL };
	char *line, *save;

	if (bisection_git(b->top, sizeof(b->top), "rev-parse",
	    "--show-toplevel", NULL, NULL) != 0)
		return snprintf(err, errlen, "bisect runs in a git clone of "
		    "dispatchbench"), -1;
	snprintf(range, sizeof(range), "%s^{commit}", good);
	if (bisection_git(b->good, sizeof(b->good), "rev-parse", "--verify",
	    range, NULL) != 0)
		return snprintf(err, errlen, "GOOD: '%s' is not a commit",
		    good), -1;
	snprintf(range, sizeof(range), "%s^{commit}", bad);
	if (bisection_git(last, sizeof(last), "rev-parse", "--verify", range,
	    NULL) != 0)
		return snprintf(err, errlen, "BAD: '%s' is not a commit", bad),
		    -1;
	snprintf(range, sizeof(range), "%s..%s", b->good, last);
	if (child_output(argv, list, sizeof(list)) != 0 || *list == '\0')
		return snprintf(err, errlen, "no commit from GOOD to BAD: is "
		    "GOOD an ancestor of BAD?"), -1;
	for (line = strtok_r(list, "\n", &save); line != NULL && b->n <
	    BISECTION_MAX; line = strtok_r(NULL, "\n", &save))
		snprintf(b->sha[b->n++], sizeof(b->sha[0]), "%s", line);
	return line == NULL ? 0 : (snprintf(err, errlen, "more than %d commits "
	    "from GOOD to BAD: give a narrower range", BISECTION_MAX), -1);
}

int
bisection_build(struct bisection *b, const char *sha, char *bin, size_t len)
{
	char script[4200], where[4120], line[4200];
	char *argv[] = { "sh", script, (char *)sha, where, NULL };
	bool had;
	int rc;

	snprintf(script, sizeof(script), "%s/scripts/build-rev.sh", b->top);
	snprintf(where, sizeof(where), "%s/%.12s", b->dir, sha);
	snprintf(bin, len, "%s/" BISECTION_BIN, where);
	had = access(bin, X_OK) == 0;
	rc = child_output(argv, line, sizeof(line));
	b->built += !had;
	if (rc == 0 && access(bin, X_OK) == 0)
		return 0;
	fprintf(stderr, "%.12s: its build failed (exit %d): skipped\n", sha,
	    rc);
	return -1;
}

void
bisection_keep(struct bisection *b, const char *path)
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

/* A step's line, and its record in the store. */
static void
bisection_tell(struct bisection *b, int i, const struct step *st)
{
	struct store_step rec = { b->sha[i], step_marks[st->mark],
	    st->verdict, st->why, st->ratio, st->lo, st->hi, st->p, st->seconds,
	    st->runs };
	char change[128], err[1024], runs[16], p[16];

	metric_signed(st->ratio - 1, st->lo - 1, st->hi - 1, false, change,
	    sizeof(change));
	snprintf(runs, sizeof(runs), st->runs > 0 ? "%d" : "-", st->runs);
	/* Exact counts have no p: their step is known. */
	snprintf(p, sizeof(p), isfinite(st->p) ? "%.2g" : "-", st->p);
	printf("step %-2d %.7s%s %-12s %-26s p %-8s %3s %-16s %4.0f s"
	    "  %s: %s%s%s\n", b->steps, b->sha[i], i == b->n - 1 ? " (BAD)" :
	    "      ", step_marks[st->mark], isfinite(st->ratio) ? change : "-",
	    p, runs, b->pair ? "processes" : "runs a side",
	    st->seconds,
	    b->pair ? "pair" : "ab", st->verdict, *st->why ? ", " :
	    "", st->why);
	fflush(stdout);
	if (b->store != NULL && store_bisect_step(b->store, b->id, b->steps,
	    &rec, err, sizeof(err)) != 0)
		fprintf(stderr, "dispatchbench: %s\n", err);
	return;
}

/* Marks commit i: built, then measured against GOOD; nonzero: the end. */
static int
bisection_test(struct bisection *b, int i)
{
	struct step st = { .mark = STEP_SKIP, .verdict = "no build",
	    .ratio = NAN, .lo = NAN, .hi = NAN, .p = NAN };
	char bin[4200], path[4300];
	int rc;

	b->steps++;
	snprintf(path, sizeof(path), "%s/step-%d.json", b->out, b->steps);
	if (bisection_build(b, b->sha[i], bin, sizeof(bin)) == 0 &&
	    (rc = b->measure(b->arg, b->sha[i], bin, path, &st)) != 0)
		return rc;
	b->said[i] = st;
	bisection_tell(b, i, &st);
	return 0;
}

/* The untested commit between good and bad nearest their middle; -1: none. */
static int
bisection_next(const struct bisection *b, int good, int bad)
{
	int mid = good + (bad - good) / 2, d, i;

	for (d = 0; d < bad - good; d++)
		for (i = mid - d; i <= mid + d; i += 2 * d + (d == 0)) {
			if (i > good && i < bad &&
			    b->said[i].mark == STEP_UNTESTED)
				return i;
		}
	return -1;
}

const char *
bisection_search(struct bisection *b, int *good, int *bad, int *rc)
{
	int i;

	if ((*rc = bisection_test(b, b->n - 1)) != 0)
		return "an ab failed";
	if (b->said[b->n - 1].mark != STEP_SLOWER)
		return b->said[b->n - 1].mark == STEP_GOOD ? "BAD is not "
		    "slower than GOOD: nothing to bisect" : "BAD against GOOD "
		    "has no answer (see its step): give --budget more time, or "
		    "the cell that moved";
	while ((i = bisection_next(b, *good, *bad)) >= 0) {
		if ((*rc = bisection_test(b, i)) != 0)
			return "an ab failed";
		if (b->said[i].mark == STEP_GOOD)
			*good = i;
		else if (b->said[i].mark == STEP_SLOWER)
			*bad = i;
		else if (b->said[i].mark == STEP_OPEN)
			return "a step stayed inconclusive after its budget: "
			    "the first slower commit is not told apart; give "
			    "--budget more time";
	}
	return *bad - *good > 1 ? "the commits before it could not be built "
	    "(skipped): the first slower one is among them" : NULL;
}

/* The commit named, what its step measured, and its parent's. */
static void
bisection_culprit(const struct bisection *b, int good, int bad,
    const char *subject)
{
	const struct step *st = &b->said[bad];
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

void
bisection_summary(struct bisection *b, int good, int bad, const char *why)
{
	char subject[512] = "", err[1024];
	const char *outcome = why == NULL ? "found" : "undecided";
	double took = measure_now() - b->started;
	int i, skipped;

	bisection_git(subject, sizeof(subject), "show", "-s", "--format=%s",
	    b->sha[bad]);
	if (why == NULL)
		bisection_culprit(b, good, bad, subject);
	else
		printf("\nno single commit named: %s.\n", why);
	/* BAD slower, and what is left between the last good and it. */
	if (why != NULL && b->said[bad].mark == STEP_SLOWER) {
		printf("the first slower commit is one of:");
		for (i = good + 1; i <= bad; i++)
			printf(" %.7s", b->sha[i]);
		printf("\n");
	}
	for (i = skipped = 0; i < b->n; i++)
		skipped += b->said[i].mark == STEP_SKIP;
	printf("%d steps over %d commits, %d skipped; %d builds made (the "
	    "rest reused); %.0f min %02.0f s\n", b->steps, b->n, skipped,
	    b->built, floor(took / 60), fmod(took, 60));
	if (b->store != NULL && store_bisect_end(b->store, b->id, outcome,
	    why == NULL ? b->sha[bad] : NULL, took, err, sizeof(err)) != 0)
		fprintf(stderr, "dispatchbench: %s\n", err);
	return;
}

