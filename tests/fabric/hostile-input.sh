#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Hostile input (issue 14): every tool of IBMGMT_TOOLS run with hostile command lines and
# hostile files on the simulated fabric (two-switch.net, from hca-a1), each run under a
# time-out.  A case passes when our tool
#   - ends before the time-out, by exit() (no signal, no sanitizer report on stderr),
#   - says something (stdout or stderr: infiniband-diags prints "iberror" lines on stdout)
#     when it exits non-zero, with an exit status its man page's EXIT STATUS lists,
#   - leaves no file behind where an output file could not be written completely,
#   - and, where the reference (/usr/sbin/<tool>) ends normally on the same input, ends with
#     its exit status and its text (stdout and stderr, libibmad's "ibwarn:" lines left out):
#     a difference is printed as a DIFF line, counted in the table's "differs" column, and
#     fails the case unless known_diff() below lists it with the reason (or with
#     IBMGMT_HOSTILE_STRICT=0).  Not compared: output files where the reference claims
#     success or leaves a partial file (ours must fail there), and directed routes of more
#     than 63 hops (the reference writes past its 64-byte path array).
# Classes (the table the script prints at the end):
#   number    huge (2^64, 10^20-1, 2^32, 65536), negative (-1, -65536) and 0 where a tool
#             takes a number (LIDs, ports, counts, -t, -o, -m, -n, -P ...)
#   long      a 10 KB string as every string argument (targets, names, GUIDs, -C, files)
#   bytes     invalid UTF-8 and control characters as string arguments
#   drpath    directed routes of 63, 64 (the limit), 65 and 300 hops, and malformed ones
#   option    unknown options, long and short
#   missing   an option that takes a value given last, without it
#   infile    a binary file, a directory, an empty file, /dev/null, a FIFO (a writer feeds
#             it binary bytes, so nothing can block for ever), a nonexistent path, as every
#             file a tool reads (--config, node-name maps, threshold files, caches, ...)
#   outfile   a device node of our own like /dev/full (never /dev/full itself: the
#             reference's ibnetdiscover --cache unlinks the file it is given), a path
#             under a nonexistent directory, a directory, and a regular
#             file whose write fails half way (RLIMIT_FSIZE, SIGXFSZ ignored), as every
#             file a tool writes
# Only LIDs that no node has, or LIDs of HCAs other than the SM's, are aimed at by vendor
# and CC tools (a vendor MAD to the OpenSM node kills OpenSM): the hostile numbers wrap to
# 0 or 0xffff, never to 1.  Tools that change the fabric get only inputs they refuse.
#
#   sh tests/fabric/hostile-input.sh                (top_srcdir, top_builddir as in make check)
#   IBMGMT_HOSTILE_TOOLS="smpquery ibroute"         only these tools
#   IBMGMT_HOSTILE_FULL=1                           every case, every hostile value in
#                                                   every slot (the default samples: one
#                                                   case in IBMGMT_HOSTILE_SAMPLE (5), and
#                                                   two values a slot: see pick())
#   IBMGMT_HOSTILE_VERBOSE=1                        every case as it runs
#   IBMGMT_HOSTILE_NOREF=1                          no reference runs
#   IBMGMT_HOSTILE_STRICT=0                         a difference from the reference that
#                                                   known_diff() does not list is only
#                                                   printed (default: it fails)
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require
. "$top_srcdir/tests/fabric/our-tool.sh"
our_tool_libs "$top_builddir"

if [ -z "${IBMGMT_TOOLS:-}" ]; then
	IBMGMT_TOOLS=$(our_tool_list "$top_builddir")
	[ -n "$IBMGMT_TOOLS" ] || { echo "ERROR: cannot read IBMGMT_TOOLS from $top_builddir/Makefile"; exit 99; }
fi
tools=${IBMGMT_HOSTILE_TOOLS:-$IBMGMT_TOOLS}
T=${IBMGMT_HOSTILE_TIMEOUT:-30}      # seconds for one run of ours
RT=${IBMGMT_HOSTILE_REF_TIMEOUT:-15} # and of the reference (whose hangs are only counted)

work=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-hostile.XXXXXX") || exit 99
feeder=
# shellcheck disable=SC2317 # (run by the EXIT trap)
cleanup() {
	stop_feeder
	fabric_stop
	chmod -R u+w "$work" 2>/dev/null
	rm -rf "$work"
}
# (set again after fabric_start, which sets traps of its own)
set_traps() {
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
}
set_traps
stop_feeder() {
	if [ -n "$feeder" ]; then
		kill "$feeder" 2>/dev/null
		wait "$feeder" 2>/dev/null
		feeder=
	fi
}

