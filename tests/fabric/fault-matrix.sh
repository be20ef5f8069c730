#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The fault matrix (issue 14): every tool that talks to the fabric (rows) under every fault
# the simulator can make (columns), each cell a test.  Each tool runs under a time-out, ours
# and the reference (/usr/sbin/<tool>) alike, on the same fabric in the same state:
#
#   d10 d30 d50  console `Error "<node>" N` at the switch on the tool's path: random drops.
#                Ours must end, with an exit status its man page documents, and print either
#                the normal (fault-free) output or an error message.
#   d100         every MAD through that switch dropped; deterministic, so ours must give
#                exactly the reference's stdout, stderr (less "ibwarn:" lines) and status.
#   dead         only the target node stops answering (`Error "<target>" 100`); exact too.
#   link         the target's link goes down (`Unlink`) while the tool runs, up again after
#                (`ReLink`, waiting for OpenSM's sweep); ours must end with a documented
#                status, and a message when it fails (the output may differ: the fabric did).
#   nosm         OpenSM killed (fabric_sm_stop): tools that need the SA end with the
#                reference's message; the others work as before.  Exact.
#   simkill      ibsim killed while the tool runs (ours and the reference side by side);
#                ours must end with a documented status and say why; a new fabric after.
#                Not for the script tools (n/a): a tool they start just as ibsim dies waits
#                for ever in umad2sim's start-up handshake, ours and the reference's alike.
#   kill9 / int  the tool itself gets SIGKILL / SIGINT while it runs (slowed down by 50%
#                drops at the DROP switch, so that the signal falls in the run, not after
#                it; the table says when the run still ended first), a third of a normal
#                run after ibsim lists it as attached (a tool killed in its start-up
#                handshake makes ibsim panic): afterwards its ibsim
#                slot freed (fabric_reap), the next run gives the normal output, and in the
#                directory of the file it writes (the rows that write one) nothing else
#                (no temporary file) and that file as before the run (--cache: an old
#                cache is put there first), complete, or (ibnetdiscover FILE, which the
#                reference creates empty when it starts) empty; never partial.
#
# Every run of ours is also checked for a sanitizer report (make check in an ASan build
# runs this against the sanitizer tools).  Where the reference hangs (killed by the time-out)
# or crashes, ours must end with a message: such cells are marked "ref hangs".  The table at
# the end prints "ours/ref" per cell: the exit status, "hang" (time-out), "sig" (killed by the
# test itself: the kill columns), "-" (not run); a "!" marks a failed cell.
#
# IBMGMT_FAULTS=full (make check-faults) adds the fat-tree phase: the discovery tools
# (368 nodes, long enough for a fault to fall in the middle of a run) under the mid-run
# faults.  Without it (make check) only two-switch.net: every row, every column.
#
# Exit 0 pass, 1 fail, 77 skip (no fabric), 99 a fault that could not be set up.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
case $top_srcdir in /*) ;; *) top_srcdir=$(pwd)/$top_srcdir ;; esac
case $top_builddir in /*) ;; *) top_builddir=$(pwd)/$top_builddir ;; esac
# shellcheck source=tests/fabric/fabric.sh
. "$top_srcdir/tests/fabric/fabric.sh"
# shellcheck source=tests/fabric/our-tool.sh
. "$top_srcdir/tests/fabric/our-tool.sh"
our_tool_libs "$top_builddir"
fabric_require ibaddr perfquery saquery ibroute ibtracert iblinkinfo ibqueryerrors

full=0
[ "${IBMGMT_FAULTS:-}" != full ] || full=1
tmo=${IBMGMT_FAULTS_TIMEOUT:-20}	# seconds per run; every tool here answers in well under 1 s
work=$(mktemp -d "${TMPDIR:-/tmp}/fault-matrix.XXXXXX") || { echo "ERROR: mktemp"; exit 99; }
fail=0 cells=0 bad_cells=0 refhang=0 kills=0
t_start=$(date +%s)

hard() {
	echo "ERROR: $*"
	exit 99
}

# Each row: NAME|DROP|TARGET|LINK|TOOL ARGS.  DROP is the switch on the tool's path whose MADs
# are dropped, TARGET the node that stops answering (dead), LINK the port whose link goes down
# (link).  Arguments: @HB@ the LID of the target HCA, @SW@ of the target switch, @HA@ of the
# tool's own HCA, @GB@ the target HCA's port GUID, @FILE@ a file the tool writes (alone in
# a directory of its own, w-ours or w-ref: whatever else appears there, the tool left).
# The tools run from hca-a1 (two-switch) or ft-h001 (fat-tree); OpenSM runs on sw-a
# (LID 1): never aim vendor or CC MADs there.
rows_two='
ibaddr|sw-b|hca-b2|"hca-b2"[1]|ibaddr -t 200 @HB@
ibaddr-G|sw-b|hca-b2|"hca-b2"[1]|ibaddr -t 200 -G @GB@
smpquery|sw-b|hca-b2|"hca-b2"[1]|smpquery -t 200 nodeinfo @HB@
smpquery-pi|sw-b|sw-b|"sw-b"[7]|smpquery -t 200 portinfo @SW@ 7
smpdump|sw-b|hca-b2|"hca-b2"[1]|smpdump -t 200 @HB@ 0x11
sminfo|sw-a|sw-a|"sw-a"[1]|sminfo -t 200
ibportstate|sw-b|hca-b2|"hca-b2"[1]|ibportstate -t 200 @HB@ 1
perfquery|sw-b|hca-b2|"hca-b2"[1]|perfquery -t 200 @HB@ 1
saquery|sw-a|sw-a|"sw-a"[1]|saquery -t 200 NR @HB@
query|sw-b|hca-b2|"hca-b2"[1]|query -t 200 NodeInfo @HB@
ibnetdiscover|sw-b|hca-b2|"hca-b2"[1]|ibnetdiscover
ibnetdiscover-cache|sw-b|hca-b2|"hca-b2"[1]|ibnetdiscover --cache @FILE@
ibnetdiscover-file|sw-b|hca-b2|"hca-b2"[1]|ibnetdiscover @FILE@
ibhosts|sw-b|hca-b2|"hca-b2"[1]|ibhosts
ibswitches|sw-b|sw-b|"sw-b"[7]|ibswitches
iblinkinfo|sw-b|hca-b2|"hca-b2"[1]|iblinkinfo
ibqueryerrors|sw-b|hca-b2|"hca-b2"[1]|ibqueryerrors
ibroute|sw-b|sw-b|"sw-b"[7]|ibroute -t 200 @SW@
dump_fts|sw-b|sw-b|"sw-b"[7]|dump_fts -t 200
ibtracert|sw-b|hca-b2|"hca-b2"[1]|ibtracert -t 200 @HA@ @HB@
ibping|sw-b|hca-b2|"hca-b2"[1]|ibping -t 100 -c 2 @HB@
ibsysstat|sw-b|hca-b2|"hca-b2"[1]|ibsysstat -t 200 @HB@
vendstat|sw-b|hca-b2|"hca-b2"[1]|vendstat -t 200 -N @HB@
ibccquery|sw-b|hca-b2|"hca-b2"[1]|ibccquery -t 200 CongestionInfo @HB@
subnet_diff|sw-b|hca-b2|"hca-b2"[1]|subnet_diff @REFCACHE@
set_port_state|sw-b|sw-b|"sw-b"[7]|set_port_state -t 200 @SW@@7
ibchecknode|sw-b|hca-b2|"hca-b2"[1]|ibchecknode @HB@
ibcheckerrors|sw-b|hca-b2|"hca-b2"[1]|ibcheckerrors
'
# the fat-tree phase (IBMGMT_FAULTS=full): discovery tools under the mid-run faults
rows_ft='
ibnetdiscover|ft-spine02|ft-h200|"ft-h200"[1]|ibnetdiscover
ibnetdiscover-cache|ft-spine02|ft-h200|"ft-h200"[1]|ibnetdiscover --cache @FILE@
iblinkinfo|ft-spine02|ft-h200|"ft-h200"[1]|iblinkinfo
ibqueryerrors|ft-spine02|ft-h200|"ft-h200"[1]|ibqueryerrors
dump_fts|ft-spine02|ft-h200|"ft-h200"[1]|dump_fts -t 200
'
cols_all='d100 dead d10 d30 d50 link nosm simkill kill9 int'
cols_ft='link simkill kill9 int'

# man page of a tool (the ibcheck* copies share their group's page)
manpage() {
	case $1 in
	ibchecknet | ibcheckstate | ibcheckwidth | ibdatacounters | ibclearcounters | ibclearerrors)
		echo "$top_srcdir/doc/ibcheckerrors.8" ;;
	ibcheckerrs | ibdatacounts | ibcheckport | ibcheckportstate | ibcheckportwidth)
		echo "$top_srcdir/doc/ibchecknode.8" ;;
	*) echo "$top_srcdir/doc/$1.8" ;;
	esac
}

# documented TOOL RC: RC is one of the statuses the EXIT STATUS section of TOOL's man page
# names (as a number standing alone in the section's text).
documented() {
	_page=$(manpage "$1")
	[ -r "$_page" ] || return 1
	awk '/^\.SH "?EXIT STATUS/ { p = 1; next } /^\.SH/ { p = 0 } p' "$_page" |
		sed 's/\\-/-/g; s/[^0-9A-Za-z]/ /g' | tr ' ' '\n' | grep -qx "$2"
}

# normalise PATH NAME < raw > clean: tool_normalise (our-tool.sh), ibping's time, the
# written file's name
normalise() {
	tool_normalise "$1" "$2" -e 's/packet loss, time [0-9][0-9]* ms$/packet loss, time N ms/' \
	    -e "s#$work/[a-z0-9.-]*#FILE#g"
}

ms() { echo $(($(date +%s%N) / 1000000)); }

# prog WHO TOOL: the program (ours or the reference)
prog() {
	if [ "$1" = ours ]; then our_tool "$top_builddir" "$2"; else echo "$FABRIC_REF/$2"; fi
}

# has_ref TOOL: the reference has this tool
has_ref() { [ -x "$FABRIC_REF/$1" ]; }

# args ROW-ARGS WHO: the row's arguments with the placeholders put in
subst() {
	printf '%s' "$1" | sed -e "s#@HB@#$lid_hb#g" -e "s#@HA@#$lid_ha#g" -e "s#@SW@#$lid_sw#g" \
		-e "s#@GB@#$guid_hb#g" -e "s#@FILE@#$work/w-$2/out#g" -e "s#@REFCACHE@#$work/base.cache#g"
}

# finish OUT WHO TOOL RC: normalise OUT.raw1/.raw2 into OUT.out/.err, OUT.rc; the written
# file (if any) into OUT.file; the names of anything else in its directory into OUT.other.
finish() {
	_p=$(prog "$2" "$3")
	echo "$4" > "$1.rc"
	if [ "$3" = perfquery ]; then
		# traffic counters grow with every MAD (this test's too): their values are not compared
		normalise "$_p" "$3" < "$1.raw1" | sed 's/^\([A-Za-z]*:\.*\)[0-9][0-9]*$/\1N/' > "$1.out"
	else
		normalise "$_p" "$3" < "$1.raw1" > "$1.out"
	fi
	normalise "$_p" "$3" < "$1.raw2" | grep -v '^ibwarn: ' > "$1.err"
	rm -f "$1.file"
	[ ! -f "$work/w-$2/out" ] || normalise "$_p" "$3" < "$work/w-$2/out" > "$1.file"
	find "$work/w-$2" -mindepth 1 ! -name out -printf '%f\n' > "$1.other"
}

# fresh_dir WHO [PREVIOUS]: an empty directory for the file the tool writes (with PREVIOUS,
# a file, copied there as the file's old contents)
fresh_dir() {
	rm -rf "$work/w-$1"
	mkdir "$work/w-$1" || hard "mkdir $work/w-$1"
	[ -z "${2:-}" ] || cp "$2" "$work/w-$1/out" || hard "cannot put the old file in place"
}

# run OUT WHO ROW-TOOL ROW-ARGS: one foreground run under the time-out
run() {
	_out=$1 _who=$2 _tool=$3
	fresh_dir "$2"
	# shellcheck disable=SC2046
	eval "set -- $(subst "$4" "$2")"
	fabric_run "$host" timeout -k 2 "$tmo" "$(prog "$_who" "$_tool")" "$@" \
		> "$_out.raw1" 2> "$_out.raw2" < /dev/null
	finish "$_out" "$_who" "$_tool" $?
}

# start_bg OUT WHO TOOL ARGS [PREVIOUS]: the same in the background (no timeout wrapper, so
# that a signal reaches the tool itself), PREVIOUS as in fresh_dir; the pid in $bg_pid.
# wait_bg OUT WHO TOOL PID: wait for it, bounded by the time-out (then SIGKILL and status
# 124, as timeout(1) says).
start_bg() {
	_out=$1 _who=$2 _tool=$3
	fresh_dir "$2" "${5:-}"
	# shellcheck disable=SC2046
	eval "set -- $(subst "$4" "$2")"
	fabric_run_bg "$host" "$(prog "$_who" "$_tool")" "$@" > "$_out.raw1" 2> "$_out.raw2" < /dev/null
	bg_pid=$FABRIC_BG_PID
}
wait_bg() {
	_end=$(($(date +%s) + tmo))
	while _fabric_alive "$4" && [ "$(date +%s)" -lt "$_end" ]; do
		_fabric_nap 0.02
	done
	if _fabric_alive "$4"; then
		kill -KILL "$4" 2>/dev/null
		wait "$4" 2>/dev/null
		finish "$1" "$2" "$3" 124
	else
		wait "$4"
		finish "$1" "$2" "$3" $?
	fi
}

sanitizer_report() {
	grep -qE 'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:' "$1.raw2"
}

# outcome OUT: the table's word for a run
outcome() {
	_rc=$(cat "$1.rc")
	case $_rc in
	124 | 137) echo hang ;;
	*) echo "$_rc" ;;
	esac
}

# same A B: stdout, stderr, status (and written file) equal
same() {
	cmp -s "$1.out" "$2.out" && cmp -s "$1.err" "$2.err" && cmp -s "$1.rc" "$2.rc" || return 1
	[ -f "$1.file" ] || [ ! -f "$2.file" ] || return 1
	[ ! -f "$1.file" ] || cmp -s "$1.file" "$2.file"
}

# messaged OUT: an error message was printed (stderr, or the tools' "iberror" line on stdout,
# or ibroute's in-line "(unknown node and type)" for a destination it could not query)
messaged() {
	[ -s "$1.err" ] || grep -qE 'iberror|failed|timed out|Connection|ERROR|error|unknown node and type' "$1.out"
}

# judge CELLNAME COLUMN TOOL OURS REF KIND: KIND exact|loose|killed.  Prints the failures,
# records the cell.
judge() {
	_c=$1 _col=$2 _t=$3 _o=$4 _r=$5 _k=$6
	_why=
	_orc=$(cat "$_o.rc")
	case $_orc in 124 | 137) _why="$_why; ours did not end within $tmo s" ;; esac
	if [ "$_k" != killed ] && ! documented "$_t" "$_orc"; then
		_why="$_why; exit status $_orc is not in $(manpage "$_t" | sed 's#.*/##')'s EXIT STATUS"
	fi
	if sanitizer_report "$_o"; then
		_why="$_why; sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error' "$_o.raw2")"
	fi
	if [ -s "$_o.other" ]; then
		_why="$_why; left beside its file: $(tr '\n' ' ' < "$_o.other")"
	fi
	_rw=-
	[ ! -f "$_r.rc" ] || _rw=$(outcome "$_r")
	case $_rw in hang | 139 | 134) refhang=$((refhang + 1)) ;; esac
	case $_k in
	exact)
		if [ "$_rw" = hang ] || [ "$_rw" = 139 ] || [ "$_rw" = 134 ]; then
			messaged "$_o" || _why="$_why; the reference hangs or crashes and ours ends without a message"
		elif [ "$_rw" != - ] && ! same "$_r" "$_o"; then
			_why="$_why; differs from the reference"
		elif [ "$_rw" = - ] && ! { same "$base_ours" "$_o" || messaged "$_o"; }; then
			_why="$_why; neither the normal output nor an error message"
		fi
		;;
	loose)
		# the normal output, an error message, or what the reference printed under this very
		# fault, or ours under 100% drops (checked equal to the reference's): smpdump prints
		# what came back, zeros for a lost reply, as the reference does
		if ! { same "$base_ours" "$_o" || messaged "$_o" || { [ -f "$_r.rc" ] && same "$_r" "$_o"; } ||
			{ [ -f "$d100_ours.rc" ] && same "$d100_ours" "$_o"; }; }; then
			_why="$_why; neither the normal output nor an error message"
		fi
		if [ "$_orc" != 0 ] && [ "$_orc" != "$(cat "$base_ours.rc")" ] && ! messaged "$_o"; then
			_why="$_why; failed (status $_orc) without a message"
		fi
		;;
	esac
	cells=$((cells + 1))
	_mark=
	if [ -n "$_why" ]; then
		_mark='!'
		bad_cells=$((bad_cells + 1))
		fail=1
		echo "FAIL: $_c ${_why#; }"
		for _f in out err rc; do
			[ -s "$_o.$_f" ] && sed -n '1,8s/^/    ours.'"$_f"': /p' "$_o.$_f"
			[ -s "$_r.$_f" ] && sed -n '1,8s/^/    ref.'"$_f"':  /p' "$_r.$_f"
		done
	fi
	printf '%s\t%s\t%s\n' "$_c" "$_col" "$(outcome "$_o")/$_rw$_mark" >> "$work/table"
}

