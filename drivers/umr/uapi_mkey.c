// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: indirect mkeys of the character device: allocation, layout
 * configuration and invalidation.
 *
 * This is the only guard between userspace and the REG_UMR QP, which can
 * rewrite any mkey of the HCA: every lkey a layout names must be memory
 * registered through the same file, and every byte the layout can reach
 * must lie inside that registration. The layout keeps a reference on each
 * registration it names until it is replaced, invalidated or destroyed.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uapi_priv.h"

/* Hardware field widths of the repeat block (struct mlx5_stride_block_*). */
#define UMR_STRIDE_MAX		U16_MAX
#define UMR_CYCLE_BYTES_MAX	U32_MAX

int umr_cmd_alloc_mkey(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_alloc_mkey *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(ctx->ud->dev);
	struct mlx5_umr_mkey *mkey;
	struct umr_umkey *mk;
	u32 flags = 0;
	int ret;

	if (cmd->flags & ~MLX5_UMR_IOC_MKEY_REMOTE_INVALIDATE)
		return -EOPNOTSUPP;
	if (cmd->__reserved || !cmd->max_entries)
		return -EINVAL;
	if (cmd->max_entries > caps->max_klm_entries)
		return -ENOSPC;
	if (cmd->flags & MLX5_UMR_IOC_MKEY_REMOTE_INVALIDATE)
		flags |= MLX5_UMR_MKEY_REMOTE_INVALIDATE;

	mk = kzalloc(sizeof(*mk), GFP_KERNEL);
	if (!mk)
		return -ENOMEM;
	mutex_init(&mk->lock);
	mk->obj.type = UMR_UOBJ_MKEY;
	mkey = mlx5_umr_alloc_mkey(ctx->ud->dev, cmd->max_entries, flags);
	if (IS_ERR_OR_NULL(mkey)) {
		ret = mkey ? PTR_ERR(mkey) : -ENOMEM;
		goto err_free;
	}
	mk->obj.mkey = mkey;
	ret = umr_uobj_insert(ctx, &mk->obj);
	if (ret)
		goto err_mkey;

	cmd->out_handle = mk->obj.handle;
	cmd->out_key = mkey->key;
	ret = umr_ucmd_respond(ucmd);
	if (ret) {
		umr_uobj_abort(ctx, &mk->obj);
		return ret;
	}
	umr_uobj_publish(ctx, &mk->obj);
	return 0;

err_mkey:
	mlx5_umr_free_mkey(mkey);
err_free:
	mutex_destroy(&mk->lock);
	kfree(mk);
	return ret;
}

static void umr_put_refs(struct umr_uobj **refs, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (refs[i])
			umr_uobj_put(refs[i]);
	kvfree(refs);
}

/*
 * Reference the registration @lkey names and check that it contains
 * [@addr, @addr + @len). On success *@ref holds the reference.
 */
static int umr_ref_range(struct umr_uctx *ctx, u32 lkey, u64 addr, u64 len,
			 struct umr_uobj **ref)
{
	struct umr_uobj *obj;
	struct umr_umr *mr;
	u64 end;

	if (check_add_overflow(addr, len, &end))
		return -EOVERFLOW;
	obj = umr_uobj_get_key(ctx, lkey, UMR_UOBJ_MR);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	*ref = obj;
	mr = container_of(obj, struct umr_umr, obj);
	if (addr < mr->iova || end > mr->iova + mr->length)
		return -ERANGE;
	return 0;
}

/* Check @ent[@n], reference what they name, fill the service's entries. */
static int umr_parse_list(struct umr_uctx *ctx,
			  const struct mlx5_umr_ioc_sge *ent, u32 n,
			  struct mlx5_umr_sge *out, struct umr_uobj **refs,
			  u64 *length)
{
	u64 total = 0;
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		if (!ent[i].length)
			return -EINVAL;
		ret = umr_ref_range(ctx, ent[i].lkey, ent[i].addr,
				    ent[i].length, &refs[i]);
		if (ret)
			return ret;
		out[i].addr = ent[i].addr;
		out[i].length = ent[i].length;
		out[i].key = ent[i].lkey;
		total += ent[i].length;
	}
	*length = total;
	return 0;
}

