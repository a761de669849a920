/*
 * test_compare.c - the verdicts of `compare` on results made up here: each
 * case has one verdict, compared whole. An A/A stays quiet, a clear shift
 * is regressed or improved, two regimes do not hide a shift, a NEW run
 * that failed, hung or crashed makes the cell broken and `compare` exit 1,
 * a figure that can be 0 is compared as a difference, Holm keeps a family
 * quiet (six cells each significant alone) and still flags the cell that
 * moved, and files from two machines are refused. Issue 28's cases, each
 * with its inputs: a moved slow share or a slow minority is never
 * equivalent, a change past the threshold at p < alpha is never a silent
 * inconclusive, every NEW run failed is broken, a cell with no answer is
 * undecided (exit 3), a cost of 0 is refused, a shift inside two regimes
 * is seen, and `ab` refuses a campaign that cannot answer. Issue 29's:
 * a verdict says what it judged: the metric and its unit, each row by
 * what varies (what all share said once), a plugin by its file in every
 * row (and its checksum in the JSON), the change signed and in words, and
 * which p it is, Holm's or a sequential look's. Issue 42's: the machine's
 * probes of two sittings side by side, a probe moved only past both
 * ranges, and nothing said of files without them. Issue 43's: counted
 * instructions alike on both sides are equivalent with no test, one more
 * a dispatch regresses unless --threshold was given, counts that vary are
 * judged as a timed figure, two machines' counts compare and two
 * counters' do not, a count that moved names its function, and a failed
 * run is broken whatever the counts. Issue 47's: one machine whose core
 * ran at another speed in NEW's sitting, by the bare loop of its runs, is
 * refused as another machine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "compare.h"
#include "fields.h"
#include "label.h"
#include "probes.h"
#include "rank.h"
#include "stats.h"
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
	/* No answer, never "no regression": one run a side, p >= 0.1. */
	{ 3, 1, "undecided", COMPARE_UNDECIDED },
	{ 3, 3, "undecided", COMPARE_UNDECIDED },
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
	    "(CPU 'X' against 'Y'); pass --allow-other-machine to compare "
	    "anyway");
}

/* The row of the one cell of a and b (JSON, to be freed) and the exit. */
static int
row_of(cJSON *a, cJSON *b, cJSON **rows, const cJSON **row)
{
	struct compare_opts o;
	char err[512];
	int rc;

	compare_defaults(&o);
	rc = compare(a, b, &o, rows, err, sizeof(err));
	cr_assert_neq(rc, COMPARE_BAD_INPUT, "%s", err);
	*row = cJSON_GetArrayItem(*rows, 0);
	return rc;
}

/*
 * Issue 28's 30 runs at 1.00 +- 1 %, in a scrambled order; NEW the same
 * with every run i % 10 < 3 (9 of 30) times slow.
 */
static void
thirty(double slow, double *base, double *new)
{
	int i;

	for (i = 0; i < 30; i++) {
		base[i] = 0.99 + 0.02 * (double)((i * 7) % 30) / 29;
		new[i] = base[i] * (i % 10 < 3 ? slow : 1);
	}
	return;
}

/*
 * 9 of 30 runs twice as slow: two regimes, the slow share 0 -> 9 of 30.
 * The Hodges-Lehmann interval [1.000, 1.013] sits among the pairs of one
 * regime and was inside +-5 %: `equivalent`, exit 0. The regime rule now
 * comes first: regressed by the share.
 */
Test(compare, a_moved_slow_share_is_never_equivalent)
{
	double base[30], new[30];
	const cJSON *row;
	cJSON *rows;

	thirty(2.0, base, new);
	cr_assert_eq(row_of(doc1("X", 1, base, 30, 0), doc1("X", 1, new, 30,
	    0), &rows, &row), COMPARE_REGRESSED);
	cr_assert_str_eq(field_text(row, "verdict"), "regressed");
	cr_assert_str_eq(field_text(row, "why"), "slow share 0/30 -> 9/30");
	cr_assert(field_number(row, "ratio_hi") < 1.05,
	    "the interval is inside");
	cJSON_Delete(rows);
}

/*
 * 2 of 30 twice as slow: not significant (p 0.5), so not regressed; nor
 * equivalent, since a share that moved by 2/30 cannot be shown equal
 * within the 5 points a 2x regime is worth under a 5 % threshold.
 */
Test(compare, a_slow_share_not_shown_equal_is_not_equivalent)
{
	double base[30], new[30];
	const cJSON *row;
	cJSON *rows;
	int i;

	thirty(1, base, new);
	for (i = 0; i < 2; i++)
		new[i] *= 2;
	cr_assert_eq(row_of(doc1("X", 1, base, 30, 0), doc1("X", 1, new, 30,
	    0), &rows, &row), COMPARE_NO_REGRESSION);
	cr_assert_str_eq(field_text(row, "verdict"), "inconclusive");
	cr_assert(strstr(field_text(row, "why"), "not shown equal") != NULL,
	    "%s", field_text(row, "why"));
	cJSON_Delete(rows);
}

/*
 * 9 of 30 runs 1.4 times slower: one regime (a factor under 1.5), the
 * mean +12 %, the interval inside +-5 %, p 0.035: was `equivalent`. The
 * upper tail moved +39 %: a slow minority, regressed.
 */
Test(compare, a_slow_minority_is_never_equivalent)
{
	double base[30], new[30];
	const cJSON *row;
	cJSON *rows;

	thirty(1.4, base, new);
	cr_assert_eq(row_of(doc1("X", 1, base, 30, 0), doc1("X", 1, new, 30,
	    0), &rows, &row), COMPARE_REGRESSED);
	cr_assert_str_eq(field_text(row, "verdict"), "regressed");
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(row, "bimodal")));
	cr_assert(strncmp(field_text(row, "why"), "a slow minority", 15) == 0,
	    "%s", field_text(row, "why"));
	cr_assert(field_number(row, "tail_change") > 0.3);
	cJSON_Delete(rows);
}

/*
 * Issue 28's clear regression: +7 % at p 7.6e-5, the interval [1.041,
 * 1.099] across the 5 % threshold. Was `inconclusive: could not see
 * changes below 4.28 %`, exit 0; the estimate is past the threshold:
 * regressed, the change and its interval said.
 */
Test(compare, a_change_past_the_threshold_is_never_a_silent_inconclusive)
{
	double base[] = { 0.956, 0.97045, 0.98216, 0.99104, 0.997, 1.003,
	    1.00904, 1.01816, 1.03045, 1.04603 };
	double new[] = { 1.11925, 1.10259, 1.08943, 1.07967, 1.07321, 1.06679,
	    1.06041, 1.05091, 1.03838, 1.02292 };
	const cJSON *row;
	cJSON *rows;

	cr_assert_eq(row_of(doc1("X", 1, base, 10, 0), doc1("X", 1, new, 10,
	    0), &rows, &row), COMPARE_REGRESSED);
	cr_assert_str_eq(field_text(row, "verdict"), "regressed");
	cr_assert(fabs(field_number(row, "p") - 7.58e-5) < 1e-6, "p %g",
	    field_number(row, "p"));
	cr_assert(field_number(row, "ratio_lo") < 1.05 &&
	    field_number(row, "ratio") > 1.05);
	cr_assert_str_eq(field_text(row, "why"), "past ±5 %: +7.0 % [+4.1 %, "
	    "+9.9 %]");
	cJSON_Delete(rows);
}

/*
 * p < alpha, the estimate inside the threshold, the interval across it:
 * inconclusive, but saying the change it saw, not "could not see".
 */
Test(compare, a_change_within_or_past_the_threshold_is_said)
{
	double base[] = { 0.956, 0.97045, 0.98216, 0.99104, 0.997, 1.003,
	    1.00904, 1.01816, 1.03045, 1.04603 };
	const cJSON *row;
	cJSON *rows;

	cr_assert_eq(row_of(doc1("X", 1, base, 10, 0), doc1("X", 1.04, base,
	    10, 0), &rows, &row), COMPARE_NO_REGRESSION);
	cr_assert_str_eq(field_text(row, "verdict"), "inconclusive");
	cr_assert(strncmp(field_text(row, "why"), "changed +4.0 %", 14) == 0,
	    "%s", field_text(row, "why"));
	cJSON_Delete(rows);
}

/*
 * The printed "could see" is the verdict's: the change called regressed
 * 80 % of the time at the cell's level, which needs p below the level and
 * the estimate past the threshold. With runs spread 1 %, the rank test
 * alone sees 1.4 % at 10 runs a side (what was printed); the verdict
 * cannot call less than the threshold: past 5 %, by about the spread.
 */
Test(compare, could_see_is_the_verdicts)
{
	double a[10];
	const cJSON *row;
	cJSON *rows;
	double sees;
	int i;

	for (i = 0; i < 10; i++)
		a[i] = 1 + 0.01 * stats_norm_quantile((i + 0.5) / 10);
	row_of(doc1("X", 1, a, 10, 0), doc1("X", 1.001, a, 10, 0), &rows,
	    &row);
	sees = field_number(row, "smallest_detectable");
	cr_assert(sees > 0.05 && sees < 0.05 + 0.02, "%g", sees);
	cJSON_Delete(rows);
}

/*
 * Every NEW run failed, in a one-cell file: was exit 2, "--metric ...:
 * no matched cell has it", a usage error to a CI script. It is broken.
 */
Test(compare, every_new_run_failed_is_broken)
{
	const cJSON *row;
	cJSON *rows;

	cr_assert_eq(row_of(doc1("X", 1, noisy, 8, 0), doc1("X", 1, noisy, 0,
	    8), &rows, &row), COMPARE_REGRESSED);
	cr_assert_str_eq(field_text(row, "verdict"), "broken");
	cJSON_Delete(rows);
}

