/*
 * cell.c - one measured run, in its own process (see runner.c).
 *
 * Warm-up first, so every worker has run and the pool has reached its
 * steady size; then the window, read at both ends; then the coroutines are
 * stopped and every dispatch is accounted for.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cell.h"
#include "count.h"
#include "counters.h"
#include "designs.h"
#include "floor.h"
#include "measure.h"
#include "pin.h"
#include "placement.h"
#include "probe.h"
#include "program.h"
#include "runfields.h"
#include "watchdog.h"
#include "workload.h"

/*
 * How long stopping a run may take in all: stopped coroutines get the
 * stall time to come back, the I/O loop's fence as long again, and the
 * shutdown of both designs CELL_SHUTDOWN_S. Past it the process ends.
 */
#define CELL_SHUTDOWN_S		10.0
#define CELL_GUARD_S(stall)	(2 * (stall) + CELL_SHUTDOWN_S)
/* Exit status of a run that could not be stopped (its JSON says why). */
#define CELL_EXIT_WEDGED	1
#define CELL_STRANDED_MAX	256
/* How often the window looks at the thread count. */
#define CELL_SAMPLE_NS		20000000L

struct cell_pin {
	struct pin_plan plan;
	struct placement place;
};

static void
cell_worker_start(void *arg, unsigned int index)
{
	struct cell_pin *p = arg;

	place_self(&p->place, PLACE_WORKER, index);
	return;
}

static void
cell_starter_start(void *arg, unsigned int index)
{
	struct cell_pin *p = arg;

	place_self(&p->place, PLACE_STARTER, index);
	return;
}

static void
cell_io_start(void *arg, unsigned int index)
{
	struct cell_pin *p = arg;

	place_self(&p->place, PLACE_IO, index);
	return;
}

static void
cell_view_start(void *arg, unsigned int index)
{
	struct cell_pin *p = arg;

	place_self(&p->place, PLACE_VIEW, index);
	return;
}

/* Sets a field of a run, replacing the one it had. */
void
cell_set(cJSON *run, const char *name, cJSON *v)
{

	if (cJSON_GetObjectItem(run, name) != NULL)
		cJSON_ReplaceItemInObject(run, name, v);
	else
		cJSON_AddItemToObject(run, name, v);
	return;
}

cJSON *
cell_fail(cJSON *run, const char *why)
{

	cell_set(run, RF(status), cJSON_CreateString("failed"));
	cell_set(run, RF(error), cJSON_CreateString(why));
	cell_set(run, RF(count_ok), cJSON_CreateFalse());
	return run;
}

/*
 * A window in which nothing was dispatched measured no handoff: its cost
 * would be the CPU over one dispatch that never happened (3494 us on a
 * machine whose load average was 9.6 on 2 CPUs). Kept, with its figures,
 * as a run of its own status, which no statistic takes.
 */
void
cell_stalled(cJSON *run, double seconds)
{
	char why[128];

	snprintf(why, sizeof(why), "no dispatch in the %.2g s window, while "
	    "other processes kept %.2f CPUs busy", seconds,
	    cJSON_GetNumberValue(cJSON_GetObjectItem(run, RF(host_other_cpus))));
	cell_set(run, RF(status), cJSON_CreateString("stalled"));
	cell_set(run, RF(error), cJSON_CreateString(why));
	return;
}

/* What the watchdog saw; the window's figures, if any, are dropped. */
static cJSON *
cell_hung(cJSON *run, struct watchdog *wd)
{
	cJSON *hung = cJSON_CreateObject();
	char why[96];

	cJSON_Delete(run);
	cJSON_AddStringToObject(hung, RF(status), "hung");
	snprintf(why, sizeof(why), "no resumption for %.1f s",
	    wd->stall_s);
	cJSON_AddStringToObject(hung, RF(error), why);
	cJSON_AddBoolToObject(hung, RF(count_ok), 0);
	cJSON_AddItemToObject(hung, RF(watchdog), wd->report);
	wd->report = NULL;
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
		cell_peak(&p->threads, measure_status(0, "Threads"));
		cell_peak(&p->rss_anon_kb, measure_status(0, "RssAnon"));
		nanosleep(&nap, NULL);
	} while (measure_now() < end && !watchdog_fired(wd));
	return !watchdog_fired(wd);
}

