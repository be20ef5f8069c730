#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Self-test of the simulated-fabric fixture (tests/fabric/fabric.sh), using the
# reference infiniband-diags tools as clients:
#   1. two-switch.net: sminfo and smpquery nodeinfo from an HCA and from a
#      switch, Unlink/ReLink of an inter-switch link seen in PortInfo and in
#      OpenSM's re-sweeps, console errors, fabric_env, reaping a killed client,
#      fabric_stop killing a hung client;
#   1b. without a simulator: fabric_stop kills a client it is called just after,
#      also one whose subshell has not exec'd yet;
#   2. fat-tree.net: it is gen-fat-tree.sh's output; ibnetdiscover -l finds
#      every node of the file;
#   3. mixed.net: every node found, widths/speeds as the file says, the link
#      that starts down comes up with ReLink.
# After each fabric: its processes are gone and its work dir is removed.
# Exit 0 pass, 1 fail, 77 skip (packages missing; see fabric_require).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
topo=$top_srcdir/tests/fabric/topo
# shellcheck source=tests/fabric/fabric.sh
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require iblinkinfo

fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
ms() { echo $(($(date +%s%N) / 1000000)); }
t_all=$(ms)

# expect DESCRIPTION PATTERN TEXT: TEXT has a line matching the grep -E PATTERN.
expect() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		ok "$1"
	else
		bad "$1: no line matching /$2/ in:"
		printf '%s\n' "$3" | sed 's/^/    | /'
	fi
}

# same DESCRIPTION GOT WANT: GOT is WANT.
same() {
	if [ "$2" = "$3" ]; then
		ok "$1: $2"
	else
		bad "$1: got '$2', want '$3'"
	fi
}

# field NAME TEXT: value of a "Name:.....value" line of smpquery output.
field() {
	printf '%s\n' "$2" | sed -n "s/^$1:\\.*//p" | head -n 1
}

# portstate HOST SMPQUERY_ARGS...: "LinkState/PhysLinkState" of a port.
portstate() {
	_ps_h=$1
	shift
	_ps=$(fabric_run "$_ps_h" timeout 10 "$FABRIC_REF/smpquery" "$@" 2>&1)
	echo "$(field LinkState "$_ps")/$(field PhysLinkState "$_ps")"
}

# wait_portstate WANT HOST ARGS...: poll until portstate says WANT (5 s).
wait_portstate() {
	_wp_want=$1
	shift
	_wp_n=100
	while :; do
		_wp=$(portstate "$@")
		[ "$_wp" != "$_wp_want" ] || return 0
		_wp_n=$((_wp_n - 1))
		[ "$_wp_n" -gt 0 ] || { echo "    (last state: $_wp)"; return 1; }
		_fabric_nap 0.05
	done
}

# stop_and_check: fabric_stop, then its processes and work dir must be gone.
stop_and_check() {
	_sc_dir=$FABRIC_DIR
	_sc_pids="$FABRIC_SM_PID $FABRIC_SIM_PID $FABRIC_HOLD_PID"
	_sc_t=$(ms)
	fabric_stop
	_sc_left=
	for _sc_p in $_sc_pids; do
		! _fabric_alive "$_sc_p" || _sc_left="$_sc_left $_sc_p"
	done
	if [ -z "$_sc_left" ] && [ ! -e "$_sc_dir" ]; then
		ok "fabric_stop: OpenSM, ibsim and holder gone, work dir removed ($(($(ms) - _sc_t)) ms)"
	else
		bad "fabric_stop left processes [$_sc_left ] or $_sc_dir"
	fi
}

# ---------------------------------------------------------------------------
echo "=== two-switch.net"
t=$(ms)
fabric_start "$topo/two-switch.net" || { echo "FAIL: fabric_start two-switch.net"; exit 1; }
ok "fabric_start two-switch.net: subnet up in $(($(ms) - t)) ms ($FABRIC_DIR)"
case $FABRIC_DIR in
/dev/shm/ibmgmt-fabric.*) ok "work dir on tmpfs" ;;
*) echo "note: work dir is $FABRIC_DIR (no writable /dev/shm?)" ;;
esac

# sminfo from an HCA and from a switch: the SM is sw-a (the first node).
si_h=$(fabric_run hca-a1 timeout 10 "$FABRIC_REF/sminfo" 2>&1)
expect "sminfo from hca-a1: OpenSM on sw-a is MASTER" \
	'^sminfo: sm lid [0-9]+ sm guid 0x200000, .* state 3 SMINFO_MASTER$' "$si_h"