/* A run of d's one cell with this status, and its figure if any. */
static void
status_add(cJSON *d, const char *status, double value)
{

	run_add(d, status, "no dispatch in the window", value);
	return;
}

/*
 * A stalled window is not a run: kept out of the statistics; stalls NEW
 * has and BASE lacks make the cell broken, stalls both share do not.
 */
Test(compare, stalls_new_has_alone_are_broken)
{
	cJSON *base = doc1("X", 1, noisy, 8, 0), *new = doc1("X", 1, noisy, 8,
	    0), *rows;
	const cJSON *row;

	status_add(new, "stalled", 3494);
	cr_assert_eq(row_of(base, new, &rows, &row), COMPARE_REGRESSED);
	cr_assert_str_eq(field_text(row, "verdict"), "broken");
	cr_assert_eq(field_number(cJSON_GetObjectItem(row, "new_runs"),
	    "stalled"), 1);
	cJSON_Delete(rows);
	base = doc1("X", 1, noisy, 8, 0);
	new = doc1("X", 1, noisy, 8, 0);
	status_add(base, "stalled", NAN);
	status_add(new, "stalled", 3494);
	cr_assert_eq(row_of(base, new, &rows, &row), COMPARE_NO_REGRESSION);
	cr_assert_str_eq(field_text(row, "verdict"), "equivalent");
	cr_assert_eq(field_number(row, "runs_new"), 8, "the stall is no run");
	cJSON_Delete(rows);
}

/* Cells 2, 8 and 64 workers of noisy runs; NEW has only those < `upto`. */
static cJSON *
cells_upto(int upto, bool complete)
{
	static const int w[] = { 2, 8, 64 };
	cJSON *d = doc("X");
	int i;

	for (i = 0; i < 3; i++)
		cJSON_AddItemToArray(cJSON_GetObjectItem(d, "cells"), cell(w[i],
		    "cpu_us_per_dispatch", 1, noisy, w[i] < upto ? 8 : 0, 0));
	cJSON_AddBoolToObject(d, "complete", complete);
	return d;
}

/* The verdicts of rows, in order, joined by spaces. */
static void
verdicts(const cJSON *rows, char *buf, size_t len)
{
	const cJSON *row;
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(row, rows)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ?
		    " " : "", field_text(row, "verdict"));
	return;
}

/*
 * Cells NEW lacks, and an interrupted NEW whose cells have no runs: was
 * "no regression", exit 0. Each cell is named undecided: exit 3.
 */
Test(compare, missing_and_untested_cells_are_undecided)
{
	struct compare_opts o;
	char err[256], v[256];
	cJSON *rows, *new = doc("X");

	compare_defaults(&o);
	cJSON_AddItemToArray(cJSON_GetObjectItem(new, "cells"), cell(2,
	    "cpu_us_per_dispatch", 1, noisy, 8, 0));
	cr_assert_eq(compare(cells_upto(100, true), new, &o, &rows, err,
	    sizeof(err)), COMPARE_UNDECIDED, "%s", err);
	verdicts(rows, v, sizeof(v));
	cr_assert_str_eq(v, "equivalent undecided undecided");
	cr_assert_str_eq(field_text(cJSON_GetArrayItem(rows, 1), "why"),
	    "NEW has no such cell");
	cJSON_Delete(rows);
	cr_assert_eq(compare(cells_upto(100, true), cells_upto(4, false), &o,
	    &rows, err, sizeof(err)), COMPARE_UNDECIDED, "%s", err);
	verdicts(rows, v, sizeof(v));
	cr_assert_str_eq(v, "equivalent undecided undecided");
	cJSON_Delete(rows);
	/* An interrupted file whose cells all finished: still no answer. */
	cr_assert_eq(compare(cells_upto(100, true), cells_upto(100, false), &o,
	    &rows, err, sizeof(err)), COMPARE_UNDECIDED, "%s", err);
	cJSON_Delete(rows);
}

/* An ok run without the figure: was dropped, "8/8" ok; now named. */
Test(compare, an_ok_run_without_the_figure_is_undecided)
{
	cJSON *new = doc1("X", 1, noisy, 7, 0), *rows;
	const cJSON *row;

	status_add(new, "ok", NAN);
	cr_assert_eq(row_of(doc1("X", 1, noisy, 8, 0), new, &rows, &row),
	    COMPARE_UNDECIDED);
	cr_assert_str_eq(field_text(row, "verdict"), "undecided");
	cr_assert_str_eq(field_text(row, "why"), "NEW: 1 ok run without "
	    "cpu_us_per_dispatch");
	cr_assert_eq(field_number(row, "runs_new"), 7);
	cr_assert_eq(field_number(cJSON_GetObjectItem(row, "new_runs"),
	    "without_figure"), 1);
	cJSON_Delete(rows);
}

/* A NEW of all-zero costs was `improved`: a cost of 0 cannot be. */
Test(compare, a_cost_of_zero_is_refused)
{
	static const double zero[8] = { 0 };
	struct compare_opts o;
	char err[512];
	cJSON *rows;

	compare_defaults(&o);
	cr_assert_eq(compare(doc1("X", 1, noisy, 8, 0), doc1("X", 1, zero, 8,
	    0), &o, &rows, err, sizeof(err)), COMPARE_BAD_INPUT);
	cr_assert(strstr(err, "cpu_us_per_dispatch is 0, and it cannot be 0 "
	    "or below") != NULL, "%s", err);
	cr_assert_null(strchr(err, '\n'));
}

/*
 * Issue 28's two regimes: each arm 5 runs near 1.0 and 5 near 2.0, NEW
 * exactly 10 % slower in both. Was `inconclusive` at p 0.0666; the
 * within-regime rank sum sees it: p 3.2e-5, regressed, "within regimes".
 */
Test(compare, a_shift_inside_both_regimes_regresses)
{
	double base[] = { 1.00, 1.01, 1.02, 0.99, 0.98, 2.00, 2.02, 1.98,
	    2.01, 1.99 };
	const cJSON *row;
	cJSON *rows;

	cr_assert_eq(row_of(doc1("X", 1, base, 10, 0), doc1("X", 1.1, base,
	    10, 0), &rows, &row), COMPARE_REGRESSED);
	cr_assert_str_eq(field_text(row, "verdict"), "regressed");
	cr_assert(fabs(field_number(row, "p") - 3.2475e-5) < 1e-8, "p %g",
	    field_number(row, "p"));
	cr_assert(fabs(field_number(row, "within_regimes") - 1.1) < 1e-9);
	cr_assert_str_eq(field_text(row, "why"), "within regimes +10.0 %");
	cJSON_Delete(rows);
}

/* `dispatchbench ARGS`: the exit status, stdout and stderr in out. */
static int
cli(const char *args, char *out, size_t len)
{
	char cmd[2048];
	size_t n;
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", DB_BINARY, args);
	cr_assert_not_null(p = popen(cmd, "r"));
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Exit 3 for a missing cell; 0 with --accept-undecided. */
Test(compare, undecided_exits_3_unless_accepted)
{
	static char out[1 << 16];
	char args[1024];
	const char *base = doc_file(cells_upto(100, true), "base.json");
	const char *new = doc_file(cells_upto(4, true), "new.json");

	snprintf(args, sizeof(args), "compare %s %s", base, new);
	cr_assert_eq(cli(args, out, sizeof(out)), 3, "%s", out);
	cr_assert(strstr(out, "UNDECIDED w=8: ") != NULL, "%s", out);
	cr_assert(strstr(out, "no regression") == NULL, "%s", out);
	snprintf(args, sizeof(args), "compare %s %s --accept-undecided", base,
	    new);
	cr_assert_eq(cli(args, out, sizeof(out)), 0, "%s", out);
}

/*
 * An interrupted run, or a file a sweep did not finish, leaves its cell
 * with no answer on either side: BASE's as much as NEW's. Beside a NEW
 * alike (equivalent had BASE been whole), `compare` exits 3, counts the
 * run as interrupted and never as failed, and says which side it was.
 */
Test(compare, base_interrupted_is_undecided_as_new_is)
{
	static char out[1 << 16];
	cJSON *base = doc1("X", 1, noisy, 8, 0), *new = doc1("X", 1, noisy, 8,
	    0), *rows;
	const cJSON *row, *arm;
	char args[1024];
	int side;

	for (side = 0; side < 2; side++) {
		run_add(side == 0 ? base : new, "interrupted", "SIGINT", NAN);
		cr_assert_eq(compare_cli(base, new, &rows), 3);
		row = cJSON_GetArrayItem(rows, 0);
		cr_assert_str_eq(field_text(row, "verdict"), "undecided");
		cr_assert_str_eq(field_text(row, "why"), side == 0 ?
		    "interrupted: 1 of BASE's runs and 0 of NEW's" :
		    "interrupted: 0 of BASE's runs and 1 of NEW's");
		arm = cJSON_GetObjectItem(row, side == 0 ? "base_runs" :
		    "new_runs");
		cr_assert_eq(field_number(arm, "interrupted"), 1);
		cr_assert_eq(field_number(arm, "failed"), 0);
		cr_assert_eq(field_number(arm, "ok"), 8);
		cJSON_Delete(rows);
		base = doc1("X", 1, noisy, 8, 0);
		new = doc1("X", 1, noisy, 8, 0);
	}
	cJSON_Delete(base);
	cJSON_Delete(new);
	/* BASE's file not complete, every cell of it finished: no answer. */
	snprintf(args, sizeof(args), "compare %s %s", doc_file(cells_upto(100,
	    false), "base.json"), doc_file(cells_upto(100, true), "new.json"));
	cr_assert_eq(cli(args, out, sizeof(out)), 3, "%s", out);
	cr_assert(strstr(out, "UNDECIDED: BASE is not complete (BASE's): a "
	    "sweep that did not finish\n") != NULL, "%s", out);
}

/*
 * `ab --reps 3` over 6 cells: no cell's p can pass Holm's 0.05 / 6 (the
 * smallest p of 3 a side is 0.1), so it is refused before the first run,
 * naming the fewest runs that can answer: 5 (2/252 = 0.0079). Was: 31 s
 * of runs, then "no regression", exit 0.
 */
Test(compare, ab_refuses_a_campaign_that_cannot_answer, .timeout = 120)
{
	static char out[1 << 16];
	char args[1024];

	snprintf(args, sizeof(args), "ab --a %s --b %s --dispatcher "
	    "shared,limited,eventloop --workers 2,8 --reps 3 --warmup 0 --time "
	    "0.01 --out %s", DB_BINARY, DB_BINARY, tmp("ab.json"));
	cr_assert_eq(cli(args, out, sizeof(out)), 2, "%s", out);
	cr_assert_str_eq(out, "dispatchbench: --reps 3: no p of 3 runs a side "
	    "can go below 0.0083 (alpha 0.05 over 6 cells, Holm): give --reps "
	    "5 or more, or --budget\n");
	cr_assert_eq(compare_min_runs(0.05 / 6), 5);
	cr_assert_eq(compare_min_runs(0.05 / 7), 6);
}

/* Marks the first k runs of d's one cell as run beside other load. */
static void
busy_mark(cJSON *d, int k)
{
	cJSON *run;

	cJSON_ArrayForEach(run, cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(d, "cells"), 0), "runs"))
		cJSON_AddBoolToObject(run, "host_busy", k-- > 0);
	return;
}

