// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: byte-exact UMR WQEs for every operation.
 *
 * The expected WQEs are written here byte by byte at the PRM offsets (big
 * endian, put_unaligned_be*), independently of the kernel structs and of
 * MLX5_SET that the encoder uses, then compared with what it produced.
 * Buffers are poisoned first so that the encoder's zeroing and padding are
 * checked, and so is that it writes nothing past the WQE or the table.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/mlx5_umr_compat.h>

#include "wqe.h"

MODULE_IMPORT_NS(MLX5_UMR_TESTING);

/* Byte offsets in a UMR WQE (ctrl 0, UMR ctrl 16, mkey/mkc 64, xlt 128). */
enum {
	O_OPC = 0,		/* be32 idx << 8 | opcode */
	O_QPN_DS = 4,		/* be32 qpn << 8 | ds */
	O_SIG = 8,
	O_FM_CE_SE = 11,
	O_IMM = 12,		/* be32 target mkey */
	O_UMR_FLAGS = 16,
	O_UMR_OCTO = 20,	/* be16 xlt_octowords */
	O_UMR_MASK = 24,	/* be64 mkey_mask */
	O_MK_STATUS = 64,	/* 0x40 = free */
	O_MK_ACCESS = 66,	/* a 0x40 rw 0x20 rr 0x10 lw 0x08 lr 0x04 */
	O_MK_QPN_KEY = 68,	/* be32 qpn << 8 | mkey_7_0 */
	O_MK_FLAGS_PD = 76,	/* be32 en_rinval 1 << 24 | pd */
	O_MK_START = 80,	/* be64 */
	O_MK_LEN = 88,		/* be64 */
	O_MK_XLT_OCT = 116,	/* be32 translations_octword_size */
	O_MK_LOG_PAGE = 123,
	O_XLT = 128,
};

#define A_LR	0x04
#define A_LW	0x08
#define A_RR	0x10
#define A_RW	0x20
#define A_A	0x40

#define F_CHECK_NOT_FREE	0x20	/* 1 << 5: fail if not free */
#define F_CHECK_FREE		0x40	/* 2 << 5: fail if free */
#define F_INLINE		0x80

#define M_LEN		BIT_ULL(0)
#define M_PAGE_SIZE	BIT_ULL(1)
#define M_START		BIT_ULL(6)
#define M_PD		BIT_ULL(7)
#define M_RINVAL	BIT_ULL(8)
#define M_KEY		BIT_ULL(13)
#define M_LR		BIT_ULL(17)
#define M_LW		BIT_ULL(18)
#define M_RR		BIT_ULL(19)
#define M_RW		BIT_ULL(20)
#define M_A		BIT_ULL(21)
#define M_FREE		BIT_ULL(29)
#define M_ACCESS	(M_LR | M_LW | M_RR | M_RW)
#define M_LAYOUT	(M_FREE | M_KEY | M_LEN | M_RINVAL)

#define POISON		0xa5
#define QPN		0x000abcU
#define KEY		0x00123456U
#define DMA_LKEY	0x000005ffU
#define PDN		0x00abcdU
#define XLT_DMA		0x12340000ULL
#define BUF_SIZE	1024
#define XLT_SIZE	32768

struct wt {
	struct mlx5_umr_caps caps;
	struct mlx5_umr_wqe_ctx ctx;
	struct mlx5_umr_mkey mkey;
	struct mlx5_umr_wr wr;
	struct mlx5_umr_xlt xlt;
	u8 *buf;	/* what the encoder writes */
	u8 *exp;	/* what it should write */
	u8 *table;	/* the pointer-mode table, expected */
};

static struct wt *wt_new(struct kunit *test)
{
	struct wt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->buf = kunit_kmalloc(test, BUF_SIZE, GFP_KERNEL);
	t->exp = kunit_kmalloc(test, BUF_SIZE, GFP_KERNEL);
	t->table = kunit_kmalloc(test, XLT_SIZE, GFP_KERNEL);
	t->xlt.cpu = kunit_kmalloc(test, XLT_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->buf);
	KUNIT_ASSERT_NOT_NULL(test, t->exp);
	KUNIT_ASSERT_NOT_NULL(test, t->table);
	KUNIT_ASSERT_NOT_NULL(test, t->xlt.cpu);
	memset(t->buf, POISON, BUF_SIZE);
	memset(t->exp, POISON, BUF_SIZE);
	memset(t->table, POISON, XLT_SIZE);
	memset(t->xlt.cpu, POISON, XLT_SIZE);
	t->xlt.dma = XLT_DMA;
	t->xlt.size = XLT_SIZE;

