#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Robustness loop (issue 14's long runs): each of our tools that talks to the fabric (and,
# with -r, the reference's tool of the same name) run N times on a simulated fabric, every
# run under `timeout`.  Prints per case the runs, the crashes (killed by a signal, or exit
# status >= 128), the hangs (timeouts), the other failures (an exit status the case does
# not expect on a healthy fabric), the good runs whose output differs from the first good
# run's, and the wall time; exits 1 when any of OUR runs crashed, hung or printed something
# else.
#
# The cases (LOOP_CASES overrides them): "tool [option...] arguments" per line, every tool of
# the build that sends MADs (the script checks that against the build's IBMGMT_TOOLS, see
# no_loop below), on two-switch.net from hca-a1.  Options of a case, before its arguments:
#   ok=S1,S2     the exit statuses of a good run (default 0)
#   mask=NAME    what is masked in the output before runs are compared, beyond the date in
#                ibnetdiscover's header and OpenSM's SMInfo activity count (always masked):
#                counters (the data and packet counters, which the loop's own MADs raise),
#                times (ibping's round-trip times), digits (every number: rates)
#   setup=NAME   ccshim / vendshim: tests/fabric/cc-shim.c preloaded to answer the
#                Congestion Control / Mellanox vendor class from the topology's model, as in
#                diff-tools.sh (each side with its own state); server:NODE: the same side's
#                `tool -S` serves on NODE for the whole loop (ibping, ibsysstat)
#   want=TEXT    the set-up check: the first good run's output must contain TEXT (_ for a
#                space)
# Arguments may use @CACHE@ (an ibnetdiscover cache of the fabric) and @TOPO@ (the topology
# of hca-a1 alone, so that the whole-fabric ibcheck* scripts check one port per run), both
# written by the reference ibnetdiscover before the loops.
#
# Usage: sh bench/loop-tools.sh [-r | -R] [-t SECONDS] [-H NODE] [-o REGEX] [-x REGEX] BUILDDIR [N]
#   -r           also loop the reference tools (their crashes/hangs are reported, not
#                counted in the exit status: the reference's ibqueryerrors segfaults about
#                once in 400 runs, which is what this loop shows)
#   -R           loop the reference tools only (the reference side of cases whose own
#                side was looped before); the exit status is then 0 unless the set-up fails
#   -t SECONDS   time-out of one run (default 20)
#   -H NODE      the node the tools run on (default hca-a1)
#   -o REGEX     only the cases whose line matches REGEX (grep -E)
#   -x REGEX     not the cases whose line matches REGEX
#   N            runs per case (default 10000)
# BUILDDIR is a build tree or a copy of its utils/ directory (frozen binaries, so that the
# loop keeps running what it started with while the tree is rebuilt).
set -u
ref=0 tmo=20 host=hca-a1 only='' skip=''
usage() {
	echo "usage: $0 [-r | -R] [-t SECONDS] [-H NODE] [-o REGEX] [-x REGEX] BUILDDIR [N]" >&2
	exit 2
}
while getopts rRt:H:o:x: opt; do
	case $opt in
	r) ref=1 ;;
	R) ref=2 ;;
	t) tmo=$OPTARG ;;
	H) host=$OPTARG ;;
	o) only=$OPTARG ;;
	x) skip=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
b=$(cd "$1" && pwd) || exit 2
n=${2:-10000}
case $n$tmo in *[!0-9]* | '') usage ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
top_srcdir=$top # (fabric.sh reads it)
export top_srcdir
. "$top/tests/fabric/fabric.sh"
fabric_require iblinkinfo ibqueryerrors ibnetdiscover dump_fts ibroute ibtracert
. "$top/tests/fabric/our-tool.sh"
our_tool_libs "$b"