/*
 * A busy machine moves a figure (8 CPU hogs took shared w=8 from 0.25 to
 * 0.06-0.13 us): NEW run beside other load, BASE alone, is no evidence
 * either way, and undecided; both sides as busy (interleaved) is judged,
 * and so is a side whose build did not record the mark.
 */
Test(compare, sides_run_apart_on_a_busy_machine_are_undecided)
{
	cJSON *base = doc1("X", 1, noisy, 8, 0), *new = doc1("X", 0.5, noisy,
	    8, 0), *rows;
	const cJSON *row;

	busy_mark(new, 8);
	busy_mark(base, 1);
	cr_assert_eq(row_of(base, new, &rows, &row), COMPARE_UNDECIDED);
	cr_assert_str_eq(field_text(row, "verdict"), "undecided");
	cr_assert(strstr(field_text(row, "why"), "busy in 1 of BASE's 8 runs "
	    "and 8 of NEW's 8") != NULL, "%s", field_text(row, "why"));
	cr_assert_eq(field_number(cJSON_GetObjectItem(row, "new_runs"),
	    "host_busy"), 8);
	cJSON_Delete(rows);
	base = doc1("X", 1, noisy, 8, 0);
	new = doc1("X", 0.5, noisy, 8, 0);
	busy_mark(new, 5);
	busy_mark(base, 4);
	cr_assert_eq(row_of(base, new, &rows, &row), COMPARE_NO_REGRESSION);
	cr_assert_str_eq(field_text(row, "verdict"), "improved");
	cJSON_Delete(rows);
	/* BASE from a build that predates the mark says neither way. */
	base = doc1("X", 1, noisy, 8, 0);
	new = doc1("X", 0.5, noisy, 8, 0);
	busy_mark(new, 8);
	cr_assert_eq(row_of(base, new, &rows, &row), COMPARE_NO_REGRESSION);
	cr_assert_str_eq(field_text(row, "verdict"), "improved");
	cJSON_Delete(rows);
}

/* compare_docs's text for people into out, and the exit. Takes a, b. */
static int
compare_text(cJSON *a, cJSON *b, const struct compare_opts *o, char *out,
    size_t len)
{
	FILE *f = fmemopen(out, len, "w");
	char err[256];
	int rc;

	rc = compare_docs(a, b, o, f, err, sizeof(err));
	fclose(f);
	cr_assert_neq(rc, COMPARE_BAD_INPUT, "%s", err);
	cJSON_Delete(a);
	cJSON_Delete(b);
	return rc;
}

/*
 * Each ok run of d's one cell with a bare loop of ns, scaled as noisy,
 * each failed one of failed_ns: the core's speed at the run.
 */
static cJSON *
with_bare(cJSON *d, double ns, double failed_ns)
{
	const cJSON *run;
	int i = 0;

	cJSON_ArrayForEach(run, cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(d, "cells"), 0), "runs"))
		cJSON_AddNumberToObject((cJSON *)run,
		    "bare_loop_us_per_dispatch", (strcmp(cJSON_GetObjectItem(
		    run, "status")->valuestring, "ok") == 0 ? ns * noisy[i++ %
		    8] : failed_ns) / 1e3);
	return d;
}

/*
 * One machine whose core ran 1.6 times slower in NEW's sitting than in
 * BASE's, which its once-a-sitting probes can miss, is another machine:
 * refused, unless --allow-other-machine, which says it above the rows.
 * Nor is a move under the threshold, a file without the runs' bare loop,
 * one whose failed runs alone ran slow (the runs history reads too; the
 * cell is broken), or ab's arms (one machine by design) refused.
 */
Test(compare, a_core_at_another_speed_is_another_machine)
{
	struct compare_opts o;
	char err[512], out[4096];
	cJSON *rows;

	compare_defaults(&o);
	cr_assert_eq(compare(with_bare(doc1("X", 1, noisy, 8, 0), 1.8, 0),
	    with_bare(doc1("X", 1, noisy, 8, 0), 2.9, 0), &o, &rows, err,
	    sizeof(err)), COMPARE_BAD_INPUT);
	cr_assert_str_eq(err, "the files' cores ran at different speeds (the "
	    "bare loop each run measures before its window took 1.81 ns a "
	    "dispatch in BASE and 2.91 in NEW, medians of 8 and 8 runs: +61 % "
	    "[+56, +66] at p 0.00016, past ±5 %); pass --allow-other-machine "
	    "to compare anyway");
	cr_assert_eq(compare(with_bare(doc1("X", 1, noisy, 8, 0), 1.8, 0),
	    with_bare(doc1("X", 1, noisy, 8, 0), 1.8 * 1.04, 0), &o, &rows,
	    err, sizeof(err)), COMPARE_NO_REGRESSION, "%s", err);
	cJSON_Delete(rows);
	cr_assert_eq(compare(with_bare(doc1("X", 1, noisy, 8, 0), 1.8, 0),
	    doc1("X", 1, noisy, 8, 0), &o, &rows, err, sizeof(err)),
	    COMPARE_NO_REGRESSION, "%s", err);
	cJSON_Delete(rows);
	cr_assert_eq(compare(with_bare(doc1("X", 1, noisy, 8, 0), 1.8, 0),
	    with_bare(doc1("X", 1, noisy, 8, 8), 1.8, 2.9), &o, &rows, err,
	    sizeof(err)), COMPARE_REGRESSED, "%s", err);
	cJSON_Delete(rows);
	o.one_machine = o.by_position = true;
	cr_assert_eq(compare(with_bare(doc1("X", 1, noisy, 8, 0), 1.8, 0),
	    with_bare(doc1("X", 1, noisy, 8, 0), 2.9, 0), &o, &rows, err,
	    sizeof(err)), COMPARE_NO_REGRESSION, "%s", err);
	cJSON_Delete(rows);
	compare_defaults(&o);
	o.allow_other_machine = true;
	o.format = TABLE_TEXT;
	compare_text(with_bare(doc1("X", 1, noisy, 8, 0), 1.8, 0), with_bare(
	    doc1("X", 1, noisy, 8, 0), 2.9, 0), &o, out, sizeof(out));
	cr_assert_not_null(strstr(out, "\n  the files' cores ran at different "
	    "speeds (the bare loop each run measures before its window took "
	    "1.81 ns a dispatch in BASE and 2.91 in NEW"), "%s", out);
}

/* How many times needle is in haystack. */
static int
occurrences(const char *haystack, const char *needle)
{
	int n = 0;

	for (; (haystack = strstr(haystack, needle)) != NULL; haystack++)
		n++;
	return n;
}

/*
 * Rows that differ only in their width: each row is named by it alone
 * ("w=8", not the 90 characters of the whole key), and what every row
 * shares is said once, above them. The JSON keeps the whole key.
 */
Test(compare, rows_name_only_what_varies)
{
	static char out[1 << 16];
	static const int w[] = { 2, 8, 64 };
	cJSON *base = doc("X"), *new = doc("X"), *rows;
	struct compare_opts o;
	char err[256], line[32];
	int i;

	for (i = 0; i < 3; i++) {
		cJSON_AddItemToArray(cJSON_GetObjectItem(base, "cells"),
		    cell(w[i], "cpu_us_per_dispatch", 1, noisy, 8, 0));
		cJSON_AddItemToArray(cJSON_GetObjectItem(new, "cells"),
		    cell(w[i], "cpu_us_per_dispatch", 1, noisy, 8, 0));
	}
	compare_defaults(&o);
	compare_text(cJSON_Duplicate(base, 1), cJSON_Duplicate(new, 1), &o,
	    out, sizeof(out));
	cr_assert(strstr(out, "\n  all rows: shared/lfseg c=64 pin=compact "
	    "pool=0 spins=-1 wake=every cap=4096 payload=0 resume\n") != NULL,
	    "%s", out);
	cr_assert_eq(occurrences(out, "c=64"), 1, "%s", out);
	cr_assert_eq(occurrences(out, "shared/lfseg"), 1, "%s", out);
	for (i = 0; i < 3; i++) {
		snprintf(line, sizeof(line), "\nw=%d  ", w[i]);
		cr_assert(strstr(out, line) != NULL, "no row %s in %s", line,
		    out);
	}
	cr_assert_eq(compare(base, new, &o, &rows, err, sizeof(err)),
	    COMPARE_NO_REGRESSION, "%s", err);
	cr_assert_str_eq(field_text(cJSON_GetArrayItem(rows, 1), "cell_shown"),
	    "w=8");
	cr_assert_str_eq(field_text(cJSON_GetArrayItem(rows, 1), "cell"),
	    "shared/lfseg w=8 c=64 pin=compact pool=0 spins=-1 wake=every "
	    "cap=4096 payload=0 resume");
	cJSON_Delete(rows);
}

