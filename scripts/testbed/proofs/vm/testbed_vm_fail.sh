#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Test-bed proof: a selftest that fails must make the VM runner fail.
echo "TAP version 13"
echo "1..1"
echo "not ok 1 deliberate failure"
echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
exit 1
