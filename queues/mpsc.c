/*
 * mpsc.c - JCTools' MpscUnboundedArrayQueue, the queue other threads hand
 * a Netty event loop its tasks through (PlatformDependent.newMpscQueue,
 * 1024-slot chunks); the algorithm of BaseMpscLinkedArrayQueue.
 *
 * A producer claims an index with a CAS and then stores its item with a
 * release store; the index counts by 2 and its low bit says a producer is
 * linking a new ring. A ring is reused for as long as the consumer keeps
 * up; the producer that finds it full links a ring of the same size
 * through the old one's last slot, stores its item in the new ring and a
 * JUMP in its own slot of the old one. The consumer follows the JUMP and
 * frees the old ring: every earlier slot of it has been consumed, and no
 * producer writes to a ring it did not claim a slot of.
 *
 * One consumer (DB_Q_ONE_CONSUMER). The blocking window is Vyukov's: a
 * producer preempted between its claim and its store keeps the consumer
 * spinning on that one slot (JCTools' poll: "we spin until element is
 * visible"); the other producers go on. One preempted while it links a
 * ring holds every producer until it runs again; that happens only when
 * cap - 1 items wait.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include <ck_pr.h>

#include "queues.h"

extern const struct db_queue_ops queue_mpsc;	/* defined below */

typedef _Atomic(void *) mpsc_slot;

struct q_mpsc {
	struct db_queue base;
	uint64_t cap;				/* slots per ring, a power of 2 */
	alignas(64) _Atomic uint64_t pindex;	/* 2 per item; odd: linking */
	_Atomic uint64_t plimit;		/* pindex may claim below it */
	_Atomic(mpsc_slot *) pbuf;
	alignas(64) _Atomic uint64_t cindex;
	mpsc_slot *cbuf;			/* the consumer's own */
};

static const char mpsc_jump;
#define MPSC_JUMP	((void *)&mpsc_jump)

/* The slot of an index; slot cap links to the next ring. */
#define MPSC_SLOT(q, i)	(((i) >> 1) & ((q)->cap - 1))

/* A ring holds cap - 1 items: a full one keeps a free slot for the JUMP. */
#define MPSC_ROOM(q)	(2 * ((q)->cap - 1))

enum mpsc_next { MPSC_CLAIM, MPSC_RETRY, MPSC_LINK, MPSC_NOMEM };

static int
mpsc_create(struct db_queue **qp, size_t capacity)
{
	struct q_mpsc *q;
	size_t n = queue_pow2(capacity, 2);

	if (n == 0)
		return -EINVAL;
	if (posix_memalign((void **)&q, 64, sizeof(*q)) != 0)
		return -ENOMEM;
	q->base.ops = &queue_mpsc;
	q->cap = n;
	if ((q->cbuf = calloc(n + 1, sizeof(mpsc_slot))) == NULL) {
		free(q);
		return -ENOMEM;
	}
	atomic_init(&q->pindex, 0);
	atomic_init(&q->plimit, MPSC_ROOM(q));
	atomic_init(&q->pbuf, q->cbuf);
	atomic_init(&q->cindex, 0);
	*qp = &q->base;
	return 0;
}

static void
mpsc_destroy(struct db_queue *base)
{
	struct q_mpsc *q = (struct q_mpsc *)base;
	mpsc_slot *b, *next;

	for (b = q->cbuf; b != NULL; b = next) {
		next = atomic_load_explicit(&b[q->cap], memory_order_relaxed);
		free(b);
	}
	free(q);
	return;
}

/*
 * offerSlowPath: the index reached the limit. Either the consumer has made
 * room since the limit was set, or the ring is full and this producer
 * marks the index odd to link a new one.
 */
static enum mpsc_next
mpsc_full(struct q_mpsc *q, uint64_t pi, uint64_t limit, mpsc_slot **ring)
{
	uint64_t ci = atomic_load(&q->cindex);

	if (ci + MPSC_ROOM(q) > pi)
		return atomic_compare_exchange_strong(&q->plimit, &limit,
		    ci + MPSC_ROOM(q)) ? MPSC_CLAIM : MPSC_RETRY;
	/*
	 * Allocated before the index is marked, not after as in JCTools: out
	 * of memory, a push fails and leaves no producer waiting on the mark.
	 */
	if (*ring == NULL &&
	    (*ring = calloc(q->cap + 1, sizeof(**ring))) == NULL)
		return MPSC_NOMEM;
	return atomic_compare_exchange_strong(&q->pindex, &pi, pi + 1) ?
	    MPSC_LINK : MPSC_RETRY;
}

