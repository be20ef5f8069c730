#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Hostile replies: every tool that talks to the fabric runs with tests/fabric/hostile-replies-shim.c
# in front of umad2sim, which spoils the replies it receives (truncated or oversized MADs, error
# statuses, wrong transaction IDs, classes, methods or attributes, repeated or lost replies, bogus
# RMPP and SA headers, impossible port counts, LIDs, hop pointers, table tops, link widths and
# speeds).  For each case, OUR tool must
#   - end within the time-out (no hang),
#   - not be killed by a signal, nor print a sanitizer report (run this against the ASan build:
#     top_builddir=build/asan),
#   - print a message when it fails (exit status not 0); an empty output with exit status 0
#     is an empty answer (no record, no switch found), which is sane,
#   - end with an exit status its man page (doc/<tool>.8, EXIT STATUS) documents,
# and the rule must really have changed a reply it received.
# The reference tool (/usr/sbin/<tool>) gets the same spoiled replies; how it ended is
# counted beside ours (crashed, hung, the same result as ours, another result).  Cases marked
# "=" must give exactly the reference's result (stdout, stderr but libibmad's "ibwarn:" lines,
# exit status).
#
#   top_srcdir=. top_builddir=build/w sh tests/fabric/hostile-replies.sh
#   HOSTILE_FILTER=REGEX      only the cases that match (grep -E on the case line)
#   HOSTILE_VERBOSE=1         every case and how both tools ended; the differences in full
#   HOSTILE_NO_REF=1          do not run the reference
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require

. "$top_srcdir/tests/fabric/our-tool.sh"
our_tool_libs "$top_builddir"

work=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-hostile.XXXXXX") || exit 99
trap 'fabric_stop; rm -rf "$work"' EXIT INT TERM HUP
${CC:-cc} -shared -fPIC -O2 -o "$work/hostile.so" "$top_srcdir/tests/fabric/hostile-replies-shim.c" -ldl ||
	{ echo "ERROR: cannot build tests/fabric/hostile-replies-shim.c"; exit 99; }

OUR_TIMEOUT=${HOSTILE_TIMEOUT:-40}
REF_TIMEOUT=${HOSTILE_REF_TIMEOUT:-6}

