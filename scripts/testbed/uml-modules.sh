#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Build the project's modules for the UML KUnit kernel, in a copy of the
# source tree (kbuild writes objects next to the sources, and the same tree
# is also built for the Debian kernel). Prints the copy's path. Always a
# test build (MLX5_UMR_TESTING=1): KUnit suites, the fake, the benchmark.
#   uml-modules.sh UML_BUILD_DIR [extra make args]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
uml=$1; shift
dst=$BUILD/uml-$KLINE
# Build products of an in-place build for another kernel must not leak in.
tb_sync_tree "$dst/src"
make -C "$uml" ARCH=um M="$dst/src" W=1 MLX5_UMR_TESTING=1 "$@" modules >"$dst/build.log" 2>&1 || {
	grep -iE 'error|warning' "$dst/build.log" | head -40 >&2
	tb_die "module build for UML failed (log: $dst/build.log)"
}
if grep -E 'warning:' "$dst/build.log" >&2; then
	tb_die "module build for UML has warnings (log: $dst/build.log)"
fi
echo "$dst/src"