# ---- the hostile values ----------------------------------------------------------------
NUMS="18446744073709551616 99999999999999999999 4294967296 65536 -1 -65536 0"
LONG=$(awk 'BEGIN { s = "0123456789abcdef"; while (length(s) < 10240) s = s s; print substr(s, 1, 10240) }')
# invalid UTF-8 (a lone continuation byte, an overlong '/', a truncated sequence, 0xff),
# then control characters (ESC [ 2 J, BEL, CR, TAB, DEL, VT, FF; no newline: the
# reference's libibmad warnings that quote an argument would go on over two lines)
BYTES1=$(printf 'x\200y\300\257z\342\202\377')
BYTES2=$(printf 'a\033[2J\007\rb\tc\177d\013\014e')
dr_path() { # N: "0,1,1,...,1" with N hops
	awk -v n="$1" 'BEGIN { s = "0"; for (i = 0; i < n; i++) s = s ",1"; print s }'
}
DRS="$(dr_path 63) $(dr_path 64) $(dr_path 65) $(dr_path 300) 0,1,,2 0,256 0,-1 1,1 0,1x ,"

# files to read
# (the same bytes in every run, so that a difference from the reference is reproducible:
# every byte value, 16 times)
printf '\000\001\377\376binary\000\n\377\277\n' > "$work/binary"
_b=$(awk 'BEGIN { for (i = 0; i < 256; i++) printf "\\%03o", i }')
# shellcheck disable=SC2059 # (the escapes are the format)
for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do printf "$_b"; done >> "$work/binary"
[ "$(wc -c < "$work/binary")" -eq 4111 ] || { echo "ERROR: cannot write the binary file"; exit 99; }
mkdir "$work/adir"
: > "$work/empty"
mkfifo "$work/fifo" || { echo "ERROR: mkfifo failed"; exit 99; }
INFILES="$work/binary $work/adir $work/empty /dev/null FIFO $work/no/such/file"
# files to write: a full device (FULL: a private copy of /dev/full, made anew for each run,
# since the reference's cache writer unlinks the file it is given and creates a regular
# one: given /dev/full itself, it replaces the system's device node), under a missing
# directory, a directory, a regular file whose writes fail after 1 KB (FSIZE)
if mknod "$work/full" c 1 7 2>/dev/null; then
	FULL=FULL
else
	FULL=   # not root: no device node of our own, and /dev/full is not risked
fi
OUTFILES="$FULL $work/no/such/dir/out $work/adir FSIZE"

# known_diff TOOL ARGS...: the differences from the reference that stay, each with its reason
# (printed); false for any other.
known_diff() {
	case "$*" in
	"saquery --slid "*" PR")
		# a PathRecord table of more than one MAD: the simulator hands over only the first
		# MAD, and the last record is read past it, from memory the reference's realloc()
		# left as it was (different garbage each run); ours reads zeros
		echo "the reference prints uninitialised memory" ;;
	"saquery --smkey "*" NR "*)
		# OpenSM ignores a query with a wrong SM_Key: the reference's warning for the
		# unanswered query ("ibwarn: ... umad_recv failed ...") ends with a newline of its
		# own, an empty line on stderr; ours writes no libibmad warning, and cannot tell
		# this time-out from a MAD the simulator hands back (no warning in the reference)
		echo "an empty line after the reference's libibmad warning" ;;
	"iblinkinfo -D 0,1,,2"|"iblinkinfo -D 0,256"|"ibqueryerrors -D 0,1,,2"|"ibqueryerrors -D 0,256")
		# a directed route with a hop through port 0 (an empty element or 256 reads as 0),
		# which IBA does not define: ibsim answers from the switch the route is at, and
		# libibnetdisc files that node again ("Duplicate Port" errors) and shows port 0
		# as a link's far end; libibtopo keeps the first copy of the node
		echo "a route through port 0: libibnetdisc's bookkeeping of a node met twice" ;;
	*) return 1 ;;
	esac
}

# ---- counters ----------------------------------------------------------------------------
CLASSES="number long bytes drpath option missing infile outfile"
for c in $CLASSES; do
	eval "n_$c=0 p_$c=0 same_$c=0 refbad_$c=0 refdiff_$c=0 refub_$c=0 differs_$c=0"
done
failed=0 ncase=0
# make check runs one case in SAMPLE (each tool keeps several, every class is tried)
SAMPLE=${IBMGMT_HOSTILE_SAMPLE:-5}

# The reference's Perl scripts keep a cache in /var/cache/infiniband-diags: each side gets
# a private one (as tests/fabric/script-tools.sh does).
pm=$(perl -MIBswcountlimits -e 'print $INC{"IBswcountlimits.pm"}' 2>/dev/null) || pm=
if [ -n "$pm" ]; then
	mkdir -p "$work/perl"
	sed 's#^\$IBswcountlimits::cache_dir *= .*#$IBswcountlimits::cache_dir = $ENV{IBMGMT_DIAGS_CACHE_DIR};#' "$pm" > "$work/perl/IBswcountlimits.pm"
fi
mkdir -p "$work/ref-cache" "$work/ours-cache" "$work/run"
work_entries='binary|adir|empty|fifo|full|perl|ibstatus|ref-cache|ours-cache|run|good\.cache|exit-status|(ours|ref)\.(raw1|raw2|out|err|rc|all)'
# ibstatus reads sysfs only: both read the fake tree tests/data/sysfs/multi
SYSFS=$top_srcdir/tests/data/sysfs/multi
if [ -x "$FABRIC_REF/ibstatus" ]; then
	sed "s#/sys/class/infiniband#$SYSFS/class/infiniband#g" "$FABRIC_REF/ibstatus" > "$work/ibstatus" &&
		chmod +x "$work/ibstatus" || exit 99
