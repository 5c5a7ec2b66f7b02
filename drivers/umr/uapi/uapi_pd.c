// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr uapi: the protection domain of an open file.
 *
 * Each file gets its own PD when its first object needs one and creates
 * every mkey in it, so the NIC itself keeps files apart.
 * MLX5_UMR_IOCTL_SET_PD puts the file's mkeys in the caller's own verbs PD
 * instead, so that its ibv_qp can use them. With MLX5_UMR_IOC_SET_PD_VERBS
 * the PD is proven to be the caller's (drivers/umr/pd.c: its verbs command
 * file; the backend: that file's PD under the handle the caller gave) and
 * held, with its command file, until the file is closed or the HCA goes.
 * A bare number proves nothing: it is refused unless the administrator
 * allows it (unverified_set_pd). Either way, the file's key lookup lets a
 * layout name only memory the same file registered, so an mkey in any PD
 * reaches only the caller's own memory (Documentation/uapi.rst, "Keys in
 * the caller's PD").
 *
 * What must never happen is an object in another file's own PD: that
 * file's QPs do not exist, but its close could not free the PD. A file's
 * own PD is allocated and entered in ud->own_pds under ud->pd_rwsem held
 * for write; SET_PD checks the number and creates its probe mkey, and
 * every creation in a caller's PD checks it again and creates the object,
 * under the same lock held for read. A number is therefore either a
 * file's own PD, known as such, or not one for the whole of a check and
 * the creation that follows it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/err.h>
#include <linux/file.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "uapi_priv.h"
#include "../umr_uapi.h"

static bool unverified_set_pd;
module_param(unverified_set_pd, bool, 0644);
MODULE_PARM_DESC(unverified_set_pd,
		 "MLX5_UMR_IOCTL_SET_PD accepts a bare PD number, which a user may take from another user or a kernel ULP (default: no, only a verified verbs PD)");

/**
 * umr_udev_pd_init() - the device's record of the files' own PDs
 * @ud: the device
 */
void umr_udev_pd_init(struct umr_udev *ud)
{
	init_rwsem(&ud->pd_rwsem);
	xa_init(&ud->own_pds);
}

/**
 * umr_udev_pd_destroy() - forget the record (the last file is closed)
 * @ud: the device
 */
void umr_udev_pd_destroy(struct umr_udev *ud)
{
	WARN_ON(!xa_empty(&ud->own_pds));
	xa_destroy(&ud->own_pds);
}

/**
 * umr_uctx_pd_init() - a new file, without a PD yet
 * @ctx: the file
 *
 * Opening the device runs no firmware command (open() holds the misc
 * device lock of the whole system): the PD comes with the first object.
 */
void umr_uctx_pd_init(struct umr_uctx *ctx)
{
	mutex_init(&ctx->pd_lock);
}

/* Free an own PD and forget it; the caller holds nothing of uapi_pd.c. */
static void umr_own_pd_free(struct umr_udev *ud, u32 pdn)
{
	down_write(&ud->pd_rwsem);
	mlx5_umr_pd_free(ud->dev, pdn);
	xa_erase(&ud->own_pds, pdn);
	up_write(&ud->pd_rwsem);
}

/* Allocate an own PD, entered in @ud->own_pds before anyone sees it. */
static int umr_own_pd_alloc(struct umr_udev *ud, u32 *pdn)
{
	int ret;

	down_write(&ud->pd_rwsem);
	ret = mlx5_umr_pd_alloc(ud->dev, pdn);
	if (ret)
		goto out;
	ret = xa_insert(&ud->own_pds, *pdn, xa_mk_value(0), GFP_KERNEL);
	if (ret)
		mlx5_umr_pd_free(ud->dev, *pdn);
out:
	up_write(&ud->pd_rwsem);
	return ret;
}

/**
 * umr_uctx_pd_release() - free the file's own PD, after its objects
 * @ctx: the file
 *
 * The caller's PD (MLX5_UMR_IOCTL_SET_PD) is the caller's to free: a
 * verified one is released, then its command file (whose release would
 * otherwise find the PD held). The service keeps an own PD in which an
 * mkey it could not destroy remains.
 *
 * Context: process context; ud->rwsem held, the file's objects destroyed,
 * the HCA still registered (file release, or the HCA's removal).
 */
