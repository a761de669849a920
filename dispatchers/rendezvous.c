/*
 * rendezvous.c - a direct handoff, as Java's cached thread pool does it:
 * a ThreadPoolExecutor over a non-fair SynchronousQueue (JDK 21), and
 * Jetty's reserved threads. A dispatch hands the task straight to an idle
 * worker; with none idle it starts a new thread with the task as its
 * first; an idle worker retires after the keep-alive (default 60 s, as
 * Executors.newCachedThreadPool).
 *
 * Followed from JDK 21 (java/util/concurrent): ThreadPoolExecutor.execute
 * -> workQueue.offer(task), else addWorker(task); a worker's getTask ->
 * workQueue.poll(keepAliveTime); SynchronousQueue.Transferer.xferLifo
 * over LinkedTransferQueue.DualNode:
 *  - an idle worker pushes its node on a stack with a CAS (cmpExHead) and
 *    waits in DualNode.await: it spins SPINS (128) times only if the node
 *    it was pushed on is absent or itself still spinning (its waiter not
 *    yet set), never on one CPU; then it sets its waiter, fences, checks
 *    again and parks, up to the keep-alive, spinning instead when less
 *    than SPIN_FOR_TIMEOUT_THRESHOLD (1024 ns) is left;
 *  - offer matches the top waiting node with a CAS on its item and
 *    unparks its waiter if it has set one; with none it fails at once;
 *  - addWorker counts the worker in with a CAS (ctl) and starts its thread
 *    outside mainLock, which only guards the set of workers;
 *  - a worker whose poll times out cancels its node (a CAS of its item to
 *    an impossible value), counts itself out and ends.
 * JDK 21 matches the node first and pops it after (a later walk collapses
 * a matched node left below a newer one); a C stack without a garbage
 * collector pops first, ABA-safe (a version beside the top, as kotlinx's
 * parkedWorkersStack), then matches: the same two CASes, and a node is
 * never left linked once matched. A cancelled node stays until a
 * dispatch pops and skips it.
 *
 * workers = 0 means no bound, as the cached pool. With a bound and every
 * thread busy, ThreadPoolExecutor would reject the task; here it waits in
 * an overflow FIFO under a mutex that a worker drains before it goes idle,
 * as Jetty's QueuedThreadPool queues jobs at maxThreads: a queue in front
 * of the handoff, not part of SynchronousQueue. Never run on the caller's
 * thread: a re-dispatch from inside a task would recurse without end (a
 * cached pool with CallerRunsPolicy overflows its stack here).
 *
 * No handoff is slept through: the dispatch's item CAS and the worker's
 * waiter store are each followed by a full fence before the other side's
 * read (DualNode's Dekker-like scheme), and the parker keeps an unpark
 * given before the park. An idle worker and a dispatch that meets the
 * bound (or shutdown) each publish, fence, then look at the other: a
 * worker that finds overflow (or stopping) after it pushed itself hands
 * the top waiter, maybe itself, a drain (or stop). A dispatch that met
 * the bound and the last worker retiring each count, fence, then look at
 * the other: one of them starts a worker to drain the overflow.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include <ck_pr.h>

#include "hook.h"
#include "knobs.h"
#include "parker.h"
#include "taskfifo.h"

extern const struct db_disp_ops disp_rendezvous;	/* defined below */

#define RV_SPINS_DEFAULT	128		/* DualNode.SPINS */
#define RV_SPIN_FOR_TIMEOUT_NS	1024		/* SPIN_FOR_TIMEOUT_THRESHOLD */
#define RV_CANCELLED		((struct db_task *)1)
#define RV_STOP			((struct db_task *)2)
#define RV_DRAIN		((struct db_task *)3)

/* The stack's top: a worker's address below bit 48, a version above. */
#define RV_PTR_MASK		((UINT64_C(1) << 48) - 1)
#define RV_VERSION_ONE		(UINT64_C(1) << 48)

