#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Run the uapi selftests (uapi_test, lib_test, batch_test, pd_test,
# sig_test, crypto_test, profile_test, charge_test; MLX5_UMR_UAPI_TESTS="a b"
# for some) inside the UML KUnit kernel, whose KASAN, UBSAN, lockdep and
# kmemleak then watch every ioctl path;
# the kernel log is judged like a KUnit boot. Not run by the VM (it is not
# installed); run it from the tree:  selftests/uapi/uml-sanitizers.sh
# Exit 0 = all passed and the log is clean.
set -uo pipefail
. "$(dirname "$0")/../../scripts/testbed/lib.sh"
uml=$("$TESTBED/uml-kernel.sh") || exit 1
tree=$("$TESTBED/uml-modules.sh" "$uml") || exit 1
tests=${MLX5_UMR_UAPI_TESTS:-uapi_test lib_test batch_test pd_test sig_test crypto_test profile_test charge_test}
ntests=$(wc -w <<<"$tests")
# shellcheck disable=SC2086
make -s -C "$TOP/selftests/uapi" $tests >&2 || exit 1
mkdir -p "$BUILD/logs"
log=$BUILD/logs/uml-uapi.log
init=$(mktemp "${TMPDIR:-/tmp}/uml-uapi-init.XXXXXX")
trap 'rm -f "$init"' EXIT
# PID 1 in UML (the guest root is the host's / over hostfs). UML has no
# devtmpfs: the tests make the device nodes from sysfs (MLX5_UMR_MKNOD) and
# load the fake HCA themselves (MLX5_UMR_FAKE_KO), as they do in the VM.
cat >"$init" <<INIT
#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /dev
mount -t tmpfs tmpfs /tmp
echo "MLX5_UMR_TESTBED: loading project modules"
insmod $tree/drivers/umr/mlx5_umr.ko || echo "MLX5_UMR_TESTBED: insmod FAILED"
export MLX5_UMR_FAKE_KO=$tree/drivers/fake/mlx5_umr_fake.ko MLX5_UMR_MKNOD=1
for t in $tests; do
	$TOP/selftests/uapi/\$t
	echo "UML_UAPI: exit \$t \$?"
done
rmmod mlx5_umr || echo "MLX5_UMR_TESTBED: rmmod FAILED"
$TESTBED/kmemleak-scan.sh
echo "MLX5_UMR_TESTBED: done"
/bin/busybox poweroff -f
INIT
chmod +x "$init"
tb_uml_boot "$log" 900 "$uml/linux" mem=1024M root=/dev/root \
	rootfstype=hostfs rootflags=/ rw init="$init"
rc=$?
grep -E '^(not ok|# Totals)|UML_UAPI: exit' "$log"
pass=$(grep -c '^ok ' "$log")
fail=$(grep -c '^not ok ' "$log")
skip=$(grep -c '^ok .*# SKIP' "$log")
status=0
[ "$fail" -eq 0 ] && [ "$(tr -d '\r' <"$log" | grep -c 'UML_UAPI: exit .* 0$')" -eq "$ntests" ] || status=1
[ $rc -eq 0 ] || { echo "uml-sanitizers: UML exited $rc"; status=1; }
"$TESTBED/judge-kernel-log.sh" "$log" 'MLX5_UMR_TESTBED: loading' \
	'MLX5_UMR_TESTBED: done' || status=1
tb_result $((pass - skip)) $((fail + status)) "$skip" "uapi selftests under UML sanitizers (log: $log)"
exit $status
