/*
 * gstack.h - a goroutine's own stack and saved registers, Go 1.19's g
 * (src/runtime/runtime2.go: g.stack, g.sched, g.atomicstatus), and the
 * set of a pool's g's (allgs), found by the task each one runs.
 *
 * The gstack_* namespace. A worker runs a task on the task's g:
 * gstack_gogo switches to the g's stack, where the task's poll runs, and
 * the g comes back to the worker's own stack when the poll returns, as Go
 * switches between a goroutine and its M's g0: gogo (asm_amd64.s:399-422)
 * loads the gobuf's sp, pc and bp; mcall (asm_amd64.s:424) saves them and
 * calls onto g0's stack.
 * Here the switch is Boost.Context's fcontext: jump_fcontext pushes the
 * callee-saved registers on the stack it leaves and swaps the stack
 * pointer, without a system call, as gogo and mcall make none.
 *
 * A g is made on its task's first run (Go's newproc makes it at the go
 * statement), once per task of the pool; its stack is mapped with a guard
 * page below. The set is looked at only then, under its lock: the task's
 * words keep its g (gstack_of).
 */
#ifndef DISPATCHERS_GSTACK_H
#define DISPATCHERS_GSTACK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ck_hs.h>

#include "designs.h"

struct gstack {
	void *sched;			/* fcontext: where the g resumes */
	void *g0;			/* fcontext: the worker's, while it runs */
	uint64_t status;		/* atomicstatus, for the design's CASes */
	struct db_task *task;
	char *lo;			/* the stack, above its guard page */
	size_t size;
	void *fiber;			/* ThreadSanitizer's: the g's, */
	void *g0_fiber;			/* the worker's */
	void *fake_stack;		/* AddressSanitizer's, while switched */
	const void *g0_lo;		/* the worker's stack, for it */
	size_t g0_size;
} __attribute__((aligned(64)));

struct gstack_set {
	pthread_mutex_t lock;		/* Go's allglock */
	ck_hs_t hs;			/* g's by task */
	uintptr_t key;			/* marks a task's words as this set's */
};

int gstack_set_init(struct gstack_set *set);
/* Unmaps every g's stack: none may be running. */
void gstack_set_destroy(struct gstack_set *set);

/*
 * t's g in set, made on t's first run: NULL when out of memory. Its
 * words keep it and mark it with the set's key, so a word that another
 * design, or another pool, wrote while it held t is not taken for one.
 */
struct gstack *gstack_get(struct gstack_set *set, struct db_task *t);

static inline struct gstack *
gstack_of(struct gstack_set *set, struct db_task *t)
{
	uintptr_t g = (uintptr_t)t->word[1].ptr;

	if (g != 0 && (uintptr_t)t->word[0].u64 == (g ^ set->key))
		return (struct gstack *)g;
	return gstack_get(set, t);
}

/* Runs gp's task on gp's stack until its poll returns: gogo, then mcall. */
void gstack_gogo(struct gstack *gp);

#endif /* DISPATCHERS_GSTACK_H */
