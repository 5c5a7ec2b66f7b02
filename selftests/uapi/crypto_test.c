// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * AES-XTS crypto selftests of the uapi (MLX5_UMR_IOCTL_DEK_CREATE,
 * MLX5_UMR_IOC_MKEY_CRYPTO, MLX5_UMR_IOC_CRYPTO_SET), on a fake HCA, whose
 * crypto engine moves the data of the test XFER path through the kernel's
 * xts(aes) (Documentation/fake.rst).
 *
 * The bytes are asserted against IEEE Std 1619-2007's XTS-AES vector 4
 * (tests/vectors/xts_vectors.h), not against the fake's output. A peer's
 * RDMA WRITE (XFER write) brings wire data into memory; an RDMA READ (XFER
 * read) takes memory to the wire. Without MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX
 * memory holds ciphertext and the wire plaintext: writing the vector's
 * plaintext leaves its ciphertext in memory. Every refusal is checked with
 * its errno, and after it that the HCA executed no work request and the
 * file holds no more objects or DEKs; every test's teardown that the
 * device holds no more objects or mkeys than before. The key bytes must
 * appear in no debugfs file of the fake and nowhere in the kernel log.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/klog.h>
#include <sys/random.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "umr_util.h"

/* The project's one copy of the vector (a KUnit header: its u8). */
typedef __u8 u8;
#include "xts_vectors.h"

#define DU		512		/* the vector's data unit */
#define BUF_LEN		(2 * PAGE)
#define KEY128		32		/* key1 | key2 */
#define KEY256		64

static const char *const hca_counters[] = { "mkeys", "wqes" };

FIXTURE(crypto) {
	int fd;
	char path[256];
	struct mlx5_umr_ioc_info info0;
	long long hca0[2];
	__u8 *buf;		/* BUF_LEN of registered memory */
	__u8 pt[2 * DU];	/* the vector's plaintext, twice */
	__u32 mr, key;
	__u32 mk, mkey;		/* a crypto mkey */
	__u32 pk, pkey;		/* a plain mkey */
	__u32 dek;		/* vector 4's key */
	struct mlx5_umr_ioc_sge sge;	/* DU bytes of buf */
};

static int dek_create(int fd, __u32 key_size, const void *key, __u32 len,
		      __u32 flags, const __u8 *keytag, __u32 *handle)
{
	struct mlx5_umr_ioc_dek_create cmd = {
		.size = sizeof(cmd),
		.flags = flags,
		.key_size = key_size,
		.key_len = len,
		.key = (uintptr_t)key,
	};
	int ret;

	if (keytag)
		memcpy(cmd.keytag, keytag, sizeof(cmd.keytag));
	ret = umr_ioctl(fd, MLX5_UMR_IOCTL_DEK_CREATE, &cmd);
	if (!ret && handle)
		*handle = cmd.out_handle;
	return ret;
}

static int alloc_flags(int fd, __u32 flags, __u32 max_entries, __u32 *handle,
		       __u32 *key)
{
	struct mlx5_umr_ioc_alloc_mkey cmd = {
		.size = sizeof(cmd),
		.flags = flags,
		.max_entries = max_entries,
	};
	int ret = umr_ioctl(fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &cmd);

	if (!ret) {
		*handle = cmd.out_handle;
		if (key)
			*key = cmd.out_key;
	}
	return ret;
}

/* AES-XTS with @dek, memory ciphertext, 512-byte data units, tweak @t. */
static struct mlx5_umr_ioc_crypto xts(__u32 dek, __u8 t)
{
	struct mlx5_umr_ioc_crypto c = {
		.standard = MLX5_UMR_IOC_CRYPTO_STANDARD_AES_XTS,
		.sig_order = MLX5_UMR_IOC_SIG_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_IOC_SIG_BLOCK_512,
		.dek = dek,
	};

	c.initial_tweak[0] = t;		/* little endian: tweak t */
	return c;
}

static void conf_init(struct mlx5_umr_ioc_configure *cmd, __u32 handle,
		      __u32 flags, const struct mlx5_umr_ioc_sge *sge, __u32 n)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->size = sizeof(*cmd);
	cmd->handle = handle;
	cmd->flags = flags;
	cmd->access = UMR_ACCESS_ALL3;
	cmd->layout = MLX5_UMR_IOC_LAYOUT_LIST;
	cmd->num_entries = n;
	cmd->entries = (uintptr_t)sge;
}

/* CONFIGURE @handle over @sge[@n] with @c (NULL: no crypto block). */
static int configure_n(int fd, __u32 handle, __u32 flags,
		       const struct mlx5_umr_ioc_crypto *c,
		       const struct mlx5_umr_ioc_sge *sge, __u32 n)
{
	struct mlx5_umr_ioc_configure cmd;

	conf_init(&cmd, handle, flags, sge, n);
	if (c)
		cmd.crypto = *c;
	return umr_ioctl(fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd);
}

static int configure(int fd, __u32 handle, const struct mlx5_umr_ioc_crypto *c,
		     const struct mlx5_umr_ioc_sge *sge)
{
	return configure_n(fd, handle, c ? MLX5_UMR_IOC_CRYPTO_SET : 0, c, sge,
			   1);
}

FIXTURE_SETUP(crypto)
{
	unsigned int i;
	int fd0;

	ASSERT_EQ(0, umr_find_dev(self->path, sizeof(self->path)))
		TH_LOG("no fake mlx5-umr device");
	fd0 = open(self->path, O_RDWR);
	ASSERT_LE(0, fd0);
	ASSERT_EQ(0, umr_info(fd0, &self->info0));
	close(fd0);
	for (i = 0; i < ARRAY_SIZE(hca_counters); i++)
		self->hca0[i] = umr_fake_counter(self->path, hca_counters[i]);
	ASSERT_EQ(MLX5_UMR_IOC_INFO_CRYPTO,
		  self->info0.out_flags & MLX5_UMR_IOC_INFO_CRYPTO)
		TH_LOG("the fake HCA offers no crypto mkeys");

	for (i = 0; i < sizeof(self->pt); i++)
		self->pt[i] = (__u8)i;
	self->fd = umr_open();
	ASSERT_LE(0, self->fd);
	self->buf = umr_map(BUF_LEN, 0xee);
	ASSERT_NE(NULL, self->buf);
	ASSERT_EQ(0, umr_reg(self->fd, self->buf, BUF_LEN, UMR_ACCESS_ALL3,
			     &self->mr, &self->key));
	ASSERT_EQ(0, alloc_flags(self->fd, MLX5_UMR_IOC_MKEY_CRYPTO, 4,
				 &self->mk, &self->mkey));
	ASSERT_EQ(0, umr_alloc(self->fd, 4, &self->pk, &self->pkey));
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				xts_v4_key, KEY128, 0, NULL, &self->dek));
	self->sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf, DU,
					       self->key };
}

/*
 * EXPECT, not ASSERT: after an ASSERT failed in the test, the 6.1
 * harness's handler flag is still set, and an ASSERT here would jump back
 * into the teardown (and one failing here would loop in it).
 */
