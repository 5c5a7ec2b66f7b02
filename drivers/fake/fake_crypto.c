// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: data encryption keys and the AES-XTS data path of
 * crypto mkeys (Documentation/crypto.rst).
 *
 * A DEK is a general object of type ENCRYPTION_KEY; its key lives only in
 * the xts(aes) transform made at CREATE (the mailbox copy is the caller's
 * and the fake's own copy is zeroed as soon as the transform has it). An
 * access through an mkey with crypto_en and a crypto BSF transforms every
 * data unit with that DEK, encrypting or decrypting as the BSF's enc_order
 * and the direction of the access say.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/scatterlist.h>
#include <crypto/skcipher.h>
#include <linux/mlx5_umr_ifc.h>

#include "fake.h"

#define FAKE_DEK_LIMIT	XA_LIMIT(1, MLX5_UMR_CRYPTO_DEK_PTR_MASK)
#define FAKE_XTS_MAX_KEY	64	/* two AES-256 keys */
#define FAKE_KEYTAG_LEN		8

struct fake_dek {
	u32 id;
	u32 pdn;
	u8 key_size;		/* MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_* */
	bool has_keytag;
	u8 keytag[FAKE_KEYTAG_LEN];
	bool used;		/* an access loaded the key: it is cached */
	u16 uid;		/* of CREATE_GENERAL_OBJECT (fake_uctx.c) */
	struct crypto_sync_skcipher *tfm;
};

static int fake_gobj_fail(void *out, u8 status, u32 synd)
{
	MLX5_SET(general_obj_out_cmd_hdr, out, status, status);
	MLX5_SET(general_obj_out_cmd_hdr, out, syndrome, synd);
	return -EREMOTEIO;
}

#define GFAIL(o, st, sy) \
	fake_gobj_fail(o, MLX5_CMD_STAT_##st, MLX5_UMR_FAKE_SYND_##sy)

static void fake_dek_free(struct fake_dek *dek)
{
	if (!dek)
		return;
	/* frees the key schedule with kfree_sensitive() */
	crypto_free_sync_skcipher(dek->tfm);
	memzero_explicit(dek->keytag, sizeof(dek->keytag));
	kfree(dek);
}

static int fake_dek_create(struct mlx5_umr_fake *fd, const void *in,
			   int inlen, void *out, int outlen)
{
	const void *obj = MLX5_ADDR_OF(mlx5_umr_create_dek_in, in, dek);
	u8 key[FAKE_XTS_MAX_KEY + FAKE_KEYTAG_LEN];
	const u8 *kp = MLX5_ADDR_OF(mlx5_umr_dek, obj, key);
	struct fake_dek *dek;
	unsigned long flags;
	struct fake_pd *pd;
	unsigned int klen;
	u32 id, pdn;
	int err;

	if (inlen < MLX5_ST_SZ_BYTES(mlx5_umr_create_dek_in))
		return GFAIL(out, BAD_INP_LEN_ERR, BAD_INLEN);
	if (outlen < MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr))
		return GFAIL(out, BAD_OUTP_LEN_ERR, BAD_OUTLEN);
	/*
	 * AES-XTS keys need an AES-XTS engine, and plaintext ones a device
	 * that does not require wrapped import (rdma-core verbs.c
	 * _mlx5dv_dek_create(), check_dek_import_method()).
	 */
	if (MLX5_GET(mlx5_umr_dek, obj, key_purpose) !=
	    MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS ||
	    fd->caps.crypto == MLX5_UMR_FAKE_CRYPTO_NONE ||
	    fd->caps.crypto_wrapped_import)
		return GFAIL(out, BAD_PARAM_ERR, BAD_FIELD);
	switch (MLX5_GET(mlx5_umr_dek, obj, key_size)) {
	case MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_128:
		klen = 32;
		break;
	case MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_256:
		klen = 64;
		break;
	default:
		return GFAIL(out, BAD_PARAM_ERR, BAD_FIELD);
	}
	pdn = MLX5_GET(mlx5_umr_dek, obj, pd);
	pd = xa_load(&fd->pds, pdn);
	if (!pd)
		return GFAIL(out, BAD_RES_ERR, BAD_PD);
	if (!fake_uid_may_use(fake_cmd_uid(in), pd->uid))
		return GFAIL(out, BAD_RES_ERR, BAD_UID);

	dek = kzalloc(sizeof(*dek), GFP_KERNEL);
	if (!dek)
		return GFAIL(out, NO_RES_ERR, NO_RESOURCES);
	dek->pdn = pdn;
	dek->uid = fake_cmd_uid(in);
	dek->key_size = MLX5_GET(mlx5_umr_dek, obj, key_size);
	dek->has_keytag = MLX5_GET(mlx5_umr_dek, obj, has_keytag);
	dek->tfm = crypto_alloc_sync_skcipher("xts(aes)", 0, 0);
	if (IS_ERR(dek->tfm)) {
		dek->tfm = NULL;
		goto err_nores;
	}
	/*
	 * key1 == key2 is refused (xts_verify_key()) whether or not the host
	 * runs in FIPS mode: IEEE Std 1619-2018 requires the two keys to
	 * differ. Whether a ConnectX refuses such a DEK is not known.
	 */
	crypto_sync_skcipher_set_flags(dek->tfm,
				       CRYPTO_TFM_REQ_FORBID_WEAK_KEYS);
	memcpy(key, kp, klen + FAKE_KEYTAG_LEN);
	if (dek->has_keytag)
		memcpy(dek->keytag, key + klen, FAKE_KEYTAG_LEN);
	err = crypto_sync_skcipher_setkey(dek->tfm, key, klen);
	memzero_explicit(key, sizeof(key));
	if (err) {
		/* xts_verify_key(): key1 == key2 */
		fake_dek_free(dek);
		return GFAIL(out, BAD_PARAM_ERR, BAD_FIELD);
	}
	/*
	 * The lowest free number: a destroyed DEK's number is reused at once,
	 * so a key the device still caches for it (fake_crypto_bind()) shows
	 * unless SYNC_CRYPTO ran in between (6.12 lib/crypto.c reuses freed
	 * DEKs only after mlx5_crypto_cmd_sync_crypto()).
	 */
	if (xa_alloc_irq(&fd->deks, &id, dek, FAKE_DEK_LIMIT, GFP_KERNEL) < 0)
		goto err_nores;
	dek->id = id;
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.deks++;
	spin_unlock_irqrestore(&fd->lock, flags);
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, id);
	return 0;

err_nores:
	fake_dek_free(dek);
	return GFAIL(out, NO_RES_ERR, NO_RESOURCES);
}