/* d's one cell ran the queue plugin loaded by spec, of that checksum. */
static cJSON *
plugin_doc(const char *spec, const char *sha256, double scale)
{
	cJSON *d = doc1("X", scale, noisy, 8, 0), *p, *c;

	c = cJSON_GetArrayItem(cJSON_GetObjectItem(d, "cells"), 0);
	cJSON_ReplaceItemInObject(c, "queue", cJSON_CreateString("twolock"));
	cJSON_AddStringToObject(c, "queue_plugin", spec);
	p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "kind", "queue");
	cJSON_AddStringToObject(p, "name", "twolock");
	cJSON_AddStringToObject(p, "spec", spec);
	cJSON_AddStringToObject(p, "path", spec);
	cJSON_AddStringToObject(p, "sha256", sha256);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(cJSON_GetObjectItem(d,
	    "context"), "plugins"), p);
	return d;
}

#define SHA_REST	"0000000000000000000000000000000000000000000000000000"
#define SHA_A		"aaaaaaaaaaaa" SHA_REST
#define SHA_B		"bbbbbbbbbbbb" SHA_REST

/*
 * Two builds of one plugin, both named twolock: the row names each by its
 * file, and the JSON gives each its checksum; one file rebuilt between
 * the two results is told apart by its checksums.
 */
Test(compare, two_plugins_of_one_name_are_named_by_file)
{
	static char out[1 << 16];
	struct compare_opts o;
	const cJSON *row;
	char err[256];
	cJSON *rows;

	compare_defaults(&o);
	compare_text(plugin_doc("old/libtwolock.so", SHA_A, 1),
	    plugin_doc("new/libtwolock.so", SHA_B, 1.5), &o, out, sizeof(out));
	cr_assert(strstr(out, "\nshared/twolock w=8 c=64 pin=compact pool=0 "
	    "spins=-1 wake=every cap=4096 payload=0 resume [BASE "
	    "old/libtwolock.so, NEW new/libtwolock.so]  ") != NULL, "%s", out);
	cr_assert_eq(compare(plugin_doc("old/libtwolock.so", SHA_A, 1),
	    plugin_doc("new/libtwolock.so", SHA_B, 1.5), &o, &rows, err,
	    sizeof(err)), COMPARE_REGRESSED, "%s", err);
	row = cJSON_GetArrayItem(rows, 0);
	cr_assert_str_eq(field_text(row, "plugins"), "BASE old/libtwolock.so, "
	    "NEW new/libtwolock.so");
	cr_assert_str_eq(field_text(cJSON_GetArrayItem(cJSON_GetObjectItem(row,
	    "base_plugins"), 0), "sha256"), SHA_A);
	cr_assert_str_eq(field_text(cJSON_GetArrayItem(cJSON_GetObjectItem(row,
	    "new_plugins"), 0), "spec"), "new/libtwolock.so");
	cr_assert_str_eq(field_text(cJSON_GetArrayItem(cJSON_GetObjectItem(row,
	    "new_plugins"), 0), "sha256"), SHA_B);
	cJSON_Delete(rows);
	compare_text(plugin_doc("lib/libtwolock.so", SHA_A, 1),
	    plugin_doc("lib/libtwolock.so", SHA_B, 1), &o, out, sizeof(out));
	cr_assert(strstr(out, " [lib/libtwolock.so: BASE sha256 aaaaaaaaaaaa, "
	    "NEW bbbbbbbbbbbb]") != NULL, "%s", out);
}

/*
 * The metric by its name, its unit and its better side, the change signed
 * with its interval, and in words the way the metric reads: more CPU is
 * worse, fewer ops per second too.
 */
Test(compare, a_verdict_names_its_metric_unit_and_direction)
{
	static char out[1 << 16];
	struct compare_opts o;
	cJSON *a = doc("X"), *b = doc("X");

	compare_defaults(&o);
	cr_assert_eq(compare_text(doc1("X", 1, noisy, 8, 0), doc1("X", 1.5,
	    noisy, 8, 0), &o, out, sizeof(out)), COMPARE_REGRESSED);
	cr_assert(strstr(out, "compare NEW against BASE: CPU µs per dispatch "
	    "(cpu_us_per_dispatch), lower is better\n") == out, "%s", out);
	cr_assert(strstr(out, "  BASE µs  NEW µs  ") != NULL, "%s", out);
	cr_assert(strstr(out, "  +50.0 % [+") != NULL, "%s", out);
	cr_assert(strstr(out, "  regressed: NEW spends 50 % more CPU per "
	    "dispatch") != NULL, "%s", out);
	o.metric = "ops_per_s";
	cJSON_AddItemToArray(cJSON_GetObjectItem(a, "cells"), cell(8,
	    o.metric, 1000, noisy, 8, 0));
	cJSON_AddItemToArray(cJSON_GetObjectItem(b, "cells"), cell(8,
	    o.metric, 500, noisy, 8, 0));
	cr_assert_eq(compare_text(a, b, &o, out, sizeof(out)),
	    COMPARE_REGRESSED);
	cr_assert(strstr(out, "ops/s (ops_per_s), higher is better\n") != NULL,
	    "%s", out);
	cr_assert(strstr(out, "  -50.0 % [") != NULL, "%s", out);
	cr_assert(strstr(out, "  regressed: NEW does 50 % fewer ops per "
	    "second") != NULL, "%s", out);
}

/*
 * Which p a row prints: adjusted by Holm over the family, said in the
 * header, the column and the JSON; a sequential campaign's, unadjusted
 * and held to its look's level, said so, with that level on the row.
 */
Test(compare, a_p_says_whether_holm_or_a_look_made_it)
{
	static const double alone[6] = { 0.05, 0.05, 0.05, 0.05, 0.05, 0.05 };
	static char out[1 << 16];
	struct compare_opts o;
	char err[256];
	cJSON *rows;

	compare_defaults(&o);
	o.threshold = 0.005;
	compare_text(holm_doc(0), holm_doc(0.04), &o, out, sizeof(out));
	cr_assert(strstr(out, "p: exact rank sum, Holm-adjusted over the 6 "
	    "cells tested") != NULL, "%s", out);
	cr_assert(strstr(out, "  p, Holm over 6  ") != NULL, "%s", out);
	cr_assert_eq(compare(holm_doc(0), holm_doc(0.04), &o, &rows, err,
	    sizeof(err)), COMPARE_NO_REGRESSION);
	cr_assert_str_eq(field_text(cJSON_GetArrayItem(rows, 0), "p_kind"),
	    "Holm-adjusted over 6 cells");
	cJSON_Delete(rows);
	o.levels = alone;
	compare_text(holm_doc(0), holm_doc(0.04), &o, out, sizeof(out));
	cr_assert(strstr(out, "p: exact rank sum, unadjusted, each of 6 cells "
	    "held to its last look's level (sequential)") != NULL, "%s", out);
	cr_assert(strstr(out, "  p, its look  ") != NULL, "%s", out);
	cr_assert(strstr(out, "  0.015 (level 0.05)  ") != NULL, "%s", out);
	cr_assert_eq(compare(holm_doc(0), holm_doc(0.04), &o, &rows, err,
	    sizeof(err)), COMPARE_REGRESSED);
	cr_assert_str_eq(field_text(cJSON_GetArrayItem(rows, 0), "p_kind"),
	    "unadjusted, held to its last look's level 0.05 (sequential)");
	cJSON_Delete(rows);
}

/*
 * ab of two builds of one plugin: the header names each arm by its build
 * and its options, and every row each arm's plugin by its file.
 */
Test(compare, ab_names_each_arm_and_its_plugin_file, .timeout = 120)
{
	static char out[1 << 16];
	char args[2048], copy[256], line[1024];

	snprintf(copy, sizeof(copy), "%s", tmp("other/libtwolock.so"));
	snprintf(args, sizeof(args), "mkdir -p %s && cp %s %s", tmp("other"),
	    DB_PLUGIN_TWOLOCK, copy);
	cr_assert_eq(system(args), 0);
	snprintf(args, sizeof(args), "ab --a '%s --queue %s' --b '%s --queue "
	    "%s' --dispatcher shared --workers 1 --reps 4 --warmup 0 --time "
	    "0.01 --quiet --out %s", DB_BINARY, DB_PLUGIN_TWOLOCK, DB_BINARY,
	    copy, tmp("ab.json"));
	cr_assert_neq(cli(args, out, sizeof(out)), 2, "%s", out);
	snprintf(line, sizeof(line), "\n  BASE: A: %s --queue %s, results %s "
	    "(binary sha256 ", DB_BINARY, DB_PLUGIN_TWOLOCK, tmp("ab-a.json"));
	cr_assert(strstr(out, line) != NULL, "%s", out);
	snprintf(line, sizeof(line), "\n  NEW:  B: %s --queue %s, results %s "
	    "(binary sha256 ", DB_BINARY, copy, tmp("ab-b.json"));
	cr_assert(strstr(out, line) != NULL, "%s", out);
	snprintf(line, sizeof(line), "\nshared/twolock w=1 c=64 pin=compact "
	    "pool=0 spins=-1 wake=every cap=4096 payload=0 resume [BASE %s, "
	    "NEW %s]  ", DB_PLUGIN_TWOLOCK, copy);
	cr_assert(strstr(out, line) != NULL, "%s", out);
}

/* A cell of a design, its queue and its width, as `cell` makes it. */
static cJSON *
cell_of(const char *design, const char *queue, int workers)
{
	cJSON *c = cell(workers, "cpu_us_per_dispatch", 1, noisy, 0, 0);

	cJSON_ReplaceItemInObject(c, "dispatcher", cJSON_CreateString(design));
	cJSON_ReplaceItemInObject(c, "queue", cJSON_CreateString(queue));
	return c;
}

