/*
 * paired.c - see paired.h.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paired.h"
#include "rank.h"
#include "stats.h"

#define PAIRED_EPS	1e-7	/* R's slack for probabilities that tie */

static int
paired_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double
paired_median(double *v, size_t n)
{

	qsort(v, n, sizeof(*v), paired_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The number of sign patterns giving each sum of weights: the product of
 * (1 + q^w), one factor per unit. Weights are doubled mid-ranks, so ties
 * count exactly; with none they are 2, 4, ..., 2n.
 */
static double *
paired_counts(const unsigned int *w, size_t n, size_t *top)
{
	double *c;
	size_t i, s;

	for (*top = 0, i = 0; i < n; i++)
		*top += w[i];
	c = rank_alloc(*top + 1, sizeof(*c));
	c[0] = 1;
	for (i = 0; i < n; i++)
		for (s = *top; s >= w[i] && s > 0; s--)
			c[s] += c[s - w[i]];
	return c;
}

/* Doubled mid-ranks of |d|, over the n values given. */
static void
paired_ranks(const double *d, size_t n, unsigned int *w)
{
	size_t i, j, below, same;

	for (i = 0; i < n; i++) {
		for (below = same = j = 0; j < n; j++) {
			below += fabs(d[j]) < fabs(d[i]);
			same += fabs(d[j]) == fabs(d[i]);
		}
		w[i] = (unsigned int)(2 * below + same + 1);
	}
	return;
}

/* R's qsignrank(p, n): the smallest q with P(V <= q) >= p, untied. */
static size_t
paired_quantile(double p, size_t n, double *below)
{
	unsigned int *w = rank_alloc(n, sizeof(*w));
	double *c, total = ldexp(1, (int)n), acc = 0;
	size_t i, top, q;

	for (i = 0; i < n; i++)
		w[i] = (unsigned int)(i + 1);
	c = paired_counts(w, n, &top);
	p -= 10 * DBL_EPSILON;
	for (q = 0; q <= top; q++) {
		if ((acc + c[q]) / total >= p)
			break;
		acc += c[q];
	}
	*below = acc / total;		/* P(V <= q - 1) */
	free(c);
	free(w);
	return q;
}

/* The Walsh averages' median and R's interval: [W(k), W(N + 1 - k)]. */
static void
paired_walsh(const double *d, size_t n, double alpha, struct paired_test *r)
{
	size_t nw = n * (n + 1) / 2, i, j, k = 0;
	double *w = rank_alloc(nw, sizeof(*w)), below;

	for (i = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[k++] = (d[i] + d[j]) / 2;
	r->shift = paired_median(w, nw);
	k = paired_quantile(alpha / 2, n, &below);
	if (k == 0) {
		r->lo = w[0];
		r->hi = w[nw - 1];
		r->conf = 0;
	} else {
		r->lo = w[k - 1];
		r->hi = w[nw - k];
		r->conf = 1 - 2 * below;
	}
	free(w);
	return;
}

void
paired_signed_rank(const double *d, size_t n, double alpha,
    struct paired_test *r)
{
	double *x = rank_alloc(n, sizeof(*x)), *c, total, e, obs, tail = 0;
	unsigned int *w = rank_alloc(n, sizeof(*w));
	size_t i, m = 0, top, s, v2 = 0;

	for (i = 0; i < n; i++)
		if (d[i] != 0)
			x[m++] = d[i];
	*r = (struct paired_test){ .n = m, .p = 1, .shift = NAN, .lo = NAN,
	    .hi = NAN };
	if (m > 0) {
		paired_ranks(x, m, w);
		for (i = 0; i < m; i++)
			v2 += x[i] > 0 ? w[i] : 0;
		c = paired_counts(w, m, &top);
		total = ldexp(1, (int)m);
		e = (double)top / 2;
		obs = fabs((double)v2 - e);
		for (s = 0; s <= top; s++)
			if (fabs((double)s - e) >= obs - PAIRED_EPS)
				tail += c[s];
		r->v = (double)v2 / 2;
		r->p = fmin(1, tail / total);
		free(c);
		paired_walsh(x, m, alpha, r);
	}
	free(w);
	free(x);
	return;
}

double
paired_crossover(const double *g_ab, size_t nab, const double *g_ba,
    size_t nba)
{
	struct rank_test t;

	rank_compare(g_ba, nba, g_ab, nab, NAN, 0.05, &t);
	return t.shift / 2;
}

/*
 * The smallest V at which the exact two-sided test at level rejects
 * upward, 2 P(V >= v) < level, over n untied units; past the largest V
 * when none does.
 */
static size_t
paired_critical(size_t n, double level, size_t *top)
{
	unsigned int *w = rank_alloc(n, sizeof(*w));
	double *c, total = ldexp(1, (int)n), tail = 0;
	size_t i, v;

	for (i = 0; i < n; i++)
		w[i] = (unsigned int)(i + 1);
	c = paired_counts(w, n, top);
	for (v = *top + 1; v > 0 && 2 * (tail + c[v - 1]) / total < level; v--)
		tail += c[v - 1];
	free(c);
	free(w);
	return v;
}

/* The draws behind paired_verdict_mde for one (n, critical V), kept. */
static struct {
	size_t n, vc;
	double *need, *zero;		/* PAIRED_POWER_DRAWS each */
} paired_memo;

#define PAIRED_POWER_DRAWS	10000

/*
 * V is the number of positive Walsh averages (Tukey): units shifted by d
 * reject once d passes minus the vc-th largest average, and their median
 * passes t once d passes t minus the median average. Each draw of n
 * standard normal units keeps those two.
 */
static void
paired_draws(size_t n, size_t vc)
{
	size_t nw = n * (n + 1) / 2, k, i, j, r;
	double *d = rank_alloc(n, sizeof(*d)), *w = rank_alloc(nw,
	    sizeof(*w));
	uint64_t seed = 0x853c49e6748fea9bu;

	free(paired_memo.need);
	free(paired_memo.zero);
	paired_memo.need = rank_alloc(PAIRED_POWER_DRAWS, sizeof(double));
	paired_memo.zero = rank_alloc(PAIRED_POWER_DRAWS, sizeof(double));
	for (r = 0; r < PAIRED_POWER_DRAWS; r++) {
		for (i = 0; i < n; i++)
			d[i] = stats_gauss(&seed);
		for (k = 0, i = 0; i < n; i++)
			for (j = i; j < n; j++)
				w[k++] = (d[i] + d[j]) / 2;
		paired_memo.need[r] = -stats_select(w, nw, nw - vc);
		paired_memo.zero[r] = -stats_select_median(w, nw);
	}
	paired_memo.n = n;
	paired_memo.vc = vc;
	free(d);
	free(w);
	return;
}

/*
 * Past PAIRED_DRAWN_MAX units, where drawing every Walsh average costs
 * too much: the estimate is near normal, of sd s (efficiency 3/pi), the
 * test rejects once it passes z s, the verdict needs that and t, 80 % of
 * the time. At 32 units it gives 0.507 sigma with no threshold, the
 * draws 0.523.
 */
#define PAIRED_DRAWN_MAX	50

double
paired_verdict_mde(size_t n, double level, double sigma, double t)
{
	size_t top = 0, vc;
	double s;

	if (n == 0 || !(ldexp(2, -(int)fmin((double)n, 1000)) < level))
		return INFINITY;
	if (n > PAIRED_DRAWN_MAX) {
		s = sigma * sqrt(M_PI / (3 * (double)n));
		return fmax(stats_norm_quantile(1 - level / 2) * s, t) +
		    stats_norm_quantile(0.8) * s;
	}
	if ((vc = paired_critical(n, level, &top)) > top)
		return INFINITY;
	if (paired_memo.n != n || paired_memo.vc != vc)
		paired_draws(n, vc);
	return stats_power80(paired_memo.need, paired_memo.zero,
	    PAIRED_POWER_DRAWS, sigma, t);
}

double
paired_mde_factor(size_t n, double alpha)
{

	return paired_verdict_mde(n, alpha, 1, 0);
}

size_t
paired_min_units(double alpha)
{
	size_t n = 1;

	while (n < 60 && ldexp(2, -(int)n) >= alpha)
		n++;
	return n;
}

double
paired_spread(const double *d, size_t n)
{
	/* Croux and Rousseeuw (1992), checked here by simulation. */
	static const double unbias[] = { 1, 1, 1.196, 1.495, 1.363, 1.206,
	    1.200, 1.140, 1.129, 1.107 };
	double *r = rank_alloc(n, sizeof(*r)), med;
	size_t i;

	memcpy(r, d, n * sizeof(*d));
	med = paired_median(r, n);
	for (i = 0; i < n; i++)
		r[i] = fabs(d[i] - med);
	med = 1.4826 * paired_median(r, n);
	free(r);
	return med * (n < 10 ? unbias[n] : (double)n / ((double)n - 0.8));
}

/* Changes in per cent, for the reasons given. */
#define PAIRED_PCT(x)	(100 * (exp(x) - 1))

/*
 * The units' tail on the side that is worse (worse: +1 when a higher
 * figure is, a cost): the 90th percentile of the changes, or the 10th.
 */
static double
paired_tail(const double *d, size_t n, int worse)
{
	double *s = rank_alloc(n, sizeof(*s)), q;

	memcpy(s, d, n * sizeof(*d));
	qsort(s, n, sizeof(*s), paired_cmp);
	q = n > 0 ? stats_quantile(s, n, worse > 0 ? 0.9 : 0.1) : NAN;
	free(s);
	return q;
}

/*
 * B broken by ends e: a process that failed as a whole, a window of B
 * that failed, or B stalled in `stalls` windows more than A. The verdict
 * asks for one stall more, the rule that stops a campaign early for
 * PAIRED_STALLS_SETTLE: one rule, so a campaign is never stopped on what
 * its verdict would not call broken.
 */
static bool
paired_broke(const struct paired_ends *e, unsigned int stalls)
{

	return e->crashed || e->failed[1] > 0 || e->stalled[1] >=
	    e->stalled[0] + stalls;
}

bool
paired_settled(const struct paired_ends *e, char *why, size_t len)
{

	if (!paired_broke(e, PAIRED_STALLS_SETTLE))
		return false;
	if (e->crashed)
		snprintf(why, len, "a process failed as a whole");
	else if (e->failed[1] > 0)
		snprintf(why, len, "a window of B failed");
	else
		snprintf(why, len, "B stalled in %u windows, A in %u (%d more "
		    "settle it)", e->stalled[1], e->stalled[0],
		    PAIRED_STALLS_SETTLE);
	return true;
}

/*
 * B failing is the answer whatever A did (a build that loses a task in
 * one window is not judged on the others); and a campaign with too few
 * units left for a p below alpha has no answer, which is not "no change".
 */
static const char *
paired_failures(const struct paired_ends *e, size_t units, double alpha,
    char *why, size_t len)
{
	if (paired_broke(e, 1)) {
		snprintf(why, len, "B: %u of %u windows failed, %u stalled; A: "
		    "%u of %u failed, %u stalled%s", e->failed[1], e->ok[1] +
		    e->failed[1] + e->stalled[1], e->stalled[1], e->failed[0],
		    e->ok[0] + e->failed[0] + e->stalled[0], e->stalled[0],
		    e->crashed ? "; a process failed as a whole" : "");
		return "broken";
	}
	if (e->interrupted) {
		snprintf(why, len, "interrupted before its processes were done");
		return "undecided";
	}
	if (units < paired_min_units(alpha)) {
		snprintf(why, len, "%zu processes gave an estimate: %zu are needed "
		    "for a p below %g", units, paired_min_units(alpha), alpha);
		return "undecided";
	}
	return NULL;
}

/*
 * A change shown (p < alpha) and past the threshold: the estimate past
 * it, or the worse tail of the units past it beyond what the estimate
 * moved, with the test pointing that way (a slow minority of processes,
 * which moves the median little). Beyond the estimate: a tail is noisy;
 * with the tail alone past the threshold, a uniform +3 % in units spread
 * 3 % came out `regressed` in 31 % (6 processes) and 68 % (10) of
 * campaigns, with its excess over the estimate in 5 and 6 %
 * (scripts/verdict-sim.sh).
 */
static const char *
paired_changed(const double *d, size_t n, const struct paired_test *r,
    double thr, int worse, char *why, size_t len)
{
	double up = log(1 + thr), down = log(1 - thr), tail;
	bool rises = r->v > (double)r->n * (double)(r->n + 1) / 4;

	if (r->shift > up || r->shift < down) {
		snprintf(why, len, "%+.1f %% [%+.1f %%, %+.1f %%], p %.2g",
		    PAIRED_PCT(r->shift), PAIRED_PCT(r->lo), PAIRED_PCT(r->hi),
		    r->p);
		return (r->shift > up) == (worse > 0) ? "regressed" : "improved";
	}
	tail = paired_tail(d, n, worse);
	if (rises == (worse > 0) && (worse > 0 ? tail - r->shift > up :
	    tail - r->shift < down)) {
		snprintf(why, len, "a slow minority of processes: their %s "
		    "change %+.1f %%, p %.2g", worse > 0 ? "90th-percentile" :
		    "10th-percentile", PAIRED_PCT(tail), r->p);
		return "regressed";
	}
	return NULL;
}

const char *
paired_verdict(const double *d, size_t n, const struct paired_ends *e,
    double thr, double alpha, bool higher_is_better, struct paired_test *r,
    char *why, size_t len)
{
	int worse = higher_is_better ? -1 : 1;
	double up = log(1 + thr), down = log(1 - thr), tail;
	const char *v;

	paired_signed_rank(d, n, alpha, r);
	why[0] = '\0';
	if ((v = paired_failures(e, r->n, alpha, why, len)) != NULL)
		return v;
	if (r->p < alpha && (v = paired_changed(d, n, r, thr, worse, why,
	    len)) != NULL)
		return v;
	tail = paired_tail(d, n, worse);
	if (r->conf > 0 && r->lo > down && r->hi < up && tail > down &&
	    tail < up)
		return "equivalent";
	if (r->p < alpha)
		snprintf(why, len, "changed %+.1f %% [%+.1f %%, %+.1f %%], p %.2g: "
		    "within ±%g %% or past it", PAIRED_PCT(r->shift),
		    PAIRED_PCT(r->lo), PAIRED_PCT(r->hi), r->p, 100 * thr);
	else if (r->conf > 0 && r->lo > down && r->hi < up)
		snprintf(why, len, "inside ±%g %%, but the processes' %s change "
		    "is %+.1f %%", 100 * thr, worse > 0 ? "90th-percentile" :
		    "10th-percentile", PAIRED_PCT(tail));
	return "inconclusive";
}
