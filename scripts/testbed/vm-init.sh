#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# /init of the test VM (busybox). Runs every executable in /selftests (only
# /selftests/NAME when booted with ONLY=NAME), or /demo/demo.sh when booted
# with MODE=demo, then dumps the kernel log between
# markers so the runner can judge it, then powers off.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs -o mode=1777 tmpfs /tmp
# cgroup v2 with the memory controller for the selftests' charging checks.
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts ||
	mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
ip link set lo up 2>/dev/null
echo "MLX5_UMR_VM: start" >/dev/kmsg
echo "MLX5_UMR_VM: init running"
if [ "$MODE" = demo ]; then
	/demo/demo.sh
	echo "MLX5_UMR_VM: exit demo $?"
else
	for t in /selftests/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		n=$(basename "$t")
		[ -z "$ONLY" ] || [ "$n" = "$ONLY" ] || continue
		echo "MLX5_UMR_VM: run $n"
		(cd /selftests && timeout 600 "$t")
		echo "MLX5_UMR_VM: exit $n $?"
	done
fi
# Anything modules left behind shows up when they are removed.
for m in $(lsmod | awk 'NR > 1 && $1 ~ /^mlx5_umr/ {print $1}'); do
	rmmod "$m" 2>/dev/null
done
echo "MLX5_UMR_VM: dmesg begin"
dmesg
echo "MLX5_UMR_VM: dmesg end"
[ "$NO_END_MARKER" = 1 ] || echo "MLX5_UMR_VM: done"
poweroff -f
