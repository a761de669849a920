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
	cJSON_AddNumberToObject(o, "capacity", c->capacity);
	cJSON_AddNumberToObject(o, "payload_ns", c->payload_ns);
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

/* Sleeps through the window, keeping the most threads seen alive. */
static long
cell_window_sleep(double seconds)
{
	struct timespec nap = { 0, CELL_SAMPLE_NS };
	double end = measure_now() + seconds;
	long threads, peak = 0;

	do {
		threads = measure_status("Threads");
		if (threads > peak)
			peak = threads;
		nanosleep(&nap, NULL);
	} while (measure_now() < end);
	return peak;
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
	cfg->thread_start = cell_thread_start;
	cfg->thread_arg = pin;
	return;
}

/* The window itself: both ends read, fairness and placement recorded. */
static void
cell_measure(cJSON *run, struct workload *w, const struct cell_pin *pin,
    const struct cell_window *win)
{
	uint64_t *a = calloc(w->n, sizeof(*a)), *b = calloc(w->n, sizeof(*b));
	struct measure_sample sa, sb;
	uint64_t da, db;
	long peak;

	if (a == NULL || b == NULL)
		abort();
	da = workload_count(w, a);
	measure_sample(&sa);
	peak = cell_window_sleep(win->time_s);
	measure_sample(&sb);
	db = workload_count(w, b);
	cell_figures(run, &sa, &sb, db - da);
	cell_fairness(run, a, b, w->n);
	cJSON_AddNumberToObject(run, "threads", measure_status("Threads"));
	cJSON_AddNumberToObject(run, "threads_peak", peak);
	cJSON_AddNumberToObject(run, "rss_kb", measure_status("VmRSS"));
	cJSON_AddNumberToObject(run, "rss_anon_kb", measure_status("RssAnon"));
	cJSON_AddItemToObject(run, "bindings", pin_readback(&pin->plan));
	free(a);
	free(b);
	return;
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
	struct disp_config cfg;
	struct dispatcher *d;
	struct disp_stats st;
	struct workload w;
	struct timespec warm;
	char err[256];

	cJSON_AddStringToObject(run, "status", "ok");
	if (pin_plan_init(&pin.plan, c->pin, err, sizeof(err)) != 0)
		return cell_fail(run, err);
	atomic_init(&pin.next, 0);
	cell_config(c, &pin, &cfg);
	if (c->disp->create(&d, &cfg) != 0)
		return cell_fail(run, "the dispatcher could not be created");
	if (c->payload_ns > 0)
		cJSON_AddNumberToObject(run, "payload_ns", c->payload_ns);
	if (workload_start(&w, d, c->coroutines, c->payload_ns > 0 ?
	    workload_calibrate(c->payload_ns) : 0, &cfg) != 0)
		return cell_fail(run, "the workload could not be started");
	warm.tv_sec = (time_t)win->warmup_s;
	warm.tv_nsec = (long)((win->warmup_s - (double)warm.tv_sec) * 1e9);
	nanosleep(&warm, NULL);
	cell_measure(run, &w, &pin, win);
	if (!workload_stop(&w, CELL_STOP_TIMEOUT_S))
		return cell_fail(run, "coroutines did not come back: lost tasks");
	disp_shutdown(d, &st);
	cell_check(run, &w, &st);
	workload_fini(&w);
	pin_plan_fini(&pin.plan);
	return run;
}
