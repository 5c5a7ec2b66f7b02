// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: every rule of mlx5_umr_wr_check() and its errno
 * (Documentation/validation.rst), with the boundary that still passes.
 *
 * Each case starts from a valid request of one kind, checks that it
 * passes, breaks one thing and checks the errno. Every check also runs the
 * request through the submission path's split of the same rules
 * (mlx5_umr_wr_prepare(), then mlx5_umr_wqe_encode() for the rules on each
 * entry) and expects the same errno, or the WQE's size when it passes.
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

enum vkind { V_LIST, V_IL, V_SGT, V_ACCESS, V_INVAL, V_PAGES };

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
	struct scatterlist sgl[VN];
	dma_addr_t pages[VN];
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
	}
	sg_init_table(v->sgl, VN);
	for (i = 0; i < VN; i++) {
		sg_dma_address(&v->sgl[i]) = 0x10000000ULL + i * 0x10000;
		sg_dma_len(&v->sgl[i]) = 4096;
	}

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
	const struct mlx5_umr_wqe_ctx ctx = { .caps = &v->caps, .qpn = 0x42 };
	const struct mlx5_umr_xlt xlt = {
		.cpu = v->xlt,
		.dma = 0x1000000,
		.size = MLX5_UMR_XLT_MAX_BYTES,
	};

	return mlx5_umr_wqe_encode(&ctx, &v->wr, &xlt, 0, 0, v->wqe, size);
}

/* The errno of mlx5_umr_wr_check(), which the submission path must agree on. */
static int check(struct vt *v)
{
	int err = mlx5_umr_wr_check(&v->caps, &v->wr);
	int size = mlx5_umr_wr_prepare(&v->caps, &v->wr);

	if (size < 0)
		KUNIT_EXPECT_EQ(v->test, size, err);
	else
		KUNIT_EXPECT_EQ(v->test, encode(v, size), err ? err : size);
	return err;
}

/* Reset to a valid request of @kind, which must pass. */
static void base(struct kunit *test, struct vt *v, enum vkind kind)
{
	vt_reset(v, kind);
	KUNIT_ASSERT_EQ(test, check(v), 0);
}

static void val_common(struct kunit *test)
{
	struct vt *v = vt_new(test);

	/* unknown flag bits, before anything else (check_comp_mask) */
	base(test, v, V_LIST);
	v->wr.flags |= BIT(2);
	KUNIT_EXPECT_EQ(test, check(v), -EOPNOTSUPP);
	v->wr.mkey = NULL;
	KUNIT_EXPECT_EQ(test, check(v), -EOPNOTSUPP);

	base(test, v, V_LIST);
	v->wr.mkey = NULL;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	base(test, v, V_LIST);
	v->wr.op = MLX5_UMR_OP_REG_PAGES + 1;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
}

static void val_configure(struct kunit *test)
{
	struct vt *v = vt_new(test);

	base(test, v, V_LIST);
	v->wr.layout = MLX5_UMR_LAYOUT_SGT + 1;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	/* nothing to do */
	base(test, v, V_ACCESS);
	v->wr.flags = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	v->wr.flags = MLX5_UMR_WR_SET_PD;
	KUNIT_EXPECT_EQ(test, check(v), 0);

	/* a layout needs an indirect mkey; access alone is fine on MTT */
	base(test, v, V_LIST);
	v->mkey.direct = true;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_ACCESS);
	v->mkey.direct = true;
	KUNIT_EXPECT_EQ(test, check(v), 0);
}

static void val_access_pd(struct kunit *test)
{
	struct vt *v = vt_new(test);

	base(test, v, V_ACCESS);
	v->wr.access = MLX5_UMR_ACCESS_ALL & ~MLX5_UMR_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->wr.access |= BIT(4);		/* IBV_ACCESS_MW_BIND */
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	/* not applied, not checked */
	v->wr.flags = MLX5_UMR_WR_SET_PD;
	KUNIT_EXPECT_EQ(test, check(v), 0);

	base(test, v, V_ACCESS);
	v->wr.access = MLX5_UMR_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, check(v), -EOPNOTSUPP);
	v->caps.atomic = true;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	/* ... and UMR must be allowed to modify it */
	v->caps.umr_modify_atomic_disabled = true;
	KUNIT_EXPECT_EQ(test, check(v), -EOPNOTSUPP);

	/* the same rules with a layout */
	base(test, v, V_LIST);
	v->wr.access = MLX5_UMR_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, check(v), -EOPNOTSUPP);
	v->wr.access = BIT(31);
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	/* mkc.pd is 24 bits */
	base(test, v, V_ACCESS);
	v->wr.flags |= MLX5_UMR_WR_SET_PD;
	v->wr.pdn = 0xffffff;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->wr.pdn = 0x1000000;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
}

