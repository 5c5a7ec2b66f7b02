// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: AES-XTS crypto on the character device: DEKs as objects of
 * the file (MLX5_UMR_IOCTL_DEK_CREATE, destroyed by MLX5_UMR_IOCTL_DESTROY
 * or with the file), crypto mkeys and the crypto attributes of a
 * CONFIGURE.
 *
 * The key crosses the kernel once: the prepare step copies it from user
 * memory into one kernel buffer (before the device lock: the copy may
 * fault for as long as userspace wants), mlx5_umr_dek_create() hands it to
 * the HCA, and the buffer is wiped with memzero_explicit() on every path,
 * whatever the outcome. Nothing here logs it or returns it.
 *
 * A configured crypto mkey holds a reference on its DEK among those on
 * the registrations its layout names (uapi_mkey.c), so a DEK in use is
 * not destroyed (EBUSY) and the references follow the layout through
 * reconfiguration, invalidation, uncertain failures and destruction.
 * The uapi's own rules are checked here (flags, reserved fields, the DEK's
 * owner); the attributes are then checked by the service's crypto rules
 * (rules.h: the orders a signature in both domains excludes, rule 62,
 * and the layout's 32-bit length, rule 63, among them) before anything is
 * posted. See
 * uapi/linux/mlx5_umr.h ("Crypto") and Documentation/uapi.rst.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/kmemleak.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "uapi_priv.h"

/* The uapi passes these values through unchanged (both are rdma-core's). */
#define UMR_CRYPTO_SAME(a, b)	static_assert((int)(a) == (int)(b))
UMR_CRYPTO_SAME(MLX5_UMR_IOC_CRYPTO_STANDARD_AES_XTS,
		MLX5_UMR_CRYPTO_STANDARD_AES_XTS);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_SIG_AFTER_CRYPTO_ON_TX,
		MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_SIG_BEFORE_CRYPTO_ON_TX,
		MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
		MLX5_UMR_CRYPTO_KEY_SIZE_128);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256,
		MLX5_UMR_CRYPTO_KEY_SIZE_256);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_SIG_BLOCK_512, MLX5_UMR_BLOCK_SIZE_512);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_SIG_BLOCK_520, MLX5_UMR_BLOCK_SIZE_520);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_SIG_BLOCK_4048, MLX5_UMR_BLOCK_SIZE_4048);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_SIG_BLOCK_4096, MLX5_UMR_BLOCK_SIZE_4096);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_SIG_BLOCK_4160, MLX5_UMR_BLOCK_SIZE_4160);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_CRYPTO_ENGINE_NONE, MLX5_UMR_CRYPTO_ENGINE_NONE);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_CRYPTO_ENGINE_SINGLE_BLOCK,
		MLX5_UMR_CRYPTO_ENGINE_SINGLE_BLOCK);
UMR_CRYPTO_SAME(MLX5_UMR_IOC_CRYPTO_ENGINE_MULTI_BLOCK,
		MLX5_UMR_CRYPTO_ENGINE_MULTI_BLOCK);
static_assert(sizeof_field(struct mlx5_umr_ioc_crypto, initial_tweak) ==
	      sizeof_field(struct mlx5_umr_crypto_attr, initial_tweak));
static_assert(sizeof_field(struct mlx5_umr_ioc_crypto, keytag) ==
	      sizeof_field(struct mlx5_umr_crypto_attr, keytag));
static_assert(sizeof_field(struct mlx5_umr_ioc_dek_create, keytag) ==
	      sizeof_field(struct mlx5_umr_dek_attr, keytag));

/*
 * Every key size and data unit size the service offers with crypto: all
 * of rdma-core's (MLX5_UMR_IOC_SIG_BLOCK_512 to _4160).
 */
#define UMR_CRYPTO_KEY_SIZES	(BIT(MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128) | \
				 BIT(MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256))
#define UMR_CRYPTO_DU_SIZES	(BIT(MLX5_UMR_IOC_SIG_BLOCK_512) | \
				 BIT(MLX5_UMR_IOC_SIG_BLOCK_520) | \
				 BIT(MLX5_UMR_IOC_SIG_BLOCK_4048) | \
				 BIT(MLX5_UMR_IOC_SIG_BLOCK_4096) | \
				 BIT(MLX5_UMR_IOC_SIG_BLOCK_4160))

static bool umr_crypto_dev(struct umr_udev *ud)
{
	return mlx5_umr_dev_caps(ud->dev)->crypto;
}

