#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Builds the libibstruct libFuzzer target with clang (ASan + UBSan) and runs it briefly.
# Longer runs: FUZZ_SECONDS=600 sh tests/fuzz/run-fuzz.sh (see doc/libibstruct.md).
set -u
: "${top_srcdir:=.}" "${CLANG:=clang}" "${FUZZ_SECONDS:=20}"
command -v "$CLANG" >/dev/null 2>&1 || { echo "SKIP: no clang"; exit 77; }
out=${FUZZ_OUT:-$(mktemp -d)}
[ -n "${FUZZ_OUT:-}" ] || trap 'rm -rf "$out"' EXIT
lib=$top_srcdir/libibstruct
"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-DPACKAGE_VERSION='"fuzz"' -I"$lib/include" -I"$lib" \
	"$top_srcdir/tests/fuzz/fuzz-ibstruct.c" "$lib/ibstruct-gen.c" "$lib/desc.c" \
	"$lib/guid.c" "$lib/names.c" "$lib/print.c" "$lib/print-saquery.c" -o "$out/fuzz-ibstruct" || exit 1
mkdir -p "$out/corpus"
"$out/fuzz-ibstruct" -max_total_time="$FUZZ_SECONDS" -max_len=1024 -rss_limit_mb=2048 \
	-print_final_stats=1 "$out/corpus" 2>"$out/log"
rc=$?
tail -n 15 "$out/log"
exit $rc