/*
 * Two arms' cells as one label (ab's rows, pair's cell): what differs
 * said once as a->b, a design too ("shared->limited/lfseg", once
 * "shared/lfseg->/lfseg").
 */
Test(compare, two_cells_say_what_differs_once)
{
	static const struct {
		const char *da, *qa, *db, *qb;
		int wa, wb;
		const char *want;
	} cases[] = {
		{ "shared", "lfseg", "shared", "vyukov", 2, 2,
		    "shared/lfseg->vyukov w=2 c=64 " },
		{ "shared", "lfseg", "limited", "lfseg", 2, 2,
		    "shared->limited/lfseg w=2 c=64 " },
		{ "shared", "lfseg", "shared", "lfseg", 2, 8,
		    "shared/lfseg w=2->8 c=64 " },
	};
	char label[600];
	cJSON *a, *b;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		a = cell_of(cases[i].da, cases[i].qa, cases[i].wa);
		b = cell_of(cases[i].db, cases[i].qb, cases[i].wb);
		label_cells(a, b, label, sizeof(label));
		cr_assert(strncmp(label, cases[i].want, strlen(cases[i].want)) ==
		    0, "%s", label);
		cJSON_Delete(a);
		cJSON_Delete(b);
	}
}

/* A probe of a sitting: median [min-max] ns of n timings. */
static void
probe_of(cJSON *ctx, const char *name, double median, double min,
    double max, int n)
{
	cJSON *probes = cJSON_GetObjectItem(ctx, "probes"), *p;

	if (probes == NULL)
		probes = cJSON_AddObjectToObject(ctx, "probes");
	p = cJSON_AddObjectToObject(probes, name);
	cJSON_AddStringToObject(p, "unit", "ns");
	if (n > 0) {
		cJSON_AddNumberToObject(p, "median", median);
		cJSON_AddNumberToObject(p, "min", min);
		cJSON_AddNumberToObject(p, "max", max);
	}
	cJSON_AddNumberToObject(p, "n", n);
	if (n == 0)
		cJSON_AddStringToObject(p, "why", "one PU allowed");
}

/*
 * Two sittings: bare_loop within its spread, atomic with medians far
 * apart and ranges that still overlap, line_round_trip past both ranges,
 * futex_wake with none in B; side b's probes only when both.
 */
static void
probes_two(cJSON *a, cJSON *b)
{

	probe_of(a, "bare_loop", 0.30, 0.28, 0.33, 7);
	probe_of(b, "bare_loop", 0.31, 0.29, 0.34, 7);
	probe_of(a, "atomic", 5.0, 4.9, 9.0, 7);
	probe_of(b, "atomic", 8.0, 7.0, 8.5, 7);
	probe_of(a, "line_round_trip", 61, 58, 70, 7);
	probe_of(b, "line_round_trip", 95, 90, 99, 7);
	probe_of(a, "futex_wake", 9100, 9000, 9900, 7);
	probe_of(b, "futex_wake", 0, 0, 0, 0);
}

/*
 * A probe moved only where the two ranges do not overlap: not for medians
 * far apart within a wide spread, not for ranges that touch, not against
 * a probe with no timings; each moved one named with both medians.
 */
Test(compare, a_probe_moved_only_past_both_ranges)
{
	cJSON *a = cJSON_CreateObject(), *b = cJSON_CreateObject();
	char buf[256];

	probes_two(a, b);
	cr_assert_eq(probes_moved(a, b, buf, sizeof(buf)), 1, "%s", buf);
	cr_assert_str_eq(buf, "line_round_trip 61.0 -> 95.0 ns");
	cr_assert_eq(probes_moved(b, a, buf, sizeof(buf)), 1, "%s", buf);
	cr_assert_str_eq(buf, "line_round_trip 95.0 -> 61.0 ns");
	/* Touching ranges overlap. */
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(cJSON_GetObjectItem(b,
	    "probes"), "line_round_trip"), "min", cJSON_CreateNumber(70));
	cr_assert_eq(probes_moved(a, b, buf, sizeof(buf)), 0, "%s", buf);
	cr_assert_str_eq(buf, "");
	cr_assert_eq(probes_moved(a, cJSON_GetObjectItem(b, "nothing"), buf,
	    sizeof(buf)), 0);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/*
 * compare prints both files' probes side by side after its header, the
 * ratio NEW/BASE and "moved" on the probe past its spread alone; with
 * probes in one file only, in neither, or the same in both (one sitting:
 * ab's arms), it says nothing of them.
 */
Test(compare, compare_prints_the_probes_of_two_files)
{
	static char out[1 << 16];
	struct compare_opts o;
	cJSON *a, *b, *none;
	const char *row;
	char line[256];
	int side;

	compare_defaults(&o);
	a = doc1("X", 1, noisy, 8, 0);
	b = doc1("X", 1, noisy, 8, 0);
	probes_two(cJSON_GetObjectItem(a, "context"), cJSON_GetObjectItem(b,
	    "context"));
	compare_text(a, b, &o, out, sizeof(out));
	cr_assert(strstr(out, "  the machine's probes") > strstr(out,
	    "\n  change: "), "%s", out);
	cr_assert_not_null(row = strstr(out, "    line_round_trip  61.0 "
	    "[58.0-70.0] ns"), "%s", out);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(row, "\n"), row);
	cr_assert(strstr(line, " 95.0 [90.0-99.0] ns ") != NULL &&
	    strstr(line, " 1.56 moved") != NULL, "%s", line);
	cr_assert_not_null(strstr(out, "    bare_loop        0.30 [0.28-0.33] "
	    "ns"), "%s", out);
	cr_assert_not_null(strstr(out, "none: one PU allowed"), "%s", out);
	cr_assert_eq(occurrences(out, " moved\n"), 1, "%s", out);
	for (side = 0; side < 4; side++) {
		a = doc1("X", 1, noisy, 8, 0);
		b = doc1("X", 1, noisy, 8, 0);
		none = cJSON_CreateObject();
		if (side < 2)
			probes_two(cJSON_GetObjectItem(side ? b : a, "context"),
			    none);
		if (side == 3) {
			probes_two(cJSON_GetObjectItem(a, "context"), none);
			cJSON_AddItemToObject(cJSON_GetObjectItem(b, "context"),
			    "probes", cJSON_Duplicate(cJSON_GetObjectItem(
			    cJSON_GetObjectItem(a, "context"), "probes"), true));
		}
		cJSON_Delete(none);
		compare_text(a, b, &o, out, sizeof(out));
		cr_assert_null(strstr(out, "probe"), "%s", out);
	}
}

#define COUNTED	"instructions_per_dispatch"

/*
 * A file of one cell of n counted runs, run i counting v[i] instructions
 * a dispatch with tool (version ver), and, push not NAN, its functions:
 * mutex_push's self instructions a dispatch push, the others fixed.
 */
static cJSON *
counted_doc(const char *cpu, const char *tool, const char *ver,
    const double *v, int n, double push)
{
	cJSON *d = doc(cpu), *c = cell(1, COUNTED, 1, v, n, 0), *run, *f;

	cJSON_ArrayForEach(run, cJSON_GetObjectItem(c, "runs")) {
		cJSON_AddStringToObject(run, "instructions_counter", tool);
		cJSON_AddStringToObject(run, "instructions_counter_version",
		    ver);
		if (isnan(push))
			continue;
		f = cJSON_AddObjectToObject(run, "instructions_by_function");
		cJSON_AddNumberToObject(f, "coro_resume", 50);
		cJSON_AddNumberToObject(f, "mutex_push", push);
		cJSON_AddNumberToObject(f, "mutex_pop", 10);
	}
	cJSON_AddItemToArray(cJSON_GetObjectItem(d, "cells"), c);
	return d;
}

/* n runs, each counting v instructions a dispatch with valgrind 3.19. */
static cJSON *
counted_same(double v, int n)
{
	double runs[8];
	int i;

	for (i = 0; i < n; i++)
		runs[i] = v;
	return counted_doc("X", "callgrind", "valgrind-3.19.0", runs, n, NAN);
}

/*
 * a against b by their counts, --threshold 5 given or not: the exit must
 * be rc, the one row's verdict v and its reason why (NULL: any). The
 * rows; the row into *row. Takes a, b.
 */
static cJSON *
counted_says(cJSON *a, cJSON *b, bool threshold_given, int rc,
    const char *v, const char *why, const cJSON **row)
{
	struct compare_opts o;
	char err[256];
	cJSON *rows;

	compare_defaults(&o);
	o.metric = COUNTED;
	o.threshold_given = threshold_given;
	cr_assert_eq(compare(a, b, &o, &rows, err, sizeof(err)), rc, "%s", err);
	*row = cJSON_GetArrayItem(rows, 0);
	cr_assert_str_eq(field_text(*row, "verdict"), v);
	if (why != NULL)
		cr_assert_str_eq(field_text(*row, "why"), why);
	return rows;
}

/*
 * Issue 43: two sides whose ok runs each count the same instructions are
 * exact, and judged with no test: alike, equivalent with both counts
 * said; three runs a side, where no rank-sum p could pass 0.05, is
 * enough. No p is printed, and the cell is in no family.
 */
Test(compare, exact_counts_alike_are_equivalent)
{
	const cJSON *row;
	cJSON *rows;

	rows = counted_says(counted_same(312, 3), counted_same(312, 3), false,
	    COMPARE_NO_REGRESSION, "equivalent", "same instructions (exact: "
	    "312.0 a dispatch on both)", &row);
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(row, "exact")));
	cr_assert(isnan(field_number_or(row, "p", NAN)));
	cr_assert_eq(field_number(row, "family"), 0);
	cJSON_Delete(rows);
}

