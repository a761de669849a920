/*
 * matrix.h - what one handoff costs between two PUs, for every pair the
 * process may use: a cache line's round trip (two threads take turns to
 * advance one counter on a line of its own), and an item's through a
 * queue and back (two queues, one each way). One pair at a time, the rest
 * of the machine idle; each figure one way (half the round trip), the
 * median of reps timings of rounds round trips.
 *
 * A pair is grouped by what its PUs share, the closest first: the PU
 * itself (two threads on one PU hand off through the scheduler), a core
 * (SMT siblings), a cache (L2, L3), a NUMA node, a package, or nothing
 * but the machine.
 */
#ifndef BENCH_MATRIX_H
#define BENCH_MATRIX_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "pin.h"
#include "queues.h"

struct matrix_opts {
	const struct db_queue_ops *queue;	/* the handoff's; NULL: line only */
	unsigned int rounds, reps;
};

struct matrix_cell {
	int from, to;			/* logical PU indices */
	char shares[16];		/* PU, core, L2, L3, NUMA, package, machine */
	double line_ns, queue_ns;	/* one way; queue_ns NaN without one */
};

/*
 * Measures every ordered pair of the plan's PUs (a plan of one PU per
 * usable PU: compact) into cells, row-major from each PU to each; returns
 * the number of PUs, or -1 with a one-line reason (a queue that lost or
 * reordered an item, a thread that would not start).
 */
int matrix_measure(const struct pin_plan *p, const struct matrix_opts *o,
    struct matrix_cell *cells, char *err, size_t errlen);

/*
 * The cache line alone between PU from (the calling thread, left bound
 * there) and PU to: reps timings of rounds round trips each, after one
 * untimed, into ns as ns a round trip (both ways). Returns 0, or -1 when
 * a thread would not start or the peer did not answer for 2 s.
 */
int matrix_line_times(hwloc_topology_t topo, hwloc_const_cpuset_t from,
    hwloc_const_cpuset_t to, unsigned int rounds, unsigned int reps,
    double *ns);

/*
 * The n by n cells as rows of from, to, shares, line_ns and, where a
 * queue was timed, queue_ns: what the results file and analyse/ read.
 */
cJSON *matrix_rows(const struct matrix_cell *cells, int n);

#endif /* BENCH_MATRIX_H */
