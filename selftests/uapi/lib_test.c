// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * libmlx5umr as an rdma-core user sees it: struct ibv_sge and
 * struct mlx5dv_mr_interleaved arrays (rdma-core's own types when its
 * headers are installed), errno-style returns, on a fake HCA.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "mlx5umr.h"
#include "mlx5umr_testing.h"
#include "umr_util.h"

/* IEEE 1619-2007 vector 4, the one copy the KUnit suites use too. */
typedef __u8 u8;
#include "xts_vectors.h"

#define ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		IBV_ACCESS_REMOTE_READ)

/* mlx5umr_mkey_configure() of a list layout */
static int cfg_list(struct mlx5umr_mkey *mk, __u32 access, __u32 flags,
		    const struct mlx5dv_sig_block_attr *sig,
		    const struct mlx5umr_crypto_attr *crypto, __u32 n,
		    const struct ibv_sge *sge)
{
	struct mlx5umr_configure_attr attr = {
		.access = access,
		.flags = flags,
		.layout = MLX5UMR_LAYOUT_LIST,
		.num_entries = n,
		.sge = sge,
		.sig = sig,
		.crypto = crypto,
	};

	return mlx5umr_mkey_configure(mk, &attr);
}

/* mlx5umr_batch_configure() of a list layout */
static int batch_list(struct mlx5umr_batch *b, struct mlx5umr_mkey *mk,
		      __u32 access, __u32 flags, __u32 n,
		      const struct ibv_sge *sge)
{
	struct mlx5umr_configure_attr attr = {
		.access = access,
		.flags = flags,
		.layout = MLX5UMR_LAYOUT_LIST,
		.num_entries = n,
		.sge = sge,
	};

	return mlx5umr_batch_configure(b, mk, &attr);
}

FIXTURE(lib) {
	struct mlx5umr_context *ctx;
	struct mlx5umr_device_attr attr0;
	__u8 *b1, *b2;
	struct mlx5umr_mr *mr1, *mr2;
	struct mlx5umr_mkey *mk;
};

FIXTURE_SETUP(lib)
{
	char path[256];

	ASSERT_EQ(0, umr_find_dev(path, sizeof(path)));
	self->ctx = mlx5umr_open(path);
	ASSERT_NE(NULL, self->ctx);
	ASSERT_EQ(0, mlx5umr_query_device(self->ctx, &self->attr0));
	ASSERT_TRUE(self->attr0.fake);
	self->b1 = umr_map(2 * PAGE, 0x11);
	self->b2 = umr_map(2 * PAGE, 0x22);
	ASSERT_NE(NULL, self->b1);
	ASSERT_NE(NULL, self->b2);
	self->mr1 = mlx5umr_reg_mr(self->ctx, self->b1, 2 * PAGE, ACCESS);
	self->mr2 = mlx5umr_reg_mr(self->ctx, self->b2, 2 * PAGE, ACCESS);
	ASSERT_NE(NULL, self->mr1);
	ASSERT_NE(NULL, self->mr2);
	self->mk = mlx5umr_create_mkey(self->ctx, 4, 0);
	ASSERT_NE(NULL, self->mk);
}

/*
 * EXPECT, not ASSERT: after an ASSERT failed in the test, the 6.1
 * harness's handler flag is still set, and the first ASSERT here would
 * jump back into the teardown and close the context twice.
 */
FIXTURE_TEARDOWN(lib)
{
	struct mlx5umr_device_attr a = { 0 };
	struct mlx5umr_context *ctx;

	EXPECT_EQ(0, mlx5umr_close(self->ctx));
	ctx = mlx5umr_open(NULL);
	EXPECT_NE(NULL, ctx);
	if (!ctx)
		return;
	EXPECT_EQ(0, mlx5umr_query_device(ctx, &a));
	EXPECT_EQ(self->attr0.dev_objects, a.dev_objects);
	EXPECT_EQ(self->attr0.dev_pinned_pages, a.dev_pinned_pages);
	mlx5umr_close(ctx);
}

TEST_F(lib, objects)
{
	struct mlx5umr_device_attr a;

	EXPECT_EQ(self->mr1->lkey, self->mr1->rkey);
	EXPECT_EQ(self->b1, self->mr1->addr);
	EXPECT_EQ(2 * PAGE, self->mr1->length);
	EXPECT_NE(self->mr1->lkey, self->mr2->lkey);
	EXPECT_EQ(4, self->mk->max_entries);
	ASSERT_EQ(0, mlx5umr_query_device(self->ctx, &a));
	EXPECT_EQ(3, a.fd_objects);
	EXPECT_EQ(4, a.fd_pinned_pages);
	EXPECT_EQ(0, strncmp(a.name, "fake", 4));
	EXPECT_NE(0, a.max_entries);
	EXPECT_NE(0, a.max_xfer);
}

/* The interleaved example of mlx5dv_wr_mkey_configure(3), via the library. */
/* The verified SET_PD: each errno as the library returns it, nothing bound. */
TEST_F(lib, set_pd_verbs)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, null);
	EXPECT_EQ(EBADF, mlx5umr_set_pd_verbs(self->ctx, -1, 1, 1));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(EINVAL, mlx5umr_set_pd_verbs(self->ctx, null, 1, 1));
	EXPECT_EQ(EINVAL, errno);
	close(null);
}

