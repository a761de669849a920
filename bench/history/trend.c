/*
 * trend.c - a metric's history, series by series (see trend.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counted.h"
#include "label.h"
#include "metric.h"
#include "plot.h"
#include "sittings.h"
#include "stats.h"
#include "table.h"
#include "trend.h"

#define TREND_MAX_STEPS	32
/*
 * How many merges a step stays news for while none sees it: a step a
 * merge's CI did not see for this long is history, not this merge's.
 */
#define TREND_NEWS	8

struct trend_rev {
	char *name, *date;
	long long ord;
	double *v;
	long long *sid;		/* each run's sitting, as v */
	size_t n, cap;
};

struct trend_series {
	long long machine;
	char *machine_name, *cell, *build;
	struct trend_rev *r;
	size_t n, cap;
	struct cp_step steps[TREND_MAX_STEPS];
	/*
	 * What of the machine moved with each step ("" for none): a probe,
	 * or the runs' bare loop.
	 */
	char moved[TREND_MAX_STEPS][96];
	size_t nsteps;
	struct cp_drift drift;	/* to the newest, instead of its steps */
	struct cp_gap *gaps;	/* between consecutive sittings (cp_gaps) */
	size_t ngaps;
	bool named;		/* --cell names it */
	bool shown;
};

struct trend {
	const struct trend_opts *o;
	const struct sittings *si;	/* the probes of every sitting */
	/*
	 * The series --cell names, then (to all) the others, whose gaps
	 * between sittings the first borrow: what --cell shows never
	 * changes what is found.
	 */
	struct trend_series *s;
	size_t n, all, cap;
};

static void *
trend_grow(void *p, size_t *cap, size_t n, size_t size)
{

	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 8;
	if ((p = realloc(p, *cap * size)) == NULL)
		abort();
	return p;
}

static char *
trend_dup(const char *s)
{
	char *d = strdup(s != NULL ? s : "");

	if (d == NULL)
		abort();
	return d;
}

static struct trend_series *
trend_series_of(struct trend *t, const struct store_value *v)
{
	struct trend_series *s = t->all ? &t->s[t->all - 1] : NULL;

	if (s != NULL && s->machine == v->machine &&
	    strcmp(s->cell, v->cell) == 0 && strcmp(s->build, v->build) == 0)
		return s;
	t->s = trend_grow(t->s, &t->cap, t->all, sizeof(*t->s));
	s = &t->s[t->all++];
	memset(s, 0, sizeof(*s));
	s->named = label_key_holds(t->o->cell, v->cell);
	s->machine = v->machine;
	s->machine_name = trend_dup(v->machine_name);
	s->cell = trend_dup(v->cell);
	s->build = trend_dup(v->build);
	return s;
}

/* A run of revision r: its value and its sitting, grown together. */
static void
trend_run(struct trend_rev *r, const struct store_value *v)
{

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->v = realloc(r->v, r->cap * sizeof(*r->v));
		r->sid = realloc(r->sid, r->cap * sizeof(*r->sid));
		if (r->v == NULL || r->sid == NULL)
			abort();
	}
	r->sid[r->n] = v->sitting;
	r->v[r->n++] = v->value;
	return;
}

static int
trend_collect(const struct store_value *v, void *arg)
{
	struct trend *t = arg;
	struct trend_series *s;
	struct trend_rev *r;

	s = trend_series_of(t, v);
	r = s->n ? &s->r[s->n - 1] : NULL;
	if (r == NULL || strcmp(r->name, v->revision) != 0) {
		s->r = trend_grow(s->r, &s->cap, s->n, sizeof(*s->r));
		r = &s->r[s->n++];
		memset(r, 0, sizeof(*r));
		r->name = trend_dup(v->revision);
		r->date = trend_dup(v->date);
		r->ord = v->ord;
	}
	trend_run(r, v);
	return 0;
}

