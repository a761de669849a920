/*
 * shared.c - N workers poll one MPMC queue: a fixed thread pool, the pool
 * under LimitedDispatcher, Dispatchers.IO with its parallelism as N.
 *
 * Two knobs say how an idle worker waits and who wakes it:
 *  - spins: how many times an idle worker polls the queue again (with a
 *    pause between) before it parks on its futex;
 *  - wake: DISP_WAKE_EVERY unparks one parked worker on every dispatch;
 *    DISP_WAKE_LAZY does so only when no worker is spinning.
 * The defaults (spins 0, wake every) are kotlinx CoroutineScheduler's since
 * 1.3.3 (CoroutineScheduler.kt): no spinning; a worker with nothing to do
 * pushes itself on the parked stack, scans once more, then parks
 * (tryPark); every dispatch pops the stack and unparks the worker it
 * claims with a CAS PARKED -> CLAIMED (signalCpuWork, tryUnpark).
 *
 * The parked stack is kotlinx's parkedWorkersStack (parkstack.h), which
 * says why no wake-up is lost.
 */
#include <errno.h>
#include <stdlib.h>

#include <ck_pr.h>

#include "knobs.h"
#include "parkstack.h"
#include "taskq.h"

extern const struct db_disp_ops disp_shared;	/* defined below */

struct sh_worker {
	struct parkstack_node node;		/* index 1-based, as kotlinx's */
	uint64_t ran;
	uint64_t spins, unparks;		/* begun; woken by a dispatch */
	struct shared *pool;
	pthread_t tid;
} __attribute__((aligned(64)));

struct shared {
	struct db_dispatcher base;
	struct db_disp_config cfg;
	struct disp_knobs k;
	struct taskq tq;
	struct parkstack parked;
	_Atomic int spinning;
	_Atomic int stop;
	unsigned int nworkers;
	struct sh_worker *workers;		/* [0] unused, as in kotlinx */
	_Atomic(struct parkstack_node *) *nodes; /* the parked stack's */
};

static void
shared_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct shared *s = (struct shared *)d;

	taskq_put(&s->tq, t);
	if (s->k.wake == DISP_WAKE_LAZY &&
	    atomic_load_explicit(&s->spinning, memory_order_relaxed) > 0)
		return;
	(void)parkstack_unpark_one(&s->parked);
	return;
}

static struct db_task *
sh_spin(struct shared *s, struct sh_worker *w)
{
	struct db_task *t = NULL;
	int i;

	if (s->k.spins <= 0)
		return NULL;
	w->spins++;
	atomic_fetch_add(&s->spinning, 1);
	for (i = 0; i < s->k.spins && t == NULL; i++) {
		ck_pr_stall();
		t = taskq_take(&s->tq);
	}
	atomic_fetch_sub(&s->spinning, 1);
	return t;
}

static void *
sh_worker_main(void *arg)
{
	struct sh_worker *w = arg;
	struct shared *s = w->pool;
	struct db_task *t;

	for (;;) {
		t = taskq_take(&s->tq);
		if (t == NULL)
			t = sh_spin(s, w);
		if (t != NULL) {
			w->ran++;
			t->fn(t);
			continue;
		}
		if (atomic_load(&s->stop) && taskq_empty(&s->tq))
			break;
		w->unparks += parkstack_park(&s->parked, &w->node, &s->stop,
		    NULL, NULL);
	}
	return NULL;
}

static int
shared_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct shared *s;
	unsigned int i;
	int error;

	if (cfg->workers == 0 || cfg->workers > PARKSTACK_MAX)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	s->base.ops = &disp_shared;
	s->cfg = *cfg;
	s->k = disp_knobs(cfg);
	if (s->k.spins == DISP_SPINS_DEFAULT)
		s->k.spins = 0;
	s->nworkers = cfg->workers;
	error = taskq_init(&s->tq, cfg->queue, cfg->queue_capacity);
	if (error != 0)
		goto out_free;
	error = posix_memalign((void **)&s->workers, 64,
	    (s->nworkers + 1) * sizeof(*s->workers));
	if (error != 0) {
		error = -error;
		goto out_taskq;
	}
	s->nodes = calloc(s->nworkers + 1, sizeof(*s->nodes));
	if (s->nodes == NULL) {
		error = -ENOMEM;
		goto out_workers;
	}
	parkstack_init(&s->parked, s->nodes);
	for (i = 1; i <= s->nworkers; i++) {
		struct sh_worker *w = &s->workers[i];

		parkstack_node_init(&s->parked, &w->node, i);
		w->ran = w->spins = w->unparks = 0;
		w->pool = s;
	}
	for (i = 1; i <= s->nworkers; i++) {
		error = disp_thread_spawn(&s->cfg, i - 1, &s->workers[i].tid,
		    sh_worker_main, &s->workers[i]);
		if (error != 0)
			goto out_join;
	}
	*dp = &s->base;
	return 0;
out_join:
	s->nworkers = i - 1;
	db_shutdown(&s->base, NULL);
	return error;
out_workers:
	free(s->workers);
out_taskq:
	taskq_fini(&s->tq);
out_free:
	free(s);
	return error;
}

static void
shared_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct shared *s = (struct shared *)d;
	struct sh_worker *w;
	unsigned int i;

	atomic_store(&s->stop, 1);
	for (i = 1; i <= s->nworkers; i++)
		parker_unpark(&s->workers[i].node.parker);
	for (i = 1; i <= s->nworkers; i++)
		pthread_join(s->workers[i].tid, NULL);
	for (i = 1; st != NULL && i <= s->nworkers; i++) {
		w = &s->workers[i];
		st->ran += w->ran;
		st->count[DB_DISP_C_spins] += w->spins;
		st->count[DB_DISP_C_unparks] += w->unparks;
	}
	if (st != NULL) {
		st->spilled = taskq_spilled(&s->tq);
		taskq_count(&s->tq, st);
		st->threads_started = s->nworkers;
		st->threads_peak = s->nworkers;
	}
	taskq_fini(&s->tq);
	free(s->nodes);
	free(s->workers);
	free(s);
	return;
}

const struct db_disp_ops disp_shared = {
	DB_DISP_OPS_HEAD,
	.name = "shared",
	.model = "N workers poll one MPMC queue (fixed pool; kotlinx park/unpark)",
	.flags = DB_DISP_USES_QUEUE,
	.counts = DB_DISP_COUNT(spins) | DB_DISP_COUNT(unparks),
	.create = shared_create,
	.dispatch = shared_dispatch,
	.shutdown = shared_shutdown,
};
