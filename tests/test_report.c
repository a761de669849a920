/*
 * test_report.c - the HTML report answers in words what a reader asks of
 * a sweep, from a results file made for it: a design whose cost rises
 * with the width and one that stays flat, one that hands over though it
 * steals as seldom as one that keeps its work (said per doubling of the
 * width, with its counters), event loops resuming at home (which never
 * cross a thread) and one resuming from outside (which does), the
 * harness's floor, a cell where a coroutine starved, one whose
 * runs fell into two groups, and runs beside other load or stalled. Then
 * the grid before the long table, the headline figure first, every
 * context field shown, and figures scaled for reading.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <cjson/cJSON.h>

#include "export.h"
#include "report.h"
#include "results.h"
#include "table.h"
#include "tmpdir.h"

/* Six runs around a median of exactly 1: each cell's median is its cost. */
static const double spread[6] = { 0.98, 0.99, 1.0, 1.0, 1.01, 1.02 };

/*
 * A run per mark: '.' ok, 's' ok with a starved coroutine, 'b' ok beside
 * other load (host_busy), 'x' stalled; us[i] its CPU µs per dispatch.
 */
static cJSON *
runs_of(const double *us, const char *marks)
{
	cJSON *runs = cJSON_CreateArray(), *r;
	size_t i;

	for (i = 0; marks[i] != '\0'; i++) {
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "status", marks[i] == 'x' ?
		    "stalled" : "ok");
		cJSON_AddNumberToObject(r, "cpu_us_per_dispatch", us[i]);
		cJSON_AddNumberToObject(r, "bare_loop_us_per_dispatch", 0.0012);
		cJSON_AddNumberToObject(r, "starved", marks[i] == 's');
		cJSON_AddBoolToObject(r, "host_busy", marks[i] == 'b');
		cJSON_AddNumberToObject(r, "rep", (double)i);
		cJSON_AddItemToArray(runs, r);
	}
	return runs;
}

/* A cell of the resume-only workload; from: NULL unless an event loop. */
static void
add_cell(cJSON *cells, const char *design, const char *queue, double workers,
    const char *from, const double *us, const char *marks)
{
	cJSON *c = cJSON_CreateObject(), *runs = runs_of(us, marks);

	cJSON_AddStringToObject(c, "dispatcher", design);
	cJSON_AddStringToObject(c, "queue", queue);
	cJSON_AddNumberToObject(c, "workers", workers);
	if (from != NULL)
		cJSON_AddStringToObject(c, "from", from);
	cJSON_AddNumberToObject(c, "coroutines", 64);
	cJSON_AddStringToObject(c, "workload", "resume");
	cJSON_AddItemToObject(c, "summary", results_summary(runs));
	cJSON_AddItemToObject(c, "runs", runs);
	cJSON_AddItemToArray(cells, c);
	return;
}

/* A cell whose six runs are cost times spread[]. */
static void
add_even(cJSON *cells, const char *design, const char *queue, double workers,
    const char *from, double cost, const char *marks)
{
	double us[6];
	size_t i;

	for (i = 0; i < 6; i++)
		us[i] = cost * spread[i];
	add_cell(cells, design, queue, workers, from, us, marks);
	return;
}

/* Each run of the last cell counts value of field a dispatch. */
static void
count_last(cJSON *cells, const char *field, double value)
{
	cJSON *c = cJSON_GetArrayItem(cells, cJSON_GetArraySize(cells) - 1), *r;

	cJSON_ArrayForEach(r, cJSON_GetObjectItem(c, "runs"))
		cJSON_AddNumberToObject(r, field, value);
	cJSON_ReplaceItemInObject(c, "summary", results_summary(
	    cJSON_GetObjectItem(c, "runs")));
	return;
}

/*
 * A cell of `default`, a queue per worker, whose runs counted steals
 * (and as many injections, and a tenth as many parked threads woken) a
 * dispatch: a resumption kept on its worker; and a context switch in
 * 25000 dispatches.
 */
static void
add_kept(cJSON *cells, double workers, double cost, double steals)
{

	add_even(cells, "default", "-", workers, NULL, cost, "......");
	count_last(cells, "steals_per_dispatch", steals);
	count_last(cells, "injected_per_dispatch", steals);
	count_last(cells, "unparks_per_dispatch", steals / 10);
	count_last(cells, "ctx_switches_per_dispatch", 4e-5);
	return;
}

