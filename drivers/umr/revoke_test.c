// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: mlx5_umr_revoke() (revoke.c) on the fake: the key dies (the
 * fake's mkey is free and refuses access), a full ring is retried, an
 * error CQE is retried, a key left unknown by a failed NEW_KEY request is
 * invalidated anyway, back-pressure is reported once it outlasted its
 * bound, and a device going away is reported; done() runs
 * once, in process context.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/completion.h>
#include <linux/interrupt.h>

#include "svc_kunit.h"

struct rv_req {
	struct mlx5_umr_revoke rv;
	struct completion done;
	int calls;
	bool in_task;
};

static void rv_done(struct mlx5_umr_revoke *rv)
{
	struct rv_req *r = rv->context;

	r->calls++;
	r->in_task = in_task();
	complete(&r->done);
}

static void rv_start(struct kunit *test, struct rv_req *r,
		     struct mlx5_umr_mkey *mk)
{
	memset(r, 0, sizeof(*r));
	init_completion(&r->done);
	KUNIT_ASSERT_EQ(test, mlx5_umr_revoke(&r->rv, mk, rv_done, r), 0);
}

static void rv_wait(struct kunit *test, struct rv_req *r)
{
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&r->done, 10 * HZ),
			0);
	/* one call: nothing more arrives */
	msleep(20);
	KUNIT_EXPECT_EQ(test, r->calls, 1);
	KUNIT_EXPECT_TRUE(test, r->in_task);
}

/* The fake's mkc.free of @key's mkey (query: its octword count > 0). */
static u32 rv_free_bit(struct kunit *test, struct svc_ctx *c, u32 key)
{
	u32 mkc[MLX5_ST_SZ_DW(mkc)];

	KUNIT_EXPECT_GT(test, mlx5_umr_fake_query_mkey(c->fake, key, mkc,
						       NULL, 0), 0);
	return MLX5_GET(mkc, mkc, free);
}

/* A configured mkey over 64 bytes of mr[0], reachable by a peer. */
static struct mlx5_umr_mkey *rv_live_mkey(struct kunit *test,
					  struct svc_ctx *c,
					  struct mlx5_umr_sge *sge)
{
	struct mlx5_umr_mkey *mk = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	struct mlx5_umr_wr wr;
	u8 byte;

	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));
	*sge = (struct mlx5_umr_sge) { MR_IOVA, 64, c->mr[0].mkey->key };
	svc_wr_list(&wr, mk, sge, 1, ACC_ALL);
	wr.flags |= MLX5_UMR_WR_NEW_KEY;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, mk->key), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_test_xfer(c->dev, mk->key, 0, &byte, 1,
						 false, true), 0);
	return mk;
}

