// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: device bring-up and teardown through command mailboxes.
 *
 * Everything here is what mlx5_ib does for its own UMR QP, written as raw
 * commands (like steering/dr_send.c) because mlx5_core does not export the
 * QP helpers: query caps, PD, UAR, CQ, and a REG_UMR QP moved to RTS.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/topology.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5_umr_ifc.h>

#include "umr.h"
#include "key_rotate.h"
#include "queue_map.h"
#include "xlt.h"

static unsigned int queues;
module_param(queues, uint, 0444);
MODULE_PARM_DESC(queues,
		 "UMR queues per device (0 = one per possible CPU, at most 64; capped by the HCA)");

/**
 * mlx5_umr_cmd() - execute one mailbox and log a firmware failure
 * @dev: the device
 * @in: input mailbox (mlx5_ifc layout)
 * @inlen: its size
 * @out: output mailbox
 * @outlen: its size
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno (-EREMOTEIO for a firmware error status).
 */
int mlx5_umr_cmd(struct mlx5_umr_dev *dev, const void *in, int inlen,
		 void *out, int outlen)
{
	struct mlx5_umr_hca *hca = dev->hca;
	int err;

	err = hca->ops->cmd_exec(hca, in, inlen, out, outlen);
	/* opcode, status and syndrome sit at the same place in every mailbox */
	if (err == -EREMOTEIO)
		dev_warn_ratelimited(hca->dev,
				     "umr: command 0x%x failed: status 0x%x syndrome 0x%x\n",
				     MLX5_GET(query_hca_cap_in, in, opcode),
				     MLX5_GET(alloc_pd_out, out, status),
				     MLX5_GET(alloc_pd_out, out, syndrome));
	return err;
}

/**
 * mlx5_umr_leak_buf() - keep, never free, a buffer the HCA may still use
 * @dev: the device
 * @what: the buffer, for the log
 *
 * A leak beats a use-after-free: after a failed reset or destroy the HCA
 * may still read or write the memory. Counted in @dev->leaked.
 */
void mlx5_umr_leak_buf(struct mlx5_umr_dev *dev, const char *what)
{
	atomic_inc(&dev->leaked);
	dev_err_ratelimited(dev->hca->dev,
			    "umr: keeping the %s: the HCA may still use it\n",
			    what);
}

/*
 * The fence of a WQE after a UMR. main.c mlx5_get_umr_fence() maps the
 * cap's NONE to no fence, but only for the UMR WQE itself: the WQE after
 * it always gets at least INITIATOR_SMALL (wr.c next_fence after a REG_MR,
 * umr.c posts every UMR with INITIATOR_SMALL, rdma-core sets fm_cache to
 * MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE after a UMR). Every WQE here follows
 * a UMR, so NONE is never used.
 */
static u8 mlx5_umr_fence_mode(u8 cap)
{
	switch (cap) {
	case MLX5_CAP_UMR_FENCE_NONE:
	case MLX5_CAP_UMR_FENCE_SMALL:
		return MLX5_FENCE_MODE_INITIATOR_SMALL;
	default:
		return MLX5_FENCE_MODE_STRONG_ORDERING;
	}
}

/*
 * The AES-XTS engine (Documentation/crypto.rst, "Device capabilities"):
 * rdma-core verbs.c get_hca_general_caps() takes single block from
 * aes_xts_single_block_le_tweak and multi block (big-endian tweak) from
 * aes_xts_multi_block_be_tweak; a multi-block engine that reads the tweak
 * little endian (aes_xts_multi_block_le_tweak) is taken as mlx5_ib's
 * posted mlx5r_crypto_caps_init() and SPDK take it. With both multi-block
 * bits the tweak goes big endian, as rdma-core writes it.
 */
static void mlx5_umr_crypto_engine(struct mlx5_umr_caps *caps,
				   const void *hcap)
{
	bool single = MLX5_GET(mlx5_umr_hca_cap_crypto, hcap,
			       aes_xts_single_block_le_tweak);
	bool mbe = MLX5_GET(mlx5_umr_hca_cap_crypto, hcap,
			    aes_xts_multi_block_be_tweak);
	bool mle = MLX5_GET(mlx5_umr_hca_cap_crypto, hcap,
			    aes_xts_multi_block_le_tweak);

	caps->crypto_tweak_be = mbe;
	if (mbe || mle)
		caps->crypto_engine = MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK;
	else if (single)
		caps->crypto_engine = MLX5_UMR_CRYPTO_ENGINE_SINGLE_BLOCK;
	else
		caps->crypto_engine = MLX5_UMR_CRYPTO_ENGINE_NONE;
}

