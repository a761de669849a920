/*
 * periodic.c - the suite's mutex queue with a known period effect, the
 * control of pair's crossover (tests/test_pair.c): every second queue a
 * process makes spins PERIOD_SPINS (environment) turns of an empty loop
 * before every push. `pair --dispatcher shared` makes one queue a window
 * and runs a process's windows in turn, so that is the second window of
 * each pair, whichever arm it is. Run against itself, the true change is
 * none however dear going second is: an estimator that leaves the period
 * effect in reports it as a change.
 */
#include <stdlib.h>

#include "queues.h"

extern const struct db_queue_ops periodic;

static unsigned long made;		/* queues made in this process */
static unsigned long spins;		/* the live queue's */

/*
 * One queue at a time, made before its workers start and destroyed after
 * they stop: plain statics, ordered by the threads' start and join.
 */
static int
periodic_create(struct db_queue **qp, size_t capacity)
{
	const char *s = getenv("PERIOD_SPINS");
	int error = queue_mutex.create(qp, capacity);

	spins = made++ % 2 == 1 && s != NULL ? strtoul(s, NULL, 10) : 0;
	if (error == 0)
		(*qp)->ops = &periodic;
	return error;
}

static bool
periodic_push(struct db_queue *q, void *item)
{
	unsigned long i;

	for (i = 0; i < spins; i++)
		__asm__ __volatile__("" ::: "memory");
	return queue_mutex.push(q, item);
}

static void
periodic_destroy(struct db_queue *q)
{

	queue_mutex.destroy(q);
}

static bool
periodic_pop(struct db_queue *q, void **item)
{

	return queue_mutex.pop(q, item);
}

static bool
periodic_empty(struct db_queue *q)
{

	return queue_mutex.empty(q);
}

const struct db_queue_ops periodic = {
	DB_QUEUE_OPS_HEAD,
	.name = "periodic",
	.model = "the mutex queue, PERIOD_SPINS turns slower a push in every "
	    "second queue made (a control)",
	.flags = DB_Q_FIFO,
	.create = periodic_create,
	.destroy = periodic_destroy,
	.push = periodic_push,
	.pop = periodic_pop,
	.empty = periodic_empty,
};
