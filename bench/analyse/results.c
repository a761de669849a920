/*
 * results.c - the results file (see results.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "params.h"
#include "results.h"
#include "runfields.h"
#include "stats.h"

bool
results_ok(const cJSON *run)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(run, RF(status));

	return cJSON_IsString(f) && strcmp(f->valuestring, "ok") == 0;
}

int
results_side_of(double before, double after, double boundary)
{

	if (!isfinite(before) || !isfinite(after))
		return -1;
	if ((before > boundary) != (after > boundary))
		return RESULTS_MOVED;
	return before > boundary ? RESULTS_FAR : RESULTS_NEAR;
}

int
results_side(const cJSON *run, double boundary)
{

	return results_side_of(results_num(run, RF(line_round_trip_ns_before)),
	    results_num(run, RF(line_round_trip_ns_after)), boundary);
}

size_t
results_on(const cJSON *cell, double boundary, int side, const char *metric,
    double *v)
{
	const cJSON *run;
	size_t n = 0;

	cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
		if (!results_ok(run) || results_side(run, boundary) != side)
			continue;
		if (v != NULL)
			v[n] = results_num(run, metric);
		n++;
	}
	return n;
}

unsigned int
results_shared_placements(const cJSON *a, const cJSON *b, double *boundary)
{
	const cJSON *runs[2] = { results_arr(a, "runs"),
	    results_arr(b, "runs") };
	unsigned int both = 0;
	int side;

	if (!results_placements(runs, 2, boundary))
		return 0;
	for (side = RESULTS_NEAR; side <= RESULTS_FAR; side++)
		if (results_on(a, *boundary, side, NULL, NULL) >= 2 &&
		    results_on(b, *boundary, side, NULL, NULL) >= 2)
			both |= 1u << side;
	return both;
}

/* One placement's runs, the median of their figure and of their probes. */
static void
results_side_add(cJSON *pl, const char *side, double *fig, double *line,
    size_t n)
{
	cJSON *g = cJSON_AddObjectToObject(pl, side);

	cJSON_AddNumberToObject(g, "runs", (double)n);
	if (n == 0)
		return;
	cJSON_AddNumberToObject(g, "median", stats_select_median(fig, n));
	cJSON_AddNumberToObject(g, "line_round_trip_ns",
	    stats_select_median(line, 2 * n));
	return;
}

/* The line probes of the ok runs of runs[0..n - 1] into line; how many. */
static size_t
results_lines(const cJSON *const *runs, size_t n, double **line)
{
	const cJSON *run;
	size_t size = 1, m = 0, i;

	for (i = 0; i < n; i++)
		size += 2 * (size_t)cJSON_GetArraySize(runs[i]);
	if ((*line = malloc(size * sizeof(**line))) == NULL)
		abort();
	for (i = 0; i < n; i++)
		cJSON_ArrayForEach(run, runs[i])
			if (results_ok(run) &&
			    results_side(run, INFINITY) >= 0) {
				(*line)[m++] = results_num(run,
				    RF(line_round_trip_ns_before));
				(*line)[m++] = results_num(run,
				    RF(line_round_trip_ns_after));
			}
	return m;
}

bool
results_probes_split(const double *line, size_t m, double *boundary)
{

	return m >= 4 && stats_bimodal(line, m, boundary);
}

bool
results_placements(const cJSON *const *runs, size_t n, double *boundary)
{
	double *line;
	size_t m = results_lines(runs, n, &line);
	bool two = results_probes_split(line, m, boundary);

	free(line);
	return two;
}

/*
 * Where the ok runs' line probes fall into two groups, the host ran the
 * machine's CPUs in two placements (a guest's vCPUs on one host core or
 * on two): each placement's runs and the median of their figure name, and
 * the runs that moved between them. NULL: one placement, or no probes.
 */
static cJSON *
results_placement(const cJSON *runs, const char *name)
{
	size_t size = (size_t)cJSON_GetArraySize(runs) + 1;
	size_t n[RESULTS_SIDES] = { 0 };
	double *cost[2], *lines[2], boundary;
	const cJSON *run;
	cJSON *pl = NULL;
	int side, k;

	cost[0] = malloc(size * sizeof(double));
	cost[1] = malloc(size * sizeof(double));
	lines[0] = malloc(2 * size * sizeof(double));
	lines[1] = malloc(2 * size * sizeof(double));
	if (cost[0] == NULL || cost[1] == NULL || lines[0] == NULL ||
	    lines[1] == NULL)
		abort();
	if (results_placements(&runs, 1, &boundary)) {
		cJSON_ArrayForEach(run, runs) {
			if (!results_ok(run) || (side = results_side(run,
			    boundary)) < 0)
				continue;
			if (side != RESULTS_MOVED) {
				k = (int)n[side];
				cost[side][k] = results_num(run, name);
				lines[side][2 * k] = results_num(run,
				    RF(line_round_trip_ns_before));
				lines[side][2 * k + 1] = results_num(run,
				    RF(line_round_trip_ns_after));
			}
			n[side]++;
		}
		pl = cJSON_CreateObject();
		cJSON_AddNumberToObject(pl, "boundary_ns", boundary);
		results_side_add(pl, "near", cost[0], lines[0], n[RESULTS_NEAR]);
		results_side_add(pl, "far", cost[1], lines[1], n[RESULTS_FAR]);
		cJSON_AddNumberToObject(pl, "moved", (double)n[RESULTS_MOVED]);
	}
	free(cost[0]);
	free(cost[1]);
	free(lines[0]);
	free(lines[1]);
	return pl;
}