	t->caps.max_klm_entries = 1 << 16;
	t->caps.max_inline_entries = 56;
	t->caps.dma_lkey = DMA_LKEY;
	t->caps.pdn = PDN;
	t->ctx.caps = &t->caps;
	t->ctx.qpn = QPN;
	t->ctx.ptr_lkey = DMA_LKEY;
	t->mkey.key = KEY;
	t->mkey.max_entries = 1024;
	t->mkey.dma_lkey = DMA_LKEY;
	t->wr.mkey = &t->mkey;
	t->wr.op = MLX5_UMR_OP_CONFIGURE;
	return t;
}

/* Expected header: everything zero but what the arguments say. */
static void e_hdr(u8 *e, u16 idx, u8 ds, u8 fm_ce_se)
{
	memset(e, 0, O_XLT);
	put_unaligned_be32((u32)idx << 8 | 0x25, e + O_OPC);
	put_unaligned_be32(QPN << 8 | ds, e + O_QPN_DS);
	e[O_FM_CE_SE] = fm_ce_se;
	put_unaligned_be32(KEY, e + O_IMM);
	put_unaligned_be32(0xffffff00 | (KEY & 0xff), e + O_MK_QPN_KEY);
}

static void e_umr(u8 *e, u8 flags, u16 octo, u64 mask)
{
	e[O_UMR_FLAGS] = flags;
	put_unaligned_be16(octo, e + O_UMR_OCTO);
	put_unaligned_be64(mask, e + O_UMR_MASK);
}

static void e_klm(u8 *p, u32 bcount, u32 key, u64 va)
{
	put_unaligned_be32(bcount, p);
	put_unaligned_be32(key, p + 4);
	put_unaligned_be64(va, p + 8);
}

static void e_data_seg(u8 *e, u32 bytes)
{
	put_unaligned_be32(bytes, e + O_XLT);
	put_unaligned_be32(DMA_LKEY, e + O_XLT + 4);
	put_unaligned_be64(XLT_DMA, e + O_XLT + 8);
	memset(e + O_XLT + 16, 0, 48);
}

static void expect_bytes(struct kunit *test, const u8 *got, const u8 *exp,
			 size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != exp[i])
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, n,
			    "%s: first difference at byte %zu: got 0x%02x, expected 0x%02x",
			    what, i, i < n ? got[i] : 0, i < n ? exp[i] : 0);
}

/* Encode, check size, WQE bytes, and that nothing past the WQE changed. */
static void encode_expect(struct kunit *test, struct wt *t, u16 idx,
			  u8 fm_ce_se, unsigned int size)
{
	KUNIT_ASSERT_EQ(test, mlx5_umr_wr_check(&t->caps, &t->wr), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), size);
	KUNIT_ASSERT_EQ(test,
			mlx5_umr_wqe_encode(&t->ctx, &t->wr, &t->xlt, idx,
					    fm_ce_se, t->buf, size),
			(int)size);
	expect_bytes(test, t->buf, t->exp, BUF_SIZE, "WQE");
}

static const struct mlx5_umr_sge seed_sge[2] = {
	{ .addr = 0x100000, .length = 64, .key = 0x1111 },
	{ .addr = 0x200000, .length = 4096, .key = 0x2222 },
};

/* man mlx5dv_wr_mkey_configure: 64 bytes to mr1, then 4096 to mr2. */
static void wqe_list_seed(struct kunit *test)
{
	struct wt *t = wt_new(test);
	u8 *e = t->exp;

	t->wr.flags = MLX5_UMR_WR_SET_ACCESS;
	t->wr.access = MLX5_UMR_ACCESS_REMOTE_READ |
		       MLX5_UMR_ACCESS_REMOTE_WRITE;
	t->wr.layout = MLX5_UMR_LAYOUT_LIST;
	t->wr.list.sge = seed_sge;
	t->wr.list.num_sge = 2;

	e_hdr(e, 0x1234, 12, 0x28);
	e_umr(e, F_INLINE, 4, M_LAYOUT | M_ACCESS);
	e[O_MK_ACCESS] = A_LR | A_RR | A_RW;
	put_unaligned_be64(4160, e + O_MK_LEN);
	put_unaligned_be32(4, e + O_MK_XLT_OCT);
	e_klm(e + O_XLT, 64, 0x1111, 0x100000);
	e_klm(e + O_XLT + 16, 4096, 0x2222, 0x200000);
	memset(e + O_XLT + 32, 0, 32);

	encode_expect(test, t, 0x1234, 0x28, 192);
	/* inline: the mkey's table is not touched */
	KUNIT_EXPECT_EQ(test, ((u8 *)t->xlt.cpu)[0], POISON);
}

