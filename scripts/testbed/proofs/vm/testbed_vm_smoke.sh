#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Test-bed proof: the VM runs installed tests, counts KTAP totals, and the
# service module loads and unloads on Debian's kernel.
echo "TAP version 13"
echo "1..2"
if modprobe mlx5_umr; then echo "ok 1 modprobe mlx5_umr"; p=1; f=0; else echo "not ok 1 modprobe mlx5_umr"; p=0; f=1; fi
if rmmod mlx5_umr; then echo "ok 2 rmmod mlx5_umr"; p=$((p + 1)); else echo "not ok 2 rmmod mlx5_umr"; f=$((f + 1)); fi
echo "# Totals: pass:$p fail:$f xfail:0 xpass:0 skip:0 error:0"
[ $f -eq 0 ]
