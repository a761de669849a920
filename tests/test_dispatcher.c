/*
 * test_dispatcher.c - every design of the registry runs each dispatched
 * task exactly once under concurrent dispatch; and what each design
 * promises of its own: limited never runs more than k at once, an event
 * loop (eventloop, glib-invoke, uv) runs a local resumption on its home
 * thread, a rendezvous reuses an idle thread, retires one after the
 * keep-alive, and queues at its bound; a stealing worker runs its own
 * dispatches LIFO-slot first, lets go of a self-dispatching task after
 * three, and idle workers take its work; Go's runtime lock spins, yields
 * and sleeps as lock2 does, and is stealing's sched.lock under --yield
 * go; a driver poll makes an epoll_wait only with --floor io; the Tokio
 * paths take the injection queue one task at a time.
 */
#define _GNU_SOURCE	/* pthread_getattr_np */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "binary.h"
#include "disp_list.h"
#include "golock.h"
#include "knobs.h"
#include "indices.h"
#include "progress.h"
#include "runq.h"
#include "scale.h"
#include "threads.h"

#define DISPATCHERS	8	/* dispatching threads, > cores; DB_STRESS_DISPATCHERS */
/*
 * ck_ring's MPMC push reserves a slot, then waits for every earlier
 * producer to publish: with more pushing threads than cores, a producer
 * preempted in between stalls the others for a time slice, and the stall
 * feeds itself (seen here: a minute instead of a second, now and then,
 * even with two). Such a queue (DB_Q_PUSH_IN_TURN) gets one dispatching
 * thread; the queue tests push it through two producers.
 */
#define DISPATCHERS_IN_TURN	1
#define TASKS		800000		/* DB_STRESS_TASKS */

struct once_task {
	struct db_task task;
	_Atomic int runs;
};

static _Atomic uint64_t done;

static void
once_run(struct db_task *t)
{

	atomic_fetch_add(&((struct once_task *)t)->runs, 1);
	atomic_fetch_add(&done, 1);
	return;
}

/* The built-in designs' knobs of the config a test made last. */
static struct disp_knobs knobs;

static struct db_disp_config
config(unsigned int workers, const char *queue)
{
	struct db_disp_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.workers = workers;
	cfg.queue = queue_find(queue);
	cfg.queue_capacity = 4096;
	knobs = (struct disp_knobs)DISP_KNOBS_INIT;
	cfg.knobs = &knobs;
	return cfg;
}

/* Until n tasks have run: one that never does fails the test, in 30 s. */
static void
wait_for(_Atomic uint64_t *counter, uint64_t n)
{

	cr_assert(progress_wait(counter, n), "%lu of %lu tasks ran, then none "
	    "for %.0f s: a task was lost", (unsigned long)atomic_load(counter),
	    (unsigned long)n, PROGRESS_STALL_S);
	return;
}

struct feeder {
	struct db_dispatcher *d;
	struct once_task *tasks;
	size_t n;
	pthread_t tid;
};

static void *
feed(void *arg)
{
	struct feeder *f = arg;
	size_t i;

	for (i = 0; i < f->n; i++)
		db_dispatch(f->d, &f->tasks[i].task);
	return NULL;
}

/* Design x queue: (index of design) * 16 + (index of queue), as built. */
#define PAIR_QUEUES	16
static int pairs[128];

ParameterizedTestParameters(dispatcher, each_task_runs_once)
{
	size_t d, q, n = 0;

	if (queue_count() > PAIR_QUEUES ||
	    disp_local_count() * queue_count() > sizeof(pairs) / sizeof(pairs[0]))
		abort();		/* PAIR_QUEUES and pairs[] too small */
	for (d = 0; d < disp_local_count(); d++) {
		if (!(disp_at(d)->flags & DB_DISP_USES_QUEUE)) {
			pairs[n++] = (int)(d * PAIR_QUEUES);
			continue;
		}
		for (q = 0; q < queue_count(); q++)
			if (!(queue_at(q)->flags & DB_Q_ONE_CONSUMER))
				pairs[n++] = (int)(d * PAIR_QUEUES + q);
	}
	return cr_make_param_array(int, pairs, n);
}

ParameterizedTest(int *pair, dispatcher, each_task_runs_once, .timeout = 7200)
{
	const struct db_disp_ops *ops = disp_at((size_t)*pair / PAIR_QUEUES);
	const struct db_queue_ops *q = queue_at((size_t)*pair % PAIR_QUEUES);
	int k, nf = (q->flags & DB_Q_PUSH_IN_TURN) ? DISPATCHERS_IN_TURN :
	    (int)scale("DB_STRESS_DISPATCHERS", DISPATCHERS);
	size_t per = scale("DB_STRESS_TASKS", TASKS) / (size_t)nf, total, i;
	struct feeder *f = calloc((size_t)nf, sizeof(*f));
	struct db_disp_config cfg;
	struct db_disp_stats st;
	struct db_dispatcher *d;
	struct once_task *tasks;

	total = (size_t)nf * per;
	tasks = calloc(total, sizeof(*tasks));
	cr_assert(f != NULL && tasks != NULL);
	cfg = config(4, q->name);
	cfg.queue_capacity = 64;		/* small: the spill is used */
	cr_assert_eq(ops->create(&d, &cfg), 0, "%s: create", ops->name);
	for (i = 0; i < total; i++)
		tasks[i].task = (struct db_task)DB_TASK_INIT(once_run);
	atomic_store(&done, 0);
	for (k = 0; k < nf; k++) {
		f[k] = (struct feeder){ d, tasks + (size_t)k * per, per, 0 };
		pthread_create(&f[k].tid, NULL, feed, &f[k]);
	}
	for (k = 0; k < nf; k++)
		pthread_join(f[k].tid, NULL);
	wait_for(&done, total);
	db_shutdown(d, &st);
	for (i = 0; i < total; i++)
		cr_assert_eq(atomic_load(&tasks[i].runs), 1, "%s/%s: task %zu "
		    "ran %d times", ops->name, q->name, i,
		    atomic_load(&tasks[i].runs));
	cr_assert_eq(st.ran, total, "%s: ran %lu of %zu", ops->name,
	    (unsigned long)st.ran, total);
	printf("%s/%s: %zu tasks from %d dispatching threads\n", ops->name,
	    q->name, total, nf);
	free(tasks);
	free(f);
}

/* limited(k): an atomic high-water mark of tasks running at once. */
static _Atomic int running, high_water;

static void
limited_probe(struct db_task *t)
{
	int now = atomic_fetch_add(&running, 1) + 1, hw = atomic_load(&high_water);
	volatile int spin;

	while (now > hw && !atomic_compare_exchange_weak(&high_water, &hw, now))
		;
	for (spin = 0; spin < 2000; spin++)
		;
	atomic_fetch_sub(&running, 1);
	once_run(t);
	return;
}

