/*
 * twolock.c - a queue of your own as a dispatchbench plugin: Michael and
 * Scott's two-lock queue (PODC 1996). A dummy node keeps the head and the
 * tail apart, so a producer and a consumer never take the same lock.
 *
 *	cc -shared -fPIC -O2 $(pkg-config --cflags dispatchbench) \
 *	    -o libtwolock.so twolock.c
 *	dispatchbench verify --queue ./libtwolock.so
 *	dispatchbench run --dispatcher shared --queue lfseg,./libtwolock.so
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include <dispatchbench/queue.h>

struct node { struct node *next; void *item; };

struct twolock {
	struct db_queue base;		/* first: the suite sees a struct db_queue */
	pthread_mutex_t head_lock, tail_lock;
	struct node *head, *tail;	/* head is the dummy */
};

extern const struct db_queue_ops dispatchbench_queue;

static int
twolock_create(struct db_queue **qp, size_t capacity)
{
	struct twolock *q = calloc(1, sizeof(*q));

	(void)capacity;			/* unbounded: it needs no hint */
	if (q == NULL || (q->head = calloc(1, sizeof(struct node))) == NULL) {
		free(q);
		return -ENOMEM;
	}
	q->base.ops = &dispatchbench_queue;
	pthread_mutex_init(&q->head_lock, NULL);
	pthread_mutex_init(&q->tail_lock, NULL);
	q->tail = q->head;
	*qp = &q->base;
	return 0;
}

static void
twolock_destroy(struct db_queue *base)
{
	struct twolock *q = (struct twolock *)base;
	struct node *n, *next;

	for (n = q->head; n != NULL; n = next) {
		next = n->next;
		free(n);
	}
	free(q);
}

static bool
twolock_push(struct db_queue *base, void *item)
{
	struct twolock *q = (struct twolock *)base;
	struct node *n = calloc(1, sizeof(*n));

	if (n == NULL)
		return false;
	n->item = item;
	pthread_mutex_lock(&q->tail_lock);
	/* A consumer reads this link without the tail lock. */
	__atomic_store_n(&q->tail->next, n, __ATOMIC_RELEASE);
	q->tail = n;
	pthread_mutex_unlock(&q->tail_lock);
	return true;
}

static bool
twolock_pop(struct db_queue *base, void **item)
{
	struct twolock *q = (struct twolock *)base;
	struct node *dummy, *first;

	pthread_mutex_lock(&q->head_lock);
	dummy = q->head;
	if ((first = __atomic_load_n(&dummy->next, __ATOMIC_ACQUIRE)) != NULL) {
		*item = first->item;
		q->head = first;	/* the first node is the new dummy */
	}
	pthread_mutex_unlock(&q->head_lock);
	if (first != NULL)
		free(dummy);
	return first != NULL;
}

static bool
twolock_empty(struct db_queue *base)
{
	struct twolock *q = (struct twolock *)base;
	bool empty;

	pthread_mutex_lock(&q->head_lock);	/* a pop frees the old dummy */
	empty = __atomic_load_n(&q->head->next, __ATOMIC_ACQUIRE) == NULL;
	pthread_mutex_unlock(&q->head_lock);
	return empty;
}

const struct db_queue_ops dispatchbench_queue = {
	DB_QUEUE_OPS_HEAD,
	.name = "twolock",
	.model = "Michael-Scott two-lock queue (an example plugin)",
	.flags = DB_Q_FIFO,
	.create = twolock_create, .destroy = twolock_destroy,
	.push = twolock_push, .pop = twolock_pop, .empty = twolock_empty,
};