# The cases: CLASS | EXPECT | RULE | TOOL ARGUMENTS, run on two-switch.net from hca-a1.
# LIDs there: sw-a 1 (OpenSM), hca-a1 2, sw-b 3, hca-a2 4, hca-a3 5, hca-b1 6, hca-b2 7, hca-b3 8.
# EXPECT "=": ours must end exactly as the reference does (where the reference ended the same
# way in every run measured); "-": only the safety checks (the reference crashes, hangs, is slow
# (ibroute reading 1,024 LFT blocks), or ends otherwise by design: libibmad reads a MAD cut short
# past its end and takes a reply of another class, method or attribute; ours does neither).
# "-t 300" where replies are lost on purpose, so that the retries end sooner.
cat > "$work/cases" << 'EOF'
# -- lengths: short MADs (header only, cut in the header, cut in the data), oversized ones
length | = | attr=0x11 len=0 | smpquery -t 300 nodeinfo 3
length | - | attr=0x11 len=20 | smpquery -t 300 nodeinfo 3
length | - | attr=0x11 len=24 | smpquery nodeinfo 3
length | - | attr=0x11 len=70 | smpquery nodeinfo 3
length | = | attr=0x11 extend=512 | smpquery -t 300 nodeinfo 3
length | - | attr=0x15 len=64 | smpquery portinfo 3 1
length | = | attr=0x15 extend=4096 | smpquery -t 300 portinfo 3 1
length | - | attr=0x15 len=90 | ibaddr 3
length | - | attr=0x20 len=70 | sminfo
length | = | attr=0x20 extend=300 | sminfo -t 300
length | - | class=0x04 len=30 | perfquery 3 1
length | - | class=0x04 len=80 | perfquery 3 1
length | = | class=0x04 extend=300 | perfquery -t 300 3 1
length | - | class=0x04 attr=0x1d len=70 | perfquery -x 3 1
length | - | class=0x03 len=0 | saquery -t 300
length | = | class=0x03 len=30 | saquery
length | = | class=0x03 len=56 | saquery
length | = | class=0x03 len=100 | saquery
length | = | class=0x03 extend=4096 | saquery -t 300
length | = | class=0x03 len=60 | saquery -s
length | - | class=0x81 len=70 | ibnetdiscover
length | - | class=0x81 attr=0x15 len=100 from=4 | ibnetdiscover
length | - | class=0x81 attr=0x11 extend=600 nth=3 | ibnetdiscover -t 300
length | - | class=0x81 len=66 | iblinkinfo
length | - | class=0x81 attr=0x15 len=90 from=2 | ibqueryerrors
length | = | attr=0x19 len=100 | ibroute 3
length | - | attr=0x12 len=66 | ibroute 3
length | - | attr=0x19 extend=1000 | dump_fts -t 300
length | - | attr=0x19 len=70 | ibtracert 2 6
length | - | class=0x81 attr=0x11 len=40 | smpdump -D 0,1 0x11
length | - | attr=0x15 len=80 | ibportstate 4 1
# -- statuses: the defined error codes, reserved bits, busy and redirect
status | = | attr=0x11 status=0x0004 | smpquery nodeinfo 3
status | = | attr=0x11 status=0x0008 | smpquery nodeinfo 3
status | = | attr=0x11 status=0x000c | smpquery nodeinfo 3
status | = | attr=0x11 status=0x001c | smpquery nodeinfo 3
status | = | attr=0x11 status=0xff00 | smpquery nodeinfo 3
status | = | attr=0x11 status=0x0001 | smpquery nodeinfo 3
status | = | attr=0x11 status=0x0002 | smpquery nodeinfo 3
status | = | attr=0x15 status=0x001c | smpquery portinfo 3 1
status | = | attr=0x15 status=0x0004 | ibaddr 3
status | = | attr=0x20 status=0x0008 | sminfo
status | = | class=0x04 status=0x000c | perfquery 3 1
status | = | class=0x04 attr=0x12 status=0x001c | perfquery 3 1
status | = | class=0x04 status=0xff00 | perfquery -x 3 1
status | = | class=0x03 status=0x0004 | saquery
status | = | class=0x03 status=0xff00 | saquery
status | = | class=0x03 status=0x0300 | saquery
status | = | class=0x03 status=0x001c | saquery -s
status | - | class=0x81 attr=0x11 status=0x0004 nth=2 | ibnetdiscover
status | = | class=0x81 attr=0x15 status=0x001c | ibnetdiscover
status | = | class=0x81 attr=0x15 status=0x001c | iblinkinfo
status | = | class=0x81 attr=0x15 status=0x001c | ibqueryerrors
status | = | class=0x81 attr=0x12 status=0xff00 | ibnetdiscover
status | - | class=0x81 attr=0x15 status=0x0008 from=3 | iblinkinfo
status | = | class=0x04 status=0x000c | ibqueryerrors
status | = | attr=0x19 status=0x001c | ibroute 3
status | = | attr=0x12 status=0x0004 | ibroute 3
status | = | attr=0x19 status=0x001c nth=2 | dump_fts
status | = | attr=0x19 status=0x0004 | ibtracert 2 6
status | = | attr=0x15 status=0x0004 | ibportstate 4 1
status | = | class=0x81 attr=0x11 status=0x000c | smpdump -D 0,1 0x11
# -- header: wrong transaction ID, class, method, attribute, modifier, versions; repeats; losses
header | = | attr=0x11 tid=wrong | smpquery -t 300 nodeinfo 3
header | - | attr=0x11 field=MgmtClass value=0x04 | smpquery -t 300 nodeinfo 3
header | - | attr=0x11 field=Method value=0x01 | smpquery -t 300 nodeinfo 3
header | - | attr=0x11 field=Method value=0x82 | smpquery -t 300 nodeinfo 3
header | - | attr=0x11 field=AttrID value=0x15 | smpquery -t 300 nodeinfo 3
header | = | attr=0x11 field=AttrMod value=5 | smpquery nodeinfo 3
header | - | attr=0x11 field=BaseVersion value=2 | smpquery -t 300 nodeinfo 3
header | = | attr=0x11 field=ClassVersion value=9 | smpquery -t 300 nodeinfo 3
header | = | attr=0x11 repeat=3 | smpquery nodeinfo 3
header | = | attr=0x11 drop | smpquery -t 300 nodeinfo 3
header | = | class=0x04 tid=wrong | perfquery -t 300 3 1
header | = | class=0x04 repeat=2 | perfquery 3 1
header | - | class=0x04 field=AttrID value=0x11 | perfquery -t 300 3 1
header | - | class=0x03 tid=wrong | saquery -t 300
header | - | class=0x03 field=AttrID value=0x12 | saquery -t 300
header | - | class=0x03 field=Method value=0x81 | saquery -t 300
header | = | class=0x03 repeat=2 | saquery
header | - | class=0x03 drop | saquery -t 300
header | - | class=0x81 attr=0x15 tid=wrong nth=3 | ibnetdiscover -t 300
header | - | class=0x81 attr=0x11 repeat=2 | ibnetdiscover
header | - | class=0x81 attr=0x15 drop nth=5 | ibnetdiscover -t 300
header | = | class=0x81 attr=0x11 field=AttrID value=0x15 nth=2 | ibnetdiscover -t 300
header | - | class=0x81 attr=0x15 repeat=1 from=3 | iblinkinfo
header | - | class=0x04 tid=wrong nth=3 | ibqueryerrors -t 300
header | = | attr=0x19 field=AttrMod value=7 | ibroute 3
header | = | attr=0x19 repeat=1 | dump_fts
header | = | attr=0x20 tid=wrong | sminfo -t 300
# -- RMPP and SA: segment numbers, payload lengths, flags, types, record sizes
rmpp-sa | = | class=0x03 field=SegmentNumber value=0 | saquery
rmpp-sa | = | class=0x03 field=SegmentNumber value=2 | saquery
rmpp-sa | = | class=0x03 field=SegmentNumber value=0xffffffff | saquery
rmpp-sa | = | class=0x03 field=PayloadLength value=0 | saquery
rmpp-sa | = | class=0x03 field=PayloadLength value=1 | saquery
rmpp-sa | = | class=0x03 field=PayloadLength value=0xffffffff | saquery
rmpp-sa | = | class=0x03 field=RMPPFlags value=0 | saquery
rmpp-sa | = | class=0x03 field=RMPPFlags value=1 | saquery
rmpp-sa | = | class=0x03 field=RMPPType value=0 | saquery
rmpp-sa | = | class=0x03 field=RMPPType value=9 | saquery
rmpp-sa | = | class=0x03 field=RMPPVersion value=0 | saquery
rmpp-sa | = | class=0x03 field=RMPPVersion value=7 | saquery
rmpp-sa | = | class=0x03 field=RMPPStatus value=0x7f | saquery
rmpp-sa | = | class=0x03 field=AttributeOffset value=0 | saquery
rmpp-sa | - | class=0x03 field=AttributeOffset value=1 | saquery
rmpp-sa | = | class=0x03 field=AttributeOffset value=0xffff | saquery
rmpp-sa | = | class=0x03 field=AttributeOffset value=0 | saquery -s
rmpp-sa | = | class=0x03 field=AttributeOffset value=0xffff | saquery PR
rmpp-sa | = | class=0x03 field=PayloadLength value=100000 | saquery LR
rmpp-sa | - | class=0x03 field=AttributeOffset value=3 | saquery SL2VL
# -- counts: port counts, port numbers, node types, table tops and capacities
counts | = | attr=0x11 field=NumPorts value=0 | smpquery nodeinfo 3
counts | = | attr=0x11 field=NumPorts value=255 | smpquery pkeys 3 1
counts | = | attr=0x11 field=NumPorts value=0 | ibaddr 3
counts | - | class=0x81 attr=0x11 field=NumPorts value=0 | ibnetdiscover
counts | = | class=0x81 attr=0x11 field=NumPorts value=255 | ibnetdiscover
counts | - | class=0x81 attr=0x11 field=LocalPortNum value=13 | ibnetdiscover
counts | - | class=0x81 attr=0x11 field=LocalPortNum value=255 | ibnetdiscover
counts | - | class=0x81 attr=0x11 field=LocalPortNum value=0 nth=2 | ibnetdiscover
counts | - | class=0x81 attr=0x11 field=NodeType value=0 nth=2 | ibnetdiscover
counts | = | class=0x81 attr=0x11 field=NodeType value=255 | ibnetdiscover
counts | - | class=0x81 attr=0x11 field=NodeType value=3 nth=3 | ibnetdiscover
counts | = | class=0x81 attr=0x11 field=NumPorts value=255 | iblinkinfo
counts | - | class=0x81 attr=0x11 field=NumPorts value=0 | iblinkinfo
counts | - | class=0x81 attr=0x11 field=LocalPortNum value=200 | iblinkinfo
counts | = | class=0x81 attr=0x11 field=NumPorts value=255 | ibqueryerrors
counts | - | class=0x81 attr=0x11 field=LocalPortNum value=99 | ibqueryerrors
counts | = | attr=0x11 field=NumPorts value=255 | ibroute 3
counts | - | attr=0x12 field=LinearFDBTop value=0xffff | ibroute 3
counts | - | attr=0x12 field=LinearFDBTop value=0xc000 | ibroute 3 1 0x100
counts | = | attr=0x12 field=LinearFDBCap value=0 | ibroute 3
counts | = | attr=0x12 field=MulticastFDBTop value=0xffff | ibroute -M 3
counts | = | attr=0x12 field=MulticastFDBCap value=0xffff | ibroute -M 3
counts | - | attr=0x12 field=LinearFDBTop value=0xffff | dump_fts
counts | = | attr=0x12 field=MulticastFDBTop value=0xffff | dump_fts -M
counts | - | class=0x81 attr=0x11 field=NumPorts value=255 | dump_fts
counts | - | attr=0x12 field=LinearFDBTop value=0xffff | ibtracert 2 6
counts | = | attr=0x11 field=NumPorts value=0 | ibtracert 2 6
counts | = | attr=0x12 field=DefaultPort value=255 | smpquery switchinfo 3
counts | = | class=0x03 attr=0x11 field=NumPorts value=255 | saquery
counts | = | attr=0x11 field=NumPorts value=0 | ibportstate 4 1
counts | = | attr=0x11 field=NodeType value=9 | ibportstate 4 1
# -- lids: 0, 0xffff, multicast LIDs, an LMC of 7 in PortInfo, SMInfo and SA records
lids | = | attr=0x15 field=LID value=0 | ibaddr 3
lids | = | attr=0x15 field=LID value=0xffff | ibaddr 3
lids | = | attr=0x15 field=LMC value=7 | ibaddr 3
lids | = | attr=0x15 field=LID value=0xc001 | smpquery portinfo 3 1
lids | = | attr=0x15 field=MasterSMLID value=0 | smpquery portinfo 3 1
lids | = | attr=0x15 field=MasterSMLID value=0xffff | ibaddr 3
lids | = | class=0x81 attr=0x15 field=LID value=0 | ibnetdiscover
lids | = | class=0x81 attr=0x15 field=LID value=0xffff | ibnetdiscover
lids | = | class=0x81 attr=0x15 field=LID value=0xffff | iblinkinfo
lids | = | class=0x81 attr=0x15 field=LID value=0 | ibqueryerrors
lids | - | class=0x81 attr=0x15 field=LID value=0xffff | ibqueryerrors
lids | = | attr=0x15 field=LID value=0xffff | ibtracert 2 6
lids | = | attr=0x15 field=LID value=0 | ibportstate 4 1
lids | = | class=0x03 attr=0x11 field=LID value=0 | saquery
lids | = | class=0x03 attr=0x11 field=LID value=0xffff | saquery
lids | - | class=0x03 attr=0x35 field=DLID value=0xffff | saquery PR
lids | = | class=0x03 attr=0x20 field=ToLID value=0xffff | saquery LR
# -- dr: hop pointers and counts out of range, DR LIDs and paths in directed route replies
dr | = | class=0x81 field=HopPointer value=0 | smpquery -D nodeinfo 0,1
dr | = | class=0x81 field=HopPointer value=64 | smpquery -D nodeinfo 0,1
dr | = | class=0x81 field=HopPointer value=255 | smpquery -D nodeinfo 0,1,7
dr | = | class=0x81 field=HopCount value=255 | smpquery -D nodeinfo 0,1
dr | = | class=0x81 field=HopCount value=64 | smpdump -D 0,1 0x11
dr | = | class=0x81 field=DrSLID value=5 | smpquery -D nodeinfo 0,1
dr | = | class=0x81 field=DrDLID value=0 | smpquery -D portinfo 0,1 1
dr | = | class=0x81 field=ReturnPath1 value=99 | smpquery -D nodeinfo 0,1
dr | = | class=0x81 field=HopPointer value=255 | ibnetdiscover
dr | = | class=0x81 field=HopCount value=64 | ibnetdiscover
dr | = | class=0x81 field=InitPath1 value=200 from=3 | ibnetdiscover
dr | = | class=0x81 field=HopPointer value=99 | iblinkinfo
dr | = | class=0x81 field=HopCount value=0 | ibqueryerrors
# -- link: unknown widths, speeds, states and MTUs in PortInfo
link | = | attr=0x15 field=LinkWidthActive value=0 | smpquery portinfo 3 1
link | = | attr=0x15 field=LinkWidthActive value=0xff | smpquery portinfo 3 1
link | = | attr=0x15 field=LinkSpeedActive value=15 | smpquery portinfo 3 1
link | = | attr=0x15 field=LinkSpeedExtActive value=15 | smpquery portinfo 3 1
link | = | attr=0x15 field=PortState value=7 | smpquery portinfo 3 1
link | = | attr=0x15 field=NeighborMTU value=0 | smpquery portinfo 3 1
link | = | attr=0x15 field=VLCap value=15 | smpquery portinfo 3 1
link | = | class=0x81 attr=0x15 field=LinkWidthActive value=0x20 | ibnetdiscover
link | = | class=0x81 attr=0x15 field=LinkSpeedActive value=0 | ibnetdiscover
link | = | class=0x81 attr=0x15 field=LinkSpeedExtActive value=15 | ibnetdiscover
link | = | class=0x81 attr=0x15 field=PortState value=0 | ibnetdiscover
link | = | class=0x81 attr=0x15 field=LinkWidthActive value=0xff | iblinkinfo
link | = | class=0x81 attr=0x15 field=LinkSpeedActive value=15 | iblinkinfo
link | = | class=0x81 attr=0x15 field=PortPhysState value=15 | iblinkinfo
link | = | class=0x81 attr=0x15 field=PortState value=15 | iblinkinfo
link | = | class=0x81 attr=0x15 field=LinkWidthEnabled value=0 | iblinkinfo
link | = | class=0x81 attr=0x15 field=PortState value=7 | ibqueryerrors
link | = | attr=0x15 field=LinkWidthActive value=0x20 | ibportstate 4 1
link | = | attr=0x15 field=LinkSpeedActive value=0 | ibportstate 4 1
link | = | attr=0x15 field=LinkWidthSupported value=0 | ibportstate 4 1
link | = | class=0x03 attr=0x12 field=LinkWidthActive value=0xff | saquery PIR
EOF

