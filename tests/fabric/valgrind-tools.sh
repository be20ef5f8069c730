#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every tool of the build (IBMGMT_TOOLS) under valgrind's memcheck, one representative case
# each, on the simulated fabric (tests/fabric/fabric.sh) or, for the tools that need none
# (decode_mad, ibcacheedit, subnet_diff on cache files, set_nodedesc on a fake sysfs), without
# it; also ibstruct-decode (built, not installed).  The test fails on any memcheck error or
# definite leak and prints the valgrind log of the failing run; it also fails when a tool of
# IBMGMT_TOOLS has no case here, so that a new tool cannot be forgotten (issue 14: "valgrind
# clean on every tool in one case each").
#
# How the tools run.  Each case runs the tool through a wrapper directory ($work/bin), which
# holds, for every tool of ours that is a program, a small script that runs valgrind on the
# real binary, and for every tool that is a shell script a symbolic link to it.  The
# directory is first on PATH and is the scripts' IBPATH, so:
#   - a program runs under valgrind, and so does every tool of ours it starts (popen of
#     ibnetdiscover, iblinkinfo, ibroute by ibidsverify, ibfindnodesusing, check_lft_balance);
#   - a shell script (ibhosts & co., dump_lfts, the ibcheck* family) runs natively, and every
#     program of ours it calls ($IBPATH/perfquery, $(dirname $0)/dump_fts) runs under valgrind.
# The case's own tool always runs under valgrind.  A program of ours that a tool or script
# starts runs under valgrind the first time this test sees its arguments' shape (numbers
# masked: the ibcheck* scripts run "ibaddr -L 2", "smpquery nodeinfo 2", "perfquery 2 1" for
# every port and in every case), and natively after that: it would take the same path again,
# and each valgrind run costs a second or more of CPU here.  So a script's case may run no
# valgrind process of its own when every call it makes was checked in an earlier case.
# Not valgrind --trace-children=yes with --trace-children-skip for the system tools: a skipped
# process's children are never traced, and the ibcheck* scripts start the per-node checks
# from awk's system(), so perfquery and smpquery there would run untraced unless awk and
# every /bin/sh were traced too; their errors are not ours, and each traced shell costs
# another half second of valgrind start-up.  The shell scripts hold no memory of their own to
# check: what valgrind can check in them is the programs they run.
#
# Every valgrind process writes its own log (--log-file=<case>.<tool>.%p.log;
# --child-silent-after-fork keeps popen's forks out); a case passes when a program of ours
# ran in it, every valgrind log ends with "ERROR SUMMARY: 0 errors", and the tool's exit
# status is the expected one (so that a case does not quietly test an error path instead).
# valgrind: --error-exitcode=86 (no tool of ours exits 86) --leak-check=full
# --errors-for-leak-kinds=definite --show-leak-kinds=definite, and the suppressions in
# tests/fabric/valgrind.supp (umad2sim and libc frames only, each explained there).  Since
# one of those (the unset padding umad2sim sends) would also hide uninitialised bytes of the
# MADs our code sends, every fabric client also preloads tests/fabric/vg-umad-check.c in
# front of umad2sim: it writes each buffer sent to a umad device to /dev/null first, where
# memcheck checks every byte of it.
#
# With --enable-shared-tools (distcheck) utils/<tool> is libtool's wrapper script: valgrind
# then runs the real binary in utils/.libs, with each library's .libs on LD_LIBRARY_PATH, as
# the other tests do (tests/fabric/our-tool.sh).  umad2sim stays LD_PRELOADed: valgrind
# keeps the client's LD_PRELOAD after its own preloads (checked: ibstat reads umad2sim's fake
# sysfs), and umad2sim attaches to ibsim only when the process opens /sys/class/infiniband
# or /dev/infiniband, which the valgrind launcher never does.
#
# Servers (ibping -S, ibsysstat -S) run under valgrind on nodes of their own with
# SIM_SET_ISSM=1 and OpenSM's ignore_other_sm, as tests/fabric/responders.sh runs them; a
# client of ours asks them once, then they are stopped with SIGTERM (what stops the
# reference's servers too; valgrind still writes its summary and leak check when the client
# dies of a signal) and their ibsim client slot is freed (fabric_reap).
#
# Skips (exit 77): in a sanitizer build (TEST_CFLAGS, exported by make check, holds
# -fsanitize: ASan and valgrind do not mix), and when valgrind or the simulator's packages are
# missing -- unless IBMGMT_REQUIRE_FABRIC=1 (CI), when a missing valgrind or package fails.
#
#   sh tests/fabric/valgrind-tools.sh         (top_srcdir, top_builddir as in make check)
#   IBMGMT_VALGRIND_ONLY=REGEX                only the cases of the tools whose name matches
#   IBMGMT_VALGRIND_VERBOSE=1                 each case's time and output
#   IBMGMT_VALGRIND=PATH                      another valgrind
#   IBMGMT_VALGRIND_KEEP=1                    keep the work directory with every valgrind log
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)

