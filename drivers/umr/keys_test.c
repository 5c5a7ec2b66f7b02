// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: KUnit tests of the keys the service hands out, against the
 * fake HCA: no key reads as a repeat block header, key rotation, and the
 * caps that decide what a UMR may do (fence, indirect mkeys disabled).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>
#include <linux/mlx5_umr_hca.h>

#include "umr.h"
#include "key_rotate.h"
#include "umr_kunit.h"

#define KT_IOVA 0x100000ULL
#define KT_ACC (MLX5_UMR_ACCESS_LOCAL_WRITE | MLX5_UMR_ACCESS_REMOTE_READ | \
		MLX5_UMR_ACCESS_REMOTE_WRITE)

struct kt_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct page *page;
	dma_addr_t dma;
	struct sg_table sgt;
	struct mlx5_umr_mkey *mr;	/* one registered page at KT_IOVA */
};

static struct mlx5_umr_fake *kt_fake(struct kunit *test, u8 fence,
				     bool indirect_disabled)
{
	struct mlx5_umr_fake_attr attr;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_SYNC;
	attr.caps.umr_fence = fence;
	attr.caps.umr_indirect_mkey_disabled = indirect_disabled;
	return umr_kunit_fake_registered_attr(test, &attr);
}

/* One zeroed page, registered as an MTT mkey at KT_IOVA. */
static void kt_mr(struct kunit *test, struct kt_ctx *c)
{
	struct mlx5_umr_wr wr = {};

	c->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, c->page);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&c->sgt, 1, GFP_KERNEL), 0);
	sg_set_page(c->sgt.sgl, c->page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(c->dev, &c->sgt,
						  DMA_BIDIRECTIONAL), 0);
	c->dma = sg_dma_address(c->sgt.sgl);
	c->mr = mlx5_umr_alloc_mtt_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->mr));
	wr.mkey = c->mr;
	wr.op = MLX5_UMR_OP_REG_PAGES;
	wr.access = KT_ACC;
	wr.pages.addrs = &c->dma;
	wr.pages.npages = 1;
	wr.pages.iova = KT_IOVA;
	wr.pages.length = PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_ASSERT_EQ(test, wr.status, 0);
}

static int kt_init(struct kunit *test)
{
	struct kt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	test->priv = c;
	c->fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	c->dev = umr_kunit_fake_umr(c->fake);
	kt_mr(test, c);
	return 0;
}

static void kt_exit(struct kunit *test)
{
	struct kt_ctx *c = test->priv;

	if (!c || !c->fake)
		return;
	if (c->mr && !IS_ERR(c->mr))
		mlx5_umr_free_mkey(c->mr);
	if (c->sgt.sgl) {
		mlx5_umr_dma_unmap_sg(c->dev, &c->sgt, DMA_BIDIRECTIONAL);
		sg_free_table(&c->sgt);
	}
	if (c->page)
		__free_page(c->page);
	mlx5_umr_fake_destroy(c->fake);
}

static void kt_list(struct mlx5_umr_wr *wr, struct mlx5_umr_mkey *mkey,
		    const struct mlx5_umr_sge *sge, u32 n)
{
	memset(wr, 0, sizeof(*wr));
	wr->mkey = mkey;
	wr->op = MLX5_UMR_OP_CONFIGURE;
	wr->flags = MLX5_UMR_WR_SET_ACCESS;
	wr->access = KT_ACC;
	wr->layout = MLX5_UMR_LAYOUT_LIST;
	wr->list.sge = sge;
	wr->list.num_sge = n;
}

static int kt_xfer(struct kt_ctx *c, u32 key, u8 *buf, bool write)
{
	return mlx5_umr_test_xfer(c->dev, key, 0, buf, 16, write, true);
}

/*
 * The key byte, exhaustively: from every byte (also a foreign 0) the
 * rotation runs through all of 1..255 before it returns, and a new mkey's
 * byte is never 0 and takes every value.
 */
static void kt_key_byte(struct kunit *test)
{
	DECLARE_BITMAP(seen, 256);
	unsigned int start, i;
	u8 b;

	for (start = 0; start <= U8_MAX; start++) {
		bitmap_zero(seen, 256);
		b = start;
		for (i = 1; i <= MLX5_UMR_KEY_PERIOD; i++) {
			b = mlx5_umr_key_next(b);
			KUNIT_ASSERT_NE(test, b, 0);
			/* no byte twice within the period */
			KUNIT_ASSERT_FALSE(test, __test_and_set_bit(b, seen));
		}
		KUNIT_EXPECT_EQ(test, bitmap_weight(seen, 256), 255U);
		/* back at the start after exactly 255 (0 is left at once) */
		if (start)
			KUNIT_EXPECT_EQ(test, b, start);
	}
	bitmap_zero(seen, 256);
	for (i = 0; i < 4096; i++) {
		b = mlx5_umr_key_first();
		KUNIT_ASSERT_NE(test, b, 0);
		__set_bit(b, seen);
	}
	/* 4096 draws of 255 values leave none out but by a 1e-6 chance */
	KUNIT_EXPECT_GE(test, bitmap_weight(seen, 256), 250U);
}

