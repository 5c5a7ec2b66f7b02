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
#include <linux/crc-t10dif.h>
#include <linux/mlx5_umr_ifc.h>
#include <linux/mlx5_umr_testing.h>
#include <linux/mlx5_umr_compat.h>

#include "umr_kunit.h"
#include "rules.h"
#include "sig.h"
#include "wqe.h"
#include "xts_vectors.h"

#define POISON	0xa5

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

/* Rules 53 to 58: each broken alone gives its errno. */
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

	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev, 7), 0);
	caps.crypto = false;	/* rule 53 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev, 7),
			-EOPNOTSUPP);
	caps.crypto = true;	/* rule 54 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, NULL, dev, 7), -EINVAL);
	a = ok;
	a.crypto_standard = 1;	/* rule 55 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev, 7), -EINVAL);
	a = ok;
	a.signature_crypto_order = 2;	/* rule 56 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev, 7), -EINVAL);
	a = ok;
	a.data_unit_size = MLX5_UMR_BLOCK_SIZE_4160 + 1;	/* rule 57 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev, 7), -EINVAL);
	a = ok;
	a.dek = NULL;	/* rule 58 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev, 7), -EINVAL);
	/* rule 58: a DEK of another device, of another PD */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, other, 7),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev,
						    MLX5_UMR_PDN_UNKNOWN),
			-EINVAL);
}

/* ---- signature and crypto on one mkey: the BSF pair ---- */

#define PSV_MEM		0x000011U
#define PSV_WIRE	0x000022U
#define QPN		0x000042U
#define PAIR_DEV	((struct mlx5_umr_dev *)0x1000)
#define PAIR_PDN	7U

static const struct mlx5_umr_dek pair_dek = {
	.dev = PAIR_DEV, .id = 0x01abcdef, .pdn = PAIR_PDN,
};

/*
 * Row C of mlx5dv_wr_set_mkey_crypto(3) (its Example 2): no memory
 * signature, wire T10-DIF/CRC 512 (seed 0xffff, app 0x1234, ref 0x5678,
 * ref remap), check mask 0xff; encrypt_on_tx, SIGNATURE_BEFORE_CRYPTO_ON_TX,
 * data unit 520, tweak 00..0f, keytag "abcdefgh".
 */
static const struct mlx5_umr_sig_attr pair_sig = {
	.wire = {
		.sig_type = MLX5_UMR_SIG_T10DIF,
		.dif = { .bg_type = MLX5_UMR_SIG_T10DIF_CRC, .bg = 0xffff,
			 .app_tag = 0x1234, .ref_tag = 0x5678,
			 .flags = MLX5_UMR_SIG_T10DIF_REF_REMAP },
		.block_size = MLX5_UMR_SIG_BLOCK_512,
	},
	.check_mask = 0xff,
};

