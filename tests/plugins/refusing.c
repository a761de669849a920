/*
 * refusing.c - plugins the suite must refuse, each with one line: a table
 * of another ABI version (dispatchbench_queue) and a queue whose create
 * fails (refusing).
 */
#include <errno.h>

#include <dispatchbench/queue.h>

static int
refusing_create(struct db_queue **qp, size_t capacity)
{

	return -ENOMEM;
}

static bool
refusing_push(struct db_queue *q, void *item)
{

	return false;
}

static bool
refusing_pop(struct db_queue *q, void **item)
{

	return false;
}

static bool
refusing_empty(struct db_queue *q)
{

	return true;
}

static void
refusing_destroy(struct db_queue *q)
{

}

const struct db_queue_ops dispatchbench_queue = {
	.abi = DB_QUEUE_ABI_VERSION + 1, .size = sizeof(struct db_queue_ops),
	.name = "future",
	.model = "a table of a later ABI",
};

const struct db_queue_ops refusing = {
	DB_QUEUE_OPS_HEAD,
	.name = "refusing",
	.model = "a queue that cannot be created",
	.create = refusing_create,
	.destroy = refusing_destroy,
	.push = refusing_push,
	.pop = refusing_pop,
	.empty = refusing_empty,
};
