/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: blk-crypto glue. A block ULP's struct blk_crypto_profile whose
 * key slots are DEKs of the device, and the crypto attributes of an mkey
 * for a request's bio_crypt_ctx (Documentation/crypto.rst, "blk-crypto").
 *
 * Only with CONFIG_BLK_INLINE_ENCRYPTION: without it (Debian's 6.1 and 6.12
 * kernels) the block layer has no profiles and these calls are stubs that
 * return -EOPNOTSUPP.
 *
 * Its own header: it pulls in the block layer's headers, which the rest
 * of <linux/mlx5_umr.h>'s users do not need.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _LINUX_MLX5_UMR_BLK_CRYPTO_H
#define _LINUX_MLX5_UMR_BLK_CRYPTO_H

#include <linux/blk-crypto-profile.h>
#include <linux/blk-mq.h>
#include <linux/mutex.h>
#include <linux/mlx5_umr.h>

struct mlx5_umr_blk_dek;

/**
 * struct mlx5_umr_blk_crypto - a blk-crypto profile backed by DEKs
 * @profile: what the ULP registers with its request queue
 *	(blk_crypto_register()); blk-crypto calls its key slot operations
 * @dev: the device the DEKs are on (a reference is held)
 * @pdn: the PD of the DEKs: that of the ULP's mkeys (rule 58)
 * @num_slots: key slots, each one DEK at most
 * @lock: protects @slots (writes; see mlx5_umr_blk_crypto_attr() for the
 *	reads) and @retired
 * @slots: the DEK each slot holds, or NULL
 * @retired: DEKs of evicted or reprogrammed slots that an mkey still names
 *	(mlx5_umr_dek_destroy() said -EBUSY): destroyed once no mkey does
 *
 * Private to the glue but for @profile.
 */
struct mlx5_umr_blk_crypto {
	struct blk_crypto_profile profile;
	struct mlx5_umr_dev *dev;
	u32 pdn;
	unsigned int num_slots;
	struct mutex lock;	/* @slots' writes, @retired */
	struct mlx5_umr_blk_dek **slots;
	struct list_head retired;
};

#if IS_ENABLED(CONFIG_BLK_INLINE_ENCRYPTION)

int mlx5_umr_blk_crypto_init(struct mlx5_umr_blk_crypto *bc,
			     struct mlx5_umr_dev *dev, u32 pdn,
			     unsigned int num_slots);
int mlx5_umr_blk_crypto_destroy(struct mlx5_umr_blk_crypto *bc);
unsigned int mlx5_umr_blk_crypto_reap(struct mlx5_umr_blk_crypto *bc);
int mlx5_umr_blk_crypto_attr(const struct mlx5_umr_blk_crypto *bc,
			     unsigned int slot,
			     const struct bio_crypt_ctx *ctx,
			     struct mlx5_umr_crypto_attr *attr);

/*
 * The crypto attributes of a blk-mq request that has a key slot (from
 * queue_rq(): blk-crypto holds the slot until the request is freed).
 * Return: 1 with @attr set, 0 for a request without encryption, or
 * mlx5_umr_blk_crypto_attr()'s error.
 */
static inline int mlx5_umr_blk_crypto_rq_attr(const struct mlx5_umr_blk_crypto *bc,
					      struct request *rq,
					      struct mlx5_umr_crypto_attr *attr)
{
	int err;

	if (!rq->crypt_ctx)
		return 0;
	err = mlx5_umr_blk_crypto_attr(bc,
				       blk_crypto_keyslot_index(rq->crypt_keyslot),
				       rq->crypt_ctx, attr);
	return err ?: 1;
}

#else /* !CONFIG_BLK_INLINE_ENCRYPTION */

static inline int mlx5_umr_blk_crypto_init(struct mlx5_umr_blk_crypto *bc,
					   struct mlx5_umr_dev *dev, u32 pdn,
					   unsigned int num_slots)
{
	return -EOPNOTSUPP;
}

static inline int mlx5_umr_blk_crypto_destroy(struct mlx5_umr_blk_crypto *bc)
{
	return 0;
}

static inline unsigned int
mlx5_umr_blk_crypto_reap(struct mlx5_umr_blk_crypto *bc)
{
	return 0;
}

static inline int mlx5_umr_blk_crypto_attr(const struct mlx5_umr_blk_crypto *bc,
					   unsigned int slot,
					   const struct bio_crypt_ctx *ctx,
					   struct mlx5_umr_crypto_attr *attr)
{
	return -EOPNOTSUPP;
}

static inline int mlx5_umr_blk_crypto_rq_attr(const struct mlx5_umr_blk_crypto *bc,
					      struct request *rq,
					      struct mlx5_umr_crypto_attr *attr)
{
	return 0;
}

#endif /* CONFIG_BLK_INLINE_ENCRYPTION */

#endif /* _LINUX_MLX5_UMR_BLK_CRYPTO_H */
