/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr sample ULP: what an NVMe-oF or iSER target does per I/O with
 * the UMR service. Exported for its KUnit test (MLX5_UMR_TESTING).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_SAMPLE_H
#define MLX5_UMR_SAMPLE_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/scatterlist.h>
#include <linux/dma-direction.h>
#include <linux/mlx5_umr.h>

struct mlx5_umr_sample_dev;
struct mlx5_umr_sample_slot;

/**
 * struct mlx5_umr_sample_chan - a UMR channel and the pool homed on it
 * @sdev: the device state
 * @q: the channel (channels=percpu), NULL on the device's own queues
 *	(channels=shared)
 * @lock: protects @free
 * @free: idle I/O slots, each owning one mkey homed on @q
 * @ios: the slots, @nios of them
 * @nios: how many
 */
struct mlx5_umr_sample_chan {
	struct mlx5_umr_sample_dev *sdev;
	struct mlx5_umr_queue *q;
	spinlock_t lock; /* @free */
	struct list_head free;
	struct mlx5_umr_sample_slot *ios;
	unsigned int nios;
};

/**
 * struct mlx5_umr_sample_io - one I/O's memory registration
 * @sdev: the device state
 * @chan: the channel whose pool lent @mkey (homed on its queue): the I/O
 *	returns there from whichever CPU unmaps it
 * @mkey: the indirect mkey lent to this I/O
 * @sgt: the I/O's scatterlist, DMA-mapped while registered
 * @dir: DMA direction of the I/O's data
 * @rkey: what the I/O hands to the remote peer
 * @wr: the UMR request (the configure)
 * @revoke: the revocation of the rkey, on a failed configure and in
 *	mlx5_umr_sample_unmap()
 * @done: called once the rkey is invalid and the pages unmapped (status
 *	0), or with -EHWPOISON when it may still be live and the pages stay
 *	mapped for good; process context
 * @context: for the caller of mlx5_umr_sample_unmap()
 */
struct mlx5_umr_sample_io {
	struct mlx5_umr_sample_dev *sdev;
	struct mlx5_umr_sample_chan *chan;
	struct mlx5_umr_mkey *mkey;
	struct sg_table *sgt;
	enum dma_data_direction dir;
	u32 rkey;
	struct mlx5_umr_wr wr;
	struct mlx5_umr_revoke revoke;
	void (*done)(struct mlx5_umr_sample_io *io, int status);
	void *context;
};

struct mlx5_umr_sample_io *mlx5_umr_sample_map(struct mlx5_umr_dev *dev,
					       struct sg_table *sgt, u64 len,
					       enum dma_data_direction dir);
struct ib_pd;
int mlx5_umr_sample_set_pd(struct ib_pd *ibpd);
struct mlx5_umr_sample_chan *mlx5_umr_sample_chan(struct mlx5_umr_dev *dev,
						  unsigned int cpu);
int mlx5_umr_sample_unmap(struct mlx5_umr_sample_io *io,
			  void (*done)(struct mlx5_umr_sample_io *io,
				       int status),
			  void *context);

#endif /* MLX5_UMR_SAMPLE_H */
