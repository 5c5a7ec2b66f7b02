// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the blk-crypto glue (blk_crypto.c) on a registered fake of each
 * multi-block crypto generation: the profile the device's caps give, a
 * key programmed into a slot by the profile's operations as blk-crypto
 * calls them, a crypto mkey configured from a bio_crypt_ctx moving data
 * that must equal software AES-256-XTS with the DUN as tweak, and DEKs
 * kept while an mkey names them, destroyed once none does.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <crypto/skcipher.h>
#include <linux/mlx5_umr_blk_crypto.h>
#include <linux/mlx5_umr_testing.h>
#include <linux/mlx5_umr_compat.h>

#include "umr_kunit.h"

#define DU	512
#define NDU	4	/* data units of a request */
#define SLOTS	2

static const enum mlx5_umr_fake_crypto bk_profiles[] = {
	MLX5_UMR_FAKE_CRYPTO_MULTI_LE,
	MLX5_UMR_FAKE_CRYPTO_MULTI_BE,
};

static void bk_profile_desc(const enum mlx5_umr_fake_crypto *p, char *desc)
{
	strscpy(desc, mlx5_umr_fake_crypto_name(*p), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bk_profile, bk_profiles, bk_profile_desc);

/**
 * struct bk - a registered fake, a blk-crypto profile on it, a crypto mkey
 * @fake: the fake
 * @dev: the service's device on it
 * @bc: the profile (set up by the case: @bc_live)
 * @bc_live: @bc needs mlx5_umr_blk_crypto_destroy()
 * @page: a request's data, mapped in @sgt
 * @sgt: one page
 * @mk: a crypto mkey
 * @sge: @NDU data units of @page
 * @wr: a CONFIGURE of @mk over @sge with @ca
 * @ca: from mlx5_umr_blk_crypto_attr()
 */
struct bk {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_blk_crypto bc;
	bool bc_live;
	struct page *page;
	struct sg_table sgt;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_wr wr;
	struct mlx5_umr_crypto_attr ca;
};

static struct mlx5_umr_fake *bk_fake(struct kunit *test,
				     enum mlx5_umr_fake_crypto profile)
{
	struct mlx5_umr_fake_attr attr;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_SYNC;
	mlx5_umr_fake_set_crypto(&attr.caps, profile);
	return umr_kunit_fake_registered_attr(test, &attr);
}

/*
 * The fake goes first: once it has, DEKs and mkeys are only memory, so the
 * profile is destroyed whatever a failed case left configured.
 */
static void bk_exit(struct kunit *test)
{
	struct bk *b = test->priv;

	if (!b)
		return;
	if (b->fake)
		mlx5_umr_fake_destroy(b->fake);
	if (b->bc_live)
		mlx5_umr_blk_crypto_destroy(&b->bc);
}

static struct bk *bk_setup(struct kunit *test)
{
	struct bk *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	const struct mlx5_umr_caps *caps;

	KUNIT_ASSERT_NOT_NULL(test, b);
	test->priv = b;
	b->fake = bk_fake(test, *(const enum mlx5_umr_fake_crypto *)
			  test->param_value);
	b->dev = umr_kunit_fake_umr(b->fake);
	caps = mlx5_umr_dev_caps(b->dev);
	KUNIT_ASSERT_EQ(test, mlx5_umr_blk_crypto_init(&b->bc, b->dev,
						       caps->pdn, SLOTS), 0);
	b->bc_live = true;
	b->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, b->page);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&b->sgt, 1, GFP_KERNEL), 0);
	sg_set_page(b->sgt.sgl, b->page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(b->dev, &b->sgt,
						  DMA_BIDIRECTIONAL), 0);
	b->mk = mlx5_umr_alloc_mkey(b->dev, 4, MLX5_UMR_MKEY_CRYPTO);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b->mk));
	b->sge = (struct mlx5_umr_sge) {
		.addr = sg_dma_address(b->sgt.sgl), .length = NDU * DU,
		.key = caps->dma_lkey,
	};
	b->wr = (struct mlx5_umr_wr) {
		.mkey = b->mk, .op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_CRYPTO,
		.access = MLX5_UMR_ACCESS_REMOTE_READ |
			  MLX5_UMR_ACCESS_REMOTE_WRITE |
			  MLX5_UMR_ACCESS_LOCAL_WRITE,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = &b->sge, .num_sge = 1 },
		.crypto = &b->ca,
	};
	return b;
}

static void bk_teardown(struct kunit *test, struct bk *b)
{
	if (b->mk)
		KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(b->mk), 0);
	b->mk = NULL;
	mlx5_umr_dma_unmap_sg(b->dev, &b->sgt, DMA_BIDIRECTIONAL);
	sg_free_table(&b->sgt);
	__free_page(b->page);
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_destroy(&b->bc), 0);
	b->bc_live = false;
}

