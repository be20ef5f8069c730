#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The quick start's main job, on a fresh Debian 12 machine:
#   1. install what is missing (.ci/debian-packages; needs root for apt-get),
#   2. build ibmgmt (build/demo),
#   3. start a bundled simulated fabric (ibsim + OpenSM, tests/fabric/topo/two-switch.net),
#   4. run our drop-in tools (ibstat, ibaddr, smpquery, perfquery, saquery, ibnetdiscover,
#      iblinkinfo, ibqueryerrors, ibroute, dump_fts, ibtracert, ...) and each
#      library layer against it next to infiniband-diags, showing ours and whether the
#      reference printed the same bytes,
#   5. stop the fabric.
# Exit status 0 when every comparison matched.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

missing=
for p in $(grep -v '^#' .ci/debian-packages); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "== installing:$missing"
	if [ "$(id -u)" != 0 ]; then
		echo "demo: these Debian packages are missing and installing them needs root:$missing" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	# shellcheck disable=SC2086
	apt-get install -y --no-install-recommends $missing
fi

echo "== building (build/demo)"
b=$top/build/demo
[ -x configure ] || autoreconf -fi >/dev/null
mkdir -p "$b"
(cd "$b" && { [ -f Makefile ] || "$top/configure" --quiet; } &&
	make -s -j"$(nproc 2>/dev/null || echo 2)" all tests/ibpath-ibstat tests/madrpc-probe \
		tests/sched-sweep tests/topo/topo-dump $(grep -q '^tests_topo_ibnd_dump' Makefile && echo tests/topo/ibnd-dump)) >/dev/null

. "$top/tests/fabric/fabric.sh"
fabric_require ibstat smpdump ibaddr perfquery saquery ibnetdiscover iblinkinfo ibqueryerrors dump_fts
echo "== starting a simulated fabric: $(fabric_count_nodes tests/fabric/topo/two-switch.net) nodes (tests/fabric/topo/two-switch.net)"
fabric_start "$top/tests/fabric/topo/two-switch.net"
status=0
show() { # title, reference output, ours
	echo
	echo "---- $1"
	printf '%s\n' "$3"
	if [ "$2" = "$3" ]; then
		echo "     (identical to infiniband-diags)"
	else
		echo "     DIFFERS from infiniband-diags:"
		printf '%s\n' "$2" > "$FABRIC_DIR/ref" && printf '%s\n' "$3" > "$FABRIC_DIR/ours"
		diff -u "$FABRIC_DIR/ref" "$FABRIC_DIR/ours" || true
		status=1
	fi
}
dec=$b/utils/ibstruct-decode

# The drop-in tools: same arguments, same node, ours and /usr/sbin/<tool>.  Both outputs
# name the program as it was run and libibmad prints "ibwarn:" debug lines that need not be
# imitated: those are evened out before comparing (as tests/fabric/diff-tools.sh does).
tool() { # title, tool, args...
	_t=$1 _n=$2
	shift 2
	_r=$(fabric_run hca-a1 "$FABRIC_REF/$_n" "$@" 2>&1 && echo "exit 0" || echo "exit $?")
	_o=$(fabric_run hca-a1 "$b/utils/$_n" "$@" 2>&1 && echo "exit 0" || echo "exit $?")
	show "$_t" "$(printf '%s\n' "$_r" | grep -v '^ibwarn: ' | sed -e "s#$FABRIC_REF/$_n#$_n#g" -e "$nodate")" \
		"$(printf '%s\n' "$_o" | grep -v '^ibwarn: ' | sed -e "s#$b/utils/$_n#$_n#g" -e "$nodate")"
}
# ibnetdiscover's header carries the time of the run
nodate='s/^# Topology file: generated on .*/# Topology file: generated on <date>/'

