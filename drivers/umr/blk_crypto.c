// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: blk-crypto glue (Documentation/crypto.rst, "blk-crypto").
 *
 * A block ULP gets inline encryption through the kernel's own interface:
 * its request queue's struct blk_crypto_profile has one DEK per key slot,
 * created when blk-crypto programs the slot and destroyed when it evicts
 * it; a request's bio_crypt_ctx becomes the crypto attributes of the mkey
 * that maps its data. The pattern is that of the kernel's inline
 * encryption drivers (6.1/6.12 drivers/ufs/core/ufshcd-crypto.c,
 * drivers/mmc/host/cqhci-crypto.c): keyslot_program() writes the slot,
 * queue_rq() reads the slot index and DUN of rq->crypt_ctx.
 *
 * blk-crypto guarantees a slot is neither reprogrammed nor evicted while a
 * request holds it (block/blk-crypto-profile.c: blk_crypto_get_keyslot()
 * takes only an idle slot, __blk_crypto_evict_key() refuses a slot with
 * slot_refs). It knows nothing of mkeys: once a request completed, its
 * slot may be reprogrammed while the mkey that moved the data still names
 * the old DEK (until the ULP invalidates or reconfigures it). The service
 * refuses to destroy such a DEK (mlx5_umr_dek_destroy() -EBUSY), so that
 * its number cannot be handed to the next key while the mkey would use
 * it; the glue then keeps it on a retired list and destroys it once no
 * mkey names it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/mlx5_umr_blk_crypto.h>
#include <linux/mlx5_umr_compat.h>

/**
 * struct mlx5_umr_blk_dek - a DEK a slot holds or held
 * @dek: the service's DEK
 * @node: on &mlx5_umr_blk_crypto.retired once its slot let it go
 */
struct mlx5_umr_blk_dek {
	struct mlx5_umr_dek *dek;
	struct list_head node;
};

/* AES-256-XTS: key1 | key2, the order of DEKs and xts(aes) alike. */
#define MLX5_UMR_BLK_KEY_BYTES	64

static struct mlx5_umr_blk_crypto *
to_blk_crypto(struct blk_crypto_profile *profile)
{
	return container_of(profile, struct mlx5_umr_blk_crypto, profile);
}

/* Destroy @bk's DEK, or keep it retired while an mkey names it. */
static void mlx5_umr_blk_retire(struct mlx5_umr_blk_crypto *bc,
				struct mlx5_umr_blk_dek *bk)
{
	lockdep_assert_held(&bc->lock);
	if (mlx5_umr_dek_destroy(bk->dek) == -EBUSY) {
		list_add_tail(&bk->node, &bc->retired);
		return;
	}
	/* another error: the HCA kept it, counted as a leak by the service */
	kfree(bk);
}

static unsigned int mlx5_umr_blk_reap_locked(struct mlx5_umr_blk_crypto *bc)
{
	struct mlx5_umr_blk_dek *bk, *tmp;
	unsigned int left = 0;

	lockdep_assert_held(&bc->lock);
	list_for_each_entry_safe(bk, tmp, &bc->retired, node) {
		if (mlx5_umr_dek_destroy(bk->dek) == -EBUSY) {
			left++;
			continue;
		}
		list_del(&bk->node);
		kfree(bk);
	}
	return left;
}

/* blk-crypto's keyslot_program: a new DEK for @slot, then the old goes. */
static int mlx5_umr_blk_keyslot_program(struct blk_crypto_profile *profile,
					const struct blk_crypto_key *key,
					unsigned int slot)
{
	struct mlx5_umr_blk_crypto *bc = to_blk_crypto(profile);
	struct mlx5_umr_dek_attr attr = {
		.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_256,
		.pdn = bc->pdn,
	};
	struct mlx5_umr_blk_dek *bk, *old;
	struct mlx5_umr_dek *dek;

	if (slot >= bc->num_slots ||
	    key->crypto_cfg.crypto_mode != BLK_ENCRYPTION_MODE_AES_256_XTS ||
	    key->size != MLX5_UMR_BLK_KEY_BYTES)
		return -EINVAL;
	bk = kzalloc(sizeof(*bk), GFP_KERNEL);
	if (!bk)
		return -ENOMEM;
	memcpy(attr.key, key->raw, MLX5_UMR_BLK_KEY_BYTES);
	/* zeroes attr.key whatever it returns */
	dek = mlx5_umr_dek_create(bc->dev, &attr);
	if (IS_ERR(dek)) {
		kfree(bk);
		return PTR_ERR(dek);
	}
	bk->dek = dek;
	/*
	 * On failure blk-crypto leaves the slot with its old key, so the old
	 * DEK is let go only once the new one exists.
	 */
	mutex_lock(&bc->lock);
	old = bc->slots[slot];
	WRITE_ONCE(bc->slots[slot], bk);
	if (old)
		mlx5_umr_blk_retire(bc, old);
	mlx5_umr_blk_reap_locked(bc);
	mutex_unlock(&bc->lock);
	return 0;
}

