/*
 * pin.c - plans, binding and read-back of thread placement (see pin.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwloc/linux.h>

#include "pin.h"

static int
pin_sets_alloc(struct pin_plan *p, unsigned int n)
{

	p->sets = calloc(n, sizeof(*p->sets));
	p->nsets = n;
	return p->sets == NULL ? -1 : 0;
}

/*
 * A policy orders the usable PUs on a key made of their ranks; thread i
 * takes the i-th. A PU's ranks: its logical index, its rank among the
 * usable PUs of its core (0: the core's first), its core's among the
 * usable cores of the machine and of its NUMA node, its node's among the
 * nodes with a usable PU; and, for scatter, its rank among its siblings at
 * every level of the tree.
 */
#define PIN_MAX_DEPTH	32

enum pin_rank {
	PIN_LOGICAL, PIN_IN_CORE, PIN_CORE, PIN_CORE_IN_NODE, PIN_NODE,
	PIN_NRANKS,
	PIN_TREE = PIN_NRANKS	/* the sibling ranks, the PU's level first */
};

struct pin_place {
	hwloc_obj_t pu;
	unsigned int rank[PIN_NRANKS];
	unsigned int key[PIN_MAX_DEPTH];
};

/* What the usable PUs span: what smt and the NUMA policies need. */
struct pin_census {
	unsigned int nplaces, nodes, most_in_core;
};

hwloc_obj_t
pin_numa_of(hwloc_topology_t topo, hwloc_obj_t pu)
{
	hwloc_obj_t node = NULL;

	while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE,
	    node)) != NULL)
		if (hwloc_bitmap_isincluded(pu->cpuset, node->cpuset))
			return node;
	return NULL;
}

/*
 * The usable PUs in logical order, which is the tree's: a core's PUs come
 * together, and a node's cores. Ranks count usable objects only, so a
 * cpuset that leaves half a node keeps the round-robin over nodes even.
 */
static struct pin_place *
pin_census(const struct pin_plan *p, struct pin_census *c)
{
	int i, n = hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_PU);
	int nn = hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_NUMANODE);
	unsigned int *cores_in = calloc((size_t)nn + 1, sizeof(*cores_in));
	int *node_rank = calloc((size_t)nn + 1, sizeof(*node_rank));
	struct pin_place *pl = calloc((size_t)n + 1, sizeof(*pl)), *x;
	hwloc_obj_t pu, core, last = NULL, node;
	unsigned int k = 0, ni;

	memset(c, 0, sizeof(*c));
	for (i = 0; pl != NULL && cores_in != NULL && node_rank != NULL &&
	    i < n; i++) {
		pu = hwloc_get_obj_by_type(p->topo, HWLOC_OBJ_PU, i);
		if (!hwloc_bitmap_isincluded(pu->cpuset, p->usable))
			continue;
		core = hwloc_get_ancestor_obj_by_type(p->topo, HWLOC_OBJ_CORE,
		    pu);
		node = pin_numa_of(p->topo, pu);
		ni = node != NULL ? node->logical_index : (unsigned int)nn;
		x = &pl[k];
		x->pu = pu;
		if (node_rank[ni] == 0)
			node_rank[ni] = (int)++c->nodes;
		x->rank[PIN_LOGICAL] = pu->logical_index;
		x->rank[PIN_NODE] = (unsigned int)node_rank[ni] - 1;
		if (core == NULL || core != last) {
			x->rank[PIN_CORE] = k > 0 ?
			    pl[k - 1].rank[PIN_CORE] + 1 : 0;
			x->rank[PIN_CORE_IN_NODE] = cores_in[ni]++;
		} else {
			memcpy(x->rank, pl[k - 1].rank, sizeof(x->rank));
			x->rank[PIN_LOGICAL] = pu->logical_index;
			x->rank[PIN_IN_CORE]++;
		}
		if (x->rank[PIN_IN_CORE] > c->most_in_core)
			c->most_in_core = x->rank[PIN_IN_CORE];
		last = core;
		k++;
	}
	c->nplaces = k;
	free(cores_in);
	free(node_rank);
	if (k == 0) {
		free(pl);
		return NULL;
	}
	return pl;
}

