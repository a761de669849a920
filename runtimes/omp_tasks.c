/*
 * omp_tasks.c - OpenMP tasks in a team of GCC's libgomp (GCC 12,
 * libgomp/task.c): each resumption spawns its successor with
 * `#pragma omp task`, the runtime GCC users already have.
 *
 * libgomp's task queue is one per team, under one mutex (team->task_lock):
 * GOMP_task allocates the task, links it at the end of the team's queue
 * (and at the front of its parent's children), and wakes one thread with
 * a futex_wake on the team barrier whenever fewer threads run tasks than
 * the team has (do_wake). Idle threads run tasks from a barrier of the
 * parallel region, taking the head of the team's queue:
 * FIFO, no per-thread queues, no stealing. A waiting thread spins before
 * its futex_wait: 300000 pauses (GOMP_SPINCOUNT's default), only 100 when
 * the process has more threads than CPUs (config/linux/wait.h). A task
 * made while more than 64 per thread are queued runs at once on its
 * maker's thread (undeferred); it lands on the thread's trampoline.
 *
 * Tasks can only be made inside the team, so the team has a door: thread 0
 * turns dispatches from outside (the spawner, coroutines started outside)
 * into tasks and otherwise sleeps on a condition; threads 1..N are the
 * workers. libgomp counts the door among the team's threads, so do_wake
 * holds while the N workers are all busy. libgomp binds threads only from
 * the environment (OMP_PROC_BIND, OMP_PLACES): each thread of the team,
 * the door too, binds itself as the region starts.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "trampoline.h"
#include "tsan.h"

extern const struct db_disp_ops disp_omp_tasks;	/* defined below */

struct ot_thread {
	uint64_t ran, undeferred;
} __attribute__((aligned(64)));

struct ot_team {
	struct db_dispatcher base;
	struct db_disp_config cfg;
	unsigned int nthreads;		/* the door and the N workers */
	pthread_t door;
	pthread_mutex_t lock;
	pthread_cond_t knock;		/* the door's: outside, stop */
	pthread_cond_t formed;		/* create's: team */
	struct taskfifo outside;	/* under lock */
	int stop;			/* under lock */
	int team;			/* under lock: the team libgomp made */
	struct ot_thread *threads;
};

static _Thread_local struct ot_team *ot_team_of;	/* in its region */
static _Thread_local struct ot_thread *ot_self;
static _Thread_local struct trampoline ot_tramp;
static _Thread_local int ot_spawning;		/* inside GOMP_task */

static void
ot_run(struct db_task *t)
{

	/* libgomp's futexes order the handoff where TSan cannot see it. */
	TSAN_ACQUIRE(t);
	/* Run by the thread that is making it: libgomp did not defer it. */
	ot_self->undeferred += ot_spawning > 0;
	ot_self->ran += trampoline_run(&ot_tramp, t);
	return;
}

static void
ot_spawn(struct db_task *t)
{

	TSAN_RELEASE(t);
	ot_spawning++;
#pragma omp task firstprivate(t)
	ot_run(t);
	ot_spawning--;
	return;
}

static void
ot_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct ot_team *o = (struct ot_team *)d;

	if (ot_team_of == o) {
		ot_spawn(t);
		return;
	}
	pthread_mutex_lock(&o->lock);
	taskfifo_push(&o->outside, t);
	pthread_cond_signal(&o->knock);
	pthread_mutex_unlock(&o->lock);
	return;
}

/* Thread 0: says the team is formed, then tasks from outside until the stop. */
static void
ot_door(struct ot_team *o)
{
	struct db_task *t;

	pthread_mutex_lock(&o->lock);
	o->team = omp_get_num_threads();
	pthread_cond_signal(&o->formed);
	for (;;) {
		if ((t = taskfifo_pop(&o->outside)) != NULL) {
			pthread_mutex_unlock(&o->lock);
			ot_spawn(t);
			pthread_mutex_lock(&o->lock);
			continue;
		}
		if (o->stop)
			break;
		pthread_cond_wait(&o->knock, &o->lock);
	}
	pthread_mutex_unlock(&o->lock);
	return;
}

