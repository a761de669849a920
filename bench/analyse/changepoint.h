/*
 * changepoint.h - the steps in a metric's history: revisions in commit
 * order, each with its runs, cut where the level moves past the
 * run-to-run spread and stays moved, not where one noisy commit sits.
 *
 * The split and merge of Hunter / Apache Otava (Fleming et al., ICPE
 * 2023) and MongoDB's E-Divisive (Matteson and James), with each split
 * judged by the exact rank-sum test of rank.h on the pooled runs of the
 * revisions either side, instead of a t-test or random permutations:
 * benchmark runs are not normal, some cells are bimodal, and permutations
 * make two reruns of one history disagree. Everything is on logs, so a
 * shift is a log-ratio:
 *
 *  1. Split [s, e): the runs of [s, tau) against those of [tau, kappa),
 *     for every tau with min_size revisions or more each side and kappa
 *     min_size, 2 min_size, 4 min_size ... revisions past tau, or e. The
 *     right side ending before e is E-Divisive's kappa: a level that
 *     comes for two revisions and goes is found as two steps, which a
 *     right side to e dilutes away; its widths double so that the tests
 *     a segment costs grow as n log n, not n^2. The smallest p wins
 *     (ties: the larger |shift|, then the earlier tau, then the shorter
 *     right side); it is a step if p < alpha / (the pairs tried:
 *     Bonferroni over the search, so a series' false steps stay near
 *     alpha), |exp(shift) - 1| >= threshold (asv's regressions
 *     threshold: a floor on what is worth a step), and both still hold,
 *     the same way, without any one of the min_size revisions either
 *     side of tau (one noisy commit is half the runs of a side of two
 *     revisions, and would put the median of the differences in the gap
 *     between it and the others). Then [s, tau) and [tau, e) are split
 *     in turn.
 *  2. Merge: each step is judged again between its neighbours only (the
 *     steps before and after it, or the ends), p < alpha and the
 *     threshold; while one fails, the weakest goes (the largest failing
 *     p; else, of those under the threshold, the smallest |shift|) and
 *     the rest are judged again, so the steps kept do not depend on the
 *     order the splits found them, and each one reported holds against
 *     the levels it separates.
 *  3. The newest: a change in the last k < min_size revisions cannot be
 *     confirmed yet. Perfherder and the Chromium dashboard wait for a
 *     window after a change before they call it; a merge's CI has to see
 *     the newest commit's change at once. So the last k revisions are
 *     judged against the level before them (from the last step, at
 *     least min_size revisions); the smallest p of the k tried, if it
 *     passes at alpha with Bonferroni over them, and the threshold, is
 *     a step with confirmed false.
 *
 * Sittings. Runs of one sitting (one import: one process of one sweep)
 * share what moved the machine that day, so they are not independent of
 * each other: pooled, a 2-3 % offset between sittings made a false step
 * in 17 % of flat 20-revision series (scripts/history-sim.sh). So every
 * step is judged twice, and its p is the larger: the rank-sum test of
 * the runs (robust to two regimes and outliers), and Student's t of the
 * sittings' levels (each the median of its runs' logs), the difference of
 * their means over the spread of a level. That spread comes from the
 * gaps between consecutive sittings, of the series and of its machine's
 * other series (cp_opts.gaps), the gaps that end where the new level
 * begins left out, the largest fifth trimmed (steps, one noisy sitting),
 * never under what a level's own runs allow (cp_level_floor). A newest
 * revision is then judged at alpha, not at the tenth of it that pooled
 * runs once needed (a docs-only commit measured in another sitting read
 * +6.5 % at p 0.0074 against its neighbours).
 *
 * A minimum segment of min_size revisions a side, because a single spike
 * made change points (otava PR #150). A revision with no runs is skipped
 * (segments count the revisions with runs); values that are NaN,
 * infinite or not above 0 are ignored. p is exact below RANK_EXACT_MAX
 * runs a side and from the normal approximation above, as rank_compare
 * gives it. A segment of n revisions costs n log n rank tests, each of p
 * alone (rank_test_p: no sort of every difference between the sides);
 * only the smallest p of a search and its ties, the leave-one-out checks
 * and the steps reported get the shift and its interval. About 0.04 s
 * for 20 revisions of 6 runs, 0.07 s for 60 of 10, 0.2 s for 100 of 10
 * with one step in it.
 *
 * Counted instructions (cp_opts.counted): a series each of whose
 * revisions repeats one count in two runs or more is exact, and none of
 * the above applies: no spread to judge a step against, and no noise to
 * mistake for one. It steps wherever a revision's count leaves the level
 * of the step before it (the first revision's, at first), past the
 * threshold only when one was given (cp_opts.threshold_given), however
 * few revisions follow: each such step is known, confirmed, its p 0.
 *
 * The cp_* namespace: pure functions of arrays; deterministic (the same
 * history always gives the same steps); nothing prints.
 */