si_s=$(fabric_run sw-b timeout 10 "$FABRIC_REF/sminfo" 2>&1)
expect "sminfo from sw-b: OpenSM on sw-a is MASTER" \
	'^sminfo: sm lid [0-9]+ sm guid 0x200000, .* state 3 SMINFO_MASTER$' "$si_s"
smlid=$(printf '%s\n' "$si_h" | sed -n 's/^sminfo: sm lid \([0-9]*\) .*/\1/p')
: "${smlid:=1}"

# smpquery nodeinfo: LID-routed to the SM's switch from both, and each one's
# own node by an empty directed route.
for h in hca-a1 sw-b; do
	ni=$(fabric_run "$h" timeout 10 "$FABRIC_REF/smpquery" nodeinfo "$smlid" 2>&1)
	if [ "$(field NodeType "$ni")" = Switch ] && [ "$(field Guid "$ni")" = 0x0000000000200000 ]; then
		ok "smpquery nodeinfo $smlid from $h: switch 0x200000"
	else
		bad "smpquery nodeinfo $smlid from $h:"
		printf '%s\n' "$ni" | sed 's/^/    | /'
	fi
done
ni=$(fabric_run hca-a1 timeout 10 "$FABRIC_REF/smpquery" -D nodeinfo 0 2>&1)
expect "smpquery -D nodeinfo 0 on hca-a1: a CA" '^NodeType:\.+Channel Adapter$' "$ni"
ni=$(fabric_run sw-b timeout 10 "$FABRIC_REF/smpquery" -D nodeinfo 0 2>&1)
expect "smpquery -D nodeinfo 0 on sw-b: switch 0x200001" '^Guid:\.+0x0000000000200001$' "$ni"

# Unlink one of the two sw-a -- sw-b links: port Down/Polling on both ends,
# OpenSM re-sweeps; ReLink: Active again after the next sweep.
t=$(ms)
sweeps=$(fabric_sweeps)
if fabric_console 'Unlink "sw-a"[7]'; then
	ok "fabric_console Unlink \"sw-a\"[7]"
else
	bad "fabric_console Unlink \"sw-a\"[7]"
fi
same "after Unlink, sw-a port 7 (LID-routed from hca-a1)" \
	"$(portstate hca-a1 portinfo "$smlid" 7)" Down/Polling
same "after Unlink, sw-b port 7 (DR from sw-b)" "$(portstate sw-b -D portinfo 0 7)" Down/Polling
if fabric_wait_sweep "$sweeps"; then
	ok "OpenSM re-swept after Unlink"
else
	bad "no OpenSM sweep after Unlink"
fi
sweeps=$(fabric_sweeps)
if fabric_console 'ReLink "sw-a"[7]'; then
	ok "fabric_console ReLink \"sw-a\"[7]"
else
	bad "fabric_console ReLink \"sw-a\"[7]"
fi
fabric_wait_sweep "$sweeps" || bad "no OpenSM sweep after ReLink"
if wait_portstate Active/LinkUp hca-a1 portinfo "$smlid" 7; then
	ok "after ReLink: sw-a port 7 Active/LinkUp ($(($(ms) - t)) ms for Unlink+ReLink)"
else
	bad "after ReLink: sw-a port 7 not Active/LinkUp"
fi

# Console errors are reported; the console keeps working.
if fabric_console 'Unlink "no-such-node"[1]' >/dev/null; then
	bad "fabric_console accepted Unlink of an unknown node"
else
	ok "fabric_console reports an unknown node"
fi
if fabric_console 'ReLink "sw-a"[9]' >/dev/null; then
	bad "fabric_console accepted ReLink of a never-linked port"
else
	ok "fabric_console reports ReLink without a previous link"
fi
att=$(fabric_console Attached)
expect "console Attached lists OpenSM's client" "^Client [0-9]+: pid $FABRIC_SM_PID connected at \"sw-a\"" "$att"

