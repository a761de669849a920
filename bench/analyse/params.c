/*
 * params.c - the table of a sweep's options, and a results file's cells
 * named from it (see params.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "params.h"
#include "results.h"

/* A choice is stored in an int; the design's config holds enums. */
_Static_assert(sizeof(enum disp_wake) == sizeof(int), "wake is an int");
_Static_assert(sizeof(enum disp_lifo) == sizeof(int), "lifo is an int");
_Static_assert(sizeof(enum disp_search) == sizeof(int), "search is an int");
_Static_assert(sizeof(enum disp_yield) == sizeof(int), "yield is an int");
_Static_assert(sizeof(enum disp_floor) == sizeof(int), "floor is an int");
_Static_assert(sizeof(enum workload_spawn) == sizeof(int), "spawn is an int");
_Static_assert(sizeof(enum disp_from) == sizeof(int), "from is an int");

static const char *const wake_names[] = { "every", "lazy", NULL };
static const char *const lifo_names[] = { "on", "off", NULL };
static const char *const lifo_suffix[] = { "", "-fifo" };
static const char *const search_names[] = { "half", "all", NULL };
static const char *const search_suffix[] = { "", "-all" };
static const char *const yield_names[] = { "wake-other", "self-wake", "tokio",
    "go", NULL };
static const char *const yield_suffix[] = { "", "-self-wake", "-tokio",
    "-go" };
static const char *const floor_names[] = { "on", "off", "io", NULL };
static const char *const floor_suffix[] = { "", "-nofloor", "-io" };
static const char *const spawn_names[] = { "inside", "outside", NULL };
static const char *const host_names[] = { "any", "quiet", NULL };
static const char *const from_names[] = { "home", "outside", "execute",
    NULL };
static const char *const from_suffix[] = { "", "-execute", "-self-execute" };

#define CELL(f)		offsetof(struct cell, f)
#define SWEEP(f)	offsetof(struct sweep, f)

/*
 * In the order of a cell's key and of the sweep, outermost first; the
 * sweep turns the widths innermost (cli.c).
 */
