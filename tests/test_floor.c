/*
 * test_floor.c - the bare loop, the reference every design's figure is read
 * against: it runs for the CPU time it reports, from the kernel's clock,
 * and every run carries it, measured in the run's own process. And the
 * machine's calibration probes: each timed on two PUs, the two-thread
 * ones absent with a reason on one, the thread bound as it was after.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "cells.h"
#include "floor.h"
#include "measure.h"
#include "probe.h"
#include "results.h"

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

static const char *const probe_names[] = { "bare_loop", "atomic",
    "line_round_trip", "futex_wake" };

/* A probe with its timings: n of them, in ns, min <= median <= max. */
static void
probe_timed(const cJSON *probes, const char *name)
{
	const cJSON *p = cJSON_GetObjectItem(probes, name);
	double lo = results_num(p, "min"), mid = results_num(p, "median");
	double hi = results_num(p, "max");

	cr_assert_not_null(p, "no probe %s", name);
	cr_assert_str_eq(results_str(p, "unit", "?"), "ns");
	cr_assert_eq(results_num(p, "n"), PROBE_REPS, "%s: n %g", name,
	    results_num(p, "n"));
	cr_assert(lo > 0 && lo <= mid && mid <= hi, "%s: %g [%g-%g]", name,
	    mid, lo, hi);
}

/*
 * On two PUs every probe has its timings, and the thread that took them
 * is bound as it was: the sweep's children inherit its binding.
 */
Test(probe, every_probe_is_timed_on_two_pus)
{
	cpu_set_t before, after;
	cJSON *probes;
	size_t i;

	if (measure_cpus() < 2)
		cr_skip_test("one CPU allowed");
	sched_getaffinity(0, sizeof(before), &before);
	probes = probe_measure();
	sched_getaffinity(0, sizeof(after), &after);
	for (i = 0; i < 4; i++)
		probe_timed(probes, probe_names[i]);
	cr_assert_eq(cJSON_GetArraySize(probes), 4);
	cr_assert(CPU_EQUAL(&before, &after), "the probes left the thread "
	    "bound to %d CPUs of %d", CPU_COUNT(&after), CPU_COUNT(&before));
	cJSON_Delete(probes);
}

/*
 * Every thread of this process onto set, as `taskset` binds a process:
 * the plan reads the process's binding, and a sanitizer's own thread is
 * one of its threads.
 */
static int
bind_every_thread(const cpu_set_t *set)
{
	struct dirent *e;
	DIR *d = opendir("/proc/self/task");
	int rc = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && sched_setaffinity(atoi(e->d_name),
		    sizeof(*set), set) != 0)
			rc = -1;
	closedir(d);
	return rc;
}

/*
 * In a child bound to one CPU: the one-thread probes are timed, the two
 * that need a second PU have n 0 and say why. The child's exit says
 * which failed: 0 none, 1 a one-thread probe, 2 a two-thread one.
 */
Test(probe, one_pu_leaves_the_two_thread_probes_out_and_says_why)
{
	const cJSON *p;
	cpu_set_t one;
	cJSON *probes;
	int status, i;
	pid_t pid;

	CPU_ZERO(&one);
	sched_getaffinity(0, sizeof(one), &one);
	for (i = 0; !CPU_ISSET(i, &one); i++)
		;
	CPU_ZERO(&one);
	CPU_SET(i, &one);
	if ((pid = fork()) == 0) {
		if (bind_every_thread(&one) != 0)
			_exit(3);
		probes = probe_measure();
		for (i = 0; i < 2; i++)
			if (results_num(cJSON_GetObjectItem(probes,
			    probe_names[i]), "n") != PROBE_REPS)
				_exit(1);
		for (i = 2; i < 4; i++) {
			p = cJSON_GetObjectItem(probes, probe_names[i]);
			if (results_num(p, "n") != 0 || cJSON_GetObjectItem(p,
			    "median") != NULL || strstr(results_str(p, "why",
			    ""), "one PU") == NULL)
				_exit(2);
		}
		_exit(0);
	}
	cr_assert_gt(pid, 0);
	waitpid(pid, &status, 0);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "one PU: status %d (1: a one-thread probe untimed, 2: a two-thread "
	    "one timed or without a why)", status);
}