static int umr_parse_interleaved(struct umr_uctx *ctx,
				 const struct mlx5_umr_ioc_interleaved *ent,
				 u32 n, u32 repeat,
				 struct mlx5_umr_interleaved *out,
				 struct umr_uobj **refs, u64 *length)
{
	u64 cycle = 0, span;
	u32 i, stride;
	int ret;

	for (i = 0; i < n; i++) {
		if (ent[i].__reserved || !ent[i].bytes_count)
			return -EINVAL;
		if (check_add_overflow(ent[i].bytes_count, ent[i].bytes_skip,
				       &stride) ||
		    stride > UMR_STRIDE_MAX)
			return -EOVERFLOW;
		cycle += ent[i].bytes_count;
		if (cycle > UMR_CYCLE_BYTES_MAX)
			return -EOVERFLOW;
		/* Cycle repeat - 1 ends bytes_count after its start. */
		span = (u64)(repeat - 1) * stride + ent[i].bytes_count;
		ret = umr_ref_range(ctx, ent[i].lkey, ent[i].addr, span,
				    &refs[i]);
		if (ret)
			return ret;
		out[i].addr = ent[i].addr;
		out[i].bytes_count = ent[i].bytes_count;
		out[i].bytes_skip = ent[i].bytes_skip;
		out[i].key = ent[i].lkey;
	}
	*length = cycle * repeat;
	return 0;
}

int umr_cmd_configure(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_configure *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	struct mlx5_umr_wr wr = {};
	struct umr_uobj **refs, **old, **both;
	struct umr_uobj *obj;
	struct umr_umkey *mk;
	size_t esize, ksize;
	void *uent, *kent;
	u32 need, nput;
	u64 length;
	int ret;

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (cmd->__reserved || !cmd->num_entries)
		return -EINVAL;
	ret = umr_check_access(ctx->ud, cmd->access);
	if (ret)
		return ret;
	switch (cmd->layout) {
	case MLX5_UMR_IOC_LAYOUT_LIST:
		if (cmd->repeat_count)
			return -EINVAL;
		esize = sizeof(struct mlx5_umr_ioc_sge);
		ksize = sizeof(struct mlx5_umr_sge);
		need = cmd->num_entries;
		break;
	case MLX5_UMR_IOC_LAYOUT_INTERLEAVED:
		if (!cmd->repeat_count)
			return -EINVAL;
		esize = sizeof(struct mlx5_umr_ioc_interleaved);
		ksize = sizeof(struct mlx5_umr_interleaved);
		/* The repeat block header takes one entry. */
		if (check_add_overflow(cmd->num_entries, 1U, &need))
			return -ENOSPC;
		break;
	default:
		return -EINVAL;
	}
	if (!IS_ALIGNED(cmd->entries, sizeof(u64)))
		return -EINVAL;

	obj = umr_uobj_get(ctx, cmd->handle, UMR_UOBJ_MKEY);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	mk = container_of(obj, struct umr_umkey, obj);
	if (need > obj->mkey->max_entries) {
		ret = -ENOSPC;
		goto out_put;
	}

	uent = kvmalloc_array(cmd->num_entries, esize, GFP_KERNEL);
	kent = kvmalloc_array(cmd->num_entries, ksize, GFP_KERNEL);
	refs = kvcalloc(cmd->num_entries, sizeof(*refs), GFP_KERNEL);
	if (!uent || !kent || !refs) {
		ret = -ENOMEM;
		goto out_free;
	}
	if (copy_from_user(uent, u64_to_user_ptr(cmd->entries),
			   (size_t)cmd->num_entries * esize)) {
		ret = -EFAULT;
		goto out_free;
	}

	wr.mkey = obj->mkey;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	wr.access = cmd->access;
	if (cmd->layout == MLX5_UMR_IOC_LAYOUT_LIST) {
		ret = umr_parse_list(ctx, uent, cmd->num_entries, kent, refs,
				     &length);
		wr.layout = MLX5_UMR_LAYOUT_LIST;
		wr.list.sge = kent;
		wr.list.num_sge = cmd->num_entries;
	} else {
		ret = umr_parse_interleaved(ctx, uent, cmd->num_entries,
					    cmd->repeat_count, kent, refs,
					    &length);
		wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
		wr.interleaved.ent = kent;
		wr.interleaved.num_entries = cmd->num_entries;
		wr.interleaved.repeat_count = cmd->repeat_count;
	}
	if (ret)
		goto out_free;

	mutex_lock(&mk->lock);
	both = kvmalloc_array((size_t)mk->nrefs + cmd->num_entries,
			      sizeof(*both), GFP_KERNEL);
	if (!both) {
		mutex_unlock(&mk->lock);
		ret = -ENOMEM;
		goto out_free;
	}
	ret = mlx5_umr_exec(ctx->ud->dev, &wr, UMR_UAPI_TIMEOUT_MS);
	if (!ret)
		ret = wr.status;
	if (!ret) {
		/* The old layout's references are dropped below. */
		old = mk->refs;
		nput = mk->nrefs;
		mk->refs = refs;
		mk->nrefs = cmd->num_entries;
		mk->length = length;
		refs = old;
		kvfree(both);
	} else if (ret != -EIO && ret != -ETIMEDOUT) {
		/* Refused before it reached the HCA: nothing changed. */
		kvfree(both);
	} else {
		/*
		 * The HCA failed it or did not answer: it may or may not have
		 * applied the new layout. Keep both layouts' memory until a
		 * later request succeeds.
		 */
		memcpy(both, mk->refs, mk->nrefs * sizeof(*both));
		memcpy(both + mk->nrefs, refs,
		       cmd->num_entries * sizeof(*both));
		kvfree(mk->refs);
		mk->refs = both;
		mk->nrefs += cmd->num_entries;
		kvfree(refs);
		refs = NULL;
	}
	mutex_unlock(&mk->lock);
	if (!ret) {
		if (refs)
			umr_put_refs(refs, nput);
		refs = NULL;
		cmd->out_length = length;
		ret = umr_ucmd_respond(ucmd);
	}

out_free:
	if (refs)
		umr_put_refs(refs, cmd->num_entries);
	kvfree(kent);
	kvfree(uent);
out_put:
	umr_uobj_put(obj);
	return ret;
}

