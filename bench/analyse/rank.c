/*
 * rank.c - the tests of rank.h: the rank sum, the slow counts and the
 * shift within regimes, exact or past its sizes approximated; the
 * estimates are rank_shift.c's, the power rank_power.c's.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rank.h"
#include "rank_int.h"
#include "stats.h"

/* R compares probabilities that should tie with this slack. */
#define RANK_EPS	1e-7
/* A joint distribution larger than this is sampled, not counted. */
#define RANK_DP_CELLS	((size_t)1 << 22)
#define RANK_DRAWS	20000
/*
 * Past this many runs in the pool the min-p's distribution is integrated,
 * not drawn (rank_min_p_wide): the draws take RANK_DRAWS times b's runs
 * (0.08 s at 10^3 a side, 0.8 s at 10^4, 8 s at 10^5) and no p below
 * 1 / RANK_DRAWS, which Holm over a few hundred cells never lets pass.
 */
#define RANK_DRAWN_MAX	2000

/* The runs of both arms in one array: value, arm, doubled mid-rank, slow. */
struct rank_pool {
	size_t n;		/* na + nb */
	size_t na, nb;
	double *v;
	bool *in_b;
	unsigned int *score;	/* 2 x mid-rank: an integer even with ties */
	bool *slow;
	unsigned int nslow;
	double ties;		/* sum of t^3 - t over groups of ties */
};

void *
rank_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (p == NULL)
		abort();
	return p;
}

/* The exact law of U untied, as counts (rank_int.h). */
double *
rank__counts(size_t n, size_t m)
{
	size_t top = n * m, i, u, s;
	double *c = rank_alloc(top + 1, sizeof(*c));

	c[0] = 1;
	for (i = 1; i <= n; i++) {
		s = m + i;
		for (u = top; u >= s && s <= top; u--)
			c[u] -= c[u - s];
		for (u = i; u <= top; u++)
			c[u] += c[u - i];
	}
	return c;
}

double
rank_p_min(size_t n, size_t m)
{

	return fmin(1, 2 * exp(lgamma(n + 1.0) + lgamma(m + 1.0) -
	    lgamma((double)(n + m) + 1)));
}

/* A run's value and where it is in the pool. */
struct rank_at {
	double v;
	size_t i;
};

static int
rank_at_cmp(const void *x, const void *y)
{
	const struct rank_at *a = x, *b = y;

	if (a->v != b->v)
		return (a->v > b->v) - (a->v < b->v);
	return (a->i > b->i) - (a->i < b->i);
}

/*
 * The indices of v[0..n) in the order of their values, equal values in
 * the order they come: a search passes pools of a thousand runs, which
 * an insertion sort takes quadratic time over.
 */
static void
rank_order(const double *v, size_t n, size_t *idx)
{
	struct rank_at *at = rank_alloc(n, sizeof(*at));
	size_t i;

	for (i = 0; i < n; i++) {
		at[i].v = v[i];
		at[i].i = i;
	}
	qsort(at, n, sizeof(*at), rank_at_cmp);
	for (i = 0; i < n; i++)
		idx[i] = at[i].i;
	free(at);
	return;
}

static void
rank_pool_init(struct rank_pool *p, const double *a, size_t na,
    const double *b, size_t nb, double split)
{
	size_t *idx, i, k, t;

	p->na = na;
	p->nb = nb;
	p->n = na + nb;
	p->v = rank_alloc(p->n, sizeof(*p->v));
	p->in_b = rank_alloc(p->n, sizeof(*p->in_b));
	p->score = rank_alloc(p->n, sizeof(*p->score));
	p->slow = rank_alloc(p->n, sizeof(*p->slow));
	idx = rank_alloc(p->n, sizeof(*idx));
	memcpy(p->v, a, na * sizeof(*a));
	memcpy(p->v + na, b, nb * sizeof(*b));
	p->nslow = 0;
	p->ties = 0;
	for (i = 0; i < p->n; i++) {
		p->in_b[i] = i >= na;
		p->slow[i] = !isnan(split) && p->v[i] > split;
		p->nslow += p->slow[i];
	}
	rank_order(p->v, p->n, idx);
	/* A run of t equal values at ranks i+1..i+t: each gets 2i + t + 1. */
	for (i = 0; i < p->n; i += t) {
		for (t = 1; i + t < p->n && p->v[idx[i + t]] == p->v[idx[i]]; t++)
			;
		for (k = i; k < i + t; k++)
			p->score[idx[k]] = (unsigned int)(2 * i + t + 1);
		p->ties += (double)t * t * t - (double)t;
	}
	free(idx);
	return;
}

