// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: an ib_device that speaks mlx5_ib's user ABI, so that
 * rdma-core's unmodified libmlx5 opens a fake and drives it
 * (Documentation/fake.rst, "rdma-core on the fake").
 *
 * A module of its own (mlx5_umr_fake_uverbs.ko, test builds on kernels
 * with CONFIG_INFINIBAND_USER_ACCESS only), so that mlx5_umr_fake.ko keeps
 * loading where there is no RDMA core. It creates a private fake and
 * reaches it only through the HCA seam (hca->ops->cmd_exec, the fake's
 * command decoder), as mlx5_ib reaches mlx5_core. References: Linux 6.1
 * drivers/infiniband/hw/mlx5 (main.c) and rdma-core v44.0 (91392a91eb41)
 * providers/mlx5.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include <rdma/mlx5-abi.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/driver.h>

#include <linux/mlx5_umr_fake.h>
#include <linux/mlx5_umr_hca.h>

#include "fake.h"
#include "fake_uverbs.h"

static struct fuv_dev *fuv_dev;

static uint crypto = MLX5_UMR_FAKE_CRYPTO_MULTI_BE;
module_param(crypto, uint, 0444);
MODULE_PARM_DESC(crypto,
		 "the fake's crypto profile (enum mlx5_umr_fake_crypto; default multi-block BE)");

/*
 * rdma-core v44.0 verbs.c get_hca_general_caps() knows the AES-XTS engines
 * by aes_xts_single_block_le_tweak and aes_xts_multi_block_be_tweak only:
 * on the fake's default profile (multi-block LE) libmlx5 sees no engine
 * and refuses DEKs and crypto mkeys (EOPNOTSUPP). So the device defaults
 * to the profile libmlx5 drives, multi-block BE.
 */
static int fuv_fake_crypto(struct mlx5_umr_fake_attr *attr)
{
	if (crypto >= MLX5_UMR_FAKE_CRYPTO_NR)
		return -EINVAL;
	mlx5_umr_fake_set_crypto(&attr->caps, crypto);
	return 0;
}

static int fuv_query_caps(struct fuv_dev *dev)
{
	u32 in[MLX5_ST_SZ_DW(query_hca_cap_in)] = {};
	u32 *out;
	int err;

	out = kzalloc(MLX5_ST_SZ_BYTES(query_hca_cap_out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_CAP_GENERAL << 1 | HCA_CAP_OPMOD_GET_CUR);
	err = fuv_cmd(dev, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(query_hca_cap_out));
	if (!err)
		memcpy(dev->caps, MLX5_ADDR_OF(query_hca_cap_out, out,
					       capability), sizeof(dev->caps));
	kfree(out);
	return err;
}

/* drivers/net/ethernet/mellanox/mlx5/core/cmd.c cmd_status_to_err() */
static int fuv_status_to_errno(u8 status)
{
	switch (status) {
	case MLX5_CMD_STAT_BAD_OP_ERR:
	case MLX5_CMD_STAT_BAD_PARAM_ERR:
	case MLX5_CMD_STAT_BAD_RES_ERR:
	case MLX5_CMD_STAT_BAD_RES_STATE_ERR:
	case MLX5_CMD_STAT_IX_ERR:
	case MLX5_CMD_STAT_BAD_QP_STATE_ERR:
	case MLX5_CMD_STAT_BAD_PKT_ERR:
	case MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR:
		return -EINVAL;
	case MLX5_CMD_STAT_RES_BUSY:
		return -EBUSY;
	case MLX5_CMD_STAT_LIM_ERR:
		return -ENOMEM;
	case MLX5_CMD_STAT_NO_RES_ERR:
		return -EAGAIN;
	default:
		return -EIO;
	}
}

/**
 * fuv_cmd() - execute one command mailbox on the device's fake
 * @dev: the device
 * @in: command in mlx5_ifc layout
 * @inlen: its length
 * @out: output mailbox
 * @outlen: its length
 *
 * Return: 0, or the errno mlx5_core makes of the command's bad status
 * (the status stays in @out), or the seam's -errno.
 */
int fuv_cmd(struct fuv_dev *dev, const void *in, int inlen, void *out,
	    int outlen)
{
	int err = dev->hca->ops->cmd_exec(dev->hca, in, inlen, out, outlen);

	/* every command's output starts with status and syndrome */
	if (err == -EREMOTEIO)
		err = fuv_status_to_errno(MLX5_GET(alloc_pd_out, out, status));
	return err;
}

/*
 * main.c mlx5_ib_query_device(): the numbers from the HCA's general caps;
 * the mlx5 tail of QUERY_DEVICE_EX (struct mlx5_ib_query_device_resp) is
 * answered with zeros, which libmlx5 (verbs.c mlx5_query_device_ctx())
 * reads as no TSO, RSS, CQE compression, striding RQ or packet pacing.
 */
static int fuv_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *props,
			    struct ib_udata *uhw)
{
	struct fuv_dev *dev = to_fuv_dev(ibdev);
	struct mlx5_ib_query_device_resp resp = {};
	size_t resp_len;
	int err;

