#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Each project module in the image: modprobe resolves and loads its real
# dependencies, the module shows in lsmod, it unloads, and nothing of ours
# stays loaded. Runs in the VM's busybox.
extra=/lib/modules/$(uname -r)/extra
n=0 pass=0 fail=0
check() {	# check DESC CMD...
	n=$((n + 1)); desc=$1; shift
	if "$@" >/tmp/modules_load.out 2>&1; then
		echo "ok $n $desc"; pass=$((pass + 1))
	else
		echo "not ok $n $desc"; sed 's/^/# /' /tmp/modules_load.out; fail=$((fail + 1))
	fi
}
# lsmod shows module names with '_' where modinfo's depends may have '-'
loaded() { lsmod | grep -q "^$(echo "$1" | tr - _) "; }
not_loaded() { ! loaded "$1"; }
# modprobe -r removed MOD and its DEPS. Not its exit code: busybox's fails
# when a dependency's own dependency stays held by modules loaded on the
# side (crc-t10dif's crct10dif_common, held by the crypto providers it
# requested on Debian's 6.1), though everything the module pulled in went.
unloaded() {	# unloaded MOD DEPS...
	modprobe -r "$1"
	for x in "$@"; do
		if loaded "$x"; then echo "$x still loaded"; return 1; fi
	done
}
mods=$(for f in "$extra"/*.ko; do basename "$f" .ko; done)
echo "TAP version 13"
echo "# modules: $(echo $mods)"
check "image holds the service module" test -f "$extra/mlx5_umr.ko"
for m in $mods; do
	deps=$(modinfo -F depends "$extra/$m.ko" | tr ',' ' ')
	check "modprobe $m" modprobe "$m"
	check "$m is loaded" loaded "$m"
	for d in $deps; do
		check "$m pulled in its dependency $d" loaded "$d"
	done
	check "modprobe -r $m" unloaded "$m" $deps
	check "$m is gone" not_loaded "$m"
done
check "no mlx5_umr module left loaded" sh -c '! lsmod | grep -q "^mlx5_umr"'
echo "1..$n"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ $fail -eq 0 ]
