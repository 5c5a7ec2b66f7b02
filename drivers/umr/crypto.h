/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: crypto mkeys, AES-XTS (Documentation/crypto.rst).
 *
 * The crypto BSF encoder (crypto_bsf.c, pure: no lock, no allocation, no
 * device access) and the rules on crypto attributes, one function and one
 * errno each, as wr_rules.h does for the rest of a request.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_CRYPTO_H
#define MLX5_UMR_CRYPTO_H

#include <linux/errno.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_ifc.h>

/* A crypto BSF is 64 bytes; after a signature BSF when both are set. */
#define MLX5_UMR_CRYPTO_BSF_BYTES	sizeof(struct mlx5_umr_crypto_bsf)
static_assert(sizeof(struct mlx5_umr_crypto_bsf) == 64);

u8 mlx5_umr_crypto_bs_selector(enum mlx5_umr_block_size bs);
int mlx5_umr_crypto_enc_order(const struct mlx5_umr_crypto_attr *attr);
void mlx5_umr_crypto_fill_bsf(struct mlx5_umr_crypto_bsf *bsf,
			      const struct mlx5_umr_crypto_attr *attr);

/* Rule C1: the device can do it (caps->crypto). */
static inline int mlx5_umr_crypto_rule_device(const struct mlx5_umr_caps *caps)
{
	return caps->crypto ? 0 : -EOPNOTSUPP;
}

/* Rule C2: attributes are given (rdma-core dv_attr). */
static inline int
mlx5_umr_crypto_rule_attr(const struct mlx5_umr_crypto_attr *attr)
{
	return attr ? 0 : -EINVAL;
}

/* Rule C3: AES-XTS only (mlx5_send_wr_set_mkey_crypto(): EINVAL). */
static inline int
mlx5_umr_crypto_rule_standard(const struct mlx5_umr_crypto_attr *attr)
{
	return attr->crypto_standard == MLX5_UMR_CRYPTO_STANDARD_AES_XTS ?
	       0 : -EINVAL;
}

/* Rule C4: one of the two orders (mlx5_send_wr_set_mkey_crypto(): EINVAL). */
static inline int
mlx5_umr_crypto_rule_order(const struct mlx5_umr_crypto_attr *attr)
{
	return mlx5_umr_crypto_enc_order(attr) < 0 ? -EINVAL : 0;
}

/* Rule C5: a data unit size rdma-core lists (512 .. 4160: EINVAL). */
static inline int
mlx5_umr_crypto_rule_du(const struct mlx5_umr_crypto_attr *attr)
{
	return mlx5_umr_crypto_bs_selector(attr->data_unit_size) ? 0 : -EINVAL;
}

/*
 * Rule C6: a DEK of the mkey's device and PD. The HCA would fail the data
 * access; a foreign DEK is refused before anything is posted.
 */
static inline int
mlx5_umr_crypto_rule_dek(const struct mlx5_umr_crypto_attr *attr,
			 const struct mlx5_umr_dev *dev, u32 pdn)
{
	if (!attr->dek || attr->dek->dev != dev || attr->dek->pdn != pdn)
		return -EINVAL;
	return 0;
}

/**
 * mlx5_umr_crypto_rules() - rules C1 to C6, in order
 * @caps: the device's caps
 * @attr: the attributes
 * @dev: the mkey's device
 * @pdn: the mkey's PD
 *
 * Return: 0 or the first broken rule's errno.
 */
static inline int mlx5_umr_crypto_rules(const struct mlx5_umr_caps *caps,
					const struct mlx5_umr_crypto_attr *attr,
					const struct mlx5_umr_dev *dev,
					u32 pdn)
{
	int err;

	err = mlx5_umr_crypto_rule_device(caps);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_attr(attr);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_standard(attr);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_order(attr);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_du(attr);
	if (err)
		return err;
	return mlx5_umr_crypto_rule_dek(attr, dev, pdn);
}

#endif /* MLX5_UMR_CRYPTO_H */