Test(dispatcher, limited_never_exceeds_k, .timeout = 300)
{
	struct db_disp_config cfg = config(3, "lfseg");
	struct once_task *tasks = calloc(200000, sizeof(*tasks));
	struct db_disp_stats st;
	struct db_dispatcher *d;
	int i;

	/*
	 * The scheduler's core size, above k + 1: over a narrower pool the
	 * view could never show more than the pool's width, whatever its
	 * limit.
	 */
	knobs.pool = 8;
	cr_assert_eq(disp_limited.create(&d, &cfg), 0);
	atomic_store(&done, 0);
	for (i = 0; i < 200000; i++) {
		tasks[i].task = (struct db_task)DB_TASK_INIT(limited_probe);
		db_dispatch(d, &tasks[i].task);
	}
	wait_for(&done, 200000);
	db_shutdown(d, &st);
	cr_assert(atomic_load(&high_water) <= 3, "limited(3) ran %d at once",
	    atomic_load(&high_water));
	cr_assert(atomic_load(&high_water) >= 1);
	/* The scheduler under it makes threads as it needs them. */
	cr_assert(st.threads_started >= 1);
	free(tasks);
}

/* A task that resumes itself on an event loop: always the same thread. */
struct homing {
	struct db_task task;
	struct db_dispatcher *d;
	pthread_t first;
	int runs;
	_Atomic int strayed;
};

static void
homing_run(struct db_task *t)
{
	struct homing *h = (struct homing *)t;

	if (h->runs++ == 0)
		h->first = pthread_self();
	else if (!pthread_equal(h->first, pthread_self()))
		atomic_store(&h->strayed, 1);
	if (h->runs < 100000)
		db_dispatch(h->d, &h->task);
	else
		atomic_fetch_add(&done, 1);
	return;
}

/* Every design made of event loops: the model and the real ones. */
static size_t loop_designs[16];

ParameterizedTestParameters(dispatcher, loops_resume_on_home_thread)
{
	size_t i, n = 0;

	for (i = 0; i < disp_count() && n < 16; i++)
		if (disp_at(i)->flags & DB_DISP_LOOPS)
			loop_designs[n++] = i;
	return cr_make_param_array(size_t, loop_designs, n);
}

ParameterizedTest(size_t *i, dispatcher, loops_resume_on_home_thread,
    .timeout = 120)
{
	const struct db_disp_ops *ops = disp_at(*i);
	struct db_disp_config cfg = config(4, "lfseg");
	struct homing h[16];
	struct db_disp_stats st;
	struct db_dispatcher *d;
	int k;

	cr_assert_eq(ops->create(&d, &cfg), 0);
	atomic_store(&done, 0);
	for (k = 0; k < 16; k++) {
		memset(&h[k], 0, sizeof(h[k]));
		h[k].task = (struct db_task)DB_TASK_INIT(homing_run);
		h[k].d = d;
		db_dispatch(d, &h[k].task);
	}
	wait_for(&done, 16);
	db_shutdown(d, &st);
	for (k = 0; k < 16; k++)
		cr_assert_not(atomic_load(&h[k].strayed), "%s: coroutine %d "
		    "left its loop", ops->name, k);
	cr_assert_eq(st.ran, 16 * 100000, "%s: ran %lu", ops->name,
	    (unsigned long)st.ran);
}

/*
 * True once every thread of the process but the caller sleeps ('S' in
 * /proc): a rendezvous worker that has run its task pushes itself on the
 * idle stack before anything that can put it to sleep, so asleep it is
 * idle, parked.
 */
