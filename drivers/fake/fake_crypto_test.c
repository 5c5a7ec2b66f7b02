// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the fake HCA's DEK objects and the AES-XTS data path of crypto
 * mkeys. Known answers are IEEE Std 1619-2007 Annex B (XTS-AES vectors 4,
 * XTS-AES-128, and 10, XTS-AES-256; both 512-byte data units of the bytes
 * 0x00..0xff twice), never the fake's own output. Every mailbox, mkey and
 * UMR (with its crypto BSF) is built by hand with the kernel's mlx5
 * structs and include/linux/mlx5_umr_ifc.h, independently of the service.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/kernel.h>
#include <linux/mlx5_umr_ifc.h>
#include <linux/mlx5_umr_compat.h>

#include <linux/crc-t10dif.h>
#include <crypto/skcipher.h>

#include "fake_sig_kunit.h"
#include "xts_vectors.h"

#define DU	512

/* IEEE 1619-2007 Annex B, vector 10: data unit sequence number 0xff, 512-bit key */
static const u8 xts_v10_key[64] = {
	0x27, 0x18, 0x28, 0x18, 0x28, 0x45, 0x90, 0x45,
	0x23, 0x53, 0x60, 0x28, 0x74, 0x71, 0x35, 0x26,
	0x62, 0x49, 0x77, 0x57, 0x24, 0x70, 0x93, 0x69,
	0x99, 0x59, 0x57, 0x49, 0x66, 0x96, 0x76, 0x27,
	0x31, 0x41, 0x59, 0x26, 0x53, 0x58, 0x97, 0x93,
	0x23, 0x84, 0x62, 0x64, 0x33, 0x83, 0x27, 0x95,
	0x02, 0x88, 0x41, 0x97, 0x16, 0x93, 0x99, 0x37,
	0x51, 0x05, 0x82, 0x09, 0x74, 0x94, 0x45, 0x92,
};

static const u8 xts_v10_ctext[512] = {
	0x1c, 0x3b, 0x3a, 0x10, 0x2f, 0x77, 0x03, 0x86,
	0xe4, 0x83, 0x6c, 0x99, 0xe3, 0x70, 0xcf, 0x9b,
	0xea, 0x00, 0x80, 0x3f, 0x5e, 0x48, 0x23, 0x57,
	0xa4, 0xae, 0x12, 0xd4, 0x14, 0xa3, 0xe6, 0x3b,
	0x5d, 0x31, 0xe2, 0x76, 0xf8, 0xfe, 0x4a, 0x8d,
	0x66, 0xb3, 0x17, 0xf9, 0xac, 0x68, 0x3f, 0x44,
	0x68, 0x0a, 0x86, 0xac, 0x35, 0xad, 0xfc, 0x33,
	0x45, 0xbe, 0xfe, 0xcb, 0x4b, 0xb1, 0x88, 0xfd,
	0x57, 0x76, 0x92, 0x6c, 0x49, 0xa3, 0x09, 0x5e,
	0xb1, 0x08, 0xfd, 0x10, 0x98, 0xba, 0xec, 0x70,
	0xaa, 0xa6, 0x69, 0x99, 0xa7, 0x2a, 0x82, 0xf2,
	0x7d, 0x84, 0x8b, 0x21, 0xd4, 0xa7, 0x41, 0xb0,
	0xc5, 0xcd, 0x4d, 0x5f, 0xff, 0x9d, 0xac, 0x89,
	0xae, 0xba, 0x12, 0x29, 0x61, 0xd0, 0x3a, 0x75,
	0x71, 0x23, 0xe9, 0x87, 0x0f, 0x8a, 0xcf, 0x10,
	0x00, 0x02, 0x08, 0x87, 0x89, 0x14, 0x29, 0xca,
	0x2a, 0x3e, 0x7a, 0x7d, 0x7d, 0xf7, 0xb1, 0x03,
	0x55, 0x16, 0x5c, 0x8b, 0x9a, 0x6d, 0x0a, 0x7d,
	0xe8, 0xb0, 0x62, 0xc4, 0x50, 0x0d, 0xc4, 0xcd,
	0x12, 0x0c, 0x0f, 0x74, 0x18, 0xda, 0xe3, 0xd0,
	0xb5, 0x78, 0x1c, 0x34, 0x80, 0x3f, 0xa7, 0x54,
	0x21, 0xc7, 0x90, 0xdf, 0xe1, 0xde, 0x18, 0x34,
	0xf2, 0x80, 0xd7, 0x66, 0x7b, 0x32, 0x7f, 0x6c,
	0x8c, 0xd7, 0x55, 0x7e, 0x12, 0xac, 0x3a, 0x0f,
	0x93, 0xec, 0x05, 0xc5, 0x2e, 0x04, 0x93, 0xef,
	0x31, 0xa1, 0x2d, 0x3d, 0x92, 0x60, 0xf7, 0x9a,
	0x28, 0x9d, 0x6a, 0x37, 0x9b, 0xc7, 0x0c, 0x50,
	0x84, 0x14, 0x73, 0xd1, 0xa8, 0xcc, 0x81, 0xec,
	0x58, 0x3e, 0x96, 0x45, 0xe0, 0x7b, 0x8d, 0x96,
	0x70, 0x65, 0x5b, 0xa5, 0xbb, 0xcf, 0xec, 0xc6,
	0xdc, 0x39, 0x66, 0x38, 0x0a, 0xd8, 0xfe, 0xcb,
	0x17, 0xb6, 0xba, 0x02, 0x46, 0x9a, 0x02, 0x0a,
	0x84, 0xe1, 0x8e, 0x8f, 0x84, 0x25, 0x20, 0x70,
	0xc1, 0x3e, 0x9f, 0x1f, 0x28, 0x9b, 0xe5, 0x4f,
	0xbc, 0x48, 0x14, 0x57, 0x77, 0x8f, 0x61, 0x60,
	0x15, 0xe1, 0x32, 0x7a, 0x02, 0xb1, 0x40, 0xf1,
	0x50, 0x5e, 0xb3, 0x09, 0x32, 0x6d, 0x68, 0x37,
	0x8f, 0x83, 0x74, 0x59, 0x5c, 0x84, 0x9d, 0x84,
	0xf4, 0xc3, 0x33, 0xec, 0x44, 0x23, 0x88, 0x51,
	0x43, 0xcb, 0x47, 0xbd, 0x71, 0xc5, 0xed, 0xae,
	0x9b, 0xe6, 0x9a, 0x2f, 0xfe, 0xce, 0xb1, 0xbe,
	0xc9, 0xde, 0x24, 0x4f, 0xbe, 0x15, 0x99, 0x2b,
	0x11, 0xb7, 0x7c, 0x04, 0x0f, 0x12, 0xbd, 0x8f,
	0x6a, 0x97, 0x5a, 0x44, 0xa0, 0xf9, 0x0c, 0x29,
	0xa9, 0xab, 0xc3, 0xd4, 0xd8, 0x93, 0x92, 0x72,
	0x84, 0xc5, 0x87, 0x54, 0xcc, 0xe2, 0x94, 0x52,
	0x9f, 0x86, 0x14, 0xdc, 0xd2, 0xab, 0xa9, 0x91,
	0x92, 0x5f, 0xed, 0xc4, 0xae, 0x74, 0xff, 0xac,
	0x6e, 0x33, 0x3b, 0x93, 0xeb, 0x4a, 0xff, 0x04,
	0x79, 0xda, 0x9a, 0x41, 0x0e, 0x44, 0x50, 0xe0,
	0xdd, 0x7a, 0xe4, 0xc6, 0xe2, 0x91, 0x09, 0x00,
	0x57, 0x5d, 0xa4, 0x01, 0xfc, 0x07, 0x05, 0x9f,
	0x64, 0x5e, 0x8b, 0x7e, 0x9b, 0xfd, 0xef, 0x33,
	0x94, 0x30, 0x54, 0xff, 0x84, 0x01, 0x14, 0x93,
	0xc2, 0x7b, 0x34, 0x29, 0xea, 0xed, 0xb4, 0xed,
	0x53, 0x76, 0x44, 0x1a, 0x77, 0xed, 0x43, 0x85,
	0x1a, 0xd7, 0x7f, 0x16, 0xf5, 0x41, 0xdf, 0xd2,
	0x69, 0xd5, 0x0d, 0x6a, 0x5f, 0x14, 0xfb, 0x0a,
	0xab, 0x1c, 0xbb, 0x4c, 0x15, 0x50, 0xbe, 0x97,
	0xf7, 0xab, 0x40, 0x66, 0x19, 0x3c, 0x4c, 0xaa,
	0x77, 0x3d, 0xad, 0x38, 0x01, 0x4b, 0xd2, 0x09,
	0x2f, 0xa7, 0x55, 0xc8, 0x24, 0xbb, 0x5e, 0x54,
	0xc4, 0xf3, 0x6f, 0xfd, 0xa9, 0xfc, 0xea, 0x70,
	0xb9, 0xc6, 0xe6, 0x93, 0xe1, 0x48, 0xc1, 0x51,
};

static void xts_ptext(u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = i & 0xff;
}

/*
 * The reference AES-XTS of these tests, the kernel's xts(aes) run here
 * (proven on vector 4 by pair_ref_proof()): one data unit of @du bytes at
 * @buf, in place, with key @key (@klen bytes) and the tweak @iv as is.
 */
static void ref_xts_unit(struct kunit *test, const u8 *key, size_t klen,
			 u8 *buf, u32 du, const u8 iv[16], bool enc)
{
	struct crypto_sync_skcipher *tfm;
	struct scatterlist sg;
	u8 tweak[16];
	int err;

	tfm = crypto_alloc_sync_skcipher("xts(aes)", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(tfm));
	err = crypto_sync_skcipher_setkey(tfm, key, klen);
	if (!err) {
		SYNC_SKCIPHER_REQUEST_ON_STACK(req, tfm);

		memcpy(tweak, iv, sizeof(tweak));
		sg_init_one(&sg, buf, du);
		skcipher_request_set_sync_tfm(req, tfm);
		skcipher_request_set_callback(req, 0, NULL, NULL);
		skcipher_request_set_crypt(req, &sg, &sg, du, tweak);
		err = enc ? crypto_skcipher_encrypt(req) :
			    crypto_skcipher_decrypt(req);
		skcipher_request_zero(req);
	}
	crypto_free_sync_skcipher(tfm);
	KUNIT_ASSERT_EQ(test, err, 0);
}

