/*
 * test_interleave.c - the interleavings that each design's argument
 * against a lost or uncounted task is about, each forced once: a thread
 * is held at a named point of limited, rendezvous or eventloop
 * (dispatchers/hook.h) while the test makes the other side's move, then
 * let go, and the design's own state is read where the argument says
 * what it must be. A stress test meets such an order by chance; here
 * every run meets it, in milliseconds, and a defect fails at once:
 * limited's count of running workers after a worker took its slot back,
 * after a dispatch found its task taken, and after a re-dispatch;
 * rendezvous' overflow handed to a worker that went idle at the bound,
 * from either side, and drained when its last worker retired, from
 * either side, and no worker freed while another may still read it;
 * an event loop's re-check after it announced sleep, and the wake-up of
 * one that did.
 */
#define _GNU_SOURCE
#define DISP_HOOKS
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "progress.h"

/* The designs' own sources with their hooks, apart from the library's. */
#define disp_limited	hooked_limited
#define disp_rendezvous	hooked_rendezvous
#define disp_eventloop	hooked_eventloop
#include "limited.c"
#include "rendezvous.c"
#include "eventloop.c"
#undef disp_limited
#undef disp_rendezvous
#undef disp_eventloop

#define HOLD_S		10.0	/* a thread that never comes fails by then */
#define HOOKS		4

/* A point armed once: the first thread to reach it waits there until let go. */
static struct hook {
	const char *point;	/* NULL: free */
	bool armed, held, go;
} hooks[HOOKS];
static pthread_mutex_t hook_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hook_cond = PTHREAD_COND_INITIALIZER;
static _Atomic int hooks_armed;

void
disp_hook(const char *point)
{
	struct hook *h;

	if (atomic_load(&hooks_armed) == 0)
		return;
	pthread_mutex_lock(&hook_lock);
	for (h = hooks; h < hooks + HOOKS; h++)
		if (h->armed && strcmp(h->point, point) == 0)
			break;
	if (h < hooks + HOOKS) {
		h->armed = false;
		atomic_fetch_sub(&hooks_armed, 1);
		h->held = true;
		pthread_cond_broadcast(&hook_cond);
		while (!h->go)
			pthread_cond_wait(&hook_cond, &hook_lock);
		*h = (struct hook){ NULL, false, false, false };
	}
	pthread_mutex_unlock(&hook_lock);
	return;
}

static void
hook_arm(const char *point)
{
	struct hook *h;

	pthread_mutex_lock(&hook_lock);
	for (h = hooks; h->point != NULL; h++)
		cr_assert(h + 1 < hooks + HOOKS, "too many points armed");
	*h = (struct hook){ point, true, false, false };
	atomic_fetch_add(&hooks_armed, 1);
	pthread_mutex_unlock(&hook_lock);
	return;
}

static struct hook *
hook_find(const char *point)
{
	struct hook *h;

	for (h = hooks; h < hooks + HOOKS; h++)
		if (h->point != NULL && strcmp(h->point, point) == 0)
			return h;
	return NULL;
}

/* Until a thread is held at point: one that never comes fails the test. */
static void
hook_wait(const char *point)
{
	struct timespec until;
	struct hook *h;
	bool held;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += (time_t)HOLD_S;
	pthread_mutex_lock(&hook_lock);
	while ((h = hook_find(point)) != NULL && !h->held &&
	    pthread_cond_timedwait(&hook_cond, &hook_lock, &until) == 0)
		;
	held = h != NULL && h->held;
	pthread_mutex_unlock(&hook_lock);
	cr_assert(held, "no thread reached \"%s\" in %.0f s", point, HOLD_S);
	return;
}

static void
hook_release(const char *point)
{
	struct hook *h;

	pthread_mutex_lock(&hook_lock);
	if ((h = hook_find(point)) != NULL)
		h->go = true;
	pthread_cond_broadcast(&hook_cond);
	pthread_mutex_unlock(&hook_lock);
	return;
}

/* Until cond holds, or HOLD_S: the assertion after it says what failed. */
#define UNTIL(cond) do {						\
	double until_ = measure_now() + HOLD_S;				\
									\
	while (!(cond) && measure_now() < until_)			\
		usleep(100);						\
} while (0)

