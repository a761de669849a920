/*
 * portrait.h - one design of a sweep in words, from its own figures: what
 * a dispatch costs it at 1 worker, at one worker per CPU and at its
 * widest; how that cost moves with the width, per doubling of it (a step
 * of 4 to 16 workers is two doublings), and where most steeply; and why,
 * from what its cells counted: context switches against the other
 * designs', the parked threads it woke, its steals, injections, spins.
 * The report's findings say each design with it.
 */
#ifndef BENCH_PORTRAIT_H
#define BENCH_PORTRAIT_H

#include <stdio.h>

#include "series.h"

/* s as one item of a list (<li>), beside the other series of d. */
void portrait_write(FILE *out, const struct series_set *d,
    const struct series *s);

#endif /* BENCH_PORTRAIT_H */
