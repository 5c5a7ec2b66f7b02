/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one-mkey ordering stress (Documentation/service.rst, "Queues and
 * ordering"), shared by the KUnit suite (drivers/umr/mq_stress_test.c, UML
 * under KASAN/lockdep, one CPU) and the VM module (mq_stress_vm.c, Debian's
 * kernels in QEMU -smp 2, where the threads really run at once), so both
 * test the same thing. No KUnit here: Debian's kernels have none.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_MQ_STRESS_H
#define _MLX5_UMR_MQ_STRESS_H

#include <linux/completion.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5_umr_fake.h>

#define MQS_QUEUES	3
#define MQS_HOME	1	/* not the queue of UML's one CPU */
#define MQS_THREADS	4
#define MQS_ITERS	5000	/* configure + invalidate each */
#define MQS_INFLIGHT	4	/* per thread */
#define MQS_TAGS	32	/* layouts: 64 bytes at tag * 64 of the MR */
#define MQS_SEG		64
#define MQS_IOVA	0x100000ULL

/* What mqs_check() finds wrong, as a mask. */
enum {
	MQS_BAD_LOG = BIT(0),		/* a log lost entries */
	MQS_BAD_EXEC = BIT(1),		/* executed not in post order */
	MQS_BAD_DONE = BIT(2),		/* done() not in post order */
	MQS_BAD_STATUS = BIT(3),	/* a done() with an error */
	MQS_BAD_KEY = BIT(4),		/* a new key byte not the next */
	MQS_BAD_FINAL = BIT(5),		/* the HCA's mkey not the last post's */
};

/* What the negative control's reorder makes mqs_check() report. */
#define MQS_REORDER_BAD (MQS_BAD_EXEC | MQS_BAD_DONE | MQS_BAD_STATUS | \
			 MQS_BAD_FINAL)

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
	int cpu;	/* bound to, or -1 */
	bool in_post;	/* inside mlx5_umr_post(), for the overlap count */
	struct mqs_req req[MQS_INFLIGHT];
	struct mqs_req *posting;	/* the probe's view of this thread */
	wait_queue_head_t wq;
	atomic_t inflight;
	int err;
	struct completion exited;
};

/**
 * typedef mqs_log_fn - where the stress reports what it finds
 * @ctx: the caller's (a struct kunit, or NULL)
 * @fmt: printf format
 */
typedef void (*mqs_log_fn)(void *ctx, const char *fmt, ...) __printf(2, 3);

/**
 * struct mqs - one stress run: a fake with MQS_QUEUES queues, an MR, the
 *	mkey under test homed on queue MQS_HOME, the three logs
 * @fake: the fake HCA, registered with the service
 * @dev: the service's device on it
 * @mr_mkey: the MTT mkey of @mr_page, what the layouts point into
 * @mr_page: the registered page
 * @mr_sgt: its DMA mapping
 * @mkey: the mkey under test
 * @index: its index, what the probe filters on
 * @key0: its key byte before the first request
 * @th: the posting threads
 * @nthreads: how many of @th post
 * @iters: configure + invalidate pairs per thread (mqs_run())
 * @ncpus: distinct CPUs the threads were bound to (mqs_run())
 * @overlaps: posts entered while a thread on another CPU was inside
 *	mlx5_umr_post() (mqs_run(): the CPUs really raced)
 * @lock: protects @post, @npost, @done, @ndone, @lost
 * @post: the probe's log, in the order posts took the home queue's lock
 * @done: done() calls in order
 * @npost: entries in @post
 * @ndone: entries in @done
 * @cap: capacity of each log
 * @lost: records that did not fit or had no thread
 * @exec: buffer for the fake's execution log
 * @log: where findings go
 * @log_ctx: @log's context
 */
struct mqs {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_mkey *mr_mkey;
	struct page *mr_page;
	struct sg_table mr_sgt;
	struct mlx5_umr_mkey *mkey;
	u32 index;
	u8 key0;
	struct mqs_thread th[MQS_THREADS];
	unsigned int nthreads;
	unsigned int iters;
	unsigned int ncpus;
	atomic_t overlaps;
	spinlock_t lock;	/* @post, @npost, @done, @ndone, @lost */
	struct mqs_rec *post, *done;
	unsigned int npost, ndone, cap, lost;
	struct mlx5_umr_fake_exec_ent *exec;
	mqs_log_fn log;
	void *log_ctx;
};

struct mqs *mqs_create(mqs_log_fn log, void *log_ctx);
void mqs_destroy(struct mqs *s);
int mqs_run(struct mqs *s, unsigned int iters, bool route_cpu);
int mqs_reorder(struct mqs *s);
unsigned int mqs_check(struct mqs *s);

#endif /* _MLX5_UMR_MQ_STRESS_H */
