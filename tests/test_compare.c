/*
 * test_compare.c - the verdicts of `compare` on results made up here: each
 * case has one verdict, compared whole. An A/A stays quiet, a clear shift
 * is regressed or improved, two regimes do not hide a shift, a NEW run
 * that failed, hung or crashed makes the cell broken and `compare` exit 1,
 * a figure that can be 0 is compared as a difference, Holm keeps a family
 * quiet (six cells each significant alone) and still flags the cell that
 * moved, and files from two machines are refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "compare.h"
#include "tmpdir.h"

/* One cell of runs: v scaled, then `failed` runs that failed. */
static cJSON *
cell(int workers, const char *metric, double scale, const double *v, int n,
    int failed)
{
	cJSON *cell = cJSON_CreateObject(), *runs, *run;
	int i;

	cJSON_AddStringToObject(cell, "dispatcher", "shared");
	cJSON_AddStringToObject(cell, "queue", "lfseg");
	cJSON_AddNumberToObject(cell, "workers", workers);
	cJSON_AddNumberToObject(cell, "coroutines", 64);
	runs = cJSON_AddArrayToObject(cell, "runs");
	for (i = 0; i < n + failed; i++) {
		run = cJSON_CreateObject();
		cJSON_AddStringToObject(run, "status", i < n ? "ok" : "failed");
		if (i < n)
			cJSON_AddNumberToObject(run, metric, v[i] * scale);
		else
			cJSON_AddStringToObject(run, "error", "count check");
		cJSON_AddItemToArray(runs, run);
	}
	return cell;
}

static cJSON *
doc(const char *cpu)
{
	cJSON *d = cJSON_CreateObject(), *ctx;

	ctx = cJSON_AddObjectToObject(d, "context");
	cJSON_AddNumberToObject(ctx, "schema", 1);
	cJSON_AddStringToObject(ctx, "cpu_model", cpu);
	cJSON_AddStringToObject(ctx, "cpuset", "0-1");
	cJSON_AddStringToObject(ctx, "topology", "2 PUs");
	cJSON_AddArrayToObject(d, "cells");
	return d;
}

static cJSON *
doc1(const char *cpu, double scale, const double *v, int n, int failed)
{
	cJSON *d = doc(cpu);

	cJSON_AddItemToArray(cJSON_GetObjectItem(d, "cells"), cell(8,
	    "cpu_us_per_dispatch", scale, v, n, failed));
	return d;
}

/* Compares; returns the exit code, the rows into *rows (JSON). */
static int
compare(cJSON *a, cJSON *b, const struct compare_opts *o, cJSON **rows,
    char *err, size_t errlen)
{
	static char buf[1 << 16];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct compare_opts j = *o;
	int rc;

	j.format = TABLE_JSON;
	rc = compare_docs(a, b, &j, f, err, errlen);
	fclose(f);
	*rows = NULL;
	if (rc != COMPARE_BAD_INPUT) {
		*rows = cJSON_Parse(buf);
		cr_assert_not_null(*rows, "output is not JSON: %s", buf);
	}
	cJSON_Delete(a);
	cJSON_Delete(b);
	return rc;
}

/* The verdict of the one cell of a and b, and the exit code. */
static int
verdict(cJSON *a, cJSON *b, char *out, size_t len)
{
	struct compare_opts o;
	char err[256];
	cJSON *rows;
	int rc;

	compare_defaults(&o);
	rc = compare(a, b, &o, &rows, err, sizeof(err));
	snprintf(out, len, "%s", rows == NULL ? err : cJSON_GetObjectItem(
	    cJSON_GetArrayItem(rows, 0), "verdict")->valuestring);
	cJSON_Delete(rows);
	return rc;
}

static const double noisy[] = { 1.00, 1.04, 0.97, 1.02, 0.99, 1.01, 1.03, 0.98 };

/* NEW as BASE scaled: the verdict and exit status each scale must give. */
struct shift_case {
	double scale;
	int runs;
	char verdict[16];
	int rc;
};

