#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Differential tests of ibprintca, ibprintrt, ibprintswitch and ibswportwatch against the
# original infiniband-diags Perl scripts, on the simulated fabric.
#
# Debian's infiniband-diags does not install those scripts (rdma-core builds them only with
# ENABLE_IBDIAGS_COMPAT, and its Debian flavour names them without ".pl"), so the reference
# is made here, as tests/fabric/legacy-checks.sh makes its own: the scripts'
# sources (infiniband-diags/scripts/<name>.pl) from
#   IBMGMT_LEGACY_SCRIPTS=DIR          a directory holding them, or
#   IBMGMT_RDMA_CORE_GIT=GITDIR        an rdma-core git repository (HEAD is read),
# installed under their Debian names in a directory that also holds (links to) the
# reference tools of $IBMGMT_REF_BINDIR (default /usr/sbin): the scripts run the
# reference's ibnetdiscover, ibhosts, ibswitches, ibrouters and perfquery from PATH.  Ours
# run ours (the build's utils/ first on PATH), as each is installed.
#
# The scripts keep their files in /var/cache/infiniband-diags (IBswcountlimits.pm), which a
# test must not touch: each side gets a private cache directory, ours through
# IBMGMT_DIAGS_CACHE_DIR, the scripts through a copy of IBswcountlimits.pm whose cache_dir
# is that variable (PERL5LIB), as in tests/fabric/script-tools.sh.  A run without -R reuses
# what the last run of the topology left there, as on a real system; `put` places the same
# topology file in both (a hand-made or damaged one: the "topology file input" of these
# tools).  After each case the topology files the two sides left are compared too.
#
# Without the sources (a machine with no rdma-core tree, as CI), ours are compared with the
# originals' results recorded in tests/fabric/cases/expected/print/ (one file per case,
# named by the cksum of its line; a line that comes again gets "#<n>" added):
#   IBMGMT_LEGACY_RECORD=1   with the sources: (re)write those records from the originals
#
# ibswportwatch lists its rates in the order of Perl hashes, which changes from run to run
# (PERL_HASH_SEED): each run of consecutive "Detected ..." lines, and of "   <n> X/second"
# lines, is sorted before comparing.  Its counter rates are tested with a stand-in perfquery
# (first on PATH for both) that answers each call with the next of a set of counter files,
# so the rates are known; and on the fabric, on ports whose counters nothing moves.
#
#   sh tests/fabric/print-tools.sh          (top_srcdir, top_builddir as in make check)
#   IBMGMT_PRINT_FILTER=REGEX               only the cases whose line matches
#   IBMGMT_PRINT_VERBOSE=1                  print each case and the start of its output
set -u
unset IBPATH
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require ibnetdiscover ibhosts ibswitches ibrouters perfquery
. "$top_srcdir/tests/fabric/our-tool.sh"
our_tool_libs "$top_builddir"
ref_tools=${IBMGMT_REF_BINDIR:-/usr/sbin}
scripts="ibprintca ibprintrt ibprintswitch ibswportwatch"

records=$top_srcdir/tests/fabric/cases/expected/print
recorded=
if [ -z "${IBMGMT_LEGACY_SCRIPTS:-}" ] && [ -z "${IBMGMT_RDMA_CORE_GIT:-}" ]; then
	[ -d "$records" ] || { echo "ERROR: no original scripts and no records in $records"; exit 99; }
	echo "no original scripts (IBMGMT_LEGACY_SCRIPTS, IBMGMT_RDMA_CORE_GIT): comparing with their recorded results"
	recorded=1
elif ! command -v perl > /dev/null; then
	echo "SKIP: no perl to run the original scripts"
	exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-print.XXXXXX") || exit 99
trap 'fabric_stop; rm -rf "$work"' EXIT INT TERM HUP
refbin=$work/refbin
mkdir -p "$refbin" "$work/perl" "$work/fakebin"

