/*
 * trampoline.h - runs a task at once on the calling thread, but never
 * inside another: a task dispatched while one runs on this thread's stack
 * waits in the thread's FIFO and runs when the outermost returns. A
 * coroutine that resumes itself would otherwise recurse without end. This
 * is kotlinx's executeUnconfined (the thread-local event loop of
 * Dispatchers.Unconfined), under `inline` and under every runtime that
 * calls a function in place (g_main_context_invoke on its owner thread,
 * an undeferred OpenMP task).
 */
#ifndef DISPATCHERS_TRAMPOLINE_H
#define DISPATCHERS_TRAMPOLINE_H

#include "taskfifo.h"

struct trampoline {
	int running;
	struct taskfifo fifo;
};

/* Runs t and what it queues; 0 if t only joined a running trampoline. */
static inline uint64_t
trampoline_run(struct trampoline *tr, struct db_task *t)
{
	uint64_t ran = 0;

	/* Every dispatch but a thread's outermost one: kept on the straight line. */
	if (__builtin_expect(tr->running, 1)) {
		taskfifo_push(&tr->fifo, t);
		return 0;
	}
	tr->running = 1;
	do {
		ran++;
		t->fn(t);
	} while ((t = taskfifo_pop(&tr->fifo)) != NULL);
	tr->running = 0;
	return ran;
}

#endif /* DISPATCHERS_TRAMPOLINE_H */
