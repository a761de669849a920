/*
 * scheduler.c - kotlinx.coroutines' CoroutineScheduler (1.10-1.11,
 * kotlinx-coroutines-core/jvm/src/scheduling/CoroutineScheduler.kt,
 * WorkQueue.kt, Tasks.kt), followed step by step:
 *
 *  - controlState: created workers (bits 0..20), blocking tasks (21..41)
 *    and free CPU permits (42..), one 64-bit word. A blocking task is
 *    counted in before it is published and out after it ran.
 *  - dispatch: a task made on one of the scheduler's workers goes to that
 *    worker's WorkQueue: its LIFO slot (lastScheduledTask.getAndSet), the
 *    task it displaces to the 128-slot ring (full at 127: the task goes
 *    to a global queue); fair (dispatchYield) to the ring directly; a CPU
 *    task from a BLOCKING worker, or any from another thread, to the
 *    global CPU or blocking queue. Then, on every dispatch, the signal:
 *    tryUnpark || tryCreateWorker || tryUnpark. A fair dispatch
 *    (dispatchYield) signals too, as since 1.10 (Kotlin/kotlinx.coroutines
 *    #4255); in 1.8 and 1.9 its tailDispatch from a worker skipped it.
 *  - tryUnpark pops the versioned stack of parked workers and CASes the
 *    worker's ctl PARKED -> CLAIMED before it unparks it (parkstack.h,
 *    shared with `shared`, which says why no wake-up is lost);
 *    tryCreateWorker
 *    starts a worker (under the workers' lock, started after it) while
 *    created - blocking < corePoolSize, and a second with the first.
 *  - a worker's loop (runWorker, findTask): with a CPU permit (a CAS on
 *    controlState), its local queue and the global queues (global first
 *    once in 2 * corePoolSize, either queue first by a coin), then a steal
 *    of one task from another worker's ring, or of its LIFO slot once that
 *    is 100 us old (WORK_STEALING_TIME_RESOLUTION_NS); without one,
 *    blocking tasks only (pollBlocking, the blocking queue, a blocking
 *    steal). A blocking task gives the permit back (tryReleaseCpu) and
 *    signals CPU work before it runs.
 *  - nothing found: if a LIFO slot will be stealable, one rescan, then a
 *    park for that long; else tryPark: the first time onto the parked
 *    stack and one more scan, then ctl = PARKED, the permit given back,
 *    and park until claimed. No spinning (since 1.3.3). Each sleep is
 *    park(): the termination deadline set from the clock the first time
 *    since a task (executeTask resets it), parkNanos for the keep-alive,
 *    the clock read again after.
 *
 * Not modelled: retirement of a worker parked for the keep-alive (60 s;
 * no run is that long), the worker index compaction that goes with it,
 * and the JVM's own threads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "parkstack.h"
#include "scheduler.h"
#include "taskq.h"

#define KS_BUFFER		128		/* WorkQueue.BUFFER_CAPACITY */
#define KS_MASK			(KS_BUFFER - 1)
#define KS_RESOLUTION_NS	100000		/* WORK_STEALING_TIME_RESOLUTION_NS */
#define KS_MAX_WORKERS		4096		/* this model's bound */
#define KS_KEEP_ALIVE_NS	60000000000LL	/* IDLE_WORKER_KEEP_ALIVE_NS */

#define KS_CREATED_MASK		((UINT64_C(1) << 21) - 1)
#define KS_BLOCKING_SHIFT	21
#define KS_BLOCKING_ONE		(UINT64_C(1) << KS_BLOCKING_SHIFT)
#define KS_PERMITS_SHIFT	42
#define KS_PERMIT_ONE		(UINT64_C(1) << KS_PERMITS_SHIFT)

enum ks_state { KS_CPU_ACQUIRED, KS_BLOCKING, KS_PARKING, KS_DORMANT };

struct ks_worker {
	_Atomic(struct db_task *) lifo;	/* lastScheduledTask */
	_Atomic(struct db_task *) buffer[KS_BUFFER];
	_Atomic uint32_t producer, consumer;
	_Atomic int blocking_in_buffer;
	struct parkstack_node node;		/* workerCtl, its index */
	enum ks_state state;			/* owner only */
	bool may_have_local;
	uint32_t rand;
	uint64_t min_delay;
	uint64_t deadline;			/* terminationDeadline; 0: none */
	struct ksched *s;
	pthread_t tid;
	_Atomic bool spawned;			/* tid is set */
	uint64_t ran, injected, steals, lifo_hits, unparks;
} __attribute__((aligned(64)));