/*
 * Crypto mkeys need cmd_hca_cap.crypto, ENCRYPTION_KEY objects, an AES-XTS
 * engine and plaintext import (rdma-core verbs.c _mlx5dv_dek_create() and
 * check_dek_import_method(); kTLS, IPsec and MACsec devices have
 * ENCRYPTION_KEY objects too). The crypto caps are read only with
 * cmd_hca_cap.crypto, as rdma-core does.
 */
static int mlx5_umr_query_crypto_caps(struct mlx5_umr_dev *dev,
				      const void *hcap)
{
	u32 in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {};
	int outlen = MLX5_ST_SZ_BYTES(query_hca_cap_out);
	struct mlx5_umr_caps *caps = &dev->caps;
	void *out, *ccap;
	int err;

	mlx5_umr_crypto_engine(caps, hcap);
	caps->crypto = false;
	if (!MLX5_GET(mlx5_umr_hca_cap_crypto, hcap, crypto) ||
	    !(MLX5_GET64(cmd_hca_cap, hcap, general_obj_types) &
	      MLX5_HCA_CAP_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY))
		return 0;
	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_UMR_CAP_CRYPTO << 1 | HCA_CAP_OPMOD_GET_CUR);
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, outlen);
	if (err) {
		/* as rdma-core's query_crypto_caps(): no crypto, not fatal */
		dev_warn(dev->hca->dev, "umr: no crypto caps (%d)\n", err);
		err = 0;
		goto out;
	}
	ccap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	caps->crypto_wrapped_import =
		!!(MLX5_GET(mlx5_umr_crypto_cap, ccap, wrapped_import_method) &
		   MLX5_UMR_CRYPTO_WRAPPED_IMPORT_AES_XTS);
	caps->crypto_synchronize_dek =
		MLX5_GET(mlx5_umr_crypto_cap, ccap, synchronize_dek);
	caps->crypto = caps->crypto_engine != MLX5_UMR_CRYPTO_ENGINE_NONE &&
		       !caps->crypto_wrapped_import;
out:
	kfree(out);
	return err;
}

/*
 * The most queues the HCA's QP and CQ tables take, keeping three quarters
 * of each for everything else (mlx5_ib, mlx5e); 0 when not reported.
 */
static unsigned int mlx5_umr_hca_max_queues(const void *hcap)
{
	unsigned int lqp = MLX5_GET(cmd_hca_cap, hcap, log_max_qp);
	unsigned int lcq = MLX5_GET(cmd_hca_cap, hcap, log_max_cq);
	unsigned int l = min(lqp, lcq);

	if (!lqp || !lcq)
		return 0;
	return 1U << (l > 2 ? l - 2 : 0);
}

