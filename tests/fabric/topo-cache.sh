#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# libibtopo's cache file against infiniband-diags' (libibnetdisc's, version 1) on simulated
# fabrics.  For each fabric (two switches, a mixed one with a router, a 368-node fat tree)
# and several start nodes (an HCA, a switch, a dual-homed HCA):
# - `ibnetdiscover --cache` writes the reference file; ibtopo_cache_load() reads it and
#   ibtopo_cache_save() writes it again (tests/topo/cache-tool resave): the same bytes;
# - `ibnetdiscover --load-cache` prints the same topology from our file as from the
#   reference, in every output mode (-f -s -l -g -H -S -R -p -m), and `--diff` between the
#   two files finds nothing;
# - libibnetdisc's database loaded from the reference (tests/topo/ibnd-dump) equals ours
#   loaded from our file (tests/topo/topo-dump): node order, raw attributes, ports, links,
#   LIDs, chassis;
# - our discovery's `--cache` file (topo-dump --cache) has the reference's bytes;
# - after a topology change (a link brought up) everything above holds again;
# - a reference file written while a switch's PortInfo answers were lost (libibnetdisc 44
#   then lists ports it has no records for, and refuses its own file) is refused by ours
#   too, with the reason; our discovery's file of that fabric loads in both.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require
bin=$(cd "$top_builddir" && pwd)/tests/topo
tool=$bin/cache-tool
[ -x "$tool" ] || { echo "ERROR: $tool is not built"; exit 99; }
ibnd=$FABRIC_REF/ibnetdiscover
. "$top_srcdir/tests/fabric/topo-lib.sh"
topo_setup
# the database dumps and our discovery (optional parts: said when missing)
have_dumps=0
[ -x "$bin/ibnd-dump" ] && [ -x "$bin/topo-dump" ] && have_dumps=1
[ "$have_dumps" = 1 ] || echo "NOTE: no tests/topo/ibnd-dump (libibnetdisc-dev): database comparisons skipped"

# ibnetdiscover's text without its "generated on <date>" line
show() {
	"$ibnd" "$@" 2>&1 | grep -v '^# Topology file: generated on'
}

# check TAG HOST: the reference cache from HOST, and everything we compare with it
check() {
	tag=$1 host=$2
	ref=$work/$tag.ref.cache
	ours=$work/$tag.ours.cache
	fabric_run "$host" "$ibnd" --cache "$ref" >/dev/null 2>"$work/$tag.err" ||
		{ echo "ERROR: ibnetdiscover --cache failed on $tag"; cat "$work/$tag.err"; exit 99; }
	expect "$tag: the reference wrote a cache file" [ -s "$ref" ]
	"$tool" resave "$ref" "$ours"
	expect "$tag: cache-tool resave exits 0" [ $? = 0 ]
	same "$tag: our re-save is byte-identical to libibnetdisc's file" "$ref" "$ours"
	for o in "" -f -s -l -g -H -S -R -p -m; do
		show --load-cache "$ref" $o >"$work/$tag.ref.txt"
		show --load-cache "$ours" $o >"$work/$tag.ours.txt"
		# (-R lists routers: only mixed.net has one)
		if [ "$o" != -R ] || [ "${tag%%-*}" = mixed ]; then
			expect "$tag: ibnetdiscover --load-cache $o printed something" [ -s "$work/$tag.ref.txt" ]
		fi
		same "$tag: ibnetdiscover --load-cache $o, ours = reference" "$work/$tag.ref.txt" "$work/$tag.ours.txt"
	done
	show --load-cache "$ref" --diff "$ours" >"$work/$tag.diff.txt"
	expect "$tag: ibnetdiscover --diff of the two files finds nothing" [ ! -s "$work/$tag.diff.txt" ]
	if [ "$have_dumps" = 1 ]; then
		# (libibnetdisc leaks the LID map entries of a switch's ports: no leak check for it
		# in sanitizer builds)
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
			"$bin/ibnd-dump" --load-cache "$ref" >"$work/$tag.ibnd.txt" 2>"$work/$tag.ibnd.err"
		expect "$tag: ibnd-dump --load-cache exits 0" [ $? = 0 ]
		"$bin/topo-dump" --load-cache "$ours" >"$work/$tag.topo.txt" 2>"$work/$tag.topo.err"
		expect "$tag: topo-dump --load-cache exits 0" [ $? = 0 ]
		expect "$tag: topo-dump --load-cache is silent on stderr" [ ! -s "$work/$tag.topo.err" ]
		expect "$tag: ibnd-dump --load-cache dumped nodes" grep -q '^node ' "$work/$tag.ibnd.txt"
		same "$tag: the loaded database, ours = libibnetdisc's" "$work/$tag.ibnd.txt" "$work/$tag.topo.txt"
		fabric_run "$host" "$bin/topo-dump" -q --cache "$work/$tag.disc.cache" >/dev/null 2>"$work/$tag.disc.err"
		expect "$tag: our discovery wrote a cache file" [ -s "$work/$tag.disc.cache" ]
		same "$tag: our discovery's --cache = ibnetdiscover --cache" "$ref" "$work/$tag.disc.cache"
	fi
}

