#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# nodemap-diff: libibtopo's node-name-map reader against rdma-core's, as infiniband-diags'
# ibnetdiscover uses it.  A cache file of a generated fabric (tests/topo/chassis-fab) gives
# the nodes; for each seed tests/topo/nodemap-tool writes a random map of their GUIDs (every
# GUID form, name form, comment, long line and duplicate the reader knows; one map in five
# with a line rdma-core refuses), and `ibnetdiscover --load-cache CACHE --node-name-map MAP
# -l` (no fabric needed) must print exactly what `nodemap-tool list` prints with our reader.
# Where rdma-core refuses the whole map ("WARNING failed to parse node name map"), ours must
# have reported a refused line (and keeps the rest: not compared).
# NODEMAP_SEEDS (default 200).
set -u
: "${top_builddir:=.}" "${NODEMAP_SEEDS:=200}"
fab=$top_builddir/tests/topo/chassis-fab
tool=$top_builddir/tests/topo/nodemap-tool
ibnd=${IBMGMT_REF_BINDIR:-/usr/sbin}/ibnetdiscover
[ -x "$ibnd" ] || { echo "SKIP: no reference $ibnd (infiniband-diags)"; exit 77; }
[ -x "$fab" ] && [ -x "$tool" ] || { echo "ERROR: tests/topo/chassis-fab or nodemap-tool not built"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# a fabric libibnetdisc loads (it gives up on some generated chassis)
cache=
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	"$fab" "$s" 1 "$dir" || exit 1
	if "$ibnd" --load-cache "$dir/cache-$s" -l >/dev/null 2>&1; then
		cache=$dir/cache-$s
		break
	fi
done
[ -n "$cache" ] || { echo "ERROR: no generated fabric loads in libibnetdisc"; exit 1; }

pass=0 fail=0 refused=0 seed=1
while [ "$seed" -le "$NODEMAP_SEEDS" ]; do
	"$tool" gen "$seed" "$cache" "$dir/map" || exit 1
	"$ibnd" --load-cache "$cache" --node-name-map "$dir/map" -l >"$dir/ref" 2>"$dir/ref.err"
	"$tool" list "$cache" "$dir/map" >"$dir/ours" 2>"$dir/ours.err" || exit 1
	ours_refused=$(sed -n 's/^refused //p' "$dir/ours.err")
	if grep -q 'WARNING failed to parse node name map' "$dir/ref.err"; then
		refused=$((refused + 1))
		if [ "${ours_refused:-0}" -gt 0 ]; then
			pass=$((pass + 1))
		else
			echo "FAIL: seed $seed: rdma-core refuses the map, ours reported no refused line"
			fail=$((fail + 1))
		fi
	elif [ "${ours_refused:-0}" -ne 0 ]; then
		echo "FAIL: seed $seed: ours refused $ours_refused lines of a map rdma-core takes"
		fail=$((fail + 1))
	elif cmp -s "$dir/ref" "$dir/ours"; then
		pass=$((pass + 1))
	else
		echo "FAIL: seed $seed: names differ (- ibnetdiscover, + ours)"
		diff -u "$dir/ref" "$dir/ours" | head -n 20
		cp "$dir/map" "nodemap-diff-failed-$seed.map" 2>/dev/null
		fail=$((fail + 1))
	fi
	seed=$((seed + 1))
done
echo "nodemap-diff: $refused of the maps refused by rdma-core (and reported by ours)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
