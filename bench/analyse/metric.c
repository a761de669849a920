/*
 * metric.c - a run field in words (see metric.h): the table of the fields
 * a verdict is asked of, and the sentences a change of one makes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric.h"
#include "runfields.h"

bool
metric_higher_is_better(const char *metric)
{
	const struct rf_field *rf = rf_find(metric);

	return rf != NULL && rf->better == RF_HIGHER;
}

bool
metric_positive(const char *metric)
{
	size_t n = strlen(metric);

	return strncmp(metric, "cpu_us_per_", 11) == 0 ||
	    (strncmp(metric, "latency_", 8) == 0 && n > 3 &&
	    strcmp(metric + n - 3, "_us") == 0) ||
	    strcmp(metric, RF(ops_per_s)) == 0 ||
	    strcmp(metric, RF(round_trips_per_s)) == 0 ||
	    strcmp(metric, "perf_task_clock_ns_per_dispatch") == 0 ||
	    strcmp(metric, RF(instructions_per_dispatch)) == 0 ||
	    strcmp(metric, RF(wall_s)) == 0;
}

#define METRIC_COST(f, q, u, v, n, up, down)	\
	{ .field = (f), .quantity = (q), .unit = (u), .verb = (v), \
	    .noun = (n), .more = (up), .less = (down) }
/* A field of runfields.h: its unit and better side are the list's. */
#define METRIC_FIELD(f, q, v, n, up, down)	\
	METRIC_COST(RF(f), q, "", v, n, up, down)

/*
 * The fields a verdict is asked of, in words (results/README.md), and
 * perf's counters, named by their list (param/counter_fields.c) with a unit.
 */
static const struct metric metric_table[] = {
	METRIC_FIELD(cpu_us_per_dispatch, "CPU µs per dispatch", "spends",
	    "CPU per dispatch", "more", "less"),
	METRIC_FIELD(cpu_us_per_op, "CPU µs per op", "spends", "CPU per op",
	    "more", "less"),
	METRIC_FIELD(cpu_us_per_round_trip, "CPU µs per round trip", "spends",
	    "CPU per round trip", "more", "less"),
	METRIC_FIELD(bare_loop_us_per_dispatch, "bare loop CPU µs per "
	    "dispatch", "spends", "CPU per dispatch in the bare loop", "more",
	    "less"),
	METRIC_FIELD(ops_per_s, "ops/s", "does", "ops per second", "more",
	    "fewer"),
	METRIC_FIELD(round_trips_per_s, "round trips/s", "does",
	    "round trips per second", "more", "fewer"),
	METRIC_FIELD(ctx_switches_per_dispatch, "context switches per "
	    "dispatch", "makes", "context switches per dispatch", "more",
	    "fewer"),
	METRIC_COST("perf_context_switches_per_dispatch", "context switches "
	    "per dispatch (perf)", "switches", "makes", "context switches per "
	    "dispatch", "more", "fewer"),
	METRIC_COST("perf_task_clock_ns_per_dispatch", "task clock ns per "
	    "dispatch (perf)", "ns", "spends", "task clock per dispatch",
	    "more", "less"),
	METRIC_COST("perf_cycles_per_dispatch", "cycles per dispatch (perf)",
	    "cycles", "spends", "cycles per dispatch", "more", "fewer"),
	METRIC_COST("perf_instructions_per_dispatch", "instructions per "
	    "dispatch (perf)", "instructions", "runs", "instructions per "
	    "dispatch", "more", "fewer"),
	/* A counted window's: every thread's, exact where runs agree. */
	METRIC_FIELD(instructions_per_dispatch, "instructions per dispatch",
	    "executes", "instructions per dispatch", "more", "fewer"),
	METRIC_COST("perf_cache_misses_per_dispatch", "cache misses per "
	    "dispatch (perf)", "misses", "takes", "cache misses per dispatch",
	    "more", "fewer"),
	METRIC_FIELD(latency_p50_us, "latency p50, µs", NULL, "p50 latency",
	    "higher", "lower"),
	METRIC_FIELD(latency_p90_us, "latency p90, µs", NULL, "p90 latency",
	    "higher", "lower"),
	METRIC_FIELD(latency_p99_us, "latency p99, µs", NULL, "p99 latency",
	    "higher", "lower"),
	METRIC_FIELD(latency_p999_us, "latency p99.9, µs", NULL,
	    "p99.9 latency", "higher", "lower"),
	METRIC_FIELD(latency_max_us, "latency max, µs", NULL,
	    "longest latency", "higher", "lower"),
	METRIC_FIELD(threads_peak, "threads (most seen)", "runs",
	    "threads at its peak", "more", "fewer"),
	METRIC_FIELD(rss_anon_peak_kb, "anonymous RSS peak, kB", NULL,
	    "anonymous RSS peak", "higher", "lower"),
	METRIC_FIELD(wall_s, "window, s", NULL, "window", "longer",
	    "shorter"),
};

void
metric_of(const char *field, struct metric *m)
{
	const struct rf_field *rf = rf_find(field);
	size_t i;

	*m = (struct metric)METRIC_COST(field, field, "", NULL, field,
	    "higher", "lower");
	for (i = 0; i < sizeof(metric_table) / sizeof(metric_table[0]); i++)
		if (strcmp(metric_table[i].field, field) == 0)
			*m = metric_table[i];
	if (rf != NULL)
		m->unit = rf->unit;
	m->higher_is_better = metric_higher_is_better(field);
	return;
}

const char *
metric_unit(const char *metric)
{
	struct metric m;

	metric_of(metric, &m);
	return m.unit;
}

const char *
metric_in_words(const char *metric, const char *side, double change,
    bool difference, char *buf, size_t len)
{
	struct metric m;
	double pct = 100 * fabs(change);
	char amount[32];

	metric_of(metric, &m);
	if (!isfinite(change)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (difference)
		snprintf(amount, sizeof(amount), "%.3g", fabs(change));
	else
		snprintf(amount, sizeof(amount), pct >= 9.95 ? "%.0f %%" :
		    "%.1f %%", pct);
	if (m.verb != NULL)
		snprintf(buf, len, "%s %s %s %s %s", side, m.verb, amount,
		    change > 0 ? m.more : m.less, m.noun);
	else
		snprintf(buf, len, "%s's %s is %s %s", side, m.noun, amount,
		    change > 0 ? m.more : m.less);
	return buf;
}

const char *
metric_signed(double change, double lo, double hi, bool difference,
    char *buf, size_t len)
{

	if (difference)
		snprintf(buf, len, "%+.3g [%+.3g, %+.3g]", change, lo, hi);
	else
		snprintf(buf, len, "%+.1f %% [%+.1f, %+.1f]", 100 * change,
		    100 * lo, 100 * hi);
	return buf;
}

const char *
metric_verdict_words(const char *metric, const char *verdict,
    const char *side, double change, bool difference, char *buf, size_t len)
{
	bool worse = (change > 0) != metric_higher_is_better(metric);

	buf[0] = '\0';
	if (isfinite(change) && ((strcmp(verdict, "regressed") == 0 &&
	    worse) || (strcmp(verdict, "improved") == 0 && !worse) ||
	    strcmp(verdict, "equivalent") == 0))
		metric_in_words(metric, side, change, difference, buf, len);
	return buf;
}
