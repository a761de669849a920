/*
 * judge.c - one cell's verdict of NEW against BASE (see judge.h).
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
 *  - two arms of exact counts (counted.h: instructions_per_dispatch, the
 *    same in every ok run of a side) need no test: equivalent when equal,
 *    else regressed or improved (with --threshold given, equivalent under
 *    it), outside Holm's family; counts that vary are judged as a timed
 *    figure, which the reason says;
 *  - verdicts, in this order: with p below the level, `inconclusive`
 *    when the regimes' share and the runs inside them moved apart (mixed),
 *    `regressed` (`improved`) when the regimes moved (their share, or the
 *    runs inside them), when the estimate lies past the threshold, or when
 *    the worse tail does with the test pointing that way (a slow minority);
 *    `equivalent` only when the interval, the worse tail and, in two
 *    regimes, the slow shares are shown inside the threshold; else
 *    `undecided` when no p could pass, or `inconclusive`, with the
 *    smallest change the verdict would have caught.
 * results/README.md ("How a verdict is reached") works through why.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counted.h"
#include "judge.h"
#include "metric.h"
#include "results.h"
#include "runfields.h"
#include "stats.h"
#include "table.h"

/*
 * The quantile that stands for a cost's worse tail (the 10th for a rate):
 * 9 of 30 runs slower moved the median and the Hodges-Lehmann estimate by
 * under 1 %, this by 39 % (issue 28).
 */
#define JUDGE_TAIL_Q	0.9

static void
judge_add_error(struct judge_arm *arm, const char *status,
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
judge_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double
judge_median(const double *v, size_t n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	if ((s = malloc(n * sizeof(*s))) == NULL)
		abort();
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), judge_dbl);
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
judge_arm_end(struct judge_arm *arm, const cJSON *run, const char *st)
{

	arm->hung += strcmp(st, "hung") == 0;
	arm->crashed += strcmp(st, "crashed") == 0;
	arm->stalled += strcmp(st, "stalled") == 0;
	arm->interrupted += strcmp(st, "interrupted") == 0;
	arm->failed += strcmp(st, "hung") != 0 && strcmp(st, "crashed") != 0 &&
	    strcmp(st, "stalled") != 0 && strcmp(st, "interrupted") != 0;
	judge_add_error(arm, st, results_str(run, RF(error),
	    strcmp(st, "stalled") == 0 ? "no progress in the window" :
	    "no reason given"));
	return;
}

void
judge_arm_read(struct judge_arm *arm, const cJSON *cell, const char *metric,
    const struct judge_place *place)
{
	const cJSON *run, *busy;
	const char *st;
	size_t size;
	double x;

	memset(arm, 0, sizeof(*arm));
	arm->impossible = -1;
	arm->lo = INFINITY;
	arm->hi = -INFINITY;
	size = (size_t)cJSON_GetArraySize(results_arr(cell, "runs")) + 1;
	arm->v = malloc(size * sizeof(*arm->v));
	arm->line = malloc(2 * size * sizeof(*arm->line));
	if (arm->v == NULL || arm->line == NULL)
		abort();
	cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
		st = results_str(run, RF(status), "?");
		if (place != NULL && strcmp(st, "ok") == 0 &&
		    results_side(run, place->boundary) != place->side)
			continue;
		busy = cJSON_GetObjectItemCaseSensitive(run, RF(host_busy));
		arm->busy += cJSON_IsTrue(busy);
		arm->hosted += cJSON_IsBool(busy);
		if (arm->runs++, strcmp(st, "ok") != 0) {
			judge_arm_end(arm, run, st);
			continue;
		}
		arm->ok++;
		x = results_num(run, metric);
		if (!isfinite(x))
			arm->bare++;
		else if (x <= 0 && metric_positive(metric) &&
		    arm->impossible < 0) {
			arm->impossible = (int)arm->runs - 1;
			arm->impossible_value = x;
		} else {
			arm->line[2 * arm->n] = results_num(run,
			    RF(line_round_trip_ns_before));
			arm->line[2 * arm->n + 1] = results_num(run,
			    RF(line_round_trip_ns_after));
			arm->v[arm->n++] = x;
			arm->lo = fmin(arm->lo, x);
			arm->hi = fmax(arm->hi, x);
		}
	}
	arm->median = judge_median(arm->v, arm->n);
	return;
}

