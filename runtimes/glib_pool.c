/*
 * glib_pool.c - GLib's GThreadPool (GLib 2.74, glib/gthreadpool.c), made
 * exclusive with N threads: a real shared queue polled by N workers,
 * driven through g_thread_pool_new, g_thread_pool_push and
 * g_thread_pool_free only.
 *
 * The pool is one GAsyncQueue: a GMutex, a GCond and a GQueue. A push
 * locks the mutex, links a new list node and, when a worker waits,
 * signals the condition with the mutex still held; a worker of an
 * exclusive pool holds the mutex between tasks and waits with a plain
 * pop, no timeout, no spinning. GMutex and GCond are futexes of GLib's own
 * on Linux (glib/gthread-posix.c), so every wake is a FUTEX_WAKE and a
 * woken worker often meets the mutex still held.
 *
 * GLib starts an exclusive pool's threads itself, with no hook to run on
 * them. Each is bound by a task instead: N binding tasks are pushed first,
 * and each waits at a barrier until all N run, so no thread takes two and
 * every thread of the pool is bound before the first dispatch.
 * g_thread_pool_free refuses pushes as soon as it starts, so the shutdown
 * first waits until every task pushed has run (a task may still push its
 * successor); then g_thread_pool_free(wait) returns once every worker waits
 * again. It joins nothing: the threads leave after it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "designs.h"
#include "tsan.h"

extern const struct db_disp_ops disp_glib_pool;	/* defined below */

/* A pool thread's counts: its own to write, the shutdown's to read. */
struct gp_thread {
	_Atomic uint64_t pushed, ran;
} __attribute__((aligned(64)));

struct gp_binder {
	struct db_task task;
	struct glib_pool *pool;
	unsigned int index;
};

struct glib_pool {
	struct db_dispatcher base;
	struct db_disp_config cfg;
	GThreadPool *pool;
	unsigned int nthreads;
	pthread_barrier_t bound;
	struct gp_binder *binders;
	struct gp_thread *threads;
	_Atomic uint64_t pushed_outside;	/* by threads not the pool's */
};

static _Thread_local struct gp_thread *gp_self;

static inline void
gp_bump(_Atomic uint64_t *c)
{

	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) +
	    1, memory_order_relaxed);
	return;
}

static void
gp_bind(struct db_task *t)
{
	struct gp_binder *b = (struct gp_binder *)t;
	struct glib_pool *p = b->pool;

	if (p->cfg.thread_start != NULL)
		p->cfg.thread_start(p->cfg.thread_arg, b->index);
	gp_self = &p->threads[b->index];
	pthread_barrier_wait(&p->bound);
	return;
}

/* The pool's func: GLib pops the task, this runs it on the pool's thread. */
static void
gp_run(gpointer data, gpointer user_data)
{
	struct db_task *t = data;

	/* GLib's futexes order the handoff where TSan cannot see it. */
	TSAN_ACQUIRE(t);
	if (t->fn == gp_bind) {
		t->fn(t);
		/* Its barrier wait, before the shutdown destroys the barrier. */
		TSAN_RELEASE(gp_self);
		return;
	}
	t->fn(t);
	/* After the run: a task counted here pushes nothing more. */
	gp_bump(&gp_self->ran);
	TSAN_RELEASE(gp_self);
	return;
}

static void
glib_pool_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct glib_pool *p = (struct glib_pool *)d;

	if (gp_self != NULL && gp_self >= p->threads &&
	    gp_self < p->threads + p->nthreads)
		gp_bump(&gp_self->pushed);
	else
		atomic_fetch_add_explicit(&p->pushed_outside, 1,
		    memory_order_relaxed);
	TSAN_RELEASE(t);
	g_thread_pool_push(p->pool, t, NULL);
	return;
}

/*
 * Until every task pushed has run. The runs are summed before the pushes:
 * both only grow and a run follows its push, so the sums meet only when
 * nothing was in flight between the two.
 */
static uint64_t
gp_quiesce(struct glib_pool *p)
{
	struct timespec nap = { 0, 1000000 };
	uint64_t ran, pushed;
	unsigned int i;

	for (;;) {
		for (i = 0, ran = 0; i < p->nthreads; i++)
			ran += atomic_load(&p->threads[i].ran);
		pushed = atomic_load(&p->pushed_outside);
		for (i = 0; i < p->nthreads; i++)
			pushed += atomic_load(&p->threads[i].pushed);
		if (ran == pushed)
			return ran;
		nanosleep(&nap, NULL);
	}
}

static void
gp_free(struct glib_pool *p)
{

	pthread_barrier_destroy(&p->bound);
	free(p->binders);
	free(p->threads);
	free(p);
	return;
}

static int
glib_pool_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct glib_pool *p;
	GError *error = NULL;
	unsigned int i;

	if (cfg->workers == 0 || cfg->workers > G_MAXINT)
		return -EINVAL;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return -ENOMEM;
	p->base.ops = &disp_glib_pool;
	p->cfg = *cfg;
	p->nthreads = cfg->workers;
	p->binders = calloc(p->nthreads, sizeof(*p->binders));
	if (p->binders == NULL || posix_memalign((void **)&p->threads, 64,
	    p->nthreads * sizeof(*p->threads)) != 0) {
		free(p->binders);
		free(p);
		return -ENOMEM;
	}
	if (pthread_barrier_init(&p->bound, NULL, p->nthreads) != 0) {
		free(p->threads);
		free(p->binders);
		free(p);
		return -ENOMEM;
	}
	/*
	 * GLib parks up to two threads of a freed pool for 15 s, for the
	 * next; none here, so a shutdown leaves no thread of the run behind.
	 */
	g_thread_pool_set_max_unused_threads(0);
	memset(p->threads, 0, p->nthreads * sizeof(*p->threads));
	/* An exclusive pool short of threads comes back with an error set. */
	p->pool = g_thread_pool_new(gp_run, p, (gint)p->nthreads, TRUE, &error);
	if (error != NULL) {
		g_error_free(error);
		if (p->pool != NULL)
			g_thread_pool_free(p->pool, TRUE, TRUE);
		gp_free(p);
		return -EAGAIN;
	}
	for (i = 0; i < p->nthreads; i++) {
		p->binders[i] = (struct gp_binder){ .task =
		    DB_TASK_INIT(gp_bind), .pool = p, .index = i };
		TSAN_RELEASE(&p->binders[i].task);
		g_thread_pool_push(p->pool, &p->binders[i].task, NULL);
	}
	*dp = &p->base;
	return 0;
}

static void
glib_pool_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct glib_pool *p = (struct glib_pool *)d;
	uint64_t ran = gp_quiesce(p);
	unsigned int i;

	g_thread_pool_free(p->pool, FALSE, TRUE);
	for (i = 0; i < p->nthreads; i++)
		TSAN_ACQUIRE(&p->threads[i]);
	if (st != NULL) {
		st->ran = ran;
		st->threads_started = p->nthreads;
		st->threads_peak = p->nthreads;
	}
	gp_free(p);
	return;
}

const struct db_disp_ops disp_glib_pool = {
	DB_DISP_OPS_HEAD,
	.name = "glib-pool",
	.model = "GLib GThreadPool, exclusive: N threads pop one GAsyncQueue "
	    "(mutex and condition)",
	.real = "GLib " DB_GLIB_VERSION,
	.beside = "shared",
	.flags = 0,
	.create = glib_pool_create,
	.dispatch = glib_pool_dispatch,
	.shutdown = glib_pool_shutdown,
};
