// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: registration of user memory for the character device.
 *
 * Like ib_umem: the pages are pinned with FOLL_LONGTERM, counted in
 * mm->pinned_vm against RLIMIT_MEMLOCK (unless CAP_IPC_LOCK), mapped for
 * the HCA, and described by a direct (MTT) mkey whose addresses are the
 * user's virtual addresses, so that layouts name memory as ibv_sge does.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/kmemleak.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "../umr_uapi.h"
#include "uapi_priv.h"

static void umr_mr_unpin(struct umr_umr *mr)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_sg(&mr->sgt.sgt, sg, i)
		unpin_user_page_range_dirty_lock(sg_page(sg),
						 DIV_ROUND_UP(sg->length,
							      PAGE_SIZE),
						 mr->dir != DMA_TO_DEVICE);
	sg_free_append_table(&mr->sgt);
}

/*
 * Pinned for write only when the mkey's access lets the HCA write, as
 * ib_umem_get() does: read-only memory can be registered for reading.
 */
static int umr_mr_pin(struct umr_umr *mr, u32 access)
{
	unsigned int gup = FOLL_LONGTERM;
	unsigned long left = mr->npages;
	unsigned long cur = mr->iova & PAGE_MASK;
	struct page **list;
	int pinned, ret = 0;

	mr->dir = DMA_TO_DEVICE;
	if (access & (MLX5_UMR_IOC_ACCESS_LOCAL_WRITE |
		      MLX5_UMR_IOC_ACCESS_REMOTE_WRITE |
		      MLX5_UMR_IOC_ACCESS_REMOTE_ATOMIC)) {
		gup |= FOLL_WRITE;
		mr->dir = DMA_BIDIRECTIONAL;
	}
	list = (struct page **)__get_free_page(GFP_KERNEL);
	if (!list)
		return -ENOMEM;

	while (left) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
		pinned = pin_user_pages_fast(cur,
					     min_t(unsigned long, left,
						   PAGE_SIZE / sizeof(*list)),
					     gup, list);
		if (pinned <= 0) {
			ret = pinned ?: -EFAULT;
			break;
		}
		cur += (unsigned long)pinned << PAGE_SHIFT;
		left -= pinned;
		/* One entry per page: the MTT wants per-page addresses. */
		ret = sg_alloc_append_table_from_pages(&mr->sgt, list, pinned,
						       0, pinned << PAGE_SHIFT,
						       PAGE_SIZE, left,
						       GFP_KERNEL_ACCOUNT);
		if (ret) {
			unpin_user_pages(list, pinned);
			break;
		}
	}
	free_page((unsigned long)list);
	if (ret)
		umr_mr_unpin(mr);
	return ret;
}

/*
 * The HCA may still reach the pages (an mkey it refused to destroy maps
 * them): keep them pinned, mapped and charged, for good. A leak beats
 * letting the device write memory the kernel reuses.
 */
static void umr_mr_leak(struct umr_udev *ud, struct umr_umr *mr)
{
	atomic_inc(&ud->leaked);
	pr_err_ratelimited("%s: keeping %lu pages pinned: the HCA may still use them\n",
			   ud->name, mr->npages);
	kmemleak_not_leak(mr);
}

static int umr_mr_account(struct umr_umr *mr)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	u64 pinned;

	pinned = atomic64_add_return(mr->npages, &mr->mm->pinned_vm);
	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(mr->npages, &mr->mm->pinned_vm);
		return -ENOMEM;
	}
	return 0;
}

/* Point the MTT mkey at the mapped pages (an XLT update), in PD @pdn. */
static int umr_mr_post(struct umr_uctx *ctx, struct umr_umr *mr,
		       u32 access, u32 pdn)
{
	struct mlx5_umr_wr wr = {};
	struct sg_dma_page_iter it;
	dma_addr_t *addrs;
	unsigned long i = 0;
	int ret;

	addrs = kvmalloc_array(mr->npages, sizeof(*addrs), UMR_GFP_USER);
	if (!addrs)
		return -ENOMEM;
	for_each_sgtable_dma_page(&mr->sgt.sgt, &it, 0) {
		if (WARN_ON(i == mr->npages)) {
			ret = -EIO;
			goto out;
		}
		addrs[i++] = sg_page_iter_dma_address(&it);
	}
	if (WARN_ON(i != mr->npages)) {
		ret = -EIO;
		goto out;
	}

	wr.mkey = mr->obj.mkey;
	wr.op = MLX5_UMR_OP_REG_PAGES;
	wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_PD;
	wr.access = access;
	wr.pdn = pdn;
	wr.pages.addrs = addrs;
	wr.pages.npages = mr->npages;
	wr.pages.offset = offset_in_page(mr->iova);
	wr.pages.iova = mr->iova;
	wr.pages.length = mr->length;
	ret = umr_exec(ctx, &wr);
out:
	kvfree(addrs);
	return ret;
}

/**
 * umr_prep_reg_mr() - REG_MR before the device lock: check, charge, pin
 * @ucmd: the ioctl
 *
 * Pinning faults the pages in, which may block for as long as userspace
 * wants (userfaultfd, FUSE): it must not hold the device lock.
 *
 * Return: 0 with @ucmd->priv the pinned registration, or -errno.
 */
