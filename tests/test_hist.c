/*
 * test_hist.c - the latency histogram keeps a value to within its bucket
 * (1/32 of itself), and its quantiles are HdrHistogram's: the highest
 * value of the bucket the rank falls in.
 */
#include <stdlib.h>

#include <criterion/criterion.h>

#include "hist.h"

static struct hist_snap *
snap_of(const uint64_t *v, size_t n)
{
	struct hist *h = calloc(1, sizeof(*h));
	struct hist_snap *s = calloc(1, sizeof(*s));
	size_t i;

	cr_assert(h != NULL && s != NULL);
	for (i = 0; i < n; i++)
		hist_record(h, v[i]);
	hist_add(s, h, 1);
	free(h);
	return s;
}

Test(hist, small_values_are_exact)
{
	uint64_t v[] = { 0, 1, 2, 3, 31, 63 };
	struct hist_snap *s = snap_of(v, 6);

	cr_assert_eq(s->n, 6);
	cr_assert_eq(hist_quantile(s, 0), 0);
	cr_assert_eq(hist_quantile(s, 0.5), 2, "rank 3 of 6");
	cr_assert_eq(hist_quantile(s, 1), 63);
	free(s);
}

Test(hist, a_value_is_kept_within_its_bucket)
{
	uint64_t v, got;
	struct hist_snap *s;

	for (v = 64; v < (1ull << 39); v = v * 3 + 7) {
		s = snap_of(&v, 1);
		got = hist_quantile(s, 0.5);
		cr_assert(got >= v && got - v <= v / 32, "%lu -> %lu",
		    (unsigned long)v, (unsigned long)got);
		free(s);
	}
}

Test(hist, quantiles_of_a_uniform_ramp)
{
	uint64_t *v = malloc(100000 * sizeof(*v));
	struct hist_snap *s;
	size_t i;

	for (i = 0; i < 100000; i++)
		v[i] = 1000 + i;		/* 1 us .. 101 us */
	s = snap_of(v, 100000);
	cr_assert(labs((long)hist_quantile(s, 0.5) - 51000) < 51000 / 32);
	cr_assert(labs((long)hist_quantile(s, 0.99) - 100000) < 100000 / 32);
	free(v);
	free(s);
}

Test(hist, a_window_is_its_end_minus_its_start)
{
	struct hist *h = calloc(1, sizeof(*h));
	struct hist_snap *s = calloc(1, sizeof(*s));

	hist_record(h, 5);
	hist_add(s, h, -1);
	hist_record(h, 5000);
	hist_record(h, 5000);
	hist_add(s, h, 1);
	cr_assert_eq(s->n, 2);
	cr_assert(hist_quantile(s, 0) >= 5000, "the start's sample is gone");
	cr_assert_eq(hist_quantile(s, 2), hist_quantile(s, 1), "q past 1");
	free(h);
	free(s);
}

Test(hist, past_the_range_lands_in_the_last_bucket)
{
	uint64_t v = UINT64_MAX;
	struct hist_snap *s = snap_of(&v, 1);

	cr_assert(hist_quantile(s, 1) >= (1ull << 39));
	free(s);
}
