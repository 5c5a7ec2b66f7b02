// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: crypto mkeys through the service on a registered fake of each
 * crypto generation (crypto.c, sq_post.c): DEKs (zeroed key, counters,
 * refusals), the service's DEK and BSF driving the fake's AES-XTS engine
 * to IEEE Std 1619-2007 vector 4, a configure and its refusals, and the
 * pair of signature and crypto (keep, reset, rules at post, PD moves).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/crc-t10dif.h>

#include "crypto_kunit.h"
#include "xts_vectors.h"

/* The service cases run on every crypto generation of the fake. */
static const enum mlx5_umr_fake_crypto crypto_profiles[] = {
	MLX5_UMR_FAKE_CRYPTO_SINGLE_LE,
	MLX5_UMR_FAKE_CRYPTO_MULTI_LE,
	MLX5_UMR_FAKE_CRYPTO_MULTI_BE,
};

static void crypto_profile_desc(const enum mlx5_umr_fake_crypto *p,
				char *desc)
{
	strscpy(desc, mlx5_umr_fake_crypto_name(*p), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crypto_profile, crypto_profiles, crypto_profile_desc);

static bool crypto_single(struct kunit *test)
{
	return *(const enum mlx5_umr_fake_crypto *)test->param_value ==
	       MLX5_UMR_FAKE_CRYPTO_SINGLE_LE;
}

/*
 * A registered fake of the case's generation, destroyed by crypto_exit()
 * whatever the case did: a fake left registered keeps its service device,
 * whose watchdog timer then fires after mlx5_umr.ko is gone.
 */
static struct mlx5_umr_fake *crypto_fake(struct kunit *test)
{
	struct mlx5_umr_fake_attr attr;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_SYNC;
	mlx5_umr_fake_set_crypto(&attr.caps,
				 *(const enum mlx5_umr_fake_crypto *)
				 test->param_value);
	test->priv = umr_kunit_fake_registered_attr(test, &attr);
	return test->priv;
}

static void crypto_exit(struct kunit *test)
{
	if (test->priv)
		mlx5_umr_fake_destroy(test->priv);
}

/* DEKs through the service on a fake: caps, create, zeroing, destroy. */
static void crypto_dek_service(struct kunit *test)
{
	struct mlx5_umr_fake *fake = crypto_fake(test);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	struct mlx5_umr_fake_counters cnt;
	struct mlx5_umr_dek_attr attr = {
		.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_128,
		.pdn = mlx5_umr_dev_caps(dev)->pdn,
	};
	struct mlx5_umr_dek *a, *b;

	KUNIT_ASSERT_TRUE(test, mlx5_umr_dev_caps(dev)->crypto);
	memcpy(attr.key, xts_v4_key, sizeof(xts_v4_key));
	a = mlx5_umr_dek_create(dev, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	/* the caller's copy of the key is gone */
	KUNIT_EXPECT_TRUE(test, !memchr_inv(attr.key, 0, sizeof(attr.key)));
	KUNIT_EXPECT_EQ(test, a->pdn, attr.pdn);
	KUNIT_EXPECT_NE(test, a->id, 0U);

	attr.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_256;
	attr.has_keytag = true;
	memset(attr.key, 0x11, 32);
	memset(attr.key + 32, 0x22, 32);
	b = mlx5_umr_dek_create(dev, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	KUNIT_EXPECT_NE(test, a->id, b->id);
	mlx5_umr_fake_get_counters(fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.deks, 2U);

	/* refused before any command, key zeroed all the same */
	attr.key_size = 2;
	memset(attr.key, 0x33, sizeof(attr.key));
	KUNIT_EXPECT_EQ(test, PTR_ERR(mlx5_umr_dek_create(dev, &attr)),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(attr.key, 0, sizeof(attr.key)));
	/* a PD the device does not have: the firmware's BAD_RES_ERR */
	attr.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_128;
	attr.pdn = 0xfffff;
	memset(attr.key, 0x44, sizeof(attr.key));
	KUNIT_EXPECT_EQ(test, PTR_ERR(mlx5_umr_dek_create(dev, &attr)),
			-EREMOTEIO);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(attr.key, 0, sizeof(attr.key)));

	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(a), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(b), 0);
	mlx5_umr_fake_get_counters(fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.deks, 0U);
}

/*
 * The service's DEK mailbox and BSF encoder drive the fake's engine: a
 * plaintext written through the crypto mkey lands as vector 4's
 * ciphertext and reads back as plaintext.
 */
static void crypto_service_vector4(struct kunit *test)
{
	struct mlx5_umr_fake *fake = crypto_fake(test);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	struct ft *ft = ft_setup_on(test, fake, 6, 6);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	u8 *pt = kunit_kzalloc(test, 512, GFP_KERNEL);
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	int inlen = MLX5_ST_SZ_BYTES(create_mkey_in);
	struct mlx5_umr_dek_attr attr = {
		.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_128,
		.pdn = ft->pdn,
	};
	struct mlx5_umr_crypto_attr ca = {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = false,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_512,
	};
	struct mlx5_umr_dma_buf mr;
	struct mlx5_umr_dek *dek;
	struct mlx5_klm klm = {};
	u32 mr_key, key;
	unsigned int i;
	size_t size;
	void *in, *c;

	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, pt);
	memcpy(attr.key, xts_v4_key, sizeof(xts_v4_key));
	dek = mlx5_umr_dek_create(dev, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dek));
	ca.dek = dek;

	mr_key = ft_mr(ft, &mr, PAGE_SIZE, 0x10000, FT_LW);
	in = kunit_kzalloc(test, inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, in);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	c = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(mkc, c, access_mode_1_0, MLX5_MKC_ACCESS_MODE_KLMS);
	MLX5_SET(mkc, c, umr_en, 1);
	MLX5_SET(mkc, c, free, 1);
	MLX5_SET(mkc, c, pd, ft->pdn);
	MLX5_SET(mkc, c, qpn, 0xffffff);
	MLX5_SET(mkc, c, bsf_en, 1);
	MLX5_SET(mkc, c, bsf_octword_size, MLX5_MKEY_BSF_OCTO_SIZE);
	MLX5_SET(mkc, c, translations_octword_size, 4);
	MLX5_SET(mlx5_umr_mkc_crypto, c, crypto_en,
		 MLX5_UMR_MKC_CRYPTO_ENABLED);
	KUNIT_ASSERT_EQ(test, ft_cmd(ft, in, inlen, out, sizeof(out)), 0);
	key = MLX5_GET(create_mkey_out, out, mkey_index) << 8;

	ft_klm(&klm, 512, mr_key, 0x10000);
	size = ft_umr_init(w, key, FT_RR | FT_RW, 512, &klm, sizeof(klm));
	w->uc.bsf_octowords = cpu_to_be16(MLX5_MKEY_BSF_OCTO_SIZE);
	w->uc.mkey_mask |= cpu_to_be64(MLX5_MKEY_MASK_BSF_EN);
	MLX5_SET(mkc, &w->mkey, bsf_en, 1);
	mlx5_umr_crypto_fill_bsf((void *)(w->xlt + 64), &ca,
				 mlx5_umr_dev_caps(dev), false);
	ft_umr_ok(ft, w, size + MLX5_UMR_CRYPTO_BSF_BYTES);

	for (i = 0; i < 512; i++)
		pt[i] = i & 0xff;
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(fake, key, 0, pt, 512, true,
						 true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(mr.cpu, xts_v4_ctext, 512), 0);
	memset(pt, 0, 512);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(fake, key, 0, pt, 512, false,
						 true), 0);
	for (i = 0; i < 512; i++)
		KUNIT_ASSERT_EQ(test, pt[i], i & 0xff);

	ft_del_mkey(ft, key);
	ft_del_mkey(ft, mr_key);
	ft->hca->ops->free_dma_buf(ft->hca, &mr);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek), 0);
	ft_teardown(ft);
}

