#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Differential tests of the tools: every case in tests/fabric/cases/*.cases runs our tool
# and the reference infiniband-diags tool with the same arguments on the same simulated
# node and compares stdout, stderr and the exit status byte for byte.  Cases the simulator
# cannot answer compare ours with a recorded expected result instead.  The case format is
# in tests/fabric/cases/README.md.
#
#   sh tests/fabric/diff-tools.sh [FILE.cases...]     (default: every cases file)
#   IBMGMT_CASES_FILTER=REGEX    only the case lines that match (grep -E)
#   IBMGMT_CASES_UPDATE=1        (re)write the expected files of "own" cases from ours
#   IBMGMT_CASES_VERBOSE=1       print every case as it runs
#   IBMGMT_REF_RECORD=DIR        also write each reference result to DIR/<cksum of the case>
#   IBMGMT_REF_RECORDED=DIR      compare "ref" cases with those recorded results instead of
#                                running the reference (a reference that is not installed)
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
# a case without a fabric runs here: its file arguments are relative to the source tree
cd "$top_srcdir" || exit 99
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require

cases_dir=$top_srcdir/tests/fabric/cases
[ $# -gt 0 ] || set -- "$cases_dir"/*.cases

# Our tools: the real binaries (not libtool's wrapper scripts, whose argv[0] differs),
# with the uninstalled libraries on the library path.
. "$top_srcdir/tests/fabric/our-tool.sh"
our_tool_libs "$top_builddir"

work=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-cases.XXXXXX") || exit 99
trap 'fabric_stop; rm -rf "$work"' EXIT INT TERM HUP

# All case lines, each prefixed with its file and line number, sorted by topology (stable)
# so that each topology's fabric starts once.
: > "$work/all"
for f in "$@"; do
	awk -v f="$(basename "$f" .cases)" '
		/^[ \t]*(#|$)/ { next }
		{ printf "%s\t%s:%d\t%s\n", $1, f, NR, $0 }' "$f" >> "$work/all"
done
if [ -n "${IBMGMT_CASES_FILTER:-}" ]; then
	grep -E -- "$IBMGMT_CASES_FILTER" "$work/all" > "$work/sel" || :
	mv "$work/sel" "$work/all"
fi
sort -s -t "$(printf '\t')" -k1,1 "$work/all" | cut -f2- > "$work/sorted"

# normalise TOOLPATH NAME < raw > clean: tool_normalise (our-tool.sh), and the files the
# cases write named alike.
normalise() {
	tool_normalise "$1" "$2" \
	    -e "s#$work/[a-z]*\.file#OUTFILE#g" -e "s#$work/cache-[^ ]*-\(ref\|ours\)#CACHEFILE#g"
}

# run OUTPREFIX HOST SYSFS PROG NAME ARGS...: one run, normalised into OUTPREFIX.{out,err,rc}.
# An argument @OUT@ becomes the file OUTPREFIX.file (removed first): what the tool writes
# there is compared too (OUTPREFIX.filen, normalised).  @CACHE@ becomes a cache file of the
# fabric written by the reference ibnetdiscover from the case's node, @OURCACHE@ one written
# by ours (each made once per topology and node).
run() {
	_o=$1 _h=$2 _s=$3 _p=$4 _n=$5
	shift 5
	rm -f "$_o.file" "$_o.filen"
	for _a in "$@"; do
		shift
		case $_a in
		*@OUT@*) _a=$(printf '%s' "$_a" | sed "s#@OUT@#$_o.file#g") ;;
		*@CACHE@*) _a=$(printf '%s' "$_a" | sed "s#@CACHE@#$(cache_of ref "$_h")#g") ;;
		*@OURCACHE@*) _a=$(printf '%s' "$_a" | sed "s#@OURCACHE@#$(cache_of ours "$_h")#g") ;;
		esac
		set -- "$@" "$_a"
	done
	if [ "$_h" = - ]; then
		if [ -n "$_s" ]; then
			IBMGMT_SYSFS_ROOT=$_s timeout -k 5 60 "$_p" "$@" > "$_o.raw1" 2> "$_o.raw2" < "$stdin"
		else
			timeout -k 5 60 "$_p" "$@" > "$_o.raw1" 2> "$_o.raw2" < "$stdin"
		fi
		echo $? > "$_o.rc"
	else
		fabric_run "$_h" "$_p" "$@" > "$_o.raw1" 2> "$_o.raw2" < "$stdin"
		echo $? > "$_o.rc"
	fi
	if [ "$_n" = ibping ]; then
		# the run's own duration ("..., time N ms"), however fast its pings are lost
		normalise "$_p" "$_n" < "$_o.raw1" | sed 's/packet loss, time [0-9][0-9]* ms$/packet loss, time N ms/' > "$_o.out"
	else
		normalise "$_p" "$_n" < "$_o.raw1" > "$_o.out"
	fi
	# libibmad's internal "ibwarn:" debug lines need not be imitated (nor compared).
	normalise "$_p" "$_n" < "$_o.raw2" | grep -v '^ibwarn: ' > "$_o.err"
	[ ! -f "$_o.file" ] || normalise "$_p" "$_n" < "$_o.file" > "$_o.filen"
}

