/*
 * count.c - a counted window (see count.h).
 */
#define _GNU_SOURCE	/* sem_clockwait */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <valgrind/callgrind.h>

#include "cell.h"
#include "count.h"
#include "runfields.h"
#include "workload.h"

static const char *const count_names[] = { "auto", "callgrind", "perf" };

/* callgrind's dumps of this process so far: its files are numbered so. */
static unsigned int count_dumps;

/* Whether instructions:u opens here: a PMU the kernel lets us use. */
static bool
count_has_pmu(void)
{
	struct counters k;
	bool ok;

	counters_instructions(&k);
	ok = counters_open(&k) == 1;
	counters_close(&k);
	return ok;
}

enum count_counter
count_counter(const struct cell *c)
{

	if (c->counter != COUNT_AUTO)
		return c->counter;
	return RUNNING_ON_VALGRIND || !count_has_pmu() ? COUNT_CALLGRIND :
	    COUNT_PERF;
}

int
count_check(const struct cell *c, char *err, size_t len)
{
	const char *why = NULL;

	if (c->count == 0)
		return 0;
	if (c->disp->flags & DB_DISP_PROGRAM)
		why = "a program of its own runs outside this process";
	else if (workload_blocks_some(&c->profile) ||
	    c->profile.kind->round_trip)
		why = "only the resume-only workload is counted";
	else if (c->payload_ns > 0)
		why = "a payload is timed, so its instructions vary";
	else if ((uint64_t)c->coroutines * c->count > COUNT_MAX_DISPATCHES)
		why = "coroutines x --count is more than 4194304 dispatches, "
		    "which a window would take minutes to count";
	if (why != NULL)
		return snprintf(err, len, "--count: %s cannot be counted: %s",
		    c->disp->name, why), -1;
	if (c->counter == COUNT_PERF && !count_has_pmu())
		return snprintf(err, len, "--counter perf: instructions:u does "
		    "not open here (no PMU, or perf_event_paranoid): give "
		    "--counter callgrind"), -1;
	return 0;
}

int
count_open(struct count *k, const struct cell *c, char *err, size_t len)
{

	memset(k, 0, sizeof(*k));
	k->counter = count_counter(c);
	sem_init(&k->done, 0, 0);
	k->open = true;
	if (k->counter == COUNT_CALLGRIND && !RUNNING_ON_VALGRIND) {
		snprintf(err, len, "--counter callgrind: this process is not "
		    "under Valgrind (`dispatchbench cell` starts it so)");
		return -1;
	}
	if (k->counter != COUNT_PERF)
		return 0;
	counters_instructions(&k->k);
	if (counters_open(&k->k) == 1)
		return 0;
	snprintf(err, len, "--counter perf: %s", k->k.absent);
	return -1;
}

/* The window's two ends, each from inside the last resumption to hold. */
static void
count_begin(struct count *k)
{

	if (k->counter == COUNT_PERF) {
		counters_start(&k->k);
		return;
	}
	CALLGRIND_START_INSTRUMENTATION;
	CALLGRIND_ZERO_STATS;
	return;
}

static void
count_end(struct count *k)
{

	if (k->counter == COUNT_PERF) {
		counters_stop(&k->k);
		return;
	}
	CALLGRIND_DUMP_STATS_AT("dispatchbench window");
	CALLGRIND_STOP_INSTRUMENTATION;
	count_dumps++;
	return;
}

void
count_held(struct workload *w, void *arg)
{
	struct count *k = arg;

	if (k->round++ == 0) {
		while (!atomic_load(&k->waiting) || !workload_starter_gated(w))
			sched_yield();
		k->start = workload_count(w, NULL);
		count_begin(k);
		(void)workload_release(w);
		return;
	}
	count_end(k);
	sem_post(&k->done);
	return;
}

/* A function of the dump and its own instructions. */
struct count_fn {
	char name[COUNT_NAME];
	uint64_t self;
};

/*
 * The dump's functions; past the table's size, what the rest cost goes
 * to one entry that says so.
 */
