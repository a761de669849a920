/*
 * eventloop.c - N event loops, Netty's design as Ktor's NettyDispatcher
 * uses it: every task has a home loop, kept from its first dispatch
 * (pinnedCallExecutor caches the loop per channel): the loop that
 * dispatched it, as a continuation made by a handler belongs to the
 * handler's loop, or one chosen round-robin when it came from elsewhere.
 *
 *  - Dispatched on its home loop's own thread (inEventLoop), a task goes to
 *    that thread's local FIFO: plain loads and stores, no atomic
 *    read-modify-write, no wake-up. (NettyDispatcher.isDispatchNeeded is
 *    false there and the continuation runs in place.)
 *  - Dispatched from any other thread, it goes through the loop's MPSC
 *    queue (queues/mpsc.c: JCTools' unbounded one in 1024-slot rings, as
 *    PlatformDependent.newMpscQueue makes it), and the loop is woken as
 *    Netty's EpollIoHandler.wakeup does it: getAndSet(nextWakeup, AWAKE),
 *    and only if it was not AWAKE, one write to an eventfd. The loop
 *    blocks in epoll_wait on that eventfd, which is edge-triggered and
 *    never read ("we only want to get the notification once per wakeup").
 *  - A loop runs at most 64 local tasks between looks at its MPSC queue,
 *    Netty's deadline check every 64 tasks in runAllTasks. No spinning
 *    before it blocks (Netty's default select strategy).
 *  - cfg->from outside: every resumption comes as Netty's execute() from
 *    a thread that is not its loop (SingleThreadEventExecutor.execute:
 *    the MPSC queue's CAS, then wakeup's getAndSet), and while tasks are
 *    pending each pass of the loop polls epoll with a 0 timeout before it
 *    runs them (DefaultSelectStrategy: selectNow when hasTasks, then
 *    processReady and runAllTasks). Netty 4.1/4.2, transport-classes-
 *    epoll EpollEventLoop.run / EpollIoHandler.run.
 *  - cfg->from execute: every resumption is Netty's own execute() from
 *    inside its loop (SingleThreadEventExecutor.execute, Netty 4.1.48):
 *    the MPSC queue's CAS, and no wake-up (wakeup(inEventLoop) returns at
 *    once). Its pass is NioEventLoop.run's with tasks pending: selectNow
 *    (an epoll_wait with a 0 timeout), then runAllTasks(0): tasks polled
 *    one at a time, a System.nanoTime after the 64th, the deadline check
 *    a 0 deadline always fails (or when the queue is empty).
 *
 * No wake-up is lost: a dispatch pushes its task (a CAS on the producer
 * index), then exchanges the loop's wake-up word; a loop about to block
 * stores SLEEPING, fences, then looks at its queues. One sees the other:
 * the loop finds the task, or the dispatch finds SLEEPING and writes the
 * eventfd, whose edge epoll_wait keeps until the loop blocks.
 */
#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "hook.h"
#include "knobs.h"
#include "taskfifo.h"

extern const struct db_disp_ops disp_eventloop;	/* defined below */

#define EL_BATCH	64
#define EL_CHUNK	1024		/* PlatformDependent.MPSC_CHUNK_SIZE */
#define EL_AWAKE	0
#define EL_SLEEPING	1

struct el_loop {
	struct db_queue *inbox;
	_Atomic int wakeup;			/* EL_AWAKE or EL_SLEEPING */
	int eventfd;
	int epfd;
	struct taskfifo local;			/* owner only */
	uint64_t ran, polls, wakeups;
	uint64_t executed;			/* tasks taken from the inbox */
	struct eventloop *group;
	pthread_t tid;
} __attribute__((aligned(64)));

struct eventloop {
	struct db_dispatcher base;
	struct db_disp_config cfg;
	struct disp_knobs k;
	unsigned int nloops;
	_Atomic unsigned int next;		/* round-robin chooser */
	_Atomic int stop;
	struct el_loop *loops;
};

