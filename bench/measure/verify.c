/*
 * verify.c - the checks of a queue and of a design (see verify.h).
 *
 * Items are tagged with their producer and sequence number, so a lost or
 * doubled one is named. A consumer sees a subsequence of each producer's
 * pushes; in a FIFO queue it must be increasing. Consumers nap when they
 * find nothing: with more threads than cores, a spinning consumer would
 * only take the CPU from the producer it waits for.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "designs.h"
#include "measure.h"
#include "runfields.h"
#include "verify.h"

#define TAG(p, seq)	((void *)(uintptr_t)(((((uint64_t)(p) << 32) | (seq)) + 1) << 1))
#define UNTAG(v)	(((uint64_t)(uintptr_t)(v) >> 1) - 1)
#define TAG_P(v)	((unsigned int)(UNTAG(v) >> 32))
#define TAG_SEQ(v)	((uint32_t)(UNTAG(v) & 0xffffffffu))

#define VERIFY_FIFO_ITEMS	1000
#define VERIFY_UNBOUNDED_ITEMS	100000
#define VERIFY_SETTLE_S		0.5	/* drained, yet an item is missing */

const char *const verify_queue_names[VERIFY_NQUEUE] = { "fifo", "bounds",
    "stress" };

void
verify_sizes_default(struct verify_sizes *sz)
{

	*sz = (struct verify_sizes){ .items = VERIFY_ITEMS,
	    .producers = VERIFY_PRODUCERS, .consumers = VERIFY_CONSUMERS,
	    .stall_s = 30 };
	return;
}

static void
verify_fail(struct verify_result *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->ok)
		return;			/* the first failure says the most */
	r->ok = false;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return;
}

bool
verify_queue_refused(const struct db_queue_ops *ops, char *err, size_t errlen)
{
	struct db_queue *q;
	int error = ops->create(&q, 1024);

	if (error == 0) {
		db_queue_destroy(q);
		return false;
	}
	snprintf(err, errlen, "queue %s refused to be created: %s", ops->name,
	    strerror(-error));
	return true;
}

static void
verify_fifo(const struct db_queue_ops *ops, struct verify_result *r)
{
	struct db_queue *q;
	uint32_t n;
	void *v;

	snprintf(r->what, sizeof(r->what), "fifo: %d items through one thread"
	    "%s", VERIFY_FIFO_ITEMS, ops->flags & DB_Q_FIFO ? ", in order" : "");
	if (ops->create(&q, 1024) != 0) {
		verify_fail(r, "create refused");
		return;
	}
	if (!db_queue_empty(q) || db_queue_pop(q, &v))
		verify_fail(r, "a new queue is not empty");
	for (n = 0; n < VERIFY_FIFO_ITEMS; n++)
		if (!db_queue_push(q, TAG(0, n)))
			verify_fail(r, "push %u refused", n);
	if (db_queue_empty(q))
		verify_fail(r, "empty after %d pushes", VERIFY_FIFO_ITEMS);
	for (n = 0; n < VERIFY_FIFO_ITEMS && r->ok; n++) {
		if (!db_queue_pop(q, &v))
			verify_fail(r, "item %u did not come out", n);
		else if ((ops->flags & DB_Q_FIFO) && TAG_SEQ(v) != n)
			verify_fail(r, "item %u came out where item %u was due",
			    TAG_SEQ(v), n);
	}
	if (r->ok && (db_queue_pop(q, &v) || !db_queue_empty(q)))
		verify_fail(r, "not empty once every item came out");
	db_queue_destroy(q);
	return;
}

/* A bounded queue refuses once full and takes again after a pop. */
static void
verify_bounds(const struct db_queue_ops *ops, struct verify_result *r)
{
	uint32_t n = 0;
	struct db_queue *q;
	void *v;

	snprintf(r->what, sizeof(r->what), "bounds: %s", ops->flags & DB_Q_BOUNDED ?
	    "capacity 8 holds 8 or more, refuses when full, takes after a pop" :
	    "unbounded, created for 8, takes 100000");
	if (ops->create(&q, 8) != 0) {
		verify_fail(r, "create refused");
		return;
	}
	while (n < VERIFY_UNBOUNDED_ITEMS && db_queue_push(q, TAG(0, n)))
		n++;
	if (!(ops->flags & DB_Q_BOUNDED) && n < VERIFY_UNBOUNDED_ITEMS)
		verify_fail(r, "refused item %u", n);
	if ((ops->flags & DB_Q_BOUNDED) && (n < 8 || n == VERIFY_UNBOUNDED_ITEMS))
		verify_fail(r, "held %u items at capacity 8", n);
	if ((ops->flags & DB_Q_BOUNDED) && r->ok && (!db_queue_pop(q, &v) ||
	    !db_queue_push(q, TAG(0, n))))
		verify_fail(r, "no room after a pop");
	while (db_queue_pop(q, &v))
		;
	if (r->ok && !db_queue_empty(q))
		verify_fail(r, "not empty once drained");
	db_queue_destroy(q);
	return;
}

