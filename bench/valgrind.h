/*
 * valgrind.h - a counted window that callgrind counts runs in a process
 * under Valgrind: this process's command line run again under it (with
 * callgrind's instrumentation off until the window opens), its output
 * passed on, its dumps in a folder of its own, removed after.
 */
#ifndef BENCH_VALGRIND_H
#define BENCH_VALGRIND_H

#include <stdbool.h>
#include <stddef.h>

struct cell;

/*
 * Finds Valgrind and records its version for the runs and the results'
 * context (count.h's COUNT_VERSION_ENV); -1 with one line in err when it
 * is not installed.
 */
int valgrind_prepare(char *err, size_t len);

/*
 * Whether this process must run again under callgrind to count c: if so,
 * it has, and *status is how that ended; false: this process runs c
 * itself (a timed window, a PMU's count, or already under Valgrind).
 */
bool valgrind_wrap(const struct cell *c, int argc, char **argv, int *status);

#endif /* BENCH_VALGRIND_H */