# cache_of ref|ours HOST: the path of a cache file of the current fabric seen from HOST,
# written by the reference's (or our) ibnetdiscover --cache the first time it is asked for.
cache_of() {
	_cf=$work/cache-$cur_topo-$2-$1
	if [ ! -s "$_cf" ]; then
		if [ "$1" = ref ]; then _cp=/usr/sbin/ibnetdiscover; else _cp=$(our_tool "$top_builddir" ibnetdiscover); fi
		fabric_run "$2" "$_cp" --cache "$_cf" > /dev/null 2>&1 < /dev/null
		[ -s "$_cf" ] || echo "ERROR: cannot write the $1 cache of $cur_topo from $2" >&2
	fi
	printf '%s' "$_cf"
}

# console_file FILE: every line of FILE (but "#" comments and blank lines) sent to the ibsim
# console; each must be accepted (fabric_console fails on a rejected one).  A case's set-up
# (setup=FILE) runs before our run and again before the reference's, so both see the same
# fabric state (e.g. error counters set with PerformanceSet, which a run may clear).
console_file() {
	while IFS= read -r _cl; do
		case $_cl in '#'* | '') continue ;; esac
		fabric_console "$_cl" > /dev/null || return 1
	done < "$1"
}

# expected FILE OUTPREFIX: an "own" expected file split into OUTPREFIX.{out,err,rc}.
# Layout: stdout, a line "--- stderr", stderr, a line "--- exit N".
split_expected() {
	rm -f "$2.filen" # an earlier case's written file is not this one's
	awk -v o="$2" '
		BEGIN { f = o ".out"; printf "" > (o ".out"); printf "" > (o ".err") }
		$0 == "--- stderr" { f = o ".err"; next }
		/^--- exit [0-9]+$/ { print $3 > (o ".rc"); next }
		{ print > f }' "$1"
}
write_expected() { # OUTPREFIX FILE
	{ cat "$1.out"; echo "--- stderr"; cat "$1.err"; echo "--- exit $(cat "$1.rc")"; } > "$2"
}

same() { # A B: the three parts (and a written file) are equal
	cmp -s "$1.out" "$2.out" && cmp -s "$1.err" "$2.err" && cmp -s "$1.rc" "$2.rc" &&
		{ { [ ! -f "$1.filen" ] && [ ! -f "$2.filen" ]; } || cmp -s "$1.filen" "$2.filen"; }
}

show_diff() { # WHAT REF OURS
	echo "FAIL: $1"
	for part in out err rc filen; do
		[ -f "$2.$part" ] || [ -f "$3.$part" ] || continue
		cmp -s "$2.$part" "$3.$part" || { echo "  --- $part (reference/expected vs ours)"; diff -u "$2.$part" "$3.$part" | sed -n '3,40p' | sed 's/^/  /'; }
	done
}