struct ksched {
	struct db_disp_config cfg;
	unsigned int core;
	struct taskq cpu_queue, blocking_queue;	/* the GlobalQueues */
	_Atomic uint64_t control;		/* controlState */
	struct parkstack parked;		/* parkedWorkersStack */
	_Atomic int stop;
	pthread_mutex_t lock;			/* synchronized(workers) */
	_Atomic uint64_t injected;		/* from outside the workers */
	_Atomic(struct ks_worker *) workers[KS_MAX_WORKERS + 1]; /* [0] unused */
	_Atomic(struct parkstack_node *) nodes[KS_MAX_WORKERS + 1];
};

static _Thread_local struct ks_worker *ks_current;

static uint64_t
ks_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool
ks_blocking(const struct db_task *t)
{

	return __atomic_load_n(&DISP_TASK_STATE(t), __ATOMIC_RELAXED) != 0;
}

static uint32_t
ks_rand(struct ks_worker *w, uint32_t upto)
{
	uint32_t x = w->rand;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	w->rand = x;
	return x % upto;
}

static uint32_t
ks_created(struct ksched *s)
{

	return (uint32_t)(atomic_load(&s->control) & KS_CREATED_MASK);
}

/* --- WorkQueue: the owner adds; the owner and thieves take. --- */

static uint32_t
wq_size(struct ks_worker *w)
{

	return atomic_load(&w->producer) - atomic_load(&w->consumer);
}

/* addLast: NULL, or t back when the ring is full. */
static struct db_task *
wq_add_last(struct ks_worker *w, struct db_task *t)
{
	uint32_t next;

	if (wq_size(w) == KS_BUFFER - 1)
		return t;
	if (ks_blocking(t))
		atomic_fetch_add(&w->blocking_in_buffer, 1);
	next = atomic_load_explicit(&w->producer, memory_order_relaxed) &
	    KS_MASK;
	/* A thief that moved consumer on may not have taken its slot yet. */
	while (atomic_load(&w->buffer[next]) != NULL)
		sched_yield();
	atomic_store_explicit(&w->buffer[next], t, memory_order_release);
	atomic_fetch_add(&w->producer, 1);
	return NULL;
}

/* add: the LIFO slot, its old task to the ring; fair: the ring. */
static struct db_task *
wq_add(struct ks_worker *w, struct db_task *t, bool fair)
{
	struct db_task *prev;

	if (fair)
		return wq_add_last(w, t);
	prev = atomic_exchange(&w->lifo, t);
	return prev == NULL ? NULL : wq_add_last(w, prev);
}

static void
wq_taken(struct ks_worker *w, struct db_task *t)
{

	if (ks_blocking(t))
		atomic_fetch_sub(&w->blocking_in_buffer, 1);
	return;
}

/* pollBuffer: the ring's head; a slot emptied from the middle is skipped. */
static struct db_task *
wq_poll_buffer(struct ks_worker *w)
{
	struct db_task *t;
	uint32_t c;

	for (;;) {
		c = atomic_load(&w->consumer);
		if (c == atomic_load(&w->producer))
			return NULL;
		if (!atomic_compare_exchange_weak(&w->consumer, &c, c + 1))
			continue;
		if ((t = atomic_exchange(&w->buffer[c & KS_MASK], NULL)) != NULL) {
			wq_taken(w, t);
			return t;
		}
	}
}

/* tryExtractFromTheMiddle */
static struct db_task *
wq_extract(struct ks_worker *w, uint32_t index, bool blocking)
{
	_Atomic(struct db_task *) *slot = &w->buffer[index & KS_MASK];
	struct db_task *t = atomic_load(slot);

	if (t == NULL || ks_blocking(t) != blocking ||
	    !atomic_compare_exchange_strong(slot, &t, NULL))
		return NULL;
	if (blocking)
		atomic_fetch_sub(&w->blocking_in_buffer, 1);
	return t;
}

/* pollBlocking (pollWithExclusiveMode): the LIFO slot, the ring from its tail. */
static struct db_task *
wq_poll_blocking(struct ks_worker *w)
{
	struct db_task *t;
	uint32_t start, end;

	while ((t = atomic_load(&w->lifo)) != NULL && ks_blocking(t))
		if (atomic_compare_exchange_weak(&w->lifo, &t, NULL))
			return t;
	start = atomic_load(&w->consumer);
	end = atomic_load(&w->producer);
	while (start != end) {
		if (atomic_load(&w->blocking_in_buffer) == 0)
			return NULL;
		if ((t = wq_extract(w, --end, true)) != NULL)
			return t;
	}
	return NULL;
}

