/*
 * probe.c - the calibration probes (see probe.h).
 *
 * bare_loop and atomic are one thread's work, timed on its own CPU clock:
 * a preemption would add a time slice of someone else's to the wall clock,
 * and what they are to tell is the core's speed, not the host's load.
 * line_round_trip and futex_wake are timed on CLOCK_MONOTONIC: the time
 * one thread waits for the other is the figure itself, and a sleeping
 * thread's CPU clock does not count it.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "matrix.h"
#include "measure.h"
#include "parker.h"
#include "pin.h"
#include "probe.h"
#include "workload.h"

/* Each rep about a millisecond here (2 vCPUs, idle): the set ~0.05 s. */
#define PROBE_LOOP_TURNS	(1u << 21)
#define PROBE_ATOMIC_ADDS	(1u << 17)
#define PROBE_LINE_ROUNDS	2000
#define PROBE_WAKE_ROUNDS	50
#define PROBE_GIVE_UP_NS	1000000000LL	/* a peer this quiet is gone */
#define PROBE_LINE		64

struct probe_times {
	double ns[PROBE_REPS];
	unsigned int n;			/* PROBE_REPS, or 0 with why */
	char why[200];
};

/* The futex round trip's two parkers, each on a line of its own. */
struct probe_wake {
	_Alignas(PROBE_LINE) struct parker there;
	_Alignas(PROBE_LINE) struct parker back;
	_Alignas(PROBE_LINE) hwloc_topology_t topo;
	hwloc_const_cpuset_t to;
	_Atomic int failed;
};

/* Adds to a line of its own, which the optimizer may not drop. */
static __attribute__((noinline)) void
probe_adds(uint64_t n)
{
	struct {
		_Alignas(PROBE_LINE) _Atomic uint64_t v;
	} line = { 0 };
	_Atomic uint64_t *p = &line.v;
	uint64_t i;

	__asm__ volatile("" : "+r"(p));
	for (i = 0; i < n; i++)
		atomic_fetch_add_explicit(p, 1, memory_order_relaxed);
	return;
}

static void
probe_cpu(void (*fn)(uint64_t), uint64_t ops, struct probe_times *t)
{
	double start;
	unsigned int i;

	fn(ops);
	for (i = 0; i < PROBE_REPS; i++) {
		start = measure_thread_s();
		fn(ops);
		t->ns[i] = (measure_thread_s() - start) * 1e9 / (double)ops;
	}
	t->n = PROBE_REPS;
	return;
}

static void *
probe_wake_peer(void *arg)
{
	struct probe_wake *w = arg;
	unsigned int r;

	hwloc_set_cpubind(w->topo, w->to, HWLOC_CPUBIND_THREAD);
	for (r = 0; r < PROBE_WAKE_ROUNDS && !atomic_load(&w->failed); r++) {
		if (!parker_park(&w->there, PROBE_GIVE_UP_NS))
			atomic_store(&w->failed, 1);
		parker_unpark(&w->back);
	}
	return NULL;
}

/* One timing of PROBE_WAKE_ROUNDS round trips; -1 if they did not end. */
static int
probe_wake_time(struct probe_wake *w, double *ns)
{
	double start;
	unsigned int r;
	pthread_t t;

	parker_init(&w->there);
	parker_init(&w->back);
	if (pthread_create(&t, NULL, probe_wake_peer, w) != 0)
		return -1;
	start = measure_now();
	for (r = 0; r < PROBE_WAKE_ROUNDS && !atomic_load(&w->failed); r++) {
		parker_unpark(&w->there);
		if (!parker_park(&w->back, PROBE_GIVE_UP_NS))
			atomic_store(&w->failed, 1);
	}
	*ns = (measure_now() - start) * 1e9 / PROBE_WAKE_ROUNDS;
	pthread_join(t, NULL);
	return atomic_load(&w->failed) ? -1 : 0;
}

static void
probe_wake(hwloc_topology_t topo, hwloc_const_cpuset_t to,
    struct probe_times *t)
{
	struct probe_wake *w = aligned_alloc(PROBE_LINE, sizeof(*w));
	double warm;
	unsigned int i;
	int error;

	if (w == NULL)
		abort();
	memset(w, 0, sizeof(*w));
	w->topo = topo;
	w->to = to;
	error = probe_wake_time(w, &warm);
	for (i = 0; i < PROBE_REPS && error == 0; i++)
		error = probe_wake_time(w, &t->ns[i]);
	t->n = error == 0 ? PROBE_REPS : 0;
	if (error != 0)
		snprintf(t->why, sizeof(t->why), "a thread would not start, or "
		    "one was not woken within %.0f s", PROBE_GIVE_UP_NS * 1e-9);
	free(w);
	return;
}