/*
 * Through the whole service: a crypto mkey, a configure with a list and
 * crypto attributes, the BSF the HCA received, vector 4 on the data path;
 * then the request-level refusals (rules 59 to 61, 57).
 */
static void crypto_service_configure(struct kunit *test)
{
	struct mlx5_umr_fake *fake = crypto_fake(test);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(dev);
	struct mlx5_umr_dek_attr attr = {
		.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_128,
		.pdn = caps->pdn,
	};
	struct mlx5_umr_crypto_attr ca = {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_512,
	};
	struct mlx5_umr_sge *sge = kunit_kcalloc(test, 52, sizeof(*sge),
						 GFP_KERNEL);
	u8 *pt = kunit_kzalloc(test, 512, GFP_KERNEL);
	struct mlx5_umr_mkey *mk, *plain, *plain2;
	struct mlx5_umr_wr wr = {};
	struct mlx5_umr_dek *dek;
	struct sg_table sgt;
	struct page *page;
	u8 bsf[64];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, sge);
	KUNIT_ASSERT_NOT_NULL(test, pt);
	memcpy(attr.key, xts_v4_key, sizeof(xts_v4_key));
	dek = mlx5_umr_dek_create(dev, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dek));
	ca.dek = dek;
	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&sgt, 1, GFP_KERNEL), 0);
	sg_set_page(sgt.sgl, page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(dev, &sgt,
						  DMA_BIDIRECTIONAL), 0);
	mk = mlx5_umr_alloc_mkey(dev, 52, MLX5_UMR_MKEY_CRYPTO);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	plain = mlx5_umr_alloc_mkey(dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));

	sge[0] = (struct mlx5_umr_sge) {
		.addr = sg_dma_address(sgt.sgl), .length = 512,
		.key = caps->dma_lkey,
	};
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_CRYPTO;
	wr.access = MLX5_UMR_ACCESS_REMOTE_READ | MLX5_UMR_ACCESS_REMOTE_WRITE |
		    MLX5_UMR_ACCESS_LOCAL_WRITE;
	wr.layout = MLX5_UMR_LAYOUT_LIST;
	wr.list.sge = sge;
	wr.list.num_sge = 1;
	wr.crypto = &ca;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	/* the BSF: rdma-core's bytes for encrypt_on_tx false, AFTER, 512 */
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(fake, mk->key, bsf,
						      sizeof(bsf)), 4);
	KUNIT_EXPECT_EQ(test, bsf[0], 0x81);
	KUNIT_EXPECT_EQ(test, bsf[1], MLX5_UMR_ENC_ORDER_ENCRYPTED_MEMORY_SIGNATURE);
	KUNIT_EXPECT_EQ(test, bsf[8], MLX5_UMR_BS_SELECTOR_512);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bsf + 32), dek->id);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(bsf + 16, 0, 16));

	/* memory holds ciphertext: vector 4 */
	for (i = 0; i < 512; i++)
		pt[i] = i & 0xff;
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(fake, mk->key, 0, pt, 512,
						 true, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(page), xts_v4_ctext, 512),
			0);
	memset(pt, 0, 512);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(fake, mk->key, 0, pt, 512,
						 false, true), 0);
	for (i = 0; i < 512; i++)
		KUNIT_ASSERT_EQ(test, pt[i], i & 0xff);

	/* rule 60: a configure of a crypto mkey without its attributes */
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -EINVAL);
	/* rule 57: an unknown data unit size */
	wr.flags = MLX5_UMR_WR_SET_CRYPTO;
	ca.data_unit_size = MLX5_UMR_BLOCK_SIZE_4160 + 1;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EINVAL);
	ca.data_unit_size = MLX5_UMR_BLOCK_SIZE_512;
	/*
	 * rule 61: 49 KLMs and the BSF do not fit one WQE; a single-block
	 * engine refuses 48 data units first (rule 64, as rdma-core's order)
	 */
	for (i = 1; i < 49; i++)
		sge[i] = sge[0];
	wr.list.num_sge = 49;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr),
			crypto_single(test) ? -EINVAL : -ENOMEM);
	wr.list.num_sge = 48;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr),
			crypto_single(test) ? -EINVAL : 0);
	wr.list.num_sge = 1;
	/* rule 59: crypto attributes on an mkey allocated without crypto */
	wr.mkey = plain;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EINVAL);
	/* a direct mkey is never a crypto one */
	plain2 = mlx5_umr_alloc_mtt_mkey(dev, 1, MLX5_UMR_MKEY_CRYPTO);
	KUNIT_EXPECT_EQ(test, PTR_ERR(plain2), -EINVAL);

	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(plain), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	mlx5_umr_dma_unmap_sg(dev, &sgt, DMA_BIDIRECTIONAL);
	sg_free_table(&sgt);
	__free_page(page);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek), 0);
}

