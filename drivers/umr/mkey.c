// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: UMR-capable mkeys and their pointer-mode translation tables.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/log2.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/qp.h>
#include <linux/mlx5_umr_ifc.h>

#include "umr.h"
#include "key_rotate.h"
#include "xlt.h"
#include "sig.h"
#include "umr_uapi.h"

/* Pointer-mode translation tables are 2048-byte aligned (mr.c MLX5_UMR_ALIGN). */
#define MLX5_UMR_XLT_ALIGN	2048

/*
 * The table is rewritten by the CPU for every layout while the device may
 * read it, so it lives in coherent queue memory (the seam's
 * alloc_dma_buf), not in a streaming mapping the service would have to
 * sync around each post (umr.c dma_sync_single_for_device()); with
 * swiotlb a streaming mapping would show the HCA a stale bounce buffer.
 * One data segment addresses it, so it must be contiguous for the device.
 * It is written by the CPUs of the mkey's home queue: their node.
 */
static int mlx5_umr_xlt_alloc(struct mlx5_umr_dev *dev,
			      struct mlx5_umr_mkey_priv *mp, size_t size)
{
	struct mlx5_umr_dma_buf *buf = &mp->xlt_buf;
	unsigned int i;
	int err;

	err = dev->hca->ops->alloc_dma_buf(dev->hca, size, mp->q->node, buf);
	if (err)
		return err;
	for (i = 1; i < buf->npages; i++)
		if (buf->pages[i] != buf->pages[0] + (dma_addr_t)i * PAGE_SIZE)
			break;
	if (i < buf->npages ||
	    WARN_ON(!IS_ALIGNED(buf->pages[0], MLX5_UMR_XLT_ALIGN))) {
		dev->hca->ops->free_dma_buf(dev->hca, buf);
		return -ENOMEM;
	}
	mp->xlt.cpu = buf->cpu;
	mp->xlt.dma = buf->pages[0];
	mp->xlt.size = buf->size;
	return 0;
}

/*
 * Kept instead when the mkey may still be live or its home queue's QP,
 * which could not be reset, may still point at the table. Context: dev->mkeys_lock held once
 * the mkey is listed.
 */
static void mlx5_umr_xlt_free(struct mlx5_umr_dev *dev,
			      struct mlx5_umr_mkey_priv *mp)
{
	if (!mp->xlt.cpu)
		return;
	if (dev->hca && (mp->hw || mp->q->lost))
		mlx5_umr_leak_buf(dev, "translation table");
	else if (dev->hca)
		dev->hca->ops->free_dma_buf(dev->hca, &mp->xlt_buf);
	mp->xlt.cpu = NULL;
}