/* PD, remote invalidation and atomic with a device that allows it. */
static void wqe_list_pd_rinval_atomic(struct kunit *test)
{
	struct wt *t = wt_new(test);
	u8 *e = t->exp;

	t->caps.atomic = true;
	t->mkey.flags = MLX5_UMR_MKEY_REMOTE_INVALIDATE;
	t->wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_PD;
	t->wr.access = MLX5_UMR_ACCESS_ALL;
	t->wr.pdn = 0x00beef;
	t->wr.layout = MLX5_UMR_LAYOUT_LIST;
	t->wr.list.sge = seed_sge;
	t->wr.list.num_sge = 1;

	e_hdr(e, 7, 12, 0);
	e_umr(e, F_INLINE, 4, M_LAYOUT | M_ACCESS | M_A | M_PD);
	e[O_MK_ACCESS] = A_LR | A_LW | A_RR | A_RW | A_A;
	put_unaligned_be32(1 << 24 | 0x00beef, e + O_MK_FLAGS_PD);
	put_unaligned_be64(64, e + O_MK_LEN);
	put_unaligned_be32(4, e + O_MK_XLT_OCT);
	e_klm(e + O_XLT, 64, 0x1111, 0x100000);
	memset(e + O_XLT + 16, 0, 48);

	encode_expect(test, t, 7, 0, 192);
}

static struct mlx5_umr_sge *make_sges(struct kunit *test, u32 n)
{
	struct mlx5_umr_sge *sge = kunit_kcalloc(test, n, sizeof(*sge),
						 GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, sge);
	for (i = 0; i < n; i++) {
		sge[i].addr = 0x1000000000ULL + i * 0x10000ULL + i;
		sge[i].length = 512 + i;
		sge[i].key = 0x100 + i;
	}
	return sge;
}

/*
 * The largest inline WQE; no SET_ACCESS: no access bits in mask or mkey.
 * 15 basic blocks, ds 60: the 6-bit ds of qpn_ds cannot say 64 (16 basic
 * blocks, en.h mlx5e_get_max_sq_aligned_wqebbs()), so 52 KLMs, not 56,
 * even though caps->max_inline_entries is 56 here.
 */
static void wqe_list_inline_max(struct kunit *test)
{
	struct wt *t = wt_new(test);
	struct mlx5_umr_sge *sge = make_sges(test, 52);
	u8 *e = t->exp;
	u64 len = 0;
	u32 i;

	t->wr.layout = MLX5_UMR_LAYOUT_LIST;
	t->wr.list.sge = sge;
	t->wr.list.num_sge = 52;

	e_hdr(e, 0xffff, 60, 0x68);
	e_umr(e, F_INLINE, 52, M_LAYOUT);
	for (i = 0; i < 52; i++) {
		e_klm(e + O_XLT + 16 * i, sge[i].length, sge[i].key,
		      sge[i].addr);
		len += sge[i].length;
	}
	put_unaligned_be64(len, e + O_MK_LEN);
	put_unaligned_be32(52, e + O_MK_XLT_OCT);

	encode_expect(test, t, 0xffff, 0x68, 960);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(t->buf + O_QPN_DS) & 0x3f, 60);
}

/* One past the inline limit: one data segment and the table in xlt. */
static void list_pointer(struct kunit *test, u32 n)
{
	struct wt *t = wt_new(test);
	struct mlx5_umr_sge *sge = make_sges(test, n);
	u32 padded = ALIGN(n * 16, 64);
	u8 *e = t->exp;
	u64 len = 0;
	u32 i;

	t->wr.layout = MLX5_UMR_LAYOUT_LIST;
	t->wr.list.sge = sge;
	t->wr.list.num_sge = n;

	e_hdr(e, 3, 9, 0);
	e_umr(e, 0, padded / 16, M_LAYOUT);
	for (i = 0; i < n; i++) {
		e_klm(t->table + 16 * i, sge[i].length, sge[i].key,
		      sge[i].addr);
		len += sge[i].length;
	}
	memset(t->table + n * 16, 0, padded - n * 16);
	put_unaligned_be64(len, e + O_MK_LEN);
	put_unaligned_be32(padded / 16, e + O_MK_XLT_OCT);
	e_data_seg(e, padded);

	encode_expect(test, t, 3, 0, 192);
	expect_bytes(test, t->xlt.cpu, t->table, XLT_SIZE, "table");
}

