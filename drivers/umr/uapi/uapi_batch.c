// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: MLX5_UMR_IOCTL_BATCH, many configure and invalidate requests
 * with one system call, one doorbell and one wait.
 *
 * The batch is all or nothing up to the post: every request is gathered
 * as a lone CONFIGURE or INVALIDATE would be (uapi_mkey.c), its mkey
 * claimed and the request checked by the service's rules, before the first
 * is posted. A refusal undoes what the requests before it gathered. Once
 * posted, each request is settled by its own status, as a lone one is.
 *
 * Claims rather than mkey mutexes keep the mkeys of a batch away from
 * other ioctls: a batch holds up to UMR_UAPI_MAX_BATCH of them across a
 * device round trip, in the order userspace chose.
 *
 * What reads user memory (the requests, their entry arrays) runs in the
 * prepare step, before the device lock, as for a lone CONFIGURE. Each
 * request holds its basic blocks of the files' share of the queue
 * (umr_share_take()) from its post to its completion: a batch posts at
 * once as many requests as the share has room for, so a batch of small
 * configures needs one doorbell, and never more than the files may have
 * on the shared queue. The file's signature mkeys live on its PD's queue
 * (mlx5_umr_uapi_alloc_mkey()): a batch that mixes them with others rings
 * a doorbell per run of one queue's requests, and nothing orders the
 * requests of two queues (they name different mkeys).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uapi_priv.h"
#include "../umr_uapi.h"

/**
 * struct umr_batch - one MLX5_UMR_IOCTL_BATCH being executed
 * @ctx: the file
 * @cmd: the user's command, kernel copy
 * @ureq: the kernel copies of the user's requests
 * @uent: per request, its entries (in @ents) as umr_entries_copy_in()
 *	would have returned them
 * @ents: every request's entries, one allocation for the batch
 * @req: the gathered requests
 * @wrs: the service's requests, in order
 * @ncopied: requests read in by the prepare step
 * @err: why the prepare step stopped at request @ncopied, or 0
 * @ngathered: requests of @req gathered so far (to be released)
 * @nposted: requests of @req posted (the rest never reached the HCA)
 * @pending: posted requests whose done() has not run, plus one
 * @done: completed when @pending drops to zero
 */
struct umr_batch {
	struct umr_uctx *ctx;
	struct mlx5_umr_ioc_batch *cmd;
	struct mlx5_umr_ioc_batch_req *ureq;
	void **uent;
	void *ents;
	struct umr_mreq *req;
	struct mlx5_umr_wr **wrs;
	u32 ncopied;
	int err;
	u32 ngathered;
	u32 nposted;
	atomic_t pending;
	struct completion done;
};

static void __user *umr_batch_ureq(const struct mlx5_umr_ioc_batch *cmd,
				   u32 i)
{
	return u64_to_user_ptr(cmd->reqs + (u64)i * cmd->req_size);
}

/* The requests are laid out as this kernel knows them. */
static bool umr_batch_dense(const struct mlx5_umr_ioc_batch *cmd)
{
	return cmd->req_size == sizeof(struct mlx5_umr_ioc_batch_req);
}

/* The batch's own fields; @num_reqs decides what is allocated. */
static int umr_batch_check_cmd(const struct mlx5_umr_ioc_batch *cmd)
{
	if (cmd->flags)
		return -EOPNOTSUPP;
	if (!cmd->num_reqs ||
	    cmd->req_size < MLX5_UMR_IOC_BATCH_REQ_SIZE_VER1 ||
	    !IS_ALIGNED(cmd->reqs, sizeof(u64)) ||
	    !IS_ALIGNED(cmd->req_size, sizeof(u64)))
		return -EINVAL;
	if (cmd->num_reqs > UMR_UAPI_MAX_BATCH ||
	    cmd->req_size > UMR_UAPI_MAX_STRUCT)
		return -E2BIG;
	return 0;
}

/* Bytes of the entry array a CONFIGURE request names. */
static u64 umr_batch_req_bytes(const struct mlx5_umr_ioc_batch_req *u)
{
	if (u->op != MLX5_UMR_IOC_BATCH_CONFIGURE)
		return 0;
	if (u->layout == MLX5_UMR_IOC_LAYOUT_INTERLEAVED)
		return (u64)u->num_entries *
		       sizeof(struct mlx5_umr_ioc_interleaved);
	return (u64)u->num_entries * sizeof(struct mlx5_umr_ioc_sge);
}