/*
 * The reference over @len bytes of data units of @du, unit k with the
 * tweak @tweak0 + k in the low 64 bits (little-endian), the rest zero.
 */
static void ref_xts_key(struct kunit *test, const u8 *key, size_t klen,
			u8 *buf, u32 len, u32 du, u64 tweak0, bool enc)
{
	u8 iv[16] = {};
	u32 o;

	for (o = 0; o < len; o += du) {
		put_unaligned_le64(tweak0 + o / du, iv);
		ref_xts_unit(test, key, klen, buf + o, du, iv, enc);
	}
}

/* the reference with vector 4's key */
static void ref_xts(struct kunit *test, u8 *buf, u32 len, u32 du, u64 tweak0,
		    bool enc)
{
	ref_xts_key(test, xts_v4_key, sizeof(xts_v4_key), buf, len, du,
		    tweak0, enc);
}

struct ct {
	struct ft *ft;
	struct mlx5_umr_dma_buf mr;
	u32 mr_key;
	u32 key;	/* the crypto mkey */
	u32 dek;
};

static int dek_cmd(struct ft *ft, const u8 *key, size_t klen, u8 size_sel,
		   u8 purpose, const u8 *keytag, u32 pdn, u32 *id, u32 *out)
{
	int inlen = MLX5_ST_SZ_BYTES(mlx5_umr_create_dek_in);
	void *in = kunit_kzalloc(ft->test, inlen, GFP_KERNEL);
	void *obj;
	u8 *kp;
	int err;

	KUNIT_ASSERT_NOT_NULL(ft->test, in);
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY);
	obj = MLX5_ADDR_OF(mlx5_umr_create_dek_in, in, dek);
	MLX5_SET(mlx5_umr_dek, obj, key_size, size_sel);
	MLX5_SET(mlx5_umr_dek, obj, key_purpose, purpose);
	MLX5_SET(mlx5_umr_dek, obj, pd, pdn);
	MLX5_SET(mlx5_umr_dek, obj, has_keytag, !!keytag);
	kp = MLX5_ADDR_OF(mlx5_umr_dek, obj, key);
	memcpy(kp, key, klen);
	if (keytag)
		memcpy(kp + klen, keytag, 8);
	memset(out, 0, MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	err = ft_cmd(ft, in, inlen, out,
		     MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	*id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	memzero_explicit(kp, klen);
	return err;
}

static u32 dek_create(struct ft *ft, const u8 *key, size_t klen,
		      const u8 *keytag)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	u32 id;

	KUNIT_ASSERT_EQ(ft->test,
			dek_cmd(ft, key, klen, klen == 64 ?
				MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_256 :
				MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_128,
				MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS, keytag,
				ft->pdn, &id, out), 0);
	KUNIT_ASSERT_NE(ft->test, id, 0U);
	return id;
}

static int dek_destroy(struct ft *ft, u32 id, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {};

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_DESTROY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, id);
	memset(out, 0, MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	return ft_cmd(ft, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
}

/* SYNC_CRYPTO of @type (6.12 lib/crypto.c mlx5_crypto_cmd_sync_crypto()) */
static int dek_sync(struct ft *ft, u16 type, u32 *out)
{
	u32 in[MLX5_ST_SZ_DW(mlx5_umr_sync_crypto_in)] = {};

	MLX5_SET(mlx5_umr_sync_crypto_in, in, opcode,
		 MLX5_UMR_CMD_OP_SYNC_CRYPTO);
	MLX5_SET(mlx5_umr_sync_crypto_in, in, crypto_type, type);
	memset(out, 0, MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	return ft_cmd(ft, in, sizeof(in), out,
		      MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
}

/*
 * CREATE_MKEY of a free KLM mkey with crypto_en @en and room for @oct BSF
 * octowords (bsf_en with any room)
 */
static int crypto_mkey_cmd(struct ft *ft, u8 en, u32 oct, u32 *out)
{
	int inlen = MLX5_ST_SZ_BYTES(create_mkey_in);
	void *in = kunit_kzalloc(ft->test, inlen, GFP_KERNEL);
	void *c;

	KUNIT_ASSERT_NOT_NULL(ft->test, in);
	MLX5_SET(create_mkey_in, in, opcode, MLX5_CMD_OP_CREATE_MKEY);
	c = MLX5_ADDR_OF(create_mkey_in, in, memory_key_mkey_entry);
	MLX5_SET(mkc, c, access_mode_1_0, MLX5_MKC_ACCESS_MODE_KLMS);
	MLX5_SET(mkc, c, umr_en, 1);
	MLX5_SET(mkc, c, free, 1);
	MLX5_SET(mkc, c, pd, ft->pdn);
	MLX5_SET(mkc, c, qpn, 0xffffff);
	MLX5_SET(mkc, c, bsf_en, !!oct);
	MLX5_SET(mkc, c, bsf_octword_size, oct);
	MLX5_SET(mkc, c, translations_octword_size, 4);
	MLX5_SET(mlx5_umr_mkc_crypto, c, crypto_en, en);
	memset(out, 0, MLX5_ST_SZ_BYTES(create_mkey_out));
	return ft_cmd(ft, in, inlen, out, MLX5_ST_SZ_BYTES(create_mkey_out));
}

/* a crypto mkey with room for @oct BSF octowords */
static u32 crypto_mkey_oct(struct ft *ft, u32 oct)
{
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)];

	KUNIT_ASSERT_EQ(ft->test, crypto_mkey_cmd(ft, MLX5_UMR_MKC_CRYPTO_ENABLED,
						  oct, out), 0);
	return MLX5_GET(create_mkey_out, out, mkey_index) << 8;
}

/* a free KLM mkey with crypto_en and room for one crypto BSF */
static u32 crypto_mkey(struct ft *ft)
{
	return crypto_mkey_oct(ft, MLX5_MKEY_BSF_OCTO_SIZE);
}

/*
 * The crypto generation of the suite running (suites run one after the
 * other; each suite's init sets it): every fake of a case is of it.
 */
static enum mlx5_umr_fake_crypto fct_profile = MLX5_UMR_FAKE_CRYPTO_MULTI_LE;

static struct ft *fct_ft(struct kunit *test)
{
	struct mlx5_umr_fake_attr attr;

	mlx5_umr_fake_attr_init(&attr);
	mlx5_umr_fake_set_crypto(&attr.caps, fct_profile);
	return ft_setup(test, MLX5_UMR_FAKE_F_SYNC, &attr.caps, 6, 6);
}

/*
 * The 128-bit little-endian tweak @le into @b as the generation reads it:
 * byte-reversed for a big-endian-tweak engine (rdma-core dd8a5576c06a).
 */
static void bsf_tweak(struct mlx5_umr_crypto_bsf *b, const u8 le[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		b->xts_init_tweak[i] = fct_profile ==
				       MLX5_UMR_FAKE_CRYPTO_MULTI_BE ?
				       le[15 - i] : le[i];
}

/* the crypto BSF as rdma-core's mlx5_umr_fill_crypto_bsf() writes it */
static void bsf_fill(struct mlx5_umr_crypto_bsf *b, u8 order, u8 bs,
		     u64 tweak, u32 dek, const u8 *keytag)
{
	u8 le[16] = {};

	memset(b, 0, sizeof(*b));
	b->bsf_size_type = MLX5_UMR_BSF_SIZE_WITH_INLINE <<
			   MLX5_UMR_BSF_SIZE_SHIFT | MLX5_UMR_BSF_TYPE_CRYPTO;
	b->enc_order = order;
	b->enc_standard = MLX5_UMR_ENC_STANDARD_AES_XTS;
	b->raw_data_size = cpu_to_be32(U32_MAX);
	b->bs_pointer = bs;
	put_unaligned_le64(tweak, le);
	bsf_tweak(b, le);
	b->dek_pointer = cpu_to_be32(dek);
	if (keytag)
		memcpy(b->keytag, keytag, 8);
}

/*
 * A UMR into @w: the mkey covers @len bytes of the MR, with @oct
 * octowords of BSF from @bsf. Return: its size.
 */
static size_t crypto_umr_oct(struct ct *t, struct ft_umr *w, u32 len,
			     const void *bsf, u16 oct)
{
	struct mlx5_klm klm = {};
	size_t size;

	memset(w, 0, sizeof(*w));
	ft_klm(&klm, len, t->mr_key, 0x10000);
	size = ft_umr_init(w, t->key, FT_RR | FT_RW, len, &klm, sizeof(klm));
	w->uc.flags &= ~MLX5_UMR_CHECK_NOT_FREE;
	w->uc.bsf_octowords = cpu_to_be16(oct);
	w->uc.mkey_mask |= cpu_to_be64(MLX5_MKEY_MASK_BSF_EN);
	MLX5_SET(mkc, &w->mkey, bsf_en, 1);
	memcpy(w->xlt + 64, bsf, oct * 16);
	return size + oct * 16;
}

/* UMR: the mkey covers @len bytes of the MR, with crypto BSF @b */
static void crypto_umr(struct ct *t, u32 len,
		       const struct mlx5_umr_crypto_bsf *b)
{
	struct ft_umr *w = kunit_kzalloc(t->ft->test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(t->ft->test, w);
	ft_umr_ok(t->ft, w, crypto_umr_oct(t, w, len, b,
					   MLX5_MKEY_BSF_OCTO_SIZE));
}

static struct ct *ct_setup(struct kunit *test, const u8 *key, size_t klen,
			   const u8 *keytag)
{
	struct ct *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->ft = fct_ft(test);
	t->mr_key = ft_mr(t->ft, &t->mr, 4 * DU, 0x10000, FT_LW);
	t->key = crypto_mkey(t->ft);
	t->dek = dek_create(t->ft, key, klen, keytag);
	return t;
}

/* destroy @t's DEK, mkeys and MR, leaving the fake */
static void ct_put(struct ct *t)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	struct mlx5_umr_fake_counters cnt;

	KUNIT_EXPECT_EQ(t->ft->test, dek_destroy(t->ft, t->dek, out), 0);
	mlx5_umr_fake_get_counters(t->ft->fake, &cnt);
	KUNIT_EXPECT_EQ(t->ft->test, cnt.deks, 0U);
	ft_del_mkey(t->ft, t->key);
	ft_del_mkey(t->ft, t->mr_key);
	t->ft->hca->ops->free_dma_buf(t->ft->hca, &t->mr);
}

/* ct_put(), then the fake, proving nothing was left (ft_teardown()) */
static void ct_teardown(struct ct *t)
{
	ct_put(t);
	ft_teardown(t->ft);
}

/*
 * Memory holds ciphertext (encrypt_on_tx false: ENCRYPTED_RAW_MEMORY): a
 * write from the wire lands encrypted as vector 4 says, a read returns the
 * plaintext.
 */
static void fake_crypto_xts128_vector4(struct kunit *test)
{
	struct ct *t = ct_setup(test, xts_v4_key, sizeof(xts_v4_key), NULL);
	struct mlx5_umr_crypto_bsf b;
	u8 *pt = kunit_kzalloc(test, DU, GFP_KERNEL);
	u8 *got = kunit_kzalloc(test, DU, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, got);
	xts_ptext(pt, DU);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, NULL);
	crypto_umr(t, DU, &b);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t->mr.cpu, xts_v4_ctext, DU), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, got,
						 DU, false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got, pt, DU), 0);
	ct_teardown(t);
}

