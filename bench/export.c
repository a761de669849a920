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

#include "export.h"
#include "results.h"
#include "stats.h"

struct export_col {
	const char *name;		/* column */
	const char *field;		/* summary field */
	const char *stat;		/* median, min, max, cv */
};

static const struct export_col export_cols[] = {
	{ "cpu_us_per_dispatch", "cpu_us_per_dispatch", "median" },
	{ "cpu_us_per_dispatch_min", "cpu_us_per_dispatch", "min" },
	{ "cpu_us_per_dispatch_max", "cpu_us_per_dispatch", "max" },
	{ "cpu_us_per_dispatch_cv", "cpu_us_per_dispatch", "cv" },
	{ "ops_per_s", "ops_per_s", "median" },
	{ "ctx_switches_per_dispatch", "ctx_switches_per_dispatch", "median" },
	{ "threads_peak", "threads_peak", "median" },
	{ "latency_p99_us", "latency_p99_us", "median" },
	{ "rss_anon_peak_kb", "rss_anon_peak_kb", "median" },
	{ "starved", "starved", "median" },
	{ "min_share", "min_share", "median" },
	{ "max_share", "max_share", "median" },
	{ "cpu_us_per_round_trip", "cpu_us_per_round_trip", "median" },
	{ "round_trips_per_s", "round_trips_per_s", "median" },
};
#define EXPORT_NCOLS	(sizeof(export_cols) / sizeof(export_cols[0]))

int
export_format_parse(const char *name, enum export_format *f)
{
	static const char *names[] = { "table", "csv", "markdown", "json",
	    "gbench" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(name, names[i]) == 0) {
			*f = (enum export_format)i;
			return 0;
		}
	}
	return -1;
}

static const char *
export_width(const cJSON *cell, char *buf, size_t len)
{

	snprintf(buf, len, results_num(cell, "workers") == 0 ? "inf" : "%.0f",
	    results_num(cell, "workers"));
	return buf;
}

/* The summary table `run` prints. */
static void
export_table_cell(FILE *out, const cJSON *cell)
{
	const cJSON *s = cJSON_GetObjectItem(cell, "summary");
	const cJSON *f = cJSON_GetObjectItem(s, "cpu_us_per_dispatch");
	const cJSON *bi = cJSON_GetObjectItem(f, "bimodal");
	char w[16], design[48], starved[24];

	fprintf(out, "%-17s %-6s %7s %5.0f %-12s ", results_design(cell, design,
	    sizeof(design)), results_str(cell, "queue", "?"),
	    export_width(cell, w, sizeof(w)), results_num(cell, "coroutines"),
	    results_str(cell, "workload", "resume"));
	if (f == NULL) {
		fprintf(out, "no ok run %.0f/%.0f\n", results_num(s, "runs_ok"),
		    results_num(s, "runs"));
		return;
	}
	/* starved: the runs in which a coroutine made no progress, as plots say. */
	snprintf(starved, sizeof(starved), "%u/%.0f", results_runs_above_zero(
	    cell, "starved"), results_num(s, "runs_ok"));
	fprintf(out, "%8.3f [%7.3f-%8.3f] %5.2f %11.0f %10.4f %6.0f %9.1f "
	    "%7.1f %7s %5.2f %2.0f/%-2.0f", results_num(f, "median"),
	    results_num(f, "min"), results_num(f, "max"), results_num(f, "cv"),
	    results_stat(cell, "ops_per_s", "median"),
	    results_stat(cell, "ctx_switches_per_dispatch", "median"),
	    results_stat(cell, "threads_peak", "median"),
	    results_stat(cell, "latency_p99_us", "median"),
	    results_stat(cell, "rss_anon_peak_kb", "median") / 1024, starved,
	    results_stat(cell, "min_share", "median"), results_num(s, "runs_ok"),
	    results_num(s, "runs"));
	if (bi != NULL)
		fprintf(out, "  two regimes: %.0f of %.0f runs above %.3g",
		    results_num(bi, "runs_above"), results_num(s, "runs_ok"),
		    results_num(bi, "boundary"));
	fprintf(out, "\n");
	return;
}

static void
export_table(FILE *out, const cJSON *doc)
{
	const cJSON *cell;

	fprintf(out, "\n%-17s %-6s %7s %5s %-12s %-28s %5s %11s %10s %6s %9s "
	    "%7s %7s %5s %5s\n", "dispatcher", "queue", "workers", "coros",
	    "workload", "CPU us/dispatch med [min-max]", "cv", "ops/s",
	    "ctxsw/disp", "thr", "p99 us", "anon MB", "starved", "fair", "ok");
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		export_table_cell(out, cell);
	export_memory_fits(out, doc);
	return;
}

void
export_memory_fits(FILE *out, const cJSON *doc)
{
	const cJSON *fit;

	cJSON_ArrayForEach(fit, cJSON_GetObjectItem(doc, "memory_fits"))
		fprintf(out, "memory: %.1f kB per thread + %.0f kB (r2 %.2f, %.0f "
		    "widths) for %s\n", results_num(fit, "kb_per_thread"),
		    results_num(fit, "intercept_kb"), results_num(fit, "r2"),
		    results_num(fit, "points"), results_str(fit, "cells", "?"));
	return;
}