/*
 * One instruction more a dispatch on 300 (+0.3 %, far under the default
 * threshold): with every instruction real, regressed and exit 1 when no
 * --threshold was given; with --threshold 5 given, equivalent under it.
 * The command line says which: compare --threshold sets it.
 */
Test(compare, one_instruction_more_is_a_regression_unless_a_threshold_is_given)
{
	static char out[1 << 16];
	char args[1024];
	const char *base, *new;
	const cJSON *row;
	cJSON *rows;

	rows = counted_says(counted_same(300, 3), counted_same(301, 3), false,
	    COMPARE_REGRESSED, "regressed", "+0.3 % instructions (exact: 300.0 "
	    "-> 301.0 a dispatch)", &row);
	cr_assert(fabs(field_number(row, "ratio_hi") - 301.0 / 300) < 1e-12);
	cJSON_Delete(rows);
	cJSON_Delete(counted_says(counted_same(300, 3), counted_same(301, 3),
	    true, COMPARE_NO_REGRESSION, "equivalent", "+0.3 % instructions, "
	    "within ±5 % (exact: 300.0 -> 301.0 a dispatch)", &row));
	base = kept(doc_file(counted_same(300, 3), "base.json"));
	new = kept(doc_file(counted_same(301, 3), "new.json"));
	snprintf(args, sizeof(args), "compare %s %s --metric " COUNTED, base,
	    new);
	cr_assert_eq(cli(args, out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, "regressed: +0.3 % instructions (exact: "
	    "300.0 -> 301.0 a dispatch)"), "%s", out);
	snprintf(args, sizeof(args), "compare %s %s --metric " COUNTED
	    " --threshold 5", base, new);
	cr_assert_eq(cli(args, out, sizeof(out)), 0, "%s", out);
	cr_assert_not_null(strstr(out, "equivalent: +0.3 % instructions, "
	    "within ±5 %"), "%s", out);
}

/*
 * Counts that vary run to run (a contended cell) are no exact side: the
 * runs' test judges them, as a timed figure, and the reason says so and
 * how far they spread.
 */
Test(compare, counts_that_vary_are_judged_as_a_timed_figure)
{
	double base[8], new[8];
	const cJSON *row;
	cJSON *rows;
	int i;

	for (i = 0; i < 8; i++) {
		base[i] = 300 * noisy[i];
		new[i] = 450 * noisy[i];
	}
	rows = counted_says(counted_doc("X", "callgrind", "valgrind-3.19.0",
	    base, 8, NAN), counted_doc("X", "callgrind", "valgrind-3.19.0", new,
	    8, NAN), false, COMPARE_REGRESSED, "regressed", "counts vary run "
	    "to run (spread 7 %): judged as a timed figure", &row);
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(row, "exact")));
	cr_assert_eq(field_number(row, "family"), 1);
	cJSON_Delete(rows);
}

/*
 * A count does not move with a machine's speed: two machines' counts
 * are compared without --allow-other-machine (and the header says they
 * are two). Two counters, or two versions of one, are not one quantity:
 * exit 2, one line.
 */
Test(compare, counts_of_two_machines_yes_of_two_counters_no)
{
	static const double v300[] = { 300, 300, 300 }, v301[] = { 301, 301,
	    301 };
	static char out[1 << 16];
	char args[1024];

	snprintf(args, sizeof(args), "compare %s %s --metric " COUNTED,
	    doc_file(counted_doc("X", "callgrind", "valgrind-3.19.0", v300, 3,
	    NAN), "base.json"), doc_file(counted_doc("Y", "callgrind",
	    "valgrind-3.19.0", v301, 3, NAN), "new.json"));
	cr_assert_eq(cli(args, out, sizeof(out)), 1, "%s", out);
	cr_assert_not_null(strstr(out, "different machines (CPU 'X' against "
	    "'Y'): a count does not move with a machine's speed"), "%s", out);
	snprintf(args, sizeof(args), "compare %s %s --metric " COUNTED,
	    doc_file(counted_doc("X", "callgrind", "valgrind-3.19.0", v300, 3,
	    NAN), "base.json"), doc_file(counted_doc("X", "perf", "6.1.0",
	    v301, 3, NAN), "new.json"));
	cr_assert_eq(cli(args, out, sizeof(out)), 2, "%s", out);
	cr_assert_str_eq(out, "dispatchbench: BASE counted with callgrind "
	    "(valgrind-3.19.0), NEW with perf (6.1.0): not the same "
	    "quantity\n");
	snprintf(args, sizeof(args), "compare %s %s --metric " COUNTED,
	    doc_file(counted_doc("X", "callgrind", "valgrind-3.19.0", v300, 3,
	    NAN), "base.json"), doc_file(counted_doc("X", "callgrind",
	    "valgrind-3.22.0", v300, 3, NAN), "new.json"));
	cr_assert_eq(cli(args, out, sizeof(out)), 2, "%s", out);
	cr_assert_eq(occurrences(out, "\n"), 1, "%s", out);
	cr_assert_not_null(strstr(out, "NEW with callgrind (valgrind-3.22.0)"),
	    "%s", out);
}

/*
 * A count that moved says where: the function whose self instructions a
 * dispatch moved, from each side's run, a line of the text and an entry
 * of the JSON; functions that did not move are not named.
 */
Test(compare, a_count_that_moved_names_the_function)
{
	static const double v312[] = { 312, 312, 312 }, v316[] = { 316, 316,
	    316 };
	static char out[1 << 16];
	const cJSON *row, *fns;
	struct compare_opts o;
	cJSON *rows;

	compare_defaults(&o);
	o.metric = COUNTED;
	compare_text(counted_doc("X", "callgrind", "valgrind-3.19.0", v312, 3,
	    12), counted_doc("X", "callgrind", "valgrind-3.19.0", v316, 3, 16),
	    &o, out, sizeof(out));
	cr_assert_not_null(strstr(out, "where the instructions went"), "%s",
	    out);
	cr_assert_not_null(strstr(out, "\n    mutex_push  +4.00 a dispatch "
	    "(12.00 -> 16.00)\n"), "%s", out);
	cr_assert_null(strstr(out, "mutex_pop"), "%s", out);
	rows = counted_says(counted_doc("X", "callgrind", "valgrind-3.19.0",
	    v312, 3, 12), counted_doc("X", "callgrind", "valgrind-3.19.0", v316,
	    3, 16), false, COMPARE_REGRESSED, "regressed", NULL, &row);
	fns = cJSON_GetObjectItem(row, "instructions_by_function");
	cr_assert_eq(cJSON_GetArraySize(fns), 1);
	cr_assert_str_eq(field_text(cJSON_GetArrayItem(fns, 0), "function"),
	    "mutex_push");
	cr_assert_eq(field_number(cJSON_GetArrayItem(fns, 0), "change"), 4);
	cJSON_Delete(rows);
}

/* Exactness never hides a failure: a NEW run that failed is broken. */
Test(compare, a_failed_run_beside_exact_counts_is_broken)
{
	cJSON *new = counted_same(300, 3), *run = cJSON_CreateObject();
	const cJSON *row;

	cJSON_AddStringToObject(run, "status", "failed");
	cJSON_AddStringToObject(run, "error", "count check: 1 lost");
	cJSON_AddItemToArray(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    cJSON_GetObjectItem(new, "cells"), 0), "runs"), run);
	cJSON_Delete(counted_says(counted_same(300, 3), new, false,
	    COMPARE_REGRESSED, "broken", NULL, &row));
}

/* d with one more cell of noisy runs at workers w, scaled; then failed. */
static cJSON *
cell_add(cJSON *d, int w, double scale, int failed)
{

	cJSON_AddItemToArray(cJSON_GetObjectItem(d, "cells"), cell(w,
	    "cpu_us_per_dispatch", scale, noisy, 8, failed));
	return d;
}

/*
 * Issue 44: a cell twice in a file was matched silently, the first copy
 * winning: BASE with a slow copy first and NEW 30 % slower than the fast
 * one was `equivalent`, exit 0; swapped, `regressed`; twice in NEW, two
 * rows of one label. Refused, exit 2, one line naming the file and the
 * cell. One cell on each of two machines is no duplicate: its key names
 * the machine.
 */
Test(compare, a_cell_twice_in_a_file_is_refused)
{
	static char out[1 << 16];
	struct compare_opts o;
	char err[1024], args[1024], v[256];
	cJSON *rows, *two[2];
	int i;

	compare_defaults(&o);
	for (i = 0; i < 2; i++) {
		cr_assert_eq(compare(cell_add(cell_add(doc("X"), 8, i ? 1 : 1.3,
		    0), 8, i ? 1.3 : 1, 0), doc1("X", 1.3, noisy, 8, 0), &o,
		    &rows, err, sizeof(err)), COMPARE_BAD_INPUT, "%d", i);
		cr_assert(strstr(err, "BASE: the cell shared/lfseg w=8 c=64 ") ==
		    err && strstr(err, " is there twice (cells 1 and 2)") !=
		    NULL && strchr(err, '\n') == NULL, "%s", err);
	}
	snprintf(args, sizeof(args), "compare %s %s", doc_file(doc1("X", 1,
	    noisy, 8, 0), "base.json"), doc_file(cell_add(cell_add(doc("X"), 2,
	    1, 0), 8, 1, 0), "new.json"));
	cr_assert_eq(cli(args, out, sizeof(out)), 0, "%s", out);
	snprintf(args, sizeof(args), "compare %s %s", tmp("base.json"),
	    doc_file(cell_add(cell_add(cell_add(doc("X"), 2, 1, 0), 8, 1, 0),
	    8, 1.5, 0), "new.json"));
	cr_assert_eq(cli(args, out, sizeof(out)), 2, "%s", out);
	cr_assert(strstr(out, "new.json: the cell shared/lfseg w=8 c=64 ") !=
	    NULL && strstr(out, "NEW ") != NULL && strstr(out, " is there "
	    "twice (cells 2 and 3)") != NULL && occurrences(out, "\n") == 1,
	    "%s", out);
	for (i = 0; i < 2; i++) {
		two[i] = cell_add(cell_add(doc("X"), 8, 1, 0), 8, 1, 0);
		cJSON_AddStringToObject(cJSON_GetArrayItem(cJSON_GetObjectItem(
		    two[i], "cells"), 0), "machine", "m1");
		cJSON_AddStringToObject(cJSON_GetArrayItem(cJSON_GetObjectItem(
		    two[i], "cells"), 1), "machine", "m2");
	}
	cr_assert_eq(compare(two[0], two[1], &o, &rows, err, sizeof(err)),
	    COMPARE_NO_REGRESSION, "%s", err);
	verdicts(rows, v, sizeof(v));
	cr_assert_str_eq(v, "equivalent equivalent");
	cJSON_Delete(rows);
}

