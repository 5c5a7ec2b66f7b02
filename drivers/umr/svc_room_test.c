// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: back-pressure and teardown for blk-mq ULPs on the fake
 * (Documentation/service.rst, "Back-pressure"): the room notification
 * (room.c) fires once when the stalled queue's ring empties, not before;
 * after recovery's return to RTS, not before; not after a cancel; at
 * unplug, where its post learns -ENODEV. Per-consumer drains
 * (consumer.c): one consumer drains while another's requests are stalled,
 * a draining consumer's posts are refused, requests resubmitted by
 * recovery still count.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/completion.h>

#include "svc_kunit.h"

#define RM_NREQ 512

struct rm_waiter {
	struct mlx5_umr_room_waiter w;
	struct svc_ctx *c;
	atomic_t fired;
	enum mlx5_umr_sq_state state;
	u32 free_bbs;
	/* posted from the callback when set; its mlx5_umr_post() result */
	struct svc_req *repost;
	int post_err;
};

static void rm_fn(struct mlx5_umr_room_waiter *w)
{
	struct rm_waiter *rw = container_of(w, struct rm_waiter, w);
	struct mlx5_umr_queue *q0 = w->q;
	struct mlx5_umr_wr *p;
	unsigned long flags;

	spin_lock_irqsave(&q0->sq.lock, flags);
	rw->state = q0->sq.state;
	rw->free_bbs = q0->sq.bbs - (q0->sq.pc - q0->sq.cc);
	spin_unlock_irqrestore(&q0->sq.lock, flags);
	if (rw->repost) {
		p = &rw->repost->wr;
		rw->post_err = mlx5_umr_post(rw->c->dev, &p, 1);
	}
	atomic_inc(&rw->fired);
}

/* The home queue of the fixture's mkeys (and of each test's, checked). */
static struct mlx5_umr_queue *rm_q(struct svc_ctx *c)
{
	return to_priv(c->mr[0].mkey)->q;
}

static void rm_waiter_init(struct rm_waiter *rw, struct svc_ctx *c,
			   struct svc_req *repost)
{
	memset(rw, 0, sizeof(*rw));
	mlx5_umr_room_waiter_init(&rw->w, rm_fn, rw);
	rw->c = c;
	rw->repost = repost;
	rw->post_err = 1;
	rw->state = MLX5_UMR_SQ_RESET;
}

static void rm_wr(struct svc_req *r, struct mlx5_umr_mkey *mk,
		  const struct mlx5_umr_sge *sge, atomic_t *ndone,
		  struct mlx5_umr_consumer *cons)
{
	svc_wr_list(&r->wr, mk, sge, 2, ACC_ALL);
	r->wr.done = svc_req_done;
	r->wr.consumer = cons;
	r->ndone = ndone;
	r->calls = 0;
}

/* Post single requests on @mk until the stalled ring refuses one. */
static unsigned int rm_fill(struct kunit *test, struct svc_ctx *c,
			    struct svc_req *req, struct mlx5_umr_mkey *mk,
			    const struct mlx5_umr_sge *sge, atomic_t *ndone,
			    unsigned int max)
{
	struct mlx5_umr_wr *p;
	unsigned int n;
	int err = 0;

	for (n = 0; n < max; n++) {
		rm_wr(&req[n], mk, sge, ndone, NULL);
		p = &req[n].wr;
		err = mlx5_umr_post(c->dev, &p, 1);
		if (err)
			break;
	}
	KUNIT_EXPECT_EQ(test, err, -ENOSPC);
	return n;
}

static void rm_stall(struct kunit *test, struct svc_ctx *c, bool stall)
{
	u32 qpn = rm_q(c)->sq.qpn;

	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_stall_qp(c->fake, qpn, stall), 0);
}

struct rm_fix {
	struct svc_req *req;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_sge sge[2];
	atomic_t ndone;
};