/*
 * A cell of `limited` over lfseg, kotlinx's limitedParallelism view,
 * which hands each resumption through the view's queue: a steal in
 * 200000 dispatches and no injection, as few as a design that keeps its
 * work, but its context switches and the parked threads it wakes, a
 * dispatch, say otherwise.
 */
static void
add_limited(cJSON *cells, double workers, double cost, double ctx,
    double unparks)
{

	add_even(cells, "limited", "lfseg", workers, NULL, cost, "......");
	count_last(cells, "ctx_switches_per_dispatch", ctx);
	count_last(cells, "unparks_per_dispatch", unparks);
	count_last(cells, "steals_per_dispatch", 5e-6);
	count_last(cells, "injected_per_dispatch", 0);
	return;
}

/*
 * The last cell's runs each probed a cache line before and after (cell_run),
 * at before[i] and after[i] ns: where they fall in two groups, the host ran
 * the CPUs in two placements.
 */
static void
probe_last(cJSON *cells, const double *before, const double *after)
{
	cJSON *c = cJSON_GetArrayItem(cells, cJSON_GetArraySize(cells) - 1), *r;
	size_t i = 0;

	cJSON_ArrayForEach(r, cJSON_GetObjectItem(c, "runs")) {
		cJSON_AddNumberToObject(r, "line_round_trip_ns_before",
		    before[i]);
		cJSON_AddNumberToObject(r, "line_round_trip_ns_after",
		    after[i++]);
	}
	cJSON_ReplaceItemInObject(c, "summary", results_summary(
	    cJSON_GetObjectItem(c, "runs")));
	return;
}

/* A context with every kind of field a machine records. */
static cJSON *
context(void)
{
	cJSON *ctx = cJSON_Parse("{\"date\": \"2026-12-02T08:33:15Z\", "
	    "\"host\": \"vm\", \"cpu_model\": \"Test CPU\", "
	    "\"online_cpus\": 2, "
	    "\"machine\": {\"packages\": 1, \"cores\": 2, \"caches\": "
	    "[{\"name\": \"L1d\", \"count\": 2, \"size_kb\": 48}]}, "
	    "\"runtimes\": {\"uv\": {\"kind\": \"dispatcher\", \"real\": "
	    "\"libuv 1.44.2\", \"beside\": \"eventloop\"}}, "
	    "\"environment\": {}, \"counters\": {\"events\": []}, "
	    "\"plugins\": [], \"command\": [\"dispatchbench\", \"run\"], "
	    "\"note\": \"\", \"schema\": 1}");

	cr_assert_not_null(ctx);
	return ctx;
}

/*
 * The file: inline (the floor); shared/lfseg rising 100× from 1 to 64
 * workers, 2 of its runs at 64 beside other load and 1 stalled; stealing
 * flat within 18 %, a context switch in 25000 dispatches; limited/lfseg
 * at 1, 2, 4 and 16 workers, its steepest step per doubling the first,
 * though the last, of two doublings, rises more; eventloop at home and
 * from outside, and libuv's loops
 * (a real runtime beside eventloop, so a figure that sorts before the
 * headline is drawn); rendezvous with a
 * coroutine starved in 2 of 6 runs at 2 workers; glib-pool's runs at 2
 * workers in two groups, 0.05 and 0.9 µs; omp-tasks' at 2 workers in
 * two placements of the CPUs, a cache line 60 ns apart in three runs
 * (0.3 µs) and 370 ns in two (1.2 µs), one run moved between them;
 * glib-pool's at 1 worker too, at one cost on both.
 */
