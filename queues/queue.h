/*
 * queue.h - one queue interface, one implementation per file.
 *
 * Every implementation is a const struct queue_ops in its own file, listed
 * in registry.c and selected by name. The name is the file's name and the
 * value of "queue" in every result. Any number of threads push and pop,
 * except where Q_ONE_CONSUMER says one thread pops.
 *
 * Items are non-NULL pointers aligned to at least 2 bytes: lfseg marks an
 * in-flight slot with the low bit, as kotlinx marks it with a Placeholder.
 */
#ifndef QUEUES_QUEUE_H
#define QUEUES_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ck_fifo.h>

#define Q_BOUNDED	(1u << 0)	/* push returns false when full */
#define Q_FIFO		(1u << 1)	/* one producer's items leave in order */
#define Q_SC_PUSH	(1u << 2)	/* push ends in a seq_cst read-modify-write */
/*
 * A push publishes only after every earlier push has (ck_ring): with more
 * producers than cores, one preempted producer stalls all the others.
 */
#define Q_PUSH_IN_TURN	(1u << 3)
/* One thread pops (an event loop's inbox): no design polls it from many. */
#define Q_ONE_CONSUMER	(1u << 4)

struct queue_ops;

/* What a queue counts on its slow paths, over its whole life. */
struct queue_counts {
	uint64_t slot_waits;	/* pops that waited on a reserved, empty slot */
	uint64_t freezes;	/* full rings frozen and copied to a larger one */
};

/* The head of every implementation's own struct. */
struct queue {
	const struct queue_ops *ops;
};

struct queue_ops {
	const char *name;
	const char *model;		/* one line: what it is, what it models */
	unsigned int flags;

	/*
	 * Bounded queues hold at least capacity items (ck_ring rounds up to
	 * a power of two); unbounded ones take it as a hint or ignore it.
	 * Returns 0 or a negative errno.
	 */
	int (*create)(struct queue **qp, size_t capacity);
	void (*destroy)(struct queue *q);

	bool (*push)(struct queue *q, void *item);	/* false: full */
	bool (*pop)(struct queue *q, void **item);	/* false: empty */

	/* A snapshot that may be stale by the time it returns. */
	bool (*empty)(struct queue *q);

	/* NULL for a queue without slow paths worth counting. */
	void (*counts)(struct queue *q, struct queue_counts *c);
};

#define QUEUE_MAX_SLOTS	((size_t)1 << 30)

/* A ring's size: the power of 2 at least n and min, or 0 past the cap. */
static inline size_t
queue_pow2(size_t n, size_t min)
{
	size_t p = min;

	while (p < n && p <= QUEUE_MAX_SLOTS)
		p <<= 1;
	return p > QUEUE_MAX_SLOTS ? 0 : p;
}

static inline bool
queue_push(struct queue *q, void *item)
{

	return q->ops->push(q, item);
}

static inline bool
queue_pop(struct queue *q, void **item)
{

	return q->ops->pop(q, item);
}

static inline bool
queue_empty(struct queue *q)
{

	return q->ops->empty(q);
}

static inline void
queue_destroy(struct queue *q)
{

	q->ops->destroy(q);
}

const struct queue_ops *queue_find(const char *name);	/* NULL if unknown */
size_t queue_count(void);
const struct queue_ops *queue_at(size_t i);

/*
 * Every queue, in the order `list` shows them, the first the default:
 * X(name) for queue_<name> defined in <name>.c. A new queue is its file, a
 * line here and a line in CMakeLists.txt.
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
	X(mpsc)		/* one consumer: the event loop's inbox */

#define QUEUE_EXTERN(n)	extern const struct queue_ops queue_##n;
QUEUE_LIST(QUEUE_EXTERN)
#undef QUEUE_EXTERN

#endif /* QUEUES_QUEUE_H */