TEST_F(lib, seed_interleaved)
{
	struct mlx5dv_mr_interleaved il[2];
	__u8 in[1040];
	__u32 st = 1;
	int i;

	/* Garbage in the padding: the library copies field by field. */
	memset(il, 0xff, sizeof(il));
	il[0].addr = (uintptr_t)self->b1;
	il[0].bytes_count = 512;
	il[0].bytes_skip = 4;
	il[0].lkey = self->mr1->lkey;
	il[1].addr = (uintptr_t)self->b2;
	il[1].bytes_count = 8;
	il[1].bytes_skip = 0;
	il[1].lkey = self->mr2->lkey;
	ASSERT_EQ(0, mlx5umr_mkey_configure_interleaved(self->mk, ACCESS, 2, 2,
							il));
	EXPECT_EQ(1040, self->mk->length);
	for (i = 0; i < (int)sizeof(in); i++)
		in[i] = (__u8)(i * 7 + 1);
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, self->mk->rkey, 0, in,
				  sizeof(in), MLX5UMR_XFER_WRITE, &st));
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, memcmp(self->b1, in, 512));
	EXPECT_EQ(0, memcmp(self->b2, in + 512, 8));
	EXPECT_EQ(0, memcmp(self->b1 + 516, in + 520, 512));
	EXPECT_EQ(0, memcmp(self->b2 + 8, in + 1032, 8));
	EXPECT_EQ(0x11, self->b1[512]);
}

/*
 * The attribute struct's own fields are refused before any ioctl: the
 * mkey keeps its layout (none) and the batch stays empty.
 */
TEST_F(lib, configure_attr)
{
	struct ibv_sge sge = { (uintptr_t)self->b1, 64, self->mr1->lkey };
	struct mlx5dv_sig_block_attr sig = { 0 };
	struct mlx5umr_configure_attr attr = {
		.access = ACCESS,
		.layout = MLX5UMR_LAYOUT_LIST,
		.num_entries = 1,
		.sge = &sge,
		.comp_mask = 1,
	};
	struct mlx5umr_batch *b;

	EXPECT_EQ(EINVAL, mlx5umr_mkey_configure(self->mk, &attr));
	EXPECT_EQ(EINVAL, errno);
	attr.comp_mask = 0;
	attr.layout = (enum mlx5umr_layout)2;
	EXPECT_EQ(EINVAL, mlx5umr_mkey_configure(self->mk, &attr));
	attr.layout = MLX5UMR_LAYOUT_LIST;
	attr.flags = 1 << 2;
	EXPECT_EQ(EOPNOTSUPP, mlx5umr_mkey_configure(self->mk, &attr));
	EXPECT_EQ(0, self->mk->length);

	b = mlx5umr_batch_create(self->ctx);
	ASSERT_NE(NULL, b);
	/* a batch carries neither RESET_SIG nor a signature */
	attr.flags = MLX5UMR_RESET_SIG;
	EXPECT_EQ(EOPNOTSUPP, mlx5umr_batch_configure(b, self->mk, &attr));
	attr.flags = 0;
	attr.sig = &sig;
	EXPECT_EQ(EOPNOTSUPP, mlx5umr_batch_configure(b, self->mk, &attr));
	EXPECT_EQ(0, mlx5umr_batch_count(b));
	attr.sig = NULL;
	EXPECT_EQ(0, mlx5umr_batch_configure(b, self->mk, &attr));
	EXPECT_EQ(1, mlx5umr_batch_count(b));
	EXPECT_EQ(0, mlx5umr_batch_submit(b, NULL));
	EXPECT_EQ(0, mlx5umr_batch_status(b, 0));
	EXPECT_EQ(64, self->mk->length);
	mlx5umr_batch_destroy(b);
}

/* mlx5dv_wr_mkey_configure(3): 64 bytes of mr1, then 4096 of mr2. */
TEST_F(lib, seed_list)
{
	struct ibv_sge sge[2] = {
		{ (uintptr_t)self->b1, 64, self->mr1->lkey },
		{ (uintptr_t)self->b2, 4096, self->mr2->lkey },
	};
	static __u8 in[4160], out[4160];
	__u32 st = 1;
	int i;

	ASSERT_EQ(0, mlx5umr_mkey_configure_list(self->mk, ACCESS, 2, sge));
	EXPECT_EQ(4160, self->mk->length);
	for (i = 0; i < (int)sizeof(in); i++)
		in[i] = (__u8)(i * 3 + 5);
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, self->mk->rkey, 0, in,
				  sizeof(in), MLX5UMR_XFER_WRITE, &st));
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, memcmp(self->b1, in, 64));
	EXPECT_EQ(0, memcmp(self->b2, in + 64, 4096));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, self->mk->rkey, 0, out,
				  sizeof(out), 0, &st));
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, memcmp(in, out, sizeof(out)));
}

/* MLX5UMR_NEW_KEY: a fresh key per registration, the old one refused. */
TEST_F(lib, new_key)
{
	struct ibv_sge sge = { (uintptr_t)self->b1, 64, self->mr1->lkey };
	__u32 k0 = self->mk->rkey, k1, st = 1;
	__u8 in[8] = { 1, 2, 3 };

	ASSERT_EQ(0, cfg_list(self->mk, ACCESS, MLX5UMR_NEW_KEY, NULL, NULL, 1,
			      &sge));
	k1 = self->mk->rkey;
	EXPECT_EQ(k1, self->mk->lkey);
	EXPECT_EQ(k0 >> 8, k1 >> 8);
	EXPECT_NE(k0, k1);
	EXPECT_EQ(ENOENT, mlx5umr_xfer(self->ctx, k0, 0, in, 8,
				       MLX5UMR_XFER_WRITE, &st));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, k1, 0, in, 8,
				  MLX5UMR_XFER_WRITE, &st));
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, memcmp(self->b1, in, 8));
	ASSERT_EQ(0, mlx5umr_mkey_invalidate_ex(self->mk, MLX5UMR_NEW_KEY));
	EXPECT_NE(k1, self->mk->rkey);
	EXPECT_EQ(EOPNOTSUPP, mlx5umr_mkey_invalidate_ex(self->mk, 2));
}