static int fake_dek_destroy(struct mlx5_umr_fake *fd, const void *in,
			    int inlen, void *out, int outlen)
{
	struct fake_dek *dek, *stale;
	unsigned long flags;
	bool found;
	u32 id;

	if (inlen < MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr))
		return GFAIL(out, BAD_INP_LEN_ERR, BAD_INLEN);
	if (outlen < MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr))
		return GFAIL(out, BAD_OUTP_LEN_ERR, BAD_OUTLEN);
	id = MLX5_GET(general_obj_in_cmd_hdr, in, obj_id);
	spin_lock_irqsave(&fd->lock, flags);
	dek = xa_load(&fd->deks, id);
	if (dek && dek->uid != fake_cmd_uid(in)) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return GFAIL(out, BAD_RES_ERR, BAD_UID);
	}
	found = !!dek;
	if (dek) {
		fake_xa_erase(fd, &fd->deks, id);
		fd->cnt.deks--;
		/*
		 * A key an access loaded stays cached under its number until
		 * SYNC_CRYPTO, on a device that has it (crypto_cap
		 * synchronize_dek; 6.12 lib/crypto.c).
		 */
		if (dek->used && fd->caps.crypto_synchronize_dek) {
			stale = xa_store(&fd->stale_deks, id, dek, GFP_ATOMIC);
			if (xa_is_err(stale))
				stale = dek;	/* out of memory: forget it */
			dek = stale;
		}
	}
	spin_unlock_irqrestore(&fd->lock, flags);
	if (!found)
		return GFAIL(out, BAD_RES_ERR, BAD_DEK);
	fake_dek_free(dek);
	return 0;
}