/* Coroutines with no progress in the window, and the spread of the rest. */
void
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
	cJSON_AddNumberToObject(run, RF(starved), starved);
	cJSON_AddNumberToObject(run, RF(min_share), mean > 0 ? lo / mean : 0);
	cJSON_AddNumberToObject(run, RF(max_share), mean > 0 ? hi / mean : 0);
	return;
}

/*
 * What else the machine did over the window (measure_host_between) and
 * the load average at its end; a window beside more than
 * MEASURE_HOST_BUSY of other load is marked host_busy: its figure is not
 * this design's alone.
 */
static void
cell_host(cJSON *run, const struct measure_sample *a,
    const struct measure_sample *b)
{
	struct measure_host h;
	double load[1];

	measure_host_between(a, b, &h);
	cJSON_AddNumberToObject(run, RF(host_other_cpus), h.other_cpus);
	cJSON_AddNumberToObject(run, RF(host_steal_pct), h.steal_share * 100);
	if (getloadavg(load, 1) == 1)
		cJSON_AddNumberToObject(run, RF(loadavg_1m), load[0]);
	cJSON_AddBoolToObject(run, RF(host_busy), measure_host_busy(&h));
	return;
}

/*
 * dispatches is every real dispatch, a split's hops included; ops count
 * the handler's steps alone (workload_ops).
 */
void
cell_figures(cJSON *run, const struct measure_sample *a,
    const struct measure_sample *b, uint64_t dispatches, uint64_t hops)
{
	double wall = b->wall_s - a->wall_s, cpu = b->cpu_s - a->cpu_s;
	double ops = workload_ops(dispatches, hops);
	double clk = b->cpu_clock_s - a->cpu_clock_s;
	double sched = b->cpu_sched_s - a->cpu_sched_s;
	double disp = dispatches > 0 ? (double)dispatches : 1;
	long vcs = b->nvcsw - a->nvcsw, ivcs = b->nivcsw - a->nivcsw;

	cJSON_AddNumberToObject(run, RF(wall_s), wall);
	cJSON_AddNumberToObject(run, RF(cpu_s), cpu);
	cJSON_AddNumberToObject(run, RF(cpu_clock_s), clk);
	cJSON_AddNumberToObject(run, RF(cpu_schedstat_s), sched);
	/* The headline (getrusage) against the scheduler's own counter. */
	cJSON_AddNumberToObject(run, RF(cpu_schedstat_diff_pct),
	    cpu > 0 ? (sched - cpu) / cpu * 100 : 0);
	cJSON_AddNumberToObject(run, RF(dispatches), (double)dispatches);
	cJSON_AddNumberToObject(run, RF(ops_per_s), ops / wall);
	cJSON_AddNumberToObject(run, RF(cpu_us_per_op),
	    cpu * 1e6 / (ops > 0 ? ops : 1.0 / WORKLOAD_RESUMES_PER_OP));
	cJSON_AddNumberToObject(run, RF(cpu_us_per_dispatch), cpu * 1e6 / disp);
	cJSON_AddNumberToObject(run, RF(ctx_switches_per_dispatch),
	    (double)(vcs + ivcs) / disp);
	cJSON_AddNumberToObject(run, RF(vol_ctx_switches_per_dispatch),
	    (double)vcs / disp);
	cJSON_AddNumberToObject(run, RF(invol_ctx_switches_per_dispatch),
	    (double)ivcs / disp);
	cJSON_AddNumberToObject(run, RF(cpus_busy), cpu / wall);
	cell_host(run, a, b);
	return;
}

/* The design's threads placed as workers; the starter's its own way. */
static void
cell_config(const struct cell *c, struct cell_pin *pin,
    struct db_disp_config *cfg, struct db_disp_config *starter)
{

