#!/bin/sh
# Seed 003's dispatcher table ("The same thing without an engine"), row by
# row: 64 coroutines resuming on Dispatchers.IO at parallelism 64, 8 and 2,
# on Dispatchers.IO.limitedParallelism(8) and (2) with the default left at
# 64, and on Dispatchers.Default, measured here on the models (and on
# Debian's kotlinx.coroutines beside them, when this build has it) and
# printed beside the seed's figures from a two-core box.
#
# Dispatchers.IO at parallelism k and Dispatchers.IO.limitedParallelism(k)
# are one mechanism since kotlinx 1.7: a LimitedDispatcher(k) straight over
# the scheduler's unlimited blocking tasks (Dispatchers.kt, UnlimitedIo-
# Scheduler), which is `limited --workers k`; the seed's 1.00 against 0.99
# and 0.68 against 0.57 say the same. So rows 2 and 4, and 3 and 5, read one
# cell each. Dispatchers.Default is `default` at the machine's CPUs.
#
#   sh scripts/seed-003.sh [BINARY] [run options...]
# BINARY defaults to build/bench/dispatchbench; the results go to
# build/seed-003.json. Further options go to `run` (--reps 6, --time 1 and
# --warmup 0.5 by default, as the seed's runs).
set -eu

bin=build/bench/dispatchbench
if [ $# -gt 0 ] && [ -x "$1" ]; then
	bin=$1
	shift
fi
out=build/seed-003.json
cpus=$(nproc)
designs=limited,default
real=""
if "$bin" list | grep -q '^  kotlinx-io '; then
	real=kotlinx-io,kotlinx-default
	designs=$designs,$real
fi

# The machine's CPUs may be one of the seed's widths: name each width once.
widths=$(printf '%s\n' 2 8 64 "$cpus" | sort -nu | paste -sd, -)
"$bin" run --dispatcher "$designs" --workers "$widths" --coroutines 64 \
	--reps 6 --time 1 --warmup 0.5 --quiet "$@" --out "$out" >/dev/null
"$bin" export "$out" --format csv | awk -F, -v cpus="$cpus" '
NR == 1 {
	for (i = 1; i <= NF; i++)
		col[$i] = i
	next
}
{
	k = $col["dispatcher"] " " $col["workers"]
	med[k] = $col["cpu_us_per_dispatch"]
	lo[k] = $col["cpu_us_per_dispatch_min"]
	hi[k] = $col["cpu_us_per_dispatch_max"]
	thr[k] = $col["threads_peak"]
	near[k] = $col["cpu_us_per_dispatch_near"]
	far[k] = $col["cpu_us_per_dispatch_far"]
	ok[k] = $col["runs_ok"] "/" $col["runs"]
}
function row(name, model, w, seed, seedthr, realname,    k, r) {
	k = model " " w
	r = realname " " w
	printf "%-44s %-12s %7s [%s-%s] %5s  %4s  %5.2f  %11s   %4s (%3s)  %s\n",
	    name, model " w=" w, fmt(med[k]), fmt(lo[k]), fmt(hi[k]), ok[k],
	    seed, (med[k] != "" ? med[k] / seed : 0), placed(k, seed), thr[k],
	    seedthr, (r in med ? fmt(med[r]) : "-")
}
# The ratio on each placement of the CPUs, where the runs ran on two.
function placed(k, seed) {
	if (near[k] == "" || far[k] == "")
		return "-"
	return sprintf("%.2f / %.2f", near[k] / seed, far[k] / seed)
}
function fmt(v) {
	return v == "" ? "-" : sprintf("%.3g", v)
}
END {
	printf "%-44s %-12s %-22s %5s  %4s  %-5s  %11s   %-10s  %s\n",
	    "seed 003 row", "model cell", "CPU us/dispatch [min-max]", "ok",
	    "seed", "ratio", "near / far", "threads (seed)", "real kotlinx"
	row("Dispatchers.IO, parallelism 64 (the default)", "limited", 64,
	    2.01, 114, "kotlinx-io")
	row("Dispatchers.IO, io.parallelism=8", "limited", 8, 0.25, 25,
	    "kotlinx-io")
	row("Dispatchers.IO, io.parallelism=2", "limited", 2, 0.17, 15,
	    "kotlinx-io")
	row("Dispatchers.IO.limitedParallelism(8)", "limited", 8, 0.25, 24,
	    "-")
	row("Dispatchers.IO.limitedParallelism(2)", "limited", 2, 0.14, 15,
	    "-")
	row("Dispatchers.Default", "default", cpus, 0.05, 8,
	    "kotlinx-default")
}'
echo "results in $out; ratio: measured over the seed's, within [0.5, 2] is the seed's shape;"
echo "near / far: the ratio of the runs on each placement of the CPUs, where the host gave them two (docs/running.md)"
