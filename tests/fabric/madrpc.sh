#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# libibmadrpc on the simulated fabric, against infiniband-diags on the same fabric:
# every SMP attribute the simulator answers, by LID and by directed route (raw bytes as
# smpdump prints them, decoded as smpquery prints them), PortCounters as perfquery prints
# them, single-record SA Gets as saquery prints them, timeouts with the simulator dropping
# every MAD, retries through 30% drops, and many asynchronous calls at once.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require smpdump perfquery saquery ibccquery
probe=$(cd "$top_builddir" && pwd)/tests/madrpc-probe
[ -x "$probe" ] || { echo "ERROR: $probe is not built"; exit 99; }
fail=0
n=0
same() { # description, reference text, our text
	n=$((n + 1))
	if [ "$2" != "$3" ]; then
		echo "FAIL: $1"
		printf '%s\n' "$2" > "$FABRIC_DIR/ref.txt"
		printf '%s\n' "$3" > "$FABRIC_DIR/ours.txt"
		diff -u "$FABRIC_DIR/ref.txt" "$FABRIC_DIR/ours.txt" | head -20
		fail=1
	fi
}
fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || exit 1
H=hca-a1

# raw SMPs: LID and DR targets, switches and HCAs, attributes with modifiers
for t in "1 0x11" "1 0x10" "1 0x12" "1 0x15 7" "1 0x15 0" "1 0x16" "1 0x17 0x0701" "1 0x18 0x00010001" \
	 "1 0x14" "1 0x19" "1 0x1b" "2 0x11" "2 0x15 1" "2 0x16" "2 0x14" "2 0x17"; do
	set -- $t
	same "smp LID $t" "$(fabric_run $H "$FABRIC_REF/smpdump" "$@")" "$(fabric_run $H "$probe" smp "$@")"
done
# SMInfo: OpenSM's activity count (bytes 16-19) moves between two reads
same "smp LID 1 0x20" "$(fabric_run $H "$FABRIC_REF/smpdump" 1 0x20 | sed '2s/^[0-9a-f]* [0-9a-f]* //')" \
	"$(fabric_run $H "$probe" smp 1 0x20 | sed '2s/^[0-9a-f]* [0-9a-f]* //')"
for t in "0 0x11" "0,1 0x11" "0,1 0x15 3" "0,1,7 0x11" "0,1,7,2 0x11" "0,1,7 0x12" "0,1 0x16"; do
	set -- $t
	same "smp DR $t" "$(fabric_run $H "$FABRIC_REF/smpdump" -D "$@")" "$(fabric_run $H "$probe" -D smp "$@")"
done

# decoded attributes
for t in "nodeinfo 1" "nodeinfo 2" "switchinfo 1" "portinfo 1 7" "portinfo 2 1" "portinfo 1 3"; do
	set -- $t
	same "query $t" "$(fabric_run $H "$FABRIC_REF/smpquery" "$@" | grep -v '^#')" \
		"$(fabric_run $H "$probe" query "$@")"
done
for t in "nodeinfo 0,1" "portinfo 0,1,7 1" "switchinfo 0,1,7"; do
	set -- $t
	same "query -D $t" "$(fabric_run $H "$FABRIC_REF/smpquery" -D "$@" | grep -v '^#')" \
		"$(fabric_run $H "$probe" -D query "$@")"
done

# PerfMgt (reset first so both see the same counters: the probe's own MADs move them)
for t in "1 7" "2 1"; do
	set -- $t
	fabric_run $H "$FABRIC_REF/perfquery" -R "$@" >/dev/null || { echo "ERROR: cannot reset the counters of $t"; exit 99; }
	ours=$(fabric_run $H "$probe" perf "$@")
	fabric_run $H "$FABRIC_REF/perfquery" -R "$@" >/dev/null || { echo "ERROR: cannot reset the counters of $t"; exit 99; }
	ref=$(fabric_run $H "$FABRIC_REF/perfquery" "$@" | grep -v '^#')
	# the data/packet counters count the query itself: compare the error counters
	same "perf $t" "$(printf '%s\n' "$ref" | grep -v 'Data:\|Pkts:')" \
		"$(printf '%s\n' "$ours" | grep -v 'Data:\|Pkts:')"
done

# SA, single-record answers
for l in 1 2 4; do
	same "sa NodeRecord $l" "$(fabric_run $H "$FABRIC_REF/saquery" NR "$l")" "$(fabric_run $H "$probe" sa-node "$l")"
done
for t in "2 1" "1 0" "1 7"; do
	set -- $t
	same "sa PortInfoRecord $1/$2" "$(fabric_run $H "$FABRIC_REF/saquery" PIR "$1/$2")" \
		"$(fabric_run $H "$probe" sa-pir "$1" "$2")"
done
same "sa PathRecord 2->4" "$(fabric_run $H "$FABRIC_REF/saquery" -p --slid 2 --dlid 4)" \
	"$(fabric_run $H "$probe" sa-path 2 4)"

