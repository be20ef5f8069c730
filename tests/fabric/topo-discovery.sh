#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# libibtopo's directed-route discovery on simulated fabrics, against libibnetdisc (the
# discovery of infiniband-diags, linked by tests/topo/ibnd-dump only) on the same fabric.
# topo-dump and ibnd-dump print the whole database in one format: every node in list order
# with its raw NodeInfo/SwitchInfo/PortInfo bytes, DR path, ports, links, LIDs, the per-type
# lists, the start node, max hops, the SMP count and the chassis.  Checked, byte for byte:
# - three fabrics (two switches, a 368-node fat tree, a mixed one), ours at 1, 16 and 128
#   SMPs in flight against libibnetdisc at its default (2) and at 64;
# - a start from a DR path (-D), a hop limit (-m), a down link, a switch that answers
#   nothing (100% drop on the node: the time-out errors are the reference's), 30% drops
#   with retries (the result equals the undisturbed one);
# - a 66-switch chain (the 63-hop DR limit) and a switch with 254 ports.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require
. "$top_srcdir/tests/fabric/topo-lib.sh"
topo_need_dumps
topo_setup

# run_both TAG HOST [ARGS...]: ibnd-dump and topo-dump with the same arguments
run_both() {
	tag=$1 host=$2
	shift 2
	refrun "$host" "$ref" "$@" >"$work/ref.$tag" 2>"$work/ref.$tag.err"
	echo "$?" >"$work/ref.$tag.rc"
	fabric_run "$host" "$ours" "$@" >"$work/ours.$tag" 2>"$work/ours.$tag.err"
	echo "$?" >"$work/ours.$tag.rc"
}
# the reference prints its errors as "file.c:NNN; text": the text is ours
ref_errors() { sed 's/^[^;]*\.c:[0-9]*; //' "$1" | grep -v '^$' | sort; }

# ---- three fabrics, any number of SMPs in flight ----------------------------------------------
for t in "two-switch hca-a1" "fat-tree ft-h001" "mixed mx-h1"; do
	set -- $t
	topo_start "$top_srcdir/tests/fabric/topo/$1.net"
	refrun "$2" "$ref" >"$work/ref.$1" 2>"$work/ref.$1.err" || { echo "ERROR: ibnd-dump failed on $1"; cat "$work/ref.$1.err"; exit 99; }
	expect "$1: the reference found nodes" grep -q '^node ' "$work/ref.$1"
	refrun "$2" "$ref" -o 64 >"$work/ref64.$1" 2>/dev/null
	same "$1: libibnetdisc at 2 and at 64 SMPs in flight" "$work/ref.$1" "$work/ref64.$1"
	for o in 1 16 128; do
		fabric_run "$2" "$ours" -o $o >"$work/ours.$1.$o" 2>"$work/ours.$1.$o.err"
		rc=$?
		expect "$1 -o $o: exit 0 (got $rc)" [ "$rc" = 0 ]
		same "$1: ours at $o in flight = libibnetdisc" "$work/ref.$1" "$work/ours.$1.$o"
	done
	expect "$1: no errors met" [ ! -s "$work/ours.$1.16.err" ]
	if [ "$1" = two-switch ]; then
		# from a DR path: through sw-a port 7 to sw-b, and from sw-b on to an HCA
		for p in 0,1 0,1,7 0,1,7,1; do
			run_both "D$p" "$2" -D "$p"
			same "two-switch -D $p" "$work/ref.D$p" "$work/ours.D$p"
		done
		for m in 1 2; do
			run_both "m$m" "$2" -m $m
			same "two-switch -m $m" "$work/ref.m$m" "$work/ours.m$m"
			expect "two-switch -m $m finds fewer nodes" \
				[ "$(grep -c '^node ' "$work/ours.m$m")" -lt "$(grep -c '^node ' "$work/ref.two-switch")" ]
		done
		# 30% drops everywhere on sw-b: with retries ours sees the undisturbed fabric
		fabric_console 'Error "sw-b" 30' >/dev/null || { echo "ERROR: cannot set 30% drops"; exit 99; }
		fabric_run "$2" "$ours" -t 20 -r 12 >"$work/ours.drop" 2>"$work/ours.drop.err"
		same "two-switch, 30% drops at sw-b, 12 retries" "$work/ref.two-switch" "$work/ours.drop"
		# sw-b answers nothing: its HCAs are cut off, the time-outs are errors met
		fabric_console 'Error "sw-b" 100' >/dev/null || { echo "ERROR: cannot make sw-b drop"; exit 99; }
		run_both dead "$2" -t 50 -r 1
		same "two-switch, sw-b dead" "$work/ref.dead" "$work/ours.dead"
		expect "sw-b dead: ours exits 3 (partial)" [ "$(cat "$work/ours.dead.rc")" = 3 ]
		ref_errors "$work/ref.dead.err" >"$work/ref.dead.msgs"
		sort "$work/ours.dead.err" >"$work/ours.dead.msgs"
		expect "sw-b dead: the reference met errors" [ -s "$work/ref.dead.msgs" ]
		same "sw-b dead: the errors met are the reference's" "$work/ref.dead.msgs" "$work/ours.dead.msgs"
		fabric_console 'Error "sw-b" 0' >/dev/null || { echo "ERROR: cannot reset drops"; exit 99; }
		# a down link: both walks go round it (sw-a and sw-b stay joined through port 8)
		# (OpenSM gets a trap and sweeps, clearing SwitchInfo's PortStateChange: let it finish,
		# so that both walks see one state)
		sweeps=$(fabric_sweeps)
		fabric_console 'Unlink "sw-a"[7]' >/dev/null || { echo "ERROR: cannot unlink sw-a[7]"; exit 99; }
		fabric_wait_sweep "$sweeps" || { echo "ERROR: no OpenSM sweep after the unlink"; exit 99; }
		run_both unlink "$2"
		same "two-switch, sw-a[7] down" "$work/ref.unlink" "$work/ours.unlink"
		expect "sw-a[7] down changes the paths" differ "$work/ref.unlink" "$work/ref.two-switch"
		fabric_console 'ReLink "sw-a"[7]' >/dev/null || { echo "ERROR: cannot relink sw-a[7]"; exit 99; }
	fi
	fabric_stop
done

# ---- limits: a 66-switch chain (63 hops) and a 254-port switch -------------------------------
topo_chain_net "$work/chain.net" 66
topo_start "$work/chain.net" -
run_both chain ch-h -t 200
same "66-switch chain: the 63-hop limit" "$work/ref.chain" "$work/ours.chain"
expect "66-switch chain: 63 switches reached" [ "$(grep -c '^node 2 ' "$work/ours.chain")" = 63 ] \
	|| grep -c '^node 2 ' "$work/ours.chain"
fabric_stop

topo_wide_net "$work/wide.net"
topo_start "$work/wide.net"
run_both wide wide-h1
same "254-port switch" "$work/ref.wide" "$work/ours.wide"
expect "254-port switch: 255 nodes" [ "$(grep -c '^node ' "$work/ours.wide")" = 255 ]
fabric_stop

topo_done
