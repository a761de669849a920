/*
 * runfields.h - the fields of a run in a results file, listed once: each
 * one's key, JSON type, unit, better side and where it comes from. The
 * writer (measure/), the readers and the validator (analyse/), export's
 * columns and the verdicts' words name a field as RF(key), which is a
 * compile error for a key not listed here; `dispatchbench fields` prints
 * it, and results/README.md's table of a run's fields is checked against
 * it (tests/test_docs.c). A design's and perf's counters are the other
 * fields of a run, named by their own lists (param/counter_fields.c).
 */
#ifndef BENCH_RUNFIELDS_H
#define BENCH_RUNFIELDS_H

#include <stdbool.h>
#include <stddef.h>

enum rf_type { RF_NUMBER, RF_STRING, RF_BOOL, RF_OBJECT, RF_ARRAY };

/* Which way a change is good; NEITHER for a field that is not a cost. */
enum rf_better { RF_LOWER, RF_HIGHER, RF_NEITHER };

/* X(key, type, unit, better, from) */
#define RF_FIELDS(X)							\
	X(status, STRING, "", NEITHER, "the runner: ok, failed, hung, "	\
	    "crashed, interrupted or stalled")				\
	X(error, STRING, "", NEITHER, "the runner: why a run is not ok") \
	X(rep, NUMBER, "", NEITHER, "the runner: which repetition")	\
	X(wall_s, NUMBER, "s", NEITHER, "CLOCK_MONOTONIC over the window") \
	X(cpu_s, NUMBER, "s", LOWER, "getrusage(RUSAGE_SELF): utime + "	\
	    "stime over the window")					\
	X(cpu_clock_s, NUMBER, "s", LOWER, "CLOCK_PROCESS_CPUTIME_ID "	\
	    "over the window")						\
	X(cpu_schedstat_s, NUMBER, "s", LOWER, "/proc/self/task/*/"	\
	    "schedstat, live threads")					\
	X(cpu_schedstat_diff_pct, NUMBER, "%", NEITHER, "(schedstat - "	\
	    "cpu_s) / cpu_s")						\
	X(dispatches, NUMBER, "", NEITHER, "the coroutines' counters")	\
	X(ops_per_s, NUMBER, "ops/s", HIGHER, "ops / wall_s")		\
	X(cpu_us_per_op, NUMBER, "µs", LOWER, "cpu_s / ops")		\
	X(cpu_us_per_dispatch, NUMBER, "µs", LOWER, "cpu_s / "		\
	    "dispatches: the headline")					\
	X(cpus_busy, NUMBER, "CPUs", NEITHER, "cpu_s / wall_s")		\
	X(ctx_switches_per_dispatch, NUMBER, "switches", LOWER,		\
	    "getrusage: voluntary + involuntary switches / dispatches")	\
	X(vol_ctx_switches_per_dispatch, NUMBER, "switches", LOWER,	\
	    "getrusage: voluntary switches / dispatches")		\
	X(invol_ctx_switches_per_dispatch, NUMBER, "switches", LOWER,	\
	    "getrusage: involuntary switches / dispatches")		\
	X(bare_loop_us_per_dispatch, NUMBER, "µs", LOWER, "the bare "	\
	    "loop, in the run's process before it starts")		\
	X(cpu_us_per_round_trip, NUMBER, "µs", LOWER, "request: cpu_s / " \
	    "round trips")						\
	X(round_trips_per_s, NUMBER, "round trips/s", HIGHER, "request: " \
	    "dispatches / 2 / wall_s")					\
	X(latency_samples, NUMBER, "", NEITHER, "dispatches sampled for " \
	    "latency")							\
	X(latency_p50_us, NUMBER, "µs", LOWER, "the latency histogram")	\
	X(latency_p90_us, NUMBER, "µs", LOWER, "the latency histogram")	\
	X(latency_p99_us, NUMBER, "µs", LOWER, "the latency histogram")	\
	X(latency_p999_us, NUMBER, "µs", LOWER, "the latency histogram") \
	X(latency_max_us, NUMBER, "µs", LOWER, "the latency histogram")	\
	X(threads, NUMBER, "threads", LOWER, "/proc/self/status at the " \
	    "window's end")						\
	X(threads_peak, NUMBER, "threads", LOWER, "/proc/self/status, every " \
	    "20 ms")							\
	X(threads_started, NUMBER, "threads", NEITHER, "the design, over the " \
	    "run")							\
	X(threads_high_water, NUMBER, "threads", LOWER, "the design, over " \
	    "the run")							\
	X(rss_kb, NUMBER, "kB", LOWER, "VmRSS at the window's end")	\
	X(rss_anon_kb, NUMBER, "kB", LOWER, "RssAnon at the window's end") \
	X(rss_anon_peak_kb, NUMBER, "kB", LOWER, "RssAnon, every 20 ms") \
	X(peak_rss_kb, NUMBER, "kB", LOWER, "ru_maxrss at exit")	\
	X(starved, NUMBER, "", LOWER, "the coroutines' counters: none "	\
	    "in the window")						\
	X(min_share, NUMBER, "", HIGHER, "the coroutines' counters: the " \
	    "least over the mean")					\
	X(max_share, NUMBER, "", NEITHER, "the coroutines' counters: "	\
	    "the most over the mean")					\
	X(host_other_cpus, NUMBER, "CPUs", NEITHER, "/proc/stat less "	\
	    "the run's own")						\
	X(host_steal_pct, NUMBER, "%", NEITHER, "/proc/stat's steal")	\
	X(loadavg_1m, NUMBER, "", NEITHER, "getloadavg at the window's " \
	    "end")							\
	X(host_busy, BOOL, "", NEITHER, "other load or steal above 5 %") \
	X(host_wait_s, NUMBER, "s", NEITHER, "the runner, --host quiet") \
	X(line_round_trip_ns_before, NUMBER, "ns", NEITHER, "the line "	\
	    "probe before the run")					\
	X(line_round_trip_ns_after, NUMBER, "ns", NEITHER, "the line "	\
	    "probe after the run")					\
	X(bindings, OBJECT, "", NEITHER, "every thread's affinity, read " \
	    "back")							\
	X(placement, ARRAY, "", NEITHER, "each placed thread against "	\
	    "its plan, read back")					\
	X(count_ok, BOOL, "", NEITHER, "the count check: every "	\
	    "dispatch ran once")					\
	X(resumptions_total, NUMBER, "", NEITHER, "the coroutines' "	\
	    "counters")							\
	X(dispatcher_ran, NUMBER, "", NEITHER, "the design's count of "	\
	    "tasks run")						\
	X(lost, NUMBER, "", LOWER, "the count check")			\
	X(doubled, NUMBER, "", LOWER, "the count check")		\
	X(out_of_turn, NUMBER, "", LOWER, "the count check")		\
	X(count_figures, STRING, "", NEITHER, "the count check: why "	\
	    "lost and doubled are null")				\
	X(spilled, NUMBER, "", NEITHER, "the design: dispatches a full " \
	    "queue turned away")					\
	X(payload_ns, NUMBER, "ns", NEITHER, "--payload")		\
	X(blocked_per_s, NUMBER, "/s", NEITHER, "blocking profiles: "	\
	    "resumptions that blocked")					\
	X(ceiling_ops_per_s, NUMBER, "ops/s", NEITHER, "Little's law for " \
	    "the profile")						\
	X(blocking_peak, NUMBER, "", NEITHER, "blocking profiles: most " \
	    "blocked at once")						\
	X(hops_per_s, NUMBER, "/s", NEITHER, "a split's hops")		\
	X(capacity_pct, NUMBER, "%", HIGHER, "ops_per_s / "		\
	    "ceiling_ops_per_s")					\
	X(perf, OBJECT, "", NEITHER, "perf_event_open: each event's "	\
	    "count, enabled and running time")				\
	X(perf_multiplexed, BOOL, "", NEITHER, "perf_event_open: an "	\
	    "event ran for less than the window")			\
	X(instructions, NUMBER, "", LOWER, "a counted window: callgrind " \
	    "or perf")							\
	X(instructions_per_dispatch, NUMBER, "instructions", LOWER, "a " \
	    "counted window: instructions / dispatches")		\
	X(instructions_counter, STRING, "", NEITHER, "callgrind or perf") \
	X(instructions_counter_version, STRING, "", NEITHER, "Valgrind's " \
	    "version or the kernel's release")				\
	X(instructions_by_function, OBJECT, "", NEITHER, "callgrind: the " \
	    "costliest functions")					\
	X(count_per_coroutine, NUMBER, "", NEITHER, "--count")		\
	X(watchdog, OBJECT, "", NEITHER, "the watchdog: a hung run's "	\
	    "state")							\
	X(stacks, STRING, "", NEITHER, "gdb, before a run is killed at " \
	    "its deadline")						\
	X(stranded_coroutines, ARRAY, "", NEITHER, "the stop: "		\
	    "coroutines that never came back")				\
	X(watchdog_at_stop, OBJECT, "", NEITHER, "the watchdog at the "	\
	    "stop")							\
	X(error_at_stop, STRING, "", NEITHER, "the stop, of a run "	\
	    "already failed")						\
	X(errors_after, ARRAY, "", NEITHER, "a program's run: the reasons " \
	    "it failed after its first")						\
	X(program_says, STRING, "", NEITHER, "a program's ready line")	\
	X(program_stderr, STRING, "", NEITHER, "a failed program's "	\
	    "stderr, its last 512 bytes")

enum rf_id {
#define RF_ENUM(key, type, unit, better, from)	RF_##key,
	RF_FIELDS(RF_ENUM)
#undef RF_ENUM
	RF_NFIELDS
};

/*
 * A field's key, checked: RF(cpu_us_per_dispatch) is "cpu_us_per_dispatch",
 * and a key not listed names no enumerator. An address constant, so it
 * also initialises a static table.
 */
#define RF(key)		(&#key[0 * RF_##key])

struct rf_field {
	const char *key;
	enum rf_type type;
	const char *unit;		/* "" when it has none */
	enum rf_better better;
	const char *from;
};

extern const struct rf_field rf_fields[RF_NFIELDS];

/* The field of that key, or NULL: a counter's, or none of a run's. */
const struct rf_field *rf_find(const char *key);

/* "a number", "a string", ...: as the validator says what it wanted. */
const char *rf_type_name(enum rf_type type);

#endif /* BENCH_RUNFIELDS_H */
