/*
 * findings.c - what the data says, in words computed from it (see
 * findings.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "params.h"
#include "portrait.h"
#include "results.h"
#include "runfields.h"
#include "stats.h"
#include "table.h"

#define FINDINGS_LISTED	8		/* cells a finding lists */

/* What a handoff costs, per design that makes one. */
static void
findings_designs(FILE *out, const struct series_set *d)
{
	size_t i, n = 0;

	fputs("<li id=\"cost\">What a cross-thread handoff costs, per design "
	    "(CPU time per dispatch, median of the runs):\n<ul>\n", out);
	for (i = 0; i < d->ns; i++)
		if (!d->s[i].floor && !d->s[i].local && !d->s[i].kept) {
			portrait_write(out, d, &d->s[i]);
			n++;
		}
	if (n == 0)
		fputs("<li>no design in this file hands a resumption to "
		    "another thread</li>\n", out);
	fputs("</ul></li>\n", out);
	return;
}

/* Each width's cheapest handoff: the floor and the loops make none. */
static void
findings_cheapest(FILE *out, const struct series_set *d)
{
	double w[SERIES_WIDTHS * 4];
	size_t i, k, nw = series_widths(d, w, sizeof(w) / sizeof(w[0])), n = 0;
	const struct series *best = NULL;
	const cJSON *cell, *b;
	char v[32], at[32];

	fputs("<li id=\"cheapest\">The cheapest handoff at each width, the "
	    "floor and the designs that do not hand over aside:", out);
	for (i = 0; i < nw; i++) {
		for (k = 0, b = NULL; k < d->ns; k++)
			if (!d->s[k].floor && !d->s[k].local && !d->s[k].kept &&
			    (cell = series_cell_at(&d->s[k], w[i])) != NULL &&
			    (b == NULL || series_cost(cell) < series_cost(b))) {
				best = &d->s[k];
				b = cell;
			}
		if (b == NULL)
			continue;
		fprintf(out, "%s %s, <b>", n++ > 0 ? ";" : "",
		    series_width(w[i], at, sizeof(at)));
		table_html_escape(out, best->name);
		fprintf(out, "</b> %s", table_scaled(series_cost(b), "µs", v,
		    sizeof(v)));
	}
	fputs(n == 0 ? " none.</li>\n" : ".</li>\n", out);
	return;
}

/* "a", "a and b", "a, b and c": the i-th of n names' separator. */
static const char *
findings_and(size_t i, size_t n)
{

	return i == 0 ? "" : i + 1 == n ? " and " : ", ";
}

/*
 * Two times joined by and: "0.12 and 0.61 µs" when they share a unit,
 * else "45 ns and 1.2 µs"; one when they read the same.
 */
static void
findings_two(FILE *out, double lo, double hi, const char *and)
{
	char a[32], b[32];
	const char *ua, *ub;

	table_scaled(lo, "µs", a, sizeof(a));
	table_scaled(hi, "µs", b, sizeof(b));
	ua = strchr(a, ' ');
	ub = strchr(b, ' ');
	if (strcmp(a, b) == 0)
		fputs(a, out);
	else if (ua != NULL && ub != NULL && strcmp(ua, ub) == 0)
		fprintf(out, "%.*s%s%s", (int)(ua - a), a, and, b);
	else
		fprintf(out, "%s%s%s", a, and, b);
	return;
}

/* An event loop resuming at home: it never crosses a thread. */
static bool
findings_is_local(const struct series *s)
{

	return s->local && !s->floor;
}

/* A design whose counters show each resumption kept on its worker. */
static bool
findings_is_kept(const struct series *s)
{

	return s->kept && !s->local && !s->floor;
}

/* The series of d in a group. */
static size_t
findings_count(const struct series_set *d, bool (*in)(const struct series *))
{
	size_t i, n = 0;

	for (i = 0; i < d->ns; i++)
		n += in(&d->s[i]);
	return n;
}

/* A group's names: "<b>a</b>, <b>b</b> and <b>c</b>". */
static void
findings_names(FILE *out, const struct series_set *d,
    bool (*in)(const struct series *))
{
	size_t i, k = 0, n = findings_count(d, in);

	for (i = 0; i < d->ns; i++) {
		if (!in(&d->s[i]))
			continue;
		fprintf(out, "%s<b>", findings_and(k++, n));
		table_html_escape(out, d->s[i].name);
		fputs("</b>", out);
	}
	return;
}

