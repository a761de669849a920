/*
 * compare.c - the verdict of NEW against BASE (see compare.h).
 *
 * Per cell of BASE:
 *  - a NEW run that failed, hung or crashed, or more stalled windows in
 *    NEW than in BASE, makes the cell `broken`, whatever the timings of
 *    the rest: a build that loses a task in one run in six is not judged
 *    on the five it got right;
 *  - a cell NEW lacks, fewer than two ok runs a side, an ok run without
 *    the figure, an interrupted run, sides of which one ran mostly beside
 *    other load (host_busy) and the other mostly alone, or too few runs
 *    for any p to pass the cell's level make it `undecided`: no answer,
 *    which is never "no regression" (its own exit status);
 *  - the metric of the ok runs is compared on logs, as a ratio, when it is
 *    a cost or a rate (a figure of 0 or below there is refused), and as
 *    the difference NEW - BASE when it can be 0 (context switches);
 *  - one test per cell (rank.h): the exact rank-sum test, and when the
 *    pooled runs fall into two regimes, the min-p test of the rank sum,
 *    the slow counts and the rank sum inside each regime together, so
 *    that neither a shift, a change of the slow share nor a shift inside
 *    the regimes hides behind the others;
 *  - Holm's correction over the cells tested: the chance that any cell
 *    that did not change is flagged stays alpha;
 *  - verdicts, in this order: with p below the level, `regressed`
 *    (`improved`) when the regimes moved (their share, or the runs inside
 *    them), when the estimate lies past the threshold, or when the worse
 *    tail does with the test pointing that way (a slow minority);
 *    `equivalent` only when the interval, the worse tail and, in two
 *    regimes, the slow shares are shown inside the threshold; else
 *    `undecided` when no p could pass, or `inconclusive`, with the
 *    smallest change the verdict would have caught.
 * results/README.md ("How a verdict is reached") works through why.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "beside.h"
#include "compare.h"
#include "plot.h"
#include "rank.h"
#include "params.h"
#include "results.h"
#include "stats.h"
#include "table.h"

/*
 * The quantile that stands for a cost's worse tail (the 10th for a rate):
 * 9 of 30 runs slower moved the median and the Hodges-Lehmann estimate by
 * under 1 %, this by 39 % (issue 28).
 */
#define COMPARE_TAIL_Q	0.9

#define COMPARE_BUSY_NAMED 6	/* busy cells named one by one, at most */
#define COMPARE_BUSY_APART 0.5	/* busy shares further apart: undecided */

/* One side of a cell: how its runs ended, and the metric of the ok ones. */
struct compare_arm {
	unsigned int runs, ok, failed, hung, crashed, stalled, interrupted;
	unsigned int bare;		/* ok runs without the metric */
	unsigned int busy;		/* runs beside other load: host_busy */
	unsigned int hosted;		/* runs that say either way */
	char errors[256];		/* each distinct reason once */
	double *v;			/* n of them */
	size_t n;
	double median;
	int impossible;			/* the first run whose figure cannot be */
	double impossible_value;
};

struct compare_row {
	char cell[600];
	struct compare_arm a, b;
	bool missing;			/* BASE has the cell, NEW does not */
	bool tested;			/* both arms have two ok runs or more */
	bool difference;		/* compared as NEW - BASE */
	bool split;			/* the pooled runs fall into two regimes */
	bool regimes;			/* an arm holds runs of both */
	bool wide;			/* an arm's spread exceeds the threshold */
	struct rank_test t;		/* on logs, or on the values */
	double tail;			/* the worse quantile, NEW - BASE */
	double share_lo, share_hi;	/* slow share NEW - BASE, interval */
	double margin;			/* the share change worth the threshold */
	double p_adj;
	double level;			/* the p it is held to: alpha, or a look's */
	double reach;			/* a cell's own level: alpha / M alone */
	double spread;			/* of the runs, on the compared scale */
	double mde;			/* the change the verdict catches 80 % */
	const char *verdict;
	char why[320];
};

void
compare_defaults(struct compare_opts *o)
{

	o->threshold = 0.05;
	o->alpha = 0.05;
	o->format = TABLE_TEXT;
	o->allow_other_machine = false;
	o->by_position = false;
	o->beside = false;
	o->metric = "cpu_us_per_dispatch";
	o->plot_dir = NULL;
	o->levels = NULL;
	return;
}

/* Throughput is better higher; every other figure here is a cost. */
static bool
compare_higher_is_better(const char *metric)
{

	return strcmp(metric, "ops_per_s") == 0 ||
	    strcmp(metric, "round_trips_per_s") == 0;
}

/*
 * Figures that cannot be 0 or below in a run that did its work: a time
 * per unit of work, a rate of work. Counts per dispatch can be 0.
 */
static bool
compare_positive(const char *metric)
{
	size_t n = strlen(metric);

	return strncmp(metric, "cpu_us_per_", 11) == 0 ||
	    (strncmp(metric, "latency_", 8) == 0 && n > 3 &&
	    strcmp(metric + n - 3, "_us") == 0) ||
	    strcmp(metric, "ops_per_s") == 0 ||
	    strcmp(metric, "round_trips_per_s") == 0 ||
	    strcmp(metric, "perf_task_clock_ns_per_dispatch") == 0 ||
	    strcmp(metric, "wall_s") == 0;
}

static const cJSON *
compare_find(const cJSON *doc, const char *key)
{
	const cJSON *cell;
	char k[256];

	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		params_key(cell, true, k, sizeof(k));
		if (strcmp(k, key) == 0)
			return cell;
	}
	return NULL;
}

static void
compare_add_error(struct compare_arm *arm, const char *status,
    const char *error)
{
	char e[160];
	size_t used = strlen(arm->errors);

	snprintf(e, sizeof(e), "%s: %s", status, error);
	if (strstr(arm->errors, e) == NULL && used + strlen(e) + 3 <
	    sizeof(arm->errors))
		snprintf(arm->errors + used, sizeof(arm->errors) - used, "%s%s",
		    used ? "; " : "", e);
	return;
}

static int
compare_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double
compare_median(const double *v, size_t n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	if ((s = malloc(n * sizeof(*s))) == NULL)
		abort();
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), compare_dbl);
	m = stats_quantile(s, n, 0.5);
	free(s);
	return m;
}

/*
 * A run that did not end ok, by its status: a stalled window (no
 * progress) and an interrupted one are not the build's failures, and are
 * counted apart.
 */
static void
compare_arm_end(struct compare_arm *arm, const cJSON *run, const char *st)
{

	arm->hung += strcmp(st, "hung") == 0;
	arm->crashed += strcmp(st, "crashed") == 0;
	arm->stalled += strcmp(st, "stalled") == 0;
	arm->interrupted += strcmp(st, "interrupted") == 0;
	arm->failed += strcmp(st, "hung") != 0 && strcmp(st, "crashed") != 0 &&
	    strcmp(st, "stalled") != 0 && strcmp(st, "interrupted") != 0;
	compare_add_error(arm, st, results_str(run, "error",
	    strcmp(st, "stalled") == 0 ? "no progress in the window" :
	    "no reason given"));
	return;
}

