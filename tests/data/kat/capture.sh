#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Regenerates the known-answer test data smp.kat, perf.kat and sa.kat in this directory:
# raw attribute bytes captured on a simulated InfiniBand fabric (ibsim + OpenSM), each paired
# with the stdout of the reference infiniband-diags tool (smpquery / sminfo / perfquery /
# saquery) that decoded exactly those bytes. See README.md for the format and the caveats.
#
# Usage: bash tests/data/kat/capture.sh [outdir]      (outdir default: this directory)
# Env:   KAT_KEEP=1    keep the work directory (/dev/shm/ibmgmt-kat.XXXXXX) for inspection
#        UMAD2SIM=...  path of libumad2sim.so
#
# Needs (Debian 12): ibsim-utils libumad2sim0 opensm infiniband-diags libibmad-dev cc.
# Starts its own ibsim (unique IBSIM_SOCKNAME) and OpenSM in a temp dir under /dev/shm and
# stops exactly those (OpenSM first, then ibsim, then the FIFO holder), also on error/signal.
#
# How the bytes are obtained: every libibmad RPC dumps the received MAD to stderr when
# LIBIBMAD_DEBUG_LEVEL=2 ("rcv buf" xdump, rdma-core libibmad/rpc.c), so smpquery, sminfo and
# perfquery are run once with that variable and the attribute data is cut out of the very
# GetResp MAD(s) the tool decoded; the same command is then run again without it and the two
# stdouts are compared (they must be identical unless the attribute holds moving counters).
# saquery does not use libibmad's RPC; with "-d -d" it xdumps the SA response on stdout
# (ibdiag_sa.c), so the bytes come from a "-d -d" run and the text from a plain run, and the
# plain stdout must equal the "-d -d" stdout with the two dumps removed. SMP captures are also
# cross-checked against smpdump for the same target/attribute/modifier.

set -u
set -o pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUTDIR=$(cd "${1:-$HERE}" && pwd) || exit 1
P=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}

die() { echo "capture.sh: $*" >&2; exit 1; }
log() { echo "capture.sh: $*" >&2; }

for t in ibsim opensm smpquery smpdump sminfo perfquery saquery ibportstate cc timeout; do
	command -v "$t" > /dev/null || die "missing tool: $t"
done
[ -r "$P" ] || die "missing $P (package libumad2sim0)"

T=$(mktemp -d /dev/shm/ibmgmt-kat.XXXXXX) || die "mktemp failed"
export IBSIM_SOCKNAME="ibmgmt-kat-$$-${T##*.}"
export OSM_TMP_DIR=$T OSM_CACHE_DIR=$T
unset LIBIBMAD_DEBUG_LEVEL SIM_SET_ISSM
cd "$T" || die "cd $T"

HOLD='' SIM='' OSM=''

