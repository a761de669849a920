/*
 * portrait.c - one design in words, from its own figures (see
 * portrait.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portrait.h"
#include "results.h"
#include "runfields.h"
#include "stats.h"
#include "table.h"

/*
 * A series is flat when its dearest width costs at most this much more
 * than its cheapest: the spread of one cell's runs on the reference
 * 2-vCPU guests is about as wide (stealing 0.038 to 0.045 µs).
 */
#define PORTRAIT_FLAT	1.2

/*
 * A count a dispatch under this is said as no more than that: a window
 * of the reference sweep holds 0.1 to 12 million dispatches, so it is a
 * handful of events at most, which another run does not repeat.
 */
#define PORTRAIT_RARE	1e-6

/*
 * What a design counts that says why a dispatch costs it what it does,
 * in the words a sentence gives it: before a rate, or after "no".
 */
static const struct portrait_count {
	const char *field;
	const char *words;
} portrait_counts[] = {
	{ .field = "unparks_per_dispatch", .words = "parked threads woken" },
	{ .field = "spins_per_dispatch", .words = "idle spins" },
	{ .field = "steals_per_dispatch", .words = "steals" },
	{ .field = "injected_per_dispatch", .words = "injections" },
	{ .field = "lifo_hits_per_dispatch",
	    .words = "tasks run from a LIFO slot" },
	{ .field = "in_place_per_dispatch", .words = "tasks run in place" },
};

#define PORTRAIT_NCOUNTS	(sizeof(portrait_counts) / \
				    sizeof(portrait_counts[0]))

/* A ratio: 1.04× (a rate per doubling may be that close), 1.5×, 135×. */
static const char *
portrait_factor(double f, char *buf, size_t len)
{
	char fig[32];

	if (f < 1.095)
		snprintf(buf, len, "%.2f×", f);
	else if (f < 9.95)
		snprintf(buf, len, "%.1f×", f);
	else if (f < 999.5)
		snprintf(buf, len, "%.0f×", f);
	else
		snprintf(buf, len, "%s×", table_sig3(f, fig, sizeof(fig)));
	return buf;
}

/* Doublings of the width from cell a to cell b; NAN if either is unbounded. */
static double
portrait_doublings(const cJSON *a, const cJSON *b)
{
	double wa = results_num(a, "workers"), wb = results_num(b, "workers");

	return wa > 0 && wb > 0 ? log2(wb / wa) : NAN;
}

/*
 * The factor by which the cost moves from cell a to the wider cell b, per
 * doubling of the width: a step of 4 to 16 workers that costs 4× more is
 * 2× a doubling, as steep as a step of 1 to 2 that costs 2× more. NAN
 * unless b is wider.
 */
static double
portrait_per_doubling(const cJSON *a, const cJSON *b)
{
	double d = portrait_doublings(a, b);

	return d > 0 ? pow(series_cost(b) / series_cost(a), 1 / d) : NAN;
}

/*
 * Where the series' cost is highest or lowest between its ends, when that
 * is more than a flat series' spread beyond both ends.
 */
static void
portrait_inside(const struct series *s, char *buf, size_t len)
{
	double first = series_cost(s->cell[0]);
	double last = series_cost(s->cell[s->n - 1]), m;
	size_t i, hi = 0, lo = 0, used = 0;
	char w[32], v[32];

	for (i = 1; i + 1 < s->n; i++) {
		m = series_cost(s->cell[i]);
		if (m > PORTRAIT_FLAT * fmax(first, last) && (hi == 0 ||
		    m > series_cost(s->cell[hi])))
			hi = i;
		if (m * PORTRAIT_FLAT < fmin(first, last) && (lo == 0 ||
		    m < series_cost(s->cell[lo])))
			lo = i;
	}
	buf[0] = '\0';
	if (hi != 0)
		used = (size_t)snprintf(buf, len, ", highest %s (%s)",
		    series_at(results_num(s->cell[hi], "workers"), w,
		    sizeof(w)), table_scaled(series_cost(s->cell[hi]), "µs", v,
		    sizeof(v)));
	if (lo != 0 && used < len)
		snprintf(buf + used, len - used, ", lowest %s (%s)",
		    series_at(results_num(s->cell[lo], "workers"), w,
		    sizeof(w)),
		    table_scaled(series_cost(s->cell[lo]), "µs", v,
		    sizeof(v)));
	return;
}

/*
 * The steepest step from one width to the next of a rising series, per
 * doubling, so that a step of four times the width is not taken for a
 * steeper one than two steps of twice.
 */
