/*
 * glib_invoke.c - N GLib main loops, one GMainContext each, fed with
 * g_main_context_invoke (GLib 2.74, glib/gmain.c): a real event-loop-local
 * dispatch, the decision of Ktor's isDispatchNeeded made by GLib.
 *
 * A task keeps a home loop from its first dispatch, as `eventloop` does:
 * the loop that dispatched it, or one chosen round-robin from outside.
 * g_main_context_invoke then decides:
 *  - on the thread that owns the home context (its loop, inside
 *    g_main_loop_run), the function is called at once. The call lands on
 *    the thread's trampoline, since the resumption that dispatched is
 *    still on the stack (kotlinx's executeUnconfined does the same);
 *  - from any other thread, GLib allocates an idle GSource (priority
 *    default), attaches it to the context under the context's mutex and,
 *    because another thread owns the context, writes its GWakeup eventfd;
 *    the loop polls, checks, dispatches the source and frees it.
 * cfg->from outside sends every resumption the second way, an idle source
 * attached even on its home thread: the allocation and the attach of an
 * invoke from another thread, without its wake-up (GLib writes the eventfd
 * only when another thread owns the context).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <glib.h>

#include "knobs.h"
#include "trampoline.h"
#include "tsan.h"

extern const struct db_disp_ops disp_glib_invoke;	/* defined below */

struct gi_loop {
	GMainContext *ctx;
	GMainLoop *loop;
	uint64_t ran, in_place, attached;
	struct glib_invoke *group;
	pthread_t tid;
} __attribute__((aligned(64)));

struct glib_invoke {
	struct db_dispatcher base;
	struct db_disp_config cfg;
	struct disp_knobs k;
	unsigned int nloops;
	_Atomic unsigned int next;		/* round-robin chooser */
	struct gi_loop *loops;
};

static _Thread_local struct gi_loop *gi_self;
static _Thread_local struct trampoline gi_tramp;
static _Thread_local int gi_invoking;	/* inside g_main_context_invoke */

static gboolean
gi_run(gpointer data)
{
	struct db_task *t = data;
	struct gi_loop *l = gi_self;

	/* GLib's futexes order the handoff where TSan cannot see it. */
	TSAN_ACQUIRE(t);
	if (gi_invoking)
		l->in_place++;
	else
		l->attached++;
	l->ran += trampoline_run(&gi_tramp, t);
	return G_SOURCE_REMOVE;
}

/* What g_main_context_invoke does on a thread that does not own ctx. */
static void
gi_attach(struct gi_loop *home, struct db_task *t)
{
	GSource *s = g_idle_source_new();

	g_source_set_priority(s, G_PRIORITY_DEFAULT);
	g_source_set_callback(s, gi_run, t, NULL);
	g_source_attach(s, home->ctx);
	g_source_unref(s);
	return;
}

static void
glib_invoke_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct glib_invoke *g = (struct glib_invoke *)d;
	struct gi_loop *home = DISP_TASK_HOME(t);

	if (home == NULL) {
		home = gi_self != NULL && gi_self->group == g ? gi_self :
		    &g->loops[atomic_fetch_add_explicit(&g->next, 1,
		    memory_order_relaxed) % g->nloops];
		DISP_TASK_HOME(t) = home;
	}
	TSAN_RELEASE(t);
	if (g->k.from == DISP_FROM_OUTSIDE) {
		gi_attach(home, t);
		return;
	}
	gi_invoking++;
	g_main_context_invoke(home->ctx, gi_run, t);
	gi_invoking--;
	return;
}

static gboolean
gi_quit(gpointer data)
{
	struct gi_loop *l = data;

	g_main_loop_quit(l->loop);
	return G_SOURCE_REMOVE;
}

static void *
gi_loop_main(void *arg)
{
	struct gi_loop *l = arg;

	gi_self = l;
	g_main_context_push_thread_default(l->ctx);
	g_main_loop_run(l->loop);
	/* What was attached before the quit ran. */
	while (g_main_context_iteration(l->ctx, FALSE))
		;
	g_main_context_pop_thread_default(l->ctx);
	gi_self = NULL;
	return NULL;
}

/*
 * Stops the first n loops and joins them all before any context goes (a
 * loop may still hand a task to another), counts them into st, frees all.
 */
static void
gi_stop(struct glib_invoke *g, unsigned int n, struct db_disp_stats *st)
{
	struct gi_loop *l;
	unsigned int i;

	for (i = 0; i < n; i++)
		g_main_context_invoke(g->loops[i].ctx, gi_quit, &g->loops[i]);
	for (i = 0; i < n; i++)
		pthread_join(g->loops[i].tid, NULL);
	for (i = 0; i < g->nloops; i++) {
		l = &g->loops[i];
		if (st != NULL) {
			st->ran += l->ran;
			st->count[DB_DISP_C_in_place] += l->in_place;
			st->count[DB_DISP_C_injected] += l->attached;
		}
		g_main_loop_unref(l->loop);
		g_main_context_unref(l->ctx);
	}
	if (st != NULL) {
		st->threads_started = n;
		st->threads_peak = n;
	}
	free(g->loops);
	free(g);
	return;
}

static int
glib_invoke_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct glib_invoke *g;
	struct gi_loop *l;
	unsigned int i;
	int error;

	if (cfg->workers == 0)
		return -EINVAL;
	if ((g = calloc(1, sizeof(*g))) == NULL)
		return -ENOMEM;
	g->base.ops = &disp_glib_invoke;
	g->cfg = *cfg;
	g->k = disp_knobs(cfg);
	g->nloops = cfg->workers;
	if (posix_memalign((void **)&g->loops, 64,
	    g->nloops * sizeof(*g->loops)) != 0) {
		free(g);
		return -ENOMEM;
	}
	for (i = 0; i < g->nloops; i++) {
		l = &g->loops[i];
		*l = (struct gi_loop){ .ctx = g_main_context_new(), .group = g };
		l->loop = g_main_loop_new(l->ctx, FALSE);
	}
	for (i = 0; i < g->nloops; i++) {
		error = disp_thread_spawn(&g->cfg, i, &g->loops[i].tid,
		    gi_loop_main, &g->loops[i]);
		if (error != 0) {
			gi_stop(g, i, NULL);
			return error;
		}
	}
	*dp = &g->base;
	return 0;
}

static void
glib_invoke_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct glib_invoke *g = (struct glib_invoke *)d;

	gi_stop(g, g->nloops, st);
	return;
}

const struct db_disp_ops disp_glib_invoke = {
	DB_DISP_OPS_HEAD,
	.name = "glib-invoke",
	.model = "GLib main loops: g_main_context_invoke runs in place on the "
	    "owner, else an idle GSource and a wake-up",
	.real = "GLib " DB_GLIB_VERSION,
	.beside = "eventloop",
	.flags = DB_DISP_LOOPS,
	.counts = DB_DISP_COUNT(injected) | DB_DISP_COUNT(in_place),
	.create = glib_invoke_create,
	.dispatch = glib_invoke_dispatch,
	.shutdown = glib_invoke_shutdown,
};
