/*
 * export.c - the formats of a results file (see export.h).
 *
 * Every format but gbench has one row per cell: its parameters, the runs
 * that counted, and the median (and for the headline the spread) of each
 * figure. gbench follows google-benchmark's JSON reporter (1.7): one
 * "iteration" entry per run, named dispatcher/queue/workers:N/
 * coroutines:C/workload, with times in ns per dispatch, then the
 * "aggregate" entries mean, median, stddev and cv over the runs.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "beside.h"
#include "export.h"
#include "params.h"
#include "results.h"
#include "runfields.h"
#include "stats.h"
#include "table.h"

/*
 * A cell's row: who it is, how its runs ended, and the median of each
 * figure (the headline with its spread), under the stable names that CSV
 * and JSON carry; people's formats read the labelled columns below.
 */
static const struct {
	const char *name;		/* in the row; NULL: the field's */
	const char *field;		/* of the summary */
	const char *stat;
} export_figures[] = {
#define EXPORT_MEDIAN(f)	{ NULL, RF(f), "median" }
	EXPORT_MEDIAN(cpu_us_per_dispatch),
	{ "cpu_us_per_dispatch_min", RF(cpu_us_per_dispatch), "min" },
	{ "cpu_us_per_dispatch_max", RF(cpu_us_per_dispatch), "max" },
	{ "cpu_us_per_dispatch_cv", RF(cpu_us_per_dispatch), "cv" },
	{ "cpu_us_per_dispatch_near", RF(cpu_us_per_dispatch), "near" },
	{ "cpu_us_per_dispatch_far", RF(cpu_us_per_dispatch), "far" },
	{ "cpu_us_per_dispatch_below", RF(cpu_us_per_dispatch), "below" },
	{ "cpu_us_per_dispatch_above", RF(cpu_us_per_dispatch), "above" },
	EXPORT_MEDIAN(ops_per_s),
	EXPORT_MEDIAN(ctx_switches_per_dispatch),
	EXPORT_MEDIAN(threads_peak),
	EXPORT_MEDIAN(latency_p99_us),
	EXPORT_MEDIAN(rss_anon_peak_kb),
	EXPORT_MEDIAN(starved),
	EXPORT_MEDIAN(min_share),
	EXPORT_MEDIAN(max_share),
	EXPORT_MEDIAN(cpu_us_per_round_trip),
	EXPORT_MEDIAN(round_trips_per_s),
	EXPORT_MEDIAN(bare_loop_us_per_dispatch),
	EXPORT_MEDIAN(instructions_per_dispatch),
	{ "instructions_per_dispatch_min", RF(instructions_per_dispatch),
	    "min" },
	{ "instructions_per_dispatch_max", RF(instructions_per_dispatch),
	    "max" },
	EXPORT_MEDIAN(threads),
#undef EXPORT_MEDIAN
};
#define EXPORT_NFIGURES	(sizeof(export_figures) / sizeof(export_figures[0]))

/* Figure i's column: the field's own name for its median. */
static const char *
export_figure(size_t i)
{

	return export_figures[i].name != NULL ? export_figures[i].name :
	    export_figures[i].field;
}

/*
 * Programs' columns (CSV, JSON): who the cell is and how its runs ended,
 * then every figure of export_figures and every counter's median
 * (params_counters) under its own name, then the real library: built
 * from those lists, never listed twice.
 */
static const struct table_col export_ids[] = {
	{ "dispatcher", NULL }, { "queue", NULL }, { "workers", NULL },
	{ "coroutines", NULL }, { "workload", NULL }, { "runs_ok", NULL },
	{ "runs", NULL }, { "runs_starving", NULL },
};
#define EXPORT_NIDS	(sizeof(export_ids) / sizeof(export_ids[0]))

