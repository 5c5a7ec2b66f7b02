// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: stand-ins of mlx5_ib's objects, for tests.
 *
 * A real HCA is an ib_device whose PDs a ULP holds; the service turns such
 * a struct ib_pd into the HCA's PD number through the verbs API (an MR
 * created in the PD, read back with QUERY_MKEY; drivers/umr/pd.c). The
 * fake has no RDMA core behind it (the test kernel has none), so it offers
 * stand-ins: one struct ib_device per fake whose alloc_mr/dereg_mr create
 * and destroy mkeys through the fake's own command path, and consumer PDs
 * (mlx5_umr_fake_ib_pd_alloc()) built as ib_alloc_pd() builds them on
 * mlx5: ALLOC_PD, then a DMA MR (a PA mkey with local read and write in
 * that PD) as local_dma_lkey. Nothing here is registered with an RDMA
 * core; only the fields the service and the tests read are set.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "fake.h"

/* The key byte of the stand-ins' mkeys (any byte but 0). */
#define FAKE_IB_KEY_BYTE	0x5a

static struct fake_ib_pd *to_fake_ib_pd(struct ib_pd *pd)
{
	return container_of(pd, struct fake_ib_pd, ibpd);
}

static int fake_ib_cmd(struct mlx5_umr_fake *fd, const void *in, int inlen,
		       void *out, int outlen)
{
	return fake_cmd_do(fd, in, inlen, out, outlen, NULL);
}

static int fake_ib_create_mkey(struct mlx5_umr_fake *fd, u32 pdn, bool pa,
			       u32 *key)
{
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_mkey_in)] = {};
	void *mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	int err;

	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, pd, pdn);
	MLX5_SET(mkc, mkc, mkey_7_0, FAKE_IB_KEY_BYTE);
	MLX5_SET(mkc, mkc, lr, 1);
	if (pa) {
		/* mr.c mlx5_ib_get_dma_mr() */
		MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_PA);
		MLX5_SET(mkc, mkc, lw, 1);
		MLX5_SET(mkc, mkc, length64, 1);
	} else {
		/* mr.c __mlx5_ib_alloc_mr(): a free KLM mkey for fast reg */
		MLX5_SET(mkc, mkc, access_mode_1_0, MLX5_MKC_ACCESS_MODE_KLMS);
		MLX5_SET(mkc, mkc, free, 1);
		MLX5_SET(mkc, mkc, umr_en, 1);
		MLX5_SET(mkc, mkc, translations_octword_size, 4);
	}
	err = fake_ib_cmd(fd, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	*key = MLX5_GET(create_mkey_out, out, mkey_index) << 8 |
	       FAKE_IB_KEY_BYTE;
	return 0;
}

static void fake_ib_destroy_mkey(struct mlx5_umr_fake *fd, u32 key)
{
	u32 out[MLX5_ST_SZ_DW(destroy_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};

	MLX5_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	MLX5_SET(destroy_mkey_in, in, mkey_index, key >> 8);
	fake_ib_cmd(fd, in, sizeof(in), out, sizeof(out));
}

/* The stand-in device's ib_device_ops.alloc_mr (mlx5_ib_alloc_mr()). */
static struct ib_mr *fake_ib_dev_alloc_mr(struct ib_pd *pd,
					  enum ib_mr_type type, u32 max_sg)
{
	struct fake_ib_pd *fpd = to_fake_ib_pd(pd);
	struct ib_mr *mr;
	int err;

	if (type != IB_MR_TYPE_MEM_REG || max_sg > 4)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	err = fake_ib_create_mkey(fpd->fd, fpd->pdn, false, &mr->lkey);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	mr->rkey = mr->lkey;
	return mr;
}

static int fake_ib_dev_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	fake_ib_destroy_mkey(to_fake_ib_pd(mr->pd)->fd, mr->lkey);
	kfree(mr);
	return 0;
}

/* What the hardware backend lends the service, on the stand-ins. */
static struct ib_mr *fake_ib_alloc_mr(struct ib_pd *pd)
{
	struct ib_mr *mr;

