#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The suite-never-flakes proof of issue 14: the README's test command
# (IBMGMT_REQUIRE_FABRIC=1 sh tests/run-all.sh) run again and again on fresh clones of one
# commit, in rounds; each round runs COPIES clones at once (default 1: consecutive runs;
# 2: two copies of the suite at the same time on the same machine).  Every run's exit
# status, wall time and, for a failed run, the stage and test that failed, go to a table
# on stdout; each run's whole output stays in WORKDIR/r<round>-c<copy>.log.
#
# Usage: sh bench/repeat-suite.sh [-c COPIES] [-n ROUNDS] [-k] [-w WORKDIR] [COMMIT]
#   -c COPIES   suites run at once in each round (default 1)
#   -n ROUNDS   rounds (default 20)
#   -k          keep going after a failed run (default: stop at the first failure)
#   -w WORKDIR  where the clones and logs go (default: a new directory under /tmp)
#   COMMIT      what to clone (default HEAD of the repository this script is in)
# Exit status: 0 when every run passed, 1 when one failed, 2 on a usage error.
#
# Examples: sh bench/repeat-suite.sh -n 20          (20 consecutive runs)
#           sh bench/repeat-suite.sh -c 2 -n 5      (5 rounds of two suites at once)
# The clones are plain `git clone`s: what CI gets, not the working tree.  The machine's
# packages must be installed first (.ci/debian-packages, as .ci/run does).
set -u
copies=1 rounds=20 keep=0 work=
usage() {
	echo "usage: $0 [-c COPIES] [-n ROUNDS] [-k] [-w WORKDIR] [COMMIT]" >&2
	exit 2
}
while getopts c:n:kw: opt; do
	case $opt in
	c) copies=$OPTARG ;;
	n) rounds=$OPTARG ;;
	k) keep=1 ;;
	w) work=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
case $copies$rounds in *[!0-9]* | '') usage ;; esac
if [ "$copies" -lt 1 ] || [ "$rounds" -lt 1 ]; then usage; fi
src=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$src" rev-parse --verify "${1:-HEAD}^{commit}") || exit 2
[ -n "$work" ] || work=$(mktemp -d /tmp/ibmgmt-repeat.XXXXXX) || exit 2
mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd)

# one_run ROUND COPY: a fresh clone of $commit, the README's test command in it; writes
# "<status> <seconds>" to r<round>-c<copy>.result
one_run() {
	dir=$work/r$1-c$2
	log=$work/r$1-c$2.log
	rm -rf "$dir"
	start=$(date +%s)
	if git clone -q "$src" "$dir" >"$log" 2>&1 && git -C "$dir" checkout -q "$commit" >>"$log" 2>&1; then
		(cd "$dir" && IBMGMT_REQUIRE_FABRIC=1 sh tests/run-all.sh) >>"$log" 2>&1
		rc=$?
	else
		echo "repeat-suite: cannot clone $src at $commit" >>"$log"
		rc=3
	fi
	echo "$rc $(($(date +%s) - start))" >"$work/r$1-c$2.result"
	# a passed run's trees are only disk space
	[ "$rc" != 0 ] || rm -rf "$dir"
}

# what_failed LOG: the stage and the failing tests of a failed run
what_failed() {
	stage=$(grep '^=== \[' "$1" | tail -n 1 | sed 's/^=== //')
	tests=$(grep -E '^(FAIL|ERROR): ' "$1" | sed 's/^[A-Z]*: //' | sort -u | tr '\n' ' ' | sed 's/ $//')
	echo "${stage:-before stage 1}${tests:+: $tests}"
}

echo "commit $commit, $rounds round(s) of $copies suite(s) at once, logs in $work"
printf '%-6s %-5s %-7s %s\n' round copy seconds result
failed=0 total=0 all_start=$(date +%s)
r=1
while [ "$r" -le "$rounds" ]; do
	c=1
	while [ "$c" -le "$copies" ]; do
		one_run "$r" "$c" &
		c=$((c + 1))
	done
	wait
	c=1
	while [ "$c" -le "$copies" ]; do
		read -r rc secs <"$work/r$r-c$c.result"
		total=$((total + 1))
		if [ "$rc" = 0 ]; then
			res=passed
		else
			res="FAILED (exit $rc) in $(what_failed "$work/r$r-c$c.log")"
			failed=$((failed + 1))
		fi
		printf '%-6s %-5s %-7s %s\n' "$r" "$c" "$secs" "$res"
		c=$((c + 1))
	done
	[ "$failed" = 0 ] || [ "$keep" = 1 ] || break
	r=$((r + 1))
done
echo "runs: $total, failed: $failed, wall time: $(($(date +%s) - all_start)) s"
[ "$failed" = 0 ]
