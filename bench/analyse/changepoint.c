/*
 * changepoint.c - see changepoint.h.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "rank.h"
#include "stats.h"

/*
 * The revisions that have runs, their logs end to end, so the pooled
 * runs of revisions [s, e) are x[off[s]] .. x[off[e]] with no copy.
 */
struct cp_series {
	size_t n;		/* revisions with at least one run kept */
	size_t *rev;		/* each one's index in the input */
	size_t *off;		/* n + 1 offsets into x */
	double *x;		/* the logs of the runs */
	long long *sid;		/* each run's sitting, as x */
	double *tmp;		/* scratch as long as x: a median, or runs */
	size_t *soff;		/* n + 1 offsets into y */
	double *y;		/* each sitting's level: its runs' median log */
	double *gap;		/* scratch as long as y */
	double floor;		/* the least sd of a level (cp_level_floor) */
	long long *ysid;	/* each sitting's id, as y */
	const struct cp_gap *other; /* cp_opts' gaps of the machine */
	size_t nother;
};

/* The cuts (the first revision of each new level), in order. */
struct cp_cuts {
	size_t *at;
	size_t n;
};

/* A step a search tries: at t, from [s, t) to [t, e), and its p alone. */
struct cp_cand {
	size_t t, e;
	double p;
};

void
cp_opts_default(struct cp_opts *o)
{

	o->threshold = 0.05;
	o->alpha = 0.01;
	o->min_size = 2;
	o->gaps = NULL;
	o->ngaps = 0;
	o->counted = false;
	o->threshold_given = false;
	return;
}

static bool
cp_valid(double v)
{

	return isfinite(v) && v > 0;
}

/*
 * Revision k's sittings: the runs of one sitting, next to each other, are
 * one level, the median of their logs, appended to y; at[i] is run i's.
 */
static void
cp_sittings_of(struct cp_series *ser, size_t k, size_t *at, size_t *ns)
{
	size_t i, j, e = ser->off[k + 1];

	ser->soff[k] = *ns;
	for (i = ser->off[k]; i < e; i = j) {
		for (j = i; j < e && ser->sid[j] == ser->sid[i]; j++) {
			ser->tmp[j - i] = ser->x[j];
			at[j] = *ns;
		}
		ser->ysid[*ns] = ser->sid[i];
		ser->y[(*ns)++] = stats_select_median(ser->tmp, j - i);
	}
	ser->soff[k + 1] = *ns;
	return;
}

/*
 * The least a sitting's level varies: the median of its runs, each as far
 * from it as the runs of every sitting are from theirs (1.4826 MAD), has
 * 1.2533 / sqrt(runs a sitting) of their sd. Sittings that happen to
 * agree never make a step out of a run-to-run wobble.
 */
static double
cp_level_floor(const struct cp_series *ser, const size_t *at)
{
	size_t i, runs = ser->off[ser->n], ns = ser->soff[ser->n];

	for (i = 0; i < runs; i++)
		ser->tmp[i] = fabs(ser->x[i] - ser->y[at[i]]);
	return 1.4826 * stats_select_median(ser->tmp, runs) * 1.2533 /
	    sqrt((double)runs / (double)ns);
}

/*
 * The sd of normal gaps from the smallest keep of n of their absolute
 * values (sorted): their mean square over E[Z^2; |Z| < c] / q, where q =
 * keep / n and c its two-sided quantile. The largest fifth left out are
 * where steps and single noisy sittings sit.
 */
static double
cp_trimmed_sd(const double *sorted, size_t n, size_t *keep)
{
	double ss = 0, q, c, e;
	size_t i;

	*keep = n - n / 5;
	for (i = 0; i < *keep; i++)
		ss += sorted[i] * sorted[i];
	q = (double)*keep / (double)n;
	if (*keep == n)
		return sqrt(ss / (double)n);
	c = stats_norm_quantile((1 + q) / 2);
	e = q - 2 * c * exp(-c * c / 2) / sqrt(2 * M_PI);
	return sqrt(ss / (double)*keep * q / e);
}

/*
 * The sd of a sitting's level from n gaps between consecutive sittings (d
 * is made their absolute values, sorted), and its degrees of freedom.
 */
