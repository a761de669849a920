/*
 * test_advise.c - the pool-size advice on synthetic rows: a clear knee,
 * capacity still growing, a target met, a target no width meets, and a
 * width where one run starved a coroutine or failed never picked.
 */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "advise.h"
#include "workload.h"

#define NROWS(r)	(sizeof(r) / sizeof((r)[0]))

/* A width measured 6 times, `starving` of them with a starved coroutine. */
static struct advise_row
row(unsigned int workers, double capacity, double p99_us,
    unsigned int starving)
{

	return (struct advise_row){ .workers = workers, .cpu_us = workers * 0.1,
	    .ops_per_s = 1e6 / workers, .capacity = capacity,
	    .p99_us = p99_us, .load_cpu_us_op = NAN, .target_cpu_us_op = NAN,
	    .target_ops_per_s = NAN, .target_ctxsw = NAN, .hops_per_s = NAN,
	    .runs = 6, .starving = starving };
}

static const struct advise_target no_target;

/* sleep:5:0.25: four resumptions an op, a quarter of them hold 5 ms. */
static const struct advise_load sleep_load = { "sleep:5:0.25", 0.005, false };
static const struct advise_sel machine = { "shared", "lfseg", 64, 2, 0 };

static void
check_reason(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p,
    const char *says)
{
	char buf[1536];

	advise_reason(rows, n, t, p, &sleep_load, &machine, buf, sizeof(buf));
	cr_assert(strstr(buf, says) != NULL, "reason '%s' lacks '%s'", buf,
	    says);
}

Test(advise, clear_knee_is_the_smallest_width_near_the_best)
{
	struct advise_row r[] = { row(1, 500, NAN, 0), row(2, 1000, NAN, 0),
	    row(4, 1900, NAN, 0), row(8, 2000, NAN, 0), row(16, 2010, NAN, 0),
	    row(32, 1980, NAN, 0) };
	struct advise_pick p;

	advise_choose(r, NROWS(r), &no_target, &p);
	cr_assert_eq(p.kind, ADVISE_KNEE);
	cr_assert_eq(r[p.row].workers, 4);
	cr_assert_eq(r[p.support].workers, 16, "compared with the best");
	check_reason(r, NROWS(r), &no_target, &p, "within 10 %");
}

Test(advise, flat_capacity_picks_the_narrowest)
{
	struct advise_row r[] = { row(1, 9e6, NAN, 0), row(8, 8e6, NAN, 0),
	    row(64, 1e6, NAN, 0) };
	struct advise_pick p;

	advise_choose(r, NROWS(r), &no_target, &p);
	cr_assert_eq(p.kind, ADVISE_KNEE);
	cr_assert_eq(r[p.row].workers, 1);
}

Test(advise, no_knee_when_capacity_still_grows)
{
	struct advise_row r[] = { row(8, 4000, NAN, 0), row(16, 8000, NAN, 0),
	    row(32, 16000, NAN, 0), row(64, 32000, NAN, 0) };
	struct advise_pick p;

	advise_choose(r, NROWS(r), &no_target, &p);
	cr_assert_eq(p.kind, ADVISE_NO_KNEE);
	cr_assert_eq(r[p.row].workers, 64);
	cr_assert_eq(r[p.support].workers, 32);
	check_reason(r, NROWS(r), &no_target, &p, "measure wider");
}

Test(advise, target_picks_the_smallest_width_that_meets_it)
{
	struct advise_row r[] = { row(2, 1000, 30000, 0), row(4, 2000, 15000, 0),
	    row(8, 4000, 10000, 0), row(16, 8000, 5000, 0),
	    row(32, 16000, 5000, 0) };
	struct advise_target rate = { .rate = 3000 };
	struct advise_target both = { .rate = 3000, .p99_us = 6000 };
	struct advise_pick p;

	advise_choose(r, NROWS(r), &rate, &p);
	cr_assert_eq(p.kind, ADVISE_TARGET);
	cr_assert_eq(r[p.row].workers, 8);
	cr_assert_eq(r[p.support].workers, 4, "the width that falls short");
	check_reason(r, NROWS(r), &rate, &p, "the next narrower, N=4, falls "
	    "short: capacity 2000");
	advise_choose(r, NROWS(r), &both, &p);
	cr_assert_eq(r[p.row].workers, 16, "p99 rules out 8");
	check_reason(r, NROWS(r), &both, &p, "p99 10 ms");
}

Test(advise, a_target_no_width_meets_recommends_none)
{
	struct advise_row r[] = { row(8, 4000, 100, 0), row(64, 30000, 100, 0),
	    row(128, 29000, 100, 0) };
	struct advise_target t = { .rate = 50000 };
	struct advise_pick p;

	advise_choose(r, NROWS(r), &t, &p);
	cr_assert_eq(p.kind, ADVISE_UNMET);
	cr_assert_eq(p.row, -1);
	cr_assert_eq(r[p.support].workers, 64, "the closest width");
	check_reason(r, NROWS(r), &t, &p, "no width measured meets the target: "
	    "the closest is N=64 (capacity 30000 ops/s, 40 % under 50000).");
	/* 50000 ops/s x 5 ms = 250 threads busy: the coroutines stop short. */
	check_reason(r, NROWS(r), &t, &p, "only 64 coroutines are in flight "
	    "(at most 12800 ops/s): run with --coroutines 256 or more.");
}

