/*
 * test_placement.c - every thread of a run where its plan puts it, read
 * back from the kernel: whatever order the threads start in, for every
 * design at the machine's width, and a thread moved off its PU fails the
 * run with its name.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>

#include "cells.h"
#include "designs.h"
#include "fields.h"
#include "measure.h"
#include "pin.h"

static const struct cell_window quick = { 0.05, 0.1 };

/*
 * A design under test, wrapped: its threads call tamper(index) before the
 * suite's hook (before: true) or after it.
 */
static struct db_disp_ops wrapped;
static const struct db_disp_ops *inner;
static void (*suite_start)(void *, unsigned int);
static void (*tamper)(unsigned int index);
static bool tamper_before;

static void
wrapped_start(void *arg, unsigned int index)
{

	if (tamper_before)
		tamper(index);
	suite_start(arg, index);
	if (!tamper_before)
		tamper(index);
}

static int
wrapped_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct db_disp_config c = *cfg;

	suite_start = c.thread_start;
	c.thread_start = wrapped_start;
	return inner->create(dp, &c);
}

static struct cell
wrap(const char *args, void (*fn)(unsigned int), bool before)
{
	struct cell c = cells_one(args);

	inner = c.disp;
	wrapped = *inner;
	wrapped.create = wrapped_create;
	tamper = fn;
	tamper_before = before;
	c.disp = &wrapped;
	return c;
}

/* Worker 0 starts 30 ms after the others: they, and the starter, go first. */
static void
late_first(unsigned int index)
{
	struct timespec late = { 0, 30000000L };

	if (index == 0)
		nanosleep(&late, NULL);
}

/* A worker moves itself to every CPU the process may use. */
static void
unbind(void)
{
	cpu_set_t all;

	/* The main thread is bound to nothing: it has them all. */
	cr_assert_eq(sched_getaffinity(getpid(), sizeof(all), &all), 0);
	cr_assert_eq(sched_setaffinity(0, sizeof(all), &all), 0);
}

static void
unbind_first(unsigned int index)
{

	if (index == 0)
		unbind();
}

static void
unbind_every(unsigned int index)
{

	(void)index;
	unbind();
}

/*
 * Every live thread of role in run (a worker, a split's view thread) on
 * the OS CPU its plan gives its index, as the kernel says (its only CPU,
 * and the one it last ran on); returns how many distinct CPUs they hold.
 */
static int
role_on_plan(const cJSON *run, const struct pin_plan *plan, const char *role)
{
	const cJSON *t, *arr = cJSON_GetObjectItem(run, "placement");
	struct pin_where w;
	cpu_set_t held;
	char want[16];
	int i;

	cr_assert(cJSON_IsArray(arr), "no placement");
	CPU_ZERO(&held);
	cJSON_ArrayForEach(t, arr) {
		if (strcmp(field_text(t, "role"), role) != 0 ||
		    cJSON_IsTrue(cJSON_GetObjectItem(t, "exited")))
			continue;
		i = cJSON_GetObjectItem(t, "index")->valueint;
		cr_assert_eq(pin_plan_where(plan, (unsigned int)i, &w), 0);
		snprintf(want, sizeof(want), "%d", w.os);
		cr_assert_str_eq(field_text(t, "cpus"), want, "%s %d on CPU %s, "
		    "its plan's PU is CPU %s", role, i, field_text(t, "cpus"),
		    want);
		cr_assert_eq(cJSON_GetObjectItem(t, "last_cpu")->valueint, w.os);
		CPU_SET(w.os, &held);
	}
	return CPU_COUNT(&held);
}

static struct pin_plan
plan_of(const struct cell *c)
{
	struct pin_plan p;
	char err[256];

	cr_assert_eq(pin_plan_init(&p, c->pin, err, sizeof(err)), 0, "%s", err);
	return p;
}

static void
assert_ok(const cJSON *run, const char *what)
{

	cr_assert_str_eq(field_text(run, "status"), "ok", "%s: %s", what,
	    field_text(run, "error"));
}

/*
 * The planted defect of order-based placement: worker 0 starts last, so
 * a slot handed out as threads start goes to another worker or to the
 * starter first, and two workers share a PU. By index, each is on its own.
 */
Test(placement, a_worker_that_starts_late_still_lands_on_its_pu)
{
	unsigned int pus = measure_cpus(), rep;
	char args[96];
	struct pin_plan plan;
	struct cell c;
	cJSON *run;

	snprintf(args, sizeof(args), "--dispatcher shared --workers %u "
	    "--coroutines 16", pus);
	for (rep = 0; rep < 5; rep++) {
		c = wrap(args, late_first, true);
		plan = plan_of(&c);
		run = cell_run(&c, &quick);
		assert_ok(run, "shared, worker 0 late");
		cr_assert_eq(role_on_plan(run, &plan, "worker"), (int)pus,
		    "%u workers on fewer than %u CPUs", pus, pus);
		cJSON_Delete(run);
		pin_plan_fini(&plan);
	}
}

