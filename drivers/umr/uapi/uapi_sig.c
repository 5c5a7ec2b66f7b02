// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: block signature on the character device: signature mkeys,
 * the signature of a CONFIGURE, MLX5_UMR_IOCTL_SIG_CHECK and
 * MLX5_UMR_IOCTL_SIG_REPORT.
 *
 * The uapi's own rules are checked here (flags, reserved fields, fields of
 * the other signature type, which mkey); the attributes themselves are
 * checked by the service's signature rules (rules.h) before anything
 * is posted, so userspace gets the errno a kernel ULP gets for the same
 * attributes. See uapi/linux/mlx5_umr.h and Documentation/uapi.rst.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/mlx5/cq.h>
#include <linux/mlx5/device.h>
#include <linux/string.h>

#include "uapi_priv.h"
#include "../umr_uapi.h"

#define UMR_SIG_CONF_FLAGS	(MLX5_UMR_IOC_SIG_SET | MLX5_UMR_IOC_SIG_RESET)
#define UMR_SIG_DIF_FLAGS	(MLX5_UMR_IOC_SIG_T10DIF_REF_REMAP | \
				 MLX5_UMR_IOC_SIG_T10DIF_APP_ESCAPE | \
				 MLX5_UMR_IOC_SIG_T10DIF_APP_REF_ESCAPE)

/* The uapi passes these values through unchanged (both are rdma-core's). */
#define UMR_SIG_SAME(a, b)	static_assert((int)(a) == (int)(b))
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_TYPE_NONE,
	     MLX5_UMR_SIG_NONE);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_TYPE_T10DIF,
	     MLX5_UMR_SIG_T10DIF);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_TYPE_CRC,
	     MLX5_UMR_SIG_CRC);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_T10DIF_CSUM,
	     MLX5_UMR_SIG_T10DIF_CSUM);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_T10DIF_REF_REMAP,
	     MLX5_UMR_SIG_T10DIF_REF_REMAP);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_T10DIF_APP_ESCAPE,
	     MLX5_UMR_SIG_T10DIF_APP_ESCAPE);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_T10DIF_APP_REF_ESCAPE,
	     MLX5_UMR_SIG_T10DIF_APP_REF_ESCAPE);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_CRC64_XP10,
	     MLX5_UMR_SIG_CRC64_XP10);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_BLOCK_4160,
	     MLX5_UMR_SIG_BLOCK_4160);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_COPY_MASK,
	     MLX5_UMR_SIG_FLAG_COPY_MASK);
UMR_SIG_SAME(MLX5_UMR_IOC_SIG_ERR_APPTAG,
	     MLX5_UMR_SIG_ERR_APPTAG);
static_assert(sizeof(struct mlx5_sig_err_cqe) ==
	      sizeof_field(struct mlx5_umr_ioc_sig_report, cqe));

/**
 * umr_sig_info_flags() - MLX5_UMR_IOCTL_INFO out_flags of the signature
 * @ud: the device
 *
 * Return: MLX5_UMR_IOC_INFO_SIG when the HCA offers signature mkeys.
 */
u32 umr_sig_info_flags(struct umr_udev *ud)
{
	return mlx5_umr_dev_caps(ud->dev)->sig ? MLX5_UMR_IOC_INFO_SIG : 0;
}

/**
 * umr_sig_mkey_flags() - the service's flags of MLX5_UMR_IOCTL_ALLOC_MKEY
 * @ud: the device
 * @ioc_flags: MLX5_UMR_IOC_MKEY_* from userspace, already known bits only
 * @flags: MLX5_UMR_MKEY_* to add to
 *
 * Return: 0, or -EOPNOTSUPP for a signature mkey on an HCA without
 * signature offload.
 */
int umr_sig_mkey_flags(struct umr_udev *ud, u32 ioc_flags, u32 *flags)
{
	if (!(ioc_flags & MLX5_UMR_IOC_MKEY_SIGNATURE))
		return 0;
	if (!mlx5_umr_dev_caps(ud->dev)->sig)
		return -EOPNOTSUPP;
	*flags |= MLX5_UMR_MKEY_SIGNATURE;
	return 0;
}