# script_tool TOOL: one of the tools that run other tools
script_tool() {
	case $1 in ibhosts | ibswitches | ibnodes | ibrouters | ibcheck* | dump_lfts | dump_mfts) return 0 ;; esac
	return 1
}

# past_startup PID: waits (5 s at most) until the client PID is past umad2sim's start-up
# (it writes sys-<pid>/ once ibsim has answered it), or has ended
past_startup() {
	_ps_n=250
	while [ "$_ps_n" -gt 0 ] && _fabric_alive "$1" && [ ! -d "$FABRIC_DIR/sys-$1" ]; do
		_fabric_nap 0.02
		_ps_n=$((_ps_n - 1))
	done
}

# reset_counters NODE: the counters of NODE's ports back to 0 (ibsim counts each MAD that an
# Error drops as a PortRcvErrors there; ibqueryerrors would report them)
reset_counters() {
	_rl=$(lid_of "$1")
	[ -n "$_rl" ] || hard "LID of $1 not found"
	fabric_run "$host" timeout 30 "$FABRIC_REF/perfquery" -a -R "$_rl" > /dev/null 2>&1 ||
		hard "cannot reset the counters of $1 (LID $_rl)"
}

# killed_word OUT SIG: "sig" when the run ended by SIG, else its outcome
killed_word() {
	case $(cat "$1.rc"):$2 in
	137:KILL | 130:INT) echo sig ;;
	*) outcome "$1" ;;
	esac
}

