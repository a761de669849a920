/*
 * queues.h - the suite's queues: the interface (dispatchbench/queue.h) and
 * the registry.
 *
 * Every implementation is a const struct db_queue_ops in its own file,
 * listed in queue_list.h and selected by name. The name is the file's name
 * and the value of "queue" in every result.
 */
#ifndef QUEUES_QUEUES_H
#define QUEUES_QUEUES_H

#include <assert.h>

#include <ck_fifo.h>

#include <dispatchbench/queue.h>

#define QUEUE_MAX_SLOTS	((size_t)1 << 30)

/* A ring's size: the power of 2 at least n and min, or 0 past the cap. */
static inline size_t
queue_pow2(size_t n, size_t min)
{
	size_t p = min;

	while (p < n && p <= QUEUE_MAX_SLOTS)
		p <<= 1;
	if (p > QUEUE_MAX_SLOTS)
		return 0;
	assert(p >= n && (p & (p - 1)) == 0);	/* holds the capacity asked */
	return p;
}

/* The queues the designs build on: a spill queue, an event loop's inbox. */
extern const struct db_queue_ops queue_mutex;
extern const struct db_queue_ops queue_mpsc;

/* NULL if unknown */
const struct db_queue_ops *queue_find(const char *name);
size_t queue_count(void);
const struct db_queue_ops *queue_at(size_t i);

#endif /* QUEUES_QUEUES_H */
