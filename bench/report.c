/*
 * report.c - the HTML report (see report.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "plot.h"
#include "report.h"
#include "results.h"

static const char report_style[] =
    "body{font:14px/1.4 sans-serif;margin:2em;max-width:1200px}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
    "th{background:#eee}td:first-child,th:first-child{text-align:left}"
    "#context td{text-align:left}.wide{overflow-x:auto}"
    "figure{margin:2em 0}svg{max-width:100%;height:auto}";

static void
report_escape(FILE *out, const char *s)
{

	for (; *s != '\0'; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '"')
			fputs("&quot;", out);
		else
			fputc(*s, out);
	}
	return;
}

/* The context: what could skew a number, one row per field. */
static void
report_context(FILE *out, const cJSON *ctx)
{
	const cJSON *f, *w;

	fputs("<h2>Context</h2>\n<table id=\"context\">\n", out);
	cJSON_ArrayForEach(f, ctx) {
		fputs("<tr><th>", out);
		report_escape(out, f->string);
		fputs("</th><td>", out);
		if (cJSON_IsString(f))
			report_escape(out, f->valuestring);
		else if (cJSON_IsNumber(f))
			fprintf(out, "%g", f->valuedouble);
		else if (cJSON_IsArray(f))
			cJSON_ArrayForEach(w, f) {
				report_escape(out, cJSON_IsString(w) ?
				    w->valuestring : "?");
				fputc(' ', out);
			}
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
	return;
}

/* The summary, from export's JSON rows: one row per cell. */
static void
report_summary(FILE *out, const cJSON *doc)
{
	const cJSON *row, *f;
	cJSON *rows;
	char *text;
	size_t len;
	FILE *mem = open_memstream(&text, &len);

	export_write(mem, doc, EXPORT_JSON);
	fclose(mem);
	rows = cJSON_Parse(text);
	free(text);
	fputs("<h2>Summary (median of the ok runs)</h2>\n<div class=\"wide\">"
	    "<table id=\"summary\">\n<tr>", out);
	cJSON_ArrayForEach(f, cJSON_GetArrayItem(rows, 0)) {
		fputs("<th>", out);
		report_escape(out, f->string);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	cJSON_ArrayForEach(row, rows) {
		fputs("<tr>", out);
		cJSON_ArrayForEach(f, row) {
			fputs("<td>", out);
			if (cJSON_IsString(f))
				report_escape(out, f->valuestring);
			else if (cJSON_IsNumber(f))
				fprintf(out, "%.4g", f->valuedouble);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n<pre>", out);
	export_memory_fits(out, doc);
	fputs("</pre>\n", out);
	cJSON_Delete(rows);
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
	const cJSON *ctx = cJSON_GetObjectItem(doc, "context");
	char *text;
	size_t len;
	FILE *out = open_memstream(&text, &len);
	int rc;

	fprintf(out, "<!doctype html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\">\n<title>dispatchbench: ");
	report_escape(out, results_str(ctx, "cpu_model", "?"));
	fputs(", ", out);
	report_escape(out, results_str(ctx, "date", "?"));
	fprintf(out, "</title>\n<style>%s</style></head><body>\n"
	    "<h1>dispatchbench results</h1>\n<p>CPU microseconds per dispatch "
	    "(process utime+stime over the window / dispatches), median of the "
	    "ok runs; %s.</p>\n", report_style, cJSON_IsTrue(cJSON_GetObjectItem(
	    doc, "complete")) ? "the sweep is complete" :
	    "<strong>the sweep is partial</strong>");
	report_context(out, ctx);
	report_summary(out, doc);
	rc = report_figures(out, doc, err, errlen);
	fputs("</body></html>", out);
	fclose(out);
	if (rc == 0 && (rc = results_write_text(text, path)) != 0)
		snprintf(err, errlen, "cannot write %s: %s", path,
		    strerror(-rc));
	free(text);
	return rc != 0 ? -1 : 0;
}