static struct table
export_program(void)
{
	static struct table_col *cols;
	size_t n = 0, i;

	if (cols == NULL && (cols = calloc(EXPORT_NIDS + EXPORT_NFIGURES +
	    nparams_counters + 1, sizeof(*cols))) == NULL)
		abort();
	for (i = 0; i < EXPORT_NIDS; i++)
		cols[n++] = export_ids[i];
	for (i = 0; i < EXPORT_NFIGURES; i++)
		cols[n++] = (struct table_col){ export_figure(i), NULL };
	for (i = 0; i < nparams_counters; i++)
		cols[n++] = (struct table_col){ params_counters[i], NULL };
	cols[n++] = (struct table_col){ "real", NULL };
	return (struct table){ .cols = cols, .ncols = n };
}

static const struct table_col export_people[] = {
	{ "dispatcher", "design" }, { "queue", "queue" },
	{ "workers", "workers" }, { "coroutines", "coroutines" },
	{ "workload", "workload" },
	{ RF(cpu_us_per_dispatch), "CPU µs/dispatch" },
	{ "cpu_range", "min–max" }, { "cpu_us_per_dispatch_cv", "cv" },
	{ RF(ops_per_s), "ops/s" },
	{ RF(ctx_switches_per_dispatch), "switches/dispatch" },
	{ RF(threads_peak), "threads" }, { RF(latency_p99_us), "p99 µs" },
	{ "rss_anon_mb", "anon MB" }, { "starving_runs", "starved runs" },
	{ RF(min_share), "slowest/mean" }, { "ok_runs", "ok runs" },
	{ "real", "real library" }, { "note", "" },
};

/* A counted sweep's: its windows had no time, only instructions. */
static const struct table_col export_counted[] = {
	{ "dispatcher", "design" }, { "queue", "queue" },
	{ "workers", "workers" }, { "coroutines", "coroutines" },
	{ "workload", "workload" },
	{ "instructions_shown", "instructions/dispatch" },
	{ "instructions_range", "min–max" }, { "exact", "exact" },
	{ RF(threads), "threads" }, { "ok_runs", "ok runs" },
	{ "real", "real library" }, { "note", "" },
};

#define EXPORT_TABLE(cols, id)	\
	{ (id), (cols), sizeof(cols) / sizeof((cols)[0]) }

static const char *
export_width(const cJSON *cell, char *buf, size_t len)
{

	snprintf(buf, len, results_num(cell, "workers") == 0 ? "inf" : "%.0f",
	    results_num(cell, "workers"));
	return buf;
}

/*
 * A figure of the summary: one of its statistics, the median of the runs
 * on one placement of the CPUs ("near", "far"; NAN: one placement), or of
 * one of two groups of runs ("below", "above"; NAN: one group).
 */
static double
export_stat(const cJSON *cell, const char *field, const char *stat)
{
	struct results_groups g;
	const cJSON *pl;
	bool above = strcmp(stat, "above") == 0;

	if (above || strcmp(stat, "below") == 0)
		return results_groups(cell, field, &g) ? g.median[above] : NAN;
	if (strcmp(stat, "near") != 0 && strcmp(stat, "far") != 0)
		return results_stat(cell, field, stat);
	pl = results_obj(results_obj(results_obj(cell, "summary"), field),
	    "placement");
	return results_num(results_obj(pl, stat), "median");
}

static void
export_number(cJSON *row, const char *name, double v)
{

	if (isfinite(v))
		cJSON_AddNumberToObject(row, name, v);
	else
		cJSON_AddNullToObject(row, name);
	return;
}

/*
 * A counted cell's range, and whether its runs agree to the instruction:
 * where they do not, the path depends on scheduling, and a verdict on it
 * is a timed one's.
 */