static int mlx5_umr_destroy_hw_mkey(struct mlx5_umr_dev *dev, u32 key)
{
	u32 out[MLX5_ST_SZ_DW(destroy_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(destroy_mkey_in)] = {};

	MLX5_SET(destroy_mkey_in, in, opcode, MLX5_CMD_OP_DESTROY_MKEY);
	MLX5_SET(destroy_mkey_in, in, mkey_index, key >> 8);
	return mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
}

/* How one mkey's translation is laid out on the HCA. */
struct mlx5_umr_mkey_geom {
	u8 mode;		/* mkc access_mode */
	u32 octo;		/* mkc translations_octword_size */
	size_t xlt_bytes;	/* its largest translation */
};

/*
 * Size the translation of an mkey of @max_entries: MTTs for a direct mkey,
 * KLMs (one more for an interleaved layout's header) for an indirect one.
 */
static int mlx5_umr_mkey_geom(const struct mlx5_umr_dev *dev, u32 max_entries,
			      bool direct, struct mlx5_umr_mkey_geom *g)
{
	if (direct) {
		/* Two 8-byte MTTs per octoword, 64-byte chunks. */
		if (max_entries > U32_MAX - 8)
			return -EINVAL;
		g->octo = ALIGN(max_entries, 8) / 2;
		g->xlt_bytes = (size_t)g->octo * 16;
		g->mode = MLX5_MKC_ACCESS_MODE_MTT;
		return 0;
	}
	if (max_entries > dev->caps.max_klm_entries)
		return -EINVAL;
	/*
	 * One more entry for the interleaved (repeat block) header, but
	 * never more than the HCA's KLM list (1 << log_max_klm_list_size):
	 * validation keeps an interleaved layout one entry short of it
	 * (rule 15).
	 */
	g->octo = min(ALIGN(max_entries + 1, MLX5_UMR_KLM_NUM_ENTRIES_ALIGNMENT),
		      dev->caps.max_klm_entries);
	g->xlt_bytes = (size_t)g->octo * sizeof(struct mlx5_klm);
	g->mode = MLX5_MKC_ACCESS_MODE_KLMS;
	return 0;
}

/**
 * mlx5_umr_mkey_table_bytes() - host memory of an indirect mkey's table
 * @dev: the device
 * @max_entries: as given to mlx5_umr_alloc_mkey()
 *
 * What mlx5_umr_create_mkey() allocates for the translation table: none
 * when it fits the WQE inline, else the pages of one coherent allocation,
 * counted as dma_alloc_coherent() takes them without an IOMMU (a power of
 * two of pages, alloc_pages() of get_order()); the uapi charges this.
 *
 * Return: bytes, a multiple of PAGE_SIZE; 0 for an inline table or for
 * @max_entries the device refuses.
 */
u64 mlx5_umr_mkey_table_bytes(struct mlx5_umr_dev *dev, u32 max_entries)
{
	struct mlx5_umr_mkey_geom g;

	if (!max_entries || mlx5_umr_mkey_geom(dev, max_entries, false, &g) ||
	    g.xlt_bytes <= dev->caps.max_inline_entries * sizeof(struct mlx5_klm))
		return 0;
	return PAGE_SIZE << get_order(g.xlt_bytes);
}

/* CREATE_MKEY: a free, UMR-enabled mkey of PD @pdn; sets its key. */
static int mlx5_umr_create_hw_mkey(struct mlx5_umr_dev *dev,
				   struct mlx5_umr_mkey_priv *mp,
				   const struct mlx5_umr_mkey_geom *g, u32 pdn)
{
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)] = {};
	u32 in[MLX5_ST_SZ_DW(create_mkey_in)] = {};
	u8 variant = mlx5_umr_key_first();
	void *mkc;
	int err;

	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	mkc = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(mkc, mkc, free, 1);
	MLX5_SET(mkc, mkc, umr_en, 1);
	MLX5_SET(mkc, mkc, lr, 1);
	MLX5_SET(mkc, mkc, access_mode_1_0, g->mode & 0x3);
	MLX5_SET(mkc, mkc, access_mode_4_2, g->mode >> 2);
	MLX5_SET(mkc, mkc, qpn, 0xffffff);
	MLX5_SET(mkc, mkc, pd, pdn);
	MLX5_SET(mkc, mkc, mkey_7_0, variant);
	MLX5_SET(mkc, mkc, translations_octword_size, g->octo);
	if (mp->pub.direct)
		MLX5_SET(mkc, mkc, log_page_size, PAGE_SHIFT);
	if (mp->pub.flags & MLX5_UMR_MKEY_REMOTE_INVALIDATE)
		MLX5_SET(mkc, mkc, en_rinval, 1);
	/* rdma-core mlx5dv_create_mkey() with MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO */
	if (mp->pub.flags & MLX5_UMR_MKEY_CRYPTO)
		MLX5_SET(mlx5_umr_mkc_crypto, mkc, crypto_en,
			 MLX5_UMR_MKC_CRYPTO_ENABLED);
	/*
	 * Room for a BSF: mr.c mlx5_alloc_integrity_descs(); for the
	 * signature and the crypto BSF together twice that (rdma-core
	 * mlx5dv_create_mkey(): bsf_size / 16, 128 bytes with both flags).
	 */
	if (mp->sig || (mp->pub.flags & MLX5_UMR_MKEY_CRYPTO)) {
		MLX5_SET(mkc, mkc, bsf_en, 1);
		MLX5_SET(mkc, mkc, bsf_octword_size,
			 mp->sig && (mp->pub.flags & MLX5_UMR_MKEY_CRYPTO) ?
			 2 * MLX5_MKEY_BSF_OCTO_SIZE : MLX5_MKEY_BSF_OCTO_SIZE);
	}
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	mp->pub.key = MLX5_GET(create_mkey_out, out, mkey_index) << 8 | variant;
	mp->hw = true;
	return 0;
}

