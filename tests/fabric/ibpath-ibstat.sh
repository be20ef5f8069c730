#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# libibpath sees the local devices and ports of a simulated node exactly as the reference
# `ibstat` does: tests/ibpath-ibstat prints them in ibstat's layout, for HCAs, switches
# and a router on two topologies (several attach points each).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require ibstat
prog=$(cd "$top_builddir" && pwd)/tests/ibpath-ibstat
[ -x "$prog" ] || { echo "ERROR: $prog is not built"; exit 99; }
fail=0
n=0
check() { # SIM_HOST
	ref=$(fabric_run "$1" "$FABRIC_REF/ibstat" 2>&1)
	ours=$(fabric_run "$1" "$prog" 2>&1)
	n=$((n + 1))
	if [ "$ref" != "$ours" ]; then
		echo "FAIL: SIM_HOST=$1: libibpath differs from ibstat"
		printf '%s\n' "$ref" > "$FABRIC_DIR/ref.txt"
		printf '%s\n' "$ours" > "$FABRIC_DIR/ours.txt"
		diff -u "$FABRIC_DIR/ref.txt" "$FABRIC_DIR/ours.txt"
		fail=1
	fi
}
fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || exit 1
for h in hca-a1 hca-b3 sw-a sw-b; do check "$h"; done
fabric_stop
fabric_start "$top_srcdir/tests/fabric/topo/mixed.net" || exit 1
for h in mx-h1 mx-h8 mx-sw2 mx-rt1; do check "$h"; done
fabric_stop
echo "$n attach points compared with ibstat"
exit $fail
