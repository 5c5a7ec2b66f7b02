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
#include <linux/kmemleak.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include "uapi_priv.h"
#include "wr_rules.h"
#include "xlt.h"

/*
 * Indirect mkeys take device objects and contiguous coherent memory that no
 * memory cgroup is charged for: bounded per file (mlx5_umr.h, Limits).
 */
static int umr_mkey_charge(struct umr_uctx *ctx, u64 xlt_bytes)
{
	if (atomic_inc_return(&ctx->nmkeys) > MLX5_UMR_IOC_MAX_FD_MKEYS)
		goto err_count;
	if (atomic64_add_return(xlt_bytes, &ctx->xlt_bytes) >
	    MLX5_UMR_IOC_MAX_FD_XLT_BYTES)
		goto err_bytes;
	return 0;

err_bytes:
	atomic64_sub(xlt_bytes, &ctx->xlt_bytes);
err_count:
	atomic_dec(&ctx->nmkeys);
	return -ENOSPC;
}

static void umr_mkey_uncharge(struct umr_uctx *ctx, u64 xlt_bytes)
{
	atomic64_sub(xlt_bytes, &ctx->xlt_bytes);
	atomic_dec(&ctx->nmkeys);
}

int umr_cmd_alloc_mkey(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_alloc_mkey *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	struct mlx5_umr_mkey *mkey;
	struct umr_umkey *mk;
	u32 flags = 0;
	int ret;

	if (cmd->flags & ~MLX5_UMR_IOC_MKEY_REMOTE_INVALIDATE)
		return -EOPNOTSUPP;
	if (cmd->__reserved || !cmd->max_entries)
		return -EINVAL;
	if (cmd->max_entries > umr_max_entries(ctx->ud))
		return -ENOSPC;
	if (cmd->flags & MLX5_UMR_IOC_MKEY_REMOTE_INVALIDATE)
		flags |= MLX5_UMR_MKEY_REMOTE_INVALIDATE;

	mk = kzalloc(sizeof(*mk), GFP_KERNEL_ACCOUNT);
	if (!mk)
		return -ENOMEM;
	mutex_init(&mk->lock);
	mk->obj.type = UMR_UOBJ_MKEY;
	/* The table mlx5_umr_alloc_mkey() sizes: max_entries + 1, by 4. */
	mk->xlt_bytes = (u64)ALIGN(cmd->max_entries + 1,
				   MLX5_UMR_KLM_NUM_ENTRIES_ALIGNMENT) *
			sizeof(struct mlx5_klm);
	ret = umr_mkey_charge(ctx, mk->xlt_bytes);
	if (ret)
		goto err_free;
	mkey = mlx5_umr_alloc_mkey(ctx->ud->dev, cmd->max_entries, flags);
	if (IS_ERR_OR_NULL(mkey)) {
		ret = mkey ? PTR_ERR(mkey) : -ENOMEM;
		goto err_uncharge;
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
	/* Not configured yet: nothing to keep should its destroy fail. */
	mlx5_umr_free_mkey(mkey);
err_uncharge:
	umr_mkey_uncharge(ctx, mk->xlt_bytes);
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
 * [@addr, @addr + @len), without computing its end (it may be 2^64). On
 * success *@ref holds the reference.
 */
static int umr_ref_range(struct umr_uctx *ctx, u32 lkey, u64 addr, u64 len,
			 struct umr_uobj **ref)
{
	struct umr_uobj *obj;
	struct umr_umr *mr;
	u64 off;

	obj = umr_uobj_get_key(ctx, lkey, UMR_UOBJ_MR);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	*ref = obj;
	mr = container_of(obj, struct umr_umr, obj);
	off = addr - mr->iova;
	if (addr < mr->iova || off >= mr->length || len > mr->length - off)
		return -ERANGE;
	return 0;
}

/*
 * Check @ent[@n] by the service's entry rules (12 and 13), reference what
 * they name, fill the service's entries.
 */
static int umr_parse_list(struct umr_uctx *ctx,
			  const struct mlx5_umr_ioc_sge *ent, u32 n,
			  struct mlx5_umr_sge *out, struct umr_uobj **refs,
			  u64 *length)
{
	u64 total = 0;
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		out[i].addr = ent[i].addr;
		out[i].length = ent[i].length;
		out[i].key = ent[i].lkey;
		ret = mlx5_umr_sge_check(&out[i]) ?:
		      umr_ref_range(ctx, ent[i].lkey, ent[i].addr,
				    ent[i].length, &refs[i]);
		if (ret)
			return ret;
		total += ent[i].length;
	}
	*length = total;
	return 0;
}

/*
 * As umr_parse_list(), by rules 17 to 19. Rules 15 and 18 keep the cycle
 * within 32 bits (wr_rules.h), so the mkey's length cannot overflow.
 */
static int umr_parse_interleaved(struct umr_uctx *ctx,
				 const struct mlx5_umr_ioc_interleaved *ent,
				 u32 n, u32 repeat,
				 struct mlx5_umr_interleaved *out,
				 struct umr_uobj **refs, u64 *length)
{
	u64 cycle = 0, span;
	u32 i;
	int ret;

	for (i = 0; i < n; i++) {
		if (ent[i].__reserved)
			return -EINVAL;
		out[i].addr = ent[i].addr;
		out[i].bytes_count = ent[i].bytes_count;
		out[i].bytes_skip = ent[i].bytes_skip;
		out[i].key = ent[i].lkey;
		ret = mlx5_umr_il_check(&out[i], repeat);
		if (ret)
			return ret;
		/* Cycle repeat - 1 ends bytes_count after its start. */
		span = ((u64)ent[i].bytes_count + ent[i].bytes_skip) *
		       (repeat - 1) + ent[i].bytes_count;
		ret = umr_ref_range(ctx, ent[i].lkey, ent[i].addr, span,
				    &refs[i]);
		if (ret)
			return ret;
		cycle += ent[i].bytes_count;
	}
	*length = cycle * repeat;
	return 0;
}

/*
 * One MLX5_UMR_IOCTL_CONFIGURE, gathered step by step.
 * @wr: the request for the service
 * @esize: size of one user entry
 * @ksize: size of one service entry
 * @uent: the user's entries, copied
 * @kent: the service's entries
 * @refs: one reference per entry on the registration it names
 * @length: bytes the new layout covers
 */
struct umr_config {
	struct mlx5_umr_wr wr;
	size_t esize;
	size_t ksize;
	void *uent;
	void *kent;
	struct umr_uobj **refs;
	u64 length;
};

/*
 * The command alone, before any lookup: the uapi's own fields, then the
 * service's rules on access (7, 8) and on the request (10, 14, 16).
 */
static int umr_config_check_cmd(struct umr_uctx *ctx,
				const struct mlx5_umr_ioc_configure *cmd,
				struct umr_config *c)
{
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
		c->wr.layout = MLX5_UMR_LAYOUT_LIST;
		c->esize = sizeof(struct mlx5_umr_ioc_sge);
		c->ksize = sizeof(struct mlx5_umr_sge);
		break;
	case MLX5_UMR_IOC_LAYOUT_INTERLEAVED:
		ret = mlx5_umr_rule_il_repeat(cmd->repeat_count);
		if (ret)
			return ret;
		c->wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
		c->esize = sizeof(struct mlx5_umr_ioc_interleaved);
		c->ksize = sizeof(struct mlx5_umr_interleaved);
		break;
	default:
		return -EINVAL;
	}
	if (!IS_ALIGNED(cmd->entries, sizeof(u64)))
		return -EINVAL;
	return 0;
}

