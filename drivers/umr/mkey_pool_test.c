// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: mkey pools (mkey_pool.c) on the fake: what they create, that
 * taking and returning never sleeps, that a failed set-up leaves nothing,
 * and that a pool's mkey configures and moves data like any other.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include "svc_kunit.h"

static u32 live_mkeys(struct svc_ctx *c)
{
	struct mlx5_umr_fake_counters cnt;

	mlx5_umr_fake_get_counters(c->fake, &cnt);
	return cnt.mkeys;
}

static void pool_get_put(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_mkey *m[3], *extra;
	struct mlx5_umr_mkey_pool pool;
	unsigned long irqflags;
	u32 before = live_mkeys(c);
	int i;

	KUNIT_ASSERT_EQ(test, mlx5_umr_mkey_pool_init(&pool, c->dev, NULL, 3,
						      4, 0), 0);
	KUNIT_EXPECT_EQ(test, live_mkeys(c), before + 3);

	/* taken and returned with interrupts off: nothing may sleep */
	local_irq_save(irqflags);
	for (i = 0; i < 3; i++)
		m[i] = mlx5_umr_mkey_pool_get(&pool);
	extra = mlx5_umr_mkey_pool_get(&pool);
	local_irq_restore(irqflags);
	KUNIT_EXPECT_NULL(test, extra);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_NOT_NULL(test, m[i]);
		KUNIT_EXPECT_EQ(test, m[i]->max_entries, 4);
		KUNIT_EXPECT_EQ(test, m[i]->pdn,
				mlx5_umr_dev_caps(c->dev)->pdn);
		KUNIT_EXPECT_FALSE(test, m[i]->direct);
	}
	KUNIT_EXPECT_NE(test, m[0]->key, m[1]->key);
	KUNIT_EXPECT_NE(test, m[1]->key, m[2]->key);
	KUNIT_EXPECT_NE(test, m[0]->key, m[2]->key);

	local_irq_save(irqflags);
	mlx5_umr_mkey_pool_put(&pool, m[1]);
	extra = mlx5_umr_mkey_pool_get(&pool);
	local_irq_restore(irqflags);
	KUNIT_EXPECT_PTR_EQ(test, extra, m[1]);

	/* one still taken: the pool frees the others and says so */
	mlx5_umr_mkey_pool_put(&pool, m[0]);
	mlx5_umr_mkey_pool_put(&pool, m[2]);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_pool_destroy(&pool), -EBUSY);
	KUNIT_EXPECT_EQ(test, live_mkeys(c), before + 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(m[1]), 0);
	KUNIT_EXPECT_EQ(test, live_mkeys(c), before);

	KUNIT_ASSERT_EQ(test, mlx5_umr_mkey_pool_init(&pool, c->dev, NULL, 2,
						      4, 0), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_pool_destroy(&pool), 0);
	KUNIT_EXPECT_EQ(test, live_mkeys(c), before);
}

/* A set-up failing at any command leaves no mkey behind. */
static void pool_init_fails(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	u32 caps_max = mlx5_umr_dev_caps(c->dev)->max_klm_entries;
	struct mlx5_umr_mkey_pool pool;
	u32 before = live_mkeys(c);
	unsigned int n;
	int err;

	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_pool_init(&pool, c->dev, NULL, 0,
						      4, 0), -EINVAL);
	KUNIT_EXPECT_LT(test, mlx5_umr_mkey_pool_init(&pool, c->dev, NULL, 2,
						      caps_max + 1, 0), 0);
	KUNIT_EXPECT_EQ(test, live_mkeys(c), before);

	for (n = 1; n < 64; n++) {
		unsigned int left;

		mlx5_umr_fake_inject_cmd_nth(c->fake, n,
					     MLX5_CMD_STAT_BAD_RES_ERR, 0x1234);
		err = mlx5_umr_mkey_pool_init(&pool, c->dev, NULL, 3, 4, 0);
		left = mlx5_umr_fake_inject_cmd_nth(c->fake, 0, 0, 0);
		if (!err) {
			/* the set-up ran fewer than n commands */
			KUNIT_EXPECT_NE(test, left, 0);
			KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_pool_destroy(&pool),
					0);
			break;
		}
		KUNIT_EXPECT_EQ(test, left, 0);
		KUNIT_EXPECT_EQ(test, live_mkeys(c), before);
	}
	KUNIT_EXPECT_GT(test, n, 3U);
	KUNIT_EXPECT_LT(test, n, 64U);
	KUNIT_EXPECT_EQ(test, live_mkeys(c), before);
}

