// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: every rule of Documentation/validation.rst, one table row each
 * (the request it starts from, what it changes, the errno), with the
 * boundary that still passes as a row of its own.
 *
 * Each row starts from a valid request of one kind, checks that it passes,
 * changes up to three fields and checks the errno through every path that
 * applies the rules: the ULP API's check (mlx5_umr_wr_check(), which
 * mlx5_umr_validate() is) and the submission path's split of the same rules
 * (mlx5_umr_wr_prepare(), the request rules mlx5_umr_post() applies inline,
 * then mlx5_umr_wqe_encode() for the rules on each entry). The uapi applies
 * the same rule functions to user input; it needs an open file, so its rows
 * are in selftests/uapi (zero_length, too_many_entries, repeat_overflow).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>

#include "wqe.h"
#include "xlt.h"

MODULE_IMPORT_NS(MLX5_UMR_TESTING);

/* The last numbered rule of Documentation/validation.rst. */
#define VAL_RULES	52

enum vkind { V_LIST, V_IL, V_SGT, V_ACCESS, V_INVAL, V_PAGES, V_SIG };

#define VN 4

struct vt {
	/* kept by vt_reset() */
	struct kunit *test;
	void *xlt;
	/* reset by vt_reset() */
	struct mlx5_umr_caps caps;
	struct mlx5_umr_mkey mkey;
	struct mlx5_umr_wr wr;
	struct mlx5_umr_sge sge[VN];
	struct mlx5_umr_interleaved il[VN];
	u32 sg_len[VN];		/* sg_dma_len() of sgl[], set by vt_apply() */
	struct scatterlist sgl[VN];
	dma_addr_t pages[VN];
	struct mlx5_umr_sig_attr sig;
	u8 wqe[MLX5_SEND_WQE_MAX_SIZE];
};

#define IOVA	(0x7f0000000000ULL + 0x100)

static void vt_reset(struct vt *v, enum vkind kind)
{
	struct kunit *test = v->test;
	void *xlt = v->xlt;
	u32 i;

	memset(v, 0, sizeof(*v));
	v->test = test;
	v->xlt = xlt;
	v->caps.max_klm_entries = 1 << 16;
	v->caps.max_inline_entries = 56;
	v->caps.dma_lkey = 0x5ff;
	v->caps.pdn = 0xabcd;
	v->mkey.key = 0x123456;
	v->mkey.max_entries = 8;
	v->mkey.dma_lkey = 0x5ff;
	v->wr.mkey = &v->mkey;

	for (i = 0; i < VN; i++) {
		v->sge[i].addr = 0x100000 * (i + 1);
		v->sge[i].length = 4096;
		v->sge[i].key = 0x1000 + i;
		v->il[i].addr = 0x100000 * (i + 1);
		v->il[i].bytes_count = 512;
		v->il[i].bytes_skip = 8;
		v->il[i].key = 0x1000 + i;
		v->pages[i] = 0x40000000ULL + i * PAGE_SIZE;
		v->sg_len[i] = 4096;
	}
	sg_init_table(v->sgl, VN);

	v->wr.op = MLX5_UMR_OP_CONFIGURE;
	switch (kind) {
	case V_LIST:
		v->wr.flags = MLX5_UMR_WR_SET_ACCESS;
		v->wr.access = MLX5_UMR_ACCESS_REMOTE_READ;
		v->wr.layout = MLX5_UMR_LAYOUT_LIST;
		v->wr.list.sge = v->sge;
		v->wr.list.num_sge = 2;
		break;
	case V_IL:
		v->wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
		v->wr.interleaved.ent = v->il;
		v->wr.interleaved.num_entries = 2;
		v->wr.interleaved.repeat_count = 2;
		break;
	case V_SGT:
		v->wr.layout = MLX5_UMR_LAYOUT_SGT;
		v->wr.sgt.sgl = v->sgl;
		v->wr.sgt.nents = VN;
		v->wr.sgt.length = 3 * 4096 - 100;
		break;
	case V_ACCESS:
		v->wr.flags = MLX5_UMR_WR_SET_ACCESS;
		v->wr.access = MLX5_UMR_ACCESS_LOCAL_WRITE;
		break;
	case V_INVAL:
		v->wr.op = MLX5_UMR_OP_INVALIDATE;
		break;
	case V_PAGES:
		v->mkey.direct = true;
		v->wr.op = MLX5_UMR_OP_REG_PAGES;
		v->wr.access = MLX5_UMR_ACCESS_LOCAL_WRITE;
		v->wr.pages.addrs = v->pages;
		v->wr.pages.npages = 3;
		v->wr.pages.iova = IOVA;
		v->wr.pages.offset = 0x100;
		v->wr.pages.length = 3 * PAGE_SIZE - 0x100;
		break;
	case V_SIG:
		/* a list with T10 DIF in both domains */
		v->mkey.flags = MLX5_UMR_MKEY_SIGNATURE;
		v->wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_SIG;
		v->wr.access = MLX5_UMR_ACCESS_REMOTE_READ;
		v->wr.layout = MLX5_UMR_LAYOUT_LIST;
		v->wr.list.sge = v->sge;
		v->wr.list.num_sge = 2;
		v->wr.sig = &v->sig;
		v->sig.mem.sig_type = MLX5_UMR_SIG_T10DIF;
		v->sig.mem.dif.bg = 0xffff;
		v->sig.mem.dif.app_tag = 0x1234;
		v->sig.mem.dif.ref_tag = 0x5678;
		v->sig.mem.block_size = MLX5_UMR_SIG_BLOCK_512;
		v->sig.wire = v->sig.mem;
		v->sig.check_mask = 0xff;
		break;
	}
}

