// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the per-mkey ordering guarantee of several UMR queues
 * (Documentation/service.rst, "Queues and ordering") under load: threads
 * hammer one mkey with configure (new key byte, a layout of their own)
 * and invalidate, and three orders must be one: the order the posts took
 * the home queue's lock (a probe on the mlx5_umr_post tracepoint, which
 * fires under that lock), the order the fake HCA executed the WQEs (its
 * exec log) and the order of the done() calls. mq_stress_detects_reorder
 * shows the same checker fails when a request of the mkey is sent to
 * another queue (dev->test_route, test builds only).
 *
 * UML has one CPU: interleavings come from the threads blocking on their
 * in-flight limit while the fake executes from its workqueue
 * (MLX5_UMR_FAKE_F_ASYNC_EXEC). Where there are CPUs, each thread is
 * bound to its own.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/tracepoint.h>

#include "svc_kunit.h"
#include "key_rotate.h"
#include "trace.h"

#define MQS_QUEUES	3
#define MQS_HOME	1	/* not the queue of UML's one CPU */
#define MQS_THREADS	4
#define MQS_ITERS	5000	/* configure + invalidate each */
#define MQS_INFLIGHT	4	/* per thread */
#define MQS_TAGS	32	/* layouts: 64 bytes at tag * 64 of the MR */
#define MQS_SEG		64

/* One request as the post probe or done() saw it. */
struct mqs_rec {
	u32 req;	/* thread << 24 | sequence */
	int status;
	u8 op;
	u8 key;
	u16 tag;
};

struct mqs;

struct mqs_req {
	struct mlx5_umr_wr wr;
	struct mlx5_umr_sge sge;
	struct mqs_thread *t;
	u32 id;
	u16 tag;
	bool busy;	/* posted, done() not yet called */
};

struct mqs_thread {
	struct mqs *s;
	struct task_struct *task;
	u32 idx;
	struct mqs_req req[MQS_INFLIGHT];
	struct mqs_req *posting;	/* the probe's view of this thread */
	wait_queue_head_t wq;
	atomic_t inflight;
	int err;
	struct completion exited;
};

struct mqs {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct svc_mr mr;
	struct mlx5_umr_mkey *mkey;
	u32 index;	/* the mkey's index, what the probe filters on */
	u8 key0;	/* its key byte before the first request */
	struct mqs_thread th[MQS_THREADS];
	unsigned int nthreads;
	spinlock_t lock;	/* post[], npost, done[], ndone, lost */
	struct mqs_rec *post, *done;
	unsigned int npost, ndone, cap, lost;
	struct mlx5_umr_fake_exec_ent *exec;
};

/* mlx5_umr_post tracepoint: runs under the home queue's sq->lock. */
static void mqs_probe(void *data, const char *dev, u32 qpn, u16 idx,
		      u32 key, int op, unsigned int nbb, bool signaled)
{
	struct mqs *s = data;
	struct mqs_req *r = NULL;
	unsigned long flags;
	unsigned int i;

	if (key >> 8 != s->index)
		return;
	for (i = 0; i < s->nthreads; i++)
		if (s->th[i].task == current)
			r = s->th[i].posting;
	spin_lock_irqsave(&s->lock, flags);
	if (!r || s->npost == s->cap)
		s->lost++;
	else
		s->post[s->npost++] = (struct mqs_rec){ .req = r->id,
			.op = op, .key = key & 0xff, .tag = r->tag };
	spin_unlock_irqrestore(&s->lock, flags);
}

static void mqs_done(struct mlx5_umr_wr *wr)
{
	struct mqs_req *r = container_of(wr, struct mqs_req, wr);
	struct mqs_thread *t = r->t;
	struct mqs *s = t->s;
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	if (s->ndone == s->cap)
		s->lost++;
	else
		s->done[s->ndone++] = (struct mqs_rec){ .req = r->id,
			.status = wr->status, .op = wr->op };
	spin_unlock_irqrestore(&s->lock, flags);
	/* pairs with the thread's acquire: the slot is reused after this */
	smp_store_release(&r->busy, false);
	atomic_dec(&t->inflight);
	wake_up(&t->wq);
}

/* Fill @r as request @seq of its thread: even configure, odd invalidate. */
static void mqs_fill(struct mqs *s, struct mqs_req *r, u32 seq, u16 tag)
{
	if (!(seq & 1)) {
		r->sge = (struct mlx5_umr_sge){ MR_IOVA + tag * MQS_SEG,
						MQS_SEG, s->mr.mkey->key };
		svc_wr_list(&r->wr, s->mkey, &r->sge, 1, ACC_ALL);
		r->wr.flags |= MLX5_UMR_WR_NEW_KEY;
	} else {
		memset(&r->wr, 0, sizeof(r->wr));
		r->wr.mkey = s->mkey;
		r->wr.op = MLX5_UMR_OP_INVALIDATE;
	}
	r->wr.done = mqs_done;
	r->id = r->t->idx << 24 | seq;
	r->tag = tag;
}