static void pair_crypto_attr(struct mlx5_umr_crypto_attr *a)
{
	unsigned int i;

	*a = (struct mlx5_umr_crypto_attr) {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = true,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_520,
		.dek = &pair_dek,
		.keytag = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' },
	};
	for (i = 0; i < 16; i++)
		a->initial_tweak[i] = i;
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

/*
 * The signature half after a reset (state RESET: both domains NONE):
 * only the size field and raw_data_size; no check mask, selectors or PSVs.
 */
static const u8 pair_sig_reset[64] = {
	0xc0, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
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

/* A request on an mkey with both, encoded as the service posts it. */
struct pt {
	struct mlx5_umr_caps caps;
	struct mlx5_umr_mkey mkey;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_crypto_attr ca;
	struct mlx5_umr_wr wr;
	u8 buf[MLX5_SEND_WQE_MAX_SIZE];
};

static struct pt *pt_new(struct kunit *test, u32 flags)
{
	struct pt *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->caps = (struct mlx5_umr_caps) {
		.max_klm_entries = 1 << 16, .max_inline_entries = 56,
		.dma_lkey = 0x5ff, .sig = true, .crypto = true,
	};
	p->mkey = (struct mlx5_umr_mkey) {
		.dev = PAIR_DEV, .key = 0x123456, .max_entries = 4,
		.flags = MLX5_UMR_MKEY_SIGNATURE | MLX5_UMR_MKEY_CRYPTO,
		.psv = { PSV_MEM, PSV_WIRE }, .pdn = PAIR_PDN,
	};
	p->sge = (struct mlx5_umr_sge) { .addr = 0x10000, .length = 4096,
					 .key = 0x777 };
	pair_crypto_attr(&p->ca);
	p->wr = (struct mlx5_umr_wr) {
		.mkey = &p->mkey, .op = MLX5_UMR_OP_CONFIGURE,
		.flags = flags | MLX5_UMR_WR_SET_CRYPTO,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = &p->sge, .num_sge = 1 },
		.sig = &pair_sig, .crypto = &p->ca,
	};
	memset(p->buf, POISON, sizeof(p->buf));
	return p;
}

static int pt_encode(struct pt *p, u8 fm_ce_se)
{
	const struct mlx5_umr_wqe_ctx ctx = { .caps = &p->caps, .qpn = QPN };
	int size = mlx5_umr_wr_prepare(&p->caps, &p->wr);

	if (size < 0)
		return size;
	return mlx5_umr_wqe_encode(&ctx, &p->wr, NULL, 0, fm_ce_se, p->buf,
				   size);
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

/**
 * struct pair_rule - one row of the rules on an mkey with both
 * @name: what breaks
 * @flags: MLX5_UMR_WR_* besides SET_CRYPTO
 * @tx: encrypt_on_tx
 * @after: SIGNATURE_AFTER_CRYPTO_ON_TX, else BEFORE
 * @mem: the memory domain has a T10-DIF signature
 * @wire: the wire domain has one
 * @pdn: SET_PD's PD, with MLX5_UMR_WR_SET_PD
 * @mkey_pdn: the PD the mkey is in
 * @repeat: 0: a list of one SGE; else an interleaved layout of one 4096
 *	byte entry, this many times
 * @err: the errno
 */
struct pair_rule {
	const char *name;
	u32 flags;
	bool tx, after, mem, wire;
	u32 pdn, mkey_pdn, repeat;
	int err;
};

#define SETSIG	MLX5_UMR_WR_SET_SIG
static const struct pair_rule pair_rules[] = {
	{ "C: tx, before, wire", SETSIG, true, false, false, true,
	  0, PAIR_PDN, 0, 0 },
	{ "E: tx, before, both", SETSIG, true, false, true, true,
	  0, PAIR_PDN, 0, 0 },
	{ "I: rx, after, both", SETSIG, false, true, true, true,
	  0, PAIR_PDN, 0, 0 },
	{ "B: raw wire, wire only", SETSIG, true, true, false, true,
	  0, PAIR_PDN, 0, 0 },
	{ "J: raw memory, memory only", SETSIG, false, false, true, false,
	  0, PAIR_PDN, 0, 0 },
	{ "rule 62: raw wire, both", SETSIG, true, true, true, true,
	  0, PAIR_PDN, 0, -EINVAL },
	{ "rule 62: raw memory, both", SETSIG, false, false, true, true,
	  0, PAIR_PDN, 0, -EINVAL },
	{ "raw wire, both, reset", MLX5_UMR_WR_RESET_SIG, true, true, true,
	  true, 0, PAIR_PDN, 0, 0 },
	{ "rule 58: DEK of another PD", SETSIG, true, false, false, true,
	  0, PAIR_PDN + 1, 0, -EINVAL },
	{ "rule 58: PD unknown after a failed move", SETSIG, true, false, false,
	  true, 0, MLX5_UMR_PDN_UNKNOWN, 0, -EINVAL },
	{ "rule 58: moved to the DEK's PD", SETSIG | MLX5_UMR_WR_SET_PD, true,
	  false, false, true, PAIR_PDN, PAIR_PDN + 1, 0, 0 },
	{ "rule 58: moved away from the DEK's PD", SETSIG | MLX5_UMR_WR_SET_PD,
	  true, false, false, true, PAIR_PDN + 1, PAIR_PDN, 0, -EINVAL },
	{ "4 GiB - 4096 bytes", SETSIG, true, false, false, true,
	  0, PAIR_PDN, 0xfffff, 0 },
	{ "rule 63: 4 GiB", SETSIG, true, false, false, true,
	  0, PAIR_PDN, 0x100000, -EINVAL },
	{ "rule 63: 4 GiB, no signature set", 0, true, false, false, false,
	  0, PAIR_PDN, 0x100000, -EINVAL },
};

static void pair_rule_desc(const struct pair_rule *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crypto_pair_rule, pair_rules, pair_rule_desc);

static void crypto_pair_rule(struct kunit *test)
{
	const struct pair_rule *r = test->param_value;
	struct pt *p = pt_new(test, r->flags);
	struct mlx5_umr_sig_attr sig = pair_sig;
	struct mlx5_umr_interleaved il = {
		.addr = 0x10000, .bytes_count = 4096, .key = 0x777,
	};

	if (r->mem)
		sig.mem = sig.wire;
	if (!r->wire)
		sig.wire = (struct mlx5_umr_sig_domain) {};
	p->wr.sig = &sig;
	p->ca.encrypt_on_tx = r->tx;
	p->ca.signature_crypto_order = r->after ?
		MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX :
		MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX;
	p->wr.pdn = r->pdn;
	p->mkey.pdn = r->mkey_pdn;
	if (r->repeat) {
		p->wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
		p->wr.interleaved.ent = &il;
		p->wr.interleaved.num_entries = 1;
		p->wr.interleaved.repeat_count = r->repeat;
	}
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&p->caps, &p->wr), r->err);
}

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
	struct mlx5_umr_wr wr = {}, w1, w2, *wrs[] = { &w1, &w2 };
	struct mlx5_umr_mkey *mk;
	struct sg_table sgt;
	struct page *page;
	unsigned int i;
	u32 pdn2;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, bsf2);
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
	w1 = wr;
	w1.flags |= MLX5_UMR_WR_SET_SIG;
	w1.sig = &sig2;
	w1.done = crypto_never_done;
	w2 = wr;
	w2.list.sge = &bad;
	w2.done = crypto_never_done;
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

static struct kunit_case crypto_cases[] = {
	KUNIT_CASE(crypto_bsf_bytes),
	KUNIT_CASE(crypto_bsf_tweak_be),
	KUNIT_CASE(crypto_bsf_order),
	KUNIT_CASE(crypto_bsf_selector),
	KUNIT_CASE(crypto_rules),
	KUNIT_CASE(crypto_pair_bsf_bytes),
	KUNIT_CASE(crypto_pair_wqe),
	KUNIT_CASE(crypto_pair_keep_reset),
	KUNIT_CASE_PARAM(crypto_pair_rule, crypto_pair_rule_gen_params),
	KUNIT_CASE_PARAM(crypto_dek_service, crypto_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_service_vector4, crypto_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_service_configure, crypto_profile_gen_params),
	KUNIT_CASE_PARAM(crypto_service_pair, crypto_profile_gen_params),
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