/* Fields a row changes: the scatterlist's DMA lengths follow sg_len[]. */
static void vt_apply(struct vt *v)
{
	u32 i;

	for (i = 0; i < VN; i++) {
		sg_dma_address(&v->sgl[i]) = 0x10000000ULL + i * 0x10000;
		sg_dma_len(&v->sgl[i]) = v->sg_len[i];
	}
}

static struct vt *vt_new(struct kunit *test)
{
	struct vt *v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, v);
	v->test = test;
	/* the largest pointer-mode table one WQE can point at */
	v->xlt = kunit_kzalloc(test, MLX5_UMR_XLT_MAX_BYTES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v->xlt);
	return v;
}

static int encode(struct vt *v, unsigned int size)
{
	const struct mlx5_umr_wqe_ctx ctx = {
		.caps = &v->caps, .qpn = 0x42, .ptr_lkey = v->caps.dma_lkey,
	};
	const struct mlx5_umr_xlt xlt = {
		.cpu = v->xlt,
		.dma = 0x1000000,
		.size = MLX5_UMR_XLT_MAX_BYTES,
	};

	return mlx5_umr_wqe_encode(&ctx, &v->wr, &xlt, 0, 0, v->wqe, size);
}

/*
 * Expect @err from every path: the ULP API's check, and the submission
 * path's request rules then its encoder (the WQE's size when it passes).
 */
static void expect_paths(struct vt *v, int err)
{
	int size;

	vt_apply(v);
	KUNIT_EXPECT_EQ_MSG(v->test, mlx5_umr_wr_check(&v->caps, &v->wr), err,
			    "ULP API: mlx5_umr_wr_check()");
	size = mlx5_umr_wr_prepare(&v->caps, &v->wr);
	if (size < 0)
		KUNIT_EXPECT_EQ_MSG(v->test, size, err,
				    "post path: mlx5_umr_wr_prepare()");
	else
		KUNIT_EXPECT_EQ_MSG(v->test, encode(v, size), err ?: size,
				    "post path: mlx5_umr_wqe_encode()");
}

/* The errno of mlx5_umr_wr_check(), after expecting it on every path. */
static int check(struct vt *v)
{
	int err = mlx5_umr_wr_check(&v->caps, &v->wr);

	expect_paths(v, err);
	return err;
}

/* Reset to a valid request of @kind, which must pass. */
static void base(struct kunit *test, struct vt *v, enum vkind kind)
{
	vt_reset(v, kind);
	vt_apply(v);
	KUNIT_ASSERT_EQ(test, check(v), 0);
}

/* One field of struct vt a row sets, by offset and size. */
struct val_set {
	u16 off;
	u8 size;
	u64 val;
};

/*
 * PUT(value, field): store @value in the member @field of struct vt. The
 * field comes last, as the variadic argument: a member designator, read
 * only by offsetof() and sizeof_field().
 */
#define PUT(value, ...) {						\
	.off = offsetof(struct vt, __VA_ARGS__),			\
	.size = sizeof_field(struct vt, __VA_ARGS__),			\
	.val = (u64)(value),						\
}

/**
 * struct val_row - one row of the table
 * @rule: its number in Documentation/validation.rst
 * @what: what the row changes, the test's name
 * @kind: the valid request it starts from
 * @set: the fields it changes (up to three; size 0 ends)
 * @err: the errno every path gives, or 0 for the boundary that passes
 */
struct val_row {
	u8 rule;
	const char *what;
	enum vkind kind;
	struct val_set set[3];
	int err;
};

#define ACC_NO_ATOMIC	(MLX5_UMR_ACCESS_ALL & ~MLX5_UMR_ACCESS_REMOTE_ATOMIC)
#define PDN_TOO_BIG	(MLX5_UMR_PDN_MAX + 1)
#define KLM_MAX		BIT_ULL(31)
/* interleaved entry 0 over 1000 cycles spans 520 * 999 + 512 bytes */
#define IL_SPAN		(520ULL * 999 + 512)
#define SIG_CRC		MLX5_UMR_SIG_CRC
#define SIG_NONE	MLX5_UMR_SIG_NONE
#define SIG_COPY	MLX5_UMR_SIG_FLAG_COPY_MASK