static void wqe_list_pointer_53(struct kunit *test)
{
	list_pointer(test, 53);
}

static void wqe_list_pointer_1000(struct kunit *test)
{
	list_pointer(test, 1000);
}

/* caps->max_inline_entries lowers the inline limit (in 64-byte steps). */
static void wqe_inline_limit_from_caps(struct kunit *test)
{
	struct wt *t = wt_new(test);

	t->caps.max_inline_entries = 4;
	t->wr.layout = MLX5_UMR_LAYOUT_LIST;
	t->wr.list.sge = make_sges(test, 5);
	t->wr.list.num_sge = 4;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), 192U);
	t->wr.list.num_sge = 5;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), 192U);
	KUNIT_ASSERT_EQ(test,
			mlx5_umr_wqe_encode(&t->ctx, &t->wr, &t->xlt, 0, 0,
					    t->buf, 192), 192);
	/* pointer mode: no INLINE flag, ds 9 */
	KUNIT_EXPECT_EQ(test, t->buf[O_UMR_FLAGS], 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(t->buf + O_QPN_DS),
			QPN << 8 | 9);
	/* and no limit at all from caps of 0: everything goes by pointer */
	t->caps.max_inline_entries = 0;
	t->wr.list.num_sge = 1;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), 192U);
	KUNIT_ASSERT_EQ(test,
			mlx5_umr_wqe_encode(&t->ctx, &t->wr, &t->xlt, 0, 0,
					    t->buf, 192), 192);
	KUNIT_EXPECT_EQ(test, t->buf[O_UMR_FLAGS], 0);
}

static void wqe_encode_errors(struct kunit *test)
{
	struct wt *t = wt_new(test);
	u32 n = 101;	/* 1616 bytes, padded to 1664 */

	t->wr.layout = MLX5_UMR_LAYOUT_LIST;
	t->wr.list.sge = make_sges(test, n);
	t->wr.list.num_sge = n;
	/* wrong size */
	KUNIT_EXPECT_EQ(test,
			mlx5_umr_wqe_encode(&t->ctx, &t->wr, &t->xlt, 0, 0,
					    t->buf, 256), -EINVAL);
	/* pointer mode needs a table ... */
	KUNIT_EXPECT_EQ(test,
			mlx5_umr_wqe_encode(&t->ctx, &t->wr, NULL, 0, 0,
					    t->buf, 192), -EINVAL);
	/* ... big enough for the padded entries */
	t->xlt.size = n * 16;
	KUNIT_EXPECT_EQ(test,
			mlx5_umr_wqe_encode(&t->ctx, &t->wr, &t->xlt, 0, 0,
					    t->buf, 192), -EINVAL);
	t->xlt.size = ALIGN(n * 16, 64);
	KUNIT_EXPECT_EQ(test,
			mlx5_umr_wqe_encode(&t->ctx, &t->wr, &t->xlt, 0, 0,
					    t->buf, 192), 192);
	/* an operation it does not know */
	t->wr.op = MLX5_UMR_OP_REG_PAGES + 1;
	KUNIT_EXPECT_EQ(test,
			mlx5_umr_wqe_encode(&t->ctx, &t->wr, &t->xlt, 0, 0,
					    t->buf, 128), -EINVAL);
}

/*
 * man mlx5dv_wr_mkey_configure, interleaved: repeat 2 of {mr1 512 bytes,
 * skip 4}, {mr2 8 bytes}: header, two entries, one zero entry of padding.
 */
