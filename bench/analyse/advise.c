/*
 * advise.c - a pool size from measured rows (see advise.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "export.h"
#include "results.h"
#include "runfields.h"
#include "table.h"

/* No run of it failed, and no run of the load's starved a coroutine. */
static bool
advise_clean(const struct advise_row *r)
{

	return r->starving == 0 && r->failed == 0;
}

static bool
advise_meets(const struct advise_row *r, const struct advise_target *t)
{

	if (t->rate > 0 && !(r->capacity >= t->rate))
		return false;
	if (t->p99_us > 0 && !(r->p99_us <= t->p99_us))
		return false;
	return true;
}

static bool
advise_targeted(const struct advise_target *t)
{

	return t->rate > 0 || t->p99_us > 0;
}

/*
 * How far r is from t: the larger of the rate over the capacity and the
 * p99 over its bound; at most 1 when r meets t, infinite when unmeasured.
 */
static double
advise_gap(const struct advise_row *r, const struct advise_target *t)
{
	double g = 0;

	if (t->rate > 0)
		g = r->capacity > 0 ? t->rate / r->capacity : INFINITY;
	if (t->p99_us > 0)
		g = fmax(g, isfinite(r->p99_us) ? r->p99_us / t->p99_us :
		    INFINITY);
	return g;
}

/* The widest eligible row before i, or -1. */
static int
advise_before(const struct advise_row *rows, int i)
{

	while (--i >= 0)
		if (advise_clean(&rows[i]))
			return i;
	return -1;
}

/*
 * The clean row of least resume-only cost, no coroutine starved in its
 * cost sweep either: what a price is a multiple of.
 */
static int
advise_cheapest(const struct advise_row *rows, size_t n)
{
	int best = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (advise_clean(&rows[i]) && rows[i].cost_starving == 0 &&
		    isfinite(rows[i].cpu_us) && (best < 0 ||
		    rows[i].cpu_us < rows[best].cpu_us))
			best = (int)i;
	return best;
}

/*
 * Of rows that meet t, the one whose whole pool burns the least CPU an op
 * at the target, the first on a tie: an unmeasured (NAN) cost never
 * displaces the first. -1 if none meets t.
 */
static int
advise_least_at_target(const struct advise_row *rows, size_t n,
    const struct advise_target *t)
{
	int best = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (advise_clean(&rows[i]) && advise_meets(&rows[i], t) &&
		    (best < 0 || rows[i].target_cpu_us_op <
		    rows[best].target_cpu_us_op))
			best = (int)i;
	return best;
}

static void
advise_targets(const struct advise_row *rows, size_t n,
    const struct advise_target *t, struct advise_pick *p)
{
	double best = INFINITY;
	size_t i;

	for (i = 0; i < n && p->smallest < 0; i++)
		if (advise_clean(&rows[i]) && advise_meets(&rows[i], t))
			p->smallest = (int)i;
	if (p->smallest >= 0) {
		p->kind = ADVISE_TARGET;
		p->row = advise_least_at_target(rows, n, t);
		p->support = advise_before(rows, p->smallest);
		return;
	}
	/* Unmet: the clean row that came closest, and one set aside that met. */
	p->kind = ADVISE_UNMET;
	for (i = 0; i < n; i++) {
		if (!advise_clean(&rows[i])) {
			if (p->aside_meets < 0 && advise_meets(&rows[i], t))
				p->aside_meets = (int)i;
			continue;
		}
		if (advise_gap(&rows[i], t) < best) {
			best = advise_gap(&rows[i], t);
			p->support = (int)i;
		}
	}
	return;
}

static void
advise_knee(const struct advise_row *rows, size_t n, struct advise_pick *p)
{
	double best = -1;
	int b = -1, last = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!advise_clean(&rows[i]))
			continue;
		last = (int)i;
		if (rows[i].capacity > best) {
			best = rows[i].capacity;
			b = (int)i;
		}
	}
	if (b < 0) {
		p->kind = ADVISE_UNMET;
		return;
	}
	for (i = 0; i < n && p->row < 0; i++)
		if (advise_clean(&rows[i]) &&
		    rows[i].capacity >= ADVISE_KNEE_SHARE * best)
			p->row = (int)i;
	p->kind = ADVISE_KNEE;
	p->support = b;
	/* Every narrower width is short of the best: still growing. */
	if (p->row == last && advise_before(rows, last) >= 0) {
		p->kind = ADVISE_NO_KNEE;
		p->support = advise_before(rows, last);
	}
	return;
}

void
advise_choose(const struct advise_row *rows, size_t n,
    const struct advise_target *t, struct advise_pick *p)
{
	size_t i;

	*p = (struct advise_pick){ .row = -1, .smallest = -1, .support = -1,
	    .aside_meets = -1, .split = -1,
	    .cheapest = advise_cheapest(rows, n) };
	for (i = 0; i < n; i++)
		p->set_aside += !advise_clean(&rows[i]);
	if (advise_targeted(t))
		advise_targets(rows, n, t, p);
	else
		advise_knee(rows, n, p);
	return;
}

/*
 * Whether the split sp burns less CPU an op in all, hops included, than
 * the single pool one (a split saves on every non-blocking dispatch and
 * pays two hops a blocking call): at the target where both were measured
 * there, else flat out under the load. NAN never compares less.
 */
static bool
advise_split_cheaper(const struct advise_row *sp, const struct advise_row *one)
{

	if (isfinite(sp->target_cpu_us_op) && isfinite(one->target_cpu_us_op))
		return sp->target_cpu_us_op < one->target_cpu_us_op;
	return sp->load_cpu_us_op < one->load_cpu_us_op;
}

/* Without a target: the clean split whose view is as wide as p's pick. */
static int
advise_split_as_wide(const struct advise_rows *r, const struct advise_pick *p)
{
	const struct advise_row *s;
	size_t i;

	for (i = 0; i < r->nsplit; i++) {
		s = &r->split[i];
		if (advise_clean(s) &&
		    p->row >= 0 && s->view == r->single[p->row].workers)
			return (int)i;
	}
	return -1;
}

void
advise_choose_all(const struct advise_rows *r, const struct advise_target *t,
    struct advise_pick *p)
{

	advise_choose(r->single, r->n, t, p);
	p->split = advise_targeted(t) ? advise_least_at_target(r->split,
	    r->nsplit, t) : advise_split_as_wide(r, p);
	p->split_better = p->split >= 0 && (p->row < 0 ||
	    advise_split_cheaper(&r->split[p->split], &r->single[p->row]));
	return;
}

/* Appends to buf as snprintf does, never past len. */
static __attribute__((format(printf, 4, 5))) void
advise_add(char *buf, size_t len, size_t *k, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*k >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *k, len - *k, fmt, ap);
	va_end(ap);
	*k += w > 0 ? (size_t)w : 0;
	return;
}

static const char *
advise_width(unsigned int w, char *buf, size_t len)
{

	snprintf(buf, len, w == 0 ? "inf" : "%u", w);
	return buf;
}

/* "capacity 1234 ops/s" and "p99 5.2 ms", as far as the targets ask. */
static void
advise_figures(const struct advise_row *r, const struct advise_target *t,
    char *buf, size_t len)
{
	char a[32];
	size_t k = 0;

	buf[0] = '\0';
	if (t->rate > 0 || t->p99_us <= 0)
		advise_add(buf, len, &k, "capacity %.0f ops/s", r->capacity);
	if (t->p99_us > 0 || isfinite(r->p99_us))
		advise_add(buf, len, &k, "%sp99 %s ms", k ? ", " : "",
		    table_sig3(r->p99_us * 1e-3, a, sizeof(a)));
	return;
}

/* What r lacks of t: "capacity 3127 ops/s, 37 % under 5000". */
static void
advise_lack(const struct advise_row *r, const struct advise_target *t,
    char *buf, size_t len)
{
	char a[32], b[32];
	size_t k = 0;

	buf[0] = '\0';
	if (t->rate > 0 && !(r->capacity >= t->rate))
		advise_add(buf, len, &k, "capacity %.0f ops/s, %.0f %% under "
		    "%.0f", r->capacity, (1 - r->capacity / t->rate) * 100,
		    t->rate);
	if (t->p99_us > 0 && !(r->p99_us <= t->p99_us))
		advise_add(buf, len, &k, "%sp99 %s ms, over %s", k ? "; " : "",
		    table_sig3(r->p99_us * 1e-3, a, sizeof(a)),
		    table_sig3(t->p99_us * 1e-3, b, sizeof(b)));
	return;
}

