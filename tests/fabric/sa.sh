#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# libibsa on the simulated fabric, against infiniband-diags on the same fabric:
# - ibsa_subn_get() returns the 64 data bytes the SMP SubnGet returns (smpdump) for every
#   attribute it maps, by LID and by DR path, for switches and HCAs;
# - the exceptions, where the SA's record legitimately differs from the live attribute, are
#   compared with what the SA holds (saquery) instead, or with the moving/hidden bytes
#   masked (see doc/libibsa.md, "Differences from SubnGet"):
#     SLtoVLMappingTable, VLArbitrationTable: OpenSM (QoS off) never reads nor programs
#       them, its records hold zeros while ibsim's tables do not -> compared with saquery;
#     SMInfo: the SA shows SM_Key 0 (bytes 8-15) and ActCount (bytes 16-19) moves;
#     P_KeyTable: OpenSM answers P_KeyTableRecords only to a trusted SM_Key (its sa_key, 1);
# - PathRecord resolution of LID, GUID and GID targets equals `saquery -p --slid --dlid`
#   (DLID, SL, MTU, rate, packet life time, P_Key) and `ibaddr -G` (the DLID);
# - SA GetTable: a table that fits one MAD (LinkRecords) as saquery prints it, a longer one
#   (NodeRecords) reported as truncated (the simulator carries no RMPP);
# - the scheduled interface (ibsa_subn_get_submit of NodeInfo + PortInfo for all LIDs under
#   libibsched) equals the synchronous one; and the same sweep on the mixed fabric equals
#   smpdump.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require smpdump saquery ibaddr
probe=$(cd "$top_builddir" && pwd)/tests/sa-probe
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
# the 64 data bytes as smpdump prints them (without its DR "SMP status" line)
smp() { fabric_run $H "$FABRIC_REF/smpdump" "$@" 2>&1 | head -4; }
# the LID of a port (ibaddr target arguments)
lid_of() { fabric_run $H "$FABRIC_REF/ibaddr" "$@" | sed -n 's/.*LID start 0x\([0-9a-f]*\).*/\1/p'; }

fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || exit 1
H=hca-a1
SWA=1                                  # sw-a, OpenSM's node
SWB=$((0x$(lid_of -D 0,1,7)))          # sw-b, behind sw-a port 7
HCA=$((0x$(lid_of -D 0)))              # hca-a1 itself
HB1=$((0x$(lid_of -D 0,1,7,1)))        # the HCA at sw-b port 1
[ "$SWB" -gt 0 ] && [ "$HCA" -gt 0 ] && [ "$HB1" -gt 0 ] || { echo "ERROR: no LIDs ($SWB $HCA $HB1)"; exit 99; }

# ---- SubnGet by LID: switch and HCAs, every attribute -----------------------------------
for t in "$SWA 0x11" "$SWB 0x11" "$HCA 0x11" "$HB1 0x11" \
	 "$SWA 0x10" "$SWB 0x10" "$HB1 0x10" \
	 "$SWA 0x12" "$SWB 0x12" \
	 "$SWA 0x14" "$HCA 0x14" "$HB1 0x14" \
	 "$SWA 0x15" "$SWA 0x15 7" "$HCA 0x15" "$HCA 0x15 1" "$HB1 0x15" \
	 "$SWA 0x19" "$SWB 0x19" \
	 "$SWA 0x1b" "$SWB 0x1b"; do
	set -- $t
	same "subn LID $t" "$(smp "$@")" "$(fabric_run $H "$probe" subn "$@" 2>&1)"
done
# PortInfo of a switch by LID: LocalPortNum (byte 28) is the port by which OpenSM's own SMP
# entered (the SA's copy), ibsim answers 0 to a LID-routed SMP; the rest is the same
lpn_mask() { tr -d ' \n' | cut -c1-56,59-; }
for t in "$SWB 0x15" "$SWB 0x15 8" "$SWB 0x15 1"; do
	set -- $t
	same "subn LID $t (LocalPortNum masked)" "$(smp "$@" | lpn_mask)" \
		"$(fabric_run $H "$probe" subn "$@" 2>&1 | lpn_mask)"
done
# P_KeyTable with OpenSM's SM_Key: switch port 0 and 7, HCAs
for t in "$SWA 0x16" "$SWA 0x16 0x70000" "$SWB 0x16 0x10000" "$HCA 0x16" "$HB1 0x16"; do
	set -- $t
	same "subn -K 1 LID $t" "$(smp "$@")" "$(fabric_run $H "$probe" -K 1 subn "$@" 2>&1)"
