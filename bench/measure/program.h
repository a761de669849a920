/*
 * program.h - a run of a design that is a program of its own, measured
 * from outside (docs/external.md).
 */
#ifndef BENCH_PROGRAM_H
#define BENCH_PROGRAM_H

#include <cjson/cJSON.h>

#include "cell.h"

/*
 * Starts c's program, measures its window and stops it, as cell_run does
 * a design of this process; the program never outlives the call.
 */
cJSON *program_run(const struct cell *c, const struct cell_window *win);

/* The longest program_run of c can take, its start included. */
double program_deadline(const struct cell *c, const struct cell_window *win);

#endif /* BENCH_PROGRAM_H */
