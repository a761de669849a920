/*
 * stealing.c - N workers, each with its own run queue and LIFO slot, one
 * global injection queue, idle workers stealing: Dispatchers.Default, the
 * Go scheduler, Tokio's multi-thread runtime. The model follows Tokio
 * (tokio/src/runtime/scheduler/multi_thread/worker.rs, idle.rs) with Go's
 * run queue (runq.h):
 *
 *  - A dispatch from one of the pool's own workers goes to its LIFO slot;
 *    the task it displaces goes to the back of the worker's run queue
 *    (schedule_local). Only a displacement or a run-queue push notifies.
 *    After a task, the worker runs the LIFO slot's task up to 3 times
 *    (MAX_LIFO_POLLS_PER_TICK), then sends further re-dispatches to the
 *    run queue until its next task (lifo_enabled).
 *  - A full run queue moves its older half to the injection queue
 *    (Go runqputslow; Tokio moves the newer half of its own layout).
 *  - A dispatch from outside the pool goes to the injection queue: a list
 *    under one mutex with a lock-free length, as Tokio's inject and Go's
 *    sched.runq.
 *  - A worker looks at the injection queue first on every 61st tick, else
 *    last, and takes len / N + 1 of it in one batch (next_task).
 *  - A worker with nothing local steals half of another's run queue,
 *    walking the workers from a random one, but only while fewer than half
 *    of the workers are searching (transition_worker_to_searching).
 *  - A notification wakes a parked worker only when no worker is
 *    searching and not every worker is awake (notify_should_wakeup, Go
 *    wakep). The woken worker searches; the last searcher to find work
 *    wakes the next (transition_worker_from_searching, Go resetspinning),
 *    and the last searcher to give up checks every queue before it parks
 *    (notify_if_work_pending). No spinning before a park.
 *
 * No wake-up is lost: a notification fences after its push and then reads
 * the idle word; the last searcher to give up decrements the idle word,
 * fences, then looks at every queue: one sees the other. A notification
 * that skips because a worker searches (or none is parked) leaves the
 * task to the workers awake: a searcher finds it or, as the last to give
 * up, notifies for it, and a worker parks without that last look only
 * while others search. A parked worker waits for its parked flag, cleared
 * under the lock before the unpark; the parker keeps an unpark that comes
 * before the park.
 *
 * Knobs: cfg->lifo off sends every local dispatch to the run queue (Tokio's
 * disable_lifo_slot); cfg->searchers DISP_SEARCH_ALL lets every idle worker
 * search at once.
 *
 * Not modelled: the I/O driver a Tokio worker parks in, the self-tuned
 * global queue interval (Tokio seeds it at 61, Go fixes it at 61), Go's
 * runnext stealing after a 3 µs sleep (Tokio's LIFO slot is never stolen,
 * nor is this one).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "parker.h"
#include "runq.h"
#include "taskfifo.h"

#define ST_LIFO_POLLS		3	/* MAX_LIFO_POLLS_PER_TICK */
#define ST_GLOBAL_INTERVAL	61	/* ticks between injection-queue-first */
#define ST_SEARCH_SHIFT		16	/* idle.rs: searching below, unparked above */
#define ST_SEARCH_MASK		((1u << ST_SEARCH_SHIFT) - 1)
#define ST_UNPARK_ONE		(1u << ST_SEARCH_SHIFT)

struct st_worker {
	struct runq rq;
	struct disp_task *lifo;			/* owner only: never stolen */
	bool lifo_enabled;
	bool searching;
	uint32_t tick;
	uint32_t rand;				/* xorshift32 */
	_Atomic bool parked;			/* in the sleepers list */
	struct parker parker;
	uint64_t ran;
	struct stealing *pool;
	unsigned int index;
	pthread_t tid;
} __attribute__((aligned(64)));

struct stealing {
	struct dispatcher base;
	struct disp_config cfg;
	unsigned int nworkers;

