/*
 * compare.c - the verdict of NEW against BASE (see compare.h).
 *
 * Per matched cell, on the chosen metric of the ok runs:
 *  - two regimes inside an arm (the gap test on each arm alone: a shift
 *    between the arms is the effect, not a second regime): each run is
 *    fast or slow, and Fisher's exact test compares the shares of slow
 *    runs; a blended median would describe neither regime;
 *  - otherwise: the ratio of NEW to BASE as the Hodges-Lehmann estimate on
 *    logs with its Moses interval, and the Mann-Whitney U p-value.
 * Verdicts: `equivalent` when the interval lies inside +-threshold;
 * `regressed` (`improved`) when p < alpha and the whole interval lies
 * beyond the threshold the wrong (right) way; else `inconclusive`.
 * Requiring the interval, not only the test, to clear the threshold is
 * what keeps an A/A comparison of thirty cells quiet: at alpha 0.05 the
 * test alone would cry wolf once or twice a sweep.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "plot.h"
#include "results.h"
#include "stats.h"

#define COMPARE_MAX_RUNS	1024

struct compare_row {
	char cell[256];
	size_t na, nb;
	double base, new, ratio, lo, hi, p;
	bool bimodal, wide;
	unsigned int slow_a, slow_b;
	const char *verdict;
};

void
compare_defaults(struct compare_opts *o)
{

	o->threshold = 0.05;
	o->alpha = 0.05;
	o->format = COMPARE_TABLE;
	o->allow_other_machine = false;
	o->metric = "cpu_us_per_dispatch";
	o->plot_dir = NULL;
	return;
}

/* Throughput is better higher; every other figure here is a cost. */
static bool
compare_higher_is_better(const char *metric)
{

	return strcmp(metric, "ops_per_s") == 0;
}

static const char *
compare_str(const cJSON *o, const char *name)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(f) ? f->valuestring : "";
}

static double
compare_num(const cJSON *o, const char *name)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsNumber(f) ? f->valuedouble : NAN;
}

static const cJSON *
compare_find(const cJSON *doc, const char *key)
{
	const cJSON *cell;
	char k[256];

	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells")) {
		results_cell_key(cell, true, k, sizeof(k));
		if (strcmp(k, key) == 0)
			return cell;
	}
	return NULL;
}

static size_t
compare_values(const cJSON *cell, const char *metric, double *v)
{
	const cJSON *run;
	size_t n = 0;
	double x;

	cJSON_ArrayForEach(run, cJSON_GetObjectItem(cell, "runs")) {
		if (strcmp(compare_str(run, "status"), "ok") != 0)
			continue;
		x = compare_num(run, metric);
		if (isfinite(x) && x > 0 && n < COMPARE_MAX_RUNS)
			v[n++] = x;
	}
	return n;
}

/* Same machine: the same CPU, count, cpuset and topology. */
static int
compare_machine(const cJSON *a, const cJSON *b, char *err, size_t errlen)
{
	static const char *fields[] = { "cpu_model", "cpuset", "topology" };
	const cJSON *ca = cJSON_GetObjectItem(a, "context");
	const cJSON *cb = cJSON_GetObjectItem(b, "context");
	size_t i;

	if (compare_num(ca, "schema") != compare_num(cb, "schema")) {
		snprintf(err, errlen, "the two files have different schemas "
		    "(%.0f, %.0f)", compare_num(ca, "schema"),
		    compare_num(cb, "schema"));
		return -1;
	}
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (strcmp(compare_str(ca, fields[i]),
		    compare_str(cb, fields[i])) != 0) {
			snprintf(err, errlen, "the files come from different "
			    "machines (%s: '%s' against '%s'); pass "
			    "--allow-other-machine to compare anyway", fields[i],
			    compare_str(ca, fields[i]), compare_str(cb, fields[i]));
			return -1;
		}
	}
	return 0;
}

static unsigned int
compare_count_above(const double *v, size_t n, double boundary)
{
	unsigned int k = 0;
	size_t i;

	for (i = 0; i < n; i++)
		k += v[i] > boundary;
	return k;
}

/* Two regimes: slow = the worse side of the boundary. */
static void
compare_regimes(struct compare_row *r, const double *a, const double *b,
    double boundary, bool higher_better, const struct compare_opts *o)
{
	unsigned int above_a = compare_count_above(a, r->na, boundary);
	unsigned int above_b = compare_count_above(b, r->nb, boundary);

	r->bimodal = true;
	r->slow_a = higher_better ? (unsigned int)r->na - above_a : above_a;
	r->slow_b = higher_better ? (unsigned int)r->nb - above_b : above_b;
	r->p = stats_fisher(r->slow_b, (unsigned int)r->nb - r->slow_b,
	    r->slow_a, (unsigned int)r->na - r->slow_a);
	r->verdict = "inconclusive";
	if (r->p < o->alpha)
		r->verdict = (double)r->slow_b / r->nb > (double)r->slow_a / r->na ?
		    "regressed" : "improved";
	return;
}

