/*
 * cell.c - one measured run, in its own process (see runner.c).
 *
 * Warm-up first, so every worker has run and the pool has reached its
 * steady size; then the window, read at both ends; then the coroutines are
 * stopped and every dispatch is accounted for.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cell.h"
#include "measure.h"
#include "pin.h"
#include "watchdog.h"
#include "workload.h"

/* How long stopped coroutines get to come back before a task is lost. */
#define CELL_STOP_TIMEOUT_S	10.0
/* How often the window looks at the thread count. */
#define CELL_SAMPLE_NS		20000000L

struct cell_pin {
	struct pin_plan plan;
	_Atomic unsigned int next;
};

static void
cell_thread_start(void *arg)
{
	struct cell_pin *p = arg;

	pin_self(&p->plan, atomic_fetch_add(&p->next, 1));
	return;
}

cJSON *
cell_params(const struct cell *c)
{
	cJSON *o = cJSON_CreateObject();
	char profile[64];

	workload_profile_format(&c->profile, profile, sizeof(profile));
	cJSON_AddStringToObject(o, "dispatcher", c->disp->name);
	cJSON_AddStringToObject(o, "queue", c->queue ? c->queue->name : "-");
	cJSON_AddNumberToObject(o, "workers", c->workers);
	cJSON_AddNumberToObject(o, "coroutines", c->coroutines);
	cJSON_AddStringToObject(o, "pin", c->pin);
	cJSON_AddNumberToObject(o, "pool", c->pool);
	cJSON_AddNumberToObject(o, "spins", c->spins);
	cJSON_AddStringToObject(o, "wake",
	    c->wake == DISP_WAKE_LAZY ? "lazy" : "every");
	cJSON_AddNumberToObject(o, "keepalive_s", c->keepalive_s);
	if (c->disp->flags & DISP_STEALS) {
		cJSON_AddStringToObject(o, "lifo", disp_lifo_names[c->lifo]);
		cJSON_AddStringToObject(o, "searchers",
		    disp_search_names[c->searchers]);
	}
	cJSON_AddNumberToObject(o, "capacity", c->capacity);
	cJSON_AddNumberToObject(o, "payload_ns", c->payload_ns);
	cJSON_AddStringToObject(o, "workload", profile);
	cJSON_AddNumberToObject(o, "latency_every", c->latency_every);
	return o;
}

static cJSON *
cell_fail(cJSON *run, const char *why)
{

	cJSON_ReplaceItemInObject(run, "status", cJSON_CreateString("failed"));
	cJSON_AddStringToObject(run, "error", why);
	cJSON_AddBoolToObject(run, "count_ok", 0);
	return run;
}

/* What the watchdog saw; the window's figures, if any, are dropped. */
static cJSON *
cell_hung(cJSON *run, struct watchdog *wd)
{
	cJSON *hung = cJSON_CreateObject();
	char why[96];

	watchdog_stop(wd);
	cJSON_Delete(run);
	cJSON_AddStringToObject(hung, "status", "hung");
	snprintf(why, sizeof(why), "no resumption for %.1f s",
	    wd->stall_s);
	cJSON_AddStringToObject(hung, "error", why);
	cJSON_AddBoolToObject(hung, "count_ok", 0);
	cJSON_AddItemToObject(hung, "watchdog", wd->report);
	return hung;
}

struct cell_peaks {
	long threads;
	long rss_anon_kb;
};

static void
cell_peak(long *peak, long v)
{

	*peak = v > *peak ? v : *peak;
	return;
}

/*
 * Sleeps through the window (or the warm-up), keeping the most threads and
 * memory seen; false if the watchdog declared the run hung meanwhile.
 */
static bool
cell_sleep(double seconds, struct cell_peaks *p, struct watchdog *wd)
{
	struct timespec nap = { 0, CELL_SAMPLE_NS };
	double end = measure_now() + seconds;

	memset(p, 0, sizeof(*p));
	do {
		cell_peak(&p->threads, measure_status("Threads"));
		cell_peak(&p->rss_anon_kb, measure_status("RssAnon"));
		nanosleep(&nap, NULL);
	} while (measure_now() < end && !watchdog_fired(wd));
	return !watchdog_fired(wd);
}