static cJSON *
crafted(void)
{
	static const double groups[6] = { 0.05, 0.05, 0.05, 0.9, 0.9, 0.9 };
	static const double placed[6] = { 0.3, 0.3, 0.3, 1.2, 1.2, 0.6 };
	static const double before[6] = { 58, 60, 62, 365, 375, 60 };
	static const double after[6] = { 61, 59, 60, 375, 365, 380 };
	cJSON *doc = cJSON_CreateObject(), *cells;

	cJSON_AddItemToObject(doc, "context", context());
	cJSON_AddBoolToObject(doc, "complete", true);
	cells = cJSON_AddArrayToObject(doc, "cells");
	add_even(cells, "inline", "-", 1, NULL, 0.00464, "......");
	add_even(cells, "shared", "lfseg", 1, NULL, 0.05, "......");
	add_even(cells, "shared", "lfseg", 2, NULL, 0.6, "......");
	add_even(cells, "shared", "lfseg", 64, NULL, 5.0, "bb...x");
	add_even(cells, "stealing", "-", 1, NULL, 0.045, "......");
	count_last(cells, "ctx_switches_per_dispatch", 4e-5);
	add_even(cells, "stealing", "-", 2, NULL, 0.040, "......");
	count_last(cells, "ctx_switches_per_dispatch", 4e-5);
	add_even(cells, "stealing", "-", 64, NULL, 0.038, "......");
	count_last(cells, "ctx_switches_per_dispatch", 4e-5);
	add_limited(cells, 1, 0.068, 0.004, 0.002);
	count_last(cells, "slot_stall_ns_per_dispatch", 0);
	add_limited(cells, 2, 0.110, 0.005, 0.004);
	add_limited(cells, 4, 0.130, 0.004, 0.0025);
	add_limited(cells, 16, 0.269, 0.002, 0.001);
	count_last(cells, "slot_stall_ns_per_dispatch", 200);
	add_even(cells, "eventloop", "-", 1, "home", 0.0055, "......");
	add_even(cells, "eventloop", "-", 2, "home", 0.0060, "......");
	add_even(cells, "eventloop", "-", 64, "home", 0.0058, "......");
	add_even(cells, "uv", "-", 1, "home", 0.011, "......");
	add_even(cells, "uv", "-", 2, "home", 0.012, "......");
	add_even(cells, "uv", "-", 64, "home", 0.011, "......");
	add_even(cells, "eventloop", "-", 1, "outside", 0.5, "......");
	add_even(cells, "eventloop", "-", 2, "outside", 0.55, "......");
	add_even(cells, "rendezvous", "-", 1, NULL, 0.03, "......");
	add_even(cells, "rendezvous", "-", 2, NULL, 0.2, "ss....");
	add_even(cells, "glib-pool", "-", 1, NULL, 0.056, "......");
	probe_last(cells, before, after);
	add_cell(cells, "glib-pool", "-", 2, NULL, groups, "......");
	add_cell(cells, "omp-tasks", "-", 2, NULL, placed, "......");
	probe_last(cells, before, after);
	add_kept(cells, 1, 0.020, 2e-7);
	add_kept(cells, 64, 0.025, 3e-6);
	return doc;
}

/* The report of the crafted file, as text. */
static const char *
page(void)
{
	static char html[1 << 20];
	char err[512];
	cJSON *doc = crafted();
	FILE *f;
	size_t n;

	cr_assert_eq(report_write(doc, tmp("report.html"), err, sizeof(err)),
	    0, "%s", err);
	cJSON_Delete(doc);
	cr_assert_not_null(f = fopen(tmp("report.html"), "r"));
	n = fread(html, 1, sizeof(html) - 1, f);
	html[n] = '\0';
	fclose(f);
	return html;
}

/* The opening: from its heading to the grid's, as its own string. */
static const char *
findings(void)
{
	static char text[1 << 16];
	const char *html = page(), *from, *to;

	from = strstr(html, "<h2>What the data says</h2>");
	to = strstr(html, "<table id=\"grid\">");
	cr_assert(from != NULL && to != NULL && from < to, "%.2000s", html);
	snprintf(text, sizeof(text), "%.*s", (int)(to - from), from);
	return text;
}

#define HAS(text, s)	cr_assert_not_null(strstr((text), (s)), \
			    "missing: %s\nin: %s", (s), (text))

/* One item of the findings, <li id="id">, to the next of them. */
static const char *
item(const char *f, const char *id)
{
	static char text[1 << 15];
	char open[64];
	const char *from, *to;

	snprintf(open, sizeof(open), "<li id=\"%s\">", id);
	cr_assert_not_null(from = strstr(f, open), "no %s in %s", open, f);
	to = strstr(from + 1, "<li id=");
	snprintf(text, sizeof(text), "%.*s", (int)(to != NULL ? to - from :
	    (ptrdiff_t)strlen(from)), from);
	return text;
}

/*
 * One line per design that hands over: its figures, where it is the
 * dearest, then its shape, its rise per doubling of the width, and what
 * it does with a resumption.
 */