console() {
	if ! fabric_console "$1" > /dev/null; then
		# what ibsim said last, when it is gone
		for _f in ibsim.err ibsim.out; do
			[ ! -s "$FABRIC_DIR/$_f" ] || tail -n 5 "$FABRIC_DIR/$_f" | sed "s/^/    $_f: /"
		done
		hard "cannot set up the fault: console '$1' (phase $phase)"
	fi
}

# lid_of NAME: the LID of a node (its port 1, port 0 of a switch), from the reference's
# ibnetdiscover output of the current fabric (the "lid N" after the quoted name)
lid_of() {
	sed -n "s/.*\"$1\" lid \([0-9][0-9]*\).*/\1/p" "$work/topo" | head -n 1
}

# fabric_up NETFILE HOST TARGET-HCA TARGET-SWITCH: a new fabric, the placeholders' values
fabric_up() {
	fabric_start "$1" || hard "cannot start the fabric of $1"
	host=$2
	fabric_run "$host" timeout 30 "$FABRIC_REF/ibnetdiscover" > "$work/topo" 2>/dev/null ||
		hard "reference ibnetdiscover failed on $1"
	lid_hb=$(lid_of "$3") lid_sw=$(lid_of "$4") lid_ha=$(lid_of "$host")
	[ -n "$lid_hb" ] && [ -n "$lid_sw" ] && [ -n "$lid_ha" ] ||
		hard "LIDs of $host/$3/$4 not found in the discovery of $1"
	guid_hb=$(fabric_run "$host" timeout 10 "$FABRIC_REF/smpquery" nodeinfo "$lid_hb" |
		sed -n 's/^PortGuid:\.*//p')
	[ -n "$guid_hb" ] || hard "PortGuid of $3 not found"
	rm -f "$work/base.cache"
	fabric_run "$host" timeout 30 "$FABRIC_REF/ibnetdiscover" --cache "$work/base.cache" \
		> /dev/null 2>&1 || hard "cannot write the base cache of $1"
}