FIXTURE_TEARDOWN(crypto)
{
	struct mlx5_umr_ioc_info info = { 0 };
	int fd;

	close(self->fd);
	fd = umr_open();
	EXPECT_LE(0, fd);
	if (fd < 0)
		return;
	EXPECT_EQ(0, umr_info(fd, &info));
	EXPECT_EQ(self->info0.out_dev_objects, info.out_dev_objects);
	EXPECT_EQ(self->info0.out_dev_pinned_pages,
		  info.out_dev_pinned_pages);
	EXPECT_EQ(0, info.out_fd_deks);
	close(fd);
	/* the HCA's mkeys went with the file (when debugfs is up) */
	if (self->hca0[0] >= 0)
		EXPECT_EQ(self->hca0[0], umr_fake_counter(self->path, "mkeys"));
}

/*
 * The file holds @objs objects beyond the fixture's four (an MR, two
 * mkeys, a DEK), @deks DEKs beyond its one, and the HCA executed no work
 * request since @wqes was read.
 */
static void nothing_done_n(struct __test_metadata *_metadata,
			   struct _test_data_crypto *self, long long wqes,
			   unsigned int objs, unsigned int deks,
			   const char *what)
{
	struct mlx5_umr_ioc_info info;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(4 + objs, info.out_fd_objects) TH_LOG("%s", what);
	EXPECT_EQ(1 + deks, info.out_fd_deks) TH_LOG("%s", what);
	if (wqes >= 0)
		EXPECT_EQ(wqes, umr_fake_counter(self->path, "wqes"))
			TH_LOG("%s: the HCA executed a work request", what);
}

#define nothing_done(w, what) nothing_done_n(_metadata, self, w, 0, 0, what)

/* Through the mkey as a peer: 0 or the CQE syndrome; -errno. */
static int xfer(struct _test_data_crypto *self, __u64 off, void *p, __u64 len,
		int write)
{
	return umr_xfer(self->fd, self->mkey, off, p, len, write);
}

TEST_F(crypto, info)
{
	struct mlx5_umr_ioc_info info;
	__u32 d;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(MLX5_UMR_IOC_INFO_CRYPTO,
		  info.out_flags & MLX5_UMR_IOC_INFO_CRYPTO);
	EXPECT_EQ(1u << MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128 |
		  1u << MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256,
		  info.out_crypto_key_sizes);
	EXPECT_EQ(1u << MLX5_UMR_IOC_SIG_BLOCK_512 |
		  1u << MLX5_UMR_IOC_SIG_BLOCK_520 |
		  1u << MLX5_UMR_IOC_SIG_BLOCK_4048 |
		  1u << MLX5_UMR_IOC_SIG_BLOCK_4096 |
		  1u << MLX5_UMR_IOC_SIG_BLOCK_4160,
		  info.out_crypto_data_unit_sizes);
	EXPECT_EQ(MLX5_UMR_IOC_MAX_FD_DEKS, info.out_max_fd_deks);
	EXPECT_EQ(1, info.out_fd_deks);
	EXPECT_EQ(4, info.out_fd_objects);
	/* the fake's default generation: multi block, LE tweak, sync */
	EXPECT_EQ(MLX5_UMR_IOC_CRYPTO_ENGINE_MULTI_BLOCK,
		  info.out_crypto_engine);
	EXPECT_EQ(MLX5_UMR_IOC_CRYPTO_CAP_SYNCHRONIZE_DEK,
		  info.out_crypto_caps);
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				xts_v4_key, KEY128, 0, NULL, &d));
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(2, info.out_fd_deks);
	EXPECT_EQ(5, info.out_fd_objects);

	/* a caller of INFO's second version gets no crypto fields */
	memset(&info, 0xa5, sizeof(info));
	info.size = offsetof(struct mlx5_umr_ioc_info, out_crypto_key_sizes);
	info.flags = 0;
	info.__reserved = 0;
	info.__reserved2 = 0;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_INFO, &info));
	EXPECT_EQ(0xa5a5a5a5, info.out_crypto_key_sizes);
	EXPECT_EQ(0xa5a5a5a5, info.out_fd_deks);
	/* nor one of the third the engine fields */
	memset(&info, 0xa5, sizeof(info));
	info.size = offsetof(struct mlx5_umr_ioc_info, out_crypto_engine);
	info.flags = 0;
	info.__reserved = 0;
	info.__reserved2 = 0;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_INFO, &info));
	EXPECT_EQ(2, info.out_fd_deks);
	EXPECT_EQ(0xa5a5a5a5, info.out_crypto_engine);
	EXPECT_EQ(0xa5a5a5a5, info.out_crypto_caps);
}

/* DEKs of both sizes, with and without keytag: created, used, destroyed. */
TEST_F(crypto, dek_create_destroy)
{
	static const __u8 tag[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	__u8 key[KEY256], copy[KEY256];
	struct mlx5_umr_ioc_crypto c;
	struct mlx5_umr_ioc_info info;
	__u32 d[4];
	unsigned int i;

	for (i = 0; i < KEY256; i++)
		key[i] = (__u8)(0x40 + i * 3);
	memcpy(copy, key, sizeof(key));
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				key, KEY128, 0, NULL, &d[0]));
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256,
				key, KEY256, 0, NULL, &d[1]));
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				key, KEY128, MLX5_UMR_IOC_DEK_KEYTAG, tag,
				&d[2]));
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256,
				key, KEY256, MLX5_UMR_IOC_DEK_KEYTAG, tag,
				&d[3]));
	/* the kernel only reads the caller's key */
	EXPECT_EQ(0, memcmp(copy, key, sizeof(key)));
	for (i = 0; i < 4; i++)
		EXPECT_NE(self->dek, d[i]);
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(5, info.out_fd_deks);
	EXPECT_EQ(8, info.out_fd_objects);

	/* each one works in a configure: a keytag where the DEK has one */
	for (i = 0; i < 4; i++) {
		c = xts(d[i], 0);
		if (i >= 2)
			memcpy(c.keytag, tag, sizeof(tag));
		EXPECT_EQ(0, configure(self->fd, self->mk, &c, &self->sge))
			TH_LOG("DEK %u", i);
	}
	ASSERT_EQ(0, umr_invalidate(self->fd, self->mk));

	for (i = 0; i < 4; i++) {
		EXPECT_EQ(0, umr_destroy(self->fd, d[i]));
		EXPECT_EQ(-ENOENT, umr_destroy(self->fd, d[i]));
	}
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(1, info.out_fd_deks);
	EXPECT_EQ(4, info.out_fd_objects);
	/* a destroyed DEK names nothing */
	c = xts(d[0], 0);
	EXPECT_EQ(-ENOENT, configure(self->fd, self->mk, &c, &self->sge));
}

struct bad_dek {
	const char *what;
	int err;
	__u32 flags, key_size, key_len, reserved;
	int keytag;		/* a keytag in the command */
	int key;		/* 0: a good key, 1: NULL, 2: unmapped, 3: across */
};