/* Revoked: free on the HCA, no access through the key; reusable. */
static void revoke_frees_key(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_mkey *mk = rv_live_mkey(test, c, &sge);
	struct mlx5_umr_wr wr;
	struct rv_req r;
	u32 key = mk->key;
	u8 byte;

	rv_start(test, &r, mk);
	rv_wait(test, &r);
	KUNIT_EXPECT_EQ(test, r.rv.status, 0);
	KUNIT_EXPECT_EQ(test, r.rv.tries, 1);
	KUNIT_EXPECT_EQ(test, r.rv.retries, 0);
	KUNIT_EXPECT_EQ(test, mk->key, key);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, key), 1);
	KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, key, 0, &byte, 1,
						 false, true), 0);

	/* a free mkey revoked again: still free, still 0 */
	rv_start(test, &r, mk);
	rv_wait(test, &r);
	KUNIT_EXPECT_EQ(test, r.rv.status, 0);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, key), 1);

	svc_wr_list(&wr, mk, &sge, 1, ACC_ALL);
	wr.flags |= MLX5_UMR_WR_NEW_KEY;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, mk->key), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_revoke(NULL, mk, rv_done, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_revoke(&r.rv, NULL, rv_done, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_revoke(&r.rv, mk, NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

/*
 * The ring is full (completions held back): the first post is refused
 * with -ENOSPC and retried from the work item until it runs.
 */
static void revoke_ring_full(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	const unsigned int nreq = 1024;
	struct mlx5_umr_sge sge, fill = { MR_IOVA, 64, c->mr[1].mkey->key };
	struct mlx5_umr_mkey *mk = rv_live_mkey(test, c, &sge), *other;
	atomic_t ndone = ATOMIC_INIT(0);
	struct mlx5_umr_wr *wrs[1];
	unsigned int posted, i;
	struct svc_req *req;
	struct rv_req r;
	int err = 0;

	req = kunit_kcalloc(test, nreq, sizeof(*req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	other = mlx5_umr_alloc_mkey(c->dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));
	mlx5_umr_fake_inject_delay(c->fake, 300);
	for (posted = 0; posted < nreq; posted++) {
		svc_wr_list(&req[posted].wr, other, &fill, 1, ACC_ALL);
		req[posted].wr.done = svc_req_done;
		req[posted].ndone = &ndone;
		wrs[0] = &req[posted].wr;
		err = mlx5_umr_post(c->dev, wrs, 1);
		if (err)
			break;
	}
	KUNIT_ASSERT_EQ(test, err, -ENOSPC);

	rv_start(test, &r, mk);
	/* refused at once, nothing of it posted yet */
	KUNIT_EXPECT_GE(test, r.rv.retries, 1);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, mk->key), 0);
	rv_wait(test, &r);
	KUNIT_EXPECT_EQ(test, r.rv.status, 0);
	KUNIT_EXPECT_GE(test, r.rv.retries, 1);
	KUNIT_EXPECT_EQ(test, r.rv.tries, 1);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, mk->key), 1);
	/* it ran after the requests ahead of it */
	KUNIT_EXPECT_EQ(test, atomic_read(&ndone), posted);
	for (i = 0; i < posted; i++)
		KUNIT_EXPECT_EQ(test, req[i].wr.status, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(other), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

/* An error CQE on the invalidation: posted again, then the key is dead. */
static void revoke_error_cqe_retried(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_mkey *mk = rv_live_mkey(test, c, &sge);
	struct rv_req r;

	mlx5_umr_fake_inject_wqe_error(c->fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
	rv_start(test, &r, mk);
	rv_wait(test, &r);
	KUNIT_EXPECT_EQ(test, r.rv.status, 0);
	KUNIT_EXPECT_EQ(test, r.rv.tries, 2);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, mk->key), 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

/*
 * After a NEW_KEY configure failed (-EIO) the key is unknown and a plain
 * invalidation is refused (-ESTALE): the revocation installs a new key
 * byte with it, and the mkey is free under that key.
 */
static void revoke_unknown_key(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_mkey *mk = rv_live_mkey(test, c, &sge);
	struct mlx5_umr_wr wr;
	struct rv_req r;
	u32 unknown;

	svc_wr_list(&wr, mk, &sge, 1, ACC_ALL);
	wr.flags |= MLX5_UMR_WR_NEW_KEY;
	mlx5_umr_fake_inject_wqe_error(c->fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EIO);
	memset(&wr, 0, sizeof(wr));
	wr.mkey = mk;
	wr.op = MLX5_UMR_OP_INVALIDATE;
	KUNIT_ASSERT_EQ(test, mlx5_umr_validate(c->dev, &wr), -ESTALE);
	unknown = mk->key;

	rv_start(test, &r, mk);
	rv_wait(test, &r);
	KUNIT_EXPECT_EQ(test, r.rv.status, 0);
	KUNIT_EXPECT_NE(test, mk->key, unknown);
	KUNIT_EXPECT_EQ(test, mk->key >> 8, unknown >> 8);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, mk->key), 1);
	/* the key is known again */
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &wr), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

/*
 * Back-pressure is bounded: with the queue held in recovery (-EAGAIN)
 * past twice the device timeout, the revocation reports -EAGAIN, nothing
 * posted, the key still live; once the queue is back a new one works.
 */
static void revoke_busy_bounded(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	unsigned long saved = c->dev->timeout, t0;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_mkey *mk = rv_live_mkey(test, c, &sge);
	struct mlx5_umr_queue *q0 = to_priv(mk)->q;
	struct svc_req one = {};
	struct mlx5_umr_wr *p = &one.wr;
	struct rv_req r;

	svc_wr_list(&one.wr, mk, &sge, 1, ACC_ALL);
	one.wr.done = svc_req_done;
	mutex_lock(&q0->recover_lock);
	mlx5_umr_fake_inject_wqe_error(c->fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, &p, 1), 0);
	queue_work(system_highpri_wq, &q0->poll_work);
	flush_work(&q0->poll_work);
	KUNIT_EXPECT_EQ(test, one.calls, 1);
	KUNIT_EXPECT_EQ(test, one.wr.status, -EIO);
	KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_ERR);

	c->dev->timeout = msecs_to_jiffies(20);
	t0 = jiffies;
	rv_start(test, &r, mk);
	rv_wait(test, &r);
	c->dev->timeout = saved;
	KUNIT_EXPECT_EQ(test, r.rv.status, -EAGAIN);
	KUNIT_EXPECT_EQ(test, r.rv.tries, 0);
	KUNIT_EXPECT_GE(test, r.rv.retries, 2);
	/* not before the bound */
	KUNIT_EXPECT_TRUE(test, time_after_eq(jiffies, t0 + msecs_to_jiffies(40)));
	KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_ERR);
	mutex_unlock(&q0->recover_lock);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, mk->key), 0);

	rv_start(test, &r, mk);
	rv_wait(test, &r);
	KUNIT_EXPECT_EQ(test, r.rv.status, 0);
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, mk->key), 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mk), 0);
}