	*cfg = c->cfg;
	cfg->knobs = &c->knobs;
	cfg->thread_start = cell_worker_start;
	cfg->thread_arg = pin;
	*starter = *cfg;
	starter->thread_start = cell_starter_start;
	return;
}

/*
 * A split's view: Dispatchers.IO.limitedParallelism(K), the `limited`
 * design (kotlinx 1.11 LimitedDispatcher.kt) over a CoroutineScheduler of
 * its own at its default core size, its queue the first (lfseg, as
 * LockFreeTaskQueue), the cell's capacity; the scheduler retires no
 * thread, so no keep-alive applies. Its thread i shares worker i's PU:
 * Dispatchers.IO shares Default's CPUs.
 */
static int
cell_view_create(const struct cell *c, struct cell_pin *pin,
    struct db_disp_config *cfg, struct db_dispatcher **view)
{
	const struct db_disp_ops *limited = disp_find("limited");

	*cfg = (struct db_disp_config){ .workers = c->split,
	    .queue = queue_at(0), .queue_capacity = c->cfg.queue_capacity,
	    .thread_start = cell_view_start, .thread_arg = pin };
	return limited != NULL ? limited->create(view, cfg) : -ENOENT;
}

/*
 * A request's I/O loop, on a PU of its own where the plan has one to
 * spare: an event loop of one thread, the design of the I/O side whatever
 * the design under test. A design made of event loops is its own I/O (*io
 * NULL). A split's view takes the same place: where the I/O runs.
 */
static int
cell_io_create(const struct cell *c, struct cell_pin *pin,
    struct db_disp_config *cfg, struct db_dispatcher **io)
{
	const struct db_disp_ops *loops = disp_with(DB_DISP_LOOPS);

	*io = NULL;
	if (c->split > 0)
		return cell_view_create(c, pin, cfg, io);
	if (!c->profile.kind->round_trip || (c->disp->flags & DB_DISP_LOOPS))
		return 0;
	memset(cfg, 0, sizeof(*cfg));
	cfg->workers = 1;
	cfg->thread_start = cell_io_start;
	cfg->thread_arg = pin;
	return loops != NULL ? loops->create(io, cfg) : -ENOENT;
}

/* The sampled dispatch latencies of the window, in microseconds. */
static void
cell_latency(cJSON *run, const struct hist_snap *h)
{
	static const struct { const char *name; double q; } qs[] = {
		{ RF(latency_p50_us), 0.5 }, { RF(latency_p90_us), 0.9 },
		{ RF(latency_p99_us), 0.99 }, { RF(latency_p999_us), 0.999 },
		{ RF(latency_max_us), 1.0 } };
	size_t i;

	cJSON_AddNumberToObject(run, RF(latency_samples), (double)h->n);
	if (h->n == 0)
		return;
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		cJSON_AddNumberToObject(run, qs[i].name,
		    (double)hist_quantile(h, qs[i].q) * 1e-3);
	return;
}

/* Both ends of the window read; the latency window is their difference. */
struct cell_end {
	struct measure_sample m;
	uint64_t dispatches;
	uint64_t blocked;
	uint64_t hops;
	unsigned int blocking_peak;	/* since the other end */
	uint64_t *per;
};

static void
cell_end_read(struct cell_end *e, struct workload *w, struct hist_snap *h,
    int sign)
{

	e->dispatches = workload_count(w, e->per);
	e->blocked = workload_blocked(w);
	e->hops = workload_hops(w);
	e->blocking_peak = workload_blocking_peak(w);
	workload_latency(w, h, sign);
	measure_sample(0, &e->m);
	return;
}

/*
 * The window itself: both ends read, fairness and placement recorded.
 * False if the run hung in it.
 */