/* The numbers name holds in the ok runs, into *vp (the caller frees it). */
static size_t
results_values(const cJSON *runs, const char *name, double **vp)
{
	double *v = malloc(sizeof(*v) * (size_t)(cJSON_GetArraySize(runs) + 1));
	const cJSON *run, *f;
	size_t n = 0;

	if (v == NULL)
		abort();
	cJSON_ArrayForEach(run, runs) {
		f = cJSON_GetObjectItemCaseSensitive(run, RF(status));
		if (!cJSON_IsString(f) || strcmp(f->valuestring, "ok") != 0)
			continue;
		f = cJSON_GetObjectItemCaseSensitive(run, name);
		if (cJSON_IsNumber(f))
			v[n++] = f->valuedouble;
	}
	*vp = v;
	return n;
}

/* v's values at or below boundary and above it: each group's runs, median. */
static void
results_split(const double *v, size_t n, double boundary,
    struct results_groups *g)
{
	double *part = malloc((n + 1) * sizeof(*part));
	struct stats_summary st;
	size_t i, k;
	int side;

	if (part == NULL)
		abort();
	g->boundary = boundary;
	for (side = 0; side < 2; side++) {
		for (i = k = 0; i < n; i++)
			if ((v[i] > boundary) == side)
				part[k++] = v[i];
		g->runs[side] = (unsigned int)k;
		g->median[side] = NAN;
		if (k > 0) {
			stats_summarize(part, k, &st);
			g->median[side] = st.median;
		}
	}
	free(part);
	return;
}

static void
results_group_add(cJSON *bimodal, const char *side, unsigned int runs,
    double median)
{
	cJSON *o = cJSON_AddObjectToObject(bimodal, side);

	cJSON_AddNumberToObject(o, "runs", runs);
	if (runs > 0)
		cJSON_AddNumberToObject(o, "median", median);
	return;
}

/*
 * The summary of one field over the ok runs, or NULL if none has it; the
 * headline figure's by placement too, where the runs ran on two.
 */
static cJSON *
results_field(const cJSON *runs, const char *name)
{
	struct stats_summary st;
	struct results_groups g;
	cJSON *s = NULL, *b;
	double boundary, *v;
	size_t n = results_values(runs, name, &v);

	if (n > 0) {
		stats_summarize(v, n, &st);
		s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "median", st.median);
		cJSON_AddNumberToObject(s, "min", st.min);
		cJSON_AddNumberToObject(s, "max", st.max);
		cJSON_AddNumberToObject(s, "q1", st.q1);
		cJSON_AddNumberToObject(s, "q3", st.q3);
		cJSON_AddNumberToObject(s, "cv", st.cv);
	}
	/* Two regimes: a median would describe neither, so give each. */
	if (n > 0 && st.min > 0 && stats_bimodal(v, n, &boundary)) {
		results_split(v, n, boundary, &g);
		b = cJSON_AddObjectToObject(s, "bimodal");
		cJSON_AddNumberToObject(b, "boundary", boundary);
		cJSON_AddNumberToObject(b, "runs_above", g.runs[1]);
		cJSON_AddNumberToObject(b, "share_above", (double)g.runs[1] / n);
		results_group_add(b, "below", g.runs[0], g.median[0]);
		results_group_add(b, "above", g.runs[1], g.median[1]);
	}
	if (n > 0 && strcmp(name, RF(cpu_us_per_dispatch)) == 0 &&
	    (b = results_placement(runs, name)) != NULL)
		cJSON_AddItemToObject(s, "placement", b);
	free(v);
	return s;
}

const cJSON *
results_placed(const cJSON *figure)
{
	const cJSON *pl = results_obj(figure, "placement");
	double near = results_num(results_obj(pl, "near"), "median");
	double far = results_num(results_obj(pl, "far"), "median");

	return near > 0 && far > 0 && fmax(near, far) >= RESULTS_PLACED_APART *
	    fmin(near, far) ? pl : NULL;
}