static void
trend_free(struct trend *t)
{
	size_t i, j;

	for (i = 0; i < t->all; i++) {
		for (j = 0; j < t->s[i].n; j++) {
			free(t->s[i].r[j].name);
			free(t->s[i].r[j].date);
			free(t->s[i].r[j].v);
			free(t->s[i].r[j].sid);
		}
		free(t->s[i].gaps);
		free(t->s[i].r);
		free(t->s[i].machine_name);
		free(t->s[i].cell);
		free(t->s[i].build);
	}
	free(t->s);
	return;
}

/* s's revisions as the search takes them; the caller frees them. */
static struct cp_point *
trend_points(const struct trend_series *s)
{
	struct cp_point *pts = calloc(s->n ? s->n : 1, sizeof(*pts));
	size_t j;

	if (pts == NULL)
		abort();
	for (j = 0; j < s->n; j++) {
		pts[j].v = s->r[j].v;
		pts[j].n = s->r[j].n;
		pts[j].sitting = s->r[j].sid;
	}
	return pts;
}

/* Each series' gaps between consecutive sittings, for trend_borrow. */
static void
trend_gaps(struct trend *t)
{
	struct cp_point *pts;
	struct trend_series *s;
	size_t i, j, runs;

	for (i = 0; i < t->all; i++) {
		s = &t->s[i];
		for (j = runs = 0; j < s->n; j++)
			runs += s->r[j].n;
		s->gaps = calloc(runs ? runs : 1, sizeof(*s->gaps));
		if (s->gaps == NULL)
			abort();
		pts = trend_points(s);
		s->ngaps = cp_gaps(pts, s->n, s->gaps);
		free(pts);
	}
	return;
}

/*
 * The gaps between sittings that series i borrows: those of every other
 * series of its machine and build, which the same sittings moved; the
 * caller frees o->gaps.
 */
static void
trend_borrow(const struct trend *t, size_t i, struct cp_opts *o)
{
	const struct trend_series *s = &t->s[i], *u;
	struct cp_gap *g = NULL;
	size_t j, n = 0, cap = 0;

	for (j = 0; j < t->all; j++) {
		u = &t->s[j];
		if (j == i || u->ngaps == 0 || u->machine != s->machine ||
		    strcmp(u->build, s->build) != 0)
			continue;
		while (cap < n + u->ngaps)
			g = trend_grow(g, &cap, cap, sizeof(*g));
		memcpy(g + n, u->gaps, u->ngaps * sizeof(*g));
		n += u->ngaps;
	}
	o->gaps = g;
	o->ngaps = n;
	return;
}

/* The distinct sittings of s's revisions [from, to) into ids; how many. */
static size_t
trend_sittings(const struct trend_series *s, size_t from, size_t to,
    long long *ids)
{
	size_t j, k, n = 0;

	for (j = from; j < to; j++)
		for (k = 0; k < s->r[j].n; k++)
			if (n == 0 || ids[n - 1] != s->r[j].sid[k])
				ids[n++] = s->r[j].sid[k];
	return n;
}

/*
 * Whether st, a step of s, is the machine's: a probe moved past its
 * spread at it, or the runs' bare loop by half the step or more, the way
 * the step went, between the sittings of its two segments
 * (sittings_moved); why names what moved.
 */
static bool
trend_machine(const struct trend *t, const struct trend_series *s,
    const struct cp_step *st, bool slower, char *why, size_t len)
{
	long long *ids;
	size_t k, runs = 0, nb;
	bool moved;

	why[0] = '\0';
	for (k = 0; k < s->n; k++)
		runs += s->r[k].n;
	if ((ids = calloc(runs + 1, sizeof(*ids))) == NULL)
		abort();
	nb = trend_sittings(s, st->at - st->n_before, st->at, ids);
	moved = sittings_moved(t->si, ids, nb, ids + nb, trend_sittings(s,
	    st->at, st->at + st->n_after, ids + nb), slower, st->ratio, why,
	    len);
	free(ids);
	return moved;
}

/* Whether a change by ratio goes the wrong way: slower, or less done. */
static bool
trend_worse(const struct trend *t, double ratio)
{

	return (ratio > 1) != metric_higher_is_better(t->o->metric);
}

static bool
trend_slower(const struct trend *t, const struct cp_step *st)
{

	return trend_worse(t, st->ratio);
}