static void rm_fix_init(struct kunit *test, struct svc_ctx *c,
			struct rm_fix *f)
{
	f->req = kunit_kcalloc(test, RM_NREQ + 2, sizeof(*f->req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->req);
	f->mk = mlx5_umr_alloc_mkey(c->dev, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f->mk));
	KUNIT_ASSERT_PTR_EQ(test, to_priv(f->mk)->q, rm_q(c));
	f->sge[0] = (struct mlx5_umr_sge){ MR_IOVA, 32, c->mr[0].mkey->key };
	f->sge[1] = (struct mlx5_umr_sge){ MR_IOVA + 64, 32, c->mr[1].mkey->key };
	atomic_set(&f->ndone, 0);
}

/*
 * Ring full: the waiter registers, does not fire while nothing retires,
 * fires exactly once when the released HCA completes the ring, in RTS
 * with room, and its post from the callback is taken and completes.
 */
static void room_full_fires_once(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = rm_q(c);
	struct svc_req *extra;
	struct rm_waiter rw;
	struct rm_fix f;
	unsigned int n, i;

	rm_fix_init(test, c, &f);
	extra = &f.req[RM_NREQ];
	rm_stall(test, c, true);
	n = rm_fill(test, c, f.req, f.mk, f.sge, &f.ndone, RM_NREQ);
	KUNIT_ASSERT_GT(test, n, 0U);

	rm_waiter_init(&rw, c, extra);
	rm_wr(extra, f.mk, f.sge, &f.ndone, NULL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, &rw.w), 0);
	KUNIT_EXPECT_TRUE(test, rw.w.pending);
	/* pending twice is refused */
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, &rw.w), -EBUSY);
	msleep(20);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&rw.fired), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f.ndone), 0);

	rm_stall(test, c, false);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&rw.fired), 1);
	KUNIT_EXPECT_FALSE(test, rw.w.pending);
	KUNIT_EXPECT_EQ(test, rw.state, MLX5_UMR_SQ_RTS);
	KUNIT_EXPECT_GE(test, rw.free_bbs, q0->sq.bbs / 2);
	KUNIT_EXPECT_EQ(test, rw.post_err, 0);
	/* every request ran, the one posted from the callback too */
	KUNIT_EXPECT_EQ(test, atomic_read(&f.ndone), (int)n + 1);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, f.req[i].wr.status, 0);
	KUNIT_EXPECT_EQ(test, extra->calls, 1);
	KUNIT_EXPECT_EQ(test, extra->wr.status, 0);
	/* fired once: later completions do not call it again */
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &f.req[0].wr, 0), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rw.fired), 1);
	KUNIT_EXPECT_FALSE(test, mlx5_umr_room_cancel(&rw.w));
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(f.mk), 0);
}

/*
 * Room already: an idle queue, or one with less than half its ring used,
 * answers -EALREADY and never calls the waiter; past half it registers.
 */
static void room_already(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = rm_q(c);
	struct mlx5_umr_wr *p;
	struct rm_waiter rw;
	struct rm_fix f;
	unsigned int n = 0;

	rm_fix_init(test, c, &f);
	rm_waiter_init(&rw, c, NULL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, &rw.w), -EALREADY);
	KUNIT_EXPECT_FALSE(test, rw.w.pending);
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(NULL, &rw.w), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, NULL), -EINVAL);

	rm_stall(test, c, true);
	/* under half used: still room */
	while (q0->sq.pc - q0->sq.cc < q0->sq.bbs / 4) {
		rm_wr(&f.req[n], f.mk, f.sge, &f.ndone, NULL);
		p = &f.req[n++].wr;
		KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, &p, 1), 0);
	}
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, &rw.w), -EALREADY);
	/* past half: waits */
	while (q0->sq.pc - q0->sq.cc <= q0->sq.bbs / 2) {
		rm_wr(&f.req[n], f.mk, f.sge, &f.ndone, NULL);
		p = &f.req[n++].wr;
		KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, &p, 1), 0);
	}
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, &rw.w), 0);
	rm_stall(test, c, false);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&rw.fired), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&f.ndone), (int)n);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(f.mk), 0);
}

/* Make the queue see an error CQE with recovery held: state ERR. */
static void rm_error(struct kunit *test, struct svc_ctx *c, struct rm_fix *f,
		     struct svc_req *r)
{
	/* not rm_q(): room_unplug() has freed the MRs' mkeys by now */
	struct mlx5_umr_queue *q0 = to_priv(f->mk)->q;
	struct mlx5_umr_wr *p = &r->wr;

