/*
 * rank.h - two samples compared by their ranks, as R's wilcox.test and
 * fisher.test do it, with the exact distributions a benchmark's 6 to 50
 * runs a side call for (the research note on verdict statistics, §1-§4):
 *
 *  - the rank-sum (Mann-Whitney U) test, its p from the exact permutation
 *    distribution of the mid-rank sum, so ties are exact too;
 *  - the Hodges-Lehmann shift with its exact Moses interval;
 *  - for runs that fall into two regimes, one test of what moved across
 *    them (the rank sum), how many runs are slow (Fisher's count) and what
 *    moved inside each regime (the within-regime rank sum, given the slow
 *    counts): Tippett's min-p over their joint permutation distribution,
 *    exact at its level;
 *  - the smallest shift a verdict of these runs catches 80 % of the time.
 *
 * Past those sizes (a cell of 10^5 runs a side): the normal approximation
 * with R's corrections; the min-p's distribution drawn up to 2000 runs in
 * the pool, integrated from its large-sample law beyond; the estimates
 * picked out of the n m differences without listing them. Time and
 * memory grow as (n + m) log(n + m).
 *
 * The rank_* namespace: pure functions of arrays; nothing prints.
 */
#ifndef BENCH_RANK_H
#define BENCH_RANK_H

#include <stdbool.h>
#include <stddef.h>

/* Exact distributions below this many runs a side, as R's wilcox.test. */
#define RANK_EXACT_MAX	50

struct rank_test {
	double u;		/* #{b > a} + #{b == a} / 2: pairs where b is higher */
	double p;		/* two-sided p of the test made (min-p with regimes) */
	double p_shift;		/* the rank-sum test alone */
	double p_share;		/* Fisher on the slow counts; NAN with one regime */
	double p_strat;		/* within regimes, given the slow counts; NAN too */
	unsigned int slow_a;	/* runs above the split, of a and of b */
	unsigned int slow_b;
	double shift;		/* Hodges-Lehmann: the median of every b - a */
	double shift_strat;	/* the same over pairs of one regime; NAN too */
	double lo, hi;		/* Moses interval of the shift */
	double conf;		/* its coverage; 0: 1 - alpha is not attainable */
	bool exact;		/* p from the exact distribution, not an approximation */
};

/*
 * Compares b against a, values on the scale compared (logs for a ratio).
 * split: values above it are slow, a boundary found in the pooled runs of
 * both (never per arm), or NAN for one regime. alpha: the interval's.
 */
void rank_compare(const double *a, size_t na, const double *b, size_t nb,
    double split, double alpha, struct rank_test *r);

/*
 * b against a within strata, when something outside the two builds moves
 * every run of a stratum alike and deals each side's runs to the strata
 * its own way (the host's placement of the CPUs): the rank sum of each
 * stratum's runs among themselves, summed over the strata, its p exact
 * from the convolution of their permutation laws (labels dealt within
 * each stratum), the Hodges-Lehmann shift over the pairs of one stratum
 * and the interval that inverts the test. sa, sb: each run's stratum, 0
 * to nstrata - 1. u counts pairs of one stratum, scaled to na nb; p_shift
 * is p; no regimes (p_share, p_strat, shift_strat NAN, no slow runs).
 */
void rank_compare_strata(const double *a, const int *sa, size_t na,
    const double *b, const int *sb, size_t nb, size_t nstrata, double alpha,
    struct rank_test *r);

/* The smallest two-sided p rank_compare_strata can give those strata. */
double rank_p_min_strata(const int *sa, size_t na, const int *sb, size_t nb,
    size_t nstrata);

/*
 * The tests of rank_compare alone, the same p, p_shift, p_share, p_strat,
 * u, slow counts and exact, to the bit; shift, shift_strat, lo and hi are
 * NAN and conf 0: the estimates select among every b - a, 64 passes over
 * the runs each, which a search that ranks its candidates by p need not
 * pay for each.
 */
void rank_test_p(const double *a, size_t na, const double *b, size_t nb,
    double split, struct rank_test *r);

/*
 * The same interval at coverage 1 - alpha alone (a repeated confidence
 * interval at a look's nominal level): lo, hi and the coverage reached.
 */
double rank_interval(const double *a, size_t na, const double *b, size_t nb,
    double alpha, double *lo, double *hi);

/* The smallest two-sided p an exact rank-sum test of sizes n, m can give. */
double rank_p_min(size_t n, size_t m);

/*
 * The shift a two-sided rank-sum test at level alpha detects 80 % of the
 * time with n and m normal runs, in units of their spread; INFINITY when
 * no shift can be detected at all (the smallest p is not below alpha).
 */
double rank_mde_factor(size_t n, size_t m, double alpha);

/*
 * The shift the verdict catches 80 % of the time with n and m normal runs
 * of spread sigma: an exact p below level and a Hodges-Lehmann estimate
 * above t (both on the compared scale). Simulated from a fixed seed, so
 * the same sizes give the same figure; INFINITY when p cannot go below
 * level.
 */
double rank_verdict_mde(size_t n, size_t m, double level, double sigma,
    double t);

/*
 * The runs' spread for it: 1.4826 times the median absolute residual from
 * each arm's own median, pooled, and corrected for its bias in small n.
 */
double rank_spread(const double *a, size_t na, const double *b, size_t nb);

/*
 * n zeroed elements of size (one when n is 0), for the scratch arrays of
 * this file and of the statistics built on it (paired.h, changepoint.h);
 * aborts when memory is out.
 */
void *rank_alloc(size_t n, size_t size);

#endif /* BENCH_RANK_H */
