#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# python-rdma's extras that change the fabric (or compare it), checked on the fabric
# afterwards: the change happened, and nothing else changed.
#  subnet_diff     two caches with a known difference (a link, an HCA unlinked between two
#                  ibnetdiscover --cache runs), and the live subnet against a cache;
#  set_port_state  --disable / --enable / --init of a switch port, --disable of a CA port,
#                  and refused targets (the fabric is unchanged after them);
#  init_all_ports  every link Initialize, then OpenSM makes them Active again;
#  set_guid        OpenSM's GUIDInfoRecord Set, read back with saquery GIR (ibsim itself
#                  refuses SMP GUIDInfo Sets, so smpquery guidinfo never shows aliases);
#  set_nodedesc    writes into a copy of a fake sysfs tree (IBMGMT_SYSFS_ROOT): umad2sim's
#                  sysfs has no node_desc file, so on the simulator only the error is checked.
# Under ibsim a disabled port keeps PortState Active and its peer stays LinkUp (ibsim only
# records the PortPhysicalState written), a port enabled again stays Polling (no training),
# and routes through a disabled port fail: the checks read ports over directed routes that
# avoid it, and Unlink + ReLink on the console restore the link (OpenSM sweeps after it).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/fabric.sh"
. "$top_srcdir/tests/fabric/our-tool.sh"
fabric_require smpquery saquery iblinkinfo
our_tool_libs "$top_builddir"
sd=$(our_tool "$top_builddir" subnet_diff)
sps=$(our_tool "$top_builddir" set_port_state)
iap=$(our_tool "$top_builddir" init_all_ports)
sg=$(our_tool "$top_builddir" set_guid)
snd=$(our_tool "$top_builddir" set_nodedesc)
ibnd=$(our_tool "$top_builddir" ibnetdiscover)
work=$(mktemp -d "${TMPDIR:-/tmp}/extras.XXXXXX") || exit 99
trap 'fabric_stop; rm -rf "$work"' EXIT INT TERM HUP

fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
H=hca-a1

# ---- set_nodedesc on a fake sysfs tree (no fabric needed) ----
cp -R "$top_srcdir/tests/data/sysfs/multi" "$work/sys"
chmod -R u+w "$work/sys"
nd() { cat "$work/sys/class/infiniband/$1/node_desc"; }
IBMGMT_SYSFS_ROOT=$work/sys "$snd" -C mlx5_0 "new name" > "$work/out" 2>&1
rc=$?
if [ $rc = 0 ] && [ "$(nd mlx5_0)" = "new name" ] && [ "$(nd mlx4_0)" = "host4 mlx4_0" ] &&
   grep -q "^mlx5_0: 'host4 mlx5_0' -> 'new name'\$" "$work/out"; then
	ok "set_nodedesc -C mlx5_0 wrote mlx5_0 only and said so"
else
	bad "set_nodedesc -C mlx5_0 (exit $rc)"; cat "$work/out"
fi
IBMGMT_SYSFS_ROOT=$work/sys "$snd" "node 7" > "$work/out" 2>&1
if [ "$(nd mlx5_0)" = "node 7" ] && [ "$(nd mlx4_0)" = "node 7" ] && [ "$(wc -l < "$work/out")" = 2 ]; then
	ok "set_nodedesc NAME wrote every device"
else
	bad "set_nodedesc NAME"; cat "$work/out"
fi
IBMGMT_SYSFS_ROOT=$work/sys "$snd" -P mlx4_0/1 "$(printf '%065d' 0)" > "$work/out" 2>&1
rc=$?
if [ $rc = 255 ] && [ "$(nd mlx4_0)" = "node 7" ]; then
	ok "set_nodedesc refuses 65 bytes, nothing written"
else
	bad "set_nodedesc with 65 bytes (exit $rc)"; cat "$work/out"
fi
IBMGMT_SYSFS_ROOT=$work/sys "$snd" -v > "$work/out" 2>&1
if [ "$(cat "$work/out")" = "$(printf 'mlx4_0: node 7\nmlx5_0: node 7')" ]; then
	ok "set_nodedesc -v shows what was written"
else
	bad "set_nodedesc -v"; cat "$work/out"
fi

fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || exit 99