static void
compare_shift(struct compare_row *r, const double *a, const double *b,
    bool higher_better, const struct compare_opts *o)
{
	double t = o->threshold, worst, best;
	bool full;

	full = stats_ratio_interval(a, r->na, b, r->nb, o->alpha, &r->ratio,
	    &r->lo, &r->hi);
	r->p = stats_mann_whitney(a, r->na, b, r->nb);
	/* The interval's ends, as "how much worse": cost up, throughput down. */
	best = higher_better ? 1 / r->hi : r->lo;
	worst = higher_better ? 1 / r->lo : r->hi;
	r->verdict = "inconclusive";
	if (full && r->lo >= 1 - t && r->hi <= 1 + t)
		r->verdict = "equivalent";
	else if (full && r->p < o->alpha && best > 1 + t)
		r->verdict = "regressed";
	else if (full && r->p < o->alpha && worst < 1 - t)
		r->verdict = "improved";
	return;
}

static void
compare_cell(struct compare_row *r, const cJSON *ca, const cJSON *cb,
    const struct compare_opts *o)
{
	double a[COMPARE_MAX_RUNS], b[COMPARE_MAX_RUNS], both[2 * COMPARE_MAX_RUNS];
	bool hb = compare_higher_is_better(o->metric);
	struct stats_summary sa, sb;
	double boundary, ignored;

	r->na = compare_values(ca, o->metric, a);
	r->nb = compare_values(cb, o->metric, b);
	r->ratio = r->lo = r->hi = r->p = NAN;
	r->bimodal = r->wide = false;
	if (r->na < 2 || r->nb < 2) {
		r->verdict = "inconclusive";
		r->base = r->na ? a[0] : NAN;
		r->new = r->nb ? b[0] : NAN;
		return;
	}
	stats_summarize(a, r->na, &sa);
	stats_summarize(b, r->nb, &sb);
	r->base = sa.median;
	r->new = sb.median;
	/* The spread of either arm is wider than the effect asked for. */
	r->wide = (sa.q3 - sa.q1) / sa.median > o->threshold ||
	    (sb.q3 - sb.q1) / sb.median > o->threshold;
	memcpy(both, a, r->na * sizeof(*a));
	memcpy(both + r->na, b, r->nb * sizeof(*b));
	/* The boundary between the regimes from both arms' runs together. */
	if ((stats_bimodal(a, r->na, &ignored) ||
	    stats_bimodal(b, r->nb, &ignored)) &&
	    stats_bimodal(both, r->na + r->nb, &boundary))
		compare_regimes(r, a, b, boundary, hb, o);
	else
		compare_shift(r, a, b, hb, o);
	return;
}

static void
compare_print_row(FILE *out, const struct compare_row *r,
    const struct compare_opts *o)
{
	const char *sep = o->format == COMPARE_MARKDOWN ? " | " : "  ";
	char effect[96];

	if (r->bimodal)
		snprintf(effect, sizeof(effect), "two regimes: slow %u/%zu -> "
		    "%u/%zu (Fisher)", r->slow_a, r->na, r->slow_b, r->nb);
	else if (isnan(r->ratio))
		snprintf(effect, sizeof(effect), "too few ok runs");
	else
		snprintf(effect, sizeof(effect), "%.3f [%.3f, %.3f]", r->ratio,
		    r->lo, r->hi);
	fprintf(out, "%s%-72s%s%2zu/%-2zu%s%10.4g%s%10.4g%s%-38s%s%9.2g%s%s%s%s\n",
	    o->format == COMPARE_MARKDOWN ? "| " : "", r->cell, sep, r->na,
	    r->nb, sep, r->base, sep, r->new, sep, effect, sep, r->p, sep,
	    r->verdict, r->wide ? " (spread > threshold)" : "",
	    o->format == COMPARE_MARKDOWN ? " |" : "");
	return;
}

static cJSON *
compare_row_json(const struct compare_row *r)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "cell", r->cell);
	cJSON_AddNumberToObject(j, "runs_base", (double)r->na);
	cJSON_AddNumberToObject(j, "runs_new", (double)r->nb);
	cJSON_AddNumberToObject(j, "median_base", r->base);
	cJSON_AddNumberToObject(j, "median_new", r->new);
	cJSON_AddNumberToObject(j, "ratio", r->ratio);
	cJSON_AddNumberToObject(j, "ratio_lo", r->lo);
	cJSON_AddNumberToObject(j, "ratio_hi", r->hi);
	cJSON_AddNumberToObject(j, "p", r->p);
	cJSON_AddBoolToObject(j, "bimodal", r->bimodal);
	cJSON_AddNumberToObject(j, "slow_base", r->bimodal ? r->slow_a : 0);
	cJSON_AddNumberToObject(j, "slow_new", r->bimodal ? r->slow_b : 0);
	cJSON_AddBoolToObject(j, "spread_wider_than_threshold", r->wide);
	cJSON_AddStringToObject(j, "verdict", r->verdict);
	return j;
}