int umr_cmd_invalidate(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_invalidate *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	struct mlx5_umr_wr wr = {};
	struct umr_uobj **refs = NULL;
	struct umr_uobj *obj;
	struct umr_umkey *mk;
	u32 nrefs = 0;
	int ret;

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (cmd->__reserved)
		return -EINVAL;
	obj = umr_uobj_get(ctx, cmd->handle, UMR_UOBJ_MKEY);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	mk = container_of(obj, struct umr_umkey, obj);

	wr.mkey = obj->mkey;
	wr.op = MLX5_UMR_OP_INVALIDATE;
	mutex_lock(&mk->lock);
	ret = mlx5_umr_exec(ctx->ud->dev, &wr, UMR_UAPI_TIMEOUT_MS);
	if (!ret)
		ret = wr.status;
	if (!ret) {
		refs = mk->refs;
		nrefs = mk->nrefs;
		mk->refs = NULL;
		mk->nrefs = 0;
		mk->length = 0;
	}
	mutex_unlock(&mk->lock);
	if (refs)
		umr_put_refs(refs, nrefs);
	umr_uobj_put(obj);
	return ret ?: umr_ucmd_respond(ucmd);
}

/* Called once the object is unreachable: nobody else holds @mk. */
void umr_mkey_free(struct umr_uctx *ctx, struct umr_umkey *mk)
{
	mlx5_umr_free_mkey(mk->obj.mkey);
	if (mk->refs)
		umr_put_refs(mk->refs, mk->nrefs);
	mutex_destroy(&mk->lock);
	kfree(mk);
}
