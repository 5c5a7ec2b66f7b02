/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause */
/*
 * mlx5-umr: userspace interface of the UMR service.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _UAPI_LINUX_MLX5_UMR_H
#define _UAPI_LINUX_MLX5_UMR_H

#include <linux/types.h>
#include <linux/ioctl.h>

/**
 * DOC: mlx5-umr character device
 *
 * Every HCA the UMR service drives gets one character device,
 * /dev/mlx5_umr/<name>, where <name> is the RDMA device name (mlx5_0) or
 * "fakeN" for a fake HCA. Each open file is an isolated context: the
 * objects it creates (registered memory, indirect mkeys) are named by
 * handles private to that file, and all of them are destroyed when the
 * file is closed.
 *
 * Threat model: the service posts UMR work requests on a REG_UMR QP, and
 * such a QP can rewrite *any* mkey of the device, including mkeys owned
 * by other processes or by the kernel. The hardware checks nothing on
 * their behalf, so this interface is the only guard. It therefore accepts
 * in a layout only lkeys of memory registered through the same file, and
 * only address ranges that lie inside that registration. Memory named by a
 * configured layout cannot be destroyed until the layout is replaced,
 * invalidated or destroyed (EBUSY).
 *
 * Every ioctl takes a pointer to a structure whose first member is
 * "__u32 size", the size userspace compiled in. Structures only grow at
 * the end. The kernel reads them like copy_struct_from_user(): a shorter
 * size than the first version of the structure is refused, a longer one is
 * accepted when the bytes the kernel does not know are zero. Output fields
 * are written back up to the smaller of the two sizes. Pointers and
 * lengths are __aligned_u64. Fields named __reserved must be zero.
 *
 * Errors (negative return of ioctl(), errno set):
 *
 * - EINVAL: size below the first version of the structure; a __reserved
 *   field or entry padding is not zero; a zero length, entry count,
 *   max_entries or repeat count; an entry longer than 2 GiB, or an
 *   interleaved stride (bytes_count + bytes_skip) over 65535 (the
 *   hardware's 16 bits); a repeat count for a list; an unknown
 *   layout; access bits outside MLX5_UMR_IOC_ACCESS_*, or remote
 *   write/atomic without local write; an entries pointer not aligned to
 *   8 bytes; a batch of no requests, an unknown batch op, a batch
 *   naming one mkey twice, an invalidate in a batch with configure fields
 *   set.
 * - E2BIG: size larger than the kernel knows and the unknown tail is not
 *   all zero (also a batch's req_size); a batch of more requests or entry
 *   bytes than MLX5_UMR_IOCTL_INFO allows.
 * - EOPNOTSUPP: an unknown flag; an access bit the HCA does not support
 *   (remote atomic).
 * - ENOTTY: an unknown ioctl.
 * - ENOENT: the handle or key is not an object of this file, or not an
 *   object of the required kind. Another file's handles and keys are
 *   indistinguishable from unknown ones.
 * - ERANGE: an entry's [addr, addr + length) is not inside the memory
 *   registration its lkey names.
 * - EOVERFLOW: a range wraps the address space: addr + length, or the
 *   span of an interleaved entry over repeat_count cycles.
 * - ENOSPC: an mkey of more entries than INFO's out_max_entries; a
 *   registration of more pages than MLX5_UMR_IOC_MAX_REG_PAGES (checked
 *   before anything is pinned); a file that already holds
 *   MLX5_UMR_IOC_MAX_FD_MKEYS indirect mkeys or whose indirect mkeys'
 *   translation tables would exceed MLX5_UMR_IOC_MAX_FD_XLT_BYTES.
 * - EBUSY: the object is named by a configured layout or is in use by a
 *   concurrent ioctl; an mkey with a request in a running batch.
 * - EFAULT: a user pointer is not mapped or not in user space (the
 *   structure, an entries array, the memory to register).
 * - ENOMEM: RLIMIT_MEMLOCK would be exceeded (without CAP_IPC_LOCK), or
 *   the kernel (or the file's memory cgroup) is out of memory; a layout of
 *   more entries than the mkey was allocated for, or than INFO's
 *   out_max_entries (a list) or out_max_interleaved_entries (an
 *   interleaved layout).
 * - EINTR: a signal arrived while the call waited for room in the files'
 *   share of the device's queue (MLX5_UMR_IOC_MAX_INFLIGHT_BBS; a batch:
 *   room for its first request), or for an mkey another call is
 *   configuring; nothing was done.
 * - EIO: the HCA completed the UMR work request with an error, or refused
 *   a command (creating or destroying an mkey).
 * - ETIMEDOUT: the HCA did not complete the work request in time.
 * - ENODEV: the HCA was removed; the file can only be closed.
 *
 * No other errno is returned. After EIO or ETIMEDOUT from CONFIGURE or
 * INVALIDATE the mkey may hold either layout: both layouts' registrations
 * stay referenced until a later request on the mkey succeeds.
 *
 * Limits (also in MLX5_UMR_IOCTL_INFO). A file holds at most
 * MLX5_UMR_IOC_MAX_FD_MKEYS indirect mkeys, whose translation tables (16
 * bytes per entry, rounded up; kernel memory the device reads, which no
 * memory cgroup can be charged for) total at most
 * MLX5_UMR_IOC_MAX_FD_XLT_BYTES. The work requests of all files of a
 * device together occupy at most MLX5_UMR_IOC_MAX_INFLIGHT_BBS basic blocks
 * (64 bytes) of the device's one UMR send queue, half of it (further calls
 * wait, interruptibly): no file can exhaust the device, and files cannot
 * starve kernel users. A configure of a short list takes 3 blocks, an
 * invalidate 2, an inline layout at most 15. A registration covers at most
 * MLX5_UMR_IOC_MAX_REG_PAGES pages (one work request's translation):
 * about 512 MiB with 4 KiB pages.
 */
