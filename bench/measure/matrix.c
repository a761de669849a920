/*
 * matrix.c - the handoff between every pair of PUs (see matrix.h).
 *
 * The initiator, on PU from, starts each round trip and times them all;
 * the responder, on PU to, answers. Each waits by polling with a pause,
 * then yielding: two threads on one PU must let each other run, and a
 * preempted peer on a shared machine should not cost a whole time slice.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ck_pr.h>

#include "matrix.h"
#include "measure.h"

#define MATRIX_SPINS	64		/* polls before a wait yields */
#define MATRIX_LINE	64
#define MATRIX_GIVE_UP_S	2.0	/* a wait this long: the peer is gone */

struct matrix_run {
	_Alignas(MATRIX_LINE) _Atomic uint64_t turn;
	_Alignas(MATRIX_LINE) hwloc_topology_t topo;
	hwloc_const_cpuset_t responder;
	struct db_queue *there, *back;	/* NULL: the line alone */
	unsigned int rounds;
	_Atomic int failed;
};

/* One poll that found nothing; false when the wait has lasted too long. */
static bool
matrix_idle(unsigned int *spins, double *since)
{

	if (++*spins % MATRIX_SPINS != 0) {
		ck_pr_stall();
		return true;
	}
	sched_yield();
	if (*since == 0)
		*since = measure_now();
	return measure_now() - *since < MATRIX_GIVE_UP_S;
}

static bool
matrix_wait(struct matrix_run *m, uint64_t want)
{
	unsigned int spins = 0;
	double since = 0;

	while (atomic_load_explicit(&m->turn, memory_order_acquire) != want)
		if (atomic_load(&m->failed) || !matrix_idle(&spins, &since))
			return false;
	return true;
}

/* An item; false when another came (reordered) or none (lost). */
static bool
matrix_take(struct matrix_run *m, struct db_queue *q, uintptr_t want)
{
	unsigned int spins = 0;
	double since = 0;
	void *item;

	while (!db_queue_pop(q, &item))
		if (atomic_load(&m->failed) || !matrix_idle(&spins, &since))
			return false;
	return (uintptr_t)item == want;
}

/* Items are even and non-zero: a queue may use an item's low bit. */
#define MATRIX_ITEM(r)	((uintptr_t)((r) + 1) << 1)

static void *
matrix_responder(void *arg)
{
	struct matrix_run *m = arg;
	unsigned int r;

	hwloc_set_cpubind(m->topo, m->responder, HWLOC_CPUBIND_THREAD);
	for (r = 0; r < m->rounds && !atomic_load(&m->failed); r++) {
		if (m->there == NULL) {
			if (!matrix_wait(m, 2 * (uint64_t)r + 1))
				break;
			atomic_store_explicit(&m->turn, 2 * (uint64_t)r + 2,
			    memory_order_release);
			continue;
		}
		if (!matrix_take(m, m->there, MATRIX_ITEM(r)))
			break;
		while (!db_queue_push(m->back, (void *)MATRIX_ITEM(r)))
			ck_pr_stall();
	}
	if (r < m->rounds)
		atomic_store(&m->failed, 1);
	return NULL;
}

/* The initiator's side, on the calling thread: the rounds, timed. */
static double
matrix_initiate(struct matrix_run *m)
{
	double start = measure_now();
	unsigned int r;

	for (r = 0; r < m->rounds && !atomic_load(&m->failed); r++) {
		if (m->there == NULL) {
			atomic_store_explicit(&m->turn, 2 * (uint64_t)r + 1,
			    memory_order_release);
			if (!matrix_wait(m, 2 * (uint64_t)r + 2))
				break;
			continue;
		}
		while (!db_queue_push(m->there, (void *)MATRIX_ITEM(r)))
			ck_pr_stall();
		if (!matrix_take(m, m->back, MATRIX_ITEM(r)))
			break;
	}
	if (r < m->rounds)
		atomic_store(&m->failed, 1);
	return measure_now() - start;
}

/* One timing: rounds round trips between from (this thread) and to. */
static int
matrix_time(struct matrix_run *m, hwloc_const_cpuset_t from, double *ns)
{
	pthread_t t;
	double s;

	atomic_store(&m->turn, 0);
	hwloc_set_cpubind(m->topo, from, HWLOC_CPUBIND_THREAD);
	if (pthread_create(&t, NULL, matrix_responder, m) != 0)
		return -1;
	s = matrix_initiate(m);
	pthread_join(t, NULL);
	*ns = s * 1e9 / m->rounds / 2;
	return 0;
}

/* reps timings into t, after one untimed to warm the caches. */
static int
matrix_times(struct matrix_run *m, hwloc_const_cpuset_t from,
    unsigned int reps, double *t)
{
	double warm;
	unsigned int i;

	if (matrix_time(m, from, &warm) != 0)
		return -1;
	for (i = 0; i < reps; i++)
		if (matrix_time(m, from, &t[i]) != 0)
			return -1;
	return 0;
}

/* The median of reps timings. */
static int
matrix_median(struct matrix_run *m, hwloc_const_cpuset_t from,
    unsigned int reps, double *ns)
{
	double t[64];
	unsigned int i = reps < 64 ? reps : 64;

	if (matrix_times(m, from, i, t) != 0)
		return -1;
	measure_sort(t, i);
	*ns = i % 2 ? t[i / 2] : (t[i / 2 - 1] + t[i / 2]) / 2;
	return 0;
}

