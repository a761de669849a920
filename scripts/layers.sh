#!/bin/sh
# Counts the includes that run from a lower layer of the suite to a higher
# one: each such `#include "x.h"` as `FILE -> HEADER (layer -> layer)`,
# then their number. A header is found by its name, which is one file's
# in the tree. The layers, lowest first:
#   include (the installed interface), queues, dispatchers, runtimes,
#   bench/fields and bench/table, bench/measure, bench/param, bench/analyse, bench/history and
#   bench/fleet, bench (the tool: cli, runner, value, ...), bench/commands,
#   bench/main.c
#
#   sh scripts/layers.sh [-q]      (-q: the number alone)
set -eu

cd "$(dirname "$0")/.."

layer() {
	case $1 in
	include/*) echo 0 ;;
	queues/*) echo 1 ;;
	dispatchers/*) echo 2 ;;
	runtimes/*) echo 3 ;;
	bench/fields/* | bench/table/*) echo 4 ;;
	bench/measure/*) echo 5 ;;
	bench/param/*) echo 6 ;;
	bench/analyse/*) echo 7 ;;
	bench/history/* | bench/fleet/*) echo 8 ;;
	bench/commands/*) echo 10 ;;
	bench/main.c) echo 11 ;;
	bench/*) echo 9 ;;
	*) echo -1 ;;
	esac
}

files=$(find include queues dispatchers runtimes bench -name '*.[ch]' |
	sort)
n=0
for f in $files; do
	from=$(layer "$f")
	for h in $(sed -n 's/^#include "\(.*\)"$/\1/p' "$f"); do
		to=$(printf '%s\n' $files | grep "/$(basename "$h")\$" | head -n 1)
		[ -n "$to" ] || continue
		up=$(layer "$to")
		if [ "$up" -gt "$from" ]; then
			n=$((n + 1))
			[ "${1:-}" = -q ] || echo "$f -> $to ($from -> $up)"
		fi
	done
done
echo "$n"