echo
echo "======== the drop-in tools (ours), each compared with infiniband-diags 44"
tool "ibstat (local devices)" ibstat
tool "ibaddr (the local port)" ibaddr
tool "ibaddr -G <the switch sw-a by GUID>" ibaddr -G 0x200000
tool "smpquery nodeinfo 1 (sw-a, LID 1)" smpquery nodeinfo 1
tool "smpquery -D portinfo 0,1 7 (sw-a port 7 by directed route)" smpquery -D portinfo 0,1 7
# sw-a port 12 has no link: its counters stay zero, so both runs see the same values
tool "perfquery 1 12 (sw-a port 12 counters)" perfquery 1 12
tool "perfquery -x 1 12 (extended counters)" perfquery -x 1 12
tool "saquery NR 2 (the NodeRecord of LID 2)" saquery NR 2
tool "saquery -p --slid 2 --dlid 1 (a PathRecord)" saquery -p --slid 2 --dlid 1
tool "smpquery nodeinfo 999 (an unknown LID: error text and exit status)" smpquery -t 200 nodeinfo 999
echo
echo "======== the fabric-wide tools (ours on libibtopo), each compared with infiniband-diags 44"
tool "ibnetdiscover (the whole fabric)" ibnetdiscover
tool "ibnetdiscover -p (the ports report)" ibnetdiscover -p
tool "ibswitches" ibswitches
tool "ibhosts" ibhosts
tool "iblinkinfo" iblinkinfo
tool "ibqueryerrors" ibqueryerrors
tool "ibroute 3 (the LFT of sw-b)" ibroute 3
tool "dump_fts -n (every switch's LFT)" dump_fts -n
tool "ibtracert 2 8 (hca-a1 to hca-b3)" ibtracert 2 8
echo
echo "---- ibmgmt extras: ibnetdiscover --json (first lines) and --dot (first lines)"
fabric_run hca-a1 "$b/utils/ibnetdiscover" --json | head -n 12 || status=1
fabric_run hca-a1 "$b/utils/ibnetdiscover" --dot | head -n 6 || status=1
echo
echo "---- an ibmgmt extra: smpquery --sa nodedesc 1 (answered from the SA's NodeRecord)"
fabric_run hca-a1 "$b/utils/smpquery" --sa nodedesc 1 || status=1

echo
echo "======== the libraries, layer by layer"

# libibpath: the local end port, as ibstat shows it
show "hca-a1: local devices (libibpath; reference: ibstat)" \
	"$(fabric_run hca-a1 "$FABRIC_REF/ibstat")" "$(fabric_run hca-a1 "$b/tests/ibpath-ibstat")"

# libibstruct: raw attributes fetched with smpdump, decoded by our codec
for target in "1 0x11 NodeInfo SMPNodeInfo" "2 0x11 NodeInfo SMPNodeInfo"; do
	set -- $target
	ref=$(fabric_run hca-a1 "$FABRIC_REF/smpquery" nodeinfo "$1" | grep -v '^#')
	ours=$(fabric_run hca-a1 "$FABRIC_REF/smpdump" "$1" "$2" | "$dec" "$4")
	show "LID $1: $3 (smpdump bytes decoded by libibstruct; reference: smpquery)" "$ref" "$ours"
done
ref=$(fabric_run hca-a1 "$FABRIC_REF/smpquery" switchinfo 1 | grep -v '^#')
ours=$(fabric_run hca-a1 "$FABRIC_REF/smpdump" 1 0x12 | "$dec" SMPSwitchInfo)
show "LID 1: SwitchInfo (libibstruct; reference: smpquery)" "$ref" "$ours"

# libibmadrpc: our own MAD RPC, by LID and by directed route
ref=$(fabric_run hca-a1 "$FABRIC_REF/smpquery" portinfo 1 7 | grep -v '^#')
ours=$(fabric_run hca-a1 "$b/tests/madrpc-probe" query portinfo 1 7)
show "LID 1 port 7: PortInfo fetched and decoded by libibmadrpc (reference: smpquery)" "$ref" "$ours"
ref=$(fabric_run hca-a1 "$FABRIC_REF/saquery" NR 2)
ours=$(fabric_run hca-a1 "$b/tests/madrpc-probe" sa-node 2)
show "SA NodeRecord of LID 2 through libibmadrpc (reference: saquery)" "$ref" "$ours"
echo
echo "---- libibmadrpc error text, -v (an unknown LID):"
fabric_run hca-a1 "$b/tests/madrpc-probe" -v -t 100 -r 1 smp 99 0x11 || true

