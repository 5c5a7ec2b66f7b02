// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: KUnit tests of the service core against the fake HCA.
 *
 * Every configure is proven through the fake's data path: bytes written
 * through the indirect key must land where the layout says, in registered
 * (MTT) memory the test owns, and nowhere else.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
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

static u8 *mr_byte(struct svc_mr *mr, u64 off)
{
	return (u8 *)page_address(mr->pages[off >> PAGE_SHIFT]) +
	       (off & ~PAGE_MASK);
}

/* Register @npages zeroed pages as an MTT mkey at MR_IOVA. */
static void svc_mr_reg(struct kunit *test, struct mlx5_umr_dev *dev,
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

static void svc_mr_unreg(struct mlx5_umr_dev *dev, struct svc_mr *mr)
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

static int svc_init(struct kunit *test)
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

static void svc_exit(struct kunit *test)
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
static void svc_check_layout(struct kunit *test, struct mlx5_umr_dev *dev,
			     u32 key, const struct svc_seg *segs,
			     unsigned int n)
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

static void svc_wr_list(struct mlx5_umr_wr *wr, struct mlx5_umr_mkey *mkey,
			const struct mlx5_umr_sge *sge, u32 n, u32 access)
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

static void svc_bringup(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(c->dev);
	struct mlx5_umr_fake_counters cnt;
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	u16 ci;

	/* Device addresses go through a PA mkey, not the firmware's resd_lkey */
	KUNIT_EXPECT_NE(test, caps->dma_lkey, MLX5_UMR_FAKE_RESD_LKEY);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(c->fake,
						       caps->dma_lkey,
						       mkc, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, access_mode_1_0),
			MLX5_MKC_ACCESS_MODE_PA);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, access_mode_4_2), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, length64), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, lr), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, lw), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, rr), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, rw), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, umr_en), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, qpn), 0xffffff);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, pd), caps->pdn);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, mkey_7_0),
			caps->dma_lkey & 0xff);
	KUNIT_EXPECT_GE(test, caps->max_klm_entries, 1024U);
	KUNIT_EXPECT_EQ(test, caps->max_inline_entries, 52U);
	KUNIT_EXPECT_TRUE(test, mlx5_umr_dev_is_fake(c->dev));
	KUNIT_EXPECT_STREQ(test, mlx5_umr_dev_name(c->dev),
			   mlx5_umr_fake_hca(c->fake)->name);
	mlx5_umr_fake_get_counters(c->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.qps, 1U);
	KUNIT_EXPECT_EQ(test, cnt.cqs, 1U);
	KUNIT_EXPECT_EQ(test, cnt.pds, 1U);
	KUNIT_EXPECT_EQ(test, cnt.uars, 1U);
	/* the fixture's two registrations and the PA mkey */
	KUNIT_EXPECT_EQ(test, cnt.mkeys, 3U);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, c->dev->sq.qpn,
						     &ci), MLX5_QP_STATE_RTS);
	/* Two REG_PAGES so far, nothing in flight. */
	KUNIT_EXPECT_EQ(test, (u16)c->dev->sq.pc, ci);
	KUNIT_EXPECT_EQ(test, c->dev->sq.pc, c->dev->sq.cc);
}

/* CREATE_MKEY as the HCA stored it: free, UMR-enabled, sized, flagged. */
static void svc_mkey_create(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	u32 pdn = mlx5_umr_dev_caps(c->dev)->pdn;
	u32 caps_max = mlx5_umr_dev_caps(c->dev)->max_klm_entries;
	struct mlx5_umr_mkey *klm, *mtt;
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	u32 key;

	klm = mlx5_umr_alloc_mkey(c->dev, 10, MLX5_UMR_MKEY_REMOTE_INVALIDATE);
	mtt = mlx5_umr_alloc_mtt_mkey(c->dev, 5, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(klm));
	KUNIT_ASSERT_FALSE(test, IS_ERR(mtt));
	KUNIT_EXPECT_FALSE(test, klm->direct);
	KUNIT_EXPECT_EQ(test, klm->max_entries, 10U);
	KUNIT_EXPECT_NULL(test, to_priv(klm)->xlt.cpu);

	/* ALIGN(10 + 1, 4) KLM octowords: room for the repeat block header */
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(c->fake, klm->key, mkc,
						       NULL, 0), 12);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, umr_en), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, en_rinval), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, access_mode_1_0),
			MLX5_MKC_ACCESS_MODE_KLMS);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, access_mode_4_2), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, qpn), 0xffffff);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, pd), pdn);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, mkey_7_0), klm->key & 0xff);

	/* ALIGN(5, 8) / 2 MTT octowords, PAGE_SIZE pages */
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(c->fake, mtt->key, mkc,
						       NULL, 0), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, umr_en), 1);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, en_rinval), 0);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, access_mode_1_0),
			MLX5_MKC_ACCESS_MODE_MTT);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, log_page_size), PAGE_SHIFT);

	key = klm->key;
	mlx5_umr_free_mkey(mtt);
	mlx5_umr_free_mkey(klm);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_mkey(c->fake, key, NULL,
						       NULL, 0), -ENOENT);
	KUNIT_EXPECT_TRUE(test, IS_ERR(mlx5_umr_alloc_mkey(c->dev, 0, 0)));
	KUNIT_EXPECT_TRUE(test, IS_ERR(mlx5_umr_alloc_mkey(c->dev, 1, BIT(7))));

	/* the largest KLM mkey: the header's entry may not exceed the cap */
	klm = mlx5_umr_alloc_mkey(c->dev, caps_max, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(klm));
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_mkey(c->fake, klm->key, NULL,
						       NULL, 0), (int)caps_max);
	mlx5_umr_free_mkey(klm);
	KUNIT_EXPECT_TRUE(test, IS_ERR(mlx5_umr_alloc_mkey(c->dev, caps_max + 1,
							   0)));
}

