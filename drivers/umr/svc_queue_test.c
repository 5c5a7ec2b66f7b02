// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: UMR channels a ULP owns (queue.c): a QP and CQ of its own that
 * runs the requests of the mkeys homed on it, done() in the context its
 * completion mode says (a kworker, softirq, or whoever polls), a polled
 * channel never timed out while its CQE waits for the poller, destroy
 * refused while mkeys are homed on it, a channel left at unplug, mkeys
 * moved onto it, and its errors recovered on it alone.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/interrupt.h>

#include "svc_kunit.h"

/* What a done() saw. */
struct q_req {
	struct mlx5_umr_wr wr;
	int calls;
	int cpu;
	bool softirq;
	bool task;
	struct task_struct *who;
	unsigned int seq;
	atomic_t *order;
};

static void q_req_done(struct mlx5_umr_wr *wr)
{
	struct q_req *r = container_of(wr, struct q_req, wr);

	r->calls++;
	r->cpu = raw_smp_processor_id();
	r->softirq = in_serving_softirq();
	r->task = in_task();
	r->who = current;
	if (r->order)
		r->seq = atomic_inc_return(r->order);
}

/* A one-entry configure of @mkey onto @len bytes at @off of the MR. */
static void q_wr(struct svc_ctx *c, struct q_req *r, struct mlx5_umr_mkey *mkey,
		 struct mlx5_umr_sge *sge, u64 off, u32 len)
{
	*sge = (struct mlx5_umr_sge){ MR_IOVA + off, len, c->mr[0].mkey->key };
	svc_wr_list(&r->wr, mkey, sge, 1, ACC_ALL);
	r->wr.done = q_req_done;
}

static int q_post(struct svc_ctx *c, struct q_req *r)
{
	struct mlx5_umr_wr *wr = &r->wr;

	return mlx5_umr_post(c->dev, &wr, 1);
}

/* The QPs the fake's exec log saw since @from, the last one in *@qpn. */
static unsigned int q_log_qpns(struct kunit *test, struct svc_ctx *c,
			       unsigned int from, u32 *qpn)
{
	struct mlx5_umr_fake_exec_ent ents[8];
	unsigned int n, dropped = 0;

	n = mlx5_umr_fake_exec_log_read(c->fake, from, ents, ARRAY_SIZE(ents),
					&dropped);
	KUNIT_EXPECT_EQ(test, dropped, 0);
	if (n)
		*qpn = ents[n - 1].qpn;
	return n;
}

/*
 * IRQ mode: a QP of its own, in RTS; done() in a task (the fake's
 * kworker), on the CPU of the channel's vector, not in softirq; the
 * layout is the one the data path sees.
 */
static void q_irq_done_on_cpu(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_fake_counters was, now;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_mkey *mkey;
	struct mlx5_umr_sge sge;
	struct q_req r = {};
	u32 qpn = 0;
	int cpu;

	mlx5_umr_fake_get_counters(c->fake, &was);
	q = mlx5_umr_queue_create(c->dev, 0, 100, MLX5_UMR_COMP_IRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	mlx5_umr_fake_get_counters(c->fake, &now);
	KUNIT_EXPECT_EQ(test, now.qps, was.qps + 1);
	KUNIT_EXPECT_EQ(test, now.cqs, was.cqs + 1);
	/* 100 rounded up to a power of two; a CQE per two blocks */
	KUNIT_EXPECT_EQ(test, q->sq.bbs, 128);
	KUNIT_EXPECT_EQ(test, q->sq.ncqe, 64);
	cpu = cpumask_local_spread(0, c->dev->hca->numa_node);
	KUNIT_EXPECT_EQ(test, q->cpu, cpu);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, q->sq.qpn, NULL),
			MLX5_QP_STATE_RTS);
	KUNIT_EXPECT_NE(test, q->sq.qpn, mlx5_umr_dev_q0(c->dev)->sq.qpn);
	/* not polled: -EINVAL */
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_poll(q, 4), -EINVAL);

	mkey = mlx5_umr_queue_alloc_mkey(q, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mkey));
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(mkey), q);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_start(c->fake, 8), 0);
	q_wr(c, &r, mkey, &sge, 128, 256);
	KUNIT_ASSERT_EQ(test, q_post(c, &r), 0);
	mlx5_umr_fake_flush(c->fake);
	KUNIT_EXPECT_EQ(test, r.calls, 1);
	KUNIT_EXPECT_EQ(test, r.wr.status, 0);
	KUNIT_EXPECT_EQ(test, r.cpu, q->cpu);
	KUNIT_EXPECT_TRUE(test, r.task);
	KUNIT_EXPECT_FALSE(test, r.softirq);
	KUNIT_EXPECT_EQ(test, q_log_qpns(test, c, 0, &qpn), 1);
	KUNIT_EXPECT_EQ(test, qpn, q->sq.qpn);
	mlx5_umr_fake_exec_log_stop(c->fake);
	svc_check_layout(test, c->dev, mkey->key,
			 &(struct svc_seg){ &c->mr[0], 128, 256 }, 1);

	mlx5_umr_free_mkey(mkey);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
	mlx5_umr_fake_get_counters(c->fake, &now);
	KUNIT_EXPECT_EQ(test, now.qps, was.qps);
	KUNIT_EXPECT_EQ(test, now.cqs, was.cqs);
}

