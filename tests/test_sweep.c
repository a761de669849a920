/*
 * test_sweep.c - a sweep's options expand into the cells a user asked
 * for, in the order the plots read them, and every cell's key names what
 * tells it apart: the key two results files are matched by.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "cells.h"
#include "designs.h"
#include "params.h"
#include "runner.h"

/* name/queue@width for each cell, space-separated: the sweep as a user reads it. */
static void
sweep_text(const struct cell *cells, size_t n, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s@%u",
		    i > 0 ? " " : "", cells[i].disp->name,
		    cells[i].cfg.queue != NULL ? "/" : "",
		    cells[i].cfg.queue != NULL ? cells[i].cfg.queue->name : "",
		    cells[i].cfg.workers);
	return;
}

static void
sweep_expect(const char *args, const char *want)
{
	struct cell *cells;
	char got[4096];
	size_t n;

	cells = cells_sweep(args, &n, NULL);
	sweep_text(cells, n, got, sizeof(got));
	cr_assert_str_eq(got, want, "`run %s`", args);
	free(cells);
}

Test(sweep, default_runs_every_design_once_per_width)
{
	static const unsigned int widths[] = { 1, 2, 4, 8, 16, 32, 64 };
	char want[4096];
	const struct db_disp_ops *d;
	size_t i, k, used;

	for (i = 0, used = 0; i < disp_local_count(); i++) {
		d = disp_at(i);
		if (d->flags & DB_DISP_NO_WIDTH) {
			used += (size_t)snprintf(want + used, sizeof(want) - used,
			    " %s@1", d->name);
			continue;
		}
		for (k = 0; k <= sizeof(widths) / sizeof(widths[0]); k++) {
			if (k == sizeof(widths) / sizeof(widths[0]) &&
			    !(d->flags & DB_DISP_GROWS))
				break;
			used += (size_t)snprintf(want + used, sizeof(want) - used,
			    " %s%s@%u", d->name, (d->flags & DB_DISP_USES_QUEUE) ?
			    "/lfseg" : "", k < sizeof(widths) / sizeof(widths[0]) ?
			    widths[k] : CELL_UNBOUNDED);
		}
	}
	sweep_expect("", want + 1);
}

Test(sweep, widths_innermost_and_a_knob_only_where_it_applies)
{

	sweep_expect("--dispatcher shared,stealing --queue lfseg,vyukov "
	    "--lifo on,off --workers 1,2", "shared/lfseg@1 shared/lfseg@2 "
	    "shared/vyukov@1 shared/vyukov@2 stealing@1 stealing@2 stealing@1 "
	    "stealing@2");
	sweep_expect("--dispatcher inline,eventloop --workers 4,8",
	    "inline@1 eventloop@4 eventloop@8");
}

Test(sweep, no_bound_only_for_a_design_that_grows)
{

	sweep_expect("--dispatcher shared,rendezvous --workers 2,inf",
	    "shared/lfseg@2 rendezvous@2 rendezvous@0");
}

Test(sweep, lists_turn_in_the_order_of_the_table)
{
	static const unsigned int coroutines[] = { 1, 1, 1, 1, 8, 8, 8, 8 };
	static const char *const kinds[] = { "resume", "resume", "request",
	    "request", "resume", "resume", "request", "request" };
	static const unsigned int lifo[] = { DISP_LIFO_ON, DISP_LIFO_ON,
	    DISP_LIFO_OFF, DISP_LIFO_OFF };
	struct cell *cells;
	size_t i, n;

	cells = cells_sweep("--dispatcher eventloop --coroutines 1,8 "
	    "--workload resume,request --workers 1,2", &n, NULL);
	cr_assert_eq(n, 8);
	for (i = 0; i < n; i++) {
		cr_assert_eq(cells[i].coroutines, coroutines[i], "cell %zu", i);
		cr_assert_str_eq(cells[i].profile.kind->name, kinds[i],
		    "cell %zu", i);
		cr_assert_eq(cells[i].cfg.workers, 1 + i % 2, "cell %zu", i);
	}
	free(cells);
	cells = cells_sweep("--dispatcher stealing --lifo on,off "
	    "--workers 1,2", &n, NULL);
	cr_assert_eq(n, 4);
	for (i = 0; i < n; i++)
		cr_assert_eq(cells[i].knobs.lifo, lifo[i], "cell %zu", i);
	free(cells);
}

