#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The Debian packages (make deb) from install to purge, on this host: apt
# installs them; mlx5-umr-dkms's postinst has built and installed the
# production modules for each supported kernel line (and a kernel outside
# the lines is excluded); the library, its header, pkg-config file, man
# page and example are where they belong and a program builds against
# them; the VM boots each line's Debian kernel with the installed modules
# and the installed umrctl (deb-vm-test.sh); remove and purge leave
# nothing behind. One test case per step; the DKMS checks are dkms-lib.sh's,
# shared with dkms-check.sh.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # dkms-lib.sh's step() prints it
check=deb
. "$TESTBED/dkms-lib.sh"
pkgs="mlx5-umr-dkms libmlx5umr0 libmlx5umr-dev mlx5umr-tools"
# apt-get knows local .debs only while they are installed: dpkg purges.
# shellcheck disable=SC2086
purge() { dpkg --purge $pkgs; }
export DEBIAN_FRONTEND=noninteractive
dkms_lock
purge >/dev/null 2>&1
dkms_fresh
mkdir -p "$BUILD/logs"
log=$BUILD/logs/deb-install.log
debs=$("$TESTBED/deb-build.sh" | grep -v -- -dbgsym_)
step "make deb: the four packages build, lintian clean" \
	test "$(wc -w <<<"$debs")" = 4
[ -n "$debs" ] || { tb_result $P $F 0 deb; exit 1; }
# shellcheck disable=SC2086
step "apt install ./*.deb (log: $log)" \
	sh -c 'apt-get install -y "$@" >"$0" 2>&1' "$log" $debs
for K in $Ks; do
	step "postinst built and installed the modules for $K" installed "$K"
	step "only mlx5_umr and mlx5_umr_hw for $K (production build)" only_production "$K"
	step "installed mlx5_umr.ko for $K has no test interface" \
		no_test_interface "$(installed_ko "$K")"
done
# What the package installed is what dkms.conf's lines say.
step "the package's dkms.conf has no test build" \
	sh -c '! grep -n "mlx5_umr_fake\|mlx5_umr_sample\|testing=1" "$0/dkms.conf"' "$src"
step "a kernel outside the supported lines (6.6) is excluded" excluded
multi=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=/usr/lib/$multi/libmlx5umr.so.0
soname() { objdump -p "$lib" | grep -q 'SONAME *libmlx5umr.so.0$'; }
step "libmlx5umr.so.0: soname" soname
# Every export versioned MLX5UMR_0, none but mlx5umr_*.
versioned() {
	local syms
	syms=$(objdump -T "$lib" | awk '$2 == "g" && $4 != "*UND*" { print $(NF-1), $NF }')
	echo "$syms"
	[ -n "$syms" ] && ! grep -v '^MLX5UMR_0 \(mlx5umr_\|MLX5UMR_0$\)' <<<"$syms"
}
step "libmlx5umr.so.0: exports mlx5umr_* only, in version MLX5UMR_0" versioned
# The exported functions are exactly those the installed header declares
# (less its static inline wrappers): the test-only data path
# (mlx5umr_testing.h) is not in the package.
header_api() {
	local hdr=/usr/include/mlx5umr.h
	diff <(objdump -T "$lib" | awk '$2 == "g" && $4 != "*UND*" && $NF != "MLX5UMR_0" { print $NF }' | sort -u) \
	     <(grep -E '^[a-z].*[ *]mlx5umr_[a-z0-9_]*\(' "$hdr" | grep -v '^static ' |
		grep -o 'mlx5umr_[a-z0-9_]*(' | tr -d '(' | sort -u)
}
step "libmlx5umr.so.0: exports exactly the functions of mlx5umr.h" header_api
# A program built as a user would (pkg-config), run against the package's
# library: with no device it is told so (ENOENT: no /dev/mlx5_umr).
dev_prog() {
	local d rc
	d=$(mktemp -d)
	cat >"$d/t.c" <<'EOT'
#include <errno.h>
#include <stdio.h>
#include <linux/mlx5_umr.h>
#include <mlx5umr.h>
int main(void)
{
	struct mlx5umr_context *ctx = mlx5umr_open("mlx5-umr-deb-check-none");

	printf("%s %s\n", ctx ? "open" : "no device",
	       ctx ? "" : mlx5umr_errno_name(errno));
	return ctx || errno != ENOENT;
}
EOT
	# shellcheck disable=SC2046
	gcc -Wall -Werror -o "$d/t" "$d/t.c" $(pkg-config --cflags --libs mlx5umr) &&
		ldd "$d/t" | awk '$1 == "libmlx5umr.so.0" { print $3 }' >"$d/so" &&
		[ "$(realpath "$(cat "$d/so")")" = "$(realpath "$lib")" ] && "$d/t"
	rc=$?
	rm -rf "$d"
	return $rc
}
step "a program builds with pkg-config mlx5umr and runs on libmlx5umr.so.0" dev_prog
step "umrctl.1 installed (man -w umrctl)" sh -c 'man -w umrctl 2>/dev/null || test -f /usr/share/man/man1/umrctl.1.gz'
step "the udev rule is an example, not active" sh -c \
	'test -f /usr/share/doc/mlx5umr-tools/examples/90-mlx5-umr.rules &&
	 ! ls /etc/udev/rules.d/*mlx5* /lib/udev/rules.d/*mlx5* 2>/dev/null'
# In the VM, per line: the installed modules load, umrctl answers.
tests=$BUILD/vm/deb/tests
rm -rf "$tests"; mkdir -p "$tests"
cp "$TESTBED/deb-vm-test.sh" "$tests/deb_installed.sh"
chmod +x "$tests/deb_installed.sh"
for K in $Ks; do
	vmlog=$BUILD/logs/vm-deb-$K.log
	boot() {
		"$TESTBED/vm-initramfs.sh" "$K" - "$tests" "$BUILD/vm/deb/$K.cpio.gz" \
			/lib/modules/"$K"/updates/dkms/mlx5_umr*.ko* /usr/bin/umrctl &&
		"$TESTBED/vm-run.sh" "$K" "$BUILD/vm/deb/$K.cpio.gz" "$vmlog"
	}
	step "$K in the VM: installed modules load, umrctl info answers (log: $vmlog)" boot
done
left() {	# left WHEN: what a package put on the host is gone
	gone || { echo "dkms: $(dkms status -m "$name")"; return 1; }
	! ls -d /usr/src/mlx5-umr* /var/lib/dkms/"$name" /usr/lib/"$multi"/libmlx5umr* \
		/usr/include/mlx5umr.h /usr/include/linux/mlx5_umr.h /usr/bin/umrctl \
		/usr/share/man/man1/umrctl.1* /usr/share/doc/mlx5umr-tools \
		/lib/modules/*/updates/dkms/mlx5_umr* 2>/dev/null
}
# shellcheck disable=SC2086
step "apt remove" apt-get remove -y -qq $pkgs
step "after remove: no module, no DKMS tree, no library, no tool" left
step "dpkg --purge" purge
# shellcheck disable=SC2086
step "after purge: dpkg knows none of the packages" \
	sh -c '! dpkg-query -W -f="\${Package} \${Status}\n" "$@" 2>/dev/null | grep -v "not-installed$"' _ $pkgs
step "after purge: nothing left" left
tb_result $P $F 0 "deb packages (install, load on $(echo $KLINES), purge)"
[ $F -eq 0 ]