static int mlx5_umr_query_caps(struct mlx5_umr_dev *dev,
			       unsigned int *max_queues)
{
	u32 in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {};
	int outlen = MLX5_ST_SZ_BYTES(query_hca_cap_out);
	struct mlx5_umr_caps *caps = &dev->caps;
	void *out, *hcap;
	u32 max_wqe;
	int err;

	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_SET_HCA_CAP_OP_MOD_GENERAL_DEVICE << 1 |
		 HCA_CAP_OPMOD_GET_CUR);
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, outlen);
	if (err)
		goto out;

	hcap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	caps->umr_fence =
		mlx5_umr_fence_mode(MLX5_GET(cmd_hca_cap, hcap, umr_fence));
	caps->umr_modify_entity_size_disabled =
		MLX5_GET(cmd_hca_cap, hcap, umr_modify_entity_size_disabled);
	caps->umr_modify_atomic_disabled =
		MLX5_GET(cmd_hca_cap, hcap, umr_modify_atomic_disabled);
	caps->umr_extended_translation_offset =
		MLX5_GET(cmd_hca_cap, hcap, umr_extended_translation_offset);
	caps->umr_indirect_mkey_disabled =
		MLX5_GET(cmd_hca_cap, hcap, umr_indirect_mkey_disabled);
	caps->atomic = MLX5_GET(cmd_hca_cap, hcap, atomic);
	caps->sig = MLX5_GET(cmd_hca_cap, hcap, sho);
	caps->sig_err_domain = MLX5_GET(mlx5_umr_hca_cap_sig, hcap,
					sigerr_domain_and_sig_type);
	err = mlx5_umr_query_crypto_caps(dev, hcap);
	if (err)
		goto out;
	caps->max_klm_entries =
		1U << MLX5_GET(cmd_hca_cap, hcap, log_max_klm_list_size);
	/*
	 * Entries after the ctrl, UMR ctrl and mkey segments of the largest
	 * WQE the SQ takes (mlx5_ib checks max_wqe_sz_sq, qp.c
	 * calc_sq_size(); en.h mlx5e_get_max_sq_wqebbs()); 0 is taken as
	 * not reported. A pointer-mode WQE must fit.
	 */
	max_wqe = MLX5_GET(cmd_hca_cap, hcap, max_wqe_sz_sq);
	if (!max_wqe || max_wqe > MLX5_UMR_WQE_MAX_SIZE)
		max_wqe = MLX5_UMR_WQE_MAX_SIZE;
	max_wqe = ALIGN_DOWN(max_wqe, MLX5_SEND_WQE_BB);
	if (max_wqe < MLX5_UMR_WQE_PTR_SIZE) {
		dev_err(dev->hca->dev, "umr: max_wqe_sz_sq %u is too small\n",
			max_wqe);
		err = -EOPNOTSUPP;
		goto out;
	}
	caps->max_inline_entries = (max_wqe - MLX5_UMR_WQE_HDR_SIZE) /
				   sizeof(struct mlx5_klm);
	dev->cqe_version = MLX5_GET(cmd_hca_cap, hcap, cqe_version);
	dev->log_max_qp_sz = MLX5_GET(cmd_hca_cap, hcap, log_max_qp_sz);
	*max_queues = mlx5_umr_hca_max_queues(hcap);
	/* As mlx5_get_qp_default_ts() for a QP without RoCE. */
	dev->ts_format = MLX5_GET(cmd_hca_cap, hcap, sq_ts_format) ?
		     MLX5_TIMESTAMP_FORMAT_DEFAULT :
		     MLX5_TIMESTAMP_FORMAT_FREE_RUNNING;
	if (!MLX5_GET(cmd_hca_cap, hcap, log_max_klm_list_size)) {
		dev_err(dev->hca->dev, "umr: HCA reports no KLM support\n");
		err = -EOPNOTSUPP;
	}
out:
	kfree(out);
	return err;
}

static int mlx5_umr_alloc_pd(struct mlx5_umr_dev *dev)
{
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	int err;

	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	dev->caps.pdn = MLX5_GET(alloc_pd_out, out, pd);
	return 0;
}

static void mlx5_umr_dealloc_pd(struct mlx5_umr_dev *dev)
{
	u32 out[MLX5_ST_SZ_DW(dealloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(dealloc_pd_in)] = {};
	bool kept;

	/* not while an mkey the HCA did not destroy is in it (pd.c) */
	mutex_lock(&dev->mkeys_lock);
	kept = mlx5_umr_pd_kept(dev, dev->caps.pdn);
	mutex_unlock(&dev->mkeys_lock);
	if (kept) {
		mlx5_umr_leak_buf(dev, "protection domain of a leaked mkey");
		return;
	}
	MLX5_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	MLX5_SET(dealloc_pd_in, in, pd, dev->caps.pdn);
	mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
}

/**
 * mlx5_umr_create_dma_mkey() - a local-only PA mkey over all memory
 * @dev: the device
 * @pdn: its PD: the service's, or a kernel PD of a PD queue (never one a
 *	user's QP can be in: the key reaches all of memory)
 * @key: set to its key
 *
 * The key through which the UMR data segment and scatterlist KLMs address
 * device (DMA) addresses: a PA mkey over the whole address space, local
 * read/write. mlx5_ib does the same (its local_dma_lkey is 0, "not
 * supported", so ib_alloc_pd() makes a DMA MR, mlx5_ib_get_dma_mr(), used
 * by umr.c mlx5r_umr_create_xlt() and mr.c mlx5_ib_sg_to_klms()), as does
 * steering/dr_send.c dr_create_mkey(). The firmware's reserved lkey
 * (QUERY_SPECIAL_CONTEXTS resd_lkey) is valid in a UMR pointer only with
 * cmd_hca_cap.umr_ptr_rlky (en_main.c) and has no in-tree user inside a
 * KLM.
 *
 * Context: process context, may sleep.
 * Return: 0 or the command's error.
 */
int mlx5_umr_create_dma_mkey(struct mlx5_umr_dev *dev, u32 pdn, u32 *key)
{
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_mkey_in)] = {};
	u8 variant = mlx5_umr_key_first();
	void *mkc;
	int err;

	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_PA);
	MLX5_SET(mkc, mkc, lw, 1);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, length64, 1);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, pd, pdn);
	MLX5_SET(mkc, mkc, mkey_7_0, variant);
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	*key = MLX5_GET(create_mkey_out, out, mkey_index) << 8 | variant;
	return 0;
}

