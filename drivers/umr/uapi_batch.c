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
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uapi_priv.h"
#include "umr.h"

/**
 * struct umr_batch - one MLX5_UMR_IOCTL_BATCH being executed
 * @ctx: the file
 * @cmd: the user's command, kernel copy
 * @ureq: the kernel copies of the user's requests
 * @req: the gathered requests
 * @wrs: the service's requests, in order
 * @ngathered: requests of @req gathered so far (to be released)
 * @nposted: requests of @req posted (the rest never reached the HCA)
 * @pending: posted requests whose done() has not run, plus one
 * @done: completed when @pending drops to zero
 */
struct umr_batch {
	struct umr_uctx *ctx;
	struct mlx5_umr_ioc_batch *cmd;
	struct mlx5_umr_ioc_batch_req *ureq;
	struct umr_mreq *req;
	struct mlx5_umr_wr **wrs;
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
	    cmd->req_size < offsetofend(struct mlx5_umr_ioc_batch_req,
					__reserved2) ||
	    !IS_ALIGNED(cmd->reqs, sizeof(u64)) ||
	    !IS_ALIGNED(cmd->req_size, sizeof(u64)))
		return -EINVAL;
	if (cmd->num_reqs > UMR_UAPI_MAX_BATCH)
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
	};

	if (u->flags)
		return -EOPNOTSUPP;
	if (u->__reserved || u->__reserved2)
		return -EINVAL;
	switch (u->op) {
	case MLX5_UMR_IOC_BATCH_CONFIGURE:
		return umr_mreq_configure(b->ctx, &cfg, r);
	case MLX5_UMR_IOC_BATCH_INVALIDATE:
		if (u->access || u->layout || u->num_entries ||
		    u->repeat_count || u->entries)
			return -EINVAL;
		return umr_mreq_invalidate(b->ctx, u->handle, r);
	default:
		return -EINVAL;
	}
}

/*
 * Copy, gather, claim and check every request; stop at the first refused,
 * its index in @b->cmd->out_index.
 */
static int umr_batch_prepare(struct umr_batch *b)
{
	struct mlx5_umr_dev *dev = b->ctx->ud->dev;
	u32 n = b->cmd->num_reqs, i;
	u64 bytes = 0;
	int ret = 0;

	/* The usual stride is read at once: user copies are not free. */
	b->cmd->out_index = 0;
	if (umr_batch_dense(b->cmd) &&
	    copy_from_user(b->ureq, umr_batch_ureq(b->cmd, 0),
			   n * sizeof(*b->ureq)))
		return -EFAULT;
	for (i = 0; i < n && !ret; i++) {
		b->cmd->out_index = i;
		if (!umr_batch_dense(b->cmd))
			ret = copy_struct_from_user(&b->ureq[i],
						    sizeof(b->ureq[i]),
						    umr_batch_ureq(b->cmd, i),
						    b->cmd->req_size);
		if (ret)
			break;
		bytes += umr_batch_req_bytes(&b->ureq[i]);
		if (bytes > UMR_UAPI_MAX_BATCH_BYTES) {
			ret = -E2BIG;
			break;
		}
		b->ngathered = i + 1;
		b->wrs[i] = &b->req[i].wr;
		ret = umr_batch_gather(b, i) ?:
		      umr_mreq_claim(&b->req[i], b) ?:
		      umr_mreq_reserve(&b->req[i]) ?:
		      mlx5_umr_validate(dev, &b->req[i].wr);
	}
	return ret;
}

static void umr_batch_wr_done(struct mlx5_umr_wr *wr)
{
	struct umr_batch *b = wr->context;

	if (atomic_dec_and_test(&b->pending))
		complete(&b->done);
}

/*
 * Post in order: all at once when the queue has room, else in halves. A
 * batch refused as a whole while single requests pass only means it does
 * not fit the ring (every request passed mlx5_umr_validate()). Requests
 * that cannot be posted get the error as their status.
 */