bool
results_groups(const cJSON *cell, const char *field, struct results_groups *g)
{
	const cJSON *bi = results_obj(results_obj(results_obj(cell, "summary"),
	    field), "bimodal"), *below, *above;
	double *v;
	size_t n;

	if (bi == NULL)
		return false;
	below = results_obj(bi, "below");
	above = results_obj(bi, "above");
	if (below != NULL && above != NULL) {
		g->boundary = results_num(bi, "boundary");
		g->runs[0] = (unsigned int)results_num(below, "runs");
		g->runs[1] = (unsigned int)results_num(above, "runs");
		g->median[0] = results_num(below, "median");
		g->median[1] = results_num(above, "median");
		return true;
	}
	n = results_values(results_arr(cell, "runs"), field, &v);
	results_split(v, n, results_num(bi, "boundary"), g);
	free(v);
	return true;
}

cJSON *
results_summary(const cJSON *runs)
{
	cJSON *summary = cJSON_CreateObject(), *s;
	const cJSON *first = NULL, *run, *f;
	int ok = 0, n = 0, stalled = 0, busy = 0;

	cJSON_ArrayForEach(run, runs) {
		n++;
		f = cJSON_GetObjectItemCaseSensitive(run, RF(status));
		stalled += cJSON_IsString(f) && strcmp(f->valuestring,
		    "stalled") == 0;
		busy += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(run,
		    RF(host_busy)));
		if (cJSON_IsString(f) && strcmp(f->valuestring, "ok") == 0) {
			ok++;
			first = first ? first : run;
		}
	}
	cJSON_AddNumberToObject(summary, "runs", n);
	cJSON_AddNumberToObject(summary, "runs_ok", ok);
	cJSON_AddNumberToObject(summary, "runs_stalled", stalled);
	cJSON_AddNumberToObject(summary, "runs_host_busy", busy);
	if (first == NULL)
		return summary;
	cJSON_ArrayForEach(f, first) {
		if (!cJSON_IsNumber(f))
			continue;
		if ((s = results_field(runs, f->string)) != NULL)
			cJSON_AddItemToObject(summary, f->string, s);
	}
	return summary;
}

/* JSON names are case-sensitive; cJSON_GetObjectItem's are not. */
static const cJSON *
results_get(const cJSON *o, const char *name)
{

	return cJSON_GetObjectItemCaseSensitive(o, name);
}

double
results_num(const cJSON *o, const char *name)
{
	const cJSON *f = results_get(o, name);

	return cJSON_IsNumber(f) ? f->valuedouble : NAN;
}

/* Casting NAN or 1e300 to int is undefined: a damaged file must not be. */
int
results_int(const cJSON *o, const char *name, int missing)
{
	double v = results_num(o, name);

	return v >= INT_MIN && v <= INT_MAX ? (int)v : missing;
}

const char *
results_str(const cJSON *o, const char *name, const char *missing)
{
	const cJSON *f = results_get(o, name);

	return cJSON_IsString(f) ? f->valuestring : missing;
}

const cJSON *
results_obj(const cJSON *o, const char *name)
{
	const cJSON *f = results_get(o, name);

	return cJSON_IsObject(f) ? f : NULL;
}

const cJSON *
results_arr(const cJSON *o, const char *name)
{
	const cJSON *f = results_get(o, name);

	return cJSON_IsArray(f) ? f : NULL;
}

bool
results_true(const cJSON *o, const char *name)
{

	return cJSON_IsTrue(results_get(o, name));
}

/* A merged file's entry of machines[] named name, or NULL. */
static const cJSON *
results_machine(const cJSON *doc, const char *name)
{
	const cJSON *m;

	cJSON_ArrayForEach(m, results_arr(doc, "machines"))
		if (strcmp(results_str(m, "name", ""), name) == 0)
			return m;
	return NULL;
}

const cJSON *
results_context(const cJSON *doc, const cJSON *cell)
{
	const char *name = results_str(cell, "machine", NULL);
	const cJSON *m = name != NULL ? results_machine(doc, name) : NULL;

	return m != NULL ? results_obj(m, "context") : results_obj(doc,
	    "context");
}

int
results_machines(const cJSON *doc)
{

	return cJSON_GetArraySize(results_arr(doc, "machines"));
}

const char *
results_where(const cJSON *doc, char *buf, size_t len)
{
	const cJSON *ctx = results_obj(doc, "context");
	int n = results_machines(doc);

	if (n > 0)
		snprintf(buf, len, "%d machines, a series each, merged %s", n,
		    results_str(ctx, "date", "?"));
	else
		snprintf(buf, len, "%s, %s", results_str(ctx, "cpu_model", "?"),
		    results_str(ctx, "date", "?"));
	return buf;
}