/**
 * mlx5_umr_destroy_dma_mkey() - destroy a key of mlx5_umr_create_dma_mkey()
 * @dev: the device
 * @key: the key
 *
 * Context: process context, may sleep.
 * Return: 0, or the command's error (the key may still be live).
 */
int mlx5_umr_destroy_dma_mkey(struct mlx5_umr_dev *dev, u32 key)
{
	u32 out[MLX5_ST_SZ_DW(destroy_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};

	MLX5_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	MLX5_SET(destroy_mkey_in, in, mkey_index, key >> 8);
	return mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
}

static void mlx5_umr_fill_pas(const struct mlx5_umr_dma_buf *buf,
			      __be64 *pas)
{
	unsigned int i;

	for (i = 0; i < buf->npages; i++)
		pas[i] = cpu_to_be64(buf->pages[i]);
}

static int mlx5_umr_create_cq(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;
	const struct mlx5_umr_hca_ops *ops = dev->hca->ops;
	struct mlx5_umr_sq *sq = &q->sq;
	struct mlx5_cqe64 *cqe;
	void *in, *cqc;
	unsigned int i;
	int inlen, err;

	err = ops->alloc_dma_buf(dev->hca, sq->ncqe * sizeof(*cqe), q->node,
				 &q->cq_buf);
	if (err)
		return err;
	/* Hardware owns a CQE until it writes one: mark all invalid. */
	for (i = 0; i < sq->ncqe; i++) {
		cqe = (struct mlx5_cqe64 *)q->cq_buf.cpu + i;
		cqe->op_own = MLX5_CQE_INVALID << 4;
	}

	inlen = MLX5_ST_SZ_BYTES(create_cq_in) +
		MLX5_FLD_SZ_BYTES(create_cq_in, pas[0]) * q->cq_buf.npages;
	in = kzalloc(inlen, GFP_KERNEL);
	if (!in) {
		err = -ENOMEM;
		goto err_buf;
	}
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	/* cqe_sz 0: 64-byte CQEs */
	MLX5_SET(cqc, cqc, log_cq_size, ilog2(sq->ncqe));
	MLX5_SET(cqc, cqc, uar_page, dev->uar.index);
	MLX5_SET(cqc, cqc, log_page_size, PAGE_SHIFT - MLX5_ADAPTER_PAGE_SHIFT);
	MLX5_SET64(cqc, cqc, dbr_addr,
		   q->dbr.pages[0] + MLX5_UMR_CQ_DBR_OFFSET);
	mlx5_umr_fill_pas(&q->cq_buf,
			  (__be64 *)MLX5_ADDR_OF(create_cq_in, in, pas));

	q->cq.comp = mlx5_umr_cq_comp;
	q->cq.vector = q->vector;
	err = ops->create_cq(dev->hca, &q->cq, in, inlen);
	kfree(in);
	if (err)
		goto err_buf;
	return 0;

err_buf:
	ops->free_dma_buf(dev->hca, &q->cq_buf);
	return err;
}

/* Return: 0, or -errno with the CQE ring kept (the HCA may write it). */
static int mlx5_umr_destroy_cq(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;
	int err;

	err = dev->hca->ops->destroy_cq(dev->hca, &q->cq);
	/* No more events: the last deferred poll may still be queued. */
	cancel_work_sync(&q->poll_work);
	/* and the softirq poller a last event scheduled (waits for it) */
	if (IS_ENABLED(CONFIG_IRQ_POLL) && q->mode == MLX5_UMR_COMP_SOFTIRQ)
		irq_poll_disable(&q->iop);
	if (err)
		mlx5_umr_leak_buf(dev, "CQE ring");
	else
		dev->hca->ops->free_dma_buf(dev->hca, &q->cq_buf);
	return err;
}

static int mlx5_umr_create_qp(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;
	const struct mlx5_umr_hca_ops *ops = dev->hca->ops;
	u32 out[MLX5_ST_SZ_DW(create_qp_out)] = {};
	struct mlx5_umr_sq *sq = &q->sq;
	void *in, *qpc;
	int inlen, err;

	err = ops->alloc_dma_buf(dev->hca, sq->bbs * MLX5_SEND_WQE_BB, q->node,
				 &q->sq_buf);
	if (err)
		return err;

	inlen = MLX5_ST_SZ_BYTES(create_qp_in) +
		MLX5_FLD_SZ_BYTES(create_qp_in, pas[0]) * q->sq_buf.npages;
	in = kzalloc(inlen, GFP_KERNEL);
	if (!in) {
		err = -ENOMEM;
		goto err_buf;
	}
	MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_REG_UMR);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	/*
	 * qp.c leaves pd 0 for REG_UMR; ours is the PD of the PA mkey it
	 * reads, and of the PSVs its SET_PSV WQEs name (pd_queue.c)
	 */
	MLX5_SET(qpc, qpc, pd, q->pdn);
	/*
	 * Every queue rings through the one UAR page: a send doorbell is one
	 * 64-bit write naming the QPN (and a CQ arm one naming the CQN),
	 * which the HCA takes whole, so writes of two queues on two CPUs
	 * cannot mix; mlx5_core shares its UAR page among all its kernel
	 * CQs the same way (eq.c, en_main.c uar_page).
	 */
	MLX5_SET(qpc, qpc, uar_page, dev->uar.index);
	MLX5_SET(qpc, qpc, log_page_size, PAGE_SHIFT - MLX5_ADAPTER_PAGE_SHIFT);
	/* Fast registration and the reserved lkey, as for every kernel QP. */
	MLX5_SET(qpc, qpc, fre, 1);
	MLX5_SET(qpc, qpc, rlky, 1);
	MLX5_SET(qpc, qpc, latency_sensitive, 1);
	MLX5_SET(qpc, qpc, cqn_snd, q->cq.cqn);
	MLX5_SET(qpc, qpc, cqn_rcv, q->cq.cqn);
	MLX5_SET(qpc, qpc, rq_type, MLX5_ZERO_LEN_RQ);
	MLX5_SET(qpc, qpc, log_sq_size, ilog2(sq->bbs));
	MLX5_SET(qpc, qpc, ts_format, dev->ts_format);
	MLX5_SET64(qpc, qpc, dbr_addr, q->dbr.pages[0]);
	if (dev->cqe_version == 1)
		MLX5_SET(qpc, qpc, user_index, 0xffffff);
	mlx5_umr_fill_pas(&q->sq_buf,
			  (__be64 *)MLX5_ADDR_OF(create_qp_in, in, pas));

	err = mlx5_umr_cmd(dev, in, inlen, out, sizeof(out));
	kfree(in);
	if (err)
		goto err_buf;
	sq->qpn = MLX5_GET(create_qp_out, out, qpn);
	return 0;

err_buf:
	ops->free_dma_buf(dev->hca, &q->sq_buf);
	return err;
}

