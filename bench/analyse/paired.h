/*
 * paired.h - baseline and candidate measured in pairs of windows inside
 * one process (the research note on verdict statistics, §6):
 *
 *  - Koch's crossover: in each process the pairs alternate AB, BA, so the
 *    penalty of going second cancels; the change is half the
 *    Hodges-Lehmann shift between the second-minus-first differences of
 *    the AB pairs and those of the BA pairs;
 *  - consecutive windows of one process are not independent, so the unit
 *    of the test is the process: one crossover estimate each, and the
 *    exact Wilcoxon signed-rank test across processes, with the median of
 *    the Walsh averages and its exact interval (R's wilcox.test(paired =
 *    TRUE, conf.int = TRUE)).
 *
 * The paired_* namespace: pure functions of arrays; nothing prints.
 */
#ifndef BENCH_PAIRED_H
#define BENCH_PAIRED_H

#include <stddef.h>

struct paired_test {
	size_t n;		/* units, zeros dropped (Wilcoxon's rule) */
	double v;		/* the sum of the ranks of the positive ones */
	double p;		/* exact two-sided p, ties by their mid-ranks */
	double shift;		/* the median of the Walsh averages */
	double lo, hi;		/* its exact interval */
	double conf;		/* its coverage; 0: 1 - alpha is not attainable */
};

void paired_signed_rank(const double *d, size_t n, double alpha,
    struct paired_test *r);

/* One process's change: g, ln(second) - ln(first), of its AB and BA pairs. */
double paired_crossover(const double *g_ab, size_t nab, const double *g_ba,
    size_t nba);

/*
 * The change a signed-rank test at alpha over n units detects 80 % of the
 * time, in units of their spread: the normal approximation with the
 * test's efficiency of 3/pi; INFINITY when no p can reach alpha.
 */
double paired_mde_factor(size_t n, double alpha);

/* The units' spread: 1.4826 times their median absolute deviation. */
double paired_spread(const double *d, size_t n);

#endif /* BENCH_PAIRED_H */