/*
 * Vector 10 (XTS-AES-256, sequence number 0xff) through the tweak
 * increment: initial tweak 0xfe, the vector in the second data unit,
 * written whole and then alone at offset 512.
 */
static void fake_crypto_xts256_vector10(struct kunit *test)
{
	struct ct *t = ct_setup(test, xts_v10_key, sizeof(xts_v10_key), NULL);
	struct mlx5_umr_crypto_bsf b;
	u8 *pt = kunit_kzalloc(test, 2 * DU, GFP_KERNEL);
	u8 *mem = t->mr.cpu;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	xts_ptext(pt + DU, DU);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0xfe, t->dek, NULL);
	crypto_umr(t, 2 * DU, &b);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 2 * DU, true, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(mem + DU, xts_v10_ctext, DU), 0);
	memset(mem, 0, 2 * DU);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, DU,
						 pt + DU, DU, true, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(mem + DU, xts_v10_ctext, DU), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mem, 0, DU));
	ct_teardown(t);
}

/* encrypt_on_tx: plaintext memory is read out as vector 4's ciphertext */
static void fake_crypto_encrypt_on_tx(struct kunit *test)
{
	struct ct *t = ct_setup(test, xts_v4_key, sizeof(xts_v4_key), NULL);
	struct mlx5_umr_crypto_bsf b;
	u8 *got = kunit_kzalloc(test, DU, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, got);
	xts_ptext(t->mr.cpu, DU);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, NULL);
	crypto_umr(t, DU, &b);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, got,
						 DU, false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got, xts_v4_ctext, DU), 0);
	/* and the ciphertext written from the wire lands as plaintext */
	memset(t->mr.cpu, 0, DU);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, got,
						 DU, true, true), 0);
	xts_ptext(got, DU);
	KUNIT_EXPECT_EQ(test, memcmp(t->mr.cpu, got, DU), 0);
	ct_teardown(t);
}

static int xfer(struct ct *t, void *buf, u32 len, bool write)
{
	return mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, buf, len, write,
				  true);
}

/*
 * Every data unit size and order, odd sizes included: two data units
 * written land as the reference AES-XTS of them (encrypted when memory
 * holds ciphertext, else decrypted), and read back as written; the second
 * alone, at offset one data unit, lands as the reference's second unit
 * (its own tweak) with the first untouched, and reads back.
 */
static void fake_crypto_round_trip(struct kunit *test)
{
	static const struct { u8 sel; u32 du; } sizes[] = {
		{ MLX5_UMR_BS_SELECTOR_512, 512 },
		{ MLX5_UMR_BS_SELECTOR_520, 520 },
		{ MLX5_UMR_BS_SELECTOR_4048, 4048 },
		{ MLX5_UMR_BS_SELECTOR_4096, 4096 },
		{ MLX5_UMR_BS_SELECTOR_4160, 4160 },
	};
	struct ct *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct mlx5_umr_crypto_bsf b;
	u32 len = 2 * 4160;
	u8 *pt, *got, *ref, *mem;
	unsigned int i, o;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->ft = fct_ft(test);
	t->mr_key = ft_mr(t->ft, &t->mr, 4 * PAGE_SIZE, 0x10000, FT_LW);
	t->key = crypto_mkey(t->ft);
	t->dek = dek_create(t->ft, xts_v10_key, sizeof(xts_v10_key), NULL);
	pt = kunit_kmalloc(test, len, GFP_KERNEL);
	got = kunit_kmalloc(test, len, GFP_KERNEL);
	ref = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	mem = t->mr.cpu;
	get_random_bytes(pt, len);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		for (o = 0; o < 4; o++) {
			u32 du = sizes[i].du, n = 2 * du;
			bool mem_enc =
				o == MLX5_UMR_ENC_ORDER_ENCRYPTED_MEMORY_SIGNATURE ||
				o == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY;

			memcpy(ref, pt, n);
			ref_xts_key(test, xts_v10_key, sizeof(xts_v10_key), ref,
				    n, du, 0x1234 + i, mem_enc);
			bsf_fill(&b, o, sizes[i].sel, 0x1234 + i, t->dek, NULL);
			crypto_umr(t, n, &b);
			KUNIT_ASSERT_EQ(test, xfer(t, pt, n, true), 0);
			KUNIT_EXPECT_EQ_MSG(test, memcmp(mem, ref, n), 0,
					    "data unit %u, order %u", du, o);
			memset(got, 0, n);
			KUNIT_ASSERT_EQ(test, xfer(t, got, n, false), 0);
			KUNIT_EXPECT_EQ(test, memcmp(got, pt, n), 0);

			memset(mem, 0, n);
			KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake,
								 t->key, du,
								 pt + du, du,
								 true, true),
					0);
			KUNIT_EXPECT_TRUE(test, !memchr_inv(mem, 0, du));
			KUNIT_EXPECT_EQ_MSG(test, memcmp(mem + du, ref + du, du),
					    0, "data unit %u, order %u, offset",
					    du, o);
			memset(got, 0, du);
			KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake,
								 t->key, du,
								 got, du,
								 false, true),
					0);
			KUNIT_EXPECT_EQ(test, memcmp(got, pt + du, du), 0);
		}
	}
	ct_teardown(t);
}

/*
 * The tweak is one 128-bit little-endian number: from 15 bytes of 0xff
 * (0x00ff..ff) the second data unit's tweak carries through every byte
 * into the last (0x0100..00). Both units against the reference with the
 * two tweaks written out, whole and the second alone.
 */
static void fake_crypto_tweak_carry(struct kunit *test)
{
	struct ct *t = ct_setup(test, xts_v4_key, sizeof(xts_v4_key), NULL);
	u8 *pt = kunit_kmalloc(test, 2 * DU, GFP_KERNEL);
	u8 *want = kunit_kmalloc(test, 2 * DU, GFP_KERNEL);
	u8 *got = kunit_kzalloc(test, 2 * DU, GFP_KERNEL);
	u8 tweak0[16], tweak1[16] = {};
	struct mlx5_umr_crypto_bsf b;
	u8 *mem = t->mr.cpu;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, got);
	memset(tweak0, 0xff, 15);
	tweak0[15] = 0;
	tweak1[15] = 1;
	get_random_bytes(pt, 2 * DU);
	memcpy(want, pt, 2 * DU);
	ref_xts_unit(test, xts_v4_key, sizeof(xts_v4_key), want, DU, tweak0,
		     true);
	ref_xts_unit(test, xts_v4_key, sizeof(xts_v4_key), want + DU, DU,
		     tweak1, true);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, NULL);
	bsf_tweak(&b, tweak0);
	crypto_umr(t, 2 * DU, &b);
	KUNIT_ASSERT_EQ(test, xfer(t, pt, 2 * DU, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(mem, want, DU), 0);
	KUNIT_EXPECT_EQ(test, memcmp(mem + DU, want + DU, DU), 0);
	KUNIT_ASSERT_EQ(test, xfer(t, got, 2 * DU, false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got, pt, 2 * DU), 0);
	memset(mem, 0, 2 * DU);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, DU,
						 pt + DU, DU, true, true), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mem, 0, DU));
	KUNIT_EXPECT_EQ(test, memcmp(mem + DU, want + DU, DU), 0);
	ct_teardown(t);
}

/* A wrong key, a wrong tweak: neither gives vector 4's ciphertext. */
static void fake_crypto_wrong_key_tweak(struct kunit *test)
{
	struct ct *t = ct_setup(test, xts_v4_key, sizeof(xts_v4_key), NULL);
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	u8 *pt = kunit_kzalloc(test, DU, GFP_KERNEL);
	struct mlx5_umr_crypto_bsf b;
	u8 key[32];
	u32 other;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	xts_ptext(pt, DU);
	/* tweak 1 instead of 0 */
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 1, t->dek, NULL);
	crypto_umr(t, DU, &b);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	KUNIT_EXPECT_NE(test, memcmp(t->mr.cpu, xts_v4_ctext, 16), 0);
	KUNIT_EXPECT_NE(test, memcmp(t->mr.cpu, pt, 16), 0);
	/* key1 with one bit flipped, right tweak */
	memcpy(key, xts_v4_key, sizeof(key));
	key[0] ^= 1;
	other = dek_create(t->ft, key, sizeof(key), NULL);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, other, NULL);
	crypto_umr(t, DU, &b);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	KUNIT_EXPECT_NE(test, memcmp(t->mr.cpu, xts_v4_ctext, 16), 0);
	/* key2 (the tweak key) flipped */
	key[0] ^= 1;
	key[16] ^= 1;
	KUNIT_EXPECT_EQ(test, dek_destroy(t->ft, other, out), 0);
	other = dek_create(t->ft, key, sizeof(key), NULL);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, other, NULL);
	crypto_umr(t, DU, &b);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	KUNIT_EXPECT_NE(test, memcmp(t->mr.cpu, xts_v4_ctext, 16), 0);
	KUNIT_EXPECT_EQ(test, dek_destroy(t->ft, other, out), 0);
	ct_teardown(t);
}