/*
 * The closest width is short because the sweep stopped short of what
 * Little's law needs: widening it can work, so that is the remedy.
 */
Test(advise, an_unmet_rate_names_the_width_littles_law_needs)
{
	struct advise_row r[] = { row(4, 800, 100, 0), row(8, 1600, 100, 0),
	    row(16, 3127, 100, 0) };
	struct advise_target t = { .rate = 5000 };
	struct advise_pick p;

	advise_choose(r, NROWS(r), &t, &p);
	cr_assert_eq(p.kind, ADVISE_UNMET);
	check_reason(r, NROWS(r), &t, &p, "the closest is N=16 (capacity 3127 "
	    "ops/s, 37 % under 5000). Little's law needs 25 threads busy at "
	    "once, more than the widest width measured: measure up to "
	    "--workers 32.");
}

/* A width that meets the target but was set aside: never "no width meets". */
Test(advise, a_width_set_aside_that_meets_is_named_not_denied)
{
	struct advise_row r[] = { row(8, 1500, 4000, 0), row(16, 3000, 4500, 0),
	    row(32, 6055, 5200, 1) };
	struct advise_target t = { .rate = 5000, .p99_us = 20000 };
	struct advise_pick p;
	char buf[1536];

	advise_choose(r, NROWS(r), &t, &p);
	cr_assert_eq(p.kind, ADVISE_UNMET);
	cr_assert_eq(r[p.aside_meets].workers, 32);
	advise_reason(r, NROWS(r), &t, &p, &sleep_load, &machine, buf,
	    sizeof(buf));
	cr_assert_null(strstr(buf, "no width meets"), "%s", buf);
	cr_assert_not_null(strstr(buf, "no width that ran clean meets the "
	    "target: N=32 meets it (capacity 6055 ops/s, p99 5.20 ms) but was "
	    "set aside"), "%s", buf);
}

/* A p99 no width keeps, and no wider width lowers: raise the bound. */
Test(advise, an_unmet_p99_says_where_it_bottoms_out)
{
	struct advise_row r[] = { row(8, 9000, 30000, 0), row(16, 9000, 25000,
	    0), row(32, 9000, 26000, 0) };
	struct advise_target t = { .rate = 5000, .p99_us = 20000 };
	struct advise_pick p;

	advise_choose(r, NROWS(r), &t, &p);
	cr_assert_eq(r[p.support].workers, 16);
	check_reason(r, NROWS(r), &t, &p, "(p99 25 ms, over 20). No wider width "
	    "lowers it: the p99 bottoms out at 25 ms at N=16");
}

/* The pick of rows r for t, and its price into buf. */
static void
priced(const struct advise_row *r, size_t n, const struct advise_target *t,
    struct advise_pick *p, char *buf, size_t len)
{

	advise_choose(r, n, t, p);
	advise_price(r, n, t, p, buf, len);
	return;
}

/*
 * Issue 46's scenario as measured: 10 % of resumptions block 2 ms, 3000
 * ops/s, p99 <= 10 ms. Flat out (64 coroutines) the whole pool's cost an
 * op falls with width; at the target (3 coroutines in flight) it rises,
 * with the context switches a dispatch.
 */
static const struct advise_target i46_target = { .rate = 3000,
    .p99_us = 10000 };

static size_t
i46_rows(struct advise_row *r)
{
	static const struct {
		unsigned int w;
		double cap, p99, cpu, load, at, at_ops, ctxsw;
	} m[] = {
		{ 1, 1160, 26200, 0.0322, 22.0, NAN, NAN, NAN },
		{ 2, 2300, 12800, 0.0764, 20.5, NAN, NAN, NAN },
		{ 4, 4600, 6620, 0.115, 12.7, 24.0, 3442, 0.172 },
		{ 8, 9330, 4130, 0.165, 7.51, 33.2, 3334, 0.53 },
		{ 16, 18500, 2160, 0.384, 5.74, 56.9, 3401, 1.1 },
	};
	size_t i;

	for (i = 0; i < NROWS(m); i++) {
		r[i] = row(m[i].w, m[i].cap, m[i].p99, 0);
		r[i].cpu_us = m[i].cpu;
		r[i].load_cpu_us_op = m[i].load;
		r[i].target_cpu_us_op = m[i].at;
		r[i].target_ops_per_s = m[i].at_ops;
		r[i].target_ctxsw = m[i].ctxsw;
	}
	return NROWS(m);
}

/*
 * Of the widths that meet the target, the one whose whole pool burns the
 * least at the target: never the one cheapest flat out (N=16 there, 5.74
 * us an op, 56.9 at the target), and a wider one when it is cheaper at
 * the target than the smallest.
 */
Test(advise, the_pick_burns_the_least_at_the_target)
{
	struct advise_row r[8];
	size_t n = i46_rows(r);
	struct advise_pick p;

	advise_choose(r, n, &i46_target, &p);
	cr_assert_eq(r[p.row].workers, 4, "not the cheapest flat out");
	cr_assert_eq(r[p.smallest].workers, 4);
	r[2].target_cpu_us_op = 40;
	r[3].target_cpu_us_op = 30;
	advise_choose(r, n, &i46_target, &p);
	cr_assert_eq(r[p.row].workers, 8);
	cr_assert_eq(r[p.smallest].workers, 4);
	check_reason(r, n, &i46_target, &p, "N=8 meets the target (capacity "
	    "9330 ops/s, p99 4.13 ms) for the least CPU at it: 30 us an op, "
	    "against 40 at N=4, the smallest width that meets it; N=2 falls "
	    "short: capacity 2300 ops/s, 23 % under 3000; p99 12.8 ms, over "
	    "10.");
	/* Not measured at the target: the smallest that meets it. */
	r[2].target_cpu_us_op = NAN;
	advise_choose(r, n, &i46_target, &p);
	cr_assert_eq(r[p.row].workers, 4);
}