# ---- a sanitizer build: no valgrind ---------------------------------------------------------
if [ -n "${TEST_CFLAGS+set}" ]; then
	san=$TEST_CFLAGS
else
	san=$(sed -n 's/^SANITIZER_CFLAGS = //p' "$top_builddir/Makefile" 2>/dev/null)
fi
case $san in
*-fsanitize*)
	echo "SKIP: sanitizer build (ASan and valgrind do not mix)"
	exit 77
	;;
esac

# ---- valgrind --------------------------------------------------------------------------------
vg=${IBMGMT_VALGRIND:-valgrind}
if ! command -v "$vg" > /dev/null 2>&1 || ! "$vg" --tool=memcheck --version > /dev/null 2>&1; then
	if [ "${IBMGMT_REQUIRE_FABRIC:-0}" = 1 ]; then
		echo "ERROR: valgrind not found (package valgrind; IBMGMT_REQUIRE_FABRIC=1)"
		exit 1
	fi
	echo "SKIP: valgrind not found (package valgrind)"
	exit 77
fi
vg=$(command -v "$vg")

. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require
. "$top_srcdir/tests/fabric/our-tool.sh"
our_tool_libs "$top_builddir"

# ---- the tools of the build ------------------------------------------------------------------
# make check exports IBMGMT_TOOLS; run alone, the test asks the build's Makefile
if [ -z "${IBMGMT_TOOLS:-}" ]; then
	IBMGMT_TOOLS=$(our_tool_list "$top_builddir")
	[ -n "$IBMGMT_TOOLS" ] || { echo "ERROR: cannot read IBMGMT_TOOLS from $top_builddir/Makefile"; exit 99; }
fi

work=$(mktemp -d "${IBMGMT_FABRIC_TMPDIR:-/dev/shm}/ibmgmt-valgrind.XXXXXX" 2>/dev/null) ||
	work=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-valgrind.XXXXXX") || { echo "ERROR: no work directory"; exit 99; }
