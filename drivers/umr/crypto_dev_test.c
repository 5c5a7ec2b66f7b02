// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: crypto mkeys through the service on each crypto device
 * generation of the fake (Documentation/fake.rst, "Crypto profiles"): the
 * caps the service reads, the tweak a big-endian-tweak device needs, the
 * one-data-unit limit of a single-block engine, SYNC_CRYPTO before a DEK
 * number is reused, and re-keying an invalidated mkey.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <crypto/skcipher.h>
#include <linux/mlx5_umr_ifc.h>
#include <linux/mlx5_umr_testing.h>
#include <linux/mlx5_umr_compat.h>

#include "umr.h"
#include "umr_kunit.h"
#include "crypto.h"
#include "xts_vectors.h"

#define DU	512

static const enum mlx5_umr_fake_crypto cd_profiles[] = {
	MLX5_UMR_FAKE_CRYPTO_SINGLE_LE,
	MLX5_UMR_FAKE_CRYPTO_MULTI_LE,
	MLX5_UMR_FAKE_CRYPTO_MULTI_BE,
};

static void cd_profile_desc(const enum mlx5_umr_fake_crypto *p, char *desc)
{
	strscpy(desc, mlx5_umr_fake_crypto_name(*p), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cd_profile, cd_profiles, cd_profile_desc);

/**
 * struct cd - a registered fake of the case's profile and a crypto mkey
 * @fake: the fake
 * @dev: the service's device on it
 * @profile: its crypto profile
 * @page: memory behind the mkey, mapped in @sgt
 * @sgt: one page
 * @mk: a crypto mkey of 4 entries
 * @sge: its list entries, over @page
 * @ca: crypto attributes, DEK set by the case
 * @wr: a CONFIGURE of @mk with a list of @sge and @ca
 */
struct cd {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	enum mlx5_umr_fake_crypto profile;
	struct page *page;
	struct sg_table sgt;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_sge sge[2];
	struct mlx5_umr_crypto_attr ca;
	struct mlx5_umr_wr wr;
};

static struct mlx5_umr_fake *cd_fake(struct kunit *test,
				     enum mlx5_umr_fake_crypto profile,
				     bool wrapped)
{
	struct mlx5_umr_fake_attr attr;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_SYNC;
	mlx5_umr_fake_set_crypto(&attr.caps, profile);
	attr.caps.crypto_wrapped_import = wrapped;
	test->priv = umr_kunit_fake_registered_attr(test, &attr);
	return test->priv;
}

static void cd_exit(struct kunit *test)
{
	if (test->priv)
		mlx5_umr_fake_destroy(test->priv);
}

static struct mlx5_umr_dek *cd_dek(struct kunit *test, struct cd *c,
				   const u8 *key)
{
	struct mlx5_umr_dek_attr attr = {
		.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_128,
		.pdn = mlx5_umr_dev_caps(c->dev)->pdn,
	};
	struct mlx5_umr_dek *dek;

	memcpy(attr.key, key, 32);
	dek = mlx5_umr_dek_create(c->dev, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dek));
	return dek;
}

static struct cd *cd_setup(struct kunit *test)
{
	struct cd *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const struct mlx5_umr_caps *caps;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->profile = *(const enum mlx5_umr_fake_crypto *)test->param_value;
	c->fake = cd_fake(test, c->profile, false);
	c->dev = umr_kunit_fake_umr(c->fake);
	caps = mlx5_umr_dev_caps(c->dev);
	c->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, c->page);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&c->sgt, 1, GFP_KERNEL), 0);
	sg_set_page(c->sgt.sgl, c->page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(c->dev, &c->sgt,
						  DMA_BIDIRECTIONAL), 0);
	c->mk = mlx5_umr_alloc_mkey(c->dev, 4, MLX5_UMR_MKEY_CRYPTO);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->mk));
	c->sge[0] = (struct mlx5_umr_sge) {
		.addr = sg_dma_address(c->sgt.sgl), .length = DU,
		.key = caps->dma_lkey,
	};
	c->sge[1] = c->sge[0];
	c->sge[1].addr += DU;
	c->ca = (struct mlx5_umr_crypto_attr) {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_512,
	};
	c->wr = (struct mlx5_umr_wr) {
		.mkey = c->mk, .op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_CRYPTO,
		.access = MLX5_UMR_ACCESS_REMOTE_READ |
			  MLX5_UMR_ACCESS_REMOTE_WRITE |
			  MLX5_UMR_ACCESS_LOCAL_WRITE,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = c->sge, .num_sge = 1 },
		.crypto = &c->ca,
	};
	return c;
}