/* SOFTIRQ mode: done() runs in softirq (irq_poll), the layout is right. */
static void q_softirq_done_in_softirq(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_mkey *mkey;
	struct mlx5_umr_sge sge;
	struct q_req r[2] = {};
	int i, n;

	q = mlx5_umr_queue_create(c->dev, -1, 64, MLX5_UMR_COMP_SOFTIRQ);
	if (!IS_ENABLED(CONFIG_IRQ_POLL)) {
		KUNIT_EXPECT_PTR_EQ(test, q, ERR_PTR(-EOPNOTSUPP));
		kunit_skip(test, "no CONFIG_IRQ_POLL: -EOPNOTSUPP, as documented");
	}
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_EQ(test, q->vector, mlx5_umr_cpu_queue(c->dev)->vector);
	mkey = mlx5_umr_queue_alloc_mkey(q, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mkey));
	/* twice: the poller re-armed the CQ after the first */
	for (i = 0; i < 2; i++) {
		q_wr(c, &r[i], mkey, &sge, 512 * i, 200);
		KUNIT_ASSERT_EQ(test, q_post(c, &r[i]), 0);
		mlx5_umr_fake_flush(c->fake);
		/* the softirq may have gone to ksoftirqd */
		for (n = 0; n < 100 && !READ_ONCE(r[i].calls); n++)
			msleep(20);
		KUNIT_EXPECT_EQ(test, r[i].calls, 1);
		KUNIT_EXPECT_EQ(test, r[i].wr.status, 0);
		KUNIT_EXPECT_TRUE(test, r[i].softirq);
		svc_check_layout(test, c->dev, mkey->key,
				 &(struct svc_seg){ &c->mr[0], 512 * i, 200 },
				 1);
	}
	mlx5_umr_free_mkey(mkey);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
}

/*
 * POLLED mode: no done() until the ULP polls; a poll consumes at most its
 * budget (post 8, poll 3: the first 3 done, in order), in the caller.
 */
static void q_polled_budget(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_mkey *mkey[8];
	struct mlx5_umr_sge sge[8];
	struct mlx5_umr_queue *q;
	struct q_req *r;
	atomic_t order = ATOMIC_INIT(0);
	int i;

	/* off the stack: eight requests are too much for a KASAN frame */
	r = kunit_kcalloc(test, 8, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	q = mlx5_umr_queue_create(c->dev, 0, 256, MLX5_UMR_COMP_POLLED);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	for (i = 0; i < 8; i++) {
		mkey[i] = mlx5_umr_queue_alloc_mkey(q, 4, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mkey[i]));
		q_wr(c, &r[i], mkey[i], &sge[i], 64 * i, 64);
		r[i].order = &order;
		KUNIT_ASSERT_EQ(test, q_post(c, &r[i]), 0);
	}
	mlx5_umr_fake_flush(c->fake);
	mlx5_umr_sq_flush(c->dev);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, r[i].calls, 0);
	KUNIT_EXPECT_EQ(test, q->sq.pc - q->sq.cc, q->sq.pc);

	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_poll(q, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_poll(q, 3), 3);
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, r[i].calls, i < 3 ? 1 : 0);
		if (i < 3) {
			KUNIT_EXPECT_EQ(test, r[i].seq, i + 1);
			KUNIT_EXPECT_PTR_EQ(test, r[i].who, current);
			KUNIT_EXPECT_EQ(test, r[i].wr.status, 0);
		}
	}
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_poll(q, 64), 5);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_poll(q, 64), 0);
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, r[i].calls, 1);
		KUNIT_EXPECT_EQ(test, r[i].seq, i + 1);
		KUNIT_EXPECT_EQ(test, r[i].wr.status, 0);
		svc_check_layout(test, c->dev, mkey[i]->key,
				 &(struct svc_seg){ &c->mr[0], 64 * i, 64 }, 1);
	}
	KUNIT_EXPECT_EQ(test, q->sq.pc, q->sq.cc);
	for (i = 0; i < 8; i++)
		mlx5_umr_free_mkey(mkey[i]);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
}