cleanup() {
	if [ "${IBMGMT_VALGRIND_KEEP:-0}" = 1 ]; then
		echo "(work directory and valgrind logs kept in $work)"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
mkdir "$work/bin" "$work/logs" "$work/once" "$work/calls" "$work/run" "$work/diags-cache" || exit 99
logs=$work/logs
cases_data=$top_srcdir/tests/fabric/cases/data

# ---- the cases -------------------------------------------------------------------------------
# <tool> <node> <exit status> <arguments...>: <node> is the simulated node the tool runs on,
# or "-" for no fabric.  In the arguments @W@ is the work directory, @DATA@
# tests/fabric/cases/data, @TOPO@ a topology file of one CA (hca-a1 and its port 1, from
# ibnetdiscover), so that the whole-fabric ibcheck* scripts run each per-node check once.
# LIDs (two-switch.net, OpenSM on sw-a): sw-a 1, hca-a1 2, sw-b 3, hca-a2 4, hca-a3 5,
# hca-b1 6, hca-b2 7, hca-b3 8.  Cases run in this order; init_all_ports, which leaves
# every link in Initialize, runs last.  The servers' cases are in run_servers below.
# The ibprint* and ibswportwatch cases (tools still being written when these were) expect
# the reference scripts' exit status: ibprintrt -l lists, then exits 1.  An exit status "?"
# would not be checked.
cat > "$work/cases" << 'EOF'
decode_mad - 0 -v < @DATA@/decode_mad-sa-noderecords.hex
ibstruct-decode - 0 SMPNodeInfo < @W@/nodeinfo.hex
ibcacheedit - 0 --switchguid 0x200000:0x200099 --caguid 0x100000:0x100077 @DATA@/ibnetdiscover-two-switch.cache @W@/edited.cache
subnet_diff - 1 @DATA@/ibnetdiscover-two-switch.cache @DATA@/ibnetdiscover-unlinked.cache
set_nodedesc - 0 -v valgrind-node
ibv_devices - 0
ibaddr hca-a1 0 4
smpquery hca-a1 0 -D nodeinfo 0,1
smpdump hca-a1 0 -D 0,1 0x15 1
sminfo hca-a1 0
ibportstate hca-a1 0 -D 0,1 7
perfquery hca-a1 0 3 1
saquery hca-a1 0 NR
ibstat hca-a1 0
ibstatus hca-a1 0
query hca-a1 0 PortInfo 3
ibnetdiscover hca-a1 0
ibhosts hca-a1 0
ibswitches hca-a1 0
ibrouters hca-a1 0
ibnodes hca-a1 0
iblinkinfo hca-a1 0
ibqueryerrors hca-a1 0
ibroute hca-a1 0 3
dump_fts hca-a1 0
dump_lfts hca-a1 0
dump_mfts hca-a1 0
ibtracert hca-a1 0 2 7
ibidsverify hca-a1 0
ibfindnodesusing hca-a1 0 0x200000 7
check_lft_balance hca-a1 0 -l @W@/lfts -i @W@/fabric.cache
vendstat hca-a1 255 -N 5
ibccquery hca-a1 0 CongestionInfo 3
ibccconfig hca-a1 0 CACongestionSetting 5 0x2 0x3 150 2 5 1
set_port_state hca-a1 0 3@7 3@1 4
set_guid hca-a1 0 4 1 0x0002c90300001234
ibcheckerrors hca-a1 0 @TOPO@
ibchecknet hca-a1 0 @TOPO@
ibcheckstate hca-a1 0 @TOPO@
ibcheckwidth hca-a1 0 @TOPO@
ibdatacounters hca-a1 0 @TOPO@
ibclearcounters hca-a1 0 @TOPO@
ibclearerrors hca-a1 0 @TOPO@
ibchecknode hca-a1 0 4
ibcheckerrs hca-a1 0 4 1
ibdatacounts hca-a1 0 4 1
ibcheckport hca-a1 0 4 1
ibcheckportstate hca-a1 0 4 1
ibcheckportwidth hca-a1 0 4 1
ibprintca hca-a1 0 -G 0x100000
ibprintswitch hca-a1 0 -G 0x200000
ibprintrt hca-a1 1 -l
ibswportwatch hca-a1 0 -n 1 -p 1 3 1
init_all_ports hca-a1 0
EOF
# The servers are run by run_servers (below), with these clients
server_tools="ibping ibsysstat"
# Programs of the build that are not installed tools, checked too when built
extra_tools=
[ -x "$(our_tool "$top_builddir" ibstruct-decode)" ] && extra_tools=ibstruct-decode

# ---- every tool has a case -------------------------------------------------------------------
missing=
for t in $IBMGMT_TOOLS; do
	case " $server_tools " in *" $t "*) continue ;; esac
	awk -v t="$t" '$1 == t { found = 1 } END { exit !found }' "$work/cases" || missing="$missing $t"
done
if [ -n "$missing" ]; then
	echo "FAIL: tools of IBMGMT_TOOLS without a valgrind case in tests/fabric/valgrind-tools.sh:$missing"
	exit 1
fi

# ---- the wrapper directory -------------------------------------------------------------------
is_script() {
	head -c 2 "$1" | grep -q '^#!'
}
for t in $IBMGMT_TOOLS $extra_tools; do
	p=$(our_tool "$top_builddir" "$t")
	[ -x "$p" ] || { echo "ERROR: $p is not built"; exit 99; }
	if is_script "$p"; then
		ln -s "$p" "$work/bin/$t" || exit 99
	else
		cat > "$work/bin/$t" << EOF || exit 99
#!/bin/sh
: > "$work/calls/\$IBMGMT_VG_CASE"
# the case's own tool always under valgrind; a program it starts only the first time this
# test sees its arguments' shape (numbers masked), else natively
key=\$(printf '%s\\n' "\$@" | sed 's/[0-9][0-9]*/N/g' | cksum | tr ' ' .)
if [ "\${IBMGMT_VG_TOP:-}" = $t ]; then
	unset IBMGMT_VG_TOP
	mkdir "$work/once/$t.\$key" 2> /dev/null
else
	mkdir "$work/once/$t.\$key" 2> /dev/null || exec "$p" "\$@"
