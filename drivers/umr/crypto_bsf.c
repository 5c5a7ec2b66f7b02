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
 * mlx5_umr_crypto_enc_order() - the BSF's enc_order
 * @attr: the attributes
 *
 * rdma-core qp.c get_crypto_order(): which side holds ciphertext and
 * whether the signature is computed on it. (Orders RAW_WIRE and RAW_MEMORY
 * with a signature in both domains, which the device does not support, are
 * refused by rule C10.)
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
 *
 * The size field is WITH_INLINE after a signature BSF too: rdma-core's
 * mlx5_umr_fill_crypto_bsf() writes it so whatever the mkey has (only the
 * signature BSF says SIG_AND_CRYPTO); SPDK writes SIG_AND_CRYPTO in both
 * (Documentation/crypto.rst, "Signature and crypto").
 * Every byte is written (the ring slot's old contents never leak through).
 * raw_data_size is all ones as rdma-core writes it; the mkey length must
 * then fit 32 bits (rule C11).
 */
void mlx5_umr_crypto_fill_bsf(struct mlx5_umr_crypto_bsf *bsf,
			      const struct mlx5_umr_crypto_attr *attr)
{
	*bsf = (struct mlx5_umr_crypto_bsf) {
		.bsf_size_type = MLX5_UMR_BSF_SIZE_WITH_INLINE <<
				 MLX5_UMR_BSF_SIZE_SHIFT |
				 MLX5_UMR_BSF_TYPE_CRYPTO,
		.enc_order = mlx5_umr_crypto_enc_order(attr),
		.enc_standard = MLX5_UMR_ENC_STANDARD_AES_XTS,
		.raw_data_size = cpu_to_be32(U32_MAX),
		.bs_pointer = mlx5_umr_crypto_bs_selector(attr->data_unit_size),
		.dek_pointer = cpu_to_be32(attr->dek->id &
					   MLX5_UMR_CRYPTO_DEK_PTR_MASK),
	};
	memcpy(bsf->xts_init_tweak, attr->initial_tweak,
	       sizeof(bsf->xts_init_tweak));
	memcpy(bsf->keytag, attr->keytag, sizeof(bsf->keytag));
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_crypto_fill_bsf);
