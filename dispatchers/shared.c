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
 * The parked stack is kotlinx's parkedWorkersStack: a Treiber stack of
 * worker indices in one 64-bit word, the low 21 bits the top index (0:
 * empty) and the rest a version against ABA.
 *
 * No wake-up is lost: a worker pushes itself on the stack (a CAS), then
 * scans the queue once more; a dispatch pushes its task, then pops the
 * stack (a CAS): one sees the other. A popped worker that has not yet
 * stored PARKED makes the dispatcher's CAS PARKED -> CLAIMED fail, but the
 * pop marked it out of the stack before that CAS, and the worker reads the
 * mark after its store: it scans again instead of sleeping. The parker
 * keeps an unpark that comes before the park.
 */
#include <errno.h>
#include <stdlib.h>

#include <ck_pr.h>

#include "parker.h"
#include "taskq.h"

#define SH_INDEX_BITS		21
#define SH_INDEX_MASK		((UINT64_C(1) << SH_INDEX_BITS) - 1)
#define SH_VERSION_INC		(UINT64_C(1) << SH_INDEX_BITS)
#define SH_NOT_IN_STACK		UINT32_MAX

#define SH_CLAIMED		0
#define SH_PARKED		(-1)

struct sh_worker {
	struct parker parker;
	_Atomic int ctl;			/* SH_PARKED or SH_CLAIMED */
	_Atomic uint32_t next_parked;		/* index, 0, or SH_NOT_IN_STACK */
	uint32_t index;				/* 1-based, as kotlinx's */
	uint64_t ran;
	uint64_t spins, unparks;		/* begun; woken by a dispatch */
	struct shared *pool;
	pthread_t tid;
} __attribute__((aligned(64)));

struct shared {
	struct dispatcher base;
	struct disp_config cfg;
	struct taskq tq;
	_Atomic uint64_t parked;		/* the stack's top word */
	_Atomic int spinning;
	_Atomic int stop;
	unsigned int nworkers;
	struct sh_worker *workers;		/* [0] unused, as in kotlinx */
};

static void
sh_stack_push(struct shared *s, struct sh_worker *w)
{
	uint64_t top = atomic_load(&s->parked);

	do {
		atomic_store(&w->next_parked, (uint32_t)(top & SH_INDEX_MASK));
	} while (!atomic_compare_exchange_weak(&s->parked, &top,
	    ((top + SH_VERSION_INC) & ~SH_INDEX_MASK) | w->index));
	return;
}

static struct sh_worker *
sh_stack_pop(struct shared *s)
{
	uint64_t top = atomic_load(&s->parked);
	struct sh_worker *w;
	uint32_t next;

	for (;;) {
		if ((top & SH_INDEX_MASK) == 0)
			return NULL;
		w = &s->workers[top & SH_INDEX_MASK];
		next = atomic_load(&w->next_parked);
		if (next == SH_NOT_IN_STACK) {		/* popped under us */
			top = atomic_load(&s->parked);
			continue;
		}
		if (atomic_compare_exchange_weak(&s->parked, &top,
		    ((top + SH_VERSION_INC) & ~SH_INDEX_MASK) | next)) {
			atomic_store(&w->next_parked, SH_NOT_IN_STACK);
			return w;
		}
	}
}

/* tryUnpark: claim a parked worker and wake it; skip ones not yet parked. */
static void
sh_unpark_one(struct shared *s)
{
	struct sh_worker *w;
	int expected;

	while ((w = sh_stack_pop(s)) != NULL) {
		expected = SH_PARKED;
		if (atomic_compare_exchange_strong(&w->ctl, &expected,
		    SH_CLAIMED)) {
			parker_unpark(&w->parker);
			return;
		}
	}
	return;
}

static void
shared_dispatch(struct dispatcher *d, struct disp_task *t)
{
	struct shared *s = (struct shared *)d;

	taskq_put(&s->tq, t);
	if (s->cfg.wake == DISP_WAKE_LAZY &&
	    atomic_load_explicit(&s->spinning, memory_order_relaxed) > 0)
		return;
	sh_unpark_one(s);
	return;
}

