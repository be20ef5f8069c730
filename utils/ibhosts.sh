#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ibhosts: the channel adapters of the subnet, one line each, from ibnetdiscover's topology
# (discovered now, or read from a topology file).  A drop-in replacement for the
# infiniband-diags script of that name: same options, output and exit status.
#
#   ibhosts [-h] [<topology-file> | -y mkey -C ca_name -P ca_port -t timeout_ms]
#
# The ibnetdiscover run is the one installed beside this script ($IBPATH overrides).
# ibswitches and ibrouters are this script too, for other node types.

IBPATH=${IBPATH:-$(dirname "$0")}
# ibswitches and ibrouters read this file with _ibmgmt_list_kind set to Switch or Rt
kind=${_ibmgmt_list_kind:-Ca}

usage() {
	echo Usage: $(basename "$0") "[-h] [<topology-file> | -y mkey -C ca_name -P ca_port -t timeout_ms]"
	exit 255
}

# need_value VALUE LINE: an option's value, present and not another option.  The reference
# tests it unquoted ([ x$2 = x ], at LINE of its script), so the shell splits and globs the
# value first: a split that the test reads as true ("a -o b") counts as no value, and one it
# cannot read makes the shell complain on stderr, with the reference's line number.
need_value() {
	case $1 in -*) usage ;; esac
	# shellcheck disable=SC2086,SC2268
	if _nv_msg=$([ x$1 = x ] 2>&1); then
		usage
	fi
	[ -z "$_nv_msg" ] || printf '%s: %s: %s\n' "$0" "$2" "${_nv_msg#"$0: "*": "}" >&2
}

file= discover_args= key=0
while [ "$1" ]; do
	case $1 in
	-h|--help) usage ;;
	-y|--m_key) need_value "$2" 26; key=$2; shift ;;
	-C|--Ca|-P|--Port|-t|--timeout) need_value "$2" 38; discover_args="$discover_args $1 $2"; shift ;;
	-*) usage ;;
	*) [ -z "$file" ] || usage; file=$1 ;;
	esac
	shift
done

if [ -n "$file" ]; then
	netcmd="cat $file"
else
	netcmd="$IBPATH/ibnetdiscover -y $key $discover_args"
fi
# unquoted, as the reference: split and globbed before eval joins the words again
# shellcheck disable=SC2086
topology=$(eval $netcmd)
status=$?

if [ "$kind" = Switch ]; then
	# "Switch	8 "S-0000000000200001"		# "Switch2" base port 0 lid 3 lmc 0" becomes
	# "Switch	: 0x0000000000200001 ports 8 "Switch2" base port 0 lid 3 lmc 0": the description is
	# what lies between the "#" and the first "port 0", the port 0 kind set apart when it is
	# spelled out in full before that; the tools' error lines go through as they are.
	echo "$topology" | awk '
		/^Switch/ {
			text = substr($0, match($0, "#[ \t]*") + RLENGTH)
			at = match(text, "port 0.*")
			port0 = substr(text, at)
			desc = substr(text, 1, at - 2)
			kind = "base port 0"
			k = match(desc, kind)
			if (!k) {
				kind = "enhanced port 0"
				k = match(desc, kind)
			}
			if (k)
				desc = substr(desc, 1, k - 2) " " kind
			print $1 "\t: 0x" substr($3, 4, 16) " ports " $2 " " desc " " port0
		}
		/^ib/ { print; next }
		/ibpanic:/ { print }
		/ibwarn:/ { print }
		/iberror:/ { print }
	'
else
	# "Ca	2 "H-0000000000100009"		# "Hca4"" becomes "Ca	: 0x0000000000100009 ports 2 "Hca4"";
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
fi
exit $status
