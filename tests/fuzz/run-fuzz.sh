#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Builds the libFuzzer targets with clang (ASan + UBSan), replays the inputs that once found
# a bug (tests/fuzz/regress/<target>/) and fuzzes each target, one after the other:
#   fuzz-ibstruct        libibstruct: unpack/print/pack of every structure, its text parsers
#   fuzz-ibpath          libibpath: address strings (ibpath_parse) and path objects
#   fuzz-ibpath-sysfs    libibpath: the sysfs reader on any tree and file contents
#   fuzz-rmpp            libibmadrpc: the RMPP engine (rmpp.c)
#   fuzz-madrpc          libibmadrpc: received MADs at a port (matching, RMPP, server side)
#   fuzz-ibsa-answer     libibsa: SA answers split into records (AttributeOffset, cut tables)
#   fuzz-ibtopo-cache    libibtopo: the ibnetdiscover cache file reader
#   fuzz-ibtopo-json     libibtopo: the JSON reader and the exports
#   fuzz-ibtopo-nodemap  libibtopo: the node-name-map parser against rdma-core's loop
#   fuzz-conffile        utils/common/conffile.c: ibdiag.conf, ibqueryerrors' thresholds,
#                        the tools' node-name-map reader
#   fuzz-perlre          utils/common/perlre.c: the scripts' rewrites' matcher on their input
#                        lines and on patterns
#   fuzz-decode-mad      utils/decode_mad.c: the whole tool on any standard input
# Seeds: tests/fuzz/corpus/<target>/ and tests/data/topo/*-corpus/.
#
# Short mode (make check): FUZZ_SECONDS (default 36) is the whole budget, split evenly.
# Long mode (make fuzz-long): FUZZ_RUNS=10000000 runs each target to that many executions
# (-runs), FUZZ_LONG_SECONDS (default 0: none) caps each target's time, and a summary line
# per target gives executions, exec/s, time, coverage, new corpus units and crashes.
# FUZZ_TARGETS runs only some targets; FUZZ_OUT keeps the binaries, corpora and logs
# (FUZZ_BUILD=0 then reuses the binaries).  Exit status: 0 clean, 1 a finding or a failed
# build, 77 no clang.
set -u
: "${top_srcdir:=.}" "${CLANG:=clang}" "${FUZZ_SECONDS:=36}" "${FUZZ_RUNS:=}" \
	"${FUZZ_LONG_SECONDS:=0}" "${FUZZ_BUILD:=1}"
