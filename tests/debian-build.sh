#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The Debian packages, as CI builds them (tests/run-all.sh, step 4):
#   1. a clean checkout (the files git tracks, as they are in the work tree; no build
#      products) is built with `dpkg-buildpackage -b -uc -us` (tests skipped: run-all.sh
#      has just run them), which also fails when a library's exports differ from its
#      debian/*.symbols;
#   2. lintian on the result: no errors;
#   3. every .deb is extracted with `dpkg -x` into a scratch root, not installed, and from
#      there an installed tool (decode_mad) runs and, for every library (the -dev packages
#      of debian/control), its consumer program (tests/install/<lib>.c) is built through
#      pkg-config from the root's files only, as C99 and C++, and runs, the loader taking
#      every ibmgmt library from the root.
# Usage: debian-build.sh WORKDIR [JOBS].  Exit 0 pass, 1 fail, 77 skip: dpkg-buildpackage,
# dh or lintian missing (an error with IBMGMT_REQUIRE_DEB=1, as CI sets it).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
work=${1:?usage: $0 WORKDIR [JOBS]}
jobs=${2:-2}
: "${CC:=cc}" "${CXX:=c++}" "${PKG_CONFIG:=pkg-config}"

for t in dpkg-buildpackage dh lintian dpkg-architecture; do
	if ! command -v "$t" > /dev/null 2>&1; then
		if [ "${IBMGMT_REQUIRE_DEB:-0}" = 1 ]; then
			echo "ERROR: $t not found (IBMGMT_REQUIRE_DEB=1; .ci/debian-packages lists what it needs)"
			exit 1
		fi
		echo "SKIP: $t not found: no Debian package build"
		exit 77
	fi
done

fail=0
bad() { echo "FAIL: $*"; fail=1; }
rm -rf "$work"
src=$work/ibmgmt
mkdir -p "$src" || exit 1
work=$(cd "$work" && pwd)
src=$work/ibmgmt

# ---- 1. the package build from a clean checkout --------------------------------------------
if command -v git > /dev/null 2>&1 && git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	(cd "$top" && git ls-files -z | tar --null --no-recursion -T - -cf -) | (cd "$src" && tar -xf -) ||
		{ echo "FAIL: cannot copy the tracked files"; exit 1; }
	how="the files git tracks"
else
	(cd "$top" && tar -cf - --exclude=./.git --exclude=./build --exclude=./autom4te.cache .) |
		(cd "$src" && tar -xf -) || { echo "FAIL: cannot copy the tree"; exit 1; }
	how="the tree without build/ (no git)"
fi
echo "building the packages from $how"
t0=$(date +%s)
if ! (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$jobs" DEB_BUILD_PROFILES=nocheck \
	dpkg-buildpackage -b -uc -us) > "$work/build.log" 2>&1; then
	echo "FAIL: dpkg-buildpackage -b -uc -us (last 60 lines of $work/build.log):"
	tail -n 60 "$work/build.log"
	exit 1
fi
echo "ok: dpkg-buildpackage -b -uc -us in $(($(date +%s) - t0)) s:"
(cd "$work" && ls ./*.deb) | sed 's|^\./|    |'

# ---- 2. lintian ------------------------------------------------------------------------------
changes=$(ls "$work"/*.changes)
lintian --fail-on error --tag-display-limit 0 "$changes" > "$work/lintian.log" 2>&1
rc=$?
sed 's/^/    lintian| /' "$work/lintian.log"
if [ $rc != 0 ] || grep -q '^E: ' "$work/lintian.log"; then
	bad "lintian reports errors"
else
	echo "ok: lintian: no errors ($(grep -c '^W: ' "$work/lintian.log") warnings)"
fi

# ---- 3. the packages extracted into a scratch root ----------------------------------------------
root=$work/root
mkdir -p "$root"
for d in "$work"/*.deb; do
	dpkg -x "$d" "$root" || bad "dpkg -x $d"
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=/usr/lib/$multiarch
pkgconfigdir=$libdir/pkgconfig
includedir=/usr/include
libs=$(sed -n 's/^Package: \(lib.*\)-dev$/\1/p' "$src/debian/control")
tmp=$work/tmp
mkdir -p "$tmp"

# loaded_from EXE WHAT: every ibmgmt library EXE needs comes from the root.
loaded_from() {
	LD_TRACE_LOADED_OBJECTS=1 LD_LIBRARY_PATH=$root$libdir "$1" > "$tmp/ldd" 2>&1 ||
		{ bad "$2: the loader cannot list its libraries"; return; }
	for l in $libs; do
		got=$(sed -n "s|^[[:space:]]*$l\.so[.0-9]* => \([^ ]*\) .*|\1|p" "$tmp/ldd")
		case $got in
		'' | "$root$libdir"/*) ;;
		*) bad "$2: $l is loaded from $got, not from the extracted packages" ;;
		esac
	done
}

tool=$root/usr/sbin/decode_mad
if [ -x "$tool" ]; then
	# a MAD header: SubnGet(NodeInfo), TID 1
	if echo 01010101 00000000 00000000 00000001 00110000 00000000 |
		LD_LIBRARY_PATH=$root$libdir "$tool" > "$tmp/out" 2>&1 && grep -q 'SMPNodeInfo' "$tmp/out"; then
		echo "ok: decode_mad from the extracted ibmgmt-tools runs"
		loaded_from "$tool" decode_mad
	else
		bad "decode_mad from the extracted package:"
		sed 's/^/    | /' "$tmp/out"
	fi
else
	bad "no /usr/sbin/decode_mad in the packages"
fi

for lib in $libs; do
	c=$top/tests/install/$lib.c
	[ -f "$c" ] || { bad "$lib: no consumer program tests/install/$lib.c"; continue; }
	flags=$(PKG_CONFIG_LIBDIR=$root$pkgconfigdir PKG_CONFIG_PATH='' PKG_CONFIG_SYSROOT_DIR=$root \
		PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 \
		"$PKG_CONFIG" --cflags --libs "$lib" 2>&1) || { bad "$lib: pkg-config: $flags"; continue; }
	for f in $flags; do
		case $f in
		-I"$root$includedir" | -L"$root$libdir" | -l*) ;;
		*) bad "$lib: pkg-config gives $f, which is not in the extracted packages" ;;
		esac
	done
	cp "$c" "$tmp/consumer.c"
	cp "$c" "$tmp/consumer.cc"
	# shellcheck disable=SC2086
	if $CC -std=c99 -pedantic -Wall -Wextra -Werror "$tmp/consumer.c" -o "$tmp/c" $flags > "$tmp/cc.log" 2>&1 &&
		$CXX -std=c++11 -pedantic -Wall -Wextra -Werror "$tmp/consumer.cc" -o "$tmp/cxx" $flags >> "$tmp/cc.log" 2>&1; then
		ran=0
		for exe in "$tmp/c" "$tmp/cxx"; do
			if LD_LIBRARY_PATH=$root$libdir "$exe" > "$tmp/out" 2>&1; then
				loaded_from "$exe" "$lib consumer"
				ran=$((ran + 1))
			else
				bad "$lib: the consumer exits with $?:"
				sed 's/^/    | /' "$tmp/out"
			fi
		done
		[ $ran = 2 ] &&
			echo "ok: $lib: its consumer built from the extracted packages through pkg-config (C99, C++) and ran: $(tail -n 1 "$tmp/out")"
	else
		bad "$lib: the consumer does not build from the extracted packages:"
		sed 's/^/    | /' "$tmp/cc.log"
	fi
done
exit $fail