/* Drop the cached keys of destroyed DEKs. Context: cmd_lock held. */
static void fake_stale_drop(struct mlx5_umr_fake *fd)
{
	struct fake_dek *dek;
	unsigned long flags, i;

	xa_for_each(&fd->stale_deks, i, dek) {
		spin_lock_irqsave(&fd->lock, flags);
		fake_xa_erase(fd, &fd->stale_deks, i);
		spin_unlock_irqrestore(&fd->lock, flags);
		fake_dek_free(dek);
	}
}

/**
 * fake_sync_crypto() - SYNC_CRYPTO
 * @fd: the fake
 * @in: input mailbox
 * @inlen: its length
 * @out: output mailbox (zeroed by the caller)
 * @outlen: its length
 *
 * 6.12 mlx5_ifc.h struct mlx5_ifc_sync_crypto_in_bits; crypto_type is a
 * mask of key purposes, BIT(0) all of them (lib/crypto.c
 * MLX5_CRYPTO_DEK_ALL_TYPE, mlx5_crypto_dek_sync_work_fn()). Without
 * crypto_cap.synchronize_dek the device does not know the command.
 * Context: process, cmd_lock held.
 * Return: 0, or -EREMOTEIO with status and syndrome in @out.
 */
int fake_sync_crypto(struct mlx5_umr_fake *fd, const void *in, int inlen,
		     void *out, int outlen)
{
	u32 type;

	if (!fd->caps.crypto_synchronize_dek)
		return GFAIL(out, BAD_OP_ERR, BAD_OPCODE);
	if (inlen < MLX5_ST_SZ_BYTES(mlx5_umr_sync_crypto_in))
		return GFAIL(out, BAD_INP_LEN_ERR, BAD_INLEN);
	if (outlen < MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr))
		return GFAIL(out, BAD_OUTP_LEN_ERR, BAD_OUTLEN);
	type = MLX5_GET(mlx5_umr_sync_crypto_in, in, crypto_type);
	if (!type)
		return GFAIL(out, BAD_PARAM_ERR, BAD_FIELD);
	/* the fake's keys are all AES-XTS: another purpose syncs none */
	if (type & (BIT(0) | BIT(MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS)))
		fake_stale_drop(fd);
	return 0;
}

/**
 * fake_crypto_hca_caps() - the crypto bits of cmd_hca_cap
 * @fd: the fake
 * @cap: the cmd_hca_cap of a QUERY_HCA_CAP answer
 *
 * Each profile reports what a device of its generation reports
 * (Documentation/fake.rst, "Crypto profiles"). rdma-core verbs.c
 * get_hca_general_caps() takes multi block from the big-endian bit and
 * makes it imply single block, so that profile sets both.
 */
void fake_crypto_hca_caps(struct mlx5_umr_fake *fd, void *cap)
{
	u8 p = fd->caps.crypto;

	if (p == MLX5_UMR_FAKE_CRYPTO_NONE)
		return;
	MLX5_SET(mlx5_umr_hca_cap_crypto, cap, crypto, 1);
	MLX5_SET(mlx5_umr_hca_cap_crypto, cap, aes_xts_single_block_le_tweak,
		 p == MLX5_UMR_FAKE_CRYPTO_SINGLE_LE ||
		 p == MLX5_UMR_FAKE_CRYPTO_MULTI_BE);
	MLX5_SET(mlx5_umr_hca_cap_crypto, cap, aes_xts_multi_block_le_tweak,
		 p == MLX5_UMR_FAKE_CRYPTO_MULTI_LE);
	MLX5_SET(mlx5_umr_hca_cap_crypto, cap, aes_xts_multi_block_be_tweak,
		 p == MLX5_UMR_FAKE_CRYPTO_MULTI_BE);
}

/**
 * fake_crypto_caps() - the crypto caps (QUERY_HCA_CAP op_mod CRYPTO)
 * @fd: the fake, with a crypto profile
 * @cap: the capability of the answer
 */
void fake_crypto_caps(struct mlx5_umr_fake *fd, void *cap)
{
	MLX5_SET(mlx5_umr_crypto_cap, cap, synchronize_dek,
		 fd->caps.crypto_synchronize_dek);
	MLX5_SET(mlx5_umr_crypto_cap, cap, wrapped_import_method,
		 fd->caps.crypto_wrapped_import ?
		 MLX5_UMR_CRYPTO_WRAPPED_IMPORT_AES_XTS : 0);
}

