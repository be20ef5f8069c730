#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs the benchmarks against infiniband-diags/libibmad in the same run and prints ratios.
# Usage: sh bench/run-bench.sh [builddir]   (or: make bench)
set -eu
b=${1:-.}
echo "== libibstruct decode: unpack + every field, ours vs libibmad mad_decode_field"
"$b/bench/bench-ibstruct"
