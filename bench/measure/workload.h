/*
 * workload.h - the resume-only workload (WORKLOAD.md): C coroutines that
 * do nothing but count their resumption and dispatch themselves again.
 * Four resumptions make one op.
 *
 * A coroutine is a stackless continuation: a struct holding its task, so a
 * dispatch allocates nothing. One coroutine runs on one thread at a time;
 * its counters sit on its own cache line and are written only by the
 * thread running it.
 *
 * A profile may make a share of the resumptions block, as a handler that
 * calls a database does: sleeping (the thread is held, the CPU is not) or
 * spinning (both are held). Which resumptions block is fixed, not drawn:
 * each coroutine blocks on exactly that share of its resumptions, its
 * phase spread so the coroutines do not block in step.
 *
 * The request profile is a server's round trip instead: an I/O loop takes
 * a request and dispatches its handler, the handler resumes the I/O loop's
 * continuation, which takes the next request; each coroutine is one
 * request in flight. Its resumptions alternate between the I/O loop and
 * the dispatcher: two dispatches, two resumptions, make one round trip.
 * On a design whose threads are event loops (DB_DISP_LOOPS) the I/O loop is
 * the coroutine's own loop and the handler never leaves it, as a Netty
 * handler does not; on any other, it is a separate event loop.
 *
 * A blocking profile may be split, as kotlinx runs a blocking call in
 * withContext(Dispatchers.IO) { call() }: a handler step that blocks
 * dispatches its coroutine to a view (io: a limitedParallelism(K) view
 * over a pool of its own), whose thread blocks and dispatches it back to
 * d, as a DispatchedContinuation resumes on its original dispatcher; the
 * resumption back home ends the step. Each hop, there and back, is two
 * real dispatches and two resumptions beside the handler's steps: the
 * blocking pattern follows the steps, and an op is four steps.
 *
 * Dispatch latency (dispatch to the start of the resumption) is sampled on
 * one dispatch in latency_every of each coroutine; under the request
 * profile, the round trip (the handler's dispatch to the start of the
 * continuation).
 */
#ifndef BENCH_WORKLOAD_H
#define BENCH_WORKLOAD_H

#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <dispatchbench/dispatcher.h>

#include "hist.h"

#define WORKLOAD_RESUMES_PER_OP	4
#define WORKLOAD_SHARE_ONE	1000000u	/* share in parts per million */
#define WORKLOAD_SPIN_SLICE_NS	10000u
#define WORKLOAD_RESUMES_PER_TRIP 2	/* request: handler, continuation */

struct workload;
struct workload_profile;

/*
 * The kinds of workload, one entry each: what a profile is called, how a
 * resumption runs, how it blocks, what it samples by default and the
 * figures it adds to a run. Every other file asks the kind, never which
 * one it is. A new kind is an entry in workload.c's table.
 */
struct workload_kind {
	const char *name;		/* "resume", "request", "sleep", "spin" */
	const char *about;		/* for `list` */
	bool takes_block;		/* written NAME:MS:SHARE */
	bool round_trip;		/* resumptions alternate an I/O loop and a handler */
	bool cpu_bound;			/* a block holds a CPU as well as a thread */
	unsigned int sample_every;	/* latency: 1 dispatch in this many */
	db_task_fn *resume[2];	/* a resumption through task[0], task[1] */
	void (*block)(const struct workload *);	/* NULL: nothing blocks */
};

/* The kind called name, or NULL; the i-th kind, or NULL past the last. */
const struct workload_kind *workload_kind_find(const char *name);
const struct workload_kind *workload_kind_at(size_t i);

/*
 * The kinds as a user writes them ("resume, request, sleep:MS:SHARE or
 * spin:MS:SHARE"); with blocking, only those that block.
 */
void workload_kinds_text(char *buf, size_t len, bool blocking);

struct workload_profile {
	const struct workload_kind *kind;
	uint64_t block_ns;
	uint32_t share_ppm;		/* of resumptions that block */
};

/* What the window measured, for a kind's own figures. */
struct workload_window {
	double wall_s, cpu_s;
	uint64_t dispatches;
	uint64_t blocked;		/* resumptions that blocked */
	uint64_t hops;			/* a split's hops, each there and back */
	unsigned int blocking_peak;	/* most coroutines blocked at once */
	bool split;			/* blocking steps hopped to a view */
	unsigned int threads;		/* that can hold a blocking resumption
					   at once: a split's view width */
	unsigned int coroutines;
	unsigned int cpus;
};

static inline bool
workload_blocks_some(const struct workload_profile *p)
{

	return p->kind->block != NULL;
}

/*
 * The ops among resumptions: a split's hop there and back is two
 * resumptions beside the handler's steps, and four steps make an op.
 */
static inline double
workload_ops(uint64_t resumptions, uint64_t hops)
{

	return ((double)resumptions - 2.0 * (double)hops) /
	    WORKLOAD_RESUMES_PER_OP;
}

