/*
 * test_pin.c - pin plans on machines this one is not: synthetic hwloc
 * topologies (HWLOC_SYNTHETIC), where no binding is possible and every
 * PU is usable, so a plan is the planner's alone.
 */
#include <stdlib.h>

#include <criterion/criterion.h>

#include "pin.h"

static struct pin_plan
plan_on(const char *topology, const char *spec)
{
	struct pin_plan p;
	char err[256];

	setenv("HWLOC_SYNTHETIC", topology, 1);
	cr_assert_eq(pin_plan_init(&p, spec, err, sizeof(err)), 0,
	    "--pin %s on %s: %s", spec, topology, err);
	return p;
}

/* The PU of each of n threads, as "0 1 2". */
static void
plan_text(const struct pin_plan *p, unsigned int n, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d",
		    i > 0 ? " " : "", pin_plan_pu(p, i));
	return;
}

static void
plan_expect(const char *topology, const char *spec, unsigned int n,
    const char *want)
{
	struct pin_plan p = plan_on(topology, spec);
	char got[1024];

	plan_text(&p, n, got, sizeof(got));
	cr_assert_str_eq(got, want, "--pin %s for %u threads on %s", spec, n,
	    topology);
	pin_plan_fini(&p);
}

Test(pin, compact_fills_a_core_then_the_next)
{

	plan_expect("pack:2 core:2 pu:2", "compact", 8, "0 1 2 3 4 5 6 7");
}

Test(pin, scatter_spreads_over_packages_then_cores_then_pus)
{

	plan_expect("pack:2 core:2 pu:2", "scatter", 8, "0 4 2 6 1 5 3 7");
	plan_expect("pack:1 core:4 pu:2", "scatter", 4, "0 2 4 6");
	plan_expect("pack:2 numa:2 core:4 pu:2", "scatter", 4, "0 16 8 24");
}

Test(pin, more_threads_than_pus_wrap_around)
{

	plan_expect("pack:1 core:2 pu:1", "compact", 5, "0 1 0 1 0");
	plan_expect("pack:2 core:1 pu:2", "scatter", 6, "0 2 1 3 0 2");
}

Test(pin, a_list_is_followed_as_given)
{

	plan_expect("pack:2 core:4 pu:2", "3,12,3", 4, "3 12 3 3");
}

Test(pin, none_binds_nothing)
{

	plan_expect("pack:1 core:2 pu:1", "none", 2, "-1 -1");
}

Test(pin, a_pu_the_machine_lacks_is_an_error)
{
	struct pin_plan p;
	char err[256];

	setenv("HWLOC_SYNTHETIC", "pack:1 core:4 pu:2", 1);
	cr_assert_eq(pin_plan_init(&p, "8", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "--pin: PU 8 is not in this machine's allowed "
	    "cpuset (PUs 0-7)");
	cr_assert_eq(pin_plan_init(&p, "1,x", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "--pin: '1,x' is not none, compact, scatter or "
	    "a list of PU numbers");
}

/* The request workload's I/O loop takes the last PU; the others share the rest. */
Test(pin, apart_sets_the_last_pu_aside)
{
	struct pin_plan p = plan_on("pack:1 core:4 pu:1", "compact");
	char got[64];

	pin_plan_apart(&p);
	plan_text(&p, 4, got, sizeof(got));
	cr_assert_str_eq(got, "0 1 2 0");
	pin_plan_fini(&p);
	p = plan_on("pack:1 core:1 pu:1", "compact");
	pin_plan_apart(&p);
	plan_text(&p, 2, got, sizeof(got));
	cr_assert_str_eq(got, "0 0", "one PU: nothing set aside");
	pin_plan_fini(&p);
}