#define MLX5_UMR_IOC_MAX_REG_PAGES	131064
#define MLX5_UMR_IOC_MAX_FD_MKEYS	4096
#define MLX5_UMR_IOC_MAX_FD_XLT_BYTES	(64ULL << 20)
#define MLX5_UMR_IOC_MAX_INFLIGHT_BBS	512

#define MLX5_UMR_IOC_TYPE	0xEE
#define MLX5_UMR_IOC_BASE	0x80

enum {
	MLX5_UMR_CMD_INFO = MLX5_UMR_IOC_BASE,
	MLX5_UMR_CMD_REG_MR,
	MLX5_UMR_CMD_ALLOC_MKEY,
	MLX5_UMR_CMD_CONFIGURE,
	MLX5_UMR_CMD_INVALIDATE,
	MLX5_UMR_CMD_DESTROY,
	MLX5_UMR_CMD_BATCH,
	/*
	 * MLX5_UMR_IOC_BASE + 0x20 and up: the test interface of a test
	 * build of the module (not part of this header; ENOTTY otherwise).
	 */
};

/* Access rights, with the values of enum ibv_access_flags. */
enum mlx5_umr_ioc_access {
	MLX5_UMR_IOC_ACCESS_LOCAL_WRITE = 1 << 0,
	MLX5_UMR_IOC_ACCESS_REMOTE_WRITE = 1 << 1,
	MLX5_UMR_IOC_ACCESS_REMOTE_READ = 1 << 2,
	MLX5_UMR_IOC_ACCESS_REMOTE_ATOMIC = 1 << 3,
};

/**
 * struct mlx5_umr_ioc_info - MLX5_UMR_IOCTL_INFO: device caps and counters
 * @size: sizeof(struct mlx5_umr_ioc_info)
 * @flags: must be 0
 * @out_flags: 0; no flags are defined yet
 * @out_max_entries: largest max_entries of MLX5_UMR_IOCTL_ALLOC_MKEY, and
 *	the most entries of a list layout
 * @out_max_inline_entries: entries that fit inline in one work request
 * @out_access: MLX5_UMR_IOC_ACCESS_* bits this device grants
 * @out_fd_objects: live objects of this file
 * @out_dev_objects: live objects of all files of this device (0 without
 *	CAP_SYS_ADMIN)
 * @__reserved: must be 0
 * @__reserved2: must be 0
 * @out_fd_pinned_pages: pages pinned by this file
 * @out_dev_pinned_pages: pages pinned by all files of this device (0
 *	without CAP_SYS_ADMIN)
 * @out_name: device name, NUL terminated
 * @out_max_batch: largest num_reqs of MLX5_UMR_IOCTL_BATCH
 * @out_max_batch_bytes: largest sum over a batch of its entry arrays'
 *	bytes (num_entries times the size of one entry)
 * @out_max_interleaved_entries: the most entries of an interleaved layout
 *	(one less than @out_max_entries: the repeat block header takes one)
 * @out_max_reg_pages: MLX5_UMR_IOC_MAX_REG_PAGES
 * @out_max_fd_mkeys: MLX5_UMR_IOC_MAX_FD_MKEYS
 * @out_max_inflight_bbs: MLX5_UMR_IOC_MAX_INFLIGHT_BBS
 * @out_max_fd_xlt_bytes: MLX5_UMR_IOC_MAX_FD_XLT_BYTES
 * @out_fd_xlt_bytes: translation table bytes this file's indirect mkeys
 *	hold
 */
