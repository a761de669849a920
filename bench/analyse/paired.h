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

#include <stdbool.h>
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
 * The change a signed-rank test at alpha over n normal units detects 80 %
 * of the time, in units of their spread; INFINITY when no p can go below
 * alpha.
 */
double paired_mde_factor(size_t n, double alpha);

/*
 * The change the verdict catches 80 % of the time over n normal units of
 * spread sigma: an exact p below level and the median of the Walsh
 * averages above t. Simulated from a fixed seed; INFINITY as above.
 */
double paired_verdict_mde(size_t n, double level, double sigma, double t);

/* The fewest units whose exact two-sided p can go below alpha. */
size_t paired_min_units(double alpha);

/*
 * The units' spread: 1.4826 times their median absolute deviation, made
 * unbiased for normal units of small n (Croux and Rousseeuw's factors).
 */
double paired_spread(const double *d, size_t n);

/* How the windows of each arm (A, B) ended, and the processes. */
struct paired_ends {
	unsigned int ok[2], failed[2], stalled[2];
	bool crashed;			/* a process ended without its windows */
	bool interrupted;		/* the campaign was stopped */
};

/*
 * B's stalled windows past A's that settle a campaign as `broken` before
 * its last process (paired_settled): one or two more are what a busy
 * machine may hand either arm, three are B's.
 */
#define PAIRED_STALLS_SETTLE	3

/*
 * Whether the ends seen so far make the verdict `broken` whatever the
 * processes not yet run give, and why in words: a process that failed as
 * a whole, or a window of B that failed (neither is undone by more), or
 * B stalled in PAIRED_STALLS_SETTLE windows more than A (the verdict's
 * own rule, stalls B has and A lacks, with a margin: it alone could be
 * undone by A stalling later). Never true where paired_verdict would not
 * say `broken` of these ends.
 */
bool paired_settled(const struct paired_ends *e, char *why, size_t len);

/*
 * The verdict over the units d[0..n) (ln B/A, one a process), as compare
 * gives it, and why in words: `broken` when B failed or stalled where A
 * did not, or a process crashed; `undecided` when too few units are left
 * for a p below alpha; then, the test r made at alpha, `regressed` or
 * `improved` when p < alpha and the change is past the threshold (the
 * estimate, or the units' upper tail, a slow minority of processes);
 * `equivalent` when the interval and that tail lie inside it; else
 * `inconclusive`.
 */
const char *paired_verdict(const double *d, size_t n,
    const struct paired_ends *e, double threshold, double alpha,
    bool higher_is_better, struct paired_test *r, char *why, size_t len);

#endif /* BENCH_PAIRED_H */