struct rv_unreg {
	struct work_struct work;
	struct mlx5_umr_hca *hca;
};

static void rv_unregister(struct work_struct *work)
{
	mlx5_umr_unregister_hca(container_of(work, struct rv_unreg, work)->hca);
}

/*
 * The device is being unregistered: the revocation cannot be posted and
 * reports -ENODEV, once, from process context; the mkey is still the
 * caller's to free.
 */
static void revoke_device_gone(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->dev;
	struct rv_unreg un = { .hca = mlx5_umr_fake_hca(c->fake) };
	struct mlx5_umr_sge sge;
	struct mlx5_umr_mkey *mk = rv_live_mkey(test, c, &sge);
	struct rv_req r;
	unsigned int i;

	/* nothing of the fixture left mapped when the device goes */
	svc_mr_unreg(dev, &c->mr[0]);
	svc_mr_unreg(dev, &c->mr[1]);
	/* a call in progress holds the unregister after its first step */
	mlx5_umr_dev_hold(dev);
	percpu_ref_get(&dev->users);
	INIT_WORK_ONSTACK(&un.work, rv_unregister);
	queue_work(system_long_wq, &un.work);
	for (i = 0; i < 1000 && !percpu_ref_is_dying(&dev->users); i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_TRUE(test, percpu_ref_is_dying(&dev->users));

	rv_start(test, &r, mk);
	rv_wait(test, &r);
	KUNIT_EXPECT_EQ(test, r.rv.status, -ENODEV);
	KUNIT_EXPECT_EQ(test, r.rv.tries, 0);
	KUNIT_EXPECT_EQ(test, r.rv.retries, 0);
	/* nothing was posted: the HCA still has the mkey live */
	KUNIT_EXPECT_EQ(test, rv_free_bit(test, c, mk->key), 0);

	percpu_ref_put(&dev->users);
	flush_work(&un.work);
	destroy_work_on_stack(&un.work);
	mlx5_umr_free_mkey(mk);
	mlx5_umr_dev_put(dev);
}

static struct kunit_case revoke_cases[] = {
	KUNIT_CASE(revoke_frees_key),
	KUNIT_CASE(revoke_ring_full),
	KUNIT_CASE(revoke_error_cqe_retried),
	KUNIT_CASE(revoke_unknown_key),
	KUNIT_CASE(revoke_busy_bounded),
	KUNIT_CASE(revoke_device_gone),
	{}
};

static struct kunit_suite revoke_suite = {
	.name = "mlx5_umr_revoke",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = revoke_cases,
};

kunit_test_suite(revoke_suite);

MODULE_DESCRIPTION("KUnit tests of the asynchronous revocation of a key");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
