// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the character device, one per HCA (/dev/mlx5_umr/<name>).
 *
 * The ioctl dispatch follows iommufd: every structure starts with its size,
 * is read with copy_struct_from_user() and answered up to the smaller of
 * the two sizes. See uapi/linux/mlx5_umr.h and Documentation/uapi.rst.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/fs.h>
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uapi_priv.h"
#include "../umr_uapi.h"

/* Protects umr_udevs. */
static DEFINE_MUTEX(umr_udevs_lock);
static LIST_HEAD(umr_udevs);

/**
 * umr_ucmd_respond() - answer the ioctl once the device lock is dropped
 * @ucmd: the ioctl, its answer in @ucmd->cmd
 *
 * Writing to user memory may fault for as long as userspace wants
 * (userfaultfd, FUSE): umr_fops_ioctl() copies the answer after it has
 * released the device lock, so that HCA removal and other files never wait
 * on such a fault.
 *
 * Return: 0.
 */
int umr_ucmd_respond(struct umr_ucmd *ucmd)
{
	ucmd->respond = true;
	return 0;
}

/**
 * umr_ucmd_respond_created() - answer an ioctl that published an object
 * @ucmd: the ioctl
 * @obj: the object, published
 *
 * Should the answer not reach userspace, the object is destroyed again
 * (umr_ucmd_undo_create()).
 *
 * Return: 0.
 */
int umr_ucmd_respond_created(struct umr_ucmd *ucmd, struct umr_uobj *obj)
{
	ucmd->created = obj->handle;
	return umr_ucmd_respond(ucmd);
}

/* Without the device lock: the answer, then what the op adds to it. */
static int umr_ucmd_copy_out(struct umr_ucmd *ucmd)
{
	int ret = ucmd->respond_more ? ucmd->respond_more(ucmd) : 0;

	if (copy_to_user(ucmd->ubuf, ucmd->cmd,
			 min_t(u32, ucmd->user_size, ucmd->size)))
		ret = -EFAULT;
	return ret;
}

/*
 * The answer of a creating ioctl faulted: nobody learnt the handle from
 * it, so destroy the object. Another thread of the file may have guessed
 * the handle and be using the object (EBUSY): it then lives until close,
 * as any object of the file.
 */
static void umr_ucmd_undo_create(struct umr_ucmd *ucmd)
{
	struct umr_udev *ud = ucmd->ctx->ud;

	down_read(&ud->rwsem);
	if (!ud->dead)
		umr_uobj_destroy_handle(ucmd->ctx, ucmd->created);
	up_read(&ud->rwsem);
}