# cell PHASE COL NAME DROP TARGET LINK TOOL ARGS: one cell (ours and the reference)
cell() {
	_ph=$1 _col=$2 _name=$3 _drop=$4 _tgt=$5 _link=$6 _tool=$7 _args=$8
	_cn="$_ph:$_name:$_col"
	_co=$work/$_ph-$_name-$_col-ours _cr=$work/$_ph-$_name-$_col-ref
	rm -f "$_co".* "$_cr".*
	base_ours=$work/$_ph-$_name-base-ours
	d100_ours=$work/$_ph-$_name-d100-ours
	_sides=ours
	has_ref "$_tool" && _sides="ours ref"
	case $_col in
	d10 | d30 | d50 | d100 | dead)
		case $_col in
		dead) _n="$_tgt" _pct=100 ;;
		*) _n="$_drop" _pct=${_col#d} ;;
		esac
		console "Error \"$_n\" $_pct"
		for _who in $_sides; do
			_out=$work/$_ph-$_name-$_col-$_who
			run "$_out" "$_who" "$_tool" "$_args"
		done
		console "Error \"$_n\" 0"
		case $_col in d100 | dead) judge "$_cn" "$_col" "$_tool" "$_co" "$_cr" exact ;;
		*) judge "$_cn" "$_col" "$_tool" "$_co" "$_cr" loose ;; esac
		;;
	link)
		for _who in $_sides; do
			_out=$work/$_ph-$_name-$_col-$_who
			_d=$(cat "$work/$_ph-$_name-base-$_who.ms")
			_sw=$(fabric_sweeps)
			start_bg "$_out" "$_who" "$_tool" "$_args"
			_fabric_nap "$(awk -v d="$_d" 'BEGIN { printf "%.3f", d / 2000 }')"
			console "Unlink $_link"
			wait_bg "$_out" "$_who" "$_tool" "$bg_pid"
			fabric_wait_sweep "$_sw" 20 || hard "no OpenSM sweep after Unlink $_link"
			_sw=$(fabric_sweeps)
			console "ReLink $_link"
			fabric_wait_sweep "$_sw" 20 || hard "no OpenSM sweep after ReLink $_link"
		done
		# the fabric really changed (OpenSM re-routes without the link): a different output
		# is right; ours must end with a documented status, and say why when it fails
		judge "$_cn" "$_col" "$_tool" "$_co" "$_cr" ends
		if [ "$(cat "$_co.rc")" != 0 ] && [ "$(cat "$_co.rc")" != "$(cat "$base_ours.rc")" ] &&
			! messaged "$_co"; then
			echo "FAIL: $_cn: ours ended with status $(cat "$_co.rc") without a message"
			fail=1
			sed -i "\$s/\$/!/" "$work/table"
		fi
		;;
	nosm)
		for _who in $_sides; do
			_out=$work/$_ph-$_name-$_col-$_who
			run "$_out" "$_who" "$_tool" "$_args"
		done
		judge "$_cn" "$_col" "$_tool" "$_co" "$_cr" exact
		;;
	simkill)
		# both side by side on the same simulator, killed half-way through ours.  On
		# two-switch.net most tools are done in a few ms, so the kill often comes after the
		# end.  The tools that ask the SM (SA, SMInfo: ibsim forwards those to OpenSM) get a
		# real mid-request kill: OpenSM is stopped (SIGSTOP), the tools wait for its answer,
		# and ibsim dies under them 0.3 s later.  (Stopping ibsim itself instead would hang
		# every tool in umad2sim's start-up, which waits for ibsim without a time-out:
		# nothing a tool can change.)
		_d=$(cat "$work/$_ph-$_name-base-ours.ms")
		_pids='' _sa=''
		case $_name in sminfo | saquery | ibaddr-G) _sa=1 ;; esac
		# the script tools run other tools: one of those may start while ibsim dies
		if script_tool "$_tool"; then
			printf '%s\t%s\t%s\n' "$_cn" "$_col" "n/a" >> "$work/table"
			return 0
		fi
		if [ -n "$_sa" ]; then
			_fabric_ours "$FABRIC_SM_PID" sm && kill -STOP "$FABRIC_SM_PID" || hard "cannot stop OpenSM"
		fi
		for _who in $_sides; do
			_out=$work/$_ph-$_name-$_col-$_who
			start_bg "$_out" "$_who" "$_tool" "$(printf '%s' "$_args" | sed 's/-t 200/-t 2000/')"
			_pids="$_pids $bg_pid"
		done
		if [ -n "$_sa" ]; then
			_fabric_nap 0.3
		else
			# past umad2sim's start-up, or done: a tool in that handshake waits for ibsim
			# for ever (not ours to fix)
			for _p in $_pids; do
				past_startup "$_p"
			done
			_fabric_nap "$(awk -v d="$_d" 'BEGIN { printf "%.3f", d / 2000 }')"
		fi
		fabric_sim_kill || hard "cannot kill ibsim"
		if [ -n "$_sa" ] && _fabric_ours "$FABRIC_SM_PID" sm; then
			kill -KILL "$FABRIC_SM_PID" # stopped: it would ignore fabric_stop's SIGTERM
		fi
		# shellcheck disable=SC2086
		set -- $_pids
		for _who in $_sides; do
			wait_bg "$work/$_ph-$_name-$_col-$_who" "$_who" "$_tool" "$1"
			shift
		done
		fabric_stop
		fabric_up "$net" "$host" "$thb" "$tsw"
		judge "$_cn" "$_col" "$_tool" "$_co" "$_cr" sim
		# after the simulator died, ours must say so, not end silently
		if [ "$(cat "$_co.rc")" != 0 ] && ! messaged "$_co"; then
			echo "FAIL: $_cn: ours ended with status $(cat "$_co.rc") without a message"
			fail=1
			sed -i "\$s/\$/!/" "$work/table"
		fi
		;;
	kill9 | int)
		case $_col in kill9) _sig=KILL ;; *) _sig=INT ;; esac
		# --cache: an old cache in place, to see that a killed run leaves it (or the new one)
		_prev=
		case $_args in *--cache*)
			_prev=$work/previous.cache
			printf 'the previous cache\n' > "$_prev" || hard "cannot write $_prev" ;;
		esac
		for _who in $_sides; do
			_out=$work/$_ph-$_name-$_col-$_who
			_d=$(cat "$work/$_ph-$_name-base-$_who.ms")
			# half the MADs at the row's switch dropped meanwhile: the run takes long
			# enough (retries) for the signal to come in its middle, where on
			# two-switch.net a run is over in a few milliseconds; the signal comes after
			# a third of a normal run
			console "Error \"$_drop\" 50"
			start_bg "$_out" "$_who" "$_tool" "$_args" "$_prev"
			# killed in its start-up handshake, the tool would take ibsim with it:
			# the time to the signal counts from when ibsim lists it
			fabric_wait_attached "$bg_pid" "$tmo"
			[ $? != 2 ] || hard "$_cn: $_who not attached to ibsim within $tmo s"
			_fabric_nap "$(awk -v d="$_d" 'BEGIN { printf "%.3f", d / 3000 }')"
			kill -"$_sig" "$bg_pid" 2>/dev/null
			wait_bg "$_out" "$_who" "$_tool" "$bg_pid"
			console "Error \"$_drop\" 0"
			reset_counters "$_drop"
			# what the killed run left: its file none, previous (as before the run), empty,
			# complete (the normal one; else, the drops having changed what it found, a
			# cache that loads, a text file that ends with a whole line), ended (what a run
			# that ended before the signal wrote) or partial; "+other" when anything else
			# is in the directory
			_f=$work/w-$_who/out
			if [ ! -f "$_f" ]; then
				_st=
			elif [ -n "$_prev" ] && cmp -s "$_f" "$_prev"; then
				_st=previous
			elif [ ! -s "$_f" ]; then
				_st=empty
			elif cmp -s "$_out.file" "$work/$_ph-$_name-base-$_who.file"; then
				_st=complete
			elif [ "$(killed_word "$_out" "$_sig")" != sig ]; then
				_st=ended
			elif [ -n "$_prev" ]; then
				_st=partial
				fabric_run "$host" timeout 30 "$FABRIC_REF/ibnetdiscover" --load-cache "$_f" \
					> /dev/null 2>&1 && _st=complete
			elif [ "$(tail -c 1 "$_f" | od -An -tx1 | tr -d ' ')" = 0a ]; then
				_st=complete
			else
				_st=partial
			fi
			[ ! -s "$_out.other" ] || _st="$_st+other"
			echo "$_st" > "$_out.left"
			fabric_reap > /dev/null || hard "cannot free the killed client's ibsim slot"
			# the next run works and gives the normal output
			run "$_out.next" "$_who" "$_tool" "$_args"
		done
		_why=
		same "$base_ours" "$_co.next" || _why="$_why; the next run after the kill differs from the normal one"
		[ ! -s "$_co.other" ] ||
			_why="$_why; left beside its file: $(tr '\n' ' ' < "$_co.other")"
		case $(cat "$_co.left") in
		partial*) _why="$_why; a partial output file was left" ;;
		"" | "+other")
			[ -z "$_prev" ] || _why="$_why; the old file is gone" ;;
		empty*)
			# the reference creates its output file when it starts, and so do we: a run
			# killed (or failed) before its output leaves it empty; a run that worked, not
			[ "$(cat "$_co.rc")" != 0 ] ||
				_why="$_why; an empty output file was left by a run that ended with status 0" ;;
		esac
		if sanitizer_report "$_co.next"; then _why="$_why; sanitizer report in the next run"; fi
		cells=$((cells + 1))
		# killed by the signal (sig), or ended before it came (its status: the fault missed
		# the run), or still running after the time-out (hang: it ignored SIGINT)
		_w=$(killed_word "$_co" "$_sig") _rw=-
		[ ! -f "$_cr.rc" ] || _rw=$(killed_word "$_cr" "$_sig")
		[ "$_rw" != hang ] || refhang=$((refhang + 1))
		[ "$_w" != hang ] || _why="$_why; ours did not end within $tmo s of SIG$_sig"
		[ "$_w" != sig ] || kills=$((kills + 1))
		_lo=$(cat "$_co.left") _lr=$(cat "$_cr.left" 2>/dev/null)
		[ -z "$_lo$_lr" ] || _w="$_w(${_lo:-none},${_lr:-none})"
		if [ -n "$_why" ]; then
			fail=1 bad_cells=$((bad_cells + 1))
			echo "FAIL: $_cn${_why}"
			for _f in out err rc; do
				cmp -s "$base_ours.$_f" "$_co.next.$_f" ||
					diff "$base_ours.$_f" "$_co.next.$_f" | sed -n '2,9s/^/    next vs normal: /p'
			done
			printf '%s\t%s\t%s\n' "$_cn" "$_col" "$_w/$_rw!" >> "$work/table"
		else
			printf '%s\t%s\t%s\n' "$_cn" "$_col" "$_w/$_rw" >> "$work/table"
		fi
		;;
	esac
}