/* mlx5dv_wr_mkey_configure(3): 64 bytes of mr1, then 4096 of mr2. */
static void svc_seed_list(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = {
		{ MR_IOVA, 64, c->mr[0].mkey->key },
		{ MR_IOVA, 4096, c->mr[1].mkey->key },
	};
	struct svc_seg segs[] = { { &c->mr[0], 0, 64 }, { &c->mr[1], 0, 4096 } };
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	u8 b;

	mk = mlx5_umr_alloc_mkey(c->dev, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	/* Free until configured. */
	KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, &b, 1,
						 false, true), 0);
	svc_wr_list(&wr, mk, sge, 2, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, wr.status, 0);
	svc_check_layout(test, c->dev, mk->key, segs, ARRAY_SIZE(segs));
	KUNIT_EXPECT_EQ(test, *mr_byte(&c->mr[0], 64), 0);
	mlx5_umr_free_mkey(mk);
}

static void svc_interleaved(struct kunit *test, struct mlx5_umr_interleaved *ent,
			    u32 n, u32 repeat)
{
	struct svc_ctx *c = test->priv;
	struct svc_seg *segs;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr = {};
	u32 r, i, k = 0;

	segs = kunit_kcalloc(test, n * repeat, sizeof(*segs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, segs);
	for (r = 0; r < repeat; r++)
		for (i = 0; i < n; i++) {
			segs[k].mr = ent[i].key == c->mr[0].mkey->key ?
				     &c->mr[0] : &c->mr[1];
			segs[k].off = ent[i].addr - MR_IOVA +
				      (u64)r * (ent[i].bytes_count +
						ent[i].bytes_skip);
			segs[k++].len = ent[i].bytes_count;
		}
	/* Sized for n entries: the header's extra entry is the service's. */
	mk = mlx5_umr_alloc_mkey(c->dev, n, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	wr.access = ACC_ALL;
	wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
	wr.interleaved.ent = ent;
	wr.interleaved.num_entries = n;
	wr.interleaved.repeat_count = repeat;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	svc_check_layout(test, c->dev, mk->key, segs, k);
	mlx5_umr_free_mkey(mk);
}

/* mlx5dv_wr_mkey_configure(3): {mr1 512 skip 4}, {mr2 8} x 2. */
static void svc_seed_interleaved(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_interleaved ent[] = {
		{ MR_IOVA, 512, 4, c->mr[0].mkey->key },
		{ MR_IOVA, 8, 0, c->mr[1].mkey->key },
	};

	svc_interleaved(test, ent, 2, 2);
	/* bytes 512..515 of mr1 are skipped */
	KUNIT_EXPECT_EQ(test, *mr_byte(&c->mr[0], 512), 0);
	KUNIT_EXPECT_EQ(test, *mr_byte(&c->mr[0], 515), 0);
	KUNIT_EXPECT_EQ(test, *mr_byte(&c->mr[1], 16), 0);
}

static void svc_interleaved_several(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	u32 k0 = c->mr[0].mkey->key, k1 = c->mr[1].mkey->key;
	struct mlx5_umr_interleaved ent[] = {
		{ MR_IOVA + 3, 100, 28, k0 },
		{ MR_IOVA + 1000, 20, 0, k1 },
		{ MR_IOVA + 5000, 7, 9, k0 },
		{ MR_IOVA + 8000, 1, 3, k1 },
		{ MR_IOVA + 9000, 64, 64, k1 },
	};

	svc_interleaved(test, ent, ARRAY_SIZE(ent), 5);
}

/* An SGE list of @n entries, the mkey sized for exactly @n. */
static void svc_list_n(struct kunit *test, u32 n)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_sge *sge;
	struct svc_seg *segs;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	u32 i;

	sge = kunit_kcalloc(test, n, sizeof(*sge), GFP_KERNEL);
	segs = kunit_kcalloc(test, n, sizeof(*segs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sge);
	KUNIT_ASSERT_NOT_NULL(test, segs);
	/* Entry i: 8 (or 9) bytes of mr[i % 2] at a spread-out offset. */
	for (i = 0; i < n; i++) {
		struct svc_mr *mr = &c->mr[i % 2];

		segs[i].mr = mr;
		segs[i].off = (u64)(i / 2) * 16 + (i % 3);
		segs[i].len = 8 + (i % 2);
		sge[i].addr = MR_IOVA + segs[i].off;
		sge[i].length = segs[i].len;
		sge[i].key = mr->mkey->key;
	}
	mlx5_umr_fake_get_counters(c->fake, &before);
	mk = mlx5_umr_alloc_mkey(c->dev, n, MLX5_UMR_MKEY_REMOTE_INVALIDATE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_ASSERT_NOT_NULL(test, to_priv(mk)->xlt.cpu);
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(to_priv(mk)->xlt.dma, 2048));
	/* coherent memory the CPU may rewrite, not a streaming mapping */
	mlx5_umr_fake_get_counters(c->fake, &after);
	KUNIT_EXPECT_EQ(test, after.dma_bufs, before.dma_bufs + 1);
	KUNIT_EXPECT_EQ(test, after.sg_maps, before.sg_maps);
	KUNIT_EXPECT_GE(test, to_priv(mk)->xlt.size, (n + 1) * 16);
	svc_wr_list(&wr, mk, sge, n, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	svc_check_layout(test, c->dev, mk->key, segs, n);
	/* The table is free again after the completion. */
	KUNIT_EXPECT_EQ(test, to_priv(mk)->xlt_busy, 0UL);
	mlx5_umr_free_mkey(mk);
}

/* More entries than fit inline: the mkey's pointer-mode table is used. */
static void svc_ptr_1000(struct kunit *test)
{
	svc_list_n(test, 1000);
}

/*
 * The inline limit as the HCA parses it: 52 KLMs make a 960-byte WQE (ds
 * 60); 56 would make 1024 bytes, whose ds of 64 the 6-bit field reads as
 * 0, so they must go by pointer.
 */
static void svc_inline_limit(struct kunit *test)
{
	svc_list_n(test, 52);
	svc_list_n(test, 56);
}

/* Access rights, invalidation and the PD, each taking effect. */
static void svc_access_inval_pd(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_hca *hca = mlx5_umr_fake_hca(c->fake);
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 256, c->mr[0].mkey->key } };
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	u32 din[MLX5_ST_SZ_DW(dealloc_pd_in)] = {};
	u32 dout[MLX5_ST_SZ_DW(dealloc_pd_out)] = {};
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	u8 buf[16] = { 1, 2, 3 };
	u8 rbuf[16];
	u32 pd2;

	mk = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	svc_wr_list(&wr, mk, sge, 1, MLX5_UMR_ACCESS_REMOTE_READ);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, rbuf, 16,
						 false, true), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, buf, 16,
						 true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, *mr_byte(&c->mr[0], 0), 0);

	/* Access only: the translation stays. */
	memset(&wr, 0, sizeof(wr));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	wr.access = MLX5_UMR_ACCESS_REMOTE_READ | MLX5_UMR_ACCESS_REMOTE_WRITE;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, buf, 16,
						 true, true), 0);
	KUNIT_EXPECT_EQ(test, *mr_byte(&c->mr[0], 2), 3);

	/* PD change: the inner mkey is in the old PD, access must fail. */
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	KUNIT_ASSERT_EQ(test, hca->ops->cmd_exec(hca, in, sizeof(in), out,
						 sizeof(out)), 0);
	pd2 = MLX5_GET(alloc_pd_out, out, pd);
	memset(&wr, 0, sizeof(wr));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_PD;
	wr.pdn = pd2;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, rbuf, 16,
						 false, true), 0);
	wr.pdn = mlx5_umr_dev_caps(c->dev)->pdn;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, rbuf, 16,
						 false, true), 0);

	/* Invalidate: every access fails, a new configure revives it. */
	memset(&wr, 0, sizeof(wr));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_INVALIDATE;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, rbuf, 16,
						 false, true), 0);
	svc_wr_list(&wr, mk, sge, 1, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, rbuf, 16,
						 false, true), 0);

	MLX5_SET(dealloc_pd_in, din, opcode, MLX5_CMD_OP_DEALLOC_PD);
	MLX5_SET(dealloc_pd_in, din, pd, pd2);
	KUNIT_EXPECT_EQ(test, hca->ops->cmd_exec(hca, din, sizeof(din), dout,
						 sizeof(dout)), 0);
	mlx5_umr_free_mkey(mk);
}

