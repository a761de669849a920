/*
 * rank_strata.c - the rank-sum test within strata (rank.h): each
 * stratum's runs ranked among themselves and b's U of every stratum
 * summed, so that a cause outside the two builds which moves every run
 * of a stratum alike (the host's placement of the CPUs) drops out, and
 * the share of each side's runs it dealt to each stratum with it. The
 * unweighted sum of U's, which the shift over one stratum's pairs
 * inverts, where van Elteren's weights would not.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rank.h"
#include "rank_int.h"
#include "stats.h"

/* The runs of each stratum, a's and b's. */
struct rank_strata {
	double **a, **b;
	size_t *na, *nb;
	size_t k;
};

static void
rank_strata_deal(struct rank_strata *s, const double *a, const int *sa,
    size_t na, const double *b, const int *sb, size_t nb, size_t k)
{
	size_t i;

	s->k = k;
	s->a = rank_alloc(k, sizeof(*s->a));
	s->b = rank_alloc(k, sizeof(*s->b));
	s->na = rank_alloc(k, sizeof(*s->na));
	s->nb = rank_alloc(k, sizeof(*s->nb));
	for (i = 0; i < k; i++) {
		s->a[i] = rank_alloc(na, sizeof(**s->a));
		s->b[i] = rank_alloc(nb, sizeof(**s->b));
	}
	for (i = 0; i < na; i++)
		s->a[sa[i]][s->na[sa[i]]++] = a[i];
	for (i = 0; i < nb; i++)
		s->b[sb[i]][s->nb[sb[i]]++] = b[i];
	return;
}

static void
rank_strata_free(struct rank_strata *s)
{
	size_t i;

	for (i = 0; i < s->k; i++) {
		free(s->a[i]);
		free(s->b[i]);
	}
	free(s->a);
	free(s->b);
	free(s->na);
	free(s->nb);
	return;
}

/*
 * law (doubled summed U 0..*top) convolved with one stratum's law of its
 * doubled rank sum, less the least that sum can be (m (m + 1)).
 */
static double *
rank_strata_convolve(double *law, size_t *top, const double *one,
    size_t smax, size_t least)
{
	double *sum = rank_alloc(*top + smax - least + 1, sizeof(*sum));
	size_t u, v;

	for (u = 0; u <= *top; u++)
		for (v = least; v <= smax; v++)
			sum[u + v - least] += law[u] * one[v];
	free(law);
	*top += smax - least;
	return sum;
}

/* Twice the smaller tail of the summed law at obs. */
static double
rank_strata_p(const double *law, size_t top, size_t obs)
{
	double *low = rank_alloc(top + 1, sizeof(*low)), acc = 0, p;
	size_t u;

	for (u = 0; u <= top; u++)
		low[u] = acc += law[u];
	p = rank__two_sided(low, obs, acc);
	free(low);
	return p;
}

/*
 * The test: b's summed U (into r->u, doubled in *obs) and its p, exact
 * from the convolution of the strata's laws while every stratum is
 * counted exactly, else normal with R's tie and continuity corrections.
 */
static void
rank_strata_test(const struct rank_strata *s, struct rank_test *r,
    double *pairs)
{
	double *law = rank_alloc(1, sizeof(*law)), *one, var = 0, z;
	struct rank__one st;
	size_t i, top = 0, obs = 0, least;

	law[0] = 1;
	r->exact = true;
	for (*pairs = 0, i = 0; i < s->k; i++) {
		if (s->na[i] == 0 || s->nb[i] == 0)
			continue;
		one = rank__law(s->a[i], s->na[i], s->b[i], s->nb[i], &st);
		least = s->nb[i] * (s->nb[i] + 1);
		obs += st.sum - least;
		var += st.sigma * st.sigma;
		*pairs += (double)s->na[i] * (double)s->nb[i];
		if (one == NULL)
			r->exact = false;
		else if (r->exact)
			law = rank_strata_convolve(law, &top, one, st.smax, least);
		free(one);
	}
	r->u = (double)obs / 2;
	if (r->exact)
		r->p = rank_strata_p(law, top, obs);
	else {
		z = r->u - *pairs / 2;
		z -= z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
		r->p = var > 0 ? fmin(1, 2 * stats_norm_upper(fabs(z) /
		    sqrt(var))) : 1;
	}
	free(law);
	return;
}

void
rank_compare_strata(const double *a, const int *sa, size_t na,
    const double *b, const int *sb, size_t nb, size_t nstrata, double alpha,
    struct rank_test *r)
{
	struct rank_strata s;
	double pairs;

	rank_strata_deal(&s, a, sa, na, b, sb, nb, nstrata);
	rank_strata_test(&s, r, &pairs);
	/* u as rank_compare's, over na nb pairs: the share of pairs b wins. */
	r->u = pairs > 0 ? r->u * (double)na * (double)nb / pairs :
	    (double)na * (double)nb / 2;
	r->p_shift = r->p;
	r->p_share = r->p_strat = r->shift_strat = NAN;
	r->slow_a = r->slow_b = 0;
	rank__estimate_blocks((const double *const *)s.a, s.na,
	    (const double *const *)s.b, s.nb, s.k, alpha, r);
	rank_strata_free(&s);
	return;
}

double
rank_p_min_strata(const int *sa, size_t na, const int *sb, size_t nb,
    size_t nstrata)
{
	size_t *n = rank_alloc(2 * nstrata, sizeof(*n)), i;
	double l = 0;

	for (i = 0; i < na; i++)
		n[2 * sa[i]]++;
	for (i = 0; i < nb; i++)
		n[2 * sb[i] + 1]++;
	for (i = 0; i < nstrata; i++)
		if (n[2 * i] > 0 && n[2 * i + 1] > 0)
			l += log(rank_p_min(n[2 * i], n[2 * i + 1]) / 2);
	free(n);
	return fmin(1, 2 * exp(l));
}