static bool
others_asleep(void)
{
	char path[96], line[512], *st;
	pid_t self = (pid_t)syscall(SYS_gettid);
	bool asleep = true;
	struct dirent *de;
	DIR *dir = opendir("/proc/self/task");
	FILE *f;

	while (asleep && dir != NULL && (de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' || atoi(de->d_name) == self)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%.20s/stat",
		    de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;		/* it exited meanwhile */
		/* The state follows the name, which may hold anything. */
		if (fgets(line, sizeof(line), f) != NULL &&
		    (st = strrchr(line, ')')) != NULL)
			asleep = st[1] == ' ' && st[2] == 'S';
		fclose(f);
	}
	if (dir != NULL)
		closedir(dir);
	return asleep;
}

/* Waits up to PROGRESS_STALL_S for what `ready` says; fails without it. */
static void
wait_until(bool (*ready)(long), long arg, const char *what)
{
	double deadline = measure_now() + PROGRESS_STALL_S;

	while (!ready(arg)) {
		cr_assert(measure_now() < deadline, "%s: not in %.0f s", what,
		    PROGRESS_STALL_S);
		usleep(1000);
	}
	return;
}

static bool
parked(long unused)
{

	(void)unused;
	return others_asleep();
}

static bool
retired(long before)
{

	return measure_status(0, "Threads") == before;
}

/*
 * Two tasks, the second dispatched once the first one's thread is where
 * the test wants it: parked on the idle stack, or gone. Waiting on what
 * the kernel shows, not for a fixed time, holds on a loaded machine, where
 * a worker can be kept from the CPU for longer than any nap.
 */
static void
rendezvous_two(struct db_disp_config *cfg, bool (*ready)(long),
    const char *what, struct db_disp_stats *st)
{
	long before = threads_baseline();
	struct once_task t[2];
	struct db_dispatcher *d;

	cr_assert_eq(disp_rendezvous.create(&d, cfg), 0);
	atomic_store(&done, 0);
	t[0].task = t[1].task = (struct db_task)DB_TASK_INIT(once_run);
	db_dispatch(d, &t[0].task);
	wait_for(&done, 1);
	wait_until(ready, before, what);
	db_dispatch(d, &t[1].task);
	wait_for(&done, 2);
	db_shutdown(d, st);
}

Test(dispatcher, rendezvous_reuses_an_idle_thread, .timeout = 60)
{
	struct db_disp_config cfg = config(0, "lfseg");
	struct db_disp_stats st;

	/* Parked: on the idle list; it retires only after 60 s. */
	rendezvous_two(&cfg, parked, "the worker parked", &st);
	cr_assert_eq(st.threads_started, 1, "started %u threads for two "
	    "dispatches in a row", st.threads_started);
}

Test(dispatcher, rendezvous_retires_after_keepalive, .timeout = 60)
{
	struct db_disp_config cfg = config(0, "lfseg");
	struct db_disp_stats st;

	knobs.keepalive_s = 0.05;
	knobs.spins = 0;
	/* The idle thread gone after its keep-alive, the next one is new. */
	rendezvous_two(&cfg, retired, "the idle thread retired", &st);
	cr_assert_eq(st.threads_started, 2, "the idle thread did not retire");
	cr_assert_eq(st.threads_peak, 1);
}

/* Chains that re-dispatch themselves from inside a task, at the bound. */
struct chain {
	struct db_task task;
	struct db_dispatcher *d;
	int left;
};

static void
chain_run(struct db_task *t)
{
	struct chain *c = (struct chain *)t;

	if (--c->left > 0)
		db_dispatch(c->d, &c->task);
	else
		atomic_fetch_add(&done, 1);
	return;
}

Test(dispatcher, rendezvous_bounded_queues_instead_of_recursing, .timeout = 120)
{
	struct db_disp_config cfg = config(2, "lfseg");
	struct chain c[64];
	struct db_disp_stats st;
	struct db_dispatcher *d;
	int i;

	cr_assert_eq(disp_rendezvous.create(&d, &cfg), 0);
	atomic_store(&done, 0);
	for (i = 0; i < 64; i++) {
		c[i] = (struct chain){ DB_TASK_INIT(chain_run), d, 20000 };
		db_dispatch(d, &c[i].task);
	}
	wait_for(&done, 64);
	db_shutdown(d, &st);
	cr_assert(st.threads_peak <= 2, "peak %u threads over a bound of 2",
	    st.threads_peak);
	cr_assert(st.spilled > 0, "nothing met the bound");
	cr_assert_eq(st.ran, 64 * 20000);
}

/* A thread that only says who it is. */
ParameterizedTestParameters(dispatcher, shutdown_joins_every_thread)
{

	return INDICES(disp_local_count());
}

ParameterizedTest(size_t *i, dispatcher, shutdown_joins_every_thread, .timeout = 60)
{
	const struct db_disp_ops *ops = disp_at(*i);
	struct db_disp_config cfg = config(8, "lfseg");
	long before;
	struct chain c[32];
	struct db_disp_stats st;
	struct db_dispatcher *d;
	int k;

	before = threads_baseline();
	cr_assert_eq(ops->create(&d, &cfg), 0);
	atomic_store(&done, 0);
	for (k = 0; k < 32; k++) {
		c[k] = (struct chain){ DB_TASK_INIT(chain_run), d, 1000 };
		db_dispatch(d, &c[k].task);
	}
	wait_for(&done, 32);
	db_shutdown(d, &st);
	cr_assert_eq(threads_settle(before), before, "%s left threads behind",
	    ops->name);
}

/*
 * stealing: tasks that re-dispatch themselves from a worker (LIFO slot,
 * run queue), and one that fans out more children than a run queue holds
 * (overflow to the injection queue, steals), under every knob.
 */
struct fan {
	struct db_task task;
	struct db_dispatcher *d;
	struct once_task *children;
	int n;
};

static void
fan_run(struct db_task *t)
{
	struct fan *f = (struct fan *)t;
	int i;

	for (i = 0; i < f->n; i++)
		db_dispatch(f->d, &f->children[i].task);
	atomic_fetch_add(&done, 1);
	return;
}

static int stealing_knobs[] = { 0, 1, 2, 3 };	/* lifo off: 1, all search: 2 */

ParameterizedTestParameters(dispatcher, stealing_local_dispatches_run_once)
{

	return cr_make_param_array(int, stealing_knobs, 4);
}

ParameterizedTest(int *k, dispatcher, stealing_local_dispatches_run_once,
    .timeout = 600)
{
	struct db_disp_config cfg = config(4, "lfseg");
	int nchildren = 20 * RUNQ_SIZE, i;
	struct once_task *children = calloc((size_t)nchildren,
	    sizeof(*children));
	struct fan fan;
	struct chain c[64];
	struct db_disp_stats st;
	struct db_dispatcher *d;

	knobs.lifo = (*k & 1) ? DISP_LIFO_OFF : DISP_LIFO_ON;
	knobs.searchers = (*k & 2) ? DISP_SEARCH_ALL : DISP_SEARCH_HALF;
	cr_assert_eq(disp_stealing.create(&d, &cfg), 0);
	atomic_store(&done, 0);
	for (i = 0; i < nchildren; i++)
		children[i].task = (struct db_task)DB_TASK_INIT(once_run);
	fan = (struct fan){ DB_TASK_INIT(fan_run), d, children, nchildren };
	for (i = 0; i < 64; i++) {
		c[i] = (struct chain){ DB_TASK_INIT(chain_run), d, 20000 };
		db_dispatch(d, &c[i].task);
	}
	db_dispatch(d, &fan.task);
	wait_for(&done, 64 + 1 + (uint64_t)nchildren);
	db_shutdown(d, &st);
	for (i = 0; i < nchildren; i++)
		cr_assert_eq(atomic_load(&children[i].runs), 1, "child %d ran "
		    "%d times", i, atomic_load(&children[i].runs));
	cr_assert_eq(st.ran, 64 * 20000 + 1 + (uint64_t)nchildren);
	free(children);
}

/* One worker, so nothing is stolen: the order a worker runs its own in. */
struct ordered {
	struct db_task task;
	struct db_dispatcher *d;
	int id;
	int left;			/* re-dispatches of itself still to do */
};

static int order[64];
static _Atomic int norder;

static void
ordered_run(struct db_task *t)
{
	struct ordered *o = (struct ordered *)t;

	order[atomic_fetch_add(&norder, 1)] = o->id;
	if (o->left-- > 0)
		db_dispatch(o->d, &o->task);
	else
		atomic_fetch_add(&done, 1);
	return;
}

/* Task 0 dispatches tasks 1..n from the worker, then finishes. */
struct starter {
	struct db_task task;
	struct ordered *tasks;
	int n;
};

static void
starter_run(struct db_task *t)
{
	struct starter *s = (struct starter *)t;
	int i;

	for (i = 0; i < s->n; i++)
		db_dispatch(s->tasks[i].d, &s->tasks[i].task);
	return;
}

static void
run_ordered(enum disp_lifo lifo, struct ordered *tasks, int n, int runs)
{
	struct db_disp_config cfg = config(1, "lfseg");
	struct starter s = { DB_TASK_INIT(starter_run), tasks, n };
	struct db_disp_stats st;
	struct db_dispatcher *d;
	int i;

	knobs.lifo = lifo;
	cr_assert_eq(disp_stealing.create(&d, &cfg), 0);
	atomic_store(&done, 0);
	atomic_store(&norder, 0);
	for (i = 0; i < n; i++)
		tasks[i].d = d;
	db_dispatch(d, &s.task);
	wait_for(&done, (uint64_t)n);
	db_shutdown(d, &st);
	cr_assert_eq(atomic_load(&norder), runs);
}

/* kotlinx WorkQueue's KDoc: submit [1, 2, 3, 4], run [4, 1, 2, 3]. */
Test(dispatcher, stealing_lifo_slot_runs_the_last_first, .timeout = 60)
{
	static const int lifo[] = { 4, 1, 2, 3 }, fifo[] = { 1, 2, 3, 4 };
	struct ordered t[4];
	int i;

	for (i = 0; i < 4; i++)
		t[i] = (struct ordered){ DB_TASK_INIT(ordered_run), NULL,
		    i + 1, 0 };
	run_ordered(DISP_LIFO_ON, t, 4, 4);
	for (i = 0; i < 4; i++)
		cr_assert_eq(order[i], lifo[i], "run %d: task %d", i, order[i]);
	run_ordered(DISP_LIFO_OFF, t, 4, 4);
	for (i = 0; i < 4; i++)
		cr_assert_eq(order[i], fifo[i], "run %d: task %d", i, order[i]);
}

/*
 * A task that keeps re-dispatching itself holds its worker through the
 * LIFO slot at most 3 times (Tokio's MAX_LIFO_POLLS_PER_TICK): then the
 * task queued behind it runs.
 */
Test(dispatcher, stealing_lifo_slot_cannot_hold_a_worker, .timeout = 60)
{
	struct ordered t[2] = {
		{ DB_TASK_INIT(ordered_run), NULL, 1, 0 },
		{ DB_TASK_INIT(ordered_run), NULL, 2, 20 },
	};
	int i;

	run_ordered(DISP_LIFO_ON, t, 2, 22);
	for (i = 0; i < 22 && order[i] != 1; i++)
		;
	cr_assert(i <= 3, "task 1 waited behind %d runs of task 2", i);
}

/*
 * Work fanned out on one worker is taken by idle ones, if they wake before
 * it is done. A child spins about 1 ms (2 * 10^6 volatile increments, 0.46
 * ns each on the reference machine), so the fanning worker alone needs
 * over 0.1 s for all 128: a woken thief kept from a CPU for a few
 * scheduler periods (tens of ms on a loaded 2-CPU machine) still finds
 * most of them queued. At 2 * 10^5 the whole fan took 12 ms, one period.
 */
#define SPIN_CHILD	2000000

static _Atomic int ran_on[2];
static pthread_t fan_thread;

static void
spin_child(struct db_task *t)
{
	volatile int spin;

	atomic_fetch_add(&ran_on[pthread_equal(pthread_self(), fan_thread) ?
	    0 : 1], 1);
	for (spin = 0; spin < SPIN_CHILD; spin++)
		;
	once_run(t);
	return;
}

static void
fan_mark(struct db_task *t)
{

	fan_thread = pthread_self();
	fan_run(t);
	return;
}

Test(dispatcher, stealing_idle_workers_steal, .timeout = 120)
{
	struct db_disp_config cfg = config(4, "lfseg");
	struct once_task children[RUNQ_SIZE / 2];
	struct fan fan;
	struct db_disp_stats st;
	struct db_dispatcher *d;
	int i, n = RUNQ_SIZE / 2;

	cr_assert_eq(disp_stealing.create(&d, &cfg), 0);
	atomic_store(&done, 0);
	for (i = 0; i < n; i++)
		children[i].task = (struct db_task)DB_TASK_INIT(spin_child);
	/* Fewer than a run queue holds: none overflows to the inject queue. */
	fan = (struct fan){ DB_TASK_INIT(fan_mark), d, children, n };
	db_dispatch(d, &fan.task);
	wait_for(&done, 1 + (uint64_t)n);
	db_shutdown(d, &st);
	cr_assert(atomic_load(&ran_on[1]) > 0, "all %d children ran on the "
	    "worker that dispatched them", n);
}

/*
 * Go's runtime lock (golock.h) step by step, on one held lock: a second
 * locker spins (on a multiprocessor), yields the CPU, marks the lock
 * SLEEPING and sleeps on its futex; the unlock that swaps SLEEPING out
 * wakes it; having slept, it takes the lock as SLEEPING (lock2's `wait`),
 * so its own unlock wakes once more, sleeper or not. An uncontended lock
 * counts nothing. A plain futex mutex in its place fails every count.
 */
struct golocker {
	struct golock *l;
	struct golock_count lock, unlock;
};

static void *
golocker_main(void *arg)
{
	struct golocker *g = arg;

	golock_lock(g->l, &g->lock);
	golock_unlock(g->l, &g->unlock);
	return NULL;
}

static bool
golock_slept(long l)
{

	return atomic_load(&((struct golock *)l)->key) == GOLOCK_SLEEPING &&
	    others_asleep();
}

Test(dispatcher, golock_spins_yields_then_sleeps_until_woken, .timeout = 60)
{
	static const struct golock_count none;
	struct golock_count mine = { 0 };
	struct golock l;
	struct golocker g = { &l, { 0 }, { 0 } };
	pthread_t tid;

	golock_init(&l);
	golock_lock(&l, &mine);
	cr_assert(memcmp(&mine, &none, sizeof(none)) == 0, "an uncontended "
	    "lock2 spun, yielded or slept");
	cr_assert_eq(pthread_create(&tid, NULL, golocker_main, &g), 0);
	wait_until(golock_slept, (long)(intptr_t)&l, "the second locker "
	    "asleep on a SLEEPING key");
	golock_unlock(&l, &mine);
	pthread_join(tid, NULL);
	cr_assert_eq(mine.wakes, 1, "unlock2 of a SLEEPING key woke %lu "
	    "times", (unsigned long)mine.wakes);
	cr_assert_eq(g.lock.spins, golock_ncpu > 1 ? 1u : 0u, "%d CPUs: the "
	    "contended acquisition spun %lu times", golock_ncpu,
	    (unsigned long)g.lock.spins);
	cr_assert(g.lock.sleeps >= 1 && g.lock.sleeps <= g.lock.yields,
	    "%lu futex sleeps, %lu yields: lock2 yields once before each "
	    "sleep", (unsigned long)g.lock.sleeps,
	    (unsigned long)g.lock.yields);
	cr_assert_eq(g.lock.wakes, 0);
	cr_assert_eq(g.unlock.wakes, 1, "the woken locker's unlock woke %lu "
	    "times: it took the lock as SLEEPING", (unsigned long)g.unlock.wakes);
	cr_assert_eq(atomic_load(&l.key), GOLOCK_UNLOCKED);
}

/* Coroutines that yield (disp_yield) until each has run `runs` times. */
struct yielder {
	struct db_task task;
	struct db_dispatcher *d;
	int left;
};

static void
yielder_run(struct db_task *t)
{
	struct yielder *y = (struct yielder *)t;

	if (--y->left > 0)
		db_yield(y->d, &y->task);
	else
		atomic_fetch_add(&done, 1);
	return;
}

static struct yielder *yielders;
static int nyielders, yielder_runs;

/* A stealing dispatcher of cfg with n yielders started from outside. */
static struct db_dispatcher *
yielders_start(const struct db_disp_config *cfg, int n, int runs)
{
	struct db_dispatcher *d;
	int i;

	cr_assert_eq(disp_stealing.create(&d, cfg), 0);
	yielders = calloc((size_t)n, sizeof(*yielders));
	cr_assert_not_null(yielders);
	nyielders = n;
	yielder_runs = runs;
	atomic_store(&done, 0);
	for (i = 0; i < n; i++) {
		yielders[i] = (struct yielder){ DB_TASK_INIT(yielder_run), d,
		    runs };
		db_dispatch(d, &yielders[i].task);
	}
	return d;
}

static void
yielders_finish(struct db_dispatcher *d, struct db_disp_stats *st)
{

	wait_for(&done, (uint64_t)nyielders);
	db_shutdown(d, st);
	cr_assert_eq(st->ran, (uint64_t)nyielders * (uint64_t)yielder_runs);
	free(yielders);
	return;
}

/*
 * --yield go: sched.lock is Go's lock2/unlock2, and its counters hold to
 * them over a whole run, whoever locked (workers and the thread outside):
 * a futex sleep comes after a yield in the same try; a yield that no
 * sleep follows ends an acquisition that spun; a wake needs a SLEEPING
 * key, left by a sleep step (after a yield) or by a locker that slept.
 * Go's lock is found held at 4 workers over 2 CPUs or more. The Tokio
 * paths keep their futex mutex: none of Go's steps.
 */
Test(dispatcher, stealing_go_sched_lock_is_lock2, .timeout = 300)
{
	const unsigned int mine = DB_DISP_COUNT(lock_spins) |
	    DB_DISP_COUNT(lock_yields) | DB_DISP_COUNT(lock_sleeps) |
	    DB_DISP_COUNT(lock_wakes);
	struct db_disp_config cfg = config(4, "lfseg");
	struct db_disp_stats st;
	uint64_t sp = 0, yi = 0, sl = 0, wk = 0;
	int round;

	cr_assert_eq(disp_stealing.counts & mine, mine, "the lock counters "
	    "are not reported");
	knobs.yield_path = DISP_YIELD_GO;
	for (round = 0; round < 5 && sp + yi == 0; round++) {
		yielders_finish(yielders_start(&cfg, 64, 50000), &st);
		sp = st.count[DB_DISP_C_lock_spins];
		yi = st.count[DB_DISP_C_lock_yields];
		sl = st.count[DB_DISP_C_lock_sleeps];
		wk = st.count[DB_DISP_C_lock_wakes];
		cr_assert(sl <= yi, "%lu sleeps, %lu yields", (unsigned long)sl,
		    (unsigned long)yi);
		cr_assert(golock_ncpu == 1 || yi <= sl + sp, "%lu yields, %lu "
		    "sleeps, %lu spinning acquisitions", (unsigned long)yi,
		    (unsigned long)sl, (unsigned long)sp);
		cr_assert(wk <= yi + sl, "%lu wakes, %lu yields, %lu sleeps",
		    (unsigned long)wk, (unsigned long)yi, (unsigned long)sl);
	}
	cr_assert(sp + yi > 0, "%d runs of 64 coroutines in Gosched on 4 "
	    "workers never found sched.lock held", round);
	printf("go: %lu spins, %lu yields, %lu sleeps, %lu wakes\n",
	    (unsigned long)sp, (unsigned long)yi, (unsigned long)sl,
	    (unsigned long)wk);
	knobs.yield_path = DISP_YIELD_TOKIO;
	yielders_finish(yielders_start(&cfg, 64, 20000), &st);
	cr_assert(st.count[DB_DISP_C_lock_spins] + st.count[DB_DISP_C_lock_yields] +
	    st.count[DB_DISP_C_lock_sleeps] + st.count[DB_DISP_C_lock_wakes] == 0,
	    "--yield tokio went through Go's lock");
}

/*
 * Go 1.19's goschedImpl puts the goroutine on the global run queue and
 * calls schedule(), no wakep: the worker that yields takes it back, and
 * a parked worker stays parked. One coroutine in Gosched on 2 workers
 * wakes a parked worker only as it starts (about 1 in 10^6 yields here);
 * a wakep after each Gosched woke one for about 1 in 300.
 */
Test(dispatcher, stealing_go_gosched_wakes_no_parked_worker, .timeout = 120)
{
	struct db_disp_config cfg = config(2, "lfseg");
	struct db_disp_stats st;

	knobs.yield_path = DISP_YIELD_GO;
	yielders_finish(yielders_start(&cfg, 1, 200000), &st);
	cr_assert(st.count[DB_DISP_C_unparks] < 50, "%lu parked workers woken in "
	    "200000 Gosched calls", (unsigned long)st.count[DB_DISP_C_unparks]);
}

/*
 * A goroutine of --yield go: where each run of its task found itself.
 * self_dispatch: its poll dispatches it again (not a yield), then goes
 * on a while, so that another worker may take it before it returns.
 */
struct gtask {
	struct db_task task;
	struct db_dispatcher *d;
	int left;
	bool self_dispatch;
	_Atomic int inside;		/* runs under way: never above 1 */
	uintptr_t first_sp;
	bool thread_stack, other_stack, overlapped;
	pthread_t first_thread;
	bool moved;			/* a run on another worker */
};

/* Whether sp is on the calling thread's own stack. */
static bool
on_thread_stack(uintptr_t sp)
{
	pthread_attr_t a;
	void *lo;
	size_t size;

	cr_assert_eq(pthread_getattr_np(pthread_self(), &a), 0);
	cr_assert_eq(pthread_attr_getstack(&a, &lo, &size), 0);
	pthread_attr_destroy(&a);
	return sp >= (uintptr_t)lo && sp < (uintptr_t)lo + size;
}

static void
gtask_run(struct db_task *t)
{
	struct gtask *g = (struct gtask *)t;
	volatile char here = 0;
	uintptr_t sp = (uintptr_t)&here;
	int i;

	g->overlapped |= atomic_fetch_add(&g->inside, 1) != 0;
	g->thread_stack |= on_thread_stack(sp);
	if (g->first_sp == 0) {
		g->first_sp = sp;
		g->first_thread = pthread_self();
	}
	g->other_stack |= (sp > g->first_sp ? sp - g->first_sp :
	    g->first_sp - sp) > 4096;
	g->moved |= !pthread_equal(g->first_thread, pthread_self());
	if (--g->left == 0) {
		atomic_fetch_sub(&g->inside, 1);
		atomic_fetch_add(&done, 1);
		return;
	}
	if (!g->self_dispatch) {
		atomic_fetch_sub(&g->inside, 1);
		db_yield(g->d, &g->task);
		return;
	}
	/* Leaves the count before the dispatch: the next run may begin. */
	atomic_fetch_sub(&g->inside, 1);
	db_dispatch(g->d, &g->task);
	for (i = 0; i < 2000; i++)
		here = (char)(here + 1);
	return;
}

/* n goroutines of runs each on a stealing pool of cfg, to their end. */
static struct gtask *
gtasks_run(const struct db_disp_config *cfg, int n, int runs,
    bool self_dispatch, struct db_disp_stats *st)
{
	struct gtask *g = calloc((size_t)n, sizeof(*g));
	struct db_dispatcher *d;
	int i;

	cr_assert_not_null(g);
	cr_assert_eq(disp_stealing.create(&d, cfg), 0);
	atomic_store(&done, 0);
	for (i = 0; i < n; i++) {
		g[i] = (struct gtask){ .task = DB_TASK_INIT(gtask_run),
		    .d = d, .left = runs, .self_dispatch = self_dispatch };
		db_dispatch(d, &g[i].task);
	}
	wait_for(&done, (uint64_t)n);
	db_shutdown(d, st);
	cr_assert_eq(st->ran, (uint64_t)n * (uint64_t)runs);
	return g;
}

/*
 * --yield go runs each task on a goroutine's stack of its own, as Go's
 * execute and Gosched switch to a g's stack and back: never the worker's,
 * the same one on every run whichever worker runs it, two switches a
 * run. --floor off runs it on the worker's stack, with no switch.
 */
Test(dispatcher, stealing_go_runs_each_task_on_a_stack_of_its_own,
    .timeout = 120)
{
	struct db_disp_config cfg = config(4, "lfseg");
	struct db_disp_stats st;
	struct gtask *g;
	int i, moved = 0;

	knobs.yield_path = DISP_YIELD_GO;
	g = gtasks_run(&cfg, 16, 2000, false, &st);
	cr_assert_eq(st.count[DB_DISP_C_g_switches], 2 * st.ran, "%lu "
	    "switches for %lu runs", (unsigned long)st.count[DB_DISP_C_g_switches],
	    (unsigned long)st.ran);
	for (i = 0; i < 16; i++) {
		cr_assert(!g[i].thread_stack, "task %d ran on its worker's "
		    "stack", i);
		cr_assert(!g[i].other_stack, "task %d ran on two stacks", i);
		moved += g[i].moved;
	}
	cr_assert(moved > 0, "no task ran on two workers: the stack's "
	    "sameness shows nothing");
	free(g);
	knobs.floor = DISP_FLOOR_OFF;
	g = gtasks_run(&cfg, 16, 200, false, &st);
	cr_assert_eq(st.count[DB_DISP_C_g_switches], 0);
	for (i = 0; i < 16; i++)
		cr_assert(g[i].thread_stack, "--floor off: task %d ran off its "
		    "worker's stack", i);
	free(g);
}

/*
 * On Tokio's paths each run_task gives one coop budget, to a task and the
 * LIFO slot's tasks it runs after it. A yield_now's or a self-wake's task
 * is scheduled outside any run_task, so each of its runs is a run_task of
 * its own; a task woken by another runs from the LIFO slot under the
 * waker's budget. --floor off gives none, nor does Go's path.
 */
Test(dispatcher, stealing_tokio_gives_a_budget_to_each_run_task,
    .timeout = 120)
{
	static const struct {
		enum disp_yield path;
		bool shared;		/* LIFO runs share their waker's */
	} paths[] = { { DISP_YIELD_TOKIO, false },
	    { DISP_YIELD_SELF_WAKE, false }, { DISP_YIELD_WAKE_OTHER, true } };
	struct db_disp_config cfg;
	struct db_disp_stats st;
	uint64_t budgets;
	unsigned int i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		cfg = config(4, "lfseg");
		knobs.yield_path = paths[i].path;
		free(gtasks_run(&cfg, 16, 2000, false, &st));
		budgets = st.count[DB_DISP_C_budgets];
		cr_assert(paths[i].shared ? budgets < st.ran &&
		    budgets + st.count[DB_DISP_C_lifo_hits] >= st.ran :
		    budgets == st.ran, "path %u: %lu budgets, %lu LIFO runs, "
		    "%lu runs", i, (unsigned long)budgets,
		    (unsigned long)st.count[DB_DISP_C_lifo_hits],
		    (unsigned long)st.ran);
		knobs.floor = DISP_FLOOR_OFF;
		free(gtasks_run(&cfg, 16, 200, false, &st));
		cr_assert_eq(st.count[DB_DISP_C_budgets], 0, "path %u", i);
	}
	cfg = config(4, "lfseg");
	knobs.yield_path = DISP_YIELD_GO;
	free(gtasks_run(&cfg, 16, 200, false, &st));
	cr_assert_eq(st.count[DB_DISP_C_budgets], 0);
}

