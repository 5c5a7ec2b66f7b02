#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Failure sweeps, the random ioctl sequence and the hot-unplug soak, in the
# UML KUnit kernel, whose KASAN, UBSAN, lockdep and kmemleak watch them;
# the kernel log is judged like a KUnit boot (issue 16).
#
#   soak.sh          bounded, as make check runs it
#   soak.sh soak     as long as asked: MLX5_UMR_SOAK_SECONDS of random
#                    ioctls (default 600), MLX5_UMR_UNPLUG_ROUNDS removals
#                    (default 1000); make soak
#
# MLX5_UMR_FUZZ_SEED repeats a run of the random sequence (every run prints
# its seed). Before anything loads, failslab is set to fail allocations
# that may sleep too (ignore-gfp-wait N) and to print no stack (verbose 0),
# so that the KUnit suite mlx5_umr_inject (its slab sweep) and
# fuzz_sweep_test (every ioctl path) can fail each allocation in turn.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
mode=${1:-check}
if [ "$mode" = soak ]; then
	fuzz_secs=${MLX5_UMR_SOAK_SECONDS:-600}
	rounds=${MLX5_UMR_UNPLUG_ROUNDS:-1000}
	limit=$((fuzz_secs + rounds + 1800))
else
	fuzz_secs=${MLX5_UMR_SOAK_SECONDS:-8}
	rounds=${MLX5_UMR_UNPLUG_ROUNDS:-6}
	limit=900
fi
seed=${MLX5_UMR_FUZZ_SEED:-$(date +%s)}
uml=$("$TESTBED/uml-kernel.sh") || exit 1
tree=$("$TESTBED/uml-modules.sh" "$uml") || exit 1
progs="fuzz_sweep_test fuzz_test unplug_test"
# shellcheck disable=SC2086 # one word per program
make -s -C "$TOP/selftests/uapi" $progs >&2 || exit 1
mkdir -p "$BUILD/logs"
log=$BUILD/logs/uml-soak-$mode.log
init=$(mktemp "${TMPDIR:-/tmp}/uml-soak-init.XXXXXX")
trap 'rm -f "$init"' EXIT
cat >"$init" <<INIT
#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /dev
mount -t tmpfs tmpfs /tmp
echo N >/sys/kernel/debug/failslab/ignore-gfp-wait
echo 0 >/sys/kernel/debug/failslab/verbose
echo "MLX5_UMR_TESTBED: loading project modules"
for m in drivers/umr/mlx5_umr drivers/fake/mlx5_umr_fake tests/kunit/mlx5_umr_kunit drivers/umr/mlx5_umr_inject_test; do
	insmod $tree/\$m.ko || echo "MLX5_UMR_TESTBED: insmod \$m FAILED"
done
for m in mlx5_umr_inject_test mlx5_umr_kunit mlx5_umr_fake; do
	rmmod \$m || echo "MLX5_UMR_TESTBED: rmmod \$m FAILED"
done
export MLX5_UMR_FAKE_KO=$tree/drivers/fake/mlx5_umr_fake.ko MLX5_UMR_MKNOD=1
export MLX5_UMR_FUZZ_SEED=$seed MLX5_UMR_FUZZ_SECONDS=$fuzz_secs
export MLX5_UMR_UNPLUG_ROUNDS=$rounds
for t in $progs; do
	s=\$(date +%s)
	$TOP/selftests/uapi/\$t
	echo "UML_SOAK: exit \$t \$? in \$((\$(date +%s) - s)) s"
done
rmmod mlx5_umr || echo "MLX5_UMR_TESTBED: rmmod mlx5_umr FAILED"
$TESTBED/kmemleak-scan.sh
echo "MLX5_UMR_TESTBED: done"
/bin/busybox poweroff -f
INIT
chmod +x "$init"
start=$(date +%s)
tb_uml_boot "$log" "$limit" "$uml/linux" mem=1024M root=/dev/root \
	rootfstype=hostfs rootflags=/ rw init="$init"
rc=$?
log_clean=$(tr -d '\r' <"$log")
grep -E '^\s*(not ok|# Totals)|points|UML_SOAK: exit|seed [0-9]+|removals' <<<"$log_clean"
pass=$(grep -cE '^\s*ok [0-9]+ ' <<<"$log_clean")
fail=$(grep -cE '^\s*not ok [0-9]+ ' <<<"$log_clean")
skip=$(grep -cE '^\s*ok [0-9]+ .*# SKIP' <<<"$log_clean")
status=0
[ "$fail" -eq 0 ] || status=1
[ "$(grep -c 'UML_SOAK: exit .* 0 in' <<<"$log_clean")" -eq 3 ] || status=1
[ $rc -eq 0 ] || { echo "soak: UML exited $rc"; status=1; }
"$TESTBED/judge-kernel-log.sh" "$log" 'MLX5_UMR_TESTBED: loading' \
	'MLX5_UMR_TESTBED: done' || status=1
[ $status -eq 0 ] || echo "soak: FAILED; seed $seed (MLX5_UMR_FUZZ_SEED=$seed repeats it)"
tb_result $((pass - skip)) $((fail + status)) "$skip" \
	"sweeps, random ioctls (seed $seed) and unplug soak under UML sanitizers, $mode, $(($(date +%s) - start)) s (log: $log)"
exit $status