cJSON *
results_machine_doc(const cJSON *doc, int i)
{
	const cJSON *m = cJSON_GetArrayItem(results_arr(doc, "machines"), i);
	const char *name = results_str(m, "name", "");
	const cJSON *cell;
	cJSON *one, *cells, *c;

	if (m == NULL)
		return NULL;
	one = cJSON_CreateObject();
	cJSON_AddItemToObject(one, "context", cJSON_Duplicate(
	    results_obj(m, "context"), true));
	cJSON_AddBoolToObject(one, "complete", results_true(m, "complete"));
	if (results_arr(m, "memory_fits") != NULL)
		cJSON_AddItemToObject(one, "memory_fits", cJSON_Duplicate(
		    results_arr(m, "memory_fits"), true));
	cells = cJSON_AddArrayToObject(one, "cells");
	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		if (strcmp(results_str(cell, "machine", ""), name) != 0)
			continue;
		c = cJSON_Duplicate(cell, true);
		cJSON_DeleteItemFromObjectCaseSensitive(c, "machine");
		cJSON_AddItemToArray(cells, c);
	}
	return one;
}

double
results_stat(const cJSON *cell, const char *field, const char *stat)
{

	return results_num(results_obj(results_obj(cell, "summary"), field),
	    stat);
}

unsigned int
results_runs_above_zero(const cJSON *cell, const char *field)
{
	const cJSON *run;
	unsigned int n = 0;

	cJSON_ArrayForEach(run, results_arr(cell, "runs"))
		n += results_ok(run) && results_num(run, field) > 0;
	return n;
}

/* One sweep's fit: the cells of doc whose key without width is key. */
static cJSON *
results_fit(const cJSON *cells, const char *key, int ncells)
{
	double *x = calloc((size_t)ncells, sizeof(*x));
	double *y = calloc((size_t)ncells, sizeof(*y));
	double slope, icpt, r2;
	const cJSON *cell;
	cJSON *fit = NULL;
	char k[640];
	size_t n = 0;

	if (x == NULL || y == NULL)
		abort();
	cJSON_ArrayForEach(cell, cells) {
		params_key(cell, false, k, sizeof(k));
		if (strcmp(k, key) != 0)
			continue;
		x[n] = results_stat(cell, RF(threads_peak), "median");
		y[n] = results_stat(cell, RF(rss_anon_peak_kb), "median");
		n += isfinite(x[n]) && isfinite(y[n]);
	}
	if (n >= 3 && stats_linfit(x, y, n, &slope, &icpt, &r2)) {
		fit = cJSON_CreateObject();
		cJSON_AddStringToObject(fit, "cells", key);
		cJSON_AddNumberToObject(fit, "points", (double)n);
		cJSON_AddNumberToObject(fit, "kb_per_thread", slope);
		cJSON_AddNumberToObject(fit, "intercept_kb", icpt);
		cJSON_AddNumberToObject(fit, "r2", r2);
	}
	free(x);
	free(y);
	return fit;
}

void
results_memory_fits(cJSON *doc)
{
	const cJSON *cells = results_arr(doc, "cells"), *cell, *f;
	cJSON *fits = cJSON_CreateArray(), *fit;
	char key[640];
	bool seen;

	cJSON_ArrayForEach(cell, cells) {
		params_key(cell, false, key, sizeof(key));
		seen = false;
		cJSON_ArrayForEach(f, fits)
			seen |= strcmp(results_str(f, "cells", ""), key) == 0;
		if (!seen && (fit = results_fit(cells, key,
		    cJSON_GetArraySize(cells))) != NULL)
			cJSON_AddItemToArray(fits, fit);
	}
	if (results_get(doc, "memory_fits") != NULL)
		cJSON_ReplaceItemInObjectCaseSensitive(doc, "memory_fits",
		    fits);
	else
		cJSON_AddItemToObject(doc, "memory_fits", fits);
	return;
}

int
results_write_text(const char *text, const char *path)
{
	char tmp[4096];
	FILE *f;
	int error = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	if ((f = fopen(tmp, "w")) == NULL)
		return -errno;
	if (fputs(text, f) == EOF || fputc('\n', f) == EOF || fflush(f) != 0 ||
	    fsync(fileno(f)) != 0)
		error = -errno;
	if (fclose(f) != 0 && error == 0)
		error = -errno;
	if (error == 0 && rename(tmp, path) != 0)
		error = -errno;
	if (error != 0)
		unlink(tmp);
	return error;
}

int
results_write(const cJSON *doc, const char *path)
{
	char *text = cJSON_Print(doc);
	int error;

	if (text == NULL)
		return -ENOMEM;
	error = results_write_text(text, path);
	free(text);
	return error;
}

/*
 * The checks of a results file: every field a reader takes is there where
 * it must be, and of its type, or err names it by its path
 * ("cells[2].summary.ops_per_s.median is missing (a number)"). The
 * accessors above read a field that is absent as NaN or a default; these
 * make sure that is never a malformed one read so. A number may be null:
 * cJSON writes NaN and the infinities so.
 *
 * An object checked knows the one it is in, so its path is written only
 * when something is wrong.
 */
