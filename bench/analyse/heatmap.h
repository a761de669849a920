/*
 * heatmap.h - matrix's pictures: a handoff's cost between every pair of
 * PUs, drawn by gnuplot.
 */
#ifndef BENCH_HEATMAP_H
#define BENCH_HEATMAP_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * The handoff matrix (matrix's rows: from, to, shares, line_ns, queue_ns)
 * as heatmaps in dir: matrix_line_ns and, with a queue, matrix_queue_ns.
 */
int heatmap_matrix(const cJSON *rows, const char *queue, const char *dir,
    char *err, size_t errlen);

#endif /* BENCH_HEATMAP_H */