static void
key_expect(const char *args, bool workers, const char *want)
{
	struct cell c = cells_one(args);
	cJSON *json = cli_cell_json(&c);
	char key[512];

	params_key(json, workers, key, sizeof(key));
	cr_assert_str_eq(key, want, "the key of `%s`", args);
	cJSON_Delete(json);
}

/* The keys of files written before the parameter table read the same. */
Test(keys, name_what_tells_cells_apart)
{

	key_expect("--dispatcher shared --workers 8", true, "shared/lfseg w=8 "
	    "c=64 pin=compact pool=0 spins=-1 wake=every cap=4096 payload=0 "
	    "resume");
	key_expect("--dispatcher shared --workers 8", false, "shared/lfseg "
	    "c=64 pin=compact pool=0 spins=-1 wake=every cap=4096 payload=0 "
	    "resume");
	key_expect("--dispatcher stealing --lifo off --workers 2", true,
	    "stealing w=2 lifo=off searchers=half c=64 pin=compact pool=0 "
	    "spins=-1 wake=every cap=4096 payload=0 resume");
	key_expect("--dispatcher rendezvous --workers inf --workload "
	    "sleep:5:0.25", true, "rendezvous w=inf c=64 pin=compact pool=0 "
	    "spins=-1 wake=every cap=4096 payload=0 sleep:5:0.25");
}

/* A file that predates a design's knob matches the cells at its default. */
Test(keys, a_missing_knob_reads_as_absent)
{
	struct cell c = cells_one("--dispatcher stealing --workers 2");
	cJSON *json = cli_cell_json(&c);
	char key[512];

	cJSON_DeleteItemFromObjectCaseSensitive(json, "lifo");
	cJSON_DeleteItemFromObjectCaseSensitive(json, "searchers");
	params_key(json, true, key, sizeof(key));
	cr_assert_str_eq(key, "stealing w=2 c=64 pin=compact pool=0 spins=-1 "
	    "wake=every cap=4096 payload=0 resume");
	cJSON_Delete(json);
}

/*
 * Over a sweep of every list: no two cells share a key, and two share a
 * key without the width exactly when only the width tells them apart.
 */
Test(keys, every_cell_of_a_sweep_has_its_own)
{
	char (*keys)[512], (*lines)[512];
	struct cell *cells;
	size_t i, j, n;
	cJSON *json;
	bool same;

	cells = cells_sweep("--dispatcher all --queue lfseg,vyukov --lifo "
	    "on,off --searchers half,all --coroutines 1,64 --workload "
	    "resume,request --workers 1,2,inf", &n, NULL);
	keys = calloc(n, sizeof(*keys));
	lines = calloc(n, sizeof(*lines));
	cr_assert(keys != NULL && lines != NULL);
	for (i = 0; i < n; i++) {
		json = cli_cell_json(&cells[i]);
		params_key(json, true, keys[i], sizeof(keys[i]));
		params_key(json, false, lines[i], sizeof(lines[i]));
		cJSON_Delete(json);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			cr_assert(strcmp(keys[i], keys[j]) != 0, "%s", keys[i]);
			same = cells[i].disp == cells[j].disp &&
			    cells[i].cfg.queue == cells[j].cfg.queue &&
			    cells[i].knobs.lifo == cells[j].knobs.lifo &&
			    cells[i].knobs.searchers == cells[j].knobs.searchers &&
			    cells[i].coroutines == cells[j].coroutines &&
			    cells[i].profile.kind == cells[j].profile.kind;
			cr_assert_eq(strcmp(lines[i], lines[j]) == 0, same,
			    "%s / %s", keys[i], keys[j]);
		}
	free(keys);
	free(lines);
	free(cells);
}