struct results_check {
	const struct results_check *up;	/* NULL: the file itself */
	const char *name;		/* its field in up */
	int index;			/* its index in that array, or -1 */
	char *err;
	size_t errlen;
};

/* The check of field name of ck's object, or of its element index. */
static struct results_check
results_in(const struct results_check *ck, const char *name, int index)
{

	return (struct results_check){ ck, name, index, ck->err, ck->errlen };
}

/* "cells[2].summary": the path of ck's object; its length. */
static size_t
results_path(const struct results_check *ck, char *buf, size_t len)
{
	size_t used;

	if (ck->up == NULL)
		return buf[0] = '\0', 0;
	used = results_path(ck->up, buf, len);
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ?
		    "." : "", ck->name);
	if (used < len && ck->index >= 0)
		used += (size_t)snprintf(buf + used, len - used, "[%d]",
		    ck->index);
	return used;
}

static const char *
results_type(const cJSON *f)
{

	return cJSON_IsString(f) ? "a string" : cJSON_IsNumber(f) ? "a number" :
	    cJSON_IsObject(f) ? "an object" : cJSON_IsArray(f) ? "an array" :
	    cJSON_IsBool(f) ? "a boolean" : "null";
}

/*
 * Whether f, at ck, is of type want (a number: or null; a boolean:
 * cJSON_True | cJSON_False); -1 and err if not.
 */
static int
results_is(const struct results_check *ck, const cJSON *f, int want)
{
	static const struct { int type; const char *name; } names[] = {
		{ cJSON_String, "a string" }, { cJSON_Number, "a number" },
		{ cJSON_Object, "an object" }, { cJSON_Array, "an array" },
		{ cJSON_True | cJSON_False, "a boolean" },
	};
	char path[256];
	size_t i;

	if (f != NULL && ((f->type & 0xff & want) != 0 ||
	    (want == cJSON_Number && cJSON_IsNull(f))))
		return 0;
	for (i = 0; names[i].type != want; i++)
		continue;
	results_path(ck, path, sizeof(path));
	if (f == NULL)
		snprintf(ck->err, ck->errlen, "%s is missing (%s)", path,
		    names[i].name);
	else
		snprintf(ck->err, ck->errlen, "%s is %s, not %s", path,
		    results_type(f), names[i].name);
	return -1;
}

/* Field name of ck's object o is of type want; absent is fine unless need. */
static int
results_has(const struct results_check *ck, const cJSON *o,
    const char *name, int want, bool need)
{
	const cJSON *f = results_get(o, name);
	struct results_check in = results_in(ck, name, -1);

	return f == NULL && !need ? 0 : results_is(&in, f, want);
}

/* A whole number from lo to RESULTS_MAX_COUNT: readers cast it. */
static int
results_count(const struct results_check *ck, const cJSON *cell,
    const char *name, double lo)
{
	struct results_check in = results_in(ck, name, -1);
	double v = results_num(cell, name);
	char path[256];

	if (results_has(ck, cell, name, cJSON_Number, true) != 0)
		return -1;
	if (v >= lo && v <= RESULTS_MAX_COUNT && v == (double)(long)v)
		return 0;
	results_path(&in, path, sizeof(path));
	snprintf(ck->err, ck->errlen, "%s is not a whole number from %.0f to "
	    "%d", path, lo, RESULTS_MAX_COUNT);
	return -1;
}

/*
 * A group of a summary's runs (a placement's side, one of two groups):
 * its runs and, where it has any, their median and, on a placement, their
 * probes' median.
 */
static int
results_check_group(const struct results_check *ck, const cJSON *parent,
    const char *name, bool probed)
{
	struct results_check in = results_in(ck, name, -1);
	const cJSON *g = results_get(parent, name);

	if (results_is(&in, g, cJSON_Object) != 0 ||
	    results_count(&in, g, "runs", 0) != 0)
		return -1;
	if (results_num(g, "runs") > 0 && (results_has(&in, g, "median",
	    cJSON_Number, true) != 0 || (probed && results_has(&in, g,
	    "line_round_trip_ns", cJSON_Number, true) != 0)))
		return -1;
	return 0;
}

static int
results_check_placement(const struct results_check *ck, const cJSON *pl)
{

	if (results_is(ck, pl, cJSON_Object) != 0 ||
	    results_has(ck, pl, "boundary_ns", cJSON_Number, true) != 0 ||
	    results_has(ck, pl, "moved", cJSON_Number, true) != 0 ||
	    results_check_group(ck, pl, "near", true) != 0 ||
	    results_check_group(ck, pl, "far", true) != 0)
		return -1;
	return 0;
}

/*
 * A summary's statistic, as results_summary writes it: median, min and
 * max (every version wrote them), q1, q3 and cv (older files lack them),
 * "bimodal" when the runs fall in two groups (each group's runs since
 * 2026-12-07), and "placement" when they ran on two placements of the
 * CPUs: its boundary, the runs that moved, and each placement's runs.
 */