static void
portrait_steepest(const struct series *s, char *buf, size_t len)
{
	double step, best = 0;
	size_t i, at = 0;
	char f[32];

	for (i = 1; i < s->n; i++) {
		step = portrait_per_doubling(s->cell[i - 1], s->cell[i]);
		if (step > best) {
			best = step;
			at = i;
		}
	}
	buf[0] = '\0';
	if (s->n >= 3 && best >= PORTRAIT_FLAT)
		snprintf(buf, len, ", most steeply from %.0f to %.0f (%s per "
		    "doubling)", results_num(s->cell[at - 1], "workers"),
		    results_num(s->cell[at], "workers"), portrait_factor(best,
		    f, sizeof(f)));
	return;
}

/*
 * " (1.9× per doubling)": the move from the narrowest width to the widest
 * as a rate per doubling of the width (the fall's when it falls), when
 * they are other than one doubling apart.
 */
static void
portrait_overall(const struct series *s, bool falls, char *buf, size_t len)
{
	const cJSON *a = s->cell[0], *b = s->cell[s->n - 1];
	double f = portrait_per_doubling(a, b);
	char r[32];

	buf[0] = '\0';
	if (isfinite(f) && fabs(portrait_doublings(a, b) - 1) > 1e-9)
		snprintf(buf, len, " (%s per doubling)", portrait_factor(falls ?
		    1 / f : f, r, sizeof(r)));
	return;
}

/*
 * How a series' cost moves from its narrowest width to its widest: flat
 * (within PORTRAIT_FLAT), rises or falls N×, and per doubling, with where
 * it peaks or dips between its ends.
 */
static void
portrait_shape(const struct series *s, char *buf, size_t len)
{
	double lo = INFINITY, hi = 0, first, last, m;
	char span[64], f[32], more[160], steep[96], rate[48];
	size_t i;

	if (s->n < 2) {
		snprintf(buf, len, "its only width");
		return;
	}
	for (i = 0; i < s->n; i++) {
		m = series_cost(s->cell[i]);
		lo = fmin(lo, m);
		hi = fmax(hi, m);
	}
	first = series_cost(s->cell[0]);
	last = series_cost(s->cell[s->n - 1]);
	snprintf(span, sizeof(span), "from %.0f to %.0f workers",
	    results_num(s->cell[0], "workers"),
	    results_num(s->cell[s->n - 1], "workers"));
	if (hi <= PORTRAIT_FLAT * lo) {
		snprintf(buf, len, "flat %s (within %.0f %%)", span,
		    (hi / lo - 1) * 100);
		return;
	}
	portrait_inside(s, more, sizeof(more));
	portrait_steepest(s, steep, sizeof(steep));
	portrait_overall(s, first > last, rate, sizeof(rate));
	if (last >= PORTRAIT_FLAT * first)
		snprintf(buf, len, "rises %s %s%s%s%s", portrait_factor(last /
		    first, f, sizeof(f)), span, rate, steep, more);
	else if (first >= PORTRAIT_FLAT * last)
		snprintf(buf, len, "falls %s %s%s%s", portrait_factor(first /
		    last, f, sizeof(f)), span, rate, more);
	else
		snprintf(buf, len, "about the same at %.0f and %.0f workers%s",
		    results_num(s->cell[0], "workers"),
		    results_num(s->cell[s->n - 1], "workers"), more);
	return;
}

/*
 * Its cost at its narrowest width, at one worker per CPU and at its
 * widest, each said once.
 */
static void
portrait_costs(FILE *out, const struct series *s)
{
	const cJSON *at[3] = { s->cell[0], series_cell_at(s, s->cpus),
	    s->cell[s->n - 1] };
	char v[32], w[32];
	size_t i, j;

	for (i = 0; i < 3; i++) {
		for (j = 0; j < i && at[j] != at[i]; j++)
			;
		if (at[i] == NULL || j < i)
			continue;
		fprintf(out, "%s %s %s", i > 0 ? "," : "", table_scaled(
		    series_cost(at[i]), "µs", v, sizeof(v)), series_at(
		    results_num(at[i], "workers"), w, sizeof(w)));
		if (i == 1 || (at[i] == at[1] && s->cpus > 1))
			fprintf(out, " (one per CPU)");
	}
	return;
}

/*
 * A design of the cost list: not the floor, not an event loop at home,
 * not one that keeps its work on its worker.
 */
static bool
portrait_hands_over(const struct series *s)
{

	return !s->floor && !s->local && !s->kept;
}

/* Whether s costs more at its i-th width than each other handoff there. */
static bool
portrait_dearest_at(const struct series_set *d, const struct series *s,
    size_t i)
{
	double w = results_num(s->cell[i], "workers");
	const cJSON *c;
	size_t j, rivals = 0;

	for (j = 0; j < d->ns; j++) {
		if (&d->s[j] == s || !portrait_hands_over(&d->s[j]) ||
		    (c = series_cell_at(&d->s[j], w)) == NULL)
			continue;
		if (!(series_cost(c) < series_cost(s->cell[i])))
			return false;
		rivals++;
	}
	return rivals > 0 && w > 0;
}