static double
cp_sitting_spread(double *d, size_t n, double *df)
{
	size_t i, keep;
	double sd;

	if (n == 0)
		return *df = 0, NAN;
	for (i = 0; i < n; i++)
		d[i] = fabs(d[i]);
	stats_sort(d, n);
	/* A gap of two sittings has twice a level's variance. */
	sd = cp_trimmed_sd(d, n, &keep) / sqrt(2);
	/* Consecutive gaps share a sitting: two thirds of them are free. */
	*df = 2 * (double)keep / 3;
	return sd;
}

/*
 * The sd of a sitting's level, and its degrees of freedom, that a test
 * of [s, t) against [t, e) uses: from the gaps between consecutive
 * sittings of the series and of its machine's other series (cp_opts'),
 * but those that end where the new level begins: that is the step being
 * judged, and a change of the harness moves every cell of that sitting
 * at once. Never under the runs' own floor, which then has their degrees
 * of freedom.
 */
static double
cp_sd(const struct cp_series *ser, size_t t, double *df)
{
	size_t i, k = 0, b = ser->soff[t], ns = ser->soff[ser->n];
	double sd;

	for (i = 1; i < ns; i++)
		if (i != b)
			ser->gap[k++] = ser->y[i] - ser->y[i - 1];
	for (i = 0; i < ser->nother; i++)
		if (ser->other[i].to != ser->ysid[b])
			ser->gap[k++] = ser->other[i].d;
	sd = cp_sitting_spread(ser->gap, k, df);
	if (*df > 0 && sd >= ser->floor)
		return sd;
	/* The runs' floor binds: it is as sure as their MAD (37 %). */
	*df = fmax(*df, 0.37 * (double)(ser->off[ser->n] - ns));
	return *df > 0 ? ser->floor : NAN;
}

static void
cp_series_alloc(struct cp_series *ser, size_t n, size_t runs, size_t other)
{

	ser->rev = rank_alloc(n, sizeof(*ser->rev));
	ser->off = rank_alloc(n + 1, sizeof(*ser->off));
	ser->soff = rank_alloc(n + 1, sizeof(*ser->soff));
	ser->x = rank_alloc(runs, sizeof(*ser->x));
	ser->sid = rank_alloc(runs, sizeof(*ser->sid));
	ser->y = rank_alloc(runs, sizeof(*ser->y));
	ser->ysid = rank_alloc(runs, sizeof(*ser->ysid));
	ser->gap = rank_alloc(runs + other, sizeof(*ser->gap));
	ser->tmp = rank_alloc(runs, sizeof(*ser->tmp));
	ser->n = 0;
	return;
}

static void
cp_series_init(struct cp_series *ser, const struct cp_point *pts, size_t n,
    const struct cp_opts *o)
{
	size_t i, j, runs = 0, ns = 0, *at;

	for (i = 0; i < n; i++)
		for (j = 0; j < pts[i].n; j++)
			runs += cp_valid(pts[i].v[j]);
	cp_series_alloc(ser, n, runs, o->ngaps);
	ser->other = o->gaps;
	ser->nother = o->ngaps;
	at = rank_alloc(runs, sizeof(*at));
	runs = 0;
	for (i = 0; i < n; i++) {
		ser->off[ser->n] = runs;
		for (j = 0; j < pts[i].n; j++) {
			if (!cp_valid(pts[i].v[j]))
				continue;
			ser->sid[runs] = pts[i].sitting ? pts[i].sitting[j] : 0;
			ser->x[runs++] = log(pts[i].v[j]);
		}
		ser->off[ser->n + 1] = runs;
		if (runs == ser->off[ser->n])
			continue;
		cp_sittings_of(ser, ser->n, at, &ns);
		ser->rev[ser->n++] = i;
	}
	ser->off[ser->n] = runs;
	ser->soff[ser->n] = ns;
	ser->floor = ns > 0 ? cp_level_floor(ser, at) : 0;
	free(at);
	return;
}

