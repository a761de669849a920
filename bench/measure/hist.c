/*
 * hist.c - the log-linear histogram (see hist.h).
 */
#include <math.h>

#include "hist.h"

#define HIST_SUB	(1u << HIST_SUB_BITS)

/* Values below 2^SUB_BITS index themselves; above, the leading bit picks
 * the group and the next SUB_BITS bits the sub-bucket. */
static unsigned int
hist_index(uint64_t v)
{
	unsigned int e;

	if (v < HIST_SUB)
		return (unsigned int)v;
	e = 63u - (unsigned int)__builtin_clzll(v);
	if (e >= HIST_MAX_BITS)
		return HIST_BUCKETS - 1;
	return ((e - HIST_SUB_BITS + 1) << HIST_SUB_BITS) +
	    (unsigned int)((v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

static uint64_t
hist_highest(unsigned int i)
{
	unsigned int g = i >> HIST_SUB_BITS;

	if (g == 0)
		return i;
	return (((uint64_t)HIST_SUB + (i & (HIST_SUB - 1)) + 1) << (g - 1)) - 1;
}

void
hist_record(struct hist *h, uint64_t v)
{

	atomic_fetch_add_explicit(&h->count[hist_index(v)], 1,
	    memory_order_relaxed);
	return;
}

void
hist_add(struct hist_snap *s, const struct hist *h, int sign)
{
	uint64_t c;
	unsigned int i;

	for (i = 0; i < HIST_BUCKETS; i++) {
		c = atomic_load_explicit(&h->count[i], memory_order_relaxed);
		s->count[i] += sign < 0 ? -c : c;
		s->n += sign < 0 ? -c : c;
	}
	return;
}

uint64_t
hist_quantile(const struct hist_snap *s, double q)
{
	uint64_t rank, seen = 0;
	unsigned int i;

	if (s->n == 0)
		return 0;
	q = q < 0 ? 0 : q > 1 ? 1 : q;
	rank = (uint64_t)ceil(q * (double)s->n);
	rank = rank == 0 ? 1 : rank;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += s->count[i];
		if (seen >= rank)
			return hist_highest(i);
	}
	return hist_highest(HIST_BUCKETS - 1);
}
