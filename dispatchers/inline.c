/*
 * inline.c - runs a task at once on the dispatching thread: no handoff at
 * all, the floor of the harness itself.
 *
 * A task that dispatches while it runs is not called recursively (a
 * coroutine that resumes itself would recurse without end): it is appended
 * to the thread's FIFO, which the outermost dispatch drains, as
 * kotlinx's Dispatchers.Unconfined does with its thread-local event loop.
 */
#include <errno.h>
#include <stdlib.h>

#include "taskfifo.h"

struct inl {
	struct dispatcher base;
	_Atomic uint64_t ran;
};

struct inl_thread {
	int running;
	struct taskfifo fifo;
};

static _Thread_local struct inl_thread inl_self;

static void
inline_dispatch(struct dispatcher *d, struct disp_task *t)
{
	struct inl *in = (struct inl *)d;
	struct inl_thread *self = &inl_self;
	uint64_t ran = 0;

	if (self->running) {
		taskfifo_push(&self->fifo, t);
		return;
	}
	self->running = 1;
	do {
		ran++;
		t->fn(t);
	} while ((t = taskfifo_pop(&self->fifo)) != NULL);
	self->running = 0;
	atomic_fetch_add_explicit(&in->ran, ran, memory_order_relaxed);
	return;
}

static int
inline_create(struct dispatcher **dp, const struct disp_config *cfg)
{
	struct inl *in = calloc(1, sizeof(*in));

	if (in == NULL)
		return -ENOMEM;
	in->base.ops = &disp_inline;
	*dp = &in->base;
	return 0;
}

static void
inline_shutdown(struct dispatcher *d, struct disp_stats *st)
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

const struct disp_ops disp_inline = {
	DB_DISP_OPS_HEAD,
	.name = "inline",
	.model = "runs the task on the caller's thread: the harness's floor",
	.flags = DISP_NO_WIDTH,
	.create = inline_create,
	.dispatch = inline_dispatch,
	.shutdown = inline_shutdown,
};