static void
cp_series_fini(struct cp_series *ser)
{

	free(ser->rev);
	free(ser->off);
	free(ser->soff);
	free(ser->x);
	free(ser->sid);
	free(ser->y);
	free(ser->ysid);
	free(ser->gap);
	free(ser->tmp);
	return;
}

size_t
cp_gaps(const struct cp_point *pts, size_t n, struct cp_gap *g)
{
	struct cp_opts o;
	struct cp_series ser;
	size_t i;

	cp_opts_default(&o);
	cp_series_init(&ser, pts, n, &o);
	for (i = 0; i + 1 < ser.soff[ser.n]; i++) {
		g[i].d = ser.y[i + 1] - ser.y[i];
		g[i].to = ser.ysid[i + 1];
	}
	cp_series_fini(&ser);
	return i;
}

/* The median of the pooled runs of revisions [s, e), as a value. */
static double
cp_median(const struct cp_series *ser, size_t s, size_t e)
{
	size_t i, n = ser->off[e] - ser->off[s];

	for (i = 0; i < n; i++)
		ser->tmp[i] = exp(ser->x[ser->off[s] + i]);
	return stats_select_median(ser->tmp, n);
}

/* b against a, logs: the ratio, its interval and p of a step. */
static void
cp_test(const double *a, size_t na, const double *b, size_t nb, double alpha,
    struct cp_step *st)
{
	struct rank_test r;

	rank_compare(a, na, b, nb, NAN, alpha, &r);
	st->exact = false;		/* a test's step; cp_exact_steps' are */
	st->ratio = exp(r.shift);
	st->lo = exp(r.lo);
	st->hi = exp(r.hi);
	st->p = r.p;
	return;
}

/*
 * The sittings of revisions [t, e) against those of [s, t): the
 * difference of their mean levels, its standard error by the series'
 * sitting sd, and the two-sided normal p of it. Runs of one sitting share
 * what moved the machine that day, so a step must stand out from the
 * spread between sittings, not only from the runs'.
 */
static double
cp_sitting_p(const struct cp_series *ser, size_t s, size_t t, size_t e,
    double *d, double *se)
{
	size_t i, a = ser->soff[s], b = ser->soff[t], c = ser->soff[e];
	double ma = 0, mb = 0, df;

	for (i = a; i < b; i++)
		ma += ser->y[i] / (double)(b - a);
	for (i = b; i < c; i++)
		mb += ser->y[i] / (double)(c - b);
	*d = mb - ma;
	*se = cp_sd(ser, t, &df) * sqrt(1.0 / (double)(b - a) +
	    1.0 / (double)(c - b));
	if (!isfinite(*se))
		return 1;
	if (*se == 0)
		return *d == 0 ? 1 : 0;
	return 2 * stats_t_upper(fabs(*d) / *se, df);
}

/*
 * The runs of revisions [t, e) against those of [s, t): a step at t. Its
 * p is the larger of the runs' rank-sum p and the sittings' (each must
 * hold), its interval the runs' widened to the sittings' where that is
 * wider.
 */
static void
cp_judge(const struct cp_series *ser, size_t s, size_t t, size_t e,
    double alpha, struct cp_step *st)
{
	const double *x = ser->x;
	size_t a = ser->off[s], b = ser->off[t], c = ser->off[e];
	double d, se, p = cp_sitting_p(ser, s, t, e, &d, &se), z;

	cp_test(x + a, b - a, x + b, c - b, alpha, st);
	st->p = fmax(st->p, p);
	if (isfinite(se)) {
		z = stats_norm_quantile(1 - alpha / 2);
		st->lo = fmin(st->lo, exp(d - z * se));
		st->hi = fmax(st->hi, exp(d + z * se));
	}
	st->s_before = ser->soff[t] - ser->soff[s];
	st->s_after = ser->soff[e] - ser->soff[t];
	st->at = t;
	st->before = cp_median(ser, s, t);
	st->after = cp_median(ser, t, e);
	st->n_before = t - s;
	st->n_after = e - t;
	st->confirmed = true;
	return;
}

/*
 * The p of the step cp_judge would give, to the bit, without its shift:
 * a search ranks its candidates by p, and the shift's sort of every
 * difference between the sides is most of what a test costs.
 */
