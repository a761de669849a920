/*
 * stealing.c - N workers, each with its own run queue and LIFO slot, one
 * global injection queue, idle workers stealing: Dispatchers.Default, the
 * Go scheduler, Tokio's multi-thread runtime. The model follows Tokio
 * 1.24.2 (tokio/src/runtime/scheduler/multi_thread/worker.rs, idle.rs)
 * with Go's run queue (runq.h), and Go 1.19 (src/runtime/proc.go,
 * lock_futex.go) where --yield go takes Go's path:
 *
 *  - A dispatch from one of the pool's own workers goes to its LIFO slot;
 *    the task it displaces goes to the back of the worker's run queue
 *    (schedule_local). Only a displacement or a run-queue push notifies.
 *    After a task, the worker runs the LIFO slot's task up to 3 times
 *    (MAX_LIFO_POLLS_PER_TICK), then sends further re-dispatches to the
 *    run queue until its next task (lifo_enabled). That cap is Tokio
 *    1.29.0's (tokio-rs/tokio#5712), not 1.24.2's: 1.24.2 runs the LIFO
 *    slot while the coop budget lasts (worker.rs:463-496), and a task
 *    that only wakes itself spends none of it, so it holds the worker
 *    for good. Kept, as the tests hold a self-dispatching task to it.
 *  - A full run queue moves its older half to the injection queue
 *    (Go runqputslow; Tokio moves the newer half of its own layout).
 *  - A dispatch from outside the pool goes to the injection queue: a list
 *    under one lock with a lock-free length, as Tokio's inject and Go's
 *    sched.runq.
 *  - A worker looks at the injection queue first on every 61st tick, else
 *    last, and takes one task of it (1.24.2 next_task: inject.pop,
 *    worker.rs:588-594; batches of len / N + 1 came with 1.29.0,
 *    tokio-rs/tokio#5705); under --yield go, len / N + 1 of it in one
 *    batch when its own queue is empty (Go's globrunqget).
 *  - A worker with nothing local steals half of another's run queue,
 *    walking the workers from a random one, but only while fewer than half
 *    of the workers are searching (transition_worker_to_searching).
 *  - A notification wakes a parked worker only when no worker is
 *    searching and not every worker is awake (notify_should_wakeup, Go
 *    wakep). The woken worker searches; the last searcher to find work
 *    wakes the next (transition_worker_from_searching, Go resetspinning),
 *    and the last searcher to give up checks every queue before it parks
 *    (notify_if_work_pending). No spinning before a park.
 *  - The one lock (the injection queue, the sleepers) is a pthread mutex,
 *    a futex mutex as Tokio's std::sync::Mutex; under --yield go it is
 *    Go's sched.lock, the runtime's own lock (golock.h: lock2 spins, then
 *    yields the CPU, then sleeps on its futex).
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
 * A coroutine that continues itself (disp_yield) is rescheduled after its
 * task returns, by cfg->yield_path, each the path of a system's source
 * (Tokio 1.24.2, tokio/src/runtime; Go 1.19, src/runtime/proc.go):
 *  - wake-other: as a task woken by another task: waker.wake_by_ref ->
 *    schedule_task(is_yield = false) -> schedule_local: the LIFO slot;
 *  - self-wake: a task that wakes itself in its own poll: the harness sees
 *    NOTIFIED at transition_to_idle and calls yield_now ->
 *    schedule_task(is_yield = true): the back of the run queue, notify;
 *  - tokio: task::yield_now: context::defer keeps the waker until the
 *    worker polls its driver (park_timeout with timeout 0: in maintenance
 *    every event_interval = 61 ticks, and instead of a park while any is
 *    deferred, Context::run); wake_deferred_tasks then schedules each
 *    from inside the park (is_yield = false, no notify: core.park is
 *    taken), and the worker notifies another if its run queue has any;
 *  - go: runtime.Gosched -> goschedImpl (proc.go:3366-3379):
 *    casgstatus(_Grunning, _Grunnable), globrunqput under sched.lock,
 *    schedule(). Go 1.19 calls no wakep there; a later runtime does (its
 *    goschedImpl(gp, preempted) ends `if mainStarted { wakep() }`), but
 *    which release added it could not be told from the 1.19 source here.
 * Go's steal walks every worker four times (stealWork, stealTries).
 *
 * The floor (cfg->floor): what the runtime does around a handoff beside
 * its queues. Tokio (runtime/task/state.rs): a task's state word, CASed
 * to RUNNING before a poll and to idle after it, CASed to NOTIFIED with a
 * reference added by a wake, its reference count dropped after the poll,
 * and in yield_now a reference for the cloned waker; the thread
 * context's coop budget, given by run_task to a task and the LIFO slot's
 * after it, and its current task id, set around each poll; and its driver
 * polled (park_timeout(0)) every 61 ticks and whenever deferred tasks
 * wait, by the worker that wins the driver's try-lock. on: a runtime
 * built with rt and rt-multi-thread alone, whose driver is a ParkThread:
 * a poll is a CAS on its state, no syscall. io: a runtime with an I/O
 * driver (enable_io), whose poll is an epoll_wait(0). Go: each task runs
 * on a goroutine of its own (gstack.h): execute's casgstatus on the g's
 * status word and gogo onto the g's stack, the poll there, Gosched's
 * mcall back to the worker's stack and casgstatus again. So a resumption
 * brings the g and its stack to the worker that runs it, beside the
 * coroutine's own record, as Go's does. The workload's coroutine takes
 * turns between two tasks, so it has two g's, one of them brought by
 * each resumption. off: the queues and the wake-ups alone.
 *
 * Knobs: cfg->lifo off sends every local dispatch to the run queue (Tokio's
 * disable_lifo_slot); cfg->searchers DISP_SEARCH_ALL lets every idle worker
 * search at once.
 *
 * Counters: pushes to the injection queue, steals and tasks stolen, LIFO
 * slot runs, deferred tasks, driver polls and the epoll_waits among them,
 * unparks; under --yield go what sched.lock did: acquisitions that spun,
 * the CPU yields and futex sleeps of lock2, the futex wakes of unlock2,
 * and the switches between a worker's stack and a g's (two a poll);
 * the coop budgets given (one a run_task).
 *
 * Not modelled: the timers and the I/O a Tokio driver poll would find, the
 * self-tuned global queue interval (Tokio 1.24 fixes it at 61, as Go),
 * Go's runnext steal on the last pass after usleep(3) (Tokio's LIFO slot
 * is never stolen, nor is this one), Go's netpoll in findRunnable,
 * the coop budget's spending (no yield_now spends it; the LIFO loop
 * stops at 3, above), run_task's assert_owner (worker.rs:452, 486), a
 * worker parked in the driver (Tokio parks one idle worker on the driver
 * itself; here each parks on its own parker, so the driver's ParkThread
 * is never notified and a poll's CAS finds nothing), and Tokio 1.24.2's
 * two mutexes where the model has its one lock (the injection queue's,
 * task/inject.rs:15, and the sleepers', idle.rs:17).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <ck_pr.h>

#include "knobs.h"
#include "golock.h"
#include "gstack.h"
#include "parker.h"
#include "runq.h"
#include "taskfifo.h"

extern const struct db_disp_ops disp_stealing;	/* defined below */

