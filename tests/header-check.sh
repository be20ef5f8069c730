#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Every public header compiles on its own, in C and in C++.
set -u
: "${top_srcdir:=.}" "${CC:=cc}" "${CXX:=c++}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for h in $IBMGMT_HEADERS; do
	inc=${h#*/include/}
	printf '#include <%s>\n#include <%s>\nint header_check_dummy;\n' "$inc" "$inc" > "$tmp/t.c"
	if ! $CC -std=c99 -Wall -Wextra -Werror -pedantic $IBMGMT_CPPFLAGS -c "$tmp/t.c" -o "$tmp/t.o"; then
		echo "FAIL: $inc does not compile alone as C"; fail=1
	fi
	if command -v "${CXX%% *}" >/dev/null 2>&1; then
		cp "$tmp/t.c" "$tmp/t.cc"
		if ! $CXX -Wall -Wextra -Werror $IBMGMT_CPPFLAGS -c "$tmp/t.cc" -o "$tmp/t.o"; then
			echo "FAIL: $inc does not compile alone as C++"; fail=1
		fi
	else
		echo "FAIL: no C++ compiler ($CXX)"; fail=1
	fi
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no headers given"; exit 99; }
echo "$n headers checked in C and C++"
exit $fail
