// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: send queue and completion queue engine.
 *
 * A send doorbell makes the fake read the QP's doorbell record and execute
 * WQEs from its consumer counter up to the record's producer counter,
 * reading the ring through the QP's PAS list and the fake IOMMU (so wrap
 * around and multi-WQEBB WQEs split over the ring end are handled as the
 * hardware does). Each QP's execution is serial, so every fence mode is
 * honoured trivially; different QPs run independently, each under its own
 * lock, as a HCA runs its send queues on its own engines. Signalled WQEs
 * produce a requester CQE; the first failing WQE produces an error CQE and
 * moves the QP to ERR, where every later WQE (already posted or posted
 * afterwards) completes with a flush error, like hardware, until the QP is
 * reset. The CQEs are written inside write_db();
 * the completion events they raise reach comp() later, from the workqueue
 * on the CPU of the CQ's EQ, as an interrupt follows the MMIO write on
 * hardware.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/mm.h>
#include <linux/io.h>
#include <linux/lockdep.h>
#include <linux/mlx5/doorbell.h>

#include "fake.h"

/*
 * Copy @len bytes at byte @off of a queue (a ring of @npas pages of
 * FAKE_PAGE_SIZE << @log_pg at device addresses @pas) through the IOMMU.
 * Return: 0, or -EFAULT past the queue or on an IOMMU fault.
 */
int fake_q_rw(struct mlx5_umr_fake *fd, const u64 *pas, u32 npas, u8 log_pg,
	      u64 off, void *buf, size_t len, bool write)
{
	/* Shifts: two 64-bit divisions per CQE were a fair share of a doorbell. */
	unsigned int shift = FAKE_PAGE_SHIFT + log_pg;
	u64 pgsz = BIT_ULL(shift);

	while (len) {
		u64 idx = off >> shift, in = off & (pgsz - 1);
		size_t n = min_t(u64, len, pgsz - in);

		if (idx >= npas ||
		    fake_iommu_rw(fd, pas[idx] + in, buf, n, write))
			return -EFAULT;
		off += n;
		buf += n;
		len -= n;
	}
	return 0;
}

/**
 * fake_eqn_cpu() - the CPU a completion EQ's events run on
 * @eqn: cqc.c_eqn_or_apu_element of a CQ
 *
 * The fake's EQ n stands for completion vector n, whose interrupt
 * mlx5_core spreads over the CPUs (Linux 6.12.117 mlx5/core/eq.c
 * mlx5_cpumask_default_spread(): cpumask_local_spread(vector)): here the
 * (n mod online CPUs)-th online CPU, chosen when the CQ is created. A CPU
 * going offline later does not lose events: the workqueue then runs them
 * on another CPU.
 *
 * Return: a CPU number.
 */
int fake_eqn_cpu(u32 eqn)
{
	unsigned int n = eqn % num_online_cpus();
	int cpu;

	for_each_online_cpu(cpu)
		if (!n--)
			return cpu;
	return raw_smp_processor_id();
}

/*
 * Raise @cq's completion event. It reaches comp() from the workqueue on
 * the CQ's EQ's CPU, as from an interrupt some time after the doorbell:
 * never inside write_db(), where the service holds its send queue lock.
 * Only a command in sync mode (@nt set) collects it for delivery before
 * the command returns.
 */
static void fake_cq_signal(struct mlx5_umr_fake *fd, struct fake_cq *cq,
			   struct fake_notify *nt)
{
	lockdep_assert_held(&cq->lock);
	fake_count(fd, FAKE_EV_EVENTS);
	if (!cq->hcq)
		return;
	if (!nt || !(fd->flags & MLX5_UMR_FAKE_F_SYNC)) {
		queue_work_on(cq->cpu, fd->wq, &cq->work);
		return;
	}
	if (nt->n < ARRAY_SIZE(nt->cq)) {
		atomic_inc(&cq->sync_inflight);
		nt->cq[nt->n++] = cq;
	}
}