/*
 * A signature mkey through rdma-core's types (mlx5dv_wr_set_mkey_sig_block(3)):
 * T10-DIF in memory, written from plain wire data; then CRC32C on the
 * wire too: read out and written back unchanged, and a corrupted wire
 * block detected, its CQE handed in by the caller (mlx5umr_sig_report())
 * and read with mlx5umr_mkey_check() (mlx5dv_mkey_check(3)).
 */
TEST_F(lib, signature)
{
	const struct mlx5dv_sig_t10dif dif = {
		.bg_type = MLX5DV_SIG_T10DIF_CRC,
		.app_tag = 0x42,
		.ref_tag = 9,
		.flags = MLX5DV_SIG_T10DIF_FLAG_REF_REMAP,
	};
	const struct mlx5dv_sig_crc crc = {
		.type = MLX5DV_SIG_CRC_TYPE_CRC32C,
		.seed = 0xffffffff,
	};
	struct mlx5dv_sig_block_domain mem = {
		.sig_type = MLX5DV_SIG_TYPE_T10DIF,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_domain wire = {
		.sig_type = MLX5DV_SIG_TYPE_CRC,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_attr attr = {
		.mem = &mem,
		.check_mask = 0xff,
	};
	struct ibv_sge sge = { (uintptr_t)self->b1, 2 * 520, self->mr1->lkey };
	__u8 data[1024], wb[2 * 516], mem0[2 * 520], cqe[64];
	struct mlx5umr_mkey *sk;
	struct mlx5dv_mkey_err e;
	__u32 st = 1, handle = 0;
	int sig_err = -1;
	unsigned int i;

	ASSERT_TRUE(self->attr0.sig);
	mem.sig.dif = &dif;
	wire.sig.crc = &crc;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (__u8)(i * 3);
	sk = mlx5umr_create_mkey(self->ctx, 4, MLX5UMR_MKEY_SIGNATURE);
	ASSERT_NE(NULL, sk);
	ASSERT_EQ(0, cfg_list(sk, ACCESS, 0, &attr, NULL, 1, &sge));
	EXPECT_EQ(2 * 520, sk->length);
	ASSERT_EQ(0, mlx5umr_xfer_sig(self->ctx, sk->rkey, 0, data,
				      sizeof(data), MLX5UMR_XFER_WRITE, &st,
				      &sig_err, NULL));
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, sig_err);
	EXPECT_EQ(0, memcmp(self->b1 + 520, data + 512, 512));
	memcpy(mem0, self->b1, sizeof(mem0));

	/* the wire gets CRC32C: read out, the T10-DIF checked */
	attr.wire = &wire;
	ASSERT_EQ(0, cfg_list(sk, ACCESS, 0, &attr, NULL, 1, &sge));
	ASSERT_EQ(0, mlx5umr_xfer_sig(self->ctx, sk->rkey, 0, wb, sizeof(wb),
				      0, &st, &sig_err, NULL));
	EXPECT_EQ(0, sig_err);
	EXPECT_EQ(0, memcmp(wb, data, 512));
	EXPECT_EQ(0, memcmp(wb + 516, data + 512, 512));
	/* written back: the CRC32C checked, the T10-DIF regenerated */
	ASSERT_EQ(0, mlx5umr_xfer_sig(self->ctx, sk->rkey, 0, wb, sizeof(wb),
				      MLX5UMR_XFER_WRITE, &st, &sig_err, NULL));
	EXPECT_EQ(0, sig_err);
	EXPECT_EQ(0, memcmp(self->b1, mem0, sizeof(mem0)));
	ASSERT_EQ(0, mlx5umr_mkey_check(sk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);

	/* block 1 corrupted on the wire: the caller gets the CQE */
	wb[516 + 10] ^= 0x04;
	ASSERT_EQ(0, mlx5umr_xfer_sig(self->ctx, sk->rkey, 0, wb, sizeof(wb),
				      MLX5UMR_XFER_WRITE, &st, &sig_err, cqe));
	EXPECT_EQ(0, st);
	ASSERT_EQ(1, sig_err);
	ASSERT_EQ(0, mlx5umr_mkey_check(sk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);
	ASSERT_EQ(0, mlx5umr_sig_report(self->ctx, cqe, &handle));
	EXPECT_EQ(sk->handle, handle);
	ASSERT_EQ(0, mlx5umr_mkey_check(sk, &e));
	EXPECT_EQ(MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD, e.err_type);
	/* the last byte of wire block 1, as the fake reports it */
	EXPECT_EQ(2 * 516 - 1, e.err.sig.offset);
	EXPECT_NE(e.err.sig.expected_value, e.err.sig.actual_value);

	/* refusals keep rdma-core's errno conventions */
	EXPECT_EQ(EINVAL, mlx5umr_mkey_check(self->mk, &e));
	EXPECT_EQ(EINVAL, cfg_list(self->mk, ACCESS, 0, &attr, NULL, 1, &sge));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(EOPNOTSUPP, cfg_list(sk, ACCESS, 4, &attr, NULL, 1, &sge));
	ASSERT_EQ(0, cfg_list(sk, ACCESS, MLX5UMR_RESET_SIG, NULL, NULL, 1,
			      &sge));
	EXPECT_EQ(0, mlx5umr_destroy_mkey(sk));
}

/* A DEK of @ctx from IEEE 1619 vector 4's key (AES-XTS-128). */
static struct mlx5umr_dek *v4_dek(struct mlx5umr_context *ctx,
				  const char *keytag)
{
	struct mlx5umr_dek_init_attr da = {
		.key_size = MLX5DV_CRYPTO_KEY_SIZE_128,
		.key_len = sizeof(xts_v4_key),
	};
	__u8 key[sizeof(xts_v4_key)];
	struct mlx5umr_dek *dek;

	memcpy(key, xts_v4_key, sizeof(key));
	da.key = key;
	if (keytag) {
		da.has_keytag = true;
		memcpy(da.keytag, keytag, sizeof(da.keytag));
	}
	dek = mlx5umr_dek_create(ctx, &da);
	/*
	 * The caller's buffer is the caller's to wipe: left as it was, else
	 * no DEK (the callers' ASSERT fails), and none left in the context.
	 */
	if (dek && memcmp(key, xts_v4_key, sizeof(key))) {
		mlx5umr_dek_destroy(dek);
		dek = NULL;
	}
	explicit_bzero(key, sizeof(key));
	return dek;
}

/* INFO's crypto caps; a DEK is an object of the context. */
TEST_F(lib, crypto_caps)
{
	struct mlx5umr_device_attr a;
	struct mlx5umr_dek *dek;

	ASSERT_TRUE(self->attr0.crypto);
	EXPECT_EQ(1U << MLX5DV_CRYPTO_KEY_SIZE_128 |
		  1U << MLX5DV_CRYPTO_KEY_SIZE_256,
		  self->attr0.crypto_key_sizes);
	EXPECT_TRUE(self->attr0.crypto_data_unit_sizes &
		    1U << MLX5DV_BLOCK_SIZE_512);
	EXPECT_TRUE(self->attr0.crypto_data_unit_sizes &
		    1U << MLX5DV_BLOCK_SIZE_4096);
	EXPECT_EQ(0, self->attr0.crypto_data_unit_sizes &
		  ~((1U << (MLX5DV_BLOCK_SIZE_4160 + 1)) - 1));
	EXPECT_EQ(MLX5_UMR_IOC_MAX_FD_DEKS, self->attr0.max_fd_deks);
	EXPECT_EQ(0, self->attr0.fd_deks);
	dek = v4_dek(self->ctx, NULL);
	ASSERT_NE(NULL, dek);
	EXPECT_EQ(MLX5DV_CRYPTO_KEY_SIZE_128, dek->key_size);
	ASSERT_EQ(0, mlx5umr_query_device(self->ctx, &a));
	EXPECT_EQ(1, a.fd_deks);
	EXPECT_EQ(4, a.fd_objects);
	ASSERT_EQ(0, mlx5umr_dek_destroy(dek));
	ASSERT_EQ(0, mlx5umr_query_device(self->ctx, &a));
	EXPECT_EQ(0, a.fd_deks);
	EXPECT_EQ(3, a.fd_objects);
}

/*
 * IEEE 1619-2007 vector 4 through a crypto mkey (memory holds ciphertext):
 * the plaintext a peer writes lands in memory as the standard's
 * ciphertext and reads back as plaintext. With encrypt_on_tx the same
 * memory holds plaintext: the ciphertext written lands decrypted. The
 * tweak grows by one per data unit, from a little-endian initial tweak.
 */
TEST_F(lib, crypto_vector4)
{
	struct mlx5umr_crypto_attr ca = {
		.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS,
		.data_unit_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct ibv_sge sge = { (uintptr_t)self->b1, 1024, self->mr1->lkey };
	struct ibv_sge sge2 = { (uintptr_t)self->b2, 512, self->mr2->lkey };
	static __u8 pt[1024], out[1024], unit1[512];
	struct mlx5umr_mkey *ck;
	struct mlx5umr_dek *dek;
	__u32 st = 1;
	int i;

	for (i = 0; i < (int)sizeof(pt); i++)
		pt[i] = (__u8)i;
	dek = v4_dek(self->ctx, NULL);
	ASSERT_NE(NULL, dek);
	ck = mlx5umr_create_mkey(self->ctx, 4, MLX5UMR_MKEY_CRYPTO);
	ASSERT_NE(NULL, ck);
	ca.dek = dek;
	ASSERT_EQ(0, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	EXPECT_EQ(1024, ck->length);
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, ck->rkey, 0, pt, 1024,
				  MLX5UMR_XFER_WRITE, &st));
	ASSERT_EQ(0, st);
	EXPECT_EQ(0, memcmp(self->b1, xts_v4_ctext, 512));
	/* data unit 1 (tweak 1): another ciphertext of the same plaintext */
	EXPECT_NE(0, memcmp(self->b1 + 512, xts_v4_ctext, 512));
	EXPECT_NE(0, memcmp(self->b1 + 512, pt, 512));
	EXPECT_EQ(0x11, self->b1[1024]);
	memcpy(unit1, self->b1 + 512, 512);
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, ck->rkey, 0, out, 1024, 0, &st));
	ASSERT_EQ(0, st);
	EXPECT_EQ(0, memcmp(out, pt, 1024));

	/* initial tweak 1 (byte 0: little endian) encrypts as unit 1 did */
	ca.initial_tweak[0] = 1;
	ASSERT_EQ(0, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge2));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, ck->rkey, 0, pt, 512,
				  MLX5UMR_XFER_WRITE, &st));
	ASSERT_EQ(0, st);
	EXPECT_EQ(0, memcmp(self->b2, unit1, 512));

	/* encrypt_on_tx: memory plaintext, the wire's ciphertext decrypted */
	ca.initial_tweak[0] = 0;
	ca.encrypt_on_tx = true;
	ASSERT_EQ(0, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge2));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, ck->rkey, 0, (void *)xts_v4_ctext,
				  512, MLX5UMR_XFER_WRITE, &st));
	ASSERT_EQ(0, st);
	EXPECT_EQ(0, memcmp(self->b2, pt, 512));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, ck->rkey, 0, out, 512, 0, &st));
	ASSERT_EQ(0, st);
	EXPECT_EQ(0, memcmp(out, xts_v4_ctext, 512));

	/* the DEK is busy while the configured mkey names it */
	EXPECT_EQ(EBUSY, mlx5umr_dek_destroy(dek));
	ASSERT_EQ(0, mlx5umr_mkey_invalidate(ck));
	EXPECT_EQ(0, mlx5umr_dek_destroy(dek));
	EXPECT_EQ(0, mlx5umr_destroy_mkey(ck));
}