enum workload_spawn {
	WORKLOAD_SPAWN_INSIDE,		/* from a task on one of the design's threads */
	WORKLOAD_SPAWN_OUTSIDE		/* from a thread of its own */
};

struct workload_opts {
	struct workload_profile profile;	/* zero: resume-only */
	enum workload_spawn spawn;
	unsigned int payload_ns;	/* busy work on every resumption */
	unsigned int latency_every;	/* power of two; 0: no sampling */
	/*
	 * A counted window (count.h): every coroutine holds, not dispatching
	 * itself again, at each resumption numbered a multiple of hold_every
	 * (a power of two; 0: none holds), and the last of them to hold calls
	 * held(w, held_arg) from that resumption, on the design's thread. No
	 * latency is sampled then: a sample reads the clock.
	 */
	uint64_t hold_every;
	void (*held)(struct workload *w, void *arg);
	void *held_arg;
	/*
	 * request: the I/O loop; a blocking profile: the view its blocking
	 * calls hop to (a split). NULL: d's own loop, or it blocks in place.
	 */
	struct db_dispatcher *io;
};

/* Where a split coroutine's step is. */
enum coro_hop {
	CORO_HOME,			/* a handler step, on d */
	CORO_AWAY,			/* its blocking call, on the view */
	CORO_BACK			/* back on d: the step ends */
};

/*
 * Dispatch k of a coroutine travels as task[k & 1], and resumption k must
 * come through that task: a design that runs one dispatch twice makes a
 * resumption come through the wrong one, which counts as out of turn. One
 * task would let a doubled dispatch and a lost one on the same coroutine
 * cancel out in its totals.
 */
struct coro {
	struct db_task task[2];
	_Atomic uint64_t runs;		/* resumptions */
	_Atomic uint64_t issued;	/* dispatches of this coroutine */
	struct workload *w;
	uint64_t stamp;			/* ns at a sampled dispatch, else 0 */
	uint64_t phase;			/* where its blocking pattern starts */
	_Atomic uint64_t blocked;	/* resumptions that blocked */
	_Atomic uint64_t out_of_turn;	/* resumptions through the wrong task */
	/*
	 * A split: hops out to the view (each one there and back), and where
	 * the step is, written by the thread running c and handed over by
	 * the dispatch, as stamp is.
	 */
	_Atomic uint64_t hops;
	enum coro_hop hop;
	_Atomic bool held;		/* a counted window's hold (workload_opts) */
} __attribute__((aligned(64)));

/*
 * Latency histograms: coroutine i records into slot i % SLOTS, so their
 * memory does not grow with the threads whose memory is being measured,
 * and a sampled dispatch rarely meets another on the same counters.
 */
#define WORKLOAD_LAT_SLOTS	16

struct workload {
	/*
	 * All the resume-only path reads of the workload, in one line: the
	 * design, its yield resolved once (not through d's ops on every
	 * dispatch), and the mask that sends a resumption the full way (see
	 * coro_resume).
	 */
	struct db_dispatcher *d;
	void (*yield)(struct db_dispatcher *d, struct db_task *t);
	_Atomic uint64_t full_mask;
	_Atomic int stop;
	struct db_dispatcher *io;		/* request: where continuations run;
					   a split: the view */
	bool split;			/* blocking steps hop to io and back */
	unsigned int n;
	struct coro *coros;
	struct db_task spawner;	/* launches the n coroutines */
	uint64_t hold_every;		/* workload_opts' */
	_Atomic unsigned int holding;	/* coroutines held since the release */
	void (*held)(struct workload *w, void *arg);
	void *held_arg;
	/*
	 * request on a separate I/O loop: when every coroutine has retired,
	 * the loop may still be inside its last dispatch to d, whose
	 * shutdown does not wait for a thread it does not own. The fence
	 * runs on the loop after that task returns. A split's view has K
	 * threads, and its fence may run beside a hop still under way: each
	 * hop counts itself in hopping while it dispatches.
	 */
	struct db_task fence;
	_Atomic unsigned int fenced;
	_Atomic unsigned int retired;
	_Atomic unsigned int hopping;	/* hop dispatches under way */
	/* Coroutines blocked now, and the most since the last look. */
	_Atomic unsigned int blocking __attribute__((aligned(64)));
	_Atomic unsigned int blocking_peak;
	struct workload_profile profile;
	uint64_t payload_iters;		/* busy loop per resumption, 0: none */
	uint64_t slice_iters;		/* WORKLOAD_SPIN's loop, one slice */
	uint64_t latency_mask;		/* sample when issued & mask == 0 */
	bool spawn_outside;		/* the starter dispatches the coroutines */
	struct hist *lat;		/* WORKLOAD_LAT_SLOTS, NULL: unsampled */
	pthread_t starter;
	/*
	 * A counted window's: the starting thread waits here once it has
	 * started the coroutines (on `inline`, once they all hold), until
	 * the workload stops, so that it ends in no window.
	 */
	sem_t gate;
	_Atomic int gated;		/* it is about to wait there */
};

