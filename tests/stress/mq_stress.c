// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The one-mkey ordering stress (mq_stress.h): threads hammer one mkey with
 * configure (new key byte, a layout of their own) and invalidate, and
 * three orders must be one: the order the posts took the home queue's lock
 * (a probe on the mlx5_umr_post tracepoint, which fires under that lock),
 * the order the fake HCA executed the WQEs (its exec log) and the order of
 * the done() calls. mqs_reorder() and mqs_run(route_cpu) break the
 * guarantee on purpose (dev->test_route, dev->test_route_cpu: test builds
 * only) so that the same checker can be shown to fail.
 *
 * Where there are several CPUs, each thread is bound to one (spread over
 * the online CPUs); with one (UML), interleavings come from the threads
 * blocking on their in-flight limit while the fake executes from its
 * workqueue (MLX5_UMR_FAKE_F_ASYNC_EXEC).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr_testing.h>

#include "umr.h"
#include "key_rotate.h"
#include "trace.h"
#include "mq_stress.h"

#define MQS_ACCESS (MLX5_UMR_ACCESS_LOCAL_WRITE | \
		    MLX5_UMR_ACCESS_REMOTE_READ | MLX5_UMR_ACCESS_REMOTE_WRITE)

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
	memset(&r->wr, 0, sizeof(r->wr));
	r->wr.mkey = s->mkey;
	if (!(seq & 1)) {
		r->sge = (struct mlx5_umr_sge){ MQS_IOVA + tag * MQS_SEG,
						MQS_SEG, s->mr_mkey->key };
		r->wr.op = MLX5_UMR_OP_CONFIGURE;
		r->wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_NEW_KEY;
		r->wr.access = MQS_ACCESS;
		r->wr.layout = MLX5_UMR_LAYOUT_LIST;
		r->wr.list.sge = &r->sge;
		r->wr.list.num_sge = 1;
	} else {
		r->wr.op = MLX5_UMR_OP_INVALIDATE;
	}
	r->wr.done = mqs_done;
	r->id = r->t->idx << 24 | seq;
	r->tag = tag;
}