/* The uapi's own rule on access rights (ib_check_mr_access()). */
static int umr_check_access_own(u32 access)
{
	if ((access & (MLX5_UMR_ACCESS_REMOTE_WRITE |
		       MLX5_UMR_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & MLX5_UMR_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	return 0;
}

/**
 * umr_check_access() - validate MLX5_UMR_IOC_ACCESS_* bits
 * @ud: the device
 * @access: from userspace
 *
 * The uapi's own rule: remote write and atomic need local write, as
 * ib_check_mr_access() says; then the service's access rules (7 and 8 of
 * Documentation/validation.rst). Rule 7 and the uapi's both answer
 * EINVAL, so their order does not show.
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP (atomic where the HCA or its UMR may
 * not set it).
 */
int umr_check_access(struct umr_udev *ud, u32 access)
{
	return umr_check_access_own(access) ?:
	       mlx5_umr_precheck_access(mlx5_umr_dev_caps(ud->dev), access);
}

/**
 * umr_check_access_bits() - umr_check_access() without the device's caps
 * @access: from userspace
 *
 * Return: 0 or -EINVAL.
 */
int umr_check_access_bits(u32 access)
{
	/* the access bits are the service's (umr_uapi.c) */
	return umr_check_access_own(access) ?:
	       mlx5_umr_precheck_access_bits(access);
}

/**
 * umr_max_entries() - the most entries of a list layout, and of an mkey
 * @ud: the device
 *
 * The device's KLM list and one work request's translation (rule 11); an
 * interleaved layout takes one less (rule 15).
 */
u32 umr_max_entries(struct umr_udev *ud)
{
	return mlx5_umr_mkey_max_klms(mlx5_umr_dev_caps(ud->dev));
}

/*
 * The files of a device share MLX5_UMR_IOC_MAX_INFLIGHT_BBS of their own
 * queue's ring (half of it, UMR_UAPI_QUEUE_BBS), counted in basic blocks
 * (what the queue runs out of), each request's as mlx5_umr_admit()
 * returns them: however many files post, the ring never refuses an
 * admitted request, and a batch of small requests still goes out with one
 * doorbell. The kernel's consumers post on other queues. The requests of
 * a file's signature mkeys, on its PD's queue (a ring as large, of that
 * file alone), take from the same share: one count bounds what the files
 * have in flight.
 */

/*
 * A call waiting for its part of the share. Waiters are served in the
 * order they came (umr_share_grant()), and nobody takes blocks while one
 * waits: another user's stream of batches cannot keep a large request
 * waiting (it waited 100 times longer, issue 30), a batch cannot take more
 * blocks past a waiter.
 */
struct umr_share_waiter {
	struct list_head node;
	struct task_struct *task;
	u32 bbs;
	bool granted;
};

/* Hand the share to the waiters at the head while it has room for them. */
static void umr_share_grant(struct umr_udev *ud)
{
	struct umr_share_waiter *w;

	lockdep_assert_held(&ud->share_lock);
	while ((w = list_first_entry_or_null(&ud->share_waiters,
					     struct umr_share_waiter, node)) &&
	       ud->share >= w->bbs) {
		ud->share -= w->bbs;
		list_del_init(&w->node);
		w->granted = true;
		wake_up_process(w->task);
	}
}

/* Take @bbs of the share if that many are left and nobody waits. */
bool umr_share_try(struct umr_udev *ud, u32 bbs)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&ud->share_lock, flags);
	ok = list_empty(&ud->share_waiters) && ud->share >= bbs;
	if (ok)
		ud->share -= bbs;
	spin_unlock_irqrestore(&ud->share_lock, flags);
	return ok;
}

/*
 * Take @bbs of the share, waiting interruptibly, in turn: nothing is
 * posted yet. More than the whole share would be waited for forever:
 * -ENOMEM, the errno of a request too large for the queue.
 */
int umr_share_take(struct umr_udev *ud, u32 bbs)
{
	struct umr_share_waiter w = { .task = current, .bbs = bbs };
	unsigned long flags;
	int ret = 0;

	if (bbs > MLX5_UMR_IOC_MAX_INFLIGHT_BBS)
		return -ENOMEM;
	if (umr_share_try(ud, bbs))
		return 0;
	spin_lock_irqsave(&ud->share_lock, flags);
	list_add_tail(&w.node, &ud->share_waiters);
	/* the share may have come back since the try */
	umr_share_grant(ud);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (w.granted)
			break;
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		spin_unlock_irqrestore(&ud->share_lock, flags);
		schedule();
		spin_lock_irqsave(&ud->share_lock, flags);
	}
	__set_current_state(TASK_RUNNING);
	if (ret) {
		list_del(&w.node);
		/* those behind may fit where this one did not */
		umr_share_grant(ud);
	}
	spin_unlock_irqrestore(&ud->share_lock, flags);
	return ret;
}

/* Give @bbs back; any context (a completion callback). */
void umr_share_put(struct umr_udev *ud, u32 bbs)
{
	unsigned long flags;

	spin_lock_irqsave(&ud->share_lock, flags);
	ud->share += bbs;
	umr_share_grant(ud);
	spin_unlock_irqrestore(&ud->share_lock, flags);
}

/**
 * umr_exec() - run one UMR work request for a file
 * @ctx: the file
 * @wr: the request
 *
 * The request is checked once (mlx5_umr_admit()), which sizes it, before
 * its size is taken from the share: a request no queue can hold is
 * refused, not waited for.
 * Waiting for the share, and for room on the queue (which kernel users
 * may fill), is interruptible: nothing was posted yet. The wait for the
 * posted request is not: the request's memory must outlive it;
 * UMR_UAPI_TIMEOUT_MS bounds it.
 *
 * Return: the request's result, an errno of mlx5_umr_admit(), or
 * -EINTR when a signal came while it waited for its part of the share or
 * for room (nothing was posted).
 */
int umr_exec(struct umr_uctx *ctx, struct mlx5_umr_wr *wr)
{
	struct umr_udev *ud = ctx->ud;
	int bbs, ret;

	bbs = mlx5_umr_admit(ud->dev, wr);
	if (bbs < 0)
		return bbs;
	ret = umr_share_take(ud, bbs);
	if (ret)
		return ret;
	ret = mlx5_umr_exec_admitted(ud->dev, wr, UMR_UAPI_TIMEOUT_MS);
	umr_share_put(ud, bbs);
	return ret ?: wr->status;
}