/*
 * Whether the history of s's first n revisions has a step the code made
 * the wrong way within a revision of at.
 */
static bool
trend_saw(const struct trend *t, const struct trend_series *s,
    const struct cp_point *pts, size_t n, const struct cp_opts *o,
    size_t at)
{
	struct cp_step was[TREND_MAX_STEPS];
	char why[96];
	size_t k, found = cp_find(pts, n, o, was, TREND_MAX_STEPS);

	for (k = 0; k < found; k++)
		if (was[k].at + 1 >= at && was[k].at <= at + 1 &&
		    trend_slower(t, &was[k]) && (was[k].exact ||
		    !trend_machine(t, s, &was[k], true, why, sizeof(why))))
			return true;
	return false;
}

/*
 * Whether st, a step of s the wrong way and the code's, is news for the
 * merge that measured s's newest revision: it began in the last
 * TREND_NEWS revisions, and no merge since (the history of each shorter
 * prefix from its revision on) had such a step within a revision of it.
 * A step fails the first merge that sees it and no other: one a merge
 * excused as the machine's, or did not see (its sitting was disturbed,
 * or it needed a revision more), fails the next that sees it.
 */
static bool
trend_fresh(const struct trend *t, const struct trend_series *s,
    const struct cp_point *pts, const struct cp_opts *o,
    const struct cp_step *st)
{
	size_t n;

	if (st->at + TREND_NEWS < s->n)
		return false;
	for (n = st->at + 1; n < s->n; n++)
		if (trend_saw(t, s, pts, n, o, st->at))
			return false;
	return true;
}

/*
 * Whether s's drift, the wrong way, is news for the merge that measured
 * its newest revision: the history without it had neither such a drift
 * nor a step the wrong way in the drift's revisions (the merges that saw
 * those failed already).
 */
static bool
trend_drift_fresh(const struct trend *t, const struct trend_series *s,
    const struct cp_point *pts, const struct cp_opts *o)
{
	struct cp_step was[TREND_MAX_STEPS];
	struct cp_drift d;
	size_t k, found;

	found = cp_find(pts, s->n - 1, o, was, TREND_MAX_STEPS);
	for (k = 0; k < found; k++)
		if (was[k].at >= s->drift.from && trend_slower(t, &was[k]))
			return false;
	(void)cp_drift(pts, s->n - 1, o, was, found, &d);
	return !(d.found && trend_worse(t, d.total));
}

/*
 * Each series' steps, and each one's probes, and its drift; f counts
 * those the wrong way that are news for a merge's CI, and the newest of
 * them the machine's.
 */
static void
trend_steps(struct trend *t, struct trend_found *f)
{
	struct cp_point *pts;
	struct trend_series *s;
	struct cp_step *st;
	struct cp_opts o;
	size_t i, j;

	trend_gaps(t);
	for (i = 0; i < t->n; i++) {
		s = &t->s[i];
		o = t->o->cp;
		o.counted = counted_metric(t->o->metric);
		trend_borrow(t, i, &o);
		pts = trend_points(s);
		s->nsteps = cp_drift(pts, s->n, &o, s->steps, cp_find(pts, s->n,
		    &o, s->steps, TREND_MAX_STEPS), &s->drift);
		f->fresh += s->drift.found && trend_worse(t, s->drift.total) &&
		    trend_drift_fresh(t, s, pts, &o);
		for (j = 0; j < s->nsteps; j++) {
			st = &s->steps[j];
			/* No machine's speed moves an exact count. */
			s->moved[j][0] = '\0';
			if (!st->exact && trend_machine(t, s, st,
			    trend_slower(t, st), s->moved[j],
			    sizeof(s->moved[j])))
				f->machine += trend_slower(t, st) &&
				    st->at + 1 == s->n;
			else if (trend_slower(t, st) &&
			    trend_fresh(t, s, pts, &o, st))
				f->fresh++;
		}
		free(pts);
		free((void *)o.gaps);
	}
	return;
}