const struct param params[] = {
	{ "--dispatcher", "dispatcher", "", PARAM_DESIGN, P_LIST | P_KEY |
	    P_SHOWN, 0, 0, 0, NULL, NULL, "all", CELL(disp), "LIST",
	    "handoff designs (`list`), exec:PATH (a program of its own), or "
	    "all (every design but the programs)" },
	{ "--queue", "queue", "/", PARAM_QUEUE, P_LIST | P_KEY | P_SHOWN,
	    DISP_USES_QUEUE, 0, 0, NULL, NULL, "first", CELL(cfg.queue),
	    "LIST", "queues of shared and limited (`list`; first: lfseg)" },
	{ "--workers", "workers", " w=", PARAM_WIDTH, P_LIST | P_KEY, 0, 1,
	    4096, NULL, NULL, "1..64,inf", CELL(cfg.workers), "LIST",
	    "the design's width (docs/designs.md); inf: no bound (rendezvous)" },
	{ "--lifo", "lifo", " lifo=", PARAM_CHOICE, P_LIST | P_KEY,
	    DISP_STEALS, 0, 0, lifo_names, lifo_suffix, "on", CELL(cfg.lifo),
	    "on|off[,..]", "stealing: a worker's own dispatch to its LIFO slot "
	    "(off: to the back of its run queue)" },
	{ "--searchers", "searchers", " searchers=", PARAM_CHOICE,
	    P_LIST | P_KEY, DISP_STEALS, 0, 0, search_names, search_suffix,
	    "half", CELL(cfg.searchers), "half|all[,..]",
	    "stealing: how many idle workers may search at once" },
	{ "--yield", "yield", " yield=", PARAM_CHOICE, P_LIST | P_KEY |
	    P_SPARSE, DISP_STEALS, 0, 0, yield_names, yield_suffix,
	    "wake-other", CELL(cfg.yield_path), "PATH[,..]", "stealing: the "
	    "path of a coroutine's next resumption: wake-other (the LIFO "
	    "slot), self-wake (Tokio wake_by_ref), tokio (yield_now), go "
	    "(Gosched)" },
	{ "--floor", "floor", " floor=", PARAM_CHOICE, P_LIST | P_KEY |
	    P_SPARSE, DISP_STEALS, 0, 0, floor_names, floor_suffix, "on",
	    CELL(cfg.floor), "on|off|io[,..]", "stealing: the runtime's own work "
	    "around a handoff (task states, the driver poll, no I/O driver); "
	    "off: the queues and wake-ups alone; io: with an I/O driver, an "
	    "epoll_wait(0) a driver poll" },
	{ "--from", "from", " from=", PARAM_CHOICE, P_LIST | P_KEY | P_SPARSE,
	    DISP_LOOPS, 0, 0, from_names, from_suffix, "home", CELL(cfg.from),
	    "home|outside|execute[,..]", "eventloop: a resumption from its "
	    "own loop (Ktor, in place), from outside through Netty's "
	    "execute(), or from its own loop through execute()" },
	{ "--coroutines", "coroutines", " c=", PARAM_COUNT, P_LIST | P_KEY, 0,
	    1, 1000000, NULL, NULL, "64", CELL(coroutines), "LIST",
	    "coroutines in flight" },
	{ "--pin", "pin", " pin=", PARAM_TEXT, P_KEY, 0, 0, 0, NULL, NULL,
	    "compact", CELL(pin), "POLICY|PUS", "where the threads run "
	    "(hwloc): none, compact, smt, core, scatter, numa, spread-numa, "
	    "or PU numbers (`plan` prints it)" },
	{ "--pool", "pool", " pool=", PARAM_COUNT, P_KEY, 0, 1, 4096, NULL, NULL,
	    "0", CELL(cfg.pool), "N", "limited: its scheduler's core size (CPU "
	    "permits); 0: max(CPUs, 2)" },
	{ "--pool-queue", "pool_queue", " pool-queue=", PARAM_QUEUE, P_LIST |
	    P_KEY | P_SPARSE, DISP_SCHEDULER, 0, 0, NULL, NULL, "lfseg",
	    CELL(cfg.pool_queue), "LIST", "default, limited: the scheduler's "
	    "global queues (GlobalQueue: lfseg)" },
	{ "--spins", "spins", " spins=", PARAM_INT, P_KEY, 0, 0, 10000000,
	    NULL, NULL, "-1", CELL(cfg.spins), "N",
	    "polls of an idle worker before it parks; -1: the design's own" },
	{ "--wake", "wake", " wake=", PARAM_CHOICE, P_KEY, 0, 0, 0, wake_names,
	    NULL, "every", CELL(cfg.wake), "every|lazy",
	    "shared: who a dispatch wakes" },
	{ "--keepalive", "keepalive_s", NULL, PARAM_SECONDS, 0, 0, 0.001, 3600,
	    NULL, NULL, "60", CELL(cfg.keepalive_s), "S",
	    "rendezvous: idle time before a thread retires" },
	{ "--capacity", "capacity", " cap=", PARAM_COUNT, P_KEY, 0, 1, 1u << 24,
	    NULL, NULL, "4096", CELL(cfg.queue_capacity), "N",
	    "a bounded queue's size" },
	{ "--payload-ns", "payload_ns", " payload=", PARAM_COUNT, P_KEY, 0, 0,
	    10000000, NULL, NULL, "0", CELL(payload_ns), "N",
	    "busy work added to every resumption" },
	{ "--workload", "workload", " ", PARAM_PROFILE, P_LIST | P_KEY, 0, 0,
	    0, NULL, NULL, "resume", CELL(profile), "LIST",
	    "workloads of `list`; one that blocks as NAME:MS:SHARE" },
	{ "--split", "split", " split=", PARAM_COUNT, P_LIST | P_KEY |
	    P_SPARSE, 0, 0, 4096, NULL, NULL, "0", CELL(split), "LIST",
	    "a blocking workload's blocking step hops to a view of K (kotlinx "
	    "limitedParallelism over a pool of its own) and back, as "
	    "withContext(Dispatchers.IO); 0: it blocks where it runs" },
	{ "--spawn", "spawn", " spawn=", PARAM_CHOICE, P_LIST | P_KEY |
	    P_SPARSE, 0, 0, 0, spawn_names, NULL, "inside", CELL(spawn),
	    "inside|outside[,..]", "where the coroutines start: a task on one "
	    "of the design's threads, or a thread outside it" },
	{ "--latency-every", "latency_every", NULL, PARAM_COUNT, P_POW2 |
	    P_AUTO, 0, 0, 1u << 20, NULL, NULL, "auto", CELL(latency_every), "N",
	    "sample 1 dispatch in N (a power of two; 0: none)" },
	{ "--counters", NULL, NULL, PARAM_TEXT, 0, 0, 0, 0, NULL, NULL,
	    "none", CELL(counters), "LIST", "perf_event_open counters per "
	    "dispatch: none (counting costs switch-heavy designs CPU), "
	    "default (software; hardware where there is a PMU), or the "
	    "defaults and libpfm4 event names" },
	{ "--stall", NULL, NULL, PARAM_SECONDS, 0, 0, 0.2, 86400, NULL, NULL,
	    "0", CELL(stall_s), "S", "no resumption this long: hung; 0: 10, or "
	    "twice a block and 1" },
	{ "--warmup", NULL, NULL, PARAM_SECONDS, P_SWEEP, 0, 0, 3600, NULL,
	    NULL, "0.3", SWEEP(win.warmup_s), "S", "before each window" },
	{ "--time", NULL, NULL, PARAM_SECONDS, P_SWEEP, 0, 0.01, 3600, NULL,
	    NULL, "0.8", SWEEP(win.time_s), "S", "each measured window" },
	{ "--reps", NULL, NULL, PARAM_COUNT, P_SWEEP, 0, 1, 1000, NULL, NULL,
	    "6", SWEEP(reps), "N", "runs of each cell, at most; given without "
	    "--precision, exactly" },
	{ "--precision", NULL, NULL, PARAM_NUMBER, P_SWEEP, 0, 0, 1000, NULL,
	    NULL, "10", SWEEP(precision_pct), "PCT", "a cell "
	    "stops after 3 runs or more once its median's interval (its "
	    "runs' order statistics: up to 6 runs, their lowest to highest) "
	    "lies within PCT % of the median, either way (a factor of "
	    "1 + PCT / 100); 0: every cell runs --reps" },
	{ "--out", NULL, NULL, PARAM_PATH, P_SWEEP, 0, 0, 0, NULL, NULL,
	    "results/sweep.json", SWEEP(out), "FILE.json", "the results file "
	    "(from the source tree, under build/)" },
	{ "--deadline", NULL, NULL, PARAM_SECONDS, P_SWEEP, 0, 1, 86400, NULL,
	    NULL, "0", SWEEP(deadline_s), "S",
	    "kill a run this late; 0: its window, stall and 30 more" },
	{ "--host", NULL, NULL, PARAM_CHOICE, P_SWEEP, 0, 0, 0, host_names,
	    NULL, "any", SWEEP(host_quiet), "any|quiet", "quiet: before each "
	    "run, wait (at most 60 s) until other processes keep under 5 % "
	    "of the machine busy" },
	{ "--format", NULL, NULL, PARAM_FORMAT, P_SWEEP, 0, 0, 0, NULL, NULL,
	    "table", SWEEP(format), "F", "the summary's format" },
	{ "--quiet", NULL, NULL, PARAM_SWITCH, P_SWEEP, 0, 0, 0, NULL, NULL,
	    NULL, SWEEP(quiet), NULL, "no line per run" },
};
const size_t nparams = sizeof(params) / sizeof(params[0]);