/*
 * @q: its home queue; NULL for the queue of the CPU this runs on, or, for
 * a signature mkey of another PD than the service's, that PD's queue
 * (pd_queue.c), whose reference the mkey holds until it is freed
 * @user_pd: @pdn is a user's verified verbs PD, whose PD queue has no PA
 * mkey: a signature mkey's table must fit the WQE inline (-ENOSPC)
 */
static struct mlx5_umr_mkey *
mlx5_umr_create_mkey(struct mlx5_umr_dev *dev, u32 max_entries, u32 flags,
		     bool direct, u32 pdn, struct mlx5_umr_queue *q,
		     bool user_pd)
{
	struct mlx5_umr_mkey_geom g;
	struct mlx5_umr_mkey_priv *mp;
	int err;

	might_sleep();
	if (!max_entries || flags & ~MLX5_UMR_MKEY_FLAGS ||
	    pdn > MLX5_UMR_PDN_MAX)
		return ERR_PTR(-EINVAL);
	/* a BSF describes an indirect mkey's blocks; the HCA must have it */
	if (flags & MLX5_UMR_MKEY_SIGNATURE) {
		if (direct)
			return ERR_PTR(-EINVAL);
		if (!dev->caps.sig)
			return ERR_PTR(-EOPNOTSUPP);
		/* an mlx5_ib PD, as mlx5_umr_alloc_mkey_in() refuses it */
		if (mlx5_umr_pd_is_ib(dev, pdn))
			return ERR_PTR(-EOPNOTSUPP);
	}
	if (flags & MLX5_UMR_MKEY_CRYPTO) {
		if (direct)
			return ERR_PTR(-EINVAL);
		if (!dev->caps.crypto)
			return ERR_PTR(-EOPNOTSUPP);
	}
	err = mlx5_umr_mkey_geom(dev, max_entries, direct, &g);
	if (err)
		return ERR_PTR(err);
	if (user_pd && (flags & MLX5_UMR_MKEY_SIGNATURE) &&
	    g.xlt_bytes > dev->caps.max_inline_entries * sizeof(struct mlx5_klm))
		return ERR_PTR(-ENOSPC);

	if (!percpu_ref_tryget_live(&dev->users))
		return ERR_PTR(-ENODEV);
	mp = kzalloc(sizeof(*mp), GFP_KERNEL);
	if (!mp) {
		err = -ENOMEM;
		goto err_put;
	}
	mp->pub.dev = dev;
	/* SET_PSV runs on a QP of its PSVs' PD, which is @pdn */
	if (!q && (flags & MLX5_UMR_MKEY_SIGNATURE) && pdn != dev->caps.pdn) {
		q = mlx5_umr_pd_queue_get(dev, pdn, user_pd);
		if (IS_ERR(q)) {
			err = PTR_ERR(q);
			goto err_free;
		}
	}
	mp->q = q ?: mlx5_umr_cpu_queue(dev);
	mp->pub.pdn = pdn;
	/* the service's PA mkey is valid only in its PD */
	if (pdn == dev->caps.pdn)
		mp->pub.dma_lkey = dev->caps.dma_lkey;
	mp->pub.max_entries = max_entries;
	mp->pub.flags = flags;
	mp->pub.direct = direct;
	if (g.xlt_bytes > dev->caps.max_inline_entries * sizeof(struct mlx5_klm)) {
		err = mlx5_umr_xlt_alloc(dev, mp, g.xlt_bytes);
		if (err)
			goto err_q;
	}
	if (flags & MLX5_UMR_MKEY_SIGNATURE) {
		mp->psv_pdn = pdn;
		err = mlx5_umr_sig_mkey_init(dev, mp, pdn);
		if (err)
			goto err_xlt;
	}
	err = mlx5_umr_create_hw_mkey(dev, mp, &g, pdn);
	if (err)
		goto err_sig;
	if (mp->sig) {
		err = mlx5_umr_sig_mkey_list(dev, mp);
		if (err)
			goto err_hw;
	}

	kref_get(&dev->kref);
	mutex_lock(&dev->mkeys_lock);
	list_add_tail(&mp->list, &dev->mkeys);
	mutex_unlock(&dev->mkeys_lock);
	percpu_ref_put(&dev->users);
	return &mp->pub;

err_hw:
	/* Kept, as mlx5_umr_free_mkey() keeps them, if it may still live. */
	if (mlx5_umr_destroy_hw_mkey(dev, mp->pub.key)) {
		mlx5_umr_leak_buf(dev, "signature mkey");
		goto err_put;
	}
err_sig:
	if (mlx5_umr_sig_mkey_destroy(dev, mp)) {
		mlx5_umr_leak_buf(dev, "PSV");
		goto err_put;
	}
	mlx5_umr_sig_mkey_free(mp);
err_xlt:
	/* Never listed, never posted to: nothing on the HCA uses it. */
	if (mp->xlt.cpu)
		dev->hca->ops->free_dma_buf(dev->hca, &mp->xlt_buf);
err_q:
	if (mp->q->pdq)
		mlx5_umr_pd_queue_put(mp->q);
err_free:
	kfree(mp);
err_put:
	percpu_ref_put(&dev->users);
	return ERR_PTR(err);
}