static void cd_teardown(struct kunit *test, struct cd *c)
{
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(c->mk), 0);
	mlx5_umr_dma_unmap_sg(c->dev, &c->sgt, DMA_BIDIRECTIONAL);
	sg_free_table(&c->sgt);
	__free_page(c->page);
}

/* IEEE 1619 XTS of one data unit, tweak @tweak (LE), by the kernel's xts */
static void cd_ref(struct kunit *test, const u8 *key, u8 *buf, u64 tweak)
{
	struct crypto_sync_skcipher *tfm;
	struct scatterlist sg;
	u8 iv[16] = {};
	int err;

	put_unaligned_le64(tweak, iv);
	tfm = crypto_alloc_sync_skcipher("xts(aes)", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(tfm));
	err = crypto_sync_skcipher_setkey(tfm, key, 32);
	if (!err) {
		SYNC_SKCIPHER_REQUEST_ON_STACK(req, tfm);

		sg_init_one(&sg, buf, DU);
		skcipher_request_set_sync_tfm(req, tfm);
		skcipher_request_set_callback(req, 0, NULL, NULL);
		skcipher_request_set_crypt(req, &sg, &sg, DU, iv);
		err = crypto_skcipher_encrypt(req);
		skcipher_request_zero(req);
	}
	crypto_free_sync_skcipher(tfm);
	KUNIT_ASSERT_EQ(test, err, 0);
}

/* Write plaintext 0, 1, .. through @c->mk; memory must be @key's XTS. */
static void cd_expect_ctext(struct kunit *test, struct cd *c, const u8 *key,
			    u64 tweak, const char *what)
{
	u8 *pt = kunit_kzalloc(test, DU, GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, DU, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (i = 0; i < DU; i++)
		pt[i] = i & 0xff;
	memcpy(want, pt, DU);
	cd_ref(test, key, want, tweak);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(c->fake, c->mk->key, 0, pt, DU,
						 true, true), 0);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(page_address(c->page), want, DU), 0,
			    "%s", what);
}

/*
 * The caps the service reads from each generation (cmd_hca_cap crypto and
 * tweak bits, crypto_cap) and reports to ULPs.
 */
static void crypto_dev_caps(struct kunit *test)
{
	enum mlx5_umr_fake_crypto p =
		*(const enum mlx5_umr_fake_crypto *)test->param_value;
	const struct mlx5_umr_caps *caps =
		mlx5_umr_dev_caps(umr_kunit_fake_umr(cd_fake(test, p, false)));

	KUNIT_EXPECT_TRUE(test, caps->crypto);
	KUNIT_EXPECT_EQ(test, caps->crypto_engine,
			p == MLX5_UMR_FAKE_CRYPTO_SINGLE_LE ?
			MLX5_UMR_CRYPTO_ENGINE_SINGLE_BLOCK :
			MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK);
	KUNIT_EXPECT_EQ(test, caps->crypto_tweak_be,
			p == MLX5_UMR_FAKE_CRYPTO_MULTI_BE);
	KUNIT_EXPECT_FALSE(test, caps->crypto_wrapped_import);
	KUNIT_EXPECT_TRUE(test, caps->crypto_synchronize_dek);
}

/*
 * No crypto where rdma-core and SPDK see none: ENCRYPTION_KEY objects
 * without cmd_hca_cap.crypto (a kTLS/IPsec device), or an engine that
 * takes only wrapped keys. DEKs and crypto mkeys are -EOPNOTSUPP before
 * any command.
 */
static void crypto_dev_none(struct kunit *test)
{
	static const u8 key[32] = { 1, 2, 3 };
	struct mlx5_umr_dek_attr attr = {
		.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_128,
	};
	const struct mlx5_umr_caps *caps;
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		fake = cd_fake(test, i ? MLX5_UMR_FAKE_CRYPTO_MULTI_BE :
				  MLX5_UMR_FAKE_CRYPTO_NONE, i);
		dev = umr_kunit_fake_umr(fake);
		caps = mlx5_umr_dev_caps(dev);
		KUNIT_EXPECT_FALSE(test, caps->crypto);
		KUNIT_EXPECT_EQ(test, caps->crypto_wrapped_import, !!i);
		KUNIT_EXPECT_EQ(test, caps->crypto_engine,
				i ? MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK :
				MLX5_UMR_CRYPTO_ENGINE_NONE);
		attr.pdn = caps->pdn;
		memcpy(attr.key, key, sizeof(key));
		KUNIT_EXPECT_EQ(test, PTR_ERR(mlx5_umr_dek_create(dev, &attr)),
				-EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test,
				PTR_ERR(mlx5_umr_alloc_mkey(dev, 4,
							    MLX5_UMR_MKEY_CRYPTO)),
				-EOPNOTSUPP);
		mlx5_umr_fake_destroy(fake);
		test->priv = NULL;
	}
}

