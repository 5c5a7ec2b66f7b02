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
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "uapi_priv.h"
#include "wr_rules.h"

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
	mkey = mlx5_umr_alloc_mkey_pd(ctx->ud->dev, cmd->max_entries, flags,
				      ctx->pdn);
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
 * The command alone, before any lookup: the uapi's own fields, then the
 * service's rules on access (7, 8) and on the request (10, 14, 16).
 */
static int umr_config_check_cmd(struct umr_uctx *ctx,
				const struct mlx5_umr_ioc_configure *cmd,
				struct umr_mreq *r)
{
	int ret;

	if (cmd->flags & ~MLX5_UMR_IOC_NEW_KEY)
		return -EOPNOTSUPP;
	if (cmd->__reserved || cmd->__reserved2 || !cmd->num_entries)
		return -EINVAL;
	ret = umr_check_access(ctx->ud, cmd->access);
	if (ret)
		return ret;
	switch (cmd->layout) {
	case MLX5_UMR_IOC_LAYOUT_LIST:
		if (cmd->repeat_count)
			return -EINVAL;
		r->wr.layout = MLX5_UMR_LAYOUT_LIST;
		r->esize = sizeof(struct mlx5_umr_ioc_sge);
		r->ksize = sizeof(struct mlx5_umr_sge);
		break;
	case MLX5_UMR_IOC_LAYOUT_INTERLEAVED:
		ret = mlx5_umr_rule_il_repeat(cmd->repeat_count);
		if (ret)
			return ret;
		r->wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
		r->esize = sizeof(struct mlx5_umr_ioc_interleaved);
		r->ksize = sizeof(struct mlx5_umr_interleaved);
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
				     const struct umr_mreq *r)
{
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(ctx->ud->dev);

	if (r->wr.layout == MLX5_UMR_LAYOUT_LIST)
		return mlx5_umr_rule_list_capacity(caps, r->obj->mkey,
						   cmd->num_entries);
	return mlx5_umr_rule_il_capacity(caps, r->obj->mkey, cmd->num_entries);
}

/* Copy the user's entries in and allocate what the parse fills. */
static int umr_config_copy(const struct mlx5_umr_ioc_configure *cmd,
			   struct umr_mreq *r)
{
	/* One allocation for both entry arrays: a batch makes many. */
	r->uent = kvmalloc_array(cmd->num_entries, r->esize + r->ksize,
				 GFP_KERNEL);
	r->refs = kvcalloc(cmd->num_entries, sizeof(*r->refs), GFP_KERNEL);
	if (!r->uent || !r->refs)
		return -ENOMEM;
	r->kent = r->uent + (size_t)cmd->num_entries * r->esize;
	r->nrefs = cmd->num_entries;
	if (copy_from_user(r->uent, u64_to_user_ptr(cmd->entries),
			   (size_t)cmd->num_entries * r->esize))
		return -EFAULT;
	return 0;
}

/* The entries: the service's entry rules, then ownership and containment. */
static int umr_config_parse(struct umr_uctx *ctx,
			    const struct mlx5_umr_ioc_configure *cmd,
			    struct umr_mreq *r)
{
	struct mlx5_umr_wr *wr = &r->wr;

	wr->flags = MLX5_UMR_WR_SET_ACCESS;
	if (cmd->flags & MLX5_UMR_IOC_NEW_KEY)
		wr->flags |= MLX5_UMR_WR_NEW_KEY;
	wr->access = cmd->access;
	if (wr->layout == MLX5_UMR_LAYOUT_LIST) {
		wr->list.sge = r->kent;
		wr->list.num_sge = cmd->num_entries;
		return umr_parse_list(ctx, r->uent, cmd->num_entries, r->kent,
				      r->refs, &r->length);
	}
	wr->interleaved.ent = r->kent;
	wr->interleaved.num_entries = cmd->num_entries;
	wr->interleaved.repeat_count = cmd->repeat_count;
	return umr_parse_interleaved(ctx, r->uent, cmd->num_entries,
				     cmd->repeat_count, r->kent, r->refs,
				     &r->length);
}

/* Reference the indirect mkey @handle names, the target of @r. */
static int umr_mreq_get(struct umr_uctx *ctx, u32 handle, enum mlx5_umr_op op,
			struct umr_mreq *r)
{
	struct umr_uobj *obj;

