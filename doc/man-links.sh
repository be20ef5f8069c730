#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Link pages for the section 3 man pages.  A page documents every function its NAME section
# names; each name other than the page's own gets a one-line page <name>.3 holding
# ".so man3/<page>.3", so that `man <function>` finds it (rdma-core installs its aliases the
# same way).  The NAME sections are the only list: nothing else needs updating when a page
# documents one more function.
#
#   man-links.sh list PAGE...          print "<name> <page>" for every link page
#   man-links.sh install DIR PAGE...   write the link pages into DIR (a man3 directory)
#   man-links.sh uninstall DIR PAGE... remove them from DIR
#
# A name that is not a C identifier, or that two pages claim, or that is a page of its own,
# is an error (exit 1).
set -u
usage() { echo "usage: $0 list PAGE... | install DIR PAGE... | uninstall DIR PAGE..." >&2; exit 2; }
[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
list) dir= ;;
install | uninstall) [ $# -ge 1 ] || usage; dir=$1; shift ;;
*) usage ;;
esac

links=$(mktemp) || exit 1
trap 'rm -f "$links"' EXIT
for p in "$@"; do
	[ -f "$p" ] || { echo "man-links.sh: $p: no such page" >&2; exit 1; }
done
# One pass over every page: the names of each NAME section (the text before "\-", comma
# separated), checked, as "name page" lines.
awk '
	FNR == 1 {
		page = FILENAME
		sub(/.*\//, "", page)
		sub(/\.3$/, "", page)
		pages[page] = FILENAME
		inname = 0
		text[FILENAME] = ""
		order[++n] = FILENAME
	}
	/^\.SH/ {
		inname = ($0 ~ /^\.SH[ \t]+"?NAME"?[ \t]*$/)
		next
	}
	inname && !/^\.\\"/ { text[FILENAME] = text[FILENAME] " " $0 }
	END {
		for (i = 1; i <= n; i++) {
			f = order[i]
			page = f
			sub(/.*\//, "", page)
			sub(/\.3$/, "", page)
			t = text[f]
			sub(/\\-.*/, "", t)
			gsub(/\\f[BIRP]/, "", t)
			gsub(/,/, " ", t)
			k = split(t, names, " ")
			for (j = 1; j <= k; j++) {
				nm = names[j]
				if (nm == page)
					continue
				if (nm !~ /^[A-Za-z_][A-Za-z0-9_]*$/) {
					printf "man-links.sh: %s: \"%s\" in NAME is not a function name\n", f, nm > "/dev/stderr"
					err = 1
				} else if (nm in pages) {
					printf "man-links.sh: %s: %s in NAME has a page of its own\n", f, nm > "/dev/stderr"
					err = 1
				} else if (nm in owner) {
					printf "man-links.sh: %s: %s is also in the NAME of %s.3\n", f, nm, owner[nm] > "/dev/stderr"
					err = 1
				} else {
					owner[nm] = page
					print nm, page
				}
			}
		}
		exit err
	}' "$@" > "$links" || exit 1

case $cmd in
list) cat "$links" ;;
install)
	while read -r n page; do
		rm -f "$dir/$n.3"
		printf '.so man3/%s.3\n' "$page" > "$dir/$n.3" && chmod 644 "$dir/$n.3" || exit 1
	done < "$links"
	;;
uninstall)
	while read -r n _; do
		rm -f "$dir/$n.3"
	done < "$links"
	;;
esac