static struct disp_task *
sh_spin(struct shared *s, struct sh_worker *w)
{
	struct disp_task *t = NULL;
	int i;

	if (s->cfg.spins <= 0)
		return NULL;
	w->spins++;
	atomic_fetch_add(&s->spinning, 1);
	for (i = 0; i < s->cfg.spins && t == NULL; i++) {
		ck_pr_stall();
		t = taskq_take(&s->tq);
	}
	atomic_fetch_sub(&s->spinning, 1);
	return t;
}

/*
 * tryPark: the first call only pushes the worker on the stack, so it scans
 * the queue once more before it sleeps (a dispatch that came between the
 * scan and the push would otherwise find nobody to wake).
 */
static void
sh_park(struct shared *s, struct sh_worker *w)
{

	if (atomic_load(&w->next_parked) == SH_NOT_IN_STACK) {
		sh_stack_push(s, w);
		return;
	}
	atomic_store(&w->ctl, SH_PARKED);
	while (atomic_load(&w->next_parked) != SH_NOT_IN_STACK &&
	    atomic_load(&w->ctl) == SH_PARKED && !atomic_load(&s->stop))
		parker_park(&w->parker, 0);
	w->unparks += atomic_load(&w->ctl) == SH_CLAIMED;
	return;
}

static void *
sh_worker_main(void *arg)
{
	struct sh_worker *w = arg;
	struct shared *s = w->pool;
	struct disp_task *t;

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
		sh_park(s, w);
	}
	return NULL;
}

static int
shared_create(struct dispatcher **dp, const struct disp_config *cfg)
{
	struct shared *s;
	unsigned int i;
	int error;

	if (cfg->workers == 0 || cfg->workers >= SH_INDEX_MASK)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	s->base.ops = &disp_shared;
	s->cfg = *cfg;
	if (s->cfg.spins == DISP_SPINS_DEFAULT)
		s->cfg.spins = 0;
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
	for (i = 1; i <= s->nworkers; i++) {
		struct sh_worker *w = &s->workers[i];

		parker_init(&w->parker);
		atomic_init(&w->ctl, SH_CLAIMED);
		atomic_init(&w->next_parked, SH_NOT_IN_STACK);
		w->index = i;
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
	disp_shutdown(&s->base, NULL);
	return error;
out_taskq:
	taskq_fini(&s->tq);
out_free:
	free(s);
	return error;
}

static void
shared_shutdown(struct dispatcher *d, struct disp_stats *st)
{
	struct shared *s = (struct shared *)d;
	struct sh_worker *w;
	unsigned int i;

	atomic_store(&s->stop, 1);
	for (i = 1; i <= s->nworkers; i++)
		parker_unpark(&s->workers[i].parker);
	for (i = 1; i <= s->nworkers; i++)
		pthread_join(s->workers[i].tid, NULL);
	for (i = 1; st != NULL && i <= s->nworkers; i++) {
		w = &s->workers[i];
		st->ran += w->ran;
		st->count[DISP_C_spins] += w->spins;
		st->count[DISP_C_unparks] += w->unparks;
	}
	if (st != NULL) {
		st->spilled = taskq_spilled(&s->tq);
		taskq_count(&s->tq, st);
		st->threads_started = s->nworkers;
		st->threads_peak = s->nworkers;
	}
	taskq_fini(&s->tq);
	free(s->workers);
	free(s);
	return;
}

const struct disp_ops disp_shared = {
	DB_DISP_OPS_HEAD,
	.name = "shared",
	.model = "N workers poll one MPMC queue (fixed pool; kotlinx park/unpark)",
	.flags = DISP_USES_QUEUE,
	.counts = DISP_COUNT(spins) | DISP_COUNT(unparks),
	.create = shared_create,
	.dispatch = shared_dispatch,
	.shutdown = shared_shutdown,
};