/* The step beginning at revision j of s, or NULL. */
static const struct cp_step *
trend_step_at(const struct trend_series *s, size_t j)
{
	size_t k;

	for (k = 0; k < s->nsteps; k++)
		if (s->steps[k].at == j)
			return &s->steps[k];
	return NULL;
}

/*
 * The series a person is shown: those --cell names, else those with a
 * step, with two revisions or more; at most TREND_SHOWN. How many
 * qualified.
 */
static size_t
trend_pick(struct trend *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++) {
		if (t->s[i].n < 2 || (t->o->cell == NULL &&
		    t->s[i].nsteps == 0 && !t->s[i].drift.found))
			continue;
		t->s[i].shown = n < TREND_SHOWN;
		n++;
	}
	return n;
}

static const struct table_col trend_step_cols[] = {
	{ "cell", "cell" }, { "machine", "machine" }, { "build", "build" },
	{ "revision", "from revision" }, { "before", "before" },
	{ "after", "after" }, { "change", "change [interval]" },
	{ "p", "p" }, { "status", "status" },
};

static const struct table_col trend_point_cols[] = {
	{ "machine", "machine" }, { "cell", "cell" }, { "build", "build" },
	{ "revision", "revision" }, { "date", "committed" },
	{ "runs", "runs" }, { "median", "median" }, { "min", "min" },
	{ "max", "max" }, { "step", "step" }, { "step_ratio", "ratio" },
	{ "step_lo", "ratio lo" }, { "step_hi", "ratio hi" },
	{ "step_p", "p" },
};

/* A step's status; the machine's, with what moved, if it is. */
static const char *
trend_status(const struct trend_series *s, const struct cp_step *st,
    char *buf, size_t len)
{
	const char *moved = s->moved[st - s->steps];

	if (*moved != '\0')
		snprintf(buf, len, "the machine moved (%s)%s", moved,
		    st->confirmed ? "" : ", newest");
	else
		snprintf(buf, len, "%s", st->exact ? "step (exact)" :
		    st->confirmed ? "step" : "unconfirmed (newest)");
	return buf;
}

/* "+12.3 % [+9.0, +15.1]"; an exact step's "+0.333 % (exact)". */
static const char *
trend_change(const struct cp_step *st, char *buf, size_t len)
{

	if (st->exact) {
		snprintf(buf, len, "%+.3g %% (exact)", 100 * (st->ratio - 1));
		return buf;
	}
	return metric_signed(st->ratio - 1, st->lo - 1, st->hi - 1, false, buf,
	    len);
}

/*
 * A level either side of a step, scaled; an exact step's whole, since two
 * figures would not tell 1234 instructions from 1235.
 */
static const char *
trend_level(const struct cp_step *st, double v, const char *unit, char *buf,
    size_t len)
{

	if (!st->exact)
		return table_scaled(v, unit, buf, len);
	snprintf(buf, len, "%.10g%s%s", v, unit[0] ? " " : "", unit);
	return buf;
}

static cJSON *
trend_step_row(const struct trend_series *s, const struct cp_step *st,
    const char *unit)
{
	cJSON *row = cJSON_CreateObject();
	char buf[160], cell[256];

	label_short_cell(s->cell, cell, sizeof(cell));
	cJSON_AddStringToObject(row, "cell", cell);
	cJSON_AddStringToObject(row, "machine", s->machine_name);
	cJSON_AddStringToObject(row, "build", s->build);
	cJSON_AddStringToObject(row, "revision", s->r[st->at].name);
	cJSON_AddStringToObject(row, "before", trend_level(st, st->before,
	    unit, buf, sizeof(buf)));
	cJSON_AddStringToObject(row, "after", trend_level(st, st->after, unit,
	    buf, sizeof(buf)));
	cJSON_AddStringToObject(row, "change", trend_change(st, buf,
	    sizeof(buf)));
	cJSON_AddNumberToObject(row, "p", st->p);
	cJSON_AddStringToObject(row, "status", trend_status(s, st, buf,
	    sizeof(buf)));
	return row;
}