/* A key as blk_crypto_init_key() makes it (not exported to modules). */
static void bk_key(struct blk_crypto_key *key, u8 seed, unsigned int du)
{
	unsigned int i;

	*key = (struct blk_crypto_key) {
		.crypto_cfg = {
			.crypto_mode = BLK_ENCRYPTION_MODE_AES_256_XTS,
			.data_unit_size = du,
			.dun_bytes = 16,
		},
		.data_unit_size_bits = ilog2(du),
		.size = 64,
	};
	for (i = 0; i < key->size; i++)
		key->raw[i] = seed + i * 7;
}

/* blk_crypto_get_keyslot()'s call: under the profile's lock, written. */
static int bk_program(struct bk *b, const struct blk_crypto_key *key,
		      unsigned int slot)
{
	struct blk_crypto_profile *p = &b->bc.profile;
	int err;

	down_write(&p->lock);
	err = p->ll_ops.keyslot_program(p, key, slot);
	up_write(&p->lock);
	return err;
}

/* __blk_crypto_evict_key()'s call, likewise. */
static int bk_evict(struct bk *b, const struct blk_crypto_key *key,
		    unsigned int slot)
{
	struct blk_crypto_profile *p = &b->bc.profile;
	int err;

	down_write(&p->lock);
	err = p->ll_ops.keyslot_evict(p, key, slot);
	up_write(&p->lock);
	return err;
}

static u32 bk_deks(struct bk *b)
{
	struct mlx5_umr_fake_counters cnt;

	mlx5_umr_fake_get_counters(b->fake, &cnt);
	return cnt.deks;
}

/*
 * Software AES-256-XTS of @n data units of @du bytes, the first one's
 * tweak the 128-bit little-endian number @dun[1]:@dun[0], one more per
 * data unit (IEEE 1619; blk-crypto-fallback's IV).
 */
static void bk_ref(struct kunit *test, const struct blk_crypto_key *key,
		   const u64 *dun, u8 *buf, unsigned int n, unsigned int du,
		   bool enc)
{
	struct crypto_sync_skcipher *tfm;
	struct scatterlist sg;
	u64 lo = dun[0], hi = dun[1];
	unsigned int i;
	u8 iv[16];
	int err;

	tfm = crypto_alloc_sync_skcipher("xts(aes)", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(tfm));
	err = crypto_sync_skcipher_setkey(tfm, key->raw, key->size);
	for (i = 0; !err && i < n; i++) {
		SYNC_SKCIPHER_REQUEST_ON_STACK(req, tfm);

		put_unaligned_le64(lo, iv);
		put_unaligned_le64(hi, iv + 8);
		sg_init_one(&sg, buf + i * du, du);
		skcipher_request_set_sync_tfm(req, tfm);
		skcipher_request_set_callback(req, 0, NULL, NULL);
		skcipher_request_set_crypt(req, &sg, &sg, du, iv);
		err = enc ? crypto_skcipher_encrypt(req) :
			    crypto_skcipher_decrypt(req);
		skcipher_request_zero(req);
		if (!++lo)
			hi++;
	}
	crypto_free_sync_skcipher(tfm);
	KUNIT_ASSERT_EQ(test, err, 0);
}

/*
 * What the caps give: AES-256-XTS at 512 and 4096, 16-byte DUNs on a
 * multi-block engine; none on a single-block engine or without crypto.
 */
static void blk_crypto_caps(struct kunit *test)
{
	static const enum mlx5_umr_fake_crypto none[] = {
		MLX5_UMR_FAKE_CRYPTO_NONE, MLX5_UMR_FAKE_CRYPTO_SINGLE_LE,
	};
	struct bk *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	const struct blk_crypto_profile *p = &b->bc.profile;
	struct mlx5_umr_blk_crypto *bc = &b->bc;
	const unsigned int *modes = p->modes_supported;
	unsigned int i;
	u32 pdn;

	KUNIT_ASSERT_NOT_NULL(test, b);
	test->priv = b;
	for (i = 0; i < ARRAY_SIZE(none); i++) {
		b->fake = bk_fake(test, none[i]);
		b->dev = umr_kunit_fake_umr(b->fake);
		KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_init(bc, b->dev, 0,
							       SLOTS),
				-EOPNOTSUPP);
		mlx5_umr_fake_destroy(b->fake);
		b->fake = NULL;
	}
	for (i = 0; i < ARRAY_SIZE(bk_profiles); i++) {
		b->fake = bk_fake(test, bk_profiles[i]);
		b->dev = umr_kunit_fake_umr(b->fake);
		pdn = mlx5_umr_dev_caps(b->dev)->pdn;
		KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_init(bc, b->dev,
							       U32_MAX, SLOTS),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_init(bc, b->dev,
							       pdn, 0),
				-EINVAL);
		KUNIT_ASSERT_EQ(test, mlx5_umr_blk_crypto_init(bc, b->dev,
							       pdn, SLOTS), 0);
		b->bc_live = true;
		KUNIT_EXPECT_EQ(test, modes[BLK_ENCRYPTION_MODE_AES_256_XTS],
				512U | 4096U);
		KUNIT_EXPECT_EQ(test,
				modes[BLK_ENCRYPTION_MODE_AES_128_CBC_ESSIV],
				0U);
		KUNIT_EXPECT_EQ(test, p->max_dun_bytes_supported, 16U);
		KUNIT_EXPECT_EQ(test, p->num_slots, SLOTS);
		KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_destroy(bc), 0);
		b->bc_live = false;
		mlx5_umr_fake_destroy(b->fake);
		b->fake = NULL;
	}
}