/* " Set aside, never recommended: N=16 (a coroutine starved ...), ...". */
static void
advise_aside(const struct advise_row *rows, size_t n, char *buf, size_t len,
    size_t *k)
{
	char w[16];
	size_t i;

	advise_add(buf, len, k, " Set aside, never recommended:");
	for (i = 0; i < n; i++) {
		if (advise_clean(&rows[i]))
			continue;
		advise_add(buf, len, k, " N=%s (", advise_width(rows[i].workers,
		    w, sizeof(w)));
		if (rows[i].starving > 0)
			advise_add(buf, len, k, "a coroutine made no progress in "
			    "%u of %u runs%s", rows[i].starving, rows[i].runs,
			    rows[i].failed ? ", " : "");
		if (rows[i].failed > 0)
			advise_add(buf, len, k, "%u of %u runs failed",
			    rows[i].failed, rows[i].runs + rows[i].cost_runs +
			    rows[i].target_runs);
		advise_add(buf, len, k, ")");
	}
	advise_add(buf, len, k, ".");
	return;
}

static unsigned int
advise_pow2_above(double v)
{
	unsigned int p = 1;

	while (p < v && p < (1u << 20))
		p *= 2;
	return p;
}

/*
 * What can close a rate no clean width carries: Little's law names the
 * threads it needs, and whether the coroutines, the CPUs or the sweep's
 * widest width is what stops short of them.
 */
static void
advise_rate_remedy(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_load *load,
    const struct advise_sel *s, char *buf, size_t len, size_t *k)
{
	const struct advise_row *widest = &rows[n - 1];
	double need;
	char w[16];

	if (load == NULL || !(load->hold_s > 0)) {
		advise_add(buf, len, k, " Nothing blocks, so width adds no "
		    "capacity: lower the rate, or try another design or queue.");
		return;
	}
	need = t->rate * load->hold_s;
	if (load->cpu_bound && need > s->cpus)
		advise_add(buf, len, k, " No width can: an op computes %.3g ms "
		    "on a CPU, so %u CPUs carry at most %.0f ops/s; lower the "
		    "rate or add CPUs.", load->hold_s * 1e3, s->cpus,
		    s->cpus / load->hold_s);
	else if (need > s->coroutines)
		advise_add(buf, len, k, " Little's law needs %.0f threads busy "
		    "at once, but only %u coroutines are in flight (at most "
		    "%.0f ops/s): run with --coroutines %u or more.", ceil(need),
		    s->coroutines, s->coroutines / load->hold_s,
		    advise_pow2_above(need));
	else if (widest->workers != 0 && need > widest->workers)
		advise_add(buf, len, k, " Little's law needs %.0f threads busy "
		    "at once, more than the widest width measured: measure up "
		    "to --workers %u.", ceil(need), advise_pow2_above(need * 1.25));
	else
		advise_add(buf, len, k, " Little's law needs %.0f threads, which "
		    "N=%s has: its handoffs, not its width, hold it back; try "
		    "another design or queue.", ceil(need),
		    advise_width(widest->workers, w, sizeof(w)));
	return;
}

/* What can close a p99 no clean width keeps: wider, or a looser bound. */
static void
advise_p99_remedy(const struct advise_row *rows, size_t n,
    const struct advise_pick *p, char *buf, size_t len, size_t *k)
{
	const struct advise_row *c = &rows[p->support];
	char a[32], w[16];

	if (p->support == (int)n - 1 && advise_before(rows, p->support) >= 0 &&
	    rows[advise_before(rows, p->support)].p99_us > c->p99_us)
		advise_add(buf, len, k, " The p99 still falls at the widest "
		    "width: measure up to --workers %u.", advise_pow2_above(
		    c->workers * 2.0));
	else
		advise_add(buf, len, k, " No wider width lowers it: the p99 "
		    "bottoms out at %s ms at N=%s; a bound above that can be met.",
		    table_sig3(c->p99_us * 1e-3, a, sizeof(a)),
		    advise_width(c->workers, w, sizeof(w)));
	return;
}

static void
advise_unmet(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p,
    const struct advise_load *load, const struct advise_sel *s, char *buf,
    size_t len, size_t *k)
{
	char w[16], f[128];

	if (p->aside_meets >= 0) {
		advise_figures(&rows[p->aside_meets], t, f, sizeof(f));
		advise_add(buf, len, k, "no width that ran clean meets the "
		    "target: N=%s meets it (%s) but was set aside (below); "
		    "measure again with more --reps to see whether that "
		    "repeats.", advise_width(rows[p->aside_meets].workers, w,
		    sizeof(w)), f);
	}
	if (p->support < 0) {
		advise_add(buf, len, k, "%sno width can be recommended: every "
		    "one failed a run or starved a coroutine under the load.",
		    *k ? " " : "");
		return;
	}
	advise_lack(&rows[p->support], t, f, sizeof(f));
	advise_add(buf, len, k, "%sno width measured meets the target: the "
	    "closest is N=%s (%s).", *k ? " The closest clean one: " : "",
	    advise_width(rows[p->support].workers, w, sizeof(w)), f);
	if (t->rate > 0 && !(rows[p->support].capacity >= t->rate))
		advise_rate_remedy(rows, n, t, load, s, buf, len, k);
	else
		advise_p99_remedy(rows, n, p, buf, len, k);
	return;
}

/*
 * A pick wider than the smallest width that meets t: it meets it too,
 * for less CPU an op at the target; then why not narrower still.
 */
static void
advise_least(const struct advise_row *rows, const struct advise_pick *p,
    const struct advise_target *t, char *buf, size_t len, size_t *k)
{
	const struct advise_row *r = &rows[p->row], *s = &rows[p->smallest];
	char a[32], b[32], wr[16], ws[16], f[128];

	advise_figures(r, t, f, sizeof(f));
	advise_add(buf, len, k, "N=%s meets the target (%s) for the least CPU "
	    "at it: %s us an op, against %s at N=%s, the smallest width that "
	    "meets it", advise_width(r->workers, wr, sizeof(wr)), f,
	    table_sig3(r->target_cpu_us_op, a, sizeof(a)),
	    table_sig3(s->target_cpu_us_op, b, sizeof(b)),
	    advise_width(s->workers, ws, sizeof(ws)));
	if (p->support < 0) {
		advise_add(buf, len, k, " and the narrowest measured.");
		return;
	}
	advise_lack(&rows[p->support], t, f, sizeof(f));
	advise_add(buf, len, k, "; N=%s falls short: %s.", advise_width(
	    rows[p->support].workers, wr, sizeof(wr)), f);
	return;
}

void
advise_reason(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p,
    const struct advise_load *load, const struct advise_sel *s, char *buf,
    size_t len)
{
	const struct advise_row *widest = &rows[n - 1];
	const struct advise_row *r = p->row >= 0 ? &rows[p->row] : NULL;
	const struct advise_row *o = p->support >= 0 ? &rows[p->support] :
	    NULL;
	char wr[16], wo[16], ww[16], fr[128], fo[128];
	size_t k = 0;

	buf[0] = '\0';
	if (r != NULL) {
		advise_width(r->workers, wr, sizeof(wr));
		advise_figures(r, t, fr, sizeof(fr));
	}
	if (o != NULL)
		advise_width(o->workers, wo, sizeof(wo));
	if (p->kind == ADVISE_TARGET && p->row != p->smallest)
		advise_least(rows, p, t, buf, len, &k);
	else if (p->kind == ADVISE_TARGET && o != NULL) {
		advise_lack(o, t, fo, sizeof(fo));
		advise_add(buf, len, &k, "N=%s is the smallest width that meets "
		    "the target (%s); the next narrower, N=%s, falls short: %s.",
		    wr, fr, wo, fo);
	} else if (p->kind == ADVISE_TARGET)
		advise_add(buf, len, &k, "N=%s, the narrowest width measured, "
		    "meets the target (%s).", wr, fr);
	else if (p->kind == ADVISE_UNMET)
		advise_unmet(rows, n, t, p, load, s, buf, len, &k);
	else if (p->kind == ADVISE_KNEE)
		advise_add(buf, len, &k, "N=%s is the smallest width within "
		    "%.0f %% of the best capacity (%.0f of %.0f ops/s at N=%s); "
		    "a dispatch costs %.3g us of CPU there, %.3g at N=%s.", wr,
		    (1 - ADVISE_KNEE_SHARE) * 100, r->capacity, o->capacity, wo,
		    r->cpu_us, widest->cpu_us, advise_width(widest->workers, ww,
		    sizeof(ww)));
	else
		advise_add(buf, len, &k, "no knee: capacity still grows at the "
		    "widest width (%.0f ops/s at N=%s against %.0f at N=%s); "
		    "measure wider.", r->capacity, wr, o->capacity, wo);
	if (r != NULL && r->cost_starving > 0)
		advise_add(buf, len, &k, " Caution: at N=%s a coroutine made no "
		    "progress in %u of %u resume-only runs, so its cost may hide "
		    "a stalled worker.", wr, r->cost_starving, r->cost_runs);
	if (p->set_aside > 0)
		advise_aside(rows, n, buf, len, &k);
	return;
}

