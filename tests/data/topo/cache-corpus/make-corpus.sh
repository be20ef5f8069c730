#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates the cache files of this directory: libibnetdisc's own (infiniband-diags'
# `ibnetdiscover --cache`) on simulated fabrics, for the check suite (ibtopo-cache.c reads
# each, writes it again and wants the same bytes; one it must refuse) and as the seeds of
# fuzz-ibtopo-cache.
#   top_srcdir=. sh tests/data/topo/cache-corpus/make-corpus.sh
set -u
: "${top_srcdir:=.}"
top_srcdir=$(cd "$top_srcdir" && pwd)
here=$top_srcdir/tests/data/topo/cache-corpus
. "$top_srcdir/tests/fabric/fabric.sh"
fabric_require

# cache NET SM_NODE HOST OUT [CONSOLE_COMMAND]: one fabric, one reference cache file written
# from HOST (after the ibsim console command, if any)
cache() {
	fabric_start "$1" "$2" || exit 1
	if [ -n "${5:-}" ]; then
		fabric_console "$5" >/dev/null || exit 1
	fi
	fabric_run "$3" "$FABRIC_REF/ibnetdiscover" -t 20 --cache "$FABRIC_DIR/out.cache" >/dev/null 2>&1 || exit 1
	cp "$FABRIC_DIR/out.cache" "$here/$4"
	fabric_stop
}

topo=$top_srcdir/tests/fabric/topo
tiny=$(mktemp)
cat >"$tiny" <<'NET'
Switch	4 "t-sw"
[1]	"t-h1"[1]
[2]	"t-h2"[2]

Hca	1 "t-h1"
[1]	"t-sw"[1]

Hca	2 "t-h2"
[2]	"t-sw"[2]
NET
cache "$tiny" t-sw t-h1 tiny.cache
rm -f "$tiny"
cache "$topo/two-switch.net" sw-a hca-a1 two-switch.cache
cache "$topo/two-switch.net" sw-a sw-b two-switch-from-switch.cache
cache "$topo/two-switch.net" - hca-b3 two-switch-no-sm.cache
cache "$topo/mixed.net" mx-sw1 mx-h1 mixed.cache
# sw-b's PortInfo answers lost (attribute 0x15): rdma-core 44 lists sw-b's ports 7 and 8 in
# its node record without port records for them, and cannot load the file (nor can we)
cache "$topo/two-switch.net" sw-a hca-a1 two-switch-portinfo-lost.cache 'Error "sw-b" 100 21'