#ifndef BENCH_CHANGEPOINT_H
#define BENCH_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>

struct cp_point {		/* one revision's runs, in commit order */
	const double *v;
	size_t n;
	/*
	 * The sitting each run was measured in (an import: one process of
	 * one sweep), runs of one sitting next to each other; NULL: the
	 * revision's runs are one sitting.
	 */
	const long long *sitting;
};

/* The step from one sitting's level to the next's (logs). */
struct cp_gap {
	double d;
	long long to;		/* the sitting it ends at */
};

struct cp_opts {
	double threshold;	/* the smallest change a step is (0.05) */
	double alpha;		/* false steps allowed per series (0.01) */
	size_t min_size;	/* revisions each side of a step (2); 0 is 1 */
	/*
	 * The gaps between consecutive sittings of the machine's other
	 * series (cp_gaps), which the same sittings moved: a history of a
	 * few sittings hardly knows their spread alone. NULL, 0: none.
	 */
	const struct cp_gap *gaps;
	size_t ngaps;
	bool counted;		/* the runs count instructions */
	bool threshold_given;	/* exact steps must pass threshold */
};

/*
 * A step's segments run from the step before it (or the first revision) to
 * the step after it (or the newest revision); an unconfirmed step's from
 * the last confirmed one, whose after segment holds its revisions too.
 */
struct cp_step {
	size_t at;		/* the first revision of the new level */
	double ratio;		/* new / old: exp(Hodges-Lehmann, logs) */
	double lo, hi;		/* its Moses interval at 1 - alpha, as ratios */
	double p;		/* rank-sum p of the two segments' runs */
	double before, after;	/* each segment's median of its runs */
	size_t n_before, n_after; /* revisions with runs in each */
	size_t s_before, s_after; /* sittings in each */
	bool confirmed;		/* false: under min_size revisions after */
	bool exact;		/* of an exact series: no test, p 0 */
};

/*
 * A drift: the level rising (or falling) steadily from revision from to
 * the newest, rather than in steps (cp_drift).
 */
struct cp_drift {
	bool found;
	size_t from, to;	/* its first and last revision (input) */
	size_t n;		/* revisions with runs in it */
	double slope;		/* a revision, as a ratio: exp(Theil-Sen) */
	double total;		/* its last over its first, fitted: slope^(n-1) */
	double p;		/* Mann-Kendall's, two-sided */
	size_t steps;		/* the steps in it that it explains better */
};

/* 0.05, 0.01, 2, no gaps, not counted, no threshold given. */
void cp_opts_default(struct cp_opts *o);

/*
 * The gaps between consecutive sittings' levels (the median of a
 * sitting's logs) of pts[0..n), into g, which holds one per run at least;
 * how many. What another series of the machine borrows (cp_opts.gaps).
 */
size_t cp_gaps(const struct cp_point *pts, size_t n, struct cp_gap *g);

/*
 * Steps of pts[0..n), in order of at; returns how many it wrote, at most
 * max (the first max of those found). Never more than n are found.
 */
size_t cp_find(const struct cp_point *pts, size_t n, const struct cp_opts *o,
    struct cp_step *steps, size_t max);

/*
 * Whether pts[0..n), whose steps cp_find gave (nsteps of them, in
 * order), drifts rather than steps, into *d: a steady rise or fall from
 * some revision to the newest names it better than the steps found
 * there. Returns how many steps stay (those before the drift; all of
 * them when none is found).
 *
 * On the revisions' medians (logs): for each start s with CP_DRIFT_MIN
 * revisions or more after it, a line from s on (Theil-Sen: the median
 * of the slopes between every two revisions) beside the steps before s,
 * against the steps alone, each scored by BIC (n ln(RSS / n) + its
 * parameters ln n: a level, a step's place and level, a line's two; the
 * RSS never under n times the least variance of a level, cp_level_floor,
 * so that exact levels do not make infinite scores). The best start is a
 * drift if its score is below the steps', Mann-Kendall's test of the
 * revisions from s on has p < alpha over the starts tried (Bonferroni),
 * and the change from its first revision to its last passes the
 * threshold. A drift of +1 % a revision over 20 revisions was two steps
 * of about +7 %; a real step keeps the smaller score, a line missing it
 * by half of it for a while. An exact series never drifts: its steps are
 * known.
 */
#define CP_DRIFT_MIN	6

size_t cp_drift(const struct cp_point *pts, size_t n, const struct cp_opts *o,
    struct cp_step *steps, size_t nsteps, struct cp_drift *d);

#endif /* BENCH_CHANGEPOINT_H */
