/*
 * lfseg.c - a model of kotlinx.coroutines' LockFreeTaskQueue in its
 * multi-consumer mode: the queue under Dispatchers.IO (LimitedDispatcher's
 * queue and the scheduler's GlobalQueue).
 *
 * Followed step by step from kotlinx-coroutines-core/common/src/internal/
 * LockFreeTaskQueue.kt (LockFreeTaskQueue, LockFreeTaskQueueCore):
 *  - a core is a power-of-two array and one 64-bit state word: head in bits
 *    0..29, tail in bits 30..59, FROZEN bit 60, CLOSED bit 61;
 *  - addLast CASes the tail forward, then stores the element, so a consumer
 *    can find its slot reserved but still empty and spins on it;
 *  - removeFirstOrNull reads the head slot, then CASes the head forward;
 *  - a full core (two margin slots) is frozen and copied into a core twice
 *    its size; in-flight slots are copied as placeholders that the late
 *    producer fills in (fillPlaceholder).
 * Kotlin's atomics are volatile, so every access here is sequentially
 * consistent, as the JVM makes them.
 *
 * Consumers that wait on a reserved slot and freezes are counted, the
 * first on a line of its own in each core, and so is the CPU time of every
 * wait, either side, on a thread that is not running: the fast paths touch
 * no counter, so the model costs what kotlinx's queue costs.
 *
 * Kotlin's garbage collector frees a replaced core; here a core may still
 * be read by a thread that loaded it, so every core is kept until the queue
 * is destroyed. They double in size, so all of them together take less than
 * twice the last one.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "queues.h"

extern const struct db_queue_ops queue_lfseg;	/* defined below */

#define LFSEG_INITIAL_CAPACITY	8
#define LFSEG_CAPACITY_BITS	30
#define LFSEG_MAX_MASK		((UINT64_C(1) << LFSEG_CAPACITY_BITS) - 1)
#define LFSEG_HEAD_SHIFT	0
#define LFSEG_TAIL_SHIFT	LFSEG_CAPACITY_BITS
#define LFSEG_HEAD_MASK		(LFSEG_MAX_MASK << LFSEG_HEAD_SHIFT)
#define LFSEG_TAIL_MASK		(LFSEG_MAX_MASK << LFSEG_TAIL_SHIFT)
#define LFSEG_FROZEN		(UINT64_C(1) << 60)
#define LFSEG_CLOSED		(UINT64_C(1) << 61)
#define LFSEG_MIN_ADD_SPIN_CAPACITY 1024
/*
 * Polls after which a spin waits on a thread that is not running: one that
 * runs finishes its store within a few hundred cycles; this is several µs.
 */
#define LFSEG_STALL_POLLS	4096

/* An in-flight slot in a copy: the unmasked index, tagged with bit 0. */
#define LFSEG_PLACEHOLDER(i)	(((uintptr_t)(i) << 1) | 1)
#define LFSEG_IS_PLACEHOLDER(v)	(((v) & 1) != 0)

enum lfseg_add { LFSEG_ADD_SUCCESS, LFSEG_ADD_FROZEN, LFSEG_ADD_CLOSED };

struct lfseg_core {
	_Atomic uint64_t state;
	char pad[64 - sizeof(uint64_t)];
	_Atomic uint64_t slot_waits;
	_Atomic uint64_t stall_ns;	/* CPU time of stalled spins */
	char pad2[64 - 2 * sizeof(uint64_t)];
	_Atomic(struct lfseg_core *) next;
	uint64_t capacity;
	uint64_t mask;
	_Atomic uintptr_t array[];
};

struct q_lfseg {
	struct db_queue base;
	_Atomic(struct lfseg_core *) cur;
	struct lfseg_core *first;	/* the chain of every core, via next */
};

static inline uint64_t
lfseg_head(uint64_t state)
{

	return (state & LFSEG_HEAD_MASK) >> LFSEG_HEAD_SHIFT;
}

static inline uint64_t
lfseg_tail(uint64_t state)
{

	return (state & LFSEG_TAIL_MASK) >> LFSEG_TAIL_SHIFT;
}

static inline uint64_t
lfseg_update_head(uint64_t state, uint64_t head)
{

	return (state & ~LFSEG_HEAD_MASK) | (head << LFSEG_HEAD_SHIFT);
}

static inline uint64_t
lfseg_update_tail(uint64_t state, uint64_t tail)
{

	return (state & ~LFSEG_TAIL_MASK) | (tail << LFSEG_TAIL_SHIFT);
}

static struct lfseg_core *
lfseg_core_new(uint64_t capacity)
{
	struct lfseg_core *c;

	c = calloc(1, sizeof(*c) + capacity * sizeof(c->array[0]));
	if (c == NULL)
		abort();	/* the JVM would throw OutOfMemoryError */
	c->capacity = capacity;
	c->mask = capacity - 1;
	return c;
}