	pthread_mutex_t lock;			/* Tokio's Synced */
	struct taskfifo inject;
	unsigned int *sleepers;			/* a stack of worker indices */
	unsigned int nsleepers;

	_Atomic long inject_len;
	_Atomic uint32_t idle;			/* searching | unparked << 16 */
	_Atomic int stop;
	struct st_worker *workers;
};

static _Thread_local struct st_worker *st_current;

static bool
st_inject_empty(struct stealing *s)
{

	return atomic_load_explicit(&s->inject_len, memory_order_acquire) == 0;
}

/* The caller holds s->lock. */
static void
st_inject_put_locked(struct stealing *s, struct disp_task *t)
{

	taskfifo_push(&s->inject, t);
	atomic_fetch_add_explicit(&s->inject_len, 1, memory_order_release);
	return;
}

/* Wakes one parked worker as a searcher (idle.rs worker_to_notify). */
static void
st_notify(struct stealing *s)
{
	struct st_worker *w = NULL;
	uint32_t st;

	/* After the caller's push: a searcher that parks sees one of us. */
	atomic_thread_fence(memory_order_seq_cst);
	st = atomic_load(&s->idle);
	if ((st & ST_SEARCH_MASK) != 0 ||
	    (st >> ST_SEARCH_SHIFT) >= s->nworkers)
		return;
	pthread_mutex_lock(&s->lock);
	st = atomic_load(&s->idle);
	if ((st & ST_SEARCH_MASK) == 0 && (st >> ST_SEARCH_SHIFT) <
	    s->nworkers && s->nsleepers > 0) {
		atomic_fetch_add(&s->idle, ST_UNPARK_ONE + 1);
		w = &s->workers[s->sleepers[--s->nsleepers]];
		atomic_store(&w->parked, false);
	}
	pthread_mutex_unlock(&s->lock);
	if (w != NULL)
		parker_unpark(&w->parker);
	return;
}

/* push_back_or_overflow */
static void
st_push_back(struct st_worker *w, struct disp_task *t)
{
	struct stealing *s = w->pool;
	struct disp_task *half[RUNQ_SIZE / 2];
	uint32_t i, n;

	while (!runq_push(&w->rq, t)) {
		n = runq_take_half(&w->rq, half);
		if (n == 0)
			continue;
		pthread_mutex_lock(&s->lock);
		for (i = 0; i < n; i++)
			st_inject_put_locked(s, half[i]);
		st_inject_put_locked(s, t);
		pthread_mutex_unlock(&s->lock);
		return;
	}
	return;
}

/* schedule_local */
static void
st_schedule_local(struct st_worker *w, struct disp_task *t)
{
	struct disp_task *prev;

	if (!w->lifo_enabled) {
		st_push_back(w, t);
		st_notify(w->pool);
		return;
	}
	prev = w->lifo;
	w->lifo = t;
	if (prev == NULL)
		return;
	st_push_back(w, prev);
	st_notify(w->pool);
	return;
}

static void
stealing_dispatch(struct dispatcher *d, struct disp_task *t)
{
	struct stealing *s = (struct stealing *)d;
	struct st_worker *w = st_current;

	if (w != NULL && w->pool == s) {
		st_schedule_local(w, t);
		return;
	}
	pthread_mutex_lock(&s->lock);
	st_inject_put_locked(s, t);
	pthread_mutex_unlock(&s->lock);
	st_notify(s);
	return;
}

/* Up to n tasks from the injection queue: the first to run, the rest local. */
static struct disp_task *
st_inject_take(struct st_worker *w, uint32_t n)
{
	struct stealing *s = w->pool;
	struct disp_task *first, *t;
	uint32_t i;

	if (st_inject_empty(s))
		return NULL;
	pthread_mutex_lock(&s->lock);
	first = taskfifo_pop(&s->inject);
	for (i = 1; first != NULL && i < n &&
	    (t = taskfifo_pop(&s->inject)) != NULL; i++)
		(void)runq_push(&w->rq, t);
	atomic_fetch_sub_explicit(&s->inject_len, first != NULL ? i : 0,
	    memory_order_relaxed);
	pthread_mutex_unlock(&s->lock);
	return first;
}