/* The two threads' probes, this thread on PU from, its peer on PU to. */
static void
probe_pair(hwloc_topology_t topo, hwloc_const_cpuset_t from,
    hwloc_const_cpuset_t to, struct probe_times *t)
{

	if (matrix_line_times(topo, from, to, PROBE_LINE_ROUNDS, PROBE_REPS,
	    t[0].ns) == 0)
		t[0].n = PROBE_REPS;
	else
		snprintf(t[0].why, sizeof(t[0].why), "a thread would not "
		    "start, or the line did not come back within 2 s");
	probe_wake(topo, to, &t[1]);
	return;
}

/* A probe's figure, rounded to a thousandth of a unit. */
static void
probe_add(cJSON *o, const char *name, double v)
{

	cJSON_AddNumberToObject(o, name, round(v * 1000) / 1000);
	return;
}

static cJSON *
probe_json(struct probe_times *t)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "unit", "ns");
	if (t->n > 0) {
		measure_sort(t->ns, t->n);
		probe_add(o, "median", t->ns[t->n / 2]);
		probe_add(o, "min", t->ns[0]);
		probe_add(o, "max", t->ns[t->n - 1]);
	}
	cJSON_AddNumberToObject(o, "n", t->n);
	if (t->n == 0)
		cJSON_AddStringToObject(o, "why", t->why);
	return o;
}

/* The probes' place: the "core" plan, this thread bound to its first PU. */
struct probe_place {
	struct pin_plan plan;
	hwloc_cpuset_t home;		/* the binding to go back to */
	bool planned;
	char err[200];
};

static void
probe_enter(struct probe_place *p)
{

	if ((p->home = hwloc_bitmap_alloc()) == NULL)
		abort();
	p->planned = pin_plan_init(&p->plan, "core", p->err,
	    sizeof(p->err)) == 0;
	if (!p->planned)
		return;
	hwloc_get_cpubind(p->plan.topo, p->home, HWLOC_CPUBIND_THREAD);
	hwloc_set_cpubind(p->plan.topo, p->plan.sets[0], HWLOC_CPUBIND_THREAD);
	return;
}

static void
probe_leave(struct probe_place *p)
{

	if (p->planned) {
		hwloc_set_cpubind(p->plan.topo, p->home, HWLOC_CPUBIND_THREAD);
		pin_plan_fini(&p->plan);
	}
	hwloc_bitmap_free(p->home);
	return;
}

/*
 * On the plan's first PU, where there is a plan, the one-thread probes;
 * then, with a second PU, the two-thread ones.
 */
static void
probe_all(struct probe_times *t)
{
	struct probe_place p;
	const char *why;

	probe_enter(&p);
	why = p.planned ? "one PU allowed: no second PU to hand to" : p.err;
	probe_cpu(workload_burn, PROBE_LOOP_TURNS, &t[0]);
	probe_cpu(probe_adds, PROBE_ATOMIC_ADDS, &t[1]);
	if (p.planned && p.plan.nsets > 1)
		probe_pair(p.plan.topo, p.plan.sets[0], p.plan.sets[1], &t[2]);
	else {
		snprintf(t[2].why, sizeof(t[2].why), "%s", why);
		snprintf(t[3].why, sizeof(t[3].why), "%s", why);
	}
	probe_leave(&p);
	return;
}

double
probe_line(void)
{
	struct probe_place p;
	double ns[PROBE_REPS], m = NAN;

	probe_enter(&p);
	if (p.planned && p.plan.nsets > 1 && matrix_line_times(p.plan.topo,
	    p.plan.sets[0], p.plan.sets[1], PROBE_LINE_ROUNDS, PROBE_REPS,
	    ns) == 0) {
		measure_sort(ns, PROBE_REPS);
		m = ns[PROBE_REPS / 2];
	}
	probe_leave(&p);
	return m;
}

cJSON *
probe_measure(void)
{
	static const char *const names[] = { "bare_loop", "atomic",
	    "line_round_trip", "futex_wake" };
	struct probe_times t[4];
	cJSON *probes = cJSON_CreateObject();
	size_t i;

	memset(t, 0, sizeof(t));
	probe_all(t);
	for (i = 0; i < 4; i++)
		cJSON_AddItemToObject(probes, names[i], probe_json(&t[i]));
	return probes;
}
