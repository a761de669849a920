/*
 * counters.h - the kernel's event counters over a measured window, through
 * perf_event_open(2): one event per counter, on the whole process (inherit:
 * every thread started after counters_open, and what a thread that exits
 * counted), enabled at the window's start and read at its end.
 *
 * Always the software events (task clock, context switches, CPU
 * migrations, page faults); the hardware ones (cycles, instructions, cache
 * references and misses, branch misses) where the machine has a PMU; and
 * any other event by its libpfm4 name (--counters). An event the PMU
 * multiplexes with others ran for part of the time it was enabled: its
 * count is scaled by enabled/running, as perf stat does, and the share it
 * ran is recorded beside it, so the scaling is never hidden.
 */
#ifndef BENCH_COUNTERS_H
#define BENCH_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
/* libpfm4's copy of linux/perf_event.h: the two cannot be included together. */
#include <perfmon/pfmlib_perf_event.h>

/* name, the kernel's type and config; a run's field: perf_<name>_per_dispatch */
#define COUNTERS_SOFTWARE(X)						\
	X(task_clock_ns, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK)	\
	X(context_switches, PERF_TYPE_SOFTWARE,				\
	    PERF_COUNT_SW_CONTEXT_SWITCHES)				\
	X(cpu_migrations, PERF_TYPE_SOFTWARE,				\
	    PERF_COUNT_SW_CPU_MIGRATIONS)				\
	X(page_faults, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS)
#define COUNTERS_HARDWARE(X)						\
	X(cycles, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)		\
	X(instructions, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS)	\
	X(cache_references, PERF_TYPE_HARDWARE,				\
	    PERF_COUNT_HW_CACHE_REFERENCES)				\
	X(cache_misses, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES)	\
	X(branch_misses, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES)

#define COUNTERS_MAX	32

struct counter {
	char name[64];			/* the field's: cycles, l1d_... */
	struct perf_event_attr attr;
	int fd;
	uint64_t value, enabled, running;
};

struct counters {
	struct counter ev[COUNTERS_MAX];
	unsigned int n;
	/* Why the machine's hardware events are not counted; "": they are. */
	char absent[256];
};

/*
 * The events of list: "default" (the software and hardware sets), "none",
 * or the default sets and a comma list of libpfm4 names. Resolves names
 * only; -1 with a one-line reason in err for a name libpfm4 does not know.
 */
int counters_init(struct counters *k, const char *list, char *err,
    size_t errlen);

/* One event alone: the instructions of user space (instructions:u). */
void counters_instructions(struct counters *k);

/*
 * Opens every event, disabled, on this process and the threads it starts
 * from now on. A hardware event the machine cannot count is dropped, and
 * absent says why; a software one that will not open drops them all
 * (perf_event_paranoid), absent saying so. Returns how many opened.
 */
unsigned int counters_open(struct counters *k);

void counters_start(struct counters *k);
void counters_stop(struct counters *k);
void counters_close(struct counters *k);

/* Each event per dispatch into run, and the raw counts under "perf". */
void counters_json(const struct counters *k, cJSON *run, double dispatches);

/* What opens here, for a results file's context; absent said once. */
cJSON *counters_context(const char *list);

#endif /* BENCH_COUNTERS_H */
