#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# libibtopo's switch forwarding tables on simulated fabrics, against infiniband-diags on the
# same fabric.  tests/topo/lft-dump discovers with libibtopo, loads every switch's table with
# ibtopo_load_lft()/ibtopo_load_mft() and prints it as dump_fts does; its --route prints
# ibtopo_route()'s hops as ibtracert prints a route.  Checked, byte for byte:
# - three fabrics (two switches, a 368-node fat tree, a mixed one): every switch's LFT
#   (dump_fts, -a, -n, a LID range) with 1 and 128 SMPs in flight;
# - routes from an HCA and from a switch to every LID (a sample on the fat tree) against
#   ibtracert, and a LID nobody has fails in both;
# - MFTs after HCAs joined two multicast groups (the IPoIB broadcast group and a new one),
#   OpenSM having programmed them: dump_fts -M, -M -n, -M -a, an MLID range;
# - a 254-port switch: entries for ports 128 to 254 (against ibroute), MFT masks in all 16
#   positions (members on ports 1 to 254).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require dump_fts ibtracert ibaddr
ours=$(cd "$top_builddir" && pwd)/tests/topo/lft-dump
[ -x "$ours" ] || { echo "ERROR: $ours is not built"; exit 99; }
. "$top_srcdir/tests/fabric/topo-lib.sh"
topo_setup
BCAST=ff12:401b:ffff::ffff:ffff
OTHER=ff12:601b:ffff::1:2

# both TAG HOST ARGS...: dump_fts and lft-dump with the same arguments, compared
both() {
	tag=$1 host=$2
	shift 2
	fabric_run "$host" "$FABRIC_REF/dump_fts" "$@" >"$work/ref.$tag" 2>"$work/ref.$tag.err"
	fabric_run "$host" "$ours" "$@" >"$work/ours.$tag" 2>"$work/ours.$tag.err"
	rc=$?
	expect "$tag: lft-dump $* exits 0 (got $rc)" [ "$rc" = 0 ]
	same "$tag: lft-dump $* = dump_fts $*" "$work/ref.$tag" "$work/ours.$tag"
	expect "$tag: no errors" [ ! -s "$work/ours.$tag.err" ]
}
# join HOST MGID
join() {
	fabric_run "$1" "$ours" --join "$2" >/dev/null || { echo "ERROR: $1 cannot join $2"; exit 99; }
}
# mft_settled HOST PATTERN: waits until dump_fts -M shows PATTERN and two dumps in a row agree
mft_settled() {
	i=0
	prev=
	while [ $i -lt 100 ]; do
		cur=$(fabric_run "$1" "$FABRIC_REF/dump_fts" -M 2>/dev/null)
		if [ "$cur" = "$prev" ] && printf '%s\n' "$cur" | grep -q "$2"; then
			return 0
		fi
		prev=$cur
		i=$((i + 1))
		sleep 0.1
	done
	echo "ERROR: OpenSM did not program the MFTs ($2)"
	exit 99
}
# routes TAG HOST SRC DLID...: ibtracert SRC DLID for each, against lft-dump --route
routes() {
	tag=$1 host=$2 src=$3
	shift 3
	: >"$work/ref.$tag"
	set -- "$@"
	args=
	for d in "$@"; do
		fabric_run "$host" "$FABRIC_REF/ibtracert" "$src" "$d" >>"$work/ref.$tag" 2>/dev/null ||
			{ echo "ERROR: ibtracert $src $d failed"; exit 99; }
		args="$args --route $src,$d"
	done
	# shellcheck disable=SC2086
	fabric_run "$host" "$ours" $args >"$work/ours.$tag" 2>"$work/ours.$tag.err"
	rc=$?
	expect "$tag: lft-dump --route exits 0 (got $rc)" [ "$rc" = 0 ]
	same "$tag: routes from LID $src to $# LIDs = ibtracert's" "$work/ref.$tag" "$work/ours.$tag"
	expect "$tag: several LIDs" [ "$#" -gt 1 ]
	expect "$tag: $# routes traced" [ "$(grep -c '^To ' "$work/ours.$tag")" = "$#" ]
}