Test(report, each_design_says_its_cost_at_1_the_cpus_and_the_widest)
{
	const char *f = findings();

	HAS(f, "<li><b>shared/lfseg</b>: 50 ns at 1 worker, 600 ns at 2 "
	    "workers (one per CPU), 5.0 µs at 64 workers; the dearest handoff "
	    "at 2 and 64 workers; rises 100× from 1 to 64 workers (2.2× per "
	    "doubling), most steeply from 1 to 2 (12× per doubling). It hands "
	    "resumptions over, through the lfseg queue its workers "
	    "share.</li>");
	HAS(f, "<li><b>stealing</b>: 45 ns at 1 worker, 40 ns at 2 workers "
	    "(one per CPU), 38 ns at 64 workers; flat from 1 to 64 workers "
	    "(within 18 %). It hands resumptions over: context switches 1 in "
	    "25000 dispatches, 75× fewer than the other designs' "
	    "median.</li>");
	HAS(f, "<li><b>rendezvous</b>: 30 ns at 1 worker, 200 ns at 2 workers "
	    "(one per CPU); rises 6.7× from 1 to 2 workers. It hands "
	    "resumptions over.</li>");
	cr_assert_null(strstr(f, "1 workers"), "%s", f);
	cr_assert_null(strstr(f, "regime"), "%s", f);
}

/*
 * limited hands each resumption through its view's queue: it steals and
 * injects as seldom as a design that keeps its work on its worker, so it
 * is said from its context switches and the parked threads it wakes,
 * apart, as a handoff; its rise is said per doubling of the width, and
 * its steepest step is the first (1.6× a doubling), not the last, 4 to
 * 16 workers, whose 2.1× spans two doublings. Three quarters of its CPU
 * at 16 workers spun on a slot a preempted thread owed, and it says so.
 */
Test(report, a_design_that_hands_over_says_so_per_doubling_and_why)
{
	const char *f = findings();

	HAS(item(f, "cost"), "<li><b>limited/lfseg</b>: 68 ns at 1 worker, "
	    "110 ns at 2 workers (one per CPU), 269 ns at 16 workers; rises "
	    "4.0× from 1 to 16 workers (1.4× per doubling), most steeply from "
	    "1 to 2 (1.6× per doubling). It hands resumptions over, through "
	    "the lfseg queue its workers share: context switches 1 in 200–500 "
	    "dispatches, 100× the other designs' median; 0 % of its CPU at 1 "
	    "worker and 74 % at 16 workers spun on a slot that a thread off "
	    "its CPU owed a store (the scheduler's turn, not the queue's "
	    "work); parked threads woken 1 in 250–1000 dispatches; steals 1 in "
	    "200000 dispatches; no injections.</li>");
	cr_assert_null(strstr(item(f, "kept"), "limited"), "%s", f);
	cr_assert_null(strstr(f, "from 4 to 16"), "%s", f);
}

/*
 * An event loop resuming a coroutine from its own loop never crosses a
 * thread, and is said to, each loop in its own words; from outside it
 * hands over like any design.
 */
Test(report, event_loops_resuming_at_home_never_cross_a_thread)
{
	const char *f = findings();

	HAS(f, "<li id=\"local\"><b>eventloop</b> and <b>uv</b> never hand a "
	    "resumption to another thread in this workload: their threads are "
	    "event loops, and a coroutine resumed from its own loop "
	    "(from=home) runs there, in place, with no handoff's cost:\n<ul>\n"
	    "<li><b>eventloop</b>: 5.5 ns at 1 worker, 6.0 ns at 2 workers "
	    "(one per CPU), 5.8 ns at 64 workers; flat from 1 to 64 workers "
	    "(within 9 %). It runs each resumption in place, on the "
	    "coroutine's own loop.</li>\n<li><b>uv</b>: 11 ns at 1 worker");
	HAS(item(f, "cost"), "<li><b>eventloop-execute</b>: 500 ns at 1 "
	    "worker, 550 ns at 2 workers (one per CPU); the dearest handoff at "
	    "1 worker; flat from 1 to 2 workers (within 10 %).");
	cr_assert_null(strstr(item(f, "cost"), "<li><b>eventloop</b>"), "%s",
	    f);
	cr_assert_null(strstr(item(f, "cost"), "<li><b>uv</b>"), "%s", f);
}

