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
#include "../umr_uapi.h"

/*
 * Indirect mkeys take device objects and contiguous coherent memory that no
 * memory cgroup is charged for: bounded per file (mlx5_umr.h, Limits), and
 * the table pages and PSVs charged to the user (uapi_charge.c).
 */
static int umr_mkey_charge(struct umr_uctx *ctx, struct umr_umkey *mk,
			   u32 flags)
{
	int ret = -ENOSPC;

	if (atomic_inc_return(&ctx->nmkeys) > MLX5_UMR_IOC_MAX_FD_MKEYS)
		goto err_count;
	if (atomic64_add_return(mk->xlt_bytes, &ctx->xlt_bytes) >
	    MLX5_UMR_IOC_MAX_FD_XLT_BYTES)
		goto err_bytes;
	ret = umr_charge(ctx->ud, &mk->charge, mk->xlt_bytes,
			 flags & MLX5_UMR_MKEY_SIGNATURE ? 2 : 0, 0);
	if (ret)
		goto err_bytes;
	return 0;

err_bytes:
	atomic64_sub(mk->xlt_bytes, &ctx->xlt_bytes);
err_count:
	atomic_dec(&ctx->nmkeys);
	return ret;
}

/* @kept: the HCA may still hold the mkey: the user's charges stay. */
static void umr_mkey_uncharge(struct umr_uctx *ctx, struct umr_umkey *mk,
			      bool kept)
{
	atomic64_sub(mk->xlt_bytes, &ctx->xlt_bytes);
	atomic_dec(&ctx->nmkeys);
	if (!kept)
		umr_uncharge(ctx->ud, &mk->charge);
}

int umr_cmd_alloc_mkey(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_alloc_mkey *cmd = ucmd->cmd;
	struct umr_uctx *ctx = ucmd->ctx;
	struct mlx5_umr_queue *q;
	struct mlx5_umr_mkey *mkey;
	struct umr_umkey *mk;
	u32 flags = 0, pdn;
	bool kept = false;
	int ret;

	if (cmd->flags & ~(MLX5_UMR_IOC_MKEY_REMOTE_INVALIDATE |
			   MLX5_UMR_IOC_MKEY_SIGNATURE |
			   MLX5_UMR_IOC_MKEY_CRYPTO))
		return -EOPNOTSUPP;
	if (cmd->__reserved || !cmd->max_entries)
		return -EINVAL;
	if (cmd->max_entries > umr_max_entries(ctx->ud))
		return -ENOSPC;
	if (cmd->flags & MLX5_UMR_IOC_MKEY_REMOTE_INVALIDATE)
		flags |= MLX5_UMR_MKEY_REMOTE_INVALIDATE;
	ret = umr_sig_mkey_flags(ctx->ud, cmd->flags, &flags) ?:
	      umr_crypto_mkey_flags(ctx->ud, cmd->flags, &flags);
	if (ret)
		return ret;

	mk = kzalloc(sizeof(*mk), GFP_KERNEL_ACCOUNT);
	if (!mk)
		return -ENOMEM;
	mutex_init(&mk->lock);
	mk->obj.type = UMR_UOBJ_MKEY;
	mk->xlt_bytes = mlx5_umr_mkey_table_bytes(ctx->ud->dev,
						  cmd->max_entries);
	ret = umr_mkey_charge(ctx, mk, flags);
	if (ret)
		goto err_free;
	ret = umr_uctx_pd_get(ctx, &pdn);
	if (ret)
		goto err_uncharge;
	/*
	 * A signature mkey not in an unverified number: it may be a kernel
	 * ULP's PD, whose mlx5_ib CQ oopses on the SIG_ERR CQE of a service
	 * mkey, as mlx5_umr_alloc_mkey_in() says. A verified PD (@pd_ibpd)
	 * is a user verbs PD of the caller: its QPs' CQs are polled by the
	 * user's library, never by mlx5_ib's kernel poller. Stable between
	 * umr_uctx_pd_get() and umr_uctx_pd_put().
	 */
	if ((flags & MLX5_UMR_MKEY_SIGNATURE) && ctx->pd_borrowed &&
	    !ctx->pd_ibpd) {
		ret = -EOPNOTSUPP;
		goto err_pd;
	}
	q = umr_udev_queue(ctx->ud);
	if (IS_ERR(q)) {
		ret = PTR_ERR(q);
		goto err_pd;
	}
	mkey = mlx5_umr_uapi_alloc_mkey(q, cmd->max_entries, flags, false,
					pdn, !!ctx->pd_ibpd);
	if (IS_ERR_OR_NULL(mkey)) {
		ret = mkey ? PTR_ERR(mkey) : -ENOMEM;
		goto err_pd;
	}
	mk->obj.mkey = mkey;
	ret = umr_uobj_insert(ctx, &mk->obj);
	if (ret)
		goto err_mkey;
	umr_uctx_pd_put(ctx, true);

	cmd->out_handle = mk->obj.handle;
	cmd->out_key = mkey->key;
	umr_uobj_publish(ctx, &mk->obj);
	return umr_ucmd_respond_created(ucmd, &mk->obj);

err_mkey:
	/* not configured yet: only its table and PSVs stay if it fails */
	kept = mlx5_umr_free_mkey(mkey);
err_pd:
	umr_uctx_pd_put(ctx, false);
err_uncharge:
	umr_mkey_uncharge(ctx, mk, kept);
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
 * [@addr, @addr + @len), without computing its end (it may be 2^64), and
 * that it grants every right of the layout's @access: a write through the
 * mkey into memory pinned read-only is refused here, not left to the HCA's
 * check of the inner key. *@ref holds the reference once it is found.
 */
static int umr_ref_range(struct umr_uctx *ctx, u32 lkey, u64 addr, u64 len,
			 u32 access, struct umr_uobj **ref)
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
	if (access & ~mr->access)
		return -EACCES;
	return 0;
}

