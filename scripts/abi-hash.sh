#!/bin/sh
# Each installed header's ABI version and a hash of its tokens (comments
# and layout left out), one line a header: `NAME VERSION SHA256`.
# tests/data/abi.txt keeps every pair a header has had; test_dispatcher
# fails when a header's tokens change under a version already recorded (a
# plugin built against that version would misread the new layout without
# a word). After raising the version of a header that changed:
#   sh scripts/abi-hash.sh >> tests/data/abi.txt
#   sh scripts/abi-hash.sh [INCLUDE_DIR]
set -eu

dir=${1:-$(dirname "$0")/../include/dispatchbench}
for h in "$dir"/*.h; do
	v=$(sed -n 's/^#define DB_[A-Z]*_ABI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' "$h")
	s=$(${CC:-cc} -fpreprocessed -dD -E -P "$h" | tr -s ' \t\n' '   ' |
		sha256sum | cut -c1-64)
	echo "$(basename "$h") ${v:-?} $s"
done
