/*
 * urcu_wfcq.c - liburcu's cds_wfcq (urcu/wfcqueue.h, liburcu 0.13): the
 * queue under LTTng and call_rcu, driven through its public functions.
 *
 * A push is wait-free: one xchg of the tail, then a plain store of the old
 * tail's next. A pop takes the head's mutex (cds_wfcq_dequeue_blocking),
 * so poppers take turns; a pop that finds a tail swapped but its next not
 * yet stored spins 10 times, then sleeps 10 ms (WFCQ_WAIT) holding that
 * mutex: a producer preempted between its two steps stalls every consumer.
 * Each item rides in a node of its own, allocated by the push and freed
 * by the pop, which the header allows at once.
 */
#include <errno.h>
#include <stdlib.h>

#include <urcu/wfcqueue.h>

#include "queues.h"
#include "tsan.h"

extern const struct db_queue_ops queue_urcu_wfcq;	/* defined below */

struct wfcq_item {
	struct cds_wfcq_node node;
	void *item;
};

struct q_wfcq {
	struct db_queue base;
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
};

static int
wfcq_create(struct db_queue **qp, size_t capacity)
{
	struct q_wfcq *q = calloc(1, sizeof(*q));

	if (q == NULL)
		return -ENOMEM;
	q->base.ops = &queue_urcu_wfcq;
	cds_wfcq_init(&q->head, &q->tail);
	*qp = &q->base;
	return 0;
}

static bool
wfcq_pop(struct db_queue *base, void **item)
{
	struct q_wfcq *q = (struct q_wfcq *)base;
	struct cds_wfcq_node *n;
	struct wfcq_item *e;

	n = cds_wfcq_dequeue_blocking(&q->head, &q->tail);
	if (n == NULL)
		return false;
	e = caa_container_of(n, struct wfcq_item, node);
	TSAN_ACQUIRE(e);
	*item = e->item;
	free(e);
	return true;
}

static void
wfcq_destroy(struct db_queue *base)
{
	struct q_wfcq *q = (struct q_wfcq *)base;
	void *item;

	while (wfcq_pop(base, &item))
		;
	cds_wfcq_destroy(&q->head, &q->tail);
	free(q);
	return;
}

static bool
wfcq_push(struct db_queue *base, void *item)
{
	struct q_wfcq *q = (struct q_wfcq *)base;
	struct wfcq_item *e = malloc(sizeof(*e));

	if (e == NULL)
		return false;
	cds_wfcq_node_init(&e->node);
	e->item = item;
	/* liburcu's atomics are inline assembly TSan cannot see. */
	TSAN_RELEASE(e);
	cds_wfcq_enqueue(&q->head, &q->tail, &e->node);
	return true;
}

static bool
wfcq_empty(struct db_queue *base)
{
	struct q_wfcq *q = (struct q_wfcq *)base;

	return cds_wfcq_empty(&q->head, &q->tail);
}

const struct db_queue_ops queue_urcu_wfcq = {
	DB_QUEUE_OPS_HEAD,
	.name = "urcu-wfcq",
	.model = "liburcu cds_wfcq: wait-free xchg enqueue, dequeue under a "
	    "mutex, a node per item",
	.real = "liburcu " DB_URCU_VERSION,
	.beside = "mpsc,mutex",
	.flags = DB_Q_FIFO,
	.create = wfcq_create,
	.destroy = wfcq_destroy,
	.push = wfcq_push,
	.pop = wfcq_pop,
	.empty = wfcq_empty,
};