static const struct bad_dek bad_deks[] = {
	{ "unknown flag", -EOPNOTSUPP, 1 << 1, 0, KEY128 },
	{ "high flag", -EOPNOTSUPP, 1u << 31, 0, KEY128 },
	{ "__reserved", -EINVAL, 0, 0, KEY128, 1 },
	{ "unknown key size", -EINVAL, 0, 2, KEY128 },
	{ "huge key size", -EINVAL, 0, 0x80000000, KEY128 },
	{ "a 256-bit key length for 128", -EINVAL, 0, 0, KEY256 },
	{ "a 128-bit key length for 256", -EINVAL, 0, 1, KEY128 },
	{ "key length 0", -EINVAL, 0, 0, 0 },
	{ "key length 31", -EINVAL, 0, 0, 31 },
	{ "key length 16 (one key)", -EINVAL, 0, 0, 16 },
	{ "a keytag without its flag", -EINVAL, 0, 0, KEY128, 0, 1 },
	{ "NULL key", -EFAULT, 0, 0, KEY128, 0, 0, 1 },
	{ "unmapped key", -EFAULT, 0, 1, KEY256, 0, 0, 2 },
	{ "a key across an unmapped page", -EFAULT, 0, 1, KEY256, 0, 0, 3 },
};

/* Each refusal with its errno, and nothing created, nothing executed. */
TEST_F(crypto, dek_refusals)
{
	struct mlx5_umr_ioc_dek_create cmd;
	__u8 *map, key[KEY256] = { 0x11 };
	unsigned int k;
	long long wqes;

	map = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, munmap(map + PAGE, PAGE));
	memset(map, 0x22, PAGE);
	for (k = 0; k < ARRAY_SIZE(bad_deks); k++) {
		const struct bad_dek *b = &bad_deks[k];

		memset(&cmd, 0, sizeof(cmd));
		cmd.size = sizeof(cmd);
		cmd.flags = b->flags;
		cmd.key_size = b->key_size;
		cmd.key_len = b->key_len;
		cmd.__reserved = b->reserved;
		cmd.keytag[7] = b->keytag;
		cmd.key = b->key == 1 ? 0 :
			  b->key == 2 ? (uintptr_t)map + PAGE :
			  b->key == 3 ? (uintptr_t)map + PAGE - 8 :
			  (uintptr_t)key;
		cmd.out_handle = 0xdead;
		wqes = umr_fake_counter(self->path, "wqes");
		EXPECT_EQ(b->err, umr_ioctl(self->fd, MLX5_UMR_IOCTL_DEK_CREATE,
					    &cmd)) TH_LOG("%s", b->what);
		EXPECT_EQ(0xdead, cmd.out_handle) TH_LOG("%s", b->what);
		nothing_done(wqes, b->what);
	}
	munmap(map, PAGE);

	/* the size rules of the other ioctls */
	memset(&cmd, 0, sizeof(cmd));
	cmd.key_len = KEY128;
	cmd.key = (uintptr_t)key;
	cmd.size = sizeof(cmd) - 1;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_DEK_CREATE,
				     &cmd));
	cmd.size = 8;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_DEK_CREATE,
				     &cmd));
	nothing_done(-1, "short");
	{
		union {
			struct mlx5_umr_ioc_dek_create c;
			__u8 raw[sizeof(cmd) + 8];
		} u;

		memset(&u, 0, sizeof(u));
		u.c = cmd;
		u.c.size = sizeof(u);
		u.raw[sizeof(cmd) + 5] = 1;
		EXPECT_EQ(-E2BIG, umr_ioctl(self->fd,
					    MLX5_UMR_IOCTL_DEK_CREATE, &u));
		nothing_done(-1, "long, not zero");
		u.raw[sizeof(cmd) + 5] = 0;
		EXPECT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_DEK_CREATE,
				       &u));
		nothing_done_n(_metadata, self, -1, 1, 1, "long, zero");
		/* nothing written past what the kernel knows */
		EXPECT_EQ(0, u.raw[sizeof(cmd)]);
	}
}

/*
 * An answer that cannot be written (a read-only page): EFAULT, and the DEK
 * is gone again, its handle names nothing.
 */
TEST_F(crypto, answer_efault)
{
	struct mlx5_umr_ioc_dek_create *cmd;
	struct mlx5_umr_ioc_info info;
	__u8 *page;
	__u32 d;

	page = umr_map(PAGE, 0);
	ASSERT_NE(NULL, page);
	cmd = (void *)page;
	cmd->size = sizeof(*cmd);
	cmd->key_size = MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128;
	cmd->key_len = KEY128;
	cmd->key = (uintptr_t)xts_v4_key;
	ASSERT_EQ(0, mprotect(page, PAGE, PROT_READ));
	EXPECT_EQ(-EFAULT, umr_ioctl(self->fd, MLX5_UMR_IOCTL_DEK_CREATE, cmd));
	nothing_done(-1, "answer EFAULT");
	/* the handle it had (the fixture's last is its DEK) names nothing */
	EXPECT_EQ(-ENOENT, umr_destroy(self->fd, self->dek + 1));
	/* and is the next DEK's */
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				xts_v4_key, KEY128, 0, NULL, &d));
	EXPECT_EQ(self->dek + 1, d);
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(2, info.out_fd_deks);
	munmap(page, PAGE);
}

/* MLX5_UMR_IOC_MAX_FD_DEKS per file, then ENOSPC with nothing left. */
TEST_F(crypto, dek_limit)
{
	struct mlx5_umr_ioc_info info;
	unsigned int i;
	long long wqes;
	__u32 d, last = 0;

	for (i = 1; i < MLX5_UMR_IOC_MAX_FD_DEKS; i++) {
		ASSERT_EQ(0, dek_create(self->fd,
					MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
					xts_v4_key, KEY128, 0, NULL, &last))
			TH_LOG("DEK %u", i);
	}
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(MLX5_UMR_IOC_MAX_FD_DEKS, info.out_fd_deks);
	wqes = umr_fake_counter(self->path, "wqes");
	EXPECT_EQ(-ENOSPC, dek_create(self->fd,
				      MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256,
				      xts_v4_ctext, KEY256, 0, NULL, &d));
	nothing_done_n(_metadata, self, wqes, MLX5_UMR_IOC_MAX_FD_DEKS - 1,
		       MLX5_UMR_IOC_MAX_FD_DEKS - 1, "ENOSPC");
	/* one less and there is room again */
	ASSERT_EQ(0, umr_destroy(self->fd, last));
	EXPECT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				xts_v4_key, KEY128, 0, NULL, &d));
	/* the limit is the file's: another file has all of its own */
	{
		int fd2 = umr_open();

		ASSERT_LE(0, fd2);
		EXPECT_EQ(0, dek_create(fd2, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
					xts_v4_key, KEY128, 0, NULL, &d));
		close(fd2);
	}
}

