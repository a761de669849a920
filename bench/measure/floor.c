/*
 * floor.c - the bare loop (see floor.h).
 */
#include <stdint.h>

#include "designs.h"
#include "floor.h"
#include "measure.h"

#define FLOOR_TASKS	64	/* the workload's default coroutines */
#define FLOOR_SLOTS	128	/* a power of two above FLOOR_TASKS */
#define FLOOR_BATCH	(1u << 18)	/* under a millisecond between clock reads */
#define FLOOR_SLICES	5		/* the median of these, after one warm-up */

struct floor_ring {
	struct db_task *slot[FLOOR_SLOTS];
	unsigned int head, tail;
};

static struct floor_ring floor_ring;

/* A task's whole run: it dispatches itself again. */
static __attribute__((noinline)) void
floor_again(struct db_task *t)
{

	floor_ring.slot[floor_ring.tail++ % FLOOR_SLOTS] = t;
	return;
}

/* One slice: the loop for about seconds of this thread's CPU. */
static double
floor_slice(struct db_task *tasks, db_task_fn *fn, double seconds)
{
	uint64_t runs = 0;
	struct db_task *t;
	double start, cpu;
	unsigned int i;

	floor_ring.head = floor_ring.tail = 0;
	for (i = 0; i < FLOOR_TASKS; i++) {
		tasks[i] = (struct db_task)DB_TASK_INIT(fn);
		floor_again(&tasks[i]);
	}
	start = measure_thread_s();
	do {
		for (i = 0; i < FLOOR_BATCH; i++) {
			t = floor_ring.slot[floor_ring.head++ % FLOOR_SLOTS];
			t->fn(t);
		}
		runs += FLOOR_BATCH;
	} while ((cpu = measure_thread_s() - start) < seconds);
	return cpu * 1e6 / (double)runs;
}

/*
 * The median of FLOOR_SLICES slices after a warm-up one: a slice that a
 * neighbour's burst or a cold cache slowed is not the floor.
 */
double
floor_bare_us(double seconds)
{
	struct db_task tasks[FLOOR_TASKS];
	db_task_fn *fn = floor_again;
	double v[FLOOR_SLICES];
	unsigned int i;

	/* Hidden from the compiler, so the call stays an indirect one. */
	__asm__ volatile("" : "+r"(fn));
	(void)floor_slice(tasks, fn, seconds / FLOOR_SLICES);
	for (i = 0; i < FLOOR_SLICES; i++)
		v[i] = floor_slice(tasks, fn, seconds / FLOOR_SLICES);
	measure_sort(v, FLOOR_SLICES);
	return v[FLOOR_SLICES / 2];
}