/*
 * A design whose resumptions stay on their worker's own queue (steals,
 * injections and unparks counted, 6.3 in a million dispatches at most) is
 * said to, in its own words, not ranked.
 */
Test(report, a_design_that_keeps_its_work_local_is_said_to)
{
	const char *f = findings();

	HAS(f, "<li id=\"kept\"><b>default</b> keeps each resumption on the "
	    "worker that made it, in that worker's own queue, with no "
	    "handoff's cost in this workload: another thread took one, one "
	    "came from outside or a parked thread was woken for one in at "
	    "most 1 of 100000 dispatches (steals, injections and unparks, "
	    "counted):\n<ul>\n<li><b>default</b>: 20 ns at 1 worker, 25 ns at "
	    "64 workers; rises 1.2× from 1 to 64 workers (1.04× per "
	    "doubling). It keeps each resumption on the worker that made it: "
	    "context switches 1 in 25000 dispatches, 50× fewer than the other "
	    "designs' median; parked threads woken under 1 in a million "
	    "dispatches; steals at most 1 in 330000 dispatches; injections at "
	    "most 1 in 330000 dispatches.</li>\n</ul></li>");
	cr_assert_null(strstr(item(f, "cost"), "<li><b>default</b>"), "%s", f);
}

/* inline and the bare loop are the floor: named, and never the cheapest. */
Test(report, the_floor_is_named_and_never_ranked)
{
	const char *f = findings();

	HAS(f, "<li id=\"floor\">The harness floor: <b>inline</b> runs each "
	    "resumption on the thread that makes it, 4.6 ns a dispatch; the "
	    "bare loop, a dispatch with none of the harness in it, 1.2 ns. A "
	    "control, not a design: it is never ranked, and every figure above "
	    "includes it.</li>");
	HAS(f, "<li id=\"cheapest\">The cheapest handoff at each width, the "
	    "floor and the designs that do not hand over aside: 1 worker, "
	    "<b>rendezvous</b> 30 ns; 2 workers, <b>stealing</b> 40 ns; 4 "
	    "workers, <b>limited/lfseg</b> 130 ns; 16 workers, "
	    "<b>limited/lfseg</b> 269 ns; 64 workers, <b>stealing</b> 38 "
	    "ns.</li>");
	cr_assert_null(strstr(strstr(f, "<li id=\"cost\">"), "<b>inline</b>: "),
	    "%s", f);
}

/* Starved, two groups, busy and stalled: each cell named with its runs. */
Test(report, starved_split_busy_and_stalled_cells_are_named)
{
	const char *f = findings();

	HAS(f, "<li id=\"starved\">A coroutine starved (made no progress over "
	    "a whole window) in <b>rendezvous</b> at 2 workers (2 of 6 "
	    "runs).</li>");
	HAS(f, "<li class=\"groups\"><b>glib-pool</b> at 2 workers: runs fell "
	    "into two groups, 50 and 900 ns (3 of 6 runs in the slower); the "
	    "median hides both.</li>");
	HAS(f, "<li class=\"groups\"><b>omp-tasks</b> at 2 workers: the host "
	    "ran the CPUs in two placements, a cache line 60 ns apart in 3 runs "
	    "(300 ns) and 370 ns apart in 2 runs (1.2 µs); 1 run moved between "
	    "them: each group is a figure of its own, the median of all is "
	    "neither.</li>");
	cr_assert_null(strstr(f, "<b>glib-pool</b> at 1 worker: the host"),
	    "%s", f);
	HAS(f, "<li id=\"host\">Runs marked host_busy (other processes kept "
	    "the machine's CPUs busy, so the figure is not the design's alone) "
	    "in <b>shared/lfseg</b> at 64 workers (2 of 6 runs). Runs stalled "
	    "(no dispatch in the window; no figure takes them) in "
	    "<b>shared/lfseg</b> at 64 workers (1 of 6 runs).</li>");
}

/* The pivot comes before the long table, its heads in words. */
Test(report, the_grid_comes_before_the_long_table)
{
	const char *html = page();
	const char *grid = strstr(html, "<table id=\"grid\">");
	const char *summary = strstr(html, "<table id=\"summary\">");

	cr_assert(grid != NULL && summary != NULL && grid < summary);
	HAS(grid, "<tr><th>design</th><th>1 worker</th><th>2 workers</th>"
	    "<th>4 workers</th><th>16 workers</th><th>64 workers</th></tr>");
	HAS(grid, "<tr><td>shared/lfseg</td><td>50 ns</td><td>600 ns</td>"
	    "<td></td><td></td><td>5.0 µs</td></tr>");
	HAS(grid, "<tr><td>inline (harness floor)</td><td>4.6 ns</td>");
	HAS(grid, "<tr><td>eventloop (never crosses a thread)</td>");
}