stop_pid() {	# stop_pid PID NAME: TERM, wait up to 10 s, then KILL
	local pid=$1 i
	[ -n "$pid" ] || return 0
	kill -0 "$pid" 2> /dev/null || { wait "$pid" 2> /dev/null; return 0; }
	kill -TERM "$pid" 2> /dev/null
	for i in $(seq 1 100); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2> /dev/null; then
		log "$2 (pid $pid) did not stop on SIGTERM, sending SIGKILL"
		kill -KILL "$pid" 2> /dev/null
	fi
	wait "$pid" 2> /dev/null
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM HUP
	stop_pid "$OSM" opensm		# OpenSM first: it blocks if ibsim goes away under it
	stop_pid "$SIM" ibsim
	stop_pid "$HOLD" fifo-holder
	cd /
	if [ "${KAT_KEEP:-0}" = 1 ]; then
		log "work directory kept: $T"
	else
		rm -rf "$T"
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# ------------------------------------------------------------------ fabric ----------------
# Two switches, five HCAs; link widths/speeds and vendor/device ids vary; unconnected ports
# on every node; Hca4 has a single port; Hca5 is dual-homed (port 1 on Switch1, port 2 on
# Switch2). GUIDs are allocated by ibsim's counters (CAs from 0x100000, switches 0x200000).
cat > net <<'EOF'
# ibmgmt KAT fabric (tests/data/kat/capture.sh)
vendid=0x0002c9
devid=0xc738
sysimgguid=0x0002c90300aa0000
Switch	8 "Switch1" # "kat core switch 1"
[1]	"Hca1"[1]
[2]	"Hca3"[1]	w=1
[3]	"Switch2"[3]	w=8 s=7
[5]	"Switch2"[5]	s=7 e=1
[6]	"Hca5"[1]	w=3 s=3

vendid=0x000002
devid=0x5a44
Switch	12 "Switch2" # "kat leaf switch 2"
[1]	"Hca2"[1]	w=9
[2]	"Hca4"[1]
[3]	"Switch1"[3]	w=8 s=7
[5]	"Switch1"[5]	s=7 e=1
[12]	"Hca5"[2]	s=7 e=3

vendid=0x0002c9
devid=0x1003
Hca	2 "Hca1" # "kat-host1 HCA-1"
[1]	"Switch1"[1]

vendid=0x0002c9
devid=0x1017
Hca	2 "Hca2" # "kat-host2 mlx5_0"
[1]	"Switch2"[1]	w=9

Hca	2 "Hca3"
[1]	"Switch1"[2]	w=1

Hca	1 "Hca4" # "kat-host4 single port"
[1]	"Switch2"[2]

vendid=0x0002c9
devid=0x101b
sysimgguid=0x0002c90300bb0000
Hca	2 "Hca5" # "kat-host5 dual-homed"
[1]	"Switch1"[6]	w=3 s=3
[2]	"Switch2"[12]	s=7 e=3
EOF

# OpenSM: QoS on (non-trivial SL2VL and VLArb tables, different for CAs and switches),
# LMC 1, priority 7, three partitions (two IPoIB ones give two multicast groups).
cat > osm.conf <<'EOF'
sm_priority 7
lmc 1
max_op_vls 4
overrun_errors_threshold 0x0a
leaf_head_of_queue_lifetime 0x11
qos TRUE
qos_max_vls 8
qos_high_limit 4
qos_vlarb_high 0:4,1:8,2:16
qos_vlarb_low 0:1,1:2,2:4,3:8,4:16,5:32,6:64,7:128
qos_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7
qos_ca_sl2vl 3,2,1,0,3,2,1,0,3,2,1,0,3,2,1,0
qos_ca_vlarb_high 1:32,3:64
qos_ca_vlarb_low 0:10,1:20,2:30,3:40
EOF
cat > partitions.conf <<'EOF'
Default=0x7fff, ipoib : ALL=full;
storage=0x8001, ipoib, mtu=4 : ALL=full;
lab=0x0002 : 0x0000000000100001=full, 0x000000000010000c=limited, 0x0000000000100004=limited;
EOF

FABRIC="kat net (capture.sh: 2 switches, 5 HCAs), ibsim 0.10, OpenSM 3.3.23 (-Q, lmc 1, partitions), infiniband-diags 44"

cc -O2 -Wall -o sa-service "$HERE/sa-service.c" -libmad -libumad || die "cannot build sa-service"

# ------------------------------------------------------------------ client helpers --------
con() {	# write one command to the ibsim console
	echo "$*" > ibsim.in
	sleep 0.05
}

reap() {	# free ibsim client slots of clients that died without detaching
	local before c p
	before=$(wc -l < ibsim.out)
	con Attached
	sleep 0.5
	tail -n +"$((before + 1))" ibsim.out | sed -n 's/.*Client \([0-9]*\): pid \([0-9]*\) .*/\1 \2/p' |
		sort -u | while read -r c p; do
			if ! kill -0 "$p" 2> /dev/null; then
				con "X $c"
				rm -rf "sys-$p"
			fi
		done
}

runc() {	# runc HOST OUT ERR cmd... : run one client against the simulator
	local host=$1 o=$2 e=$3 rc
	shift 3
	SIM_HOST=$host LD_PRELOAD=$P timeout "${TO:-15}" "$@" > "$o" 2> "$e"
	rc=$?
	[ $rc = 124 ] && { log "timeout: SIM_HOST=$host $*"; reap; }
	return $rc
}

mkfifo ibsim.in || die "mkfifo"
sleep 1000000 > ibsim.in &
HOLD=$!
ibsim -s net < ibsim.in > ibsim.out 2>&1 &
SIM=$!
for i in $(seq 1 100); do
	grep -q 'Network simulator ready' ibsim.out 2> /dev/null && break
	kill -0 $SIM 2> /dev/null || die "ibsim died: $(cat ibsim.out)"
	sleep 0.1
done
grep -q 'Network simulator ready' ibsim.out || die "ibsim not ready"

SIM_HOST=Switch1 LD_PRELOAD=$P opensm -F osm.conf -P partitions.conf -f "$T/osm.log" \
	> opensm.out 2>&1 &
OSM=$!
# OpenSM's log is not flushed per line: poll the fabric instead. Ready when OpenSM is MASTER
# and its SA answers for the last LID it assigns (first sweep done, LFTs/QoS/P_Keys set).
ready=0
for i in $(seq 1 150); do
	kill -0 $OSM 2> /dev/null || die "opensm died: $(tail -5 opensm.out)"
	if TO=5 runc Hca1 c.out c.err sminfo && grep -q SMINFO_MASTER c.out &&
		TO=5 runc Hca1 c.out c.err saquery NR 14 && grep -q 'kat-host5' c.out; then
		ready=1
		break
	fi
	sleep 0.2
done
[ $ready = 1 ] || die "OpenSM not ready after 30 s: $(tail -5 opensm.out)"
sleep 1	# let the sweep's last Sets (QoS tables, P_Keys) land

# Every "rcv buf" xdump in a libibmad debug stderr, one MAD (hex, 256 bytes) per line.
mads() {
	awk '
	$0 == "rcv buf" { c = 1; h = ""; next }
	c {
		if ($0 ~ /^[0-9a-f][0-9a-f]([0-9a-f][0-9a-f])?( [0-9a-f][0-9a-f]([0-9a-f][0-9a-f])?)* ?$/) {
			g = $0; gsub(/ /, "", g); h = h g
			if (length(h) >= 512) { print substr(h, 1, 512); c = 0 }
			next
		}
		c = 0
	}' "$1"
}

# The "SA Response:" xdump of a saquery -d -d stdout, as one hex string.
saresp() {
	awk '
	$0 == "SA Response:" { c = 1; h = ""; next }
	c {
		if ($0 ~ /^[0-9a-f][0-9a-f]([0-9a-f][0-9a-f])?( [0-9a-f][0-9a-f]([0-9a-f][0-9a-f])?)* ?$/) {
			g = $0; gsub(/ /, "", g); h = h g; next
		}
		c = 0
	}
	END { print h }' "$1"
}

# saquery -d -d stdout without its "SA Request:"/"SA Response:" dumps.
sastrip() {
	awk '
	$0 == "SA Request:" || $0 == "SA Response:" { c = 1; next }
	c && /^[0-9a-f][0-9a-f]([0-9a-f][0-9a-f])?( [0-9a-f][0-9a-f]([0-9a-f][0-9a-f])?)* ?$/ { next }
	{ c = 0; print }' "$1"
}

# The 64 data bytes smpdump printed (xdump of smp->data), as one hex string.
smpdumphex() {
	grep -E '^[0-9a-f]{4}( [0-9a-f]{4})*$' "$1" | tr -d ' \n'
}

NBLK_SMP=0 NBLK_PERF=0 NBLK_SA=0 NFAIL=0
declare -A PERSTRUCT=()
FAILED=()

emit() {	# emit FILE STRUCT HEX TEXTFILE comment...
	local f=$1 s=$2 hex=$3 txt=$4 c
	shift 4
	[ -s "$txt" ] || { log "empty text for $s"; return 1; }
	[ "$(tail -c 1 "$txt" | od -An -c | tr -d ' ')" = '\n' ] || { log "text without final newline for $s"; return 1; }
	{
		for c in "$@"; do printf '# %s\n' "$c"; done
		printf 'struct %s\n' "$s"
		printf '%s\n' "$hex" | fold -w 64 | sed 's/^/hex /'
		printf 'text\n'
		cat "$txt"
		printf 'end\n'
	} >> "$f"
	PERSTRUCT[$s]=$((${PERSTRUCT[$s]:-0} + 1))
}

fail() {	# fail STRUCT reason
	NFAIL=$((NFAIL + 1))
	FAILED+=("$1: $2")
	log "NOT captured: $1: $2"
}

stderr_note() {	# one comment line with the plain run's stderr, if any
	[ -s "$1" ] && printf 'stderr of the plain run (not part of text): %s' \
		"$(sed 's/^ibwarn: \[[0-9]*\]/ibwarn: [pid]/' "$1" | tr '\n' '|' | sed 's/|$//')"
}

# cap_mad KIND STRUCT ATTR HOST VOLATILE DUMPTARGET -- cmd...
#   KIND smp|pm; ATTR attribute id; VOLATILE 1 if the text may legitimately differ between
#   two reads (moving counters, SM activity count); DUMPTARGET: smpdump target ("4",
#   "-D 0,1") for the cross-check, "" for none.
cap_mad() {
	local kind=$1 st=$2 attr=$3 host=$4 vol=$5 dt=$6
	shift 7
	local try h cls meth a data mods n same txt unit off file note dnote cnote snote why=''

	case $kind in
	smp) unit=64 off=64 file=$W/smp.kat ;;
	pm) unit=192 off=64 file=$W/perf.kat ;;
	esac
	for try in 1 2 3; do
		same=0 data='' mods='' n=0
		rm -f d.out d.err p.out p.err
		runc "$host" d.out d.err env LIBIBMAD_DEBUG_LEVEL=2 "$@" ||
			{ why="exit status $?: $(grep -h -v -e '^ibwarn' -e 'buf$' -e '^[0-9a-f ]*$' d.out d.err | tail -n 1)"; continue; }
		runc "$host" p.out p.err "$@" || { why="exit status $? of the plain run"; continue; }
		why="no successful GetResp with attribute $attr among the MADs received"
		while read -r h; do
			[ ${#h} = 512 ] || continue
			cls=${h:2:2} meth=${h:6:2} a=${h:32:4}
			case $kind in
			smp) [ "$cls" = 01 ] || [ "$cls" = 81 ] || continue ;;
			pm) [ "$cls" = 04 ] || continue ;;
			esac
			# status; in a directed-route SMP its top bit is the D (direction) bit
			[ "$meth" = 81 ] && [ $((16#$a)) = $((attr)) ] &&
				[ $((16#${h:8:4} & (16#$cls == 0x81 ? 0x7fff : 0xffff))) = 0 ] || continue
			data+=${h:$((off * 2)):$((unit * 2))}
			mods+=" 0x${h:40:8}"
			n=$((n + 1))
		done < <(mads d.err)
		[ $n -gt 0 ] || continue
		cmp -s d.out p.out && { same=1; break; }
		[ "$vol" = 1 ] && break
	done
	if [ $n = 0 ]; then
		fail "$st" "SIM_HOST=$host $*: $why"
		return 1
	fi
	if [ $same = 1 ]; then
		txt=p.out
		note="text: plain re-run printed the identical stdout"
	elif [ "$vol" = 1 ]; then
		txt=d.out
		note="text: stdout of the same run that received these bytes (a plain re-run differed: moving counters / SM activity count)"
	else
		fail "$st" "SIM_HOST=$host $*: stdout not reproducible"
		return 1
	fi
	cnote=''
	if [ -n "$dt" ] && [ $n = 1 ]; then
		# shellcheck disable=SC2086
		if runc "$host" s.out s.err smpdump $dt "$attr" "${mods# }"; then
			if [ "$(smpdumphex s.out)" = "$data" ]; then
				cnote="cross-check: smpdump $dt $attr ${mods# } printed the same 64 bytes"
			elif [ "$vol" = 1 ]; then
				cnote="cross-check: smpdump $dt $attr ${mods# } differed (volatile attribute)"
			else
				fail "$st" "SIM_HOST=$host $*: smpdump $dt $attr ${mods# } differs"
				return 1
			fi
		fi
	fi
	snote=$(stderr_note p.err)
	dnote="bytes: $n x $unit-byte attribute data (MAD bytes $off..$((off + unit - 1))) of attr $(printf '0x%04x' $((attr))), attribute modifiers:$mods; cut from the GetResp MAD(s) this command received (LIBIBMAD_DEBUG_LEVEL=2 rcv buf)"
	emit "$file" "$st" "$data" "$txt" \
		"SIM_HOST=$host $*" \
		"fabric: $FABRIC" \
		"$dnote" "$note" ${cnote:+"$cnote"} ${snote:+"$snote"} || return 1
	case $kind in
	smp) NBLK_SMP=$((NBLK_SMP + 1)) ;;
	pm) NBLK_PERF=$((NBLK_PERF + 1)) ;;
	esac
}

smp() { cap_mad smp "$@"; }
pm() { cap_mad pm "$1" "$2" "$3" "$4" "" "${@:5}"; }

# cap_sa STRUCT ATTR HOST -- saquery args...
cap_sa() {
	local st=$1 attr=$2 host=$3
	shift 4
	local try resp len cls meth status a aoff recsz cnt ok=0 why='' snote
	for try in 1 2 3; do
		runc "$host" d.out d.err saquery -d -d "$@" || { why="rc $? of saquery -d -d"; continue; }
		runc "$host" p.out p.err saquery "$@" || { why="rc $? of saquery: $(head -c 200 p.out)"; continue; }
		resp=$(saresp d.out)
		len=$((${#resp} / 2))
		[ $len -ge 56 ] || { why="no SA response dump"; continue; }
		cls=${resp:2:2} meth=${resp:6:2} status=${resp:8:4} a=${resp:32:4}
		aoff=$((16#${resp:88:4}))
		recsz=$((aoff * 8))
		[ "$cls" = 03 ] && [ "$status" = 0000 ] && [ $((16#$a)) = $((attr)) ] ||
			{ why="class $cls status $status attr $a"; continue; }
		case $meth in
		81) cnt=1 ;;
		92) [ $recsz -gt 0 ] && cnt=$(((len - 56) / recsz)) || cnt=0 ;;
		*) why="method $meth"; continue ;;
		esac
		[ "$cnt" = 1 ] || { why="$cnt records in the response (need exactly 1)"; continue; }
		sastrip d.out > d.txt
		cmp -s d.txt p.out || { why="plain stdout differs from the -d -d run"; continue; }
		ok=1
		break
	done
	if [ $ok = 0 ]; then
		fail "$st" "SIM_HOST=$host saquery $*: $why"
		return 1
	fi
	snote=$(stderr_note p.err)
	emit "$W/sa.kat" "$st" "${resp:112:$((recsz * 2))}" p.out \
		"SIM_HOST=$host saquery $*" \
		"fabric: $FABRIC" \
		"bytes: 1 record of $recsz bytes (AttributeOffset $aoff x 8; SA MAD bytes 56..$((55 + recsz))) of attr $(printf '0x%04x' $((attr))), from the $( [ "$meth" = 92 ] && echo GetTableResp || echo GetResp ) MAD of \"saquery -d -d $*\" (SA Response xdump)" \
		"text: plain \"saquery $*\" stdout, identical to the -d -d run's stdout without its SA Request/Response dumps" \
		${snote:+"$snote"} || return 1
	NBLK_SA=$((NBLK_SA + 1))
}
sa() { cap_sa "$@"; }

# ------------------------------------------------------------------ checks ----------------
# LIDs are assigned by OpenSM in discovery order; the captures below name LIDs, so verify.
check_lid() {	# check_lid LID "node description"
	runc Hca1 c.out c.err smpquery nodedesc "$1" || die "cannot read NodeDescription of LID $1"
	grep -q "^Node Description:\.*$2\$" c.out || die "LID $1 is not \"$2\": $(cat c.out) -- LID assignment changed, update capture.sh"
}
check_lid 1 "kat core switch 1"
check_lid 2 "kat-host1 HCA-1"
check_lid 4 "kat leaf switch 2"
check_lid 6 "kat-host2 mlx5_0"
check_lid 8 "Hca3"
check_lid 10 "kat-host4 single port"
check_lid 12 "kat-host5 dual-homed"
check_lid 14 "kat-host5 dual-homed"

W=$T/out
mkdir -p "$W"
: > "$W/smp.kat"; : > "$W/perf.kat"; : > "$W/sa.kat"

# ------------------------------------------------------------------ SMP -------------------
log "SMP captures"
# NodeInfo
smp SMPNodeInfo 0x11 Hca1 0 2 -- smpquery nodeinfo 2
smp SMPNodeInfo 0x11 Hca1 0 1 -- smpquery nodeinfo 1
smp SMPNodeInfo 0x11 Hca1 0 4 -- smpquery nodeinfo 4
smp SMPNodeInfo 0x11 Hca2 0 8 -- smpquery nodeinfo 8
smp SMPNodeInfo 0x11 Hca2 0 10 -- smpquery nodeinfo 10
smp SMPNodeInfo 0x11 Switch2 0 14 -- smpquery nodeinfo 14
smp SMPNodeInfo 0x11 Hca5 0 12 -- smpquery nodeinfo 12
smp SMPNodeInfo 0x11 Hca1 0 "-D 0,1,3" -- smpquery -D nodeinfo 0,1,3
smp SMPNodeInfo 0x11 Hca4 0 "" -- smpquery -G nodeinfo 0x100004
# NodeDescription
smp SMPNodeDescription 0x10 Hca1 0 1 -- smpquery nodedesc 1
smp SMPNodeDescription 0x10 Hca1 0 8 -- smpquery nodedesc 8
smp SMPNodeDescription 0x10 Hca2 0 14 -- smpquery nodedesc 14
smp SMPNodeDescription 0x10 Switch2 0 4 -- smpquery nodedesc 4
smp SMPNodeDescription 0x10 Hca1 0 "-D 0" -- smpquery -D nodedesc 0
# PortInfo
smp SMPPortInfo 0x15 Hca1 0 2 -- smpquery portinfo 2 1
smp SMPPortInfo 0x15 Hca1 0 2 -- smpquery -K portinfo 2 1
smp SMPPortInfo 0x15 Hca1 0 2 -- smpquery portinfo 2 2
smp SMPPortInfo 0x15 Hca1 0 6 -- smpquery portinfo 6 1
smp SMPPortInfo 0x15 Hca1 0 8 -- smpquery portinfo 8 1
smp SMPPortInfo 0x15 Hca1 0 12 -- smpquery portinfo 12 1
smp SMPPortInfo 0x15 Hca1 0 14 -- smpquery portinfo 14 2
smp SMPPortInfo 0x15 Hca2 0 10 -- smpquery portinfo 10 1
smp SMPPortInfo 0x15 Switch2 0 4 -- smpquery portinfo 4 0
smp SMPPortInfo 0x15 Switch2 0 4 -- smpquery portinfo 4 3
smp SMPPortInfo 0x15 Switch2 0 4 -- smpquery portinfo 4 12
smp SMPPortInfo 0x15 Hca1 0 1 -- smpquery portinfo 1 0
smp SMPPortInfo 0x15 Hca1 0 1 -- smpquery -K portinfo 1 0
smp SMPPortInfo 0x15 Hca1 0 1 -- smpquery portinfo 1 5
smp SMPPortInfo 0x15 Hca1 0 1 -- smpquery portinfo 1 4
smp SMPPortInfo 0x15 Hca1 0 "-D 0,1" -- smpquery -D portinfo 0,1 2
# SwitchInfo
smp SMPSwitchInfo 0x12 Hca1 0 1 -- smpquery switchinfo 1
smp SMPSwitchInfo 0x12 Hca2 0 4 -- smpquery switchinfo 4
smp SMPSwitchInfo 0x12 Hca1 0 "-D 0,1" -- smpquery -D switchinfo 0,1
# P_Key tables (one Get per 32-entry block up to the partition capacity)
smp SMPPKeyTable 0x16 Hca1 0 2 -- smpquery pkeys 2 1
smp SMPPKeyTable 0x16 Hca1 0 12 -- smpquery pkeys 12 1
smp SMPPKeyTable 0x16 Hca2 0 6 -- smpquery pkeys 6 1
smp SMPPKeyTable 0x16 Hca2 0 10 -- smpquery pkeys 10 1
smp SMPPKeyTable 0x16 Hca1 0 1 -- smpquery pkeys 1 1
smp SMPPKeyTable 0x16 Hca1 0 4 -- smpquery pkeys 4 0
# SL to VL mapping (switches: one Get per input port)
smp SMPSLToVLMappingTable 0x17 Hca1 0 2 -- smpquery sl2vl 2
smp SMPSLToVLMappingTable 0x17 Hca2 0 14 -- smpquery sl2vl 14
smp SMPSLToVLMappingTable 0x17 Hca1 0 1 -- smpquery sl2vl 1 3
smp SMPSLToVLMappingTable 0x17 Switch2 0 4 -- smpquery sl2vl 4 12
# VL arbitration (Gets for the low (mod 1) and high (mod 3) table blocks)
smp SMPVLArbitrationTable 0x18 Hca1 0 2 -- smpquery vlarb 2 1
smp SMPVLArbitrationTable 0x18 Hca1 0 1 -- smpquery vlarb 1 3
smp SMPVLArbitrationTable 0x18 Hca2 0 4 -- smpquery vlarb 4 12
smp SMPVLArbitrationTable 0x18 Hca5 0 12 -- smpquery vlarb 12 1
# GUIDInfo (one Get per 8-GUID block up to GuidCap)
smp SMPGUIDInfo 0x14 Hca1 0 2 -- smpquery guidinfo 2
smp SMPGUIDInfo 0x14 Hca1 0 1 -- smpquery guidinfo 1
smp SMPGUIDInfo 0x14 Hca2 0 10 -- smpquery guidinfo 10
# SMInfo (sminfo prints one line; the activity count moves)
smp SMPSMInfo 0x20 Hca1 1 1 -- sminfo
smp SMPSMInfo 0x20 Hca2 1 1 -- sminfo 1
smp SMPSMInfo 0x20 Hca1 1 "-D 0,1" -- sminfo -D 0,1
smp SMPSMInfo 0x20 Switch2 1 1 -- sminfo

# ------------------------------------------------------------------ PerfMgt ---------------
log "PerfMgt captures"
nset=0
pset() {	# pset "node"[port] Attr.Field=value ...
	local tgt=$1 f
	shift
	for f in "$@"; do
		con "PerformanceSet $tgt $f"
		nset=$((nset + 1))
	done
}
pset '"Hca2"[1]' PortCounters.SymbolErrorCounter=70000 PortCounters.LinkErrorRecoveryCounter=254 \
	PortCounters.LinkDownedCounter=17 PortCounters.PortRcvErrors=4660 \
	PortCounters.PortRcvRemotePhysicalErrors=291 PortCounters.PortXmitDiscards=513 \
	PortCounters.PortXmitConstraintErrors=200 PortCounters.PortRcvConstraintErrors=255 \
	PortCounters.LocalLinkIntegrityErrors=9 PortCounters.ExcessiveBufferOverrunErrors=15 \
	PortCounters.VL15Dropped=1000 PortCounters.PortXmitWait=0x89abcdef \
	PortCountersExtended.PortUnicastXmitPkts=0x0123456789abcdef \
	PortCountersExtended.PortUnicastRcvPkts=0xfedcba9876543210 \
	PortCountersExtended.PortMultiCastXmitPkts=0x8000000000000000 \
	PortCountersExtended.PortMultiCastRcvPkts=1 \
	PortRcvErrorDetails.PortLocalPhysicalErrors=257 PortRcvErrorDetails.PortMalformedPacketErrors=514 \
	PortRcvErrorDetails.PortBufferOverrunErrors=771 PortRcvErrorDetails.PortDLIDMappingErrors=1028 \
	PortRcvErrorDetails.PortVLMappingErrors=1285 PortRcvErrorDetails.PortLoopingErrors=1542 \
	PortXmitDiscardDetails.PortInactiveDiscards=11 PortXmitDiscardDetails.PortNeighborMTUDiscards=22 \
	PortXmitDiscardDetails.PortSwLifetimeLimitDiscards=33 \
	PortXmitDiscardDetails.PortSwHOQLifetimeLimitDiscards=44
for v in $(seq 0 15); do
	pset '"Hca2"[1]' "PortVLOpPackets.PortVLOpPackets$v=$((v * 1111 + 1))" \
		"PortVLOpData.PortVLOpData$v=$((v * 0x01010101 + 0x10))" \
		"PortVLXmitWaitCounters.PortVLXmitWaitCounters$v=$((0xfff0 + v))"
done
pset '"Switch2"[3]' PortCounters.PortRcvSwitchRelayErrors=777 PortCounters.SymbolErrorCounter=3 \
	PortRcvErrorDetails.PortLocalPhysicalErrors=65535 PortRcvErrorDetails.PortMalformedPacketErrors=1 \
	PortRcvErrorDetails.PortBufferOverrunErrors=300 PortRcvErrorDetails.PortDLIDMappingErrors=40000 \
	PortRcvErrorDetails.PortVLMappingErrors=5 PortRcvErrorDetails.PortLoopingErrors=6 \
	PortXmitDiscardDetails.PortInactiveDiscards=65535 \
	PortXmitDiscardDetails.PortSwLifetimeLimitDiscards=12345 \
	PortXmitDiscardDetails.PortSwHOQLifetimeLimitDiscards=7 \
	PortOpRcvCounters.PortOpRcvPkts=4294967295 PortOpRcvCounters.PortOpRcvData=123456789 \
	PortFlowCtlCounters.PortXmitFlowPkts=0xdeadbeef PortFlowCtlCounters.PortRcvFlowPkts=42
for v in $(seq 0 15); do
	pset '"Switch2"[3]' "PortVLOpPackets.PortVLOpPackets$v=$(((15 - v) * 4096 + v))" \
		"PortVLOpData.PortVLOpData$v=$(((v + 1) * 268435455))" \
		"PortVLXmitFlowCtlUpdateErrors.PortVLXmitFlowCtlUpdateErrors$v=$((v % 4))" \
		"PortVLXmitWaitCounters.PortVLXmitWaitCounters$v=$((v * v * 100))"
done
pset '"Hca5"[2]' PortCounters.SymbolErrorCounter=1 PortCounters.LinkDownedCounter=255 \
	PortCounters.LocalLinkIntegrityErrors=15 PortCounters.ExcessiveBufferOverrunErrors=1 \
	PortCounters.PortXmitWait=0xffffffff \
	PortCountersExtended.PortUnicastXmitPkts=18446744073709551615 \
	PortOpRcvCounters.PortOpRcvPkts=1 PortOpRcvCounters.PortOpRcvData=0x80000000 \
	PortFlowCtlCounters.PortXmitFlowPkts=1 PortFlowCtlCounters.PortRcvFlowPkts=0xffffffff
for v in $(seq 0 15); do
	pset '"Hca5"[2]' "PortVLXmitFlowCtlUpdateErrors.PortVLXmitFlowCtlUpdateErrors$v=$((3 - v % 4))"
done
pset '"Switch1"[2]' PortCounters.PortXmitDiscards=65535 PortCounters.PortRcvErrors=2
sleep 0.5
got=$(grep -c 'has been set to' ibsim.out)
[ "$got" = "$nset" ] || die "ibsim accepted $got of $nset PerformanceSet commands: $(grep '^#\|# ' ibsim.out | tail -5)"

pm PMPortCounters 0x12 Hca1 1 -- perfquery 6 1
pm PMPortCounters 0x12 Hca2 1 -- perfquery
pm PMPortCounters 0x12 Hca1 1 -- perfquery 4 3
pm PMPortCounters 0x12 Hca4 1 -- perfquery 1 2
pm PMPortCounters 0x12 Hca5 1 -- perfquery 14 2
pm PMPortCounters 0x12 Hca1 1 -- perfquery -a 4
pm PMPortCountersExt 0x1d Hca1 1 -- perfquery -x 6 1
pm PMPortCountersExt 0x1d Hca2 1 -- perfquery -x 4 3
pm PMPortCountersExt 0x1d Hca1 1 -- perfquery -x 14 2
pm PMPortRcvErrorDetails 0x15 Hca1 0 -- perfquery -E 4 3
pm PMPortRcvErrorDetails 0x15 Hca4 0 -- perfquery -E 6 1
pm PMPortXmitDiscardDetails 0x16 Hca1 0 -- perfquery -D 4 3
pm PMPortXmitDiscardDetails 0x16 Hca2 0 -- perfquery -D 6 1
pm PMPortOpRcvCounters 0x17 Hca1 0 -- perfquery --oprcvcounters 4 3
pm PMPortOpRcvCounters 0x17 Hca1 0 -- perfquery --oprcvcounters 14 2
pm PMPortFlowCtlCounters 0x18 Hca2 0 -- perfquery --flowctlcounters 4 3
pm PMPortFlowCtlCounters 0x18 Hca1 0 -- perfquery --flowctlcounters 14 2
pm PMPortVLOpPackets 0x19 Hca1 0 -- perfquery --vloppackets 4 3
pm PMPortVLOpPackets 0x19 Hca1 0 -- perfquery --vloppackets 6 1
pm PMPortVLOpData 0x1a Hca1 0 -- perfquery --vlopdata 4 3
pm PMPortVLOpData 0x1a Hca5 0 -- perfquery --vlopdata 6 1
pm PMPortVLXmitFlowCtlUpdateErrors 0x1b Hca1 0 -- perfquery --vlxmitflowctlerrors 4 3
pm PMPortVLXmitFlowCtlUpdateErrors 0x1b Hca2 0 -- perfquery --vlxmitflowctlerrors 14 2
pm PMPortVLXmitWaitCounters 0x1c Hca1 0 -- perfquery --vlxmitcounters 4 3
pm PMPortVLXmitWaitCounters 0x1c Hca1 0 -- perfquery --vlxmitcounters 6 1
# Not answered by ibsim 0.10 (no handler): recorded as not captured.
pm PMPortXmitDataSL 0x36 Hca1 0 -- perfquery -X 6 1
pm PMPortRcvDataSL 0x37 Hca1 0 -- perfquery -S 6 1

# ------------------------------------------------------------------ SA --------------------
log "SA captures"
sa SANodeRecord 0x11 Hca1 -- NR 1
sa SANodeRecord 0x11 Hca1 -- NR 2
sa SANodeRecord 0x11 Hca1 -- NR 4
sa SANodeRecord 0x11 Hca2 -- NR 8
sa SANodeRecord 0x11 Hca2 -- NR 10
sa SANodeRecord 0x11 Hca5 -- NR 14
sa SAPortInfoRecord 0x12 Hca1 -- PIR 2/1
sa SAPortInfoRecord 0x12 Hca1 -- PIR 1/0
sa SAPortInfoRecord 0x12 Hca1 -- PIR 1/3
sa SAPortInfoRecord 0x12 Hca1 -- PIR 1/4
sa SAPortInfoRecord 0x12 Hca2 -- PIR 4/12
sa SAPortInfoRecord 0x12 Hca2 -- PIR 14/2
sa SAPathRecord 0x35 Hca1 -- -p --slid 2 --dlid 6
sa SAPathRecord 0x35 Hca1 -- -p --slid 8 --dlid 14
sa SAPathRecord 0x35 Hca5 -- -p --slid 12 --dlid 10
sa SAPathRecord 0x35 Hca2 -- -p --slid 6 --dlid 4
sa SAPathRecord 0x35 Hca1 -- --src-to-dst 2:7
sa SAPathRecord 0x35 Hca2 -- -p --slid 7 --dlid 15
sa SASwitchInfoRecord 0x14 Hca1 -- SWIR 1
sa SASwitchInfoRecord 0x14 Hca2 -- SWIR 4
sa SALinkRecord 0x20 Hca1 -- LR 2/1
sa SALinkRecord 0x20 Hca1 -- LR 4/3
sa SALinkRecord 0x20 Hca2 -- LR 4/12
sa SALinkRecord 0x20 Hca2 -- LR 4/5
sa SASMInfoRecord 0x18 Hca1 -- SMIR
sa SASMInfoRecord 0x18 Hca2 -- SMIR 1
sa SAPKeyTableRecord 0x33 Hca1 -- --smkey 1 PKTR 2/1/0
sa SAPKeyTableRecord 0x33 Hca1 -- --smkey 1 PKTR 12/1/0
sa SAPKeyTableRecord 0x33 Hca2 -- --smkey 1 PKTR 4/3/0
sa SAPKeyTableRecord 0x33 Hca2 -- --smkey 1 PKTR 1/0/0
sa SAGUIDInfoRecord 0x30 Hca1 -- GIR 2/0
sa SAGUIDInfoRecord 0x30 Hca1 -- GIR 1/0
sa SAGUIDInfoRecord 0x30 Hca2 -- GIR 14/0
sa SASLToVLMappingTableRecord 0x13 Hca1 -- SL2VL 2/0/0
sa SASLToVLMappingTableRecord 0x13 Hca1 -- SL2VL 1/3/1
sa SASLToVLMappingTableRecord 0x13 Hca2 -- SL2VL 4/5/12
sa SASLToVLMappingTableRecord 0x13 Hca2 -- SL2VL 14/0/0
sa SAVLArbitrationTableRecord 0x36 Hca1 -- VLAR 2/1/1
sa SAVLArbitrationTableRecord 0x36 Hca1 -- VLAR 2/1/3
sa SAVLArbitrationTableRecord 0x36 Hca2 -- VLAR 1/3/1
sa SAVLArbitrationTableRecord 0x36 Hca2 -- VLAR 1/3/3
sa SALinearForwardingTableRecord 0x15 Hca1 -- LFTR 1/0
sa SALinearForwardingTableRecord 0x15 Hca2 -- LFTR 4/0
sa SAMCMemberRecord 0x38 Hca1 -- MCMR --mlid 0xc000
sa SAMCMemberRecord 0x38 Hca2 -- MCMR --mlid 0xc001
# ServiceRecords: OpenSM has none of its own; register one at a time with sa-service.c
if runc Hca1 r.out r.err ./sa-service set fe80::10:1 0; then
	sa SAServiceRecord 0x31 Hca1 -- SR
	sa SAServiceRecord 0x31 Hca2 -- -K SR
	sa SAServiceRecord 0x31 Hca1 -- --smkey 1 -K SR
	runc Hca1 r.out r.err ./sa-service delete fe80::10:1 0 || die "cannot delete service A"
else
	fail SAServiceRecord "sa-service set A: $(cat r.out r.err)"
fi
if runc Hca2 r.out r.err ./sa-service set fe80::10:4 1; then
	sa SAServiceRecord 0x31 Hca4 -- SR
	runc Hca2 r.out r.err ./sa-service delete fe80::10:4 1 || die "cannot delete service B"
else
	fail SAServiceRecord "sa-service set B: $(cat r.out r.err)"
fi

# ------------------------------------------------------------------ last: a disabled port -
# ibportstate disable changes the fabric (OpenSM resweeps), so it comes after everything else.
log "disabled port"
if runc Hca1 r.out r.err ibportstate 4 12 disable; then
	sleep 1
	smp SMPPortInfo 0x15 Hca1 0 4 -- smpquery portinfo 4 12
else
	fail SMPPortInfo "ibportstate 4 12 disable: $(cat r.out r.err)"
fi

# ------------------------------------------------------------------ results ---------------
for f in smp perf sa; do
	cp "$W/$f.kat" "$OUTDIR/$f.kat" || die "cannot write $OUTDIR/$f.kat"
done
log "blocks: smp.kat $NBLK_SMP, perf.kat $NBLK_PERF, sa.kat $NBLK_SA"
for s in $(printf '%s\n' "${!PERSTRUCT[@]}" | sort); do
	log "  $s ${PERSTRUCT[$s]}"
done
if [ $NFAIL -gt 0 ]; then
	log "$NFAIL capture(s) not made:"
	for s in "${FAILED[@]}"; do log "  $s"; done
fi
exit 0
