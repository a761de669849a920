#!/bin/sh
# Installs, from Debian's packages, whatever the build and the plots need
# and this machine lacks; with "tests", what the tests need as well. Run as
# root (or through sudo). gdb takes a hung run's stacks. GLib, libuv and
# liburcu are the real runtimes run beside the models (a build without them
# leaves them out). Valgrind's callgrind counts instructions where the
# machine has no PMU (--metric instructions). With "programs", the toolchains of the real runtimes
# of other languages too. For the tests (which take those as well):
# google-benchmark's compare.py (libbenchmark-tools, python3-scipy) reads
# the gbench export, and headless Chromium loads the HTML report.
set -eu

need="cmake make gcc g++ pkg-config git libck-dev libhwloc-dev libcjson-dev libsqlite3-dev libpfm4-dev libcriterion-dev gnuplot-nox gdb libglib2.0-dev libuv1-dev liburcu-dev libboost-context-dev valgrind"
# The real runtimes of other languages, each a program of its own
# (docs/external.md): Go, Tokio (built offline from Debian's crates), and
# kotlinx.coroutines and Netty on the JVM (kotlin for its stdlib jar).
programs="golang-go librust-tokio-dev libkotlinx-coroutines-java libkotlinx-atomicfu-java kotlin libnetty-java"
command -v cargo >/dev/null 2>&1 || programs="$programs cargo"
command -v javac >/dev/null 2>&1 || programs="$programs default-jdk-headless"
case "${1:-}" in
tests)
	need="$need libbenchmark-tools python3-scipy chromium $programs" ;;
programs)
	need="$need $programs" ;;
esac
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