static void
export_counts(cJSON *row, const cJSON *cell)
{
	double lo = results_stat(cell, RF(instructions_per_dispatch), "min");
	double hi = results_stat(cell, RF(instructions_per_dispatch), "max");
	char buf[96];

	if (!isfinite(lo))
		return;
	/* Two decimals: a change of one instruction in 300 shows. */
	snprintf(buf, sizeof(buf), "%.2f", results_stat(cell,
	    RF(instructions_per_dispatch), "median"));
	cJSON_AddStringToObject(row, "instructions_shown", buf);
	snprintf(buf, sizeof(buf), "%.2f–%.2f", lo, hi);
	cJSON_AddStringToObject(row, "instructions_range", buf);
	cJSON_AddStringToObject(row, "exact", results_num(results_obj(cell,
	    "summary"), "runs_ok") < 2 ? "?" : lo == hi ? "yes" : "no");
	return;
}

/*
 * A cell's note: its runs on two placements of the CPUs, each with its
 * figure ("two placements of the CPUs: 300 ns in 3 runs, 1.2 µs in 2, 1
 * moved"), else its runs in two groups, each with its figure ("runs in
 * two groups: 50 ns in 3 runs, 900 ns in 3"); "" for neither.
 */
static void
export_note(cJSON *row, const cJSON *cell, const cJSON *fig)
{
	struct results_groups g;
	const cJSON *pl = results_placed(fig);
	const cJSON *near = results_obj(pl, "near"), *far = results_obj(pl,
	    "far");
	char buf[160], a[32], b[32];

	buf[0] = '\0';
	if (pl != NULL)
		snprintf(buf, sizeof(buf), "two placements of the CPUs: %s in "
		    "%.0f runs, %s in %.0f, %.0f moved", table_scaled(
		    results_num(near, "median"), "µs", a, sizeof(a)),
		    results_num(near, "runs"), table_scaled(results_num(far,
		    "median"), "µs", b, sizeof(b)), results_num(far, "runs"),
		    results_num(pl, "moved"));
	else if (results_groups(cell, RF(cpu_us_per_dispatch), &g))
		snprintf(buf, sizeof(buf), "runs in two groups: %s in %u runs, "
		    "%s in %u", table_scaled(g.median[0], "µs", a, sizeof(a)),
		    g.runs[0], table_scaled(g.median[1], "µs", b, sizeof(b)),
		    g.runs[1]);
	cJSON_AddStringToObject(row, "note", buf);
	return;
}

/* One row per cell; a figure no run has is null; real: "" for a model. */
static cJSON *
export_row(const cJSON *doc, const cJSON *cell)
{
	const char *real = beside_real(doc, cell);
	const cJSON *s = results_obj(cell, "summary");
	cJSON *row = cJSON_CreateObject();
	char buf[96], a[32], b[32];
	size_t i;

	if (results_str(cell, "machine", NULL) != NULL)
		cJSON_AddStringToObject(row, "machine", results_str(cell,
		    "machine", ""));
	cJSON_AddStringToObject(row, "dispatcher", params_design(cell, buf,
	    sizeof(buf)));
	cJSON_AddStringToObject(row, "queue", results_str(cell, "queue", "?"));
	cJSON_AddStringToObject(row, "real", real != NULL ? real : "");
	cJSON_AddStringToObject(row, "workers", export_width(cell, buf,
	    sizeof(buf)));
	cJSON_AddNumberToObject(row, "coroutines", results_num(cell,
	    "coroutines"));
	cJSON_AddStringToObject(row, "workload", results_str(cell, "workload",
	    "resume"));
	cJSON_AddNumberToObject(row, "runs_ok", results_num(s, "runs_ok"));
	cJSON_AddNumberToObject(row, "runs", results_num(s, "runs"));
	cJSON_AddNumberToObject(row, "runs_starving", results_runs_above_zero(
	    cell, RF(starved)));
	for (i = 0; i < EXPORT_NFIGURES; i++)
		export_number(row, export_figure(i), export_stat(cell,
		    export_figures[i].field, export_figures[i].stat));
	for (i = 0; i < nparams_counters; i++)
		export_number(row, params_counters[i], results_stat(cell,
		    params_counters[i], "median"));
	/* What people read: ranges and counts as text, MB not kB. */
	snprintf(buf, sizeof(buf), "%s–%s", table_sig3(results_stat(cell,
	    RF(cpu_us_per_dispatch), "min"), a, sizeof(a)), table_sig3(
	    results_stat(cell, RF(cpu_us_per_dispatch), "max"), b, sizeof(b)));
	cJSON_AddStringToObject(row, "cpu_range", buf);
	export_counts(row, cell);
	export_number(row, "rss_anon_mb", results_stat(cell,
	    RF(rss_anon_peak_kb), "median") / 1024);
	snprintf(buf, sizeof(buf), "%u/%.0f", results_runs_above_zero(cell,
	    RF(starved)), results_num(s, "runs_ok"));
	cJSON_AddStringToObject(row, "starving_runs", buf);
	snprintf(buf, sizeof(buf), "%.0f/%.0f", results_num(s, "runs_ok"),
	    results_num(s, "runs"));
	cJSON_AddStringToObject(row, "ok_runs", buf);
	export_note(row, cell, results_obj(s, RF(cpu_us_per_dispatch)));
	return row;
}