/* Count a post that starts while a thread on another CPU is in its own. */
static void mqs_enter(struct mqs_thread *t)
{
	struct mqs *s = t->s;
	unsigned int i;

	WRITE_ONCE(t->in_post, true);
	/* pairs with the other thread's: one of the two sees the other */
	smp_mb();
	for (i = 0; i < s->nthreads && t->cpu >= 0; i++) {
		const struct mqs_thread *o = &s->th[i];

		if (o != t && o->cpu >= 0 && o->cpu != t->cpu &&
		    READ_ONCE(o->in_post)) {
			atomic_inc(&s->overlaps);
			break;
		}
	}
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
		mqs_enter(t);
		err = mlx5_umr_post(t->s->dev, &wr, 1);
		WRITE_ONCE(t->in_post, false);
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

	for (seq = 0; seq < 2 * t->s->iters && !t->err; seq++) {
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

static void mqs_thread_init(struct mqs *s, struct mqs_thread *t, u32 idx)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	t->s = s;
	t->idx = idx;
	t->cpu = -1;
	init_waitqueue_head(&t->wq);
	init_completion(&t->exited);
	for (i = 0; i < MQS_INFLIGHT; i++)
		t->req[i].t = t;
}

/*
 * The first instance of each MQS_BAD_* is logged, as what differs; the
 * caller judges the mask (the negative controls expect some).
 */
static unsigned int mqs_check_exec(struct mqs *s, unsigned int n)
{
	unsigned int bad = 0, i, k = 0;

	/* the mkey's WQEs in execution order against the posts */
	for (i = 0; i < n; i++) {
		const struct mlx5_umr_fake_exec_ent *e = &s->exec[i];
		const struct mqs_rec *p = &s->post[k];
		bool inv = k < s->npost && p->op == MLX5_UMR_OP_INVALIDATE;

		if (e->opcode != MLX5_OPCODE_UMR || e->index != s->index)
			continue;
		if (!bad && (k >= s->npost || e->syndrome || e->free != inv ||
			     e->key != p->key)) {
			s->log(s->log_ctx, "exec #%u: free %d key %#x synd %#x, post op %u key %#x",
			       k, e->free, e->key, e->syndrome,
			       k < s->npost ? p->op : 0xff,
			       k < s->npost ? p->key : 0);
			bad |= MQS_BAD_EXEC;
		}
		k++;
	}
	if (k != s->npost) {
		s->log(s->log_ctx, "%u WQEs of the mkey executed, %u posted",
		       k, s->npost);
		bad |= MQS_BAD_EXEC;
	}
	return bad;
}

static unsigned int mqs_check_done(struct mqs *s)
{
	unsigned int bad = 0, i;

	if (s->ndone != s->npost) {
		s->log(s->log_ctx, "%u done(), %u posted", s->ndone, s->npost);
		bad |= MQS_BAD_DONE;
	}
	for (i = 0; i < min(s->ndone, s->npost); i++) {
		const struct mqs_rec *p = &s->post[i], *d = &s->done[i];

		if (d->status && !(bad & MQS_BAD_STATUS)) {
			s->log(s->log_ctx, "done #%u (req 0x%x): status %d", i,
			       d->req, d->status);
			bad |= MQS_BAD_STATUS;
		}
		if (d->req != p->req && !(bad & MQS_BAD_DONE)) {
			s->log(s->log_ctx, "done #%u: req 0x%x, post: req 0x%x",
			       i, d->req, p->req);
			bad |= MQS_BAD_DONE;
		}
	}
	return bad;
}

/* What the HCA holds is what the last posts left. */
static unsigned int mqs_check_final(struct mqs *s, const struct mqs_rec *last,
				    const struct mqs_rec *conf)
{
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)] = {};
	struct mlx5_klm klm = {};
	bool inv = last->op == MLX5_UMR_OP_INVALIDATE;
	int ret;

	ret = mlx5_umr_fake_query_mkey(s->fake, s->index << 8 | last->key, mkc,
				       &klm, sizeof(klm));
	if (ret >= 1 && MLX5_GET(mkc, mkc, free) == inv &&
	    MLX5_GET(mkc, mkc, mkey_7_0) == last->key &&
	    be64_to_cpu(klm.va) == MQS_IOVA + conf->tag * MQS_SEG &&
	    be32_to_cpu(klm.bcount) == MQS_SEG)
		return 0;
	s->log(s->log_ctx, "mkey %d: free %u key 0x%x va 0x%llx; last post op %u key 0x%x tag %u",
	       ret, MLX5_GET(mkc, mkc, free), MLX5_GET(mkc, mkc, mkey_7_0),
	       be64_to_cpu(klm.va), last->op, last->key, conf->tag);
	return MQS_BAD_FINAL;
}

/**
 * mqs_check() - the one checker of the stress and its negative controls
 * @s: a run, its threads exited and its exec log stopped
 *
 * Return: which MQS_BAD_* the run shows, 0 when the three orders are one,
 * every request succeeded, each configure installed the next key byte and
 * the HCA's mkey is what the last posts left; the first instance of each
 * is logged through @s->log.
 */
