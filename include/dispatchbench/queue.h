/*
 * dispatchbench/queue.h - the queue interface of dispatchbench, version 4
 * (2 added real and beside; 3 prefixes every name with db_; 4 counts the
 * CPU time of stalled waits; 5 reads as C++ and keeps room in its counts).
 *
 * A queue is a const struct db_queue_ops: the suite's own queues are written
 * against this header, and a queue of your own is one too, built as a
 * shared object that exports it (by default as `dispatchbench_queue`) and
 * run with `--queue ./libyours.so` or `--queue PATH:SYMBOL`. Start the
 * table with DB_QUEUE_OPS_HEAD; the suite refuses a table of another ABI
 * version or size (any from DB_QUEUE_ABI_OLDEST to this one loads).
 * `dispatchbench verify --queue` checks that a queue does
 * what its flags promise before any number of it means anything.
 *
 * Any number of threads push and pop, except where DB_Q_ONE_CONSUMER says one
 * thread pops. Items are non-NULL pointers aligned to at least 2 bytes (a
 * queue may use the low bit, as lfseg marks an in-flight slot).
 */
#ifndef DISPATCHBENCH_QUEUE_H
#define DISPATCHBENCH_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DB_QUEUE_ABI_VERSION	5
#define DB_QUEUE_ABI_OLDEST	5	/* the oldest whose layouts are these */
#define DB_QUEUE_OPS_HEAD						\
	.abi = DB_QUEUE_ABI_VERSION, .size = sizeof(struct db_queue_ops)

#define DB_Q_BOUNDED	(1u << 0)	/* push returns false when full */
#define DB_Q_FIFO	(1u << 1)	/* one producer's items leave in order */
#define DB_Q_SC_PUSH	(1u << 2)	/* push ends in a seq_cst
					   read-modify-write */
/*
 * A push publishes only after every earlier push has (ck_ring): with more
 * producers than cores, one preempted producer stalls all the others.
 */
#define DB_Q_PUSH_IN_TURN	(1u << 3)
/* One thread pops (an event loop's inbox): no design polls it from many. */
#define DB_Q_ONE_CONSUMER	(1u << 4)

struct db_queue_ops;

/* What a queue counts on its slow paths, over its whole life. */
struct db_queue_counts {
	uint64_t slot_waits;	/* pops that waited on a reserved, empty slot */
	uint64_t freezes;	/* full rings frozen and copied to a larger one */
	/*
	 * CPU time, in ns, that threads spun on a slot another thread owed a
	 * store to while that thread was not running: a push or pop that
	 * waits longer than a running thread takes to finish its store.
	 */
	uint64_t stall_ns;
	/* Room for the counts a later version adds: zero from this one. */
	uint64_t more[5];
};

/* The head of every implementation's own struct. */
struct db_queue {
	const struct db_queue_ops *ops;
};

struct db_queue_ops {
	unsigned int abi;		/* DB_QUEUE_ABI_VERSION */
	unsigned int size;		/* sizeof(struct db_queue_ops) */
	const char *name;
	const char *model;		/* one line: what it is, what it models */
	/* A library's queue: its name and version; NULL: the suite's own. */
	const char *real;
	const char *beside;		/* the queues to draw it beside */
	unsigned int flags;

	/*
	 * Bounded queues hold at least capacity items (ck_ring rounds up to
	 * a power of two); unbounded ones take it as a hint or ignore it.
	 * Returns 0 or a negative errno.
	 */
	int (*create)(struct db_queue **qp, size_t capacity);
	void (*destroy)(struct db_queue *q);

	bool (*push)(struct db_queue *q, void *item);	/* false: full */
	bool (*pop)(struct db_queue *q, void **item);	/* false: empty */

	/* A snapshot that may be stale by the time it returns. */
	bool (*empty)(struct db_queue *q);

	/* NULL for a queue without slow paths worth counting. */
	void (*counts)(struct db_queue *q, struct db_queue_counts *c);
};

static inline bool
db_queue_push(struct db_queue *q, void *item)
{

	return q->ops->push(q, item);
}

static inline bool
db_queue_pop(struct db_queue *q, void **item)
{

	return q->ops->pop(q, item);
}

static inline bool
db_queue_empty(struct db_queue *q)
{

	return q->ops->empty(q);
}

static inline void
db_queue_destroy(struct db_queue *q)
{

	q->ops->destroy(q);
}

#ifdef __cplusplus
}
#endif

#endif /* DISPATCHBENCH_QUEUE_H */