/* allocateNextCopy: head..tail into a core twice the size, FROZEN cleared. */
static struct lfseg_core *
lfseg_core_copy(struct lfseg_core *c, uint64_t state)
{
	struct lfseg_core *n = lfseg_core_new(c->capacity * 2);
	uint64_t i = lfseg_head(state), tail = lfseg_tail(state);
	uintptr_t v;

	for (; (i & c->mask) != (tail & c->mask); i++) {
		v = atomic_load(&c->array[i & c->mask]);
		atomic_store(&n->array[i & n->mask],
		    v != 0 ? v : LFSEG_PLACEHOLDER(i));
	}
	atomic_store(&n->state, state & ~LFSEG_FROZEN);
	return n;
}

/* next(): allocateOrGetNextCopy(markFrozen()). */
static struct lfseg_core *
lfseg_core_next(struct lfseg_core *c)
{
	uint64_t state = atomic_load(&c->state);
	struct lfseg_core *n, *expected = NULL;

	while ((state & LFSEG_FROZEN) == 0 &&
	    !atomic_compare_exchange_weak(&c->state, &state, state | LFSEG_FROZEN))
		;
	state |= LFSEG_FROZEN;
	n = atomic_load(&c->next);
	if (n != NULL)
		return n;
	n = lfseg_core_copy(c, state);
	if (!atomic_compare_exchange_strong(&c->next, &expected, n)) {
		free(n);
		n = expected;
	}
	return n;
}

/*
 * fillPlaceholder: the copy may have been taken between our CAS and our
 * store; put the element where the copy left our placeholder, only if it is
 * ours (the same unmasked index), never over another producer's.
 */
static struct lfseg_core *
lfseg_fill_placeholder(struct lfseg_core *c, uint64_t index, uintptr_t item)
{
	uintptr_t old = atomic_load(&c->array[index & c->mask]);

	if (old != LFSEG_PLACEHOLDER(index))
		return NULL;
	atomic_store(&c->array[index & c->mask], item);
	return c;
}

/*
 * kotlinx's spin (`return@loop`) reads the state and the slot again until
 * one of them changes. This polls both with relaxed loads until then, and
 * the caller's loop reads them again as volatiles. On x86 a relaxed load,
 * a seq_cst load and the JVM's volatile read are one and the same plain
 * load, so this is the spin the JVM runs. ThreadSanitizer is why it is
 * written so: there a seq_cst load takes a reader lock on its address and
 * a store the writer lock, so dozens of workers polling one slot kept out
 * for good the producer that owed the slot its element (a run stalled
 * with 60 of 64 pool threads polling and the producer blocked in TSan).
 *
 * A spin that outlasts LFSEG_STALL_POLLS waits on a thread the scheduler
 * took off its CPU between its CAS and its store: with more threads than
 * CPUs, every thread that reaches the slot spins until the scheduler runs
 * that one again. From that poll on, the spin's CPU time is read from the
 * thread's own clock and counted as stall_ns; a short wait reads no clock.
 */
static void
lfseg_spin(struct lfseg_core *c, uint64_t slot, uintptr_t seen, uint64_t state)
{
	struct timespec from, to;
	unsigned int polls = 0;

	while (atomic_load_explicit(&c->array[slot], memory_order_relaxed) ==
	    seen && atomic_load_explicit(&c->state, memory_order_relaxed) ==
	    state)
		if (polls < LFSEG_STALL_POLLS && ++polls == LFSEG_STALL_POLLS)
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &from);
	if (polls < LFSEG_STALL_POLLS)
		return;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &to);
	atomic_fetch_add_explicit(&c->stall_ns,
	    (uint64_t)(to.tv_sec - from.tv_sec) * 1000000000u +
	    (uint64_t)to.tv_nsec - (uint64_t)from.tv_nsec, memory_order_relaxed);
	return;
}

static enum lfseg_add
lfseg_core_add(struct lfseg_core *c, uintptr_t item)
{
	uint64_t state, head, tail, ntail;
	struct lfseg_core *cur;
	uintptr_t v;

	for (;;) {
		state = atomic_load(&c->state);
		if (state & (LFSEG_FROZEN | LFSEG_CLOSED))
			return (state & LFSEG_CLOSED) ? LFSEG_ADD_CLOSED :
			    LFSEG_ADD_FROZEN;
		head = lfseg_head(state);
		tail = lfseg_tail(state);
		/* Overfull two slots early, as addLast: (tail + 2) and mask. */
		if (((tail + 2) & c->mask) == (head & c->mask))
			return LFSEG_ADD_FROZEN;
		/*
		 * A consumer may have moved head past this slot and not yet
		 * cleared it: resize while small or over half full, else spin.
		 */
		if ((v = atomic_load(&c->array[tail & c->mask])) != 0) {
			if (c->capacity < LFSEG_MIN_ADD_SPIN_CAPACITY ||
			    ((tail - head) & LFSEG_MAX_MASK) > (c->capacity >> 1))
				return LFSEG_ADD_FROZEN;
			lfseg_spin(c, tail & c->mask, v, state);
			continue;
		}
		ntail = (tail + 1) & LFSEG_MAX_MASK;
		if (!atomic_compare_exchange_strong(&c->state, &state,
		    lfseg_update_tail(state, ntail)))
			continue;
		atomic_store(&c->array[tail & c->mask], item);
		for (cur = c; cur != NULL;) {
			if ((atomic_load(&cur->state) & LFSEG_FROZEN) == 0)
				break;
			cur = lfseg_fill_placeholder(lfseg_core_next(cur),
			    tail, item);
		}
		return LFSEG_ADD_SUCCESS;
	}
}