_Static_assert(sizeof(params) / sizeof(params[0]) <= 32,
    "struct sweep has room for 32 lists");

const struct param *
params_find(const char *flag)
{
	size_t i;

	for (i = 0; i < nparams; i++)
		if (strcmp(params[i].flag, flag) == 0)
			return &params[i];
	return NULL;
}

/*
 * A cell's value of p as text, or NULL when p does not apply to it: a
 * design's own knob is recorded only for the designs it applies to, and
 * "-" is the queue of a design that takes none. A field a file predates
 * reads as its default.
 */
const char *
params_value(const struct param *p, const cJSON *cell, char *buf, size_t len)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(cell, p->key);

	if (cJSON_IsString(f))
		return strcmp(f->valuestring, "-") == 0 ? NULL : f->valuestring;
	if (!cJSON_IsNumber(f))
		return p->designs != 0 ? NULL : p->dflt;
	if (p->kind == PARAM_WIDTH && f->valuedouble == 0)
		snprintf(buf, len, "inf");
	else if (p->kind == PARAM_SECONDS)
		snprintf(buf, len, "%g", f->valuedouble);
	else
		snprintf(buf, len, "%.0f", f->valuedouble);
	return buf;
}

/* A merged file's cell: " on" its machine, after its key or its series. */
static void
params_machine(const cJSON *cell, char *buf, size_t len)
{
	const char *m = results_str(cell, "machine", NULL);
	size_t used = strlen(buf);

	if (m != NULL && used < len)
		snprintf(buf + used, len - used, " on %s", m);
	return;
}

