// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA as an mlx5_ib user device: pinned user memory (MRs,
 * CQ and QP rings, doorbell records) and user MRs.
 *
 * As mlx5_ib (Linux 6.1 mr.c mlx5_ib_reg_user_mr(), reg_create()): the
 * pages are pinned (ib_umem_get()) and described to the HCA by an MTT mkey
 * whose start address is the MR's IOVA. The fake reaches memory through
 * its IOMMU, so each page is mapped there (hca->ops->dma_map_sg) and the
 * MTT entries are those device addresses.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/mlx5/driver.h>

#include <linux/mlx5_umr_hca.h>

#include "fake_uverbs.h"

/*
 * Through locals: dma_map_sg and dma_unmap_sg are also macros of
 * <linux/dma-mapping.h>.
 */
static int fuv_umem_map(struct fuv_dev *dev, struct fuv_umem *m)
{
	int (*map)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		   enum dma_data_direction dir) = dev->hca->ops->dma_map_sg;
	struct sg_page_iter piter;
	struct scatterlist *sg;
	size_t n = 0;
	int err;

	err = sg_alloc_table(&m->sgt, ib_umem_num_pages(m->umem), GFP_KERNEL);
	if (err)
		return err;
	sg = m->sgt.sgl;
	for_each_sgtable_page(&m->umem->sgt_append.sgt, &piter, 0) {
		if (n++ == m->sgt.orig_nents)
			break;
		sg_set_page(sg, sg_page_iter_page(&piter), PAGE_SIZE, 0);
		sg = sg_next(sg);
	}
	if (n != m->sgt.orig_nents) {
		err = -EFAULT;
		goto err_free;
	}
	err = map(dev->hca, &m->sgt, DMA_BIDIRECTIONAL);
	if (err)
		goto err_free;
	return 0;

err_free:
	sg_free_table(&m->sgt);
	return err;
}

/**
 * fuv_umem_get() - pin user memory and map its pages in the fake's IOMMU
 * @dev: the device
 * @m: where to keep it
 * @addr: user address
 * @len: length
 * @access: IB_ACCESS_* (IB_ACCESS_LOCAL_WRITE for memory the HCA writes)
 *
 * Return: 0 or -errno.
 */
int fuv_umem_get(struct fuv_dev *dev, struct fuv_umem *m, u64 addr,
		 size_t len, int access)
{
	int err;

	m->umem = ib_umem_get(&dev->ibdev, addr, len, access);
	if (IS_ERR(m->umem))
		return PTR_ERR(m->umem);
	err = fuv_umem_map(dev, m);
	if (err) {
		ib_umem_release(m->umem);
		return err;
	}
	return 0;
}

/**
 * fuv_umem_put() - undo fuv_umem_get()
 * @dev: the device
 * @m: the memory
 */
void fuv_umem_put(struct fuv_dev *dev, struct fuv_umem *m)
{
	void (*unmap)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		      enum dma_data_direction dir) = dev->hca->ops->dma_unmap_sg;

	unmap(dev->hca, &m->sgt, DMA_BIDIRECTIONAL);
	sg_free_table(&m->sgt);
	ib_umem_release(m->umem);
}

/**
 * fuv_umem_pas() - the device address of each page, big endian (the
 *	PAS/MTT layout)
 * @m: the memory
 * @pas: room for fuv_umem_npages(@m) entries
 */
void fuv_umem_pas(struct fuv_umem *m, __be64 *pas)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_dma_sg(&m->sgt, sg, i)
		pas[i] = cpu_to_be64(sg_dma_address(sg));
}

/* mr.c set_mkc_access_pd_addr_fields() and reg_create() */
static int fuv_mr_create_mkey(struct fuv_dev *dev, struct fuv_mr *mr,
			      u32 pdn, u64 iova, u64 length, int access)
{
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	unsigned int oct = DIV_ROUND_UP(fuv_umem_npages(&mr->mem), 2);
	void *in, *mkc;
	size_t inlen;
	u8 key;
	int err;

	inlen = MLX5_ST_SZ_BYTES(create_mkey_in) + (size_t)oct * 16;
	in = kvzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	fuv_umem_pas(&mr->mem, MLX5_ADDR_OF(create_mkey_in, in, klm_pas_mtt));

	key = (u8)atomic_inc_return(&dev->key_byte);
	mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(create_mkey_in, in, translations_octword_actual_size, oct);
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
	/* reg_create() enables UMR on every MR: ibv_wr_local_inv needs it */
	MLX5_SET(mkc, mkc, umr_en, 1);
	MLX5_SET(mkc, mkc, a, !!(access & IB_ACCESS_REMOTE_ATOMIC));
	MLX5_SET(mkc, mkc, rw, !!(access & IB_ACCESS_REMOTE_WRITE));
	MLX5_SET(mkc, mkc, rr, !!(access & IB_ACCESS_REMOTE_READ));
	MLX5_SET(mkc, mkc, lw, !!(access & IB_ACCESS_LOCAL_WRITE));
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, pd, pdn);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, mkey_7_0, key);
	MLX5_SET64(mkc, mkc, start_addr, iova);
	MLX5_SET64(mkc, mkc, len, length);
	MLX5_SET(mkc, mkc, log_page_size, PAGE_SHIFT);
	MLX5_SET(mkc, mkc, translations_octword_size, oct);
	err = fuv_cmd(dev, in, inlen, out, sizeof(out));
	kvfree(in);
	if (err)
		return err;
	mr->ibmr.lkey = MLX5_GET(create_mkey_out, out, mkey_index) << 8 | key;
	mr->ibmr.rkey = mr->ibmr.lkey;
	return 0;
}

