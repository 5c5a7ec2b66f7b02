/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the seam between the UMR service and an HCA backend.
 *
 * The seam sits at the hardware boundary. The service builds every command
 * mailbox (mlx5_ifc layouts) and every WQE byte itself; a backend only moves
 * bytes: it executes a mailbox, hands out DMA-able queue memory and DMA
 * mappings, performs doorbell (MMIO) writes into a UAR page and delivers
 * completion events. The real backend forwards each operation to mlx5_core,
 * the fake HCA decodes what it receives exactly as firmware would.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _LINUX_MLX5_UMR_HCA_H
#define _LINUX_MLX5_UMR_HCA_H

#include <linux/types.h>
#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/scatterlist.h>

struct mlx5_umr_hca;
struct ib_device;
struct mlx5_umr_dev;

/**
 * struct mlx5_umr_dma_buf - coherent, CPU-contiguous queue memory
 * @cpu: kernel virtual address of the first byte
 * @size: size in bytes, a multiple of PAGE_SIZE
 * @npages: number of PAGE_SIZE pages
 * @pages: device (DMA) address of every page, in order, for PAS arrays
 * @backend: backend private data
 *
 * Rings, doorbell records and pointer-mode translation tables live here.
 * The memory is zeroed on allocation.
 */
struct mlx5_umr_dma_buf {
	void *cpu;
	size_t size;
	unsigned int npages;
	dma_addr_t *pages;
	void *backend;
};

/**
 * struct mlx5_umr_uar - a UAR page of the HCA
 * @index: UAR index, as written to qpc.uar_page and cqc.uar_page
 * @backend: backend private data
 *
 * Doorbells are 64-bit MMIO writes at an offset into this page:
 * MLX5_BF_OFFSET for the send queue (the first 8 bytes of the last posted
 * WQE's control segment) and MLX5_CQ_DOORBELL for arming a CQ.
 */
struct mlx5_umr_uar {
	u32 index;
	void *backend;
};

/**
 * struct mlx5_umr_hca_cq - a completion queue as the backend sees it
 * @cqn: CQ number returned by CREATE_CQ
 * @comp: called by the backend when the HCA raises a completion event for
 *	this CQ; may run in hard or soft interrupt context or in a workqueue,
 *	never concurrently with itself for the same CQ, and never from inside
 *	@write_db (see there)
 * @backend: backend private data
 * @vector: completion vector (EQ) the service asks for, taken modulo the
 *	vectors the HCA has; -1 for the backend's choice
 */
struct mlx5_umr_hca_cq {
	u32 cqn;
	void (*comp)(struct mlx5_umr_hca_cq *cq);
	void *backend;
	int vector;
};

/**
 * struct mlx5_umr_hca_ops - what a backend provides
 * @cmd_exec: execute one command mailbox. @in and @out use the mlx5_ifc
 *	layouts (big endian). Every command goes through here, the PSVs of
 *	signature mkeys (CREATE_PSV, DESTROY_PSV) included. Returns 0 when
 *	the command was delivered and firmware returned status OK;
 *	-EREMOTEIO when firmware returned a bad status (status and syndrome
 *	are in @out); another -errno when the command could not be
 *	delivered. May sleep.
 * @create_cq: execute the CREATE_CQ mailbox @in (the backend fills
 *	cqc.c_eqn_or_apu_element with an EQ of its choosing) and route the
 *	CQ's completion events to @cq->comp. Sets @cq->cqn. May sleep.
 * @destroy_cq: DESTROY_CQ and stop event delivery; once it returns,
 *	@cq->comp is not running and will not be called again. Returns 0,
 *	or -errno when the firmware may still own the CQ (the caller then
 *	keeps the CQE ring: the HCA may still write it). May sleep.
 * @alloc_dma_buf: allocate @size bytes (rounded up to PAGE_SIZE) of
 *	zeroed coherent memory on NUMA node @node (that of the CPUs that
 *	write it), or where the backend likes for NUMA_NO_NODE. May sleep.
 * @free_dma_buf: free a buffer from @alloc_dma_buf. May sleep.
 * @dma_map_sg: map @sgt for the device (sets sg_dma_address/len and
 *	@sgt->nents). Returns 0 or -errno. May sleep.
 * @dma_unmap_sg: undo @dma_map_sg.
 * @alloc_uar: allocate a UAR page for doorbells. May sleep.
 * @free_uar: free a UAR page.
 * @write_db: 64-bit MMIO write of the two big-endian words @val at byte
 *	@offset of @uar (mlx5_write64() semantics). Any context. The caller
 *	orders its memory writes before the call (wmb()) and rings with its
 *	send queue lock held and interrupts off, as mlx5_ib rings inside its
 *	SQ lock: send doorbells reach the backend with strictly increasing
 *	WQE indexes (modulo 2^16, restarting at 0 after the QP was reset),
 *	each naming the WQE that ends at the doorbell record, CQ arms with
 *	consumer indexes that never move back. The backend must not call into
 *	the service from here, @comp included: as on hardware, where the
 *	event follows the MMIO write as an interrupt, it delivers the
 *	completion events a doorbell causes later, from another context.
 * @internal_error: true once the device is in internal-error state (it
 *	will not complete anything again). Any context.
 */