/* resize: only the producer holding the odd index gets here. */
static void
mpsc_link(struct q_mpsc *q, mpsc_slot *old, uint64_t pi, void *item,
    mpsc_slot *ring)
{

	atomic_store_explicit(&q->pbuf, ring, memory_order_relaxed);
	atomic_store_explicit(&ring[MPSC_SLOT(q, pi)], item,
	    memory_order_relaxed);
	atomic_store_explicit(&old[q->cap], ring, memory_order_relaxed);
	atomic_store(&q->plimit, pi + MPSC_ROOM(q));
	atomic_store_explicit(&q->pindex, pi + 2, memory_order_release);
	/* Last: the consumer that reads it finds the link and the item. */
	atomic_store_explicit(&old[MPSC_SLOT(q, pi)], MPSC_JUMP,
	    memory_order_release);
	return;
}

/*
 * Another producer links a ring: JCTools spins on the producer index until
 * it is even again. The poll is a relaxed load, the loop's next read the
 * acquire: on x86 the same load. Under ThreadSanitizer an acquire load
 * takes a reader lock on the index and the linker's store the writer lock,
 * which a crowd of polling producers can keep out for good (see lfseg.c).
 */
static void
mpsc_await_link(struct q_mpsc *q)
{

	while (atomic_load_explicit(&q->pindex, memory_order_relaxed) & 1)
		ck_pr_stall();
	return;
}

static bool
mpsc_push(struct db_queue *base, void *item)
{
	struct q_mpsc *q = (struct q_mpsc *)base;
	mpsc_slot *buf, *ring = NULL;
	uint64_t pi, limit;
	enum mpsc_next next;

	for (;;) {
		limit = atomic_load(&q->plimit);
		pi = atomic_load_explicit(&q->pindex, memory_order_acquire);
		if (pi & 1) {
			mpsc_await_link(q);
			continue;
		}
		/* Stale if pindex has moved on since: then the CAS fails. */
		buf = atomic_load_explicit(&q->pbuf, memory_order_relaxed);
		next = limit <= pi ? mpsc_full(q, pi, limit, &ring) :
		    MPSC_CLAIM;
		if (next == MPSC_NOMEM)
			return false;
		if (next == MPSC_LINK) {
			mpsc_link(q, buf, pi, item, ring);
			return true;
		}
		if (next == MPSC_CLAIM && atomic_compare_exchange_weak(
		    &q->pindex, &pi, pi + 2))
			break;
	}
	free(ring);
	atomic_store_explicit(&buf[MPSC_SLOT(q, pi)], item,
	    memory_order_release);
	return true;
}

static bool
mpsc_pop(struct db_queue *base, void **item)
{
	struct q_mpsc *q = (struct q_mpsc *)base;
	uint64_t ci = atomic_load_explicit(&q->cindex, memory_order_relaxed);
	mpsc_slot *slot = &q->cbuf[MPSC_SLOT(q, ci)], *ring;
	void *e;

	if ((e = atomic_load_explicit(slot, memory_order_acquire)) == NULL) {
		if (ci == atomic_load(&q->pindex))
			return false;
		while ((e = atomic_load_explicit(slot,
		    memory_order_acquire)) == NULL)
			ck_pr_stall();		/* claimed, not yet stored */
	}
	if (e == MPSC_JUMP) {
		ring = atomic_load_explicit(&q->cbuf[q->cap],
		    memory_order_relaxed);
		free(q->cbuf);
		q->cbuf = ring;
		slot = &ring[MPSC_SLOT(q, ci)];
		e = atomic_load_explicit(slot, memory_order_relaxed);
	}
	atomic_store_explicit(slot, NULL, memory_order_relaxed);
	/* Releases the slot to the producer that reads this index. */
	atomic_store_explicit(&q->cindex, ci + 2, memory_order_release);
	*item = e;
	return true;
}

/* A claimed index counts, as in JCTools' isEmpty. */
static bool
mpsc_empty(struct db_queue *base)
{
	struct q_mpsc *q = (struct q_mpsc *)base;

	return atomic_load(&q->cindex) == atomic_load(&q->pindex);
}

const struct db_queue_ops queue_mpsc = {
	DB_QUEUE_OPS_HEAD,
	.name = "mpsc",
	.model = "JCTools MpscUnboundedArrayQueue: CAS to claim, linked rings",
	.flags = DB_Q_FIFO | DB_Q_ONE_CONSUMER,
	.create = mpsc_create,
	.destroy = mpsc_destroy,
	.push = mpsc_push,
	.pop = mpsc_pop,
	.empty = mpsc_empty,
};
