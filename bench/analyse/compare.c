/*
 * compare.c - the verdict of NEW against BASE (see compare.h).
 *
 * Per matched cell:
 *  - a NEW run that failed, hung or crashed makes the cell `broken`,
 *    whatever the timings of the rest: a build that loses a task in one
 *    run in six is not judged on the five it got right;
 *  - the metric of the ok runs is compared on logs, as a ratio, when every
 *    value is positive, and as the difference NEW - BASE when one can be 0
 *    (context switches): nothing is dropped;
 *  - one test per cell (rank.h): the exact rank-sum test, and when the
 *    pooled runs fall into two regimes, the min-p test of the rank sum
 *    and the slow counts together, so neither a shift nor a change of the
 *    slow share hides behind the other;
 *  - Holm's correction over the cells tested: the chance that any cell
 *    that did not change is flagged stays alpha;
 *  - verdicts: `equivalent` when the interval lies inside +-threshold;
 *    `regressed` (`improved`) when the adjusted p is below alpha and the
 *    interval lies beyond the threshold the wrong (right) way, or, in two
 *    regimes, when the slow share moved and drove the test or moved with
 *    the rank sum; else
 *    `inconclusive`, with the smallest change the runs could have seen.
 * results/README.md ("How a verdict is reached") works through why.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "beside.h"
#include "compare.h"
#include "plot.h"
#include "rank.h"
#include "params.h"
#include "results.h"
#include "stats.h"
#include "table.h"

/* One side of a cell: how its runs ended, and the metric of the ok ones. */
struct compare_arm {
	unsigned int runs, ok, failed, hung, crashed;
	char errors[256];		/* each distinct reason once */
	double *v;			/* n of them */
	size_t n;
	double median;
};

struct compare_row {
	char cell[600];
	struct compare_arm a, b;
	bool tested;			/* both arms have two ok runs or more */
	bool difference;		/* compared as NEW - BASE */
	bool regimes;			/* an arm holds runs of both regimes */
	bool wide;			/* an arm's spread exceeds the threshold */
	struct rank_test t;		/* on logs, or on the values */
	double p_adj;
	double level;			/* the p it is held to: alpha, or a look's */
	double spread;			/* of the runs, on the compared scale */
	double mde;			/* smallest change seen 80 % of the time */
	const char *verdict;
	char why[160];
};

void
compare_defaults(struct compare_opts *o)
{

	o->threshold = 0.05;
	o->alpha = 0.05;
	o->format = TABLE_TEXT;
	o->allow_other_machine = false;
	o->by_position = false;
	o->beside = false;
	o->metric = "cpu_us_per_dispatch";
	o->plot_dir = NULL;
	o->levels = NULL;
	return;
}

/* Throughput is better higher; every other figure here is a cost. */
static bool
compare_higher_is_better(const char *metric)
{

	return strcmp(metric, "ops_per_s") == 0 ||
	    strcmp(metric, "round_trips_per_s") == 0;
}

static const cJSON *
compare_find(const cJSON *doc, const char *key)
{
	const cJSON *cell;
	char k[256];

	cJSON_ArrayForEach(cell, results_arr(doc, "cells")) {
		params_key(cell, true, k, sizeof(k));
		if (strcmp(k, key) == 0)
			return cell;
	}
	return NULL;
}

static void
compare_add_error(struct compare_arm *arm, const char *status,
    const char *error)
{
	char e[160];
	size_t used = strlen(arm->errors);

	snprintf(e, sizeof(e), "%s: %s", status, error);
	if (strstr(arm->errors, e) == NULL && used + strlen(e) + 3 <
	    sizeof(arm->errors))
		snprintf(arm->errors + used, sizeof(arm->errors) - used, "%s%s",
		    used ? "; " : "", e);
	return;
}

