/*
 * figure.h - a results file's pictures, drawn by gnuplot: one figure per
 * metric against workers, advise.png of an advise file (sizing.h) and
 * beside.png of its real runtimes.
 */
#ifndef BENCH_FIGURE_H
#define BENCH_FIGURE_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Draws doc's figures into dir as PNG and SVG; 0, or -1 with err. */
int figure_results(const cJSON *doc, const char *dir, char *err,
    size_t errlen);

#endif /* BENCH_FIGURE_H */
