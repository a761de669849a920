/*
 * counted.c - a figure counted, not timed (see counted.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counted.h"
#include "results.h"
#include "runfields.h"
#include "stats.h"

bool
counted_metric(const char *metric)
{

	return strcmp(metric, COUNTED_METRIC) == 0;
}

bool
counted_exact(const double *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] != v[0])
			return false;
	return n >= 2;
}

/*
 * Two counts a dispatch as text, with as many decimals as tell them apart
 * (one at least): one instruction more in a window of a million
 * dispatches moves the count a dispatch by a millionth.
 */
static void
counted_pair(double a, double b, char *sa, char *sb, size_t len)
{
	int d;

	for (d = 1; d <= 9; d++) {
		snprintf(sa, len, "%.*f", d, a);
		snprintf(sb, len, "%.*f", d, b);
		if (a == b || strcmp(sa, sb) != 0)
			return;
	}
	snprintf(sa, len, "%.17g", a);
	snprintf(sb, len, "%.17g", b);
	return;
}

/* A change in per cent, signed; two figures where one decimal shows 0. */
static void
counted_pct(double change, char *buf, size_t len)
{
	double pct = 100 * change;

	snprintf(buf, len, fabs(pct) >= 0.05 ? "%+.1f %%" : "%+.2g %%", pct);
	return;
}

const char *
counted_verdict(double a, double b, double threshold, char *why, size_t len)
{
	char sa[40], sb[40], pct[32];
	double change = b / a - 1;

	counted_pair(a, b, sa, sb, sizeof(sa));
	if (a == b) {
		snprintf(why, len, "same instructions (exact: %s a dispatch on "
		    "both)", sa);
		return "equivalent";
	}
	counted_pct(change, pct, sizeof(pct));
	if (fabs(change) < threshold) {
		snprintf(why, len, "%s instructions, within ±%g %% (exact: %s "
		    "-> %s a dispatch)", pct, 100 * threshold, sa, sb);
		return "equivalent";
	}
	snprintf(why, len, "%s instructions (exact: %s -> %s a dispatch)", pct,
	    sa, sb);
	return b > a ? "regressed" : "improved";
}

/* (max - min) / median of v[0..n); 0 for none. */
static double
counted_spread(const double *v, size_t n)
{
	struct stats_summary s;

	if (n == 0)
		return 0;
	stats_summarize(v, n, &s);
	return (s.max - s.min) / s.median;
}

void
counted_as_timed(const double *va, size_t na, const double *vb, size_t nb,
    char *why, size_t len)
{
	char was[512];

	snprintf(was, sizeof(was), "%s", why);
	snprintf(why, len, "counts vary run to run (spread %.2g %%): judged as "
	    "a timed figure%s%s", 100 * fmax(counted_spread(va, na),
	    counted_spread(vb, nb)), was[0] != '\0' ? "; " : "", was);
	return;
}

/* What counted a run: its tool and the tool's version. */
struct counted_by {
	const char *tool, *version;
	int side;			/* 0 BASE, 1 NEW */
};

/*
 * Each run of doc (side k) that says what counted it against by, the
 * first that did (which it becomes when it has none yet); -1 and err at
 * the first that differs.
 */
static int
counted_by_doc(const cJSON *doc, int k, struct counted_by *by, char *err,
    size_t errlen)
{
	static const char *const sides[2] = { "BASE", "NEW" };
	const cJSON *cell, *run;
	const char *tool, *version;

	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
			if ((tool = results_str(run, RF(instructions_counter),
			    NULL)) == NULL)
				continue;
			version = results_str(run,
			    RF(instructions_counter_version), "version unknown");
			if (by->tool == NULL)
				*by = (struct counted_by){ tool, version, k };
			if (strcmp(tool, by->tool) == 0 &&
			    strcmp(version, by->version) == 0)
				continue;
			if (by->side == k)
				snprintf(err, errlen, "%s counted with %s (%s) "
				    "and with %s (%s): not the same quantity",
				    sides[k], by->tool, by->version, tool,
				    version);
			else
				snprintf(err, errlen, "BASE counted with %s "
				    "(%s), NEW with %s (%s): not the same "
				    "quantity", by->tool, by->version, tool,
				    version);
			return -1;
		}
	return 0;
}

int
counted_same_counter(const cJSON *base, const cJSON *new, char *err,
    size_t errlen)
{
	struct counted_by by = { NULL, NULL, 0 };

	if (counted_by_doc(base, 0, &by, err, errlen) != 0)
		return -1;
	return counted_by_doc(new, 1, &by, err, errlen);
}

/* A run and its figure, to be sorted by it. */
struct counted_at {
	double v;
	const cJSON *run;
};

static int
counted_at_cmp(const void *x, const void *y)
{
	const struct counted_at *a = x, *b = y;

	return (a->v > b->v) - (a->v < b->v);
}

