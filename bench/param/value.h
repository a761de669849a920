/*
 * value.h - a parameter's value (param.h), by its kind: one table of
 * kinds says how many bytes a value takes, how its text is read and
 * checked, how it is written back (a child's command line, a cell's key)
 * and whether a results file records it as a number.
 */
#ifndef BENCH_VALUE_H
#define BENCH_VALUE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "param.h"
#include "sweep.h"

/*
 * Reads text as p's value into v: range-checked when check (a default
 * need not be), a design or a queue found by name or loaded as a plugin.
 * A bad value is one line in err and -1.
 */
int value_parse(const struct param *p, const char *text, union param_value *v,
    bool check, char *err, size_t errlen);

/* Copies v to the field at (a struct cell's or a sweep's), and back. */
void value_store(const struct param *p, void *at, const union param_value *v);
void value_load(const struct param *p, const void *at, union param_value *v);

/* v as text, as the command line takes it (into buf when not a name). */
const char *value_format(const struct param *p, const union param_value *v,
    char *buf, size_t len);

/* Whether a and b, both of p, are one value (a design or queue: one ops). */
bool value_same(const struct param *p, const union param_value *a,
    const union param_value *b);

/* Adds v to o under p's key: a number where the kind is one, else text. */
void value_json(cJSON *o, const struct param *p, const union param_value *v);

#endif /* BENCH_VALUE_H */
