/*
 * workload.c - the resume-only coroutines (see workload.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "designs.h"
#include "measure.h"
#include "runfields.h"
#include "workload.h"

/* Only the running thread writes a counter; others read it for a sample. */
static inline void
coro_bump(_Atomic uint64_t *c)
{

	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
	    memory_order_relaxed);
	return;
}

/*
 * Work the optimizer cannot remove and no other thread can see. One copy,
 * never inlined: the calibration and the payload must run the same loop
 * at the same address, or its alignment can make one twice the other (a
 * ThreadSanitizer build of unchanged workload code paid 2.0x the payload
 * it was calibrated for, inlined copies laid out apart).
 */
__attribute__((noinline)) void
workload_burn(uint64_t iters)
{
	uint64_t i;

	for (i = 0; i < iters; i++)
		__asm__ __volatile__("" ::: "memory");
	return;
}

/*
 * Timed on the thread's own CPU clock, best of five: a preemption during a
 * wall-clock calibration would make the loop look slow and the payload
 * come out short.
 */
static uint64_t
workload_calibrate(uint64_t ns)
{
	uint64_t iters = 1u << 16;
	struct timespec t0, t1;
	double dt, best = 0;
	int i;

	for (;;) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		workload_burn(iters);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		dt = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		if (dt > 0.002)
			break;
		iters *= 2;
	}
	for (i = 0, best = dt; i < 4; i++) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		workload_burn(iters);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		dt = (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		best = dt < best ? dt : best;
	}
	return (uint64_t)((double)iters / (best * 1e9) * ns + 0.5);
}


int
workload_block_range(double ms, double share, char *why, size_t len)
{

	if (!(ms > 0 && ms <= WORKLOAD_BLOCK_MS_MAX))
		return snprintf(why, len, "MS %g is out of range: it must be in "
		    "(0, %d]", ms, WORKLOAD_BLOCK_MS_MAX), -1;
	if (!(share > 0 && share <= 1))
		return snprintf(why, len, "SHARE %g is out of range: it must be "
		    "in (0, 1]", share), -1;
	return 0;
}

int
workload_profile_parse(struct workload_profile *p, const char *s, char *err,
    size_t errlen)
{
	char name[16], kinds[128], why[96], tail;
	double ms, share;

	memset(p, 0, sizeof(*p));
	if ((p->kind = workload_kind_find(s)) != NULL && !p->kind->takes_block)
		return 0;
	if (sscanf(s, "%15[a-z]:%lf:%lf%c", name, &ms, &share, &tail) != 3 ||
	    (p->kind = workload_kind_find(name)) == NULL || !p->kind->takes_block) {
		workload_kinds_text(kinds, sizeof(kinds), false);
		snprintf(err, errlen, "--workload: '%s' is not %s", s, kinds);
		return -1;
	}
	if (workload_block_range(ms, share, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "--workload: '%s': %s", s, why);
		return -1;
	}
	p->block_ns = (uint64_t)llround(ms * 1e6);
	p->share_ppm = (uint32_t)lround(share * WORKLOAD_SHARE_ONE);
	p->share_ppm = p->share_ppm == 0 ? 1 : p->share_ppm;
	return 0;
}

void
workload_profile_format(const struct workload_profile *p, char *buf,
    size_t len)
{

	if (!p->kind->takes_block)
		snprintf(buf, len, "%s", p->kind->name);
	else
		snprintf(buf, len, "%s:%g:%g", p->kind->name,
		    (double)p->block_ns * 1e-6,
		    (double)p->share_ppm / WORKLOAD_SHARE_ONE);
	return;
}

double
workload_hold_s(const struct workload_profile *p)
{

	return workload_blocks_some(p) ? WORKLOAD_RESUMES_PER_OP *
	    (double)p->block_ns * 1e-9 * p->share_ppm / WORKLOAD_SHARE_ONE : 0;
}

double
workload_ceiling(const struct workload_profile *p, unsigned int threads,
    unsigned int cpus)
{

	if (!workload_blocks_some(p))
		return 0;
	if (p->kind->cpu_bound && cpus < threads)
		threads = cpus;
	return threads / workload_hold_s(p) * WORKLOAD_RESUMES_PER_OP;
}

