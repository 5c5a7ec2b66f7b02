// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: the per-file object table of the character device.
 *
 * Objects are created in two steps: a handle is reserved with
 * XA_ZERO_ENTRY (lookups see nothing) while the object is built, then the
 * object is published. The ioctl's answer is copied to userspace after the
 * device lock is released (a fault there may last as long as userspace
 * wants); if that copy fails the object is destroyed again. Lookups take a
 * reference under the xarray lock; destroy only
 * succeeds when the table holds the last one, so an object is never freed
 * under a running ioctl or under a layout that names it.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>

#include "uapi_priv.h"

/**
 * umr_uobj_insert() - reserve a handle for a new object
 * @ctx: the file
 * @obj: the object, fully built, with @obj->mkey set (NULL for a DEK)
 *
 * Return: 0 with @obj->handle set, or -errno.
 */
int umr_uobj_insert(struct umr_uctx *ctx, struct umr_uobj *obj)
{
	int ret;

	refcount_set(&obj->users, 1);
	ret = xa_alloc(&ctx->objs, &obj->handle, XA_ZERO_ENTRY, xa_limit_32b,
		       GFP_KERNEL);
	if (ret)
		return ret == -EBUSY ? -ENOSPC : ret;
	/* Reserved, so that publishing cannot fail. */
	ret = obj->mkey ? xa_reserve(&ctx->keys, umr_key_index(obj->mkey->key),
				     GFP_KERNEL) : 0;
	if (ret) {
		xa_erase(&ctx->objs, obj->handle);
		return ret;
	}
	atomic_inc(&ctx->nobjs);
	atomic_inc(&ctx->ud->nobjs);
	return 0;
}

/* Make an inserted object reachable through its handle and its key. */
void umr_uobj_publish(struct umr_uctx *ctx, struct umr_uobj *obj)
{
	if (obj->mkey)
		WARN_ON(xa_store(&ctx->keys, umr_key_index(obj->mkey->key),
				 obj, GFP_KERNEL));
	WARN_ON(xa_store(&ctx->objs, obj->handle, obj, GFP_KERNEL));
}

/* Unreachable by handle: make it unreachable by key too. */
static void umr_uobj_unkey(struct umr_uctx *ctx, struct umr_uobj *obj)
{
	if (obj->mkey)
		xa_erase(&ctx->keys, umr_key_index(obj->mkey->key));
}

static void umr_mr_destroy(struct umr_uctx *ctx, struct umr_uobj *obj)
{
	umr_mr_free(ctx, container_of(obj, struct umr_umr, obj));
}

static void umr_mkey_destroy(struct umr_uctx *ctx, struct umr_uobj *obj)
{
	umr_mkey_free(ctx, container_of(obj, struct umr_umkey, obj));
}

static void umr_dek_destroy(struct umr_uctx *ctx, struct umr_uobj *obj)
{
	umr_dek_free(ctx, container_of(obj, struct umr_udek, obj));
}

/**
 * struct umr_uobj_ops - what differs between the kinds of object
 * @destroy: free an object no one references any more, and what it holds
 *
 * As iommufd's struct iommufd_object_ops, one per enum umr_uobj_type.
 */
struct umr_uobj_ops {
	void (*destroy)(struct umr_uctx *ctx, struct umr_uobj *obj);
};

static const struct umr_uobj_ops umr_uobj_ops[] = {
	[UMR_UOBJ_MR] = { .destroy = umr_mr_destroy },
	[UMR_UOBJ_MKEY] = { .destroy = umr_mkey_destroy },
	[UMR_UOBJ_DEK] = { .destroy = umr_dek_destroy },
};

/*
 * The order a closing file destroys its objects in: indirect mkeys first,
 * they hold references on the registrations and DEKs their layouts name;
 * DEKs last, once no mkey of the file can name them.
 */
static const enum umr_uobj_type umr_uobj_destroy_order[] = {
	UMR_UOBJ_MKEY, UMR_UOBJ_MR, UMR_UOBJ_DEK,
};

static void umr_uobj_free(struct umr_uctx *ctx, struct umr_uobj *obj)
{
	atomic_dec(&ctx->nobjs);
	atomic_dec(&ctx->ud->nobjs);
	umr_uobj_ops[obj->type].destroy(ctx, obj);
}

