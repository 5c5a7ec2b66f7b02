// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the RDMA core's signature attributes (struct ib_sig_attrs,
 * include/rdma/signature.h, as nvme-rdma and iSER fill them for an
 * IB_WR_REG_MR_INTEGRITY) as the service's block signature.
 *
 * mlx5_ib turns them into a BSF in mlx5_set_bsf() and mlx5_fill_inl_bsf()
 * (drivers/infiniband/hw/mlx5/wr.c, same in 6.1 and 6.12); this follows
 * it field by field, except where the service's attributes (rdma-core's
 * mlx5dv_sig_block_attr) say more or less than struct ib_sig_attrs:
 * - bg, the guard's seed: mlx5_ib never writes it, rdma-core does
 *   (MLX5_BSF_SEED); it is passed on, so only 0 and 0xffff are taken.
 * - apptag_check_mask: rdma-core always checks all 16 bits of the
 *   application tag; another mask is refused when the tag is checked.
 * - The copy mask: mlx5_ib copies the guard when both domains have the
 *   same guard type, the service (as rdma-core) when the seed matches too.
 * - pi_interval 4048 is a block size rdma-core has and mlx5_ib's
 *   bs_selector() lacks; it is taken.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/string.h>
#include <linux/mlx5_umr.h>
#include <rdma/signature.h>

static_assert(IB_SIG_CHECK_GUARD == MLX5_UMR_SIG_MASK_T10DIF_GUARD);
static_assert(IB_SIG_CHECK_APPTAG == MLX5_UMR_SIG_MASK_T10DIF_APPTAG);
static_assert(IB_SIG_CHECK_REFTAG == MLX5_UMR_SIG_MASK_T10DIF_REFTAG);

static int mlx5_umr_sig_block_from_ib(u16 pi_interval, u32 *block_size)
{
	switch (pi_interval) {
	case 512:
		*block_size = MLX5_UMR_SIG_BLOCK_512;
		return 0;
	case 520:
		*block_size = MLX5_UMR_SIG_BLOCK_520;
		return 0;
	case 4048:
		*block_size = MLX5_UMR_SIG_BLOCK_4048;
		return 0;
	case 4096:
		*block_size = MLX5_UMR_SIG_BLOCK_4096;
		return 0;
	case 4160:
		*block_size = MLX5_UMR_SIG_BLOCK_4160;
		return 0;
	default:
		return -EINVAL;
	}
}

static int mlx5_umr_sig_domain_from_ib(const struct ib_sig_domain *ib,
				       bool apptag_checked,
				       struct mlx5_umr_sig_domain *d)
{
	const struct ib_t10_dif_domain *dif = &ib->sig.dif;

	memset(d, 0, sizeof(*d));
	switch (ib->sig_type) {
	case IB_SIG_TYPE_NONE:
		d->sig_type = MLX5_UMR_SIG_NONE;
		return 0;
	case IB_SIG_TYPE_T10_DIF:
		break;
	default:
		return -EINVAL;
	}
	d->sig_type = MLX5_UMR_SIG_T10DIF;
	switch (dif->bg_type) {
	case IB_T10DIF_CRC:
		d->dif.bg_type = MLX5_UMR_SIG_T10DIF_CRC;
		break;
	case IB_T10DIF_CSUM:
		d->dif.bg_type = MLX5_UMR_SIG_T10DIF_CSUM;
		break;
	default:
		return -EINVAL;
	}
	if (dif->bg != 0 && dif->bg != 0xffff)
		return -EINVAL;
	if (apptag_checked && dif->apptag_check_mask != 0xffff)
		return -EOPNOTSUPP;
	d->dif.bg = dif->bg;
	d->dif.app_tag = dif->app_tag;
	d->dif.ref_tag = dif->ref_tag;
	if (dif->ref_remap)
		d->dif.flags |= MLX5_UMR_SIG_T10DIF_REF_REMAP;
	/* mlx5_fill_inl_bsf(): ref_escape counts only with app_escape */
	if (dif->app_escape)
		d->dif.flags |= dif->ref_escape ?
				MLX5_UMR_SIG_T10DIF_APP_REF_ESCAPE :
				MLX5_UMR_SIG_T10DIF_APP_ESCAPE;
	return mlx5_umr_sig_block_from_ib(dif->pi_interval, &d->block_size);
}

/**
 * mlx5_umr_sig_attr_from_ib() - the service's signature for an ib_sig_attrs
 * @ib: as a ULP fills it for IB_WR_REG_MR_INTEGRITY (@ib->meta_length is
 *	not part of the signature: the layout carries the metadata)
 * @attr: written whole on success
 *
 * Only the fields mlx5_ib reads are read. The result is checked by the
 * request rules when it is posted (e.g. a signature in at least one
 * domain), not here.
 *
 * Context: any context.
 * Return: 0; -EINVAL for a signature type, guard type or protection
 * interval that is none of struct ib_sig_attrs' values mlx5 can do, or a
 * guard seed other than 0 and 0xffff; -EOPNOTSUPP for an application tag
 * check (IB_SIG_CHECK_APPTAG in @ib->check_mask) with an
 * apptag_check_mask other than 0xffff.
 */
int mlx5_umr_sig_attr_from_ib(const struct ib_sig_attrs *ib,
			      struct mlx5_umr_sig_attr *attr)
{
	bool apptag = ib->check_mask & IB_SIG_CHECK_APPTAG;
	struct mlx5_umr_sig_attr a = {};
	int err;

	err = mlx5_umr_sig_domain_from_ib(&ib->mem, apptag, &a.mem) ?:
	      mlx5_umr_sig_domain_from_ib(&ib->wire, apptag, &a.wire);
	if (err)
		return err;
	a.check_mask = ib->check_mask;
	*attr = a;
	return 0;
}
EXPORT_SYMBOL(mlx5_umr_sig_attr_from_ib);
