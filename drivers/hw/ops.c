// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr hardware backend: the HCA seam on exported mlx5_core symbols.
 *
 * Every operation forwards to mlx5_core on the PF/VF's mlx5_core_dev. The
 * mailboxes and WQE bytes come from the service; the only byte this file
 * writes into a mailbox is the EQ number of a CQ.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5_umr_compat.h>
#include <linux/mlx5/driver.h>

#include "hw.h"
#include "transport.h"

static struct mlx5_umr_hw_dev *to_hw(struct mlx5_umr_hca *hca)
{
	return container_of(hca, struct mlx5_umr_hw_dev, hca);
}

/*
 * Turn what mlx5_cmd_do() returned into the seam's result. A device that is
 * down (-ENXIO: internal error, PCI error, command interface off) gets the
 * answer mlx5_cmd_exec() gives its own callers: teardown commands succeed so
 * that objects can be released, other commands fail with status and
 * syndrome set by mlx5_core.
 */
static int mlx5_umr_hw_cmd_finish(struct mlx5_core_dev *mdev, int err,
				  void *in, void *out)
{
	if (err == -ENXIO)
		err = mlx5_cmd_check(mdev, err, in, out);
	return mlx5_umr_hw_cmd_result(err, out);
}

static int mlx5_umr_hw_cmd_exec(struct mlx5_umr_hca *hca, const void *in,
				int inlen, void *out, int outlen)
{
	struct mlx5_core_dev *mdev = to_hw(hca)->mdev;
	/* mlx5_cmd_do() only reads the inbox; its prototype is not const. */
	void *inbox = (void *)in;
	int err;

	err = mlx5_cmd_do(mdev, inbox, inlen, out, outlen);
	return mlx5_umr_hw_cmd_finish(mdev, err, inbox, out);
}

/**
 * struct mlx5_umr_hw_cq - a CQ created through mlx5_core
 * @mcq: mlx5_core's CQ; its comp and event callbacks land here
 * @cq: the service's CQ
 * @hw: the device
 */
struct mlx5_umr_hw_cq {
	struct mlx5_core_cq mcq;
	struct mlx5_umr_hca_cq *cq;
	struct mlx5_umr_hw_dev *hw;
};

/* Completion EQ interrupt (hard IRQ), serialised per EQ, hence per CQ. */
static void mlx5_umr_hw_cq_comp(struct mlx5_core_cq *mcq,
				struct mlx5_eqe *eqe)
{
	struct mlx5_umr_hw_cq *hcq = container_of(mcq, struct mlx5_umr_hw_cq,
						  mcq);

	hcq->cq->comp(hcq->cq);
}

/*
 * Asynchronous EQ: CQ error (overrun or access error). The seam has no
 * event callback; the service sees the CQ stop completing and times out.
 * Calling ->comp() from here could run it concurrently with the completion
 * EQ's call, which the seam forbids.
 */
static void mlx5_umr_hw_cq_event(struct mlx5_core_cq *mcq,
				 enum mlx5_event type)
{
	struct mlx5_umr_hw_cq *hcq = container_of(mcq, struct mlx5_umr_hw_cq,
						  mcq);

	atomic_inc(&hcq->hw->nr_cq_events);
	dev_err_ratelimited(hcq->hw->hca.dev, "CQ 0x%x: async event 0x%x\n",
			    mcq->cqn, type);
}

static int mlx5_umr_hw_create_cq(struct mlx5_umr_hca *hca,
				 struct mlx5_umr_hca_cq *cq, void *in, int inlen)
{
	struct mlx5_umr_hw_dev *hw = to_hw(hca);
	u32 out[MLX5_ST_SZ_DW(create_cq_out)] = {};
	struct mlx5_core_dev *mdev = hw->mdev;
	struct mlx5_umr_hw_cq *hcq;
	unsigned int nvec, vector;
	int eqn, err;

	nvec = mlx5_umr_comp_vectors(mdev);
	if (!nvec)
		return -ENODEV;
	/* the queue's vector (its CPUs' interrupt), else round the vectors */
	if (cq->vector >= 0)
		vector = (unsigned int)cq->vector % nvec;
	else
		vector = (unsigned int)atomic_inc_return(&hw->next_vector) %
			 nvec;
	err = mlx5_umr_comp_eqn(mdev, vector, &eqn);
	if (err)
		return err;
	err = mlx5_umr_hw_cq_set_eqn(in, inlen, eqn);
	if (err)
		return err;

