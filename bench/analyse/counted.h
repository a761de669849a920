/*
 * counted.h - a figure counted, not timed: instructions_per_dispatch, the
 * instructions a counted window executes (callgrind, or the PMU's
 * instructions:u) over its dispatches, which a machine's speed does not
 * move. A side whose ok runs, two or more, all count the same is exact:
 * with every instruction real, two exact sides need no statistics, and
 * any change between them is the code's. A side whose counts vary run to
 * run (a contended cell) is judged as a timed figure. What counted two
 * sides must be the same tool, of the same version; and where the
 * instructions went is told function by function.
 *
 * The counted_* namespace reads arrays and results as JSON; nothing
 * prints but counted_write_functions.
 */
#ifndef BENCH_COUNTED_H
#define BENCH_COUNTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "runfields.h"

#define COUNTED_METRIC		RF(instructions_per_dispatch)
#define COUNTED_FUNCTIONS	5	/* named where a count moved */

/* Whether metric is the counted one. */
bool counted_metric(const char *metric);

/* Two values or more, all one: a side whose count is known. */
bool counted_exact(const double *v, size_t n);

/*
 * The verdict of two exact sides, a BASE's count and b NEW's: equivalent
 * when they are equal, or when threshold (0: none given) is and the change
 * lies under it; else regressed for more instructions, improved for fewer.
 * Why in words: "+1.3 % instructions (exact: 312.0 -> 316.0 a dispatch)".
 */
const char *counted_verdict(double a, double b, double threshold, char *why,
    size_t len);

/*
 * "counts vary run to run (spread 0.8 %): judged as a timed figure", the
 * spread the larger of the sides' (max - min) / median, then what why held
 * after "; "; into why.
 */
void counted_as_timed(const double *va, size_t na, const double *vb,
    size_t nb, char *why, size_t len);

/*
 * 0 when every run of base and new that says what counted it
 * (instructions_counter, instructions_counter_version) says the same;
 * else -1 and one line in err: "BASE counted with callgrind
 * (valgrind-3.19.0), NEW with perf (6.1.0): not the same quantity".
 */
int counted_same_counter(const cJSON *base, const cJSON *new, char *err,
    size_t errlen);

/*
 * Of runs[0..n), the ok ones with a positive field and an
 * instructions_by_function object, the one at their median (the lower
 * of two); NULL when none is.
 */
const cJSON *counted_median_run(const cJSON *const *runs, size_t n,
    const char *field);

/* The same of a JSON array of runs (a cell's "runs"). */
const cJSON *counted_median_in(const cJSON *runs, const char *field);

/*
 * The COUNTED_FUNCTIONS functions whose self instructions a dispatch
 * moved most from run a to run b (instructions_by_function), largest
 * first: an array of { function, base, new, change }, base or new null
 * where that side's top functions leave it out (counted as 0 in change).
 */
cJSON *counted_functions(const cJSON *a, const cJSON *b);

/*
 * counted_functions' entries, a line each: "    mutex_push  +4.00 a
 * dispatch (12.00 -> 16.00)", names padded to the longest.
 */
void counted_write_functions(FILE *out, const cJSON *fns);

#endif /* BENCH_COUNTED_H */