static int
compare_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* How each run ended, and the metric of every ok run that has it. */
static void
compare_arm_read(struct compare_arm *arm, const cJSON *cell, const char *metric)
{
	const cJSON *run;
	const char *st;
	double x, *s;

	memset(arm, 0, sizeof(*arm));
	arm->v = malloc(((size_t)cJSON_GetArraySize(results_arr(cell,
	    "runs")) + 1) * sizeof(*arm->v));
	if (arm->v == NULL)
		abort();
	cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
		st = results_str(run, "status", "?");
		arm->runs++;
		if (strcmp(st, "ok") != 0) {
			arm->hung += strcmp(st, "hung") == 0;
			arm->crashed += strcmp(st, "crashed") == 0;
			arm->failed += strcmp(st, "hung") != 0 &&
			    strcmp(st, "crashed") != 0;
			compare_add_error(arm, st, results_str(run, "error",
			    "no reason given"));
			continue;
		}
		arm->ok++;
		x = results_num(run, metric);
		if (isfinite(x))
			arm->v[arm->n++] = x;
	}
	arm->median = NAN;
	if (arm->n > 0) {
		s = malloc(arm->n * sizeof(*s));
		if (s == NULL)
			abort();
		memcpy(s, arm->v, arm->n * sizeof(*s));
		qsort(s, arm->n, sizeof(*s), compare_dbl);
		arm->median = stats_quantile(s, arm->n, 0.5);
		free(s);
	}
	return;
}

static void
compare_row_free(struct compare_row *r)
{

	free(r->a.v);
	free(r->b.v);
	return;
}

static unsigned int
compare_bad_runs(const struct compare_arm *arm)
{

	return arm->failed + arm->hung + arm->crashed;
}

static bool
compare_wide(const struct compare_arm *arm, double threshold)
{
	struct stats_summary s;

	stats_summarize(arm->v, arm->n, &s);
	return s.median != 0 && fabs((s.q3 - s.q1) / s.median) > threshold;
}

/*
 * The test of one cell at level alpha: logs or values, the pooled split
 * into two regimes (found on both arms' runs together, as the test's
 * exactness needs), and the smallest change the runs could have shown.
 */
static void
compare_test(struct compare_row *r, double alpha, double threshold)
{
	double *la, *lb, *both, split = NAN, boundary;
	size_t i;

	r->tested = r->a.n >= 2 && r->b.n >= 2;
	if (!r->tested)
		return;
	la = malloc((r->a.n + r->b.n) * 2 * sizeof(*la));
	if (la == NULL)
		abort();
	lb = la + r->a.n;
	both = lb + r->b.n;
	r->difference = false;
	for (i = 0; i < r->a.n; i++)
		r->difference |= !(r->a.v[i] > 0);
	for (i = 0; i < r->b.n; i++)
		r->difference |= !(r->b.v[i] > 0);
	for (i = 0; i < r->a.n; i++)
		la[i] = r->difference ? r->a.v[i] : log(r->a.v[i]);
	for (i = 0; i < r->b.n; i++)
		lb[i] = r->difference ? r->b.v[i] : log(r->b.v[i]);
	memcpy(both, r->a.v, r->a.n * sizeof(double));
	memcpy(both + r->a.n, r->b.v, r->b.n * sizeof(double));
	if (!r->difference && stats_bimodal(both, r->a.n + r->b.n, &boundary))
		split = log(boundary);
	rank_compare(la, r->a.n, lb, r->b.n, split, alpha, &r->t);
	r->regimes = !isnan(split) && ((r->t.slow_a > 0 &&
	    r->t.slow_a < r->a.n) || (r->t.slow_b > 0 && r->t.slow_b < r->b.n));
	r->wide = compare_wide(&r->a, threshold) ||
	    compare_wide(&r->b, threshold);
	/* Two regimes: the spread is the gap between them, no MDE. */
	r->spread = r->regimes ? NAN : rank_spread(la, r->a.n, lb, r->b.n);
	free(la);
	return;
}

/*
 * The smallest change a test of these runs at the cell's own level sees
 * 80 % of the time: under Holm a cell alone in the family must pass
 * alpha / M, so that is its level.
 */