/* A figure: for people, scaled with its unit ("4.6 ns"); else every digit. */
static void
trend_figure(cJSON *row, const char *name, double v, const char *unit)
{
	char buf[64];

	if (unit == NULL)
		cJSON_AddNumberToObject(row, name, v);
	else
		cJSON_AddStringToObject(row, name, table_scaled(v, unit, buf,
		    sizeof(buf)));
	return;
}

/*
 * One revision of a series: its runs' median and range, and its step;
 * for people (unit not NULL) without the series' own columns.
 */
static cJSON *
trend_point_row(const struct trend_series *s, size_t j, const char *unit)
{
	bool people = unit != NULL;
	const struct cp_step *st = trend_step_at(s, j);
	struct stats_summary sum;
	cJSON *row = cJSON_CreateObject();
	char buf[160];

	stats_summarize(s->r[j].v, s->r[j].n, &sum);
	if (!people) {
		cJSON_AddStringToObject(row, "machine", s->machine_name);
		cJSON_AddStringToObject(row, "cell", s->cell);
		cJSON_AddStringToObject(row, "build", s->build);
	}
	cJSON_AddStringToObject(row, "revision", s->r[j].name);
	cJSON_AddStringToObject(row, "date", s->r[j].date);
	cJSON_AddNumberToObject(row, "runs", (double)s->r[j].n);
	trend_figure(row, "median", sum.median, people ? unit : NULL);
	trend_figure(row, "min", sum.min, people ? unit : NULL);
	trend_figure(row, "max", sum.max, people ? unit : NULL);
	if (st == NULL)
		return row;
	if (people) {
		trend_change(st, buf, sizeof(buf));
		if (s->moved[st - s->steps][0] != '\0')
			strncat(buf, " (the machine)", sizeof(buf) -
			    strlen(buf) - 1);
		else if (!st->confirmed)
			strncat(buf, " (unconfirmed)", sizeof(buf) -
			    strlen(buf) - 1);
		cJSON_AddStringToObject(row, "step", buf);
		return row;
	}
	cJSON_AddStringToObject(row, "step", trend_status(s, st, buf,
	    sizeof(buf)));
	cJSON_AddNumberToObject(row, "step_ratio", st->ratio);
	cJSON_AddNumberToObject(row, "step_lo", st->lo);
	cJSON_AddNumberToObject(row, "step_hi", st->hi);
	cJSON_AddNumberToObject(row, "step_p", st->p);
	return row;
}

/* Every revision of every series, one table (CSV, JSON). */
static void
trend_rows(const struct trend *t, FILE *out)
{
	static const struct table tab = { "history", trend_point_cols,
	    sizeof(trend_point_cols) / sizeof(trend_point_cols[0]) };
	cJSON *rows = cJSON_CreateArray();
	size_t i, j;

	for (i = 0; i < t->n; i++)
		for (j = 0; j < t->s[i].n; j++)
			cJSON_AddItemToArray(rows, trend_point_row(&t->s[i], j,
			    NULL));
	table_write(out, (enum table_format)t->o->format, &tab, rows);
	cJSON_Delete(rows);
	return;
}

static void
trend_steps_table(const struct trend *t, FILE *out, const char *unit)
{
	static const struct table tab = { "steps", trend_step_cols,
	    sizeof(trend_step_cols) / sizeof(trend_step_cols[0]) };
	cJSON *rows = cJSON_CreateArray();
	size_t i, j;

	for (i = 0; i < t->n; i++)
		for (j = 0; j < t->s[i].nsteps; j++)
			cJSON_AddItemToArray(rows, trend_step_row(&t->s[i],
			    &t->s[i].steps[j], unit));
	if (cJSON_GetArraySize(rows) > 0) {
		fprintf(out, "\n");
		table_write(out, (enum table_format)t->o->format, &tab, rows);
	}
	cJSON_Delete(rows);
	return;
}