# ---- the cases -------------------------------------------------------------------------------
# LIDs on two-switch.net (OpenSM's): sw-a 1, hca-a1 2, sw-b 3, hca-a2 4, hca-a3 5, hca-b1 6,
# hca-b2 7, hca-b3 8.  Vendor and CC MADs never go to LID 1: OpenSM's node.
default_cases='ibaddr 4
smpquery nodeinfo 4
smpdump -D 0,1 0x11
sminfo
ibportstate 4 1
perfquery mask=counters 4 1
saquery NR
query PortInfo 3
ibnetdiscover
ibnetdiscover -p
ibhosts
ibswitches
ibrouters
ibnodes
iblinkinfo
ibqueryerrors ok=0,1
ibqueryerrors ok=0,1 -r -c
ibroute 1
dump_fts
dump_lfts
dump_mfts
ibtracert 2 8
ibidsverify
ibfindnodesusing -R 0x200000 7
subnet_diff @CACHE@
vendstat setup=vendshim -N 5
ibccquery setup=ccshim CongestionInfo 3
ibccconfig setup=ccshim CACongestionSetting 5 0x2 0x3 150 2 5 1
ibping setup=server:hca-b1 mask=times want=1_received -f -c 1 6
ibsysstat setup=server:hca-b2 7 host
set_port_state 3@7 3@1 4
set_guid 4 1 0x0002c90300001234
ibcheckerrors @TOPO@
ibchecknet @TOPO@
ibcheckstate @TOPO@
ibcheckwidth @TOPO@
ibdatacounters mask=counters @TOPO@
ibclearcounters @TOPO@
ibclearerrors @TOPO@
ibchecknode 4
ibcheckerrs 4 1
ibdatacounts mask=counters 4 1
ibcheckport 4 1
ibcheckportstate 4 1
ibcheckportwidth 4 1
ibprintca -R -G 0x100000
ibprintswitch -R -G 0x200000
ibprintrt ok=1 -R -l
ibswportwatch mask=digits -p 0.5 -n 1 3 1'

# no_loop TOOL: why a tool of the build has no case above (empty when it should have one)
no_loop() {
	case $1 in
	decode_mad | ibcacheedit | check_lft_balance) echo "reads files only, sends no MAD" ;;
	ibstat | ibstatus | ibv_devices | set_nodedesc) echo "reads or writes sysfs only, sends no MAD" ;;
	init_all_ports)
		# (its one-run cells are in tests/fabric/fault-matrix.sh and valgrind-tools.sh)
		echo "moves every link to Initialize: each next run would meet a fabric OpenSM is still bringing back" ;;
	esac
}

cases=${LOOP_CASES:-$default_cases}
# every tool of the build has a case or a reason (only for the default cases, and only where
# BUILDDIR is a build tree whose Makefile can say which tools it installs)
if [ -z "${LOOP_CASES:-}" ] && [ -f "$b/Makefile" ]; then
	tools=$(our_tool_list "$b")
	[ -n "$tools" ] || { echo "loop-tools: cannot read IBMGMT_TOOLS from $b/Makefile" >&2; exit 2; }
	missing=
	for t in $tools; do
		printf '%s\n' "$cases" | grep -q "^$t\( \|$\)" && continue
		[ -n "$(no_loop "$t")" ] || missing="$missing $t"
	done
	[ -z "$missing" ] || { echo "loop-tools: no loop case for:$missing (add one, or a reason to no_loop)" >&2; exit 2; }
fi

work=$(mktemp -d) || exit 2
IBMGMT_FABRIC_OPENSM_OPTIONS="ignore_other_sm TRUE" # (the servers register as the node's SM)
export IBMGMT_FABRIC_OPENSM_OPTIONS
fabric_start "$top/tests/fabric/topo/two-switch.net" || exit 1
server=
stop_server() {
	if [ -n "$server" ]; then
		kill "$server" 2>/dev/null
		wait "$server" 2>/dev/null
		server=
		fabric_reap > /dev/null 2>&1 || :
	fi
}
trap 'stop_server; fabric_stop; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# the files the cases read
fabric_run "$host" timeout 60 "$FABRIC_REF/ibnetdiscover" --cache "$work/fabric.cache" > "$work/fabric.topo" 2>&1 ||
	{ echo "loop-tools: the reference ibnetdiscover failed:"; cat "$work/fabric.topo"; exit 1; }
awk '/^Ca/ { on = /"hca-a1"/ } on && /^\[1\]/ { print; next } on && !/^\[/ { print }' "$work/fabric.topo" > "$work/one-ca.topo"
grep -q '^\[1\].*lid 2 ' "$work/one-ca.topo" || { echo "loop-tools: no hca-a1 port 1 in the topology"; exit 1; }
if printf '%s\n' "$cases" | grep -q 'setup=[a-z]*shim'; then
	${CC:-cc} -shared -fPIC -O2 -o "$work/cc-shim.so" "$top/tests/fabric/cc-shim.c" -ldl ||
		{ echo "loop-tools: cannot build tests/fabric/cc-shim.c"; exit 1; }