static double
cp_p(const struct cp_series *ser, size_t s, size_t t, size_t e)
{
	const double *x = ser->x;
	size_t a = ser->off[s], b = ser->off[t], c = ser->off[e];
	struct rank_test r;
	double d, se;

	rank_test_p(x + a, b - a, x + b, c - b, NAN, &r);
	return fmax(r.p, cp_sitting_p(ser, s, t, e, &d, &se));
}

/* Smaller p, then the larger shift; an equal one keeps the earlier. */
static bool
cp_better(const struct cp_step *a, const struct cp_step *b)
{

	if (a->p != b->p)
		return a->p < b->p;
	return fabs(log(a->ratio)) > fabs(log(b->ratio));
}

static bool
cp_big(const struct cp_step *st, double threshold)
{

	return fabs(st->ratio - 1) >= threshold;
}

static bool
cp_passes(const struct cp_step *st, double level, double threshold)
{

	return st->p < level && cp_big(st, threshold);
}

/* No step yet: anything a test gives is better. */
static void
cp_none(struct cp_step *st)
{

	st->p = INFINITY;
	st->ratio = 1;
	st->exact = false;
	return;
}

/*
 * The best of the n candidates from s, as judging each in turn and keeping
 * the better (cp_better) picks it: only a candidate whose p equals the
 * smallest can win, so only those are judged, their shifts breaking the
 * tie. None when no p is a number.
 */
static void
cp_pick(const struct cp_series *ser, size_t s, const struct cp_cand *cd,
    size_t n, double alpha, struct cp_step *best)
{
	struct cp_step st;
	double p = INFINITY;
	size_t i;

	for (i = 0; i < n; i++)
		if (cd[i].p < p)
			p = cd[i].p;
	cp_none(best);
	for (i = 0; i < n; i++) {
		if (cd[i].p != p)
			continue;
		cp_judge(ser, s, cd[i].t, cd[i].e, alpha, &st);
		if (cp_better(&st, best))
			*best = st;
	}
	return;
}

/*
 * The runs of revisions [s, e) but r's into tmp, in order; how many of
 * them come before t.
 */
static size_t
cp_without(const struct cp_series *ser, size_t s, size_t t, size_t e,
    size_t r)
{
	size_t i, k = 0, before = 0;

	for (i = ser->off[s]; i < ser->off[e]; i++) {
		if (i >= ser->off[r] && i < ser->off[r + 1])
			continue;
		before += i < ser->off[t];
		ser->tmp[k++] = ser->x[i];
	}
	return before;
}

/*
 * No one revision carries the step at t, from [s, t) to [t, e): without
 * any one of the m revisions either side of it, it still passes, the same
 * way. One noisy commit in a side of two revisions is half its runs, and
 * the median of the differences then falls in the gap between the two; a
 * level of one revision (m of 1) is what the caller asked for.
 */
static bool
cp_persists(const struct cp_series *ser, const struct cp_step *st, size_t s,
    size_t e, size_t m, double level, const struct cp_opts *o)
{
	size_t t = st->at, r, na, nb;
	struct rank_test alone;
	struct cp_step w;

	for (r = t - m; m > 1 && r < t + m; r++) {
		na = cp_without(ser, s, t, e, r);
		nb = ser->off[e] - ser->off[s] - (ser->off[r + 1] -
		    ser->off[r]) - na;
		/* A p that fails needs no shift to fail. */
		rank_test_p(ser->tmp, na, ser->tmp + na, nb, NAN, &alone);
		if (!(alone.p < level))
			return false;
		cp_test(ser->tmp, na, ser->tmp + na, nb, o->alpha, &w);
		if (!cp_passes(&w, level, o->threshold) ||
		    (w.ratio > 1) != (st->ratio > 1))
			return false;
	}
	return true;
}

/* The right side's widths: m, 2m, 4m, ... then all that is left. */
static size_t
cp_wider(size_t w, size_t rest)
{

	if (w == rest)
		return rest + 1;
	return 2 * w < rest ? 2 * w : rest;
}

/*
 * The candidates of a split of [s, e): the left side from s to t, the
 * right one m, 2m, 4m ... revisions on from t, or to e. Counts them with
 * cd NULL, else writes each with its p.
 */
