# SPDX-License-Identifier: BSD-3-Clause
# Shared by libibtopo's fabric tests (tests/fabric/topo-*.sh), sourced after fabric.sh:
# counters, the scratch directory, comparisons, and the generated fabrics several use.
#
#   topo_need_dumps            ours=tests/topo/topo-dump, ref=tests/topo/ibnd-dump (libibnetdisc):
#                              ERROR without ours, SKIP without ref (ERROR when
#                              IBMGMT_REQUIRE_FABRIC=1: CI has libibnetdisc-dev)
#   topo_setup                 fail=0, n=0, work=<scratch dir> (removed at exit)
#   topo_start NETFILE [SM]    fabric_start, keeping the scratch dir's clean-up in the traps
#   same DESC REF OURS         one check: the files are equal (a diff or cmp when not)
#   expect DESC CMD...         one check: CMD succeeds
#   differ A B                 true when the files differ
#   refrun HOST CMD...         fabric_run for a program linked with libibnetdisc (it leaks a
#                              switch's LID map entries: no leak check in sanitizer builds)
#   topo_wide_net FILE         a switch with 254 ports, an HCA on each (wide-sw, wide-h1..254)
#   topo_chain_net FILE N      N 3-port switches in a line (ch-sw1..N), an HCA ch-h on ch-sw1
#   topo_done                  prints "<n> checks, ..." and exits with the verdict

topo_need_dumps() {
	ours=$(cd "$top_builddir" && pwd)/tests/topo/topo-dump
	ref=$(cd "$top_builddir" && pwd)/tests/topo/ibnd-dump
	[ -x "$ours" ] || { echo "ERROR: $ours is not built"; exit 99; }
	if [ ! -x "$ref" ]; then
		[ "${IBMGMT_REQUIRE_FABRIC:-0}" = 1 ] && { echo "ERROR: no libibnetdisc (tests/topo/ibnd-dump)"; exit 1; }
		echo "SKIP: no libibnetdisc to compare with"
		exit 77
	fi
}

topo_setup() {
	fail=0
	n=0
	work=$(mktemp -d) || exit 99
	trap 'rm -rf "$work"' EXIT
}

topo_start() {
	fabric_start "$@" || exit 1
	# fabric_start installs its own traps: the scratch dir goes too
	trap 'fabric_stop; rm -rf "$work"' EXIT
	trap 'fabric_stop; rm -rf "$work"; exit 1' INT TERM HUP
}

same() {
	n=$((n + 1))
	if ! cmp -s "$2" "$3"; then
		echo "FAIL: $1"
		case $2 in
		*.cache) cmp "$2" "$3" | head -3 ;;
		*) diff "$2" "$3" | head -20 ;;
		esac
		fail=1
	fi
}

expect() {
	n=$((n + 1))
	_topo_desc=$1
	shift
	"$@" || { echo "FAIL: $_topo_desc"; fail=1; }
}

differ() { ! cmp -s "$1" "$2"; }

refrun() (
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
	export ASAN_OPTIONS
	fabric_run "$@"
)

topo_wide_net() {
	{
		echo 'Switch 254 "wide-sw"'
		_i=1
		while [ $_i -le 254 ]; do
			echo "[$_i] \"wide-h$_i\"[1]"
			_i=$((_i + 1))
		done
		echo
		_i=1
		while [ $_i -le 254 ]; do
			printf 'Hca 1 "wide-h%d"\n[1] "wide-sw"[%d]\n\n' $_i $_i
			_i=$((_i + 1))
		done
	} >"$1"
}

topo_chain_net() {
	{
		_i=1
		while [ $_i -le "$2" ]; do
			echo "Switch 3 \"ch-sw$_i\""
			[ $_i -gt 1 ] && echo "[1] \"ch-sw$((_i - 1))\"[2]"
			[ $_i -lt "$2" ] && echo "[2] \"ch-sw$((_i + 1))\"[1]"
			[ $_i = 1 ] && echo "[3] \"ch-h\"[1]"
			echo
			_i=$((_i + 1))
		done
		echo 'Hca 1 "ch-h"'
		echo '[1] "ch-sw1"[3]'
	} >"$1"
}

topo_done() {
	echo "$n checks, $([ "$fail" = 0 ] && echo all passed || echo some FAILED)"
	exit "$fail"
}