/*
 * A non-zero initial tweak means the same data unit number on every
 * generation: the memory holds IEEE 1619 XTS with that tweak. On a
 * big-endian-tweak device only the service's byte reversal (rdma-core
 * dd8a5576c06a) gets there.
 */
static void crypto_dev_tweak(struct kunit *test)
{
	struct cd *c = cd_setup(test);
	struct mlx5_umr_dek *dek = cd_dek(test, c, xts_v4_key);
	const u64 tweak = 0x0123456789abcdefULL;
	u8 bsf[64];

	c->ca.dek = dek;
	put_unaligned_le64(tweak, c->ca.initial_tweak);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &c->wr, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(c->fake, c->mk->key, bsf,
						      sizeof(bsf)), 4);
	if (c->profile == MLX5_UMR_FAKE_CRYPTO_MULTI_BE)
		KUNIT_EXPECT_EQ(test, get_unaligned_be64(bsf + 24), tweak);
	else
		KUNIT_EXPECT_EQ(test, get_unaligned_le64(bsf + 16), tweak);
	cd_expect_ctext(test, c, xts_v4_key, tweak, "tweak");
	cd_teardown(test, c);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek), 0);
}

/*
 * A single-block engine: the mkey is at most one data unit once the
 * configure ran (rdma-core crypto_umr_wqe_finalize(): EINVAL), the
 * layout's length or, without a layout, the one the mkey keeps. Multi
 * block engines take both.
 */
static void crypto_dev_single_block(struct kunit *test)
{
	struct cd *c = cd_setup(test);
	struct mlx5_umr_dek *dek = cd_dek(test, c, xts_v4_key);
	int want = c->profile == MLX5_UMR_FAKE_CRYPTO_SINGLE_LE ? -EINVAL : 0;

	c->ca.dek = dek;
	c->wr.list.num_sge = 2;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &c->wr), want);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &c->wr, 0), want);
	/* 1 KiB in one data unit of 4096: fine everywhere */
	c->ca.data_unit_size = MLX5_UMR_BLOCK_SIZE_4096;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &c->wr, 0), 0);
	/* no layout: the kept 1 KiB against a data unit of 512 */
	c->ca.data_unit_size = MLX5_UMR_BLOCK_SIZE_512;
	c->wr.layout = MLX5_UMR_LAYOUT_NONE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &c->wr), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &c->wr, 0), want);
	/* one data unit: fine everywhere, and the data moves */
	c->wr.layout = MLX5_UMR_LAYOUT_LIST;
	c->wr.list.num_sge = 1;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &c->wr, 0), 0);
	cd_expect_ctext(test, c, xts_v4_key, 0, "one unit");
	/* the reference is the standard's: vector 4 */
	KUNIT_EXPECT_EQ(test, memcmp(page_address(c->page), xts_v4_ctext, DU),
			0);
	cd_teardown(test, c);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek), 0);
}

/*
 * A DEK number reused after DESTROY names the new key only after
 * SYNC_CRYPTO (6.12 lib/crypto.c): the fake keeps using the cached old
 * key until then, so without the service's SYNC_CRYPTO the bytes would be
 * the old key's.
 */
static void crypto_dev_dek_reuse(struct kunit *test)
{
	struct cd *c = cd_setup(test);
	struct mlx5_umr_dek *a = cd_dek(test, c, xts_v4_key), *b;
	struct mlx5_umr_wr inv = { .mkey = c->mk,
				   .op = MLX5_UMR_OP_INVALIDATE };
	u8 key2[32];
	u32 id;
	unsigned int i;

	for (i = 0; i < sizeof(key2); i++)
		key2[i] = 0x40 + i;
	c->ca.dek = a;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &c->wr, 0), 0);
	cd_expect_ctext(test, c, xts_v4_key, 0, "first key");
	id = a->id;
	/* a DEK a configured mkey names is not destroyed (issue 32) */
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(a), -EBUSY);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &inv, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(a), 0);
	b = cd_dek(test, c, key2);
	/* the fake hands out the lowest free number: the test is meaningful */
	KUNIT_EXPECT_EQ(test, b->id, id);
	c->ca.dek = b;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &c->wr, 0), 0);
	cd_expect_ctext(test, c, key2, 0, "second key, same number");
	cd_teardown(test, c);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(b), 0);
}