# shim_side ours|ref: the next run gets tests/fabric/cc-shim.c (built here once) in front
# of umad2sim: in mode ccshim it answers Congestion Control MADs from
# cases/data/<topology>.ccmodel, in mode vendshim Mellanox vendor MADs (class 0x0a) from
# cases/data/<topology>.vendmodel; each side keeps its own state (what its Sets changed)
# while the topology's fabric runs.
shim_side() {
	if [ ! -f "$work/cc-shim.so" ]; then
		${CC:-cc} -shared -fPIC -O2 -o "$work/cc-shim.so" "$top_srcdir/tests/fabric/cc-shim.c" -ldl ||
			{ echo "ERROR: cannot build tests/fabric/cc-shim.c"; exit 99; }
	fi
	LD_PRELOAD=$work/cc-shim.so${preload_before:+ $preload_before}
	export LD_PRELOAD
	if [ -n "$ccshim" ]; then
		IBMGMT_CCSHIM_STATE=$work/ccshim-$1.state
		IBMGMT_CCSHIM_MODEL=$cases_dir/data/$cur_topo.ccmodel
		export IBMGMT_CCSHIM_MODEL IBMGMT_CCSHIM_STATE
	fi
	if [ -n "$vendshim" ]; then
		[ -f "$cases_dir/data/$cur_topo.vendmodel" ] ||
			{ echo "ERROR: no vendor model $cases_dir/data/$cur_topo.vendmodel"; exit 99; }
		IBMGMT_VENDSHIM_STATE=$work/vendshim-$1.state
		IBMGMT_VENDSHIM_MODEL=$cases_dir/data/$cur_topo.vendmodel
		export IBMGMT_VENDSHIM_MODEL IBMGMT_VENDSHIM_STATE
	fi
}

# mc_join NODE+NODE...: each node's port joins the IPoIB broadcast group through the SA
# (tests/fabric/mcjoin), once per fabric; then waits until OpenSM has programmed the
# switches' multicast tables (two equal, non-empty reads by the reference dump_fts -M).
mc_join() {
	for _mh in $(printf '%s' "$1" | tr '+' ' '); do
		fabric_run "$_mh" "$top_builddir/tests/fabric/mcjoin" > /dev/null || return 1
	done
	_mprev= _mi=0
	while [ "$_mi" -lt 50 ]; do
		_mcur=$(fabric_run "${1%%+*}" /usr/sbin/dump_fts -M 2> /dev/null)
		case $_mcur in
		*"0xc000 "*) [ "$_mcur" = "$_mprev" ] && return 0 ;;
		esac
		_mprev=$_mcur
		_mi=$((_mi + 1))
		sleep 0.2
	done
	echo "ERROR: no multicast table was programmed after the joins of $1"
	return 1
}

