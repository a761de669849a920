/*
 * workload.h - the resume-only workload (WORKLOAD.md): C coroutines that
 * do nothing but count their resumption and dispatch themselves again.
 * Four resumptions make one op.
 *
 * A coroutine is a stackless continuation: a struct holding its task, so a
 * dispatch allocates nothing. One coroutine runs on one thread at a time;
 * its counters sit on its own cache line and are written only by the
 * thread running it.
 */
#ifndef BENCH_WORKLOAD_H
#define BENCH_WORKLOAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "dispatcher.h"

#define WORKLOAD_RESUMES_PER_OP	4

struct coro {
	struct disp_task task;
	_Atomic uint64_t runs;		/* resumptions */
	_Atomic uint64_t issued;	/* dispatches of this coroutine */
	struct workload *w;
} __attribute__((aligned(64)));

struct workload {
	struct dispatcher *d;
	unsigned int n;
	struct coro *coros;
	struct disp_task spawner;	/* launches the n coroutines */
	_Atomic int stop;
	_Atomic unsigned int retired;
	uint64_t payload_iters;		/* busy loop per resumption, 0: none */
	pthread_t starter;
};

struct workload_check {
	bool ok;
	uint64_t runs;			/* sum of resumptions */
	uint64_t lost;			/* dispatched, never run */
	uint64_t doubled;		/* run more often than dispatched */
	unsigned int retired;
};

/*
 * Iterations of the payload loop that take ns nanoseconds on this thread
 * now (timed over a few milliseconds): the positive control of an A/B.
 */
uint64_t workload_calibrate(unsigned int ns);

/*
 * Starts n coroutines on d from a new thread (cfg's thread_start applies):
 * on `inline` that thread is where every coroutine runs. Each resumption
 * burns payload_iters of workload_calibrate's loop (0: none).
 */
int workload_start(struct workload *w, struct dispatcher *d, unsigned int n,
    uint64_t payload_iters, const struct disp_config *cfg);

/* Sum of resumptions so far; each coroutine's count into per if not NULL. */
uint64_t workload_count(struct workload *w, uint64_t *per);

/*
 * Asks every coroutine to stop at its next resumption and waits up to
 * timeout_s for all of them. False if some never came back: a task was
 * lost, and the dispatcher cannot be shut down safely.
 */
bool workload_stop(struct workload *w, double timeout_s);

/* After the dispatcher's shutdown: every dispatch ran exactly once? */
void workload_check(struct workload *w, uint64_t ran, struct workload_check *c);

void workload_fini(struct workload *w);

#endif /* BENCH_WORKLOAD_H */