/* Return: 0, or -errno with the ring kept (the HCA may still read it). */
static int mlx5_umr_destroy_qp(struct mlx5_umr_queue *q)
{
	u32 out[MLX5_ST_SZ_DW(destroy_qp_out)] = {};
	u32 in[MLX5_ST_SZ_DW(destroy_qp_in)] = {};
	struct mlx5_umr_dev *dev = q->dev;
	int err;

	MLX5_SET(destroy_qp_in, in, opcode, MLX5_CMD_OP_DESTROY_QP);
	MLX5_SET(destroy_qp_in, in, qpn, q->sq.qpn);
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err) {
		mlx5_umr_leak_buf(dev, "send queue ring");
		return err;
	}
	dev->hca->ops->free_dma_buf(dev->hca, &q->sq_buf);
	return 0;
}

/**
 * mlx5_umr_qp_modify() - one state transition of a queue's UMR QP
 * @q: the queue
 * @opcode: MLX5_CMD_OP_2RST_QP, _2ERR_QP, _RST2INIT_QP, _INIT2RTR_QP or
 *	_RTR2RTS_QP
 *
 * All transition mailboxes share the qpn field position; the ones that
 * carry a QP context get the fields mlx5_ib sets for a REG_UMR QP.
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno.
 */
int mlx5_umr_qp_modify(struct mlx5_umr_queue *q, u16 opcode)
{
	u32 in[MLX5_ST_SZ_DW(rst2init_qp_in)] = {};
	u32 out[MLX5_ST_SZ_DW(rst2init_qp_out)] = {};
	void *qpc = MLX5_ADDR_OF(rst2init_qp_in, in, qpc);
	int inlen = sizeof(in);

	BUILD_BUG_ON(MLX5_ST_SZ_BYTES(rst2init_qp_in) !=
		     MLX5_ST_SZ_BYTES(init2rtr_qp_in));
	BUILD_BUG_ON(MLX5_ST_SZ_BYTES(rst2init_qp_in) !=
		     MLX5_ST_SZ_BYTES(rtr2rts_qp_in));

	switch (opcode) {
	case MLX5_CMD_OP_2RST_QP:
		inlen = MLX5_ST_SZ_BYTES(qp_2rst_in);
		break;
	case MLX5_CMD_OP_2ERR_QP:
		inlen = MLX5_ST_SZ_BYTES(qp_2err_in);
		break;
	case MLX5_CMD_OP_RST2INIT_QP:
		MLX5_SET(qpc, qpc, pm_state, MLX5_QPC_PM_STATE_MIGRATED);
		MLX5_SET(qpc, qpc, primary_address_path.vhca_port_num, 1);
		break;
	case MLX5_CMD_OP_INIT2RTR_QP:
		MLX5_SET(qpc, qpc, mtu, MLX5_QPC_MTU_4K_BYTES);
		MLX5_SET(qpc, qpc, log_msg_max, 12);
		break;
	case MLX5_CMD_OP_RTR2RTS_QP:
		break;
	default:
		return -EINVAL;
	}
	MLX5_SET(rst2init_qp_in, in, opcode, opcode);
	MLX5_SET(rst2init_qp_in, in, qpn, q->sq.qpn);
	return mlx5_umr_cmd(q->dev, in, inlen, out, sizeof(out));
}