fi
exec "$vg" --tool=memcheck --error-exitcode=86 --leak-check=full --errors-for-leak-kinds=definite \\
	--show-leak-kinds=definite --num-callers=40 --child-silent-after-fork=yes \\
	--suppressions="$top_srcdir/tests/fabric/valgrind.supp" \\
	--log-file="$logs/%q{IBMGMT_VG_CASE}.$t.%p.log" "$p" "\$@"
EOF
		chmod +x "$work/bin/$t" || exit 99
	fi
done
PATH=$work/bin:$PATH
IBPATH=$work/bin
IBMGMT_DIAGS_CACHE_DIR=$work/diags-cache
export PATH IBPATH IBMGMT_DIAGS_CACHE_DIR

# ---- running a case --------------------------------------------------------------------------
fail=0 n=0 ran=0
bad() {
	echo "FAIL: $*"
	fail=1
}

# check_logs CASE: every log of the case's valgrind processes says 0 errors; prints the
# failing logs
check_logs() {
	_c=$1 _nl=0 _ok=0
	for _l in "$logs/$_c".*.log; do
		[ -f "$_l" ] || continue
		_nl=$((_nl + 1))
		if grep -q 'ERROR SUMMARY: 0 errors from 0 contexts' "$_l"; then
			continue
		fi
		if grep -q 'ERROR SUMMARY:' "$_l"; then
			bad "$_c: valgrind found errors or definite leaks ($(basename "$_l")):"
		else
			bad "$_c: valgrind log without its summary (the process did not end normally): $(basename "$_l"):"
		fi
		cat "$_l"
		_ok=1
	done
	if [ "$_nl" = 0 ] && [ ! -f "$work/calls/$_c" ]; then
		bad "$_c: no program of ours ran"
		return 1
	fi
	ran=$((ran + _nl))
	return $_ok
}

# umad_check: (in the subshell of a client) tests/fabric/vg-umad-check.c first in LD_PRELOAD,
# in front of what the case preloads and of umad2sim (which fabric_run appends)
umad_check() {
	LD_PRELOAD=$work/vg-umad-check.so${LD_PRELOAD:+ $LD_PRELOAD}
	export LD_PRELOAD
}

# run_case TOOL NODE RC ARGS...: $case_env is sh code run before it (variables to export)
case_env=:
run_case() {
	_t=$1 _node=$2 _want=$3
	shift 3
	_case=$_t
	IBMGMT_VG_CASE=$_case IBMGMT_VG_TOP=$_t
	export IBMGMT_VG_CASE IBMGMT_VG_TOP
	_in=/dev/null
	_args=
	for _a in "$@"; do
		_a=$(printf '%s' "$_a" | sed -e "s#@W@#$work#g" -e "s#@DATA@#$cases_data#g" -e "s#@TOPO@#$work/one-ca.topo#g")
		case $_a in
		\<) _in=next ;;
		*)
			if [ "$_in" = next ]; then
				_in=$_a
			else
				_args="$_args $_a"
			fi
			;;
		esac
	done
	_t0=$(date +%s)
	# shellcheck disable=SC2086
	if [ "$_node" = - ]; then
		(eval "$case_env" && cd "$work/run" && exec timeout -k 5 "$case_timeout" "$work/bin/$_t" $_args) < "$_in" > "$work/out" 2>&1
	else
		(eval "$case_env" && umad_check && fabric_run "$_node" timeout -k 5 "$case_timeout" "$work/bin/$_t" $_args) < "$_in" > "$work/out" 2>&1
	fi
	_rc=$?
	_t1=$(date +%s)
	n=$((n + 1))
	[ "${IBMGMT_VALGRIND_VERBOSE:-0}" = 1 ] && { echo "-- $_t$_args: exit $_rc, $((_t1 - _t0)) s"; head -5 "$work/out"; }
	if [ "$_want" != "?" ] && [ "$_rc" != "$_want" ]; then
		bad "$_t$_args: exit $_rc, expected $_want; its output:"
		head -20 "$work/out"
	fi
	check_logs "$_case" || return 1
	return 0
}
case_timeout=${IBMGMT_VALGRIND_TIMEOUT:-120}

wanted() {
	[ -z "${IBMGMT_VALGRIND_ONLY:-}" ] || printf '%s\n' "$1" | grep -Eq -- "$IBMGMT_VALGRIND_ONLY"
}
in_build() {
	case " $IBMGMT_TOOLS $extra_tools " in *" $1 "*) return 0 ;; esac
	return 1
}

