/*
 * taskq.h - the queue a design polls: any queue of queues/, plus the policy
 * for a bounded one that is full.
 *
 * A dispatch never loses a task and never blocks: when a bounded queue is
 * full the task spills to an unbounded mutex queue, and pollers take from
 * the spill once the main queue looks empty. Every spill is counted and
 * reported, so a run whose queue was too small says so. Order is FIFO as
 * long as nothing spills; spilled tasks run after the queue drains.
 */
#ifndef DISPATCHERS_TASKQ_H
#define DISPATCHERS_TASKQ_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "designs.h"

struct taskq {
	struct db_queue *q;
	struct db_queue *spill;		/* NULL for an unbounded queue */
	_Atomic long spill_len;
	_Atomic uint64_t spilled;
};

int taskq_init(struct taskq *tq, const struct db_queue_ops *ops,
    unsigned int capacity);
void taskq_fini(struct taskq *tq);
void taskq_put(struct taskq *tq, struct db_task *t);
struct db_task *taskq_take(struct taskq *tq);
bool taskq_empty(struct taskq *tq);
void taskq_count(struct taskq *tq, struct db_disp_stats *st);

static inline uint64_t
taskq_spilled(struct taskq *tq)
{

	return atomic_load_explicit(&tq->spilled, memory_order_relaxed);
}

#endif /* DISPATCHERS_TASKQ_H */
