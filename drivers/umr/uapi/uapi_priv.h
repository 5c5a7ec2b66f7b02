/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: the character device (uapi) internals.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5_UMR_UAPI_PRIV_H
#define MLX5_UMR_UAPI_PRIV_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/scatterlist.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <linux/mlx5_umr.h>
#include <uapi/linux/mlx5_umr.h>
#ifdef MLX5_UMR_TESTING
#include "uapi_testing.h"

/* Largest MLX5_UMR_TEST_IOCTL_XFER (a kernel bounce buffer). */
#define UMR_UAPI_MAX_XFER	SZ_1M
#endif

/*
 * Kernel memory of sizes userspace chooses (kvmalloc): charged, and a
 * failure is the caller's ENOMEM, not a kernel warning (failure sweeps).
 */
#define UMR_GFP_USER	(GFP_KERNEL_ACCOUNT | __GFP_NOWARN)

/* Completion wait of one UMR work request issued for userspace. */
#define UMR_UAPI_TIMEOUT_MS	10000
/*
 * Largest MLX5_UMR_IOCTL_BATCH: requests, and bytes of entry arrays the
 * kernel copies in for them (the kernel memory one batch may pin down).
 */
#define UMR_UAPI_MAX_BATCH	128
#define UMR_UAPI_MAX_BATCH_BYTES	SZ_1M
/*
 * Largest size of an extensible structure userspace passes (an ioctl's,
 * a batch's request stride): its unknown tail is checked to be zero byte
 * by byte, which must not take a CPU for long. clone3(), openat2() and
 * sched_setattr() refuse more than a page with E2BIG too.
 */
#define UMR_UAPI_MAX_STRUCT	PAGE_SIZE

/**
 * struct umr_udev - the character device of one HCA
 * @dev: the service device; valid until @dead is set
 * @q_lock: serialises the creation of @q
 * @q: the character device's own UMR queue, where every mkey of its
 *	files is homed (mlx5_umr_uapi_alloc_mkey()): a user's stall or bad
 *	request recovers this queue only, never one the kernel's consumers
 *	post on; NULL until an object needs it (umr_udev_queue()), then set
 *	once (release/acquire) and valid until @dead is set
 * @misc: /dev/mlx5_umr/<name>
 * @name: misc device name, "mlx5_umr_<hca>"
 * @nodename: "mlx5_umr/<hca>"
 * @kref: one for the registration, one per open file
 * @rwsem: held for read by every ioctl and file release while it uses
 *	@dev, for write by device removal
 * @lock: protects @ctxs and the transitions of @dead
 * @ctxs: open files (struct umr_uctx.node)
 * @dead: the HCA is gone; under @rwsem (read) or @lock
 * @node: on umr_udevs, under umr_udevs_lock
 * @nobjs: live objects of all files
 * @pinned: pages pinned by all files
 * @leaked: objects kept, never freed, because the HCA may still use them
 * @share_lock: protects @share and @share_waiters
 * @share: send queue basic blocks the files' work requests may still take
 *	of MLX5_UMR_IOC_MAX_INFLIGHT_BBS (umr_share_take())
 * @share_waiters: calls waiting for @share, served in order
 * @pd_rwsem: orders the files' own PDs against the PDs callers name
 *	(uapi_pd.c): held for write while an own PD is allocated and entered
 *	in @own_pds, or freed and removed; for read by MLX5_UMR_IOCTL_SET_PD
 *	from its check to its probe mkey, and by every creation in a
 *	caller's PD from its check to the object's creation
 * @own_pds: PD number -> the files' own PDs, under @pd_rwsem
 * @quota_lock: protects @quotas and what they point to
 * @quotas: uid -> the PSVs and DEKs of that user's objects on the device
 *	(uapi_charge.c)
 */
