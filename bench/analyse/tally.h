/*
 * tally.h - what pair's processes gave (paired.h's units): each window's
 * line as a process prints it, one crossover estimate a process, how the
 * windows of each arm ended, and the verdict told from them, as lines for
 * people and as the result's object for programs.
 *
 * The tally_* namespace reads windows and results as JSON only.
 */
#ifndef BENCH_TALLY_H
#define BENCH_TALLY_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "paired.h"

struct tally {
	const char *metric;		/* the run field compared */
	double threshold_pct, alpha;	/* the verdict's */
	/*
	 * --threshold on the command line: two arms of exact counts
	 * (counted.h) then call a change under it equivalent; else any.
	 */
	bool threshold_given;
	bool exact;			/* both arms' counts were exact */
	unsigned int pairs;		/* of windows, a process's */
	double *delta;			/* per process, ln(B/A) */
	size_t n;
	struct paired_ends ends;	/* how the windows of A and B ended */
	double *values[2];		/* every ok window's value, per arm */
	size_t nvalues[2];
	unsigned int busy[2];		/* windows beside other load, per arm */
	char crashed[256];		/* the first process that failed */
	char stopped[256];		/* why no more processes ran */
	char reason[2][256];		/* the first failed window of each arm */
	char side[2][600];		/* each arm: its name, or its file */
	char cell[600];			/* the arms' cell, a->b where apart */
	char brief[128];		/* the design and width they share */
};

/* An arm as it ran: a queue or a design, its name, a plugin's spec. */
struct tally_arm {
	bool design;
	const char *name;
	const char *spec;		/* NULL: built in */
};

/* Room for up to units processes of pairs pairs each. */
void tally_init(struct tally *t, const char *metric, double threshold_pct,
    double alpha, size_t units, unsigned int pairs);
void tally_free(struct tally *t);

/*
 * Window pair (of process's pairs) of arm b or a, at position 0 or 1 in
 * its pair, as the line a process prints: the run's status, its error,
 * the metric's value and whether the machine was busy.
 */
cJSON *tally_window(const cJSON *run, unsigned int pair, bool b,
    unsigned int position, const char *metric);

/*
 * How a window's line ended: ok with a positive figure, stalled (no
 * progress: the machine's, counted apart), or failed.
 */
enum tally_end { TALLY_OK, TALLY_STALLED, TALLY_FAILED };

enum tally_end tally_window_ended(const cJSON *w);

/*
 * Process u of the campaign: its windows (which u takes), their ends
 * counted and its crossover estimate kept, in t and as u's "ratio"; or,
 * windows NULL, its failure why, in u and, the first, in t.
 */
void tally_unit(struct tally *t, cJSON *u, cJSON *windows, const char *why);

/*
 * What went wrong in process u, for its progress line: ": " and its
 * failure, or each arm's windows that did not end ok with the first
 * reason; "" when none.
 */
void tally_unit_words(const cJSON *u, char *buf, size_t len);

/*
 * Whether the processes so far make the verdict `broken` whatever those
 * not yet run would give (paired_settled), and why in words.
 */
bool tally_settled(const struct tally *t, char *why, size_t len);

/*
 * Each arm as the results record it (a_side, b_side: a plugin by its
 * file and checksum, from the context's plugins) and its cell (a_cell,
 * b_cell, which it takes), and the cell they share (cell), into doc; and
 * into t, how the verdict line names them.
 */
void tally_sides(struct tally *t, cJSON *doc, const struct tally_arm arms[2],
    cJSON *cells[2]);

/*
 * The verdict (paired_verdict; for two arms of exact counts,
 * counted_verdict) into *verdict, with the lines that tell it (each arm's
 * windows on stderr, then on stdout the header, the change, a failed
 * process, the verdict and, where a count moved, the functions it moved
 * in); returns the result's object.
 */
cJSON *tally_report(struct tally *t, const cJSON *doc, bool interrupted,
    const char **verdict);

#endif /* BENCH_TALLY_H */