	/* main.c: a request the driver does not know must be zero */
	if (uhw && uhw->inlen && !ib_is_udata_cleared(uhw, 0, uhw->inlen))
		return -EINVAL;

	memset(props, 0, sizeof(*props));
	/* main.c: cmd_hca_cap.vendor_id, Mellanox's IEEE OUI on ConnectX */
	props->vendor_id = FUV_VENDOR_OUI;
	props->max_mr_size = ~0ull;
	props->page_size_cap = ~(u32)(PAGE_SIZE - 1);
	props->max_qp = 1 << FUV_CAP(dev, log_max_qp);
	props->max_qp_wr = 1 << FUV_CAP(dev, log_max_qp_sz);
	props->max_send_sge = 1;
	props->max_recv_sge = 1;
	props->max_sge_rd = 1;
	props->max_cq = 1 << FUV_CAP(dev, log_max_cq);
	props->max_cqe = (1 << FUV_CAP(dev, log_max_cq_sz)) - 1;
	props->max_mr = 1 << FUV_CAP(dev, log_max_mkey);
	props->max_pd = 1 << FUV_CAP(dev, log_max_pd);
	props->max_qp_rd_atom = 1;
	props->max_qp_init_rd_atom = 1;
	props->max_fast_reg_page_list_len =
		1 << FUV_CAP(dev, log_max_klm_list_size);
	props->max_pkeys = 1;
	props->device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN;
	props->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;

	if (!uhw || !uhw->outlen)
		return 0;
	resp_len = min_t(size_t, uhw->outlen, sizeof(resp));
	resp.response_length = resp_len;
	err = ib_copy_to_udata(uhw, &resp, resp_len);
	return err;
}

/*
 * One InfiniBand port, up, LID 1: enough for an RC QP connected to itself
 * or to a second QP of the same fake (main.c mlx5_query_hca_port()).
 */
static int fuv_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *props)
{
	memset(props, 0, sizeof(*props));
	props->state = IB_PORT_ACTIVE;
	props->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	props->max_mtu = IB_MTU_4096;
	props->active_mtu = IB_MTU_4096;
	props->lid = FUV_LID;
	props->sm_lid = FUV_LID;
	props->lmc = 0;
	props->gid_tbl_len = 1;
	props->pkey_tbl_len = 1;
	/* the RC data path's bounce buffer (fake_rdma.c) */
	props->max_msg_sz = MLX5_UMR_FAKE_RDMA_MAX_MSG;
	props->port_cap_flags = IB_PORT_CM_SUP;
	props->active_width = IB_WIDTH_4X;
	props->active_speed = IB_SPEED_EDR;
	return 0;
}

static int fuv_get_port_immutable(struct ib_device *ibdev, u32 port,
				  struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err;

	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	/* no MAD agent: nothing answers SMPs on a fake port */
	immutable->core_cap_flags = RDMA_CORE_CAP_PROT_IB;
	return 0;
}

static enum rdma_link_layer fuv_get_link_layer(struct ib_device *ibdev,
					       u32 port)
{
	return IB_LINK_LAYER_INFINIBAND;
}

