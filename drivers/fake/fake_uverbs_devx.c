// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA as an mlx5_ib user device: DEVX, what libmlx5's mkey
 * paths use of it.
 *
 * rdma-core v44.0 (91392a91eb41) sends its device commands through three
 * methods of mlx5_ib's driver namespace: MLX5_IB_METHOD_DEVX_OTHER for
 * QUERY_HCA_CAP at open (verbs.c mlx5_query_device_ctx(),
 * get_hca_general_caps(), get_crypto_caps(), get_pci_atomic_caps()), and
 * MLX5_IB_METHOD_DEVX_OBJ_CREATE / _DESTROY for CREATE_MKEY
 * (_mlx5dv_create_mkey()), CREATE_PSV (mlx5.c mlx5_create_psv(), two per
 * signature mkey) and the DEK (_mlx5dv_dek_create(): CREATE_GENERAL_OBJECT
 * of type ENCRYPTION_KEY). Each command goes to the fake through
 * hca->ops->cmd_exec, as mlx5_ib hands it to firmware, after the checks
 * and the uid stamping of Linux 6.1/6.12 devx.c (the function named at
 * each). The other DEVX methods (MODIFY, QUERY, UMEM, EQN, UAR, events,
 * async) are not registered: the RDMA core answers them
 * -EPROTONOSUPPORT.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#define UVERBS_MODULE_NAME mlx5_umr_fake_uverbs
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <linux/mlx5/mlx5_ifc.h>

#include <linux/mlx5_umr_hca.h>

#include "fake_uverbs.h"

/* the largest destroy mailbox built here (general_obj_in_cmd_hdr etc.) */
#define FUV_DEVX_DIN_DW	4

/**
 * struct fuv_devx_obj - an object a DEVX context created
 * @din: the command that destroys it, uid included
 * @dinlen: its length
 */
struct fuv_devx_obj {
	u32 din[FUV_DEVX_DIN_DW];
	int dinlen;
};

/**
 * fuv_devx_create_uctx() - CREATE_UCTX, as devx.c mlx5_ib_devx_create()
 * @dev: the device
 *
 * No uctx_cap bit is asked for: the fake reports none.
 *
 * Return: the uid (> 0) or -errno (-EINVAL where the device has no user
 * contexts, log_max_uctx 0).
 */
int fuv_devx_create_uctx(struct fuv_dev *dev)
{
	u32 out[MLX5_ST_SZ_DW(create_uctx_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_uctx_in)] = {};
	int err;

	if (!FUV_CAP(dev, log_max_uctx))
		return -EINVAL;
	MLX5_SET(create_uctx_in, in, opcode, MLX5_CMD_OP_CREATE_UCTX);
	err = fuv_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	return MLX5_GET(create_uctx_out, out, uid);
}

/**
 * fuv_devx_destroy_uctx() - DESTROY_UCTX (devx.c mlx5_ib_devx_destroy())
 * @dev: the device
 * @uid: from fuv_devx_create_uctx()
 */
void fuv_devx_destroy_uctx(struct fuv_dev *dev, u16 uid)
{
	u32 out[MLX5_ST_SZ_DW(destroy_uctx_out)] = {};
	u32 in[MLX5_ST_SZ_DW(destroy_uctx_in)] = {};

	MLX5_SET(destroy_uctx_in, in, opcode, MLX5_CMD_OP_DESTROY_UCTX);
	MLX5_SET(destroy_uctx_in, in, uid, uid);
	WARN_ON(fuv_cmd(dev, in, sizeof(in), out, sizeof(out)));
}

/* devx.c devx_is_whitelist_cmd(): queries any context may send */
static bool fuv_devx_is_whitelist_cmd(const void *in)
{
	switch (MLX5_GET(general_obj_in_cmd_hdr, in, opcode)) {
	case MLX5_CMD_OP_QUERY_HCA_CAP:
	case MLX5_CMD_OP_QUERY_HCA_VPORT_CONTEXT:
	case MLX5_CMD_OP_QUERY_ESW_VPORT_CONTEXT:
	case MLX5_CMD_OP_QUERY_ESW_FUNCTIONS:
		return true;
	default:
		return false;
	}
}

/*
 * devx.c devx_get_uid(): the context's uid; for a whitelisted query of a
 * context without DEVX the device's own (mlx5_ib_devx_init()), else
 * -EOPNOTSUPP; any other command needs a DEVX context: -EINVAL.
 */