struct mlx5_umr_hca_ops {
	int (*cmd_exec)(struct mlx5_umr_hca *hca, const void *in, int inlen,
			void *out, int outlen);
	int (*create_cq)(struct mlx5_umr_hca *hca, struct mlx5_umr_hca_cq *cq,
			 void *in, int inlen);
	int (*destroy_cq)(struct mlx5_umr_hca *hca,
			  struct mlx5_umr_hca_cq *cq);
	int (*alloc_dma_buf)(struct mlx5_umr_hca *hca, size_t size, int node,
			     struct mlx5_umr_dma_buf *buf);
	void (*free_dma_buf)(struct mlx5_umr_hca *hca,
			     struct mlx5_umr_dma_buf *buf);
	int (*dma_map_sg)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
			  enum dma_data_direction dir);
	void (*dma_unmap_sg)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
			     enum dma_data_direction dir);
	int (*alloc_uar)(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar);
	void (*free_uar)(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar);
	void (*write_db)(struct mlx5_umr_hca *hca, struct mlx5_umr_uar *uar,
			 unsigned int offset, const __be32 val[2]);
	bool (*internal_error)(struct mlx5_umr_hca *hca);
};

struct file;
struct ib_pd;
struct ib_mr;

/**
 * struct mlx5_umr_hca_ib_ops - verbs on the HCA's ib_device
 * @alloc_mr: ib_alloc_mr(@pd, IB_MR_TYPE_MEM_REG, 1): an MR the service
 *	reads back with QUERY_MKEY to learn @pd's PD number
 * @dereg_mr: ib_dereg_mr()
 * @user_pd_get: the user verbs PD of resource-tracking id @id of the
 *	ib_device, if it is the PD of handle @handle in the uverbs command
 *	file @verbs (its private_data compared, never dereferenced); held
 *	against its owner's destruction (its usecnt, as an MR in it) until
 *	@user_pd_put. ERR_PTR(-EXDEV): a command file of another device;
 *	-ENOENT: no PD of the device has @id; -EACCES: a kernel PD, another
 *	file's or another handle's; -EBUSY: being created or destroyed;
 *	-EOPNOTSUPP: no ib_device's user PDs here. The PD it returns is
 *	what @alloc_mr creates the probe MR in. Optional (NULL: no verified
 *	user PDs).
 * @user_pd_put: release a PD of @user_pd_get; before the ib_device's
 *	ib_uverbs client is removed, and before the PD's command file is
 *	released
 *
 * The service core does not link the RDMA core (it runs without one, on a
 * fake): the backend that has the ib_device lends it these calls.
 * Process context, may sleep.
 */
struct mlx5_umr_hca_ib_ops {
	struct ib_mr *(*alloc_mr)(struct ib_pd *pd);
	int (*dereg_mr)(struct ib_mr *mr);
	struct ib_pd *(*user_pd_get)(struct mlx5_umr_hca *hca,
				     struct file *verbs, u32 handle, u32 id);
	void (*user_pd_put)(struct ib_pd *pd);
};

/**
 * struct mlx5_umr_hca - one HCA offered to the service by a backend
 * @ops: backend operations
 * @dev: the device used for logging and as the parent of the char device
 * @name: stable name: the ib_device name for real HCAs, "fakeN" for fakes
 * @numa_node: NUMA node for allocations
 * @owner: module implementing @ops
 * @ibdev: the RDMA device this HCA is (the hardware backend's ib_device),
 *	NULL for fakes; the service only compares it
 *	(mlx5_umr_dev_get_ib()), never dereferences it
 * @ib_ops: verbs on @ibdev (mlx5_umr_pd_get_ib()), NULL when @ibdev is
 * @nqueues: a test HCA's number of UMR queues, 0 for the module
 *	parameter ``queues`` (the HCA's limits cap either)
 * @umr: set by the service while registered; backends must not touch it
 *
 * Backends embed this structure in their own per-device state.
 */
struct mlx5_umr_hca {
	const struct mlx5_umr_hca_ops *ops;
	struct device *dev;
	char name[32];
	int numa_node;
	struct module *owner;
	const struct ib_device *ibdev;
	const struct mlx5_umr_hca_ib_ops *ib_ops;
	u16 nqueues;
	struct mlx5_umr_dev *umr;
};

int mlx5_umr_register_hca(struct mlx5_umr_hca *hca);
void mlx5_umr_unregister_hca(struct mlx5_umr_hca *hca);

#endif /* _LINUX_MLX5_UMR_HCA_H */