# PortInfo states of every port of sw-a (DR 0,1) and sw-b (DR 0,1,$1: over link 7 or 8)
snap() {
	for p in 1 2 3 4 5 6 7 8 9 10 11 12; do
		printf 'sw-a %s: ' "$p"
		fabric_run $H "$FABRIC_REF/smpquery" -D portinfo 0,1 "$p" | sed -n 's/^\(LinkState\|PhysLinkState\):\.*\(.*\)/\1 \2 /p' | tr -d '\n'
		echo
	done
	for p in 1 2 3 4 5 6 7 8 9 10 11 12; do
		printf 'sw-b %s: ' "$p"
		fabric_run $H "$FABRIC_REF/smpquery" -D portinfo "0,1,$1" "$p" | sed -n 's/^\(LinkState\|PhysLinkState\):\.*\(.*\)/\1 \2 /p' | tr -d '\n'
		echo
	done
}
relink() {
	n=$(fabric_sweeps)
	fabric_console "Unlink \"$1\"[$2]" > /dev/null || exit 99
	fabric_wait_sweep "$n" || exit 99
	restore "$@"
}
restore() {
	n=$(fabric_sweeps)
	fabric_console "ReLink \"$1\"[$2]" > /dev/null || exit 99
	fabric_wait_sweep "$n" || exit 99
}
# snapshot diff: only the lines named may differ (as given)
only_changed() { # before after expected-changed-lines-file what
	diff "$1" "$2" | grep '^>' | sed 's/^> //' > "$work/changed"
	if cmp -s "$work/changed" "$3" && [ "$(diff "$1" "$2" | grep -c '^<')" = "$(wc -l < "$3")" ]; then
		ok "$4"
	else
		bad "$4"; diff "$1" "$2"
	fi
}

snap 8 > "$work/s0"
grep -q 'sw-b 7: LinkState Active PhysLinkState LinkUp' "$work/s0" || { echo "ERROR: unexpected start state"; cat "$work/s0"; exit 99; }

# ---- subnet_diff ----
fabric_run $H "$ibnd" --cache "$work/a.cache" > /dev/null 2>&1
fabric_run $H "$sd" "$work/a.cache" > "$work/out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q '^Current subnet has 9 links, reference subnet has 9 links$' "$work/out"; then
	ok "subnet_diff: live subnet as its cache"
else
	bad "subnet_diff live vs cache (exit $rc)"; cat "$work/out"
fi
n=$(fabric_sweeps); fabric_console 'Unlink "sw-a"[7]' > /dev/null || exit 99; fabric_wait_sweep "$n" || exit 99
n=$(fabric_sweeps); fabric_console 'Unlink "sw-b"[2]' > /dev/null || exit 99; fabric_wait_sweep "$n" || exit 99
fabric_run $H "$ibnd" --cache "$work/b.cache" > /dev/null 2>&1
"$sd" "$work/a.cache" "$work/b.cache" > "$work/out" 2>&1
rc=$?
cat > "$work/want" <<'EOF'
Current subnet has 8 end ports, reference subnet has 9 end ports
 All end ports in the current subnet are in the reference subnet.
 Reference subnet has 1 more end ports than the current subnet:
   0000:0000:0010:000d "hca-b2"
Current subnet has 7 nodes, reference subnet has 8 nodes
 All nodes in the current subnet are in the reference subnet.
 Reference subnet has 1 more nodes than the current subnet:
   0000:0000:0010:000c "hca-b2"
Current subnet has 7 links, reference subnet has 9 links
 All links in the current subnet are in the reference subnet.
 Reference subnet has 2 more links than the current subnet:
   0000:0000:0020:0001[2] <=> 0000:0000:0010:000d[1]
   0000:0000:0020:0001[7] <=> 0000:0000:0020:0000[7]
 All links in the current subnet have the same rate in the reference subnet.
Current subnet has 8 LIDs, reference subnet has 9 LIDs
 The subnets have 1 different LID assignments (LID: Current portGUID, Reference portGUID):
       7:       !Cur          0000:0000:0010:000d
EOF
if [ $rc = 1 ] && cmp -s "$work/want" "$work/out"; then
	ok "subnet_diff: two caches, an HCA and a link unlinked in between"
else
	bad "subnet_diff of two caches (exit $rc)"; diff "$work/want" "$work/out"
