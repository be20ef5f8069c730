#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Cold start + one SubnGet: our tools against infiniband-diags 44 on the same simulated
# node in the same run, alternating, N runs each; prints min and median wall time (ms) and
# the ratio ours/reference (target: <= 1.00).
# Usage: sh bench/bench-tools.sh BUILDDIR [N]
set -eu
b=$(cd "$1" && pwd)
n=${2:-40}
top=$(cd "$(dirname "$0")/.." && pwd)
top_srcdir=$top
. "$top/tests/fabric/fabric.sh"
fabric_require ibaddr smpquery
. "$top/tests/fabric/our-tool.sh"

fabric_start "$top/tests/fabric/topo/two-switch.net"
work=$FABRIC_DIR/bench-tools
mkdir -p "$work/lib"
# Our libraries in one directory, as an installation has them (a search path of five build
# directories would make the dynamic loader probe each of them for every library); only
# our runs get it.
for d in libibstruct libibpath libibmadrpc libibsched libibsa libibtopo; do
	for f in "$b/$d/.libs/$d".so*; do ln -sf "$f" "$work/lib/"; done
done

# time_runs FILE HOST CMD...: appends the wall time of one run in microseconds to FILE.
time_run() {
	_f=$1 _h=$2
	shift 2
	_t0=$(date +%s%N)
	fabric_run "$_h" "$@" > /dev/null 2>&1 || { echo "bench-tools: failed: $*" >&2; exit 1; }
	_t1=$(date +%s%N)
	echo $(((_t1 - _t0) / 1000)) >> "$_f"
}

stats() { # FILE: "min median" in ms
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.2f %.2f", v[1] / 1000, m / 1000 }'
}

bench() { # TITLE TOOL ARGS...
	_title=$1 _tool=$2
	shift 2
	: > "$work/ref"
	: > "$work/ours"
	_o=$(our_tool "$b" "$_tool")
	# warm the page cache for both
	fabric_run hca-a1 "$FABRIC_REF/$_tool" "$@" > /dev/null 2>&1 || :
	# only tools linked to our shared libraries (--enable-shared-tools) need them found: a
	# search path would cost the others lookups too
	case $_o in */.libs/*) ourlib=$work/lib ;; *) ourlib= ;; esac
	LD_LIBRARY_PATH=$ourlib fabric_run hca-a1 "$_o" "$@" > /dev/null 2>&1 || :
	i=0
	while [ "$i" -lt "$n" ]; do
		time_run "$work/ref" hca-a1 "$FABRIC_REF/$_tool" "$@"
		LD_LIBRARY_PATH=$ourlib time_run "$work/ours" hca-a1 "$_o" "$@"
		i=$((i + 1))
	done
	set -- $(stats "$work/ref") $(stats "$work/ours")
	awk -v t="$_title" -v rmin="$1" -v rmed="$2" -v omin="$3" -v omed="$4" -v n="$n" 'BEGIN {
		printf "  %-26s reference min %6.2f ms median %6.2f ms | ours min %6.2f ms median %6.2f ms | median ratio %.2f (%d runs each)\n",
			t, rmin, rmed, omin, omed, omed / rmed, n }'
}

echo "== tools: cold start + one SubnGet on the simulated fabric (two-switch, SIM_HOST hca-a1)"
bench "ibaddr" ibaddr
bench "ibaddr <lid 1>" ibaddr 1
bench "smpquery nodeinfo <lid 1>" smpquery nodeinfo 1
fabric_stop