struct count_dump {
	struct count_fn fn[COUNT_TABLE];
	size_t n;
	uint64_t total;
};

/* Adds cost to the function named; a recursion's levels (name'2) are one. */
static void
count_add(struct count_dump *d, const char *name, uint64_t cost)
{
	size_t i, len = strcspn(name, "'");

	d->total += cost;
	if (d->n == COUNT_TABLE - 1 && strncmp(name, "(", 1) != 0) {
		name = "(the other functions)";
		len = strlen(name);
	}
	for (i = 0; i < d->n; i++)
		if (strncmp(d->fn[i].name, name, len) == 0 &&
		    d->fn[i].name[len] == '\0')
			break;
	if (i == d->n)
		snprintf(d->fn[d->n++].name, sizeof(d->fn[0].name), "%.*s",
		    (int)len, name);
	d->fn[i].self += cost;
	return;
}

/* A cost line's last field: its instructions; false if it is not one. */
static bool
count_cost(const char *line, uint64_t *cost)
{
	const char *last = strrchr(line, ' ');
	char *end;

	if (last == NULL)
		return false;
	*cost = strtoull(last + 1, &end, 10);
	return end != last + 1 && *end == '\0';
}

/*
 * A callgrind dump (--compress-strings=no --compress-pos=no) of one
 * event, Ir: under each fn= line, its cost lines ("POSITION COST") are
 * its own instructions, but the line after a calls= line is what that
 * call cost inclusively, which the callee's own lines count. The sum
 * must be the dump's totals.
 */
static int
count_parse(FILE *f, struct count_dump *d, char *err, size_t len)
{
	char *line = NULL, fn[COUNT_NAME] = "?";
	unsigned long long totals = 0;
	bool call = false, ir = false, has_totals = false;
	size_t cap = 0;
	uint64_t cost;
	ssize_t n;

	while ((n = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "events:", 7) == 0)
			ir = strcmp(line, "events: Ir") == 0;
		else if (!ir)
			continue;
		else if (strncmp(line, "fn=", 3) == 0)
			snprintf(fn, sizeof(fn), "%s", line + 3);
		else if (strncmp(line, "calls=", 6) == 0)
			call = true;
		else if (sscanf(line, "totals: %llu", &totals) == 1)
			has_totals = true;
		else if (strchr("0123456789+-*", line[0]) != NULL &&
		    line[0] != '\0') {
			if (!call && count_cost(line, &cost))
				count_add(d, fn, cost);
			call = false;
		}
	}
	free(line);
	if (ir && has_totals && totals == d->total)
		return 0;
	snprintf(err, len, "the callgrind dump does not add up: %s", !ir ?
	    "it counts no event Ir alone" : !has_totals ? "it has no totals" :
	    "its functions' instructions are not its totals");
	return -1;
}

static int
count_fn_cmp(const void *a, const void *b)
{
	const struct count_fn *x = a, *y = b;

	/* By name at a tie: the cut falls alike in every run. */
	if (x->self != y->self)
		return (x->self < y->self) - (x->self > y->self);
	return strcmp(x->name, y->name);
}

/* The costliest functions' own instructions per dispatch, into run. */
static void
count_functions(cJSON *run, struct count_dump *d, double dispatches)
{
	cJSON *o = cJSON_AddObjectToObject(run, RF(instructions_by_function));
	size_t i;

	if (d->n > 1)
		qsort(d->fn, d->n, sizeof(d->fn[0]), count_fn_cmp);
	for (i = 0; i < d->n && i < COUNT_FUNCTIONS; i++)
		cJSON_AddNumberToObject(o, d->fn[i].name,
		    (double)d->fn[i].self / dispatches);
	return;
}

