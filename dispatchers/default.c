/*
 * default.c - Dispatchers.Default: the CoroutineScheduler (scheduler.c)
 * running CPU tasks, with N CPU permits (corePoolSize; the JVM's default
 * is max(CPUs, 2)). A dispatch from one of its workers takes that
 * worker's LIFO slot; a coroutine's yield goes to the back of its ring
 * (dispatchYield: fair), so that `while (true) yield()` cannot starve the
 * others (SchedulerCoroutineDispatcher, kotlinx 1.10-1.11, as scheduler.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "scheduler.h"

struct kdefault {
	struct dispatcher base;
	struct ksched *sched;
};

static void
default_dispatch(struct dispatcher *d, struct disp_task *t)
{

	ksched_dispatch(((struct kdefault *)d)->sched, t, false, false);
	return;
}

static void
default_yield(struct dispatcher *d, struct disp_task *t)
{

	ksched_dispatch(((struct kdefault *)d)->sched, t, false, true);
	return;
}

static int
default_create(struct dispatcher **dp, const struct disp_config *cfg)
{
	struct kdefault *k;
	int error;

	if (cfg->workers == 0)
		return -EINVAL;
	if ((k = calloc(1, sizeof(*k))) == NULL)
		return -ENOMEM;
	k->base.ops = &disp_default;
	error = ksched_create(&k->sched, cfg, cfg->workers,
	    cfg->pool_queue != NULL ? cfg->pool_queue : queue_at(0));
	if (error != 0) {
		free(k);
		return error;
	}
	*dp = &k->base;
	return 0;
}

static void
default_shutdown(struct dispatcher *d, struct disp_stats *st)
{
	struct kdefault *k = (struct kdefault *)d;

	ksched_shutdown(k->sched, st);
	free(k);
	return;
}

const struct disp_ops disp_default = {
	DB_DISP_OPS_HEAD,
	.name = "default",
	.model = "kotlinx Dispatchers.Default: CoroutineScheduler, N CPU permits",
	.flags = DISP_SCHEDULER,
	.counts = KSCHED_COUNTS,
	.create = default_create,
	.dispatch = default_dispatch,
	.yield = default_yield,
	.shutdown = default_shutdown,
};