static int fuv_devx_get_uid(struct fuv_dev *dev, struct fuv_ucontext *ctx,
			    const void *in)
{
	if (fuv_devx_is_whitelist_cmd(in)) {
		if (ctx->devx_uid)
			return ctx->devx_uid;
		if (dev->whitelist_uid)
			return dev->whitelist_uid;
		return -EOPNOTSUPP;
	}
	if (!ctx->devx_uid)
		return -EINVAL;
	return ctx->devx_uid;
}

/*
 * devx.c devx_is_general_cmd(): what DEVX_OTHER passes on. The fake
 * reports no vhca_tunnel_commands, so a tunnelled command is not general.
 */
static bool fuv_devx_is_general_cmd(const void *in)
{
	u16 opcode = MLX5_GET(general_obj_in_cmd_hdr, in, opcode);

	if (opcode >= MLX5_CMD_OP_GENERAL_START &&
	    opcode < MLX5_CMD_OP_GENERAL_END)
		return true;
	switch (opcode) {
	case MLX5_CMD_OP_QUERY_HCA_CAP:
	case MLX5_CMD_OP_QUERY_HCA_VPORT_CONTEXT:
	case MLX5_CMD_OP_QUERY_ESW_VPORT_CONTEXT:
	case MLX5_CMD_OP_QUERY_VPORT_STATE:
	case MLX5_CMD_OP_QUERY_ADAPTER:
	case MLX5_CMD_OP_QUERY_ISSI:
	case MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT:
	case MLX5_CMD_OP_QUERY_ROCE_ADDRESS:
	case MLX5_CMD_OP_QUERY_VNIC_ENV:
	case MLX5_CMD_OP_QUERY_VPORT_COUNTER:
	case MLX5_CMD_OP_GET_DROPPED_PACKET_LOG:
	case MLX5_CMD_OP_NOP:
	case MLX5_CMD_OP_QUERY_CONG_STATUS:
	case MLX5_CMD_OP_QUERY_CONG_PARAMS:
	case MLX5_CMD_OP_QUERY_CONG_STATISTICS:
	case MLX5_CMD_OP_QUERY_LAG:
	case MLX5_CMD_OP_QUERY_ESW_FUNCTIONS:
		return true;
	default:
		return false;
	}
}

/* devx.c devx_is_obj_create_cmd(): the commands DEVX_OBJ_CREATE accepts */
static bool fuv_devx_is_obj_create_cmd(const void *in, u16 *opcode)
{
	*opcode = MLX5_GET(general_obj_in_cmd_hdr, in, opcode);
	switch (*opcode) {
	case MLX5_CMD_OP_CREATE_GENERAL_OBJECT:
	case MLX5_CMD_OP_CREATE_MKEY:
	case MLX5_CMD_OP_CREATE_CQ:
	case MLX5_CMD_OP_ALLOC_PD:
	case MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN:
	case MLX5_CMD_OP_CREATE_RMP:
	case MLX5_CMD_OP_CREATE_SQ:
	case MLX5_CMD_OP_CREATE_RQ:
	case MLX5_CMD_OP_CREATE_RQT:
	case MLX5_CMD_OP_CREATE_TIR:
	case MLX5_CMD_OP_CREATE_TIS:
	case MLX5_CMD_OP_ALLOC_Q_COUNTER:
	case MLX5_CMD_OP_CREATE_FLOW_TABLE:
	case MLX5_CMD_OP_CREATE_FLOW_GROUP:
	case MLX5_CMD_OP_ALLOC_FLOW_COUNTER:
	case MLX5_CMD_OP_ALLOC_PACKET_REFORMAT_CONTEXT:
	case MLX5_CMD_OP_ALLOC_MODIFY_HEADER_CONTEXT:
	case MLX5_CMD_OP_CREATE_SCHEDULING_ELEMENT:
	case MLX5_CMD_OP_ADD_VXLAN_UDP_DPORT:
	case MLX5_CMD_OP_SET_L2_TABLE_ENTRY:
	case MLX5_CMD_OP_CREATE_QP:
	case MLX5_CMD_OP_CREATE_SRQ:
	case MLX5_CMD_OP_CREATE_XRC_SRQ:
	case MLX5_CMD_OP_CREATE_DCT:
	case MLX5_CMD_OP_CREATE_XRQ:
	case MLX5_CMD_OP_ATTACH_TO_MCG:
	case MLX5_CMD_OP_ALLOC_XRCD:
		return true;
	case MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY:
		return MLX5_GET(set_fte_in, in, op_mod) == 0;
	case MLX5_CMD_OP_CREATE_PSV:
		/* one PSV per object: its destroy names one */
		return MLX5_GET(create_psv_in, in, num_psv) == 1;
	default:
		return false;
	}
}