static void val_list(struct kunit *test)
{
	struct vt *v = vt_new(test);

	base(test, v, V_LIST);
	v->wr.list.num_sge = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_LIST);
	v->wr.list.sge = NULL;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	/* capacity: the mkey ... */
	base(test, v, V_LIST);
	v->mkey.max_entries = 2;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->mkey.max_entries = 1;
	KUNIT_EXPECT_EQ(test, check(v), -ENOMEM);
	/* ... and the device */
	base(test, v, V_LIST);
	v->caps.max_klm_entries = 1;
	KUNIT_EXPECT_EQ(test, check(v), -ENOMEM);

	base(test, v, V_LIST);
	v->sge[1].length = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	/* a KLM covers at most 2 GiB (rdma-core mlx5_wqe_umr_klm_seg) */
	base(test, v, V_LIST);
	v->sge[1].length = 1U << 31;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->sge[1].length++;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	/* an entry may end at 2^64 but not wrap */
	base(test, v, V_LIST);
	v->sge[1].addr = 0ULL - 4096;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->sge[1].addr++;
	KUNIT_EXPECT_EQ(test, check(v), -EOVERFLOW);
}

static void val_interleaved(struct kunit *test)
{
	struct vt *v = vt_new(test);

	base(test, v, V_IL);
	v->wr.interleaved.num_entries = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_IL);
	v->wr.interleaved.ent = NULL;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	/*
	 * The mkey was sized for max_entries + 1 by its allocation; the
	 * header still takes one entry of the device's and the WQE's limit.
	 */
	base(test, v, V_IL);
	v->mkey.max_entries = 2;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->mkey.max_entries = 1;
	KUNIT_EXPECT_EQ(test, check(v), -ENOMEM);
	base(test, v, V_IL);
	v->caps.max_klm_entries = 3;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->caps.max_klm_entries = 2;
	KUNIT_EXPECT_EQ(test, check(v), -ENOMEM);

	base(test, v, V_IL);
	v->wr.interleaved.repeat_count = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	base(test, v, V_IL);
	v->il[1].bytes_count = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	/* 16-bit stride = bytes_count + bytes_skip, and bcount */
	base(test, v, V_IL);
	v->il[0].bytes_count = 65000;
	v->il[0].bytes_skip = 535;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->il[0].bytes_skip = 536;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	v->il[0].bytes_count = 65536;
	v->il[0].bytes_skip = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	/* a sum that wraps 32 bits to a small stride is still caught */
	v->il[0].bytes_count = 0xffffffff;
	v->il[0].bytes_skip = 2;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	/* the last cycle of an entry must not wrap the address space */
	base(test, v, V_IL);
	v->wr.interleaved.repeat_count = 1000;
	/* entry 0 spans 520 * 999 + 512 bytes */
	v->il[0].addr = 0ULL - (520ULL * 999 + 512);
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->il[0].addr++;
	KUNIT_EXPECT_EQ(test, check(v), -EOVERFLOW);
	v->il[0].addr = 0x1000;
	v->wr.interleaved.repeat_count = U32_MAX;
	v->il[1].addr = 0xffffff0000000000ULL;	/* 2^64 - 2^40 */
	KUNIT_EXPECT_EQ(test, check(v), -EOVERFLOW);
}