/* A child's command line runs the very cell the sweep planned. */
Test(sweep, a_child_runs_the_cell_it_was_given)
{
	char buf[CLI_ARGS][CLI_WORD], *argv[CLI_ARGS + 1], a[512], b[512];
	char args[4096];
	struct cell *cells, c;
	struct sweep *s;
	size_t i, k, n, used;
	cJSON *json;
	int argc;

	cells = cells_sweep("--dispatcher all --queue lfseg,ckring --lifo "
	    "off --workers 1,inf --coroutines 3 --workload request,spin:1:0.5 "
	    "--payload-ns 100 --capacity 64", &n, &s);
	for (i = 0; i < n; i++) {
		argc = cli_argv(s, &cells[i], buf, argv);
		for (k = 2, used = 0; k < (size_t)argc; k++)
			used += (size_t)snprintf(args + used, sizeof(args) - used,
			    "%s%s", k > 2 ? " " : "", argv[k]);
		c = cells_one(args);
		json = cli_cell_json(&cells[i]);
		params_key(json, true, a, sizeof(a));
		cJSON_Delete(json);
		json = cli_cell_json(&c);
		params_key(json, true, b, sizeof(b));
		cJSON_Delete(json);
		cr_assert_str_eq(b, a, "`cell %s`", args);
		cr_assert_eq(c.latency_every, cells[i].latency_every);
	}
	free(cells);
	free(s);
}

/*
 * A split only where it means something: a blocking profile, on a design
 * with a pool of its own (not inline); its key names the view, and a
 * child gets --split.
 */
Test(sweep, a_split_only_for_a_blocking_step_on_a_pool)
{
	char buf[CLI_ARGS][CLI_WORD], *argv[CLI_ARGS + 1], key[512];
	struct cell *cells;
	struct sweep *s;
	size_t n;
	cJSON *json;
	int argc, k;

	sweep_expect("--dispatcher inline,shared --workers 2 --workload "
	    "resume,sleep:1:0.5 --split 0,4", "inline@1 inline@1 shared/lfseg@2 "
	    "shared/lfseg@2 shared/lfseg@2");
	cells = cells_sweep("--dispatcher inline,shared --workers 2 "
	    "--workload resume,sleep:1:0.5 --split 0,4", &n, &s);
	cr_assert_eq(cells[4].split, 4);
	cr_assert(cells[4].profile.kind->block != NULL);
	json = cli_cell_json(&cells[4]);
	cr_assert_eq(cJSON_GetObjectItem(json, "split")->valueint, 4);
	params_key(json, true, key, sizeof(key));
	cr_assert_not_null(strstr(key, " split=4"), "%s", key);
	cJSON_Delete(json);
	json = cli_cell_json(&cells[3]);
	params_key(json, true, key, sizeof(key));
	cr_assert_null(strstr(key, "split"), "%s", key);
	cJSON_Delete(json);
	argc = cli_argv(s, &cells[4], buf, argv);
	for (k = 0; k + 1 < argc && strcmp(argv[k], "--split") != 0; k++)
		;
	cr_assert(k + 1 < argc && strcmp(argv[k + 1], "4") == 0);
	free(cells);
	free(s);
}

/*
 * A real runtime waits and wakes its library's way: a sweep that sets the
 * models' --spins or --wake runs the models and skips it (one line on
 * stderr), rather than run it as if it had taken them.
 */
Test(sweep, real_runtimes_skip_the_models_knobs)
{
	const struct db_disp_ops *d = NULL;
	char args[256], alone[256];
	size_t i;

	for (i = 0; i < disp_count() && d == NULL; i++)
		if (disp_at(i)->real != NULL && disp_at(i)->beside != NULL)
			d = disp_at(i);
	if (d == NULL) {
		cr_log_info("no real runtime in this build");
		return;
	}
	snprintf(args, sizeof(args), "--dispatcher shared,%s --workers 2 "
	    "--spins 8", d->name);
	sweep_expect(args, "shared/lfseg@2");
	snprintf(args, sizeof(args), "--dispatcher shared,%s --workers 2 "
	    "--wake lazy", d->name);
	sweep_expect(args, "shared/lfseg@2");
	snprintf(args, sizeof(args), "--dispatcher %s --workers 2", d->name);
	snprintf(alone, sizeof(alone), "%s@2", d->name);
	sweep_expect(args, alone);
}

/*
 * From the source tree, whose results/ holds the reference files git
 * tracks, a default output goes under build/; from any other folder (the
 * build folder, here tests/) it is that folder's results/.
 */
