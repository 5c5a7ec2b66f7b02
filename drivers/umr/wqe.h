/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: UMR WQE encoder and request validation (pure functions).
 *
 * The encoder writes the bytes of one WQE into a caller-provided linear
 * buffer using the kernel's wire structs from include/linux/mlx5/; it never
 * touches the ring, a lock or the device. The submission core copies the
 * result into the send queue (handling wrap-around) and rings the doorbell.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_WQE_H
#define MLX5_UMR_WQE_H

#include <linux/types.h>
#include <linux/mlx5_umr.h>
/* EXPORT_SYMBOL_IF_MLX5_UMR_TESTING() of the encoder and the rules */
#include <linux/mlx5_umr_testing.h>

/**
 * struct mlx5_umr_xlt - a pointer-mode translation table
 * @cpu: kernel address, 2048-byte aligned (MLX5_UMR_ALIGN)
 * @dma: device address of @cpu, reachable through the queue's ptr_lkey
 * @size: bytes available at @cpu
 *
 * Owned by an mkey whose capacity exceeds the inline limit; the encoder
 * fills it and points the WQE's data segment at it.
 */
struct mlx5_umr_xlt {
	void *cpu;
	dma_addr_t dma;
	u32 size;
};

/**
 * struct mlx5_umr_wqe_ctx - per-QP constants the encoder needs
 * @caps: device capabilities
 * @qpn: the REG_UMR QP number (ctrl segment)
 * @ptr_lkey: the key of a pointer-mode translation table's data segment:
 *	a PA mkey of the QP's PD (caps->dma_lkey in the service's), since
 *	the HCA reads the table as that QP (umr.c mlx5r_umr_create_xlt()
 *	names umrc.pd's local_dma_lkey)
 */
struct mlx5_umr_wqe_ctx {
	const struct mlx5_umr_caps *caps;
	u32 qpn;
	u32 ptr_lkey;
};

/**
 * mlx5_umr_wr_check() - validate a request before anything is built
 * @caps: device capabilities
 * @wr: the request
 *
 * Return: 0, or -EINVAL / -ENOMEM / -EOPNOTSUPP / -EOVERFLOW following the
 * rules rdma-core's mlx5 provider applies to the same setters (see
 * Documentation/validation.rst).
 */
int mlx5_umr_wr_check(const struct mlx5_umr_caps *caps,
		      const struct mlx5_umr_wr *wr);

/**
 * mlx5_umr_wr_prepare() - validate a request and size its WQE, at once
 * @caps: device capabilities
 * @wr: the request
 *
 * The submission path's per-request call before anything is written:
 * every rule of mlx5_umr_wr_check() except those on each entry of a list
 * or interleaved layout, which mlx5_umr_wqe_encode() applies as it writes
 * the entries; then mlx5_umr_wqe_size().
 *
 * Return: the WQE's size in bytes, or the errno of the first rule broken.
 */
int mlx5_umr_wr_prepare(const struct mlx5_umr_caps *caps,
			const struct mlx5_umr_wr *wr);

/**
 * mlx5_umr_wqe_size() - bytes the WQE for @wr occupies in the send queue
 * @caps: device capabilities
 * @wr: a request that passed mlx5_umr_wr_check()
 *
 * Return: a multiple of MLX5_SEND_WQE_BB, at most 15 of them (the ds
 * count of the ctrl segment is 6 bits wide).
 */
unsigned int mlx5_umr_wqe_size(const struct mlx5_umr_caps *caps,
			       const struct mlx5_umr_wr *wr);

/**
 * mlx5_umr_wqe_encode() - build one UMR WQE
 * @ctx: QP constants
 * @wr: a request that passed mlx5_umr_wr_prepare() (or mlx5_umr_wr_check())
 * @xlt: the mkey's pointer-mode table, or NULL if it has none
 * @idx: producer index (WQE counter) for the control segment
 * @fm_ce_se: fence mode and completion flags (MLX5_FENCE_MODE_*,
 *	MLX5_WQE_CTRL_CQ_UPDATE)
 * @buf: where to write; zeroed by the encoder as needed
 * @size: mlx5_umr_wqe_size() for @wr
 *
 * The entries of a list or interleaved layout are checked as they are
 * written (rules 12-13 and 17-19 of Documentation/validation.rst, shared
 * with mlx5_umr_wr_check() through rules.h): on a bad entry @buf
 * holds a partial WQE, which the caller must not publish.
 *
 * With MLX5_UMR_WR_SET_SIG the request is a chain: the UMR WQE with its
 * BSF, then a SET_PSV WQE per domain with a signature (index @idx + the
 * UMR's basic blocks, and on), the last asking for the CQE
 * (Documentation/signature.rst).
 *
 * Return: the number of bytes written (== @size), or -EINVAL / -EOVERFLOW
 * for a bad entry, or -EINVAL for a bad @size or missing @xlt.
 */
int mlx5_umr_wqe_encode(const struct mlx5_umr_wqe_ctx *ctx,
			const struct mlx5_umr_wr *wr,
			const struct mlx5_umr_xlt *xlt, u16 idx, u8 fm_ce_se,
			void *buf, unsigned int size);

#endif /* MLX5_UMR_WQE_H */