static void
compare_mde(struct compare_row *r, double level)
{
	double m;

	r->mde = NAN;
	if (!r->tested || isnan(r->spread))
		return;
	m = rank_mde_factor(r->a.n, r->b.n, level) * r->spread;
	r->mde = r->difference ? m : exp(m) - 1;
	return;
}

/* The interval as changes: relative for a ratio, absolute otherwise. */
static void
compare_change(const struct compare_row *r, double *lo, double *hi)
{

	*lo = r->difference ? r->t.lo : exp(r->t.lo) - 1;
	*hi = r->difference ? r->t.hi : exp(r->t.hi) - 1;
	return;
}

static const char *
compare_decide(struct compare_row *r, const struct compare_opts *o,
    double alpha, double p)
{
	bool hb = compare_higher_is_better(o->metric), up;
	double lo, hi, band = o->threshold, share_a, share_b;

	r->why[0] = '\0';
	if (compare_bad_runs(&r->b) > 0)
		return "broken";
	if (!r->tested) {
		snprintf(r->why, sizeof(r->why), "too few ok runs");
		return "inconclusive";
	}
	if (r->t.conf == 0) {
		snprintf(r->why, sizeof(r->why), "no verdict possible with "
		    "%zu/%zu runs: the smallest p is %.2g", r->a.n, r->b.n,
		    rank_p_min(r->a.n, r->b.n));
		return "inconclusive";
	}
	compare_change(r, &lo, &hi);
	if (r->difference)
		band *= fabs(r->a.median);
	if (lo >= -band && hi <= band)
		return "equivalent";
	if (p < alpha && lo > band)
		return hb ? "improved" : "regressed";
	if (p < alpha && hi < -band)
		return hb ? "regressed" : "improved";
	share_a = (double)r->t.slow_a / (double)r->a.n;
	share_b = (double)r->t.slow_b / (double)r->b.n;
	/*
	 * Two regimes, the interval between them: the slow share (above the
	 * split: a cost's bad side) tells the direction, when it drove the
	 * test or moved the way the rank sum did.
	 */
	up = r->t.u > (double)r->a.n * (double)r->b.n / 2;
	if (p < alpha && r->regimes && share_a != share_b &&
	    (r->t.p_share < r->t.p_shift || (share_b > share_a) == up))
		return (share_b > share_a) != hb ? "regressed" : "improved";
	if (isfinite(r->mde) && r->difference)
		snprintf(r->why, sizeof(r->why), "could not see changes below "
		    "%.3g", r->mde);
	else if (isfinite(r->mde))
		snprintf(r->why, sizeof(r->why), "could not see changes below "
		    "%.3g %%", r->mde * 100);
	return "inconclusive";
}

/*
 * Two arms' cells that differ (an arm's own --queue, --payload-ns): the
 * key once, each word that differs as "name=base->new".
 */
static void
compare_label(const char *ka, const char *kb, char *label, size_t len)
{
	size_t used = 0, wa, wb, eq;

	while (*ka != '\0' && *kb != '\0' && used + 1 < len) {
		wa = strcspn(ka, " ");
		wb = strcspn(kb, " ");
		if (wa == wb && strncmp(ka, kb, wa) == 0) {
			used += (size_t)snprintf(label + used, len - used, "%.*s",
			    (int)wa, ka);
		} else {
			eq = strcspn(ka, "=/") < wa ? strcspn(ka, "=/") + 1 : 0;
			used += (size_t)snprintf(label + used, len - used,
			    "%.*s->%.*s", (int)wa, ka, (int)(wb - eq), kb + eq);
		}
		ka += wa + (ka[wa] == ' ');
		kb += wb + (kb[wb] == ' ');
		if (*ka != '\0' && used + 1 < len)
			label[used++] = ' ';
	}
	label[used < len ? used : len - 1] = '\0';
	return;
}

