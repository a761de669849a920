/*
 * hist.h - a log-linear latency histogram with HdrHistogram's bucket layout
 * (Gil Tene): 2^HIST_SUB_BITS linear sub-buckets in every power of two, so
 * a value is kept to within 1/2^HIST_SUB_BITS (about 3 %) of itself from
 * 1 ns to 2^HIST_MAX_BITS ns (about 18 minutes). HdrHistogram_c is not
 * packaged in Debian; this is the part of it the suite needs.
 *
 * Any thread may record into a hist, and any thread may add it into a
 * snapshot, consistent per bucket though not across buckets.
 */
#ifndef BENCH_HIST_H
#define BENCH_HIST_H

#include <stdatomic.h>
#include <stdint.h>

#define HIST_SUB_BITS	5
#define HIST_MAX_BITS	40
#define HIST_BUCKETS	((HIST_MAX_BITS - HIST_SUB_BITS + 1) << HIST_SUB_BITS)

struct hist {
	_Atomic uint64_t count[HIST_BUCKETS];
};

struct hist_snap {
	uint64_t count[HIST_BUCKETS];
	uint64_t n;
};

/* Records v (ns); a value past the range lands in the last bucket. */
void hist_record(struct hist *h, uint64_t v);

/* s += h, or s -= h with sign -1: a window is its end minus its start. */
void hist_add(struct hist_snap *s, const struct hist *h, int sign);

/*
 * The value at quantile q (0..1) of s: the highest value of the bucket
 * the rank falls in, as HdrHistogram's getValueAtPercentile; 0 if empty.
 */
uint64_t hist_quantile(const struct hist_snap *s, double q);

#endif /* BENCH_HIST_H */
