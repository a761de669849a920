/*
 * test_compare.c - the verdicts of `compare` on results made up here: an
 * A/A stays quiet, a clear shift is regressed or improved, two regimes go
 * to Fisher's test, and files from two machines are refused.
 */
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "compare.h"

static cJSON *
doc(const char *cpu, double scale, const double *v, int n)
{
	cJSON *d = cJSON_CreateObject(), *ctx, *cells, *cell, *runs, *run;
	int i;

	ctx = cJSON_AddObjectToObject(d, "context");
	cJSON_AddNumberToObject(ctx, "schema", 1);
	cJSON_AddStringToObject(ctx, "cpu_model", cpu);
	cJSON_AddStringToObject(ctx, "cpuset", "0-1");
	cJSON_AddStringToObject(ctx, "topology", "2 PUs");
	cells = cJSON_AddArrayToObject(d, "cells");
	cell = cJSON_CreateObject();
	cJSON_AddStringToObject(cell, "dispatcher", "shared");
	cJSON_AddStringToObject(cell, "queue", "lfseg");
	cJSON_AddNumberToObject(cell, "workers", 8);
	cJSON_AddNumberToObject(cell, "coroutines", 64);
	runs = cJSON_AddArrayToObject(cell, "runs");
	for (i = 0; i < n; i++) {
		run = cJSON_CreateObject();
		cJSON_AddStringToObject(run, "status", "ok");
		cJSON_AddNumberToObject(run, "cpu_us_per_dispatch", v[i] * scale);
		cJSON_AddItemToArray(runs, run);
	}
	cJSON_AddItemToArray(cells, cell);
	return d;
}

/* Compares, returns the exit code and the verdict of the one cell. */
static int
verdict(cJSON *a, cJSON *b, bool other, char *out, size_t len)
{
	struct compare_opts o;
	char err[256], buf[8192] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	cJSON *rows;
	int rc;

	compare_defaults(&o);
	o.format = COMPARE_JSON;
	o.allow_other_machine = other;
	rc = compare_docs(a, b, &o, f, err, sizeof(err));
	fclose(f);
	snprintf(out, len, "%s", rc == COMPARE_BAD_INPUT ? err : "?");
	if (rc != COMPARE_BAD_INPUT) {
		rows = cJSON_Parse(buf);
		cr_assert_not_null(rows, "output is not JSON: %s", buf);
		snprintf(out, len, "%s", cJSON_GetObjectItem(cJSON_GetArrayItem(
		    rows, 0), "verdict")->valuestring);
		cJSON_Delete(rows);
	}
	cJSON_Delete(a);
	cJSON_Delete(b);
	return rc;
}

static const double noisy[] = { 1.00, 1.04, 0.97, 1.02, 0.99, 1.01, 1.03, 0.98 };

/* NEW as BASE scaled: the verdict and exit status each scale must give. */
struct shift_case {
	double scale;
	int runs;
	char verdicts[40];	/* the allowed ones, space-separated */
	int rc;
};

static struct shift_case shift_cases[] = {
	{ 1.0, 8, "equivalent inconclusive", COMPARE_NO_REGRESSION },
	{ 1.5, 8, "regressed", COMPARE_REGRESSED },
	{ 0.6, 8, "improved", COMPARE_NO_REGRESSION },
	{ 10, 8, "regressed", COMPARE_REGRESSED },	/* a shift, not regimes */
	{ 3, 1, "inconclusive", COMPARE_NO_REGRESSION },	/* one run a side */
};

ParameterizedTestParameters(compare, shift)
{

	return cr_make_param_array(struct shift_case, shift_cases,
	    sizeof(shift_cases) / sizeof(shift_cases[0]));
}

ParameterizedTest(struct shift_case *c, compare, shift)
{
	char v[256];

	cr_assert_eq(verdict(doc("X", 1, noisy, c->runs), doc("X", c->scale,
	    noisy, c->runs), false, v, sizeof(v)), c->rc, "x%g", c->scale);
	cr_assert_not_null(strstr(c->verdicts, v), "x%g said %s", c->scale, v);
}

/* Each arm has both regimes; NEW lands in the slow one far more often. */
Test(compare, two_regimes_go_to_fisher)
{
	double base[] = { 1.00, 1.01, 1.02, 1.03, 1.04, 1.05, 1.00, 1.02, 1.04,
	    1.01, 5.0, 5.2 };
	double new[] = { 1.00, 1.03, 5.0, 5.1, 5.2, 5.3, 5.4, 5.5, 5.0, 5.2,
	    5.4, 5.1 };
	char v[256];

	cr_assert_eq(verdict(doc("X", 1, base, 12), doc("X", 1, new, 12), false,
	    v, sizeof(v)), COMPARE_REGRESSED);
	cr_assert_str_eq(v, "regressed");
}

Test(compare, another_machine_is_refused)
{
	char v[256];

	cr_assert_eq(verdict(doc("X", 1, noisy, 8), doc("Y", 1, noisy, 8),
	    false, v, sizeof(v)), COMPARE_BAD_INPUT);
	cr_assert_not_null(strstr(v, "different machines"), "%s", v);
	cr_assert_eq(verdict(doc("X", 1, noisy, 8), doc("Y", 1, noisy, 8),
	    true, v, sizeof(v)), COMPARE_NO_REGRESSION);
}