for t in "two-switch hca-a1 hca-a2 hca-b1 hca-b3" "fat-tree ft-h001 ft-h002 ft-h100 ft-h336" \
	"mixed mx-h1 mx-h7 mx-h5 mx-h3"; do
	# shellcheck disable=SC2086
	set -- $t
	net=$1 host=$2
	shift 2
	topo_start "$top_srcdir/tests/fabric/topo/$net.net"

	# ---- LFTs ---------------------------------------------------------------------------------
	both "$net" "$host"
	expect "$net: the reference dumped routes" grep -q '^0x0001 ' "$work/ref.$net"
	for o in 1 128; do
		fabric_run "$host" "$ours" -o $o >"$work/ours.$net.$o" 2>&1
		same "$net: lft-dump -o $o = dump_fts" "$work/ref.$net" "$work/ours.$net.$o"
	done
	both "$net.a" "$host" -a
	both "$net.n" "$host" -n
	both "$net.range" "$host" 3 0x41

	# ---- routes -------------------------------------------------------------------------------
	lids=$(sed -n 's/^0x\([0-9a-f]*\) [0-9]* : .*/\1/p' "$work/ref.$net" | sort -u | while read -r l; do
		printf '%d\n' "0x$l"; done | sort -n -u)
	[ "$net" = fat-tree ] && lids=$(printf '%s\n' "$lids" | awk 'NR % 12 == 1')
	self=$(fabric_run "$host" "$FABRIC_REF/ibaddr" | sed -n 's/.*LID start 0x\([0-9a-f]*\).*/\1/p')
	self=$(printf '%d' "0x$self")
	sw=$(sed -n 's/^0x\([0-9a-f]*\) 000 : .*/\1/p' "$work/ref.$net" | head -n 1)
	sw=$(printf '%d' "0x$sw")
	# shellcheck disable=SC2086
	routes "$net.route-ca" "$host" "$self" $lids
	# shellcheck disable=SC2086
	routes "$net.route-sw" "$host" "$sw" $lids
	n=$((n + 1))
	if fabric_run "$host" "$ours" --route "$self,49000" >/dev/null 2>&1; then
		echo "FAIL: $net: a route to a LID nobody has succeeds"
		fail=1
	fi

	# ---- MFTs -----------------------------------------------------------------------------------
	both "$net.M0" "$host" -M
	for h in "$@"; do
		join "$h" "$BCAST"
	done
	join "$1" "$OTHER"
	join "$3" "$OTHER"
	mft_settled "$host" '^0xc001 '
	both "$net.M" "$host" -M
	expect "$net: the reference dumped MLIDs 0xc000 and 0xc001" grep -q '^0xc001 ' "$work/ref.$net.M"
	expect "$net: the joins changed the MFTs" differ "$work/ref.$net.M0" "$work/ref.$net.M"
	both "$net.Mn" "$host" -M -n
	both "$net.Ma" "$host" -M -a
	both "$net.Mrange" "$host" -M 0xc001 0xc001
	fabric_stop
done

# ---- a 254-port switch: all 16 positions of the MFT ----------------------------------------------
topo_wide_net "$work/wide.net"
topo_start "$work/wide.net"
for h in 1 17 100 200 254; do
	join "wide-h$h" "$BCAST"
done
mft_settled wide-h1 '^0xc000 '
# infiniband-diags 44's dump_fts reads LFT entries as signed char, so ports 128 and up come
# out "illegal"; ibroute (and rdma-core since) reads them right: compare with ibroute, whose
# first line names the switch by LID where dump_fts names it by DR path
for args in "" "-a" "-M" "-M -n"; do
	tag=wide.ibroute$(printf '%s' "$args" | tr -d ' ')
	# shellcheck disable=SC2086
	fabric_run wide-h1 "$FABRIC_REF/ibroute" $args 1 | tail -n +2 >"$work/ref.$tag"
	# shellcheck disable=SC2086
	fabric_run wide-h1 "$ours" $args | tail -n +2 >"$work/ours.$tag"
	same "wide: lft-dump $args = ibroute $args 1 (but the first line)" "$work/ref.$tag" "$work/ours.$tag"
done
expect "wide: routes to ports 128 and up" grep -q '^0x0003 129 : (Channel Adapter' "$work/ours.wide.ibroute-a"
both wide.M wide-h1 -M
both wide.Mn wide-h1 -M -n
expect "wide: a member on port 254 (position 15)" grep -q '^0xc000 .*4000$' "$work/ours.wide.Mn"
fabric_stop

topo_done