/*
 * How each run ended, and the metric of every ok run: one without it is
 * counted (never silently dropped), one that cannot be is remembered.
 */
static void
compare_arm_read(struct compare_arm *arm, const cJSON *cell, const char *metric)
{
	const cJSON *run, *busy;
	const char *st;
	double x;

	memset(arm, 0, sizeof(*arm));
	arm->impossible = -1;
	arm->v = malloc(((size_t)cJSON_GetArraySize(results_arr(cell,
	    "runs")) + 1) * sizeof(*arm->v));
	if (arm->v == NULL)
		abort();
	cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
		st = results_str(run, "status", "?");
		busy = cJSON_GetObjectItemCaseSensitive(run, "host_busy");
		arm->busy += cJSON_IsTrue(busy);
		arm->hosted += cJSON_IsBool(busy);
		if (arm->runs++, strcmp(st, "ok") != 0) {
			compare_arm_end(arm, run, st);
			continue;
		}
		arm->ok++;
		x = results_num(run, metric);
		if (!isfinite(x))
			arm->bare++;
		else if (x <= 0 && compare_positive(metric) &&
		    arm->impossible < 0) {
			arm->impossible = (int)arm->runs - 1;
			arm->impossible_value = x;
		} else
			arm->v[arm->n++] = x;
	}
	arm->median = compare_median(arm->v, arm->n);
	return;
}

static void
compare_row_free(struct compare_row *r)
{

	free(r->a.v);
	free(r->b.v);
	return;
}

static unsigned int
compare_bad_runs(const struct compare_arm *arm)
{

	return arm->failed + arm->hung + arm->crashed;
}

/*
 * NEW failed a run, or stalled in more of its runs than BASE did: a
 * stall both builds share is the machine's, one NEW alone has is not.
 */
static bool
compare_is_broken(const struct compare_row *r)
{

	return compare_bad_runs(&r->b) > 0 || (unsigned long)r->b.stalled *
	    r->a.runs > (unsigned long)r->a.stalled * r->b.runs;
}

static bool
compare_wide(const struct compare_arm *arm, double threshold)
{
	struct stats_summary s;

	stats_summarize(arm->v, arm->n, &s);
	return s.median != 0 && fabs((s.q3 - s.q1) / s.median) > threshold;
}

/* The worse tail's quantile of b less a's, on the compared scale. */
static double
compare_tail(const double *la, size_t na, const double *lb, size_t nb,
    bool higher_is_better)
{
	double *s = malloc((na + nb) * sizeof(*s)), q, qa, qb;

	if (s == NULL)
		abort();
	q = higher_is_better ? 1 - COMPARE_TAIL_Q : COMPARE_TAIL_Q;
	memcpy(s, la, na * sizeof(*s));
	qsort(s, na, sizeof(*s), compare_dbl);
	qa = stats_quantile(s, na, q);
	memcpy(s, lb, nb * sizeof(*s));
	qsort(s, nb, sizeof(*s), compare_dbl);
	qb = stats_quantile(s, nb, q);
	free(s);
	return qb - qa;
}

/*
 * Two regimes: the interval of the slow share's change, and the margin it
 * must lie in for the shares to count as equal. A share moved by d moves
 * the mean cost by d (g - 1), g the slow regime over the fast one: the
 * margin is the share change that moves it by the threshold.
 */
static void
compare_shares(struct compare_row *r, const double *logs, size_t n,
    double split, double alpha, double threshold)
{
	double *s = malloc(n * sizeof(*s)), g;
	size_t i, k = 0;

	if (s == NULL)
		abort();
	for (i = 0; i < n; i++)
		if (!(logs[i] > split))
			s[k++] = logs[i];
	for (i = 0; i < n; i++)
		if (logs[i] > split)
			s[k++] = logs[i];
	k = (size_t)(r->t.slow_a + r->t.slow_b);
	g = exp(compare_median(s + n - k, k) - compare_median(s, n - k));
	r->margin = g > 1 ? threshold / (g - 1) : INFINITY;
	stats_share_diff(r->t.slow_a, (unsigned int)r->a.n, r->t.slow_b,
	    (unsigned int)r->b.n, alpha, &r->share_lo, &r->share_hi);
	free(s);
	return;
}

/* The runs on the compared scale: logs, or the values when one is 0. */
static double *
compare_scale(struct compare_row *r)
{
	double *l = malloc((r->a.n + r->b.n) * sizeof(*l));
	size_t i;

	if (l == NULL)
		abort();
	r->difference = false;
	for (i = 0; i < r->a.n; i++)
		r->difference |= !(r->a.v[i] > 0);
	for (i = 0; i < r->b.n; i++)
		r->difference |= !(r->b.v[i] > 0);
	for (i = 0; i < r->a.n; i++)
		l[i] = r->difference ? r->a.v[i] : log(r->a.v[i]);
	for (i = 0; i < r->b.n; i++)
		l[r->a.n + i] = r->difference ? r->b.v[i] : log(r->b.v[i]);
	return l;
}

/* The pooled split into two regimes, on logs; NAN for one regime. */
static double
compare_split(const struct compare_row *r)
{
	size_t n = r->a.n + r->b.n;
	double *both, boundary, split = NAN;

	if (r->difference)
		return NAN;
	if ((both = malloc(n * sizeof(*both))) == NULL)
		abort();
	memcpy(both, r->a.v, r->a.n * sizeof(double));
	memcpy(both + r->a.n, r->b.v, r->b.n * sizeof(double));
	if (stats_bimodal(both, n, &boundary))
		split = log(boundary);
	free(both);
	return split;
}

/*
 * The test of one cell at level alpha: logs or values, the pooled split
 * into two regimes (found on both arms' runs together, as the test's
 * exactness needs), the worse tail, and the runs' spread.
 */
static void
compare_test(struct compare_row *r, const struct compare_opts *o,
    double alpha)
{
	double *l, split;

	r->tested = r->a.n >= 2 && r->b.n >= 2;
	r->spread = r->tail = r->margin = NAN;
	if (!r->tested)
		return;
	l = compare_scale(r);
	split = compare_split(r);
	rank_compare(l, r->a.n, l + r->a.n, r->b.n, split, alpha, &r->t);
	r->split = !isnan(split);
	r->regimes = r->split && ((r->t.slow_a > 0 && r->t.slow_a < r->a.n) ||
	    (r->t.slow_b > 0 && r->t.slow_b < r->b.n));
	if (r->split)
		compare_shares(r, l, r->a.n + r->b.n, split, alpha,
		    o->threshold);
	r->tail = compare_tail(l, r->a.n, l + r->a.n, r->b.n,
	    compare_higher_is_better(o->metric));
	r->wide = compare_wide(&r->a, o->threshold) ||
	    compare_wide(&r->b, o->threshold);
	/* Two regimes: the spread is the gap between them, no MDE. */
	r->spread = r->regimes ? NAN : rank_spread(l, r->a.n, l + r->a.n,
	    r->b.n);
	free(l);
	return;
}

