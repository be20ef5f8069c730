#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Differential tests of the legacy check family (ibcheckerrors, ibchecknet, ibcheckstate,
# ibcheckwidth, ibdatacounters, ibclearcounters, ibclearerrors, ibchecknode, ibcheckerrs,
# ibdatacounts, ibcheckport, ibcheckportstate, ibcheckportwidth) against the original
# infiniband-diags scripts, on the simulated fabric.
#
# Debian's infiniband-diags does not install those scripts (rdma-core builds them only with
# ENABLE_IBDIAGS_COMPAT), so the reference is made here: the scripts' sources
# (infiniband-diags/scripts/<name>.in), from
#   IBMGMT_LEGACY_SCRIPTS=DIR          a directory holding them, or
#   IBMGMT_RDMA_CORE_GIT=GITDIR        an rdma-core git repository (HEAD is read),
# configured as rdma-core installs them, into a directory that also holds (links to) the
# reference tools of $IBMGMT_REF_BINDIR (default /usr/sbin), so that each script runs the
# reference ibnetdiscover, smpquery, perfquery, ibaddr and the other scripts, as installed.
# Ours run our tools (the build's utils/), as installed beside them.
#
# Without the sources (a machine with no rdma-core tree, as CI), ours are compared with the
# originals' results recorded in tests/fabric/cases/expected/legacy/ (one file per case,
# named by the case line's cksum; the counters after each clearing run in clear-N):
#   IBMGMT_LEGACY_RECORD=1   with the sources: (re)write those records from the originals
#
# The scripts are run by bash: their "#!/bin/sh" line meant bash where they were written and
# used (echo -e, "==" in test, "trap ... SIGINT"); under dash every one of them prints
# "trap: SIGINT: bad trap" and "-e" before each coloured verdict.  Ours give bash's output
# whatever /bin/sh is.
#
# The cases are in tests/fabric/legacy-checks.cases (the format of tests/fabric/cases/);
# diff-tools.sh runs them with the made directory as the reference.
#
#   sh tests/fabric/legacy-checks.sh        (top_srcdir, top_builddir as in make check)
set -u
unset IBPATH
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
ref_tools=${IBMGMT_REF_BINDIR:-/usr/sbin}
scripts="ibcheckerrors ibcheckerrs ibchecknet ibchecknode ibcheckport ibcheckportstate
	ibcheckportwidth ibcheckstate ibcheckwidth ibclearcounters ibclearerrors ibdatacounters
	ibdatacounts"

records=$top_srcdir/tests/fabric/cases/expected/legacy
recorded=
if [ -z "${IBMGMT_LEGACY_SCRIPTS:-}" ] && [ -z "${IBMGMT_RDMA_CORE_GIT:-}" ]; then
	[ -d "$records" ] || { echo "ERROR: no original scripts and no records in $records"; exit 99; }
	echo "no original scripts (IBMGMT_LEGACY_SCRIPTS, IBMGMT_RDMA_CORE_GIT): comparing with their recorded results"
	recorded=1
elif ! command -v bash > /dev/null; then
	echo "SKIP: no bash to run the original scripts"
	exit 77
fi

refbin=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-legacy.XXXXXX") || exit 99
trap 'rm -rf "$refbin"' EXIT INT TERM HUP

for t in "$ref_tools"/*; do
	ln -s "$t" "$refbin/${t##*/}"
done
[ -n "$recorded" ] || for s in $scripts; do
	rm -f "$refbin/$s"
	if [ -n "${IBMGMT_LEGACY_SCRIPTS:-}" ]; then
		cat "$IBMGMT_LEGACY_SCRIPTS/$s.in"
	else
		git -C "$IBMGMT_RDMA_CORE_GIT" show "HEAD:infiniband-diags/scripts/$s.in"
	fi > "$refbin/$s.in" 2> /dev/null || { echo "SKIP: no original $s.in"; exit 77; }
	sed -e '1s|^#!/bin/sh|#!/bin/bash|' -e "s|@IBSCRIPTPATH@|$refbin|g" "$refbin/$s.in" > "$refbin/$s"
	chmod +x "$refbin/$s"