/*
 * A task dispatched again inside its own poll (the interface allows it)
 * may be taken by another worker before the poll returns: that worker
 * waits until the g is off the first one's stack, as Go never readies a
 * running g. Its runs never overlap, and each happens once. With the LIFO
 * slot off, the dispatch goes to a run queue others steal from.
 */
Test(dispatcher, stealing_go_never_runs_a_g_on_two_workers, .timeout = 120)
{
	struct db_disp_config cfg = config(4, "lfseg");
	struct db_disp_stats st;
	struct gtask *g;
	int i, moved = 0;

	knobs.yield_path = DISP_YIELD_GO;
	knobs.lifo = DISP_LIFO_OFF;
	g = gtasks_run(&cfg, 8, 5000, true, &st);
	for (i = 0; i < 8; i++) {
		cr_assert(!g[i].overlapped, "two runs of task %d at once", i);
		moved += g[i].moved;
	}
	cr_assert(moved > 0, "no task ran on two workers");
	free(g);
}

/* The epoll instances the process holds (a driver's), from /proc. */
static int
eventpolls(void)
{
	char path[300], link[64];
	struct dirent *de;
	DIR *dir = opendir("/proc/self/fd");
	ssize_t n;
	int count = 0;

	cr_assert_not_null(dir);
	while ((de = readdir(dir)) != NULL) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		if ((n = readlink(path, link, sizeof(link) - 1)) <= 0)
			continue;
		link[n] = '\0';
		count += strcmp(link, "anon_inode:[eventpoll]") == 0;
	}
	closedir(dir);
	return count;
}