int umr_prep_reg_mr(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_reg_mr *cmd = ucmd->cmd;
	struct umr_umr *mr;
	u64 end;
	int ret;

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (cmd->__reserved || cmd->__reserved2)
		return -EINVAL;
	ret = umr_check_access_bits(cmd->access);
	if (ret)
		return ret;
	if (!cmd->length)
		return -EINVAL;
	if (check_add_overflow(cmd->addr, cmd->length, &end) ||
	    PAGE_ALIGN(end) < end)
		return -EOVERFLOW;
	if (end > TASK_SIZE)
		return -EFAULT;
	/* One work request's translation; before anything is pinned. */
	if ((PAGE_ALIGN(end) - (cmd->addr & PAGE_MASK)) >> PAGE_SHIFT >
	    MLX5_UMR_IOC_MAX_REG_PAGES)
		return -ENOSPC;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return -ENOMEM;
	mr->obj.type = UMR_UOBJ_MR;
	mr->iova = cmd->addr;
	mr->length = cmd->length;
	mr->access = cmd->access;
	mr->npages = (PAGE_ALIGN(end) - (cmd->addr & PAGE_MASK)) >> PAGE_SHIFT;
	mr->mm = current->mm;
	mmgrab(mr->mm);

	ret = umr_mr_account(mr);
	if (ret)
		goto err_mm;
	ret = umr_mr_pin(mr, cmd->access);
	if (ret)
		goto err_account;
	ucmd->priv = mr;
	return 0;

err_account:
	atomic64_sub(mr->npages, &mr->mm->pinned_vm);
err_mm:
	mmdrop(mr->mm);
	kfree(mr);
	return ret;
}

/* Undo umr_prep_reg_mr() when umr_cmd_reg_mr() did not take it over. */
void umr_release_reg_mr(struct umr_ucmd *ucmd)
{
	struct umr_umr *mr = ucmd->priv;

	if (!mr)
		return;
	umr_mr_unpin(mr);
	atomic64_sub(mr->npages, &mr->mm->pinned_vm);
	mmdrop(mr->mm);
	kfree(mr);
}

/* Under the device lock: map the pinned pages, give them an mkey. */
int umr_cmd_reg_mr(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_reg_mr *cmd = ucmd->cmd;
	struct umr_umr *mr = ucmd->priv;
	struct umr_uctx *ctx = ucmd->ctx;
	struct umr_udev *ud = ctx->ud;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_mkey *mkey;
	int ret, kept;
	u32 pdn;

	/* what the HCA supports (atomic) */
	ret = umr_check_access(ud, cmd->access);
	if (ret)
		return ret;
	ret = mlx5_umr_dma_map_sg(ud->dev, &mr->sgt.sgt, mr->dir);
	if (ret)
		return ret;
	q = umr_udev_queue(ud);
	if (IS_ERR(q)) {
		ret = PTR_ERR(q);
		goto err_unmap;
	}
	mkey = mlx5_umr_uapi_alloc_mkey(q, mr->npages, 0, true,
					mlx5_umr_dev_caps(ud->dev)->pdn, false);
	if (IS_ERR_OR_NULL(mkey)) {
		ret = mkey ? PTR_ERR(mkey) : -ENOMEM;
		goto err_unmap;
	}
	mr->obj.mkey = mkey;
	ret = umr_uctx_pd_get(ctx, &pdn);
	if (ret)
		goto err_mkey;
	ret = umr_mr_post(ctx, mr, cmd->access, pdn);
	if (ret)
		goto err_pd;
	ret = umr_uobj_insert(ctx, &mr->obj);
	if (ret)
		goto err_pd;
	umr_uctx_pd_put(ctx, true);
	/* From here on the object owns the pages. */
	ucmd->priv = NULL;
	atomic64_add(mr->npages, &ctx->pinned);
	atomic64_add(mr->npages, &ud->pinned);

	cmd->out_handle = mr->obj.handle;
	cmd->out_lkey = mkey->key;
	cmd->out_rkey = mkey->key;
	umr_uobj_publish(ctx, &mr->obj);
	return umr_ucmd_respond_created(ucmd, &mr->obj);

err_pd:
	/* destroyed before the PD may change */
	kept = mlx5_umr_free_mkey(mkey);
	umr_uctx_pd_put(ctx, false);
	goto err_kept;
err_mkey:
	kept = mlx5_umr_free_mkey(mkey);
err_kept:
	if (kept) {
		/* It may still map the pages: keep them pinned and mapped. */
		ucmd->priv = NULL;
		umr_mr_leak(ud, mr);
		return ret;
	}
err_unmap:
	mlx5_umr_dma_unmap_sg(ud->dev, &mr->sgt.sgt, mr->dir);
	return ret;
}

/*
 * Called once the object is unreachable. A layout still naming it is one
 * whose mkey the HCA refused to destroy (umr_mkey_free()).
 */
void umr_mr_free(struct umr_uctx *ctx, struct umr_umr *mr)
{
	struct umr_udev *ud = ctx->ud;
	bool named = refcount_read(&mr->obj.users) > 1;

	atomic64_sub(mr->npages, &ctx->pinned);
	atomic64_sub(mr->npages, &ud->pinned);
	/* The HCA stops using the pages before they are unmapped. */
	if (mlx5_umr_free_mkey(mr->obj.mkey) || named) {
		umr_mr_leak(ud, mr);
		return;
	}
	mlx5_umr_dma_unmap_sg(ud->dev, &mr->sgt.sgt, mr->dir);
	umr_mr_unpin(mr);
	atomic64_sub(mr->npages, &mr->mm->pinned_vm);
	mmdrop(mr->mm);
	kfree(mr);
}