/* Coroutines with no progress in the window, and the spread of the rest. */
static void
cell_fairness(cJSON *run, const uint64_t *a, const uint64_t *b, unsigned int n)
{
	uint64_t d, lo = UINT64_MAX, hi = 0, sum = 0;
	unsigned int i, starved = 0;
	double mean;

	for (i = 0; i < n; i++) {
		d = b[i] - a[i];
		starved += d == 0;
		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		sum += d;
	}
	mean = (double)sum / n;
	cJSON_AddNumberToObject(run, "starved", starved);
	cJSON_AddNumberToObject(run, "min_share", mean > 0 ? lo / mean : 0);
	cJSON_AddNumberToObject(run, "max_share", mean > 0 ? hi / mean : 0);
	return;
}

static void
cell_figures(cJSON *run, const struct measure_sample *a,
    const struct measure_sample *b, uint64_t dispatches)
{
	double wall = b->wall_s - a->wall_s, cpu = b->cpu_s - a->cpu_s;
	double clk = b->cpu_clock_s - a->cpu_clock_s;
	double sched = b->cpu_sched_s - a->cpu_sched_s;
	double disp = dispatches > 0 ? (double)dispatches : 1;
	long vcs = b->nvcsw - a->nvcsw, ivcs = b->nivcsw - a->nivcsw;

	cJSON_AddNumberToObject(run, "wall_s", wall);
	cJSON_AddNumberToObject(run, "cpu_s", cpu);
	cJSON_AddNumberToObject(run, "cpu_clock_s", clk);
	cJSON_AddNumberToObject(run, "cpu_schedstat_s", sched);
	/* The headline (getrusage) against the scheduler's own counter. */
	cJSON_AddNumberToObject(run, "cpu_schedstat_diff_pct",
	    cpu > 0 ? (sched - cpu) / cpu * 100 : 0);
	cJSON_AddNumberToObject(run, "dispatches", (double)dispatches);
	cJSON_AddNumberToObject(run, "ops_per_s",
	    dispatches / (double)WORKLOAD_RESUMES_PER_OP / wall);
	cJSON_AddNumberToObject(run, "cpu_us_per_op",
	    cpu * 1e6 / (disp / WORKLOAD_RESUMES_PER_OP));
	cJSON_AddNumberToObject(run, "cpu_us_per_dispatch", cpu * 1e6 / disp);
	cJSON_AddNumberToObject(run, "ctx_switches_per_dispatch",
	    (double)(vcs + ivcs) / disp);
	cJSON_AddNumberToObject(run, "vol_ctx_switches_per_dispatch",
	    (double)vcs / disp);
	cJSON_AddNumberToObject(run, "invol_ctx_switches_per_dispatch",
	    (double)ivcs / disp);
	cJSON_AddNumberToObject(run, "cpus_busy", cpu / wall);
	return;
}

static void
cell_io_start(void *arg)
{
	struct cell_pin *p = arg;

	pin_self_apart(&p->plan);
	return;
}

static void
cell_config(const struct cell *c, struct cell_pin *pin, struct disp_config *cfg)
{

	memset(cfg, 0, sizeof(*cfg));
	cfg->workers = c->workers;
	cfg->pool = c->pool;
	cfg->queue = c->queue;
	cfg->queue_capacity = c->capacity;
	cfg->spins = c->spins;
	cfg->wake = c->wake;
	cfg->keepalive_s = c->keepalive_s;
	cfg->lifo = c->lifo;
	cfg->searchers = c->searchers;
	cfg->thread_start = cell_thread_start;
	cfg->thread_arg = pin;
	return;
}

/*
 * A request's I/O loop, on a PU of its own where the plan has one to
 * spare: a Netty event loop of one thread, the design of the I/O side
 * whatever the design under test. A design made of event loops is its
 * own I/O (*io NULL).
 */
static int
cell_io_create(const struct cell *c, struct cell_pin *pin,
    struct disp_config *cfg, struct dispatcher **io)
{

	*io = NULL;
	if (c->profile.kind != WORKLOAD_REQUEST || (c->disp->flags & DISP_LOOPS))
		return 0;
	memset(cfg, 0, sizeof(*cfg));
	cfg->workers = 1;
	cfg->thread_start = cell_io_start;
	cfg->thread_arg = pin;
	return disp_eventloop.create(io, cfg);
}

