#!/bin/sh
# Builds a git revision of dispatchbench into a folder of its own, so two
# builds can be measured against each other with `dispatchbench ab`:
#   sh scripts/build-rev.sh main            -> build-rev/main/bench/dispatchbench
#   sh scripts/build-rev.sh HEAD~3 /tmp/old -> /tmp/old/bench/dispatchbench
set -eu

rev=${1:?usage: build-rev.sh REVISION [DIR]}
dir=${2:-build-rev/$(printf '%s' "$rev" | tr '/~^' '___')}
top=$(git rev-parse --show-toplevel)
src=$(mktemp -d)

git -C "$top" archive --format=tar "$rev" | tar -x -C "$src"
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDB_TESTS=OFF \
	-DDB_GIT_REV="$(git -C "$top" rev-parse --short "$rev")" >/dev/null
cmake --build "$dir" -j2 --target dispatchbench >/dev/null
rm -rf "$src"
echo "$dir/bench/dispatchbench"