static _Atomic uint64_t done;

static void
once_run(struct db_task *t)
{

	(void)t;
	atomic_fetch_add(&done, 1);
	return;
}

/* A task that runs until the test opens its gate. */
struct gated {
	struct db_task task;
	_Atomic bool started, open;
};

static void
gated_run(struct db_task *t)
{
	struct gated *g = (struct gated *)t;

	atomic_store(&g->started, true);
	while (!atomic_load(&g->open))
		usleep(100);
	once_run(t);
	return;
}

static struct disp_knobs knobs;

static struct db_disp_config
config(unsigned int workers)
{
	struct db_disp_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.workers = workers;
	cfg.queue = queue_find("lfseg");
	cfg.queue_capacity = 4096;
	knobs = (struct disp_knobs)DISP_KNOBS_INIT;
	cfg.knobs = &knobs;
	atomic_store(&done, 0);
	return cfg;
}

/* A dispatch on a thread of its own, for one the test holds. */
struct dispatching {
	struct db_dispatcher *d;
	struct db_task *t;
	pthread_t tid;
};

static void *
dispatching_run(void *arg)
{
	struct dispatching *x = arg;

	db_dispatch(x->d, x->t);
	return NULL;
}

static void
dispatch_apart(struct dispatching *x, struct db_dispatcher *d,
    struct db_task *t)
{

	*x = (struct dispatching){ d, t, 0 };
	cr_assert_eq(pthread_create(&x->tid, NULL, dispatching_run, x), 0);
	return;
}

/*
 * The design's one worker busy with a, then t dispatched on a thread of
 * its own and held at point; then a let finish.
 */
static void
dispatch_held_beside(struct dispatching *x, struct db_dispatcher *d,
    struct gated *a, struct db_task *t, const char *point)
{

	db_dispatch(d, &a->task);
	UNTIL(atomic_load(&a->started));
	hook_arm(point);
	dispatch_apart(x, d, t);
	hook_wait(point);
	atomic_store(&a->open, true);
	return;
}

/* limited: its one worker has given its slot up and is spent. */
static bool
lim_idle(struct limited *l)
{
	bool idle;

	pthread_mutex_lock(&l->lock);
	idle = l->spent != NULL;
	pthread_mutex_unlock(&l->lock);
	return idle;
}

/*
 * A worker that found the queue empty while a dispatch, seeing it still
 * counted, queued a task: it takes its slot back, and is counted while
 * it retries, or a second dispatch starts a worker beside it.
 */
Test(interleave, limited_counts_a_worker_that_takes_its_slot_back,
    .timeout = 60)
{
	struct db_disp_config cfg = config(1);
	struct db_task t[3];
	struct db_dispatcher *d;
	struct limited *l;
	int i;

	knobs.pool = 2;
	cr_assert_eq(hooked_limited.create(&d, &cfg), 0);
	l = (struct limited *)d;
	for (i = 0; i < 3; i++)
		t[i] = (struct db_task)DB_TASK_INIT(once_run);
	hook_arm("limited: found the queue empty");
	db_dispatch(d, &t[0]);
	hook_wait("limited: found the queue empty");
	db_dispatch(d, &t[1]);
	hook_arm("limited: took its slot back");
	hook_release("limited: found the queue empty");
	hook_wait("limited: took its slot back");
	cr_assert_eq(atomic_load(&l->running), 1, "limited(1): %d running "
	    "while its one worker retries with its slot taken back",
	    atomic_load(&l->running));
	db_dispatch(d, &t[2]);
	hook_release("limited: took its slot back");
	cr_assert(progress_wait(&done, 3), "%lu of 3 tasks ran",
	    (unsigned long)atomic_load(&done));
	UNTIL(lim_idle(l));
	cr_assert_eq(atomic_load(&l->running), 0, "limited(1): %d running once "
	    "idle", atomic_load(&l->running));
	db_shutdown(d, NULL);
}

/*
 * A dispatch that allocated a worker, then found its task taken by one
 * already running, gives back its one slot, no more.
 */
