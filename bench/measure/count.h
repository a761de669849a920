/*
 * count.h - a counted window: the instructions a fixed number of
 * dispatches execute, not the time they take.
 *
 * Every coroutine runs M resumptions (the cell's count) and holds; the
 * last to hold starts the counter and sends them all on again, and the
 * last to hold after M more stops it, each from inside that resumption.
 * So the window is coroutines x M dispatches exactly, it opens and closes
 * where no dispatch is under way, and nothing outside the design's
 * threads runs in it: the thread that started the coroutines waits until
 * the workload stops, the main thread on a semaphore (the window opens
 * only once it has said so: under Valgrind, which runs one thread at a
 * time, it then holds the CPU until it blocks), and the watchdog is not
 * started before the window has ended.
 *
 * Two counters. Valgrind's callgrind counts every thread's instructions
 * in the window through its client requests (START_INSTRUMENTATION and
 * DUMP_STATS_AT: Debian's Valgrind 3.19 has no cachegrind ones), which
 * the process reads back from the dump, function by function; the
 * process must run under it (valgrind_wrap in the tool). Where the
 * machine has a PMU, perf_event's instructions:u counts natively. Under
 * callgrind the threads run one at a time: a path whose instructions
 * depend on scheduling (spinning, retries, parking) still gives a count
 * that differs run to run, which the repeats show.
 */
#ifndef BENCH_COUNT_H
#define BENCH_COUNT_H

#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "counters.h"
#include "runfields.h"

struct cell;
struct workload;

enum count_counter {
	COUNT_AUTO,		/* perf where instructions:u opens, else callgrind */
	COUNT_CALLGRIND,
	COUNT_PERF
};

/* The run field a counted window fills, and what `--metric` calls it. */
#define COUNT_FIELD		RF(instructions_per_dispatch)
#define COUNT_METRIC		"instructions"
/* Resumptions per coroutine when --metric instructions turns counting on. */
#define COUNT_DEFAULT		1024
/*
 * The longest a counted run's two rounds may take before it is called
 * hung: the main thread waits without looking in between, as a look
 * would be counted.
 */
#define COUNT_WAIT_S		300.0
/*
 * Functions a run keeps of its callgrind dump, the costliest first: a
 * verdict names where instructions went from them. The dump's table, and
 * a name's length.
 */
#define COUNT_FUNCTIONS		32
#define COUNT_TABLE		1024
#define COUNT_NAME		128
/*
 * The most dispatches a window: under callgrind, 20-30 times slower than
 * the CPU, a window and its warm-up of 2^22 each take about 10 s on most
 * designs, and the main thread waits COUNT_WAIT_S for them.
 */
#define COUNT_MAX_DISPATCHES	(1u << 22)

/* How a counted window ended. */
#define COUNT_OK		0
#define COUNT_FAILED		1	/* its figures do not hold: err says why */
#define COUNT_LATE		2	/* it did not end in COUNT_WAIT_S */

/*
 * What the tool passes the process it runs under callgrind (valgrind.c):
 * where callgrind dumps, and which Valgrind it is.
 */
#define COUNT_DIR_ENV		"DISPATCHBENCH_CALLGRIND_DIR"
#define COUNT_VERSION_ENV	"DISPATCHBENCH_VALGRIND"

struct count {
	enum count_counter counter;
	struct counters k;		/* perf: instructions:u alone */
	sem_t done;
	unsigned int round;		/* holds seen: 1 opens, 2 closes */
	uint64_t start;			/* resumptions when the window opened */
	_Atomic int waiting;		/* the main thread is about to block */
	bool open;
};

/* The counter a run of c uses on this machine. */
enum count_counter count_counter(const struct cell *c);

/*
 * Whether c can be counted here: the resume-only workload, no payload, no
 * program of its own; 0, or -1 with one line in err.
 */
int count_check(const struct cell *c, char *err, size_t len);

/*
 * Before the run's first thread (perf's counter is inherited by them):
 * 0, or -1 with one line in err (no PMU, not under callgrind).
 */
int count_open(struct count *k, const struct cell *c, char *err, size_t len);

/* The hold callback and its argument, for workload_opts. */
void count_held(struct workload *w, void *arg);

/*
 * Waits for the window of w (started with count_held) to end, and adds
 * its figures to run: dispatches, instructions, instructions per dispatch,
 * the counter, and under callgrind each costliest function's own
 * instructions per dispatch. COUNT_OK, COUNT_FAILED with why in err (the
 * window ran another number of dispatches, the counter did not count all
 * of it), or COUNT_LATE.
 */
int count_window(struct count *k, struct workload *w, cJSON *run, char *err,
    size_t len);

void count_close(struct count *k);

/* Which counter, for a results file's context; NULL for a timed sweep. */
cJSON *count_context(const struct cell *c);

#endif /* BENCH_COUNT_H */
