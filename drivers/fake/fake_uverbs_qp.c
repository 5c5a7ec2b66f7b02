// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA as an mlx5_ib user device: user RC QPs.
 *
 * As mlx5_ib (Linux 6.1 drivers/infiniband/hw/mlx5/qp.c
 * mlx5_ib_create_qp(), create_user_qp(), _create_user_qp()): the
 * library's send ring and doorbell record stay in its memory, pinned and
 * given to the HCA by CREATE_QP (PAS and dbr_addr, device addresses of
 * the fake's IOMMU), st RC, on the UAR page the library names
 * (MLX5_QP_FLAG_UAR_PAGE_INDEX), with the library's user_index for CQE
 * version 1. The send queue is executed by the fake's WQE engine, as the
 * service's are. Only what a send-only RC QP needs (rdma-core v44.0
 * providers/mlx5 verbs.c create_qp() for mlx5dv_create_qp()): a receive
 * queue of length 0, no SRQ, no create flags.
 *
 * Doorbells: the UAR page is ordinary memory, so a library's doorbell
 * (qp.c post_send_db(): the record's send counter, then the first eight
 * bytes of the last WQE at MLX5_BF_OFFSET of the UAR page) causes no
 * trap. A poller (a delayed work, queued only while user QPs exist, one
 * jiffy apart while doorbells come and backing off when none do) reads
 * each QP's record and turns a new send counter into the fake's
 * write_db with what the library wrote to the UAR page.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/mlx5/qp.h>
#include <rdma/mlx5-abi.h>
#include <rdma/ib_verbs.h>

#include "fake_uverbs.h"

/*
 * mlx5_ib's private numbers (Linux 6.1 mlx5_ib.h): the user index of "CQE
 * version 0", the user index's width (qpc.user_index), the response's
 * "no bfreg", and MLX5_CQE_VERSION_V1.
 */
#define FUV_DEFAULT_UIDX	0xffffff
#define FUV_UIDX_MASK		__mlx5_mask(qpc, user_index)
#define FUV_INVALID_BFREG	BIT(31)
#define FUV_CQE_VERSION_V1	1

/* idle polls before the poller slows down, and its slow period */
#define FUV_DB_BUSY_POLLS	256
#define FUV_DB_IDLE_MS		20

static struct fuv_qp *to_fuv_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct fuv_qp, ibqp);
}

static u16 fuv_qp_read_pi(struct fuv_qp *qp)
{
	__be32 *rec = kmap_local_page(sg_page(qp->db.sgt.sgl));
	u32 v = be32_to_cpu(READ_ONCE(rec[(qp->db_off / 4) + MLX5_SND_DBR]));

	kunmap_local(rec);
	return v & 0xffff;
}

/*
 * The send doorbell the library wrote to the UAR page; when it names
 * another QP (the page is shared by a context's QPs, and the poller sees
 * only the last write) the doorbell of this QP is rebuilt from its record,
 * in the layout post_send_db() writes: the counter in the WQE index
 * field, the QP number above the ds count.
 */
static void fuv_qp_db_val(struct fuv_qp *qp, u16 pi, __be32 val[2])
{
	const __be32 *reg = page_address(qp->uar->page) + MLX5_BF_OFFSET;

	val[0] = READ_ONCE(reg[0]);
	val[1] = READ_ONCE(reg[1]);
	if (be32_to_cpu(val[1]) >> MLX5_WQE_CTRL_QPN_SHIFT == qp->ibqp.qp_num)
		return;
	val[0] = cpu_to_be32((u32)pi << MLX5_WQE_CTRL_WQE_INDEX_SHIFT);
	val[1] = cpu_to_be32(qp->ibqp.qp_num << MLX5_WQE_CTRL_QPN_SHIFT);
}

