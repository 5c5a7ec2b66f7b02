// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: crypto mkeys in the service. The crypto BSF byte for byte against
 * what rdma-core's mlx5_umr_fill_crypto_bsf() (providers/mlx5/qp.c) writes
 * for the same mlx5dv_crypto_attr, worked out by hand from its source
 * (Documentation/crypto.rst); the rules with their errnos; DEKs through
 * the fake; and the service's DEK and BSF driving the fake's AES-XTS
 * engine to IEEE Std 1619-2007 vector 4.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/mlx5_umr_ifc.h>
#include <linux/mlx5_umr_testing.h>
#include <linux/mlx5_umr_compat.h>

#include "umr_kunit.h"
#include "crypto.h"
#include "xts_vectors.h"

#define POISON	0xa5

static const struct mlx5_umr_dek test_dek = { .id = 0x01abcdef };

/*
 * encrypt_on_tx, SIGNATURE_BEFORE_CRYPTO_ON_TX, 4096, tweak 00..0f, DEK
 * object 0x01abcdef (24 bits used), keytag "abcdefgh". rdma-core:
 * bsf_size_type = MLX5_BSF_SIZE_WITH_INLINE << MLX5_BSF_SIZE_SHIFT |
 * MLX5_BSF_TYPE_CRYPTO = 2 << 6 | 1; enc_order get_crypto_order(true,
 * BEFORE) = ENCRYPTED_WIRE_SIGNATURE 0; enc_standard AES_XTS 0;
 * raw_data_size htobe32(UINT32_MAX); bs_pointer bs_to_bs_selector(4096)
 * = 3; xts_init_tweak memcpy; rsvd_dek_ptr htobe32(id & 0x00FFFFFF);
 * keytag memcpy; everything else memset 0.
 */
static const u8 bsf_tx_before_4096[64] = {
	0x81, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x00, 0xab, 0xcd, 0xef, 0x00, 0x00, 0x00, 0x00,
	'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',
};

/*
 * !encrypt_on_tx, SIGNATURE_AFTER_CRYPTO_ON_TX, 520, tweak LE 0x1234,
 * no keytag: enc_order ENCRYPTED_MEMORY_SIGNATURE 1, bs_pointer 2.
 */
static const u8 bsf_rx_after_520[64] = {
	0x81, 0x01, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x34, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0xab, 0xcd, 0xef,
};

static void crypto_bsf_bytes(struct kunit *test)
{
	struct mlx5_umr_crypto_attr a = {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = true,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_4096,
		.dek = &test_dek,
		.keytag = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' },
	};
	u8 buf[64 + 16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		a.initial_tweak[i] = i;
	memset(buf, POISON, sizeof(buf));
	mlx5_umr_crypto_fill_bsf((void *)buf, &a);
	KUNIT_EXPECT_EQ(test, memcmp(buf, bsf_tx_before_4096, 64), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(buf + 64, POISON, 16));

	a = (struct mlx5_umr_crypto_attr) {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_520,
		.initial_tweak = { 0x34, 0x12 },
		.dek = &test_dek,
	};
	memset(buf, POISON, sizeof(buf));
	mlx5_umr_crypto_fill_bsf((void *)buf, &a);
	KUNIT_EXPECT_EQ(test, memcmp(buf, bsf_rx_after_520, 64), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(buf + 64, POISON, 16));
}

/* rdma-core get_crypto_order(), the four combinations */
static void crypto_bsf_order(struct kunit *test)
{
	static const struct {
		bool tx;
		enum mlx5_umr_sig_crypto_order o;
		int want;
	} t[] = {
		{ true, MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX, 2 },
		{ true, MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX, 0 },
		{ false, MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX, 1 },
		{ false, MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX, 3 },
		{ true, 2, -EINVAL },
	};
	struct mlx5_umr_crypto_attr a = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		a.encrypt_on_tx = t[i].tx;
		a.signature_crypto_order = t[i].o;
		KUNIT_EXPECT_EQ_MSG(test, mlx5_umr_crypto_enc_order(&a),
				    t[i].want, "row %u", i);
	}
}