/* A shown series: its name, then a row per revision. */
static void
trend_series_table(const struct trend_series *s, FILE *out, int format,
    const struct metric *m)
{
	static const struct table tab = { "trend", trend_point_cols + 3,
	    sizeof(trend_point_cols) / sizeof(trend_point_cols[0]) - 7 };
	bool md = format == TABLE_MARKDOWN;
	cJSON *rows = cJSON_CreateArray();
	size_t j;

	for (j = 0; j < s->n; j++)
		cJSON_AddItemToArray(rows, trend_point_row(s, j, m->unit));
	fprintf(out, "\n%s%s%s on %s, %s build (%s):\n\n", md ? "**" : "",
	    s->cell, md ? "**" : "", s->machine_name, s->build, m->quantity);
	table_write(out, (enum table_format)format, &tab, rows);
	cJSON_Delete(rows);
	return;
}

/*
 * A drift in words: "drift: +1.0 % a revision over 20 revisions, r3..r22,
 * +20.8 % in all".
 */
static void
trend_drift_line(const struct trend_series *s, FILE *out)
{
	const struct cp_drift *d = &s->drift;
	char cell[256];

	label_short_cell(s->cell, cell, sizeof(cell));
	fprintf(out, "\n%s on %s, %s build: drift: %+.1f %% a revision over "
	    "%zu revisions, %s..%s, %+.1f %% in all (Mann-Kendall p %.2g)",
	    cell, s->machine_name, s->build, 100 * (d->slope - 1), d->n,
	    s->r[d->from].name, s->r[d->to].name, 100 * (d->total - 1), d->p);
	if (d->steps > 0)
		fprintf(out, ", not the %zu step%s the search found in it",
		    d->steps, d->steps == 1 ? "" : "s");
	fprintf(out, "\n");
	return;
}

/* For people: what was looked at and found, the steps, each shown trend. */
static void
trend_people(const struct trend *t, FILE *out, size_t picked)
{
	const struct cp_opts *cp = &t->o->cp;
	size_t i, j, steps = 0, unconfirmed = 0, drifts = 0;
	struct metric m;

	metric_of(t->o->metric, &m);
	for (i = 0; i < t->n; i++) {
		drifts += t->s[i].drift.found;
		for (j = 0; j < t->s[i].nsteps; j++) {
			steps++;
			unconfirmed += !t->s[i].steps[j].confirmed;
		}
	}
	fprintf(out, "%s of %zu series (a cell on a machine, one build): %zu "
	    "step%s, %zu of them unconfirmed. A step is a shift past ±%.0f %% "
	    "that both the runs (exact rank-sum) and the sittings (t of their "
	    "levels, against the spread between sittings) put below p %g over "
	    "the splits tried, with at least %zu revisions each side; one "
	    "newer than that is unconfirmed.\n", m.quantity, t->n, steps,
	    steps == 1 ? "" : "s", unconfirmed, cp->threshold * 100, cp->alpha,
	    cp->min_size);
	if (counted_metric(t->o->metric))
		fprintf(out, "A series whose every revision repeats one count "
		    "(two runs or more) is exact: no test, a step wherever the "
		    "count moves%s.\n", cp->threshold_given ? ", past the "
		    "threshold" : " (no --threshold)");
	if (drifts > 0)
		fprintf(out, "%zu series drift: a steady rise or fall to the "
		    "newest revision (Theil-Sen's slope of the revisions' "
		    "medians, Mann-Kendall's p below %g over the starts tried) "
		    "that fits them better than steps do.\n", drifts,
		    cp->alpha);
	trend_steps_table(t, out, m.unit);
	for (i = 0; i < t->n; i++)
		if (t->s[i].drift.found)
			trend_drift_line(&t->s[i], out);
	for (i = 0; i < t->n; i++)
		if (t->s[i].shown)
			trend_series_table(&t->s[i], out, t->o->format, &m);
	if (picked > TREND_SHOWN)
		fprintf(out, "\n%zu more series %s: narrow them with --cell.\n",
		    picked - TREND_SHOWN, t->o->cell ? "match" : "have a step");
	else if (picked == 0)
		fprintf(out, "\nNo series %s.\n", t->o->cell ?
		    "that --cell names has two revisions or more" :
		    "has a step");
	return;
}

/* The shown series' revisions, in commit order: the picture's x axis. */
struct trend_axis {
	const struct trend_rev **r;
	size_t n;
};