/*
 * A worker and its DualNode. The record outlives its thread, until
 * shutdown joins it: a dispatch may still pop its node (cancelled) or be
 * inside parker_unpark on it.
 */
struct rv_worker {
	_Atomic(struct rv_worker *) below;	/* in the idle stack */
	_Atomic(struct db_task *) item;	/* NULL: waiting, else matched */
	_Atomic bool waiter;			/* set before it parks */
	struct parker parker;
	struct rendezvous *pool;
	struct db_task *first;
	pthread_t tid;
	struct rv_worker *next;			/* every worker, to join */
	uint64_t ran, spins, unparks;
};

struct rendezvous {
	struct db_dispatcher base;
	struct db_disp_config cfg;
	struct disp_knobs k;
	_Atomic uint64_t idle;			/* SynchronousQueue's stack */
	_Atomic unsigned int ctl;		/* workers alive */
	_Atomic int stopping;
	_Atomic unsigned int overflowing;	/* tasks in overflow */
	bool uniprocessor;
	pthread_mutex_t lock;			/* mainLock, and overflow */
	struct taskfifo overflow;		/* at the bound */
	struct rv_worker *threads;		/* every worker, to join */
	unsigned int peak, started;
	uint64_t overflowed;			/* dispatches that met the bound */
};

static void *rv_worker_main(void *);

/* xferLifo's push (cmpExHead); returns the node it was pushed on. */
static struct rv_worker *
rv_push(struct rendezvous *r, struct rv_worker *w)
{
	uint64_t top = atomic_load(&r->idle);
	struct rv_worker *below;

	do {
		below = (struct rv_worker *)(uintptr_t)(top & RV_PTR_MASK);
		atomic_store_explicit(&w->below, below, memory_order_relaxed);
	} while (!atomic_compare_exchange_weak(&r->idle, &top,
	    (top & ~RV_PTR_MASK) | (uintptr_t)w));
	return below;
}

/* The top waiting node, popped; NULL with none. */
static struct rv_worker *
rv_pop(struct rendezvous *r)
{
	uint64_t top = atomic_load(&r->idle);
	struct rv_worker *w, *below;

	do {
		if ((w = (struct rv_worker *)(uintptr_t)(top & RV_PTR_MASK)) ==
		    NULL)
			return NULL;
		below = atomic_load_explicit(&w->below, memory_order_relaxed);
	} while (!atomic_compare_exchange_weak(&r->idle, &top,
	    ((top + RV_VERSION_ONE) & ~RV_PTR_MASK) | (uintptr_t)below));
	return w;
}

/* xferLifo's match: the item, then the waiter's unpark if it set one. */
static bool
rv_match(struct rv_worker *w, struct db_task *t)
{
	struct db_task *expected = NULL;

	if (!atomic_compare_exchange_strong(&w->item, &expected, t))
		return false;			/* cancelled: skip it */
	if (atomic_load(&w->waiter))
		parker_unpark(&w->parker);
	return true;
}

/* offer(t): true if a waiting worker took it. */
static bool
rv_offer(struct rendezvous *r, struct db_task *t)
{
	struct rv_worker *w;

	while ((w = rv_pop(r)) != NULL)
		if (rv_match(w, t))
			return true;
	return false;
}

/* addWorker: count it in (CAS), list it under mainLock, start it outside. */
static bool
rv_add_worker(struct rendezvous *r, struct db_task *t)
{
	unsigned int c = atomic_load(&r->ctl);
	struct rv_worker *w;

	do
		if (r->cfg.workers != 0 && c >= r->cfg.workers)
			return false;
	while (!atomic_compare_exchange_weak(&r->ctl, &c, c + 1));
	if ((w = calloc(1, sizeof(*w))) == NULL)
		abort();
	parker_init(&w->parker);
	w->pool = r;
	w->first = t;
	if (disp_thread_spawn(&r->cfg, c, &w->tid, rv_worker_main, w) != 0)
		abort();
	pthread_mutex_lock(&r->lock);
	r->started++;
	r->peak = c + 1 > r->peak ? c + 1 : r->peak;
	w->next = r->threads;
	r->threads = w;
	pthread_mutex_unlock(&r->lock);
	return true;
}

