/*
 * designs.h - the suite's designs: the interface
 * (dispatchbench/dispatcher.h), the registry and the thread helper.
 *
 * Each design is a const struct db_disp_ops in its own file, listed in
 * disp_list.h and selected by name.
 */
#ifndef DISPATCHERS_DESIGNS_H
#define DISPATCHERS_DESIGNS_H

#include <pthread.h>

#include <dispatchbench/dispatcher.h>

#include "programs.h"
#include "queues.h"

/* The counters' names, by enum db_disp_counter. */
extern const char *const disp_counter_names[DB_DISP_NCOUNTERS];

/*
 * The words of a task (dispatchbench/dispatcher.h) the suite's designs
 * keep: the loop it belongs to (eventloop and the runtimes' loops), a
 * runtime's state word (stealing, scheduler) and when it was submitted
 * (scheduler), in ns. stealing's goroutines keep their g in both words
 * (gstack.h).
 */
#define DISP_TASK_HOME(t)	((t)->word[0].ptr)
#define DISP_TASK_STATE(t)	((t)->word[0].u64)
#define DISP_TASK_STAMP(t)	((t)->word[1].u64)

const struct db_disp_ops *disp_find(const char *name);	/* NULL if unknown */
size_t disp_count(void);
/*
 * The designs that run in this process: every one but the programs of
 * their own, which come last (disp_at(0 .. disp_local_count() - 1)).
 */
size_t disp_local_count(void);
const struct db_disp_ops *disp_at(size_t i);
/* The first design, in the registry's order, with every one of flags. */
const struct db_disp_ops *disp_with(unsigned int flags);

/*
 * Starts fn(arg) on a new thread that first calls cfg->thread_start with
 * index, the thread's place in the design.
 */
int disp_thread_spawn(const struct db_disp_config *cfg, unsigned int index,
    pthread_t *tid, void *(*fn)(void *), void *arg);

#endif /* DISPATCHERS_DESIGNS_H */
