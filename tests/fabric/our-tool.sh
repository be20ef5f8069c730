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

# our_tool_libs BUILDDIR: our uninstalled libraries put on (exported) LD_LIBRARY_PATH, for
# the real binaries that our_tool gives in an --enable-shared-tools build (harmless
# otherwise: the tools are then linked statically).
our_tool_libs() {
	for _otl in libibstruct libibpath libibmadrpc libibsched libibsa libibtopo; do
		LD_LIBRARY_PATH=$1/$_otl/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	done
	export LD_LIBRARY_PATH
}

# tool_normalise TOOLPATH NAME [SED-ARGS...] < raw > clean: what differs between two runs of a
# tool or between ours and the reference, made equal: the program path becomes the tool's
# name, the other programs of its directory are those of /usr/sbin (the node-list scripts run
# the ibnetdiscover installed beside them, whose messages carry its path; in an
# --enable-shared-tools build that is libtool's wrapper, which runs .libs/<tool>), pids
# become "N", and so does OpenSM's SMInfo activity count, which grows with every MAD the SM
# sends, and the date in ibnetdiscover's header.  SED-ARGS: more sed expressions (-e ...).
tool_normalise() {
	_tn_p=$1 _tn_n=$2
	shift 2
	sed -e "s#$_tn_p#$_tn_n#g" -e "s#${_tn_p%/*}/.libs/#/usr/sbin/#g" -e "s#${_tn_p%/*}/#/usr/sbin/#g" \
	    -e 's/activity count [0-9][0-9]*/activity count N/' \
	    -e 's/\[pid [0-9][0-9]*\]/[pid N]/g' \
	    -e 's/^ibwarn: \[[0-9][0-9]*\]/ibwarn: [N]/' \
	    -e 's/^ibpanic: \[[0-9][0-9]*\]/ibpanic: [N]/' \
	    -e 's/^# Topology file: generated on .*/# Topology file: generated on DATE/' "$@"
}

# our_tool_list BUILDDIR: the build's installed tools (its Makefile's IBMGMT_TOOLS), for a
# test run alone (make check exports IBMGMT_TOOLS); empty when the Makefile cannot say.
our_tool_list() {
	# shellcheck disable=SC2016 # $(IBMGMT_TOOLS) is make's
	printf 'ibmgmt-print-tools:\n\t@echo "IBMGMT_TOOLS: $(IBMGMT_TOOLS)"\n' |
		${MAKE:-make} -s -C "$1" -f Makefile -f - ibmgmt-print-tools 2>/dev/null |
		sed -n 's/^IBMGMT_TOOLS: //p'
}

# ref_tool TOOL: the reference program for our TOOL: infiniband-diags' in FABRIC_REF
# (/usr/sbin, or IBMGMT_REF_BINDIR), except ibv_devices, whose original is ibverbs-utils'
# in /usr/bin (or IBMGMT_REF_VERBS_BINDIR).
ref_tool() {
	case $1 in
	ibv_devices) echo "${IBMGMT_REF_VERBS_BINDIR:-/usr/bin}/$1" ;;
	*) echo "${FABRIC_REF:-${IBMGMT_REF_BINDIR:-/usr/sbin}}/$1" ;;
	esac
}
