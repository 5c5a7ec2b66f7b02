// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: RDMA WRITE and RDMA READ between its RC QPs.
 *
 * An RC QP in RTS executes an RDMA WQE as libmlx5 builds it (rdma-core
 * v44.0 providers/mlx5/qp.c _mlx5_post_send(): ctrl segment, struct
 * mlx5_wqe_raddr_seg from set_raddr_seg(), then data segments, or for a
 * WRITE with IBV_SEND_INLINE one inline segment, set_data_inl_seg()) on
 * the QP INIT2RTR connected it to, a QP of the same fake (loopback: one
 * port, one host). The message goes through the requester's bounce buffer
 * (MLX5_UMR_FAKE_RDMA_MAX_MSG): local keys are read or written with local
 * access in the requester's PD, the remote range with remote access
 * through the rkey in the responder's PD, each through fake_xfer_key(), so
 * signature and crypto mkeys on either side run their engines.
 *
 * Locking: the engine runs under the requester's qp->lock and fd->lock.
 * The responder is found by xa_load() under fd->lock, which DESTROY_QP
 * takes to erase it, so it stays allocated while fd->lock is held; its PD
 * and type are fixed at creation, its state is read with READ_ONCE() (a
 * snapshot, as a packet meets its responder in whatever state it is). Its
 * lock is never taken here: a responder error moves it to ERR after the
 * requester's lock is dropped (fake_qp_peer_err()).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/mm.h>

#include "fake.h"

#define RDMA_ERR(s, v)	fake_wqe_err(MLX5_CQE_SYNDROME_##s, \
				     MLX5_UMR_FAKE_VS_##v)

#define FAKE_RDMA_HDR	(sizeof(struct mlx5_wqe_ctrl_seg) + \
			 sizeof(struct mlx5_wqe_raddr_seg))

/* One RDMA WQE being executed. */
struct fake_rdma {
	struct mlx5_umr_fake *fd;
	struct fake_qp *qp;
	struct fake_qp *peer;
	const u8 *wqe;
	unsigned int size;
	bool write;
	u64 raddr;
	u32 rkey;
	const u8 *inl;	/* a WRITE's inline data, else NULL */
	u64 len;	/* message bytes */
};

/*
 * The raddr segment and the message length. A data segment of byte count
 * 0 moves nothing (libmlx5 never posts one: _mlx5_post_send() skips empty
 * SGEs). Inline data is a WRITE's (and SEND's) only: set_data_inl_seg()
 * is called for them alone.
 */
static int fake_rdma_parse(struct fake_rdma *r)
{
	const struct mlx5_wqe_raddr_seg *ra;
	const struct mlx5_wqe_data_seg *ds;
	unsigned int off = FAKE_RDMA_HDR;
	u32 bc;

	if (r->size < FAKE_RDMA_HDR)
		return RDMA_ERR(LOCAL_LENGTH_ERR, BAD_DS);
	ra = (const void *)(r->wqe + sizeof(struct mlx5_wqe_ctrl_seg));
	r->raddr = be64_to_cpu(ra->raddr);
	r->rkey = be32_to_cpu(ra->rkey);
	if (off < r->size) {
		bc = be32_to_cpu(*(const __be32 *)(r->wqe + off));
		if (bc & MLX5_INLINE_SEG) {
			if (!r->write)
				return RDMA_ERR(LOCAL_QP_OP_ERR, RDMA_INLINE);
			r->len = bc & ~MLX5_INLINE_SEG;
			if (r->len > r->size - off - sizeof(bc))
				return RDMA_ERR(LOCAL_LENGTH_ERR, BAD_DS);
			r->inl = r->wqe + off + sizeof(bc);
			return 0;
		}
	}
	for (; off + sizeof(*ds) <= r->size; off += sizeof(*ds)) {
		ds = (const void *)(r->wqe + off);
		r->len += be32_to_cpu(ds->byte_count);
	}
	/*
	 * The fake's limit, which it reports as the port's max_msg_sz
	 * (fake_uverbs.c fuv_query_port()): a longer message is the
	 * requester's local length error, IB_WC_LOC_LEN_ERR (Linux 6.1
	 * drivers/infiniband/hw/mlx5/cq.c mlx5_handle_error_cqe():
	 * MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR).
	 */
	if (r->len > MLX5_UMR_FAKE_RDMA_MAX_MSG)
		return RDMA_ERR(LOCAL_LENGTH_ERR, RDMA_LEN);
	return 0;
}