/* mlx5_umr_exec() on a polled channel polls while it waits. */
static void q_polled_exec(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_mkey *mkey;
	struct mlx5_umr_sge sge;
	struct q_req r = {};

	q = mlx5_umr_queue_create(c->dev, 0, 64, MLX5_UMR_COMP_POLLED);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	mkey = mlx5_umr_queue_alloc_mkey(q, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mkey));
	q_wr(c, &r, mkey, &sge, 1000, 300);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &r.wr, 2000), 0);
	KUNIT_EXPECT_EQ(test, r.calls, 0);	/* exec's own done() ran */
	KUNIT_EXPECT_EQ(test, q->sq.pc, q->sq.cc);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q->sq.state), MLX5_UMR_SQ_RTS);
	svc_check_layout(test, c->dev, mkey->key,
			 &(struct svc_seg){ &c->mr[0], 1000, 300 }, 1);
	mlx5_umr_free_mkey(mkey);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
}

/*
 * A polled channel whose CQE waits for a late poller is not stuck: the
 * watchdog leaves it in RTS over several timeouts, and the request
 * completes with 0 when polled.
 */
static void q_polled_watchdog_waits(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	unsigned long saved = c->dev->timeout;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_mkey *mkey;
	struct mlx5_umr_sge sge;
	struct q_req r = {};

	q = mlx5_umr_queue_create(c->dev, 0, 64, MLX5_UMR_COMP_POLLED);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	mkey = mlx5_umr_queue_alloc_mkey(q, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mkey));
	c->dev->timeout = msecs_to_jiffies(20);
	q_wr(c, &r, mkey, &sge, 0, 128);
	KUNIT_ASSERT_EQ(test, q_post(c, &r), 0);
	msleep(200);
	flush_work(&q->recover_work);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q->sq.state), MLX5_UMR_SQ_RTS);
	KUNIT_EXPECT_EQ(test, r.calls, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_poll(q, 8), 1);
	c->dev->timeout = saved;
	KUNIT_EXPECT_EQ(test, r.calls, 1);
	KUNIT_EXPECT_EQ(test, r.wr.status, 0);
	svc_check_layout(test, c->dev, mkey->key,
			 &(struct svc_seg){ &c->mr[0], 0, 128 }, 1);
	cancel_delayed_work_sync(&q->watchdog);
	mlx5_umr_free_mkey(mkey);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
}

/* Destroy is refused while an mkey is homed on the channel. */
static void q_destroy_busy(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_fake_counters was, now;
	struct mlx5_umr_mkey_pool pool;
	struct mlx5_umr_mkey *mkey;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_sge sge;
	struct q_req r = {};

	q = mlx5_umr_queue_create(c->dev, 0, 64, MLX5_UMR_COMP_IRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_ASSERT_EQ(test,
			mlx5_umr_mkey_pool_init_q(&pool, q, NULL, 3, 4, 0), 0);
	mkey = mlx5_umr_mkey_pool_get(&pool);
	KUNIT_ASSERT_NOT_NULL(test, mkey);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(mkey), q);
	mlx5_umr_fake_get_counters(c->fake, &was);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), -EBUSY);
	mlx5_umr_fake_get_counters(c->fake, &now);
	KUNIT_EXPECT_EQ(test, now.qps, was.qps);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q->sq.state), MLX5_UMR_SQ_RTS);
	/* still working */
	q_wr(c, &r, mkey, &sge, 64, 64);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &r.wr, 0), 0);
	svc_check_layout(test, c->dev, mkey->key,
			 &(struct svc_seg){ &c->mr[0], 64, 64 }, 1);
	mlx5_umr_mkey_pool_put(&pool, mkey);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_pool_destroy(&pool), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
	mlx5_umr_fake_get_counters(c->fake, &now);
	KUNIT_EXPECT_EQ(test, now.qps, was.qps - 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(NULL), 0);
}

/*
 * set_queue: a device queue's mkey moves onto a channel and its next
 * request runs on the channel's QP; refused while a request is in flight
 * (nothing moved), for a signature mkey whose PSVs are in another PD, and
 * for a channel of another device.
 */