/* MLX5_UMR_IOC_MKEY_CRYPTO, and with the signature's flag too. */
TEST_F(crypto, alloc)
{
	struct mlx5_umr_ioc_sig_block sig = {
		.mem = {
			.sig_type = MLX5_UMR_IOC_SIG_TYPE_T10DIF,
			.block_size = MLX5_UMR_IOC_SIG_BLOCK_512,
			.bg_type = MLX5_UMR_IOC_SIG_T10DIF_CRC,
		},
		.check_mask = 0xff,
	};
	struct mlx5_umr_ioc_configure cmd;
	struct mlx5_umr_ioc_info info;
	long long wqes;
	__u32 h, k;
	int ret;

	wqes = umr_fake_counter(self->path, "wqes");
	EXPECT_EQ(-EOPNOTSUPP, alloc_flags(self->fd, 1 << 11, 4, &h, &k));
	EXPECT_EQ(-EOPNOTSUPP, alloc_flags(self->fd, MLX5_UMR_IOC_MKEY_CRYPTO |
					   1 << 11, 4, &h, &k));
	nothing_done(wqes, "unknown mkey flag");

	/* signature and crypto on one mkey: the fake HCA offers both */
	ASSERT_EQ(0, umr_info(self->fd, &info));
	ASSERT_EQ(MLX5_UMR_IOC_INFO_SIG | MLX5_UMR_IOC_INFO_CRYPTO,
		  info.out_flags & (MLX5_UMR_IOC_INFO_SIG |
				    MLX5_UMR_IOC_INFO_CRYPTO));
	ret = alloc_flags(self->fd, MLX5_UMR_IOC_MKEY_CRYPTO |
			  MLX5_UMR_IOC_MKEY_SIGNATURE, 4, &h, &k);
	ASSERT_EQ(0, ret);
	/* one configure carries both blocks to one work request */
	conf_init(&cmd, h, MLX5_UMR_IOC_CRYPTO_SET | MLX5_UMR_IOC_SIG_SET,
		  &self->sge, 1);
	cmd.crypto = xts(self->dek, 0);
	cmd.sig = sig;
	EXPECT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	/* without the crypto block: refused, as on any crypto mkey */
	conf_init(&cmd, h, MLX5_UMR_IOC_SIG_SET, &self->sge, 1);
	cmd.sig = sig;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	/* a signature in both domains excludes orders 2 and 3 */
	sig.wire = sig.mem;
	conf_init(&cmd, h, MLX5_UMR_IOC_CRYPTO_SET | MLX5_UMR_IOC_SIG_SET,
		  &self->sge, 1);
	cmd.crypto = xts(self->dek, 0);
	cmd.crypto.flags = MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX;
	cmd.sig = sig;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	cmd.crypto.flags = 0;
	cmd.crypto.sig_order = MLX5_UMR_IOC_SIG_BEFORE_CRYPTO_ON_TX;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	/*
	 * ... and so does a kept one: CRYPTO_SET alone is refused by the
	 * post, which knows the signature the mkey keeps, before the HCA
	 */
	cmd.crypto.flags = MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	wqes = umr_fake_counter(self->path, "wqes");
	conf_init(&cmd, h, MLX5_UMR_IOC_CRYPTO_SET, &self->sge, 1);
	cmd.crypto = xts(self->dek, 0);
	cmd.crypto.flags = MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	nothing_done_n(_metadata, self, wqes, 1, 0, "rule 62 on a kept signature");
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(5, info.out_fd_objects);
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->dek));
	EXPECT_EQ(0, umr_destroy(self->fd, h));
	EXPECT_EQ(0, umr_destroy(self->fd, self->dek));
}

enum { ON_CRYPTO, ON_PLAIN };

struct bad_conf {
	const char *what;
	int err;
	int mkey;		/* ON_CRYPTO or ON_PLAIN */
	__u32 flags;
	void (*edit)(struct _test_data_crypto *self, struct mlx5_umr_ioc_crypto *c);
};

#define EDIT(name, ...)							\
	static void name(struct _test_data_crypto *self,			\
			 struct mlx5_umr_ioc_crypto *c)			\
	{ (void)self; __VA_ARGS__; }

EDIT(e_none, (void)c)
EDIT(e_zero, memset(c, 0, sizeof(*c)))
EDIT(e_flags, c->flags = 1 << 1)
EDIT(e_flags_high, c->flags = 1u << 31)
EDIT(e_standard, c->standard = 1)
EDIT(e_order, c->sig_order = 2)
EDIT(e_du, c->data_unit_size = MLX5_UMR_IOC_SIG_BLOCK_4160 + 1)
EDIT(e_du_huge, c->data_unit_size = 0xffffffff)
EDIT(e_reserved, c->__reserved = 1)
EDIT(e_dek0, c->dek = 0)
EDIT(e_dek_unknown, c->dek = 12345)
EDIT(e_dek_mr, c->dek = self->mr)
EDIT(e_dek_mkey, c->dek = self->mk)
EDIT(e_keytag, c->keytag[0] = 1)
EDIT(e_tweak_only, memset(c, 0, sizeof(*c)); c->initial_tweak[15] = 1)

static const struct bad_conf bad_confs[] = {
	{ "CRYPTO_SET on a plain mkey", -EINVAL, ON_PLAIN,
	  MLX5_UMR_IOC_CRYPTO_SET, e_none },
	{ "a crypto mkey without CRYPTO_SET", -EINVAL, ON_CRYPTO, 0, e_zero },
	{ "attributes without CRYPTO_SET", -EINVAL, ON_CRYPTO, 0, e_none },
	{ "a tweak without CRYPTO_SET", -EINVAL, ON_PLAIN, 0, e_tweak_only },
	{ "unknown crypto flag", -EOPNOTSUPP, ON_CRYPTO,
	  MLX5_UMR_IOC_CRYPTO_SET, e_flags },
	{ "high crypto flag", -EOPNOTSUPP, ON_CRYPTO, MLX5_UMR_IOC_CRYPTO_SET,
	  e_flags_high },
	{ "unknown standard", -EINVAL, ON_CRYPTO, MLX5_UMR_IOC_CRYPTO_SET,
	  e_standard },
	{ "unknown sig_order", -EINVAL, ON_CRYPTO, MLX5_UMR_IOC_CRYPTO_SET,
	  e_order },
	{ "unknown data unit size", -EINVAL, ON_CRYPTO,
	  MLX5_UMR_IOC_CRYPTO_SET, e_du },
	{ "huge data unit size", -EINVAL, ON_CRYPTO, MLX5_UMR_IOC_CRYPTO_SET,
	  e_du_huge },
	{ "__reserved", -EINVAL, ON_CRYPTO, MLX5_UMR_IOC_CRYPTO_SET,
	  e_reserved },
	{ "DEK handle 0", -ENOENT, ON_CRYPTO, MLX5_UMR_IOC_CRYPTO_SET,
	  e_dek0 },
	{ "no such DEK", -ENOENT, ON_CRYPTO, MLX5_UMR_IOC_CRYPTO_SET,
	  e_dek_unknown },
	{ "registered memory as the DEK", -ENOENT, ON_CRYPTO,
	  MLX5_UMR_IOC_CRYPTO_SET, e_dek_mr },
	{ "an mkey as the DEK", -ENOENT, ON_CRYPTO, MLX5_UMR_IOC_CRYPTO_SET,
	  e_dek_mkey },
	{ "a keytag the DEK has not", -EINVAL, ON_CRYPTO,
	  MLX5_UMR_IOC_CRYPTO_SET, e_keytag },
	{ "signature flags on a crypto mkey", -EINVAL, ON_CRYPTO,
	  MLX5_UMR_IOC_CRYPTO_SET | MLX5_UMR_IOC_SIG_RESET, e_none },
};

