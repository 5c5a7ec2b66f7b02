// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: data encryption keys (DEKs) for crypto mkeys.
 *
 * A DEK is an ENCRYPTION_KEY general object of purpose AES-XTS, created
 * with the key in plaintext (Documentation/crypto.rst: the service does
 * not take wrapped keys or crypto logins). The key crosses the service
 * once: from the caller's attributes into the command mailbox, both
 * zeroed with memzero_explicit() as soon as the command returned, never
 * logged.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5_umr_ifc.h>

#include "umr.h"
#include "crypto.h"
#include "xlt.h"

static void mlx5_umr_dek_fill(void *in, const struct mlx5_umr_dek_attr *attr,
			      unsigned int klen)
{
	void *obj = MLX5_ADDR_OF(mlx5_umr_create_dek_in, in, dek);
	u8 *key = MLX5_ADDR_OF(mlx5_umr_dek, obj, key);

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY);
	MLX5_SET(mlx5_umr_dek, obj, key_size,
		 attr->key_size == MLX5_UMR_CRYPTO_KEY_SIZE_256 ?
		 MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_256 :
		 MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_128);
	MLX5_SET(mlx5_umr_dek, obj, has_keytag, attr->has_keytag);
	MLX5_SET(mlx5_umr_dek, obj, key_purpose,
		 MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS);
	MLX5_SET(mlx5_umr_dek, obj, pd, attr->pdn);
	memcpy(MLX5_ADDR_OF(mlx5_umr_dek, obj, opaque), attr->opaque,
	       sizeof(attr->opaque));
	/* mlx5dv_dek_create(3): key1 | key2 [| keytag] from the field's start */
	memcpy(key, attr->key, klen);
	if (attr->has_keytag)
		memcpy(key + klen, attr->keytag, sizeof(attr->keytag));
}

/*
 * SYNC_CRYPTO after DEKs were destroyed, before the next one is created:
 * the device may give a new DEK a freed DEK's number while it still caches
 * the old key (6.12 lib/crypto.c syncs freed DEKs before reusing them,
 * mlx5_crypto_dek_sync_work_fn(), crypto_type BIT(key_purpose)). Only on a
 * device with crypto_cap.synchronize_dek. Context: mkeys_lock held.
 */
static int mlx5_umr_dek_sync(struct mlx5_umr_dev *dev)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	u32 in[MLX5_ST_SZ_DW(mlx5_umr_sync_crypto_in)] = {};
	int err;

	lockdep_assert_held(&dev->mkeys_lock);
	if (!dev->dek_unsynced)
		return 0;
	MLX5_SET(mlx5_umr_sync_crypto_in, in, opcode,
		 MLX5_UMR_CMD_OP_SYNC_CRYPTO);
	MLX5_SET(mlx5_umr_sync_crypto_in, in, crypto_type,
		 BIT(MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS));
	err = mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (!err)
		dev->dek_unsynced = false;
	return err;
}

/**
 * mlx5_umr_dek_create() - load a data encryption key into the device
 * @dev: the device; its caps must say crypto
 * @attr: the key and its attributes; @attr->key is zeroed before this
 *	returns, whatever it returns
 *
 * Context: process context, may sleep.
 * Return: the DEK, or ERR_PTR(): -EOPNOTSUPP (no crypto on the device),
 * -EINVAL (key size, PD number), -ENOMEM, -ENODEV after the device was
 * unregistered, or the command's error (the backend's cmd_exec: a PD the
 * device does not know is -EREMOTEIO from the fake), that of SYNC_CRYPTO
 * included.
 */
struct mlx5_umr_dek *mlx5_umr_dek_create(struct mlx5_umr_dev *dev,
					 struct mlx5_umr_dek_attr *attr)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	int inlen = MLX5_ST_SZ_BYTES(mlx5_umr_create_dek_in);
	unsigned int klen = mlx5_umr_dek_key_len(attr->key_size);
	struct mlx5_umr_dek *dek = NULL;
	void *in = NULL;
	int err;

	might_sleep();
	if (!dev->caps.crypto) {
		err = -EOPNOTSUPP;
		goto out;
	}
	if (!klen || attr->pdn > MLX5_UMR_PDN_MAX) {
		err = -EINVAL;
		goto out;
	}
	dek = kzalloc(sizeof(*dek), GFP_KERNEL);
	in = kzalloc(inlen, GFP_KERNEL);
	if (!dek || !in) {
		err = -ENOMEM;
		goto out;
	}
	if (!percpu_ref_tryget_live(&dev->users)) {
		err = -ENODEV;
		goto out;
	}
	mlx5_umr_dek_fill(in, attr, klen);
	/* no number a destroyed DEK had before the device forgot its key */
	mutex_lock(&dev->mkeys_lock);
	err = mlx5_umr_dek_sync(dev) ?:
	      mlx5_umr_cmd(dev, in, inlen, out, sizeof(out));
	mutex_unlock(&dev->mkeys_lock);
	percpu_ref_put(&dev->users);
	if (err)
		goto out;
	dek->dev = dev;
	dek->id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	dek->pdn = attr->pdn;
	dek->key_size = attr->key_size;
	dek->has_keytag = attr->has_keytag;
	mlx5_umr_dev_hold(dev);
