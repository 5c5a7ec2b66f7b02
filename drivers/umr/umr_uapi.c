// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the rules the character device applies before any lookup
 * (umr_uapi.h), out of line: the very functions validation applies, so
 * that the uapi keeps no copy of a rule and never sees the rule headers.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/build_bug.h>
#include <uapi/linux/mlx5_umr.h>

#include "umr.h"
#include "umr_uapi.h"
#include "rules.h"
#include "xlt.h"

static_assert(MLX5_UMR_WR_MAX_KLMS == MLX5_UMR_XLT_MAX_KLMS);
/* The uapi's limit is what one REG_PAGES work request can describe. */
static_assert(MLX5_UMR_IOC_MAX_REG_PAGES ==
	      MLX5_UMR_XLT_MAX_BYTES / sizeof(struct mlx5_mtt));
/* The files' share is half their queue's ring (uapi_main.c). */
static_assert(MLX5_UMR_IOC_MAX_INFLIGHT_BBS * 2 <= 1U << MLX5_UMR_LOG_SQ_BBS);
/* The uapi passes the access bits through unchanged. */
static_assert(MLX5_UMR_IOC_ACCESS_LOCAL_WRITE == MLX5_UMR_ACCESS_LOCAL_WRITE);
static_assert(MLX5_UMR_IOC_ACCESS_REMOTE_WRITE == MLX5_UMR_ACCESS_REMOTE_WRITE);
static_assert(MLX5_UMR_IOC_ACCESS_REMOTE_READ == MLX5_UMR_ACCESS_REMOTE_READ);
static_assert(MLX5_UMR_IOC_ACCESS_REMOTE_ATOMIC ==
	      MLX5_UMR_ACCESS_REMOTE_ATOMIC);

/**
 * mlx5_umr_precheck_access_bits() - rule 7 on access rights
 * @access: MLX5_UMR_ACCESS_*
 *
 * Return: 0 or -EINVAL.
 */
int mlx5_umr_precheck_access_bits(u32 access)
{
	return mlx5_umr_rule_access_bits(access);
}

/**
 * mlx5_umr_precheck_access() - rules 7 and 8 on access rights
 * @caps: the device's
 * @access: MLX5_UMR_ACCESS_*
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP.
 */
int mlx5_umr_precheck_access(const struct mlx5_umr_caps *caps, u32 access)
{
	return mlx5_umr_check_access(caps, access);
}

/**
 * mlx5_umr_precheck_repeat() - rule 16: an interleaved layout's repeat count
 * @repeat: cycles
 *
 * Return: 0 or -EINVAL.
 */
int mlx5_umr_precheck_repeat(u32 repeat)
{
	return mlx5_umr_rule_il_repeat(repeat);
}

/**
 * mlx5_umr_precheck_capacity() - rules 11 and 15: entries @mkey takes
 * @caps: the device's
 * @mkey: an indirect mkey
 * @layout: MLX5_UMR_LAYOUT_LIST or MLX5_UMR_LAYOUT_INTERLEAVED
 * @n: entries of the layout
 *
 * Return: 0 or -ENOMEM.
 */
int mlx5_umr_precheck_capacity(const struct mlx5_umr_caps *caps,
			       const struct mlx5_umr_mkey *mkey,
			       enum mlx5_umr_layout layout, u32 n)
{
	if (layout == MLX5_UMR_LAYOUT_LIST)
		return mlx5_umr_rule_list_capacity(caps, mkey, n);
	return mlx5_umr_rule_il_capacity(caps, mkey, n);
}

/**
 * mlx5_umr_precheck_sge() - rules 12 and 13 on one entry of a list
 * @sge: the entry
 *
 * Return: 0, -EINVAL or -EOVERFLOW.
 */
int mlx5_umr_precheck_sge(const struct mlx5_umr_sge *sge)
{
	return mlx5_umr_sge_check(sge);
}

/**
 * mlx5_umr_precheck_il() - rules 17 to 19 on one interleaved entry
 * @ent: the entry
 * @repeat: the layout's repeat count, not 0 (rule 16)
 *
 * Return: 0, -EINVAL or -EOVERFLOW.
 */
int mlx5_umr_precheck_il(const struct mlx5_umr_interleaved *ent, u32 repeat)
{
	return mlx5_umr_il_check(ent, repeat);
}

/**
 * mlx5_umr_mkey_max_klms() - the most entries of an indirect mkey
 * @caps: the device's
 *
 * The device's KLM list and one work request's translation (rule 11); an
 * interleaved layout takes one less (rule 15).
 *
 * Return: the entries.
 */
u32 mlx5_umr_mkey_max_klms(const struct mlx5_umr_caps *caps)
{
	return min_t(u32, caps->max_klm_entries, MLX5_UMR_XLT_MAX_KLMS);
}

/*
 * The basic blocks a re-arm of @mkey posts at most (mlx5_umr_sig_check()):
 * the UMR with the BSF and a SET_PSV per domain, both domains counted.
 */
u16 mlx5_umr_sig_rearm_bbs(struct mlx5_umr_mkey *mkey)
{
	static const struct mlx5_umr_sig_attr both = {
		.mem.sig_type = MLX5_UMR_SIG_T10DIF,
		.wire.sig_type = MLX5_UMR_SIG_T10DIF,
	};
	struct mlx5_umr_wr wr = {
		.mkey = mkey,
		.op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_SIG,
		.sig = &both,
	};

	return DIV_ROUND_UP(mlx5_umr_wqe_bytes(mlx5_umr_dev_caps(mkey->dev),
					       &wr), MLX5_SEND_WQE_BB);
}