static uint64_t
workload_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Blocks among the first k resumptions of a pattern that starts at phase. */
static uint64_t
workload_blocks(const struct workload *w, uint64_t phase, uint64_t k)
{
	uint64_t ppm = w->profile.share_ppm;

	return (phase + k) * ppm / WORKLOAD_SHARE_ONE -
	    phase * ppm / WORKLOAD_SHARE_ONE;
}

/*
 * A spin is measured by the kernel, not by a loop count: the speed of a
 * loop moves by a factor of two between runs on a virtual CPU, so the
 * loop only burns slices of about WORKLOAD_SPIN_SLICE_NS between looks at
 * the thread's CPU clock.
 */
static void
workload_spin(const struct workload *w)
{
	uint64_t block = w->profile.block_ns, t0;

	t0 = workload_ns(CLOCK_THREAD_CPUTIME_ID);
	while (workload_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < block)
		workload_burn(w->slice_iters);
	return;
}

/* The thread is held, the CPU is not: a call that waits on a database. */
static void
workload_sleep(const struct workload *w)
{
	uint64_t block = w->profile.block_ns;
	struct timespec ts = { (time_t)(block / 1000000000u),
	    (long)(block % 1000000000u) };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	return;
}

/*
 * The work beside the handoff (payload, blocking, latency samples) stays
 * out of line: the resume-only path is a dozen instructions, and a stack
 * frame there would be a cost every design pays on every dispatch.
 */
static __attribute__((noinline, cold)) void
coro_sampled(struct coro *c)
{
	struct workload *w = c->w;

	hist_record(&w->lat[(c - w->coros) % WORKLOAD_LAT_SLOTS],
	    workload_ns(CLOCK_MONOTONIC) - c->stamp);
	c->stamp = 0;
	return;
}

static __attribute__((noinline, cold)) void
coro_stamp(struct coro *c)
{

	c->stamp = workload_ns(CLOCK_MONOTONIC);
	return;
}

/*
 * One blocking call, counted while it lasts: the most under way at once
 * is a window's blocking_peak, measured where it happens. Two atomics
 * are nothing beside a block.
 */
static void
coro_block(struct coro *c)
{
	struct workload *w = c->w;
	unsigned int now, peak;

	now = atomic_fetch_add_explicit(&w->blocking, 1,
	    memory_order_relaxed) + 1;
	peak = atomic_load_explicit(&w->blocking_peak, memory_order_relaxed);
	while (now > peak && !atomic_compare_exchange_weak_explicit(
	    &w->blocking_peak, &peak, now, memory_order_relaxed,
	    memory_order_relaxed))
		;
	coro_bump(&c->blocked);
	w->profile.kind->block(w);
	atomic_fetch_sub_explicit(&w->blocking, 1, memory_order_relaxed);
	return;
}

static __attribute__((noinline)) void
coro_work(struct coro *c, uint64_t k)
{
	struct workload *w = c->w;

	if (w->payload_iters != 0)
		workload_burn(w->payload_iters);
	if (workload_blocks_some(&w->profile) &&
	    workload_blocks(w, c->phase + k, 1) != 0)
		coro_block(c);
	return;
}

/*
 * Counts a resumption of c through task[idx]; returns k, the count of
 * resumptions before it. Resumption k + 1 must come through
 * task[(k + 1) & 1], where dispatch k + 1 sent it. The out-of-turn count
 * is bumped in place, not in a call: a call would give every resumption
 * a stack frame.
 */
static inline uint64_t
coro_count(struct coro *c, unsigned int idx)
{
	uint64_t k = atomic_load_explicit(&c->runs, memory_order_relaxed);

	if (__builtin_expect(((k ^ idx) & 1) == 0, 0))
		atomic_fetch_add(&c->out_of_turn, 1);
	atomic_store_explicit(&c->runs, k + 1, memory_order_relaxed);
	return k;
}

/*
 * The next dispatch of c, from the resumption that came through task[idx]:
 * through the other task, the one its number calls for when this one ran
 * in turn (the first, from the spawner, is number 1: task[1]).
 */
static inline void
coro_dispatch(struct db_dispatcher *d, struct coro *c, unsigned int idx)
{

	coro_bump(&c->issued);
	db_dispatch(d, &c->task[idx ^ 1]);
	return;
}

/*
 * A held coroutine stays as it would retire: its last dispatch ran
 * (issued equals runs), so the count check holds whatever happens next.
 */
