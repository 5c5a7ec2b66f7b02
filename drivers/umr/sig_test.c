// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the bytes of block signature: the BSF, the SET_PSV WQEs and the
 * signature bits of the UMR, against rdma-core's encoder.
 *
 * The expected bytes were worked out by hand from rdma-core's source
 * (providers/mlx5/qp.c: mlx5_umr_fill_sig_bsf(), mlx5_umr_crc_bfs(),
 * mlx5_umr_fill_inl_bsf_t10dif(), mlx5_umr_block_*_sbs(),
 * bs_to_bs_selector(), mlx5_umr_set_psv(), psv_transient_signature(),
 * umr_enable_bsf(), suppress_umr_completion(); the constants of
 * providers/mlx5/wqe.h) for each attribute set below, following those
 * functions line by line at the PRM offsets of struct mlx5_bsf and
 * struct mlx5_wqe_set_psv_seg; never taken from this encoder's output.
 * Each table says which line gave each byte.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr_compat.h>

#include "wqe.h"
#include "sig.h"

MODULE_IMPORT_NS(MLX5_UMR_TESTING);

#define PSV_MEM		0x000011U
#define PSV_WIRE	0x000022U
#define QPN		0x000042U
#define POISON		0xa5

/**
 * struct sig_case - one attribute set and the BSF rdma-core builds for it
 * @name: what it covers
 * @attr: the attributes
 * @bsf: the 64 bytes, worked out by hand (see the comment of each row)
 */
struct sig_case {
	const char *name;
	struct mlx5_umr_sig_attr attr;
	u8 bsf[64];
};

#define T10(bgt, seed, app, ref, fl, bs) {				\
	.sig_type = MLX5_UMR_SIG_T10DIF,				\
	.dif = { .bg_type = (bgt), .bg = (seed), .app_tag = (app),	\
		 .ref_tag = (ref), .flags = (fl) },			\
	.block_size = (bs),						\
}

#define CRC(t, s, bs) {							\
	.sig_type = MLX5_UMR_SIG_CRC,					\
	.crc = { .type = (t), .seed = (s) },				\
	.block_size = (bs),						\
}