/* keytag: a BSF with another tag cannot use the DEK */
static void fake_crypto_keytag(struct kunit *test)
{
	static const u8 tag[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const u8 bad[8] = { 1, 2, 3, 4, 5, 6, 7, 9 };
	struct ct *t = ct_setup(test, xts_v4_key, sizeof(xts_v4_key), tag);
	u8 *pt = kunit_kzalloc(test, DU, GFP_KERNEL);
	struct mlx5_umr_crypto_bsf b;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	xts_ptext(pt, DU);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, bad);
	crypto_umr(t, DU, &b);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(t->mr.cpu, 0, DU));
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, tag);
	crypto_umr(t, DU, &b);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t->mr.cpu, xts_v4_ctext, DU), 0);
	ct_teardown(t);
}

/*
 * Accesses the fake refuses, moving nothing: part of a data unit, a
 * destroyed DEK, a crypto mkey reached through another mkey. Then the
 * DEK cache: a new DEK takes the freed number at once, and until
 * SYNC_CRYPTO the device still uses the key it cached for that number.
 */
static void fake_crypto_refused(struct kunit *test)
{
	struct ct *t = ct_setup(test, xts_v4_key, sizeof(xts_v4_key), NULL);
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	u8 *pt = kunit_kzalloc(test, 2 * DU, GFP_KERNEL);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct mlx5_umr_crypto_bsf b;
	struct mlx5_klm klm = {};
	u8 key2[32];
	u32 outer, old;
	size_t size;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, w);
	memset(pt, 0x5a, 2 * DU);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, NULL);
	crypto_umr(t, 2 * DU, &b);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 16, pt,
						 DU, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU + 16, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	/* an indirect mkey over the crypto mkey */
	outer = ft_indirect(t->ft, 4);
	ft_klm(&klm, DU, t->key, 0);
	size = ft_umr_init(w, outer, FT_RR | FT_RW, DU, &klm, sizeof(klm));
	w->uc.flags &= ~MLX5_UMR_CHECK_NOT_FREE;
	ft_umr_ok(t->ft, w, size);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, outer, 0, pt,
						 DU, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(t->mr.cpu, 0, 2 * DU));
	ft_del_mkey(t->ft, outer);
	/* the DEK gone, the mkey that names it cannot move data */
	KUNIT_EXPECT_EQ(test, dek_destroy(t->ft, t->dek, out), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(t->mr.cpu, 0, 2 * DU));
	/* a new DEK (another key) gets the number; the old key is cached */
	old = t->dek;
	for (size = 0; size < sizeof(key2); size++)
		key2[size] = 0x40 + size;
	t->dek = dek_create(t->ft, key2, sizeof(key2), NULL);
	KUNIT_EXPECT_EQ(test, t->dek, old);
	xts_ptext(pt, DU);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t->mr.cpu, xts_v4_ctext, DU), 0);
	/* SYNC_CRYPTO of another key purpose only: still cached */
	KUNIT_EXPECT_EQ(test, dek_sync(t->ft, BIT(1), out), 0);
	memset(t->mr.cpu, 0, DU);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t->mr.cpu, xts_v4_ctext, DU), 0);
	/* after SYNC_CRYPTO the number names the new key */
	KUNIT_EXPECT_EQ(test, dek_sync(t->ft,
				       BIT(MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS),
				       out), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	memcpy(pt, t->mr.cpu, DU);
	ref_xts_key(test, key2, sizeof(key2), pt, DU, DU, 0, false);
	for (size = 0; size < DU; size++)
		KUNIT_ASSERT_EQ(test, pt[size], size & 0xff);
	ct_teardown(t);
}

/*
 * raw_data_size bounds an access through a lone crypto BSF as the
 * signature BSF's does (fake_sig_xfer()): up to it the data moves, past it
 * nothing does.
 */
static void fake_crypto_raw_data_size(struct kunit *test)
{
	struct ct *t = ct_setup(test, xts_v4_key, sizeof(xts_v4_key), NULL);
	u8 *pt = kunit_kzalloc(test, 4 * DU, GFP_KERNEL);
	struct mlx5_umr_crypto_bsf b;
	u8 *mem = t->mr.cpu;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	xts_ptext(pt, DU);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, NULL);
	b.raw_data_size = cpu_to_be32(2 * DU);
	crypto_umr(t, 4 * DU, &b);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 2 * DU, true, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(mem, xts_v4_ctext, DU), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mem + 2 * DU, 0, 2 * DU));
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, DU, pt,
						 DU, false, true), 0);
	memset(mem, 0, 4 * DU);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 3 * DU, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, DU, pt,
						 2 * DU, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 2 * DU,
						 pt, DU, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 2 * DU,
						 pt, DU, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mem, 0, 4 * DU));
	/* 0: not one data unit */
	b.raw_data_size = 0;
	crypto_umr(t, 4 * DU, &b);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mem, 0, 4 * DU));
	ct_teardown(t);
}

/**
 * struct crypto_rej - a lone crypto BSF the fake refuses at the UMR
 * @name: what is wrong
 * @pair: on an mkey with room for the pair (else for the crypto BSF)
 * @oct: bsf_octowords of the UMR
 * @off: byte of the BSF to change, or -1
 * @val: its new value
 */
struct crypto_rej {
	const char *name;
	bool pair;
	u16 oct;
	int off;
	u8 val;
};

#define CB(f)		offsetof(struct mlx5_umr_crypto_bsf, f)
#define CB_SIZE(s)	((s) << MLX5_UMR_BSF_SIZE_SHIFT)

static const struct crypto_rej crypto_rejs[] = {
	{ "size 0", false, 4, CB(bsf_size_type), MLX5_UMR_BSF_TYPE_CRYPTO },
	{ "size EXTENDED", false, 4, CB(bsf_size_type),
	  CB_SIZE(1) | MLX5_UMR_BSF_TYPE_CRYPTO },
	{ "size SIG_AND_CRYPTO without a signature BSF", false, 4,
	  CB(bsf_size_type),
	  CB_SIZE(MLX5_UMR_BSF_SIZE_SIG_AND_CRYPTO) | MLX5_UMR_BSF_TYPE_CRYPTO },
	{ "type signature", false, 4, CB(bsf_size_type),
	  CB_SIZE(MLX5_UMR_BSF_SIZE_WITH_INLINE) },
	{ "type 2", false, 4, CB(bsf_size_type),
	  CB_SIZE(MLX5_UMR_BSF_SIZE_WITH_INLINE) | 2 },
	{ "bit 4 of the size byte", false, 4, CB(bsf_size_type),
	  CB_SIZE(MLX5_UMR_BSF_SIZE_WITH_INLINE) | BIT(4) |
	  MLX5_UMR_BSF_TYPE_CRYPTO },
	{ "enc_order 4", false, 4, CB(enc_order), 4 },
	{ "reserved byte 2", false, 4, CB(rsvd0), 1 },
	{ "enc_standard 1", false, 4, CB(enc_standard), 1 },
	{ "data unit selector 0", false, 4, CB(bs_pointer), 0 },
	{ "data unit selector 5 (1 GiB)", false, 4, CB(bs_pointer), 5 },
	{ "data unit selector 7", false, 4, CB(bs_pointer), 7 },
	{ "reserved byte 9", false, 4, CB(rsvd1), 1 },
	{ "reserved byte 15", false, 4, CB(rsvd1) + 6, 0x80 },
	{ "DEK number over 24 bits", false, 4, CB(dek_pointer), 1 },
	{ "reserved byte 36", false, 4, CB(rsvd2), 1 },
	{ "reserved byte 63", false, 4, CB(rsvd3) + 15, 0x80 },
	{ "1 octoword", false, 1, -1, 0 },
	{ "2 octowords", false, 2, -1, 0 },
	{ "3 octowords", false, 3, -1, 0 },
	{ "a lone crypto BSF, 6 octowords", true, 6, -1, 0 },
	{ "a lone crypto BSF, 2 octowords", true, 2, -1, 0 },
};

static void crypto_rej_desc(const struct crypto_rej *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fake_crypto_bsf_refused, crypto_rejs, crypto_rej_desc);

/*
 * A UMR carrying a bad lone crypto BSF fails with an error CQE, decoded
 * as strictly as a pair: the mkey untouched (still free, no BSF).
 */
static void fake_crypto_bsf_refused(struct kunit *test)
{
	const struct crypto_rej *r = test->param_value;
	struct ct *t = ct_setup(test, xts_v4_key, sizeof(xts_v4_key), NULL);
	struct ft_umr *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	u8 bsf[128] = {}, got[128], mkc[MLX5_ST_SZ_BYTES(mkc)];
	int oct;

	KUNIT_ASSERT_NOT_NULL(test, w);
	if (r->pair) {
		ft_del_mkey(t->ft, t->key);
		t->key = crypto_mkey_oct(t->ft, 2 * MLX5_MKEY_BSF_OCTO_SIZE);
	}
	bsf_fill((void *)bsf, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, NULL);
	if (r->off >= 0)
		bsf[r->off] = r->val;
	ft_expect_err(t->ft, w, crypto_umr_oct(t, w, DU, bsf, r->oct),
		      MLX5_OPCODE_UMR, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
		      MLX5_UMR_FAKE_VS_BSF_BAD);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(t->ft->fake, t->key,
						       mkc, NULL, 0), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
	oct = mlx5_umr_fake_query_bsf(t->ft->fake, t->key, got, sizeof(got));
	KUNIT_ASSERT_EQ(test, oct, r->pair ? 8 : 4);
	KUNIT_EXPECT_NULL(test, memchr_inv(got, 0, oct * 16));
	ft_qp_recover(t->ft);
	ct_teardown(t);
}

/* ---- signature and crypto: the BSF pair ---- */

#define DIF	8
#define PB	(DU + DIF)	/* a 512-byte block with its T10-DIF */
#define APP	0x1234
#define REF	0x5678

/* The pair's size field, rdma-core MLX5_BSF_SIZE_SIG_AND_CRYPTO << 6. */
#define PAIR_SIZE	(3 << 6)

/**
 * struct pc - a pair mkey on a fake, its PSVs, memory and DEK
 * @t: the fake, MR, DEK (the mkey in @t->key has bsf_octword_size 8)
 * @mpsv: memory PSV
 * @wpsv: wire PSV
 * @w: a UMR being built
 */
struct pc {
	struct ct t;
	u32 mpsv, wpsv;
	struct ft_umr *w;
};

/* a free KLM mkey with crypto_en, bsf_en and room for the pair */
static u32 pair_mkey(struct ft *ft)
{
	return crypto_mkey_oct(ft, 2 * MLX5_MKEY_BSF_OCTO_SIZE);
}

