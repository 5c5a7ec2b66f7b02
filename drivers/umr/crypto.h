/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: crypto mkeys, AES-XTS (Documentation/crypto.rst).
 *
 * The crypto BSF encoder (crypto_bsf.c, pure: no lock, no allocation, no
 * device access). The rules on crypto attributes (53 to 64) are in the
 * rulebook, rules.h.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_CRYPTO_H
#define MLX5_UMR_CRYPTO_H

#include <linux/errno.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_ifc.h>

#include "xlt.h"

/* A crypto BSF is 64 bytes; after a signature BSF when both are set. */
#define MLX5_UMR_CRYPTO_BSF_BYTES	sizeof(struct mlx5_umr_crypto_bsf)
static_assert(sizeof(struct mlx5_umr_crypto_bsf) == 64);

u8 mlx5_umr_crypto_bs_selector(enum mlx5_umr_block_size bs);
u32 mlx5_umr_crypto_du_bytes(enum mlx5_umr_block_size bs);
int mlx5_umr_crypto_enc_order(const struct mlx5_umr_crypto_attr *attr);
void mlx5_umr_crypto_fill_bsf(struct mlx5_umr_crypto_bsf *bsf,
			      const struct mlx5_umr_crypto_attr *attr,
			      const struct mlx5_umr_caps *caps, bool pair);

#endif /* MLX5_UMR_CRYPTO_H */