/* Returns the item, 0 when empty, or 1 (never an item) when frozen. */
#define LFSEG_REMOVE_FROZEN	((uintptr_t)1)

static uintptr_t
lfseg_core_remove(struct lfseg_core *c)
{
	uint64_t state, head, tail;
	uintptr_t v;

	for (;;) {
		state = atomic_load(&c->state);
		if (state & LFSEG_FROZEN)
			return LFSEG_REMOVE_FROZEN;
		head = lfseg_head(state);
		tail = lfseg_tail(state);
		if ((tail & c->mask) == (head & c->mask))
			return 0;
		v = atomic_load(&c->array[head & c->mask]);
		/* Reserved, not yet stored: a consumer spins for it. */
		if (v == 0) {
			atomic_fetch_add_explicit(&c->slot_waits, 1,
			    memory_order_relaxed);
			lfseg_spin(c, head & c->mask, 0, state);
			continue;
		}
		if (LFSEG_IS_PLACEHOLDER(v))
			return 0;
		/* Clear only after the CAS: a copier would take 0 as in-flight. */
		if (atomic_compare_exchange_strong(&c->state, &state,
		    lfseg_update_head(state, (head + 1) & LFSEG_MAX_MASK))) {
			atomic_store(&c->array[head & c->mask], 0);
			return v;
		}
	}
}

static int
lfseg_create(struct db_queue **qp, size_t capacity)
{
	struct q_lfseg *q = calloc(1, sizeof(*q));

	if (q == NULL)
		return -ENOMEM;
	q->base.ops = &queue_lfseg;
	q->first = lfseg_core_new(LFSEG_INITIAL_CAPACITY);
	atomic_init(&q->cur, q->first);
	*qp = &q->base;
	return 0;
}

static void
lfseg_destroy(struct db_queue *base)
{
	struct q_lfseg *q = (struct q_lfseg *)base;
	struct lfseg_core *c, *next;

	for (c = q->first; c != NULL; c = next) {
		next = atomic_load(&c->next);
		free(c);
	}
	free(q);
	return;
}

static bool
lfseg_push(struct db_queue *base, void *item)
{
	struct q_lfseg *q = (struct q_lfseg *)base;
	struct lfseg_core *cur;

	for (;;) {
		cur = atomic_load(&q->cur);
		switch (lfseg_core_add(cur, (uintptr_t)item)) {
		case LFSEG_ADD_SUCCESS:
			return true;
		case LFSEG_ADD_CLOSED:
			return false;
		case LFSEG_ADD_FROZEN:
			atomic_compare_exchange_strong(&q->cur, &cur,
			    lfseg_core_next(cur));
			break;
		}
	}
}

static bool
lfseg_pop(struct db_queue *base, void **item)
{
	struct q_lfseg *q = (struct q_lfseg *)base;
	struct lfseg_core *cur;
	uintptr_t v;

	for (;;) {
		cur = atomic_load(&q->cur);
		v = lfseg_core_remove(cur);
		if (v != LFSEG_REMOVE_FROZEN)
			break;
		atomic_compare_exchange_strong(&q->cur, &cur,
		    lfseg_core_next(cur));
	}
	*item = (void *)v;
	return v != 0;
}

/* LockFreeTaskQueue.size == 0, as LimitedDispatcher asks it. */
static bool
lfseg_empty(struct db_queue *base)
{
	struct q_lfseg *q = (struct q_lfseg *)base;
	uint64_t state = atomic_load(&atomic_load(&q->cur)->state);

	return ((lfseg_tail(state) - lfseg_head(state)) & LFSEG_MAX_MASK) == 0;
}

/* Every freeze left a core behind it in the chain, so the chain counts them. */
static void
lfseg_counts(struct db_queue *base, struct db_queue_counts *qc)
{
	struct q_lfseg *q = (struct q_lfseg *)base;
	struct lfseg_core *c;

	*qc = (struct db_queue_counts){ .freezes = 0 };
	for (c = q->first; c != NULL; c = atomic_load(&c->next)) {
		qc->slot_waits += atomic_load_explicit(&c->slot_waits,
		    memory_order_relaxed);
		qc->stall_ns += atomic_load_explicit(&c->stall_ns,
		    memory_order_relaxed);
		qc->freezes += atomic_load(&c->next) != NULL;
	}
	return;
}

const struct db_queue_ops queue_lfseg = {
	DB_QUEUE_OPS_HEAD,
	.name = "lfseg",
	.model = "kotlinx LockFreeTaskQueue (multi-consumer), freeze-and-copy ring",
	.flags = DB_Q_FIFO | DB_Q_SC_PUSH,
	.create = lfseg_create,
	.destroy = lfseg_destroy,
	.push = lfseg_push,
	.pop = lfseg_pop,
	.empty = lfseg_empty,
	.counts = lfseg_counts,
};
