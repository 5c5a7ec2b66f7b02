// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA as an mlx5_ib user device: user CQs.
 *
 * As mlx5_ib (Linux 6.1 cq.c mlx5_ib_create_cq(), create_cq_user()): the
 * library's CQE ring and doorbell record stay in its memory, pinned and
 * given to the HCA by CREATE_CQ (PAS and dbr_addr, here device addresses
 * of the fake's IOMMU); the CQ's UAR is the page_id of a UAR the library
 * allocated (MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX). The fake writes its
 * CQEs into that ring; libmlx5 polls them without the kernel. Completion
 * events (ibv_req_notify_cq, completion channels) are not modelled: the
 * CQ is created without an event handler.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <rdma/mlx5-abi.h>

#include "fake_uverbs.h"

static int fuv_cq_cmd(struct fuv_dev *dev, struct fuv_cq *cq,
		      const struct mlx5_ib_create_cq *ucmd, u64 db_addr,
		      unsigned int entries)
{
	u32 out[MLX5_ST_SZ_DW(create_cq_out)] = {};
	unsigned int npas = fuv_umem_npages(&cq->buf);
	__be64 dbr;
	void *in, *cqc;
	size_t inlen;
	int err;

	inlen = MLX5_ST_SZ_BYTES(create_cq_in) + (size_t)npas * 8;
	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	fuv_umem_pas(&cq->buf, MLX5_ADDR_OF(create_cq_in, in, pas));
	fuv_umem_pas(&cq->db, &dbr);
	cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(cqc, cqc, cqe_sz, 0);	/* 64-byte CQEs */
	MLX5_SET(cqc, cqc, log_cq_size, ilog2(entries));
	MLX5_SET(cqc, cqc, uar_page, ucmd->uar_page_index);
	/* 4 KiB pages: log_page_size counts from MLX5_ADAPTER_PAGE_SHIFT */
	MLX5_SET(cqc, cqc, log_page_size, PAGE_SHIFT - MLX5_ADAPTER_PAGE_SHIFT);
	MLX5_SET(cqc, cqc, page_offset, 0);
	MLX5_SET64(cqc, cqc, dbr_addr,
		   be64_to_cpu(dbr) + (db_addr & ~PAGE_MASK));
	err = fuv_cmd(dev, in, inlen, out, sizeof(out));
	kvfree(in);
	if (err)
		return err;
	cq->cqn = MLX5_GET(create_cq_out, out, cqn);
	return 0;
}

static int fuv_destroy_cqn(struct fuv_dev *dev, u32 cqn)
{
	u32 out[MLX5_ST_SZ_DW(destroy_cq_out)] = {};
	u32 in[MLX5_ST_SZ_DW(destroy_cq_in)] = {};

	MLX5_SET(destroy_cq_in, in, opcode, MLX5_CMD_OP_DESTROY_CQ);
	MLX5_SET(destroy_cq_in, in, cqn, cqn);
	return fuv_cmd(dev, in, sizeof(in), out, sizeof(out));
}

static int fuv_create_cq_udata(struct ib_cq *ibcq,
			       const struct ib_cq_init_attr *attr,
			       struct ib_udata *udata)
{
	struct fuv_dev *dev = to_fuv_dev(ibcq->device);
	struct fuv_cq *cq = container_of(ibcq, struct fuv_cq, ibcq);
	unsigned int max = 1U << FUV_CAP(dev, log_max_cq_sz);
	struct mlx5_ib_create_cq ucmd = {};
	struct mlx5_ib_create_cq_resp resp = {};
	unsigned int entries;
	size_t ucmdlen;
	int err;

	/* CQs of kernel consumers are not modelled */
	if (!udata)
		return -EOPNOTSUPP;
	/* cq.c check_cq_create_flags(): no timestamp or overrun caps */
	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe > max)
		return -EINVAL;
	entries = roundup_pow_of_two(attr->cqe + 1);
	if (entries > max)
		return -EINVAL;

	/* create_cq_user() */
	ucmdlen = min(udata->inlen, sizeof(ucmd));
	if (ucmdlen < offsetof(struct mlx5_ib_create_cq, flags))
		return -EINVAL;
	if (ib_copy_from_udata(&ucmd, udata, ucmdlen))
		return -EFAULT;
	if (ucmd.flags & ~(MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD |
			   MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX |
			   MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS))
		return -EINVAL;
	if ((ucmd.cqe_size != 64 && ucmd.cqe_size != 128) ||
	    ucmd.reserved0 || ucmd.reserved1)
		return -EINVAL;
	/* a dynamic-UAR context must name the CQ's UAR */
	if (!(ucmd.flags & MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX))
		return -EINVAL;
	/*
	 * CQE compression, 128-byte padding, real-time stamps: no caps.
	 * 128-byte CQEs: not modelled (fake_cmd.c fake_create_cq() takes
	 * cqe_sz 0 only).
	 */
	if (ucmd.cqe_comp_en || ucmd.cqe_size != 64 ||
	    (ucmd.flags & (MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD |
			   MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS)))
		return -EOPNOTSUPP;

	err = fuv_umem_get(dev, &cq->buf, ucmd.buf_addr,
			   (size_t)entries * ucmd.cqe_size,
			   IB_ACCESS_LOCAL_WRITE);
	if (err)
		return err;
	/* main.c mlx5_ib_db_map_user(): the record's page */
	err = fuv_umem_get(dev, &cq->db, ucmd.db_addr & PAGE_MASK, PAGE_SIZE,
			   0);
	if (err)
		goto err_buf;
	err = fuv_cq_cmd(dev, cq, &ucmd, ucmd.db_addr, entries);
	if (err)
		goto err_db;
	ibcq->cqe = entries - 1;
	resp.cqn = cq->cqn;
	err = ib_copy_to_udata(udata, &resp, sizeof(resp.cqn));
	if (err)
		goto err_cmd;
	return 0;

err_cmd:
	fuv_destroy_cqn(dev, cq->cqn);
err_db:
	fuv_umem_put(dev, &cq->db);
err_buf:
	fuv_umem_put(dev, &cq->buf);
	return err;
}