done

if [ -n "$recorded" ]; then
	IBMGMT_REF_RECORDED=$records sh "$top_srcdir/tests/fabric/diff-tools.sh" "$top_srcdir/tests/fabric/legacy-checks.cases"
elif [ -n "${IBMGMT_LEGACY_RECORD:-}" ]; then
	rm -rf "$records"
	IBMGMT_REF_RECORD=$records IBMGMT_REF_BINDIR=$refbin sh "$top_srcdir/tests/fabric/diff-tools.sh" "$top_srcdir/tests/fabric/legacy-checks.cases"
else
	IBMGMT_REF_BINDIR=$refbin sh "$top_srcdir/tests/fabric/diff-tools.sh" "$top_srcdir/tests/fabric/legacy-checks.cases"
fi
cases=$?
[ $cases -eq 0 ] || [ $cases -eq 77 ] || exit $cases

# ibclearerrors and ibclearcounters change the fabric: after each (ours, then the
# reference's, each from the same counters) the counters they should have cleared are read
# with the reference perfquery and compared.  sw-a port 10 carries no traffic, so its data
# counters stay what the set-up or the clearing made them; elsewhere they move with every
# MAD and are left out.
. "$top_srcdir/tests/fabric/fabric.sh"
. "$top_srcdir/tests/fabric/our-tool.sh"
our_tool_libs "$top_builddir"
trap 'fabric_stop; rm -rf "$refbin"' EXIT INT TERM HUP
fabric_start "$top_srcdir/tests/fabric/topo/two-switch.net" || { echo "ERROR: cannot start two-switch"; exit 99; }
n=0 fail=0
for run in ibclearerrors ibclearcounters "ibclearerrors -N" "ibclearcounters $top_srcdir/tests/fabric/cases/data/ibnetdiscover-two-switch.topo"; do
	n=$((n + 1))
	for who in ref ours; do
		if [ $who = ref ] && [ -n "$recorded" ]; then
			cp "$records/clear-$n" "$refbin/after-ref" || { echo "ERROR: no record clear-$n"; exit 99; }
			continue
		fi
		while IFS= read -r line; do
			case $line in '#'* | '') continue ;; esac
			fabric_console "$line" > /dev/null || { echo "ERROR: set-up failed: $line"; exit 99; }
		done < "$top_srcdir/tests/fabric/cases/data/qe-errors"
		# shellcheck disable=SC2086
		set -- $run
		if [ $who = ref ]; then prog=$refbin/$1; else prog=$(our_tool "$top_builddir" "$1"); fi
		shift
		{
			fabric_run hca-a1 "$prog" "$@" 2>&1
			echo "--- exit $?"
			for lp in "4 1" "3 7" "3 8" "9 2"; do
				# shellcheck disable=SC2086
				fabric_run hca-a1 "$ref_tools/perfquery" $lp | grep -Ev '(Data|Pkts):'
			done
			fabric_run hca-a1 "$ref_tools/perfquery" 1 10
		} | sed -e "s#${prog%/*}/.libs/#DIR/#g" -e "s#${prog%/*}/#DIR/#g" > "$refbin/after-$who"
		[ $who = ours ] || [ -z "${IBMGMT_LEGACY_RECORD:-}" ] || cp "$refbin/after-ref" "$records/clear-$n"
	done
	if ! cmp -s "$refbin/after-ref" "$refbin/after-ours"; then
		fail=$((fail + 1))
		echo "FAIL: counters after $run"
		diff -u "$refbin/after-ref" "$refbin/after-ours" | sed -n '3,30p' | sed 's/^/  /'
	fi
done
echo "$n runs of the clearing tools: $((n - fail)) left the counters as the reference's, $fail did not"
[ $fail -eq 0 ] && exit $cases
