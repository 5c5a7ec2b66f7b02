/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the rules every translation entry of a layout must pass.
 *
 * Shared by validation (validate.c, which checks a whole request before it
 * is posted) and the encoder (wqe.c), which checks each entry as it writes
 * it, so the submission path reads every entry once. Rule numbers are those
 * of Documentation/validation.rst.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_ENTRY_RULES_H
#define MLX5_UMR_ENTRY_RULES_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/mlx5_umr.h>

/*
 * One KLM addresses at most 2 GiB: rdma-core mlx5dv.h struct
 * mlx5_wqe_umr_klm_seg ("up to 2GB") and qp.c set_bind_wr(); mlx5_core
 * main.c caps the device's DMA segments at 2 GiB for the same reason.
 */
#define MLX5_UMR_KLM_MAX_BYTES	BIT(31)

/* Rules 12 and 13: one SGE-list entry. */
static inline int mlx5_umr_sge_check(const struct mlx5_umr_sge *sge)
{
	if (!sge->length || sge->length > MLX5_UMR_KLM_MAX_BYTES)
		return -EINVAL;
	/* [addr, addr + length) must not wrap */
	if (sge->addr + (sge->length - 1) < sge->addr)
		return -EOVERFLOW;
	return 0;
}

/* Rules 17 to 19: one interleaved entry, @repeat > 0 (rule 16). */
static inline int mlx5_umr_il_check(const struct mlx5_umr_interleaved *ent,
				    u32 repeat)
{
	u64 stride = (u64)ent->bytes_count + ent->bytes_skip;
	u64 span;

	/* stride and bcount are 16-bit fields of the entry */
	if (!ent->bytes_count || stride > U16_MAX)
		return -EINVAL;
	/*
	 * The span is below 2^16 * 2^32: only an address in the top 2^48
	 * bytes can wrap, so the multiplication is left to those.
	 */
	if (unlikely(ent->addr > U64_MAX - BIT_ULL(48))) {
		span = stride * (repeat - 1) + ent->bytes_count;
		if (ent->addr + (span - 1) < ent->addr)
			return -EOVERFLOW;
	}
	return 0;
}

#endif /* MLX5_UMR_ENTRY_RULES_H */
