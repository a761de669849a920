/*
 * ckfifo.c - Concurrency Kit's ck_fifo_mpmc (Michael-Scott, with
 * generation-tagged pointers) made safe to free with ck_epoch.
 *
 * Each push allocates a node and each pop retires the old stub. A thread
 * may still be reading a retired node (the tail it loaded, the head's next),
 * so a node is freed only after an epoch grace period. Every thread gets one
 * epoch record per queue on first use; it is drained and released when the
 * thread exits, and all records are freed with the queue.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

#include <ck_epoch.h>
#include <ck_fifo.h>

#include "queues.h"

extern const struct db_queue_ops queue_ckfifo;	/* defined below */

#ifdef CK_F_FIFO_MPMC

/* Retired nodes are handed to ck_epoch_poll once this many have piled up. */
#define CKFIFO_POLL_EVERY	64

struct ckfifo_node {
	struct ck_fifo_mpmc_entry entry;	/* first: 16-byte aligned */
	struct ck_epoch_entry epoch;
};

struct ckfifo_record {
	struct ck_epoch_record rec;
	struct ckfifo_record *all_next;		/* every record this queue made */
	unsigned int retired;
};

struct q_ckfifo {
	struct db_queue base;
	struct ck_fifo_mpmc fifo;
	struct ck_epoch epoch;
	pthread_key_t key;
	pthread_mutex_t records_lock;		/* only on a thread's first use */
	struct ckfifo_record *records;
};

CK_EPOCH_CONTAINER(struct ckfifo_node, epoch, ckfifo_node_of)

static void
ckfifo_node_free(struct ck_epoch_entry *e)
{

	free(ckfifo_node_of(e));
	return;
}

/* Thread exit: wait out the grace period of what it retired, then release. */
static void
ckfifo_record_release(void *arg)
{
	struct ckfifo_record *r = arg;

	ck_epoch_barrier(&r->rec);
	ck_epoch_unregister(&r->rec);
	return;
}

static struct ckfifo_record *
ckfifo_record(struct q_ckfifo *q)
{
	struct ckfifo_record *r = pthread_getspecific(q->key);

	if (r != NULL)
		return r;
	r = (struct ckfifo_record *)ck_epoch_recycle(&q->epoch, NULL);
	if (r == NULL) {
		if (posix_memalign((void **)&r, 64, sizeof(*r)) != 0)
			abort();
		ck_epoch_register(&q->epoch, &r->rec, NULL);
		pthread_mutex_lock(&q->records_lock);
		r->all_next = q->records;
		q->records = r;
		pthread_mutex_unlock(&q->records_lock);
	}
	r->retired = 0;
	pthread_setspecific(q->key, r);
	return r;
}

static int
ckfifo_create(struct db_queue **qp, size_t capacity)
{
	struct q_ckfifo *q;
	struct ckfifo_node *stub;

	q = calloc(1, sizeof(*q));
	stub = calloc(1, sizeof(*stub));
	if (q == NULL || stub == NULL)
		goto fail;
	if (pthread_key_create(&q->key, ckfifo_record_release) != 0)
		goto fail;
	q->base.ops = &queue_ckfifo;
	pthread_mutex_init(&q->records_lock, NULL);
	ck_epoch_init(&q->epoch);
	ck_fifo_mpmc_init(&q->fifo, &stub->entry);
	*qp = &q->base;
	return 0;
fail:
	free(stub);
	free(q);
	return -ENOMEM;
}

/* Called when no thread uses the queue any more. */
static void
ckfifo_destroy(struct db_queue *base)
{
	struct q_ckfifo *q = (struct q_ckfifo *)base;
	struct ck_fifo_mpmc_entry *garbage;
	struct ckfifo_record *r, *next;
	void *item;

	pthread_key_delete(q->key);
	for (r = q->records; r != NULL; r = r->all_next)
		ck_epoch_reclaim(&r->rec);
	while (ck_fifo_mpmc_dequeue(&q->fifo, &item, &garbage))
		free(garbage);
	ck_fifo_mpmc_deinit(&q->fifo, &garbage);
	free(garbage);
	for (r = q->records; r != NULL; r = next) {
		next = r->all_next;
		free(r);
	}
	pthread_mutex_destroy(&q->records_lock);
	free(q);
	return;
}

static bool
ckfifo_push(struct db_queue *base, void *item)
{
	struct q_ckfifo *q = (struct q_ckfifo *)base;
	struct ckfifo_record *r = ckfifo_record(q);
	struct ckfifo_node *n = malloc(sizeof(*n));

	if (n == NULL)
		return false;
	/* The tail we link behind may be retired by a concurrent pop. */
	ck_epoch_begin(&r->rec, NULL);
	ck_fifo_mpmc_enqueue(&q->fifo, &n->entry, item);
	ck_epoch_end(&r->rec, NULL);
	return true;
}

static bool
ckfifo_pop(struct db_queue *base, void **item)
{
	struct q_ckfifo *q = (struct q_ckfifo *)base;
	struct ckfifo_record *r = ckfifo_record(q);
	struct ck_fifo_mpmc_entry *garbage;
	bool ok;

	ck_epoch_begin(&r->rec, NULL);
	ok = ck_fifo_mpmc_dequeue(&q->fifo, item, &garbage);
	ck_epoch_end(&r->rec, NULL);
	if (!ok)
		return false;
	ck_epoch_call(&r->rec, &((struct ckfifo_node *)garbage)->epoch,
	    ckfifo_node_free);
	if (++r->retired % CKFIFO_POLL_EVERY == 0)
		ck_epoch_poll(&r->rec);
	return true;
}

static bool
ckfifo_empty(struct db_queue *base)
{
	struct q_ckfifo *q = (struct q_ckfifo *)base;
	struct ckfifo_record *r = ckfifo_record(q);
	bool empty;

	ck_epoch_begin(&r->rec, NULL);
	empty = ck_pr_load_ptr(&q->fifo.head.pointer->next.pointer) == NULL;
	ck_epoch_end(&r->rec, NULL);
	return empty;
}

const struct db_queue_ops queue_ckfifo = {
	DB_QUEUE_OPS_HEAD,
	.name = "ckfifo",
	.model = "ck_fifo_mpmc, unbounded linked list, ck_epoch reclamation",
	.real = "Concurrency Kit " DB_CK_VERSION,
	.flags = DB_Q_FIFO,
	.create = ckfifo_create,
	.destroy = ckfifo_destroy,
	.push = ckfifo_push,
	.pop = ckfifo_pop,
	.empty = ckfifo_empty,
};

#endif /* CK_F_FIFO_MPMC */