/*
 * Issue 30: rotations of one mkey through the service and the fake never
 * bring back a key of the last 254 layouts (a random byte per rotation
 * gave the key of two layouts before once in 254, one of the last 16 in
 * 6% of rotations); the 255th rotation gives the first key again, and the
 * old key reaches nothing until then.
 */
static void kt_rotate_period(struct kunit *test)
{
	struct kt_ctx *c = test->priv;
	struct mlx5_umr_sge sge = { KT_IOVA, 256, c->mr->key };
	unsigned int i, j, n = 3 * MLX5_UMR_KEY_PERIOD + 7;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	u8 buf[16] = { 1 };
	u32 *keys;

	keys = kunit_kcalloc(test, n + 1, sizeof(*keys), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, keys);
	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	keys[0] = mk->key;
	for (i = 1; i <= n; i++) {
		kt_list(&wr, mk, &sge, 1);
		wr.flags |= MLX5_UMR_WR_NEW_KEY;
		KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
		KUNIT_ASSERT_EQ(test, wr.status, 0);
		keys[i] = mk->key;
		KUNIT_ASSERT_EQ(test, keys[i] >> 8, keys[0] >> 8);
		for (j = i > MLX5_UMR_KEY_PERIOD - 1 ?
			 i - (MLX5_UMR_KEY_PERIOD - 1) : 0; j < i; j++)
			KUNIT_ASSERT_NE_MSG(test, keys[i], keys[j],
					    "rotation %u repeats rotation %u",
					    i, j);
		if (i >= MLX5_UMR_KEY_PERIOD)
			KUNIT_EXPECT_EQ(test, keys[i],
					keys[i - MLX5_UMR_KEY_PERIOD]);
		/* the key of the layout before reaches nothing */
		if (i % 64 == 0)
			KUNIT_EXPECT_EQ(test, kt_xfer(c, keys[i - 1], buf, false),
					MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	}
	mlx5_umr_free_mkey(mk);
}

/*
 * The bug of issue 14: after 256 mkeys a counter gave index 4 the byte 0,
 * key 0x400 = MLX5_STRIDE_BLOCK_OP. No key the service creates can be it.
 */
static void kt_no_rb_op_key(struct kunit *test)
{
	struct kt_ctx *c = test->priv;
	struct mlx5_umr_mkey **mk;
	unsigned int i, n = 300;

	mk = kunit_kcalloc(test, n, sizeof(*mk), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mk);
	KUNIT_EXPECT_NE(test, c->dev->caps.dma_lkey & 0xff, 0U);
	for (i = 0; i < n; i++) {
		mk[i] = mlx5_umr_alloc_mkey(c->dev, 1, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mk[i]));
		KUNIT_EXPECT_NE(test, mk[i]->key & 0xff, 0U);
		KUNIT_EXPECT_NE(test, mk[i]->key, (u32)MLX5_STRIDE_BLOCK_OP);
	}
	for (i = 0; i < n; i++)
		mlx5_umr_free_mkey(mk[i]);
}

/*
 * A list whose first entry names 0x400 (a foreign key: an mkey of index 4
 * and byte 0 that mlx5_ib made) is refused before anything is posted;
 * the same key later in the list is a plain KLM.
 */
static void kt_rb_op_first_entry(struct kunit *test)
{
	struct kt_ctx *c = test->priv;
	struct mlx5_umr_sge sge[2] = {
		{ KT_IOVA, 64, MLX5_STRIDE_BLOCK_OP },
		{ KT_IOVA, 64, c->mr->key },
	};
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	u32 pc;

	mk = mlx5_umr_alloc_mkey(c->dev, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	kt_list(&wr, mk, sge, 2);
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &wr), -EINVAL);
	mlx5_umr_fake_get_counters(c->fake, &before);
	pc = mlx5_umr_dev_q0(c->dev)->sq.pc;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EINVAL);
	mlx5_umr_fake_get_counters(c->fake, &after);
	KUNIT_EXPECT_EQ(test, mlx5_umr_dev_q0(c->dev)->sq.pc, pc);
	KUNIT_EXPECT_EQ(test, after.wqes, before.wqes);
	KUNIT_EXPECT_EQ(test, after.err_cqes, before.err_cqes);

	/* second place: posted, and the fake reads it as a KLM */
	sge[0].key = c->mr->key;
	sge[1].key = MLX5_STRIDE_BLOCK_OP;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &wr), 0);
	mlx5_umr_free_mkey(mk);
}