/*
 * --yield tokio polls the driver (park_timeout(0)) on one worker, which
 * always wins the driver's try-lock. --floor on is a runtime without an
 * I/O driver: no epoll instance, no epoll_wait, each poll a ParkThread's
 * CAS. --floor io has one epoll, and every driver poll is an epoll_wait.
 */
static int floors[] = { DISP_FLOOR_ON, DISP_FLOOR_IO };

ParameterizedTestParameters(dispatcher, stealing_driver_polls_by_floor)
{

	return cr_make_param_array(int, floors, 2);
}

ParameterizedTest(int *fl, dispatcher, stealing_driver_polls_by_floor,
    .timeout = 120)
{
	struct db_disp_config cfg = config(1, "lfseg");
	bool io = *fl == DISP_FLOOR_IO;
	struct db_disp_stats st;
	struct db_dispatcher *d;
	uint64_t polls, waits;
	int before, during;

	knobs.yield_path = DISP_YIELD_TOKIO;
	knobs.floor = (enum disp_floor)*fl;
	cr_assert(disp_stealing.counts & DB_DISP_COUNT(epoll_waits));
	before = eventpolls();
	d = yielders_start(&cfg, 16, 10000);
	during = eventpolls();
	yielders_finish(d, &st);
	polls = st.count[DB_DISP_C_driver_polls];
	waits = st.count[DB_DISP_C_epoll_waits];
	cr_assert(polls > 0, "floor %s: no driver poll", io ? "io" : "on");
	cr_assert_eq(during, before + io, "floor %s: %d epoll instances made",
	    io ? "io" : "on", during - before);
	cr_assert_eq(waits, io ? polls : 0, "floor %s: %lu epoll_waits in "
	    "%lu driver polls", io ? "io" : "on", (unsigned long)waits,
	    (unsigned long)polls);
}

