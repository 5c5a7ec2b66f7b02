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
 *   translation tables would exceed MLX5_UMR_IOC_MAX_FD_XLT_BYTES; a
 *   signature mkey in a verified caller's PD whose table would not fit
 *   inline in a work request (struct mlx5_umr_ioc_set_pd).
 * - EDQUOT: the calling user's PSVs (two per signature mkey) or DEKs on
 *   this device, over all of his files, would exceed what the module
 *   parameters uapi_user_psvs and uapi_user_deks allow.
 * - EBUSY: the object is named by a configured layout or is in use by a
 *   concurrent ioctl; an mkey with a request in a running batch.
 * - EFAULT: a user pointer is not mapped or not in user space (the
 *   structure, an entries array, the memory to register). When the answer
 *   cannot be written back, an object the call created is destroyed again.
 * - ENOMEM: RLIMIT_MEMLOCK would be exceeded (without CAP_IPC_LOCK):
 *   by the process's pinned pages (REG_MR), or by the calling user's
 *   translation tables over all of his files (ALLOC_MKEY); or the
 *   kernel (or the file's memory cgroup) is out of memory; a layout of
 *   more entries than the mkey was allocated for, or than INFO's
 *   out_max_entries (a list) or out_max_interleaved_entries (an
 *   interleaved layout).
 * - ENOENT also: MLX5_UMR_IOCTL_SET_PD names a PD the HCA does not have,
 *   or (MLX5_UMR_IOC_SET_PD_VERBS) no PD of this device has the pd_id.
 * - EBADF: MLX5_UMR_IOCTL_SET_PD's cmd_fd is not an open file.
 * - EXDEV: MLX5_UMR_IOCTL_SET_PD's cmd_fd is the verbs file of another
 *   device.
 * - EPERM: MLX5_UMR_IOCTL_SET_PD of a bare PD number while the module
 *   does not allow it (parameter unverified_set_pd).
 * - EBUSY also: MLX5_UMR_IOCTL_SET_PD after the file created an object
 *   (or while it creates one), or of a verbs PD being destroyed.
 * - EINVAL also: MLX5_UMR_IOCTL_SET_PD with MLX5_UMR_IOC_SET_PD_VERBS and
 *   a size below MLX5_UMR_IOC_SET_PD_SIZE_VERBS or a pdn, or a cmd_fd that
 *   is not a verbs command file.
 * - EINTR: a signal arrived while the call waited for room in the files'
 *   share of the device's queue (MLX5_UMR_IOC_MAX_INFLIGHT_BBS; a batch:
 *   room for its first request) or on the queue itself, or for an mkey
 *   another call is configuring; nothing was done.
 * - EACCES: MLX5_UMR_IOCTL_SET_PD names a PD the service owns (its own,
 *   or another open file's), or a verbs PD that is not the caller's; a
 *   layout grants an access right that a
 *   registration it names was not registered with (remote or local write
 *   over memory registered for reading).
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
 * bytes per entry; kernel memory the device reads, which no memory cgroup
 * can be charged for) total at most MLX5_UMR_IOC_MAX_FD_XLT_BYTES, counted
 * as allocated: whole pages, none for a table the work request holds
 * inline. The same pages are charged to the calling user's RLIMIT_MEMLOCK
 * (his locked_vm, over all of his files and processes), and the PSVs and
 * DEKs of his objects are counted per user and device (EDQUOT). The work requests of all files of a
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

/*
 * The ABI this header describes. From version 1 on, no field of a
 * structure here moves or changes size and no ioctl number changes
 * meaning: structures grow only at their end, new ioctls take new numbers
 * (scripts/testbed/uapi-abi.sh compares the header with the frozen table
 * of version 1). The first version of each structure, the smallest size
 * the kernel accepts (EINVAL below), as clone3()'s CLONE_ARGS_SIZE_VER0:
 */
#define MLX5_UMR_ABI_VERSION			1
#define MLX5_UMR_IOC_INFO_SIZE_VER1		88	/* to out_name */
#define MLX5_UMR_IOC_REG_MR_SIZE_VER1		48
#define MLX5_UMR_IOC_ALLOC_MKEY_SIZE_VER1	24
#define MLX5_UMR_IOC_CONFIGURE_SIZE_VER1	48	/* to out_length */
#define MLX5_UMR_IOC_INVALIDATE_SIZE_VER1	16
#define MLX5_UMR_IOC_DESTROY_SIZE_VER1		16
#define MLX5_UMR_IOC_BATCH_SIZE_VER1		32
#define MLX5_UMR_IOC_BATCH_REQ_SIZE_VER1	56	/* req_size */
#define MLX5_UMR_IOC_SET_PD_SIZE_VER1		16
#define MLX5_UMR_IOC_SIG_CHECK_SIZE_VER1	48
#define MLX5_UMR_IOC_SIG_REPORT_SIZE_VER1	80
#define MLX5_UMR_IOC_DEK_CREATE_SIZE_VER1	40