/* What rule 8 lets through, as MLX5_UMR_IOCTL_INFO reports it. */
static u32 umr_access_caps(struct umr_udev *ud)
{
	u32 access = MLX5_UMR_ACCESS_ALL;

	if (mlx5_umr_precheck_access(mlx5_umr_dev_caps(ud->dev),
				     MLX5_UMR_ACCESS_REMOTE_ATOMIC))
		access &= ~MLX5_UMR_ACCESS_REMOTE_ATOMIC;
	return access;
}

static int umr_cmd_info(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_info *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	struct umr_udev *ud = ctx->ud;
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(ud->dev);

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (cmd->__reserved || cmd->__reserved2)
		return -EINVAL;
	cmd->out_flags = umr_sig_info_flags(ud) | umr_crypto_info_flags(ud);
	cmd->out_max_entries = umr_max_entries(ud);
	cmd->out_max_interleaved_entries = cmd->out_max_entries - 1;
	cmd->out_max_inline_entries = caps->max_inline_entries;
	cmd->out_access = umr_access_caps(ud);
	cmd->out_fd_objects = atomic_read(&ctx->nobjs);
	cmd->out_fd_pinned_pages = atomic64_read(&ctx->pinned);
	/*
	 * Other users' activity only for the administrator: who opened the
	 * file (a user's file handed to a setuid program shows nothing) and
	 * who asks (root's file handed to a user shows nothing either).
	 */
	cmd->out_dev_objects = 0;
	cmd->out_dev_pinned_pages = 0;
	if (file_ns_capable(ucmd->filp, &init_user_ns, CAP_SYS_ADMIN) &&
	    capable(CAP_SYS_ADMIN)) {
		cmd->out_dev_objects = atomic_read(&ud->nobjs);
		cmd->out_dev_pinned_pages = atomic64_read(&ud->pinned);
	}
	memset(cmd->out_name, 0, sizeof(cmd->out_name));
	strscpy(cmd->out_name, mlx5_umr_dev_name(ud->dev),
		sizeof(cmd->out_name));
	cmd->out_max_batch = UMR_UAPI_MAX_BATCH;
	cmd->out_max_batch_bytes = UMR_UAPI_MAX_BATCH_BYTES;
	cmd->out_max_reg_pages = MLX5_UMR_IOC_MAX_REG_PAGES;
	cmd->out_max_fd_mkeys = MLX5_UMR_IOC_MAX_FD_MKEYS;
	cmd->out_max_inflight_bbs = MLX5_UMR_IOC_MAX_INFLIGHT_BBS;
	cmd->out_max_fd_xlt_bytes = MLX5_UMR_IOC_MAX_FD_XLT_BYTES;
	cmd->out_fd_xlt_bytes = atomic64_read(&ctx->xlt_bytes);
	cmd->out_nqueues = caps->nqueues;
	cmd->__reserved3 = 0;
	umr_crypto_info(ctx, cmd);
	return umr_ucmd_respond(ucmd);
}

union umr_ucmd_buffer {
	struct mlx5_umr_ioc_info info;
	struct mlx5_umr_ioc_reg_mr reg_mr;
	struct mlx5_umr_ioc_alloc_mkey alloc_mkey;
	struct mlx5_umr_ioc_configure configure;
	struct mlx5_umr_ioc_invalidate invalidate;
	struct mlx5_umr_ioc_destroy destroy;
	struct mlx5_umr_ioc_batch batch;
	struct mlx5_umr_ioc_set_pd set_pd;
	struct mlx5_umr_ioc_sig_check sig_check;
	struct mlx5_umr_ioc_sig_report sig_report;
	struct mlx5_umr_ioc_dek_create dek_create;
#ifdef MLX5_UMR_TESTING
	struct mlx5_umr_test_info test_info;
	struct mlx5_umr_test_xfer test_xfer;
#endif
};

/*
 * @prepare, optional, runs before the device lock is taken and does what
 * may fault on user memory (pinning, copying entries in): a fault that
 * blocks (userfaultfd, FUSE) then never holds up HCA removal or other
 * files. @release undoes what @execute did not take over.
 */
