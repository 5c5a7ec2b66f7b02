// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libmlx5umr: thin wrappers around the mlx5-umr ioctls.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/mlx5_umr.h>
/* The test ioctls: answered by a test build of mlx5_umr.ko only. */
#include "../../drivers/umr/uapi/uapi_testing.h"

#include "mlx5umr.h"

#define MLX5UMR_DEV_DIR "/dev/mlx5_umr"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The library hands these arrays to the kernel field by field. */
static_assert(sizeof(struct ibv_sge) == sizeof(struct mlx5_umr_ioc_sge),
	      "ibv_sge layout");
static_assert(sizeof(struct mlx5dv_mr_interleaved) ==
	      sizeof(struct mlx5_umr_ioc_interleaved),
	      "mlx5dv_mr_interleaved layout");
static_assert((int)IBV_ACCESS_REMOTE_ATOMIC ==
	      (int)MLX5_UMR_IOC_ACCESS_REMOTE_ATOMIC,
	      "access flag values");
/* The crypto enums go to the kernel as they are. */
static_assert((int)MLX5DV_CRYPTO_KEY_SIZE_256 ==
	      (int)MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256, "key size values");
static_assert((int)MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX ==
	      (int)MLX5_UMR_IOC_SIG_BEFORE_CRYPTO_ON_TX, "order values");
static_assert(sizeof(((struct mlx5umr_crypto_attr *)0)->initial_tweak) ==
	      sizeof(((struct mlx5_umr_ioc_crypto *)0)->initial_tweak),
	      "tweak size");
static_assert(sizeof(((struct mlx5umr_crypto_attr *)0)->keytag) ==
	      sizeof(((struct mlx5_umr_ioc_crypto *)0)->keytag), "keytag size");

static int fail(int err)
{
	errno = err;
	return err;
}

static int do_ioctl(struct mlx5umr_context *ctx, unsigned long req, void *arg)
{
	if (ioctl(ctx->fd, req, arg))
		return errno ? errno : EIO;
	return 0;
}

static int open_first(char *name, size_t len)
{
	struct dirent *de;
	int fd = -1;
	DIR *dir;

	dir = opendir(MLX5UMR_DEV_DIR);
	if (!dir)
		return -1;
	while ((de = readdir(dir))) {
		char path[300];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), MLX5UMR_DEV_DIR "/%s", de->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			snprintf(name, len, "%.31s", de->d_name);
			break;
		}
	}
	closedir(dir);
	if (fd < 0 && !errno)
		errno = ENODEV;
	return fd;
}

struct mlx5umr_context *mlx5umr_open(const char *name)
{
	struct mlx5umr_context *ctx;
	char path[300];
	const char *base;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	if (!name || !*name) {
		errno = 0;
		ctx->fd = open_first(ctx->name, sizeof(ctx->name));
	} else {
		if (strchr(name, '/'))
			snprintf(path, sizeof(path), "%s", name);
		else
			snprintf(path, sizeof(path), MLX5UMR_DEV_DIR "/%s", name);
		base = strrchr(path, '/') + 1;
		snprintf(ctx->name, sizeof(ctx->name), "%.31s", base);
		ctx->fd = open(path, O_RDWR | O_CLOEXEC);
	}
	if (ctx->fd < 0) {
		int err = errno;

		free(ctx);
		errno = err;
		return NULL;
	}
	return ctx;
}

int mlx5umr_close(struct mlx5umr_context *ctx)
{
	int ret = close(ctx->fd) ? errno : 0;

	free(ctx);
	return ret ? fail(ret) : 0;
}

int mlx5umr_query_device(struct mlx5umr_context *ctx,
			 struct mlx5umr_device_attr *attr)
{
	struct mlx5_umr_ioc_info cmd = { .size = sizeof(cmd) };
	struct mlx5_umr_test_info test = { .size = sizeof(test) };
	int ret;

