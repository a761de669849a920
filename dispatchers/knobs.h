/*
 * knobs.h - the suite's own designs' knobs: what db_disp_config.knobs
 * points to. A design of your own never sees them (it gets NULL), so a
 * knob of a built-in design is a field here and an entry of the parameter
 * table that names the designs owning it, never a change of the installed
 * header.
 */
#ifndef DISPATCHERS_KNOBS_H
#define DISPATCHERS_KNOBS_H

#include <dispatchbench/dispatcher.h>

enum disp_wake {
	DISP_WAKE_EVERY,	/* every dispatch unparks a worker (kotlinx) */
	DISP_WAKE_LAZY		/* only when no worker spins (Go wakep, Tokio) */
};

/* stealing: zero values are the design's own defaults (Tokio's). */
enum disp_lifo {
	DISP_LIFO_ON,		/* a worker's own dispatch takes its LIFO slot */
	DISP_LIFO_OFF		/* ... goes to the back of its run queue */
};

enum disp_search {
	DISP_SEARCH_HALF,	/* fewer than half of the workers search at once */
	DISP_SEARCH_ALL		/* every idle worker searches */
};

/* stealing: the path of a task that continues itself (disp_yield). */
enum disp_yield {
	DISP_YIELD_WAKE_OTHER,	/* as if woken by another task: the LIFO slot */
	DISP_YIELD_SELF_WAKE,	/* Tokio wake_by_ref in its own poll: run queue */
	DISP_YIELD_TOKIO,	/* Tokio yield_now: deferred past a driver poll */
	DISP_YIELD_GO		/* Go Gosched: the global run queue */
};

/* eventloop: where a resumption comes from. */
enum disp_from {
	DISP_FROM_HOME,		/* its own loop: Ktor's resumption in place */
	DISP_FROM_OUTSIDE,	/* another thread: Netty's execute() */
	DISP_FROM_EXECUTE	/* its own loop through Netty's execute() */
};

/* stealing: the runtime's own work around a handoff (task states, driver). */
enum disp_floor {
	DISP_FLOOR_ON,		/* no I/O driver: a driver poll is a CAS */
	DISP_FLOOR_OFF,		/* the queues and the wake-ups alone */
	DISP_FLOOR_IO		/* the floor plus an I/O driver: epoll_wait(0)
				   on each driver poll */
};

#define DISP_SPINS_DEFAULT	(-1)	/* the design's own default */

struct disp_knobs {
	unsigned int pool;		/* limited: its scheduler's core size;
					   0: max(CPUs, 2) */
	const struct db_queue_ops *pool_queue;	/* default, limited: the
					   scheduler's global queues */
	int spins;			/* polls of an idle worker before it
					   parks */
	enum disp_wake wake;		/* shared */
	double keepalive_s;		/* rendezvous: idle time before a
					   thread retires */
	enum disp_lifo lifo;		/* stealing */
	enum disp_search searchers;	/* stealing */
	enum disp_yield yield_path;	/* stealing */
	enum disp_floor floor;		/* stealing */
	enum disp_from from;		/* eventloop, and the real loops */
};

/* Every knob at its design's own default. */
#define DISP_KNOBS_INIT	{ .spins = DISP_SPINS_DEFAULT, .keepalive_s = 60 }

/* cfg's knobs, or the defaults where the caller gave none. */
static inline struct disp_knobs
disp_knobs(const struct db_disp_config *cfg)
{
	static const struct disp_knobs dflt = DISP_KNOBS_INIT;

	return cfg->knobs != NULL ? *(const struct disp_knobs *)cfg->knobs :
	    dflt;
}

#endif /* DISPATCHERS_KNOBS_H */
