#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The libraries as a program outside the tree sees them: from installed files only.
#
# make check (no argument), in a scratch directory:
#   1. `make install DESTDIR=<tmp>/all`; for every configured library, a consumer program
#      (tests/install/<lib>.c) is compiled and linked with the flags `pkg-config --cflags
#      --libs <lib>` gives for that tree (every -I/-L inside it), as C99 `-pedantic -Werror`
#      and as C++ (a header without extern "C" fails the C++ link), then run against that
#      tree's libraries (the loader must take every ibmgmt library from it) and its last line
#      must be "<lib> <pkg-config --modversion>".  The README's pkg-config example is built
#      with the README's own command.  An installed tool runs.
#   2. `make install-<lib> DESTDIR=<tmp>/<lib>` for every library: it holds exactly that
#      library's files (its .so, .so.N, .la, the headers of <lib>/include/ibmgmt/, <lib>.pc,
#      its man pages of <lib>/man/ and their link pages), all of them part of `make install`;
#      what `make install` adds beyond the libraries is the tools and their section 8 pages.
#      The per-library trees, stacked bottom up, build and run each consumer again.
#   3. tests/man-check.sh on the section 3 pages of the full install.
# make installcheck (--installed): steps 1 (without the README and tool runs) and 3 on what
# `make install` put under $(DESTDIR)$(prefix).
#
# The library list is the build's lib_LTLIBRARIES (IBMGMT_LIBRARIES), bottom of the stack
# first: a new library needs no change here, only its own files (doc/adding-a-library.md).
# shellcheck disable=SC2154 # prefix, libdir, ... come from make (AM_TESTS_ENVIRONMENT), checked below
set -u
mode=check
[ "${1:-}" = --installed ] && mode=installed
: "${top_srcdir:=.}" "${top_builddir:=.}" "${CC:=cc}" "${CXX:=c++}" "${MAKE:=make}"
: "${PKG_CONFIG:=pkg-config}" "${TEST_CFLAGS:=}" "${IBMGMT_MAN:=yes}"
for v in IBMGMT_LIBRARIES prefix libdir includedir pkgconfigdir mandir sbindir; do
	eval "val=\${$v:-}"
	[ -n "$val" ] || { echo "ERROR: $v is not set (run this through make check)"; exit 99; }
done
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
# the make of this test must not take part in the jobserver or flags of the make that runs it
unset MAKEFLAGS MFLAGS MAKELEVEL

fail=0
bad() { echo "FAIL: $*"; fail=1; }

