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

static void
check_reason(const struct advise_row *rows, size_t n,
    const struct advise_target *t, const struct advise_pick *p,
    const char *says)
{
	char buf[512];

	advise_reason(rows, n, t, p, buf, sizeof(buf));
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
	check_reason(r, NROWS(r), &no_target, &p, "widen the sweep");
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
	check_reason(r, NROWS(r), &rate, &p, "N=4 falls short (capacity 2000");
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
	check_reason(r, NROWS(r), &t, &p, "no width meets");
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

/*
 * Seed 003's scenario: the blocking sweep starved nothing at N=32, the
 * resume-only sweep starved a coroutine in 1 of 6 runs there. N=32 meets
 * the target and is recommended, with the caution beside its cost.
 */
Test(advise, starving_in_the_cost_sweep_is_a_caution_not_a_veto)
{
	struct advise_row r[] = { row(8, 1500, 4000, 0), row(16, 3000, 4500, 0),
	    row(32, 6055, 5200, 0) };
	struct advise_target t = { .rate = 5000, .p99_us = 20000 };
	struct advise_pick p;

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

/* Rows come from a results file: resume-only cost, the load's capacity. */
Test(advise, rows_join_both_profiles_by_width)
{
	static const char doc_text[] = "{\"cells\": ["
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
	    "{\"dispatcher\": \"limited\", \"queue\": \"lfseg\", \"workers\": 4,"
	    " \"coroutines\": 64, \"workload\": \"resume\", \"summary\": {}}]}";
	cJSON *doc = cJSON_Parse(doc_text);
	struct workload_profile p;
	struct advise_load load;
	struct advise_row r[ADVISE_MAX_ROWS];
	char err[256];
	size_t n;

	cr_assert_eq(workload_profile_parse(&p, "sleep:5:0.1", err,
	    sizeof(err)), 0);
	load = (struct advise_load){ "sleep:5:0.1", workload_hold_s(&p),
	    p.kind->cpu_bound };
	cr_assert_eq(advise_rows(doc, "shared", "lfseg", 64, &load, r, &n, err,
	    sizeof(err)), 0, "%s", err);
	cr_assert_eq(n, 2);
	cr_assert_eq(r[0].workers, 2, "sorted by width");
	cr_assert_float_eq(r[1].cpu_us, 0.6, 1e-12);
	cr_assert_float_eq(r[1].capacity, 3900, 1e-9);
	cr_assert_float_eq(r[1].ops_per_s, 8e5, 1e-9);
	cr_assert_float_eq(r[1].p99_us, 10000, 1e-9);
	cr_assert_float_eq(r[1].ceiling, 4000, 1e-9);
	/* Its runs are the resume-only sweep's: a caution, not the load's. */
	cr_assert_eq(r[1].cost_runs, 3);
	cr_assert_eq(r[1].cost_starving, 1, "counted run by run");
	cr_assert_eq(r[1].runs, 0);
	cr_assert_eq(r[1].starving, 0, "the resume-only sweep vetoes nothing");
	cr_assert_eq(r[1].failed, 1);
	cr_assert_neq(advise_rows(doc, "shared", "lfseg", 8, &load, r, &n, err,
	    sizeof(err)), 0, "no cell has 8 coroutines");
	cJSON_Delete(doc);
}
