#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Differential tests of the tools that replace infiniband-diags' Perl scripts:
# check_lft_balance, ibfindnodesusing, ibidsverify.
#
# Why not a tests/fabric/cases file: the scripts keep their topology in
# /var/cache/infiniband-diags (IBswcountlimits.pm), which a test must not touch, and their
# input files (dump_lfts output, ibnetdiscover caches and -g topologies) are made on the
# fabric first, some of them altered.  So each run gets a private cache directory: ours
# through IBMGMT_DIAGS_CACHE_DIR, the reference script through a copy of IBswcountlimits.pm
# whose cache_dir is that variable (PERL5LIB).  Each runs the helper tools it finds on PATH
# (ibnetdiscover, ibroute, iblinkinfo), as the scripts do: the reference the reference's,
# ours ours (the build's utils/ first on PATH), as each is installed.
#
#   sh tests/fabric/script-tools.sh          (top_srcdir, top_builddir as in make check)
#   IBMGMT_SCRIPTS_FILTER=REGEX              only the cases whose line matches
#   IBMGMT_SCRIPTS_VERBOSE=1                 print each case and the start of its output
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require check_lft_balance ibfindnodesusing ibidsverify iblinkinfo ibroute dump_lfts
. "$top_srcdir/tests/fabric/our-tool.sh"
our_tool_libs "$top_builddir"

work=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-scripts.XXXXXX") || exit 99
trap 'fabric_stop; rm -rf "$work"' EXIT INT TERM HUP

pm=$(perl -MIBswcountlimits -e 'print $INC{"IBswcountlimits.pm"}' 2>/dev/null)
[ -n "$pm" ] || { echo "SKIP: IBswcountlimits.pm not found"; exit 77; }
mkdir -p "$work/perl"
sed 's#^\$IBswcountlimits::cache_dir *= .*#$IBswcountlimits::cache_dir = $ENV{IBMGMT_DIAGS_CACHE_DIR};#' "$pm" > "$work/perl/IBswcountlimits.pm"
grep -q 'ENV{IBMGMT_DIAGS_CACHE_DIR}' "$work/perl/IBswcountlimits.pm" ||
	{ echo "SKIP: cannot point IBswcountlimits.pm's cache_dir elsewhere"; exit 77; }

n=0 pass=0 fail=0

# normalise PROG < raw > clean: the program path becomes its name, pids and private paths
# become fixed text, libibmad's "ibwarn:" debug lines go.
normalise() {
	sed -e "s#$1#$(basename "$1")#g" -e "s#$(dirname "$1")/##g" -e "s#$work/[a-z]*-cache#CACHEDIR#g" -e "s#$work#WORK#g" \
	    -e 's/\[pid [0-9][0-9]*\]/[pid N]/g' | grep -v '^ibwarn: '
}

# one WHO HOST TOOL ARGS...: a run of the reference (WHO=ref) or ours, with its own cache
# directory ($work/<who>-cache, kept between the runs of a topology so that a run without
# -R reuses what the last one wrote, as on a real system).
one() {
	_who=$1 _host=$2 _tool=$3
	shift 3
	if [ "$_who" = ref ]; then
		_prog=$FABRIC_REF/$_tool
		set -- env PERL5LIB="$work/perl" IBMGMT_DIAGS_CACHE_DIR="$work/ref-cache" perl "$_prog" "$@"
	else
		_prog=$(our_tool "$top_builddir" "$_tool")
		# ours run our helper tools (what an installation has on PATH)
		# (utils/.libs first: with --enable-shared-tools the real binaries are there, and
		# utils/<tool> is libtool's wrapper, which would run them under another name)
		set -- env PATH="$top_builddir/utils/.libs:$top_builddir/utils:$PATH" IBMGMT_DIAGS_CACHE_DIR="$work/ours-cache" "$_prog" "$@"
	fi
	fabric_run "$_host" timeout -k 5 120 "$@" > "$work/$_who.raw1" 2> "$work/$_who.raw2" < /dev/null
	echo $? > "$work/$_who.rc"
	normalise "$_prog" < "$work/$_who.raw1" > "$work/$_who.out"
	normalise "$_prog" < "$work/$_who.raw2" > "$work/$_who.err"
}

