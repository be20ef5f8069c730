#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each briefly:
# fuzz-ibstruct (libibstruct), fuzz-ibpath (libibpath's parser and path objects) and
# fuzz-rmpp (libibmadrpc's RMPP engine, rmpp.c).
# FUZZ_SECONDS is the whole budget, split evenly between the targets.
# Longer runs: FUZZ_SECONDS=600 sh tests/fuzz/run-fuzz.sh (see doc/libibstruct.md).
set -u
: "${top_srcdir:=.}" "${CLANG:=clang}" "${FUZZ_SECONDS:=21}"
command -v "$CLANG" >/dev/null 2>&1 || { echo "SKIP: no clang"; exit 77; }
out=${FUZZ_OUT:-$(mktemp -d)}
[ -n "${FUZZ_OUT:-}" ] || trap 'rm -rf "$out"' EXIT
each=$((FUZZ_SECONDS / 3))
[ "$each" -ge 1 ] || each=1
lib=$top_srcdir/libibstruct
path=$top_srcdir/libibpath
madrpc=$top_srcdir/libibmadrpc
IBSTRUCT_SRCS="$lib/ibstruct-gen.c $lib/desc.c $lib/guid.c $lib/names.c $lib/print.c $lib/print-saquery.c"
build() {
	"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-DPACKAGE_VERSION='"fuzz"' -I"$lib/include" -I"$lib" -I"$path/include" -I"$path" "$@"
}
# run NAME: fuzz one target for $each seconds with its corpus in $out/corpus-NAME
run() {
	"$out/$1" -max_total_time="$each" -max_len=1024 -rss_limit_mb=2048 \
		-print_final_stats=1 "$out/corpus-$1" 2>"$out/log-$1"
	rc=$?
	echo "=== $1 (exit $rc)"
	tail -n 15 "$out/log-$1"
	return $rc
}

# shellcheck disable=SC2086 # word splitting of the source lists is intended
build "$top_srcdir/tests/fuzz/fuzz-ibstruct.c" $IBSTRUCT_SRCS -o "$out/fuzz-ibstruct" || exit 1
# shellcheck disable=SC2086
build "$top_srcdir/tests/fuzz/fuzz-ibpath.c" "$path/sysfs.c" "$path/select.c" "$path/path.c" \
	"$path/addr.c" $IBSTRUCT_SRCS -o "$out/fuzz-ibpath" || exit 1
build -I"$madrpc" "$top_srcdir/tests/fuzz/fuzz-rmpp.c" "$madrpc/rmpp.c" -o "$out/fuzz-rmpp" || exit 1

mkdir -p "$out/corpus-fuzz-ibstruct" "$out/corpus-fuzz-ibpath" "$out/corpus-fuzz-rmpp"
# Seeds for the path parser: byte 0 is the flags ('@' none, 'D' -D, 'd' -D atoi, 'Q' -L mcast,
# 'B' -G, 'H' GID), then one address of each form.
i=0
for seed in '@2' '@0x2' '@010' 'Q0xc000' '@0x0002c90300001492' '@0002c90300001492' \
	'B0002:c903:0000:1492' '@fe80::2:c903:0:1492' 'Hfe80::1%mlx5_0/1' 'D0' '@0,1,4,' \
	'd0,x,3' '@IBPath(DLID=2,SL=2)' '@IBDRPath(drPath=0:1:4,drReturnPath=0:2:3,DLID=5)' \
	"@IBPath(DGID=GID('fe80::1'),SGID=::,hop_limit=64,end_port='mlx5_0/1',pkey=0x7fff)"; do
	printf '%s' "$seed" >"$out/corpus-fuzz-ibpath/seed$i"
	i=$((i + 1))
done
# Seeds for the RMPP engine: byte 0 the data offset (0 SA, 1 vendor), bytes 1-2 the payload
# length, then operations (low 3 bits): 3 send the next segments, 4 the same with losses,
# 5 a timeout, 1 (0xc1: 256 bytes shaped like ours) a raw packet to the sender.
r=$out/corpus-fuzz-rmpp
printf '\000\001\300\373\373\373' >"$r/seed-7-records"
printf '\000\372\000%s' "$(printf '\373%.0s' 1 2 3 4 5 6 7 8 9 10 11 12)" >"$r/seed-320-segments"
printf '\001\020\000\374\125\005\374\252\005\374\000\374\377\005\373\373' >"$r/seed-lossy"
# RMPP header bytes 25-35 of an ACK (1, 33) and of a STOP (RESX)
for t in '\002\001\000\000\000\000\001\000\000\000\041' '\003\001\001\000\000\000\000\000\000\000\000'; do
	{ printf '\000\001\300\373\301'; head -c 24 /dev/zero; printf "\\001$t"; head -c 220 /dev/zero
	  printf '\373\373'; } >"$r/seed-to-sender-$i"
	i=$((i + 1))
done

status=0
run fuzz-ibstruct || status=1
run fuzz-ibpath || status=1
run fuzz-rmpp || status=1
exit $status