static const struct sig_case sig_cases[] = {
	/*
	 * A: T10 DIF/CRC both domains alike, 512, ref remap.
	 * basic: bsf_size_sbs = WITH_INLINE(2) << 6 | 1 << SBS_SHIFT(4) =
	 * 0x90 (same type and block size: mlx5_umr_block_t10dif_sbs());
	 * check_byte_mask 0xff; wire.copy_byte_mask = GUARD 0xc0 | APPTAG
	 * 0x30 | REFTAG 0x0f (bg_type, bg, app and ref alike); mem
	 * bs_selector 1 (512); raw_data_size UINT32_MAX; w_bfs_psv 0 | wire
	 * PSV; m_bfs_psv 0 | memory PSV. ext: zero. inl (both):
	 * vld_refresh INL_VALID | REFRESH_DIF = 0xc000, apptag, reftag,
	 * sig_type MLX5_T10DIF_CRC 1, rp_inv_seed REPEAT_BLOCK 0x80 |
	 * BSF_SEED 0x08 (bg != 0), inc_ref_guard_check INC_REFTAG 0x40,
	 * app bitmask 0xffff.
	 */
	{ "t10dif crc both, sbs, ref remap",
	  { .mem = T10(MLX5_UMR_SIG_T10DIF_CRC, 0xffff, 0x1234, 0x5678,
		       MLX5_UMR_SIG_T10DIF_REF_REMAP, MLX5_UMR_SIG_BLOCK_512),
	    .wire = T10(MLX5_UMR_SIG_T10DIF_CRC, 0xffff, 0x1234, 0x5678,
			MLX5_UMR_SIG_T10DIF_REF_REMAP, MLX5_UMR_SIG_BLOCK_512),
	    .check_mask = 0xff },
	  { 0x90, 0xff, 0xff, 0x01, 0xff, 0xff, 0xff, 0xff,
	    0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00, 0x11,
	    [16 ... 31] = 0,
	    0xc0, 0x00, 0x12, 0x34, 0x00, 0x00, 0x56, 0x78,
	    0x01, 0x88, 0x00, 0x00, 0x00, 0x40, 0xff, 0xff,
	    0xc0, 0x00, 0x12, 0x34, 0x00, 0x00, 0x56, 0x78,
	    0x01, 0x88, 0x00, 0x00, 0x00, 0x40, 0xff, 0xff } },
	/*
	 * B: no memory signature, wire CRC32C seed UINT32_MAX, 4096.
	 * bsf_size_sbs 0x80 (not sbs: the memory type is NONE), check 0xf0,
	 * wire bs_selector 3 (4096), mem none: m_bfs_psv and mem bs 0.
	 * w_bfs_psv: (CRC32C_BASE 0x40 | REPEAT 0x2; no SEED_BIT, the seed is
	 * not 0) << 24 | wire PSV = 0x42000022. No inline part.
	 */
	{ "crc32c wire only",
	  { .wire = CRC(MLX5_UMR_SIG_CRC32C, U32_MAX, MLX5_UMR_SIG_BLOCK_4096),
	    .check_mask = MLX5_UMR_SIG_MASK_CRC32C },
	  { 0x80, 0xf0, 0x03, 0x00, 0xff, 0xff, 0xff, 0xff,
	    0x42, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00, 0x00,
	    [16 ... 63] = 0 } },
	/*
	 * C: CRC64_XP10 seed 0 both, 4160, copy mask 0x0f given.
	 * sbs (same type, size and CRC): 0x90; the computed copy mask 0xff
	 * is overridden by COPY_MASK: 0x0f; mem bs_selector 4 (4160);
	 * bfs (CRC64_XP10_BASE 0x50 | SEED_BIT 0x1 (seed 0) | REPEAT 0x2)
	 * = 0x53 << 24 | PSV, both domains.
	 */
	{ "crc64_xp10 both, copy mask",
	  { .mem = CRC(MLX5_UMR_SIG_CRC64_XP10, 0, MLX5_UMR_SIG_BLOCK_4160),
	    .wire = CRC(MLX5_UMR_SIG_CRC64_XP10, 0, MLX5_UMR_SIG_BLOCK_4160),
	    .flags = MLX5_UMR_SIG_FLAG_COPY_MASK, .copy_mask = 0x0f,
	    .check_mask = 0xff },
	  { 0x90, 0xff, 0x0f, 0x04, 0xff, 0xff, 0xff, 0xff,
	    0x53, 0x00, 0x00, 0x22, 0x53, 0x00, 0x00, 0x11,
	    [16 ... 63] = 0 } },
	/*
	 * D: memory T10 DIF/IP checksum seed 0, app escape, 520; wire T10
	 * DIF/CRC seed 0xffff, every flag, 4048; check 0xc0.
	 * Not sbs (block sizes differ): 0x80, wire bs_selector 6 (4048),
	 * mem 2 (520). m_inl: sig_type IPCS 2, rp_inv_seed 0x80 (bg 0),
	 * check APPTAG_ESCAPE 0x01. w_inl: sig_type 1, 0x88, INC_REFTAG
	 * 0x40 | APPREF_ESCAPE 0x02 (APP_REF_ESCAPE wins over APP_ESCAPE).
	 */
	{ "t10dif csum to crc, escapes, other sizes",
	  { .mem = T10(MLX5_UMR_SIG_T10DIF_CSUM, 0, 0xabcd, 0x01020304,
		       MLX5_UMR_SIG_T10DIF_APP_ESCAPE, MLX5_UMR_SIG_BLOCK_520),
	    .wire = T10(MLX5_UMR_SIG_T10DIF_CRC, 0xffff, 0xabcd, 0x01020304,
			MLX5_UMR_SIG_T10DIF_FLAGS, MLX5_UMR_SIG_BLOCK_4048),
	    .check_mask = MLX5_UMR_SIG_MASK_T10DIF_GUARD },
	  { 0x80, 0xc0, 0x06, 0x02, 0xff, 0xff, 0xff, 0xff,
	    0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00, 0x11,
	    [16 ... 31] = 0,
	    0xc0, 0x00, 0xab, 0xcd, 0x01, 0x02, 0x03, 0x04,
	    0x01, 0x88, 0x00, 0x00, 0x00, 0x42, 0xff, 0xff,
	    0xc0, 0x00, 0xab, 0xcd, 0x01, 0x02, 0x03, 0x04,
	    0x02, 0x80, 0x00, 0x00, 0x00, 0x01, 0xff, 0xff } },
	/*
	 * E: memory CRC32 seed 0, wire T10 DIF/IP checksum, both 512.
	 * Not sbs (types differ): 0x80, wire bs 1, mem bs 1; m_bfs_psv
	 * (CRC32_BASE 0x20 | SEED_BIT 1 | REPEAT 2) << 24 | PSV; w_inl of
	 * the T10 DIF: sig_type 2, rp_inv_seed 0x80, no flag.
	 */
	{ "crc32 memory, t10dif csum wire",
	  { .mem = CRC(MLX5_UMR_SIG_CRC32, 0, MLX5_UMR_SIG_BLOCK_512),
	    .wire = T10(MLX5_UMR_SIG_T10DIF_CSUM, 0, 0, 0, 0,
			MLX5_UMR_SIG_BLOCK_512),
	    .check_mask = MLX5_UMR_SIG_MASK_CRC32 },
	  { 0x80, 0xf0, 0x01, 0x01, 0xff, 0xff, 0xff, 0xff,
	    0x00, 0x00, 0x00, 0x22, 0x23, 0x00, 0x00, 0x11,
	    [16 ... 31] = 0,
	    0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	    0x02, 0x80, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
	    [48 ... 63] = 0 } },
};