/* A pool in a ULP's PD: its mkeys are there, and never signature ones. */
static void pool_in_ulp_pd(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_mkey_pool pool;
	struct mlx5_umr_mkey *m;
	struct mlx5_umr_pd *pd;
	struct ib_pd *ibpd;
	u32 before;

	ibpd = mlx5_umr_fake_ib_pd_alloc(c->fake);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ibpd));
	pd = mlx5_umr_pd_get_ib(c->dev, ibpd);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pd));
	before = live_mkeys(c);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_pool_init(&pool, c->dev, pd, 2, 4,
						      MLX5_UMR_MKEY_SIGNATURE),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, live_mkeys(c), before);
	KUNIT_ASSERT_EQ(test, mlx5_umr_mkey_pool_init(&pool, c->dev, pd, 2, 4,
						      MLX5_UMR_MKEY_REMOTE_INVALIDATE),
			0);
	m = mlx5_umr_mkey_pool_get(&pool);
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, m->pdn, pd->pdn);
	KUNIT_EXPECT_EQ(test, m->dma_lkey, pd->dma_lkey);
	KUNIT_EXPECT_EQ(test, m->flags, MLX5_UMR_MKEY_REMOTE_INVALIDATE);
	mlx5_umr_mkey_pool_put(&pool, m);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_pool_destroy(&pool), 0);
	KUNIT_EXPECT_EQ(test, live_mkeys(c), before);
	mlx5_umr_pd_put(pd);
	mlx5_umr_fake_ib_pd_free(ibpd);
}

/*
 * A pool's mkey, configured from a scatterlist as a
 * blk-mq driver holds it after ib_dma_map_sg(): (sgl, nents) and an
 * offset into the first entry; the bytes land where the list says.
 */
static void pool_map_sg_moves_data(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(c->dev);
	struct svc_mr *a = &c->mr[0], *b = &c->mr[1];
	struct mlx5_umr_mkey_pool pool;
	struct mlx5_umr_sge sge[4];
	struct scatterlist sgl[3];
	struct mlx5_umr_wr wr = {};
	struct mlx5_umr_mkey *m;
	unsigned int off = 40;

	KUNIT_ASSERT_EQ(test, mlx5_umr_mkey_pool_init(&pool, c->dev, NULL, 1,
						      4, 0), 0);
	m = mlx5_umr_mkey_pool_get(&pool);
	KUNIT_ASSERT_NOT_NULL(test, m);

	/* two pieces adjacent in device address space, then another page */
	sg_init_table(sgl, 3);
	sg_dma_address(&sgl[0]) = a->addrs[0] + 100;
	sg_dma_len(&sgl[0]) = 200;
	sg_dma_address(&sgl[1]) = a->addrs[0] + 300;
	sg_dma_len(&sgl[1]) = 50;
	sg_dma_address(&sgl[2]) = b->addrs[1] + 8;
	sg_dma_len(&sgl[2]) = 1000;

	wr.mkey = m;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_NEW_KEY;
	wr.access = ACC_ALL;
	KUNIT_ASSERT_EQ(test, mlx5_umr_map_sg(&wr, sge, ARRAY_SIZE(sge), sgl,
					      3, &off, caps->dma_lkey), 3);
	KUNIT_EXPECT_EQ(test, wr.layout, MLX5_UMR_LAYOUT_LIST);
	KUNIT_EXPECT_PTR_EQ(test, wr.list.sge, (const struct mlx5_umr_sge *)sge);
	KUNIT_ASSERT_EQ(test, wr.list.num_sge, 2);
	KUNIT_EXPECT_EQ(test, sge[0].addr, a->addrs[0] + 140);
	KUNIT_EXPECT_EQ(test, sge[0].length, 210);
	KUNIT_EXPECT_EQ(test, sge[0].key, caps->dma_lkey);
	KUNIT_EXPECT_EQ(test, sge[1].addr, b->addrs[1] + 8);
	KUNIT_EXPECT_EQ(test, sge[1].length, 1000);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, m->key, wr.new_key);
	svc_check_layout(test, c->dev, m->key, (const struct svc_seg[]) {
		{ a, 140, 210 }, { b, PAGE_SIZE + 8, 1000 },
	}, 2);

	mlx5_umr_mkey_pool_put(&pool, m);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_pool_destroy(&pool), 0);
}