/* The CPU cores that us_op us of CPU an op take at rate ops/s. */
static double
advise_cores(double us_op, double rate)
{

	return us_op * rate * 1e-6;
}

typedef double advise_fig_fn(const struct advise_row *);

/* The handoffs' cost: a non-blocking dispatch's, resume-only. */
static double
advise_handoff(const struct advise_row *r)
{

	return r->cpu_us;
}

/* The whole pool's cost: an op's under the load, at its capacity. */
static double
advise_loaded(const struct advise_row *r)
{

	return r->load_cpu_us_op;
}

/* The whole pool's cost at the target: an op's, at about its rate. */
static double
advise_at_target_cost(const struct advise_row *r)
{

	return r->target_cpu_us_op;
}

/* Where a figure starts, turns (-1: it does not) and ends over widths. */
struct advise_span {
	int first, turn, last;
};

/*
 * How fig moves over the clean rows that hold it, into buf: "rises from
 * 0.0322 us at N=1 to 1.34 at N=64", or turning at its least (or else
 * its most) between the ends, "falls from 22 us at N=1 to 5.74 at N=16,
 * then rises to 42.9 at N=64". False, nothing written, if fewer than two
 * rows hold it.
 */
static bool
advise_trend(const struct advise_row *rows, size_t n, advise_fig_fn *fig,
    struct advise_span *sp, char *buf, size_t len, size_t *k)
{
	char a[32], b[32], wa[16], wb[16];
	int i, lo, hi, x;

	sp->first = sp->last = sp->turn = -1;
	for (i = 0; i < (int)n; i++)
		if (advise_clean(&rows[i]) && isfinite(fig(&rows[i]))) {
			sp->first = sp->first < 0 ? i : sp->first;
			sp->last = i;
		}
	if (sp->first == sp->last)
		return false;
	for (lo = hi = i = sp->first; i <= sp->last; i++) {
		if (!advise_clean(&rows[i]) || !isfinite(fig(&rows[i])))
			continue;
		lo = fig(&rows[i]) < fig(&rows[lo]) ? i : lo;
		hi = fig(&rows[i]) > fig(&rows[hi]) ? i : hi;
	}
	if (lo != sp->first && lo != sp->last)
		sp->turn = lo;
	else if (hi != sp->first && hi != sp->last)
		sp->turn = hi;
	x = sp->turn >= 0 ? sp->turn : sp->last;
	advise_add(buf, len, k, "%s from %s us at N=%s to %s at N=%s",
	    fig(&rows[x]) >= fig(&rows[sp->first]) ? "rises" : "falls",
	    table_sig3(fig(&rows[sp->first]), a, sizeof(a)),
	    advise_width(rows[sp->first].workers, wa, sizeof(wa)),
	    table_sig3(fig(&rows[x]), b, sizeof(b)),
	    advise_width(rows[x].workers, wb, sizeof(wb)));
	if (sp->turn >= 0)
		advise_add(buf, len, k, ", then %s to %s at N=%s",
		    fig(&rows[sp->last]) >= fig(&rows[x]) ? "rises" : "falls",
		    table_sig3(fig(&rows[sp->last]), a, sizeof(a)),
		    advise_width(rows[sp->last].workers, wa, sizeof(wa)));
	return true;
}

/*
 * What the whole pool burns at r's width: at the target where it was
 * measured there (and at the smallest width that meets the target when
 * that is another), else flat out at its capacity.
 */
static void
advise_price_pool(const struct advise_row *rows, const struct advise_pick *p,
    const struct advise_target *t, char *buf, size_t len, size_t *k)
{
	const struct advise_row *r = &rows[p->row];
	const struct advise_row *s = p->smallest >= 0 ? &rows[p->smallest] : r;
	char a[32], b[32], w[16];

	if (!isfinite(r->target_cpu_us_op)) {
		advise_add(buf, len, k, "flat out under the load, at its capacity "
		    "of %.0f ops/s, the whole pool burns %s us of CPU an op at "
		    "N=%s, blocking and handoffs included: %s of a CPU core%s. ",
		    r->capacity, table_sig3(r->load_cpu_us_op, a, sizeof(a)),
		    advise_width(r->workers, w, sizeof(w)), table_sig3(
		    advise_cores(r->load_cpu_us_op, r->capacity), b, sizeof(b)),
		    t->rate > 0 ? " (at the target rate it was not measured)" :
		    "");
		return;
	}
	advise_add(buf, len, k, "at the target the whole pool burns %s us of "
	    "CPU an op at N=%s, blocking and handoffs included (measured at "
	    "%.0f ops/s, with the coroutines in flight that the target keeps "
	    "busy): %s of a CPU core at %.0f ops/s", table_sig3(
	    r->target_cpu_us_op, a, sizeof(a)), advise_width(r->workers, w,
	    sizeof(w)), r->target_ops_per_s, table_sig3(advise_cores(
	    r->target_cpu_us_op, t->rate), b, sizeof(b)), t->rate);
	if (s != r)
		advise_add(buf, len, k, "; N=%s, the smallest width that meets "
		    "the target, burns %s us an op there, %s of a core",
		    advise_width(s->workers, w, sizeof(w)),
		    table_sig3(s->target_cpu_us_op, a, sizeof(a)),
		    table_sig3(advise_cores(s->target_cpu_us_op, t->rate), b,
		    sizeof(b)));
	advise_add(buf, len, k, ". ");
	return;
}

/*
 * r's handoffs, resume-only, against those of c, the cheapest width;
 * first: they open the price.
 */
static void
advise_price_handoffs(const struct advise_row *r, const struct advise_row *c,
    double rate, bool first, char *buf, size_t len, size_t *k)
{
	char a[32], b[32], d[32], w[16];

	advise_add(buf, len, k, "%she handoffs alone: a non-blocking dispatch "
	    "(resume-only) costs %s us of CPU at N=%s (%s us an op of %d "
	    "resumptions), %s of a core at %.0f ops/s", first ? "t" : "T",
	    table_sig3(r->cpu_us, a, sizeof(a)),
	    advise_width(r->workers, w, sizeof(w)), table_sig3(r->cpu_us *
	    ADVISE_RESUMES_PER_OP, b, sizeof(b)), ADVISE_RESUMES_PER_OP,
	    table_sig3(advise_cores(r->cpu_us * ADVISE_RESUMES_PER_OP, rate),
	    d, sizeof(d)), rate);
	if (c != r)
		advise_add(buf, len, k, ", %.1fx the %s us at N=%s, the cheapest "
		    "width that ran clean", r->cpu_us / c->cpu_us,
		    table_sig3(c->cpu_us, a, sizeof(a)), advise_width(c->workers,
		    w, sizeof(w)));
	else
		advise_add(buf, len, k, "; no width measured is cheaper");
	advise_add(buf, len, k, ".");
	return;
}

/* The row where sp's trend ends its first leg: its turn, or its last. */
static const struct advise_row *
advise_leg(const struct advise_row *rows, const struct advise_span *sp)
{

	return &rows[sp->turn >= 0 ? sp->turn : sp->last];
}

/*
 * Why the whole pool's cost at the target moves over sp's first leg,
 * when the context switches a dispatch (a thread parking, or woken) move
 * with it.
 */
static void
advise_why_at_target(const struct advise_row *rows,
    const struct advise_span *sp, char *buf, size_t len, size_t *k)
{
	const struct advise_row *f = &rows[sp->first], *x = advise_leg(rows, sp);
	char a[32], b[32];

	if ((x->target_ctxsw > f->target_ctxsw) ==
	    (x->target_cpu_us_op > f->target_cpu_us_op) &&
	    x->target_ctxsw != f->target_ctxsw)
		advise_add(buf, len, k, ", and with it the context switches a "
		    "dispatch (a thread parking, or woken) go from %s to %s",
		    table_sig3(f->target_ctxsw, a, sizeof(a)),
		    table_sig3(x->target_ctxsw, b, sizeof(b)));
	return;
}

/*
 * Why the whole pool's cost flat out moves over sp's first leg: each
 * figure is measured at the width's own capacity, the CPU the pool burns
 * a second over the ops it carries.
 */