/* This process's latest dump: its window's instructions, then removed. */
static int
count_read_dump(cJSON *run, double dispatches, uint64_t *total, char *err,
    size_t len)
{
	const char *dir = getenv(COUNT_DIR_ENV);
	struct count_dump *d = calloc(1, sizeof(*d));
	char path[4096];
	FILE *f;
	int rc = -1;

	if (d == NULL)
		abort();
	snprintf(path, sizeof(path), "%s/cg.%ld.%u", dir != NULL ? dir : ".",
	    (long)getpid(), count_dumps);
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, len, "no callgrind dump of the window: %.*s: %s",
		    (int)(len / 2), path, strerror(errno));
	} else {
		rc = count_parse(f, d, err, len);
		fclose(f);
		unlink(path);
	}
	if (rc == 0) {
		*total = d->total;
		count_functions(run, d, dispatches);
	}
	free(d);
	return rc;
}

/* The counter and its version, as a run and a context record them. */
static void
count_name(cJSON *o, enum count_counter counter)
{
	const char *version = getenv(COUNT_VERSION_ENV);
	struct utsname u;

	cJSON_AddStringToObject(o, RF(instructions_counter),
	    count_names[counter]);
	if (counter == COUNT_PERF && uname(&u) == 0)
		version = u.release;
	cJSON_AddStringToObject(o, RF(instructions_counter_version),
	    version != NULL ? version : "unknown");
	return;
}

/* The perf counter's count of the window: it must have run all of it. */
static int
count_perf(const struct count *k, uint64_t *total, char *err, size_t len)
{
	const struct counter *c = &k->k.ev[0];

	*total = c->value;
	if (c->enabled > 0 && c->running == c->enabled)
		return 0;
	snprintf(err, len, "instructions:u ran %.3g of the window's %.3g s (the "
	    "PMU shared, or not read): its count is not the window's",
	    c->running * 1e-9, c->enabled * 1e-9);
	return -1;
}

/* The window's figures, once it has ended: -1 and why if it does not hold. */
static int
count_figures(struct count *k, struct workload *w, cJSON *run, char *err,
    size_t len)
{
	uint64_t dispatches = workload_count(w, NULL) - k->start, total = 0;
	uint64_t want = (uint64_t)w->n * w->hold_every;

	cJSON_AddNumberToObject(run, RF(dispatches), (double)dispatches);
	cJSON_AddNumberToObject(run, RF(count_per_coroutine),
	    (double)w->hold_every);
	count_name(run, k->counter);
	if (dispatches != want)
		return snprintf(err, len, "the counted window ran %llu "
		    "resumptions, not %u coroutines x %llu",
		    (unsigned long long)dispatches, w->n,
		    (unsigned long long)w->hold_every), -1;
	if ((k->counter == COUNT_PERF ? count_perf(k, &total, err, len) :
	    count_read_dump(run, (double)dispatches, &total, err, len)) != 0)
		return -1;
	/* Not one instruction: the counter collected nothing. */
	if (total == 0)
		return snprintf(err, len, "the %s counter counted nothing in "
		    "the window", count_names[k->counter]), -1;
	cJSON_AddNumberToObject(run, RF(instructions), (double)total);
	cJSON_AddNumberToObject(run, COUNT_FIELD,
	    (double)total / (double)dispatches);
	return 0;
}

int
count_window(struct count *k, struct workload *w, cJSON *run, char *err,
    size_t len)
{
	struct timespec until;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)COUNT_WAIT_S;
	atomic_store(&k->waiting, 1);
	while ((rc = sem_clockwait(&k->done, CLOCK_MONOTONIC, &until)) != 0 &&
	    errno == EINTR)
		continue;
	if (rc != 0)
		return COUNT_LATE;
	return count_figures(k, w, run, err, len) == 0 ? COUNT_OK :
	    COUNT_FAILED;
}

void
count_close(struct count *k)
{

	if (!k->open)
		return;
	k->open = false;
	counters_close(&k->k);
	sem_destroy(&k->done);
	return;
}

cJSON *
count_context(const struct cell *c)
{
	cJSON *o;

	if (c->count == 0)
		return NULL;
	o = cJSON_CreateObject();
	count_name(o, count_counter(c));
	cJSON_AddNumberToObject(o, RF(count_per_coroutine), c->count);
	return o;
}
