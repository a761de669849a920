#!/bin/sh
# The fleet on a real Slurm (tests/slurm/cluster.sh start brings one up):
# a two-task array of a tiny sweep through `fleet submit`, collected and
# merged into a file of two machines whose plot has a series for each; then
# an array whose first task is cancelled while it runs: `fleet collect`
# names it CANCELLED, exits 1 and keeps the other task's results.
#   sh tests/slurm/fleet.sh DISPATCHBENCH
set -eu

bin=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sweep="--dispatcher shared,inline --workers 1,2 --reps 2 --time 0.1 --warmup 0.05"

fail() {
	echo "fleet.sh: $*" >&2
	for f in "$work"/*/*.log; do
		[ -f "$f" ] && { echo "--- $f" >&2; tail -n 5 "$f" >&2; }
	done
	exit 1
}

# The state Slurm gives task $2 of job $1.
state() {
	scontrol -o show job "$1_$2" 2>/dev/null |
		sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p'
}

# 1. Both tasks complete: one merged file of two machines, two series.
# shellcheck disable=SC2086
job=$("$bin" fleet submit --nodes 2 --dir "$work/a" --limit 5 $sweep | head -n 1)
echo "submitted job $job"
"$bin" fleet collect --dir "$work/a" --job "$job" --timeout 300 \
	-o "$work/a.json" >"$work/a.out" || { cat "$work/a.out"; fail "collect failed"; }
cat "$work/a.out"
grep -q "2 completed whole, 0 not" "$work/a.out" || fail "not both completed"
grep -q '^2 machines, 6 cells, in ' "$work/a.out" || fail "not two machines merged"
"$bin" plot "$work/a.json" -o "$work/plot" >/dev/null || fail "plot failed"
n=$(grep -c "shared/lfseg on $(hostname -s) (.*) \[$(hostname -s)-$job-[01]\]" \
	"$work/plot/cpu_per_dispatch.svg" || true)
[ "$n" -ge 2 ] || fail "the plot has $n series of shared/lfseg, not 2"
echo "plot: two series of shared/lfseg, one per task"

# 2. The first task cancelled while it runs; the second still completes.
# shellcheck disable=SC2086
job=$("$bin" fleet submit --nodes 2 --dir "$work/b" --limit 5 \
	--dispatcher shared,inline --workers 1,2 --reps 3 --time 0.3 | head -n 1)
i=0
until [ "$(state "$job" 0)" = RUNNING ]; do
	i=$((i + 1))
	[ "$i" -lt 300 ] || fail "task 0 of job $job never ran"
	sleep 0.1
done
scancel "${job}_0"
echo "cancelled task 0 of job $job"
rc=0
"$bin" fleet collect --dir "$work/b" --job "$job" --timeout 300 \
	-o "$work/b.json" >"$work/b.out" || rc=$?
cat "$work/b.out"
[ "$rc" -eq 1 ] || fail "collect exited $rc, not 1, with a task cancelled"
grep -q '^0 .*CANCELLED' "$work/b.out" || fail "task 0 is not named cancelled"
grep -q '^1 .*COMPLETED' "$work/b.out" || fail "task 1 did not complete"
# Task 0 may have written part of its sweep before it was cancelled
# (merged, marked partial); task 1's whole results must be there.
grep -q -- "-$job-1.json\"" "$work/b.json" ||
	fail "task 1's results are not in the merged file"
echo "fleet on Slurm: ok"
