/*
 * plot.h - pictures of a results file, drawn by gnuplot.
 */
#ifndef BENCH_PLOT_H
#define BENCH_PLOT_H

#include <cjson/cJSON.h>

/* Draws doc's figures into dir as PNG and SVG; 0, or -1 with err. */
int plot_results(const cJSON *doc, const char *dir, char *err, size_t errlen);

#endif /* BENCH_PLOT_H */
