/*
 * params.h - a results file's cells read through the parameter table
 * (param.h): each one's value, its key, the names of its design and its
 * series.
 */
#ifndef BENCH_PARAMS_H
#define BENCH_PARAMS_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "param.h"

/*
 * A cell's value of p as text (into buf when it is a number), or NULL when
 * p does not apply to it; a field a file predates reads as its default.
 */
const char *params_value(const struct param *p, const cJSON *cell, char *buf,
    size_t len);

/*
 * A cell of a results file, as text, from its fields (a field a file
 * predates reads as its default):
 *  - params_key: every P_KEY parameter that applies, with its label; the
 *    key two files' cells are matched by. Without the width (workers
 *    false): the cells a worker sweep draws as one line;
 *  - params_design: the design's name and its own knobs' values, each a
 *    variant of it: a choice's suffix (stealing-fifo), another knob's
 *    label and value when not at its default;
 *  - params_series: the design, its queue, and the other key parameters
 *    that are not at their defaults; " unbounded" without a bound;
 *  - params_same_but: whether a and b are one cell but for the parameter
 *    of that key (a real runtime's cell and its model's); params_same_except
 *    but for every parameter of keys.
 */
void params_key(const cJSON *cell, bool workers, char *buf, size_t len);
bool params_same_but(const cJSON *a, const cJSON *b, const char *key);
bool params_same_except(const cJSON *a, const cJSON *b,
    const char *const *keys, size_t nkeys);
const char *params_design(const cJSON *cell, char *buf, size_t len);
void params_series(const cJSON *cell, char *buf, size_t len);

#endif /* BENCH_PARAMS_H */