# libibsched: every NodeInfo and PortInfo of the fabric, 16 MADs in flight
echo
n=$(fabric_count_nodes "$top/tests/fabric/topo/two-switch.net")
echo "---- libibsched: NodeInfo + every PortInfo of LIDs 1..$n in parallel"
fabric_run hca-a1 "$b/tests/sched-sweep" par "$n" 16 2>&1 >/dev/null | tail -1

echo
echo "---- LID 1 port 7: PortInfo as a packet dump (libibstruct)"
fabric_run hca-a1 "$FABRIC_REF/smpdump" 1 0x15 7 | "$dec" --dump SMPPortInfo

# libibtopo: the whole fabric discovered, next to libibnetdisc (infiniband-diags' discovery)
echo
echo "---- libibtopo: the fabric discovered (DR walk, 64 SMPs in flight)"
ours=$(fabric_run hca-a1 "$b/tests/topo/topo-dump")
echo "$ours" | grep -c '^node ' | sed 's/$/ nodes/'
echo "$ours" | grep '^node ' | sed 's/ path \([^ ]*\) desc/  reached by \1/' | cut -c1-110
if [ -x "$b/tests/topo/ibnd-dump" ]; then
	ref=$(fabric_run hca-a1 "$b/tests/topo/ibnd-dump")
	if [ "$ref" = "$ours" ]; then
		echo "     (the whole database - nodes, raw attributes, ports, links, LIDs, paths, order,"
		echo "      SMP count - identical to libibnetdisc's, $(echo "$ours" | wc -l) lines)"
	else
		echo "     DIFFERS from libibnetdisc:"
		printf '%s\n' "$ref" > "$FABRIC_DIR/ref" && printf '%s\n' "$ours" > "$FABRIC_DIR/ours"
		diff -u "$FABRIC_DIR/ref" "$FABRIC_DIR/ours" | head -40 || true
		status=1
	fi
fi
fabric_stop

echo "== a 368-node fat tree (tests/fabric/topo/fat-tree.net): discovery time, ours and libibnetdisc"
fabric_start "$top/tests/fabric/topo/fat-tree.net"
for i in 1 2 3; do
	printf 'ours:         %s\n' "$(fabric_run ft-h001 "$b/tests/topo/topo-dump" -q)"
	[ -x "$b/tests/topo/ibnd-dump" ] &&
		printf 'libibnetdisc: %s\n' "$(fabric_run ft-h001 "$b/tests/topo/ibnd-dump" -q -o 64)"
done
# the tools: wall time of the whole run (start, discovery, output), same output
ms() { _s=$(date +%s%N); fabric_run ft-h001 "$@" > "$FABRIC_DIR/t.out" 2>&1; _e=$(date +%s%N); echo $(((_e - _s) / 1000000)); }
for t in ibnetdiscover iblinkinfo ibqueryerrors dump_fts; do
	r=$(ms "$FABRIC_REF/$t"); sed "$nodate" "$FABRIC_DIR/t.out" > "$FABRIC_DIR/ref.out"
	o=$(ms "$b/utils/$t"); sed "$nodate" "$FABRIC_DIR/t.out" > "$FABRIC_DIR/ours.out"
	same="same output"
	cmp -s "$FABRIC_DIR/ref.out" "$FABRIC_DIR/ours.out" || { same="OUTPUT DIFFERS"; status=1; }
	printf '%-14s infiniband-diags %4d ms   ours %4d ms   (%s)\n' "$t" "$r" "$o" "$same"
done
fabric_stop
echo
[ $status = 0 ] && echo "== done: every comparison matched" || echo "== done: some output differed"
exit $status
