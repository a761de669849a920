/*
 * condpool.c - a design of your own as a dispatchbench plugin: N threads
 * that wait on one condition variable over one locked FIFO, as GLib's
 * GThreadPool and most hand-written pools do. Every dispatch takes the
 * lock and signals; every idle thread sleeps in the kernel.
 *
 *	cc -shared -fPIC -O2 $(pkg-config --cflags dispatchbench) \
 *	    -o libcondpool.so condpool.c -lpthread
 *	dispatchbench verify --dispatcher ./libcondpool.so
 *	dispatchbench run --dispatcher shared,./libcondpool.so --workers 1..64
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include <dispatchbench/dispatcher.h>

struct condpool {
	struct db_dispatcher base;		/* first: the suite sees a dispatcher */
	struct db_disp_config cfg;
	pthread_mutex_t lock;
	pthread_cond_t nonempty;
	struct db_task *head, **tail;	/* the FIFO, through task->next */
	uint64_t ran;
	int stop;
	unsigned int n;
	struct condpool_thread {
		struct condpool *pool;
		unsigned int index;	/* its place: the suite pins by it */
		pthread_t tid;
	} threads[];
};

extern const struct db_disp_ops dispatchbench_dispatcher;

static void *
condpool_main(void *arg)
{
	struct condpool_thread *me = arg;
	struct condpool *p = me->pool;
	struct db_task *t;

	if (p->cfg.thread_start != NULL)		/* pinning, first */
		p->cfg.thread_start(p->cfg.thread_arg, me->index);
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->head == NULL && !p->stop)
			pthread_cond_wait(&p->nonempty, &p->lock);
		if ((t = p->head) == NULL)
			break;			/* stopped and drained */
		if ((p->head = t->next) == NULL)
			p->tail = &p->head;
		p->ran++;
		pthread_mutex_unlock(&p->lock);
		t->fn(t);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static void
condpool_dispatch(struct db_dispatcher *d, struct db_task *t)
{
	struct condpool *p = (struct condpool *)d;

	t->next = NULL;
	pthread_mutex_lock(&p->lock);
	*p->tail = t;
	p->tail = &t->next;
	pthread_cond_signal(&p->nonempty);
	pthread_mutex_unlock(&p->lock);
}

static void
condpool_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{
	struct condpool *p = (struct condpool *)d;
	unsigned int i;

	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->nonempty);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->n; i++)
		pthread_join(p->threads[i].tid, NULL);
	if (st != NULL) {
		st->ran = p->ran;
		st->threads_started = st->threads_peak = p->n;
	}
	free(p);
}

static int
condpool_create(struct db_dispatcher **dp, const struct db_disp_config *cfg)
{
	struct condpool *p;

	if (cfg->workers == 0)
		return -EINVAL;		/* a fixed pool has a width */
	if ((p = calloc(1, sizeof(*p) + cfg->workers *
	    sizeof(p->threads[0]))) == NULL)
		return -ENOMEM;
	p->base.ops = &dispatchbench_dispatcher;
	p->cfg = *cfg;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->nonempty, NULL);
	p->tail = &p->head;
	for (; p->n < cfg->workers; p->n++) {
		p->threads[p->n].pool = p;
		p->threads[p->n].index = p->n;
		if (pthread_create(&p->threads[p->n].tid, NULL, condpool_main,
		    &p->threads[p->n]) != 0) {
			condpool_shutdown(&p->base, NULL);
			return -EAGAIN;
		}
	}
	*dp = &p->base;
	return 0;
}

const struct db_disp_ops dispatchbench_dispatcher = {
	DB_DISP_OPS_HEAD,
	.name = "condpool",
	.model = "N threads on a mutex, a condition variable and a FIFO (an example plugin)",
	.create = condpool_create,
	.dispatch = condpool_dispatch,
	.shutdown = condpool_shutdown,
};
