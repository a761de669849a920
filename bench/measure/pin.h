/*
 * pin.h - where the suite's threads run, through hwloc.
 *
 * A plan is a list of single-PU sets; thread number i (its place in its
 * design, placement.h) binds itself to set i mod n, so more threads than
 * PUs wrap around.
 * Plans:
 *   none         no binding;
 *   compact      PUs in logical order: a core's PUs, then the next core's;
 *   smt          the same order, asked for by what it does (fill a core's
 *                SMT siblings first): an error where no core has two;
 *   core         one thread per core: every core's first PU, then every
 *                core's second, so siblings share only past one a core;
 *   scatter      spread over packages, then cores, then a core's PUs;
 *   numa         fill a NUMA node (its cores first) before the next;
 *   spread-numa  round-robin over the NUMA nodes, each one's cores first;
 *   PUS          a comma-separated list of logical PU indices.
 * The NUMA plans are an error where the usable PUs are in one node. A
 * plan never leaves the CPUs the process was started on (taskset, a
 * cgroup's cpuset): a PU outside them is an error, and the policies use
 * only them.
 */
#ifndef BENCH_PIN_H
#define BENCH_PIN_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include <cjson/cJSON.h>
#include <hwloc.h>

struct pin_plan {
	hwloc_topology_t topo;
	hwloc_bitmap_t usable;		/* the process's own binding (taskset) */
	hwloc_bitmap_t *sets;		/* NULL for none */
	unsigned int nsets;
	hwloc_bitmap_t apart;		/* set aside for one thread, or NULL */
};

/* Returns 0, or -1 with a one-line reason in err. */
int pin_plan_init(struct pin_plan *p, const char *spec, char *err,
    size_t errlen);

/*
 * The same within cpuset (CPU numbers as taskset takes them, "0-3,8")
 * instead of the process's binding: a plan for a container on a machine,
 * or for a topology loaded from HWLOC_XMLFILE or HWLOC_SYNTHETIC.
 */
int pin_plan_init_within(struct pin_plan *p, const char *spec,
    const char *cpuset, char *err, size_t errlen);
void pin_plan_fini(struct pin_plan *p);

/* The logical index of the PU thread number index binds to; -1: none. */
int pin_plan_pu(const struct pin_plan *p, unsigned int index);

/*
 * Where thread number index runs: its PU's logical and OS index, and the
 * logical index of its core, NUMA node and package (-1 where the tree has
 * none). -1 for a plan that binds nothing.
 */
struct pin_where {
	int pu, os, core, numa, package;
};

int pin_plan_where(const struct pin_plan *p, unsigned int index,
    struct pin_where *w);

/*
 * The first n threads' places as rows of thread, pu, os_index, core, numa
 * and package; no row for a plan that binds nothing.
 */
cJSON *pin_plan_rows(const struct pin_plan *p, unsigned int n);

/*
 * The plan for people: the policy spec, n threads and the machine within
 * the usable CPUs, on one line; a second when it binds nothing.
 */
void pin_plan_print(const struct pin_plan *p, const char *spec,
    unsigned int n, FILE *out);

/*
 * Sets the plan's last PU aside for one thread (a request's I/O loop), so
 * the numbered threads share the others; nothing when the plan has fewer
 * than two, and that thread then takes set 0.
 */
void pin_plan_apart(struct pin_plan *p);

/*
 * Each thread's binding as the kernel reports it, of this process (pid 0)
 * or another: {"cpus": threads}.
 */
cJSON *pin_readback(const struct pin_plan *p, pid_t pid);

/*
 * The PUs of the plan's first n threads, into set: what a program that
 * places its own threads is given. False for a plan that binds nothing.
 */
bool pin_plan_union(const struct pin_plan *p, unsigned int n,
    hwloc_bitmap_t set);

/*
 * The plans made after this describe another machine: spec is the path
 * of an XML file (lstopo --of xml) or hwloc's synthetic description
 * ("pack:2 numa:2 core:16 pu:2"); NULL leaves them as they are.
 */
void pin_topology_use(const char *spec);

/* A one-line summary of the topology, and the full listing for `topo`. */
void pin_topology_summary(hwloc_topology_t topo, char *buf, size_t len);

/* The NUMA node whose CPUs hold pu; NULL where the tree has none. */
hwloc_obj_t pin_numa_of(hwloc_topology_t topo, hwloc_obj_t pu);

/* What a results file records: packages, NUMA nodes, cores, PUs, caches. */
cJSON *pin_topology_json(hwloc_topology_t topo);
void pin_topology_print(hwloc_topology_t topo, FILE *out);

#endif /* BENCH_PIN_H */
