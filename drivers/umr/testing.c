// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the test interface of the service (<linux/mlx5_umr_testing.h>).
 *
 * Built only with MLX5_UMR_TESTING (make MLX5_UMR_TESTING=1): the fake
 * HCA's data path, and the encoder for the benchmark. A production
 * mlx5_umr.ko has none of it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr_hca.h>
#include <linux/mlx5_umr_testing.h>

#include "umr.h"

/**
 * mlx5_umr_register_test_hca() - offer a software HCA with test hooks
 * @hca: the HCA, as for mlx5_umr_register_hca()
 * @test_ops: its test hooks; @test_ops->xfer is required
 *
 * mlx5_umr_register_hca() for a fake HCA: mlx5_umr_test_xfer() and
 * MLX5_UMR_TEST_IOCTL_XFER then move data through its keys.
 *
 * Context: process context, may sleep.
 * Return: 0 or -errno, as mlx5_umr_register_hca().
 */
int mlx5_umr_register_test_hca(struct mlx5_umr_hca *hca,
			       const struct mlx5_umr_test_hca_ops *test_ops)
{
	if (!test_ops || !test_ops->xfer)
		return -EINVAL;
	return mlx5_umr_hca_add(hca, test_ops);
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_register_test_hca, MLX5_UMR_TESTING);

/**
 * mlx5_umr_dev_is_fake() - whether the device is a software (fake) HCA
 * @dev: the device
 *
 * Context: any.
 * Return: true when the backend registered the test data path.
 */
bool mlx5_umr_dev_is_fake(const struct mlx5_umr_dev *dev)
{
	return dev->test_ops;
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_dev_is_fake, MLX5_UMR_TESTING);

/**
 * mlx5_umr_test_xfer() - RDMA READ/WRITE through a key on a fake HCA
 * @dev: the device
 * @key: lkey/rkey to access through
 * @offset: byte offset into the key's address space
 * @buf: local buffer
 * @len: bytes
 * @write: move @buf into the memory (RDMA WRITE) rather than out of it
 * @remote: access as a remote peer with an rkey, not locally with an lkey
 *
 * Context: process context, may sleep.
 * Return: 0, the CQE syndrome a requester would see (> 0), -EOPNOTSUPP on
 * a real HCA, -ENODEV after unregistration.
 */
int mlx5_umr_test_xfer(struct mlx5_umr_dev *dev, u32 key, u64 offset,
		       void *buf, size_t len, bool write, bool remote)
{
	int ret;

	if (!dev->test_ops)
		return -EOPNOTSUPP;
	if (!percpu_ref_tryget_live(&dev->users))
		return -ENODEV;
	ret = dev->test_ops->xfer(dev->hca, key, offset, buf, len, write,
				  remote);
	percpu_ref_put(&dev->users);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_test_xfer, MLX5_UMR_TESTING);

/**
 * mlx5_umr_test_xfer_out() - mlx5_umr_test_xfer(), with what else it produced
 * @dev: the device
 * @key: lkey/rkey to access through
 * @offset: byte offset into the key's address space (for a signature mkey,
 *	its wire view)
 * @buf: local buffer
 * @len: bytes
 * @write: move @buf into the memory (RDMA WRITE) rather than out of it
 * @remote: access as a remote peer with an rkey, not locally with an lkey
 * @out: receives the SIG_ERR CQE of a failed signature check, if any
 *
 * A fake without the xfer_out hook reports no signature error.
 *
 * Context: process context, may sleep.
 * Return: as mlx5_umr_test_xfer().
 */
int mlx5_umr_test_xfer_out(struct mlx5_umr_dev *dev, u32 key, u64 offset,
			   void *buf, size_t len, bool write, bool remote,
			   struct mlx5_umr_test_xfer_out *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (!dev->test_ops)
		return -EOPNOTSUPP;
	if (!dev->test_ops->xfer_out)
		return mlx5_umr_test_xfer(dev, key, offset, buf, len, write,
					  remote);
	if (!percpu_ref_tryget_live(&dev->users))
		return -ENODEV;
	ret = dev->test_ops->xfer_out(dev->hca, key, offset, buf, len, write,
				      remote, out);
	percpu_ref_put(&dev->users);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_test_xfer_out, MLX5_UMR_TESTING);

/**
 * mlx5_umr_test_wqe_size() - mlx5_umr_wqe_size(), for the benchmark
 * @caps: device capabilities
 * @wr: a request that passed mlx5_umr_validate()
 *
 * Return: the size of the WQE for @wr in bytes.
 */
unsigned int mlx5_umr_test_wqe_size(const struct mlx5_umr_caps *caps,
				    const struct mlx5_umr_wr *wr)
{
	return mlx5_umr_wqe_size(caps, wr);
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_test_wqe_size, MLX5_UMR_TESTING);

/**
 * mlx5_umr_test_wqe_encode() - mlx5_umr_wqe_encode(), for the benchmark
 * @caps: device capabilities
 * @wr: a request that passed mlx5_umr_validate()
 * @xlt: the mkey's pointer-mode table (2048-byte aligned), or NULL
 * @xlt_dma: its device address
 * @xlt_size: its size in bytes
 * @idx: producer index for the control segment
 * @buf: where to write the WQE
 * @size: mlx5_umr_test_wqe_size() for @wr
 *
 * Encodes a signalled WQE, as the submission path does for the last
 * request of a batch, for QP number 0.
 *
 * Return: the number of bytes written (== @size) or -errno.
 */
int mlx5_umr_test_wqe_encode(const struct mlx5_umr_caps *caps,
			     const struct mlx5_umr_wr *wr, void *xlt,
			     dma_addr_t xlt_dma, u32 xlt_size, u16 idx,
			     void *buf, unsigned int size)
{
	const struct mlx5_umr_wqe_ctx ctx = {
		.caps = caps, .ptr_lkey = caps->dma_lkey,
	};
	const struct mlx5_umr_xlt t = {
		.cpu = xlt,
		.dma = xlt_dma,
		.size = xlt_size,
	};

	return mlx5_umr_wqe_encode(&ctx, wr, xlt ? &t : NULL, idx,
				   MLX5_WQE_CTRL_CQ_UPDATE, buf, size);
}
EXPORT_SYMBOL_NS_GPL(mlx5_umr_test_wqe_encode, MLX5_UMR_TESTING);