static _Thread_local struct el_loop *el_current;

static void
el_wakeup(struct el_loop *l)
{
	uint64_t one = 1;

	if (atomic_exchange(&l->wakeup, EL_AWAKE) != EL_AWAKE) {
		if (write(l->eventfd, &one, sizeof(one)) < 0)
			abort();
	}
	return;
}

static void
eventloop_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct eventloop *e = (struct eventloop *)d;
	struct el_loop *home = DISP_TASK_HOME(t);

	if (home == NULL) {
		home = el_current != NULL && el_current->group == e ? el_current :
		    &e->loops[atomic_fetch_add_explicit(&e->next, 1,
		    memory_order_relaxed) % e->nloops];
		DISP_TASK_HOME(t) = home;
	}
	if (home == el_current && e->k.from == DISP_FROM_HOME) {
		taskfifo_push(&home->local, t);
		return;
	}
	if (!db_queue_push(home->inbox, t))
		abort();		/* out of memory: Netty would throw */
	/* Netty's execute() in its own loop wakes nothing. */
	if (home != el_current || e->k.from != DISP_FROM_EXECUTE)
		el_wakeup(home);
	return;
}

static bool
el_has_work(struct el_loop *l)
{

	return l->local.head != NULL || !db_queue_empty(l->inbox);
}

/*
 * Netty's pass with tasks pending: selectNow, then runAllTasks(0), which
 * polls its task queue one task at a time and reads the clock after the
 * 64th (or once the queue is empty).
 */
static void
el_run_execute(struct el_loop *l)
{
	struct epoll_event ev;
	struct timespec now;
	void *t;
	int i;

	(void)epoll_wait(l->epfd, &ev, 1, 0);
	l->polls++;
	for (i = 0; i < EL_BATCH && db_queue_pop(l->inbox, &t); i++) {
		assert(DISP_TASK_HOME((struct db_task *)t) == l);
		l->executed++;
		l->ran++;
		((struct db_task *)t)->fn(t);
	}
	clock_gettime(CLOCK_MONOTONIC, &now);	/* System.nanoTime */
	return;
}

/*
 * Runs one batch: with tasks from outside, epoll polled first (selectNow);
 * the inbox moved into the local FIFO, then up to 64.
 */
static void
el_run_batch(struct el_loop *l)
{
	struct epoll_event ev;
	struct db_task *t;
	void *in;
	int i;

	if (l->group->k.from == DISP_FROM_EXECUTE) {
		el_run_execute(l);
		return;
	}
	if (l->group->k.from == DISP_FROM_OUTSIDE) {
		(void)epoll_wait(l->epfd, &ev, 1, 0);
		l->polls++;
	}
	while (db_queue_pop(l->inbox, &in)) {
		taskfifo_push(&l->local, in);
		l->executed++;
	}
	for (i = 0; i < EL_BATCH && (t = taskfifo_pop(&l->local)) != NULL; i++) {
		assert(DISP_TASK_HOME(t) == l);	/* a loop runs only its own tasks */
		l->ran++;
		t->fn(t);
	}
	return;
}

/* Netty: set nextWakeupNanos, re-check for tasks, then epoll_wait. */
static void
el_block(struct el_loop *l)
{
	struct epoll_event ev;

	DISP_HOOK("eventloop: about to sleep");
	atomic_store(&l->wakeup, EL_SLEEPING);
	/* Pairs with the exchange in el_wakeup: one of us sees the other. */
	atomic_thread_fence(memory_order_seq_cst);
	if (!el_has_work(l) && !atomic_load(&l->group->stop)) {
		DISP_HOOK("eventloop: sleeps");
		l->wakeups += epoll_wait(l->epfd, &ev, 1, -1) > 0;
	}
	atomic_store(&l->wakeup, EL_AWAKE);
	return;
}