# original SOURCE-NAME: a file of infiniband-diags/scripts on stdout
original() {
	if [ -n "${IBMGMT_LEGACY_SCRIPTS:-}" ]; then
		cat "$IBMGMT_LEGACY_SCRIPTS/$1"
	else
		git -C "$IBMGMT_RDMA_CORE_GIT" show "HEAD:infiniband-diags/scripts/$1"
	fi
}
if [ -z "$recorded" ]; then
	for t in "$ref_tools"/*; do
		ln -s "$t" "$refbin/${t##*/}"
	done
	for s in $scripts; do
		rm -f "$refbin/$s"
		original "$s.pl" > "$refbin/$s" 2> /dev/null && [ -s "$refbin/$s" ] ||
			{ echo "SKIP: no original $s.pl"; exit 77; }
		chmod +x "$refbin/$s"
	done
	original IBswcountlimits.pm > "$work/IBswcountlimits.pm" 2> /dev/null && [ -s "$work/IBswcountlimits.pm" ] ||
		{ echo "SKIP: no original IBswcountlimits.pm"; exit 77; }
	sed 's#^\$IBswcountlimits::cache_dir *= .*#$IBswcountlimits::cache_dir = $ENV{IBMGMT_DIAGS_CACHE_DIR};#' \
		"$work/IBswcountlimits.pm" > "$work/perl/IBswcountlimits.pm"
	grep -q 'ENV{IBMGMT_DIAGS_CACHE_DIR}' "$work/perl/IBswcountlimits.pm" ||
		{ echo "ERROR: cannot point IBswcountlimits.pm's cache_dir elsewhere"; exit 99; }
	[ -z "${IBMGMT_LEGACY_RECORD:-}" ] || { rm -rf "$records"; mkdir -p "$records"; }
fi

# The stand-in perfquery: each call prints the next file $IBMGMT_FAKE_PQ.<n> (the last one
# again when there are no more), or fails as perfquery does for a file that says "fail".
cat > "$work/fakebin/perfquery" <<'EOF'
#!/bin/sh
n=$(cat "$IBMGMT_FAKE_PQ.calls" 2>/dev/null || echo 0)
n=$((n + 1))
echo $n > "$IBMGMT_FAKE_PQ.calls"
f=$IBMGMT_FAKE_PQ.$n
[ -f "$f" ] || f=$(ls "$IBMGMT_FAKE_PQ".[0-9]* | sort -t. -k2n | tail -n 1)
if [ "$(cat "$f")" = fail ]; then
	echo "ibwarn: [1] main: perfquery: iberror: failed: perfquery stand-in" >&2
	exit 255
fi
cat "$f"
EOF
chmod +x "$work/fakebin/perfquery"
fake=

n=0 pass=0 fail=0

# normalise PROG < raw > clean: the program path becomes its name, private paths fixed text,
# pids "N"; libibmad's "ibwarn:" debug lines go; ibswportwatch's rate lines (in the order
# of Perl's hashes) are sorted within each run of them.
normalise() {
	sed -e "s#$1#$(basename "$1")#g" -e "s#$(dirname "$1")/##g" -e "s#$work/perl/#/usr/share/perl5/#g" \
	    -e "s#$work/[a-z]*-cache#CACHEDIR#g" -e "s#$work#WORK#g" \
	    -e 's/\[pid [0-9][0-9]*\]/[pid N]/g' -e 's/^# Topology file: generated on .*/# Topology file: generated on DATE/' |
		grep -v '^ibwarn: ' |
		awk '{
			t = /^Detected / ? 1 : /^   [-+.0-9e]+ [A-Za-z]+\/second$/ ? 2 : 0
			if (!t || t != last) b++
			last = t
			printf "%08d\t%s\n", b, $0
		}' | sort -s -k1,1 -k2 | cut -f2-
}

# record OUTPREFIX > file, unrecord FILE OUTPREFIX: a case's result in one file (stdout, a
# line "--- stderr", stderr, a line "--- exit N", a line "--- topology", the cksum of the
# topology files the run left in its cache directory: the whole files would be big)
record() {
	cat "$1.out"; echo "--- stderr"; cat "$1.err"; echo "--- exit $(cat "$1.rc")"
	echo "--- topology"; cat "$1.tsum"
}
unrecord() {
	awk -v o="$2" '
		BEGIN { f = o ".out"; printf "" > (o ".out"); printf "" > (o ".err"); printf "" > (o ".tsum") }
		$0 == "--- stderr" && f == o ".out" { f = o ".err"; next }
		/^--- exit [0-9]+$/ && f == o ".err" { print $3 > (o ".rc"); f = ""; next }
		$0 == "--- topology" && f == "" { f = o ".tsum"; next }
		f != "" { print > f }' "$1"
}

