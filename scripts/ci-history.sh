#!/bin/sh
# A merge's benchmark job for any CI: builds the checked-out revision, runs
# the sweep with the options given, keeps its results in the history store
# and fails when a cell got worse at this merge (docs/history.md).
#   sh scripts/ci-history.sh STORE [run options]
# STORE is the one file the job keeps between runs; the results files it
# writes under results/ are the record the store can be rebuilt from.
# Exit: 0 no fresh step, 1 a cell got worse here (or a run failed), 2 bad
# input.
set -eu

db=${1:?usage: ci-history.sh STORE [run options]}
shift
cd "$(git rev-parse --show-toplevel)"
rev=$(git rev-parse --short HEAD)
name="$(date -u +%Y-%m-%d)-$(hostname -s)-$rev"
bin=./build/bench/dispatchbench

cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)" --target dispatchbench >/dev/null
mkdir -p results
"$bin" run --quiet --host quiet --out "results/$name.json" "$@"
"$bin" store add --db "$db" "results/$name.json"
"$bin" history --db "$db" --format markdown --fail-on-step \
	-o "results/trend-$rev" >"results/history-$rev.md"