cJSON *
export_rows(const cJSON *doc)
{
	cJSON *rows = cJSON_CreateArray();
	const cJSON *cell;

	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		cJSON_AddItemToArray(rows, export_row(doc, cell));
	return rows;
}

/* The median of the cells' medians of a figure: NAN when none has it. */
static double
export_over_cells(const cJSON *cells, const char *field, const char *only)
{
	struct stats_summary sum;
	double v[4096], m;
	const cJSON *cell;
	size_t n = 0;

	cJSON_ArrayForEach(cell, cells) {
		if (n == sizeof(v) / sizeof(v[0]))
			break;
		if (only != NULL && (strcmp(results_str(cell, "dispatcher", ""),
		    only) != 0 || strcmp(results_str(cell, "workload",
		    "resume"), "resume") != 0))
			continue;
		m = results_stat(cell, field, "median");
		if (isfinite(m))
			v[n++] = m;
	}
	if (n == 0)
		return NAN;
	stats_summarize(v, n, &sum);
	return sum.median;
}

/*
 * The harness's own cost: the median over the cells of the bare loop and
 * of `inline` on the resume-only workload; false when no run measured the
 * loop, *inl NAN when no cell ran `inline`.
 */
static bool
export_harness(const cJSON *doc, double *bare, double *inl)
{
	const cJSON *cells = results_arr(doc, "cells");

	*bare = export_over_cells(cells, RF(bare_loop_us_per_dispatch), NULL);
	*inl = export_over_cells(cells, RF(cpu_us_per_dispatch), "inline");
	return isfinite(*bare);
}

const char *
export_harness_words(const cJSON *doc, char *buf, size_t len)
{
	char a[32], b[32], c[32];
	double bare, inl;

	if (!export_harness(doc, &bare, &inl))
		return NULL;
	if (!isfinite(inl))
		snprintf(buf, len, "the bare loop, a dispatch with nothing of "
		    "the harness in it: %s µs", table_sig3(bare, a, sizeof(a)));
	else
		snprintf(buf, len, "the harness's own cost: inline %s µs a "
		    "dispatch is %s× the bare loop's %s (a dispatch with nothing "
		    "of the harness in it); every design's figure carries it",
		    table_sig3(inl, a, sizeof(a)), table_sig3(inl / bare, c,
		    sizeof(c)), table_sig3(bare, b, sizeof(b)));
	return buf;
}

/*
 * fn on doc, or on each machine of a merged file as a file of its own,
 * with its name (NULL for a run's file): a reference is one machine's.
 */