/*
 * Every bad configure refused with its errno before anything is posted;
 * the DEK keeps only the reference of the configuration that holds, and
 * that configuration still encrypts.
 */
TEST_F(crypto, configure_refusals)
{
	struct mlx5_umr_ioc_crypto good = xts(self->dek, 0), c;
	struct mlx5_umr_ioc_configure cmd;
	struct mlx5_umr_ioc_sge *many;
	struct mlx5_umr_ioc_info info;
	unsigned int k, n, i;
	long long wqes;
	__u32 big;

	ASSERT_EQ(0, configure(self->fd, self->mk, &good, &self->sge));
	for (k = 0; k < ARRAY_SIZE(bad_confs); k++) {
		const struct bad_conf *b = &bad_confs[k];

		c = good;
		b->edit(self, &c);
		wqes = umr_fake_counter(self->path, "wqes");
		EXPECT_EQ(b->err, configure_n(self->fd,
					      b->mkey == ON_CRYPTO ? self->mk :
					      self->pk, b->flags, &c,
					      &self->sge, 1))
			TH_LOG("%s", b->what);
		nothing_done(wqes, b->what);
	}

	/* A caller of the second version: no crypto block, refused */
	wqes = umr_fake_counter(self->path, "wqes");
	conf_init(&cmd, self->mk, 0, &self->sge, 1);
	cmd.size = offsetof(struct mlx5_umr_ioc_configure, crypto);
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	/* with the flag, the kernel reads DEK handle 0 */
	conf_init(&cmd, self->mk, MLX5_UMR_IOC_CRYPTO_SET, &self->sge, 1);
	cmd.crypto = good;
	cmd.size = offsetof(struct mlx5_umr_ioc_configure, crypto);
	EXPECT_EQ(-ENOENT, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	nothing_done(wqes, "second version");
	/* the second version of a plain configure still works */
	conf_init(&cmd, self->pk, 0, &self->sge, 1);
	cmd.size = offsetof(struct mlx5_umr_ioc_configure, crypto);
	EXPECT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));

	/* As many entries as fit inline: with the BSF they do not (rule 61). */
	ASSERT_EQ(0, umr_info(self->fd, &info));
	n = info.out_max_inline_entries;
	ASSERT_EQ(0, alloc_flags(self->fd, MLX5_UMR_IOC_MKEY_CRYPTO, n, &big,
				 NULL));
	many = calloc(n, sizeof(*many));
	ASSERT_NE(NULL, many);
	for (i = 0; i < n; i++)
		many[i] = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf, 8,
						     self->key };
	wqes = umr_fake_counter(self->path, "wqes");
	EXPECT_EQ(-ENOMEM, configure_n(self->fd, big, MLX5_UMR_IOC_CRYPTO_SET,
				       &good, many, n));
	nothing_done_n(_metadata, self, wqes, 1, 0, "too many entries");
	EXPECT_EQ(0, configure_n(self->fd, big, MLX5_UMR_IOC_CRYPTO_SET,
				 &good, many, 4));
	EXPECT_EQ(0, umr_destroy(self->fd, big));
	free(many);

	/* no refusal took or dropped a reference on the DEK */
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->dek));
	/* and the configuration before the refusals still encrypts */
	ASSERT_EQ(0, xfer(self, 0, self->pt, DU, 1));
	EXPECT_EQ(0, memcmp(self->buf, xts_v4_ctext, DU));
	ASSERT_EQ(0, umr_invalidate(self->fd, self->mk));
	EXPECT_EQ(0, umr_destroy(self->fd, self->dek));
}

/*
 * A layout whose inline translation would need more of the queue than the
 * files' share (MLX5_UMR_IOC_MAX_INFLIGHT_BBS) is refused at once, ENOMEM,
 * not waited for: the share can never hold it. The harness's timeout
 * fails a configure that waits.
 */
TEST_F(crypto, larger_than_share)
{
	struct mlx5_umr_ioc_crypto good = xts(self->dek, 0);
	/* 16-byte KLMs: one more than the share's basic blocks hold */
	const __u32 n = MLX5_UMR_IOC_MAX_INFLIGHT_BBS * 64 / 16 + 1;
	struct mlx5_umr_ioc_info info;
	struct mlx5_umr_ioc_sge *sge;
	long long wqes;
	unsigned int i;
	__u32 big;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	if (info.out_max_entries < n)
		SKIP(return, "mkeys of %u entries", info.out_max_entries);
	ASSERT_EQ(0, alloc_flags(self->fd, MLX5_UMR_IOC_MKEY_CRYPTO, n, &big,
				 NULL));
	sge = calloc(n, sizeof(*sge));
	ASSERT_NE(NULL, sge);
	for (i = 0; i < n; i++)
		sge[i] = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf, 8,
						    self->key };
	wqes = umr_fake_counter(self->path, "wqes");
	EXPECT_EQ(-ENOMEM, configure_n(self->fd, big, MLX5_UMR_IOC_CRYPTO_SET,
				       &good, sge, n));
	nothing_done_n(_metadata, self, wqes, 1, 0, "larger than the share");
	/* the share is whole: a configure of the fixture's mkey goes through */
	EXPECT_EQ(0, configure(self->fd, self->mk, &good, &self->sge));
	EXPECT_EQ(0, umr_destroy(self->fd, big));
	free(sge);
}

/*
 * A layout of 4 GiB or more, longer than the BSF's 32-bit raw_data_size
 * takes: 4 GiB is refused, 4 GiB - 1 passes the length rule.
 */
TEST_F(crypto, layout_over_4g)
{
	const __u64 chunk = 16ULL << 20;	/* 256 of them: 4 GiB */
	const unsigned int n = 256;
	struct mlx5_umr_ioc_crypto good = xts(self->dek, 0);
	struct mlx5_umr_ioc_sge *sge;
	struct mlx5_umr_ioc_info info;
	__u32 big, mr, key;
	long long wqes;
	unsigned int i;
	__u8 *mem;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	if (info.out_max_entries < n)
		SKIP(return, "mkeys of %u entries", info.out_max_entries);
	mem = umr_map(chunk, 0);
	ASSERT_NE(NULL, mem);
	ASSERT_EQ(0, umr_reg(self->fd, mem, chunk, UMR_ACCESS_ALL3, &mr, &key));
	ASSERT_EQ(0, alloc_flags(self->fd, MLX5_UMR_IOC_MKEY_CRYPTO, n, &big,
				 NULL));
	sge = calloc(n, sizeof(*sge));
	ASSERT_NE(NULL, sge);
	for (i = 0; i < n; i++)
		sge[i] = (struct mlx5_umr_ioc_sge){ (uintptr_t)mem, chunk, key };
	wqes = umr_fake_counter(self->path, "wqes");
	EXPECT_EQ(-EINVAL, configure_n(self->fd, big, MLX5_UMR_IOC_CRYPTO_SET,
				       &good, sge, n));
	nothing_done_n(_metadata, self, wqes, 2, 0, "4 GiB");
	/* one byte less passes the length; the translation does not fit */
	sge[n - 1].length--;
	EXPECT_EQ(-ENOMEM, configure_n(self->fd, big, MLX5_UMR_IOC_CRYPTO_SET,
				       &good, sge, n));
	nothing_done_n(_metadata, self, wqes, 2, 0, "4 GiB - 1");
	/* a plain mkey takes 4 GiB */
	EXPECT_EQ(0, umr_destroy(self->fd, big));
	ASSERT_EQ(0, umr_alloc(self->fd, n, &big, NULL));
	sge[n - 1].length++;
	EXPECT_EQ(0, configure_n(self->fd, big, 0, NULL, sge, n));
	EXPECT_EQ(0, umr_destroy(self->fd, big));
	EXPECT_EQ(0, umr_destroy(self->fd, mr));
	free(sge);
	munmap(mem, chunk);
}