#ifdef MLX5_UMR_CREATE_CQ_ATTRS
/**
 * fuv_create_cq() - &ib_device_ops.create_cq
 * @ibcq: the CQ the RDMA core allocated
 * @attr: entries, vector, flags
 * @attrs: the request; its driver_udata is struct mlx5_ib_create_cq
 *
 * Return: 0 or -errno.
 */
int fuv_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct uverbs_attr_bundle *attrs)
{
	return fuv_create_cq_udata(ibcq, attr,
				   attrs ? &attrs->driver_udata : NULL);
}
#else
/**
 * fuv_create_cq() - &ib_device_ops.create_cq
 * @ibcq: the CQ the RDMA core allocated
 * @attr: entries, vector, flags
 * @udata: struct mlx5_ib_create_cq, and room for the response
 *
 * Return: 0 or -errno.
 */
int fuv_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	return fuv_create_cq_udata(ibcq, attr, udata);
}
#endif

/**
 * fuv_destroy_cq() - &ib_device_ops.destroy_cq
 * @ibcq: the CQ
 * @udata: unused
 *
 * Return: 0, or -errno when the fake refused DESTROY_CQ (a QP still uses
 * it: the CQ stays).
 */
int fuv_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct fuv_dev *dev = to_fuv_dev(ibcq->device);
	struct fuv_cq *cq = container_of(ibcq, struct fuv_cq, ibcq);
	int err;

	err = fuv_destroy_cqn(dev, cq->cqn);
	if (err)
		return err;
	fuv_umem_put(dev, &cq->db);
	fuv_umem_put(dev, &cq->buf);
	return 0;
}