const cJSON *
counted_median_run(const cJSON *const *runs, size_t n, const char *field)
{
	struct counted_at *at = malloc((n + 1) * sizeof(*at));
	const cJSON *run = NULL;
	size_t i, k = 0;
	double v;

	if (at == NULL)
		abort();
	for (i = 0; i < n; i++) {
		v = results_num(runs[i], field);
		if (results_ok(runs[i]) && v > 0 && results_obj(runs[i],
		    RF(instructions_by_function)) != NULL)
			at[k++] = (struct counted_at){ v, runs[i] };
	}
	if (k > 0) {
		qsort(at, k, sizeof(*at), counted_at_cmp);
		run = at[(k - 1) / 2].run;
	}
	free(at);
	return run;
}

const cJSON *
counted_median_in(const cJSON *runs, const char *field)
{
	const cJSON **all = malloc(((size_t)cJSON_GetArraySize(runs) + 1) *
	    sizeof(*all));
	const cJSON *run, *median;
	size_t n = 0;

	if (all == NULL)
		abort();
	cJSON_ArrayForEach(run, runs)
		all[n++] = run;
	median = counted_median_run(all, n, field);
	free(all);
	return median;
}

/* A function of either side: its self instructions a dispatch in each. */
struct counted_fn {
	const char *name;
	double a, b;			/* NAN: not among its top ones */
	double d;			/* b - a, an absent side as 0 */
};

/* The larger change first; of equal ones, the name first in order. */
static int
counted_fn_cmp(const void *x, const void *y)
{
	const struct counted_fn *a = x, *b = y;

	if (fabs(a->d) != fabs(b->d))
		return fabs(a->d) < fabs(b->d) ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* f into fns: a new entry, or side b of the one of its name. */
static size_t
counted_fn_add(struct counted_fn *fns, size_t n, const cJSON *f, bool b)
{
	size_t i;

	for (i = 0; i < n && strcmp(fns[i].name, f->string) != 0; i++)
		continue;
	if (i == n)
		fns[n++] = (struct counted_fn){ f->string, NAN, NAN, 0 };
	*(b ? &fns[i].b : &fns[i].a) = f->valuedouble;
	return n;
}

static void
counted_add_num(cJSON *o, const char *name, double v)
{

	if (isnan(v))
		cJSON_AddNullToObject(o, name);
	else
		cJSON_AddNumberToObject(o, name, v);
	return;
}

cJSON *
counted_functions(const cJSON *a, const cJSON *b)
{
	const cJSON *fa = results_obj(a, RF(instructions_by_function));
	const cJSON *fb = results_obj(b, RF(instructions_by_function)), *f;
	struct counted_fn *fns = calloc((size_t)cJSON_GetArraySize(fa) +
	    (size_t)cJSON_GetArraySize(fb) + 1, sizeof(*fns));
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i, n = 0;

	if (fns == NULL)
		abort();
	cJSON_ArrayForEach(f, fa)
		if (cJSON_IsNumber(f))
			n = counted_fn_add(fns, n, f, false);
	cJSON_ArrayForEach(f, fb)
		if (cJSON_IsNumber(f))
			n = counted_fn_add(fns, n, f, true);
	for (i = 0; i < n; i++)
		fns[i].d = (isnan(fns[i].b) ? 0 : fns[i].b) -
		    (isnan(fns[i].a) ? 0 : fns[i].a);
	qsort(fns, n, sizeof(*fns), counted_fn_cmp);
	for (i = 0; i < n && i < COUNTED_FUNCTIONS && fns[i].d != 0; i++) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "function", fns[i].name);
		counted_add_num(o, "base", fns[i].a);
		counted_add_num(o, "new", fns[i].b);
		cJSON_AddNumberToObject(o, "change", fns[i].d);
		cJSON_AddItemToArray(arr, o);
	}
	free(fns);
	return arr;
}

/* A side's self instructions a dispatch, "-" where it has none. */
static const char *
counted_fig(const cJSON *o, const char *name, char *buf, size_t len)
{
	double v = results_num(o, name);

	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

void
counted_write_functions(FILE *out, const cJSON *fns)
{
	const cJSON *f;
	char a[32], b[32];
	int w = 0, k;

	cJSON_ArrayForEach(f, fns)
		if ((k = (int)strlen(results_str(f, "function", ""))) > w)
			w = k;
	cJSON_ArrayForEach(f, fns)
		fprintf(out, "    %-*s  %+.2f a dispatch (%s -> %s)\n", w,
		    results_str(f, "function", ""), results_num(f, "change"),
		    counted_fig(f, "base", a, sizeof(a)), counted_fig(f, "new",
		    b, sizeof(b)));
	return;
}