/*
 * Through the whole service on a fake: an mkey with signature and crypto,
 * configured as row B (no memory signature, wire T10-DIF seed 0,
 * ENCRYPTED_RAW_WIRE); a read of one wire block gives vector 4's
 * ciphertext and the crc_t10dif() of it; SET_CRYPTO alone keeps the
 * signature, RESET_SIG drops it; rule 62 on a kept signature at post;
 * rule 58 on the PD the mkey is in, moved and after a failed move.
 */
/* Requests of a batch mlx5_umr_post() discards never complete. */
static void crypto_never_done(struct mlx5_umr_wr *wr)
{
	WARN_ON_ONCE(1);
}

static void crypto_service_pair(struct kunit *test)
{
	struct mlx5_umr_fake *fake = crypto_fake(test);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(dev);
	struct mlx5_umr_dek_attr attr = {
		.key_size = MLX5_UMR_CRYPTO_KEY_SIZE_128,
		.pdn = caps->pdn,
	};
	struct mlx5_umr_sig_attr sig = pair_sig, sig2;
	struct mlx5_umr_crypto_attr ca = {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = true,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_512,
	};
	u8 *buf = kunit_kzalloc(test, 520, GFP_KERNEL);
	u8 *bsf2 = kunit_kzalloc(test, 128, GFP_KERNEL);
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)], bsf[128], dif[8];
	struct mlx5_umr_dek *dek, *dek2;
	struct mlx5_umr_sge sge = {}, bad;
	/* on the heap: two requests more would not fit the frame */
	struct mlx5_umr_wr wr = {}, *w = kunit_kcalloc(test, 2, sizeof(*w),
							    GFP_KERNEL);
	struct mlx5_umr_wr *wrs[] = { &w[0], &w[1] };
	struct mlx5_umr_mkey *mk;
	struct sg_table sgt;
	struct page *page;
	unsigned int i;
	u32 pdn2;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, bsf2);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_TRUE(test, caps->sig);
	memcpy(attr.key, xts_v4_key, sizeof(xts_v4_key));
	dek = mlx5_umr_dek_create(dev, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dek));
	ca.dek = dek;
	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&sgt, 1, GFP_KERNEL), 0);
	sg_set_page(sgt.sgl, page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(dev, &sgt,
						  DMA_BIDIRECTIONAL), 0);

	mk = mlx5_umr_alloc_mkey(dev, 4, MLX5_UMR_MKEY_SIGNATURE |
				 MLX5_UMR_MKEY_CRYPTO);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_EXPECT_EQ(test, mk->pdn, caps->pdn);
	KUNIT_EXPECT_NE(test, mk->psv[0], 0U);
	KUNIT_EXPECT_NE(test, mk->psv[1], 0U);
	KUNIT_ASSERT_GE(test, mlx5_umr_fake_query_mkey(fake, mk->key, mkc,
						       NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, bsf_octword_size), 8);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, bsf_en), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mlx5_umr_mkc_crypto, mkc, crypto_en),
			MLX5_UMR_MKC_CRYPTO_ENABLED);

	/* row B: seed 0, no ref remap, so the DIF is crc_t10dif() and tags */
	sig.wire.dif.bg = 0;
	sig.wire.dif.flags = 0;
	sge = (struct mlx5_umr_sge) {
		.addr = sg_dma_address(sgt.sgl), .length = 512,
		.key = caps->dma_lkey,
	};
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_SIG |
		   MLX5_UMR_WR_SET_CRYPTO;
	wr.access = MLX5_UMR_ACCESS_REMOTE_READ | MLX5_UMR_ACCESS_REMOTE_WRITE |
		    MLX5_UMR_ACCESS_LOCAL_WRITE;
	wr.layout = MLX5_UMR_LAYOUT_LIST;
	wr.list.sge = &sge;
	wr.list.num_sge = 1;
	wr.sig = &sig;
	wr.crypto = &ca;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(fake, mk->key, bsf,
						      sizeof(bsf)), 8);
	KUNIT_EXPECT_EQ(test, bsf[0], 0xc0);
	KUNIT_EXPECT_EQ(test, bsf[64], 0xc1);
	KUNIT_EXPECT_EQ(test, bsf[65], MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(bsf + 8) & 0xffffff,
			mk->psv[1]);
	for (i = 0; i < 512; i++)
		((u8 *)page_address(page))[i] = i & 0xff;
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(fake, mk->key, 0, buf, 520,
						 false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, xts_v4_ctext, 512), 0);
	put_unaligned_be16(crc_t10dif(xts_v4_ctext, 512), dif);
	put_unaligned_be16(0x1234, dif + 2);
	put_unaligned_be32(0x5678, dif + 4);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 512, dif, 8), 0);

	/* SET_CRYPTO alone: the same signature half, no SET_PSV */
	wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_CRYPTO;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(fake, mk->key, bsf2,
						      128), 8);
	KUNIT_EXPECT_EQ(test, memcmp(bsf, bsf2, 128), 0);
	memset(buf, 0, 520);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(fake, mk->key, 0, buf, 520,
						 false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 512, dif, 8), 0);

	/*
	 * A batch discarded at its second request's entry: the signature
	 * its first request set is not the one the mkey keeps.
	 */
	sig2 = sig;
	sig2.wire.dif.app_tag = 0x4321;
	bad = sge;
	bad.addr = ~0ULL - 10;
	w[0] = wr;
	w[0].flags |= MLX5_UMR_WR_SET_SIG;
	w[0].sig = &sig2;
	w[0].done = crypto_never_done;
	w[1] = wr;
	w[1].list.sge = &bad;
	w[1].done = crypto_never_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(dev, wrs, 2), -EOVERFLOW);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(fake, mk->key, bsf2,
						      128), 8);
	KUNIT_EXPECT_EQ(test, memcmp(bsf, bsf2, 128), 0);

	/* rule 62 on the kept signature (both domains): only known at post */
	sig.mem = sig.wire;
	wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_SIG |
		   MLX5_UMR_WR_SET_CRYPTO;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EINVAL);
	ca.signature_crypto_order =
		MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX;
	sge.length = 520;
	/* 520 memory bytes are more than one data unit of 512 (rule 64) */
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0),
			crypto_single(test) ? -EINVAL : 0);
	ca.signature_crypto_order =
		MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX;
	wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_CRYPTO;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr),
			crypto_single(test) ? -EINVAL : 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -EINVAL);

	/* RESET_SIG: the signature half empty, data crypto only */
	sge.length = 512;
	wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_RESET_SIG |
		   MLX5_UMR_WR_SET_CRYPTO;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(fake, mk->key, bsf2,
						      128), 8);
	KUNIT_EXPECT_EQ(test, memcmp(bsf2, pair_sig_reset, 64), 0);
	memset(buf, 0, 520);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(fake, mk->key, 0, buf, 512,
						 false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, xts_v4_ctext, 512), 0);

	/* rule 58: the DEK's PD against the one the mkey is in, or moves to */
	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(dev, &pdn2), 0);
	attr.pdn = pdn2;
	memcpy(attr.key, xts_v4_key, sizeof(xts_v4_key));
	dek2 = mlx5_umr_dek_create(dev, &attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dek2));
	wr.flags = MLX5_UMR_WR_SET_PD | MLX5_UMR_WR_SET_CRYPTO;
	wr.layout = MLX5_UMR_LAYOUT_NONE;
	wr.pdn = pdn2;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EINVAL);
	ca.dek = dek2;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mk->pdn, pdn2);
	/* a move back that fails on the HCA: the PD is unknown */
	ca.dek = dek;
	wr.pdn = caps->pdn;
	mlx5_umr_fake_inject_wqe_error(fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -EIO);
	KUNIT_EXPECT_EQ(test, mk->pdn, MLX5_UMR_PDN_UNKNOWN);
	wr.flags = MLX5_UMR_WR_SET_CRYPTO;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EINVAL);
	wr.flags = MLX5_UMR_WR_SET_PD | MLX5_UMR_WR_SET_CRYPTO;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mk->pdn, caps->pdn);

	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	/* the DEK first: a PD with a DEK is busy */
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek2), 0);
	mlx5_umr_pd_free(dev, pdn2);
	mlx5_umr_dma_unmap_sg(dev, &sgt, DMA_BIDIRECTIONAL);
	sg_free_table(&sgt);
	__free_page(page);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek), 0);
}

static struct kunit_case crypto_service_cases[] = {
	KUNIT_CASE_PARAM(crypto_dek_service, crypto_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_service_vector4, crypto_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_service_configure, crypto_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_service_pair, crypto_profile_gen_params),
	{}
};

static struct kunit_suite crypto_service_suite = {
	.name = "mlx5_umr_crypto_service",
	.exit = crypto_exit,
	.test_cases = crypto_service_cases,
};

kunit_test_suite(crypto_service_suite);

MODULE_DESCRIPTION("KUnit tests of crypto mkeys through the service");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
