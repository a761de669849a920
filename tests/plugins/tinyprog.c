/*
 * tinyprog.c - the smallest program that answers the external-program
 * protocol (docs/external.md): N threads polling one locked FIFO of C
 * coroutines, each of which puts itself back after every resumption.
 *
 * The environment's TINYPROG says how it misbehaves, for test_program:
 *   good      answers as the protocol says;
 *   miscount  reports one handoff more than it made (the count check must
 *             fail);
 *   hang      never answers `stop`, as a runtime that lost a resumption
 *             would not (the suite must kill it and call the run hung),
 *             and leaves a child of its own (`sleep 6061`) for the suite
 *             to kill with it;
 *   garbage   answers `count` with a word where a number goes;
 *   chatty    says one line more than it is asked;
 *   die       exits with status 3 before `ready`;
 *   widen     moves its threads to every CPU of the machine before `ready`
 *             (the binding check must see it);
 *   narrow    moves its threads to the first of its CPUs (inside what it
 *             was given: the binding check must let it);
 *   double    reports one resumption more than its coroutines had, as a
 *             runtime that ran a handoff twice would (the count check
 *             must fail, the resumption counted as doubled, not lost);
 *   twice     says its counter twice at `stop` (refused);
 *   stall     its counts stop moving after the first `count`, as those of
 *             a runtime whose workers all blocked would (the window is
 *             stalled, not ok).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct co {
	_Atomic unsigned long dispatched, resumed;
	struct co *next;
	char pad[40];
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t more, done;
	struct co *head, *tail;
	atomic_bool stop;
	unsigned int ended;		/* under lock */
	unsigned long pushes;		/* under lock: its own counter */
} q = { .lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER };

static struct co *coros;
static unsigned int ncos;

static void
push(struct co *c)
{

	pthread_mutex_lock(&q.lock);
	c->next = NULL;
	if (q.tail != NULL)
		q.tail->next = c;
	else
		q.head = c;
	q.tail = c;
	q.pushes++;
	pthread_cond_signal(&q.more);
	pthread_mutex_unlock(&q.lock);
}

static void
resume(struct co *c)
{

	atomic_fetch_add_explicit(&c->resumed, 1, memory_order_relaxed);
	if (atomic_load(&q.stop)) {
		pthread_mutex_lock(&q.lock);
		q.ended++;
		pthread_cond_signal(&q.done);
		pthread_mutex_unlock(&q.lock);
		return;
	}
	atomic_fetch_add_explicit(&c->dispatched, 1, memory_order_relaxed);
	push(c);
}

static void *
worker(void *arg)
{
	struct co *c;

	for (;;) {
		pthread_mutex_lock(&q.lock);
		while (q.head == NULL)
			pthread_cond_wait(&q.more, &q.lock);
		c = q.head;
		if ((q.head = c->next) == NULL)
			q.tail = NULL;
		pthread_mutex_unlock(&q.lock);
		resume(c);
	}
	return arg;
}

/*
 * Its counts: extra handoffs more than it made, twice resumptions more of
 * coroutine 0; the same as the last answer when frozen.
 */
static void
answer(const char *word, unsigned long extra, unsigned long twice,
    bool frozen)
{
	static unsigned long *last;
	unsigned long d = extra;
	unsigned int i;

	if (last == NULL && (last = calloc(ncos + 1, sizeof(*last))) == NULL)
		abort();
	for (i = 0; i < ncos && !frozen; i++)
		last[i + 1] = atomic_load(&coros[i].resumed) + (i == 0 ? twice : 0);
	for (i = 0; i < ncos && !frozen; i++)
		d += atomic_load(&coros[i].dispatched);
	if (!frozen)
		last[0] = d;
	printf("%s %lu", word, last[0]);
	for (i = 0; i < ncos; i++)
		printf(" %lu", last[i + 1]);
	printf("\n");
}

/* Every CPU of the machine (widen), or the first it may use (narrow). */
static void
rebind(bool wide)
{
	cpu_set_t set, mine;
	long i, n = sysconf(_SC_NPROCESSORS_CONF);

	CPU_ZERO(&set);
	sched_getaffinity(0, sizeof(mine), &mine);
	for (i = 0; i < n && i < CPU_SETSIZE; i++) {
		if (wide || CPU_ISSET(i, &mine))
			CPU_SET(i, &set);
		if (!wide && CPU_ISSET(i, &mine))
			break;
	}
	sched_setaffinity(0, sizeof(set), &set);
}

int
main(int argc, char **argv)
{
	const char *mode = getenv("TINYPROG") != NULL ? getenv("TINYPROG") :
	    "good";
	unsigned int workers, i, counts = 0;
	char line[64];
	pthread_t t;

	if (argc != 5 || strcmp(argv[1], "--workers") != 0 ||
	    strcmp(argv[3], "--coroutines") != 0 ||
	    (workers = (unsigned int)atoi(argv[2])) == 0 ||
	    (ncos = (unsigned int)atoi(argv[4])) == 0) {
		fprintf(stderr, "usage: tinyprog --workers N "
		    "--coroutines C\n");
		return 2;
	}
	if (strcmp(mode, "widen") == 0 || strcmp(mode, "narrow") == 0)
		rebind(strcmp(mode, "widen") == 0);
	if (strcmp(mode, "die") == 0)
		return 3;
	if (strcmp(mode, "hang") == 0 && fork() == 0) {
		execl("/bin/sleep", "sleep", "6061", (char *)NULL);
		_exit(127);
	}
	if ((coros = calloc(ncos, sizeof(*coros))) == NULL)
		return 1;
	for (i = 0; i < workers; i++)
		pthread_create(&t, NULL, worker, NULL);
	for (i = 0; i < ncos; i++) {
		atomic_store(&coros[i].dispatched, 1);
		push(&coros[i]);
	}
	printf("ready tinyprog 1 %s\n", mode);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (strcmp(line, "count\n") == 0 &&
		    strcmp(mode, "garbage") == 0)
			printf("count some\n");
		else if (strcmp(line, "count\n") == 0)
			answer("count", 0, 0, counts++ > 0 &&
			    strcmp(mode, "stall") == 0);
		if (strcmp(line, "count\n") == 0 && strcmp(mode, "chatty") == 0)
			printf("by the way\n");
		else if (strcmp(line, "stop\n") == 0 &&
		    strcmp(mode, "hang") == 0)
			pause();
		else if (strcmp(line, "stop\n") == 0) {
			atomic_store(&q.stop, true);
			pthread_mutex_lock(&q.lock);
			while (q.ended < ncos)
				pthread_cond_wait(&q.done, &q.lock);
			pthread_mutex_unlock(&q.lock);
			printf("counter pushes %lu\n", q.pushes);
			if (strcmp(mode, "twice") == 0)
				printf("counter pushes %lu\n", q.pushes);
			answer("stopped", strcmp(mode, "miscount") == 0,
			    strcmp(mode, "double") == 0, false);
		}
		/* One write: chatty's extra line comes with its answer. */
		fflush(stdout);
	}
	return 0;
}