/*
 * Of the figures, CPU per dispatch against workers comes first, before
 * beside.svg, which its name sorts first.
 */
Test(report, the_headline_figure_comes_first, .timeout = 120)
{
	const char *html = page(), *fig = strstr(html, "<figure id=\"");

	cr_assert_not_null(fig, "no figure");
	HAS(html, "<figure id=\"beside.svg\">");
	cr_assert(strncmp(fig, "<figure id=\"cpu_per_dispatch.svg\"", 33) == 0,
	    "%.60s", fig);
}

/* Each field of the context has words in its row, an empty one "none". */
Test(report, no_context_field_renders_empty)
{
	const char *row = strstr(page(), "<table id=\"context\">"), *td, *end;
	char text[4096];
	size_t n = 0, k, fields = 0;
	const cJSON *f;
	cJSON *ctx = context();

	cr_assert_not_null(row);
	cJSON_ArrayForEach(f, ctx)
		fields++;
	cJSON_Delete(ctx);
	while ((td = strstr(row, "<td>")) != NULL && (end = strstr(td,
	    "</td>")) != NULL && strstr(row, "</table>") > td) {
		/* The cell's words without its tags. */
		for (k = 0, td += 4; td < end && k + 1 < sizeof(text); td++) {
			if (*td == '<')
				td = strchr(td, '>');
			else if (*td != ' ')
				text[k++] = *td;
		}
		text[k] = '\0';
		cr_assert(k > 0, "context row %zu is empty", n);
		row = end;
		n++;
	}
	cr_assert_eq(n, fields);
	HAS(page(), "<tr><th>environment</th><td>none</td></tr>");
	HAS(page(), "<tr><th>runtimes</th><td><ul><li>uv: kind dispatcher, "
	    "real libuv 1.44.2, beside eventloop</li></ul></td></tr>");
	HAS(page(), "<li>events: none</li>");
	HAS(page(), "<li>caches: name L1d, count 2, size_kb 48</li>");
}

/* Times to ns, µs, ms; rates with k and M; two figures. */
Test(report, figures_are_scaled_for_reading)
{
	char b[32];

	cr_assert_str_eq(table_scaled(0.00464, "µs", b, sizeof(b)), "4.6 ns");
	cr_assert_str_eq(table_scaled(1.2, "µs", b, sizeof(b)), "1.2 µs");
	cr_assert_str_eq(table_scaled(0.65, "µs", b, sizeof(b)), "650 ns");
	cr_assert_str_eq(table_scaled(0.9996, "µs", b, sizeof(b)), "1.0 µs");
	cr_assert_str_eq(table_scaled(6036.7, "µs", b, sizeof(b)), "6.0 ms");
	cr_assert_str_eq(table_scaled(0.0003, "µs", b, sizeof(b)), "0.3 ns");
	cr_assert_str_eq(table_scaled(4968261, "ops/s", b, sizeof(b)),
	    "5.0 M ops/s");
	cr_assert_str_eq(table_scaled(12345, "ops/s", b, sizeof(b)),
	    "12 k ops/s");
	cr_assert_str_eq(table_scaled(830, "ops/s", b, sizeof(b)), "830 ops/s");
	cr_assert_str_eq(table_scaled(NAN, "µs", b, sizeof(b)), "-");
}

/* No word of the page is jargon: the long table says two groups too. */
Test(report, the_page_speaks_of_groups_not_regimes)
{
	const char *html = page();

	cr_assert_null(strstr(html, "regime"), "%s", strstr(html, "regime"));
	HAS(html, "<td>runs in two groups: 50 ns in 3 runs, 900 ns in 3</td>");
	HAS(html, "<td>two placements of the CPUs: 300 ns in 3 runs, 1.2 µs "
	    "in 2, 1 moved</td>");
}

/*
 * A file from before runs were marked host_busy says that nothing was
 * recorded, not that the machine was quiet.
 */