/*
 * devx.c devx_handle_mkey_create() and devx_set_umem_valid(): a direct
 * mkey, a CQ or a QP of DEVX lives in UMEM objects (the fake has none and
 * refuses them).
 */
static int fuv_devx_set_umem_valid(void *in, int inlen, u16 opcode)
{
	void *mkc, *cqc, *qpc;
	u8 mode;

	switch (opcode) {
	case MLX5_CMD_OP_CREATE_MKEY:
		if (inlen < MLX5_BYTE_OFF(create_mkey_in,
					  memory_key_mkey_entry) +
			    MLX5_FLD_SZ_BYTES(create_mkey_in,
					      memory_key_mkey_entry))
			return -EINVAL;
		mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
		mode = MLX5_GET(mkc, mkc, access_mode_1_0) |
		       MLX5_GET(mkc, mkc, access_mode_4_2) << 2;
		if (mode != MLX5_MKC_ACCESS_MODE_KLMS &&
		    mode != MLX5_MKC_ACCESS_MODE_KSM)
			MLX5_SET(create_mkey_in, in, mkey_umem_valid, 1);
		break;
	case MLX5_CMD_OP_CREATE_CQ:
		MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
		cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
		MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
		break;
	case MLX5_CMD_OP_CREATE_QP:
		qpc = MLX5_ADDR_OF(create_qp_in, in, qpc);
		MLX5_SET(qpc, qpc, dbr_umem_valid, 1);
		MLX5_SET(create_qp_in, in, wq_umem_valid, 1);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * devx.c devx_obj_build_destroy_cmd(), for the objects the fake can
 * create: false for any other (the fake refuses to create them).
 */
static bool fuv_devx_build_destroy(const void *in, const void *out,
				   struct fuv_devx_obj *obj)
{
	u16 opcode = MLX5_GET(general_obj_in_cmd_hdr, in, opcode);
	u32 *din = obj->din;

	obj->dinlen = MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr);
	MLX5_SET(general_obj_in_cmd_hdr, din, uid,
		 MLX5_GET(general_obj_in_cmd_hdr, in, uid));
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_GENERAL_OBJECT:
		MLX5_SET(general_obj_in_cmd_hdr, din, opcode,
			 MLX5_CMD_OP_DESTROY_GENERAL_OBJECT);
		MLX5_SET(general_obj_in_cmd_hdr, din, obj_type,
			 MLX5_GET(general_obj_in_cmd_hdr, in, obj_type));
		MLX5_SET(general_obj_in_cmd_hdr, din, obj_id,
			 MLX5_GET(general_obj_out_cmd_hdr, out, obj_id));
		return true;
	case MLX5_CMD_OP_CREATE_MKEY:
		MLX5_SET(destroy_mkey_in, din, opcode, MLX5_CMD_OP_DESTROY_MKEY);
		MLX5_SET(destroy_mkey_in, din, mkey_index,
			 MLX5_GET(create_mkey_out, out, mkey_index));
		return true;
	case MLX5_CMD_OP_CREATE_PSV:
		MLX5_SET(destroy_psv_in, din, opcode, MLX5_CMD_OP_DESTROY_PSV);
		MLX5_SET(destroy_psv_in, din, psvn,
			 MLX5_GET(create_psv_out, out, psv0_index));
		return true;
	case MLX5_CMD_OP_ALLOC_PD:
		MLX5_SET(dealloc_pd_in, din, opcode, MLX5_CMD_OP_DEALLOC_PD);
		MLX5_SET(dealloc_pd_in, din, pd, MLX5_GET(alloc_pd_out, out, pd));
		return true;
	case MLX5_CMD_OP_CREATE_CQ:
		MLX5_SET(destroy_cq_in, din, opcode, MLX5_CMD_OP_DESTROY_CQ);
		MLX5_SET(destroy_cq_in, din, cqn, MLX5_GET(create_cq_out, out, cqn));
		return true;
	case MLX5_CMD_OP_CREATE_QP:
		MLX5_SET(destroy_qp_in, din, opcode, MLX5_CMD_OP_DESTROY_QP);
		MLX5_SET(destroy_qp_in, din, qpn, MLX5_GET(create_qp_out, out, qpn));
		return true;
	default:
		return false;
	}
}