#define ST_LIFO_POLLS		3	/* MAX_LIFO_POLLS_PER_TICK */
#define ST_GLOBAL_INTERVAL	61	/* ticks between injection-queue-first */
#define ST_SEARCH_SHIFT		16	/* idle.rs: searching below, unparked above */
#define ST_SEARCH_MASK		((1u << ST_SEARCH_SHIFT) - 1)
#define ST_UNPARK_ONE		(1u << ST_SEARCH_SHIFT)
#define ST_EVENT_INTERVAL	61	/* ticks between driver polls */
#define ST_GO_STEAL_TRIES	4	/* stealWork's stealTries */

/* Tokio's task state bits (runtime/task/state.rs) and Go's statuses. */
#define ST_RUNNING		(1u << 0)
#define ST_NOTIFIED		(1u << 2)
#define ST_REF_ONE		(1u << 6)
#define ST_G_RUNNABLE		1u	/* _Grunnable */
#define ST_G_RUNNING		2u	/* _Grunning */
#define ST_G_WAITING		4u	/* _Gwaiting */

/* coop::Budget (runtime/coop.rs): Budget::initial(), unconstrained. */
#define ST_BUDGET_INITIAL	128
#define ST_BUDGET_UNCONSTRAINED	(-1)

/* A ParkThread's states (runtime/park.rs:27-29). */
#define ST_PARK_EMPTY		0u
#define ST_PARK_NOTIFIED	2u