/* Request @i's own fields, then the lone ioctl's gathering of it. */
static int umr_batch_gather(struct umr_batch *b, u32 i)
{
	const struct mlx5_umr_ioc_batch_req *u = &b->ureq[i];
	struct umr_mreq *r = &b->req[i];
	struct mlx5_umr_ioc_configure cfg = {
		.size = sizeof(cfg),
		.handle = u->handle,
		.access = u->access,
		.layout = u->layout,
		.num_entries = u->num_entries,
		.repeat_count = u->repeat_count,
		.entries = u->entries,
		.flags = u->flags,
	};
	int ret;

	if (u->flags & ~MLX5_UMR_IOC_NEW_KEY)
		return -EOPNOTSUPP;
	if (u->__reserved)
		return -EINVAL;
	switch (u->op) {
	case MLX5_UMR_IOC_BATCH_CONFIGURE:
		/* no crypto attributes here: a crypto mkey is refused */
		r->batch = true;
		return umr_mreq_configure(b->ctx, &cfg, &b->uent[i], r);
	case MLX5_UMR_IOC_BATCH_INVALIDATE:
		if (u->access || u->layout || u->num_entries ||
		    u->repeat_count || u->entries)
			return -EINVAL;
		ret = umr_mreq_invalidate(b->ctx, u->handle, r);
		if (!ret && (u->flags & MLX5_UMR_IOC_NEW_KEY))
			r->wr.flags = MLX5_UMR_WR_NEW_KEY;
		return ret;
	default:
		return -EINVAL;
	}
}

/*
 * Before the device lock: read the requests and their entry arrays in, up
 * to the first that cannot be (@b->ncopied, its error in @b->err).
 */
static int umr_batch_copy_in(struct umr_batch *b)
{
	const struct mlx5_umr_ioc_batch *cmd = b->cmd;
	const struct mlx5_umr_ioc_batch_req *u;
	u32 n = cmd->num_reqs, i;
	size_t off = 0, all = 0;
	u64 bytes = 0;
	bool dense;
	int ret = 0;

	/*
	 * The usual stride is read at once: user copies are not free. When
	 * that faults, one by one, to say which request is unreadable.
	 */
	dense = umr_batch_dense(cmd) &&
		!copy_from_user(b->ureq, umr_batch_ureq(cmd, 0),
				n * sizeof(*b->ureq));

	for (i = 0; i < n; i++) {
		u = &b->ureq[i];
		/* up to a page per request: a killed caller stops here */
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
		if (!dense) {
			ret = copy_struct_from_user(&b->ureq[i],
						    sizeof(b->ureq[i]),
						    umr_batch_ureq(cmd, i),
						    cmd->req_size);
			if (ret)
				break;
		}
		bytes += umr_batch_req_bytes(u);
		if (bytes > UMR_UAPI_MAX_BATCH_BYTES) {
			ret = -E2BIG;
			break;
		}
		if (u->op == MLX5_UMR_IOC_BATCH_CONFIGURE)
			all += umr_entries_bytes(u->layout, u->num_entries);
		b->ncopied = i + 1;
	}
	/* One buffer for the batch: an allocation per request costs. */
	b->ents = all ? kvmalloc(all, GFP_KERNEL_ACCOUNT) : NULL;
	for (i = 0; i < b->ncopied; i++) {
		u = &b->ureq[i];
		all = u->op == MLX5_UMR_IOC_BATCH_CONFIGURE ?
		      umr_entries_bytes(u->layout, u->num_entries) : 0;
		if (!all)
			continue;
		if (!b->ents)
			b->uent[i] = ERR_PTR(-ENOMEM);
		else if (umr_entries_read(b->ents + off, u->layout,
					  u->num_entries, u->entries))
			b->uent[i] = ERR_PTR(-EFAULT);
		else
			b->uent[i] = b->ents + off;
		off += all;
	}
	return ret;
}

static void umr_batch_free(struct umr_batch *b)
{
	kvfree(b->ents);
	kvfree(b->uent);
	kvfree(b->wrs);
	kvfree(b->req);
	kvfree(b->ureq);
	kfree(b);
}

/**
 * umr_prep_batch() - BATCH before the device lock: read the requests in
 * @ucmd: the ioctl
 *
 * Return: 0; the batch, or the error refusing it as a whole, is in
 * @ucmd->priv (the ioctl still answers, with out_index).
 */