static __attribute__((noinline)) void
coro_hold(struct coro *c, struct workload *w)
{

	atomic_store(&c->held, true);
	if (atomic_fetch_add(&w->holding, 1) + 1 == w->n)
		w->held(w, w->held_arg);
	return;
}

/*
 * One resumption of c, whose issued count is k (only c's running copy
 * writes it); with full false, the compiler drops the extra work. The
 * next dispatch is a yield on the design, through the function resolved
 * at the start.
 */
static inline __attribute__((always_inline)) void
coro_run(struct coro *c, unsigned int idx, uint64_t k, bool full)
{
	struct workload *w = c->w;
	uint64_t runs;

	if (full && c->stamp != 0)
		coro_sampled(c);
	runs = coro_count(c, idx);
	if (full) {
		coro_work(c, runs);
		if (atomic_load_explicit(&w->stop, memory_order_relaxed)) {
			atomic_fetch_add(&w->retired, 1);
			return;
		}
		if (w->hold_every != 0 && (k & (w->hold_every - 1)) == 0) {
			coro_hold(c, w);
			return;
		}
		if ((k & w->latency_mask) == 0)
			coro_stamp(c);
	}
	/* Count before the dispatch: the moment after, c may run elsewhere. */
	atomic_store_explicit(&c->issued, k + 1, memory_order_relaxed);
	w->yield(w->d, &c->task[idx ^ 1]);
	return;
}

static __attribute__((noinline)) void
coro_run_full(struct coro *c, unsigned int idx, uint64_t k)
{

	coro_run(c, idx, k, true);
	return;
}

/*
 * The resume-only path calls nothing but the dispatch, so it needs no
 * stack frame; a resumption with anything more goes the full way: all of
 * them when there is work beside the handoff or the workload is stopping
 * (full_mask 0: only the full way looks at stop), else the one
 * that stamps a sampled dispatch (k & latency_mask == 0) and the one after
 * it, which records the sample. Both pass k & full_mask == 0, full_mask
 * being latency_mask without its low bit; with no sampling only a
 * coroutine's first resumption (k 1) goes the full way.
 */
static inline __attribute__((always_inline)) void
coro_resume(struct coro *c, unsigned int idx)
{
	uint64_t k = atomic_load_explicit(&c->issued, memory_order_relaxed);

	if (__builtin_expect((k & atomic_load_explicit(&c->w->full_mask,
	    memory_order_relaxed)) == 0, 0))
		coro_run_full(c, idx, k);
	else
		coro_run(c, idx, k, false);
	return;
}

static void
coro_resume0(struct db_task *t)
{

	coro_resume((struct coro *)((char *)t - offsetof(struct coro, task)), 0);
	return;
}

static void
coro_resume1(struct db_task *t)
{

	coro_resume((struct coro *)((char *)(t - 1) - offsetof(struct coro,
	    task)), 1);
	return;
}

/*
 * A split's resumption (workload.h), through task[idx]. At home a
 * handler step: its payload, and if the pattern blocks it, the hop to
 * the view instead of the block; the pattern is indexed by steps, a step
 * that hopped having taken two resumptions more. Away, the block, then
 * the hop back: a dispatch to d from a thread not its own, as a
 * continuation is dispatched back to its original dispatcher. Back, the
 * step ends and the coroutine yields as any other. Every resumption is
 * counted, stamped and sampled as one of coro_run's.
 */
static void
coro_split(struct coro *c, unsigned int idx)
{
	struct workload *w = c->w;
	uint64_t k = atomic_load_explicit(&c->issued, memory_order_relaxed);
	uint64_t runs, hops = atomic_load_explicit(&c->hops,
	    memory_order_relaxed);
	enum coro_hop hop = c->hop;
	struct db_dispatcher *to = NULL;

	if (c->stamp != 0)
		coro_sampled(c);
	runs = coro_count(c, idx);
	if (hop == CORO_HOME) {
		if (w->payload_iters != 0)
			workload_burn(w->payload_iters);
		if (workload_blocks(w, c->phase + runs - 2 * hops, 1) != 0)
			to = w->io;
	} else if (hop == CORO_AWAY) {
		coro_block(c);
		to = w->d;
	}
	if (atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		atomic_fetch_add(&w->retired, 1);
		return;
	}
	if ((k & w->latency_mask) == 0)
		coro_stamp(c);
	c->hop = to == NULL ? CORO_HOME : hop == CORO_HOME ? CORO_AWAY :
	    CORO_BACK;
	if (to == NULL) {
		atomic_store_explicit(&c->issued, k + 1, memory_order_relaxed);
		w->yield(w->d, &c->task[idx ^ 1]);
		return;
	}
	if (hop == CORO_HOME)
		atomic_store_explicit(&c->hops, hops + 1, memory_order_relaxed);
	/* Until it returns, this thread is in to; see workload_stop. */
	atomic_fetch_add(&w->hopping, 1);
	coro_dispatch(to, c, idx);
	atomic_fetch_sub(&w->hopping, 1);
	return;
}

