/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * libmlx5umr: userspace access to the mlx5-umr character device.
 *
 * The API follows rdma-core: memory is registered like ibv_reg_mr(), an
 * indirect mkey is created like mlx5dv_create_mkey() and configured with an
 * array of struct ibv_sge (mlx5dv_wr_set_mkey_layout_list()) or of struct
 * mlx5dv_mr_interleaved (mlx5dv_wr_set_mkey_layout_interleaved()). When the
 * rdma-core headers are available those very types are used; otherwise
 * this header declares layout-identical ones under the same names.
 * Define MLX5UMR_NO_RDMA_CORE to never include rdma-core headers.
 * Signature mkeys take rdma-core's struct mlx5dv_sig_block_attr and report
 * with struct mlx5dv_mkey_err (mlx5dv_wr_set_mkey_sig_block(3),
 * mlx5dv_mkey_check(3)).
 * Crypto mkeys take rdma-core's crypto enums (mlx5dv_wr_set_mkey_crypto(3),
 * mlx5dv_dek_create(3)) in the library's own attribute structures, whose
 * DEK is a struct mlx5umr_dek.
 *
 * Errors: functions returning a pointer return NULL and set errno;
 * functions returning int return 0 or a positive errno value (and set
 * errno), as rdma-core does. The errno values are those listed in
 * <linux/mlx5_umr.h>.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef MLX5UMR_H
#define MLX5UMR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if !defined(MLX5UMR_NO_RDMA_CORE) && defined(__has_include)
#if __has_include("infiniband/mlx5dv.h")
#define MLX5UMR_HAVE_RDMA_CORE 1
#endif
#endif