	ret = do_ioctl(ctx, MLX5_UMR_IOCTL_INFO, &cmd);
	if (ret)
		return fail(ret);
	/* A production build has no test interface: no fake, no transfers. */
	ret = do_ioctl(ctx, MLX5_UMR_TEST_IOCTL_INFO, &test);
	if (ret && ret != ENOTTY)
		return fail(ret);
	memset(attr, 0, sizeof(*attr));
	memcpy(attr->name, cmd.out_name, sizeof(attr->name));
	attr->name[sizeof(attr->name) - 1] = 0;
	attr->fake = !ret && (test.out_flags & MLX5_UMR_TEST_INFO_FAKE);
	attr->max_entries = cmd.out_max_entries;
	attr->max_inline_entries = cmd.out_max_inline_entries;
	attr->access = cmd.out_access;
	attr->max_xfer = ret ? 0 : test.out_max_xfer;
	attr->fd_objects = cmd.out_fd_objects;
	attr->dev_objects = cmd.out_dev_objects;
	attr->fd_pinned_pages = cmd.out_fd_pinned_pages;
	attr->dev_pinned_pages = cmd.out_dev_pinned_pages;
	attr->sig = !!(cmd.out_flags & MLX5_UMR_IOC_INFO_SIG);
	attr->crypto = !!(cmd.out_flags & MLX5_UMR_IOC_INFO_CRYPTO);
	attr->crypto_key_sizes = cmd.out_crypto_key_sizes;
	attr->crypto_data_unit_sizes = cmd.out_crypto_data_unit_sizes;
	attr->max_fd_deks = cmd.out_max_fd_deks;
	attr->fd_deks = cmd.out_fd_deks;
	return 0;
}

static int destroy_handle(struct mlx5umr_context *ctx, uint32_t handle)
{
	struct mlx5_umr_ioc_destroy cmd = {
		.size = sizeof(cmd),
		.handle = handle,
	};

	return do_ioctl(ctx, MLX5_UMR_IOCTL_DESTROY, &cmd);
}

struct mlx5umr_mr *mlx5umr_reg_mr(struct mlx5umr_context *ctx, void *addr,
				  size_t length, unsigned int access)
{
	struct mlx5_umr_ioc_reg_mr cmd = {
		.size = sizeof(cmd),
		.access = access,
		.addr = (uintptr_t)addr,
		.length = length,
	};
	struct mlx5umr_mr *mr;
	int ret;

	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return NULL;
	ret = do_ioctl(ctx, MLX5_UMR_IOCTL_REG_MR, &cmd);
	if (ret) {
		free(mr);
		errno = ret;
		return NULL;
	}
	mr->context = ctx;
	mr->addr = addr;
	mr->length = length;
	mr->handle = cmd.out_handle;
	mr->lkey = cmd.out_lkey;
	mr->rkey = cmd.out_rkey;
	return mr;
}

int mlx5umr_dereg_mr(struct mlx5umr_mr *mr)
{
	int ret = destroy_handle(mr->context, mr->handle);

	if (ret)
		return fail(ret);
	free(mr);
	return 0;
}