static void
matrix_shares(hwloc_topology_t topo, hwloc_obj_t a, hwloc_obj_t b,
    char *out, size_t len)
{
	hwloc_obj_t o, ca, cb, na;

	if (a == b) {
		snprintf(out, len, "PU");
		return;
	}
	ca = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, a);
	cb = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, b);
	if (ca != NULL && ca == cb) {
		snprintf(out, len, "core");
		return;
	}
	for (o = hwloc_get_common_ancestor_obj(topo, a, b); o != NULL;
	    o = o->parent)
		if (hwloc_obj_type_is_cache(o->type)) {
			snprintf(out, len, "L%u", o->attr->cache.depth);
			return;
		}
	na = pin_numa_of(topo, a);
	if (na != NULL && na == pin_numa_of(topo, b))
		snprintf(out, len, "NUMA");
	else if (hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, a) ==
	    hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, b))
		snprintf(out, len, "package");
	else
		snprintf(out, len, "machine");
	return;
}

static int
matrix_pair(struct matrix_run *m, const struct matrix_opts *o,
    hwloc_obj_t from, hwloc_obj_t to, struct matrix_cell *c)
{
	int error;

	c->from = (int)from->logical_index;
	c->to = (int)to->logical_index;
	matrix_shares(m->topo, from, to, c->shares, sizeof(c->shares));
	m->responder = to->cpuset;
	m->there = m->back = NULL;
	if (matrix_median(m, from->cpuset, o->reps, &c->line_ns) != 0)
		return -1;
	c->queue_ns = NAN;
	if (o->queue == NULL)
		return 0;
	if (o->queue->create(&m->there, 64) != 0)
		return -1;
	if (o->queue->create(&m->back, 64) != 0) {
		db_queue_destroy(m->there);
		return -1;
	}
	error = matrix_median(m, from->cpuset, o->reps, &c->queue_ns);
	db_queue_destroy(m->there);
	db_queue_destroy(m->back);
	return error;
}

static struct matrix_run *
matrix_run_new(hwloc_topology_t topo, unsigned int rounds)
{
	struct matrix_run *m = aligned_alloc(MATRIX_LINE, sizeof(*m));

	if (m == NULL)
		abort();
	memset(m, 0, sizeof(*m));
	m->topo = topo;
	m->rounds = rounds;
	return m;
}

int
matrix_measure(const struct pin_plan *p, const struct matrix_opts *o,
    struct matrix_cell *cells, char *err, size_t errlen)
{
	struct matrix_run *m = matrix_run_new(p->topo, o->rounds);
	hwloc_obj_t from, to;
	unsigned int i, n = p->nsets;
	hwloc_cpuset_t home = hwloc_bitmap_alloc();

	if (home == NULL)
		abort();
	hwloc_get_cpubind(p->topo, home, HWLOC_CPUBIND_THREAD);
	for (i = 0; i < n * n; i++) {
		from = hwloc_get_obj_inside_cpuset_by_type(p->topo,
		    p->sets[i / n], HWLOC_OBJ_PU, 0);
		to = hwloc_get_obj_inside_cpuset_by_type(p->topo,
		    p->sets[i % n], HWLOC_OBJ_PU, 0);
		if (matrix_pair(m, o, from, to, &cells[i]) != 0) {
			snprintf(err, errlen, "matrix: PU %u to PU %u: a thread "
			    "or a queue could not be created", i / n, i % n);
			break;
		}
		if (atomic_load(&m->failed)) {
			snprintf(err, errlen, "matrix: PU %d to PU %d: %s%s did "
			    "not give back the item pushed within %.0f s (lost "
			    "or out of order)", cells[i].from, cells[i].to,
			    o->queue != NULL ? "queue " : "the cache line",
			    o->queue != NULL ? o->queue->name : "", MATRIX_GIVE_UP_S);
			break;
		}
	}
	hwloc_set_cpubind(p->topo, home, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_free(home);
	free(m);
	return i == n * n ? (int)n : -1;
}

int
matrix_line_times(hwloc_topology_t topo, hwloc_const_cpuset_t from,
    hwloc_const_cpuset_t to, unsigned int rounds, unsigned int reps,
    double *ns)
{
	struct matrix_run *m = matrix_run_new(topo, rounds);
	unsigned int i;
	int error;

	m->responder = to;
	error = matrix_times(m, from, reps, ns) != 0 ||
	    atomic_load(&m->failed) ? -1 : 0;
	/* matrix_time's figures are one way. */
	for (i = 0; i < reps && error == 0; i++)
		ns[i] *= 2;
	free(m);
	return error;
}

cJSON *
matrix_rows(const struct matrix_cell *cells, int n)
{
	cJSON *rows = cJSON_CreateArray(), *r;
	int i;

	for (i = 0; i < n * n; i++) {
		r = cJSON_CreateObject();
		cJSON_AddNumberToObject(r, "from", cells[i].from);
		cJSON_AddNumberToObject(r, "to", cells[i].to);
		cJSON_AddStringToObject(r, "shares", cells[i].shares);
		cJSON_AddNumberToObject(r, "line_ns", cells[i].line_ns);
		if (isfinite(cells[i].queue_ns))
			cJSON_AddNumberToObject(r, "queue_ns",
			    cells[i].queue_ns);
		cJSON_AddItemToArray(rows, r);
	}
	return rows;
}