preload_before=${LD_PRELOAD:-}
n=0 pass=0 fail=0 nref=0 nown=0 refcrash=0 cur_topo=
while IFS= read -r line; do
	loc=${line%%"	"*}
	spec=${line#*"	"}
	# shellcheck disable=SC2086
	set -f; set -- $spec; set +f
	topo=$1 host=$2 mode=$3 tool=$4
	shift 4
	args=$*
	if [ "$topo" != - ] && [ "$topo" != "$cur_topo" ]; then
		[ -z "$cur_topo" ] || fabric_stop
		fabric_start "$top_srcdir/tests/fabric/topo/$topo.net" || { echo "ERROR: cannot start $topo"; exit 99; }
		cur_topo=$topo
		mcjoined=
		rm -f "$work"/ccshim-*.state "$work"/vendshim-*.state
	fi
	n=$((n + 1))
	[ -z "${IBMGMT_CASES_VERBOSE:-}" ] || echo "case $loc: $spec"
	ours=$(our_tool "$top_builddir" "$tool")
	drop= unlink= sysfs= own= setup= ref=/usr/sbin/$tool stdin=/dev/null ccshim= vendshim= mcjoin=
	[ -z "${IBMGMT_REF_BINDIR:-}" ] || ref=$IBMGMT_REF_BINDIR/$tool
	oldifs=$IFS; IFS=,
	for m in $mode; do
		case $m in
		ref) ;;
		own:*) own=$cases_dir/expected/${m#own:} ;;
		drop=*) drop=${m#drop=} ;;
		unlink=*) unlink=${m#unlink=} ;;
		sysfs=*) sysfs=$top_srcdir/tests/data/sysfs/${m#sysfs=} ;;
		stdin=*) stdin=$cases_dir/data/${m#stdin=} ;;
		setup=*) setup=$cases_dir/data/${m#setup=} ;;
		ccshim) ccshim=1 ;;
		vendshim) vendshim=1 ;;
		mcjoin=*) mcjoin=${m#mcjoin=} ;;
		*) IFS=$oldifs; echo "ERROR: $loc: unknown mode '$m'"; exit 99 ;;
		esac
	done
	IFS=$oldifs
	# Arguments may be quoted in the case line.
	eval "set -- $args"
	[ -z "$drop" ] || fabric_console "Error \"$drop\" 100" > /dev/null || { echo "ERROR: $loc: cannot drop at $drop"; exit 99; }
	if [ -n "$unlink" ]; then
		sweeps=$(fabric_sweeps)
		fabric_console "Unlink \"${unlink%:*}\"[${unlink##*:}]" > /dev/null || { echo "ERROR: $loc: cannot unlink $unlink"; exit 99; }
		fabric_wait_sweep "$sweeps" || { echo "ERROR: $loc: no OpenSM sweep after unlinking $unlink"; exit 99; }
	fi
	[ -z "$setup" ] || console_file "$setup" || { echo "ERROR: $loc: set-up $setup failed"; exit 99; }
	if [ -n "$mcjoin" ] && [ -z "$mcjoined" ]; then
		mc_join "$mcjoin" || { echo "ERROR: $loc: the multicast joins of $mcjoin failed"; exit 99; }
		mcjoined=1
	fi
	[ -z "$ccshim$vendshim" ] || shim_side ours
	run "$work/ours" "$host" "$sysfs" "$ours" "$tool" "$@"
	if [ -n "$own" ]; then
		nown=$((nown + 1))
		if [ -n "${IBMGMT_CASES_UPDATE:-}" ]; then
			mkdir -p "$cases_dir/expected"
			write_expected "$work/ours" "$own"
		fi
		if [ ! -f "$own" ]; then
			echo "FAIL: $loc: $spec: no expected file $own"
			fail=$((fail + 1))
		else
			split_expected "$own" "$work/ref"
			if same "$work/ref" "$work/ours"; then pass=$((pass + 1)); else
				show_diff "$loc: $spec" "$work/ref" "$work/ours"; fail=$((fail + 1)); fi
		fi
	else
		nref=$((nref + 1))
		# a reference that cannot run here, recorded where it could (IBMGMT_REF_RECORDED)
		recorded=
		[ -z "${IBMGMT_REF_RECORD:-}${IBMGMT_REF_RECORDED:-}" ] ||
			recorded=${IBMGMT_REF_RECORD:-$IBMGMT_REF_RECORDED}/$(printf '%s' "$spec" | cksum | cut -d' ' -f1)
		if [ -n "${IBMGMT_REF_RECORDED:-}" ]; then
			# a missing record compares as an empty result: the case fails
			if [ -f "$recorded" ]; then
				split_expected "$recorded" "$work/ref"
			else
				echo "no recorded reference result $recorded" > "$work/ref.out"
				: > "$work/ref.err"
				echo none > "$work/ref.rc"
				rm -f "$work/ref.filen"
			fi
		elif [ -n "$sysfs" ]; then
			# The reference reads /sys itself: run a copy that reads the tree instead.
			sed "s#/sys/class/infiniband#$sysfs/class/infiniband#g" "$ref" > "$work/$tool"
			chmod +x "$work/$tool"
			run "$work/ref" "$host" "" "$work/$tool" "$tool" "$@"
		else
			tries=0
			while :; do
				[ -z "$setup" ] || console_file "$setup" || { echo "ERROR: $loc: set-up $setup failed"; exit 99; }
				[ -z "$ccshim$vendshim" ] || shim_side ref
				run "$work/ref" "$host" "" "$ref" "$tool" "$@"
				# The reference killed by a signal (its ibqueryerrors segfaults now and
				# then: doc/reliability.md) is a defect of the reference, not the output
				# to compare: run it again, twice at the most.  (Where the reference
				# always crashes, the case has recorded results, own:.)
				case $(cat "$work/ref.rc") in 129 | 1[3-8][0-9] | 19[0-2]) ;; *) break ;; esac
				tries=$((tries + 1))
				[ "$tries" -le 2 ] || break
				echo "note: $loc: the reference was killed by a signal (exit $(cat "$work/ref.rc")): run again"
				refcrash=$((refcrash + 1))
				[ "$host" = - ] || fabric_reap > /dev/null || { echo "ERROR: $loc: cannot free the crashed reference's ibsim slot"; exit 99; }
			done
		fi
		[ -z "${IBMGMT_REF_RECORD:-}" ] || { mkdir -p "$IBMGMT_REF_RECORD" && write_expected "$work/ref" "$recorded"; }
		if same "$work/ref" "$work/ours"; then
			# what the Sets wrote (vendshim): both tools must have sent the same values
			if [ -n "$vendshim" ] && [ -z "${IBMGMT_REF_RECORDED:-}" ] &&
				! cmp -s "$work/vendshim-ref.state" "$work/vendshim-ours.state" 2> /dev/null &&
				{ [ -f "$work/vendshim-ref.state" ] || [ -f "$work/vendshim-ours.state" ]; }; then
				echo "FAIL: $loc: $spec: the vendor state written differs (reference vs ours)"
				diff "$work/vendshim-ref.state" "$work/vendshim-ours.state" 2>&1 | cut -c1-100 | sed -n '1,10s/^/  /p'
				fail=$((fail + 1))
			else
				pass=$((pass + 1))
			fi
		else
			show_diff "$loc: $spec" "$work/ref" "$work/ours"; fail=$((fail + 1)); fi
	fi
	if [ -n "$ccshim$vendshim" ]; then
		unset IBMGMT_CCSHIM_MODEL IBMGMT_CCSHIM_STATE IBMGMT_VENDSHIM_MODEL IBMGMT_VENDSHIM_STATE
		if [ -n "$preload_before" ]; then LD_PRELOAD=$preload_before; else unset LD_PRELOAD; fi
	fi
	[ -z "$drop" ] || fabric_console "Error \"$drop\" 0" > /dev/null || { echo "ERROR: $loc: cannot stop the drops at $drop"; exit 99; }
	[ -z "$drop" ] || rm -f "$work"/cache-*
	if [ -n "$unlink" ]; then
		sweeps=$(fabric_sweeps)
		fabric_console "ReLink \"${unlink%:*}\"[${unlink##*:}]" > /dev/null || { echo "ERROR: $loc: cannot relink $unlink"; exit 99; }
		fabric_wait_sweep "$sweeps" || { echo "ERROR: $loc: no OpenSM sweep after relinking $unlink"; exit 99; }
		rm -f "$work"/cache-*
	fi
done < "$work/sorted"

echo "$n cases ($nref against the reference, $nown against recorded results): $pass passed, $fail failed"
[ "$refcrash" -eq 0 ] || echo "(the reference was killed by a signal $refcrash time(s), and run again)"
[ "$n" -gt 0 ] || exit 77
[ "$fail" -eq 0 ]