static struct disp_task *
st_next_local(struct st_worker *w)
{
	struct disp_task *t = w->lifo;

	if (t != NULL) {
		w->lifo = NULL;
		return t;
	}
	return runq_pop(&w->rq);
}

/* next_task */
static struct disp_task *
st_next_task(struct st_worker *w)
{
	struct stealing *s = w->pool;
	struct disp_task *t;
	long n;

	if (++w->tick % ST_GLOBAL_INTERVAL == 0) {
		t = st_inject_take(w, 1);
		return t != NULL ? t : st_next_local(w);
	}
	t = st_next_local(w);
	if (t != NULL)
		return t;
	n = atomic_load_explicit(&s->inject_len, memory_order_relaxed);
	n = n / s->nworkers + 1;
	return st_inject_take(w, n < RUNQ_SIZE / 2 ? (uint32_t)n :
	    RUNQ_SIZE / 2);
}

static bool
st_to_searching(struct st_worker *w)
{
	struct stealing *s = w->pool;
	uint32_t st;

	if (w->searching)
		return true;
	st = atomic_load(&s->idle);
	if (s->cfg.searchers == DISP_SEARCH_HALF &&
	    2 * (st & ST_SEARCH_MASK) >= s->nworkers)
		return false;
	atomic_fetch_add(&s->idle, 1);
	w->searching = true;
	return true;
}

static uint32_t
st_rand(struct st_worker *w)
{
	uint32_t x = w->rand;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	w->rand = x;
	return x;
}

/* steal_work */
static struct disp_task *
st_steal(struct st_worker *w)
{
	struct stealing *s = w->pool;
	struct disp_task *t;
	unsigned int i, start, v;

	if (!st_to_searching(w))
		return NULL;
	start = st_rand(w) % s->nworkers;
	for (i = 0; i < s->nworkers; i++) {
		v = (start + i) % s->nworkers;
		if (v == w->index)
			continue;
		t = runq_steal(&s->workers[v].rq, &w->rq);
		if (t != NULL)
			return t;
	}
	return st_inject_take(w, 1);
}

/* notify_if_work_pending */
static void
st_notify_if_pending(struct stealing *s)
{
	unsigned int i;

	atomic_thread_fence(memory_order_seq_cst);
	for (i = 0; i < s->nworkers; i++) {
		if (runq_len(&s->workers[i].rq) != 0) {
			st_notify(s);
			return;
		}
	}
	if (!st_inject_empty(s))
		st_notify(s);
	return;
}

/* run_task: the task, then the LIFO slot up to ST_LIFO_POLLS times. */
static void
st_run(struct st_worker *w, struct disp_task *t)
{
	int polls;

	if (w->searching) {
		w->searching = false;
		if ((atomic_fetch_sub(&w->pool->idle, 1) & ST_SEARCH_MASK) == 1)
			st_notify(w->pool);
	}
	w->ran++;
	t->fn(t);
	for (polls = 0; (t = w->lifo) != NULL; ) {
		w->lifo = NULL;
		if (++polls >= ST_LIFO_POLLS)
			w->lifo_enabled = false;
		w->ran++;
		t->fn(t);
	}
	w->lifo_enabled = w->pool->cfg.lifo == DISP_LIFO_ON;
	return;
}

/* transition_to_parked, park, transition_from_parked */
static void
st_park(struct st_worker *w)
{
	struct stealing *s = w->pool;
	uint32_t prev;

	if (atomic_load(&s->stop))	/* draining: not into the list twice */
		return;
	pthread_mutex_lock(&s->lock);
	prev = atomic_fetch_sub(&s->idle, ST_UNPARK_ONE +
	    (w->searching ? 1 : 0));
	s->sleepers[s->nsleepers++] = w->index;
	atomic_store(&w->parked, true);
	pthread_mutex_unlock(&s->lock);
	if (w->searching && (prev & ST_SEARCH_MASK) == 1)
		st_notify_if_pending(s);
	w->searching = false;
	while (atomic_load(&w->parked) && !atomic_load(&s->stop))
		parker_park(&w->parker, 0);
	w->searching = !atomic_load(&w->parked);
	return;
}