struct mlx5_umr_ioc_info {
	__u32 size;
	__u32 flags;
	__u32 out_flags;
	__u32 out_max_entries;
	__u32 out_max_inline_entries;
	__u32 out_access;
	__u32 out_fd_objects;
	__u32 out_dev_objects;
	__u32 __reserved;
	__u32 __reserved2;
	__aligned_u64 out_fd_pinned_pages;
	__aligned_u64 out_dev_pinned_pages;
	char out_name[32];
	__u32 out_max_batch;
	__u32 out_max_batch_bytes;
	__u32 out_max_interleaved_entries;
	__u32 out_max_reg_pages;
	__u32 out_max_fd_mkeys;
	__u32 out_max_inflight_bbs;
	__aligned_u64 out_max_fd_xlt_bytes;
	__aligned_u64 out_fd_xlt_bytes;
};

#define MLX5_UMR_IOCTL_INFO	_IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_INFO)

/**
 * struct mlx5_umr_ioc_reg_mr - MLX5_UMR_IOCTL_REG_MR: register user memory
 * @size: sizeof(struct mlx5_umr_ioc_reg_mr)
 * @flags: must be 0
 * @access: MLX5_UMR_IOC_ACCESS_* of the new (direct) mkey
 * @__reserved: must be 0
 * @addr: first byte; any alignment. It is also the mkey's address: layouts
 *	name this memory by its user virtual addresses, as with ibv_reg_mr()
 * @length: bytes, not 0
 * @out_handle: handle of the new object
 * @out_lkey: its lkey
 * @out_rkey: its rkey
 * @__reserved2: must be 0
 *
 * The pages are pinned (FOLL_LONGTERM) and counted in the caller's
 * RLIMIT_MEMLOCK until the object is destroyed.
 */
struct mlx5_umr_ioc_reg_mr {
	__u32 size;
	__u32 flags;
	__u32 access;
	__u32 __reserved;
	__aligned_u64 addr;
	__aligned_u64 length;
	__u32 out_handle;
	__u32 out_lkey;
	__u32 out_rkey;
	__u32 __reserved2;
};

#define MLX5_UMR_IOCTL_REG_MR	_IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_REG_MR)

enum mlx5_umr_ioc_mkey_flags {
	/* The key may be invalidated by a peer's SEND_WITH_INV. */
	MLX5_UMR_IOC_MKEY_REMOTE_INVALIDATE = 1 << 0,
};

/**
 * struct mlx5_umr_ioc_alloc_mkey - MLX5_UMR_IOCTL_ALLOC_MKEY: an indirect mkey
 * @size: sizeof(struct mlx5_umr_ioc_alloc_mkey)
 * @flags: MLX5_UMR_IOC_MKEY_*
 * @max_entries: translation entries to size it for, not 0
 * @out_handle: handle of the new object
 * @out_key: its lkey and rkey
 * @__reserved: must be 0
 *
 * The mkey starts free (unusable) until configured, like
 * mlx5dv_create_mkey() with MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT.
 */
struct mlx5_umr_ioc_alloc_mkey {
	__u32 size;
	__u32 flags;
	__u32 max_entries;
	__u32 out_handle;
	__u32 out_key;
	__u32 __reserved;
};

#define MLX5_UMR_IOCTL_ALLOC_MKEY _IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_ALLOC_MKEY)

/**
 * struct mlx5_umr_ioc_sge - an SGE-list entry, layout of struct ibv_sge
 * @addr: first byte, an address of the memory @lkey registered
 * @length: bytes, not 0
 * @lkey: lkey of memory registered through the same file
 */
struct mlx5_umr_ioc_sge {
	__aligned_u64 addr;
	__u32 length;
	__u32 lkey;
};