static void
advise_why_loaded(const struct advise_row *rows, const struct advise_span *sp,
    char *buf, size_t len, size_t *k)
{
	const struct advise_row *f = &rows[sp->first], *x = advise_leg(rows, sp);
	char a[32], b[32], wf[16], wx[16];

	advise_add(buf, len, k, ": from N=%s to N=%s the ops it carries go from "
	    "%.0f to %.0f a second, the CPU it burns from %s to %s of a core",
	    advise_width(f->workers, wf, sizeof(wf)), advise_width(x->workers,
	    wx, sizeof(wx)), f->capacity, x->capacity, table_sig3(advise_cores(
	    f->load_cpu_us_op, f->capacity), a, sizeof(a)), table_sig3(
	    advise_cores(x->load_cpu_us_op, x->capacity), b, sizeof(b)));
	return;
}

void
advise_growth(const struct advise_row *rows, size_t n, char *buf, size_t len)
{
	char hand[256], at[512], flat[512];
	struct advise_span h, g, l;
	size_t kh = 0, kg = 0, kl = 0, k = 0;

	if (advise_trend(rows, n, advise_handoff, &h, hand, sizeof(hand), &kh) &&
	    h.turn < 0 && rows[h.last].cpu_us > rows[h.first].cpu_us)
		advise_add(hand, sizeof(hand), &kh, " (more workers contending "
		    "for the same work)");
	if (advise_trend(rows, n, advise_at_target_cost, &g, at, sizeof(at),
	    &kg))
		advise_why_at_target(rows, &g, at, sizeof(at), &kg);
	if (advise_trend(rows, n, advise_loaded, &l, flat, sizeof(flat), &kl))
		advise_why_loaded(rows, &l, flat, sizeof(flat), &kl);
	buf[0] = '\0';
	if (kh + kg + kl == 0)
		return;
	advise_add(buf, len, &k, "with width:");
	if (kh > 0)
		advise_add(buf, len, &k, " the handoffs' cost %s.", hand);
	if (kg > 0)
		advise_add(buf, len, &k, " At the target the whole pool's cost an "
		    "op %s.", at);
	if (kl > 0)
		advise_add(buf, len, &k, " Flat out, at each width's own capacity, "
		    "%s %s.", kg > 0 ? "it" : "the whole pool's cost an op", flat);
	return;
}

void
advise_price(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p, char *buf,
    size_t len)
{
	const struct advise_row *r, *c;
	double rate;
	size_t k = 0;

	buf[0] = '\0';
	if (p->row < 0 || (size_t)p->row >= n)
		return;
	r = &rows[p->row];
	c = p->cheapest >= 0 ? &rows[p->cheapest] : r;
	rate = t->rate > 0 ? t->rate : r->capacity;
	advise_add(buf, len, &k, "price: ");
	if (isfinite(r->load_cpu_us_op) || isfinite(r->target_cpu_us_op))
		advise_price_pool(rows, p, t, buf, len, &k);
	advise_price_handoffs(r, c, rate, k == strlen("price: "), buf, len,
	    &k);
	return;
}

/* The clean split of most capacity: the closest when none meets. */
static int
advise_split_closest(const struct advise_rows *r,
    const struct advise_target *t)
{
	double best = INFINITY;
	int b = -1;
	size_t i;

	for (i = 0; i < r->nsplit; i++)
		if (advise_clean(&r->split[i]) && advise_gap(&r->split[i], t) <
		    best) {
			best = advise_gap(&r->split[i], t);
			b = (int)i;
		}
	return b;
}

/*
 * "; each blocking call hops to the view and back: at 3000 ops/s (the
 * target), 1200 blocking calls and 2400 hops a second; at the target an
 * op costs 30.1 us of CPU in all, 24.0 on N=4 alone." The blocking calls
 * an op are the split's own, as measured; the cost is flat out where it
 * was not measured at the target.
 */
static void
advise_split_cost(const struct advise_row *sp, const struct advise_row *one,
    const struct advise_target *t, char *buf, size_t len, size_t *k)
{
	double rate = t->rate > 0 ? t->rate : sp->capacity;
	double calls = sp->hops_per_s / sp->capacity * rate;
	bool at = one != NULL ? isfinite(sp->target_cpu_us_op) &&
	    isfinite(one->target_cpu_us_op) : isfinite(sp->target_cpu_us_op);
	double c = at ? sp->target_cpu_us_op : sp->load_cpu_us_op;
	char a[32], b[32], w[16];

	if (isfinite(calls))
		advise_add(buf, len, k, "; each blocking call hops to the view "
		    "and back: at %.0f ops/s (%s), %s blocking calls and %s hops "
		    "a second", rate, t->rate > 0 ? "the target" : "its capacity",
		    table_sig3(calls, a, sizeof(a)), table_sig3(2 * calls, b,
		    sizeof(b)));
	if (isfinite(c))
		advise_add(buf, len, k, "; %s an op costs %s us of CPU in all",
		    at ? "at the target" : "flat out under the load",
		    table_sig3(c, a, sizeof(a)));
	if (isfinite(c) && one != NULL)
		advise_add(buf, len, k, ", %s on N=%s alone", table_sig3(at ?
		    one->target_cpu_us_op : one->load_cpu_us_op, a, sizeof(a)),
		    advise_width(one->workers, w, sizeof(w)));
	advise_add(buf, len, k, ".");
	return;
}

/* The clean row of rows that carries the most under t's p99; -1: none. */
static int
advise_most(const struct advise_row *rows, size_t n,
    const struct advise_target *t)
{
	const struct advise_target p99 = { 0, t->p99_us };
	int best = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (advise_clean(&rows[i]) && advise_meets(&rows[i], &p99) &&
		    (best < 0 || rows[i].capacity > rows[best].capacity))
			best = (int)i;
	return best;
}

/*
 * Why the split is not the recommendation, one sentence: it costs more
 * at this rate, and whether a rate above what every single width
 * carries needs it (the only rates where the rows say it wins for sure:
 * its cost at other rates was not measured).
 */
static void
advise_split_not(const struct advise_rows *r, const struct advise_target *t,
    const struct advise_row *one, char *buf, size_t len, size_t *k)
{
	int s = advise_most(r->single, r->n, t), v = advise_most(r->split,
	    r->nsplit, t);
	char w[16];

	if (one != NULL)
		advise_add(buf, len, k, " N=%s alone stays the recommendation",
		    advise_width(one->workers, w, sizeof(w)));
	else
		advise_add(buf, len, k, " No split meets the target either");
	if (v < 0)
		advise_add(buf, len, k, ", and no split measured keeps the p99 "
		    "under the bound at any rate.");
	else if (s < 0)
		advise_add(buf, len, k, "; no single width measured keeps the p99 "
		    "under the bound, so the split is the one to use, up to %.0f "
		    "ops/s with a view of %u.", r->split[v].capacity,
		    r->split[v].view);
	else if (r->split[v].capacity <= r->single[s].capacity)
		advise_add(buf, len, k, ", and under this load no rate needs the "
		    "split: every rate a split measured carries (up to %.0f ops/s, "
		    "a view of %u), N=%s alone carries too (%.0f).",
		    r->split[v].capacity, r->split[v].view, advise_width(
		    r->single[s].workers, w, sizeof(w)), r->single[s].capacity);
	else
		advise_add(buf, len, k, "; the split is the one to use above "
		    "%.0f ops/s, the most a single width measured carries, up to "
		    "%.0f with a view of %u.", r->single[s].capacity,
		    r->split[v].capacity, r->split[v].view);
	return;
}

void
advise_split_words(const struct advise_rows *r, const struct advise_target *t,
    const struct advise_pick *p, char *buf, size_t len)
{
	const struct advise_row *one = p->row >= 0 ? &r->single[p->row] : NULL;
	const struct advise_row *sp;
	char a[32], b[32], f[128], w[16];
	int i = p->split >= 0 ? p->split : advise_split_closest(r, t);
	size_t k = 0;

	buf[0] = '\0';
	if (i < 0) {
		if (r->nsplit > 0)
			advise_add(buf, len, &k, "split pool: every split measured "
			    "failed a run or starved a coroutine.");
		return;
	}
	sp = &r->split[i];
	advise_figures(sp, t, f, sizeof(f));
	advise_add(buf, len, &k, "split pool: N=%u for the non-blocking work "
	    "and the blocking call on a view of %u (withContext(Dispatchers.IO)"
	    ") %s (%s) at %s us of CPU a non-blocking dispatch", sp->workers,
	    sp->view, p->split >= 0 ? advise_targeted(t) ? "meets the target" :
	    "carries" : "comes closest of the splits", f,
	    table_sig3(sp->cpu_us, a, sizeof(a)));
	if (one != NULL && sp->cpu_us > 0 && one->cpu_us > 0)
		advise_add(buf, len, &k, ", %.1fx %s than N=%s alone (%s us)",
		    sp->cpu_us < one->cpu_us ? one->cpu_us / sp->cpu_us :
		    sp->cpu_us / one->cpu_us, sp->cpu_us < one->cpu_us ? "less" :
		    "more", advise_width(one->workers, w, sizeof(w)),
		    table_sig3(one->cpu_us, b, sizeof(b)));
	advise_split_cost(sp, one, t, buf, len, &k);
	if (p->split_better)
		advise_add(buf, len, &k, " Recommended: run the non-blocking work "
		    "on N=%u and only the blocking call on a view of %u%s.",
		    sp->workers, sp->view, one == NULL ? ", as no single width "
		    "measured meets the target" : "");
	else
		advise_split_not(r, t, one, buf, len, &k);
	return;
}

