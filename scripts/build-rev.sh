#!/bin/sh
# Builds a git revision of dispatchbench into a folder of its own, so two
# builds can be measured against each other with `dispatchbench ab`:
#   sh scripts/build-rev.sh main            -> build-rev/main/bench/dispatchbench
#   sh scripts/build-rev.sh HEAD~3 /tmp/old -> /tmp/old/bench/dispatchbench
# A folder that holds a build of the same commit already is reused (its
# .revision names the commit): bisect builds each revision once.
set -eu

rev=${1:?usage: build-rev.sh REVISION [DIR]}
dir=${2:-build-rev/$(printf '%s' "$rev" | tr '/~^' '___')}
top=$(git rev-parse --show-toplevel)
sha=$(git -C "$top" rev-parse --verify "$rev^{commit}")

if [ -x "$dir/bench/dispatchbench" ] && [ "$(cat "$dir/.revision" 2>/dev/null)" = "$sha" ]; then
	echo "$dir/bench/dispatchbench"
	exit 0
fi
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git -C "$top" archive --format=tar "$sha" | tar -x -C "$src"
# A folder built from another commit is configured again from this one.
rm -rf "$dir/.revision" "$dir/CMakeCache.txt" "$dir/CMakeFiles"
# The programs of other languages stay out: their toolchains would take
# minutes a revision, and a revision changes the suite, not Go or Tokio.
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDB_TESTS=OFF \
	-DDB_WITH_PROGRAMS=OFF \
	-DDB_GIT_REV="$(git -C "$top" rev-parse --short "$sha")" \
	-DDB_GIT_TIME="$(TZ=UTC git -C "$top" show -s \
		--date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd "$sha")" \
	-DDB_GIT_DEPTH="$(git -C "$top" rev-list --first-parent --count "$sha")" \
	>/dev/null
# Everything, the example plugins too: bisect --pair loads one.
cmake --build "$dir" -j2 >/dev/null
echo "$sha" >"$dir/.revision"
echo "$dir/bench/dispatchbench"