fi


# the exit statuses a man page's EXIT STATUS section names (any number in it)
documented() { # TOOL: prints the numbers
	_m=$top_srcdir/doc/$1.8
	[ -f "$_m" ] || { echo "0 1 2 255"; return; }
	sed -n '/^\.SH "\{0,1\}EXIT STATUS/,/^\.SH/p' "$_m" | sed 's/\\f[BIRP]//g; s/\\-/-/g' > "$work/exit-status"
	grep -oE '(^|[^0-9.x])[0-9]{1,3}([^0-9.]|$)' "$work/exit-status" | grep -oE '[0-9]+' | sort -un | tr '\n' ' '
	# "the system error number" (Perl's die): any errno value
	! tr '\n' ' ' < "$work/exit-status" | grep -q 'system error *number' || seq 1 133 | tr '\n' ' '
}

# (run-varying text: dates, OpenSM's activity count, ibping's time, the traffic counters
# that each run's own MADs move)
normalise() { # PROG < raw > clean
	sed -e "s#$1#$(basename "$1")#g" -e "s#$(dirname "$1")/\.libs/##g" -e "s#$(dirname "$1")/##g" \
	    -e "s#$work#WORK#g" -e 's#WORK/\(ref\|ours\)-cache/#WORK/CACHE/#g' \
	    -e "s#$SYSFS#SYSFS#g" -e 's/\[pid [0-9][0-9]*\]/[pid N]/g' \
	    -e 's/^ibpanic: \[[0-9][0-9]*\]/ibpanic: [N]/' \
	    -e 's/^\(# Topology file: generated on\) .*/\1 DATE/' \
	    -e 's/activity count [0-9][0-9]*/activity count N/' \
	    -e 's/packet loss, time [0-9]* ms$/packet loss, time N ms/' \
	    -e 's/^\(Port\(Xmit\|Rcv\)\(Data\|Pkts\):\.*\)[0-9]*$/\1N/' | grep -av '^ibwarn: '
}

# one WHO TOOL ARGS...: a run of ours (WHO=ours) or of the reference, from hca-a1, in
# $work/run, into $work/WHO.{out,err,rc}.  The words FIFO and FSIZE among the arguments
# become the FIFO (fed binary bytes by a background writer) and a file whose writes fail
# beyond 1 KB.
one() {
	_who=$1 _tool=$2
	shift 2
	_desc="$_tool $*"
	_fsize= _full=
	for _a in "$@"; do
		shift
		case $_a in
		FIFO) _a=$work/fifo
			stop_feeder
			(exec timeout 60 sh -c 'cat "$1" > "$2"' sh "$work/binary" "$work/fifo" 2>/dev/null) &
			feeder=$! ;;
		FSIZE) _a=$work/run/big.out; _fsize=1 ;;
		FULL) rm -f "$work/full"; mknod "$work/full" c 1 7 || exit 99; _a=$work/full; _full=1 ;;
		*=FSIZE) _a=${_a%=FSIZE}=$work/run/big.out; _fsize=1 ;;
		esac
		set -- "$@" "$_a"
	done
	if [ "$_who" = ref ]; then
		_prog=$(ref_tool "$_tool") _t=$RT
		# (the reference ibstatus, a shell script, cannot see the simulator's devices: a
		# copy reads the fake sysfs tree instead, as in diff-tools.sh's sysfs= cases)
		[ "$_tool" != ibstatus ] || _prog=$work/ibstatus
		set -- env IBMGMT_DIAGS_CACHE_DIR="$work/ref-cache" "$_prog" "$@"
		if head -n 1 "$_prog" | grep -q perl; then
			set -- env PERL5LIB="$work/perl" "$@"
		fi
	else
		_prog=$(our_tool "$top_builddir" "$_tool") _t=$T
		set -- env PATH="$top_builddir/utils/.libs:$top_builddir/utils:$PATH" \
			IBMGMT_DIAGS_CACHE_DIR="$work/ours-cache" "$_prog" "$@"
		[ "$_tool" != ibstatus ] || set -- env IBMGMT_SYSFS_ROOT="$SYSFS" "$@"
	fi
	find "$work/run" -mindepth 1 -delete 2>/dev/null
	(
		cd "$work/run" || exit 99
		if [ -n "$_fsize" ]; then
			trap '' XFSZ
			ulimit -f 2
		fi
		fabric_run hca-a1 timeout -k 5 "$_t" "$@" < /dev/null
	) > "$work/$_who.raw1" 2> "$work/$_who.raw2"
	echo $? > "$work/$_who.rc"
	stop_feeder
	if ! kill -0 "$FABRIC_SIM_PID" 2>/dev/null || ! kill -0 "$FABRIC_SM_PID" 2>/dev/null; then
		printf 'ERROR: the simulator or OpenSM died during %s: %.300s\n' "$_who" "$_desc" | tr -c '[:print:]\n' '?'
		tail -n 5 "$FABRIC_DIR/ibsim.err" "$FABRIC_DIR/opensm.out" 2>/dev/null
		exit 99
	fi
	normalise "$_prog" < "$work/$_who.raw1" > "$work/$_who.out"
	normalise "$_prog" < "$work/$_who.raw2" > "$work/$_who.err"
	# what the run left in its directory (umad2sim's sys-<pid> aside) and beside $work/adir
	_left=$(ls -A "$work/run" | grep -v '^sys-[0-9]*$'; ls -A "$work/adir"; ls -A "$work" | grep -vxE "$work_entries"
		[ -z "$_full" ] || [ -c "$work/full" ] || echo "a regular file in place of the device")
	# killed clients keep their ibsim slot
	case $(cat "$work/$_who.rc") in 12[4-9]|1[3-9][0-9]|2[0-4][0-9]) fabric_reap > /dev/null ;; esac
}