# errors: unknown LID times out within timeout x (retries + 1); ibsim hands such a send back
# at once (umad status 110), which counts as a lost attempt, so this is quick
start=$(date +%s%N)
out=$(fabric_run $H "$probe" -v -t 200 -r 2 smp 99 0x11 2>&1)
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
n=$((n + 1))
case "$out" in
*"timed out to 'Path 0 -> 99"*) ;;
*) echo "FAIL: timeout message: $out"; fail=1 ;;
esac
[ $rc = 1 ] || { echo "FAIL: timeout exit status $rc"; fail=1; }
[ $ms -lt 2500 ] || { echo "FAIL: 200 ms x 3 attempts took $ms ms"; fail=1; }

# the simulator drops everything: a clean timeout error.  A fault that cannot be set up (or
# taken away) stops the test: what follows would measure another fabric than it says.
fabric_console 'Error "sw-a" 100' >/dev/null || { echo "ERROR: cannot set 100% drops at sw-a"; exit 99; }
out=$(fabric_run $H "$probe" -t 100 -r 1 smp 1 0x11 2>&1)
[ $? = 1 ] && case "$out" in *"timed out"*) true ;; *) false ;; esac ||
	{ echo "FAIL: 100% drops: $out"; fail=1; }
# 30% drops: with retries everything arrives
fabric_console 'Error "sw-a" 30' >/dev/null || { echo "ERROR: cannot set 30% drops at sw-a"; exit 99; }
out=$(fabric_run $H "$probe" -t 100 -r 10 async 40 1 3 2>&1)
[ "$out" = "80 submitted, 80 completed, 0 failed" ] || { echo "FAIL: 30% drops: $out"; fail=1; }
fabric_console 'Error "sw-a" 0' >/dev/null || { echo "ERROR: cannot stop the drops at sw-a"; exit 99; }
n=$((n + 2))

# many concurrent asynchronous calls
out=$(fabric_run $H "$probe" async 200 1 2 3 4 2>&1)
same "async" "800 submitted, 800 completed, 0 failed" "$out"

# RMPP and the server side: a server of ours on hca-b2 answers a GetTable with 2000
# records; a client on hca-a1 reassembles them; error replies reach the client
server=$(cd "$top_builddir" && pwd)/tests/madrpc-server
fabric_run_bg hca-b2 "$server" 2000 60 > "$FABRIC_DIR/server.out" 2>&1
end=$(($(date +%s) + 30))
until grep -q ready "$FABRIC_DIR/server.out"; do
	if ! _fabric_alive "$FABRIC_BG_PID" || [ "$(date +%s)" -ge "$end" ]; then
		echo "ERROR: the test server on hca-b2 did not get ready:"; cat "$FABRIC_DIR/server.out"; exit 99
	fi
	sleep 0.1
done
lid() { fabric_run "$1" "$FABRIC_REF/ibaddr" -L | sed -n 's/.*LID start \([0-9][0-9]*\).*/\1/p'; }
L=$(lid hca-b2)
[ -n "$L" ] || { echo "ERROR: no LID for hca-b2"; exit 99; }
export MADRPC_SIM_LOSES_TAIL=1
same "RMPP 2000 records" "2000 records received, 2000 expected, all equal" \
	"$(fabric_run $H "$probe" -v table "$L" 2000 2>&1)"
fabric_console 'Error "sw-b" 10' >/dev/null || { echo "ERROR: cannot set 10% drops at sw-b"; exit 99; }
same "RMPP 2000 records, 10% drops" "2000 records received, 2000 expected, all equal" \
	"$(fabric_run $H "$probe" -v -t 300 -r 20 table "$L" 2000 2>&1)"
fabric_console 'Error "sw-b" 0' >/dev/null || { echo "ERROR: cannot stop the drops at sw-b"; exit 99; }
same "VendGet with OUI (range 2)" "OUI 0x001405: madrpc-server" "$(fabric_run $H "$probe" -v vend "$L" 2>&1)"
same "DevMgt Get IOUnitInfo (our server)" "changeID=4660
maxControllers=3
diagDeviceID=1
optionROM=0
controllerList=0x1f (+127 zero bytes)" "$(fabric_run $H "$probe" gmp "$L" dm 2>&1)"
# CC: ibsim answers class 0x21 itself (with SMI handlers: meaningless but well-formed data,
# TESTWORLD.md); our decode must equal ibccquery's.  Never aimed at the SM's node.
L3=$(lid hca-b3)
[ -n "$L3" ] || { echo "ERROR: no LID for hca-b3"; exit 99; }
same "CC Get CongestionInfo" "$(fabric_run $H "$FABRIC_REF/ibccquery" CongestionInfo "$L3" | grep -v '^#')" \
	"$(fabric_run $H "$probe" gmp "$L3" cc 2>&1)"
same "unsupported attribute" "status 0x000c
E: RPC MAD_METHOD_GET(1) SAFormat(3.2) SAPathRecord(53) got error status 0x000c (method/attribute combination not supported)" \
	"$(fabric_run $H "$probe" -v bad "$L" attr 2>&1)"
same "unsupported method" "status 0x0008
E: RPC MAD_METHOD_DELETE(21) SAFormat(3.2) SANodeRecord(17) got error status 0x0008 (method not supported)" \
	"$(fabric_run $H "$probe" -v bad "$L" method 2>&1)"

fabric_stop
echo "$n comparisons and checks"
exit $fail