/*
 * Hands the top waiter, maybe the caller itself, a drain; a stop goes to
 * every waiter.
 */
static void
rv_hand(struct rendezvous *r, struct db_task *what)
{
	struct rv_worker *w;

	while ((w = rv_pop(r)) != NULL)
		if (rv_match(w, what) && what != RV_STOP)
			return;
	return;
}

static long long
rv_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void
rendezvous_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct rendezvous *r = (struct rendezvous *)d;

	if (rv_offer(r, t) || rv_add_worker(r, t))
		return;
	DISP_HOOK("rendezvous: met the bound");
	pthread_mutex_lock(&r->lock);
	r->overflowed++;
	taskfifo_push(&r->overflow, t);
	atomic_fetch_add(&r->overflowing, 1);
	pthread_mutex_unlock(&r->lock);
	/* A worker may have gone idle since the offer: one of us sees it. */
	rv_hand(r, RV_DRAIN);
	/* Or the last one retired (execute's recheck; rv_retire's side). */
	if (atomic_load(&r->ctl) == 0)
		(void)rv_add_worker(r, RV_DRAIN);
	return;
}

static struct db_task *
rv_overflow_take(struct rendezvous *r)
{
	struct db_task *t;

	if (atomic_load(&r->overflowing) == 0)
		return NULL;
	pthread_mutex_lock(&r->lock);
	if ((t = taskfifo_pop(&r->overflow)) != NULL)
		atomic_fetch_sub(&r->overflowing, 1);
	pthread_mutex_unlock(&r->lock);
	return t;
}

/*
 * DualNode.await after xferLifo's push: spin if eligible, set the waiter,
 * fence, park up to the deadline; on time-out cancel. Returns the item, or
 * NULL when cancelled.
 */
static struct db_task *
rv_await(struct rendezvous *r, struct rv_worker *w, bool spin)
{
	long long deadline = rv_now_ns() + (long long)(r->k.keepalive_s * 1e9);
	int spins = spin && !r->uniprocessor ? r->k.spins : 0;
	struct db_task *t, *expected;
	long long ns;

	w->spins += spins > 0;
	while ((t = atomic_load(&w->item)) == NULL) {
		if (spins > 0) {
			spins--;
			ck_pr_stall();
		} else if (!atomic_load_explicit(&w->waiter,
		    memory_order_relaxed)) {
			atomic_store(&w->waiter, true);
			atomic_thread_fence(memory_order_seq_cst);
		} else if ((ns = deadline - rv_now_ns()) <= 0) {
			expected = NULL;
			if (atomic_compare_exchange_strong(&w->item, &expected,
			    RV_CANCELLED))
				break;
		} else if (ns < RV_SPIN_FOR_TIMEOUT_NS)
			ck_pr_stall();
		else if (parker_park(&w->parker, ns))
			w->unparks += atomic_load(&w->item) != NULL;
	}
	atomic_store_explicit(&w->waiter, false, memory_order_relaxed);
	return t;
}

/*
 * getTask -> poll(keepAliveTime): the bounded pool's overflow first, then
 * the worker's node pushed and awaited. NULL: the worker retires.
 */
static struct db_task *
rv_get_task(struct rendezvous *r, struct rv_worker *w)
{
	struct rv_worker *below;
	struct db_task *t;

	if ((t = rv_overflow_take(r)) != NULL)
		return t;
	DISP_HOOK("rendezvous: found no overflow");
	atomic_store_explicit(&w->item, NULL, memory_order_relaxed);
	below = rv_push(r, w);
	DISP_HOOK("rendezvous: pushed itself");
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load(&r->stopping))
		rv_hand(r, RV_STOP);
	else if (atomic_load(&r->overflowing) > 0)
		rv_hand(r, RV_DRAIN);
	t = rv_await(r, w, below == NULL || !atomic_load(&below->waiter));
	return t == RV_CANCELLED ? NULL : t;
}

