#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The `make demo` walk-through, run inside the test VM (busybox): the
# interleaved example of mlx5dv_wr_mkey_configure(3) on a fake HCA.
#
# Two buffers are registered, an indirect mkey gets the layout
#   repeat 2 x { mr1: 512 bytes then skip 4, mr2: 8 bytes then skip 0 }
# and 1,040 bytes are written through it as a remote peer would (RDMA
# WRITE). Every 4-byte word written holds its own offset in the transfer,
# so the dumps show where each byte landed:
#   bytes    0..511  -> mr1 + 0
#   bytes  512..519  -> mr2 + 0
#   bytes  520..1031 -> mr1 + 516   (mr1 + 512..515 skipped, still 0xee)
#   bytes 1032..1039 -> mr2 + 8
# Then requests the service must refuse are refused, with their errno.
set -e
PATH=/usr/bin:/usr/sbin:/bin:/sbin

echo "== load the UMR service and one fake HCA"
modprobe mlx5_umr_fake
i=0
while [ ! -e /dev/mlx5_umr/fake0 ] && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
ls -l /dev/mlx5_umr/
umrctl -d fake0 info

echo
echo "== one session (objects live as long as the open file): umrctl -b -"
umrctl -d fake0 -b - <<'CMDS'
reg mr1 --length 4096 --fill 0xee
reg mr2 --length 4096 --fill 0xee
alloc mk --max-entries 4
configure interleaved mk --repeat 2 mr1:512:4 mr2:8:0
write mk --length 1040 --pattern offset
# where each range of the 1,040 bytes landed (checked byte by byte)
dump mr1 --offset 0 --length 512 --expect 0 --brief
dump mr2 --offset 0 --length 8 --expect 512
dump mr1 --offset 516 --length 512 --expect 520 --brief
dump mr2 --offset 8 --length 8 --expect 1032
# around them: mr1+512..515 (skipped) and mr2 from +16 still hold 0xee
dump mr1 --offset 504 --length 24
dump mr2 --offset 0 --length 32
# read back through the mkey: the stream is contiguous again
read mk --offset 504 --length 24
# refused: the second entry would run past the end of mr2 (4090 + 16 > 4096)
! configure interleaved mk --repeat 2 mr1:512:4 mr2+4090:8:0
# refused: a key this file does not own
! configure list mk 0x12345678+0:64
# refused: memory named by a configured layout cannot go away
! destroy mr1
invalidate mk
# refused by the HCA: the mkey is free after invalidation
! write mk --length 16
destroy mk
destroy mr1
destroy mr2
info
CMDS

echo
echo "== unload"
rmmod mlx5_umr_fake
rmmod mlx5_umr
echo "demo: all steps behaved as expected"