void
judge_row_free(struct judge_row *r)
{

	free(r->a.v);
	free(r->b.v);
	free(r->a.line);
	free(r->b.line);
	return;
}

unsigned int
judge_bad_runs(const struct judge_arm *arm)
{

	return arm->failed + arm->hung + arm->crashed;
}

bool
judge_is_broken(const struct judge_row *r)
{

	return judge_bad_runs(&r->b) > 0 || (unsigned long)r->b.stalled *
	    r->a.runs > (unsigned long)r->a.stalled * r->b.runs;
}

static bool
judge_wide(const double *v, size_t n, double threshold)
{
	struct stats_summary s;

	stats_summarize(v, n, &s);
	return s.median != 0 && fabs((s.q3 - s.q1) / s.median) > threshold;
}

/* The worse tail's quantile of b less a's, on the compared scale. */
static double
judge_tail(const double *la, size_t na, const double *lb, size_t nb,
    bool higher_is_better)
{
	double *s = malloc((na + nb) * sizeof(*s)), q, qa, qb;

	if (s == NULL)
		abort();
	q = higher_is_better ? 1 - JUDGE_TAIL_Q : JUDGE_TAIL_Q;
	memcpy(s, la, na * sizeof(*s));
	qsort(s, na, sizeof(*s), judge_dbl);
	qa = stats_quantile(s, na, q);
	memcpy(s, lb, nb * sizeof(*s));
	qsort(s, nb, sizeof(*s), judge_dbl);
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
judge_shares(struct judge_row *r, const double *logs, size_t n,
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
	g = exp(judge_median(s + n - k, k) - judge_median(s, n - k));
	r->margin = g > 1 ? threshold / (g - 1) : INFINITY;
	stats_share_diff(r->t.slow_a, (unsigned int)r->a.n, r->t.slow_b,
	    (unsigned int)r->b.n, alpha, &r->share_lo, &r->share_hi);
	free(s);
	return;
}

/* The runs on the compared scale: logs, or the values when one is 0. */
static double *
judge_scale(struct judge_row *r)
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
judge_split(const struct judge_row *r)
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

/* The runs of l on one side (judge_placed), into g; how many. */
static size_t
judge_on(const double *l, const int *side, size_t n, int which, double *g)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (side[i] == which)
			g[k++] = l[i];
	return k;
}

/*
 * Each run's placement of the CPUs into side (results_side_of: near, far,
 * or moved between its two probes), when every run of both arms was
 * probed, the probes pooled fall into two placements, and the medians of
 * the runs near and far lie RESULTS_PLACED_APART or more apart: the host
 * moved the figure, and dealt each side's runs to the placements its own
 * way. False otherwise, where one test of all runs says the same.
 */
static bool
judge_placed(const struct judge_row *r, const double *l, int *side)
{
	size_t n = r->a.n + r->b.n, i, near, far;
	double *line = malloc((2 * n + 1) * sizeof(*line)), *g, boundary;
	bool two;

	g = malloc((n + 1) * sizeof(*g));
	if (line == NULL || g == NULL)
		abort();
	memcpy(line, r->a.line, 2 * r->a.n * sizeof(*line));
	memcpy(line + 2 * r->a.n, r->b.line, 2 * r->b.n * sizeof(*line));
	for (two = true, i = 0; i < 2 * n; i++)
		two &= isfinite(line[i]) != 0;
	two = two && results_probes_split(line, 2 * n, &boundary);
	for (i = 0; two && i < n; i++)
		side[i] = results_side_of(line[2 * i], line[2 * i + 1],
		    boundary);
	if (two) {
		near = judge_on(l, side, n, RESULTS_NEAR, g);
		far = judge_on(l, side, n, RESULTS_FAR, g + near);
		two = near > 0 && far > 0 && fabs(judge_median(g, near) -
		    judge_median(g + near, far)) >= log(RESULTS_PLACED_APART);
	}
	free(line);
	free(g);
	return two;
}

/*
 * The runs of a placed row aligned: each less the pooled median of its
 * placement, so the tail and the spread are the build's, not the host's.
 */
static void
judge_align(double *l, const int *side, size_t n)
{
	double *g = malloc((n + 1) * sizeof(*g)), m[RESULTS_SIDES];
	size_t i;
	int k;

	if (g == NULL)
		abort();
	for (k = 0; k < RESULTS_SIDES; k++)
		m[k] = judge_median(g, judge_on(l, side, n, k, g));
	for (i = 0; i < n; i++)
		l[i] -= m[side[i]];
	free(g);
	return;
}