/**
 * mlx5_umr_alloc_mkey() - allocate an indirect (KLM) mkey for UMR
 * @dev: the device
 * @max_entries: largest SGE list (or interleaved entry count) the mkey
 *	will take; at most caps->max_klm_entries
 * @flags: MLX5_UMR_MKEY_REMOTE_INVALIDATE, MLX5_UMR_MKEY_SIGNATURE (a
 *	block-signature mkey: BSF enabled, two PSVs; -EOPNOTSUPP without
 *	caps->sig; Documentation/signature.rst), MLX5_UMR_MKEY_CRYPTO (AES-XTS,
 *	Documentation/crypto.rst); both: a BSF pair, signature then
 *	crypto (rdma-core's MLX5_BSF_SIZE_SIG_AND_CRYPTO)
 *
 * The mkey starts in the free state (no access) and is sized for
 * @max_entries + 1 translation entries, rounded up to 4 and capped at
 * caps->max_klm_entries, so that an interleaved layout of @max_entries
 * fits with its header (one entry less at the cap). Mkeys with more
 * entries than fit inline in a WQE get a pointer-mode translation table.
 *
 * A crypto mkey (MLX5_UMR_MKEY_CRYPTO, -EOPNOTSUPP without caps->crypto)
 * is created with crypto_en and room for its BSF.
 *
 * The mkey's home queue, which runs every request of it, is the queue of
 * the CPU this runs on (as every mlx5_umr_alloc_*() does):
 * Documentation/service.rst, "Queues and ordering".
 *
 * Context: process context, may sleep.
 * Return: the mkey or ERR_PTR(-EINVAL / -EOPNOTSUPP / -ENOMEM / -ENODEV /
 * -EREMOTEIO).
 */