/* KUNIT_EXPECT_MEMEQ() is 6.2's: the first byte that differs. */
static void expect_bytes(struct kunit *test, const u8 *got, const u8 *want,
			 size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i])
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, n, "%s: byte %zu is 0x%02x, not 0x%02x",
			    what, i, i < n ? got[i] : 0, i < n ? want[i] : 0);
}

static void sig_case_desc(const struct sig_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sig_bsf, sig_cases, sig_case_desc);

static const u32 sig_psv[2] = { PSV_MEM, PSV_WIRE };

/* The BSF of each attribute set, every byte written. */
static void sig_bsf(struct kunit *test)
{
	const struct sig_case *c = test->param_value;
	struct mlx5_bsf bsf;

	static_assert(sizeof(bsf) == sizeof(c->bsf));
	memset(&bsf, POISON, sizeof(bsf));
	mlx5_umr_sig_fill_bsf(&bsf, &c->attr, sig_psv, false);
	expect_bytes(test, (u8 *)&bsf, c->bsf, sizeof(bsf), "BSF");
}

/* A signature request: one SGE, access, SET_SIG with case A or B. */
struct st {
	struct mlx5_umr_caps caps;
	struct mlx5_umr_mkey mkey;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_wr wr;
	u8 buf[MLX5_SEND_WQE_MAX_SIZE];
};

static struct st *st_new(struct kunit *test, const struct sig_case *c)
{
	struct st *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->caps.max_klm_entries = 1 << 16;
	s->caps.max_inline_entries = 56;
	s->caps.dma_lkey = 0x5ff;
	s->mkey.key = 0x123456;
	s->mkey.max_entries = 4;
	s->mkey.flags = MLX5_UMR_MKEY_SIGNATURE;
	s->mkey.psv[0] = PSV_MEM;
	s->mkey.psv[1] = PSV_WIRE;
	s->sge = (struct mlx5_umr_sge) { .addr = 0x10000, .length = 4096,
					 .key = 0x777 };
	s->wr = (struct mlx5_umr_wr) {
		.mkey = &s->mkey, .op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_SIG,
		.access = MLX5_UMR_ACCESS_REMOTE_READ,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = &s->sge, .num_sge = 1 },
		.sig = &c->attr,
		.priv.sigerr = 1,	/* a new mkey's first UMR (sig.c) */
	};
	memset(s->buf, POISON, sizeof(s->buf));
	return s;
}

static int st_encode(struct st *s, u16 idx, u8 fm_ce_se)
{
	const struct mlx5_umr_wqe_ctx ctx = {
		.caps = &s->caps, .qpn = QPN, .ptr_lkey = s->caps.dma_lkey,
	};
	int size = mlx5_umr_wr_prepare(&s->caps, &s->wr);

	if (size < 0)
		return size;
	return mlx5_umr_wqe_encode(&ctx, &s->wr, NULL, idx, fm_ce_se, s->buf,
				   size);
}