/*
 * The region: every thread binds itself, thread 0 keeps the door, and all
 * run tasks at the explicit barrier until none is left (explicit, so that
 * ot_team_of still names the team while they run).
 */
static void *
ot_team_main(void *arg)
{
	struct ot_team *o = arg;

#pragma omp parallel num_threads(o->nthreads)
	{
		int me = omp_get_thread_num();

		ot_self = &o->threads[me];
		ot_team_of = o;
		if (o->cfg.thread_start != NULL)
			o->cfg.thread_start(o->cfg.thread_arg, me);
		if (me == 0)
			ot_door(o);
#pragma omp barrier
		ot_team_of = NULL;
		TSAN_RELEASE(ot_self);
	}
	return NULL;
}

static void
ot_knock_stop(struct ot_team *o)
{

	pthread_mutex_lock(&o->lock);
	o->stop = 1;
	pthread_cond_signal(&o->knock);
	pthread_mutex_unlock(&o->lock);
	pthread_join(o->door, NULL);
	return;
}

static void
ot_free(struct ot_team *o)
{

	pthread_cond_destroy(&o->formed);
	pthread_cond_destroy(&o->knock);
	pthread_mutex_destroy(&o->lock);
	free(o->threads);
	free(o);
	return;
}

/*
 * Returns once the team is formed: a team smaller than asked (OMP_THREAD_
 * LIMIT, OMP_DYNAMIC) is refused rather than run short of workers.
 */
static int
ot_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct ot_team *o;
	int error, team;

	if (cfg->workers == 0 || cfg->workers >= INT32_MAX)
		return -EINVAL;
	if ((o = calloc(1, sizeof(*o))) == NULL)
		return -ENOMEM;
	o->base.ops = &disp_omp_tasks;
	o->cfg = *cfg;
	o->nthreads = cfg->workers + 1;
	if (posix_memalign((void **)&o->threads, 64,
	    o->nthreads * sizeof(*o->threads)) != 0) {
		free(o);
		return -ENOMEM;
	}
	memset(o->threads, 0, o->nthreads * sizeof(*o->threads));
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->knock, NULL);
	pthread_cond_init(&o->formed, NULL);
	if ((error = pthread_create(&o->door, NULL, ot_team_main, o)) != 0) {
		ot_free(o);
		return -error;
	}
	pthread_mutex_lock(&o->lock);
	while (o->team == 0)
		pthread_cond_wait(&o->formed, &o->lock);
	team = o->team;
	pthread_mutex_unlock(&o->lock);
	if (team != (int)o->nthreads) {
		ot_knock_stop(o);
		ot_free(o);
		return -EAGAIN;
	}
	*dp = &o->base;
	return 0;
}

static void
ot_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct ot_team *o = (struct ot_team *)d;
	unsigned int i;

	ot_knock_stop(o);
	for (i = 0; st != NULL && i < o->nthreads; i++) {
		TSAN_ACQUIRE(&o->threads[i]);
		st->ran += o->threads[i].ran;
		st->count[DB_DISP_C_in_place] += o->threads[i].undeferred;
	}
	if (st != NULL) {
		st->threads_started = o->nthreads;
		st->threads_peak = o->nthreads;
	}
	ot_free(o);
	return;
}

const struct db_disp_ops disp_omp_tasks = {
	DB_DISP_OPS_HEAD,
	.name = "omp-tasks",
	.model = "OpenMP tasks (libgomp): one queue per team under one mutex, "
	    "idle threads run tasks at the barrier",
	.real = "libgomp " DB_OMP_VERSION,
	.beside = "shared,stealing",
	.flags = 0,
	.counts = DB_DISP_COUNT(in_place),
	.create = ot_create,
	.dispatch = ot_dispatch,
	.shutdown = ot_shutdown,
};