Test(report, a_file_before_the_busy_mark_does_not_call_the_machine_quiet)
{
	cJSON *doc = crafted(), *cell, *run;
	char err[512], html[1 << 16];
	FILE *f;
	size_t n;

	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		cJSON_ArrayForEach(run, cJSON_GetObjectItem(cell, "runs"))
			cJSON_DeleteItemFromObject(run, "host_busy");
	cr_assert_eq(report_write(doc, tmp("old.html"), err, sizeof(err)), 0,
	    "%s", err);
	cJSON_Delete(doc);
	cr_assert_not_null(f = fopen(tmp("old.html"), "r"));
	n = fread(html, 1, sizeof(html) - 1, f);
	html[n] = '\0';
	fclose(f);
	HAS(html, "<li id=\"host\">These runs predate the host_busy and "
	    "stalled marks: whether other load shared the machine, or a "
	    "window made no progress, was not recorded.</li>");
}

/*
 * Export's rows carry each of two groups of runs as a figure of its own
 * (glib-pool's at 2 workers: 0.05 µs in 3 runs, 0.9 in 3), read from the
 * summary or, in a file from before it kept them, from the runs; and
 * none for a cell whose runs are one group.
 */
Test(report, export_gives_each_group_its_figure)
{
	cJSON *doc = crafted(), *rows, *row, *cell, *bi;
	const cJSON *below, *above;
	int grouped, pass;

	for (pass = 0; pass < 2; pass++) {
		rows = export_rows(doc);
		grouped = 0;
		cJSON_ArrayForEach(row, rows) {
			below = cJSON_GetObjectItem(row,
			    "cpu_us_per_dispatch_below");
			above = cJSON_GetObjectItem(row,
			    "cpu_us_per_dispatch_above");
			if (strcmp(cJSON_GetObjectItem(row, "dispatcher")->
			    valuestring, "glib-pool") != 0 || strcmp(
			    cJSON_GetObjectItem(row, "workers")->valuestring,
			    "2") != 0) {
				cr_assert(cJSON_IsNull(below) &&
				    cJSON_IsNull(above));
				continue;
			}
			grouped++;
			cr_assert_float_eq(below->valuedouble, 0.05, 1e-9);
			cr_assert_float_eq(above->valuedouble, 0.9, 1e-9);
		}
		cr_assert_eq(grouped, 1, "pass %d", pass);
		cJSON_Delete(rows);
		/* The second pass: the summary as files before 2026-12-07. */
		cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells")) {
			bi = cJSON_GetObjectItem(cJSON_GetObjectItem(
			    cJSON_GetObjectItem(cell, "summary"),
			    "cpu_us_per_dispatch"), "bimodal");
			cJSON_DeleteItemFromObject(bi, "below");
			cJSON_DeleteItemFromObject(bi, "above");
		}
	}
	cJSON_Delete(doc);
}

/*
 * Export's rows carry each placement's median as a figure of its own
 * (glib-pool's at 1 worker one cost on both), and none for a cell whose
 * runs ran on one.
 */
Test(report, export_gives_each_placement_its_figure)
{
	cJSON *doc = crafted(), *rows = export_rows(doc), *row;
	const cJSON *near = NULL, *far = NULL;
	int placed = 0;

	cJSON_ArrayForEach(row, rows) {
		near = cJSON_GetObjectItem(row, "cpu_us_per_dispatch_near");
		far = cJSON_GetObjectItem(row, "cpu_us_per_dispatch_far");
		if (strcmp(cJSON_GetObjectItem(row, "dispatcher")->valuestring,
		    "glib-pool") == 0 && strcmp(cJSON_GetObjectItem(row,
		    "workers")->valuestring, "1") == 0) {
			cr_assert_float_eq(near->valuedouble, 0.056, 0.002);
			cr_assert_float_eq(far->valuedouble, 0.056, 0.002);
			continue;
		}
		if (strcmp(cJSON_GetObjectItem(row, "dispatcher")->valuestring,
		    "omp-tasks") != 0) {
			cr_assert(cJSON_IsNull(near) && cJSON_IsNull(far));
			continue;
		}
		placed++;
		cr_assert_float_eq(near->valuedouble, 0.3, 1e-9);
		cr_assert_float_eq(far->valuedouble, 1.2, 1e-9);
	}
	cr_assert_eq(placed, 1);
	cJSON_Delete(rows);
	cJSON_Delete(doc);
}