/*
 * Check @ent[@n] by the service's entry rules (12 and 13), reference what
 * they name, fill the service's entries.
 */
static int umr_parse_list(struct umr_uctx *ctx,
			  const struct mlx5_umr_ioc_sge *ent, u32 n, u32 access,
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
		ret = mlx5_umr_precheck_sge(&out[i]) ?:
		      umr_ref_range(ctx, ent[i].lkey, ent[i].addr,
				    ent[i].length, access, &refs[i]);
		if (ret)
			return ret;
		total += ent[i].length;
	}
	*length = total;
	return 0;
}

/*
 * As umr_parse_list(), by rules 17 to 19. Rules 15 and 18 keep the cycle
 * within 32 bits, so the mkey's length cannot overflow.
 */
static int umr_parse_interleaved(struct umr_uctx *ctx,
				 const struct mlx5_umr_ioc_interleaved *ent,
				 u32 n, u32 repeat, u32 access,
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
		ret = mlx5_umr_precheck_il(&out[i], repeat);
		if (ret)
			return ret;
		/* Cycle repeat - 1 ends bytes_count after its start. */
		span = ((u64)ent[i].bytes_count + ent[i].bytes_skip) *
		       (repeat - 1) + ent[i].bytes_count;
		ret = umr_ref_range(ctx, ent[i].lkey, ent[i].addr, span,
				    access, &refs[i]);
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

	if (cmd->flags & ~(MLX5_UMR_IOC_NEW_KEY | MLX5_UMR_IOC_SIG_SET |
			   MLX5_UMR_IOC_SIG_RESET | MLX5_UMR_IOC_CRYPTO_SET))
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
		ret = mlx5_umr_precheck_repeat(cmd->repeat_count);
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
	return mlx5_umr_precheck_capacity(mlx5_umr_dev_caps(ctx->ud->dev),
					  r->obj->mkey, r->wr.layout,
					  cmd->num_entries);
}

/**
 * umr_entries_copy_in() - copy a configure's entries in, before the device
 *	lock
 * @layout: MLX5_UMR_IOC_LAYOUT_*, from userspace
 * @num_entries: likewise
 * @entries: the user pointer
 *
 * The copy may fault for as long as userspace wants (userfaultfd, FUSE),
 * so it happens before the device lock (umr_prep_configure(), the batch's
 * prepare step); its result is reported in the order umr_mreq_configure()
 * checks things. One allocation holds the user's entries and, after them,
 * room for the service's (a batch makes many).
 *
 * Return: the buffer; NULL when the request is refused later anyway (an
 * unknown layout, no entries or more than any mkey takes); ERR_PTR(-ENOMEM)
 * or ERR_PTR(-EFAULT).
 */