done
# without it OpenSM refuses (class specific status 2, request invalid)
out=$(fabric_run $H "$probe" -v subn $HCA 0x16 2>&1)
n=$((n + 1))
case "$out" in
*"Failed getting P_KeyTable of LID $HCA from the SA"*"class specific error 2"*) ;;
*) echo "FAIL: P_KeyTable without SM_Key: $out"; fail=1 ;;
esac
# SMInfo: GUID (bytes 0-7) and priority/state (bytes 20-23) are the same; SM_Key (8-15) is
# hidden by the SA, ActCount (16-19) moves between reads
sminfo_mask() { awk 'NR == 1 { print $1, $2, $3, $4 } NR == 2 { print $3, $4 }'; }
same "subn LID $SWA 0x20 (masked)" "$(smp $SWA 0x20 | sminfo_mask)" \
	"$(fabric_run $H "$probe" subn $SWA 0x20 2>&1 | sminfo_mask)"

# ---- SubnGet by DR path ---------------------------------------------------------------------
for t in "0 0x11" "0,1 0x11" "0,1,7 0x11" "0,1,7,2 0x11" "0,1 0x10" "0,1,7 0x10" \
	 "0,1 0x12" "0,1,7 0x12" "0,1 0x14" "0,1,7,2 0x14" \
	 "0 0x15" "0,1 0x15" "0,1 0x15 3" "0,1,7 0x15" "0,1,7 0x15 1" "0,1,7,2 0x15" \
	 "0,1 0x19" "0,1,7 0x19" "0,1,7 0x1b"; do
	set -- $t
	same "subn DR $t" "$(smp -D "$@")" "$(fabric_run $H "$probe" -D subn "$@" 2>&1)"
done
for t in "0,1 0x16" "0,1,7 0x16 0x80000" "0,1,7,2 0x16"; do
	set -- $t
	same "subn -K 1 DR $t" "$(smp -D "$@")" "$(fabric_run $H "$probe" -K 1 -D subn "$@" 2>&1)"
done