/*
 * A DEK of another open file is no DEK of this one, whatever its handle
 * names here; each file's own DEK works.
 */
TEST_F(crypto, dek_of_another_file)
{
	struct mlx5_umr_ioc_sge sge2;
	struct mlx5_umr_ioc_crypto c;
	struct mlx5_umr_ioc_info info;
	__u32 d, h, mk2, mr2, key2;
	long long wqes;
	int fd2;

	fd2 = umr_open();
	ASSERT_LE(0, fd2);
	/* its own memory and crypto mkey, then mkeys up to this DEK's handle */
	ASSERT_EQ(0, umr_reg(fd2, self->buf, BUF_LEN, UMR_ACCESS_ALL3, &mr2,
			     &key2));
	ASSERT_EQ(0, alloc_flags(fd2, MLX5_UMR_IOC_MKEY_CRYPTO, 1, &mk2, NULL));
	do {
		ASSERT_EQ(0, umr_alloc(fd2, 1, &h, NULL));
	} while (h < self->dek + 1);
	ASSERT_EQ(0, dek_create(fd2, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				xts_v4_key, KEY128, 0, NULL, &d));
	ASSERT_NE(self->dek, d);
	sge2 = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf, DU, key2 };

	wqes = umr_fake_counter(self->path, "wqes");
	c = xts(d, 0);
	EXPECT_EQ(-ENOENT, configure(self->fd, self->mk, &c, &self->sge));
	nothing_done(wqes, "another file's DEK");
	/* nor can this file destroy it */
	EXPECT_EQ(-ENOENT, umr_destroy(self->fd, d));
	ASSERT_EQ(0, umr_info(fd2, &info));
	EXPECT_EQ(1, info.out_fd_deks);
	/* the other file cannot name this file's DEK (an mkey there) */
	c = xts(self->dek, 0);
	EXPECT_EQ(-ENOENT, configure(fd2, mk2, &c, &sge2));
	/* each file's own DEK works */
	c = xts(d, 0);
	EXPECT_EQ(0, configure(fd2, mk2, &c, &sge2));
	c = xts(self->dek, 0);
	EXPECT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	close(fd2);
}

/*
 * A DEK a configured mkey names is busy until the mkey is configured with
 * another, invalidated or destroyed.
 */
TEST_F(crypto, destroy_busy)
{
	struct mlx5_umr_ioc_crypto c;
	__u32 d2, d3, h;

	c = xts(self->dek, 0);
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->dek));
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->dek));
	/* a reconfigure with the same DEK holds it once */
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	/* configured with another DEK: the first is free */
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256,
				xts_v4_ctext, KEY256, 0, NULL, &d2));
	c = xts(d2, 0);
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, d2));
	/* the mkey cannot be configured with the first after this */
	EXPECT_EQ(0, umr_destroy(self->fd, self->dek));
	c = xts(self->dek, 0);
	EXPECT_EQ(-ENOENT, configure(self->fd, self->mk, &c, &self->sge));
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, d2));
	/* invalidated: free */
	ASSERT_EQ(0, umr_invalidate(self->fd, self->mk));
	EXPECT_EQ(0, umr_destroy(self->fd, d2));

	/* an mkey destroyed drops its DEK */
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				xts_v4_key, KEY128, 0, NULL, &d3));
	ASSERT_EQ(0, alloc_flags(self->fd, MLX5_UMR_IOC_MKEY_CRYPTO, 1, &h,
				 NULL));
	c = xts(d3, 0);
	ASSERT_EQ(0, configure(self->fd, h, &c, &self->sge));
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, d3));
	EXPECT_EQ(0, umr_destroy(self->fd, h));
	EXPECT_EQ(0, umr_destroy(self->fd, d3));

	/* the file closes with a DEK named: the mkey goes first */
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				xts_v4_key, KEY128, 0, NULL, &d3));
	c = xts(d3, 0);
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
}

/*
 * IEEE 1619 vector 4: memory holds ciphertext (ENCRYPT_ON_TX clear), so
 * the plaintext a peer writes lands as the vector's ciphertext and reads
 * back as plaintext; with ENCRYPT_ON_TX, the other way round.
 */
TEST_F(crypto, vector4)
{
	struct mlx5_umr_ioc_crypto c = xts(self->dek, 0);
	__u8 out[DU];
	unsigned int i;

	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	ASSERT_EQ(0, xfer(self, 0, self->pt, DU, 1));
	EXPECT_EQ(0, memcmp(self->buf, xts_v4_ctext, DU));
	for (i = DU; i < BUF_LEN; i++)
		ASSERT_EQ(0xee, self->buf[i]) TH_LOG("byte %u", i);
	memset(out, 0, sizeof(out));
	ASSERT_EQ(0, xfer(self, 0, out, DU, 0));
	EXPECT_EQ(0, memcmp(out, self->pt, DU));

	/* memory plaintext, the wire ciphertext */
	memset(self->buf, 0xee, BUF_LEN);
	c.flags = MLX5_UMR_IOC_CRYPTO_ENCRYPT_ON_TX;
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	ASSERT_EQ(0, xfer(self, 0, (void *)xts_v4_ctext, DU, 1));
	EXPECT_EQ(0, memcmp(self->buf, self->pt, DU));
	memset(out, 0, sizeof(out));
	ASSERT_EQ(0, xfer(self, 0, out, DU, 0));
	EXPECT_EQ(0, memcmp(out, xts_v4_ctext, DU));
	/* and the plaintext written into memory by the CPU reads encrypted */
	memcpy(self->buf, self->pt, DU);
	memset(out, 0, sizeof(out));
	ASSERT_EQ(0, xfer(self, 0, out, DU, 0));
	EXPECT_EQ(0, memcmp(out, xts_v4_ctext, DU));
}