/* Rules 11 and 15, before allocating for the entries. */
static int umr_config_check_capacity(struct umr_uctx *ctx,
				     const struct mlx5_umr_ioc_configure *cmd,
				     const struct umr_config *c,
				     const struct mlx5_umr_mkey *mkey)
{
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(ctx->ud->dev);

	if (c->wr.layout == MLX5_UMR_LAYOUT_LIST)
		return mlx5_umr_rule_list_capacity(caps, mkey,
						   cmd->num_entries);
	return mlx5_umr_rule_il_capacity(caps, mkey, cmd->num_entries);
}

/**
 * umr_prep_configure() - copy a layout's entries in before the device lock
 * @ucmd: the ioctl
 *
 * The copy may fault for as long as userspace wants (userfaultfd, FUSE),
 * so it happens before the device lock; its result (the copy, or the
 * error) is reported in the order umr_cmd_configure() checks things.
 *
 * Return: 0.
 */
int umr_prep_configure(struct umr_ucmd *ucmd)
{
	const struct mlx5_umr_ioc_configure *cmd = ucmd->cmd;
	size_t esize;
	void *uent;

	switch (cmd->layout) {
	case MLX5_UMR_IOC_LAYOUT_LIST:
		esize = sizeof(struct mlx5_umr_ioc_sge);
		break;
	case MLX5_UMR_IOC_LAYOUT_INTERLEAVED:
		esize = sizeof(struct mlx5_umr_ioc_interleaved);
		break;
	default:
		return 0;	/* refused later */
	}
	/* More than any mkey takes is refused later, by rule 11 or 15. */
	if (!cmd->num_entries || cmd->num_entries > MLX5_UMR_XLT_MAX_KLMS)
		return 0;
	uent = kvmalloc_array(cmd->num_entries, esize, GFP_KERNEL_ACCOUNT);
	if (!uent) {
		ucmd->priv = ERR_PTR(-ENOMEM);
		return 0;
	}
	if (copy_from_user(uent, u64_to_user_ptr(cmd->entries),
			   (size_t)cmd->num_entries * esize)) {
		kvfree(uent);
		uent = ERR_PTR(-EFAULT);
	}
	ucmd->priv = uent;
	return 0;
}