static struct pc *pc_setup(struct kunit *test)
{
	struct pc *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct ct *t;

	KUNIT_ASSERT_NOT_NULL(test, p);
	t = &p->t;
	t->ft = fct_ft(test);
	t->mr_key = ft_mr(t->ft, &t->mr, 4 * DU, 0x10000, FT_LW);
	t->key = pair_mkey(t->ft);
	t->dek = dek_create(t->ft, xts_v4_key, sizeof(xts_v4_key), NULL);
	p->mpsv = ft_psv(t->ft);
	p->wpsv = ft_psv(t->ft);
	p->w = kunit_kzalloc(test, sizeof(*p->w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->w);
	return p;
}

static void pc_teardown(struct pc *p)
{
	ct_put(&p->t);
	ft_destroy_psv(p->t.ft, p->mpsv);
	ft_destroy_psv(p->t.ft, p->wpsv);
	ft_teardown(p->t.ft);
}

/* T10-DIF/CRC, seed 0, app APP, ref REF + block: none when !on */
static void pair_dom(struct fs_dom *d, bool on)
{
	*d = (struct fs_dom) {};
	if (on)
		*d = (struct fs_dom) { .kind = FS_DIF_CRC, .inc = true,
				       .app = APP, .ref = REF,
				       .app_mask = 0xffff };
}

/*
 * The pair as crypto_umr_wqe_finalize() lays it out: the signature BSF
 * (memory and wire DIF as asked) with size SIG_AND_CRYPTO, then the crypto
 * BSF of @order, data unit @sel, tweak @tweak, size SIG_AND_CRYPTO too, as
 * rdma-core's mlx5_umr_fill_crypto_bsf() writes it since b38f3439a983
 * and SPDK's pair encoder does.
 */
static void pair_fill(struct pc *p, u8 *bsf, bool mem, bool wire, u8 order,
		      u8 sel, u64 tweak)
{
	struct mlx5_umr_crypto_bsf *cb = (void *)(bsf + 64);
	struct fs_dom m, w;

	pair_dom(&m, mem);
	pair_dom(&w, wire);
	fs_bsf((void *)bsf, &m, p->mpsv, &w, p->wpsv);
	((struct mlx5_bsf *)bsf)->basic.bsf_size_sbs = PAIR_SIZE;
	bsf_fill(cb, order, sel, tweak, p->t.dek, NULL);
	cb->bsf_size_type = MLX5_UMR_CRYPTO_BSF_IN_PAIR;
}

/* UMR: the mkey covers @len memory bytes of the MR, with @oct of @bsf */
static size_t pair_umr(struct pc *p, u32 len, const u8 *bsf, u16 oct)
{
	struct ft_umr *w = p->w;
	struct mlx5_klm klm = {};
	size_t size;

	memset(w, 0, sizeof(*w));
	ft_klm(&klm, len, p->t.mr_key, 0x10000);
	size = ft_umr_init(w, p->t.key, FT_RR | FT_RW, len, &klm, sizeof(klm));
	w->uc.flags &= ~MLX5_UMR_CHECK_NOT_FREE;
	w->uc.bsf_octowords = cpu_to_be16(oct);
	w->uc.mkey_mask |= cpu_to_be64(MLX5_MKEY_MASK_BSF_EN |
				       MLX5_MKEY_MASK_EN_SIGERR);
	MLX5_SET(mkc, &w->mkey, bsf_en, 1);
	/* armed for the first SIG_ERR, as rdma-core's err_count = 1 */
	MLX5_SET(mkc, &w->mkey, expected_sigerr_count, 1);
	memcpy(w->xlt + 64, bsf, oct * 16);
	return size + oct * 16;
}

static int pair_xfer(struct pc *p, u64 off, void *buf, u32 len, bool write,
		     struct mlx5_umr_test_xfer_out *out)
{
	return mlx5_umr_fake_xfer_out(p->t.ft->fake, p->t.key, off, buf, len,
				      write, true, out);
}

/* The T10-DIF of block @blk of @data, computed here: crc_t10dif(), tags. */
static void ref_dif(u8 *pi, const u8 *data, u32 blk)
{
	put_unaligned_be16(crc_t10dif(data, DU), pi);
	put_unaligned_be16(APP, pi + 2);
	put_unaligned_be32(REF + blk, pi + 4);
}

/*
 * Row B (ENCRYPTED_RAW_WIRE, encrypt_on_tx, SIGNATURE_AFTER_CRYPTO_ON_TX):
 * plaintext memory, the wire enc(data)+DIF with the DIF over the
 * ciphertext. Read: vector 4's ciphertext and crc_t10dif() of it; written
 * back, the plaintext lands with no signature error.
 */
static void fake_crypto_pair_raw_wire(struct kunit *test)
{
	struct pc *p = pc_setup(test);
	struct mlx5_umr_test_xfer_out out;
	u8 *got = kunit_kzalloc(test, PB, GFP_KERNEL);
	u8 bsf[128], want[DIF];

	KUNIT_ASSERT_NOT_NULL(test, got);
	pair_fill(p, bsf, false, true, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE,
		  MLX5_UMR_BS_SELECTOR_512, 0);
	ft_umr_ok(p->t.ft, p->w, pair_umr(p, DU, bsf, 8));
	xts_ptext(p->t.mr.cpu, DU);
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, got, PB, false, &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got, xts_v4_ctext, DU), 0);
	ref_dif(want, xts_v4_ctext, 0);
	KUNIT_EXPECT_EQ(test, memcmp(got + DU, want, DIF), 0);
	KUNIT_EXPECT_FALSE(test, out.sig_err);

	memset(p->t.mr.cpu, 0, DU);
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, got, PB, true, &out), 0);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	xts_ptext(got, DU);
	KUNIT_EXPECT_EQ(test, memcmp(p->t.mr.cpu, got, DU), 0);
	/* a DIF over the plaintext is a guard error on the wire domain */
	ref_dif(got + DU, got, 0);
	memcpy(got, xts_v4_ctext, DU);
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, got, PB, true, &out), 0);
	KUNIT_EXPECT_TRUE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out.cqe.syndrome), BIT(13));
	pc_teardown(p);
}

/*
 * Row J (ENCRYPTED_RAW_MEMORY, !encrypt_on_tx, BEFORE): the memory
 * enc(data)+DIF over the ciphertext. A write of vector 4's plaintext lands
 * as its ciphertext and crc_t10dif() of it; read back, the plaintext.
 */
static void fake_crypto_pair_raw_memory(struct kunit *test)
{
	struct pc *p = pc_setup(test);
	struct mlx5_umr_test_xfer_out out;
	u8 *pt = kunit_kzalloc(test, DU, GFP_KERNEL);
	u8 bsf[128], want[DIF];
	u8 *mem = p->t.mr.cpu;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	pair_fill(p, bsf, true, false, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		  MLX5_UMR_BS_SELECTOR_512, 0);
	ft_umr_ok(p->t.ft, p->w, pair_umr(p, PB, bsf, 8));
	xts_ptext(pt, DU);
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, pt, DU, true, &out), 0);
	KUNIT_EXPECT_EQ(test, memcmp(mem, xts_v4_ctext, DU), 0);
	ref_dif(want, xts_v4_ctext, 0);
	KUNIT_EXPECT_EQ(test, memcmp(mem + DU, want, DIF), 0);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(mem + PB, 0, DU));
	memset(pt, 0, DU);
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, pt, DU, false, &out), 0);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	xts_ptext(mem, DU);
	KUNIT_EXPECT_EQ(test, memcmp(pt, mem, DU), 0);
	pc_teardown(p);
}

/*
 * ENCRYPTED_RAW_MEMORY with a wire signature only (not a row of the
 * table; the order's operations taken as the man page states them): on
 * TX the signature comes first, over the memory's ciphertext, and the
 * crypto then decrypts the data bytes only, the signature staying raw:
 * the wire has vector 4's plaintext and crc_t10dif() of its ciphertext.
 */
static void fake_crypto_pair_raw_other_side(struct kunit *test)
{
	struct pc *p = pc_setup(test);
	struct mlx5_umr_test_xfer_out out;
	u8 *got = kunit_kzalloc(test, PB, GFP_KERNEL);
	u8 *pt = kunit_kzalloc(test, DU, GFP_KERNEL);
	u8 bsf[128], want[DIF];

	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_NOT_NULL(test, pt);
	pair_fill(p, bsf, false, true, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		  MLX5_UMR_BS_SELECTOR_512, 0);
	ft_umr_ok(p->t.ft, p->w, pair_umr(p, DU, bsf, 8));
	memcpy(p->t.mr.cpu, xts_v4_ctext, DU);
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, got, PB, false, &out), 0);
	xts_ptext(pt, DU);
	KUNIT_EXPECT_EQ(test, memcmp(got, pt, DU), 0);
	ref_dif(want, xts_v4_ctext, 0);
	KUNIT_EXPECT_EQ(test, memcmp(got + DU, want, DIF), 0);
	/* and back: the check over the ciphertext passes */
	memset(p->t.mr.cpu, 0, DU);
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, got, PB, true, &out), 0);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(p->t.mr.cpu, xts_v4_ctext, DU), 0);
	pc_teardown(p);
}

/*
 * Two 512-byte blocks of random data, initial tweak 0x10, data unit 520:
 * the format of the encrypted side (data and DIF per block) is encrypted
 * whole, one data unit per block, the DIF over the plaintext.
 * Row C (ENCRYPTED_WIRE_SIGNATURE, encrypt_on_tx, BEFORE, mlx5dv_wr_set_
 * mkey_crypto(3) Example 2): plaintext memory, the wire enc(data+DIF).
 * Row H (ENCRYPTED_MEMORY_SIGNATURE, !encrypt_on_tx, AFTER): memory
 * enc(data+DIF), the wire plaintext.
 */
