#!/bin/sh
# pair against ab on the same budget, at shared --workers 8, with the tests'
# tampered queue as both arms: slow_b SPINS turns of an empty loop slower a
# push than slow_a (0: A/A). A round runs every level once, in the order
# given, so drift over the hours spreads over the levels alike and a campaign
# cut short stays balanced. One line per campaign and method: the ratio, its
# interval, the change it could have seen, the verdict; each method's results
# file goes to KEEP (a folder), when set, for the long-run calibration.
# FIRST numbers the rounds from another than 1, to go on with a campaign.
#   sh scripts/pair-vs-ab.sh BUILD ROUNDS BUDGET SPINS...
#   KEEP=raw sh scripts/pair-vs-ab.sh build 10 2m 0 11 18 0 45
set -eu
build=$1
n=$2
budget=$3
shift 3
bin=$build/bench/dispatchbench
lib=$build/tests/libtampered.so
keep=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$keep"' EXIT
mkdir -p "$keep"
export SLOW_A_SPINS=0
i=${FIRST:-1}
[ "$i" -gt 1 ] || echo "spins,campaign,method,ratio,lo,hi,could_see,verdict"
while [ "$i" -lt "$((${FIRST:-1} + n))" ]; do
	j=1
	for spins in "$@"; do
		export SLOW_B_SPINS="$spins"
		tag=$spins-$i-$j
		"$bin" pair --a "$lib:slow_a" --b "$lib:slow_b" --workers 8 \
			--pairs 20 --time 0.1 --threshold 1 --budget "$budget" \
			--out "$keep/pair-$tag.json" 2>/dev/null | sed -n \
			-e 's/^B\/A \([0-9.]*\) \[\([0-9.]*\), \([0-9.]*\)\].*could see changes of \([0-9.inf]*\) %$/\1,\2,\3,\4/p' \
			-e 's/^verdict: \([a-z]*\).*/\1/p' | paste -sd, - |
			sed "s/^/$spins,$i,pair,/"
		"$bin" ab --a "$bin --queue $lib:slow_a" --b "$bin --queue $lib:slow_b" \
			--dispatcher shared --workers 8 --threshold 1 --budget "$budget" \
			--format csv --out "$keep/ab-$tag.json" 2>/dev/null |
			awk -F, -v s="$spins" -v i="$i" 'NR == 2 { printf "%s,%s,ab,%.4f,%.4f,%.4f,%s,%s\n", s, i, $9, $10, $11, $27 == "" ? "-" : sprintf("%.2f", 100 * $27), $29 }'
		j=$((j + 1))
	done
	i=$((i + 1))
done
