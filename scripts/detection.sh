#!/bin/sh
# How small a change `ab` sees on this machine. For each payload that arm B
# adds over arm A's (busy work on every resumption), first the ratio it
# really makes, from one long interleaved campaign (a payload is additive
# only where nothing contends), then CAMPAIGNS short campaigns of REPS runs
# an arm: how many judged the cell regressed, the ratio they recovered and
# the smallest change they said they could see.
#
# Usage: sh scripts/detection.sh BINARY CAMPAIGNS REPS 'CELL OPTIONS' BASE_NS NS...
#   sh scripts/detection.sh build/bench/dispatchbench 10 6 \
#       '--dispatcher inline --threshold 1' 100 102 105 120 150
set -u

bin=$1 campaigns=$2 reps=$3 cell=$4 base=$5
shift 5
out=${DETECTION_OUT:-build/detection}
window="--warmup 0.2 --time 0.5"
mkdir -p "$out"

# One comparison's row (CSV) by column name: ratio, verdict, ...
field() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
	    NR == 2 { v = $col[name]; gsub(/"/, "", v); print v }' "$1"
}

printf '%8s %10s %9s %10s %12s %12s\n' payload expected regressed \
    "ratio med" "ratio range" "sees (med)"
for ns in "$@"; do
	"$bin" ab --a "$bin --payload-ns $base" --b "$bin --payload-ns $ns" \
	    $cell --reps 20 $window --format csv --out "$out/long-$ns.json" \
	    >"$out/long-$ns.csv" 2>/dev/null
	expected=$(field "$out/long-$ns.csv" ratio)
	hits=0 ratios="" sees=""
	i=1
	while [ "$i" -le "$campaigns" ]; do
		"$bin" ab --a "$bin --payload-ns $base" \
		    --b "$bin --payload-ns $ns" $cell --reps "$reps" $window \
		    --format csv --out "$out/c$ns-$i.json" >"$out/c$ns-$i.csv" \
		    2>/dev/null
		[ "$(field "$out/c$ns-$i.csv" verdict)" = regressed ] &&
			hits=$((hits + 1))
		ratios="$ratios $(field "$out/c$ns-$i.csv" ratio)"
		sees="$sees $(field "$out/c$ns-$i.csv" smallest_detectable)"
		i=$((i + 1))
	done
	printf '%8s %10.4f %6d/%-2d %10.4f %12s %11.2f%%\n' "$ns" "$expected" \
	    "$hits" "$campaigns" \
	    "$(echo $ratios | tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 }
	        END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')" \
	    "$(echo $ratios | tr ' ' '\n' | sort -g | awk 'NR == 1 { lo = $1 }
	        { hi = $1 } END { printf "%.3f-%.3f", lo, hi }')" \
	    "$(echo $sees | tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 * 100 }
	        END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')"
done
