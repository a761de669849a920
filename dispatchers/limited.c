/*
 * limited.c - kotlinx LimitedDispatcher: a view of parallelism k over the
 * CoroutineScheduler's blocking tasks (scheduler.c), as Dispatchers.IO is
 * LimitedDispatcher(64) over UnlimitedIoScheduler and
 * Dispatchers.IO.limitedParallelism(k) the same with k.
 *
 * Followed from kotlinx-coroutines-core/common/src/internal/
 * LimitedDispatcher.kt (1.11):
 *  - dispatch (dispatchInternal): queue.addLast(task); if runningWorkers >=
 *    k return; tryAllocateWorker() under the allocation lock; take a task
 *    with obtainTaskOrDeallocateWorker(); dispatch a new Worker holding it
 *    to the pool;
 *  - Worker.run: run the current task, obtain the next one or deallocate;
 *    every 16 tasks re-dispatch itself to the pool and return, still
 *    counted as running ("we are still committed to our part of work");
 *  - obtainTaskOrDeallocateWorker: removeFirstOrNull; when empty, under the
 *    lock decrement runningWorkers, and if the queue is still non-empty
 *    take the slot back and retry.
 * A Worker is allocated per start, as `Worker(task)` is on the JVM, from a
 * list of spent ones: the JVM's collector frees one only when no thief
 * can still read it, and a scheduler's thief may read a task it found in
 * a LIFO slot after that task ran (its submission time). The list is
 * kept under the allocation lock, a JVM monitor (ksched_monitor_init),
 * where a JVM allocation takes no lock. A Worker is dispatched to the
 * scheduler as a blocking task (UnlimitedIoScheduler:
 * dispatchWithContext(BlockingContext, fair = false)), so a re-dispatch
 * from a scheduler thread lands in that thread's LIFO slot, and each
 * running Worker holds a thread without a CPU permit: the scheduler makes
 * threads until created - blocking reaches its core size. --pool sets the
 * core size (0: max(CPUs, 2), as CORE_POOL_SIZE), --pool-queue its global
 * queues (lfseg, as GlobalQueue), apart from the view's own queue.
 *
 * No task is left without a worker: a dispatch pushes its task, then reads
 * runningWorkers; a worker that finds the queue empty decrements
 * runningWorkers, then reads the queue's size. Each pair is a sequentially
 * consistent write then read (lfseg's push ends in a CAS, taskq_put fences
 * the others), so one side sees the other: the worker sees the task and
 * takes its slot back, or the dispatch sees the free slot and starts a
 * worker. The lock only keeps allocations and releases from interleaving.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "hook.h"
#include "knobs.h"
#include "scheduler.h"
#include "taskq.h"

extern const struct db_disp_ops disp_limited;	/* defined below */

#define LIM_FAIRNESS	16	/* kotlinx: "out-of-thin-air constant" */

struct limited {
	struct db_dispatcher base;
	struct taskq tq;
	_Atomic int running;			/* runningWorkers */
	int parallelism;
	pthread_mutex_t lock;			/* workerAllocationLock */
	struct ksched *pool;
	struct lim_worker *spent;		/* under lock: to reuse */
	_Atomic uint64_t ran;
};

struct lim_worker {
	struct db_task task;			/* what the pool runs */
	struct db_task *current;
	struct limited *view;
	struct lim_worker *next;		/* in spent */
};

static bool
lim_try_allocate(struct limited *l)
{
	bool ok;

	pthread_mutex_lock(&l->lock);
	ok = atomic_load(&l->running) < l->parallelism;
	if (ok)
		atomic_fetch_add(&l->running, 1);
	assert(atomic_load(&l->running) <= l->parallelism);
	pthread_mutex_unlock(&l->lock);
	return ok;
}