# t CLASS TOOL ARGS...: one case, ours and the reference's
t() {
	_c=$1 _tool=$2
	shift 2
	# the sample: every SAMPLE-th case of the whole run (all of them with FULL)
	ncase=$((ncase + 1))
	# (output files, few and the most telling, always)
	[ -n "${IBMGMT_HOSTILE_FULL:-}" ] || [ "$_c" = outfile ] || [ $((ncase % SAMPLE)) = 0 ] || return 0
	eval "n_$_c=\$((n_$_c + 1))"
	_why= _t0=$(date +%s)
	one ours "$_tool" "$@"
	_rc=$(cat "$work/ours.rc") _oleft=$_left
	case $_rc in
	124|137) _why="hang (killed after ${T}s)" ;;
	12[5-7]) _why="could not run (exit $_rc)" ;;
	12[89]|1[3-9][0-9]|2[0-4][0-9]) _why="killed by a signal (exit $_rc)" ;;
	esac
	if grep -aqE 'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:' "$work/ours.raw2"; then
		_why="${_why:+$_why; }sanitizer report"
	fi
	if [ -z "$_why" ] && [ "$_rc" != 0 ]; then
		[ -s "$work/ours.out" ] || [ -s "$work/ours.err" ] || _why="exit $_rc without a message"
		case " $(documented "$_tool") " in
		*" $_rc "*) ;;
		*) _why="${_why:+$_why; }exit $_rc not in its man page's EXIT STATUS" ;;
		esac
	fi
	if [ -z "$_why" ] && [ "$_c" = outfile ]; then
		[ "$_rc" != 0 ] || _why="exit 0 although the output file could not be written"
		[ -z "$_oleft" ] || _why="${_why:+$_why; }left $(echo $_oleft) behind"
	fi
	# the reference, where there is one
	_ref= _diff=
	if [ -x "$(ref_tool "$_tool")" ] && [ -z "${IBMGMT_HOSTILE_NOREF:-}" ] &&
	   { ! head -n 1 "$(ref_tool "$_tool")" | grep -q perl || [ -n "$pm" ]; }; then
		one ref "$_tool" "$@"
		_rrc=$(cat "$work/ref.rc")
		case $_rrc in
		12[4-9]|1[3-9][0-9]|2[0-4][0-9])
			eval "refbad_$_c=\$((refbad_$_c + 1))"; _ref="reference: exit $_rrc (hang or signal)" ;;
		*)
			if grep -aqE 'AddressSanitizer|runtime error:' "$work/ref.raw2"; then
				eval "refbad_$_c=\$((refbad_$_c + 1))"; _ref="reference: sanitizer report"
			elif [ "$_rrc" = "$_rc" ] && cmp -s "$work/ref.out" "$work/ours.out" &&
			     cmp -s "$work/ref.err" "$work/ours.err"; then
				eval "same_$_c=\$((same_$_c + 1))"; _ref=same
			elif [ "$_c" = drpath ] && [ "$(echo "$*" | tr -cd , | wc -c)" -gt 63 ]; then
				# more than 63 hops: the reference's str2drpath() writes past its 64-byte
				# path (undefined behaviour: garbage routes, heap corruption); ours refuses
				eval "refub_$_c=\$((refub_$_c + 1))"; _ref="reference: out of bounds"
			elif [ "$_c" = outfile ] && { [ "$_rrc" = 0 ] || [ -n "$_left" ]; }; then
				# the reference claims success or leaves a partial file: ours may not match
				eval "refdiff_$_c=\$((refdiff_$_c + 1))"
				_ref="reference: exit $_rrc${_left:+, left $(echo $_left)} (loses data)"
			else
				eval "differs_$_c=\$((differs_$_c + 1))"
				_diff="differs from the reference (exit $_rrc, ours $_rc)"
				if _known=$(known_diff "$_tool" "$@"); then
					_diff="$_diff; known: $_known"
				elif [ "${IBMGMT_HOSTILE_STRICT:-1}" != 0 ]; then
					_why="${_why:+$_why; }$_diff"
				fi
				_ref=$_diff
			fi ;;
		esac
	fi
	if [ -n "${IBMGMT_HOSTILE_VERBOSE:-}" ]; then
		printf '%s %s %.120s: exit %s %s (%ss)\n' "$_c" "$_tool" "$*" "$_rc" "${_ref:+[$_ref]}" \
			$(($(date +%s) - _t0)) | tr -c '[:print:]\n' '?'
	fi
	if [ -z "$_why" ]; then
		eval "p_$_c=\$((p_$_c + 1))"
		if [ -n "$_diff" ]; then
			printf 'DIFF: %s: %s %.300s: %s\n' "$_c" "$_tool" "$*" "$_diff" | tr -c '[:print:]\n' '?'
			cat "$work/ref.out" "$work/ref.err" > "$work/ref.all"
			cat "$work/ours.out" "$work/ours.err" > "$work/ours.all"
			diff "$work/ref.all" "$work/ours.all" | sed -n '1,8p' | cut -c1-200 | tr -c '[:print:]\n' '?' | sed 's/^/  /'
		fi
	else
		failed=$((failed + 1))
		printf 'FAIL: %s: %s %.300s: %s\n' "$_c" "$_tool" "$*" "$_why" | tr -c '[:print:]\n' '?'
		sed -n '1,6p' "$work/ours.out" "$work/ours.err" | cut -c1-200 | tr -c '[:print:]\n' '?' | sed 's/^/  ours: /'
		if [ -s "$work/ref.out" ] || [ -s "$work/ref.err" ]; then
			cat "$work/ref.out" "$work/ref.err" > "$work/ref.all"
			cat "$work/ours.out" "$work/ours.err" > "$work/ours.all"
			diff "$work/ref.all" "$work/ours.all" | sed -n '1,12p' | cut -c1-200 | tr -c '[:print:]\n' '?' | sed 's/^/  /'
		fi
	fi
	rm -f "$work/ref.rc" "$work/ref.out" "$work/ref.err" "$work/ref.all" "$work/ours.all"
}