unsigned int mqs_check(struct mqs *s)
{
	const struct mqs_rec *last = NULL, *conf = NULL;
	unsigned int bad = 0, n, dropped, i;
	u8 key = s->key0;

	n = mlx5_umr_fake_exec_log_read(s->fake, 0, s->exec, s->cap, &dropped);
	if (dropped || s->lost || n == s->cap) {
		s->log(s->log_ctx, "logs lost entries: exec %u, post/done %u",
		       dropped, s->lost);
		bad |= MQS_BAD_LOG;
	}
	bad |= mqs_check_exec(s, n);
	bad |= mqs_check_done(s);
	/* each configure installs the byte after the one before it */
	for (i = 0; i < s->npost; i++) {
		const struct mqs_rec *p = &s->post[i];

		if (p->op == MLX5_UMR_OP_CONFIGURE) {
			if (p->key != mlx5_umr_key_next(key) &&
			    !(bad & MQS_BAD_KEY)) {
				s->log(s->log_ctx, "post #%u: key 0x%x after 0x%x",
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
	return bad | mqs_check_final(s, last, conf);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mqs_check);

/**
 * mqs_run() - the stress: MQS_THREADS threads post configure and
 *	invalidate on one mkey, each with up to MQS_INFLIGHT in flight
 * @s: from mqs_create(), not run before
 * @iters: configure + invalidate pairs per thread
 * @route_cpu: send every post to the posting CPU's queue instead of the
 *	mkey's home (dev->test_route_cpu: the broken design the guarantee
 *	rules out, for a negative control)
 *
 * With several online CPUs each thread is bound to one, spread over them;
 * @s->ncpus and @s->overlaps say how many and whether posts raced.
 *
 * Return: 0 once every thread exited and every completion came, or the
 * first errno a thread's post or creation returned. mqs_check() judges.
 */
int mqs_run(struct mqs *s, unsigned int iters, bool route_cpu)
{
	unsigned int i, j, started = 0;
	int err = 0;

	s->iters = iters;
	s->nthreads = MQS_THREADS;
	for (i = 0; i < MQS_THREADS; i++)
		mqs_thread_init(s, &s->th[i], i);
	for (i = 0; i < MQS_THREADS; i++) {
		struct mqs_thread *t = &s->th[i];
		struct task_struct *task;

		task = kthread_create(mqs_thread_fn, t, "mqs/%u", i);
		if (IS_ERR(task)) {
			err = PTR_ERR(task);
			break;
		}
		if (num_online_cpus() > 1) {
			t->cpu = cpumask_local_spread(i, NUMA_NO_NODE);
			kthread_bind(task, t->cpu);
		}
		t->task = task;
		started++;
	}
	s->ncpus = 0;
	for (i = 0; i < started; i++) {
		for (j = 0; j < i && s->th[j].cpu != s->th[i].cpu; j++)
			;
		s->ncpus += j == i && s->th[i].cpu >= 0;
	}
	WRITE_ONCE(s->dev->test_route_cpu, route_cpu);
	for (i = 0; i < started; i++)
		wake_up_process(s->th[i].task);
	for (i = 0; i < started; i++) {
		wait_for_completion(&s->th[i].exited);
		if (!err)
			err = s->th[i].err;
	}
	WRITE_ONCE(s->dev->test_route_cpu, false);
	mlx5_umr_sq_flush(s->dev);
	mlx5_umr_fake_exec_log_stop(s->fake);
	return err;
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mqs_run);

/**
 * mqs_reorder() - the deterministic negative control
 * @s: from mqs_create(), not run before
 *
 * The mkey's configure waits on its stalled home queue while its
 * invalidate, sent to another queue (dev->test_route), runs first. The
 * invalidate names the configure's new key byte, which the HCA does not
 * know yet: it fails (LOCAL_PROT_ERR) and its queue recovers. mqs_check()
 * must then report MQS_REORDER_BAD.
 *
 * Return: 0 once both requests completed (@s->npost is 2), or an errno.
 */
int mqs_reorder(struct mqs *s)
{
	struct mlx5_umr_queue *home = s->dev->queues[MQS_HOME];
	struct mqs_thread *t = &s->th[0];
	int err;

	mqs_thread_init(s, t, 0);
	t->task = current;
	s->nthreads = 1;

	err = mlx5_umr_fake_stall_qp(s->fake, home->sq.qpn, true);
	if (err)
		return err;
	mqs_fill(s, &t->req[0], 0, 5);
	err = mqs_post(t, &t->req[0]);
	if (!err) {
		mqs_fill(s, &t->req[1], 1, 0);
		WRITE_ONCE(s->dev->test_route, s->dev->queues[0]);
		err = mqs_post(t, &t->req[1]);
		WRITE_ONCE(s->dev->test_route, NULL);
		/* the invalidate runs and completes while the configure waits */
		mlx5_umr_fake_flush(s->fake);
	}
	mlx5_umr_fake_stall_qp(s->fake, home->sq.qpn, false);
	mlx5_umr_sq_flush(s->dev);
	mlx5_umr_fake_exec_log_stop(s->fake);
	if (!err && atomic_read(&t->inflight))
		err = -EBUSY;
	return err;
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mqs_reorder);

/* One zeroed page as an MTT mkey at MQS_IOVA: what the layouts map. */
static int mqs_mr_reg(struct mqs *s)
{
	struct mlx5_umr_wr wr = {};
	dma_addr_t addr;
	int err;

	s->mr_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!s->mr_page)
		return -ENOMEM;
	err = sg_alloc_table(&s->mr_sgt, 1, GFP_KERNEL);
	if (err)
		goto free_page;
	sg_set_page(s->mr_sgt.sgl, s->mr_page, PAGE_SIZE, 0);
	err = mlx5_umr_dma_map_sg(s->dev, &s->mr_sgt, DMA_BIDIRECTIONAL);
	if (err)
		goto free_sgt;
	s->mr_mkey = mlx5_umr_alloc_mtt_mkey(s->dev, 1, 0);
	if (IS_ERR(s->mr_mkey)) {
		err = PTR_ERR(s->mr_mkey);
		goto unmap;
	}
	addr = sg_dma_address(s->mr_sgt.sgl);
	wr.mkey = s->mr_mkey;
	wr.op = MLX5_UMR_OP_REG_PAGES;
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	wr.access = MQS_ACCESS;
	wr.pages.addrs = &addr;
	wr.pages.npages = 1;
	wr.pages.iova = MQS_IOVA;
	wr.pages.length = PAGE_SIZE;
	err = mlx5_umr_exec(s->dev, &wr, 0);
	if (err)
		goto free_mkey;
	return 0;

free_mkey:
	mlx5_umr_free_mkey(s->mr_mkey);
unmap:
	mlx5_umr_dma_unmap_sg(s->dev, &s->mr_sgt, DMA_BIDIRECTIONAL);
free_sgt:
	sg_free_table(&s->mr_sgt);
free_page:
	__free_page(s->mr_page);
	s->mr_page = NULL;
	return err;
}

static void mqs_mr_unreg(struct mqs *s)
{
	mlx5_umr_free_mkey(s->mr_mkey);
	mlx5_umr_dma_unmap_sg(s->dev, &s->mr_sgt, DMA_BIDIRECTIONAL);
	sg_free_table(&s->mr_sgt);
	__free_page(s->mr_page);
}

/* The mkey under test, homed on MQS_HOME: allocated as a CPU of it would. */
static int mqs_alloc_mkey(struct mqs *s)
{
	u16 *saved;
	unsigned int cpu;

	saved = kcalloc(nr_cpu_ids, sizeof(*saved), GFP_KERNEL);
	if (!saved)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		saved[cpu] = s->dev->cpu_q[cpu];
		s->dev->cpu_q[cpu] = MQS_HOME;
	}
	s->mkey = mlx5_umr_alloc_mkey(s->dev, 1, 0);
	for_each_possible_cpu(cpu)
		s->dev->cpu_q[cpu] = saved[cpu];
	kfree(saved);
	if (IS_ERR_OR_NULL(s->mkey))
		return s->mkey ? PTR_ERR(s->mkey) : -ENOMEM;
	if (to_priv(s->mkey)->q != s->dev->queues[MQS_HOME]) {
		s->log(s->log_ctx, "the mkey is not homed on queue %u",
		       MQS_HOME);
		mlx5_umr_free_mkey(s->mkey);
		return -EINVAL;
	}
	s->index = s->mkey->key >> 8;
	s->key0 = s->mkey->key & 0xff;
	return 0;
}

/**
 * mqs_create() - a fake with MQS_QUEUES queues executing from its
 *	workqueue, registered with the service, an MR, the mkey under test
 *	and the three logs, recording
 * @log: where mqs_check() and the set-up report (printf-like)
 * @log_ctx: @log's first argument
 *
 * Return: the run, for one mqs_run() or mqs_reorder(); an ERR_PTR() if
 * any of it failed (the reason logged), nothing left behind.
 */
struct mqs *mqs_create(mqs_log_fn log, void *log_ctx)
{
	struct mlx5_umr_fake_attr attr;
	struct mqs *s;
	int err = -ENOMEM;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	s->log = log;
	s->log_ctx = log_ctx;
	spin_lock_init(&s->lock);
	s->cap = 2 * MQS_THREADS * MQS_ITERS + 64;
	s->post = kvcalloc(s->cap, sizeof(*s->post), GFP_KERNEL);
	s->done = kvcalloc(s->cap, sizeof(*s->done), GFP_KERNEL);
	s->exec = kvcalloc(s->cap, sizeof(*s->exec), GFP_KERNEL);
	if (!s->post || !s->done || !s->exec)
		goto free;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_ASYNC_EXEC | MLX5_UMR_FAKE_F_REGISTER;
	attr.nqueues = MQS_QUEUES;
	s->fake = mlx5_umr_fake_create(&attr);
	if (IS_ERR_OR_NULL(s->fake)) {
		err = s->fake ? PTR_ERR(s->fake) : -ENODEV;
		log(log_ctx, "fake: %d", err);
		goto free;
	}
	s->dev = mlx5_umr_fake_hca(s->fake)->umr;
	err = -ENODEV;
	if (!s->dev || s->dev->nqueues != MQS_QUEUES) {
		log(log_ctx, "the service has %u queues on the fake, not %u",
		    s->dev ? s->dev->nqueues : 0, MQS_QUEUES);
		goto destroy;
	}
	err = mqs_mr_reg(s);
	if (err) {
		log(log_ctx, "MR: %d", err);
		goto destroy;
	}
	err = mqs_alloc_mkey(s);
	if (err) {
		log(log_ctx, "mkey: %d", err);
		goto unreg;
	}
	err = register_trace_mlx5_umr_post(mqs_probe, s);
	if (err)
		goto free_mkey;
	err = mlx5_umr_fake_exec_log_start(s->fake, s->cap);
	if (err)
		goto unprobe;
	return s;

unprobe:
	unregister_trace_mlx5_umr_post(mqs_probe, s);
	tracepoint_synchronize_unregister();
free_mkey:
	mlx5_umr_free_mkey(s->mkey);
unreg:
	mqs_mr_unreg(s);
destroy:
	mlx5_umr_fake_destroy(s->fake);
free:
	kvfree(s->exec);
	kvfree(s->done);
	kvfree(s->post);
	kfree(s);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mqs_create);

/**
 * mqs_destroy() - undo mqs_create()
 * @s: the run; its threads exited
 */
void mqs_destroy(struct mqs *s)
{
	unregister_trace_mlx5_umr_post(mqs_probe, s);
	tracepoint_synchronize_unregister();
	mlx5_umr_fake_exec_log_stop(s->fake);
	mlx5_umr_sq_flush(s->dev);
	mlx5_umr_free_mkey(s->mkey);
	mqs_mr_unreg(s);
	mlx5_umr_fake_destroy(s->fake);
	kvfree(s->exec);
	kvfree(s->done);
	kvfree(s->post);
	kfree(s);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mqs_destroy);

MODULE_DESCRIPTION("The one-mkey ordering stress of several UMR queues, for its KUnit suite and VM test");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