	hcq = kzalloc_node(sizeof(*hcq), GFP_KERNEL, hca->numa_node);
	if (!hcq)
		return -ENOMEM;
	hcq->cq = cq;
	hcq->hw = hw;
	hcq->mcq.comp = mlx5_umr_hw_cq_comp;
	hcq->mcq.event = mlx5_umr_hw_cq_event;

	/*
	 * mlx5_create_cq() rather than mlx5_core_create_cq(): it keeps
	 * -EREMOTEIO for a bad firmware status instead of guessing an errno.
	 */
	err = mlx5_create_cq(mdev, &hcq->mcq, in, inlen, out, sizeof(out));
	err = mlx5_umr_hw_cmd_finish(mdev, err, in, out);
	if (err) {
		/*
		 * The service logs cmd_exec failures from the outbox; this
		 * outbox stays here, so log status and syndrome here.
		 */
		if (err == -EREMOTEIO)
			mlx5_cmd_out_err(mdev, MLX5_CMD_OP_CREATE_CQ, 0, out);
		goto err_free;
	}

	cq->cqn = hcq->mcq.cqn;
	cq->backend = hcq;
	atomic_inc(&hw->nr_cqs);
	return 0;

err_free:
	kfree(hcq);
	return err;
}

static int mlx5_umr_hw_destroy_cq(struct mlx5_umr_hca *hca,
				  struct mlx5_umr_hca_cq *cq)
{
	struct mlx5_umr_hw_dev *hw = to_hw(hca);
	struct mlx5_umr_hw_cq *hcq = cq->backend;
	int err;

	/*
	 * On success mlx5_core_destroy_cq() has waited for the EQ interrupt
	 * and for the last reference, so ->comp() is done for good. While the
	 * device is down DESTROY_CQ is answered OK by mlx5_core itself.
	 */
	err = mlx5_core_destroy_cq(hw->mdev, &hcq->mcq);
	cq->backend = NULL;
	atomic_dec(&hw->nr_cqs);
	if (err) {
		/*
		 * The CQ already left the EQ tables, but mlx5_core skipped its
		 * wait: wait for a running interrupt handler, and keep @hcq
		 * (firmware still owns the CQ; a leak beats a use-after-free).
		 */
		synchronize_irq(hcq->mcq.irqn);
		dev_err(hca->dev, "DESTROY_CQ 0x%x failed (%d), leaking it\n",
			hcq->mcq.cqn, err);
		return err;
	}
	kfree(hcq);
	return 0;
}

/*
 * Queue memory. The seam hands the service one CPU-linear ring, because
 * the WQE encoder writes WQEs that wrap inside the ring as plain memory.
 * mlx5_frag_buf_alloc_node() gives PAGE_SIZE fragments with no linear CPU
 * mapping (vmap() of coherent memory is not portable), so this is one
 * dma_alloc_coherent() on the PCI function; it is contiguous in the device's
 * address space, and the per-page list for the PAS follows from its base.
 */
/*
 * dma_alloc_coherent() allocates on the device's node. For another node
 * do what mlx5_core does for its own queues (alloc.c
 * mlx5_dma_zalloc_coherent_node(), 6.1 and 6.12): point the device at
 * @node for the call, under the mutex mlx5_core holds for that trick
 * (struct mlx5_priv.alloc_mutex, "protect buffer allocation according to
 * numa node").
 */
static void *mlx5_umr_hw_coherent_node(struct mlx5_core_dev *mdev,
				       size_t bytes, dma_addr_t *dma, int node)
{
	struct device *device = mdev->device;
	int original;
	void *cpu;

	if (node == NUMA_NO_NODE)
		return dma_alloc_coherent(device, bytes, dma, GFP_KERNEL);
	mutex_lock(&mdev->priv.alloc_mutex);
	original = dev_to_node(device);
	set_dev_node(device, node);
	cpu = dma_alloc_coherent(device, bytes, dma, GFP_KERNEL);
	set_dev_node(device, original);
	mutex_unlock(&mdev->priv.alloc_mutex);
	return cpu;
}