int umr_prep_batch(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_batch *cmd = ucmd->cmd;
	u32 n = cmd->num_reqs;
	struct umr_batch *b;
	int ret;

	ret = umr_batch_check_cmd(cmd);
	if (ret) {
		ucmd->priv = ERR_PTR(ret);
		return 0;
	}
	b = kzalloc(sizeof(*b), GFP_KERNEL_ACCOUNT);
	if (!b) {
		ucmd->priv = ERR_PTR(-ENOMEM);
		return 0;
	}
	b->ctx = ucmd->ctx;
	b->cmd = cmd;
	b->ureq = kvcalloc(n, sizeof(*b->ureq), UMR_GFP_USER);
	b->uent = kvcalloc(n, sizeof(*b->uent), UMR_GFP_USER);
	b->req = kvcalloc(n, sizeof(*b->req), UMR_GFP_USER);
	b->wrs = kvcalloc(n, sizeof(*b->wrs), UMR_GFP_USER);
	if (!b->ureq || !b->uent || !b->req || !b->wrs) {
		umr_batch_free(b);
		ucmd->priv = ERR_PTR(-ENOMEM);
		return 0;
	}
	init_completion(&b->done);
	b->err = umr_batch_copy_in(b);
	ucmd->priv = b;
	return 0;
}

void umr_release_batch(struct umr_ucmd *ucmd)
{
	if (!IS_ERR_OR_NULL(ucmd->priv))
		umr_batch_free(ucmd->priv);
}

/*
 * Gather, claim and check every request read in; stop at the first
 * refused, its index in @b->cmd->out_index.
 */
static int umr_batch_prepare(struct umr_batch *b)
{
	struct mlx5_umr_dev *dev = b->ctx->ud->dev;
	u32 i;
	int ret = 0;

	for (i = 0; i < b->ncopied && !ret; i++) {
		struct umr_mreq *r = &b->req[i];

		b->cmd->out_index = i;
		b->ngathered = i + 1;
		b->wrs[i] = &r->wr;
		ret = umr_batch_gather(b, i) ?:
		      umr_mreq_claim(r, b) ?:
		      umr_mreq_reserve(r);
		if (ret)
			break;
		/* checked once: the post takes it as admitted */
		ret = mlx5_umr_admit(dev, &r->wr);
		if (ret > 0) {
			r->bbs = ret;
			ret = 0;
		}
	}
	if (!ret && b->err) {
		b->cmd->out_index = b->ncopied;
		ret = b->err;
	}
	return ret;
}

static void umr_batch_wr_done(struct mlx5_umr_wr *wr)
{
	struct umr_batch *b = wr->context;

	umr_share_put(b->ctx->ud, container_of(wr, struct umr_mreq, wr)->bbs);
	if (atomic_dec_and_test(&b->pending))
		complete(&b->done);
}

/*
 * Take the share for requests @i.. (at most @want of them), waiting
 * (interruptibly) for the first only. Return: how many it holds the share
 * for, 0 on a signal.
 */
static u32 umr_batch_take(struct umr_batch *b, u32 i, u32 want)
{
	struct umr_udev *ud = b->ctx->ud;
	u32 got;

	if (umr_share_take(ud, b->req[i].bbs))
		return 0;
	for (got = 1; got < want && umr_share_try(ud, b->req[i + got].bbs);
	     got++)
		;
	return got;
}

static void umr_batch_untake(struct umr_batch *b, u32 i, u32 n)
{
	u32 bbs = 0;

	while (n--)
		bbs += b->req[i + n].bbs;
	umr_share_put(b->ctx->ud, bbs);
}

/*
 * How many requests from @i on, at most @want, have the home queue of
 * request @i: one post takes one queue's (mlx5_umr_post()).
 */
static u32 umr_batch_run(struct umr_batch *b, u32 i, u32 want)
{
	struct mlx5_umr_queue *q = mlx5_umr_mkey_queue(b->wrs[i]->mkey);
	u32 n = 1;

	while (n < want && mlx5_umr_mkey_queue(b->wrs[i + n]->mkey) == q)
		n++;
	return n;
}

/*
 * Post in order, as many at once as the share has room for (each
 * completion returns its own) and the queue has room for, else in halves;
 * a run of requests of one home queue per post.
 * A part refused as a whole while single requests pass only means it does
 * not fit the ring (every request passed mlx5_umr_validate()). Requests
 * that cannot be posted get the error as their status.
 *
 * Return: 0, or -EINTR when a signal came before anything was posted.
 */
