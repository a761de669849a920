/*
 * urcu_lfq.c - liburcu's cds_lfq_queue_rcu (urcu/rculfqueue.h, liburcu
 * 0.13): a Michael-Scott queue whose nodes are freed after an RCU grace
 * period, driven through its public functions with the bulletproof flavour
 * (urcu-bp), which registers any thread on its first read-side section.
 *
 * A push allocates a node and links it with two cmpxchg (the last node's
 * next, then the tail); a pop moves the head with a cmpxchg and, when it
 * takes the last real node, first enqueues a freshly allocated dummy. The
 * popped node goes to call_rcu: liburcu's call_rcu thread frees it after
 * a grace period, in batches about every 10 ms. Both run inside
 * urcu_bp_read_lock, as the header requires.
 */
#include <errno.h>
#include <stdlib.h>

#include <urcu-bp.h>
#include <urcu/rculfqueue.h>

#include "queues.h"
#include "tsan.h"

extern const struct db_queue_ops queue_urcu_lfq;	/* defined below */

struct lfq_item {
	struct cds_lfq_node_rcu node;
	struct rcu_head rcu;
	void *item;
};

struct q_lfq {
	struct db_queue base;
	struct cds_lfq_queue_rcu q;
};

static int
lfq_create(struct db_queue **qp, size_t capacity)
{
	struct q_lfq *q = calloc(1, sizeof(*q));

	if (q == NULL)
		return -ENOMEM;
	q->base.ops = &queue_urcu_lfq;
	/*
	 * liburcu starts its call_rcu thread on first use; here, from the
	 * thread that makes the queue, not from a pinned worker whose CPU it
	 * would inherit and share.
	 */
	(void)get_default_call_rcu_data();
	cds_lfq_init_rcu(&q->q, call_rcu);
	*qp = &q->base;
	return 0;
}

static void
lfq_item_free(struct rcu_head *head)
{
	struct lfq_item *e = caa_container_of(head, struct lfq_item, rcu);

	TSAN_ACQUIRE(e);
	free(e);
	return;
}

static bool
lfq_pop(struct db_queue *base, void **item)
{
	struct q_lfq *q = (struct q_lfq *)base;
	struct cds_lfq_node_rcu *n;
	struct lfq_item *e;

	rcu_read_lock();
	n = cds_lfq_dequeue_rcu(&q->q);
	rcu_read_unlock();
	if (n == NULL)
		return false;
	e = caa_container_of(n, struct lfq_item, node);
	TSAN_ACQUIRE(e);
	*item = e->item;
	TSAN_RELEASE(e);
	call_rcu(&e->rcu, lfq_item_free);
	return true;
}

/*
 * Called when no thread uses the queue any more: the last dummy is freed
 * at once by cds_lfq_destroy_rcu, the nodes and dummies already retired
 * by call_rcu's thread, which rcu_barrier waits for.
 */
static void
lfq_destroy(struct db_queue *base)
{
	struct q_lfq *q = (struct q_lfq *)base;
	void *item;

	while (lfq_pop(base, &item))
		;
	if (cds_lfq_destroy_rcu(&q->q) != 0)
		abort();
	rcu_barrier();
	free(q);
	return;
}

static bool
lfq_push(struct db_queue *base, void *item)
{
	struct q_lfq *q = (struct q_lfq *)base;
	struct lfq_item *e = malloc(sizeof(*e));

	if (e == NULL)
		return false;
	cds_lfq_node_init_rcu(&e->node);
	e->item = item;
	/* liburcu's atomics are inline assembly TSan cannot see. */
	TSAN_RELEASE(e);
	rcu_read_lock();
	cds_lfq_enqueue_rcu(&q->q, &e->node);
	rcu_read_unlock();
	return true;
}

/*
 * The public API has no emptiness test: this is the dequeue's own, a
 * dummy at the head with nothing after it, read under the read lock.
 */
static bool
lfq_empty(struct db_queue *base)
{
	struct q_lfq *q = (struct q_lfq *)base;
	struct cds_lfq_node_rcu *head;
	bool empty;

	rcu_read_lock();
	TSAN_IGNORE_BEGIN();
	head = rcu_dereference(q->q.head);
	empty = head->dummy && rcu_dereference(head->next) == NULL;
	TSAN_IGNORE_END();
	rcu_read_unlock();
	return empty;
}

const struct db_queue_ops queue_urcu_lfq = {
	DB_QUEUE_OPS_HEAD,
	.name = "urcu-lfq",
	.model = "liburcu cds_lfq_queue_rcu: Michael-Scott, nodes freed by "
	    "call_rcu (urcu-bp)",
	.real = "liburcu " DB_URCU_VERSION,
	.beside = "ckfifo",
	.flags = DB_Q_FIFO,
	.create = lfq_create,
	.destroy = lfq_destroy,
	.push = lfq_push,
	.pop = lfq_pop,
	.empty = lfq_empty,
};
