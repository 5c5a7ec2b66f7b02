#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Build the modules for the Debian kernel KVER in a copy of the tree, with
# W=1 and sparse on every file (C=2); any warning fails. Prints the copy.
# Without make arguments, the production build (what DKMS and make install
# ship); with MLX5_UMR_TESTING=1, the test build the VM runs, in its own copy.
#   debian-modules.sh KVER [extra make args]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
K=$1; shift
kdir=/lib/modules/$K/build
[ -d "$kdir" ] || tb_die "no $kdir (apt-get install linux-headers-amd64)"
dst=$BUILD/debian-$K
case " $* " in *" MLX5_UMR_TESTING=1 "*) dst=$BUILD/debian-testing-$K ;; esac
tb_sync_tree "$dst/src"
make -C "$kdir" M="$dst/src" W=1 C=2 "$@" modules >"$dst/build.log" 2>&1 || {
	grep -iE 'error|warning' "$dst/build.log" | head -40 >&2
	tb_die "module build for $K failed (log: $dst/build.log)"
}
# "Skipping BTF generation" is Debian's headers lacking vmlinux, not ours.
if grep -E 'warning:|error:' "$dst/build.log" | grep -v 'Skipping BTF' >&2; then
	tb_die "module build for $K has warnings (log: $dst/build.log)"
fi
echo "$dst/src"
