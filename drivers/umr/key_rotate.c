// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: key bytes of new mkeys, and their rotation.
 *
 * A new mkey gets a random byte, so that one key tells a peer nothing
 * about other mkeys of the device (mr.c assign_mkey_variant() counts
 * device-wide, which is predictable). A rotation (MLX5_UMR_WR_NEW_KEY)
 * steps the byte by one, as ib_inc_rkey() does (include/rdma/ib_verbs.h),
 * skipping the byte 0 the service never uses: the byte runs through all
 * MLX5_UMR_KEY_PERIOD values before it returns, so a peer that kept the key
 * of one of the last 254 layouts reaches nothing through it. A random byte
 * per rotation gave that no bound: the key of two layouts before came back
 * once in 254 rotations.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/random.h>
#include <linux/mlx5_umr_testing.h>

#include "key_rotate.h"

/**
 * mlx5_umr_key_first() - the key byte of a new mkey
 *
 * Return: a random byte in 1..255.
 */
u8 mlx5_umr_key_first(void)
{
	return 1 + get_random_u32_below(MLX5_UMR_KEY_PERIOD);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_key_first);

/**
 * mlx5_umr_key_next() - the key byte after a rotation
 * @old: the mkey's current key byte (any, also a foreign 0)
 *
 * Return: @old + 1 in 1..255, 255 followed by 1.
 */
u8 mlx5_umr_key_next(u8 old)
{
	static_assert(MLX5_UMR_KEY_PERIOD == U8_MAX);
	return old == U8_MAX ? 1 : old + 1;
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_key_next);