static bool
advise_is(const cJSON *cell, const char *field, const char *want)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(cell, field);

	return cJSON_IsString(f) && strcmp(f->valuestring, want) == 0;
}

/* Whether name is one of the comma list's. */
static bool
advise_listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)) != NULL; p += len)
		if ((p == list || p[-1] == ' ') && (p[len] == ',' ||
		    p[len] == '\0'))
			return true;
	return false;
}

static bool
advise_resume(const cJSON *cell)
{

	return advise_is(cell, "workload", "resume") ||
	    results_str(cell, "workload", NULL) == NULL;
}

/* Whether cell is of s's design, queue and coroutines. */
static bool
advise_of(const cJSON *cell, const struct advise_sel *s)
{

	return advise_is(cell, "dispatcher", s->dispatcher) &&
	    advise_is(cell, "queue", s->queue) &&
	    results_num(cell, "coroutines") == s->coroutines &&
	    results_num(cell, "workers") >= 0;
}

/* A cell's view width: 0 for a single pool, and in files that predate it. */
static unsigned int
advise_view(const cJSON *cell)
{
	double v = results_num(cell, "split");

	return v > 0 ? (unsigned int)v : 0;
}

/* Whether cell is one s allows: the named fields only. */
static bool
advise_allows(const cJSON *cell, const struct advise_sel *s)
{

	return (s->dispatcher == NULL || advise_is(cell, "dispatcher",
	    s->dispatcher)) && (s->queue == NULL || advise_is(cell, "queue",
	    s->queue)) && (s->coroutines == 0 || results_num(cell,
	    "coroutines") == s->coroutines);
}

int
advise_select(const cJSON *doc, const char *path, struct advise_sel *s,
    char *err, size_t errlen)
{
	const cJSON *cell, *first = NULL;
	char held[256], one[128];
	size_t k = 0;
	bool many = false;

	held[0] = '\0';
	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		if (!advise_resume(cell) || !advise_allows(cell, s))
			continue;
		if (first == NULL)
			first = cell;
		else if (!advise_is(cell, "dispatcher", results_str(first,
		    "dispatcher", "")) || !advise_is(cell, "queue",
		    results_str(first, "queue", "")) || results_num(cell,
		    "coroutines") != results_num(first, "coroutines"))
			many = true;
		else
			continue;
		snprintf(one, sizeof(one), "%s/%s c=%.0f", results_str(cell,
		    "dispatcher", "?"), results_str(cell, "queue", "?"),
		    results_num(cell, "coroutines"));
		if (!advise_listed(held, one))
			advise_add(held, sizeof(held), &k, "%s%s", k ? ", " : "",
			    one);
	}
	if (first == NULL)
		return snprintf(err, errlen, "advise: %s holds no resume-only "
		    "cell of %s over %s with %u coroutines", path,
		    s->dispatcher ? s->dispatcher : "any design",
		    s->queue ? s->queue : "any queue", s->coroutines), -1;
	if (many)
		return snprintf(err, errlen, "advise: %s holds %s: name one with "
		    "--dispatcher, --queue and --coroutines", path, held), -1;
	s->dispatcher = results_str(first, "dispatcher", "?");
	s->queue = results_str(first, "queue", "?");
	s->coroutines = (unsigned int)results_num(first, "coroutines");
	s->cpus = (unsigned int)fmax(results_num(results_obj(doc, "context"),
	    "online_cpus"), 1);
	return 0;
}

/* The row of width w (and view v), made if new (n grows). */
static struct advise_row *
advise_row_of(struct advise_row *rows, size_t *n, unsigned int w,
    unsigned int v)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (rows[i].workers == w && rows[i].view == v)
			return &rows[i];
	if (*n == ADVISE_MAX_ROWS)
		return NULL;
	rows[*n] = (struct advise_row){ .workers = w, .view = v, .cpu_us = NAN,
	    .cpu_us_min = NAN, .cpu_us_max = NAN, .ops_per_s = NAN,
	    .cpu_us_near = NAN, .cpu_us_far = NAN, .cpu_us_below = NAN,
	    .cpu_us_above = NAN,
	    .capacity = NAN, .p99_us = NAN, .load_cpu_us_op = NAN,
	    .target_cpu_us_op = NAN, .target_ops_per_s = NAN,
	    .target_ctxsw = NAN, .hops_per_s = NAN };
	return &rows[(*n)++];
}

/* The row of cell's width in the single pool (view 0) or the split's. */
static struct advise_row *
advise_row_for(struct advise_rows *r, const cJSON *cell, unsigned int view)
{
	unsigned int w = (unsigned int)results_num(cell, "workers");

	return view > 0 ? advise_row_of(r->split, &r->nsplit, w, view) :
	    advise_row_of(r->single, &r->n, w, 0);
}

static double
advise_max(double a, double b)
{

	return isnan(a) || b > a ? b : a;
}

/*
 * Every run counts, in the sweep it belongs to: the load's (load true),
 * whose starved runs set the width aside, or the cost's apart from it.
 */
static void
advise_runs(struct advise_row *r, const cJSON *cell, bool load)
{
	const cJSON *run;
	bool starved;

	cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
		*(load ? &r->runs : &r->cost_runs) += 1;
		if (!results_ok(run)) {
			r->failed++;
			continue;
		}
		starved = results_num(run, RF(starved)) > 0;
		*(load ? &r->starving : &r->cost_starving) += starved;
	}
	return;
}

/* The resume-only cost of a dispatch, into a row of either pool. */
static void
advise_cost(struct advise_row *r, const struct advise_row *from)
{

	r->cpu_us = from->cpu_us;
	r->cpu_us_min = from->cpu_us_min;
	r->cpu_us_max = from->cpu_us_max;
	r->ops_per_s = from->ops_per_s;
	r->cpu_us_near = from->cpu_us_near;
	r->cpu_us_far = from->cpu_us_far;
	r->runs_near = from->runs_near;
	r->runs_far = from->runs_far;
	r->cpu_us_below = from->cpu_us_below;
	r->cpu_us_above = from->cpu_us_above;
	r->runs_below = from->runs_below;
	r->runs_above = from->runs_above;
	return;
}

/*
 * The cost on each placement of the CPUs, where the host's moved it; else
 * on each of two groups of runs, where they fell into two.
 */
static void
advise_placed(struct advise_row *r, const cJSON *cell)
{
	const cJSON *pl = results_placed(results_obj(results_obj(cell,
	    "summary"), RF(cpu_us_per_dispatch)));
	struct results_groups g;

	if (pl == NULL && results_groups(cell, RF(cpu_us_per_dispatch), &g)) {
		r->cpu_us_below = g.median[0];
		r->cpu_us_above = g.median[1];
		r->runs_below = g.runs[0];
		r->runs_above = g.runs[1];
	}

	r->cpu_us_near = results_num(results_obj(pl, "near"), "median");
	r->cpu_us_far = results_num(results_obj(pl, "far"), "median");
	r->runs_near = pl != NULL ? (unsigned int)results_num(results_obj(pl,
	    "near"), "runs") : 0;
	r->runs_far = pl != NULL ? (unsigned int)results_num(results_obj(pl,
	    "far"), "runs") : 0;
	return;
}