/*
 * Counts the worker out. The last to time out with a task queued starts
 * one to drain it (processWorkerExit): the dispatch that queued it may
 * have counted this worker in, and none may follow.
 */
static void
rv_retire(struct rendezvous *r, bool timed_out)
{

	DISP_HOOK("rendezvous: retiring");
	if (atomic_fetch_sub(&r->ctl, 1) == 1 && timed_out &&
	    atomic_load(&r->overflowing) > 0)
		(void)rv_add_worker(r, RV_DRAIN);
	return;
}

static void *
rv_worker_main(void *arg)
{
	struct rv_worker *w = arg;
	struct rendezvous *r = w->pool;
	struct db_task *t = w->first;

	for (;;) {
		if (t == RV_DRAIN)
			t = rv_overflow_take(r);
		else if (t != NULL) {
			w->ran++;
			t->fn(t);
			t = NULL;
		}
		if (t == NULL && (t = rv_get_task(r, w)) == NULL)
			break;
		if (t == RV_STOP)
			break;
	}
	rv_retire(r, t == NULL);
	return NULL;
}

static int
rendezvous_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct rendezvous *r = calloc(1, sizeof(*r));
	cpu_set_t cpus;

	if (r == NULL)
		return -ENOMEM;
	r->base.ops = &disp_rendezvous;
	r->cfg = *cfg;
	r->k = disp_knobs(cfg);
	if (r->k.spins == DISP_SPINS_DEFAULT)
		r->k.spins = RV_SPINS_DEFAULT;
	if (r->k.keepalive_s <= 0)
		r->k.keepalive_s = 60;
	/* availableProcessors: the CPUs this process may run on. */
	r->uniprocessor = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 &&
	    CPU_COUNT(&cpus) == 1;
	pthread_mutex_init(&r->lock, NULL);
	*dp = &r->base;
	return 0;
}

/* The newest worker listed, taken off the list; NULL with none. */
static struct rv_worker *
rv_unlist(struct rendezvous *r)
{
	struct rv_worker *w;

	pthread_mutex_lock(&r->lock);
	if ((w = r->threads) != NULL)
		r->threads = w->next;
	pthread_mutex_unlock(&r->lock);
	return w;
}

static void
rendezvous_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct rendezvous *r = (struct rendezvous *)d;
	struct rv_worker *w, *joined = NULL;

	atomic_store(&r->stopping, 1);
	atomic_thread_fence(memory_order_seq_cst);
	rv_hand(r, RV_STOP);
	/*
	 * Popped under the lock to the last: a worker that retires starts its
	 * replacement (rv_retire) and lists it before it ends, so one joined
	 * has listed any it started. None is freed before every one is
	 * joined: a live worker may still read a node it was pushed on, or
	 * pop past a cancelled one, whose thread has ended.
	 */
	while ((w = rv_unlist(r)) != NULL) {
		pthread_join(w->tid, NULL);
		w->next = joined;
		joined = w;
	}
	while ((w = joined) != NULL) {
		joined = w->next;
		if (st != NULL) {
			st->ran += w->ran;
			st->count[DB_DISP_C_spins] += w->spins;
			st->count[DB_DISP_C_unparks] += w->unparks;
		}
		free(w);
	}
	if (st != NULL) {
		st->spilled = r->overflowed;
		st->threads_started = r->started;
		st->threads_peak = r->peak;
	}
	pthread_mutex_destroy(&r->lock);
	free(r);
	return;
}

const struct db_disp_ops disp_rendezvous = {
	DB_DISP_OPS_HEAD,
	.name = "rendezvous",
	.model = "JDK 21 SynchronousQueue handoff to an idle thread, else a new "
	    "thread",
	.flags = DB_DISP_GROWS,
	.counts = DB_DISP_COUNT(spins) | DB_DISP_COUNT(unparks),
	.create = rendezvous_create,
	.dispatch = rendezvous_dispatch,
	.shutdown = rendezvous_shutdown,
};