start=$(date +%s)
finish() {
	echo "$n cases, $ran valgrind processes, $(($(date +%s) - start)) s"
	[ $fail = 1 ] || echo "PASS: valgrind (memcheck): no errors, no definite leaks"
	exit $fail
}

# set_nodedesc writes the node descriptions of a fake sysfs tree, a copy made here
cp -R "$top_srcdir/tests/data/sysfs/multi" "$work/sysfs" && chmod -R u+w "$work/sysfs" || exit 99
# ibv_devices lists one device of a fake sysfs tree, its /dev node moved there by
# tests/ibv-devices-shim.c (tests/ibv-devices.sh says why)
mkdir -p "$work/verbs/sys/class/infiniband_verbs/uverbs0" "$work/verbs/sys/class/infiniband/rxe0" \
	"$work/verbs/dev" && echo 6 > "$work/verbs/sys/class/infiniband_verbs/abi_version" &&
	echo rxe0 > "$work/verbs/sys/class/infiniband_verbs/uverbs0/ibdev" &&
	echo 231:192 > "$work/verbs/sys/class/infiniband_verbs/uverbs0/dev" &&
	echo 1 > "$work/verbs/sys/class/infiniband_verbs/uverbs0/abi_version" &&
	echo 0002:c903:0000:1234 > "$work/verbs/sys/class/infiniband/rxe0/node_guid" &&
	: > "$work/verbs/dev/uverbs0" &&
	${CC:-cc} -shared -fPIC -O2 -o "$work/ibv-shim.so" "$top_srcdir/tests/ibv-devices-shim.c" -ldl || exit 99
# ibstruct-decode decodes a NodeInfo (an HCA with 2 ports, GUIDs 0x100000/0x100001)
printf '%s\n' '01 01 01 02 00 00 00 00 00 10 00 00 00 00 00 00 00 10 00 00' \
	'00 00 00 00 00 10 00 01 00 40 00 00 00 00 00 00 01 00 00 00' > "$work/nodeinfo.hex" || exit 99

# the cases without a fabric first
while read -r t node want args; do
	[ "$node" = - ] || continue
	in_build "$t" && wanted "$t" || continue
	case_env=:
	[ "$t" != set_nodedesc ] || case_env="IBMGMT_SYSFS_ROOT=$work/sysfs; export IBMGMT_SYSFS_ROOT"
	[ "$t" != ibv_devices ] ||
		case_env="SYSFS_PATH=$work/verbs/sys IBMGMT_FAKE_DEV=$work/verbs/dev LD_PRELOAD=$work/ibv-shim.so; export SYSFS_PATH IBMGMT_FAKE_DEV LD_PRELOAD"
	# shellcheck disable=SC2086
	run_case "$t" "$node" "$want" $args
	if [ "$t" = ibv_devices ] && ! grep -q '^    rxe0 ' "$work/out"; then
		echo "ERROR: ibv_devices did not list the fake tree's device (the set-up did not work):"
		cat "$work/out"
		exit 99
	fi
done < "$work/cases"

# ---- the fabric ------------------------------------------------------------------------------
need_fabric=
while read -r t node want args; do
	[ "$node" != - ] && in_build "$t" && wanted "$t" && need_fabric=1
done < "$work/cases"
for t in $server_tools; do
	in_build "$t" && wanted "$t" && need_fabric=1
done
[ -n "$need_fabric" ] || finish
IBMGMT_FABRIC_OPENSM_OPTIONS="ignore_other_sm TRUE"
export IBMGMT_FABRIC_OPENSM_OPTIONS
fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || exit 1
trap 'fabric_stop; cleanup' EXIT

# files the cases read, made by our tools outside valgrind
ibnd=$(our_tool "$top_builddir" ibnetdiscover)
dlfts=$(our_tool "$top_builddir" dump_lfts)
fabric_run hca-a1 "$ibnd" --cache "$work/fabric.cache" > /dev/null 2>&1 ||
	{ echo "ERROR: ibnetdiscover --cache failed"; exit 99; }
fabric_run hca-a1 "$dlfts" > "$work/lfts" 2>&1 || { echo "ERROR: dump_lfts failed"; exit 99; }
fabric_run hca-a1 "$ibnd" > "$work/fabric.topo" 2>&1 || { echo "ERROR: ibnetdiscover failed"; exit 99; }
awk '/^Ca/ { on = /"hca-a1"/ } on && /^\[1\]/ { print; next } on && !/^\[/ { print }' "$work/fabric.topo" > "$work/one-ca.topo"
grep -q '^\[1\].*lid 2 ' "$work/one-ca.topo" || { echo "ERROR: no hca-a1 port 1 in the topology:"; cat "$work/fabric.topo"; exit 99; }