/* A placed row: the test within placements, the tail and width aligned. */
static void
judge_test_placed(struct judge_row *r, const struct compare_opts *o,
    double alpha, double *l, const int *side)
{
	size_t n = r->a.n + r->b.n, i;
	double *w = malloc((n + 1) * sizeof(*w));

	if (w == NULL)
		abort();
	rank_compare_strata(l, side, r->a.n, l + r->a.n, side + r->a.n, r->b.n,
	    RESULTS_SIDES, alpha, &r->t);
	r->placed = true;
	r->p_min = rank_p_min_strata(side, r->a.n, side + r->a.n, r->b.n,
	    RESULTS_SIDES);
	for (i = 0; i < n; i++)
		r->on[side[i]][i >= r->a.n]++;
	judge_align(l, side, n);
	for (i = 0; i < n; i++)
		w[i] = exp(l[i]);
	r->wide = judge_wide(w, r->a.n, o->threshold) ||
	    judge_wide(w + r->a.n, r->b.n, o->threshold);
	free(w);
	return;
}

/* A row of one placement, or of runs not probed: the pooled runs' test. */
static void
judge_test_pooled(struct judge_row *r, const struct compare_opts *o,
    double alpha, const double *l)
{
	double split = r->exact ? NAN : judge_split(r);

	rank_compare(l, r->a.n, l + r->a.n, r->b.n, split, alpha, &r->t);
	r->p_min = rank_p_min(r->a.n, r->b.n);
	r->split = !isnan(split);
	r->regimes = r->split && ((r->t.slow_a > 0 && r->t.slow_a < r->a.n) ||
	    (r->t.slow_b > 0 && r->t.slow_b < r->b.n));
	if (r->split)
		judge_shares(r, l, r->a.n + r->b.n, split, alpha,
		    o->threshold);
	r->wide = judge_wide(r->a.v, r->a.n, o->threshold) ||
	    judge_wide(r->b.v, r->b.n, o->threshold);
	return;
}

void
judge_test(struct judge_row *r, const struct compare_opts *o,
    double alpha)
{
	int *side;
	double *l;

	r->tested = r->a.n >= 2 && r->b.n >= 2;
	r->exact = counted_metric(o->metric) && counted_exact(r->a.v, r->a.n) &&
	    counted_exact(r->b.v, r->b.n);
	r->spread = r->tail = r->margin = NAN;
	r->placed = false;
	memset(r->on, 0, sizeof(r->on));
	if (!r->tested)
		return;
	l = judge_scale(r);
	if ((side = malloc((r->a.n + r->b.n) * sizeof(*side))) == NULL)
		abort();
	if (!r->exact && !r->difference && judge_placed(r, l, side))
		judge_test_placed(r, o, alpha, l, side);
	else
		judge_test_pooled(r, o, alpha, l);
	/* The estimate and its interval are the counts' ratio; no p is. */
	if (r->exact)
		r->t.p = r->t.p_shift = NAN;
	r->tail = judge_tail(l, r->a.n, l + r->a.n, r->b.n,
	    metric_higher_is_better(o->metric));
	/*
	 * Two regimes: the spread is the gap between them, no MDE; nor
	 * within placements, whose power no one-sample simulation has.
	 */
	r->spread = r->regimes || r->placed ? NAN : rank_spread(l, r->a.n,
	    l + r->a.n, r->b.n);
	free(side);
	free(l);
	return;
}

/* The threshold on the compared scale: relative, or of BASE's median. */
static double
judge_band(const struct judge_row *r, const struct compare_opts *o)
{

	return r->difference ? o->threshold * fabs(r->a.median) : o->threshold;
}

double
judge_as_change(const struct judge_row *r, double x)
{

	return r->difference ? x : exp(x) - 1;
}

void
judge_change(const struct judge_row *r, double *lo, double *hi)
{

	*lo = judge_as_change(r, r->t.lo);
	*hi = judge_as_change(r, r->t.hi);
	return;
}

/* A change in words: "+7.0 %", or "+0.012" for a difference. */
static const char *
judge_words(const struct judge_row *r, double change, char *buf,
    size_t len)
{

	if (r->difference)
		snprintf(buf, len, "%+.3g", change);
	else
		snprintf(buf, len, "%+.1f %%", 100 * change);
	return buf;
}

