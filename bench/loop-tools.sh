#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Robustness loop: our fabric-wide tools (and, with -r, infiniband-diags' ones) run N
# times each on a simulated fabric, every run under `timeout`.  Prints per tool the runs,
# the crashes (killed by a signal, or exit status >= 128), the hangs (timeouts), the other
# failures (an exit status the tool does not document for a healthy fabric), the good runs
# whose output differs from the first good run's, and the wall time; exits 1 when any of
# OUR runs crashed, hung or printed something else.  LOOP_CASES: the "tool arguments"
# lines to loop (default: iblinkinfo, ibqueryerrors, ibnetdiscover, dump_fts, ibroute,
# ibtracert).
#
# Usage: sh bench/loop-tools.sh [-r] [-t SECONDS] [-T TOPOLOGY] [-H NODE] BUILDDIR [N]
#   -r           also loop the reference tools (their crashes/hangs are reported, not
#                counted in the exit status: the reference's ibqueryerrors segfaults about
#                once in 400 runs, which is what this loop shows)
#   -t SECONDS   time-out of one run (default 20)
#   -T TOPOLOGY  tests/fabric/topo/TOPOLOGY.net (default two-switch)
#   -H NODE      the node the tools run on (default hca-a1)
#   N            runs per tool (default 10000)
set -u
ref=0 tmo=20 topo=two-switch host=hca-a1
while getopts rt:T:H: opt; do
	case $opt in
	r) ref=1 ;;
	t) tmo=$OPTARG ;;
	T) topo=$OPTARG ;;
	H) host=$OPTARG ;;
	*) echo "usage: $0 [-r] [-t SECONDS] [-T TOPOLOGY] [-H NODE] BUILDDIR [N]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-r] [-t SECONDS] [-T TOPOLOGY] [-H NODE] BUILDDIR [N]" >&2; exit 2; }
b=$(cd "$1" && pwd) || exit 2
n=${2:-10000}
top=$(cd "$(dirname "$0")/.." && pwd)
top_srcdir=$top
. "$top/tests/fabric/fabric.sh"
fabric_require iblinkinfo ibqueryerrors ibnetdiscover dump_fts ibroute ibtracert
. "$top/tests/fabric/our-tool.sh"
our_tool_libs "$b"

work=$(mktemp -d) || exit 2
fabric_start "$top/tests/fabric/topo/$topo.net" || exit 1
trap 'fabric_stop; rm -rf "$work"' EXIT INT TERM HUP

bad=0
# loop LABEL OKCODES CMD...: N runs; OKCODES is a list of accepted exit statuses.
loop() {
	_label=$1 _ok=$2
	shift 2
	_runs=0 _crash=0 _hang=0 _other=0 _differ=0 _first=
	rm -f "$work/first.out"
	_t0=$(date +%s%N)
	while [ "$_runs" -lt "$n" ]; do
		fabric_run "$host" timeout -k 2 "$tmo" "$@" > "$work/run.raw" 2> /dev/null
		_rc=$?
		# ibnetdiscover's header has the time of the run
		sed 's/^# Topology file: generated on .*/# Topology file: generated on DATE/' "$work/run.raw" > "$work/run.out"
		_runs=$((_runs + 1))
		case " $_ok " in
		*" $_rc "*)
			# every good run prints what the first good run printed
			if [ ! -f "$work/first.out" ]; then
				mv "$work/run.out" "$work/first.out"
			elif ! cmp -s "$work/run.out" "$work/first.out"; then
				_differ=$((_differ + 1))
				[ -n "$_first" ] || _first="run $_runs: output differs"
			fi
			continue ;;
		esac
		case $_rc in
		124 | 137) _hang=$((_hang + 1)) ;;
		*) if [ "$_rc" -ge 128 ]; then _crash=$((_crash + 1)); else _other=$((_other + 1)); fi ;;
		esac
		[ -n "$_first" ] || _first="run $_runs: exit $_rc"
		# a killed client keeps its ibsim slot: free it
		fabric_reap > /dev/null 2>&1 || :
	done
	_t1=$(date +%s%N)
	printf '%-28s runs %6d  crashes %4d  hangs %4d  other failures %4d  outputs differing %4d  wall %8.1f s%s\n' \
		"$_label" "$_runs" "$_crash" "$_hang" "$_other" "$_differ" \
		"$(echo "$_t0 $_t1" | awk '{ print ($2 - $1) / 1e9 }')" \
		"${_first:+  (first: $_first)}"
	LOOP_BAD=$((_crash + _hang + _differ))
}

# The loops: "tool arguments" per line (LOOP_CASES overrides; default the fabric-wide
# tools).  Exit 0/1 is accepted from ibqueryerrors: 1 means "a counter above its
# threshold", a result, not a failure.
cases=${LOOP_CASES:-"iblinkinfo
ibqueryerrors
ibqueryerrors -r -c
ibnetdiscover
ibnetdiscover -p
dump_fts
ibroute 1
ibtracert 2 8"}
printf '%s\n' "$cases" > "$work/cases"
while read -r tool args; do
	[ -n "$tool" ] || continue
	case $tool in ibqueryerrors) ok="0 1" ;; *) ok=0 ;; esac
	ours=$(our_tool "$b" "$tool" 2> /dev/null)
	[ -x "$ours" ] || { echo "loop-tools: ours $tool not built: skipped"; continue; }
	# shellcheck disable=SC2086 # the case's arguments
	loop "ours $tool${args:+ $args}" "$ok" "$ours" $args < /dev/null
	bad=$((bad + LOOP_BAD))
	if [ "$ref" = 1 ]; then
		# shellcheck disable=SC2086
		loop "reference $tool${args:+ $args}" "$ok" "$FABRIC_REF/$tool" $args < /dev/null
	fi
done < "$work/cases"
[ "$bad" -eq 0 ] || { echo "loop-tools: $bad crashes, hangs or differing outputs of our tools"; exit 1; }
exit 0