/*
 * "; the dearest handoff at 1, 2 and 4 workers": the widths at which a
 * design that hands over costs more than every other one.
 */
static void
portrait_dearest(FILE *out, const struct series_set *d,
    const struct series *s)
{
	size_t i, n = 0, k = 0;
	char w[32];
	double at;

	if (!portrait_hands_over(s))
		return;
	for (i = 0; i < s->n; i++)
		n += portrait_dearest_at(d, s, i);
	for (i = 0; i < s->n; i++) {
		if (!portrait_dearest_at(d, s, i))
			continue;
		at = results_num(s->cell[i], "workers");
		fputs(k == 0 ? "; the dearest handoff at " : k + 1 == n ?
		    " and " : ", ", out);
		if (++k < n)
			fprintf(out, "%.0f", at);
		else
			fputs(series_width(at, w, sizeof(w)), out);
	}
	return;
}

/* The least and the most of a figure over the series' cells; false: none. */
static bool
portrait_range(const struct series *s, const char *field, double *lo,
    double *hi)
{
	double v;
	size_t i;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < s->n; i++)
		if (isfinite(v = results_stat(s->cell[i], field, "median"))) {
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	return *hi >= *lo;
}

/*
 * The median of a figure over the series' own cells (own), or over every
 * other design's (the floor aside); NAN when none has it.
 */
static double
portrait_median(const struct series_set *d, const struct series *s,
    bool own, const char *field)
{
	size_t i, j, n = 0, size = 1;
	double *v, m;

	for (i = 0; i < d->ns; i++)
		size += d->s[i].n;
	if ((v = malloc(size * sizeof(*v))) == NULL)
		return NAN;
	for (i = 0; i < d->ns; i++) {
		if (own != (&d->s[i] == s) || d->s[i].floor)
			continue;
		for (j = 0; j < d->s[i].n; j++) {
			v[n] = results_stat(d->s[i].cell[j], field, "median");
			n += isfinite(v[n]) != 0;
		}
	}
	m = n > 0 ? stats_select_median(v, n) : NAN;
	free(v);
	return m;
}

/* Two significant figures: 0.75, 1.0, 12, 240, 32000. */
static const char *
portrait_fig2(double v, char *buf, size_t len)
{
	double r = round(v / pow(10, floor(log10(v)) - 1)) *
	    pow(10, floor(log10(v)) - 1);
	int digits = 1 - (int)floor(log10(r));

	snprintf(buf, len, "%.*f", digits > 0 ? digits : 0, r);
	return buf;
}

/*
 * How often a thing happens, from lo to hi a dispatch: "1 in 93–800
 * dispatches", "at most 1 in 4500 dispatches" (lo under PORTRAIT_RARE),
 * "under 1 in a million dispatches" (hi too), "0.75 a dispatch".
 */
static void
portrait_rate(double lo, double hi, char *buf, size_t len)
{
	char a[32], b[32];

	if (hi >= 0.5) {
		portrait_fig2(hi, b, sizeof(b));
		if (lo < 0.05)
			snprintf(buf, len, "up to %s a dispatch", b);
		else if (strcmp(portrait_fig2(lo, a, sizeof(a)), b) == 0)
			snprintf(buf, len, "%s a dispatch", b);
		else
			snprintf(buf, len, "%s–%s a dispatch", a, b);
		return;
	}
	if (hi < PORTRAIT_RARE) {
		snprintf(buf, len, "under 1 in a million dispatches");
		return;
	}
	portrait_fig2(1 / hi, a, sizeof(a));
	if (lo < PORTRAIT_RARE)
		snprintf(buf, len, "at most 1 in %s dispatches", a);
	else if (strcmp(portrait_fig2(1 / lo, b, sizeof(b)), a) == 0)
		snprintf(buf, len, "1 in %s dispatches", a);
	else
		snprintf(buf, len, "1 in %s–%s dispatches", a, b);
	return;
}

/* The separator before the k-th clause of the why: a colon, then ";". */
static void
portrait_clause(FILE *out, size_t *k)
{

	fputs((*k)++ == 0 ? ": " : "; ", out);
	return;
}

/*
 * Its context switches a dispatch over its widths, and their median
 * against the other designs': a design that parks and wakes a thread for
 * its handoffs switches hundreds of times more often than one that
 * keeps its work where it is.
 */