struct umr_udev {
	struct mlx5_umr_dev *dev;
	struct mutex q_lock;		/* creation of @q */
	struct mlx5_umr_queue *q;
	struct miscdevice misc;
	char name[48];
	char nodename[48];
	struct kref kref;
	struct rw_semaphore rwsem;	/* see @rwsem above */
	struct mutex lock;		/* protects @ctxs, @dead */
	struct list_head ctxs;
	bool dead;
	struct list_head node;
	atomic_t nobjs;
	atomic64_t pinned;
	atomic_t leaked;
	spinlock_t share_lock;		/* @share, @share_waiters */
	u32 share;
	struct list_head share_waiters;
	struct rw_semaphore pd_rwsem;	/* see @pd_rwsem above */
	struct xarray own_pds;
	struct mutex quota_lock;	/* protects @quotas */
	struct xarray quotas;
};

/**
 * struct umr_uctx - one open file
 * @ud: its device
 * @objs: handle -> struct umr_uobj; XA_ZERO_ENTRY while being created.
 *	Its xa_lock makes lookup + reference atomic against destroy.
 * @keys: mkey index -> struct umr_uobj, the ownership check of layouts;
 *	by index, so that a key rotation does not move the entry
 * @node: on @ud->ctxs, under @ud->lock
 * @nobjs: live objects
 * @pinned: pinned pages
 * @pdn: the file's PD: every mkey of the file is in it, so that the
 *	NIC itself keeps files apart (a QP of one file's PD cannot use
 *	another file's keys). None until the first object needs one; its
 *	own (@pd_owned: allocated then, freed at close or when the device
 *	goes away), or the caller's (@pd_borrowed, MLX5_UMR_IOCTL_SET_PD);
 *	taken through umr_uctx_pd_get() (uapi_pd.c)
 * @pd_lock: protects @pdn, @pd_owned, @pd_borrowed, @pd_frozen, @pd_users,
 *	@pd_verbs, @pd_ibpd
 * @pd_owned: @pdn is the file's own PD
 * @pd_borrowed: @pdn is the caller's verbs PD, never freed by the file
 * @pd_frozen: an object was created in @pdn: it cannot change
 * @pd_users: creations between umr_uctx_pd_get() and umr_uctx_pd_put()
 * @pd_verbs: with @pd_ibpd: the command file of the verbs PD @pdn is,
 *	held until the PD is released (uapi_pd.c)
 * @pd_ibpd: the caller's verbs PD, proven (MLX5_UMR_IOC_SET_PD_VERBS)
 *	and held against its destruction; NULL for the unverified number
 * @nmkeys: live indirect mkeys, at most MLX5_UMR_IOC_MAX_FD_MKEYS
 * @xlt_bytes: their translation tables' bytes as allocated (whole pages,
 *	none for a table inline in the WQE), at most
 *	MLX5_UMR_IOC_MAX_FD_XLT_BYTES
 * @ndeks: live DEKs, at most MLX5_UMR_IOC_MAX_FD_DEKS
 */
struct umr_uctx {
	struct umr_udev *ud;
	struct xarray objs;
	struct xarray keys;
	struct list_head node;
	u32 pdn;
	struct mutex pd_lock; /* @pdn, @pd_owned, @pd_borrowed, ... */
	bool pd_owned;
	bool pd_borrowed;
	bool pd_frozen;
	u32 pd_users;
	struct file *pd_verbs;
	struct ib_pd *pd_ibpd;
	atomic_t nobjs;
	atomic64_t pinned;
	atomic_t nmkeys;
	atomic64_t xlt_bytes;
	atomic_t ndeks;
};

/**
 * struct umr_charge - what an object is charged to the user who created
 *	it, across his files (uapi_charge.c)
 * @user: whose locked_vm holds @npages, referenced; NULL for none
 * @npages: pages of its translation table
 * @uid: whose count of the device holds @psvs and @deks
 * @psvs: its PSVs
 * @deks: its DEKs
 */
struct umr_charge {
	struct user_struct *user;
	unsigned long npages;
	kuid_t uid;
	u32 psvs;
	u32 deks;
};

enum umr_uobj_type {
	UMR_UOBJ_ANY,
	UMR_UOBJ_MR,
	UMR_UOBJ_MKEY,
	UMR_UOBJ_DEK,
};

