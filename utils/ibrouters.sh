#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ibrouters: the routers of the subnet, one line each, from ibnetdiscover's topology
# (discovered now, or read from a topology file).  A drop-in replacement for the
# infiniband-diags script of that name: same options, output and exit status.
#
#   ibrouters [-h] [<topology-file> | -y mkey -C ca_name -P ca_port -t timeout_ms]
#
# The work is ibhosts', installed beside this script, read here (so that the usage line
# still names ibrouters).

_ibmgmt_list_kind=Rt
# shellcheck source=utils/ibhosts.sh
. "$(dirname "$0")/ibhosts"