# Slots: each runs the case once per hostile value, with the word @ in the arguments
# replaced by the value.  By default a slot gets a sample (every value once across the
# slots of a tool); IBMGMT_HOSTILE_FULL=1 gives every slot every value.
slot=0
pick() { # LIST...: the values for this slot
	slot=$((slot + 1))
	if [ -n "${IBMGMT_HOSTILE_FULL:-}" ]; then
		printf '%s\n' "$@"
		return
	fi
	# the first value (the worst case) always, then one other, rotating
	printf '%s\n' "$1"
	shift
	[ $# -gt 0 ] || return 0
	_k=$((slot % $#))
	shift "$_k"
	printf '%s\n' "$1"
}
subst() { # VALUE ARGS...: runs t with @ replaced
	_v=$1
	shift
	_sc=$1 _st=$2
	shift 2
	for _a in "$@"; do
		shift
		case $_a in
		@) set -- "$@" "$_v" ;;
		*@) set -- "$@" "${_a%@}$_v" ;;
		@*) set -- "$@" "$_v${_a#@}" ;;
		*) set -- "$@" "$_a" ;;
		esac
	done
	t "$_sc" "$_st" "$@"
}
num() { # TOOL ARGS... with @ a number
	for _nv in $(pick $NUMS); do subst "$_nv" number "$@"; done
}
str() { # TOOL ARGS... with @ a string: 10 KB, invalid UTF-8, control characters
	subst "$LONG" long "$@"
	if [ -n "${IBMGMT_HOSTILE_FULL:-}" ] || [ $((slot % 2)) = 0 ]; then
		subst "$BYTES1" bytes "$@"
	else
		subst "$BYTES2" bytes "$@"
	fi
	slot=$((slot + 1))
}
dr() { # TOOL ARGS... with @ a directed route
	for _dv in $(pick $DRS); do subst "$_dv" drpath "$@"; done
}
# 65 hops and the limit are always tried where a tool takes a route
drlimits() {
	for _dv in "$(dr_path 64)" "$(dr_path 65)"; do subst "$_dv" drpath "$@"; done
}
inf() { # TOOL ARGS... with @ a file to read
	for _fv in $(pick $INFILES); do subst "$_fv" infile "$@"; done
}
outf() { # TOOL ARGS... with @ a file to write: every kind
	for _fv in $OUTFILES; do subst "$_fv" outfile "$@"; done
}
opts() { # TOOL [ARGS...]: unknown options, then every option named in MISSING given last
	_ot=$1
	shift
	t option "$_ot" --hostile-no-such-option "$@"
	t option "$_ot" -j "$@"
	for _mo in $MISSING; do
		t missing "$_ot" "$@" "$_mo"
	done
}

