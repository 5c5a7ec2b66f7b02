// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: configures of each layout through the service on the fake, each
 * proven through the fake's data path (wqe.c, sq_post.c): the seed
 * examples of mlx5dv_wr_mkey_configure(3), interleaved layouts, inline and
 * pointer-mode lists, and access, PD and invalidation taking effect.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "svc_kunit.h"

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

static struct kunit_case svc_layout_cases[] = {
	KUNIT_CASE(svc_seed_list),
	KUNIT_CASE(svc_seed_interleaved),
	KUNIT_CASE(svc_interleaved_several),
	KUNIT_CASE_SLOW(svc_ptr_1000),
	KUNIT_CASE(svc_inline_limit),
	KUNIT_CASE(svc_access_inval_pd),
	{}
};

static struct kunit_suite svc_layout_suite = {
	.name = "mlx5_umr_svc_layout",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = svc_layout_cases,
};

kunit_test_suite(svc_layout_suite);

MODULE_DESCRIPTION("KUnit tests of the service's layouts through the fake");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
