#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# debian/ keeps up with the libraries (make check; dpkg-buildpackage itself runs in
# tests/debian-build.sh).  For every configured library <lib> (IBMGMT_LIBRARIES, bottom
# of the stack first):
#   - debian/control has the runtime package <lib><major> (the soname's number, read from
#     the built library) and <lib>-dev, with their .install files;
#   - debian/<lib><major>.symbols names that soname and package and lists exactly the
#     symbols of <lib>/<lib>.sym, each with its version node (dpkg-gensymbols then fails
#     the package build on any difference from what the library really exports);
#   - <lib>-dev depends on the -dev packages of the modules <lib>.pc.in Requires:.
# Skipped (77) in a tree without debian/ (a release tarball).
#
#   debian-check.sh --symbols LIB   prints the symbols file LIB should have: the entries
#                                   of the current file kept, new symbols at the version
#                                   of configure.ac's AC_INIT.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}" "${top_builddir:=.}"
deb=$top_srcdir/debian
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# globals SYMFILE: "symbol node" for every global: name of a version script, and
# "node node" for each node, as dpkg-gensymbols lists them.
globals() {
	sed -e 's|/\*.*\*/||g' "$1" | awk '
		/^[ \t]*[A-Za-z0-9_.]+[ \t]*\{/ { node = $1; sub(/\{.*/, "", node); print node, node; next }
		/global:/ { g = 1; next }
		/local:/ { g = 0 }
		/^[ \t]*\}/ { g = 0 }
		g && /^[ \t]*[A-Za-z_][A-Za-z0-9_]*;/ { s = $1; sub(/;.*/, "", s); print s, node }'
}

# soname LIB: the soname of the built library, else lib.so.<current - age> from configure.ac.
soname() {
	so=$top_builddir/$1/.libs/$1.so
	if [ -f "$so" ] && command -v readelf > /dev/null 2>&1; then
		readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'
		return
	fi
	cur=$(sed -n "s/^m4_define(\[$1_current\], \[\([0-9]*\)\])/\1/p" "$top_srcdir/configure.ac")
	age=$(sed -n "s/^m4_define(\[$1_age\], \[\([0-9]*\)\])/\1/p" "$top_srcdir/configure.ac")
	[ -n "$cur" ] && [ -n "$age" ] && echo "$1.so.$((cur - age))"
}

# package_of SONAME: the Debian package name of a soname (libfoo.so.3 -> libfoo3,
# libfoo2.so.3 -> libfoo2-3).
package_of() {
	n=${1%%.so.*}
	v=${1##*.so.}
	case $n in *[0-9]) echo "$n-$v" ;; *) echo "$n$v" ;; esac
}

if [ "${1:-}" = --symbols ]; then
	lib=${2:?usage: $0 --symbols LIB}
	so=$(soname "$lib")
	pkg=$(package_of "$so")
	ver=$(sed -n 's/^AC_INIT(\[[^]]*\], \[\([^]]*\)\].*/\1/p' "$top_srcdir/configure.ac")
	echo "$so $pkg #MINVER#"
	echo "* Build-Depends-Package: $lib-dev"
	old=$deb/$pkg.symbols
	[ -f "$old" ] || old=/dev/null
	globals "$top_srcdir/$lib/$lib.sym" | awk -v ver="$ver" -v old="$old" '
		BEGIN {
			while ((getline line < old) > 0) {
				split(line, f, " ")
				if (f[1] ~ /@/)
					have[f[1]] = f[2]
			}
		}
		{ k = $1 "@" $2; printf " %s %s\n", k, (k in have) ? have[k] : ver }' | LC_ALL=C sort
	exit 0
fi

[ -d "$deb" ] || { echo "SKIP: no debian/ in this tree"; exit 77; }
[ -n "${IBMGMT_LIBRARIES:-}" ] || { echo "ERROR: IBMGMT_LIBRARIES is not set (run this through make check)"; exit 99; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
sed -n 's/^Package: *//p' "$deb/control" > "$tmp/packages"

for la in $IBMGMT_LIBRARIES; do
	lib=${la##*/}
	lib=${lib%.la}
	failed_before=$fail
	fail=0
	so=$(soname "$lib")
	if [ -z "$so" ]; then
		bad "$lib: no soname (not built, and no version-info in configure.ac)"
		continue
	fi
	pkg=$(package_of "$so")
	for p in "$pkg" "$lib-dev"; do
		grep -qx "$p" "$tmp/packages" || bad "debian/control: no package $p (for $so)"
		[ -f "$deb/$p.install" ] || bad "debian/$p.install is missing"
	done
	# the -dev package depends on the -dev packages of what the .pc Requires:
	requires=$(sed -n 's/^Requires: *//p' "$top_srcdir/$lib/$lib.pc.in" | tr ',' ' ')
	depends=$(awk -v p="$lib-dev" '
		/^Package:/ { on = ($2 == p); next }
		on && /^Depends:/ { d = 1; sub(/^Depends:/, ""); print; next }
		on && d && /^[ \t]/ { print; next }
		{ d = 0 }' "$deb/control")
	for r in $requires; do
		case $depends in
		*"$r-dev "* | *"$r-dev,"* | *"$r-dev") ;;
		*) bad "debian/control: $lib-dev does not depend on $r-dev ($lib.pc Requires: $r)" ;;
		esac
	done
	# the symbols file matches the version script
	sf=$deb/$pkg.symbols
	if [ ! -f "$sf" ]; then
		bad "debian/$pkg.symbols is missing (sh tests/debian-check.sh --symbols $lib > debian/$pkg.symbols)"
		[ $failed_before = 0 ] || fail=1
		continue
	fi
	head -n 1 "$sf" | grep -q "^$so $pkg #MINVER#\$" ||
		bad "debian/$pkg.symbols: the first line is not '$so $pkg #MINVER#'"
	globals "$top_srcdir/$lib/$lib.sym" | awk '{ print $1 "@" $2 }' | LC_ALL=C sort > "$tmp/want"
	sed -n 's/^ \([^ ]*@[^ ]*\) .*/\1/p' "$sf" | LC_ALL=C sort > "$tmp/have"
	LC_ALL=C comm -23 "$tmp/want" "$tmp/have" | sed "s|^|FAIL: debian/$pkg.symbols misses |"
	LC_ALL=C comm -13 "$tmp/want" "$tmp/have" | sed "s|^|FAIL: debian/$pkg.symbols lists what $lib.sym does not: |"
	if ! cmp -s "$tmp/want" "$tmp/have"; then
		echo "    (sh tests/debian-check.sh --symbols $lib > debian/$pkg.symbols brings it up to date)"
		fail=1
	fi
	[ $fail = 0 ] && echo "ok: $lib: packages $pkg and $lib-dev, $(wc -l < "$tmp/want") symbols in debian/$pkg.symbols as in $lib.sym"
	[ $failed_before = 0 ] || fail=1
done
exit $fail