static bool
cell_measure(cJSON *run, const struct cell *c, struct workload *w,
    struct cell_pin *pin, struct counters *k,
    const struct cell_window *win, struct watchdog *wd)
{
	char why[256];
	struct hist_snap *h = calloc(1, sizeof(*h));
	struct cell_end a = { .per = calloc(w->n, sizeof(uint64_t)) };
	struct cell_end b = { .per = calloc(w->n, sizeof(uint64_t)) };
	struct workload_window win_figures;
	struct cell_peaks peak;

	if (h == NULL || a.per == NULL || b.per == NULL)
		abort();
	counters_start(k);
	cell_end_read(&a, w, h, -1);
	if (!cell_sleep(win->time_s, &peak, wd)) {
		free(a.per);
		free(b.per);
		free(h);
		return false;
	}
	cell_end_read(&b, w, h, 1);
	counters_stop(k);
	cell_figures(run, &a.m, &b.m, b.dispatches - a.dispatches,
	    b.hops - a.hops);
	if (b.dispatches == a.dispatches)
		cell_stalled(run, win->time_s);
	counters_json(k, run, (double)(b.dispatches - a.dispatches));
	win_figures = (struct workload_window){ .wall_s = b.m.wall_s -
	    a.m.wall_s, .cpu_s = b.m.cpu_s - a.m.cpu_s, .dispatches =
	    b.dispatches - a.dispatches, .blocked = b.blocked - a.blocked,
	    .hops = b.hops - a.hops, .blocking_peak = b.blocking_peak,
	    .split = c->split > 0, .threads = c->split > 0 ? c->split :
	    c->disp->flags & DB_DISP_NO_WIDTH ? 1 : c->cfg.workers,
	    .coroutines = c->coroutines, .cpus = measure_cpus() };
	workload_figures(&c->profile, &win_figures, run);
	cell_latency(run, h);
	cell_fairness(run, a.per, b.per, w->n);
	cJSON_AddNumberToObject(run, RF(threads), measure_status(0, "Threads"));
	cJSON_AddNumberToObject(run, RF(threads_peak), peak.threads);
	cJSON_AddNumberToObject(run, RF(rss_kb), measure_status(0, "VmRSS"));
	cJSON_AddNumberToObject(run, RF(rss_anon_kb), measure_status(0,
	    "RssAnon"));
	cJSON_AddNumberToObject(run, RF(rss_anon_peak_kb), peak.rss_anon_kb);
	cJSON_AddItemToObject(run, RF(bindings), pin_readback(&pin->plan, 0));
	if (!place_check(&pin->place, run, why, sizeof(why)))
		cell_fail(run, why);
	free(a.per);
	free(b.per);
	free(h);
	return true;
}

/* The counters a design keeps, each per task it ran over the whole run. */
static void
cell_counters(cJSON *run, unsigned int counts, const struct db_disp_stats *st)
{
	char name[64];
	int i;

	for (i = 0; i < DB_DISP_NCOUNTERS; i++) {
		if (!(counts & (1u << i)))
			continue;
		snprintf(name, sizeof(name), "%s_per_dispatch",
		    disp_counter_names[i]);
		cJSON_AddNumberToObject(run, name, st->ran > 0 ?
		    (double)st->count[i] / (double)st->ran : 0);
	}
	return;
}

static void
cell_check(cJSON *run, struct workload *w, const struct db_disp_stats *st,
    unsigned int counts)
{
	struct workload_check chk;

	workload_check(w, st->ran, &chk);
	cJSON_AddBoolToObject(run, RF(count_ok), chk.ok);
	cJSON_AddNumberToObject(run, RF(resumptions_total), (double)chk.runs);
	cJSON_AddNumberToObject(run, RF(dispatcher_ran), (double)st->ran);
	cJSON_AddNumberToObject(run, RF(out_of_turn), (double)chk.out_of_turn);
	/* Two copies of a coroutine raced on its counters: no figure holds. */
	if (chk.figures_exact) {
		cJSON_AddNumberToObject(run, RF(lost), (double)chk.lost);
		cJSON_AddNumberToObject(run, RF(doubled), (double)chk.doubled);
	} else {
		cJSON_AddNullToObject(run, RF(lost));
		cJSON_AddNullToObject(run, RF(doubled));
		cJSON_AddStringToObject(run, RF(count_figures), "unreliable: a "
		    "dispatch ran twice, so lost and doubled are unknown");
	}
	cJSON_AddNumberToObject(run, RF(spilled), (double)st->spilled);
	cJSON_AddNumberToObject(run, RF(threads_started), st->threads_started);
	/* Over the whole run, warm-up included: a pool's high-water mark. */
	cJSON_AddNumberToObject(run, RF(threads_high_water), st->threads_peak);
	cJSON_AddNumberToObject(run, RF(peak_rss_kb), measure_peak_rss_kb());
	cell_counters(run, counts, st);
	if (!chk.figures_exact)
		cell_fail(run, "count check: a resumption came out of turn (a "
		    "dispatch ran twice)");
	else if (!chk.ok)
		cell_fail(run, "count check: a dispatch was lost or run twice");
	return;
}