static int
results_check_stat(const struct results_check *ck, const cJSON *st)
{
	static const char *const need[] = { "median", "min", "max" };
	static const char *const may[] = { "q1", "q3", "cv" };
	static const char *const bimodal[] = { "boundary", "runs_above",
	    "share_above" };
	const cJSON *bi = results_get(st, "bimodal");
	const cJSON *pl = results_get(st, "placement");
	struct results_check in = results_in(ck, "bimodal", -1);
	struct results_check inp = results_in(ck, "placement", -1);
	size_t i;

	for (i = 0; i < 3; i++)
		if (results_has(ck, st, need[i], cJSON_Number, true) != 0 ||
		    results_has(ck, st, may[i], cJSON_Number, false) != 0)
			return -1;
	if (pl != NULL && results_check_placement(&inp, pl) != 0)
		return -1;
	if (bi == NULL)
		return 0;
	if (results_is(&in, bi, cJSON_Object) != 0)
		return -1;
	for (i = 0; i < 3; i++)
		if (results_has(&in, bi, bimodal[i], cJSON_Number, true) != 0)
			return -1;
	/* Each group's figure: files before it have neither. */
	if ((results_get(bi, "below") != NULL || results_get(bi, "above") !=
	    NULL) && (results_check_group(&in, bi, "below", false) != 0 ||
	    results_check_group(&in, bi, "above", false) != 0))
		return -1;
	return 0;
}

/* The runs counted by how they ended, of 0 or more; all else a statistic. */
static bool
results_is_count(const char *name)
{

	return strcmp(name, "runs") == 0 || strncmp(name, "runs_", 5) == 0;
}

static int
results_check_summary(const struct results_check *ck, const cJSON *summary)
{
	struct results_check in;
	const cJSON *f;

	cJSON_ArrayForEach(f, summary) {
		in = results_in(ck, f->string, -1);
		if (results_is_count(f->string)) {
			if (results_is(&in, f, cJSON_Number) != 0)
				return -1;
		} else if (results_is(&in, f, cJSON_Object) != 0 ||
		    results_check_stat(&in, f) != 0)
			return -1;
	}
	return 0;
}

/* The JSON type of a field of runfields.h, as results_is wants it. */
static int
results_rf_type(enum rf_type type)
{
	static const int types[] = {
		[RF_NUMBER] = cJSON_Number, [RF_STRING] = cJSON_String,
		[RF_BOOL] = cJSON_True | cJSON_False,
		[RF_OBJECT] = cJSON_Object, [RF_ARRAY] = cJSON_Array,
	};

	return types[type];
}

/*
 * A run: how it ended, each field of runfields.h of its type, and each other
 * figure the summary summarises (a counter) a number where the run has it.
 */
static int
results_check_run(const struct results_check *ck, const cJSON *run,
    const cJSON *summary)
{
	const struct rf_field *rf;
	struct results_check in;
	const cJSON *f;

	if (results_is(ck, run, cJSON_Object) != 0 ||
	    results_has(ck, run, RF(status), cJSON_String, true) != 0)
		return -1;
	cJSON_ArrayForEach(f, run) {
		in = results_in(ck, f->string, -1);
		if ((rf = rf_find(f->string)) != NULL ? results_is(&in, f,
		    results_rf_type(rf->type)) != 0 : cJSON_IsObject(
		    results_get(summary, f->string)) && results_is(&in, f,
		    cJSON_Number) != 0)
			return -1;
	}
	return 0;
}

/* A cell's parameters: a count a number, a name a string (param.h). */
static int
results_check_params(const struct results_check *ck, const cJSON *cell)
{
	const struct param *p;
	bool number;
	size_t i;

	for (i = 0; i < nparams; i++) {
		p = &params[i];
		number = p->kind == PARAM_WIDTH || p->kind == PARAM_COUNT ||
		    p->kind == PARAM_INT || p->kind == PARAM_SECONDS;
		if (p->key != NULL && results_has(ck, cell, p->key, number ?
		    cJSON_Number : cJSON_String, false) != 0)
			return -1;
	}
	return 0;
}

static int
results_check_cell(const struct results_check *ck, const cJSON *cell)
{
	const cJSON *summary = results_get(cell, "summary");
	const cJSON *runs = results_get(cell, "runs"), *run;
	struct results_check in = results_in(ck, "summary", -1);
	int i = 0;

	if (results_is(ck, cell, cJSON_Object) != 0 ||
	    results_has(ck, cell, "dispatcher", cJSON_String, true) != 0 ||
	    results_has(ck, cell, "queue", cJSON_String, true) != 0 ||
	    results_count(ck, cell, "workers", 0) != 0 ||
	    results_count(ck, cell, "coroutines", 1) != 0 ||
	    results_check_params(ck, cell) != 0 ||
	    results_has(ck, cell, "summary", cJSON_Object, true) != 0 ||
	    results_has(ck, cell, "runs", cJSON_Array, false) != 0 ||
	    results_check_summary(&in, summary) != 0)
		return -1;
	cJSON_ArrayForEach(run, runs) {
		in = results_in(ck, "runs", i++);
		if (results_check_run(&in, run, summary) != 0)
			return -1;
	}
	return 0;
}

