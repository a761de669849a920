/*
 * rank_shift.c - the estimates of rank.h: the Hodges-Lehmann shift, its
 * Moses interval and the shift within regimes, each an order statistic
 * of the n m differences b - a, picked out without listing them.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rank.h"
#include "rank_int.h"
#include "stats.h"

/*
 * The differences b_j - a_i of a and b, each sorted, as a matrix never
 * written: a row rises with j and falls with i, since rounding keeps the
 * order of what it rounds (b_j - a_i <= b_k - a_i when b_j <= b_k), so
 * the differences at most x are counted in one pass of two pointers and
 * the k-th smallest is found by bisecting on x: n + m memory and
 * (n + m) 64 steps, where listing them took n m (1.5 GB and 26 s at 10^4
 * runs a side, an abort at 10^5). The within-regime shift is over two
 * such blocks, the fast runs' and the slow ones'.
 */
struct rank_block {
	const double *a, *b;
	size_t na, nb;
};

static size_t
rank_count_le(const struct rank_block *bl, size_t nbl, double x)
{
	size_t k, i, j, n = 0;

	/* A larger a_i leaves more of b within x of it: j only moves on. */
	for (k = 0; k < nbl; k++)
		for (i = 0, j = 0; i < bl[k].na; i++, n += j)
			while (j < bl[k].nb && bl[k].b[j] - bl[k].a[i] <= x)
				j++;
	return n;
}