/*
 * A request's bio_crypt_ctx through the glue and the service: a write's
 * data read through the mkey is software XTS of the plaintext with the
 * DUN as tweak (across a carry into the DUN's upper 64 bits), and a read's
 * ciphertext written through it lands as the plaintext.
 */
static void blk_crypto_data(struct kunit *test)
{
	struct bk *b = bk_setup(test);
	struct blk_crypto_key *key = kunit_kzalloc(test, sizeof(*key),
						   GFP_KERNEL);
	u8 *pt = kunit_kzalloc(test, NDU * DU, GFP_KERNEL);
	u8 *wire = kunit_kzalloc(test, NDU * DU, GFP_KERNEL);
	struct bio_crypt_ctx ctx = {
		.bc_dun = { 0xfffffffffffffffeULL, 0x0123456789abcdefULL },
	};
	u8 tweak[16];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, key);
	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	bk_key(key, 0x31, DU);
	ctx.bc_key = key;
	KUNIT_ASSERT_EQ(test, bk_program(b, key, 1), 0);
	KUNIT_EXPECT_EQ(test, bk_deks(b), 1U);
	/* slot 0 holds no key */
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_attr(&b->bc, 0, &ctx,
						       &b->ca), -EINVAL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_blk_crypto_attr(&b->bc, 1, &ctx,
						       &b->ca), 0);
	KUNIT_EXPECT_TRUE(test, b->ca.encrypt_on_tx);
	KUNIT_EXPECT_EQ(test, b->ca.data_unit_size, MLX5_UMR_BLOCK_SIZE_512);
	KUNIT_EXPECT_EQ(test, b->ca.dek->pdn, mlx5_umr_dev_caps(b->dev)->pdn);
	put_unaligned_le64(ctx.bc_dun[0], tweak);
	put_unaligned_le64(ctx.bc_dun[1], tweak + 8);
	KUNIT_EXPECT_EQ(test, memcmp(b->ca.initial_tweak, tweak, 16), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(b->dev, &b->wr, 0), 0);

	/* a write: plaintext in memory, ciphertext on the wire */
	for (i = 0; i < NDU * DU; i++)
		pt[i] = (i * 13) ^ (i >> 8);
	memcpy(page_address(b->page), pt, NDU * DU);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(b->fake, b->mk->key, 0, wire,
						 NDU * DU, false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(b->page), pt, NDU * DU), 0);
	bk_ref(test, key, ctx.bc_dun, pt, NDU, DU, true);
	KUNIT_EXPECT_EQ(test, memcmp(wire, pt, NDU * DU), 0);
	/* a read: the ciphertext lands in memory as plaintext */
	memset(page_address(b->page), 0, NDU * DU);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(b->fake, b->mk->key, 0, wire,
						 NDU * DU, true, true), 0);
	bk_ref(test, key, ctx.bc_dun, pt, NDU, DU, false);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(b->page), pt, NDU * DU), 0);

	/* refused: data unit the profile does not offer, DUN over 16 bytes */
	key->crypto_cfg.data_unit_size = 1024;
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_attr(&b->bc, 1, &ctx,
						       &b->ca), -EINVAL);
	key->crypto_cfg.data_unit_size = DU;
	ctx.bc_dun[2] = 1;
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_attr(&b->bc, 1, &ctx,
						       &b->ca), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_attr(&b->bc, SLOTS, &ctx,
						       &b->ca), -EINVAL);
	/* a key blk-crypto would not hand to this profile */
	key->crypto_cfg.crypto_mode = BLK_ENCRYPTION_MODE_ADIANTUM;
	KUNIT_EXPECT_EQ(test, bk_program(b, key, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, bk_deks(b), 1U);
	bk_teardown(test, b);
	KUNIT_EXPECT_EQ(test, bk_deks(b), 0U);
}

