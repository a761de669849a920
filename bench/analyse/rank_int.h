/*
 * rank_int.h - what rank.c, rank_shift.c and rank_power.c share. The
 * rank__* namespace is internal to them and must not be used elsewhere.
 */
#ifndef BENCH_RANK_INT_H
#define BENCH_RANK_INT_H

#include <stddef.h>

#include "rank.h"

/*
 * The number of arrangements of sizes n and m without ties that give each
 * U, as the coefficients of the Gaussian binomial: a product of (1 -
 * q^(m+i)) / (1 - q^i), truncated at degree nm, which loses nothing.
 * n m + 1 of them; the caller frees.
 */
double *rank__counts(size_t n, size_t m);

/*
 * Into r: the Hodges-Lehmann shift of b against a, its Moses interval at
 * 1 - alpha and its coverage, and the shift within regimes (NAN with one,
 * split NAN).
 */
void rank__estimate(const double *a, size_t na, const double *b, size_t nb,
    double split, double alpha, struct rank_test *r);

/* One stratum's rank sum (rank__law): what the stratified test adds up. */
struct rank__one {
	size_t sum;		/* b's doubled rank sum among the stratum's runs */
	size_t smax;		/* the largest it can be */
	double ties;		/* sum of t^3 - t over groups of ties */
	double sigma;		/* its rank sum's deviation, ties corrected */
};

/*
 * The exact law of b's doubled rank sum among a and b, ties and all: the
 * count of each sum 0..smax (one->smax), the caller frees; NULL past the
 * sizes counted exactly, one filled either way.
 */
double *rank__law(const double *a, size_t na, const double *b, size_t nb,
    struct rank__one *one);

/* Twice the smaller tail at s of a law whose running sums are low. */
double rank__two_sided(const double *low, size_t s, double total);

/*
 * Into r: the Hodges-Lehmann shift over the pairs of one block (a[k]
 * against b[k], each na[k] and nb[k] long), the interval that inverts the
 * summed U of the blocks at 1 - alpha, and its coverage.
 */
void rank__estimate_blocks(const double *const *a, const size_t *na,
    const double *const *b, const size_t *nb, size_t nbl, double alpha,
    struct rank_test *r);

#endif /* BENCH_RANK_INT_H */
