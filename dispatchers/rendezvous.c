/*
 * rendezvous.c - a direct handoff, as Java's cached thread pool does it
 * over a SynchronousQueue (and Jetty's reserved threads): a dispatch hands
 * the task straight to an idle worker; with none idle it starts a new
 * thread with the task as its first; an idle worker retires after the
 * keep-alive (default 60 s, as Executors.newCachedThreadPool).
 *
 * Idle workers wait in a LIFO list, the order of SynchronousQueue's
 * non-fair TransferStack. A waiting worker spins on its slot (default 128
 * times, JDK 21's SPINS in LinkedTransferQueue.DualNode.await) before it
 * parks. The list is under a mutex: the handoff's price here is the wake-up
 * of a parked thread, which dwarfs the lock.
 *
 * workers = 0 means no bound. With a bound and every thread busy, the task
 * waits in an overflow FIFO that a worker drains before it goes idle, as
 * Jetty's QueuedThreadPool queues jobs at maxThreads. Never run on the
 * caller's thread: a re-dispatch from inside a task would recurse without
 * end (a Java cached pool with CallerRunsPolicy overflows its stack here).
 *
 * No handoff is slept through: the dispatcher takes the worker off the
 * idle list under the lock, stores the task in its slot, then unparks it;
 * the parker keeps a permit given before the park, and the worker reads
 * its slot after every return from park. A worker whose keep-alive runs
 * out as it is claimed finds itself off the list and waits for the task.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <ck_pr.h>

#include "parker.h"
#include "taskfifo.h"

#define RV_SPINS_DEFAULT	128
#define RV_STOP			((struct disp_task *)1)

/*
 * A worker's record outlives its thread, until shutdown joins it: the
 * dispatcher that handed it a task may still be inside parker_unpark on
 * it when the thread runs that task, goes idle and retires (a
 * use-after-free ThreadSanitizer found when the thread freed its own).
 */
struct rv_worker {
	struct parker parker;
	_Atomic(struct disp_task *) slot;	/* the handed task, or RV_STOP */
	struct rv_worker *next_idle;		/* under the lock */
	struct rendezvous *pool;
	struct disp_task *first;
	pthread_t tid;
	struct rv_worker *next;			/* every worker, to join */
};

struct rendezvous {
	struct dispatcher base;
	struct disp_config cfg;
	pthread_mutex_t lock;
	struct rv_worker *idle;			/* LIFO of idle workers */
	struct taskfifo overflow;		/* at the bound */
	unsigned int alive;
	unsigned int peak;
	unsigned int started;
	uint64_t overflowed;			/* dispatches that met the bound */
	struct rv_worker *threads;		/* every worker, to join */
	int stopping;
	_Atomic uint64_t ran;
};

static void *rv_worker_main(void *);

/* Called locked; unlocks. Starts a thread whose first task is t. */
static void
rv_start(struct rendezvous *r, struct disp_task *t)
{
	struct rv_worker *w = calloc(1, sizeof(*w));

	if (w == NULL)
		abort();
	parker_init(&w->parker);
	w->pool = r;
	w->first = t;
	if (++r->alive > r->peak)
		r->peak = r->alive;
	r->started++;
	w->next = r->threads;
	r->threads = w;
	if (disp_thread_spawn(&r->cfg, &w->tid, rv_worker_main, w) != 0)
		abort();
	pthread_mutex_unlock(&r->lock);
	return;
}

static void
rendezvous_dispatch(struct dispatcher *d, struct disp_task *t)
{
	struct rendezvous *r = (struct rendezvous *)d;
	struct rv_worker *w;

	pthread_mutex_lock(&r->lock);
	w = r->idle;
	if (w != NULL) {
		r->idle = w->next_idle;
		pthread_mutex_unlock(&r->lock);
		atomic_store(&w->slot, t);
		parker_unpark(&w->parker);
		return;
	}
	if (r->cfg.workers == 0 || r->alive < r->cfg.workers) {
		rv_start(r, t);
		return;
	}
	r->overflowed++;
	taskfifo_push(&r->overflow, t);
	pthread_mutex_unlock(&r->lock);
	return;
}