static void wqe_interleaved_seed(struct kunit *test)
{
	static const struct mlx5_umr_interleaved il[2] = {
		{ .addr = 0x100000, .bytes_count = 512, .bytes_skip = 4,
		  .key = 0x1111 },
		{ .addr = 0x200000, .bytes_count = 8, .bytes_skip = 0,
		  .key = 0x2222 },
	};
	struct wt *t = wt_new(test);
	u8 *e = t->exp;
	u8 *x = e + O_XLT;

	t->mkey.max_entries = 2;
	t->wr.flags = MLX5_UMR_WR_SET_ACCESS;
	t->wr.access = MLX5_UMR_ACCESS_REMOTE_READ |
		       MLX5_UMR_ACCESS_REMOTE_WRITE;
	t->wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
	t->wr.interleaved.ent = il;
	t->wr.interleaved.num_entries = 2;
	t->wr.interleaved.repeat_count = 2;

	e_hdr(e, 1, 12, 0x20);
	e_umr(e, F_INLINE, 4, M_LAYOUT | M_ACCESS);
	e[O_MK_ACCESS] = A_LR | A_RR | A_RW;
	put_unaligned_be64(2 * 520, e + O_MK_LEN);
	put_unaligned_be32(4, e + O_MK_XLT_OCT);
	/* repeat block: bcount_per_cycle, op, repeat_count, rsvd, n */
	put_unaligned_be32(520, x);
	put_unaligned_be32(0x400, x + 4);
	put_unaligned_be32(2, x + 8);
	put_unaligned_be16(0, x + 12);
	put_unaligned_be16(2, x + 14);
	/* entries: stride, bcount, key, va */
	put_unaligned_be16(516, x + 16);
	put_unaligned_be16(512, x + 18);
	put_unaligned_be32(0x1111, x + 20);
	put_unaligned_be64(0x100000, x + 24);
	put_unaligned_be16(8, x + 32);
	put_unaligned_be16(8, x + 34);
	put_unaligned_be32(0x2222, x + 36);
	put_unaligned_be64(0x200000, x + 40);
	memset(x + 48, 0, 16);

	encode_expect(test, t, 1, 0x20, 192);
}

/* Interleaved over the inline limit: header and entries in the table. */
static void wqe_interleaved_pointer(struct kunit *test)
{
	const u32 n = 60;
	struct mlx5_umr_interleaved *il = kunit_kcalloc(test, n, sizeof(*il),
							GFP_KERNEL);
	struct wt *t = wt_new(test);
	u8 *e = t->exp, *x = t->table;
	u32 i, per_cycle = 0;

	KUNIT_ASSERT_NOT_NULL(test, il);
	for (i = 0; i < n; i++) {
		il[i].addr = 0x300000000ULL + i * 0x100000;
		il[i].bytes_count = 100 + i;
		il[i].bytes_skip = 3 * i;
		il[i].key = 0x3000 + i;
		per_cycle += il[i].bytes_count;
	}
	t->wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
	t->wr.interleaved.ent = il;
	t->wr.interleaved.num_entries = n;
	t->wr.interleaved.repeat_count = 1000;

	/* 61 entries of 16 bytes = 976, padded to 1024 = 64 octowords */
	e_hdr(e, 2, 9, 0);
	e_umr(e, 0, 64, M_LAYOUT);
	put_unaligned_be64(1000ULL * per_cycle, e + O_MK_LEN);
	put_unaligned_be32(64, e + O_MK_XLT_OCT);
	e_data_seg(e, 1024);
	put_unaligned_be32(per_cycle, x);
	put_unaligned_be32(0x400, x + 4);
	put_unaligned_be32(1000, x + 8);
	put_unaligned_be16(0, x + 12);
	put_unaligned_be16(n, x + 14);
	for (i = 0; i < n; i++) {
		u8 *p = x + 16 * (i + 1);

		put_unaligned_be16(il[i].bytes_count + il[i].bytes_skip, p);
		put_unaligned_be16(il[i].bytes_count, p + 2);
		put_unaligned_be32(il[i].key, p + 4);
		put_unaligned_be64(il[i].addr, p + 8);
	}
	memset(x + 16 * (n + 1), 0, 1024 - 16 * (n + 1));

	encode_expect(test, t, 2, 0, 192);
	expect_bytes(test, t->xlt.cpu, t->table, XLT_SIZE, "table");
}

/*
 * A mapped scatterlist: device addresses through caps->dma_lkey, the
 * last KLM cut at the length, the entry past it unused.
 */
