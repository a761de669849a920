#!/bin/sh
# Counts the objects of a build that a change to FILE recompiles: each
# object whose dependency file (the compiler's, CMake's *.o.d) names FILE,
# by the library or executable it is part of, then their number of all.
#
#   sh scripts/rebuilds.sh BUILD_DIR FILE
set -eu

[ $# -eq 2 ] || { echo "usage: scripts/rebuilds.sh BUILD_DIR FILE" >&2; exit 2; }
build=$1
file=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
deps=$(find "$build" -name '*.o.d' | sort)
[ -n "$deps" ] || { echo "$build: no *.o.d: build it first" >&2; exit 2; }
hits=$(grep -l -F "$file" $deps || true)
printf '%s\n' "$hits" | grep . | sed 's|.*/CMakeFiles/\([^/]*\)\.dir/.*|\1|' |
	sort | uniq -c | sort -rn
echo "$(printf '%s\n' "$hits" | grep -c .) of $(printf '%s\n' "$deps" | grep -c .)"
