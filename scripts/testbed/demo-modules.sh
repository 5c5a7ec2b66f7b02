#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Demo inside the VM until the uapi walk-through exists: load the service
# and every backend the image holds, show them, unload.
set -e
echo "== modprobe the UMR service and the fake HCA"
modprobe mlx5_umr
modprobe mlx5_umr_fake 2>/dev/null || echo "(no fake HCA module in this build yet)"
lsmod | grep -E '^(Module|mlx5_umr)'
ls -l /dev/mlx5_umr 2>/dev/null || true
dmesg | grep -E 'mlx5_umr' | tail -n 10
echo "== unload"
rmmod mlx5_umr_fake 2>/dev/null || true
rmmod mlx5_umr
lsmod | grep -c '^mlx5_umr' || true
