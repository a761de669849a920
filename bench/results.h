/*
 * results.h - the results file: a context, and per cell its runs and a
 * summary. The schema is in results/README.md; the names are stable.
 */
#ifndef BENCH_RESULTS_H
#define BENCH_RESULTS_H

#include <cjson/cJSON.h>

#define RESULTS_SCHEMA	1

/* What could skew a number: machine, cpuset, kernel, build, binary. */
cJSON *results_context(int argc, char **argv);

/* Adds {"median", "min", "max"} of every numeric field of the ok runs. */
cJSON *results_summary(const cJSON *runs);

/* The median of a sorted array (n >= 1). */
double results_median(const double *v, size_t n);

/*
 * Writes doc to path through a temporary file and a rename, so a reader
 * sees the old file or the new one, never half of one. 0 or -errno.
 */
int results_write(const cJSON *doc, const char *path);

/* Checks that doc is a results file this build reads; -1 and err if not. */
int results_validate(const cJSON *doc, char *err, size_t errlen);

/* Reads and validates a results file; -1 with a one-line reason if bad. */
int results_read(const char *path, cJSON **docp, char *err, size_t errlen);

#endif /* BENCH_RESULTS_H */