Test(interleave, limited_gives_back_one_slot_when_its_task_was_taken,
    .timeout = 60)
{
	struct db_disp_config cfg = config(2);
	struct gated a = { DB_TASK_INIT(gated_run), false, false };
	struct db_task x = DB_TASK_INIT(once_run);
	struct dispatching apart;
	struct db_dispatcher *d;
	struct limited *l;

	knobs.pool = 4;
	cr_assert_eq(hooked_limited.create(&d, &cfg), 0);
	l = (struct limited *)d;
	dispatch_held_beside(&apart, d, &a, &x, "limited: allocated a worker");
	cr_assert(progress_wait(&done, 2), "%lu of 2 tasks ran",
	    (unsigned long)atomic_load(&done));
	UNTIL(lim_idle(l));
	hook_release("limited: allocated a worker");
	pthread_join(apart.tid, NULL);
	cr_assert_eq(atomic_load(&l->running), 0, "limited(2): %d running once "
	    "idle, after a dispatch found its task taken",
	    atomic_load(&l->running));
	db_shutdown(d, NULL);
}

/*
 * A worker that re-dispatches itself after LIM_FAIRNESS tasks stays
 * counted ("still committed to our part of work").
 */
Test(interleave, limited_keeps_a_redispatched_worker_counted, .timeout = 60)
{
	struct db_disp_config cfg = config(1);
	struct gated a = { DB_TASK_INIT(gated_run), false, false };
	struct db_task t[2 * LIM_FAIRNESS];
	struct db_dispatcher *d;
	struct limited *l;
	int i;

	knobs.pool = 2;
	cr_assert_eq(hooked_limited.create(&d, &cfg), 0);
	l = (struct limited *)d;
	db_dispatch(d, &a.task);
	UNTIL(atomic_load(&a.started));
	for (i = 0; i < 2 * LIM_FAIRNESS; i++) {
		t[i] = (struct db_task)DB_TASK_INIT(once_run);
		db_dispatch(d, &t[i]);
	}
	atomic_store(&a.open, true);
	cr_assert(progress_wait(&done, 2 * LIM_FAIRNESS + 1), "%lu of %d tasks "
	    "ran", (unsigned long)atomic_load(&done), 2 * LIM_FAIRNESS + 1);
	UNTIL(lim_idle(l));
	cr_assert_eq(atomic_load(&l->running), 0, "limited(1): %d running once "
	    "idle, after its worker re-dispatched itself",
	    atomic_load(&l->running));
	db_shutdown(d, NULL);
}

/* rendezvous: the top of the idle stack, if it has announced its park. */
static struct rv_worker *
rv_parking(struct rendezvous *r)
{
	struct rv_worker *w;

	w = (struct rv_worker *)(uintptr_t)(atomic_load(&r->idle) &
	    RV_PTR_MASK);
	return w != NULL && atomic_load(&w->waiter) ? w : NULL;
}

/*
 * At the bound, a dispatch met no idle worker; its only worker then went
 * idle, found no overflow yet and parked. The dispatch, queueing its
 * task, must hand that worker the drain.
 */
Test(interleave, rendezvous_hands_the_overflow_to_a_worker_gone_idle,
    .timeout = 60)
{
	struct db_disp_config cfg = config(1);
	struct gated a = { DB_TASK_INIT(gated_run), false, false };
	struct db_task b = DB_TASK_INIT(once_run);
	struct dispatching apart;
	struct db_dispatcher *d;
	struct rendezvous *r;
	struct rv_worker *w = NULL;
	struct db_task *item;

	knobs.spins = 0;
	cr_assert_eq(hooked_rendezvous.create(&d, &cfg), 0);
	r = (struct rendezvous *)d;
	dispatch_held_beside(&apart, d, &a, &b, "rendezvous: met the bound");
	UNTIL((w = rv_parking(r)) != NULL);
	cr_assert(w != NULL, "the worker never went idle");
	hook_release("rendezvous: met the bound");
	pthread_join(apart.tid, NULL);
	/* The item first: a drain it already ran has left b's count. */
	item = atomic_load(&w->item);
	cr_assert(item != NULL || atomic_load(&done) == 2, "a task queued at "
	    "the bound while its worker parked: the worker was handed nothing");
	cr_assert(progress_wait(&done, 2));
	db_shutdown(d, NULL);
}