/* One row per cell as JSON; a figure no run has is null. */
static cJSON *
export_row(const cJSON *cell)
{
	const cJSON *s = cJSON_GetObjectItem(cell, "summary");
	cJSON *row = cJSON_CreateObject();
	char w[16], design[48];
	double v;
	size_t i;

	cJSON_AddStringToObject(row, "dispatcher", results_design(cell, design,
	    sizeof(design)));
	cJSON_AddStringToObject(row, "queue", results_str(cell, "queue", "?"));
	cJSON_AddStringToObject(row, "workers", export_width(cell, w,
	    sizeof(w)));
	cJSON_AddNumberToObject(row, "coroutines", results_num(cell,
	    "coroutines"));
	cJSON_AddStringToObject(row, "workload", results_str(cell, "workload",
	    "resume"));
	cJSON_AddNumberToObject(row, "runs_ok", results_num(s, "runs_ok"));
	cJSON_AddNumberToObject(row, "runs", results_num(s, "runs"));
	cJSON_AddNumberToObject(row, "runs_starving", results_runs_above_zero(
	    cell, "starved"));
	for (i = 0; i < EXPORT_NCOLS; i++) {
		v = results_stat(cell, export_cols[i].field, export_cols[i].stat);
		if (isfinite(v))
			cJSON_AddNumberToObject(row, export_cols[i].name, v);
		else
			cJSON_AddNullToObject(row, export_cols[i].name);
	}
	return row;
}

/* CSV (RFC 4180: no field here needs quoting) or a Markdown table. */
static void
export_text(FILE *out, const cJSON *doc, bool markdown)
{
	const char *sep = markdown ? " | " : ",";
	const cJSON *cell, *f;
	cJSON *row;
	int k = 0;

	row = export_row(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "cells"),
	    0));
	fputs(markdown ? "| " : "", out);
	cJSON_ArrayForEach(f, row)
		fprintf(out, "%s%s", k++ ? sep : "", f->string);
	fputs(markdown ? " |\n" : "\n", out);
	if (markdown) {
		for (k = 0; k < cJSON_GetArraySize(row); k++)
			fputs(k ? "---|" : "|---|", out);
		fputs("\n", out);
	}
	cJSON_Delete(row);
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells")) {
		row = export_row(cell);
		k = 0;
		fputs(markdown ? "| " : "", out);
		cJSON_ArrayForEach(f, row) {
			fputs(k++ ? sep : "", out);
			if (cJSON_IsString(f))
				fputs(f->valuestring, out);
			else if (cJSON_IsNumber(f))
				fprintf(out, "%.6g", f->valuedouble);
			else
				fputs(markdown ? "-" : "", out);
		}
		fputs(markdown ? " |\n" : "\n", out);
		cJSON_Delete(row);
	}
	return;
}

/* google-benchmark's counters: the suite's figures, per run. */
static const char *const export_counters[] = { "ops_per_s",
    "ctx_switches_per_dispatch", "latency_p99_us", "rss_anon_peak_kb" };
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
	cJSON_ArrayForEach(run, cJSON_GetObjectItem(cell, "runs")) {
		d = results_num(run, "dispatches");
		if (strcmp(results_str(run, "status", ""), "ok") != 0 ||
		    !(d > 0) || s->n == 1024)
			continue;
		s->iters[s->n] = d;
		s->real[s->n] = results_num(run, "wall_s") * 1e9 / d;
		s->cpu[s->n] = results_num(run, "cpu_s") * 1e9 / d;
		s->threads[s->n] = results_num(run, "threads_peak");
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
	char name[256], agg[288], w[16], design[48];
	size_t i, k;
	cJSON *b;
	int a;

	if (s == NULL)
		abort();
	export_gbench_series(cell, s);
	snprintf(name, sizeof(name), "%s/%s/workers:%s/coroutines:%.0f/%s",
	    results_design(cell, design, sizeof(design)),
	    results_str(cell, "queue", "?"), export_width(cell, w, sizeof(w)), results_num(cell, "coroutines"),
	    results_str(cell, "workload", "resume"));
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
	const cJSON *ctx = cJSON_GetObjectItem(doc, "context"), *cell;
	cJSON *out = cJSON_CreateObject(), *c, *benchmarks;
	int family = 0;

	/* What was measured of the machine, and nothing it was not. */
	c = cJSON_AddObjectToObject(out, "context");
	cJSON_AddStringToObject(c, "date", results_str(ctx, "date", ""));
	cJSON_AddStringToObject(c, "host_name", results_str(ctx, "host", ""));
	cJSON_AddStringToObject(c, "executable", "dispatchbench");
	cJSON_AddNumberToObject(c, "num_cpus", results_num(ctx, "online_cpus"));
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
	benchmarks = cJSON_AddArrayToObject(out, "benchmarks");
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		export_gbench_cell(benchmarks, cell, family++);
	return out;
}

void
export_write(FILE *out, const cJSON *doc, enum export_format f)
{
	const cJSON *cell;
	cJSON *arr;
	char *text;

	switch (f) {
	case EXPORT_TABLE:
		export_table(out, doc);
		return;
	case EXPORT_CSV:
	case EXPORT_MARKDOWN:
		export_text(out, doc, f == EXPORT_MARKDOWN);
		return;
	case EXPORT_JSON:
		arr = cJSON_CreateArray();
		cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
			cJSON_AddItemToArray(arr, export_row(cell));
		break;
	default:
		arr = export_gbench(doc);
		break;
	}
	text = cJSON_Print(arr);
	fprintf(out, "%s\n", text);
	free(text);
	cJSON_Delete(arr);
	return;
}
