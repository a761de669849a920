/*
 * export.h - a results file as other tools and readers take it: a row per
 * cell in any of table.h's formats, or google-benchmark's JSON (context +
 * benchmarks), which its compare.py and dashboards read.
 */
#ifndef BENCH_EXPORT_H
#define BENCH_EXPORT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "table.h"

/*
 * Writes doc's cells in format f, one row per cell; gbench is
 * google-benchmark's JSON of the runs. id names an HTML table.
 */
void export_write(FILE *out, const cJSON *doc, enum table_format f,
    const char *id);

/* One row per cell, every column of every format (table.h). */
cJSON *export_rows(const cJSON *doc);

/*
 * The harness's own cost in one sentence, in buf: `inline` on the
 * resume-only workload over the bare loop (the medians over the cells);
 * NULL when no run measured the loop.
 */
const char *export_harness_words(const cJSON *doc, char *buf, size_t len);

/*
 * The anonymous memory each added thread costs, per worker sweep (of a
 * merged file: per machine, each line after its name).
 */
void export_memory_fits(FILE *out, const cJSON *doc);

#endif /* BENCH_EXPORT_H */