fi
fabric_run $H "$sd" "$work/a.cache" > "$work/live" 2>&1
rc=$?
if [ $rc = 1 ] && cmp -s "$work/want" "$work/live"; then
	ok "subnet_diff: live subnet against the old cache"
else
	bad "subnet_diff live against the old cache (exit $rc)"; diff "$work/want" "$work/live"
fi
restore sw-a 7
restore sw-b 2
fabric_run $H "$sd" "$work/a.cache" > /dev/null 2>&1 && ok "subnet_diff: same again after ReLink" ||
	bad "subnet_diff after ReLink"
snap 8 > "$work/s1"
cmp -s "$work/s0" "$work/s1" || { echo "ERROR: the fabric did not come back"; diff "$work/s0" "$work/s1"; exit 99; }

# ---- set_port_state ----
# refused targets change nothing
for args in "--disable 99@1" "--disable 3@13" "--disable 3" "--disable -G 0x123456@1" "--disable 1@1"; do
	# shellcheck disable=SC2086
	fabric_run $H "$sps" $args > "$work/out" 2>&1
	rc=$?
	snap 8 > "$work/s1"
	if [ $rc = 255 ] && cmp -s "$work/s0" "$work/s1" && ! grep -q '^Disable' "$work/out"; then
		ok "set_port_state $args refused, nothing changed"
	else
		bad "set_port_state $args (exit $rc)"; cat "$work/out"; diff "$work/s0" "$work/s1"
	fi
done
# a dry run changes nothing
fabric_run $H "$sps" 3@7 > "$work/out" 2>&1
snap 8 > "$work/s1"
if cmp -s "$work/s0" "$work/s1" && grep -q '^Would change port 7 of "sw-b"' "$work/out"; then
	ok "set_port_state without an action only announces"
else
	bad "set_port_state dry run"; cat "$work/out"
fi

fabric_run $H "$sps" --disable 3@7 > "$work/out" 2>&1
rc=$?
snap 8 > "$work/s1"
echo 'sw-b 7: LinkState Active PhysLinkState Disabled ' > "$work/want"
if [ $rc = 0 ] && grep -q '^Disable port 7 of "sw-b" (0x0000000000200001), linked to port 7 of "sw-a" (0x0000000000200000), via DR path 0,1,8$' "$work/out"; then
	ok "set_port_state --disable 3@7 announced, over the other link"
else
	bad "set_port_state --disable 3@7 (exit $rc)"; cat "$work/out"
fi
only_changed "$work/s0" "$work/s1" "$work/want" "set_port_state --disable: sw-b port 7 Disabled, nothing else changed"

fabric_run $H "$sps" --enable 3@7 > "$work/out" 2>&1
rc=$?
snap 8 > "$work/s1"
echo 'sw-b 7: LinkState Active PhysLinkState Polling ' > "$work/want"
[ $rc = 0 ] || { bad "set_port_state --enable 3@7 (exit $rc)"; cat "$work/out"; }
only_changed "$work/s0" "$work/s1" "$work/want" "set_port_state --enable: sw-b port 7 Polling (ibsim does not train), nothing else changed"
relink sw-b 7
snap 8 > "$work/s1"
cmp -s "$work/s0" "$work/s1" && ok "sw-b port 7 back after ReLink" || { echo "ERROR: no way back"; exit 99; }

fabric_run $H "$sps" --init 3@8 > "$work/out" 2>&1
rc=$?
snap 8 > "$work/s1"
printf '%s\n' 'sw-a 8: LinkState Initialize PhysLinkState LinkUp ' > "$work/want"
printf '%s\n' 'sw-b 8: LinkState Initialize PhysLinkState LinkUp ' >> "$work/want"
[ $rc = 0 ] || { bad "set_port_state --init 3@8 (exit $rc)"; cat "$work/out"; }
only_changed "$work/s0" "$work/s1" "$work/want" "set_port_state --init: both ends of link 8 Initialize, nothing else changed"
relink sw-a 8
snap 8 > "$work/s1"
cmp -s "$work/s0" "$work/s1" || { echo "ERROR: link 8 did not come back"; diff "$work/s0" "$work/s1"; exit 99; }