/* Post @r, retrying back-pressure; 0 or the final errno. */
static int mqs_post(struct mqs_thread *t, struct mqs_req *r)
{
	struct mlx5_umr_wr *wr = &r->wr;
	int err;

	r->busy = true;
	atomic_inc(&t->inflight);
	for (;;) {
		WRITE_ONCE(t->posting, r);
		err = mlx5_umr_post(t->s->dev, &wr, 1);
		WRITE_ONCE(t->posting, NULL);
		if (!mlx5_umr_post_busy(err))
			break;
		/* let the completions that free room run */
		wait_event_timeout(t->wq, false, 1);
	}
	if (err) {
		r->busy = false;
		atomic_dec(&t->inflight);
	}
	return err;
}

static int mqs_thread_fn(void *arg)
{
	struct mqs_thread *t = arg;
	unsigned int slot = 0;
	u32 seq;

	for (seq = 0; seq < 2 * MQS_ITERS && !t->err; seq++) {
		struct mqs_req *r = &t->req[slot];

		slot = (slot + 1) % MQS_INFLIGHT;
		/* pairs with mqs_done()'s release: done() is through with r */
		wait_event(t->wq, !smp_load_acquire(&r->busy));
		mqs_fill(t->s, r, seq, (t->idx * 7 + seq / 2) % MQS_TAGS);
		t->err = mqs_post(t, r);
		cond_resched();
	}
	wait_event(t->wq, !atomic_read(&t->inflight));
	complete(&t->exited);
	return 0;
}

enum {
	MQS_BAD_LOG = BIT(0),		/* a log lost entries */
	MQS_BAD_EXEC = BIT(1),		/* executed not in post order */
	MQS_BAD_DONE = BIT(2),		/* done() not in post order */
	MQS_BAD_STATUS = BIT(3),	/* a done() with an error */
	MQS_BAD_KEY = BIT(4),		/* a new key byte not the next */
	MQS_BAD_FINAL = BIT(5),		/* the HCA's mkey not the last post's */
};

/*
 * The one checker of both cases: which of the MQS_BAD_* the run shows,
 * the first instance of each logged (not failed: the negative control
 * expects some).
 */
static unsigned int mqs_check(struct kunit *test, struct mqs *s)
{
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)] = {};
	struct mlx5_klm klm = {};
	const struct mqs_rec *last = NULL, *conf = NULL;
	unsigned int bad = 0, n, dropped, i, k = 0;
	u8 key = s->key0;
	bool inv;
	int ret;

	n = mlx5_umr_fake_exec_log_read(s->fake, 0, s->exec, s->cap, &dropped);
	if (dropped || s->lost || n == s->cap) {
		kunit_info(test, "logs lost entries: exec %u, post/done %u",
			   dropped, s->lost);
		bad |= MQS_BAD_LOG;
	}
	/* the mkey's WQEs in execution order against the posts */
	for (i = 0; i < n; i++) {
		const struct mlx5_umr_fake_exec_ent *e = &s->exec[i];
		const struct mqs_rec *p = &s->post[k];
		bool inv = k < s->npost && p->op == MLX5_UMR_OP_INVALIDATE;

		if (e->opcode != MLX5_OPCODE_UMR || e->index != s->index)
			continue;
		if (!(bad & MQS_BAD_EXEC) &&
		    (k >= s->npost || e->syndrome ||
		     e->free != inv ||
		     e->key != p->key)) {
			kunit_info(test, "exec #%u: free %d key 0x%x synd 0x%x, post #%u: op %u key 0x%x",
				   k, e->free, e->key, e->syndrome, k,
				   k < s->npost ? p->op : 0xff,
				   k < s->npost ? p->key : 0);
			bad |= MQS_BAD_EXEC;
		}
		k++;
	}
	if (k != s->npost) {
		kunit_info(test, "%u WQEs of the mkey executed, %u posted",
			   k, s->npost);
		bad |= MQS_BAD_EXEC;
	}
	if (s->ndone != s->npost) {
		kunit_info(test, "%u done(), %u posted", s->ndone, s->npost);
		bad |= MQS_BAD_DONE;
	}
	for (i = 0; i < min(s->ndone, s->npost); i++) {
		const struct mqs_rec *p = &s->post[i], *d = &s->done[i];

		if (d->status && !(bad & MQS_BAD_STATUS)) {
			kunit_info(test, "done #%u (req 0x%x): status %d", i,
				   d->req, d->status);
			bad |= MQS_BAD_STATUS;
		}
		if (d->req != p->req && !(bad & MQS_BAD_DONE)) {
			kunit_info(test, "done #%u: req 0x%x, post: req 0x%x",
				   i, d->req, p->req);
			bad |= MQS_BAD_DONE;
		}
	}
	/* each configure installs the byte after the one before it */
	for (i = 0; i < s->npost; i++) {
		const struct mqs_rec *p = &s->post[i];

		if (p->op == MLX5_UMR_OP_CONFIGURE) {
			if (p->key != mlx5_umr_key_next(key) &&
			    !(bad & MQS_BAD_KEY)) {
				kunit_info(test, "post #%u: key 0x%x after 0x%x",
					   i, p->key, key);
				bad |= MQS_BAD_KEY;
			}
			conf = p;
		}
		key = p->key;
		last = p;
	}
	if (!last || !conf)
		return bad | MQS_BAD_FINAL;
	/* what the HCA holds is what the last posts left */
	ret = mlx5_umr_fake_query_mkey(s->fake, s->index << 8 | last->key, mkc,
				       &klm, sizeof(klm));
	inv = last->op == MLX5_UMR_OP_INVALIDATE;
	if (ret < 1 || MLX5_GET(mkc, mkc, free) != inv ||
	    MLX5_GET(mkc, mkc, mkey_7_0) != last->key ||
	    be64_to_cpu(klm.va) != MR_IOVA + conf->tag * MQS_SEG ||
	    be32_to_cpu(klm.bcount) != MQS_SEG) {
		kunit_info(test, "mkey %d: free %u key 0x%x va 0x%llx; last post op %u key 0x%x tag %u",
			   ret, MLX5_GET(mkc, mkc, free),
			   MLX5_GET(mkc, mkc, mkey_7_0), be64_to_cpu(klm.va),
			   last->op, last->key, conf->tag);
		bad |= MQS_BAD_FINAL;
	}
	return bad;
}