/* A row as CSV (RFC 4180: a cell's name may hold commas, so it is quoted). */
static void
compare_csv_row(FILE *out, const cJSON *row, bool header)
{
	const cJSON *f;
	const char *c;
	int k = 0;

	cJSON_ArrayForEach(f, row) {
		fputs(k++ ? "," : "", out);
		if (header) {
			fputs(f->string, out);
		} else if (cJSON_IsString(f)) {
			fputc('"', out);
			for (c = f->valuestring; *c != '\0'; c++) {
				if (*c == '"')
					fputc('"', out);
				fputc(*c, out);
			}
			fputc('"', out);
		} else if (cJSON_IsBool(f)) {
			fputs(cJSON_IsTrue(f) ? "true" : "false", out);
		} else if (isfinite(f->valuedouble)) {
			fprintf(out, "%.6g", f->valuedouble);
		}
	}
	fputc('\n', out);
	return;
}

static void
compare_header(FILE *out, const struct compare_opts *o)
{

	if (o->format == COMPARE_MARKDOWN) {
		fprintf(out, "**dispatchbench compare**: `%s`, NEW/BASE, threshold "
		    "±%.0f %%, alpha %.3g\n\n| cell | runs | base | new | ratio "
		    "[interval] | p | verdict |\n|---|---|---|---|---|---|---|\n",
		    o->metric, o->threshold * 100, o->alpha);
	} else if (o->format == COMPARE_TABLE) {
		fprintf(out, "%s, NEW/BASE, threshold ±%.0f %%, alpha %.3g\n"
		    "%-72s  %-5s  %10s  %10s  %-38s  %9s  %s\n", o->metric,
		    o->threshold * 100, o->alpha, "cell", "runs", "base", "new",
		    "ratio [interval]", "p", "verdict");
	}
	return;
}

int
compare_docs(const cJSON *base, const cJSON *new, const struct compare_opts *o,
    FILE *out, char *err, size_t errlen)
{
	const cJSON *cb, *ca;
	cJSON *rows = cJSON_CreateArray();
	struct compare_row r;
	int matched = 0, measured = 0, regressed = 0;
	double v[COMPARE_MAX_RUNS];
	char *text;

	if (!o->allow_other_machine && compare_machine(base, new, err,
	    errlen) != 0) {
		cJSON_Delete(rows);
		return COMPARE_BAD_INPUT;
	}
	cJSON_ArrayForEach(cb, cJSON_GetObjectItem(new, "cells")) {
		results_cell_key(cb, true, r.cell, sizeof(r.cell));
		if ((ca = compare_find(base, r.cell)) == NULL)
			continue;
		matched++;
		measured += compare_values(ca, o->metric, v) > 0 &&
		    compare_values(cb, o->metric, v) > 0;
	}
	if (matched == 0 || measured == 0) {
		snprintf(err, errlen, matched == 0 ? "no cell of one file "
		    "matches a cell of the other" : "--metric %s: no matched "
		    "cell has it in an ok run of both files", o->metric);
		cJSON_Delete(rows);
		return COMPARE_BAD_INPUT;
	}
	compare_header(out, o);
	cJSON_ArrayForEach(cb, cJSON_GetObjectItem(new, "cells")) {
		results_cell_key(cb, true, r.cell, sizeof(r.cell));
		if ((ca = compare_find(base, r.cell)) == NULL)
			continue;
		compare_cell(&r, ca, cb, o);
		regressed |= strcmp(r.verdict, "regressed") == 0;
		cJSON_AddItemToArray(rows, compare_row_json(&r));
		if (o->format == COMPARE_TABLE || o->format == COMPARE_MARKDOWN)
			compare_print_row(out, &r, o);
	}
	if (o->format == COMPARE_JSON) {
		text = cJSON_Print(rows);
		fprintf(out, "%s\n", text);
		free(text);
	} else if (o->format == COMPARE_CSV) {
		compare_csv_row(out, cJSON_GetArrayItem(rows, 0), true);
		cJSON_ArrayForEach(ca, rows)
			compare_csv_row(out, ca, false);
	} else {
		fprintf(out, "\n%d cells compared: %s\n", matched, regressed ?
		    "REGRESSED" : "no regression");
	}
	if (o->plot_dir != NULL && plot_compare(rows, cJSON_GetObjectItem(new,
	    "context"), o->metric, o->threshold, o->plot_dir, err,
	    errlen) != 0) {
		cJSON_Delete(rows);
		return COMPARE_BAD_INPUT;
	}
	cJSON_Delete(rows);
	return regressed ? COMPARE_REGRESSED : COMPARE_NO_REGRESSION;
}