struct st_worker {
	struct runq rq;
	struct db_task *lifo;			/* owner only: never stolen */
	bool lifo_enabled;
	bool searching;
	uint32_t tick;
	uint32_t rand;				/* xorshift32 */
	struct db_task *running, *next;	/* the task polled, its yield */
	struct taskfifo defer;			/* tokio: waiting for the driver */
	_Atomic bool parked;			/* in the sleepers list */
	struct parker parker;
	uint64_t ran;
	uint64_t count[DB_DISP_NCOUNTERS];
	struct golock_count lockc;		/* what sched.lock did here */
	struct stealing *pool;
	unsigned int index;
	pthread_t tid;
} __attribute__((aligned(64)));

struct stealing {
	struct db_dispatcher base;
	struct db_disp_config cfg;
	struct disp_knobs k;
	unsigned int nworkers;

	pthread_mutex_t lock;			/* the one lock (st_lock) */
	struct golock golock;			/* ... under --yield go */
	bool gs;				/* tasks run on their g's stacks */
	struct gstack_set allgs;		/* ... those g's */
	bool ctx;				/* Tokio's budget and task id */
	struct taskfifo inject;
	unsigned int *sleepers;			/* a stack of worker indices */
	unsigned int nsleepers;

	uint64_t injected;			/* under lock */

	_Atomic long inject_len;
	_Atomic uint32_t idle;			/* searching | unparked << 16 */
	_Atomic int stop;
	_Atomic bool driver;			/* its try-lock */
	_Atomic unsigned int park_state;	/* floor on: its ParkThread */
	int epfd;				/* floor io: its epoll, else -1 */
	struct {				/* sched.lock from outside */
		_Atomic uint64_t spins, yields, sleeps, wakes;
	} outside;
	struct st_worker *workers;
};

static _Thread_local struct st_worker *st_current;

/*
 * Tokio's thread context around a poll (runtime/context.rs:17-48): the
 * coop budget of the task being run, and its id (Option<Id>, 0 for None).
 */
static _Thread_local struct {
	int budget;
	uintptr_t task_id;
} st_ctx = { ST_BUDGET_UNCONSTRAINED, 0 };

/* A thread outside the pool adds what sched.lock did to the shared counts. */
static void
st_count_outside(struct stealing *s, const struct golock_count *c)
{

	if (c->spins + c->yields + c->sleeps + c->wakes == 0)
		return;
	atomic_fetch_add_explicit(&s->outside.spins, c->spins,
	    memory_order_relaxed);
	atomic_fetch_add_explicit(&s->outside.yields, c->yields,
	    memory_order_relaxed);
	atomic_fetch_add_explicit(&s->outside.sleeps, c->sleeps,
	    memory_order_relaxed);
	atomic_fetch_add_explicit(&s->outside.wakes, c->wakes,
	    memory_order_relaxed);
	return;
}

/*
 * The one lock: under --yield go, Go's sched.lock, a runtime.mutex
 * (lock_futex.go lock2); else a pthread mutex, as the std::sync::Mutex
 * (a futex mutex) behind Tokio's inject and sleepers.
 */
static void
st_lock(struct stealing *s)
{
	struct st_worker *w;
	struct golock_count c = { 0 };

	if (s->k.yield_path != DISP_YIELD_GO) {
		pthread_mutex_lock(&s->lock);
		return;
	}
	w = st_current;
	if (w != NULL && w->pool == s) {
		golock_lock(&s->golock, &w->lockc);
		return;
	}
	golock_lock(&s->golock, &c);
	st_count_outside(s, &c);
	return;
}

/* unlock2 under --yield go. */
static void
st_unlock(struct stealing *s)
{
	struct st_worker *w;
	struct golock_count c = { 0 };

	if (s->k.yield_path != DISP_YIELD_GO) {
		pthread_mutex_unlock(&s->lock);
		return;
	}
	w = st_current;
	if (w != NULL && w->pool == s) {
		golock_unlock(&s->golock, &w->lockc);
		return;
	}
	golock_unlock(&s->golock, &c);
	st_count_outside(s, &c);
	return;
}

static bool
st_inject_empty(struct stealing *s)
{

	return atomic_load_explicit(&s->inject_len, memory_order_acquire) == 0;
}

/* The caller holds the lock. */
static void
st_inject_put_locked(struct stealing *s, struct db_task *t)
{

	taskfifo_push(&s->inject, t);
	s->injected++;
	atomic_fetch_add_explicit(&s->inject_len, 1, memory_order_release);
	return;
}

/*
 * A state word, as the runtime's fetch_update: its bits in clear off, set
 * on, refs references added (Tokio's task), or a status (Go's g). The
 * worker that holds the task is its only writer; the CAS is the cost.
 */
