/*
 * compare.h - two results, cell by cell: what failed, the change NEW/BASE
 * with its interval, one test per cell, the family of cells under Holm's
 * correction, the smallest change the campaign could have seen, and a
 * verdict a CI job can act on; each row says what it judged: the metric
 * and its unit, the cell by what varies across the rows, each side's
 * file (a plugin's too), the change signed, and which p it prints.
 */
#ifndef BENCH_COMPARE_H
#define BENCH_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "table.h"

struct compare_opts {
	double threshold;		/* the effect worth detecting, 0.05 = 5 % */
	/*
	 * --threshold on the command line: two exact counts (counted.h) then
	 * call a change under it equivalent; without it, any change counts.
	 */
	bool threshold_given;
	double alpha;			/* of the whole comparison (Holm) */
	enum table_format format;	/* not TABLE_GBENCH */
	bool allow_other_machine;
	/*
	 * ab's arms, interleaved in one sweep here: one machine whatever
	 * their contexts say, since their builds differ by design.
	 */
	bool one_machine;
	bool by_position;		/* cell i against cell i (`ab`), not by key */
	/*
	 * Each real runtime's cell of NEW against the cell of each model of
	 * its design in BASE (beside.h; BASE may be NEW itself).
	 */
	bool beside;
	const char *metric;		/* a run field; default cpu_us_per_dispatch */
	const char *plot_dir;		/* draws ratio.png/.svg there; NULL: not */
	/*
	 * A sequential campaign's nominal level for each cell (by position),
	 * in place of Holm over alpha; NULL for a fixed one.
	 */
	const double *levels;
	/*
	 * What BASE and NEW are, for people: their files, or ab's builds;
	 * NULL: the word BASE or NEW alone.
	 */
	const char *sides[2];
};

#define COMPARE_BESIDE_MAX	4	/* models drawn beside one runtime */
#define COMPARE_BUSY_APART	0.5	/* busy shares further apart: undecided */

#define COMPARE_NO_REGRESSION	0
#define COMPARE_REGRESSED	1	/* a cell regressed or is broken */
#define COMPARE_UNDECIDED	2	/* none did; no answer, or a rise not placed */
#define COMPARE_BAD_INPUT	(-1)

void compare_defaults(struct compare_opts *o);

/*
 * Writes the comparison of new against base to out. Returns
 * COMPARE_REGRESSED when a cell regressed or NEW failed a run
 * (`broken`); else COMPARE_UNDECIDED when a cell has no answer (BASE's
 * cell missing from NEW, too few runs with the figure, or too few for any
 * p to pass its level), a cell saw a rise it could not place
 * (judge_unplaced), or a file is not complete; COMPARE_BAD_INPUT with a
 * one-line reason in err when the two cannot be compared (nothing
 * matches, no run has the metric, a figure that cannot be).
 */
int compare_docs(const cJSON *base, const cJSON *new, const struct compare_opts *o,
    FILE *out, char *err, size_t errlen);

/*
 * The fewest runs a side whose exact rank-sum p can go below level: what
 * a cell of a family of M needs at alpha / M under Holm.
 */
size_t compare_min_runs(double level);

/*
 * One cell's analysis, for a sequential campaign (`ab --budget`): the
 * verdict of new against base at nominal level `level` for the test and
 * for the interval (a repeated confidence interval), or NULL while
 * undecided (`undecided` and `inconclusive` alike: a later look may
 * decide). "broken" as compare_docs says it.
 */
const char *compare_look(const cJSON *base_cell, const cJSON *new_cell,
    const struct compare_opts *o, double level);

/*
 * A look at every cell of base and new (the same cells, one for one) not
 * yet done, at level: done[i] once decided, levels[i] the level it was
 * looked at. Returns how many are still undecided.
 */
size_t compare_look_open(const cJSON *base, const cJSON *new, const struct
    compare_opts *o, double level, bool *done, double *levels);

#endif /* BENCH_COMPARE_H */