static void
rank_pool_fini(struct rank_pool *p)
{

	free(p->v);
	free(p->in_b);
	free(p->score);
	free(p->slow);
	return;
}

/* b's doubled rank sum, and how many of b's runs are slow. */
static void
rank_observed(const struct rank_pool *p, size_t *sum, unsigned int *slow)
{
	size_t i;

	*sum = 0;
	*slow = 0;
	for (i = 0; i < p->n; i++) {
		if (!p->in_b[i])
			continue;
		*sum += p->score[i];
		*slow += p->slow[i];
	}
	return;
}

/* Fisher on [[slow b, fast b], [slow a, fast a]] for c slow runs in b. */
static double
rank_share_p(const struct rank_pool *p, unsigned int c)
{

	return stats_fisher(c, (unsigned int)p->nb - c, p->nslow - c,
	    (unsigned int)p->na - (p->nslow - c));
}

/* The rank sum's standard deviation, with R's tie correction. */
static double
rank_shift_sigma(const struct rank_pool *p)
{
	double n = (double)p->n;

	return sqrt((double)p->na * (double)p->nb / 12 * ((n + 1) - p->ties /
	    (n * (n - 1))));
}

/*
 * The rank-sum p by the normal approximation, with R's tie and continuity
 * corrections, from b's doubled rank sum.
 */
static double
rank_shift_p_normal(const struct rank_pool *p, size_t sum)
{
	double u, z, sigma = rank_shift_sigma(p);

	u = (double)sum / 2 - (double)p->nb * (double)(p->nb + 1) / 2;
	z = u - (double)p->na * (double)p->nb / 2;
	z -= z > 0 ? 0.5 : z < 0 ? -0.5 : 0;
	return sigma > 0 ? fmin(1, 2 * stats_norm_upper(fabs(z) / sigma)) : 1;
}

/* The subset counts as they build up: cnt[(k, S, c)], k up to m. */
struct rank_dp {
	double *cnt;
	size_t m, smax, layer;
	unsigned int cmax;
	size_t *lo, *hi;	/* the sums subsets of each size reach so far */
};

/*
 * Run i of score w, slow if f, joins the subsets of each size k - 1: one
 * of size k each. Only the sums a size reaches are visited, and only the
 * sizes that can still grow to m with the runs left after i: the rest of
 * the table is 0 or never read, and adding 0 changes no count, so the
 * counts are those of visiting every cell, to the bit, in a fraction of
 * the time.
 */
static void
rank_joint_add(struct rank_dp *t, size_t i, size_t left, unsigned int w,
    unsigned int f)
{
	size_t k, s, row = t->cmax + 1;
	unsigned int c;
	double *from, *to;

	for (k = (i + 1 < t->m ? i + 1 : t->m); k >= 1 && k + left >= t->m;
	    k--) {
		from = t->cnt + (k - 1) * t->layer;
		to = t->cnt + k * t->layer;
		for (s = t->lo[k - 1]; s <= t->hi[k - 1] && s + w <= t->smax;
		    s++)
			for (c = 0; c + f <= t->cmax; c++)
				to[(s + w) * row + c + f] += from[s * row + c];
		/* Size k had subsets before i only if i runs made them. */
		t->lo[k] = k <= i && t->lo[k] < t->lo[k - 1] + w ? t->lo[k] :
		    t->lo[k - 1] + w;
		t->hi[k] = k <= i && t->hi[k] > t->hi[k - 1] + w ? t->hi[k] :
		    t->hi[k - 1] + w;
	}
	return;
}