/* The cell's figures into its row: cost from resume-only, load from p. */
static void
advise_fill(struct advise_row *r, const cJSON *cell, bool resume, bool load)
{

	if (resume) {
		r->cpu_us = results_stat(cell, RF(cpu_us_per_dispatch),
		    "median");
		r->cpu_us_min = results_stat(cell, RF(cpu_us_per_dispatch),
		    "min");
		r->cpu_us_max = results_stat(cell, RF(cpu_us_per_dispatch),
		    "max");
		r->ops_per_s = results_stat(cell, RF(ops_per_s), "median");
		advise_placed(r, cell);
	}
	if (load) {
		r->capacity = results_stat(cell, RF(ops_per_s), "median");
		r->ceiling = results_stat(cell, RF(ceiling_ops_per_s), "median");
		r->ceiling = isnan(r->ceiling) ? 0 : r->ceiling;
		r->p99_us = results_stat(cell, RF(latency_p99_us), "median");
		r->load_cpu_us_op = results_stat(cell, RF(cpu_us_per_op),
		    "median");
		r->hops_per_s = results_stat(cell, RF(hops_per_s), "median");
	}
	r->threads = advise_max(r->threads, results_stat(cell, RF(threads_peak),
	    "median"));
	r->rss_anon_kb = advise_max(r->rss_anon_kb, results_stat(cell,
	    RF(rss_anon_peak_kb), "median"));
	advise_runs(r, cell, load);
	return;
}

/*
 * Whether cell measures load at s's target: its design and queue, with
 * the coroutines in flight that the target rate keeps busy.
 */
static bool
advise_at_target(const cJSON *cell, const struct advise_sel *s,
    const struct advise_load *load)
{

	return load != NULL && s->at_target > 0 &&
	    s->at_target != s->coroutines &&
	    advise_is(cell, "dispatcher", s->dispatcher) &&
	    advise_is(cell, "queue", s->queue) &&
	    results_num(cell, "coroutines") == s->at_target &&
	    results_num(cell, "workers") >= 0 &&
	    advise_is(cell, "workload", load->name);
}

/* The figures of a cell at the target into its row. */
static void
advise_target_figures(struct advise_row *r, const cJSON *cell)
{

	r->target_cpu_us_op = results_stat(cell, RF(cpu_us_per_op), "median");
	r->target_ops_per_s = results_stat(cell, RF(ops_per_s), "median");
	r->target_ctxsw = results_stat(cell, RF(ctx_switches_per_dispatch),
	    "median");
	return;
}

/* A cell at the target into its row: its figures, and runs that failed. */
static void
advise_fill_target(struct advise_row *r, const cJSON *cell)
{
	const cJSON *run;

	advise_target_figures(r, cell);
	cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
		r->target_runs++;
		r->failed += !results_ok(run);
	}
	return;
}

static int
advise_cmp(const void *a, const void *b)
{
	const struct advise_row *x = a, *y = b;
	/* Unbounded (0) wraps to the largest: it sorts last. */
	unsigned int wx = x->workers - 1, wy = y->workers - 1;
	unsigned int vx = x->view - 1, vy = y->view - 1;

	if (vx != vy)
		return vx < vy ? -1 : 1;
	return wx < wy ? -1 : wx > wy;
}

/* A split's cost is its narrow pool's, measured resume-only beside it. */
static void
advise_split_costs(struct advise_rows *r)
{
	size_t i, j;

	for (i = 0; i < r->nsplit; i++)
		for (j = 0; j < r->n; j++)
			if (r->single[j].workers == r->split[i].workers) {
				advise_cost(&r->split[i], &r->single[j]);
				r->split[i].cost_runs = r->single[j].cost_runs;
				r->split[i].cost_starving =
				    r->single[j].cost_starving;
			}
	return;
}

/* The loads doc holds beside resume-only for s's cells, a comma list. */
static const char *
advise_held(const cJSON *doc, const struct advise_sel *s, char *buf,
    size_t len)
{
	const cJSON *cell;
	const char *w;
	size_t k = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		w = results_str(cell, "workload", "resume");
		if (!advise_of(cell, s) || strcmp(w, "resume") == 0 ||
		    advise_listed(buf, w))
			continue;
		advise_add(buf, len, &k, "%s%s", k ? ", " : "", w);
	}
	return buf;
}

int
advise_from_check(const cJSON *doc, const char *path,
    const struct advise_sel *s, const char *load, char *err, size_t errlen)
{
	char held[256];

	advise_held(doc, s, held, sizeof(held));
	if (load == NULL && held[0] != '\0')
		return snprintf(err, errlen, "advise: %s holds %s beside "
		    "resume-only: give the one to advise on as --blocking", path,
		    held), -1;
	if (load != NULL && !advise_listed(held, load))
		return snprintf(err, errlen, "advise: %s holds %s, not --blocking "
		    "%s", path, held[0] != '\0' ? held : "resume-only alone",
		    load), -1;
	return 0;
}

int
advise_rows(const cJSON *doc, const struct advise_sel *s,
    const struct advise_load *load, struct advise_rows *r, char *err,
    size_t errlen)
{
	const cJSON *cell;
	struct advise_row *row;
	bool resume, loaded;
	unsigned int view;
	size_t i;

	r->n = r->nsplit = 0;
	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		view = advise_view(cell);
		if (advise_at_target(cell, s, load)) {
			if ((row = advise_row_for(r, cell, view)) != NULL)
				advise_fill_target(row, cell);
			continue;
		}
		resume = advise_resume(cell);
		loaded = load == NULL ? resume : advise_is(cell, "workload",
		    load->name);
		if (!advise_of(cell, s) || !(resume || loaded) ||
		    (view > 0 && !loaded))
			continue;
		if ((row = advise_row_for(r, cell, view)) == NULL)
			continue;
		advise_fill(row, cell, view == 0 && resume, loaded);
		/* The target keeps every coroutine busy: flat out is at it. */
		if (loaded && load != NULL && s->at_target > 0 &&
		    s->at_target == s->coroutines)
			advise_target_figures(row, cell);
	}
	for (i = 0; i < r->n; i++)
		if (isfinite(r->single[i].capacity) &&
		    isfinite(r->single[i].cpu_us))
			break;
	if (i == r->n)
		return snprintf(err, errlen, "the results hold no %s over %s "
		    "with %u coroutines%s%s measured in both profiles",
		    s->dispatcher, s->queue, s->coroutines, load ? " and " : "",
		    load ? load->name : ""), -1;
	qsort(r->single, r->n, sizeof(r->single[0]), advise_cmp);
	qsort(r->split, r->nsplit, sizeof(r->split[0]), advise_cmp);
	advise_split_costs(r);
	return 0;
}

int
advise_recorded(const cJSON *doc, struct advise_target *t, const char **load,
    unsigned int *at_target)
{
	const cJSON *a = results_obj(doc, "advise");
	const char *w = results_str(a, "load", NULL);

	if (w == NULL)
		return 0;
	*load = strcmp(w, "resume") == 0 ? NULL : w;
	t->rate = fmax(results_num(a, "rate_ops_per_s"), 0);
	t->p99_us = fmax(results_num(a, "p99_ms"), 0) * 1e3;
	*at_target = (unsigned int)fmin(fmax(results_num(a,
	    "at_target_coroutines"), 0), RESULTS_MAX_COUNT);
	return 1;
}

int
advise_record(cJSON *doc, const char *out, const struct advise_target *t,
    const struct advise_load *load, unsigned int at_target)
{
	cJSON *a = cJSON_CreateObject();

	cJSON_AddStringToObject(a, "load", load != NULL ? load->name :
	    "resume");
	cJSON_AddNumberToObject(a, "rate_ops_per_s", t->rate);
	cJSON_AddNumberToObject(a, "p99_ms", t->p99_us * 1e-3);
	if (at_target > 0)
		cJSON_AddNumberToObject(a, "at_target_coroutines", at_target);
	cJSON_DeleteItemFromObjectCaseSensitive(doc, "advise");
	cJSON_AddItemToObject(doc, "advise", a);
	return results_write(doc, out);
}

/*
 * Little's law beside the measured pick: the threads a rate keeps busy on
 * average, against the width recommended; or where the ceiling stops
 * growing.
 */
static void
advise_little(const struct advise_target *t, const struct advise_load *load,
    const struct advise_sel *s, const struct advise_row *pick, char *buf,
    size_t len)
{
	unsigned int bound;
	double hold, need;
	size_t k = 0;
	char w[16];

	if (load == NULL || !(load->hold_s > 0)) {
		advise_add(buf, len, &k, "check (Little's law): nothing blocks, "
		    "so at most %u threads (the CPUs) are ever busy; wider pools "
		    "only add idle workers to wake.", s->cpus);
		return;
	}
	hold = load->hold_s;
	need = t->rate * hold;
	bound = load->cpu_bound && s->cpus < s->coroutines ? s->cpus :
	    s->coroutines;
	if (t->rate > 0)
		advise_add(buf, len, &k, "check (Little's law): %.0f ops/s x %.3g "
		    "ms held per op (%d resumptions) = %.1f threads busy on "
		    "average%s", t->rate, hold * 1e3, ADVISE_RESUMES_PER_OP, need,
		    load->cpu_bound ? ", each on a CPU of its own" : "");
	if (t->rate > 0 && pick != NULL && pick->view == 0 && pick->workers > 0)
		advise_add(buf, len, &k, "; N=%s %s.", advise_width(pick->workers,
		    w, sizeof(w)), pick->workers >= need ? "has them" : "has "
		    "fewer, yet carried the rate: a measured capacity above the "
		    "law's ceiling means a clock disagrees; distrust this run");
	else if (t->rate > 0)
		advise_add(buf, len, &k, ".");
	advise_add(buf, len, &k, "%she ceiling grows by %.0f ops/s per worker "
	    "up to N=%u (the %s), %.0f ops/s.", k ? " T" :
	    "check (Little's law): t", 1 / hold, bound, bound == s->coroutines ?
	    "coroutines" : "CPUs", bound / hold);
	return;
}