static void val_sgt(struct kunit *test)
{
	struct vt *v = vt_new(test);

	base(test, v, V_SGT);
	v->wr.sgt.nents = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_SGT);
	v->wr.sgt.sgl = NULL;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_SGT);
	v->wr.sgt.length = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	base(test, v, V_SGT);
	sg_dma_len(&v->sgl[1]) = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	/* a used entry covers at most 2 GiB, counted up to the length */
	base(test, v, V_SGT);
	sg_dma_len(&v->sgl[1]) = (1U << 31) + 1;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->wr.sgt.length = 4096 + (1ULL << 31) + 1;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	v->wr.sgt.length--;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	/* an empty entry past the length is not looked at */
	base(test, v, V_SGT);
	sg_dma_len(&v->sgl[3]) = 0;
	KUNIT_EXPECT_EQ(test, check(v), 0);

	/* the length must not exceed the mapped bytes */
	base(test, v, V_SGT);
	v->wr.sgt.length = 4 * 4096;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->wr.sgt.length++;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	v->wr.sgt.length = 2 * 4096;
	v->wr.sgt.nents = 1;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	/* capacity counts the entries used, not nents */
	base(test, v, V_SGT);
	v->mkey.max_entries = 3;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->mkey.max_entries = 2;
	KUNIT_EXPECT_EQ(test, check(v), -ENOMEM);
	v->wr.sgt.length = 2 * 4096;
	KUNIT_EXPECT_EQ(test, check(v), 0);
}

static void val_invalidate(struct kunit *test)
{
	struct vt *v = vt_new(test);

	base(test, v, V_INVAL);
	v->mkey.direct = true;
	KUNIT_EXPECT_EQ(test, check(v), 0);

	base(test, v, V_INVAL);
	v->wr.flags = MLX5_UMR_WR_SET_ACCESS;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_INVAL);
	v->wr.flags = MLX5_UMR_WR_SET_PD;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_INVAL);
	v->wr.layout = MLX5_UMR_LAYOUT_LIST;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
}

static void val_reg_pages(struct kunit *test)
{
	struct vt *v = vt_new(test);

	base(test, v, V_PAGES);
	v->mkey.direct = false;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_PAGES);
	v->wr.layout = MLX5_UMR_LAYOUT_LIST;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	base(test, v, V_PAGES);
	v->caps.umr_modify_entity_size_disabled = true;
	KUNIT_EXPECT_EQ(test, check(v), -EOPNOTSUPP);

	/* access is always applied, so always checked */
	base(test, v, V_PAGES);
	v->wr.access = BIT(5);
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	v->wr.access = MLX5_UMR_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, check(v), -EOPNOTSUPP);

	base(test, v, V_PAGES);
	v->wr.flags = MLX5_UMR_WR_SET_PD;
	v->wr.pdn = 0x1000000;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	base(test, v, V_PAGES);
	v->wr.pages.npages = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_PAGES);
	v->wr.pages.addrs = NULL;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	base(test, v, V_PAGES);
	v->wr.pages.length = 0;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	base(test, v, V_PAGES);
	v->mkey.max_entries = 3;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->mkey.max_entries = 2;
	KUNIT_EXPECT_EQ(test, check(v), -ENOMEM);

	/* the first page's offset is iova's offset in its page */
	base(test, v, V_PAGES);
	v->wr.pages.offset = 0x200;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
	v->wr.pages.offset = 0x100 + PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	base(test, v, V_PAGES);
	v->wr.pages.iova = 0ULL - PAGE_SIZE + 0x100;
	v->wr.pages.length = PAGE_SIZE - 0x100;
	KUNIT_EXPECT_EQ(test, check(v), 0);
	v->wr.pages.length++;
	KUNIT_EXPECT_EQ(test, check(v), -EOVERFLOW);

	/* the pages must cover offset + length */
	base(test, v, V_PAGES);
	v->wr.pages.length++;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);

	base(test, v, V_PAGES);
	v->pages[2] += 8;
	KUNIT_EXPECT_EQ(test, check(v), -EINVAL);
}

/* One WQE describes at most U16_MAX octowords of 64-byte-padded entries. */
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
	KUNIT_CASE(val_common),
	KUNIT_CASE(val_configure),
	KUNIT_CASE(val_access_pd),
	KUNIT_CASE(val_list),
	KUNIT_CASE(val_interleaved),
	KUNIT_CASE(val_sgt),
	KUNIT_CASE(val_invalidate),
	KUNIT_CASE(val_reg_pages),
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