/**
 * umr_crypto_info_flags() - MLX5_UMR_IOCTL_INFO out_flags of crypto
 * @ud: the device
 *
 * Return: MLX5_UMR_IOC_INFO_CRYPTO when the HCA offers crypto mkeys.
 */
u32 umr_crypto_info_flags(struct umr_udev *ud)
{
	return umr_crypto_dev(ud) ? MLX5_UMR_IOC_INFO_CRYPTO : 0;
}

/**
 * umr_crypto_info() - the crypto fields of MLX5_UMR_IOCTL_INFO
 * @ctx: the file
 * @cmd: the answer
 */
void umr_crypto_info(struct umr_uctx *ctx, struct mlx5_umr_ioc_info *cmd)
{
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(ctx->ud->dev);
	bool crypto = caps->crypto;

	cmd->out_crypto_key_sizes = crypto ? UMR_CRYPTO_KEY_SIZES : 0;
	cmd->out_crypto_data_unit_sizes = crypto ? UMR_CRYPTO_DU_SIZES : 0;
	cmd->out_max_fd_deks = MLX5_UMR_IOC_MAX_FD_DEKS;
	cmd->out_fd_deks = atomic_read(&ctx->ndeks);
	cmd->out_crypto_engine = caps->crypto_engine;
	cmd->out_crypto_caps =
		(caps->crypto_tweak_be ? MLX5_UMR_IOC_CRYPTO_CAP_TWEAK_BE : 0) |
		(caps->crypto_wrapped_import ?
		 MLX5_UMR_IOC_CRYPTO_CAP_WRAPPED_IMPORT : 0) |
		(caps->crypto_synchronize_dek ?
		 MLX5_UMR_IOC_CRYPTO_CAP_SYNCHRONIZE_DEK : 0);
}

/**
 * umr_crypto_mkey_flags() - the service's flags of MLX5_UMR_IOCTL_ALLOC_MKEY
 * @ud: the device
 * @ioc_flags: MLX5_UMR_IOC_MKEY_* from userspace, already known bits only
 * @flags: MLX5_UMR_MKEY_* to add to
 *
 * With MLX5_UMR_IOC_MKEY_SIGNATURE too, both go to the service, which
 * decides whether one mkey can have both.
 *
 * Return: 0, or -EOPNOTSUPP for a crypto mkey on an HCA without crypto.
 */
int umr_crypto_mkey_flags(struct umr_udev *ud, u32 ioc_flags, u32 *flags)
{
	if (!(ioc_flags & MLX5_UMR_IOC_MKEY_CRYPTO))
		return 0;
	if (!umr_crypto_dev(ud))
		return -EOPNOTSUPP;
	*flags |= MLX5_UMR_MKEY_CRYPTO;
	return 0;
}

/**
 * umr_crypto_refs() - references a configure takes besides its entries'
 * @cmd: the request
 *
 * Return: 1 for the DEK of MLX5_UMR_IOC_CRYPTO_SET, else 0.
 */
u32 umr_crypto_refs(const struct mlx5_umr_ioc_configure *cmd)
{
	return cmd->flags & MLX5_UMR_IOC_CRYPTO_SET ? 1 : 0;
}

/**
 * umr_crypto_configure() - the crypto block of a configure request
 * @cmd: the request (MLX5_UMR_IOCTL_CONFIGURE; a batch request's has no
 *	crypto block and no crypto flag)
 * @r: the request, its signature translated (umr_sig_configure())
 *
 * Translates @cmd->crypto into @r->crypto, except the DEK, which
 * umr_crypto_configure_mkey() looks up.
 *
 * Return: 0, -EINVAL or -EOPNOTSUPP (uapi/linux/mlx5_umr.h).
 */
int umr_crypto_configure(const struct mlx5_umr_ioc_configure *cmd,
			 struct umr_mreq *r)
{
	const struct mlx5_umr_ioc_crypto *u = &cmd->crypto;
	struct mlx5_umr_crypto_attr *a = &r->crypto;