/**
 * struct mlx5_umr_ioc_interleaved - an interleaved entry, layout of
 *	struct mlx5dv_mr_interleaved (including its tail padding)
 * @addr: first byte of the first cycle, in the memory @lkey registered
 * @bytes_count: bytes taken per cycle, not 0
 * @bytes_skip: bytes skipped after them per cycle
 * @lkey: lkey of memory registered through the same file
 * @__reserved: must be 0 (the padding of struct mlx5dv_mr_interleaved)
 *
 * Cycle c takes [@addr + c * (@bytes_count + @bytes_skip), + @bytes_count).
 */
struct mlx5_umr_ioc_interleaved {
	__aligned_u64 addr;
	__u32 bytes_count;
	__u32 bytes_skip;
	__u32 lkey;
	__u32 __reserved;
};

/* Flags of MLX5_UMR_IOCTL_CONFIGURE and MLX5_UMR_IOCTL_INVALIDATE. */
enum mlx5_umr_ioc_key_flags {
	/*
	 * Install a fresh, random key byte (same mkey index), returned in
	 * out_key: the old key no longer names the mkey, for the HCA (a peer
	 * using it gets a remote access error) and for this file.
	 */
	MLX5_UMR_IOC_NEW_KEY = 1 << 0,
};

enum mlx5_umr_ioc_layout {
	MLX5_UMR_IOC_LAYOUT_LIST = 1,		/* struct mlx5_umr_ioc_sge[] */
	MLX5_UMR_IOC_LAYOUT_INTERLEAVED = 2,	/* struct mlx5_umr_ioc_interleaved[] */
};

/**
 * struct mlx5_umr_ioc_configure - MLX5_UMR_IOCTL_CONFIGURE: give an indirect
 *	mkey access rights and a layout (mlx5dv_wr_mkey_configure() with
 *	mlx5dv_wr_set_mkey_access_flags() and one layout setter)
 * @size: sizeof(struct mlx5_umr_ioc_configure)
 * @handle: an indirect mkey of this file
 * @flags: MLX5_UMR_IOC_NEW_KEY
 * @access: MLX5_UMR_IOC_ACCESS_*
 * @layout: enum mlx5_umr_ioc_layout
 * @num_entries: entries at @entries, not 0
 * @repeat_count: cycles of an interleaved layout, not 0; 0 for a list
 * @__reserved: must be 0
 * @entries: user pointer to the entry array, 8-byte aligned
 * @out_length: bytes the mkey now covers; its addresses are zero based
 * @out_key: the mkey's key now (a new one with MLX5_UMR_IOC_NEW_KEY)
 * @__reserved2: must be 0
 *
 * The mkey's address space is the concatenation of the entries (list) or of
 * @repeat_count cycles over the entries (interleaved).
 */
struct mlx5_umr_ioc_configure {
	__u32 size;
	__u32 handle;
	__u32 flags;
	__u32 access;
	__u32 layout;
	__u32 num_entries;
	__u32 repeat_count;
	__u32 __reserved;
	__aligned_u64 entries;
	__aligned_u64 out_length;
	__u32 out_key;
	__u32 __reserved2;
};

#define MLX5_UMR_IOCTL_CONFIGURE _IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_CONFIGURE)

/**
 * struct mlx5_umr_ioc_invalidate - MLX5_UMR_IOCTL_INVALIDATE: move an
 *	indirect mkey back to the free state (local invalidation)
 * @size: sizeof(struct mlx5_umr_ioc_invalidate)
 * @handle: an indirect mkey of this file
 * @flags: MLX5_UMR_IOC_NEW_KEY
 * @__reserved: must be 0
 * @out_key: the mkey's key now (a new one with MLX5_UMR_IOC_NEW_KEY)
 * @__reserved2: must be 0
 *
 * Afterwards every access through the key fails, and the memory its
 * layout named may be destroyed.
 */
struct mlx5_umr_ioc_invalidate {
	__u32 size;
	__u32 handle;
	__u32 flags;
	__u32 __reserved;
	__u32 out_key;
	__u32 __reserved2;
};

#define MLX5_UMR_IOCTL_INVALIDATE _IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_INVALIDATE)

/**
 * struct mlx5_umr_ioc_destroy - MLX5_UMR_IOCTL_DESTROY: destroy an object
 * @size: sizeof(struct mlx5_umr_ioc_destroy)
 * @handle: an object of this file
 * @flags: must be 0
 * @__reserved: must be 0
 */