/* The row's part in the advice, for the table's last column. */
static const char *
advise_part(const struct advise_pick *p, int i, bool split)
{

	if (split)
		return i == p->split ? p->split_better ? "recommended" :
		    "meets" : "";
	if (i == p->row)
		return p->split_better ? "meets" : "recommended";
	if (i == p->smallest)
		return "smallest meeting";
	if (i == p->support)
		return "compared";
	if (i == p->cheapest)
		return "cheapest";
	return "";
}

static void
advise_runs_json(cJSON *o, const char *name, unsigned int k, unsigned int of,
    bool people)
{
	char buf[32];

	if (people) {
		snprintf(buf, sizeof(buf), of > 0 ? "%u/%u" : "-", k, of);
		cJSON_AddStringToObject(o, name, buf);
	} else
		cJSON_AddNumberToObject(o, name, k);
	return;
}

static cJSON *
advise_row_json(const struct advise_row *r, const char *part, bool people)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "pool", r->view > 0 ? "split" : "single");
	if (r->workers == 0)
		cJSON_AddStringToObject(o, "workers", "inf");
	else
		cJSON_AddNumberToObject(o, "workers", r->workers);
	if (r->view > 0)
		cJSON_AddNumberToObject(o, "view", r->view);
	cJSON_AddNumberToObject(o, RF(cpu_us_per_dispatch), r->cpu_us);
	cJSON_AddNumberToObject(o, "cpu_us_per_dispatch_min", r->cpu_us_min);
	cJSON_AddNumberToObject(o, "cpu_us_per_dispatch_max", r->cpu_us_max);
	cJSON_AddNumberToObject(o, "cpu_us_per_dispatch_near", r->cpu_us_near);
	cJSON_AddNumberToObject(o, "cpu_us_per_dispatch_far", r->cpu_us_far);
	cJSON_AddNumberToObject(o, "cpu_us_per_dispatch_below",
	    r->cpu_us_below);
	cJSON_AddNumberToObject(o, "cpu_us_per_dispatch_above",
	    r->cpu_us_above);
	cJSON_AddNumberToObject(o, RF(cpu_us_per_op), r->cpu_us *
	    ADVISE_RESUMES_PER_OP);
	cJSON_AddNumberToObject(o, RF(ops_per_s), r->ops_per_s);
	cJSON_AddNumberToObject(o, "capacity_ops_per_s", r->capacity);
	cJSON_AddNumberToObject(o, RF(ceiling_ops_per_s), r->ceiling > 0 ?
	    r->ceiling : NAN);
	cJSON_AddNumberToObject(o, "latency_p99_ms", r->p99_us * 1e-3);
	cJSON_AddNumberToObject(o, "loaded_cpu_us_per_op", r->load_cpu_us_op);
	cJSON_AddNumberToObject(o, "target_cpu_us_per_op", r->target_cpu_us_op);
	cJSON_AddNumberToObject(o, "target_ops_per_s", r->target_ops_per_s);
	cJSON_AddNumberToObject(o, "target_ctx_switches_per_dispatch",
	    r->target_ctxsw);
	cJSON_AddNumberToObject(o, RF(hops_per_s), r->hops_per_s);
	cJSON_AddNumberToObject(o, RF(threads_peak), r->threads);
	cJSON_AddNumberToObject(o, "rss_anon_peak_mb", r->rss_anon_kb / 1024);
	advise_runs_json(o, "starved_runs", r->starving, r->runs, people);
	advise_runs_json(o, "cost_starved_runs", r->cost_starving,
	    r->cost_runs, people);
	advise_runs_json(o, "failed_runs", r->failed, r->runs + r->cost_runs +
	    r->target_runs, people);
	if (!people) {
		cJSON_AddNumberToObject(o, "runs", r->runs);
		cJSON_AddNumberToObject(o, "cost_runs", r->cost_runs);
	}
	cJSON_AddStringToObject(o, "advice", part);
	return o;
}

static cJSON *
advise_rows_json(const struct advise_rows *r, const struct advise_pick *p,
    bool people)
{
	cJSON *rows = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < r->n; i++)
		cJSON_AddItemToArray(rows, advise_row_json(&r->single[i],
		    advise_part(p, (int)i, false), people));
	for (i = 0; i < r->nsplit; i++)
		cJSON_AddItemToArray(rows, advise_row_json(&r->split[i],
		    advise_part(p, (int)i, true), people));
	return rows;
}

/*
 * The columns: resume-only's cost, then the load's figures; starved is
 * the load's sweep (it sets a width aside), cost starved the resume-only
 * sweep's (a caution). People's formats leave out what a program alone
 * wants (pool: view says it; the spread's ends; the run counts, which
 * starved shows as x/runs) and a split's columns when there is none.
 */
#define ADVISE_PROGRAM	(1u << 0)	/* for programs only */
#define ADVISE_SPLIT	(1u << 1)	/* only beside a split */
#define ADVISE_AT	(1u << 2)	/* only where measured at the target */

static const struct {
	struct table_col col;
	unsigned int only;
} advise_cols[] = {
	{ { "pool", "pool" }, ADVISE_PROGRAM },
	{ { "workers", "N" }, 0 },
	{ { "view", "view" }, ADVISE_SPLIT },
	{ { RF(cpu_us_per_dispatch), "CPU µs/dispatch" }, 0 },
	{ { "cpu_us_per_dispatch_min", "min" }, ADVISE_PROGRAM },
	{ { "cpu_us_per_dispatch_max", "max" }, ADVISE_PROGRAM },
	{ { "cpu_us_per_dispatch_near", "near" }, ADVISE_PROGRAM },
	{ { "cpu_us_per_dispatch_far", "far" }, ADVISE_PROGRAM },
	{ { "cpu_us_per_dispatch_below", "below" }, ADVISE_PROGRAM },
	{ { "cpu_us_per_dispatch_above", "above" }, ADVISE_PROGRAM },
	{ { RF(cpu_us_per_op), "CPU µs/op" }, 0 },
	{ { RF(ops_per_s), "ops/s" }, ADVISE_PROGRAM },
	{ { "capacity_ops_per_s", "capacity ops/s" }, 0 },
	{ { RF(ceiling_ops_per_s), "Little ops/s" }, 0 },
	{ { "latency_p99_ms", "p99 ms" }, 0 },
	{ { "loaded_cpu_us_per_op", "loaded CPU µs/op" }, 0 },
	{ { "target_cpu_us_per_op", "at target CPU µs/op" }, ADVISE_AT },
	{ { "target_ops_per_s", "at target ops/s" }, ADVISE_AT },
	{ { "target_ctx_switches_per_dispatch", "at target ctxsw/dispatch" },
	    ADVISE_AT },
	{ { RF(hops_per_s), "hops/s" }, ADVISE_SPLIT },
	{ { RF(threads_peak), "threads" }, 0 },
	{ { "rss_anon_peak_mb", "anon MB" }, 0 },
	{ { "starved_runs", "starved" }, 0 },
	{ { "cost_starved_runs", "cost starved" }, 0 },
	{ { "failed_runs", "failed" }, 0 },
	{ { "runs", "runs" }, ADVISE_PROGRAM },
	{ { "cost_runs", "cost runs" }, ADVISE_PROGRAM },
	{ { "advice", "advice" }, 0 },
};
#define ADVISE_NCOLS	(sizeof(advise_cols) / sizeof(advise_cols[0]))

/* Whether any row of r was measured at the target. */
static bool
advise_any_at_target(const struct advise_rows *r)
{
	size_t i;

	for (i = 0; i < r->n + r->nsplit; i++)
		if (isfinite(i < r->n ? r->single[i].target_cpu_us_op :
		    r->split[i - r->n].target_cpu_us_op))
			return true;
	return false;
}

