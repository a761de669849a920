#!/bin/sh
# Counts the places that spell a run's field by hand: each string literal
# in bench/ that is exactly the key of a field of bench/fields/runfields.h,
# outside that list, as `FILE:LINE "key"`, then their number and the
# files they are in. RF(key) is how the suite names one.
#
#   sh scripts/field-keys.sh [-q]      (-q: the two numbers alone)
set -eu

cd "$(dirname "$0")/.."

keys=$(sed -n 's/^[[:space:]]*X(\([a-z_0-9]*\), .*/\1/p' bench/fields/runfields.h |
	paste -sd'|')
hits=$(grep -rnoE "\"($keys)\"" bench --include='*.[ch]' |
	grep -v '^bench/fields/' || true)
[ "${1:-}" = -q ] || { [ -z "$hits" ] || printf '%s\n' "$hits"; }
printf '%s\n' "$hits" | grep -c . || true
printf '%s\n' "$hits" | grep . | cut -d: -f1 | sort -u | wc -l
