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

#include "xlt.h"
#include "sig_rules.h"

/* A crypto BSF is 64 bytes; after a signature BSF when both are set. */
#define MLX5_UMR_CRYPTO_BSF_BYTES	sizeof(struct mlx5_umr_crypto_bsf)
static_assert(sizeof(struct mlx5_umr_crypto_bsf) == 64);

u8 mlx5_umr_crypto_bs_selector(enum mlx5_umr_block_size bs);
u32 mlx5_umr_crypto_du_bytes(enum mlx5_umr_block_size bs);
int mlx5_umr_crypto_enc_order(const struct mlx5_umr_crypto_attr *attr);
void mlx5_umr_crypto_fill_bsf(struct mlx5_umr_crypto_bsf *bsf,
			      const struct mlx5_umr_crypto_attr *attr,
			      const struct mlx5_umr_caps *caps, bool pair);

/*
 * Rule C1: the device can do it (caps->crypto: cmd_hca_cap.crypto, an
 * AES-XTS engine, plaintext import; dev.c mlx5_umr_query_crypto_caps()).
 */
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
 * Rule C6: a DEK of the mkey's device and of the PD the mkey is in after
 * the request (mlx5dv_dek_create(3): the DEK's pd; the HCA would fail
 * every access). @pdn MLX5_UMR_PDN_UNKNOWN, after a failed move, matches
 * no DEK.
 */
static inline int
mlx5_umr_crypto_rule_dek(const struct mlx5_umr_crypto_attr *attr,
			 const struct mlx5_umr_dev *dev, u32 pdn)
{
	return attr->dek && attr->dek->dev == dev && attr->dek->pdn == pdn ?
	       0 : -EINVAL;
}

/**
 * mlx5_umr_crypto_rules() - rules C1 to C6, in order
 * @caps: the device's caps
 * @attr: the attributes
 * @dev: the mkey's device
 * @pdn: the PD the mkey is in after the request
 *
 * Return: 0 or the first broken rule's errno.
 */
static inline int mlx5_umr_crypto_rules(const struct mlx5_umr_caps *caps,
					const struct mlx5_umr_crypto_attr *attr,
					const struct mlx5_umr_dev *dev, u32 pdn)
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

/* The PD the mkey of @wr is in once @wr ran. */
static inline u32 mlx5_umr_wr_pdn_after(const struct mlx5_umr_wr *wr)
{
	return wr->flags & MLX5_UMR_WR_SET_PD ? wr->pdn : READ_ONCE(wr->mkey->pdn);
}

/*
 * Rule C10: orders ENCRYPTED_RAW_WIRE and ENCRYPTED_RAW_MEMORY (the
 * signature computed over ciphertext) with a signature in both domains,
 * which the device does not support (rdma-core get_crypto_order(): -1,
 * EINVAL). @sig: the signature the mkey has after the request, or NULL.
 */
static inline int
mlx5_umr_crypto_rule_sig_order(const struct mlx5_umr_crypto_attr *attr,
			       const struct mlx5_umr_sig_attr *sig)
{
	int order = mlx5_umr_crypto_enc_order(attr);

	if (!sig || sig->mem.sig_type == MLX5_UMR_SIG_NONE ||
	    sig->wire.sig_type == MLX5_UMR_SIG_NONE)
		return 0;
	return order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE ||
	       order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY ? -EINVAL : 0;
}

/*
 * Rule C11: a layout given with crypto fits the crypto BSF's
 * raw_data_size, 32 bits (crypto_umr_wqe_finalize(): mkey->length >
 * UINT32_MAX is EINVAL). Every layout of a crypto mkey comes with its
 * attributes (C8), so none is longer.
 */
static inline int mlx5_umr_crypto_rule_length(const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_layout_over_u32(wr) ? -EINVAL : 0;
}

/*
 * The signature a SET_CRYPTO request's checks know of: the one it sets,
 * none when it resets or the mkey has none; a kept one is known only when
 * the request is posted (sq_post.c applies C10 again there).
 */
static inline const struct mlx5_umr_sig_attr *
mlx5_umr_crypto_wr_sig(const struct mlx5_umr_wr *wr)
{
	return wr->flags & MLX5_UMR_WR_SET_SIG ? wr->sig : NULL;
}

/*
 * Rule C12: on a single-block engine the mkey is at most one data unit
 * long once the request ran (rdma-core qp.c crypto_umr_wqe_finalize():
 * "Length must fit block size in single block encryption", EINVAL).
 * @len: its length then: the layout's, else the one it keeps.
 */