static void fuv_db_poll(struct work_struct *work)
{
	struct fuv_dev *dev = container_of(to_delayed_work(work),
					   struct fuv_dev, db_poll);
	unsigned long delay = 1;
	struct fuv_qp *qp;
	bool rang = false;

	spin_lock(&dev->db_lock);
	list_for_each_entry(qp, &dev->db_qps, node) {
		u16 pi = fuv_qp_read_pi(qp);
		__be32 val[2];

		if (pi == qp->last_pi)
			continue;
		qp->last_pi = pi;
		rang = true;
		fuv_qp_db_val(qp, pi, val);
		/* executes the WQEs and writes their CQEs before returning */
		dev->hca->ops->write_db(dev->hca, &qp->uar->uar,
					MLX5_BF_OFFSET, val);
	}
	dev->db_idle = rang ? 0 : dev->db_idle + 1;
	if (dev->db_idle > FUV_DB_BUSY_POLLS)
		delay = msecs_to_jiffies(FUV_DB_IDLE_MS);
	if (!list_empty(&dev->db_qps))
		queue_delayed_work(system_wq, &dev->db_poll, delay);
	spin_unlock(&dev->db_lock);
}

static void fuv_db_add(struct fuv_dev *dev, struct fuv_qp *qp)
{
	spin_lock(&dev->db_lock);
	list_add_tail(&qp->node, &dev->db_qps);
	dev->db_idle = 0;
	mod_delayed_work(system_wq, &dev->db_poll, 0);
	spin_unlock(&dev->db_lock);
}

/* After this the poller no longer touches @qp's pages. */
static void fuv_db_del(struct fuv_dev *dev, struct fuv_qp *qp)
{
	spin_lock(&dev->db_lock);
	list_del(&qp->node);
	spin_unlock(&dev->db_lock);
}

/**
 * fuv_db_init() - set up the doorbell poller of a device
 * @dev: the device
 */
void fuv_db_init(struct fuv_dev *dev)
{
	spin_lock_init(&dev->db_lock);
	INIT_LIST_HEAD(&dev->db_qps);
	INIT_DELAYED_WORK(&dev->db_poll, fuv_db_poll);
}

/**
 * fuv_db_fini() - stop the poller (every QP is destroyed by now)
 * @dev: the device
 */
void fuv_db_fini(struct fuv_dev *dev)
{
	cancel_delayed_work_sync(&dev->db_poll);
}

/*
 * qp.c process_vendor_flags(): the flags mlx5_ib knows; anything else
 * (and what it knows only with a capability the fake lacks:
 * DCI_STREAM, PACKET_BASED_CREDIT_MODE, the RSS/raw-packet ones) is
 * -EINVAL. Scatter-to-CQE without the sctr_data_cqe cap is dropped
 * silently, as mlx5_ib does. What mlx5_ib would honour but the fake does
 * not model (DC types, WQ signature, scatter-to-CQE with the cap) is
 * -EOPNOTSUPP.
 */
static int fuv_qp_vendor_flags(struct fuv_dev *dev, u32 flags)
{
	const u32 known = MLX5_QP_FLAG_SIGNATURE | MLX5_QP_FLAG_SCATTER_CQE |
			  MLX5_QP_FLAG_ALLOW_SCATTER_CQE |
			  MLX5_QP_FLAG_TYPE_DCI | MLX5_QP_FLAG_TYPE_DCT |
			  MLX5_QP_FLAG_BFREG_INDEX |
			  MLX5_QP_FLAG_UAR_PAGE_INDEX;
	const u32 scat = MLX5_QP_FLAG_SCATTER_CQE |
			 MLX5_QP_FLAG_ALLOW_SCATTER_CQE;

	if (flags & ~known)
		return -EINVAL;
	if (!FUV_CAP(dev, sctr_data_cqe))
		flags &= ~scat;
	if (flags & (scat | MLX5_QP_FLAG_SIGNATURE | MLX5_QP_FLAG_TYPE_DCI |
		     MLX5_QP_FLAG_TYPE_DCT))
		return -EOPNOTSUPP;
	/*
	 * _create_user_qp(): the UAR by page_id (dynamic UARs), not both;
	 * a context with dynamic UARs has no static bfregs to name
	 * (bfregn_to_uar_index(), alloc_bfreg(): -EINVAL).
	 */
	if ((flags & (MLX5_QP_FLAG_BFREG_INDEX | MLX5_QP_FLAG_UAR_PAGE_INDEX)) !=
	    MLX5_QP_FLAG_UAR_PAGE_INDEX)
		return -EINVAL;
	return 0;
}