/* The sampled dispatch latencies of the window, in microseconds. */
static void
cell_latency(cJSON *run, const struct hist_snap *h)
{
	static const struct { const char *name; double q; } qs[] = {
		{ "latency_p50_us", 0.5 }, { "latency_p90_us", 0.9 },
		{ "latency_p99_us", 0.99 }, { "latency_p999_us", 0.999 },
		{ "latency_max_us", 1.0 } };
	size_t i;

	cJSON_AddNumberToObject(run, "latency_samples", (double)h->n);
	if (h->n == 0)
		return;
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		cJSON_AddNumberToObject(run, qs[i].name,
		    (double)hist_quantile(h, qs[i].q) * 1e-3);
	return;
}

/* A request's round trip is two dispatches: there and back. */
static void
cell_round_trip(cJSON *run)
{
	double trips = cJSON_GetObjectItem(run, "dispatches")->valuedouble /
	    WORKLOAD_RESUMES_PER_TRIP;

	cJSON_AddNumberToObject(run, "round_trips_per_s", trips /
	    cJSON_GetObjectItem(run, "wall_s")->valuedouble);
	cJSON_AddNumberToObject(run, "cpu_us_per_round_trip",
	    cJSON_GetObjectItem(run, "cpu_s")->valuedouble * 1e6 /
	    (trips > 0 ? trips : 1));
	return;
}

/*
 * A blocking profile: what Little's law allows with the threads that can
 * hold a resumption at once (never more than the coroutines), and the
 * share of it the window reached.
 */
static void
cell_capacity(cJSON *run, const struct cell *c, uint64_t blocked,
    double wall_s, double ops_per_s)
{
	unsigned int threads = c->disp == &disp_inline ? 1 : c->workers;
	double ceiling;

	if (!workload_blocks_some(&c->profile))
		return;
	if (threads == CELL_UNBOUNDED || threads > c->coroutines)
		threads = c->coroutines;
	ceiling = workload_ceiling(&c->profile, threads, measure_cpus()) /
	    WORKLOAD_RESUMES_PER_OP;
	cJSON_AddNumberToObject(run, "blocked_per_s", (double)blocked / wall_s);
	cJSON_AddNumberToObject(run, "ceiling_ops_per_s", ceiling);
	cJSON_AddNumberToObject(run, "capacity_pct", ops_per_s / ceiling * 100);
	return;
}

/* Both ends of the window read; the latency window is their difference. */
struct cell_end {
	struct measure_sample m;
	uint64_t dispatches;
	uint64_t blocked;
	uint64_t *per;
};

static void
cell_end_read(struct cell_end *e, struct workload *w, struct hist_snap *h,
    int sign)
{

	e->dispatches = workload_count(w, e->per);
	e->blocked = workload_blocked(w);
	workload_latency(w, h, sign);
	measure_sample(&e->m);
	return;
}

/*
 * The window itself: both ends read, fairness and placement recorded.
 * False if the run hung in it.
 */
static bool
cell_measure(cJSON *run, const struct cell *c, struct workload *w,
    const struct cell_pin *pin, const struct cell_window *win,
    struct watchdog *wd)
{
	struct hist_snap *h = calloc(1, sizeof(*h));
	struct cell_end a = { .per = calloc(w->n, sizeof(uint64_t)) };
	struct cell_end b = { .per = calloc(w->n, sizeof(uint64_t)) };
	struct cell_peaks peak;