void umr_release_configure(struct umr_ucmd *ucmd)
{
	if (!IS_ERR(ucmd->priv))
		kvfree(ucmd->priv);
}

/* Take the entries copied in and allocate what the parse fills. */
static int umr_config_copy(struct umr_ucmd *ucmd,
			   const struct mlx5_umr_ioc_configure *cmd,
			   struct umr_config *c)
{
	if (WARN_ON_ONCE(!ucmd->priv))
		return -EINVAL;
	if (IS_ERR(ucmd->priv))
		return PTR_ERR(ucmd->priv);
	c->kent = kvmalloc_array(cmd->num_entries, c->ksize,
				 GFP_KERNEL_ACCOUNT);
	c->refs = kvcalloc(cmd->num_entries, sizeof(*c->refs),
			   GFP_KERNEL_ACCOUNT);
	if (!c->kent || !c->refs)
		return -ENOMEM;
	c->uent = ucmd->priv;
	return 0;
}

/* The entries: the service's entry rules, then ownership and containment. */
static int umr_config_parse(struct umr_uctx *ctx,
			    const struct mlx5_umr_ioc_configure *cmd,
			    struct umr_config *c)
{
	struct mlx5_umr_wr *wr = &c->wr;

	wr->op = MLX5_UMR_OP_CONFIGURE;
	wr->flags = MLX5_UMR_WR_SET_ACCESS;
	wr->access = cmd->access;
	if (wr->layout == MLX5_UMR_LAYOUT_LIST) {
		wr->list.sge = c->kent;
		wr->list.num_sge = cmd->num_entries;
		return umr_parse_list(ctx, c->uent, cmd->num_entries, c->kent,
				      c->refs, &c->length);
	}
	wr->interleaved.ent = c->kent;
	wr->interleaved.num_entries = cmd->num_entries;
	wr->interleaved.repeat_count = cmd->repeat_count;
	return umr_parse_interleaved(ctx, c->uent, cmd->num_entries,
				     cmd->repeat_count, c->kent, c->refs,
				     &c->length);
}

static int umr_ref_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(struct umr_uobj * const *)a;
	uintptr_t y = (uintptr_t)*(struct umr_uobj * const *)b;

	return x < y ? -1 : x > y;
}

/*
 * Keep one reference per registration in @refs[@n], dropping the others.
 * Return: the entries left.
 */
static u32 umr_refs_dedup(struct umr_uobj **refs, u32 n)
{
	u32 i, k = 0;

	sort(refs, n, sizeof(*refs), umr_ref_cmp, NULL);
	for (i = 0; i < n; i++) {
		if (k && refs[k - 1] == refs[i])
			umr_uobj_put(refs[i]);
		else
			refs[k++] = refs[i];
	}
	return k;
}

/*
 * Post the request and move references: on success the new layout's
 * replace the old one's (left in @c->refs to be dropped); when the HCA may
 * or may not have applied it, @mk keeps both. @both has room for that.
 * Context: @mk->lock held. Return: the request's result.
 */