static void q_set_queue(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q, *home;
	struct mlx5_umr_mkey *mkey, *sig;
	struct mlx5_umr_sge sge;
	struct q_req r = {};
	u32 qpn = 0, pdn;
	unsigned int n;

	q = mlx5_umr_queue_create(c->dev, 0, 64, MLX5_UMR_COMP_POLLED);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	mkey = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mkey));
	home = mlx5_umr_mkey_queue(mkey);
	KUNIT_EXPECT_PTR_NE(test, home, q);

	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(mkey, q), 0);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(mkey), q);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_start(c->fake, 8), 0);
	q_wr(c, &r, mkey, &sge, 256, 128);
	KUNIT_ASSERT_EQ(test, q_post(c, &r), 0);
	mlx5_umr_fake_flush(c->fake);
	n = q_log_qpns(test, c, 0, &qpn);
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, qpn, q->sq.qpn);
	mlx5_umr_fake_exec_log_stop(c->fake);

	/* in flight (not polled yet): refused, still on the channel */
	KUNIT_EXPECT_EQ(test, r.calls, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(mkey, home), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(mkey), q);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), -EBUSY);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_poll(q, 8), 1);
	KUNIT_EXPECT_EQ(test, r.calls, 1);
	KUNIT_EXPECT_EQ(test, r.wr.status, 0);
	svc_check_layout(test, c->dev, mkey->key,
			 &(struct svc_seg){ &c->mr[0], 256, 128 }, 1);

	/* idle: back home, and the next request runs there */
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(mkey, home), 0);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(mkey), home);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_start(c->fake, 8), 0);
	q_wr(c, &r, mkey, &sge, 384, 64);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &r.wr, 0), 0);
	KUNIT_EXPECT_EQ(test, q_log_qpns(test, c, 0, &qpn), 1);
	KUNIT_EXPECT_EQ(test, qpn, home->sq.qpn);
	mlx5_umr_fake_exec_log_stop(c->fake);
	svc_check_layout(test, c->dev, mkey->key,
			 &(struct svc_seg){ &c->mr[0], 384, 64 }, 1);
	mlx5_umr_free_mkey(mkey);

	/* a signature mkey: only when its PSVs are in the channel's PD */
	sig = mlx5_umr_alloc_mkey(c->dev, 4, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sig));
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(sig, q), 0);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(sig), q);
	mlx5_umr_free_mkey(sig);
	KUNIT_ASSERT_EQ(test, mlx5_umr_pd_alloc(c->dev, &pdn), 0);
	sig = mlx5_umr_alloc_mkey_pd(c->dev, 4, MLX5_UMR_MKEY_SIGNATURE, pdn);
	KUNIT_ASSERT_FALSE(test, IS_ERR(sig));
	home = mlx5_umr_mkey_queue(sig);
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(sig, q), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_mkey_queue(sig), home);
	mlx5_umr_free_mkey(sig);
	mlx5_umr_pd_free(c->dev, pdn);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
}

/*
 * A device unregistered with channels left: the request in flight on a
 * polled channel nobody polls completes (with 0: it ran) from
 * unregistration itself; the channels are stopped and their QPs gone; a
 * poll then does nothing; set_queue across devices is -EXDEV; destroy
 * afterwards only frees the handle.
 */
static void q_unplug_with_channel(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_fake_counters cnt;
	struct mlx5_umr_queue *polled, *irq, *q;
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_mkey *mkey;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_wr *wrp;
	struct q_req r = {};

	fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	dev = umr_kunit_fake_umr(fake);
	polled = mlx5_umr_queue_create(dev, 0, 64, MLX5_UMR_COMP_POLLED);
	KUNIT_ASSERT_FALSE(test, IS_ERR(polled));
	irq = mlx5_umr_queue_create(dev, 0, 64, MLX5_UMR_COMP_IRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(irq));
	mkey = mlx5_umr_queue_alloc_mkey(polled, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mkey));
	/* another device's channel */
	KUNIT_EXPECT_EQ(test, mlx5_umr_mkey_set_queue(c->mr[1].mkey, polled),
			-EXDEV);

	r.wr.mkey = mkey;
	r.wr.op = MLX5_UMR_OP_INVALIDATE;
	r.wr.done = q_req_done;
	wrp = &r.wr;
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(dev, &wrp, 1), 0);
	mlx5_umr_fake_flush(fake);
	KUNIT_EXPECT_EQ(test, r.calls, 0);
	mlx5_umr_fake_get_counters(fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.qps, dev->nqueues + 2);

	/* unregisters: the service polls the polled channel */
	mlx5_umr_fake_destroy(fake);
	KUNIT_EXPECT_EQ(test, r.calls, 1);
	KUNIT_EXPECT_EQ(test, r.wr.status, 0);
	KUNIT_EXPECT_PTR_EQ(test, r.who, current);
	KUNIT_EXPECT_TRUE(test, polled->gone);
	KUNIT_EXPECT_TRUE(test, irq->gone);
	KUNIT_EXPECT_EQ(test, READ_ONCE(polled->sq.state), MLX5_UMR_SQ_DEAD);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_poll(polled, 8), 0);
	q = mlx5_umr_queue_create(dev, 0, 64, MLX5_UMR_COMP_IRQ);
	KUNIT_EXPECT_PTR_EQ(test, q, ERR_PTR(-ENODEV));

	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(polled), -EBUSY);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(mkey), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(polled), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(irq), 0);
}