	if (h == NULL || a.per == NULL || b.per == NULL)
		abort();
	cell_end_read(&a, w, h, -1);
	if (!cell_sleep(win->time_s, &peak, wd)) {
		free(a.per);
		free(b.per);
		free(h);
		return false;
	}
	cell_end_read(&b, w, h, 1);
	cell_figures(run, &a.m, &b.m, b.dispatches - a.dispatches);
	cell_capacity(run, c, b.blocked - a.blocked, b.m.wall_s - a.m.wall_s,
	    cJSON_GetObjectItem(run, "ops_per_s")->valuedouble);
	if (c->profile.kind == WORKLOAD_REQUEST)
		cell_round_trip(run);
	cell_latency(run, h);
	cell_fairness(run, a.per, b.per, w->n);
	cJSON_AddNumberToObject(run, "threads", measure_status("Threads"));
	cJSON_AddNumberToObject(run, "threads_peak", peak.threads);
	cJSON_AddNumberToObject(run, "rss_kb", measure_status("VmRSS"));
	cJSON_AddNumberToObject(run, "rss_anon_kb", measure_status("RssAnon"));
	cJSON_AddNumberToObject(run, "rss_anon_peak_kb", peak.rss_anon_kb);
	cJSON_AddItemToObject(run, "bindings", pin_readback(&pin->plan));
	free(a.per);
	free(b.per);
	free(h);
	return true;
}

static void
cell_check(cJSON *run, struct workload *w, const struct disp_stats *st)
{
	struct workload_check chk;

	workload_check(w, st->ran, &chk);
	cJSON_AddBoolToObject(run, "count_ok", chk.ok);
	cJSON_AddNumberToObject(run, "resumptions_total", (double)chk.runs);
	cJSON_AddNumberToObject(run, "dispatcher_ran", (double)st->ran);
	cJSON_AddNumberToObject(run, "lost", (double)chk.lost);
	cJSON_AddNumberToObject(run, "doubled", (double)chk.doubled);
	cJSON_AddNumberToObject(run, "spilled", (double)st->spilled);
	cJSON_AddNumberToObject(run, "threads_started", st->threads_started);
	/* Over the whole run, warm-up included: a pool's high-water mark. */
	cJSON_AddNumberToObject(run, "threads_high_water", st->threads_peak);
	cJSON_AddNumberToObject(run, "peak_rss_kb", measure_peak_rss_kb());
	if (!chk.ok)
		cell_fail(run, "count check: a dispatch was lost or run twice");
	return;
}

cJSON *
cell_run(const struct cell *c, const struct cell_window *win)
{
	cJSON *run = cJSON_CreateObject();
	struct cell_pin pin;
	struct disp_config cfg, iocfg;
	struct dispatcher *d;
	struct disp_stats st, iost;
	struct workload_opts wo;
	struct cell_peaks warm;
	struct watchdog wd;
	struct workload w;
	char err[256];

	cJSON_AddStringToObject(run, "status", "ok");
	if (pin_plan_init(&pin.plan, c->pin, err, sizeof(err)) != 0)
		return cell_fail(run, err);
	if (c->profile.kind == WORKLOAD_REQUEST && !(c->disp->flags & DISP_LOOPS))
		pin_plan_apart(&pin.plan);
	atomic_init(&pin.next, 0);
	cell_config(c, &pin, &cfg);
	if (c->disp->create(&d, &cfg) != 0)
		return cell_fail(run, "the dispatcher could not be created");
	if (cell_io_create(c, &pin, &iocfg, &wo.io) != 0)
		return cell_fail(run, "the I/O loop could not be created");
	if (c->payload_ns > 0)
		cJSON_AddNumberToObject(run, "payload_ns", c->payload_ns);
	wo.profile = c->profile;
	wo.payload_ns = c->payload_ns;
	wo.latency_every = c->latency_every;
	if (workload_start(&w, d, c->coroutines, &wo, &cfg) != 0)
		return cell_fail(run, "the workload could not be started");
	if (watchdog_start(&wd, &w, watchdog_stall_for(&c->profile,
	    c->stall_s)) != 0)
		return cell_fail(run, "the watchdog could not be started");
	if (!cell_sleep(win->warmup_s, &warm, &wd) ||
	    !cell_measure(run, c, &w, &pin, win, &wd)) {
		workload_abandon(&w);
		return cell_hung(run, &wd);
	}
	watchdog_stop(&wd);
	if (!workload_stop(&w, CELL_STOP_TIMEOUT_S))
		return cell_fail(run, "coroutines did not come back: lost tasks");
	disp_shutdown(d, &st);
	if (wo.io != NULL) {
		disp_shutdown(wo.io, &iost);
		st.ran += iost.ran;
	}
	cell_check(run, &w, &st);
	workload_fini(&w);
	pin_plan_fini(&pin.plan);
	return run;
}
