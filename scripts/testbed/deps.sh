#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Install what the build and the test bed need, when missing.
#   deps.sh [extra packages a target needs]
set -euo pipefail
pkgs="$* linux-headers-amd64 linux-image-amd64 linux-source-6.1
linux-headers-6.12-amd64 linux-image-6.12-amd64 linux-source-6.12 qemu-system-x86
busybox-static kmod dkms sparse flex bison bc libelf-dev libssl-dev cpio rsync
python3 gcc g++ make pkg-config libibverbs-dev ibverbs-providers rdma-core ibverbs-utils iproute2"
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