Test(sweep, a_default_output_never_lands_in_the_source_tree)
{
	char buf[4096];
	struct sweep s;

	cr_assert_eq(chdir(DB_TEST_DATA "/../.."), 0);
	cli_defaults(&s);
	cr_assert_str_eq(s.out, "build/results/sweep.json");
	cr_assert_str_eq(cli_out_default("results/advise.json", buf,
	    sizeof(buf)), "build/results/advise.json");
	cr_assert_eq(chdir("tests"), 0);
	cli_defaults(&s);
	cr_assert_str_eq(s.out, "results/sweep.json");
	cr_assert_str_eq(cli_out_default("results/advise.json", buf,
	    sizeof(buf)), "results/advise.json");
}

/*
 * A cell as a results file holds it: runs with these figures, the last
 * of them of this status, the run `starved` starving a coroutine (-1:
 * none).
 */
static cJSON *
stop_cell(const double *v, size_t n, const char *last, int starved)
{
	cJSON *cell = cJSON_CreateObject(), *runs, *run;
	size_t i;

	runs = cJSON_AddArrayToObject(cell, "runs");
	for (i = 0; i < n; i++) {
		run = cJSON_CreateObject();
		cJSON_AddStringToObject(run, "status", i + 1 == n ? last : "ok");
		cJSON_AddNumberToObject(run, "cpu_us_per_dispatch", v[i]);
		cJSON_AddNumberToObject(run, "starved", (int)i == starved);
		cJSON_AddItemToArray(runs, run);
	}
	return cell;
}

static bool
stop_may(const struct sweep *s, const double *v, size_t n, const char *last,
    int starved)
{
	cJSON *cell = stop_cell(v, n, last, starved);
	bool may = runner_may_stop(s, cell);

	cJSON_Delete(cell);
	return may;
}

/*
 * By default a cell may stop after 3 runs, all ok and none starving, once
 * they lie within a factor 1.1 of their median either way; --reps alone
 * keeps every run, --precision with it brings the stop back.
 */
Test(sweep, a_cell_stops_once_its_runs_agree)
{
	static const double agree[] = { 1.0, 1.05, 0.95 },
	    wide[] = { 1.0, 1.2, 0.95 }, low_in[] = { 1.0, 0.91, 1.0 },
	    low_out[] = { 1.0, 0.90, 1.0 },
	    six[] = { 1.0, 1.0, 1.0, 1.0, 1.0, 1.0 };
	char *reps[] = { "--reps", "6" }, *both[] = { "--reps", "6",
	    "--precision", "10" }, err[256];
	struct sweep s;

	cli_defaults(&s);
	cr_assert(stop_may(&s, agree, 3, "ok", -1));
	cr_assert_not(stop_may(&s, agree, 2, "ok", -1), "fewer than 3 runs");
	cr_assert_not(stop_may(&s, wide, 3, "ok", -1), "1.2 is past 1.1");
	/* A factor either way: 1/1.1 is 0.909. */
	cr_assert(stop_may(&s, low_in, 3, "ok", -1));
	cr_assert_not(stop_may(&s, low_out, 3, "ok", -1));
	cr_assert_not(stop_may(&s, agree, 3, "stalled", -1), "a run not ok");
	cr_assert_not(stop_may(&s, agree, 3, "ok", 1), "a run starved");
	cr_assert_not(stop_may(&s, six, 6, "ok", -1), "--reps reached");
	cr_assert_eq(cli_parse(&s, 2, reps, err, sizeof(err)), 0, "%s", err);
	cr_assert_not(stop_may(&s, agree, 3, "ok", -1), "--reps given alone");
	cli_defaults(&s);
	cr_assert_eq(cli_parse(&s, 4, both, err, sizeof(err)), 0, "%s", err);
	cr_assert(stop_may(&s, agree, 3, "ok", -1), "--reps with --precision");
	/* A sweep whose files compare judges at 5 runs a side: not before. */
	s.reps_judged = 5;
	cr_assert_not(stop_may(&s, six, 4, "ok", -1), "4 of the 5 judged");
	cr_assert(stop_may(&s, six, 5, "ok", -1), "the 5 judged");
}