/* The threshold on the compared scale: relative, or of BASE's median. */
static double
compare_band(const struct compare_row *r, const struct compare_opts *o)
{

	return r->difference ? o->threshold * fabs(r->a.median) : o->threshold;
}

/* A shift on the compared scale as a change: relative, or absolute. */
static double
compare_as_change(const struct compare_row *r, double x)
{

	return r->difference ? x : exp(x) - 1;
}

/* The interval as changes: relative for a ratio, absolute otherwise. */
static void
compare_change(const struct compare_row *r, double *lo, double *hi)
{

	*lo = compare_as_change(r, r->t.lo);
	*hi = compare_as_change(r, r->t.hi);
	return;
}

/* A change in words: "+7.0 %", or "+0.012" for a difference. */
static const char *
compare_words(const struct compare_row *r, double change, char *buf,
    size_t len)
{

	if (r->difference)
		snprintf(buf, len, "%+.3g", change);
	else
		snprintf(buf, len, "%+.1f %%", 100 * change);
	return buf;
}

/*
 * The change the verdict catches 80 % of the time at the cell's own level
 * (alpha / M for a cell alone under Holm): its test must pass that level
 * and its estimate the threshold, for these runs' sizes and spread.
 */
static void
compare_mde(struct compare_row *r, const struct compare_opts *o)
{
	double t;

	r->mde = NAN;
	if (!r->tested || isnan(r->spread))
		return;
	t = r->difference ? compare_band(r, o) :
	    compare_higher_is_better(o->metric) ? -log1p(-o->threshold) :
	    log1p(o->threshold);
	r->mde = compare_as_change(r, rank_verdict_mde(r->a.n, r->b.n, r->reach,
	    r->spread, t));
	return;
}

size_t
compare_min_runs(double level)
{
	size_t n = 2;

	while (n < 1000 && !(rank_p_min(n, n) < level))
		n++;
	return n;
}

/*
 * One side ran mostly beside other load and the other mostly alone: a
 * busy machine moves a figure either way (8 CPU hogs beside shared/lfseg
 * at 8 workers on 2 CPUs took its cost from 0.25 to 0.06-0.13 us a
 * dispatch: fewer of its threads ran at once), so the difference could be
 * the machine's. Interleaved runs (ab, pair) share the load and never
 * land here. Runs of a build that predates the mark say neither way.
 */
static bool
compare_busy_apart(const struct compare_row *r)
{

	return r->a.hosted > 0 && r->b.hosted > 0 && fabs((double)r->a.busy /
	    r->a.hosted - (double)r->b.busy / r->b.hosted) >
	    COMPARE_BUSY_APART;
}

/*
 * Rows no timing can speak for: `broken` (NEW failed, or stalled where
 * BASE did not), or `undecided` (nothing, or not all, to compare).
 */
static const char *
compare_unusable(struct compare_row *r, const struct compare_opts *o)
{
	const struct compare_arm *bare = r->b.bare ? &r->b : &r->a;

	if (compare_is_broken(r))
		return "broken";
	if (r->missing)
		snprintf(r->why, sizeof(r->why), "NEW has no such cell");
	else if (r->a.interrupted || r->b.interrupted)
		snprintf(r->why, sizeof(r->why), "%u runs of BASE and %u of NEW "
		    "were interrupted", r->a.interrupted, r->b.interrupted);
	else if (bare->bare > 0)
		snprintf(r->why, sizeof(r->why), "%s: %u ok run%s without %s",
		    bare == &r->b ? "NEW" : "BASE", bare->bare, bare->bare > 1 ?
		    "s" : "", o->metric);
	else if (!r->tested)
		snprintf(r->why, sizeof(r->why), "fewer than two ok runs a side "
		    "(%zu, %zu)", r->a.n, r->b.n);
	else if (compare_busy_apart(r))
		snprintf(r->why, sizeof(r->why), "the machine was busy in %u of "
		    "BASE's %u runs and %u of NEW's %u (host_busy): the sides "
		    "did not run alike; interleave them (ab, pair) or use "
		    "--host quiet", r->a.busy, r->a.hosted, r->b.busy,
		    r->b.hosted);
	return r->why[0] != '\0' ? "undecided" : NULL;
}

/*
 * Two regimes, p below the level: what moved them. The within-regime rank
 * sum, when it drove the test, speaks of the shift inside the regimes; the
 * slow share (above the split: a cost's bad side) tells the direction when
 * it drove the test or moved the way the rank sum did.
 */
static const char *
compare_regime_change(struct compare_row *r, const struct compare_opts *o)
{
	bool hb = compare_higher_is_better(o->metric);
	bool up = r->t.u > (double)r->a.n * (double)r->b.n / 2;
	double sa = (double)r->t.slow_a / (double)r->a.n;
	double sb = (double)r->t.slow_b / (double)r->b.n, within;
	char w[32];

	within = compare_as_change(r, r->t.shift_strat);
	if (r->t.p_strat <= fmin(r->t.p_shift, r->t.p_share) &&
	    fabs(within) > compare_band(r, o)) {
		snprintf(r->why, sizeof(r->why), "within regimes %s",
		    compare_words(r, within, w, sizeof(w)));
		return (within > 0) != hb ? "regressed" : "improved";
	}
	if (sa != sb && (r->t.p_share < r->t.p_shift || (sb > sa) == up)) {
		snprintf(r->why, sizeof(r->why), "slow share %u/%zu -> %u/%zu",
		    r->t.slow_a, r->a.n, r->t.slow_b, r->b.n);
		return (sb > sa) != hb ? "regressed" : "improved";
	}
	return NULL;
}

/*
 * p below the level and the change past the threshold: the regimes moved,
 * the estimate lies past it (its interval may not, wholly: said), or the
 * worse tail moved past it beyond what the center moved, with the test
 * pointing that way: a slow minority, which moves the median little and
 * the mean a lot. Beyond the center, since a tail is noisy: with the tail
 * alone past the threshold, a uniform +3 % in runs spread 3 % came out
 * `regressed` in 11 to 17 % of campaigns, with its excess over the center
 * in 2 to 12 %, all of it the estimate's (scripts/verdict-sim.sh).
 */
