// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: the null device's send queue fast path.
 *
 * A null device (MLX5_UMR_FAKE_F_NULL, for the benchmark) consumes WQEs
 * and completes them without decoding them, so that what is measured is
 * the host's cost. Where the doorbell allows, it reads one WQE per
 * doorbell (fake_null_skip()); otherwise it walks the control segments,
 * translating each ring page once for all the WQEs on it. Anything unusual
 * (a fault, a bad size or index) stops the fast path and leaves that WQE
 * to the general engine.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/highmem.h>

#include "fake.h"

/*
 * The doorbell carries the first 8 bytes of the newest WQE: its index,
 * opcode, QP and size. When that WQE ends at the doorbell record, is in
 * the ring as announced and asks for a CQE, which covers every WQE before
 * it, everything up to the record is consumed with that one CQE; the WQEs
 * before it are not read (walking them is a chain of dependent loads, one
 * per WQE, that a hardware HCA runs on its own engines, not on the host's
 * CPU). Signalled WQEs among them get no CQE of their own: a benchmark
 * device's shortcut, harmless to a requester that retires every WQE up to
 * the one a CQE names, as the service does (service.rst).
 * Return: true if consumed; false leaves everything to the walk.
 */
static bool fake_null_skip(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			   u16 pi, struct fake_notify *nt)
{
	u32 op = be32_to_cpu(qp->last_db[0]);
	u32 ds = be32_to_cpu(qp->last_db[1]) & MLX5_WQE_CTRL_DS_MASK;
	u16 idx = (op & MLX5_WQE_CTRL_WQE_INDEX_MASK) >>
		  MLX5_WQE_CTRL_WQE_INDEX_SHIFT;
	u32 nbb = DIV_ROUND_UP(ds * MLX5_SEND_WQE_DS, MLX5_SEND_WQE_BB);
	u32 mask = (1U << qp->log_sq) - 1;
	struct mlx5_wqe_ctrl_seg ctrl;

	if (!nbb || (u16)(idx + nbb) != pi || nbb > (u16)(pi - qp->ci))
		return false;
	if (fake_q_rw(fd, qp->pas, qp->npas, qp->log_pg,
		      (u64)(idx & mask) * MLX5_SEND_WQE_BB, &ctrl,
		      sizeof(ctrl), false))
		return false;
	if (ctrl.opmod_idx_opcode != qp->last_db[0] ||
	    ctrl.qpn_ds != qp->last_db[1] ||
	    !(ctrl.fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE))
		return false;

	qp->ci = pi;
	qp->nr_wqes++;
	fake_count(fd, FAKE_EV_WQES);
	fake_req_cqe(fd, qp, op & MLX5_WQE_CTRL_OPCODE_MASK, idx, nt);
	return true;
}

/**
 * fake_null_consume() - consume well-formed WQEs up to @pi
 * @fd: the fake, a null device
 * @qp: the QP, in RTS, locked; nothing here takes fd->lock, so the
 *	engines of different QPs meet only on a CQ they share
 * @pi: producer counter of the doorbell record
 * @nt: events a command collects (sync mode), or NULL to queue them
 */
void fake_null_consume(struct mlx5_umr_fake *fd, struct fake_qp *qp, u16 pi,
		       struct fake_notify *nt)
{
	const u32 per_page = PAGE_SIZE / MLX5_SEND_WQE_BB;
	unsigned int pg_shift = FAKE_PAGE_SHIFT + qp->log_pg;
	u32 mask = (1U << qp->log_sq) - 1;
	u32 first = 0, slots = 0;	/* ring slots on the mapped page */
	u16 ci = qp->ci;
	u64 done = 0;
	u8 *kva = NULL;

	lockdep_assert_held(&qp->lock);
	if (fake_null_skip(fd, qp, pi, nt))
		return;
	/*
	 * The walk is one dependency chain (where a WQE starts depends on the
	 * size of the one before), so nothing else is on it: the counter stays
	 * in a register and the ring page (kernel pages are contiguous in the
	 * IOVA space of one PAS entry) is found once for all its slots.
	 */
	while (ci != pi) {
		u32 slot = ci & mask;
		const struct mlx5_wqe_ctrl_seg *ctrl;
		u32 op, ds, nbb;

		if (slot - first >= slots) {
			u64 off = (u64)slot * MLX5_SEND_WQE_BB;
			struct page *page;
			u64 iova;

			if (off >> pg_shift >= qp->npas)
				break;
			iova = qp->pas[off >> pg_shift] +
			       (off & (BIT_ULL(pg_shift) - 1));
			page = xa_load(&fd->iommu, iova >> PAGE_SHIFT);
			if (!page)
				break;
			if (kva)
				kunmap_local(kva);
			kva = kmap_local_page(page);
			first = slot - offset_in_page(iova) / MLX5_SEND_WQE_BB;
			slots = per_page;
		}
		ctrl = (const void *)(kva + (slot - first) * MLX5_SEND_WQE_BB);

		op = be32_to_cpu(ctrl->opmod_idx_opcode);
		ds = be32_to_cpu(ctrl->qpn_ds) & MLX5_WQE_CTRL_DS_MASK;
		nbb = DIV_ROUND_UP(ds * MLX5_SEND_WQE_DS, MLX5_SEND_WQE_BB);
		if (!nbb || nbb > (u16)(pi - ci) ||
		    (u16)((op & MLX5_WQE_CTRL_WQE_INDEX_MASK) >>
			  MLX5_WQE_CTRL_WQE_INDEX_SHIFT) != ci)
			break;

		ci += nbb;
		done++;
		if (ctrl->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE) {
			qp->ci = ci;
			fake_req_cqe(fd, qp, op & MLX5_WQE_CTRL_OPCODE_MASK,
				     (u16)(ci - nbb), nt);
		}
	}
	if (kva)
		kunmap_local(kva);
	qp->ci = ci;
	qp->nr_wqes += done;
	fake_count_add(fd, FAKE_EV_WQES, done);
}