/*
 * Eviction and reprogramming let a slot's DEK go only once no mkey names
 * it: while the mkey is configured with it the DEK stays on the HCA (its
 * number cannot name the next key), and the data still moves with it; it
 * is destroyed when the mkey is invalidated, configured with another DEK,
 * or freed.
 */
static void blk_crypto_dek_lifetime(struct kunit *test)
{
	struct bk *b = bk_setup(test);
	struct blk_crypto_key *k1 = kunit_kzalloc(test, sizeof(*k1),
						  GFP_KERNEL);
	struct blk_crypto_key *k2 = kunit_kzalloc(test, sizeof(*k2),
						  GFP_KERNEL);
	u8 *pt = kunit_kzalloc(test, DU, GFP_KERNEL);
	u8 *wire = kunit_kzalloc(test, DU, GFP_KERNEL);
	struct mlx5_umr_wr inv = { .mkey = b->mk,
				   .op = MLX5_UMR_OP_INVALIDATE };
	struct bio_crypt_ctx ctx = { .bc_dun = { 7 } };
	const struct mlx5_umr_dek *d1;

	KUNIT_ASSERT_NOT_NULL(test, k1);
	KUNIT_ASSERT_NOT_NULL(test, k2);
	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	bk_key(k1, 0x10, DU);
	bk_key(k2, 0x90, DU);
	b->sge.length = DU;

	/* evict while the mkey names the DEK: the slot is empty, the DEK kept */
	ctx.bc_key = k1;
	KUNIT_ASSERT_EQ(test, bk_program(b, k1, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_blk_crypto_attr(&b->bc, 0, &ctx,
						       &b->ca), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(b->dev, &b->wr, 0), 0);
	KUNIT_EXPECT_EQ(test, bk_evict(b, k1, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_attr(&b->bc, 0, &ctx,
						       &b->ca), -EINVAL);
	KUNIT_EXPECT_EQ(test, bk_deks(b), 1U);
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_reap(&b->bc), 1U);
	/* and the mkey still encrypts with it */
	memset(pt, 0x5a, DU);
	memcpy(page_address(b->page), pt, DU);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(b->fake, b->mk->key, 0, wire,
						 DU, false, true), 0);
	bk_ref(test, k1, ctx.bc_dun, pt, 1, DU, true);
	KUNIT_EXPECT_EQ(test, memcmp(wire, pt, DU), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(b->dev, &inv, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_reap(&b->bc), 0U);
	KUNIT_EXPECT_EQ(test, bk_deks(b), 0U);

	/* reprogram a slot whose DEK the mkey names: both DEKs live */
	KUNIT_ASSERT_EQ(test, bk_program(b, k1, 1), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_blk_crypto_attr(&b->bc, 1, &ctx,
						       &b->ca), 0);
	d1 = b->ca.dek;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(b->dev, &b->wr, 0), 0);
	KUNIT_ASSERT_EQ(test, bk_program(b, k2, 1), 0);
	KUNIT_EXPECT_EQ(test, bk_deks(b), 2U);
	/* the mkey configured with the new DEK lets the old one go */
	ctx.bc_key = k2;
	KUNIT_ASSERT_EQ(test, mlx5_umr_blk_crypto_attr(&b->bc, 1, &ctx,
						       &b->ca), 0);
	KUNIT_EXPECT_PTR_NE(test, b->ca.dek, d1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(b->dev, &b->wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_reap(&b->bc), 0U);
	KUNIT_EXPECT_EQ(test, bk_deks(b), 1U);
	memcpy(page_address(b->page), pt, DU);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(b->fake, b->mk->key, 0, wire,
						 DU, false, true), 0);
	bk_ref(test, k2, ctx.bc_dun, pt, 1, DU, true);
	KUNIT_EXPECT_EQ(test, memcmp(wire, pt, DU), 0);

	/* destroy while the mkey names a DEK: -EBUSY, then done once freed */
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_destroy(&b->bc), -EBUSY);
	KUNIT_EXPECT_EQ(test, bk_deks(b), 1U);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(b->mk), 0);
	b->mk = NULL;
	bk_teardown(test, b);
	KUNIT_EXPECT_EQ(test, bk_deks(b), 0U);
}

static struct kunit_case blk_crypto_cases[] = {
	KUNIT_CASE(blk_crypto_caps),
	KUNIT_CASE_PARAM(blk_crypto_data, bk_profile_gen_params),
	KUNIT_CASE_PARAM(blk_crypto_dek_lifetime, bk_profile_gen_params),
	{}
};

static struct kunit_suite blk_crypto_suite = {
	.name = "mlx5_umr_blk_crypto",
	.exit = bk_exit,
	.test_cases = blk_crypto_cases,
};

kunit_test_suite(blk_crypto_suite);

MODULE_DESCRIPTION("KUnit tests of the blk-crypto glue");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
