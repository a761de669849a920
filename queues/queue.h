/*
 * queue.h - the suite's queues: the interface (dispatchbench/queue.h) and
 * the registry.
 *
 * Every implementation is a const struct queue_ops in its own file, listed
 * here and selected by name. The name is the file's name and the value of
 * "queue" in every result.
 */
#ifndef QUEUES_QUEUE_H
#define QUEUES_QUEUE_H

#include <assert.h>

#include <ck_fifo.h>

#include <dispatchbench/queue.h>

#include "runtimes.h"

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

const struct queue_ops *queue_find(const char *name);	/* NULL if unknown */
size_t queue_count(void);
const struct queue_ops *queue_at(size_t i);

/*
 * Every queue, in the order `list` shows them, the first the default:
 * X(name) for queue_<name> defined in <name>.c. A new queue is its file, a
 * line here and a line in CMakeLists.txt. The libraries' queues this
 * build found follow (runtimes/).
 */
#ifdef CK_F_FIFO_MPMC
#define QUEUE_CKFIFO(X)	X(ckfifo)	/* needs a double-width CAS */
#else
#define QUEUE_CKFIFO(X)
#endif
#define QUEUE_LIST(X)							\
	X(lfseg)	/* the queue under Dispatchers.IO */		\
	X(ckring)							\
	QUEUE_CKFIFO(X)							\
	X(mutex)							\
	X(vyukov)							\
	X(mpsc)		/* one consumer: the event loop's inbox */	\
	QUEUE_RUNTIMES(X)

#define QUEUE_EXTERN(n)	extern const struct queue_ops queue_##n;
QUEUE_LIST(QUEUE_EXTERN)
#undef QUEUE_EXTERN

#endif /* QUEUES_QUEUE_H */