static const char *
compare_changed(struct compare_row *r, const struct compare_opts *o)
{
	bool hb = compare_higher_is_better(o->metric);
	bool up = r->t.u > (double)r->a.n * (double)r->b.n / 2;
	double band = compare_band(r, o), est, excess, lo, hi;
	const char *v;
	char w[3][32];

	if (r->regimes && (v = compare_regime_change(r, o)) != NULL)
		return v;
	est = compare_as_change(r, r->t.shift);
	compare_change(r, &lo, &hi);
	if (fabs(est) > band) {
		if (lo <= band && hi >= -band)
			snprintf(r->why, sizeof(r->why), "past ±%g %%: %s [%s, "
			    "%s]", 100 * o->threshold, compare_words(r, est, w[0],
			    32), compare_words(r, lo, w[1], 32), compare_words(r,
			    hi, w[2], 32));
		return (est > 0) != hb ? "regressed" : "improved";
	}
	excess = compare_as_change(r, hb ? r->t.shift - r->tail : r->tail -
	    r->t.shift);
	if (up != hb && excess > band) {
		snprintf(r->why, sizeof(r->why), "a slow minority: the %s "
		    "percentile %s, the center %s", hb ? "10th" : "90th",
		    compare_words(r, compare_as_change(r, r->tail), w[0], 32),
		    compare_words(r, est, w[1], 32));
		return "regressed";
	}
	return NULL;
}

/*
 * Equivalent: the interval inside the threshold, and so the worse tail,
 * and in two regimes the slow share shown equal within its margin and no
 * shift inside the regimes past it. A slow minority moves none of the
 * first; without the others it would pass. What blocks is said in why.
 */
static bool
compare_equivalent(struct compare_row *r, const struct compare_opts *o)
{
	double band = compare_band(r, o), lo, hi, tail, within;
	char w[32];

	compare_change(r, &lo, &hi);
	if (r->t.conf == 0 || lo < -band || hi > band)
		return false;
	tail = compare_as_change(r, r->tail);
	within = compare_as_change(r, r->t.shift_strat);
	if (fabs(tail) > band)
		snprintf(r->why, sizeof(r->why), "inside ±%g %%, but the %s "
		    "percentile moved %s", 100 * o->threshold,
		    compare_higher_is_better(o->metric) ? "10th" : "90th",
		    compare_words(r, tail, w, sizeof(w)));
	else if (r->split && (r->share_lo < -r->margin || r->share_hi >
	    r->margin))
		snprintf(r->why, sizeof(r->why), "inside ±%g %%, but the slow "
		    "share %u/%zu -> %u/%zu is not shown equal within ±%.0f "
		    "points", 100 * o->threshold, r->t.slow_a, r->a.n,
		    r->t.slow_b, r->b.n, 100 * fmin(1, r->margin));
	else if (r->split && fabs(within) > band)
		snprintf(r->why, sizeof(r->why), "inside ±%g %%, but within "
		    "regimes %s", 100 * o->threshold, compare_words(r, within, w,
		    sizeof(w)));
	return r->why[0] == '\0';
}

/*
 * Neither changed nor equivalent: `undecided` when no p of these sizes
 * could pass the cell's own level (known before any run: `ab` refuses),
 * else `inconclusive`, saying what it saw: a change it could not place
 * against the threshold, or the smallest change it would have caught.
 */
static const char *
compare_open(struct compare_row *r, const struct compare_opts *o,
    double level, double p)
{
	char blocked[160], w[3][32];
	double lo, hi;

	snprintf(blocked, sizeof(blocked), "%s%.150s", r->why[0] ? "; " : "",
	    r->why);
	if (!(rank_p_min(r->a.n, r->b.n) < r->reach)) {
		snprintf(r->why, sizeof(r->why), "no p of %zu/%zu runs can go "
		    "below %.2g (the smallest is %.2g): %zu runs a side can",
		    r->a.n, r->b.n, r->reach, rank_p_min(r->a.n, r->b.n),
		    compare_min_runs(r->reach));
		return "undecided";
	}
	compare_change(r, &lo, &hi);
	if (p < level)
		snprintf(r->why, sizeof(r->why), "changed %s [%s, %s], within "
		    "±%g %% or past it%s", compare_words(r, compare_as_change(r,
		    r->t.shift), w[0], 32), compare_words(r, lo, w[1], 32),
		    compare_words(r, hi, w[2], 32), 100 * o->threshold, blocked);
	else if (isfinite(r->mde))
		snprintf(r->why, sizeof(r->why), r->difference ? "could not see "
		    "changes below %.3g%s" : "could not see changes below %.3g "
		    "%%%s", r->difference ? r->mde : 100 * r->mde, blocked);
	else
		snprintf(r->why, sizeof(r->why), "%s", blocked[0] ? blocked + 2 :
		    "");
	return "inconclusive";
}

static const char *
compare_decide(struct compare_row *r, const struct compare_opts *o,
    double level, double p)
{
	const char *v;

	r->why[0] = '\0';
	if ((v = compare_unusable(r, o)) != NULL)
		return v;
	if (p < level && (v = compare_changed(r, o)) != NULL)
		return v;
	r->why[0] = '\0';
	if (compare_equivalent(r, o))
		return "equivalent";
	return compare_open(r, o, level, p);
}
/*
 * Two arms' cells that differ (an arm's own --queue, --payload-ns): the
 * key once, each word that differs as "name=base->new".
 */
static void
compare_label(const char *ka, const char *kb, char *label, size_t len)
{
	size_t used = 0, wa, wb, eq;

	while (*ka != '\0' && *kb != '\0' && used + 1 < len) {
		wa = strcspn(ka, " ");
		wb = strcspn(kb, " ");
		if (wa == wb && strncmp(ka, kb, wa) == 0) {
			used += (size_t)snprintf(label + used, len - used, "%.*s",
			    (int)wa, ka);
		} else {
			eq = strcspn(ka, "=/") < wa ? strcspn(ka, "=/") + 1 : 0;
			used += (size_t)snprintf(label + used, len - used,
			    "%.*s->%.*s", (int)wa, ka, (int)(wb - eq), kb + eq);
		}
		ka += wa + (ka[wa] == ' ');
		kb += wb + (kb[wb] == ' ');
		if (*ka != '\0' && used + 1 < len)
			label[used++] = ' ';
	}
	label[used < len ? used : len - 1] = '\0';
	return;
}

/* Cell i of new against its match in base: by key, or by position. */
static const cJSON *
compare_match(const cJSON *base, const cJSON *cb, int i,
    const struct compare_opts *o, char *label, size_t len)
{
	char kb[256], ka[256];
	const cJSON *ca;

	params_key(cb, true, kb, sizeof(kb));
	if (!o->by_position) {
		snprintf(label, len, "%s", kb);
		return compare_find(base, kb);
	}
	ca = cJSON_GetArrayItem(results_arr(base, "cells"), i);
	if (ca == NULL)
		return NULL;
	params_key(ca, true, ka, sizeof(ka));
	compare_label(ka, kb, label, len);
	return ca;
}

