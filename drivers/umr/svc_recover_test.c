// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: errors and recovery (sq_recover.c): an error CQE in the middle
 * of a batch, a thousand recoveries in a row, and the device's internal
 * error failing waiters and requests in flight.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "svc_kunit.h"

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
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 128, c->mr[0].mkey->key } };
	struct svc_seg segs[] = { { &c->mr[0], 0, 128 } };
	struct mlx5_umr_mkey *mk[5];
	struct mlx5_umr_wr *wrs[5];
	struct svc_req *req = kunit_kcalloc(test, 5, sizeof(*req), GFP_KERNEL);
	struct mlx5_umr_wr wr;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, req);
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
	KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_RTS);

	/* mk[2] is already gone on the HCA; drop the service's record. */
	to_priv(mk[2])->hw = false;
	for (i = 0; i < 5; i++)
		mlx5_umr_free_mkey(mk[i]);
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
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
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
	flush_work(&q0->recover_work);
	KUNIT_EXPECT_EQ(test, req.calls, 1);
	KUNIT_EXPECT_EQ(test, req.wr.status, -EIO);
	KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_DEAD);

	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, &q, 1), -EIO);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EIO);
	KUNIT_EXPECT_EQ(test, req2.calls, 0);
	KUNIT_EXPECT_EQ(test, q0->sq.pc, q0->sq.cc);
	mlx5_umr_free_mkey(mk);
}

static struct kunit_case svc_recover_cases[] = {
	KUNIT_CASE(svc_error_mid_batch),
	KUNIT_CASE_SLOW(svc_recover_1000),
	KUNIT_CASE(svc_internal_error),
	{}
};

static struct kunit_suite svc_recover_suite = {
	.name = "mlx5_umr_svc_recover",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = svc_recover_cases,
};

kunit_test_suite(svc_recover_suite);

MODULE_DESCRIPTION("KUnit tests of the service's error recovery");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
