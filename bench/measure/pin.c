/*
 * pin.c - plans, binding and read-back of thread placement (see pin.h).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc/linux.h>

#include "pin.h"

static int
pin_sets_alloc(struct pin_plan *p, unsigned int n)
{

	p->sets = calloc(n, sizeof(*p->sets));
	p->nsets = n;
	return p->sets == NULL ? -1 : 0;
}

static int
pin_plan_compact(struct pin_plan *p)
{
	int i, n = hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_PU);
	hwloc_const_cpuset_t pu;
	unsigned int k = 0;

	if (n <= 0 || pin_sets_alloc(p, (unsigned int)n) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		pu = hwloc_get_obj_by_type(p->topo, HWLOC_OBJ_PU, i)->cpuset;
		if (hwloc_bitmap_isincluded(pu, p->usable))
			p->sets[k++] = hwloc_bitmap_dup(pu);
	}
	p->nsets = k;
	return k > 0 ? 0 : -1;
}

/*
 * A PU's place in the scatter order: its rank among its siblings at each
 * level, its own level first. Sorted on it, consecutive PUs differ first
 * at the top of the tree (another package), then the next level (another
 * core): threads 0 and 1 go to two packages, then to two cores of each.
 * hwloc_distrib over as many sets as PUs would keep them in number order.
 */
#define PIN_MAX_DEPTH	32

struct pin_rank {
	unsigned int rank[PIN_MAX_DEPTH];
	hwloc_obj_t pu;
};

static int
pin_rank_cmp(const void *a, const void *b)
{
	const struct pin_rank *x = a, *y = b;
	unsigned int i;

	for (i = 0; i < PIN_MAX_DEPTH; i++)
		if (x->rank[i] != y->rank[i])
			return x->rank[i] < y->rank[i] ? -1 : 1;
	return 0;
}

static int
pin_plan_scatter(struct pin_plan *p)
{
	int i, n = hwloc_get_nbobjs_by_type(p->topo, HWLOC_OBJ_PU);
	struct pin_rank *r;
	unsigned int d, k = 0;
	hwloc_obj_t o;

	if (n <= 0 || (r = calloc((size_t)n, sizeof(*r))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		r[i].pu = hwloc_get_obj_by_type(p->topo, HWLOC_OBJ_PU, i);
		for (o = r[i].pu, d = 0; o->parent != NULL &&
		    d < PIN_MAX_DEPTH; o = o->parent, d++)
			r[i].rank[d] = o->sibling_rank;
	}
	qsort(r, (size_t)n, sizeof(*r), pin_rank_cmp);
	if (pin_sets_alloc(p, (unsigned int)n) == 0)
		for (i = 0; i < n; i++)
			if (hwloc_bitmap_isincluded(r[i].pu->cpuset, p->usable))
				p->sets[k++] = hwloc_bitmap_dup(r[i].pu->cpuset);
	free(r);
	p->nsets = k;
	return k > 0 ? 0 : -1;
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
			    "compact, scatter or a list of PU numbers", spec);
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

int
pin_plan_init(struct pin_plan *p, const char *spec, char *err, size_t errlen)
{
	int error;

	memset(p, 0, sizeof(*p));
	err[0] = '\0';
	if (hwloc_topology_init(&p->topo) != 0 ||
	    hwloc_topology_load(p->topo) != 0) {
		snprintf(err, errlen, "hwloc could not load the topology");
		return -1;
	}
	p->usable = hwloc_bitmap_alloc();
	if (hwloc_get_cpubind(p->topo, p->usable, HWLOC_CPUBIND_PROCESS) != 0)
		hwloc_bitmap_copy(p->usable,
		    hwloc_topology_get_allowed_cpuset(p->topo));
	if (strcmp(spec, "none") == 0)
		return 0;
	if (strcmp(spec, "compact") == 0)
		error = pin_plan_compact(p);
	else if (strcmp(spec, "scatter") == 0)
		error = pin_plan_scatter(p);
	else
		error = pin_plan_list(p, spec, err, errlen);
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
pin_self(const struct pin_plan *p, unsigned int index)
{

	if (p->sets == NULL || p->sets[index % p->nsets] == NULL)
		return 0;
	return hwloc_set_cpubind(p->topo, p->sets[index % p->nsets],
	    HWLOC_CPUBIND_THREAD);
}

int
pin_plan_pu(const struct pin_plan *p, unsigned int index)
{
	hwloc_obj_t pu;

	if (p->sets == NULL)
		return -1;
	pu = hwloc_get_obj_inside_cpuset_by_type(p->topo,
	    p->sets[index % p->nsets], HWLOC_OBJ_PU, 0);
	return pu != NULL ? (int)pu->logical_index : -1;
}

void
pin_plan_apart(struct pin_plan *p)
{

	if (p->nsets < 2)
		return;
	p->apart = p->sets[--p->nsets];
	return;
}

int
pin_self_apart(const struct pin_plan *p)
{

	if (p->apart == NULL)
		return pin_self(p, 0);
	return hwloc_set_cpubind(p->topo, p->apart, HWLOC_CPUBIND_THREAD);
}

cJSON *
pin_readback(const struct pin_plan *p)
{
	cJSON *hist = cJSON_CreateObject(), *item;
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	struct dirent *de;
	DIR *dir = opendir("/proc/self/task");
	char *cpus;

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
