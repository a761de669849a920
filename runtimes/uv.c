/*
 * uv.c - N libuv loops, one per thread (libuv 1.44): Node.js's handoff,
 * driven through libuv's public API.
 *
 * A task keeps a home loop from its first dispatch, as `eventloop` does.
 *  - On its home loop's own thread it is an immediate, as Node runs
 *    setImmediate (src/env.cc, Environment::CheckImmediate): a local FIFO
 *    drained by a uv_check_t after each poll, and a uv_idle_t, started
 *    while immediates wait, only so the poll does not block (an active
 *    idle handle makes uv__backend_timeout 0). What an immediate
 *    dispatches runs in the next iteration, as in Node.
 *  - From any other thread it goes as Node's MessagePort sends a message
 *    (src/node_messaging.cc): onto a list under a uv_mutex_t (a
 *    pthread mutex), then uv_async_send. libuv 1.44's uv_async_send
 *    (src/unix/async.c) claims the handle's pending flag with a cmpxchg and
 *    only the claimant writes the loop's eventfd, so sends to a busy loop
 *    coalesce into one callback; the loop reads the eventfd, and its
 *    uv__async_spin waits out a sender caught between its write and its
 *    second cmpxchg (997 pauses, then sched_yield).
 * cfg->from outside sends every resumption the second way.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "knobs.h"
#include "taskfifo.h"

extern const struct db_disp_ops disp_uv;	/* defined below */

struct uvd_home {
	uv_loop_t loop;
	uv_async_t async;		/* from other threads */
	uv_check_t check;		/* runs the immediates */
	uv_idle_t idle;			/* keeps the poll from blocking */
	uv_mutex_t lock;
	struct taskfifo inbox;		/* under lock */
	int stop;			/* under lock */
	int stopping;			/* owner only: the stop is seen */
	struct taskfifo immediates;	/* owner only */
	uint64_t ran, injected;
	struct uvd *group;
	pthread_t tid;
} __attribute__((aligned(64)));

struct uvd {
	struct db_dispatcher base;
	struct db_disp_config cfg;
	struct disp_knobs k;
	unsigned int nloops;
	_Atomic unsigned int next;		/* round-robin chooser */
	struct uvd_home *homes;
};

static _Thread_local struct uvd_home *uvd_self;

static uint64_t
uvd_run_fifo(struct uvd_home *h, struct taskfifo *f)
{
	struct db_task *t;
	uint64_t ran = 0;

	while ((t = taskfifo_pop(f)) != NULL) {
		ran++;
		t->fn(t);
	}
	h->ran += ran;
	return ran;
}

/*
 * Once the stop is seen and the immediates have run, the loop closes its
 * handles and uv_run ends. The stop is sent under the lock and seen
 * under it, so nothing sends to the async handle once it closes.
 */
static void
uvd_maybe_close(struct uvd_home *h)
{

	if (!h->stopping || h->immediates.head != NULL ||
	    uv_is_closing((uv_handle_t *)&h->async))
		return;
	uv_close((uv_handle_t *)&h->async, NULL);
	uv_close((uv_handle_t *)&h->check, NULL);
	uv_close((uv_handle_t *)&h->idle, NULL);
	return;
}

static void
uvd_on_async(uv_async_t *a)
{
	struct uvd_home *h = a->data;
	struct taskfifo batch;

	uv_mutex_lock(&h->lock);
	batch = h->inbox;
	h->inbox.head = h->inbox.tail = NULL;
	h->stopping = h->stop;
	uv_mutex_unlock(&h->lock);
	h->injected += uvd_run_fifo(h, &batch);
	uvd_maybe_close(h);
	return;
}

static void
uvd_on_idle(uv_idle_t *i)
{

	return;
}

/* The immediates queued before this pass; later ones wait for the next. */
static void
uvd_on_check(uv_check_t *c)
{
	struct uvd_home *h = c->data;
	struct taskfifo now = h->immediates;

	h->immediates.head = h->immediates.tail = NULL;
	(void)uvd_run_fifo(h, &now);
	if (h->immediates.head == NULL)
		uv_idle_stop(&h->idle);
	uvd_maybe_close(h);
	return;
}

static void
uvd_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct uvd *u = (struct uvd *)d;
	struct uvd_home *home = DISP_TASK_HOME(t);

	if (home == NULL) {
		home = uvd_self != NULL && uvd_self->group == u ? uvd_self :
		    &u->homes[atomic_fetch_add_explicit(&u->next, 1,
		    memory_order_relaxed) % u->nloops];
		DISP_TASK_HOME(t) = home;
	}
	if (home == uvd_self && u->k.from == DISP_FROM_HOME) {
		if (home->immediates.head == NULL)
			uv_idle_start(&home->idle, uvd_on_idle);
		taskfifo_push(&home->immediates, t);
		return;
	}
	uv_mutex_lock(&home->lock);
	taskfifo_push(&home->inbox, t);
	uv_mutex_unlock(&home->lock);
	uv_async_send(&home->async);
	return;
}