# one WHO HOST TOOL ARGS...: a run of the reference (WHO=ref) or ours, with its own cache
# directory ($work/<who>-cache, kept between the runs of a topology)
one() {
	_who=$1 _host=$2 _tool=$3
	shift 3
	_path=$PATH
	[ -z "$fake" ] || { _path=$work/fakebin:$_path; rm -f "$fake.calls"; }
	if [ "$_who" = ref ]; then
		_prog=$refbin/$_tool
		set -- env PATH="$refbin:$_path" PERL5LIB="$work/perl" IBMGMT_DIAGS_CACHE_DIR="$work/ref-cache" \
			IBMGMT_FAKE_PQ="$fake" "$_prog" "$@"
	else
		_prog=$(our_tool "$top_builddir" "$_tool")
		# (utils/.libs first: with --enable-shared-tools the real binaries are there, and
		# utils/<tool> is libtool's wrapper, which would run them under another name)
		set -- env PATH="$top_builddir/utils/.libs:$top_builddir/utils:$_path" \
			IBMGMT_DIAGS_CACHE_DIR="$work/ours-cache" IBMGMT_FAKE_PQ="$fake" "$_prog" "$@"
	fi
	fabric_run "$_host" timeout -k 5 120 "$@" > "$work/$_who.raw1" 2> "$work/$_who.raw2" < /dev/null
	echo $? > "$work/$_who.rc"
	normalise "$_prog" < "$work/$_who.raw1" > "$work/$_who.out"
	normalise "$_prog" < "$work/$_who.raw2" > "$work/$_who.err"
	: > "$work/$_who.topo"
	for _cf in "$work/$_who-cache"/*.topology; do
		[ -f "$_cf" ] || continue
		{ echo "# ${_cf##*/}"; normalise "$_prog" < "$_cf"; } >> "$work/$_who.topo"
	done
	cksum < "$work/$_who.topo" > "$work/$_who.tsum"
}

# case_ HOST TOOL ARGS...: both, compared (stdout, stderr, exit status, topology files)
case_() {
	line=$(printf '%s' "$cur_topo $*" | sed "s#$work#WORK#g")
	if [ -n "${IBMGMT_PRINT_FILTER:-}" ] && ! printf '%s\n' "$line" | grep -Eq -- "$IBMGMT_PRINT_FILTER"; then
		return 0
	fi
	n=$((n + 1))
	# the record's name: the line's cksum, "#<k>" added when the line came k-1 times before
	printf '%s\n' "$line" >> "$work/lines"
	_k=$(grep -cxF -- "$line" "$work/lines")
	[ "$_k" -eq 1 ] || line="$line #$_k"
	_rec=$records/$(printf '%s' "$line" | cksum | cut -d' ' -f1)
	if [ -n "$recorded" ]; then
		if [ -f "$_rec" ]; then
			unrecord "$_rec" "$work/ref"
		else
			echo "no recorded result $_rec" > "$work/ref.out"
			: > "$work/ref.err"; : > "$work/ref.tsum"; echo none > "$work/ref.rc"
		fi
	else
		one ref "$@"
		[ -z "${IBMGMT_LEGACY_RECORD:-}" ] || record "$work/ref" > "$_rec"
	fi
	one ours "$@"
	ok=1
	for p in out err rc tsum; do
		cmp -s "$work/ref.$p" "$work/ours.$p" || ok=0
	done
	if [ -n "${IBMGMT_PRINT_VERBOSE:-}" ]; then
		echo "case: $line (exit $(cat "$work/ours.rc"))"
		head -n 8 "$work/ours.out" "$work/ours.err" | sed 's/^/  /'
	fi
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $line"
		cmp -s "$work/ref.tsum" "$work/ours.tsum" || echo "  the topology files differ"
		for p in out err rc topo; do
			[ -z "$recorded" ] || [ $p != topo ] || continue
			cmp -s "$work/ref.$p" "$work/ours.$p" || diff -u "$work/ref.$p" "$work/ours.$p" | sed -n '3,30p' | sed 's/^/  /'
		done
	fi
}