# A console that does not answer (ibsim stopped): fabric_console gives up after
# IBMGMT_FABRIC_CONSOLE_TIMEOUT seconds, says so and returns 1; once ibsim runs
# again the next call works and the late command's output is not mixed into it.
kill -STOP "$FABRIC_SIM_PID"
t=$(ms)
msg=$( (IBMGMT_FABRIC_CONSOLE_TIMEOUT=1; fabric_console Attached) 2>&1 >/dev/null)
st=$?
t=$(($(ms) - t))
kill -CONT "$FABRIC_SIM_PID"
case "$st $msg" in
"1 fabric_console: ibsim did not execute 'Attached' within 1 s"*)
	if [ "$t" -lt 5000 ]; then
		ok "fabric_console gives up on a stopped ibsim after 1 s ($t ms) and says so"
	else
		bad "fabric_console took $t ms to give up (IBMGMT_FABRIC_CONSOLE_TIMEOUT=1)"
	fi ;;
*) bad "fabric_console on a stopped ibsim: status $st, message '$msg'" ;;
esac
out=$(fabric_console 'Error "sw-b" 0')
st=$?
same "fabric_console after a time-out: status and output (the late Attached's excluded)" \
	"$st '$out'" "0 ''"

# fabric_env: the caller runs the client itself.
si_e=$(
	eval "$(fabric_env hca-b1)" || exit 1
	cd "$FABRIC_DIR" && timeout 10 "$FABRIC_REF/sminfo" 2>&1
)
expect "fabric_env + sminfo from hca-b1" 'state 3 SMINFO_MASTER$' "$si_e"

# fabric_wait_attached: 1 for a process that ends without ever attaching, 2
# for one that does not attach within the time given (0: below, the victim).
wait_attached_is() {
	if [ "$2" = "$1" ]; then
		ok "fabric_wait_attached: $1 for $3"
	else
		bad "fabric_wait_attached: $2 (not $1) for $3"
	fi
}
sleep 0.3 &
p=$!
fabric_wait_attached "$p" 5
wa=$?
wait "$p"
wait_attached_is 1 "$wa" "a process that ended unattached"
sleep 3 &
p=$!
fabric_wait_attached "$p" 1
wa=$?
kill "$p" 2>/dev/null
wait "$p" 2>/dev/null
wait_attached_is 2 "$wa" "a process not attached within 1 s"

# A client killed while attached keeps its ibsim slot until fabric_reap.
# iblinkinfo -S sends directed-route SMPs with a real DrSLID, which ibsim
# drops silently, so it waits for ever (see reference §4): a handy victim.
# It is killed only once it hangs there (ibsim has logged the dropped SMP):
# killed earlier, while OpenSM's answer to its GUID-to-LID query is on the
# way, ibsim's write of that answer fails and ibsim frees the slot itself.
# The set-up is checked (the dead client still holds its slot) and tried at
# most 3 times: CI once saw the slot gone before fabric_reap ran.
drslid_log() { grep -c 'dr\[ds\]lids are used' "$FABRIC_DIR/ibsim.err"; }
# hang_victim: starts the victim; 0 once it hangs attached, 1 if it exited,
# 2 if it did not get there within 20 s.  Sets victim.
hang_victim() {
	_hv_n0=$(drslid_log)
	fabric_run_bg hca-b2 "$FABRIC_REF/iblinkinfo" -S 0x200000 >/dev/null 2>&1
	victim=$FABRIC_BG_PID
	_hv_end=$(($(date +%s) + 20))
	until [ "$(drslid_log)" -gt "$_hv_n0" ] &&
		fabric_console Attached | grep -q "pid $victim "; do
		_fabric_alive "$victim" || return 1
		[ "$(date +%s)" -lt "$_hv_end" ] || return 2
		_fabric_nap 0.02
	done
	return 0
}
try=1
while :; do
	hang_victim
	hv=$?
	if [ "$hv" = 1 ]; then
		wait "$victim" 2>/dev/null
		echo "note: iblinkinfo -S did not hang here; fabric_reap check skipped"
		break
	fi
	if [ "$hv" = 0 ] && [ "$try" = 1 ]; then
		fabric_wait_attached "$victim" 1
		wa=$?
		wait_attached_is 0 "$wa" "attached client $victim"
	fi
	kill -KILL "$victim"
	wait "$victim" 2>/dev/null
	if [ "$hv" = 0 ] && fabric_console Attached | grep -q "pid $victim "; then
		ok "killed client $victim still holds its ibsim slot (try $try)"
		reaped=$(fabric_reap)
		att=$(fabric_console Attached)
		if [ "$reaped" = 1 ] && ! printf '%s\n' "$att" | grep -q "pid $victim " &&
			[ ! -e "$FABRIC_DIR/sys-$victim" ]; then
			ok "fabric_reap freed the slot of killed client $victim"
		else
			bad "fabric_reap: reaped '$reaped', Attached now:"
			printf '%s\n' "$att" | sed 's/^/    | /'
		fi
		break
	fi
	echo "note: set-up try $try: victim $victim $([ "$hv" = 2 ] && echo 'not hung attached within 20 s' || echo 'no longer attached after the kill'); ibsim.err ends:"
	tail -n 5 "$FABRIC_DIR/ibsim.err" | sed 's/^/    | /'
	fabric_reap > /dev/null
	if [ "$try" -ge 3 ]; then
		bad "could not set up a killed client holding its ibsim slot in 3 tries"
		break
	fi
	try=$((try + 1))
