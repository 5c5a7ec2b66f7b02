// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libmlx5umr's test-only calls (mlx5umr_testing.h): the data path of a fake
 * HCA. Built into libmlx5umr_testing.a for the tree's own programs (umrctl,
 * the selftests); neither libmlx5umr.so.0 nor the installed archive has it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/mlx5_umr.h>
#include "../../drivers/umr/uapi/uapi_testing.h"

#include "mlx5umr_testing.h"

static int xfer_fail(int err)
{
	errno = err;
	return err;
}

int mlx5umr_xfer(struct mlx5umr_context *ctx, uint32_t key, uint64_t offset,
		 void *buf, size_t len, uint32_t flags, uint32_t *status)
{
	return mlx5umr_xfer_sig(ctx, key, offset, buf, len, flags, status, NULL,
				NULL);
}

int mlx5umr_xfer_sig(struct mlx5umr_context *ctx, uint32_t key,
		     uint64_t offset, void *buf, size_t len, uint32_t flags,
		     uint32_t *status, int *sig_err, void *sig_cqe)
{
	struct mlx5_umr_test_xfer cmd = {
		.size = sizeof(cmd),
		.key = key,
		.offset = offset,
		.buf = (uintptr_t)buf,
		.length = len,
	};

	if (flags & ~(MLX5UMR_XFER_WRITE | MLX5UMR_XFER_LOCAL))
		return xfer_fail(EOPNOTSUPP);
	if (flags & MLX5UMR_XFER_WRITE)
		cmd.flags |= MLX5_UMR_TEST_XFER_WRITE;
	if (flags & MLX5UMR_XFER_LOCAL)
		cmd.flags |= MLX5_UMR_TEST_XFER_LOCAL;
	if (sig_cqe)
		cmd.flags |= MLX5_UMR_TEST_XFER_SIG_CQE;
	if (ioctl(ctx->fd, MLX5_UMR_TEST_IOCTL_XFER, &cmd))
		return xfer_fail(errno ? errno : EIO);
	if (status)
		*status = cmd.out_status;
	if (sig_err)
		*sig_err = !!(cmd.out_flags & MLX5_UMR_TEST_XFER_OUT_SIG_ERR);
	if (sig_cqe && (cmd.out_flags & MLX5_UMR_TEST_XFER_OUT_SIG_ERR))
		memcpy(sig_cqe, cmd.out_sig_cqe, sizeof(cmd.out_sig_cqe));
	return 0;
}