/* A group's designs, each in its own words, closing the group's item. */
static void
findings_members(FILE *out, const struct series_set *d,
    bool (*in)(const struct series *))
{
	size_t i;

	fputs(":\n<ul>\n", out);
	for (i = 0; i < d->ns; i++)
		if (in(&d->s[i]))
			portrait_write(out, d, &d->s[i]);
	fputs("</ul></li>\n", out);
	return;
}

/* The designs that never cross a thread in this workload, and why. */
static void
findings_local(FILE *out, const struct series_set *d)
{
	size_t n = findings_count(d, findings_is_local);

	if (n == 0) {
		fputs("<li id=\"local\">Every design here hands resumptions to "
		    "other threads: none is an event loop resuming a coroutine "
		    "from its own loop.</li>\n", out);
		return;
	}
	fputs("<li id=\"local\">", out);
	findings_names(out, d, findings_is_local);
	fprintf(out, " never hand%s a resumption to another thread in this "
	    "workload: %s threads are event loops, and a coroutine resumed "
	    "from its own loop (from=home) runs there, in place, with no "
	    "handoff's cost", n == 1 ? "s" : "", n == 1 ? "its" : "their");
	findings_members(out, d, findings_is_local);
	return;
}

/*
 * The designs whose resumptions stay on their worker's own queue, with
 * the most any of their cells counted crossing between threads.
 */
static void
findings_kept(FILE *out, const struct series_set *d)
{
	size_t i, j, n = findings_count(d, findings_is_kept);
	double most = 0;

	if (n == 0)
		return;
	for (i = 0; i < d->ns; i++)
		for (j = 0; findings_is_kept(&d->s[i]) && j < d->s[i].n; j++)
			most = fmax(most, series_moved(d->s[i].cell[j]));
	fputs("<li id=\"kept\">", out);
	findings_names(out, d, findings_is_kept);
	fprintf(out, " keep%s each resumption on the worker that made it, in "
	    "that worker's own queue, with no handoff's cost in this workload: "
	    "another thread took one, one came from outside or a parked thread "
	    "was woken for one in at most 1 of %.0f dispatches (steals, "
	    "injections and unparks, counted)", n == 1 ? "s" : "", most > 0 ?
	    pow(10, floor(log10(1 / most))) : 1 / SERIES_KEPT);
	findings_members(out, d, findings_is_kept);
	return;
}

/* The median over the cells of a figure, NAN when no cell has it. */
static double
findings_over_cells(const struct series_set *d, const char *field,
    bool floor_only)
{
	const cJSON *cells = results_arr(d->doc, "cells"), *cell;
	size_t n = 0, size = (size_t)cJSON_GetArraySize(cells) + 1;
	double *v = malloc(size * sizeof(*v)), m;

	if (v == NULL)
		return NAN;
	cJSON_ArrayForEach(cell, cells)
		if (!floor_only || series_is_floor(cell)) {
			v[n] = results_stat(cell, field, "median");
			n += isfinite(v[n]) != 0;
		}
	m = n > 0 ? stats_select_median(v, n) : NAN;
	free(v);
	return m;
}

/* The harness's floor, named as such: a control, never ranked. */
static void
findings_floor(FILE *out, const struct series_set *d)
{
	double bare = findings_over_cells(d, RF(bare_loop_us_per_dispatch),
	    false);
	double inl = findings_over_cells(d, RF(cpu_us_per_dispatch), true);
	char a[32];

	if (!isfinite(inl) && !isfinite(bare)) {
		fputs("<li id=\"floor\">No harness floor in this file: no "
		    "inline cell, and no run measured the bare loop.</li>\n",
		    out);
		return;
	}
	fputs("<li id=\"floor\">The harness floor: ", out);
	if (isfinite(inl))
		fprintf(out, "<b>inline</b> runs each resumption on the thread "
		    "that makes it, %s a dispatch%s", table_scaled(inl, "µs",
		    a, sizeof(a)), isfinite(bare) ? "; " : "");
	if (isfinite(bare))
		fprintf(out, "the bare loop, a dispatch with none of the "
		    "harness in it, %s%s", table_scaled(bare, "µs", a,
		    sizeof(a)), isfinite(inl) ? "" :
		    " (no inline cell in this file)");
	fputs(". A control, not a design: it is never ranked, and every "
	    "figure above includes it.</li>\n", out);
	return;
}