#ifdef MLX5UMR_HAVE_RDMA_CORE
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>
#else
struct ibv_sge {
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

struct mlx5dv_mr_interleaved {
	uint64_t addr;
	uint32_t bytes_count;
	uint32_t bytes_skip;
	uint32_t lkey;
};

enum ibv_access_flags {
	IBV_ACCESS_LOCAL_WRITE = 1,
	IBV_ACCESS_REMOTE_WRITE = 1 << 1,
	IBV_ACCESS_REMOTE_READ = 1 << 2,
	IBV_ACCESS_REMOTE_ATOMIC = 1 << 3,
};

/* Block signature: rdma-core's mlx5dv.h types, values and layouts. */
enum mlx5dv_sig_type {
	MLX5DV_SIG_TYPE_T10DIF,
	MLX5DV_SIG_TYPE_CRC,
};

enum mlx5dv_sig_t10dif_bg_type {
	MLX5DV_SIG_T10DIF_CRC,
	MLX5DV_SIG_T10DIF_CSUM,
};

enum mlx5dv_sig_crc_type {
	MLX5DV_SIG_CRC_TYPE_CRC32,
	MLX5DV_SIG_CRC_TYPE_CRC32C,
	MLX5DV_SIG_CRC_TYPE_CRC64_XP10,
};

enum mlx5dv_block_size {
	MLX5DV_BLOCK_SIZE_512,
	MLX5DV_BLOCK_SIZE_520,
	MLX5DV_BLOCK_SIZE_4048,
	MLX5DV_BLOCK_SIZE_4096,
	MLX5DV_BLOCK_SIZE_4160,
};

enum mlx5dv_sig_t10dif_flags {
	MLX5DV_SIG_T10DIF_FLAG_REF_REMAP = 1 << 0,
	MLX5DV_SIG_T10DIF_FLAG_APP_ESCAPE = 1 << 1,
	MLX5DV_SIG_T10DIF_FLAG_APP_REF_ESCAPE = 1 << 2,
};

struct mlx5dv_sig_t10dif {
	enum mlx5dv_sig_t10dif_bg_type bg_type;
	uint16_t bg;
	uint16_t app_tag;
	uint32_t ref_tag;
	uint16_t flags;
};

struct mlx5dv_sig_crc {
	enum mlx5dv_sig_crc_type type;
	uint64_t seed;
};

struct mlx5dv_sig_block_domain {
	enum mlx5dv_sig_type sig_type;
	union {
		const struct mlx5dv_sig_t10dif *dif;
		const struct mlx5dv_sig_crc *crc;
	} sig;
	enum mlx5dv_block_size block_size;
	uint64_t comp_mask;
};

enum mlx5dv_sig_mask {
	MLX5DV_SIG_MASK_T10DIF_GUARD = 0xc0,
	MLX5DV_SIG_MASK_T10DIF_APPTAG = 0x30,
	MLX5DV_SIG_MASK_T10DIF_REFTAG = 0x0f,
	MLX5DV_SIG_MASK_CRC32 = 0xf0,
	MLX5DV_SIG_MASK_CRC32C = MLX5DV_SIG_MASK_CRC32,
	MLX5DV_SIG_MASK_CRC64_XP10 = 0xff,
};

enum mlx5dv_sig_block_attr_flags {
	MLX5DV_SIG_BLOCK_ATTR_FLAG_COPY_MASK = 1 << 0,
};

struct mlx5dv_sig_block_attr {
	const struct mlx5dv_sig_block_domain *mem;
	const struct mlx5dv_sig_block_domain *wire;
	uint32_t flags;
	uint8_t check_mask;
	uint8_t copy_mask;
	uint64_t comp_mask;
};

enum mlx5dv_mkey_err_type {
	MLX5DV_MKEY_NO_ERR,
	MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD,
	MLX5DV_MKEY_SIG_BLOCK_BAD_REFTAG,
	MLX5DV_MKEY_SIG_BLOCK_BAD_APPTAG,
};

struct mlx5dv_sig_err {
	uint64_t actual_value;
	uint64_t expected_value;
	uint64_t offset;
};

struct mlx5dv_mkey_err {
	enum mlx5dv_mkey_err_type err_type;
	union {
		struct mlx5dv_sig_err sig;
	} err;
};

/* Crypto: rdma-core's mlx5dv.h enums and values. */
enum mlx5dv_crypto_standard {
	MLX5DV_CRYPTO_STANDARD_AES_XTS,
};

enum mlx5dv_signature_crypto_order {
	MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
	MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX,
};

enum mlx5dv_crypto_key_size {
	MLX5DV_CRYPTO_KEY_SIZE_128,
	MLX5DV_CRYPTO_KEY_SIZE_256,
};
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of mlx5umr_create_mkey(). */
enum {
	MLX5UMR_MKEY_REMOTE_INVALIDATE = 1 << 0,
	/* MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE: a signature mkey */
	MLX5UMR_MKEY_SIGNATURE = 1 << 1,
	/* MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO: a crypto mkey */
	MLX5UMR_MKEY_CRYPTO = 1 << 2,
};

/*
 * Flags of a configure and of the _ex invalidate calls: install a fresh,
 * random key byte; mkey->lkey and mkey->rkey then hold the new key and the
 * old one is refused (ib_update_fast_reg_key() per registration, as
 * NVMe-oF).
 */
enum {
	MLX5UMR_NEW_KEY = 1 << 0,
	/* MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR: drop the signature */
	MLX5UMR_RESET_SIG = 1 << 1,
};

struct mlx5umr_context {
	int fd;
	char name[32];
};

/* Like struct ibv_mr. */
struct mlx5umr_mr {
	struct mlx5umr_context *context;
	void *addr;
	size_t length;
	uint32_t handle;
	uint32_t lkey;
	uint32_t rkey;
};

/* Like struct mlx5dv_mkey. */
struct mlx5umr_mkey {
	struct mlx5umr_context *context;
	uint32_t handle;
	uint32_t lkey;
	uint32_t rkey;
	uint32_t max_entries;
	uint64_t length;	/* bytes covered by the current layout */
};

struct mlx5umr_device_attr {
	char name[32];
	int fake;			/* mlx5umr_xfer() works (test build) */
	uint32_t max_entries;		/* of mlx5umr_create_mkey() */
	uint32_t max_inline_entries;
	uint32_t access;		/* IBV_ACCESS_* granted */
	uint64_t max_xfer;		/* of mlx5umr_xfer(), 0 if it fails */
	/* Counters, for leak checks. */
	uint32_t fd_objects;
	uint32_t dev_objects;
	uint64_t fd_pinned_pages;
	uint64_t dev_pinned_pages;
	int sig;			/* MLX5UMR_MKEY_SIGNATURE available */
	/* Crypto: MLX5UMR_MKEY_CRYPTO and DEKs available (plaintext keys). */
	int crypto;
	uint32_t crypto_key_sizes;	/* 1 << MLX5DV_CRYPTO_KEY_SIZE_* */
	uint32_t crypto_data_unit_sizes; /* 1 << MLX5DV_BLOCK_SIZE_* */
	uint32_t max_fd_deks;		/* DEKs a context may hold */
	uint32_t fd_deks;		/* DEKs this context holds */
};

/* @name: "fake0", "mlx5_0", a path, or NULL for the first device. */
struct mlx5umr_context *mlx5umr_open(const char *name);
int mlx5umr_close(struct mlx5umr_context *ctx);
int mlx5umr_query_device(struct mlx5umr_context *ctx,
			 struct mlx5umr_device_attr *attr);

struct mlx5umr_mr *mlx5umr_reg_mr(struct mlx5umr_context *ctx, void *addr,
				  size_t length, unsigned int access);
int mlx5umr_dereg_mr(struct mlx5umr_mr *mr);

struct mlx5umr_mkey *mlx5umr_create_mkey(struct mlx5umr_context *ctx,
					 uint32_t max_entries, uint32_t flags);
int mlx5umr_destroy_mkey(struct mlx5umr_mkey *mkey);

/* The layouts of struct mlx5umr_configure_attr. */
enum mlx5umr_layout {
	MLX5UMR_LAYOUT_LIST,		/* mlx5dv_wr_mr_list() */
	MLX5UMR_LAYOUT_INTERLEAVED,	/* mlx5dv_wr_mr_interleaved() */
};

struct mlx5dv_sig_block_attr;
struct mlx5umr_crypto_attr;

/*
 * One configure of an indirect mkey: its access rights and layout, as
 * mlx5dv_wr_mr_list() or mlx5dv_wr_mr_interleaved() take them, with
 * MLX5UMR_NEW_KEY and MLX5UMR_RESET_SIG in @flags; @sig and @crypto as
 * below (NULL: none). comp_mask must be 0 (EINVAL); unknown @flags are
 * refused (EOPNOTSUPP).
 */
struct mlx5umr_configure_attr {
	uint32_t access;		/* IBV_ACCESS_* */
	uint32_t flags;			/* MLX5UMR_NEW_KEY, MLX5UMR_RESET_SIG */
	enum mlx5umr_layout layout;
	uint32_t num_entries;		/* of @sge or @interleaved */
	const struct ibv_sge *sge;	/* MLX5UMR_LAYOUT_LIST */
	const struct mlx5dv_mr_interleaved *interleaved;
	uint32_t repeat_count;		/* MLX5UMR_LAYOUT_INTERLEAVED */
	const struct mlx5dv_sig_block_attr *sig;
	const struct mlx5umr_crypto_attr *crypto;
	uint64_t comp_mask;
};

int mlx5umr_mkey_configure(struct mlx5umr_mkey *mkey,
			   const struct mlx5umr_configure_attr *attr);
/* mlx5umr_mkey_configure() with rdma-core's arguments, and no flags. */
int mlx5umr_mkey_configure_list(struct mlx5umr_mkey *mkey, uint32_t access,
				uint32_t num_sges, const struct ibv_sge *sge);
int mlx5umr_mkey_configure_interleaved(struct mlx5umr_mkey *mkey,
				       uint32_t access, uint32_t repeat_count,
				       uint32_t num_interleaved,
				       const struct mlx5dv_mr_interleaved *data);
int mlx5umr_mkey_invalidate(struct mlx5umr_mkey *mkey);
/* As above, with MLX5UMR_NEW_KEY in @flags. */
int mlx5umr_mkey_invalidate_ex(struct mlx5umr_mkey *mkey, uint32_t flags);

/*
 * Block signature (mkeys created with MLX5UMR_MKEY_SIGNATURE): a configure
 * with @sig sets the signature as mlx5dv_wr_set_mkey_sig_block(3) does, in
 * the same request; with MLX5UMR_RESET_SIG in @flags (and @sig NULL) it
 * drops it; otherwise the mkey keeps the signature it has.
 * mlx5umr_mkey_check() is
 * mlx5dv_mkey_check(3): the first error since the last check, which it
 * clears (and the HCA's check is re-armed). An error is reported by the
 * SIG_ERR CQE of the QP that accessed the mkey: mlx5umr_sig_report() hands
 * those 64 bytes in, and gives the mkey's handle.
 */
int mlx5umr_mkey_check(struct mlx5umr_mkey *mkey,
		       struct mlx5dv_mkey_err *err_info);
int mlx5umr_sig_report(struct mlx5umr_context *ctx, const void *cqe,
		       uint32_t *handle);

/*
 * Crypto (AES-XTS; mkeys created with MLX5UMR_MKEY_CRYPTO, INFO's crypto
 * caps in struct mlx5umr_device_attr).
 *
 * mlx5umr_dek_create() is mlx5dv_dek_create(3) with a plaintext key: the
 * key is read from the caller's buffer @key (key1 | key2: 32 bytes for
 * MLX5DV_CRYPTO_KEY_SIZE_128, 64 for _256; IEEE 1619: key1 encrypts the
 * data, key2 the tweak) by the kernel, once, and wiped there after the
 * HCA took it. The library passes the pointer and keeps no copy; the
 * caller wipes its buffer when it no longer needs it (explicit_bzero(3)).
 * Nothing returns the key. A DEK belongs to its context and is destroyed
 * with it. comp_mask must be 0 (EINVAL). Errors: EINVAL (a key_len that
 * is not the key size's, an unknown key size, a keytag without
 * has_keytag), EOPNOTSUPP (no crypto, or a key size the device does not
 * offer), ENOSPC (the context holds max_fd_deks DEKs), EIO (the HCA
 * refused the key). mlx5umr_dek_destroy() fails with EBUSY while a
 * configured crypto mkey names the DEK.
 */
struct mlx5umr_dek_init_attr {
	enum mlx5dv_crypto_key_size key_size;
	bool has_keytag;
	char keytag[8];		/* with has_keytag, else all zero */
	const void *key;	/* key1 | key2, any alignment */
	size_t key_len;
	uint64_t comp_mask;
};

struct mlx5umr_dek {
	struct mlx5umr_context *context;
	uint32_t handle;
	enum mlx5dv_crypto_key_size key_size;
	bool has_keytag;
};

struct mlx5umr_dek *mlx5umr_dek_create(struct mlx5umr_context *ctx,
				       const struct mlx5umr_dek_init_attr *attr);
int mlx5umr_dek_destroy(struct mlx5umr_dek *dek);

/*
 * struct mlx5dv_crypto_attr, field for field, with the library's DEK:
 * encrypt_on_tx set, memory holds plaintext and the wire ciphertext
 * (data is encrypted as it leaves memory through the mkey, decrypted as it
 * arrives); clear, memory holds ciphertext. data_unit_size is an
 * enum mlx5dv_block_size; the tweak grows by one per data unit from
 * initial_tweak (bytes as the HCA reads them: IEEE 1619's little-endian
 * data unit number). signature_crypto_order matters only with a
 * signature; keytag must be the DEK's when it has one, else zero.
 */
struct mlx5umr_crypto_attr {
	enum mlx5dv_crypto_standard crypto_standard;
	bool encrypt_on_tx;
	enum mlx5dv_signature_crypto_order signature_crypto_order;
	enum mlx5dv_block_size data_unit_size;
	char initial_tweak[16];
	struct mlx5umr_dek *dek;
	char keytag[8];
	uint64_t comp_mask;
};

/*
 * Configure a crypto mkey: with @crypto in struct mlx5umr_configure_attr
 * (mlx5dv_wr_set_mkey_crypto(3)), which every configure of a crypto mkey
 * carries (EINVAL without it, or with it on another mkey). @sig, for an
 * mkey created with both MLX5UMR_MKEY_SIGNATURE and MLX5UMR_MKEY_CRYPTO,
 * sets the signature in the same request, in the order @crypto gives.
 * EINVAL: comp_mask not 0, no DEK, an unknown standard, order or data
 * unit size; ENOENT: a DEK of another context; ENOMEM: a layout that does
 * not fit one work request with the BSFs. Crypto is not set in a batch.
 */

/*
 * A batch: consecutive configure and invalidate requests on distinct mkeys
 * of one context, checked together and posted with one system call
 * (MLX5_UMR_IOCTL_BATCH). The entry arrays are copied when a request is
 * added. Adding returns EEXIST when the mkey already has a request in the
 * batch and ENOSPC when the batch is full (requests or entry bytes, as
 * the device reports them): submit, then add again.
 *
 * mlx5umr_batch_submit() empties the batch. It returns 0 when the requests
 * were posted; mlx5umr_batch_status(i) then gives request i's outcome (0
 * or a positive errno) until the next submit, and the mkeys' lengths are
 * updated. Otherwise it returns the errno of the refusal, *@index says
 * which request was refused (the count when the batch as a whole was) and
 * nothing was applied. mlx5umr_batch_create() fails with EOPNOTSUPP on a
 * kernel without the batch ioctl.
 */
struct mlx5umr_batch;

struct mlx5umr_batch *mlx5umr_batch_create(struct mlx5umr_context *ctx);
void mlx5umr_batch_destroy(struct mlx5umr_batch *batch);
/*
 * A configure as mlx5umr_mkey_configure()'s, with MLX5UMR_NEW_KEY only
 * (the mkey's keys after submit) and no signature or crypto (EOPNOTSUPP).
 */
int mlx5umr_batch_configure(struct mlx5umr_batch *batch,
			    struct mlx5umr_mkey *mkey,
			    const struct mlx5umr_configure_attr *attr);
int mlx5umr_batch_invalidate(struct mlx5umr_batch *batch,
			     struct mlx5umr_mkey *mkey);
/* As above, with MLX5UMR_NEW_KEY in @flags: the mkey's keys after submit. */
int mlx5umr_batch_invalidate_ex(struct mlx5umr_batch *batch,
				struct mlx5umr_mkey *mkey, uint32_t flags);
uint32_t mlx5umr_batch_count(const struct mlx5umr_batch *batch);
int mlx5umr_batch_submit(struct mlx5umr_batch *batch, uint32_t *index);
int mlx5umr_batch_status(const struct mlx5umr_batch *batch, uint32_t i);

/*
 * Put the context's registrations and mkeys in the caller's own verbs PD,
 * so that its ibv_qp can use their keys; before the first mlx5umr_reg_mr()
 * or mlx5umr_create_mkey() of @ctx (EBUSY after). The PD is proven to be
 * the caller's: @cmd_fd is its verbs command file (struct
 * ibv_context.cmd_fd), @pd_handle the PD's struct ibv_pd.handle, @pd_id
 * its resource-tracking id ("rdma res show pd" prints it as pdn). The
 * context then holds the PD (its ibv_dealloc_pd() fails with EBUSY) and
 * the command file until mlx5umr_close(). EBADF: @cmd_fd not open;
 * EINVAL: not a verbs command file; EXDEV: of another device; ENOENT: no
 * PD @pd_id on the device; EACCES: not @cmd_fd's PD @pd_handle.
 */
int mlx5umr_set_pd_verbs(struct mlx5umr_context *ctx, int cmd_fd,
			 uint32_t pd_handle, uint32_t pd_id);

#ifdef MLX5UMR_HAVE_RDMA_CORE
/* mlx5umr_set_pd_verbs() of @pd, whose resource-tracking id is @pd_id. */
static inline int mlx5umr_set_pd_ibv(struct mlx5umr_context *ctx,
				     struct ibv_pd *pd, uint32_t pd_id)
{
	return mlx5umr_set_pd_verbs(ctx, pd->context->cmd_fd, pd->handle,
				    pd_id);
}
#endif

/*
 * The unverified form: @pdn is struct mlx5dv_pd.pdn
 * (mlx5dv_init_obj(MLX5DV_OBJ_PD)), proven by nothing, so refused (EPERM)
 * unless the administrator allowed it (mlx5_umr's module parameter
 * unverified_set_pd). EINVAL: 0 or over 24 bits; EACCES: a PD of the
 * service; ENOENT: no such PD on the HCA.
 */
int mlx5umr_set_pd(struct mlx5umr_context *ctx, uint32_t pdn);

/* "ERANGE" for ERANGE; NULL when unknown. */
const char *mlx5umr_errno_name(int err);

#ifdef __cplusplus
}
#endif

#endif /* MLX5UMR_H */
