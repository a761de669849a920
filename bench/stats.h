/*
 * stats.h - the statistics a verdict rests on: order statistics, a
 * rank test, an interval for a ratio, a gap test for two regimes, and
 * Fisher's exact test. Pure functions of arrays; nothing here allocates
 * beyond its own scratch or prints.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct stats_summary {
	size_t n;
	double median, q1, q3, min, max, mean;
	double cv;			/* standard deviation / mean */
};

/* Quantile p of sorted[0..n) by linear interpolation (R's type 7). */
double stats_quantile(const double *sorted, size_t n, double p);

/* Summary of v[0..n) (v is not changed); n >= 1. */
void stats_summarize(const double *v, size_t n, struct stats_summary *s);

/*
 * Two-sided Mann-Whitney U (Wilcoxon rank-sum) p-value, as R's
 * wilcox.test computes it: exact when both samples are under 50 and have
 * no ties, else the normal approximation with tie and continuity
 * corrections.
 */
double stats_mann_whitney(const double *a, size_t na, const double *b,
    size_t nb);

/*
 * The ratio b/a as exp of the Hodges-Lehmann shift of log b against
 * log a, with its distribution-free (Moses) interval of coverage
 * 1 - alpha. Values must be positive. Returns false when the samples are
 * too small for that coverage (the interval is then the whole range of
 * pairwise ratios).
 */
bool stats_ratio_interval(const double *a, size_t na, const double *b,
    size_t nb, double alpha, double *ratio, double *lo, double *hi);

/*
 * Gap test for two regimes: in log scale, the widest gap between sorted
 * values, if both sides hold at least two values and the gap is wider
 * than twice either side's interquartile range and than a factor of 1.5.
 * Returns true and the boundary (values above it are "slow") if so.
 */
bool stats_bimodal(const double *v, size_t n, double *boundary);

/*
 * Least-squares line y = slope x + intercept through n >= 2 points, and
 * its r^2. False if every x is the same.
 */
bool stats_linfit(const double *x, const double *y, size_t n, double *slope,
    double *intercept, double *r2);

/* Two-sided Fisher's exact test of [[a, b], [c, d]], as R's fisher.test. */
double stats_fisher(unsigned int a, unsigned int b, unsigned int c,
    unsigned int d);

#endif /* BENCH_STATS_H */