void fake_cq_work(struct work_struct *work)
{
	struct fake_cq *cq = container_of(work, struct fake_cq, work);
	struct mlx5_umr_hca_cq *hcq = READ_ONCE(cq->hcq);

	if (hcq)
		hcq->comp(hcq);
}

/**
 * fake_notify_deliver() - call comp() for CQs a command collected in sync
 * mode
 * @fd: the fake
 * @nt: collected under a QP's lock, which must no longer be held
 */
void fake_notify_deliver(struct mlx5_umr_fake *fd, struct fake_notify *nt)
{
	unsigned int i;

	for (i = 0; i < nt->n; i++) {
		struct fake_cq *cq = nt->cq[i];
		struct mlx5_umr_hca_cq *hcq = READ_ONCE(cq->hcq);

		if (hcq && !READ_ONCE(cq->dead))
			hcq->comp(hcq);
		if (atomic_dec_and_test(&cq->sync_inflight))
			wake_up_all(&fd->waitq);
	}
	nt->n = 0;
}

/* Write one 64-byte CQE; @cqe's op_own carries the opcode, owner is added. */
static void fake_cq_put(struct mlx5_umr_fake *fd, struct fake_cq *cq,
			struct mlx5_cqe64 *cqe, struct fake_notify *nt)
{
	u32 ncqe = 1U << cq->log_sz;
	__be32 ci_be;
	u32 ci;

	lockdep_assert_held(&cq->lock);
	if (cq->overrun || fake_iommu_rw(fd, cq->dbr, &ci_be, 4, false)) {
		fake_count(fd, FAKE_EV_CQ_OVERRUNS);
		return;
	}
	ci = be32_to_cpu(ci_be) & 0xffffff;
	if (((cq->pi - ci) & 0xffffff) >= ncqe) {
		/* hardware raises a CQ error event and stops the CQ */
		cq->overrun = true;
		fake_count(fd, FAKE_EV_CQ_OVERRUNS);
		dev_warn_ratelimited(&fd->dev, "CQ 0x%x overrun\n", cq->cqn);
		return;
	}
	cqe->op_own |= !!(cq->pi & ncqe);
	/* body first, then the byte carrying the owner bit */
	if (fake_q_rw(fd, cq->pas, cq->npas, cq->log_pg,
		      (u64)(cq->pi & (ncqe - 1)) * 64, cqe, 63, true)) {
		fake_count(fd, FAKE_EV_CQ_OVERRUNS);
		return;
	}
	wmb(); /* CQE body visible before its owner bit */
	if (fake_q_rw(fd, cq->pas, cq->npas, cq->log_pg,
		      (u64)(cq->pi & (ncqe - 1)) * 64 + 63, &cqe->op_own, 1,
		      true)) {
		fake_count(fd, FAKE_EV_CQ_OVERRUNS);
		return;
	}
	cq->pi++;
	fake_count(fd, FAKE_EV_CQES);
	if (cq->armed) {
		cq->armed = false;
		fake_cq_signal(fd, cq, nt);
	}
}

/* A CQE of @qp's send queue, unless a drop fault (the QP's first) eats it. */
static void fake_cq_write(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			  struct mlx5_cqe64 *cqe, struct fake_notify *nt)
{
	struct fake_cq *cq = qp->scq;

	lockdep_assert_held(&qp->lock);
	if (unlikely(qp->faults.drop_cqes)) {
		qp->faults.drop_cqes--;
		return;
	}
	if (unlikely(atomic_read(&fd->faults.drop_cqes)) &&
	    atomic_dec_if_positive(&fd->faults.drop_cqes) >= 0)
		return;
	spin_lock(&cq->lock);
	fake_cq_put(fd, cq, cqe, nt);
	spin_unlock(&cq->lock);
}