static const struct val_row val_rows[] = {
	/* Every request */
	{ 1, "unknown flag bit", V_LIST,
	  { PUT(MLX5_UMR_WR_SET_ACCESS | BIT(7), wr.flags) }, -EOPNOTSUPP },
	{ 1, "unknown flag bit, before rule 2", V_LIST,
	  { PUT(BIT(7), wr.flags), PUT(0, wr.mkey) }, -EOPNOTSUPP },
	{ 1, "a new key with a layout", V_LIST,
	  { PUT(MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_NEW_KEY, wr.flags) }, 0 },
	{ 2, "no mkey", V_LIST, { PUT(0, wr.mkey) }, -EINVAL },
	{ 36, "a list on an indirect mkey, indirect UMR disabled", V_LIST,
	  { PUT(1, caps.umr_indirect_mkey_disabled) }, -EOPNOTSUPP },
	{ 36, "invalidating an indirect mkey, indirect UMR disabled", V_INVAL,
	  { PUT(1, caps.umr_indirect_mkey_disabled) }, -EOPNOTSUPP },
	{ 36, "before rule 3", V_LIST,
	  { PUT(1, caps.umr_indirect_mkey_disabled),
	    PUT(MLX5_UMR_OP_REG_PAGES + 1, wr.op) }, -EOPNOTSUPP },
	{ 36, "pages of a direct mkey, indirect UMR disabled", V_PAGES,
	  { PUT(1, caps.umr_indirect_mkey_disabled) }, 0 },
	{ 3, "unknown op", V_LIST,
	  { PUT(MLX5_UMR_OP_REG_PAGES + 1, wr.op) }, -EINVAL },

	/* CONFIGURE */
	{ 4, "unknown layout", V_LIST,
	  { PUT(MLX5_UMR_LAYOUT_SGT + 1, wr.layout) }, -EINVAL },
	{ 5, "layout NONE, no flag", V_ACCESS, { PUT(0, wr.flags) }, -EINVAL },
	{ 5, "layout NONE, SET_PD alone", V_ACCESS,
	  { PUT(MLX5_UMR_WR_SET_PD, wr.flags) }, 0 },
	{ 5, "layout NONE, NEW_KEY alone", V_ACCESS,
	  { PUT(MLX5_UMR_WR_NEW_KEY, wr.flags) }, 0 },
	{ 6, "layout on a direct mkey", V_LIST, { PUT(1, mkey.direct) },
	  -EINVAL },
	{ 6, "access alone on a direct mkey", V_ACCESS,
	  { PUT(1, mkey.direct) }, 0 },
	{ 7, "every known access bit but atomic", V_ACCESS,
	  { PUT(ACC_NO_ATOMIC, wr.access) }, 0 },
	{ 7, "IBV_ACCESS_MW_BIND", V_ACCESS,
	  { PUT(ACC_NO_ATOMIC | BIT(4), wr.access) }, -EINVAL },
	{ 7, "unknown access bit, not applied", V_ACCESS,
	  { PUT(BIT(4), wr.access), PUT(MLX5_UMR_WR_SET_PD, wr.flags) }, 0 },
	{ 7, "unknown access bit with a layout", V_LIST,
	  { PUT(BIT(31), wr.access) }, -EINVAL },
	{ 8, "atomic without the cap", V_ACCESS,
	  { PUT(MLX5_UMR_ACCESS_REMOTE_ATOMIC, wr.access) }, -EOPNOTSUPP },
	{ 8, "atomic with the cap", V_ACCESS,
	  { PUT(MLX5_UMR_ACCESS_REMOTE_ATOMIC, wr.access),
	    PUT(1, caps.atomic) }, 0 },
	{ 8, "atomic that UMR may not modify", V_ACCESS,
	  { PUT(MLX5_UMR_ACCESS_REMOTE_ATOMIC, wr.access), PUT(1, caps.atomic),
	    PUT(1, caps.umr_modify_atomic_disabled) }, -EOPNOTSUPP },
	{ 8, "atomic without the cap, with a layout", V_LIST,
	  { PUT(MLX5_UMR_ACCESS_REMOTE_ATOMIC, wr.access) }, -EOPNOTSUPP },
	{ 9, "largest pdn", V_ACCESS,
	  { PUT(MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_PD, wr.flags),
	    PUT(MLX5_UMR_PDN_MAX, wr.pdn) }, 0 },
	{ 9, "pdn over 24 bits", V_ACCESS,
	  { PUT(MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_PD, wr.flags),
	    PUT(PDN_TOO_BIG, wr.pdn) }, -EINVAL },

	/* SGE list */
	{ 10, "no entry", V_LIST, { PUT(0, wr.list.num_sge) }, -EINVAL },
	{ 10, "no array", V_LIST, { PUT(0, wr.list.sge) }, -EINVAL },
	{ 11, "as many as the mkey takes", V_LIST,
	  { PUT(2, mkey.max_entries) }, 0 },
	{ 11, "more than the mkey takes", V_LIST,
	  { PUT(1, mkey.max_entries) }, -ENOMEM },
	{ 11, "more than the device takes", V_LIST,
	  { PUT(1, caps.max_klm_entries) }, -ENOMEM },
	{ 12, "zero length", V_LIST, { PUT(0, sge[1].length) }, -EINVAL },
	{ 12, "2 GiB", V_LIST, { PUT(KLM_MAX, sge[1].length) }, 0 },
	{ 12, "over 2 GiB", V_LIST, { PUT(KLM_MAX + 1, sge[1].length) },
	  -EINVAL },
	{ 13, "ends at 2^64", V_LIST, { PUT(0ULL - 4096, sge[1].addr) }, 0 },
	{ 13, "wraps", V_LIST, { PUT(0ULL - 4095, sge[1].addr) }, -EOVERFLOW },
	{ 35, "first key is the repeat block op", V_LIST,
	  { PUT(MLX5_STRIDE_BLOCK_OP, sge[0].key) }, -EINVAL },
	{ 35, "first key one above the op", V_LIST,
	  { PUT(MLX5_STRIDE_BLOCK_OP + 1, sge[0].key) }, 0 },
	{ 35, "the op's key as a later entry", V_LIST,
	  { PUT(MLX5_STRIDE_BLOCK_OP, sge[1].key) }, 0 },
	{ 35, "after rule 13 on a later entry", V_LIST,
	  { PUT(MLX5_STRIDE_BLOCK_OP, sge[0].key),
	    PUT(0ULL - 4095, sge[1].addr) }, -EOVERFLOW },
	{ 35, "the op's key in an interleaved entry", V_IL,
	  { PUT(MLX5_STRIDE_BLOCK_OP, il[0].key) }, 0 },

	/* Interleaved */
	{ 14, "no entry", V_IL, { PUT(0, wr.interleaved.num_entries) },
	  -EINVAL },
	{ 14, "no array", V_IL, { PUT(0, wr.interleaved.ent) }, -EINVAL },
	{ 15, "as many as the mkey was made for", V_IL,
	  { PUT(2, mkey.max_entries) }, 0 },
	{ 15, "more than the mkey was made for", V_IL,
	  { PUT(1, mkey.max_entries) }, -ENOMEM },
	{ 15, "the header's entry within the device's", V_IL,
	  { PUT(3, caps.max_klm_entries) }, 0 },
	{ 15, "the header's entry beyond the device's", V_IL,
	  { PUT(2, caps.max_klm_entries) }, -ENOMEM },
	{ 16, "no cycle", V_IL, { PUT(0, wr.interleaved.repeat_count) },
	  -EINVAL },
	{ 17, "zero bytes_count", V_IL, { PUT(0, il[1].bytes_count) },
	  -EINVAL },
	{ 18, "stride 65535", V_IL,
	  { PUT(65000, il[0].bytes_count), PUT(535, il[0].bytes_skip) }, 0 },
	{ 18, "stride 65536", V_IL,
	  { PUT(65000, il[0].bytes_count), PUT(536, il[0].bytes_skip) },
	  -EINVAL },
	{ 18, "bcount 65536", V_IL,
	  { PUT(65536, il[0].bytes_count), PUT(0, il[0].bytes_skip) },
	  -EINVAL },
	{ 18, "stride wrapping 32 bits", V_IL,
	  { PUT(U32_MAX, il[0].bytes_count), PUT(2, il[0].bytes_skip) },
	  -EINVAL },
	{ 19, "last cycle ends at 2^64", V_IL,
	  { PUT(1000, wr.interleaved.repeat_count),
	    PUT(0ULL - IL_SPAN, il[0].addr) }, 0 },
	{ 19, "last cycle wraps", V_IL,
	  { PUT(1000, wr.interleaved.repeat_count),
	    PUT(0ULL - IL_SPAN + 1, il[0].addr) }, -EOVERFLOW },
	{ 19, "2^32 - 1 cycles from 2^64 - 2^40", V_IL,
	  { PUT(U32_MAX, wr.interleaved.repeat_count),
	    PUT(0xffffff0000000000ULL, il[1].addr) }, -EOVERFLOW },

	/* Scatterlist */
	{ 20, "no entry", V_SGT, { PUT(0, wr.sgt.nents) }, -EINVAL },
	{ 20, "no list", V_SGT, { PUT(0, wr.sgt.sgl) }, -EINVAL },
	{ 20, "no byte", V_SGT, { PUT(0, wr.sgt.length) }, -EINVAL },
	{ 37, "the mkey's DMA key", V_SGT, { PUT(0, wr.sgt.lkey) }, 0 },
	{ 37, "a PD without a DMA key", V_SGT, { PUT(0, mkey.dma_lkey) },
	  -EINVAL },
	{ 37, "a key given, the PD has none", V_SGT,
	  { PUT(0, mkey.dma_lkey), PUT(0x7ff, wr.sgt.lkey) }, 0 },
	{ 37, "SET_PD without a key", V_SGT,
	  { PUT(MLX5_UMR_WR_SET_PD, wr.flags) }, -EINVAL },
	{ 37, "SET_PD with the new PD's key", V_SGT,
	  { PUT(MLX5_UMR_WR_SET_PD, wr.flags), PUT(0x7ff, wr.sgt.lkey) }, 0 },
	{ 21, "KLMs used as many as the mkey takes", V_SGT,
	  { PUT(3, mkey.max_entries) }, 0 },
	{ 21, "KLMs used more than the mkey takes", V_SGT,
	  { PUT(2, mkey.max_entries) }, -ENOMEM },
	{ 21, "nents beyond the mkey, KLMs used within", V_SGT,
	  { PUT(2, mkey.max_entries), PUT(2 * 4096, wr.sgt.length) }, 0 },
	{ 22, "a used entry of zero length", V_SGT, { PUT(0, sg_len[1]) },
	  -EINVAL },
	{ 22, "an unused entry of zero length", V_SGT, { PUT(0, sg_len[3]) },
	  0 },
	{ 22, "over 2 GiB mapped, less used", V_SGT,
	  { PUT(KLM_MAX + 1, sg_len[1]) }, 0 },
	{ 22, "2 GiB used", V_SGT,
	  { PUT(KLM_MAX + 1, sg_len[1]), PUT(4096 + KLM_MAX, wr.sgt.length) },
	  0 },
	{ 22, "over 2 GiB used", V_SGT,
	  { PUT(KLM_MAX + 1, sg_len[1]),
	    PUT(4096 + KLM_MAX + 1, wr.sgt.length) }, -EINVAL },
	{ 23, "every mapped byte", V_SGT, { PUT(4 * 4096, wr.sgt.length) },
	  0 },
	{ 23, "more than the mapped bytes", V_SGT,
	  { PUT(4 * 4096 + 1, wr.sgt.length) }, -EINVAL },
	{ 23, "more than the nents entries map", V_SGT,
	  { PUT(2 * 4096, wr.sgt.length), PUT(1, wr.sgt.nents) }, -EINVAL },

	/* INVALIDATE */
	{ 24, "a direct mkey", V_INVAL, { PUT(1, mkey.direct) }, 0 },
	{ 24, "SET_ACCESS", V_INVAL, { PUT(MLX5_UMR_WR_SET_ACCESS, wr.flags) },
	  -EINVAL },
	{ 24, "SET_PD", V_INVAL, { PUT(MLX5_UMR_WR_SET_PD, wr.flags) },
	  -EINVAL },
	{ 24, "a layout", V_INVAL, { PUT(MLX5_UMR_LAYOUT_LIST, wr.layout) },
	  -EINVAL },
	{ 24, "NEW_KEY", V_INVAL, { PUT(MLX5_UMR_WR_NEW_KEY, wr.flags) }, 0 },

	/* REG_PAGES */
	{ 25, "an indirect mkey", V_PAGES, { PUT(0, mkey.direct) }, -EINVAL },
	{ 25, "a layout", V_PAGES, { PUT(MLX5_UMR_LAYOUT_LIST, wr.layout) },
	  -EINVAL },
	{ 26, "PAGE_SIZE not modifiable", V_PAGES,
	  { PUT(1, caps.umr_modify_entity_size_disabled) }, -EOPNOTSUPP },
	{ 27, "unknown access bit, always applied", V_PAGES,
	  { PUT(BIT(5), wr.access) }, -EINVAL },
	{ 27, "atomic without the cap", V_PAGES,
	  { PUT(MLX5_UMR_ACCESS_REMOTE_ATOMIC, wr.access) }, -EOPNOTSUPP },
	{ 28, "pdn over 24 bits", V_PAGES,
	  { PUT(MLX5_UMR_WR_SET_PD, wr.flags), PUT(PDN_TOO_BIG, wr.pdn) },
	  -EINVAL },
	{ 29, "no page", V_PAGES, { PUT(0, wr.pages.npages) }, -EINVAL },
	{ 29, "no array", V_PAGES, { PUT(0, wr.pages.addrs) }, -EINVAL },
	{ 29, "no byte", V_PAGES, { PUT(0, wr.pages.length) }, -EINVAL },
	{ 30, "as many pages as the mkey takes", V_PAGES,
	  { PUT(3, mkey.max_entries) }, 0 },
	{ 30, "more pages than the mkey takes", V_PAGES,
	  { PUT(2, mkey.max_entries) }, -ENOMEM },
	{ 31, "offset not iova's", V_PAGES, { PUT(0x200, wr.pages.offset) },
	  -EINVAL },
	{ 31, "offset a page too far", V_PAGES,
	  { PUT(0x100 + PAGE_SIZE, wr.pages.offset) }, -EINVAL },
	{ 32, "ends at 2^64", V_PAGES,
	  { PUT(0ULL - PAGE_SIZE + 0x100, wr.pages.iova),
	    PUT(PAGE_SIZE - 0x100, wr.pages.length) }, 0 },
	{ 32, "wraps", V_PAGES,
	  { PUT(0ULL - PAGE_SIZE + 0x100, wr.pages.iova),
	    PUT(PAGE_SIZE - 0x100 + 1, wr.pages.length) }, -EOVERFLOW },
	{ 33, "a byte more than the pages", V_PAGES,
	  { PUT(3 * PAGE_SIZE - 0x100 + 1, wr.pages.length) }, -EINVAL },
	{ 34, "a page address not aligned", V_PAGES,
	  { PUT(0x40000000ULL + 2 * PAGE_SIZE + 8, pages[2]) }, -EINVAL },

	/* Block signature (rules.h, rules.c) */
	{ 1, "SET_SIG and RESET_SIG are known flags", V_SIG,
	  { PUT(MLX5_UMR_WR_SET_SIG | MLX5_UMR_WR_RESET_SIG, wr.flags) }, 0 },
	{ 38, "SET_SIG on an mkey without signature", V_SIG,
	  { PUT(0, mkey.flags) }, -EINVAL },
	{ 38, "RESET_SIG on an mkey without signature", V_ACCESS,
	  { PUT(MLX5_UMR_WR_RESET_SIG, wr.flags) }, -EINVAL },
	{ 38, "RESET_SIG alone on a signature mkey", V_SIG,
	  { PUT(MLX5_UMR_WR_RESET_SIG, wr.flags),
	    PUT(MLX5_UMR_LAYOUT_NONE, wr.layout) }, 0 },
	{ 39, "RESET_SIG on a page registration", V_PAGES,
	  { PUT(MLX5_UMR_MKEY_SIGNATURE, mkey.flags),
	    PUT(MLX5_UMR_WR_RESET_SIG, wr.flags) }, -EINVAL },
	{ 39, "RESET_SIG on an invalidation", V_INVAL,
	  { PUT(MLX5_UMR_MKEY_SIGNATURE, mkey.flags),
	    PUT(MLX5_UMR_WR_RESET_SIG, wr.flags) }, -EINVAL },
	{ 40, "SET_SIG without attributes", V_SIG, { PUT(0, wr.sig) },
	  -EINVAL },
	{ 40, "SET_SIG alone, no layout", V_SIG,
	  { PUT(MLX5_UMR_WR_SET_SIG, wr.flags),
	    PUT(MLX5_UMR_LAYOUT_NONE, wr.layout) }, 0 },
	{ 41, "unknown attribute flag", V_SIG, { PUT(BIT(1), sig.flags) },
	  -EINVAL },
	{ 42, "unknown memory type", V_SIG,
	  { PUT(SIG_CRC + 1, sig.mem.sig_type) }, -EINVAL },
	{ 42, "unknown wire type", V_SIG,
	  { PUT(SIG_CRC + 1, sig.wire.sig_type) }, -EINVAL },
	{ 43, "no domain with a signature", V_SIG,
	  { PUT(SIG_NONE, sig.mem.sig_type), PUT(SIG_NONE, sig.wire.sig_type) },
	  -EINVAL },
	{ 43, "a wire signature alone", V_SIG,
	  { PUT(SIG_NONE, sig.mem.sig_type) }, 0 },
	{ 44, "block size 4160", V_SIG,
	  { PUT(MLX5_UMR_SIG_BLOCK_4160, sig.mem.block_size) }, 0 },
	{ 44, "unknown block size", V_SIG,
	  { PUT(MLX5_UMR_SIG_BLOCK_4160 + 1, sig.wire.block_size) }, -EINVAL },
	{ 44, "unknown block size of a domain without signature", V_SIG,
	  { PUT(SIG_NONE, sig.mem.sig_type), PUT(99, sig.mem.block_size) }, 0 },
	{ 45, "IP checksum guard", V_SIG,
	  { PUT(MLX5_UMR_SIG_T10DIF_CSUM, sig.mem.dif.bg_type) }, 0 },
	{ 45, "unknown guard type", V_SIG,
	  { PUT(MLX5_UMR_SIG_T10DIF_CSUM + 1, sig.mem.dif.bg_type) }, -EINVAL },
	{ 46, "guard seed 0", V_SIG, { PUT(0, sig.wire.dif.bg) }, 0 },
	{ 46, "guard seed neither 0 nor 0xffff", V_SIG,
	  { PUT(0xfffe, sig.wire.dif.bg) }, -EINVAL },
	{ 47, "every T10 DIF flag", V_SIG,
	  { PUT(MLX5_UMR_SIG_T10DIF_FLAGS, sig.mem.dif.flags) }, 0 },
	{ 47, "unknown T10 DIF flag", V_SIG, { PUT(BIT(3), sig.mem.dif.flags) },
	  -EINVAL },
	{ 48, "unknown CRC type", V_SIG,
	  { PUT(SIG_CRC, sig.mem.sig_type),
	    PUT(MLX5_UMR_SIG_CRC64_XP10 + 1, sig.mem.crc.type),
	    PUT(0, sig.mem.crc.seed) }, -EINVAL },
	{ 49, "CRC32C seed all ones", V_SIG,
	  { PUT(SIG_CRC, sig.mem.sig_type),
	    PUT(MLX5_UMR_SIG_CRC32C, sig.mem.crc.type),
	    PUT(U32_MAX, sig.mem.crc.seed) }, 0 },
	{ 49, "CRC32 seed 1", V_SIG,
	  { PUT(SIG_CRC, sig.mem.sig_type),
	    PUT(MLX5_UMR_SIG_CRC32, sig.mem.crc.type),
	    PUT(1, sig.mem.crc.seed) }, -EINVAL },
	{ 49, "CRC32 seed of 64 ones", V_SIG,
	  { PUT(SIG_CRC, sig.mem.sig_type),
	    PUT(MLX5_UMR_SIG_CRC32, sig.mem.crc.type),
	    PUT(U64_MAX, sig.mem.crc.seed) }, -EINVAL },
	{ 49, "CRC64_XP10 seed of 32 ones", V_SIG,
	  { PUT(SIG_CRC, sig.wire.sig_type),
	    PUT(MLX5_UMR_SIG_CRC64_XP10, sig.wire.crc.type),
	    PUT(U32_MAX, sig.wire.crc.seed) }, -EINVAL },
	{ 49, "CRC64_XP10 seed of 64 ones", V_SIG,
	  { PUT(SIG_CRC, sig.wire.sig_type),
	    PUT(MLX5_UMR_SIG_CRC64_XP10, sig.wire.crc.type),
	    PUT(U64_MAX, sig.wire.crc.seed) }, 0 },
	{ 50, "copy mask, same block structure", V_SIG,
	  { PUT(SIG_COPY, sig.flags), PUT(0x30, sig.copy_mask) }, 0 },
	{ 50, "copy mask, other block sizes", V_SIG,
	  { PUT(SIG_COPY, sig.flags),
	    PUT(MLX5_UMR_SIG_BLOCK_4096, sig.wire.block_size) }, -EINVAL },
	{ 50, "copy mask, no wire signature", V_SIG,
	  { PUT(SIG_COPY, sig.flags), PUT(SIG_NONE, sig.wire.sig_type) },
	  -EINVAL },
	{ 50, "copy mask, T10 DIF to CRC", V_SIG,
	  { PUT(SIG_COPY, sig.flags), PUT(SIG_CRC, sig.wire.sig_type),
	    PUT(0, sig.wire.crc.seed) }, -EINVAL },
	{ 51, "translation and BSF fill the inline room", V_SIG,
	  { PUT(8, caps.max_inline_entries) }, 0 },
	{ 51, "no inline room for the BSF", V_SIG,
	  { PUT(7, caps.max_inline_entries) }, -ENOMEM },
	{ 52, "2^32 - 1 bytes", V_SIG,
	  { PUT(KLM_MAX, sge[0].length), PUT(KLM_MAX - 1, sge[1].length) }, 0 },
	{ 52, "2^32 bytes", V_SIG,
	  { PUT(KLM_MAX, sge[0].length), PUT(KLM_MAX, sge[1].length) },
	  -EINVAL },
	{ 52, "an interleaved layout of 2^35 bytes", V_SIG,
	  { PUT(MLX5_UMR_LAYOUT_INTERLEAVED, wr.layout),
	    PUT(1, wr.interleaved.num_entries),
	    PUT(1ULL << 23, wr.interleaved.repeat_count) }, -EINVAL },
};