/*
 * mlx5_ib_create_qp() through create_user_qp(): the checks of the request
 * in mlx5_ib's order, each with its errno.
 */
static int fuv_qp_check(struct fuv_dev *dev, struct fuv_ucontext *ctx,
			struct ib_qp_init_attr *attr,
			const struct mlx5_ib_create_qp *ucmd)
{
	u32 max_wr = 1U << FUV_CAP(dev, log_max_qp_sz);
	int err;

	err = fuv_qp_vendor_flags(dev, ucmd->flags);
	if (err)
		return err;
	/* mlx5_ib.h get_qp_user_index(), verify_assign_uidx() */
	if (ctx->cqe_version ?
	    ucmd->uidx == FUV_DEFAULT_UIDX || (ucmd->uidx & ~FUV_UIDX_MASK) :
	    ucmd->uidx != FUV_DEFAULT_UIDX)
		return -EINVAL;
	/* process_create_flags(): none of them has its cap on the fake */
	if (attr->create_flags)
		return -EOPNOTSUPP;
	/* set_rq_size() */
	if (attr->cap.max_recv_wr > max_wr)
		return -EINVAL;
	if (ucmd->rq_wqe_shift >= 31)
		return -EINVAL;
	/*
	 * No receive engine and no SRQs: only the zero-length receive
	 * queue (rq_wqe_count 0, get_rx_type(): MLX5_ZERO_LEN_RQ).
	 */
	if (attr->srq || ucmd->rq_wqe_count)
		return -EOPNOTSUPP;
	/* create_user_qp(), set_user_buf_size() */
	if (ucmd->sq_wqe_count > max_wr ||
	    (ucmd->sq_wqe_count && !is_power_of_2(ucmd->sq_wqe_count)))
		return -EINVAL;
	/*
	 * A QP without send queue (no_sq) has nothing for the engine; a ring
	 * not at a page start needs page_offset, which the fake's CREATE_QP
	 * does not model (libmlx5 allocates rings page-aligned).
	 */
	if (!ucmd->sq_wqe_count || (ucmd->buf_addr & ~PAGE_MASK))
		return -EOPNOTSUPP;
	return 0;
}