/*
 * What the readers take of the context (compare and its identity, export,
 * plot, beside).
 */
static int
results_check_context(const struct results_check *ck, const cJSON *ctx)
{
	static const char *const strings[] = { "cpu_model", "cpuset",
	    "topology", "date", "host", "build_type", "cpu_governor" };
	static const char *const runtime[] = { "kind", "real", "beside" };
	const cJSON *all = results_get(ctx, "runtimes"), *r;
	struct results_check in = results_in(ck, "runtimes", -1), rt;
	size_t i;

	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		if (results_has(ck, ctx, strings[i], cJSON_String, false) != 0)
			return -1;
	if (results_has(ck, ctx, "online_cpus", cJSON_Number, false) != 0 ||
	    results_has(ck, ctx, "cpu_mhz", cJSON_Number, false) != 0 ||
	    results_has(ck, ctx, "cpu", cJSON_Object, false) != 0 ||
	    results_has(ck, ctx, "runtimes", cJSON_Object, false) != 0)
		return -1;
	cJSON_ArrayForEach(r, all) {
		rt = results_in(&in, r->string, -1);
		if (results_is(&rt, r, cJSON_Object) != 0)
			return -1;
		for (i = 0; i < 3; i++)
			if (results_has(&rt, r, runtime[i], cJSON_String,
			    false) != 0)
				return -1;
	}
	return 0;
}