done
# ... and a hung client still running at fabric_stop is killed there.
fabric_run_bg hca-b2 "$FABRIC_REF/iblinkinfo" -S 0x200001 >/dev/null 2>&1
hung=$FABRIC_BG_PID
stop_and_check
if _fabric_alive "$hung"; then
	bad "fabric_stop left client $hung running"
	kill -KILL "$hung" 2>/dev/null
else
	ok "fabric_stop killed the client still running"
fi
wait "$hung" 2>/dev/null

# ---------------------------------------------------------------------------
# A client started just before fabric_stop whose subshell has not exec'd yet
# (/proc/PID/environ still this shell's, without the client's mark) is killed too:
# missed, it would exec after the scan and wait for ever for the stopped ibsim.
# No simulator needed: the fixture's state of a fabric without processes, and
# `sleep 60` as the client (no umad2sim).
echo "=== fabric_stop just after fabric_run_bg"
saved_umad2sim=$FABRIC_UMAD2SIM saved_path=$PATH
work=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-selftest.XXXXXX") || { echo "FAIL: mktemp -d"; exit 1; }
# fake_fabric: the fixture's variables for a fabric of no processes
fake_fabric() {
	# shellcheck disable=SC2034 # FABRIC_SOCK and _fabric_owner are fabric.sh's
	FABRIC_DIR=$(mktemp -d "$work/fabric.XXXXXX") || return 1
	FABRIC_SOCK=ibmgmt-selftest-$$-${FABRIC_DIR##*.} FABRIC_UMAD2SIM='' _fabric_owner=$$
}
# stop_after_bg: fabric_run_bg sleep 60 then at once fabric_stop (in this shell,
# the fabric's owner); r=left if the client survived, r=pre if fabric_stop caught it
# before its exec, r=post after.
stop_after_bg() {
	fake_fabric || { r=mktemp; return; }
	fabric_run_bg none sleep 60
	_sab=$FABRIC_BG_PID
	PATH=$saved_path
	fabric_stop 2> "$work/msgs"
	if _fabric_alive "$_sab"; then
		r=left
		kill -KILL "$_sab" 2>/dev/null
	elif ! grep -q "^fabric_stop: killing client pid $_sab, " "$work/msgs"; then
		r="gone without fabric_stop's note"	# sleep 60 cannot have ended by itself
	elif grep "^fabric_stop: killing client pid $_sab, " "$work/msgs" | grep -q "sleep 60"; then
		r=post
	else
		r=pre
	fi
	wait "$_sab" 2>/dev/null
}
# 1. Made certain: an `env` first in PATH that takes 2 s over the fixture's check
# `env --default-signal=INT true`, so the subshell is still before its exec.
if ! { mkdir "$work/slowbin" && printf '%s\n' '#!/bin/sh' \
	'[ "$*" != "--default-signal=INT true" ] || sleep 2' 'exec /usr/bin/env "$@"' \
	> "$work/slowbin/env" && chmod +x "$work/slowbin/env"; }; then
	echo "FAIL: cannot write $work/slowbin/env"
	exit 1
fi
try=1
while :; do
	PATH=$work/slowbin:$saved_path
	stop_after_bg
	[ "$r" != post ] || [ "$try" -ge 3 ] || { try=$((try + 1)); continue; }
	break
done
PATH=$saved_path
case $r in
pre) ok "fabric_stop killed a client started just before it, still before its exec (try $try)" ;;
post) bad "set-up: the client had exec'd before fabric_stop in 3 tries: the case is not tested" ;;
*) bad "fabric_stop and a client still before its exec: $r" ;;
esac
# 2. As it comes, 100 times.
n=0 other=
while [ "$n" -lt 100 ]; do
	n=$((n + 1))
	stop_after_bg
	case $r in
	pre | post) ;;
	*) other="$other $r" ;;
	esac
