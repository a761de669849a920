/*
 * report.c - the HTML report (see report.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "params.h"
#include "plot.h"
#include "report.h"
#include "results.h"
#include "table.h"

static const char report_style[] =
    "body{font:14px/1.4 sans-serif;margin:2em;max-width:1200px}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
    "th{background:#eee}td:first-child,th:first-child{text-align:left}"
    "#context td{text-align:left}#summary{font-size:12px}"
    "figure{margin:2em 0}svg{max-width:100%;height:auto}";

/* The context: what could skew a number, one row per field. */
static void
report_context(FILE *out, const cJSON *ctx)
{
	const cJSON *f, *w;

	fputs("<h2>Context</h2>\n<table id=\"context\">\n", out);
	cJSON_ArrayForEach(f, ctx) {
		fputs("<tr><th>", out);
		table_html_escape(out, f->string);
		fputs("</th><td>", out);
		if (cJSON_IsString(f))
			table_html_escape(out, f->valuestring);
		else if (cJSON_IsNumber(f))
			fprintf(out, "%g", f->valuedouble);
		else if (cJSON_IsArray(f))
			cJSON_ArrayForEach(w, f) {
				table_html_escape(out, cJSON_IsString(w) ?
				    w->valuestring : "?");
				fputc(' ', out);
			}
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	return;
}

/* Every cell, as the export's rows for people. */
static void
report_summary(FILE *out, const cJSON *doc)
{

	fputs("<h2>Every cell (median of the ok runs)</h2>\n", out);
	export_write(out, doc, TABLE_HTML, "summary");
	fputs("<pre>", out);
	export_memory_fits(out, doc);
	fputs("</pre>\n", out);
	return;
}

/* A cell's headline: median, min and max CPU µs per dispatch. */
static bool
report_cost(const cJSON *cell, double *med, double *lo, double *hi)
{

	*med = results_stat(cell, "cpu_us_per_dispatch", "median");
	*lo = results_stat(cell, "cpu_us_per_dispatch", "min");
	*hi = results_stat(cell, "cpu_us_per_dispatch", "max");
	return isfinite(*med);
}

/* At each width, the cell that costs least, with its spread. */
static void
report_cheapest(FILE *out, const cJSON *cells)
{
	const cJSON *cell, *other, *best;
	double med, lo, hi, m2, l2, h2, w;
	char name[160], a[32], b[32], c[32];

	cJSON_ArrayForEach(cell, cells) {
		w = results_num(cell, "workers");
		if (!report_cost(cell, &med, &lo, &hi))
			continue;
		best = cell;
		cJSON_ArrayForEach(other, cells) {
			if (results_num(other, "workers") != w ||
			    !report_cost(other, &m2, &l2, &h2))
				continue;
			if (m2 < med) {
				best = other;
				med = m2;
			}
		}
		/* Said once, at the first cell of that width. */
		cJSON_ArrayForEach(other, cells)
			if (results_num(other, "workers") == w)
				break;
		if (other != cell)
			continue;
		report_cost(best, &med, &lo, &hi);
		params_series(best, name, sizeof(name));
		fprintf(out, "<li>%s workers: <b>", w == 0 ? "unbounded" :
		    table_sig3(w, c, sizeof(c)));
		table_html_escape(out, name);
		fprintf(out, "</b>, %s µs per dispatch [%s–", table_sig3(med, c,
		    sizeof(c)), table_sig3(lo, a, sizeof(a)));
		fprintf(out, "%s]</li>\n", table_sig3(hi, b, sizeof(b)));
	}
	return;
}

/*
 * Each series' cost from its narrowest to its widest cell, where it grows
 * by half or more; the cells in two regimes; the series where a coroutine
 * starved.
 */
static void
report_series(FILE *out, const cJSON *cells)
{
	const cJSON *cell, *first = NULL, *last = NULL;
	char name[160], prev[160] = "", a[32], b[32], c[32];
	double m0, m1, lo, hi;
	bool starves = false;

	cJSON_ArrayForEach(cell, cells) {
		params_series(cell, name, sizeof(name));
		if (strcmp(name, prev) != 0) {
			if (first != NULL && first != last && report_cost(first,
			    &m0, &lo, &hi) && report_cost(last, &m1, &lo, &hi) &&
			    m1 > 1.5 * m0) {
				fputs("<li>cost rises with workers: <b>", out);
				table_html_escape(out, prev);
				fprintf(out, "</b>, %s µs at %.0f workers to %s at "
				    "%.0f (%s×)</li>\n", table_sig3(m0, a, sizeof(a)),
				    results_num(first, "workers"), table_sig3(m1, b,
				    sizeof(b)), results_num(last, "workers"),
				    table_sig3(m1 / m0, c, sizeof(c)));
			}
			if (starves) {
				fputs("<li>a coroutine starved: <b>", out);
				table_html_escape(out, prev);
				fputs("</b> (every picture marks it STARVES)</li>\n",
				    out);
			}
			snprintf(prev, sizeof(prev), "%s", name);
			first = cell;
			starves = false;
		}
		last = cell;
		starves |= results_runs_above_zero(cell, "starved") > 0;
		if (results_obj(results_obj(results_obj(cell, "summary"),
		    "cpu_us_per_dispatch"), "bimodal") != NULL) {
			fputs("<li>two regimes: <b>", out);
			table_html_escape(out, name);
			fprintf(out, "</b> at %.0f workers (its median describes "
			    "neither)</li>\n", results_num(cell, "workers"));
		}
	}
	return;
}

/* What the data says, computed from it, before any figure or table. */
static void
report_findings(FILE *out, const cJSON *doc)
{
	const cJSON *cells = results_arr(doc, "cells");

	char words[256];

	fputs("<h2>What the data says</h2>\n<ul id=\"findings\">\n", out);
	if (export_harness_words(doc, words, sizeof(words)) != NULL) {
		fputs("<li>", out);
		table_html_escape(out, words);
		fputs("</li>\n", out);
	}
	report_cheapest(out, cells);
	report_series(out, cells);
	fputs("</ul>\n", out);
	return;
}

/* One SVG inlined, without its XML prologue. */
static void
report_figure(FILE *out, const char *path, const char *name)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return;
	fprintf(out, "<figure id=\"%s\">\n", name);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "<?xml", 5) != 0 &&
		    strncmp(line, "<!DOCTYPE", 9) != 0 &&
		    strncmp(line, " \"http://www.w3.org/Graphics", 28) != 0)
			fputs(line, out);
	fclose(f);
	fputs("</figure>\n", out);
	return;
}