/*
 * Both costs at the target rate: the whole pool's (the 0.04 of a
 * core was the handoffs' cost an op flat out), and the handoffs' alone.
 */
Test(advise, the_price_states_both_costs)
{
	struct advise_row r[8];
	size_t n = i46_rows(r);
	struct advise_pick p;
	char buf[1024];

	priced(r, n, &i46_target, &p, buf, sizeof(buf));
	cr_assert_str_eq(buf, "price: at the target the whole pool burns 24 us "
	    "of CPU an op at N=4, blocking and handoffs included (measured at "
	    "3442 ops/s, with the coroutines in flight that the target keeps "
	    "busy): 0.0720 of a CPU core at 3000 ops/s. The handoffs alone: a "
	    "non-blocking dispatch (resume-only) costs 0.115 us of CPU at N=4 "
	    "(0.460 us an op of 4 resumptions), 0.00138 of a core at 3000 "
	    "ops/s, 3.6x the 0.0322 us at N=1, the cheapest width that ran "
	    "clean.");
	/* A wider pick names the smallest width's cost beside its own. */
	r[2].target_cpu_us_op = 40;
	r[3].target_cpu_us_op = 30;
	priced(r, n, &i46_target, &p, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "0.0900 of a CPU core at 3000 ops/s; "
	    "N=4, the smallest width that meets the target, burns 40 us an op "
	    "there, 0.120 of a core."), "%s", buf);
	/* Never measured at the target: flat out, and it says so. */
	for (n = 0; n < 5; n++)
		r[n].target_cpu_us_op = NAN;
	priced(r, 5, &i46_target, &p, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "price: flat out under the load, at its "
	    "capacity of 4600 ops/s, the whole pool burns 12.7 us of CPU an op "
	    "at N=4, blocking and handoffs included: 0.0584 of a CPU core (at "
	    "the target rate it was not measured)."), "%s", buf);
}

/*
 * Which cost grows with width, and why, from the rows: the handoffs'
 * rises; the whole pool's at the target rises with its context
 * switches; flat out it falls, as the ops it carries grow faster than
 * the CPU it burns, then turns.
 */
Test(advise, growth_says_which_cost_grows_and_why)
{
	struct advise_row r[8];
	size_t n = i46_rows(r);
	char buf[2048];

	advise_growth(r, n, buf, sizeof(buf));
	cr_assert_str_eq(buf, "with width: the handoffs' cost rises from "
	    "0.0322 us at N=1 to 0.384 at N=16 (more workers contending for "
	    "the same work). At the target the whole pool's cost an op rises "
	    "from 24 us at N=4 to 56.9 at N=16, and with it the context "
	    "switches a dispatch (a thread parking, or woken) go from 0.172 to "
	    "1.10. Flat out, at each width's own capacity, it falls from 22 us "
	    "at N=1 to 5.74 at N=16: from N=1 to N=16 the ops it carries go "
	    "from 1160 to 18500 a second, the CPU it burns from 0.0255 to 0.106 "
	    "of a core.");
	r[n] = row(32, 34200, 1950, 0);
	r[n].cpu_us = 0.633;
	r[n++].load_cpu_us_op = 8.03;
	advise_growth(r, n, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "it falls from 22 us at N=1 to 5.74 at "
	    "N=16, then rises to 8.03 at N=32: from N=1 to N=16"), "%s", buf);
}

/*
 * The scenario's rows with its splits, N=2 beside a view of each wider
 * width: each carries what a pool as wide as its view does, and meets
 * the p99 from a view of 16.
 */
static void
i46_splits(struct advise_rows *rs)
{
	static const struct {
		unsigned int view;
		double cap, p99, load, at, hops;
	} m[] = {
		{ 4, 4650, 33300, 24.3, 28.0, 1860 },
		{ 8, 9340, 15600, 18.8, 29.0, 3730 },
		{ 16, 18500, 6680, 15.3, 30.1, 7390 },
		{ 32, 37000, 2230, 11.5, 31.0, 14800 },
	};
	size_t i;

	rs->n = i46_rows(rs->single);
	rs->nsplit = NROWS(m);
	for (i = 0; i < NROWS(m); i++) {
		rs->split[i] = row(2, m[i].cap, m[i].p99, 0);
		rs->split[i].view = m[i].view;
		rs->split[i].cpu_us = rs->single[1].cpu_us;
		rs->split[i].load_cpu_us_op = m[i].load;
		rs->split[i].target_cpu_us_op = m[i].at;
		rs->split[i].hops_per_s = m[i].hops;
	}
	return;
}

/*
 * A split that meets the target for less CPU an op at the target, hops
 * included, is recommended, with its blocking calls and hops a second at
 * the target rate (not flat out: 7390 there).
 */
