/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause */
/*
 * mlx5-umr: the test ioctls of the character device.
 *
 * Only a test build of mlx5_umr.ko (make MLX5_UMR_TESTING=1) answers them;
 * a production build returns ENOTTY. Like iommufd's iommufd_test.h, this
 * header lives next to the driver and is not installed: the selftests and
 * the tools include it by path.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _UAPI_MLX5_UMR_TESTING_H
#define _UAPI_MLX5_UMR_TESTING_H

#include <linux/types.h>
#include <linux/ioctl.h>
#ifdef __KERNEL__
#include <uapi/linux/mlx5_umr.h>
#else
#include <linux/mlx5_umr.h>
#endif

/* Far from the production commands, as IOMMU_TEST_CMD is. */
enum {
	MLX5_UMR_CMD_TEST_INFO = MLX5_UMR_IOC_BASE + 0x20,
	MLX5_UMR_CMD_TEST_XFER,
};

enum mlx5_umr_test_info_flags {
	/* a fake HCA: MLX5_UMR_TEST_IOCTL_XFER moves data */
	MLX5_UMR_TEST_INFO_FAKE = 1 << 0,
};

/**
 * struct mlx5_umr_test_info - MLX5_UMR_TEST_IOCTL_INFO: what the test
 *	interface offers on this device
 * @size: sizeof(struct mlx5_umr_test_info)
 * @flags: must be 0
 * @out_flags: MLX5_UMR_TEST_INFO_*
 * @__reserved: must be 0
 * @out_max_xfer: largest length of MLX5_UMR_TEST_IOCTL_XFER (0 on real
 *	HCAs)
 */
struct mlx5_umr_test_info {
	__u32 size;
	__u32 flags;
	__u32 out_flags;
	__u32 __reserved;
	__aligned_u64 out_max_xfer;
};

#define MLX5_UMR_TEST_IOCTL_INFO _IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_TEST_INFO)

enum mlx5_umr_test_xfer_flags {
	MLX5_UMR_TEST_XFER_WRITE = 1 << 0,	/* else a read */
	MLX5_UMR_TEST_XFER_LOCAL = 1 << 1,	/* as an lkey, else an rkey */
	/*
	 * A failed signature check's SIG_ERR CQE goes to out_sig_cqe instead
	 * of to the service: the caller hands it in with
	 * MLX5_UMR_IOCTL_SIG_REPORT, as the consumer of a real QP's CQ would.
	 */
	MLX5_UMR_TEST_XFER_SIG_CQE = 1 << 2,
};

enum mlx5_umr_test_xfer_out_flags {
	/* a signature check failed (the transfer itself completed) */
	MLX5_UMR_TEST_XFER_OUT_SIG_ERR = 1 << 0,
};

/**
 * struct mlx5_umr_test_xfer - MLX5_UMR_TEST_IOCTL_XFER: fake HCAs only: an
 *	RDMA WRITE or READ through a key, as a remote peer would issue it
 * @size: sizeof(struct mlx5_umr_test_xfer)
 * @flags: MLX5_UMR_TEST_XFER_*
 * @key: key of an object of this file
 * @__reserved: must be 0
 * @offset: byte offset in the key's address space (the user address for
 *	registered memory, zero based for indirect mkeys)
 * @buf: user buffer of @length bytes (source of a write, destination of
 *	a read)
 * @length: bytes, 1..out_max_xfer of MLX5_UMR_TEST_IOCTL_INFO (EINVAL
 *	otherwise)
 * @out_status: the CQE syndrome the requester would see, 0 for success;
 *	the ioctl itself succeeds when the transfer was attempted
 * @__reserved2: must be 0
 * @out_flags: MLX5_UMR_TEST_XFER_OUT_*
 * @__reserved3: must be 0
 * @out_sig_cqe: with MLX5_UMR_TEST_XFER_SIG_CQE and
 *	MLX5_UMR_TEST_XFER_OUT_SIG_ERR, the SIG_ERR CQE (struct
 *	mlx5_sig_err_cqe) the accessing QP's CQ would receive
 *
 * Through a signature mkey @offset and @length are in the wire view (the
 * data as a peer sends or receives it). A failed signature check is
 * reported to the service as its SIG_ERR CQE would be by the accessing
 * QP's consumer (MLX5_UMR_IOCTL_SIG_CHECK then reads it), or returned
 * with MLX5_UMR_TEST_XFER_SIG_CQE.
 *
 * EOPNOTSUPP on a real HCA; EFAULT for an unmapped @buf; otherwise the
 * errors of the other commands (uapi/linux/mlx5_umr.h).
 */
struct mlx5_umr_test_xfer {
	__u32 size;
	__u32 flags;
	__u32 key;
	__u32 __reserved;
	__aligned_u64 offset;
	__aligned_u64 buf;
	__aligned_u64 length;
	__u32 out_status;
	__u32 __reserved2;
	__u32 out_flags;
	__u32 __reserved3;
	__u8 out_sig_cqe[64];
};

#define MLX5_UMR_TEST_IOCTL_XFER _IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_TEST_XFER)

#endif /* _UAPI_MLX5_UMR_TESTING_H */
