#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The fabric-wide tools benchmark (issue 11): our ibnetdiscover, iblinkinfo, ibqueryerrors
# and dump_fts against infiniband-diags 44 on the same generated fat tree (default about
# 2,000 nodes), each tool live and from a cache file (--load-cache), alternating ours and
# the reference in one run.  Prints per case the median wall time of each side, the median
# ratio ours/reference, and PASS when ours is faster (ratio < 1: libibtopo's discovery
# speed must show in every tool built on it).  Outputs are compared too (same bytes, with
# the date line of ibnetdiscover normalised): a case whose outputs differ is reported.
# Always exits 0 (a benchmark reports).  See bench/README.md.
#
# Usage: sh bench/bench-disc-tools.sh [BUILDDIR]
# Environment:
#   BENCH_TREE="80 24 16"   gen-fat-tree.sh arguments (LEAVES HCAS SPINES): 2016 nodes
#   BENCH_RUNS=5            runs per side and case
#   BENCH_HOST=ft-h001      the node the tools run on
#   BENCH_CASES             a file of cases ("name|tool args", @CACHE@ = a reference cache
#                           file of the fabric) instead of the built-in list
set -u
b=$(cd "${1:-.}" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${BENCH_TREE:-80 24 16}
runs=${BENCH_RUNS:-5}
host=${BENCH_HOST:-ft-h001}
top_srcdir=$top
. "$top/tests/fabric/fabric.sh"
fabric_require
. "$top/tests/fabric/our-tool.sh"

work=$(mktemp -d "${IBMGMT_FABRIC_TMPDIR:-/dev/shm}/bench-disc.XXXXXX" 2> /dev/null) ||
	work=$(mktemp -d) || exit 0
trap 'fabric_stop; rm -rf "$work"' EXIT INT TERM

# shellcheck disable=SC2086 # the tree's three numbers
sh "$top/tests/fabric/topo/gen-fat-tree.sh" $tree > "$work/fabric.net" || { echo "bench-disc-tools: gen-fat-tree failed"; exit 0; }
nodes=$(grep -c '^\(Switch\|Hca\)' "$work/fabric.net")
: "${IBMGMT_FABRIC_TIMEOUT:=$((60 + nodes / 50))}"
export IBMGMT_FABRIC_TIMEOUT
fabric_start "$work/fabric.net" || { echo "bench-disc-tools: the fabric did not start"; exit 0; }

# Our tools as built (shared-tools builds: the real binary and our libraries).
mkdir -p "$work/lib"
for d in libibstruct libibpath libibmadrpc libibsched libibsa libibtopo; do
	for f in "$b/$d/.libs/$d".so*; do [ -e "$f" ] && ln -sf "$f" "$work/lib/"; done
done

cache=$work/ref.cache
fabric_run "$host" "$FABRIC_REF/ibnetdiscover" --cache "$cache" > /dev/null 2>&1
[ -s "$cache" ] || { echo "bench-disc-tools: the reference could not write a cache file"; exit 0; }

if [ -n "${BENCH_CASES:-}" ]; then
	cp "$BENCH_CASES" "$work/cases"
else
	cat > "$work/cases" <<'EOF'
ibnetdiscover|ibnetdiscover
ibnetdiscover -o 64|ibnetdiscover -o 64
ibnetdiscover --load-cache|ibnetdiscover --load-cache @CACHE@
iblinkinfo|iblinkinfo
iblinkinfo --load-cache|iblinkinfo --load-cache @CACHE@
ibqueryerrors|ibqueryerrors
ibqueryerrors --load-cache|ibqueryerrors --load-cache @CACHE@
dump_fts|dump_fts
EOF
fi

median() { # FILE: the median of the numbers in FILE
	sort -g "$1" | awk 'NF { v[++n] = $1 } END {
		if (!n) { print "n/a"; exit } print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# one SIDE TOOLPATH ARGS...: one timed run, seconds appended to $work/SIDE.t, output kept
one() {
	_side=$1
	shift
	_t0=$(date +%s%N)
	if [ "$_side" = ours ]; then
		LD_LIBRARY_PATH=$work/lib fabric_run "$host" "$@" > "$work/$_side.out" 2> "$work/$_side.err"
	else
		fabric_run "$host" "$@" > "$work/$_side.out" 2> "$work/$_side.err"
	fi
	_rc=$?
	_t1=$(date +%s%N)
	echo "$_rc" > "$work/$_side.rc"
	awk -v ns=$((_t1 - _t0)) 'BEGIN { printf "%.6f\n", ns / 1e9 }' >> "$work/$_side.t"
}

norm() { sed -e 's/^# Topology file: generated on .*/# Topology file: generated on DATE/' "$1"; }

echo "== fabric-wide tools on a generated fat tree ($tree: $nodes nodes), attached to $host, $runs runs each"
printf '  %-30s %12s %12s %8s %s\n' case "reference s" "ours s" ratio verdict
pass=0 miss=0
while IFS='|' read -r name cmd; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086 # the case's words
	set -- $cmd
	tool=$1
	shift
	ours=$(our_tool "$b" "$tool" 2> /dev/null)
	if [ ! -x "$ours" ]; then
		printf '  %-30s %s\n' "$name" "(ours not built: skipped)"
		continue
	fi
	args=$(printf '%s' "$*" | sed "s#@CACHE@#$cache#g")
	: > "$work/ours.t"
	: > "$work/ref.t"
	diff=
	i=0
	while [ "$i" -lt "$runs" ]; do
		# shellcheck disable=SC2086 # the case's arguments
		if [ $((i % 2)) = 0 ]; then
			one ref "$FABRIC_REF/$tool" $args
			one ours "$ours" $args
		else
			one ours "$ours" $args
			one ref "$FABRIC_REF/$tool" $args
		fi
		norm "$work/ref.out" > "$work/ref.norm"
		norm "$work/ours.out" | cmp -s - "$work/ref.norm" || diff=" (outputs differ)"
		cmp -s "$work/ours.rc" "$work/ref.rc" || diff=" (exit status differs: ours $(cat "$work/ours.rc"), reference $(cat "$work/ref.rc"))"
		i=$((i + 1))
	done
	r=$(median "$work/ref.t")
	o=$(median "$work/ours.t")
	awk -v n="$name" -v r="$r" -v o="$o" -v d="$diff" 'BEGIN {
		ratio = (r > 0) ? o / r : 0
		printf "  %-30s %12.3f %12.3f %8.2f %s%s\n", n, r, o, ratio, (ratio < 1) ? "PASS" : "MISS", d }'
	if awk -v r="$r" -v o="$o" 'BEGIN { exit !(o < r) }'; then pass=$((pass + 1)); else miss=$((miss + 1)); fi
done < "$work/cases"
echo "  target: ours faster than the reference in every case: $pass PASS, $miss MISS"
exit 0
