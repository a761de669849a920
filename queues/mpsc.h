/*
 * mpsc.h - an intrusive, unbounded multi-producer single-consumer queue
 * (Dmitry Vyukov's, with a stub node): a push is one atomic exchange, a pop
 * touches no shared word unless the queue runs dry. This is the queue an
 * event loop's other threads hand it work through, in the place of Netty's
 * JCTools MpscUnboundedArrayQueue.
 *
 * The mpsc_* namespace: any number of threads may push; one thread pops.
 * A pop can return NULL while a push is half done; mpsc_empty() tells that
 * case apart from a truly empty queue, so a consumer never sleeps on it.
 */
#ifndef QUEUES_MPSC_H
#define QUEUES_MPSC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct mpsc_node {
	_Atomic(struct mpsc_node *) next;
};

struct mpsc {
	_Atomic(struct mpsc_node *) head;	/* producers swap here */
	char pad[64 - sizeof(void *)];
	struct mpsc_node *tail;			/* the consumer's own */
	struct mpsc_node stub;
};

static inline void
mpsc_init(struct mpsc *q)
{

	atomic_init(&q->stub.next, NULL);
	atomic_init(&q->head, &q->stub);
	q->tail = &q->stub;
	return;
}

static inline void
mpsc_push(struct mpsc *q, struct mpsc_node *n)
{
	struct mpsc_node *prev;

	atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
	prev = atomic_exchange_explicit(&q->head, n, memory_order_acq_rel);
	/* Until this store the node is in the queue but unreachable. */
	atomic_store_explicit(&prev->next, n, memory_order_release);
	return;
}

static inline struct mpsc_node *
mpsc_pop(struct mpsc *q)
{
	struct mpsc_node *tail = q->tail;
	struct mpsc_node *next;

	next = atomic_load_explicit(&tail->next, memory_order_acquire);
	if (tail == &q->stub) {
		if (next == NULL)
			return NULL;
		q->tail = tail = next;
		next = atomic_load_explicit(&next->next, memory_order_acquire);
	}
	if (next != NULL) {
		q->tail = next;
		return tail;
	}
	if (tail != atomic_load_explicit(&q->head, memory_order_acquire))
		return NULL;		/* a push is between its two steps */
	mpsc_push(q, &q->stub);
	next = atomic_load_explicit(&tail->next, memory_order_acquire);
	if (next == NULL)
		return NULL;
	q->tail = next;
	return tail;
}

/* Consumer only: true when nothing is queued or being queued. */
static inline bool
mpsc_empty(struct mpsc *q)
{

	return q->tail == &q->stub &&
	    atomic_load_explicit(&q->head, memory_order_acquire) == &q->stub;
}

#endif /* QUEUES_MPSC_H */
