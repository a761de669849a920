/*
 * older.c - a design and a queue built for the ABI before the oldest this
 * build loads: the suite must refuse both, each with one line, before it
 * calls anything.
 *
 * Each table is of this build's size and complete, so the ABI version is
 * the only thing wrong with it: a loader that checked only for a newer
 * version, or only the size, would take it. Its functions fail loudly in
 * case one is ever called.
 */
#include <errno.h>
#include <stdlib.h>

#include <dispatchbench/dispatcher.h>
#include <dispatchbench/queue.h>

static int
older_disp_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{

	return -ENOSYS;
}

static void
older_dispatch(struct db_dispatcher *d, struct db_task *t)
{

	abort();
}

static void
older_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{

	abort();
}

const struct db_disp_ops dispatchbench_dispatcher = {
	.abi = DB_DISP_ABI_OLDEST - 1, .size = sizeof(struct db_disp_ops),
	.name = "older",
	.model = "a design built for the ABI before the oldest loaded",
	.create = older_disp_create,
	.dispatch = older_dispatch,
	.shutdown = older_shutdown,
};

static int
older_queue_create(struct db_queue **qp, size_t capacity)
{

	return -ENOSYS;
}

static void
older_queue_destroy(struct db_queue *q)
{

	abort();
}

static bool
older_push(struct db_queue *q, void *item)
{

	abort();
}

static bool
older_pop(struct db_queue *q, void **item)
{

	abort();
}

static bool
older_empty(struct db_queue *q)
{

	abort();
}

const struct db_queue_ops dispatchbench_queue = {
	.abi = DB_QUEUE_ABI_OLDEST - 1, .size = sizeof(struct db_queue_ops),
	.name = "older",
	.model = "a queue built for the ABI before the oldest loaded",
	.create = older_queue_create,
	.destroy = older_queue_destroy,
	.push = older_push,
	.pop = older_pop,
	.empty = older_empty,
};