static int
trend_rev_cmp(const void *a, const void *b)
{
	const struct trend_rev *x = *(const struct trend_rev *const *)a;
	const struct trend_rev *y = *(const struct trend_rev *const *)b;
	int c = (x->ord < 0) - (y->ord < 0);

	/* The store's order: first-parent depth (unknown last), time, name. */
	if (c == 0)
		c = (x->ord > y->ord) - (x->ord < y->ord);
	if (c == 0)
		c = strcmp(x->date, y->date);
	return c != 0 ? c : strcmp(x->name, y->name);
}

static size_t
trend_x(const struct trend_axis *ax, const char *name)
{
	size_t i;

	for (i = 0; i < ax->n; i++)
		if (strcmp(ax->r[i]->name, name) == 0)
			return i;
	return SIZE_MAX;
}

static void
trend_axis(const struct trend *t, struct trend_axis *ax)
{
	size_t i, j, cap = 0;

	ax->r = NULL;
	ax->n = 0;
	for (i = 0; i < t->n; i++)
		for (j = 0; t->s[i].shown && j < t->s[i].n; j++) {
			if (trend_x(ax, t->s[i].r[j].name) != SIZE_MAX)
				continue;
			ax->r = trend_grow(ax->r, &cap, ax->n, sizeof(*ax->r));
			ax->r[ax->n++] = &t->s[i].r[j];
		}
	qsort(ax->r, ax->n, sizeof(*ax->r), trend_rev_cmp);
	return;
}

/*
 * Series k's data: block 2k its medians with their min and max, block
 * 2k+1 every run; its steps as dashed lines before their revision, the
 * change written at the top.
 */
static void
trend_plot_series(const struct trend_series *s, int k,
    const struct trend_axis *ax, FILE *data, char *arrows, size_t len,
    size_t *used, struct plot_span *sp)
{
	struct stats_summary sum;
	char buf[128];
	size_t j, i;

	for (j = 0; j < s->n; j++) {
		stats_summarize(s->r[j].v, s->r[j].n, &sum);
		fprintf(data, "%zu %g %g %g\n", trend_x(ax, s->r[j].name),
		    sum.median, sum.min, sum.max);
		plot_span_add(sp, sum.min);
		plot_span_add(sp, sum.max);
	}
	fprintf(data, "\n\n");
	for (j = 0; j < s->n; j++)
		for (i = 0; i < s->r[j].n; i++)
			fprintf(data, "%zu %g\n", trend_x(ax, s->r[j].name),
			    s->r[j].v[i]);
	fprintf(data, "\n\n");
	for (j = 0; j < s->nsteps; j++) {
		i = trend_x(ax, s->r[s->steps[j].at].name);
		plot_cat(arrows, len, used, "set arrow from %g, graph 0 to %g, "
		    "graph 1 nohead dt 2 lw 1.5 lc rgb '%s'\nset label \"%s\" at "
		    "%g, graph %g left offset 0.3,0 tc rgb '%s'\n", i - 0.5,
		    i - 0.5, plot_colours[1 + k], trend_change(&s->steps[j], buf,
		    sizeof(buf)), i - 0.5, 0.96 - 0.05 * k, plot_colours[1 + k]);
	}
	return;
}

/* A series in the key: "shared/lfseg w=8 c=64 on HOST (CPU), BUILD". */
static void
trend_title(const struct trend_series *s, char *buf, size_t len)
{
	char cell[256];

	label_short_cell(s->cell, cell, sizeof(cell));
	snprintf(buf, len, "%s on %s, %s", cell, s->machine_name, s->build);
	return;
}