/**
 * mlx5_umr_qp_to_rts() - move a queue's UMR QP from RESET to RTS
 * @q: the queue
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno.
 */
int mlx5_umr_qp_to_rts(struct mlx5_umr_queue *q)
{
	int err;

	err = mlx5_umr_qp_modify(q, MLX5_CMD_OP_RST2INIT_QP);
	if (!err)
		err = mlx5_umr_qp_modify(q, MLX5_CMD_OP_INIT2RTR_QP);
	if (!err)
		err = mlx5_umr_qp_modify(q, MLX5_CMD_OP_RTR2RTS_QP);
	return err;
}

/* The first CPU that posts on queue @id, -1 for none. */
static int mlx5_umr_queue_cpu(const struct mlx5_umr_dev *dev, u16 id)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (dev->cpu_q[cpu] == id)
			return cpu;
	return -1;
}

/**
 * mlx5_umr_queue_free() - free what mlx5_umr_queue_alloc_on() allocated
 * @q: the queue, torn down (mlx5_umr_queue_cleanup()) or never brought
 *	up; or NULL
 */
void mlx5_umr_queue_free(struct mlx5_umr_queue *q)
{
	if (!q)
		return;
	kfree(q->sq.scratch);
	kfree(q->sq.ents);
	kfree(q);
}

/**
 * mlx5_umr_queue_alloc_on() - a queue's memory and work items; nothing on
 *	the HCA yet
 * @dev: the device
 * @id: its index in @dev->queues (0 for a channel)
 * @cpu: the CPU whose node holds its memory, -1 for the HCA's node
 * @vector: the completion vector its CQ asks for
 * @bbs: ring size in basic blocks, a power of two of at least 64; the CQ
 *	gets half as many CQEs (every WQE takes two blocks or more)
 *
 * Context: process context, may sleep.
 * Return: the queue (mode MLX5_UMR_COMP_IRQ), or NULL.
 */
