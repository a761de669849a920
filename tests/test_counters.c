/*
 * test_counters.c - the kernel's counters over a window: every thread of
 * the process counted, a multiplexed event scaled and marked, names
 * resolved or refused. Where perf_event_open is not allowed (a container,
 * perf_event_paranoid), the tests that need it say so and pass on what
 * the run would record: the reason.
 */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>

#include "counters.h"

#define BURN_NS	50000000L

static long
thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* A thread that runs until it has had BURN_NS of CPU, however long that
 * takes on a busy machine. */
static void *
burn(void *arg)
{
	(void)arg;
	while (thread_cpu_ns() < BURN_NS)
		continue;
	return NULL;
}

static const struct counter *
counter_named(const struct counters *k, const char *name)
{
	unsigned int i;

	for (i = 0; i < k->n; i++)
		if (strcmp(k->ev[i].name, name) == 0)
			return &k->ev[i];
	return NULL;
}

/*
 * A thread started after the counters opened is counted, and after it has
 * exited too: the CPU time it had is in the process's task clock (the
 * same accounting, read through another door).
 */
Test(counters, a_thread_started_in_the_window_is_counted)
{
	struct counters k;
	const struct counter *clock;
	char err[256];
	pthread_t t;

	cr_assert_eq(counters_init(&k, "default", err, sizeof(err)), 0, "%s",
	    err);
	if (counters_open(&k) == 0) {
		cr_assert_str_neq(k.absent, "", "nothing opened, no reason");
		cr_log_warn("%s", k.absent);
		return;
	}
	counters_start(&k);
	cr_assert_eq(pthread_create(&t, NULL, burn, NULL), 0);
	pthread_join(t, NULL);
	counters_stop(&k);
	clock = counter_named(&k, "task_clock_ns");
	cr_assert_not_null(clock);
	cr_assert_geq(clock->value, BURN_NS, "task clock %lu ns",
	    (unsigned long)clock->value);
	cr_assert_gt(clock->enabled, 0);
	counters_close(&k);
}

/* An event that ran half its window counts double, and the run says so. */
Test(counters, a_multiplexed_event_is_scaled_and_marked)
{
	struct counters k = { .n = 2 };
	cJSON *run = cJSON_CreateObject();

	strcpy(k.ev[0].name, "cycles");
	k.ev[0].value = 1000;
	k.ev[0].enabled = 2000000000;
	k.ev[0].running = 1000000000;
	strcpy(k.ev[1].name, "instructions");
	k.ev[1].enabled = 1000;
	k.ev[1].running = 0;
	counters_json(&k, run, 10);
	cr_assert_float_eq(cJSON_GetObjectItem(run,
	    "perf_cycles_per_dispatch")->valuedouble, 200, 1e-9);
	cr_assert(cJSON_IsNull(cJSON_GetObjectItem(run,
	    "perf_instructions_per_dispatch")), "never ran: null, not 0");
	cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(run, "perf_multiplexed")));
	cr_assert_float_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(run, "perf"), "cycles"), "running_s")->valuedouble,
	    1.0, 1e-12);
	cJSON_Delete(run);
}

Test(counters, names_are_resolved_or_refused)
{
	struct counters k;
	char err[256];

	cr_assert_eq(counters_init(&k, "none", err, sizeof(err)), 0);
	cr_assert_eq(k.n, 0);
	cr_assert_eq(counters_init(&k, "default", err, sizeof(err)), 0);
	cr_assert_eq(k.n, 9, "4 software and 5 hardware events");
	cr_assert_eq(counters_init(&k, "perf::PAGE-FAULTS,cycles", err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(k.n, 10, "cycles is a default already");
	cr_assert_str_eq(k.ev[9].name, "perf__page_faults");
	cr_assert_eq(counters_init(&k, "cycles,no-such-event", err,
	    sizeof(err)), -1);
	cr_assert_str_eq(err, "--counters: no event 'no-such-event' here "
	    "(libpfm4: event not found)");
}