void fake_req_cqe(struct mlx5_umr_fake *fd, struct fake_qp *qp, u8 opcode,
		  u16 idx, struct fake_notify *nt)
{
	struct mlx5_cqe64 cqe = {};

	cqe.sop_drop_qpn = cpu_to_be32((u32)opcode << 24 | qp->qpn);
	cqe.srqn = cpu_to_be32(qp->uidx);
	cqe.wqe_counter = cpu_to_be16(idx);
	/*
	 * A READ's completion says how many bytes arrived (Linux 6.1
	 * drivers/infiniband/hw/mlx5/cq.c handle_good_req() and rdma-core
	 * v44.0 providers/mlx5/cq.c handle_good_req(): wc->byte_len from
	 * byte_cnt for MLX5_OPCODE_RDMA_READ)
	 */
	if (opcode == MLX5_OPCODE_RDMA_READ)
		cqe.byte_cnt = cpu_to_be32(qp->rdma_len);
	cqe.op_own = MLX5_CQE_REQ << 4;
	fake_cq_write(fd, qp, &cqe, nt);
}

/**
 * fake_qp_sig_err_cqe() - a SIG_ERR CQE of an access by @qp, on its CQ
 * @fd: the fake
 * @qp: the accessing QP, locked
 * @err: the CQE fake_sig.c built; its qpn is set here
 *
 * The send CQ, where the fake writes every CQE of the QP: which CQ of a
 * responder QP a ConnectX uses is not public, and libmlx5 takes a SIG_ERR
 * CQE from any CQ, finding the mkey by the CQE's key (rdma-core v44.0
 * 91392a91eb41 providers/mlx5/cq.c mlx5_parse_cqe(), MLX5_CQE_SIG_ERR).
 */
void fake_qp_sig_err_cqe(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			 struct mlx5_sig_err_cqe *err)
{
	struct mlx5_cqe64 cqe;

	BUILD_BUG_ON(sizeof(*err) != sizeof(cqe));
	lockdep_assert_held(&qp->lock);
	err->qpn = cpu_to_be32(qp->qpn);
	memcpy(&cqe, err, sizeof(cqe));
	fake_cq_write(fd, qp, &cqe, NULL);
}

/**
 * fake_peer_sig_err_cqe() - a SIG_ERR CQE of a responder's access
 * @fd: the fake
 * @peer: the responder QP, found under fd->lock and not dead; its lock is
 *	not held (another QP's engine runs)
 * @err: the CQE fake_sig.c built; its qpn is set here
 *
 * On the responder's send CQ, as fake_qp_sig_err_cqe() (where a ConnectX
 * writes it is not public). Its CQ stays while the QP does (qp_users),
 * and the QP stays while fd->lock is held (DESTROY_QP erases it under
 * fd->lock); the CQ's lock is innermost.
 */
void fake_peer_sig_err_cqe(struct mlx5_umr_fake *fd, struct fake_qp *peer,
			   struct mlx5_sig_err_cqe *err)
{
	struct fake_cq *cq = peer->scq;
	struct mlx5_cqe64 cqe;

	lockdep_assert_held(&fd->lock);
	err->qpn = cpu_to_be32(peer->qpn);
	memcpy(&cqe, err, sizeof(cqe));
	spin_lock(&cq->lock);
	fake_cq_put(fd, cq, &cqe, NULL);
	spin_unlock(&cq->lock);
}

static void fake_err_cqe(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			 u8 opcode, u16 idx, u8 synd, u8 vsynd,
			 struct fake_notify *nt)
{
	struct mlx5_cqe64 cqe = {};
	struct mlx5_err_cqe *err = (void *)&cqe;