static void pair_signed_plaintext(struct kunit *test, bool wire_side)
{
	struct pc *p = pc_setup(test);
	struct mlx5_umr_test_xfer_out out;
	u8 *data = kunit_kmalloc(test, 2 * DU, GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, 2 * PB, GFP_KERNEL);
	u8 *got = kunit_kzalloc(test, 2 * PB, GFP_KERNEL);
	u8 *mem = p->t.mr.cpu;
	u8 bsf[128];
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, got);
	get_random_bytes(data, 2 * DU);
	for (i = 0; i < 2; i++) {
		memcpy(want + i * PB, data + i * DU, DU);
		ref_dif(want + i * PB + DU, data + i * DU, i);
	}
	ref_xts(test, want, 2 * PB, PB, 0x10, true);
	pair_fill(p, bsf, !wire_side, wire_side,
		  wire_side ? MLX5_UMR_ENC_ORDER_ENCRYPTED_WIRE_SIGNATURE :
			      MLX5_UMR_ENC_ORDER_ENCRYPTED_MEMORY_SIGNATURE,
		  MLX5_UMR_BS_SELECTOR_520, 0x10);
	ft_umr_ok(p->t.ft, p->w, pair_umr(p, wire_side ? 2 * DU : 2 * PB,
					  bsf, 8));
	if (wire_side) {
		memcpy(mem, data, 2 * DU);
		KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, got, 2 * PB, false,
						&out), 0);
		KUNIT_EXPECT_EQ(test, memcmp(got, want, 2 * PB), 0);
		/* the second block alone: its own tweak, 0x11 */
		memset(got, 0, PB);
		KUNIT_ASSERT_EQ(test, pair_xfer(p, PB, got, PB, false, &out),
				0);
		KUNIT_EXPECT_EQ(test, memcmp(got, want + PB, PB), 0);
		memset(mem, 0, 2 * DU);
		KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, want, 2 * PB, true,
						&out), 0);
		KUNIT_EXPECT_EQ(test, memcmp(mem, data, 2 * DU), 0);
	} else {
		KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, data, 2 * DU, true,
						&out), 0);
		KUNIT_EXPECT_EQ(test, memcmp(mem, want, 2 * PB), 0);
		KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, got, 2 * DU, false,
						&out), 0);
		KUNIT_EXPECT_EQ(test, memcmp(got, data, 2 * DU), 0);
	}
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	/* a wire access of part of a block moves nothing */
	memset(got, 0x5a, PB);
	KUNIT_EXPECT_EQ(test, pair_xfer(p, 8, got, PB, true, &out),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	pc_teardown(p);
}

static void fake_crypto_pair_wire_signature(struct kunit *test)
{
	pair_signed_plaintext(test, true);
}

static void fake_crypto_pair_memory_signature(struct kunit *test)
{
	pair_signed_plaintext(test, false);
}

/*
 * Row I (ENCRYPTED_MEMORY_SIGNATURE with both domains): memory
 * enc(data+DIF1), the wire data+DIF2, both DIFs over the plaintext; a
 * wrong wire guard is reported on RX, after the data moved.
 */
static void fake_crypto_pair_both_domains(struct kunit *test)
{
	struct pc *p = pc_setup(test);
	struct mlx5_umr_test_xfer_out out;
	u8 *wire = kunit_kzalloc(test, PB, GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, PB, GFP_KERNEL);
	u8 bsf[128], dif[DIF];

	KUNIT_ASSERT_NOT_NULL(test, wire);
	KUNIT_ASSERT_NOT_NULL(test, want);
	xts_ptext(wire, DU);
	ref_dif(wire + DU, wire, 0);
	memcpy(want, wire, PB);
	ref_xts(test, want, PB, PB, 0, true);
	pair_fill(p, bsf, true, true,
		  MLX5_UMR_ENC_ORDER_ENCRYPTED_MEMORY_SIGNATURE,
		  MLX5_UMR_BS_SELECTOR_520, 0);
	ft_umr_ok(p->t.ft, p->w, pair_umr(p, PB, bsf, 8));
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, wire, PB, true, &out), 0);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(p->t.mr.cpu, want, PB), 0);
	memset(wire, 0, PB);
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, wire, PB, false, &out), 0);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	xts_ptext(want, DU);
	KUNIT_EXPECT_EQ(test, memcmp(wire, want, DU), 0);
	ref_dif(dif, want, 0);
	KUNIT_EXPECT_EQ(test, memcmp(wire + DU, dif, DIF), 0);
	wire[DU] ^= 1;
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, wire, PB, true, &out), 0);
	KUNIT_EXPECT_TRUE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.mkey), p->t.key);
	pc_teardown(p);
}

/*
 * A reset signature in the pair (no domain): the crypto BSF alone decides,
 * as without a signature (rows A and F): vector 4 in memory.
 */
static void fake_crypto_pair_no_signature(struct kunit *test)
{
	struct pc *p = pc_setup(test);
	u8 *pt = kunit_kzalloc(test, DU, GFP_KERNEL);
	u8 bsf[128];

	KUNIT_ASSERT_NOT_NULL(test, pt);
	pair_fill(p, bsf, false, false,
		  MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		  MLX5_UMR_BS_SELECTOR_512, 0);
	ft_umr_ok(p->t.ft, p->w, pair_umr(p, DU, bsf, 8));
	xts_ptext(pt, DU);
	KUNIT_ASSERT_EQ(test, pair_xfer(p, 0, pt, DU, true, NULL), 0);
	KUNIT_EXPECT_EQ(test, memcmp(p->t.mr.cpu, xts_v4_ctext, DU), 0);
	pc_teardown(p);
}

/* The reference AES-XTS of these tests gives vector 4. */
static void fake_crypto_pair_ref_proof(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, DU, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	xts_ptext(buf, DU);
	ref_xts(test, buf, DU, DU, 0, true);
	KUNIT_EXPECT_EQ(test, memcmp(buf, xts_v4_ctext, DU), 0);
	/* and crc_t10dif() is the CRC-16/T10-DIF of the catalogue */
	KUNIT_EXPECT_EQ(test, crc_t10dif("123456789", 9), 0xd0db);
}

/**
 * struct pair_rej - a pair the fake refuses at the UMR
 * @name: what is wrong
 * @mem: memory DIF
 * @order: enc_order
 * @oct: bsf_octowords of the UMR
 * @off: byte of the 128 to change, or -1
 * @val: its new value
 * @vsynd: the vendor syndrome (LOCAL_QP_OP_ERR)
 * @alone: send the (changed) crypto half alone, 4 octowords
 */
struct pair_rej {
	const char *name;
	bool mem;
	u8 order;
	u16 oct;
	int off;
	u8 val;
	u8 vsynd;
	bool alone;
};

static const struct pair_rej pair_rejs[] = {
	{ "signature size WITH_INLINE", false, 0, 8, 0, 2 << 6,
	  MLX5_UMR_FAKE_VS_BSF_BAD },
	{ "crypto size EXTENDED", false, 0, 8, 64, 1 << 6 | 1,
	  MLX5_UMR_FAKE_VS_BSF_BAD },
	/* rdma-core before b38f3439a983 (v42): obstructs CX6Dx and later */
	{ "crypto size WITH_INLINE", false, 0, 8, 64, 2 << 6 | 1,
	  MLX5_UMR_FAKE_VS_BSF_BAD },
	{ "crypto BSF alone on a pair mkey", false, 0, 4, 64, 2 << 6 | 1,
	  MLX5_UMR_FAKE_VS_BSF_BAD, true },
	{ "crypto type 0", false, 0, 8, 64, PAIR_SIZE,
	  MLX5_UMR_FAKE_VS_BSF_BAD },
	{ "enc_order 4", false, 0, 8, 65, 4, MLX5_UMR_FAKE_VS_BSF_BAD },
	{ "enc_standard 1", false, 0, 8, 67, 1, MLX5_UMR_FAKE_VS_BSF_BAD },
	{ "data unit selector 0", false, 0, 8, 72, 0,
	  MLX5_UMR_FAKE_VS_BSF_BAD },
	{ "crypto reserved byte", false, 0, 8, 120, 1,
	  MLX5_UMR_FAKE_VS_BSF_BAD },
	{ "DEK number over 24 bits", false, 0, 8, 96, 1,
	  MLX5_UMR_FAKE_VS_BSF_BAD },
	{ "half a pair", false, 0, 4, -1, 0, MLX5_UMR_FAKE_VS_BSF_BAD },
	{ "raw wire, both domains", true,
	  MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE, 8, -1, 0,
	  MLX5_UMR_FAKE_VS_BSF_UNSUPPORTED },
	{ "raw memory, both domains", true,
	  MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY, 8, -1, 0,
	  MLX5_UMR_FAKE_VS_BSF_UNSUPPORTED },
	/* basic.wire.bs_selector: a wire block of 4096, memory 512 */
	{ "block sizes differ", true, 0, 8, 2, MLX5_UMR_BS_SELECTOR_4096,
	  MLX5_UMR_FAKE_VS_BSF_UNSUPPORTED },
};

static void pair_rej_desc(const struct pair_rej *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fake_crypto_pair_refused, pair_rejs, pair_rej_desc);

/* A UMR carrying a bad pair fails with an error CQE, the mkey untouched. */
static void fake_crypto_pair_refused(struct kunit *test)
{
	const struct pair_rej *r = test->param_value;
	struct pc *p = pc_setup(test);
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)], got[128];
	u8 bsf[128];

	pair_fill(p, bsf, r->mem, true, r->order, MLX5_UMR_BS_SELECTOR_512, 0);
	if (r->off >= 0)
		bsf[r->off] = r->val;
	if (r->alone)
		memmove(bsf, bsf + 64, 64);
	ft_expect_err(p->t.ft, p->w, pair_umr(p, PB, bsf, r->oct),
		      MLX5_OPCODE_UMR, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
		      r->vsynd);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(p->t.ft->fake,
						       p->t.key, mkc, NULL, 0),
			4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(p->t.ft->fake, p->t.key,
						      got, sizeof(got)), 8);
	KUNIT_EXPECT_NULL(test, memchr_inv(got, 0, sizeof(got)));
	ft_qp_recover(p->t.ft);
	pc_teardown(p);
}