# put FILE: the same topology file in both cache directories (default CA and port)
put() {
	for w in ref ours; do
		mkdir -p "$work/$w-cache"
		cp "$1" "$work/$w-cache/ibnetdiscover--.topology"
	done
}

start() { # TOPOLOGY: a fresh fabric, empty cache directories
	[ -z "${cur_topo:-}" ] || fabric_stop
	cur_topo=$1
	fabric_start "$top_srcdir/tests/fabric/topo/$1.net" || { echo "ERROR: cannot start $1"; exit 99; }
	rm -rf "$work/ref-cache" "$work/ours-cache"
}

# relink_wait CMD: an ibsim console Unlink/ReLink, then OpenSM's sweep
link_cmd() {
	_sw=$(fabric_sweeps)
	fabric_console "$1" > /dev/null || { echo "ERROR: console: $1"; exit 99; }
	fabric_wait_sweep "$_sw" || { echo "ERROR: no OpenSM sweep after: $1"; exit 99; }
}

# pq SET VALUES...: the stand-in perfquery's answer number SET for the next cases, the 16
# counters of IBswcountlimits.pm in its order (a "fail" set makes that call fail)
pq() {
	fake=$work/pq
	_set=$1
	shift
	if [ "$1" = fail ]; then
		echo fail > "$fake.$_set"
		return
	fi
	{
		echo "# Port counters: Lid 1 port 10 (CapMask: 0x1400)"
		echo "PortSelect:......................10"
		echo "CounterSelect:...................0x0000"
		for c in SymbolErrorCounter LinkErrorRecoveryCounter LinkDownedCounter PortRcvErrors \
			PortRcvRemotePhysicalErrors PortRcvSwitchRelayErrors PortXmitDiscards \
			PortXmitConstraintErrors PortRcvConstraintErrors CounterSelect2 \
			LocalLinkIntegrityErrors ExcessiveBufferOverrunErrors VL15Dropped PortXmitData \
			PortRcvData PortXmitPkts PortRcvPkts PortXmitWait; do
			case $c in
			CounterSelect2) echo "CounterSelect2:..................0x00" ;;
			PortXmitWait) echo "PortXmitWait:....................0" ;;
			*) printf '%s:%s%s\n' "$c" "$(printf '%.*s' $((32 - ${#c})) '................................')" "$1"; shift ;;
			esac
		done
	} > "$fake.$_set"
}
pq_clear() { fake=; rm -f "$work"/pq.*; }

cur_topo=
# ---- two-switch: GUIDs sw-a 0x200000, sw-b 0x200001; hca-a1 0x100000, hca-a2 0x100003 ... --
start two-switch
# usage and option errors (Getopt::Std's messages included)
for t in ibprintca ibprintrt ibprintswitch ibswportwatch; do
	case_ hca-a1 $t -h
	case_ hca-a1 $t -x
done
for t in ibprintca ibprintrt ibprintswitch; do
	case_ hca-a1 $t --help
