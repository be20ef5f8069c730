#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ibrouters: the routers of the subnet, one line each, from ibnetdiscover's topology
# (discovered now, or read from a topology file).  A drop-in replacement for the
# infiniband-diags script of that name: same options, output and exit status.
#
#   ibrouters [-h] [<topology-file> | -y mkey -C ca_name -P ca_port -t timeout_ms]
#
# The ibnetdiscover run is the one installed beside this script ($IBPATH overrides).

IBPATH=${IBPATH:-$(dirname "$0")}
kind=Rt

usage() {
	echo Usage: $(basename "$0") "[-h] [<topology-file> | -y mkey -C ca_name -P ca_port -t timeout_ms]"
	exit 255
}

# an option's value: present and not another option
need_value() {
	case $1 in -*) usage ;; esac
	[ "x$1" != x ] || usage
}

file= discover_args= key=0
while [ "$1" ]; do
	case $1 in
	-h|--help) usage ;;
	-y|--m_key) need_value "$2"; key=$2; shift ;;
	-C|--Ca|-P|--Port|-t|--timeout) need_value "$2"; discover_args="$discover_args $1 $2"; shift ;;
	-*) usage ;;
	*) [ -z "$file" ] || usage; file=$1 ;;
	esac
	shift
done

if [ -n "$file" ]; then
	topology=$(eval "cat $file")
else
	topology=$(eval "$IBPATH/ibnetdiscover -y $key $discover_args")
fi
status=$?

# "Rt	2 "R-0000000000300001"		# "rt1"" becomes "Rt	: 0x0000000000300001 ports 2 "rt1"";
# the tools' error lines go through as they are (a line with two of the markers twice).
echo "$topology" | awk -v kind="^$kind" '
	$0 ~ kind {
		desc = substr($0, match($0, "#[ \t]*") + RLENGTH)
		print $1 "\t: 0x" substr($3, 4, 16) " ports " $2 " " desc
	}
	/^ib/ { print; next }
	/ibpanic:/ { print }
	/ibwarn:/ { print }
	/iberror:/ { print }
'
exit $status