Test(advise, a_split_cheaper_at_the_target_is_recommended)
{
	static struct advise_rows rs;
	struct advise_target t = i46_target;
	struct advise_pick p;
	char buf[1024];

	i46_splits(&rs);
	rs.split[2].target_cpu_us_op = 20;
	advise_choose_all(&rs, &i46_target, &p);
	cr_assert_eq(rs.single[p.row].workers, 4);
	cr_assert_eq(rs.split[p.split].view, 16, "the cheapest view meeting it");
	cr_assert(p.split_better);
	advise_split_words(&rs, &i46_target, &p, buf, sizeof(buf));
	cr_assert_str_eq(buf, "split pool: N=2 for the non-blocking work and "
	    "the blocking call on a view of 16 (withContext(Dispatchers.IO)) "
	    "meets the target (capacity 18500 ops/s, p99 6.68 ms) at 0.0764 us "
	    "of CPU a non-blocking dispatch, 1.5x less than N=4 alone (0.115 "
	    "us); each blocking call hops to the view and back: at 3000 ops/s "
	    "(the target), 1200 blocking calls and 2400 hops a second; at the "
	    "target an op costs 20 us of CPU in all, 24 on N=4 alone. "
	    "Recommended: run the non-blocking work on N=2 and only the "
	    "blocking call on a view of 16.");
	/* A rate no single width carries: the split, as the only one. */
	t.rate = 20000;
	advise_choose_all(&rs, &t, &p);
	cr_assert_eq(p.row, -1);
	cr_assert(p.split_better);
	advise_split_words(&rs, &t, &p, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "Recommended: run the non-blocking work "
	    "on N=2 and only the blocking call on a view of 32, as no single "
	    "width measured meets the target."), "%s", buf);
}

/*
 * Cheaper a dispatch, dearer an op at the target: the single pool stays
 * the advice, and one sentence says whether any rate needs the split:
 * those above what every single width carries, or none.
 */
Test(advise, a_split_dearer_at_the_target_says_which_rate_needs_it)
{
	static struct advise_rows rs;
	struct advise_pick p;
	char buf[1024];

	i46_splits(&rs);
	advise_choose_all(&rs, &i46_target, &p);
	cr_assert(!p.split_better, "30.1 us an op against 24");
	advise_split_words(&rs, &i46_target, &p, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "at the target an op costs 30.1 us of "
	    "CPU in all, 24 on N=4 alone. N=4 alone stays the recommendation; "
	    "the split is the one to use above 18500 ops/s, the most a single "
	    "width measured carries, up to 37000 with a view of 32."), "%s",
	    buf);
	cr_assert_null(strstr(buf, "measure it"), "%s", buf);
	/* A single width carries as much as any split: no rate needs it. */
	rs.single[rs.n] = row(32, 40000, 1950, 0);
	rs.single[rs.n++].target_cpu_us_op = 70;
	advise_choose_all(&rs, &i46_target, &p);
	advise_split_words(&rs, &i46_target, &p, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, " N=4 alone stays the recommendation, "
	    "and under this load no rate needs the split: every rate a split "
	    "measured carries (up to 37000 ops/s, a view of 32), N=32 alone "
	    "carries too (40000)."), "%s", buf);
}

Test(advise, a_starving_width_is_never_picked_silently)
{
	struct advise_row r[] = { row(1, 500, NAN, 0), row(2, 5000, NAN, 3),
	    row(4, 4800, NAN, 0) };
	struct advise_target t = { .rate = 1000 };
	struct advise_pick p;

	advise_choose(r, NROWS(r), &t, &p);
	cr_assert_eq(r[p.row].workers, 4);
	cr_assert_eq(p.set_aside, 1);
	cr_assert_eq(r[p.support].workers, 1, "the starving row is skipped");
	check_reason(r, NROWS(r), &t, &p, "N=2 (a coroutine made no progress "
	    "in 3 of 6 runs)");
	advise_choose(r, NROWS(r), &no_target, &p);
	cr_assert_eq(r[p.row].workers, 4);
}

/* Seed 003's widths under its load, and its target: N=32 meets it. */
static const struct advise_target seed_target = { .rate = 5000,
    .p99_us = 20000 };

static void
seed_rows(struct advise_row r[3])
{

	r[0] = row(8, 1500, 4000, 0);
	r[1] = row(16, 3000, 4500, 0);
	r[2] = row(32, 6055, 5200, 0);
	return;
}

/*
 * Seed 003's scenario: the blocking sweep starved nothing at N=32, the
 * resume-only sweep starved a coroutine in 1 of 6 runs there. N=32 meets
 * the target and is recommended, with the caution beside its cost.
 */
Test(advise, starving_in_the_cost_sweep_is_a_caution_not_a_veto)
{
	const struct advise_target t = seed_target;
	struct advise_row r[3];
	struct advise_pick p;

	seed_rows(r);

	r[2].cost_runs = 6;
	r[2].cost_starving = 1;
	advise_choose(r, NROWS(r), &t, &p);
	cr_assert_eq(p.kind, ADVISE_TARGET);
	cr_assert_eq(r[p.row].workers, 32);
	cr_assert_eq(p.set_aside, 0);
	check_reason(r, NROWS(r), &t, &p, "N=32 is the smallest width that "
	    "meets the target");
	check_reason(r, NROWS(r), &t, &p, "Caution: at N=32 a coroutine made "
	    "no progress in 1 of 6 resume-only runs");
}

/*
 * The cheapest width is what a price is a multiple of: one whose cost
 * sweep starved a coroutine may hide a stalled worker in its cost, so the
 * next cheapest that ran clean stands in for it.
 */
