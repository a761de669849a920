/*
 * export.h - a results file as other tools and readers take it: the
 * summary table, CSV, Markdown, JSON rows, and google-benchmark's JSON
 * (context + benchmarks), which its compare.py and dashboards read.
 */
#ifndef BENCH_EXPORT_H
#define BENCH_EXPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

enum export_format {
	EXPORT_TABLE,
	EXPORT_CSV,
	EXPORT_MARKDOWN,
	EXPORT_JSON,
	EXPORT_GBENCH
};

/* "table", "csv", "markdown", "json", "gbench"; -1 if none of them. */
int export_format_parse(const char *name, enum export_format *f);

/* Writes doc's cells in format f. */
void export_write(FILE *out, const cJSON *doc, enum export_format f);

/* The anonymous memory each added thread costs, per worker sweep. */
void export_memory_fits(FILE *out, const cJSON *doc);

#endif /* BENCH_EXPORT_H */