/*
 * trySteal: one task from the ring (any: its head; blocking only: the
 * first blocking one), else the LIFO slot once it is 100 us old. *delay
 * gets the time until it will be, 0 if never.
 */
static struct db_task *
wq_steal(struct ks_worker *v, bool blocking_only, uint64_t *delay)
{
	struct db_task *t = NULL;
	uint32_t start, end;
	uint64_t age;

	if (!blocking_only)
		t = wq_poll_buffer(v);
	for (start = atomic_load(&v->consumer), end = atomic_load(&v->producer);
	    blocking_only && t == NULL && start != end &&
	    atomic_load(&v->blocking_in_buffer) > 0; start++)
		t = wq_extract(v, start, true);
	if (t != NULL)
		return t;
	while ((t = atomic_load(&v->lifo)) != NULL) {
		if (blocking_only && !ks_blocking(t))
			break;
		/* A racy read, as the JVM's: t may have run and come back. */
		age = ks_now() - __atomic_load_n(&DISP_TASK_STAMP(t),
		    __ATOMIC_RELAXED);
		if (age < KS_RESOLUTION_NS) {
			*delay = KS_RESOLUTION_NS - age;
			return NULL;
		}
		if (atomic_compare_exchange_weak(&v->lifo, &t, NULL))
			return t;
	}
	return NULL;
}

/* --- Workers: created on demand, never retired here. --- */

static void *ks_worker_main(void *);

/* createNewWorker: the CPU workers after it, 0 if none was made. */
static int
ks_create_worker(struct ksched *s)
{
	uint64_t c;
	uint32_t created, blocking, cpu;
	struct ks_worker *w = NULL;

	pthread_mutex_lock(&s->lock);
	c = atomic_load(&s->control);
	created = (uint32_t)(c & KS_CREATED_MASK);
	blocking = (uint32_t)((c >> KS_BLOCKING_SHIFT) & KS_CREATED_MASK);
	cpu = created > blocking ? created - blocking : 0;
	if (cpu < s->core && created < KS_MAX_WORKERS &&
	    !atomic_load(&s->stop) && posix_memalign((void **)&w, 64,
	    sizeof(*w)) == 0) {
		*w = (struct ks_worker){ .s = s, .state = KS_DORMANT,
		    .rand = 2654435761u * (created + 1) };
		parkstack_node_init(&s->parked, &w->node, created + 1);
		atomic_store(&s->workers[created + 1], w);
		atomic_fetch_add(&s->control, 1);
	} else
		w = NULL;
	pthread_mutex_unlock(&s->lock);
	if (w == NULL)
		return 0;
	if (disp_thread_spawn(&s->cfg, created, &w->tid, ks_worker_main, w) != 0)
		abort();
	atomic_store(&w->spawned, true);
	return (int)cpu + 1;
}

/* tryCreateWorker */
static bool
ks_try_create(struct ksched *s, uint64_t c)
{
	uint32_t created = (uint32_t)(c & KS_CREATED_MASK);
	uint32_t blocking = (uint32_t)((c >> KS_BLOCKING_SHIFT) &
	    KS_CREATED_MASK);
	int made;

	if (created - (blocking < created ? blocking : created) >= s->core)
		return false;
	made = ks_create_worker(s);
	if (made == 1 && s->core > 1)
		ks_create_worker(s);
	return made > 0;
}

/* signalCpuWork, signalBlockingWork */
static void
ks_signal(struct ksched *s, uint64_t c)
{

	if (!parkstack_unpark_one(&s->parked) && !ks_try_create(s, c))
		(void)parkstack_unpark_one(&s->parked);
	return;
}

void
ksched_dispatch(struct ksched *s, struct db_task *t, bool blocking,
    bool fair)
{
	struct ks_worker *w = ks_current;
	struct db_task *left = t;
	uint64_t c = 0;

	__atomic_store_n(&DISP_TASK_STAMP(t), ks_now(), __ATOMIC_RELAXED);
	__atomic_store_n(&DISP_TASK_STATE(t), blocking, __ATOMIC_RELAXED);
	if (blocking)
		c = atomic_fetch_add(&s->control, KS_BLOCKING_ONE) +
		    KS_BLOCKING_ONE;
	if (w != NULL && w->s == s && (blocking || w->state != KS_BLOCKING)) {
		w->may_have_local = true;
		left = wq_add(w, t, fair);
	}
	if (left != NULL) {
		taskq_put(blocking ? &s->blocking_queue : &s->cpu_queue, left);
		if (w != NULL && w->s == s)
			w->injected++;
		else
			atomic_fetch_add_explicit(&s->injected, 1,
			    memory_order_relaxed);
	}
	ks_signal(s, blocking ? c : atomic_load(&s->control));
	return;
}