/* CONFIGURE and INVALIDATE install new key bytes; the old keys die. */
static void kt_rotate(struct kunit *test)
{
	struct kt_ctx *c = test->priv;
	struct mlx5_umr_sge sge = { KT_IOVA, 256, c->mr->key };
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	u8 buf[16] = { 7, 8, 9 };
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	u32 k0, k1, k2;

	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	k0 = mk->key;
	kt_list(&wr, mk, &sge, 1);
	wr.flags |= MLX5_UMR_WR_NEW_KEY;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_ASSERT_EQ(test, wr.status, 0);
	k1 = mk->key;
	KUNIT_EXPECT_EQ(test, wr.new_key, k1);
	KUNIT_EXPECT_EQ(test, k1 >> 8, k0 >> 8);
	KUNIT_EXPECT_NE(test, k1 & 0xff, k0 & 0xff);
	KUNIT_EXPECT_NE(test, k1 & 0xff, 0U);
	/* the HCA's mkey has the new byte; the old key names nothing */
	KUNIT_ASSERT_GT(test, mlx5_umr_fake_query_mkey(c->fake, k1, mkc, NULL,
						       0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, mkey_7_0), k1 & 0xff);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_mkey(c->fake, k0, NULL, NULL,
						       0), -ENOENT);
	/* old key refused like a remote access error, the new one works */
	KUNIT_EXPECT_EQ(test, kt_xfer(c, k0, buf, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, *(u8 *)page_address(c->page), 0);
	KUNIT_EXPECT_EQ(test, kt_xfer(c, k1, buf, true), 0);
	KUNIT_EXPECT_EQ(test, ((u8 *)page_address(c->page))[2], 9);

	/* a configure without the flag keeps the key */
	kt_list(&wr, mk, &sge, 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, wr.status, 0);
	KUNIT_EXPECT_EQ(test, mk->key, k1);

	/* invalidate with a new key: free, and the byte moved on */
	memset(&wr, 0, sizeof(wr));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_INVALIDATE;
	wr.flags = MLX5_UMR_WR_NEW_KEY;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_ASSERT_EQ(test, wr.status, 0);
	k2 = mk->key;
	KUNIT_EXPECT_EQ(test, k2 >> 8, k0 >> 8);
	KUNIT_EXPECT_NE(test, k2 & 0xff, k1 & 0xff);
	KUNIT_ASSERT_GT(test, mlx5_umr_fake_query_mkey(c->fake, k2, mkc, NULL,
						       0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, mkey_7_0), k2 & 0xff);

	/* revived under the new key only */
	kt_list(&wr, mk, &sge, 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, wr.status, 0);
	KUNIT_EXPECT_EQ(test, kt_xfer(c, k1, buf, false),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, kt_xfer(c, k2, buf, false), 0);
	mlx5_umr_free_mkey(mk);
}

static void kt_done(struct mlx5_umr_wr *wr)
{
}

/*
 * A batch refused while it is written into the ring (an entry breaks
 * rule 12) leaves the keys of the requests before it as they were.
 */
static void kt_rotate_rollback(struct kunit *test)
{
	struct kt_ctx *c = test->priv;
	struct mlx5_umr_sge good = { KT_IOVA, 256, c->mr->key };
	struct mlx5_umr_sge bad[2] = {
		{ KT_IOVA, 256, c->mr->key }, { KT_IOVA, 0, c->mr->key },
	};
	struct mlx5_umr_wr wr[2], *wrs[2] = { &wr[0], &wr[1] };
	struct mlx5_umr_mkey *mk;
	u32 k0;

	mk = mlx5_umr_alloc_mkey(c->dev, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	k0 = mk->key;
	kt_list(&wr[0], mk, &good, 1);
	wr[0].flags |= MLX5_UMR_WR_NEW_KEY;
	wr[0].done = kt_done;
	kt_list(&wr[1], mk, bad, 2);
	wr[1].flags |= MLX5_UMR_WR_NEW_KEY;
	wr[1].done = kt_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, mk->key, k0);
	mlx5_umr_free_mkey(mk);
}