static void
coro_split0(struct db_task *t)
{

	coro_split((struct coro *)((char *)t - offsetof(struct coro, task)), 0);
	return;
}

static void
coro_split1(struct db_task *t)
{

	coro_split((struct coro *)((char *)(t - 1) - offsetof(struct coro,
	    task)), 1);
	return;
}

/*
 * A request's resumption: on the I/O loop (even count) it ends the round
 * trip and dispatches the next request's handler; in the handler (odd) it
 * resumes the I/O loop's continuation. Round trips are sampled from the
 * handler's dispatch to the continuation's start.
 */
static void
coro_request(struct coro *c, unsigned int idx)
{
	struct workload *w = c->w;
	uint64_t k = coro_count(c, idx);
	bool on_io = (k & 1) == 0;

	if (on_io && c->stamp != 0)
		coro_sampled(c);
	if (!on_io && w->payload_iters != 0)
		workload_burn(w->payload_iters);
	if (atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		atomic_fetch_add(&w->retired, 1);
		return;
	}
	/* k is odd here: (k + 1) / 2 numbers the trips from 1, never 0. */
	k = atomic_load_explicit(&c->issued, memory_order_relaxed);
	if (on_io && ((k + 1) / WORKLOAD_RESUMES_PER_TRIP & w->latency_mask) == 0)
		coro_stamp(c);
	coro_dispatch(on_io ? w->d : w->io, c, idx);
	return;
}

static void
coro_request0(struct db_task *t)
{

	coro_request((struct coro *)((char *)t - offsetof(struct coro, task)),
	    0);
	return;
}

static void
coro_request1(struct db_task *t)
{

	coro_request((struct coro *)((char *)(t - 1) - offsetof(struct coro,
	    task)), 1);
	return;
}

/* Where a coroutine starts: a request on its I/O loop. */
static struct db_dispatcher *
workload_first(const struct workload *w)
{

	return w->profile.kind->round_trip ? w->io : w->d;
}

/*
 * The kinds. resume-only and the blocking profiles share a resumption
 * (coro_resume: one dispatch to the design); a request goes there and back
 * (coro_request). Round trips are sampled 16 times as often as dispatches:
 * one costs hundreds of ns on most designs, so that still leaves little
 * beside the handoff. A blocking profile samples every dispatch: a clock
 * read is nothing beside a block, and 1 in 256 would leave few samples.
 */
static const struct workload_kind workload_kinds[] = {
	{ .name = "resume", .about = "a resumption dispatches the next, "
	    "nothing else", .sample_every = 256,
	    .resume = { coro_resume0, coro_resume1 } },
	{ .name = "request", .about = "a handler and an I/O loop take turns "
	    "(a request's round trip)", .round_trip = true, .sample_every = 16,
	    .resume = { coro_request0, coro_request1 } },
	{ .name = "sleep", .about = "SHARE of resumptions sleep MS ms "
	    "(blocking I/O)", .takes_block = true, .sample_every = 1,
	    .resume = { coro_resume0, coro_resume1 }, .block = workload_sleep },
	{ .name = "spin", .about = "SHARE of resumptions compute MS ms",
	    .takes_block = true, .cpu_bound = true,
	    .sample_every = 1, .resume = { coro_resume0, coro_resume1 },
	    .block = workload_spin },
};

#define WORKLOAD_NKINDS	(sizeof(workload_kinds) / sizeof(workload_kinds[0]))

const struct workload_kind *
workload_kind_find(const char *name)
{
	size_t i;

	for (i = 0; i < WORKLOAD_NKINDS; i++)
		if (strcmp(workload_kinds[i].name, name) == 0)
			return &workload_kinds[i];
	return NULL;
}