static void wqe_sgt(struct kunit *test)
{
	struct scatterlist *sgl = kunit_kcalloc(test, 4, sizeof(*sgl),
						GFP_KERNEL);
	struct wt *t = wt_new(test);
	u8 *e = t->exp;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, sgl);
	sg_init_table(sgl, 4);
	for (i = 0; i < 4; i++) {
		sg_dma_address(&sgl[i]) = 0x10000000ULL + i * 0x10000;
		sg_dma_len(&sgl[i]) = 4096;
	}
	t->mkey.flags = MLX5_UMR_MKEY_REMOTE_INVALIDATE;
	t->wr.flags = MLX5_UMR_WR_SET_ACCESS;
	t->wr.access = MLX5_UMR_ACCESS_LOCAL_WRITE |
		       MLX5_UMR_ACCESS_REMOTE_WRITE;
	t->wr.layout = MLX5_UMR_LAYOUT_SGT;
	t->wr.sgt.sgl = sgl;
	t->wr.sgt.nents = 4;
	t->wr.sgt.length = 9000;

	e_hdr(e, 9, 12, 0x08);
	e_umr(e, F_INLINE, 4, M_LAYOUT | M_ACCESS);
	e[O_MK_ACCESS] = A_LR | A_LW | A_RW;
	put_unaligned_be32(1 << 24, e + O_MK_FLAGS_PD);
	put_unaligned_be64(9000, e + O_MK_LEN);
	put_unaligned_be32(4, e + O_MK_XLT_OCT);
	e_klm(e + O_XLT, 4096, DMA_LKEY, 0x10000000);
	e_klm(e + O_XLT + 16, 4096, DMA_LKEY, 0x10010000);
	e_klm(e + O_XLT + 32, 808, DMA_LKEY, 0x10020000);
	memset(e + O_XLT + 48, 0, 16);

	encode_expect(test, t, 9, 0x08, 192);
}

/*
 * A scatterlist moved to another PD in the same request: the KLMs name the
 * DMA key given for that PD (rule 37), not the mkey's, and mkc.pd changes.
 */
static void wqe_sgt_new_pd(struct kunit *test)
{
	struct scatterlist *sgl = kunit_kcalloc(test, 1, sizeof(*sgl),
						GFP_KERNEL);
	struct wt *t = wt_new(test);
	u8 *e = t->exp;

	KUNIT_ASSERT_NOT_NULL(test, sgl);
	sg_init_table(sgl, 1);
	sg_dma_address(sgl) = 0x10000000ULL;
	sg_dma_len(sgl) = 4096;
	t->wr.flags = MLX5_UMR_WR_SET_PD;
	t->wr.pdn = 0x4242;
	t->wr.layout = MLX5_UMR_LAYOUT_SGT;
	t->wr.sgt.sgl = sgl;
	t->wr.sgt.nents = 1;
	t->wr.sgt.lkey = 0xabc01;
	t->wr.sgt.length = 4096;

	e_hdr(e, 9, 12, 0);
	e_umr(e, F_INLINE, 4, M_LAYOUT | M_PD);
	put_unaligned_be32(0x4242, e + O_MK_FLAGS_PD);
	put_unaligned_be64(4096, e + O_MK_LEN);
	put_unaligned_be32(4, e + O_MK_XLT_OCT);
	e_klm(e + O_XLT, 4096, 0xabc01, 0x10000000);
	memset(e + O_XLT + 16, 0, 48);

	encode_expect(test, t, 9, 0, 192);
}

/*
 * A chained scatterlist (as sg_alloc_table() builds for a large I/O) over
 * the inline limit: 327 KLMs in the table, walked across the chain.
 */
static void wqe_sgt_chained_pointer(struct kunit *test)
{
	const u32 na = 128, nb = 200, n = na - 1 + nb;
	struct scatterlist *a = kunit_kcalloc(test, na, sizeof(*a), GFP_KERNEL);
	struct scatterlist *b = kunit_kcalloc(test, nb, sizeof(*b), GFP_KERNEL);
	u32 padded = ALIGN(n * 16, 64);
	struct wt *t = wt_new(test);
	struct scatterlist *sg;
	u8 *e = t->exp;
	u64 len = 0;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	sg_init_table(a, na);
	sg_init_table(b, nb);
	sg_chain(a, na, b);
	for_each_sg(a, sg, n, i) {
		sg_dma_address(sg) = 0x80000000ULL + i * 0x2000ULL;
		sg_dma_len(sg) = 4096 + i;
		len += 4096 + i;
		e_klm(t->table + 16 * i, 4096 + i, DMA_LKEY,
		      0x80000000ULL + i * 0x2000ULL);
	}
	/* the last entry is cut by one byte */
	len--;
	put_unaligned_be32(4096 + n - 2, t->table + 16 * (n - 1));
	memset(t->table + 16 * n, 0, padded - 16 * n);

	t->mkey.max_entries = n;
	t->wr.layout = MLX5_UMR_LAYOUT_SGT;
	t->wr.sgt.sgl = a;
	t->wr.sgt.nents = n;
	t->wr.sgt.length = len;

	e_hdr(e, 11, 9, 0);
	e_umr(e, 0, padded / 16, M_LAYOUT);
	put_unaligned_be64(len, e + O_MK_LEN);
	put_unaligned_be32(padded / 16, e + O_MK_XLT_OCT);
	e_data_seg(e, padded);

	encode_expect(test, t, 11, 0, 192);
	expect_bytes(test, t->xlt.cpu, t->table, XLT_SIZE, "table");
}

