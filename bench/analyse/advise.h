/*
 * advise.h - choosing a pool size from measured rows: per width, the
 * resume-only cost of a dispatch, and the capacity and latency under the
 * profile the pool must carry (seed 003: a 64-worker pool costs 8x the CPU
 * per dispatch of an 8-worker one, and carries 7.7x the blocking load).
 *
 * Pure functions of rows; the rows come from a results file.
 */
#ifndef BENCH_ADVISE_H
#define BENCH_ADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>


#define ADVISE_MAX_ROWS		64
#define ADVISE_KNEE_SHARE	0.9	/* "within 10 % of the best capacity" */

struct advise_row {
	unsigned int workers;		/* 0: unbounded */
	double cpu_us, cpu_us_min, cpu_us_max;	/* resume-only, per dispatch */
	double ops_per_s;		/* resume-only */
	double capacity;		/* ops/s under the profile */
	double ceiling;			/* Little's law for it; 0: none */
	double p99_us;			/* dispatch latency under it; NAN: none */
	double threads;			/* most alive, over both profiles */
	double rss_anon_kb;		/* peak, over both profiles */
	/*
	 * Runs of the load's own sweep, and those where a coroutine made no
	 * progress: these set the row aside. A resume-only sweep apart from
	 * the load (cost_) measures the cost, not the capacity: a coroutine
	 * starved there is a caution beside the cost, never a veto. A run
	 * that failed, hung or crashed in either sets the row aside.
	 */
	unsigned int runs, starving;
	unsigned int cost_runs, cost_starving;
	unsigned int failed;		/* of runs + cost_runs */
};

/*
 * The load a pool must carry, as its profile's name in a results file and
 * what Little's law needs of it: the seconds an op holds a thread, and
 * whether it holds a CPU too.
 */
struct advise_load {
	const char *name;		/* "sleep:5:0.25" */
	double hold_s;			/* per op */
	bool cpu_bound;
};

struct advise_target {
	double rate;			/* ops/s to carry; 0: none */
	double p99_us;			/* dispatch latency p99; 0: none */
};

enum advise_kind {
	ADVISE_TARGET,		/* the smallest width meeting every target */
	ADVISE_UNMET,		/* no width meets them */
	ADVISE_KNEE,		/* no target: where capacity stops growing */
	ADVISE_NO_KNEE		/* no target, and capacity still grows */
};

struct advise_pick {
	enum advise_kind kind;
	int row;			/* the recommendation; -1 if none */
	int support;			/* the row that shows why not smaller */
	unsigned int set_aside;		/* rows that starved or failed a run */
};

/*
 * Picks from rows sorted by width: the smallest width that meets t, or
 * without a target the knee, the smallest width within
 * ADVISE_KNEE_SHARE of the best capacity. A row where a run failed, or a
 * coroutine made no progress under the load, in any repetition is never
 * picked.
 */
void advise_choose(const struct advise_row *rows, size_t n,
    const struct advise_target *t, struct advise_pick *p);

/* The reason for p, one sentence; n >= 1. */
void advise_reason(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p, char *buf,
    size_t len);

/*
 * The rows of doc for one dispatcher, queue and coroutine count: the
 * resume-only cells, and the cells of profile (NULL: resume-only is the
 * profile). Sorted by width. -1 and err if doc has none.
 */
int advise_rows(const cJSON *doc, const char *dispatcher, const char *queue,
    unsigned int coroutines, const struct advise_load *load,
    struct advise_row *rows, size_t *n, char *err, size_t errlen);

/* The table, the recommendation and Little's law beside it. */
/*
 * A results file (path) read back for the load it holds: its cells of
 * dispatcher, queue and coroutines hold load (a profile's name) beside
 * resume-only, or with load NULL no load at all. -1 and err naming what
 * it holds if not: advice on another load than the one measured is wrong.
 */
int advise_from_check(const cJSON *doc, const char *path,
    const char *dispatcher, const char *queue, unsigned int coroutines,
    const char *load, char *err, size_t errlen);

void advise_print(FILE *out, const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p,
    const struct advise_load *load, unsigned int coroutines,
    unsigned int cpus);

#endif /* BENCH_ADVISE_H */
