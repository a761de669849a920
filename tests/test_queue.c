/*
 * test_queue.c - every queue of the registry through the checks of
 * `verify` (FIFO, empty and full, millions of tagged items through more
 * threads than cores, each seen exactly once, each producer's order
 * kept); lfseg's counters; the same stress on a stealing worker's run
 * queue.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "indices.h"
#include "progress.h"
#include "queue_list.h"
#include "runq.h"
#include "scale.h"
#include "verify.h"

/* Items are even, non-NULL pointers: producer in the high bits. */
#define TAG(p, seq)	((void *)(uintptr_t)(((((uint64_t)(p) << 32) | (seq)) + 1) << 1))

/*
 * The checks `dispatchbench verify --queue` runs on a plugin, on every
 * built-in: FIFO through one thread, full and empty, and the stress
 * (DB_STRESS_ITEMS, _PRODUCERS and _CONSUMERS scale it: the `stress`
 * target).
 */
static struct criterion_test_params
check_params(void)
{

	return INDICES(queue_count() * VERIFY_NQUEUE);
}

ParameterizedTestParameters(queue, passes_verify) { return check_params(); }
ParameterizedTest(size_t *i, queue, passes_verify, .timeout = 7200)
{
	const struct db_queue_ops *ops = queue_at(*i / VERIFY_NQUEUE);
	enum verify_queue_check k = (enum verify_queue_check)(*i % VERIFY_NQUEUE);
	struct verify_sizes sz;
	struct verify_result r;

	verify_sizes_default(&sz);
	sz.items = scale("DB_STRESS_ITEMS", VERIFY_ITEMS);
	sz.producers = (unsigned int)scale("DB_STRESS_PRODUCERS",
	    VERIFY_PRODUCERS);
	sz.consumers = (unsigned int)scale("DB_STRESS_CONSUMERS",
	    VERIFY_CONSUMERS);
	verify_queue(ops, k, &sz, &r);
	verify_print(stdout, &r);
	cr_assert(r.ok, "%s: %s: %s", ops->name, r.what, r.why);
}

/*
 * lfseg starts at 8 slots and keeps two free: 1000 items freeze the rings
 * of 8 to 512 slots, seven freezes, and one thread never finds a slot
 * reserved and empty.
 */
Test(queue, lfseg_counts_its_freezes)
{
	struct db_queue_counts qc;
	struct db_queue *q;
	uint32_t n;
	void *v;

	cr_assert_eq(queue_lfseg.create(&q, 0), 0);
	queue_lfseg.counts(q, &qc);
	cr_assert_eq(qc.freezes, 0);
	for (n = 0; n < 1000; n++)
		cr_assert(db_queue_push(q, TAG(0, n)));
	while (db_queue_pop(q, &v))
		;
	queue_lfseg.counts(q, &qc);
	cr_assert_eq(qc.freezes, 7, "freezes %lu", (unsigned long)qc.freezes);
	cr_assert_eq(qc.slot_waits, 0);
	cr_assert_eq(qc.stall_ns, 0);
	db_queue_destroy(q);
}

/*
 * Eight threads on one CPU keep eight items going round lfseg. The
 * scheduler takes a thread off the CPU between its CAS and its store
 * sooner or later; every other thread that reaches that slot then spins
 * its slice away, and lfseg counts that CPU as stall_ns: some, and never
 * more than the process burned.
 */
#define STALL_THREADS	8
#define STALL_ITEMS	8

struct stall_arg {
	struct db_queue *q;
	cpu_set_t cpu;
	_Atomic bool stop;
};

static void *
stall_main(void *p)
{
	struct stall_arg *a = p;
	void *v;

	cr_assert_eq(pthread_setaffinity_np(pthread_self(), sizeof(a->cpu),
	    &a->cpu), 0);
	while (!atomic_load_explicit(&a->stop, memory_order_relaxed))
		if (db_queue_pop(a->q, &v))
			cr_assert(db_queue_push(a->q, v));
	return NULL;
}