const struct workload_kind *
workload_kind_at(size_t i)
{

	return i < WORKLOAD_NKINDS ? &workload_kinds[i] : NULL;
}

void
workload_kinds_text(char *buf, size_t len, bool blocking)
{
	const struct workload_kind *k;
	size_t i, n = 0, used = 0, seen = 0;

	for (i = 0; i < WORKLOAD_NKINDS; i++)
		n += !blocking || workload_kinds[i].takes_block;
	buf[0] = '\0';
	for (i = 0; i < WORKLOAD_NKINDS && used < len; i++) {
		k = &workload_kinds[i];
		if (blocking && !k->takes_block)
			continue;
		seen++;
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
		    seen == 1 ? "" : seen == n ? " or " : ", ", k->name,
		    k->takes_block ? ":MS:SHARE" : "");
	}
	return;
}

const struct workload_profile *
workload_default(void)
{
	static const struct workload_profile resume = {
	    .kind = &workload_kinds[0] };

	return &resume;
}

/*
 * A round trip is two dispatches, there and back; a blocking profile's
 * window against what Little's law allows with the threads that can hold
 * a blocking resumption at once (never more than the coroutines), and
 * the most that blocked at once. A split's hops are per second, each one
 * there and back.
 */
void
workload_figures(const struct workload_profile *p,
    const struct workload_window *win, cJSON *run)
{
	double trips = (double)win->dispatches / WORKLOAD_RESUMES_PER_TRIP;
	double ops = workload_ops(win->dispatches, win->hops) / win->wall_s;
	double ceiling;
	unsigned int threads = win->threads;

	if (p->kind->round_trip) {
		cJSON_AddNumberToObject(run, RF(round_trips_per_s), trips /
		    win->wall_s);
		cJSON_AddNumberToObject(run, RF(cpu_us_per_round_trip),
		    win->cpu_s * 1e6 / (trips > 0 ? trips : 1));
	}
	if (!workload_blocks_some(p))
		return;
	if (threads == 0 || threads > win->coroutines)
		threads = win->coroutines;
	ceiling = workload_ceiling(p, threads, win->cpus) /
	    WORKLOAD_RESUMES_PER_OP;
	cJSON_AddNumberToObject(run, RF(blocked_per_s), (double)win->blocked /
	    win->wall_s);
	cJSON_AddNumberToObject(run, RF(ceiling_ops_per_s), ceiling);
	cJSON_AddNumberToObject(run, RF(capacity_pct), ops / ceiling * 100);
	cJSON_AddNumberToObject(run, RF(blocking_peak), win->blocking_peak);
	if (win->split)
		cJSON_AddNumberToObject(run, RF(hops_per_s), (double)win->hops /
		    win->wall_s);
	return;
}

static void
workload_spawn(struct db_task *t)
{
	struct workload *w = (struct workload *)((char *)t -
	    offsetof(struct workload, spawner));
	unsigned int i;

	for (i = 0; i < w->n; i++)
		coro_dispatch(workload_first(w), &w->coros[i], 0);
	return;
}

static void
workload_fence(struct db_task *t)
{
	struct workload *w = (struct workload *)((char *)t -
	    offsetof(struct workload, fence));

	atomic_store(&w->fenced, 1);
	return;
}

/*
 * The coroutines start from one of the design's threads (the spawner
 * task: tokio::spawn from a task, and `go f()`, from main too: main is a
 * goroutine) or from this thread, outside it (tokio::spawn from the thread
 * that calls block_on).
 */
static void *
workload_starter(void *arg)
{
	struct workload *w = arg;

	if (w->spawn_outside)
		workload_spawn(&w->spawner);
	else
		db_dispatch(workload_first(w), &w->spawner);
	if (w->hold_every != 0) {
		atomic_store(&w->gated, 1);
		sem_wait(&w->gate);
	}
	return NULL;
}