/* compare's verdicts of a and b into v, joined, and the exit. Takes a, b. */
static int
verdicts_of(cJSON *a, cJSON *b, const struct compare_opts *o, char *v,
    size_t len)
{
	char err[256];
	cJSON *rows;
	int rc;

	rc = compare(a, b, o, &rows, err, sizeof(err));
	cr_assert_neq(rc, COMPARE_BAD_INPUT, "%s", err);
	verdicts(rows, v, len);
	cJSON_Delete(rows);
	return rc;
}

/*
 * Issue 44: a cell only in NEW was dropped without a line. It is listed,
 * `new: only in NEW`, never judged nor in Holm's family, and the summary
 * counts it apart; a NEW run of it that failed makes it `broken` all the
 * same, a verdict that asks nothing of BASE. By position (`ab`), a cell
 * past BASE's last is one too.
 */
Test(compare, a_cell_only_in_new_is_listed)
{
	static char out[1 << 16];
	struct compare_opts o;
	char err[256], v[256];
	const cJSON *row;
	cJSON *rows;

	compare_defaults(&o);
	cr_assert_eq(compare(doc1("X", 1, noisy, 8, 0), cell_add(doc1("X", 1,
	    noisy, 8, 0), 2, 1.5, 0), &o, &rows, err, sizeof(err)),
	    COMPARE_NO_REGRESSION, "%s", err);
	verdicts(rows, v, sizeof(v));
	cr_assert_str_eq(v, "equivalent new");
	row = cJSON_GetArrayItem(rows, 1);
	cr_assert_str_eq(field_text(row, "why"), "only in NEW");
	cr_assert(field_number(row, "runs_new") == 8 && field_number(row,
	    "family") == 1 && cJSON_IsNull(cJSON_GetObjectItem(row, "p")));
	cJSON_Delete(rows);
	cr_assert_eq(verdicts_of(doc1("X", 1, noisy, 8, 0), cell_add(doc1("X",
	    1, noisy, 8, 0), 2, 1, 1), &o, v, sizeof(v)), COMPARE_REGRESSED);
	cr_assert_str_eq(v, "broken equivalent");
	o.by_position = true;
	cr_assert_eq(verdicts_of(doc1("X", 1, noisy, 8, 0), cell_add(doc1("X",
	    1, noisy, 8, 0), 2, 1, 0), &o, v, sizeof(v)), COMPARE_NO_REGRESSION);
	cr_assert_str_eq(v, "equivalent new");
	o.by_position = false;
	compare_text(doc1("X", 1, noisy, 8, 0), cell_add(doc1("X", 1, noisy, 8,
	    0), 2, 1, 0), &o, out, sizeof(out));
	cr_assert(strstr(out, "no BASE cell") != NULL && strstr(out, "new: "
	    "only in NEW\n") != NULL, "%s", out);
	cr_assert(strstr(out, "\n1 cells compared, Holm's correction at alpha "
	    "0.05: no regression; 1 only in NEW, not judged\n") != NULL, "%s",
	    out);
}

/*
 * Issue 44's two regimes moving apart: 20 runs a side at 1.00 +- 1 %,
 * of BASE's slow_base 2x slow, of NEW's slow_new, NEW's fast runs times
 * fast.
 */
static void
apart(double fast, int slow_base, int slow_new, double *base, double *new)
{
	int i;

	for (i = 0; i < 20; i++) {
		base[i] = (0.99 + 0.02 * (double)((i * 7) % 20) / 19) *
		    (i % (20 / slow_base) == 0 ? 2 : 1);
		new[i] = (0.99 + 0.02 * (double)((i * 11) % 20) / 19) *
		    (i % (20 / slow_new) == 0 ? 2 : fast);
	}
	return;
}

/*
 * The fast regime 10 % faster while the slow share goes 4/20 -> 10/20:
 * the mean +21 %, yet `improved ... within regimes -9.7 %`, exit 0; the
 * mirror (10 % slower, 10/20 -> 4/20, the mean -15 %) `regressed`. The
 * parts moved apart: inconclusive, both named with the mean, not a pass.
 */
static void
apart_says(double fast, int slow_base, int slow_new, const char *why)
{
	double base[20], new[20];
	const cJSON *row;
	cJSON *rows;

	apart(fast, slow_base, slow_new, base, new);
	cr_assert_eq(row_of(doc1("X", 1, base, 20, 0), doc1("X", 1, new, 20,
	    0), &rows, &row), COMPARE_UNDECIDED);
	cr_assert_str_eq(field_text(row, "verdict"), "inconclusive");
	cr_assert(field_number(row, "p") < 0.05);
	cr_assert_str_eq(field_text(row, "why"), why);
	cJSON_Delete(rows);
	return;
}

Test(compare, regimes_moving_apart_are_mixed_never_one_part)
{

	apart_says(0.9, 4, 10, "mixed: within regimes -9.7 %, slow share "
	    "4/20 -> 10/20, mean +20.9 %");
	apart_says(1.1, 10, 4, "mixed: within regimes +9.7 %, slow share "
	    "10/20 -> 4/20, mean -14.7 %");
}

/*
 * Two rows that saw a rise and could not place it: +4.8 % [+2.7, +6.9]
 * at p 0.00015 under a 5 % threshold, and half of NEW's runs 2x (+41.5 %,
 * p 0.074). Both ended "no regression", exit 0; the summary names both,
 * and the comparison is not a pass.
 */
Test(compare, no_regression_is_never_said_over_a_rise_not_placed)
{
	static char out[1 << 16];
	double a[10], b[10];
	struct compare_opts o;
	cJSON *base = doc("X"), *new = doc("X");
	int i;

	for (i = 0; i < 10; i++)
		a[i] = 1 + 0.02 * stats_norm_quantile((i + 0.5) / 10);
	for (i = 0; i < 10; i++)
		b[i] = a[(i * 3) % 10] * 1.048;
	cJSON_AddItemToArray(cJSON_GetObjectItem(base, "cells"), cell(2,
	    "cpu_us_per_dispatch", 1, a, 10, 0));
	cJSON_AddItemToArray(cJSON_GetObjectItem(new, "cells"), cell(2,
	    "cpu_us_per_dispatch", 1, b, 10, 0));
	for (i = 0; i < 10; i++)
		b[i] = a[i] * (i % 2 ? 2 : 1);
	cJSON_AddItemToArray(cJSON_GetObjectItem(base, "cells"), cell(8,
	    "cpu_us_per_dispatch", 1, a, 10, 0));
	cJSON_AddItemToArray(cJSON_GetObjectItem(new, "cells"), cell(8,
	    "cpu_us_per_dispatch", 1, b, 10, 0));
	compare_defaults(&o);
	cr_assert_eq(compare_text(base, new, &o, out, sizeof(out)),
	    COMPARE_UNDECIDED, "%s", out);
	cr_assert(strstr(out, "no regression\n") == NULL, "%s", out);
	cr_assert(strstr(out, ": no regression shown; 2 cells changed and "
	    "could not be placed (not a pass): w=2 +4.8 % [+2.7, +6.9]; w=8 ")
	    != NULL, "%s", out);
	/* The row says what moved, too, where no smallest change applies. */
	cr_assert(strstr(out, "inconclusive: slow share 0/10 -> 5/10, within "
	    "regimes ") != NULL, "%s", out);
}

/*
 * Two sweeps of one build whose runs spread past the threshold: every
 * cell inconclusive, nothing seen, "no regression" (exit 0), and the
 * line says how large a change went unseen, from the row that could see
 * the least to the one that could see the most.
 */
Test(compare, no_regression_over_rows_that_saw_nothing_says_what_they_miss)
{
	static char out[1 << 16], mde[2][32];
	double a[7], b[7];
	struct compare_opts o;
	cJSON *base = doc("X"), *new = doc("X"), *rows;
	char err[512];
	int i, w;

	for (w = 1; w <= 2; w++) {
		for (i = 0; i < 7; i++)
			a[i] = 1 + 0.1 * w * stats_norm_quantile((i + 0.5) / 7);
		for (i = 0; i < 7; i++)
			b[i] = a[(i * 3) % 7];
		cJSON_AddItemToArray(cJSON_GetObjectItem(base, "cells"), cell(w,
		    "cpu_us_per_dispatch", 1, a, 7, 0));
		cJSON_AddItemToArray(cJSON_GetObjectItem(new, "cells"), cell(w,
		    "cpu_us_per_dispatch", 1, b, 7, 0));
	}
	compare_defaults(&o);
	cr_assert_eq(compare(cJSON_Duplicate(base, true), cJSON_Duplicate(new,
	    true), &o, &rows, err, sizeof(err)), COMPARE_NO_REGRESSION, "%s",
	    err);
	for (i = 0; i < 2; i++) {
		cr_assert_str_eq(field_text(cJSON_GetArrayItem(rows, i),
		    "verdict"), "inconclusive");
		table_sig3(100 * field_number(cJSON_GetArrayItem(rows, i),
		    "smallest_detectable"), mde[i], sizeof(mde[i]));
	}
	cJSON_Delete(rows);
	cr_assert_eq(compare_text(base, new, &o, out, sizeof(out)),
	    COMPARE_NO_REGRESSION, "%s", out);
	cr_assert(strstr(out, ": no regression; 2 inconclusive: a change below "
	    "what each could see (") != NULL, "%s", out);
	cr_assert(strstr(out, mde[0]) != NULL && strstr(out, mde[1]) != NULL,
	    "%s: %s, %s", out, mde[0], mde[1]);
}

