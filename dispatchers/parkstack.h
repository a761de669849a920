/*
 * parkstack.h - kotlinx CoroutineScheduler's stack of parked workers
 * (CoroutineScheduler.kt, 1.8-1.10: parkedWorkersStackPush/Pop, tryUnpark,
 * Worker.tryPark): a Treiber stack of worker indices in one 64-bit word,
 * the low 21 bits the top index (0: empty) and the rest a version against
 * ABA, with each worker's workerCtl (PARKED or CLAIMED) and its parker.
 *
 * The parkstack_* namespace. A worker embeds a parkstack_node, numbered
 * from 1 as kotlinx's workers are; the stack finds a node by its index in
 * nodes[], which the owner fills before the worker can park.
 *
 * No wake-up is lost: a worker pushes itself (a CAS), then scans its
 * queues once more before it sleeps; a dispatch publishes its task, then
 * pops the stack (a CAS): one sees the other. A popped worker that has not
 * yet stored PARKED makes the claim's CAS PARKED -> CLAIMED fail, but the
 * pop marked it out of the stack before that CAS, and the worker reads the
 * mark after its store: it scans again instead of sleeping. The parker
 * keeps an unpark that comes before the park.
 */
#ifndef DISPATCHERS_PARKSTACK_H
#define DISPATCHERS_PARKSTACK_H

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parker.h"

#define PARKSTACK_INDEX_BITS	21
#define PARKSTACK_MAX		((UINT32_C(1) << PARKSTACK_INDEX_BITS) - 1)
#define PARKSTACK_VERSION_INC	(UINT64_C(1) << PARKSTACK_INDEX_BITS)
#define PARKSTACK_OUT		UINT32_MAX	/* next: not in the stack */

#define PARKSTACK_CLAIMED	0
#define PARKSTACK_PARKED	(-1)

struct parkstack_node {
	struct parker parker;
	_Atomic int ctl;		/* PARKSTACK_PARKED or _CLAIMED */
	_Atomic uint32_t next;		/* the index below, 0, or _OUT */
	uint32_t index;			/* 1..PARKSTACK_MAX */
};

struct parkstack {
	_Atomic uint64_t top;
	_Atomic(struct parkstack_node *) *nodes;	/* [index], [0] unused */
};

static inline void
parkstack_init(struct parkstack *ps, _Atomic(struct parkstack_node *) *nodes)
{

	atomic_init(&ps->top, 0);
	ps->nodes = nodes;
	return;
}

/* A worker's node, out of the stack and claimed; then listed as index. */
static inline void
parkstack_node_init(struct parkstack *ps, struct parkstack_node *n,
    uint32_t index)
{

	assert(index >= 1 && index <= PARKSTACK_MAX);
	parker_init(&n->parker);
	atomic_init(&n->ctl, PARKSTACK_CLAIMED);
	atomic_init(&n->next, PARKSTACK_OUT);
	n->index = index;
	atomic_store(&ps->nodes[index], n);
	return;
}

static inline void
parkstack_push(struct parkstack *ps, struct parkstack_node *n)
{
	uint64_t top = atomic_load(&ps->top);

	assert(atomic_load(&n->next) == PARKSTACK_OUT);
	do
		atomic_store(&n->next, (uint32_t)(top & PARKSTACK_MAX));
	while (!atomic_compare_exchange_weak(&ps->top, &top,
	    ((top + PARKSTACK_VERSION_INC) & ~(uint64_t)PARKSTACK_MAX) |
	    n->index));
	return;
}

static inline struct parkstack_node *
parkstack_pop(struct parkstack *ps)
{
	uint64_t top = atomic_load(&ps->top);
	struct parkstack_node *n;
	uint32_t next;

	for (;;) {
		if ((top & PARKSTACK_MAX) == 0)
			return NULL;
		n = atomic_load(&ps->nodes[top & PARKSTACK_MAX]);
		next = atomic_load(&n->next);
		if (next == PARKSTACK_OUT) {		/* popped under us */
			top = atomic_load(&ps->top);
			continue;
		}
		if (atomic_compare_exchange_weak(&ps->top, &top,
		    ((top + PARKSTACK_VERSION_INC) &
		    ~(uint64_t)PARKSTACK_MAX) | next)) {
			atomic_store(&n->next, PARKSTACK_OUT);
			return n;
		}
	}
}

/* tryUnpark: claim a parked worker and wake it; skip ones not yet parked. */
static inline bool
parkstack_unpark_one(struct parkstack *ps)
{
	struct parkstack_node *n;
	int expected;

	while ((n = parkstack_pop(ps)) != NULL) {
		expected = PARKSTACK_PARKED;
		if (atomic_compare_exchange_strong(&n->ctl, &expected,
		    PARKSTACK_CLAIMED)) {
			parker_unpark(&n->parker);
			return true;
		}
	}
	return false;
}

/*
 * tryPark. The first call only pushes the worker on the stack, so that it
 * scans its queues once more before it sleeps (a dispatch that came
 * between the scan and the push would otherwise find nobody to wake).
 * Then it parks until claimed, popped, or stop: each sleep is nap(arg)
 * if given, which parks on n's parker (the scheduler gives back its CPU
 * permit and parks for its keep-alive), else one untimed park there. True
 * when a dispatch claimed it.
 */
static inline bool
parkstack_park(struct parkstack *ps, struct parkstack_node *n,
    _Atomic int *stop, void (*nap)(void *), void *arg)
{

	if (atomic_load(&n->next) == PARKSTACK_OUT) {
		parkstack_push(ps, n);
		return false;
	}
	atomic_store(&n->ctl, PARKSTACK_PARKED);
	while (atomic_load(&n->next) != PARKSTACK_OUT &&
	    atomic_load(&n->ctl) == PARKSTACK_PARKED && !atomic_load(stop)) {
		if (nap != NULL)
			nap(arg);
		else
			parker_park(&n->parker, 0);
	}
	return atomic_load(&n->ctl) == PARKSTACK_CLAIMED;
}

#endif /* DISPATCHERS_PARKSTACK_H */
