/*
 * placement.h - where each thread of a run should be, and where it is.
 *
 * A thread is placed by its role and its index, never by the order in
 * which threads happen to start: worker (or loop) i takes the plan's PU
 * for i, the workload's starter the PU of worker 0 (on `inline` it is
 * the worker), a request's I/O loop the PU set apart for it, a split's
 * view thread i the PU of worker i. Each placed thread is recorded with
 * the binding it was given; place_check reads every one back from the
 * kernel (its affinity, and the CPU it last ran on) and names the first
 * that is not where its plan says; one that has exited (a pool's thread
 * that retired) is listed as exited. The main
 * thread, the watchdog and the libraries' own threads are not placed:
 * they run where the process may, and are listed as they are.
 */
#ifndef BENCH_PLACEMENT_H
#define BENCH_PLACEMENT_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "pin.h"

enum place_role {
	PLACE_WORKER,		/* a design's thread i */
	PLACE_STARTER,		/* the workload's starter: worker 0's PU */
	PLACE_IO,		/* a request's I/O loop: the PU set apart */
	PLACE_VIEW		/* a split's view, thread i: worker i's PU */
};

struct place_thread {
	pid_t tid;
	enum place_role role;
	unsigned int index;
	int error;		/* the bind's errno; 0: bound */
};

struct placement {
	const struct pin_plan *plan;
	pthread_mutex_t lock;
	struct place_thread *threads;
	unsigned int n, cap;
	bool full;		/* a thread could not be recorded */
};

void place_init(struct placement *pl, const struct pin_plan *plan);
void place_fini(struct placement *pl);

/* Binds the calling thread for its role and index, and records it. */
void place_self(struct placement *pl, enum place_role role,
    unsigned int index);

/*
 * Reads back every thread of the process: adds "placement" (each placed
 * thread's role, index, tid, planned and bound CPUs and last CPU; then
 * the others) to run. Returns false with a one-line reason in why when a
 * placed thread could not be bound or is not where its plan says.
 */
bool place_check(struct placement *pl, cJSON *run, char *why, size_t len);

#endif /* BENCH_PLACEMENT_H */