/* DEK commands: what firmware refuses, with its status */
static void fake_crypto_dek_cmds(struct kunit *test)
{
	struct ft *ft = fct_ft(test);
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	u32 in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = {};
	struct mlx5_umr_fake_counters cnt;
	u32 id, a, b;

	/* key size 2, purpose TLS, unknown PD */
	KUNIT_EXPECT_EQ(test, dek_cmd(ft, xts_v4_key, 32, 2,
				      MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS,
				      NULL, ft->pdn, &id, out), -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_status(out), MLX5_CMD_STAT_BAD_PARAM_ERR);
	KUNIT_EXPECT_EQ(test, ft_synd(out), MLX5_UMR_FAKE_SYND_BAD_FIELD);
	KUNIT_EXPECT_EQ(test, dek_cmd(ft, xts_v4_key, 32,
				      MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_128,
				      1, NULL, ft->pdn, &id, out), -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_status(out), MLX5_CMD_STAT_BAD_PARAM_ERR);
	KUNIT_EXPECT_EQ(test, dek_cmd(ft, xts_v4_key, 32,
				      MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_128,
				      MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS,
				      NULL, ft->pdn + 100, &id, out),
			-EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_status(out), MLX5_CMD_STAT_BAD_RES_ERR);
	KUNIT_EXPECT_EQ(test, ft_synd(out), MLX5_UMR_FAKE_SYND_BAD_PD);
	/* a mailbox that ends before the key, another object type */
	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJECT_TYPES_ENCRYPTION_KEY);
	KUNIT_EXPECT_EQ(test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)),
			-EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_status(out), MLX5_CMD_STAT_BAD_INP_LEN_ERR);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, 0x13);
	KUNIT_EXPECT_EQ(test, ft_cmd(ft, in, sizeof(in), out, sizeof(out)),
			-EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_synd(out), MLX5_UMR_FAKE_SYND_BAD_OBJ_TYPE);
	mlx5_umr_fake_get_counters(ft->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.deks, 0U);

	/* two DEKs, 128 and 256, distinct numbers; destroyed once each */
	a = dek_create(ft, xts_v4_key, sizeof(xts_v4_key), NULL);
	b = dek_create(ft, xts_v10_key, sizeof(xts_v10_key), NULL);
	KUNIT_EXPECT_NE(test, a, b);
	mlx5_umr_fake_get_counters(ft->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.deks, 2U);
	KUNIT_EXPECT_EQ(test, dek_destroy(ft, a, out), 0);
	KUNIT_EXPECT_EQ(test, dek_destroy(ft, a, out), -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_status(out), MLX5_CMD_STAT_BAD_RES_ERR);
	KUNIT_EXPECT_EQ(test, ft_synd(out), MLX5_UMR_FAKE_SYND_BAD_DEK);
	KUNIT_EXPECT_EQ(test, dek_destroy(ft, b, out), 0);
	mlx5_umr_fake_get_counters(ft->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.deks, 0U);
	ft_teardown(ft);
}

/*
 * key1 == key2, XTS-AES-128 and -256: BAD_PARAM_ERR whether or not the
 * host runs in FIPS mode (IEEE Std 1619-2018 wants the keys to differ);
 * one bit apart they are a DEK.
 */
static void fake_crypto_dek_equal_keys(struct kunit *test)
{
	struct ft *ft = fct_ft(test);
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	struct mlx5_umr_fake_counters cnt;
	u8 key[64];
	u32 id;

	memcpy(key, xts_v4_key, 16);
	memcpy(key + 16, xts_v4_key, 16);
	KUNIT_EXPECT_EQ(test, dek_cmd(ft, key, 32,
				      MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_128,
				      MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS,
				      NULL, ft->pdn, &id, out), -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_status(out), MLX5_CMD_STAT_BAD_PARAM_ERR);
	KUNIT_EXPECT_EQ(test, ft_synd(out), MLX5_UMR_FAKE_SYND_BAD_FIELD);
	memcpy(key, xts_v10_key, 32);
	memcpy(key + 32, xts_v10_key, 32);
	KUNIT_EXPECT_EQ(test, dek_cmd(ft, key, 64,
				      MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_256,
				      MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS,
				      NULL, ft->pdn, &id, out), -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_status(out), MLX5_CMD_STAT_BAD_PARAM_ERR);
	KUNIT_EXPECT_EQ(test, ft_synd(out), MLX5_UMR_FAKE_SYND_BAD_FIELD);
	mlx5_umr_fake_get_counters(ft->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.deks, 0U);
	/* the last bit of key2 flipped */
	key[63] ^= 1;
	id = dek_create(ft, key, 64, NULL);
	KUNIT_EXPECT_EQ(test, dek_destroy(ft, id, out), 0);
	memzero_explicit(key, sizeof(key));
	ft_teardown(ft);
}

/*
 * CREATE_MKEY with crypto_en: room for the crypto BSF (4 octowords) or
 * the pair (8), as mlx5dv_create_mkey() and the service make it, and
 * nothing else; crypto_en 2 and 3 are reserved. Refused, nothing created.
 */
static void fake_crypto_mkey_create(struct kunit *test)
{
	static const u32 bad[] = { 0, 1, 2, 3, 5, 6, 7, 12, 16 };
	struct ft *ft = fct_ft(test);
	u32 out[MLX5_ST_SZ_DW(create_mkey_out)];
	struct mlx5_umr_fake_counters cnt;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err = crypto_mkey_cmd(ft, MLX5_UMR_MKC_CRYPTO_ENABLED, bad[i],
				      out);
		KUNIT_EXPECT_EQ_MSG(test, err, -EREMOTEIO, "%u octowords",
				    bad[i]);
		KUNIT_EXPECT_EQ(test, ft_status(out),
				MLX5_CMD_STAT_BAD_PARAM_ERR);
		KUNIT_EXPECT_EQ(test, ft_synd(out),
				MLX5_UMR_FAKE_SYND_BAD_FIELD);
	}
	for (i = 2; i <= 3; i++) {
		err = crypto_mkey_cmd(ft, i, MLX5_MKEY_BSF_OCTO_SIZE, out);
		KUNIT_EXPECT_EQ_MSG(test, err, -EREMOTEIO, "crypto_en %u", i);
		KUNIT_EXPECT_EQ(test, ft_status(out),
				MLX5_CMD_STAT_BAD_PARAM_ERR);
	}
	mlx5_umr_fake_get_counters(ft->fake, &cnt);
	KUNIT_EXPECT_EQ(test, cnt.mkeys, 0U);
	ft_del_mkey(ft, crypto_mkey_oct(ft, MLX5_MKEY_BSF_OCTO_SIZE));
	ft_del_mkey(ft, crypto_mkey_oct(ft, 2 * MLX5_MKEY_BSF_OCTO_SIZE));
	ft_teardown(ft);
}

/*
 * A PD with a DEK in it is busy, as firmware refuses to free a PD that an
 * object still uses: else its number could come back for a new PD and the
 * old DEK pass the PD check of that PD's mkeys.
 */
static void fake_crypto_dek_pd_busy(struct kunit *test)
{
	struct ft *ft = fct_ft(test);
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	u32 pout[MLX5_ST_SZ_DW(dealloc_pd_out)];
	u32 pdn = ft_alloc_pd(ft), id;

	KUNIT_ASSERT_EQ(test, dek_cmd(ft, xts_v4_key, sizeof(xts_v4_key),
				      MLX5_GENERAL_OBJECT_TYPE_ENCRYPTION_KEY_KEY_SIZE_128,
				      MLX5_UMR_ENCRYPTION_KEY_PURPOSE_AES_XTS,
				      NULL, pdn, &id, out), 0);
	memset(pout, 0, sizeof(pout));
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(ft, pdn, pout), -EREMOTEIO);
	KUNIT_EXPECT_EQ(test, ft_status(pout), MLX5_CMD_STAT_BAD_RES_STATE_ERR);
	KUNIT_EXPECT_EQ(test, ft_synd(pout), MLX5_UMR_FAKE_SYND_PD_BUSY);
	/* the test interface's DEALLOC_PD too */
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_pd_free(ft->fake, pdn), -EREMOTEIO);
	/* the DEK gone, the PD is free to go */
	KUNIT_EXPECT_EQ(test, dek_destroy(ft, id, out), 0);
	memset(pout, 0, sizeof(pout));
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(ft, pdn, pout), 0);
	ft_teardown(ft);
}

/* @k (8 bytes) in the @n bytes at @b */
static bool has_raw(const u8 *b, size_t n, const u8 *k)
{
	size_t i;

	for (i = 0; i + 8 <= n; i++)
		if (!memcmp(b + i, k, 8))
			return true;
	return false;
}

/* @k (8 bytes) in either reading of a dump, @n bytes each */
static bool has_raw2(const u8 *be, const u8 *le, size_t n, const u8 *k)
{
	return has_raw(be, n, k) || has_raw(le, n, k);
}

/* @k (8 bytes) in @s, as hex in either case or as raw bytes */
static bool has_bytes(const char *s, const u8 *k)
{
	size_t len = strlen(s), i;
	char hex[2 * 8 + 1];

	bin2hex(hex, k, 8);
	hex[16] = 0;
	for (i = 0; i + 16 <= len; i++)
		if (!strncasecmp(s + i, hex, 16))
			return true;
	return has_raw((const u8 *)s, len, k);
}

/*
 * The bytes the hex dump lines of @s show (the wqes file: seq_hex_dump()
 * with DUMP_PREFIX_OFFSET, each 4-byte group printed as the host's u32,
 * 1-byte groups where a line's length is no multiple of 4): into @be with
 * each group's digits read in order, into @le with its bytes reversed.
 * Whatever the host's byte order, one of the two holds memory's bytes.
 * Return: the bytes in each, at most @max.
 */
static size_t hexdump_bytes(struct kunit *test, const char *s, u8 *be,
			    u8 *le, size_t max)
{
	char *copy = kstrdup(s, GFP_KERNEL), *cur = copy, *line, *p, *tok;
	size_t n = 0, k, j;
	u8 g[4];

	KUNIT_ASSERT_NOT_NULL(test, copy);
	while ((line = strsep(&cur, "\n"))) {
		p = strstr(line, ": ");
		if (strncmp(line, "  ", 2) || !p)
			continue;
		p += 2;
		while ((tok = strsep(&p, " "))) {
			k = strlen(tok) / 2;
			if (!k || k > sizeof(g) || strlen(tok) % 2 ||
			    hex2bin(g, tok, k) || n + k > max)
				continue;
			for (j = 0; j < k; j++) {
				be[n + j] = g[j];
				le[n + j] = g[k - 1 - j];
			}
			n += k;
		}
	}
	kfree(copy);
	return n;
}

/*
 * No debugfs file of the fake shows key bytes, after use: not as raw
 * bytes, not as hex, and not in the wqes file's hex dump of 32-bit groups,
 * read back into bytes in both byte orders. That reading finds the crypto
 * BSF the UMR carried, so it would find a key a WQE carried.
 */