struct stress {
	struct db_queue *q;
	_Atomic uint64_t consumed;
	_Atomic uint8_t *seen;			/* one flag per item */
	_Atomic uint64_t doubled;		/* the first doubled, + 1 */
	_Atomic uint64_t out_of_order;		/* the first, + 1 */
	_Atomic int given_up;
	_Atomic unsigned int produced;		/* producers done */
	uint64_t total;
	uint32_t per_producer;
	unsigned int producers;
	pthread_t *tid;
};

struct stress_arg {
	struct stress *s;
	unsigned int id;
};

static void *
stress_produce(void *arg)
{
	struct stress_arg *a = arg;
	uint32_t seq;

	for (seq = 0; seq < a->s->per_producer; seq++)
		while (!db_queue_push(a->s->q, TAG(a->id, seq))) {
			if (atomic_load(&a->s->given_up))
				return NULL;
			sched_yield();		/* bounded and full: wait */
		}
	atomic_fetch_add(&a->s->produced, 1);
	return NULL;
}

static void
stress_take(struct stress *s, void *v, int64_t *last)
{
	unsigned int p = TAG_P(v);
	uint64_t slot = (uint64_t)p * s->per_producer + TAG_SEQ(v), none = 0;

	if (atomic_exchange(&s->seen[slot], 1) != 0)
		atomic_compare_exchange_strong(&s->doubled, &none, slot + 1);
	if ((s->q->ops->flags & DB_Q_FIFO) && (int64_t)TAG_SEQ(v) <= last[p])
		atomic_compare_exchange_strong(&s->out_of_order, &none, slot + 1);
	last[p] = TAG_SEQ(v);
	atomic_fetch_add(&s->consumed, 1);
	return;
}

static void *
stress_consume(void *arg)
{
	struct stress_arg *a = arg;
	struct stress *s = a->s;
	struct timespec nap = { 0, 20000 };
	int64_t *last = malloc(s->producers * sizeof(*last));
	unsigned int p;
	void *v;

	if (last == NULL)
		abort();
	for (p = 0; p < s->producers; p++)
		last[p] = -1;
	while (atomic_load(&s->consumed) < s->total &&
	    !atomic_load(&s->given_up)) {
		if (db_queue_pop(s->q, &v))
			stress_take(s, v, last);
		else
			nanosleep(&nap, NULL);
	}
	free(last);
	return NULL;
}

/*
 * Waits for every item; false once none came out for stall_s, or, when
 * every producer is done and the queue says it is empty, for the moment
 * a consumer needs to count what it popped.
 */
static bool
stress_wait(struct stress *s, double stall_s)
{
	uint64_t last = atomic_load(&s->consumed), now;
	double moved = measure_now(), still;

	while ((now = atomic_load(&s->consumed)) < s->total) {
		still = measure_now() - moved;
		if (now != last) {
			last = now;
			moved = measure_now();
		} else if (still > stall_s || (still > VERIFY_SETTLE_S &&
		    atomic_load(&s->produced) == s->producers &&
		    db_queue_empty(s->q))) {
			return false;
		}
		usleep(1000);
	}
	return true;
}