/* Same machine: the same CPU, count, cpuset and topology. */
static int
compare_machine(const cJSON *a, const cJSON *b, char *err, size_t errlen)
{
	static const char *fields[] = { "cpu_model", "cpuset", "topology" };
	const cJSON *ca = results_obj(a, "context");
	const cJSON *cb = results_obj(b, "context");
	size_t i;

	if (results_num(ca, "schema") != results_num(cb, "schema")) {
		snprintf(err, errlen, "the two files have different schemas "
		    "(%.0f, %.0f)", results_num(ca, "schema"),
		    results_num(cb, "schema"));
		return -1;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (strcmp(results_str(ca, fields[i], ""),
		    results_str(cb, fields[i], "")) != 0) {
			snprintf(err, errlen, "the files come from different "
			    "machines (%s: '%s' against '%s'); pass "
			    "--allow-other-machine to compare anyway", fields[i],
			    results_str(ca, fields[i], ""),
			    results_str(cb, fields[i], ""));
			return -1;
		}
	}
	return 0;
}

/* A cell of base and the cell of new it is compared with (NULL: none). */
struct compare_pair {
	const cJSON *a, *b;
	double level;
	char cell[600];
};

struct compare_pairs {
	struct compare_pair *p;
	size_t n, max;
	size_t matched;			/* pairs with a cell of each */
	double level;
};

/* Each cell of new and its match in base, by key or by position. */
static void
compare_pairs_matched(const cJSON *base, const cJSON *new,
    const struct compare_opts *o, struct compare_pairs *pp)
{
	struct compare_pair *p;
	const cJSON *cb;
	int i = 0;

	cJSON_ArrayForEach(cb, results_arr(new, "cells")) {
		p = &pp->p[pp->n];
		p->b = cb;
		p->level = o->levels != NULL ? o->levels[i] : o->alpha;
		if ((p->a = compare_match(base, cb, i++, o, p->cell,
		    sizeof(p->cell))) != NULL)
			pp->n++;
	}
	pp->matched = pp->n;
	return;
}

/*
 * Each cell of base that new lacks (by key, or past new's last cell): a
 * cell that was not measured is not a cell that did not regress.
 */
static void
compare_pairs_missing(const cJSON *base, const cJSON *new,
    const struct compare_opts *o, struct compare_pairs *pp)
{
	int i = 0, have = cJSON_GetArraySize(results_arr(new, "cells"));
	struct compare_pair *p;
	const cJSON *ca;
	char key[256];

	cJSON_ArrayForEach(ca, results_arr(base, "cells")) {
		params_key(ca, true, key, sizeof(key));
		if (o->by_position ? i++ < have : compare_find(new, key) != NULL)
			continue;
		p = &pp->p[pp->n++];
		p->a = ca;
		p->b = NULL;
		p->level = o->alpha;
		snprintf(p->cell, sizeof(p->cell), "%s", key);
	}
	return;
}

/* --beside: a real runtime's cell of new, a model's of base. */
static void
compare_pair_beside(const cJSON *real, const cJSON *model, const char *name,
    void *arg)
{
	struct compare_pairs *pp = arg;
	struct compare_pair *p;
	size_t used;

	if (pp->n == pp->max)
		return;
	p = &pp->p[pp->n++];
	p->a = model;
	p->b = real;
	p->level = pp->level;
	pp->matched++;
	params_key(real, true, p->cell, sizeof(p->cell));
	used = strlen(p->cell);
	snprintf(p->cell + used, sizeof(p->cell) - used, " against %s", name);
	return;
}

/* A figure no run can have (a cost of 0): one line naming it. */
static bool
compare_impossible(const struct compare_row *r, const char *metric,
    char *err, size_t errlen)
{
	const struct compare_arm *arm = r->b.impossible >= 0 ? &r->b : &r->a;

	if (arm->impossible < 0)
		return false;
	snprintf(err, errlen, "%s, %s: run %d's %s is %g, and it cannot be 0 "
	    "or below", arm == &r->b ? "NEW" : "BASE", r->cell, arm->impossible,
	    metric, arm->impossible_value);
	return true;
}

/* The rows of every pair, broken ones first. */
static struct compare_row *
compare_read(const struct compare_pairs *pp, const struct compare_opts *o,
    size_t *known, size_t *okruns)
{
	struct compare_row *rows = calloc(pp->n + 1, sizeof(*rows)), *r, tmp;
	size_t i, k;

	if (rows == NULL)
		abort();
	for (*known = *okruns = 0, i = 0; i < pp->n; i++) {
		r = &rows[i];
		snprintf(r->cell, sizeof(r->cell), "%s", pp->p[i].cell);
		compare_arm_read(&r->a, pp->p[i].a, o->metric);
		compare_arm_read(&r->b, pp->p[i].b, o->metric);
		r->missing = pp->p[i].b == NULL;
		*known += r->a.n + r->b.n + (r->a.impossible >= 0) +
		    (r->b.impossible >= 0);
		*okruns += r->a.ok + r->b.ok;
		r->level = pp->p[i].level;
		compare_test(r, o, r->level);
		for (k = i; compare_is_broken(&rows[k]) && k > 0 &&
		    !compare_is_broken(&rows[k - 1]); k--) {
			tmp = rows[k];
			rows[k] = rows[k - 1];
			rows[k - 1] = tmp;
		}
	}
	return rows;
}

/*
 * The rows of every cell of base, broken ones first; NULL and err when
 * nothing matches, the metric is no run's, or a figure cannot be.
 */
static struct compare_row *
compare_rows(const cJSON *base, const cJSON *new, const struct compare_opts *o,
    size_t *nrows, char *err, size_t errlen)
{
	size_t n = (size_t)cJSON_GetArraySize(results_arr(new,
	    "cells")) * COMPARE_BESIDE_MAX + (size_t)cJSON_GetArraySize(
	    results_arr(base, "cells")) + 1, k, known, okruns;
	struct compare_pairs pp = { calloc(n, sizeof(*pp.p)), 0, n, 0,
	    o->alpha };
	struct compare_row *rows;

	if (pp.p == NULL)
		abort();
	if (o->beside)
		beside_each(new, base, compare_pair_beside, &pp);
	else
		compare_pairs_matched(base, new, o, &pp);
	if (!o->beside && pp.matched > 0)
		compare_pairs_missing(base, new, o, &pp);
	rows = compare_read(&pp, o, &known, &okruns);
	*nrows = pp.n;
	free(pp.p);
	err[0] = '\0';
	for (k = 0; k < *nrows && err[0] == '\0'; k++)
		compare_impossible(&rows[k], o->metric, err, errlen);
	if (err[0] == '\0' && pp.matched > 0 && (known > 0 || okruns == 0 ||
	    o->by_position))
		return rows;
	if (err[0] == '\0')
		snprintf(err, errlen, pp.matched == 0 && o->beside ? "--beside: "
		    "no real runtime of NEW has a cell of a model of its design "
		    "in BASE" : pp.matched == 0 ? "no cell of one file matches a "
		    "cell of the other" : "--metric %s: no matched cell has it in "
		    "an ok run of both files", o->metric);
	for (k = 0; k < *nrows; k++)
		compare_row_free(&rows[k]);
	free(rows);
	return NULL;
}

