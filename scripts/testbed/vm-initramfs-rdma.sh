#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The VM image's additions for userspace RDMA (make hwcheck's --rxe mode):
#   vm-initramfs-rdma.sh KVER STAGING_DIR MODULE_TREE
# Called by vm-initramfs.sh before it packs STAGING_DIR. Adds hwcheck with
# its library closure (libibverbs, libmlx5, libc), the rxe verbs provider
# (librxe-rdmav*.so, loaded by libibverbs at run time, and
# /etc/libibverbs.d/rxe.driver that names it) and the VM test that runs it,
# /selftests/hwcheck_rxe.sh, the verbs PD selftest of SET_PD (run by
# /selftests/pd_verbs.sh), rdma-core's libmlx5 on the fake (the mlx5
# provider and tests/fake_uverbs, run by /selftests/fake_uverbs.sh), and
# hwcheck's test module built for KVER
# against MODULE_TREE's Module.symvers (/hwcheck/mlx5_umr_hwcheck.ko, run
# there with mode=plain). The kernel side (ib_core, ib_uverbs, rdma_rxe,
# dummy and their dependencies) and the rdma tool are in the base image.
# Without rdma-core's providers it adds nothing and says so.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
K=$1 S=$2 tree=$3
copy_closure() {	# copy_closure BINARY DEST: DEST and BINARY's libraries
	local b=$1 l
	mkdir -p "$S/$(dirname "$2")"; cp -L "$b" "$S/$2"
	for l in $(ldd "$b" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$S/$(dirname "$l")"; cp -L "$l" "$S/$l"
	done
}
prov=$(ls /usr/lib/*/libibverbs/librxe-rdmav*.so 2>/dev/null | head -n 1 || true)
if [ -z "$prov" ] || [ ! -f /etc/libibverbs.d/rxe.driver ]; then
	echo "vm-initramfs-rdma: no rxe verbs provider (ibverbs-providers): hwcheck not in the VM" >&2
	exit 0
fi
make -s -C "$TOP/tools/hwcheck" >&2
mkdir -p "$S/usr/bin" "$S/etc/libibverbs.d" "$S/selftests"
copy_closure "$TOP/tools/hwcheck/hwcheck" /usr/bin/hwcheck
copy_closure "$prov" "$prov"
cp /etc/libibverbs.d/rxe.driver "$S/etc/libibverbs.d/"
mkdir -p "$S/hwcheck"
ko=$("$TOP/tools/hwcheck/kmod-build.sh" "$K" "$tree/Module.symvers" \
	"$BUILD/hwcheck-kmod-$K" W=1)
cp "$ko" "$S/hwcheck/"
cp "$TOP/tools/hwcheck/vm-rxe.sh" "$S/selftests/hwcheck_rxe.sh"
chmod +x "$S/selftests/hwcheck_rxe.sh"
# MLX5_UMR_IOCTL_SET_PD of verbs PDs on the same kind of device
# (selftests/uapi/pd_verbs.sh): the test with its library closure.
make -s -C "$TOP/selftests/uapi" pd_verbs_test >&2
copy_closure "$TOP/selftests/uapi/pd_verbs_test" /pd_verbs/pd_verbs_test
cp "$TOP/selftests/uapi/pd_verbs.sh" "$S/selftests/pd_verbs.sh"
chmod +x "$S/selftests/pd_verbs.sh"
# libmlx5 on the fake (Documentation/fake.rst, "rdma-core on the fake"):
# the provider libibverbs loads for the fake's device, the file that names
# it, and tests/fake_uverbs with its library closure.
mlx5=$(ls /usr/lib/*/libibverbs/libmlx5-rdmav*.so 2>/dev/null | head -n 1 || true)
if [ -z "$mlx5" ] || [ ! -f /etc/libibverbs.d/mlx5.driver ]; then
	echo "vm-initramfs-rdma: no mlx5 verbs provider: fake_uverbs not in the VM" >&2
	exit 0
fi
copy_closure "$mlx5" "$mlx5"
cp /etc/libibverbs.d/mlx5.driver "$S/etc/libibverbs.d/"
make -s -C "$TOP/tests/fake_uverbs" >&2
copy_closure "$TOP/tests/fake_uverbs/fuv_test" /selftests/fake_uverbs.d/fuv_test
# the differential test and its table of intended differences
copy_closure "$TOP/tests/fake_uverbs/fuv_diff" /selftests/fake_uverbs.d/fuv_diff
cp "$TOP/Documentation/fake.rst" "$S/selftests/fake_uverbs.d/"
# the service on the fake_uverbs device (SET_PD of a libmlx5 PD)
copy_closure "$TOP/tests/fake_uverbs/fuv_svc" /selftests/fake_uverbs.d/fuv_svc
# MLX5_UMR_FUV_DIFF_SEED repeats a run's requests (the seed it printed)
printf '%s\n' "${MLX5_UMR_FUV_DIFF_SEED:+-s $MLX5_UMR_FUV_DIFF_SEED}" \
	>"$S/selftests/fake_uverbs.d/fuv_diff.args"
# hwcheck --fake after them: every check counts ("all", the default), or
# only the first MLX5_UMR_FUV_HWCHECK (3: the set-up checks).
printf '%s\n' "${MLX5_UMR_FUV_HWCHECK:-all}" \
	>"$S/selftests/fake_uverbs.d/hwcheck.first"
# Programs run.sh runs after fuv_test, each as a user would on a NIC: rdma-core's
# ibv_devinfo -v (every device and port query libibverbs and libmlx5 make),
# and the program of fake-uverbs-vm.sh PROGRAM [ARGS] (MLX5_UMR_FUV_PROGRAM,
# its arguments in MLX5_UMR_FUV_ARGS, split on white space in the VM).
add_program() {	# add_program BINARY ARGS
	local n
	n=/selftests/fake_uverbs.d/programs/$(basename "$1")
	copy_closure "$1" "$n"
	printf '%s\n' "$2" >"$S$n.args"
}
if [ -n "${MLX5_UMR_FUV_PROGRAM:-}" ]; then
	add_program "$MLX5_UMR_FUV_PROGRAM" "${MLX5_UMR_FUV_ARGS:-}"
elif command -v ibv_devinfo >/dev/null; then
	add_program "$(command -v ibv_devinfo)" -v
else
	echo "vm-initramfs-rdma: no ibv_devinfo (ibverbs-utils): fake_uverbs runs fuv_test only" >&2
fi
cp "$TOP/tests/fake_uverbs/run.sh" "$S/selftests/fake_uverbs.sh"
chmod +x "$S/selftests/fake_uverbs.sh"
