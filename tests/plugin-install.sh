#!/bin/sh
# A plugin as a user builds one: install the suite into a fresh prefix,
# compile the example queue against the installed headers through
# pkg-config alone, and verify it with the installed tool. A sanitizer
# build's plugin is compiled with the same -fsanitize (a third argument):
# ThreadSanitizer cannot see the atomics of code it did not instrument.
set -eu
build=$1
src=$2
sanitize=${3:-}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
cflags=$(PKG_CONFIG_PATH="$prefix/share/pkgconfig" pkg-config --cflags dispatchbench)
cc -shared -fPIC -O2 -Wall -Wextra -Werror $sanitize $cflags \
	-o "$prefix/libtwolock.so" "$src/examples/queue/twolock.c"
"$prefix/bin/dispatchbench" verify --queue "$prefix/libtwolock.so" \
	--workers 2 --items 100000
