#!/bin/sh
# The controls that show `ab`'s verdict can be trusted on this machine:
#  - A/A: the same binary against itself, CAMPAIGNS times; every cell must
#    come out equivalent or inconclusive. Prints the false-alarm rate.
#  - payload: B adds 30 ns of busy work to every resumption; must regress,
#    and the interval should hold (base + 30 ns) / base.
# Usage: sh scripts/controls.sh [BINARY] [CAMPAIGNS] [OUTDIR]
set -u

bin=${1:-build/bench/dispatchbench}
campaigns=${2:-10}
out=${3:-build/controls}
cells="--dispatcher shared,limited,eventloop --workers 2,8 --reps 6 --warmup 0.1 --time 0.3 --quiet"
mkdir -p "$out"

alarms=0
total=0
i=1
while [ "$i" -le "$campaigns" ]; do
	"$bin" ab --a "$bin" --b "$bin" $cells --out "$out/aa$i" > "$out/aa$i.txt"
	n=$(grep -cE " (equivalent|inconclusive|regressed|improved|broken)" "$out/aa$i.txt")
	bad=$(grep -cE " (regressed|improved|broken)" "$out/aa$i.txt")
	total=$((total + n))
	alarms=$((alarms + bad))
	echo "A/A campaign $i: $bad false alarms in $n cells"
	i=$((i + 1))
done
echo "A/A: $alarms false alarms in $total cell comparisons"

"$bin" ab --a "$bin" --b "$bin --payload-ns 30" --dispatcher shared,inline \
    --workers 1 --reps 6 --warmup 0.1 --time 0.3 --quiet --out "$out/payload" |
    grep -E "w=1|cells"
