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
	    .p99_us = p99_us, .runs = 6, .starving = starving };
}

static const struct advise_target no_target;

/* sleep:5:0.25: four resumptions an op, a quarter of them hold 5 ms. */
static const struct advise_load sleep_load = { "sleep:5:0.25", 0.005, false };
static const struct advise_sel machine = { "shared", "lfseg", 64, 2 };

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
 * The price of the capacity (issue's table): N=32 at 1.05 us a dispatch
 * against N=8's 0.147, at 5000 ops/s: 0.021 and 0.00294 of a core.
 */
Test(advise, the_price_is_a_multiple_and_cores_at_the_rate)
{
	struct advise_row r[] = { row(8, 1500, 4000, 0), row(16, 3000, 4500, 0),
	    row(32, 6055, 5200, 0), row(64, 9000, 5000, 0) };
	struct advise_target t = { .rate = 5000, .p99_us = 20000 };
	struct advise_pick p;
	char buf[1024];

	r[0].cpu_us = 0.147;
	r[2].cpu_us = 1.05;
	r[3].cpu_us = 1.43;
	priced(r, NROWS(r), &t, &p, buf, sizeof(buf));
	cr_assert_eq(r[p.row].workers, 32);
	cr_assert_eq(r[p.cheapest].workers, 8);
	cr_assert_str_eq(buf, "price: a non-blocking dispatch costs 1.05 us of "
	    "CPU at N=32 (4.20 us an op of 4 resumptions), 7.1x the 0.147 us "
	    "at N=8, the cheapest width that ran clean; the handoffs of 5000 "
	    "ops/s (the target) take 0.0210 of a CPU core, 0.00294 at N=8. "
	    "N=32 buys capacity 6055 ops/s and a p99 of 5.20 ms, against 1500 "
	    "ops/s and 4 ms at N=8.");
	check_reason(r, NROWS(r), &t, &p, "the next narrower, N=16, falls "
	    "short: capacity 3000 ops/s, 40 % under 5000.");
}

/* A split that meets the target for less CPU a dispatch is recommended. */
Test(advise, a_split_that_meets_it_for_less_is_recommended)
{
	static struct advise_rows rs;
	struct advise_target t = { .rate = 5000, .p99_us = 20000 };
	struct advise_pick p;
	char buf[1024];

	rs.n = 3;
	rs.single[0] = row(2, 700, 4000, 0);
	rs.single[1] = row(16, 3000, 4500, 0);
	rs.single[2] = row(32, 6055, 5200, 0);
	rs.nsplit = 2;
	rs.split[0] = row(2, 3050, 5000, 0);
	rs.split[1] = row(2, 6000, 5300, 0);
	rs.split[0].view = 16;
	rs.split[1].view = 32;
	rs.split[1].hops_per_s = 5000;
	rs.split[0].cpu_us = rs.split[1].cpu_us = rs.single[0].cpu_us;
	advise_choose_all(&rs, &t, &p);
	cr_assert_eq(rs.single[p.row].workers, 32);
	cr_assert_eq(rs.split[p.split].view, 32, "the narrowest view meeting it");
	cr_assert(p.split_better);
	advise_split_words(&rs, &t, &p, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "split pool: N=2 for the non-blocking "
	    "work and the blocking call on a view of 32 (withContext("
	    "Dispatchers.IO)) meets the target (capacity 6000 ops/s, p99 5.30 "
	    "ms) at 0.200 us of CPU a non-blocking dispatch, 16.0x less than "
	    "N=32 alone (3.20 us)"), "%s", buf);
	cr_assert_not_null(strstr(buf, "Recommended: run the non-blocking "
	    "work on N=2 and only the blocking call on a view of 32."), "%s",
	    buf);
	/*
	 * Cheaper a dispatch, dearer an op in all (the seed's load measured:
	 * 21.0 us an op with the hops against 12.1 on N=32 alone): the single
	 * pool stays the advice, and the words say why.
	 */
	rs.split[1].load_cpu_us_op = 21.0;
	rs.single[2].load_cpu_us_op = 12.1;
	advise_choose_all(&rs, &t, &p);
	cr_assert(!p.split_better);
	advise_split_words(&rs, &t, &p, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "an op under the load costs 21 us of "
	    "CPU in all, 12.1 on N=32 alone. It saves CPU on each "
	    "non-blocking dispatch but costs more in all"), "%s", buf);
	rs.split[1].load_cpu_us_op = NAN;
	/* Dearer a dispatch than the single pool: it stays the advice. */
	rs.split[1].cpu_us = 4;
	advise_choose_all(&rs, &t, &p);
	cr_assert(!p.split_better);
	advise_split_words(&rs, &t, &p, buf, sizeof(buf));
	cr_assert_not_null(strstr(buf, "N=32 alone stays the recommendation"),
	    "%s", buf);
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
	    "cheapest width that ran clean;"), "%s", buf);
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
	    "{\"dispatcher\": \"limited\", \"queue\": \"lfseg\", \"workers\": 4,"
	    " \"coroutines\": 32, \"workload\": \"resume\", \"summary\": {}}]}";
	cJSON *doc = cJSON_Parse(doc_text);
	const struct advise_load load = { "sleep:5:0.1", 0.002, false };
	struct advise_sel sel = { .dispatcher = "shared" };
	static struct advise_rows r;
	char err[256];

	cr_assert_eq(advise_select(doc, "f.json", &sel, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_str_eq(sel.queue, "lfseg", "read from the file");
	cr_assert_eq(sel.coroutines, 64, "read from the file");
	cr_assert_eq(sel.cpus, 2, "the machine that measured it");
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
	cr_assert_eq(r.single[1].failed, 1);
	/* The split: its own row, its narrow pool's cost. */
	cr_assert_eq(r.nsplit, 1);
	cr_assert_eq(r.split[0].workers, 2);
	cr_assert_eq(r.split[0].view, 8);
	cr_assert_float_eq(r.split[0].capacity, 3800, 1e-9);
	cr_assert_float_eq(r.split[0].hops_per_s, 1520, 1e-9);
	cr_assert_float_eq(r.split[0].load_cpu_us_op, 40, 1e-9);
	cr_assert_float_eq(r.split[0].cpu_us, 0.2, 1e-12, "N=2's resume-only");
	cr_assert_float_eq(r.single[0].capacity, 990, 1e-9, "not the split's");
	sel = (struct advise_sel){ .dispatcher = "shared", .coroutines = 8 };
	cr_assert_neq(advise_select(doc, "f.json", &sel, err, sizeof(err)), 0,
	    "no cell has 8 coroutines");
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