struct svc_req {
	struct mlx5_umr_wr wr;
	atomic_t *ndone;
	int calls;
	struct task_struct *task;
};

static void svc_req_done(struct mlx5_umr_wr *wr)
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
static void svc_check_ring(struct kunit *test, struct mlx5_umr_dev *dev,
			   u32 start, unsigned int n)
{
	u32 pc = start;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct mlx5_wqe_ctrl_seg *ctrl = dev->sq_buf.cpu +
			(pc & (dev->sq.bbs - 1)) * MLX5_SEND_WQE_BB;
		u32 oio = be32_to_cpu(ctrl->opmod_idx_opcode);
		u32 qd = be32_to_cpu(ctrl->qpn_ds);
		u8 ce = ctrl->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE;

		KUNIT_EXPECT_EQ(test, oio & 0xff, (u32)MLX5_OPCODE_UMR);
		KUNIT_EXPECT_EQ(test, (oio >> 8) & 0xffff, pc & 0xffff);
		KUNIT_EXPECT_EQ(test, qd >> 8, dev->sq.qpn);
		KUNIT_EXPECT_EQ(test, ctrl->fm_ce_se & 0xe0,
				dev->caps.umr_fence);
		KUNIT_EXPECT_EQ(test, ce, i == n - 1 ? MLX5_WQE_CTRL_CQ_UPDATE : 0);
		pc += DIV_ROUND_UP((qd & MLX5_WQE_CTRL_DS_MASK) * 16,
				   MLX5_SEND_WQE_BB);
	}
	KUNIT_EXPECT_EQ(test, pc, dev->sq.pc);
}