done
# (Getopt::Std goes on after --help and --version: ibswportwatch then polls, by default for
# ever, every 10 s)
case_ hca-a1 ibswportwatch --help -n 1 -p 0.5 -G 0x200000 10
case_ hca-a1 ibswportwatch --version -n 1 -p 0.5 1 10
case_ hca-a1 ibprintca -C
case_ hca-a1 ibprintswitch -Rx sw-a
case_ hca-a1 ibswportwatch -p
case_ hca-a1 ibswportwatch -n
case_ hca-a1 ibswportwatch -q 1 10
# no topology yet: the first run writes it, the next ones read it
case_ hca-a1 ibprintca hca-a1
case_ hca-a1 ibprintca
case_ hca-a1 ibprintca hca-b3
case_ hca-a1 ibprintca -G 0x100003
case_ hca-a1 ibprintca -G 100006
case_ hca-a1 ibprintca -G 0X10000F
case_ hca-a1 ibprintca -G 0x000000000010000c
case_ hca-a1 ibprintca -G
case_ hca-a1 ibprintca -G hca-a1
case_ hca-a1 ibprintca 0x0000000000100009
case_ hca-a1 ibprintca 0x100009
case_ hca-a1 ibprintca nothere
case_ hca-a1 ibprintca hca
case_ hca-a1 ibprintca 'hca-a.'
case_ hca-a1 ibprintca 'hca-b[12]'
case_ hca-a1 ibprintca '.*'
case_ hca-a1 ibprintca -l
case_ hca-a1 ibprintca -l hca-a1
case_ hca-a1 ibprintca -- -l
case_ hca-a1 ibprintswitch sw-a
case_ hca-a1 ibprintswitch sw-b
case_ hca-a1 ibprintswitch -G 200001
case_ hca-a1 ibprintswitch 0x0000000000200000
case_ hca-a1 ibprintswitch 'sw-.'
case_ hca-a1 ibprintswitch sw-c
case_ hca-a1 ibprintswitch hca-a1
case_ hca-a1 ibprintswitch -l
case_ hca-a1 ibprintswitch
case_ hca-a1 ibprintrt -l
case_ hca-a1 ibprintrt x
case_ hca-a1 ibprintrt -G 0x300000
case_ hca-a1 ibprintrt
# -R writes the topology again, -C/-P choose the port (and the file's name)
case_ hca-b3 ibprintca -R hca-b3
case_ hca-b3 ibprintca -C ibsim0 -P 2 hca-a1
case_ hca-b3 ibprintca -C ibsim0 -P 2 -R hca-a2
case_ hca-b3 ibprintswitch -Cibsim0 -P1 sw-b
case_ hca-b3 ibprintca -C nodev hca-a1
case_ hca-b3 ibprintca -C nodev -R -l
case_ hca-b3 ibprintrt -P 9 -R x
# a port down: -R sees it, a run without -R still reads the old topology
link_cmd 'Unlink "sw-a"[2]'
case_ hca-a1 ibprintca hca-a2
case_ hca-a1 ibprintca -R hca-a2
case_ hca-a1 ibprintswitch -R sw-b
case_ hca-a1 ibprintca -l
link_cmd 'ReLink "sw-a"[2]'
link_cmd 'Unlink "sw-a"[7]'
case_ hca-a1 ibprintswitch -R sw-b
case_ hca-a1 ibprintswitch -G 0x200001
link_cmd 'ReLink "sw-a"[7]'
# MADs dropped at sw-b: the topology misses what lies behind it
fabric_console 'Error "sw-b" 100' > /dev/null || { echo "ERROR: cannot drop at sw-b"; exit 99; }
case_ hca-a1 ibprintca -R hca-b1
case_ hca-a1 ibprintswitch sw-b
fabric_console 'Error "sw-b" 0' > /dev/null || { echo "ERROR: cannot stop the drops at sw-b"; exit 99; }
case_ hca-a1 ibprintca -R hca-b1