static int
pin_place_cmp(const void *a, const void *b)
{
	const struct pin_place *x = a, *y = b;
	unsigned int i;

	for (i = 0; i < PIN_MAX_DEPTH; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return x->pu->logical_index < y->pu->logical_index ? -1 : 1;
}

enum pin_need { PIN_ANY, PIN_SMT, PIN_NODES };

#define PIN_KEY_MAX	3

static const struct pin_policy {
	const char *name;
	enum pin_rank key[PIN_KEY_MAX];		/* the ranks compared, in turn */
	unsigned int nkey;
	enum pin_need need;
} pin_policies[] = {
	{ "compact", { PIN_LOGICAL }, 1, PIN_ANY },
	{ "smt", { PIN_LOGICAL }, 1, PIN_SMT },
	/* Cores first; a core's second PU once every core has a thread. */
	{ "core", { PIN_IN_CORE, PIN_CORE }, 2, PIN_ANY },
	{ "scatter", { PIN_TREE }, 1, PIN_ANY },
	{ "numa", { PIN_NODE, PIN_IN_CORE, PIN_CORE_IN_NODE }, 3, PIN_NODES },
	{ "spread-numa", { PIN_IN_CORE, PIN_CORE_IN_NODE, PIN_NODE }, 3,
	    PIN_NODES },
};

/*
 * Scatter's key: the PU's rank among its siblings at each level, its own
 * level first. Sorted on it, consecutive PUs differ first at the top of
 * the tree (another package), then the next level (another core): threads
 * 0 and 1 go to two packages, then to two cores of each. hwloc_distrib
 * over as many sets as PUs would keep them in number order.
 */
static void
pin_key(struct pin_place *x, const struct pin_policy *pol)
{
	hwloc_obj_t o;
	unsigned int d;

	if (pol->key[0] == PIN_TREE) {
		for (o = x->pu, d = 0; o->parent != NULL && d < PIN_MAX_DEPTH;
		    o = o->parent, d++)
			x->key[d] = o->sibling_rank;
		return;
	}
	for (d = 0; d < pol->nkey; d++)
		x->key[d] = x->rank[pol->key[d]];
	return;
}

static const struct pin_policy *
pin_policy(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(pin_policies) / sizeof(pin_policies[0]); i++)
		if (strcmp(pin_policies[i].name, name) == 0)
			return &pin_policies[i];
	return NULL;
}

static int
pin_plan_policy(struct pin_plan *p, const struct pin_policy *pol, char *err,
    size_t errlen)
{
	struct pin_census c;
	struct pin_place *pl = pin_census(p, &c);
	unsigned int i;

	if (pl == NULL)
		return -1;
	if (pol->need == PIN_SMT && c.most_in_core == 0)
		snprintf(err, errlen, "--pin smt: no core here has two PUs "
		    "this process may use (no SMT); use compact or core");
	else if (pol->need == PIN_NODES && c.nodes < 2)
		snprintf(err, errlen, "--pin %s: the PUs this process may use "
		    "are all in one NUMA node", pol->name);
	else if (pin_sets_alloc(p, c.nplaces) == 0) {
		for (i = 0; i < c.nplaces; i++)
			pin_key(&pl[i], pol);
		qsort(pl, c.nplaces, sizeof(*pl), pin_place_cmp);
		for (i = 0; i < c.nplaces; i++)
			p->sets[i] = hwloc_bitmap_dup(pl[i].pu->cpuset);
	}
	free(pl);
	return p->sets != NULL ? 0 : -1;
}

