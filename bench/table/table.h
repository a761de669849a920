/*
 * table.h - one renderer for every table the tool writes: rows as JSON
 * objects keyed by the columns' stable names, written as an aligned text
 * table, CSV (RFC 4180), Markdown, JSON rows or HTML rows. The formats
 * for people (text, Markdown, HTML) head each column with its quantity and
 * unit and give numbers three significant figures; CSV and JSON keep the
 * stable names and every digit. `run`, `export`, `compare` and `report`
 * all write through it.
 */
#ifndef BENCH_TABLE_H
#define BENCH_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

enum table_format {
	TABLE_TEXT,
	TABLE_CSV,
	TABLE_MARKDOWN,
	TABLE_JSON,
	TABLE_HTML,
	TABLE_GBENCH		/* not rows: google-benchmark's JSON (export.h) */
};

/* "table", "csv", "markdown", "json", "html", "gbench"; -1 if none. */
int table_format_parse(const char *name);

/* "table, csv, markdown, json, html or gbench". */
const char *table_format_list(void);

/* Whether f is for people (labels, three figures) or for programs. */
bool table_for_people(enum table_format f);

struct table_col {
	const char *name;		/* the row's key: CSV header, JSON key */
	const char *label;		/* for people: quantity and unit */
};

struct table {
	const char *id;			/* HTML: the table's id */
	const struct table_col *cols;
	size_t ncols;
};

/*
 * Writes rows (an array of objects; a missing or null value is empty, "-"
 * for people) in format f, a header first.
 */
void table_write(FILE *out, enum table_format f, const struct table *t,
    const cJSON *rows);

/* A number to three significant figures, without an exponent when it fits. */
const char *table_sig3(double v, char *buf, size_t len);

/*
 * v, a quantity in unit, scaled for reading: two significant figures (the
 * whole number from 10 up: 650 ns); a time in µs to ns, µs, ms or s
 * ("4.6 ns", not 0.00464 µs); any other unit with k, M, G or T before it
 * ("4.9 M ops/s"). "-" when v is not a number.
 */
const char *table_scaled(double v, const char *unit, char *buf, size_t len);

/* s with HTML's special characters escaped. */
void table_html_escape(FILE *out, const char *s);
/* The same, of s's first n bytes. */
void table_html_escape_n(FILE *out, const char *s, size_t n);

/*
 * <h2>title</h2>, or <h2>title join name</h2> for one machine of several
 * (name escaped), then the element that follows it, opened: tag with
 * id="id" alone, class="id" under a name (one page may have several).
 */
void table_html_section(FILE *out, const char *title, const char *join,
    const char *name, const char *tag, const char *id);

#endif /* BENCH_TABLE_H */