# ---- the tools ---------------------------------------------------------------------------
# LIDs on two-switch.net: sw-a 1 (OpenSM), the others from OpenSM; hca-a2's LID is looked
# up for the vendor tools (never LID 1).
fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || { echo "ERROR: cannot start the fabric"; exit 99; }
set_traps
lid_of() { # DR_PATH PORT: the LID of that port (reference smpquery from hca-a1)
	fabric_run hca-a1 "$FABRIC_REF/smpquery" -D portinfo "$1" "$2" 2>/dev/null | sed -n 's/^Lid:\.*\([0-9]*\)$/\1/p'
}
HLID=$(lid_of 0,1,2 1)   # hca-a2
SWLID=$(lid_of 0,1,7 0)  # sw-b
case $HLID in ''|1) echo "ERROR: no LID for hca-a2 ($HLID)"; exit 99 ;; esac
case $SWLID in ''|1) echo "ERROR: no LID for sw-b ($SWLID)"; exit 99 ;; esac
NOLID=777   # a LID no node has
# a good cache file for the tools that read one (made by the reference)
fabric_run hca-a1 "$FABRIC_REF/ibnetdiscover" --cache "$work/good.cache" > /dev/null 2>&1 ||
	{ echo "ERROR: cannot write a cache file"; exit 99; }

# the common options of the infiniband-diags tools written in C
common() { # TOOL ARGS...: -C, -P, -t, --config with hostile values
	_ct=$1
	shift
	str "$_ct" -C @ "$@"
	num "$_ct" -P @ "$@"
	num "$_ct" -t @ "$@"
	inf "$_ct" --config @ "$@"
}

