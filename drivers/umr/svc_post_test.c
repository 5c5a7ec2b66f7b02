// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: posting and completion (sq_post.c, sq_comp.c): batches with one
 * doorbell and one CQE around the ring, a full ring, admission, batches
 * refused whole, and a completion event with interrupts off.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "svc_kunit.h"

/* One doorbell, one CQE for the batch; the ring wraps many times. */
static void svc_batch_and_wrap(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
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
	unsigned int rounds = 2 * q0->sq.bbs / 24 + 2;
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
		start = q0->sq.pc;
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
	KUNIT_EXPECT_GT(test, q0->sq.pc, 2 * q0->sq.bbs);
	KUNIT_EXPECT_EQ(test, q0->sq.pc, q0->sq.cc);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, q0->sq.qpn,
						     &ci), MLX5_QP_STATE_RTS);
	KUNIT_EXPECT_EQ(test, ci, (u16)q0->sq.pc);
	svc_check_layout(test, c->dev, mk->key, segs, ARRAY_SIZE(segs));
	mlx5_umr_free_mkey(mk);
}

/* A full ring refuses a batch with -ENOSPC; space returns with completions. */
static void svc_flow_control(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge[] = {
		{ MR_IOVA, 64, c->mr[0].mkey->key },
		{ MR_IOVA, 64, c->mr[1].mkey->key },
	};
	/* More 3-block WQEs than the ring holds. */
	const unsigned int nreq = mlx5_umr_dev_q0(c->dev)->sq.bbs / 3 + 16;
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
	KUNIT_EXPECT_EQ(test, err, -ENOSPC);
	/* 3 basic blocks per WQE: the ring held what fitted, no more. */
	KUNIT_EXPECT_GT(test, posted * 3, mlx5_umr_dev_q0(c->dev)->sq.bbs - 24);
	KUNIT_EXPECT_LE(test, posted * 3, mlx5_umr_dev_q0(c->dev)->sq.bbs);
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
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
	struct mlx5_umr_sge sge[] = { { MR_IOVA, 64, c->mr[0].mkey->key } };
	struct mlx5_umr_fake_counters before, after;
	struct mlx5_umr_sge bad;
	struct mlx5_umr_mkey *mk, *big;
	struct mlx5_umr_wr *wrs[3];
	struct svc_req req[3] = {};
	struct mlx5_umr_sge *many;
	u32 pc = q0->sq.pc;
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
	KUNIT_EXPECT_EQ(test, q0->sq.pc, pc);
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
	KUNIT_EXPECT_EQ(test, q0->sq.cc, q0->sq.pc);
	KUNIT_EXPECT_EQ(test, q0->sq.head, q0->sq.tail);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &req[0].wr, 0), 0);
	mlx5_umr_free_mkey(big);
	mlx5_umr_free_mkey(mk);
}

/*
 * A completion event with interrupts off (as from a hard IRQ) is polled
 * from a work item: done() never runs in that context.
 */
static void svc_irq_off_completion(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = mlx5_umr_dev_q0(c->dev);
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
	q0->cq.comp(&q0->cq);
	calls = req.calls;
	pending = work_pending(&q0->poll_work);
	local_irq_restore(flags);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, calls, 0);
	KUNIT_EXPECT_TRUE(test, pending);
	/* the fake's own event may poll first, from its workqueue */
	flush_work(&q0->poll_work);
	mlx5_umr_fake_flush(c->fake);
	KUNIT_EXPECT_EQ(test, req.calls, 1);
	KUNIT_EXPECT_EQ(test, req.wr.status, 0);
	mlx5_umr_free_mkey(mk);
}

static struct kunit_case svc_post_cases[] = {
	KUNIT_CASE(svc_batch_and_wrap),
	KUNIT_CASE(svc_flow_control),
	KUNIT_CASE(svc_batch_refused),
	KUNIT_CASE(svc_admit),
	KUNIT_CASE(svc_irq_off_completion),
	{}
};

static struct kunit_suite svc_post_suite = {
	.name = "mlx5_umr_svc_post",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = svc_post_cases,
};

kunit_test_suite(svc_post_suite);

MODULE_DESCRIPTION("KUnit tests of the service's posting and completion");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