libs=
for la in $IBMGMT_LIBRARIES; do
	l=${la##*/}
	libs="$libs ${l%.la}"
done
[ -n "$libs" ] || { echo "SKIP: no library is configured"; exit 77; }

# pc ROOT ARGS...: pkg-config sees only ROOT's modules, with ROOT's prefix on every path, and
# keeps -I/usr/include style flags (ROOT/usr/include is not a system directory).
pc() {
	_root=$1
	shift
	PKG_CONFIG_LIBDIR=$_root$pkgconfigdir PKG_CONFIG_PATH='' PKG_CONFIG_SYSROOT_DIR=$_root \
		PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 "$PKG_CONFIG" "$@"
}

# loaded_from ROOT EXE WHAT: the loader takes every ibmgmt library EXE needs from ROOT.
loaded_from() {
	LD_TRACE_LOADED_OBJECTS=1 LD_LIBRARY_PATH=$1$libdir "$2" > "$tmp/ldd" 2>&1 ||
		{ bad "$3: the loader cannot list its libraries:"; sed 's/^/    | /' "$tmp/ldd"; return; }
	for l in $libs; do
		_got=$(sed -n "s|^[[:space:]]*$l\.so[.0-9]* => \([^ ]*\) .*|\1|p" "$tmp/ldd")
		case $_got in
		'' | "$1$libdir"/*) ;;
		*) bad "$3: $l is loaded from $_got, not from $1$libdir" ;;
		esac
	done
}

# consumer ROOT LIB WHERE: tests/install/LIB.c built from ROOT through pkg-config, as C99
# and as C++, and run.
consumer() {
	root=$1 lib=$2 where=$3
	src=$top_srcdir/tests/install/$lib.c
	[ -f "$src" ] || { bad "$lib: no consumer program tests/install/$lib.c"; return; }
	flags=$(pc "$root" --cflags --libs "$lib" 2>&1) ||
		{ bad "$lib ($where): pkg-config --cflags --libs $lib: $flags"; return; }
	ver=$(pc "$root" --modversion "$lib")
	for f in $flags; do
		case $f in
		-I*) case ${f#-I} in "$root$includedir" | "$root$includedir"/*) ;; *) bad "$lib ($where): $f is outside the installed tree" ;; esac ;;
		-L*) case ${f#-L} in "$root$libdir" | "$root$libdir"/*) ;; *) bad "$lib ($where): $f is outside the installed tree" ;; esac ;;
		esac
	done
	cp "$src" "$tmp/consumer.c"
	cp "$src" "$tmp/consumer.cc"
	# shellcheck disable=SC2086
	if ! $CC -std=c99 -pedantic -Wall -Wextra -Werror $TEST_CFLAGS "$tmp/consumer.c" \
		-o "$tmp/consumer-c" $flags > "$tmp/cc.log" 2>&1; then
		bad "$lib ($where): the consumer does not build as C99:"
		sed 's/^/    | /' "$tmp/cc.log"
		return
	fi
	# shellcheck disable=SC2086
	if ! $CXX -std=c++11 -pedantic -Wall -Wextra -Werror $TEST_CFLAGS "$tmp/consumer.cc" \
		-o "$tmp/consumer-cxx" $flags > "$tmp/cc.log" 2>&1; then
		bad "$lib ($where): the consumer does not build as C++:"
		sed 's/^/    | /' "$tmp/cc.log"
		return
	fi
	for lang in c cxx; do
		exe=$tmp/consumer-$lang
		if ! LD_LIBRARY_PATH=$root$libdir "$exe" > "$tmp/out" 2>&1; then
			bad "$lib ($where, $lang): the consumer exits with $?:"
			sed 's/^/    | /' "$tmp/out"
			continue
		fi
		last=$(tail -n 1 "$tmp/out")
		[ "$last" = "$lib $ver" ] || bad "$lib ($where, $lang): printed '$last', expected '$lib $ver'"
		loaded_from "$root" "$exe" "$lib ($where, $lang)"
	done
	echo "ok: $lib $ver from $where: C99 and C++ consumers built through pkg-config and ran"
}

# list DIR: every file and link under DIR, as absolute paths of the installed system.
list() {
	(cd "$1" && find . \( -type f -o -type l \) -print) | sed 's|^\.||' | LC_ALL=C sort
}

# man_pages LIB: the section 3 pages of LIB as installed: its pages and their link pages.
man_pages() {
	[ "$IBMGMT_MAN" = yes ] || return 0
	set -- "$top_srcdir/$1"/man/*.3
	[ -f "$1" ] || return 0
	for p in "$@"; do
		echo "$mandir/man3/${p##*/}"
	done
	sh "$top_srcdir/doc/man-links.sh" list "$@" |
		while read -r name _page; do echo "$mandir/man3/$name.3"; done
}

# wanted LIB ALL: the files of LIB (ALL: the file list of the full install, for the .so names)
wanted() {
	grep -E "^$libdir/$1(\\.so(\\.[0-9]+)*|\\.la)\$" "$2"
	for h in "$top_srcdir/$1"/include/ibmgmt/*.h; do
		[ -f "$h" ] && echo "$includedir/ibmgmt/${h##*/}"
	done
	echo "$pkgconfigdir/$1.pc"
	man_pages "$1"
}

if [ $mode = installed ]; then
	root=${DESTDIR:-}
	for lib in $libs; do
		consumer "$root" "$lib" "$root$prefix"
	done
	if [ "$IBMGMT_MAN" = yes ]; then
		# shellcheck disable=SC2086
		sh "$top_srcdir/tests/man-check.sh" "$root$mandir" $libs || fail=1
	fi
	exit $fail
fi

# ---- 1. make install --------------------------------------------------------------------
all=$tmp/all
if ! (cd "$top_builddir" && $MAKE install DESTDIR="$all") > "$tmp/make.log" 2>&1; then
	echo "FAIL: make install DESTDIR=...:"
	tail -n 40 "$tmp/make.log"
	exit 1
fi
list "$all" > "$tmp/all.files"
for lib in $libs; do
	consumer "$all" "$lib" "make install"
done

# The README's example, with the README's command (cc replaced by the configured compiler).
cmd=$(sed -n 's/^    cc example\.c \$(pkg-config \(.*\))$/\1/p' "$top_srcdir/README.md")
sed -n '/^```c$/,/^```$/p' "$top_srcdir/README.md" | sed '1d;$d' > "$tmp/example.c"
if [ -z "$cmd" ] || [ ! -s "$tmp/example.c" ]; then
	bad "README.md: no C example or no 'cc example.c \$(pkg-config ...)' line"