static int umr_config_exec(struct umr_uctx *ctx, struct umr_umkey *mk,
			   struct umr_config *c, u32 n, struct umr_uobj **both,
			   u32 *nput)
{
	struct umr_uobj **old;
	int ret;

	lockdep_assert_held(&mk->lock);
	ret = umr_exec(ctx, &c->wr);
	if (!ret) {
		/* The old layout's references are dropped by the caller. */
		old = mk->refs;
		*nput = mk->nrefs;
		mk->refs = c->refs;
		mk->nrefs = n;
		mk->length = c->length;
		c->refs = old;
		kvfree(both);
	} else if (ret != -EIO && ret != -ETIMEDOUT) {
		/* Refused before it reached the HCA: nothing changed. */
		kvfree(both);
	} else {
		/*
		 * The HCA failed it or did not answer: it may or may not have
		 * applied the new layout. Keep both layouts' memory until a
		 * later request succeeds, one reference per registration, so
		 * that failures repeated do not grow the list.
		 */
		memcpy(both, mk->refs, mk->nrefs * sizeof(*both));
		memcpy(both + mk->nrefs, c->refs, n * sizeof(*both));
		kvfree(mk->refs);
		mk->refs = both;
		mk->nrefs = umr_refs_dedup(both, mk->nrefs + n);
		kvfree(c->refs);
		c->refs = NULL;
	}
	return ret;
}

/* Serialised on @mk: the room for both layouts' references, the request. */
static int umr_config_apply(struct umr_uctx *ctx, struct umr_umkey *mk,
			    struct umr_config *c, u32 n, u32 *nput)
{
	struct umr_uobj **both;
	int ret;

	/* Another configure of this mkey may take long: abandon the wait. */
	if (mutex_lock_interruptible(&mk->lock))
		return -EINTR;
	both = kvmalloc_array((size_t)mk->nrefs + n, sizeof(*both),
			      GFP_KERNEL_ACCOUNT);
	if (both)
		ret = umr_config_exec(ctx, mk, c, n, both, nput);
	else
		ret = -ENOMEM;
	mutex_unlock(&mk->lock);
	return ret;
}

int umr_cmd_configure(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_configure *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	struct umr_config c = {};
	struct umr_uobj *obj;
	struct umr_umkey *mk;
	u32 nput = cmd->num_entries;
	int ret;

	ret = umr_config_check_cmd(ctx, cmd, &c);
	if (ret)
		return ret;
	obj = umr_uobj_get(ctx, cmd->handle, UMR_UOBJ_MKEY);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	mk = container_of(obj, struct umr_umkey, obj);
	c.wr.mkey = obj->mkey;

	ret = umr_config_check_capacity(ctx, cmd, &c, obj->mkey) ?:
	      umr_config_copy(ucmd, cmd, &c) ?:
	      umr_config_parse(ctx, cmd, &c) ?:
	      umr_config_apply(ctx, mk, &c, cmd->num_entries, &nput);
	if (!ret) {
		cmd->out_length = c.length;
		ret = umr_ucmd_respond(ucmd);
	}
	/* the old layout's references on success, else the new one's */
	if (c.refs)
		umr_put_refs(c.refs, nput);
	kvfree(c.kent);
	/* c.uent is ucmd->priv: umr_release_configure() frees it */
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
	if (mutex_lock_interruptible(&mk->lock)) {
		umr_uobj_put(obj);
		return -EINTR;
	}
	ret = umr_exec(ctx, &wr);
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

/*
 * Called once the object is unreachable: nobody else holds @mk. When the
 * HCA refused to destroy the mkey it may still reach what its layout
 * names: the references are kept for good, so those registrations stay
 * pinned (umr_mr_free()).
 */
void umr_mkey_free(struct umr_uctx *ctx, struct umr_umkey *mk)
{
	umr_mkey_uncharge(ctx, mk->xlt_bytes);
	if (mlx5_umr_free_mkey(mk->obj.mkey)) {
		atomic_inc(&ctx->ud->leaked);
		kmemleak_not_leak(mk->refs);
		mk->refs = NULL;
	}
	if (mk->refs)
		umr_put_refs(mk->refs, mk->nrefs);
	mutex_destroy(&mk->lock);
	kfree(mk);
}
