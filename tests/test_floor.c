/*
 * test_floor.c - the bare loop, the reference every design's figure is read
 * against: it runs for the CPU time it reports, from the kernel's clock,
 * and every run carries it, measured in the run's own process.
 */
#include <math.h>
#include <time.h>

#include <criterion/criterion.h>

#include "cells.h"
#include "floor.h"
#include "measure.h"

static const struct cell_window quick = { 0.05, 0.1 };

static double
thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Its slices add up to at least what it was given: a figure from a loop
 * that ran, never from a constant.
 */
Test(floor, runs_for_the_cpu_time_it_is_given)
{
	double start = thread_cpu_s(), us = floor_bare_us(0.04);
	double spent = thread_cpu_s() - start;

	cr_assert(isfinite(us) && us > 0, "bare loop: %g us a dispatch", us);
	cr_assert_geq(spent, 0.04, "ran %.4f s of CPU, was given 0.04", spent);
}

/* Every run, of every design, carries its own bare loop. */
Test(floor, every_run_carries_its_bare_loop)
{
	const char *designs[] = { "inline", "shared", "eventloop" };
	const cJSON *bare;
	struct cell c;
	cJSON *run;
	size_t i;
	char args[64];

	for (i = 0; i < sizeof(designs) / sizeof(designs[0]); i++) {
		snprintf(args, sizeof(args), "--dispatcher %s --workers 1",
		    designs[i]);
		c = cells_one(args);
		run = cell_run(&c, &quick);
		bare = cJSON_GetObjectItem(run, "bare_loop_us_per_dispatch");
		cr_assert(cJSON_IsNumber(bare) && bare->valuedouble > 0,
		    "%s: no bare loop in its run", designs[i]);
		cJSON_Delete(run);
	}
}