	BUILD_BUG_ON(sizeof(*err) != sizeof(cqe));
	err->syndrome = synd;
	err->vendor_err_synd = vsynd;
	err->s_wqe_opcode_qpn = cpu_to_be32((u32)opcode << 24 | qp->qpn);
	/*
	 * CQE version 1: the QP's user_index, by which libmlx5 finds the QP
	 * of a requester CQE (rdma-core v44.0 cq.c mlx5_parse_cqe():
	 * get_cur_rsc() with srqn_uidx); 0 for QPs created without one.
	 */
	err->srqn = cpu_to_be32(qp->uidx);
	err->wqe_counter = cpu_to_be16(idx);
	err->op_own = MLX5_CQE_REQ_ERR << 4;
	if (synd == MLX5_CQE_SYNDROME_WR_FLUSH_ERR)
		fake_count(fd, FAKE_EV_FLUSH_CQES);
	else
		fake_count(fd, FAKE_EV_ERR_CQES);
	fake_cq_write(fd, qp, &cqe, nt);
}

static void fake_log_wqe(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			 u16 idx, unsigned int len)
{
	struct fake_wqe_log *l;

	lockdep_assert_held(&fd->lock);
	if (!fd->wqe_log)
		return;
	l = &fd->wqe_log[fd->wqe_log_pos++ % FAKE_WQE_LOG];
	l->qpn = qp->qpn;
	l->idx = idx;
	l->len = len;
	memcpy(l->data, qp->wqe, len);
}

static void fake_qp_error(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			  u8 opcode, u16 idx, int err, struct fake_notify *nt)
{
	fake_err_cqe(fd, qp, opcode, idx, err >> 8, err & 0xff, nt);
	WRITE_ONCE(qp->state, MLX5_QP_STATE_ERR);
}

/* The control segment of the WQE at the engine's consumer counter. */
struct fake_wqe_hdr {
	u16 idx;	/* the index the WQE carries, which its CQE reports */
	u8 opcode;
	u8 fm;		/* fm_ce_se */
	u32 qpn;
	u32 ds;		/* 16-byte segments */
	u32 nbb;	/* basic blocks */
};

/*
 * The producer counter of the QP's doorbell record, when the QP executes
 * (RTS) or flushes (ERR) and nothing holds the engine back.
 */
static bool fake_sq_read_pi(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			    u16 *pi)
{
	__be32 dbr;

	if (READ_ONCE(fd->internal_error) || qp->dead || qp->delayed ||
	    qp->faults.stalled)
		return false;
	if (qp->state != MLX5_QP_STATE_RTS && qp->state != MLX5_QP_STATE_ERR)
		return false;
	if (fake_iommu_rw(fd, qp->dbr + MLX5_SND_DBR * 4, &dbr, 4, false))
		return false;
	*pi = be32_to_cpu(dbr) & 0xffff;
	qp->last_pi = *pi;
	return true;
}

/*
 * A WQE the engine cannot go past: in RTS the QP errors with @err at it;
 * either way the engine skips to the record, as hardware stops the QP.
 */
static void fake_sq_stop(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			 u8 opcode, u16 idx, int err, u16 pi,
			 struct fake_notify *nt)
{
	if (qp->state == MLX5_QP_STATE_RTS)
		fake_qp_error(fd, qp, opcode, idx, err, nt);
	qp->ci = pi;
}

/* Read the first basic block of the WQE at the consumer counter. */
static int fake_sq_fetch_hdr(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			     struct fake_wqe_hdr *h)
{
	const struct mlx5_wqe_ctrl_seg *ctrl = (void *)qp->wqe;
	u32 mask = (1U << qp->log_sq) - 1;
	u32 op, qpn_ds;

	if (fake_q_rw(fd, qp->pas, qp->npas, qp->log_pg,
		      (u64)(qp->ci & mask) * MLX5_SEND_WQE_BB, qp->wqe,
		      MLX5_SEND_WQE_BB, false))
		return fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
				    MLX5_UMR_FAKE_VS_RING_FAULT);
	op = be32_to_cpu(ctrl->opmod_idx_opcode);
	qpn_ds = be32_to_cpu(ctrl->qpn_ds);
	h->opcode = op & MLX5_WQE_CTRL_OPCODE_MASK;
	h->idx = (op & MLX5_WQE_CTRL_WQE_INDEX_MASK) >>
		 MLX5_WQE_CTRL_WQE_INDEX_SHIFT;
	h->qpn = qpn_ds >> MLX5_WQE_CTRL_QPN_SHIFT;
	h->ds = qpn_ds & MLX5_WQE_CTRL_DS_MASK;
	h->fm = ctrl->fm_ce_se;
	h->nbb = max_t(u32, 1, DIV_ROUND_UP(h->ds * MLX5_SEND_WQE_DS,
					    MLX5_SEND_WQE_BB));
	if (h->idx != qp->ci)
		qp->nr_idx_mismatch++;
	return 0;
}

