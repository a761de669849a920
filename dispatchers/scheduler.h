/*
 * scheduler.h - a model of kotlinx.coroutines' CoroutineScheduler, the
 * threads under Dispatchers.Default and Dispatchers.IO: the designs
 * `default` (its CPU tasks) and `limited` (LimitedDispatcher over its
 * blocking tasks) run on it. See scheduler.c.
 */
#ifndef DISPATCHERS_SCHEDULER_H
#define DISPATCHERS_SCHEDULER_H

#include <pthread.h>

#include "designs.h"

struct ksched;

/*
 * core: the CPU permits (corePoolSize); the global queues are q (lfseg as
 * kotlinx's GlobalQueue, or any other). Returns 0 or a negative errno.
 */
int ksched_create(struct ksched **sp, const struct db_disp_config *cfg,
    unsigned int core, const struct db_queue_ops *q);

/*
 * CoroutineScheduler.dispatch: a blocking task (Dispatchers.IO's) or a CPU
 * task (Default's); fair: to the back of a worker's queue (dispatchYield)
 * rather than its LIFO slot.
 */
void ksched_dispatch(struct ksched *s, struct db_task *t, bool blocking,
    bool fair);

/* Runs what is queued, joins every thread, adds its figures to st. */
void ksched_shutdown(struct ksched *s, struct db_disp_stats *st);

/*
 * A lock as kotlinx takes one on the JVM (synchronized): HotSpot's
 * monitor spins on a held lock before it parks (ObjectMonitor::TrySpin),
 * as glibc's adaptive mutex does, where a default pthread mutex sleeps in
 * the kernel at once.
 */
void ksched_monitor_init(pthread_mutex_t *m);

/* CORE_POOL_SIZE: max(availableProcessors, 2). */
unsigned int ksched_core_pool_size(void);

/* What the scheduler counts (DB_DISP_COUNT()s). */
#define KSCHED_COUNTS							\
	(DB_DISP_COUNT(injected) | DB_DISP_COUNT(steals) |		\
	DB_DISP_COUNT(lifo_hits) | DB_DISP_COUNT(unparks))

#endif /* DISPATCHERS_SCHEDULER_H */