	rm_wr(r, f->mk, f->sge, &f->ndone, NULL);
	mlx5_umr_fake_inject_wqe_error(c->fake, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				       MLX5_UMR_FAKE_VS_INJECTED);
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, &p, 1), 0);
	queue_work(system_highpri_wq, &q0->poll_work);
	flush_work(&q0->poll_work);
	KUNIT_EXPECT_EQ(test, r->wr.status, -EIO);
	KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_ERR);
}

/*
 * Recovery: registered while the queue recovers (-EAGAIN), the waiter
 * fires once recovery brought the QP back to RTS, not before, and its
 * post is taken.
 */
static void room_recovery(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = rm_q(c);
	struct svc_req *extra;
	struct mlx5_umr_wr *p;
	struct rm_waiter rw;
	struct rm_fix f;

	rm_fix_init(test, c, &f);
	extra = &f.req[RM_NREQ];
	mutex_lock(&q0->recover_lock);
	rm_error(test, c, &f, &f.req[0]);
	rm_wr(&f.req[1], f.mk, f.sge, &f.ndone, NULL);
	p = &f.req[1].wr;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, &p, 1), -EAGAIN);
	rm_waiter_init(&rw, c, extra);
	rm_wr(extra, f.mk, f.sge, &f.ndone, NULL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, &rw.w), 0);
	/* completions alone do not fire it in ERR */
	queue_work(system_highpri_wq, &q0->poll_work);
	flush_work(&q0->poll_work);
	msleep(20);
	KUNIT_EXPECT_EQ(test, atomic_read(&rw.fired), 0);
	KUNIT_EXPECT_TRUE(test, rw.w.pending);
	mutex_unlock(&q0->recover_lock);

	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, q0->sq.state, MLX5_UMR_SQ_RTS);
	KUNIT_EXPECT_EQ(test, atomic_read(&rw.fired), 1);
	KUNIT_EXPECT_EQ(test, rw.state, MLX5_UMR_SQ_RTS);
	KUNIT_EXPECT_EQ(test, rw.post_err, 0);
	KUNIT_EXPECT_EQ(test, extra->calls, 1);
	KUNIT_EXPECT_EQ(test, extra->wr.status, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(f.mk), 0);
}

/* Cancelled while pending: true, and never called. */
static void room_cancel(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct rm_waiter rw;
	struct rm_fix f;
	unsigned int n;

	rm_fix_init(test, c, &f);
	rm_waiter_init(&rw, c, NULL);
	KUNIT_EXPECT_FALSE(test, mlx5_umr_room_cancel(&rw.w));
	rm_stall(test, c, true);
	n = rm_fill(test, c, f.req, f.mk, f.sge, &f.ndone, RM_NREQ);
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, &rw.w), 0);
	KUNIT_EXPECT_TRUE(test, mlx5_umr_room_cancel(&rw.w));
	KUNIT_EXPECT_FALSE(test, rw.w.pending);
	KUNIT_EXPECT_TRUE(test, list_empty(&rm_q(c)->sq.room_waiters));
	rm_stall(test, c, false);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, atomic_read(&f.ndone), (int)n);
	KUNIT_EXPECT_EQ(test, atomic_read(&rw.fired), 0);
	KUNIT_EXPECT_FALSE(test, mlx5_umr_room_cancel(&rw.w));
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(f.mk), 0);
}

struct rm_unreg {
	struct work_struct work;
	struct mlx5_umr_hca *hca;
};

static void rm_unregister(struct work_struct *work)
{
	mlx5_umr_unregister_hca(container_of(work, struct rm_unreg, work)->hca);
}

/*
 * Unplug: a waiter pending while the queue recovers is fired (once) when
 * the device goes, and the post it makes is refused with -ENODEV; new
 * registrations get -ENODEV; a consumer drained then reports -ENODEV.
 */
