#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Chassis grouping on a simulated fabric with a chassis of each kind (tests/fabric/topo/
# chassis.net: Voltaire ISR9096, Mellanox IS4, system image GUID, Topspin):
# - the reference `ibnetdiscover -g` shows the chassis the net file means (a guard on the
#   file: ibsim and OpenSM keep its vendor and device IDs and system GUIDs);
# - from several start nodes (which changes libibnetdisc's node order), the file
#   `ibnetdiscover --cache` writes, loaded by libibnetdisc (tests/topo/ibnd-chassis) and by
#   ibtopo_cache_load() (tests/topo/chassis-fab --report), gives the same chassis, slots,
#   strings and external port numbers;
# - once our ibnetdiscover exists (utils/ibnetdiscover), its -g output equals the
#   reference's.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
. "$top_srcdir/tests/fabric/our-tool.sh"
fabric_require ibnetdiscover
bin=$(cd "$top_builddir" && pwd)/tests/topo
[ -x "$bin/chassis-fab" ] || { echo "ERROR: $bin/chassis-fab is not built"; exit 99; }
[ -x "$bin/ibnd-chassis" ] || { echo "SKIP: no tests/topo/ibnd-chassis (libibnetdisc-dev)"; exit 77; }
ibnd=$FABRIC_REF/ibnetdiscover
fail=0 n=0

fabric_start "$top_srcdir/tests/fabric/topo/chassis.net" || exit 1
work=$FABRIC_DIR/chassis
mkdir -p "$work" || exit 99

# the meaning of the net file, as infiniband-diags prints it
fabric_run host-1 "$ibnd" -g >"$work/ref-g.txt" 2>&1
for want in 'Chassis 1 (guid 0x8f10400411a08)' 'ISR9096 Spine 1 Chip 1' 'ISR9096 Spine 2 Chip 1' \
	'ISR9096 Line 1 Chip 1' 'ISR9096 Line 2 Chip 2' '[13][ext 6]' \
	'Chassis 2 (guid 0x5ad0000000001)' 'Chassis 3 (guid 0x2c90300e0f000)' \
	'Chassis 4 (guid 0x2c90000abcd00)' 'IS5600 Spine 2 Chip 1' 'IS5600 Line 5 Chip 1'; do
	n=$((n + 1))
	grep -qF "$want" "$work/ref-g.txt" || { echo "FAIL: ibnetdiscover -g does not show \"$want\""; fail=1; }
done
n=$((n + 1))
[ "$(grep -c '^Chassis ' "$work/ref-g.txt")" = 4 ] || { echo "FAIL: not 4 chassis"; fail=1; }

for start in host-1 host-2 vrt; do
	n=$((n + 1))
	cache=$work/$start.cache
	if ! fabric_run "$start" "$ibnd" --cache "$cache" >/dev/null 2>&1; then
		echo "FAIL: ibnetdiscover --cache from $start"
		fail=1
		continue
	fi
	"$bin/ibnd-chassis" --report "$cache" "$work/$start.ref" >/dev/null 2>&1
	"$bin/chassis-fab" --report "$cache" "$work/$start.ours" || { echo "FAIL: chassis-fab on $start's cache"; fail=1; continue; }
	if ! grep -q '^result ok' "$work/$start.ref"; then
		echo "FAIL: libibnetdisc did not group $start's cache"
		fail=1
	elif ! cmp -s "$work/$start.ref" "$work/$start.ours"; then
		echo "FAIL: chassis from $start's cache differ (- libibnetdisc, + ours)"
		diff -u "$work/$start.ref" "$work/$start.ours" | head -n 30
		fail=1
	fi
done

ours=
tb=$(cd "$top_builddir" && pwd)
[ -e "$tb/utils/ibnetdiscover" ] && ours=$(our_tool "$tb" ibnetdiscover)
# a tool linked to our shared libraries (--enable-shared-tools) finds them here
our_tool_libs "$tb"
if [ -n "$ours" ] && [ -x "$ours" ]; then
	for start in host-1 vrt; do
		n=$((n + 1))
		fabric_run "$start" "$ibnd" -g 2>&1 | grep -v '^# Topology file: generated on' >"$work/ref-g-$start.txt"
		fabric_run "$start" "$ours" -g 2>&1 | grep -v '^# Topology file: generated on' >"$work/ours-g-$start.txt"
		cmp -s "$work/ref-g-$start.txt" "$work/ours-g-$start.txt" || {
			echo "FAIL: ibnetdiscover -g from $start differs (- reference, + ours)"
			diff -u "$work/ref-g-$start.txt" "$work/ours-g-$start.txt" | head -n 30
			fail=1
		}
	done
else
	echo "NOTE: no utils/ibnetdiscover yet: its -g output is not compared"
fi
[ "$fail" = 0 ] && echo "$n passed, 0 failed" || echo "some of $n checks failed"
exit $fail