static int fuv_qp_cmd(struct fuv_dev *dev, struct fuv_qp *qp,
		      struct ib_qp_init_attr *attr,
		      const struct mlx5_ib_create_qp *ucmd)
{
	u32 out[MLX5_ST_SZ_DW(create_qp_out)] = {};
	unsigned int npas = fuv_umem_npages(&qp->buf);
	__be64 dbr;
	void *in, *qpc;
	size_t inlen;
	int err;

	inlen = MLX5_ST_SZ_BYTES(create_qp_in) + (size_t)npas * 8;
	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	fuv_umem_pas(&qp->buf, MLX5_ADDR_OF(create_qp_in, in, pas));
	fuv_umem_pas(&qp->db, &dbr);
	MLX5_SET(create_qp_in, in, opcode, MLX5_CMD_OP_CREATE_QP);
	qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
	MLX5_SET(qpc, qpc, st, MLX5_QP_ST_RC);
	MLX5_SET(qpc, qpc, pm_state, MLX5_QP_PM_MIGRATED);
	MLX5_SET(qpc, qpc, pd, to_fuv_pd(qp->ibqp.pd)->pdn);
	MLX5_SET(qpc, qpc, uar_page, qp->uar->uar.index);
	MLX5_SET(qpc, qpc, log_page_size, PAGE_SHIFT - MLX5_ADAPTER_PAGE_SHIFT);
	MLX5_SET(qpc, qpc, log_sq_size, ilog2(ucmd->sq_wqe_count));
	MLX5_SET(qpc, qpc, rq_type, MLX5_ZERO_LEN_RQ);
	MLX5_SET(qpc, qpc, cqn_snd,
		 container_of(attr->send_cq, struct fuv_cq, ibcq)->cqn);
	if (attr->recv_cq)
		MLX5_SET(qpc, qpc, cqn_rcv,
			 container_of(attr->recv_cq, struct fuv_cq, ibcq)->cqn);
	MLX5_SET64(qpc, qpc, dbr_addr, be64_to_cpu(dbr) + qp->db_off);
	/* create_user_qp(): with the cap's CQE version 1 */
	if (FUV_CAP(dev, cqe_version) == FUV_CQE_VERSION_V1)
		MLX5_SET(qpc, qpc, user_index, ucmd->uidx);
	err = fuv_cmd(dev, in, inlen, out, sizeof(out));
	kvfree(in);
	if (err)
		return err;
	qp->ibqp.qp_num = MLX5_GET(create_qp_out, out, qpn);
	return 0;
}

static int fuv_destroy_qpn(struct fuv_dev *dev, u32 qpn)
{
	u32 out[MLX5_ST_SZ_DW(destroy_qp_out)] = {};
	u32 in[MLX5_ST_SZ_DW(destroy_qp_in)] = {};

	MLX5_SET(destroy_qp_in, in, opcode, MLX5_CMD_OP_DESTROY_QP);
	MLX5_SET(destroy_qp_in, in, qpn, qpn);
	return fuv_cmd(dev, in, sizeof(in), out, sizeof(out));
}

/**
 * fuv_create_qp() - &ib_device_ops.create_qp
 * @ibqp: the QP the RDMA core allocated (its PD set)
 * @attr: type, CQs, sizes, flags
 * @udata: struct mlx5_ib_create_qp, and room for the response
 *
 * Return: 0 or -errno (mlx5_ib's for a request it refuses).
 */
int fuv_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		  struct ib_udata *udata)
{
	struct fuv_dev *dev = to_fuv_dev(ibqp->device);
	struct fuv_qp *qp = to_fuv_qp(ibqp);
	struct mlx5_ib_create_qp_resp resp = {};
	struct mlx5_ib_create_qp ucmd = {};
	struct fuv_ucontext *ctx;
	size_t min_inlen = offsetof(struct mlx5_ib_create_qp, ece_options);
	size_t last = offsetof(struct mlx5_ib_create_qp, reserved);
	int err;

	/* QPs of kernel consumers are not modelled */
	if (!udata)
		return -EOPNOTSUPP;
	ctx = rdma_udata_to_drv_context(udata, struct fuv_ucontext, ibuc);
	/*
	 * check_qp_type() knows more types; the fake models RC only (the
	 * QP rdma-core's mkey WRs are posted on), as mlx5_ib refuses what
	 * its device cannot do: -EOPNOTSUPP.
	 */
	if (attr->qp_type != IB_QPT_RC)
		return -EOPNOTSUPP;
	/* check_valid_flow(): an indirection table only for raw packet */
	if (attr->rwq_ind_tbl)
		return -EINVAL;
	/* process_udata_size(), check_ucmd_data() */
	if (udata->inlen < min_inlen)
		return -EINVAL;
	if (udata->inlen > last &&
	    !ib_is_udata_cleared(udata, last, udata->inlen - last))
		return -EINVAL;
	if (ib_copy_from_udata(&ucmd, udata, min(udata->inlen, sizeof(ucmd))))
		return -EFAULT;
	err = fuv_qp_check(dev, ctx, attr, &ucmd);
	if (err)
		return err;

	/* _create_user_qp(): the UAR page id is the fake's UAR index */
	qp->uar = fuv_uar_get(dev, &ctx->ibuc, ucmd.bfreg_index);
	if (!qp->uar)
		return -EINVAL;
	err = fuv_umem_get(dev, &qp->buf, ucmd.buf_addr,
			   (size_t)ucmd.sq_wqe_count * MLX5_SEND_WQE_BB, 0);
	if (err)
		goto err_uar;
	/* main.c mlx5_ib_db_map_user(): the record's page */
	err = fuv_umem_get(dev, &qp->db, ucmd.db_addr & PAGE_MASK, PAGE_SIZE,
			   IB_ACCESS_LOCAL_WRITE);
	if (err)
		goto err_buf;
	qp->db_off = ucmd.db_addr & ~PAGE_MASK;
	err = fuv_qp_cmd(dev, qp, attr, &ucmd);
	if (err)
		goto err_db;

	/* a bfreg by page id: none to return (mlx5_ib's MLX5_IB_INVALID_BFREG) */
	resp.bfreg_index = FUV_INVALID_BFREG;
	err = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (err)
		goto err_cmd;
	qp->state = IB_QPS_RESET;
	qp->last_pi = fuv_qp_read_pi(qp);
	fuv_db_add(dev, qp);
	return 0;

err_cmd:
	fuv_destroy_qpn(dev, ibqp->qp_num);
err_db:
	fuv_umem_put(dev, &qp->db);
err_buf:
	fuv_umem_put(dev, &qp->buf);
err_uar:
	fuv_uar_put(qp->uar);
	return err;
}

