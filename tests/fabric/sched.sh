#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# libibsched on the simulated 368-node fat tree: NodeInfo + every PortInfo of every node in
# parallel equals the same data fetched one call at a time; with 20% of the MADs dropped at
# the client's leaf switch everything still arrives through retries; with a leaf's uplinks
# taken down (before, and in the middle of a sweep) the nodes behind them fail with a timeout
# error and the rest completes.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require
sweep=$(cd "$top_builddir" && pwd)/tests/sched-sweep
[ -x "$sweep" ] || { echo "ERROR: $sweep is not built"; exit 99; }
fail=0
fabric_start "$top_srcdir/tests/fabric/topo/fat-tree.net" || exit 1
H=ft-h001
# OpenSM gives the 368 ports of the fat tree LIDs 1..368
L=$(fabric_count_nodes "$top_srcdir/tests/fabric/topo/fat-tree.net")
fabric_run $H "$sweep" sync $L > "$FABRIC_DIR/sync.txt" 2>"$FABRIC_DIR/sync.err"
n=$(wc -l < "$FABRIC_DIR/sync.txt")
[ "$n" -gt 700 ] || { echo "FAIL: the synchronous sweep found only $n attributes"; cat "$FABRIC_DIR/sync.err"; exit 1; }
for m in 1 16 64; do
	fabric_run $H "$sweep" par $L "$m" > "$FABRIC_DIR/par$m.txt" 2>"$FABRIC_DIR/par$m.err"
	cmp -s "$FABRIC_DIR/sync.txt" "$FABRIC_DIR/par$m.txt" ||
		{ echo "FAIL: parallel sweep (max $m) differs from the synchronous one"; fail=1; }
done
echo "sync and parallel sweeps: $n attributes each"

# 20% drops at the client's leaf switch (requests and replies pass it): retries recover
# (a fault or a repair that cannot be made stops the test: what follows would measure another
# fabric than it says)
leaf=$(fabric_run $H "$FABRIC_REF/smpquery" -D nodedesc 0,1 | sed 's/^Node Description:\.*//')
[ -n "$leaf" ] || { echo "ERROR: cannot find the leaf switch of $H"; exit 99; }
fabric_console "Error \"$leaf\" 20" >/dev/null || { echo "ERROR: cannot set 20% drops at '$leaf'"; exit 99; }
fabric_run $H "$sweep" par $L 32 100 12 > "$FABRIC_DIR/drop.txt" 2>"$FABRIC_DIR/drop.err"
cmp -s "$FABRIC_DIR/sync.txt" "$FABRIC_DIR/drop.txt" ||
	{ echo "FAIL: with 20% drops the sweep differs"; tail -3 "$FABRIC_DIR/drop.err"; fail=1; }
fabric_console "Error \"$leaf\" 0" >/dev/null || { echo "ERROR: cannot stop the drops at '$leaf'"; exit 99; }
echo "20% drops at '$leaf': $(tail -1 "$FABRIC_DIR/drop.err")"

# take a leaf's uplinks down while the sweep runs (after its first 20 completions): the work
# behind them fails with a timeout error, the rest completes, nothing hangs
mid=ft-leaf23
cmds=
for p in 15 16 17 18 19 20 21 22; do cmds="$cmds${cmds:+;}Unlink \"$mid\"[$p]"; done
SWEEP_CUT_AFTER=20 SWEEP_CUT_FIFO=$FABRIC_DIR/console.in SWEEP_CUT_CMDS=$cmds \
	fabric_run $H "$sweep" par $L 32 200 2 > "$FABRIC_DIR/mid.txt" 2>"$FABRIC_DIR/mid.err"
rc=$?
! grep -q '^cannot write the cut commands' "$FABRIC_DIR/mid.err" ||
	{ echo "ERROR: the sweep could not cut '$mid' off:"; grep '^cannot write' "$FABRIC_DIR/mid.err"; exit 99; }
bad=$(grep -c "timed out to 'Path 0 -> " "$FABRIC_DIR/mid.err")
good=$(wc -l < "$FABRIC_DIR/mid.txt")
# a cut-off leaf takes 52 attributes with it: its own NodeInfo and 23 PortInfos, and the
# NodeInfo and PortInfo of its 14 HCAs; what it answered before the cut may have arrived
if [ $rc != 1 ] || [ "$bad" -lt 1 ] || [ "$good" -lt $((n - 52)) ] || [ "$good" -ge "$n" ] ||
	! grep -q '^cut after 20' "$FABRIC_DIR/mid.err"; then
	echo "FAIL: '$mid' cut mid-sweep: exit $rc, $good attributes, $bad timeouts"
	tail -5 "$FABRIC_DIR/mid.err"; fail=1
fi
echo "'$mid' cut mid-sweep: $good attributes arrived, $bad calls timed out with a clear error"
# restore the links, then wait until the whole fabric answers again.  Waiting for "an OpenSM
# sweep" is not enough: the sweep the cut itself triggered may end after the relink and look
# like the one that brought the leaf back.
for p in 15 16 17 18 19 20 21 22; do
	fabric_console "ReLink \"$mid\"[$p]" >/dev/null || { echo "ERROR: cannot relink '$mid'[$p]"; exit 99; }
done
whole=0 end=$(($(date +%s) + 60))
while [ "$(date +%s)" -lt "$end" ]; do
	fabric_run $H "$sweep" par $L 32 200 2 > "$FABRIC_DIR/back.txt" 2>/dev/null &&
		cmp -s "$FABRIC_DIR/sync.txt" "$FABRIC_DIR/back.txt" && { whole=1; break; }
	sleep 1
done
[ $whole = 1 ] || { echo "ERROR: '$mid' relinked, but the fabric is not whole again after 60 s"; exit 99; }

# take a remote leaf's uplinks down: its hosts time out, everything else completes.  Let
# OpenSM finish the sweep the cut triggers first, so its reprogramming of the switches does
# not race the sweep under test.
other=ft-leaf24
sweeps=$(fabric_sweeps)
for p in 15 16 17 18 19 20 21 22; do
	fabric_console "Unlink \"$other\"[$p]" >/dev/null || { echo "ERROR: cannot unlink '$other'[$p]"; exit 99; }
done
fabric_wait_sweep "$sweeps" 30 || { echo "ERROR: no OpenSM sweep after cutting '$other' off"; exit 99; }
fabric_run $H "$sweep" par $L 32 200 2 > "$FABRIC_DIR/cut.txt" 2>"$FABRIC_DIR/cut.err"
rc=$?
bad=$(grep -c "timed out to 'Path 0 -> " "$FABRIC_DIR/cut.err")
good=$(wc -l < "$FABRIC_DIR/cut.txt")
if [ $rc != 1 ] || [ "$bad" -lt 1 ] || [ "$good" != $((n - 52)) ]; then
	echo "FAIL: with '$other' cut off: exit $rc, $good attributes (want $((n - 52))), $bad timeouts"
	tail -5 "$FABRIC_DIR/cut.err"; fail=1
fi
echo "'$other' cut off: $good attributes arrived, $bad calls timed out with a clear error"
fabric_stop
exit $fail