/* Doubles as integers in the same order, -0 just below +0 (no NaN here). */
static uint64_t
rank_key(double x)
{
	uint64_t u;

	memcpy(&u, &x, sizeof(u));
	return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

static double
rank_unkey(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~((uint64_t)1 << 63) : ~k;
	double x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

/*
 * The k-th smallest difference of the blocks (from 0; fewer than their
 * n m): the least double with more than k differences at most it, which
 * is one of them, found in at most 64 counts. A zero is +0, as a sort of
 * the differences would hold either sign of it.
 */
static double
rank_select(const struct rank_block *bl, size_t nbl, size_t k)
{
	uint64_t lo = UINT64_MAX, hi = 0, mid;
	size_t i;
	double x;

	for (i = 0; i < nbl; i++) {
		if (bl[i].na == 0 || bl[i].nb == 0)
			continue;
		mid = rank_key(bl[i].b[0] - bl[i].a[bl[i].na - 1]);
		lo = mid < lo ? mid : lo;
		mid = rank_key(bl[i].b[bl[i].nb - 1] - bl[i].a[0]);
		hi = mid > hi ? mid : hi;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (rank_count_le(bl, nbl, rank_unkey(mid)) > k)
			hi = mid;
		else
			lo = mid + 1;
	}
	x = rank_unkey(lo);
	return x == 0 ? 0 : x;
}

/* The median of the blocks' differences; NAN when they have none. */
static double
rank_median_blocks(const struct rank_block *bl, size_t nbl)
{
	size_t n = 0, i;

	for (i = 0; i < nbl; i++)
		n += bl[i].na * bl[i].nb;
	if (n == 0)
		return NAN;
	return n % 2 ? rank_select(bl, nbl, n / 2) : (rank_select(bl, nbl,
	    n / 2 - 1) + rank_select(bl, nbl, n / 2)) / 2;
}

/* A sorted copy of v[0..n). */
static double *
rank_sorted(const double *v, size_t n)
{
	double *s = rank_alloc(n, sizeof(*s));

	memcpy(s, v, n * sizeof(*v));
	stats_sort(s, n);
	return s;
}

/* R's qwilcox: the smallest q with P(U <= q) >= p; c sums to total. */
static size_t
rank_quantile(double p, const double *c, size_t top, double total)
{
	double acc = 0;
	size_t q;

	p -= 10 * DBL_EPSILON;
	for (q = 0; q <= top; q++) {
		acc += c[q];
		if (acc / total >= p)
			return q;
	}
	return top;
}

/*
 * The law of the blocks' summed U untied: each block's (rank__counts)
 * convolved; its top, the pairs of all blocks, in *top.
 */
static double *
rank_counts_blocks(const struct rank_block *bl, size_t nbl, size_t *top)
{
	double *c = rank_alloc(1, sizeof(*c)), *one, *sum;
	size_t k, u, v, t;

	c[0] = 1;
	for (*top = 0, k = 0; k < nbl; k++) {
		t = bl[k].na * bl[k].nb;
		one = rank__counts(bl[k].na, bl[k].nb);
		sum = rank_alloc(*top + t + 1, sizeof(*sum));
		for (u = 0; u <= *top; u++)
			for (v = 0; v <= t; v++)
				sum[u + v] += c[u] * one[v];
		free(one);
		free(c);
		c = sum;
		*top += t;
	}
	return c;
}

/*
 * The Moses interval: from the k-th smallest to the k-th largest pairwise
 * difference of the blocks, k = qwilcox(alpha / 2) from the exact law of
 * their summed U below RANK_EXACT_MAX a side (with ties too: the untied
 * index gives a closed interval that covers at least 1 - alpha), else
 * from the normal one. One block is Moses' own.
 */
static double
rank_moses(const struct rank_block *bl, size_t nbl, double alpha, double *lo,
    double *hi)
{
	size_t top = 0, k, u, i;
	double *c, total = 0, below = 0, conf, var = 0;
	bool exact = true;

	for (i = 0; i < nbl; i++) {
		exact &= bl[i].na < RANK_EXACT_MAX && bl[i].nb < RANK_EXACT_MAX;
		var += (double)bl[i].na * (double)bl[i].nb * (double)(bl[i].na +
		    bl[i].nb + 1) / 12;
		top += bl[i].na * bl[i].nb;
	}
	if (top == 0) {
		*lo = *hi = NAN;
		return 0;
	}
	if (exact) {
		c = rank_counts_blocks(bl, nbl, &top);
		for (u = 0; u <= top; u++)
			total += c[u];
		k = rank_quantile(alpha / 2, c, top, total);
		for (u = 0; k > 0 && u < k; u++)
			below += c[u];
		conf = 1 - 2 * below / total;
		free(c);
	} else {
		conf = floor((double)top / 2 - stats_norm_quantile(1 -
		    alpha / 2) * sqrt(var));
		k = conf < 1 ? 0 : (size_t)conf;
		conf = 1 - alpha;
	}
	*lo = rank_select(bl, nbl, k == 0 ? 0 : k - 1);
	*hi = rank_select(bl, nbl, k == 0 ? top - 1 : top - k);
	return k == 0 ? 0 : conf;
}

double
rank_interval(const double *a, size_t na, const double *b, size_t nb,
    double alpha, double *lo, double *hi)
{
	struct rank_block d = { rank_sorted(a, na), rank_sorted(b, nb), na,
	    nb };
	double conf = rank_moses(&d, 1, alpha, lo, hi);

	free((double *)d.a);
	free((double *)d.b);
	return conf;
}

/*
 * The Hodges-Lehmann shift over the pairs of one regime: what moved inside
 * the regimes, the change a within-regime test speaks of. NAN when no
 * regime holds runs of both.
 */
static double
rank_shift_within(const struct rank_block *d, double split)
{
	struct rank_block bl[2] = { *d, *d };

	/* Sorted, each side's fast runs come first. */
	for (bl[0].na = 0; bl[0].na < d->na && !(d->a[bl[0].na] > split);
	    bl[0].na++)
		;
	for (bl[0].nb = 0; bl[0].nb < d->nb && !(d->b[bl[0].nb] > split);
	    bl[0].nb++)
		;
	bl[1].a += bl[0].na;
	bl[1].na -= bl[0].na;
	bl[1].b += bl[0].nb;
	bl[1].nb -= bl[0].nb;
	return rank_median_blocks(bl, 2);
}

void
rank__estimate(const double *a, size_t na, const double *b, size_t nb,
    double split, double alpha, struct rank_test *r)
{
	struct rank_block d = { rank_sorted(a, na), rank_sorted(b, nb), na,
	    nb };

	r->shift = rank_median_blocks(&d, 1);
	r->conf = rank_moses(&d, 1, alpha, &r->lo, &r->hi);
	r->shift_strat = isnan(split) ? NAN : rank_shift_within(&d, split);
	free((double *)d.a);
	free((double *)d.b);
	return;
}

void
rank__estimate_blocks(const double *const *a, const size_t *na,
    const double *const *b, const size_t *nb, size_t nbl, double alpha,
    struct rank_test *r)
{
	struct rank_block *bl = rank_alloc(nbl, sizeof(*bl));
	size_t k;

	for (k = 0; k < nbl; k++) {
		bl[k].a = rank_sorted(a[k], na[k]);
		bl[k].b = rank_sorted(b[k], nb[k]);
		bl[k].na = na[k];
		bl[k].nb = nb[k];
	}
	r->shift = rank_median_blocks(bl, nbl);
	r->conf = rank_moses(bl, nbl, alpha, &r->lo, &r->hi);
	for (k = 0; k < nbl; k++) {
		free((double *)bl[k].a);
		free((double *)bl[k].b);
	}
	free(bl);
	return;
}