static inline int mlx5_umr_crypto_rule_single(const struct mlx5_umr_caps *caps,
					      const struct mlx5_umr_crypto_attr *attr,
					      u64 len)
{
	if (caps->crypto_engine != MLX5_UMR_CRYPTO_ENGINE_SINGLE_BLOCK)
		return 0;
	return len > mlx5_umr_crypto_du_bytes(attr->data_unit_size) ?
	       -EINVAL : 0;
}

/*
 * Rule C7: crypto attributes only on a CONFIGURE of a crypto mkey
 * (rdma-core: the setter on an mkey without MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO
 * is EINVAL).
 */
static inline int mlx5_umr_crypto_rule_mkey(const struct mlx5_umr_wr *wr)
{
	if ((wr->flags & MLX5_UMR_WR_SET_CRYPTO) &&
	    (wr->op != MLX5_UMR_OP_CONFIGURE ||
	     !(wr->mkey->flags & MLX5_UMR_MKEY_CRYPTO)))
		return -EINVAL;
	return 0;
}

/*
 * Rule C8: every CONFIGURE of a crypto mkey carries its attributes, so
 * that every one writes the BSF whole (rdma-core's
 * crypto_umr_wqe_finalize() writes it when a half changes, from the
 * attributes it keeps): the WQE never relies on a BSF the HCA kept.
 */
static inline int mlx5_umr_crypto_rule_every(const struct mlx5_umr_wr *wr)
{
	if (wr->op == MLX5_UMR_OP_CONFIGURE &&
	    (wr->mkey->flags & MLX5_UMR_MKEY_CRYPTO) &&
	    !(wr->flags & MLX5_UMR_WR_SET_CRYPTO))
		return -EINVAL;
	return 0;
}

/*
 * Rule C9: the BSF (after the signature BSF of an mkey with both) goes
 * inline after the translation, and all must fit one WQE (rdma-core:
 * cur_data_size + bsf_size > max_data_size, ENOMEM).
 */
static inline int mlx5_umr_crypto_rule_room(const struct mlx5_umr_caps *caps,
					    const struct mlx5_umr_wr *wr)
{
	u32 padded = ALIGN(mlx5_umr_xlt_bytes(wr), MLX5_UMR_FLEX_ALIGNMENT);

	return padded + mlx5_umr_wr_bsf_bytes(wr) > mlx5_umr_inline_max(caps) ?
	       -ENOMEM : 0;
}

/**
 * mlx5_umr_crypto_check() - the crypto rules of one request: C7, C8, then
 * with MLX5_UMR_WR_SET_CRYPTO C1 to C6, C11, C12 (a layout given), C9 and
 * C10
 * @caps: the device's caps
 * @wr: the request, past the rules of its operation
 *
 * Return: 0 or the first broken rule's errno.
 */
static __always_inline int
mlx5_umr_crypto_check(const struct mlx5_umr_caps *caps,
		      const struct mlx5_umr_wr *wr)
{
	int err;

	if (likely(!(wr->flags & MLX5_UMR_WR_SET_CRYPTO) &&
		   !(wr->mkey->flags & MLX5_UMR_MKEY_CRYPTO)))
		return 0;
	err = mlx5_umr_crypto_rule_mkey(wr);
	if (err)
		return err;
	err = mlx5_umr_crypto_rule_every(wr);
	if (err)
		return err;
	if (!(wr->flags & MLX5_UMR_WR_SET_CRYPTO))
		return 0;
	err = mlx5_umr_crypto_rules(caps, wr->crypto, wr->mkey->dev,
				    mlx5_umr_wr_pdn_after(wr));
	if (err)
		return err;
	/* the length before the room: it does not depend on the queue */
	err = mlx5_umr_crypto_rule_length(wr);
	if (err)
		return err;
	/* a layout given is checked now, a kept length when posted */
	if (wr->layout != MLX5_UMR_LAYOUT_NONE) {
		err = mlx5_umr_crypto_rule_single(caps, wr->crypto,
						  mlx5_umr_layout_len(wr));
		if (err)
			return err;
	}
	err = mlx5_umr_crypto_rule_room(caps, wr);
	if (err)
		return err;
	return mlx5_umr_crypto_rule_sig_order(wr->crypto,
					      mlx5_umr_crypto_wr_sig(wr));
}

#endif /* MLX5_UMR_CRYPTO_H */
