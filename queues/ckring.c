/*
 * ckring.c - Concurrency Kit's ck_ring in MPMC mode: a bounded array ring.
 *
 * A ck_ring of N slots holds N-1 entries, so a queue of capacity c gets the
 * next power of two above c. Push returns false when full; what a
 * dispatcher does then is its policy, not the queue's.
 */
#include <errno.h>
#include <stdlib.h>

#include <ck_ring.h>

#include "queues.h"
#include "tsan.h"

extern const struct db_queue_ops queue_ckring;	/* defined below */

struct q_ckring {
	struct db_queue base;
	struct ck_ring ring;
	struct ck_ring_buffer *buffer;
};

static int
ckring_create(struct db_queue **qp, size_t capacity)
{
	struct q_ckring *q;
	size_t slots = queue_pow2(capacity + 1, 2);

	if (slots == 0)
		return -EINVAL;
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return -ENOMEM;
	q->buffer = calloc(slots, sizeof(*q->buffer));
	if (q->buffer == NULL) {
		free(q);
		return -ENOMEM;
	}
	q->base.ops = &queue_ckring;
	ck_ring_init(&q->ring, (unsigned int)slots);
	*qp = &q->base;
	return 0;
}

static void
ckring_destroy(struct db_queue *base)
{
	struct q_ckring *q = (struct q_ckring *)base;

	free(q->buffer);
	free(q);
	return;
}

static bool
ckring_push(struct db_queue *base, void *item)
{
	struct q_ckring *q = (struct q_ckring *)base;
	bool ok;

	TSAN_RELEASE(item);
	TSAN_IGNORE_BEGIN();
	ok = ck_ring_enqueue_mpmc(&q->ring, q->buffer, item);
	TSAN_IGNORE_END();
	return ok;
}

static bool
ckring_pop(struct db_queue *base, void **item)
{
	struct q_ckring *q = (struct q_ckring *)base;
	bool ok;

	TSAN_IGNORE_BEGIN();
	ok = ck_ring_dequeue_mpmc(&q->ring, q->buffer, item);
	TSAN_IGNORE_END();
	if (ok)
		TSAN_ACQUIRE(*item);
	return ok;
}

static bool
ckring_empty(struct db_queue *base)
{
	struct q_ckring *q = (struct q_ckring *)base;
	bool empty;

	TSAN_IGNORE_BEGIN();
	empty = ck_ring_size(&q->ring) == 0;
	TSAN_IGNORE_END();
	return empty;
}

const struct db_queue_ops queue_ckring = {
	DB_QUEUE_OPS_HEAD,
	.name = "ckring",
	.model = "ck_ring MPMC, bounded array ring",
	.real = "Concurrency Kit " DB_CK_VERSION,
	.flags = DB_Q_BOUNDED | DB_Q_FIFO | DB_Q_PUSH_IN_TURN,
	.create = ckring_create,
	.destroy = ckring_destroy,
	.push = ckring_push,
	.pop = ckring_pop,
	.empty = ckring_empty,
};
