#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The README's pkg-config example compiles against the built library and prints NodeInfo.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}" "${CC:=cc}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
sed -n '/^```c$/,/^```$/p' "$top_srcdir/README.md" | sed '1d;$d' > "$tmp/example.c"
[ -s "$tmp/example.c" ] || { echo "FAIL: no C example in README.md"; exit 1; }
libdir=$top_builddir/libibstruct/.libs
$CC ${TEST_CFLAGS:-} -I"$top_srcdir/libibstruct/include" "$tmp/example.c" -o "$tmp/example" \
	-L"$libdir" -Wl,-rpath,"$libdir" -libstruct || { echo "FAIL: the README example does not compile"; exit 1; }
"$tmp/example" > "$tmp/out" || { echo "FAIL: the README example exits with $?"; exit 1; }
head -n 1 "$tmp/out"
if [ "$(head -n 1 "$tmp/out")" != "BaseVers:........................1" ] ||
   ! grep -q '^NumPorts:........................8$' "$tmp/out"; then
	echo "FAIL: unexpected output:"; cat "$tmp/out"; exit 1
fi
echo "README example compiled and ran"