# topology files made by hand: several matches, odd lines, no file, a directory
fabric_run hca-a1 "$ref_tools/ibnetdiscover" -g > "$work/topo" 2> /dev/null || { echo "ERROR: no topology"; exit 99; }
sed 's/"hca-b1"/"hca-a1"/; s/"sw-a" base/"sw-b" base/' "$work/topo" > "$work/dup"
put "$work/dup"
case_ hca-a1 ibprintca hca-a1
case_ hca-a1 ibprintswitch sw-b
case_ hca-a1 ibprintca -G 0x100009
{
	echo 'Ca	2 "H-00000000000000a1"		# "first one"'
	echo '[2](a3)	"S-1"[3]		# port two'
	echo '[1](a2)	"S-1"[4]		# port one'
	echo '[10](a4)	"S-1"[5]		# port ten'
	echo 'Switch	4 "S-0000000000000001"		# "sw one" port 0 lid 1'
	echo '[1]	"H-00000000000000a1"[1]		# x'
	echo '[3]	"H-00000000000000b1"[1]		# y'
	echo 'Ca	2 "H-00000000000000b1"		# "second one"'
	echo '[1](b2)	"S-1"[3]		# port one again'
	echo 'Ca	1 "H-00000000000000c1"		# "third"'
	echo 'Rt	2 "R-00000000000000d1"		# "router one"'
	echo '[1](d2)	"S-1"[9]		# rt port one'
	echo 'Rt	2 "R-00000000000000e1"		# "router two"'
	echo '[1](e2)	"S-1"[8]		# rt2 port one'
	echo 'Switch	4 "S-0000000000000002"		# "sw two" enhanced port 0 lid 2'
	echo '[2]	"H-00000000000000b1"[1]		# z'
	echo 'Switch	4 "S-0000000000000003"		# "sw three" port 0 lid 3'
	printf '%s' '[4]	"H-00000000000000b1"[1]		# no newline'
} > "$work/odd"
put "$work/odd"
case_ hca-a1 ibprintca one
case_ hca-a1 ibprintca first
case_ hca-a1 ibprintca -G a1
case_ hca-a1 ibprintca third
case_ hca-a1 ibprintrt one
case_ hca-a1 ibprintrt 'router t.o'
case_ hca-a1 ibprintrt -G e1
case_ hca-a1 ibprintswitch sw
case_ hca-a1 ibprintswitch one
case_ hca-a1 ibprintswitch three
case_ hca-a1 ibprintswitch -G 2
head -c 3000 /dev/zero | tr '\0' 'x' > "$work/junk"
put "$work/junk"
case_ hca-a1 ibprintca hca-a1
case_ hca-a1 ibprintswitch -l
: > "$work/empty"
put "$work/empty"
case_ hca-a1 ibprintrt x
rm -rf "$work/ref-cache" "$work/ours-cache"
# the cache directory cannot be made (a file is in its place)
touch "$work/ref-cache" "$work/ours-cache"
case_ hca-a1 ibprintswitch sw-a
case_ hca-a1 ibswportwatch -p 0.5 -n 1 1 10
rm -f "$work/ref-cache" "$work/ours-cache"

# ibswportwatch with the stand-in perfquery: rates below, at and above the threshold,
# counters that go back, -p with fractions (int(0.5) = 0 s of sleep), -b, -v, -G
pq 1 0 0 0 0 0 0 0 0 0 0 0 0 1000 2000 10 20
pq 2 5 20 1 3 0 0 11 0 0 10 2 0 1500 2600 15 26
pq 3 5 25 1 2 0 0 11 0 0 31 2 0 1400 2600 14 26
case_ hca-a1 ibswportwatch -p 1 -n 1 1 10
case_ hca-a1 ibswportwatch -p 0.5 -n 2 1 10
case_ hca-a1 ibswportwatch -p 0.5 -n 2 -v -b 1 10
case_ hca-a1 ibswportwatch -p 0.25 -n 3 -bv -G 0x200000 10
case_ hca-a1 ibswportwatch -p 0.3 -n 2 -b 1 10
case_ hca-a1 ibswportwatch -p -2 -n 2 -b 1 10
case_ hca-a1 ibswportwatch -p 2 -n 0 1 10
case_ hca-a1 ibswportwatch -p 0.5 -n x 1 10
case_ hca-a1 ibswportwatch -p 0 -n 1 1 10
case_ hca-a1 ibswportwatch -p abc -n 1 -v 1 10
# (-n 1.5 would poll for ever: 1.5, 0.5, -0.5 ... never 0)
case_ hca-a1 ibswportwatch -p 0.5 -n 1 -b
case_ hca-a1 ibswportwatch -p -0.9 -n 1 -b
case_ hca-a1 ibswportwatch -p 0.5 -n 2.0 -v 1 10
pq 2 fail
case_ hca-a1 ibswportwatch -p 0.5 -n 2 1 10
pq 1 fail
case_ hca-a1 ibswportwatch -p 0.5 -n 2 -G 0x200000 10
pq_clear
# on the fabric: sw-a port 10 (nothing connected) carries no traffic, so its counters stay
# what the set-up made them
for c in 'PerformanceSet "sw-a"[10] PortCounters.SymbolErrorCounter=7' \
	'PerformanceSet "sw-a"[10] PortCounters.VL15Dropped=4' \
	'PerformanceSet "sw-a"[10] PortCounters.PortXmitData=123456789' \
	'PerformanceSet "sw-a"[10] PortCounters.PortRcvPkts=4000'; do
	fabric_console "$c" > /dev/null || { echo "ERROR: set-up failed: $c"; exit 99; }