/* Every design, as wide as the machine: each thread where its plan says. */
Test(placement, every_design_at_the_machines_width_is_on_its_plan)
{
	unsigned int pus = measure_cpus();
	const struct db_disp_ops *d;
	struct pin_plan plan;
	char args[128];
	struct cell c;
	cJSON *run;
	size_t i;

	for (i = 0; i < disp_local_count() && (d = disp_at(i)) != NULL;
	    i++) {
		snprintf(args, sizeof(args), "--dispatcher %s --workers %u "
		    "--coroutines 16", d->name, d->flags & DB_DISP_NO_WIDTH ? 1 :
		    pus);
		c = cells_one(args);
		plan = plan_of(&c);
		run = cell_run(&c, &quick);
		assert_ok(run, d->name);
		cr_assert_geq(role_on_plan(run, &plan, "worker"), d->flags &
		    DB_DISP_NO_WIDTH ? 0 : 1, "%s: no worker placed", d->name);
		cJSON_Delete(run);
		pin_plan_fini(&plan);
	}
}

/* A thread that leaves its PU fails the run, which names it. */
Test(placement, a_thread_off_its_plan_fails_the_run)
{
	struct cell c;
	cJSON *run;

	if (measure_cpus() < 2) {
		cr_log_info("one CPU: no thread can be off its plan");
		return;
	}
	c = wrap("--dispatcher stealing --workers 2 --coroutines 16",
	    unbind_first, false);
	run = cell_run(&c, &quick);
	cr_assert_str_eq(field_text(run, "status"), "failed");
	cr_assert(strstr(field_text(run, "error"), "worker 0 (thread ") !=
	    NULL && strstr(field_text(run, "error"), "its plan says") != NULL,
	    "error: %s", field_text(run, "error"));
	cJSON_Delete(run);
}

/*
 * Every worker off its plan: the first names the run's error, and each
 * is listed as the kernel has it, beside its plan, the later ones too.
 */
Test(placement, every_thread_off_its_plan_is_listed)
{
	const cJSON *t, *arr;
	struct pin_plan plan;
	struct pin_where w;
	const char *all = NULL;
	char want[16];
	struct cell c;
	cJSON *run;
	int seen = 0;

	if (measure_cpus() < 2) {
		cr_log_info("one CPU: no thread can be off its plan");
		return;
	}
	c = wrap("--dispatcher stealing --workers 2 --coroutines 16",
	    unbind_every, false);
	plan = plan_of(&c);
	run = cell_run(&c, &quick);
	cr_assert_str_eq(field_text(run, "status"), "failed");
	cr_assert(strncmp(field_text(run, "error"), "worker 0 (thread ", 17) ==
	    0, "error: %s", field_text(run, "error"));
	arr = cJSON_GetObjectItem(run, "placement");
	/* The main thread is bound to nothing: the CPUs the workers took. */
	cJSON_ArrayForEach(t, arr)
		if (strcmp(field_text(t, "role"), "main") == 0)
			all = field_text(t, "cpus");
	cr_assert_not_null(all, "the main thread is not listed");
	cJSON_ArrayForEach(t, arr) {
		if (strcmp(field_text(t, "role"), "worker") != 0)
			continue;
		cr_assert_eq(field_number(t, "index"), seen, "by index");
		cr_assert_eq(pin_plan_where(&plan, (unsigned int)seen, &w), 0);
		snprintf(want, sizeof(want), "%d", w.os);
		cr_assert_str_eq(field_text(t, "plan"), want);
		cr_assert_str_eq(field_text(t, "cpus"), all, "worker %d", seen);
		seen++;
	}
	cr_assert_eq(seen, 2, "%d workers listed of 2", seen);
	cJSON_Delete(run);
	pin_plan_fini(&plan);
}

/*
 * A split's view thread i shares worker i's PU, as Dispatchers.IO shares
 * Default's CPUs: every one where the plan puts that index.
 */
Test(placement, a_splits_view_shares_the_workers_pus)
{
	unsigned int pus = measure_cpus();
	struct pin_plan plan;
	char args[128];
	struct cell c;
	cJSON *run;

	snprintf(args, sizeof(args), "--dispatcher shared --workers %u "
	    "--coroutines 16 --workload sleep:1:0.5 --split 4", pus);
	c = cells_one(args);
	plan = plan_of(&c);
	run = cell_run(&c, &quick);
	assert_ok(run, "shared, split 4");
	cr_assert_geq(role_on_plan(run, &plan, "view"), pus < 4 ? (int)pus : 4,
	    "the view's threads on fewer CPUs than the plan gives them");
	cJSON_Delete(run);
	pin_plan_fini(&plan);
}

/*
 * A timed run probes the cache line between the machine's first two PUs
 * before and after it, where there are two, and leaves the calling
 * thread bound as it found it: the run's design binds its own threads.
 */
Test(placement, a_run_says_how_far_apart_the_cpus_were_at_each_end)
{
	cpu_set_t mine, after;
	struct cell c;
	cJSON *run;

	CPU_ZERO(&mine);
	cr_assert_eq(sched_getaffinity(0, sizeof(mine), &mine), 0);
	c = cells_one("--dispatcher shared --workers 2 --coroutines 16");
	run = cell_run(&c, &quick);
	assert_ok(run, "shared");
	CPU_ZERO(&after);
	cr_assert_eq(sched_getaffinity(0, sizeof(after), &after), 0);
	cr_assert(CPU_EQUAL(&mine, &after), "the probe left this thread "
	    "bound elsewhere");
	if (measure_cpus() < 2) {
		cr_assert_eq(field_number_or(run, "line_round_trip_ns_before",
		    -1), -1, "one CPU: no line to probe");
		cJSON_Delete(run);
		return;
	}
	cr_assert_gt(field_number(run, "line_round_trip_ns_before"), 0);
	cr_assert_gt(field_number(run, "line_round_trip_ns_after"), 0);
	cJSON_Delete(run);
}
