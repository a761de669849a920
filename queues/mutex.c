/*
 * mutex.c - a pthread mutex around a growable array ring: the boring,
 * unbounded baseline, in the place of Java's LinkedBlockingQueue.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "queues.h"

extern const struct db_queue_ops queue_mutex;	/* defined below */

struct q_mutex {
	struct db_queue base;
	pthread_mutex_t lock;
	void **slots;
	size_t mask;		/* capacity - 1, capacity a power of two */
	size_t head;		/* next to pop */
	size_t tail;		/* next to push */
};

static int
mutex_create(struct db_queue **qp, size_t capacity)
{
	struct q_mutex *q;
	size_t n = queue_pow2(capacity, 16);

	if (n == 0)
		return -EINVAL;
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return -ENOMEM;
	q->slots = malloc(n * sizeof(*q->slots));
	if (q->slots == NULL) {
		free(q);
		return -ENOMEM;
	}
	q->base.ops = &queue_mutex;
	q->mask = n - 1;
	pthread_mutex_init(&q->lock, NULL);
	*qp = &q->base;
	return 0;
}

static void
mutex_destroy(struct db_queue *base)
{
	struct q_mutex *q = (struct q_mutex *)base;

	pthread_mutex_destroy(&q->lock);
	free(q->slots);
	free(q);
	return;
}

/* Doubles the ring, unwrapping it so head lands at 0. Called locked. */
static bool
mutex_grow(struct q_mutex *q)
{
	size_t n = q->mask + 1, i;
	void **slots = malloc(2 * n * sizeof(*slots));

	if (slots == NULL)
		return false;
	for (i = 0; i < n; i++)
		slots[i] = q->slots[(q->head + i) & q->mask];
	free(q->slots);
	q->slots = slots;
	q->head = 0;
	q->tail = n;
	q->mask = 2 * n - 1;
	return true;
}

static bool
mutex_push(struct db_queue *base, void *item)
{
	struct q_mutex *q = (struct q_mutex *)base;
	bool ok = true;

	pthread_mutex_lock(&q->lock);
	if (q->tail - q->head > q->mask)
		ok = mutex_grow(q);
	if (ok)
		q->slots[q->tail++ & q->mask] = item;
	pthread_mutex_unlock(&q->lock);
	return ok;
}

static bool
mutex_pop(struct db_queue *base, void **item)
{
	struct q_mutex *q = (struct q_mutex *)base;
	bool ok;

	pthread_mutex_lock(&q->lock);
	ok = q->head != q->tail;
	if (ok)
		*item = q->slots[q->head++ & q->mask];
	pthread_mutex_unlock(&q->lock);
	return ok;
}

static bool
mutex_empty(struct db_queue *base)
{
	struct q_mutex *q = (struct q_mutex *)base;
	bool empty;

	pthread_mutex_lock(&q->lock);
	empty = q->head == q->tail;
	pthread_mutex_unlock(&q->lock);
	return empty;
}

const struct db_queue_ops queue_mutex = {
	DB_QUEUE_OPS_HEAD,
	.name = "mutex",
	.model = "pthread mutex around a growable ring (LinkedBlockingQueue-like)",
	.flags = DB_Q_FIFO,
	.create = mutex_create,
	.destroy = mutex_destroy,
	.push = mutex_push,
	.pop = mutex_pop,
	.empty = mutex_empty,
};