static size_t
cp_candidates(const struct cp_series *ser, size_t s, size_t e, size_t m,
    struct cp_cand *cd)
{
	size_t t, w, n = 0;

	for (t = s + m; t + m <= e; t++)
		for (w = m; w <= e - t; w = cp_wider(w, e - t), n++) {
			if (cd == NULL)
				continue;
			cd[n].t = t;
			cd[n].e = t + w;
			cd[n].p = cp_p(ser, s, t, t + w);
		}
	return n;
}

/*
 * Binary segmentation of [s, e): the best of cp_candidates, if it passes
 * with Bonferroni over them and persists; the cuts are appended in order.
 */
static void
cp_split(const struct cp_series *ser, size_t s, size_t e, size_t m,
    const struct cp_opts *o, struct cp_cuts *c)
{
	struct cp_cand *cd;
	struct cp_step best;
	size_t tried;
	double level;

	cd = rank_alloc(cp_candidates(ser, s, e, m, NULL), sizeof(*cd));
	tried = cp_candidates(ser, s, e, m, cd);
	cp_pick(ser, s, cd, tried, o->alpha, &best);
	free(cd);
	if (tried == 0)
		return;
	level = o->alpha / (double)tried;
	if (!cp_passes(&best, level, o->threshold) ||
	    !cp_persists(ser, &best, s, best.at + best.n_after, m, level, o))
		return;
	cp_split(ser, s, best.at, m, o, c);
	c->at[c->n++] = best.at;
	cp_split(ser, best.at, e, m, o, c);
	return;
}

/* Cut i's segments: from the cut before it, or 0, to the one after. */
static void
cp_around(const struct cp_series *ser, const struct cp_cuts *c, size_t i,
    size_t *s, size_t *e)
{

	*s = i > 0 ? c->at[i - 1] : 0;
	*e = i + 1 < c->n ? c->at[i + 1] : ser->n;
	return;
}

/* The cut whose p fails most (the first of equals); n when none fails. */
static size_t
cp_failing(const struct cp_step *st, size_t n, double alpha)
{
	size_t i, w = n;

	for (i = 0; i < n; i++)
		if (st[i].p >= alpha && (w == n || st[i].p > st[w].p))
			w = i;
	return w;
}

/*
 * The step to drop: the largest p if it fails; else, of those under
 * the threshold, the smallest shift; n when every one passes.
 */
static size_t
cp_weakest(const struct cp_step *st, size_t n, const struct cp_opts *o)
{
	size_t i, w = cp_failing(st, n, o->alpha);

	if (w < n)
		return w;
	for (i = 0; i < n; i++)
		if (!cp_big(&st[i], o->threshold) && (w == n ||
		    fabs(log(st[i].ratio)) < fabs(log(st[w].ratio))))
			w = i;
	return w;
}

/*
 * Cut i between its neighbours: its p alone into st[i].p, or, whole,
 * judged in full, which full[i] then says: the shifts are wanted only
 * once no cut's p fails.
 */
static void
cp_rejudge(const struct cp_series *ser, const struct cp_cuts *c, size_t i,
    bool whole, double alpha, struct cp_step *st, bool *full)
{
	size_t s, e;

	cp_around(ser, c, i, &s, &e);
	if (whole)
		cp_judge(ser, s, c->at[i], e, alpha, &st[i]);
	else
		st[i].p = cp_p(ser, s, c->at[i], e);
	full[i] = whole;
	return;
}

/*
 * Drops the weakest failing cut until every one holds; st as judged. A
 * cut's judgement depends on its neighbours alone, so a drop judges again
 * only the two beside it, and only their p until no p fails.
 */