/*
 * What libmlx5 sends, for the record (run.sh loads the module with
 * dyndbg=+p, and the test VM prints the kernel log).
 */
static int fuv_devx_exec(struct fuv_dev *dev, const char *what, void *in,
			 int inlen, void *out, int outlen)
{
	int err = dev->hca->ops->cmd_exec(dev->hca, in, inlen, out, outlen);

	dev_dbg(&dev->ibdev.dev,
		"%s: opcode 0x%x op_mod/obj_type 0x%x uid %u inlen %d outlen %d: %d status 0x%x\n",
		what, MLX5_GET(general_obj_in_cmd_hdr, in, opcode),
		MLX5_GET(general_obj_in_cmd_hdr, in, obj_type),
		MLX5_GET(general_obj_in_cmd_hdr, in, uid), inlen, outlen, err,
		MLX5_GET(general_obj_out_cmd_hdr, out, status));
	return err;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OTHER)(struct uverbs_attr_bundle *attrs)
{
	void *in = uverbs_attr_get_alloced_ptr(attrs,
					       MLX5_IB_ATTR_DEVX_OTHER_CMD_IN);
	int inlen = uverbs_attr_get_len(attrs, MLX5_IB_ATTR_DEVX_OTHER_CMD_IN);
	int outlen = uverbs_attr_get_len(attrs, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT);
	struct ib_ucontext *uctx;
	struct fuv_dev *dev;
	int uid, err, err2;
	void *out;

	uctx = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	dev = to_fuv_dev(uctx->device);
	uid = fuv_devx_get_uid(dev, to_fuv_uctx(uctx), in);
	if (uid < 0)
		return uid;
	if (!fuv_devx_is_general_cmd(in))
		return -EINVAL;
	out = uverbs_zalloc(attrs, outlen);
	if (IS_ERR(out))
		return PTR_ERR(out);
	MLX5_SET(general_obj_in_cmd_hdr, in, uid, uid);
	/* a bad status is the caller's to read: the mailbox goes back */
	err = fuv_devx_exec(dev, "DEVX_OTHER", in, inlen, out, outlen);
	if (err && err != -EREMOTEIO)
		return err;
	err2 = uverbs_copy_to(attrs, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, out,
			      outlen);
	return err2 ?: err;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_DEVX_OBJ_CREATE)(struct uverbs_attr_bundle *attrs)
{
	void *in = uverbs_attr_get_alloced_ptr(attrs,
					       MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN);
	int inlen = uverbs_attr_get_len(attrs,
					MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN);
	int outlen = uverbs_attr_get_len(attrs,
					 MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT);
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE);
	u32 dout[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	struct fuv_devx_obj *obj;
	struct ib_ucontext *uctx;
	struct fuv_dev *dev;
	int uid, err, err2 = 0;
	u16 opcode;
	void *out;

	uctx = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	dev = to_fuv_dev(uctx->device);
	if (MLX5_GET(general_obj_in_cmd_hdr, in, vhca_tunnel_id))
		return -EINVAL;
	uid = fuv_devx_get_uid(dev, to_fuv_uctx(uctx), in);
	if (uid < 0)
		return uid;
	if (!fuv_devx_is_obj_create_cmd(in, &opcode))
		return -EINVAL;
	out = uverbs_zalloc(attrs, outlen);
	if (IS_ERR(out))
		return PTR_ERR(out);
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		return -ENOMEM;

	MLX5_SET(general_obj_in_cmd_hdr, in, uid, uid);
	err = fuv_devx_set_umem_valid(in, inlen, opcode);
	if (err)
		goto err_free;
	err = fuv_devx_exec(dev, "DEVX_OBJ_CREATE", in, inlen, out, outlen);
	if (err == -EREMOTEIO)
		err2 = uverbs_copy_to(attrs, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT,
				      out, outlen);
	if (err)
		goto err_free;
	if (WARN_ON(!fuv_devx_build_destroy(in, out, obj))) {
		err = -EIO;
		goto err_free;
	}
	uobj->object = obj;
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, out,
			     outlen);
	if (err)
		goto err_destroy;
	return 0;

