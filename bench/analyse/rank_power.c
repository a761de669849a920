/*
 * rank_power.c - what a verdict of rank.h can see: the smallest shift it
 * catches 80 % of the time, and the runs' spread that shift is in units
 * of.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rank.h"
#include "rank_int.h"
#include "stats.h"

/* Linear interpolation in a table of (x, y), x increasing. */
static double
rank_lerp(const double *x, const double *y, size_t n, double at)
{
	size_t i;

	if (at <= x[0])
		return y[0];
	for (i = 1; i < n; i++)
		if (at <= x[i])
			return y[i - 1] + (y[i] - y[i - 1]) * (at - x[i - 1]) /
			    (x[i] - x[i - 1]);
	return y[n - 1];
}

/*
 * The smallest U at which the exact two-sided test at level rejects
 * upward, 2 P(U >= u) < level; n m + 1 when none does.
 */
static size_t
rank_critical(size_t n, size_t m, double level)
{
	size_t top = n * m, u;
	double *c = rank__counts(n, m), total = 0, tail = 0;

	for (u = 0; u <= top; u++)
		total += c[u];
	for (u = top + 1; u > 0 && 2 * (tail + c[u - 1]) / total < level; u--)
		tail += c[u - 1];
	free(c);
	return u;
}

/*
 * The draws behind rank_verdict_mde, for one (n, m, critical U): kept,
 * since the cells of a sweep share their sizes.
 */
static struct {
	size_t n, m, uc;
	double *need, *zero;		/* RANK_POWER_DRAWS each */
} rank_memo;

#define RANK_POWER_DRAWS	10000

/*
 * With e = a - b over every pair of n and m standard normal runs, b
 * shifted by d gives U = #{e < d}: the test rejects once d passes the
 * uc-th smallest e, and the estimate d - median(e) passes t once d passes
 * t + median(e). Each draw keeps those two.
 */
static void
rank_draws(size_t n, size_t m, size_t uc)
{
	double *a = rank_alloc(n + m, sizeof(*a)), *e = rank_alloc(n * m,
	    sizeof(*e));
	uint64_t seed = 0x2545f4914f6cdd1du;
	size_t d, i, j, k;

	free(rank_memo.need);
	free(rank_memo.zero);
	rank_memo.need = rank_alloc(RANK_POWER_DRAWS, sizeof(double));
	rank_memo.zero = rank_alloc(RANK_POWER_DRAWS, sizeof(double));
	for (d = 0; d < RANK_POWER_DRAWS; d++) {
		for (i = 0; i < n + m; i++)
			a[i] = stats_gauss(&seed);
		for (k = 0, i = 0; i < n; i++)
			for (j = 0; j < m; j++)
				e[k++] = a[i] - a[n + j];
		rank_memo.need[d] = stats_select(e, n * m, uc - 1);
		rank_memo.zero[d] = stats_select_median(e, n * m);
	}
	rank_memo.n = n;
	rank_memo.m = m;
	rank_memo.uc = uc;
	free(a);
	free(e);
	return;
}

/*
 * Past RANK_EXACT_MAX a side, where drawing every pair costs too much: the
 * estimate is near normal, of sd s (the rank sum's efficiency, 3/pi), and
 * the test rejects once it passes z s; the verdict needs the larger of
 * that and t, reached 80 % of the time. At 50 a side it gives 0.574
 * sigma with no threshold, the draws 0.584.
 */
static double
rank_verdict_mde_normal(size_t n, size_t m, double level, double sigma,
    double t)
{
	double s = sigma * sqrt(M_PI / 3 * (1.0 / (double)n + 1.0 / (double)m));

	return fmax(stats_norm_quantile(1 - level / 2) * s, t) +
	    stats_norm_quantile(0.8) * s;
}

double
rank_verdict_mde(size_t n, size_t m, double level, double sigma, double t)
{
	size_t uc;

	if (n == 0 || m == 0 || !(rank_p_min(n, m) < level))
		return INFINITY;
	if (n >= RANK_EXACT_MAX || m >= RANK_EXACT_MAX)
		return rank_verdict_mde_normal(n, m, level, sigma, t);
	if ((uc = rank_critical(n, m, level)) > n * m)
		return INFINITY;
	if (rank_memo.n != n || rank_memo.m != m || rank_memo.uc != uc)
		rank_draws(n, m, uc);
	return stats_power80(rank_memo.need, rank_memo.zero, RANK_POWER_DRAWS,
	    sigma, t);
}

/* The test alone: the verdict's rule with no threshold, in units of sigma. */
double
rank_mde_factor(size_t n, size_t m, double alpha)
{

	return rank_verdict_mde(n, m, alpha, 1, 0);
}

static double
rank_median_sorted(const double *s, size_t n)
{

	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double
rank_spread(const double *a, size_t na, const double *b, size_t nb)
{
	/* The bias of the scaled MAD in small samples (§4), then 1 - 1/n. */
	static const double x[] = { 3, 4, 5, 6, 8, 10, 12, 16, 20 };
	static const double y[] = { 0.598, 0.724, 0.783, 0.802, 0.858, 0.891,
	    0.912, 0.936, 0.950 };
	double *s = rank_alloc(na + nb, sizeof(*s)), *r, ma, mb, mad, h, bias;
	size_t i;

	memcpy(s, a, na * sizeof(*a));
	stats_sort(s, na);
	ma = rank_median_sorted(s, na);
	memcpy(s, b, nb * sizeof(*b));
	stats_sort(s, nb);
	mb = rank_median_sorted(s, nb);
	r = s;
	for (i = 0; i < na; i++)
		r[i] = fabs(a[i] - ma);
	for (i = 0; i < nb; i++)
		r[na + i] = fabs(b[i] - mb);
	stats_sort(r, na + nb);
	mad = 1.4826 * rank_median_sorted(r, na + nb);
	free(s);
	h = 2.0 * (double)na * (double)nb / (double)(na + nb);
	bias = h > 20 ? 1 - 1 / h : rank_lerp(x, y, sizeof(x) / sizeof(x[0]),
	    h);
	return mad / bias;
}
