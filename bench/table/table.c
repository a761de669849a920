/*
 * table.c - see table.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

const char *
table_sig3(double v, char *buf, size_t len)
{
	double a = fabs(v);
	int digits;

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (a >= 1000 && a < 1e15)
		/* 312500 as 313000, not 3.12e+05 */
		snprintf(buf, len, "%.0f", round(v / pow(10, floor(log10(a)) -
		    2)) * pow(10, floor(log10(a)) - 2));
	else if (v == floor(v))
		snprintf(buf, len, "%.0f", v);
	else if (a >= 0.001) {
		digits = 2 - (int)floor(log10(a));
		snprintf(buf, len, "%.*f", digits > 0 ? digits : 0, v);
	} else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

/*
 * Two significant figures, the whole number from 10 up; a figure that
 * rounds to 1000 belongs to the next prefix, which the caller picks.
 */
static void
table_fig2(double a, char *buf, size_t len)
{

	if (a >= 9.95)
		snprintf(buf, len, "%.0f", a);
	else if (a >= 0.995)
		snprintf(buf, len, "%.1f", a);
	else
		snprintf(buf, len, "%.2g", a);
	return;
}

const char *
table_scaled(double v, const char *unit, char *buf, size_t len)
{
	static const char *const times[] = { "ns", "µs", "ms", "s" };
	static const char *const prefixes[] = { "", "k ", "M ", "G ", "T " };
	bool time = strcmp(unit, "µs") == 0;
	size_t i = 0, top = time ? 3 : 4;
	double a = fabs(v) * (time ? 1000 : 1);
	char fig[32];

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	for (; i < top && a >= 999.5; i++)
		a /= 1000;
	table_fig2(a, fig, sizeof(fig));
	snprintf(buf, len, "%s%s %s%s", v < 0 ? "-" : "", fig,
	    time ? times[i] : prefixes[i], time ? "" : unit);
	return buf;
}

/* One cell of a row, as its format writes it. */
static const char *
table_cell(const cJSON *row, const char *name, bool people, char *buf,
    size_t len)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(row, name);

	if (cJSON_IsString(f))
		return f->valuestring;
	if (cJSON_IsBool(f))
		return cJSON_IsTrue(f) ? "true" : "false";
	if (!cJSON_IsNumber(f) || !isfinite(f->valuedouble))
		return people ? "-" : "";
	if (people)
		return table_sig3(f->valuedouble, buf, len);
	snprintf(buf, len, "%.17g", f->valuedouble);
	return buf;
}

/* Columns a UTF-8 string takes on a terminal ("µ" is two bytes, one column). */
static size_t
table_width(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * Column i of a line: s in w columns, flush left or right, two spaces
 * from the one before; the last one ends the line with no trailing blank.
 */
static void
table_pad(FILE *out, const char *s, size_t w, bool left, size_t i,
    size_t ncols)
{
	size_t pad = w - table_width(s);

	if (left && i + 1 == ncols)
		pad = 0;
	if (i > 0 && (*s != '\0' || i + 1 < ncols))
		fputs("  ", out);
	fprintf(out, "%*s%s%*s", left ? 0 : (int)pad, "", s,
	    left ? (int)pad : 0, "");
	if (i + 1 == ncols)
		fputc('\n', out);
	return;
}

static void
table_text(FILE *out, const struct table *t, const cJSON *rows, bool markdown)
{
	size_t *w = calloc(t->ncols, sizeof(*w)), i, len;
	const cJSON *row;
	char buf[64];

	if (w == NULL)
		abort();
	for (i = 0; i < t->ncols; i++)
		w[i] = table_width(t->cols[i].label);
	cJSON_ArrayForEach(row, rows)
		for (i = 0; i < t->ncols; i++) {
			len = table_width(table_cell(row, t->cols[i].name, true,
			    buf, sizeof(buf)));
			w[i] = len > w[i] ? len : w[i];
		}
	/* Markdown needs no alignment, only pipes; its header then a rule. */
	for (i = 0; i < t->ncols; i++)
		if (markdown)
			fprintf(out, "| %s ", t->cols[i].label);
		else
			table_pad(out, t->cols[i].label, w[i], true, i,
			    t->ncols);
	if (markdown)
		fputs("|\n", out);
	for (i = 0; markdown && i < t->ncols; i++)
		fputs(i + 1 < t->ncols ? "|---" : "|---|\n", out);
	cJSON_ArrayForEach(row, rows) {
		for (i = 0; i < t->ncols; i++) {
			const char *c = table_cell(row, t->cols[i].name, true,
			    buf, sizeof(buf));

			if (markdown)
				fprintf(out, "| %s ", c);
			else
				table_pad(out, c, w[i], i == 0 || i + 1 == t->ncols,
				    i, t->ncols);
		}
		if (markdown)
			fputs("|\n", out);
	}
	free(w);
	return;
}

/*
 * RFC 4180: a field with a comma, a quote or a line break is quoted and its
 * quotes doubled; the others go as they are.
 */
static void
table_csv_field(FILE *out, const cJSON *row, const char *name)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(row, name);
	const char *c;
	char buf[64];

	if (!cJSON_IsString(f) || strpbrk(f->valuestring, ",\"\r\n") == NULL) {
		fputs(table_cell(row, name, false, buf, sizeof(buf)), out);
		return;
	}
	fputc('"', out);
	for (c = f->valuestring; *c != '\0'; c++) {
		if (*c == '"')
			fputc('"', out);
		fputc(*c, out);
	}
	fputc('"', out);
	return;
}