void
params_key(const cJSON *cell, bool workers, char *buf, size_t len)
{
	const struct param *p;
	const char *v;
	char num[32];
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < nparams && used < len; i++) {
		p = &params[i];
		if (!(p->flags & P_KEY) || (!workers && p->kind == PARAM_WIDTH) ||
		    (v = params_value(p, cell, num, sizeof(num))) == NULL ||
		    ((p->flags & P_SPARSE) && strcmp(v, p->dflt) == 0))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    p->label, v);
	}
	params_machine(cell, buf, len);
	return;
}

/*
 * Whether two cells are one cell but for key (the design, or the queue):
 * of one machine, every other key parameter equal where both have it,
 * and at its default where only one does (a design's own knob). A queue
 * only one of them
 * takes is not compared: the model's first cell in a file's order is
 * taken, its sweep's first --queue.
 */
static bool
params_listed(const struct param *p, const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(p->key, keys[i]) == 0)
			return true;
	return false;
}

bool
params_same_except(const cJSON *a, const cJSON *b, const char *const *keys,
    size_t nkeys)
{
	char na[32], nb[32];
	const struct param *p;
	const char *va, *vb;
	size_t i;

	if (strcmp(results_str(a, "machine", ""), results_str(b, "machine",
	    "")) != 0)
		return false;
	for (i = 0; i < nparams; i++) {
		p = &params[i];
		if (!(p->flags & P_KEY) || params_listed(p, keys, nkeys))
			continue;
		va = params_value(p, a, na, sizeof(na));
		vb = params_value(p, b, nb, sizeof(nb));
		if (va != NULL && vb != NULL) {
			if (strcmp(va, vb) != 0)
				return false;
		} else if ((va = va != NULL ? va : vb) != NULL &&
		    p->kind != PARAM_QUEUE && strcmp(va, p->dflt) != 0)
			return false;
	}
	return true;
}

bool
params_same_but(const cJSON *a, const cJSON *b, const char *key)
{

	return params_same_except(a, b, &key, 1);
}

/*
 * A design's own knob (not its queue), or a parameter named only off its
 * default: its values make variants of the design.
 */
static bool
params_variant(const struct param *p)
{

	return (p->flags & P_KEY) && ((p->designs != 0 && p->kind !=
	    PARAM_QUEUE) || (p->flags & P_SPARSE));
}

const char *
params_design(const cJSON *cell, char *buf, size_t len)
{
	const struct param *p;
	const char *v;
	char num[32];
	size_t i, k, used;

	used = (size_t)snprintf(buf, len, "%s", results_str(cell, "dispatcher",
	    "?"));
	for (i = 0; i < nparams && used < len; i++) {
		p = &params[i];
		if (!params_variant(p) || (v = params_value(p, cell, num,
		    sizeof(num))) == NULL)
			continue;
		for (k = 0; p->suffix != NULL && p->names[k] != NULL; k++)
			if (strcmp(p->names[k], v) == 0)
				used += (size_t)snprintf(buf + used, len - used,
				    "%s", p->suffix[k]);
		if (p->suffix == NULL && strcmp(v, p->dflt) != 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
			    p->label, v);
	}
	return buf;
}

void
params_series(const cJSON *cell, char *buf, size_t len)
{
	const struct param *p;
	const char *v;
	char num[32];
	size_t i, used;

	params_design(cell, buf, len);
	used = strlen(buf);
	for (i = 0; i < nparams && used < len; i++) {
		p = &params[i];
		if (!(p->flags & P_KEY) || p->kind == PARAM_DESIGN ||
		    p->kind == PARAM_WIDTH || params_variant(p) ||
		    (v = params_value(p, cell, num, sizeof(num))) == NULL ||
		    (!(p->flags & P_SHOWN) && strcmp(v, p->dflt) == 0))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    p->label, v);
	}
	if (used < len && results_num(cell, "workers") == 0)
		snprintf(buf + used, len - used, " unbounded");
	params_machine(cell, buf, len);
	return;
}