static void
stress_judge(struct stress *s, struct verify_result *r)
{
	uint64_t n, lost = 0, first = 0, d = atomic_load(&s->doubled),
	    o = atomic_load(&s->out_of_order);

	for (n = 0; n < s->total; n++)
		if (atomic_load(&s->seen[n]) == 0 && lost++ == 0)
			first = n;
	if (lost > 0)
		verify_fail(r, "%lu item%s never came out, the first item %lu "
		    "of producer %lu", (unsigned long)lost, lost == 1 ? "" : "s",
		    (unsigned long)(first % s->per_producer),
		    (unsigned long)(first / s->per_producer));
	if (d != 0)
		verify_fail(r, "item %lu of producer %lu came out twice",
		    (unsigned long)((d - 1) % s->per_producer),
		    (unsigned long)((d - 1) / s->per_producer));
	if (o != 0)
		verify_fail(r, "item %lu of producer %lu came out after a later "
		    "one", (unsigned long)((o - 1) % s->per_producer),
		    (unsigned long)((o - 1) / s->per_producer));
	if (r->ok && !db_queue_empty(s->q))
		verify_fail(r, "not empty once every item came out");
	return;
}

/*
 * A queue whose pushes publish in turn keeps two producers (more convoy,
 * not more checking); a queue with one consumer gets the other threads as
 * producers.
 */
static void
verify_stress(const struct db_queue_ops *ops, const struct verify_sizes *sz,
    struct verify_result *r)
{
	unsigned int threads = sz->producers + sz->consumers, k;
	struct stress s = { .producers = sz->producers };
	struct stress_arg *a = calloc(threads, sizeof(*a));

	if (ops->flags & DB_Q_PUSH_IN_TURN && s.producers > VERIFY_PRODUCERS)
		s.producers = VERIFY_PRODUCERS;
	if (ops->flags & DB_Q_ONE_CONSUMER)
		s.producers = threads - 1;
	s.per_producer = (uint32_t)(sz->items / s.producers);
	s.total = (uint64_t)s.producers * s.per_producer;
	snprintf(r->what, sizeof(r->what), "stress: %lu tagged items, %u "
	    "producers, %u consumers: each once%s", (unsigned long)s.total,
	    s.producers, threads - s.producers, ops->flags & DB_Q_FIFO ?
	    ", each producer's in order" : "");
	s.seen = calloc(s.total, 1);
	s.tid = calloc(threads, sizeof(*s.tid));
	if (a == NULL || s.seen == NULL || s.tid == NULL)
		abort();
	/* An unbounded queue from its smallest size: it grows under load. */
	if (ops->create(&s.q, ops->flags & DB_Q_BOUNDED ? 1024 : 2) != 0) {
		verify_fail(r, "create refused");
		goto out;
	}
	for (k = 0; k < threads; k++) {
		a[k] = (struct stress_arg){ .s = &s, .id = k };
		if (pthread_create(&s.tid[k], NULL, k < s.producers ?
		    stress_produce : stress_consume, &a[k]) != 0)
			abort();
	}
	if (!stress_wait(&s, sz->stall_s))
		atomic_store(&s.given_up, 1);
	for (k = 0; k < threads; k++)
		pthread_join(s.tid[k], NULL);
	stress_judge(&s, r);
	db_queue_destroy(s.q);
out:
	free((void *)s.seen);
	free(s.tid);
	free(a);
	return;
}

void
verify_queue(const struct db_queue_ops *ops, enum verify_queue_check k,
    const struct verify_sizes *sz, struct verify_result *r)
{

	*r = (struct verify_result){ .ok = true };
	switch (k) {
	case VERIFY_FIFO:
		verify_fifo(ops, r);
		break;
	case VERIFY_BOUNDS:
		verify_bounds(ops, r);
		break;
	default:
		verify_stress(ops, sz, r);
		break;
	}
	return;
}

void
verify_cell(const struct cell *c, const char *name,
    const struct cell_window *win, struct verify_result *r)
{
	cJSON *run = cell_run(c, win);
	const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(run,
	    RF(status))), *error = cJSON_GetStringValue(cJSON_GetObjectItem(run,
	    RF(error)));

	*r = (struct verify_result){ .ok = true };
	snprintf(r->what, sizeof(r->what), "count: %s: %.0f resumptions, each "
	    "once", name, cJSON_GetNumberValue(cJSON_GetObjectItem(run,
	    RF(resumptions_total))));
	if (status == NULL || strcmp(status, "ok") != 0)
		verify_fail(r, "%s: %s", status != NULL ? status : "no status",
		    error != NULL ? error : "no reason given");
	cJSON_Delete(run);
	return;
}

void
verify_print(FILE *out, const struct verify_result *r)
{

	if (r->ok)
		fprintf(out, "ok    %s\n", r->what);
	else
		fprintf(out, "FAIL  %s: %s\n", r->what, r->why);
	fflush(out);
	return;
}
