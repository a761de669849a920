/*
 * stats.h - the statistics beside the rank tests (rank.h): order
 * statistics, the normal tail, Holm's adjustment, a gap test for two
 * regimes, Fisher's exact test and a least-squares line. Pure functions
 * of arrays; nothing here allocates beyond its own scratch or prints.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stats_summary {
	size_t n;
	double median, q1, q3, min, max, mean;
	double cv;			/* standard deviation / mean */
};

/* Quantile p of sorted[0..n) by linear interpolation (R's type 7). */
double stats_quantile(const double *sorted, size_t n, double p);

/* Sorts v[0..n) ascending. */
void stats_sort(double *v, size_t n);

/*
 * The distribution-free interval of the median of sorted v[0..n): the
 * order statistics k and n + 1 - k for the largest k whose coverage,
 * 1 - 2 P(B < k) with B binomial (n, 1/2), stays at least coverage.
 * When none does (below 6 runs at 0.95) it is the lowest and the highest,
 * which cover 1 - 2^(1 - n) (75 % of 3 runs, 94 % of 5). Returns the
 * coverage of the interval it gives.
 */
double stats_median_interval(const double *sorted, size_t n, double coverage,
    double *lo, double *hi);

/*
 * The k-th smallest of v[0..n) (from 0) in linear time, v reordered; and
 * the median so (the mean of the two middle values when n is even).
 */
double stats_select(double *v, size_t n, size_t k);
double stats_select_median(double *v, size_t n);

/* Summary of v[0..n) (v is not changed); n >= 1. */
void stats_summarize(const double *v, size_t n, struct stats_summary *s);

/* The standard normal's upper tail, and its quantile: Phi(z) = p. */
double stats_norm_upper(double z);
double stats_norm_quantile(double p);

/* Student's t with df degrees of freedom (df > 0): its upper tail. */
double stats_t_upper(double t, double df);

/*
 * Holm's step-down adjustment of n p-values (R's p.adjust "holm"): a cell
 * is flagged when its adjusted p is below alpha, and the chance of
 * flagging any cell that did not change stays below alpha whatever the
 * dependence between cells.
 */
void stats_holm(const double *p, size_t n, double *adj);

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

/*
 * Newcombe's hybrid score interval (his method 10, from two Wilson
 * intervals) of the difference of two shares, k2/n2 - k1/n1, at two-sided
 * coverage 1 - alpha: what "the shares are equal within a margin" is
 * shown by. Both n at least 1.
 */
void stats_share_diff(unsigned int k1, unsigned int n1, unsigned int k2,
    unsigned int n2, double alpha, double *lo, double *hi);

/* A standard normal draw; *state is an xorshift64 seed, never 0. */
double stats_gauss(uint64_t *state);

/*
 * The 80 % quantile of max(sigma a[i], t + sigma b[i]) over r draws: the
 * true shift a rule "rejects and the estimate exceeds t" catches 80 % of
 * the time, when a[i] is the shift its test needs in draw i and b[i] the
 * shift that brings its estimate to 0, both in units of sigma.
 */
double stats_power80(const double *a, const double *b, size_t r,
    double sigma, double t);

#endif /* BENCH_STATS_H */