static int fuv_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			  u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = 0xffff;	/* the default full-member P_Key */
	return 0;
}

static int fuv_query_gid(struct ib_device *ibdev, u32 port, int index,
			 union ib_gid *gid)
{
	if (index)
		return -EINVAL;
	gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ull);
	gid->global.interface_id = ibdev->node_guid;
	return 0;
}

/*
 * main.c mlx5_ib_alloc_ucontext(): a DEVX context gets a user context of
 * the device (devx.c mlx5_ib_devx_create(); -EINVAL where the device has
 * none, and libmlx5, mlx5.c mlx5_alloc_context(), then opens without).
 */
static int fuv_ucontext_devx(struct fuv_dev *dev, struct fuv_ucontext *ctx,
			     const struct mlx5_ib_alloc_ucontext_req_v2 *req)
{
	int uid;

	if (!(req->flags & MLX5_IB_ALLOC_UCTX_DEVX))
		return 0;
	uid = fuv_devx_create_uctx(dev);
	if (uid < 0)
		return uid;
	ctx->devx_uid = uid;
	return 0;
}

/* main.c mlx5_ib_alloc_ucontext() and set_ucontext_resp(). */
static int fuv_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata)
{
	struct fuv_dev *dev = to_fuv_dev(uctx->device);
	struct fuv_ucontext *ctx = to_fuv_uctx(uctx);
	struct mlx5_ib_alloc_ucontext_req_v2 req = {};
	struct mlx5_ib_alloc_ucontext_resp resp = {};
	size_t min_req_v2 = offsetof(struct mlx5_ib_alloc_ucontext_req_v2,
				     max_cqe_version);
	int err;

	if (udata->inlen != sizeof(struct mlx5_ib_alloc_ucontext_req) &&
	    udata->inlen < min_req_v2)
		return -EINVAL;
	err = ib_copy_from_udata(&req, udata, min(udata->inlen, sizeof(req)));
	if (err)
		return err;
	if (req.flags & ~MLX5_IB_ALLOC_UCTX_DEVX)
		return -EOPNOTSUPP;
	if (req.comp_mask || req.reserved0 || req.reserved1 || req.reserved2)
		return -EOPNOTSUPP;
	req.total_num_bfregs = ALIGN(req.total_num_bfregs,
				     MLX5_NON_FP_BFREGS_PER_UAR);
	if (req.num_low_latency_bfregs > req.total_num_bfregs - 1)
		return -EINVAL;
	/*
	 * Only dynamic UARs (MLX5_LIB_CAP_DYN_UAR, which libmlx5 has asked
	 * for since rdma-core v21): the static bfreg layout of older
	 * libraries is not modelled.
	 */
	if (!(req.lib_caps & MLX5_LIB_CAP_DYN_UAR))
		return -EOPNOTSUPP;
	err = fuv_ucontext_devx(dev, ctx, &req);
	if (err)
		return err;

	ctx->cqe_version = min_t(u8, FUV_CAP(dev, cqe_version),
				 req.max_cqe_version);
	ctx->lib_caps = req.lib_caps;

	resp.qp_tab_size = 1 << FUV_CAP(dev, log_max_qp);
	/*
	 * bf_reg_size only with write combining (dev->wc_support); without
	 * it libmlx5 rings every doorbell through the NC UAR
	 * (verbs.c mlx5_get_qp_uar()), which is what the fake polls.
	 */
	resp.bf_reg_size = 0;
	resp.cache_line_size = cache_line_size();
	resp.max_sq_desc_sz = FUV_CAP(dev, max_wqe_sz_sq);
	resp.max_rq_desc_sz = FUV_CAP(dev, max_wqe_sz_rq);
	resp.max_send_wqebb = 1 << FUV_CAP(dev, log_max_qp_sz);
	resp.max_recv_wr = 1 << FUV_CAP(dev, log_max_qp_sz);
	resp.max_srq_recv_wr = 1 << FUV_CAP(dev, log_max_srq_sz);
	resp.cqe_version = ctx->cqe_version;
	/* uar_4k: 4 KiB UARs, one per system page of 4 KiB */
	resp.log_uar_size = MLX5_ADAPTER_PAGE_SHIFT;
	resp.num_uars_per_page = 1;
	resp.tot_bfregs = 0;		/* lib_uar_dyn */
	resp.num_ports = FUV_NUM_PORTS;
	resp.cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE |
			     MLX5_USER_CMDS_SUPP_UHW_CREATE_AH;
	/*
	 * No CORE_CLOCK_OFFSET and no clock_info_versions: the fake has no
	 * clock page for libmlx5 to map. MKEY_UPDATE_TAG as mlx5_ib sets
	 * it, unconditionally.
	 */
	resp.comp_mask = MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_MKEY_UPDATE_TAG;
	resp.response_length = min(udata->outlen, sizeof(resp));
	err = ib_copy_to_udata(udata, &resp, resp.response_length);
	if (err && ctx->devx_uid)
		fuv_devx_destroy_uctx(dev, ctx->devx_uid);
	return err;
}