/*
 * Access only: no "fail if free" (umr.c mlx5r_umr_rereg_pd_access() has
 * one; rdma-core's mlx5_send_wr_mkey_configure() none, nor does the
 * service: a peer may have invalidated the mkey), the free bit unmasked.
 */
static void wqe_access_only(struct kunit *test)
{
	struct wt *t = wt_new(test);
	u8 *e = t->exp;

	t->caps.atomic = true;
	t->wr.flags = MLX5_UMR_WR_SET_ACCESS;
	t->wr.access = MLX5_UMR_ACCESS_ALL;

	e_hdr(e, 0x100, 8, 0);
	e_umr(e, F_INLINE, 0, M_ACCESS | M_A);
	e[O_MK_ACCESS] = A_LR | A_LW | A_RR | A_RW | A_A;

	encode_expect(test, t, 0x100, 0, 128);

	/* where UMR may not modify A, it is neither masked nor set ... */
	t->caps.umr_modify_atomic_disabled = true;
	t->wr.access = MLX5_UMR_ACCESS_REMOTE_READ;
	memset(t->buf, POISON, BUF_SIZE);
	e_umr(e, F_INLINE, 0, M_ACCESS);
	e[O_MK_ACCESS] = A_LR | A_RR;
	encode_expect(test, t, 0x100, 0, 128);

	/* ... nor without atomic caps */
	t->caps.umr_modify_atomic_disabled = false;
	t->caps.atomic = false;
	memset(t->buf, POISON, BUF_SIZE);
	encode_expect(test, t, 0x100, 0, 128);
}

static void wqe_pd_only(struct kunit *test)
{
	struct wt *t = wt_new(test);
	u8 *e = t->exp;

	t->wr.flags = MLX5_UMR_WR_SET_PD;
	t->wr.pdn = 0xbeef;

	e_hdr(e, 5, 8, 0);
	e_umr(e, F_INLINE, 0, M_PD);
	put_unaligned_be32(0xbeef, e + O_MK_FLAGS_PD);

	encode_expect(test, t, 5, 0, 128);
}

/* Invalidate, like wr.c set_linv_wr(): only the free bit, no CHECK. */
static void wqe_invalidate(struct kunit *test)
{
	struct wt *t = wt_new(test);
	u8 *e = t->exp;

	t->wr.op = MLX5_UMR_OP_INVALIDATE;

	e_hdr(e, 0xfffe, 8, 0x08);
	e_umr(e, F_INLINE, 0, M_FREE);
	e[O_MK_STATUS] = 0x40;

	encode_expect(test, t, 0xfffe, 0x08, 128);
}

static dma_addr_t *make_pages(struct kunit *test, u32 n)
{
	dma_addr_t *pages = kunit_kcalloc(test, n, sizeof(*pages),
					  GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i < n; i++)
		pages[i] = 0x40000000ULL + (u64)(n - i) * PAGE_SIZE * 3;
	return pages;
}

#define PAGES_IOVA	(0x7f0000000000ULL + 0x100)

