/*
 * inline.c - runs a task at once on the dispatching thread: no handoff at
 * all, the floor of the harness itself. A task that dispatches while it
 * runs goes through the thread's trampoline (trampoline.h), not a
 * recursive call.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "trampoline.h"

extern const struct db_disp_ops disp_inline;	/* defined below */

struct inl {
	struct db_dispatcher base;
	_Atomic uint64_t ran;
};

static _Thread_local struct trampoline inl_self;

static void
inline_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct inl *in = (struct inl *)d;
	uint64_t ran = trampoline_run(&inl_self, t);

	if (ran != 0)
		atomic_fetch_add_explicit(&in->ran, ran, memory_order_relaxed);
	return;
}

static int
inline_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct inl *in = calloc(1, sizeof(*in));

	if (in == NULL)
		return -ENOMEM;
	in->base.ops = &disp_inline;
	*dp = &in->base;
	return 0;
}

static void
inline_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct inl *in = (struct inl *)d;

	if (st != NULL) {
		st->ran = atomic_load(&in->ran);
		st->spilled = 0;
		st->threads_started = 0;
		st->threads_peak = 0;
	}
	free(in);
	return;
}

const struct db_disp_ops disp_inline = {
	DB_DISP_OPS_HEAD,
	.name = "inline",
	.model = "runs the task on the caller's thread: the harness's floor",
	.flags = DB_DISP_NO_WIDTH,
	.create = inline_create,
	.dispatch = inline_dispatch,
	.shutdown = inline_shutdown,
};