/* Register the test page again, in PD @pdn (REG_PAGES moves the MR). */
static void kt_mr_pd(struct kunit *test, struct kt_ctx *c, u32 pdn)
{
	struct mlx5_umr_wr wr = {};

	wr.mkey = c->mr;
	wr.op = MLX5_UMR_OP_REG_PAGES;
	wr.flags = MLX5_UMR_WR_SET_PD;
	wr.pdn = pdn;
	wr.access = KT_ACC;
	wr.pages.addrs = &c->dma;
	wr.pages.npages = 1;
	wr.pages.iova = KT_IOVA;
	wr.pages.length = PAGE_SIZE;
	/* REG_PAGES wants a free mkey */
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &(struct mlx5_umr_wr) {
			.mkey = c->mr, .op = MLX5_UMR_OP_INVALIDATE }, 0), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_ASSERT_EQ(test, wr.status, 0);
}

/*
 * An mkey made in a consumer's PD, then moved to another: a QP of the PD
 * the mkey is in reaches the memory only when the memory is in it too.
 */
static void kt_pd_move(struct kunit *test)
{
	struct kt_ctx *c = test->priv;
	struct mlx5_umr_sge sge = { KT_IOVA, 64, c->mr->key };
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	u32 x, y, svc = c->dev->caps.pdn;
	u8 b[16];

	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(c->dev, &x), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(c->dev, &y), 0);
	KUNIT_EXPECT_NE(test, x, y);
	KUNIT_EXPECT_NE(test, x, svc);
	KUNIT_EXPECT_TRUE(test, IS_ERR(mlx5_umr_alloc_mkey_pd(c->dev, 1, 0,
							      BIT(24))));
	mk = mlx5_umr_alloc_mkey_pd(c->dev, 1, 0, x);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_ASSERT_GT(test, mlx5_umr_fake_query_mkey(c->fake, mk->key, mkc,
						       NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, pd), x);

	/* mkey in x, memory in the service's PD: refused at level 1 */
	kt_list(&wr, mk, &sge, 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, x, mk->key, 0, b,
						    16, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	/* memory moved to x: x reads, the service's PD does not */
	kt_mr_pd(test, c, x);
	sge.key = c->mr->key;
	kt_list(&wr, mk, &sge, 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, x, mk->key, 0, b,
						    16, false, true), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, svc, mk->key, 0,
						    b, 16, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);

	/* the mkey moved to y (SET_PD): y is refused at level 1, x at 0 */
	memset(&wr, 0, sizeof(wr));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_PD;
	wr.pdn = y;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, wr.status, 0);
	KUNIT_ASSERT_GT(test, mlx5_umr_fake_query_mkey(c->fake, mk->key, mkc,
						       NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, pd), y);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, y, mk->key, 0, b,
						    16, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, x, mk->key, 0, b,
						    16, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	/* and the memory after it: y reads */
	kt_mr_pd(test, c, y);
	sge.key = c->mr->key;
	kt_list(&wr, mk, &sge, 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(c->fake, y, mk->key, 0, b,
						    16, false, true), 0);

	mlx5_umr_free_mkey(mk);
	kt_mr_pd(test, c, svc);
	mlx5_umr_pd_free(c->dev, y);
	mlx5_umr_pd_free(c->dev, x);
}

/*
 * A ULP finds the device by its ib_device. Stand-ins: the service only
 * compares the pointer, so any two distinct objects do.
 */
static void kt_dev_by_ib(struct kunit *test)
{
	struct kt_ctx *c = test->priv;
	struct mlx5_umr_hca *hca = mlx5_umr_fake_hca(c->fake);
	static long standin_ours, standin_other;
	const struct ib_device *ours = (const void *)&standin_ours;
	const struct ib_device *other = (const void *)&standin_other;
	struct mlx5_umr_dev *dev;

	/* a fake stands in for its own ib_device (fake_ib.c) */
	KUNIT_EXPECT_PTR_EQ(test, hca->ibdev,
			    (const struct ib_device *)mlx5_umr_fake_ibdev(c->fake));
	KUNIT_EXPECT_NULL(test, mlx5_umr_dev_get_ib(ours));
	KUNIT_EXPECT_NULL(test, mlx5_umr_dev_get_ib(NULL));
	hca->ibdev = ours;
	dev = mlx5_umr_dev_get_ib(ours);
	KUNIT_EXPECT_PTR_EQ(test, dev, c->dev);
	if (dev)
		mlx5_umr_dev_put(dev);
	/* another RDMA device (not mlx5, or one the backend ignored) */
	KUNIT_EXPECT_NULL(test, mlx5_umr_dev_get_ib(other));
	hca->ibdev = mlx5_umr_fake_ibdev(c->fake);
}

