/*
 * watchdog.h - a run whose progress stops is a hung run, not a slow one.
 *
 * A thread looks at the workload's resumption count every
 * WATCHDOG_TICK_MS; when it has not moved for stall_s, the run is
 * declared hung and what can be had of its state is kept: each
 * coroutine's progress, each thread's scheduler state and wait channel
 * (/proc), and the stacks of every thread when gdb is installed.
 */
#ifndef BENCH_WATCHDOG_H
#define BENCH_WATCHDOG_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "workload.h"

#define WATCHDOG_TICK_MS	100
#define WATCHDOG_STALL_S	10.0	/* default, and never under 2 blocks */

struct watchdog {
	struct workload *w;
	double stall_s;
	pthread_t tid;
	sem_t wake;			/* posted by watchdog_stop: no tick to wait out */
	_Atomic int stop;
	_Atomic int fired;
	cJSON *report;			/* when fired: what was seen */
	/* watchdog_guard's, published by the store to guarding: */
	double guard_until;
	void (*wedged)(void *);
	void *wedged_arg;
	_Atomic int guarding;
};

/* Stall time for a profile: the default, or long enough for its blocks. */
double watchdog_stall_for(const struct workload_profile *p, double asked);

int watchdog_start(struct watchdog *wd, struct workload *w, double stall_s);

/* True once the run has been declared hung (wd->report is then set). */
bool watchdog_fired(struct watchdog *wd);

/*
 * The run is being stopped: from now on the watchdog looks at the clock,
 * not at progress. Unless watchdog_stop comes within seconds, a thread of
 * the run cannot be stopped, nothing it uses may be freed, and no caller
 * may go on: the watchdog calls wedged(arg), which must end the process.
 * Until then the caller touches nothing wedged reads.
 */
void watchdog_guard(struct watchdog *wd, double seconds,
    void (*wedged)(void *), void *arg);

/* Stops the thread; the report, if any, stays in wd->report. */
void watchdog_stop(struct watchdog *wd);

/*
 * What can be seen of a run that does not move: each coroutine's
 * progress, each thread's state and wait channel, and the stacks.
 */
cJSON *watchdog_report(struct workload *w, double still_s);

/* Every thread of process pid: its id, name, scheduler state, wait channel. */
cJSON *watchdog_threads(pid_t pid);

/*
 * The stacks of every thread of process pid, by gdb in batch mode; NULL if
 * gdb is missing or cannot attach. The caller frees.
 */
char *watchdog_stacks(pid_t pid);

#endif /* BENCH_WATCHDOG_H */