static void
cp_merge(const struct cp_series *ser, struct cp_cuts *c,
    const struct cp_opts *o, struct cp_step *st)
{
	bool *full = rank_alloc(c->n, sizeof(*full));
	size_t i, w;

	for (i = 0; i < c->n; i++)
		cp_rejudge(ser, c, i, false, o->alpha, st, full);
	for (;;) {
		if ((w = cp_failing(st, c->n, o->alpha)) == c->n) {
			for (i = 0; i < c->n; i++)
				if (!full[i])
					cp_rejudge(ser, c, i, true, o->alpha,
					    st, full);
			if ((w = cp_weakest(st, c->n, o)) == c->n)
				break;
		}
		c->n--;
		memmove(c->at + w, c->at + w + 1, (c->n - w) * sizeof(*c->at));
		memmove(st + w, st + w + 1, (c->n - w) * sizeof(*st));
		memmove(full + w, full + w + 1, (c->n - w) * sizeof(*full));
		for (i = w > 0 ? w - 1 : 0; i <= w && i < c->n; i++)
			cp_rejudge(ser, c, i, false, o->alpha, st, full);
	}
	free(full);
	return;
}


/*
 * The newest k < m revisions against the level before them, from
 * revision from, where that level has m revisions at least: the best k
 * (the earliest of equals), if it passes at alpha with Bonferroni over
 * them: the sittings' test holds it to the spread between sittings, which
 * the runs alone, pooled, never saw.
 */
static bool
cp_newest(const struct cp_series *ser, size_t from, size_t m,
    const struct cp_opts *o, struct cp_step *out)
{
	struct cp_cand *cd = rank_alloc(m, sizeof(*cd));
	struct cp_step best;
	size_t k, tried = 0;

	for (k = m - 1; k > 0; k--) {
		if (from + m + k > ser->n)
			continue;
		cd[tried].t = ser->n - k;
		cd[tried].e = ser->n;
		cd[tried++].p = cp_p(ser, from, ser->n - k, ser->n);
	}
	cp_pick(ser, from, cd, tried, o->alpha, &best);
	free(cd);
	if (tried == 0 || !cp_passes(&best, o->alpha /
	    (double)tried, o->threshold))
		return false;
	best.confirmed = false;
	*out = best;
	return true;
}

/*
 * Revision p's valid runs: how many, the first one's count into *v, and
 * whether every one counts the same.
 */
static size_t
cp_count(const struct cp_point *p, double *v, bool *alike)
{
	size_t j, k = 0;

	*alike = true;
	for (j = 0; j < p->n; j++) {
		if (!cp_valid(p->v[j]))
			continue;
		if (k++ == 0)
			*v = p->v[j];
		else if (p->v[j] != *v)
			*alike = false;
	}
	return k;
}

/* An exact series: each revision with runs has two or more, alike. */
static bool
cp_exact(const struct cp_point *pts, size_t n)
{
	size_t i, k, revs = 0;
	bool alike;
	double v;

	for (i = 0; i < n; i++) {
		if ((k = cp_count(&pts[i], &v, &alike)) == 1 || !alike)
			return false;
		revs += k > 0;
	}
	return revs > 0;
}

/*
 * Revisions [s, e): how many have runs, and their sittings into *ns (the
 * runs of one sitting next to each other in a revision are one).
 */
static size_t
cp_segment(const struct cp_point *pts, size_t s, size_t e, size_t *ns)
{
	size_t i, j, revs = 0, before;
	long long id, last = 0;

	for (*ns = 0, i = s; i < e; i++) {
		before = *ns;
		for (j = 0; j < pts[i].n; j++) {
			if (!cp_valid(pts[i].v[j]))
				continue;
			id = pts[i].sitting != NULL ? pts[i].sitting[j] : 0;
			*ns += *ns == before || id != last;
			last = id;
		}
		revs += *ns > before;
	}
	return revs;
}

/*
 * An exact series' steps: where a revision's count leaves the level (the
 * count the last step came to, or the first revision's), past the
 * threshold when one was given. The first max, in order; how many.
 */