/* memory_fits, as results_memory_fits writes them; export prints them. */
static int
results_check_fit(const struct results_check *ck, const cJSON *fit)
{
	static const char *const numbers[] = { "points", "kb_per_thread",
	    "intercept_kb", "r2" };
	size_t i;

	if (results_is(ck, fit, cJSON_Object) != 0 ||
	    results_has(ck, fit, "cells", cJSON_String, true) != 0)
		return -1;
	for (i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		if (results_has(ck, fit, numbers[i], cJSON_Number, true) != 0)
			return -1;
	return 0;
}

/* Past the schema: the context, the memory fits, every cell. */
/* The target advise drew its picture against, when the file has one. */
static int
results_check_advise(const struct results_check *ck, const cJSON *doc)
{
	struct results_check in = results_in(ck, "advise", -1);
	const cJSON *a = results_obj(doc, "advise");

	if (results_has(ck, doc, "advise", cJSON_Object, false) != 0)
		return -1;
	if (a == NULL)
		return 0;
	return results_has(&in, a, "load", cJSON_String, true) != 0 ||
	    results_has(&in, a, "rate_ops_per_s", cJSON_Number, false) != 0 ||
	    results_has(&in, a, "p99_ms", cJSON_Number, false) != 0 ||
	    (results_get(a, "at_target_coroutines") != NULL &&
	    results_count(&in, a, "at_target_coroutines", 1) != 0) ? -1 : 0;
}

/*
 * A merged file's machines: each named once, with a context; each cell
 * names one of them. A run's file has neither.
 */
static int
results_check_machines(const struct results_check *ck, const cJSON *doc,
    bool merged)
{
	const cJSON *f;
	struct results_check in;
	const char *name;
	int i = 0;

	if (results_has(ck, doc, "machines", cJSON_Array, merged) != 0)
		return -1;
	if (!merged && results_get(doc, "machines") != NULL)
		return snprintf(ck->err, ck->errlen, "machines[] in a file of "
		    "schema 1 (a merged file is schema 2)"), -1;
	cJSON_ArrayForEach(f, results_arr(doc, "machines")) {
		in = results_in(ck, "machines", i++);
		if (results_is(&in, f, cJSON_Object) != 0 ||
		    results_has(&in, f, "name", cJSON_String, true) != 0 ||
		    results_has(&in, f, "context", cJSON_Object, true) != 0)
			return -1;
		name = results_str(f, "name", "");
		if (results_machine(doc, name) != f)
			return snprintf(ck->err, ck->errlen, "two machines are "
			    "named '%s'", name), -1;
		in = results_in(&in, "context", -1);
		if (results_check_context(&in, results_obj(f, "context")) != 0)
			return -1;
	}
	i = 0;
	cJSON_ArrayForEach(f, results_arr(doc, "cells")) {
		in = results_in(ck, "cells", i++);
		if (results_has(&in, f, "machine", cJSON_String, merged) != 0)
			return -1;
		name = results_str(f, "machine", NULL);
		if (name != NULL && results_machine(doc, name) == NULL)
			return snprintf(ck->err, ck->errlen, "cells[%d].machine "
			    "'%s' is not one of machines[]", i - 1, name), -1;
	}
	return 0;
}

static int
results_check_doc(const struct results_check *ck, const cJSON *doc)
{
	struct results_check in = results_in(ck, "context", -1);
	const cJSON *f;
	int i = 0;

	if (results_check_machines(ck, doc, results_num(results_obj(doc,
	    "context"), "schema") == RESULTS_SCHEMA_MERGED) != 0 ||
	    results_check_context(&in, results_obj(doc, "context")) != 0 ||
	    results_check_advise(ck, doc) != 0 ||
	    results_has(ck, doc, "memory_fits", cJSON_Array, false) != 0)
		return -1;
	cJSON_ArrayForEach(f, results_arr(doc, "memory_fits")) {
		in = results_in(ck, "memory_fits", i++);
		if (results_check_fit(&in, f) != 0)
			return -1;
	}
	i = 0;
	cJSON_ArrayForEach(f, results_arr(doc, "cells")) {
		in = results_in(ck, "cells", i++);
		if (results_check_cell(&in, f) != 0)
			return -1;
	}
	return 0;
}

/*
 * pair's file (pair --out): two arms in one process, judged already. Not
 * a sweep's, and said so: "not a results file" reads like damage.
 */
static bool
results_pair_file(const cJSON *doc, char *err, size_t errlen)
{
	const cJSON *res = results_get(doc, "result");

	if (!cJSON_IsArray(results_get(doc, "processes")) ||
	    !cJSON_IsObject(results_get(doc, "a_side")))
		return false;
	snprintf(err, errlen, "a pair's file (two arms in one process), not a "
	    "sweep's results: its verdict is in it already (\"result\": %s); "
	    "compare, report and plot read the files of run and ab",
	    results_str(res, "verdict", "none yet"));
	return true;
}

int
results_validate(const cJSON *doc, char *err, size_t errlen)
{
	const struct results_check file = { NULL, NULL, -1, err, errlen };
	const cJSON *ctx, *cells, *schema;

	if (!cJSON_IsObject(doc)) {
		snprintf(err, errlen, "not a results file: not a JSON object");
		return -1;
	}
	if (results_pair_file(doc, err, errlen))
		return -1;
	ctx = results_get(doc, "context");
	schema = results_get(ctx, "schema");
	cells = results_get(doc, "cells");
	if (!cJSON_IsObject(ctx) || !cJSON_IsNumber(schema) ||
	    !cJSON_IsArray(cells)) {
		snprintf(err, errlen, "not a results file: no context.schema "
		    "or cells");
		return -1;
	}
	if (schema->valuedouble != (double)schema->valueint) {
		snprintf(err, errlen, "context.schema is not a whole number");
		return -1;
	}
	if (schema->valueint > RESULTS_SCHEMA_MERGED) {
		snprintf(err, errlen, "results schema %d is newer than this "
		    "build reads (%d)", schema->valueint,
		    RESULTS_SCHEMA_MERGED);
		return -1;
	}
	return results_check_doc(&file, doc);
}

/* path's whole text, NUL-terminated; NULL with err if it cannot be read. */
static char *
results_slurp(const char *path, size_t *lenp, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0, r;

	if (f == NULL) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (len + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 131072;
			if ((text = realloc(text, cap)) == NULL)
				abort();
		}
		r = fread(text + len, 1, cap - len - 1, f);
		len += r;
	} while (r > 0);
	fclose(f);
	text[len] = '\0';
	*lenp = len;
	return text;
}

int
results_read(const char *path, cJSON **docp, char *err, size_t errlen)
{
	size_t len;
	char *text = results_slurp(path, &len, err, errlen);
	int rc;

	if (text == NULL)
		return -1;
	rc = results_parse(text, len, docp, path, err, errlen);
	free(text);
	return rc;
}

int
results_read_json(const char *path, cJSON **docp, char *err, size_t errlen)
{
	size_t len;
	char *text = results_slurp(path, &len, err, errlen);

	if (text == NULL)
		return -1;
	*docp = cJSON_ParseWithLength(text, len);
	free(text);
	if (*docp == NULL)
		snprintf(err, errlen, "%s is not valid JSON", path);
	return *docp != NULL ? 0 : -1;
}

int
results_parse(const char *text, size_t len, cJSON **docp, const char *name,
    char *err, size_t errlen)
{
	cJSON *doc = cJSON_ParseWithLength(text, len);
	char why[400];

	if (doc == NULL) {
		snprintf(err, errlen, "%s is not valid JSON (truncated or "
		    "not a results file)", name);
		return -1;
	}
	if (results_validate(doc, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", name, why);
		cJSON_Delete(doc);
		return -1;
	}
	*docp = doc;
	return 0;
}