Test(advise, the_cheapest_width_is_one_whose_cost_sweep_ran_clean)
{
	static const double cpu_us[] = { 0.147, 0.3, 1.05 };
	const struct advise_target t = seed_target;
	struct advise_row r[3];
	struct advise_pick p;
	char buf[1024];
	size_t i;

	seed_rows(r);
	for (i = 0; i < NROWS(r); i++)
		r[i].cpu_us = cpu_us[i];
	r[0].cost_runs = 6;
	r[0].cost_starving = 1;
	priced(r, NROWS(r), &t, &p, buf, sizeof(buf));
	cr_assert_eq(r[p.row].workers, 32);
	cr_assert_eq(r[p.cheapest].workers, 16);
	cr_assert_not_null(strstr(buf, ", 3.5x the 0.300 us at N=16, the "
	    "cheapest width that ran clean."), "%s", buf);
	r[0].cost_starving = 0;
	advise_choose(r, NROWS(r), &t, &p);
	cr_assert_eq(r[p.cheapest].workers, 8);
}

/*
 * With no target, the split offered is the one whose view is the knee's
 * width, its narrow pool whatever it is: N=2 beside a view of 8 where N=8
 * alone is the knee, not the view of 4 nor the widest.
 */
Test(advise, the_split_beside_the_knee_has_the_knees_width_for_a_view)
{
	static struct advise_rows rs;
	struct advise_pick p;
	char buf[1024];

	rs.n = 3;
	rs.single[0] = row(2, 1000, NAN, 0);
	rs.single[1] = row(8, 3900, NAN, 0);
	rs.single[2] = row(16, 4000, NAN, 0);
	rs.nsplit = 3;
	rs.split[0] = row(2, 2000, NAN, 0);
	rs.split[1] = row(2, 3800, NAN, 0);
	rs.split[2] = row(2, 3950, NAN, 0);
	rs.split[0].view = 4;
	rs.split[1].view = 8;
	rs.split[2].view = 16;
	rs.split[0].cpu_us = rs.split[1].cpu_us = rs.split[2].cpu_us =
	    rs.single[0].cpu_us;
	/* Flat out, as nothing was measured at a target: less an op. */
	rs.split[1].load_cpu_us_op = 10;
	rs.single[1].load_cpu_us_op = 12;
	advise_choose_all(&rs, &no_target, &p);
	cr_assert_eq(p.kind, ADVISE_KNEE);
	cr_assert_eq(rs.single[p.row].workers, 8);
	cr_assert_geq(p.split, 0, "no split offered");
	cr_assert_eq(rs.split[p.split].view, 8);
	cr_assert(p.split_better);
	advise_split_words(&rs, &no_target, &p, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "split pool: N=2 for the non-blocking "
	    "work and the blocking call on a view of 8 (withContext("
	    "Dispatchers.IO)) carries (capacity 3800 ops/s)"), "%s", buf);
	cr_assert_not_null(strstr(buf, "4.0x less than N=8 alone"), "%s", buf);
}

/* One run in six is enough: a median of 0 starved would hide it. */
Test(advise, one_failed_or_starving_run_sets_a_width_aside)
{
	struct advise_row r[] = { row(1, 500, NAN, 0), row(2, 5000, NAN, 1),
	    row(4, 4800, NAN, 0), row(8, 4900, NAN, 0) };
	struct advise_target t = { .rate = 1000 };
	struct advise_pick p;

	r[2].failed = 1;
	advise_choose(r, NROWS(r), &t, &p);
	cr_assert_eq(r[p.row].workers, 8);
	cr_assert_eq(p.set_aside, 2);
	check_reason(r, NROWS(r), &t, &p, "N=2 (a coroutine made no progress "
	    "in 1 of 6 runs) N=4 (1 of 6 runs failed).");
}

/*
 * Rows come from a results file: resume-only cost, the load's capacity,
 * a split's cells apart with its narrow pool's cost.
 */
