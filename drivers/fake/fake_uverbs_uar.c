// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA as an mlx5_ib user device: dynamic UARs.
 *
 * libmlx5 asks for MLX5_LIB_CAP_DYN_UAR and then allocates its UARs with
 * MLX5_IB_OBJECT_UAR / MLX5_IB_METHOD_UAR_OBJ_ALLOC (rdma-core v44.0
 * verbs.c mlx5_alloc_dyn_uar(); Linux 6.1 main.c, the method of the same
 * name), mmapping the offset it is given. A UAR here is a UAR of the fake
 * (hca->ops->alloc_uar: its index is the page_id the library hands back
 * in CREATE_CQ and CREATE_QP) and a page of memory that stands for its
 * doorbell registers. Only non-cached UARs: without write combining
 * mlx5_ib refuses blue-flame UARs with -EOPNOTSUPP, as here.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#define UVERBS_MODULE_NAME mlx5_umr_fake_uverbs
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

#include <linux/mlx5_umr_hca.h>

#include "fake_uverbs.h"

static struct fuv_uar *to_fuv_uar(struct rdma_user_mmap_entry *e)
{
	return container_of(e, struct fuv_uar, rdma_entry);
}

/**
 * fuv_mmap() - &ib_device_ops.mmap: map a UAR's page
 * @uctx: the context
 * @vma: the mapping, one page at the offset UAR_OBJ_ALLOC returned
 *
 * Return: 0 or -errno (-EINVAL for an offset that is no UAR's or a length
 * other than the page's, as main.c mlx5_ib_mmap_offset()).
 */
int fuv_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *e;
	struct fuv_uar *uar;
	int err;

	e = rdma_user_mmap_entry_get(uctx, vma);
	if (!e)
		return -EINVAL;
	uar = to_fuv_uar(e);
	/*
	 * Ordinary memory, mapped with the VMA's own (cached) protection:
	 * the fake reads the doorbells the library writes there.
	 */
	err = rdma_user_mmap_io(uctx, vma, page_to_pfn(uar->page), PAGE_SIZE,
				vma->vm_page_prot, e);
	rdma_user_mmap_entry_put(e);
	return err;
}

/**
 * fuv_mmap_free() - &ib_device_ops.mmap_free: the last user of a UAR
 *	went away (its object destroyed and its mappings unmapped)
 * @e: the UAR's entry
 */
void fuv_mmap_free(struct rdma_user_mmap_entry *e)
{
	struct fuv_uar *uar = to_fuv_uar(e);
	struct fuv_dev *dev = to_fuv_dev(e->ucontext->device);

	xa_erase(&dev->uars, uar->uar.index);
	dev->hca->ops->free_uar(dev->hca, &uar->uar);
	__free_page(uar->page);
	kfree(uar);
}

/**
 * fuv_uar_get() - the UAR a CREATE_QP names by its page_id
 * @dev: the device
 * @uctx: the context of the request: another context's UAR is not found
 * @page_id: what UAR_OBJ_ALLOC returned
 *
 * Return: the UAR with a reference on its mmap entry (its page stays
 * until fuv_uar_put()), or NULL.
 */
struct fuv_uar *fuv_uar_get(struct fuv_dev *dev, struct ib_ucontext *uctx,
			    u32 page_id)
{
	struct fuv_uar *uar;

	xa_lock(&dev->uars);
	uar = xa_load(&dev->uars, page_id);
	if (uar && (uar->rdma_entry.ucontext != uctx ||
		    !kref_get_unless_zero(&uar->rdma_entry.ref)))
		uar = NULL;
	xa_unlock(&dev->uars);
	return uar;
}

/**
 * fuv_uar_put() - drop what fuv_uar_get() took
 * @uar: the UAR
 */
void fuv_uar_put(struct fuv_uar *uar)
{
	rdma_user_mmap_entry_put(&uar->rdma_entry);
}

static int fuv_uar_cleanup(struct ib_uobject *uobj, enum rdma_remove_reason why,
			   struct uverbs_attr_bundle *attrs)
{
	struct fuv_uar *uar = uobj->object;

	rdma_user_mmap_entry_remove(&uar->rdma_entry);
	return 0;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_UAR_OBJ_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
	enum mlx5_ib_uapi_uar_alloc_type type;
	struct ib_ucontext *uctx;
	struct fuv_dev *dev;
	struct fuv_uar *uar;
	u32 length = PAGE_SIZE;
	u64 offset;
	int err;

	uctx = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	dev = to_fuv_dev(uctx->device);
	err = uverbs_get_const(&type, attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE);
	if (err)
		return err;
	/* main.c: unknown types, and BF without write combining */
	if (type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC)
		return -EOPNOTSUPP;

	uar = kzalloc(sizeof(*uar), GFP_KERNEL);
	if (!uar)
		return -ENOMEM;
	uar->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!uar->page) {
		err = -ENOMEM;
		goto err_free;
	}
	err = dev->hca->ops->alloc_uar(dev->hca, &uar->uar);
	if (err)
		goto err_page;
	err = xa_insert(&dev->uars, uar->uar.index, uar, GFP_KERNEL);
	if (err)
		goto err_uar;
	err = rdma_user_mmap_entry_insert(uctx, &uar->rdma_entry, PAGE_SIZE);
	if (err)
		goto err_xa;
	/* from here on the entry owns the UAR (fuv_mmap_free()) */
	uobj->object = uar;
	uverbs_finalize_uobj_create(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);

	offset = rdma_user_mmap_get_offset(&uar->rdma_entry);
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET,
			     &offset, sizeof(offset));
	if (err)
		return err;
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID,
			     &uar->uar.index, sizeof(uar->uar.index));
	if (err)
		return err;
	return uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
			      &length, sizeof(length));

err_xa:
	xa_erase(&dev->uars, uar->uar.index);
err_uar:
	dev->hca->ops->free_uar(dev->hca, &uar->uar);
err_page:
	__free_page(uar->page);
err_free:
	kfree(uar);
	return err;
}

DECLARE_UVERBS_NAMED_METHOD(MLX5_IB_METHOD_UAR_OBJ_ALLOC,
			    UVERBS_ATTR_IDR(MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE,
					    MLX5_IB_OBJECT_UAR,
					    UVERBS_ACCESS_NEW, UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE,
						 enum mlx5_ib_uapi_uar_alloc_type,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET,
						UVERBS_ATTR_TYPE(u64),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(MLX5_IB_METHOD_UAR_OBJ_DESTROY,
				    UVERBS_ATTR_IDR(MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE,
						    MLX5_IB_OBJECT_UAR,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(MLX5_IB_OBJECT_UAR,
			    UVERBS_TYPE_ALLOC_IDR(fuv_uar_cleanup),
			    &UVERBS_METHOD(MLX5_IB_METHOD_UAR_OBJ_ALLOC),
			    &UVERBS_METHOD(MLX5_IB_METHOD_UAR_OBJ_DESTROY));

/* The mlx5 driver namespace methods this device has (ib_device.driver_def). */
const struct uapi_definition fuv_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(MLX5_IB_OBJECT_UAR),
	UAPI_DEF_CHAIN(fuv_devx_defs),
	{}
};