static int umr_batch_post(struct umr_batch *b, unsigned long deadline)
{
	struct mlx5_umr_dev *dev = b->ctx->ud->dev;
	u32 n = b->cmd->num_reqs, i = 0, part = n, got, j;
	int ret = 0;

	atomic_set(&b->pending, n + 1);
	while (i < n) {
		got = umr_batch_run(b, i, min(part, n - i));
		got = umr_batch_take(b, i, got);
		if (!got) {
			ret = -EINTR;
			break;
		}
		for (j = i; j < i + got; j++) {
			b->wrs[j]->done = umr_batch_wr_done;
			b->wrs[j]->context = b;
		}
		ret = mlx5_umr_post_wait_room(dev, b->wrs + i, got, deadline);
		if (ret) {
			umr_batch_untake(b, i, got);
			if (ret == -EINVAL && got > 1) {
				part = DIV_ROUND_UP(got, 2);
				continue;
			}
			break;
		}
		i += got;
	}
	if (ret) {
		for (j = i; j < n; j++)
			b->wrs[j]->status = ret;
		atomic_sub(n - i, &b->pending);
	}
	b->nposted = i;
	if (atomic_dec_and_test(&b->pending))
		complete(&b->done);
	return i || ret != -EINTR ? 0 : ret;
}

/* Without the device lock: each request's answer (umr_ucmd_copy_out()). */
static int umr_batch_respond(struct umr_ucmd *ucmd)
{
	struct umr_batch *b = ucmd->priv;
	struct mlx5_umr_ioc_batch *cmd = b->cmd;
	u32 i;

	if (umr_batch_dense(cmd))
		return copy_to_user(umr_batch_ureq(cmd, 0), b->ureq,
				    cmd->num_reqs * sizeof(*b->ureq)) ?
		       -EFAULT : 0;
	for (i = 0; i < cmd->num_reqs; i++)
		if (copy_to_user(umr_batch_ureq(cmd, i), &b->ureq[i],
				 min_t(u32, cmd->req_size, sizeof(b->ureq[i]))))
			return -EFAULT;
	return 0;
}

/* Settle each request by its status; the answer goes out later. */
static void umr_batch_finish(struct umr_batch *b)
{
	struct mlx5_umr_ioc_batch *cmd = b->cmd;
	struct mlx5_umr_ioc_batch_req *u;
	struct umr_mreq *r;
	u32 i;

	cmd->out_failed = 0;
	for (i = 0; i < cmd->num_reqs; i++) {
		u = &b->ureq[i];
		r = &b->req[i];
		/* claimed until unclaimed: nothing else changes its key */
		u->out_key = READ_ONCE(r->wr.mkey->key);
		umr_mreq_unclaim(r, i < b->nposted ? r->wr.status : 1);
		u->out_status = r->wr.status;
		if (!r->wr.status && r->wr.op == MLX5_UMR_OP_CONFIGURE)
			u->out_length = r->length;
		if (u->out_status)
			cmd->out_failed++;
	}
}

/* Under the device lock: what the gathered requests hold. */
static void umr_batch_ungather(struct umr_batch *b)
{
	u32 i;

	for (i = 0; i < b->ngathered; i++) {
		umr_mreq_unclaim(&b->req[i], 1);
		/* its entries are in the batch's buffer */
		b->req[i].uent = NULL;
		umr_mreq_release(&b->req[i]);
	}
	b->ngathered = 0;
}

int umr_cmd_batch(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_batch *cmd = ucmd->cmd;
	struct umr_batch *b = ucmd->priv;
	unsigned long tmo = msecs_to_jiffies(UMR_UAPI_TIMEOUT_MS);
	int ret;

	cmd->out_index = cmd->num_reqs;
	cmd->out_failed = 0;
	if (IS_ERR(b)) {
		ret = PTR_ERR(b);
		goto out_respond;
	}
	ret = umr_batch_prepare(b);
	if (ret)
		goto out_ungather;

	cmd->out_index = cmd->num_reqs;
	ret = umr_batch_post(b, jiffies + tmo);
	if (ret)
		goto out_ungather;
	/* on the files' queue, a signature mkey's on its PD's queue */
	mlx5_umr_wait_posted(b->wrs, b->nposted ?: 1, &b->done, tmo);
	umr_batch_finish(b);
	ucmd->respond_more = umr_batch_respond;
out_ungather:
	umr_batch_ungather(b);
out_respond:
	/* A refused batch still says which request it refused. */
	return umr_ucmd_respond(ucmd) ?: ret;
}