static struct db_task *
lim_obtain_or_deallocate(struct limited *l)
{
	struct db_task *t;
	bool empty;

	for (;;) {
		t = taskq_take(&l->tq);
		if (t != NULL)
			return t;
		DISP_HOOK("limited: found the queue empty");
		pthread_mutex_lock(&l->lock);
		atomic_fetch_sub(&l->running, 1);
		assert(atomic_load(&l->running) >= 0);
		empty = taskq_empty(&l->tq);
		if (!empty)
			atomic_fetch_add(&l->running, 1);
		pthread_mutex_unlock(&l->lock);
		if (empty)
			return NULL;
		DISP_HOOK("limited: took its slot back");
	}
}

static void
lim_worker_run(struct db_task *self)
{
	struct lim_worker *w = (struct lim_worker *)self;
	struct limited *l = w->view;
	uint64_t ran = 0;
	int fairness = 0;

	for (;;) {
		ran++;
		w->current->fn(w->current);
		w->current = lim_obtain_or_deallocate(l);
		if (w->current == NULL) {
			pthread_mutex_lock(&l->lock);
			w->next = l->spent;
			l->spent = w;
			pthread_mutex_unlock(&l->lock);
			break;
		}
		if (++fairness >= LIM_FAIRNESS) {
			ksched_dispatch(l->pool, &w->task, true, false);
			break;
		}
	}
	atomic_fetch_add_explicit(&l->ran, ran, memory_order_relaxed);
	return;
}

static void
limited_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct limited *l = (struct limited *)d;
	struct lim_worker *w;

	taskq_put(&l->tq, t);
	if (atomic_load(&l->running) >= l->parallelism)
		return;
	if (!lim_try_allocate(l))
		return;
	DISP_HOOK("limited: allocated a worker");
	t = lim_obtain_or_deallocate(l);
	if (t == NULL)
		return;
	pthread_mutex_lock(&l->lock);
	if ((w = l->spent) != NULL)
		l->spent = w->next;
	pthread_mutex_unlock(&l->lock);
	if (w == NULL) {
		if ((w = malloc(sizeof(*w))) == NULL)
			abort();
		w->task = (struct db_task)DB_TASK_INIT(lim_worker_run);
	}
	w->current = t;
	w->view = l;
	ksched_dispatch(l->pool, &w->task, true, false);
	return;
}

static int
limited_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct disp_knobs k;
	struct limited *l;
	int error;

	if (cfg->workers == 0)
		return -EINVAL;
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return -ENOMEM;
	l->base.ops = &disp_limited;
	l->parallelism = (int)cfg->workers;
	ksched_monitor_init(&l->lock);
	error = taskq_init(&l->tq, cfg->queue, cfg->queue_capacity);
	if (error != 0)
		goto out_free;
	k = disp_knobs(cfg);
	error = ksched_create(&l->pool, cfg, k.pool != 0 ? k.pool :
	    ksched_core_pool_size(), k.pool_queue != NULL ? k.pool_queue :
	    queue_at(0));
	if (error != 0)
		goto out_taskq;
	*dp = &l->base;
	return 0;
out_taskq:
	taskq_fini(&l->tq);
out_free:
	pthread_mutex_destroy(&l->lock);
	free(l);
	return error;
}

static void
limited_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct limited *l = (struct limited *)d;
	struct lim_worker *w;

	ksched_shutdown(l->pool, st);
	if (st != NULL) {
		st->ran = atomic_load(&l->ran);
		st->spilled += taskq_spilled(&l->tq);
		taskq_count(&l->tq, st);
	}
	while ((w = l->spent) != NULL) {
		l->spent = w->next;
		free(w);
	}
	taskq_fini(&l->tq);
	pthread_mutex_destroy(&l->lock);
	free(l);
	return;
}

const struct db_disp_ops disp_limited = {
	DB_DISP_OPS_HEAD,
	.name = "limited",
	.model = "kotlinx LimitedDispatcher(k) over the CoroutineScheduler's "
	    "blocking tasks",
	.flags = DB_DISP_USES_QUEUE,
	.counts = KSCHED_COUNTS,		/* its scheduler's */
	.create = limited_create,
	.dispatch = limited_dispatch,
	.shutdown = limited_shutdown,
};
