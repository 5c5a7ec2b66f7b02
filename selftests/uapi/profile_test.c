// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The uapi's crypto and signature on each device generation of the fake
 * (Documentation/fake.rst, "Crypto profiles"): the test reloads
 * mlx5_umr_fake with its module parameters crypto_profile and
 * sigerr_domain (test build only) and asserts what that generation
 * changes: INFO's engine and caps; no crypto mkey or DEK without a crypto
 * engine (EOPNOTSUPP); one data unit per crypto mkey on a single-block
 * engine (EINVAL, rule 64); IEEE 1619 vector 4 wherever there is crypto,
 * and on multi-block engines initial tweak 1 giving the bytes of the
 * second data unit of tweak 0 (a big-endian engine reads the tweak the
 * service reversed); the width of a wire T10-DIF guard error on an mkey
 * whose memory domain is CRC32C (16 bits where the CQE names the domain,
 * the 32-bit transient word where it does not).
 *
 * Each variant reloads the fake once; the whole crypto_test and sig_test
 * run under the default generation.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>

#include "kselftest_harness.h"
#include "umr_util.h"

typedef __u8 u8;
#include "xts_vectors.h"

#define DU		512
#define BUF_LEN		(2 * PAGE)
#define APP		0x1234

/* mlx5_umr_fake's crypto_profile (enum mlx5_umr_fake_crypto) */
enum { P_NONE, P_SINGLE_LE, P_MULTI_LE, P_MULTI_BE };

/* (Re)load the fake as one generation; 0 on success. */
static int load_fake(unsigned int crypto, int dom)
{
	const char *ko = getenv("MLX5_UMR_FAKE_KO");
	char cmd[600];

	if (!access("/sys/module/mlx5_umr_fake", F_OK) &&
	    system("rmmod mlx5_umr_fake"))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s %.480s crypto_profile=%u sigerr_domain=%d",
		 ko ? "insmod" : "modprobe", ko ? ko : "mlx5_umr_fake", crypto,
		 dom);
	return system(cmd);
}

FIXTURE(profile) {
	int fd;
	__u8 *buf;
	__u32 mr, key;
	struct mlx5_umr_ioc_info info;
};

FIXTURE_VARIANT(profile) {
	unsigned int crypto;
	int dom;
};

FIXTURE_VARIANT_ADD(profile, none) {
	.crypto = P_NONE, .dom = 1
};

FIXTURE_VARIANT_ADD(profile, single_le) {
	.crypto = P_SINGLE_LE, .dom = 1
};

/* the default crypto, a signature device of before the CQE's domain */
FIXTURE_VARIANT_ADD(profile, multi_le_no_domain) {
	.crypto = P_MULTI_LE, .dom = 0
};

FIXTURE_VARIANT_ADD(profile, multi_be) {
	.crypto = P_MULTI_BE, .dom = 1
};

FIXTURE_SETUP(profile)
{
	if (getenv("MLX5_UMR_DEV"))
		SKIP(return, "a given device: no fake to reload");
	ASSERT_EQ(0, load_fake(variant->crypto, variant->dom));
	self->fd = umr_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, umr_info(self->fd, &self->info));
	self->buf = umr_map(BUF_LEN, 0xee);
	ASSERT_NE(NULL, self->buf);
	ASSERT_EQ(0, umr_reg(self->fd, self->buf, BUF_LEN, UMR_ACCESS_ALL3,
			     &self->mr, &self->key));
}

FIXTURE_TEARDOWN(profile)
{
	if (getenv("MLX5_UMR_DEV"))
		return;
	if (self->fd >= 0)
		close(self->fd);
	/* the default generation again, for the programs after this one */
	EXPECT_EQ(0, load_fake(P_MULTI_LE, 1));
}

static int alloc_flags(int fd, __u32 flags, __u32 *handle, __u32 *key)
{
	struct mlx5_umr_ioc_alloc_mkey cmd = {
		.size = sizeof(cmd),
		.flags = flags,
		.max_entries = 4,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &cmd);

	if (!ret) {
		*handle = cmd.out_handle;
		*key = cmd.out_key;
	}
	return ret;
}

