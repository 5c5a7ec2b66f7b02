// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the crypto BSF of a UMR WQE, as rdma-core's
 * mlx5_umr_fill_crypto_bsf() (providers/mlx5/qp.c) writes it; every field
 * and its source in Documentation/crypto.rst. Pure functions.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <linux/mlx5_umr_testing.h>

#include "crypto.h"

/**
 * mlx5_umr_crypto_bs_selector() - the BSF's data unit size selector
 * @bs: MLX5_UMR_BLOCK_SIZE_*
 *
 * rdma-core qp.c bs_to_bs_selector().
 * Return: the selector, 0 for an unknown size.
 */
u8 mlx5_umr_crypto_bs_selector(enum mlx5_umr_block_size bs)
{
	switch (bs) {
	case MLX5_UMR_BLOCK_SIZE_512:
		return MLX5_UMR_BS_SELECTOR_512;
	case MLX5_UMR_BLOCK_SIZE_520:
		return MLX5_UMR_BS_SELECTOR_520;
	case MLX5_UMR_BLOCK_SIZE_4048:
		return MLX5_UMR_BS_SELECTOR_4048;
	case MLX5_UMR_BLOCK_SIZE_4096:
		return MLX5_UMR_BS_SELECTOR_4096;
	case MLX5_UMR_BLOCK_SIZE_4160:
		return MLX5_UMR_BS_SELECTOR_4160;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_crypto_bs_selector);

/**
 * mlx5_umr_crypto_du_bytes() - bytes of a data unit
 * @bs: MLX5_UMR_BLOCK_SIZE_*
 *
 * rdma-core qp.c block_size_to_bytes().
 * Return: the bytes, 0 for an unknown size.
 */
u32 mlx5_umr_crypto_du_bytes(enum mlx5_umr_block_size bs)
{
	switch (bs) {
	case MLX5_UMR_BLOCK_SIZE_512:
		return 512;
	case MLX5_UMR_BLOCK_SIZE_520:
		return 520;
	case MLX5_UMR_BLOCK_SIZE_4048:
		return 4048;
	case MLX5_UMR_BLOCK_SIZE_4096:
		return 4096;
	case MLX5_UMR_BLOCK_SIZE_4160:
		return 4160;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_crypto_du_bytes);

/**
 * mlx5_umr_crypto_enc_order() - the BSF's enc_order
 * @attr: the attributes
 *
 * rdma-core qp.c get_crypto_order(): which side holds ciphertext and
 * whether the signature is computed on it. (Orders RAW_WIRE and RAW_MEMORY
 * with a signature in both domains, which the device does not support, are
 * refused by rule 62.)
 * Return: MLX5_UMR_ENC_ORDER_*, or -EINVAL for an unknown order.
 */
int mlx5_umr_crypto_enc_order(const struct mlx5_umr_crypto_attr *attr)
{
	bool after;

	switch (attr->signature_crypto_order) {
	case MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX:
		after = true;
		break;
	case MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX:
		after = false;
		break;
	default:
		return -EINVAL;
	}
	if (attr->encrypt_on_tx)
		return after ? MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE :
			       MLX5_UMR_ENC_ORDER_ENCRYPTED_WIRE_SIGNATURE;
	return after ? MLX5_UMR_ENC_ORDER_ENCRYPTED_MEMORY_SIGNATURE :
		       MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY;
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_crypto_enc_order);

/**
 * mlx5_umr_crypto_fill_bsf() - write one crypto BSF
 * @bsf: 64 bytes in the WQE: after the translation, after the signature
 *	BSF when the mkey has both
 * @attr: attributes that passed mlx5_umr_crypto_rules()
 * @caps: the device's caps (the tweak's byte order)
 * @pair: the mkey has a signature: a signature BSF comes first
 *
 * The size field says SIG_AND_CRYPTO (0xc1 with the type) after a
 * signature BSF, WITH_INLINE (0x81) alone, as rdma-core's
 * mlx5_umr_fill_crypto_bsf() writes it since b38f3439a983 ("mlx5: Adjust
 * Crypto BSF size if signature is used", v42) and SPDK's pair encoder
 * does. The initial tweak is the caller's little-endian 128-bit number;
 * a device that reads it big endian (@caps->crypto_tweak_be) gets the 16
 * bytes reversed, as rdma-core does since dd8a5576c06a ("mlx5: Add
 * support for multi-block AES-XTS encryption", v44). Every byte is
 * written (the ring slot's old contents never leak through).
 * raw_data_size is all ones as rdma-core writes it; the mkey length must
 * then fit 32 bits (rule 63).
 */
void mlx5_umr_crypto_fill_bsf(struct mlx5_umr_crypto_bsf *bsf,
			      const struct mlx5_umr_crypto_attr *attr,
			      const struct mlx5_umr_caps *caps, bool pair)
{
	unsigned int i, n = sizeof(bsf->xts_init_tweak);

	*bsf = (struct mlx5_umr_crypto_bsf) {
		.bsf_size_type = pair ? MLX5_UMR_CRYPTO_BSF_IN_PAIR :
					MLX5_UMR_CRYPTO_BSF_ALONE,
		.enc_order = mlx5_umr_crypto_enc_order(attr),
		.enc_standard = MLX5_UMR_ENC_STANDARD_AES_XTS,
		.raw_data_size = cpu_to_be32(U32_MAX),
		.bs_pointer = mlx5_umr_crypto_bs_selector(attr->data_unit_size),
		.dek_pointer = cpu_to_be32(attr->dek->id &
					   MLX5_UMR_CRYPTO_DEK_PTR_MASK),
	};
	if (caps->crypto_tweak_be)
		for (i = 0; i < n; i++)
			bsf->xts_init_tweak[i] = attr->initial_tweak[n - 1 - i];
	else
		memcpy(bsf->xts_init_tweak, attr->initial_tweak, n);
	memcpy(bsf->keytag, attr->keytag, sizeof(bsf->keytag));
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_crypto_fill_bsf);