/* "shared/lfseg at 8 workers", a cell as the findings name it. */
static void
findings_cell_name(FILE *out, const cJSON *cell)
{
	char name[SERIES_NAME], at[32];

	params_series(cell, name, sizeof(name));
	fputs("<b>", out);
	table_html_escape(out, name);
	fprintf(out, "</b> %s", series_at(results_num(cell, "workers"), at,
	    sizeof(at)));
	return;
}

unsigned int
findings_starved(const cJSON *cell)
{

	return results_runs_above_zero(cell, RF(starved));
}

/*
 * A cell's runs of a kind its summary counts (from files before it did:
 * the runs in which field is true, or whose status is field).
 */
static unsigned int
findings_counted(const cJSON *cell, const char *count, const char *field)
{
	double n = results_num(results_obj(cell, "summary"), count);
	const cJSON *run;
	unsigned int k = 0;

	if (isfinite(n))
		return (unsigned int)n;
	cJSON_ArrayForEach(run, results_arr(cell, "runs"))
		k += results_true(run, field) || strcmp(results_str(run,
		    RF(status), ""), field) == 0;
	return k;
}

/* A cell's runs beside other load. */
static unsigned int
findings_busy(const cJSON *cell)
{

	return findings_counted(cell, "runs_host_busy", RF(host_busy));
}

/* A cell's windows with no dispatch. */
static unsigned int
findings_stalled(const cJSON *cell)
{

	return findings_counted(cell, "runs_stalled", "stalled");
}

/*
 * The cells where count finds runs, after what, each with its share of
 * the runs (of the ok runs: of); false, and nothing said, if none.
 */
static bool
findings_cells(FILE *out, const cJSON *cells, unsigned int (*count)(
    const cJSON *), const char *of, const char *what)
{
	const cJSON *cell;
	unsigned int c;
	size_t n = 0;

	cJSON_ArrayForEach(cell, cells) {
		if ((c = count(cell)) == 0)
			continue;
		if (n == 0)
			fputs(what, out);
		if (n++ >= FINDINGS_LISTED)
			continue;
		fputs(n > 1 ? "; " : " ", out);
		findings_cell_name(out, cell);
		fprintf(out, " (%u of %.0f runs)", c, results_num(results_obj(
		    cell, "summary"), of));
	}
	if (n > FINDINGS_LISTED)
		fprintf(out, "; and %zu cells more", n - FINDINGS_LISTED);
	return n > 0;
}

/* Whether count finds runs in any cell. */
static bool
findings_any(const cJSON *cells, unsigned int (*count)(const cJSON *))
{
	const cJSON *cell;

	cJSON_ArrayForEach(cell, cells)
		if (count(cell) > 0)
			return true;
	return false;
}

/* Where a coroutine starved. */
static void
findings_starving(FILE *out, const struct series_set *d)
{

	fputs("<li id=\"starved\">", out);
	if (findings_cells(out, results_arr(d->doc, "cells"), findings_starved,
	    "runs_ok", "A coroutine starved (made no progress over a whole "
	    "window) in"))
		fputs(".</li>\n", out);
	else
		fputs("No coroutine starved: each made progress in every "
		    "run.</li>\n", out);
	return;
}

/* A cell's runs that say whether the machine was busy (all, since it was). */
static unsigned int
findings_watched(const cJSON *cell)
{
	const cJSON *run;
	unsigned int k = 0;

	cJSON_ArrayForEach(run, results_arr(cell, "runs"))
		k += cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(run,
		    RF(host_busy)));
	return k;
}