/* Read the basic blocks after the first, wrapping at the ring's end. */
static int fake_sq_fetch_rest(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			      const struct fake_wqe_hdr *h)
{
	u32 mask = (1U << qp->log_sq) - 1;
	u32 i;

	for (i = 1; i < h->nbb; i++)
		if (fake_q_rw(fd, qp->pas, qp->npas, qp->log_pg,
			      (u64)((qp->ci + i) & mask) * MLX5_SEND_WQE_BB,
			      qp->wqe + i * MLX5_SEND_WQE_BB,
			      MLX5_SEND_WQE_BB, false))
			return fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
					    MLX5_UMR_FAKE_VS_RING_FAULT);
	return 0;
}

/*
 * An error injected for this WQE: the QP's own first, else the device's.
 * Either is consumed by the WQE. Context: qp->lock and fd->lock held.
 */
static int fake_sq_injected(struct mlx5_umr_fake *fd, struct fake_qp *qp)
{
	int err = 0;

	if (qp->faults.wqe_armed)
		err = fake_wqe_err(qp->faults.wqe_synd, qp->faults.wqe_vsynd);
	else if (fd->faults.wqe_armed)
		err = fake_wqe_err(fd->faults.wqe_synd, fd->faults.wqe_vsynd);
	qp->faults.wqe_armed = false;
	fd->faults.wqe_armed = false;
	return err;
}

/*
 * Check the control segment and run the WQE: 0 or its error. The mkeys and
 * PSVs a WQE works on are the device's, so this part runs under fd->lock.
 */
static int fake_sq_exec(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			const struct fake_wqe_hdr *h)
{
	int err = fake_sq_fetch_rest(fd, qp, h);
	int inj;

	spin_lock(&fd->lock);
	if (!err && h->ds)
		fake_log_wqe(fd, qp, h->idx, h->ds * MLX5_SEND_WQE_DS);
	inj = fake_sq_injected(fd, qp);
	if (err)
		;
	else if (inj)
		err = inj;
	else if (!h->ds)
		err = fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
				   MLX5_UMR_FAKE_VS_BAD_DS);
	else if (h->qpn != qp->qpn)
		err = fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
				   MLX5_UMR_FAKE_VS_BAD_QPN);
	else if ((h->fm & 0xe0) > MLX5_FENCE_MODE_SMALL_AND_FENCE)
		err = fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
				   MLX5_UMR_FAKE_VS_BAD_FENCE);
	else
		err = fake_wqe_exec(fd, qp, qp->wqe, h->ds * MLX5_SEND_WQE_DS);
	fake_exec_log_add(fd, qp, h->idx, qp->wqe, h->ds * MLX5_SEND_WQE_DS,
			  err);
	spin_unlock(&fd->lock);
	return err;
}

/* Consume the WQE; a signalled success gets a CQE, a failure an error. */
static void fake_sq_complete(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			     const struct fake_wqe_hdr *h, int err,
			     struct fake_notify *nt)
{
	qp->ci += h->nbb;
	if (err) {
		fake_qp_error(fd, qp, h->opcode, h->idx, err, nt);
		return;
	}
	qp->nr_wqes++;
	fake_count(fd, FAKE_EV_WQES);
	if (h->fm & MLX5_WQE_CTRL_CQ_UPDATE)
		fake_req_cqe(fd, qp, h->opcode, h->idx, nt);
}

