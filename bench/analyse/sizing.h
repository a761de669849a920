/*
 * sizing.h - advise.png, the picture of an advise file: a pool size's
 * capacity, cost and p99 against its width, drawn by gnuplot.
 */
#ifndef BENCH_SIZING_H
#define BENCH_SIZING_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * advise.png: of a file that holds one design under a blocking load
 * beside resume-only, capacity against width with the target rate, the
 * cost of a dispatch on the second axis; below, the p99 with its bound.
 * A split is drawn against its view's width. Every width of the table
 * labelled on the axis, and the width advise recommends marked across
 * both. Nothing for other files. 0, or -1 with err.
 */
int sizing_draw(const cJSON *doc, const char *dir, char *err, size_t errlen);

#endif /* BENCH_SIZING_H */