# doc_exit TOOL RC: RC is an exit status doc/TOOL.8 documents (its EXIT STATUS section names
# the number, or says that another status is an errno and RC is one).
doc_exit() {
	_sec=$(sed -n '/^\.SH "*EXIT STATUS/,/^\.SH/p' "$top_srcdir/doc/$1.8" | sed 's/\\f[BIRP]//g; s/\\-/-/g')
	[ -n "$_sec" ] || return 1
	printf '%s\n' "$_sec" | grep -Eq "(^|[^0-9x.])$2([^0-9]|$)" && return 0
	case $_sec in *errno*) [ "$2" -gt 0 ] && [ "$2" -lt 128 ] && return 0 ;; esac
	return 1
}

# run SIDE RULE TOOLPATH ARGS...: one run under the shim (and a time-out) into $work/SIDE.*
run() {
	_side=$1 _rule=$2 _prog=$3
	shift 3
	if [ "$_side" = ours ]; then _t=$OUR_TIMEOUT; else _t=$REF_TIMEOUT; fi
	rm -f "$work/$_side.log"
	(
		eval "$(fabric_env hca-a1)" || exit 125
		_pre=$LD_PRELOAD
		unset LD_PRELOAD
		cd "$FABRIC_DIR" || exit 125
		IBMGMT_FABRIC_ID=$FABRIC_SOCK:client
		export IBMGMT_FABRIC_ID
		exec timeout -k 2 "$_t" env LD_PRELOAD="$work/hostile.so $_pre" \
			HOSTILE_RULE="$_rule" HOSTILE_LOG="$work/$_side.log" "$_prog" "$@"
	) > "$work/$_side.out" 2> "$work/$_side.raw" < /dev/null
	echo $? > "$work/$_side.rc"
	# the reference's libibmad prints "ibwarn:" lines of its own; the tool's path is its name
	sed -e "s#$_prog#$tool#g" -e 's/\[[0-9][0-9]*\]/[N]/g' "$work/$_side.raw" |
		grep -v '^ibwarn: ' > "$work/$_side.err"
	sed -i -e "s#$_prog#$tool#g" -e 's/activity count [0-9][0-9]*/activity count N/' -e 's/^# Topology file: generated on .*/# Topology file: generated on DATE/' \
		"$work/$_side.out"
	# a client killed (time-out, signal) or ended by a sanitizer keeps its simulator slot
	_r=$(cat "$work/$_side.rc")
	if { [ "$_r" -ge 124 ] && [ "$_r" -le 192 ]; } || grep -q 'Sanitizer' "$work/$_side.raw"; then
		fabric_reap > /dev/null || { echo "ERROR: cannot free the simulator's client slots"; exit 99; }
	fi
	if grep -q 'sim_init: connect failed' "$work/$_side.raw"; then
		echo "ERROR: the simulator refused a client ($_side: $_prog $*)"
		exit 99
	fi
}