command -v "$CLANG" >/dev/null 2>&1 || { echo "SKIP: no clang"; exit 77; }
out=${FUZZ_OUT:-$(mktemp -d)}
[ -n "${FUZZ_OUT:-}" ] || trap 'rm -rf "$out"' EXIT
mkdir -p "$out" || exit 1
TARGETS="fuzz-ibstruct fuzz-ibpath fuzz-ibpath-sysfs fuzz-rmpp fuzz-madrpc fuzz-ibsa-answer fuzz-ibtopo-cache \
fuzz-ibtopo-json fuzz-ibtopo-nodemap fuzz-conffile fuzz-perlre fuzz-decode-mad"
RUN=${FUZZ_TARGETS:-$TARGETS}
# shellcheck disable=SC2086 # counting words
set -- $RUN
each=$((FUZZ_SECONDS / $#))
[ "$each" -ge 1 ] || each=1
fz=$top_srcdir/tests/fuzz
lib=$top_srcdir/libibstruct
path=$top_srcdir/libibpath
madrpc=$top_srcdir/libibmadrpc
topo=$top_srcdir/libibtopo
common=$top_srcdir/utils/common
CFLAGS_FUZZ="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
INCS="-I$lib/include -I$lib -I$path/include -I$path -I$madrpc/include -I$top_srcdir/libibsched/include \
-I$top_srcdir/libibsa/include -I$topo/include"
build() {
	# shellcheck disable=SC2086 # word splitting of the flag lists is intended
	"$CLANG" $CFLAGS_FUZZ -DPACKAGE_VERSION='"fuzz"' $INCS "$@"
}

if [ "$FUZZ_BUILD" != 0 ]; then
	# libibstruct (its generated tables are large): compiled once for every target
	IBSTRUCT_OBJS=
	for s in ibstruct-gen desc guid names print print-saquery; do
		# shellcheck disable=SC2086
		"$CLANG" $CFLAGS_FUZZ -fsanitize=fuzzer-no-link -DPACKAGE_VERSION='"fuzz"' $INCS -c "$lib/$s.c" \
			-o "$out/ibstruct-$s.o" || exit 1
		IBSTRUCT_OBJS="$IBSTRUCT_OBJS $out/ibstruct-$s.o"
	done
	IBPATH_SRCS="$path/select.c $path/path.c $path/addr.c"
	# libibtopo's sources include the build's config.h: the little they need from it
	printf '#define _GNU_SOURCE 1\n' >"$out/config.h"
	# shellcheck disable=SC2086 # word splitting of the source lists is intended
	{ build "$fz/fuzz-ibstruct.c" $IBSTRUCT_OBJS -o "$out/fuzz-ibstruct" &&
	build "$fz/fuzz-ibpath.c" "$path/sysfs.c" $IBPATH_SRCS $IBSTRUCT_OBJS -o "$out/fuzz-ibpath" &&
	build "$fz/fuzz-ibpath-sysfs.c" $IBPATH_SRCS $IBSTRUCT_OBJS -o "$out/fuzz-ibpath-sysfs" &&
	build -I"$madrpc" "$fz/fuzz-rmpp.c" "$madrpc/rmpp.c" -o "$out/fuzz-rmpp" &&
	build -D_GNU_SOURCE -I"$madrpc" "$fz/fuzz-madrpc.c" "$madrpc/rmpp.c" "$madrpc/error.c" \
		"$madrpc/port.c" "$madrpc/call.c" "$madrpc/trace.c" "$madrpc/server.c" "$path/sysfs.c" \
		$IBPATH_SRCS $IBSTRUCT_OBJS -libumad -o "$out/fuzz-madrpc" &&
	build -D_GNU_SOURCE -I"$madrpc" -I"$top_srcdir/libibsched" -I"$top_srcdir/libibsa" \
		"$fz/fuzz-ibsa-answer.c" "$top_srcdir/libibsa/sa.c" "$top_srcdir/libibsa/subn.c" \
		"$top_srcdir/libibsa/pathrec.c" "$top_srcdir/libibsched/sched.c" "$madrpc/rmpp.c" \
		"$madrpc/error.c" "$madrpc/port.c" "$madrpc/call.c" "$madrpc/trace.c" "$madrpc/server.c" \
		"$path/sysfs.c" $IBPATH_SRCS $IBSTRUCT_OBJS -libumad -o "$out/fuzz-ibsa-answer" &&
	build -I"$out" -I"$topo" "$fz/fuzz-ibtopo-cache.c" "$topo/cache.c" "$topo/topo.c" \
		"$topo/chassis.c" -o "$out/fuzz-ibtopo-cache" &&
	build -I"$out" -I"$topo" "$fz/fuzz-ibtopo-json.c" "$topo/export.c" "$topo/diff.c" \
		"$topo/topo.c" "$topo/chassis.c" -o "$out/fuzz-ibtopo-json" &&
	build -I"$out" -I"$topo" -I"$top_srcdir/tests/topo" "$fz/fuzz-ibtopo-nodemap.c" \
		"$topo/nodemap.c" -o "$out/fuzz-ibtopo-nodemap" &&
	build -D_GNU_SOURCE -I"$common" "$fz/fuzz-conffile.c" "$common/conffile.c" -o "$out/fuzz-conffile" &&
	build -D_GNU_SOURCE -DPERLRE_TEST_HOOKS -I"$common" "$fz/fuzz-perlre.c" "$common/perlre.c" "$common/ibscript.c" \
		-o "$out/fuzz-perlre" &&
	build -I"$top_srcdir/utils" "$fz/fuzz-decode-mad.c" $IBSTRUCT_OBJS -o "$out/fuzz-decode-mad"; } || exit 1
fi

# seed NAME: the corpus directory of a target, filled with its committed seeds
seed() {
	c=$out/corpus-$1
	mkdir -p "$c" || exit 1
	case $1 in
	fuzz-ibtopo-cache) src=$top_srcdir/tests/data/topo/cache-corpus ;;
	fuzz-ibtopo-json) src=$top_srcdir/tests/data/topo/json-corpus ;;
	fuzz-ibtopo-nodemap) src=$top_srcdir/tests/data/topo/nodemap-corpus ;;
	*) src=$fz/corpus/$1 ;;
	esac
	cp "$src"/* "$c/" || exit 1
}

# options NAME: libFuzzer's options for a target
options() {
	case $1 in
	fuzz-ibtopo-cache) echo "-max_len=8192" ;; # the seeds are cache files of up to 7 KB
	fuzz-ibtopo-json) echo "-max_len=32768" ;; # the seeds are exports of up to 20 KB
	fuzz-ibtopo-nodemap) echo "-max_len=4096" ;; # lines longer than a 255-byte piece
	fuzz-ibpath-sysfs) echo "-max_len=8192" ;; # a device with two ports is 2 KB of text
	fuzz-conffile) echo "-max_len=4096 -close_fd_mask=2" ;; # bad map lines print WARNINGs
	fuzz-perlre) echo "-max_len=512" ;; # the tools' lines are shorter; a match costs length^2
	fuzz-ibsa-answer) echo "-max_len=4096" ;; # a reassembled table of a few records
	fuzz-decode-mad) echo "-max_len=4096 -close_fd_mask=3" ;; # a MAD as text, and its decode
	*) echo "-max_len=1024" ;;
	esac
}

# replay NAME: every input kept in tests/fuzz/regress/NAME, run once
replay() {
	[ -d "$fz/regress/$1" ] || return 0
	set -- "$1" "$fz/regress/$1"/*
	[ -e "$2" ] || return 0
	t=$1
	shift
	# shellcheck disable=SC2046 # the options are words
	if ! "$out/$t" $(options "$t") -timeout=60 -rss_limit_mb=2048 "$@" >"$out/replay-$t" 2>&1; then
		echo "=== $t: a regression input fails again"
		tail -n 30 "$out/replay-$t"
		return 1
	fi
	echo "=== $t: $# regression input(s) pass"
}

# stat NAME KEY: a value of libFuzzer's -print_final_stats output
stat() {
	sed -n "s/^stat::$2: *//p" "$out/log-$1" | tail -n 1
}