struct mlx5_umr_mkey *mlx5_umr_alloc_mkey(struct mlx5_umr_dev *dev,
					  u32 max_entries, u32 flags)
{
	return mlx5_umr_create_mkey(dev, max_entries, flags, false,
				    dev->caps.pdn, NULL, false);
}
EXPORT_SYMBOL(mlx5_umr_alloc_mkey);

/**
 * mlx5_umr_alloc_mkey_pd() - mlx5_umr_alloc_mkey() in protection domain @pdn
 * @dev: the device
 * @max_entries: as mlx5_umr_alloc_mkey()
 * @flags: as mlx5_umr_alloc_mkey()
 * @pdn: a PD of @dev (mlx5_umr_pd_alloc(), or caps->pdn); with
 *	MLX5_UMR_MKEY_SIGNATURE not the number of a ULP's ib_pd the service
 *	resolved (mlx5_umr_pd_get_ib(), until mlx5_umr_pd_put()):
 *	-EOPNOTSUPP, as mlx5_umr_alloc_mkey_in()
 *
 * Only a QP of @pdn can use the key on the NIC; every key a layout of the
 * mkey names must be valid in @pdn too (Documentation/service.rst,
 * "Using these keys on a NIC").
 *
 * A signature mkey of a PD other than caps->pdn is homed on the PD queue
 * of @pdn: a REG_UMR QP in @pdn, created with the first such mkey and
 * destroyed after the last is freed, which posts its SET_PSV WQEs on a QP
 * of its PSVs' PD (Documentation/signature.rst, "PSVs and their PD").
 * Other mkeys are homed as mlx5_umr_alloc_mkey()'s.
 *
 * Context: process context, may sleep.
 * Return: the mkey or ERR_PTR(-errno); -EREMOTEIO when the HCA refused
 * the PD (or the PD queue's QP in it).
 */
struct mlx5_umr_mkey *mlx5_umr_alloc_mkey_pd(struct mlx5_umr_dev *dev,
					     u32 max_entries, u32 flags,
					     u32 pdn)
{
	return mlx5_umr_create_mkey(dev, max_entries, flags, false, pdn, NULL,
				    false);
}
EXPORT_SYMBOL(mlx5_umr_alloc_mkey_pd);

/**
 * mlx5_umr_alloc_mkey_in() - mlx5_umr_alloc_mkey() in a ULP's PD
 * @pd: from mlx5_umr_pd_get_ib()
 * @max_entries: as mlx5_umr_alloc_mkey()
 * @flags: as mlx5_umr_alloc_mkey(), but not MLX5_UMR_MKEY_SIGNATURE
 *	(-EOPNOTSUPP: Documentation/signature.rst, "The mlx5_ib hazard")
 *
 * The mkey is created in @pd, so the ULP's own QPs (of that ib_pd) can use
 * its key on the NIC; its SGT layouts name @pd's DMA key (@pd->dma_lkey).
 * Free it with mlx5_umr_free_mkey() before mlx5_umr_pd_put().
 *
 * Context: process context, may sleep.
 * Return: the mkey or ERR_PTR(-errno), as mlx5_umr_alloc_mkey().
 */
struct mlx5_umr_mkey *mlx5_umr_alloc_mkey_in(struct mlx5_umr_pd *pd,
					     u32 max_entries, u32 flags)
{
	struct mlx5_umr_mkey *mkey;

	/*
	 * The ULP's QPs in @pd are mlx5_ib QPs with mlx5_ib CQs: a SIG_ERR
	 * CQE naming a service mkey oopses mlx5_ib's poll (cq.c
	 * MLX5_CQE_SIG_ERR, no NULL check). Documentation/signature.rst.
	 */
	if (flags & MLX5_UMR_MKEY_SIGNATURE)
		return ERR_PTR(-EOPNOTSUPP);
	mkey = mlx5_umr_create_mkey(pd->dev, max_entries, flags, false,
				    pd->pdn, NULL, false);
	if (!IS_ERR(mkey))
		mkey->dma_lkey = pd->dma_lkey;
	return mkey;
}
EXPORT_SYMBOL(mlx5_umr_alloc_mkey_in);

