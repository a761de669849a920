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

void
stats_sort(double *v, size_t n)
{

	qsort(v, n, sizeof(*v), stats_cmp);
	return;
}

double
stats_median_interval(const double *v, size_t n, double coverage, double *lo,
    double *hi)
{
	double pmf = ldexp(1, -(int)n), below = pmf;
	size_t k = 1;

	while (k < (n + 1) / 2) {
		pmf *= (double)(n - k + 1) / (double)k;
		if (1 - 2 * (below + pmf) < coverage)
			break;
		below += pmf;
		k++;
	}
	*lo = v[k - 1];
	*hi = v[n - k];
	return 1 - 2 * below;
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

double
stats_norm_upper(double z)
{

	return 0.5 * erfc(z / sqrt(2.0));
}

/*
 * The continued fraction of the regularized incomplete beta I_x(a, b),
 * by the modified Lentz method, for x < (a + 1) / (a + b + 2).
 */
static double
stats_betacf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, num;
	int m;

	d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
	h = d;
	for (m = 1; m <= 300; m++) {
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 / (fabs(1 + num * d) < 1e-300 ? 1e-300 : 1 + num * d);
		c = 1 + num / c;
		h *= d * (fabs(c) < 1e-300 ? 1e-300 : c);
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) *
		    (a + 2 * m + 1));
		d = 1 / (fabs(1 + num * d) < 1e-300 ? 1e-300 : 1 + num * d);
		c = 1 + num / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		h *= d * c;
		if (fabs(d * c - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b), as Numerical Recipes' betai. */
static double
stats_ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0 || x >= 1)
		return x <= 0 ? 0 : 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * stats_betacf(a, b, x) / a;
	return 1 - front * stats_betacf(b, a, 1 - x) / b;
}

double
stats_t_upper(double t, double df)
{
	double tail = 0.5 * stats_ibeta(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? tail : 1 - tail;
}

/* By bisection on erfc: slow, exact to the last bits, called rarely. */
double
stats_norm_quantile(double p)
{
	double lo = -40, hi = 40, mid;
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (1 - stats_norm_upper(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void
stats_holm(const double *p, size_t n, double *adj)
{
	size_t *order = malloc((n ? n : 1) * sizeof(*order)), i, j, k;
	double run = 0, v;

	if (order == NULL)
		abort();
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++)		/* by p, ascending; n is a sweep's cells */
		for (j = i; j > 0 && p[order[j - 1]] > p[order[j]]; j--) {
			k = order[j];
			order[j] = order[j - 1];
			order[j - 1] = k;
		}
	/* The i-th smallest times the hypotheses left, never below its predecessor. */
	for (i = 0; i < n; i++) {
		v = fmin(1, (double)(n - i) * p[order[i]]);
		run = v > run ? v : run;
		adj[order[i]] = run;
	}
	free(order);
	return;
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

/* Wilson's score interval of k of n, z the normal quantile. */
static void
stats_wilson(unsigned int k, unsigned int n, double z, double *lo, double *hi)
{
	double p = (double)k / n, z2 = z * z, mid, half;

	mid = (p + z2 / (2.0 * n)) / (1 + z2 / n);
	half = z * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / (1 + z2 / n);
	*lo = fmax(0, mid - half);
	*hi = fmin(1, mid + half);
	return;
}

void
stats_share_diff(unsigned int k1, unsigned int n1, unsigned int k2,
    unsigned int n2, double alpha, double *lo, double *hi)
{
	double z = stats_norm_quantile(1 - alpha / 2), l1, u1, l2, u2;
	double p1 = (double)k1 / n1, p2 = (double)k2 / n2;

	stats_wilson(k1, n1, z, &l1, &u1);
	stats_wilson(k2, n2, z, &l2, &u2);
	*lo = p2 - p1 - sqrt((p2 - l2) * (p2 - l2) + (u1 - p1) * (u1 - p1));
	*hi = p2 - p1 + sqrt((u2 - p2) * (u2 - p2) + (p1 - l1) * (p1 - l1));
	return;
}

double
stats_gauss(uint64_t *state)
{
	double u1, u2;

	/* xorshift64 twice, then Box and Muller; u1 in (0, 1]. */
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	u1 = (double)((*state >> 11) + 1) * 0x1p-53;
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	u2 = (double)(*state >> 11) * 0x1p-53;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

double
stats_power80(const double *a, const double *b, size_t r, double sigma,
    double t)
{
	double *need = malloc((r ? r : 1) * sizeof(*need)), q;
	size_t i;

	if (need == NULL)
		abort();
	for (i = 0; i < r; i++)
		need[i] = fmax(sigma * a[i], t + sigma * b[i]);
	qsort(need, r, sizeof(*need), stats_cmp);
	q = r > 0 ? stats_quantile(need, r, 0.8) : INFINITY;
	free(need);
	return q;
}

/* Hoare's selection: the partitions leave nothing smaller after v[k]. */
double
stats_select(double *v, size_t n, size_t k)
{
	long lo = 0, hi = (long)n - 1, i, j, at = (long)k;
	double pivot, x;

	while (lo < hi) {
		pivot = v[lo + (hi - lo) / 2];
		for (i = lo, j = hi; i <= j;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				x = v[i];
				v[i++] = v[j];
				v[j--] = x;
			}
		}
		if (at <= j)
			hi = j;
		else if (at >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

double
stats_select_median(double *v, size_t n)
{
	size_t h = (n - 1) / 2;
	double lo = stats_select(v, n, h);

	return n % 2 ? lo : (lo + stats_select(v + h + 1, n - h - 1, 0)) / 2;
}