static struct shift_case shift_cases[] = {
	{ 1.0, 8, "equivalent", COMPARE_NO_REGRESSION },
	{ 1.5, 8, "regressed", COMPARE_REGRESSED },
	{ 0.6, 8, "improved", COMPARE_NO_REGRESSION },
	{ 10, 8, "regressed", COMPARE_REGRESSED },	/* a shift, not regimes */
	{ 3, 1, "inconclusive", COMPARE_NO_REGRESSION },	/* one run a side */
	{ 3, 3, "inconclusive", COMPARE_NO_REGRESSION },	/* p >= 0.1 */
};

ParameterizedTestParameters(compare, shift)
{

	return cr_make_param_array(struct shift_case, shift_cases,
	    sizeof(shift_cases) / sizeof(shift_cases[0]));
}

ParameterizedTest(struct shift_case *c, compare, shift)
{
	char v[256];

	cr_assert_eq(verdict(doc1("X", 1, noisy, c->runs, 0), doc1("X",
	    c->scale, noisy, c->runs, 0), v, sizeof(v)), c->rc, "x%g", c->scale);
	cr_assert_str_eq(v, c->verdict, "x%g said %s", c->scale, v);
}

/* Each arm has both regimes; NEW lands in the slow one far more often. */
Test(compare, a_share_change_across_regimes_regresses)
{
	double base[] = { 1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.00, 1.02, 1.04,
	    1.01, 5.0, 5.2 };
	double new[] = { 1.00, 1.03, 5.0, 5.1, 5.2, 5.3, 5.4, 5.5, 5.0, 5.2,
	    5.4, 5.1 };
	char v[256];

	cr_assert_eq(verdict(doc1("X", 1, base, 12, 0), doc1("X", 1, new, 12,
	    0), v, sizeof(v)), COMPARE_REGRESSED);
	cr_assert_str_eq(v, "regressed");
}

/*
 * The case: BASE in two regimes (0.04 and 0.75), NEW at 2.0 in
 * every run, 2.6 times BASE's slow runs: regressed, the interval above 1.
 */
Test(compare, a_shift_beyond_both_regimes_regresses)
{
	double base[] = { 0.0400, 0.0401, 0.0402, 0.750, 0.751, 0.752 };
	double new[] = { 1.95, 1.97, 1.98, 1.99, 2.00, 2.01 };
	struct compare_opts o;
	char err[256];
	cJSON *rows, *row;

	compare_defaults(&o);
	cr_assert_eq(compare(doc1("X", 1, base, 6, 0), doc1("X", 1, new, 6, 0),
	    &o, &rows, err, sizeof(err)), COMPARE_REGRESSED);
	row = cJSON_GetArrayItem(rows, 0);
	cr_assert_str_eq(cJSON_GetObjectItem(row, "verdict")->valuestring,
	    "regressed");
	cr_assert(cJSON_GetObjectItem(row, "ratio_lo")->valuedouble > 2.6);
	cr_assert(fabs(cJSON_GetObjectItem(row, "p")->valuedouble - 0.0021645) <
	    1e-6);
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(row, "bimodal")));
	cJSON_Delete(rows);
}

/*
 * A NEW run that failed makes the cell broken whatever the timings; a
 * BASE that failed alone does not.
 */
Test(compare, failed_runs_in_new_are_broken)
{
	char v[256];

	cr_assert_eq(verdict(doc1("X", 1, noisy, 8, 0), doc1("X", 1, noisy, 6,
	    2), v, sizeof(v)), COMPARE_REGRESSED);
	cr_assert_str_eq(v, "broken");
	cr_assert_eq(verdict(doc1("X", 1, noisy, 8, 0), doc1("X", 0.5, noisy,
	    8, 1), v, sizeof(v)), COMPARE_REGRESSED, "faster and broken");
	cr_assert_str_eq(v, "broken");
	cr_assert_eq(verdict(doc1("X", 1, noisy, 6, 2), doc1("X", 1, noisy, 8,
	    0), v, sizeof(v)), COMPARE_NO_REGRESSION);
	cr_assert_str_eq(v, "equivalent");
}

/*
 * d written as a results file in this process's own folder (Criterion
 * runs tests in parallel), with the summary results_validate asks of a
 * cell; its path. Takes d.
 */