static double
process_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

Test(queue, lfseg_counts_the_cpu_of_a_stalled_spin)
{
	struct stall_arg a = { .stop = false };
	pthread_t tid[STALL_THREADS];
	struct db_queue_counts qc;
	double cpu;
	uint32_t n;
	int k;

	cr_assert_eq(queue_lfseg.create(&a.q, 0), 0);
	for (n = 0; n < STALL_ITEMS; n++)
		cr_assert(db_queue_push(a.q, TAG(0, n)));
	CPU_ZERO(&a.cpu);
	CPU_SET(sched_getcpu(), &a.cpu);
	cpu = process_cpu_ns();
	for (k = 0; k < STALL_THREADS; k++)
		cr_assert_eq(pthread_create(&tid[k], NULL, stall_main, &a), 0);
	/* A stall takes a few slices of a few ms; give it 200 of them. */
	for (n = 0; n < 200; n++) {
		queue_lfseg.counts(a.q, &qc);
		if (qc.stall_ns > 0)
			break;
		usleep(10000);
	}
	atomic_store(&a.stop, true);
	for (k = 0; k < STALL_THREADS; k++)
		pthread_join(tid[k], NULL);
	cpu = process_cpu_ns() - cpu;
	queue_lfseg.counts(a.q, &qc);
	cr_assert_gt(qc.stall_ns, 0, "no stalled spin counted in %.0f ms of "
	    "CPU", cpu / 1e6);
	cr_assert_leq((double)qc.stall_ns, cpu, "stalls %lu ns, the process "
	    "%.0f ns", (unsigned long)qc.stall_ns, cpu);
	db_queue_destroy(a.q);
}

/*
 * Every FIFO queue taken through its growth, in order. Three pushes and
 * one pop a round keep the head moving, so each time a growable queue is
 * full its oldest item sits mid-array (the mutex ring wrapped, lfseg's
 * ring part-consumed when it freezes, mpsc's ring part-read when the next
 * is linked): a copy that reorders the two halves, or a link that skips
 * or repeats a slot, breaks the sequence at the first growth. The queue is
 * drained and taken through the same twice more, so a bounded queue (made
 * large enough never to be full: a ring of 4096 or 8192 slots) wraps.
 */
#define GROW_PUSHES	4096	/* 2731 at most in it: 16 -> 4096, 8 growths */
#define GROW_HINT	16	/* the mutex ring's least, and mpsc's rings */
#define GROW_ROUNDS	3

static size_t
fifo_queues(size_t *v, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < queue_count() && n < max; i++)
		if (queue_at(i)->flags & DB_Q_FIFO)
			v[n++] = i;
	return n;
}

static size_t grow_queues[16];

ParameterizedTestParameters(queue, fifo_holds_through_growth)
{

	return cr_make_param_array(size_t, grow_queues,
	    fifo_queues(grow_queues, 16));
}

/* Pops one item, which must be the next of the sequence. */
static void
grow_pop_next(struct db_queue *q, const char *name, uint32_t *next,
    uint32_t pushed)
{
	void *v;

	cr_assert(db_queue_pop(q, &v), "%s: empty with %u items in it", name,
	    pushed - *next);
	cr_assert_eq(v, TAG(0, *next), "%s: popped item %lu, expected %u "
	    "(%u pushed)", name, (unsigned long)((uintptr_t)v >> 1) - 1,
	    *next, pushed);
	(*next)++;
	return;
}

ParameterizedTest(size_t *i, queue, fifo_holds_through_growth)
{
	const struct db_queue_ops *ops = queue_at(*i);
	uint32_t pushed = 0, next = 0, end, k;
	struct db_queue *q;
	void *v;
	int round;

	cr_assert_eq(ops->create(&q, (ops->flags & DB_Q_BOUNDED) ? GROW_PUSHES :
	    GROW_HINT), 0, "%s: create", ops->name);
	for (round = 1; round <= GROW_ROUNDS; round++) {
		end = round * GROW_PUSHES;
		while (pushed < end) {
			for (k = 0; k < 3 && pushed < end; k++, pushed++)
				cr_assert(db_queue_push(q, TAG(0, pushed)), "%s: "
				    "push %u refused", ops->name, pushed);
			grow_pop_next(q, ops->name, &next, pushed);
		}
		while (next < pushed)
			grow_pop_next(q, ops->name, &next, pushed);
		cr_assert_not(db_queue_pop(q, &v), "%s: an item after the last",
		    ops->name);
	}
	db_queue_destroy(q);
}

