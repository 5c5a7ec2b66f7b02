// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: the null device's send queue fast path.
 *
 * A null device (MLX5_UMR_FAKE_F_NULL, for the benchmark) consumes WQEs
 * and completes the signalled ones without decoding them, so that what is
 * measured is the host's cost. Reading each WQE's control segment through
 * the general path costs an IOMMU lookup per WQE, about as much as the
 * host spends encoding it; here the ring page is translated once for all
 * the WQEs on it. Anything unusual (a fault, a bad size or index) stops
 * the fast path and leaves that WQE to the general engine.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/highmem.h>

#include "fake.h"

/**
 * fake_null_consume() - consume well-formed WQEs up to @pi
 * @fd: the fake, a null device
 * @qp: the QP, in RTS
 * @pi: producer counter of the doorbell record
 * @nt: notifications to deliver after dropping fd->lock
 *
 * Context: fd->lock held.
 */
void fake_null_consume(struct mlx5_umr_fake *fd, struct fake_qp *qp, u16 pi,
		       struct fake_notify *nt)
{
	u64 pgsz = 1ULL << (FAKE_PAGE_SHIFT + qp->log_pg);
	u32 wqe_cnt = 1U << qp->log_sq;
	unsigned long pfn = ULONG_MAX;
	struct page *page = NULL;

	while (qp->ci != pi) {
		u64 off = (u64)(qp->ci & (wqe_cnt - 1)) * MLX5_SEND_WQE_BB;
		struct mlx5_wqe_ctrl_seg ctrl;
		u32 op, ds, nbb;
		u64 iova;
		void *kva;

		if (off / pgsz >= qp->npas)
			return;
		iova = qp->pas[off / pgsz] + off % pgsz;
		if (iova >> PAGE_SHIFT != pfn) {
			pfn = iova >> PAGE_SHIFT;
			page = xa_load(&fd->iommu, pfn);
			if (!page)
				return;
		}
		kva = kmap_local_page(page);
		memcpy(&ctrl, kva + offset_in_page(iova), sizeof(ctrl));
		kunmap_local(kva);

		op = be32_to_cpu(ctrl.opmod_idx_opcode);
		ds = be32_to_cpu(ctrl.qpn_ds) & MLX5_WQE_CTRL_DS_MASK;
		nbb = DIV_ROUND_UP(ds * MLX5_SEND_WQE_DS, MLX5_SEND_WQE_BB);
		if (!nbb || nbb > (u16)(pi - qp->ci) ||
		    ((op & MLX5_WQE_CTRL_WQE_INDEX_MASK) >>
		     MLX5_WQE_CTRL_WQE_INDEX_SHIFT) != qp->ci)
			return;

		qp->ci += nbb;
		qp->nr_wqes++;
		fd->cnt.wqes++;
		if (ctrl.fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE)
			fake_req_cqe(fd, qp, op & MLX5_WQE_CTRL_OPCODE_MASK,
				     (u16)(qp->ci - nbb), nt);
	}
}