/* Cell i of new against its match in base: by key, or by position. */
static const cJSON *
compare_match(const cJSON *base, const cJSON *cb, int i,
    const struct compare_opts *o, char *label, size_t len)
{
	char kb[256], ka[256];
	const cJSON *ca;

	params_key(cb, true, kb, sizeof(kb));
	if (!o->by_position) {
		snprintf(label, len, "%s", kb);
		return compare_find(base, kb);
	}
	ca = cJSON_GetArrayItem(results_arr(base, "cells"), i);
	if (ca == NULL)
		return NULL;
	params_key(ca, true, ka, sizeof(ka));
	compare_label(ka, kb, label, len);
	return ca;
}

/* Same machine: the same CPU, count, cpuset and topology. */
static int
compare_machine(const cJSON *a, const cJSON *b, char *err, size_t errlen)
{
	static const char *fields[] = { "cpu_model", "cpuset", "topology" };
	const cJSON *ca = results_obj(a, "context");
	const cJSON *cb = results_obj(b, "context");
	size_t i;

	if (results_num(ca, "schema") != results_num(cb, "schema")) {
		snprintf(err, errlen, "the two files have different schemas "
		    "(%.0f, %.0f)", results_num(ca, "schema"),
		    results_num(cb, "schema"));
		return -1;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (strcmp(results_str(ca, fields[i], ""),
		    results_str(cb, fields[i], "")) != 0) {
			snprintf(err, errlen, "the files come from different "
			    "machines (%s: '%s' against '%s'); pass "
			    "--allow-other-machine to compare anyway", fields[i],
			    results_str(ca, fields[i], ""),
			    results_str(cb, fields[i], ""));
			return -1;
		}
	}
	return 0;
}

/* A cell of base and the cell of new it is compared with. */
struct compare_pair {
	const cJSON *a, *b;
	double level;
	char cell[600];
};

struct compare_pairs {
	struct compare_pair *p;
	size_t n, max;
	double level;
};

/* Each cell of new and its match in base, by key or by position. */
static void
compare_pairs_matched(const cJSON *base, const cJSON *new,
    const struct compare_opts *o, struct compare_pairs *pp)
{
	struct compare_pair *p;
	const cJSON *cb;
	int i = 0;

	cJSON_ArrayForEach(cb, results_arr(new, "cells")) {
		p = &pp->p[pp->n];
		p->b = cb;
		p->level = o->levels != NULL ? o->levels[i] : o->alpha;
		if ((p->a = compare_match(base, cb, i++, o, p->cell,
		    sizeof(p->cell))) != NULL)
			pp->n++;
	}
	return;
}

/* --beside: a real runtime's cell of new, a model's of base. */
static void
compare_pair_beside(const cJSON *real, const cJSON *model, const char *name,
    void *arg)
{
	struct compare_pairs *pp = arg;
	struct compare_pair *p;
	size_t used;

	if (pp->n == pp->max)
		return;
	p = &pp->p[pp->n++];
	p->a = model;
	p->b = real;
	p->level = pp->level;
	params_key(real, true, p->cell, sizeof(p->cell));
	used = strlen(p->cell);
	snprintf(p->cell + used, sizeof(p->cell) - used, " against %s", name);
	return;
}