/* The cap's NONE still fences the WQE after a UMR (INITIATOR_SMALL). */
static void kt_fence_none(struct kunit *test)
{
	static const struct {
		u8 cap;
		u8 mode;
	} map[] = {
		{ MLX5_CAP_UMR_FENCE_STRONG, MLX5_FENCE_MODE_STRONG_ORDERING },
		{ MLX5_CAP_UMR_FENCE_SMALL, MLX5_FENCE_MODE_INITIATOR_SMALL },
		{ MLX5_CAP_UMR_FENCE_NONE, MLX5_FENCE_MODE_INITIATOR_SMALL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		struct mlx5_umr_fake *fake = kt_fake(test, map[i].cap, false);
		struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
		struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(dev);
		struct mlx5_umr_mkey *mk = mlx5_umr_alloc_mkey(dev, 1, 0);
		struct mlx5_umr_wr wr = { .mkey = mk,
					  .op = MLX5_UMR_OP_INVALIDATE };
		struct mlx5_wqe_ctrl_seg *ctrl;
		u32 pc;

		KUNIT_EXPECT_EQ(test, dev->caps.umr_fence, map[i].mode);
		KUNIT_EXPECT_NE(test, dev->caps.umr_fence,
				MLX5_FENCE_MODE_NONE);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
		/* the second of two UMRs carries the fence */
		KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
		pc = q0->sq.pc;
		KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
		ctrl = q0->sq_buf.cpu +
		       (pc & (q0->sq.bbs - 1)) * MLX5_SEND_WQE_BB;
		KUNIT_EXPECT_EQ(test, ctrl->fm_ce_se & 0xe0, map[i].mode);
		mlx5_umr_free_mkey(mk);
		mlx5_umr_fake_destroy(fake);
	}
}

/*
 * umr_indirect_mkey_disabled: every request on an indirect mkey is refused
 * with EOPNOTSUPP before posting; a direct mkey still works.
 */
static void kt_indirect_disabled(struct kunit *test)
{
	struct mlx5_umr_fake *fake = kt_fake(test, MLX5_CAP_UMR_FENCE_SMALL,
					     true);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_sge sge = { KT_IOVA, 64, 0x1234 };
	struct mlx5_umr_mkey *mk, *mtt;
	struct mlx5_umr_wr wr;
	dma_addr_t page = 0x10000;

	KUNIT_EXPECT_TRUE(test, dev->caps.umr_indirect_mkey_disabled);
	mk = mlx5_umr_alloc_mkey(dev, 1, 0);
	mtt = mlx5_umr_alloc_mtt_mkey(dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_ASSERT_FALSE(test, IS_ERR(mtt));
	mlx5_umr_fake_get_counters(fake, &before);

	kt_list(&wr, mk, &sge, 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(dev, &wr), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -EOPNOTSUPP);
	memset(&wr, 0, sizeof(wr));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_INVALIDATE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -EOPNOTSUPP);
	mlx5_umr_fake_get_counters(fake, &after);
	KUNIT_EXPECT_EQ(test, after.wqes, before.wqes);
	KUNIT_EXPECT_EQ(test, after.err_cqes, before.err_cqes);

	memset(&wr, 0, sizeof(wr));
	wr.mkey = mtt;
	wr.op = MLX5_UMR_OP_REG_PAGES;
	wr.access = MLX5_UMR_ACCESS_LOCAL_WRITE;
	wr.pages.addrs = &page;
	wr.pages.npages = 1;
	wr.pages.iova = KT_IOVA;
	wr.pages.length = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, wr.status, 0);
	mlx5_umr_free_mkey(mtt);
	mlx5_umr_free_mkey(mk);
	mlx5_umr_fake_destroy(fake);
}

static struct kunit_case kt_cases[] = {
	KUNIT_CASE(kt_key_byte),
	KUNIT_CASE(kt_rotate_period),
	KUNIT_CASE(kt_no_rb_op_key),
	KUNIT_CASE(kt_rb_op_first_entry),
	KUNIT_CASE(kt_rotate),
	KUNIT_CASE(kt_rotate_rollback),
	KUNIT_CASE(kt_pd_move),
	KUNIT_CASE(kt_dev_by_ib),
	KUNIT_CASE(kt_fence_none),
	KUNIT_CASE(kt_indirect_disabled),
	{}
};

static struct kunit_suite kt_suite = {
	.name = "mlx5_umr_keys",
	.init = kt_init,
	.exit = kt_exit,
	.test_cases = kt_cases,
};

kunit_test_suite(kt_suite);

MODULE_DESCRIPTION("mlx5-umr: KUnit tests of keys, rotation and UMR caps");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