static void
export_each_machine(const cJSON *doc, void (*fn)(const cJSON *,
    const char *, void *), void *arg)
{
	const cJSON *m;
	cJSON *one;
	int i = 0;

	if (results_machines(doc) == 0) {
		fn(doc, NULL, arg);
		return;
	}
	cJSON_ArrayForEach(m, results_arr(doc, "machines")) {
		one = results_machine_doc(doc, i++);
		fn(one, results_str(m, "name", "?"), arg);
		cJSON_Delete(one);
	}
	return;
}

/* People's tables end with the bare loop, the row every cost is read against. */
static void
export_reference(const cJSON *doc, const char *machine, void *rows)
{
	double bare, inl;
	cJSON *row;

	if (!export_harness(doc, &bare, &inl))
		return;
	row = cJSON_CreateObject();
	if (machine != NULL)
		cJSON_AddStringToObject(row, "machine", machine);
	cJSON_AddStringToObject(row, "dispatcher", "bare loop");
	cJSON_AddNumberToObject(row, RF(cpu_us_per_dispatch), bare);
	cJSON_AddStringToObject(row, "note", "the reference: no harness, no "
	    "design");
	cJSON_AddItemToArray(rows, row);
	return;
}

/* A machine's name before a line of its own, on a merged file's. */
static void
export_line_machine(FILE *out, const char *machine)
{

	if (machine != NULL)
		fprintf(out, "%s: ", machine);
	return;
}

/* The harness's own cost in words, of one machine. */
static void
export_words(const cJSON *doc, const char *machine, void *out)
{
	char words[256];

	if (export_harness_words(doc, words, sizeof(words)) == NULL)
		return;
	export_line_machine(out, machine);
	fprintf(out, "%s\n", words);
	return;
}

/* The memory fits of one machine. */
static void
export_fits(const cJSON *doc, const char *machine, void *out)
{
	const cJSON *fit;

	cJSON_ArrayForEach(fit, results_arr(doc, "memory_fits")) {
		export_line_machine(out, machine);
		fprintf(out, "memory: %.1f kB per thread + %.0f kB (r2 %.2f, "
		    "%.0f widths) for %s\n", results_num(fit, "kb_per_thread"),
		    results_num(fit, "intercept_kb"), results_num(fit, "r2"),
		    results_num(fit, "points"), results_str(fit, "cells", "?"));
	}
	return;
}

void
export_memory_fits(FILE *out, const cJSON *doc)
{

	export_each_machine(doc, export_fits, out);
	return;
}

/* google-benchmark's counters: the suite's figures, per run. */
static const char *const export_counters[] = { RF(ops_per_s),
    RF(ctx_switches_per_dispatch), RF(latency_p99_us), RF(rss_anon_peak_kb) };
#define EXPORT_NCOUNTERS \
	(sizeof(export_counters) / sizeof(export_counters[0]))

struct export_series {
	double real[1024], cpu[1024], iters[1024], threads[1024];
	double counter[EXPORT_NCOUNTERS][1024];
	size_t n;
};

static cJSON *
export_gbench_entry(const char *name, int family, size_t reps,
    const char *run_type)
{
	cJSON *b = cJSON_CreateObject();

	cJSON_AddStringToObject(b, "name", name);
	cJSON_AddNumberToObject(b, "family_index", family);
	cJSON_AddNumberToObject(b, "per_family_instance_index", 0);
	cJSON_AddStringToObject(b, "run_name", name);
	cJSON_AddStringToObject(b, "run_type", run_type);
	cJSON_AddNumberToObject(b, "repetitions", (double)reps);
	return b;
}

/* The threads the run had at its peak, measured; absent if not. */
static void
export_gbench_threads(cJSON *b, double peak)
{

	if (isfinite(peak))
		cJSON_AddNumberToObject(b, "threads", peak);
	return;
}

static void
export_gbench_times(cJSON *b, double iters, double real, double cpu)
{

	cJSON_AddNumberToObject(b, "iterations", iters);
	cJSON_AddNumberToObject(b, "real_time", real);
	cJSON_AddNumberToObject(b, "cpu_time", cpu);
	cJSON_AddStringToObject(b, "time_unit", "ns");
	return;
}