static int dek_create(int fd, __u32 *handle)
{
	struct mlx5_umr_ioc_dek_create cmd = {
		.size = sizeof(cmd),
		.key_size = MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
		.key_len = sizeof(xts_v4_key),
		.key = (uintptr_t)xts_v4_key,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_DEK_CREATE, &cmd);

	if (!ret)
		*handle = cmd.out_handle;
	return ret;
}

/* CONFIGURE @handle over @len bytes of the buffer, with @sig or @crypto. */
static int configure(struct _test_data_profile *self, __u32 handle,
		     __u64 len, const struct mlx5_umr_ioc_sig_block *sig,
		     const struct mlx5_umr_ioc_crypto *crypto)
{
	struct mlx5_umr_ioc_sge sge = { (uintptr_t)self->buf, len, self->key };
	struct mlx5_umr_ioc_configure cmd = {
		.size = sizeof(cmd),
		.handle = handle,
		.access = UMR_ACCESS_ALL3,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST,
		.num_entries = 1,
		.entries = (uintptr_t)&sge,
	};

	if (sig) {
		cmd.flags |= MLX5_UMR_IOC_SIG_SET;
		cmd.sig = *sig;
	}
	if (crypto) {
		cmd.flags |= MLX5_UMR_IOC_CRYPTO_SET;
		cmd.crypto = *crypto;
	}
	return umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd);
}

/* AES-XTS, memory ciphertext, 512-byte data units, little-endian tweak @t */
static struct mlx5_umr_ioc_crypto xts(__u32 dek, __u8 t)
{
	struct mlx5_umr_ioc_crypto c = {
		.standard = MLX5_UMR_IOC_CRYPTO_STANDARD_AES_XTS,
		.sig_order = MLX5_UMR_IOC_SIG_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_IOC_SIG_BLOCK_512,
		.dek = dek,
	};

	c.initial_tweak[0] = t;
	return c;
}

TEST_F(profile, crypto)
{
	static const __u32 engine[] = {
		[P_NONE] = MLX5_UMR_IOC_CRYPTO_ENGINE_NONE,
		[P_SINGLE_LE] = MLX5_UMR_IOC_CRYPTO_ENGINE_SINGLE_BLOCK,
		[P_MULTI_LE] = MLX5_UMR_IOC_CRYPTO_ENGINE_MULTI_BLOCK,
		[P_MULTI_BE] = MLX5_UMR_IOC_CRYPTO_ENGINE_MULTI_BLOCK,
	};
	struct mlx5_umr_ioc_crypto c;
	__u8 pt[2 * DU], two[2 * DU];
	__u32 mk, mkey, dek;
	unsigned int i;

	for (i = 0; i < sizeof(pt); i++)
		pt[i] = (__u8)i;
	EXPECT_EQ(engine[variant->crypto], self->info.out_crypto_engine);
	EXPECT_EQ(variant->crypto == P_MULTI_BE,
		  !!(self->info.out_crypto_caps &
		     MLX5_UMR_IOC_CRYPTO_CAP_TWEAK_BE));
	if (variant->crypto == P_NONE) {
		EXPECT_EQ(0, self->info.out_flags & MLX5_UMR_IOC_INFO_CRYPTO);
		EXPECT_EQ(-EOPNOTSUPP, alloc_flags(self->fd,
						   MLX5_UMR_IOC_MKEY_CRYPTO,
						   &mk, &mkey));
		EXPECT_EQ(-EOPNOTSUPP, dek_create(self->fd, &dek));
		return;
	}
	ASSERT_EQ(MLX5_UMR_IOC_INFO_CRYPTO,
		  self->info.out_flags & MLX5_UMR_IOC_INFO_CRYPTO);
	ASSERT_EQ(0, alloc_flags(self->fd, MLX5_UMR_IOC_MKEY_CRYPTO, &mk,
				 &mkey));
	ASSERT_EQ(0, dek_create(self->fd, &dek));
	c = xts(dek, 0);

	/* two data units in one mkey: only on a multi-block engine */
	EXPECT_EQ(variant->crypto == P_SINGLE_LE ? -EINVAL : 0,
		  configure(self, mk, 2 * DU, NULL, &c));
	/* vector 4 (tweak 0) in one data unit, on every engine */
	ASSERT_EQ(0, configure(self, mk, DU, NULL, &c));
	ASSERT_EQ(0, umr_xfer(self->fd, mkey, 0, pt, DU, 1));
	EXPECT_EQ(0, memcmp(self->buf, xts_v4_ctext, DU));
	if (variant->crypto == P_SINGLE_LE)
		return;

	/* tweak 0 over two units; then tweak 1 gives the second one */
	ASSERT_EQ(0, configure(self, mk, 2 * DU, NULL, &c));
	ASSERT_EQ(0, umr_xfer(self->fd, mkey, 0, pt, 2 * DU, 1));
	EXPECT_EQ(0, memcmp(self->buf, xts_v4_ctext, DU));
	memcpy(two, self->buf, sizeof(two));
	memset(self->buf, 0xee, 2 * DU);
	c = xts(dek, 1);
	ASSERT_EQ(0, configure(self, mk, DU, NULL, &c));
	ASSERT_EQ(0, umr_xfer(self->fd, mkey, 0, pt + DU, DU, 1));
	EXPECT_EQ(0, memcmp(self->buf, two + DU, DU))
		TH_LOG("initial tweak 1 is not the second data unit of tweak 0");
}

