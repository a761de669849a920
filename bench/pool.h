/*
 * pool.h - the sweep that sizes a pool (advise's): each width of a sweep
 * resume-only and under a blocking load, the narrow pool's width among
 * them; then the split a kotlinx service deploys instead, the narrow pool
 * with the blocking call on a view of each wider width. And what advice
 * on its results is about (advise.h judges them).
 */
#ifndef BENCH_POOL_H
#define BENCH_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "advise.h"
#include "cli.h"

/*
 * The cells that measure load (a profile's name) over s's widths, into
 * *cells and *n, whose old cells are freed; s becomes the load's sweep.
 * With at_target coroutines (0: none), the load once more with that many
 * in flight, the target's (Little's law), at the widths of at least as
 * many workers and the split's views as wide: what the pool burns at
 * about the target rate, not flat out. -1 and err, the cells untouched,
 * if s cannot make them.
 */
int pool_cells(struct sweep *s, const char *load, unsigned int at_target,
    struct cell **cells, size_t *n, char *err, size_t errlen);

/*
 * What advice on s's results is about: the design, queue and coroutines
 * the user named (among given, the user's own options), the rest as the
 * file holds them, when the results are a file read back (from), which
 * names its own; a live sweep measured just what it names.
 */
void pool_sel(const struct sweep *s, char *const *given, int ngiven,
    bool from, struct advise_sel *sel);

#endif /* BENCH_POOL_H */