static int
pin_plan_list(struct pin_plan *p, const char *spec, char *err, size_t errlen)
{
	int npu = hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_PU);
	unsigned int n = 1, i = 0;
	const char *s;
	char *end;
	long pu;

	for (s = spec; *s != '\0'; s++)
		n += *s == ',';
	if (pin_sets_alloc(p, n) != 0)
		return -1;
	for (s = spec; i < n; s = end + 1, i++) {
		pu = strtol(s, &end, 10);
		if (end == s || (*end != ',' && *end != '\0') || pu < 0) {
			snprintf(err, errlen, "--pin: '%s' is not none, "
			    "compact, smt, core, scatter, numa, spread-numa or "
			    "a list of PU numbers", spec);
			return -1;
		}
		if (pu >= npu) {
			snprintf(err, errlen, "--pin: PU %ld is not in this "
			    "machine's allowed cpuset (PUs 0-%d)", pu, npu - 1);
			return -1;
		}
		p->sets[i] = hwloc_bitmap_dup(
		    hwloc_get_obj_by_type(p->topo, HWLOC_OBJ_PU, (int)pu)->cpuset);
		if (!hwloc_bitmap_isincluded(p->sets[i], p->usable)) {
			snprintf(err, errlen, "--pin: PU %ld is outside the CPUs "
			    "this process may run on (taskset or cpuset)", pu);
			return -1;
		}
	}
	return 0;
}

/* The PUs a plan may use: the process's binding (taskset, a cgroup), or
 * the cpuset given, which must be the machine's. */
static int
pin_usable(struct pin_plan *p, const char *cpuset, char *err, size_t errlen)
{
	hwloc_const_cpuset_t all = hwloc_topology_get_allowed_cpuset(p->topo);

	if (cpuset == NULL) {
		if (hwloc_get_cpubind(p->topo, p->usable,
		    HWLOC_CPUBIND_PROCESS) != 0)
			hwloc_bitmap_copy(p->usable, all);
		return 0;
	}
	if (cpuset[strspn(cpuset, "0123456789,-")] != '\0' ||
	    hwloc_bitmap_list_sscanf(p->usable, cpuset) != 0 ||
	    hwloc_bitmap_iszero(p->usable)) {
		snprintf(err, errlen, "--cpuset '%s': not a list of CPU "
		    "numbers such as 0-3,8", cpuset);
		return -1;
	}
	if (!hwloc_bitmap_isincluded(p->usable, all)) {
		hwloc_bitmap_andnot(p->usable, p->usable, all);
		snprintf(err, errlen, "--cpuset %s: CPU %d is not one of this "
		    "machine's", cpuset, hwloc_bitmap_first(p->usable));
		return -1;
	}
	return 0;
}

int
pin_plan_init(struct pin_plan *p, const char *spec, char *err, size_t errlen)
{

	return pin_plan_init_within(p, spec, NULL, err, errlen);
}

int
pin_plan_init_within(struct pin_plan *p, const char *spec, const char *cpuset,
    char *err, size_t errlen)
{
	const struct pin_policy *pol;
	int error;

	memset(p, 0, sizeof(*p));
	err[0] = '\0';
	if (hwloc_topology_init(&p->topo) != 0) {
		snprintf(err, errlen, "hwloc could not start");
		return -1;
	}
	if (hwloc_topology_load(p->topo) != 0) {
		snprintf(err, errlen, "hwloc could not load the topology");
		pin_plan_fini(p);
		return -1;
	}
	p->usable = hwloc_bitmap_alloc();
	if ((error = pin_usable(p, cpuset, err, errlen)) == 0 &&
	    strcmp(spec, "none") != 0) {
		if ((pol = pin_policy(spec)) != NULL)
			error = pin_plan_policy(p, pol, err, errlen);
		else
			error = pin_plan_list(p, spec, err, errlen);
	}
	if (error != 0 && err[0] == '\0')
		snprintf(err, errlen, "--pin %s: cannot build the plan", spec);
	if (error != 0)
		pin_plan_fini(p);
	return error;
}

