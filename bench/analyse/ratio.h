/*
 * ratio.h - compare's picture: each cell's ratio of NEW to BASE, drawn by
 * gnuplot.
 */
#ifndef BENCH_RATIO_H
#define BENCH_RATIO_H

#include <stddef.h>

#include <cjson/cJSON.h>

/*
 * A comparison's rows (compare's JSON rows) as one picture, ratio.png and
 * .svg in dir: each cell's ratio and interval, and the +-threshold band;
 * ctx (the new file's context) names the machine and the date.
 */
int ratio_draw(const cJSON *rows, const cJSON *ctx, const char *metric,
    double threshold, const char *dir, char *err, size_t errlen);

#endif /* BENCH_RATIO_H */