static void room_unplug(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_dev *dev = c->dev;
	struct mlx5_umr_queue *q0 = rm_q(c);
	struct rm_unreg un = { .hca = mlx5_umr_fake_hca(c->fake) };
	struct mlx5_umr_consumer cons;
	struct rm_waiter rw, late;
	struct svc_req *extra;
	struct rm_fix f;
	unsigned int i;

	rm_fix_init(test, c, &f);
	extra = &f.req[RM_NREQ];
	KUNIT_ASSERT_EQ(test, mlx5_umr_consumer_init(&cons, dev), 0);
	svc_mr_unreg(dev, &c->mr[0]);
	svc_mr_unreg(dev, &c->mr[1]);
	mlx5_umr_dev_hold(dev);
	mutex_lock(&q0->recover_lock);
	rm_error(test, c, &f, &f.req[0]);
	rm_waiter_init(&rw, c, extra);
	rm_wr(extra, f.mk, f.sge, &f.ndone, NULL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, &rw.w), 0);

	INIT_WORK_ONSTACK(&un.work, rm_unregister);
	queue_work(system_long_wq, &un.work);
	for (i = 0; i < 1000 && !percpu_ref_is_dying(&dev->users); i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_TRUE(test, percpu_ref_is_dying(&dev->users));
	rm_waiter_init(&late, c, NULL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_room_notify(f.mk, &late.w), -ENODEV);
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_drain(&cons, 1000), -ENODEV);
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_destroy(&cons), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rw.fired), 0);
	mutex_unlock(&q0->recover_lock);

	flush_work(&un.work);
	destroy_work_on_stack(&un.work);
	KUNIT_EXPECT_EQ(test, atomic_read(&rw.fired), 1);
	KUNIT_EXPECT_FALSE(test, rw.w.pending);
	KUNIT_EXPECT_EQ(test, rw.post_err, -ENODEV);
	KUNIT_EXPECT_EQ(test, extra->calls, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&q0->sq.room_waiters));
	KUNIT_EXPECT_FALSE(test, mlx5_umr_room_cancel(&rw.w));
	mlx5_umr_free_mkey(f.mk);
	mlx5_umr_dev_put(dev);
}

struct rm_drain {
	struct work_struct work;
	struct mlx5_umr_consumer *cons;
	atomic_t *ndone;
	int ret;
	int ndone_at_ret;
	bool finished;
};

static void rm_drain_work(struct work_struct *work)
{
	struct rm_drain *d = container_of(work, struct rm_drain, work);

	d->ret = mlx5_umr_consumer_drain(d->cons, 5000);
	d->ndone_at_ret = atomic_read(d->ndone);
	WRITE_ONCE(d->finished, true);
}

/*
 * Two consumers: A's requests are stalled, B has none and drains at
 * once; A's drain times out, refuses A's posts (even in a batch with
 * another consumer's request, which is not counted either), lets C post,
 * and returns 0 once A's requests have had their done().
 */
static void drain_two_consumers(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = rm_q(c);
	struct mlx5_umr_consumer a, b, cc;
	atomic_t ndone_a = ATOMIC_INIT(0);
	struct mlx5_umr_wr *wrs[2];
	struct rm_drain d = {};
	struct rm_fix f;
	unsigned int i;
	u32 pc;

	rm_fix_init(test, c, &f);
	KUNIT_ASSERT_EQ(test, mlx5_umr_consumer_init(&a, c->dev), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_consumer_init(&b, c->dev), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_consumer_init(&cc, c->dev), 0);
	rm_stall(test, c, true);
	for (i = 0; i < 4; i++) {
		rm_wr(&f.req[i], f.mk, f.sge, &ndone_a, &a);
		wrs[0] = &f.req[i].wr;
		KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, wrs, 1), 0);
	}
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_drain(&b, 1000), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ndone_a), 0);
	pc = q0->sq.pc;
	rm_wr(&f.req[10], f.mk, f.sge, &f.ndone, &b);
	wrs[0] = &f.req[10].wr;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 1), -ESHUTDOWN);
	KUNIT_EXPECT_EQ(test, q0->sq.pc, pc);

	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_drain(&a, 50), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_destroy(&a), -EBUSY);
	/* C's request first, A's second: neither posted nor counted */
	rm_wr(&f.req[11], f.mk, f.sge, &f.ndone, &cc);
	rm_wr(&f.req[12], f.mk, f.sge, &f.ndone, &a);
	wrs[0] = &f.req[11].wr;
	wrs[1] = &f.req[12].wr;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 2), -ESHUTDOWN);
	KUNIT_EXPECT_EQ(test, q0->sq.pc, pc);
	/* C keeps posting while A drains */
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(c->dev, wrs, 1), 0);

	d.cons = &a;
	d.ndone = &ndone_a;
	INIT_WORK_ONSTACK(&d.work, rm_drain_work);
	queue_work(system_long_wq, &d.work);
	msleep(50);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(d.finished));
	rm_stall(test, c, false);
	flush_work(&d.work);
	destroy_work_on_stack(&d.work);
	KUNIT_EXPECT_EQ(test, d.ret, 0);
	KUNIT_EXPECT_EQ(test, d.ndone_at_ret, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, f.req[i].wr.status, 0);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, f.req[11].calls, 1);
	KUNIT_EXPECT_EQ(test, f.req[12].calls, 0);
	KUNIT_EXPECT_EQ(test, f.req[10].calls, 0);
	/* C's count went back to zero: its drain does not wait */
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_drain(&cc, 100), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_drain(&a, 100), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_destroy(&a), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_destroy(&b), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_destroy(&cc), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(f.mk), 0);
}