/* Execute, flush or skip one WQE. Return: false when the pass ends. */
static bool fake_sq_step(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			 u16 pi, struct fake_notify *nt)
{
	struct fake_wqe_hdr h;
	int err;

	err = fake_sq_fetch_hdr(fd, qp, &h);
	if (err) {
		fake_sq_stop(fd, qp, 0, qp->ci, err, pi, nt);
		return false;
	}
	/* a WQE claiming more WQEBBs than posted ends the pass */
	if (h.nbb > (u16)(pi - qp->ci)) {
		fake_sq_stop(fd, qp, h.opcode, h.idx,
			     fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
					  MLX5_UMR_FAKE_VS_BAD_DS), pi, nt);
		return false;
	}
	if (qp->state == MLX5_QP_STATE_ERR) {
		fake_err_cqe(fd, qp, h.opcode, h.idx,
			     MLX5_CQE_SYNDROME_WR_FLUSH_ERR,
			     MLX5_UMR_FAKE_VS_NONE, nt);
		qp->ci += h.nbb;
		return true;
	}
	/* a null device consumes without executing (or fails by the QP's fault) */
	if (fd->flags & MLX5_UMR_FAKE_F_NULL) {
		err = qp->faults.wqe_armed ?
		      fake_wqe_err(qp->faults.wqe_synd, qp->faults.wqe_vsynd) : 0;
		qp->faults.wqe_armed = false;
	} else {
		err = fake_sq_exec(fd, qp, &h);
	}
	fake_sq_complete(fd, qp, &h, err, nt);
	return true;
}

/* Execute (RTS) or flush (ERR) WQEs up to the doorbell record. */
static void fake_sq_process(struct mlx5_umr_fake *fd, struct fake_qp *qp,
			    struct fake_notify *nt)
{
	u16 pi;

	lockdep_assert_held(&qp->lock);
	if (!fake_sq_read_pi(fd, qp, &pi))
		return;
	if ((u16)(pi - qp->ci) > 1U << qp->log_sq) {
		fake_sq_stop(fd, qp, 0, qp->ci,
			     fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
					  MLX5_UMR_FAKE_VS_DB_OVERRUN), pi, nt);
		return;
	}
	/* A null device's fast path; anything unusual is left to the loop. */
	if ((fd->flags & MLX5_UMR_FAKE_F_NULL) &&
	    qp->state == MLX5_QP_STATE_RTS && !qp->faults.wqe_armed)
		fake_null_consume(fd, qp, pi, nt);
	while (qp->ci != pi && fake_sq_step(fd, qp, pi, nt))
		;
}

/**
 * fake_qp_flush_all() - move a QP to ERR and flush what is posted
 * @fd: the fake
 * @qp: the QP (2ERR_QP command)
 * @nt: the command's events, delivered after it dropped qp->lock
 */
void fake_qp_flush_all(struct mlx5_umr_fake *fd, struct fake_qp *qp,
		       struct fake_notify *nt)
{
	lockdep_assert_held(&qp->lock);
	WRITE_ONCE(qp->state, MLX5_QP_STATE_ERR);
	fake_sq_process(fd, qp, nt);
}

/**
 * fake_qp_peer_err_take() - the responder @qp's engine found in a class C
 *	error, to be moved to ERR
 * @qp: the requester, locked
 *
 * Return: its QP number (to fake_qp_peer_err() once @qp's lock is
 * dropped), or 0.
 */
u32 fake_qp_peer_err_take(struct fake_qp *qp)
{
	u32 qpn = qp->peer_err;

	lockdep_assert_held(&qp->lock);
	qp->peer_err = 0;
	return qpn;
}