/*
 * The queue outside the registry, under the same load: a stealing worker's
 * run queue (its owner pushes and pops, thieves take halves).
 */
struct runq_stress {
	struct runq owner;
	struct db_task *tasks;
	_Atomic uint8_t *seen;
	_Atomic uint64_t taken;
	_Atomic int doubled;
	_Atomic int given_up;		/* no task was taken for a while */
	uint64_t total;
};

struct runq_thief {
	struct runq_stress *s;
	struct runq rq;
	pthread_t tid;
};

static void
runq_take(struct runq_stress *s, struct db_task *t)
{

	if (atomic_exchange(&s->seen[t - s->tasks], 1) != 0)
		atomic_store(&s->doubled, 1);
	atomic_fetch_add(&s->taken, 1);
	return;
}

static void *
runq_thief_main(void *arg)
{
	struct runq_thief *th = arg;
	struct runq_stress *s = th->s;
	struct db_task *t;

	while (atomic_load(&s->taken) < s->total &&
	    !atomic_load(&s->given_up)) {
		if ((t = runq_steal(&s->owner, &th->rq)) == NULL) {
			sched_yield();
			continue;
		}
		do
			runq_take(s, t);
		while ((t = runq_pop(&th->rq)) != NULL);
	}
	return NULL;
}

Test(queue, stress_runq, .timeout = 7200)
{
	unsigned int nt = (unsigned int)(scale("DB_STRESS_PRODUCERS",
	    VERIFY_PRODUCERS) + scale("DB_STRESS_CONSUMERS", VERIFY_CONSUMERS));
	struct runq_thief *th = calloc(nt, sizeof(*th));
	struct runq_stress *s = calloc(1, sizeof(*s));
	struct db_task *t;
	uint64_t i, lost = 0;
	unsigned int k;

	s->total = scale("DB_STRESS_ITEMS", VERIFY_ITEMS);
	s->tasks = calloc(s->total, sizeof(*s->tasks));
	s->seen = calloc(s->total, 1);
	cr_assert(th != NULL && s->tasks != NULL && s->seen != NULL);
	runq_init(&s->owner);
	for (k = 0; k < nt; k++) {
		th[k].s = s;
		runq_init(&th[k].rq);
		pthread_create(&th[k].tid, NULL, runq_thief_main, &th[k]);
	}
	/* The owner: pushes every task, runs one itself when it is full. */
	for (i = 0; i < s->total; i++) {
		while (!runq_push(&s->owner, &s->tasks[i])) {
			if ((t = runq_pop(&s->owner)) != NULL)
				runq_take(s, t);
		}
		if (i % 3 == 0 && (t = runq_pop(&s->owner)) != NULL)
			runq_take(s, t);
	}
	while ((t = runq_pop(&s->owner)) != NULL)
		runq_take(s, t);
	if (!progress_wait(&s->taken, s->total))
		atomic_store(&s->given_up, 1);
	for (k = 0; k < nt; k++)
		pthread_join(th[k].tid, NULL);
	cr_assert_not(atomic_load(&s->doubled), "a task was taken twice");
	for (i = 0; i < s->total; i++)
		lost += s->seen[i] == 0;
	cr_assert_eq(lost, 0, "%lu tasks lost", (unsigned long)lost);
	printf("runq: %lu tasks, 1 owner, %u thieves\n",
	    (unsigned long)s->total, nt);
	free((void *)s->seen);
	free(s->tasks);
	free(s);
	free(th);
}