Test(advise, rows_join_both_profiles_by_width)
{
	static const char doc_text[] = "{\"context\": {\"online_cpus\": 2},"
	    "\"cells\": ["
	    "{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 8,"
	    " \"coroutines\": 64, \"workload\": \"sleep:5:0.1\", \"summary\": {"
	    "\"ops_per_s\": {\"median\": 3900}, \"latency_p99_us\": {\"median\":"
	    " 10000}, \"ceiling_ops_per_s\": {\"median\": 4000}}},"
	    "{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 8,"
	    " \"coroutines\": 64, \"workload\": \"resume\", \"summary\": {"
	    "\"ops_per_s\": {\"median\": 8e5}, \"cpu_us_per_dispatch\": {"
	    "\"median\": 0.6, \"min\": 0.4, \"max\": 1.4}}, \"runs\": ["
	    "{\"status\": \"ok\", \"starved\": 0}, {\"status\": \"ok\", "
	    "\"starved\": 2}, {\"status\": \"hung\"}]},"
	    "{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2,"
	    " \"coroutines\": 64, \"workload\": \"resume\", \"summary\": {"
	    "\"ops_per_s\": {\"median\": 2e6}, \"cpu_us_per_dispatch\": {"
	    "\"median\": 0.2}}},"
	    "{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2,"
	    " \"coroutines\": 64, \"workload\": \"sleep:5:0.1\", \"summary\": {"
	    "\"ops_per_s\": {\"median\": 990}}},"
	    "{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2,"
	    " \"coroutines\": 64, \"workload\": \"sleep:5:0.1\", \"split\": 8,"
	    " \"summary\": {\"ops_per_s\": {\"median\": 3800}, \"hops_per_s\": {"
	    "\"median\": 1520}, \"cpu_us_per_op\": {\"median\": 40}}},"
	    "{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 8,"
	    " \"coroutines\": 3, \"workload\": \"sleep:5:0.1\", \"summary\": {"
	    "\"ops_per_s\": {\"median\": 3500}, \"cpu_us_per_op\": {\"median\": "
	    "30}, \"ctx_switches_per_dispatch\": {\"median\": 0.5}}, \"runs\": ["
	    "{\"status\": \"ok\"}, {\"status\": \"crashed\"}]},"
	    "{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 2,"
	    " \"coroutines\": 3, \"workload\": \"sleep:5:0.1\", \"split\": 8,"
	    " \"summary\": {\"cpu_us_per_op\": {\"median\": 41}}},"
	    "{\"dispatcher\": \"limited\", \"queue\": \"lfseg\", \"workers\": 4,"
	    " \"coroutines\": 32, \"workload\": \"resume\", \"summary\": {}}],"
	    "\"advise\": {\"load\": \"sleep:5:0.1\", \"rate_ops_per_s\": 1500, "
	    "\"p99_ms\": 20, \"at_target_coroutines\": 3}}";
	cJSON *doc = cJSON_Parse(doc_text);
	const struct advise_load load = { "sleep:5:0.1", 0.002, false };
	struct advise_sel sel = { .dispatcher = "shared" };
	struct advise_target t = { 0 };
	static struct advise_rows r;
	const char *recorded = NULL;
	unsigned int at_target = 0;
	char err[256];

	cr_assert_eq(advise_select(doc, "f.json", &sel, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_str_eq(sel.queue, "lfseg", "read from the file");
	cr_assert_eq(sel.coroutines, 64, "read from the file");
	cr_assert_eq(sel.cpus, 2, "the machine that measured it");
	/* The advice it was recorded with: what --from alone advises on. */
	cr_assert_eq(advise_recorded(doc, &t, &recorded, &at_target), 1);
	cr_assert_str_eq(recorded, "sleep:5:0.1");
	cr_assert_float_eq(t.rate, 1500, 1e-9);
	cr_assert_float_eq(t.p99_us, 20000, 1e-9);
	cr_assert_eq(at_target, 3);
	sel.at_target = at_target;
	cr_assert_eq(advise_rows(doc, &sel, &load, &r, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(r.n, 2);
	cr_assert_eq(r.single[0].workers, 2, "sorted by width");
	cr_assert_float_eq(r.single[1].cpu_us, 0.6, 1e-12);
	cr_assert_float_eq(r.single[1].capacity, 3900, 1e-9);
	cr_assert_float_eq(r.single[1].ops_per_s, 8e5, 1e-9);
	cr_assert_float_eq(r.single[1].p99_us, 10000, 1e-9);
	cr_assert_float_eq(r.single[1].ceiling, 4000, 1e-9);
	/* Its runs are the resume-only sweep's: a caution, not the load's. */
	cr_assert_eq(r.single[1].cost_runs, 3);
	cr_assert_eq(r.single[1].cost_starving, 1, "counted run by run");
	cr_assert_eq(r.single[1].runs, 0);
	cr_assert_eq(r.single[1].starving, 0, "the resume-only sweep vetoes "
	    "nothing");
	cr_assert_eq(r.single[1].failed, 2, "one hung, one crashed at the "
	    "target");
	/* At the target: its own cells, into the rows of their widths. */
	cr_assert_float_eq(r.single[1].target_cpu_us_op, 30, 1e-9);
	cr_assert_float_eq(r.single[1].target_ops_per_s, 3500, 1e-9);
	cr_assert_float_eq(r.single[1].target_ctxsw, 0.5, 1e-9);
	cr_assert_eq(r.single[1].target_runs, 2);
	cr_assert(isnan(r.single[0].target_cpu_us_op), "N=2 not measured there");
	/* The split: its own row, its narrow pool's cost. */
	cr_assert_eq(r.nsplit, 1);
	cr_assert_eq(r.split[0].workers, 2);
	cr_assert_eq(r.split[0].view, 8);
	cr_assert_float_eq(r.split[0].capacity, 3800, 1e-9);
	cr_assert_float_eq(r.split[0].hops_per_s, 1520, 1e-9);
	cr_assert_float_eq(r.split[0].load_cpu_us_op, 40, 1e-9);
	cr_assert_float_eq(r.split[0].cpu_us, 0.2, 1e-12, "N=2's resume-only");
	cr_assert_float_eq(r.split[0].target_cpu_us_op, 41, 1e-9);
	cr_assert_float_eq(r.single[0].capacity, 990, 1e-9, "not the split's");
	sel = (struct advise_sel){ .dispatcher = "shared", .coroutines = 8 };
	cr_assert_neq(advise_select(doc, "f.json", &sel, err, sizeof(err)), 0,
	    "no cell has 8 coroutines");
	cJSON_DeleteItemFromObject(doc, "advise");
	cr_assert_eq(advise_recorded(doc, &t, &recorded, &at_target), 0,
	    "a file of run's records no advice");
	cJSON_Delete(doc);
}

/*
 * A rate that keeps every coroutine busy is measured at once: the load's
 * own cells are at the target, and no second pass was made.
 */
Test(advise, a_target_that_keeps_every_coroutine_busy_is_the_load_itself)
{
	cJSON *doc = cJSON_Parse("{\"cells\": [{\"dispatcher\": \"shared\", "
	    "\"queue\": \"lfseg\", \"workers\": 8, \"coroutines\": 64, "
	    "\"workload\": \"resume\", \"summary\": {\"ops_per_s\": {"
	    "\"median\": 8e5}, \"cpu_us_per_dispatch\": {\"median\": 0.6}}}, "
	    "{\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": "
	    "8, \"coroutines\": 64, \"workload\": \"sleep:5:0.1\", \"summary\":"
	    " {\"ops_per_s\": {\"median\": 3900}, \"cpu_us_per_op\": {"
	    "\"median\": 12}, \"ctx_switches_per_dispatch\": {\"median\": "
	    "0.2}}}]}");
	const struct advise_load load = { "sleep:5:0.1", 0.002, false };
	struct advise_sel sel = { .dispatcher = "shared", .at_target = 64 };
	static struct advise_rows r;
	char err[256];

	cr_assert_eq(advise_select(doc, "f.json", &sel, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(advise_rows(doc, &sel, &load, &r, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_float_eq(r.single[0].target_cpu_us_op, 12, 1e-9);
	cr_assert_float_eq(r.single[0].target_ops_per_s, 3900, 1e-9);
	cr_assert_eq(r.single[0].target_runs, 0, "no runs of its own");
	cJSON_Delete(doc);
}

/* A file of two designs: the one to advise on must be named. */
Test(advise, a_file_of_two_designs_asks_which)
{
	cJSON *doc = cJSON_Parse("{\"cells\": [{\"dispatcher\": \"shared\", "
	    "\"queue\": \"lfseg\", \"workers\": 2, \"coroutines\": 64, "
	    "\"workload\": \"resume\"}, {\"dispatcher\": \"limited\", \"queue\":"
	    " \"lfseg\", \"workers\": 2, \"coroutines\": 64, \"workload\": "
	    "\"resume\"}]}");
	struct advise_sel sel = { 0 };
	char err[256];

	cr_assert_neq(advise_select(doc, "f.json", &sel, err, sizeof(err)), 0);
	cr_assert_str_eq(err, "advise: f.json holds shared/lfseg c=64, "
	    "limited/lfseg c=64: name one with --dispatcher, --queue and "
	    "--coroutines");
	sel.dispatcher = "limited";
	cr_assert_eq(advise_select(doc, "f.json", &sel, err, sizeof(err)), 0,
	    "%s", err);
	cJSON_Delete(doc);
}

/*
 * Three widths each of shared and of limited, threads against memory:
 * advise on limited gives limited's memory a thread (4 kB, 2000 kB
 * beside) and no other design's.
 */
Test(advise, memory_is_the_advised_designs_alone)
{
	static const char *const designs[] = { "shared", "limited" };
	cJSON *doc = cJSON_CreateObject(), *cells, *cell, *summ;
	struct advise_sel sel = { .dispatcher = "limited", .queue = "lfseg",
	    .coroutines = 64 };
	char out[2048];
	FILE *f;
	int d, w;

	cells = cJSON_AddArrayToObject(doc, "cells");
	for (d = 0; d < 2; d++)
		for (w = 1; w <= 4; w *= 2) {
			cell = cJSON_CreateObject();
			cJSON_AddStringToObject(cell, "dispatcher", designs[d]);
			cJSON_AddStringToObject(cell, "queue", "lfseg");
			cJSON_AddNumberToObject(cell, "workers", w);
			cJSON_AddNumberToObject(cell, "coroutines", 64);
			summ = cJSON_AddObjectToObject(cell, "summary");
			cJSON_AddNumberToObject(cJSON_AddObjectToObject(summ,
			    "threads_peak"), "median", w + 1);
			cJSON_AddNumberToObject(cJSON_AddObjectToObject(summ,
			    "rss_anon_peak_kb"), "median", (d + 1) * (1000 + 2 *
			    (w + 1)));
			cJSON_AddItemToArray(cells, cell);
		}
	cr_assert_not_null(f = fmemopen(out, sizeof(out), "w"));
	advise_memory(f, doc, &sel);
	fclose(f);
	cr_assert(strncmp(out, "memory: 4.0 kB per thread + 2000 kB (r2 1.00, "
	    "3 widths) for limited/lfseg c=64", 62) == 0, "%s", out);
	cr_assert_null(strstr(out, "shared"), "%s", out);
	cJSON_Delete(doc);
}

/*
 * The rows of shared's cells in doc, against a load of 5 ms blocking in
 * one resumption in ten.
 */
static void
shared_rows(const cJSON *doc, struct advise_rows *r)
{
	const struct advise_load load = { "sleep:5:0.1", 0.002, false };
	struct advise_sel sel = { .dispatcher = "shared" };
	char err[256];

	cr_assert_eq(advise_select(doc, "f.json", &sel, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(advise_rows(doc, &sel, &load, r, err, sizeof(err)), 0,
	    "%s", err);
	return;
}

/*
 * A width whose runs fell into two groups (3.5 µs in 4 of 7, 10.7 in 3)
 * is told with each group's cost and share; one whose groups the host's
 * placements explain is told by placement alone, and one of one group
 * not at all.
 */
Test(advise, a_cost_in_two_groups_is_told_by_each)
{
	cJSON *doc = cJSON_Parse("{\"cells\": [{\"dispatcher\": \"shared\", "
	    "\"queue\": \"lfseg\", \"workers\": 64, \"coroutines\": 64, "
	    "\"workload\": \"resume\", \"summary\": {\"cpu_us_per_dispatch\": {"
	    "\"median\": 4, \"bimodal\": {\"boundary\": 6, \"runs_above\": 3, "
	    "\"share_above\": 0.43, \"below\": {\"runs\": 4, \"median\": 3.5}, "
	    "\"above\": {\"runs\": 3, \"median\": 10.7}}}}}, {\"dispatcher\": "
	    "\"shared\", \"queue\": \"lfseg\", \"workers\": 32, \"coroutines\": "
	    "64, \"workload\": \"resume\", \"summary\": {\"cpu_us_per_dispatch\": "
	    "{\"median\": 0.5, \"bimodal\": {\"boundary\": 0.8, \"runs_above\": "
	    "2, \"share_above\": 0.33, \"below\": {\"runs\": 4, \"median\": "
	    "0.3}, \"above\": {\"runs\": 2, \"median\": 1.2}}, \"placement\": {"
	    "\"boundary_ns\": 120, \"near\": {\"runs\": 4, \"median\": 0.3}, "
	    "\"far\": {\"runs\": 2, \"median\": 1.2}, \"moved\": 0}}}}, {"
	    "\"dispatcher\": \"shared\", \"queue\": \"lfseg\", \"workers\": 8, "
	    "\"coroutines\": 64, \"workload\": \"resume\", \"summary\": {"
	    "\"cpu_us_per_dispatch\": {\"median\": 0.5}}}, {\"dispatcher\": "
	    "\"shared\", \"queue\": \"lfseg\", \"workers\": 64, \"coroutines\": "
	    "64, \"workload\": \"sleep:5:0.1\", \"summary\": {\"ops_per_s\": {"
	    "\"median\": 3900}}}]}");
	static struct advise_rows r;
	char buf[2048];

	shared_rows(doc, &r);
	cr_assert_eq(r.n, 3);
	cr_assert_float_eq(r.single[2].cpu_us_below, 3.5, 1e-12);
	cr_assert_float_eq(r.single[2].cpu_us_above, 10.7, 1e-12);
	cr_assert_eq(r.single[2].runs_above, 3);
	cr_assert_eq(r.single[1].runs_above, 0, "the placements explain them");
	cr_assert_eq(r.single[1].runs_near, 4);
	cr_assert(isnan(r.single[0].cpu_us_above), "one group");
	advise_group_words(r.single, r.n, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "N=64 3.5 (4 of 7 runs) and 10.7 (3 of "
	    "7)"), "%s", buf);
	cr_assert_null(strstr(buf, "N=8"), "%s", buf);
	cr_assert_null(strstr(buf, "N=32"), "%s", buf);
	advise_group_words(r.single, 2, buf, sizeof(buf));
	cr_assert_str_eq(buf, "", "no width in two groups");
	cJSON_Delete(doc);
}

/*
 * A width whose cost the host's two placements of the CPUs moved (1.2 µs
 * far against 0.3 near) is told on each, with its runs; one they moved
 * by less than RESULTS_PLACED_APART is not.
 */
Test(advise, a_cost_two_placements_moved_is_told_on_each)
{
	cJSON *doc = cJSON_Parse("{\"cells\": [{\"dispatcher\": \"shared\", "
	    "\"queue\": \"lfseg\", \"workers\": 64, \"coroutines\": 64, "
	    "\"workload\": \"resume\", \"summary\": {\"cpu_us_per_dispatch\": {"
	    "\"median\": 0.4, \"placement\": {\"boundary_ns\": 120, \"near\": {"
	    "\"runs\": 4, \"median\": 0.3}, \"far\": {\"runs\": 2, \"median\": "
	    "1.2}, \"moved\": 0}}}}, {\"dispatcher\": \"shared\", \"queue\": "
	    "\"lfseg\", \"workers\": 8, \"coroutines\": 64, \"workload\": "
	    "\"resume\", \"summary\": {\"cpu_us_per_dispatch\": {\"median\": "
	    "0.5, \"placement\": {\"boundary_ns\": 120, \"near\": {\"runs\": 3, "
	    "\"median\": 0.5}, \"far\": {\"runs\": 3, \"median\": 0.55}, "
	    "\"moved\": 0}}}}, {\"dispatcher\": \"shared\", \"queue\": "
	    "\"lfseg\", \"workers\": 64, \"coroutines\": 64, \"workload\": "
	    "\"sleep:5:0.1\", \"summary\": {\"ops_per_s\": {\"median\": "
	    "3900}}}]}");
	static struct advise_rows r;
	char buf[2048];

	shared_rows(doc, &r);
	cr_assert_eq(r.n, 2);
	cr_assert_float_eq(r.single[1].cpu_us_far, 1.2, 1e-12);
	cr_assert_eq(r.single[1].runs_near, 4);
	cr_assert_eq(r.single[0].runs_near, 0, "moved by 1.1 times: one cost");
	cr_assert(isnan(r.single[0].cpu_us_near));
	advise_placement_words(r.single, r.n, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "N=64 0.3 near (4 runs), 1.2 far (2)"),
	    "%s", buf);
	cr_assert_null(strstr(buf, "N=8"), "%s", buf);
	advise_placement_words(r.single, 1, buf, sizeof(buf));
	cr_assert_str_eq(buf, "", "no width's cost moved");
	cJSON_Delete(doc);
}