else
	# shellcheck disable=SC2086,SC2046
	if (cd "$tmp" && $CC $TEST_CFLAGS example.c -o example $(pc "$all" $cmd)) > "$tmp/cc.log" 2>&1 &&
		LD_LIBRARY_PATH=$all$libdir "$tmp/example" > "$tmp/out" 2>&1 &&
		[ "$(head -n 1 "$tmp/out")" = "BaseVers:........................1" ]; then
		echo "ok: the README example builds with 'pkg-config $cmd' and runs"
	else
		bad "README example with 'pkg-config $cmd':"
		cat "$tmp/cc.log" "$tmp/out" 2>/dev/null | sed 's/^/    | /'
	fi
fi

# An installed tool runs (linked to the installed libraries with --enable-shared-tools).
if [ -x "$all$sbindir/decode_mad" ]; then
	# a MAD header: SubnGet(NodeInfo), TID 1
	if echo 01010101 00000000 00000000 00000001 00110000 00000000 | LD_LIBRARY_PATH=$all$libdir "$all$sbindir/decode_mad" > "$tmp/out" 2>&1; then
		echo "ok: the installed decode_mad runs"
		loaded_from "$all" "$all$sbindir/decode_mad" "decode_mad"
	else
		bad "the installed decode_mad exits with $?:"
		sed 's/^/    | /' "$tmp/out"
	fi
fi

# ---- 2. every library alone ---------------------------------------------------------------
stack=$tmp/stack
mkdir -p "$stack"
: > "$tmp/owned.files"
for lib in $libs; do
	one=$tmp/one-$lib
	if ! (cd "$top_builddir" && $MAKE "install-$lib" DESTDIR="$one") > "$tmp/make.log" 2>&1; then
		bad "make install-$lib DESTDIR=...:"
		tail -n 40 "$tmp/make.log"
		continue
	fi
	list "$one" > "$tmp/one.files"
	wanted "$lib" "$tmp/all.files" | LC_ALL=C sort -u > "$tmp/want.files"
	n=$(wc -l < "$tmp/one.files")
	grep -qE "^$libdir/$lib\\.so\$" "$tmp/one.files" || bad "install-$lib: no $libdir/$lib.so"
	grep -qE "^$libdir/$lib\\.so\\.[0-9]+\$" "$tmp/one.files" || bad "install-$lib: no $libdir/$lib.so.N"
	LC_ALL=C comm -23 "$tmp/one.files" "$tmp/want.files" | sed "s/^/FAIL: install-$lib installs a file not of $lib: /"
	LC_ALL=C comm -13 "$tmp/one.files" "$tmp/want.files" | sed "s/^/FAIL: install-$lib misses: /"
	LC_ALL=C comm -23 "$tmp/one.files" "$tmp/all.files" | sed "s/^/FAIL: install-$lib installs what make install does not: /"
	if ! cmp -s "$tmp/one.files" "$tmp/want.files" ||
		[ -n "$(LC_ALL=C comm -23 "$tmp/one.files" "$tmp/all.files")" ]; then
		fail=1
	else
		echo "ok: make install-$lib installs exactly its $n files"
	fi
	cat "$tmp/one.files" >> "$tmp/owned.files"
	cp -R "$one/." "$stack/"
	consumer "$stack" "$lib" "install-$lib on the layers below it"
done

# What make install puts beyond the libraries: the tools and their man pages only.
LC_ALL=C sort -u "$tmp/owned.files" -o "$tmp/owned.files"
LC_ALL=C comm -23 "$tmp/all.files" "$tmp/owned.files" |
	grep -v -e "^$sbindir/" -e "^$mandir/man8/" > "$tmp/stray" || true
if [ -s "$tmp/stray" ]; then
	sed 's/^/FAIL: make install installs a file of no library and no tool: /' "$tmp/stray"
	fail=1
else
	echo "ok: make install holds the libraries' files, the tools and their man pages, nothing else"
fi

# ---- 3. man pages ---------------------------------------------------------------------------
if [ "$IBMGMT_MAN" = yes ]; then
	# shellcheck disable=SC2086
	sh "$top_srcdir/tests/man-check.sh" "$all$mandir" $libs || fail=1
fi

exit $fail
