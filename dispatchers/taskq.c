/*
 * taskq.c - a queue that never refuses a task (see taskq.h).
 */
#include <stdlib.h>

#include "taskq.h"

int
taskq_init(struct taskq *tq, const struct db_queue_ops *ops,
    unsigned int capacity)
{
	int error;

	tq->spill = NULL;
	atomic_init(&tq->spill_len, 0);
	atomic_init(&tq->spilled, 0);
	error = ops->create(&tq->q, capacity);
	if (error != 0 || (ops->flags & DB_Q_BOUNDED) == 0)
		return error;
	error = queue_mutex.create(&tq->spill, 0);
	if (error != 0)
		db_queue_destroy(tq->q);
	return error;
}

void
taskq_fini(struct taskq *tq)
{

	db_queue_destroy(tq->q);
	if (tq->spill != NULL)
		db_queue_destroy(tq->spill);
	return;
}

/*
 * Every design checks for a sleeper after it queues (is a worker parked?
 * how many run?), while a sleeper checks the queue after it announces
 * itself: queue, #StoreLoad, check, as Go's proc.go puts it. A push that
 * ends in a plain store (ck_ring's publish) needs the fence; one that ends
 * in a seq_cst read-modify-write (lfseg's CAS, as kotlinx's volatile CAS)
 * already is one.
 */
void
taskq_put(struct taskq *tq, struct db_task *t)
{

	if (db_queue_push(tq->q, t)) {
		if (!(tq->q->ops->flags & DB_Q_SC_PUSH))
			atomic_thread_fence(memory_order_seq_cst);
		return;
	}
	/* Full (or out of memory in an unbounded queue): spill, never drop. */
	if (tq->spill == NULL || !db_queue_push(tq->spill, t))
		abort();
	atomic_fetch_add(&tq->spill_len, 1);
	atomic_fetch_add_explicit(&tq->spilled, 1, memory_order_relaxed);
	return;
}

struct db_task *
taskq_take(struct taskq *tq)
{
	void *t;

	if (db_queue_pop(tq->q, &t))
		return t;
	if (tq->spill == NULL || atomic_load(&tq->spill_len) == 0)
		return NULL;
	if (!db_queue_pop(tq->spill, &t))
		return NULL;
	atomic_fetch_sub(&tq->spill_len, 1);
	return t;
}

bool
taskq_empty(struct taskq *tq)
{

	return db_queue_empty(tq->q) &&
	    (tq->spill == NULL || atomic_load(&tq->spill_len) == 0);
}

/* Adds what the queue counted, if it counts, to a design's stats. */
void
taskq_count(struct taskq *tq, struct db_disp_stats *st)
{
	struct db_queue_counts qc = { 0 };

	if (st == NULL || tq->q->ops->counts == NULL)
		return;
	tq->q->ops->counts(tq->q, &qc);
	st->count[DB_DISP_C_slot_waits] += qc.slot_waits;
	st->count[DB_DISP_C_freezes] += qc.freezes;
	st->count[DB_DISP_C_slot_stall_ns] += qc.stall_ns;
	st->counted |= DB_DISP_COUNT(slot_waits) | DB_DISP_COUNT(freezes) |
	    DB_DISP_COUNT(slot_stall_ns);
	return;
}
