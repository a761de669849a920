/*
 * dispatchbench/dispatcher.h - the dispatcher interface of dispatchbench,
 * version 9 (2 added real and beside; 3 passes thread_start the thread's
 * index; 4 adds the lock counters and epoll_waits, so struct db_disp_stats
 * grows; 5 puts db_ before every name and keeps the suite's own designs'
 * knobs behind db_disp_config.knobs; 6 adds slot_stall_ns; 7 keeps the
 * designs' own task fields in two words of the design's, sizes the
 * counters for DB_DISP_COUNTER_MAX, leaves the counters' names to the
 * suite, and reads as C++; 8 no longer includes queue.h, which a design
 * that uses its queue includes itself: no layout moved, and a design of
 * 7 loads; 9 appends the counter g_switches; 10 the counter budgets).
 *
 * A dispatcher is a long-lived handle; a dispatch is a request to run one
 * task on one of its threads. A design is a const struct db_disp_ops: the
 * suite's own designs are written against this header, and a design of
 * your own is one too, built as a shared object that exports it (by
 * default as `dispatchbench_dispatcher`) and run with
 * `--dispatcher ./libyours.so` or `--dispatcher PATH:SYMBOL`. Start the
 * table with DB_DISP_OPS_HEAD; the suite refuses a table of another ABI
 * version or size. Every thread the design starts calls
 * cfg->thread_start(cfg->thread_arg, index) first, when it is not NULL.
 *
 * The suite loads a table of any version from DB_DISP_ABI_OLDEST to its
 * own: a version that only appends a counter keeps every layout, and a
 * design built against the one before still loads.
 */
#ifndef DISPATCHBENCH_DISPATCHER_H
#define DISPATCHBENCH_DISPATCHER_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DB_DISP_ABI_VERSION	10
#define DB_DISP_ABI_OLDEST	7	/* the oldest whose layouts are these */
#define DB_DISP_OPS_HEAD						\
	.abi = DB_DISP_ABI_VERSION, .size = sizeof(struct db_disp_ops)

struct db_task;
typedef void db_task_fn(struct db_task *);
/* A design that uses its queue includes <dispatchbench/queue.h>. */
struct db_queue_ops;

/* A word of a task that the design holding it keeps as it likes. */
union db_task_word {
	void *ptr;
	uint64_t u64;
};

/*
 * A task is embedded in its owner (a coroutine's continuation), so a
 * dispatch allocates nothing. A task is in at most one queue at a time;
 * next and word belong to the dispatcher while it holds the task, zero
 * when its owner first dispatches it: a list link, and what the design
 * keeps of a task (the loop it belongs to, a state word, a time).
 * Atomic access to a word is the design's (__atomic builtins, or
 * std::atomic_ref in C++).
 */
struct db_task {
	db_task_fn *fn;
	struct db_task *next;
	union db_task_word word[2];
};

#define DB_TASK_INIT(f)	{ (f), 0, { { 0 }, { 0 } } }

struct db_disp_config {
	unsigned int workers;		/* the design's width: see docs/designs.md */
	const struct db_queue_ops *queue;	/* DB_DISP_USES_QUEUE: its queue */
	unsigned int queue_capacity;	/* bounded queues */
	/*
	 * The suite's own designs' knobs, opaque to a design of your own:
	 * they change with those designs, this header does not.
	 */
	const void *knobs;

	/*
	 * Called first on every thread a dispatcher starts, with the
	 * thread's place in the design: worker or loop i of a fixed width
	 * (0 .. workers - 1), and for a pool that starts threads on demand
	 * the number of its threads alive when it made this one. The suite
	 * binds the thread to the plan's PU for that index, never by the
	 * order in which threads happen to start, and checks it there.
	 */
	void (*thread_start)(void *arg, unsigned int index);
	void *thread_arg;
};

/*
 * What a design counts to show its mechanism: X(name, what), reported per
 * task run as name_per_dispatch. A design lists the ones it keeps in its
 * ops' counts (DB_DISP_COUNT(name)); the others are not reported for it.
 */