static void
advise_table(FILE *out, int format, const cJSON *rows,
    const struct advise_rows *r)
{
	struct table_col cols[ADVISE_NCOLS];
	struct table t = { "advise", cols, 0 };
	unsigned int skip = 0;
	size_t i;

	if (table_for_people(format))
		skip = ADVISE_PROGRAM | (r->nsplit > 0 ? 0 : ADVISE_SPLIT) |
		    (advise_any_at_target(r) ? 0 : ADVISE_AT);
	for (i = 0; i < ADVISE_NCOLS; i++)
		if (!(advise_cols[i].only & skip))
			cols[t.ncols++] = advise_cols[i].col;
	table_write(out, format, &t, rows);
	return;
}

void
advise_placement_words(const struct advise_row *rows, size_t n, char *buf,
    size_t len)
{
	char list[1536], w[16];
	size_t i, used = 0;

	list[0] = buf[0] = '\0';
	for (i = 0; i < n && used < sizeof(list); i++)
		if (rows[i].runs_near > 0)
			used += (size_t)snprintf(list + used, sizeof(list) - used,
			    "%sN=%s %.3g near (%u run%s), %.3g far (%u)", used ?
			    "; " : "", advise_width(rows[i].workers, w,
			    sizeof(w)), rows[i].cpu_us_near, rows[i].runs_near,
			    rows[i].runs_near > 1 ? "s" : "", rows[i].cpu_us_far,
			    rows[i].runs_far);
	if (used > 0)
		snprintf(buf, len, "two placements: the host ran this machine's "
		    "CPUs now near (a cache line close), now far, and at these "
		    "widths that moved the cost %g times or more, in µs a "
		    "dispatch: %s. The table's cost is the median of all runs, "
		    "which lies with the placement most of them had.",
		    RESULTS_PLACED_APART, list);
	return;
}

void
advise_group_words(const struct advise_row *rows, size_t n, char *buf,
    size_t len)
{
	char list[1536], w[16];
	size_t i, used = 0;
	unsigned int all;

	list[0] = buf[0] = '\0';
	for (i = 0; i < n && used < sizeof(list); i++) {
		all = rows[i].runs_below + rows[i].runs_above;
		if (rows[i].runs_above > 0)
			used += (size_t)snprintf(list + used, sizeof(list) - used,
			    "%sN=%s %.3g (%u of %u runs) and %.3g (%u of %u)",
			    used ? "; " : "", advise_width(rows[i].workers, w,
			    sizeof(w)), rows[i].cpu_us_below, rows[i].runs_below,
			    all, rows[i].cpu_us_above, rows[i].runs_above, all);
	}
	if (used > 0)
		snprintf(buf, len, "two groups: at these widths the runs fell "
		    "into two groups that no placement of the CPUs explains, "
		    "each a cost of its own, in µs a dispatch: %s. The table's "
		    "cost is the median of all runs, which lies in the group "
		    "most of them fell in; the slower group's share of the "
		    "runs is how often a run here landed in it.", list);
	return;
}

/* The advice's words, a paragraph each, in the order a person reads them. */
static cJSON *
advise_words(const struct advise_rows *r, const struct advise_target *t,
    const struct advise_pick *p, const struct advise_load *load,
    const struct advise_sel *s)
{
	cJSON *words = cJSON_CreateArray();
	char buf[2048], reason[1536], w[16];
	const struct advise_row *sp = p->split >= 0 ? &r->split[p->split] :
	    NULL;

	advise_reason(r->single, r->n, t, p, load, s, reason, sizeof(reason));
	if (p->split_better)
		snprintf(buf, sizeof(buf), "recommendation: a split pool, N=%u "
		    "and a view of %u for the blocking call. The single pool: %s",
		    sp->workers, sp->view, reason);
	else if (p->row >= 0)
		snprintf(buf, sizeof(buf), "recommendation: N=%s%s. %s",
		    advise_width(r->single[p->row].workers, w, sizeof(w)),
		    p->kind == ADVISE_NO_KNEE ? " or wider" : "", reason);
	else
		snprintf(buf, sizeof(buf), "recommendation: none. %s", reason);
	cJSON_AddItemToArray(words, cJSON_CreateString(buf));
	advise_price(r->single, r->n, t, p, buf, sizeof(buf));
	if (buf[0] != '\0')
		cJSON_AddItemToArray(words, cJSON_CreateString(buf));
	advise_growth(r->single, r->n, buf, sizeof(buf));
	if (buf[0] != '\0')
		cJSON_AddItemToArray(words, cJSON_CreateString(buf));
	advise_split_words(r, t, p, buf, sizeof(buf));
	if (buf[0] != '\0')
		cJSON_AddItemToArray(words, cJSON_CreateString(buf));
	advise_placement_words(r->single, r->n, buf, sizeof(buf));
	if (buf[0] != '\0')
		cJSON_AddItemToArray(words, cJSON_CreateString(buf));
	advise_group_words(r->single, r->n, buf, sizeof(buf));
	if (buf[0] != '\0')
		cJSON_AddItemToArray(words, cJSON_CreateString(buf));
	advise_little(t, load, s, p->row >= 0 ? &r->single[p->row] : NULL,
	    buf, sizeof(buf));
	cJSON_AddItemToArray(words, cJSON_CreateString(buf));
	return words;
}

/* What was measured, as the file says: for the header and for JSON. */
static cJSON *
advise_about(const struct advise_sel *s, const struct advise_load *load,
    const struct advise_target *t)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "dispatcher", s->dispatcher);
	cJSON_AddStringToObject(o, "queue", s->queue);
	cJSON_AddNumberToObject(o, "coroutines", s->coroutines);
	cJSON_AddNumberToObject(o, "cpus", s->cpus);
	cJSON_AddStringToObject(o, "load", load != NULL ? load->name : "resume");
	cJSON_AddNumberToObject(o, "resumptions_per_op", ADVISE_RESUMES_PER_OP);
	if (t->rate > 0)
		cJSON_AddNumberToObject(o, "rate_ops_per_s", t->rate);
	if (t->p99_us > 0)
		cJSON_AddNumberToObject(o, "p99_ms", t->p99_us * 1e-3);
	if (s->at_target > 0)
		cJSON_AddNumberToObject(o, "at_target_coroutines", s->at_target);
	return o;
}

static void
advise_header(FILE *out, const struct advise_sel *s,
    const struct advise_load *load)
{

	fprintf(out, "\nadvise: %s over %s, %u coroutines, measured on %u "
	    "CPUs. An op is %d resumptions. Cost: CPU per dispatch of "
	    "resume-only; capacity and p99: under %s", s->dispatcher,
	    strcmp(s->queue, "-") == 0 ? "no queue" : s->queue, s->coroutines,
	    s->cpus, ADVISE_RESUMES_PER_OP, load != NULL ? load->name :
	    "resume-only");
	if (load != NULL && load->hold_s > 0)
		fprintf(out, ", where an op holds a thread %.3g ms", load->hold_s *
		    1e3);
	fprintf(out, ".\n\n");
	return;
}

void
advise_write(FILE *out, int format, const struct advise_rows *r,
    const struct advise_target *t, const struct advise_pick *p,
    const struct advise_load *load, const struct advise_sel *s)
{
	bool people = table_for_people(format);
	cJSON *rows = advise_rows_json(r, p, people), *words, *w, *doc;
	char *text;

	if (format == TABLE_CSV) {
		advise_table(out, format, rows, r);
		cJSON_Delete(rows);
		return;
	}
	words = advise_words(r, t, p, load, s);
	if (format == TABLE_JSON) {
		doc = cJSON_CreateObject();
		cJSON_AddItemToObject(doc, "about", advise_about(s, load, t));
		cJSON_AddItemToObject(doc, "rows", rows);
		cJSON_AddItemToObject(doc, "advice", words);
		text = cJSON_Print(doc);
		fprintf(out, "%s\n", text);
		free(text);
		cJSON_Delete(doc);
		return;
	}
	advise_header(out, s, load);
	advise_table(out, format, rows, r);
	cJSON_ArrayForEach(w, words)
		fprintf(out, "\n%s\n", w->valuestring);
	cJSON_Delete(rows);
	cJSON_Delete(words);
	return;
}

void
advise_memory(FILE *out, const cJSON *doc, const struct advise_sel *s)
{
	cJSON *mine = cJSON_Duplicate(doc, true), *cells, *cell, *next;

	if (mine == NULL)
		abort();
	cells = cJSON_GetObjectItemCaseSensitive(mine, "cells");
	for (cell = cells != NULL ? cells->child : NULL; cell != NULL;
	    cell = next) {
		next = cell->next;
		if (!advise_of(cell, s))
			cJSON_Delete(cJSON_DetachItemViaPointer(cells, cell));
	}
	results_memory_fits(mine);
	export_memory_fits(out, mine);
	cJSON_Delete(mine);
	return;
}