/**
 * mlx5_umr_alloc_mtt_mkey() - allocate a direct (MTT) mkey for UMR
 * @dev: the device
 * @max_pages: pages of PAGE_SIZE the mkey may map
 * @flags: MLX5_UMR_MKEY_REMOTE_INVALIDATE (a direct mkey is never a crypto
 *	one: -EINVAL)
 *
 * The mkey starts free; MLX5_UMR_OP_REG_PAGES gives it pages and access.
 *
 * Context: process context, may sleep.
 * Return: the mkey or ERR_PTR(-errno).
 */
struct mlx5_umr_mkey *mlx5_umr_alloc_mtt_mkey(struct mlx5_umr_dev *dev,
					      u32 max_pages, u32 flags)
{
	return mlx5_umr_create_mkey(dev, max_pages, flags, true,
				    dev->caps.pdn, NULL, false);
}
EXPORT_SYMBOL(mlx5_umr_alloc_mtt_mkey);

/**
 * mlx5_umr_uapi_alloc_mkey() - an mkey of the character device
 * @q: the character device's own queue (mlx5_umr_queue_create())
 * @max_entries: as mlx5_umr_alloc_mkey(), or pages for a direct mkey
 * @flags: as mlx5_umr_alloc_mkey() or mlx5_umr_alloc_mtt_mkey()
 * @direct: an MTT mkey (mlx5_umr_alloc_mtt_mkey()), else an indirect one
 *	(mlx5_umr_alloc_mkey_pd())
 * @pdn: its PD
 * @user_pd: @pdn is the caller's verified verbs PD
 *	(MLX5_UMR_IOC_SET_PD_VERBS), where the user's QPs are
 *
 * Homed on @q, not on the allocating CPU's queue: a user's batch names
 * mkeys allocated by any CPU, and a user's stall or bad request recovers
 * @q alone, never a queue the kernel's consumers post on. A signature
 * mkey in another PD than the service's (the file's own, or the caller's
 * verified PD) is homed on that PD's queue instead, as
 * mlx5_umr_alloc_mkey_pd() homes one: its SET_PSV WQEs run on a QP of its
 * PSVs' PD (Documentation/signature.rst, "PSVs and their PD"). No kernel
 * consumer posts there either. The queue of a verified PD has no PA
 * mkey, which the user's QPs there could use to reach all of memory: its
 * signature mkeys take only tables inline in the WQE.
 *
 * Context: process context, may sleep.
 * Return: as mlx5_umr_alloc_mkey_pd(); -ENOSPC for a signature mkey of
 * @user_pd whose table would not be inline.
 */
struct mlx5_umr_mkey *mlx5_umr_uapi_alloc_mkey(struct mlx5_umr_queue *q,
					       u32 max_entries, u32 flags,
					       bool direct, u32 pdn,
					       bool user_pd)
{
	struct mlx5_umr_dev *dev = q->dev;

	if ((flags & MLX5_UMR_MKEY_SIGNATURE) && pdn != dev->caps.pdn)
		q = NULL;
	return mlx5_umr_create_mkey(dev, max_entries, flags, direct, pdn, q,
				    user_pd);
}

/**
 * mlx5_umr_queue_alloc_mkey() - mlx5_umr_alloc_mkey() homed on a channel
 * @q: from mlx5_umr_queue_create()
 * @max_entries: as mlx5_umr_alloc_mkey()
 * @flags: as mlx5_umr_alloc_mkey()
 *
 * The mkey is in the service's PD (the channel's) and every request of it
 * runs on @q, whichever CPU posts it. Free it (or move it,
 * mlx5_umr_mkey_set_queue()) before mlx5_umr_queue_destroy().
 *
 * Context: process context, may sleep.
 * Return: as mlx5_umr_alloc_mkey(); -EINVAL for a queue that is not a
 * channel.
 */