/*
 * With no ties and no run slow, the joint law is U's alone, at S = 2U +
 * m(m + 1): rank__counts gives it at an m-th of the recurrence's cost
 * (most of what a change point's search spends). Its upper half is its
 * lower one mirrored: the recurrence's subtractions lose bits there,
 * where the counts are large, that a tail of a few would show.
 */
static double *
rank_joint_untied(const struct rank_pool *p, size_t smax)
{
	size_t m = p->nb, u, top = p->na * m;
	double *c = rank__counts(p->na, m);
	double *joint = rank_alloc(smax + 1, sizeof(*joint));

	for (u = 0; u <= top; u++)
		joint[2 * u + m * (m + 1)] = c[u <= top - u ? u : top - u];
	free(c);
	return joint;
}

/*
 * The joint permutation distribution of b's doubled rank sum and slow
 * count: cnt[(k, S, c)] subsets of size k, by a subset-sum recurrence.
 * Returns the table of the full size nb, or NULL when it would be too big.
 */
static double *
rank_joint(const struct rank_pool *p, size_t *smax, unsigned int *cmax)
{
	size_t m = p->nb, k, i, layer, cells;
	struct rank_dp t;
	unsigned int *top, w;

	/* Past RANK_EXACT_MAX a side nothing is counted: no sort for it. */
	if (p->na >= RANK_EXACT_MAX || m >= RANK_EXACT_MAX)
		return NULL;
	top = rank_alloc(p->n, sizeof(*top));
	memcpy(top, p->score, p->n * sizeof(*top));
	for (i = 1; i < p->n; i++)	/* the m largest scores bound S */
		for (k = i; k > 0 && top[k - 1] < top[k]; k--) {
			w = top[k];
			top[k] = top[k - 1];
			top[k - 1] = w;
		}
	for (*smax = 0, i = 0; i < m; i++)
		*smax += top[i];
	free(top);
	*cmax = p->nslow < m ? p->nslow : (unsigned int)m;
	if (*cmax == 0 && p->ties == 0)
		return rank_joint_untied(p, *smax);
	layer = (*smax + 1) * (*cmax + 1);
	cells = (m + 1) * layer;
	if (cells > RANK_DP_CELLS)
		return NULL;
	t.cnt = rank_alloc(cells, sizeof(*t.cnt));
	t.lo = rank_alloc(m + 1, sizeof(*t.lo));
	t.hi = rank_alloc(m + 1, sizeof(*t.hi));
	t.m = m;
	t.smax = *smax;
	t.cmax = *cmax;
	t.layer = layer;
	t.cnt[0] = 1;
	for (i = 0; i < p->n; i++)
		rank_joint_add(&t, i, p->n - 1 - i, p->score[i], p->slow[i]);
	memmove(t.cnt, t.cnt + m * layer, layer * sizeof(*t.cnt));
	free(t.lo);
	free(t.hi);
	return t.cnt;
}

/* Twice the smaller tail of a count at s, of a row whose sums are low. */
static double
rank_two_sided(const double *low, size_t s, double total)
{
	double up = total - (s > 0 ? low[s - 1] : 0);	/* P(S >= s) */

	return total > 0 ? fmin(1, 2 * fmin(low[s], up) / total) : 1;
}

