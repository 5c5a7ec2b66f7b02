#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Install what a make target needs, when missing.
#   deps.sh [-t TARGET] [extra packages]
# TARGET is the make target (demo, vmtest, kunit, ...; default check:
# everything). Targets working on one kernel line take it from
# MLX5_UMR_KLINE (lib.sh), so that `make demo` installs the 6.1 kernel
# only, `make demo KLINE=6.12` the 6.12 one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
target=check
if [ "${1:-}" = -t ]; then
	target=$2; shift 2
fi
# The kernel line's Debian packages: the image (the VM boots it, and its
# metapackage names the release, lib.sh debian_kver), the headers (the
# modules build against them) and the source (the UML kernel).
kernel() {	# kernel LINE
	if [ "$1" = 6.1 ]; then
		echo linux-headers-amd64 linux-image-amd64
	else
		echo "linux-headers-$1-amd64 linux-image-$1-amd64"
	fi
}
build="gcc g++ make pkg-config kmod sparse cpio rsync python3"
# A UML kernel of the line, built from its Debian source.
uml() {	# uml LINE
	echo "flex bison bc libelf-dev libssl-dev linux-source-$1"
}
vm="qemu-system-x86 busybox-static iproute2"
rdma="libibverbs-dev ibverbs-providers rdma-core ibverbs-utils"
# make deb: the Debian tooling; the check of the packages also needs dkms.
deb="dpkg-dev debhelper dh-dkms help2man lintian"
case $target in
demo)	pkgs="$build $(kernel "$KLINE") $vm" ;;
vmtest)	pkgs="$build $(kernel "$KLINE") $vm $rdma" ;;
kunit|soak|bench|bench-profile)
	pkgs="$build $(uml "$KLINE")" ;;
api-doc) pkgs="$build linux-source-$KLINE" ;;
rst-lint) pkgs="python3 python3-docutils" ;;
testbed-proofs)
	pkgs="$build $(uml "$KLINE") $(kernel "$KLINE") $vm $rdma" ;;
dkms-check)
	pkgs="$build dkms"
	for l in $KLINES; do pkgs="$pkgs $(kernel "$l")"; done ;;
deb)	pkgs="gcc make $deb" ;;
deb-check)
	pkgs="$build $vm dkms $deb"
	for l in $KLINES; do pkgs="$pkgs $(kernel "$l")"; done ;;
check)	pkgs="$build $vm $rdma dkms $deb python3-docutils"
	for l in $KLINES; do pkgs="$pkgs $(kernel "$l") $(uml "$l")"; done ;;
*)	tb_die "deps.sh: unknown target $target" ;;
esac
pkgs="$* $pkgs"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages; as root run:" >&2
	echo "  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq $missing >/dev/null