static void *
uvd_loop_main(void *arg)
{
	struct uvd_home *h = arg;

	uvd_self = h;
	uv_run(&h->loop, UV_RUN_DEFAULT);
	uvd_self = NULL;
	return NULL;
}

static int
uvd_home_init(struct uvd *u, struct uvd_home *h)
{
	int error;

	memset(h, 0, sizeof(*h));
	h->group = u;
	if ((error = uv_mutex_init(&h->lock)) != 0)
		return error;
	if ((error = uv_loop_init(&h->loop)) != 0)
		goto out_mutex;
	if ((error = uv_async_init(&h->loop, &h->async, uvd_on_async)) != 0)
		goto out_loop;
	/* Neither fails on Unix: each only links the handle to the loop. */
	uv_check_init(&h->loop, &h->check);
	uv_check_start(&h->check, uvd_on_check);
	uv_idle_init(&h->loop, &h->idle);
	h->async.data = h->check.data = h->idle.data = h;
	return 0;
out_loop:
	uv_loop_close(&h->loop);
out_mutex:
	uv_mutex_destroy(&h->lock);
	return error;
}

/* Once uv_run has returned, or never ran: closes what is still open. */
static void
uvd_home_fini(struct uvd_home *h)
{

	if (!uv_is_closing((uv_handle_t *)&h->async)) {
		uv_close((uv_handle_t *)&h->async, NULL);
		uv_close((uv_handle_t *)&h->check, NULL);
		uv_close((uv_handle_t *)&h->idle, NULL);
		uv_run(&h->loop, UV_RUN_DEFAULT);
	}
	if (uv_loop_close(&h->loop) != 0)
		abort();		/* a handle left open: a bug here */
	uv_mutex_destroy(&h->lock);
	return;
}

/*
 * Stops the first n loops of ready and joins them all before any is torn
 * down (a loop may still hand a task to another), counts them, frees all.
 */
static void
uvd_stop_all(struct uvd *u, unsigned int ready, unsigned int n,
    struct db_disp_stats *st)
{
	struct uvd_home *h;
	unsigned int i;

	for (i = 0; i < n; i++) {
		h = &u->homes[i];
		uv_mutex_lock(&h->lock);
		h->stop = 1;
		uv_async_send(&h->async);
		uv_mutex_unlock(&h->lock);
	}
	for (i = 0; i < n; i++)
		pthread_join(u->homes[i].tid, NULL);
	for (i = 0; i < ready; i++) {
		h = &u->homes[i];
		if (st != NULL) {
			st->ran += h->ran;
			st->count[DB_DISP_C_injected] += h->injected;
		}
		uvd_home_fini(h);
	}
	if (st != NULL) {
		st->threads_started = n;
		st->threads_peak = n;
	}
	free(u->homes);
	free(u);
	return;
}

static int
uvd_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	unsigned int ready, started;
	struct uvd *u;
	int error = 0;

	if (cfg->workers == 0)
		return -EINVAL;
	if ((u = calloc(1, sizeof(*u))) == NULL)
		return -ENOMEM;
	u->base.ops = &disp_uv;
	u->cfg = *cfg;
	u->k = disp_knobs(cfg);
	u->nloops = cfg->workers;
	if (posix_memalign((void **)&u->homes, 64,
	    u->nloops * sizeof(*u->homes)) != 0) {
		free(u);
		return -ENOMEM;
	}
	for (ready = 0; ready < u->nloops; ready++)
		if ((error = uvd_home_init(u, &u->homes[ready])) != 0)
			break;
	for (started = 0; error == 0 && started < u->nloops; started++)
		if ((error = disp_thread_spawn(&u->cfg, started,
		    &u->homes[started].tid,
		    uvd_loop_main, &u->homes[started])) != 0)
			break;
	if (error != 0) {
		uvd_stop_all(u, ready, started, NULL);
		return error;
	}
	*dp = &u->base;
	return 0;
}

static void
uvd_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct uvd *u = (struct uvd *)d;

	uvd_stop_all(u, u->nloops, u->nloops, st);
	return;
}

const struct db_disp_ops disp_uv = {
	DB_DISP_OPS_HEAD,
	.name = "uv",
	.model = "libuv loops: an immediate on the home loop (Node's "
	    "setImmediate), else a locked list and uv_async_send",
	.real = "libuv " DB_UV_VERSION,
	.beside = "eventloop",
	.flags = DB_DISP_LOOPS,
	.counts = DB_DISP_COUNT(injected),
	.create = uvd_create,
	.dispatch = uvd_dispatch,
	.shutdown = uvd_shutdown,
};