/*
 * A DEK with a keytag: the configure that names its keytag moves vector 4
 * (the plaintext written lands as its ciphertext and reads back); the
 * configure that names another keytag is accepted, and the HCA fails
 * every access through the mkey.
 */
TEST_F(lib, crypto_keytag)
{
	static const char tag[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct mlx5umr_crypto_attr ca = {
		.data_unit_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct ibv_sge sge = { (uintptr_t)self->b1, 512, self->mr1->lkey };
	struct mlx5umr_mkey *ck;
	static __u8 pt[512], out[512];
	__u32 st = 1;
	int i;

	for (i = 0; i < (int)sizeof(pt); i++)
		pt[i] = (__u8)i;
	ca.dek = v4_dek(self->ctx, tag);
	ASSERT_NE(NULL, ca.dek);
	EXPECT_TRUE(ca.dek->has_keytag);
	ck = mlx5umr_create_mkey(self->ctx, 1, MLX5UMR_MKEY_CRYPTO);
	ASSERT_NE(NULL, ck);
	memcpy(ca.keytag, tag, sizeof(tag));
	ASSERT_EQ(0, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, ck->rkey, 0, pt, 512,
				  MLX5UMR_XFER_WRITE, &st));
	EXPECT_EQ(0, st);
	EXPECT_NE(0, memcmp(self->b1, pt, 512));
	EXPECT_EQ(0, memcmp(self->b1, xts_v4_ctext, 512));
	st = 1;
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, ck->rkey, 0, out, 512, 0, &st));
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, memcmp(out, pt, 512));
	memset(self->b1, 0x11, 512);
	ca.keytag[7] ^= 1;
	ASSERT_EQ(0, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, ck->rkey, 0, pt, 512,
				  MLX5UMR_XFER_WRITE, &st));
	EXPECT_NE(0, st);
	EXPECT_EQ(0x11, self->b1[0]);
	EXPECT_EQ(0x11, self->b1[511]);
	ASSERT_EQ(0, mlx5umr_mkey_invalidate(ck));
	EXPECT_EQ(0, mlx5umr_destroy_mkey(ck));
	EXPECT_EQ(0, mlx5umr_dek_destroy(ca.dek));
}