/* In Holm's family: a cell tested and not broken. */
static bool
compare_in_family(const struct compare_row *r)
{

	return r->tested && !compare_is_broken(r) && !r->missing;
}

/*
 * Holm over the cells tested, or each cell at its own level in a
 * sequential campaign; then every verdict. Returns the family's size.
 */
static size_t
compare_verdicts(struct compare_row *rows, size_t n,
    const struct compare_opts *o)
{
	double *p = calloc(n ? n : 1, sizeof(*p));
	double *adj = calloc(n ? n : 1, sizeof(*adj));
	size_t i, m = 0, family;

	if (p == NULL || adj == NULL)
		abort();
	for (i = 0; i < n; i++)
		if (compare_in_family(&rows[i]))
			p[m++] = rows[i].t.p;
	if (o->levels == NULL)
		stats_holm(p, m, adj);
	else
		memcpy(adj, p, m * sizeof(*p));
	family = m;
	for (i = 0, m = 0; i < n; i++) {
		rows[i].p_adj = NAN;
		if (compare_in_family(&rows[i]))
			rows[i].p_adj = adj[m++];
		rows[i].reach = o->levels != NULL ? rows[i].level : o->alpha /
		    (double)(family ? family : 1);
		compare_mde(&rows[i], o);
		rows[i].verdict = compare_decide(&rows[i], o, rows[i].level,
		    rows[i].p_adj);
	}
	free(p);
	free(adj);
	return family;
}

static void
compare_effect(const struct compare_row *r, char *buf, size_t len)
{
	double lo, hi;

	if (compare_is_broken(r)) {
		snprintf(buf, len, "NEW: %u of %u runs not ok",
		    compare_bad_runs(&r->b) + r->b.stalled, r->b.runs);
		return;
	}
	if (!r->tested) {
		snprintf(buf, len, r->missing ? "no NEW cell" : "too few ok runs");
		return;
	}
	compare_change(r, &lo, &hi);
	if (r->difference)
		snprintf(buf, len, "%+.3g [%+.3g, %+.3g]", r->t.shift, lo, hi);
	else if (r->regimes && isfinite(r->t.shift_strat))
		snprintf(buf, len, "%.3f [%.3f, %.3f] 2 regimes, within %.3f",
		    exp(r->t.shift), lo + 1, hi + 1, exp(r->t.shift_strat));
	else
		snprintf(buf, len, "%.3f [%.3f, %.3f]%s", exp(r->t.shift),
		    lo + 1, hi + 1, r->regimes ? " 2 regimes" : "");
	return;
}

/* "6/6" ok runs with the figure of all, and the slow ones in two regimes. */
static void
compare_runs(const struct compare_row *r, char *buf, size_t len)
{

	if (r->regimes)
		snprintf(buf, len, "%zu/%u %zu/%u slow %u->%u", r->a.n, r->a.runs,
		    r->b.n, r->b.runs, r->t.slow_a, r->t.slow_b);
	else
		snprintf(buf, len, "%zu/%u %zu/%u", r->a.n, r->a.runs, r->b.n,
		    r->b.runs);
	return;
}
/* What people read of a row: the runs, the change and the verdict as text. */
static void
compare_row_people(const struct compare_row *r, cJSON *j)
{
	char buf[400];

	compare_runs(r, buf, sizeof(buf));
	cJSON_AddStringToObject(j, "ok_runs", buf);
	compare_effect(r, buf, sizeof(buf));
	cJSON_AddStringToObject(j, "change", buf);
	if (!isfinite(r->mde))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), r->difference ? "%.3g" : "%.3g %%",
		    r->difference ? r->mde : r->mde * 100);
	cJSON_AddStringToObject(j, "sees", buf);
	snprintf(buf, sizeof(buf), "%s%s%s%s", r->verdict, r->why[0] ? ": " :
	    "", r->why, r->wide && strcmp(r->verdict, "inconclusive") == 0 ?
	    " (spread > threshold)" : "");
	cJSON_AddStringToObject(j, "verdict_text", buf);
	return;
}

static cJSON *
compare_arm_json(const struct compare_arm *arm)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "runs", arm->runs);
	cJSON_AddNumberToObject(j, "ok", arm->ok);
	cJSON_AddNumberToObject(j, "failed", arm->failed);
	cJSON_AddNumberToObject(j, "hung", arm->hung);
	cJSON_AddNumberToObject(j, "crashed", arm->crashed);
	cJSON_AddNumberToObject(j, "stalled", arm->stalled);
	cJSON_AddNumberToObject(j, "interrupted", arm->interrupted);
	cJSON_AddNumberToObject(j, "without_figure", arm->bare);
	cJSON_AddNumberToObject(j, "host_busy", arm->busy);
	cJSON_AddNumberToObject(j, "host_recorded", arm->hosted);
	cJSON_AddStringToObject(j, "errors", arm->errors);
	return j;
}