/* The rows of every matched cell, broken ones first; NULL and err if none. */
static struct compare_row *
compare_rows(const cJSON *base, const cJSON *new, const struct compare_opts *o,
    size_t *nrows, char *err, size_t errlen)
{
	size_t n = (size_t)cJSON_GetArraySize(results_arr(new,
	    "cells")) * COMPARE_BESIDE_MAX + 1, k, measured = 0, i;
	struct compare_pairs pp = { calloc(n, sizeof(*pp.p)), 0, n, o->alpha };
	struct compare_row *rows = calloc(n, sizeof(*rows));
	struct compare_row *r, tmp;

	if (rows == NULL || pp.p == NULL)
		abort();
	if (o->beside)
		beside_each(new, base, compare_pair_beside, &pp);
	else
		compare_pairs_matched(base, new, o, &pp);
	*nrows = 0;
	for (i = 0; i < pp.n; i++) {
		r = &rows[*nrows];
		snprintf(r->cell, sizeof(r->cell), "%s", pp.p[i].cell);
		compare_arm_read(&r->a, pp.p[i].a, o->metric);
		compare_arm_read(&r->b, pp.p[i].b, o->metric);
		measured += r->a.n > 0 && r->b.n > 0;
		r->level = pp.p[i].level;
		compare_test(r, r->level, o->threshold);
		for (k = *nrows; compare_bad_runs(&r->b) > 0 && k > 0 &&
		    compare_bad_runs(&rows[k - 1].b) == 0; k--) {
			tmp = rows[k];
			rows[k] = rows[k - 1];
			rows[k - 1] = tmp;
		}
		(*nrows)++;
	}
	free(pp.p);
	if (*nrows > 0 && (measured > 0 || o->by_position))
		return rows;
	snprintf(err, errlen, *nrows == 0 && o->beside ? "--beside: no real "
	    "runtime of NEW has a cell of a model of its design in BASE" :
	    *nrows == 0 ? "no cell of one file matches a cell of the other" :
	    "--metric %s: no matched cell has it in an ok run of both files",
	    o->metric);
	for (k = 0; k < *nrows; k++)
		compare_row_free(&rows[k]);
	free(rows);
	return NULL;
}

/*
 * Holm over the cells tested, or each cell at its own level in a
 * sequential campaign; then every verdict. Returns the family's size.
 */
static size_t
compare_verdicts(struct compare_row *rows, size_t n,
    const struct compare_opts *o)
{
	double *p = calloc(n ? n : 1, sizeof(*p));
	double *adj = calloc(n ? n : 1, sizeof(*adj));
	size_t i, m = 0, family;

	if (p == NULL || adj == NULL)
		abort();
	for (i = 0; i < n; i++)
		if (rows[i].tested && compare_bad_runs(&rows[i].b) == 0)
			p[m++] = rows[i].t.p;
	if (o->levels == NULL)
		stats_holm(p, m, adj);
	else
		memcpy(adj, p, m * sizeof(*p));
	family = m;
	for (i = 0, m = 0; i < n; i++) {
		rows[i].p_adj = NAN;
		if (rows[i].tested && compare_bad_runs(&rows[i].b) == 0)
			rows[i].p_adj = adj[m++];
		compare_mde(&rows[i], o->levels != NULL ? rows[i].level :
		    o->alpha / (double)(family ? family : 1));
		rows[i].verdict = compare_decide(&rows[i], o, rows[i].level,
		    rows[i].p_adj);
	}
	free(p);
	free(adj);
	return family;
}

static void
compare_effect(const struct compare_row *r, char *buf, size_t len)
{
	double lo, hi;

	if (compare_bad_runs(&r->b) > 0) {
		snprintf(buf, len, "NEW: %u of %u runs not ok", compare_bad_runs(
		    &r->b), r->b.runs);
		return;
	}
	if (!r->tested) {
		snprintf(buf, len, "too few ok runs");
		return;
	}
	compare_change(r, &lo, &hi);
	if (r->difference)
		snprintf(buf, len, "%+.3g [%+.3g, %+.3g]", r->t.shift, lo, hi);
	else
		snprintf(buf, len, "%.3f [%.3f, %.3f]%s", exp(r->t.shift),
		    lo + 1, hi + 1, r->regimes ? " 2 regimes" : "");
	return;
}

/* "6/6" ok runs of all, and the slow ones when there are two regimes. */
static void
compare_runs(const struct compare_row *r, char *buf, size_t len)
{

	if (r->regimes)
		snprintf(buf, len, "%u/%u %u/%u slow %u->%u", r->a.ok, r->a.runs,
		    r->b.ok, r->b.runs, r->t.slow_a, r->t.slow_b);
	else
		snprintf(buf, len, "%u/%u %u/%u", r->a.ok, r->a.runs, r->b.ok,
		    r->b.runs);
	return;
}