int
workload_start(struct workload *w, struct db_dispatcher *d, unsigned int n,
    const struct workload_opts *o, const struct db_disp_config *cfg)
{
	uint64_t period;
	unsigned int i;
	int error;

	/* Only a resumption of its own dispatch holds (coro_run). */
	if (o->hold_every != 0 && (o->profile.kind != NULL &&
	    (o->profile.kind->round_trip || o->profile.kind->block != NULL)))
		return -EINVAL;
	memset(w, 0, sizeof(*w));
	w->d = d;
	w->yield = d->ops->yield != NULL ? d->ops->yield : d->ops->dispatch;
	w->io = o->io != NULL ? o->io : d;
	w->n = n;
	w->profile = o->profile.kind != NULL ? o->profile : *workload_default();
	w->split = workload_blocks_some(&w->profile) && w->io != d;
	w->payload_iters = o->payload_ns > 0 ?
	    workload_calibrate(o->payload_ns) : 0;
	w->slice_iters = w->profile.kind->cpu_bound ?
	    workload_calibrate(WORKLOAD_SPIN_SLICE_NS) : 0;
	w->latency_mask = o->latency_every > 0 && o->hold_every == 0 ?
	    o->latency_every - 1 : UINT64_MAX;
	w->hold_every = o->hold_every;
	w->held = o->held;
	w->held_arg = o->held_arg;
	atomic_init(&w->holding, 0);
	sem_init(&w->gate, 0, 0);
	atomic_init(&w->gated, 0);
	/* A hold goes the full way, the resumptions between it the short. */
	atomic_init(&w->full_mask, w->payload_iters != 0 ||
	    workload_blocks_some(&w->profile) ? 0 : o->hold_every != 0 ?
	    o->hold_every - 1 : w->latency_mask & ~1ull);
	w->spawn_outside = o->spawn == WORKLOAD_SPAWN_OUTSIDE;
	/* One blocking resumption per period; phases spread over it. */
	period = w->profile.share_ppm > 0 ?
	    WORKLOAD_SHARE_ONE / w->profile.share_ppm : 1;
	if (o->latency_every > 0 &&
	    (w->lat = calloc(WORKLOAD_LAT_SLOTS, sizeof(*w->lat))) == NULL)
		return -ENOMEM;
	atomic_init(&w->stop, 0);
	atomic_init(&w->retired, 0);
	atomic_init(&w->hopping, 0);
	atomic_init(&w->blocking, 0);
	atomic_init(&w->blocking_peak, 0);
	w->spawner = (struct db_task)DB_TASK_INIT(workload_spawn);
	w->fence = (struct db_task)DB_TASK_INIT(workload_fence);
	atomic_init(&w->fenced, 0);
	error = posix_memalign((void **)&w->coros, 64, n * sizeof(*w->coros));
	if (error != 0) {
		free(w->lat);
		return -error;
	}
	for (i = 0; i < n; i++) {
		w->coros[i].task[0] = (struct db_task)DB_TASK_INIT(
		    w->split ? coro_split0 : w->profile.kind->resume[0]);
		w->coros[i].task[1] = (struct db_task)DB_TASK_INIT(
		    w->split ? coro_split1 : w->profile.kind->resume[1]);
		atomic_init(&w->coros[i].runs, 0);
		atomic_init(&w->coros[i].issued, 0);
		atomic_init(&w->coros[i].blocked, 0);
		atomic_init(&w->coros[i].out_of_turn, 0);
		atomic_init(&w->coros[i].hops, 0);
		atomic_init(&w->coros[i].held, false);
		w->coros[i].hop = CORO_HOME;
		w->coros[i].stamp = 0;
		w->coros[i].phase = period * i / n;
		w->coros[i].w = w;
	}
	error = disp_thread_spawn(cfg, 0, &w->starter, workload_starter, w);
	if (error != 0) {
		free(w->coros);
		free(w->lat);
	}
	return error;
}

bool
workload_starter_gated(struct workload *w)
{

	return atomic_load(&w->gated) || pthread_equal(pthread_self(),
	    w->starter);
}

/*
 * Sends on each coroutine that holds now, by the dispatch it started
 * with; each hold is taken once, whoever looks.
 */
static void
workload_send_held(struct workload *w)
{
	struct coro *c;
	unsigned int i;
	uint64_t k;

	for (i = 0; i < w->n; i++) {
		c = &w->coros[i];
		if (!atomic_exchange(&c->held, false))
			continue;
		k = atomic_load_explicit(&c->issued, memory_order_relaxed);
		coro_dispatch(workload_first(w), c, (unsigned int)(k & 1));
	}
	return;
}

bool
workload_release(struct workload *w)
{
	unsigned int all = w->n;

	if (!atomic_compare_exchange_strong(&w->holding, &all, 0))
		return false;
	workload_send_held(w);
	return true;
}