struct mlx5_umr_ioc_destroy {
	__u32 size;
	__u32 handle;
	__u32 flags;
	__u32 __reserved;
};

#define MLX5_UMR_IOCTL_DESTROY	_IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_DESTROY)

enum mlx5_umr_ioc_batch_op {
	MLX5_UMR_IOC_BATCH_CONFIGURE = 1,	/* as MLX5_UMR_IOCTL_CONFIGURE */
	MLX5_UMR_IOC_BATCH_INVALIDATE = 2,	/* as MLX5_UMR_IOCTL_INVALIDATE */
};

/**
 * struct mlx5_umr_ioc_batch_req - one request of MLX5_UMR_IOCTL_BATCH
 * @op: enum mlx5_umr_ioc_batch_op
 * @handle: an indirect mkey of this file, named by no other request of
 *	the batch
 * @flags: MLX5_UMR_IOC_NEW_KEY (either op), as for the lone ioctls
 * @access: CONFIGURE: as struct mlx5_umr_ioc_configure; INVALIDATE: 0
 * @layout: likewise
 * @num_entries: likewise
 * @repeat_count: likewise
 * @__reserved: must be 0
 * @entries: likewise
 * @out_length: CONFIGURE: bytes the mkey now covers, once applied
 * @out_status: 0 when the HCA applied the request, else a negative errno:
 *	-EIO (the HCA failed it), -ETIMEDOUT, -ECANCELED, or the error that
 *	kept it from being posted (-EIO, -ENODEV, -EINTR: a signal while the
 *	batch waited for room in the files' share of the queue)
 * @out_key: the mkey's key after the request: a new one when it was
 *	applied with MLX5_UMR_IOC_NEW_KEY (hand it out only then); ignored on
 *	input
 *
 * The fields of a CONFIGURE mean and are checked as those of struct
 * mlx5_umr_ioc_configure, with the same errors.
 */
struct mlx5_umr_ioc_batch_req {
	__u32 op;
	__u32 handle;
	__u32 flags;
	__u32 access;
	__u32 layout;
	__u32 num_entries;
	__u32 repeat_count;
	__u32 __reserved;
	__aligned_u64 entries;
	__aligned_u64 out_length;
	__s32 out_status;
	__u32 out_key;
};

/**
 * struct mlx5_umr_ioc_batch - MLX5_UMR_IOCTL_BATCH: configure and
 *	invalidate many indirect mkeys with one system call and one wait
 * @size: sizeof(struct mlx5_umr_ioc_batch)
 * @flags: must be 0
 * @num_reqs: requests at @reqs, 1..out_max_batch of MLX5_UMR_IOCTL_INFO
 * @req_size: sizeof(struct mlx5_umr_ioc_batch_req) as userspace compiled
 *	it; the array's stride, a multiple of 8. Read like @size: smaller than the first
 *	version is EINVAL, unknown tail bytes must be zero (E2BIG)
 * @reqs: user pointer to the requests, 8-byte aligned
 * @out_index: when the batch is refused, the index of the request that
 *	was refused, or @num_reqs when the batch as a whole was
 * @out_failed: requests whose out_status is not 0
 *
 * Every request is checked, and the memory its layout names looked up and
 * referenced, before anything is posted. One refused request refuses the
 * batch: the ioctl fails with that request's errno, @out_index says which,
 * and nothing was posted or changed. Otherwise the requests are posted in
 * order, as many with one doorbell as the files' share of the queue
 * (MLX5_UMR_IOC_MAX_INFLIGHT_BBS) has room for: a batch of up to
 * out_max_batch short configures goes out at once on an idle device. They
 * are waited for once. The ioctl then
 * returns 0 and each request's @out_status says what became of it. A
 * batch's entry arrays are copied into kernel memory: their bytes summed
 * over the batch may not exceed out_max_batch_bytes (E2BIG).
 */
struct mlx5_umr_ioc_batch {
	__u32 size;
	__u32 flags;
	__u32 num_reqs;
	__u32 req_size;
	__aligned_u64 reqs;
	__u32 out_index;
	__u32 out_failed;
};

#define MLX5_UMR_IOCTL_BATCH	_IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_BATCH)

#endif /* _UAPI_LINUX_MLX5_UMR_H */