static size_t
cp_exact_steps(const struct cp_point *pts, size_t n,
    const struct cp_opts *o, struct cp_step *steps, size_t max)
{
	size_t *at = rank_alloc(n + 1, sizeof(*at)), i, k = 0, s, e;
	double level = NAN, v = NAN;
	bool alike;

	for (i = 0; i < n; i++) {
		if (cp_count(&pts[i], &v, &alike) == 0)
			continue;
		if (isnan(level))
			level = v;
		if (v == level || (o->threshold_given && fabs(v / level - 1) <
		    o->threshold))
			continue;
		if (k < max)
			steps[k] = (struct cp_step){ .at = i,
			    .ratio = v / level, .lo = v / level,
			    .hi = v / level, .p = 0, .before = level,
			    .after = v, .confirmed = true, .exact = true };
		at[k++] = i;
		level = v;
	}
	for (i = 0; i < k && i < max; i++) {
		s = i > 0 ? at[i - 1] : 0;
		e = i + 1 < k ? at[i + 1] : n;
		steps[i].n_before = cp_segment(pts, s, at[i],
		    &steps[i].s_before);
		steps[i].n_after = cp_segment(pts, at[i], e, &steps[i].s_after);
	}
	free(at);
	return i;
}

size_t
cp_find(const struct cp_point *pts, size_t n, const struct cp_opts *o,
    struct cp_step *steps, size_t max)
{
	size_t m = o->min_size > 0 ? o->min_size : 1, i, k;
	struct cp_series ser;
	struct cp_cuts c;
	struct cp_step *st;

	if (o->counted && cp_exact(pts, n))
		return cp_exact_steps(pts, n, o, steps, max);
	/* Longer than the series finds nothing, and s + m cannot wrap. */
	m = m > n ? n + 1 : m;
	cp_series_init(&ser, pts, n, o);
	c.at = rank_alloc(ser.n, sizeof(*c.at));
	c.n = 0;
	st = rank_alloc(ser.n + 1, sizeof(*st));
	cp_split(&ser, 0, ser.n, m, o, &c);
	cp_merge(&ser, &c, o, st);
	k = c.n + cp_newest(&ser, c.n > 0 ? c.at[c.n - 1] : 0, m, o,
	    &st[c.n]);
	for (i = 0; i < k && i < max; i++) {
		steps[i] = st[i];
		steps[i].at = ser.rev[st[i].at];
	}
	free(c.at);
	free(st);
	cp_series_fini(&ser);
	return i;
}

/* The median of a[0..n) (scratch: tmp), NAN for none. */
static double
cp_mid(const double *a, size_t n, double *tmp)
{

	if (n == 0)
		return NAN;
	memcpy(tmp, a, n * sizeof(*a));
	return stats_select_median(tmp, n);
}

/* The squares of m[0..n) about its median. */
static double
cp_rss_flat(const double *m, size_t n, double *tmp)
{
	double mid = cp_mid(m, n, tmp), rss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		rss += (m[i] - mid) * (m[i] - mid);
	return rss;
}

/*
 * Theil-Sen's line through m[0..n) against 0..n-1: its slope (the median
 * of every two points'), and into *rss the squares about it (its
 * intercept the median of m[i] - slope i). tmp holds n (n - 1) / 2.
 */
static double
cp_theil_sen(const double *m, size_t n, double *tmp, double *rss)
{
	size_t i, j, k = 0;
	double b, a;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			tmp[k++] = (m[j] - m[i]) / (double)(j - i);
	b = stats_select_median(tmp, k);
	for (i = 0; i < n; i++)
		tmp[i] = m[i] - b * (double)i;
	a = stats_select_median(tmp, n);
	for (*rss = 0, i = 0; i < n; i++)
		*rss += (m[i] - a - b * (double)i) * (m[i] - a - b * (double)i);
	return b;
}

/*
 * Mann-Kendall's two-sided p of a trend in m[0..n): S, the signs of every
 * later-minus-earlier pair, against its variance n (n - 1) (2n + 5) / 18
 * with continuity; ties left in the variance (conservative).
 */
static double
cp_mann_kendall(const double *m, size_t n)
{
	double s = 0, var = (double)n * (double)(n - 1) * (double)(2 * n + 5) /
	    18;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			s += (m[j] > m[i]) - (m[j] < m[i]);
	if (var <= 0 || fabs(s) <= 1)
		return 1;
	return fmin(1, 2 * stats_norm_upper((fabs(s) - 1) / sqrt(var)));
}