tool_cases() {
	MISSING=
	case $1 in
	ibaddr)
		MISSING="-C -P -t -s -y"
		common ibaddr "$SWLID"
		num ibaddr @; num ibaddr -s @ "$SWLID"
		str ibaddr @; str ibaddr -G @
		dr ibaddr -D @; drlimits ibaddr -D @
		opts ibaddr "$SWLID" ;;
	smpquery)
		MISSING="-C -P -t -s -y --node-name-map"
		common smpquery nodeinfo "$SWLID"
		# (not pkeys or vlarb with a hostile port: ours sends what the reference sends, e.g.
		# AttributeModifier 0xffff0000 for PKeyTable, and ibsim 0.10 dies of that)
		num smpquery nodeinfo @; num smpquery portinfo "$SWLID" @
		str smpquery @ "$SWLID"; str smpquery nodedesc @; str smpquery -G nodeinfo @
		dr smpquery -D nodeinfo @; drlimits smpquery -D nodedesc @
		inf smpquery --node-name-map @ nodedesc "$SWLID"
		opts smpquery nodeinfo "$SWLID" ;;
	smpdump)
		MISSING="-C -P -t -y"
		common smpdump "$SWLID" 0x11
		num smpdump @ 0x11; num smpdump "$SWLID" @; num smpdump "$SWLID" 0x15 @
		str smpdump "$SWLID" @; str smpdump @ 0x11
		dr smpdump -D @ 0x11; drlimits smpdump -D @ 0x10
		opts smpdump "$SWLID" 0x11 ;;
	sminfo)
		MISSING="-C -P -t -y -s -p -a"
		common sminfo 1
		num sminfo @; num sminfo 1 @
		str sminfo @; str sminfo -G @
		dr sminfo -D @; drlimits sminfo -D @
		opts sminfo 1 ;;
	ibportstate)
		# queries only: a hostile number never reaches a Set.  (-t on switch port 0: port
		# 1's peer query, LID-routed then directed, goes unanswered on the simulator, so
		# -t 65536 would wait 65 s per try, as asked)
		MISSING="-C -P -t -s -y"
		str ibportstate -C @ "$SWLID" 1; num ibportstate -P @ "$SWLID" 1
		num ibportstate -t @ "$SWLID" 0; inf ibportstate --config @ "$SWLID" 1
		num ibportstate @ 1; num ibportstate "$SWLID" @; num ibportstate "$SWLID" @ query
		str ibportstate "$SWLID" 1 @; str ibportstate @ 1; str ibportstate -G @ 1
		dr ibportstate -D @ 1; drlimits ibportstate -D @ 1
		opts ibportstate "$SWLID" 1 ;;
	perfquery)
		MISSING="-C -P -t -s -y"
		common perfquery "$HLID" 1
		num perfquery @ 1; num perfquery "$HLID" @; num perfquery -a @
		str perfquery @ 1; str perfquery -G @ 1; str perfquery "$HLID" @
		opts perfquery "$HLID" 1 ;;
	saquery)
		MISSING="-C -P -t --node-name-map --smkey --src-to-dst --sgid-to-dgid --slid"
		common saquery NR "$HLID"
		num saquery NR @; num saquery --slid @ PR; num saquery --smkey @ NR "$HLID"
		str saquery @; str saquery NR @; str saquery --src-to-dst @; str saquery PIR @
		str saquery --sgid-to-dgid @
		inf saquery --node-name-map @ NR "$HLID"
		opts saquery NR "$HLID" ;;
	ibstat)
		MISSING=
		str ibstat @; num ibstat ibsim0 @; str ibstat ibsim0 @
		inf ibstat --config @ ibsim0
		opts ibstat ibsim0 ;;
	ibstatus)
		str ibstatus @; str ibstatus mlx5_0:@; num ibstatus mlx5_0:@
		opts ibstatus ;;
	query)
		MISSING="-C -P -t"
		common query nodeinfo "$SWLID"
		num query nodeinfo @; str query @ "$SWLID"; str query nodeinfo @
		dr query -D nodeinfo @; drlimits query -D nodeinfo @
		opts query nodeinfo "$SWLID" ;;
	decode_mad)
		MISSING="-o"
		num decode_mad -o @; str decode_mad -o @
		opts decode_mad ;;
	ibnetdiscover)
		MISSING="-C -P -t -o --cache --load-cache --diff --diffcheck --node-name-map"
		common ibnetdiscover
		num ibnetdiscover -o @; str ibnetdiscover --diffcheck @
		str ibnetdiscover --cache @; str ibnetdiscover @
		inf ibnetdiscover --node-name-map @; inf ibnetdiscover --load-cache @
		inf ibnetdiscover --diff @
		outf ibnetdiscover --cache @; outf ibnetdiscover @
		outf ibnetdiscover --load-cache "$work/good.cache" @
		opts ibnetdiscover ;;
	ibhosts|ibswitches|ibrouters|ibnodes)
		MISSING="-C -P -t -y"
		str "$1" -C @; num "$1" -P @; num "$1" -t @; str "$1" @
		inf "$1" @
		opts "$1" ;;
	iblinkinfo)
		MISSING="-C -P -t -n -o --load-cache --diff --diffcheck --filterdownports --node-name-map -D"
		common iblinkinfo
		num iblinkinfo -n @; num iblinkinfo -o @; num iblinkinfo -D 0 -n @
		str iblinkinfo --diffcheck @
		dr iblinkinfo -D @; drlimits iblinkinfo -D @
		inf iblinkinfo --node-name-map @; inf iblinkinfo --load-cache @
		inf iblinkinfo --diff @; inf iblinkinfo --filterdownports @
		opts iblinkinfo ;;
	ibqueryerrors)
		MISSING="-C -P -t -o -s --load-cache --threshold-file --node-name-map -D -G"
		common ibqueryerrors
		num ibqueryerrors -o @
		str ibqueryerrors -s @
		dr ibqueryerrors -D @; drlimits ibqueryerrors -D @
		inf ibqueryerrors --node-name-map @; inf ibqueryerrors --load-cache @
		inf ibqueryerrors --threshold-file @
		opts ibqueryerrors ;;
	ibroute)
		MISSING="-C -P -t -s -y --node-name-map"
		common ibroute "$SWLID"
		num ibroute @; num ibroute "$SWLID" @; num ibroute "$SWLID" 1 @; num ibroute -M "$SWLID" @
		str ibroute @; str ibroute -G @
		dr ibroute -D @; drlimits ibroute -D @
		inf ibroute --node-name-map @ "$SWLID"
		opts ibroute "$SWLID" ;;
	dump_fts)
		MISSING="-C -P -t -y --node-name-map"
		common dump_fts
		num dump_fts @; num dump_fts "$SWLID" @; num dump_fts -M "$SWLID" 1 @
		str dump_fts @
		inf dump_fts --node-name-map @
		opts dump_fts ;;
	dump_lfts|dump_mfts)
		MISSING="-C -P -t"
		num "$1" @; num "$1" "$SWLID" @; str "$1" @; str "$1" -C @
		dr "$1" -D @
		inf "$1" --node-name-map @
		opts "$1" ;;
	ibtracert)
		MISSING="-C -P -t -s -y -m --node-name-map --ports-file"
		common ibtracert "$HLID" "$SWLID"
		num ibtracert @ "$HLID"; num ibtracert "$HLID" @; num ibtracert -m @ "$HLID" "$SWLID"
		str ibtracert @ "$HLID"; str ibtracert -G @ "$HLID"
		inf ibtracert --node-name-map @ "$HLID" "$SWLID"; inf ibtracert --ports-file @
		opts ibtracert "$HLID" "$SWLID" ;;
	ibcacheedit)
		MISSING="--switchguid --caguid --sysimgguid --portguid"
		inf ibcacheedit @ "$work/run/new.cache"
		outf ibcacheedit "$work/good.cache" @
		str ibcacheedit --switchguid @ "$work/good.cache" new.cache
		str ibcacheedit --portguid @ "$work/good.cache" new.cache
		num ibcacheedit --caguid @:0x1 "$work/good.cache" new.cache
		str ibcacheedit @ new.cache
		inf ibcacheedit --config @ "$work/good.cache" new.cache
		opts ibcacheedit "$work/good.cache" new.cache ;;
	ibidsverify)
		MISSING="-C -P"
		str ibidsverify -C @; num ibidsverify -P @
		opts ibidsverify ;;
	ibfindnodesusing)
		MISSING="-C -P"
		str ibfindnodesusing @ 1; num ibfindnodesusing sw-b @; str ibfindnodesusing -C @ sw-b 1
		num ibfindnodesusing -P @ sw-b 1
		opts ibfindnodesusing sw-b 1 ;;
	check_lft_balance)
		MISSING="-l -i"
		inf check_lft_balance -l @ -i "$work/good.cache"
		str check_lft_balance -l @ -i "$work/good.cache"
		opts check_lft_balance ;;
	ibping)
		# never LID 1; a hostile count is not tried (a huge count pings for ever, as asked)
		MISSING="-C -P -t -c -o"
		common ibping -c 1 "$HLID"
		num ibping @; num ibping -c 1 -o @ "$HLID"
		str ibping @; str ibping -G @
		opts ibping -c 1 "$HLID" ;;
	ibsysstat)
		MISSING="-C -P -t -o"
		common ibsysstat "$HLID"
		num ibsysstat @; num ibsysstat -o @ "$HLID"
		str ibsysstat @; str ibsysstat "$HLID" @
		opts ibsysstat "$HLID" ;;
	vendstat)
		MISSING="-C -P -t -c -R -W"
		common vendstat "$HLID"
		num vendstat @; num vendstat "$HLID" @
		str vendstat @; str vendstat -c @ "$NOLID"; str vendstat -R @ "$NOLID"; str vendstat -W @ "$NOLID"
		opts vendstat "$HLID" ;;
	ibccquery)
		MISSING="-C -P -t -c -y"
		common ibccquery CI "$NOLID"
		num ibccquery CI @; num ibccquery -c @ CI "$NOLID"; num ibccquery CS "$NOLID" @
		str ibccquery @ "$NOLID"; str ibccquery CI @
		opts ibccquery CI "$NOLID" ;;
	ibccconfig)
		# Sets only to a LID that no node has
		MISSING="-C -P -t -c -y"
		common ibccconfig CK "$NOLID" 0 0 0 0
		num ibccconfig CK @ 0 0 0 0; num ibccconfig CK "$NOLID" @ 0 0 0
		num ibccconfig CS "$NOLID" 1 @ 0
		str ibccconfig @ "$NOLID"; str ibccconfig CK @ 0 0 0 0; str ibccconfig CK "$NOLID" @ 0 0 0
		opts ibccconfig CK "$NOLID" 0 0 0 0 ;;
	subnet_diff)
		MISSING="-C -P -t"
		inf subnet_diff @ "$work/good.cache"; inf subnet_diff "$work/good.cache" @
		str subnet_diff @
		opts subnet_diff "$work/good.cache" ;;
	set_nodedesc)
		MISSING="-C"
		str set_nodedesc -C @ x; str set_nodedesc -C ibsim9 @
		opts set_nodedesc x ;;
	set_port_state)
		MISSING="-C -P -t"
		num set_port_state --disable @; str set_port_state --disable @
		dr set_port_state --disable @
		opts set_port_state --disable "$NOLID" ;;
	init_all_ports)
		MISSING="-C -P -t"
		# (a -P it accepts, 2^64 or -1 as libibumad, would move every link to Init: the
		# extra operand makes it stop at the usage)
		num init_all_ports -P @ extra; str init_all_ports -C @
		opts init_all_ports ;;
	set_guid)
		MISSING="-C -P -t"
		num set_guid "$NOLID" 0 @; str set_guid @ 0 0x1234; str set_guid "$NOLID" 0 @
		opts set_guid "$NOLID" 0 0x1234 ;;
	ibcheckerrors|ibchecknet|ibcheckstate|ibcheckwidth|ibdatacounters)
		MISSING="-C -P -t -T"
		str "$1" -C @; num "$1" -P @; num "$1" -t @; inf "$1" @
		opts "$1" ;;
	ibclearcounters|ibclearerrors)
		MISSING="-C -P -t"
		inf "$1" @; str "$1" -C @ "$work/no/such/file"
		opts "$1" "$work/no/such/file" ;;
	ibchecknode|ibcheckerrs|ibdatacounts|ibcheckport|ibcheckportstate|ibcheckportwidth)
		MISSING="-C -P -t"
		num "$1" @ 1; num "$1" "$HLID" @; str "$1" -G @ 1; str "$1" -C @ "$HLID" 1
		opts "$1" "$HLID" 1 ;;
	ibv_devices)
		# (it reads no argument: every one is ignored, as by the original)
		MISSING=
		str ibv_devices @; num ibv_devices @; str ibv_devices -d @
		opts ibv_devices ;;
	*)
		# a tool added since: the generic cases
		MISSING="-C -P -t"
		str "$1" @; num "$1" @
		opts "$1" ;;
	esac
}

start=$(date +%s)
for tool in $tools; do
	[ -e "$top_builddir/utils/$tool" ] || { echo "FAIL: $tool is not built"; failed=$((failed + 1)); continue; }
	tool_cases "$tool"
done
end=$(date +%s)

echo "hostile input: $(echo $tools | wc -w) tools, $((end - start)) s"
printf '%-8s %6s %6s %12s %8s %17s %14s %18s\n' class tried passed "same as ref" differs "ref hung/crashed" "ref lost data" "ref out of bounds"
tn=0 tp=0
for c in $CLASSES; do
	eval "printf '%-8s %6s %6s %12s %8s %17s %14s %18s\n' $c \$n_$c \$p_$c \$same_$c \$differs_$c \$refbad_$c \$refdiff_$c \$refub_$c"
	eval "tn=\$((tn + n_$c)) tp=\$((tp + p_$c))"
done
printf '%-8s %6s %6s\n' total "$tn" "$tp"
[ "$failed" = 0 ] || { echo "$failed case(s) failed"; exit 1; }
exit 0
