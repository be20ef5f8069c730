#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ibnodes: every node of the subnet, one line each: ibhosts, then ibswitches, with the same
# arguments (each prints its own usage line).  A drop-in replacement for the
# infiniband-diags script of that name; the exit status is ibswitches'.
#
#   ibnodes [-h] [<topology-file> | -y mkey -C ca_name -P ca_port -t timeout_ms]

IBPATH=${IBPATH:-$(dirname "$0")}

# the arguments split again by the shell, as infiniband-diags does
# shellcheck disable=SC2068
set -- $@
# ibhosts and ibswitches each read the topology file: a FIFO (or a pipe such as /dev/stdin)
# can be read only once, and the second reader would wait for ever (the reference does), so
# it is read once into a temporary file that both read
copy=
for a do
	shift
	if [ -z "$copy" ] && [ -p "$a" ]; then
		copy=$(mktemp "${TMPDIR:-/tmp}/ibnodes.XXXXXX") || exit 255
		trap 'rm -f "$copy"' EXIT
		trap 'exit 129' HUP
		trap 'exit 130' INT
		trap 'exit 143' TERM
		cat -- "$a" > "$copy" || exit 255
		a=$copy
	fi
	set -- "$@" "$a"
done
"$IBPATH/ibhosts" "$@"
"$IBPATH/ibswitches" "$@"