done
case_ hca-a1 ibswportwatch -p 0.5 -n 2 -v -b 1 10
case_ hca-a1 ibswportwatch -p 1 -n 1 -G 0x200000 10
case_ hca-a1 ibswportwatch -p 0.5 -n 1 -b 99 1
case_ hca-a1 ibswportwatch -p 0.5 -n 1 -G 0x999 1
case_ hca-a1 ibswportwatch -p 0.5 -n 1 1 99

# ---- mixed: a router, descriptions with spaces, several nodes of one name -----------------
start mixed
case_ mx-h1 ibprintrt -l
case_ mx-h1 ibprintrt mx-rt1
case_ mx-h1 ibprintrt router
case_ mx-h1 ibprintrt -G 0x300000
case_ mx-h1 ibprintca mx-h8
case_ mx-h1 ibprintca HCA-1
case_ mx-h1 ibprintca 'mx-h[1-3]'
case_ mx-h1 ibprintca 'mx-h8 HCA-1'
# the operand is a Perl regular expression: alternatives, and Perl's fatal errors
case_ mx-h1 ibprintca 'mx-h1|mx-h7'
case_ mx-h1 ibprintca 'x|'
case_ mx-h1 ibprintca 'mx-h(1)'
case_ mx-h1 ibprintca 'mx-h('
case_ mx-h1 ibprintca 'a)(b'
case_ mx-h1 ibprintswitch 'mx-sw2**'
case_ mx-h1 ibprintrt 'm(x-(rt1)'
case_ mx-h1 ibprintrt -G '(x'
case_ mx-h1 ibprintca -l
case_ mx-h1 ibprintswitch mx-sw2
case_ mx-h1 ibprintswitch -l
link_cmd 'Unlink "mx-sw2"[3]'
case_ mx-h1 ibprintrt -R mx-rt1
case_ mx-h1 ibprintrt -R -l
link_cmd 'ReLink "mx-sw2"[3]'

# ---- deep: 10 switches in a chain, dual-ported HCAs, a router, two down links ---------------
start deep
case_ dp-h1 ibprintswitch -R dp-sw5
case_ dp-h1 ibprintswitch dp-sw1
case_ dp-h1 ibprintswitch -G 0x200009
case_ dp-h1 ibprintca dp-h3
case_ dp-h1 ibprintca dp-h6
case_ dp-h1 ibprintrt dp-rt1
case_ dp-h1 ibprintrt -l
case_ dp-h1 ibprintswitch -l
case_ dp-h1 ibprintca -C ibsim0 -P 2 -R dp-h1

# ---- fat-tree: 368 nodes -------------------------------------------------------------------
start fat-tree
case_ ft-h001 ibprintswitch ft-spine01
case_ ft-h001 ibprintswitch ft-leaf24
case_ ft-h001 ibprintca ft-h336
case_ ft-h001 ibprintca -G 0x100000
case_ ft-h001 ibprintswitch -l

# ---- chassis: ibnetdiscover -g groups the nodes into chassis ([ext N] ports) -------------
start chassis
case_ host-1 ibprintswitch vln1
case_ host-1 ibprintswitch 'ISR9096'
case_ host-1 ibprintswitch 'MF0;mlx-sys:IS5600/L05/U1'
case_ host-1 ibprintswitch 'slot'
case_ host-1 ibprintca host-2
case_ host-1 ibprintca 'router module'
case_ host-1 ibprintca -l
case_ host-1 ibprintswitch -l

echo "$n cases against the original scripts$([ -z "$recorded" ] || echo "' recorded results"): $pass passed, $fail failed"
[ "$n" -gt 0 ] || exit 77
[ "$fail" -eq 0 ]
