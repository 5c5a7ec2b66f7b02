// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: what the character device's objects are charged to their
 * creator, across all of the user's files (Documentation/uapi.rst,
 * "Per-user charges").
 *
 * - Translation tables are host memory the HCA reads, which no memory
 *   cgroup sees: charged, in the pages allocated, to the creating user's
 *   user->locked_vm against RLIMIT_MEMLOCK (ENOMEM), as iommufd charges
 *   pinned pages by default (drivers/iommu/iommufd/pages.c
 *   incr_user_locked_vm(), IOPT_PAGES_ACCOUNT_USER). Per user, not per
 *   mm as ib_umem counts pinned_vm: the memory belongs to no address
 *   space, and a per-mm count would give each process of the user a new
 *   limit. CAP_IPC_LOCK lifts the limit, not the count.
 * - PSVs and DEKs are HCA objects from a pool kernel ULPs share, not host
 *   memory: counted per user and device against the module parameters
 *   uapi_user_psvs and uapi_user_deks (EDQUOT), as the keyring counts a
 *   user's keys against keys/maxkeys (security/keys/key.c).
 *
 * An object the HCA refused to destroy keeps its charges for good: its
 * table and its PSVs or key stay on the HCA.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/slab.h>

#include "uapi_priv.h"

static unsigned int uapi_user_psvs = 8192;
module_param(uapi_user_psvs, uint, 0644);
MODULE_PARM_DESC(uapi_user_psvs,
		 "PSVs the signature mkeys of one user may hold per device (2 an mkey)");

static unsigned int uapi_user_deks = 4096;
module_param(uapi_user_deks, uint, 0644);
MODULE_PARM_DESC(uapi_user_deks,
		 "DEKs one user may hold per device");

/**
 * struct umr_uquota - one user's PSVs and DEKs on a device
 * @psvs: PSVs of the user's signature mkeys
 * @deks: the user's DEKs
 */
struct umr_uquota {
	u32 psvs;
	u32 deks;
};

/*
 * Charge @c's table pages to the calling user's locked_vm; a compare and
 * exchange, so that concurrent charges never pass the limit even briefly.
 */
static int umr_charge_pages(struct umr_charge *c, u64 bytes)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	unsigned long npages = bytes >> PAGE_SHIFT;
	struct user_struct *user;
	long cur;

	if (!npages)
		return 0;
	user = get_uid(current_user());
	cur = atomic_long_read(&user->locked_vm);
	do {
		if (cur + npages > limit && !capable(CAP_IPC_LOCK)) {
			free_uid(user);
			return -ENOMEM;
		}
	} while (!atomic_long_try_cmpxchg(&user->locked_vm, &cur,
					  cur + npages));
	c->user = user;
	c->npages = npages;
	return 0;
}

static void umr_uncharge_pages(struct umr_charge *c)
{
	if (!c->user)
		return;
	atomic_long_sub(c->npages, &c->user->locked_vm);
	free_uid(c->user);
	c->user = NULL;
	c->npages = 0;
}

static int umr_charge_counts(struct umr_udev *ud, struct umr_charge *c,
			     u32 psvs, u32 deks)
{
	unsigned long uid = __kuid_val(current_uid());
	struct umr_uquota *q;
	int ret = 0;

	if (!psvs && !deks)
		return 0;
	mutex_lock(&ud->quota_lock);
	q = xa_load(&ud->quotas, uid);
	if (!q) {
		q = kzalloc(sizeof(*q), GFP_KERNEL_ACCOUNT);
		if (!q) {
			ret = -ENOMEM;
			goto out;
		}
		ret = xa_err(xa_store(&ud->quotas, uid, q, GFP_KERNEL_ACCOUNT));
		if (ret) {
			kfree(q);
			goto out;
		}
	}
	if (q->psvs + psvs > READ_ONCE(uapi_user_psvs) ||
	    q->deks + deks > READ_ONCE(uapi_user_deks)) {
		ret = -EDQUOT;
		if (!q->psvs && !q->deks)
			kfree(xa_erase(&ud->quotas, uid));
		goto out;
	}
	q->psvs += psvs;
	q->deks += deks;
	c->uid = current_uid();
	c->psvs = psvs;
	c->deks = deks;
out:
	mutex_unlock(&ud->quota_lock);
	return ret;
}

static void umr_uncharge_counts(struct umr_udev *ud, struct umr_charge *c)
{
	unsigned long uid = __kuid_val(c->uid);
	struct umr_uquota *q;

	if (!c->psvs && !c->deks)
		return;
	mutex_lock(&ud->quota_lock);
	q = xa_load(&ud->quotas, uid);
	if (!WARN_ON_ONCE(!q || q->psvs < c->psvs || q->deks < c->deks)) {
		q->psvs -= c->psvs;
		q->deks -= c->deks;
		if (!q->psvs && !q->deks)
			kfree(xa_erase(&ud->quotas, uid));
	}
	mutex_unlock(&ud->quota_lock);
	c->psvs = 0;
	c->deks = 0;
}

/**
 * umr_charge() - charge an object being created to the calling user
 * @ud: the device
 * @c: the object's charges, zeroed
 * @table_bytes: its translation table as allocated, a multiple of
 *	PAGE_SIZE (mlx5_umr_mkey_table_bytes())
 * @psvs: PSVs it takes
 * @deks: DEKs it takes
 *
 * Before anything is allocated on the HCA; undone with umr_uncharge().
 *
 * Return: 0, -EDQUOT (the user's PSVs or DEKs on @ud), -ENOMEM (the
 * user's RLIMIT_MEMLOCK, or no memory); nothing is charged on failure.
 */
int umr_charge(struct umr_udev *ud, struct umr_charge *c, u64 table_bytes,
	       u32 psvs, u32 deks)
{
	int ret;

	ret = umr_charge_counts(ud, c, psvs, deks);
	if (ret)
		return ret;
	ret = umr_charge_pages(c, table_bytes);
	if (ret)
		umr_uncharge_counts(ud, c);
	return ret;
}

/**
 * umr_uncharge() - give back what umr_charge() took
 * @ud: the device
 * @c: the object's charges; zeroed
 *
 * Not for an object the HCA may still hold: its charges stay.
 */
void umr_uncharge(struct umr_udev *ud, struct umr_charge *c)
{
	umr_uncharge_pages(c);
	umr_uncharge_counts(ud, c);
}

/* The device's counts, at its release: only leaked objects' remain. */
void umr_udev_charges_destroy(struct umr_udev *ud)
{
	struct umr_uquota *q;
	unsigned long uid;

	xa_for_each(&ud->quotas, uid, q)
		kfree(q);
	xa_destroy(&ud->quotas);
	mutex_destroy(&ud->quota_lock);
}

void umr_udev_charges_init(struct umr_udev *ud)
{
	mutex_init(&ud->quota_lock);
	xa_init(&ud->quotas);
}