/*
 * SET_PSV WQE at @p (mlx5_umr_set_psv()): ctrl opmod_idx_opcode idx << 8
 * | SET_PSV 0x20, qpn_ds qpn << 8 | 2 (ctrl + set_psv segment), fm_ce_se
 * from fm_cache INITIATOR_SMALL_FENCE (0x20) and the signal, imm 0; then
 * psv_index, 4 zero bytes, the 64-bit transient signature; the rest of
 * the basic block is the zero padding.
 */
static void expect_psv(struct kunit *test, const u8 *p, u16 idx, u8 fm,
		       u32 psv, u64 ts)
{
	u8 e[MLX5_SEND_WQE_BB] = {};

	put_unaligned_be32((u32)idx << 8 | MLX5_OPCODE_SET_PSV, &e[0]);
	put_unaligned_be32(QPN << 8 | 2, &e[4]);
	e[11] = fm;
	put_unaligned_be32(psv, &e[16]);
	put_unaligned_be64(ts, &e[24]);
	expect_bytes(test, p, e, sizeof(e), "SET_PSV");
}

/*
 * The chain of case A at index 7: UMR of 4 basic blocks (header 128,
 * one KLM padded to 64, BSF 64), SET_PSV memory at 11, wire at 12, one
 * signal on the last (suppress_umr_completion(); mlx5_umr_set_psv() with
 * reset_signal for the first of two).
 */
static void sig_chain_both(struct kunit *test)
{
	struct st *s = st_new(test, &sig_cases[0]);
	u8 fm = MLX5_FENCE_MODE_INITIATOR_SMALL | MLX5_WQE_CTRL_CQ_UPDATE;
	u64 mask;

	KUNIT_ASSERT_EQ(test, st_encode(s, 7, fm), 384);
	/* UMR: ds 16 (256 bytes), no CQE, BSF of 4 octowords enabled */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&s->buf[4]), QPN << 8 | 16);
	KUNIT_EXPECT_EQ(test, s->buf[11], MLX5_FENCE_MODE_INITIATOR_SMALL);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&s->buf[16 + 6]), 4);
	mask = get_unaligned_be64(&s->buf[16 + 8]);
	KUNIT_EXPECT_TRUE(test, mask & MLX5_MKEY_MASK_BSF_EN);
	/*
	 * armed for SIG_ERR: EN_SIGERR and expected_sigerr_count (flags_pd
	 * bit 26) from wr->priv.sigerr (mlx5_ib wr.c sig_mkey_mask(),
	 * set_sig_mkey_segment(); rdma-core qp.c upd_mkc_sig_err_cnt())
	 */
	KUNIT_EXPECT_TRUE(test, mask & MLX5_MKEY_MASK_EN_SIGERR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&s->buf[64 + 12]) >> 26 & 1,
			1);
	/* mkc flags_pd: bsf_en (1 << 30), rdma-core umr_enable_bsf() */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&s->buf[64 + 12]) >> 30, 1);
	/* the KLM inline, then the BSF at 192 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&s->buf[128 + 4]), 0x777);
	expect_bytes(test, &s->buf[192], sig_cases[0].bsf, 64, "BSF");
	/* T10 DIF transient: bg << 48 | app << 32 | ref */
	expect_psv(test, &s->buf[256], 11, MLX5_FENCE_MODE_INITIATOR_SMALL,
		   PSV_MEM, 0xffff123400005678ULL);
	expect_psv(test, &s->buf[320], 12,
		   MLX5_FENCE_MODE_INITIATOR_SMALL | MLX5_WQE_CTRL_CQ_UPDATE,
		   PSV_WIRE, 0xffff123400005678ULL);
	/* nothing past the chain */
	KUNIT_EXPECT_EQ(test, s->buf[384], POISON);
	/* after a reported error the count is even: bit 26 clear */
	s->wr.priv.sigerr = 0;
	KUNIT_ASSERT_EQ(test, st_encode(s, 7, fm), 384);
	KUNIT_EXPECT_TRUE(test, get_unaligned_be64(&s->buf[16 + 8]) &
			  MLX5_MKEY_MASK_EN_SIGERR);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&s->buf[64 + 12]) >> 26 & 1,
			0);
}

