#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ibping and ibsysstat, clients and servers (-S), ours against infiniband-diags on the
# simulated fabric: every pairing (our client with the reference server, the reference
# client with ours, ours with ours, reference with reference) must print the same thing
# and exit the same way (times masked); then servers that are gone and a server that never
# answers (bounded time-outs, the reference's messages).
#
# How a server can be reached at all on the simulator (tests/fabric/README.md, "Servers"):
# ibsim hands requests of classes it does not answer itself only to the node's *issm*
# client, so every server runs with SIM_SET_ISSM=1 on a node of its own, and OpenSM runs
# with ignore_other_sm: otherwise it sends the new IsSM port an SMInfo Get, which kills the
# reference server inside umad2sim (a class it has no agent for).  No vendor MAD is ever
# sent to LID 1 (OpenSM's node).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require ibping ibsysstat ibaddr
command -v stdbuf > /dev/null || { echo "SKIP: stdbuf (coreutils) not found"; exit 77; }
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/our-tool.sh"
# our tools' directory: utils, or utils/.libs where they are linked to our shared libraries
# (--enable-shared-tools: then utils/<tool> is libtool's wrapper, which runs the real
# binary under another name), with those libraries on the library path
ours=$(dirname "$(our_tool "$top_builddir" ibping)")
our_tool_libs "$top_builddir"
for t in ibping ibsysstat vendstat; do
	[ -x "$ours/$t" ] || { echo "ERROR: $ours/$t is not built"; exit 99; }
done
ref=$FABRIC_REF
IBMGMT_FABRIC_OPENSM_OPTIONS="ignore_other_sm TRUE"
export IBMGMT_FABRIC_OPENSM_OPTIONS
fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || exit 1

fail=0 n=0
bad() {
	echo "FAIL: $*"
	fail=1
}

# lid_of PORTGUID: the LID OpenSM gave that port (decimal)
lid_of() {
	_l=$(fabric_run hca-a1 "$ref/ibaddr" -G "$1" | sed -n 's/.* LID start \(0x[0-9a-f]*\) .*/\1/p')
	[ -n "$_l" ] || { echo "ERROR: no LID for port $1"; exit 99; }
	printf '%d\n' "$_l"
}

# ---- servers: started in the background, each checked before use --------------------------
# start_server NAME NODE TOOL-PATH [ARG...]: -S -d added; up = its "starting to serve" debug
# line (printed once the class is registered: on stdout for the reference, whose stdout
# stdbuf makes line buffered, on stderr for ours), still alive, and listed by ibsim as the
# node's SM client.  Anything else: ERROR (exit 99: the fixture, not the tools, failed).
start_server() {
	_n=$1 _node=$2
	shift 2
	SIM_SET_ISSM=1 fabric_run_bg "$_node" stdbuf -oL "$@" -S -d > "$FABRIC_DIR/srv-$_n.out" 2> "$FABRIC_DIR/srv-$_n.err"
	eval "pid_$_n=\$FABRIC_BG_PID"
	_end=$(($(date +%s) + 20))
	until cat "$FABRIC_DIR/srv-$_n.out" "$FABRIC_DIR/srv-$_n.err" 2>/dev/null | grep -q 'starting to serve'; do
		if ! _fabric_alive "$FABRIC_BG_PID"; then
			echo "ERROR: server $_n ($*) on $_node exited:"
			tail -5 "$FABRIC_DIR/srv-$_n.err"
			exit 99
		fi
		[ "$(date +%s)" -lt "$_end" ] || { echo "ERROR: server $_n on $_node not up within 20 s"; exit 99; }
		_fabric_nap 0.05
	done
	fabric_console Attached | grep -q "pid $FABRIC_BG_PID connected at \"$_node\".* SM\$" || {
		echo "ERROR: server $_n (pid $FABRIC_BG_PID) is not $_node's issm client:"
		fabric_console Attached
		exit 99
	}
}

# alive NAME: the server still runs
alive() {
	eval "_p=\$pid_$1"
	_fabric_alive "$_p"
}

# stop_server NAME: SIGTERM (neither server catches it, as the reference), then free its
# ibsim client slot
stop_server() {
	eval "_p=\$pid_$1"
	kill -TERM "$_p" 2>/dev/null
	wait "$_p" 2>/dev/null
	fabric_reap > /dev/null || { echo "ERROR: cannot free the client slot of server $1"; exit 99; }
}

