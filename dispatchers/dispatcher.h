/*
 * dispatcher.h - the suite's designs: the interface
 * (dispatchbench/dispatcher.h), the registry and the thread helper.
 *
 * Each design is a const struct disp_ops in its own file, listed here and
 * selected by name.
 */
#ifndef DISPATCHERS_DISPATCHER_H
#define DISPATCHERS_DISPATCHER_H

#include <pthread.h>

#include <dispatchbench/dispatcher.h>

#include "program.h"
#include "queue.h"
#include "runtimes.h"

const struct disp_ops *disp_find(const char *name);	/* NULL if unknown */
size_t disp_count(void);
/*
 * The designs that run in this process: every one but the programs of
 * their own, which come last (disp_at(0 .. disp_local_count() - 1)).
 */
size_t disp_local_count(void);
const struct disp_ops *disp_at(size_t i);
/* The first design, in the registry's order, with every one of flags. */
const struct disp_ops *disp_with(unsigned int flags);

/*
 * Starts fn(arg) on a new thread that first calls cfg->thread_start with
 * index, the thread's place in the design.
 */
int disp_thread_spawn(const struct disp_config *cfg, unsigned int index,
    pthread_t *tid, void *(*fn)(void *), void *arg);

/*
 * Every design, in the order `list` shows them: X(name) for the design
 * disp_<name> defined in <name>.c. A new design is its file, a line here
 * and a line in CMakeLists.txt. The real runtimes this build found follow
 * the models (runtimes/), and the programs of other languages' runtimes
 * follow those (DISP_PROGRAMS).
 */
#define DISP_DESIGNS(X)							\
	X(inline)							\
	X(shared)							\
	X(limited)							\
	X(rendezvous)							\
	X(eventloop)							\
	X(stealing)							\
	X(default)							\
	DISP_RUNTIMES(X)

#define DISP_EXTERN(n)	extern const struct disp_ops disp_##n;
DISP_DESIGNS(DISP_EXTERN)
#undef DISP_EXTERN
#define PROGRAM_EXTERN(n, ...)	extern const struct program program_##n;
DISP_PROGRAMS(PROGRAM_EXTERN)
#undef PROGRAM_EXTERN

#endif /* DISPATCHERS_DISPATCHER_H */