/*
 * A wire T10-DIF guard error on an mkey whose memory domain is CRC32C,
 * one block written by a peer: the status at the wire's width where the
 * CQE names the domain, else the memory domain's 32-bit word.
 */
TEST_F(profile, sig_domain_width)
{
	struct mlx5_umr_ioc_sig_block sig = {
		.mem = { .sig_type = MLX5_UMR_IOC_SIG_TYPE_CRC,
			 .block_size = MLX5_UMR_IOC_SIG_BLOCK_512,
			 .crc_type = MLX5_UMR_IOC_SIG_CRC32C },
		.wire = { .sig_type = MLX5_UMR_IOC_SIG_TYPE_T10DIF,
			  .block_size = MLX5_UMR_IOC_SIG_BLOCK_512,
			  .bg_type = MLX5_UMR_IOC_SIG_T10DIF_CRC,
			  .app_tag = APP },
		.check_mask = 0xff,
	};
	struct mlx5_umr_ioc_sig_check chk = { .size = sizeof(chk) };
	__u8 wire[DU + 8] = { 0 };
	__u16 calc, bad;
	__u32 mk, mkey;
	unsigned int i;

	ASSERT_EQ(MLX5_UMR_IOC_INFO_SIG,
		  self->info.out_flags & MLX5_UMR_IOC_INFO_SIG);
	ASSERT_EQ(0, alloc_flags(self->fd, MLX5_UMR_IOC_MKEY_SIGNATURE, &mk,
				 &mkey));
	ASSERT_EQ(0, configure(self, mk, DU + 4, &sig, NULL));
	for (i = 0; i < DU; i++)
		wire[i] = (__u8)(i * 7);
	calc = crc16_t10dif(wire, DU);
	bad = calc ^ 0x0100;
	wire[DU] = bad >> 8;
	wire[DU + 1] = (__u8)bad;
	wire[DU + 2] = APP >> 8;
	wire[DU + 3] = APP & 0xff;
	ASSERT_EQ(0, umr_xfer(self->fd, mkey, 0, wire, sizeof(wire), 1));
	chk.handle = mk;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_CHECK, &chk));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_GUARD, chk.out_err_type);
	EXPECT_EQ(DU + 8 - 1, chk.out_offset);
	if (variant->dom) {
		EXPECT_EQ(calc, chk.out_expected);
		EXPECT_EQ(bad, chk.out_actual);
	} else {
		EXPECT_EQ((__u32)calc << 16 | APP, chk.out_expected);
		EXPECT_EQ((__u32)bad << 16 | APP, chk.out_actual);
	}
	/* the data moved anyway */
	EXPECT_EQ(0, memcmp(self->buf, wire, DU));
}

TEST_HARNESS_MAIN