static const char *
doc_file(cJSON *d, const char *name)
{
	const char *p = tmp(name);
	char *text;
	cJSON *c;
	FILE *f;

	cJSON_ArrayForEach(c, cJSON_GetObjectItem(d, "cells"))
		cJSON_AddObjectToObject(c, "summary");
	cr_assert_not_null(text = cJSON_Print(d));
	cr_assert_not_null(f = fopen(p, "w"));
	fputs(text, f);
	fclose(f);
	free(text);
	cJSON_Delete(d);
	return p;
}

/* `dispatchbench compare BASE NEW`: its exit status, its rows. Takes a, b. */
static int
compare_cli(cJSON *a, cJSON *b, cJSON **rows)
{
	static char out[1 << 16];
	char cmd[1024];
	size_t n;
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "%s compare %s %s --format json", DB_BINARY,
	    doc_file(a, "base.json"), doc_file(b, "new.json"));
	cr_assert_not_null(p = popen(cmd, "r"));
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	*rows = cJSON_Parse(out);
	cr_assert_not_null(*rows, "output is not JSON: %s", out);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A run of d's one cell that did not end ok; its figure kept unless NAN. */
static void
run_add(cJSON *d, const char *status, const char *error, double value)
{
	cJSON *run = cJSON_CreateObject();

	cJSON_AddStringToObject(run, "status", status);
	cJSON_AddStringToObject(run, "error", error);
	if (!isnan(value))
		cJSON_AddNumberToObject(run, "cpu_us_per_dispatch", value);
	cJSON_AddItemToArray(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(d, "cells"), 0), "runs"), run);
	return;
}

/* A run that hung or crashed, as runner.c and cell.c write it. */
struct end_case {
	char status[8];
	char error[96];
	double value;			/* its figure, NAN when it has none */
};

static struct end_case end_cases[] = {
	{ "hung", "no resumption for 10.0 s", NAN },	/* the watchdog */
	{ "hung", "the run passed its deadline and was killed", NAN },
	/* Wedged at its stop: the window's figures stay in the run. */
	{ "hung", "the run could not be stopped: a thread of it did not "
	    "return within 20 s; the process ends here", 0.5 },
	{ "crashed", "Segmentation fault", NAN },
	{ "crashed", "Aborted", NAN },
};

ParameterizedTestParameters(compare, hung_or_crashed)
{

	return cr_make_param_array(struct end_case, end_cases,
	    sizeof(end_cases) / sizeof(end_cases[0]));
}

/*
 * One NEW run that hung or crashed makes the cell broken and `compare`
 * exit 1, though NEW's other runs are 0.6 times BASE (improved alone):
 * a CI job must stop on it. The same run in BASE alone does not.
 */
ParameterizedTest(struct end_case *c, compare, hung_or_crashed)
{
	cJSON *base = doc1("X", 1, noisy, 8, 0), *new = doc1("X", 0.6, noisy,
	    6, 0), *rows, *row, *arm;

	run_add(new, c->status, c->error, c->value);
	cr_assert_eq(compare_cli(base, new, &rows), 1, "%s: %s", c->status,
	    c->error);
	row = cJSON_GetArrayItem(rows, 0);
	cr_assert_str_eq(cJSON_GetObjectItem(row, "verdict")->valuestring,
	    "broken");
	arm = cJSON_GetObjectItem(row, "new_runs");
	cr_assert_eq(cJSON_GetObjectItem(arm, c->status)->valuedouble, 1);
	cr_assert_eq(cJSON_GetObjectItem(arm, "failed")->valuedouble, 0);
	cr_assert_eq(cJSON_GetObjectItem(arm, "ok")->valuedouble, 6);
	cJSON_Delete(rows);

	base = doc1("X", 1, noisy, 6, 0);
	run_add(base, c->status, c->error, c->value);
	cr_assert_eq(compare_cli(base, doc1("X", 1, noisy, 8, 0), &rows), 0);
	cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 0),
	    "verdict")->valuestring, "equivalent");
	cJSON_Delete(rows);
}