/* One doorbell, one CQE for the batch; the ring wraps many times. */
static void svc_batch_and_wrap(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = {
		{ MR_IOVA, 64, c->mr[0].mkey->key },
		{ MR_IOVA, 4096, c->mr[1].mkey->key },
	};
	struct svc_seg segs[] = { { &c->mr[0], 0, 64 }, { &c->mr[1], 0, 4096 } };
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_wr *wrs[8];
	struct mlx5_umr_mkey *mk;
	struct svc_req *req;
	atomic_t ndone = ATOMIC_INIT(0);
	/* 8 WQEs of 3 basic blocks a round: wrap around the ring twice. */
	unsigned int rounds = 2 * c->dev->sq.bbs / 24 + 2;
	unsigned int i, round;
	u32 start;
	u16 ci;

	req = kunit_kcalloc(test, ARRAY_SIZE(wrs), sizeof(*req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	mk = mlx5_umr_alloc_mkey(c->dev, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));

	for (round = 0; round < rounds; round++) {
		for (i = 0; i < ARRAY_SIZE(wrs); i++) {
			svc_wr_list(&req[i].wr, mk, sge, 2, ACC_ALL);
			req[i].wr.done = svc_req_done;
			req[i].ndone = &ndone;
			req[i].calls = 0;
			wrs[i] = &req[i].wr;
		}
		mlx5_umr_fake_get_counters(c->fake, &before);
		start = c->dev->sq.pc;
		KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, wrs, 8), 0);
		svc_check_ring(test, c->dev, start, 8);
		/* The fake executes inside the doorbell. */
		mlx5_umr_fake_get_counters(c->fake, &after);
		KUNIT_EXPECT_EQ(test, after.wqes - before.wqes, 8ULL);
		KUNIT_EXPECT_EQ(test, after.cqes - before.cqes, 1ULL);
		/*
		 * No completion inside the doorbell or the post: the CQ is
		 * polled from a work item, never in this thread.
		 */
		for (i = 0; i < ARRAY_SIZE(wrs); i++)
			KUNIT_EXPECT_EQ(test, req[i].calls, 0);
		mlx5_umr_sq_flush(c->dev);
		for (i = 0; i < ARRAY_SIZE(wrs); i++) {
			KUNIT_EXPECT_EQ(test, req[i].calls, 1);
			KUNIT_EXPECT_EQ(test, req[i].wr.status, 0);
			KUNIT_EXPECT_PTR_NE(test, req[i].task, current);
		}
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&ndone), rounds * 8);
	/* Wrapped, and the HCA consumed exactly what was produced. */
	KUNIT_EXPECT_GT(test, c->dev->sq.pc, 2 * c->dev->sq.bbs);
	KUNIT_EXPECT_EQ(test, c->dev->sq.pc, c->dev->sq.cc);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, c->dev->sq.qpn,
						     &ci), MLX5_QP_STATE_RTS);
	KUNIT_EXPECT_EQ(test, ci, (u16)c->dev->sq.pc);
	svc_check_layout(test, c->dev, mk->key, segs, ARRAY_SIZE(segs));
	mlx5_umr_free_mkey(mk);
}

/* Destroy an mkey behind the service's back: its UMR fails on the HCA. */
static void svc_kill_mkey(struct kunit *test, struct svc_ctx *c, u32 key)
{
	struct mlx5_umr_hca *hca = mlx5_umr_fake_hca(c->fake);
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};
	u32 out[MLX5_ST_SZ_DW(destroy_mkey_out)] = {};

	MLX5_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	MLX5_SET(destroy_mkey_in, in, mkey_index, key >> 8);
	KUNIT_ASSERT_EQ(test, hca->ops->cmd_exec(hca, in, sizeof(in), out,
						 sizeof(out)), 0);
}

static void svc_error_mid_batch(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 128, c->mr[0].mkey->key } };
	struct svc_seg segs[] = { { &c->mr[0], 0, 128 } };
	struct mlx5_umr_mkey *mk[5];
	struct mlx5_umr_wr *wrs[5];
	struct svc_req req[5] = {};
	struct mlx5_umr_wr wr;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		mk[i] = mlx5_umr_alloc_mkey(c->dev, 1, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mk[i]));
		svc_wr_list(&req[i].wr, mk[i], sge, 1, ACC_ALL);
		req[i].wr.done = svc_req_done;
		wrs[i] = &req[i].wr;
	}
	svc_kill_mkey(test, c, mk[2]->key);

	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, wrs, 5), 0);
	/* The poll queues recovery; it resubmits what the error flushed. */
	mlx5_umr_sq_flush(c->dev);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, req[i].calls, 1);
	KUNIT_EXPECT_EQ(test, req[0].wr.status, 0);
	KUNIT_EXPECT_EQ(test, req[1].wr.status, 0);
	KUNIT_EXPECT_EQ(test, req[2].wr.status, -EIO);
	KUNIT_EXPECT_NE(test, req[2].wr.syndrome, 0);
	/* never executed: posted again after recovery, and done */
	KUNIT_EXPECT_EQ(test, req[3].wr.status, 0);
	KUNIT_EXPECT_EQ(test, req[4].wr.status, 0);
	svc_check_layout(test, c->dev, mk[3]->key, segs, 1);

	/* The next configure succeeds. */
	svc_wr_list(&wr, mk[4], sge, 1, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	svc_check_layout(test, c->dev, mk[4]->key, segs, 1);
	svc_check_layout(test, c->dev, mk[1]->key, segs, 1);
	KUNIT_EXPECT_EQ(test, c->dev->sq.state, MLX5_UMR_SQ_RTS);

	/* mk[2] is already gone on the HCA; drop the service's record. */
	to_priv(mk[2])->hw = false;
	for (i = 0; i < 5; i++)
		mlx5_umr_free_mkey(mk[i]);
}

