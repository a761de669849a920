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
	{ .flag = "--dispatcher", .key = "dispatcher", .label = "",
	    .kind = PARAM_DESIGN, .flags = P_LIST | P_KEY | P_SHOWN,
	    .dflt = "all", .off = CELL(disp), .metavar = "LIST",
	    .help = "handoff designs (`list`), exec:PATH (a program of its "
	    "own), or all (every design but the programs)" },
	{ .flag = "--queue", .key = "queue", .label = "/", .kind = PARAM_QUEUE,
	    .flags = P_LIST | P_KEY | P_SHOWN, .designs = DISP_USES_QUEUE,
	    .dflt = "first", .off = CELL(cfg.queue), .metavar = "LIST",
	    .help = "queues of shared and limited (`list`; first: lfseg)" },
	{ .flag = "--workers", .key = "workers", .label = " w=",
	    .kind = PARAM_WIDTH, .flags = P_LIST | P_KEY, .lo = 1, .hi = 4096,
	    .dflt = "1..64,inf", .off = CELL(cfg.workers), .metavar = "LIST",
	    .help = "the design's width (docs/designs.md); inf: no bound "
	    "(rendezvous)" },
	{ .flag = "--lifo", .key = "lifo", .label = " lifo=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY,
	    .designs = DISP_STEALS, .names = lifo_names, .suffix = lifo_suffix,
	    .dflt = "on", .off = CELL(cfg.lifo), .metavar = "on|off[,..]",
	    .help = "stealing: a worker's own dispatch to its LIFO slot (off: "
	    "to the back of its run queue)" },
	{ .flag = "--searchers", .key = "searchers", .label = " searchers=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY,
	    .designs = DISP_STEALS, .names = search_names,
	    .suffix = search_suffix, .dflt = "half", .off = CELL(cfg.searchers),
	    .metavar = "half|all[,..]",
	    .help = "stealing: how many idle workers may search at once" },
	{ .flag = "--yield", .key = "yield", .label = " yield=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY | P_SPARSE,
	    .designs = DISP_STEALS, .names = yield_names,
	    .suffix = yield_suffix, .dflt = "wake-other",
	    .off = CELL(cfg.yield_path), .metavar = "PATH[,..]",
	    .help = "stealing: the path of a coroutine's next resumption: "
	    "wake-other (the LIFO slot), self-wake (Tokio wake_by_ref), tokio "
	    "(yield_now), go (Gosched)" },
	{ .flag = "--floor", .key = "floor", .label = " floor=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY | P_SPARSE,
	    .designs = DISP_STEALS, .names = floor_names,
	    .suffix = floor_suffix, .dflt = "on", .off = CELL(cfg.floor),
	    .metavar = "on|off|io[,..]", .help = "stealing: the runtime's own "
	    "work around a handoff (task states, the driver poll, no I/O "
	    "driver); off: the queues and wake-ups alone; io: with an I/O "
	    "driver, an epoll_wait(0) a driver poll" },
	{ .flag = "--from", .key = "from", .label = " from=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY | P_SPARSE,
	    .designs = DISP_LOOPS, .names = from_names, .suffix = from_suffix,
	    .dflt = "home", .off = CELL(cfg.from),
	    .metavar = "home|outside|execute[,..]",
	    .help = "eventloop: a resumption from its own loop (Ktor, in "
	    "place), from outside through Netty's execute(), or from its own "
	    "loop through execute()" },
	{ .flag = "--coroutines", .key = "coroutines", .label = " c=",
	    .kind = PARAM_COUNT, .flags = P_LIST | P_KEY, .lo = 1,
	    .hi = 1000000, .dflt = "64", .off = CELL(coroutines),
	    .metavar = "LIST", .help = "coroutines in flight" },
	{ .flag = "--pin", .key = "pin", .label = " pin=", .kind = PARAM_TEXT,
	    .flags = P_KEY, .dflt = "compact", .off = CELL(pin),
	    .metavar = "POLICY|PUS", .help = "where the threads run (hwloc): "
	    "none, compact, smt, core, scatter, numa, spread-numa, or PU "
	    "numbers (`plan` prints it)" },
	{ .flag = "--pool", .key = "pool", .label = " pool=",
	    .kind = PARAM_COUNT, .flags = P_KEY, .lo = 1, .hi = 4096,
	    .dflt = "0", .off = CELL(cfg.pool), .metavar = "N",
	    .help = "limited: its scheduler's core size (CPU permits); 0: "
	    "max(CPUs, 2)" },
	{ .flag = "--pool-queue", .key = "pool_queue", .label = " pool-queue=",
	    .kind = PARAM_QUEUE, .flags = P_LIST | P_KEY | P_SPARSE,
	    .designs = DISP_SCHEDULER, .dflt = "lfseg",
	    .off = CELL(cfg.pool_queue), .metavar = "LIST",
	    .help = "default, limited: the scheduler's global queues "
	    "(GlobalQueue: lfseg)" },
	{ .flag = "--spins", .key = "spins", .label = " spins=",
	    .kind = PARAM_INT, .flags = P_KEY | P_MODELS, .hi = 10000000,
	    .dflt = "-1", .off = CELL(cfg.spins), .metavar = "N",
	    .help = "polls of an idle worker before it parks; -1: the design's "
	    "own" },
	{ .flag = "--wake", .key = "wake", .label = " wake=",
	    .kind = PARAM_CHOICE, .flags = P_KEY | P_MODELS,
	    .names = wake_names, .dflt = "every", .off = CELL(cfg.wake),
	    .metavar = "every|lazy",
	    .help = "shared: who a dispatch wakes" },
	{ .flag = "--keepalive", .key = "keepalive_s", .kind = PARAM_SECONDS,
	    .lo = 0.001, .hi = 3600, .dflt = "60", .off = CELL(cfg.keepalive_s),
	    .metavar = "S",
	    .help = "rendezvous: idle time before a thread retires" },
	{ .flag = "--capacity", .key = "capacity", .label = " cap=",
	    .kind = PARAM_COUNT, .flags = P_KEY, .lo = 1, .hi = 1u << 24,
	    .dflt = "4096", .off = CELL(cfg.queue_capacity), .metavar = "N",
	    .help = "a bounded queue's size" },
	{ .flag = "--payload-ns", .key = "payload_ns", .label = " payload=",
	    .kind = PARAM_COUNT, .flags = P_KEY, .hi = 10000000, .dflt = "0",
	    .off = CELL(payload_ns), .metavar = "N",
	    .help = "busy work added to every resumption" },
	{ .flag = "--workload", .key = "workload", .label = " ",
	    .kind = PARAM_PROFILE, .flags = P_LIST | P_KEY, .dflt = "resume",
	    .off = CELL(profile), .metavar = "LIST",
	    .help = "workloads of `list`; one that blocks as NAME:MS:SHARE" },
	{ .flag = "--split", .key = "split", .label = " split=",
	    .kind = PARAM_COUNT, .flags = P_LIST | P_KEY | P_SPARSE, .hi = 4096,
	    .dflt = "0", .off = CELL(split), .metavar = "LIST",
	    .help = "a blocking workload's blocking step hops to a view of K "
	    "(kotlinx limitedParallelism over a pool of its own) and back, as "
	    "withContext(Dispatchers.IO); 0: it blocks where it runs" },
	{ .flag = "--spawn", .key = "spawn", .label = " spawn=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY | P_SPARSE,
	    .names = spawn_names, .dflt = "inside", .off = CELL(spawn),
	    .metavar = "inside|outside[,..]", .help = "where the coroutines "
	    "start: a task on one of the design's threads, or a thread outside "
	    "it" },
	{ .flag = "--latency-every", .key = "latency_every",
	    .kind = PARAM_COUNT, .flags = P_POW2 | P_AUTO, .hi = 1u << 20,
	    .dflt = "auto", .off = CELL(latency_every), .metavar = "N",
	    .help = "sample 1 dispatch in N (a power of two; 0: none)" },
	{ .flag = "--counters", .kind = PARAM_TEXT, .dflt = "none",
	    .off = CELL(counters), .metavar = "LIST",
	    .help = "perf_event_open counters per dispatch: none (counting "
	    "costs switch-heavy designs CPU), default (software; hardware "
	    "where there is a PMU), or the defaults and libpfm4 event names" },
	{ .flag = "--stall", .kind = PARAM_SECONDS, .lo = 0.2, .hi = 86400,
	    .dflt = "0", .off = CELL(stall_s), .metavar = "S",
	    .help = "no resumption this long: hung; 0: 10, or twice a block "
	    "and 1" },
	{ .flag = "--warmup", .kind = PARAM_SECONDS, .flags = P_SWEEP,
	    .hi = 3600, .dflt = "0.3", .off = SWEEP(win.warmup_s),
	    .metavar = "S", .help = "before each window" },
	{ .flag = "--time", .kind = PARAM_SECONDS, .flags = P_SWEEP, .lo = 0.01,
	    .hi = 3600, .dflt = "0.8", .off = SWEEP(win.time_s), .metavar = "S",
	    .help = "each measured window" },
	{ .flag = "--reps", .kind = PARAM_COUNT, .flags = P_SWEEP, .lo = 1,
	    .hi = 1000, .dflt = "6", .off = SWEEP(reps), .metavar = "N",
	    .help = "runs of each cell, at most; given without --precision, "
	    "exactly" },
	{ .flag = "--precision", .kind = PARAM_NUMBER, .flags = P_SWEEP,
	    .hi = 1000, .dflt = "10", .off = SWEEP(precision_pct),
	    .metavar = "PCT", .help = "a cell stops after 3 runs or more once "
	    "its median's interval (its runs' order statistics: up to 6 runs, "
	    "their lowest to highest) lies within PCT % of the median, either "
	    "way (a factor of 1 + PCT / 100); 0: every cell runs --reps" },
	{ .flag = "--out", .kind = PARAM_PATH, .flags = P_SWEEP,
	    .dflt = "results/sweep.json", .off = SWEEP(out),
	    .metavar = "FILE.json",
	    .help = "the results file (from the source tree, under build/)" },
	{ .flag = "--deadline", .kind = PARAM_SECONDS, .flags = P_SWEEP,
	    .lo = 1, .hi = 86400, .dflt = "0", .off = SWEEP(deadline_s),
	    .metavar = "S",
	    .help = "kill a run this late; 0: its window, stall and 30 more" },
	{ .flag = "--host", .kind = PARAM_CHOICE, .flags = P_SWEEP,
	    .names = host_names, .dflt = "any", .off = SWEEP(host_quiet),
	    .metavar = "any|quiet", .help = "quiet: before each run, wait (at "
	    "most 60 s) until other processes keep under 5 % of the machine "
	    "busy" },
	{ .flag = "--format", .kind = PARAM_FORMAT, .flags = P_SWEEP,
	    .dflt = "table", .off = SWEEP(format), .metavar = "F",
	    .help = "the summary's format" },
	{ .flag = "--quiet", .kind = PARAM_SWITCH, .flags = P_SWEEP,
	    .off = SWEEP(quiet), .help = "no line per run" },
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