# ---- running clients ---------------------------------------------------------------------------
# run NODE SERVER_LID TOOL-PATH [ARG...]: prints stdout, "--- stderr", stderr without
# libibmad's ibwarn lines, "--- exit N", normalised: the tool's path, process ids, times
# (rtt and totals) and the server's LID (so that two servers on two nodes compare).
run() {
	_node=$1 _lid=$2
	shift 2
	fabric_run "$_node" "$@" > "$FABRIC_DIR/run.out" 2> "$FABRIC_DIR/run.err"
	_rc=$?
	{
		cat "$FABRIC_DIR/run.out"
		echo "--- stderr"
		grep -v '^ibwarn: ' "$FABRIC_DIR/run.err"
		echo "--- exit $_rc"
	} | sed -e "s#$ours/##g" -e "s#$ref/##g" \
		-e 's/\[pid [0-9]*\]/[pid N]/g' -e 's/^ibpanic: \[[0-9]*\]/ibpanic: [N]/' \
		-e 's/time [0-9]*\.[0-9][0-9][0-9] ms/time T ms/' \
		-e 's/, time [0-9]* ms$/, time T ms/' \
		-e 's#^rtt min/avg/max = .*#rtt min/avg/max = T#' \
		-e "s/(Lid $_lid)/(Lid SERVER)/g" -e "s/to Lid $_lid:/to Lid SERVER:/"
}

# same WHAT EXPECTED ACTUAL
same() {
	n=$((n + 1))
	if [ "$2" != "$3" ]; then
		bad "$1"
		printf '%s\n' "$2" > "$FABRIC_DIR/a.txt"
		printf '%s\n' "$3" > "$FABRIC_DIR/b.txt"
		diff -u "$FABRIC_DIR/a.txt" "$FABRIC_DIR/b.txt" | head -20
	fi
}

# contains WHAT TEXT PATTERN (grep -E)
contains() {
	n=$((n + 1))
	printf '%s\n' "$2" | grep -Eq "$3" || { bad "$1: no /$3/ in:"; printf '%s\n' "$2" | head -10; }
}

# pairings TOOL CLIENT_NODE OURS_NODE OURS_LID REF_NODE REF_LID OURS_GUID REF_GUID ARGS (in
# ARGS @LID@ and @GUID@ stand for the server's): all four runs, compared pairwise; the
# reference pair's output is left in $last
pairings() {
	_tool=$1 _cn=$2 _ol=$4 _rl=$6 _og=$7 _rg=$8
	shift 8
	_a_o=$(echo "$*" | sed -e "s/@LID@/$_ol/g" -e "s/@GUID@/$_og/g")
	_a_r=$(echo "$*" | sed -e "s/@LID@/$_rl/g" -e "s/@GUID@/$_rg/g")
	# shellcheck disable=SC2086
	oo=$(run "$_cn" "$_ol" "$ours/$_tool" $_a_o)
	# shellcheck disable=SC2086
	ro=$(run "$_cn" "$_ol" "$ref/$_tool" $_a_o)
	# shellcheck disable=SC2086
	or=$(run "$_cn" "$_rl" "$ours/$_tool" $_a_r)
	# shellcheck disable=SC2086
	rr=$(run "$_cn" "$_rl" "$ref/$_tool" $_a_r)
	same "$_tool $* from $_cn: reference client, our server vs reference server" "$rr" "$ro"
	same "$_tool $* from $_cn: our client, reference server vs reference client" "$rr" "$or"
	same "$_tool $* from $_cn: our client and server vs reference client and server" "$rr" "$oo"
	last=$rr
}

# port GUIDs (ibsim's counters, see two-switch.net): hca-a2 0x100004, hca-a3 0x100007,
# hca-b1 0x10000a, hca-b2 0x10000d
PO=0x10000a PR=0x10000d SO=0x100004 SR=0x100007
ping_o=$(lid_of $PO) ping_r=$(lid_of $PR) sys_o=$(lid_of $SO) sys_r=$(lid_of $SR)
for l in $ping_o $ping_r $sys_o $sys_r; do
	[ "$l" != 1 ] || { echo "ERROR: a server node has LID 1 (OpenSM's)"; exit 99; }
done

start_server ping_o hca-b1 "$ours/ibping"
start_server ping_r hca-b2 "$ref/ibping"
start_server sys_o hca-a2 "$ours/ibsysstat"
start_server sys_r hca-a3 "$ref/ibsysstat"

# ---- ibping: four pairings ------------------------------------------------------------------
t0=$(date +%s)
for args in "-f -c 3 @LID@" "-f -c 2 -G @GUID@" "-c 2 @LID@" "-f -c 1 -o 0x001405 -L @LID@" "--flood --count 2 -t 500 @LID@"; do
	pairings ibping hca-a1 hca-b1 "$ping_o" hca-b2 "$ping_r" $PO $PR "$args"
	contains "ibping $args: every ping answered" "$last" ' 0% packet loss'