# every client's writes to its umad device checked byte by byte (tests/fabric/vg-umad-check.c;
# see tests/fabric/valgrind.supp)
${CC:-cc} -shared -fPIC -O2 -o "$work/vg-umad-check.so" "$top_srcdir/tests/fabric/vg-umad-check.c" -ldl ||
	{ echo "ERROR: cannot build tests/fabric/vg-umad-check.c"; exit 99; }
preload=${LD_PRELOAD:-}

# ibccquery and ibccconfig: Congestion Control MADs answered by tests/fabric/cc-shim.c, as
# diff-tools.sh does (mode ccshim)
${CC:-cc} -shared -fPIC -O2 -o "$work/cc-shim.so" "$top_srcdir/tests/fabric/cc-shim.c" -ldl ||
	{ echo "ERROR: cannot build tests/fabric/cc-shim.c"; exit 99; }

# run_servers: ibping -S on hca-b1 (LID 6) and ibsysstat -S on hca-b2 (LID 7) under valgrind,
# each asked once by our client (itself under valgrind), then stopped by SIGTERM
run_servers() {
	for _s in ibping:hca-b1:6 ibsysstat:hca-b2:7; do
		_t=${_s%%:*} _rest=${_s#*:}
		_node=${_rest%%:*} _lid=${_rest#*:}
		in_build "$_t" && wanted "$_t" || continue
		IBMGMT_VG_CASE=$_t-server IBMGMT_VG_TOP=$_t
		export IBMGMT_VG_CASE IBMGMT_VG_TOP
		umad_check
		SIM_SET_ISSM=1 fabric_run_bg "$_node" "$work/bin/$_t" -S -d > "$work/srv.out" 2> "$work/srv.err"
		_pid=$FABRIC_BG_PID
		LD_PRELOAD=$preload
		[ -n "$LD_PRELOAD" ] || unset LD_PRELOAD
		_end=$(($(date +%s) + 60))
		until grep -q 'starting to serve' "$work/srv.err" 2>/dev/null; do
			if ! _fabric_alive "$_pid"; then
				echo "ERROR: server $_t -S on $_node exited:"
				tail -5 "$work/srv.err"
				cat "$logs/$_t-server".*.log
				exit 99
			fi
			[ "$(date +%s)" -lt "$_end" ] || { echo "ERROR: server $_t -S on $_node not up within 60 s"; exit 99; }
			_fabric_nap 0.1
		done
		fabric_console Attached | grep -q "connected at \"$_node\".* SM\$" || {
			echo "ERROR: server $_t -S is not $_node's issm client:"
			fabric_console Attached
			exit 99
		}
		if [ "$_t" = ibping ]; then
			run_case ibping hca-a1 0 -f -c 3 "$_lid"
		else
			run_case ibsysstat hca-a1 0 "$_lid" host
		fi
		# SIGTERM: neither server catches it (as the reference); valgrind reports as it ends
		kill -TERM "$_pid" 2>/dev/null
		wait "$_pid" 2>/dev/null
		fabric_reap > /dev/null || { echo "ERROR: cannot free the client slot of server $_t"; exit 99; }
		n=$((n + 1))
		check_logs "$_t-server"
		grep -q 'Process terminating with default action of signal 15' "$logs/$_t-server".*.log ||
			bad "$_t -S: not ended by the SIGTERM"
	done
}

last=
while read -r t node want args; do
	[ "$node" != - ] || continue
	in_build "$t" && wanted "$t" || continue
	if [ "$t" = init_all_ports ]; then
		last="$t $node $want $args"
		continue
	fi
	case_env=:
	case $t in
	ibccquery | ibccconfig)
		case_env="LD_PRELOAD=$work/cc-shim.so IBMGMT_CCSHIM_MODEL=$cases_data/two-switch.ccmodel"
		case_env="$case_env IBMGMT_CCSHIM_STATE=$work/ccshim.state"
		case_env="$case_env; export LD_PRELOAD IBMGMT_CCSHIM_MODEL IBMGMT_CCSHIM_STATE"
		;;
	esac
	# shellcheck disable=SC2086
	run_case "$t" "$node" "$want" $args
done < "$work/cases"
run_servers
case_env=:
# shellcheck disable=SC2086
[ -z "$last" ] || run_case $last

finish
