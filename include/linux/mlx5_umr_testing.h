/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the test interface of the UMR service.
 *
 * Built only into a test build of mlx5_umr.ko (make MLX5_UMR_TESTING=1,
 * which defines MLX5_UMR_TESTING), as iommufd keeps its mock device and
 * test ioctls behind CONFIG_IOMMUFD_TEST. A production build exports none
 * of it. It serves the fake HCA, the KUnit suites and the benchmark; its
 * symbols live in the MLX5_UMR_TESTING namespace:
 * MODULE_IMPORT_NS(MLX5_UMR_TESTING).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _LINUX_MLX5_UMR_TESTING_H
#define _LINUX_MLX5_UMR_TESTING_H

#include <linux/types.h>
#include <linux/export.h>
#include <linux/mlx5_umr.h>
#include <linux/mlx5/device.h>

struct mlx5_umr_hca;

/*
 * Export an internal function to the KUnit suites and the benchmark, in a
 * test build only (like EXPORT_SYMBOL_IF_KUNIT() of later kernels'
 * <kunit/visibility.h>).
 */
#ifdef MLX5_UMR_TESTING
#define EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(sym) \
	EXPORT_SYMBOL_NS_GPL(sym, MLX5_UMR_TESTING)
#else
#define EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(sym)
#endif

/**
 * struct mlx5_umr_test_xfer_out - what an access produced besides its status
 * @sig_err: a signature check failed: @cqe holds the SIG_ERR CQE the
 *	accessing QP's CQ would receive (the access itself completes; a
 *	consumer polling that CQ hands the CQE to the mkey's owner)
 * @cqe: the CQE, as hardware writes it (op_own = MLX5_CQE_SIG_ERR << 4,
 *	owner bit 0; qpn 0: the test path has no QP)
 */
struct mlx5_umr_test_xfer_out {
	bool sig_err;
	struct mlx5_sig_err_cqe cqe;
};

/**
 * struct mlx5_umr_test_hca_ops - what a software HCA offers the tests
 * @xfer: move @len bytes between @buf and the memory addressed by @key at
 *	byte @offset of the mkey's address space, as a remote peer (RDMA
 *	READ/WRITE with an rkey) when @remote, else as a local access
 *	through an lkey. Any context. Returns the CQE syndrome the requester
 *	would see (0 for success) or a negative errno.
 * @xfer_out: as @xfer, and reports in @out what else the access produced
 *	(a signature error's CQE). Optional.
 *
 * Real hardware has no such path: a peer's RDMA WRITE needs a connected QP
 * on the wire. A fake HCA moves the bytes itself, so that tests prove
 * where every byte of a layout lands.
 */
struct mlx5_umr_test_hca_ops {
	int (*xfer)(struct mlx5_umr_hca *hca, u32 key, u64 offset, void *buf,
		    size_t len, bool write, bool remote);
	/* signature (issue 17) */
	int (*xfer_out)(struct mlx5_umr_hca *hca, u32 key, u64 offset,
			void *buf, size_t len, bool write, bool remote,
			struct mlx5_umr_test_xfer_out *out);
};

int mlx5_umr_register_test_hca(struct mlx5_umr_hca *hca,
			       const struct mlx5_umr_test_hca_ops *test_ops);
bool mlx5_umr_dev_is_fake(const struct mlx5_umr_dev *dev);
int mlx5_umr_test_xfer(struct mlx5_umr_dev *dev, u32 key, u64 offset,
		       void *buf, size_t len, bool write, bool remote);
int mlx5_umr_test_xfer_out(struct mlx5_umr_dev *dev, u32 key, u64 offset,
			   void *buf, size_t len, bool write, bool remote,
			   struct mlx5_umr_test_xfer_out *out);

/* The WQE encoder, for the benchmark (it times it alone). */
unsigned int mlx5_umr_test_wqe_size(const struct mlx5_umr_caps *caps,
				    const struct mlx5_umr_wr *wr);
int mlx5_umr_test_wqe_encode(const struct mlx5_umr_caps *caps,
			     const struct mlx5_umr_wr *wr, void *xlt,
			     dma_addr_t xlt_dma, u32 xlt_size, u16 idx,
			     void *buf, unsigned int size);

/* An mkey's home queue (sq_post.c), for tests of ULPs that own channels. */
struct mlx5_umr_queue *mlx5_umr_mkey_queue(struct mlx5_umr_mkey *mkey);

#endif /* _LINUX_MLX5_UMR_TESTING_H */
