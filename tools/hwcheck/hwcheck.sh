#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# make hwcheck: prove the installed service on this host's ConnectX.
#   hwcheck.sh [hwcheck options, e.g. -d mlx5_1 --port 2]
# 1. builds tools/hwcheck and runs it (userspace verbs through the uapi);
# 2. builds tests/hwcheck (mlx5_umr_hwcheck.ko) for the running kernel
#    against the service's Module.symvers and loads it on the same device
#    (kernel verbs through the ULP API), then unloads it;
# 3. prints "N passed, N failed, N skipped" over both, and leaves the
#    report in build/hwcheck/: report.json, kernel.txt, dmesg.txt.
# Exit 0 when everything that ran passed, 1 on a failure, 4 when there is
# no mlx5 device bound to mlx5_umr_hw (nothing was checked).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/hwcheck
K=$(uname -r)
mkdir -p "$out"
rm -f "$out"/{report.json,kernel.txt,dmesg.txt}
say() { echo "hwcheck: $*"; }

if [ ! -f /usr/include/infiniband/mlx5dv.h ] ||
	! ls /usr/lib/*/libibverbs/libmlx5-rdmav*.so >/dev/null 2>&1; then
	say "needs rdma-core's headers and providers; as root run:"
	say "  apt-get install -y libibverbs-dev ibverbs-providers rdma-core"
	exit 1
fi
[ "$(id -u)" = 0 ] || say "not root: the service's node, debugfs and the kernel module need root"
make -s -C "$top/tools/hwcheck" || exit 1
if ! grep -qs '^mlx5_umr_hw ' /proc/modules && modinfo mlx5_umr_hw >/dev/null 2>&1; then
	say "loading mlx5_umr_hw"
	modprobe mlx5_umr_hw || say "modprobe mlx5_umr_hw failed"
fi

"$top/tools/hwcheck/hwcheck" --json "$out/report.json" "$@" | tee "$out/user.txt"
rc=${PIPESTATUS[0]}
[ $rc -eq 4 ] && exit 4
read -r P F S < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$out/user.txt")
P=${P:-0} F=${F:-1} S=${S:-0}
dev=$(sed -n 's/^# device \([^ ]*\) .*/\1/p' "$out/user.txt")

# The in-kernel path, with the symbols of the service that is loaded:
# its build's Module.symvers, or one from the same sources built here
# (a production build in a copy, as DKMS builds; same CRCs).
kres() { echo "$*" | tee -a "$out/kernel.txt"; }
service_symvers() {
	(. "$top/scripts/testbed/lib.sh" && tb_sync_tree "$out/svc-$K" &&
		make -s -C "/lib/modules/$K/build" M="$out/svc-$K" modules \
			>"$out/svc-$K.log" 2>&1) || return 1
	echo "$out/svc-$K/Module.symvers"
}
symvers=""
for s in "$top/Module.symvers" /var/lib/dkms/mlx5-umr/*/build/Module.symvers; do
	[ -f "$s" ] && grep -q 'mlx5_umr_alloc_mkey_in' "$s" && { symvers=$s; break; }
done
if [ -z "$dev" ]; then
	kres "kernel path: skipped (no device from the userspace run)"; S=$((S + 1))
elif [ -z "$symvers" ] && ! symvers=$(service_symvers); then
	kres "not ok - kernel path: cannot build the service for $K's Module.symvers"; F=$((F + 1))
elif ! ko=$("$top/tools/hwcheck/kmod-build.sh" "$K" "$symvers" "$out/kmod-$K"); then
	kres "not ok - kernel path: mlx5_umr_hwcheck.ko does not build for $K"; F=$((F + 1))
else
	mark="mlx5_umr_hwcheck: start $$"
	echo "$mark" >/dev/kmsg 2>/dev/null
	if insmod "$ko" ibdev="$dev" mode=umr; then
		sum=$(cat /sys/module/mlx5_umr_hwcheck/parameters/summary)
		dmesg | sed -n "/$mark/,\$p" | grep 'mlx5_umr_hwcheck:' |
			sed 's/^\[[^]]*\] mlx5_umr_hwcheck: //' | tee -a "$out/kernel.txt"
		rmmod mlx5_umr_hwcheck
		read -r kp kf ks < <(echo "$sum" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
		P=$((P + ${kp:-0})) F=$((F + ${kf:-1})) S=$((S + ${ks:-0}))
	else
		kres "not ok - kernel path: insmod mlx5_umr_hwcheck.ko failed"; F=$((F + 1))
	fi
fi
dmesg 2>/dev/null | grep -E 'mlx5_umr|umr:' | tail -n 200 >"$out/dmesg.txt"
echo "$P passed, $F failed, $S skipped"
say "report in $out (report.json, kernel.txt, dmesg.txt): send it with the issue"
[ "$F" -eq 0 ] || exit 1
[ "$P" -gt 0 ] || exit 4
exit 0