void *umr_entries_copy_in(u32 layout, u32 num_entries, u64 entries)
{
	size_t bytes = umr_entries_bytes(layout, num_entries);
	void *uent;

	if (!bytes)
		return NULL;
	uent = kvmalloc(bytes, UMR_GFP_USER);
	if (!uent)
		return ERR_PTR(-ENOMEM);
	if (umr_entries_read(uent, layout, num_entries, entries)) {
		kvfree(uent);
		return ERR_PTR(-EFAULT);
	}
	return uent;
}

/* Size of one user entry and of one service entry of @layout, or 0. */
static size_t umr_entry_sizes(u32 layout, size_t *ksize)
{
	switch (layout) {
	case MLX5_UMR_IOC_LAYOUT_LIST:
		*ksize = sizeof(struct mlx5_umr_sge);
		return sizeof(struct mlx5_umr_ioc_sge);
	case MLX5_UMR_IOC_LAYOUT_INTERLEAVED:
		*ksize = sizeof(struct mlx5_umr_interleaved);
		return sizeof(struct mlx5_umr_ioc_interleaved);
	default:
		return 0;
	}
}

/**
 * umr_entries_bytes() - the buffer umr_entries_copy_in() allocates
 * @layout: MLX5_UMR_IOC_LAYOUT_*
 * @num_entries: entries
 *
 * Return: bytes for the user's entries and, after them, the service's;
 * 0 when the request is refused later anyway.
 */
size_t umr_entries_bytes(u32 layout, u32 num_entries)
{
	size_t ksize = 0, esize = umr_entry_sizes(layout, &ksize);

	/* More than any mkey takes is refused later, by rule 11 or 15. */
	if (!esize || !num_entries || num_entries > MLX5_UMR_WR_MAX_KLMS)
		return 0;
	return (size_t)num_entries * (esize + ksize);
}

/**
 * umr_entries_read() - copy a request's entries from userspace
 * @buf: umr_entries_bytes() of room
 * @layout: MLX5_UMR_IOC_LAYOUT_*
 * @num_entries: entries
 * @entries: the user pointer
 *
 * Return: 0 or -EFAULT.
 */
int umr_entries_read(void *buf, u32 layout, u32 num_entries, u64 entries)
{
	size_t ksize, esize = umr_entry_sizes(layout, &ksize);

	if (copy_from_user(buf, u64_to_user_ptr(entries),
			   (size_t)num_entries * esize))
		return -EFAULT;
	return 0;
}

/**
 * umr_entries_free() - free what umr_entries_copy_in() returned
 * @uent: the buffer, NULL or an error pointer
 */
void umr_entries_free(void *uent)
{
	if (!IS_ERR_OR_NULL(uent))
		kvfree(uent);
}

/**
 * umr_prep_configure() - CONFIGURE before the device lock: copy the entries
 * @ucmd: the ioctl
 *
 * Return: 0; the copy or its error is in @ucmd->priv.
 */
int umr_prep_configure(struct umr_ucmd *ucmd)
{
	const struct mlx5_umr_ioc_configure *cmd = ucmd->cmd;

	ucmd->priv = umr_entries_copy_in(cmd->layout, cmd->num_entries,
					 cmd->entries);
	return 0;
}

void umr_release_configure(struct umr_ucmd *ucmd)
{
	umr_entries_free(ucmd->priv);
}

/*
 * Take over the entries copied in (*@uent, NULL once taken) and allocate
 * what the parse fills: a reference per entry, and one for a DEK.
 */