static void val_row_desc(const struct val_row *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "rule %u: %s", r->rule, r->what);
}

KUNIT_ARRAY_PARAM(val_rule, val_rows, val_row_desc);

static void vt_set(struct vt *v, const struct val_set *f)
{
	void *p = (u8 *)v + f->off;

	switch (f->size) {
	case 1:
		*(u8 *)p = f->val;
		break;
	case 2:
		*(u16 *)p = f->val;
		break;
	case 4:
		*(u32 *)p = f->val;
		break;
	case 8:
		*(u64 *)p = f->val;
		break;
	default:
		KUNIT_FAIL(v->test, "field of %u bytes at %u", f->size, f->off);
	}
}

/* One row: the request passes, then the row's changes give its errno. */
static void val_rule(struct kunit *test)
{
	const struct val_row *r = test->param_value;
	struct vt *v = vt_new(test);
	unsigned int i;

	base(test, v, r->kind);
	for (i = 0; i < ARRAY_SIZE(r->set) && r->set[i].size; i++)
		vt_set(v, &r->set[i]);
	expect_paths(v, r->err);
}

/* The table has a failing row for every numbered rule. */
static void val_every_rule(struct kunit *test)
{
	DECLARE_BITMAP(seen, VAL_RULES + 1) = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(val_rows); i++) {
		KUNIT_EXPECT_GE(test, val_rows[i].rule, 1);
		KUNIT_EXPECT_LE(test, val_rows[i].rule, VAL_RULES);
		if (val_rows[i].err && val_rows[i].rule <= VAL_RULES)
			__set_bit(val_rows[i].rule, seen);
	}
	for (i = 1; i <= VAL_RULES; i++)
		KUNIT_EXPECT_TRUE_MSG(test, test_bit(i, seen),
				      "rule %u has no failing row", i);
}