/**
 * mlx5_umr_fake_set_crypto() - give fake caps a crypto device generation
 * @caps: the caps of a struct mlx5_umr_fake_attr
 * @profile: the generation
 *
 * Every crypto profile has synchronize_dek and plaintext import, as the
 * devices rdma-core and SPDK drive with plaintext DEKs.
 */
void mlx5_umr_fake_set_crypto(struct mlx5_umr_fake_caps *caps,
			      enum mlx5_umr_fake_crypto profile)
{
	caps->crypto = profile;
	caps->crypto_wrapped_import = false;
	caps->crypto_synchronize_dek = profile != MLX5_UMR_FAKE_CRYPTO_NONE;
}
EXPORT_SYMBOL(mlx5_umr_fake_set_crypto);

/**
 * mlx5_umr_fake_crypto_name() - a crypto profile's name, for test names
 * @profile: the profile
 *
 * Return: a constant string.
 */
const char *mlx5_umr_fake_crypto_name(enum mlx5_umr_fake_crypto profile)
{
	static const char * const names[MLX5_UMR_FAKE_CRYPTO_NR] = {
		[MLX5_UMR_FAKE_CRYPTO_NONE] = "none",
		[MLX5_UMR_FAKE_CRYPTO_SINGLE_LE] = "single-block-le",
		[MLX5_UMR_FAKE_CRYPTO_MULTI_LE] = "multi-block-le",
		[MLX5_UMR_FAKE_CRYPTO_MULTI_BE] = "multi-block-be",
	};

	return profile < MLX5_UMR_FAKE_CRYPTO_NR ? names[profile] : "?";
}
EXPORT_SYMBOL(mlx5_umr_fake_crypto_name);

/**
 * fake_gobj_cmd() - CREATE/DESTROY_GENERAL_OBJECT
 * @fd: the fake
 * @opcode: MLX5_CMD_OP_CREATE_GENERAL_OBJECT or ..._DESTROY_...
 * @in: input mailbox
 * @inlen: its length
 * @out: output mailbox (zeroed by the caller)
 * @outlen: its length
 *
 * Only ENCRYPTION_KEY objects exist; another type is BAD_PARAM_ERR, as
 * firmware answers an object type it lacks.
 * Context: process, cmd_lock held.
 * Return: 0, or -EREMOTEIO with status and syndrome in @out.
 */
int fake_gobj_cmd(struct mlx5_umr_fake *fd, u16 opcode, const void *in,
		  int inlen, void *out, int outlen)
{
	if (inlen < MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr))
		return GFAIL(out, BAD_INP_LEN_ERR, BAD_INLEN);
	if (MLX5_GET(general_obj_in_cmd_hdr, in, obj_type) !=
	    MLX5_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY)
		return GFAIL(out, BAD_PARAM_ERR, BAD_OBJ_TYPE);
	if (opcode == MLX5_CMD_OP_CREATE_GENERAL_OBJECT)
		return fake_dek_create(fd, in, inlen, out, outlen);
	return fake_dek_destroy(fd, in, inlen, out, outlen);
}

/**
 * fake_crypto_reset() - destroy every DEK, as a device reset would
 * @fd: the fake, no longer reachable
 *
 * Context: process.
 * Return: DEKs that were left.
 */
unsigned int fake_crypto_reset(struct mlx5_umr_fake *fd)
{
	struct fake_dek *dek;
	unsigned int n = 0;
	unsigned long i;

	xa_for_each(&fd->deks, i, dek) {
		xa_erase_irq(&fd->deks, i);
		fake_dek_free(dek);
		n++;
	}
	xa_destroy(&fd->deks);
	xa_for_each(&fd->stale_deks, i, dek) {
		xa_erase_irq(&fd->stale_deks, i);
		fake_dek_free(dek);
	}
	xa_destroy(&fd->stale_deks);
	return n;
}

/**
 * fake_crypto_pd_busy() - whether a DEK is in a PD
 * @fd: the fake
 * @pdn: the PD
 *
 * A DEK names its PD for good (fake_crypto_bind() checks it against the
 * mkey's): firmware refuses to free a PD that an object still uses, and so
 * a PD number is never reused under a live DEK.
 *
 * Context: cmd_lock held (DEKs come and go only under it).
 * Return: true when a DEK of @pdn exists.
 */
