#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ibv_devices, ours beside the original (ibverbs-utils' /usr/bin/ibv_devices), on fake sysfs
# trees: stdout, stderr and the exit status of both must be the same in every case.
#
# No fabric is needed: libibverbs reads sysfs under SYSFS_PATH, and each tree below is a
# situation a machine can be in (no verbs class, no devices, devices with and without a
# provider, with and without their /dev node, unsupported ABIs, missing or malformed node
# GUIDs, long names, many devices).  libibverbs also insists on /dev/infiniband/uverbsN:
# tests/ibv-devices-shim.c (preloaded for both sides) moves that path into the tree.
#
# Set-up is checked: the first tree must show its device through the original, or the test
# cannot say anything (libibverbs asks netlink first, and on a machine whose kernel has RDMA
# devices SYSFS_PATH is not used for the list): that is a skip, or a failure with
# IBMGMT_REQUIRE_FABRIC=1 (as in CI, where ibverbs-utils is installed for this test).
#
# Exit: 0 pass, 1 a case differs, 77 skip, 99 set-up error.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/our-tool.sh"

skip() {
	if [ -n "${IBMGMT_REQUIRE_FABRIC:-}" ]; then
		echo "ERROR: $* (IBMGMT_REQUIRE_FABRIC is set)"
		exit 99
	fi
	echo "SKIP: $*"
	exit 77
}

ref=$(ref_tool ibv_devices)
ours=$(our_tool "$top_builddir" ibv_devices)
[ -x "$ours" ] || { echo "ERROR: $ours is not built"; exit 99; }
[ -x "$ref" ] || skip "no $ref (Debian package ibverbs-utils)"

work=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-ibv.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
${CC:-cc} -shared -fPIC -O2 -o "$work/shim.so" "$top_srcdir/tests/ibv-devices-shim.c" -ldl ||
	{ echo "ERROR: cannot build tests/ibv-devices-shim.c"; exit 99; }
# (an ASan build's tool wants its runtime first among the preloads: the shim comes first)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
# (libibverbs 44 itself leaks its list of uverbs entries when it refuses the class ABI:
# ibverbs_get_device_list() returns from check_abi_version()'s failure without freeing
# them; an ASan build's leak check would report that as ours)
echo 'leak:libibverbs.so' > "$work/lsan.supp" || exit 99
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$work/lsan.supp:print_suppressions=0
export ASAN_OPTIONS LSAN_OPTIONS
unset IBV_SHOW_WARNINGS SYSFS_PATH IBMGMT_SYSFS_ROOT IBMGMT_FAKE_DEV VERBS_LOG_LEVEL

# ---- trees ---------------------------------------------------------------------------------
# tree NAME [ABI]: an empty sysfs root with the verbs class (ABI in its abi_version, none if
# ABI is "-"); prints the root
tree() {
	_r=$work/$1
	mkdir -p "$_r/sys/class/infiniband_verbs" "$_r/sys/class/infiniband" "$_r/dev" || exit 99
	[ "${2:-6}" = - ] || echo "${2:-6}" > "$_r/sys/class/infiniband_verbs/abi_version" || exit 99
}
# dev ROOT UVERBS IBDEV GUID [MODALIAS [UABI [NODEV]]]: one device: the uverbs entry (dev,
# ibdev, abi_version), its ib device (node_guid unless GUID is "-", node_type 1, the
# modalias unless "-"), and its /dev node unless NODEV
dev() {
	_u=$work/$1/sys/class/infiniband_verbs/$2 _d=$work/$1/sys/class/infiniband/$3
	mkdir -p "$_u" "$_d/device" || exit 99
	echo "$3" > "$_u/ibdev"
	echo "231:$((192 + ${2#uverbs}))" > "$_u/dev"
	echo "${6:-1}" > "$_u/abi_version"
	[ "$4" = - ] || echo "$4" > "$_d/node_guid"
	echo 1 > "$_d/node_type"
	[ "${5:--}" = - ] || echo "$5" > "$_d/device/modalias"
	[ -n "${7:-}" ] || : > "$work/$1/dev/$2" || exit 99
}
MLX5=pci:v000015B3d00001017sv000015B3sd00000008bc02sc00i00
MLX4=pci:v000015B3d00001003sv000015B3sd00000006bc0Csc06i00
OTHER=pci:v00001234d00005678sv00000000sd00000000bc02sc00i00