/* Where the machine was busy with other work, or a window stalled. */
static void
findings_host(FILE *out, const struct series_set *d)
{
	const cJSON *cells = results_arr(d->doc, "cells");

	fputs("<li id=\"host\">", out);
	if (!findings_any(cells, findings_watched)) {
		fputs("These runs predate the host_busy and stalled marks: "
		    "whether other load shared the machine, or a window made "
		    "no progress, was not recorded.</li>\n", out);
		return;
	}
	if (!findings_any(cells, findings_busy) && !findings_any(cells,
	    findings_stalled))
		fputs("No run was marked host_busy (other load on the machine) "
		    "or stalled (no dispatch in its window).", out);
	if (findings_cells(out, cells, findings_busy, "runs", "Runs marked "
	    "host_busy (other processes kept the machine's CPUs busy, so the "
	    "figure is not the design's alone) in"))
		fputs(findings_any(cells, findings_stalled) ? ". " : ".", out);
	if (findings_cells(out, cells, findings_stalled, "runs", "Runs stalled "
	    "(no dispatch in the window; no figure takes them) in"))
		fputs(".", out);
	fputs("</li>\n", out);
	return;
}

const cJSON *
findings_split(const cJSON *cell)
{

	return results_obj(results_obj(results_obj(cell, "summary"),
	    RF(cpu_us_per_dispatch)), "bimodal");
}

/* A cell whose two placements of the CPUs moved its cost, or NULL. */
static const cJSON *
findings_placed(const cJSON *cell)
{

	return results_placed(results_obj(results_obj(cell, "summary"),
	    RF(cpu_us_per_dispatch)));
}

/* One placement's runs: "62 ns apart in 5 runs (49 ns)". */
static void
findings_side(FILE *out, const cJSON *g)
{
	double runs = results_num(g, "runs");
	char v[32];

	fprintf(out, "%.0f ns apart in %.0f run%s (%s)", results_num(g,
	    "line_round_trip_ns"), runs, runs == 1 ? "" : "s", table_scaled(
	    results_num(g, "median"), "µs", v, sizeof(v)));
	return;
}

/*
 * Runs in two groups because the host ran the CPUs in two placements,
 * each group said with the line round trip that tells it.
 */
static void
findings_placement(FILE *out, const cJSON *cell, const cJSON *pl)
{
	double moved = results_num(pl, "moved");

	fputs("<li class=\"groups\">", out);
	findings_cell_name(out, cell);
	fputs(": the host ran the CPUs in two placements, a cache line ", out);
	findings_side(out, results_obj(pl, "near"));
	fputs(" and ", out);
	findings_side(out, results_obj(pl, "far"));
	if (moved > 0)
		fprintf(out, "; %.0f run%s moved between them", moved,
		    moved == 1 ? "" : "s");
	fputs(": each group is a figure of its own, the median of all is "
	    "neither.</li>\n", out);
	return;
}

/*
 * The cells whose runs fell into two groups, which a median hides: by the
 * placement the host gave the CPUs where the runs' probes tell it, else
 * by the gap in the figure.
 */
static void
findings_groups(FILE *out, const struct series_set *d)
{
	const cJSON *cell, *bi, *pl;
	struct results_groups g;
	size_t n = 0;

	cJSON_ArrayForEach(cell, results_arr(d->doc, "cells")) {
		pl = findings_placed(cell);
		bi = findings_split(cell);
		if ((pl == NULL && bi == NULL) || n++ >= FINDINGS_LISTED)
			continue;
		if (pl != NULL) {
			findings_placement(out, cell, pl);
			continue;
		}
		results_groups(cell, RF(cpu_us_per_dispatch), &g);
		fputs("<li class=\"groups\">", out);
		findings_cell_name(out, cell);
		fputs(": runs fell into two groups, ", out);
		findings_two(out, g.median[0], g.median[1], " and ");
		fprintf(out, " (%u of %u runs in the slower); the median "
		    "hides both.</li>\n", g.runs[1], g.runs[0] + g.runs[1]);
	}
	if (n > FINDINGS_LISTED)
		fprintf(out, "<li class=\"groups\">%zu cells more whose runs "
		    "fell into two groups: the table's notes name them.</li>\n",
		    n - FINDINGS_LISTED);
	if (n == 0)
		fputs("<li class=\"groups\">No cell's runs fell into two "
		    "groups.</li>\n", out);
	return;
}

void
findings_write(FILE *out, const struct series_set *d, const char *machine)
{

	table_html_section(out, "What the data says", "on", machine, "ul",
	    "findings");
	findings_designs(out, d);
	findings_cheapest(out, d);
	findings_local(out, d);
	findings_kept(out, d);
	findings_floor(out, d);
	findings_starving(out, d);
	findings_groups(out, d);
	findings_host(out, d);
	fputs("</ul>\n", out);
	return;
}