static void
table_csv(FILE *out, const struct table *t, const cJSON *rows)
{
	const cJSON *row;
	size_t i;

	for (i = 0; i < t->ncols; i++)
		fprintf(out, "%s%s", i ? "," : "", t->cols[i].name);
	fputc('\n', out);
	cJSON_ArrayForEach(row, rows) {
		for (i = 0; i < t->ncols; i++) {
			fputs(i ? "," : "", out);
			table_csv_field(out, row, t->cols[i].name);
		}
		fputc('\n', out);
	}
	return;
}

/* The rows' columns only, in the columns' order, as JSON. */
static void
table_json(FILE *out, const struct table *t, const cJSON *rows)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	const cJSON *row, *f;
	char *text;
	size_t i;

	cJSON_ArrayForEach(row, rows) {
		o = cJSON_CreateObject();
		for (i = 0; i < t->ncols; i++) {
			f = cJSON_GetObjectItemCaseSensitive(row, t->cols[i].name);
			cJSON_AddItemToObject(o, t->cols[i].name, f != NULL &&
			    (!cJSON_IsNumber(f) || isfinite(f->valuedouble)) ?
			    cJSON_Duplicate(f, 1) : cJSON_CreateNull());
		}
		cJSON_AddItemToArray(arr, o);
	}
	text = cJSON_Print(arr);
	fprintf(out, "%s\n", text);
	free(text);
	cJSON_Delete(arr);
	return;
}

void
table_html_escape(FILE *out, const char *s)
{

	table_html_escape_n(out, s, strlen(s));
	return;
}

void
table_html_escape_n(FILE *out, const char *s, size_t n)
{
	const char *end = s + n;

	for (; s < end; s++) {
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

void
table_html_section(FILE *out, const char *title, const char *join,
    const char *name, const char *tag, const char *id)
{

	fprintf(out, "<h2>%s", title);
	if (name != NULL) {
		fprintf(out, " %s ", join);
		table_html_escape(out, name);
	}
	fprintf(out, "</h2>\n<%s %s=\"%s\">\n", tag, name == NULL ? "id" :
	    "class", id);
	return;
}

static void
table_html(FILE *out, const struct table *t, const cJSON *rows)
{
	const cJSON *row;
	char buf[64];
	size_t i;

	fprintf(out, "<table id=\"%s\">\n<tr>", t->id != NULL ? t->id : "rows");
	for (i = 0; i < t->ncols; i++) {
		fputs("<th>", out);
		table_html_escape(out, t->cols[i].label);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	cJSON_ArrayForEach(row, rows) {
		fputs("<tr>", out);
		for (i = 0; i < t->ncols; i++) {
			fputs("<td>", out);
			table_html_escape(out, table_cell(row, t->cols[i].name,
			    true, buf, sizeof(buf)));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	return;
}

static void
table_plain(FILE *out, const struct table *t, const cJSON *rows)
{

	table_text(out, t, rows, false);
	return;
}

static void
table_markdown(FILE *out, const struct table *t, const cJSON *rows)
{

	table_text(out, t, rows, true);
	return;
}

/* The formats, by enum table_format: a new one is an entry and its writer. */
static const struct {
	const char *name;
	bool people;
	void (*write)(FILE *, const struct table *, const cJSON *);
} table_formats[] = {
	[TABLE_TEXT] = { "table", true, table_plain },
	[TABLE_CSV] = { "csv", false, table_csv },
	[TABLE_MARKDOWN] = { "markdown", true, table_markdown },
	[TABLE_JSON] = { "json", false, table_json },
	[TABLE_HTML] = { "html", true, table_html },
	[TABLE_GBENCH] = { "gbench", false, NULL },	/* export.c */
};

#define TABLE_NFORMATS	(sizeof(table_formats) / sizeof(table_formats[0]))

int
table_format_parse(const char *name)
{
	size_t i;

	for (i = 0; i < TABLE_NFORMATS; i++)
		if (strcmp(name, table_formats[i].name) == 0)
			return (int)i;
	return -1;
}

const char *
table_format_list(void)
{
	static char list[128];
	size_t i, used = 0;

	if (list[0] != '\0')
		return list;
	for (i = 0; i < TABLE_NFORMATS; i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
		    "%s%s", i == 0 ? "" : i + 1 < TABLE_NFORMATS ? ", " : " or ",
		    table_formats[i].name);
	return list;
}

bool
table_for_people(enum table_format f)
{

	return table_formats[f].people;
}

void
table_write(FILE *out, enum table_format f, const struct table *t,
    const cJSON *rows)
{

	(table_formats[f].write != NULL ? table_formats[f].write :
	    table_plain)(out, t, rows);
	return;
}
