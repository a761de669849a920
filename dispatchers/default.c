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

#include "knobs.h"
#include "scheduler.h"

extern const struct db_disp_ops disp_default;	/* defined below */

struct kdefault {
	struct db_dispatcher base;
	struct ksched *sched;
};

static void
default_dispatch(struct db_dispatcher *d, struct db_task *t)
{

	ksched_dispatch(((struct kdefault *)d)->sched, t, false, false);
	return;
}

static void
default_yield(struct db_dispatcher *d, struct db_task *t)
{

	ksched_dispatch(((struct kdefault *)d)->sched, t, false, true);
	return;
}

static int
default_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct disp_knobs kn = disp_knobs(cfg);
	struct kdefault *k;
	int error;

	if (cfg->workers == 0)
		return -EINVAL;
	if ((k = calloc(1, sizeof(*k))) == NULL)
		return -ENOMEM;
	k->base.ops = &disp_default;
	error = ksched_create(&k->sched, cfg, cfg->workers,
	    kn.pool_queue != NULL ? kn.pool_queue : queue_at(0));
	if (error != 0) {
		free(k);
		return error;
	}
	*dp = &k->base;
	return 0;
}

static void
default_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct kdefault *k = (struct kdefault *)d;

	ksched_shutdown(k->sched, st);
	free(k);
	return;
}

const struct db_disp_ops disp_default = {
	DB_DISP_OPS_HEAD,
	.name = "default",
	.model = "kotlinx Dispatchers.Default: CoroutineScheduler, N CPU permits",
	.counts = KSCHED_COUNTS,
	.create = default_create,
	.dispatch = default_dispatch,
	.yield = default_yield,
	.shutdown = default_shutdown,
};