/* rdma-core bs_to_bs_selector() */
static void crypto_bsf_selector(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_bs_selector(MLX5_UMR_BLOCK_SIZE_512), 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_bs_selector(MLX5_UMR_BLOCK_SIZE_520), 2);
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_bs_selector(MLX5_UMR_BLOCK_SIZE_4048), 6);
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_bs_selector(MLX5_UMR_BLOCK_SIZE_4096), 3);
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_bs_selector(MLX5_UMR_BLOCK_SIZE_4160), 4);
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_bs_selector(5), 0);
}

/* Rules C1 to C6: each broken alone gives its errno. */
static void crypto_rules(struct kunit *test)
{
	struct mlx5_umr_dev *dev = (void *)0x1000, *other = (void *)0x2000;
	struct mlx5_umr_dek dek = { .dev = dev, .pdn = 7 };
	struct mlx5_umr_caps caps = { .crypto = true };
	struct mlx5_umr_crypto_attr ok = {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_512,
		.dek = &dek,
	}, a;

	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev), 0);
	caps.crypto = false;
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev),
			-EOPNOTSUPP);
	caps.crypto = true;
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, NULL, dev), -EINVAL);
	a = ok;
	a.crypto_standard = 1;
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev), -EINVAL);
	a = ok;
	a.signature_crypto_order = 2;
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev), -EINVAL);
	a = ok;
	a.data_unit_size = MLX5_UMR_BLOCK_SIZE_4160 + 1;
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev), -EINVAL);
	a = ok;
	a.dek = NULL;
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev), -EINVAL);
	/* a DEK of another device */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, other),
			-EINVAL);
}

/*
 * A registered fake for one case, destroyed by crypto_exit() whatever the
 * case did: a fake left registered keeps its service device, whose
 * watchdog timer then fires after mlx5_umr.ko is gone.
 */
static struct mlx5_umr_fake *crypto_fake(struct kunit *test)
{
	test->priv = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
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
	mlx5_umr_crypto_fill_bsf((void *)(w->xlt + 64), &ca);
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
 * then the request-level refusals (rules C7 to C9, C5).
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

	/* C8: a configure of a crypto mkey without its attributes */
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -EINVAL);
	/* C5: an unknown data unit size */
	wr.flags = MLX5_UMR_WR_SET_CRYPTO;
	ca.data_unit_size = MLX5_UMR_BLOCK_SIZE_4160 + 1;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EINVAL);
	ca.data_unit_size = MLX5_UMR_BLOCK_SIZE_512;
	/* C9: 49 KLMs and the BSF do not fit one WQE */
	for (i = 1; i < 49; i++)
		sge[i] = sge[0];
	wr.list.num_sge = 49;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -ENOMEM);
	wr.list.num_sge = 48;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), 0);
	wr.list.num_sge = 1;
	/* C7: crypto attributes on an mkey allocated without crypto */
	wr.mkey = plain;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EINVAL);
	/* a direct mkey is never a crypto one */
	plain2 = mlx5_umr_alloc_mtt_mkey(dev, 1, MLX5_UMR_MKEY_CRYPTO);
	KUNIT_EXPECT_EQ(test, PTR_ERR(plain2), -EINVAL);
	/* signature and crypto on one mkey: not supported, refused first */
	KUNIT_ASSERT_TRUE(test, caps->sig);
	plain2 = mlx5_umr_alloc_mkey(dev, 4, MLX5_UMR_MKEY_CRYPTO |
				     MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(plain2), -EOPNOTSUPP);

	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(plain), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	mlx5_umr_dma_unmap_sg(dev, &sgt, DMA_BIDIRECTIONAL);
	sg_free_table(&sgt);
	__free_page(page);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dek_destroy(dek), 0);
}

static struct kunit_case crypto_cases[] = {
	KUNIT_CASE(crypto_bsf_bytes),
	KUNIT_CASE(crypto_bsf_order),
	KUNIT_CASE(crypto_bsf_selector),
	KUNIT_CASE(crypto_rules),
	KUNIT_CASE(crypto_dek_service),
	KUNIT_CASE(crypto_service_vector4),
	KUNIT_CASE(crypto_service_configure),
	{}
};

static struct kunit_suite crypto_suite = {
	.name = "mlx5_umr_crypto",
	.exit = crypto_exit,
	.test_cases = crypto_cases,
};

kunit_test_suite(crypto_suite);

MODULE_DESCRIPTION("KUnit tests of the service's crypto mkeys");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
