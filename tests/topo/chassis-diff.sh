#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# chassis-diff: libibtopo's chassis grouping against libibnetdisc's own group_nodes(), which
# runs inside ibnd_load_fabric().  For each seed, tests/topo/chassis-fab builds a random
# chassis-shaped fabric, writes it as a libibnetdisc cache file and reports how
# ibtopo_group_chassis() groups it, directly and after ibtopo_cache_load() of that file;
# tests/topo/ibnd-chassis loads the file with libibnetdisc and reports the same.  The three
# reports must be identical: chassis list, numbers, GUIDs, spine/line slots, member lists,
# every node's ch_type/ch_slot/ch_slotnum/ch_anafanum and printed strings, every external
# port number, or the fact that libibnetdisc gives up.  Before that, chassis-fab --hostile
# groups fabrics libibnetdisc would read out of bounds on.
# CHASSIS_SEEDS (default 1000) seeds from CHASSIS_SEED0 (default 1).
set -u
: "${top_builddir:=.}" "${CHASSIS_SEEDS:=1000}" "${CHASSIS_SEED0:=1}"
fab=$top_builddir/tests/topo/chassis-fab
ref=$top_builddir/tests/topo/ibnd-chassis
[ -x "$fab" ] || { echo "ERROR: $fab not built"; exit 1; }
# first, fabrics libibnetdisc itself cannot take: ours must not fault, stay consistent, and
# give the same result when grouping again (this part needs no reference)
"$fab" --hostile "$CHASSIS_SEED0" "$CHASSIS_SEEDS" || { echo "FAIL: hostile fabrics"; exit 1; }
[ -x "$ref" ] || { echo "SKIP: no libibnetdisc reference (tests/topo/ibnd-chassis)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$fab" "$CHASSIS_SEED0" "$CHASSIS_SEEDS" "$dir" || { echo "ERROR: chassis-fab failed"; exit 1; }
"$ref" "$CHASSIS_SEED0" "$CHASSIS_SEEDS" "$dir" >/dev/null 2>&1 || { echo "ERROR: ibnd-chassis failed"; exit 1; }

# compare seed by seed
awk -v n="$CHASSIS_SEEDS" '
	FNR == 1 { file++ }
	/^seed / { seed = $2; next }
	{ block[file, seed] = block[file, seed] $0 "\n" }
	/^result ok/ && file == 1 { grouped++ }
	END {
		pass = fail = 0
		for (k in block) {
			split(k, kk, SUBSEP)
			if (kk[1] == 1)
				seen[kk[2]] = 1
		}
		for (s in seen) {
			if (block[1, s] == block[2, s] && block[1, s] == block[3, s])
				pass++
			else {
				fail++
				print "FAIL: seed " s ": libibtopo differs from libibnetdisc"
			}
		}
		if (pass + fail != n)
			{ print "FAIL: " pass + fail " seeds reported of " n; fail++ }
		print "chassis-diff: " grouped " of " pass + fail " fabrics grouped (the others: libibnetdisc gives up)"
		print pass " passed, " fail " failed"
		exit fail != 0
	}' "$dir/ref" "$dir/ours" "$dir/ours-cache"
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "first differences (- libibnetdisc, + ours / + ours after ibtopo_cache_load):"
	diff -u "$dir/ref" "$dir/ours" | head -n 30
	diff -u "$dir/ref" "$dir/ours-cache" | head -n 30
fi
exit $rc