/*
 * An error CQE on a channel: the channel recovers, its request gets -EIO;
 * a device queue's requests meanwhile run and the device queue stays in
 * RTS.
 */
static void q_error_isolated(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q, *dq;
	struct mlx5_umr_mkey *ck, *dk;
	struct mlx5_umr_sge sge, dsge;
	struct q_req r = {}, d = {};
	int err;

	q = mlx5_umr_queue_create(c->dev, 0, 64, MLX5_UMR_COMP_IRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	ck = mlx5_umr_queue_alloc_mkey(q, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ck));
	dk = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dk));
	dq = mlx5_umr_mkey_queue(dk);

	err = mlx5_umr_fake_inject_wqe_error_qp(c->fake, q->sq.qpn,
						MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
						0);
	KUNIT_ASSERT_EQ(test, err, 0);
	mutex_lock(&q->recover_lock);
	q_wr(c, &r, ck, &sge, 0, 64);
	KUNIT_ASSERT_EQ(test, q_post(c, &r), 0);
	mlx5_umr_fake_flush(c->fake);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q->sq.state), MLX5_UMR_SQ_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, q->sq.qpn, NULL),
			MLX5_QP_STATE_ERR);
	/* the device queue does not wait for the channel */
	q_wr(c, &d, dk, &dsge, 2048, 256);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &d.wr, 0), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(dq->sq.state), MLX5_UMR_SQ_RTS);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_qp_state(c->fake, dq->sq.qpn,
						     NULL),
			MLX5_QP_STATE_RTS);
	svc_check_layout(test, c->dev, dk->key,
			 &(struct svc_seg){ &c->mr[0], 2048, 256 }, 1);
	mutex_unlock(&q->recover_lock);

	flush_work(&q->recover_work);
	mlx5_umr_fake_flush(c->fake);
	KUNIT_EXPECT_EQ(test, r.calls, 1);
	KUNIT_EXPECT_EQ(test, r.wr.status, -EIO);
	KUNIT_EXPECT_EQ(test, r.wr.syndrome, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	KUNIT_EXPECT_EQ(test, READ_ONCE(q->sq.state), MLX5_UMR_SQ_RTS);
	/* and runs again */
	q_wr(c, &r, ck, &sge, 64, 64);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &r.wr, 0), 0);
	svc_check_layout(test, c->dev, ck->key,
			 &(struct svc_seg){ &c->mr[0], 64, 64 }, 1);
	mlx5_umr_free_mkey(dk);
	mlx5_umr_free_mkey(ck);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
}

/* Bad arguments. */
static void q_create_args(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q;

	KUNIT_EXPECT_PTR_EQ(test, mlx5_umr_queue_create(c->dev, 0, 64, 7),
			    ERR_PTR(-EINVAL));
	/* depth clamped to [64, 1024] */
	q = mlx5_umr_queue_create(c->dev, 0, 1, MLX5_UMR_COMP_IRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_EQ(test, q->sq.bbs, 64);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
	q = mlx5_umr_queue_create(c->dev, 0, 100000, MLX5_UMR_COMP_IRQ);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_EQ(test, q->sq.bbs, 1024);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_destroy(q), 0);
}

static struct kunit_case svc_queue_cases[] = {
	KUNIT_CASE(q_irq_done_on_cpu),
	KUNIT_CASE(q_softirq_done_in_softirq),
	KUNIT_CASE(q_polled_budget),
	KUNIT_CASE(q_polled_exec),
	KUNIT_CASE(q_polled_watchdog_waits),
	KUNIT_CASE(q_destroy_busy),
	KUNIT_CASE(q_set_queue),
	KUNIT_CASE(q_unplug_with_channel),
	KUNIT_CASE(q_error_isolated),
	KUNIT_CASE(q_create_args),
	{}
};

static struct kunit_suite svc_queue_suite = {
	.name = "mlx5_umr_svc_queue",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = svc_queue_cases,
};

kunit_test_suite(svc_queue_suite);

MODULE_DESCRIPTION("mlx5-umr KUnit: UMR channels a ULP owns");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
