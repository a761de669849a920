/*
 * runq.h - a worker's local run queue: Go's per-P runq (runtime2.go p.runq,
 * proc.go runqput, runqget, runqgrab), 256 slots, single producer, many
 * consumers.
 *
 * Only the owner pushes, at the tail, with a plain store of the slot and a
 * release store of the tail. The owner and thieves take at the head with a
 * CAS, so the head is the only contended word. A thief copies half of what
 * it sees and then CASes the head past it: if the CAS fails its copies are
 * dropped, which is why the slots are atomics (an owner may be refilling
 * them under a losing thief).
 *
 * The runq_* namespace; indices are free-running 32-bit counters.
 */
#ifndef DISPATCHERS_RUNQ_H
#define DISPATCHERS_RUNQ_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "designs.h"

#define RUNQ_SIZE	256
#define RUNQ_MASK	(RUNQ_SIZE - 1)

struct runq {
	_Atomic uint32_t head;		/* consumers: CAS */
	_Atomic uint32_t tail;		/* owner: release store */
	_Atomic(struct db_task *) slot[RUNQ_SIZE];
};

static inline void
runq_init(struct runq *q)
{

	atomic_init(&q->head, 0);
	atomic_init(&q->tail, 0);
	return;
}

static inline uint32_t
runq_len(struct runq *q)
{
	uint32_t h = atomic_load_explicit(&q->head, memory_order_acquire);

	return atomic_load_explicit(&q->tail, memory_order_acquire) - h;
}

static inline void
runq_slot_put(struct runq *q, uint32_t i, struct db_task *t)
{

	atomic_store_explicit(&q->slot[i & RUNQ_MASK], t, memory_order_relaxed);
	return;
}

static inline struct db_task *
runq_slot_get(struct runq *q, uint32_t i)
{

	return atomic_load_explicit(&q->slot[i & RUNQ_MASK],
	    memory_order_relaxed);
}

/* Owner only. False when full: the caller takes the overflow path. */
static inline bool
runq_push(struct runq *q, struct db_task *t)
{
	uint32_t h = atomic_load_explicit(&q->head, memory_order_acquire);
	uint32_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);

	if (tail - h >= RUNQ_SIZE)
		return false;
	runq_slot_put(q, tail, t);
	atomic_store_explicit(&q->tail, tail + 1, memory_order_release);
	return true;
}

/* Owner only: the oldest item, or NULL. */
static inline struct db_task *
runq_pop(struct runq *q)
{
	uint32_t h = atomic_load_explicit(&q->head, memory_order_acquire);
	struct db_task *t;

	for (;;) {
		if (h == atomic_load_explicit(&q->tail, memory_order_relaxed))
			return NULL;
		t = runq_slot_get(q, h);
		if (atomic_compare_exchange_weak_explicit(&q->head, &h, h + 1,
		    memory_order_release, memory_order_acquire))
			return t;
	}
}

/*
 * Owner only, on a full queue (runqputslow): takes the older half out of
 * the ring into out[] and returns how many, or 0 if a thief got there
 * first and there is room again.
 */
static inline uint32_t
runq_take_half(struct runq *q, struct db_task **out)
{
	uint32_t h = atomic_load_explicit(&q->head, memory_order_acquire);
	uint32_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
	uint32_t i, n = (tail - h) / 2;

	if (tail - h < RUNQ_SIZE)
		return 0;
	for (i = 0; i < n; i++)
		out[i] = runq_slot_get(q, h + i);
	if (!atomic_compare_exchange_strong_explicit(&q->head, &h, h + n,
	    memory_order_release, memory_order_relaxed))
		return 0;
	return n;
}

/*
 * Thief (runqgrab + runqsteal): moves half of victim's items, rounded up,
 * into the thief's own empty queue and returns one of them to run, or
 * NULL if the victim had nothing.
 */
static inline struct db_task *
runq_steal(struct runq *victim, struct runq *thief)
{
	uint32_t t0 = atomic_load_explicit(&thief->tail, memory_order_relaxed);
	uint32_t h, tail, i, n;

	for (;;) {
		h = atomic_load_explicit(&victim->head, memory_order_acquire);
		tail = atomic_load_explicit(&victim->tail, memory_order_acquire);
		n = tail - h;
		n -= n / 2;
		if (n == 0)
			return NULL;
		if (n > RUNQ_SIZE / 2)		/* read h and tail apart */
			continue;
		for (i = 0; i < n; i++)
			runq_slot_put(thief, t0 + i, runq_slot_get(victim, h + i));
		if (atomic_compare_exchange_strong_explicit(&victim->head, &h,
		    h + n, memory_order_release, memory_order_relaxed))
			break;
	}
	if (n > 1)
		atomic_store_explicit(&thief->tail, t0 + n - 1,
		    memory_order_release);
	return runq_slot_get(thief, t0 + n - 1);
}

#endif /* DISPATCHERS_RUNQ_H */