struct mlx5umr_mkey *mlx5umr_create_mkey(struct mlx5umr_context *ctx,
					 uint32_t max_entries, uint32_t flags)
{
	struct mlx5_umr_ioc_alloc_mkey cmd = {
		.size = sizeof(cmd),
		.max_entries = max_entries,
	};
	struct mlx5umr_mkey *mkey;
	int ret;

	if (flags & ~(MLX5UMR_MKEY_REMOTE_INVALIDATE | MLX5UMR_MKEY_SIGNATURE |
		      MLX5UMR_MKEY_CRYPTO)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	if (flags & MLX5UMR_MKEY_REMOTE_INVALIDATE)
		cmd.flags |= MLX5_UMR_IOC_MKEY_REMOTE_INVALIDATE;
	if (flags & MLX5UMR_MKEY_SIGNATURE)
		cmd.flags |= MLX5_UMR_IOC_MKEY_SIGNATURE;
	if (flags & MLX5UMR_MKEY_CRYPTO)
		cmd.flags |= MLX5_UMR_IOC_MKEY_CRYPTO;
	mkey = calloc(1, sizeof(*mkey));
	if (!mkey)
		return NULL;
	ret = do_ioctl(ctx, MLX5_UMR_IOCTL_ALLOC_MKEY, &cmd);
	if (ret) {
		free(mkey);
		errno = ret;
		return NULL;
	}
	mkey->context = ctx;
	mkey->handle = cmd.out_handle;
	mkey->lkey = cmd.out_key;
	mkey->rkey = cmd.out_key;
	mkey->max_entries = max_entries;
	return mkey;
}

int mlx5umr_destroy_mkey(struct mlx5umr_mkey *mkey)
{
	int ret = destroy_handle(mkey->context, mkey->handle);

	if (ret)
		return fail(ret);
	free(mkey);
	return 0;
}

/* The key the kernel returned; 0 from a kernel without out_key. */
static void set_key(struct mlx5umr_mkey *mkey, uint32_t key)
{
	if (key) {
		mkey->lkey = key;
		mkey->rkey = key;
	}
}

static uint32_t key_flags(uint32_t flags)
{
	return (flags & MLX5UMR_NEW_KEY ? MLX5_UMR_IOC_NEW_KEY : 0) |
	       (flags & MLX5UMR_RESET_SIG ? MLX5_UMR_IOC_SIG_RESET : 0);
}

/*
 * One rdma-core signature domain (NULL: none) in the uapi's flat form.
 * Return: 0 or -EINVAL.
 */
static int sig_domain(const struct mlx5dv_sig_block_domain *d,
		      struct mlx5_umr_ioc_sig_domain *u)
{
	if (!d)
		return 0;
	if (d->comp_mask)
		return -EINVAL;
	u->block_size = d->block_size;
	switch (d->sig_type) {
	case MLX5DV_SIG_TYPE_T10DIF:
		if (!d->sig.dif)
			return -EINVAL;
		u->sig_type = MLX5_UMR_IOC_SIG_TYPE_T10DIF;
		u->bg_type = d->sig.dif->bg_type;
		u->bg = d->sig.dif->bg;
		u->app_tag = d->sig.dif->app_tag;
		u->ref_tag = d->sig.dif->ref_tag;
		u->dif_flags = d->sig.dif->flags;
		return 0;
	case MLX5DV_SIG_TYPE_CRC:
		if (!d->sig.crc)
			return -EINVAL;
		u->sig_type = MLX5_UMR_IOC_SIG_TYPE_CRC;
		u->crc_type = d->sig.crc->type;
		u->crc_seed = d->sig.crc->seed;
		return 0;
	default:
		return -EINVAL;
	}
}

/* mlx5dv_wr_set_mkey_sig_block()'s attributes into a configure. */
static int sig_block(const struct mlx5dv_sig_block_attr *sig,
		     struct mlx5_umr_ioc_configure *cmd)
{
	struct mlx5_umr_ioc_sig_block *u = &cmd->sig;
	int ret;

	if (!sig)
		return 0;
	if (sig->comp_mask)
		return -EINVAL;
	ret = sig_domain(sig->mem, &u->mem);
	if (!ret)
		ret = sig_domain(sig->wire, &u->wire);
	if (ret)
		return ret;
	u->flags = sig->flags;
	u->check_mask = sig->check_mask;
	/* rdma-core ignores copy_mask without the flag; the kernel wants 0 */
	if (sig->flags & MLX5DV_SIG_BLOCK_ATTR_FLAG_COPY_MASK)
		u->copy_mask = sig->copy_mask;
	cmd->flags |= MLX5_UMR_IOC_SIG_SET;
	return 0;
}

/* mlx5dv_wr_set_mkey_crypto()'s attributes into a configure. */
static int crypto_attr(const struct mlx5umr_mkey *mkey,
		       const struct mlx5umr_crypto_attr *crypto,
		       struct mlx5_umr_ioc_configure *cmd)
{
	struct mlx5_umr_ioc_crypto *u = &cmd->crypto;

	if (!crypto)
		return 0;
	if (crypto->comp_mask || !crypto->dek)
		return -EINVAL;
	/* another context's handle could name one of this context's DEKs */
	if (crypto->dek->context != mkey->context)
		return -ENOENT;
	u->standard = crypto->crypto_standard;
	u->flags = crypto->encrypt_on_tx ? MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX : 0;
	u->sig_order = crypto->signature_crypto_order;
	u->data_unit_size = crypto->data_unit_size;
	memcpy(u->initial_tweak, crypto->initial_tweak, sizeof(u->initial_tweak));
	u->dek = crypto->dek->handle;
	memcpy(u->keytag, crypto->keytag, sizeof(u->keytag));
	cmd->flags |= MLX5_UMR_IOC_CRYPTO_SET;
	return 0;
}

static int configure(struct mlx5umr_mkey *mkey,
		     struct mlx5_umr_ioc_configure *cmd)
{
	int ret;

	cmd->size = sizeof(*cmd);
	cmd->handle = mkey->handle;
	ret = do_ioctl(mkey->context, MLX5_UMR_IOCTL_CONFIGURE, cmd);
	if (ret)
		return fail(ret);
	mkey->length = cmd->out_length;
	set_key(mkey, cmd->out_key);
	return 0;
}

/*
 * The checks of the library's own fields of @attr, accepting @flags.
 * Return: 0 or a negative errno.
 */
static int configure_attr_check(const struct mlx5umr_configure_attr *attr,
				uint32_t flags)
{
	if (!attr || attr->comp_mask)
		return -EINVAL;
	if (attr->flags & ~flags)
		return -EOPNOTSUPP;
	if (attr->layout != MLX5UMR_LAYOUT_LIST &&
	    attr->layout != MLX5UMR_LAYOUT_INTERLEAVED)
		return -EINVAL;
	return 0;
}

/*
 * The entries of @attr's layout in the kernel's format (copied: the
 * padding of the caller's array need not be zero), *@bytes their size; the
 * layout and counts into *@layout, *@num_entries, *@repeat_count. NULL
 * when out of memory.
 */
static void *layout_entries(const struct mlx5umr_configure_attr *attr,
			    uint32_t *layout, uint32_t *num_entries,
			    uint32_t *repeat_count, uint64_t *bytes)
{
	uint32_t i, n = attr->num_entries;
	struct mlx5_umr_ioc_interleaved *il;
	struct mlx5_umr_ioc_sge *sge;

	*num_entries = n;
	if (attr->layout == MLX5UMR_LAYOUT_LIST) {
		*layout = MLX5_UMR_IOC_LAYOUT_LIST;
		*bytes = (uint64_t)n * sizeof(*sge);
		sge = calloc(n ? n : 1, sizeof(*sge));
		for (i = 0; sge && i < n; i++) {
			sge[i].addr = attr->sge[i].addr;
			sge[i].length = attr->sge[i].length;
			sge[i].lkey = attr->sge[i].lkey;
		}
		return sge;
	}
	*layout = MLX5_UMR_IOC_LAYOUT_INTERLEAVED;
	*repeat_count = attr->repeat_count;
	*bytes = (uint64_t)n * sizeof(*il);
	il = calloc(n ? n : 1, sizeof(*il));
	for (i = 0; il && i < n; i++) {
		il[i].addr = attr->interleaved[i].addr;
		il[i].bytes_count = attr->interleaved[i].bytes_count;
		il[i].bytes_skip = attr->interleaved[i].bytes_skip;
		il[i].lkey = attr->interleaved[i].lkey;
	}
	return il;
}

int mlx5umr_mkey_configure(struct mlx5umr_mkey *mkey,
			   const struct mlx5umr_configure_attr *attr)
{
	struct mlx5_umr_ioc_configure cmd = {};
	uint64_t bytes;
	void *ent;
	int ret;

	ret = configure_attr_check(attr, MLX5UMR_NEW_KEY | MLX5UMR_RESET_SIG);
	if (ret)
		return fail(-ret);
	cmd.flags = key_flags(attr->flags);
	cmd.access = attr->access;
	ret = sig_block(attr->sig, &cmd);
	if (!ret)
		ret = crypto_attr(mkey, attr->crypto, &cmd);
	if (ret)
		return fail(-ret);
	ent = layout_entries(attr, &cmd.layout, &cmd.num_entries,
			     &cmd.repeat_count, &bytes);
	if (!ent)
		return fail(ENOMEM);
	cmd.entries = (uintptr_t)ent;
	ret = configure(mkey, &cmd);
	free(ent);
	return ret ? fail(ret) : 0;
}

int mlx5umr_mkey_configure_list(struct mlx5umr_mkey *mkey, uint32_t access,
				uint32_t num_sges, const struct ibv_sge *sge)
{
	struct mlx5umr_configure_attr attr = {
		.access = access,
		.layout = MLX5UMR_LAYOUT_LIST,
		.num_entries = num_sges,
		.sge = sge,
	};

	return mlx5umr_mkey_configure(mkey, &attr);
}

int mlx5umr_mkey_configure_interleaved(struct mlx5umr_mkey *mkey,
				       uint32_t access, uint32_t repeat_count,
				       uint32_t num_interleaved,
				       const struct mlx5dv_mr_interleaved *data)
{
	struct mlx5umr_configure_attr attr = {
		.access = access,
		.layout = MLX5UMR_LAYOUT_INTERLEAVED,
		.num_entries = num_interleaved,
		.interleaved = data,
		.repeat_count = repeat_count,
	};

	return mlx5umr_mkey_configure(mkey, &attr);
}

int mlx5umr_mkey_invalidate(struct mlx5umr_mkey *mkey)
{
	return mlx5umr_mkey_invalidate_ex(mkey, 0);
}

int mlx5umr_mkey_invalidate_ex(struct mlx5umr_mkey *mkey, uint32_t flags)
{
	struct mlx5_umr_ioc_invalidate cmd = {
		.size = sizeof(cmd),
		.handle = mkey->handle,
		.flags = key_flags(flags),
	};
	int ret;

	if (flags & ~MLX5UMR_NEW_KEY)
		return fail(EOPNOTSUPP);
	ret = do_ioctl(mkey->context, MLX5_UMR_IOCTL_INVALIDATE, &cmd);
	if (ret)
		return fail(ret);
	mkey->length = 0;
	set_key(mkey, cmd.out_key);
	return 0;
}

int mlx5umr_set_pd(struct mlx5umr_context *ctx, uint32_t pdn)
{
	struct mlx5_umr_ioc_set_pd cmd = {
		.size = sizeof(cmd),
		.pdn = pdn,
	};
	int ret = do_ioctl(ctx, MLX5_UMR_IOCTL_SET_PD, &cmd);

	return ret ? fail(ret) : 0;
}

struct mlx5umr_dek *mlx5umr_dek_create(struct mlx5umr_context *ctx,
				       const struct mlx5umr_dek_init_attr *attr)
{
	struct mlx5_umr_ioc_dek_create cmd = {
		.size = sizeof(cmd),
		.key_size = attr->key_size,
		.key_len = attr->key_len,
		.key = (uintptr_t)attr->key,
	};
	static const char no_keytag[sizeof(attr->keytag)];
	struct mlx5umr_dek *dek;
	int ret;

	/*
	 * A keytag without has_keytag: EINVAL, as the kernel answers it; a
	 * key_len the uapi's 32 bits cannot carry is no key size's either.
	 */
	if (attr->comp_mask || (uint64_t)attr->key_len > UINT32_MAX ||
	    (!attr->has_keytag &&
	     memcmp(attr->keytag, no_keytag, sizeof(no_keytag)))) {
		errno = EINVAL;
		return NULL;
	}
	if (attr->has_keytag) {
		cmd.flags |= MLX5_UMR_IOC_DEK_KEYTAG;
		memcpy(cmd.keytag, attr->keytag, sizeof(cmd.keytag));
	}
	dek = calloc(1, sizeof(*dek));
	if (!dek)
		return NULL;
	/* The key stays in the caller's buffer: the kernel reads it there. */
	ret = do_ioctl(ctx, MLX5_UMR_IOCTL_DEK_CREATE, &cmd);
	if (ret) {
		free(dek);
		errno = ret;
		return NULL;
	}
	dek->context = ctx;
	dek->handle = cmd.out_handle;
	dek->key_size = attr->key_size;
	dek->has_keytag = attr->has_keytag;
	return dek;
}

int mlx5umr_dek_destroy(struct mlx5umr_dek *dek)
{
	int ret = destroy_handle(dek->context, dek->handle);

	if (ret)
		return fail(ret);
	free(dek);
	return 0;
}

int mlx5umr_mkey_check(struct mlx5umr_mkey *mkey,
		       struct mlx5dv_mkey_err *err_info)
{
	struct mlx5_umr_ioc_sig_check cmd = {
		.size = sizeof(cmd),
		.handle = mkey->handle,
	};
	int ret;

	ret = do_ioctl(mkey->context, MLX5_UMR_IOCTL_SIG_CHECK, &cmd);
	if (ret)
		return fail(ret);
	memset(err_info, 0, sizeof(*err_info));
	err_info->err_type = (enum mlx5dv_mkey_err_type)cmd.out_err_type;
	err_info->err.sig.actual_value = cmd.out_actual;
	err_info->err.sig.expected_value = cmd.out_expected;
	err_info->err.sig.offset = cmd.out_offset;
	return 0;
}

int mlx5umr_sig_report(struct mlx5umr_context *ctx, const void *cqe,
		       uint32_t *handle)
{
	struct mlx5_umr_ioc_sig_report cmd = { .size = sizeof(cmd) };
	int ret;

	memcpy(cmd.cqe, cqe, sizeof(cmd.cqe));
	ret = do_ioctl(ctx, MLX5_UMR_IOCTL_SIG_REPORT, &cmd);
	if (ret)
		return fail(ret);
	if (handle)
		*handle = cmd.out_handle;
	return 0;
}

struct mlx5umr_batch {
	struct mlx5umr_context *ctx;
	uint32_t max;		/* requests, from INFO */
	uint32_t max_bytes;	/* entry bytes, from INFO */
	uint32_t n;		/* queued */
	uint64_t bytes;		/* entry bytes queued */
	struct mlx5_umr_ioc_batch_req *req;
	struct mlx5umr_mkey **mkey;
	void **ent;		/* copied entry arrays, per request */
	int *status;		/* of the last submit */
	uint32_t nstatus;
};

struct mlx5umr_batch *mlx5umr_batch_create(struct mlx5umr_context *ctx)
{
	struct mlx5_umr_ioc_info info = { .size = sizeof(info) };
	struct mlx5umr_batch *b;
	int ret;

	ret = do_ioctl(ctx, MLX5_UMR_IOCTL_INFO, &info);
	if (!ret && !info.out_max_batch)
		ret = EOPNOTSUPP;
	if (ret) {
		errno = ret;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->ctx = ctx;
	b->max = info.out_max_batch;
	b->max_bytes = info.out_max_batch_bytes;
	b->req = calloc(b->max, sizeof(*b->req));
	b->mkey = calloc(b->max, sizeof(*b->mkey));
	b->ent = calloc(b->max, sizeof(*b->ent));
	b->status = calloc(b->max, sizeof(*b->status));
	if (!b->req || !b->mkey || !b->ent || !b->status) {
		mlx5umr_batch_destroy(b);
		errno = ENOMEM;
		return NULL;
	}
	return b;
}

static void batch_reset(struct mlx5umr_batch *b)
{
	uint32_t i;

	for (i = 0; i < b->n; i++) {
		free(b->ent[i]);
		b->ent[i] = NULL;
	}
	b->n = 0;
	b->bytes = 0;
}

void mlx5umr_batch_destroy(struct mlx5umr_batch *batch)
{
	if (!batch)
		return;
	batch_reset(batch);
	free(batch->req);
	free(batch->mkey);
	free(batch->ent);
	free(batch->status);
	free(batch);
}

/* The next slot for @mkey, or an errno. */
static int batch_slot(struct mlx5umr_batch *b, struct mlx5umr_mkey *mkey,
		      uint64_t bytes, struct mlx5_umr_ioc_batch_req **req)
{
	uint32_t i;

	if (mkey->context != b->ctx)
		return fail(EINVAL);
	for (i = 0; i < b->n; i++)
		if (b->mkey[i] == mkey)
			return fail(EEXIST);
	if (b->n == b->max || b->bytes + bytes > b->max_bytes)
		return fail(ENOSPC);
	*req = &b->req[b->n];
	memset(*req, 0, sizeof(**req));
	(*req)->handle = mkey->handle;
	return 0;
}

static void batch_commit(struct mlx5umr_batch *b, struct mlx5umr_mkey *mkey,
			 void *ent, uint64_t bytes)
{
	b->mkey[b->n] = mkey;
	b->ent[b->n] = ent;
	b->bytes += bytes;
	b->n++;
}

int mlx5umr_batch_configure(struct mlx5umr_batch *batch,
			    struct mlx5umr_mkey *mkey,
			    const struct mlx5umr_configure_attr *attr)
{
	struct mlx5_umr_ioc_batch_req *req;
	struct mlx5_umr_ioc_batch_req r = {};
	uint64_t bytes;
	void *ent;
	int ret;

	ret = configure_attr_check(attr, MLX5UMR_NEW_KEY);
	if (ret)
		return fail(-ret);
	/* the batch ioctl carries no signature nor crypto attributes */
	if (attr->sig || attr->crypto)
		return fail(EOPNOTSUPP);
	ent = layout_entries(attr, &r.layout, &r.num_entries, &r.repeat_count,
			     &bytes);
	if (!ent)
		return fail(ENOMEM);
	ret = batch_slot(batch, mkey, bytes, &req);
	if (ret) {
		free(ent);
		return ret;
	}
	req->op = MLX5_UMR_IOC_BATCH_CONFIGURE;
	req->flags = key_flags(attr->flags);
	req->access = attr->access;
	req->layout = r.layout;
	req->num_entries = r.num_entries;
	req->repeat_count = r.repeat_count;
	req->entries = (uintptr_t)ent;
	batch_commit(batch, mkey, ent, bytes);
	return 0;
}

int mlx5umr_batch_invalidate(struct mlx5umr_batch *batch,
			     struct mlx5umr_mkey *mkey)
{
	return mlx5umr_batch_invalidate_ex(batch, mkey, 0);
}

int mlx5umr_batch_invalidate_ex(struct mlx5umr_batch *batch,
				struct mlx5umr_mkey *mkey, uint32_t flags)
{
	struct mlx5_umr_ioc_batch_req *req;
	int ret;

	ret = batch_slot(batch, mkey, 0, &req);
	if (ret)
		return ret;
	req->op = MLX5_UMR_IOC_BATCH_INVALIDATE;
	req->flags = key_flags(flags);
	batch_commit(batch, mkey, NULL, 0);
	return 0;
}

uint32_t mlx5umr_batch_count(const struct mlx5umr_batch *batch)
{
	return batch->n;
}

int mlx5umr_batch_submit(struct mlx5umr_batch *batch, uint32_t *index)
{
	struct mlx5_umr_ioc_batch cmd = {
		.size = sizeof(cmd),
		.num_reqs = batch->n,
		.req_size = sizeof(struct mlx5_umr_ioc_batch_req),
		.reqs = (uintptr_t)batch->req,
	};
	struct mlx5_umr_ioc_batch_req *req;
	uint32_t i;
	int ret;

	batch->nstatus = 0;
	if (!batch->n)
		return 0;
	ret = do_ioctl(batch->ctx, MLX5_UMR_IOCTL_BATCH, &cmd);
	if (ret) {
		if (index)
			*index = cmd.out_index;
		batch_reset(batch);
		return fail(ret);
	}
	for (i = 0; i < batch->n; i++) {
		req = &batch->req[i];
		batch->status[i] = -req->out_status;
		/* the key the mkey has now, rotated or not, failed or not */
		set_key(batch->mkey[i], req->out_key);
		if (req->out_status)
			continue;
		batch->mkey[i]->length =
			req->op == MLX5_UMR_IOC_BATCH_CONFIGURE ?
			req->out_length : 0;
	}
	batch->nstatus = batch->n;
	batch_reset(batch);
	return 0;
}

int mlx5umr_batch_status(const struct mlx5umr_batch *batch, uint32_t i)
{
	return i < batch->nstatus ? batch->status[i] : EINVAL;
}

const char *mlx5umr_errno_name(int err)
{
	static const struct {
		int err;
		const char *name;
	} names[] = {
#define N(e) { e, #e }
		N(EPERM), N(ENOENT), N(EIO), N(E2BIG), N(EBADF), N(ENOMEM),
		N(EFAULT), N(EBUSY), N(ENODEV), N(EINVAL), N(ENOSPC),
		N(ERANGE), N(ENOTTY), N(EOPNOTSUPP), N(EOVERFLOW),
		N(ETIMEDOUT), N(EACCES), N(EEXIST), N(EAGAIN),
#undef N
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			return names[i].name;
	return NULL;
}