/* Draws the figures into a folder of their own, inlines, removes them. */
static int
report_figures(FILE *out, const cJSON *doc, char *err, size_t errlen)
{
	char dir[] = "/tmp/dispatchbench-report.XXXXXX", path[4200];
	struct dirent **names;
	int rc, n, i;

	if (mkdtemp(dir) == NULL) {
		snprintf(err, errlen, "cannot make a temporary folder: %s",
		    strerror(errno));
		return -1;
	}
	rc = plot_results(doc, dir, err, errlen);
	fputs("<h2>Figures</h2>\n", out);
	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (rc == 0 && strstr(names[i]->d_name, ".svg") != NULL)
			report_figure(out, path, names[i]->d_name);
		if (names[i]->d_name[0] != '.')
			unlink(path);
		free(names[i]);
	}
	free(n >= 0 ? names : NULL);
	rmdir(dir);
	return rc;
}

int
report_write(const cJSON *doc, const char *path, char *err, size_t errlen)
{
	const cJSON *ctx = results_obj(doc, "context");
	char *text;
	size_t len;
	FILE *out = open_memstream(&text, &len);
	int rc;

	fprintf(out, "<!doctype html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\">\n<title>dispatchbench: ");
	table_html_escape(out, results_str(ctx, "cpu_model", "?"));
	fputs(", ", out);
	table_html_escape(out, results_str(ctx, "date", "?"));
	fprintf(out, "</title>\n<style>%s</style></head><body>\n"
	    "<h1>dispatchbench results</h1>\n<p>CPU microseconds per dispatch "
	    "(process utime+stime over the window / dispatches), median of the "
	    "ok runs; %s.</p>\n", report_style, results_true(doc, "complete") ?
	    "the sweep is complete" :
	    "<strong>the sweep is partial</strong>");
	report_findings(out, doc);
	rc = report_figures(out, doc, err, errlen);
	report_summary(out, doc);
	report_context(out, ctx);
	fputs("</body></html>", out);
	fclose(out);
	if (rc == 0 && (rc = results_write_text(text, path)) != 0)
		snprintf(err, errlen, "cannot write %s: %s", path,
		    strerror(-rc));
	free(text);
	return rc != 0 ? -1 : 0;
}
