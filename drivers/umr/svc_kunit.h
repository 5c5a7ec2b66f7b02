/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * KUnit: the fixture the service core's suites share (svc_*_test.c): a
 * registered fake and two MTT mkeys the test owns, a layout checked
 * through the fake's data path, requests counting their completions, and
 * the control segments of a batch in the ring.
 *
 * Every configure is proven through the fake's data path: bytes written
 * through the indirect key must land where the layout says, in registered
 * (MTT) memory the test owns, and nowhere else.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_SVC_KUNIT_H
#define _MLX5_UMR_SVC_KUNIT_H

#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/delay.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>

#include "umr.h"
#include "umr_uapi.h"
#include "wqe.h"
#include "umr_kunit.h"

#define ACC_ALL (MLX5_UMR_ACCESS_LOCAL_WRITE | MLX5_UMR_ACCESS_REMOTE_READ | \
		 MLX5_UMR_ACCESS_REMOTE_WRITE)
#define MR_IOVA 0x100000ULL

struct svc_mr {
	struct page **pages;
	unsigned int npages;
	struct sg_table sgt;
	dma_addr_t *addrs;
	struct mlx5_umr_mkey *mkey;
};

struct svc_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct svc_mr mr[2];
};

static inline u8 *mr_byte(struct svc_mr *mr, u64 off)
{
	return (u8 *)page_address(mr->pages[off >> PAGE_SHIFT]) +
	       (off & ~PAGE_MASK);
}

/* Register @npages zeroed pages as an MTT mkey at MR_IOVA. */
static inline void svc_mr_reg(struct kunit *test, struct mlx5_umr_dev *dev,
			      struct svc_mr *mr, unsigned int npages)
{
	struct mlx5_umr_wr wr = {};
	struct scatterlist *sg;
	unsigned int i, k = 0;
	u32 off;

	mr->npages = npages;
	mr->pages = kunit_kcalloc(test, npages, sizeof(*mr->pages),
				  GFP_KERNEL);
	mr->addrs = kunit_kcalloc(test, npages, sizeof(*mr->addrs),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mr->pages);
	KUNIT_ASSERT_NOT_NULL(test, mr->addrs);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&mr->sgt, npages, GFP_KERNEL), 0);
	for_each_sg(mr->sgt.sgl, sg, npages, i) {
		mr->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, mr->pages[i]);
		sg_set_page(sg, mr->pages[i], PAGE_SIZE, 0);
	}
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(dev, &mr->sgt,
						  DMA_BIDIRECTIONAL), 0);
	for_each_sg(mr->sgt.sgl, sg, mr->sgt.nents, i)
		for (off = 0; off < sg_dma_len(sg) && k < npages;
		     off += PAGE_SIZE)
			mr->addrs[k++] = sg_dma_address(sg) + off;
	KUNIT_ASSERT_EQ(test, k, npages);

	mr->mkey = mlx5_umr_alloc_mtt_mkey(dev, npages, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mr->mkey));
	KUNIT_EXPECT_TRUE(test, mr->mkey->direct);
	wr.mkey = mr->mkey;
	wr.op = MLX5_UMR_OP_REG_PAGES;
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	wr.access = ACC_ALL;
	wr.pages.addrs = mr->addrs;
	wr.pages.npages = npages;
	wr.pages.iova = MR_IOVA;
	wr.pages.length = (u64)npages * PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(dev, &wr, 0), 0);
}

static inline void svc_mr_unreg(struct mlx5_umr_dev *dev, struct svc_mr *mr)
{
	unsigned int i;

	if (!mr->pages)
		return;
	mlx5_umr_free_mkey(mr->mkey);
	mlx5_umr_dma_unmap_sg(dev, &mr->sgt, DMA_BIDIRECTIONAL);
	for (i = 0; i < mr->npages; i++)
		if (mr->pages[i])
			__free_page(mr->pages[i]);
	sg_free_table(&mr->sgt);
	mr->pages = NULL;
}

static inline int svc_init(struct kunit *test)
{
	struct svc_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	test->priv = c;
	c->fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	c->dev = umr_kunit_fake_umr(c->fake);
	svc_mr_reg(test, c->dev, &c->mr[0], 4);
	svc_mr_reg(test, c->dev, &c->mr[1], 4);
	return 0;
}

static inline void svc_exit(struct kunit *test)
{
	struct svc_ctx *c = test->priv;

	if (!c || !c->fake)
		return;
	svc_mr_unreg(c->dev, &c->mr[0]);
	svc_mr_unreg(c->dev, &c->mr[1]);
	mlx5_umr_fake_destroy(c->fake);
}