static int mqs_init(struct kunit *test)
{
	struct mlx5_umr_fake_attr attr;
	u16 *saved;
	unsigned int cpu;
	struct mqs *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	test->priv = s;
	spin_lock_init(&s->lock);
	s->cap = 2 * MQS_THREADS * MQS_ITERS + 64;
	s->post = kvcalloc(s->cap, sizeof(*s->post), GFP_KERNEL);
	s->done = kvcalloc(s->cap, sizeof(*s->done), GFP_KERNEL);
	s->exec = kvcalloc(s->cap, sizeof(*s->exec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->post);
	KUNIT_ASSERT_NOT_NULL(test, s->done);
	KUNIT_ASSERT_NOT_NULL(test, s->exec);

	umr_kunit_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_ASYNC_EXEC;
	attr.nqueues = MQS_QUEUES;
	s->fake = umr_kunit_fake_registered_attr(test, &attr);
	s->dev = umr_kunit_fake_umr(s->fake);
	KUNIT_ASSERT_EQ(test, s->dev->nqueues, MQS_QUEUES);
	svc_mr_reg(test, s->dev, &s->mr, 1);

	/* home the mkey on MQS_HOME: allocated as a CPU of it would */
	saved = kunit_kcalloc(test, nr_cpu_ids, sizeof(*saved), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, saved);
	for_each_possible_cpu(cpu) {
		saved[cpu] = s->dev->cpu_q[cpu];
		s->dev->cpu_q[cpu] = MQS_HOME;
	}
	s->mkey = mlx5_umr_alloc_mkey(s->dev, 1, 0);
	for_each_possible_cpu(cpu)
		s->dev->cpu_q[cpu] = saved[cpu];
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s->mkey));
	KUNIT_ASSERT_PTR_EQ(test, mlx5_umr_mkey_queue(s->mkey),
			    s->dev->queues[MQS_HOME]);
	s->index = s->mkey->key >> 8;
	s->key0 = s->mkey->key & 0xff;

	KUNIT_ASSERT_EQ(test, register_trace_mlx5_umr_post(mqs_probe, s), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_exec_log_start(s->fake, s->cap),
			0);
	return 0;
}

static void mqs_exit(struct kunit *test)
{
	struct mqs *s = test->priv;

	if (!s)
		return;
	if (!s->fake)
		goto free;
	unregister_trace_mlx5_umr_post(mqs_probe, s);
	tracepoint_synchronize_unregister();
	mlx5_umr_fake_exec_log_stop(s->fake);
	mlx5_umr_sq_flush(s->dev);
	if (!IS_ERR_OR_NULL(s->mkey))
		mlx5_umr_free_mkey(s->mkey);
	svc_mr_unreg(s->dev, &s->mr);
	mlx5_umr_fake_destroy(s->fake);
free:
	kvfree(s->exec);
	kvfree(s->done);
	kvfree(s->post);
}