struct mlx5_umr_queue *mlx5_umr_queue_alloc_on(struct mlx5_umr_dev *dev,
					       u16 id, int cpu, int vector,
					       u32 bbs)
{
	int node = cpu >= 0 ? cpu_to_node(cpu) : dev->hca->numa_node;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_sq *sq;

	/* posted on by the CPUs of @node: its bookkeeping lives there */
	q = kzalloc_node(sizeof(*q), GFP_KERNEL, node);
	if (!q)
		return NULL;
	q->dev = dev;
	q->id = id;
	q->cpu = cpu;
	q->node = node;
	q->vector = vector;
	q->mode = MLX5_UMR_COMP_IRQ;
	INIT_LIST_HEAD(&q->chan);
	mutex_init(&q->recover_lock);
	INIT_WORK(&q->recover_work, mlx5_umr_recover_work);
	INIT_WORK(&q->poll_work, mlx5_umr_poll_work);
	INIT_DELAYED_WORK(&q->watchdog, mlx5_umr_watchdog);
	mlx5_umr_sq_init(q);
	sq = &q->sq;
	sq->bbs = bbs;
	sq->ncqe = bbs / 2;
	sq->ents = kcalloc_node(sq->bbs, sizeof(*sq->ents), GFP_KERNEL, node);
	sq->scratch = kzalloc_node(MLX5_SEND_WQE_MAX_SIZE, GFP_KERNEL, node);
	if (!sq->ents || !sq->scratch) {
		mlx5_umr_queue_free(q);
		return NULL;
	}
	return q;
}

/* Device queue @id: one vector per queue, so completions land near its CPUs. */
static struct mlx5_umr_queue *mlx5_umr_queue_alloc(struct mlx5_umr_dev *dev,
						   u16 id)
{
	return mlx5_umr_queue_alloc_on(dev, id, mlx5_umr_queue_cpu(dev, id),
				       id, 1U << MLX5_UMR_LOG_SQ_BBS);
}

/**
 * mlx5_umr_queues_free() - free the queues mlx5_umr_dev_init() allocated
 * @dev: the device, its queues torn down (mlx5_umr_dev_cleanup()) or never
 *	brought up
 *
 * The structures live as long as the device structure: an mkey's home
 * queue (mlx5_umr_mkey_priv.q) is read until the mkey is freed.
 */
void mlx5_umr_queues_free(struct mlx5_umr_dev *dev)
{
	u16 i;

	for (i = 0; i < dev->nqueues; i++)
		mlx5_umr_queue_free(dev->queues[i]);
	kfree(dev->queues);
	dev->queues = NULL;
	dev->nqueues = 0;
	kfree(dev->cpu_q);
	dev->cpu_q = NULL;
}

/*
 * @nqueues queues and the map of CPUs onto them; nothing on the HCA yet.
 * Return: 0 or -errno with nothing allocated.
 */
static int mlx5_umr_queues_alloc(struct mlx5_umr_dev *dev, u16 nqueues)
{
	int ret;
	u16 i;

	dev->cpu_q = kcalloc(nr_cpu_ids, sizeof(*dev->cpu_q), GFP_KERNEL);
	dev->queues = kcalloc(nqueues, sizeof(*dev->queues), GFP_KERNEL);
	if (!dev->cpu_q || !dev->queues)
		goto err;
	ret = mlx5_umr_queue_map(dev->cpu_q, nqueues);
	if (ret < 0) {
		mlx5_umr_queues_free(dev);
		return ret;
	}
	dev->nqueues = nqueues;
	for (i = 0; i < nqueues; i++) {
		dev->queues[i] = mlx5_umr_queue_alloc(dev, i);
		if (!dev->queues[i])
			goto err;
	}
	return 0;

err:
	mlx5_umr_queues_free(dev);
	return -ENOMEM;
}

/**
 * mlx5_umr_queue_init() - doorbell records, CQ and QP of a queue, the QP in
 *	RTS and the CQ armed (unless polled)
 * @q: from mlx5_umr_queue_alloc_on(), its mode set, on a device whose
 *	PD, DMA mkey and UAR exist
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno with nothing left on the HCA (or its memory kept).
 */