# a CA port: the Set goes in through the port it disables (its answer cannot come back)
fabric_run $H "$sps" --disable -G 0x100004 > "$work/out" 2>&1
rc=$?
snap 8 > "$work/s1"
if [ $rc = 0 ] && grep -q '^Disable port 1 of "hca-a2" (0x0000000000100003), linked to port 2 of "sw-a" (0x0000000000200000), via DR path 0,1,2$' "$work/out" &&
   cmp -s "$work/s0" "$work/s1" &&
   ! fabric_run $H "$FABRIC_REF/smpquery" -D nodeinfo 0,1,2 > /dev/null 2>&1 &&
   fabric_run $H "$FABRIC_REF/smpquery" -D nodeinfo 0,1,3 > /dev/null 2>&1; then
	ok "set_port_state --disable of hca-a2's port: unreachable, the switches unchanged"
else
	bad "set_port_state --disable -G 0x100004 (exit $rc)"; cat "$work/out"; diff "$work/s0" "$work/s1"
fi
relink sw-a 2
fabric_run $H "$FABRIC_REF/smpquery" -D nodeinfo 0,1,2 > /dev/null 2>&1 || { echo "ERROR: hca-a2 did not come back"; exit 99; }

# ---- init_all_ports ----
fabric_run $H "$iap" > "$work/out" 2>&1
rc=$?
snap 8 > "$work/s1"
sed -e 's/LinkState Active/LinkState Initialize/' "$work/s0" > "$work/want"
if [ $rc = 0 ] && cmp -s "$work/want" "$work/s1" && tail -1 "$work/out" | grep -q '^9 links set to INIT, 0 failed, 0 not reachable$'; then
	ok "init_all_ports: every link Initialize"
else
	bad "init_all_ports (exit $rc)"; cat "$work/out"; diff "$work/want" "$work/s1"
fi
fabric_run $H "$FABRIC_REF/smpquery" -D portinfo 0 | grep -q '^LinkState:\.*Initialize$' &&
	ok "init_all_ports: the local port too" || bad "init_all_ports left the local port"
relink sw-a 8
snap 8 > "$work/s1"
cmp -s "$work/s0" "$work/s1" && ok "OpenSM activates the links again" || { bad "links after init_all_ports"; diff "$work/s0" "$work/s1"; }

# ---- set_guid ----
fabric_run $H "$sg" 4 1 0x0002c90300001234 > "$work/out" 2>&1
rc=$?
fabric_run $H "$FABRIC_REF/saquery" GIR 4 > "$work/gir" 2>&1
if [ $rc = 0 ] && grep -q 'GUID 1\.*0x0002c90300001234' "$work/gir" &&
   grep -q 'GUID 2\.*0x0000000000000000' "$work/gir"; then
	ok "set_guid: saquery GIR reads the alias back"
else
	bad "set_guid 4 1 (exit $rc)"; cat "$work/out" "$work/gir"
fi
fabric_run $H "$FABRIC_REF/saquery" GIR 5 > "$work/gir5a" 2>&1
fabric_run $H "$sg" 5 1 0x0002c90300001234 > "$work/out" 2>&1
rc=$?
fabric_run $H "$FABRIC_REF/saquery" GIR 5 > "$work/gir5b" 2>&1
if [ $rc = 1 ] && cmp -s "$work/gir5a" "$work/gir5b"; then
	ok "set_guid: a GUID in use elsewhere is not set (exit 1)"
else
	bad "set_guid duplicate (exit $rc)"; cat "$work/out"
fi
for args in "5 32 0x1" "99 1 0x1" "5 0 0x1" "5 1 xyz"; do
	# shellcheck disable=SC2086
	fabric_run $H "$sg" $args > "$work/out" 2>&1
	rc=$?
	fabric_run $H "$FABRIC_REF/saquery" GIR 5 > "$work/gir5b" 2>&1
	if [ $rc = 255 ] && cmp -s "$work/gir5a" "$work/gir5b"; then
		ok "set_guid $args refused"
	else
		bad "set_guid $args (exit $rc)"; cat "$work/out"
	fi
done

# ---- set_nodedesc on the simulator: no node_desc file there ----
fabric_run $H "$snd" name > "$work/out" 2>&1
rc=$?
if [ $rc = 255 ] && grep -q 'cannot write /sys/class/infiniband/ibsim0/node_desc: No such file or directory' "$work/out"; then
	ok "set_nodedesc on the simulator: a clear error"
else
	bad "set_nodedesc on the simulator (exit $rc)"; cat "$work/out"
fi

exit $fail
