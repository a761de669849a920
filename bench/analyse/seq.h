/*
 * seq.h - a group-sequential design, for `ab --budget`: the runs grow a
 * round at a time and each cell is looked at after every round, yet the
 * chance of a false alarm over all the looks stays alpha. Lan and DeMets'
 * O'Brien-Fleming-like function spends alpha by information fraction
 * (gsDesign's sfLDOF, alpha/2 a side), and the nominal level of each look
 * comes from Armitage, McPherson and Rowe's recursive integration (the
 * research note on verdict statistics, §5).
 *
 * The seq_* namespace: pure functions.
 */
#ifndef BENCH_SEQ_H
#define BENCH_SEQ_H

#include <stdbool.h>
#include <stddef.h>

/* Looks a campaign plans at most: 200 rounds of 4 runs a cell. */
#define SEQ_MAX_LOOKS	200

/* The information of a rank-sum test with n and m runs: nm / (n + m + 1). */
double seq_information(size_t n, size_t m);

/* The two-sided alpha spent by information fraction t in (0, 1]. */
double seq_spent(double t, double alpha);

/*
 * The nominal two-sided level of each of k looks at information fractions
 * t[0..k) (increasing, at most 1): look i's exact p must be at most
 * level[i]. With final, look k-1 spends whatever alpha is left (a budget
 * that ends before the planned last look).
 */
void seq_levels(const double *t, size_t k, double alpha, bool final,
    double *level);

/*
 * The nominal level of each look of a design that spends alpha on looks
 * looks, the first after reps runs a side and each next after one more
 * A B B A round (2 runs a side); with last, the design is cut to its
 * first looks looks, the last spending what is left.
 */
void seq_round_levels(size_t reps, size_t looks, double alpha, bool last,
    double *level);

#endif /* BENCH_SEQ_H */