tree one;      dev one uverbs0 rxe0 0002:c903:0000:1234
tree three;    dev three uverbs0 rxe0 0002:c903:0000:1234
               dev three uverbs1 mlx5_0 0002:c903:00ab:cdef "$MLX5" 1
               dev three uverbs2 mlx4_0 f452:1403:0011:2230 "$MLX4" 6
tree none
tree noabi -;  dev noabi uverbs0 rxe0 0002:c903:0000:1234
tree badabi 99; dev badabi uverbs0 rxe0 0002:c903:0000:1234
tree oldabi 2; dev oldabi uverbs0 rxe0 0002:c903:0000:1234
tree uabi;     dev uabi uverbs0 rxe0 0002:c903:0000:1234 - 99
               dev uabi uverbs1 rxe1 0002:c903:0000:5678
tree noprov;   dev noprov uverbs0 foo0 0002:c903:0000:0001 "$OTHER"
               dev noprov uverbs1 rxe0 0002:c903:0000:1234
tree nodev;    dev nodev uverbs0 rxe0 0002:c903:0000:1234 - 1 nodev
               dev nodev uverbs1 rxe1 0002:c903:0000:4321
tree guids;    dev guids uverbs0 rxe0 -
               dev guids uverbs1 rxe1 not-a-guid
               dev guids uverbs2 rxe2 ffff:ffff:ffff:ffff
               dev guids uverbs3 rxe3 0:0:0:1
               dev guids uverbs4 rxe4 12345:0:0:1
tree long;     dev long uverbs0 rxe_a_name_longer_than_16 0002:c903:0000:1234
               dev long uverbs1 rxe0123456789abc 0002:c903:0000:1235
tree many
_i=0
while [ $_i -lt 24 ]; do
	dev many "uverbs$_i" "rxe$(( (_i * 7) % 24 ))" "0002:c903:0000:$(printf %04x $_i)"
	_i=$((_i + 1))
done
mkdir -p "$work/noclass/sys/class" "$work/noclass/dev"
# (the ib device of a uverbs entry is missing)
tree noib;     dev noib uverbs0 rxe0 0002:c903:0000:1234; rm -r "$work/noib/sys/class/infiniband/rxe0"
               dev noib uverbs1 rxe1 0002:c903:0000:1236