bool fake_crypto_pd_busy(struct mlx5_umr_fake *fd, u32 pdn)
{
	struct fake_dek *dek;
	unsigned long i;

	xa_for_each(&fd->deks, i, dek)
		if (dek->pdn == pdn)
			return true;
	return false;
}

/**
 * fake_crypto_uid_busy() - whether a DEK belongs to a user context
 * @fd: the fake
 * @uid: the context's uid
 *
 * Context: cmd_lock held.
 * Return: true when a DEK of @uid exists.
 */
bool fake_crypto_uid_busy(struct mlx5_umr_fake *fd, u16 uid)
{
	struct fake_dek *dek;
	unsigned long i;

	xa_for_each(&fd->deks, i, dek)
		if (dek->uid == uid)
			return true;
	return false;
}

bool fake_mkey_crypto(const struct fake_mkey *mk)
{
	return MLX5_GET(mlx5_umr_mkc_crypto, mk->mkc, crypto_en) ==
	       MLX5_UMR_MKC_CRYPTO_ENABLED;
}

static u32 fake_du_size(u8 sel)
{
	switch (sel) {
	case MLX5_UMR_BS_SELECTOR_512:
		return 512;
	case MLX5_UMR_BS_SELECTOR_520:
		return 520;
	case MLX5_UMR_BS_SELECTOR_4096:
		return 4096;
	case MLX5_UMR_BS_SELECTOR_4160:
		return 4160;
	case MLX5_UMR_BS_SELECTOR_4048:
		return 4048;
	default:
		return 0;
	}
}

/* tweak += n, the 16 bytes read as one little-endian 128-bit number */
static void fake_tweak_add(u8 tweak[16], u64 n)
{
	unsigned int i;

	for (i = 0; i < 16 && n; i++) {
		n += tweak[i];
		tweak[i] = n & 0xff;
		n >>= 8;
	}
}

static int fake_xts_unit(struct crypto_sync_skcipher *tfm, u8 *data,
			 u32 len, const u8 tweak[16], bool encrypt)
{
	SYNC_SKCIPHER_REQUEST_ON_STACK(req, tfm);
	struct scatterlist sg;
	u8 iv[16];
	int err;

	memcpy(iv, tweak, sizeof(iv));
	sg_init_one(&sg, data, len);
	skcipher_request_set_sync_tfm(req, tfm);
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, &sg, &sg, len, iv);
	err = encrypt ? crypto_skcipher_encrypt(req) :
			crypto_skcipher_decrypt(req);
	skcipher_request_zero(req);
	return err;
}

/**
 * fake_xts_run() - encrypt or decrypt whole data units in place
 * @x: the bound BSF
 * @data: @len bytes in the linear map (not vmalloc()ed)
 * @len: a multiple of @x->du
 * @unit0: the number of the first data unit: its tweak is @x->tweak +
 *	@unit0, each next one's one more
 * @encrypt: else decrypt
 *
 * Return: 0 or the cipher's error.
 */
int fake_xts_run(const struct fake_xts *x, u8 *data, u64 len, u64 unit0,
		 bool encrypt)
{
	u8 tweak[16];
	u64 done;
	int err = 0;

	memcpy(tweak, x->tweak, sizeof(tweak));
	fake_tweak_add(tweak, unit0);
	for (done = 0; done < len && !err; done += x->du) {
		err = fake_xts_unit(x->tfm, data + done, x->du, tweak, encrypt);
		fake_tweak_add(tweak, 1);
	}
	return err;
}

/**
 * fake_crypto_units_ok() - whether the engine takes an access of @len
 *	bytes of crypto stream
 * @fd: the fake
 * @len: bytes the access moves through the engine
 * @du: the data unit
 *
 * A single-block engine does one data unit per mkey (rdma-core qp.c
 * crypto_umr_wqe_finalize() refuses a longer mkey there; SPDK's lib/mlx5
 * posts one UMR per block on such devices): an access spanning two is
 * refused.
 * Return: true when it may run.
 */
bool fake_crypto_units_ok(const struct mlx5_umr_fake *fd, u64 len, u32 du)
{
	return fd->caps.crypto != MLX5_UMR_FAKE_CRYPTO_SINGLE_LE || len <= du;
}