fi

# start_server SIDE TOOL NODE PROGRAM: PROGRAM -S on NODE as its SM client (SIM_SET_ISSM, as
# tests/fabric/responders.sh does), until stop_server
start_server() {
	# (-d: the server says "starting to serve" when it is ready: ours on stderr, the
	# reference's on stdout, line-buffered by stdbuf, as in tests/fabric/responders.sh)
	SIM_SET_ISSM=1 fabric_run_bg "$3" stdbuf -oL "$4" -S -d > "$work/server.out" 2> "$work/server.err"
	server=$FABRIC_BG_PID
	_end=$(($(date +%s) + 60))
	until cat "$work/server.out" "$work/server.err" 2>/dev/null | grep -q 'starting to serve'; do
		_fabric_alive "$server" || { echo "loop-tools: $1 $2 -S on $3 exited:"; cat "$work/server.out" "$work/server.err"; exit 1; }
		[ "$(date +%s)" -lt "$_end" ] || { echo "loop-tools: $1 $2 -S on $3 not up within 60 s"; exit 1; }
		sleep 0.2
	done
	fabric_console Attached | grep -q "connected at \"$3\".* SM\$" ||
		{ echo "loop-tools: $1 $2 -S is not $3's SM client:"; fabric_console Attached; exit 1; }
}

bad=0
# loop LABEL OKCODES MASK CMD...: N runs; OKCODES: the accepted exit statuses (spaces)
loop() {
	_label=$1 _ok=$2 _mask=$3
	shift 3
	case $_mask in
	counters) _mexpr='s/^\([[:space:]]*Port\(Xmit\|Rcv\|UnicastXmit\|UnicastRcv\|MulticastXmit\|MulticastRcv\)\(Data\|Pkts\):\.*\)[0-9][0-9]*/\1N/' ;;
	digits) _mexpr='s/[0-9][0-9]*/N/g' ;;
	times) _mexpr='s/time [0-9.]* ms/time T ms/; s/^rtt min\/avg\/max = .*/rtt min\/avg\/max = T/' ;;
	'') _mexpr= ;;
	*) echo "loop-tools: unknown mask $_mask" >&2; exit 2 ;;
	esac
	_runs=0 _crash=0 _hang=0 _other=0 _differ=0 _first=
	rm -f "$work/first.out"
	_t0=$(date +%s%N)
	while [ "$_runs" -lt "$n" ]; do
		fabric_run "$host" timeout -k 2 "$tmo" "$@" > "$work/run.raw" 2> "$work/run.err" < /dev/null
		_rc=$?
		sed -e 's/^# Topology file: generated on .*/# Topology file: generated on DATE/' \
		    -e 's/activity count [0-9][0-9]*/activity count N/' ${_mexpr:+-e "$_mexpr"} \
		    "$work/run.raw" > "$work/run.out"
		_runs=$((_runs + 1))
		case " $_ok " in
		*" $_rc "*)
			# every good run prints what the first good run printed
			if [ ! -f "$work/first.out" ]; then
				mv "$work/run.out" "$work/first.out"
			elif ! cmp -s "$work/run.out" "$work/first.out"; then
				_differ=$((_differ + 1))
				[ -n "$_first" ] || _first="run $_runs: output differs"
				[ -f "$work/differ.out" ] || cp "$work/run.out" "$work/differ.out"
			fi
			continue ;;
		esac
		# (timeout's 124, or 137 after its KILL; 129-192: killed by signal 1-64)
		case $_rc in
		124 | 137) _hang=$((_hang + 1)) ;;
		129 | 1[3-8][0-9] | 19[0-2]) _crash=$((_crash + 1)) ;;
		*) _other=$((_other + 1)) ;;
		esac
		if [ -z "$_first" ]; then
			_first="run $_runs: exit $_rc"
			cat "$work/run.raw" "$work/run.err" > "$work/failed.out"
		fi
		# a killed client keeps its ibsim slot: free it
		fabric_reap > /dev/null 2>&1 || :
	done
	_t1=$(date +%s%N)
	printf '%-44s runs %6d  crashes %4d  hangs %4d  other failures %4d  outputs differing %4d  wall %8.1f s%s\n' \
		"$_label" "$_runs" "$_crash" "$_hang" "$_other" "$_differ" \
		"$(echo "$_t0 $_t1" | awk '{ print ($2 - $1) / 1e9 }')" \
		"${_first:+  (first: $_first)}"
	if [ -n "${LOOP_SHOW_DIFF:-}" ]; then
		[ ! -f "$work/differ.out" ] || diff "$work/first.out" "$work/differ.out" | head -n 20
		[ ! -f "$work/failed.out" ] || head -n 20 "$work/failed.out"
	fi
	rm -f "$work/differ.out" "$work/failed.out"
	if [ -n "$want" ] && [ -f "$work/first.out" ] && ! grep -q -- "$want" "$work/first.out"; then
		echo "loop-tools: the set-up did not work: no '$want' in the output of $_label:"
		head -n 20 "$work/first.out"
		_differ=$((_differ + 1))
	fi
	LOOP_BAD=$((_crash + _hang + _differ))
}

