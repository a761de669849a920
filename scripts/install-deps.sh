#!/bin/sh
# Installs, from Debian's packages, whatever the build, the tests and the
# plots need and this machine lacks. Run as root (or through sudo). gdb
# takes a hung run's stacks; libbenchmark-tools and python3-scipy are
# google-benchmark's compare.py, which a test reads the gbench export with.
set -eu

need="cmake make gcc pkg-config git libck-dev libhwloc-dev libcjson-dev libcriterion-dev gnuplot-nox gdb libbenchmark-tools python3-scipy"
missing=""
for p in $need; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