/* What people read of a row: the runs, the change and the verdict as text. */
static void
compare_row_people(const struct compare_row *r, cJSON *j)
{
	char buf[256];

	compare_runs(r, buf, sizeof(buf));
	cJSON_AddStringToObject(j, "ok_runs", buf);
	compare_effect(r, buf, sizeof(buf));
	cJSON_AddStringToObject(j, "change", buf);
	if (!isfinite(r->mde))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), r->difference ? "%.3g" : "%.3g %%",
		    r->difference ? r->mde : r->mde * 100);
	cJSON_AddStringToObject(j, "sees", buf);
	snprintf(buf, sizeof(buf), "%s%s%s%s", r->verdict, r->why[0] ? ": " :
	    "", r->why, r->wide && strcmp(r->verdict, "inconclusive") == 0 ?
	    " (spread > threshold)" : "");
	cJSON_AddStringToObject(j, "verdict_text", buf);
	return;
}

static cJSON *
compare_arm_json(const struct compare_arm *arm)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "runs", arm->runs);
	cJSON_AddNumberToObject(j, "ok", arm->ok);
	cJSON_AddNumberToObject(j, "failed", arm->failed);
	cJSON_AddNumberToObject(j, "hung", arm->hung);
	cJSON_AddNumberToObject(j, "crashed", arm->crashed);
	cJSON_AddStringToObject(j, "errors", arm->errors);
	return j;
}

static cJSON *
compare_row_json(const struct compare_row *r, size_t family,
    const struct compare_opts *o)
{
	cJSON *j = cJSON_CreateObject();
	double lo = NAN, hi = NAN;
	bool ratio = r->tested && !r->difference;

	if (r->tested)
		compare_change(r, &lo, &hi);
	cJSON_AddStringToObject(j, "cell", r->cell);
	cJSON_AddNumberToObject(j, "runs_base", (double)r->a.n);
	cJSON_AddNumberToObject(j, "runs_new", (double)r->b.n);
	cJSON_AddItemToObject(j, "base_runs", compare_arm_json(&r->a));
	cJSON_AddItemToObject(j, "new_runs", compare_arm_json(&r->b));
	cJSON_AddNumberToObject(j, "median_base", r->a.median);
	cJSON_AddNumberToObject(j, "median_new", r->b.median);
	cJSON_AddStringToObject(j, "compared_as", !r->tested ? "-" :
	    r->difference ? "difference" : "ratio");
	cJSON_AddNumberToObject(j, "ratio", ratio ? exp(r->t.shift) : NAN);
	cJSON_AddNumberToObject(j, "ratio_lo", ratio ? lo + 1 : NAN);
	cJSON_AddNumberToObject(j, "ratio_hi", ratio ? hi + 1 : NAN);
	cJSON_AddNumberToObject(j, "difference", r->tested && r->difference ?
	    r->t.shift : NAN);
	cJSON_AddNumberToObject(j, "difference_lo", r->difference ? lo : NAN);
	cJSON_AddNumberToObject(j, "difference_hi", r->difference ? hi : NAN);
	cJSON_AddNumberToObject(j, "interval_conf", r->tested ? r->t.conf : NAN);
	cJSON_AddNumberToObject(j, "p", r->p_adj);
	cJSON_AddNumberToObject(j, "p_unadjusted", r->tested ? r->t.p : NAN);
	cJSON_AddNumberToObject(j, "p_shift", r->tested ? r->t.p_shift : NAN);
	cJSON_AddNumberToObject(j, "p_share", r->tested ? r->t.p_share : NAN);
	cJSON_AddNumberToObject(j, "p_new_higher", r->tested ? r->t.u /
	    ((double)r->a.n * (double)r->b.n) : NAN);
	cJSON_AddStringToObject(j, "correction", o->levels != NULL ?
	    "sequential" : "holm");
	cJSON_AddNumberToObject(j, "family", (double)family);
	cJSON_AddNumberToObject(j, "level", o->levels != NULL ? r->level :
	    o->alpha);
	cJSON_AddBoolToObject(j, "bimodal", r->regimes);
	cJSON_AddNumberToObject(j, "slow_base", r->regimes ? r->t.slow_a : 0);
	cJSON_AddNumberToObject(j, "slow_new", r->regimes ? r->t.slow_b : 0);
	cJSON_AddNumberToObject(j, "smallest_detectable", r->mde);
	cJSON_AddBoolToObject(j, "spread_wider_than_threshold", r->wide);
	cJSON_AddStringToObject(j, "verdict", r->verdict);
	cJSON_AddStringToObject(j, "why", r->why);
	compare_row_people(r, j);
	return j;
}