/*
 * At the bound, a dispatch queued its task and found no idle worker to
 * hand it; its worker, going idle, had looked at the overflow just
 * before. Having pushed itself, it must look again and drain it.
 */
Test(interleave, rendezvous_worker_gone_idle_looks_at_the_overflow_again,
    .timeout = 60)
{
	struct db_disp_config cfg = config(1);
	struct db_task a = DB_TASK_INIT(once_run), b = DB_TASK_INIT(once_run);
	struct db_dispatcher *d;
	struct rendezvous *r;
	struct rv_worker *w;

	knobs.spins = 0;
	cr_assert_eq(hooked_rendezvous.create(&d, &cfg), 0);
	r = (struct rendezvous *)d;
	hook_arm("rendezvous: found no overflow");
	db_dispatch(d, &a);
	hook_wait("rendezvous: found no overflow");
	db_dispatch(d, &b);
	hook_release("rendezvous: found no overflow");
	UNTIL(atomic_load(&done) == 2 || rv_parking(r) != NULL);
	w = rv_parking(r);
	cr_assert(atomic_load(&done) == 2, "its worker parked%s with a task "
	    "queued at the bound", w != NULL ? "" : " (or stalled)");
	db_shutdown(d, NULL);
}

/*
 * rendezvous bounded at 1, idle 1 ms: its one worker ran a, timed out
 * and is held retiring, still counted.
 */
static struct rendezvous *
rv_retiring(struct db_task *a)
{
	struct db_disp_config cfg = config(1);
	struct db_dispatcher *d;

	knobs.spins = 0;
	knobs.keepalive_s = 0.001;
	cr_assert_eq(hooked_rendezvous.create(&d, &cfg), 0);
	hook_arm("rendezvous: retiring");
	db_dispatch(d, a);
	hook_wait("rendezvous: retiring");
	return (struct rendezvous *)d;
}

/* Both of a and b ran, b queued at the bound when it was dispatched. */
static void
rv_both_ran(struct rendezvous *r, const char *when)
{

	UNTIL(atomic_load(&done) == 2);
	cr_assert_eq(atomic_load(&done), 2, "a task queued at the bound %s "
	    "its worker retired waits for another dispatch", when);
	cr_assert_eq(r->overflowed, 1, "b was not queued at the bound");
	db_shutdown(&r->base, NULL);
	return;
}

/*
 * At the bound, a dispatch met only its worker's cancelled node: the
 * worker timed out and is retiring, still counted. Its task queued, the
 * retiring worker must start one to drain it (ThreadPoolExecutor's
 * processWorkerExit): no other dispatch may come.
 */
Test(interleave, rendezvous_a_retiring_worker_leaves_no_task_queued,
    .timeout = 60)
{
	struct db_task a = DB_TASK_INIT(once_run), b = DB_TASK_INIT(once_run);
	struct rendezvous *r = rv_retiring(&a);

	db_dispatch(&r->base, &b);
	hook_release("rendezvous: retiring");
	rv_both_ran(r, "as");
}

/*
 * The other order: a dispatch met the bound, then the worker retired
 * and found no task queued. The dispatch, queueing it and finding no
 * idle worker, must count again and start one (execute's recheck).
 */
Test(interleave, rendezvous_a_dispatch_at_the_bound_counts_again,
    .timeout = 60)
{
	struct db_task a = DB_TASK_INIT(once_run), b = DB_TASK_INIT(once_run);
	struct rendezvous *r = rv_retiring(&a);
	struct dispatching apart;

	hook_arm("rendezvous: met the bound");
	dispatch_apart(&apart, &r->base, &b);
	hook_wait("rendezvous: met the bound");
	hook_release("rendezvous: retiring");
	UNTIL(atomic_load(&r->ctl) == 0);
	cr_assert_eq(atomic_load(&r->ctl), 0, "the worker never retired");
	hook_release("rendezvous: met the bound");
	pthread_join(apart.tid, NULL);
	rv_both_ran(r, "after");
}

static void *
shutting_down(void *d)
{

	db_shutdown(d, NULL);
	return NULL;
}

