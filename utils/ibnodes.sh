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
"$IBPATH/ibhosts" $@
# shellcheck disable=SC2068
"$IBPATH/ibswitches" $@
