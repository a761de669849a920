/*
 * test_queue.c - every queue of the registry: FIFO, empty and full, and
 * millions of tagged items through producers and consumers that outnumber
 * the cores, each seen exactly once, each producer's order kept; the same
 * of a stealing worker's run queue.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "indices.h"
#include "progress.h"
#include "queue.h"
#include "runq.h"
#include "scale.h"

/*
 * Six threads on two cores. Two producers, and consumers that nap when
 * they find nothing: ck_ring's push waits for every earlier producer to
 * publish, and a producer preempted in between makes the other spin out
 * its time slice, inside its own window, so the stall feeds itself (a
 * convoy: 100 s instead of 0.3 s now and then). That is a cost for the
 * benchmark to show, not a fault for this test to wait out.
 */
#define STRESS_PRODUCERS	2
#define STRESS_CONSUMERS	4
#define STRESS_ITEMS		1200000

/* Items are even, non-NULL pointers: producer in the high bits. */
#define TAG(p, seq)	((void *)(uintptr_t)(((((uint64_t)(p) << 32) | (seq)) + 1) << 1))
#define UNTAG(v)	(((uint64_t)(uintptr_t)(v) >> 1) - 1)
#define TAG_P(v)	((unsigned int)(UNTAG(v) >> 32))
#define TAG_SEQ(v)	((uint32_t)(UNTAG(v) & 0xffffffffu))

/* Registry indices: plain values, the same in every test process. */
static struct criterion_test_params
queue_params(void)
{

	return INDICES(queue_count());
}

ParameterizedTestParameters(queue, fifo_single_thread) { return queue_params(); }
ParameterizedTest(size_t *i, queue, fifo_single_thread)
{
	const struct queue_ops *ops = queue_at(*i);
	struct queue *q;
	void *v;
	uint32_t n;

	cr_assert_eq(ops->create(&q, 1024), 0, "%s: create", ops->name);
	cr_assert(queue_empty(q), "%s: new queue not empty", ops->name);
	cr_assert_not(queue_pop(q, &v), "%s: pop from empty", ops->name);
	for (n = 0; n < 1000; n++)
		cr_assert(queue_push(q, TAG(0, n)), "%s: push %u", ops->name, n);
	cr_assert_not(queue_empty(q), "%s: empty after pushes", ops->name);
	for (n = 0; n < 1000; n++) {
		cr_assert(queue_pop(q, &v), "%s: pop %u", ops->name, n);
		if (ops->flags & Q_FIFO)
			cr_assert_eq(TAG_SEQ(v), n, "%s: FIFO broken at %u",
			    ops->name, n);
	}
	cr_assert_not(queue_pop(q, &v), "%s: pop after drain", ops->name);
	cr_assert(queue_empty(q), "%s: not empty after drain", ops->name);
	queue_destroy(q);
}

ParameterizedTestParameters(queue, full_and_empty) { return queue_params(); }
ParameterizedTest(size_t *i, queue, full_and_empty)
{
	const struct queue_ops *ops = queue_at(*i);
	struct queue *q;
	uint32_t n = 0;
	void *v;

	cr_assert_eq(ops->create(&q, 8), 0);
	/* Past any small capacity an unbounded queue must grow, not refuse. */
	while (n < 100000 && queue_push(q, TAG(0, n)))
		n++;
	if (ops->flags & Q_BOUNDED) {
		cr_assert(n >= 8 && n < 100000, "%s: held %u of capacity 8",
		    ops->name, n);
		cr_assert(queue_pop(q, &v));
		cr_assert(queue_push(q, TAG(0, n)), "%s: no room after a pop",
		    ops->name);
	} else {
		cr_assert_eq(n, 100000, "%s: unbounded queue refused item %u",
		    ops->name, n);
	}
	while (queue_pop(q, &v))
		;
	cr_assert(queue_empty(q));
	queue_destroy(q);
}

/*
 * lfseg starts at 8 slots and keeps two free: 1000 items freeze the rings
 * of 8 to 512 slots, seven freezes, and one thread never finds a slot
 * reserved and empty.
 */
Test(queue, lfseg_counts_its_freezes)
{
	struct queue_counts qc;
	struct queue *q;
	uint32_t n;
	void *v;

	cr_assert_eq(queue_lfseg.create(&q, 0), 0);
	queue_lfseg.counts(q, &qc);
	cr_assert_eq(qc.freezes, 0);
	for (n = 0; n < 1000; n++)
		cr_assert(queue_push(q, TAG(0, n)));
	while (queue_pop(q, &v))
		;
	queue_lfseg.counts(q, &qc);
	cr_assert_eq(qc.freezes, 7, "freezes %lu", (unsigned long)qc.freezes);
	cr_assert_eq(qc.slot_waits, 0);
	queue_destroy(q);
}

struct stress {
	struct queue *q;
	_Atomic uint64_t consumed;
	_Atomic uint8_t *seen;		/* one flag per item */
	_Atomic int order_broken;
	_Atomic int doubled;
	_Atomic int given_up;		/* no item came out for a while */
	uint64_t total;
	unsigned int producers;
	uint32_t per_producer;
};

struct stress_thread {
	struct stress *s;
	unsigned int id;
	pthread_t tid;
};