	obj = umr_uobj_get(ctx, handle, UMR_UOBJ_MKEY);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	r->obj = obj;
	r->mk = container_of(obj, struct umr_umkey, obj);
	r->wr.mkey = obj->mkey;
	r->wr.op = op;
	return 0;
}

/**
 * umr_mreq_configure() - check and gather one configure request
 * @ctx: the file
 * @cmd: the request, in the layout of MLX5_UMR_IOCTL_CONFIGURE
 * @r: zeroed; filled step by step, released with umr_mreq_release() even
 *	on failure
 *
 * Everything that can refuse the request happens here, before anything is
 * posted: the command, the mkey, its capacity, the entries, the ownership
 * and containment of the memory they name (one reference each).
 *
 * Return: 0 or the errno of the first rule broken.
 */
int umr_mreq_configure(struct umr_uctx *ctx,
		       const struct mlx5_umr_ioc_configure *cmd,
		       struct umr_mreq *r)
{
	return umr_config_check_cmd(ctx, cmd, r) ?:
	       umr_mreq_get(ctx, cmd->handle, MLX5_UMR_OP_CONFIGURE, r) ?:
	       umr_config_check_capacity(ctx, cmd, r) ?:
	       umr_config_copy(cmd, r) ?:
	       umr_config_parse(ctx, cmd, r);
}

/**
 * umr_mreq_invalidate() - check and gather one invalidate request
 * @ctx: the file
 * @handle: the indirect mkey
 * @r: as for umr_mreq_configure()
 *
 * Return: 0 or -ENOENT.
 */
int umr_mreq_invalidate(struct umr_uctx *ctx, u32 handle, struct umr_mreq *r)
{
	return umr_mreq_get(ctx, handle, MLX5_UMR_OP_INVALIDATE, r);
}

/**
 * umr_mreq_reserve() - make room to keep both layouts' references
 * @r: a gathered request
 *
 * Settling a configure the HCA may or may not have applied keeps the
 * references of both layouts; the room is allocated before posting so that
 * settling cannot fail.
 *
 * Context: @r->mk->lock held, or @r->mk claimed (its layout is stable).
 * Return: 0 or -ENOMEM.
 */
int umr_mreq_reserve(struct umr_mreq *r)
{
	if (r->wr.op != MLX5_UMR_OP_CONFIGURE)
		return 0;
	r->both = kvmalloc_array((size_t)r->mk->nrefs + r->nrefs,
				 sizeof(*r->both), GFP_KERNEL);
	return r->both ? 0 : -ENOMEM;
}

/* The HCA applied @r: the old layout's references are dropped at release. */
static void umr_mreq_applied(struct umr_mreq *r)
{
	struct umr_umkey *mk = r->mk;
	struct umr_uobj **old = mk->refs;
	u32 nold = mk->nrefs;

	if (r->wr.op == MLX5_UMR_OP_CONFIGURE) {
		mk->refs = r->refs;
		mk->nrefs = r->nrefs;
		mk->length = r->length;
	} else {
		mk->refs = NULL;
		mk->nrefs = 0;
		mk->length = 0;
	}
	r->refs = old;
	r->nrefs = nold;
}

/**
 * umr_mreq_settle() - move references by the outcome of a posted request
 * @r: the request, reserved
 * @status: its result
 *
 * On success the new layout's references replace the old one's (left in
 * @r to be dropped). When the HCA failed the request or did not answer it
 * may or may not have applied a new layout: the mkey keeps the memory of
 * both until a later request succeeds. Any other error means the request
 * did not reach the HCA: nothing changes.
 *
 * Context: @r->mk->lock held.
 */
void umr_mreq_settle(struct umr_mreq *r, int status)
{
	struct umr_umkey *mk = r->mk;

	lockdep_assert_held(&mk->lock);
	if (!status) {
		umr_mreq_applied(r);
		return;
	}
	if (r->wr.op != MLX5_UMR_OP_CONFIGURE ||
	    (status != -EIO && status != -ETIMEDOUT))
		return;
	memcpy(r->both, mk->refs, mk->nrefs * sizeof(*r->both));
	memcpy(r->both + mk->nrefs, r->refs, r->nrefs * sizeof(*r->both));
	kvfree(mk->refs);
	mk->refs = r->both;
	mk->nrefs += r->nrefs;
	r->both = NULL;
	kvfree(r->refs);
	r->refs = NULL;
	r->nrefs = 0;
}

/**
 * umr_mreq_claim() - reserve the mkey of @r for a batch
 * @r: a gathered request
 * @owner: the batch
 *
 * A claimed mkey is refused (-EBUSY) by every other configure and
 * invalidate until umr_mreq_unclaim(); the claim is not a lock held across
 * the post, so a batch may claim many mkeys in any order.
 *
 * Return: 0; -EINVAL when @owner already claimed it; -EBUSY when another
 * batch did.
 */
int umr_mreq_claim(struct umr_mreq *r, const void *owner)
{
	struct umr_umkey *mk = r->mk;
	int ret = 0;

	mutex_lock(&mk->lock);
	if (mk->claim)
		ret = mk->claim == owner ? -EINVAL : -EBUSY;
	else
		mk->claim = owner;
	mutex_unlock(&mk->lock);
	r->claimed = !ret;
	return ret;
}

/**
 * umr_mreq_unclaim() - settle a claimed request and release its claim
 * @r: the request
 * @status: its result, as for umr_mreq_settle(), or 1 when it was never
 *	posted
 */
void umr_mreq_unclaim(struct umr_mreq *r, int status)
{
	struct umr_umkey *mk = r->mk;

	if (!r->claimed)
		return;
	mutex_lock(&mk->lock);
	if (status <= 0)
		umr_mreq_settle(r, status);
	mk->claim = NULL;
	mutex_unlock(&mk->lock);
	r->claimed = false;
}

/**
 * umr_mreq_release() - drop what a request still holds
 * @r: the request, gathered or not, settled or not
 */
void umr_mreq_release(struct umr_mreq *r)
{
	/* the old layout's references once settled, else the new one's */
	if (r->refs)
		umr_put_refs(r->refs, r->nrefs);
	kvfree(r->both);
	kvfree(r->uent);
	if (r->obj)
		umr_uobj_put(r->obj);
}

/* The key a request left its mkey with: the new one if it rotated. */
static u32 umr_mreq_key(const struct umr_mreq *r)
{
	if (r->wr.flags & MLX5_UMR_WR_NEW_KEY)
		return r->wr.new_key;
	return READ_ONCE(r->wr.mkey->key);
}

/* One request on its own, serialised on the mkey. */
static int umr_mreq_exec(struct umr_uctx *ctx, struct umr_mreq *r)
{
	struct umr_umkey *mk = r->mk;
	int ret;

	mutex_lock(&mk->lock);
	ret = mk->claim ? -EBUSY : umr_mreq_reserve(r);
	if (!ret) {
		ret = mlx5_umr_exec(ctx->ud->dev, &r->wr, UMR_UAPI_TIMEOUT_MS);
		if (!ret)
			ret = r->wr.status;
		umr_mreq_settle(r, ret);
	}
	mutex_unlock(&mk->lock);
	return ret;
}

int umr_cmd_configure(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_configure *cmd = ucmd->cmd;
	struct umr_mreq r = {};
	int ret;

	ret = umr_mreq_configure(ucmd->ctx, cmd, &r) ?:
	      umr_mreq_exec(ucmd->ctx, &r);
	if (!ret) {
		cmd->out_length = r.length;
		cmd->out_key = umr_mreq_key(&r);
		ret = umr_ucmd_respond(ucmd);
	}
	umr_mreq_release(&r);
	return ret;
}

int umr_cmd_invalidate(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_invalidate *cmd = ucmd->cmd;
	struct umr_mreq r = {};
	int ret;

	if (cmd->flags & ~MLX5_UMR_IOC_NEW_KEY)
		return -EOPNOTSUPP;
	if (cmd->__reserved || cmd->__reserved2)
		return -EINVAL;
	ret = umr_mreq_invalidate(ucmd->ctx, cmd->handle, &r);
	if (!ret && (cmd->flags & MLX5_UMR_IOC_NEW_KEY))
		r.wr.flags = MLX5_UMR_WR_NEW_KEY;
	ret = ret ?: umr_mreq_exec(ucmd->ctx, &r);
	if (!ret)
		cmd->out_key = umr_mreq_key(&r);
	umr_mreq_release(&r);
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