/*
 * The SIG_ERR CQE of an access that found one: on the CQ of the QP whose
 * access found it (Documentation/fake.rst, "The RC data path").
 */
static void fake_rdma_sig_err(struct fake_rdma *r, struct fake_qp *who,
			      struct mlx5_umr_test_xfer_out *out)
{
	if (!out->sig_err)
		return;
	if (who == r->qp)
		fake_qp_sig_err_cqe(r->fd, r->qp, &out->cqe);
	else
		fake_peer_sig_err_cqe(r->fd, who, &out->cqe);
}

static int fake_rdma_local_err(int xerr)
{
	if (xerr == FAKE_X_NOMEM)
		return RDMA_ERR(LOCAL_QP_OP_ERR, RDMA_NOMEM);
	return RDMA_ERR(LOCAL_PROT_ERR, RDMA_LKEY);
}

/* A key whose data a signature or crypto engine moves. */
static bool fake_rdma_engine_key(struct mlx5_umr_fake *fd, u32 key)
{
	struct fake_mkey *mk = fake_mkey_lookup(fd, key);

	return mk && !MLX5_GET(mkc, mk->mkc, free) &&
	       (fake_mkey_crypto(mk) || fake_mkey_has_bsf(mk));
}

enum fake_rdma_pass {
	FAKE_RDMA_CHECK,	/* plain SGEs, check only */
	FAKE_RDMA_ENGINE,	/* signature and crypto SGEs */
	FAKE_RDMA_PLAIN,	/* plain SGEs */
	FAKE_RDMA_ALL,		/* every SGE, in order */
};

static int fake_rdma_sges(struct fake_rdma *r, enum fake_rdma_pass pass)
{
	struct mlx5_umr_test_xfer_out out;
	unsigned int off;
	u64 pos = 0;
	int err;

	for (off = FAKE_RDMA_HDR; off + 16 <= r->size; off += 16) {
		const struct mlx5_wqe_data_seg *ds = (const void *)(r->wqe + off);
		u32 n = be32_to_cpu(ds->byte_count);
		u32 key = be32_to_cpu(ds->lkey);
		bool eng = fake_rdma_engine_key(r->fd, key);

		if (!n || (pass == FAKE_RDMA_ENGINE && !eng) ||
		    ((pass == FAKE_RDMA_CHECK || pass == FAKE_RDMA_PLAIN) &&
		     eng)) {
			pos += n;
			continue;
		}
		err = fake_xfer_key(r->fd, r->qp->pdn, key,
				    be64_to_cpu(ds->addr),
				    pass == FAKE_RDMA_CHECK ? NULL :
				    r->qp->rdma_buf + pos, n, !r->write, false,
				    &out);
		fake_rdma_sig_err(r, r->qp, &out);
		if (err)
			return fake_rdma_local_err(err);
		pos += n;
	}
	return 0;
}

/*
 * The local side: gather (WRITE) into or scatter (READ) out of the bounce
 * buffer. A scatter checks every plain SGE before it writes any, and runs
 * the signature and crypto SGEs (whose engines check before they copy)
 * before the plain ones: a refused SGE leaves the others unwritten, unless
 * a list holds two engine SGEs and the second is refused.
 */
static int fake_rdma_local(struct fake_rdma *r)
{
	int err;

	if (r->inl) {
		memcpy(r->qp->rdma_buf, r->inl, r->len);
		return 0;
	}
	if (r->write)
		return fake_rdma_sges(r, FAKE_RDMA_ALL);
	err = fake_rdma_sges(r, FAKE_RDMA_CHECK);
	if (!err)
		err = fake_rdma_sges(r, FAKE_RDMA_ENGINE);
	if (!err)
		err = fake_rdma_sges(r, FAKE_RDMA_PLAIN);
	return err;
}