for t in "two-switch hca-a1 sw-b hca-b3" "mixed mx-h1 mx-h8 mx-rt1" "fat-tree ft-h001 ft-spine03 ft-h200"; do
	# shellcheck disable=SC2086 # the fabric and its start nodes
	set -- $t
	net=$1
	shift
	topo_start "$top_srcdir/tests/fabric/topo/$net.net"
	for host in "$@"; do
		check "$net-$host" "$host"
	done
	if [ "$net" = mixed ]; then
		# a link comes up: OpenSM sweeps, the new topology caches as well
		s=$(fabric_sweeps)
		fabric_console 'ReLink "mx-sw1"[8]' >/dev/null || { echo "ERROR: cannot relink mx-sw1[8]"; exit 99; }
		fabric_wait_sweep "$s" || { echo "ERROR: no sweep after the relink"; exit 99; }
		check "$net-relinked" mx-h1
		expect "mixed: the relinked fabric's file differs" [ "$(cmp "$work/mixed-mx-h1.ref.cache" "$work/mixed-relinked.ref.cache" 2>&1)" != "" ]
	fi
	if [ "$net" = two-switch ]; then
		# sw-b's PortInfo answers lost (attribute 0x15 = 21): sw-b is found, its ports 7 and 8
		# are seen from sw-a but never answer
		fabric_console 'Error "sw-b" 100 21' >/dev/null || { echo "ERROR: cannot drop sw-b's PortInfo"; exit 99; }
		ref=$work/lost.ref.cache
		fabric_run hca-a1 "$ibnd" -t 20 --cache "$ref" >/dev/null 2>&1
		expect "PortInfo lost: the reference wrote a cache file" [ -s "$ref" ]
		"$ibnd" --load-cache "$ref" >/dev/null 2>&1
		expect "PortInfo lost: libibnetdisc 44 refuses its own file" [ $? != 0 ]
		"$tool" check "$ref" >/dev/null 2>"$work/lost.why"
		expect "PortInfo lost: ours refuses it too" [ $? = 1 ]
		expect "PortInfo lost: ours says why" \
			grep -q 'node 0x0000000000200001 lists port 0x0000000000200001:7, which has no port record' "$work/lost.why"
		if [ "$have_dumps" = 1 ]; then
			fabric_run hca-a1 "$bin/topo-dump" -q -t 20 -r 1 --cache "$work/lost.disc.cache" >/dev/null 2>&1
			expect "PortInfo lost: our discovery wrote a cache file" [ -s "$work/lost.disc.cache" ]
			"$ibnd" --load-cache "$work/lost.disc.cache" >/dev/null 2>&1
			expect "PortInfo lost: libibnetdisc loads our file" [ $? = 0 ]
			"$tool" check "$work/lost.disc.cache" >/dev/null
			expect "PortInfo lost: ours loads our file" [ $? = 0 ]
		fi
		fabric_console 'Error "sw-b" 0' >/dev/null || { echo "ERROR: cannot reset the drops"; exit 99; }
	fi
	fabric_stop
done

topo_done