void
pin_plan_fini(struct pin_plan *p)
{
	unsigned int i;

	for (i = 0; p->sets != NULL && i < p->nsets; i++)
		hwloc_bitmap_free(p->sets[i]);
	hwloc_bitmap_free(p->apart);
	p->apart = NULL;
	free(p->sets);
	p->sets = NULL;
	hwloc_bitmap_free(p->usable);
	p->usable = NULL;
	if (p->topo != NULL)
		hwloc_topology_destroy(p->topo);
	p->topo = NULL;
	return;
}

int
pin_plan_pu(const struct pin_plan *p, unsigned int index)
{
	struct pin_where w;

	return pin_plan_where(p, index, &w) == 0 ? w.pu : -1;
}

bool
pin_plan_union(const struct pin_plan *p, unsigned int n, hwloc_bitmap_t set)
{
	unsigned int i;

	hwloc_bitmap_zero(set);
	if (p->sets == NULL)
		return false;
	for (i = 0; i < n && i < p->nsets; i++)
		hwloc_bitmap_or(set, set, p->sets[i]);
	return true;
}

static int
pin_index_of(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_obj_t pu)
{
	hwloc_obj_t o = type == HWLOC_OBJ_NUMANODE ? pin_numa_of(topo, pu) :
	    hwloc_get_ancestor_obj_by_type(topo, type, pu);

	return o != NULL ? (int)o->logical_index : -1;
}

int
pin_plan_where(const struct pin_plan *p, unsigned int index,
    struct pin_where *w)
{
	hwloc_obj_t pu;

	if (p->sets == NULL || (pu = hwloc_get_obj_inside_cpuset_by_type(
	    p->topo, p->sets[index % p->nsets], HWLOC_OBJ_PU, 0)) == NULL)
		return -1;
	w->pu = (int)pu->logical_index;
	w->os = (int)pu->os_index;
	w->core = pin_index_of(p->topo, HWLOC_OBJ_CORE, pu);
	w->numa = pin_index_of(p->topo, HWLOC_OBJ_NUMANODE, pu);
	w->package = pin_index_of(p->topo, HWLOC_OBJ_PACKAGE, pu);
	return 0;
}

cJSON *
pin_plan_rows(const struct pin_plan *p, unsigned int n)
{
	cJSON *rows = cJSON_CreateArray(), *r;
	struct pin_where w;
	unsigned int i;

	for (i = 0; i < n && pin_plan_where(p, i, &w) == 0; i++) {
		r = cJSON_CreateObject();
		cJSON_AddNumberToObject(r, "thread", i);
		cJSON_AddNumberToObject(r, "pu", w.pu);
		cJSON_AddNumberToObject(r, "os_index", w.os);
		cJSON_AddNumberToObject(r, "core", w.core);
		cJSON_AddNumberToObject(r, "numa", w.numa);
		cJSON_AddNumberToObject(r, "package", w.package);
		cJSON_AddItemToArray(rows, r);
	}
	return rows;
}

void
pin_plan_print(const struct pin_plan *p, const char *spec, unsigned int n,
    FILE *out)
{
	char *cpus = NULL;

	hwloc_bitmap_list_asprintf(&cpus, p->usable);
	fprintf(out, "--pin %s, %u threads: %d packages, %d NUMA nodes, %d "
	    "cores, %d PUs, within CPUs %s\n", spec, n,
	    hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_PACKAGE),
	    hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_NUMANODE),
	    hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_CORE),
	    hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_PU),
	    cpus != NULL ? cpus : "?");
	if (p->sets == NULL)
		fprintf(out, "no binding: the kernel places every thread\n");
	free(cpus);
	return;
}

void
pin_plan_apart(struct pin_plan *p)
{

	if (p->nsets < 2)
		return;
	p->apart = p->sets[--p->nsets];
	return;
}

