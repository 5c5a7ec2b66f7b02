#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# make bench, uapi part: run inside the benchmark's UML kernel while
# mlx5_umr_bench.ko (uapi=1) keeps its null device (uml-init.sh KRUN).
# That kernel has neither devtmpfs nor tmpfs: uapi_bench makes its device
# nodes in the build directory, over hostfs.
here=$(dirname "$0")
dir=$here/../../build/uapi-bench-dev
mkdir -p "$dir" || exit 1
UAPI_BENCH_DIR=$dir UAPI_BENCH_PROFILE=${UAPI_PROFILE_SEC:-} "$here/uapi_bench"
rc=$?
rm -rf "$dir"
exit $rc