struct umr_ioctl_op {
	unsigned int size;
	unsigned int min_size;
	unsigned int ioctl_num;
	int (*execute)(struct umr_ucmd *ucmd);
	int (*prepare)(struct umr_ucmd *ucmd);
	void (*release)(struct umr_ucmd *ucmd);
};

/*
 * min_size is the first version of each structure (the header's
 * MLX5_UMR_IOC_*_SIZE_VER1, frozen): never change it.
 */
#define UMR_IOCTL_OP(_nr, _ioctl, _fn, _struct, _min)			\
	[(_nr) - MLX5_UMR_IOC_BASE] = {					\
		.size = sizeof(_struct),				\
		.min_size = _min,					\
		.ioctl_num = _ioctl,					\
		.execute = _fn,						\
	}

#define UMR_IOCTL_OP_PREP(_nr, _ioctl, _fn, _prep, _rel, _struct, _min)	\
	[(_nr) - MLX5_UMR_IOC_BASE] = {					\
		.size = sizeof(_struct),				\
		.min_size = _min,					\
		.ioctl_num = _ioctl,					\
		.execute = _fn,						\
		.prepare = _prep,					\
		.release = _rel,					\
	}

/* Where each first version ends: the fields it had. */
#define UMR_VER1_ENDS(_struct, _last, _min) \
	static_assert(offsetofend(struct _struct, _last) == (_min))
UMR_VER1_ENDS(mlx5_umr_ioc_info, out_name, MLX5_UMR_IOC_INFO_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_reg_mr, __reserved2,
	      MLX5_UMR_IOC_REG_MR_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_alloc_mkey, __reserved,
	      MLX5_UMR_IOC_ALLOC_MKEY_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_configure, out_length,
	      MLX5_UMR_IOC_CONFIGURE_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_invalidate, __reserved,
	      MLX5_UMR_IOC_INVALIDATE_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_destroy, __reserved,
	      MLX5_UMR_IOC_DESTROY_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_batch, out_failed, MLX5_UMR_IOC_BATCH_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_batch_req, out_key,
	      MLX5_UMR_IOC_BATCH_REQ_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_set_pd, __reserved, MLX5_UMR_IOC_SET_PD_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_set_pd, __reserved2, MLX5_UMR_IOC_SET_PD_SIZE_VERBS);
UMR_VER1_ENDS(mlx5_umr_ioc_sig_check, out_errors,
	      MLX5_UMR_IOC_SIG_CHECK_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_sig_report, __reserved,
	      MLX5_UMR_IOC_SIG_REPORT_SIZE_VER1);
UMR_VER1_ENDS(mlx5_umr_ioc_dek_create, __reserved,
	      MLX5_UMR_IOC_DEK_CREATE_SIZE_VER1);