/*
 * Coroutines that did not come back when asked to stop (before: their
 * indices), and which of them the design's shutdown then ran: those were
 * stranded in it, the mark of a lost wake-up; the others were lost.
 */
static void
cell_stranded(cJSON *run, cJSON *report, struct workload *w,
    const unsigned int *before, unsigned int n, double waited_s)
{
	unsigned int i, lost = workload_pending(w, NULL, 0);
	char why[192];
	cJSON *arr;

	if (n == 0)
		snprintf(why, sizeof(why), "the I/O loop did not leave its last "
		    "dispatch within %.1f s of the stop", waited_s);
	else
		snprintf(why, sizeof(why), "%u coroutine%s did not come back "
		    "within %.1f s of the stop: %u ran only when the design was "
		    "shut down (stranded), %u never ran (lost)", n,
		    n == 1 ? "" : "s", waited_s, n - lost, lost);
	if (strcmp(cJSON_GetObjectItem(run, RF(status))->valuestring, "ok") == 0)
		cell_fail(run, why);
	else
		cJSON_AddStringToObject(run, RF(error_at_stop), why);
	arr = cJSON_AddArrayToObject(run, RF(stranded_coroutines));
	for (i = 0; i < n && i < CELL_STRANDED_MAX; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateNumber(before[i]));
	cJSON_AddItemToObject(run, RF(watchdog_at_stop), report);
	return;
}

double
cell_deadline(const struct cell *c, const struct cell_window *win)
{
	double stall = watchdog_stall_for(&c->profile, c->stall_s);

	if (c->disp->flags & DB_DISP_PROGRAM)
		return program_deadline(c, win);
	if (c->count > 0)
		return COUNT_WAIT_S + CELL_GUARD_S(stall);
	return win->warmup_s + win->time_s + stall + CELL_GUARD_S(stall);
}

void
cell_print(FILE *out, const cJSON *run)
{
	char *text = cJSON_PrintUnformatted(run);

	fprintf(out, "%s\n", text);
	fflush(out);
	free(text);
	return;
}

/* What the teardown needs, and what the watchdog reads if it cannot end. */
struct cell_stop {
	cJSON *run;
	struct workload *w;
	struct db_dispatcher *d;
	struct db_dispatcher *io;
	double stall_s;
};

/*
 * A thread of the run would not stop: the design, the workload and the
 * frame of cell_run stay in use, so nothing may return into a caller that
 * would reuse them. The run is printed as it stands and the process ends.
 */
static void
cell_wedged(void *arg)
{
	struct cell_stop *x = arg;
	cJSON *run = x->run;
	char why[160];

	snprintf(why, sizeof(why), "the run could not be stopped: a thread of "
	    "it did not return within %.0f s; the process ends here",
	    CELL_GUARD_S(x->stall_s));
	cell_set(run, RF(status), cJSON_CreateString("hung"));
	cell_set(run, RF(error), cJSON_CreateString(why));
	cell_set(run, RF(count_ok), cJSON_CreateFalse());
	cell_set(run, RF(watchdog_at_stop), watchdog_report(x->w,
	    CELL_GUARD_S(x->stall_s)));
	cell_print(stdout, run);
	_exit(CELL_EXIT_WEDGED);
}

