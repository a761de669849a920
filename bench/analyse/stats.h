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

struct stats_summary {
	size_t n;
	double median, q1, q3, min, max, mean;
	double cv;			/* standard deviation / mean */
};

/* Quantile p of sorted[0..n) by linear interpolation (R's type 7). */
double stats_quantile(const double *sorted, size_t n, double p);

/* Summary of v[0..n) (v is not changed); n >= 1. */
void stats_summarize(const double *v, size_t n, struct stats_summary *s);

/* The standard normal's upper tail, and its quantile: Phi(z) = p. */
double stats_norm_upper(double z);
double stats_norm_quantile(double p);

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

#endif /* BENCH_STATS_H */