/* Pages of a direct mkey, like umr.c mlx5r_umr_update_mr_pas(ENABLE). */
static void reg_pages(struct kunit *test, u32 n, bool pd)
{
	struct wt *t = wt_new(test);
	dma_addr_t *pages = make_pages(test, n);
	u32 padded = ALIGN(n * 8, 64);
	bool inl = padded <= 832;
	u8 *e = t->exp;
	u8 *x = inl ? e + O_XLT : t->table;
	u64 len = (u64)n * PAGE_SIZE - 0x100 - 7;
	u32 i;

	t->mkey.direct = true;
	t->wr.op = MLX5_UMR_OP_REG_PAGES;
	t->wr.access = MLX5_UMR_ACCESS_LOCAL_WRITE |
		       MLX5_UMR_ACCESS_REMOTE_READ;
	if (pd) {
		t->wr.flags = MLX5_UMR_WR_SET_PD;
		t->wr.pdn = 0x77;
	}
	t->wr.pages.addrs = pages;
	t->wr.pages.npages = n;
	t->wr.pages.offset = 0x100;
	t->wr.pages.iova = PAGES_IOVA;
	t->wr.pages.length = len;

	e_hdr(e, 4, inl ? (128 + padded) / 16 : 9, 0);
	e_umr(e, F_CHECK_NOT_FREE | (inl ? F_INLINE : 0), padded / 16,
	      M_FREE | M_KEY | M_LEN | M_PAGE_SIZE | M_START | M_PD |
	      M_ACCESS);
	e[O_MK_ACCESS] = A_LR | A_LW | A_RR;
	put_unaligned_be32(pd ? 0x77 : PDN, e + O_MK_FLAGS_PD);
	put_unaligned_be64(PAGES_IOVA, e + O_MK_START);
	put_unaligned_be64(len, e + O_MK_LEN);
	put_unaligned_be32(padded / 16, e + O_MK_XLT_OCT);
	e[O_MK_LOG_PAGE] = PAGE_SHIFT;
	for (i = 0; i < n; i++)
		put_unaligned_be64(pages[i] | 3, x + 8 * i);
	memset(x + 8 * n, 0, padded - 8 * n);
	if (!inl)
		e_data_seg(e, padded);

	encode_expect(test, t, 4, 0, inl ? 128 + padded : 192);
	expect_bytes(test, t->xlt.cpu, t->table, XLT_SIZE, "table");
}

static void wqe_reg_pages_inline(struct kunit *test)
{
	reg_pages(test, 3, false);
}

static void wqe_reg_pages_inline_max(struct kunit *test)
{
	reg_pages(test, 104, true);
}

static void wqe_reg_pages_pointer(struct kunit *test)
{
	reg_pages(test, 113, false);
}

/* mlx5_umr_wqe_size() for each kind, by its own arithmetic. */
static void wqe_sizes(struct kunit *test)
{
	struct wt *t = wt_new(test);
	struct mlx5_umr_interleaved il[4] = {};
	struct mlx5_umr_sge sge[4] = {};
	u32 i;

	t->wr.layout = MLX5_UMR_LAYOUT_LIST;
	t->wr.list.sge = sge;
	for (i = 1; i <= 4; i++) {
		t->wr.list.num_sge = i;
		KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr),
				192U);
	}
	/* the header entry pushes 4 interleaved entries to 128 bytes */
	t->wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
	t->wr.interleaved.ent = il;
	t->wr.interleaved.num_entries = 3;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), 192U);
	t->wr.interleaved.num_entries = 4;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), 256U);
	/* 51 entries and the header: 832 bytes, the most a 960-byte WQE has */
	t->wr.interleaved.num_entries = 51;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), 960U);
	t->wr.interleaved.num_entries = 52;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), 192U);
	t->wr.layout = MLX5_UMR_LAYOUT_NONE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), 128U);
	t->wr.op = MLX5_UMR_OP_INVALIDATE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wqe_size(&t->caps, &t->wr), 128U);
}

static struct kunit_case wqe_cases[] = {
	KUNIT_CASE(wqe_list_seed),
	KUNIT_CASE(wqe_list_pd_rinval_atomic),
	KUNIT_CASE(wqe_list_inline_max),
	KUNIT_CASE(wqe_list_pointer_53),
	KUNIT_CASE(wqe_list_pointer_1000),
	KUNIT_CASE(wqe_inline_limit_from_caps),
	KUNIT_CASE(wqe_encode_errors),
	KUNIT_CASE(wqe_interleaved_seed),
	KUNIT_CASE(wqe_interleaved_pointer),
	KUNIT_CASE(wqe_sgt),
	KUNIT_CASE(wqe_sgt_new_pd),
	KUNIT_CASE(wqe_sgt_chained_pointer),
	KUNIT_CASE(wqe_access_only),
	KUNIT_CASE(wqe_pd_only),
	KUNIT_CASE(wqe_invalidate),
	KUNIT_CASE(wqe_reg_pages_inline),
	KUNIT_CASE(wqe_reg_pages_inline_max),
	KUNIT_CASE(wqe_reg_pages_pointer),
	KUNIT_CASE(wqe_sizes),
	{}
};

static struct kunit_suite wqe_suite = {
	.name = "mlx5_umr_wqe",
	.test_cases = wqe_cases,
};

kunit_test_suite(wqe_suite);

MODULE_DESCRIPTION("KUnit tests of the mlx5-umr WQE encoder");
MODULE_LICENSE("Dual BSD/GPL");