static struct umr_uobj *umr_uobj_ref(struct umr_uobj *obj,
				     enum umr_uobj_type type)
{
	if (!obj || (type != UMR_UOBJ_ANY && obj->type != type) ||
	    !refcount_inc_not_zero(&obj->users))
		return ERR_PTR(-ENOENT);
	return obj;
}

/**
 * umr_uobj_get() - look up and reference an object by handle
 * @ctx: the file
 * @handle: from userspace
 * @type: the kind required, or UMR_UOBJ_ANY
 *
 * Return: the object (release with umr_uobj_put()) or ERR_PTR(-ENOENT).
 */
struct umr_uobj *umr_uobj_get(struct umr_uctx *ctx, u32 handle,
			      enum umr_uobj_type type)
{
	struct umr_uobj *obj;

	xa_lock(&ctx->objs);
	obj = umr_uobj_ref(xa_load(&ctx->objs, handle), type);
	xa_unlock(&ctx->objs);
	return obj;
}

/**
 * umr_uobj_get_key() - look up and reference an object by its mkey
 * @ctx: the file
 * @key: lkey/rkey from userspace
 * @type: the kind required, or UMR_UOBJ_ANY
 *
 * Return: the object (release with umr_uobj_put()) or ERR_PTR(-ENOENT).
 */
struct umr_uobj *umr_uobj_get_key(struct umr_uctx *ctx, u32 key,
				  enum umr_uobj_type type)
{
	struct umr_uobj *obj;

	xa_lock(&ctx->keys);
	obj = xa_load(&ctx->keys, umr_key_index(key));
	/* a stale key (rotated since) names nothing */
	if (obj && READ_ONCE(obj->mkey->key) != key)
		obj = NULL;
	obj = umr_uobj_ref(obj, type);
	xa_unlock(&ctx->keys);
	return obj;
}

void umr_uobj_put(struct umr_uobj *obj)
{
	refcount_dec(&obj->users);
}

/**
 * umr_uobj_destroy_handle() - destroy an object no one else uses
 * @ctx: the file, under the device lock (read)
 * @handle: the object's
 *
 * Return: 0, -ENOENT or -EBUSY (a running ioctl or a layout holds it).
 */
int umr_uobj_destroy_handle(struct umr_uctx *ctx, u32 handle)
{
	struct umr_uobj *obj;

	xa_lock(&ctx->objs);
	obj = xa_load(&ctx->objs, handle);
	if (!obj) {
		xa_unlock(&ctx->objs);
		return -ENOENT;
	}
	if (!refcount_dec_if_one(&obj->users)) {
		xa_unlock(&ctx->objs);
		return -EBUSY;
	}
	__xa_erase(&ctx->objs, handle);
	xa_unlock(&ctx->objs);

	umr_uobj_unkey(ctx, obj);
	umr_uobj_free(ctx, obj);
	return 0;
}

int umr_cmd_destroy(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_destroy *cmd = ucmd->cmd;

	if (cmd->flags)
		return -EOPNOTSUPP;
	if (cmd->__reserved)
		return -EINVAL;
	return umr_uobj_destroy_handle(ucmd->ctx, cmd->handle);
}

static void umr_uobj_destroy_type(struct umr_uctx *ctx,
				  enum umr_uobj_type type)
{
	struct umr_uobj *obj;
	unsigned long index;

	xa_for_each(&ctx->objs, index, obj) {
		if (obj->type != type)
			continue;
		xa_erase(&ctx->objs, index);
		umr_uobj_unkey(ctx, obj);
		umr_uobj_free(ctx, obj);
	}
}

/**
 * umr_uobj_destroy_all() - destroy every object of a file
 * @ctx: the file, with no ioctl running on it
 *
 * In umr_uobj_destroy_order: an object goes after those that may
 * reference it.
 */
void umr_uobj_destroy_all(struct umr_uctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(umr_uobj_destroy_order); i++)
		umr_uobj_destroy_type(ctx, umr_uobj_destroy_order[i]);
	WARN_ON(!xa_empty(&ctx->objs));
}