void umr_uctx_pd_release(struct umr_uctx *ctx)
{
	if (ctx->pd_owned)
		umr_own_pd_free(ctx->ud, ctx->pdn);
	ctx->pd_owned = false;
	if (ctx->pd_ibpd)
		mlx5_umr_pd_put_user(ctx->ud->dev, ctx->pd_ibpd);
	ctx->pd_ibpd = NULL;
	if (ctx->pd_verbs)
		fput(ctx->pd_verbs);
	ctx->pd_verbs = NULL;
}

/**
 * umr_uctx_pd_get() - the PD of an object the file is about to create
 * @ctx: the file
 * @pdn: set to the PD number
 *
 * Allocates the file's own PD if it has none yet. For the caller's PD
 * (MLX5_UMR_IOCTL_SET_PD) it checks that the number did not become
 * another file's own PD since (its owner freed it and a file got the
 * number), and holds ud->pd_rwsem for read until umr_uctx_pd_put(), so
 * that it cannot become one before the object exists. The PD does not
 * change until umr_uctx_pd_put().
 *
 * Context: process context, may sleep; ud->rwsem held for read.
 * Return: 0, -EACCES, or an error of the PD allocation.
 */
int umr_uctx_pd_get(struct umr_uctx *ctx, u32 *pdn)
{
	struct umr_udev *ud = ctx->ud;
	bool raced;
	u32 own;
	int ret;

	for (;;) {
		mutex_lock(&ctx->pd_lock);
		if (ctx->pd_borrowed || ctx->pd_owned) {
			ctx->pd_users++;
			*pdn = ctx->pdn;
			mutex_unlock(&ctx->pd_lock);
			break;
		}
		mutex_unlock(&ctx->pd_lock);
		/* outside pd_lock: SET_PD takes pd_rwsem, then pd_lock */
		ret = umr_own_pd_alloc(ud, &own);
		if (ret)
			return ret;
		mutex_lock(&ctx->pd_lock);
		raced = ctx->pd_borrowed || ctx->pd_owned;
		if (!raced) {
			ctx->pdn = own;
			ctx->pd_owned = true;
		}
		mutex_unlock(&ctx->pd_lock);
		/* another thread of the file was first */
		if (raced)
			umr_own_pd_free(ud, own);
	}
	if (!ctx->pd_borrowed)
		return 0;
	down_read(&ud->pd_rwsem);
	if (xa_load(&ud->own_pds, *pdn)) {
		umr_uctx_pd_put(ctx, false);
		return -EACCES;
	}
	return 0;
}

/**
 * umr_uctx_pd_put() - the creation that umr_uctx_pd_get() began is over
 * @ctx: the file
 * @created: an object now exists in the PD: it never changes again
 *	(MLX5_UMR_IOCTL_SET_PD answers EBUSY), so that a layout never names
 *	a key of another PD than its mkey's
 *
 * Context: process context, after a successful umr_uctx_pd_get().
 */
void umr_uctx_pd_put(struct umr_uctx *ctx, bool created)
{
	bool borrowed;

	mutex_lock(&ctx->pd_lock);
	/* stable while pd_users is not 0: SET_PD answers EBUSY */
	borrowed = ctx->pd_borrowed;
	ctx->pd_frozen |= created;
	ctx->pd_users--;
	mutex_unlock(&ctx->pd_lock);
	if (borrowed)
		up_read(&ctx->ud->pd_rwsem);
}

/*
 * Make @pdn the file's PD: the caller's, held through @verbs and @ibpd
 * (both NULL for an unverified number), which the file then owns
 * (*@taken). The PD must exist on the HCA: a one-entry mkey is created in
 * it and destroyed (ENOENT when the HCA refuses the PD). The file's own
 * PD, if it has one yet (an earlier creation failed), is empty and freed;
 * an earlier caller's PD is released.
 */
