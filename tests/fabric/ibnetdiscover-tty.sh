#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ibnetdiscover's progress line: drawn on stderr when stderr is a terminal and the walk runs
# longer than a second, never when stderr is a pipe or a file, and never on stdout.  The
# simulated fabric is discovered in milliseconds: IBMGMT_PROGRESS_AFTER_MS=0 draws the line
# from the first answer on.  script(1) gives the terminal.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/fabric.sh"
. "$top_srcdir/tests/fabric/our-tool.sh"
fabric_require
command -v script > /dev/null || { echo "SKIP: no script(1)"; exit 77; }
our_tool_libs "$top_builddir"
tool=$(our_tool "$top_builddir" ibnetdiscover)
work=$(mktemp -d "${TMPDIR:-/tmp}/ibnd-tty.XXXXXX") || exit 99
trap 'fabric_stop; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT INT TERM HUP
fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || exit 99
IBMGMT_PROGRESS_AFTER_MS=0
export IBMGMT_PROGRESS_AFTER_MS

fail=0
check() { # WHAT CONDITION...
	_w=$1
	shift
	if "$@"; then echo "ok: $_w"; else echo "FAIL: $_w"; fail=1; fi
}

# on a terminal: stdout and stderr both go to the typescript; stdout alone to a file
eval "$(fabric_env hca-a1)"
cd "$FABRIC_DIR" || exit 99
script -qec "'$tool' -l > '$work/tty.out'" "$work/typescript" > /dev/null 2>&1 < /dev/null
rc=$?
check "exit 0 on a terminal" [ "$rc" -eq 0 ]
check "the progress line on the terminal" grep -q 'Discovering: [0-9]* nodes, [0-9]* MADs' "$work/typescript"
check "no progress line on stdout" sh -c "! grep -q Discovering '$work/tty.out'"
check "the list on stdout" grep -q '^Switch	 : 0x0000000000200000 ports 12' "$work/tty.out"
# the line is erased at the end: the last thing on the terminal is a blank-out and "\r"
check "the progress line erased" sh -c "tail -c 200 '$work/typescript' | tr '\r' '\n' | tail -n 2 | grep -q '^ *\$'"

# in a pipe, and to a file: never
"$tool" -l 2>&1 | cat > "$work/pipe.out"
check "no progress line in a pipe" sh -c "! grep -q Discovering '$work/pipe.out'"
"$tool" -l > "$work/file.out" 2> "$work/file.err"
check "no progress line in a file" sh -c "! grep -q Discovering '$work/file.err'"
check "the same list in a pipe and on a terminal" cmp -s "$work/pipe.out" "$work/tty.out"
cd / || exit 99
exit $fail
