/*
 * advise.h - choosing a pool size from measured rows: per width, the
 * resume-only cost of a dispatch, and the capacity and latency under the
 * load the pool must carry (seed 003: a 64-worker pool costs 8x the CPU
 * per dispatch of an 8-worker one, and carries 7.7x the blocking load);
 * beside them the split pool a kotlinx service deploys instead: a narrow
 * pool for the non-blocking work, the blocking call on a view of its own
 * (withContext(Dispatchers.IO)), at two hops a blocking call.
 *
 * An op is WORKLOAD_RESUMES_PER_OP (4) resumptions. Pure functions of
 * rows; the rows come from a results file.
 */
#ifndef BENCH_ADVISE_H
#define BENCH_ADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>


#define ADVISE_MAX_ROWS		64
#define ADVISE_KNEE_SHARE	0.9	/* "within 10 % of the best capacity" */
#define ADVISE_RESUMES_PER_OP	4	/* WORKLOAD_RESUMES_PER_OP */

struct advise_row {
	unsigned int workers;		/* a split's narrow pool; 0: unbounded */
	unsigned int view;		/* a split's blocking view; 0: none */
	double cpu_us, cpu_us_min, cpu_us_max;	/* resume-only, per dispatch */
	double ops_per_s;		/* resume-only */
	/*
	 * The cost on each placement of the CPUs, where the host's two moved
	 * it (results_placed) and its runs: NAN and 0 otherwise.
	 */
	double cpu_us_near, cpu_us_far;
	unsigned int runs_near, runs_far;
	/*
	 * Else the cost of each of two groups its runs fell into
	 * (results_groups) and their runs: NAN and 0 for one group.
	 */
	double cpu_us_below, cpu_us_above;
	unsigned int runs_below, runs_above;
	double capacity;		/* ops/s under the load */
	double ceiling;			/* Little's law for it; 0: none */
	double p99_us;			/* dispatch latency under it; NAN: none */
	double load_cpu_us_op;		/* CPU per op under it, hops included */
	/*
	 * The load again with the coroutines in flight that the target rate
	 * keeps busy (advise_sel's at_target): CPU per op there, the ops/s
	 * it carried and the context switches a dispatch. NAN: not measured.
	 */
	double target_cpu_us_op, target_ops_per_s, target_ctxsw;
	double hops_per_s;		/* a split's hops to its view and back */
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
	unsigned int target_runs;	/* at the target's coroutines */
	unsigned int failed;		/* of all three sweeps' runs */
};

