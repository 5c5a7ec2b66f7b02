// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the signature status of an mkey read from any context, as a
 * ULP's completion handler calls ib_check_mr_status() (mlx5_ib mr.c
 * mlx5_ib_check_mr_status(): read and clear, nothing posted; the re-arm
 * is left to the next registration).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/spinlock.h>
#include <linux/mlx5_umr.h>

#include "umr.h"
#include "sig.h"

/**
 * mlx5_umr_sig_status_read() - read and clear the signature status of an
 *	mkey, without sleeping
 * @mkey: an mkey allocated with MLX5_UMR_MKEY_SIGNATURE
 * @status: where the status goes: the first error recorded since the last
 *	read or check (@status->errors of them), or err_type
 *	MLX5_UMR_SIG_ERR_NONE and zeroes
 *
 * The result covers the SIG_ERR CQEs handed to mlx5_umr_sig_report()
 * before this call, no more. A SIG_ERR CQE arrives on the CQ of the QP
 * that moved the data, among its other CQEs; mlx5_ib records one as its
 * poll meets it and goes on polling (cq.c mlx5_poll_one(),
 * MLX5_CQE_SIG_ERR). A ULP that likewise reports each SIG_ERR CQE from its
 * poll loop before it handles the completions after it, and reads the
 * status once the completion that ends the I/O was handled (nvme-rdma:
 * nvme_rdma_complete_rq() calls nvme_rdma_check_pi_status() after the
 * response's completion), reads a status that covers every transfer of
 * that I/O. A report running on another CPU meanwhile may land before
 * or after.
 *
 * Unlike mlx5_umr_sig_check() nothing is posted: after an error the HCA
 * keeps the mkey's PSV in error and disarmed, so the mkey reports no
 * further error until its next configure with MLX5_UMR_WR_SET_SIG, which
 * writes the PSVs and re-arms it, as mlx5_ib's next
 * IB_WR_REG_MR_INTEGRITY does (a ULP registers every I/O anew). Read the
 * status before that configure is posted: the configure does not clear
 * it.
 *
 * Context: any context (hard IRQ included); takes a spinlock with
 * interrupts disabled.
 * Return: 0, or -EINVAL for a NULL argument or an mkey without signature.
 */
int mlx5_umr_sig_status_read(struct mlx5_umr_mkey *mkey,
			     struct mlx5_umr_sig_status *status)
{
	struct mlx5_umr_sig_mkey *s;
	unsigned long flags;

	if (!mkey || !status || !to_priv(mkey)->sig)
		return -EINVAL;
	s = to_priv(mkey)->sig;
	spin_lock_irqsave(&s->lock, flags);
	*status = s->pending ? s->status : (struct mlx5_umr_sig_status) {};
	s->pending = false;
	s->status = (struct mlx5_umr_sig_status) {};
	spin_unlock_irqrestore(&s->lock, flags);
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_sig_status_read);
