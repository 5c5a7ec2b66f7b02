#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Inside a UML test boot, after the modules are gone: print kmemleak's
# report. kmemleak never reports objects younger than 5 s, so wait, then
# scan twice (the second scan confirms what the first suspected).
k=/sys/kernel/debug/kmemleak
[ -w $k ] || exit 0
sleep 6
echo scan >$k
echo scan >$k
cat $k
