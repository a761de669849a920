/*
 * programs.h - a design that is a program of its own: a real runtime in
 * another language (Go, Rust, the JVM), or a user's, run through the
 * external-program protocol (docs/external.md) and measured from outside
 * (bench/measure/program.c).
 *
 * Its ops table names it and says what it is (real, beside, flags with
 * DB_DISP_PROGRAM); it has no functions: nothing of it runs in this process.
 */
#ifndef DISPATCHERS_PROGRAMS_H
#define DISPATCHERS_PROGRAMS_H

#include <dispatchbench/dispatcher.h>

#define PROGRAM_PROTOCOL	1	/* docs/external.md's version */

struct program {
	struct db_disp_ops ops;
	/* The command, before the suite's --workers N --coroutines C. */
	const char *const *argv;
};

static inline const struct program *
program_of(const struct db_disp_ops *d)
{

	return d->flags & DB_DISP_PROGRAM ? (const struct program *)d : NULL;
}

#endif /* DISPATCHERS_PROGRAMS_H */