/* The ok runs of a cell, in ns per dispatch. */
static void
export_gbench_series(const cJSON *cell, struct export_series *s)
{
	const cJSON *run;
	double d;
	size_t k;

	s->n = 0;
	cJSON_ArrayForEach(run, results_arr(cell, "runs")) {
		d = results_num(run, RF(dispatches));
		if (!results_ok(run) ||
		    !(d > 0) || s->n == 1024)
			continue;
		s->iters[s->n] = d;
		s->real[s->n] = results_num(run, RF(wall_s)) * 1e9 / d;
		s->cpu[s->n] = results_num(run, RF(cpu_s)) * 1e9 / d;
		s->threads[s->n] = results_num(run, RF(threads_peak));
		for (k = 0; k < EXPORT_NCOUNTERS; k++)
			s->counter[k][s->n] = results_num(run, export_counters[k]);
		s->n++;
	}
	return;
}

/* mean, median, stddev or cv (google-benchmark's aggregates) of v. */
static double
export_aggregate(const double *v, size_t n, int which)
{
	struct stats_summary st;

	stats_summarize(v, n, &st);
	switch (which) {
	case 0:
		return st.mean;
	case 1:
		return st.median;
	case 2:
		return st.cv * st.mean;
	default:
		return st.cv;
	}
}

static void
export_gbench_cell(cJSON *benchmarks, const cJSON *cell, int family)
{
	static const char *aggs[] = { "mean", "median", "stddev", "cv" };
	struct export_series *s = calloc(1, sizeof(*s));
	char name[512], agg[544], w[16], design[48];
	size_t i, k;
	cJSON *b;
	int a;

	if (s == NULL)
		abort();
	export_gbench_series(cell, s);
	snprintf(name, sizeof(name), "%s/%s/workers:%s/coroutines:%.0f/%s%s%s",
	    params_design(cell, design, sizeof(design)),
	    results_str(cell, "queue", "?"), export_width(cell, w, sizeof(w)),
	    results_num(cell, "coroutines"),
	    results_str(cell, "workload", "resume"), results_str(cell,
	    "machine", NULL) != NULL ? "/machine:" : "", results_str(cell,
	    "machine", ""));
	for (i = 0; i < s->n; i++) {
		b = export_gbench_entry(name, family, s->n, "iteration");
		cJSON_AddNumberToObject(b, "repetition_index", (double)i);
		export_gbench_threads(b, s->threads[i]);
		export_gbench_times(b, s->iters[i], s->real[i], s->cpu[i]);
		for (k = 0; k < EXPORT_NCOUNTERS; k++)
			if (isfinite(s->counter[k][i]))
				cJSON_AddNumberToObject(b, export_counters[k],
				    s->counter[k][i]);
		cJSON_AddItemToArray(benchmarks, b);
	}
	for (a = 0; a < 4 && s->n > 0; a++) {
		snprintf(agg, sizeof(agg), "%s_%s", name, aggs[a]);
		b = export_gbench_entry(agg, family, s->n, "aggregate");
		cJSON_ReplaceItemInObject(b, "run_name", cJSON_CreateString(name));
		export_gbench_threads(b, export_aggregate(s->threads, s->n, 1));
		cJSON_AddStringToObject(b, "aggregate_name", aggs[a]);
		cJSON_AddStringToObject(b, "aggregate_unit", a == 3 ?
		    "percentage" : "time");
		export_gbench_times(b, (double)s->n, export_aggregate(s->real,
		    s->n, a), export_aggregate(s->cpu, s->n, a));
		for (k = 0; k < EXPORT_NCOUNTERS; k++)
			if (isfinite(s->counter[k][0]))
				cJSON_AddNumberToObject(b, export_counters[k],
				    export_aggregate(s->counter[k], s->n, a));
		cJSON_AddItemToArray(benchmarks, b);
	}
	free(s);
	return;
}

