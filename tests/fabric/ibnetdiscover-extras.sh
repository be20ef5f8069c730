#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# ibnetdiscover's extras beyond infiniband-diags, on simulated fabrics:
#  --sa    the discovery from the SA's records prints what the directed-route walk prints,
#          but for what doc/libibtopo.md says the SA cannot give: the PortInfo of switch
#          ports without a link (their width and speed in -p) and the MAD count of -m;
#  --json  read back by ibtopo_import_json() (tests/topo/json-check), which exports the same
#          text again, with the nodes and links of the text output;
#  --dot   one vertex per node, one edge per link.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
. "$top_srcdir/tests/fabric/fabric.sh"
. "$top_srcdir/tests/fabric/our-tool.sh"
fabric_require
our_tool_libs "$top_builddir"
tool=$(our_tool "$top_builddir" ibnetdiscover)
check_json=$top_builddir/tests/topo/json-check
[ -x "$check_json" ] || { echo "SKIP: $check_json not built (make check builds it)"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ibnd-extras.XXXXXX") || exit 99
trap 'fabric_stop; rm -rf "$work"' EXIT INT TERM HUP

fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# what the SA cannot give, left out of both outputs
normalise() {
	sed -e '/^# Topology file: generated on/d' -e '/^# Total MADs used:/d' \
	    -e "/^SW  *[0-9]*  *[0-9]* 0x[0-9a-f]* [^-]*'[^']*'\$/d" "$1"
}

for spec in two-switch:hca-a1 mixed:mx-h1 deep:dp-h1 chassis:host-1; do
	topo=${spec%:*} host=${spec#*:}
	fabric_start "$top_srcdir/tests/fabric/topo/$topo.net" || exit 99
	for args in "" -f -s -g -l -m -p; do
		# shellcheck disable=SC2086
		fabric_run "$host" "$tool" $args > "$work/dr" 2>&1
		# shellcheck disable=SC2086
		fabric_run "$host" "$tool" --sa $args > "$work/sa" 2>&1
		normalise "$work/dr" > "$work/dr.n"
		normalise "$work/sa" > "$work/sa.n"
		if [ -s "$work/dr.n" ] && cmp -s "$work/dr.n" "$work/sa.n"; then
			ok "$topo: --sa $args as the DR walk"
		else
			bad "$topo: --sa $args differs from the DR walk"
			diff "$work/dr.n" "$work/sa.n" | head -20
		fi
	done

	fabric_run "$host" "$tool" --json > "$work/json" 2> "$work/json.err"
	fabric_run "$host" "$tool" -l > "$work/list"
	fabric_run "$host" "$tool" -p > "$work/ports"
	want=$(printf 'switches %s cas %s routers %s links %s' \
		"$(grep -c '^Switch' "$work/list")" "$(grep -c '^Ca' "$work/list")" \
		"$(grep -c '^Router' "$work/list")" "$(($(grep -c ' - ' "$work/ports") / 2))")
	got=$("$check_json" "$work/json")
	if [ $? -eq 0 ] && [ "$got" = "$want" ] && [ ! -s "$work/json.err" ]; then
		ok "$topo: --json imports and exports the same ($got)"
	else
		bad "$topo: --json: '$got', want '$want'"
	fi
	fabric_run "$host" "$tool" --cache "$work/cache" --json > /dev/null
	fabric_run "$host" "$tool" --load-cache "$work/cache" --json > "$work/json2"
	if "$check_json" "$work/json2" > /dev/null; then ok "$topo: --json of a cache file"; else bad "$topo: --json of a cache file"; fi

	fabric_run "$host" "$tool" --dot > "$work/dot"
	vertices=$(grep -c '^	n[0-9]* \[' "$work/dot")
	edges=$(grep -c '^	n[0-9]* -- n[0-9]*' "$work/dot")
	nodes=$(grep -c . "$work/list")
	if head -n 1 "$work/dot" | grep -q '^graph ' && [ "$vertices" -eq "$nodes" ] &&
		[ "$edges" -eq "$(($(grep -c ' - ' "$work/ports") / 2))" ]; then
		ok "$topo: --dot ($vertices vertices, $edges edges)"
	else
		bad "$topo: --dot: $vertices vertices, $edges edges"
	fi
	fabric_stop
done
exit $fail