static bool
st_drained(struct st_worker *w)
{

	return w->lifo == NULL && runq_len(&w->rq) == 0 &&
	    st_inject_empty(w->pool);
}

static void *
st_worker_main(void *arg)
{
	struct st_worker *w = arg;
	struct stealing *s = w->pool;
	struct disp_task *t;

	st_current = w;
	for (;;) {
		t = st_next_task(w);
		if (t == NULL)
			t = st_steal(w);
		if (t != NULL) {
			st_run(w, t);
			continue;
		}
		if (atomic_load(&s->stop) && st_drained(w))
			break;
		st_park(w);
	}
	return NULL;
}

static void
st_worker_init(struct stealing *s, struct st_worker *w, unsigned int i)
{

	runq_init(&w->rq);
	w->lifo = NULL;
	w->lifo_enabled = s->cfg.lifo == DISP_LIFO_ON;
	w->searching = false;
	w->tick = 0;
	w->rand = 2654435761u * (i + 1);
	atomic_init(&w->parked, false);
	parker_init(&w->parker);
	w->ran = 0;
	w->pool = s;
	w->index = i;
	return;
}

static int
stealing_create(struct dispatcher **dp, const struct disp_config *cfg)
{
	struct stealing *s;
	unsigned int i;
	int error = -ENOMEM;

	if (cfg->workers == 0 || cfg->workers >= ST_SEARCH_MASK)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	s->base.ops = &disp_stealing;
	s->cfg = *cfg;
	s->nworkers = cfg->workers;
	atomic_init(&s->idle, s->nworkers << ST_SEARCH_SHIFT);
	s->sleepers = calloc(s->nworkers, sizeof(*s->sleepers));
	if (s->sleepers == NULL)
		goto out_free;
	if (posix_memalign((void **)&s->workers, 64,
	    s->nworkers * sizeof(*s->workers)) != 0)
		goto out_sleepers;
	pthread_mutex_init(&s->lock, NULL);
	for (i = 0; i < s->nworkers; i++)
		st_worker_init(s, &s->workers[i], i);
	for (i = 0; i < s->nworkers; i++) {
		error = disp_thread_spawn(&s->cfg, &s->workers[i].tid,
		    st_worker_main, &s->workers[i]);
		if (error != 0)
			goto out_join;
	}
	*dp = &s->base;
	return 0;
out_join:
	s->nworkers = i;
	disp_shutdown(&s->base, NULL);
	return error;
out_sleepers:
	free(s->sleepers);
out_free:
	free(s);
	return error;
}

static void
stealing_shutdown(struct dispatcher *d, struct disp_stats *st)
{
	struct stealing *s = (struct stealing *)d;
	unsigned int i;
	uint64_t ran = 0;

	atomic_store(&s->stop, 1);
	for (i = 0; i < s->nworkers; i++)
		parker_unpark(&s->workers[i].parker);
	for (i = 0; i < s->nworkers; i++) {
		pthread_join(s->workers[i].tid, NULL);
		ran += s->workers[i].ran;
	}
	if (st != NULL) {
		st->ran = ran;
		st->spilled = 0;
		st->threads_started = s->nworkers;
		st->threads_peak = s->nworkers;
	}
	pthread_mutex_destroy(&s->lock);
	free(s->sleepers);
	free(s->workers);
	free(s);
	return;
}

const struct disp_ops disp_stealing = {
	.name = "stealing",
	.model = "Tokio/Go: per-worker ring + LIFO slot, inject queue, stealing",
	.flags = DISP_STEALS,
	.create = stealing_create,
	.dispatch = stealing_dispatch,
	.shutdown = stealing_shutdown,
};
