/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the key byte (mkc.mkey_7_0) of the mkeys the service hands out.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_KEY_H
#define MLX5_UMR_KEY_H

#include <linux/build_bug.h>
#include <linux/mlx5/qp.h>
#include <linux/random.h>
#include <linux/types.h>

/*
 * A key whose low byte is 0 can be MLX5_STRIDE_BLOCK_OP (index 4), which
 * the device reads as a repeat block header when a list names it first
 * (entry_rules.h rule 35). CREATE_MKEY takes the byte before the firmware
 * picks the index, so the byte 0 is never used.
 */
static_assert((MLX5_STRIDE_BLOCK_OP & 0xff) == 0);

/**
 * mlx5_umr_key_byte() - a fresh key byte for an mkey
 * @old: the mkey's current key byte (0 for a new mkey)
 *
 * Random, so that one key of an mkey tells a peer nothing about the next
 * or about other mkeys of the device (mr.c assign_mkey_variant() counts
 * device-wide, which is predictable); never 0 (see above) and never @old,
 * so that a rotation always changes the key.
 *
 * Return: a byte in 1..255 other than @old.
 */
static inline u8 mlx5_umr_key_byte(u8 old)
{
	u8 b;

	do {
		b = get_random_u8();
	} while (!b || b == old);
	return b;
}

#endif /* MLX5_UMR_KEY_H */