static const struct table_col compare_people[] = {
	{ "cell", "cell" }, { "ok_runs", "ok runs base new" },
	{ "median_base", "base" }, { "median_new", "new" },
	{ "change", "NEW/BASE [interval]" }, { "p", "p" },
	{ "sees", "could see" }, { "verdict_text", "verdict" },
};

static const struct table_col compare_program[] = {
	{ "cell", NULL }, { "runs_base", NULL }, { "runs_new", NULL },
	{ "base_runs", NULL }, { "new_runs", NULL }, { "median_base", NULL },
	{ "median_new", NULL }, { "compared_as", NULL }, { "ratio", NULL },
	{ "ratio_lo", NULL }, { "ratio_hi", NULL }, { "difference", NULL },
	{ "difference_lo", NULL }, { "difference_hi", NULL },
	{ "interval_conf", NULL }, { "p", NULL }, { "p_unadjusted", NULL },
	{ "p_shift", NULL }, { "p_share", NULL }, { "p_new_higher", NULL },
	{ "correction", NULL }, { "family", NULL }, { "level", NULL },
	{ "bimodal", NULL }, { "slow_base", NULL }, { "slow_new", NULL },
	{ "smallest_detectable", NULL },
	{ "spread_wider_than_threshold", NULL }, { "verdict", NULL },
	{ "why", NULL },
};

/* The line above a table for people: what was compared, and how. */
static void
compare_header(FILE *out, const struct compare_opts *o, size_t family)
{
	char how[96];

	if (o->levels != NULL)
		snprintf(how, sizeof(how), "sequential, each of %zu cells at "
		    "its look's level", family);
	else
		snprintf(how, sizeof(how), "Holm over the %zu cells tested",
		    family);
	fprintf(out, "%s%s%s, NEW/BASE, threshold ±%.0f %%, alpha %.3g, %s\n%s",
	    o->format == TABLE_MARKDOWN ? "**dispatchbench compare**: `" : "",
	    o->metric, o->format == TABLE_MARKDOWN ? "`" : "",
	    o->threshold * 100, o->alpha, how,
	    o->format == TABLE_MARKDOWN ? "\n" : "");
	return;
}

/* Broken cells, named before anything else, with what went wrong. */
static void
compare_broken(FILE *out, const struct compare_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (compare_bad_runs(&rows[i].b) == 0)
			continue;
		fprintf(out, "BROKEN %s: NEW %u of %u runs not ok (%u failed, "
		    "%u hung, %u crashed; %s); BASE %u of %u%s\n", rows[i].cell,
		    compare_bad_runs(&rows[i].b), rows[i].b.runs,
		    rows[i].b.failed, rows[i].b.hung, rows[i].b.crashed,
		    rows[i].b.errors, compare_bad_runs(&rows[i].a),
		    rows[i].a.runs, compare_bad_runs(&rows[i].a) ?
		    " (the runs of BASE failed too)" : "");
	}
	return;
}

/*
 * With few runs a side, an exact test cannot reach alpha / M: Holm over
 * M cells then flags nothing, and a silent "no regression" would lie.
 */