/* The tweak, its increment per data unit, and the key all matter. */
TEST_F(crypto, tweak_and_key)
{
	struct mlx5_umr_ioc_sge two = { (uintptr_t)self->buf, 2 * DU,
					self->key };
	struct mlx5_umr_ioc_info info;
	struct mlx5_umr_ioc_crypto c;
	__u8 key[KEY256], unit1[DU], out[2 * DU];
	__u32 d, deks;

	/* two data units: tweaks 0 and 1 */
	c = xts(self->dek, 0);
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &two));
	ASSERT_EQ(0, xfer(self, 0, self->pt, 2 * DU, 1));
	EXPECT_EQ(0, memcmp(self->buf, xts_v4_ctext, DU));
	EXPECT_NE(0, memcmp(self->buf + DU, xts_v4_ctext, DU));
	EXPECT_NE(0, memcmp(self->buf + DU, self->pt, DU));
	memcpy(unit1, self->buf + DU, DU);
	ASSERT_EQ(0, xfer(self, 0, out, 2 * DU, 0));
	EXPECT_EQ(0, memcmp(out, self->pt, 2 * DU));

	/* the second unit alone, from initial tweak 1: the same bytes */
	memset(self->buf, 0xee, BUF_LEN);
	c = xts(self->dek, 1);
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	ASSERT_EQ(0, xfer(self, 0, self->pt, DU, 1));
	EXPECT_EQ(0, memcmp(self->buf, unit1, DU));
	/* a tweak is 128 bits: its last byte counts too */
	c = xts(self->dek, 0);
	c.initial_tweak[15] = 0x80;
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	ASSERT_EQ(0, xfer(self, 0, self->pt, DU, 1));
	EXPECT_NE(0, memcmp(self->buf, xts_v4_ctext, DU));
	EXPECT_NE(0, memcmp(self->buf, unit1, DU));
	ASSERT_EQ(0, xfer(self, 0, out, DU, 0));
	EXPECT_EQ(0, memcmp(out, self->pt, DU));

	/* another 128-bit key: one bit of key1 */
	memcpy(key, xts_v4_key, KEY128);
	key[0] ^= 1;
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				key, KEY128, 0, NULL, &d));
	c = xts(d, 0);
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	ASSERT_EQ(0, xfer(self, 0, self->pt, DU, 1));
	EXPECT_NE(0, memcmp(self->buf, xts_v4_ctext, DU));
	ASSERT_EQ(0, xfer(self, 0, out, DU, 0));
	EXPECT_EQ(0, memcmp(out, self->pt, DU));

	/*
	 * A 256-bit key1 | key2 with key1 = key2 (vector 4's key twice): the
	 * fake refuses it as XTS does in FIPS mode (EIO, the HCA refused
	 * the DEK), leaving no DEK behind.
	 */
	memcpy(key, xts_v4_key, KEY128);
	memcpy(key + KEY128, xts_v4_key, KEY128);
	ASSERT_EQ(0, umr_info(self->fd, &info));
	deks = info.out_fd_deks;
	EXPECT_EQ(-EIO, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256,
				   key, KEY256, 0, NULL, &d));
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(deks, info.out_fd_deks);
	/* key2 one byte off: a DEK, not the 128-bit key's result */
	key[KEY128 + 5] ^= 0x5a;
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256,
				key, KEY256, 0, NULL, &d));
	c = xts(d, 0);
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	ASSERT_EQ(0, xfer(self, 0, self->pt, DU, 1));
	EXPECT_NE(0, memcmp(self->buf, xts_v4_ctext, DU));
	EXPECT_NE(0, memcmp(self->buf, self->pt, DU));
	ASSERT_EQ(0, xfer(self, 0, out, DU, 0));
	EXPECT_EQ(0, memcmp(out, self->pt, DU));
	/* what that key wrote, the vector's key cannot read */
	c = xts(self->dek, 0);
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	ASSERT_EQ(0, xfer(self, 0, out, DU, 0));
	EXPECT_NE(0, memcmp(out, self->pt, DU));
}

/*
 * A batch configures no crypto mkey (it has no crypto block); it may
 * invalidate one, which drops its DEK.
 */
TEST_F(crypto, batch)
{
	struct mlx5_umr_ioc_crypto c = xts(self->dek, 0);
	struct mlx5_umr_ioc_batch_req req = {
		.op = MLX5_UMR_IOC_BATCH_CONFIGURE,
		.handle = self->mk,
		.access = UMR_ACCESS_ALL3,
		.layout = MLX5_UMR_IOC_LAYOUT_LIST,
		.num_entries = 1,
		.entries = (uintptr_t)&self->sge,
	};
	struct mlx5_umr_ioc_batch b = {
		.size = sizeof(b),
		.num_reqs = 1,
		.req_size = sizeof(req),
		.reqs = (uintptr_t)&req,
	};
	long long wqes;

	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	wqes = umr_fake_counter(self->path, "wqes");
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH, &b));
	EXPECT_EQ(0, b.out_index);
	req.flags = MLX5_UMR_IOC_CRYPTO_SET;
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH, &b));
	nothing_done(wqes, "batch configure");
	EXPECT_EQ(-EBUSY, umr_destroy(self->fd, self->dek));
	/* the configuration holds */
	ASSERT_EQ(0, xfer(self, 0, self->pt, DU, 1));
	EXPECT_EQ(0, memcmp(self->buf, xts_v4_ctext, DU));

	/* a batch still configures a plain mkey */
	req.flags = 0;
	req.handle = self->pk;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH, &b));
	EXPECT_EQ(0, req.out_status);

	memset(&req, 0, sizeof(req));
	req.op = MLX5_UMR_IOC_BATCH_INVALIDATE;
	req.handle = self->mk;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH, &b));
	EXPECT_EQ(0, req.out_status);
	EXPECT_EQ(0, umr_destroy(self->fd, self->dek));
}

/* ---- the key appears nowhere ---- */

/* The hex digits of @n bytes of text, lowercased, everything else gone. */
static size_t hex_only(const __u8 *in, size_t n, char *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		char ch = (char)in[i];

		if (ch >= 'A' && ch <= 'F')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))
			out[k++] = ch;
	}
	return k;
}

/*
 * Whether @text holds any 8 consecutive bytes of @key: raw, or in hex in
 * any case and spacing, byte by byte or in groups of 2, 4 or 8 bytes
 * printed little endian (seq_hex_dump() of u32s), at any alignment.
 */
static bool key_in(const __u8 *text, size_t n, const __u8 *key, size_t klen)
{
	static const unsigned int groups[] = { 1, 2, 4, 8 };
	char *hex = malloc(n + 1), pat[17];
	size_t hn = hex ? hex_only(text, n, hex) : 0;
	unsigned int s, g, b, j;
	bool found = false;

	if (!hex)
		return true;	/* cannot tell: fail */
	for (s = 0; s + 8 <= klen && !found; s++) {
		if (memmem(text, n, key + s, 8)) {
			found = true;
			break;
		}
		for (g = 0; g < ARRAY_SIZE(groups) && !found; g++) {
			for (b = 0; b < 8; b++) {
				j = b / groups[g] * groups[g] +
				    groups[g] - 1 - b % groups[g];
				sprintf(pat + 2 * b, "%02x", key[s + j]);
			}
			found = memmem(hex, hn, pat, 16);
		}
	}
	free(hex);
	return found;
}

/* The whole of a file; NULL if it cannot be read. */
static __u8 *slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	__u8 *p = malloc(cap);
	ssize_t r;
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0 || !p) {
		if (fd >= 0)
			close(fd);
		free(p);
		return NULL;
	}
	while ((r = read(fd, p + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			__u8 *q = realloc(p, cap * 2);

			if (!q)
				break;
			p = q;
			cap *= 2;
		}
	}
	close(fd);
	*len = n;
	return p;
}

