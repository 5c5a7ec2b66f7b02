#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Writes every umrctl example of the given reStructuredText pages (a
# literal block that runs "umrctl -d fake0") to DIR/<page>-<n>.sh, as
# written, for umrctl_test.sh to run in the VM: an example a page shows
# must keep working.
#   doc-examples.sh DIR PAGE.rst...
set -e
dir=$1; shift
mkdir -p "$dir"
for page in "$@"; do
	awk -v out="$dir/$(basename "$page" .rst)" '
	function flush() {
		if (blk ~ /(^|\n)umrctl -d fake0 /) {
			f = out "-" ++n ".sh"
			printf "%s", blk > f
			close(f)
		}
		blk = ""; lit = 0
	}
	/::$/ { flush(); want = 1; next }
	want && /^$/ { if (lit) blk = blk "\n"; next }
	want && /^  / { lit = 1; blk = blk substr($0, 3) "\n"; next }
	{ if (lit) flush(); want = 0 }
	END { flush() }' "$page"
done
