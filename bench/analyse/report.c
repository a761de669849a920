/*
 * report.c - the HTML report (see report.h).
 *
 * The page opens with what a reader asks of a sweep, in words computed
 * from it (findings.h). Then the design by width grid, the figures with
 * the headline first, every cell, and the context.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "figure.h"
#include "findings.h"
#include "report.h"
#include "results.h"
#include "series.h"
#include "table.h"

#define REPORT_HEADLINE	"cpu_per_dispatch.svg"
#define REPORT_ADVICE	"advise.svg"

static const char report_style[] =
    "body{font:14px/1.4 sans-serif;margin:2em;max-width:1200px}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
    "th{background:#eee}td:first-child,th:first-child{text-align:left}"
    "#context td,.context td{text-align:left}"
    "#context ul,.context ul{margin:0;padding-left:1.2em}"
    "#summary{font-size:12px}figure{margin:2em 0}"
    "svg{max-width:100%;height:auto}";

/* One series' row of the grid. */
static void
report_grid_row(FILE *out, const struct series *s, const double *w,
    size_t nw)
{
	const cJSON *cell;
	char v[32];
	size_t i;

	fputs("<tr><td>", out);
	table_html_escape(out, s->name);
	fputs(s->floor ? " (harness floor)" : s->local ?
	    " (never crosses a thread)" : s->kept ?
	    " (keeps its work on its worker)" : "", out);
	fputs("</td>", out);
	for (i = 0; i < nw; i++) {
		fputs("<td>", out);
		if ((cell = series_cell_at(s, w[i])) != NULL) {
			fputs(table_scaled(series_cost(cell), "µs", v,
			    sizeof(v)), out);
			if (findings_starved(cell) > 0)
				fputs(" starved", out);
			if (findings_split(cell) != NULL)
				fputs(" two groups", out);
		}
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
	return;
}

/* Design by width: the pivot of the headline, before the long table. */
static void
report_grid(FILE *out, const struct series_set *d)
{
	double w[SERIES_WIDTHS * 4];
	size_t i, nw = series_widths(d, w, sizeof(w) / sizeof(w[0]));
	char at[32];

	fputs("<h2>CPU time per dispatch, by design and width</h2>\n"
	    "<table id=\"grid\">\n<tr><th>design</th>", out);
	for (i = 0; i < nw; i++)
		fprintf(out, "<th>%s</th>", series_width(w[i], at, sizeof(at)));
	fputs("</tr>\n", out);
	for (i = 0; i < d->ns; i++)
		report_grid_row(out, &d->s[i], w, nw);
	fputs("</table>\n", out);
	return;
}

static void report_value(FILE *out, const cJSON *v, bool block);

/*
 * An object's fields ("name value, name value") or an array's items (" "
 * between words, "; " between objects) in one line.
 */
static void
report_inline(FILE *out, const cJSON *v)
{
	const cJSON *f;
	bool scalars = true, nested;

	cJSON_ArrayForEach(f, v)
		scalars &= !cJSON_IsArray(f) && !cJSON_IsObject(f);
	cJSON_ArrayForEach(f, v) {
		if (f != v->child)
			fputs(cJSON_IsObject(v) ? ", " : scalars ? " " : "; ",
			    out);
		if (cJSON_IsObject(v)) {
			table_html_escape(out, f->string);
			fputc(' ', out);
		}
		/* A field that holds fields or items: bracketed. */
		nested = cJSON_IsObject(v) && (cJSON_IsObject(f) ||
		    cJSON_IsArray(f)) && f->child != NULL;
		fputs(nested ? "(" : "", out);
		report_value(out, f, false);
		fputs(nested ? ")" : "", out);
	}
	return;
}

/*
 * A value of the context in words, none left blank: "none" for an empty
 * object or array; an object's fields, or an array of objects' items, one
 * a line at the top (block) and in one line below it.
 */
static void
report_value(FILE *out, const cJSON *v, bool block)
{
	const cJSON *f;

	if (cJSON_IsString(v))
		table_html_escape(out, v->valuestring[0] != '\0' ?
		    v->valuestring : "\"\"");
	else if (cJSON_IsNumber(v))
		fprintf(out, "%.15g", v->valuedouble);
	else if (cJSON_IsBool(v))
		fputs(cJSON_IsTrue(v) ? "true" : "false", out);
	else if (v->child == NULL)
		fputs("none", out);
	else if (block && (cJSON_IsObject(v) || cJSON_IsArray(v->child) ||
	    cJSON_IsObject(v->child))) {
		fputs("<ul>", out);
		cJSON_ArrayForEach(f, v) {
			fputs("<li>", out);
			if (cJSON_IsObject(v)) {
				table_html_escape(out, f->string);
				fputs(": ", out);
			}
			report_value(out, f, false);
			fputs("</li>", out);
		}
		fputs("</ul>", out);
	} else
		report_inline(out, v);
	return;
}

/* The context: what could skew a number, one row per field. */
static void
report_context(FILE *out, const char *name, const cJSON *ctx)
{
	const cJSON *f;

	table_html_section(out, "Context", "of", name, "table", "context");
	cJSON_ArrayForEach(f, ctx) {
		fputs("<tr><th>", out);
		table_html_escape(out, f->string);
		fputs("</th><td>", out);
		report_value(out, f, true);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	return;
}

/* The context of each machine the file holds, whole. */
static void
report_contexts(FILE *out, const cJSON *doc)
{
	const cJSON *m;

	if (results_machines(doc) == 0) {
		report_context(out, NULL, results_obj(doc, "context"));
		return;
	}
	cJSON_ArrayForEach(m, results_arr(doc, "machines"))
		report_context(out, results_str(m, "name", "?"), results_obj(m,
		    "context"));
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

/* A figure's rank: the advice's, the headline, then the rest by name. */
static int
report_figure_rank(const char *name)
{

	return strcmp(name, REPORT_ADVICE) == 0 ? 0 :
	    strcmp(name, REPORT_HEADLINE) == 0 ? 1 : 2;
}

static int
report_figure_order(const struct dirent **a, const struct dirent **b)
{
	int ra = report_figure_rank((*a)->d_name);
	int rb = report_figure_rank((*b)->d_name);

	return ra != rb ? ra - rb : alphasort(a, b);
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
	rc = figure_results(doc, dir, err, errlen);
	fputs("<h2>Figures</h2>\n", out);
	n = scandir(dir, &names, NULL, report_figure_order);
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

/*
 * A merged file, said in words before any number: each series is one
 * machine's, and a gap between two machines' lines is theirs too.
 */
static void
report_machines(FILE *out, const cJSON *doc)
{
	const cJSON *m;

	fprintf(out, "<p><strong>%d machines</strong>, merged: each series is "
	    "one machine's, named after &ldquo;on&rdquo;. Two machines' lines "
	    "differ by the machine (its CPUs, their speed, its kernel) as much "
	    "as by the design: compare a design's shape on each machine, and "
	    "two designs on one machine, not one machine's figure with "
	    "another's.</p>\n<ul>\n", results_machines(doc));
	cJSON_ArrayForEach(m, results_arr(doc, "machines")) {
		fputs("<li>", out);
		table_html_escape(out, results_str(m, "name", "?"));
		fputs(": ", out);
		table_html_escape(out, results_str(m, "source", "?"));
		fprintf(out, "%s</li>\n", results_true(m, "complete") ? "" :
		    " (<strong>partial</strong>)");
	}
	fputs("</ul>\n", out);
	return;
}

/* The page's head and its first paragraph: what the figures are. */
static void
report_head(FILE *out, const cJSON *doc)
{
	char where[400];

	fprintf(out, "<!doctype html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\">\n<title>dispatchbench: ");
	table_html_escape(out, results_where(doc, where, sizeof(where)));
	fprintf(out, "</title>\n<style>%s</style></head><body>\n"
	    "<h1>dispatchbench results</h1>\n<p>CPU time per dispatch (the "
	    "process's user and system time over the window / dispatches), "
	    "median of the ok runs, lower is better; %s.</p>\n", report_style,
	    results_true(doc, "complete") ? "the sweep is complete" :
	    "<strong>the sweep is partial</strong>");
	if (results_machines(doc) > 0)
		report_machines(out, doc);
	return;
}

/* The findings of each machine of a merged file, one after another. */
static int
report_findings(FILE *out, const cJSON *doc)
{
	struct series_set d;
	const cJSON *m;
	cJSON *one;
	int i = 0, rc = 0;

	cJSON_ArrayForEach(m, results_arr(doc, "machines")) {
		one = results_machine_doc(doc, i++);
		if ((rc = series_collect(&d, one)) == 0)
			findings_write(out, &d, results_str(m, "name", "?"));
		free(d.s);
		cJSON_Delete(one);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/*
 * advise's HTML: its table as it is, each other line a paragraph of
 * text.
 */
static void
report_advice(FILE *out, const char *advice)
{
	const char *line, *end;
	bool table = false;

	fputs("<h2 id=\"advice\">The advice</h2>\n", out);
	for (line = advice; *line != '\0'; line = *end != '\0' ? end + 1 : end) {
		if ((end = strchr(line, '\n')) == NULL)
			end = line + strlen(line);
		table = table || strncmp(line, "<table", 6) == 0;
		if (table)
			fprintf(out, "%.*s\n", (int)(end - line), line);
		else if (end > line) {
			fputs("<p>", out);
			table_html_escape_n(out, line, (size_t)(end - line));
			fputs("</p>\n", out);
		}
		table = table && strncmp(line, "</table>", 8) != 0;
	}
	return;
}

int
report_write(const cJSON *doc, const char *path, char *err, size_t errlen)
{

	return report_write_advised(doc, NULL, path, err, errlen);
}

int
report_write_advised(const cJSON *doc, const char *advice, const char *path,
    char *err, size_t errlen)
{
	struct series_set d;
	char *text;
	size_t len;
	FILE *out;
	int rc = 0;

	if (series_collect(&d, doc) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	out = open_memstream(&text, &len);
	report_head(out, doc);
	if (advice != NULL) {
		report_advice(out, advice);
		rc = report_figures(out, doc, err, errlen);
	}
	if (results_machines(doc) == 0)
		findings_write(out, &d, NULL);
	else if (report_findings(out, doc) != 0)
		abort();		/* out of memory */
	report_grid(out, &d);
	if (advice == NULL)
		rc = report_figures(out, doc, err, errlen);
	report_summary(out, doc);
	report_contexts(out, doc);
	fputs("</body></html>", out);
	fclose(out);
	free(d.s);
	if (rc == 0 && (rc = results_write_text(text, path)) != 0)
		snprintf(err, errlen, "cannot write %s: %s", path,
		    strerror(-rc));
	free(text);
	return rc != 0 ? -1 : 0;
}