cJSON *
pin_readback(const struct pin_plan *p, pid_t pid)
{
	cJSON *hist = cJSON_CreateObject(), *item;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	struct dirent *de;
	char path[64];
	DIR *dir;
	char *cpus;

	if (pid == 0)
		snprintf(path, sizeof(path), "/proc/self/task");
	else
		snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	dir = opendir(path);

	while (dir != NULL && (de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (hwloc_linux_get_tid_cpubind(p->topo, atoi(de->d_name),
		    set) != 0)
			continue;
		if (hwloc_bitmap_list_asprintf(&cpus, set) < 0)
			continue;
		item = cJSON_GetObjectItemCaseSensitive(hist, cpus);
		if (item != NULL)
			cJSON_SetNumberValue(item, item->valuedouble + 1);
		else
			cJSON_AddNumberToObject(hist, cpus, 1);
		free(cpus);
	}
	if (dir != NULL)
		closedir(dir);
	hwloc_bitmap_free(set);
	return hist;
}

/* hwloc reads the machine from its environment: a file, or a description. */
void
pin_topology_use(const char *spec)
{

	if (spec == NULL)
		return;
	if (access(spec, R_OK) == 0)
		setenv("HWLOC_XMLFILE", spec, 1);
	else
		setenv("HWLOC_SYNTHETIC", spec, 1);
	return;
}

void
pin_topology_summary(hwloc_topology_t topo, char *buf, size_t len)
{
	char *allowed = NULL;

	hwloc_bitmap_list_asprintf(&allowed,
	    hwloc_topology_get_allowed_cpuset(topo));
	snprintf(buf, len, "%d packages, %d cores, %d PUs, allowed PUs %s",
	    hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE),
	    hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE),
	    hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU),
	    allowed != NULL ? allowed : "?");
	free(allowed);
	return;
}

/* Every level of cache: its name, how many, the size of one. */
static cJSON *
pin_caches_json(hwloc_topology_t topo)
{
	cJSON *caches = cJSON_CreateArray(), *c;
	hwloc_obj_type_t t;
	hwloc_obj_t o;
	char name[32];

	for (t = HWLOC_OBJ_L1CACHE; t <= HWLOC_OBJ_L3ICACHE; t++) {
		if ((o = hwloc_get_obj_by_type(topo, t, 0)) == NULL)
			continue;
		hwloc_obj_type_snprintf(name, sizeof(name), o, 0);
		c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "name", name);
		cJSON_AddNumberToObject(c, "count",
		    hwloc_get_nbobjs_by_type(topo, t));
		cJSON_AddNumberToObject(c, "size_kb",
		    (double)(o->attr->cache.size / 1024));
		cJSON_AddItemToArray(caches, c);
	}
	return caches;
}

cJSON *
pin_topology_json(hwloc_topology_t topo)
{
	cJSON *t = cJSON_CreateObject();
	char *allowed = NULL;

	cJSON_AddNumberToObject(t, "packages",
	    hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE));
	cJSON_AddNumberToObject(t, "numa_nodes",
	    hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE));
	cJSON_AddNumberToObject(t, "cores",
	    hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE));
	cJSON_AddNumberToObject(t, "pus",
	    hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU));
	cJSON_AddItemToObject(t, "caches", pin_caches_json(topo));
	hwloc_bitmap_list_asprintf(&allowed,
	    hwloc_topology_get_allowed_cpuset(topo));
	cJSON_AddStringToObject(t, "allowed", allowed != NULL ? allowed : "?");
	free(allowed);
	return t;
}

void
pin_topology_print(hwloc_topology_t topo, FILE *out)
{
	char line[256], type[64];
	hwloc_obj_t pu, up;
	int i, n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);

	pin_topology_summary(topo, line, sizeof(line));
	fprintf(out, "%s\n", line);
	for (i = 0; i < n; i++) {
		pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, i);
		fprintf(out, "PU L#%u P#%u", pu->logical_index, pu->os_index);
		for (up = pu->parent; up != NULL; up = up->parent) {
			hwloc_obj_type_snprintf(type, sizeof(type), up, 0);
			fprintf(out, " < %s L#%u", type, up->logical_index);
		}
		fputc('\n', out);
	}
	return;
}
