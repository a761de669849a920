/*
 * stats.c - see stats.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* R's fisher.test and wilcox.test compare probabilities with this slack. */
#define STATS_REL_EPS	1e-7
/*
 * Two regimes must differ by half at least: seed 000's two speeds have no
 * p99 between 70 and 110 ms, a factor of 1.57; at 1.25 a sweep here
 * labelled one cell in eight, 0.018 against 0.026 us among them.
 */
#define STATS_REGIME_FACTOR	1.5

static int
stats_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double *
stats_sorted(const double *v, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (s == NULL)
		abort();
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), stats_cmp);
	return s;
}

double
stats_quantile(const double *sorted, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t i = (size_t)h;

	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - (double)i) * (sorted[i + 1] - sorted[i]);
}

void
stats_summarize(const double *v, size_t n, struct stats_summary *s)
{
	double *x = stats_sorted(v, n), sum = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += x[i];
	s->n = n;
	s->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->cv = n > 1 && s->mean != 0 ? sqrt(ss / (double)(n - 1)) / s->mean : 0;
	s->min = x[0];
	s->max = x[n - 1];
	s->median = stats_quantile(x, n, 0.5);
	s->q1 = stats_quantile(x, n, 0.25);
	s->q3 = stats_quantile(x, n, 0.75);
	free(x);
	return;
}

/* Standard normal upper tail. */
static double
stats_norm_upper(double z)
{

	return 0.5 * erfc(z / sqrt(2.0));
}

/*
 * Exact null distribution of U for sizes m and n without ties: the count
 * of arrangements with each U, by the recurrence f(m, n, u) = f(m-1, n,
 * u-n) + f(m, n-1, u). Returns P(U <= u).
 */
static double
stats_u_exact_cdf(size_t m, size_t n, double u)
{
	size_t maxu = m * n, i, j, k;
	double *f = calloc((m + 1) * (n + 1) * (maxu + 1), sizeof(*f));
	double below = 0, total = 0;

#define F(a, b, c)	f[((a) * (n + 1) + (b)) * (maxu + 1) + (c)]
	if (f == NULL)
		abort();
	for (i = 0; i <= m; i++) {
		for (j = 0; j <= n; j++) {
			if (i == 0 || j == 0) {
				F(i, j, 0) = 1;
				continue;
			}
			for (k = 0; k <= i * j; k++)
				F(i, j, k) = (k >= j ? F(i - 1, j, k - j) : 0) +
				    F(i, j - 1, k);
		}
	}
	for (k = 0; k <= maxu; k++) {
		total += F(m, n, k);
		if ((double)k <= u + STATS_REL_EPS)
			below += F(m, n, k);
	}
#undef F
	free(f);
	return below / total;
}

double
stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb, i, j, t;
	double *all = malloc(n * sizeof(*all)), *rank = malloc(n * sizeof(*rank));
	double ra = 0, u, mu, ties = 0, sigma, z, p;
	int tied = 0;

	if (all == NULL || rank == NULL)
		abort();
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	/* Midranks: the rank of a value is the mean of the ranks it ties on. */
	for (i = 0; i < n; i++) {
		double below = 0, equal = 0;

		for (j = 0; j < n; j++) {
			below += all[j] < all[i];
			equal += all[j] == all[i];
		}
		rank[i] = below + (equal + 1) / 2;
		tied |= equal > 1;
	}
	for (i = 0; i < na; i++)
		ra += rank[i];
	u = ra - (double)na * (double)(na + 1) / 2;	/* R's W */
	if (!tied && na < 50 && nb < 50) {
		double lo = stats_u_exact_cdf(na, nb, u);
		double hi = 1 - stats_u_exact_cdf(na, nb, u - 1);

		p = 2 * (lo < hi ? lo : hi);
	} else {
		double *s = stats_sorted(all, n);

		for (i = 0; i < n; i += t) {
			for (t = 1; i + t < n && s[i + t] == s[i]; t++)
				;
			ties += (double)t * t * t - (double)t;
		}
		free(s);
		mu = (double)na * (double)nb / 2;
		sigma = sqrt((double)na * nb / 12 *
		    ((double)(n + 1) - ties / ((double)n * (n - 1))));
		z = u - mu;
		/* Continuity, signed as R's: a zero shift is not corrected. */
		z -= z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
		p = sigma > 0 ? 2 * stats_norm_upper(fabs(z) / sigma) : 1;
	}
	free(all);
	free(rank);
	return p > 1 ? 1 : p;
}