/* Context switches from 0 to some: a difference, never dropped. */
Test(compare, a_figure_that_can_be_zero_is_a_difference)
{
	double zero[] = { 0, 0, 0, 0, 0, 0 };
	double some[] = { 0.010, 0.012, 0.011, 0.013, 0.010, 0.012 };
	struct compare_opts o;
	char err[256];
	cJSON *a = doc("X"), *b = doc("X"), *rows, *row;

	compare_defaults(&o);
	o.metric = "ctx_switches_per_dispatch";
	cJSON_AddItemToArray(cJSON_GetObjectItem(a, "cells"), cell(8,
	    o.metric, 1, zero, 6, 0));
	cJSON_AddItemToArray(cJSON_GetObjectItem(b, "cells"), cell(8,
	    o.metric, 1, some, 6, 0));
	cr_assert_eq(compare(a, b, &o, &rows, err, sizeof(err)),
	    COMPARE_REGRESSED, "%s", err);
	row = cJSON_GetArrayItem(rows, 0);
	cr_assert_str_eq(cJSON_GetObjectItem(row, "compared_as")->valuestring,
	    "difference");
	cr_assert_str_eq(cJSON_GetObjectItem(row, "verdict")->valuestring,
	    "regressed");
	cr_assert(cJSON_GetObjectItem(row, "difference_lo")->valuedouble >= 0.01);
	cr_assert_eq(cJSON_GetObjectItem(row, "runs_base")->valuedouble, 6,
	    "no zero dropped");
	cJSON_Delete(rows);
}

/*
 * Six cells: five with a small shift the test does not flag, and one cell
 * that moved. Holm flags the one, and keeps the others quiet; every row
 * says how small a change it could have seen.
 */
Test(compare, holm_flags_the_cell_that_moved)
{
	/*
	 * p = 0.073 alone (U = 39 of 49): these five are quiet with or without
	 * Holm; holm_holds_back_six_cells_each_significant_alone is the case
	 * that needs the correction.
	 */
	double a[] = { 1.00, 1.02, 1.04, 1.06, 1.08, 1.10, 1.12 };
	double b[] = { 1.05, 1.07, 1.09, 1.11, 1.13, 1.15, 1.17 };
	struct compare_opts o;
	char err[256];
	cJSON *base = doc("X"), *new = doc("X"), *rows;
	const cJSON *row;
	int w, regressed = 0;

	compare_defaults(&o);
	o.threshold = 0.01;
	for (w = 1; w <= 5; w++) {
		cJSON_AddItemToArray(cJSON_GetObjectItem(base, "cells"), cell(w,
		    o.metric, 1, a, 7, 0));
		cJSON_AddItemToArray(cJSON_GetObjectItem(new, "cells"), cell(w,
		    o.metric, 1, b, 7, 0));
	}
	cJSON_AddItemToArray(cJSON_GetObjectItem(base, "cells"), cell(64,
	    o.metric, 1, a, 7, 0));
	cJSON_AddItemToArray(cJSON_GetObjectItem(new, "cells"), cell(64,
	    o.metric, 2, a, 7, 0));
	cr_assert_eq(compare(base, new, &o, &rows, err, sizeof(err)),
	    COMPARE_REGRESSED);
	cJSON_ArrayForEach(row, rows) {
		regressed += strcmp(cJSON_GetObjectItem(row,
		    "verdict")->valuestring, "regressed") == 0;
		cr_assert_str_eq(cJSON_GetObjectItem(row,
		    "correction")->valuestring, "holm");
		cr_assert(cJSON_GetObjectItem(row, "p")->valuedouble >=
		    cJSON_GetObjectItem(row, "p_unadjusted")->valuedouble);
		cr_assert(isfinite(cJSON_GetObjectItem(row,
		    "smallest_detectable")->valuedouble));
	}
	cr_assert_eq(regressed, 1);
	cr_assert(strstr(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 5),
	    "cell")->valuestring, "w=64") != NULL);
	cJSON_Delete(rows);
}

/*
 * The six-cell case. BASE's medians 1.000 ... 1.070 (steps of
 * 0.014), its six runs the median -0.032 ... +0.032; NEW each 0.04 above.
 * In every cell 3 of the 36 pairs have NEW below BASE (U = 3: p =
 * 2 * 7 / 924 = 0.0152) and the interval lies above +0.5 %: alone, each
 * cell regresses. Holm over six multiplies the smallest p by 6 (0.091),
 * so none passes alpha: the family's false-alarm rate stays 0.05.
 */