/*
 * The responder: a QP of this fake, RC, in RTR or RTS. A NIC's requester
 * gets no answer from anything else (a responder in RST, INIT or ERR
 * drops the packet: Linux 6.1 rxe_recv.c check_type_state()) and retries
 * until retry_cnt runs out, IB_WC_RETRY_EXC_ERR (rxe_comp.c
 * rxe_completer(), mlx5: MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR,
 * Linux 6.1 drivers/infiniband/hw/mlx5/cq.c mlx5_handle_error_cqe()).
 */
static int fake_rdma_peer(struct fake_rdma *r)
{
	struct fake_qp *peer = xa_load(&r->fd->qps, r->qp->remote_qpn);
	u8 st;

	if (!peer || READ_ONCE(peer->dead) || peer->st != MLX5_QP_ST_RC)
		return RDMA_ERR(TRANSPORT_RETRY_EXC_ERR, RDMA_NO_PEER);
	st = READ_ONCE(peer->state);
	if (st != MLX5_QP_STATE_RTR && st != MLX5_QP_STATE_RTS)
		return RDMA_ERR(TRANSPORT_RETRY_EXC_ERR, RDMA_NO_PEER);
	r->peer = peer;
	return 0;
}

/*
 * The responder's access through the rkey. A refusal is a remote access
 * error on the requester (NAK, class C), and the responder goes to ERR
 * (fake_qp_peer_err()).
 */
static int fake_rdma_remote(struct fake_rdma *r)
{
	struct mlx5_umr_test_xfer_out out;
	int err;

	err = fake_xfer_key(r->fd, r->peer->pdn, r->rkey, r->raddr,
			    r->qp->rdma_buf, r->len, r->write, true, &out);
	fake_rdma_sig_err(r, r->peer, &out);
	if (!err)
		return 0;
	if (err == FAKE_X_NOMEM)
		return RDMA_ERR(LOCAL_QP_OP_ERR, RDMA_NOMEM);
	r->qp->peer_err = r->peer->qpn;
	return RDMA_ERR(REMOTE_ACCESS_ERR, RDMA_RKEY);
}

/**
 * fake_rdma_exec() - execute an RDMA WRITE or RDMA READ WQE
 * @fd: the fake
 * @qp: the requester, an RC QP in RTS (the engine runs no other state)
 * @wqe: the WQE, ctrl segment first
 * @size: ds * 16
 * @write: RDMA WRITE, else RDMA READ
 *
 * WRITE gathers the local SGEs first (a local error is found before a
 * packet is sent), then finds the responder and writes there; READ finds
 * the responder, reads there, then scatters. Nothing is written when a
 * check fails.
 *
 * Context: qp->lock and fd->lock held.
 * Return: 0 or fake_wqe_err(syndrome, vendor syndrome).
 */
int fake_rdma_exec(struct mlx5_umr_fake *fd, struct fake_qp *qp,
		   const u8 *wqe, unsigned int size, bool write)
{
	struct fake_rdma r = {
		.fd = fd, .qp = qp, .wqe = wqe, .size = size, .write = write,
	};
	int err;

	lockdep_assert_held(&qp->lock);
	lockdep_assert_held(&fd->lock);
	if (!qp->rdma_buf)
		return RDMA_ERR(LOCAL_QP_OP_ERR, RDMA_NOMEM);
	err = fake_rdma_parse(&r);
	if (err)
		return err;
	if (write) {
		err = fake_rdma_local(&r);
		if (err)
			return err;
	}
	err = fake_rdma_peer(&r);
	if (err)
		return err;
	err = fake_rdma_remote(&r);
	if (err || write)
		return err;
	err = fake_rdma_local(&r);
	qp->rdma_len = err ? 0 : r.len;
	return err;
}