static void
compare_reach(FILE *out, const struct compare_row *rows, size_t n,
    size_t family, double alpha)
{
	double best = 1;
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].tested && !isnan(rows[i].p_adj))
			best = fmin(best, rank_p_min(rows[i].a.n, rows[i].b.n));
	if (family > 0 && best > alpha / (double)family)
		fprintf(out, "warning: with these runs no cell can pass Holm over "
		    "%zu cells (smallest attainable p %.2g > %.2g): add runs\n",
		    family, best, alpha / (double)family);
	return;
}

static void
compare_write(FILE *out, const struct compare_row *rows, size_t n,
    size_t family, const struct compare_opts *o, cJSON *json)
{
	static const struct table people = { "compare", compare_people,
	    sizeof(compare_people) / sizeof(compare_people[0]) };
	static const struct table program = { "compare", compare_program,
	    sizeof(compare_program) / sizeof(compare_program[0]) };
	unsigned int regressed = 0, broken = 0, improved = 0;
	size_t i;

	if (!table_for_people(o->format)) {
		table_write(out, o->format, &program, json);
		return;
	}
	for (i = 0; i < n; i++) {
		broken += strcmp(rows[i].verdict, "broken") == 0;
		regressed += strcmp(rows[i].verdict, "regressed") == 0;
		improved += strcmp(rows[i].verdict, "improved") == 0;
	}
	compare_broken(out, rows, n);
	compare_header(out, o, family);
	table_write(out, o->format, &people, json);
	fprintf(out, "\n%zu cells compared, %s at alpha %.3g: %s", n,
	    o->levels != NULL ? "sequentially" : "Holm's correction", o->alpha,
	    broken || regressed ? "" : "no regression");
	if (broken)
		fprintf(out, "BROKEN %u (NEW failed runs)%s", broken, regressed ?
		    ", " : "");
	if (regressed)
		fprintf(out, "REGRESSED %u", regressed);
	fprintf(out, improved ? ", improved %u\n" : "\n", improved);
	if (o->levels == NULL)
		compare_reach(out, rows, n, family, o->alpha);
	return;
}

int
compare_docs(const cJSON *base, const cJSON *new, const struct compare_opts *o,
    FILE *out, char *err, size_t errlen)
{
	struct compare_row *rows;
	cJSON *json = cJSON_CreateArray();
	size_t n, i, family;
	int rc = COMPARE_NO_REGRESSION;

	if ((!o->allow_other_machine && compare_machine(base, new, err,
	    errlen) != 0) || (rows = compare_rows(base, new, o, &n, err,
	    errlen)) == NULL) {
		cJSON_Delete(json);
		return COMPARE_BAD_INPUT;
	}
	family = compare_verdicts(rows, n, o);
	for (i = 0; i < n; i++) {
		cJSON_AddItemToArray(json, compare_row_json(&rows[i], family,
		    o));
		if (strcmp(rows[i].verdict, "regressed") == 0 ||
		    strcmp(rows[i].verdict, "broken") == 0)
			rc = COMPARE_REGRESSED;
	}
	compare_write(out, rows, n, family, o, json);
	for (i = 0; i < n; i++)
		compare_row_free(&rows[i]);
	if (o->plot_dir != NULL && plot_compare(json, results_obj(new,
	    "context"), o->metric, o->threshold, o->plot_dir, err,
	    errlen) != 0)
		rc = COMPARE_BAD_INPUT;
	cJSON_Delete(json);
	free(rows);
	return rc;
}

const char *
compare_look(const cJSON *base_cell, const cJSON *new_cell,
    const struct compare_opts *o, double level)
{
	struct compare_row *r = calloc(1, sizeof(*r));
	const char *v;

	if (r == NULL)
		abort();
	compare_arm_read(&r->a, base_cell, o->metric);
	compare_arm_read(&r->b, new_cell, o->metric);
	compare_test(r, level, o->threshold);
	compare_mde(r, level);
	v = compare_decide(r, o, level, r->tested ? r->t.p : NAN);
	compare_row_free(r);
	free(r);
	return strcmp(v, "inconclusive") == 0 ? NULL : v;
}