static void *
el_loop_main(void *arg)
{
	struct el_loop *l = arg;

	el_current = l;
	for (;;) {
		if (el_has_work(l)) {
			el_run_batch(l);
			continue;
		}
		if (atomic_load(&l->group->stop))
			break;
		el_block(l);
	}
	return NULL;
}

static int
el_loop_init(struct eventloop *e, struct el_loop *l)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET };
	int error;

	atomic_init(&l->wakeup, EL_AWAKE);
	l->local.head = l->local.tail = NULL;
	l->ran = l->polls = l->wakeups = l->executed = 0;
	l->group = e;
	if ((error = queue_mpsc.create(&l->inbox, EL_CHUNK)) != 0)
		return error;
	l->eventfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (l->eventfd < 0) {
		error = -errno;
		db_queue_destroy(l->inbox);
		return error;
	}
	l->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (l->epfd < 0 || epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->eventfd,
	    &ev) != 0) {
		error = -errno;
		close(l->eventfd);
		if (l->epfd >= 0)
			close(l->epfd);
		db_queue_destroy(l->inbox);
		return error;
	}
	return 0;
}

static void
el_loop_fini(struct el_loop *l)
{

	close(l->eventfd);
	close(l->epfd);
	db_queue_destroy(l->inbox);
	return;
}

static int
eventloop_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct eventloop *e;
	unsigned int i, ready, started;
	int error;

	if (cfg->workers == 0)
		return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	e->base.ops = &disp_eventloop;
	e->cfg = *cfg;
	e->k = disp_knobs(cfg);
	e->nloops = cfg->workers;
	error = -posix_memalign((void **)&e->loops, 64,
	    e->nloops * sizeof(*e->loops));
	if (error != 0)
		goto out_free;
	for (ready = 0; ready < e->nloops; ready++)
		if ((error = el_loop_init(e, &e->loops[ready])) != 0)
			goto out_loops;
	for (started = 0; started < e->nloops; started++)
		if ((error = disp_thread_spawn(&e->cfg, started,
		    &e->loops[started].tid,
		    el_loop_main, &e->loops[started])) != 0)
			goto out_join;
	*dp = &e->base;
	return 0;
out_join:
	atomic_store(&e->stop, 1);
	for (i = 0; i < started; i++) {
		el_wakeup(&e->loops[i]);
		pthread_join(e->loops[i].tid, NULL);
	}
out_loops:
	for (i = 0; i < ready; i++)
		el_loop_fini(&e->loops[i]);
	free(e->loops);
out_free:
	free(e);
	return error;
}

static void
eventloop_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct eventloop *e = (struct eventloop *)d;
	struct el_loop *l;
	unsigned int i;

	atomic_store(&e->stop, 1);
	for (i = 0; i < e->nloops; i++)
		el_wakeup(&e->loops[i]);
	for (i = 0; i < e->nloops; i++) {
		l = &e->loops[i];
		pthread_join(l->tid, NULL);
		if (st != NULL) {
			st->ran += l->ran;
			st->count[DB_DISP_C_injected] += l->executed;
			st->count[DB_DISP_C_driver_polls] += l->polls;
			st->count[DB_DISP_C_unparks] += l->wakeups;
		}
		el_loop_fini(l);
	}
	if (st != NULL) {
		st->threads_started = e->nloops;
		st->threads_peak = e->nloops;
	}
	free(e->loops);
	free(e);
	return;
}

const struct db_disp_ops disp_eventloop = {
	DB_DISP_OPS_HEAD,
	.name = "eventloop",
	.model = "Netty: N loops, local FIFO on the home loop, MPSC + eventfd else",
	.flags = DB_DISP_LOOPS,
	.counts = DB_DISP_COUNT(injected) | DB_DISP_COUNT(driver_polls) |
	    DB_DISP_COUNT(unparks),
	.create = eventloop_create,
	.dispatch = eventloop_dispatch,
	.shutdown = eventloop_shutdown,
};