/*
 * Creates c's dispatcher and the I/O side its workload needs; NULL, or
 * why the run fails (nothing left created then).
 */
static const char *
cell_create(const struct cell *c, struct cell_pin *pin, struct cell_stop *x,
    struct db_disp_config *startcfg)
{
	struct db_disp_config cfg, iocfg;

	cell_config(c, pin, &cfg, startcfg);
	if (c->disp->create(&x->d, &cfg) != 0)
		return "the dispatcher could not be created";
	if (cell_io_create(c, pin, &iocfg, &x->io) != 0) {
		db_shutdown(x->d, NULL);
		return "the I/O loop could not be created";
	}
	return NULL;
}

/*
 * The plan of c's threads: for a request on a design that is not its own
 * I/O, the workers kept apart from the loop's PU.
 */
static int
cell_plan(const struct cell *c, struct cell_pin *pin, char *err, size_t len)
{

	if (pin_plan_init(&pin->plan, c->pin, err, len) != 0)
		return -1;
	if (c->profile.kind->round_trip && !(c->disp->flags & DB_DISP_LOOPS))
		pin_plan_apart(&pin->plan);
	place_init(&pin->place, &pin->plan);
	return 0;
}

/*
 * Stops the coroutines, then shuts down the design and the I/O loop, all
 * under the watchdog's guard; the count check follows if the run was
 * measured. Every thread the run started is joined when this returns.
 */
static void
cell_teardown(struct cell_stop *x, struct watchdog *wd, bool measured)
{
	unsigned int idx[CELL_STRANDED_MAX], n = 0, counts = x->d->ops->counts;
	struct db_disp_stats st, iost;
	cJSON *report = NULL;

	watchdog_guard(wd, CELL_GUARD_S(x->stall_s), cell_wedged, x);
	if (!workload_stop(x->w, x->stall_s)) {
		n = workload_pending(x->w, idx, CELL_STRANDED_MAX);
		report = watchdog_report(x->w, x->stall_s);
	}
	db_shutdown(x->d, &st);
	if (x->io != NULL) {
		db_shutdown(x->io, &iost);
		st.ran += iost.ran;
	}
	watchdog_stop(wd);
	if (measured)
		cell_check(x->run, x->w, &st, counts | st.counted);
	if (report != NULL)
		cell_stranded(x->run, report, x->w, idx, n, x->stall_s);
	workload_fini(x->w);
	return;
}

/*
 * A counted window (count.h), which no watchdog watches: its looks would
 * be counted. One that does not end is a hung run, with what can be seen
 * of it.
 */
static bool
cell_counted(struct cell_stop *x, struct count *k, struct cell_pin *pin)
{
	char why[256];
	cJSON *run = x->run;
	int end = count_window(k, x->w, run, why, sizeof(why));

	if (end == COUNT_FAILED)
		cell_fail(run, why);
	if (end == COUNT_LATE) {
		cJSON_Delete(run);
		x->run = cJSON_CreateObject();
		cJSON_AddStringToObject(x->run, RF(status), "hung");
		snprintf(why, sizeof(why), "the counted window did not end "
		    "within %.0f s", COUNT_WAIT_S);
		cJSON_AddStringToObject(x->run, RF(error), why);
		cJSON_AddBoolToObject(x->run, RF(count_ok), 0);
		cJSON_AddItemToObject(x->run, RF(watchdog),
		    watchdog_report(x->w, COUNT_WAIT_S));
		return false;
	}
	cJSON_AddNumberToObject(run, RF(threads), measure_status(0, "Threads"));
	cJSON_AddItemToObject(run, RF(bindings), pin_readback(&pin->plan, 0));
	if (!place_check(&pin->place, run, why, sizeof(why)))
		cell_fail(run, why);
	return true;
}