static void fuv_dealloc_ucontext(struct ib_ucontext *uctx)
{
	struct fuv_ucontext *ctx = to_fuv_uctx(uctx);

	if (ctx->devx_uid)
		fuv_devx_destroy_uctx(to_fuv_dev(uctx->device), ctx->devx_uid);
}

/* main.c mlx5_ib_alloc_pd(): ALLOC_PD, the PD number to the library. */
static int fuv_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct fuv_dev *dev = to_fuv_dev(ibpd->device);
	struct fuv_pd *pd = to_fuv_pd(ibpd);
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	struct fuv_ucontext *ctx;
	int err;

	/* the PD carries its context's uid (main.c, pd->uid) */
	ctx = rdma_udata_to_drv_context(udata, struct fuv_ucontext, ibuc);
	pd->uid = ctx ? ctx->devx_uid : 0;
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	MLX5_SET(alloc_pd_in, in, uid, pd->uid);
	err = fuv_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	pd->pdn = MLX5_GET(alloc_pd_out, out, pd);
	if (udata) {
		struct mlx5_ib_alloc_pd_resp resp = { .pdn = pd->pdn };

		err = ib_copy_to_udata(udata, &resp,
				       min(udata->outlen, sizeof(resp)));
		if (err)
			goto err_dealloc;
	}
	return 0;

err_dealloc:
	fuv_dealloc_pdn(dev, pd->pdn, pd->uid);
	return err;
}

/**
 * fuv_dealloc_pdn() - DEALLOC_PD on the device's fake
 * @dev: the device
 * @pdn: the PD
 * @uid: the uid it was allocated with
 *
 * Return: 0 or -errno (the fake refuses a PD that objects still use).
 */
int fuv_dealloc_pdn(struct fuv_dev *dev, u32 pdn, u16 uid)
{
	u32 out[MLX5_ST_SZ_DW(dealloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(dealloc_pd_in)] = {};

	MLX5_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	MLX5_SET(dealloc_pd_in, in, pd, pdn);
	MLX5_SET(dealloc_pd_in, in, uid, uid);
	return fuv_cmd(dev, in, sizeof(in), out, sizeof(out));
}

static int fuv_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct fuv_pd *pd = to_fuv_pd(ibpd);

	return fuv_dealloc_pdn(to_fuv_dev(ibpd->device), pd->pdn, pd->uid);
}

/*
 * Kernel consumers of this device are not modelled (it exists for
 * libmlx5). mlx5_ib's answer to a
 * request it does not support is -EOPNOTSUPP.
 */
static int fuv_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
			 const struct ib_send_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int fuv_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr,
			 const struct ib_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static int fuv_poll_cq(struct ib_cq *cq, int num_entries, struct ib_wc *wc)
{
	return -EOPNOTSUPP;
}

static int fuv_req_notify_cq(struct ib_cq *cq, enum ib_cq_notify_flags flags)
{
	return -EOPNOTSUPP;
}