struct mlx5_umr_mkey *mlx5_umr_queue_alloc_mkey(struct mlx5_umr_queue *q,
						u32 max_entries, u32 flags)
{
	if (!q->ulp)
		return ERR_PTR(-EINVAL);
	return mlx5_umr_create_mkey(q->dev, max_entries, flags, false,
				    q->dev->caps.pdn, q, false);
}
EXPORT_SYMBOL(mlx5_umr_queue_alloc_mkey);

/* Does @q hold a request of @mp, in flight or waiting to be posted again? */
static bool mlx5_umr_queue_has(struct mlx5_umr_queue *q,
			       struct mlx5_umr_mkey_priv *mp)
{
	struct mlx5_umr_sq *sq = &q->sq;
	struct mlx5_umr_wr *wr;
	u32 i;

	lockdep_assert_held(&sq->lock);
	for (i = sq->head; i != sq->tail; i++)
		if (sq->ents[i & (sq->bbs - 1)].wr->mkey == &mp->pub)
			return true;
	list_for_each_entry(wr, &sq->resubmit, node)
		if (wr->mkey == &mp->pub)
			return true;
	return false;
}

/**
 * mlx5_umr_mkey_set_queue() - move an idle mkey to another home queue
 * @mkey: the mkey; no request of it in flight, none posted concurrently
 * @q: its new home: a channel (mlx5_umr_queue_create()) or a device
 *	queue (mlx5_umr_mkey_queue() of another mkey); not a PD queue
 *
 * From the return on, every request of @mkey runs on @q. The requests
 * before ran on the old home and their done() was called, so the order
 * per mkey holds (Documentation/service.rst, "Queues and ordering").
 * Both queues' locks are held while the mkey moves (the lower address
 * first), so the per-mkey state they protect moves with it.
 *
 * Context: process context, may sleep.
 * Return: 0; -EXDEV when @q belongs to another device; -EINVAL for a
 * signature mkey whose PSVs are not in @q's PD (SET_PSV WQEs naming them
 * run on the queue's QP; a signature mkey of mlx5_umr_alloc_mkey_pd() in
 * a PD other than the service's stays on its PD queue), or when @q is
 * another mkey's PD queue; -EBUSY when a request of it is in flight or
 * its translation table is in use (nothing moved); -ENODEV after
 * unregistration.
 */
int mlx5_umr_mkey_set_queue(struct mlx5_umr_mkey *mkey,
			    struct mlx5_umr_queue *q)
{
	struct mlx5_umr_mkey_priv *mp = to_priv(mkey);
	struct mlx5_umr_dev *dev = mkey->dev;
	struct mlx5_umr_queue *old, *lo, *hi;
	unsigned long flags;
	int err = 0;

	might_sleep();
	if (q->dev != dev)
		return -EXDEV;
	/* SET_PSV on a QP of its PSVs' PD; a PD queue homes only those */
	if ((mp->sig && mp->psv_pdn != q->pdn) ||
	    (q->pdq && q != READ_ONCE(mp->q)))
		return -EINVAL;
	if (!percpu_ref_tryget_live(&dev->users))
		return -ENODEV;
	/* vs mlx5_umr_queue_destroy() counting the mkeys homed on a queue */
	mutex_lock(&dev->mkeys_lock);
	old = mp->q;
	if (old == q)
		goto unlock;
	lo = old < q ? old : q;
	hi = old < q ? q : old;
	spin_lock_irqsave(&lo->sq.lock, flags);
	spin_lock_nested(&hi->sq.lock, SINGLE_DEPTH_NESTING);
	if (test_bit(0, &mp->xlt_busy) || mlx5_umr_queue_has(old, mp))
		err = -EBUSY;
	else
		WRITE_ONCE(mp->q, q);
	spin_unlock(&hi->sq.lock);
	spin_unlock_irqrestore(&lo->sq.lock, flags);
unlock:
	mutex_unlock(&dev->mkeys_lock);
	percpu_ref_put(&dev->users);
	return err;
}
EXPORT_SYMBOL(mlx5_umr_mkey_set_queue);