/* Every readable file under @dir; how many were read, -1 on a hit. */
static int scan_dir(const char *dir, const __u8 *key, size_t klen,
		    char *hit, size_t hitlen)
{
	char path[512];
	struct dirent *de;
	struct stat st;
	int n = 0, r;
	size_t len;
	__u8 *p;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			r = scan_dir(path, key, klen, hit, hitlen);
			if (r < 0) {
				n = -1;
				break;
			}
			n += r;
			continue;
		}
		/* the knobs are write-only: reading them fails */
		if (!S_ISREG(st.st_mode) || !(st.st_mode & 0444))
			continue;
		p = slurp(path, &len);
		if (!p)
			continue;
		n++;
		r = key_in(p, len, key, klen);
		free(p);
		if (r) {
			snprintf(hit, hitlen, "%s", path);
			n = -1;
			break;
		}
	}
	closedir(d);
	return n;
}

static bool key_in_dmesg(const __u8 *key, size_t klen)
{
	int size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *log = size > 0 ? malloc(size) : NULL;
	bool found;
	int n;

	if (!log)
		return true;
	n = klogctl(3, log, size);		/* SYSLOG_ACTION_READ_ALL */
	found = n < 0 || key_in((const __u8 *)log, n, key, klen);
	free(log);
	return found;
}

/* Fails the test if @key shows in the fake's debugfs or the kernel log. */
static void expect_no_key(struct __test_metadata *_metadata,
			  const __u8 *key, size_t klen, const char *when)
{
	char hit[512] = "";
	int n;

	n = scan_dir("/sys/kernel/debug/mlx5_umr_fake", key, klen, hit,
		     sizeof(hit));
	EXPECT_LT(0, n) TH_LOG("%s: the key is in %s", when,
			       n < 0 ? hit : "(no debugfs file was read)");
	EXPECT_FALSE(key_in_dmesg(key, klen))
		TH_LOG("%s: the key is in the kernel log", when);
}

/* The scanner finds a key in each form it looks for, and nothing else. */
TEST(key_scanner)
{
	__u8 key[KEY128], text[600];
	char *t = (char *)text;
	unsigned int i;

	for (i = 0; i < KEY128; i++)
		key[i] = (__u8)(0x9d + 37 * i);
	memset(text, 'x', sizeof(text));
	EXPECT_FALSE(key_in(text, sizeof(text), key, KEY128));
	memcpy(text + 3, key + 11, 8);
	EXPECT_TRUE(key_in(text, sizeof(text), key, KEY128));
	/* as "%02X " bytes */
	memset(text, 'x', sizeof(text));
	for (i = 0; i < 8; i++)
		sprintf(t + 5 + 3 * i, "%02X ", key[20 + i]);
	EXPECT_TRUE(key_in(text, sizeof(text), key, KEY128));
	/* as a hex dump of little-endian u32s, two bytes off */
	memset(text, 'x', sizeof(text));
	for (i = 0; i < 3; i++)
		sprintf(t + 9 * i, "%02x%02x%02x%02x ", key[5 + 4 * i],
			key[4 + 4 * i], key[3 + 4 * i], key[2 + 4 * i]);
	EXPECT_TRUE(key_in(text, sizeof(text), key, KEY128));
	/* seven bytes are not enough */
	memset(text, 'x', sizeof(text));
	memcpy(text, key, 7);
	EXPECT_FALSE(key_in(text, sizeof(text), key, KEY128));
}

/*
 * No key bytes in the fake's debugfs or the kernel log while a DEK lives
 * and is used, after it is destroyed, after its file is closed, and after
 * a failed create.
 */
TEST_F(crypto, no_key_anywhere)
{
	struct mlx5_umr_ioc_crypto c;
	__u8 k128[KEY128], k256[KEY256];
	__u32 d1, d2;
	__u8 out[DU];
	int fd2;

	ASSERT_EQ(sizeof(k128), getrandom(k128, sizeof(k128), 0));
	ASSERT_EQ(sizeof(k256), getrandom(k256, sizeof(k256), 0));
	ASSERT_EQ(0, dek_create(self->fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				k128, KEY128, 0, NULL, &d1));
	c = xts(d1, 0);
	ASSERT_EQ(0, configure(self->fd, self->mk, &c, &self->sge));
	ASSERT_EQ(0, xfer(self, 0, self->pt, DU, 1));
	ASSERT_EQ(0, xfer(self, 0, out, DU, 0));
	EXPECT_EQ(0, memcmp(out, self->pt, DU));
	expect_no_key(_metadata, k128, KEY128, "in use");
	expect_no_key(_metadata, xts_v4_key, KEY128, "vector 4, alive");

	ASSERT_EQ(0, umr_invalidate(self->fd, self->mk));
	ASSERT_EQ(0, umr_destroy(self->fd, d1));
	expect_no_key(_metadata, k128, KEY128, "destroyed");

	/* a file closed with its DEK in use */
	fd2 = umr_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, dek_create(fd2, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256, k256,
				KEY256, 0, NULL, &d2));
	expect_no_key(_metadata, k256, KEY256, "256, alive");
	close(fd2);
	expect_no_key(_metadata, k256, KEY256, "file closed");

	/* a create refused after the copy (another file's limit is not it) */
	EXPECT_EQ(-EINVAL, dek_create(self->fd,
				      MLX5_UMR_IOC_CRYPTO_KEY_SIZE_256, k256,
				      KEY256, 0, (const __u8 *)"tagtagta", NULL));
	expect_no_key(_metadata, k256, KEY256, "refused");
}

/*
 * The HCA goes away while a file holds a DEK a configured mkey names: the
 * file's objects are destroyed with the device, the file answers ENODEV,
 * and closing it is fine. Only when this program loaded the fake.
 */
TEST(hca_removed_with_deks)
{
	struct mlx5_umr_ioc_crypto c;
	struct mlx5_umr_ioc_sge sge;
	__u32 d, mk, mr, key;
	int fd, status;
	__u8 *buf;
	pid_t pid;

	if (!umr_loaded_fake)
		SKIP(return, "the fake was loaded before the test");
	fd = umr_open();
	ASSERT_LE(0, fd);
	buf = umr_map(PAGE, 0);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(0, umr_reg(fd, buf, PAGE, UMR_ACCESS_ALL3, &mr, &key));
	ASSERT_EQ(0, alloc_flags(fd, MLX5_UMR_IOC_MKEY_CRYPTO, 1, &mk, NULL));
	ASSERT_EQ(0, dek_create(fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				xts_v4_key, KEY128, 0, NULL, &d));
	sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)buf, DU, key };
	c = xts(d, 0);
	ASSERT_EQ(0, configure(fd, mk, &c, &sge));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(system("rmmod mlx5_umr_fake") ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(-ENODEV, umr_destroy(fd, d));
	EXPECT_EQ(-ENODEV, dek_create(fd, MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128,
				      xts_v4_key, KEY128, 0, NULL, &d));
	close(fd);
	munmap(buf, PAGE);
	ASSERT_EQ(0, umr_load_fake());
}

TEST_HARNESS_MAIN