static void svc_timeout(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 32, c->mr[1].mkey->key } };
	struct svc_seg segs[] = { { &c->mr[1], 0, 32 } };
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;

	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	svc_wr_list(&wr, mk, sge, 1, ACC_ALL);
	mlx5_umr_fake_inject_drop_cqe(c->fake, 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 50), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, wr.status, -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, c->dev->sq.pc, c->dev->sq.cc);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	svc_check_layout(test, c->dev, mk->key, segs, 1);
	mlx5_umr_free_mkey(mk);
}

static void svc_recover_1000(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 32, c->mr[1].mkey->key } };
	struct mlx5_umr_fake_counters cnt;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr wr;
	unsigned int i, bad = 0;

	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	svc_wr_list(&wr, mk, sge, 1, ACC_ALL);
	for (i = 0; i < 1000; i++) {
		mlx5_umr_fake_inject_wqe_error(c->fake,
					       MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
					       MLX5_UMR_FAKE_VS_INJECTED);
		if (mlx5_umr_exec(c->dev, &wr, 0) != -EIO ||
		    wr.syndrome != MLX5_CQE_SYNDROME_LOCAL_PROT_ERR)
			bad++;
		if (mlx5_umr_exec(c->dev, &wr, 0) != 0)
			bad++;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	mlx5_umr_fake_get_counters(c->fake, &cnt);
	KUNIT_EXPECT_GE(test, cnt.err_cqes, 1000ULL);
	mlx5_umr_free_mkey(mk);
}

/* A full ring refuses a batch with -EBUSY; space returns with completions. */
static void svc_flow_control(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = {
		{ MR_IOVA, 64, c->mr[0].mkey->key },
		{ MR_IOVA, 64, c->mr[1].mkey->key },
	};
	/* More 3-block WQEs than the ring holds. */
	const unsigned int nreq = c->dev->sq.bbs / 3 + 16;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_wr *wrs[8];
	struct mlx5_umr_wr wr;
	struct svc_req *req;
	atomic_t ndone = ATOMIC_INIT(0);
	unsigned int i, posted = 0, j;
	int err = 0;

	req = kunit_kcalloc(test, nreq, sizeof(*req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	mk = mlx5_umr_alloc_mkey(c->dev, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	mlx5_umr_fake_inject_delay(c->fake, 200);
	while (posted + 8 <= nreq) {
		for (i = 0; i < 8; i++) {
			svc_wr_list(&req[posted + i].wr, mk, sge, 2, ACC_ALL);
			req[posted + i].wr.done = svc_req_done;
			req[posted + i].ndone = &ndone;
			wrs[i] = &req[posted + i].wr;
		}
		err = mlx5_umr_post(c->dev, wrs, 8);
		if (err)
			break;
		posted += 8;
	}
	KUNIT_EXPECT_EQ(test, err, -EBUSY);
	/* 3 basic blocks per WQE: the ring held what fitted, no more. */
	KUNIT_EXPECT_GT(test, posted * 3, c->dev->sq.bbs - 24);
	KUNIT_EXPECT_LE(test, posted * 3, c->dev->sq.bbs);
	for (j = 0; j < 200 && atomic_read(&ndone) < posted; j++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&ndone), posted);
	for (i = 0; i < posted; i++) {
		KUNIT_EXPECT_EQ(test, req[i].calls, 1);
		KUNIT_EXPECT_EQ(test, req[i].wr.status, 0);
	}
	for (; i < nreq; i++)
		KUNIT_EXPECT_EQ(test, req[i].calls, 0);
	svc_wr_list(&wr, mk, sge, 2, ACC_ALL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	mlx5_umr_free_mkey(mk);
}

/*
 * Admission (umr_uapi.h): the rules of mlx5_umr_validate(), once, and the
 * request's footprint in basic blocks; the admitted request then posts
 * and runs as any other.
 */
static void svc_admit(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 64, c->mr[0].mkey->key } };
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_sge *many;
	struct mlx5_umr_mkey *mk, *big;
	struct mlx5_umr_wr wr;
	unsigned int i;

	many = kunit_kcalloc(test, 100, sizeof(*many), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, many);
	for (i = 0; i < 100; i++)
		many[i] = sge[0];
	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	big = mlx5_umr_alloc_mkey(c->dev, 100, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_ASSERT_FALSE(test, IS_ERR(big));

	KUNIT_EXPECT_EQ(test, mlx5_umr_admit(c->dev, NULL), -EINVAL);
	/* one inline KLM: the two header blocks and one of translation */
	svc_wr_list(&wr, mk, sge, 1, ACC_ALL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_admit(c->dev, &wr), 3);
	KUNIT_EXPECT_EQ(test, wr.priv.wqe_bytes, 3 * MLX5_SEND_WQE_BB);
	/* a pointer-mode table: the encoder's size */
	svc_wr_list(&wr, big, many, 100, ACC_ALL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_admit(c->dev, &wr),
			(int)(mlx5_umr_wqe_size(&c->dev->caps, &wr) /
			      MLX5_SEND_WQE_BB));
	/* refused as mlx5_umr_validate() refuses it */
	svc_wr_list(&wr, mk, many, 2, ACC_ALL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &wr), -ENOMEM);
	KUNIT_EXPECT_EQ(test, mlx5_umr_admit(c->dev, &wr), -ENOMEM);
	svc_wr_list(&wr, mk, sge, 1, ACC_ALL | BIT(7));
	KUNIT_EXPECT_EQ(test, mlx5_umr_admit(c->dev, &wr), -EINVAL);

	/* admitted, posted once, one WQE on the wire */
	svc_wr_list(&wr, mk, sge, 1, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_admit(c->dev, &wr), 3);
	mlx5_umr_fake_get_counters(c->fake, &before);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec_admitted(c->dev, &wr, 0), 0);
	mlx5_umr_fake_get_counters(c->fake, &after);
	KUNIT_EXPECT_EQ(test, after.wqes - before.wqes, 1ULL);
	KUNIT_EXPECT_EQ(test, wr.status, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(big), 0);
}

