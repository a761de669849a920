/*
 * placement.c - each thread's binding from its role and index, read back
 * from the kernel and checked (see placement.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwloc/linux.h>

#include "placement.h"
#include "runfields.h"

/* Field 39 of /proc/<pid>/task/<tid>/stat: the CPU it last ran on. */
#define PLACE_STAT_PROCESSOR	39

static const char *const place_roles[] = {
	[PLACE_WORKER] = "worker",
	[PLACE_STARTER] = "starter",
	[PLACE_IO] = "io",
	[PLACE_VIEW] = "view",
};

void
place_init(struct placement *pl, const struct pin_plan *plan)
{

	memset(pl, 0, sizeof(*pl));
	pl->plan = plan;
	pthread_mutex_init(&pl->lock, NULL);
	return;
}

void
place_fini(struct placement *pl)
{

	pthread_mutex_destroy(&pl->lock);
	free(pl->threads);
	return;
}

/* The set a thread of role and index belongs on; NULL: left unbound. */
static hwloc_const_bitmap_t
place_want(const struct pin_plan *p, enum place_role role, unsigned int index)
{

	if (role == PLACE_IO && p->apart != NULL)
		return p->apart;
	if (p->sets == NULL)
		return NULL;
	return p->sets[(role == PLACE_WORKER || role == PLACE_VIEW ? index :
	    0) % p->nsets];
}

static void
place_record(struct placement *pl, const struct place_thread *t)
{
	struct place_thread *grown;
	unsigned int cap;

	pthread_mutex_lock(&pl->lock);
	if (pl->n == pl->cap) {
		cap = pl->cap != 0 ? 2 * pl->cap : 64;
		grown = realloc(pl->threads, cap * sizeof(*grown));
		if (grown != NULL) {
			pl->threads = grown;
			pl->cap = cap;
		}
	}
	if (pl->n < pl->cap)
		pl->threads[pl->n++] = *t;
	else
		pl->full = true;
	pthread_mutex_unlock(&pl->lock);
	return;
}

void
place_self(struct placement *pl, enum place_role role, unsigned int index)
{
	hwloc_const_bitmap_t want = place_want(pl->plan, role, index);
	struct place_thread t = { .tid = gettid(), .role = role,
	    .index = index };

	if (want != NULL && hwloc_set_cpubind(pl->plan->topo, want,
	    HWLOC_CPUBIND_THREAD) != 0)
		t.error = errno != 0 ? errno : EINVAL;
	place_record(pl, &t);
	return;
}

/* The CPU tid last ran on; -1 when it is gone. */
static int
place_last_cpu(pid_t tid)
{
	char path[64], buf[1024], *p;
	int field, cpu = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	if (fgets(buf, sizeof(buf), f) != NULL &&
	    (p = strrchr(buf, ')')) != NULL) {
		/* Field 2, the name, ends at the last ')'; fields follow. */
		for (field = 2; p != NULL && field < PLACE_STAT_PROCESSOR;
		    field++)
			p = strchr(p + 1, ' ');
		if (p != NULL)
			cpu = atoi(p + 1);
	}
	fclose(f);
	return cpu;
}

static void
place_add_set(cJSON *o, const char *name, hwloc_const_bitmap_t set)
{
	char *list;

	if (hwloc_bitmap_list_asprintf(&list, set) < 0)
		return;
	cJSON_AddStringToObject(o, name, list);
	free(list);
	return;
}

/*
 * One thread as the kernel has it: its affinity and last CPU into o.
 * False when it is gone (a pool's thread that retired, the starter).
 */
static bool
place_read(const struct pin_plan *p, pid_t tid, hwloc_bitmap_t cpus,
    int *last, cJSON *o)
{

	if (hwloc_linux_get_tid_cpubind(p->topo, tid, cpus) != 0 ||
	    (*last = place_last_cpu(tid)) < 0) {
		cJSON_AddBoolToObject(o, "exited", 1);
		return false;
	}
	place_add_set(o, "cpus", cpus);
	cJSON_AddNumberToObject(o, "last_cpu", *last);
	return true;
}