/* rendezvous: shutdown has taken every worker off its list. */
static bool
rv_unlisted(struct rendezvous *r)
{
	bool none;

	pthread_mutex_lock(&r->lock);
	none = r->threads == NULL;
	pthread_mutex_unlock(&r->lock);
	return none;
}

/*
 * A newer worker timed out and ended, its cancelled node left on the
 * idle stack; an older one then pushed itself on that node and is held
 * before it reads the node's waiter. Shutdown joins the ended one first:
 * freeing it then would leave the older one reading freed memory, which
 * AddressSanitizer and ThreadSanitizer report.
 */
Test(interleave, rendezvous_frees_no_worker_a_live_one_may_still_read,
    .timeout = 60)
{
	struct db_disp_config cfg = config(0);
	struct gated a = { DB_TASK_INIT(gated_run), false, false };
	struct db_task x = DB_TASK_INIT(once_run);
	struct db_dispatcher *d;
	struct rendezvous *r;
	pthread_t stopper;

	knobs.spins = 0;
	knobs.keepalive_s = 0.001;
	cr_assert_eq(hooked_rendezvous.create(&d, &cfg), 0);
	r = (struct rendezvous *)d;
	db_dispatch(d, &a.task);
	UNTIL(atomic_load(&a.started));
	db_dispatch(d, &x);
	UNTIL(atomic_load(&done) == 1 && atomic_load(&r->ctl) == 1);
	cr_assert_eq(atomic_load(&r->ctl), 1, "the newer worker never retired");
	hook_arm("rendezvous: pushed itself");
	atomic_store(&a.open, true);
	hook_wait("rendezvous: pushed itself");
	cr_assert_eq(pthread_create(&stopper, NULL, shutting_down, d), 0);
	UNTIL(rv_unlisted(r));
	cr_assert(rv_unlisted(r), "shutdown never reached the older worker");
	hook_release("rendezvous: pushed itself");
	pthread_join(stopper, NULL);
	cr_assert_eq(atomic_load(&done), 2);
}

/*
 * A task pushed while its loop, finding nothing, is about to announce
 * sleep: the dispatch sees it awake and writes no eventfd, so the loop's
 * re-check after the announcement must find the task.
 */
Test(interleave, eventloop_rechecks_for_work_after_announcing_sleep,
    .timeout = 60)
{
	struct db_disp_config cfg = config(1);
	struct db_task x = DB_TASK_INIT(once_run);
	struct db_dispatcher *d;

	hook_arm("eventloop: about to sleep");
	cr_assert_eq(hooked_eventloop.create(&d, &cfg), 0);
	hook_wait("eventloop: about to sleep");
	db_dispatch(d, &x);
	hook_arm("eventloop: sleeps");
	hook_release("eventloop: about to sleep");
	hook_wait("eventloop: sleeps");
	cr_assert_eq(atomic_load(&done), 1, "the loop went to sleep with a "
	    "task in its inbox and no wake-up coming");
	hook_release("eventloop: sleeps");
	db_shutdown(d, NULL);
}

/*
 * A task pushed once its loop has announced sleep and is about to block:
 * the dispatch must write the eventfd the loop blocks on.
 */
Test(interleave, eventloop_wakes_a_loop_that_announced_sleep, .timeout = 60)
{
	struct db_disp_config cfg = config(1);
	struct db_task x = DB_TASK_INIT(once_run);
	struct db_dispatcher *d;
	struct pollfd pfd = { .events = POLLIN };

	hook_arm("eventloop: sleeps");
	cr_assert_eq(hooked_eventloop.create(&d, &cfg), 0);
	hook_wait("eventloop: sleeps");
	db_dispatch(d, &x);
	/* Never read, so readable only if a dispatch wrote it. */
	pfd.fd = ((struct eventloop *)d)->loops[0].eventfd;
	cr_assert_eq(poll(&pfd, 1, 0), 1, "a task pushed to a loop about to "
	    "block wrote no eventfd: the loop would sleep through it");
	hook_release("eventloop: sleeps");
	cr_assert(progress_wait(&done, 1));
	db_shutdown(d, NULL);
}
