#!/bin/sh
# pair against ab on the same budget, at shared --workers 8, with the tests'
# tampered queue as both arms: slow_b SPINS turns of an empty loop slower a
# push than slow_a (0: A/A). One line per campaign and method: the ratio,
# its interval, the change it could have seen, the verdict.
#   sh scripts/pair-vs-ab.sh BUILD CAMPAIGNS BUDGET SPINS...
#   sh scripts/pair-vs-ab.sh build 3 2m 0 5 13 55
set -eu
build=$1
n=$2
budget=$3
shift 3
bin=$build/bench/dispatchbench
lib=$build/tests/libtampered.so
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export SLOW_A_SPINS=0
echo "spins,campaign,method,ratio,lo,hi,could_see,verdict"
for spins in "$@"; do
	export SLOW_B_SPINS="$spins"
	i=1
	while [ "$i" -le "$n" ]; do
		"$bin" pair --a "$lib:slow_a" --b "$lib:slow_b" --workers 8 \
			--pairs 20 --time 0.1 --threshold 1 --budget "$budget" \
			2>/dev/null | sed -n \
			-e 's/^B\/A \([0-9.]*\) \[\([0-9.]*\), \([0-9.]*\)\].*could see changes of \([0-9.inf]*\) %$/\1,\2,\3,\4/p' \
			-e 's/^verdict: \([a-z]*\).*/\1/p' | paste -sd, - |
			sed "s/^/$spins,$i,pair,/"
		"$bin" ab --a "$bin --queue $lib:slow_a" --b "$bin --queue $lib:slow_b" \
			--dispatcher shared --workers 8 --threshold 1 --budget "$budget" \
			--format csv --out "$out/ab.json" 2>/dev/null |
			awk -F, -v s="$spins" -v i="$i" 'NR == 2 { printf "%s,%s,ab,%.4f,%.4f,%.4f,%s,%s\n", s, i, $9, $10, $11, $27 == "" ? "-" : sprintf("%.2f", 100 * $27), $29 }'
		i=$((i + 1))
	done
done