/* A file's rows: the single pool's by width, the split's by view. */
struct advise_rows {
	struct advise_row single[ADVISE_MAX_ROWS];
	struct advise_row split[ADVISE_MAX_ROWS];
	size_t n, nsplit;
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

/*
 * What advice is about, as the results file measured it: one design, its
 * queue ("-": none) and coroutine count, on a machine of cpus CPUs. In:
 * what the user named (NULL, 0: whatever the file holds); out: the file's.
 */
struct advise_sel {
	const char *dispatcher, *queue;
	unsigned int coroutines;
	unsigned int cpus;		/* out: the context's online CPUs */
	unsigned int at_target;		/* the load's coroutines at the target */
};

struct advise_target {
	double rate;			/* ops/s to carry; 0: none */
	double p99_us;			/* dispatch latency p99; 0: none */
};

enum advise_kind {
	ADVISE_TARGET,		/* a width meeting every target */
	ADVISE_UNMET,		/* no width meets them */
	ADVISE_KNEE,		/* no target: where capacity stops growing */
	ADVISE_NO_KNEE		/* no target, and capacity still grows */
};

struct advise_pick {
	enum advise_kind kind;
	int row;			/* the recommendation; -1 if none */
	int smallest;			/* the smallest width meeting it; -1 */
	int support;			/* the row that shows why not smaller */
	int aside_meets;		/* unmet: a row set aside that met it */
	int cheapest;			/* the clean row of least cost */
	unsigned int set_aside;		/* rows that starved or failed a run */
	int split;			/* the split that meets it; -1: none */
	bool split_better;		/* less CPU a dispatch, no more an op */
};

/*
 * Picks from rows sorted by width: of the widths that meet t, the one
 * whose whole pool burns the least CPU an op under the load (the
 * smallest of them when that is not measured, and on a tie), or without
 * a target the knee, the smallest width within ADVISE_KNEE_SHARE of the
 * best capacity. A row where a run failed, or a coroutine made no
 * progress under the load, in any repetition is never picked.
 */
void advise_choose(const struct advise_row *rows, size_t n,
    const struct advise_target *t, struct advise_pick *p);

/*
 * advise_choose over r's single pool, then the split: of the views that
 * meet t, the one that burns the least CPU an op under the load (without
 * a target, the view as wide as the pick), recommended over the single
 * pool when an op under the load, hops included, costs less on it, or
 * when no single width meets t.
 */
void advise_choose_all(const struct advise_rows *r,
    const struct advise_target *t, struct advise_pick *p);

/*
 * The reason for p, one paragraph: what meets the target and what falls
 * short by how much, or what comes closest and what can close the gap;
 * load NULL: no Little's law to name a width by.
 */
void advise_reason(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p,
    const struct advise_load *load, const struct advise_sel *s, char *buf,
    size_t len);

/*
 * The price of p's row, both costs in CPU cores at the target rate (at
 * its capacity without one): what the whole pool burns an op, at the
 * target where it was measured there (against the smallest width that
 * meets the target), else flat out under the load; and its handoffs,
 * resume-only, as a multiple of the cheapest clean width's. Empty
 * without a row.
 */
void advise_price(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p, char *buf,
    size_t len);

/*
 * How each cost moves with width, from the rows: the handoffs', the
 * whole pool's an op at the target (with the context switches a dispatch
 * beside it) and flat out (with the ops it carries and the CPU it burns
 * a second). Empty if no figure is held by two widths.
 */
void advise_growth(const struct advise_row *rows, size_t n, char *buf,
    size_t len);

/*
 * The split against p's row: its hops at the target rate, its CPU an op
 * in all against the single pool's, and when it is not the
 * recommendation, in one sentence, whether any rate measured needs it.
 * Empty when the file measured none.
 */
void advise_split_words(const struct advise_rows *r,
    const struct advise_target *t, const struct advise_pick *p, char *buf,
    size_t len);

/*
 * The widths whose cost the host's two placements of the CPUs moved
 * (results_placed): each placement's cost and runs, since the table's
 * median of all runs lies between two figures and is neither. Empty when
 * no width's was.
 */
void advise_group_words(const struct advise_row *rows, size_t n,
    char *buf, size_t len);
void advise_placement_words(const struct advise_row *rows, size_t n,
    char *buf, size_t len);

/*
 * The design, queue and coroutines of doc (path names it) that s allows:
 * exactly one, or -1 and err naming what it holds.
 */
int advise_select(const cJSON *doc, const char *path, struct advise_sel *s,
    char *err, size_t errlen);

/*
 * The rows of doc for s: the resume-only cells, and the cells of load
 * (NULL: resume-only is the load), the split's apart. Sorted by width.
 * -1 and err if doc has none.
 */
int advise_rows(const cJSON *doc, const struct advise_sel *s,
    const struct advise_load *load, struct advise_rows *r, char *err,
    size_t errlen);

/*
 * A results file (path) read back for the load it holds: its cells of
 * s hold load (a profile's name) beside resume-only, or with load NULL
 * no load at all. -1 and err naming what it holds if not: advice on
 * another load than the one measured is wrong.
 */
int advise_from_check(const cJSON *doc, const char *path,
    const struct advise_sel *s, const char *load, char *err, size_t errlen);

/*
 * The target, the load (its profile's name; NULL: resume-only) and the
 * coroutines it was measured with at the target that doc's advice was
 * recorded with (advise_record): 1; 0, all untouched, if doc records none.
 */
int advise_recorded(const cJSON *doc, struct advise_target *t,
    const char **load, unsigned int *at_target);

/*
 * The target t beside the results doc it was advised on, under load
 * (NULL: resume-only) and with at_target coroutines at it, for plot and
 * report to draw and --from to advise on again; doc is then written to
 * out through a rename, as every results file is. 0, or -errno if it
 * could not be.
 */
int advise_record(cJSON *doc, const char *out, const struct advise_target *t,
    const struct advise_load *load, unsigned int at_target);

/*
 * The advice in format f (table.h): the rows, then the recommendation,
 * its price, the split and Little's law in words (CSV: the rows alone,
 * each with its part in the advice; JSON: one object of both).
 */
void advise_write(FILE *out, int format, const struct advise_rows *r,
    const struct advise_target *t, const struct advise_pick *p,
    const struct advise_load *load, const struct advise_sel *s);

/*
 * The memory fit of s's design in doc (memory a thread against threads,
 * export.h's line): the design advised on, not every design the file
 * holds.
 */
void advise_memory(FILE *out, const cJSON *doc, const struct advise_sel *s);

#endif /* BENCH_ADVISE_H */