/* Called locked: takes w out of the idle list if it is still there. */
static bool
rv_unlist(struct rendezvous *r, struct rv_worker *w)
{
	struct rv_worker **p;

	for (p = &r->idle; *p != NULL; p = &(*p)->next_idle) {
		if (*p == w) {
			*p = w->next_idle;
			return true;
		}
	}
	return false;
}

/*
 * Waits for a handed task: spins, then parks up to the keep-alive. Returns
 * NULL when the worker retires.
 */
static struct disp_task *
rv_await(struct rendezvous *r, struct rv_worker *w)
{
	long long keepalive = (long long)(r->cfg.keepalive_s * 1e9);
	struct disp_task *t;
	int i;

	for (i = 0; i < r->cfg.spins; i++) {
		if ((t = atomic_exchange(&w->slot, NULL)) != NULL)
			return t;
		ck_pr_stall();
	}
	for (;;) {
		if ((t = atomic_exchange(&w->slot, NULL)) != NULL)
			return t;
		if (parker_park(&w->parker, keepalive) ||
		    atomic_load(&w->slot) != NULL)
			continue;
		pthread_mutex_lock(&r->lock);
		if (rv_unlist(r, w)) {
			r->alive--;
			pthread_mutex_unlock(&r->lock);
			return NULL;
		}
		/* Claimed as the keep-alive ran out: the task is on its way. */
		pthread_mutex_unlock(&r->lock);
	}
}

static void *
rv_worker_main(void *arg)
{
	struct rv_worker *w = arg;
	struct rendezvous *r = w->pool;
	struct disp_task *t = w->first;
	uint64_t ran = 0;

	while (t != NULL && t != RV_STOP) {
		ran++;
		t->fn(t);
		pthread_mutex_lock(&r->lock);
		t = taskfifo_pop(&r->overflow);
		if (t == NULL && r->stopping) {
			r->alive--;
			pthread_mutex_unlock(&r->lock);
			break;
		}
		if (t == NULL) {
			w->next_idle = r->idle;
			r->idle = w;
		}
		pthread_mutex_unlock(&r->lock);
		if (t == NULL)
			t = rv_await(r, w);
	}
	atomic_fetch_add_explicit(&r->ran, ran, memory_order_relaxed);
	return NULL;
}

static int
rendezvous_create(struct dispatcher **dp, const struct disp_config *cfg)
{
	struct rendezvous *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return -ENOMEM;
	r->base.ops = &disp_rendezvous;
	r->cfg = *cfg;
	if (r->cfg.spins == DISP_SPINS_DEFAULT)
		r->cfg.spins = RV_SPINS_DEFAULT;
	if (r->cfg.keepalive_s <= 0)
		r->cfg.keepalive_s = 60;
	pthread_mutex_init(&r->lock, NULL);
	*dp = &r->base;
	return 0;
}

static void
rendezvous_shutdown(struct dispatcher *d, struct disp_stats *st)
{
	struct rendezvous *r = (struct rendezvous *)d;
	struct rv_worker *w, *next;

	pthread_mutex_lock(&r->lock);
	r->stopping = 1;
	while ((w = r->idle) != NULL) {
		r->idle = w->next_idle;
		atomic_store(&w->slot, RV_STOP);
		parker_unpark(&w->parker);
	}
	pthread_mutex_unlock(&r->lock);
	for (w = r->threads; w != NULL; w = next) {
		next = w->next;
		pthread_join(w->tid, NULL);
		free(w);
	}
	if (st != NULL) {
		st->ran = atomic_load(&r->ran);
		st->spilled = r->overflowed;
		st->threads_started = r->started;
		st->threads_peak = r->peak;
	}
	pthread_mutex_destroy(&r->lock);
	free(r);
	return;
}

const struct disp_ops disp_rendezvous = {
	.name = "rendezvous",
	.model = "SynchronousQueue handoff to an idle thread, else a new thread",
	.flags = DISP_GROWS,
	.create = rendezvous_create,
	.dispatch = rendezvous_dispatch,
	.shutdown = rendezvous_shutdown,
};
