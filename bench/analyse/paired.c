/*
 * paired.c - see paired.h.
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
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

static void *
paired_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (p == NULL)
		abort();
	return p;
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
	c = paired_alloc(*top + 1, sizeof(*c));
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
	unsigned int *w = paired_alloc(n, sizeof(*w));
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
	double *w = paired_alloc(nw, sizeof(*w)), below;

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
	double *x = paired_alloc(n, sizeof(*x)), *c, total, e, obs, tail = 0;
	unsigned int *w = paired_alloc(n, sizeof(*w));
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

double
paired_mde_factor(size_t n, double alpha)
{

	if (n == 0 || ldexp(2, -(int)n) > alpha)
		return INFINITY;
	return (stats_norm_quantile(1 - alpha / 2) + stats_norm_quantile(0.8)) /
	    sqrt((double)n * 3 / M_PI);
}

double
paired_spread(const double *d, size_t n)
{
	double *r = paired_alloc(n, sizeof(*r)), med;
	size_t i;

	memcpy(r, d, n * sizeof(*d));
	med = paired_median(r, n);
	for (i = 0; i < n; i++)
		r[i] = fabs(d[i] - med);
	med = 1.4826 * paired_median(r, n);
	free(r);
	return med;
}