static int mlx5_umr_hw_alloc_dma_buf(struct mlx5_umr_hca *hca, size_t size,
				     int node, struct mlx5_umr_dma_buf *buf)
{
	struct mlx5_umr_hw_dev *hw = to_hw(hca);
	unsigned int npages;
	dma_addr_t *pages;
	dma_addr_t dma;
	size_t bytes;
	void *cpu;
	int err;

	err = mlx5_umr_hw_buf_layout(size, &bytes, &npages);
	if (err)
		return err;
	pages = kvcalloc(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	/* dma_alloc_coherent() memory is zeroed. */
	cpu = mlx5_umr_hw_coherent_node(hw->mdev, bytes, &dma, node);
	if (!cpu) {
		err = -ENOMEM;
		goto err_pages;
	}
	mlx5_umr_hw_fill_pages(dma, npages, pages);

	buf->cpu = cpu;
	buf->size = bytes;
	buf->npages = npages;
	buf->pages = pages;
	buf->backend = NULL;
	atomic_inc(&hw->nr_bufs);
	return 0;

err_pages:
	kvfree(pages);
	return err;
}

static void mlx5_umr_hw_free_dma_buf(struct mlx5_umr_hca *hca,
				     struct mlx5_umr_dma_buf *buf)
{
	struct mlx5_umr_hw_dev *hw = to_hw(hca);

	dma_free_coherent(hw->mdev->device, buf->size, buf->cpu,
			  buf->pages[0]);
	kvfree(buf->pages);
	buf->pages = NULL;
	buf->cpu = NULL;
	atomic_dec(&hw->nr_bufs);
}

static int mlx5_umr_hw_dma_map_sg(struct mlx5_umr_hca *hca,
				  struct sg_table *sgt,
				  enum dma_data_direction dir)
{
	return dma_map_sgtable(to_hw(hca)->mdev->device, sgt, dir, 0);
}

static void mlx5_umr_hw_dma_unmap_sg(struct mlx5_umr_hca *hca,
				     struct sg_table *sgt,
				     enum dma_data_direction dir)
{
	dma_unmap_sgtable(to_hw(hca)->mdev->device, sgt, dir, 0);
}

/*
 * A shared, uncached UAR page, as steering's dr_send.c uses: doorbells are
 * single 64-bit writes at MLX5_BF_OFFSET / MLX5_CQ_DOORBELL that carry
 * their QPN/CQN, so sharing the page with other users is safe.
 */
static int mlx5_umr_hw_alloc_uar(struct mlx5_umr_hca *hca,
				 struct mlx5_umr_uar *uar)
{
	struct mlx5_umr_hw_dev *hw = to_hw(hca);
	struct mlx5_uars_page *up;

	up = mlx5_get_uars_page(hw->mdev);
	if (IS_ERR(up))
		return PTR_ERR(up);
	uar->index = up->index;
	uar->backend = up;
	atomic_inc(&hw->nr_uars);
	return 0;
}

static void mlx5_umr_hw_free_uar(struct mlx5_umr_hca *hca,
				 struct mlx5_umr_uar *uar)
{
	struct mlx5_umr_hw_dev *hw = to_hw(hca);

	mlx5_put_uars_page(hw->mdev, uar->backend);
	uar->backend = NULL;
	atomic_dec(&hw->nr_uars);
}

static void mlx5_umr_hw_write_db(struct mlx5_umr_hca *hca,
				 struct mlx5_umr_uar *uar, unsigned int offset,
				 const __be32 val[2])
{
	struct mlx5_uars_page *up = uar->backend;
	__be32 db[2] = { val[0], val[1] };

	if (WARN_ON_ONCE(!mlx5_umr_hw_db_offset_valid(offset)))
		return;
	mlx5_write64(db, up->map + offset);
}

static bool mlx5_umr_hw_internal_error(struct mlx5_umr_hca *hca)
{
	struct mlx5_core_dev *mdev = to_hw(hca)->mdev;

	return READ_ONCE(mdev->state) == MLX5_DEVICE_STATE_INTERNAL_ERROR ||
	       pci_channel_offline(mdev->pdev);
}

const struct mlx5_umr_hca_ops mlx5_umr_hw_ops = {
	.cmd_exec = mlx5_umr_hw_cmd_exec,
	.create_cq = mlx5_umr_hw_create_cq,
	.destroy_cq = mlx5_umr_hw_destroy_cq,
	.alloc_dma_buf = mlx5_umr_hw_alloc_dma_buf,
	.free_dma_buf = mlx5_umr_hw_free_dma_buf,
	.dma_map_sg = mlx5_umr_hw_dma_map_sg,
	.dma_unmap_sg = mlx5_umr_hw_dma_unmap_sg,
	.alloc_uar = mlx5_umr_hw_alloc_uar,
	.free_uar = mlx5_umr_hw_free_uar,
	.write_db = mlx5_umr_hw_write_db,
	.internal_error = mlx5_umr_hw_internal_error,
};