/**
 * struct umr_uobj - what a handle names
 * @type: UMR_UOBJ_MR, UMR_UOBJ_MKEY or UMR_UOBJ_DEK
 * @handle: index in umr_uctx.objs
 * @users: 1 for the table, plus 1 per ioctl using the object and per
 *	layout entry naming it (a crypto layout names its DEK too); destroy
 *	succeeds only from exactly 1
 * @mkey: the service's mkey; NULL for a DEK, which has no key and is not
 *	in umr_uctx.keys
 */
struct umr_uobj {
	enum umr_uobj_type type;
	u32 handle;
	refcount_t users;
	struct mlx5_umr_mkey *mkey;
};

/**
 * struct umr_umr - registered user memory (a direct MTT mkey)
 * @obj: the object
 * @iova: user address of the first byte, also the mkey's address
 * @length: bytes
 * @access: MLX5_UMR_IOC_ACCESS_* it was registered with; a layout naming
 *	it may grant no more
 * @npages: pinned pages, as accounted to @mm->pinned_vm
 * @mm: the address space that was charged
 * @sgt: the pinned pages, mapped for the HCA
 * @dir: DMA_TO_DEVICE when the HCA may only read them (pinned read-only)
 */
struct umr_umr {
	struct umr_uobj obj;
	u64 iova;
	u64 length;
	u32 access;
	unsigned long npages;
	struct mm_struct *mm;
	struct sg_append_table sgt;
	enum dma_data_direction dir;
};

/**
 * struct umr_udek - a data encryption key (uapi_crypto.c)
 * @obj: the object
 * @dek: the service's DEK; the key itself is only in the HCA
 * @charge: the DEK, charged to its creator
 */
struct umr_udek {
	struct umr_uobj obj;
	struct mlx5_umr_dek *dek;
	struct umr_charge charge;
};

/**
 * struct umr_umkey - an indirect mkey
 * @obj: the object
 * @lock: serialises reconfiguration; protects @refs, @nrefs, @length and
 *	@claim
 * @refs: the registrations the current layout names, one reference each,
 *	and on a crypto mkey the DEK it names
 * @nrefs: entries in @refs
 * @length: bytes the current layout covers, 0 when free
 * @xlt_bytes: translation table bytes charged to the file for it
 * @charge: its table and PSVs, charged to its creator
 * @claim: the batch that has a request on this mkey in flight, or NULL
 */
struct umr_umkey {
	struct umr_uobj obj;
	struct mutex lock;	/* protects @refs, @nrefs, @length, @claim */
	struct umr_uobj **refs;
	u32 nrefs;
	u64 length;
	u64 xlt_bytes;
	struct umr_charge charge;
	const void *claim;
};

/**
 * struct umr_mreq - one configure or invalidate request, gathered step by
 *	step (uapi_mkey.c), posted alone or in a batch
 * @wr: the request for the service
 * @obj: the mkey, referenced
 * @mk: its indirect mkey
 * @esize: size of one user entry
 * @ksize: size of one service entry
 * @uent: the user's entries, copied before the device lock
 *	(umr_entries_copy_in()); the request owns them
 * @kent: the service's entries, in the same allocation after @uent
 * @refs: one reference per entry on the registration it names, then
 *	one on the DEK of a crypto configure (uapi_crypto.c); once settled,
 *	the references to drop (the old layout's)
 * @nrefs: entries in @refs
 * @cap: room in @refs, enough for the mkey's current references after
 *	ours unless the layout changed meanwhile
 * @both: room for both layouts' references when @refs has not enough
 *	(umr_mreq_reserve())
 * @length: bytes the new layout covers
 * @claimed: @mk->claim is ours
 * @bbs: basic blocks of the device's share the request holds while posted
 * @sig: the signature of a CONFIGURE with MLX5_UMR_IOC_SIG_SET (uapi_sig.c)
 * @crypto: the crypto attributes of a CONFIGURE with
 *	MLX5_UMR_IOC_CRYPTO_SET (uapi_crypto.c)
 * @batch: gathered for MLX5_UMR_IOCTL_BATCH, which cannot configure a
 *	crypto mkey
 */