void
judge_mde(struct judge_row *r, const struct compare_opts *o)
{
	double t;

	r->mde = NAN;
	if (r->exact) {
		/* Every instruction seen: any change, or past --threshold. */
		r->mde = o->threshold_given ? o->threshold : 0;
		return;
	}
	if (!r->tested || isnan(r->spread))
		return;
	t = r->difference ? judge_band(r, o) :
	    metric_higher_is_better(o->metric) ? -log1p(-o->threshold) :
	    log1p(o->threshold);
	r->mde = judge_as_change(r, rank_verdict_mde(r->a.n, r->b.n, r->reach,
	    r->spread, t));
	return;
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
judge_busy_apart(const struct judge_row *r)
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
judge_unusable(struct judge_row *r, const struct compare_opts *o)
{
	const struct judge_arm *bare = r->b.bare ? &r->b : &r->a;

	if (judge_is_broken(r))
		return "broken";
	if (r->missing)
		snprintf(r->why, sizeof(r->why), "NEW has no such cell");
	else if (r->a.interrupted || r->b.interrupted)
		snprintf(r->why, sizeof(r->why), "interrupted: %u of BASE's "
		    "runs and %u of NEW's", r->a.interrupted, r->b.interrupted);
	else if (bare->bare > 0)
		snprintf(r->why, sizeof(r->why), "%s: %u ok run%s without %s",
		    bare == &r->b ? "NEW" : "BASE", bare->bare, bare->bare > 1 ?
		    "s" : "", o->metric);
	else if (!r->tested)
		snprintf(r->why, sizeof(r->why), "fewer than two ok runs a side "
		    "(%zu, %zu)", r->a.n, r->b.n);
	else if (!r->exact && judge_busy_apart(r))
		snprintf(r->why, sizeof(r->why), "the machine was busy in %u of "
		    "BASE's %u runs and %u of NEW's %u (host_busy): the sides "
		    "did not run alike; interleave them (ab, pair) or use "
		    "--host quiet", r->a.busy, r->a.hosted, r->b.busy,
		    r->b.hosted);
	return r->why[0] != '\0' ? "undecided" : NULL;
}

/* The mean of NEW's runs over BASE's, less 1: what both parts add to. */
static double
judge_mean_change(const struct judge_row *r)
{
	double sa = 0, sb = 0;
	size_t i;

	for (i = 0; i < r->a.n; i++)
		sa += r->a.v[i];
	for (i = 0; i < r->b.n; i++)
		sb += r->b.v[i];
	return sb / (double)r->b.n / (sa / (double)r->a.n) - 1;
}

/*
 * Two regimes whose parts moved apart, each past what a verdict counts:
 * the runs inside them past the threshold one way, the slow share past
 * its margin the other. The fast regime 10 % faster while the slow (2x)
 * share went 4/20 -> 10/20 moved the mean +21 % and the median +44 %, and
 * was `improved` by the shift within (issue 44: 91-100 % of simulated
 * campaigns). Such runs cross: no shift describes them, and every summary
 * that would pick a side weighs the parts its own way. The rank sum and
 * its Hodges-Lehmann shift are the share of pairs where NEW is slower,
 * which the fast majority carries (-7 % there, the mean up), so a verdict
 * by them gives the direction of one part again; the mean, which the two
 * parts add up to, has no exact test among these. So `inconclusive`,
 * naming both parts and the mean: the test said the cell changed, not
 * which way. Holm is untouched: this only holds back a verdict the
 * family's p allowed, never makes one.
 */
static bool
judge_mixed(struct judge_row *r, const struct compare_opts *o,
    double within)
{
	double d = (double)r->t.slow_b / (double)r->b.n -
	    (double)r->t.slow_a / (double)r->a.n;
	char w[2][32];

	if (!(fabs(within) > judge_band(r, o)) || !(fabs(d) > r->margin) ||
	    (within > 0) == (d > 0))
		return false;
	r->mixed = true;
	snprintf(r->why, sizeof(r->why), "mixed: within regimes %s, slow share "
	    "%u/%zu -> %u/%zu, mean %s", judge_words(r, within, w[0], 32),
	    r->t.slow_a, r->a.n, r->t.slow_b, r->b.n, judge_words(r,
	    judge_mean_change(r), w[1], 32));
	return true;
}

/*
 * Two regimes, p below the level: what moved them. Parts that moved apart
 * are mixed (judge_mixed); else the within-regime rank sum, when it drove
 * the test, speaks of the shift inside the regimes, and the slow share
 * (above the split: a cost's bad side) tells the direction when it drove
 * the test or moved the way the rank sum did.
 */
static const char *
judge_regime_change(struct judge_row *r, const struct compare_opts *o)
{
	bool hb = metric_higher_is_better(o->metric);
	bool up = r->t.u > (double)r->a.n * (double)r->b.n / 2;
	double sa = (double)r->t.slow_a / (double)r->a.n;
	double sb = (double)r->t.slow_b / (double)r->b.n, within;
	char w[32];

	within = judge_as_change(r, r->t.shift_strat);
	if (judge_mixed(r, o, within))
		return "inconclusive";
	if (r->t.p_strat <= fmin(r->t.p_shift, r->t.p_share) &&
	    fabs(within) > judge_band(r, o)) {
		snprintf(r->why, sizeof(r->why), "within regimes %s",
		    judge_words(r, within, w, sizeof(w)));
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
judge_changed(struct judge_row *r, const struct compare_opts *o)
{
	bool hb = metric_higher_is_better(o->metric);
	bool up = r->t.u > (double)r->a.n * (double)r->b.n / 2;
	double band = judge_band(r, o), est, excess, lo, hi;
	const char *v;
	char w[3][32];

	if (r->regimes && (v = judge_regime_change(r, o)) != NULL)
		return v;
	est = judge_as_change(r, r->t.shift);
	judge_change(r, &lo, &hi);
	if (fabs(est) > band) {
		if (lo <= band && hi >= -band)
			snprintf(r->why, sizeof(r->why), "past ±%g %%: %s [%s, "
			    "%s]", 100 * o->threshold, judge_words(r, est, w[0],
			    32), judge_words(r, lo, w[1], 32), judge_words(r,
			    hi, w[2], 32));
		return (est > 0) != hb ? "regressed" : "improved";
	}
	excess = judge_as_change(r, hb ? r->t.shift - r->tail : r->tail -
	    r->t.shift);
	if (up != hb && excess > band) {
		snprintf(r->why, sizeof(r->why), "a slow minority: the %s "
		    "percentile %s, the center %s", hb ? "10th" : "90th",
		    judge_words(r, judge_as_change(r, r->tail), w[0], 32),
		    judge_words(r, est, w[1], 32));
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
judge_equivalent(struct judge_row *r, const struct compare_opts *o)
{
	double band = judge_band(r, o), lo, hi, tail, within;
	char w[32];

	judge_change(r, &lo, &hi);
	if (r->t.conf == 0 || lo < -band || hi > band)
		return false;
	tail = judge_as_change(r, r->tail);
	within = judge_as_change(r, r->t.shift_strat);
	if (fabs(tail) > band)
		snprintf(r->why, sizeof(r->why), "inside ±%g %%, but the %s "
		    "percentile moved %s", 100 * o->threshold,
		    metric_higher_is_better(o->metric) ? "10th" : "90th",
		    judge_words(r, tail, w, sizeof(w)));
	else if (r->split && (r->share_lo < -r->margin || r->share_hi >
	    r->margin))
		snprintf(r->why, sizeof(r->why), "inside ±%g %%, but the slow "
		    "share %u/%zu -> %u/%zu is not shown equal within ±%.0f "
		    "points", 100 * o->threshold, r->t.slow_a, r->a.n,
		    r->t.slow_b, r->b.n, 100 * fmin(1, r->margin));
	else if (r->split && fabs(within) > band)
		snprintf(r->why, sizeof(r->why), "inside ±%g %%, but within "
		    "regimes %s", 100 * o->threshold, judge_words(r, within, w,
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
judge_open(struct judge_row *r, const struct compare_opts *o,
    double level, double p)
{
	char blocked[160], w[3][32];
	double lo, hi;

	snprintf(blocked, sizeof(blocked), "%s%.150s", r->why[0] ? "; " : "",
	    r->why);
	if (!(r->p_min < r->reach)) {
		snprintf(r->why, sizeof(r->why), "no p of %zu/%zu runs%s can "
		    "go below %.2g (the smallest is %.2g): %zu runs a side%s "
		    "can", r->a.n, r->b.n, r->placed ? " within placements" : "",
		    r->reach, r->p_min, compare_min_runs(r->reach), r->placed ?
		    " on each placement" : "");
		return "undecided";
	}
	judge_change(r, &lo, &hi);
	if (p < level)
		snprintf(r->why, sizeof(r->why), "changed %s [%s, %s], within "
		    "±%g %% or past it%s", judge_words(r, judge_as_change(r,
		    r->t.shift), w[0], 32), judge_words(r, lo, w[1], 32),
		    judge_words(r, hi, w[2], 32), 100 * o->threshold, blocked);
	else if (isfinite(r->mde))
		snprintf(r->why, sizeof(r->why), "could not see changes below "
		    "%s%s%s", table_sig3(r->difference ? r->mde : 100 * r->mde,
		    w[0], sizeof(w[0])), r->difference ? "" : " %", blocked);
	else if (r->placed && !blocked[0])
		snprintf(r->why, sizeof(r->why), "within placements %s [%s, "
		    "%s]: not shown either way", judge_words(r, judge_as_change(r,
		    r->t.shift), w[0], 32), judge_words(r, lo, w[1], 32),
		    judge_words(r, hi, w[2], 32));
	else if (r->regimes && !blocked[0])
		/* Two regimes have no MDE: what moved, which p did not place. */
		snprintf(r->why, sizeof(r->why), "slow share %u/%zu -> %u/%zu, "
		    "within regimes %s: not shown either way", r->t.slow_a,
		    r->a.n, r->t.slow_b, r->b.n, judge_words(r, judge_as_change(r,
		    r->t.shift_strat), w[0], 32));
	else
		snprintf(r->why, sizeof(r->why), "%s", blocked[0] ? blocked + 2 :
		    "");
	return "inconclusive";
}

/* A row the runs' test judges: changed, equivalent, or neither. */
static const char *
judge_timed(struct judge_row *r, const struct compare_opts *o,
    double level, double p)
{
	const char *v;

	if (p < level && (v = judge_changed(r, o)) != NULL)
		return v;
	r->why[0] = '\0';
	if (judge_equivalent(r, o))
		return "equivalent";
	return judge_open(r, o, level, p);
}

const char *
judge_decide(struct judge_row *r, const struct compare_opts *o,
    double level, double p)
{
	const char *v;

	r->why[0] = '\0';
	r->mixed = false;
	if ((v = judge_unusable(r, o)) != NULL)
		return v;
	if (r->exact)
		return counted_verdict(r->a.median, r->b.median,
		    o->threshold_given ? o->threshold : 0, r->why,
		    sizeof(r->why));
	v = judge_timed(r, o, level, p);
	if (counted_metric(o->metric))
		counted_as_timed(r->a.v, r->a.n, r->b.v, r->b.n, r->why,
		    sizeof(r->why));
	return v;
}

/*
 * An inconclusive row that saw a rise (a fall of a rate) it could not
 * place: "no regression" over it would read as a pass. Each measure asks
 * for evidence at the family's level, or an A/A sweep of many cells would
 * raise one in most campaigns: the cell's p below its level (Holm's) and
 * its interval's worse end past half the threshold (+4.8 % [+1.9, +7.6]
 * at p 0.003 under 5 %); the slow share's interval at the cell's own
 * level (alpha / M) past half its margin (half of NEW's runs 2x, the mean
 * +41 % at p 0.074); or, p below the level, regimes whose parts moved
 * apart, one of them the worse way. A worse tail alone has no test here:
 * an A/A moves it past the threshold by chance, the more cells the surer.
 */
bool
judge_unplaced(const struct judge_row *r, const struct compare_opts *o)
{
	int worse = metric_higher_is_better(o->metric) ? -1 : 1;
	double lo, hi;

	if (strcmp(r->verdict, "inconclusive") != 0 || !r->tested)
		return false;
	if (r->mixed)
		return true;
	judge_change(r, &lo, &hi);
	if (r->p_adj < r->level && (worse > 0 ? lo : -hi) > judge_band(r,
	    o) / 2)
		return true;
	if (!r->split)
		return false;
	stats_share_diff(r->t.slow_a, (unsigned int)r->a.n, r->t.slow_b,
	    (unsigned int)r->b.n, r->reach, &lo, &hi);
	return (worse > 0 ? lo : -hi) > r->margin / 2;
}

bool
judge_in_family(const struct judge_row *r)
{

	return r->tested && !r->exact && !judge_is_broken(r) && !r->missing;
}