/*
 * A request flushed by an earlier one's error waits for recovery to post
 * it again: it still counts for its consumer until its done().
 */
static void drain_resubmitted(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_queue *q0 = rm_q(c);
	atomic_t ndone_a = ATOMIC_INIT(0);
	struct mlx5_umr_consumer a;
	struct mlx5_umr_wr *wrs[2];
	struct rm_fix f;
	int err;

	rm_fix_init(test, c, &f);
	KUNIT_ASSERT_EQ(test, mlx5_umr_consumer_init(&a, c->dev), 0);
	rm_stall(test, c, true);
	rm_wr(&f.req[0], f.mk, f.sge, &ndone_a, &a);
	rm_wr(&f.req[1], f.mk, f.sge, &ndone_a, &a);
	wrs[0] = &f.req[0].wr;
	wrs[1] = &f.req[1].wr;
	KUNIT_ASSERT_EQ(test, mlx5_umr_post(c->dev, wrs, 2), 0);
	mutex_lock(&q0->recover_lock);
	err = mlx5_umr_fake_inject_wqe_error_qp(c->fake, q0->sq.qpn,
						MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
						MLX5_UMR_FAKE_VS_INJECTED);
	KUNIT_ASSERT_EQ(test, err, 0);
	rm_stall(test, c, false);
	queue_work(system_highpri_wq, &q0->poll_work);
	flush_work(&q0->poll_work);
	KUNIT_EXPECT_EQ(test, f.req[0].calls, 1);
	KUNIT_EXPECT_EQ(test, f.req[0].wr.status, -EIO);
	KUNIT_EXPECT_EQ(test, f.req[1].calls, 0);
	KUNIT_EXPECT_FALSE(test, list_empty(&q0->sq.resubmit));
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_drain(&a, 50), -ETIMEDOUT);
	mutex_unlock(&q0->recover_lock);
	mlx5_umr_sq_flush(c->dev);
	KUNIT_EXPECT_EQ(test, f.req[1].calls, 1);
	KUNIT_EXPECT_EQ(test, f.req[1].wr.status, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_drain(&a, 100), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_consumer_destroy(&a), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(f.mk), 0);
}

static struct kunit_case room_cases[] = {
	KUNIT_CASE(room_full_fires_once),
	KUNIT_CASE(room_already),
	KUNIT_CASE(room_recovery),
	KUNIT_CASE(room_cancel),
	KUNIT_CASE(room_unplug),
	KUNIT_CASE(drain_two_consumers),
	KUNIT_CASE(drain_resubmitted),
	{}
};

static struct kunit_suite room_suite = {
	.name = "mlx5_umr_svc_room",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = room_cases,
};

kunit_test_suite(room_suite);

MODULE_DESCRIPTION("mlx5-umr KUnit: room notification and consumer drains");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
