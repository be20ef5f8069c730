#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs the benchmarks against infiniband-diags/libibmad in the same run and prints ratios.
# Usage: sh bench/run-bench.sh [builddir]   (or: make bench)
set -eu
b=$(cd "${1:-.}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)

# pin_sim: pins the running fabric's ibsim to the first CPU this script may use and prints
# the prefix that runs a client there ("taskset -c N"); prints nothing without taskset.
# A round trip is a hand-over between the client and ibsim: on one CPU a direct wake-up
# (~8 us), across CPUs a wait for an idle CPU to wake (~60 us), and which of the two an
# unpinned run gets is luck (see README.md).
pin_sim() {
	command -v taskset > /dev/null 2>&1 || return 0
	_cpu=$(taskset -cp $$ | sed 's/.*: *//; s/[-,].*//')
	taskset -cp "$_cpu" "$FABRIC_SIM_PID" > /dev/null && echo "taskset -c $_cpu"
}
echo "== libibstruct decode: unpack + every field, ours vs libibmad mad_decode_field"
"$b/bench/bench-ibstruct"
if [ -x "$b/bench/bench-madrpc" ]; then
	echo
	echo "== libibmadrpc: synchronous SubnGet(NodeInfo) round trips on the simulated fabric"
	top_srcdir=$top
	. "$top/tests/fabric/fabric.sh"
	fabric_require
	fabric_start "$top/tests/fabric/topo/two-switch.net"
	pin=$(pin_sim)
	[ -n "$pin" ] && echo "  ibsim and the clients pinned to CPU ${pin##* }"
	l=0; o=0; : > "$FABRIC_DIR/ratios"
	for round in 1 2 3 4 5 6 7 8 9; do
		x=$(fabric_run hca-a1 $pin "$b/bench/bench-madrpc" libibmad 1 20000)
		y=$(fabric_run hca-a1 $pin "$b/bench/bench-madrpc" ours 1 20000)
		echo "  round $round: libibmad $x/s, ours $y/s"
		[ "$x" -gt "$l" ] && l=$x
		[ "$y" -gt "$o" ] && o=$y
		awk -v x="$x" -v y="$y" 'BEGIN { printf "%.3f\n", y / x }' >> "$FABRIC_DIR/ratios"
	done
	# round trips on a small VM swing with scheduling: the median of the per-round ratios
	# says more than the best of each
	sort -n "$FABRIC_DIR/ratios" | awk '{ v[NR] = $1 } END { printf "median ratio ours/libibmad over %d rounds: %.2f (target >= 1.00)\n", NR, v[int((NR + 1) / 2)] }'
	fabric_stop
	awk -v l="$l" -v o="$o" 'BEGIN { printf "best: libibmad %d/s, ours %d/s, ratio ours/libibmad %.2f (target >= 1.00)\n", l, o, o / l }' 
fi
if [ -x "$b/bench/bench-sched" ]; then
	echo
	echo "== libibsched: PortInfo of every port of a 1024-node fat tree (NodeInfo first)"
	top_srcdir=$top
	. "$top/tests/fabric/fabric.sh"
	fabric_require
	# 48 leaves x 20 HCAs + 16 spines: 960 HCAs, 64 switches (generated, not committed)
	net=$(mktemp "${TMPDIR:-/tmp}/ibmgmt-ft1024.XXXXXX")
	sh "$top/tests/fabric/topo/gen-fat-tree.sh" 48 20 16 > "$net"
	n=$(fabric_count_nodes "$net")
	IBMGMT_FABRIC_TIMEOUT=${IBMGMT_FABRIC_TIMEOUT:-180} fabric_start "$net"
	# twice: free (the scheduler may use both CPUs) and pinned (see pin_sim): sequential
	# round trips differ by ~8x between the two
	for mode in free pinned; do
		pin=
		if [ $mode = pinned ]; then
			pin=$(pin_sim)
			[ -n "$pin" ] || break
		fi
		ref=$(fabric_run ft-h001 $pin "$b/bench/bench-sched" libibmad "$n" | cut -d' ' -f2)
		echo "  [$mode] $n nodes; libibmad smp_query_via, sequential: $ref MADs/s"
		best=0
		for m in 1 4 16 64; do
			r=$(fabric_run ft-h001 $pin "$b/bench/bench-sched" ours "$n" "$m" | cut -d' ' -f2)
			echo "  [$mode] libibsched, max_outstanding $m: $r MADs/s"
			[ "$r" -gt "$best" ] && best=$r
		done
		awk -v l="$ref" -v o="$best" -v m=$mode 'BEGIN { printf "  [%s] best / libibmad: %.2f\n", m, o / l }'
	done
	fabric_stop
	rm -f "$net"
fi
if [ -x "$b/utils/smpquery" ]; then
	echo
	sh "$top/bench/bench-tools.sh" "$b"
fi
if [ -x "$b/tests/topo/topo-dump" ] && [ -x "$b/bench/bench-simrate" ]; then
	echo
	# BENCH_SIZES, BENCH_PAIRS, BENCH_SM, ...: see bench/README.md
	sh "$top/bench/bench-topo.sh" "$b"
fi
if [ -x "$b/utils/ibnetdiscover" ]; then
	echo
	# BENCH_TREE, BENCH_RUNS: see bench/README.md
	sh "$top/bench/bench-disc-tools.sh" "$b"
fi