/* tryAcquireCpuPermit */
static bool
ks_acquire_cpu(struct ks_worker *w)
{
	struct ksched *s = w->s;
	uint64_t c;

	if (w->state == KS_CPU_ACQUIRED)
		return true;
	c = atomic_load(&s->control);
	do
		if ((c >> KS_PERMITS_SHIFT) == 0)
			return false;
	while (!atomic_compare_exchange_weak(&s->control, &c,
	    c - KS_PERMIT_ONE));
	w->state = KS_CPU_ACQUIRED;
	return true;
}

/* tryReleaseCpu: whether it held a permit. */
static bool
ks_release_cpu(struct ks_worker *w, enum ks_state next)
{
	bool had = w->state == KS_CPU_ACQUIRED;

	if (had)
		atomic_fetch_add(&w->s->control, KS_PERMIT_ONE);
	w->state = next;
	return had;
}

static struct db_task *
ks_poll_global(struct ks_worker *w)
{
	struct ksched *s = w->s;
	struct db_task *t;
	bool cpu_first = ks_rand(w, 2) == 0;

	t = taskq_take(cpu_first ? &s->cpu_queue : &s->blocking_queue);
	if (t == NULL)
		t = taskq_take(cpu_first ? &s->blocking_queue : &s->cpu_queue);
	return t;
}

/* trySteal: every other worker once, from a random one. */
static struct db_task *
ks_steal(struct ks_worker *w, bool blocking_only)
{
	struct ksched *s = w->s;
	uint32_t created = ks_created(s), i, at;
	uint64_t delay, min = UINT64_MAX;
	struct ks_worker *v;
	struct db_task *t;

	if (created < 2)
		return NULL;
	at = ks_rand(w, created);
	for (i = 0; i < created; i++) {
		at = at + 1 > created ? 1 : at + 1;
		v = atomic_load(&s->workers[at]);
		if (v == NULL || v == w)
			continue;
		delay = 0;
		if ((t = wq_steal(v, blocking_only, &delay)) != NULL) {
			w->steals++;
			return t;
		}
		if (delay > 0 && delay < min)
			min = delay;
	}
	w->min_delay = min != UINT64_MAX ? min : 0;
	return NULL;
}

/* findTask */
static struct db_task *
ks_find_task(struct ks_worker *w)
{
	struct ksched *s = w->s;
	struct db_task *t = NULL;
	bool global_first;

	if (!ks_acquire_cpu(w)) {
		if ((t = wq_poll_blocking(w)) == NULL &&
		    (t = taskq_take(&s->blocking_queue)) == NULL)
			t = ks_steal(w, true);
		return t;
	}
	if (w->may_have_local) {
		global_first = ks_rand(w, 2 * s->core) == 0;
		if (global_first)
			t = ks_poll_global(w);
		if (t == NULL && (t = atomic_exchange(&w->lifo, NULL)) != NULL)
			w->lifo_hits++;
		if (t == NULL)
			t = wq_poll_buffer(w);
		if (t == NULL && !global_first)
			t = ks_poll_global(w);
	} else
		t = ks_poll_global(w);
	return t != NULL ? t : ks_steal(w, false);
}

/* executeTask: a blocking task runs without a CPU permit. */
static void
ks_execute(struct ks_worker *w, struct db_task *t)
{
	struct ksched *s = w->s;

	w->deadline = 0;
	if (w->state == KS_PARKING)
		w->state = KS_BLOCKING;
	w->ran++;
	if (!ks_blocking(t)) {
		t->fn(t);
		return;
	}
	if (ks_release_cpu(w, KS_BLOCKING))
		ks_signal(s, atomic_load(&s->control));
	t->fn(t);
	atomic_fetch_sub(&s->control, KS_BLOCKING_ONE);
	w->state = KS_DORMANT;
	return;
}

/*
 * tryPark's sleep: the CPU permit given back, then park(), a timed park
 * between two clock reads. Past the deadline a worker would retire
 * (tryTerminateWorker), which no run is long enough to reach.
 */