/*
 * Rules 11, 15 and 30 at the WQE's limit: one WQE describes at most
 * U16_MAX octowords of 64-byte-padded entries.
 */
static void val_xlt_limit(struct kunit *test)
{
	const u32 max_klms = 65532, max_mtts = 131064;
	struct vt *v = vt_new(test);
	struct mlx5_umr_interleaved *il;
	struct mlx5_umr_sge *sge;
	dma_addr_t *pages;
	u32 i;

	/* kunit-managed: a failed ASSERT must not leak them */
	sge = kunit_kcalloc(test, max_klms + 1, sizeof(*sge), GFP_KERNEL);
	il = kunit_kcalloc(test, max_klms, sizeof(*il), GFP_KERNEL);
	pages = kunit_kcalloc(test, max_mtts + 1, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sge);
	KUNIT_ASSERT_NOT_NULL(test, il);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i <= max_klms; i++) {
		sge[i].addr = i * 0x1000ULL;
		sge[i].length = 16;
	}
	for (i = 0; i < max_klms; i++) {
		il[i].addr = i * 0x1000ULL;
		il[i].bytes_count = U16_MAX;
	}
	for (i = 0; i <= max_mtts; i++)
		pages[i] = (u64)i << PAGE_SHIFT;

	base(test, v, V_LIST);
	v->caps.max_klm_entries = 1 << 20;
	v->mkey.max_entries = 1 << 20;
	v->wr.list.sge = sge;
	v->wr.list.num_sge = max_klms;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->wr.list.num_sge++;
	KUNIT_EXPECT_EQ(test, check(v), -ENOMEM);

	/* the largest interleaved cycle still fits bcount_per_cycle */
	base(test, v, V_IL);
	v->caps.max_klm_entries = 1 << 20;
	v->mkey.max_entries = 1 << 20;
	v->wr.interleaved.ent = il;
	v->wr.interleaved.num_entries = max_klms - 1;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->wr.interleaved.num_entries++;
	KUNIT_EXPECT_EQ(test, check(v), -ENOMEM);

	base(test, v, V_PAGES);
	v->mkey.max_entries = 1 << 20;
	v->wr.pages.addrs = pages;
	v->wr.pages.iova = 0;
	v->wr.pages.offset = 0;
	v->wr.pages.npages = max_mtts;
	v->wr.pages.length = (u64)max_mtts << PAGE_SHIFT;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->wr.pages.npages++;
	KUNIT_EXPECT_EQ(test, check(v), -ENOMEM);
}

static struct kunit_case val_cases[] = {
	KUNIT_CASE_PARAM(val_rule, val_rule_gen_params),
	KUNIT_CASE(val_every_rule),
	KUNIT_CASE(val_xlt_limit),
	{}
};

static struct kunit_suite val_suite = {
	.name = "mlx5_umr_validate",
	.test_cases = val_cases,
};

kunit_test_suite(val_suite);

MODULE_DESCRIPTION("KUnit tests of mlx5-umr request validation");
MODULE_LICENSE("Dual BSD/GPL");