err_destroy:
	fuv_devx_exec(dev, "DEVX_OBJ_CREATE undo", obj->din, obj->dinlen, dout,
		      sizeof(dout));
err_free:
	kfree(obj);
	return err2 ?: err;
}

/* devx.c devx_obj_cleanup(): the destroy command built at creation */
static int fuv_devx_obj_cleanup(struct ib_uobject *uobj,
				enum rdma_remove_reason why,
				struct uverbs_attr_bundle *attrs)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	struct fuv_dev *dev = to_fuv_dev(uobj->context->device);
	struct fuv_devx_obj *obj = uobj->object;
	int err;

	err = fuv_cmd(dev, obj->din, obj->dinlen, out, sizeof(out));
	dev_dbg(&dev->ibdev.dev, "DEVX_OBJ_DESTROY (%d): opcode 0x%x uid %u: %d\n",
		why, MLX5_GET(general_obj_in_cmd_hdr, obj->din, opcode),
		MLX5_GET(general_obj_in_cmd_hdr, obj->din, uid), err);
	if (err)
		return err;
	kfree(obj);
	return 0;
}

/* every DEVX mailbox holds at least the general command header */
#define FUV_DEVX_IN_MIN	\
	UVERBS_ATTR_MIN_SIZE(MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr))
#define FUV_DEVX_OUT_MIN \
	UVERBS_ATTR_MIN_SIZE(MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr))

DECLARE_UVERBS_NAMED_METHOD(MLX5_IB_METHOD_DEVX_OTHER,
			    UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_OTHER_CMD_IN,
					       FUV_DEVX_IN_MIN,
					       UA_MANDATORY, UA_ALLOC_AND_COPY),
			    UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT,
						FUV_DEVX_OUT_MIN,
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD(MLX5_IB_METHOD_DEVX_OBJ_CREATE,
			    UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE,
					    MLX5_IB_OBJECT_DEVX_OBJ,
					    UVERBS_ACCESS_NEW, UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN,
					       FUV_DEVX_IN_MIN,
					       UA_MANDATORY, UA_ALLOC_AND_COPY),
			    UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT,
						FUV_DEVX_OUT_MIN,
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(MLX5_IB_METHOD_DEVX_OBJ_DESTROY,
				    UVERBS_ATTR_IDR(MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE,
						    MLX5_IB_OBJECT_DEVX_OBJ,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_GLOBAL_METHODS(MLX5_IB_OBJECT_DEVX,
			      &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_OTHER));

DECLARE_UVERBS_NAMED_OBJECT(MLX5_IB_OBJECT_DEVX_OBJ,
			    UVERBS_TYPE_ALLOC_IDR(fuv_devx_obj_cleanup),
			    &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_OBJ_CREATE),
			    &UVERBS_METHOD(MLX5_IB_METHOD_DEVX_OBJ_DESTROY));

/* devx.c devx_is_supported(): DEVX exists where user contexts do */
static bool fuv_devx_is_supported(struct ib_device *ibdev)
{
	return FUV_CAP(to_fuv_dev(ibdev), log_max_uctx);
}

/* The DEVX objects and methods, chained into fuv_uapi_defs. */
const struct uapi_definition fuv_devx_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(MLX5_IB_OBJECT_DEVX,
				      UAPI_DEF_IS_OBJ_SUPPORTED(fuv_devx_is_supported)),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(MLX5_IB_OBJECT_DEVX_OBJ,
				      UAPI_DEF_IS_OBJ_SUPPORTED(fuv_devx_is_supported)),
	{}
};

/**
 * fuv_devx_init() - the device's own user context, for the whitelisted
 *	queries of contexts without DEVX (devx.c mlx5_ib_devx_init())
 * @dev: the device
 *
 * Without user contexts there is none, and such queries are refused.
 */
void fuv_devx_init(struct fuv_dev *dev)
{
	int uid = fuv_devx_create_uctx(dev);

	dev->whitelist_uid = uid > 0 ? uid : 0;
}

/**
 * fuv_devx_cleanup() - undo fuv_devx_init()
 * @dev: the device
 */
void fuv_devx_cleanup(struct fuv_dev *dev)
{
	if (dev->whitelist_uid)
		fuv_devx_destroy_uctx(dev, dev->whitelist_uid);
	dev->whitelist_uid = 0;
}
