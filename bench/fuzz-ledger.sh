#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `make fuzz-long` in pieces, for a machine that is not yours for the 15-odd hours the
# whole of it takes on two cores: each target is fuzzed in slices of at most SECONDS
# (tests/fuzz/run-fuzz.sh's long mode, FUZZ_LONG_SECONDS), every finished slice is written
# to a ledger, and the next call goes on where the ledger stands, from the corpus the slices
# before it grew, until the target has RUNS executions in all.  A slice cut off (the machine
# stopped, ^C) is lost, not miscounted: only what libFuzzer reported at a slice's end counts.
#
# The ledger (OUTDIR/ledger) has a line per slice:
#   <date> <target> <executions> <seconds> <findings> <exit status> <sources>
# where <sources> names the fuzzed code (a hash of the committed tree of the libraries,
# tests/fuzz and the tools' sources the targets build).  Only slices of the sources the
# binaries in OUTDIR were built from count: a change to the fuzzed code starts the count
# again (the old lines stay, as history).
#
# Usage: sh bench/fuzz-ledger.sh [-n RUNS] [-s SECONDS] [-B] [-l] OUTDIR [TARGET...]
#   -n RUNS      executions per target in all (default 10000000)
#   -s SECONDS   the longest slice (default 1200)
#   -B           build the binaries again from this checkout (done anyway when OUTDIR has
#                none)
#   -l           print the ledger's totals and exit
#   TARGET       the targets (default: every target of run-fuzz.sh), fuzzed in this order
# Exit status: 0 when every target named has RUNS executions with no finding, 1 on a
# finding or a failed build (its input is in OUTDIR/found-TARGET/), 2 on a usage error, 3
# when interrupted.
#
# Example: nohup nice -n 19 sh bench/fuzz-ledger.sh /var/tmp/fuzz fuzz-perlre fuzz-madrpc &
set -u
runs=10000000 slice=1200 rebuild=0 list=0
usage() {
	echo "usage: $0 [-n RUNS] [-s SECONDS] [-B] [-l] OUTDIR [TARGET...]" >&2
	exit 2
}
while getopts n:s:Bl opt; do
	case $opt in
	n) runs=$OPTARG ;;
	s) slice=$OPTARG ;;
	B) rebuild=1 ;;
	l) list=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
case $runs$slice in *[!0-9]* | '') usage ;; esac
if [ "$runs" -lt 1 ] || [ "$slice" -lt 1 ]; then usage; fi
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1" || exit 2
out=$(cd "$1" && pwd)
shift
# (run-fuzz.sh's TARGETS list, its quotes and line continuations dropped)
# shellcheck disable=SC1003 # (a backslash, not a quote)
all=$(sed -n '/^TARGETS="/,/"$/p' "$top/tests/fuzz/run-fuzz.sh" | tr -d '"\\' | sed 's/^TARGETS=//' | tr '\n' ' ')
[ -n "$all" ] || { echo "fuzz-ledger: cannot read the targets of tests/fuzz/run-fuzz.sh" >&2; exit 2; }
# shellcheck disable=SC2086 # (the list is split into words on purpose)
[ $# -ge 1 ] || set -- $all
for t in "$@"; do
	case " $all " in *" $t "*) ;; *) echo "fuzz-ledger: no target $t (targets: $all)" >&2; exit 2 ;; esac
done
ledger=$out/ledger
touch "$ledger" || exit 2

# sources: the id of the committed code the targets are built from
sources() {
	git -C "$top" ls-tree -r HEAD -- libibstruct libibpath libibmadrpc libibsched libibsa libibtopo \
		tests/fuzz tests/topo utils/common utils/decode_mad.c | sha1sum | cut -c1-12
}

# total TARGET FIELD: the sum of a ledger field over TARGET's slices of the built sources
total() {
	awk -v t="$1" -v s="$built" -v f="$2" '$2 == t && $7 == s { n += $f } END { print n + 0 }' "$ledger"
}

if [ "$list" = 1 ]; then
	[ -f "$out/sources" ] && built=$(cat "$out/sources") || built=none
	printf '%-20s %12s %9s %8s  (sources %s)\n' target executions seconds findings "$built"
	for t in "$@"; do
		printf '%-20s %12s %9s %8s\n' "$t" "$(total "$t" 3)" "$(total "$t" 4)" "$(total "$t" 5)"
	done
	exit 0
fi

if ! git -C "$top" diff --quiet HEAD -- libibstruct libibpath libibmadrpc libibsched libibsa libibtopo \
	tests/fuzz tests/topo utils/common utils/decode_mad.c; then
	echo "fuzz-ledger: the fuzzed sources have uncommitted changes: commit them first, so that the ledger names what it fuzzed" >&2
	exit 2
fi
now=$(sources)
if [ "$rebuild" = 1 ] || [ ! -f "$out/sources" ] || [ ! -x "$out/fuzz-ibstruct" ]; then
	echo "fuzz-ledger: building the targets in $out"
	# (one execution of each target: the build, and a check that every binary runs)
	rm -f "$out/sources"
	top_srcdir=$top FUZZ_OUT=$out FUZZ_RUNS=1 sh "$top/tests/fuzz/run-fuzz.sh" >"$out/build.log" 2>&1 ||
		{ echo "fuzz-ledger: the build failed (see $out/build.log)" >&2; exit 1; }
	echo "$now" >"$out/sources"
fi
built=$(cat "$out/sources")
[ "$built" = "$now" ] ||
	echo "fuzz-ledger: note: the binaries were built from sources $built, this checkout is $now (-B rebuilds)"

trap 'echo "fuzz-ledger: interrupted; the slice running is not counted"; exit 3' INT TERM HUP
for t in "$@"; do
	while :; do
		have=$(total "$t" 3)
		[ "$have" -lt "$runs" ] || break
		# the slice: the rest of RUNS, stopped after SECONDS (FUZZ_BUILD=0: the binaries as built)
		top_srcdir=$top FUZZ_OUT=$out FUZZ_BUILD=0 FUZZ_TARGETS=$t FUZZ_RUNS=$((runs - have)) \
			FUZZ_LONG_SECONDS=$slice sh "$top/tests/fuzz/run-fuzz.sh" >"$out/slice.log" 2>&1
		rc=$?
		# "=== T: exit N, E executions, R exec/s, Ss, cov: C, U new units, F finding(s)"
		line=$(grep "^=== $t: exit " "$out/slice.log" | tail -n 1)
		execs=$(printf '%s\n' "$line" | sed -n 's/.*, \([0-9]*\) executions,.*/\1/p')
		secs=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\)s, cov.*/\1/p')
		finds=$(printf '%s\n' "$line" | sed -n 's/.*, \([0-9]*\) finding(s).*/\1/p')
		if [ -z "$execs" ] || [ -z "$secs" ] || [ -z "$finds" ]; then
			echo "fuzz-ledger: $t: the slice printed no summary (exit $rc); its log:" >&2
			tail -n 30 "$out/slice.log" >&2
			exit 1
		fi
		echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $t $execs $secs $finds $rc $built" >>"$ledger"
		echo "$line (in all $((have + execs)) of $runs)"
		if [ "$rc" != 0 ] || [ "$finds" != 0 ]; then
			echo "fuzz-ledger: $t: a finding (exit $rc), kept in $out/found-$t/:" >&2
			tail -n 40 "$out/slice.log" >&2
			exit 1
		fi
		# a slice that executed nothing would loop for ever
		[ "$execs" -gt 0 ] || { echo "fuzz-ledger: $t: a slice ran no input" >&2; exit 1; }
	done
done
exit 0
