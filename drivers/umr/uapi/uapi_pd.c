// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr uapi: the protection domain of an open file.
 *
 * Each file gets its own PD at open and creates every mkey in it, so the
 * NIC itself keeps files apart. MLX5_UMR_IOCTL_SET_PD puts the file's
 * mkeys in the caller's own verbs PD instead, so that its ibv_qp can use
 * them. The number is not proven to be the caller's (no exported kernel
 * interface maps a uverbs PD handle to the HCA's PD): safety comes from the
 * file's key lookup, which lets a layout name only memory the same file
 * registered, so an mkey in any PD reaches only the caller's own memory
 * (Documentation/uapi.rst, "Keys in the caller's PD").
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/mutex.h>
#include <linux/err.h>

#include "uapi_priv.h"

/**
 * umr_uctx_pd_init() - give a new file its own PD
 * @ctx: the file, not yet listed
 *
 * Context: process context, ud->rwsem held for read.
 * Return: 0 or -errno.
 */
int umr_uctx_pd_init(struct umr_uctx *ctx)
{
	mutex_init(&ctx->pd_lock);
	return mlx5_umr_pd_alloc(ctx->ud->dev, &ctx->pdn);
}

/**
 * umr_uctx_pd_release() - free the file's own PD, after its objects
 * @ctx: the file
 *
 * The caller's PD (MLX5_UMR_IOCTL_SET_PD) is the caller's to free. The
 * service keeps a PD in which an mkey it could not destroy remains.
 *
 * Context: process context; ud->rwsem held, the file's objects destroyed.
 */
void umr_uctx_pd_release(struct umr_uctx *ctx)
{
	if (!ctx->pd_borrowed)
		mlx5_umr_pd_free(ctx->ud->dev, ctx->pdn);
}

/**
 * umr_uctx_pdn() - the PD of an object the file creates now
 * @ctx: the file
 *
 * From the first call on the file's PD no longer changes
 * (MLX5_UMR_IOCTL_SET_PD then answers EBUSY): every object of a file is in
 * one PD, so a layout never names a key of another PD than its mkey's.
 *
 * Context: process context, may sleep.
 * Return: the PD number.
 */
u32 umr_uctx_pdn(struct umr_uctx *ctx)
{
	u32 pdn;

	mutex_lock(&ctx->pd_lock);
	ctx->pd_frozen = true;
	pdn = ctx->pdn;
	mutex_unlock(&ctx->pd_lock);
	return pdn;
}

/* The service's own PD, or another open file's own PD. */
static bool umr_pd_is_service(struct umr_uctx *ctx, u32 pdn)
{
	struct umr_udev *ud = ctx->ud;
	struct umr_uctx *c;
	bool found;

	if (pdn == mlx5_umr_dev_caps(ud->dev)->pdn)
		return true;
	found = false;
	mutex_lock(&ud->lock);
	list_for_each_entry(c, &ud->ctxs, node) {
		if (c == ctx)
			continue;
		mutex_lock(&c->pd_lock);
		found = !c->pd_borrowed && c->pdn == pdn;
		mutex_unlock(&c->pd_lock);
		if (found)
			break;
	}
	mutex_unlock(&ud->lock);
	return found;
}

/**
 * umr_cmd_set_pd() - MLX5_UMR_IOCTL_SET_PD
 * @ucmd: the ioctl
 *
 * The PD must exist on the HCA: a one-entry mkey is created in it and
 * destroyed (ENOENT when the HCA refuses the PD). The file's own PD,
 * empty, is freed.
 *
 * Context: process context, ud->rwsem held for read.
 * Return: 0 or -errno.
 */
int umr_cmd_set_pd(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_set_pd *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	struct mlx5_umr_dev *dev = ctx->ud->dev;
	struct mlx5_umr_mkey *probe;
	u32 own;
	int ret;

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (cmd->__reserved || !cmd->pdn || cmd->pdn > MLX5_UMR_PDN_MAX)
		return -EINVAL;
	if (umr_pd_is_service(ctx, cmd->pdn))
		return -EACCES;

	mutex_lock(&ctx->pd_lock);
	ret = -EBUSY;
	if (ctx->pd_frozen)
		goto out;
	if (ctx->pdn == cmd->pdn) {
		ret = ctx->pd_borrowed ? 0 : -EACCES;
		goto out;
	}
	probe = mlx5_umr_alloc_mkey_pd(dev, 1, 0, cmd->pdn);
	if (IS_ERR_OR_NULL(probe)) {
		ret = probe ? PTR_ERR(probe) : -ENOMEM;
		/* the HCA's status for an unknown PD */
		if (ret == -EREMOTEIO)
			ret = -ENOENT;
		goto out;
	}
	/* never configured: nothing to keep should its destroy fail */
	mlx5_umr_free_mkey(probe);
	own = ctx->pdn;
	ctx->pdn = cmd->pdn;
	if (!ctx->pd_borrowed)
		mlx5_umr_pd_free(dev, own);
	ctx->pd_borrowed = true;
	ret = 0;
out:
	mutex_unlock(&ctx->pd_lock);
	return ret;
}