/* A placed thread read back: false, with why, if it is off its plan. */
static bool
place_check_one(const struct placement *pl, const struct place_thread *t,
    hwloc_bitmap_t cpus, cJSON *arr, char *why, size_t len)
{
	hwloc_const_bitmap_t want = place_want(pl->plan, t->role, t->index);
	cJSON *o = cJSON_CreateObject();
	char *plan = NULL;
	bool ok = true;
	int last;

	cJSON_AddItemToArray(arr, o);
	cJSON_AddStringToObject(o, "role", place_roles[t->role]);
	cJSON_AddNumberToObject(o, "index", t->index);
	cJSON_AddNumberToObject(o, "tid", t->tid);
	if (want == NULL)
		want = pl->plan->usable;
	place_add_set(o, "plan", want);
	if (hwloc_bitmap_list_asprintf(&plan, want) < 0)
		abort();
	if (t->error != 0) {
		snprintf(why, len, "%s %u (thread %d) could not be bound to "
		    "CPU %s: %s", place_roles[t->role], t->index, (int)t->tid,
		    plan, strerror(t->error));
		ok = false;
	} else if (place_read(pl->plan, t->tid, cpus, &last, o) &&
	    (!hwloc_bitmap_isequal(cpus, want) ||
	    !hwloc_bitmap_isset(want, (unsigned int)last))) {
		snprintf(why, len, "%s %u (thread %d) is bound to CPU %s and "
		    "last ran on %d; its plan says %s", place_roles[t->role],
		    t->index, (int)t->tid,
		    cJSON_GetObjectItem(o, "cpus")->valuestring, last, plan);
		ok = false;
	}
	free(plan);
	return ok;
}

/*
 * By role, then index: worker 0, 1 ..., the starter, the I/O loop, the
 * view's threads.
 */
static int
place_cmp(const void *a, const void *b)
{
	const struct place_thread *x = a, *y = b;

	if (x->role != y->role)
		return x->role < y->role ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static bool
place_known(const struct placement *pl, pid_t tid)
{
	unsigned int i;

	for (i = 0; i < pl->n; i++)
		if (pl->threads[i].tid == tid)
			return true;
	return false;
}

/* The threads nobody placed: the main thread, the watchdog, a library's. */
static void
place_others(const struct placement *pl, hwloc_bitmap_t cpus, cJSON *arr)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *de;
	pid_t tid;
	cJSON *o;
	int last;

	while (dir != NULL && (de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' ||
		    place_known(pl, tid = (pid_t)atoi(de->d_name)))
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "role", tid == getpid() ? "main" :
		    "other");
		cJSON_AddNumberToObject(o, "tid", tid);
		(void)place_read(pl->plan, tid, cpus, &last, o);
		cJSON_AddItemToArray(arr, o);
	}
	if (dir != NULL)
		closedir(dir);
	return;
}

bool
place_check(struct placement *pl, cJSON *run, char *why, size_t len)
{
	cJSON *arr = cJSON_AddArrayToObject(run, RF(placement));
	hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
	bool ok = true;
	unsigned int i;

	if (cpus == NULL)
		abort();
	pthread_mutex_lock(&pl->lock);
	qsort(pl->threads, pl->n, sizeof(*pl->threads), place_cmp);
	/* The first thread off its plan is the reason; all are listed. */
	for (i = 0; i < pl->n; i++)
		ok = place_check_one(pl, &pl->threads[i], cpus, arr, why,
		    ok ? len : 0) && ok;
	if (ok && pl->full) {
		snprintf(why, len, "a thread's placement could not be "
		    "recorded (out of memory)");
		ok = false;
	}
	place_others(pl, cpus, arr);
	pthread_mutex_unlock(&pl->lock);
	hwloc_bitmap_free(cpus);
	return ok;
}
