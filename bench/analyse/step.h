/*
 * step.h - a step of a bisection as its verdicts read: ab's rows (or
 * pair's result, made one row) for the cells asked about, judged into
 * one mark. A bisection asks whether a commit is slower like BAD, not
 * whether it is within the threshold both ways, which a noisy cell takes
 * far longer to show.
 *
 * The step_* namespace reads verdicts as JSON only.
 */
#ifndef BENCH_STEP_H
#define BENCH_STEP_H

#include <cjson/cJSON.h>

enum step_mark { STEP_UNTESTED, STEP_GOOD, STEP_SLOWER, STEP_SKIP,
    STEP_OPEN };

/* Each mark in words: "untested", "not slower", "slower", ... */
extern const char *const step_marks[];

/* What one step said, for the cells asked about. */
struct step {
	enum step_mark mark;
	char verdict[32], why[512], cell[512];
	double ratio, lo, hi, p, seconds;
	int runs;			/* a side's new runs, or pair's processes */
	int rc;				/* the step's exit status */
};

/*
 * The step's mark from the rows whose cell holds every word of filter
 * (NULL: all): slower if one regressed, for whatever reason; not slower
 * if none can have (equivalent, or each of its interval, worse tail, slow
 * share and shift inside regimes rules out a rise past threshold, a
 * ratio - 1, on the side that is worse); skipped if a run broke; else
 * inconclusive. The row told in st is the one that decided, with what
 * kept it from not slower after its why.
 */
void step_judge(const cJSON *rows, const char *filter, double threshold,
    struct step *st);

/* pair's results (doc, NULL: none) as the rows of an ab: one or none. */
cJSON *step_pair_rows(const cJSON *doc);

#endif /* BENCH_STEP_H */