done
if [ -z "$other" ]; then
	ok "fabric_stop killed all 100 clients started just before it"
else
	bad "fabric_stop just after fabric_run_bg, 100 times, failed:$other"
fi
rm -rf "$work"
FABRIC_UMAD2SIM=$saved_umad2sim FABRIC_DIR=''

# ---------------------------------------------------------------------------
echo "=== fat-tree.net"
if sh "$topo/gen-fat-tree.sh" | cmp -s - "$topo/fat-tree.net"; then
	ok "fat-tree.net is what gen-fat-tree.sh writes"
else
	bad "fat-tree.net differs from the output of gen-fat-tree.sh"
fi
t=$(ms)
fabric_start "$topo/fat-tree.net" || { echo "FAIL: fabric_start fat-tree.net"; exit 1; }
ok "fabric_start fat-tree.net ($FABRIC_NODES nodes): subnet up in $(($(ms) - t)) ms"
t=$(ms)
n=$(fabric_run ft-h001 timeout 30 "$FABRIC_REF/ibnetdiscover" -l | wc -l)
want=$(fabric_count_nodes "$topo/fat-tree.net")
same "ibnetdiscover -l | wc -l from ft-h001 ($(($(ms) - t)) ms)" "$n" "$want"
n=$(fabric_run ft-leaf24 timeout 30 "$FABRIC_REF/ibnetdiscover" -l | wc -l)
same "ibnetdiscover -l | wc -l from switch ft-leaf24" "$n" "$want"
stop_and_check

# ---------------------------------------------------------------------------
echo "=== mixed.net"
t=$(ms)
fabric_start "$topo/mixed.net" || { echo "FAIL: fabric_start mixed.net"; exit 1; }
ok "fabric_start mixed.net: subnet up in $(($(ms) - t)) ms"
want=$(fabric_count_nodes "$topo/mixed.net")
n=$(fabric_run mx-h1 timeout 30 "$FABRIC_REF/ibnetdiscover" -l | wc -l)
same "ibnetdiscover -l | wc -l from mx-h1" "$n" "$want"
# SIM_HOST may also be a node description.
topo_out=$(fabric_run "mx-h3 HCA-1" timeout 30 "$FABRIC_REF/ibnetdiscover" 2>&1)
for l in '"mx-h1 HCA-1" lid [0-9]+ 4xSDR' '"mx-h2 HCA-1" lid [0-9]+ 1xDDR' \
	'"mx-h3 HCA-1" lid [0-9]+ 12xQDR' '"mx-h4 HCA-1" lid [0-9]+ 4xFDR' \
	'"mx-h5 HCA-1" lid [0-9]+ 4xEDR' '"mx-h6 HCA-1" lid [0-9]+ 2xHDR' \
	'"mx-sw2" lid [0-9]+ 12xEDR' '"mx-h8 HCA-1" lid [0-9]+ 8xDDR' \
	'"mx-h7 HCA-1" lid [0-9]+ 4xDDR' '"mx-rt1 router" lid [0-9]+ 4xQDR'; do
	if printf '%s\n' "$topo_out" | grep -Eq -- "$l\$"; then
		ok "ibnetdiscover: $l"
	else
		bad "ibnetdiscover: no link /$l/"
	fi
done
if printf '%s\n' "$topo_out" | grep -q '^\[8\]'; then
	bad "mx-sw1/mx-sw2 port 8 link is up at start"
else
	ok "port 8 link (created and unlinked in the net file) is down at start"
fi
same "mx-sw1 port 9 (nothing connected)" "$(portstate mx-h1 -D portinfo 0,1 9)" Down/Polling
sweeps=$(fabric_sweeps)
fabric_console 'ReLink "mx-sw1"[8]' || bad "fabric_console ReLink \"mx-sw1\"[8]"
fabric_wait_sweep "$sweeps" || bad "no OpenSM sweep after ReLink"
if wait_portstate Active/LinkUp mx-h1 -D portinfo 0,1 8; then
	ok "ReLink \"mx-sw1\"[8]: the down link comes up Active"
else
	bad "ReLink \"mx-sw1\"[8]: port 8 not Active/LinkUp"
fi
stop_and_check

echo "=== total $(($(ms) - t_all)) ms"
exit $fail