/**
 * fake_qp_peer_err() - move a responder to ERR after a class C error
 * @fd: the fake
 * @qpn: from fake_qp_peer_err_take(), or 0 for none
 *
 * A responder that NAKs a request with a remote access error goes to ERR
 * (IB class C; Linux 6.1 drivers/infiniband/sw/rxe/rxe_resp.c
 * rxe_responder(): RESPST_ERR_RKEY_VIOLATION on RC -> do_class_ac_error()
 * sets goto_error -> RESPST_ERROR -> rxe_qp_error()), flushing what its
 * own send queue holds, as 2ERR_QP does. Called without any QP's lock.
 */
void fake_qp_peer_err(struct mlx5_umr_fake *fd, u32 qpn)
{
	unsigned long flags;
	struct fake_qp *qp;

	if (!qpn)
		return;
	qp = fake_qp_lock(fd, qpn, &flags);
	if (!qp)
		return;
	if (qp->state == MLX5_QP_STATE_RTR || qp->state == MLX5_QP_STATE_RTS)
		fake_qp_flush_all(fd, qp, NULL);
	fake_qp_unlock(qp, flags);
}

void fake_qp_delay_work(struct work_struct *work)
{
	struct fake_qp *qp = container_of(to_delayed_work(work),
					  struct fake_qp, delay_work);
	struct mlx5_umr_fake *fd = qp->fd;
	unsigned long flags;
	u32 peer;

	spin_lock_irqsave(&qp->lock, flags);
	qp->delayed = false;
	fake_sq_process(fd, qp, NULL);
	peer = fake_qp_peer_err_take(qp);
	spin_unlock_irqrestore(&qp->lock, flags);
	fake_qp_peer_err(fd, peer);
}

/**
 * fake_qp_lock() - find a live QP and lock it
 * @fd: the fake
 * @qpn: the QP number
 * @flags: for spin_unlock_irqrestore()
 *
 * Without fd->lock: a QP is freed an RCU grace period after DESTROY_QP
 * marked it dead under its lock.
 * Return: the QP, locked (release with fake_qp_unlock()), or NULL.
 */
struct fake_qp *fake_qp_lock(struct mlx5_umr_fake *fd, u32 qpn,
			     unsigned long *flags)
{
	struct fake_qp *qp;

	rcu_read_lock();
	qp = xa_load(&fd->qps, qpn);
	if (qp) {
		spin_lock_irqsave(&qp->lock, *flags);
		if (!qp->dead) {
			/*
			 * Both are handed to the caller, who gives them back
			 * with fake_qp_unlock(): sparse, which checks each
			 * function on its own, is told so (no code).
			 */
			__release(&qp->lock);
			__release(RCU);
			return qp;
		}
		spin_unlock_irqrestore(&qp->lock, *flags);
	}
	rcu_read_unlock();
	return NULL;
}

void fake_qp_unlock(struct fake_qp *qp, unsigned long flags)
{
	/* taken over from fake_qp_lock() (see there) */
	__acquire(RCU);
	__acquire(&qp->lock);
	spin_unlock_irqrestore(&qp->lock, flags);
	rcu_read_unlock();
}

/* The delay a test asked for the next doorbell, if any: taken once. */
static unsigned int fake_take_delay(struct mlx5_umr_fake *fd)
{
	unsigned int ms;

	if (likely(!READ_ONCE(fd->faults.delay_ms)))
		return 0;
	spin_lock(&fd->lock);
	ms = fd->faults.delay_ms;
	fd->faults.delay_ms = 0;
	spin_unlock(&fd->lock);
	return ms;
}

/**
 * fake_qp_kick() - run a QP's engine after something held it
 * @fd: the fake
 * @qp: the QP, locked
 *
 * From the workqueue in F_ASYNC_EXEC mode or when a delay is pending, as
 * a doorbell would.
 */