/*
 * Tokio 1.24.2's next_task takes one task of the injection queue at a
 * time (inject.pop): 200 tasks queued from outside behind a task that
 * holds the only worker run in the order they came, the injection-queue-
 * first look of every 61st tick included. A batch taken into the run
 * queue (Tokio 1.29's, Go's globrunqget) lets that look run a later one
 * before those the batch holds.
 */
#define FIFO_TASKS	200

static _Atomic int gate_in, gate_open;
static int fifo_order[FIFO_TASKS];
static _Atomic int nfifo;

static void
gate_run(struct db_task *t)
{

	atomic_store(&gate_in, 1);
	while (!atomic_load(&gate_open))
		sched_yield();
	atomic_fetch_add(&done, 1);
	return;
}

static void
fifo_run(struct db_task *t)
{

	fifo_order[atomic_fetch_add(&nfifo, 1)] = ((struct ordered *)t)->id;
	atomic_fetch_add(&done, 1);
	return;
}

static bool
gate_reached(long unused)
{

	(void)unused;
	return atomic_load(&gate_in) != 0;
}

Test(dispatcher, stealing_tokio_pops_the_injection_queue_one_by_one,
    .timeout = 60)
{
	struct db_disp_config cfg = config(1, "lfseg");
	struct db_task gate = DB_TASK_INIT(gate_run);
	struct ordered t[FIFO_TASKS];
	struct db_disp_stats st;
	struct db_dispatcher *d;
	int i;

	cr_assert_eq(disp_stealing.create(&d, &cfg), 0);
	atomic_store(&done, 0);
	db_dispatch(d, &gate);
	wait_until(gate_reached, 0, "the gate task ran");
	for (i = 0; i < FIFO_TASKS; i++) {
		t[i] = (struct ordered){ DB_TASK_INIT(fifo_run), d, i, 0 };
		db_dispatch(d, &t[i].task);
	}
	atomic_store(&gate_open, 1);
	wait_for(&done, FIFO_TASKS + 1);
	db_shutdown(d, &st);
	for (i = 0; i < FIFO_TASKS; i++)
		cr_assert_eq(fifo_order[i], i, "run %d: task %d", i,
		    fifo_order[i]);
}

