/*
 * probe.h - four short calibration probes of the machine, taken once a
 * sitting (a sweep, ab, pair) before its first cell, while nothing else
 * of the tool runs: a new CPU under the same model name, or a host that
 * got busier, moves them; a change of the code does not.
 *
 *   bare_loop        an empty counted loop (workload_burn): ns a turn;
 *   atomic           an uncontended atomic add on a cache line only this
 *                    thread touches: ns an add;
 *   line_round_trip  two threads on two PUs of the allowed set take turns
 *                    to advance a counter on one cache line (matrix.h):
 *                    ns a round trip;
 *   futex_wake       a thread wakes another blocked in FUTEX_WAIT and
 *                    sleeps until it is woken back, on the same two PUs
 *                    (parker.h): ns a round trip, two wakes and two
 *                    switches.
 *
 * The two PUs are the first two of pin.h's "core" plan: two cores where
 * the set has two, else a core's two PUs. Each probe is PROBE_REPS
 * timings after an untimed one; the four take about 0.05 s on an idle
 * machine, hwloc's topology included.
 */
#ifndef BENCH_PROBE_H
#define BENCH_PROBE_H

#include <cjson/cJSON.h>

#define PROBE_REPS	7

/*
 * The probes as the results' context holds them, {"bare_loop": {"unit":
 * "ns", "median", "min", "max", "n"}, "atomic": ..., "line_round_trip":
 * ..., "futex_wake": ...}: a probe that could not run (one PU allowed, a
 * thread that would not start, a peer that stopped answering) has n 0 and
 * "why". Never fails; leaves the calling thread bound as it was.
 */
cJSON *probe_measure(void);

/*
 * line_round_trip alone, for each run: the median of PROBE_REPS timings,
 * in ns; NAN where it cannot be taken. A guest's two vCPUs may be two
 * threads of one host core at one moment and two cores the next (27 and
 * 183 ns here), and every handoff between them moves with it: a run
 * taken at each end tells which placement it ran on.
 */
double probe_line(void);

#endif /* BENCH_PROBE_H */
