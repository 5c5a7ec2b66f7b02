// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the crypto BSF encoder (crypto_bsf.c) byte for byte against what
 * rdma-core's mlx5_umr_fill_crypto_bsf() (providers/mlx5/qp.c) writes for
 * the same mlx5dv_crypto_attr, worked out by hand from its source
 * (Documentation/crypto.rst): the order and selector tables, the tweak of
 * a big-endian device, and the signature and crypto pair, alone and in the
 * WQE the encoder writes (wqe.c).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "crypto_kunit.h"

static const struct mlx5_umr_dek test_dek = { .id = 0x01abcdef };
/* a device that reads the tweak little endian, and one big endian */
static const struct mlx5_umr_caps le_caps = {
	.crypto = true, .crypto_engine = MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK,
};

static const struct mlx5_umr_caps be_caps = {
	.crypto = true, .crypto_engine = MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK,
	.crypto_tweak_be = true,
};

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
	mlx5_umr_crypto_fill_bsf((void *)buf, &a, &le_caps, false);
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
	mlx5_umr_crypto_fill_bsf((void *)buf, &a, &le_caps, false);
	KUNIT_EXPECT_EQ(test, memcmp(buf, bsf_rx_after_520, 64), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(buf + 64, POISON, 16));
}

/*
 * A big-endian-tweak device (aes_xts_multi_block_be_tweak): rdma-core
 * dd8a5576c06a mlx5_umr_fill_crypto_bsf() writes
 * xts_init_tweak[i] = initial_tweak[15 - i]; nothing else changes. The
 * tweak 00..0f of bsf_tx_before_4096 becomes 0f..00.
 */
static void crypto_bsf_tweak_be(struct kunit *test)
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
	u8 buf[64], want[64];
	unsigned int i;

	for (i = 0; i < 16; i++)
		a.initial_tweak[i] = i;
	memcpy(want, bsf_tx_before_4096, 64);
	for (i = 0; i < 16; i++)
		want[16 + i] = 15 - i;
	mlx5_umr_crypto_fill_bsf((void *)buf, &a, &be_caps, false);
	KUNIT_EXPECT_EQ(test, memcmp(buf, want, 64), 0);
	/* a pair on that device: the size field of the pair, same tweak */
	want[0] = 0xc1;
	mlx5_umr_crypto_fill_bsf((void *)buf, &a, &be_caps, true);
	KUNIT_EXPECT_EQ(test, memcmp(buf, want, 64), 0);
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

/*
 * The pair rdma-core's crypto_umr_wqe_finalize() writes for it, worked out
 * by hand (providers/mlx5/qp.c, wqe.h constants).
 * Signature BSF, mlx5_umr_fill_sig_bsf(seg, block, set_crypto_bsf true):
 * bsf_size_sbs = MLX5_BSF_SIZE_SIG_AND_CRYPTO (3) << MLX5_BSF_SIZE_SHIFT
 * (6) = 0xc0, no SBS (the memory domain has none); check_byte_mask 0xff
 * (a domain has a signature); wire.bs_selector bs_to_bs_selector(512) = 1;
 * mem.bs_selector 0; raw_data_size htobe32(UINT32_MAX); w_bfs_psv 0 (no
 * CRC) | wire PSV; m_bfs_psv 0; ext zero; w_inl from
 * mlx5_umr_fill_inl_bsf_t10dif(): vld_refresh INL_VALID | REFRESH_DIF
 * 0xc000, apptag 0x1234, reftag 0x5678, sig_type MLX5_T10DIF_CRC 1,
 * rp_inv_seed REPEAT_BLOCK 0x80 | BSF_SEED 0x08 (bg != 0), rsvd 0,
 * inc_ref_guard_check INC_REFTAG 0x40, app bitmask 0xffff; m_inl zero.
 * Crypto BSF, mlx5_umr_fill_crypto_bsf(seg, crypto, block):
 * bsf_size_type (block != NULL) MLX5_BSF_SIZE_SIG_AND_CRYPTO 3 << 6 |
 * MLX5_BSF_TYPE_CRYPTO 1 = 0xc1 (since rdma-core b38f3439a983; 0x81
 * before it, v41 and older); enc_order
 * get_crypto_order(true, BEFORE, block) = ENCRYPTED_WIRE_SIGNATURE 0;
 * enc_standard AES_XTS 0; raw_data_size all ones; bs_pointer
 * bs_to_bs_selector(520) = 2; the tweak by memcpy; rsvd_dek_ptr
 * htobe32(0x01abcdef & 0x00FFFFFF); the keytag; rest zero.
 */
static const u8 pair_bsf[128] = {
	0xc0, 0xff, 0x01, 0x00, 0xff, 0xff, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00, 0x00,
	[16 ... 31] = 0,
	0xc0, 0x00, 0x12, 0x34, 0x00, 0x00, 0x56, 0x78,
	0x01, 0x88, 0x00, 0x00, 0x00, 0x40, 0xff, 0xff,
	[48 ... 63] = 0,
	0xc1, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x00, 0xab, 0xcd, 0xef, 0x00, 0x00, 0x00, 0x00,
	'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',
	[112 ... 127] = 0,
};