void fake_qp_kick(struct mlx5_umr_fake *fd, struct fake_qp *qp)
{
	unsigned int ms;

	lockdep_assert_held(&qp->lock);
	if (qp->delayed)
		return;		/* the pending run reads the record again */
	ms = fake_take_delay(fd);
	if (ms || (fd->flags & MLX5_UMR_FAKE_F_ASYNC_EXEC)) {
		qp->delayed = true;
		queue_delayed_work(fd->wq, &qp->delay_work,
				   msecs_to_jiffies(ms));
		return;
	}
	fake_sq_process(fd, qp, NULL);
}

static void fake_sq_doorbell(struct mlx5_umr_fake *fd, u32 uar,
			     const __be32 val[2])
{
	u32 qpn = be32_to_cpu(val[1]) >> MLX5_WQE_CTRL_QPN_SHIFT;
	unsigned long flags;
	struct fake_qp *qp;
	u32 peer;

	qp = fake_qp_lock(fd, qpn, &flags);
	if (!qp) {
		fake_count(fd, FAKE_EV_BAD_DOORBELLS);
		return;
	}
	if (qp->uar != uar) {
		fake_qp_unlock(qp, flags);
		fake_count(fd, FAKE_EV_BAD_DOORBELLS);
		return;
	}
	fake_count(fd, FAKE_EV_SEND_DOORBELLS);
	qp->last_db[0] = val[0];
	qp->last_db[1] = val[1];
	fake_qp_kick(fd, qp);
	peer = fake_qp_peer_err_take(qp);
	fake_qp_unlock(qp, flags);
	fake_qp_peer_err(fd, peer);
}

static void fake_cq_doorbell(struct mlx5_umr_fake *fd, u32 uar,
			     const __be32 val[2])
{
	u32 ci = be32_to_cpu(val[0]) & 0xffffff;
	unsigned long flags;
	struct fake_cq *cq;
	bool bad;

	rcu_read_lock();
	cq = xa_load(&fd->cqs, be32_to_cpu(val[1]) & 0xffffff);
	bad = !cq;
	if (cq) {
		spin_lock_irqsave(&cq->lock, flags);
		bad = cq->dead || cq->uar != uar;
		/* armed with CQEs already past ci: the event fires at once */
		if (bad) {
			;
		} else if ((cq->pi - ci) & 0xffffff) {
			cq->armed = false;
			fake_cq_signal(fd, cq, NULL);
		} else {
			cq->armed = true;
		}
		spin_unlock_irqrestore(&cq->lock, flags);
	}
	rcu_read_unlock();
	if (bad)
		fake_count(fd, FAKE_EV_BAD_DOORBELLS);
}

/**
 * fake_write_db() - a doorbell (MMIO) write into a UAR page
 * @hca: the fake
 * @uar: the page
 * @offset: MLX5_BF_OFFSET (send) or MLX5_CQ_DOORBELL (arm)
 * @val: the 64-bit value, big endian
 *
 * A send doorbell executes the posted WQEs and writes their CQEs before
 * returning (unless execution is deferred); the completion events they
 * raise are queued, never delivered from here. It takes only the named
 * QP's (or CQ's) lock, and fd->lock only for a WQE's mkey and PSV work:
 * doorbells of different QPs run in parallel.
 *
 * Context: any; the caller may hold its own spinlocks.
 */
void fake_write_db(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar,
		   unsigned int offset, const __be32 val[2])
{
	struct mlx5_umr_fake *fd = to_fake(hca);

	if (READ_ONCE(fd->internal_error))
		return;
	if (!xa_load(&fd->uars, uar->index)) {
		fake_count(fd, FAKE_EV_BAD_DOORBELLS);
		return;
	}
	if (offset == MLX5_BF_OFFSET)
		fake_sq_doorbell(fd, uar->index, val);
	else if (offset == MLX5_CQ_DOORBELL)
		fake_cq_doorbell(fd, uar->index, val);
	else
		fake_count(fd, FAKE_EV_BAD_DOORBELLS);
}