static void mqs_thread_init(struct mqs *s, struct mqs_thread *t, u32 idx)
{
	unsigned int i;

	t->s = s;
	t->idx = idx;
	init_waitqueue_head(&t->wq);
	init_completion(&t->exited);
	for (i = 0; i < MQS_INFLIGHT; i++)
		t->req[i].t = t;
}

/*
 * MQS_THREADS threads post configure and invalidate on one mkey, each
 * with up to MQS_INFLIGHT requests in flight: the HCA runs them in post
 * order, done() comes in post order, every one succeeds, and the mkey
 * ends as the last post left it.
 */
static void mq_one_mkey_stress(struct kunit *test)
{
	struct mqs *s = test->priv;
	unsigned int i, started = 0, bad;
	unsigned long t0 = jiffies;
	int err = 0;

	s->nthreads = MQS_THREADS;
	for (i = 0; i < MQS_THREADS; i++) {
		struct mqs_thread *t = &s->th[i];
		struct task_struct *task;

		mqs_thread_init(s, t, i);
		task = kthread_create(mqs_thread_fn, t, "mqs/%u", i);
		if (IS_ERR(task)) {
			err = PTR_ERR(task);
			break;
		}
		if (num_online_cpus() > 1)
			kthread_bind(task, cpumask_local_spread(i, NUMA_NO_NODE));
		t->task = task;
		started++;
	}
	for (i = 0; i < started; i++)
		wake_up_process(s->th[i].task);
	for (i = 0; i < started; i++) {
		KUNIT_EXPECT_GT(test,
				wait_for_completion_timeout(&s->th[i].exited,
							    120 * HZ), 0UL);
		KUNIT_EXPECT_EQ(test, s->th[i].err, 0);
	}
	KUNIT_ASSERT_EQ(test, err, 0);
	mlx5_umr_sq_flush(s->dev);
	mlx5_umr_fake_exec_log_stop(s->fake);

	kunit_info(test, "%u requests on one mkey in %u ms", s->npost,
		   jiffies_to_msecs(jiffies - t0));
	KUNIT_EXPECT_EQ(test, s->npost, 2 * MQS_THREADS * MQS_ITERS);
	bad = mqs_check(test, s);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "MQS_BAD_* 0x%x", bad);
}

/*
 * The checker catches a reorder: the mkey's configure waits on its
 * stalled home queue while its invalidate, sent to another queue by the
 * test route, runs first. Execution, done() and the final state disagree
 * with the post order, and the invalidate fails.
 */
static void mq_stress_detects_reorder(struct kunit *test)
{
	struct mqs *s = test->priv;
	struct mlx5_umr_queue *home = s->dev->queues[MQS_HOME];
	struct mqs_thread *t = &s->th[0];

	mqs_thread_init(s, t, 0);
	t->task = current;
	s->nthreads = 1;

	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_stall_qp(s->fake, home->sq.qpn,
						     true), 0);
	mqs_fill(s, &t->req[0], 0, 5);
	KUNIT_ASSERT_EQ(test, mqs_post(t, &t->req[0]), 0);
	mqs_fill(s, &t->req[1], 1, 0);
	WRITE_ONCE(s->dev->test_route, s->dev->queues[0]);
	KUNIT_EXPECT_EQ(test, mqs_post(t, &t->req[1]), 0);
	WRITE_ONCE(s->dev->test_route, NULL);
	/* the invalidate runs and completes while the configure waits */
	mlx5_umr_fake_flush(s->fake);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_stall_qp(s->fake, home->sq.qpn,
						     false), 0);
	mlx5_umr_sq_flush(s->dev);
	mlx5_umr_fake_exec_log_stop(s->fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->inflight), 0);

	KUNIT_EXPECT_EQ(test, s->npost, 2U);
	/*
	 * The invalidate names the configure's new key byte, which the HCA
	 * does not know yet: it fails (LOCAL_PROT_ERR), and its queue
	 * recovers.
	 */
	KUNIT_EXPECT_EQ(test, mqs_check(test, s),
			(unsigned int)(MQS_BAD_EXEC | MQS_BAD_DONE |
				       MQS_BAD_STATUS | MQS_BAD_FINAL));
}

static struct kunit_case mqs_cases[] = {
	KUNIT_CASE_SLOW(mq_one_mkey_stress),
	KUNIT_CASE(mq_stress_detects_reorder),
	{}
};

static struct kunit_suite mqs_suite = {
	.name = "mlx5_umr_mq_stress",
	.init = mqs_init,
	.exit = mqs_exit,
	.test_cases = mqs_cases,
};

kunit_test_suite(mqs_suite);

MODULE_DESCRIPTION("KUnit stress test of the per-mkey order on several UMR queues");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
