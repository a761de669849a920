/*
 * param.c - the parameter table (param.h): every option of a sweep, its
 * key in a results file, and where the tool keeps its value (struct cell,
 * dispatchers/knobs.h, struct sweep). The results' side reads its names and
 * defaults; only this file needs the layouts the offsets come from.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "count.h"
#include "param.h"
#include "runfields.h"
#include "sweep.h"

/* A choice is stored in an int; the design's config holds enums. */
_Static_assert(sizeof(enum disp_wake) == sizeof(int), "wake is an int");
_Static_assert(sizeof(enum disp_lifo) == sizeof(int), "lifo is an int");
_Static_assert(sizeof(enum disp_search) == sizeof(int), "search is an int");
_Static_assert(sizeof(enum disp_yield) == sizeof(int), "yield is an int");
_Static_assert(sizeof(enum disp_floor) == sizeof(int), "floor is an int");
_Static_assert(sizeof(enum workload_spawn) == sizeof(int), "spawn is an int");
_Static_assert(sizeof(enum disp_from) == sizeof(int), "from is an int");
_Static_assert(sizeof(enum count_counter) == sizeof(int),
    "counter is an int");

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
static const char *const counter_names[] = { "auto", "callgrind", "perf",
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
	    .kind = PARAM_DESIGN, .flags = P_LIST | P_KEY | P_DENSE | P_SHOWN,
	    .dflt = "all", .off = CELL(disp), .metavar = "LIST",
	    .help = "handoff designs (`list`), exec:PATH (a program of its "
	    "own), or all (every design but the programs)" },
	{ .flag = "--queue", .key = "queue", .label = "/", .kind = PARAM_QUEUE,
	    .flags = P_LIST | P_KEY | P_DENSE | P_SHOWN,
	    .designs = DB_DISP_USES_QUEUE,
	    .dflt = "first", .off = CELL(cfg.queue), .metavar = "LIST",
	    .help = "queues of shared and limited (`list`; first: lfseg)" },
	{ .flag = "--workers", .key = "workers", .label = " w=",
	    .kind = PARAM_WIDTH, .flags = P_LIST | P_KEY | P_DENSE, .lo = 1,
	    .hi = 4096,
	    .dflt = "1..64,inf", .off = CELL(cfg.workers), .metavar = "LIST",
	    .help = "the design's width (docs/designs.md); inf: no bound "
	    "(rendezvous)" },
	{ .flag = "--lifo", .key = "lifo", .label = " lifo=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY | P_DENSE,
	    .owners = "stealing", .names = lifo_names, .suffix = lifo_suffix,
	    .dflt = "on", .off = CELL(knobs.lifo), .metavar = "on|off[,..]",
	    .help = "stealing: a worker's own dispatch to its LIFO slot (off: "
	    "to the back of its run queue)" },
	{ .flag = "--searchers", .key = "searchers", .label = " searchers=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY | P_DENSE,
	    .owners = "stealing", .names = search_names,
	    .suffix = search_suffix, .dflt = "half",
	    .off = CELL(knobs.searchers),
	    .metavar = "half|all[,..]",
	    .help = "stealing: how many idle workers may search at once" },
	{ .flag = "--yield", .key = "yield", .label = " yield=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY,
	    .owners = "stealing", .names = yield_names,
	    .suffix = yield_suffix, .dflt = "wake-other",
	    .off = CELL(knobs.yield_path), .metavar = "PATH[,..]",
	    .help = "stealing: the path of a coroutine's next resumption: "
	    "wake-other (the LIFO slot), self-wake (Tokio wake_by_ref), tokio "
	    "(yield_now), go (Gosched)" },
	{ .flag = "--floor", .key = "floor", .label = " floor=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY,
	    .owners = "stealing", .names = floor_names,
	    .suffix = floor_suffix, .dflt = "on", .off = CELL(knobs.floor),
	    .metavar = "on|off|io[,..]", .help = "stealing: the runtime's own "
	    "work around a handoff (task states, the driver poll, no I/O "
	    "driver); off: the queues and wake-ups alone; io: with an I/O "
	    "driver, an epoll_wait(0) a driver poll" },
	{ .flag = "--from", .key = "from", .label = " from=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY,
	    .owners = "eventloop,uv,glib-invoke", .names = from_names,
	    .suffix = from_suffix,
	    .dflt = "home", .off = CELL(knobs.from),
	    .metavar = "home|outside|execute[,..]",
	    .help = "eventloop: a resumption from its own loop (Ktor, in "
	    "place), from outside through Netty's execute(), or from its own "
	    "loop through execute()" },
	{ .flag = "--coroutines", .key = "coroutines", .label = " c=",
	    .kind = PARAM_COUNT, .flags = P_LIST | P_KEY | P_DENSE, .lo = 1,
	    .hi = 1000000, .dflt = "64", .off = CELL(coroutines),
	    .metavar = "LIST", .help = "coroutines in flight" },
	{ .flag = "--pin", .key = "pin", .label = " pin=", .kind = PARAM_TEXT,
	    .flags = P_KEY | P_DENSE, .dflt = "compact", .off = CELL(pin),
	    .metavar = "POLICY|PUS", .help = "where the threads run (hwloc): "
	    "none, compact, smt, core, scatter, numa, spread-numa, or PU "
	    "numbers (`plan` prints it)" },
	{ .flag = "--pool", .key = "pool", .label = " pool=",
	    .kind = PARAM_COUNT, .flags = P_KEY | P_DENSE, .lo = 1, .hi = 4096,
	    .dflt = "0", .off = CELL(knobs.pool), .metavar = "N",
	    .help = "limited: its scheduler's core size (CPU permits); 0: "
	    "max(CPUs, 2)" },
	{ .flag = "--pool-queue", .key = "pool_queue", .label = " pool-queue=",
	    .kind = PARAM_QUEUE, .flags = P_LIST | P_KEY,
	    .owners = "default,limited", .dflt = "lfseg",
	    .off = CELL(knobs.pool_queue), .metavar = "LIST",
	    .help = "default, limited: the scheduler's global queues "
	    "(GlobalQueue: lfseg)" },
	{ .flag = "--spins", .key = "spins", .label = " spins=",
	    .kind = PARAM_INT, .flags = P_KEY | P_DENSE | P_MODELS,
	    .hi = 10000000,
	    .dflt = "-1", .off = CELL(knobs.spins), .metavar = "N",
	    .help = "polls of an idle worker before it parks; -1: the design's "
	    "own" },
	{ .flag = "--wake", .key = "wake", .label = " wake=",
	    .kind = PARAM_CHOICE, .flags = P_KEY | P_DENSE | P_MODELS,
	    .names = wake_names, .dflt = "every", .off = CELL(knobs.wake),
	    .metavar = "every|lazy",
	    .help = "shared: who a dispatch wakes" },
	{ .flag = "--keepalive", .key = "keepalive_s", .kind = PARAM_SECONDS,
	    .lo = 0.001, .hi = 3600, .dflt = "60",
	    .off = CELL(knobs.keepalive_s),
	    .metavar = "S",
	    .help = "rendezvous: idle time before a thread retires" },
	{ .flag = "--capacity", .key = "capacity", .label = " cap=",
	    .kind = PARAM_COUNT, .flags = P_KEY | P_DENSE, .lo = 1,
	    .hi = 1u << 24,
	    .dflt = "4096", .off = CELL(cfg.queue_capacity), .metavar = "N",
	    .help = "a bounded queue's size" },
	{ .flag = "--payload-ns", .key = RF(payload_ns), .label = " payload=",
	    .kind = PARAM_COUNT, .flags = P_KEY | P_DENSE, .hi = 10000000,
	    .dflt = "0",
	    .off = CELL(payload_ns), .metavar = "N",
	    .help = "busy work added to every resumption" },
	{ .flag = "--workload", .key = "workload", .label = " ",
	    .kind = PARAM_PROFILE, .flags = P_LIST | P_KEY | P_DENSE,
	    .dflt = "resume",
	    .off = CELL(profile), .metavar = "LIST",
	    .help = "workloads of `list`; one that blocks as NAME:MS:SHARE" },
	{ .flag = "--split", .key = "split", .label = " split=",
	    .kind = PARAM_COUNT, .flags = P_LIST | P_KEY, .hi = 4096,
	    .dflt = "0", .off = CELL(split), .metavar = "LIST",
	    .help = "a blocking workload's blocking step hops to a view of K "
	    "(kotlinx limitedParallelism over a pool of its own) and back, as "
	    "withContext(Dispatchers.IO); 0: it blocks where it runs" },
	{ .flag = "--spawn", .key = "spawn", .label = " spawn=",
	    .kind = PARAM_CHOICE, .flags = P_LIST | P_KEY,
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
	{ .flag = "--count", .kind = PARAM_COUNT, .flags = P_POW2,
	    .hi = 1u << 20, .dflt = "0", .off = CELL(count), .metavar = "N",
	    .help = "a counted window, not a timed one: each coroutine runs N "
	    "resumptions (a power of two) to warm up, then N counted, and the "
	    "run gives instructions per dispatch (--metric instructions: "
	    "1024); 0: timed" },
	{ .flag = "--counter", .kind = PARAM_CHOICE, .names = counter_names,
	    .dflt = "auto", .off = CELL(counter),
	    .metavar = "auto|callgrind|perf", .help = "what counts a counted "
	    "window: Valgrind's callgrind, or the PMU's instructions:u; auto: "
	    "perf where a PMU opens, else callgrind" },
	{ .flag = "--stall", .kind = PARAM_SECONDS, .lo = 0.2, .hi = 86400,
	    .dflt = "0", .off = CELL(stall_s), .metavar = "S",
	    .help = "no resumption this long: hung; 0: 10, or twice a block "
	    "and 1" },
#ifdef PARAMS_EXTRA
#include PARAMS_EXTRA	/* a test's knob added through this table alone */
#endif
	{ .flag = "--warmup", .kind = PARAM_SECONDS, .flags = P_SWEEP,
	    .hi = 3600, .dflt = "0.3", .off = SWEEP(win.warmup_s),
	    .metavar = "S", .help = "before each window" },
	{ .flag = "--time", .kind = PARAM_SECONDS, .flags = P_SWEEP, .lo = 0.01,
	    .hi = 3600, .dflt = "0.8", .off = SWEEP(win.time_s), .metavar = "S",
	    .help = "each measured window" },
	{ .flag = "--reps", .kind = PARAM_COUNT, .flags = P_SWEEP, .lo = 1,
	    .hi = 1000, .dflt = "6", .off = SWEEP(reps), .metavar = "N",
	    .help = "runs of each cell, at most; given without --precision, "
	    "exactly; run: never fewer than compare needs to judge two such "
	    "files cell by cell (7 for 72 cells)" },
	{ .flag = "--precision", .kind = PARAM_NUMBER, .flags = P_SWEEP,
	    .hi = 1000, .dflt = "10", .off = SWEEP(precision_pct),
	    .metavar = "PCT", .help = "a cell stops after 3 runs or more (run: "
	    "what compare needs) once its median's interval (its runs' order statistics: up to 6 runs, "
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

_Static_assert(sizeof(params) / sizeof(params[0]) <= PARAMS_MAX,
    "struct sweep has room for PARAMS_MAX lists");


const struct param *
params_find(const char *flag)
{
	size_t i;

	for (i = 0; i < nparams; i++)
		if (strcmp(params[i].flag, flag) == 0)
			return &params[i];
	return NULL;
}

int
param_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}
