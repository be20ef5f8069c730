# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=sh
# our_tool BUILDDIR TOOL: the path of our built tool.  With --enable-shared-tools utils/TOOL
# is libtool's wrapper script, which runs the real binary under another argv[0]; then the
# real one in utils/.libs (it needs our libraries on the library path).  Sourced by
# tests/fabric/diff-tools.sh and bench/bench-tools.sh.
our_tool() {
	if head -c 2 "$1/utils/$2" | grep -q '^#!' && [ -x "$1/utils/.libs/$2" ]; then
		echo "$1/utils/.libs/$2"
	else
		echo "$1/utils/$2"
	fi
}