static void
ks_park(void *arg)
{
	struct ks_worker *w = arg;

	(void)ks_release_cpu(w, KS_PARKING);
	if (w->deadline == 0)
		w->deadline = ks_now() + KS_KEEP_ALIVE_NS;
	(void)parker_park(&w->node.parker, KS_KEEP_ALIVE_NS);
	if (ks_now() >= w->deadline)
		w->deadline = 0;
	return;
}

static bool
ks_drained(struct ksched *s)
{
	unsigned int i, n = ks_created(s);
	struct ks_worker *v;

	if (!taskq_empty(&s->cpu_queue) || !taskq_empty(&s->blocking_queue))
		return false;
	for (i = 1; i <= n; i++) {
		v = atomic_load(&s->workers[i]);
		if (v != NULL && (atomic_load(&v->lifo) != NULL ||
		    wq_size(v) != 0))
			return false;
	}
	return true;
}

/* runWorker */
static void *
ks_worker_main(void *arg)
{
	struct ks_worker *w = arg;
	struct ksched *s = w->s;
	struct db_task *t;
	bool rescanned = false;

	ks_current = w;
	for (;;) {
		if ((t = ks_find_task(w)) != NULL) {
			rescanned = false;
			w->min_delay = 0;
			ks_execute(w, t);
			continue;
		}
		w->may_have_local = false;
		if (atomic_load(&s->stop) && ks_drained(s))
			break;
		if (w->min_delay != 0) {
			if (rescanned) {
				ks_release_cpu(w, KS_PARKING);
				parker_park(&w->node.parker,
				    (long long)w->min_delay);
				w->min_delay = 0;
			}
			rescanned = !rescanned;
			continue;
		}
		w->unparks += parkstack_park(&s->parked, &w->node, &s->stop,
		    ks_park, w);
	}
	ks_release_cpu(w, KS_DORMANT);
	return NULL;
}

unsigned int
ksched_core_pool_size(void)
{
	cpu_set_t cpus;
	int n;

	n = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 ? CPU_COUNT(&cpus) :
	    1;
	return n > 2 ? (unsigned int)n : 2;
}

void
ksched_monitor_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
	return;
}

int
ksched_create(struct ksched **sp, const struct db_disp_config *cfg,
    unsigned int core, const struct db_queue_ops *q)
{
	struct ksched *s;
	int error;

	if (core == 0 || core > KS_MAX_WORKERS)
		return -EINVAL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return -ENOMEM;
	s->cfg = *cfg;
	s->core = core;
	atomic_init(&s->control, (uint64_t)core << KS_PERMITS_SHIFT);
	parkstack_init(&s->parked, s->nodes);
	if ((error = taskq_init(&s->cpu_queue, q, cfg->queue_capacity)) != 0)
		goto out_free;
	if ((error = taskq_init(&s->blocking_queue, q,
	    cfg->queue_capacity)) != 0)
		goto out_cpu;
	ksched_monitor_init(&s->lock);
	*sp = s;
	return 0;
out_cpu:
	taskq_fini(&s->cpu_queue);
out_free:
	free(s);
	return error;
}

void
ksched_shutdown(struct ksched *s, struct db_disp_stats *st)
{
	unsigned int i, n;
	struct ks_worker *w;

	atomic_store(&s->stop, 1);
	pthread_mutex_lock(&s->lock);		/* no worker starts after */
	n = ks_created(s);
	pthread_mutex_unlock(&s->lock);
	for (i = 1; i <= n; i++)
		parker_unpark(&atomic_load(&s->workers[i])->node.parker);
	for (i = 1; i <= n; i++) {
		w = atomic_load(&s->workers[i]);
		while (!atomic_load(&w->spawned))	/* counted, not yet started */
			sched_yield();
		pthread_join(w->tid, NULL);
		if (st != NULL) {
			st->ran += w->ran;
			st->count[DB_DISP_C_injected] += w->injected;
			st->count[DB_DISP_C_steals] += w->steals;
			st->count[DB_DISP_C_lifo_hits] += w->lifo_hits;
			st->count[DB_DISP_C_unparks] += w->unparks;
		}
	}
	if (st != NULL) {
		st->count[DB_DISP_C_injected] += atomic_load(&s->injected);
		st->spilled += taskq_spilled(&s->cpu_queue) +
		    taskq_spilled(&s->blocking_queue);
		taskq_count(&s->cpu_queue, st);
		taskq_count(&s->blocking_queue, st);
		st->threads_started += n;
		st->threads_peak += n;
	}
	for (i = 1; i <= n; i++)
		free(atomic_load(&s->workers[i]));
	taskq_fini(&s->cpu_queue);
	taskq_fini(&s->blocking_queue);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return;
}