/* Nothing reaches the ring when one request of a batch is refused. */
static void svc_batch_refused(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 64, c->mr[0].mkey->key } };
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_sge bad;
	struct mlx5_umr_mkey *mk, *big;
	struct mlx5_umr_wr *wrs[3];
	struct svc_req req[3] = {};
	struct mlx5_umr_sge *many;
	u32 pc = c->dev->sq.pc;
	unsigned int i;

	many = kunit_kcalloc(test, 100, sizeof(*many), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, many);
	for (i = 0; i < 100; i++)
		many[i] = sge[0];
	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	big = mlx5_umr_alloc_mkey(c->dev, 100, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	KUNIT_ASSERT_FALSE(test, IS_ERR(big));
	for (i = 0; i < 3; i++) {
		svc_wr_list(&req[i].wr, mk, sge, 1, ACC_ALL);
		req[i].wr.done = svc_req_done;
		wrs[i] = &req[i].wr;
	}
	mlx5_umr_fake_get_counters(c->fake, &before);

	/* more entries than the mkey was sized for */
	req[1].wr.list.num_sge = 2;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &req[1].wr), -ENOMEM);
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &req[0].wr), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 3), -ENOMEM);
	/* two layouts for one pointer-mode table in one batch */
	svc_wr_list(&req[1].wr, big, many, 100, ACC_ALL);
	svc_wr_list(&req[2].wr, big, many, 100, ACC_ALL);
	req[1].wr.done = svc_req_done;
	req[2].wr.done = svc_req_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, to_priv(big)->xlt_busy, 0UL);
	/* the table held by a request in flight: retry later */
	set_bit(0, &to_priv(big)->xlt_busy);
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, &wrs[1], 1), -EBUSY);
	clear_bit(0, &to_priv(big)->xlt_busy);
	/*
	 * Entries are checked as the batch is written (validation.rst): a
	 * bad one in the last request discards the two WQEs before it.
	 */
	svc_wr_list(&req[1].wr, mk, sge, 1, ACC_ALL);
	req[1].wr.done = svc_req_done;
	bad = sge[0];
	bad.length = 0;
	svc_wr_list(&req[2].wr, mk, &bad, 1, ACC_ALL);
	req[2].wr.done = svc_req_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &req[2].wr), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 3), -EINVAL);
	bad.length = 64;
	bad.addr = ~0ULL - 10;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &req[2].wr), -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 3), -EOVERFLOW);
	/* the last entry of a pointer-mode table: the table is free again */
	many[99].length = 0;
	svc_wr_list(&req[2].wr, big, many, 100, ACC_ALL);
	req[2].wr.done = svc_req_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, to_priv(big)->xlt_busy, 0UL);
	many[99].length = 64;
	/* a request without a callback */
	req[2].wr.done = NULL;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 3), -EINVAL);

	mlx5_umr_fake_get_counters(c->fake, &after);
	KUNIT_EXPECT_EQ(test, c->dev->sq.pc, pc);
	KUNIT_EXPECT_EQ(test, after.wqes, before.wqes);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, req[i].calls, 0);

	/* Corrected, the batch starts where the refused ones would have. */
	req[2].wr.done = svc_req_done;
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, wrs, 3), 0);
	svc_check_ring(test, c->dev, pc, 3);
	mlx5_umr_sq_flush(c->dev);
	mlx5_umr_fake_get_counters(c->fake, &after);
	KUNIT_EXPECT_EQ(test, after.wqes - before.wqes, 3ULL);
	KUNIT_EXPECT_EQ(test, after.err_cqes, before.err_cqes);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, req[i].calls, 1);
		KUNIT_EXPECT_EQ(test, req[i].wr.status, 0);
	}
	/* The refused batches left nothing behind in the bookkeeping. */
	KUNIT_EXPECT_EQ(test, c->dev->sq.cc, c->dev->sq.pc);
	KUNIT_EXPECT_EQ(test, c->dev->sq.head, c->dev->sq.tail);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &req[0].wr, 0), 0);
	mlx5_umr_free_mkey(big);
	mlx5_umr_free_mkey(mk);
}

/* An asynchronous request whose CQE is lost is failed by the watchdog. */
static void svc_watchdog(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 32, c->mr[1].mkey->key } };
	unsigned long saved = c->dev->timeout;
	struct svc_req req = {};
	struct mlx5_umr_wr *p = &req.wr, wr;
	struct mlx5_umr_mkey *mk;
	unsigned int j;

	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	svc_wr_list(&req.wr, mk, sge, 1, ACC_ALL);
	req.wr.done = svc_req_done;
	/* the next post arms the watchdog with the short timeout */
	cancel_delayed_work_sync(&c->dev->watchdog);
	c->dev->timeout = msecs_to_jiffies(50);
	mlx5_umr_fake_inject_drop_cqe(c->fake, 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, &p, 1), 0);
	for (j = 0; j < 100 && !req.calls; j++)
		msleep(20);
	c->dev->timeout = saved;
	KUNIT_EXPECT_EQ(test, req.calls, 1);
	KUNIT_EXPECT_EQ(test, req.wr.status, -ETIMEDOUT);
	svc_wr_list(&wr, mk, sge, 1, ACC_ALL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	mlx5_umr_free_mkey(mk);
}