enum {
	MLX5_UMR_CMD_INFO = MLX5_UMR_IOC_BASE,
	MLX5_UMR_CMD_REG_MR,
	MLX5_UMR_CMD_ALLOC_MKEY,
	MLX5_UMR_CMD_CONFIGURE,
	MLX5_UMR_CMD_INVALIDATE,
	MLX5_UMR_CMD_DESTROY,
	MLX5_UMR_CMD_BATCH,
	MLX5_UMR_CMD_SET_PD,
	MLX5_UMR_CMD_SIG_CHECK,		/* signature (below) */
	MLX5_UMR_CMD_SIG_REPORT,
	MLX5_UMR_CMD_DEK_CREATE,	/* crypto (below) */
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
 * @out_flags: MLX5_UMR_IOC_INFO_SIG (signature mkeys),
 *	MLX5_UMR_IOC_INFO_CRYPTO (crypto mkeys and DEKs), or 0
 * @out_max_entries: largest max_entries of MLX5_UMR_IOCTL_ALLOC_MKEY, and
 *	the most entries of a list layout
 * @out_max_inline_entries: entries that fit inline in one work request
 * @out_access: MLX5_UMR_IOC_ACCESS_* bits this device grants
 * @out_fd_objects: live objects of this file
 * @out_dev_objects: live objects of all files of this device (0 unless
 *	both the file's opener and the caller have CAP_SYS_ADMIN)
 * @__reserved: must be 0
 * @__reserved2: must be 0
 * @out_fd_pinned_pages: pages pinned by this file
 * @out_dev_pinned_pages: pages pinned by all files of this device (0
 *	unless both the file's opener and the caller have CAP_SYS_ADMIN)
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
 *	hold, as allocated (whole pages)
 * @out_crypto_key_sizes: with MLX5_UMR_IOC_INFO_CRYPTO, a bit
 *	(1 << MLX5_UMR_IOC_CRYPTO_KEY_SIZE_*) per DEK key size offered; else 0
 * @out_crypto_data_unit_sizes: with MLX5_UMR_IOC_INFO_CRYPTO, a bit
 *	(1 << MLX5_UMR_IOC_SIG_BLOCK_*) per crypto data unit size; else 0
 * @out_max_fd_deks: MLX5_UMR_IOC_MAX_FD_DEKS
 * @out_fd_deks: DEKs this file holds
 * @out_crypto_engine: the HCA's AES-XTS engine, MLX5_UMR_IOC_CRYPTO_ENGINE_*,
 *	reported with or without MLX5_UMR_IOC_INFO_CRYPTO (a device that
 *	takes only wrapped keys has an engine but no crypto here)
 * @out_crypto_caps: MLX5_UMR_IOC_CRYPTO_CAP_* bits of the HCA
 * @out_nqueues: the device's UMR queues (send queues of the service), at
 *	least 1
 * @__reserved3: written 0
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
	__u32 out_crypto_key_sizes;
	__u32 out_crypto_data_unit_sizes;
	__u32 out_max_fd_deks;
	__u32 out_fd_deks;
	__u32 out_crypto_engine;
	__u32 out_crypto_caps;
	__u32 out_nqueues;
	__u32 __reserved3;
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

/*
 * Block signature (data integrity): T10-DIF and CRC protection
 * information computed, inserted, stripped and checked per block by the
 * HCA, with the semantics of rdma-core's mlx5dv_wr_set_mkey_sig_block(3)
 * and mlx5dv_mkey_check(3). Documentation/uapi.rst ("Signature") and
 * Documentation/signature.rst describe it; the values of every enum below
 * are those of the same-named rdma-core enum (mlx5dv.h) except
 * mlx5_umr_ioc_sig_type, whose 0 is "none" (rdma-core: a NULL domain).
 * The signature's flags take bits 8 and up of each flags field.
 *
 * Errors, in addition to those above:
 *
 * - EINVAL: MLX5_UMR_IOC_SIG_SET and MLX5_UMR_IOC_SIG_RESET together, or
 *   either on an mkey not allocated with MLX5_UMR_IOC_MKEY_SIGNATURE;
 *   struct mlx5_umr_ioc_sig_block not all zero without
 *   MLX5_UMR_IOC_SIG_SET; with it: no domain with a signature, an unknown
 *   sig_type, block_size, bg_type or crc_type, a field of the other type
 *   (or of a domain without signature) not zero, a __reserved field not
 *   zero, a T10-DIF guard seed other than 0 or 0xffff, a CRC seed other
 *   than 0 or all ones of its width, MLX5_UMR_IOC_SIG_COPY_MASK without
 *   the same type, CRC and block size in both domains, a copy_mask
 *   without MLX5_UMR_IOC_SIG_COPY_MASK, a layout of more than 4 GiB;
 *   SIG_CHECK on an mkey without signature; SIG_REPORT of a CQE whose
 *   opcode is not MLX5_CQE_SIG_ERR (12) or that names an mkey of this
 *   file without signature.
 * - EOPNOTSUPP: an unknown bit in flags or dif_flags of the signature
 *   structures; MLX5_UMR_IOC_MKEY_SIGNATURE on an HCA without signature
 *   offload (MLX5_UMR_IOC_INFO_SIG not set in INFO's out_flags); a
 *   signature flag in a batch request (signatures are set by CONFIGURE
 *   alone).
 * - ENOMEM: a layout given with MLX5_UMR_IOC_SIG_SET whose translation
 *   and the signature's BSF do not fit inline in one work request (a
 *   signature mkey's layout may not take the translation's indirect path).
 * - ENOENT: SIG_CHECK of a handle, or SIG_REPORT of a CQE naming a key,
 *   that is not an indirect mkey of this file.
 * - EBUSY: SIG_CHECK of an mkey with a request in a running batch.
 * - EINTR, EIO, ETIMEDOUT, ENODEV: SIG_CHECK's re-arm, as for CONFIGURE;
 *   after EIO or ETIMEDOUT the error stays reported.
 */

/* MLX5_UMR_IOCTL_INFO out_flags: the HCA offers block-signature mkeys. */
enum mlx5_umr_ioc_info_sig_flags {
	MLX5_UMR_IOC_INFO_SIG = 1 << 8,
};

/*
 * MLX5_UMR_IOCTL_ALLOC_MKEY flags: a block-signature mkey, with its
 * memory and wire PSVs (mlx5dv_create_mkey() with
 * MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE). It has no signature until
 * a CONFIGURE with MLX5_UMR_IOC_SIG_SET gives it one.
 */
enum mlx5_umr_ioc_mkey_sig_flags {
	MLX5_UMR_IOC_MKEY_SIGNATURE = 1 << 8,
};

/* MLX5_UMR_IOCTL_CONFIGURE flags (signature mkeys only). */
enum mlx5_umr_ioc_sig_conf_flags {
	/* apply the configure's @sig (mlx5dv_wr_set_mkey_sig_block()) */
	MLX5_UMR_IOC_SIG_SET = 1 << 8,
	/* drop the signature (MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR) */
	MLX5_UMR_IOC_SIG_RESET = 1 << 9,
	/* neither: the mkey keeps the signature it has */
};

/* What protects the blocks of one domain (enum mlx5dv_sig_type, plus 0). */
enum mlx5_umr_ioc_sig_type {
	MLX5_UMR_IOC_SIG_TYPE_NONE = 0,
	MLX5_UMR_IOC_SIG_TYPE_T10DIF = 1,	/* 8 bytes after each block */
	MLX5_UMR_IOC_SIG_TYPE_CRC = 2,		/* 4 or 8 bytes after each block */
};

/* The T10-DIF guard (enum mlx5dv_sig_t10dif_bg_type). */
enum mlx5_umr_ioc_sig_t10dif_bg {
	MLX5_UMR_IOC_SIG_T10DIF_CRC = 0,	/* CRC-16/T10-DIF */
	MLX5_UMR_IOC_SIG_T10DIF_CSUM = 1,	/* IP checksum */
};

/* dif_flags (enum mlx5dv_sig_t10dif_flags). */
enum mlx5_umr_ioc_sig_t10dif_flags {
	/* the reference tag grows by one per block */
	MLX5_UMR_IOC_SIG_T10DIF_REF_REMAP = 1 << 0,
	/* no check of a block whose application tag is 0xffff */
	MLX5_UMR_IOC_SIG_T10DIF_APP_ESCAPE = 1 << 1,
	/* ... whose application tag is 0xffff and reference tag 0xffffffff */
	MLX5_UMR_IOC_SIG_T10DIF_APP_REF_ESCAPE = 1 << 2,
};

/* The CRC (enum mlx5dv_sig_crc_type). */
enum mlx5_umr_ioc_sig_crc_type {
	MLX5_UMR_IOC_SIG_CRC32 = 0,		/* FC-PH, 4 bytes */
	MLX5_UMR_IOC_SIG_CRC32C = 1,		/* Castagnoli, 4 bytes */
	MLX5_UMR_IOC_SIG_CRC64_XP10 = 2,	/* 8 bytes */
};

/* Data bytes per block (enum mlx5dv_block_size). */
enum mlx5_umr_ioc_sig_block_size {
	MLX5_UMR_IOC_SIG_BLOCK_512 = 0,
	MLX5_UMR_IOC_SIG_BLOCK_520 = 1,
	MLX5_UMR_IOC_SIG_BLOCK_4048 = 2,
	MLX5_UMR_IOC_SIG_BLOCK_4096 = 3,
	MLX5_UMR_IOC_SIG_BLOCK_4160 = 4,
};

/* Bytes of the protection field, for check_mask and copy_mask. */
enum mlx5_umr_ioc_sig_mask {
	MLX5_UMR_IOC_SIG_MASK_T10DIF_GUARD = 0xc0,
	MLX5_UMR_IOC_SIG_MASK_T10DIF_APPTAG = 0x30,
	MLX5_UMR_IOC_SIG_MASK_T10DIF_REFTAG = 0x0f,
	MLX5_UMR_IOC_SIG_MASK_CRC32 = 0xf0,
	MLX5_UMR_IOC_SIG_MASK_CRC32C = 0xf0,
	MLX5_UMR_IOC_SIG_MASK_CRC64_XP10 = 0xff,
};

/* struct mlx5_umr_ioc_sig_block flags (enum mlx5dv_sig_block_attr_flags). */
enum mlx5_umr_ioc_sig_block_flags {
	/* copy_mask overrides the copy mask the HCA would compute */
	MLX5_UMR_IOC_SIG_COPY_MASK = 1 << 0,
};

/**
 * struct mlx5_umr_ioc_sig_domain - the memory or the wire side of a block
 *	signature (struct mlx5dv_sig_block_domain with its T10-DIF or CRC
 *	parameters in line)
 * @sig_type: enum mlx5_umr_ioc_sig_type; with MLX5_UMR_IOC_SIG_TYPE_NONE
 *	every other field must be 0
 * @block_size: enum mlx5_umr_ioc_sig_block_size
 * @bg_type: T10-DIF: enum mlx5_umr_ioc_sig_t10dif_bg
 * @bg: T10-DIF: guard seed, 0 or 0xffff
 * @app_tag: T10-DIF: application tag to insert or check
 * @ref_tag: T10-DIF: reference tag of the first block
 * @dif_flags: T10-DIF: MLX5_UMR_IOC_SIG_T10DIF_*
 * @__reserved: must be 0
 * @crc_type: CRC: enum mlx5_umr_ioc_sig_crc_type
 * @__reserved2: must be 0
 * @crc_seed: CRC: 0 or all ones of the CRC's width
 *
 * The fields of the other type must be 0.
 */
struct mlx5_umr_ioc_sig_domain {
	__u32 sig_type;
	__u32 block_size;
	__u32 bg_type;
	__u16 bg;
	__u16 app_tag;
	__u32 ref_tag;
	__u16 dif_flags;
	__u16 __reserved;
	__u32 crc_type;
	__u32 __reserved2;
	__aligned_u64 crc_seed;
};

/**
 * struct mlx5_umr_ioc_sig_block - a block signature (struct
 *	mlx5dv_sig_block_attr)
 * @mem: the data as it lies in memory (in the layout's buffers)
 * @wire: the data as it crosses the wire (what a peer reads or writes
 *	through the key); one of the two domains at least has a signature
 * @flags: MLX5_UMR_IOC_SIG_COPY_MASK
 * @check_mask: bytes of the input domain's protection field that are
 *	checked (MLX5_UMR_IOC_SIG_MASK_*; bit 7 is the field's first byte)
 * @copy_mask: with MLX5_UMR_IOC_SIG_COPY_MASK, bytes copied from the input
 *	to the output domain instead of computed; else must be 0
 * @__reserved: must be 0
 */
struct mlx5_umr_ioc_sig_block {
	struct mlx5_umr_ioc_sig_domain mem;
	struct mlx5_umr_ioc_sig_domain wire;
	__u32 flags;
	__u8 check_mask;
	__u8 copy_mask;
	__u16 __reserved;
};

/*
 * Crypto (AES-XTS inline encryption): an mkey that encrypts or decrypts
 * data, per data unit, as it moves between memory and the wire, with the
 * semantics of rdma-core's mlx5dv_wr_set_mkey_crypto(3) and
 * mlx5dv_dek_create(3). Documentation/uapi.rst ("Crypto") and
 * Documentation/crypto.rst describe it; every enum below has the values
 * of the same-named rdma-core enum (mlx5dv.h). The key material of a data
 * encryption key (DEK) is read once by MLX5_UMR_IOCTL_DEK_CREATE, handed to
 * the HCA and wiped; nothing returns it. A DEK is an object of the file
 * like any other: in the file's PD, destroyed by MLX5_UMR_IOCTL_DESTROY or
 * when the file is closed. Of the flags fields the rest of the interface
 * uses too, crypto takes bit 9 of INFO's out_flags and bits 10 and up of
 * ALLOC_MKEY's and CONFIGURE's flags.
 *
 * Errors, in addition to those above:
 *
 * - EINVAL: MLX5_UMR_IOC_CRYPTO_SET on an mkey not allocated with
 *   MLX5_UMR_IOC_MKEY_CRYPTO, or a CONFIGURE of such an mkey without it;
 *   struct mlx5_umr_ioc_crypto not all zero without MLX5_UMR_IOC_CRYPTO_SET;
 *   with it: an unknown standard, sig_order or data_unit_size, a
 *   __reserved field not zero, SIGNATURE_AFTER_CRYPTO_ON_TX with encryption
 *   on transmit, or SIGNATURE_BEFORE_CRYPTO_ON_TX without it, on an mkey
 *   whose signature (set by the request or kept from an earlier one) has
 *   both domains (the device cannot, rdma-core refuses it too), a keytag
 *   for a DEK created without one, a layout of 4 GiB or more (the BSF's
 *   32-bit raw_data_size); DEK_CREATE with an unknown key_size, a key_len
 *   that is not the key size's (32 or 64 bytes), or a keytag without
 *   MLX5_UMR_IOC_DEK_KEYTAG.
 * - EOPNOTSUPP: an unknown bit in the crypto structures' flags;
 *   MLX5_UMR_IOC_MKEY_CRYPTO or DEK_CREATE on an HCA without
 *   MLX5_UMR_IOC_INFO_CRYPTO; a CONFIGURE of a crypto mkey in a batch
 *   (crypto attributes are set by CONFIGURE alone; an INVALIDATE in a
 *   batch is fine).
 * - ENOENT: @dek of struct mlx5_umr_ioc_crypto is not a DEK of this file.
 * - ENOSPC: the file already holds MLX5_UMR_IOC_MAX_FD_DEKS DEKs.
 * - EDQUOT: the calling user already holds uapi_user_deks DEKs on this
 *   device, over all of his files.
 * - EBUSY: DESTROY of a DEK a configured crypto mkey of the file names
 *   (until the mkey is configured with another DEK, invalidated or
 *   destroyed).
 * - ENOMEM: a layout whose translation and the crypto BSF (and, on an
 *   mkey with a signature too, the signature's BSF) do not fit inline in
 *   one work request.
 * - EIO: the HCA refused to create the DEK (for instance a device whose
 *   keys must be imported wrapped, which this interface does not offer,
 *   or key1 equal to key2, which the fake HCA refuses as XTS does in FIPS
 *   mode).
 *
 * A keytag given at CONFIGURE that differs from the DEK's is not an error
 * of the call: the HCA fails every access through the mkey (the peer or
 * the QP sees an access error), as on rdma-core.
 */

/* MLX5_UMR_IOCTL_INFO out_flags: AES-XTS crypto mkeys (plaintext DEKs). */
enum mlx5_umr_ioc_info_crypto_flags {
	MLX5_UMR_IOC_INFO_CRYPTO = 1 << 9,
};

/*
 * MLX5_UMR_IOCTL_INFO out_crypto_engine (Documentation/crypto.rst, "Device
 * capabilities"): none; SINGLE_BLOCK (aes_xts_single_block_le_tweak
 * only): a CONFIGURE that leaves a crypto mkey longer than its data unit
 * is EINVAL; MULTI_BLOCK: any length.
 */
enum mlx5_umr_ioc_crypto_engine {
	MLX5_UMR_IOC_CRYPTO_ENGINE_NONE = 0,
	MLX5_UMR_IOC_CRYPTO_ENGINE_SINGLE_BLOCK = 1,
	MLX5_UMR_IOC_CRYPTO_ENGINE_MULTI_BLOCK = 2,
};

/*
 * MLX5_UMR_IOCTL_INFO out_crypto_caps: the HCA reads the initial tweak big
 * endian (the service reverses the caller's little-endian tweak, which
 * keeps its meaning); DEKs must be imported wrapped (then no
 * MLX5_UMR_IOC_INFO_CRYPTO); SYNC_CRYPTO runs before a destroyed DEK's
 * number can be reused.
 */
enum mlx5_umr_ioc_crypto_caps {
	MLX5_UMR_IOC_CRYPTO_CAP_TWEAK_BE = 1 << 0,
	MLX5_UMR_IOC_CRYPTO_CAP_WRAPPED_IMPORT = 1 << 1,
	MLX5_UMR_IOC_CRYPTO_CAP_SYNCHRONIZE_DEK = 1 << 2,
};

/* A file holds at most this many DEKs. */
#define MLX5_UMR_IOC_MAX_FD_DEKS	1024

/*
 * MLX5_UMR_IOCTL_ALLOC_MKEY flags: a crypto mkey
 * (MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO); every CONFIGURE of it carries
 * MLX5_UMR_IOC_CRYPTO_SET. With MLX5_UMR_IOC_MKEY_SIGNATURE too, it
 * signs and encrypts in the order struct mlx5_umr_ioc_crypto's sig_order
 * gives.
 */
enum mlx5_umr_ioc_mkey_crypto_flags {
	MLX5_UMR_IOC_MKEY_CRYPTO = 1 << 10,
};

/* MLX5_UMR_IOCTL_CONFIGURE flags (crypto mkeys only, always). */
enum mlx5_umr_ioc_crypto_conf_flags {
	/* apply the configure's @crypto (mlx5dv_wr_set_mkey_crypto()) */
	MLX5_UMR_IOC_CRYPTO_SET = 1 << 10,
};

/* DEK key sizes (enum mlx5dv_crypto_key_size). */
enum mlx5_umr_ioc_crypto_key_size {
	MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128 = 0,	/* key1 | key2: 32 bytes */
	MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256 = 1,	/* key1 | key2: 64 bytes */
};

/* enum mlx5dv_crypto_standard */
enum mlx5_umr_ioc_crypto_standard {
	MLX5_UMR_IOC_CRYPTO_STANDARD_AES_XTS = 0,
};

/* enum mlx5dv_signature_crypto_order */
enum mlx5_umr_ioc_sig_crypto_order {
	MLX5_UMR_IOC_SIG_AFTER_CRYPTO_ON_TX = 0,
	MLX5_UMR_IOC_SIG_BEFORE_CRYPTO_ON_TX = 1,
};

/* struct mlx5_umr_ioc_crypto flags */
enum mlx5_umr_ioc_crypto_flags {
	/*
	 * Memory holds plaintext, the wire ciphertext (data is encrypted when
	 * it leaves memory through the mkey, decrypted when it arrives).
	 * Clear: memory holds ciphertext, the wire plaintext.
	 */
	MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX = 1 << 0,
};

/* struct mlx5_umr_ioc_dek_create flags */
enum mlx5_umr_ioc_dek_flags {
	/* the DEK has a keytag that every crypto configure must name */
	MLX5_UMR_IOC_DEK_KEYTAG = 1 << 0,
};

/**
 * struct mlx5_umr_ioc_crypto - crypto attributes of a configure (struct
 *	mlx5dv_crypto_attr)
 * @standard: enum mlx5_umr_ioc_crypto_standard
 * @flags: MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX
 * @sig_order: enum mlx5_umr_ioc_sig_crypto_order; matters only when the
 *	mkey also has a signature
 * @data_unit_size: enum mlx5_umr_ioc_sig_block_size (the values of enum
 *	mlx5dv_block_size): the tweak grows by one per data unit
 * @initial_tweak: the tweak of the data unit at the mkey's address 0, as
 *	the HCA reads it (IEEE 1619: a little-endian 128-bit number, usually
 *	the first block's LBA)
 * @dek: handle of a DEK of this file
 * @__reserved: must be 0
 * @keytag: the DEK's keytag when it has one; else must be 0
 */
struct mlx5_umr_ioc_crypto {
	__u32 standard;
	__u32 flags;
	__u32 sig_order;
	__u32 data_unit_size;
	__u8 initial_tweak[16];
	__u32 dek;
	__u32 __reserved;
	__u8 keytag[8];
};

/**
 * struct mlx5_umr_ioc_dek_create - MLX5_UMR_IOCTL_DEK_CREATE: an AES-XTS data
 *	encryption key (mlx5dv_dek_create(), plaintext import)
 * @size: sizeof(struct mlx5_umr_ioc_dek_create)
 * @flags: MLX5_UMR_IOC_DEK_KEYTAG
 * @key_size: enum mlx5_umr_ioc_crypto_key_size
 * @key_len: bytes at @key: 32 (128-bit keys) or 64 (256-bit keys)
 * @key: user pointer to key1 | key2 (IEEE 1619: key1 encrypts the data,
 *	key2 the tweak), any alignment
 * @keytag: with MLX5_UMR_IOC_DEK_KEYTAG; else must be 0
 * @out_handle: handle of the new DEK
 * @__reserved: must be 0
 *
 * The key is copied into kernel memory only for the firmware command and
 * wiped right after it, whatever the outcome; the caller should wipe its
 * own copy. The DEK is in the file's PD (MLX5_UMR_IOCTL_SET_PD's, if any):
 * only the file's crypto mkeys can use it.
 */
struct mlx5_umr_ioc_dek_create {
	__u32 size;
	__u32 flags;
	__u32 key_size;
	__u32 key_len;
	__aligned_u64 key;
	__u8 keytag[8];
	__u32 out_handle;
	__u32 __reserved;
};

#define MLX5_UMR_IOCTL_DEK_CREATE _IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_DEK_CREATE)

/**
 * struct mlx5_umr_ioc_configure - MLX5_UMR_IOCTL_CONFIGURE: give an indirect
 *	mkey access rights and a layout (mlx5dv_wr_mkey_configure() with
 *	mlx5dv_wr_set_mkey_access_flags() and one layout setter)
 * @size: sizeof(struct mlx5_umr_ioc_configure)
 * @handle: an indirect mkey of this file
 * @flags: MLX5_UMR_IOC_NEW_KEY; on a signature mkey also
 *	MLX5_UMR_IOC_SIG_SET or MLX5_UMR_IOC_SIG_RESET; on a crypto mkey
 *	MLX5_UMR_IOC_CRYPTO_SET, always
 * @access: MLX5_UMR_IOC_ACCESS_*
 * @layout: enum mlx5_umr_ioc_layout
 * @num_entries: entries at @entries, not 0
 * @repeat_count: cycles of an interleaved layout, not 0; 0 for a list
 * @__reserved: must be 0
 * @entries: user pointer to the entry array, 8-byte aligned
 * @out_length: bytes the mkey now covers; its addresses are zero based
 * @out_key: the mkey's key now (a new one with MLX5_UMR_IOC_NEW_KEY)
 * @__reserved2: must be 0
 * @sig: with MLX5_UMR_IOC_SIG_SET in @flags, the block signature; else
 *	all zero (the second version of the structure; the first ended at
 *	@__reserved2)
 * @crypto: with MLX5_UMR_IOC_CRYPTO_SET in @flags, the crypto attributes;
 *	else all zero (the third version; the second ended at @sig)
 *
 * The mkey's address space is the concatenation of the entries (list) or of
 * @repeat_count cycles over the entries (interleaved). A signature is set
 * together with the layout, in one chain of work requests: the UMR
 * carrying the BSF, then one SET_PSV per domain with a signature.
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
	struct mlx5_umr_ioc_sig_block sig;
	struct mlx5_umr_ioc_crypto crypto;
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

/**
 * struct mlx5_umr_ioc_set_pd - MLX5_UMR_IOCTL_SET_PD: the file's objects in
 *	the caller's own verbs PD
 * @size: sizeof(struct mlx5_umr_ioc_set_pd); at least
 *	MLX5_UMR_IOC_SET_PD_SIZE_VERBS with MLX5_UMR_IOC_SET_PD_VERBS
 * @flags: MLX5_UMR_IOC_SET_PD_VERBS, or 0 for the unverified number form
 * @pdn: without MLX5_UMR_IOC_SET_PD_VERBS: the HCA's number of the PD
 *	(struct mlx5dv_pd.pdn); 0 with it (the kernel learns the number)
 * @__reserved: 0
 * @cmd_fd: with MLX5_UMR_IOC_SET_PD_VERBS: the caller's verbs command file
 *	(struct ibv_context.cmd_fd) that owns the PD
 * @pd_handle: the PD's handle in that file (struct ibv_pd.handle)
 * @pd_id: the PD's resource-tracking id, the "pdn" that "rdma res show pd"
 *	prints (RDMA_NLDEV_ATTR_RES_PDN), which is not the HCA's number
 * @__reserved2: 0
 *
 * Every registration and indirect mkey the file creates afterwards is in
 * the PD instead of the file's own PD, so that the caller's ibv_qp of
 * that PD can use their lkeys and rkeys. Only before the file's first
 * object is created (EBUSY after; a call that failed created none); the
 * file's own PD, if it has one, is freed, the caller's PD is never freed
 * by the file. A signature mkey is created in it only with
 * MLX5_UMR_IOC_SET_PD_VERBS (ALLOC_MKEY: EOPNOTSUPP in a bare number, which
 * may be a kernel ULP's PD), and only with a translation table that fits
 * inline in a work request (ENOSPC for a larger max_entries): the service
 * keeps no key that reaches all of memory in a PD where the user's QPs
 * are. Its SIG_ERR CQEs reach the caller's CQ, where libmlx5 does not
 * know the mkey: read them from the CQ's buffer before ibv_poll_cq() does
 * and hand them to MLX5_UMR_IOCTL_SIG_REPORT (Documentation/uapi.rst).
 *
 * With MLX5_UMR_IOC_SET_PD_VERBS the PD is proven to be the caller's: it
 * must be a PD of @cmd_fd, under handle @pd_handle, and of this device.
 * The file then holds the PD (its owner's ibv_dealloc_pd() fails with
 * EBUSY, as with a live MR in it) and a reference to @cmd_fd's file until
 * the file is closed or the HCA is removed. Refused: @cmd_fd not open
 * (EBADF), not a verbs command file (EINVAL), of another device (EXDEV);
 * @pd_id not a PD of this device (ENOENT); a kernel PD, or a PD of another
 * file or handle, or one whose HCA number is a PD the service owns
 * (EACCES); a PD being destroyed (EBUSY); a device whose backend cannot
 * verify a PD (EOPNOTSUPP: a fake HCA without a verbs device).
 *
 * The bare number form (flags 0) proves nothing: a user could put keys in
 * another user's or a kernel ULP's PD. It is refused (EPERM) unless the
 * administrator enabled it (module parameter unverified_set_pd of
 * mlx5_umr, off by default; Documentation/uapi.rst, "Keys in the caller's
 * PD"). Refused also: @pdn 0 or over 24 bits (EINVAL), a PD the service
 * owns (EACCES), a PD the HCA does not have (ENOENT).
 */
struct mlx5_umr_ioc_set_pd {
	__u32 size;
	__u32 flags;
	__u32 pdn;
	__u32 __reserved;
	__s32 cmd_fd;
	__u32 pd_handle;
	__u32 pd_id;
	__u32 __reserved2;
};

/* MLX5_UMR_IOCTL_SET_PD flags */
enum mlx5_umr_ioc_set_pd_flags {
	/* the PD is the caller's verbs PD, to be verified */
	MLX5_UMR_IOC_SET_PD_VERBS = 1 << 0,
};

/* The size that carries cmd_fd, pd_handle and pd_id. */
#define MLX5_UMR_IOC_SET_PD_SIZE_VERBS	32

#define MLX5_UMR_IOCTL_SET_PD	_IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_SET_PD)

/* What a check found (enum mlx5dv_mkey_err_type). */
enum mlx5_umr_ioc_sig_err_type {
	MLX5_UMR_IOC_SIG_ERR_NONE = 0,
	MLX5_UMR_IOC_SIG_ERR_GUARD = 1,		/* T10-DIF guard or CRC */
	MLX5_UMR_IOC_SIG_ERR_REFTAG = 2,
	MLX5_UMR_IOC_SIG_ERR_APPTAG = 3,
};

/**
 * struct mlx5_umr_ioc_sig_check - MLX5_UMR_IOCTL_SIG_CHECK: read and clear
 *	the signature status of an mkey (mlx5dv_mkey_check())
 * @size: sizeof(struct mlx5_umr_ioc_sig_check)
 * @handle: a signature mkey of this file
 * @flags: must be 0
 * @out_err_type: enum mlx5_umr_ioc_sig_err_type: the first error reported
 *	since the last check
 * @out_expected: the value the HCA computed from the data (guard) or
 *	was configured with (tags), as ConnectX reports it (guard: 16 bits
 *	for T10-DIF, 32 for CRC32/CRC32C, 64 for CRC64_XP10; a CRC is its
 *	PI bytes read big endian)
 * @out_actual: the value the block's protection field holds, same width
 * @out_offset: err_offset of the SIG_ERR CQE: where in the transfer the
 *	failing block is
 * @out_key: the key the error was reported for
 * @out_errors: errors reported since the last check (the first is kept)
 *
 * After an error the HCA holds the mkey's PSVs in error state; the check
 * re-arms them (SET_PSV work requests) before it returns, so the next
 * transfer is checked again. A signature mkey that is a crypto mkey too
 * is not re-armed by the check (the re-arm is a configure, which would
 * need the crypto attributes the kernel does not keep): its next
 * CONFIGURE with MLX5_UMR_IOC_SIG_SET re-arms it; one that keeps the
 * signature does not (rdma-core re-arms at any configure after an
 * error). An error
 * is reported by the SIG_ERR CQE of the QP that accessed the mkey: its
 * consumer hands it in with MLX5_UMR_IOCTL_SIG_REPORT.
 */
struct mlx5_umr_ioc_sig_check {
	__u32 size;
	__u32 handle;
	__u32 flags;
	__u32 out_err_type;
	__aligned_u64 out_expected;
	__aligned_u64 out_actual;
	__aligned_u64 out_offset;
	__u32 out_key;
	__u32 out_errors;
};

#define MLX5_UMR_IOCTL_SIG_CHECK _IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_SIG_CHECK)

/**
 * struct mlx5_umr_ioc_sig_report - MLX5_UMR_IOCTL_SIG_REPORT: hand in the
 *	SIG_ERR CQE a QP got for an access through a signature mkey
 * @size: sizeof(struct mlx5_umr_ioc_sig_report)
 * @flags: must be 0
 * @cqe: the 64 bytes of the CQE as the CQ holds them (struct
 *	mlx5_sig_err_cqe of <linux/mlx5/device.h>: big endian, opcode
 *	MLX5_CQE_SIG_ERR in the upper nibble of the last byte)
 * @out_handle: the handle of the mkey the CQE names
 * @__reserved: must be 0
 *
 * The CQE's mkey must be a signature mkey of this file, under its current
 * key. The error is kept for MLX5_UMR_IOCTL_SIG_CHECK.
 */
struct mlx5_umr_ioc_sig_report {
	__u32 size;
	__u32 flags;
	__u8 cqe[64];
	__u32 out_handle;
	__u32 __reserved;
};

#define MLX5_UMR_IOCTL_SIG_REPORT _IO(MLX5_UMR_IOC_TYPE, MLX5_UMR_CMD_SIG_REPORT)

#endif /* _UAPI_LINUX_MLX5_UMR_H */
