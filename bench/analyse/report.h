/*
 * report.h - a results file as one self-contained HTML page: its context,
 * its summary table, its memory fits and its figures (gnuplot's SVG,
 * inlined), so it opens in a browser with no network and no other file.
 */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Writes the page to path (temporary file, then rename); 0, or -1 and err. */
int report_write(const cJSON *doc, const char *path, char *err,
    size_t errlen);

/*
 * The same, of an advise file: the page opens with advice, as `advise
 * --from` of it prints it in HTML (its paragraphs, its table), then its
 * picture, before what the cells say.
 */
int report_write_advised(const cJSON *doc, const char *advice,
    const char *path, char *err, size_t errlen);

#endif /* BENCH_REPORT_H */
