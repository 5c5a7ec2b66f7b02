/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the key byte (mkc.mkey_7_0) of the mkeys the service hands
 * out, and its rotation (key_rotate.c).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_KEY_ROTATE_H
#define MLX5_UMR_KEY_ROTATE_H

#include <linux/build_bug.h>
#include <linux/mlx5/qp.h>
#include <linux/types.h>

/*
 * A key whose low byte is 0 can be MLX5_STRIDE_BLOCK_OP (index 4), which
 * the device reads as a repeat block header when a list names it first
 * (rules.h rule 35). CREATE_MKEY takes the byte before the firmware
 * picks the index, so the byte 0 is never used: the service's key bytes
 * are 1..255.
 */
static_assert((MLX5_STRIDE_BLOCK_OP & 0xff) == 0);

/*
 * The guarantee of a rotation (Documentation/uapi.rst, "Keys"): the key
 * of an mkey returns no earlier than its MLX5_UMR_KEY_PERIOD-th rotation,
 * so the keys of any MLX5_UMR_KEY_PERIOD consecutive layouts of an mkey
 * are pairwise different.
 */
#define MLX5_UMR_KEY_PERIOD	255

u8 mlx5_umr_key_first(void);
u8 mlx5_umr_key_next(u8 old);

/* The key a rotation (MLX5_UMR_WR_NEW_KEY) gives: same index, next byte. */
static inline u32 mlx5_umr_key_rotated(u32 key)
{
	return (key & ~0xffU) | mlx5_umr_key_next(key & 0xff);
}

#endif /* MLX5_UMR_KEY_ROTATE_H */