/**
 * mlx5_umr_free_mkey() - destroy an mkey
 * @mkey: from mlx5_umr_alloc_mkey() or mlx5_umr_alloc_mtt_mkey(), or NULL
 *
 * No request on @mkey may be in flight. After the device was unregistered
 * this only frees memory (the HCA object is already gone). @mkey is freed
 * in every case; when the HCA refused to destroy it, it may still be live
 * with the access its last layout gave: its translation table is kept, and
 * so must the caller keep (pinned and mapped) every page it maps.
 *
 * Context: process context, may sleep.
 * Return: 0, or -EREMOTEIO when the HCA refused to destroy it (the mkey
 * may still be live there; @mkey is freed all the same: nothing to retry).
 */
int mlx5_umr_free_mkey(struct mlx5_umr_mkey *mkey)
{
	struct mlx5_umr_mkey_priv *mp;
	struct mlx5_umr_dev *dev;
	int ret = 0;

	if (!mkey)
		return 0;
	mp = to_priv(mkey);
	dev = mkey->dev;
	WARN_ON_ONCE(test_bit(0, &mp->xlt_busy));

	mutex_lock(&dev->mkeys_lock);
	list_del(&mp->list);
	if (mp->sig)
		mlx5_umr_sig_mkey_unlist(dev, mp);
	if (mp->hw && dev->hca && !mlx5_umr_destroy_hw_mkey(dev, mkey->key))
		mp->hw = false;
	if (mp->hw) {
		pr_err_ratelimited("mlx5_umr %s: mkey 0x%x may still be live\n",
				   dev->name, mkey->key);
		if (dev->hca)
			mlx5_umr_pd_keep_mkey_pd(dev, mkey->key);
		ret = -EREMOTEIO;
	} else if (mlx5_umr_sig_mkey_destroy(dev, mp)) {
		/* the mkey is gone: a PSV the HCA kept is only leaked */
		mlx5_umr_leak_buf(dev, "PSV");
	}
	mlx5_umr_xlt_free(dev, mp);
	mutex_unlock(&dev->mkeys_lock);
	mlx5_umr_sig_mkey_free(mp);
	/* after its PSVs: the last one may deallocate the PD */
	if (mp->q->pdq)
		mlx5_umr_pd_queue_put(mp->q);
	kfree(mp);
	mlx5_umr_dev_put(dev);
	return ret;
}
EXPORT_SYMBOL(mlx5_umr_free_mkey);

/**
 * mlx5_umr_mkeys_teardown() - destroy mkeys consumers left behind
 * @dev: a device being unregistered, nothing in flight
 *
 * The structures stay with their owners; mlx5_umr_free_mkey() then only
 * frees memory, and reports the mkeys the HCA refused to destroy.
 *
 * Context: process context, may sleep.
 */
void mlx5_umr_mkeys_teardown(struct mlx5_umr_dev *dev)
{
	struct mlx5_umr_mkey_priv *mp;

	mutex_lock(&dev->mkeys_lock);
	list_for_each_entry(mp, &dev->mkeys, list) {
		dev_warn(dev->hca->dev, "umr: mkey 0x%x leaked at unregister\n",
			 mp->pub.key);
		if (mp->hw && !mlx5_umr_destroy_hw_mkey(dev, mp->pub.key))
			mp->hw = false;
		/* the HCA goes: its PSVs with it, unless the mkey is kept */
		if (!mp->hw && mlx5_umr_sig_mkey_destroy(dev, mp))
			mlx5_umr_leak_buf(dev, "PSV");
		if (mp->hw)
			mlx5_umr_pd_keep_mkey_pd(dev, mp->pub.key);
		mlx5_umr_xlt_free(dev, mp);
	}
	mutex_unlock(&dev->mkeys_lock);
}