/* The rank-sum p of each S, from the joint table's margin over c. */
static double *
rank_p_shift(const double *joint, size_t smax, unsigned int cmax,
    double *total)
{
	double *low = rank_alloc(smax + 1, sizeof(*low));
	double *pu = rank_alloc(smax + 1, sizeof(*pu)), acc = 0;
	unsigned int c;
	size_t s;

	for (s = 0; s <= smax; s++) {
		for (c = 0; c <= cmax; c++)
			acc += joint[s * (cmax + 1) + c];
		low[s] = acc;
	}
	for (s = 0; s <= smax; s++)
		pu[s] = rank_two_sided(low, s, acc);
	*total = acc;
	free(low);
	return pu;
}

/*
 * The within-regime rank sum's p of each (S, c). A slow run's pooled rank
 * is its rank among the slow ones plus the number of fast runs, so given
 * c (b's slow runs), S is the sum of b's ranks inside each regime plus a
 * constant: row c of the joint table is the exact distribution of the
 * stratified rank sum with c slow runs in b, each regime's labels drawn
 * apart, as the joint permutation deals them.
 */
static double *
rank_p_strat(const double *joint, size_t smax, unsigned int cmax)
{
	double *pst = rank_alloc((smax + 1) * (cmax + 1), sizeof(*pst));
	double *low = rank_alloc(smax + 1, sizeof(*low)), acc;
	unsigned int c;
	size_t s;

	for (c = 0; c <= cmax; c++) {
		for (acc = 0, s = 0; s <= smax; s++)
			low[s] = acc += joint[s * (cmax + 1) + c];
		for (s = 0; s <= smax; s++)
			pst[s * (cmax + 1) + c] = rank_two_sided(low, s, acc);
	}
	free(low);
	return pst;
}

/*
 * Exact: the rank-sum p of each S (two-sided, R's: twice the smaller
 * tail), Fisher's of each c, the within-regime one of each (S, c), and
 * the share of subsets whose smallest p is at most the observed one.
 */
static void
rank_exact(const struct rank_pool *p, const double *joint, size_t smax,
    unsigned int cmax, size_t sum, unsigned int slow, bool split,
    struct rank_test *r)
{
	double total, *pu = rank_p_shift(joint, smax, cmax, &total);
	double *pst = split ? rank_p_strat(joint, smax, cmax) : NULL;
	double *pf = rank_alloc(cmax + 1, sizeof(*pf)), tobs, hit = 0, t;
	size_t s, at;
	unsigned int c;

	for (c = 0; c <= cmax; c++)
		pf[c] = split ? rank_share_p(p, c) : 1;
	r->p_shift = pu[sum];
	r->p_strat = split ? pst[sum * (cmax + 1) + slow] : NAN;
	tobs = fmin(pu[sum], pf[slow]);
	tobs = (split ? fmin(tobs, r->p_strat) : tobs) * (1 + RANK_EPS);
	for (s = 0; s <= smax; s++)
		for (c = 0; c <= cmax; c++) {
			at = s * (cmax + 1) + c;
			t = fmin(pu[s], pf[c]);
			if ((split ? fmin(t, pst[at]) : t) <= tobs)
				hit += joint[at];
		}
	r->p = fmin(1, hit / total);
	r->exact = true;
	free(pu);
	free(pst);
	free(pf);
	return;
}

/* xorshift64: a fixed seed, so the same runs give the same p. */
static uint64_t
rank_next(uint64_t *x)
{

	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * The within-regime rank sum given c of b's runs slow: b's doubled ranks
 * inside each regime, each regime's labels drawn apart (no tie
 * correction: regimes are far apart). Its mean, with the variance in *v.
 */
static double
rank_strat_moments(const struct rank_pool *p, unsigned int c, double *v)
{
	double nf = (double)(p->n - p->nslow), ns = p->nslow;
	double kf = (double)p->nb - c;

	*v = 4 * (kf * (nf - kf) * (nf + 1) + c * (ns - c) * (ns + 1)) / 12;
	return kf * (nf + 1) + c * (ns + 1);
}

