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

/* IEEE Std 1619-2007 Annex B, XTS-AES vector 4 (sequence number 0) */
static const u8 xts_v4_key[32] = {
	0x27, 0x18, 0x28, 0x18, 0x28, 0x45, 0x90, 0x45,
	0x23, 0x53, 0x60, 0x28, 0x74, 0x71, 0x35, 0x26,
	0x31, 0x41, 0x59, 0x26, 0x53, 0x58, 0x97, 0x93,
	0x23, 0x84, 0x62, 0x64, 0x33, 0x83, 0x27, 0x95,
};

static const u8 xts_v4_ctext[512] = {
	0x27, 0xa7, 0x47, 0x9b, 0xef, 0xa1, 0xd4, 0x76,
	0x48, 0x9f, 0x30, 0x8c, 0xd4, 0xcf, 0xa6, 0xe2,
	0xa9, 0x6e, 0x4b, 0xbe, 0x32, 0x08, 0xff, 0x25,
	0x28, 0x7d, 0xd3, 0x81, 0x96, 0x16, 0xe8, 0x9c,
	0xc7, 0x8c, 0xf7, 0xf5, 0xe5, 0x43, 0x44, 0x5f,
	0x83, 0x33, 0xd8, 0xfa, 0x7f, 0x56, 0x00, 0x00,
	0x05, 0x27, 0x9f, 0xa5, 0xd8, 0xb5, 0xe4, 0xad,
	0x40, 0xe7, 0x36, 0xdd, 0xb4, 0xd3, 0x54, 0x12,
	0x32, 0x80, 0x63, 0xfd, 0x2a, 0xab, 0x53, 0xe5,
	0xea, 0x1e, 0x0a, 0x9f, 0x33, 0x25, 0x00, 0xa5,
	0xdf, 0x94, 0x87, 0xd0, 0x7a, 0x5c, 0x92, 0xcc,
	0x51, 0x2c, 0x88, 0x66, 0xc7, 0xe8, 0x60, 0xce,
	0x93, 0xfd, 0xf1, 0x66, 0xa2, 0x49, 0x12, 0xb4,
	0x22, 0x97, 0x61, 0x46, 0xae, 0x20, 0xce, 0x84,
	0x6b, 0xb7, 0xdc, 0x9b, 0xa9, 0x4a, 0x76, 0x7a,
	0xae, 0xf2, 0x0c, 0x0d, 0x61, 0xad, 0x02, 0x65,
	0x5e, 0xa9, 0x2d, 0xc4, 0xc4, 0xe4, 0x1a, 0x89,
	0x52, 0xc6, 0x51, 0xd3, 0x31, 0x74, 0xbe, 0x51,
	0xa1, 0x0c, 0x42, 0x11, 0x10, 0xe6, 0xd8, 0x15,
	0x88, 0xed, 0xe8, 0x21, 0x03, 0xa2, 0x52, 0xd8,
	0xa7, 0x50, 0xe8, 0x76, 0x8d, 0xef, 0xff, 0xed,
	0x91, 0x22, 0x81, 0x0a, 0xae, 0xb9, 0x9f, 0x91,
	0x72, 0xaf, 0x82, 0xb6, 0x04, 0xdc, 0x4b, 0x8e,
	0x51, 0xbc, 0xb0, 0x82, 0x35, 0xa6, 0xf4, 0x34,
	0x13, 0x32, 0xe4, 0xca, 0x60, 0x48, 0x2a, 0x4b,
	0xa1, 0xa0, 0x3b, 0x3e, 0x65, 0x00, 0x8f, 0xc5,
	0xda, 0x76, 0xb7, 0x0b, 0xf1, 0x69, 0x0d, 0xb4,
	0xea, 0xe2, 0x9c, 0x5f, 0x1b, 0xad, 0xd0, 0x3c,
	0x5c, 0xcf, 0x2a, 0x55, 0xd7, 0x05, 0xdd, 0xcd,
	0x86, 0xd4, 0x49, 0x51, 0x1c, 0xeb, 0x7e, 0xc3,
	0x0b, 0xf1, 0x2b, 0x1f, 0xa3, 0x5b, 0x91, 0x3f,
	0x9f, 0x74, 0x7a, 0x8a, 0xfd, 0x1b, 0x13, 0x0e,
	0x94, 0xbf, 0xf9, 0x4e, 0xff, 0xd0, 0x1a, 0x91,
	0x73, 0x5c, 0xa1, 0x72, 0x6a, 0xcd, 0x0b, 0x19,
	0x7c, 0x4e, 0x5b, 0x03, 0x39, 0x36, 0x97, 0xe1,
	0x26, 0x82, 0x6f, 0xb6, 0xbb, 0xde, 0x8e, 0xcc,
	0x1e, 0x08, 0x29, 0x85, 0x16, 0xe2, 0xc9, 0xed,
	0x03, 0xff, 0x3c, 0x1b, 0x78, 0x60, 0xf6, 0xde,
	0x76, 0xd4, 0xce, 0xcd, 0x94, 0xc8, 0x11, 0x98,
	0x55, 0xef, 0x52, 0x97, 0xca, 0x67, 0xe9, 0xf3,
	0xe7, 0xff, 0x72, 0xb1, 0xe9, 0x97, 0x85, 0xca,
	0x0a, 0x7e, 0x77, 0x20, 0xc5, 0xb3, 0x6d, 0xc6,
	0xd7, 0x2c, 0xac, 0x95, 0x74, 0xc8, 0xcb, 0xbc,
	0x2f, 0x80, 0x1e, 0x23, 0xe5, 0x6f, 0xd3, 0x44,
	0xb0, 0x7f, 0x22, 0x15, 0x4b, 0xeb, 0xa0, 0xf0,
	0x8c, 0xe8, 0x89, 0x1e, 0x64, 0x3e, 0xd9, 0x95,
	0xc9, 0x4d, 0x9a, 0x69, 0xc9, 0xf1, 0xb5, 0xf4,
	0x99, 0x02, 0x7a, 0x78, 0x57, 0x2a, 0xee, 0xbd,
	0x74, 0xd2, 0x0c, 0xc3, 0x98, 0x81, 0xc2, 0x13,
	0xee, 0x77, 0x0b, 0x10, 0x10, 0xe4, 0xbe, 0xa7,
	0x18, 0x84, 0x69, 0x77, 0xae, 0x11, 0x9f, 0x7a,
	0x02, 0x3a, 0xb5, 0x8c, 0xca, 0x0a, 0xd7, 0x52,
	0xaf, 0xe6, 0x56, 0xbb, 0x3c, 0x17, 0x25, 0x6a,
	0x9f, 0x6e, 0x9b, 0xf1, 0x9f, 0xdd, 0x5a, 0x38,
	0xfc, 0x82, 0xbb, 0xe8, 0x72, 0xc5, 0x53, 0x9e,
	0xdb, 0x60, 0x9e, 0xf4, 0xf7, 0x9c, 0x20, 0x3e,
	0xbb, 0x14, 0x0f, 0x2e, 0x58, 0x3c, 0xb2, 0xad,
	0x15, 0xb4, 0xaa, 0x5b, 0x65, 0x50, 0x16, 0xa8,
	0x44, 0x92, 0x77, 0xdb, 0xd4, 0x77, 0xef, 0x2c,
	0x8d, 0x6c, 0x01, 0x7d, 0xb7, 0x38, 0xb1, 0x8d,
	0xeb, 0x4a, 0x42, 0x7d, 0x19, 0x23, 0xce, 0x3f,
	0xf2, 0x62, 0x73, 0x57, 0x79, 0xa4, 0x18, 0xf2,
	0x0a, 0x28, 0x2d, 0xf9, 0x20, 0x14, 0x7b, 0xea,
	0xbe, 0x42, 0x1e, 0xe5, 0x31, 0x9d, 0x05, 0x68,
};

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
