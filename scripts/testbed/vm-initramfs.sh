#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Build the VM's busybox initramfs for Debian kernel KVER:
#   vm-initramfs.sh KVER MODULE_TREE SELFTEST_DIR OUT.cpio.gz [HOST_FILE...]
# Holds busybox, our modules (under extra/) with their real dependencies and
# depmod data, the Debian modules the tests use, /usr/bin/rdma with its
# libraries, the tools and the installed selftests. MODULE_TREE "-": none
# of the tree's modules and tools (nor the demo and the RDMA additions);
# each HOST_FILE (modules of this host's /lib/modules/KVER, programs) is
# copied to its own path, a program with its libraries (deb-check.sh: what
# the Debian packages installed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
K=$1 tree=$2 tests=$3 out=$4
shift 4
S=$(mktemp -d "${TMPDIR:-/tmp}/mlx5-umr-irfs.XXXXXX")
trap 'rm -rf "$S"' EXIT
# mktemp -d made $S 0700: it becomes the VM's /, which every uid must be
# able to search (the unprivileged selftests run as other users).
chmod 0755 "$S"
mkdir -p "$S"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc,root,lib/modules/$K/extra}
cp /bin/busybox "$S/bin/"
for a in $(/bin/busybox --list); do
	[ "$a" = busybox ] || ln -sf busybox "$S/bin/$a"
done
ln -sf ../bin/busybox "$S/sbin/modprobe"   # the kernel's request_module()
# Debian modules the tests load, with their dependencies.
for m in mlx5_ib mlx5_core ib_core ib_uverbs rdma_rxe dummy veth crc32_generic crc-t10dif xts; do
	modprobe -S "$K" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" {print $2}'
done | sort -u | while read -r f; do
	mkdir -p "$S/$(dirname "$f")"; cp "$f" "$S/$f"
done
cp /lib/modules/"$K"/modules.{order,builtin,builtin.modinfo} "$S/lib/modules/$K/"
[ "$tree" = - ] || find "$tree" -name '*.ko' ! -name '*_test.ko' -path '*/drivers/*' \
	-exec cp {} "$S/lib/modules/$K/extra/" \;
# Host files at their own paths; dynamic programs with their library closure.
copy_bin() {
	local b=$1 l
	[ -e "$b" ] || return 0
	mkdir -p "$S/$(dirname "$b")"; cp -L "$b" "$S/$b"
	for l in $(ldd "$b" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$S/$(dirname "$l")"; cp -L "$l" "$S/$l"
	done
}
for f in "$@"; do
	copy_bin "$f"
done
depmod -b "$S" "$K"
copy_bin /usr/bin/rdma
# Coreutils' install, which busybox lacks: Documentation/uapi.rst's
# examples use it and umrctl_test.sh runs them as written.
copy_bin /usr/bin/install
# The tree's tools and the demo: the tools' walk-through once it exists,
# else the module smoke.
if [ "$tree" != - ]; then
	[ -x "$TOP/tools/umrctl/umrctl" ] && cp "$TOP/tools/umrctl/umrctl" "$S/usr/bin/"
	if [ -x "$TOP/tools/demo/demo.sh" ]; then
		cp -r "$TOP/tools/demo" "$S/demo"
	else
		mkdir -p "$S/demo"; cp "$TESTBED/demo-modules.sh" "$S/demo/demo.sh"
	fi
fi
mkdir -p "$S/selftests"
[ -d "$tests" ] && cp -r "$tests/." "$S/selftests/"
# The one-mkey ordering stress on the VM's CPUs (tests/stress/): its
# modules beside its runner, /selftests/mq_stress.sh.
if [ "$tree" != - ] && [ -f "$tree/tests/stress/mlx5_umr_mq_stress.ko" ]; then
	mkdir -p "$S/selftests/mq_stress.d"
	cp "$tree"/tests/stress/mlx5_umr_{stress,mq_stress}.ko "$S/selftests/mq_stress.d/"
	cp "$TOP/tests/stress/vm/mq_stress.sh" "$S/selftests/mq_stress.sh"
	chmod +x "$S/selftests/mq_stress.sh"
fi
[ "$tree" = - ] ||	# hwcheck --rxe, its test module
	"$TESTBED/vm-initramfs-rdma.sh" "$K" "$S" "$tree"
cp "$TESTBED/vm-init.sh" "$S/init"
chmod +x "$S/init"
# Users for the unprivileged selftests (selftests/uapi/unpriv_test.c):
# umr is in mlx5umr, the group Documentation/uapi.rst's udev rule grants
# the node to; umr2 is in no group. No passwords: nobody logs in.
cat >"$S/etc/passwd" <<'EOT'
root:x:0:0:root:/root:/bin/sh
umr:x:1000:1000:mlx5-umr test user:/tmp:/bin/sh
umr2:x:1001:1001:mlx5-umr second test user:/tmp:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOT
cat >"$S/etc/group" <<'EOT'
root:x:0:
mlx5umr:x:990:umr
umr:x:1000:
umr2:x:1001:
nogroup:x:65534:
EOT
# Everything readable (and programs runnable) by all, owned by root (not
# by whoever built the image); root's home is root's.
chmod -R u+w,go-w,a+rX "$S"
chmod 0700 "$S/root"
chmod 1777 "$S/tmp"
(cd "$S" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) >"$out"