	if (!(cmd->flags & MLX5_UMR_IOC_CRYPTO_SET))
		return memchr_inv(u, 0, sizeof(*u)) ? -EINVAL : 0;
	if (u->flags & ~MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX)
		return -EOPNOTSUPP;
	if (u->__reserved ||
	    u->standard != MLX5_UMR_IOC_CRYPTO_STANDARD_AES_XTS ||
	    (u->sig_order != MLX5_UMR_IOC_SIG_AFTER_CRYPTO_ON_TX &&
	     u->sig_order != MLX5_UMR_IOC_SIG_BEFORE_CRYPTO_ON_TX) ||
	    u->data_unit_size > MLX5_UMR_IOC_SIG_BLOCK_4160)
		return -EINVAL;
	a->crypto_standard = u->standard;
	a->encrypt_on_tx = u->flags & MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX;
	a->signature_crypto_order = u->sig_order;
	a->data_unit_size = u->data_unit_size;
	memcpy(a->initial_tweak, u->initial_tweak, sizeof(a->initial_tweak));
	memcpy(a->keytag, u->keytag, sizeof(a->keytag));
	return 0;
}

/**
 * umr_crypto_configure_mkey() - the crypto part of a configure request,
 *	once its mkey and layout are known
 * @ctx: the file
 * @cmd: the request
 * @r: the request, its mkey and entries referenced, @r->refs with a free
 *	last slot for the DEK (umr_crypto_refs())
 *
 * Return: 0; -EINVAL (crypto attributes on another mkey, none on a crypto
 * mkey, a keytag the DEK has not);
 * -EOPNOTSUPP (a crypto mkey in a batch); -ENOENT (@cmd->crypto.dek is not
 * a DEK of this file).
 */
int umr_crypto_configure_mkey(struct umr_uctx *ctx,
			      const struct mlx5_umr_ioc_configure *cmd,
			      struct umr_mreq *r)
{
	bool set = cmd->flags & MLX5_UMR_IOC_CRYPTO_SET;
	bool crypto = r->obj->mkey->flags & MLX5_UMR_MKEY_CRYPTO;
	struct umr_uobj *obj;
	struct umr_udek *dk;

	if (crypto && r->batch)
		return -EOPNOTSUPP;
	if (set != crypto)
		return -EINVAL;
	if (!set)
		return 0;
	obj = umr_uobj_get(ctx, cmd->crypto.dek, UMR_UOBJ_DEK);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	/* the last reference of the request: settled with the layout's */
	r->refs[r->nrefs - 1] = obj;
	dk = container_of(obj, struct umr_udek, obj);
	if (!dk->dek->has_keytag &&
	    memchr_inv(cmd->crypto.keytag, 0, sizeof(cmd->crypto.keytag)))
		return -EINVAL;
	r->crypto.dek = dk->dek;
	r->wr.flags |= MLX5_UMR_WR_SET_CRYPTO;
	r->wr.crypto = &r->crypto;
	return 0;
}

/* The one kernel copy of a key: wiped whatever became of it. */
static void umr_dek_attr_free(struct mlx5_umr_dek_attr *attr)
{
	memzero_explicit(attr, sizeof(*attr));
	kfree(attr);
}

/**
 * umr_prep_dek_create() - DEK_CREATE before the device lock: copy the key
 * @ucmd: the ioctl
 *
 * Return: 0; in @ucmd->priv the attributes holding the key, NULL when the
 * request is refused anyway (a key size or length umr_cmd_dek_create()
 * refuses), or ERR_PTR(-ENOMEM) or ERR_PTR(-EFAULT).
 */
int umr_prep_dek_create(struct umr_ucmd *ucmd)
{
	const struct mlx5_umr_ioc_dek_create *cmd = ucmd->cmd;
	unsigned int len = mlx5_umr_dek_key_len(cmd->key_size);
	struct mlx5_umr_dek_attr *attr;

	BUILD_BUG_ON(sizeof(attr->key) < 64);
	if (!len || cmd->key_len != len)
		return 0;
	attr = kzalloc(sizeof(*attr), GFP_KERNEL_ACCOUNT);
	if (!attr) {
		ucmd->priv = ERR_PTR(-ENOMEM);
		return 0;
	}
	/* a fault may leave part of the key copied: wiped all the same */
	if (copy_from_user(attr->key, u64_to_user_ptr(cmd->key), len)) {
		umr_dek_attr_free(attr);
		ucmd->priv = ERR_PTR(-EFAULT);
		return 0;
	}
	ucmd->priv = attr;
	return 0;
}

void umr_release_dek_create(struct umr_ucmd *ucmd)
{
	if (!IS_ERR_OR_NULL(ucmd->priv))
		umr_dek_attr_free(ucmd->priv);
	ucmd->priv = NULL;
}