struct workload_check {
	bool ok;
	uint64_t runs;			/* sum of resumptions */
	uint64_t lost;			/* dispatched, never run */
	uint64_t doubled;		/* run more often than dispatched */
	uint64_t out_of_turn;		/* resumptions through the wrong task */
	unsigned int retired;
	/*
	 * False when a resumption came out of turn: two copies of a coroutine
	 * ran, its counters raced, and lost and doubled are not to be trusted.
	 */
	bool figures_exact;
};

/* The longest a resumption may block: 10 s. */
#define WORKLOAD_BLOCK_MS_MAX	10000

/*
 * Whether a blocking profile's MS and SHARE are in range: 0, or -1 and
 * why naming the one that is not and the range it must be in.
 */
int workload_block_range(double ms, double share, char *why, size_t len);

/*
 * "resume", "request", "sleep:MS:SHARE" or "spin:MS:SHARE" (SHARE in
 * (0, 1]). -1 and one line in err if malformed or out of range.
 */
int workload_profile_parse(struct workload_profile *p, const char *s,
    char *err, size_t errlen);
void workload_profile_format(const struct workload_profile *p, char *buf,
    size_t len);

/*
 * iters turns of an empty loop the optimizer cannot remove, never
 * inlined: the payload's work, and the calibration probes' bare loop.
 */
void workload_burn(uint64_t iters);

/* The default profile (resume-only). */
const struct workload_profile *workload_default(void);

/*
 * The most resumptions per second the profile allows with `threads` able
 * to run resumptions at once and `cpus` CPUs (Little's law: each blocking
 * resumption holds a thread for block_ns, a spinning one a CPU too); 0 for
 * a profile that never blocks.
 */
double workload_ceiling(const struct workload_profile *p, unsigned int threads,
    unsigned int cpus);

/* The seconds of blocking an op holds a thread for, on average; 0: none. */
double workload_hold_s(const struct workload_profile *p);

/* The profile's own figures of a window, added to run. */
void workload_figures(const struct workload_profile *p,
    const struct workload_window *win, cJSON *run);

/*
 * Starts n coroutines on d from a new thread (cfg's thread_start applies,
 * index 0): on `inline` that thread is where every coroutine runs.
 */
int workload_start(struct workload *w, struct db_dispatcher *d, unsigned int n,
    const struct workload_opts *o, const struct db_disp_config *cfg);

/*
 * Whether the starting thread is at its gate (about to wait there, which
 * under Valgrind, running one thread at a time, it does before any other
 * runs), or is the calling thread (on `inline`, where it runs them all).
 */
bool workload_starter_gated(struct workload *w);

/*
 * Sends every coroutine on again once all of them hold, by the dispatch
 * they started with (from held()). False if they do not all hold, or
 * another call has sent them on. A stop sends on those held, to retire.
 */
bool workload_release(struct workload *w);

/* Sum of resumptions so far; each coroutine's count into per if not NULL. */
uint64_t workload_count(struct workload *w, uint64_t *per);

/*
 * Asks every coroutine to stop at its next resumption and waits up to
 * timeout_s for all of them and for every hop to leave its dispatch,
 * then as long again for a separate I/O loop (or view) to leave its last
 * dispatch to d, and joins the starting thread. False if some coroutine
 * did not come back in time (its task is lost, or stranded in the
 * design, which then runs it at shutdown) or the loop did not leave.
 * Either way d is shut down next, before the I/O loop or view, which
 * d's workers dispatch to until they are joined; a stopped coroutine
 * that runs again retires at once.
 */
bool workload_stop(struct workload *w, double timeout_s);

/*
 * The coroutines whose last dispatch has not run yet: up to max of their
 * indices into idx (if not NULL); returns how many there are.
 */
unsigned int workload_pending(struct workload *w, unsigned int *idx,
    unsigned int max);

/* Adds the latency histograms into s (sign -1: subtracts). */
void workload_latency(struct workload *w, struct hist_snap *s, int sign);

/* Resumptions that blocked so far, counted where they block. */
uint64_t workload_blocked(struct workload *w);

/* A split's hops so far, each there and back, counted where they leave. */
uint64_t workload_hops(struct workload *w);

/*
 * The most coroutines blocked at once since the last call (or the
 * start); the count starts again from those blocked now.
 */
unsigned int workload_blocking_peak(struct workload *w);

/* After the dispatcher's shutdown: every dispatch ran exactly once? */
void workload_check(struct workload *w, uint64_t ran, struct workload_check *c);

void workload_fini(struct workload *w);

#endif /* BENCH_WORKLOAD_H */
