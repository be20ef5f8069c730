#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The project's full test run (what CI runs, see README.md):
#   1. a normal build with -Werror and `make check`
#   2. a sanitizer build (ASan + UBSan) and `make check`
#   3. `make distcheck` (tarball builds, passes its tests, installs and uninstalls cleanly)
#   4. the Debian packages: dpkg-buildpackage on a clean checkout, lintian, then a tool and
#      every library's consumer program run from the packages extracted with dpkg -x
#      (tests/debian-build.sh; skipped without dpkg-buildpackage/debhelper/lintian unless
#      IBMGMT_REQUIRE_DEB=1, as CI sets it)
# Build trees go under ${BUILD_ROOT:-build}/.  Exit status: 0 only if all four pass.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
root=${BUILD_ROOT:-$top/build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
cd "$top"
# show_failures DIR: the log of every test under DIR that failed or errored
show_failures() {
	grep -rl --include='*.trs' -e '^:test-result: FAIL' -e '^:test-result: ERROR' "$1" 2>/dev/null |
	while read -r trs; do
		echo "--- ${trs%.trs}.log (last 80 lines)"
		tail -n 80 "${trs%.trs}.log"
	done
}
autoreconf -fi
mkdir -p "$root/normal" "$root/sanitizers"

echo "=== [1/4] build and check (-Werror)"
(cd "$root/normal" && "$top/configure" --enable-werror && make -j"$jobs" && make -j"$jobs" check) || {
	show_failures "$root/normal"; exit 1; }

echo "=== [2/4] sanitizer build and check (ASan + UBSan)"
(cd "$root/sanitizers" && "$top/configure" --enable-werror --enable-sanitizers --disable-fuzz &&
	make -j"$jobs" && make -j"$jobs" check) || {
	show_failures "$root/sanitizers"; exit 1; }

echo "=== [3/4] distcheck"
# a failed distcheck leaves its tree (ibmgmt-VERSION/_build) for show_failures to read
(cd "$root/normal" && make -j"$jobs" distcheck) || { show_failures "$root/normal"; exit 1; }

echo "=== [4/4] Debian packages"
rc=0
sh "$top/tests/debian-build.sh" "$root/deb" "$jobs" || rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || exit 1

echo "=== all tests passed"
