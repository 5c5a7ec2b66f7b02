#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# PID 1 of the UML KUnit kernel. The guest root is the host's / over hostfs.
# KMODS (from the kernel command line) is a comma-separated list of modules,
# in load order; KUnit suites run while their module is inserted.
# Optional: KMODARGS=name:param=value:param=value gives one module its
# parameters; KALLSYMS=path saves /proc/kallsyms there while the modules
# are loaded (make bench-profile resolves module addresses with it);
# KRUN=path runs while the modules are loaded (make bench: the uapi part).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
# Everything before this line belongs to the kernel itself.
echo "MLX5_UMR_TESTBED: loading project modules"
rev=""
args_for=${KMODARGS%%:*}
for m in $(echo "$KMODS" | tr ',' ' '); do
	args=""
	if [ -n "${KMODARGS:-}" ] && [ "$(basename "$m" .ko)" = "$args_for" ]; then
		args=$(echo "${KMODARGS#*:}" | tr ':' ' ')
	fi
	# shellcheck disable=SC2086 # one word per parameter
	insmod "$m" $args || echo "MLX5_UMR_TESTBED: insmod $m FAILED"
	rev="$(basename "$m" .ko) $rev"
done
[ -z "${KALLSYMS:-}" ] || cat /proc/kallsyms >"$KALLSYMS"
[ -z "${KRUN:-}" ] || "$KRUN" || echo "MLX5_UMR_TESTBED: $KRUN FAILED"
for m in $rev; do
	rmmod "$m" || echo "MLX5_UMR_TESTBED: rmmod $m FAILED"
done
"$(dirname "$0")/kmemleak-scan.sh"
echo "MLX5_UMR_TESTBED: done"
/bin/busybox poweroff -f