# case HOST TOOL ARGS...: both, compared (stdout, stderr, exit status, and the topology
# file each left in its cache directory)
case_() {
	line="$cur_topo $*"
	if [ -n "${IBMGMT_SCRIPTS_FILTER:-}" ] && ! printf '%s\n' "$line" | grep -Eq -- "$IBMGMT_SCRIPTS_FILTER"; then
		return 0
	fi
	n=$((n + 1))
	one ref "$@"
	one ours "$@"
	ok=1
	for p in out err rc; do
		cmp -s "$work/ref.$p" "$work/ours.$p" || ok=0
	done
	for _cf in "$work"/ref-cache/*; do
		[ -f "$_cf" ] || continue
		_cg=$work/ours-cache/$(basename "$_cf")
		sed '/^# Topology file: generated on/d' "$_cf" > "$work/ref.topo"
		sed '/^# Topology file: generated on/d' "$_cg" > "$work/ours.topo" 2> /dev/null || : > "$work/ours.topo"
		cmp -s "$work/ref.topo" "$work/ours.topo" || { ok=0; echo "  cache file $(basename "$_cf") differs"; }
	done
	if [ -n "${IBMGMT_SCRIPTS_VERBOSE:-}" ]; then
		echo "case: $line (exit $(cat "$work/ours.rc"))"
		head -n 8 "$work/ours.out" "$work/ours.err" | sed 's/^/  /'
	fi
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $line"
		for p in out err rc; do
			cmp -s "$work/ref.$p" "$work/ours.$p" || diff -u "$work/ref.$p" "$work/ours.$p" | sed -n '3,30p' | sed 's/^/  /'
		done
	fi
}

# put TEXTFILE: the same topology file in both cache directories (default CA and port)
put() {
	for w in ref ours; do
		mkdir -p "$work/$w-cache"
		cp "$1" "$work/$w-cache/ibnetdiscover--.topology"
	done
}

start() { # TOPOLOGY HOST: a fresh fabric, empty cache directories, lft output and cache
	[ -z "${cur_topo:-}" ] || fabric_stop
	cur_topo=$1
	fabric_start "$top_srcdir/tests/fabric/topo/$1.net" || { echo "ERROR: cannot start $1"; exit 99; }
	rm -rf "$work/ref-cache" "$work/ours-cache"
	inputs "$2"
}

inputs() { # HOST: dump_lfts output, ibnetdiscover cache and -g topology seen from HOST
	fabric_run "$1" timeout -k 5 120 "$FABRIC_REF/dump_lfts" > "$work/lft" 2> /dev/null
	rm -f "$work/cache"
	fabric_run "$1" timeout -k 5 120 "$FABRIC_REF/ibnetdiscover" --cache "$work/cache" > /dev/null 2>&1
	fabric_run "$1" timeout -k 5 120 "$FABRIC_REF/ibnetdiscover" -g > "$work/topo" 2> /dev/null
	[ -s "$work/lft" ] && [ -s "$work/cache" ] && [ -s "$work/topo" ] ||
		{ echo "ERROR: cannot make the inputs on $cur_topo from $1"; exit 99; }
}

cur_topo=
# ---- two-switch: GUIDs sw-a 0x200000, sw-b 0x200001; HCAs hca-a1 0x100000 ... -------------
start two-switch hca-a1
# usage and option errors (Getopt::Std's messages and texts included)
case_ hca-a1 ibidsverify -h
case_ hca-a1 ibidsverify -x
case_ hca-a1 ibidsverify -Rx
case_ hca-a1 ibidsverify -C
case_ hca-a1 ibidsverify --version
case_ hca-a1 ibidsverify --help
case_ hca-a1 ibfindnodesusing -h
case_ hca-a1 ibfindnodesusing -q 0x200000 1
case_ hca-a1 check_lft_balance -h
case_ hca-a1 check_lft_balance
case_ hca-a1 check_lft_balance -l "$work/lft"
case_ hca-a1 check_lft_balance -i "$work/cache"
case_ hca-a1 check_lft_balance -l
case_ hca-a1 check_lft_balance -z -l "$work/lft" -i "$work/cache"
# ibidsverify: writes the topology first (no file yet), then reuses it, -R rewrites it
case_ hca-a1 ibidsverify
case_ hca-a1 ibidsverify
case_ hca-a1 ibidsverify -R
case_ hca-a1 ibidsverify -C ibsim0 -P 1
case_ hca-a1 ibidsverify -Cibsim0 -RP1
case_ hca-a1 ibidsverify -- -x
case_ hca-a1 ibidsverify -R extra operands
# ibfindnodesusing: every switch port form, both link directions, unknown switches/ports
case_ hca-a1 ibfindnodesusing 0x200000 1
case_ hca-a1 ibfindnodesusing 0x200000 7
case_ hca-a1 ibfindnodesusing 0x200001 8
case_ hca-a1 ibfindnodesusing 0x200001 3
case_ hca-a1 ibfindnodesusing 0x0000000000200000 4
case_ hca-a1 ibfindnodesusing 200001 2
case_ hca-a1 ibfindnodesusing 0X20000A 1
case_ hca-a1 ibfindnodesusing 0x200000 01
case_ hca-a1 ibfindnodesusing 0x200000 5
case_ hca-a1 ibfindnodesusing 0x200000 99
case_ hca-a1 ibfindnodesusing 0x200000 1abc
case_ hca-a1 ibfindnodesusing 0x999 1
case_ hca-a1 ibfindnodesusing sw-a 1
case_ hca-a1 ibfindnodesusing 0x200000
case_ hca-a1 ibfindnodesusing
case_ hca-a1 ibfindnodesusing -R 0x200001 7
case_ hca-a1 ibfindnodesusing -C ibsim0 -P 1 0x200000 2
case_ hca-b3 ibfindnodesusing -R 0x200001 3
# check_lft_balance
case_ hca-a1 check_lft_balance -l "$work/lft" -i "$work/cache"
case_ hca-a1 check_lft_balance -v -l "$work/lft" -i "$work/cache"
case_ hca-a1 check_lft_balance -ve -l "$work/lft" -i "$work/cache"
case_ hca-a1 check_lft_balance -v -l "$work/lft" -i "$work/nonexistent"
case_ hca-a1 check_lft_balance -v -l "$work/nonexistent" -i "$work/cache"
case_ hca-a1 check_lft_balance -v -l " $work/lft " -i "$work/cache"
case_ hca-a1 check_lft_balance -v -l "$work/cache" -i "$work/lft"
# hostile and odd topology files (the scripts read whatever is in the cache directory)
sed 's/lid 3 lmc 0/lid 0 lmc 0/; s/caguid=0x100009/caguid=0x10000c/; s/(10000a)/(10000d)/; s/lid 7 lmc/lid 6 lmc/' "$work/topo" > "$work/bad1"
put "$work/bad1"
case_ hca-a1 ibidsverify
case_ hca-a1 ibfindnodesusing 0x200001 1
sed 's/switchguid=0x200001(200001)/switchguid=0x200001(100000)/; s/caguid=0x100000/caguid=0/; s/(100001)/(0)/' "$work/topo" > "$work/bad2"
put "$work/bad2"
case_ hca-a1 ibidsverify
head -c 700 "$work/topo" > "$work/bad3"
put "$work/bad3"
case_ hca-a1 ibidsverify
case_ hca-a1 ibfindnodesusing 0x200001 1
case_ hca-a1 ibfindnodesusing 0x200000 1
printf '%s\n' 'Switch 3 "S-x" # "a\"S-y\" # b port 0 lid 5 lid 7 x' 'switchguid=a(b(c)d)e)' \
	'Switch 3 "S-x"  # q port lid 9 ' 'Ca 2 "H-1"' '[1](5) "S-1"# lid 5 lid 6 z' \
	'[2](5)	"H-2"[1] # lid 0 lid 0 ' 'Switch	2 "S-00ab"		# "0x00000000000000ab x" port 0 lid 4 lmc 0' \
	'[1][ext 3]	"H-0000000000100000"[1](100001) 		# "hca-a1" lid 2 4xSDR' \
	'[2]	"S-0000000000200000"[7][ext 9]		# "sw-a" lid 1 4xSDR' > "$work/bad4"
put "$work/bad4"
case_ hca-a1 ibidsverify
case_ hca-a1 ibfindnodesusing 0xab 1
case_ hca-a1 ibfindnodesusing 0xab 2
case_ hca-a1 ibfindnodesusing 0x00000000000000ab 3
head -c 4000 /dev/urandom > "$work/bad5"
put "$work/bad5"
case_ hca-a1 ibidsverify
case_ hca-a1 ibfindnodesusing 0x200000 1
printf '%s\n' 'Unicast lids x of switch Lid 1 guid 0x1 (a)' "0x1 001 : (Channel Adapter portguid 0x1: 9)" \
	'path foo' 'Router' 'Unicast nothing' '0x2 003 : (path #1 out of 2: portguid 0x5)' > "$work/lft-odd"
case_ hca-a1 check_lft_balance -v -l "$work/lft-odd" -i "$work/cache"
head -c 4000 /dev/urandom > "$work/lft-junk"
case_ hca-a1 check_lft_balance -v -l "$work/lft-junk" -i "$work/cache"
# a link down: the lft output and the cache made again
sweeps=$(fabric_sweeps)
fabric_console 'Unlink "sw-a"[8]' > /dev/null || { echo "ERROR: cannot unlink"; exit 99; }
fabric_wait_sweep "$sweeps" || { echo "ERROR: no sweep after the unlink"; exit 99; }
inputs hca-a1
case_ hca-a1 check_lft_balance -v -l "$work/lft" -i "$work/cache"
case_ hca-a1 ibfindnodesusing -R 0x200000 8
case_ hca-a1 ibidsverify -R

# ---- mixed: a router, widths and speeds, descriptions with spaces -------------------------
start mixed mx-h1
case_ mx-h1 ibidsverify
case_ mx-h1 ibfindnodesusing 0x200000 7
case_ mx-h1 ibfindnodesusing 0x200001 3
case_ mx-h1 ibfindnodesusing 0x200000 10
case_ mx-h1 check_lft_balance -v -l "$work/lft" -i "$work/cache"
case_ mx-h1 check_lft_balance -e -l "$work/lft" -i "$work/cache"

# ---- deep: 10 switches in a chain, dual-ported HCAs -----------------------------------------
start deep dp-h1
case_ dp-h1 ibidsverify
case_ dp-h1 ibfindnodesusing 0x200004 1
case_ dp-h1 ibfindnodesusing 0x200009 3
case_ dp-h1 check_lft_balance -v -l "$work/lft" -i "$work/cache"
case_ dp-h1 check_lft_balance -l "$work/lft" -i "$work/cache"

# ---- fat-tree: 24-port switches (ports beyond 12 in use), host ranges ----------------------
start fat-tree ft-h001
case_ ft-h001 ibidsverify
case_ ft-h001 ibfindnodesusing 0x200000 1
case_ ft-h001 ibfindnodesusing 0x200008 20
case_ ft-h001 ibfindnodesusing 0x200010 3
case_ ft-h001 check_lft_balance -l "$work/lft" -i "$work/cache"
case_ ft-h001 check_lft_balance -v -l "$work/lft" -i "$work/cache"
case_ ft-h001 check_lft_balance -ve -l "$work/lft" -i "$work/cache"

# -e's heuristics need an unbalanced switch with more than 12 live ports: dump_lfts output
# made up for ft-leaf24 (22 live ports in the cache), COUNT LIDs routed to each PORT
lft_for_leaf24() { # PORT:COUNT...
	echo 'Unicast lids [0x0-0x1] of switch Lid 99 guid 0x000000000020001f (ft-leaf24):'
	echo '  Lid  Out   Destination'
	echo '       Port     Info '
	lid=1
	for pc in "$@"; do
		c=${pc#*:}
		while [ "$c" -gt 0 ]; do
			printf "0x%04x %03d : (Channel Adapter portguid 0x%016x: 'node%d')\n" $lid "${pc%:*}" $lid $lid
			lid=$((lid + 1)) c=$((c - 1))
		done
	done
	echo "$((lid - 1)) valid lids dumped "
}
up="15:10 16:10 17:9 18:9 19:10 20:10 21:9 22:9"
lft_for_leaf24 $up 1:3 2:3 3:3 4:3 5:3 6:3 7:3 8:3 9:3 10:3 11:3 12:10 13:10 14:10 > "$work/lft-half"
lft_for_leaf24 $up 1:0 12:0 > "$work/lft-zero"
lft_for_leaf24 15:10 16:10 17:9 18:9 19:5 20:5 21:4 22:4 1:2 2:2 3:2 4:2 5:2 6:2 7:2 8:2 > "$work/lft-unbal"
for kind in half zero unbal; do
	case_ ft-h001 check_lft_balance -l "$work/lft-$kind" -i "$work/cache"
	case_ ft-h001 check_lft_balance -e -l "$work/lft-$kind" -i "$work/cache"
	case_ ft-h001 check_lft_balance -ve -l "$work/lft-$kind" -i "$work/cache"
done

echo "$n cases against the reference scripts: $pass passed, $fail failed"
[ "$n" -gt 0 ] || exit 77
[ "$fail" -eq 0 ]