static const struct umr_ioctl_op umr_ioctl_ops[] = {
	UMR_IOCTL_OP(MLX5_UMR_CMD_INFO, MLX5_UMR_IOCTL_INFO,
		     umr_cmd_info,
		     struct mlx5_umr_ioc_info, MLX5_UMR_IOC_INFO_SIZE_VER1),
	UMR_IOCTL_OP_PREP(MLX5_UMR_CMD_REG_MR, MLX5_UMR_IOCTL_REG_MR,
			  umr_cmd_reg_mr, umr_prep_reg_mr, umr_release_reg_mr,
			  struct mlx5_umr_ioc_reg_mr,
			  MLX5_UMR_IOC_REG_MR_SIZE_VER1),
	UMR_IOCTL_OP(MLX5_UMR_CMD_ALLOC_MKEY, MLX5_UMR_IOCTL_ALLOC_MKEY,
		     umr_cmd_alloc_mkey,
		     struct mlx5_umr_ioc_alloc_mkey,
		     MLX5_UMR_IOC_ALLOC_MKEY_SIZE_VER1),
	UMR_IOCTL_OP_PREP(MLX5_UMR_CMD_CONFIGURE, MLX5_UMR_IOCTL_CONFIGURE,
			  umr_cmd_configure, umr_prep_configure,
			  umr_release_configure,
			  struct mlx5_umr_ioc_configure,
			  MLX5_UMR_IOC_CONFIGURE_SIZE_VER1),
	UMR_IOCTL_OP(MLX5_UMR_CMD_INVALIDATE, MLX5_UMR_IOCTL_INVALIDATE,
		     umr_cmd_invalidate,
		     struct mlx5_umr_ioc_invalidate,
		     MLX5_UMR_IOC_INVALIDATE_SIZE_VER1),
	UMR_IOCTL_OP(MLX5_UMR_CMD_DESTROY, MLX5_UMR_IOCTL_DESTROY,
		     umr_cmd_destroy,
		     struct mlx5_umr_ioc_destroy,
		     MLX5_UMR_IOC_DESTROY_SIZE_VER1),
	UMR_IOCTL_OP_PREP(MLX5_UMR_CMD_BATCH, MLX5_UMR_IOCTL_BATCH,
			  umr_cmd_batch, umr_prep_batch, umr_release_batch,
			  struct mlx5_umr_ioc_batch, MLX5_UMR_IOC_BATCH_SIZE_VER1),
	UMR_IOCTL_OP(MLX5_UMR_CMD_SET_PD, MLX5_UMR_IOCTL_SET_PD,
		     umr_cmd_set_pd,
		     struct mlx5_umr_ioc_set_pd, MLX5_UMR_IOC_SET_PD_SIZE_VER1),
	UMR_IOCTL_OP(MLX5_UMR_CMD_SIG_CHECK, MLX5_UMR_IOCTL_SIG_CHECK,
		     umr_cmd_sig_check,
		     struct mlx5_umr_ioc_sig_check,
		     MLX5_UMR_IOC_SIG_CHECK_SIZE_VER1),
	UMR_IOCTL_OP(MLX5_UMR_CMD_SIG_REPORT, MLX5_UMR_IOCTL_SIG_REPORT,
		     umr_cmd_sig_report,
		     struct mlx5_umr_ioc_sig_report,
		     MLX5_UMR_IOC_SIG_REPORT_SIZE_VER1),
	UMR_IOCTL_OP_PREP(MLX5_UMR_CMD_DEK_CREATE, MLX5_UMR_IOCTL_DEK_CREATE,
			  umr_cmd_dek_create, umr_prep_dek_create,
			  umr_release_dek_create,
			  struct mlx5_umr_ioc_dek_create,
			  MLX5_UMR_IOC_DEK_CREATE_SIZE_VER1),
#ifdef MLX5_UMR_TESTING
	/* A production build has no such entries: ENOTTY. */
	UMR_IOCTL_OP(MLX5_UMR_CMD_TEST_INFO, MLX5_UMR_TEST_IOCTL_INFO,
		     umr_cmd_test_info,
		     struct mlx5_umr_test_info,
		     offsetofend(struct mlx5_umr_test_info, out_max_xfer)),
	UMR_IOCTL_OP(MLX5_UMR_CMD_TEST_XFER, MLX5_UMR_TEST_IOCTL_XFER,
		     umr_cmd_test_xfer,
		     struct mlx5_umr_test_xfer,
		     offsetofend(struct mlx5_umr_test_xfer, __reserved2)),
#endif
};

static long umr_fops_ioctl(struct file *filp, unsigned int cmd,
			   unsigned long arg)
{
	struct umr_uctx *ctx = filp->private_data;
	struct umr_udev *ud = ctx->ud;
	const struct umr_ioctl_op *op;
	union umr_ucmd_buffer buf;
	struct umr_ucmd ucmd = {
		.filp = filp,
		.ctx = ctx,
		.ubuf = (void __user *)arg,
		.cmd = &buf,
	};
	unsigned int nr = _IOC_NR(cmd);
	long ret;

	if (_IOC_TYPE(cmd) != MLX5_UMR_IOC_TYPE || nr < MLX5_UMR_IOC_BASE ||
	    nr - MLX5_UMR_IOC_BASE >= ARRAY_SIZE(umr_ioctl_ops))
		return -ENOTTY;
	/* No speculative load past the table (Spectre v1). */
	op = &umr_ioctl_ops[array_index_nospec(nr - MLX5_UMR_IOC_BASE,
					       ARRAY_SIZE(umr_ioctl_ops))];
	if (op->ioctl_num != cmd)
		return -ENOTTY;

	ret = get_user(ucmd.user_size, (u32 __user *)ucmd.ubuf);
	if (ret)
		return ret;
	if (ucmd.user_size < op->min_size)
		return -EINVAL;
	if (ucmd.user_size > UMR_UAPI_MAX_STRUCT)
		return -E2BIG;
	ucmd.size = op->size;
	ret = copy_struct_from_user(ucmd.cmd, op->size, ucmd.ubuf,
				    ucmd.user_size);
	if (ret)
		return ret;

	if (op->prepare) {
		ret = op->prepare(&ucmd);
		if (ret)
			goto out;
	}
	/* Waiting for HCA removal to finish can be abandoned. */
	ret = down_read_interruptible(&ud->rwsem);
	if (!ret) {
		ret = ud->dead ? -ENODEV : op->execute(&ucmd);
		up_read(&ud->rwsem);
	}
	if (ucmd.respond) {
		long err = umr_ucmd_copy_out(&ucmd);

		if (err && ucmd.created)
			umr_ucmd_undo_create(&ucmd);
		ret = err ?: ret;
	}
	if (op->release)
		op->release(&ucmd);
out:
	/* A firmware status is not an errno userspace knows (mlx5_umr.h). */
	if (ret == -EREMOTEIO)
		ret = -EIO;
	return ret;
}