static inline void
st_state_update(struct stealing *s, uint64_t *word, uint64_t clear,
    uint64_t set, int refs)
{
	uint64_t cur, next;

	if (s->k.floor == DISP_FLOOR_OFF)
		return;
	cur = __atomic_load_n(word, __ATOMIC_RELAXED);
	do
		next = ((cur & ~clear) | set) + (uint64_t)refs * ST_REF_ONE;
	while (!__atomic_compare_exchange_n(word, &cur, next, true,
	    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	return;
}

/* Tokio's task state: in the task's header, here its first word. */
static inline void
st_task_update(struct stealing *s, struct db_task *t, uint64_t clear,
    uint64_t set, int refs)
{

	st_state_update(s, &DISP_TASK_STATE(t), clear, set, refs);
	return;
}

/* Tokio's ref_dec and a waker's clone: one atomic add each. */
static inline void
st_task_ref(struct stealing *s, struct db_task *t, int refs)
{

	if (s->k.floor != DISP_FLOOR_OFF)
		__atomic_fetch_add(&DISP_TASK_STATE(t), (uint64_t)refs *
		    ST_REF_ONE, __ATOMIC_ACQ_REL);
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
	st_lock(s);
	st = atomic_load(&s->idle);
	if ((st & ST_SEARCH_MASK) == 0 && (st >> ST_SEARCH_SHIFT) <
	    s->nworkers && s->nsleepers > 0) {
		atomic_fetch_add(&s->idle, ST_UNPARK_ONE + 1);
		w = &s->workers[s->sleepers[--s->nsleepers]];
		atomic_store(&w->parked, false);
	}
	st_unlock(s);
	if (w != NULL)
		parker_unpark(&w->parker);
	return;
}

/* push_back_or_overflow */
static void
st_push_back(struct st_worker *w, struct db_task *t)
{
	struct stealing *s = w->pool;
	struct db_task *half[RUNQ_SIZE / 2];
	uint32_t i, n;

	while (!runq_push(&w->rq, t)) {
		n = runq_take_half(&w->rq, half);
		if (n == 0)
			continue;
		st_lock(s);
		for (i = 0; i < n; i++)
			st_inject_put_locked(s, half[i]);
		st_inject_put_locked(s, t);
		st_unlock(s);
		return;
	}
	return;
}

/*
 * schedule_local: the LIFO slot, the task it displaces to the back of the
 * run queue. notify false: from inside a park (core.park is taken), where
 * Tokio notifies nobody.
 */
static void
st_schedule_local(struct st_worker *w, struct db_task *t, bool notify)
{
	struct db_task *prev;

	if (!w->lifo_enabled) {
		st_push_back(w, t);
		if (notify)
			st_notify(w->pool);
		return;
	}
	prev = w->lifo;
	w->lifo = t;
	if (prev == NULL)
		return;
	st_push_back(w, prev);
	if (notify)
		st_notify(w->pool);
	return;
}

static void
stealing_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct stealing *s = (struct stealing *)d;
	struct st_worker *w = st_current;

	if (w != NULL && w->pool == s) {
		st_schedule_local(w, t, true);
		return;
	}
	st_lock(s);
	st_inject_put_locked(s, t);
	st_unlock(s);
	st_notify(s);
	return;
}

/*
 * The running task continues as t: kept until its poll returns (st_poll).
 * What the yield itself does in the poll: a wake of the running task
 * (self-wake: transition_to_notified_by_ref), or a clone of its waker
 * (yield_now: a reference).
 */
static void
stealing_yield(struct db_dispatcher *d, struct db_task *t)
{
	struct stealing *s = (struct stealing *)d;
	struct st_worker *w = st_current;

	if (w == NULL || w->pool != s || w->running == NULL ||
	    w->next != NULL) {
		stealing_dispatch(d, t);
		return;
	}
	w->next = t;
	if (s->k.yield_path == DISP_YIELD_SELF_WAKE)
		st_task_update(s, w->running, 0, ST_NOTIFIED, 0);
	else if (s->k.yield_path == DISP_YIELD_TOKIO)
		st_task_ref(s, w->running, 1);
	return;
}

/*
 * Tasks from the injection queue, the first to run and the rest to the
 * run queue: one when max is 1 (Tokio 1.24.2's inject.pop, task/inject.rs:
 * 172-200), else Go's globrunqget(pp, max) (proc.go:5603-5630): len / N
 * + 1, at most max when it is not 0 and half a run queue.
 */
static struct db_task *
st_inject_take(struct st_worker *w, uint32_t max)
{
	struct stealing *s = w->pool;
	struct db_task *first, *t;
	uint32_t i, n;
	long len;

	if (st_inject_empty(s))
		return NULL;
	st_lock(s);
	len = atomic_load_explicit(&s->inject_len, memory_order_relaxed);
	n = (uint32_t)(len / s->nworkers + 1);
	if (n > len)
		n = (uint32_t)len;
	if (max > 0 && n > max)
		n = max;
	if (n > RUNQ_SIZE / 2)
		n = RUNQ_SIZE / 2;
	first = n > 0 ? taskfifo_pop(&s->inject) : NULL;
	for (i = 1; first != NULL && i < n &&
	    (t = taskfifo_pop(&s->inject)) != NULL; i++)
		(void)runq_push(&w->rq, t);
	atomic_fetch_sub_explicit(&s->inject_len, first != NULL ? i : 0,
	    memory_order_relaxed);
	st_unlock(s);
	return first;
}

static struct db_task *
st_next_local(struct st_worker *w)
{
	struct db_task *t = w->lifo;

	if (t != NULL) {
		w->lifo = NULL;
		w->count[DB_DISP_C_lifo_hits]++;
		return t;
	}
	return runq_pop(&w->rq);
}

/*
 * next_task (worker.rs:588-594). Go's findRunnable takes one every 61st
 * tick (proc.go:2605-2611) and a batch when its run queue is empty
 * (:2630-2636).
 */
static struct db_task *
st_next_task(struct st_worker *w)
{
	struct db_task *t;

	if (w->tick % ST_GLOBAL_INTERVAL == 0) {
		t = st_inject_take(w, 1);
		return t != NULL ? t : st_next_local(w);
	}
	t = st_next_local(w);
	if (t != NULL)
		return t;
	return st_inject_take(w, w->pool->k.yield_path == DISP_YIELD_GO ?
	    0 : 1);
}

static bool
st_to_searching(struct st_worker *w)
{
	struct stealing *s = w->pool;
	uint32_t st;

	if (w->searching)
		return true;
	st = atomic_load(&s->idle);
	if (s->k.searchers == DISP_SEARCH_HALF &&
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

/* steal_work; Go's stealWork walks the workers stealTries times. */
static struct db_task *
st_steal(struct st_worker *w)
{
	struct stealing *s = w->pool;
	struct db_task *t;
	unsigned int i, pass, start, v, passes;

	if (!st_to_searching(w))
		return NULL;
	passes = s->k.yield_path == DISP_YIELD_GO ? ST_GO_STEAL_TRIES : 1;
	for (pass = 0; pass < passes; pass++) {
		start = st_rand(w) % s->nworkers;
		for (i = 0; i < s->nworkers; i++) {
			v = (start + i) % s->nworkers;
			if (v == w->index)
				continue;
			t = runq_steal(&s->workers[v].rq, &w->rq);
			if (t == NULL)
				continue;
			w->count[DB_DISP_C_steals]++;
			w->count[DB_DISP_C_stolen] += runq_len(&w->rq) + 1;
			return t;
		}
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

/*
 * After t's poll: t goes idle (transition_to_idle; a task notified while
 * it ran gains the reference of its next run) and drops its reference;
 * if it yielded, it continues as next by the yield's path. Go: Gosched
 * from casgstatus(_Grunning, _Grunnable) on (proc.go:3372-3376).
 */
static void
st_after_poll(struct st_worker *w, struct db_task *t, struct gstack *gp,
    struct db_task *next)
{
	struct stealing *s = w->pool;
	enum disp_yield path = s->k.yield_path;

	if (path == DISP_YIELD_GO) {
		/* Off its stack: runnable, or parked (gopark) if no yield. */
		if (gp != NULL)
			st_state_update(s, &gp->status, ST_G_RUNNING,
			    next != NULL ? ST_G_RUNNABLE : ST_G_WAITING, 0);
		if (next == NULL)
			return;
		/* goschedImpl, Go 1.19: no wakep after the unlock. */
		st_lock(s);
		st_inject_put_locked(s, next);
		st_unlock(s);
		return;
	}
	st_task_update(s, t, ST_RUNNING, 0, path == DISP_YIELD_SELF_WAKE);
	st_task_ref(s, t, -1);
	if (next == NULL)
		return;
	if (path == DISP_YIELD_SELF_WAKE) {
		st_push_back(w, next);			/* is_yield */
		st_notify(s);
	} else if (path == DISP_YIELD_TOKIO) {
		taskfifo_push(&w->defer, next);
		w->count[DB_DISP_C_deferred]++;
	} else {
		st_task_update(s, next, 0, ST_NOTIFIED, 1);
		st_schedule_local(w, next, true);
	}
	return;
}

/*
 * casgstatus(gp, _Grunnable or _Gwaiting, _Grunning). A g still on a
 * worker's stack (its task dispatched again inside its own poll, which
 * the interface allows) is waited for: Go never readies a running g.
 */
static void
st_g_take(struct gstack *gp)
{
	uint64_t cur = __atomic_load_n(&gp->status, __ATOMIC_RELAXED);

	for (;;) {
		if (cur == ST_G_RUNNING) {
			ck_pr_stall();
			cur = __atomic_load_n(&gp->status, __ATOMIC_RELAXED);
		} else if (__atomic_compare_exchange_n(&gp->status, &cur,
		    ST_G_RUNNING, true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return;
	}
}

/*
 * Go's execute and Gosched for t: casgstatus(_Grunnable, _Grunning) and
 * gogo onto t's g's stack (proc.go:2517-2554), the poll there, then
 * mcall back (proc.go:316-318). The g is made on t's first run; out of
 * memory, Go throws as well.
 */
static __attribute__((noinline)) struct gstack *
st_poll_on_g(struct st_worker *w, struct db_task *t)
{
	struct gstack *gp = gstack_of(&w->pool->allgs, t);

	if (gp == NULL) {
		fprintf(stderr, "stealing: no memory for a goroutine's "
		    "stack\n");
		abort();
	}
	st_g_take(gp);
	gstack_gogo(gp);
	w->count[DB_DISP_C_g_switches] += 2;
	return gp;
}

/*
 * Core::poll's TaskIdGuard (task/core.rs:178-194, 222): the task's
 * id is the thread's current one while its future is polled, and the one
 * before is put back after. A task's id here is its address.
 */
static void
st_poll_with_id(struct db_task *t)
{
	uintptr_t prev = st_ctx.task_id;

	st_ctx.task_id = (uintptr_t)t;
	t->fn(t);
	st_ctx.task_id = prev;
	return;
}

/* One poll (Tokio's harness, Go's execute), then where its yield goes. */
static void
st_poll(struct st_worker *w, struct db_task *t)
{
	struct stealing *s = w->pool;
	struct gstack *gp = NULL;
	struct db_task *next;

	if (s->k.yield_path != DISP_YIELD_GO)
		st_task_update(s, t, ST_NOTIFIED, ST_RUNNING, 0);
	w->running = t;
	w->ran++;
	if (s->gs)
		gp = st_poll_on_g(w, t);
	else if (s->ctx)
		st_poll_with_id(t);
	else
		t->fn(t);
	w->running = NULL;
	next = w->next;
	w->next = NULL;
	st_after_poll(w, t, gp, next);
	return;
}

/*
 * run_task (worker.rs:451-497): the task, then the LIFO slot's up to
 * ST_LIFO_POLLS times. On Tokio's floor they run under one coop budget:
 * coop::budget sets Budget::initial() and puts the thread's budget before
 * back after (worker.rs:463, coop.rs:67-103). A yield_now spends none of
 * it (task/yield_now.rs), so the LIFO loop's has_budget_remaining()
 * (worker.rs:482) would always pass: the cap stands in its place.
 */
static void
st_run(struct st_worker *w, struct db_task *t)
{
	bool ctx = w->pool->ctx;
	int polls, budget = ST_BUDGET_UNCONSTRAINED;

	if (w->searching) {
		w->searching = false;
		if ((atomic_fetch_sub(&w->pool->idle, 1) & ST_SEARCH_MASK) == 1)
			st_notify(w->pool);
	}
	if (ctx) {
		budget = st_ctx.budget;
		st_ctx.budget = ST_BUDGET_INITIAL;
		w->count[DB_DISP_C_budgets]++;
	}
	st_poll(w, t);
	for (polls = 0; (t = w->lifo) != NULL; ) {
		w->lifo = NULL;
		if (++polls >= ST_LIFO_POLLS)
			w->lifo_enabled = false;
		w->count[DB_DISP_C_lifo_hits]++;
		st_poll(w, t);
	}
	if (ctx)
		st_ctx.budget = budget;
	w->lifo_enabled = w->pool->k.lifo == DISP_LIFO_ON;
	return;
}

/*
 * A driver poll: Parker::park_timeout(0) polls the driver only if its
 * try-lock is free (multi_thread/park.rs:71-78; the TryLock's CAS and the
 * guard's store, util/try_lock.rs:46-59, 76-79). Floor on: rt and
 * rt-multi-thread alone make the driver a ParkThread (driver.rs:199-224,
 * cfg_not_io_driver, and no time driver): ParkThread::park_timeout takes
 * a notification with one CAS and returns on a zero timeout, no syscall
 * (park.rs:65-74, 132-145). Floor io: the I/O driver's turn, mio's
 * epoll_wait with a zero timeout.
 */
static void
st_driver_poll(struct st_worker *w)
{
	struct stealing *s = w->pool;
	struct epoll_event ev;
	unsigned int notified = ST_PARK_NOTIFIED;
	bool unlocked = false;

	if (!atomic_compare_exchange_strong(&s->driver, &unlocked, true))
		return;
	if (s->k.floor == DISP_FLOOR_IO) {
		(void)epoll_wait(s->epfd, &ev, 1, 0);
		w->count[DB_DISP_C_epoll_waits]++;
	} else
		(void)atomic_compare_exchange_strong(&s->park_state, &notified,
		    ST_PARK_EMPTY);
	atomic_store(&s->driver, false);
	w->count[DB_DISP_C_driver_polls]++;
	return;
}

/*
 * park_timeout(0): the driver polled, the deferred tasks scheduled from
 * inside the park, then another worker notified if this one's run queue
 * has any (is_stealable).
 */
static void
st_park_yield(struct st_worker *w)
{
	struct stealing *s = w->pool;
	struct db_task *t;

	if (s->k.floor != DISP_FLOOR_OFF)
		st_driver_poll(w);
	while ((t = taskfifo_pop(&w->defer)) != NULL) {
		st_task_update(s, t, 0, ST_NOTIFIED, 0);
		st_schedule_local(w, t, false);
	}
	if (!w->searching && runq_len(&w->rq) > 0)
		st_notify(s);
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
	st_lock(s);
	prev = atomic_fetch_sub(&s->idle, ST_UNPARK_ONE +
	    (w->searching ? 1 : 0));
	s->sleepers[s->nsleepers++] = w->index;
	atomic_store(&w->parked, true);
	st_unlock(s);
	if (w->searching && (prev & ST_SEARCH_MASK) == 1)
		st_notify_if_pending(s);
	w->searching = false;
	while (atomic_load(&w->parked) && !atomic_load(&s->stop))
		parker_park(&w->parker, 0);
	w->searching = !atomic_load(&w->parked);
	w->count[DB_DISP_C_unparks] += w->searching;
	return;
}

static bool
st_drained(struct st_worker *w)
{

	return w->lifo == NULL && runq_len(&w->rq) == 0 &&
	    w->defer.head == NULL && st_inject_empty(w->pool);
}

static void *
st_worker_main(void *arg)
{
	struct st_worker *w = arg;
	struct stealing *s = w->pool;
	struct db_task *t;

	st_current = w;
	for (;;) {
		/* Tokio's maintenance: a driver poll every event_interval. */
		if (++w->tick % ST_EVENT_INTERVAL == 0 &&
		    s->k.yield_path != DISP_YIELD_GO)
			st_park_yield(w);
		t = st_next_task(w);
		if (t == NULL)
			t = st_steal(w);
		if (t != NULL) {
			st_run(w, t);
			continue;
		}
		if (w->defer.head != NULL) {		/* did_defer_tasks */
			st_park_yield(w);
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
	w->lifo_enabled = s->k.lifo == DISP_LIFO_ON;
	w->searching = false;
	w->tick = 0;
	w->rand = 2654435761u * (i + 1);
	w->running = w->next = NULL;
	w->defer.head = w->defer.tail = NULL;
	memset(w->count, 0, sizeof(w->count));
	memset(&w->lockc, 0, sizeof(w->lockc));
	atomic_init(&w->parked, false);
	parker_init(&w->parker);
	w->ran = 0;
	w->pool = s;
	w->index = i;
	return;
}

static int
stealing_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
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
	s->k = disp_knobs(cfg);
	s->nworkers = cfg->workers;
	atomic_init(&s->idle, s->nworkers << ST_SEARCH_SHIFT);
	s->sleepers = calloc(s->nworkers, sizeof(*s->sleepers));
	if (s->sleepers == NULL)
		goto out_free;
	if (posix_memalign((void **)&s->workers, 64,
	    s->nworkers * sizeof(*s->workers)) != 0)
		goto out_sleepers;
	/* Only a runtime with enable_io has an epoll (mio's Poll). */
	s->epfd = -1;
	if (s->k.floor == DISP_FLOOR_IO &&
	    (s->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		error = -errno;
		goto out_workers;
	}
	atomic_init(&s->driver, false);
	atomic_init(&s->park_state, ST_PARK_EMPTY);
	/* Go's floor: casgstatus and the g's own stack. */
	s->gs = s->k.yield_path == DISP_YIELD_GO &&
	    s->k.floor != DISP_FLOOR_OFF;
	if (s->gs && (error = gstack_set_init(&s->allgs)) != 0)
		goto out_epoll;
	/* Tokio's floor: the context's budget and task id around a poll. */
	s->ctx = s->k.yield_path != DISP_YIELD_GO &&
	    s->k.floor != DISP_FLOOR_OFF;
	pthread_mutex_init(&s->lock, NULL);
	golock_init(&s->golock);
	for (i = 0; i < s->nworkers; i++)
		st_worker_init(s, &s->workers[i], i);
	for (i = 0; i < s->nworkers; i++) {
		error = disp_thread_spawn(&s->cfg, i, &s->workers[i].tid,
		    st_worker_main, &s->workers[i]);
		if (error != 0)
			goto out_join;
	}
	*dp = &s->base;
	return 0;
out_join:
	s->nworkers = i;
	db_shutdown(&s->base, NULL);
	return error;
out_epoll:
	if (s->epfd >= 0)
		close(s->epfd);
out_workers:
	free(s->workers);
out_sleepers:
	free(s->sleepers);
out_free:
	free(s);
	return error;
}

static void
stealing_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct stealing *s = (struct stealing *)d;
	struct st_worker *w;
	unsigned int i, k;

	atomic_store(&s->stop, 1);
	for (i = 0; i < s->nworkers; i++)
		parker_unpark(&s->workers[i].parker);
	for (i = 0; i < s->nworkers; i++)
		pthread_join(s->workers[i].tid, NULL);
	for (i = 0; st != NULL && i < s->nworkers; i++) {
		w = &s->workers[i];
		st->ran += w->ran;
		for (k = 0; k < DB_DISP_NCOUNTERS; k++)
			st->count[k] += w->count[k];
		st->count[DB_DISP_C_lock_spins] += w->lockc.spins;
		st->count[DB_DISP_C_lock_yields] += w->lockc.yields;
		st->count[DB_DISP_C_lock_sleeps] += w->lockc.sleeps;
		st->count[DB_DISP_C_lock_wakes] += w->lockc.wakes;
	}
	if (st != NULL) {
		st->count[DB_DISP_C_lock_spins] += atomic_load(&s->outside.spins);
		st->count[DB_DISP_C_lock_yields] += atomic_load(&s->outside.yields);
		st->count[DB_DISP_C_lock_sleeps] += atomic_load(&s->outside.sleeps);
		st->count[DB_DISP_C_lock_wakes] += atomic_load(&s->outside.wakes);
		st->count[DB_DISP_C_injected] = s->injected;
		st->threads_started = s->nworkers;
		st->threads_peak = s->nworkers;
	}
	if (s->epfd >= 0)
		close(s->epfd);
	if (s->gs)
		gstack_set_destroy(&s->allgs);
	pthread_mutex_destroy(&s->lock);
	free(s->sleepers);
	free(s->workers);
	free(s);
	return;
}

const struct db_disp_ops disp_stealing = {
	DB_DISP_OPS_HEAD,
	.name = "stealing",
	.model = "Tokio/Go: per-worker ring + LIFO slot, inject queue, stealing",
	.counts = DB_DISP_COUNT(injected) | DB_DISP_COUNT(steals) |
	    DB_DISP_COUNT(stolen) | DB_DISP_COUNT(lifo_hits) | DB_DISP_COUNT(deferred) |
	    DB_DISP_COUNT(driver_polls) | DB_DISP_COUNT(epoll_waits) |
	    DB_DISP_COUNT(unparks) | DB_DISP_COUNT(lock_spins) |
	    DB_DISP_COUNT(lock_yields) | DB_DISP_COUNT(lock_sleeps) |
	    DB_DISP_COUNT(lock_wakes) | DB_DISP_COUNT(g_switches) |
	    DB_DISP_COUNT(budgets),
	.create = stealing_create,
	.dispatch = stealing_dispatch,
	.yield = stealing_yield,
	.shutdown = stealing_shutdown,
};
