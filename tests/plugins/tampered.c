/*
 * tampered.c - the suite's mutex queue, tampered with, as plugins for the
 * tests and the controls:
 *  - dispatchbench_queue ("dropping"): push number DROPPING_AT
 *    (environment, default one million) says it took the item and drops
 *    it; `verify` must name it, `pair` call it broken;
 *  - crashing: push number CRASHING_AT (environment, default one
 *    million) aborts the process: `pair` must call it broken, and stop;
 *  - slow_a and slow_b: SLOW_A_SPINS and SLOW_B_SPINS (environment)
 *    turns of an empty loop before every push: two arms of one code, one
 *    a known amount slower, the controls of `pair` and `ab`. Their ratio
 *    is measured, not assumed: where workers contend, a slower push
 *    changes the contention too.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "queues.h"

extern const struct db_queue_ops dispatchbench_queue, crashing, slow_a,
    slow_b;

static _Atomic unsigned long pushes;
static unsigned long drop_at = 1000000, crash_at = 1000000;
static unsigned long spins[2];		/* slow_a's, slow_b's */

/* The mutex queue, seen through ops. */
static int
tampered_create(struct db_queue **qp, size_t capacity,
    const struct db_queue_ops *ops)
{
	const char *at = getenv("DROPPING_AT"), *a = getenv("SLOW_A_SPINS"),
	    *b = getenv("SLOW_B_SPINS"), *crash = getenv("CRASHING_AT");
	int error = queue_mutex.create(qp, capacity);

	if (at != NULL)
		drop_at = strtoul(at, NULL, 10);
	if (crash != NULL)
		crash_at = strtoul(crash, NULL, 10);
	spins[0] = a != NULL ? strtoul(a, NULL, 10) : 0;
	spins[1] = b != NULL ? strtoul(b, NULL, 10) : 0;
	if (error == 0)
		(*qp)->ops = ops;
	return error;
}

static int
dropping_create(struct db_queue **qp, size_t capacity)
{

	return tampered_create(qp, capacity, &dispatchbench_queue);
}

static bool
dropping_push(struct db_queue *q, void *item)
{

	if (atomic_fetch_add(&pushes, 1) + 1 == drop_at)
		return true;
	return queue_mutex.push(q, item);
}

static int
crashing_create(struct db_queue **qp, size_t capacity)
{

	return tampered_create(qp, capacity, &crashing);
}

static bool
crashing_push(struct db_queue *q, void *item)
{

	if (atomic_fetch_add(&pushes, 1) + 1 == crash_at)
		abort();
	return queue_mutex.push(q, item);
}

static int
slow_a_create(struct db_queue **qp, size_t capacity)
{

	return tampered_create(qp, capacity, &slow_a);
}

static int
slow_b_create(struct db_queue **qp, size_t capacity)
{

	return tampered_create(qp, capacity, &slow_b);
}

static bool
slow_push(struct db_queue *q, void *item)
{
	unsigned long i, n = spins[q->ops == &slow_b];

	for (i = 0; i < n; i++)
		__asm__ __volatile__("" ::: "memory");
	return queue_mutex.push(q, item);
}

static void
dropping_destroy(struct db_queue *q)
{

	queue_mutex.destroy(q);
}

static bool
dropping_pop(struct db_queue *q, void **item)
{

	return queue_mutex.pop(q, item);
}

static bool
dropping_empty(struct db_queue *q)
{

	return queue_mutex.empty(q);
}

const struct db_queue_ops dispatchbench_queue = {
	DB_QUEUE_OPS_HEAD,
	.name = "dropping",
	.model = "the mutex queue, dropping one push (a broken plugin)",
	.flags = DB_Q_FIFO,
	.create = dropping_create,
	.destroy = dropping_destroy,
	.push = dropping_push,
	.pop = dropping_pop,
	.empty = dropping_empty,
};

const struct db_queue_ops crashing = {
	DB_QUEUE_OPS_HEAD,
	.name = "crashing",
	.model = "the mutex queue, aborting at one push (a broken plugin)",
	.flags = DB_Q_FIFO,
	.create = crashing_create,
	.destroy = dropping_destroy,
	.push = crashing_push,
	.pop = dropping_pop,
	.empty = dropping_empty,
};

const struct db_queue_ops slow_a = {
	DB_QUEUE_OPS_HEAD,
	.name = "slow_a",
	.model = "the mutex queue, SLOW_A_SPINS turns slower a push (a control)",
	.flags = DB_Q_FIFO,
	.create = slow_a_create,
	.destroy = dropping_destroy,
	.push = slow_push,
	.pop = dropping_pop,
	.empty = dropping_empty,
};

const struct db_queue_ops slow_b = {
	DB_QUEUE_OPS_HEAD,
	.name = "slow_b",
	.model = "the mutex queue, SLOW_B_SPINS turns slower a push (a control)",
	.flags = DB_Q_FIFO,
	.create = slow_b_create,
	.destroy = dropping_destroy,
	.push = slow_push,
	.pop = dropping_pop,
	.empty = dropping_empty,
};