# phase NAME NETFILE HOST TARGET-HCA TARGET-SWITCH ROWS COLUMNS
phase_run() {
	phase=$1 net=$2 thb=$4 tsw=$5 _rows=$6 _cols=$7
	# IBMGMT_FAULTS_ROWS / IBMGMT_FAULTS_COLS: only these rows (grep -E on the names) and
	# columns (a list), to look at a few cells
	if [ -n "${IBMGMT_FAULTS_ROWS:-}" ]; then
		_rows=$(printf '%s\n' "$_rows" | grep -E "^(${IBMGMT_FAULTS_ROWS})\|")
	fi
	_tp=$(date +%s)
	fabric_up "$net" "$3" "$4" "$5"
	# the normal output of every row, ours and the reference, with its duration
	printf '%s\n' "$_rows" | while IFS='|' read -r _n _d _t _l _cmd; do
		[ -n "$_n" ] || continue
		_tool=${_cmd%% *} _args=${_cmd#"$_tool"}
		for _who in ours ref; do
			[ "$_who" = ours ] || has_ref "$_tool" || continue
			_out=$work/$phase-$_n-base-$_who
			_t0=$(ms)
			run "$_out" "$_who" "$_tool" "$_args"
			echo $(($(ms) - _t0)) > "$_out.ms"
		done
		# the normal outputs are ours and the reference's own business (diff-tools.sh); here
		# they must only be there: a status that is documented, ours as the reference's
		_o=$work/$phase-$_n-base-ours _r=$work/$phase-$_n-base-ref
		if ! documented "$_tool" "$(cat "$_o.rc")" || sanitizer_report "$_o" ||
			{ [ -f "$_r.rc" ] && ! cmp -s "$_o.rc" "$_r.rc"; }; then
			echo "ERROR: $phase: $_cmd without a fault: ours ends with status $(cat "$_o.rc")," \
				"the reference with $(cat "$_r.rc" 2>/dev/null || echo -):"
			sed 's/^/    /' "$_o.raw2" | head -5
			exit 99
		fi
	done || exit 99
	for _col in $_cols; do
		case " ${IBMGMT_FAULTS_COLS:-$_col} " in *" $_col "*) ;; *) continue ;; esac
		_tc=$(date +%s)
		[ "$_col" != nosm ] || fabric_sm_stop || hard "cannot stop OpenSM"
		_rl=$work/rows-$phase
		printf '%s\n' "$_rows" > "$_rl"
		while IFS='|' read -r _n _d _t _l _cmd; do
			[ -n "$_n" ] || continue
			_tool=${_cmd%% *}
			cell "$phase" "$_col" "$_n" "$_d" "$_t" "$_l" "$_tool" "${_cmd#"$_tool"}" < /dev/null
		done < "$_rl"
		[ "$_col" != nosm ] || fabric_sm_start || hard "cannot restart OpenSM"
		echo "phase $phase, $_col: $(($(date +%s) - _tc)) s"
	done
	fabric_stop
	echo "phase $phase: $(($(date +%s) - _tp)) s"
}