static cJSON *
export_gbench(const cJSON *doc)
{
	const cJSON *ctx = results_obj(doc, "context"), *cell;
	cJSON *out = cJSON_CreateObject(), *c, *benchmarks;
	int family = 0;

	/* What was measured of the machine, and nothing it was not. */
	c = cJSON_AddObjectToObject(out, "context");
	cJSON_AddStringToObject(c, "date", results_str(ctx, "date", ""));
	cJSON_AddStringToObject(c, "host_name", results_str(ctx, "host", ""));
	cJSON_AddStringToObject(c, "executable", "dispatchbench");
	if (isfinite(results_num(ctx, "online_cpus")))
		cJSON_AddNumberToObject(c, "num_cpus", results_num(ctx,
		    "online_cpus"));
	if (isfinite(results_num(ctx, "cpu_mhz")))
		cJSON_AddNumberToObject(c, "mhz_per_cpu", results_num(ctx,
		    "cpu_mhz"));
	if (results_str(ctx, "cpu_governor", NULL) != NULL)
		cJSON_AddBoolToObject(c, "cpu_scaling_enabled", strcmp(
		    results_str(ctx, "cpu_governor", ""), "performance") != 0);
	/* google-benchmark says release unless NDEBUG is off: Debug here. */
	if (results_str(ctx, "build_type", NULL) != NULL)
		cJSON_AddStringToObject(c, "library_build_type", strcmp(
		    results_str(ctx, "build_type", ""), "Debug") == 0 ? "debug" :
		    "release");
	/* What google-benchmark has no field for. */
	if (ctx != NULL)
		cJSON_AddItemToObject(c, "dispatchbench",
		    cJSON_Duplicate(ctx, 1));
	if (results_machines(doc) > 0)
		cJSON_AddItemToObject(c, "dispatchbench_machines",
		    cJSON_Duplicate(results_arr(doc, "machines"), 1));
	benchmarks = cJSON_AddArrayToObject(out, "benchmarks");
	cJSON_ArrayForEach(cell, results_arr(doc, "cells"))
		export_gbench_cell(benchmarks, cell, family++);
	return out;
}

/* A merged file's columns: the machine first, then t's. */
static struct table_col *
export_machine_col(struct table *t)
{
	struct table_col *cols = calloc(t->ncols + 1, sizeof(*cols));

	if (cols == NULL)
		abort();
	cols[0] = (struct table_col){ "machine", "machine" };
	memcpy(cols + 1, t->cols, t->ncols * sizeof(*cols));
	t->ncols++;
	return cols;
}

void
export_write(FILE *out, const cJSON *doc, enum table_format f, const char *id)
{
	static const struct table people = EXPORT_TABLE(export_people, NULL);
	static const struct table counted = EXPORT_TABLE(export_counted, NULL);
	bool count = results_obj(results_obj(doc, "context"), "count") != NULL;
	struct table t = !table_for_people(f) ? export_program() : count ?
	    counted : people;
	struct table_col *cols = NULL;
	char *text;
	cJSON *rows;

	if (f == TABLE_GBENCH) {
		rows = export_gbench(doc);
		text = cJSON_Print(rows);
		fprintf(out, "%s\n", text);
		free(text);
		cJSON_Delete(rows);
		return;
	}
	t.id = id;
	if (results_machines(doc) > 0)
		t.cols = cols = export_machine_col(&t);
	rows = export_rows(doc);
	if (table_for_people(f))
		export_each_machine(doc, export_reference, rows);
	if (f == TABLE_TEXT)
		fputc('\n', out);
	table_write(out, f, &t, rows);
	if (f == TABLE_TEXT)
		export_each_machine(doc, export_words, out);
	if (f == TABLE_TEXT)
		export_memory_fits(out, doc);
	cJSON_Delete(rows);
	free(cols);
	return;
}