# how SIDE: crashed, hung, sanitizer or rc N
how() {
	_rc=$(cat "$work/$1.rc")
	if [ "$_rc" -eq 124 ] || [ "$_rc" -eq 137 ]; then echo hung
	elif grep -Eq 'Sanitizer|runtime error:' "$work/$1.raw"; then echo sanitizer
	elif [ "$_rc" -gt 128 ] && [ "$_rc" -le 192 ]; then echo crashed
	else echo "rc $_rc"; fi
}

fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || { echo "ERROR: cannot start two-switch"; exit 99; }
trap 'fabric_stop; rm -rf "$work"' EXIT INT TERM HUP

classes=
n=0 fail=0
start=$(date +%s)
while IFS='|' read -r cls expect rule cmd; do
	case $cls in '#'* | '') continue ;; esac
	[ -z "${HOSTILE_FILTER:-}" ] || printf '%s|%s|%s|%s\n' "$cls" "$expect" "$rule" "$cmd" |
		grep -Eq -- "$HOSTILE_FILTER" || continue
	cls=$(echo $cls) expect=$(echo $expect) rule=$(echo $rule)
	# shellcheck disable=SC2086
	set -f; set -- $cmd; set +f
	tool=$1
	shift
	case " $classes " in *" $cls "*) ;; *) classes="$classes $cls" ;; esac
	eval "c_tried_$(echo "$cls" | tr - _)=\$((\${c_tried_$(echo "$cls" | tr - _):-0} + 1))"
	n=$((n + 1))
	what="[$cls] HOSTILE_RULE='$rule' $tool $*"

	t0=$(date +%s)
	run ours "$rule" "$(our_tool "$top_builddir" "$tool")" "$@"
	ours=$(how ours)
	bad=
	case $ours in
	hung) bad="no end within $OUR_TIMEOUT s" ;;
	crashed) bad="killed by a signal (exit $(cat "$work/ours.rc"))" ;;
	sanitizer) bad="a sanitizer report" ;;
	esac
	rc=$(cat "$work/ours.rc")
	if [ -z "$bad" ] && [ ! -s "$work/ours.log" ]; then
		bad="the rule changed no reply (the case tests nothing)"
	fi
	if [ -z "$bad" ] && [ "$rc" -ne 0 ] &&
	   ! grep -q '[a-zA-Z]' "$work/ours.out" "$work/ours.err"; then
		bad="exit $rc without a message"
	fi
	if [ -z "$bad" ] && ! doc_exit "$tool" "$rc"; then
		bad="exit status $rc, not in doc/$tool.8"
	fi

	ref=skipped
	if [ -z "${HOSTILE_NO_REF:-}" ] && [ -x "$FABRIC_REF/$tool" ]; then
		run ref "$rule" "$FABRIC_REF/$tool" "$@"
		ref=$(how ref)
		k=$(echo "$cls" | tr - _)
		case $ref in
		hung | crashed | sanitizer) eval "c_ref_bad_$k=\$((\${c_ref_bad_$k:-0} + 1))"
			echo "reference $ref: $what" ;;
		*)
			if cmp -s "$work/ours.out" "$work/ref.out" && cmp -s "$work/ours.err" "$work/ref.err" &&
			   cmp -s "$work/ours.rc" "$work/ref.rc"; then
				eval "c_same_$k=\$((\${c_same_$k:-0} + 1))"
			else
				eval "c_diff_$k=\$((\${c_diff_$k:-0} + 1))"
				if [ "$expect" = "=" ] && [ -z "$bad" ]; then
					bad="not the reference's result"
				fi
				if [ -n "${HOSTILE_VERBOSE:-}" ] || [ "$expect" = "=" ]; then
					echo "differs from the reference ($ref, ours $ours): $what"
					for p in out err rc; do
						cmp -s "$work/ref.$p" "$work/ours.$p" ||
							diff -u "$work/ref.$p" "$work/ours.$p" | sed -n '3,12p' | sed 's/^/  /'
					done
				fi
			fi
			;;
		esac
	fi
	[ -z "${HOSTILE_VERBOSE:-}" ] || echo "case: $what: ours $ours, reference $ref ($(($(date +%s) - t0)) s)"
	if [ -n "$bad" ]; then
		echo "FAIL: $what: $bad"
		sed -n '1,8p' "$work/ours.out" "$work/ours.raw" | sed 's/^/  /'
		fail=$((fail + 1))
	else
		eval "c_pass_$(echo "$cls" | tr - _)=\$((\${c_pass_$(echo "$cls" | tr - _):-0} + 1))"
	fi
done < "$work/cases"

echo "class     tried passed | reference: crashed/hung same-as-ours other"
for c in $classes; do
	k=$(echo "$c" | tr - _)
	eval "printf '%-9s %5d %6d | %d %d %d\n' $c \${c_tried_$k:-0} \${c_pass_$k:-0} \${c_ref_bad_$k:-0} \${c_same_$k:-0} \${c_diff_$k:-0}"
done
echo "$n cases, $fail failed, $(($(date +%s) - start)) s"
[ "$n" -gt 0 ] || exit 77
[ "$fail" -eq 0 ]