# make check: a representative subset of the rows (one tool of each kind: SMP query, SA,
# PerfMgt, discovery with a written file, discovery-based report, routing, vendor class,
# a tool of our own), every column
if [ "$full" = 0 ] && [ -z "${IBMGMT_FAULTS_ROWS:-}" ]; then
	IBMGMT_FAULTS_ROWS='ibaddr-G|smpquery|sminfo|perfquery|saquery|ibnetdiscover-cache|iblinkinfo|ibroute|ibtracert|ibsysstat|query'
fi
phase_run two "$top_srcdir/tests/fabric/topo/two-switch.net" hca-a1 hca-b2 sw-b "$rows_two" "$cols_all"
if [ "$full" = 1 ]; then
	phase_run ft "$top_srcdir/tests/fabric/topo/fat-tree.net" ft-h001 ft-h200 ft-leaf20 "$rows_ft" "$cols_ft"
fi

# the table: one line per row, one column per fault
echo
echo "fault matrix (ours/ref: exit status, hang = killed by the $tmo s time-out, sig = killed by the test's" \
	"SIGKILL/SIGINT (kill9, int; a status there: the run ended before the signal came, or" \
	"ibping's own end on SIGINT); ! = failed cell)"
awk -F'\t' -v cols="$cols_all" '
	BEGIN { n = split(cols, c, " "); printf "%-28s", "tool"; for (i = 1; i <= n; i++) printf " %-11s", c[i]; printf "\n" }
	{ split($1, p, ":"); r = p[1] ":" p[2]; if (!(r in seen)) { seen[r] = 1; order[++m] = r } v[r, $2] = $3 }
	END { for (j = 1; j <= m; j++) { printf "%-28s", order[j]; for (i = 1; i <= n; i++) { x = v[order[j], c[i]]; printf " %-11s", x == "" ? "-" : x } printf "\n" } }
' "$work/table"
echo
echo "$cells cells, $bad_cells failed, $refhang where the reference hangs or crashes;" \
	"$kills kill9/int cells where the signal ended ours mid-run; $(($(date +%s) - t_start)) s"
rm -rf "$work"
exit "$fail"