static int umr_config_copy(const struct mlx5_umr_ioc_configure *cmd,
			   void **uent, struct umr_mreq *r)
{
	u32 n = cmd->num_entries + umr_crypto_refs(cmd);

	if (WARN_ON_ONCE(!*uent))
		return -EINVAL;
	if (IS_ERR(*uent))
		return PTR_ERR(*uent);
	r->uent = *uent;
	*uent = NULL;
	r->kent = r->uent + (size_t)cmd->num_entries * r->esize;
	/*
	 * Room for the mkey's current references too, read without its lock:
	 * settling a failed request then needs no allocation of its own
	 * (umr_mreq_reserve() checks the room under the lock).
	 */
	r->cap = n + READ_ONCE(r->mk->nrefs);
	r->refs = kvcalloc(r->cap, sizeof(*r->refs), UMR_GFP_USER);
	if (!r->refs)
		return -ENOMEM;
	r->nrefs = n;
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
		return umr_parse_list(ctx, r->uent, cmd->num_entries,
				      cmd->access, r->kent, r->refs,
				      &r->length);
	}
	wr->interleaved.ent = r->kent;
	wr->interleaved.num_entries = cmd->num_entries;
	wr->interleaved.repeat_count = cmd->repeat_count;
	return umr_parse_interleaved(ctx, r->uent, cmd->num_entries,
				     cmd->repeat_count, cmd->access, r->kent,
				     r->refs, &r->length);
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
 * @uent: its entries, from umr_entries_copy_in() before the device lock;
 *	set to NULL when @r takes them over
 * @r: zeroed; filled step by step, released with umr_mreq_release() even
 *	on failure
 *
 * Everything that can refuse the request happens here, before anything is
 * posted: the command, the mkey, its capacity, the entries, the ownership
 * and containment of the memory they name (one reference each), the
 * signature and the crypto attributes (a reference on the DEK).
 *
 * Return: 0 or the errno of the first rule broken.
 */
int umr_mreq_configure(struct umr_uctx *ctx,
		       const struct mlx5_umr_ioc_configure *cmd, void **uent,
		       struct umr_mreq *r)
{
	return umr_config_check_cmd(ctx, cmd, r) ?:
	       umr_sig_configure(cmd, r) ?:
	       umr_crypto_configure(cmd, r) ?:
	       umr_mreq_get(ctx, cmd->handle, MLX5_UMR_OP_CONFIGURE, r) ?:
	       umr_config_check_capacity(ctx, cmd, r) ?:
	       umr_config_copy(cmd, uent, r) ?:
	       umr_config_parse(ctx, cmd, r) ?:
	       umr_sig_configure_mkey(cmd, r) ?:
	       umr_crypto_configure_mkey(ctx, cmd, r);
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
	if (r->wr.op != MLX5_UMR_OP_CONFIGURE ||
	    r->cap >= r->mk->nrefs + r->nrefs)
		return 0;
	r->both = kvmalloc_array((size_t)r->mk->nrefs + r->nrefs,
				 sizeof(*r->both), UMR_GFP_USER);
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
	if (r->both) {
		memcpy(r->both, r->refs, r->nrefs * sizeof(*r->both));
		kvfree(r->refs);
		r->refs = r->both;
		r->both = NULL;
	}
	/* umr_mreq_reserve() made sure the old references fit after ours */
	memcpy(r->refs + r->nrefs, mk->refs, mk->nrefs * sizeof(*r->refs));
	kvfree(mk->refs);
	mk->refs = r->refs;
	/* One reference per registration: repeated failures do not grow it. */
	mk->nrefs = umr_refs_dedup(r->refs, mk->nrefs + r->nrefs);
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
 * batch did; -EINTR when a signal ended the wait for the mkey's lock.
 */
int umr_mreq_claim(struct umr_mreq *r, const void *owner)
{
	struct umr_umkey *mk = r->mk;
	int ret = 0;

	/* A lone request may hold it across a device round trip. */
	if (mutex_lock_interruptible(&mk->lock))
		return -EINTR;
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

	/* Another configure of this mkey may take long: abandon the wait. */
	if (mutex_lock_interruptible(&mk->lock))
		return -EINTR;
	ret = mk->claim ? -EBUSY : umr_mreq_reserve(r);
	if (!ret) {
		ret = umr_exec(ctx, &r->wr);
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

	ret = umr_mreq_configure(ucmd->ctx, cmd, &ucmd->priv, &r) ?:
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

/*
 * Called once the object is unreachable: nobody else holds @mk. When the
 * HCA refused to destroy the mkey it may still reach what its layout
 * names: the references are kept for good, so those registrations stay
 * pinned (umr_mr_free()).
 */
void umr_mkey_free(struct umr_uctx *ctx, struct umr_umkey *mk)
{
	bool kept = mlx5_umr_free_mkey(mk->obj.mkey);

	umr_mkey_uncharge(ctx, mk, kept);
	if (kept) {
		atomic_inc(&ctx->ud->leaked);
		kmemleak_not_leak(mk->refs);
		mk->refs = NULL;
	}
	if (mk->refs)
		umr_put_refs(mk->refs, mk->nrefs);
	mutex_destroy(&mk->lock);
	kfree(mk);
}