/*
 * The fake's transition command from @cur to @new and its length, or 0
 * for none.
 */
static u16 fuv_qp_transition(enum ib_qp_state cur, enum ib_qp_state new,
			     int *inlen)
{
	if (new == IB_QPS_RESET) {
		*inlen = MLX5_ST_SZ_BYTES(qp_2rst_in);
		return MLX5_CMD_OP_2RST_QP;
	}
	if (new == IB_QPS_ERR) {
		*inlen = MLX5_ST_SZ_BYTES(qp_2err_in);
		return MLX5_CMD_OP_2ERR_QP;
	}
	if (cur == IB_QPS_RESET && new == IB_QPS_INIT) {
		*inlen = MLX5_ST_SZ_BYTES(rst2init_qp_in);
		return MLX5_CMD_OP_RST2INIT_QP;
	}
	if (cur == IB_QPS_INIT && new == IB_QPS_RTR) {
		*inlen = MLX5_ST_SZ_BYTES(init2rtr_qp_in);
		return MLX5_CMD_OP_INIT2RTR_QP;
	}
	if (cur == IB_QPS_RTR && new == IB_QPS_RTS) {
		*inlen = MLX5_ST_SZ_BYTES(rtr2rts_qp_in);
		return MLX5_CMD_OP_RTR2RTS_QP;
	}
	return 0;
}

/*
 * mlx5_ib_modify_qp(): the request's checks with its errnos, then
 * __mlx5_ib_modify_qp()'s transition command. Of the connection, the
 * remote QP number reaches the fake (fuv_modify_qp()); the rest (LID,
 * PSNs, timeouts) is accepted as given: the fake's one port moves its
 * messages without packets (fake_rdma.c).
 */