/*
 * The output of the suite's binary run with args (by sh, which splits
 * them): stdout and stderr apart, each up to 4 KiB, and the exit status.
 */
struct ran {
	char out[4096];
	char err[4096];
	int status;
};

/* Keeps the first len - 1 bytes; reads the rest, so the writer never waits. */
static void
read_all(int fd, char *buf, size_t len)
{
	char spill[4096];
	size_t n = 0;
	ssize_t r;

	while (n < len - 1 && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	while (read(fd, spill, sizeof(spill)) > 0)
		;
	close(fd);
	return;
}

static void
run_binary(const char *args, struct ran *r)
{
	char cmd[1024];
	int out[2], err[2];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "exec %s %s", DB_BINARY, args);
	cr_assert(pipe(out) == 0 && pipe(err) == 0);
	if ((pid = fork()) == 0) {
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(out[0]);
		close(err[0]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	/* stdout first: a refusal writes nothing there, a run one line. */
	read_all(out[0], r->out, sizeof(r->out));
	read_all(err[0], r->err, sizeof(r->err));
	cr_assert_eq(waitpid(pid, &r->status, 0), pid);
	return;
}

/*
 * A plugin built for the ABI before this one is refused before anything of
 * it is called: exit 2 (a usage error: the run never started), nothing on
 * stdout, and on stderr exactly one line naming the file, both versions
 * and the cure. The design and the queue go through the same check; a
 * loader that refused only a newer version would take both (their tables
 * are otherwise whole) and fail later, or not at all.
 */
struct older_case {
	char args[512];
	char option[16];
	unsigned int abi, oldest, newest;
};

/*
 * Issue 44: every command gives the loader's own reason. pair, which
 * takes a queue or a design, said "neither a queue nor a dispatcher
 * plugin" and the design's reason (4 against 5 here), or, for a plugin
 * with a queue alone, that it has no design symbol; the ABI unsaid.
 */
static struct older_case older_cases[] = {
	{ "cell --dispatcher " DB_PLUGIN_OLDER " --warmup 0 --time 0.05",
	    "--dispatcher", DB_DISP_ABI_OLDEST - 1, DB_DISP_ABI_OLDEST,
	    DB_DISP_ABI_VERSION },
	{ "cell --dispatcher shared --workers 1 --queue " DB_PLUGIN_OLDER
	    " --warmup 0 --time 0.05", "--queue", DB_QUEUE_ABI_OLDEST - 1,
	    DB_QUEUE_ABI_OLDEST, DB_QUEUE_ABI_VERSION },
	{ "verify --queue " DB_PLUGIN_OLDER, "--queue",
	    DB_QUEUE_ABI_OLDEST - 1, DB_QUEUE_ABI_OLDEST, DB_QUEUE_ABI_VERSION },
	{ "matrix --queue " DB_PLUGIN_OLDER, "--queue",
	    DB_QUEUE_ABI_OLDEST - 1, DB_QUEUE_ABI_OLDEST, DB_QUEUE_ABI_VERSION },
	{ "pair --a " DB_PLUGIN_OLDER " --b mutex --time 0.01", "pair: --a",
	    DB_QUEUE_ABI_OLDEST - 1, DB_QUEUE_ABI_OLDEST, DB_QUEUE_ABI_VERSION },
	{ "pair --a mutex --b " DB_PLUGIN_OLDER " --time 0.01", "pair: --b",
	    DB_QUEUE_ABI_OLDEST - 1, DB_QUEUE_ABI_OLDEST, DB_QUEUE_ABI_VERSION },
};

ParameterizedTestParameters(dispatcher, an_older_abi_plugin_is_refused)
{

	return cr_make_param_array(struct older_case, older_cases,
	    sizeof(older_cases) / sizeof(older_cases[0]));
}

ParameterizedTest(struct older_case *o, dispatcher,
    an_older_abi_plugin_is_refused, .timeout = 60)
{
	char want[1024], reads[32];
	struct ran r;

	run_binary(o->args, &r);
	if (o->oldest < o->newest)
		snprintf(reads, sizeof(reads), "%u to %u", o->oldest, o->newest);
	else
		snprintf(reads, sizeof(reads), "%u", o->newest);
	snprintf(want, sizeof(want), "dispatchbench: %s: %s: ABI version %u, "
	    "this build reads %s: rebuild it against these headers\n",
	    o->option, DB_PLUGIN_OLDER, o->abi, reads);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2,
	    "%s: status %d, stderr: %s", o->args, r.status, r.err);
	cr_assert_str_eq(r.err, want, "%s", o->args);
	cr_assert_str_eq(r.out, "", "%s", o->args);
}

/* A table of this ABI's version but another size, its spec and kind. */
struct size_case {
	char spec[16];
	char option[16];
	int more;			/* its size less this build's, in pointers */
	bool queue;
};

static struct size_case size_cases[] = {
	{ "larger", "--queue", 1, true },
	{ "smaller", "--queue", -1, true },
	{ "wider", "--dispatcher", 1, false },
};

ParameterizedTestParameters(dispatcher, a_table_of_another_size_is_refused)
{

	return cr_make_param_array(struct size_case, size_cases,
	    sizeof(size_cases) / sizeof(size_cases[0]));
}

/*
 * The version is this build's, the size is not: larger (a later header
 * the version was not bumped for) as much as smaller. One line, exit 2,
 * before anything in the table is called.
 */
ParameterizedTest(struct size_case *c, dispatcher,
    a_table_of_another_size_is_refused, .timeout = 60)
{
	size_t ours = c->queue ? sizeof(struct db_queue_ops) :
	    sizeof(struct db_disp_ops);
	char args[1024], want[1024];
	struct ran r;

	snprintf(args, sizeof(args), "cell %s%s %s:%s --warmup 0 --time 0.05",
	    c->queue ? "--dispatcher shared --workers 1 " : "", c->option,
	    DB_PLUGIN_REFUSING, c->spec);
	run_binary(args, &r);
	snprintf(want, sizeof(want), "dispatchbench: %s: %s: its table is %zu "
	    "bytes, this build's %zu: rebuild it against these headers\n",
	    c->option, DB_PLUGIN_REFUSING, ours + (size_t)c->more *
	    sizeof(void *), ours);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2,
	    "%s: status %d, stderr: %s", args, r.status, r.err);
	cr_assert_str_eq(r.err, want, "%s", args);
	cr_assert_str_eq(r.out, "", "%s", args);
}