static void fake_crypto_no_key_in_debugfs(struct kunit *test)
{
	static const char * const files[] = {
		"caps", "counters", "qps", "cqs", "mkeys", "wqes", "pds",
	};
	struct ct *t = ct_setup(test, xts_v10_key, sizeof(xts_v10_key), NULL);
	char *buf = kunit_kzalloc(test, 65536, GFP_KERNEL);
	u8 *be = kunit_kzalloc(test, 32768, GFP_KERNEL);
	u8 *le = kunit_kzalloc(test, 32768, GFP_KERNEL);
	u8 *pt = kunit_kzalloc(test, DU, GFP_KERNEL);
	struct mlx5_umr_crypto_bsf b;
	unsigned int i, k;
	size_t n;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, be);
	KUNIT_ASSERT_NOT_NULL(test, le);
	KUNIT_ASSERT_NOT_NULL(test, pt);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, NULL);
	crypto_umr(t, DU, &b);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		KUNIT_ASSERT_GT(test, ft_dbg_io(t->ft, files[i], buf, 65536,
						false), 0);
		/* every 8-byte piece of the 64-byte key, hex or raw */
		for (k = 0; k < sizeof(xts_v10_key); k += 8)
			KUNIT_EXPECT_FALSE_MSG(test, has_bytes(buf, xts_v10_key + k),
					       "%s shows key bytes %u..%u",
					       files[i], k, k + 7);
		if (strcmp(files[i], "wqes"))
			continue;
		n = hexdump_bytes(test, buf, be, le, 32768);
		/* the reading works: the BSF's first and last 8 bytes */
		KUNIT_EXPECT_TRUE(test, has_raw2(be, le, n, (u8 *)&b));
		KUNIT_EXPECT_TRUE(test, has_raw2(be, le, n, (u8 *)&b + 56));
		for (k = 0; k < sizeof(xts_v10_key); k += 8)
			KUNIT_EXPECT_FALSE_MSG(test,
					       has_raw2(be, le, n, xts_v10_key + k),
					       "wqes dumps key bytes %u..%u",
					       k, k + 7);
	}
	ct_teardown(t);
}

/*
 * A single-block engine (aes_xts_single_block_le_tweak only) encrypts one
 * data unit per access: two are refused and move nothing, one at either
 * offset moves. The multi-block generations take both.
 */
static void fake_crypto_single_block(struct kunit *test)
{
	struct ct *t = ct_setup(test, xts_v4_key, sizeof(xts_v4_key), NULL);
	bool single = fct_profile == MLX5_UMR_FAKE_CRYPTO_SINGLE_LE;
	u8 *pt = kunit_kzalloc(test, 2 * DU, GFP_KERNEL);
	struct mlx5_umr_crypto_bsf b;

	KUNIT_ASSERT_NOT_NULL(test, pt);
	xts_ptext(pt, DU);
	xts_ptext(pt + DU, DU);
	bsf_fill(&b, MLX5_UMR_ENC_ORDER_ENCRYPTED_MEMORY_SIGNATURE,
		 MLX5_UMR_BS_SELECTOR_512, 0, t->dek, NULL);
	crypto_umr(t, 2 * DU, &b);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 2 * DU, true, true),
			single ? MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR : 0);
	if (single)
		KUNIT_EXPECT_TRUE(test, !memchr_inv(t->mr.cpu, 0, 2 * DU));
	else
		KUNIT_EXPECT_EQ(test, memcmp(t->mr.cpu, xts_v4_ctext, DU), 0);
	memset(t->mr.cpu, 0, 2 * DU);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(t->ft->fake, t->key, 0, pt,
						 DU, true, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t->mr.cpu, xts_v4_ctext, DU), 0);
	ct_teardown(t);
}

/*
 * The same cases on each generation. Those of accesses over several data
 * units (from fake_crypto_xts256_vector10 on) only on the multi-block
 * ones: a single-block engine refuses them (fake_crypto_single_block).
 */
static struct kunit_case fake_crypto_cases[] = {
	KUNIT_CASE(fake_crypto_xts128_vector4),
	KUNIT_CASE(fake_crypto_encrypt_on_tx),
	KUNIT_CASE(fake_crypto_wrong_key_tweak),
	KUNIT_CASE(fake_crypto_keytag),
	KUNIT_CASE(fake_crypto_refused),
	KUNIT_CASE_PARAM(fake_crypto_bsf_refused,
			 fake_crypto_bsf_refused_gen_params),
	KUNIT_CASE(fake_crypto_pair_ref_proof),
	KUNIT_CASE(fake_crypto_pair_raw_wire),
	KUNIT_CASE(fake_crypto_pair_raw_memory),
	KUNIT_CASE(fake_crypto_pair_raw_other_side),
	KUNIT_CASE(fake_crypto_pair_both_domains),
	KUNIT_CASE(fake_crypto_pair_no_signature),
	KUNIT_CASE_PARAM(fake_crypto_pair_refused,
			 fake_crypto_pair_refused_gen_params),
	KUNIT_CASE(fake_crypto_mkey_create),
	KUNIT_CASE(fake_crypto_dek_cmds),
	KUNIT_CASE(fake_crypto_dek_equal_keys),
	KUNIT_CASE(fake_crypto_dek_pd_busy),
	KUNIT_CASE(fake_crypto_no_key_in_debugfs),
	KUNIT_CASE(fake_crypto_single_block),
	KUNIT_CASE(fake_crypto_xts256_vector10),
	KUNIT_CASE(fake_crypto_round_trip),
	KUNIT_CASE(fake_crypto_tweak_carry),
	KUNIT_CASE(fake_crypto_raw_data_size),
	KUNIT_CASE(fake_crypto_pair_wire_signature),
	KUNIT_CASE(fake_crypto_pair_memory_signature),
	{}
};

static struct kunit_case fake_crypto_be_cases[] = {
	KUNIT_CASE(fake_crypto_xts128_vector4),
	KUNIT_CASE(fake_crypto_encrypt_on_tx),
	KUNIT_CASE(fake_crypto_wrong_key_tweak),
	KUNIT_CASE(fake_crypto_keytag),
	KUNIT_CASE(fake_crypto_refused),
	KUNIT_CASE_PARAM(fake_crypto_bsf_refused,
			 fake_crypto_bsf_refused_gen_params),
	KUNIT_CASE(fake_crypto_pair_ref_proof),
	KUNIT_CASE(fake_crypto_pair_raw_wire),
	KUNIT_CASE(fake_crypto_pair_raw_memory),
	KUNIT_CASE(fake_crypto_pair_raw_other_side),
	KUNIT_CASE(fake_crypto_pair_both_domains),
	KUNIT_CASE(fake_crypto_pair_no_signature),
	KUNIT_CASE_PARAM(fake_crypto_pair_refused,
			 fake_crypto_pair_refused_gen_params),
	KUNIT_CASE(fake_crypto_mkey_create),
	KUNIT_CASE(fake_crypto_dek_cmds),
	KUNIT_CASE(fake_crypto_dek_equal_keys),
	KUNIT_CASE(fake_crypto_dek_pd_busy),
	KUNIT_CASE(fake_crypto_no_key_in_debugfs),
	KUNIT_CASE(fake_crypto_single_block),
	KUNIT_CASE(fake_crypto_xts256_vector10),
	KUNIT_CASE(fake_crypto_round_trip),
	KUNIT_CASE(fake_crypto_tweak_carry),
	KUNIT_CASE(fake_crypto_raw_data_size),
	KUNIT_CASE(fake_crypto_pair_wire_signature),
	KUNIT_CASE(fake_crypto_pair_memory_signature),
	{}
};

static struct kunit_case fake_crypto_single_cases[] = {
	KUNIT_CASE(fake_crypto_xts128_vector4),
	KUNIT_CASE(fake_crypto_encrypt_on_tx),
	KUNIT_CASE(fake_crypto_wrong_key_tweak),
	KUNIT_CASE(fake_crypto_keytag),
	KUNIT_CASE(fake_crypto_refused),
	KUNIT_CASE_PARAM(fake_crypto_bsf_refused,
			 fake_crypto_bsf_refused_gen_params),
	KUNIT_CASE(fake_crypto_pair_ref_proof),
	KUNIT_CASE(fake_crypto_pair_raw_wire),
	KUNIT_CASE(fake_crypto_pair_raw_memory),
	KUNIT_CASE(fake_crypto_pair_raw_other_side),
	KUNIT_CASE(fake_crypto_pair_both_domains),
	KUNIT_CASE(fake_crypto_pair_no_signature),
	KUNIT_CASE_PARAM(fake_crypto_pair_refused,
			 fake_crypto_pair_refused_gen_params),
	KUNIT_CASE(fake_crypto_mkey_create),
	KUNIT_CASE(fake_crypto_dek_cmds),
	KUNIT_CASE(fake_crypto_dek_equal_keys),
	KUNIT_CASE(fake_crypto_dek_pd_busy),
	KUNIT_CASE(fake_crypto_no_key_in_debugfs),
	KUNIT_CASE(fake_crypto_single_block),
	{}
};

static int fct_init_le(struct kunit *test)
{
	fct_profile = MLX5_UMR_FAKE_CRYPTO_MULTI_LE;
	return 0;
}

static int fct_init_be(struct kunit *test)
{
	fct_profile = MLX5_UMR_FAKE_CRYPTO_MULTI_BE;
	return 0;
}

static int fct_init_single(struct kunit *test)
{
	fct_profile = MLX5_UMR_FAKE_CRYPTO_SINGLE_LE;
	return 0;
}

/* the same cases on each crypto generation (Documentation/fake.rst) */
static struct kunit_suite fake_crypto_suite = {
	.name = "mlx5_umr_fake_crypto",
	.init = fct_init_le,
	.test_cases = fake_crypto_cases,
};

static struct kunit_suite fake_crypto_be_suite = {
	.name = "mlx5_umr_fake_crypto_multi_be",
	.init = fct_init_be,
	.test_cases = fake_crypto_be_cases,
};

static struct kunit_suite fake_crypto_single_suite = {
	.name = "mlx5_umr_fake_crypto_single_le",
	.init = fct_init_single,
	.test_cases = fake_crypto_single_cases,
};

kunit_test_suites(&fake_crypto_suite, &fake_crypto_be_suite,
		  &fake_crypto_single_suite);

MODULE_DESCRIPTION("KUnit tests of the fake mlx5 HCA's DEKs and AES-XTS data path");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
