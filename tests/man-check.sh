#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The installed section 3 man pages of each library (tests/install-check.sh runs this on
# the tree `make install` wrote; make installcheck on the real one):
#   - every symbol the library exports (the global: names of <lib>/<lib>.sym) has a page
#     <symbol>.3 in MANDIR/man3, a page of its own or a ".so" link page whose target is there;
#   - <lib>.3, the overview, is installed, and so is every page of <lib>/man/;
#   - every page renders with `man -l` without a warning or error (as lintian checks them;
#     one link page per library too, from MANDIR, as man resolves ".so");
#   - a page has NAME, SYNOPSIS, DESCRIPTION and SEE ALSO, and one that documents functions
#     also RETURN VALUE and ERRORS; each function in its NAME is declared in its SYNOPSIS,
#     and its NAME lists nothing but the library's exported functions and the page itself.
# Usage: man-check.sh MANDIR LIB...   Exit 0 pass, 1 fail.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
[ $# -ge 2 ] || { echo "usage: $0 MANDIR LIB..." >&2; exit 99; }
mandir=$1
shift
command -v man > /dev/null 2>&1 || { echo "FAIL: no man command (man-db) to render the pages with"; exit 1; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# syms SYMFILE: the global: names of a version script.
syms() {
	sed -e 's|/\*.*\*/||g' "$1" | awk '
		/global:/ { g = 1; next }
		/local:/ { g = 0 }
		g && /^[ \t]*[A-Za-z_][A-Za-z0-9_]*;/ { gsub(/[ \t;]/, ""); print }'
}

# render FILE: `man -l` as lintian runs it; prints groff's and man's complaints.
render() {
	{ LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$1" > /dev/null; } 2>&1
}

for lib in "$@"; do
	failed_before=$fail
	fail=0
	sym=$top_srcdir/$lib/$lib.sym
	[ -f "$sym" ] || { bad "$lib: no version script $lib/$lib.sym"; continue; }
	syms "$sym" | LC_ALL=C sort -u > "$tmp/syms"
	nsyms=$(wc -l < "$tmp/syms")
	[ -f "$mandir/man3/$lib.3" ] || bad "$lib: the overview page $lib.3 is not installed"

	# every page of the library is installed and renders cleanly
	pages=
	npages=0
	for src in "$top_srcdir/$lib"/man/*.3; do
		[ -f "$src" ] || continue
		page=${src##*/}
		inst=$mandir/man3/$page
		npages=$((npages + 1))
		[ -f "$inst" ] || { bad "$lib: $page is not installed in $mandir/man3"; continue; }
		pages="$pages $inst"
		out=$(render "$inst")
		[ -z "$out" ] || { bad "$page: man -l complains:"; printf '%s\n' "$out" | sed 's/^/    | /'; }
	done
	[ $npages -gt 0 ] || bad "$lib: no man pages in $lib/man/"

	# ... and is complete: sections, NAME against the exports and the SYNOPSIS (one pass)
	# shellcheck disable=SC2086
	[ -z "$pages" ] || awk -v lib="$lib" '
		FILENAME == ARGV[1] { sym[$0] = 1; next }
		FNR == 1 {
			if (cur != "")
				check()
			cur = FILENAME
			page = cur
			sub(/.*\//, "", page)
			sub(/\.3$/, "", page)
			sec = ""
			delete have
			name = ""
			synopsis = ""
		}
		/^\.SH/ {
			sec = $0
			sub(/^\.SH[ \t]+/, "", sec)
			gsub(/"/, "", sec)
			have[sec] = 1
			next
		}
		/^\.\\"/ { next }
		sec == "NAME" { name = name " " $0 }
		sec == "SYNOPSIS" {
			line = $0
			gsub(/\\f[BIRP]/, "", line)
			gsub(/\\&/, "", line)
			synopsis = synopsis " " line
		}
		function check(   t, k, i, n, documents, s) {
			t = name
			sub(/\\-.*/, "", t)
			gsub(/\\f[BIRP]/, "", t)
			gsub(/,/, " ", t)
			k = split(t, names, " ")
			documents = 0
			for (i = 1; i <= k; i++) {
				n = names[i]
				if (n == page)
					continue
				if (!(n in sym)) {
					printf "FAIL: %s.3: NAME lists %s, which %s does not export\n", page, n, lib
					continue
				}
				documents = 1
				if (synopsis !~ ("[^A-Za-z0-9_]" n " *\\("))
					printf "FAIL: %s.3: %s is in NAME but not declared in SYNOPSIS\n", page, n
			}
			split("NAME SYNOPSIS DESCRIPTION", need, " ")
			need[4] = "SEE ALSO"
			if (documents) {
				need[5] = "RETURN VALUE"
				need[6] = "ERRORS"
			}
			for (s in need)
				if (!(need[s] in have))
					printf "FAIL: %s.3: no %s section\n", page, need[s]
			delete need
		}
		END {
			if (cur != "")
				check()
		}' "$tmp/syms" $pages > "$tmp/page-fails"
	if [ -s "$tmp/page-fails" ]; then
		cat "$tmp/page-fails"
		fail=1
	fi

	# every exported symbol has a page or a link page that leads to one
	one_link=
	while read -r s; do
		f=$mandir/man3/$s.3
		if [ ! -f "$f" ]; then
			bad "$lib: $s has no man page ($s.3 is neither a page nor a link page)"
			continue
		fi
		IFS= read -r first < "$f" || first=
		target=
		case $first in .so\ *) target=${first#.so } ;; esac
		if [ -n "$target" ]; then
			[ -f "$mandir/$target" ] || bad "$s.3 links to $target, which is not installed"
			IFS= read -r first < "$mandir/$target" 2> /dev/null || first=
			case $first in .so\ *) bad "$s.3 links to $target, itself a link" ;; esac
			[ -n "$one_link" ] || one_link=man3/$s.3
		fi
	done < "$tmp/syms"
	# man resolves a link page relative to the man directory
	if [ -n "$one_link" ]; then
		out=$(cd "$mandir" && render "$one_link")
		[ -z "$out" ] || { bad "$one_link: man -l complains:"; printf '%s\n' "$out" | sed 's/^/    | /'; }
		(cd "$mandir" && MANWIDTH=80 man -l "$one_link" 2> /dev/null) | grep -q . ||
			bad "$one_link: renders empty"
	fi
	[ $fail = 0 ] && echo "ok: $lib: $nsyms exported functions, each with a man page; $npages pages render cleanly"
	[ $failed_before = 0 ] || fail=1
done
exit $fail