#define ERR_BAD		fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, \
				     MLX5_UMR_FAKE_VS_BSF_BAD)

/**
 * fake_crypto_decode() - check a crypto BSF's fields
 * @fd: the fake (its crypto profile)
 * @b: the BSF
 * @in_pair: it follows a signature BSF
 * @x: receives data unit, order and tweak (not the DEK)
 *
 * As rdma-core's mlx5_umr_fill_crypto_bsf() (providers/mlx5/qp.c) writes
 * it: size field WITH_INLINE alone, SIG_AND_CRYPTO after a signature BSF
 * (since rdma-core b38f3439a983 "mlx5: Adjust Crypto BSF size if signature
 * is used", v42: WITH_INLINE there "will obstruct crypto traffic in more
 * recent HCA's such as CX6Dx and onwards"; SPDK's pair encoder writes
 * SIG_AND_CRYPTO too), type crypto, a known order, standard AES-XTS, a
 * data unit size of bs_to_bs_selector(), a 24-bit DEK number, every
 * reserved byte zero. On a big-endian-tweak device (profile MULTI_BE) the
 * tweak is a big-endian number (rdma-core dd8a5576c06a byte-reverses it
 * there): @x gets it little endian, as xts(aes) takes its IV.
 * Return: 0, or fake_wqe_err() of a malformed BSF.
 */
int fake_crypto_decode(const struct mlx5_umr_fake *fd,
		       const struct mlx5_umr_crypto_bsf *b, bool in_pair,
		       struct fake_xts *x)
{
	unsigned int i;

	memset(x, 0, sizeof(*x));
	if (b->bsf_size_type != (in_pair ? MLX5_UMR_CRYPTO_BSF_IN_PAIR :
				 MLX5_UMR_CRYPTO_BSF_ALONE) ||
	    b->enc_order > MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY ||
	    b->rsvd0 || b->enc_standard != MLX5_UMR_ENC_STANDARD_AES_XTS ||
	    memchr_inv(b->rsvd1, 0, sizeof(b->rsvd1)) ||
	    memchr_inv(b->rsvd2, 0, sizeof(b->rsvd2)) ||
	    memchr_inv(b->rsvd3, 0, sizeof(b->rsvd3)) ||
	    be32_to_cpu(b->dek_pointer) & ~MLX5_UMR_CRYPTO_DEK_PTR_MASK)
		return ERR_BAD;
	x->du = fake_du_size(b->bs_pointer);
	if (!x->du)
		return ERR_BAD;
	x->order = b->enc_order;
	if (fd->caps.crypto == MLX5_UMR_FAKE_CRYPTO_MULTI_BE)
		for (i = 0; i < sizeof(x->tweak); i++)
			x->tweak[i] = b->xts_init_tweak[sizeof(x->tweak) - 1 - i];
	else
		memcpy(x->tweak, b->xts_init_tweak, sizeof(x->tweak));
	return 0;
}

/**
 * fake_crypto_bind() - the DEK a decoded crypto BSF names, as an access
 *	finds it
 * @fd: the fake
 * @mk: the mkey
 * @b: the BSF
 * @x: decoded by fake_crypto_decode(); receives the DEK
 *
 * The key is the one the device cached for the DEK's number: that of a
 * destroyed DEK it still holds (fake_dek_destroy()) until SYNC_CRYPTO.
 *
 * Context: fd->lock held.
 * Return: FAKE_X_OK, FAKE_X_KEY (no such DEK, or another keytag) or
 * FAKE_X_PD (a DEK of another PD).
 */
int fake_crypto_bind(struct mlx5_umr_fake *fd, const struct fake_mkey *mk,
		     const struct mlx5_umr_crypto_bsf *b, struct fake_xts *x)
{
	u32 id = be32_to_cpu(b->dek_pointer) & MLX5_UMR_CRYPTO_DEK_PTR_MASK;
	struct fake_dek *dek, *cached;

	lockdep_assert_held(&fd->lock);
	dek = xa_load(&fd->deks, id);
	if (!dek)
		return FAKE_X_KEY;
	if (dek->pdn != MLX5_GET(mkc, mk->mkc, pd))
		return FAKE_X_PD;
	if (dek->has_keytag &&
	    memcmp(dek->keytag, b->keytag, sizeof(dek->keytag)))
		return FAKE_X_KEY;
	cached = xa_load(&fd->stale_deks, id);
	x->dek = dek;
	x->tfm = cached ? cached->tfm : dek->tfm;
	dek->used = true;
	return FAKE_X_OK;
}

