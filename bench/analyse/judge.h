/*
 * judge.h - one cell of NEW against its cell of BASE: how each side's runs
 * ended, the test of the metric of the ok ones, and the verdict with its
 * reason (compare.h's words). compare.c judges the cells of two files
 * and holds their p to Holm's correction; outcome.c writes the rows.
 */
#ifndef BENCH_JUDGE_H
#define BENCH_JUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "rank.h"
#include "results.h"

/* One side of a cell: how its runs ended, and the metric of the ok ones. */
struct judge_arm {
	unsigned int runs, ok, failed, hung, crashed, stalled, interrupted;
	unsigned int bare;		/* ok runs without the metric */
	unsigned int busy;		/* runs beside other load: host_busy */
	unsigned int hosted;		/* runs that say either way */
	char errors[256];		/* each distinct reason once */
	double *v;			/* n of them */
	double *line;			/* each's two line probes, or NAN */
	size_t n;
	double median;
	int impossible;			/* the first run whose figure cannot be */
	double impossible_value;
	double lo, hi;			/* the smallest figure and the largest */
};

/* One cell of NEW against its cell of BASE, and what was said of it. */
struct judge_row {
	char cell[800];			/* its key: the JSON's "cell" */
	size_t keylen;			/* of cell, before " against M" */
	const cJSON *ca, *cb;		/* BASE's cell, NEW's (or NULL) */
	char shown[1280];		/* what tells it from the other rows */
	char plugins[640];		/* each side's plugin file, if any */
	struct judge_arm a, b;
	bool missing;			/* BASE has the cell, NEW does not */
	bool tested;			/* both arms have two ok runs or more */
	bool difference;		/* compared as NEW - BASE */
	bool split;			/* the pooled runs fall into two regimes */
	bool regimes;			/* an arm holds runs of both */
	bool wide;			/* an arm's spread exceeds the threshold */
	bool exact;			/* both arms' counts exact */
	bool mixed;			/* two regimes' parts moved apart */
	bool placed;			/* judged within placements of the CPUs */
	unsigned int on[RESULTS_SIDES][2];	/* BASE's runs, NEW's, on each */
	double p_min;			/* the smallest p its test can give */
	struct rank_test t;		/* on logs, or on the values */
	double tail;			/* the worse quantile, NEW - BASE */
	double share_lo, share_hi;	/* slow share NEW - BASE, interval */
	double margin;			/* the share change worth the threshold */
	double p_adj;
	double level;			/* the p it is held to: alpha, or a look's */
	double reach;			/* a cell's own level: alpha / M alone */
	double spread;			/* of the runs, on the compared scale */
	double mde;			/* the change the verdict catches 80 % */
	const char *verdict;
	char why[320];
};

/*
 * One placement of the CPUs (results_side): an arm read on it takes the
 * ok runs whose two probes were on that side of boundary and no other.
 */
struct judge_place {
	int side;			/* RESULTS_NEAR or RESULTS_FAR */
	double boundary;		/* ns of a line round trip */
};

/*
 * How each run ended, and the metric of every ok run (on place, unless it
 * is NULL): one without it is counted (never silently dropped), one that
 * cannot be is remembered. A run that did not end ok counts wherever it ran.
 */
void judge_arm_read(struct judge_arm *arm, const cJSON *cell,
    const char *metric, const struct judge_place *place);

/* Frees what judge_arm_read took for the row's two arms. */
void judge_row_free(struct judge_row *r);

/* The runs of arm that failed, hung or crashed. */
unsigned int judge_bad_runs(const struct judge_arm *arm);

/*
 * NEW failed a run, or stalled in more of its runs than BASE did: a
 * stall both builds share is the machine's, one NEW alone has is not.
 */
bool judge_is_broken(const struct judge_row *r);

/*
 * The test of one cell at level alpha: logs or values, the pooled split
 * into two regimes (found on both arms' runs together, as the test's
 * exactness needs), the worse tail, and the runs' spread. Runs probed on
 * two placements of the CPUs that moved the figure are tested within
 * each placement instead (rank_compare_strata): the host dealt them, not
 * the build. Two arms of exact counts are marked so, with no p: nothing
 * about them is chance.
 */
void judge_test(struct judge_row *r, const struct compare_opts *o,
    double alpha);

/* A shift on the compared scale as a change: relative, or absolute. */
double judge_as_change(const struct judge_row *r, double x);

/* The interval as changes: relative for a ratio, absolute otherwise. */
void judge_change(const struct judge_row *r, double *lo, double *hi);

/*
 * The change the verdict catches 80 % of the time at the cell's own level
 * (alpha / M for a cell alone under Holm): its test must pass that level
 * and its estimate the threshold, for these runs' sizes and spread.
 */
void judge_mde(struct judge_row *r, const struct compare_opts *o);

/*
 * The verdict of a row, its reason in r->why: p is the cell's
 * (Holm-adjusted, or its look's), level the p it is held to.
 */
const char *judge_decide(struct judge_row *r, const struct compare_opts *o,
    double level, double p);

/*
 * The widest two runs of one figure can lie apart, in a row's runs of
 * both sides. A figure comes from a nanosecond clock or an event counter
 * over a window of seconds: the same work on one machine, either build,
 * spans at most the nine decades from one tick to a window, and a
 * dispatch of 1 ns become a sleep of 1 ms is still inside. Past it one of
 * the two is no measurement: a cost of 1e-300 read `improved -100 %`,
 * 1e308 "+inf %". compare refuses such a file (exit 2).
 */
#define JUDGE_SPAN	1e9

/*
 * An inconclusive row that saw a change on the worse side it could not
 * place against the threshold: p below its level and the interval past
 * half of it, the slow share shown moved past half its margin, or its
 * regimes' parts moving apart. Not a pass (compare exits 3), and the
 * summary names it.
 */
bool judge_unplaced(const struct judge_row *r, const struct compare_opts *o);

/* In Holm's family: a cell tested, not broken, and not exact. */
bool judge_in_family(const struct judge_row *r);

#endif /* BENCH_JUDGE_H */
