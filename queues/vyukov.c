/*
 * vyukov.c - Dmitry Vyukov's bounded MPMC queue (1024cores.net, "Bounded
 * MPMC queue"): an array of cells, each with a sequence number, and two
 * counters that producers and consumers claim positions from with a CAS.
 *
 * A cell's sequence says whose turn it is: pos for the producer of
 * position pos, pos + 1 for its consumer, pos + capacity for the producer
 * one lap later. Unlike ck_ring's MPMC push, a producer never waits for
 * another producer: claiming a position and publishing the cell are two
 * steps, so its blocking window is this. A producer preempted between the
 * claim and the publication stalls only the consumer of that one
 * position, which sees it empty until the producer runs again; producers
 * and the consumers of other positions go on.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "queues.h"

extern const struct db_queue_ops queue_vyukov;	/* defined below */

struct vy_cell {
	_Atomic size_t seq;
	void *item;
};

struct q_vyukov {
	struct db_queue base;
	struct vy_cell *cells;
	size_t mask;
	/* Producers and consumers each on a line of their own. */
	alignas(64) _Atomic size_t enq;
	alignas(64) _Atomic size_t deq;
};

static int
vyukov_create(struct db_queue **qp, size_t capacity)
{
	struct q_vyukov *q;
	size_t n = queue_pow2(capacity, 2), i;

	if (n == 0)
		return -EINVAL;
	if (posix_memalign((void **)&q, 64, sizeof(*q)) != 0)
		return -ENOMEM;
	if ((q->cells = calloc(n, sizeof(*q->cells))) == NULL) {
		free(q);
		return -ENOMEM;
	}
	q->base.ops = &queue_vyukov;
	q->mask = n - 1;
	for (i = 0; i < n; i++)
		atomic_init(&q->cells[i].seq, i);
	atomic_init(&q->enq, 0);
	atomic_init(&q->deq, 0);
	*qp = &q->base;
	return 0;
}

static void
vyukov_destroy(struct db_queue *base)
{
	struct q_vyukov *q = (struct q_vyukov *)base;

	free(q->cells);
	free(q);
	return;
}

static bool
vyukov_push(struct db_queue *base, void *item)
{
	struct q_vyukov *q = (struct q_vyukov *)base;
	size_t pos = atomic_load_explicit(&q->enq, memory_order_relaxed);
	struct vy_cell *c;
	intptr_t dif;

	for (;;) {
		c = &q->cells[pos & q->mask];
		dif = (intptr_t)atomic_load_explicit(&c->seq,
		    memory_order_acquire) - (intptr_t)pos;
		if (dif == 0 && atomic_compare_exchange_weak_explicit(&q->enq,
		    &pos, pos + 1, memory_order_relaxed, memory_order_relaxed))
			break;
		if (dif < 0)
			return false;		/* a lap behind: full */
		if (dif > 0)
			pos = atomic_load_explicit(&q->enq,
			    memory_order_relaxed);
	}
	c->item = item;
	atomic_store_explicit(&c->seq, pos + 1, memory_order_release);
	return true;
}

static bool
vyukov_pop(struct db_queue *base, void **item)
{
	struct q_vyukov *q = (struct q_vyukov *)base;
	size_t pos = atomic_load_explicit(&q->deq, memory_order_relaxed);
	struct vy_cell *c;
	intptr_t dif;

	for (;;) {
		c = &q->cells[pos & q->mask];
		dif = (intptr_t)atomic_load_explicit(&c->seq,
		    memory_order_acquire) - (intptr_t)(pos + 1);
		if (dif == 0 && atomic_compare_exchange_weak_explicit(&q->deq,
		    &pos, pos + 1, memory_order_relaxed, memory_order_relaxed))
			break;
		if (dif < 0)
			return false;		/* not published yet: empty */
		if (dif > 0)
			pos = atomic_load_explicit(&q->deq,
			    memory_order_relaxed);
	}
	*item = c->item;
	atomic_store_explicit(&c->seq, pos + q->mask + 1, memory_order_release);
	return true;
}

/*
 * Claimed positions count: a claimed but unpublished item makes the queue
 * non-empty, so a worker that checks before parking retries instead.
 */
static bool
vyukov_empty(struct db_queue *base)
{
	struct q_vyukov *q = (struct q_vyukov *)base;

	return atomic_load(&q->enq) == atomic_load(&q->deq);
}

const struct db_queue_ops queue_vyukov = {
	DB_QUEUE_OPS_HEAD,
	.name = "vyukov",
	.model = "Vyukov bounded MPMC: per-cell sequence numbers, CAS on a counter",
	.flags = DB_Q_BOUNDED | DB_Q_FIFO,
	.create = vyukov_create,
	.destroy = vyukov_destroy,
	.push = vyukov_push,
	.pop = vyukov_pop,
	.empty = vyukov_empty,
};
