/*
 * workload.c - the resume-only coroutines (see workload.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "measure.h"
#include "workload.h"

/* Only the running thread writes a counter; others read it for a sample. */
static inline void
coro_bump(_Atomic uint64_t *c)
{

	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
	    memory_order_relaxed);
	return;
}

/* Work the optimizer cannot remove and no other thread can see. */
static void
workload_burn(uint64_t iters)
{
	uint64_t i;

	for (i = 0; i < iters; i++)
		__asm__ __volatile__("" ::: "memory");
	return;
}

/*
 * Timed on the thread's own CPU clock, best of five: a preemption during a
 * wall-clock calibration would make the loop look slow and the payload
 * come out short.
 */
uint64_t
workload_calibrate(unsigned int ns)
{
	uint64_t iters = 1u << 16;
	struct timespec t0, t1;
	double dt, best = 0;
	int i;

	for (;;) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		workload_burn(iters);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		dt = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		if (dt > 0.002)
			break;
		iters *= 2;
	}
	for (i = 0, best = dt; i < 4; i++) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		workload_burn(iters);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		dt = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		best = dt < best ? dt : best;
	}
	return (uint64_t)((double)iters / (best * 1e9) * ns + 0.5);
}

static void
coro_resume(struct disp_task *t)
{
	struct coro *c = (struct coro *)t;
	struct workload *w = c->w;

	coro_bump(&c->runs);
	if (w->payload_iters != 0)
		workload_burn(w->payload_iters);
	if (atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		atomic_fetch_add(&w->retired, 1);
		return;
	}
	/* Count before the dispatch: the moment after, c may run elsewhere. */
	coro_bump(&c->issued);
	disp_dispatch(w->d, &c->task);
	return;
}

static void
workload_spawn(struct disp_task *t)
{
	struct workload *w = (struct workload *)((char *)t -
	    offsetof(struct workload, spawner));
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		coro_bump(&w->coros[i].issued);
		disp_dispatch(w->d, &w->coros[i].task);
	}
	return;
}

static void *
workload_starter(void *arg)
{
	struct workload *w = arg;

	disp_dispatch(w->d, &w->spawner);
	return NULL;
}

int
workload_start(struct workload *w, struct dispatcher *d, unsigned int n,
    uint64_t payload_iters, const struct disp_config *cfg)
{
	unsigned int i;
	int error;

	w->d = d;
	w->n = n;
	w->payload_iters = payload_iters;
	atomic_init(&w->stop, 0);
	atomic_init(&w->retired, 0);
	w->spawner = (struct disp_task)DISP_TASK_INIT(workload_spawn);
	error = posix_memalign((void **)&w->coros, 64, n * sizeof(*w->coros));
	if (error != 0)
		return -error;
	for (i = 0; i < n; i++) {
		w->coros[i].task = (struct disp_task)DISP_TASK_INIT(coro_resume);
		atomic_init(&w->coros[i].runs, 0);
		atomic_init(&w->coros[i].issued, 0);
		w->coros[i].w = w;
	}
	error = disp_thread_spawn(cfg, &w->starter, workload_starter, w);
	if (error != 0)
		free(w->coros);
	return error;
}

uint64_t
workload_count(struct workload *w, uint64_t *per)
{
	uint64_t v, sum = 0;
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		v = atomic_load_explicit(&w->coros[i].runs, memory_order_relaxed);
		if (per != NULL)
			per[i] = v;
		sum += v;
	}
	return sum;
}

bool
workload_stop(struct workload *w, double timeout_s)
{
	struct timespec nap = { 0, 1000000 };
	double deadline = measure_now() + timeout_s;

	atomic_store(&w->stop, 1);
	while (atomic_load(&w->retired) < w->n) {
		if (measure_now() > deadline)
			return false;
		nanosleep(&nap, NULL);
	}
	pthread_join(w->starter, NULL);
	return true;
}

void
workload_check(struct workload *w, uint64_t ran, struct workload_check *c)
{
	uint64_t runs, issued;
	unsigned int i;

	c->runs = c->lost = c->doubled = 0;
	c->retired = atomic_load(&w->retired);
	for (i = 0; i < w->n; i++) {
		runs = atomic_load(&w->coros[i].runs);
		issued = atomic_load(&w->coros[i].issued);
		c->runs += runs;
		if (issued > runs)
			c->lost += issued - runs;
		else
			c->doubled += runs - issued;
	}
	/* The dispatcher ran every resumption, and the spawner once. */
	c->ok = c->lost == 0 && c->doubled == 0 && c->retired == w->n &&
	    ran == c->runs + 1;
	return;
}

void
workload_fini(struct workload *w)
{

	free(w->coros);
	w->coros = NULL;
	return;
}
