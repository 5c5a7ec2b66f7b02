/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the rules every translation entry of a layout must pass.
 *
 * One function per rule of Documentation/validation.rst, each returning
 * that rule's one errno, on scalars so that every path applies the same
 * function to its own representation: validation (validate.c, a whole
 * request before it is posted), the encoder (wqe.c, each entry as it
 * writes it, so the submission path reads every entry once) and the uapi
 * (through umr_uapi.c, each entry a user hands in, before it looks up the
 * memory the entry names).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_ENTRY_RULES_H
#define MLX5_UMR_ENTRY_RULES_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr.h>

/*
 * One KLM addresses at most 2 GiB: rdma-core mlx5dv.h struct
 * mlx5_wqe_umr_klm_seg ("up to 2GB") and qp.c set_bind_wr(); mlx5_core
 * main.c caps the device's DMA segments at 2 GiB for the same reason.
 */
#define MLX5_UMR_KLM_MAX_BYTES	BIT(31)

/* Rules 12 and 22: a KLM describes 1 byte to 2 GiB. */
static __always_inline int mlx5_umr_rule_klm_bytes(u64 bytes)
{
	if (!bytes || bytes > MLX5_UMR_KLM_MAX_BYTES)
		return -EINVAL;
	return 0;
}

/*
 * Rules 13, 19 and 32: [@addr, @addr + @bytes) does not wrap; it may end
 * at 2^64. @bytes > 0.
 */
static __always_inline int mlx5_umr_rule_no_wrap(u64 addr, u64 bytes)
{
	if (addr + (bytes - 1) < addr)
		return -EOVERFLOW;
	return 0;
}

/* Rule 17: an interleaved entry takes at least one byte per cycle. */
static __always_inline int mlx5_umr_rule_il_bytes(u32 bytes_count)
{
	return bytes_count ? 0 : -EINVAL;
}

/*
 * Rule 18: stride (bytes_count + bytes_skip, computed in 64 bits so that a
 * sum wrapping 32 bits is caught) and bcount are 16-bit fields of
 * struct mlx5_stride_block_entry. A malformed entry, not a wrapping range:
 * EINVAL, on every path (the uapi answered EOVERFLOW before).
 */
static __always_inline int mlx5_umr_rule_il_stride(u32 bytes_count,
						   u32 bytes_skip)
{
	if ((u64)bytes_count + bytes_skip > U16_MAX)
		return -EINVAL;
	return 0;
}

/*
 * Rule 19: the entry's last byte, addr + stride x (repeat - 1) +
 * bytes_count - 1, does not wrap. Rules 16 to 18 hold. The span is below
 * 2^16 x 2^32: only an address in the top 2^48 bytes can wrap, so the
 * multiplication is left to those.
 */
static __always_inline int mlx5_umr_rule_il_no_wrap(u64 addr, u32 bytes_count,
						    u32 bytes_skip, u32 repeat)
{
	u64 span;

	if (likely(addr <= U64_MAX - BIT_ULL(48)))
		return 0;
	span = ((u64)bytes_count + bytes_skip) * (repeat - 1) + bytes_count;
	return mlx5_umr_rule_no_wrap(addr, span);
}

/*
 * Rule 35: the first KLM of a list does not name key MLX5_STRIDE_BLOCK_OP.
 * A KLM translation and a repeat block share the mkey's access mode
 * (KLMS); the device tells them apart only by the second word of the first
 * entry, a KLM's key and a repeat block header's op (mlx5 qp.h struct
 * mlx5_klm and struct mlx5_stride_block_ctrl_seg, rdma-core
 * union mlx5_wqe_umr_inline_seg), so that key would be read as a header.
 * The service never creates it (mlx5_umr_key_byte()); a foreign key that
 * is 0x400 is refused: EINVAL, malformed for this wire format
 * (Documentation/validation.rst).
 */
static __always_inline int mlx5_umr_rule_list_first_key(u32 key)
{
	return unlikely(key == MLX5_STRIDE_BLOCK_OP) ? -EINVAL : 0;
}

/* Rules 12 and 13: one SGE-list entry. */
static __always_inline int mlx5_umr_sge_check(const struct mlx5_umr_sge *sge)
{
	return mlx5_umr_rule_klm_bytes(sge->length) ?:
	       mlx5_umr_rule_no_wrap(sge->addr, sge->length);
}

/* Rules 17 to 19: one interleaved entry, @repeat > 0 (rule 16). */
static __always_inline int
mlx5_umr_il_check(const struct mlx5_umr_interleaved *ent, u32 repeat)
{
	return mlx5_umr_rule_il_bytes(ent->bytes_count) ?:
	       mlx5_umr_rule_il_stride(ent->bytes_count, ent->bytes_skip) ?:
	       mlx5_umr_rule_il_no_wrap(ent->addr, ent->bytes_count,
					ent->bytes_skip, repeat);
}

#endif /* MLX5_UMR_ENTRY_RULES_H */