/*
 * Issue 44: pair takes a queue or a design, and gave a refused plugin's
 * reason as the design loader's, after "neither a queue nor a dispatcher
 * plugin". A plugin whose only table is a queue of another ABI was said
 * to have no design symbol, its ABI unsaid; one table named by its symbol
 * was judged a design's (version 2, "this build reads 5"). Now: the
 * queue loader's reason for the first; both loaders' for the second,
 * since the table could be either.
 */
Test(dispatcher, pair_gives_the_loaders_own_reason, .timeout = 60)
{
	char want[2048];
	struct ran r;

	run_binary("pair --a mutex --b " DB_PLUGIN_REFUSING " --time 0.01", &r);
	snprintf(want, sizeof(want), "dispatchbench: pair: --b: %s: ABI "
	    "version %u, this build reads %u: rebuild it against these "
	    "headers\n", DB_PLUGIN_REFUSING, DB_QUEUE_ABI_VERSION + 1,
	    DB_QUEUE_ABI_VERSION);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2, "%s",
	    r.err);
	cr_assert_str_eq(r.err, want);
	run_binary("pair --a " DB_PLUGIN_OLDER ":dispatchbench_queue --b mutex "
	    "--time 0.01", &r);
	snprintf(want, sizeof(want), "dispatchbench: pair: --a: as a queue, %s: "
	    "ABI version %u, this build reads %u: rebuild it against these "
	    "headers; as a dispatcher, %s: ABI version %u, this build reads %u "
	    "to %u: rebuild it against these headers\n", DB_PLUGIN_OLDER,
	    DB_QUEUE_ABI_OLDEST - 1, DB_QUEUE_ABI_VERSION, DB_PLUGIN_OLDER,
	    DB_QUEUE_ABI_OLDEST - 1, DB_DISP_ABI_OLDEST, DB_DISP_ABI_VERSION);
	cr_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 2, "%s",
	    r.err);
	cr_assert_str_eq(r.err, want);
	cr_assert_str_eq(r.out, "");
}

/* Whether tests/data/abi.txt holds NAME at VERSION; its hash into held. */
static bool
abi_recorded(const char *name, unsigned int version, const char *hash,
    char held[65])
{
	char n[64], h[65];
	unsigned int v;
	bool same = false;
	FILE *f = fopen(DB_TEST_DATA "/abi.txt", "r");

	cr_assert_not_null(f, "no tests/data/abi.txt");
	held[0] = '\0';
	while (!same && fscanf(f, "%63s %u %64s", n, &v, h) == 3) {
		if (strcmp(n, name) != 0 || v != version)
			continue;
		same = strcmp(h, hash) == 0;
		strcpy(held, h);
	}
	fclose(f);
	return same;
}

/*
 * An installed header whose tokens change under an ABI version already
 * recorded fails: a plugin built against that version would load, pass
 * the version check and misread the new layout without a word (a field
 * added to disp_config moves every one after it).
 */
Test(dispatcher, a_changed_public_header_raises_its_abi_version,
    .timeout = 60)
{
	char out[4096], name[64], hash[65], held[65], *line;
	unsigned int version;
	int status = shell_output("sh " DB_TEST_DATA "/../../scripts/"
	    "abi-hash.sh " DB_TEST_DATA "/../../include/dispatchbench", out,
	    sizeof(out));

	cr_assert_eq(status, 0, "abi-hash.sh: %s", out);
	for (line = strtok(out, "\n"); line != NULL;
	    line = strtok(NULL, "\n")) {
		cr_assert_eq(sscanf(line, "%63s %u %64s", name, &version,
		    hash), 3, "abi-hash.sh said: %s", line);
		if (abi_recorded(name, version, hash, held))
			continue;
		cr_assert(held[0] == '\0', "include/dispatchbench/%s changed "
		    "and its ABI version is still %u: raise it, then record "
		    "it: sh scripts/abi-hash.sh >> tests/data/abi.txt", name,
		    version);
		cr_assert_fail("include/dispatchbench/%s at ABI version %u is "
		    "not recorded: sh scripts/abi-hash.sh >> "
		    "tests/data/abi.txt", name, version);
	}
}

/*
 * The installed headers declare nothing a plugin would need the suite to
 * export: the executable exports no symbols, so an extern object or
 * function there loads as "undefined symbol" in the plugin that uses it
 * (ABI 6 declared the counters' names so). Only `extern "C"` may appear.
 */
Test(dispatcher, the_installed_headers_need_no_symbol_of_the_suite)
{
	static const char *const headers[] = { "dispatcher.h", "queue.h" };
	char path[512], line[512], *at;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(headers) / sizeof(headers[0]); i++) {
		snprintf(path, sizeof(path), DB_TEST_DATA
		    "/../../include/dispatchbench/%s", headers[i]);
		cr_assert_not_null(f = fopen(path, "r"), "%s", path);
		while (fgets(line, sizeof(line), f) != NULL)
			for (at = line; (at = strstr(at, "extern")) != NULL;
			    at += 6)
				cr_assert(strncmp(at, "extern \"C\"", 10) == 0,
				    "%s declares what the suite does not "
				    "export: %s", headers[i], line);
		fclose(f);
	}
}