static void *
stress_producer(void *arg)
{
	struct stress_thread *t = arg;
	uint32_t seq;

	for (seq = 0; seq < t->s->per_producer; seq++) {
		while (!queue_push(t->s->q, TAG(t->id, seq))) {
			if (atomic_load(&t->s->given_up))
				return NULL;
			sched_yield();		/* bounded and full: wait */
		}
	}
	return NULL;
}

static void *
stress_consumer(void *arg)
{
	struct stress_thread *t = arg;
	struct stress *s = t->s;
	struct timespec nap = { 0, 20000 };
	int64_t *last = malloc(s->producers * sizeof(*last));
	unsigned int p;
	uint64_t slot;
	void *v;

	for (p = 0; p < s->producers; p++)
		last[p] = -1;
	while (atomic_load(&s->consumed) < s->total &&
	    !atomic_load(&s->given_up)) {
		if (!queue_pop(s->q, &v)) {
			nanosleep(&nap, NULL);
			continue;
		}
		p = TAG_P(v);
		slot = (uint64_t)p * s->per_producer + TAG_SEQ(v);
		if (atomic_exchange(&s->seen[slot], 1) != 0)
			atomic_store(&s->doubled, 1);
		/* What one consumer sees of one producer comes in order. */
		if ((s->q->ops->flags & Q_FIFO) && (int64_t)TAG_SEQ(v) <= last[p])
			atomic_store(&s->order_broken, 1);
		last[p] = TAG_SEQ(v);
		atomic_fetch_add(&s->consumed, 1);
	}
	free(last);
	return NULL;
}

ParameterizedTestParameters(queue, stress_mpmc) { return queue_params(); }
/*
 * DB_STRESS_ITEMS, _PRODUCERS and _CONSUMERS scale it (the `stress`
 * target); a queue whose pushes publish in turn keeps two producers, for
 * the convoy above, and gives the others to consumers; a queue with one
 * consumer gets every other thread as a producer.
 */
ParameterizedTest(size_t *i, queue, stress_mpmc, .timeout = 7200)
{
	const struct queue_ops *ops = queue_at(*i);
	unsigned long threads = scale("DB_STRESS_PRODUCERS", STRESS_PRODUCERS) +
	    scale("DB_STRESS_CONSUMERS", STRESS_CONSUMERS);
	struct stress_thread *t = calloc(threads, sizeof(*t));
	struct stress s = { .producers = (unsigned int)scale(
	    "DB_STRESS_PRODUCERS", STRESS_PRODUCERS) };
	unsigned int k;
	uint64_t n, lost = 0, first = 0;

	if (ops->flags & Q_PUSH_IN_TURN && s.producers > STRESS_PRODUCERS)
		s.producers = STRESS_PRODUCERS;
	if (ops->flags & Q_ONE_CONSUMER)
		s.producers = (unsigned int)threads - 1;
	s.per_producer = (uint32_t)(scale("DB_STRESS_ITEMS", STRESS_ITEMS) /
	    s.producers);
	s.total = (uint64_t)s.producers * s.per_producer;
	/* An unbounded queue from its smallest size: it grows under load. */
	cr_assert_eq(ops->create(&s.q, ops->flags & Q_BOUNDED ? 1024 : 2), 0);
	s.seen = calloc(s.total, 1);
	cr_assert(t != NULL && s.seen != NULL);
	/* Threads 0..producers-1 produce, the rest consume. */
	for (k = 0; k < threads; k++) {
		t[k] = (struct stress_thread){ .s = &s, .id = k };
		pthread_create(&t[k].tid, NULL, k < s.producers ?
		    stress_producer : stress_consumer, &t[k]);
	}
	if (!progress_wait(&s.consumed, s.total))
		atomic_store(&s.given_up, 1);
	for (k = 0; k < threads; k++)
		pthread_join(t[k].tid, NULL);
	free(t);
	printf("%s: %lu items, %u producers, %lu consumers\n", ops->name,
	    (unsigned long)s.total, s.producers, threads - s.producers);
	cr_assert_not(atomic_load(&s.doubled), "%s: an item came out twice",
	    ops->name);
	for (n = 0; n < s.total; n++)
		if (s.seen[n] == 0 && lost++ == 0)
			first = n;
	cr_assert_eq(lost, 0, "%s: %lu items never came out, the first item "
	    "%lu of producer %lu", ops->name, (unsigned long)lost,
	    (unsigned long)(first % s.per_producer),
	    (unsigned long)(first / s.per_producer));
	cr_assert_not(atomic_load(&s.order_broken), "%s: a producer's order "
	    "was not kept", ops->name);
	cr_assert(queue_empty(s.q));
	free((void *)s.seen);
	queue_destroy(s.q);
}

/*
 * The queue outside the registry, under the same load: a stealing worker's
 * run queue (its owner pushes and pops, thieves take halves).
 */
struct runq_stress {
	struct runq owner;
	struct disp_task *tasks;
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
runq_take(struct runq_stress *s, struct disp_task *t)
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
	struct disp_task *t;

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
	    STRESS_PRODUCERS) + scale("DB_STRESS_CONSUMERS", STRESS_CONSUMERS));
	struct runq_thief *th = calloc(nt, sizeof(*th));
	struct runq_stress *s = calloc(1, sizeof(*s));
	struct disp_task *t;
	uint64_t i, lost = 0;
	unsigned int k;

	s->total = scale("DB_STRESS_ITEMS", STRESS_ITEMS);
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