/*
 * blk-crypto's keyslot_evict. The slot is empty afterwards whatever
 * happens to its DEK: blk-crypto unlinks the key from the slot even when
 * this fails, and its caller frees the key (__blk_crypto_evict_key()).
 */
static int mlx5_umr_blk_keyslot_evict(struct blk_crypto_profile *profile,
				      const struct blk_crypto_key *key,
				      unsigned int slot)
{
	struct mlx5_umr_blk_crypto *bc = to_blk_crypto(profile);
	struct mlx5_umr_blk_dek *bk;

	if (slot >= bc->num_slots)
		return -EINVAL;
	mutex_lock(&bc->lock);
	bk = bc->slots[slot];
	WRITE_ONCE(bc->slots[slot], NULL);
	if (bk)
		mlx5_umr_blk_retire(bc, bk);
	mlx5_umr_blk_reap_locked(bc);
	mutex_unlock(&bc->lock);
	return 0;
}

static const struct blk_crypto_ll_ops mlx5_umr_blk_crypto_ops = {
	.keyslot_program = mlx5_umr_blk_keyslot_program,
	.keyslot_evict = mlx5_umr_blk_keyslot_evict,
};

/**
 * mlx5_umr_blk_crypto_init() - a blk-crypto profile whose key slots are DEKs
 * @bc: the profile to set up (the ULP's memory, e.g. in its controller)
 * @dev: the device of the ULP's mkeys; a reference is taken
 * @pdn: the PD of the ULP's mkeys (&mlx5_umr_pd.pdn): DEKs are created in
 *	it, as an mkey uses DEKs of its own PD only (rule 58)
 * @num_slots: key slots: at most that many keys are on the device at once
 *	(more DEKs while retired ones wait for their mkeys)
 *
 * Fills @bc->profile for blk_crypto_register(): AES-256-XTS (the only XTS
 * mode of blk-crypto) with data units of 512 and 4096 bytes (the powers of
 * two among the HCA's data unit sizes) and DUNs of up to 16 bytes (the
 * BSF's 128-bit initial tweak). A single-block engine is refused: it takes
 * one data unit per mkey, where a block request spans many. The ULP may
 * set @bc->profile.dev for runtime PM before registering.
 *
 * Context: process context, may sleep.
 * Return: 0; -EOPNOTSUPP when the device has no crypto or a single-block
 * engine; -EINVAL for no slot or a PD number out of range; -ENOMEM.
 */
int mlx5_umr_blk_crypto_init(struct mlx5_umr_blk_crypto *bc,
			     struct mlx5_umr_dev *dev, u32 pdn,
			     unsigned int num_slots)
{
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(dev);
	int err;

	if (!caps->crypto ||
	    caps->crypto_engine != MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK)
		return -EOPNOTSUPP;
	if (!num_slots || pdn > MLX5_UMR_PDN_MAX)
		return -EINVAL;
	bc->slots = kcalloc(num_slots, sizeof(*bc->slots), GFP_KERNEL);
	if (!bc->slots)
		return -ENOMEM;
	err = blk_crypto_profile_init(&bc->profile, num_slots);
	if (err) {
		kfree(bc->slots);
		return err;
	}
	bc->profile.ll_ops = mlx5_umr_blk_crypto_ops;
	bc->profile.max_dun_bytes_supported = 16;
	bc->profile.modes_supported[BLK_ENCRYPTION_MODE_AES_256_XTS] =
		512 | 4096;
	bc->dev = dev;
	bc->pdn = pdn;
	bc->num_slots = num_slots;
	mutex_init(&bc->lock);
	INIT_LIST_HEAD(&bc->retired);
	mlx5_umr_dev_hold(dev);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_blk_crypto_init);

/**
 * mlx5_umr_blk_crypto_destroy() - destroy every DEK and the profile
 * @bc: from mlx5_umr_blk_crypto_init(); the queue it was registered with
 *	is gone (no request, no key slot in use)
 *
 * An mkey configured with one of the DEKs keeps it: invalidate or free
 * the ULP's mkeys first. Otherwise nothing of the profile is freed and
 * -EBUSY says so; calling again once the mkeys let go finishes.
 *
 * Context: process context, may sleep.
 * Return: 0 (@bc is dead), or -EBUSY (an mkey still names a DEK).
 */