done
pairings ibping hca-b3 hca-b1 "$ping_o" hca-b2 "$ping_r" $PO $PR "-c 2 @LID@"
contains "ibping from hca-b3: the answers" "$last" '^Pong from .* \(Lid SERVER\): time T ms$'
contains "ibping from hca-b3: statistics" "$last" '^2 packets transmitted, 2 received, 0% packet loss'
echo "ibping pairings: $(($(date +%s) - t0)) s"

# ---- ibsysstat: four pairings ------------------------------------------------------------------
t0=$(date +%s)
for args in "@LID@" "@LID@ ping" "@LID@ host" "@LID@ cpu" "-G @GUID@ host" "-t 500 -L @LID@ cpu"; do
	pairings ibsysstat hca-a1 hca-a2 "$sys_o" hca-a3 "$sys_r" $SO $SR "$args"
	contains "ibsysstat $args: exit 0" "$last" '^--- exit 0$'
done
pairings ibsysstat hca-b3 hca-a2 "$sys_o" hca-a3 "$sys_r" $SO $SR "@LID@ cpu"
contains "ibsysstat cpu: one line per processor" "$last" '^cpu 0: model '
echo "ibsysstat pairings: $(($(date +%s) - t0)) s"

# ---- our servers ignore what they do not serve ------------------------------------------------
# (umad2sim kills a process sent a class it has no agent for: the reference servers would
# die here, so only ours are sent these)
out=$(run hca-a1 "$ping_o" "$ours/vendstat" -t 200 -N "$ping_o")
contains "vendstat to our ping server: times out" "$out" 'iberror: failed: classportinfo query'
alive ping_o || bad "our ibping server died of a class 0x0a request"

# A server that never answers: ibsysstat to our ping server (class 0x33 dropped there), ibping
# to our sysstat server.  The reference's ibsysstat waits for one reply for the time-out and
# panics ("umad_recv failed."); ibping loses each ping after its retries.
t0=$(date +%s)
a=$(run hca-a1 "$ping_o" "$ref/ibsysstat" -t 300 "$ping_o" host)
b=$(run hca-a1 "$ping_o" "$ours/ibsysstat" -t 300 "$ping_o" host)
same "ibsysstat to a server that never answers" "$a" "$b"
contains "ibsysstat to a server that never answers: the panic" "$b" 'umad_recv failed'
a=$(run hca-a1 "$sys_o" "$ref/ibping" -t 200 -f -c 2 "$sys_o")
b=$(run hca-a1 "$sys_o" "$ours/ibping" -t 200 -f -c 2 "$sys_o")
same "ibping to a server that never answers" "$a" "$b"
contains "ibping to a server that never answers: all lost" "$b" ' 100% packet loss'
t=$(($(date +%s) - t0))
echo "silent servers: $t s"
[ "$t" -le 10 ] || bad "the runs against silent servers took $t s (bound 10 s)"
alive ping_o || bad "our ibping server died"
alive sys_o || bad "our ibsysstat server died"
alive ping_r || bad "the reference ibping server died"
alive sys_r || bad "the reference ibsysstat server died"

# ---- servers that are gone ----------------------------------------------------------------
for s in ping_o ping_r sys_o sys_r; do
	stop_server $s
done
t0=$(date +%s)
for l in "$ping_o" "$ping_r"; do
	a=$(run hca-a1 "$l" "$ref/ibping" -f -c 3 "$l")
	b=$(run hca-a1 "$l" "$ours/ibping" -f -c 3 "$l")
	same "ibping to LID $l, server gone" "$a" "$b"
	contains "ibping to LID $l, server gone: all lost" "$b" '^---  \(Lid SERVER\) ibping statistics ---$'
done
for l in "$sys_o" "$sys_r"; do
	a=$(run hca-a1 "$l" "$ref/ibsysstat" "$l" host)
	b=$(run hca-a1 "$l" "$ours/ibsysstat" "$l" host)
	same "ibsysstat to LID $l, server gone" "$a" "$b"
	contains "ibsysstat to LID $l, server gone: the message" "$b" \
		'^ibsysstat: iberror: failed: ibsystat to Lid SERVER: Connection timed out$'
done
t=$(($(date +%s) - t0))
echo "gone servers: $t s"
[ "$t" -le 10 ] || bad "the runs against gone servers took $t s (bound 10 s)"

echo "$n checks"
[ "$fail" = 0 ] && echo "$n passed, 0 failed"
exit "$fail"