/* Its p by the normal approximation, from b's doubled rank sum. */
static double
rank_strat_p_normal(const struct rank_pool *p, size_t sum, unsigned int c)
{
	double x = (double)sum - 2.0 * c * (double)(p->n - p->nslow), e, v;

	e = rank_strat_moments(p, c, &v);
	return v > 0 ? fmin(1, 2 * stats_norm_upper(fmax(0, fabs(x - e) - 1) /
	    sqrt(v))) : 1;
}

/*
 * The smallest of the min-p test's p-values for b's sum and slow count,
 * Fisher's from pf, each c's computed once: the draws repeat them.
 */
static double
rank_min_p_normal(const struct rank_pool *p, size_t sum, unsigned int c,
    double *pf)
{

	if (isnan(pf[c]))
		pf[c] = rank_share_p(p, c);
	return fmin(fmin(rank_shift_p_normal(p, sum), pf[c]),
	    rank_strat_p_normal(p, sum, c));
}

/* The law of b's slow count c: P(c) and Fisher's p of each, c from lo. */
struct rank_share_law {
	unsigned int lo, n;
	double *w, *p;
};

static double
rank_lchoose(double n, double k)
{

	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

/*
 * The hypergeometric law of b's slow count under the permutations, and
 * Fisher's two-sided p of each count as stats_fisher takes it (every
 * count no likelier, with R's slack), summed from the least likely up:
 * one sort, where a sum over every count for each is quadratic.
 */
static void
rank_share_law(const struct rank_pool *p, struct rank_share_law *l)
{
	unsigned int ns = p->nslow, i, k;
	struct rank_at *by;	/* each count's log-probability */
	double acc = 0;

	l->lo = ns > p->na ? ns - (unsigned int)p->na : 0;
	l->n = (ns < p->nb ? ns : (unsigned int)p->nb) - l->lo + 1;
	l->w = rank_alloc(l->n, sizeof(*l->w));
	l->p = rank_alloc(l->n, sizeof(*l->p));
	by = rank_alloc(l->n, sizeof(*by));
	for (i = 0; i < l->n; i++) {
		k = l->lo + i;
		by[i].v = rank_lchoose(p->nb, k) + rank_lchoose(p->na, ns - k) -
		    rank_lchoose(p->n, ns);
		by[i].i = i;
		l->w[i] = exp(by[i].v);
	}
	qsort(by, l->n, sizeof(*by), rank_at_cmp);
	for (i = 0, k = 0; i < l->n; i++) {
		for (; k < l->n && by[k].v <= by[i].v + log1p(RANK_EPS); k++)
			acc += l->w[by[k].i];
		l->p[by[i].i] = fmin(1, acc);
	}
	free(by);
	return;
}

/* The z whose upper normal tail is q, 0 < q < 1/2: precise for tiny q. */
static double
rank_upper_quantile(double q)
{
	double lo = 0, hi = 40, mid;
	int i;

	for (i = 0; i < 100; i++) {
		mid = (lo + hi) / 2;
		if (stats_norm_upper(mid) > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * What rank_min_p_wide needs of the pool and of the observed min-p: b's
 * doubled rank sum S passes the rank-sum test within h1 of c1.
 */
struct rank_wide {
	double q;		/* the normal quantile of tobs / 2 */
	double c1, h1;
	double nf, ns;		/* each regime's runs, */
	double mf, vf, ms, vs;	/* and their scores' mean and variance */
};

/* The mean and variance of the scores of one regime's runs. */
static void
rank_regime_scores(const struct rank_pool *p, bool slow, double *mean,
    double *var)
{
	double k = 0, s = 0;
	size_t i;

	for (i = 0; i < p->n; i++)
		if (p->slow[i] == slow) {
			s += p->score[i];
			k++;
		}
	*mean = k > 0 ? s / k : 0;
	for (s = 0, i = 0; i < p->n; i++)
		if (p->slow[i] == slow)
			s += (p->score[i] - *mean) * (p->score[i] - *mean);
	*var = k > 0 ? s / k : 0;
	return;
}

/* The pool's part of w, and the observed min-p's, t. */
static void
rank_wide_init(const struct rank_pool *p, double t, struct rank_wide *w)
{
	double sigma = rank_shift_sigma(p);

	w->q = t < 1 ? rank_upper_quantile(t / 2) : 0;
	/* |S - c1| / 2 past 0.5 + sigma q: rank_shift_p_normal's z. */
	w->c1 = (double)p->nb * (double)(p->nb + 1) + (double)p->na *
	    (double)p->nb;
	w->h1 = sigma > 0 ? 1 + 2 * sigma * w->q : INFINITY;
	w->nf = (double)(p->n - p->nslow);
	w->ns = p->nslow;
	rank_regime_scores(p, false, &w->mf, &w->vf);
	rank_regime_scores(p, true, &w->ms, &w->vs);
	return;
}

/*
 * The chance, given c of b's runs slow, that the rank sum or the
 * within-regime one rejects at w->q: S outside either's band, S normal
 * with the mean and variance of c slow scores and nb - c fast ones drawn
 * without replacement.
 */
static double
rank_wide_reject(const struct rank_pool *p, const struct rank_wide *w,
    unsigned int c)
{
	double kf = (double)p->nb - c, e, v, h2, lo, hi, mu, var;

	/* The within-regime test passes within h2 of e. */
	e = 2.0 * c * w->nf + rank_strat_moments(p, c, &v);
	h2 = v > 0 ? 1 + sqrt(v) * w->q : INFINITY;
	lo = fmax(w->c1 - w->h1, e - h2);
	hi = fmin(w->c1 + w->h1, e + h2);
	mu = kf * w->mf + c * w->ms;
	var = (w->nf > 1 ? kf * (w->nf - kf) / (w->nf - 1) * w->vf : 0) +
	    (w->ns > 1 ? c * (w->ns - c) / (w->ns - 1) * w->vs : 0);
	if (!(lo < hi))
		return 1;
	if (!(var > 0))
		return mu <= lo || mu >= hi;
	return fmin(1, stats_norm_upper((hi - mu) / sqrt(var)) +
	    stats_norm_upper((mu - lo) / sqrt(var)));
}

/*
 * The min-p's permutation distribution past RANK_DRAWN_MAX runs, from its
 * large-sample law: b's slow count c exactly (hypergeometric), and b's
 * rank sum S given c normal. Given c, Fisher's p is fixed and the two
 * rank sums reject outside a band of S each, so the share of subsets
 * whose smallest p is at most the observed one is a sum over c of normal
 * tails: no draws, no floor at 1 / RANK_DRAWS, one sort of the counts.
 */
static double
rank_min_p_wide(const struct rank_pool *p, size_t sum, unsigned int slow)
{
	struct rank_share_law l;
	struct rank_wide w;
	double t, hit = 0;
	unsigned int i;

	rank_share_law(p, &l);
	t = fmin(fmin(rank_shift_p_normal(p, sum), l.p[slow - l.lo]),
	    rank_strat_p_normal(p, sum, slow)) * (1 + RANK_EPS);
	rank_wide_init(p, t, &w);
	for (i = 0; t < 1 && i < l.n; i++)
		if (l.w[i] > 0)
			hit += l.w[i] * (l.p[i] <= t ? 1 : rank_wide_reject(p,
			    &w, l.lo + i));
	free(l.w);
	free(l.p);
	/* Every p is at most 1: a t of 1 or more takes every subset. */
	return t < 1 ? fmin(1, hit) : 1;
}

/*
 * The min-p's permutation distribution sampled: the share of RANK_DRAWS
 * random nb-subsets of the pool whose smallest p is at most tobs.
 */
static double
rank_min_p_drawn(const struct rank_pool *p, double tobs, double *pf)
{
	size_t *idx = rank_alloc(p->n, sizeof(*idx)), i, j, k, s;
	uint64_t seed = 0x9e3779b97f4a7c15u;
	unsigned int c, hits = 0, d;

	for (i = 0; i < p->n; i++)
		idx[i] = i;
	for (d = 0; d < RANK_DRAWS; d++) {
		s = 0;
		c = 0;
		for (i = 0; i < p->nb; i++) {	/* a random nb-subset */
			j = i + rank_next(&seed) % (p->n - i);
			k = idx[i];
			idx[i] = idx[j];
			idx[j] = k;
			s += p->score[idx[i]];
			c += p->slow[idx[i]];
		}
		hits += rank_min_p_normal(p, s, c, pf) <= tobs;
	}
	free(idx);
	return (1.0 + hits) / (1.0 + RANK_DRAWS);
}

/*
 * Too large to count: the rank-sum p from the normal approximation, and
 * with two regimes the min-p's permutation distribution sampled, or past
 * RANK_DRAWN_MAX runs integrated (rank_min_p_wide).
 */
static void
rank_sampled(const struct rank_pool *p, size_t sum, unsigned int slow,
    bool split, struct rank_test *r)
{
	unsigned int c, cmax = p->nslow < p->nb ? p->nslow :
	    (unsigned int)p->nb;
	double *pf, tobs;

	r->p_shift = rank_shift_p_normal(p, sum);
	r->p = r->p_shift;
	r->p_strat = NAN;
	r->exact = false;
	if (!split)
		return;
	r->p_strat = rank_strat_p_normal(p, sum, slow);
	if (p->n > RANK_DRAWN_MAX) {
		r->p = rank_min_p_wide(p, sum, slow);
		return;
	}
	pf = rank_alloc(cmax + 1, sizeof(*pf));
	for (c = 0; c <= cmax; c++)
		pf[c] = NAN;
	tobs = rank_min_p_normal(p, sum, slow, pf) * (1 + RANK_EPS);
	r->p = rank_min_p_drawn(p, tobs, pf);
	free(pf);
	return;
}

double *
rank__law(const double *a, size_t na, const double *b, size_t nb,
    struct rank__one *one)
{
	struct rank_pool p;
	unsigned int slow, cmax;
	double *joint;

	rank_pool_init(&p, a, na, b, nb, NAN);
	rank_observed(&p, &one->sum, &slow);
	one->ties = p.ties;
	one->sigma = rank_shift_sigma(&p);
	joint = rank_joint(&p, &one->smax, &cmax);
	rank_pool_fini(&p);
	return joint;
}

double
rank__two_sided(const double *low, size_t s, double total)
{

	return rank_two_sided(low, s, total);
}

void
rank_test_p(const double *a, size_t na, const double *b, size_t nb,
    double split, struct rank_test *r)
{
	struct rank_pool p;
	unsigned int slow, cmax;
	size_t sum, smax;
	double *joint;

	rank_pool_init(&p, a, na, b, nb, split);
	rank_observed(&p, &sum, &slow);
	r->u = (double)sum / 2 - (double)nb * (double)(nb + 1) / 2;
	r->slow_b = slow;
	r->slow_a = p.nslow - slow;
	r->p_share = isnan(split) ? NAN : rank_share_p(&p, slow);
	if ((joint = rank_joint(&p, &smax, &cmax)) != NULL)
		rank_exact(&p, joint, smax, cmax, sum, slow, !isnan(split), r);
	else
		rank_sampled(&p, sum, slow, !isnan(split), r);
	free(joint);
	rank_pool_fini(&p);
	r->shift = r->shift_strat = r->lo = r->hi = NAN;
	r->conf = 0;
	return;
}

void
rank_compare(const double *a, size_t na, const double *b, size_t nb,
    double split, double alpha, struct rank_test *r)
{

	rank_test_p(a, na, b, nb, split, r);
	rank__estimate(a, na, b, nb, split, alpha, r);
	return;
}