# run NAME: fuzz one target with its corpus in $out/corpus-NAME
run() {
	if [ -n "$FUZZ_RUNS" ]; then
		limits="-runs=$FUZZ_RUNS"
		[ "$FUZZ_LONG_SECONDS" = 0 ] || limits="$limits -max_total_time=$FUZZ_LONG_SECONDS"
	else
		limits="-max_total_time=$each"
	fi
	# what this run finds (a crash, a leak, a slow input) is left in found-NAME/
	rm -rf "$out/found-$1"
	mkdir -p "$out/found-$1" || return 1
	start=$(date +%s)
	# shellcheck disable=SC2046,SC2086 # the options are words
	(cd "$out" && "./$1" $(options "$1") $limits -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/found-$1/" "corpus-$1" 2>"log-$1")
	rc=$?
	secs=$(($(date +%s) - start))
	execs=$(stat "$1" number_of_executed_units)
	rate=$(stat "$1" average_exec_per_sec)
	added=$(stat "$1" new_units_added)
	cov=$(grep -o 'cov: [0-9]*' "$out/log-$1" | tail -n 1)
	crashes=$(find "$out/found-$1" -type f | wc -l)
	printf '=== %s: exit %d, %s executions, %s exec/s, %ss, %s, %s new units, %d finding(s)\n' \
		"$1" "$rc" "${execs:-?}" "${rate:-?}" "$secs" "${cov:-cov: ?}" "${added:-?}" "$crashes"
	if [ "$rc" != 0 ]; then
		tail -n 40 "$out/log-$1"
		return 1
	fi
}

status=0
for t in $RUN; do
	seed "$t"
	replay "$t" || status=1
	run "$t" || status=1
done
exit $status