static void expect_same(struct kunit *test, const u8 *got, const u8 *want,
			size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i])
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, n, "%s: byte %zu is 0x%02x, not 0x%02x",
			    what, i, i < n ? got[i] : 0, i < n ? want[i] : 0);
}

/* The two fill functions, into a poisoned buffer: 128 bytes, no more. */
static void crypto_pair_bsf_bytes(struct kunit *test)
{
	static const u32 psv[2] = { PSV_MEM, PSV_WIRE };
	struct mlx5_umr_crypto_attr a;
	u8 buf[128 + 32];

	pair_crypto_attr(&a);
	memset(buf, POISON, sizeof(buf));
	mlx5_umr_sig_fill_bsf((void *)buf, &pair_sig, psv, true);
	mlx5_umr_crypto_fill_bsf((void *)(buf + 64), &a, &le_caps, true);
	expect_same(test, buf, pair_bsf, 128, "pair");
	KUNIT_EXPECT_TRUE(test, !memchr_inv(buf + 128, POISON, 32));
}

/*
 * SET_SIG and SET_CRYPTO: header, one KLM padded to 64, the pair at 192
 * (bsf_octowords 8, umr_enable_bsf()), then the wire's SET_PSV, which
 * signals (suppress_umr_completion()); nothing after it.
 */
static void crypto_pair_wqe(struct kunit *test)
{
	struct pt *p = pt_new(test, MLX5_UMR_WR_SET_SIG);

	KUNIT_ASSERT_EQ(test, pt_encode(p, MLX5_WQE_CTRL_CQ_UPDATE), 384);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&p->buf[4]), QPN << 8 | 20);
	KUNIT_EXPECT_EQ(test, p->buf[11], 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&p->buf[16 + 6]), 8);
	KUNIT_EXPECT_TRUE(test, get_unaligned_be64(&p->buf[16 + 8]) &
			  MLX5_MKEY_MASK_BSF_EN);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&p->buf[64 + 12]) >> 30, 1);
	expect_same(test, &p->buf[192], pair_bsf, 128, "pair in the WQE");
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&p->buf[320]) & 0xff,
			MLX5_OPCODE_SET_PSV);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&p->buf[320 + 16]), PSV_WIRE);
	KUNIT_EXPECT_EQ(test, p->buf[320 + 11],
			MLX5_FENCE_MODE_INITIATOR_SMALL | MLX5_WQE_CTRL_CQ_UPDATE);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(&p->buf[384], POISON, 64));
}

/*
 * SET_CRYPTO alone keeps the signature (rdma-core state SET: the signature
 * BSF again from the kept attributes, no SET_PSV); with RESET_SIG the
 * signature half has no domain and the BSF stays enabled for the crypto
 * half (crypto_umr_wqe_finalize(), state RESET).
 */
static void crypto_pair_keep_reset(struct kunit *test)
{
	struct pt *p = pt_new(test, 0);

	p->wr.priv.bsf_sig = &pair_sig;	/* what sq_post.c finds kept */
	KUNIT_ASSERT_EQ(test, pt_encode(p, MLX5_WQE_CTRL_CQ_UPDATE), 320);
	KUNIT_EXPECT_EQ(test, p->buf[11], MLX5_WQE_CTRL_CQ_UPDATE);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&p->buf[16 + 6]), 8);
	expect_same(test, &p->buf[192], pair_bsf, 128, "kept");
	KUNIT_EXPECT_TRUE(test, !memchr_inv(&p->buf[320], POISON, 64));

	p = pt_new(test, MLX5_UMR_WR_RESET_SIG);
	p->wr.priv.bsf_sig = &pair_sig;	/* ignored: the request resets */
	KUNIT_ASSERT_EQ(test, pt_encode(p, 0), 320);
	KUNIT_EXPECT_TRUE(test, get_unaligned_be64(&p->buf[16 + 8]) &
			  MLX5_MKEY_MASK_BSF_EN);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&p->buf[64 + 12]) >> 30, 1);
	expect_same(test, &p->buf[192], pair_sig_reset, 64, "reset half");
	expect_same(test, &p->buf[256], pair_bsf + 64, 64, "crypto half");
	KUNIT_EXPECT_TRUE(test, !memchr_inv(&p->buf[320], POISON, 64));
}

static struct kunit_case crypto_bsf_cases[] = {
	KUNIT_CASE(crypto_bsf_bytes),
	KUNIT_CASE(crypto_bsf_tweak_be),
	KUNIT_CASE(crypto_bsf_order),
	KUNIT_CASE(crypto_bsf_selector),
	KUNIT_CASE(crypto_pair_bsf_bytes),
	KUNIT_CASE(crypto_pair_wqe),
	KUNIT_CASE(crypto_pair_keep_reset),
	{}
};

static struct kunit_suite crypto_bsf_suite = {
	.name = "mlx5_umr_crypto_bsf",
	.test_cases = crypto_bsf_cases,
};

kunit_test_suite(crypto_bsf_suite);

MODULE_DESCRIPTION("KUnit tests of the crypto BSF encoder");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