	/* as ib_alloc_mr() around the driver's call */
	if (!pd->device->ops.alloc_mr)
		return ERR_PTR(-EOPNOTSUPP);
	mr = pd->device->ops.alloc_mr(pd, IB_MR_TYPE_MEM_REG, 1);
	if (IS_ERR(mr))
		return mr;
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = IB_MR_TYPE_MEM_REG;
	return mr;
}

static int fake_ib_dereg_mr(struct ib_mr *mr)
{
	return mr->device->ops.dereg_mr(mr, NULL);
}

static const struct mlx5_umr_hca_ib_ops fake_ib_ops = {
	.alloc_mr = fake_ib_alloc_mr,
	.dereg_mr = fake_ib_dereg_mr,
#if IS_ENABLED(CONFIG_INFINIBAND_USER_ACCESS)
	/* a named ib_device's user verbs PDs (fake_user_pd.c) */
	.user_pd_get = fake_user_pd_get,
	.user_pd_put = fake_user_pd_put,
#endif
};

/**
 * fake_ib_init() - the fake's stand-in ib_device
 * @fd: a fake being created, not registered yet
 *
 * Context: process, may sleep.
 * Return: 0 or -ENOMEM.
 */
int fake_ib_init(struct mlx5_umr_fake *fd)
{
	struct ib_device *ibdev = kzalloc(sizeof(*ibdev), GFP_KERNEL);

	if (!ibdev)
		return -ENOMEM;
	ibdev->ops.driver_id = RDMA_DRIVER_MLX5;
	ibdev->ops.alloc_mr = fake_ib_dev_alloc_mr;
	ibdev->ops.dereg_mr = fake_ib_dev_dereg_mr;
	strscpy(ibdev->name, dev_name(&fd->dev), sizeof(ibdev->name));
	fd->ibdev = ibdev;
	fd->hca.ibdev = ibdev;
	fd->hca.ib_ops = &fake_ib_ops;
	return 0;
}

/**
 * fake_ib_fini() - free the stand-in ib_device
 * @fd: the fake, unregistered
 */
void fake_ib_fini(struct mlx5_umr_fake *fd)
{
	kfree(fd->ibdev);
	fd->ibdev = NULL;
}

/**
 * mlx5_umr_fake_ibdev() - the ib_device a fake stands in for (test-only)
 * @fake: the fake
 *
 * Its ops.driver_id is RDMA_DRIVER_MLX5, its alloc_mr/dereg_mr create and
 * destroy mkeys in the fake; the service finds the fake's device from it
 * (mlx5_umr_dev_get_ib()).
 *
 * Return: the stand-in, valid until mlx5_umr_fake_destroy().
 */
struct ib_device *mlx5_umr_fake_ibdev(struct mlx5_umr_fake *fake)
{
	return fake->ibdev;
}
EXPORT_SYMBOL(mlx5_umr_fake_ibdev);

/**
 * mlx5_umr_fake_ib_pd_alloc() - a consumer's kernel PD on a fake (test-only)
 * @fake: the fake
 *
 * As ib_alloc_pd() on mlx5: a PD (ALLOC_PD) and its DMA MR, a PA mkey with
 * local read and write in that PD, whose key is @local_dma_lkey.
 *
 * Context: process, may sleep.
 * Return: the PD (free with mlx5_umr_fake_ib_pd_free()) or ERR_PTR().
 */
struct ib_pd *mlx5_umr_fake_ib_pd_alloc(struct mlx5_umr_fake *fake)
{
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	struct fake_ib_pd *fpd;
	int err;

