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

#endif /* BENCH_RANK_INT_H */
