/*
 * sittings.h - what the machine's calibration probes read at each sitting
 * (an import) of a store, so that history can tell a step the machine
 * made from one the code made.
 *
 * A new CPU under the same model name read as a 2-4x regression of every
 * handoff; the probes (the bare loop, an uncontended atomic, a cache
 * line's round trip between two PUs, a futex wake with its switch) are
 * measured with every sweep, ab and pair and kept per import. A step is
 * the machine's when some probe moved past its own spread at it, the way
 * the step went: every timing of the sittings after it apart from every
 * timing of the sittings before it. Or when the bare loop every timed run
 * measures before its window moved that way by half the step or more: a
 * host that changes a core's speed after the probes.
 *
 * The sittings_* namespace owns what it loads; nothing prints.
 */
#ifndef BENCH_SITTINGS_H
#define BENCH_SITTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

struct sittings;

/*
 * Every probe of every import of s, and every ok run's bare loop; 0, or
 * -1 with SQLite's words. threshold and alpha: how far the runs' bare
 * loop must move, and how surely, to be the machine's.
 */
int sittings_load(struct store *s, double threshold, double alpha,
    struct sittings **out, char *err, size_t errlen);

void sittings_free(struct sittings *si);

/*
 * Whether the machine made a step of ratio step (new / old) from the
 * sittings before[0..nb) to after[0..na), slower (larger) if slower, else
 * faster. Either a probe moved past its own spread that way (the after
 * sittings' timings all above, or below, the before sittings'), and why
 * names it and the median of each side's medians ("bare_loop 0.29 ->
 * 0.57 ns"); a probe either side lacks says nothing. Or the runs' bare
 * loop moved that way, judged as compare judges two files' (probes.h),
 * by at least half the step in logs: a core 1.6 times slower explains a
 * step up to 2.56 times, a 6 % one none past 12 %. Then why says "the
 * runs' bare loop 1.87 -> 2.89 ns".
 */
bool sittings_moved(const struct sittings *si, const long long *before,
    size_t nb, const long long *after, size_t na, bool slower, double step,
    char *why, size_t len);

#endif /* BENCH_SITTINGS_H */
