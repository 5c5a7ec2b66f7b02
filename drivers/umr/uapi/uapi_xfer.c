// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the test ioctls (uapi_testing.h), built only with
 * MLX5_UMR_TESTING: MLX5_UMR_TEST_IOCTL_XFER is the data path of fake HCAs.
 *
 * A fake HCA can perform an RDMA WRITE or READ through a key as a remote
 * peer would (mlx5_umr_test_xfer()): this is how userspace
 * tests prove where the bytes of a layout land. Even so, only keys of the
 * caller's own file are accepted, so the test path reaches no memory the
 * caller did not register itself.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/mlx5_umr_testing.h>

#include "uapi_priv.h"

int umr_cmd_test_info(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_test_info *cmd = ucmd->cmd;
	bool fake = mlx5_umr_dev_is_fake(ucmd->ctx->ud->dev);

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (cmd->__reserved)
		return -EINVAL;
	cmd->out_flags = fake ? MLX5_UMR_TEST_INFO_FAKE : 0;
	cmd->out_max_xfer = fake ? UMR_UAPI_MAX_XFER : 0;
	return umr_ucmd_respond(ucmd);
}

/*
 * A failed signature check: the fake played the accessing QP and gives
 * its SIG_ERR CQE, which this path hands to the service as that QP's
 * consumer would, or to the caller.
 */
static int umr_xfer_sig_err(struct umr_uctx *ctx,
			    struct mlx5_umr_test_xfer *cmd,
			    const struct mlx5_umr_test_xfer_out *out)
{
	u32 handle;

	cmd->out_flags = 0;
	memset(cmd->out_sig_cqe, 0, sizeof(cmd->out_sig_cqe));
	if (!out->sig_err)
		return 0;
	cmd->out_flags = MLX5_UMR_TEST_XFER_OUT_SIG_ERR;
	if (cmd->flags & MLX5_UMR_TEST_XFER_SIG_CQE) {
		BUILD_BUG_ON(sizeof(cmd->out_sig_cqe) != sizeof(out->cqe));
		memcpy(cmd->out_sig_cqe, &out->cqe, sizeof(out->cqe));
		return 0;
	}
	return umr_sig_report_cqe(ctx, &out->cqe, &handle);
}

int umr_cmd_test_xfer(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_test_xfer *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	bool write = cmd->flags & MLX5_UMR_TEST_XFER_WRITE;
	struct mlx5_umr_test_xfer_out out;
	struct umr_uobj *obj;
	u64 offset;
	void *buf;
	int ret;

	if (cmd->flags & ~(MLX5_UMR_TEST_XFER_WRITE | MLX5_UMR_TEST_XFER_LOCAL |
			   MLX5_UMR_TEST_XFER_SIG_CQE))
		return -EOPNOTSUPP;
	if (cmd->__reserved || cmd->__reserved2 || cmd->__reserved3)
		return -EINVAL;
	if (!mlx5_umr_dev_is_fake(ctx->ud->dev))
		return -EOPNOTSUPP;
	if (!cmd->length || cmd->length > UMR_UAPI_MAX_XFER)
		return -EINVAL;

	obj = umr_uobj_get_key(ctx, cmd->key, UMR_UOBJ_ANY);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	buf = kvzalloc(cmd->length, GFP_KERNEL | __GFP_NOWARN);
	if (!buf) {
		ret = -ENOMEM;
		goto out_put;
	}
	if (write && copy_from_user(buf, u64_to_user_ptr(cmd->buf),
				    cmd->length)) {
		ret = -EFAULT;
		goto out_free;
	}
	/*
	 * Registered memory is addressed by user address (mkc.start_addr);
	 * the service counts from the start. Below it, the offset wraps to a
	 * huge one and the HCA refuses the access, as it would the address.
	 */
	offset = cmd->offset;
	if (obj->type == UMR_UOBJ_MR)
		offset -= container_of(obj, struct umr_umr, obj)->iova;
	ret = mlx5_umr_test_xfer_out(ctx->ud->dev, cmd->key, offset, buf,
				     cmd->length, write,
				     !(cmd->flags & MLX5_UMR_TEST_XFER_LOCAL),
				     &out);
	if (ret < 0)
		goto out_free;
	cmd->out_status = ret;
	ret = umr_xfer_sig_err(ctx, cmd, &out);
	if (ret)
		goto out_free;
	if (!write && !cmd->out_status &&
	    copy_to_user(u64_to_user_ptr(cmd->buf), buf, cmd->length)) {
		ret = -EFAULT;
		goto out_free;
	}
	ret = umr_ucmd_respond(ucmd);
out_free:
	kvfree(buf);
out_put:
	umr_uobj_put(obj);
	return ret;
}
