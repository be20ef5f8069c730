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
# Ours run our tools (the build's utils/), as installed beside them.  Without the sources
# the test is skipped.
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

if [ -z "${IBMGMT_LEGACY_SCRIPTS:-}" ] && [ -z "${IBMGMT_RDMA_CORE_GIT:-}" ]; then
	echo "SKIP: no original scripts (set IBMGMT_LEGACY_SCRIPTS or IBMGMT_RDMA_CORE_GIT)"
	exit 77
fi
command -v bash > /dev/null || { echo "SKIP: no bash to run the original scripts"; exit 77; }

refbin=$(mktemp -d "${TMPDIR:-/tmp}/ibmgmt-legacy.XXXXXX") || exit 99
trap 'rm -rf "$refbin"' EXIT INT TERM HUP

for t in "$ref_tools"/*; do
	ln -s "$t" "$refbin/${t##*/}"
done
for s in $scripts; do
	rm -f "$refbin/$s"
	if [ -n "${IBMGMT_LEGACY_SCRIPTS:-}" ]; then
		cat "$IBMGMT_LEGACY_SCRIPTS/$s.in"
	else
		git -C "$IBMGMT_RDMA_CORE_GIT" show "HEAD:infiniband-diags/scripts/$s.in"
	fi > "$refbin/$s.in" 2> /dev/null || { echo "SKIP: no original $s.in"; exit 77; }
	sed -e '1s|^#!/bin/sh|#!/bin/bash|' -e "s|@IBSCRIPTPATH@|$refbin|g" "$refbin/$s.in" > "$refbin/$s"
	chmod +x "$refbin/$s"
done

IBMGMT_REF_BINDIR=$refbin sh "$top_srcdir/tests/fabric/diff-tools.sh" "$top_srcdir/tests/fabric/legacy-checks.cases"
