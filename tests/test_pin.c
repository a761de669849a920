/*
 * test_pin.c - pin plans on machines this one is not: synthetic hwloc
 * topologies (HWLOC_SYNTHETIC) and a real 2-socket server's (tests/data,
 * HWLOC_XMLFILE), where no binding is possible and every PU is usable
 * unless a cpuset is given, so a plan is the planner's alone.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "pin.h"

/* Two packages of two NUMA nodes of 16 cores of 2 PUs: 128 PUs. */
#define TWO_SOCKETS	"pack:2 numa:2 core:16 pu:2"
#define XEON_2S		DB_TEST_DATA "/xeon-e5-2650-2s.xml"

/* A topology: a file is hwloc's XML, anything else a synthetic one. */
static void
topology_is(const char *topology)
{

	unsetenv("HWLOC_XMLFILE");
	unsetenv("HWLOC_SYNTHETIC");
	setenv(topology[0] == '/' ? "HWLOC_XMLFILE" : "HWLOC_SYNTHETIC",
	    topology, 1);
}

static struct pin_plan
plan_within(const char *topology, const char *spec, const char *cpuset)
{
	struct pin_plan p;
	char err[256];

	topology_is(topology);
	cr_assert_eq(pin_plan_init_within(&p, spec, cpuset, err, sizeof(err)),
	    0, "--pin %s on %s: %s", spec, topology, err);
	return p;
}

static struct pin_plan
plan_on(const char *topology, const char *spec)
{

	return plan_within(topology, spec, NULL);
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
plan_expect_within(const char *topology, const char *cpuset,
    const char *spec, unsigned int n, const char *want)
{
	struct pin_plan p = plan_within(topology, spec, cpuset);
	char got[1024];

	plan_text(&p, n, got, sizeof(got));
	cr_assert_str_eq(got, want, "--pin %s for %u threads on %s", spec, n,
	    topology);
	pin_plan_fini(&p);
}

static void
plan_expect(const char *topology, const char *spec, unsigned int n,
    const char *want)
{

	plan_expect_within(topology, NULL, spec, n, want);
}

static void
plan_refused(const char *topology, const char *cpuset, const char *spec,
    const char *why)
{
	struct pin_plan p;
	char err[256];

	topology_is(topology);
	cr_assert_eq(pin_plan_init_within(&p, spec, cpuset, err, sizeof(err)),
	    -1, "--pin %s on %s", spec, topology);
	cr_assert_str_eq(err, why);
}

/* Where each of n threads runs, counted by the object of type it is in. */
static void
plan_spread(const struct pin_plan *p, unsigned int n, int *pus, int *cores,
    int *nodes)
{
	struct pin_where w;
	unsigned int i;

	for (i = 0; i < n; i++) {
		cr_assert_eq(pin_plan_where(p, i, &w), 0);
		pus[w.pu]++;
		cores[w.core]++;
		nodes[w.numa]++;
	}
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
	plan_expect("pack:1 numa:2 core:2 pu:2", "spread-numa", 10,
	    "0 4 2 6 1 5 3 7 0 4");
	plan_expect("pack:1 numa:2 core:2 pu:2", "core", 10,
	    "0 2 4 6 1 3 5 7 0 2");
}

Test(pin, smt_fills_a_cores_siblings_first)
{

	plan_expect(TWO_SOCKETS, "smt", 6, "0 1 2 3 4 5");
	plan_expect(XEON_2S, "smt", 4, "0 1 2 3");
}

Test(pin, core_gives_every_core_a_thread_before_a_sibling)
{

	plan_expect(TWO_SOCKETS, "core", 16,
	    "0 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30");
	plan_expect("pack:1 core:3 pu:2", "core", 6, "0 2 4 1 3 5");
}

Test(pin, numa_fills_a_node_cores_first_before_the_next)
{

	plan_expect(TWO_SOCKETS, "numa", 16,
	    "0 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30");
	plan_expect(XEON_2S, "numa", 10, "0 2 4 6 8 10 12 14 1 3");
}

Test(pin, spread_numa_goes_round_the_nodes)
{

	plan_expect(TWO_SOCKETS, "spread-numa", 16,
	    "0 32 64 96 2 34 66 98 4 36 68 100 6 38 70 102");
	plan_expect(XEON_2S, "spread-numa", 4, "0 16 2 18");
}

/*
 * The synthetic 2-socket server at 1, 16, 64 and 128 threads under every
 * policy: no PU twice before every PU has one, and the spread each
 * policy promises, counted from where the plan puts each thread.
 */
Test(pin, every_policy_on_two_sockets_at_every_width)
{
	static const char *const policies[] = { "compact", "smt", "core",
	    "scatter", "numa", "spread-numa" };
	static const unsigned int widths[] = { 1, 16, 64, 128 };
	int pus[128], cores[64], nodes[4];
	size_t i, j;
	int k;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		struct pin_plan p = plan_on(TWO_SOCKETS, policies[i]);

		cr_assert_eq(p.nsets, 128, "%s: every PU once", policies[i]);
		for (j = 0; j < sizeof(widths) / sizeof(widths[0]); j++) {
			memset(pus, 0, sizeof(pus));
			memset(cores, 0, sizeof(cores));
			memset(nodes, 0, sizeof(nodes));
			plan_spread(&p, widths[j], pus, cores, nodes);
			for (k = 0; k < 128; k++)
				cr_assert_leq(pus[k], 1, "--pin %s, %u threads:"
				    " PU %d twice", policies[i], widths[j], k);
		}
		pin_plan_fini(&p);
	}
}