/*
 * Case B (wire CRC32C only), unsignalled: one SET_PSV, the wire's, with
 * the CRC transient seed << 32 (psv_transient_signature()).
 */
static void sig_chain_wire(struct kunit *test)
{
	struct st *s = st_new(test, &sig_cases[1]);

	KUNIT_ASSERT_EQ(test, st_encode(s, 0xfffe, 0), 320);
	expect_bytes(test, &s->buf[192], sig_cases[1].bsf, 64, "BSF");
	/* the index wraps at 16 bits: 0xfffe + 4 */
	expect_psv(test, &s->buf[256], 2, MLX5_FENCE_MODE_INITIATOR_SMALL,
		   PSV_WIRE, 0xffffffff00000000ULL);
}

/* Case C: CRC64_XP10, the 64-bit seed as is. */
static void sig_chain_crc64(struct kunit *test)
{
	struct st *s = st_new(test, &sig_cases[2]);

	KUNIT_ASSERT_EQ(test, st_encode(s, 0, MLX5_WQE_CTRL_CQ_UPDATE), 384);
	expect_psv(test, &s->buf[256], 4, MLX5_FENCE_MODE_INITIATOR_SMALL,
		   PSV_MEM, 0);
	expect_psv(test, &s->buf[320], 5,
		   MLX5_FENCE_MODE_INITIATOR_SMALL | MLX5_WQE_CTRL_CQ_UPDATE,
		   PSV_WIRE, 0);
}

/*
 * RESET_SIG alone: the BSF disabled (mask BSF_EN, mkc bsf_en 0), no BSF,
 * no SET_PSV, and no state check (rdma-core's configure has none); the
 * signature kept (neither flag): no BSF bit in the mask at all.
 */
static void sig_reset_keep(struct kunit *test)
{
	struct st *s = st_new(test, &sig_cases[0]);
	u64 mask;

	s->wr.flags = MLX5_UMR_WR_RESET_SIG;
	s->wr.layout = MLX5_UMR_LAYOUT_NONE;
	KUNIT_ASSERT_EQ(test, st_encode(s, 0, MLX5_WQE_CTRL_CQ_UPDATE), 128);
	mask = get_unaligned_be64(&s->buf[16 + 8]);
	KUNIT_EXPECT_EQ(test, mask, MLX5_MKEY_MASK_BSF_EN);
	/* inline (of nothing), as rdma-core's configure, no CHECK_* flag */
	KUNIT_EXPECT_EQ(test, s->buf[16], MLX5_UMR_INLINE);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&s->buf[16 + 6]), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(&s->buf[64 + 12]) >> 30, 0);
	KUNIT_EXPECT_EQ(test, s->buf[11], MLX5_WQE_CTRL_CQ_UPDATE);

	memset(s->buf, POISON, sizeof(s->buf));
	s->wr.flags = MLX5_UMR_WR_SET_ACCESS;
	s->wr.layout = MLX5_UMR_LAYOUT_LIST;
	KUNIT_ASSERT_EQ(test, st_encode(s, 0, 0), 192);
	mask = get_unaligned_be64(&s->buf[16 + 8]);
	KUNIT_EXPECT_FALSE(test, mask & MLX5_MKEY_MASK_BSF_EN);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(&s->buf[16 + 6]), 0);
}

static struct kunit_case sig_test_cases[] = {
	KUNIT_CASE_PARAM(sig_bsf, sig_bsf_gen_params),
	KUNIT_CASE(sig_chain_both),
	KUNIT_CASE(sig_chain_wire),
	KUNIT_CASE(sig_chain_crc64),
	KUNIT_CASE(sig_reset_keep),
	{}
};

static struct kunit_suite sig_test_suite = {
	.name = "mlx5_umr_sig_wqe",
	.test_cases = sig_test_cases,
};

kunit_test_suite(sig_test_suite);

MODULE_DESCRIPTION("KUnit tests of mlx5-umr block signature encoding");
MODULE_LICENSE("Dual BSD/GPL");
