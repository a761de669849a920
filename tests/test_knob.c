/*
 * test_knob.c - a knob added through the parameter table alone. This test
 * builds the table with one entry more (knob.h: --probe, a knob of shared)
 * and checks that everything the table drives takes it: the options and
 * their usage, the sweep's cells, a child's command line, a cell's JSON,
 * key and name, and the keys of a results file that predates the knob.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "cells.h"
#include "params.h"

/* The key of a cell as a results file holds it, with or without probe. */
static void
knob_key(const struct cell *c, bool probe, char *buf, size_t len)
{
	cJSON *json = cli_cell_json(c);

	if (!probe)
		cJSON_DeleteItemFromObject(json, "probe");
	params_key(json, true, buf, len);
	cJSON_Delete(json);
	return;
}

Test(knob, its_usage_names_it)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cli_usage(out, params, nparams);
	fclose(out);
	cr_assert_not_null(strstr(text, "--probe N[,..]"), "%s", text);
	cr_assert_not_null(strstr(text, "a throw-away knob of shared"));
	free(text);
}

Test(knob, a_list_of_it_is_a_dimension_of_its_owner_alone)
{
	struct cell *cells;
	size_t n;

	cells = cells_sweep("--dispatcher shared,stealing --probe 5,7 "
	    "--workers 2", &n, NULL);
	cr_assert_eq(n, 3, "%zu cells", n);
	cr_assert_eq(cells[0].knobs.spins, 5);
	cr_assert_eq(cells[1].knobs.spins, 7);
	cr_assert_str_eq(cells[2].disp->name, "stealing");
	free(cells);
}

/* The value after --probe in the command line of args' one cell, or NULL. */
static const char *
knob_arg(const char *args, char buf[][CLI_WORD], char **argv)
{
	struct cell *cells;
	struct sweep *s;
	int argc, i;
	size_t n;

	cells = cells_sweep(args, &n, &s);
	cr_assert_eq(n, 1);
	argc = cli_argv(s, &cells[0], buf, argv);
	free(cells);
	free(s);
	for (i = 0; i + 1 < argc; i++)
		if (strcmp(argv[i], "--probe") == 0)
			return argv[i + 1];
	return NULL;
}

Test(knob, a_child_gets_it_off_its_default)
{
	char buf[CLI_ARGS][CLI_WORD], *argv[CLI_ARGS + 1];
	const char *v;

	cr_assert_null(knob_arg("--dispatcher shared --workers 2", buf, argv));
	v = knob_arg("--dispatcher shared --probe 5 --workers 2", buf, argv);
	cr_assert(v != NULL && strcmp(v, "5") == 0, "--probe %s", v);
}

Test(knob, a_cell_of_its_owner_records_it_and_no_other_does)
{
	struct cell a = cells_one("--dispatcher shared --probe 5 --workers 2");
	struct cell b = cells_one("--dispatcher stealing --probe 5 "
	    "--workers 2");
	cJSON *ja = cli_cell_json(&a), *jb = cli_cell_json(&b);
	char name[256];

	cr_assert_eq(cJSON_GetObjectItem(ja, "probe")->valuedouble, 5);
	cr_assert_null(cJSON_GetObjectItem(jb, "probe"));
	cr_assert_str_eq(params_design(ja, name, sizeof(name)),
	    "shared probe=5");
	cJSON_Delete(ja);
	cJSON_Delete(jb);
}

/*
 * Its key shows it only off its default, so a file written before the
 * knob existed matches the cells of one written after.
 */
Test(knob, an_older_file_still_matches_by_key)
{
	struct cell c = cells_one("--dispatcher shared --workers 2");
	struct cell d = cells_one("--dispatcher shared --probe 5 --workers 2");
	char with[512], without[512];

	knob_key(&c, true, with, sizeof(with));
	knob_key(&c, false, without, sizeof(without));
	cr_assert_str_eq(with, without);
	knob_key(&d, true, with, sizeof(with));
	cr_assert_not_null(strstr(with, " probe=5"), "%s", with);
}