static cJSON *
cell_run_once(const struct cell *c, const struct cell_window *win)
{
	struct cell_stop x = { .run = cJSON_CreateObject(),
	    .stall_s = watchdog_stall_for(&c->profile, c->stall_s) };
	struct cell_pin pin;
	struct counters k = { .n = 0 };
	struct count cnt = { .counter = COUNT_AUTO };
	struct db_disp_config startcfg;
	struct workload_opts wo;
	const char *why;
	struct cell_peaks warm;
	struct watchdog wd;
	struct workload w;
	bool measured;
	char err[256];

	if (c->disp->flags & DB_DISP_PROGRAM) {
		cJSON_Delete(x.run);
		return program_run(c, win);
	}
	cJSON_AddStringToObject(x.run, RF(status), "ok");
	if (c->count == 0)
		cJSON_AddNumberToObject(x.run, RF(bare_loop_us_per_dispatch),
		    floor_bare_us(CELL_FLOOR_S));
	if (cell_plan(c, &pin, err, sizeof(err)) != 0)
		return cell_fail(x.run, err);
	if (c->count > 0 && count_open(&cnt, c, err, sizeof(err)) != 0) {
		cell_fail(x.run, err);
		goto out_pin;
	}
	/* Before the first thread, which inherits them. */
	if (counters_init(&k, c->counters != NULL ? c->counters : "none",
	    err, sizeof(err)) != 0) {
		cell_fail(x.run, err);
		goto out_pin;
	}
	counters_open(&k);
	if ((why = cell_create(c, &pin, &x, &startcfg)) != NULL) {
		cell_fail(x.run, why);
		goto out_pin;
	}
	if (c->payload_ns > 0)
		cJSON_AddNumberToObject(x.run, RF(payload_ns), c->payload_ns);
	wo = (struct workload_opts){ .profile = c->profile, .spawn = c->spawn,
	    .payload_ns = c->payload_ns, .latency_every = c->latency_every,
	    .io = x.io, .hold_every = c->count, .held = count_held,
	    .held_arg = &cnt };
	if (workload_start(&w, x.d, c->coroutines, &wo, &startcfg) != 0) {
		cell_fail(x.run, "the workload could not be started");
		goto out_io;
	}
	x.w = &w;
	measured = c->count == 0 || cell_counted(&x, &cnt, &pin);
	if (watchdog_start(&wd, &w, x.stall_s) != 0) {
		cell_fail(x.run, "the watchdog could not be started");
		goto out_workload;
	}
	if (c->count == 0) {
		measured = cell_sleep(win->warmup_s, &warm, &wd) &&
		    cell_measure(x.run, c, &w, &pin, &k, win, &wd);
		if (!measured)
			x.run = cell_hung(x.run, &wd);
	}
	cell_teardown(&x, &wd, measured);
	count_close(&cnt);
	counters_close(&k);
	place_fini(&pin.place);
	pin_plan_fini(&pin.plan);
	return x.run;
out_workload:
	(void)workload_stop(&w, x.stall_s);
	workload_fini(&w);
out_io:
	if (x.io != NULL)
		db_shutdown(x.io, NULL);
	db_shutdown(x.d, NULL);
out_pin:
	count_close(&cnt);
	counters_close(&k);
	place_fini(&pin.place);
	pin_plan_fini(&pin.plan);
	return x.run;
}

/*
 * The run between two line probes (probe_line): the placement of the
 * machine's CPUs it began and ended on, each run's own, since a host may
 * move a guest's vCPUs between two sittings or two runs. A counted window
 * needs none: what it counts does not move with them.
 */
cJSON *
cell_run(const struct cell *c, const struct cell_window *win)
{
	double before = c->count == 0 ? probe_line() : NAN, after;
	cJSON *run = cell_run_once(c, win);

	if (!isfinite(before) || !isfinite(after = probe_line()))
		return run;
	cJSON_AddNumberToObject(run, RF(line_round_trip_ns_before),
	    round(before * 10) / 10);
	cJSON_AddNumberToObject(run, RF(line_round_trip_ns_after),
	    round(after * 10) / 10);
	return run;
}