static int fuv_modify_check(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			    int mask, struct ib_udata *udata,
			    enum ib_qp_state *cur, enum ib_qp_state *new)
{
	struct mlx5_ib_modify_qp ucmd = {};

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if (udata && udata->inlen) {
		if (udata->inlen < offsetofend(typeof(ucmd), ece_options))
			return -EINVAL;
		if (udata->inlen > sizeof(ucmd) &&
		    !ib_is_udata_cleared(udata, sizeof(ucmd),
					 udata->inlen - sizeof(ucmd)))
			return -EOPNOTSUPP;
		if (ib_copy_from_udata(&ucmd, udata,
				       min(udata->inlen, sizeof(ucmd))))
			return -EFAULT;
		if (ucmd.comp_mask ||
		    memchr_inv(&ucmd.burst_info.reserved, 0,
			       sizeof(ucmd.burst_info.reserved)))
			return -EOPNOTSUPP;
	}
	*cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state :
					to_fuv_qp(ibqp)->state;
	*new = mask & IB_QP_STATE ? attr->qp_state : *cur;
	if (!ib_modify_qp_is_ok(*cur, *new, IB_QPT_RC, mask))
		return -EINVAL;
	if ((mask & IB_QP_PORT) &&
	    (!attr->port_num || attr->port_num > FUV_NUM_PORTS))
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;
	/* max_qp_rd_atom and max_qp_init_rd_atom as query_device says */
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > 1)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic > 1)
		return -EINVAL;
	return 0;
}

/**
 * fuv_modify_qp() - &ib_device_ops.modify_qp
 * @ibqp: the QP
 * @attr: the new attributes
 * @mask: which of them (IB_QP_*)
 * @udata: struct mlx5_ib_modify_qp, if the library sent one
 *
 * RESET -> INIT -> RTR -> RTS, and to ERR or RESET from any state, through
 * the fake's transition commands; a transition to the same state
 * (INIT -> INIT, RTS -> RTS) and SQD/SQE are refused with -EOPNOTSUPP:
 * the fake has no command for them.
 *
 * Return: 0 or -errno.
 */
int fuv_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct fuv_dev *dev = to_fuv_dev(ibqp->device);
	struct fuv_qp *qp = to_fuv_qp(ibqp);
	u32 out[MLX5_ST_SZ_DW(qp_2err_out)] = {};
	enum ib_qp_state cur, new;
	int inlen, err;
	void *in;
	u16 op;

	err = fuv_modify_check(ibqp, attr, mask, udata, &cur, &new);
	if (err)
		return err;
	if (!(mask & IB_QP_STATE))
		return 0;
	op = fuv_qp_transition(cur, new, &inlen);
	if (!op)
		return -EOPNOTSUPP;
	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	/* the opcode and qpn sit at the same place in every *2*_qp_in */
	MLX5_SET(rst2init_qp_in, in, opcode, op);
	MLX5_SET(rst2init_qp_in, in, qpn, ibqp->qp_num);
	/* Linux 6.1 qp.c __mlx5_ib_modify_qp(): IB_QP_DEST_QPN */
	if (op == MLX5_CMD_OP_INIT2RTR_QP && (mask & IB_QP_DEST_QPN))
		MLX5_SET(init2rtr_qp_in, in, qpc.remote_qpn,
			 attr->dest_qp_num);
	err = fuv_cmd(dev, in, inlen, out, sizeof(out));
	kfree(in);
	if (err)
		return err;
	qp->state = new;
	/* libmlx5 (verbs.c mlx5_modify_qp()) zeroes the record at RESET */
	if (new == IB_QPS_RESET) {
		spin_lock(&dev->db_lock);
		qp->last_pi = 0;
		spin_unlock(&dev->db_lock);
	}
	return 0;
}

/**
 * fuv_destroy_qp() - &ib_device_ops.destroy_qp
 * @ibqp: the QP
 * @udata: unused
 *
 * Return: 0, or -errno when the fake refused DESTROY_QP (the QP stays).
 */
int fuv_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct fuv_dev *dev = to_fuv_dev(ibqp->device);
	struct fuv_qp *qp = to_fuv_qp(ibqp);
	int err;

	fuv_db_del(dev, qp);
	err = fuv_destroy_qpn(dev, ibqp->qp_num);
	if (err) {
		fuv_db_add(dev, qp);
		return err;
	}
	fuv_umem_put(dev, &qp->db);
	fuv_umem_put(dev, &qp->buf);
	fuv_uar_put(qp->uar);
	return 0;
}