static cJSON *
compare_row_json(const struct compare_row *r, size_t family,
    const struct compare_opts *o)
{
	cJSON *j = cJSON_CreateObject();
	double lo = NAN, hi = NAN;
	bool ratio = r->tested && !r->difference;

	if (r->tested)
		compare_change(r, &lo, &hi);
	cJSON_AddStringToObject(j, "cell", r->cell);
	cJSON_AddNumberToObject(j, "runs_base", (double)r->a.n);
	cJSON_AddNumberToObject(j, "runs_new", (double)r->b.n);
	cJSON_AddItemToObject(j, "base_runs", compare_arm_json(&r->a));
	cJSON_AddItemToObject(j, "new_runs", compare_arm_json(&r->b));
	cJSON_AddNumberToObject(j, "median_base", r->a.median);
	cJSON_AddNumberToObject(j, "median_new", r->b.median);
	cJSON_AddStringToObject(j, "compared_as", !r->tested ? "-" :
	    r->difference ? "difference" : "ratio");
	cJSON_AddNumberToObject(j, "ratio", ratio ? exp(r->t.shift) : NAN);
	cJSON_AddNumberToObject(j, "ratio_lo", ratio ? lo + 1 : NAN);
	cJSON_AddNumberToObject(j, "ratio_hi", ratio ? hi + 1 : NAN);
	cJSON_AddNumberToObject(j, "difference", r->tested && r->difference ?
	    r->t.shift : NAN);
	cJSON_AddNumberToObject(j, "difference_lo", r->difference ? lo : NAN);
	cJSON_AddNumberToObject(j, "difference_hi", r->difference ? hi : NAN);
	cJSON_AddNumberToObject(j, "interval_conf", r->tested ? r->t.conf : NAN);
	cJSON_AddNumberToObject(j, "p", r->p_adj);
	cJSON_AddNumberToObject(j, "p_unadjusted", r->tested ? r->t.p : NAN);
	cJSON_AddNumberToObject(j, "p_shift", r->tested ? r->t.p_shift : NAN);
	cJSON_AddNumberToObject(j, "p_share", r->tested ? r->t.p_share : NAN);
	cJSON_AddNumberToObject(j, "p_within", r->tested ? r->t.p_strat : NAN);
	cJSON_AddNumberToObject(j, "p_new_higher", r->tested ? r->t.u /
	    ((double)r->a.n * (double)r->b.n) : NAN);
	cJSON_AddStringToObject(j, "correction", o->levels != NULL ?
	    "sequential" : "holm");
	cJSON_AddNumberToObject(j, "family", (double)family);
	cJSON_AddNumberToObject(j, "level", o->levels != NULL ? r->level :
	    o->alpha);
	cJSON_AddBoolToObject(j, "bimodal", r->regimes);
	cJSON_AddNumberToObject(j, "slow_base", r->regimes ? r->t.slow_a : 0);
	cJSON_AddNumberToObject(j, "slow_new", r->regimes ? r->t.slow_b : 0);
	cJSON_AddNumberToObject(j, "within_regimes", ratio && r->regimes ?
	    exp(r->t.shift_strat) : NAN);
	cJSON_AddNumberToObject(j, "slow_share_change_lo", r->tested &&
	    r->split ? r->share_lo : NAN);
	cJSON_AddNumberToObject(j, "slow_share_change_hi", r->tested &&
	    r->split ? r->share_hi : NAN);
	cJSON_AddNumberToObject(j, "slow_share_margin", r->tested && r->split ?
	    fmin(1, r->margin) : NAN);
	cJSON_AddNumberToObject(j, "tail_change", r->tested ?
	    compare_as_change(r, r->tail) : NAN);
	cJSON_AddNumberToObject(j, "smallest_detectable", r->mde);
	cJSON_AddBoolToObject(j, "spread_wider_than_threshold", r->wide);
	cJSON_AddBoolToObject(j, "missing_in_new", r->missing);
	cJSON_AddStringToObject(j, "verdict", r->verdict);
	cJSON_AddStringToObject(j, "why", r->why);
	compare_row_people(r, j);
	return j;
}

static const struct table_col compare_people[] = {
	{ "cell", "cell" }, { "ok_runs", "ok runs base new" },
	{ "median_base", "base" }, { "median_new", "new" },
	{ "change", "NEW/BASE [interval]" }, { "p", "p" },
	{ "sees", "could see" }, { "verdict_text", "verdict" },
};

static const struct table_col compare_program[] = {
	{ "cell", NULL }, { "runs_base", NULL }, { "runs_new", NULL },
	{ "base_runs", NULL }, { "new_runs", NULL }, { "median_base", NULL },
	{ "median_new", NULL }, { "compared_as", NULL }, { "ratio", NULL },
	{ "ratio_lo", NULL }, { "ratio_hi", NULL }, { "difference", NULL },
	{ "difference_lo", NULL }, { "difference_hi", NULL },
	{ "interval_conf", NULL }, { "p", NULL }, { "p_unadjusted", NULL },
	{ "p_shift", NULL }, { "p_share", NULL }, { "p_within", NULL },
	{ "p_new_higher", NULL },
	{ "correction", NULL }, { "family", NULL }, { "level", NULL },
	{ "bimodal", NULL }, { "slow_base", NULL }, { "slow_new", NULL },
	{ "smallest_detectable", NULL },
	{ "spread_wider_than_threshold", NULL }, { "verdict", NULL },
	{ "why", NULL }, { "within_regimes", NULL },
	{ "slow_share_change_lo", NULL }, { "slow_share_change_hi", NULL },
	{ "slow_share_margin", NULL }, { "tail_change", NULL },
	{ "missing_in_new", NULL },
};

/* The line above a table for people: what was compared, and how. */
static void
compare_header(FILE *out, const struct compare_opts *o, size_t family)
{
	char how[96];

	if (o->levels != NULL)
		snprintf(how, sizeof(how), "sequential, each of %zu cells at "
		    "its look's level", family);
	else
		snprintf(how, sizeof(how), "Holm over the %zu cells tested",
		    family);
	fprintf(out, "%s%s%s, NEW/BASE, threshold ±%.0f %%, alpha %.3g, %s\n%s",
	    o->format == TABLE_MARKDOWN ? "**dispatchbench compare**: `" : "",
	    o->metric, o->format == TABLE_MARKDOWN ? "`" : "",
	    o->threshold * 100, o->alpha, how,
	    o->format == TABLE_MARKDOWN ? "\n" : "");
	return;
}

/* Broken cells, named before anything else, with both sides' failures. */
static void
compare_broken(FILE *out, const struct compare_row *rows, size_t n)
{
	const struct compare_arm *a, *b;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!compare_is_broken(&rows[i]))
			continue;
		a = &rows[i].a;
		b = &rows[i].b;
		fprintf(out, "BROKEN %s: NEW %u of %u runs not ok (%u failed, "
		    "%u hung, %u crashed, %u stalled; %s); BASE %u of %u%s%s%s\n",
		    rows[i].cell, compare_bad_runs(b) + b->stalled, b->runs,
		    b->failed, b->hung, b->crashed, b->stalled, b->errors,
		    compare_bad_runs(a) + a->stalled, a->runs, a->errors[0] ?
		    " (" : "", a->errors, a->errors[0] ? ")" : "");
	}
	return;
}

/* Undecided cells: no answer, each with its reason. */
static void
compare_undecided(FILE *out, const struct compare_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].verdict, "undecided") == 0)
			fprintf(out, "UNDECIDED %s: %s\n", rows[i].cell,
			    rows[i].why);
	return;
}

/*
 * With few runs a side, an exact test cannot reach alpha / M: Holm over
 * M cells then flags nothing, and a silent "no regression" would lie.
 */
static void
compare_reach(FILE *out, const struct compare_row *rows, size_t n,
    size_t family, double alpha)
{
	double best = 1;
	size_t i;

	for (i = 0; i < n; i++)
		if (compare_in_family(&rows[i]))
			best = fmin(best, rank_p_min(rows[i].a.n, rows[i].b.n));
	if (family > 0 && !(best < alpha / (double)family))
		fprintf(out, "no cell can pass Holm over %zu cells with these "
		    "runs (smallest attainable p %.2g, not below %.2g): %zu runs "
		    "a side can\n", family, best, alpha / (double)family,
		    compare_min_runs(alpha / (double)family));
	return;
}