out:
	memzero_explicit(attr->key, sizeof(attr->key));
	if (in)
		memzero_explicit(in, inlen);
	kfree(in);
	if (err) {
		kfree(dek);
		return ERR_PTR(err);
	}
	return dek;
}
EXPORT_SYMBOL(mlx5_umr_dek_create);

/*
 * Does a crypto mkey name @dek, or may it (struct mlx5_umr_mkey_priv.dek)?
 * Context: dev->mkeys_lock held.
 */
static bool mlx5_umr_dek_named(struct mlx5_umr_dev *dev,
			       const struct mlx5_umr_dek *dek)
{
	struct mlx5_umr_mkey_priv *mp;
	bool named = false;

	lockdep_assert_held(&dev->mkeys_lock);
	list_for_each_entry(mp, &dev->mkeys, list) {
		if (!(mp->pub.flags & MLX5_UMR_MKEY_CRYPTO))
			continue;
		/* under its home queue's lock, as posting changes them */
		spin_lock_irq(&mp->q->sq.lock);
		named = mp->dek == dek || mp->dek_prev == dek;
		spin_unlock_irq(&mp->q->sq.lock);
		if (named)
			break;
	}
	return named;
}

/**
 * mlx5_umr_dek_destroy() - destroy a DEK from mlx5_umr_dek_create()
 * @dek: the DEK; no mkey may name it any more: one configured with it
 *	(MLX5_UMR_WR_SET_CRYPTO posted) names it until it is invalidated
 *	(MLX5_UMR_OP_INVALIDATE succeeded), configured with another DEK (and
 *	that succeeded) or freed. Else -EBUSY: the firmware would hand the
 *	number to the next DEK created, which the mkey would then use.
 *
 * After the device was unregistered only the memory is freed: the object
 * went with the HCA. When the HCA refuses the destroy, the DEK, its key
 * and its number stay on the HCA until it goes: @dek is freed all the
 * same (it holds no key material), the DEK's PD is never deallocated
 * (mlx5_umr_pd_free()) and the DEK is counted in the device's leaks, as a
 * refused mkey destroy is (mlx5_umr_free_mkey()). The caller must not
 * give back what the DEK took (a quota): it is still taken.
 *
 * Context: process context, may sleep.
 * Return: 0; -EBUSY when an mkey may name @dek (nothing done, @dek is
 * still the caller's); or the command's error: the DEK may still be on the
 * HCA (@dek is freed).
 */
int mlx5_umr_dek_destroy(struct mlx5_umr_dek *dek)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = {};
	u32 in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {};
	struct mlx5_umr_dev *dev = dek->dev;
	int err = 0;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_DESTROY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, dek->id);
	/* mkeys_lock keeps dev->hca, as for mlx5_umr_pd_free() */
	mutex_lock(&dev->mkeys_lock);
	if (dev->hca && mlx5_umr_dek_named(dev, dek)) {
		mutex_unlock(&dev->mkeys_lock);
		return -EBUSY;
	}
	if (dev->hca)
		err = mlx5_umr_cmd(dev, in, sizeof(in), out, sizeof(out));
	if (err) {
		mlx5_umr_pd_keep(dev, dek->pdn);
		mlx5_umr_leak_buf(dev, "DEK");
	}
	/* a failed DESTROY may still have freed the number */
	if (dev->caps.crypto_synchronize_dek)
		dev->dek_unsynced = true;
	mutex_unlock(&dev->mkeys_lock);
	kfree(dek);
	mlx5_umr_dev_put(dev);
	return err;
}
EXPORT_SYMBOL(mlx5_umr_dek_destroy);
