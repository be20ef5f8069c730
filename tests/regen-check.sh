#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The committed generated files are exactly what the generator makes from the spec.
set -u
: "${top_srcdir:=.}" "${PYTHON3:=python3}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/libibstruct" "$tmp/tests"
specs=
for s in $IBSTRUCT_SPECS; do specs="$specs $top_srcdir/$s"; done
# the generator reads the hand-written part of the version script from the source tree
"$PYTHON3" "$top_srcdir/libibstruct/gen/ibstructgen.py" -o "$tmp/libibstruct" $specs || exit 1
fail=0
for f in $IBSTRUCT_GENERATED; do
	if ! cmp -s "$tmp/$f" "$top_srcdir/$f"; then
		echo "FAIL: $f differs from the generator's output (run 'make regen'):"
		diff -u "$top_srcdir/$f" "$tmp/$f" | head -20
		fail=1
	fi
done
[ $fail = 0 ] && echo "generated files match the spec"
exit $fail
