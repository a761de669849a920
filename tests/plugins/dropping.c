/*
 * dropping.c - a broken queue plugin for the tests: the suite's mutex
 * queue, except that push number DROPPING_AT (environment, default one
 * million) says it took the item and drops it. `verify` must name it.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "queue.h"

extern const struct queue_ops dispatchbench_queue;

static _Atomic unsigned long pushes;
static unsigned long drop_at = 1000000;

static int
dropping_create(struct queue **qp, size_t capacity)
{
	const char *at = getenv("DROPPING_AT");
	int error = queue_mutex.create(qp, capacity);

	if (at != NULL)
		drop_at = strtoul(at, NULL, 10);
	if (error == 0)
		(*qp)->ops = &dispatchbench_queue;
	return error;
}

static bool
dropping_push(struct queue *q, void *item)
{

	if (atomic_fetch_add(&pushes, 1) + 1 == drop_at)
		return true;
	return queue_mutex.push(q, item);
}

static void
dropping_destroy(struct queue *q)
{

	queue_mutex.destroy(q);
}

static bool
dropping_pop(struct queue *q, void **item)
{

	return queue_mutex.pop(q, item);
}

static bool
dropping_empty(struct queue *q)
{

	return queue_mutex.empty(q);
}

const struct queue_ops dispatchbench_queue = {
	DB_QUEUE_OPS_HEAD,
	.name = "dropping",
	.model = "the mutex queue, dropping one push (a broken plugin)",
	.flags = Q_FIFO,
	.create = dropping_create,
	.destroy = dropping_destroy,
	.push = dropping_push,
	.pop = dropping_pop,
	.empty = dropping_empty,
};