/*
 * Runs the machine's other load shared (host_busy): each cell named, or
 * their count past a few; a verdict on them is not the builds' alone.
 */
static const char *
compare_busy_side(const struct compare_arm *arm, char *buf, size_t len)
{

	if (arm->hosted == 0)
		snprintf(buf, len, "(a build that does not record it)");
	else
		snprintf(buf, len, "%u of %u runs", arm->busy, arm->hosted);
	return buf;
}

static void
compare_busy(FILE *out, const struct compare_row *rows, size_t n)
{
	unsigned int cells = 0, runs = 0, busy = 0;
	char w[2][48];
	size_t i;

	for (i = 0; i < n; i++) {
		cells += rows[i].a.busy + rows[i].b.busy > 0;
		runs += rows[i].a.hosted + rows[i].b.hosted;
		busy += rows[i].a.busy + rows[i].b.busy;
	}
	if (cells > COMPARE_BUSY_NAMED) {
		fprintf(out, "the machine was busy (host_busy) in %u of %u runs, "
		    "in %u cells: those verdicts rest on figures other "
		    "processes shared\n", busy, runs, cells);
		return;
	}
	for (i = 0; i < n; i++)
		if (rows[i].a.busy + rows[i].b.busy > 0)
			fprintf(out, "busy machine %s: BASE %s, NEW %s beside "
			    "other load (host_busy): the verdict rests on "
			    "figures other processes shared\n", rows[i].cell,
			    compare_busy_side(&rows[i].a, w[0], sizeof(w[0])),
			    compare_busy_side(&rows[i].b, w[1], sizeof(w[1])));
	return;
}

/* A file a sweep did not finish: its cells may lack runs, or be absent. */
static bool
compare_incomplete(const cJSON *doc)
{

	return cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(doc,
	    "complete"));
}

/* The counts of each verdict, as the summary line says them. */
static void
compare_summary(FILE *out, const struct compare_row *rows, size_t n,
    const struct compare_opts *o, bool incomplete)
{
	unsigned int c[5] = { 0 };
	static const char *const words[5] = { "broken", "regressed",
	    "undecided", "improved", "equivalent" };
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 5; k++)
			c[k] += strcmp(rows[i].verdict, words[k]) == 0;
	fprintf(out, "\n%zu cells compared, %s at alpha %.3g: %s", n,
	    o->levels != NULL ? "sequentially" : "Holm's correction", o->alpha,
	    c[0] || c[1] || c[2] || incomplete ? "" : "no regression");
	if (c[0])
		fprintf(out, "BROKEN %u (NEW runs not ok)%s", c[0], c[1] || c[2] ||
		    incomplete ? ", " : "");
	if (c[1])
		fprintf(out, "REGRESSED %u%s", c[1], c[2] || incomplete ? ", " :
		    "");
	if (c[2] || incomplete)
		fprintf(out, "UNDECIDED %u%s (no answer: not a pass)", c[2],
		    incomplete ? " and a file not complete" : "");
	fprintf(out, c[3] ? ", improved %u\n" : "\n", c[3]);
	return;
}

static void
compare_write(FILE *out, const struct compare_row *rows, size_t n,
    size_t family, const struct compare_opts *o, cJSON *json,
    const char *incomplete)
{
	static const struct table people = { "compare", compare_people,
	    sizeof(compare_people) / sizeof(compare_people[0]) };
	static const struct table program = { "compare", compare_program,
	    sizeof(compare_program) / sizeof(compare_program[0]) };

	if (!table_for_people(o->format)) {
		table_write(out, o->format, &program, json);
		return;
	}
	compare_broken(out, rows, n);
	if (incomplete != NULL)
		fprintf(out, "UNDECIDED: %s is not complete (%s): a sweep that "
		    "did not finish\n", incomplete, incomplete[0] == 'N' ?
		    "interrupted" : "BASE's");
	compare_undecided(out, rows, n);
	compare_header(out, o, family);
	table_write(out, o->format, &people, json);
	compare_summary(out, rows, n, o, incomplete != NULL);
	compare_busy(out, rows, n);
	if (o->levels == NULL)
		compare_reach(out, rows, n, family, o->alpha);
	return;
}

/* The exit's verdict: broken or regressed, else undecided, else none. */
static int
compare_status(const struct compare_row *rows, size_t n, bool incomplete)
{
	int rc = incomplete ? COMPARE_UNDECIDED : COMPARE_NO_REGRESSION;
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(rows[i].verdict, "regressed") == 0 ||
		    strcmp(rows[i].verdict, "broken") == 0)
			return COMPARE_REGRESSED;
		if (strcmp(rows[i].verdict, "undecided") == 0)
			rc = COMPARE_UNDECIDED;
	}
	return rc;
}

int
compare_docs(const cJSON *base, const cJSON *new, const struct compare_opts *o,
    FILE *out, char *err, size_t errlen)
{
	const char *incomplete = compare_incomplete(new) ? "NEW" :
	    compare_incomplete(base) ? "BASE" : NULL;
	struct compare_row *rows;
	cJSON *json = cJSON_CreateArray();
	size_t n, i, family;
	int rc;

	if ((!o->allow_other_machine && compare_machine(base, new, err,
	    errlen) != 0) || (rows = compare_rows(base, new, o, &n, err,
	    errlen)) == NULL) {
		cJSON_Delete(json);
		return COMPARE_BAD_INPUT;
	}
	family = compare_verdicts(rows, n, o);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(json, compare_row_json(&rows[i], family,
		    o));
	rc = compare_status(rows, n, incomplete != NULL);
	compare_write(out, rows, n, family, o, json, incomplete);
	for (i = 0; i < n; i++)
		compare_row_free(&rows[i]);
	if (o->plot_dir != NULL && plot_compare(json, results_obj(new,
	    "context"), o->metric, o->threshold, o->plot_dir, err,
	    errlen) != 0)
		rc = COMPARE_BAD_INPUT;
	cJSON_Delete(json);
	free(rows);
	return rc;
}

const char *
compare_look(const cJSON *base_cell, const cJSON *new_cell,
    const struct compare_opts *o, double level)
{
	struct compare_row *r = calloc(1, sizeof(*r));
	const char *v;

	if (r == NULL)
		abort();
	compare_arm_read(&r->a, base_cell, o->metric);
	compare_arm_read(&r->b, new_cell, o->metric);
	r->level = r->reach = level;
	r->mde = NAN;			/* no one reads it between looks */
	compare_test(r, o, level);
	v = compare_decide(r, o, level, r->tested ? r->t.p : NAN);
	compare_row_free(r);
	free(r);
	/* Undecided or inconclusive at this look: the next one may decide. */
	return strcmp(v, "inconclusive") == 0 || strcmp(v, "undecided") == 0 ?
	    NULL : v;
}
