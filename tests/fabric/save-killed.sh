#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The tool killed while it writes a cache file (issue 14: no leftover state).  The fault
# matrix kills tools at some point of their run; here the kill falls inside the save itself,
# every time: strace(1) holds the save's fsync() for a while, and the signal comes then.
#   ibnetdiscover --cache F and ibcacheedit OLD F, F holding an old file:
#   SIGKILL             F as it was, nothing else in its directory (the bytes were in an
#                       unnamed file: libibtopo's cache.c);
#   SIGINT/TERM/HUP     the save completes (the tool holds these signals while it writes),
#                       F is the new file, nothing else; then the signal ends the tool
#                       (status 128 + the signal).
# Exit 0 pass, 1 fail, 77 skip (no fabric, or no strace with fault injection), 99 set-up.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/fabric.sh"
. "$top_srcdir/tests/fabric/our-tool.sh"
fabric_require
if ! strace -o /dev/null -e trace=none -e inject=fsync:delay_enter=1 true 2> /dev/null; then
	# CI installs strace (.ci/debian-packages): there, a skip would hide the test
	if [ "${IBMGMT_REQUIRE_FABRIC:-0}" = 1 ]; then
		echo "ERROR: IBMGMT_REQUIRE_FABRIC=1 but no strace(1) with fault injection (strace 4.22)"
		exit 99
	fi
	echo "SKIP: no strace(1) with fault injection (strace 4.22)"
	exit 77
fi
# a background command of a shell without job control starts with SIGINT and SIGQUIT
# ignored, and one run under nohup(1) (as a long loop of the suite may be) with SIGHUP
# ignored: the tool under test gets every signal of the test at its default action
env --default-signal=INT true 2> /dev/null ||
	{ echo "SKIP: no env --default-signal (coreutils 8.31)"; exit 77; }
our_tool_libs "$top_builddir"
work=$(mktemp -d "${TMPDIR:-/tmp}/save-killed.XXXXXX") || exit 99
trap 'fabric_stop; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT INT TERM HUP
fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || exit 99
eval "$(fabric_env hca-a1)"
# strace runs without umad2sim, the tool under it with (-E)
preload=$LD_PRELOAD
unset LD_PRELOAD
cd "$FABRIC_DIR" || exit 99
disc=$(our_tool "$top_builddir" ibnetdiscover)
edit=$(our_tool "$top_builddir" ibcacheedit)
fail=0

# the new files, written without a fault: what a completed save gives
LD_PRELOAD=$preload "$disc" --cache "$work/new.cache" > /dev/null 2>&1 || { echo "ERROR: ibnetdiscover --cache"; exit 99; }
guid=$(LD_PRELOAD=$preload "$disc" --load-cache "$work/new.cache" 2> /dev/null | sed -n 's/^caguid=//p' | head -n 1)
[ -n "$guid" ] || { echo "ERROR: no CA GUID in the cache"; exit 99; }
"$edit" --caguid "$guid:0x1234" "$work/new.cache" "$work/edited.cache" ||
	{ echo "ERROR: ibcacheedit"; exit 99; }

# killed NAME SIG WANT PROGRAM ARGS...: PROGRAM writes $work/d/F (an old file there first),
# gets SIG while its fsync() is held; F must then be WANT (a file) and alone.
killed() {
	_name=$1 _sig=$2 _want=$3
	shift 3
	rm -rf "$work/d"
	mkdir "$work/d" && printf 'old file\n' > "$work/d/F" || exit 99
	env --default-signal=HUP,INT,QUIT,TERM strace -o /dev/null -E "LD_PRELOAD=$preload" -e trace=fsync \
		-e inject=fsync:delay_enter=2000000 "$@" > "$work/out" 2>&1 &
	_sp=$!
	# the tool (strace's child) has a file open in the directory: it is in its save
	_n=400 _pid=
	while [ "$_n" -gt 0 ]; do
		_pid=$(pgrep -P "$_sp" | head -n 1)
		[ -n "$_pid" ] && [ -n "$(find "/proc/$_pid/fd" -lname "$work/d/*" 2> /dev/null)" ] && break
		_fabric_nap 0.05
		_n=$((_n - 1))
	done
	if [ "$_n" -eq 0 ]; then
		echo "ERROR: $_name: the save never started"
		cat "$work/out"
		exit 99
	fi
	kill -"$_sig" "$_pid"
	wait "$_sp"
	_rc=$?
	_left=$(find "$work/d" -mindepth 1 -printf '%f ')
	case $_sig in HUP) _exp=129 ;; INT) _exp=130 ;; KILL) _exp=137 ;; TERM) _exp=143 ;; esac
	if [ "$_left" != "F " ]; then
		echo "FAIL: $_name SIG$_sig: left in the directory: $_left"
		fail=1
	elif ! cmp -s "$work/d/F" "$_want"; then
		echo "FAIL: $_name SIG$_sig: the file is not $(basename "$_want") (size $(wc -c < "$work/d/F"))"
		fail=1
	elif [ "$_rc" != "$_exp" ]; then
		echo "FAIL: $_name SIG$_sig: status $_rc, not $_exp"
		fail=1
	else
		echo "ok: $_name SIG$_sig: $(basename "$_want"), nothing else, status $_rc"
	fi
}

printf 'old file\n' > "$work/old"
for sig in KILL INT TERM HUP; do
	want=$work/new.cache
	[ "$sig" != KILL ] || want=$work/old
	killed "ibnetdiscover --cache" "$sig" "$want" "$disc" --cache "$work/d/F"
	fabric_reap > /dev/null || { echo "ERROR: cannot free the killed client's ibsim slot"; exit 99; }
	want=$work/edited.cache
	[ "$sig" != KILL ] || want=$work/old
	killed ibcacheedit "$sig" "$want" "$edit" --caguid "$guid:0x1234" "$work/new.cache" "$work/d/F"
done
exit "$fail"