struct umr_mreq {
	struct mlx5_umr_wr wr;
	struct umr_uobj *obj;
	struct umr_umkey *mk;
	size_t esize;
	size_t ksize;
	void *uent;
	void *kent;
	struct umr_uobj **refs;
	u32 nrefs;
	u32 cap;
	struct umr_uobj **both;
	u64 length;
	bool claimed;
	u16 bbs;
	struct mlx5_umr_sig_attr sig;
	struct mlx5_umr_crypto_attr crypto;
	bool batch;
};

/**
 * struct umr_ucmd - one ioctl being executed
 * @filp: the file, whose opener's credentials decide what it may see
 * @ctx: its context
 * @ubuf: the user's structure
 * @user_size: its size field
 * @cmd: the kernel copy (the larger of the two sizes is zero-filled)
 * @size: kernel size of the structure
 * @priv: what the op's prepare step got from user memory before the
 *	device lock (pinned pages, copied entries, a batch's requests), or
 *	ERR_PTR(-errno)
 * @respond: @cmd is copied back to userspace after the device lock is
 *	released (umr_ucmd_respond())
 * @created: the handle of the object the ioctl published, destroyed
 *	again when the answer cannot be copied out; 0 for none
 * @respond_more: optional, writes the rest of the answer (a batch's
 *	requests) after the device lock is released, before @cmd
 */
struct umr_ucmd {
	struct file *filp;
	struct umr_uctx *ctx;
	void __user *ubuf;
	u32 user_size;
	void *cmd;
	u32 size;
	void *priv;
	bool respond;
	u32 created;
	int (*respond_more)(struct umr_ucmd *ucmd);
};

int umr_ucmd_respond(struct umr_ucmd *ucmd);
int umr_ucmd_respond_created(struct umr_ucmd *ucmd, struct umr_uobj *obj);
int umr_check_access_bits(u32 access);
int umr_check_access(struct umr_udev *ud, u32 access);
u32 umr_max_entries(struct umr_udev *ud);
int umr_exec(struct umr_uctx *ctx, struct mlx5_umr_wr *wr);
struct mlx5_umr_queue *umr_udev_queue(struct umr_udev *ud);
bool umr_share_try(struct umr_udev *ud, u32 bbs);
int umr_share_take(struct umr_udev *ud, u32 bbs);
void umr_share_put(struct umr_udev *ud, u32 bbs);

int umr_uobj_insert(struct umr_uctx *ctx, struct umr_uobj *obj);
void umr_uobj_publish(struct umr_uctx *ctx, struct umr_uobj *obj);
int umr_uobj_destroy_handle(struct umr_uctx *ctx, u32 handle);
struct umr_uobj *umr_uobj_get(struct umr_uctx *ctx, u32 handle,
			      enum umr_uobj_type type);
/* The @keys index of a key: its mkey index, which a rotation keeps. */
static inline unsigned long umr_key_index(u32 key)
{
	return key >> 8;
}

struct umr_uobj *umr_uobj_get_key(struct umr_uctx *ctx, u32 key,
				  enum umr_uobj_type type);
void umr_uobj_put(struct umr_uobj *obj);
void umr_uobj_destroy_all(struct umr_uctx *ctx);

void umr_mr_free(struct umr_uctx *ctx, struct umr_umr *mr);
void umr_mkey_free(struct umr_uctx *ctx, struct umr_umkey *mk);

int umr_prep_reg_mr(struct umr_ucmd *ucmd);
void *umr_entries_copy_in(u32 layout, u32 num_entries, u64 entries);
size_t umr_entries_bytes(u32 layout, u32 num_entries);
int umr_entries_read(void *buf, u32 layout, u32 num_entries, u64 entries);
void umr_entries_free(void *uent);
int umr_mreq_configure(struct umr_uctx *ctx,
		       const struct mlx5_umr_ioc_configure *cmd, void **uent,
		       struct umr_mreq *r);
int umr_mreq_invalidate(struct umr_uctx *ctx, u32 handle, struct umr_mreq *r);
int umr_mreq_reserve(struct umr_mreq *r);
void umr_mreq_settle(struct umr_mreq *r, int status);
int umr_mreq_claim(struct umr_mreq *r, const void *owner);
void umr_mreq_unclaim(struct umr_mreq *r, int status);
void umr_mreq_release(struct umr_mreq *r);

