/*
 * plot.h - pictures of a results file, drawn by gnuplot.
 */
#ifndef BENCH_PLOT_H
#define BENCH_PLOT_H

#include <cjson/cJSON.h>

/* Draws doc's figures into dir as PNG and SVG; 0, or -1 with err. */
int plot_results(const cJSON *doc, const char *dir, char *err, size_t errlen);

/*
 * A comparison's rows (compare's JSON rows) as one picture, ratio.png and
 * .svg in dir: each cell's ratio and interval, and the +-threshold band;
 * ctx (the new file's context) names the machine and the date.
 */
int plot_compare(const cJSON *rows, const cJSON *ctx, const char *metric,
    double threshold, const char *dir, char *err, size_t errlen);

/*
 * The handoff matrix (matrix's rows: from, to, shares, line_ns, queue_ns)
 * as heatmaps in dir: matrix_line_ns and, with a queue, matrix_queue_ns.
 */
int plot_matrix(const cJSON *rows, const char *queue, const char *dir,
    char *err, size_t errlen);

#endif /* BENCH_PLOT_H */