# one_side SIDE PROGRAM: the loop of the current case for one side
one_side() {
	_side=$1 _prog=$2
	(
		# (the scripts' topology cache, one per side, not the machine's /var/cache)
		IBMGMT_DIAGS_CACHE_DIR=$work/diags-cache-$_side
		export IBMGMT_DIAGS_CACHE_DIR
		case $setup in
		ccshim | vendshim)
			LD_PRELOAD=$work/cc-shim.so${LD_PRELOAD:+ $LD_PRELOAD}
			IBMGMT_CCSHIM_MODEL=$top/tests/fabric/cases/data/two-switch.ccmodel
			IBMGMT_CCSHIM_STATE=$work/ccshim-$_side.state
			IBMGMT_VENDSHIM_MODEL=$top/tests/fabric/cases/data/two-switch.vendmodel
			IBMGMT_VENDSHIM_STATE=$work/vendshim-$_side.state
			export LD_PRELOAD IBMGMT_CCSHIM_MODEL IBMGMT_CCSHIM_STATE IBMGMT_VENDSHIM_MODEL IBMGMT_VENDSHIM_STATE ;;
		server:*) start_server "$_side" "$tool" "${setup#server:}" "$_prog" ;;
		esac
		# shellcheck disable=SC2086 # the case's arguments
		loop "$_side $tool${args:+ $args}" "$ok" "$mask" "$_prog" $args
		stop_server
		echo "$LOOP_BAD" > "$work/bad"
	)
	LOOP_BAD=$(cat "$work/bad" 2> /dev/null || echo 1)
	rm -f "$work/bad"
}

printf '%s\n' "$cases" > "$work/cases"
if [ -n "$only" ]; then
	grep -E -- "$only" "$work/cases" > "$work/cases.only"
	mv "$work/cases.only" "$work/cases"
fi
if [ -n "$skip" ]; then
	grep -v -E -- "$skip" "$work/cases" > "$work/cases.only"
	mv "$work/cases.only" "$work/cases"
fi
while read -r tool rest; do
	[ -n "$tool" ] || continue
	ok=0 mask='' setup='' want=''
	# shellcheck disable=SC2086
	set -- $rest
	while [ $# -gt 0 ]; do
		case $1 in
		ok=*) ok=$(echo "${1#ok=}" | tr , ' ') ;;
		mask=*) mask=${1#mask=} ;;
		setup=*) setup=${1#setup=} ;;
		want=*) want=$(echo "${1#want=}" | tr _ ' ') ;;
		*) break ;;
		esac
		shift
	done
	args=$(echo "$*" | sed -e "s#@CACHE@#$work/fabric.cache#g" -e "s#@TOPO@#$work/one-ca.topo#g")
	ours=$(our_tool "$b" "$tool" 2> /dev/null)
	[ -x "$ours" ] || { echo "loop-tools: ours $tool not built: skipped"; continue; }
	if [ "$ref" != 2 ]; then
		one_side ours "$ours" < /dev/null
		bad=$((bad + LOOP_BAD))
	fi
	if [ "$ref" != 0 ]; then
		_r=$(ref_tool "$tool")
		if [ -x "$_r" ]; then
			one_side reference "$_r" < /dev/null
		else
			echo "loop-tools: no reference $tool"
		fi
	fi
done < "$work/cases"
[ "$bad" -eq 0 ] || { echo "loop-tools: $bad crashes, hangs or differing outputs of our tools"; exit 1; }
exit 0
