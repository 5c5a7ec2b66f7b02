// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: requests whose CQE never comes (sq_post.c, sq_recover.c): a
 * synchronous wait that times out, and the watchdog failing an
 * asynchronous request.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "svc_kunit.h"

static void svc_timeout(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
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
	KUNIT_EXPECT_EQ(test, q0->sq.pc, q0->sq.cc);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	svc_check_layout(test, c->dev, mk->key, segs, 1);
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
	cancel_delayed_work_sync(&mlx5_umr_dev_q0(c->dev)->watchdog);
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

static struct kunit_case svc_timeout_cases[] = {
	KUNIT_CASE(svc_timeout),
	KUNIT_CASE(svc_watchdog),
	{}
};

static struct kunit_suite svc_timeout_suite = {
	.name = "mlx5_umr_svc_timeout",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = svc_timeout_cases,
};

kunit_test_suite(svc_timeout_suite);

MODULE_DESCRIPTION("KUnit tests of the service's timeouts and watchdog");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