/*
 * The ring of the files' queue: the size of the device queues', of which
 * the files had half before they got a queue of their own; the share
 * (MLX5_UMR_IOC_MAX_INFLIGHT_BBS, INFO's out_max_inflight_bbs) is
 * unchanged.
 */
#define UMR_UAPI_QUEUE_BBS	(2 * MLX5_UMR_IOC_MAX_INFLIGHT_BBS)

/**
 * umr_udev_queue() - the files' own UMR queue, created on first use
 * @ud: the device, not dead (the caller holds @ud->rwsem for read)
 *
 * A queue of the files' own (Documentation/service.rst, "Queues and
 * ordering"): an error CQE or a stall a user causes is recovered on it,
 * and the kernel's consumers, on other queues, do not see it. Created by
 * the first object that needs an mkey, so a device nobody opens costs no
 * QP; destroyed when the device goes away (umr_uapi_remove()).
 *
 * Return: the queue, or an ERR_PTR of mlx5_umr_queue_create().
 */
struct mlx5_umr_queue *umr_udev_queue(struct umr_udev *ud)
{
	/* pairs with the release below: a queue seen is set up */
	struct mlx5_umr_queue *q = smp_load_acquire(&ud->q);

	if (q)
		return q;
	mutex_lock(&ud->q_lock);
	q = ud->q;
	if (q)
		goto out;
	q = mlx5_umr_queue_create(ud->dev, -1, UMR_UAPI_QUEUE_BBS,
				  MLX5_UMR_COMP_IRQ);
	if (IS_ERR(q))
		goto out;
	/* publish only a queue set up: pairs with the acquire above */
	smp_store_release(&ud->q, q);
out:
	mutex_unlock(&ud->q_lock);
	return q;
}

static void umr_udev_release(struct kref *kref)
{
	struct umr_udev *ud = container_of(kref, struct umr_udev, kref);

	mutex_destroy(&ud->q_lock);
	mutex_destroy(&ud->lock);
	umr_udev_pd_destroy(ud);
	umr_udev_charges_destroy(ud);
	kfree(ud);
}