/* The command's own fields, in the header's order of errnos. */
static int umr_dek_check(struct umr_udev *ud,
			 const struct mlx5_umr_ioc_dek_create *cmd)
{
	u32 len = mlx5_umr_dek_key_len(cmd->key_size);

	if (cmd->flags & ~MLX5_UMR_IOC_DEK_KEYTAG)
		return -EOPNOTSUPP;
	if (cmd->__reserved)
		return -EINVAL;
	if (!umr_crypto_dev(ud))
		return -EOPNOTSUPP;
	if (!len || cmd->key_len != len)
		return -EINVAL;
	if (!(cmd->flags & MLX5_UMR_IOC_DEK_KEYTAG) &&
	    memchr_inv(cmd->keytag, 0, sizeof(cmd->keytag)))
		return -EINVAL;
	return 0;
}

/*
 * The HCA refused to destroy the DEK: it keeps the key, and the number,
 * until the HCA goes. Leaked on purpose, counted, as umr_mkey_free() keeps
 * an mkey the HCA kept: the user stays charged for it (a failing destroy
 * gives no one a DEK the pool does not have), and the structure, which
 * holds no key material, is kept with the charge.
 */
static void umr_dek_leak(struct umr_udev *ud, struct umr_udek *dk)
{
	atomic_inc(&ud->leaked);
	kmemleak_not_leak(dk);
}

int umr_cmd_dek_create(struct umr_ucmd *ucmd)
{
	struct mlx5_umr_ioc_dek_create *cmd = ucmd->cmd;
	struct mlx5_umr_dek_attr *attr = ucmd->priv;
	struct umr_uctx *ctx = ucmd->ctx;
	struct mlx5_umr_dek *dek;
	struct umr_udek *dk;
	int ret;

	ret = umr_dek_check(ctx->ud, cmd);
	if (ret)
		return ret;
	if (WARN_ON_ONCE(!attr))
		return -EINVAL;
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	if (atomic_inc_return(&ctx->ndeks) > MLX5_UMR_IOC_MAX_FD_DEKS) {
		ret = -ENOSPC;
		goto err_count;
	}
	dk = kzalloc(sizeof(*dk), GFP_KERNEL_ACCOUNT);
	if (!dk) {
		ret = -ENOMEM;
		goto err_count;
	}
	ret = umr_charge(ctx->ud, &dk->charge, 0, 0, 1);
	if (ret)
		goto err_free;
	dk->obj.type = UMR_UOBJ_DEK;
	attr->key_size = cmd->key_size;
	attr->has_keytag = cmd->flags & MLX5_UMR_IOC_DEK_KEYTAG;
	memcpy(attr->keytag, cmd->keytag, sizeof(attr->keytag));
	ret = umr_uctx_pd_get(ctx, &attr->pdn);
	if (ret)
		goto err_uncharge;
	/* wipes attr->key, whatever it returns */
	dek = mlx5_umr_dek_create(ctx->ud->dev, attr);
	if (IS_ERR(dek)) {
		ret = PTR_ERR(dek);
		goto err_pd;
	}
	dk->dek = dek;
	ret = umr_uobj_insert(ctx, &dk->obj);
	if (ret)
		goto err_dek;
	umr_uctx_pd_put(ctx, true);

	cmd->out_handle = dk->obj.handle;
	umr_uobj_publish(ctx, &dk->obj);
	return umr_ucmd_respond_created(ucmd, &dk->obj);

err_dek:
	if (mlx5_umr_dek_destroy(dek)) {
		/* the key stays in the HCA: so does the user's charge */
		umr_dek_leak(ctx->ud, dk);
		umr_uctx_pd_put(ctx, false);
		goto err_count;
	}
err_pd:
	umr_uctx_pd_put(ctx, false);
err_uncharge:
	umr_uncharge(ctx->ud, &dk->charge);
err_free:
	kfree(dk);
err_count:
	atomic_dec(&ctx->ndeks);
	return ret;
}

/**
 * umr_dek_free() - destroy a DEK of the file
 * @ctx: the file
 * @dk: the DEK, unreachable
 *
 * Called once no configured mkey of the file names it, except an mkey the
 * HCA refused to destroy (umr_mkey_free()), whose references are never
 * dropped or used again: destroying the key under it only makes the HCA
 * fail its accesses, and the key leaves the HCA with its owner. A DEK
 * whose destroy command fails stays on the HCA: umr_dek_leak().
 */
void umr_dek_free(struct umr_uctx *ctx, struct umr_udek *dk)
{
	atomic_dec(&ctx->ndeks);
	if (mlx5_umr_dek_destroy(dk->dek)) {
		umr_dek_leak(ctx->ud, dk);
		return;
	}
	umr_uncharge(ctx->ud, &dk->charge);
	kfree(dk);
}