int umr_cmd_reg_mr(struct umr_ucmd *ucmd);
void umr_release_reg_mr(struct umr_ucmd *ucmd);
int umr_prep_configure(struct umr_ucmd *ucmd);
void umr_release_configure(struct umr_ucmd *ucmd);
int umr_cmd_alloc_mkey(struct umr_ucmd *ucmd);
int umr_cmd_configure(struct umr_ucmd *ucmd);
int umr_cmd_invalidate(struct umr_ucmd *ucmd);
int umr_cmd_destroy(struct umr_ucmd *ucmd);
int umr_prep_batch(struct umr_ucmd *ucmd);
void umr_release_batch(struct umr_ucmd *ucmd);
int umr_cmd_batch(struct umr_ucmd *ucmd);
/* uapi_pd.c: the file's PD */
void umr_udev_pd_init(struct umr_udev *ud);
void umr_udev_pd_destroy(struct umr_udev *ud);
void umr_uctx_pd_init(struct umr_uctx *ctx);
void umr_uctx_pd_release(struct umr_uctx *ctx);
int umr_uctx_pd_get(struct umr_uctx *ctx, u32 *pdn);
void umr_uctx_pd_put(struct umr_uctx *ctx, bool created);
int umr_cmd_set_pd(struct umr_ucmd *ucmd);
/* uapi_charge.c: per-user charges */
void umr_udev_charges_init(struct umr_udev *ud);
void umr_udev_charges_destroy(struct umr_udev *ud);
int umr_charge(struct umr_udev *ud, struct umr_charge *c, u64 table_bytes,
	       u32 psvs, u32 deks);
void umr_uncharge(struct umr_udev *ud, struct umr_charge *c);
/* uapi_sig.c: block signature */
u32 umr_sig_info_flags(struct umr_udev *ud);
int umr_sig_mkey_flags(struct umr_udev *ud, u32 ioc_flags, u32 *flags);
int umr_sig_configure(const struct mlx5_umr_ioc_configure *cmd,
		      struct umr_mreq *r);
int umr_sig_configure_mkey(const struct mlx5_umr_ioc_configure *cmd,
			   struct umr_mreq *r);
struct mlx5_sig_err_cqe;
int umr_sig_report_cqe(struct umr_uctx *ctx,
		       const struct mlx5_sig_err_cqe *cqe, u32 *handle);
int umr_cmd_sig_check(struct umr_ucmd *ucmd);
int umr_cmd_sig_report(struct umr_ucmd *ucmd);
/* uapi_crypto.c: AES-XTS crypto mkeys and DEKs */
u32 umr_crypto_info_flags(struct umr_udev *ud);
void umr_crypto_info(struct umr_uctx *ctx, struct mlx5_umr_ioc_info *cmd);
int umr_crypto_mkey_flags(struct umr_udev *ud, u32 ioc_flags, u32 *flags);
u32 umr_crypto_refs(const struct mlx5_umr_ioc_configure *cmd);
int umr_crypto_configure(const struct mlx5_umr_ioc_configure *cmd,
			 struct umr_mreq *r);
int umr_crypto_configure_mkey(struct umr_uctx *ctx,
			      const struct mlx5_umr_ioc_configure *cmd,
			      struct umr_mreq *r);
int umr_prep_dek_create(struct umr_ucmd *ucmd);
void umr_release_dek_create(struct umr_ucmd *ucmd);
int umr_cmd_dek_create(struct umr_ucmd *ucmd);
void umr_dek_free(struct umr_uctx *ctx, struct umr_udek *dk);
#ifdef MLX5_UMR_TESTING
/* uapi_xfer.c: the test interface (uapi_testing.h) */
int umr_cmd_test_info(struct umr_ucmd *ucmd);
int umr_cmd_test_xfer(struct umr_ucmd *ucmd);
#endif

/* The module init and exit of mlx5_umr.ko (uapi_main.c). */
int mlx5_umr_uapi_init(void);
void mlx5_umr_uapi_exit(void);

#endif /* MLX5_UMR_UAPI_PRIV_H */
