// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the service's device against the fake HCA (dev.c, mkey.c): the
 * state and objects of bring-up, and CREATE_MKEY as the HCA stored it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "svc_kunit.h"

static void svc_bringup(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
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
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, q0->sq.qpn,
						     &ci), MLX5_QP_STATE_RTS);
	/* Two REG_PAGES so far, nothing in flight. */
	KUNIT_EXPECT_EQ(test, (u16)q0->sq.pc, ci);
	KUNIT_EXPECT_EQ(test, q0->sq.pc, q0->sq.cc);
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

static struct kunit_case svc_dev_cases[] = {
	KUNIT_CASE(svc_bringup),
	KUNIT_CASE(svc_mkey_create),
	{}
};

static struct kunit_suite svc_dev_suite = {
	.name = "mlx5_umr_svc_dev",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = svc_dev_cases,
};

kunit_test_suite(svc_dev_suite);

MODULE_DESCRIPTION("KUnit tests of the service device's bring-up and mkeys");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