	fpd = kzalloc(sizeof(*fpd), GFP_KERNEL);
	if (!fpd)
		return ERR_PTR(-ENOMEM);
	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	err = fake_ib_cmd(fake, in, sizeof(in), out, sizeof(out));
	if (err)
		goto err_free;
	fpd->pdn = MLX5_GET(alloc_pd_out, out, pd);
	fpd->fd = fake;
	fpd->ibpd.device = fake->ibdev;
	err = fake_ib_create_mkey(fake, fpd->pdn, true,
				  &fpd->ibpd.local_dma_lkey);
	if (err)
		goto err_pd;
	return &fpd->ibpd;

err_pd:
	mlx5_umr_fake_pd_free(fake, fpd->pdn);
err_free:
	kfree(fpd);
	return ERR_PTR(err);
}
EXPORT_SYMBOL(mlx5_umr_fake_ib_pd_alloc);

/**
 * mlx5_umr_fake_ib_pd_free() - free a PD from mlx5_umr_fake_ib_pd_alloc()
 * @pd: the PD, or NULL; no mkey but its DMA MR may be left in it
 *
 * Context: process, may sleep.
 */
void mlx5_umr_fake_ib_pd_free(struct ib_pd *pd)
{
	struct fake_ib_pd *fpd;

	if (!pd)
		return;
	fpd = to_fake_ib_pd(pd);
	fake_ib_destroy_mkey(fpd->fd, pd->local_dma_lkey);
	mlx5_umr_fake_pd_free(fpd->fd, fpd->pdn);
	kfree(fpd);
}
EXPORT_SYMBOL(mlx5_umr_fake_ib_pd_free);

/**
 * mlx5_umr_fake_ib_pdn() - the fake's PD behind a stand-in PD (test-only)
 * @pd: from mlx5_umr_fake_ib_pd_alloc()
 *
 * Return: the PD number, what the service must find by itself.
 */
u32 mlx5_umr_fake_ib_pdn(const struct ib_pd *pd)
{
	return container_of(pd, struct fake_ib_pd, ibpd)->pdn;
}
EXPORT_SYMBOL(mlx5_umr_fake_ib_pdn);

/**
 * mlx5_umr_fake_pd_alloc() - a PD of a consumer QP, for the data path (test-only)
 * @fake: the fake
 * @pdn: the new PD
 *
 * A PD as a user's ibv_alloc_pd() would make on a NIC: the tests name it as
 * the PD of an accessing QP (mlx5_umr_fake_xfer_pd(), debugfs probe_read)
 * and put mkeys in it.
 *
 * Context: process, may sleep.
 * Return: 0 or -errno.
 */
int mlx5_umr_fake_pd_alloc(struct mlx5_umr_fake *fake, u32 *pdn)
{
	u32 out[MLX5_ST_SZ_DW(alloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(alloc_pd_in)] = {};
	int err;

	MLX5_SET(alloc_pd_in, in, opcode, MLX5_CMD_OP_ALLOC_PD);
	err = fake_ib_cmd(fake, in, sizeof(in), out, sizeof(out));
	if (!err)
		*pdn = MLX5_GET(alloc_pd_out, out, pd);
	return err;
}
EXPORT_SYMBOL(mlx5_umr_fake_pd_alloc);

/**
 * mlx5_umr_fake_pd_free() - DEALLOC_PD (test-only)
 * @fake: the fake
 * @pdn: a PD from mlx5_umr_fake_pd_alloc()
 *
 * Context: process, may sleep.
 * Return: 0, or -EREMOTEIO when the fake refused (unknown PD, or a PD
 * still used by an mkey, QP, PSV or DEK).
 */
int mlx5_umr_fake_pd_free(struct mlx5_umr_fake *fake, u32 pdn)
{
	u32 out[MLX5_ST_SZ_DW(dealloc_pd_out)] = {};
	u32 in[MLX5_ST_SZ_DW(dealloc_pd_in)] = {};

	MLX5_SET(dealloc_pd_in, in, opcode, MLX5_CMD_OP_DEALLOC_PD);
	MLX5_SET(dealloc_pd_in, in, pd, pdn);
	return fake_ib_cmd(fake, in, sizeof(in), out, sizeof(out));
}
EXPORT_SYMBOL(mlx5_umr_fake_pd_free);
