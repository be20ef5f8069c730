#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# libibtopo's SA and LID discovery modes on simulated fabrics, against libibnetdisc's
# directed-route discovery (tests/topo/ibnd-dump) on the same fabric.  topo-dump --sa builds
# the database from OpenSM's SA records (the walk answered from them, no SMP), --lid from
# LID-routed SMPs to the LIDs the SA names; both must print what ibnd-dump prints, but for
#  - the "mads" line (the counts differ by design), and
#  - SA mode only: the PortInfo of switch ports without a link, of which OpenSM's SA keeps
#    only PortState and PortPhysicalState (every other field reads 0); those are compared.
# Checked on three fabrics (the simulator's SA cuts every table to one MAD, so the records
# come mostly one by one), from a DR path (-D), with a hop limit (-m), with a link down, and
# SA mode while a switch drops every SMP (the SA's view needs none).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require
. "$top_srcdir/tests/fabric/topo-lib.sh"
topo_need_dumps
topo_setup

# comparable FILE: the dump without its mads line, the PortInfo of link-less switch ports
# (port > 0 of a node of type 2 whose remote is "-") reduced to PortState/PortPhysicalState
comparable() {
	awk '
		/^node / { type = $2 }
		/^  port / { down = (type == 2 && $2 != 0 && $NF == "-") }
		/^mads / { next }
		/^    pinfo / && down {
			print "    pinfo (no link) state " substr($2, 66, 1) " phys " substr($2, 67, 1)
			down = 0
			next
		}
		{ print }' "$1"
}
# check TAG HOST [ARGS...]: ibnd-dump, topo-dump --sa and --lid with the same arguments
check() {
	tag=$1 host=$2
	shift 2
	refrun "$host" "$ref" "$@" >"$work/ref.$tag" 2>"$work/ref.$tag.err"
	comparable "$work/ref.$tag" >"$work/ref.$tag.c"
	grep -v '^mads ' "$work/ref.$tag" >"$work/ref.$tag.m"
	expect "$tag: the reference found nodes" grep -q '^node ' "$work/ref.$tag"
	for mode in sa lid; do
		fabric_run "$host" "$ours" --$mode "$@" >"$work/$mode.$tag" 2>"$work/$mode.$tag.err"
		rc=$?
		expect "$tag --$mode: exit 0 (got $rc)" [ "$rc" = 0 ]
		expect "$tag --$mode: no errors met" [ ! -s "$work/$mode.$tag.err" ]
		[ -s "$work/$mode.$tag.err" ] && head -5 "$work/$mode.$tag.err"
		comparable "$work/$mode.$tag" >"$work/$mode.$tag.c"
		same "$tag --$mode: = libibnetdisc (but mads, SA's link-less switch ports)" \
			"$work/ref.$tag.c" "$work/$mode.$tag.c"
	done
	# LID mode reads every attribute from the nodes: all of it is the reference's
	grep -v '^mads ' "$work/lid.$tag" >"$work/lid.$tag.m"
	same "$tag --lid: = libibnetdisc, link-less ports too" "$work/ref.$tag.m" "$work/lid.$tag.m"
}

for t in "two-switch hca-a1" "fat-tree ft-h001" "mixed mx-h1"; do
	# shellcheck disable=SC2086
	set -- $t
	topo_start "$top_srcdir/tests/fabric/topo/$1.net"
	check "$1" "$2"
	expect "$1: the SA mode sent fewer queries than the walk's SMPs" \
		[ "$(sed -n 's/^mads //p' "$work/sa.$1")" -lt "$(sed -n 's/^mads //p' "$work/ref.$1")" ]
	if [ "$1" = two-switch ]; then
		for p in 0,1 0,1,7 0,1,7,1; do
			check "D$p" "$2" -D "$p"
		done
		check m1 "$2" -m 1
		# SA mode needs no SMP: sw-b dropping all of them changes nothing
		fabric_console 'Error "sw-b" 100' >/dev/null || { echo "ERROR: cannot make sw-b drop"; exit 99; }
		fabric_run "$2" "$ours" --sa >"$work/sa.dead" 2>"$work/sa.dead.err"
		rc=$?
		fabric_console 'Error "sw-b" 0' >/dev/null || { echo "ERROR: cannot reset drops"; exit 99; }
		expect "sw-b dropping SMPs: --sa exits 0 (got $rc)" [ "$rc" = 0 ]
		comparable "$work/sa.dead" >"$work/sa.dead.c"
		same "sw-b dropping SMPs: --sa sees the whole fabric" "$work/ref.two-switch.c" "$work/sa.dead.c"
		# a link down, once OpenSM has seen it: the SA's view follows
		sweeps=$(fabric_sweeps)
		fabric_console 'Unlink "sw-a"[7]' >/dev/null || { echo "ERROR: cannot unlink sw-a[7]"; exit 99; }
		fabric_wait_sweep "$sweeps" || exit 99
		check unlink "$2"
		expect "sw-a[7] down changes the paths" differ "$work/ref.unlink.c" "$work/ref.two-switch.c"
	fi
	fabric_stop
done

topo_done