static const double holm_runs[] = { -0.032, -0.012, -0.004, 0.004, 0.012,
    0.032 };

static cJSON *
holm_doc(double add)
{
	cJSON *d = doc("X");
	double v[6];
	int c, i;

	for (c = 0; c < 6; c++) {
		for (i = 0; i < 6; i++)
			v[i] = 1.00 + 0.014 * c + holm_runs[i] + add;
		cJSON_AddItemToArray(cJSON_GetObjectItem(d, "cells"), cell(c + 1,
		    "cpu_us_per_dispatch", 1, v, 6, 0));
	}
	return d;
}

/* Every row has verdict v and p (adjusted or not) p. */
static void
holm_rows(const cJSON *rows, const char *v, double p)
{
	const cJSON *row;

	cr_assert_eq(cJSON_GetArraySize(rows), 6);
	cJSON_ArrayForEach(row, rows) {
		cr_assert_str_eq(cJSON_GetObjectItem(row, "verdict")->valuestring,
		    v);
		cr_assert(fabs(cJSON_GetObjectItem(row, "p_unadjusted")->valuedouble -
		    14.0 / 924) < 1e-9);
		cr_assert(fabs(cJSON_GetObjectItem(row, "p")->valuedouble - p) <
		    1e-9, "p %g", cJSON_GetObjectItem(row, "p")->valuedouble);
		/* The interval clears the threshold: only the p holds it back. */
		cr_assert(cJSON_GetObjectItem(row, "ratio_lo")->valuedouble > 1.005);
	}
	return;
}

Test(compare, holm_holds_back_six_cells_each_significant_alone)
{
	static const double alone[6] = { 0.05, 0.05, 0.05, 0.05, 0.05, 0.05 };
	struct compare_opts o;
	char err[256];
	cJSON *rows;

	compare_defaults(&o);
	o.threshold = 0.005;
	cr_assert_eq(compare(holm_doc(0), holm_doc(0.04), &o, &rows, err,
	    sizeof(err)), COMPARE_NO_REGRESSION);
	holm_rows(rows, "inconclusive", 6 * 14.0 / 924);
	cJSON_Delete(rows);
	/* Each cell at alpha alone (a campaign's levels): all six regress. */
	o.levels = alone;
	cr_assert_eq(compare(holm_doc(0), holm_doc(0.04), &o, &rows, err,
	    sizeof(err)), COMPARE_REGRESSED);
	holm_rows(rows, "regressed", 14.0 / 924);
	cJSON_Delete(rows);
}

/* An inconclusive cell says what it could not see. */
Test(compare, inconclusive_says_how_small_a_change_it_could_see)
{
	double a[] = { 1.00, 1.10, 0.90, 1.05, 0.95, 1.02 };
	double b[] = { 1.03, 1.12, 0.93, 1.08, 0.97, 1.06 };
	struct compare_opts o;
	char err[256];
	cJSON *rows, *row;

	compare_defaults(&o);
	cr_assert_eq(compare(doc1("X", 1, a, 6, 0), doc1("X", 1, b, 6, 0), &o,
	    &rows, err, sizeof(err)), COMPARE_NO_REGRESSION);
	row = cJSON_GetArrayItem(rows, 0);
	cr_assert_str_eq(cJSON_GetObjectItem(row, "verdict")->valuestring,
	    "inconclusive");
	cr_assert(strncmp(cJSON_GetObjectItem(row, "why")->valuestring,
	    "could not see changes below ", 28) == 0, "%s",
	    cJSON_GetObjectItem(row, "why")->valuestring);
	cJSON_Delete(rows);
}

Test(compare, another_machine_is_refused)
{
	char v[256];

	cr_assert_eq(verdict(doc1("X", 1, noisy, 8, 0), doc1("Y", 1, noisy, 8,
	    0), v, sizeof(v)), COMPARE_BAD_INPUT);
	cr_assert_str_eq(v, "the files come from different machines "
	    "(cpu_model: 'X' against 'Y'); pass --allow-other-machine to "
	    "compare anyway");
}
