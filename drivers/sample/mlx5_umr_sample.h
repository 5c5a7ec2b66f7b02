/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr sample ULP: what an NVMe-oF or iSER target does per I/O with
 * the UMR service. Exported for its KUnit test (MLX5_UMR_TESTING).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_SAMPLE_H
#define MLX5_UMR_SAMPLE_H

#include <linux/workqueue.h>
#include <linux/scatterlist.h>
#include <linux/dma-direction.h>
#include <linux/mlx5_umr.h>

struct mlx5_umr_sample_dev;

/**
 * struct mlx5_umr_sample_io - one I/O's memory registration
 * @sdev: the device state
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
int mlx5_umr_sample_unmap(struct mlx5_umr_sample_io *io,
			  void (*done)(struct mlx5_umr_sample_io *io,
				       int status),
			  void *context);

#endif /* MLX5_UMR_SAMPLE_H */
