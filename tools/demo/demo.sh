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
#
# Last, block signature: an mkey whose memory holds T10-DIF after each
# 512-byte block while the wire carries the data alone. A peer's write
# gets its protection information inserted, a read gets it checked and
# stripped; one byte corrupted in memory is then detected and reported,
# with the failing block, by the mkey's owner (umrctl check).
#
# Then crypto: an mkey that encrypts with AES-XTS as data passes. Memory
# holds ciphertext, the wire plaintext: the plaintext a peer writes lands
# in memory as the ciphertext IEEE Std 1619-2007 gives for it (vector 4:
# its key, bytes 0..255 twice, data unit 512, tweak 0), and a peer's read
# gets the plaintext back. The key is read from a file, never from the
# command line, and is printed nowhere.
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
echo "== block signature: T10-DIF inserted, checked and stripped by the HCA"
umrctl -d fake0 -b - <<'CMDS'
reg buf --length 4096 --fill 0xee
alloc sk --signature --max-entries 4
# memory view: 2 blocks of 512 data bytes, each followed by 8 bytes of
# T10-DIF: guard (CRC-16/T10-DIF of the block), app tag, ref tag.
# wire view (what a peer reads and writes): the 1,024 data bytes alone.
configure list sk --sig mem=t10dif:crc,wire=none,app=0x1234,ref=7,remap buf:1040
# a peer writes 1,024 bytes (pattern inc: byte i of the stream is i & 0xff)
write sk --length 1024 --pattern inc
# block 0 ends at 511; its PI at 512..519: guard, app 12 34, ref 00 00 00 07;
# block 1 starts at 520 with byte 512 of the stream (00 01 02 ...)
dump buf --offset 496 --length 40
# block 1's PI at 1032..1039: ref tag 8 (remap: +1 per block), then 0xee
dump buf --offset 1024 --length 24
# a peer reads the 1,024 bytes: every PI checked and stripped
read sk --length 1024 --expect 0 --pattern inc --brief
check sk --expect none
# one data byte of block 1 corrupted in memory (stream byte 592: 0x50)
poke buf --offset 600 --value 0x00
dump buf --offset 592 --length 16
read sk --length 1024 --brief
# the accessing QP's CQ got a SIG_ERR CQE, handed to the service; the
# mkey's owner reads it: a bad guard in block 1 (offset: the block's last
# byte in memory), the guard stored and the one computed; the check re-arms
check sk --expect guard@1039
check sk --expect none
destroy sk
destroy buf
CMDS

echo
echo "== crypto: AES-XTS by the HCA, checked against IEEE 1619-2007 vector 4"
umask 077
# vector 4's key1 | key2 (two AES-128 keys) and its ciphertext
# (xts-v4.key and xts-v4.ct, next to this script), copied into a directory
# of the demo's own that goes however the demo ends
v4=$(mktemp -d)
trap 'rm -rf "$v4"' EXIT
cp "$(dirname "$0")/xts-v4.key" "$v4/v4.key"
cp "$(dirname "$0")/xts-v4.ct" "$v4/v4.ct"
umrctl -d fake0 -b - <<CMDS
reg buf --length 4096 --fill 0xee
# a DEK from the key file (wiped by umrctl and the kernel once the HCA has it)
dek d --key-file $v4/v4.key
alloc ck --crypto --max-entries 1
# memory holds ciphertext, the wire plaintext; one 512-byte data unit, tweak 0
configure list ck --crypto dek=d,dus=512,tweak=0 buf:512
# a peer writes the plaintext: bytes 0..255 twice
write ck --length 512 --pattern inc
# memory holds ciphertext: all 512 bytes compared with the standard's
# (vector 4's begins 27 a7 47 9b, ends 31 9d 05 68; first and last 16 shown)
dump buf --length 512 --expect-hex $v4/v4.ct --brief
# a peer reads through the mkey: the plaintext again
read ck --length 512 --expect 0 --pattern inc --brief
# refused: a configured mkey names the DEK (EBUSY until invalidated)
! destroy d
invalidate ck
destroy ck
destroy d
destroy buf
CMDS
rm -rf "$v4"
trap - EXIT

echo
echo "== unload"
rmmod mlx5_umr_fake
rmmod mlx5_umr
echo "demo: all steps behaved as expected"