static bool umr_sig_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

/*
 * One domain, from the uapi's flat fields: those of the other type, and
 * all of a domain without signature, must be zero.
 */
static int umr_sig_domain(const struct mlx5_umr_ioc_sig_domain *u,
			  struct mlx5_umr_sig_domain *d)
{
	if (u->__reserved || u->__reserved2)
		return -EINVAL;
	d->sig_type = u->sig_type;
	d->block_size = u->block_size;
	switch (u->sig_type) {
	case MLX5_UMR_IOC_SIG_TYPE_NONE:
		return umr_sig_zero(u, sizeof(*u)) ? 0 : -EINVAL;
	case MLX5_UMR_IOC_SIG_TYPE_T10DIF:
		if (u->dif_flags & ~UMR_SIG_DIF_FLAGS)
			return -EOPNOTSUPP;
		if (u->crc_type || u->crc_seed)
			return -EINVAL;
		d->dif.bg_type = u->bg_type;
		d->dif.bg = u->bg;
		d->dif.app_tag = u->app_tag;
		d->dif.ref_tag = u->ref_tag;
		d->dif.flags = u->dif_flags;
		return 0;
	case MLX5_UMR_IOC_SIG_TYPE_CRC:
		if (u->bg_type || u->bg || u->app_tag || u->ref_tag ||
		    u->dif_flags)
			return -EINVAL;
		d->crc.type = u->crc_type;
		d->crc.seed = u->crc_seed;
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * umr_sig_configure() - the signature part of a configure request
 * @cmd: the request (MLX5_UMR_IOCTL_CONFIGURE; a batch request's has no
 *	signature and no flags)
 * @r: the request, gathered up to its layout
 *
 * Translates @cmd->sig into @r->sig and sets the request's signature
 * flag. The attributes themselves are checked by the service with the
 * rest of the request (mlx5_umr_validate()), before it is posted.
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP (uapi/linux/mlx5_umr.h).
 */
int umr_sig_configure(const struct mlx5_umr_ioc_configure *cmd,
		      struct umr_mreq *r)
{
	const struct mlx5_umr_ioc_sig_block *u = &cmd->sig;
	u32 flags = cmd->flags & UMR_SIG_CONF_FLAGS;
	struct mlx5_umr_sig_attr *a = &r->sig;
	int ret;

	if (!(flags & MLX5_UMR_IOC_SIG_SET))
		return umr_sig_zero(u, sizeof(*u)) ? 0 : -EINVAL;
	if (flags == UMR_SIG_CONF_FLAGS)
		return -EINVAL;
	if (u->flags & ~MLX5_UMR_IOC_SIG_COPY_MASK)
		return -EOPNOTSUPP;
	if (u->__reserved ||
	    (u->copy_mask && !(u->flags & MLX5_UMR_IOC_SIG_COPY_MASK)))
		return -EINVAL;
	ret = umr_sig_domain(&u->mem, &a->mem) ?:
	      umr_sig_domain(&u->wire, &a->wire);
	if (ret)
		return ret;
	a->flags = u->flags;
	a->check_mask = u->check_mask;
	a->copy_mask = u->copy_mask;
	return 0;
}

/**
 * umr_sig_configure_mkey() - the signature flags of a configure request,
 *	once its mkey is known
 * @cmd: the request
 * @r: the request, its mkey referenced
 *
 * Return: 0, or -EINVAL for a signature flag on an mkey without signature.
 */
int umr_sig_configure_mkey(const struct mlx5_umr_ioc_configure *cmd,
			   struct umr_mreq *r)
{
	u32 flags = cmd->flags & UMR_SIG_CONF_FLAGS;

	if (!flags)
		return 0;
	if (!(r->obj->mkey->flags & MLX5_UMR_MKEY_SIGNATURE))
		return -EINVAL;
	if (flags & MLX5_UMR_IOC_SIG_RESET) {
		r->wr.flags |= MLX5_UMR_WR_RESET_SIG;
	} else {
		r->wr.flags |= MLX5_UMR_WR_SET_SIG;
		r->wr.sig = &r->sig;
	}
	return 0;
}

/* A signature mkey of this file by handle, referenced. */
static struct umr_uobj *umr_sig_get(struct umr_uctx *ctx, u32 handle)
{
	struct umr_uobj *obj = umr_uobj_get(ctx, handle, UMR_UOBJ_MKEY);

	if (IS_ERR(obj))
		return obj;
	if (!(obj->mkey->flags & MLX5_UMR_MKEY_SIGNATURE)) {
		umr_uobj_put(obj);
		return ERR_PTR(-EINVAL);
	}
	return obj;
}

/*
 * Read and clear the status; the re-arm it may post takes its blocks of
 * the files' share of the send queue, and waits behind a configure of the
 * mkey. Every wait ends with a signal, before anything is posted.
 */
static int umr_sig_check_mkey(struct umr_uctx *ctx, struct umr_umkey *mk,
			      struct mlx5_umr_sig_status *st)
{
	u16 bbs = mlx5_umr_sig_rearm_bbs(mk->obj.mkey);
	int ret;

	if (mutex_lock_interruptible(&mk->lock))
		return -EINTR;
	if (mk->claim) {
		ret = -EBUSY;
		goto out_unlock;
	}
	ret = umr_share_take(ctx->ud, bbs);
	if (ret)
		goto out_unlock;
	ret = mlx5_umr_sig_check_interruptible(mk->obj.mkey, st);
	umr_share_put(ctx->ud, bbs);
out_unlock:
	mutex_unlock(&mk->lock);
	return ret;
}

int umr_cmd_sig_check(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_sig_check *cmd = ucmd->cmd;
	struct mlx5_umr_sig_status st = {};
	struct umr_uobj *obj;
	int ret;

	if (cmd->flags)
		return -EOPNOTSUPP;
	obj = umr_sig_get(ucmd->ctx, cmd->handle);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	ret = umr_sig_check_mkey(ucmd->ctx,
				 container_of(obj, struct umr_umkey, obj), &st);
	umr_uobj_put(obj);
	if (ret)
		return ret;
	cmd->out_err_type = st.err_type;
	cmd->out_expected = st.expected;
	cmd->out_actual = st.actual;
	cmd->out_offset = st.offset;
	cmd->out_key = st.key;
	cmd->out_errors = st.errors;
	return umr_ucmd_respond(ucmd);
}

/**
 * umr_sig_report_cqe() - hand the service a SIG_ERR CQE for an mkey of
 *	this file
 * @ctx: the file
 * @cqe: the CQE, as the CQ holds it
 * @handle: set to the handle of the mkey it names
 *
 * The service looks the mkey up device-wide; the file may only report
 * errors of its own mkeys, under their current key.
 *
 * Return: 0, -EINVAL (not a SIG_ERR CQE, or an mkey without signature) or
 * -ENOENT (not an indirect mkey of this file).
 */
int umr_sig_report_cqe(struct umr_uctx *ctx,
		       const struct mlx5_sig_err_cqe *cqe, u32 *handle)
{
	struct umr_uobj *obj;
	int ret;

	if (cqe->op_own >> 4 != MLX5_CQE_SIG_ERR)
		return -EINVAL;
	obj = umr_uobj_get_key(ctx, be32_to_cpu(cqe->mkey), UMR_UOBJ_MKEY);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	if (!(obj->mkey->flags & MLX5_UMR_MKEY_SIGNATURE)) {
		ret = -EINVAL;
		goto out_put;
	}
	ret = mlx5_umr_sig_report(ctx->ud->dev, cqe);
	*handle = obj->handle;
out_put:
	umr_uobj_put(obj);
	return ret;
}

int umr_cmd_sig_report(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_sig_report *cmd = ucmd->cmd;
	int ret;

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (cmd->__reserved)
		return -EINVAL;
	ret = umr_sig_report_cqe(ucmd->ctx,
				 (const struct mlx5_sig_err_cqe *)cmd->cqe,
				 &cmd->out_handle);
	return ret ?: umr_ucmd_respond(ucmd);
}