/*
 * Waits for every coroutine to retire; in a counted window, one that
 * held before it saw the stop is sent on to retire, at any time.
 */
static bool
workload_retire(struct workload *w, double deadline)
{
	struct timespec nap = { 0, 1000000 };

	for (;;) {
		if (w->hold_every != 0)
			workload_send_held(w);
		if (atomic_load(&w->retired) >= w->n)
			return true;
		if (measure_now() > deadline)
			return false;
		nanosleep(&nap, NULL);
	}
}

uint64_t
workload_count(struct workload *w, uint64_t *per)
{
	uint64_t v, sum = 0;
	unsigned int i;

	for (i = 0; i < w->n; i++) {
		v = atomic_load_explicit(&w->coros[i].runs, memory_order_relaxed);
		if (per != NULL)
			per[i] = v;
		sum += v;
	}
	return sum;
}

/* Waits for *v to rise to n, or with down to fall to it. */
static bool
workload_wait(_Atomic unsigned int *v, unsigned int n, bool down,
    double deadline)
{
	struct timespec nap = { 0, 1000000 };

	while (down ? atomic_load(v) > n : atomic_load(v) < n) {
		if (measure_now() > deadline)
			return false;
		nanosleep(&nap, NULL);
	}
	return true;
}

bool
workload_stop(struct workload *w, double timeout_s)
{
	double deadline = measure_now() + timeout_s;
	bool back;

	atomic_store(&w->stop, 1);
	atomic_store(&w->full_mask, 0);
	/*
	 * Once all have retired no hop starts: one still counted in hopping
	 * is a thread inside a dispatch to d or the view, both about to be
	 * shut down.
	 */
	back = workload_retire(w, deadline);
	back &= workload_wait(&w->hopping, 0, true, deadline);
	if (w->io != w->d) {
		db_dispatch(w->io, &w->fence);
		back &= workload_wait(&w->fenced, 1, false, measure_now() +
		    timeout_s);
	}
	/* On `inline` the starter runs the coroutines until they retire. */
	if (w->hold_every != 0)
		sem_post(&w->gate);
	pthread_join(w->starter, NULL);
	return back;
}

unsigned int
workload_pending(struct workload *w, unsigned int *idx, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < w->n; i++) {
		if (atomic_load(&w->coros[i].issued) ==
		    atomic_load(&w->coros[i].runs))
			continue;
		if (n < max && idx != NULL)
			idx[n] = i;
		n++;
	}
	return n;
}

void
workload_check(struct workload *w, uint64_t ran, struct workload_check *c)
{
	uint64_t runs, issued;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->retired = atomic_load(&w->retired);
	for (i = 0; i < w->n; i++) {
		runs = atomic_load(&w->coros[i].runs);
		issued = atomic_load(&w->coros[i].issued);
		c->runs += runs;
		c->out_of_turn += atomic_load(&w->coros[i].out_of_turn);
		if (issued > runs)
			c->lost += issued - runs;
		else
			c->doubled += runs - issued;
	}
	c->figures_exact = c->out_of_turn == 0;
	/*
	 * The dispatchers ran every resumption, the spawner (unless the
	 * coroutines started outside) and the fence.
	 */
	c->ok = c->lost == 0 && c->doubled == 0 && c->figures_exact &&
	    c->retired == w->n && ran == c->runs + !w->spawn_outside +
	    (w->io != w->d);
	return;
}

void
workload_latency(struct workload *w, struct hist_snap *s, int sign)
{
	unsigned int i;

	for (i = 0; w->lat != NULL && i < WORKLOAD_LAT_SLOTS; i++)
		hist_add(s, &w->lat[i], sign);
	return;
}

uint64_t
workload_blocked(struct workload *w)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < w->n; i++)
		sum += atomic_load_explicit(&w->coros[i].blocked,
		    memory_order_relaxed);
	return sum;
}

uint64_t
workload_hops(struct workload *w)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < w->n; i++)
		sum += atomic_load_explicit(&w->coros[i].hops,
		    memory_order_relaxed);
	return sum;
}

unsigned int
workload_blocking_peak(struct workload *w)
{

	return atomic_exchange(&w->blocking_peak, atomic_load(&w->blocking));
}

void
workload_fini(struct workload *w)
{
	sem_destroy(&w->gate);
	free(w->lat);
	w->lat = NULL;
	free(w->coros);
	w->coros = NULL;
	return;
}