/**
 * fake_crypto_xfer() - an access through a crypto mkey
 * @fd: the fake
 * @mk: the mkey, with crypto_en, not free
 * @key: its key as the accessor named it
 * @offset: byte offset from its start_addr: a whole number of data units
 * @buf: the wire side: source (@write) or destination, @len bytes
 * @len: a whole number of data units
 * @write: the data arrives from the wire (RX), else leaves memory (TX)
 * @remote: the key is used as an rkey
 * @pdn: as fake_access()
 * @out: as fake_sig_xfer(), for an mkey with a signature BSF too
 *
 * A signature BSF first (size field SIG_AND_CRYPTO) makes it a pair:
 * fake_sig_crypto_xfer(). Alone, memory holds ciphertext unless enc_order
 * says the wire does, every data unit k uses the tweak
 * xts_init_tweak + offset / size + k, and the access ends within the BSF's
 * raw_data_size (rdma-core and the service write all ones).
 *
 * Context: fd->lock held.
 * Return: FAKE_X_OK or the violation; on a violation no byte was moved.
 */
int fake_crypto_xfer(struct mlx5_umr_fake *fd, struct fake_mkey *mk, u32 key,
		     u64 offset, u8 *buf, size_t len, bool write, bool remote,
		     u32 pdn, struct mlx5_umr_test_xfer_out *out)
{
	const struct mlx5_umr_crypto_bsf *b;
	struct fake_xts x;
	bool wire_enc, encrypt;
	u8 *bounce;
	u64 va, done;
	u32 rds;
	int err;

	lockdep_assert_held(&fd->lock);
	if (!MLX5_GET(mkc, mk->mkc, bsf_en) || mk->bsf_oct < 4)
		return FAKE_X_MODE;
	b = (const void *)mk->bsf;
	if ((b->bsf_size_type & MLX5_UMR_BSF_TYPE_MASK) !=
	    MLX5_UMR_BSF_TYPE_CRYPTO)
		return fake_sig_crypto_xfer(fd, mk, key, offset, buf, len,
					    write, remote, pdn, out);
	if (fake_crypto_decode(fd, b, false, &x))
		return FAKE_X_MODE;
	err = fake_crypto_bind(fd, mk, b, &x);
	if (err)
		return err;
	if (offset % x.du || len % x.du || !fake_crypto_units_ok(fd, len, x.du))
		return FAKE_X_BOUNDS;
	/* the data bytes the BSF lets the mkey move, as fake_sig_xfer() */
	rds = be32_to_cpu(b->raw_data_size);
	if (offset > rds || len > rds - offset)
		return FAKE_X_BOUNDS;

	va = MLX5_GET64(mkc, mk->mkc, start_addr) + offset;
	err = fake_access_crypto(fd, key, va, write ? NULL : buf, len, write,
				 remote, pdn, true);
	if (err || !len)
		return err;
	bounce = kmalloc(x.du, GFP_ATOMIC);
	if (!bounce)
		return FAKE_X_NOMEM;
	wire_enc = x.order == MLX5_UMR_ENC_ORDER_ENCRYPTED_WIRE_SIGNATURE ||
		   x.order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE;
	/* TX encrypts towards an encrypted wire; RX does the opposite */
	encrypt = write != wire_enc;
	/* through a linear bounce: @buf may be vmalloc()ed */
	for (done = 0; done < len; done += x.du) {
		memcpy(bounce, buf + done, x.du);
		err = fake_xts_run(&x, bounce, x.du, div_u64(offset + done, x.du),
				   encrypt);
		if (err)
			break;
		if (write)
			err = fake_access_crypto(fd, key, va + done, bounce,
						 x.du, true, remote, pdn, true);
		else
			memcpy(buf + done, bounce, x.du);
		if (err)
			break;
	}
	kfree_sensitive(bounce);
	return err ? FAKE_X_FAULT : FAKE_X_OK;
}