static struct ib_mr *fuv_get_dma_mr(struct ib_pd *pd, int access)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct ib_device_ops fuv_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_MLX5,
	.uverbs_abi_ver = MLX5_IB_UVERBS_ABI_VERSION,

	.alloc_mr = fuv_alloc_mr,
	.alloc_pd = fuv_alloc_pd,
	.alloc_ucontext = fuv_alloc_ucontext,
	.create_cq = fuv_create_cq,
	.create_qp = fuv_create_qp,
	.dealloc_pd = fuv_dealloc_pd,
	.dealloc_ucontext = fuv_dealloc_ucontext,
	.dereg_mr = fuv_dereg_mr,
	.destroy_cq = fuv_destroy_cq,
	.destroy_qp = fuv_destroy_qp,
	.get_dma_mr = fuv_get_dma_mr,
	.get_link_layer = fuv_get_link_layer,
	.get_port_immutable = fuv_get_port_immutable,
	.mmap = fuv_mmap,
	.mmap_free = fuv_mmap_free,
	.modify_qp = fuv_modify_qp,
	.poll_cq = fuv_poll_cq,
	.post_recv = fuv_post_recv,
	.post_send = fuv_post_send,
	.query_device = fuv_query_device,
	.query_gid = fuv_query_gid,
	.query_pkey = fuv_query_pkey,
	.query_port = fuv_query_port,
	.reg_user_mr = fuv_reg_user_mr,
	.req_notify_cq = fuv_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, fuv_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, fuv_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, fuv_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, fuv_ucontext, ibuc),
};

static int __init fuv_init(void)
{
	struct mlx5_umr_fake_attr attr;
	struct fuv_dev *dev;
	int err;

	dev = ib_alloc_device(fuv_dev, ibdev);
	if (!dev)
		return -ENOMEM;
	mlx5_umr_fake_attr_init(&attr);
	err = fuv_fake_crypto(&attr);
	if (err)
		goto err_dealloc;
	dev->fake = mlx5_umr_fake_create(&attr);
	if (IS_ERR(dev->fake)) {
		err = PTR_ERR(dev->fake);
		goto err_dealloc;
	}
	dev->hca = mlx5_umr_fake_hca(dev->fake);
	xa_init(&dev->uars);
	fuv_db_init(dev);
	err = fuv_query_caps(dev);
	if (err)
		goto err_fake;
	fuv_devx_init(dev);

	dev->ibdev.node_type = RDMA_NODE_IB_CA;
	dev->ibdev.phys_port_cnt = FUV_NUM_PORTS;
	dev->ibdev.num_comp_vectors = 1;
	/* a locally administered GUID, Mellanox's OUI (00:02:c9) */
	dev->ibdev.node_guid = cpu_to_be64(0x0002c90300fa4e00ull);
	/* which fake (its debugfs directory) the tests look at */
	snprintf(dev->ibdev.node_desc, sizeof(dev->ibdev.node_desc),
		 "mlx5-umr %s", dev_name(&dev->fake->dev));
	ib_set_device_ops(&dev->ibdev, &fuv_dev_ops);
	dev->ibdev.driver_def = fuv_uapi_defs;
	err = ib_register_device(&dev->ibdev, "fake_mlx5_%d", NULL);
	if (err)
		goto err_devx;
	err = fuv_svc_register(dev);
	if (err)
		goto err_unregister;
	fuv_dev = dev;
	return 0;

err_unregister:
	ib_unregister_device(&dev->ibdev);
err_devx:
	fuv_devx_cleanup(dev);
err_fake:
	mlx5_umr_fake_destroy(dev->fake);
err_dealloc:
	ib_dealloc_device(&dev->ibdev);
	return err;
}

static void __exit fuv_exit(void)
{
	struct mlx5_umr_fake *fake = fuv_dev->fake;

	/* releases the user PDs the service holds, before ib_uverbs' files go */
	fuv_svc_unregister(fuv_dev);
	ib_unregister_device(&fuv_dev->ibdev);
	fuv_devx_cleanup(fuv_dev);
	fuv_db_fini(fuv_dev);
	ib_dealloc_device(&fuv_dev->ibdev);
	mlx5_umr_fake_destroy(fake);
}

module_init(fuv_init);
module_exit(fuv_exit);
MODULE_DESCRIPTION("mlx5-umr fake HCA as an mlx5_ib user device (test only)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