# ---- SL2VL and VLArb: the transactor gives the SA's record (equal to saquery's) -----------------
# the record as saquery prints it, and the transactor's bytes (SubnGet ATTR MOD) = the
# record's table: the hex columns COLS of its wire bytes ("raw"), zero padded to 64 bytes
table_record() { # NAME SAQUERY-QUERY RECORD "KEYS" LID/A/B ATTR MOD COLS
	same "$1 record $5 (saquery)" "$(fabric_run $H "$FABRIC_REF/saquery" "$2" "$5")" \
		"$(fabric_run $H "$probe" get "$3" $4 2>&1 | sed '$d')"
	rec=$(fabric_run $H "$probe" raw "$3" $4 2>&1 | cut -c"$8")
	while [ ${#rec} -lt 128 ]; do rec=${rec}0; done
	same "$1 transactor $5 = record" "$rec" \
		"$(fabric_run $H "$probe" subn "${5%%/*}" "$6" "$7" 2>&1 | tr -d ' \n')"
}
for t in "$SWA 0 7" "$SWB 7 1" "$HCA 0 1"; do
	set -- $t
	if [ "$1" = "$HCA" ]; then mod=0; else mod=$(( ($2 << 8) | $3 )); fi
	table_record SL2VL SL2VL SASLToVLMappingTableRecord \
		"LID=$1 inputPortNum=$2 outputPortNum=$3" "$1/$2/$3" 0x17 $mod 17-32
done
for t in "$SWA 7 1" "$SWB 1 2" "$HCA 1 1"; do
	set -- $t
	if [ "$1" = "$HCA" ]; then mod=$(( $3 << 16 )); else mod=$(( ($3 << 16) | $2 )); fi
	table_record VLArb VLAR SAVLArbitrationTableRecord \
		"LID=$1 outputPortNum=$2 blockNum=$3" "$1/$2/$3" 0x18 $mod 17-144
done

# ---- PathRecord resolution --------------------------------------------------------------------
pr_fields() { # DLID SL MTU rate pkt_life pkey from a saquery PathRecord dump
	sed -n 's/^[[:space:]]*\(dlid\|sl\|mtu\|rate\|pkt_life\|pkey\)[.][.]*\(.*\)/\1 \2/p' | {
		while read -r k v; do eval "$k=\$((v))"; done
		printf 'DLID=%d SL=%d MTU=%d Rate=%d PktLife=%d PKey=0x%04x\n' "$dlid" "$sl" \
			$((mtu & 63)) $((rate & 63)) $((pkt_life & 63)) "$pkey"
	}
}
ours_fields() { sed 's/ SLID=[0-9]*//; s/ GRH=.*//'; }
for dl in $SWA $SWB $HB1; do
	ref=$(fabric_run $H "$FABRIC_REF/saquery" -p --slid $HCA --dlid $dl | pr_fields)
	same "path LID $dl" "$ref" "$(fabric_run $H "$probe" path $dl 2>&1 | ours_fields)"
	guid=$(fabric_run $H "$FABRIC_REF/saquery" -p --slid $HCA --dlid $dl |
		sed -n 's/.*dgid\.*fe80::\(.*\)/\1/p')
	# a port GUID target: the DLID infiniband-diags' -G finds, and the same record
	g=0x$(printf '%016x' $(( (0x${guid%%:*} << 16) | 0x${guid#*:} )))
	same "ibaddr -G $g" "$dl" "$((0x$(lid_of -G $g)))"
	same "path GUID $g" "$ref" "$(fabric_run $H "$probe" -G path $g 2>&1 | ours_fields)"
	same "path GID fe80::$guid" "$ref" "$(fabric_run $H "$probe" path "fe80::$guid" 2>&1 | ours_fields)"
	same "path GRH $dl" "GRH=0" "$(fabric_run $H "$probe" path $dl 2>&1 | sed 's/.* GRH=/GRH=/')"
done

# ---- SA queries: tables ----------------------------------------------------------------------
same "GetTable LinkRecord (saquery LR)" "$(fabric_run $H "$FABRIC_REF/saquery" LR)
18 records" "$(fabric_run $H "$probe" table SALinkRecord 2>&1)"
same "GetTable NodeRecord: cut to one MAD" "1 records, truncated" \
	"$(fabric_run $H "$probe" table SANodeRecord 2>&1 | tail -1)"
same "Get NodeRecord LID=$HB1 (saquery NR)" "$(fabric_run $H "$FABRIC_REF/saquery" NR $HB1)" \
	"$(fabric_run $H "$probe" get SANodeRecord LID=$HB1 2>&1 | sed '$d')"

# ---- scheduled = synchronous -------------------------------------------------------------------
fabric_run $H "$probe" sweep sync 12 > "$FABRIC_DIR/sync.txt" 2>"$FABRIC_DIR/sync.err"
fabric_run $H "$probe" sweep sched 12 1 > "$FABRIC_DIR/sched1.txt" 2>"$FABRIC_DIR/sched1.err"
fabric_run $H "$probe" sweep sched 12 16 > "$FABRIC_DIR/sched16.txt" 2>"$FABRIC_DIR/sched16.err"
lines=$(wc -l < "$FABRIC_DIR/sync.txt")
n=$((n + 3))
[ "$lines" -ge 18 ] || { echo "FAIL: the synchronous sweep gave $lines attributes"; fail=1; }
cmp -s "$FABRIC_DIR/sync.txt" "$FABRIC_DIR/sched1.txt" || { echo "FAIL: sched (max 1) differs from sync"; fail=1; }
cmp -s "$FABRIC_DIR/sync.txt" "$FABRIC_DIR/sched16.txt" || { echo "FAIL: sched (max 16) differs from sync"; fail=1; }
fabric_stop

# ---- the mixed fabric: the sweep against smpdump ----------------------------------------------
fabric_start "$top_srcdir/tests/fabric/topo/mixed.net" || exit 1
H=mx-h1
prev=
fabric_run $H "$probe" sweep sched 16 8 > "$FABRIC_DIR/mixed.txt" 2>"$FABRIC_DIR/mixed.err"
lines=$(wc -l < "$FABRIC_DIR/mixed.txt")
n=$((n + 1))
[ "$lines" -ge 20 ] || { echo "FAIL: the mixed sweep gave $lines attributes"; fail=1; }
while read -r lid attr hex; do
	if [ "$attr" = NodeInfo ]; then
		ref=$(smp "$lid" 0x11 | tr -d ' \n')
	else
		# switches: LocalPortNum as above
		ref=$(smp "$lid" 0x15 | lpn_mask)
		case "$prev" in ????02*) hex=$(echo "$hex" | cut -c1-56,59-) ;; esac
		case "$prev" in ????02*) ;; *) ref=$(smp "$lid" 0x15 | tr -d ' \n') ;; esac
	fi
	prev=$hex
	same "mixed $attr LID $lid" "$ref" "$hex"
done < "$FABRIC_DIR/mixed.txt"
fabric_stop
echo "$n comparisons and checks"
exit $fail
