/*
 * verify.h - what a queue or a design must do before its numbers mean
 * anything: the checks `dispatchbench verify` runs, and the tests run on
 * every built-in through the same functions.
 *
 * Each check fills a verdict: ok, or why not, naming the item or the
 * coroutine that went wrong.
 */
#ifndef BENCH_VERIFY_H
#define BENCH_VERIFY_H

#include <stdbool.h>
#include <stdio.h>

#include "cell.h"

/*
 * Six threads on two cores. Two producers, and consumers that nap when
 * they find nothing: ck_ring's push waits for every earlier producer to
 * publish, and a producer preempted in between makes the other spin out
 * its time slice, inside its own window, so the stall feeds itself (a
 * convoy: 100 s instead of 0.3 s now and then). That is a cost for the
 * benchmark to show, not a fault for a check to wait out.
 */
#define VERIFY_ITEMS		1200000
#define VERIFY_PRODUCERS	2
#define VERIFY_CONSUMERS	4

struct verify_sizes {
	unsigned long items;		/* through the stress, in all */
	unsigned int producers;
	unsigned int consumers;		/* with producers, more than cores */
	double stall_s;			/* no item out this long: given up */
};

struct verify_result {
	bool ok;
	char what[160];			/* what was checked, with its sizes */
	char why[256];			/* when not ok */
};

/* The checks of a queue, in the order verify runs them. */
enum verify_queue_check {
	VERIFY_FIFO,			/* 1000 items through one thread */
	VERIFY_BOUNDS,			/* full and empty */
	VERIFY_STRESS,			/* producers and consumers, tagged items */
	VERIFY_NQUEUE
};

extern const char *const verify_queue_names[VERIFY_NQUEUE];

void verify_sizes_default(struct verify_sizes *sz);

/* Whether ops->create refuses a queue; err says how. */
bool verify_queue_refused(const struct db_queue_ops *ops, char *err,
    size_t errlen);

void verify_queue(const struct db_queue_ops *ops, enum verify_queue_check k,
    const struct verify_sizes *sz, struct verify_result *r);

/* The workload on one cell, named name: every resumption exactly once. */
void verify_cell(const struct cell *c, const char *name,
    const struct cell_window *win, struct verify_result *r);

/* One line for a result: "ok    what" or "FAIL  what: why". */
void verify_print(FILE *out, const struct verify_result *r);

#endif /* BENCH_VERIFY_H */