/* trend.png and .svg of the shown series. */
static int
trend_plot(const struct trend *t, char *err, size_t errlen)
{
	static char tics[32768], arrows[16384], plots[16384], yaxis[8192];
	struct plot_span sp = { 0, INFINITY, 0 };
	size_t i, at = 0, ut = 0, up = 0, longest = 0;
	struct trend_axis ax;
	char datpath[4096], title[512], size[32], key[256];
	struct metric m;
	FILE *data;
	int k = 0;

	if ((data = plot_data_open(t->o->dir, "trend", datpath, sizeof(datpath),
	    err, errlen)) == NULL)
		return -1;
	trend_axis(t, &ax);
	for (i = 0; i < ax.n; i++)
		plot_cat(tics, sizeof(tics), &ut, "%s\"%s\" %zu", i ? ", " : "",
		    ax.r[i]->name, i);
	for (i = 0; i < t->n; i++) {
		if (!t->s[i].shown)
			continue;
		trend_plot_series(&t->s[i], k, &ax, data, arrows, sizeof(arrows),
		    &at, &sp);
		trend_title(&t->s[i], title, sizeof(title));
		longest = fmax(longest, strlen(title));
		plot_cat(plots, sizeof(plots), &up, "%s'%s' index %d using "
		    "1:2:3:4 with yerrorlines lc rgb '%s' pt %d lw 2 title '%s', "
		    "'%s' index %d using 1:2 with points lc rgb '%s' pt 1 "
		    "ps 0.6 notitle", k ? ", " : "", datpath, 2 * k,
		    plot_colours[1 + k], 5 + 2 * k, title, datpath, 2 * k + 1,
		    plot_colours[1 + k]);
		k++;
	}
	fclose(data);
	free(ax.r);
	metric_of(t->o->metric, &m);
	plot_log_axis("y", sp.ymin, sp.ymax, yaxis, sizeof(yaxis));
	plot_key(k, longest, 560, size, sizeof(size), key, sizeof(key));
	return plot_draw(t->o->dir, "trend", size, err, errlen,
	    "set title \"%s against commit order: each revision's median "
	    "and range (its runs as crosses);\\ndashed: a step, from that "
	    "revision on\"\nset xrange [-0.5:%g]\nset xtics (%s) rotate by 45 "
	    "right\nset xlabel 'revisions, in commit order'\nset ylabel '%s'\n"
	    "%sset grid ytics\n%s"
	    "%splot %s\n", m.quantity, ax.n - 0.5, tics, m.quantity, yaxis, key,
	    arrows, plots);
}

/* The series --cell names first, each part in the store's order. */
static void
trend_partition(struct trend *t)
{
	struct trend_series *p = calloc(t->all + 1, sizeof(*p));
	size_t i, k = 0;
	int named;

	if (p == NULL)
		abort();
	for (named = 1; named >= 0; named--)
		for (i = 0; i < t->all; i++)
			if (t->s[i].named == named)
				p[k++] = t->s[i];
	for (i = t->n = 0; i < t->all; i++)
		t->n += p[i].named;
	free(t->s);
	t->s = p;
	t->cap = t->all + 1;
	return;
}

int
trend_write(struct store *s, const struct trend_opts *o, FILE *out,
    struct trend_found *f, char *err, size_t errlen)
{
	struct trend t = { o, NULL, NULL, 0, 0, 0 };
	struct sittings *si;
	char metrics[2048];
	size_t picked;
	long n;
	int rc = 0;

	if ((n = store_values(s, o->metric, trend_collect, &t, err,
	    errlen)) < 0)
		return -1;
	trend_partition(&t);
	if (t.n == 0) {
		store_metrics(s, metrics, sizeof(metrics));
		snprintf(err, errlen, n == 0 ? "no run in the store has %s "
		    "(it holds: %s)" : "no cell of %s matches --cell '%s'",
		    o->metric, n == 0 ? metrics : o->cell);
		trend_free(&t);
		return -1;
	}
	if (sittings_load(s, o->cp.threshold, o->cp.alpha, &si, err,
	    errlen) != 0) {
		trend_free(&t);
		return -1;
	}
	t.si = si;
	f->fresh = f->machine = 0;
	trend_steps(&t, f);
	sittings_free(si);
	picked = trend_pick(&t);
	if (table_for_people((enum table_format)o->format))
		trend_people(&t, out, picked);
	else
		trend_rows(&t, out);
	f->drawn = o->dir != NULL && picked > 0;
	if (f->drawn)
		rc = trend_plot(&t, err, errlen);
	trend_free(&t);
	return rc;
}