int mlx5_umr_queue_init(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;
	const struct mlx5_umr_hca_ops *ops = dev->hca->ops;
	struct mlx5_umr_sq *sq = &q->sq;
	bool keep = false;
	int err;

	/* a PD queue set both; the others are in the service's PD */
	if (!q->pdq) {
		q->pdn = dev->caps.pdn;
		q->wq_ctx.ptr_lkey = dev->caps.dma_lkey;
	}
	err = ops->alloc_dma_buf(dev->hca, PAGE_SIZE, q->node, &q->dbr);
	if (err)
		return err;
	err = mlx5_umr_create_cq(q);
	if (err)
		goto err_dbr;
	err = mlx5_umr_create_qp(q);
	if (err)
		goto err_cq;
	q->wq_ctx.caps = &dev->caps;
	q->wq_ctx.qpn = sq->qpn;

	err = mlx5_umr_qp_to_rts(q);
	if (err)
		goto err_qp;
	mlx5_umr_cq_arm(q);
	spin_lock_irq(&sq->lock);
	sq->state = MLX5_UMR_SQ_RTS;
	spin_unlock_irq(&sq->lock);
	return 0;

err_qp:
	keep = mlx5_umr_destroy_qp(q);
err_cq:
	keep = mlx5_umr_destroy_cq(q) || keep;
err_dbr:
	/* A QP or CQ still on the HCA may write its doorbell record. */
	if (keep)
		mlx5_umr_leak_buf(dev, "doorbell records");
	else
		ops->free_dma_buf(dev->hca, &q->dbr);
	return err;
}

/**
 * mlx5_umr_queue_cleanup() - undo mlx5_umr_queue_init()
 * @q: the queue, stopped (mlx5_umr_sq_stop()), nothing in flight
 *
 * Memory of a QP or CQ the HCA did not destroy is kept.
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_queue_cleanup(struct mlx5_umr_queue *q)
{
	struct mlx5_umr_dev *dev = q->dev;
	int err;

	err = mlx5_umr_destroy_qp(q);
	err = mlx5_umr_destroy_cq(q) ?: err;
	if (err)
		mlx5_umr_leak_buf(dev, "doorbell records");
	else
		dev->hca->ops->free_dma_buf(dev->hca, &q->dbr);
	kfree(q->sq.scratch);
	q->sq.scratch = NULL;
	kfree(q->sq.ents);
	q->sq.ents = NULL;
}

/**
 * mlx5_umr_dev_init() - bring up the UMR resources of a device
 * @dev: a device with @hca set
 *
 * Context: process context, may sleep.
 * Return: 0 with every queue's QP in RTS, or -errno with nothing left
 * allocated.
 */
int mlx5_umr_dev_init(struct mlx5_umr_dev *dev)
{
	const struct mlx5_umr_hca_ops *ops = dev->hca->ops;
	unsigned int max_queues = 0;
	u16 i;
	int err;

	xa_init(&dev->kept_pds);
	err = mlx5_umr_query_caps(dev, &max_queues);
	if (err)
		return err;
	dev->caps.nqueues = mlx5_umr_queue_count(dev->hca->nqueues ?: queues,
						 max_queues);
	err = mlx5_umr_queues_alloc(dev, dev->caps.nqueues);
	if (err)
		return err;

	err = mlx5_umr_alloc_pd(dev);
	if (err)
		goto err_mem;
	err = mlx5_umr_create_dma_mkey(dev, dev->caps.pdn, &dev->caps.dma_lkey);
	if (err)
		goto err_pd;
	err = ops->alloc_uar(dev->hca, &dev->uar);
	if (err)
		goto err_mkey;
	for (i = 0; i < dev->nqueues; i++) {
		err = mlx5_umr_queue_init(dev->queues[i]);
		if (err)
			goto err_queues;
	}
	return 0;

err_queues:
	while (i--) {
		mlx5_umr_sq_stop(dev->queues[i]);
		mlx5_umr_queue_cleanup(dev->queues[i]);
	}
	ops->free_uar(dev->hca, &dev->uar);
err_mkey:
	mlx5_umr_destroy_dma_mkey(dev, dev->caps.dma_lkey);
err_pd:
	mlx5_umr_dealloc_pd(dev);
err_mem:
	mlx5_umr_queues_free(dev);
	return err;
}

/**
 * mlx5_umr_dev_cleanup() - tear down what mlx5_umr_dev_init() built
 * @dev: the device; nothing may be in flight, every queue stopped
 *	(mlx5_umr_sq_stop())
 *
 * Memory of a QP or CQ the HCA did not destroy is kept, not freed. The
 * queue structures stay until mlx5_umr_queues_free().
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_dev_cleanup(struct mlx5_umr_dev *dev)
{
	u16 i = dev->nqueues;

	while (i--)
		mlx5_umr_queue_cleanup(dev->queues[i]);
	dev->hca->ops->free_uar(dev->hca, &dev->uar);
	mlx5_umr_destroy_dma_mkey(dev, dev->caps.dma_lkey);
	mlx5_umr_dealloc_pd(dev);
	xa_destroy(&dev->kept_pds);
}