static void umr_batch_post(struct umr_batch *b, unsigned long deadline)
{
	struct mlx5_umr_dev *dev = b->ctx->ud->dev;
	u32 n = b->cmd->num_reqs, i = 0, part = n, j;
	int ret;

	atomic_set(&b->pending, n + 1);
	while (i < n) {
		part = min(part, n - i);
		for (j = i; j < i + part; j++) {
			b->wrs[j]->done = umr_batch_wr_done;
			b->wrs[j]->context = b;
		}
		ret = mlx5_umr_post_wait_room(dev, b->wrs + i, part, deadline);
		if (ret == -EINVAL && part > 1) {
			part = DIV_ROUND_UP(part, 2);
			continue;
		}
		if (ret) {
			for (j = i; j < n; j++)
				b->wrs[j]->status = ret;
			atomic_sub(n - i, &b->pending);
			break;
		}
		i += part;
	}
	b->nposted = i;
	if (atomic_dec_and_test(&b->pending))
		complete(&b->done);
}

/* Settle each request by its status and tell userspace. */
static int umr_batch_finish(struct umr_batch *b)
{
	struct mlx5_umr_ioc_batch *cmd = b->cmd;
	struct mlx5_umr_ioc_batch_req *u;
	struct umr_mreq *r;
	int ret = 0;
	u32 i;

	cmd->out_failed = 0;
	for (i = 0; i < cmd->num_reqs; i++) {
		u = &b->ureq[i];
		r = &b->req[i];
		umr_mreq_unclaim(r, i < b->nposted ? r->wr.status : 1);
		u->out_status = r->wr.status;
		if (!r->wr.status && r->wr.op == MLX5_UMR_OP_CONFIGURE)
			u->out_length = r->length;
		if (u->out_status)
			cmd->out_failed++;
		if (!umr_batch_dense(cmd) &&
		    copy_to_user(umr_batch_ureq(cmd, i), u,
				 min_t(u32, cmd->req_size, sizeof(*u))))
			ret = -EFAULT;
	}
	if (umr_batch_dense(cmd) &&
	    copy_to_user(umr_batch_ureq(cmd, 0), b->ureq,
			 cmd->num_reqs * sizeof(*b->ureq)))
		ret = -EFAULT;
	return ret;
}

static void umr_batch_free(struct umr_batch *b)
{
	u32 i;

	for (i = 0; i < b->ngathered; i++) {
		umr_mreq_unclaim(&b->req[i], 1);
		umr_mreq_release(&b->req[i]);
	}
	kvfree(b->wrs);
	kvfree(b->req);
	kvfree(b->ureq);
}

int umr_cmd_batch(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_batch *cmd = ucmd->cmd;
	struct umr_batch b = { .ctx = ucmd->ctx, .cmd = cmd };
	unsigned long tmo = msecs_to_jiffies(UMR_UAPI_TIMEOUT_MS);
	int ret;

	cmd->out_index = cmd->num_reqs;
	cmd->out_failed = 0;
	ret = umr_batch_check_cmd(cmd);
	if (ret)
		goto out_respond;
	init_completion(&b.done);
	b.ureq = kvcalloc(cmd->num_reqs, sizeof(*b.ureq), GFP_KERNEL);
	b.req = kvcalloc(cmd->num_reqs, sizeof(*b.req), GFP_KERNEL);
	b.wrs = kvcalloc(cmd->num_reqs, sizeof(*b.wrs), GFP_KERNEL);
	if (!b.ureq || !b.req || !b.wrs) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = umr_batch_prepare(&b);
	if (ret)
		goto out_free;

	cmd->out_index = cmd->num_reqs;
	umr_batch_post(&b, jiffies + tmo);
	mlx5_umr_wait_posted(b.ctx->ud->dev, &b.done, tmo);
	ret = umr_batch_finish(&b);
out_free:
	umr_batch_free(&b);
out_respond:
	/* A refused batch still says which request it refused. */
	return umr_ucmd_respond(ucmd) ?: ret;
}