/*
 * A layout-less configure re-keys an invalidated crypto mkey and enables
 * it, as rdma-core's mlx5_send_wr_mkey_configure() (free bit in the mask,
 * clear) does; "fail if free" would complete in error.
 */
static void crypto_dev_rekey_invalidated(struct kunit *test)
{
	struct cd *c = cd_setup(test);
	struct mlx5_umr_dek *dek = cd_dek(test, c, xts_v4_key);
	struct mlx5_umr_wr inv = { .mkey = c->mk,
				   .op = MLX5_UMR_OP_INVALIDATE };
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];

	c->ca.dek = dek;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &c->wr, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &inv, 0), 0);
	KUNIT_ASSERT_GE(test, mlx5_umr_fake_query_mkey(c->fake, c->mk->key,
						       mkc, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
	c->wr.flags = MLX5_UMR_WR_SET_CRYPTO;
	c->wr.layout = MLX5_UMR_LAYOUT_NONE;
	put_unaligned_le64(7, c->ca.initial_tweak);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &c->wr, 0), 0);
	KUNIT_ASSERT_GE(test, mlx5_umr_fake_query_mkey(c->fake, c->mk->key,
						       mkc, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 0);
	cd_expect_ctext(test, c, xts_v4_key, 7, "re-keyed");
	cd_teardown(test, c);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek), 0);
}

/*
 * The HCA refuses to destroy a DEK: it keeps the key, so the service
 * reports it (not 0), counts it in the device's leaks and never
 * deallocates its PD; before, the failure was only returned and the PD
 * freed as if the DEK were gone.
 */
static void crypto_dev_dek_destroy_refused(struct kunit *test)
{
	struct cd *c = cd_setup(test);
	struct mlx5_umr_fake_counters c0, c1;
	struct mlx5_umr_dek_attr attr = {
		.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_128,
	};
	struct mlx5_umr_dek *dek;
	int leaked;

	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(c->dev, &attr.pdn), 0);
	memcpy(attr.key, xts_v4_key, 32);
	dek = mlx5_umr_dek_create(c->dev, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dek));
	mlx5_umr_fake_get_counters(c->fake, &c0);
	leaked = atomic_read(&c->dev->leaked);

	mlx5_umr_fake_inject_cmd_error(c->fake,
				       MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
				       MLX5_CMD_STAT_BAD_RES_STATE_ERR, 0xd3c);
	KUNIT_EXPECT_NE(test, mlx5_umr_dek_destroy(dek), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->dev->leaked), leaked + 1);
	mlx5_umr_fake_get_counters(c->fake, &c1);
	KUNIT_EXPECT_EQ(test, c1.deks, c0.deks);
	/* its PD is kept: no DEALLOC_PD, one more leak */
	mlx5_umr_pd_free(c->dev, attr.pdn);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->dev->leaked), leaked + 2);
	mlx5_umr_fake_get_counters(c->fake, &c1);
	KUNIT_EXPECT_EQ(test, c1.pds, c0.pds);
	cd_teardown(test, c);
}

static struct kunit_case crypto_dev_cases[] = {
	KUNIT_CASE_PARAM(crypto_dev_caps, cd_profile_gen_params),
	KUNIT_CASE(crypto_dev_none),
	KUNIT_CASE_PARAM(crypto_dev_tweak, cd_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_dev_single_block, cd_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_dev_dek_reuse, cd_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_dev_rekey_invalidated, cd_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_dev_dek_destroy_refused, cd_profile_gen_params),
	{}
};

static struct kunit_suite crypto_dev_suite = {
	.name = "mlx5_umr_crypto_dev",
	.exit = cd_exit,
	.test_cases = crypto_dev_cases,
};

kunit_test_suite(crypto_dev_suite);

MODULE_DESCRIPTION("KUnit tests of crypto mkeys on each device generation");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