int mlx5_umr_blk_crypto_destroy(struct mlx5_umr_blk_crypto *bc)
{
	unsigned int i, left;

	mutex_lock(&bc->lock);
	for (i = 0; i < bc->num_slots; i++) {
		if (bc->slots[i])
			mlx5_umr_blk_retire(bc, bc->slots[i]);
		bc->slots[i] = NULL;
	}
	left = mlx5_umr_blk_reap_locked(bc);
	mutex_unlock(&bc->lock);
	if (left)
		return -EBUSY;
	blk_crypto_profile_destroy(&bc->profile);
	mutex_destroy(&bc->lock);
	kfree(bc->slots);
	bc->slots = NULL;
	mlx5_umr_dev_put(bc->dev);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_blk_crypto_destroy);

/**
 * mlx5_umr_blk_crypto_reap() - destroy retired DEKs no mkey names any more
 * @bc: the profile
 *
 * Each key slot operation does it too; a ULP calls it after invalidating
 * mkeys when an evicted key must leave the device without waiting for the
 * next one.
 *
 * Context: process context, may sleep.
 * Return: how many retired DEKs an mkey still names.
 */
unsigned int mlx5_umr_blk_crypto_reap(struct mlx5_umr_blk_crypto *bc)
{
	unsigned int left;

	mutex_lock(&bc->lock);
	left = mlx5_umr_blk_reap_locked(bc);
	mutex_unlock(&bc->lock);
	return left;
}
EXPORT_SYMBOL(mlx5_umr_blk_crypto_reap);

/**
 * mlx5_umr_blk_crypto_attr() - an mkey's crypto attributes for a request
 * @bc: the profile of the request's queue
 * @slot: the request's key slot
 *	(blk_crypto_keyslot_index(rq->crypt_keyslot)), held by the request
 * @ctx: its bio_crypt_ctx (rq->crypt_ctx): key configuration and DUN
 * @attr: filled for MLX5_UMR_WR_SET_CRYPTO of the mkey mapping the
 *	request's data, in the profile's PD
 *
 * Memory holds plaintext, the wire ciphertext (@attr->encrypt_on_tx): a
 * write's data is encrypted as the HCA reads it, a read's decrypted as it
 * lands. The initial tweak is the DUN as the IEEE 1619 128-bit
 * little-endian data unit number, which is the tweak blk-crypto's DUN
 * means (block/blk-crypto-fallback.c uses it as the xts(aes) IV); the
 * service turns it around for a device that reads the tweak big endian.
 * The HCA adds one per data unit, as blk-crypto does between data units.
 *
 * The DEK named in @attr is the slot's as long as the request holds the
 * slot; an mkey configured with it keeps it from being destroyed until the
 * mkey is invalidated, configured again or freed.
 *
 * Context: any (no lock: blk-crypto does not touch a slot a request holds).
 * Return: 0; -EINVAL for a slot out of range or without a key, a mode
 * other than AES-256-XTS, a data unit size the profile does not offer or a
 * DUN beyond 16 bytes.
 */
int mlx5_umr_blk_crypto_attr(const struct mlx5_umr_blk_crypto *bc,
			     unsigned int slot,
			     const struct bio_crypt_ctx *ctx,
			     struct mlx5_umr_crypto_attr *attr)
{
	const struct blk_crypto_config *cfg = &ctx->bc_key->crypto_cfg;
	const struct mlx5_umr_blk_dek *bk;
	enum mlx5_umr_block_size du;

	if (slot >= bc->num_slots)
		return -EINVAL;
	bk = READ_ONCE(bc->slots[slot]);
	if (!bk || cfg->crypto_mode != BLK_ENCRYPTION_MODE_AES_256_XTS ||
	    ctx->bc_dun[2] || ctx->bc_dun[3])
		return -EINVAL;
	switch (cfg->data_unit_size) {
	case 512:
		du = MLX5_UMR_BLOCK_SIZE_512;
		break;
	case 4096:
		du = MLX5_UMR_BLOCK_SIZE_4096;
		break;
	default:
		return -EINVAL;
	}
	*attr = (struct mlx5_umr_crypto_attr) {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = true,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
		.data_unit_size = du,
		.dek = bk->dek,
	};
	put_unaligned_le64(ctx->bc_dun[0], attr->initial_tweak);
	put_unaligned_le64(ctx->bc_dun[1], attr->initial_tweak + 8);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_blk_crypto_attr);