/*
 * A cost of 1e-300 read `improved -100 %`, one of 1e308 "+inf %": no two
 * runs of one figure lie 1e9 times apart. Refused, exit 2, one line
 * naming the cell, the values and their files; a cell 10^6 times slower
 * is still judged.
 */
Test(compare, a_figure_no_run_can_measure_is_refused)
{
	static char out[1 << 16];
	static const double tiny[8] = { 1e-300, 1e-300, 1e-300, 1e-300, 1e-300,
	    1e-300, 1e-300, 1e-300 };
	char args[1024], v[512];
	const char *base = doc_file(doc1("X", 1, noisy, 8, 0), "base.json");
	const char *new = doc_file(doc1("X", 1, tiny, 8, 0), "new.json");

	snprintf(args, sizeof(args), "compare %s %s", base, new);
	cr_assert_eq(cli(args, out, sizeof(out)), 2, "%s", out);
	cr_assert(strstr(out, " w=8 c=64 ") != NULL, "%s", out);
	cr_assert(strstr(out, "cpu_us_per_dispatch runs from 1e-300 (NEW ") !=
	    NULL && strstr(out, "new.json) to 1.04 (BASE ") != NULL, "%s", out);
	cr_assert(strstr(out, "a damaged file\n") != NULL, "%s", out);
	cr_assert_eq(occurrences(out, "\n"), 1, "%s", out);
	cr_assert_eq(verdict(doc1("X", 1, noisy, 8, 0), doc1("X", 1e308, noisy,
	    8, 0), v, sizeof(v)), COMPARE_BAD_INPUT);
	cr_assert(strstr(v, "to 1.04e+308 (NEW)") != NULL, "%s", v);
	cr_assert_eq(verdict(doc1("X", 1, noisy, 8, 0), doc1("X", 1e6, noisy,
	    8, 0), v, sizeof(v)), COMPARE_REGRESSED);
	cr_assert_str_eq(v, "regressed");
}

/*
 * uv beside eventloop, each with four runs on the near placement of the
 * CPUs and four on the far one (a cache line 60 or 370 ns apart), uv
 * twice eventloop's cost on each, both five times dearer far: --beside
 * compares each placement on its own, never a model near against its
 * runtime far.
 */
static cJSON *
placed_cell(const char *design, double near, double far)
{
	static const double line[8][2] = { { 58, 61 }, { 60, 59 }, { 62, 60 },
	    { 61, 63 }, { 365, 375 }, { 372, 368 }, { 380, 371 }, { 369, 377 } };
	cJSON *c = cell(2, "cpu_us_per_dispatch", 1, noisy, 8, 0), *run;
	int i = 0;

	cJSON_ReplaceItemInObject(c, "dispatcher", cJSON_CreateString(design));
	cJSON_ReplaceItemInObject(c, "queue", cJSON_CreateString("-"));

	cJSON_ArrayForEach(run, cJSON_GetObjectItem(c, "runs")) {
		cJSON_ReplaceItemInObject(run, "cpu_us_per_dispatch",
		    cJSON_CreateNumber((i < 4 ? near : far) * noisy[i]));
		cJSON_AddNumberToObject(run, "line_round_trip_ns_before",
		    line[i][0]);
		cJSON_AddNumberToObject(run, "line_round_trip_ns_after",
		    line[i][1]);
		i++;
	}
	return c;
}

Test(compare, beside_compares_each_placement_of_the_cpus_on_its_own)
{
	cJSON *d = doc("AMD EPYC"), *rt, *rows, *r;
	static const char *const want[2] = { ", CPUs near", ", CPUs far" };
	struct compare_opts o;
	char err[256];
	int i = 0;

	rt = cJSON_AddObjectToObject(cJSON_AddObjectToObject(
	    cJSON_GetObjectItem(d, "context"), "runtimes"), "uv");
	cJSON_AddStringToObject(rt, "kind", "dispatcher");
	cJSON_AddStringToObject(rt, "real", "libuv 1.44.2");
	cJSON_AddStringToObject(rt, "beside", "eventloop");
	cJSON_AddItemToArray(cJSON_GetObjectItem(d, "cells"),
	    placed_cell("uv", 0.012, 0.06));
	cJSON_AddItemToArray(cJSON_GetObjectItem(d, "cells"),
	    placed_cell("eventloop", 0.006, 0.03));
	compare_defaults(&o);
	o.beside = true;
	compare(cJSON_Duplicate(d, true), d, &o, &rows, err, sizeof(err));
	cr_assert_not_null(rows, "%s", err);
	cr_assert_eq(cJSON_GetArraySize(rows), 2, "%s", cJSON_Print(rows));
	cJSON_ArrayForEach(r, rows) {
		cr_assert_not_null(strstr(field_text(r, "cell"), want[i]), "%s",
		    field_text(r, "cell"));
		cr_assert_float_eq(field_number(r, "ratio"), 2, 0.1, "%s: %g",
		    field_text(r, "cell"), field_number(r, "ratio"));
		cr_assert_eq(field_number(r, "runs_new"), 4);
		i++;
	}
	cJSON_Delete(rows);
}

/*
 * 16 runs at 1 +- 1 % times scale, those of far_runs (a bit each) probed
 * on the far placement of the CPUs and dearer by far_cost, the others
 * probed near: the host deals each side's runs to its placements.
 */
static cJSON *
dealt_doc(double scale, unsigned int far_runs, double far_cost)
{
	cJSON *d = doc("AMD EPYC"), *c, *run;
	double v[16];
	int i;

	for (i = 0; i < 16; i++)
		v[i] = (0.99 + 0.02 * (double)((i * 7) % 16) / 15) *
		    (far_runs >> i & 1 ? far_cost : 1);
	c = cell(8, "cpu_us_per_dispatch", scale, v, 16, 0);
	i = 0;
	cJSON_ArrayForEach(run, cJSON_GetObjectItem(c, "runs")) {
		cJSON_AddNumberToObject(run, "line_round_trip_ns_before",
		    far_runs >> i & 1 ? 370 + i : 60 + i % 3);
		cJSON_AddNumberToObject(run, "line_round_trip_ns_after",
		    far_runs >> i & 1 ? 375 - i : 61 - i % 3);
		i++;
	}
	cJSON_AddItemToArray(cJSON_GetObjectItem(d, "cells"), c);
	return d;
}

/*
 * One build measured twice while the host ran the CPUs near in 12 of
 * BASE's runs and 4 of NEW's, five times dearer far: the pooled runs'
 * slow share 4/16 -> 12/16 is the host's, and within each placement
 * nothing moved. Judged within placements: equivalent, not regressed.
 */
Test(compare, a_placement_the_host_dealt_is_not_the_builds)
{
	const cJSON *row;
	cJSON *rows;
	int rc;

	rc = row_of(dealt_doc(1, 0xf000, 5), dealt_doc(1, 0xfff0, 5), &rows,
	    &row);
	cr_assert_str_eq(field_text(row, "verdict"), "equivalent", "%s",
	    field_text(row, "verdict_text"));
	cr_assert_eq(rc, COMPARE_NO_REGRESSION);
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(row, "placed")));
	cr_assert_eq(field_number(row, "far_base"), 4);
	cr_assert_eq(field_number(row, "far_new"), 12);
	cr_assert_eq(field_number(row, "near_new"), 4);
	cJSON_Delete(rows);
	/* One far run against fifteen: the worse tail is the host's too. */
	row_of(dealt_doc(1, 0x0001, 5), dealt_doc(1, 0xfffe, 5), &rows, &row);
	cr_assert_str_eq(field_text(row, "verdict"), "equivalent", "%s",
	    field_text(row, "why"));
	cJSON_Delete(rows);
}

/*
 * NEW 20 % dearer on each placement, but the host ran it near in 12 runs
 * where BASE ran near in 4: the pooled median fell by two thirds. Within
 * placements it regressed, by 20 %.
 */
Test(compare, a_change_within_each_placement_is_the_verdict)
{
	struct compare_opts o;
	const cJSON *row;
	cJSON *rows;
	char out[4096];

	row_of(dealt_doc(1, 0xfff0, 5), dealt_doc(1.2, 0xf000, 5), &rows,
	    &row);
	cr_assert_str_eq(field_text(row, "verdict"), "regressed");
	cr_assert_float_eq(field_number(row, "ratio"), 1.2, 0.01, "%g",
	    field_number(row, "ratio"));
	cJSON_Delete(rows);
	compare_defaults(&o);
	compare_text(dealt_doc(1, 0xfff0, 5), dealt_doc(1.2, 0xf000, 5), &o,
	    out, sizeof(out));
	cr_assert_not_null(strstr(out, "within placements"), "%s", out);
	cr_assert_not_null(strstr(out, "far 12->4"), "%s", out);
}

/*
 * Two placements that cost the same are one: the pooled test, whose
 * pairs across them are not wasted.
 */
Test(compare, placements_that_moved_nothing_are_pooled)
{
	const cJSON *row;
	cJSON *rows;

	row_of(dealt_doc(1, 0xf000, 1.02), dealt_doc(1, 0xfff0, 1.02), &rows,
	    &row);
	cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(row, "placed")));
	cr_assert_eq(field_number(row, "far_new"), 0);
	cJSON_Delete(rows);
}