Test(pin, each_policy_spreads_as_it_says_at_64_threads)
{
	int pus[128], cores[64], nodes[4], k;
	struct pin_plan p;

#define SPREAD(policy)	do {						\
	memset(pus, 0, sizeof(pus));					\
	memset(cores, 0, sizeof(cores));				\
	memset(nodes, 0, sizeof(nodes));				\
	p = plan_on(TWO_SOCKETS, policy);				\
	plan_spread(&p, 64, pus, cores, nodes);				\
	pin_plan_fini(&p);						\
} while (0)
	SPREAD("core");
	for (k = 0; k < 64; k++)
		cr_assert_eq(cores[k], 1, "core: core %d has %d", k, cores[k]);
	SPREAD("compact");
	cr_assert(nodes[0] == 32 && nodes[1] == 32 && nodes[2] == 0,
	    "compact: two nodes full");
	SPREAD("numa");
	cr_assert(nodes[0] == 32 && nodes[1] == 32 && nodes[2] == 0,
	    "numa: a node full before the next");
	SPREAD("spread-numa");
	for (k = 0; k < 4; k++)
		cr_assert_eq(nodes[k], 16, "spread-numa: node %d has %d", k,
		    nodes[k]);
	for (k = 0; k < 64; k++)
		cr_assert_eq(cores[k], 1, "spread-numa: cores before siblings");
	SPREAD("scatter");
	for (k = 0; k < 4; k++)
		cr_assert_eq(nodes[k], 16, "scatter: node %d has %d", k,
		    nodes[k]);
#undef SPREAD
}

Test(pin, a_plan_stays_within_the_cpuset)
{

	plan_expect_within(TWO_SOCKETS, "0-7,32-39", "spread-numa", 8,
	    "0 32 2 34 4 36 6 38");
	plan_expect_within(TWO_SOCKETS, "4-5", "compact", 3, "4 5 4");
	plan_expect_within(XEON_2S, "0-3", "compact", 4, "0 2 4 6");
}

Test(pin, a_policy_the_topology_cannot_serve_is_refused)
{

	plan_refused("pack:1 core:4 pu:1", NULL, "smt", "--pin smt: no core "
	    "here has two PUs this process may use (no SMT); use compact or "
	    "core");
	plan_refused(TWO_SOCKETS, "1,3,5", "smt", "--pin smt: no core here has "
	    "two PUs this process may use (no SMT); use compact or core");
	plan_refused("pack:1 core:4 pu:2", NULL, "numa", "--pin numa: the PUs "
	    "this process may use are all in one NUMA node");
	plan_refused(TWO_SOCKETS, "0-31", "spread-numa", "--pin spread-numa: "
	    "the PUs this process may use are all in one NUMA node");
	plan_refused(TWO_SOCKETS, "0-31", "40", "--pin: PU 40 is outside the "
	    "CPUs this process may run on (taskset or cpuset)");
	plan_refused(TWO_SOCKETS, "0-999", "compact", "--cpuset 0-999: CPU 128 "
	    "is not one of this machine's");
	plan_refused(TWO_SOCKETS, "one", "compact", "--cpuset 'one': not a "
	    "list of CPU numbers such as 0-3,8");
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

	topology_is("pack:1 core:4 pu:2");
	cr_assert_eq(pin_plan_init(&p, "8", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "--pin: PU 8 is not in this machine's allowed "
	    "cpuset (PUs 0-7)");
	cr_assert_eq(pin_plan_init(&p, "1,x", err, sizeof(err)), -1);
	cr_assert_str_eq(err, "--pin: '1,x' is not none, compact, smt, core, "
	    "scatter, numa, spread-numa or a list of PU numbers");
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