/* BIC of a fit of n medians: its squares (floored), its parameters. */
static double
cp_bic(double rss, size_t n, size_t params, double floor)
{

	return (double)n * log(fmax(rss, (double)n * floor) / (double)n) +
	    (double)params * log((double)n);
}

/*
 * The squares of the levels of m[0..e) cut at the cuts before e (at[0..k),
 * indices of m), and how many of them there are into *used.
 */
static double
cp_rss_steps(const double *m, size_t e, const size_t *at, size_t k,
    double *tmp, size_t *used)
{
	size_t i, s = 0;
	double rss = 0;

	for (*used = 0, i = 0; i < k && at[i] < e; i++, (*used)++) {
		rss += cp_rss_flat(m + s, at[i] - s, tmp);
		s = at[i];
	}
	return rss + cp_rss_flat(m + s, e - s, tmp);
}

/* The series' revision that input revision r is, or ser->n. */
static size_t
cp_rev_of(const struct cp_series *ser, size_t r)
{
	size_t i;

	for (i = 0; i < ser->n && ser->rev[i] != r; i++)
		;
	return i;
}

/*
 * The start of the best drift in m[0..v): the one whose line from it on,
 * beside the steps before it (at[0..k)), scores least; its score into
 * *best, the starts tried into *tried.
 */
static size_t
cp_drift_start(const double *m, size_t v, const size_t *at, size_t k,
    double lv, double *tmp, double *best, size_t *tried)
{
	size_t s, from = 0, used = 0;
	double rss, line, bic;

	*best = INFINITY;
	for (s = 0, *tried = 0; s + CP_DRIFT_MIN <= v; s++, (*tried)++) {
		rss = s > 0 ? cp_rss_steps(m, s, at, k, tmp, &used) : 0;
		(void)cp_theil_sen(m + s, v - s, tmp, &line);
		/* The line's two; before it its start, levels and steps. */
		bic = cp_bic(rss + line, v, s > 0 ? 2 * used + 4 : 2, lv);
		if (bic < *best) {
			*best = bic;
			from = s;
		}
	}
	return from;
}

size_t
cp_drift(const struct cp_point *pts, size_t n, const struct cp_opts *o,
    struct cp_step *steps, size_t nsteps, struct cp_drift *d)
{
	struct cp_series ser;
	double *m, *tmp, best, line, b, stepped;
	size_t *at, i, k, used, from, tried, v;

	memset(d, 0, sizeof(*d));
	if (n < CP_DRIFT_MIN || (o->counted && cp_exact(pts, n)))
		return nsteps;
	cp_series_init(&ser, pts, n, o);
	if ((v = ser.n) < CP_DRIFT_MIN) {
		cp_series_fini(&ser);
		return nsteps;
	}
	m = rank_alloc(v, sizeof(*m));
	tmp = rank_alloc(v * v / 2 + ser.off[v], sizeof(*tmp));
	at = rank_alloc(nsteps + 1, sizeof(*at));
	for (i = 0; i < v; i++)
		m[i] = cp_mid(ser.x + ser.off[i], ser.off[i + 1] - ser.off[i],
		    tmp);
	for (k = 0; k < nsteps; k++)
		at[k] = cp_rev_of(&ser, steps[k].at);
	stepped = cp_bic(cp_rss_steps(m, v, at, nsteps, tmp, &used), v,
	    2 * nsteps + 1, ser.floor * ser.floor);
	from = cp_drift_start(m, v, at, nsteps, ser.floor * ser.floor, tmp,
	    &best, &tried);
	b = cp_theil_sen(m + from, v - from, tmp, &line);
	*d = (struct cp_drift){ .from = ser.rev[from], .to = ser.rev[v - 1],
	    .n = v - from, .slope = exp(b), .total = exp(b * (double)(v -
	    from - 1)), .p = cp_mann_kendall(m + from, v - from) };
	d->found = best < stepped && d->p < o->alpha / (double)tried &&
	    fabs(d->total - 1) >= o->threshold;
	for (k = 0; k < nsteps && at[k] < from; k++)
		;
	if (d->found) {
		d->steps = nsteps - k;
		nsteps = k;
	}
	free(at);
	free(tmp);
	free(m);
	cp_series_fini(&ser);
	return nsteps;
}
