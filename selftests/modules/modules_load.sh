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
loaded() { lsmod | grep -q "^$1 "; }
not_loaded() { ! lsmod | grep -q "^$1 "; }
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
	check "modprobe -r $m" modprobe -r "$m"
	check "$m is gone" not_loaded "$m"
done
check "no mlx5_umr module left loaded" sh -c '! lsmod | grep -q "^mlx5_umr"'
echo "1..$n"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ $fail -eq 0 ]
