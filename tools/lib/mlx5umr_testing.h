/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libmlx5umr's test-only calls: the data path of a fake HCA, answered by a
 * test build of mlx5_umr.ko only (MLX5_UMR_TESTING=1). Not installed, and
 * defined in mlx5umr_testing.c (lib/libmlx5umr_testing.a), not in
 * libmlx5umr.so.0: the tests and umrctl's write and read link it from the
 * tree.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5UMR_TESTING_H
#define MLX5UMR_TESTING_H

#include "mlx5umr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of mlx5umr_xfer(). */
enum {
	MLX5UMR_XFER_WRITE = 1 << 0,	/* else a read */
	MLX5UMR_XFER_LOCAL = 1 << 1,	/* through an lkey, else an rkey */
};

/*
 * Fake HCAs of a test build of the module only (MLX5_UMR_TESTING=1; ENOTTY
 * from a production build): an RDMA WRITE (MLX5UMR_XFER_WRITE) or READ of
 * @len bytes at @offset of @key's address space, as a remote peer. Returns
 * 0 when the transfer was attempted, with *@status the CQE syndrome
 * (0 = success).
 */
int mlx5umr_xfer(struct mlx5umr_context *ctx, uint32_t key, uint64_t offset,
		 void *buf, size_t len, uint32_t flags, uint32_t *status);
/*
 * As mlx5umr_xfer(); through a signature mkey @offset and @len are in the
 * wire view. *@sig_err (if not NULL) is set when a signature check failed
 * (the transfer completed): its SIG_ERR CQE was reported to the service
 * (mlx5umr_mkey_check() finds it) or, with @sig_cqe not NULL, copied
 * there (64 bytes) for mlx5umr_sig_report().
 */
int mlx5umr_xfer_sig(struct mlx5umr_context *ctx, uint32_t key,
		     uint64_t offset, void *buf, size_t len, uint32_t flags,
		     uint32_t *status, int *sig_err, void *sig_cqe);

#ifdef __cplusplus
}
#endif

#endif /* MLX5UMR_TESTING_H */