static int umr_fops_open(struct inode *inode, struct file *filp)
{
	struct umr_udev *ud = container_of(filp->private_data,
					   struct umr_udev, misc);
	struct umr_uctx *ctx;
	int ret;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	xa_init_flags(&ctx->objs, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	xa_init_flags(&ctx->keys, XA_FLAGS_ACCOUNT);
	ctx->ud = ud;

	umr_uctx_pd_init(ctx);

	/* no firmware command here: open() holds misc_mtx (uapi_pd.c) */
	mutex_lock(&ud->lock);
	ret = ud->dead ? -ENODEV : 0;
	if (!ret) {
		kref_get(&ud->kref);
		list_add_tail(&ctx->node, &ud->ctxs);
	}
	mutex_unlock(&ud->lock);
	if (ret) {
		mutex_destroy(&ctx->pd_lock);
		kfree(ctx);
		return ret;
	}

	filp->private_data = ctx;
	return nonseekable_open(inode, filp);
}

static int umr_fops_release(struct inode *inode, struct file *filp)
{
	struct umr_uctx *ctx = filp->private_data;
	struct umr_udev *ud = ctx->ud;

	down_read(&ud->rwsem);
	if (!ud->dead) {
		umr_uobj_destroy_all(ctx);
		/* its mkeys are gone: the PD is empty */
		umr_uctx_pd_release(ctx);
	}
	up_read(&ud->rwsem);

	mutex_lock(&ud->lock);
	list_del(&ctx->node);
	mutex_unlock(&ud->lock);

	xa_destroy(&ctx->objs);
	xa_destroy(&ctx->keys);
	mutex_destroy(&ctx->pd_lock);
	kfree(ctx);
	kref_put(&ud->kref, umr_udev_release);
	return 0;
}

static const struct file_operations umr_fops = {
	.owner = THIS_MODULE,
	.open = umr_fops_open,
	.release = umr_fops_release,
	.unlocked_ioctl = umr_fops_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static int umr_uapi_add(struct mlx5_umr_dev *dev)
{
	struct umr_udev *ud;
	int ret;

	ud = kzalloc(sizeof(*ud), GFP_KERNEL);
	if (!ud)
		return -ENOMEM;
	ud->dev = dev;
	mutex_init(&ud->q_lock);
	kref_init(&ud->kref);
	init_rwsem(&ud->rwsem);
	mutex_init(&ud->lock);
	INIT_LIST_HEAD(&ud->ctxs);
	spin_lock_init(&ud->share_lock);
	ud->share = MLX5_UMR_IOC_MAX_INFLIGHT_BBS;
	INIT_LIST_HEAD(&ud->share_waiters);
	umr_udev_pd_init(ud);
	umr_udev_charges_init(ud);
	snprintf(ud->name, sizeof(ud->name), "mlx5_umr_%s",
		 mlx5_umr_dev_name(dev));
	snprintf(ud->nodename, sizeof(ud->nodename), "mlx5_umr/%s",
		 mlx5_umr_dev_name(dev));
	ud->misc.minor = MISC_DYNAMIC_MINOR;
	ud->misc.name = ud->name;
	ud->misc.nodename = ud->nodename;
	ud->misc.fops = &umr_fops;

	ret = misc_register(&ud->misc);
	if (ret) {
		kref_put(&ud->kref, umr_udev_release);
		return ret;
	}
	mutex_lock(&umr_udevs_lock);
	list_add_tail(&ud->node, &umr_udevs);
	mutex_unlock(&umr_udevs_lock);
	return 0;
}

/*
 * The HCA is going away: no new opens, wait for running ioctls, destroy
 * every object of every open file. Those files only answer ENODEV until
 * they are closed; the last close frees @ud.
 */
static void umr_uapi_remove(struct mlx5_umr_dev *dev)
{
	struct umr_udev *ud = NULL, *iter;
	struct umr_uctx *ctx;

	mutex_lock(&umr_udevs_lock);
	list_for_each_entry(iter, &umr_udevs, node) {
		if (iter->dev == dev) {
			ud = iter;
			list_del(&ud->node);
			break;
		}
	}
	mutex_unlock(&umr_udevs_lock);
	if (!ud)
		return;

	misc_deregister(&ud->misc);
	down_write(&ud->rwsem);
	mutex_lock(&ud->lock);
	list_for_each_entry(ctx, &ud->ctxs, node) {
		umr_uobj_destroy_all(ctx);
		/* every open file has its PD until here (release skips it) */
		umr_uctx_pd_release(ctx);
	}
	ud->dead = true;
	mutex_unlock(&ud->lock);
	up_write(&ud->rwsem);
	/* no mkey is left on it: every file's objects are gone */
	WARN_ON(mlx5_umr_queue_destroy(ud->q));
	kref_put(&ud->kref, umr_udev_release);
}

static struct mlx5_umr_client umr_uapi_client = {
	.name = "uapi",
	.add = umr_uapi_add,
	.remove = umr_uapi_remove,
};

/**
 * mlx5_umr_uapi_init() - create the character devices
 *
 * Context: the module init of mlx5_umr.ko. The service itself needs none;
 * the character device is a client like any other. Should the service grow
 * an init of its own, it calls this one and the module_init() below goes.
 *
 * Return: 0 or -errno.
 */
int mlx5_umr_uapi_init(void)
{
	return mlx5_umr_register_client(&umr_uapi_client);
}

/**
 * mlx5_umr_uapi_exit() - remove the character devices
 *
 * Called by the service's module exit. Files still open keep answering
 * ENODEV; the module cannot be unloaded while they are.
 */
void mlx5_umr_uapi_exit(void)
{
	mlx5_umr_unregister_client(&umr_uapi_client);
}

module_init(mlx5_umr_uapi_init);
module_exit(mlx5_umr_uapi_exit);