static int umr_set_pd_install(struct umr_uctx *ctx, u32 pdn,
			      struct file *verbs, struct ib_pd *ibpd,
			      bool *taken)
{
	struct umr_udev *ud = ctx->ud;
	struct ib_pd *old_ibpd = NULL;
	struct file *old_verbs = NULL;
	struct mlx5_umr_mkey *probe;
	struct mlx5_umr_queue *q;
	bool had_own = false;
	u32 own = 0;
	int ret;

	*taken = false;
	/* the service's PD, whichever way the number came */
	if (pdn == mlx5_umr_dev_caps(ud->dev)->pdn)
		return -EACCES;
	/* from the check to the probe, no file's own PD comes or goes */
	down_read(&ud->pd_rwsem);
	ret = -EACCES;
	if (xa_load(&ud->own_pds, pdn))
		goto out_rwsem;
	mutex_lock(&ctx->pd_lock);
	ret = -EBUSY;
	if (ctx->pd_frozen || ctx->pd_users)
		goto out;
	if (ctx->pd_borrowed && ctx->pdn == pdn && ctx->pd_ibpd == ibpd) {
		ret = 0;
		goto out;
	}
	q = umr_udev_queue(ud);
	if (IS_ERR(q)) {
		ret = PTR_ERR(q);
		goto out;
	}
	probe = mlx5_umr_uapi_alloc_mkey(q, 1, 0, false, pdn, false);
	if (IS_ERR_OR_NULL(probe)) {
		ret = probe ? PTR_ERR(probe) : -ENOMEM;
		/* the HCA's status for an unknown PD */
		if (ret == -EREMOTEIO)
			ret = -ENOENT;
		goto out;
	}
	/* never configured: nothing to keep should its destroy fail */
	mlx5_umr_free_mkey(probe);
	had_own = ctx->pd_owned;
	own = ctx->pdn;
	old_ibpd = ctx->pd_ibpd;
	old_verbs = ctx->pd_verbs;
	ctx->pd_owned = false;
	ctx->pdn = pdn;
	ctx->pd_borrowed = true;
	ctx->pd_ibpd = ibpd;
	ctx->pd_verbs = verbs;
	*taken = true;
	ret = 0;
out:
	mutex_unlock(&ctx->pd_lock);
out_rwsem:
	up_read(&ud->pd_rwsem);
	if (had_own)
		umr_own_pd_free(ud, own);
	if (old_ibpd)
		mlx5_umr_pd_put_user(ud->dev, old_ibpd);
	if (old_verbs)
		fput(old_verbs);
	return ret;
}

/* MLX5_UMR_IOC_SET_PD_VERBS: the PD of the caller's verbs command file */
static int umr_set_pd_verbs(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_set_pd *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	struct ib_pd *ibpd;
	struct file *verbs;
	bool taken;
	u32 pdn;
	int ret;

	if (ucmd->user_size < MLX5_UMR_IOC_SET_PD_SIZE_VERBS || cmd->pdn)
		return -EINVAL;
	/* a negative fd is no open file either */
	verbs = fget((unsigned int)cmd->cmd_fd);
	if (!verbs)
		return -EBADF;
	ret = mlx5_umr_pd_get_user(ctx->ud->dev, verbs, cmd->pd_handle,
				   cmd->pd_id, &ibpd, &pdn);
	if (ret)
		goto out_fput;
	ret = umr_set_pd_install(ctx, pdn, verbs, ibpd, &taken);
	if (taken)
		return 0;
	mlx5_umr_pd_put_user(ctx->ud->dev, ibpd);
out_fput:
	fput(verbs);
	return ret;
}

/**
 * umr_cmd_set_pd() - MLX5_UMR_IOCTL_SET_PD
 * @ucmd: the ioctl
 *
 * A verified verbs PD (MLX5_UMR_IOC_SET_PD_VERBS), or a bare number when
 * the module parameter unverified_set_pd allows it.
 *
 * Context: process context, ud->rwsem held for read.
 * Return: 0 or -errno.
 */
int umr_cmd_set_pd(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_set_pd *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	bool taken;

	if (cmd->flags & ~MLX5_UMR_IOC_SET_PD_VERBS)
		return -EOPNOTSUPP;
	if (cmd->__reserved || cmd->__reserved2)
		return -EINVAL;
	if (cmd->flags & MLX5_UMR_IOC_SET_PD_VERBS)
		return umr_set_pd_verbs(ucmd);
	if (cmd->cmd_fd || cmd->pd_handle || cmd->pd_id || !cmd->pdn ||
	    cmd->pdn > MLX5_UMR_PDN_MAX)
		return -EINVAL;
	if (!READ_ONCE(unverified_set_pd))
		return -EPERM;
	return umr_set_pd_install(ctx, cmd->pdn, NULL, NULL, &taken);
}
