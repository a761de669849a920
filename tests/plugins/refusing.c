/*
 * refusing.c - plugins the suite must refuse, each with one line: a table
 * of another ABI version (dispatchbench_queue), a queue whose create
 * fails (refusing), and tables of this ABI's version but not of its size
 * (larger, smaller, wider): a loader that checked the version alone, or
 * only that a table is not short, would read past one or miss a field.
 */
#include <errno.h>

#include <dispatchbench/dispatcher.h>
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

/* A queue of this ABI's version, its table's size off by more pointers. */
#define REFUSING_SIZED(more, what) {					\
	.abi = DB_QUEUE_ABI_VERSION,					\
	.size = sizeof(struct db_queue_ops) + (more) * sizeof(void *),	\
	.name = #what,							\
	.model = "a queue table " #what " than this build's",		\
	.create = refusing_create,					\
	.destroy = refusing_destroy,					\
	.push = refusing_push,						\
	.pop = refusing_pop,						\
	.empty = refusing_empty,					\
}

const struct db_queue_ops larger = REFUSING_SIZED(1, larger);
const struct db_queue_ops smaller = REFUSING_SIZED(-1, smaller);

/* Refused by its size before anything could call it. */
const struct db_disp_ops wider = {
	.abi = DB_DISP_ABI_VERSION,
	.size = sizeof(struct db_disp_ops) + sizeof(void *),
	.name = "wider",
	.model = "a design table larger than this build's",
};