# ---- running both ---------------------------------------------------------------------------
n=0 failed=0
# run WHO OUTBASE ENV... -- ARGS...: one run, preloaded with the shim
run() {
	_who=$1 _o=$2
	shift 2
	_prog=$ref
	[ "$_who" = ref ] || _prog=$ours
	_env=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do _env="$_env $1"; shift; done
	shift
	# shellcheck disable=SC2086 # (the environment words are split on purpose)
	env LD_PRELOAD="$work/shim.so${LD_PRELOAD:+ $LD_PRELOAD}" $_env timeout 20 "$_prog" "$@" \
		> "$_o.out" 2> "$_o.err" < /dev/null
	echo $? > "$_o.rc"
	# the program's own name where it quotes argv[0] (neither does today)
	sed -i "s#$_prog#ibv_devices#g" "$_o.out" "$_o.err"
}
# case DESC TREE [VAR=VALUE...] [-- ARGS...]: ours and the original on TREE's sysfs and /dev
case_() {
	_desc=$1 _t=$2
	shift 2
	n=$((n + 1))
	_e="SYSFS_PATH=$work/$_t/sys IBMGMT_FAKE_DEV=$work/$_t/dev"
	while [ $# -gt 0 ] && [ "$1" != -- ]; do _e="$_e $1"; shift; done
	[ $# -eq 0 ] || shift
	# shellcheck disable=SC2086
	run ref "$work/ref" $_e -- "$@"
	# shellcheck disable=SC2086
	run ours "$work/ours" $_e -- "$@"
	check "$_desc"
}
check() {
	_bad=
	for _p in out err rc; do
		cmp -s "$work/ref.$_p" "$work/ours.$_p" || _bad="$_bad $_p"
	done
	if [ -n "$_bad" ]; then
		failed=$((failed + 1))
		echo "FAIL: $1: differs in$_bad"
		for _p in $_bad; do diff -u "$work/ref.$_p" "$work/ours.$_p" | sed -n '3,30p' | sed 's/^/  /'; done
	elif [ -n "${IBMGMT_CASES_VERBOSE:-}" ]; then
		echo "ok: $1 (exit $(cat "$work/ours.rc"))"
	fi
}
# expect WHAT PATTERN: the original's last run (what the case was meant to show) matches
expect() {
	grep -q -e "$2" "$work/ref.out" "$work/ref.err" ||
		{ echo "ERROR: the set-up did not work: $1 (no '$2' in the original's output)"; cat "$work/ref.out" "$work/ref.err"; exit 99; }
}

# the set-up: the original sees the first tree's device, and the preload is what shows it
case_ "one device" one
if ! grep -q '^    rxe0            	0002c90300001234$' "$work/ref.out"; then
	cat "$work/ref.out" "$work/ref.err"
	skip "the original does not list the fake tree's device (libibverbs may list this machine's RDMA devices through netlink, not sysfs)"
fi
run ref "$work/ref" SYSFS_PATH="$work/one/sys" -- # (no IBMGMT_FAKE_DEV)
grep -q rxe0 "$work/ref.out" && { echo "ERROR: the set-up did not work: rxe0 listed without its /dev node"; exit 99; }

case_ "three devices, each matched another way (name, PCI modalias of mlx5 and mlx4)" three
expect "mlx4 and mlx5 providers" mlx4_0
case_ "the verbs class without devices" none
case_ "no verbs class in sysfs" noclass
expect "the failure" "Failed to get IB devices list"
case_ "devices but no class abi_version" noabi
case_ "a class ABI libibverbs does not support" badabi
expect "the ABI message" "kernel ABI version 99"
case_ "an old class ABI" oldabi
case_ "a device ABI its provider does not support" uabi
expect "the provider's ABI warning" "does not support the kernel ABI"
case_ "a device no provider claims" noprov
case_ "... with IBV_SHOW_WARNINGS" noprov IBV_SHOW_WARNINGS=1
expect "the no-driver warning" "no userspace device-specific driver found for foo0"
case_ "a device without its /dev node" nodev
case_ "missing and malformed node GUIDs" guids
expect "a GUID read as 0" '^    rxe0            	0000000000000000$'
case_ "names of 16 characters and more" long
case_ "24 devices" many
case_ "a uverbs entry whose ib device is gone" noib
# arguments: the original reads none
case_ "-h" three -- -h
case_ "--help -V -d -dd" three -- --help -V -d -dd
case_ "operands" three -- rxe0 1 2 3
case_ "a 10 KB argument" three -- "$(awk 'BEGIN { s = "x"; while (length(s) < 10240) s = s s; print s }')"
case_ "invalid UTF-8 and control characters" three -- "$(printf 'x\200y\300\257\033[2J\007')"
case_ "no verbs class, with arguments" noclass -- -h --version
# the environment
case_ "SYSFS_PATH with trailing slashes" three "SYSFS_PATH=$work/three/sys//"
case_ "VERBS_LOG_LEVEL" three VERBS_LOG_LEVEL=9
# stdout that cannot be written: neither checks it (exit 0 both)
n=$((n + 1))
for w in ref ours; do
	_p=$ref
	[ $w = ref ] || _p=$ours
	env LD_PRELOAD="$work/shim.so" SYSFS_PATH="$work/three/sys" IBMGMT_FAKE_DEV="$work/three/dev" \
		timeout 20 "$_p" > /dev/full 2> "$work/$w.err"
	echo $? > "$work/$w.rc"
	: > "$work/$w.out"
done
check "stdout on /dev/full"
# this machine itself, as it is (no SYSFS_PATH; both see the same sysfs and /dev)
n=$((n + 1))
timeout 20 "$ref" > "$work/ref.out" 2> "$work/ref.err"; echo $? > "$work/ref.rc"
timeout 20 "$ours" > "$work/ours.out" 2> "$work/ours.err"; echo $? > "$work/ours.rc"
check "this machine's own sysfs"

# ours only: IBMGMT_SYSFS_ROOT (every tool's sysfs root) is SYSFS_PATH when that is unset
n=$((n + 1))
run ref "$work/ref" SYSFS_PATH="$work/three/sys" IBMGMT_FAKE_DEV="$work/three/dev" --
run ours "$work/ours" IBMGMT_SYSFS_ROOT="$work/three/sys" IBMGMT_FAKE_DEV="$work/three/dev" --
check "IBMGMT_SYSFS_ROOT (ours) as SYSFS_PATH (the original)"
n=$((n + 1))
run ours "$work/ours" SYSFS_PATH="$work/three/sys" IBMGMT_SYSFS_ROOT="$work/one/sys" IBMGMT_FAKE_DEV="$work/three/dev" --
check "SYSFS_PATH before IBMGMT_SYSFS_ROOT"

echo "ibv_devices: $n cases, $failed failed"
[ "$failed" -eq 0 ]
