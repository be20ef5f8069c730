#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The project's full test run (what CI runs, see README.md):
#   1. a normal build with -Werror and `make check`
#   2. a sanitizer build (ASan + UBSan) and `make check`
#   3. `make distcheck` (tarball builds, passes its tests, installs and uninstalls cleanly)
# Build trees go under ${BUILD_ROOT:-build}/.  Exit status: 0 only if all three pass.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
root=${BUILD_ROOT:-$top/build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
cd "$top"
autoreconf -fi
mkdir -p "$root/normal" "$root/sanitizers"

echo "=== [1/3] build and check (-Werror)"
(cd "$root/normal" && "$top/configure" --enable-werror && make -j"$jobs" && make -j"$jobs" check) || {
	find "$root/normal" -name '*.log' -path '*tests*' -exec tail -n 40 {} + ; exit 1; }

echo "=== [2/3] sanitizer build and check (ASan + UBSan)"
(cd "$root/sanitizers" && "$top/configure" --enable-werror --enable-sanitizers --disable-fuzz &&
	make -j"$jobs" && make -j"$jobs" check) || {
	find "$root/sanitizers" -name '*.log' -path '*tests*' -exec tail -n 40 {} + ; exit 1; }

echo "=== [3/3] distcheck"
(cd "$root/normal" && make -j"$jobs" distcheck)

echo "=== all tests passed"