/*
 * A completion event with interrupts off (as from a hard IRQ) is polled
 * from a work item: done() never runs in that context.
 */
static void svc_irq_off_completion(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 32, c->mr[1].mkey->key } };
	struct svc_req req = {};
	struct mlx5_umr_wr *p = &req.wr;
	struct mlx5_umr_mkey *mk;
	unsigned long flags;
	int err, calls;
	bool pending;

	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	svc_wr_list(&req.wr, mk, sge, 1, ACC_ALL);
	req.wr.done = svc_req_done;
	local_irq_save(flags);
	err = mlx5_umr_post(c->dev, &p, 1);
	/* the event, as from a hard IRQ: the CQE is already written */
	c->dev->cq.comp(&c->dev->cq);
	calls = req.calls;
	pending = work_pending(&c->dev->poll_work);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, calls, 0);
	KUNIT_EXPECT_TRUE(test, pending);
	/* the fake's own event may poll first, from its workqueue */
	flush_work(&c->dev->poll_work);
	mlx5_umr_fake_flush(c->fake);
	KUNIT_EXPECT_EQ(test, req.calls, 1);
	KUNIT_EXPECT_EQ(test, req.wr.status, 0);
	mlx5_umr_free_mkey(mk);
}

static struct mlx5_umr_fake *svc_dying_fake;

static void svc_kill_fake(struct work_struct *work)
{
	mlx5_umr_fake_inject_internal_error(svc_dying_fake);
}

/*
 * Internal error: a waiting mlx5_umr_exec() and requests in flight fail
 * with -EIO well before their timeout, new ones fail at once.
 */
static void svc_internal_error(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 32, c->mr[1].mkey->key } };
	struct svc_req req = {}, req2 = {};
	struct mlx5_umr_wr *p = &req.wr, *q = &req2.wr, wr;
	struct delayed_work kill;
	struct mlx5_umr_mkey *mk;
	unsigned long t0;

	mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	svc_wr_list(&req.wr, mk, sge, 1, ACC_ALL);
	req.wr.done = svc_req_done;
	svc_wr_list(&req2.wr, mk, sge, 1, ACC_ALL);
	req2.wr.done = svc_req_done;
	svc_wr_list(&wr, mk, sge, 1, ACC_ALL);

	/* Two requests whose CQEs are lost; the device dies meanwhile. */
	mlx5_umr_fake_inject_drop_cqe(c->fake, 2);
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, &p, 1), 0);
	KUNIT_EXPECT_EQ(test, req.calls, 0);
	svc_dying_fake = c->fake;
	INIT_DELAYED_WORK_ONSTACK(&kill, svc_kill_fake);
	schedule_delayed_work(&kill, msecs_to_jiffies(30));
	t0 = jiffies;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 10000), -EIO);
	KUNIT_EXPECT_LT(test, jiffies - t0, 2UL * HZ);
	flush_delayed_work(&kill);
	destroy_delayed_work_on_stack(&kill);
	flush_work(&c->dev->recover_work);
	KUNIT_EXPECT_EQ(test, req.calls, 1);
	KUNIT_EXPECT_EQ(test, req.wr.status, -EIO);
	KUNIT_EXPECT_EQ(test, c->dev->sq.state, MLX5_UMR_SQ_DEAD);

	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, &q, 1), -EIO);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EIO);
	KUNIT_EXPECT_EQ(test, req2.calls, 0);
	KUNIT_EXPECT_EQ(test, c->dev->sq.pc, c->dev->sq.cc);
	mlx5_umr_free_mkey(mk);
}

static atomic_t svc_adds, svc_removes;

static int svc_client_add(struct mlx5_umr_dev *dev)
{
	atomic_inc(&svc_adds);
	return 0;
}

static void svc_client_remove(struct mlx5_umr_dev *dev)
{
	atomic_inc(&svc_removes);
}

static void svc_unregister(struct kunit *test)
{
	struct mlx5_umr_client client = {
		.name = "svc_test", .add = svc_client_add,
		.remove = svc_client_remove,
	};
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_wr wr = {}, *p = &wr;
	struct mlx5_umr_sge sge = { 0, 16, 0 };

	atomic_set(&svc_adds, 0);
	atomic_set(&svc_removes, 0);
	fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	KUNIT_ASSERT_EQ(test, mlx5_umr_register_client(&client), 0);
	/* told about both the fixture's device and this one */
	KUNIT_EXPECT_GE(test, atomic_read(&svc_adds), 2);
	dev = mlx5_umr_dev_get(mlx5_umr_fake_hca(fake)->name);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_PTR_EQ(test, dev, mlx5_umr_fake_hca(fake)->umr);
	mk = mlx5_umr_alloc_mkey(dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));

	mlx5_umr_fake_destroy(fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&svc_removes), 1);
	KUNIT_EXPECT_NULL(test, mlx5_umr_dev_get(mlx5_umr_dev_name(dev)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(mlx5_umr_alloc_mkey(dev, 1, 0)),
			(long)-ENODEV);
	sge.key = mk->key;
	svc_wr_list(&wr, mk, &sge, 1, ACC_ALL);
	wr.done = (void *)svc_req_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(dev, &p, 1), -ENODEV);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -ENODEV);
	mlx5_umr_free_mkey(mk);
	mlx5_umr_dev_put(dev);
	mlx5_umr_unregister_client(&client);
	KUNIT_EXPECT_EQ(test, atomic_read(&svc_removes), atomic_read(&svc_adds));
}