/* What mlx5_umr_map_sg() takes, splits and refuses; nothing is posted. */
static void map_sg_limits(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[4];
	struct scatterlist sgl[3];
	struct mlx5_umr_wr wr = {};
	struct mlx5_umr_mkey *m;
	unsigned int off;

	m = mlx5_umr_alloc_mkey(c->dev, 3, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m));
	wr.mkey = m;
	sg_init_table(sgl, 3);
	sg_dma_address(&sgl[0]) = 0x10000;
	sg_dma_len(&sgl[0]) = 0xc0000000;	/* 3 GiB: two KLMs */
	sg_dma_address(&sgl[1]) = 0x1000;
	sg_dma_len(&sgl[1]) = 0;		/* skipped */
	sg_dma_address(&sgl[2]) = 0x2000;
	sg_dma_len(&sgl[2]) = 16;

	KUNIT_EXPECT_EQ(test, mlx5_umr_map_sg(&wr, sge, 4, sgl, 3, NULL, 7), 3);
	KUNIT_ASSERT_EQ(test, wr.list.num_sge, 3);
	KUNIT_EXPECT_EQ(test, sge[0].addr, 0x10000);
	KUNIT_EXPECT_EQ(test, sge[0].length, 0x80000000);
	KUNIT_EXPECT_EQ(test, sge[1].addr, 0x80010000);
	KUNIT_EXPECT_EQ(test, sge[1].length, 0x40000000);
	KUNIT_EXPECT_EQ(test, sge[2].addr, 0x2000);
	KUNIT_EXPECT_EQ(test, sge[2].length, 16);
	KUNIT_EXPECT_EQ(test, sge[2].key, 7);

	/* the array (or the mkey) is full: the entries before are mapped */
	KUNIT_EXPECT_EQ(test, mlx5_umr_map_sg(&wr, sge, 2, sgl, 3, NULL, 7), 2);
	KUNIT_EXPECT_EQ(test, wr.list.num_sge, 2);
	sg_dma_len(&sgl[0]) = 0x1000;
	sg_dma_address(&sgl[1]) = 0x3000;
	sg_dma_len(&sgl[1]) = 0x10;
	sg_dma_address(&sgl[2]) = 0x5000;
	KUNIT_EXPECT_EQ(test, mlx5_umr_map_sg(&wr, sge, 2, sgl, 3, NULL, 7), 2);
	KUNIT_EXPECT_EQ(test, wr.list.num_sge, 2);
	KUNIT_EXPECT_EQ(test, mlx5_umr_map_sg(&wr, sge, 4, sgl, 3, NULL, 7), 3);

	/* an offset beyond the first entry, or nothing that fits */
	off = 0x1000;
	wr.list.num_sge = 9;
	KUNIT_EXPECT_EQ(test, mlx5_umr_map_sg(&wr, sge, 4, sgl, 3, &off, 7),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, wr.list.num_sge, 9);
	sg_dma_len(&sgl[0]) = 0xc0000000;
	KUNIT_EXPECT_EQ(test, mlx5_umr_map_sg(&wr, sge, 1, sgl, 3, NULL, 7),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, wr.list.num_sge, 9);
	off = 0x1000;
	KUNIT_EXPECT_EQ(test, mlx5_umr_map_sg(&wr, sge, 1, sgl, 1, &off, 7),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_map_sg(&wr, sge, 2, sgl, 1, &off, 7), 1);
	KUNIT_EXPECT_EQ(test, wr.list.num_sge, 2);
	KUNIT_EXPECT_EQ(test, sge[0].addr, 0x11000);
	KUNIT_EXPECT_EQ(test, sge[0].length, 0x80000000);
	KUNIT_EXPECT_EQ(test, sge[1].addr, 0x80011000);
	KUNIT_EXPECT_EQ(test, sge[1].length, 0x3ffff000);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(m), 0);
}

static struct kunit_case mkey_pool_cases[] = {
	KUNIT_CASE(pool_get_put),
	KUNIT_CASE(pool_init_fails),
	KUNIT_CASE(pool_in_ulp_pd),
	KUNIT_CASE(pool_map_sg_moves_data),
	KUNIT_CASE(map_sg_limits),
	{}
};

static struct kunit_suite mkey_pool_suite = {
	.name = "mlx5_umr_mkey_pool",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = mkey_pool_cases,
};

kunit_test_suite(mkey_pool_suite);

MODULE_DESCRIPTION("KUnit tests of mkey pools and scatterlist maps");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