static int fuv_destroy_mkey(struct fuv_dev *dev, u32 key)
{
	u32 out[MLX5_ST_SZ_DW(destroy_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};

	MLX5_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	MLX5_SET(destroy_mkey_in, in, mkey_index, key >> 8);
	return fuv_cmd(dev, in, sizeof(in), out, sizeof(out));
}

/**
 * fuv_reg_user_mr() - &ib_device_ops.reg_user_mr
 * @ibpd: the PD
 * @start: user address of the memory
 * @length: its length
 * @virt_addr: the MR's IOVA
 * @access: IB_ACCESS_* flags (ODP is refused by the RDMA core: the
 *	device has no IBK_ON_DEMAND_PAGING)
 * @udata: the driver's part of the request (none for mlx5)
 *
 * Return: the MR or ERR_PTR(-errno).
 */
struct ib_mr *fuv_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 virt_addr, int access, struct ib_udata *udata)
{
	struct fuv_dev *dev = to_fuv_dev(ibpd->device);
	struct fuv_mr *mr;
	int err;

	/*
	 * mr.c mlx5_umem_find_best_pgsz() finds no page size when the IOVA
	 * and the address differ within a page: -EINVAL.
	 */
	if ((start ^ virt_addr) & ~PAGE_MASK)
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	err = fuv_umem_get(dev, &mr->mem, start, length, access);
	if (err)
		goto err_free;
	err = fuv_mr_create_mkey(dev, mr, to_fuv_pd(ibpd)->pdn, virt_addr,
				 length, access);
	if (err)
		goto err_umem;
	return &mr->ibmr;

err_umem:
	fuv_umem_put(dev, &mr->mem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/**
 * fuv_dereg_mr() - &ib_device_ops.dereg_mr
 * @ibmr: the MR
 * @udata: unused
 *
 * Return: 0, or -errno when the fake refused DESTROY_MKEY (the MR stays).
 */
int fuv_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct fuv_dev *dev = to_fuv_dev(ibmr->device);
	struct fuv_mr *mr = to_fuv_mr(ibmr);
	int err;

	err = fuv_destroy_mkey(dev, ibmr->lkey);
	if (err)
		return err;
	if (mr->mem.umem)
		fuv_umem_put(dev, &mr->mem);
	kfree(mr);
	return 0;
}

/**
 * fuv_alloc_mr() - &ib_device_ops.alloc_mr, for kernel users (the UMR
 *	service's PD probe, fake_uverbs_svc.c)
 * @ibpd: the PD
 * @type: IB_MR_TYPE_MEM_REG only
 * @max_num_sg: the MR's translation entries
 *
 * As Linux 6.1 mr.c __mlx5_ib_alloc_mr() with mlx5_alloc_mem_reg_descs()
 * and mlx5_set_umr_free_mkey(): a free MTT mkey with UMR enabled, room
 * for ALIGN(@max_num_sg, 4) entries, local read only
 * (set_mkc_access_pd_addr_fields() with no access flags). No private
 * descriptor buffer: nothing here posts a fast registration
 * (fuv_post_send() refuses kernel work requests). Other MR types
 * (SG_GAPS, INTEGRITY) are a documented difference: -EOPNOTSUPP.
 *
 * Return: the MR or ERR_PTR(-errno).
 */
struct ib_mr *fuv_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg)
{
	struct fuv_dev *dev = to_fuv_dev(ibpd->device);
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_mkey_in)] = {};
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	struct fuv_mr *mr;
	u8 key;
	int err;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	key = (u8)atomic_inc_return(&dev->key_byte);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, pd, to_fuv_pd(ibpd)->pdn);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, free, 1);
	MLX5_SET(mkc, mkc, translations_octword_size, ALIGN(max_num_sg, 4));
	MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_MTT);
	MLX5_SET(mkc, mkc, umr_en, 1);
	MLX5_SET(mkc, mkc, log_page_size, PAGE_SHIFT);
	MLX5_SET(mkc, mkc, mkey_7_0, key);
	err = fuv_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	mr->ibmr.lkey = MLX5_GET(create_mkey_out, out, mkey_index) << 8 | key;
	mr->ibmr.rkey = mr->ibmr.lkey;
	return &mr->ibmr;
}