/* Concurrent submitters on an asynchronous fake. */
#define SVC_THREADS	4
#define SVC_ITERS	300
#define SVC_BATCH	4

/* A submitter's requests, each checked for exactly one completion. */
struct svc_thread {
	struct svc_req req[SVC_ITERS][SVC_BATCH];
};

static unsigned int svc_step_reqs(unsigned int it)
{
	return it % 3 == 0 ? 1 : SVC_BATCH;
}

/* With injected faults a request may fail itself; flushed ones go again. */
static bool svc_status_ok(const struct umr_kunit_submitter *s, int status)
{
	const bool *faults = s->all->ctx;

	if (!status)
		return true;
	return *faults && status == -EIO;
}

/* Every third step one synchronous request, else a batch of SVC_BATCH. */
static int svc_step(struct umr_kunit_submitter *s, unsigned int it)
{
	struct svc_req *req = ((struct svc_thread *)s->priv)->req[it];
	struct mlx5_umr_wr *wrs[SVC_BATCH];
	unsigned int i, n = svc_step_reqs(it);
	int err;

	for (i = 0; i < n; i++) {
		svc_wr_list(&req[i].wr, s->mk, &s->sge, 1, ACC_ALL);
		req[i].wr.done = svc_req_done;
		req[i].ndone = &s->ndone;
		wrs[i] = &req[i].wr;
	}
	if (n == 1) {
		req[0].ndone = NULL;
		err = mlx5_umr_exec(s->dev, wrs[0], 0);
		if (!svc_status_ok(s, err) || req[0].calls)
			return -EPROTO;
		req[0].calls = 1;
		return 0;
	}
	return umr_kunit_submit(s, wrs, n);
}

static void svc_inject_fault(void *fake)
{
	mlx5_umr_fake_inject_wqe_error(fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
}

static void svc_concurrent_run(struct kunit *test, bool faults)
{
	struct mlx5_umr_fake *fake = umr_kunit_fake_registered(test, 0);
	struct mlx5_umr_dev *dev = umr_kunit_fake_umr(fake);
	struct umr_kunit_submitters subs;
	struct mlx5_umr_fake_counters cnt;
	unsigned int i, it, j;
	int bad = 0;

	umr_kunit_submitters_init(test, &subs, dev, SVC_THREADS, SVC_ITERS,
				  sizeof(struct svc_thread));
	subs.step = svc_step;
	subs.ctx = &faults;
	/* errors injected while the submitters run */
	umr_kunit_submitters_run(test, &subs, "umr_svc",
				 faults ? svc_inject_fault : NULL, fake);
	for (i = 0; i < SVC_THREADS; i++) {
		struct umr_kunit_submitter *s = &subs.t[i];
		struct svc_thread *t = s->priv;

		KUNIT_EXPECT_EQ(test, s->errors, 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&s->ndone), s->posted);
		for (it = 0; it < SVC_ITERS; it++)
			for (j = 0; j < svc_step_reqs(it); j++)
				if (t->req[it][j].calls != 1 ||
				    !svc_status_ok(s, t->req[it][j].wr.status))
					bad++;
	}
	umr_kunit_submitters_fini(&subs);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, dev->sq.pc, dev->sq.cc);
	mlx5_umr_fake_get_counters(fake, &cnt);
	if (faults)
		KUNIT_EXPECT_GT(test, cnt.err_cqes, 0ULL);
	else
		KUNIT_EXPECT_EQ(test, cnt.err_cqes, 0ULL);
	mlx5_umr_fake_destroy(fake);
}

static void svc_concurrent(struct kunit *test)
{
	svc_concurrent_run(test, false);
}

/* The same while errors are injected: recovery under load loses nothing. */
static void svc_concurrent_faults(struct kunit *test)
{
	svc_concurrent_run(test, true);
}

static struct kunit_case svc_cases[] = {
	KUNIT_CASE(svc_bringup),
	KUNIT_CASE(svc_mkey_create),
	KUNIT_CASE(svc_seed_list),
	KUNIT_CASE(svc_seed_interleaved),
	KUNIT_CASE(svc_interleaved_several),
	KUNIT_CASE(svc_ptr_1000),
	KUNIT_CASE(svc_inline_limit),
	KUNIT_CASE(svc_access_inval_pd),
	KUNIT_CASE(svc_batch_and_wrap),
	KUNIT_CASE(svc_error_mid_batch),
	KUNIT_CASE(svc_timeout),
	KUNIT_CASE(svc_recover_1000),
	KUNIT_CASE(svc_flow_control),
	KUNIT_CASE(svc_batch_refused),
	KUNIT_CASE(svc_admit),
	KUNIT_CASE(svc_watchdog),
	KUNIT_CASE(svc_irq_off_completion),
	KUNIT_CASE(svc_internal_error),
	KUNIT_CASE(svc_unregister),
	KUNIT_CASE(svc_concurrent),
	KUNIT_CASE(svc_concurrent_faults),
	{}
};

static struct kunit_suite svc_suite = {
	.name = "mlx5_umr_svc",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = svc_cases,
};

kunit_test_suite(svc_suite);

MODULE_DESCRIPTION("KUnit tests of the mlx5 UMR service core");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