#define DB_DISP_COUNTERS(X)						\
	X(injected,	"pushes to the shared injection (global) queue")	\
	X(steals,	"steals that took a task")			\
	X(stolen,	"tasks moved by steals")			\
	X(lifo_hits,	"tasks run from a LIFO slot")			\
	X(deferred,	"tasks deferred until the driver was polled")	\
	X(driver_polls,	"driver polls: a loop's epoll_wait(0), or a stealing " \
	    "worker's park_timeout(0) that won the driver's try-lock")	\
	X(spins,	"idle spins begun before a park")		\
	X(unparks,	"parked threads woken")				\
	X(slot_waits,	"queue pops that waited on a reserved, empty slot") \
	X(freezes,	"full queue rings frozen and copied")		\
	X(slot_stall_ns, "CPU ns spun on a queue slot owed by a thread not "	\
	    "running")							\
	X(in_place,	"tasks the runtime ran at once on the dispatching thread") \
	X(epoll_waits,	"driver polls that called epoll_wait(0): an I/O driver's") \
	X(lock_spins,	"runtime lock acquisitions that spun (Go lock2)")	\
	X(lock_yields,	"CPU yields (osyield) in runtime lock acquisitions")	\
	X(lock_sleeps,	"futex sleeps on the runtime lock")		\
	X(lock_wakes,	"futex wakes in runtime lock releases (Go unlock2)")	\
	X(g_switches,	"switches between a worker's stack and a goroutine's "	\
	    "(Go gogo and mcall)")					\
	X(budgets,	"coop budgets a worker gave, each to a task and the LIFO " \
	    "slot's tasks run after it (Tokio's coop::budget)")

#define DB_DISP_COUNTER_ENUM(n, what)	DB_DISP_C_##n,
enum db_disp_counter {
	DB_DISP_COUNTERS(DB_DISP_COUNTER_ENUM) DB_DISP_NCOUNTERS
};
#undef DB_DISP_COUNTER_ENUM

#define DB_DISP_COUNT(n)	(1u << DB_DISP_C_##n)

/*
 * The counters a struct db_disp_stats holds room for, whatever this
 * version lists: a counter appended keeps its size (counts is a mask of
 * as many bits).
 */
#define DB_DISP_COUNTER_MAX	32

/* Filled by shutdown, once every thread is joined. */
struct db_disp_stats {
	uint64_t ran;			/* tasks run */
	uint64_t spilled;		/* dispatches a full queue turned away */
	unsigned int threads_started;
	unsigned int threads_peak;	/* most threads alive at once */
	uint64_t count[DB_DISP_COUNTER_MAX];	/* over the whole run */
	unsigned int counted;		/* DB_DISP_COUNT()s its queues kept */
};

struct db_dispatcher {
	const struct db_disp_ops *ops;
};

#define DB_DISP_USES_QUEUE	(1u << 0)	/* --queue applies */
#define DB_DISP_GROWS		(1u << 1)	/* starts threads on demand: no
						   bound is a width */
#define DB_DISP_LOOPS		(1u << 3)	/* its threads are I/O event
						   loops: its own I/O, and the
						   I/O of any other design */
#define DB_DISP_NO_WIDTH	(1u << 4)	/* no threads of its own: one
						   cell, 1 worker */
#define DB_DISP_PROGRAM		(1u << 6)	/* the suite's only: a program
						   of its own, no functions */

struct db_disp_ops {
	unsigned int abi;		/* DB_DISP_ABI_VERSION */
	unsigned int size;		/* sizeof(struct db_disp_ops) */
	const char *name;
	const char *model;
	/*
	 * A real runtime, driven through its public API: its library and
	 * version ("GLib 2.74.6"); NULL for a model. beside: the designs
	 * that model it, a comma list of names, drawn beside it.
	 */
	const char *real;
	const char *beside;
	unsigned int flags;
	unsigned int counts;		/* DB_DISP_COUNT()s it keeps */

	int (*create)(struct db_dispatcher **dp, const struct db_disp_config *cfg);
	/* Callable from any thread, including the dispatcher's own. */
	void (*dispatch)(struct db_dispatcher *d, struct db_task *t);
	/*
	 * The task running on the calling thread, one of d's, continues as t
	 * once it returns: a yield (Tokio yield_now, Go Gosched, kotlinx
	 * dispatchYield). At most once per task run; NULL: dispatch.
	 */
	void (*yield)(struct db_dispatcher *d, struct db_task *t);
	/*
	 * Runs what is queued, joins every thread, fills st and frees d. The
	 * caller has stopped dispatching.
	 */
	void (*shutdown)(struct db_dispatcher *d, struct db_disp_stats *st);
};

static inline void
db_dispatch(struct db_dispatcher *d, struct db_task *t)
{

	d->ops->dispatch(d, t);
}

static inline void
db_yield(struct db_dispatcher *d, struct db_task *t)
{

	(d->ops->yield != NULL ? d->ops->yield : d->ops->dispatch)(d, t);
}

static inline void
db_shutdown(struct db_dispatcher *d, struct db_disp_stats *st)
{

	if (st != NULL)
		memset(st, 0, sizeof(*st));
	d->ops->shutdown(d, st);
}

#ifdef __cplusplus
}
#endif

#endif /* DISPATCHBENCH_DISPATCHER_H */