/*
 * Signature and crypto on one mkey, in one configure (rows of
 * mlx5dv_wr_set_mkey_crypto(3)): memory holds plaintext with T10-DIF, the
 * wire vector 4's ciphertext alone (encrypt_on_tx, the signature before
 * crypto on transmit). The ciphertext a peer writes lands as the plaintext
 * with its protection information; a read gives the ciphertext back.
 */
TEST_F(lib, crypto_with_signature)
{
	const struct mlx5dv_sig_t10dif dif = {
		.bg_type = MLX5DV_SIG_T10DIF_CRC,
		.app_tag = 0x1234,
		.ref_tag = 7,
		.flags = MLX5DV_SIG_T10DIF_FLAG_REF_REMAP,
	};
	struct mlx5dv_sig_block_domain mem = {
		.sig_type = MLX5DV_SIG_TYPE_T10DIF,
		.block_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct mlx5dv_sig_block_attr sig = {
		.mem = &mem,
		.check_mask = 0xff,
	};
	struct mlx5umr_crypto_attr ca = {
		.encrypt_on_tx = true,
		.signature_crypto_order =
		MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX,
		.data_unit_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct ibv_sge sge = { (uintptr_t)self->b1, 520, self->mr1->lkey };
	static const __u8 tags[6] = { 0x12, 0x34, 0, 0, 0, 7 };
	struct mlx5umr_mkey *sk;
	struct mlx5dv_mkey_err e;
	static __u8 pt[512], out[512];
	__u32 st = 1;
	int i, sig_err = -1;
	__u16 guard;

	for (i = 0; i < (int)sizeof(pt); i++)
		pt[i] = (__u8)i;
	mem.sig.dif = &dif;
	sk = mlx5umr_create_mkey(self->ctx, 4, MLX5UMR_MKEY_SIGNATURE |
				 MLX5UMR_MKEY_CRYPTO);
	ASSERT_NE(NULL, sk);
	ca.dek = v4_dek(self->ctx, NULL);
	ASSERT_NE(NULL, ca.dek);
	ASSERT_EQ(0, cfg_list(sk, ACCESS, 0, &sig, &ca, 1, &sge));
	ASSERT_EQ(0, mlx5umr_xfer_sig(self->ctx, sk->rkey, 0,
				      (void *)xts_v4_ctext, 512,
				      MLX5UMR_XFER_WRITE, &st, &sig_err, NULL));
	ASSERT_EQ(0, st);
	EXPECT_EQ(0, sig_err);
	EXPECT_EQ(0, memcmp(self->b1, pt, 512));
	guard = crc16_t10dif(pt, 512);
	EXPECT_EQ(guard >> 8, self->b1[512]);
	EXPECT_EQ(guard & 0xff, self->b1[513]);
	EXPECT_EQ(0, memcmp(self->b1 + 514, tags, sizeof(tags)));
	EXPECT_EQ(0x11, self->b1[520]);
	ASSERT_EQ(0, mlx5umr_xfer_sig(self->ctx, sk->rkey, 0, out, 512, 0, &st,
				      &sig_err, NULL));
	ASSERT_EQ(0, st);
	EXPECT_EQ(0, sig_err);
	EXPECT_EQ(0, memcmp(out, xts_v4_ctext, 512));
	ASSERT_EQ(0, mlx5umr_mkey_check(sk, &e));
	EXPECT_EQ(MLX5DV_MKEY_NO_ERR, e.err_type);
	ASSERT_EQ(0, mlx5umr_mkey_invalidate(sk));
	EXPECT_EQ(0, mlx5umr_destroy_mkey(sk));
	EXPECT_EQ(0, mlx5umr_dek_destroy(ca.dek));
}

/* Refusals, with the uapi's errnos (uapi/linux/mlx5_umr.h, "Crypto"). */
TEST_F(lib, crypto_refusals)
{
	struct mlx5umr_dek_init_attr da = {
		.key_size = MLX5DV_CRYPTO_KEY_SIZE_128,
		.key = xts_v4_key,
		.key_len = 31,
	};
	struct mlx5umr_crypto_attr ca = {
		.data_unit_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct ibv_sge sge = { (uintptr_t)self->b1, 512, self->mr1->lkey };
	struct mlx5umr_context *ctx2;
	struct mlx5umr_dek forged, *other, *dek;
	struct mlx5umr_mkey *ck, *pad[4];
	struct mlx5umr_batch *b;
	struct mlx5umr_device_attr a;
	__u32 index = 99, st = 0, i;
	__u8 key64[64];

	/* key lengths that are not the key size's; unknown sizes */
	errno = 0;
	EXPECT_EQ(NULL, mlx5umr_dek_create(self->ctx, &da));
	EXPECT_EQ(EINVAL, errno);
	da.key_len = 33;
	EXPECT_EQ(NULL, mlx5umr_dek_create(self->ctx, &da));
	EXPECT_EQ(EINVAL, errno);
	memset(key64, 0x3c, sizeof(key64));
	key64[63] = 0;
	da.key = key64;
	da.key_len = 64;
	EXPECT_EQ(NULL, mlx5umr_dek_create(self->ctx, &da));
	EXPECT_EQ(EINVAL, errno);
	/* 4 GiB + 64 is not 64, the 256-bit size's, in the uapi's 32 bits */
	if (sizeof(size_t) > 4) {
		da.key_size = MLX5DV_CRYPTO_KEY_SIZE_256;
		da.key_len = (size_t)((1ULL << 32) + 64);
		errno = 0;
		EXPECT_EQ(NULL, mlx5umr_dek_create(self->ctx, &da));
		EXPECT_EQ(EINVAL, errno);
		da.key_len = 64;
	}
	da.key_size = (enum mlx5dv_crypto_key_size)7;
	EXPECT_EQ(NULL, mlx5umr_dek_create(self->ctx, &da));
	EXPECT_EQ(EINVAL, errno);
	da.key_size = MLX5DV_CRYPTO_KEY_SIZE_256;
	da.comp_mask = 1;
	EXPECT_EQ(NULL, mlx5umr_dek_create(self->ctx, &da));
	EXPECT_EQ(EINVAL, errno);
	/* a keytag without has_keytag: the library refuses it */
	da.comp_mask = 0;
	da.keytag[7] = 1;
	errno = 0;
	EXPECT_EQ(NULL, mlx5umr_dek_create(self->ctx, &da));
	EXPECT_EQ(EINVAL, errno);
	da.keytag[7] = 0;
	ASSERT_EQ(0, mlx5umr_query_device(self->ctx, &a));
	EXPECT_EQ(0, a.fd_deks);
	EXPECT_EQ(3, a.fd_objects);

	/* 64 bytes for a 256-bit key are fine */
	dek = mlx5umr_dek_create(self->ctx, &da);
	ASSERT_NE(NULL, dek);
	EXPECT_EQ(MLX5DV_CRYPTO_KEY_SIZE_256, dek->key_size);
	ca.dek = dek;
	ck = mlx5umr_create_mkey(self->ctx, 1, MLX5UMR_MKEY_CRYPTO);
	ASSERT_NE(NULL, ck);

	/* unknown data unit size, standard, order; comp_mask; no DEK */
	ca.data_unit_size = (enum mlx5dv_block_size)7;
	EXPECT_EQ(EINVAL, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	ca.data_unit_size = MLX5DV_BLOCK_SIZE_512;
	ca.crypto_standard = (enum mlx5dv_crypto_standard)1;
	EXPECT_EQ(EINVAL, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	ca.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS;
	ca.signature_crypto_order = (enum mlx5dv_signature_crypto_order)2;
	EXPECT_EQ(EINVAL, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	ca.signature_crypto_order =
		MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX;
	ca.comp_mask = 1;
	EXPECT_EQ(EINVAL, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	ca.comp_mask = 0;
	/* a crypto mkey without crypto, crypto on another mkey */
	EXPECT_EQ(EINVAL, mlx5umr_mkey_configure_list(ck, ACCESS, 1, &sge));
	EXPECT_EQ(EINVAL, cfg_list(self->mk, ACCESS, 0, NULL, &ca, 1, &sge));
	/* a handle that is not a DEK of this file; another context's DEK */
	forged = *dek;
	forged.handle = ck->handle;
	ca.dek = &forged;
	EXPECT_EQ(ENOENT, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	/*
	 * The other context's DEK has the handle of this context's: the
	 * kernel would take it as this context's DEK, the library refuses.
	 */
	ctx2 = mlx5umr_open(self->ctx->name);
	ASSERT_NE(NULL, ctx2);
	ASSERT_GE(ARRAY_SIZE(pad), dek->handle - 1);
	for (i = 0; i + 1 < dek->handle; i++) {
		pad[i] = mlx5umr_create_mkey(ctx2, 1, 0);
		ASSERT_NE(NULL, pad[i]);
	}
	other = v4_dek(ctx2, NULL);
	ASSERT_NE(NULL, other);
	ASSERT_EQ(dek->handle, other->handle);
	ca.dek = other;
	EXPECT_EQ(ENOENT, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	EXPECT_EQ(0, ck->length);
	ASSERT_EQ(0, mlx5umr_close(ctx2));	/* its objects go with it */
	for (i = 0; i + 1 < dek->handle; i++)
		free(pad[i]);
	free(other);
	ca.dek = NULL;
	EXPECT_EQ(EINVAL, cfg_list(ck, ACCESS, 0, NULL, &ca, 1, &sge));
	/* nothing configured: every access fails */
	EXPECT_EQ(0, ck->length);
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, ck->rkey, 0, key64, 8,
				  MLX5UMR_XFER_WRITE, &st));
	EXPECT_NE(0, st);
	EXPECT_EQ(0x11, self->b1[0]);

	/* a crypto mkey's configure is not batched; its invalidate is */
	b = mlx5umr_batch_create(self->ctx);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, batch_list(b, ck, ACCESS, 0, 1, &sge));
	EXPECT_EQ(EOPNOTSUPP, mlx5umr_batch_submit(b, &index));
	EXPECT_EQ(0, index);
	ASSERT_EQ(0, mlx5umr_batch_invalidate(b, ck));
	EXPECT_EQ(0, mlx5umr_batch_submit(b, &index));
	EXPECT_EQ(0, mlx5umr_batch_status(b, 0));
	mlx5umr_batch_destroy(b);
	EXPECT_EQ(0, mlx5umr_destroy_mkey(ck));
	EXPECT_EQ(0, mlx5umr_dek_destroy(dek));
}

/* The same in a batch: the mkeys' keys follow the submit. */
TEST_F(lib, batch_new_key)
{
	struct ibv_sge sge = { (uintptr_t)self->b1, 64, self->mr1->lkey };
	struct mlx5umr_batch *b = mlx5umr_batch_create(self->ctx);
	struct mlx5umr_mkey *mk2 = mlx5umr_create_mkey(self->ctx, 4, 0);
	__u32 k0 = self->mk->rkey, k2 = 0, index = 99, st = 1;
	__u8 in[8] = { 4, 5, 6 };

	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, mk2);
	k2 = mk2->rkey;
	ASSERT_EQ(0, batch_list(b, self->mk, ACCESS, MLX5UMR_NEW_KEY, 1, &sge));
	ASSERT_EQ(0, mlx5umr_batch_invalidate_ex(b, mk2, MLX5UMR_NEW_KEY));
	ASSERT_EQ(0, mlx5umr_batch_submit(b, &index));
	EXPECT_EQ(0, mlx5umr_batch_status(b, 0));
	EXPECT_EQ(0, mlx5umr_batch_status(b, 1));
	EXPECT_EQ(k0 >> 8, self->mk->rkey >> 8);
	EXPECT_NE(k0, self->mk->rkey);
	EXPECT_EQ(self->mk->rkey, self->mk->lkey);
	EXPECT_EQ(k2 >> 8, mk2->rkey >> 8);
	EXPECT_NE(k2, mk2->rkey);
	EXPECT_EQ(ENOENT, mlx5umr_xfer(self->ctx, k0, 0, in, 8,
				       MLX5UMR_XFER_WRITE, &st));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, self->mk->rkey, 0, in, 8,
				  MLX5UMR_XFER_WRITE, &st));
	EXPECT_EQ(0, st);
	EXPECT_EQ(0, memcmp(self->b1, in, 8));
	mlx5umr_batch_destroy(b);
	EXPECT_EQ(0, mlx5umr_destroy_mkey(mk2));
}

/* int calls return the errno value and set errno; pointers NULL + errno. */
TEST_F(lib, errors)
{
	struct ibv_sge sge = { (uintptr_t)self->b1 + 2 * PAGE - 4, 8,
			       self->mr1->lkey };
	__u32 st = 0;
	__u8 in[16] = { 0 };

	errno = 0;
	EXPECT_EQ(ERANGE, mlx5umr_mkey_configure_list(self->mk, 0, 1, &sge));
	EXPECT_EQ(ERANGE, errno);
	sge.lkey ^= 0xff;
	EXPECT_EQ(ENOENT, mlx5umr_mkey_configure_list(self->mk, 0, 1, &sge));
	errno = 0;
	EXPECT_EQ(NULL, mlx5umr_reg_mr(self->ctx, self->b1, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(NULL, mlx5umr_create_mkey(self->ctx, 4, 1U << 7));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(NULL, mlx5umr_create_mkey(self->ctx,
					    self->attr0.max_entries + 1, 0));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(NULL, mlx5umr_open("no-such-device"));
	EXPECT_EQ(ENOENT, errno);

	/* Layouts hold registrations: EBUSY until invalidated. */
	sge.lkey = self->mr1->lkey;
	sge.addr = (uintptr_t)self->b1;
	ASSERT_EQ(0, mlx5umr_mkey_configure_list(self->mk,
						 IBV_ACCESS_LOCAL_WRITE |
						 IBV_ACCESS_REMOTE_WRITE,
						 1, &sge));
	EXPECT_EQ(EBUSY, mlx5umr_dereg_mr(self->mr1));
	ASSERT_EQ(0, mlx5umr_mkey_invalidate(self->mk));
	EXPECT_EQ(0, self->mk->length);
	/* The HCA refuses the access: a completion error, not an errno. */
	EXPECT_EQ(0, mlx5umr_xfer(self->ctx, self->mk->rkey, 0, in, 8,
				  MLX5UMR_XFER_WRITE, &st));
	EXPECT_NE(0, st);
	ASSERT_EQ(0, mlx5umr_dereg_mr(self->mr1));
	ASSERT_EQ(0, mlx5umr_destroy_mkey(self->mk));
	ASSERT_EQ(0, mlx5umr_dereg_mr(self->mr2));
	self->mr1 = NULL;
	self->mr2 = NULL;
	self->mk = NULL;
}

/*
 * A batch: two configures and an invalidate in one system call; the mkey
 * lengths follow; EEXIST for an mkey already in the batch; a refused batch
 * names its request and applies nothing.
 */
TEST_F(lib, batch)
{
	struct ibv_sge sge1 = { (uintptr_t)self->b1, 100, self->mr1->lkey };
	struct ibv_sge sge2 = { (uintptr_t)self->b2 + 8, 40,
				self->mr2->lkey };
	struct ibv_sge bad = { (uintptr_t)self->b2 + 2 * PAGE - 8, 40,
			       self->mr2->lkey };
	struct mlx5umr_batch *b = mlx5umr_batch_create(self->ctx);
	struct mlx5umr_mkey *mk2 = mlx5umr_create_mkey(self->ctx, 4, 0);
	__u32 status, index = 99;
	__u8 in[40];

	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, mk2);
	ASSERT_EQ(0, mlx5umr_mkey_configure_list(self->mk, ACCESS, 1, &sge2));
	EXPECT_EQ(0, batch_list(b, mk2, ACCESS, 0, 1, &sge1));
	EXPECT_EQ(0, mlx5umr_batch_invalidate(b, self->mk));
	EXPECT_EQ(EEXIST, mlx5umr_batch_invalidate(b, mk2));
	EXPECT_EQ(2, mlx5umr_batch_count(b));
	ASSERT_EQ(0, mlx5umr_batch_submit(b, &index));
	EXPECT_EQ(0, mlx5umr_batch_count(b));
	EXPECT_EQ(0, mlx5umr_batch_status(b, 0));
	EXPECT_EQ(0, mlx5umr_batch_status(b, 1));
	EXPECT_EQ(EINVAL, mlx5umr_batch_status(b, 2));
	EXPECT_EQ(100, mk2->length);
	EXPECT_EQ(0, self->mk->length);
	memset(in, 0x77, sizeof(in));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, mk2->rkey, 0, in, 40,
				  MLX5UMR_XFER_WRITE, &status));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, memcmp(self->b1, in, 40));
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, self->mk->rkey, 0, in, 1,
				  MLX5UMR_XFER_WRITE, &status));
	EXPECT_NE(0, status);

	/* refused at request 1: request 0 was not applied either */
	EXPECT_EQ(0, batch_list(b, self->mk, ACCESS, 0, 1, &sge1));
	EXPECT_EQ(0, batch_list(b, mk2, ACCESS, 0, 1, &bad));
	EXPECT_EQ(ERANGE, mlx5umr_batch_submit(b, &index));
	EXPECT_EQ(1, index);
	EXPECT_EQ(0, self->mk->length);
	EXPECT_EQ(100, mk2->length);
	ASSERT_EQ(0, mlx5umr_xfer(self->ctx, self->mk->rkey, 0, in, 1,
				  MLX5UMR_XFER_WRITE, &status));
	EXPECT_NE(0, status);
	mlx5umr_batch_destroy(b);
	EXPECT_EQ(0, mlx5umr_destroy_mkey(mk2));
}

TEST_HARNESS_MAIN