static void
portrait_switches(FILE *out, const struct series_set *d,
    const struct series *s, size_t *k)
{
	const char *field = RF(ctx_switches_per_dispatch);
	double lo, hi, mine, theirs, r;
	char rate[96], f[32];

	if (!portrait_range(s, field, &lo, &hi))
		return;
	portrait_clause(out, k);
	if (hi <= 0) {
		fputs("no context switches", out);
		return;
	}
	portrait_rate(lo, hi, rate, sizeof(rate));
	fprintf(out, "context switches %s", rate);
	mine = portrait_median(d, s, true, field);
	theirs = portrait_median(d, s, false, field);
	if (!(mine > 0 && theirs > 0))
		return;
	r = mine / theirs;
	if (r >= PORTRAIT_FLAT)
		fprintf(out, ", %s the other designs' median", portrait_factor(
		    r, f, sizeof(f)));
	else if (r * PORTRAIT_FLAT <= 1)
		fprintf(out, ", %s fewer than the other designs' median",
		    portrait_factor(1 / r, f, sizeof(f)));
	else
		fputs(", about the other designs' median", out);
	return;
}

/*
 * What else it counted, each over its widths; those it counted none of,
 * together: "no idle spins or injections".
 */
static void
portrait_counters(FILE *out, const struct series *s, size_t *k)
{
	size_t i, none[PORTRAIT_NCOUNTS], nn = 0;
	double lo, hi;
	char rate[96];

	for (i = 0; i < PORTRAIT_NCOUNTS; i++) {
		if (!portrait_range(s, portrait_counts[i].field, &lo, &hi))
			continue;
		if (hi <= 0) {
			none[nn++] = i;
			continue;
		}
		portrait_rate(lo, hi, rate, sizeof(rate));
		portrait_clause(out, k);
		fprintf(out, "%s %s", portrait_counts[i].words, rate);
	}
	for (i = 0; i < nn; i++) {
		if (i == 0)
			portrait_clause(out, k);
		fprintf(out, "%s%s", i == 0 ? "no " : i + 1 == nn ? " or " :
		    ", ", portrait_counts[none[i]].words);
	}
	return;
}

/*
 * The share of its CPU that spun on a queue slot owed by a thread off its
 * CPU, at its narrowest and widest widths, when the wider is a percent or
 * more: with more threads than CPUs that is where the cost goes, and how
 * much the scheduler decides, run by run. A counter covers the warm-up as
 * well as the window, so a share is capped at the whole.
 */
static void
portrait_stalls(FILE *out, const struct series *s, size_t *k)
{
	const char *field = "slot_stall_ns_per_dispatch";
	double a, b;
	char wa[32], wb[32];

	a = results_stat(s->cell[0], field, "median") / 1e3 /
	    series_cost(s->cell[0]);
	b = results_stat(s->cell[s->n - 1], field, "median") / 1e3 /
	    series_cost(s->cell[s->n - 1]);
	if (!(b >= 0.01) || !(a >= 0) || s->n < 2)
		return;
	portrait_clause(out, k);
	fprintf(out, "%.0f %% of its CPU %s and %.0f %% %s spun on a "
	    "slot that a thread off its CPU owed a store (the scheduler's "
	    "turn, not the queue's work)", 100 * fmin(a, 1), series_at(
	    results_num(s->cell[0], "workers"), wa, sizeof(wa)), 100 *
	    fmin(b, 1), series_at(results_num(s->cell[s->n - 1], "workers"),
	    wb, sizeof(wb)));
	return;
}

/*
 * Why, from its counters: what its cells say it does with a resumption,
 * then what they counted.
 */
static void
portrait_why(FILE *out, const struct series_set *d, const struct series *s)
{
	const char *q = results_str(s->cell[0], "queue", "-");
	size_t k = 0;

	if (s->local)
		fputs(" It runs each resumption in place, on the coroutine's "
		    "own loop", out);
	else if (s->kept)
		fputs(" It keeps each resumption on the worker that made it",
		    out);
	else if (strcmp(q, "-") != 0 && *q != '\0') {
		fputs(" It hands resumptions over, through the ", out);
		table_html_escape(out, q);
		fputs(" queue its workers share", out);
	} else
		fputs(" It hands resumptions over", out);
	portrait_switches(out, d, s, &k);
	portrait_stalls(out, s, &k);
	portrait_counters(out, s, &k);
	fputs(".", out);
	return;
}

void
portrait_write(FILE *out, const struct series_set *d, const struct series *s)
{
	char shape[400];

	fputs("<li><b>", out);
	table_html_escape(out, s->name);
	fputs("</b>:", out);
	portrait_costs(out, s);
	portrait_dearest(out, d, s);
	portrait_shape(s, shape, sizeof(shape));
	fprintf(out, "; %s.", shape);
	portrait_why(out, d, s);
	fputs("</li>\n", out);
	return;
}