/* One piece of an expected layout: @len bytes at @off of @mr. */
struct svc_seg {
	struct svc_mr *mr;
	u64 off;
	u32 len;
};

/*
 * Write a pattern through @key as a remote peer and check every byte
 * landed where @segs say, then read it back through @key.
 */
static inline void svc_check_layout(struct kunit *test,
				    struct mlx5_umr_dev *dev, u32 key,
				    const struct svc_seg *segs, unsigned int n)
{
	u64 total = 0, pos = 0;
	unsigned int i, j;
	u8 *buf, *back;

	for (i = 0; i < n; i++)
		total += segs[i].len;
	buf = kunit_kmalloc(test, total, GFP_KERNEL);
	back = kunit_kzalloc(test, total, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, back);
	for (j = 0; j < total; j++)
		buf[j] = (u8)(j * 7 + 3 + (j >> 8));

	KUNIT_ASSERT_EQ(test, mlx5_umr_test_xfer(dev, key, 0, buf, total,
						 true, true), 0);
	for (i = 0; i < n; i++) {
		for (j = 0; j < segs[i].len; j++) {
			u8 got = *mr_byte(segs[i].mr, segs[i].off + j);

			if (got != buf[pos + j]) {
				KUNIT_FAIL(test, "seg %u byte %u: got 0x%x want 0x%x",
					   i, j, got, buf[pos + j]);
				return;
			}
		}
		pos += segs[i].len;
	}
	KUNIT_ASSERT_EQ(test, mlx5_umr_test_xfer(dev, key, 0, back, total,
						 false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, back, total), 0);
	/* One byte past the end is out of bounds. */
	KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(dev, key, total, back, 1,
						 false, true), 0);
}

static inline void svc_wr_list(struct mlx5_umr_wr *wr,
			       struct mlx5_umr_mkey *mkey,
			       const struct mlx5_umr_sge *sge, u32 n,
			       u32 access)
{
	memset(wr, 0, sizeof(*wr));
	wr->mkey = mkey;
	wr->op = MLX5_UMR_OP_CONFIGURE;
	wr->flags = MLX5_UMR_WR_SET_ACCESS;
	wr->access = access;
	wr->layout = MLX5_UMR_LAYOUT_LIST;
	wr->list.sge = sge;
	wr->list.num_sge = n;
}

struct svc_req {
	struct mlx5_umr_wr wr;
	atomic_t *ndone;
	int calls;
	struct task_struct *task;
};

static inline void svc_req_done(struct mlx5_umr_wr *wr)
{
	struct svc_req *r = container_of(wr, struct svc_req, wr);

	r->calls++;
	r->task = current;
	if (r->ndone)
		atomic_inc(r->ndone);
}

/*
 * The control segments of a batch of @n WQEs posted from @start: UMR
 * opcode, consecutive WQE indexes, our QP, the UMR fence from caps on every
 * WQE that follows a UMR, and a CQE requested by the last one only.
 */
static inline void svc_check_ring(struct kunit *test, struct mlx5_umr_dev *dev,
				  u32 start, unsigned int n)
{
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(dev);
	u32 pc = start;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct mlx5_wqe_ctrl_seg *ctrl = q0->sq_buf.cpu +
			(pc & (q0->sq.bbs - 1)) * MLX5_SEND_WQE_BB;
		u32 oio = be32_to_cpu(ctrl->opmod_idx_opcode);
		u32 qd = be32_to_cpu(ctrl->qpn_ds);
		u8 ce = ctrl->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE;

		KUNIT_EXPECT_EQ(test, oio & 0xff, (u32)MLX5_OPCODE_UMR);
		KUNIT_EXPECT_EQ(test, (oio >> 8) & 0xffff, pc & 0xffff);
		KUNIT_EXPECT_EQ(test, qd >> 8, q0->sq.qpn);
		KUNIT_EXPECT_EQ(test, ctrl->fm_ce_se & 0xe0,
				dev->caps.umr_fence);
		KUNIT_EXPECT_EQ(test, ce, i == n - 1 ? MLX5_WQE_CTRL_CQ_UPDATE : 0);
		pc += DIV_ROUND_UP((qd & MLX5_WQE_CTRL_DS_MASK) * 16,
				   MLX5_SEND_WQE_BB);
	}
	KUNIT_EXPECT_EQ(test, pc, q0->sq.pc);
}

#endif /* _MLX5_UMR_SVC_KUNIT_H */