/* The normal quantile by bisection on erfc: exact enough for intervals. */
static double
stats_norm_quantile_upper(double tail)
{
	double lo = 0, hi = 40, mid;
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (stats_norm_upper(mid) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

bool
stats_ratio_interval(const double *a, size_t na, const double *b, size_t nb,
    double alpha, double *ratio, double *lo, double *hi)
{
	size_t m = na * nb, i, j, k = 0;
	double *d = malloc((m ? m : 1) * sizeof(*d)), *s, z, c;
	bool ok;

	if (d == NULL)
		abort();
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			d[k++] = log(b[j]) - log(a[i]);
	s = stats_sorted(d, m);
	*ratio = exp(stats_quantile(s, m, 0.5));
	/*
	 * Moses: the interval runs from the c-th smallest to the c-th largest
	 * pairwise difference, c from the null distribution of U (normal).
	 */
	z = stats_norm_quantile_upper(alpha / 2);
	c = floor((double)m / 2 - z * sqrt((double)m * (double)(na + nb + 1) /
	    12));
	ok = c >= 1;
	if (!ok)
		c = 1;
	*lo = exp(s[(size_t)c - 1]);
	*hi = exp(s[m - (size_t)c]);
	free(d);
	free(s);
	return ok;
}

/* The interquartile range of sorted x[lo..hi]. */
static double
stats_iqr(const double *x, size_t lo, size_t hi)
{

	return stats_quantile(x + lo, hi - lo + 1, 0.75) -
	    stats_quantile(x + lo, hi - lo + 1, 0.25);
}

bool
stats_bimodal(const double *v, size_t n, double *boundary)
{
	double *x = stats_sorted(v, n), gap = 0, g, spread;
	size_t i, at = 0;
	bool yes;

	for (i = 0; i < n; i++)
		x[i] = log(x[i]);
	for (i = 1; i + 2 < n; i++) {		/* two values each side */
		g = x[i + 1] - x[i];
		if (g > gap) {
			gap = g;
			at = i;
		}
	}
	yes = gap > log(STATS_REGIME_FACTOR);
	if (yes) {
		/* Quartiles, not ranges: one stray run must not hide the gap. */
		spread = stats_iqr(x, 0, at);
		if (stats_iqr(x, at + 1, n - 1) > spread)
			spread = stats_iqr(x, at + 1, n - 1);
		yes = gap > 2 * spread;
		*boundary = exp((x[at] + x[at + 1]) / 2);
	}
	free(x);
	return yes;
}

/* log of the hypergeometric probability of a table with first cell x. */
static double
stats_hyper_log(unsigned int x, unsigned int r1, unsigned int r2,
    unsigned int c1)
{

	return lgamma(r1 + 1.0) - lgamma(x + 1.0) - lgamma(r1 - x + 1.0) +
	    lgamma(r2 + 1.0) - lgamma(c1 - x + 1.0) -
	    lgamma(r2 - (c1 - x) + 1.0) -
	    (lgamma(r1 + r2 + 1.0) - lgamma(c1 + 1.0) -
	    lgamma(r1 + r2 - c1 + 1.0));
}

double
stats_fisher(unsigned int a, unsigned int b, unsigned int c, unsigned int d)
{
	unsigned int r1 = a + b, r2 = c + d, c1 = a + c, x;
	unsigned int lo = c1 > r2 ? c1 - r2 : 0, hi = r1 < c1 ? r1 : c1;
	double observed = stats_hyper_log(a, r1, r2, c1), p = 0, lp;

	/* Every table at most as probable as the observed one. */
	for (x = lo; x <= hi; x++) {
		lp = stats_hyper_log(x, r1, r2, c1);
		if (lp <= observed + log1p(STATS_REL_EPS))
			p += exp(lp);
	}
	return p > 1 ? 1 : p;
}

bool
stats_linfit(const double *x, const double *y, size_t n, double *slope,
    double *intercept, double *r2)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		mx += x[i] / (double)n;
		my += y[i] / (double)n;
	}
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (n < 2 || sxx == 0)
		return false;
	*slope = sxy / sxx;
	*intercept = my - *slope * mx;
	*r2 = syy > 0 ? sxy * sxy / (sxx * syy) : 1;
	return true;
}
