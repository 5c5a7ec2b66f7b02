// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Block-signature selftests of the uapi (MLX5_UMR_IOC_MKEY_SIGNATURE,
 * MLX5_UMR_IOC_SIG_SET/RESET, MLX5_UMR_IOCTL_SIG_CHECK and _SIG_REPORT),
 * on a fake HCA, whose signature engine moves the data of the test XFER
 * path (Documentation/fake.rst, "Signature").
 *
 * The bytes are asserted against T10-DIF computed here (CRC-16/T10-DIF,
 * itself checked against the catalogue's check value), not against the
 * fake's output. Every refusal is checked with its errno, and after it
 * that the HCA executed no work request and the file holds no more
 * objects; every test's teardown that the device holds no more objects,
 * mkeys or PSVs than before.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>

#include "kselftest_harness.h"
#include "umr_util.h"
#include "share_hog.h"

#define BS		512		/* data bytes per block */
#define PI		8		/* a T10-DIF field */
#define NBLK		2
#define WIRE_LEN	(NBLK * BS)		/* 1024: the wire view */
#define MEM_LEN		(NBLK * (BS + PI))	/* 1040: the memory view */
#define APP		0x1234
#define REF		0x100

static __u16 be16(const __u8 *p)
{
	return (__u16)(p[0] << 8 | p[1]);
}

static __u32 be32(const __u8 *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

static void put_be32(__u8 *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/*
 * The fake's err_offset: the last byte of the failing block in the input
 * domain's view (Documentation/fake.rst, "Signature").
 */
static __u64 err_offset(unsigned int blk, unsigned int pi)
{
	return (__u64)(blk + 1) * (BS + pi) - 1;
}

static const char *const hca_counters[] = { "mkeys", "psvs", "wqes" };

FIXTURE(sig) {
	int fd;
	char path[256];
	struct mlx5_umr_ioc_info info0;
	long long hca0[3];
	__u8 *buf, *data;
	__u32 mr, key;		/* BUF_LEN of registered memory */
	__u32 mk, mkey;		/* a signature mkey */
	__u32 pk, pkey;		/* a plain mkey */
	struct mlx5_umr_ioc_sge sge;	/* MEM_LEN of buf */
};

#define BUF_LEN		(2 * PAGE)

FIXTURE_SETUP(sig)
{
	struct mlx5_umr_ioc_alloc_mkey am = {
		.size = sizeof(am),
		.flags = MLX5_UMR_IOC_MKEY_SIGNATURE,
		.max_entries = 4,
	};
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
	ASSERT_EQ(MLX5_UMR_IOC_INFO_SIG,
		  self->info0.out_flags & MLX5_UMR_IOC_INFO_SIG)
		TH_LOG("the fake HCA offers no signature mkeys");

	self->fd = umr_open();
	ASSERT_LE(0, self->fd);
	self->buf = umr_map(BUF_LEN, 0xee);
	self->data = umr_map(PAGE, 0);
	ASSERT_NE(NULL, self->buf);
	ASSERT_NE(NULL, self->data);
	for (i = 0; i < WIRE_LEN; i++)
		self->data[i] = (__u8)(i * 7 + (i >> 9));
	ASSERT_EQ(0, umr_reg(self->fd, self->buf, BUF_LEN, UMR_ACCESS_ALL3,
			     &self->mr, &self->key));
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &am));
	self->mk = am.out_handle;
	self->mkey = am.out_key;
	ASSERT_EQ(0, umr_alloc(self->fd, 4, &self->pk, &self->pkey));
	self->sge = (struct mlx5_umr_ioc_sge){ (uintptr_t)self->buf, MEM_LEN,
					       self->key };
}

/*
 * EXPECT, not ASSERT: after an ASSERT failed in the test, the 6.1
 * harness's handler flag is still set, and an ASSERT here would jump back
 * into the teardown (and one failing here would loop in it).
 */
FIXTURE_TEARDOWN(sig)
{
	struct mlx5_umr_ioc_info info = { 0 };
	unsigned int i;
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
	close(fd);
	/* the HCA's mkeys and PSVs went with the file (when debugfs is up) */
	for (i = 0; i < 2; i++)
		if (self->hca0[i] >= 0)
			EXPECT_EQ(self->hca0[i],
				  umr_fake_counter(self->path, hca_counters[i]))
				TH_LOG("fake counter %s", hca_counters[i]);
}

/* A T10-DIF domain with a CRC guard over 512-byte blocks. */
static struct mlx5_umr_ioc_sig_domain dif(__u16 dif_flags)
{
	return (struct mlx5_umr_ioc_sig_domain){
		.sig_type = MLX5_UMR_IOC_SIG_TYPE_T10DIF,
		.block_size = MLX5_UMR_IOC_SIG_BLOCK_512,
		.bg_type = MLX5_UMR_IOC_SIG_T10DIF_CRC,
		.app_tag = APP,
		.ref_tag = REF,
		.dif_flags = dif_flags,
	};
}

/* Memory T10-DIF (ref +1 per block), wire without signature. */
static struct mlx5_umr_ioc_sig_block mem_dif(void)
{
	return (struct mlx5_umr_ioc_sig_block){
		.mem = dif(MLX5_UMR_IOC_SIG_T10DIF_REF_REMAP),
		.check_mask = 0xff,
	};
}

static void conf_init(struct mlx5_umr_ioc_configure *cmd, __u32 handle,
		      __u32 flags, const struct mlx5_umr_ioc_sge *sge)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->size = sizeof(*cmd);
	cmd->handle = handle;
	cmd->flags = flags;
	cmd->access = UMR_ACCESS_ALL3;
	cmd->layout = MLX5_UMR_IOC_LAYOUT_LIST;
	cmd->num_entries = 1;
	cmd->entries = (uintptr_t)sge;
}

/* CONFIGURE @handle over @sge with @sig (NULL: none) and @flags. */
static int configure(int fd, __u32 handle, __u32 flags,
		     const struct mlx5_umr_ioc_sig_block *sig,
		     const struct mlx5_umr_ioc_sge *sge)
{
	struct mlx5_umr_ioc_configure cmd;

	conf_init(&cmd, handle, flags, sge);
	if (sig)
		cmd.sig = *sig;
	return umr_ioctl(fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd);
}

/* A transfer through @key; -errno, or its out fields in @out. */
static int xfer(int fd, __u32 key, __u64 off, void *buf, __u64 len,
		__u32 flags, struct mlx5_umr_test_xfer *out)
{
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	out->flags = flags;
	out->key = key;
	out->offset = off;
	out->buf = (uintptr_t)buf;
	out->length = len;
	return umr_ioctl(fd, MLX5_UMR_TEST_IOCTL_XFER, out);
}

static int sig_check(int fd, __u32 handle, struct mlx5_umr_ioc_sig_check *c)
{
	memset(c, 0, sizeof(*c));
	c->size = sizeof(*c);
	c->handle = handle;
	return umr_ioctl(fd, MLX5_UMR_IOCTL_SIG_CHECK, c);
}

/* The wire data written through the mkey, as the memory must hold it. */
static void expect_mem_dif(struct __test_metadata *_metadata,
			   const __u8 *mem, const __u8 *data)
{
	unsigned int b;

	for (b = 0; b < NBLK; b++) {
		const __u8 *blk = mem + b * (BS + PI);

		EXPECT_EQ(0, memcmp(blk, data + b * BS, BS)) TH_LOG("block %u", b);
		EXPECT_EQ(crc16_t10dif(data + b * BS, BS), be16(blk + BS));
		EXPECT_EQ(APP, be16(blk + BS + 2));
		EXPECT_EQ(REF + b, be32(blk + BS + 4));
	}
	/* nothing written past the memory view */
	EXPECT_EQ(0xee, mem[MEM_LEN]);
}

/* The memory holds the T10-DIF the fixture's data is written with. */
static void write_dif(struct __test_metadata *_metadata,
		      struct _test_data_sig *self)
{
	struct mlx5_umr_test_xfer x;

	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, self->data, WIRE_LEN,
			  MLX5_UMR_TEST_XFER_WRITE, &x));
	ASSERT_EQ(0, x.out_status);
	ASSERT_EQ(0, x.out_flags);
}

TEST(crc16_t10dif_known_answer)
{
	/* the catalogue's check value of CRC-16/T10-DIF */
	EXPECT_EQ(0xd0db, crc16_t10dif((const __u8 *)"123456789", 9));
}

TEST_F(sig, info_and_alloc)
{
	struct mlx5_umr_ioc_alloc_mkey am = {
		.size = sizeof(am),
		.flags = 1 << 9,
		.max_entries = 4,
	};
	struct mlx5_umr_ioc_info info;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	/* crypto (MLX5_UMR_IOC_INFO_CRYPTO) may be reported next to it */
	EXPECT_EQ(MLX5_UMR_IOC_INFO_SIG,
		  info.out_flags & ~MLX5_UMR_IOC_INFO_CRYPTO);
	EXPECT_EQ(3, info.out_fd_objects);
	/* an unknown flag next to the signature's */
	EXPECT_EQ(-EOPNOTSUPP,
		  umr_ioctl(self->fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &am));
	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(3, info.out_fd_objects);
	/* two PSVs per signature mkey, none for a plain one */
	if (self->hca0[1] >= 0)
		EXPECT_EQ(self->hca0[1] + 2,
			  umr_fake_counter(self->path, "psvs"));
}

/*
 * T10-DIF inserted on the way in and stripped on the way out: a peer's
 * 1,024 wire bytes land as two 520-byte blocks (data, guard, app tag, ref
 * tag) and read back as the same 1,024 bytes.
 */
TEST_F(sig, t10dif_round_trip)
{
	struct mlx5_umr_ioc_sig_block sig = mem_dif();
	struct mlx5_umr_ioc_configure cmd;
	struct mlx5_umr_ioc_sig_check c;
	struct mlx5_umr_test_xfer x;
	__u8 back[WIRE_LEN];

	conf_init(&cmd, self->mk, MLX5_UMR_IOC_SIG_SET, &self->sge);
	cmd.sig = sig;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	EXPECT_EQ(MEM_LEN, cmd.out_length);
	write_dif(_metadata, self);
	expect_mem_dif(_metadata, self->buf, self->data);

	memset(back, 0, sizeof(back));
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, WIRE_LEN, 0, &x));
	EXPECT_EQ(0, x.out_status);
	EXPECT_EQ(0, x.out_flags);
	EXPECT_EQ(0, memcmp(back, self->data, WIRE_LEN));
	/* the second block alone, at its wire offset */
	memset(back, 0, sizeof(back));
	ASSERT_EQ(0, xfer(self->fd, self->mkey, BS, back, BS, 0, &x));
	EXPECT_EQ(0, memcmp(back, self->data + BS, BS));

	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_NONE, c.out_err_type);
	EXPECT_EQ(0, c.out_errors);
}

/* The wire carries the T10-DIF, the memory plain data: inserted on read. */
TEST_F(sig, t10dif_on_the_wire)
{
	struct mlx5_umr_ioc_sig_block sig = {
		.wire = dif(0),
		.check_mask = 0xff,
	};
	struct mlx5_umr_ioc_sge sge = { (uintptr_t)self->buf, WIRE_LEN,
					self->key };
	struct mlx5_umr_test_xfer x;
	__u8 back[MEM_LEN];
	unsigned int b;

	memcpy(self->buf, self->data, WIRE_LEN);
	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &sig,
			       &sge));
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, MEM_LEN, 0, &x));
	ASSERT_EQ(0, x.out_status);
	for (b = 0; b < NBLK; b++) {
		const __u8 *blk = back + b * (BS + PI);

		EXPECT_EQ(0, memcmp(blk, self->data + b * BS, BS));
		EXPECT_EQ(crc16_t10dif(self->data + b * BS, BS),
			  be16(blk + BS));
		EXPECT_EQ(APP, be16(blk + BS + 2));
		/* no remap: every block has the same ref tag */
		EXPECT_EQ(REF, be32(blk + BS + 4));
	}
	/* and written back the same way: the PI is checked and stripped */
	memset(self->buf, 0, WIRE_LEN);
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, MEM_LEN,
			  MLX5_UMR_TEST_XFER_WRITE, &x));
	EXPECT_EQ(0, x.out_flags);
	EXPECT_EQ(0, memcmp(self->buf, self->data, WIRE_LEN));
	EXPECT_EQ(0xee, self->buf[WIRE_LEN]);
}

/*
 * A data byte of block 1 changed in memory: the read still completes, and
 * SIG_CHECK reports the guard of block 1 with the value the block holds
 * (expected) and the one computed from its data (actual); reading it
 * clears it.
 */
TEST_F(sig, guard_error_reported)
{
	struct mlx5_umr_ioc_sig_block sig = mem_dif();
	struct mlx5_umr_ioc_sig_check c;
	struct mlx5_umr_test_xfer x;
	__u8 back[WIRE_LEN], *blk1 = self->buf + BS + PI;
	__u16 good, bad;

	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &sig,
			       &self->sge));
	write_dif(_metadata, self);
	good = crc16_t10dif(blk1, BS);
	blk1[100] ^= 0x01;
	bad = crc16_t10dif(blk1, BS);
	ASSERT_NE(good, bad);

	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, WIRE_LEN, 0, &x));
	EXPECT_EQ(0, x.out_status);
	EXPECT_EQ(MLX5_UMR_TEST_XFER_OUT_SIG_ERR, x.out_flags);
	/* reported to the service, not handed back */
	EXPECT_EQ(0, be32(x.out_sig_cqe + 36));
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_GUARD, c.out_err_type);
	/* expected: computed from the data; actual: the guard in the PI */
	EXPECT_EQ(bad, c.out_expected);
	EXPECT_EQ(good, c.out_actual);
	EXPECT_EQ(err_offset(1, PI), c.out_offset);
	EXPECT_EQ(self->mkey, c.out_key);
	EXPECT_EQ(1, c.out_errors);
	/* read and cleared */
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_NONE, c.out_err_type);
	EXPECT_EQ(0, c.out_errors);
}

/* A reference tag and an application tag changed in memory. */
TEST_F(sig, tag_errors_reported)
{
	struct mlx5_umr_ioc_sig_block sig = mem_dif();
	struct mlx5_umr_ioc_sig_check c;
	struct mlx5_umr_test_xfer x;
	__u8 back[WIRE_LEN];

	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &sig,
			       &self->sge));
	write_dif(_metadata, self);
	/* block 0's ref tag: 0x100 expected by the configuration */
	put_be32(self->buf + BS + 4, 0x777);
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, WIRE_LEN, 0, &x));
	EXPECT_EQ(MLX5_UMR_TEST_XFER_OUT_SIG_ERR, x.out_flags);
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_REFTAG, c.out_err_type);
	EXPECT_EQ(REF, c.out_expected);
	EXPECT_EQ(0x777, c.out_actual);
	EXPECT_EQ(err_offset(0, PI), c.out_offset);

	/* block 1's app tag, block 0 repaired */
	write_dif(_metadata, self);
	self->buf[2 * BS + PI + 2] = 0x56;
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, WIRE_LEN, 0, &x));
	EXPECT_EQ(MLX5_UMR_TEST_XFER_OUT_SIG_ERR, x.out_flags);
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_APPTAG, c.out_err_type);
	EXPECT_EQ(APP, c.out_expected);
	EXPECT_EQ(0x5634, c.out_actual);
	EXPECT_EQ(err_offset(1, PI), c.out_offset);
}

/*
 * After an error the HCA checks nothing more until re-armed: a second bad
 * read is not reported. SIG_CHECK re-arms: the next bad read is.
 */
TEST_F(sig, rearm_after_check)
{
	struct mlx5_umr_ioc_sig_block sig = mem_dif();
	struct mlx5_umr_ioc_sig_check c;
	struct mlx5_umr_test_xfer x;
	__u8 back[WIRE_LEN];
	long long wqes;

	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &sig,
			       &self->sge));
	write_dif(_metadata, self);
	self->buf[3] ^= 0xff;
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, WIRE_LEN, 0, &x));
	EXPECT_EQ(MLX5_UMR_TEST_XFER_OUT_SIG_ERR, x.out_flags);
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, WIRE_LEN, 0, &x));
	EXPECT_EQ(0, x.out_flags) TH_LOG("the PSV is in error: no report");

	wqes = umr_fake_counter(self->path, "wqes");
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_GUARD, c.out_err_type);
	EXPECT_EQ(err_offset(0, PI), c.out_offset);
	EXPECT_EQ(1, c.out_errors);
	/* the re-arm: a SET_PSV for the memory domain */
	if (wqes >= 0)
		EXPECT_LT(wqes, umr_fake_counter(self->path, "wqes"));

	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, WIRE_LEN, 0, &x));
	EXPECT_EQ(MLX5_UMR_TEST_XFER_OUT_SIG_ERR, x.out_flags);
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_GUARD, c.out_err_type);
	EXPECT_EQ(1, c.out_errors);
	/* a check without error posts nothing */
	wqes = umr_fake_counter(self->path, "wqes");
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_NONE, c.out_err_type);
	if (wqes >= 0)
		EXPECT_EQ(wqes, umr_fake_counter(self->path, "wqes"));
}

/*
 * The SIG_ERR CQE goes to whoever polls the accessing QP's CQ: handed
 * back by the test path, it is reported with SIG_REPORT, by this file
 * only and under the mkey's current key.
 */
TEST_F(sig, report_by_the_cq_consumer)
{
	struct mlx5_umr_ioc_sig_block sig = mem_dif();
	struct mlx5_umr_ioc_sig_report rep = { .size = sizeof(rep) };
	struct mlx5_umr_ioc_configure cmd;
	struct mlx5_umr_ioc_sig_check c;
	struct mlx5_umr_test_xfer x;
	__u8 back[WIRE_LEN];
	int fd2;

	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &sig,
			       &self->sge));
	write_dif(_metadata, self);
	self->buf[BS + PI + 5] ^= 0x80;
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, WIRE_LEN,
			  MLX5_UMR_TEST_XFER_SIG_CQE, &x));
	ASSERT_EQ(MLX5_UMR_TEST_XFER_OUT_SIG_ERR, x.out_flags);
	/* struct mlx5_sig_err_cqe: opcode 12 (SIG_ERR), the mkey */
	EXPECT_EQ(0xc0, x.out_sig_cqe[63] & 0xf0);
	EXPECT_EQ(self->mkey, be32(x.out_sig_cqe + 36));
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_NONE, c.out_err_type);

	/* another file cannot report it */
	fd2 = umr_open();
	ASSERT_LE(0, fd2);
	memcpy(rep.cqe, x.out_sig_cqe, sizeof(rep.cqe));
	EXPECT_EQ(-ENOENT, umr_ioctl(fd2, MLX5_UMR_IOCTL_SIG_REPORT, &rep));
	close(fd2);

	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_REPORT, &rep));
	EXPECT_EQ(self->mk, rep.out_handle);
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_GUARD, c.out_err_type);
	EXPECT_EQ(err_offset(1, PI), c.out_offset);
	EXPECT_EQ(be16(self->buf + 2 * BS + PI), c.out_actual);
	EXPECT_EQ(crc16_t10dif(self->buf + BS + PI, BS), c.out_expected);

	/* after a new key, the CQE of the old one names no mkey */
	conf_init(&cmd, self->mk, MLX5_UMR_IOC_NEW_KEY, &self->sge);
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	ASSERT_NE(self->mkey, cmd.out_key);
	memset(&rep, 0, sizeof(rep));
	rep.size = sizeof(rep);
	memcpy(rep.cqe, x.out_sig_cqe, sizeof(rep.cqe));
	EXPECT_EQ(-ENOENT, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_REPORT, &rep));
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_NONE, c.out_err_type);
}

/*
 * A configure without signature flags keeps the signature (the layout may
 * change); SIG_RESET drops it: the bytes then land as they come.
 */
TEST_F(sig, keep_and_reset)
{
	struct mlx5_umr_ioc_sig_block sig = mem_dif();
	struct mlx5_umr_test_xfer x;

	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &sig,
			       &self->sge));
	ASSERT_EQ(0, configure(self->fd, self->mk, 0, NULL, &self->sge));
	write_dif(_metadata, self);
	expect_mem_dif(_metadata, self->buf, self->data);

	memset(self->buf, 0xee, BUF_LEN);
	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_RESET, NULL,
			       &self->sge));
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, self->data, WIRE_LEN,
			  MLX5_UMR_TEST_XFER_WRITE, &x));
	EXPECT_EQ(0, x.out_status);
	EXPECT_EQ(0, memcmp(self->buf, self->data, WIRE_LEN));
	EXPECT_EQ(0xee, self->buf[WIRE_LEN]);
}

/*
 * What a refused request may not have done: post, create or change. The
 * file holds the fixture's objects and @extra signature mkeys.
 */
static void nothing_done_n(struct __test_metadata *_metadata,
			   struct _test_data_sig *self, long long wqes,
			   unsigned int extra, const char *what)
{
	struct mlx5_umr_ioc_info info;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	EXPECT_EQ(3 + extra, info.out_fd_objects) TH_LOG("%s", what);
	if (wqes >= 0)
		EXPECT_EQ(wqes, umr_fake_counter(self->path, "wqes"))
			TH_LOG("%s: the HCA executed a work request", what);
	if (self->hca0[1] >= 0)
		EXPECT_EQ(self->hca0[1] + 2 * (1 + extra),
			  umr_fake_counter(self->path, "psvs")) TH_LOG("%s", what);
}

#define nothing_done(m, s, w, what) nothing_done_n(m, s, w, 0, what)

enum { ON_SIG, ON_PLAIN };

struct bad_sig {
	const char *what;
	int err;
	int mkey;		/* ON_SIG or ON_PLAIN */
	__u32 flags;
	void (*edit)(struct mlx5_umr_ioc_sig_block *s);
	__u32 entries;		/* 0: one */
};

#define EDIT(name, ...) \
	static void name(struct mlx5_umr_ioc_sig_block *s) { __VA_ARGS__; }

EDIT(e_none, (void)s)
EDIT(e_zero, memset(s, 0, sizeof(*s)))
EDIT(e_type, s->mem.sig_type = 3)
EDIT(e_bs, s->mem.block_size = MLX5_UMR_IOC_SIG_BLOCK_4160 + 1)
EDIT(e_bg_type, s->mem.bg_type = 2)
EDIT(e_bg, s->mem.bg = 0x1234)
EDIT(e_dif_flags, s->mem.dif_flags |= 1 << 3)
EDIT(e_flags, s->flags = 1 << 1)
EDIT(e_dif_crc_field, s->mem.crc_seed = 1)
EDIT(e_dif_crc_type, s->mem.crc_type = MLX5_UMR_IOC_SIG_CRC32C)
EDIT(e_reserved, s->mem.__reserved = 1)
EDIT(e_reserved2, s->wire.__reserved2 = 1)
EDIT(e_block_reserved, s->__reserved = 1)
EDIT(e_none_bs, s->wire.block_size = MLX5_UMR_IOC_SIG_BLOCK_4096)
EDIT(e_copy_no_flag, s->copy_mask = 0xff)
/* a CRC32C wire domain, changed by @edit */
static void crc_wire(struct mlx5_umr_ioc_sig_block *s, __u32 type, __u64 seed,
		     __u16 app)
{
	s->wire = (struct mlx5_umr_ioc_sig_domain){
		.sig_type = MLX5_UMR_IOC_SIG_TYPE_CRC,
		.crc_type = type,
		.crc_seed = seed,
		.app_tag = app,
	};
}

EDIT(e_crc_type, crc_wire(s, 3, 0, 0))
EDIT(e_crc_seed, crc_wire(s, MLX5_UMR_IOC_SIG_CRC32C, 5, 0))
EDIT(e_crc32_seed64, crc_wire(s, MLX5_UMR_IOC_SIG_CRC32, ~0ULL, 0))
EDIT(e_crc_app, crc_wire(s, MLX5_UMR_IOC_SIG_CRC32C, 0xffffffff, 1))
EDIT(e_copy_types, crc_wire(s, MLX5_UMR_IOC_SIG_CRC32C, 0xffffffff, 0);
	s->flags = MLX5_UMR_IOC_SIG_COPY_MASK; s->copy_mask = 0xff)
EDIT(e_copy_bs, s->wire = s->mem;
	s->wire.block_size = MLX5_UMR_IOC_SIG_BLOCK_4096;
	s->flags = MLX5_UMR_IOC_SIG_COPY_MASK; s->copy_mask = 0xc0)

static const struct bad_sig bad_sigs[] = {
	{ "SET and RESET", -EINVAL, ON_SIG,
	  MLX5_UMR_IOC_SIG_SET | MLX5_UMR_IOC_SIG_RESET, e_none },
	{ "SET on a plain mkey", -EINVAL, ON_PLAIN, MLX5_UMR_IOC_SIG_SET,
	  e_none },
	{ "RESET on a plain mkey", -EINVAL, ON_PLAIN, MLX5_UMR_IOC_SIG_RESET,
	  e_zero },
	{ "attributes without SET", -EINVAL, ON_SIG, 0, e_none },
	{ "attributes with RESET", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_RESET,
	  e_none },
	{ "no domain with a signature", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_zero },
	{ "unknown sig_type", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET, e_type },
	{ "unknown block size", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET, e_bs },
	{ "unknown guard", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET, e_bg_type },
	{ "guard seed 0x1234", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET, e_bg },
	{ "unknown T10-DIF flag", -EOPNOTSUPP, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_dif_flags },
	{ "unknown signature flag", -EOPNOTSUPP, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_flags },
	{ "a CRC seed on T10-DIF", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_dif_crc_field },
	{ "a CRC type on T10-DIF", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_dif_crc_type },
	{ "domain __reserved", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_reserved },
	{ "domain __reserved2", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_reserved2 },
	{ "signature __reserved", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_block_reserved },
	{ "a block size without signature", -EINVAL, ON_SIG,
	  MLX5_UMR_IOC_SIG_SET, e_none_bs },
	{ "copy_mask without its flag", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_copy_no_flag },
	{ "unknown CRC", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET, e_crc_type },
	{ "CRC seed 5", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET, e_crc_seed },
	{ "CRC32 seed of 64 bits", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_crc32_seed64 },
	{ "an app tag on a CRC", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_crc_app },
	{ "copy mask across types", -EINVAL, ON_SIG, MLX5_UMR_IOC_SIG_SET,
	  e_copy_types },
	{ "copy mask across block sizes", -EINVAL, ON_SIG,
	  MLX5_UMR_IOC_SIG_SET, e_copy_bs },
	{ "more entries than fit inline with the BSF", -ENOMEM, ON_SIG,
	  MLX5_UMR_IOC_SIG_SET, e_none, 1 },
};

/*
 * Every bad combination, each refused with its errno before anything is
 * posted; the signature configured before still holds.
 */
TEST_F(sig, refusals)
{
	struct mlx5_umr_ioc_sig_block good = mem_dif(), s;
	struct mlx5_umr_ioc_alloc_mkey am = {
		.size = sizeof(am),
		.flags = MLX5_UMR_IOC_MKEY_SIGNATURE,
	};
	struct mlx5_umr_ioc_sge *many;
	struct mlx5_umr_ioc_info info;
	struct mlx5_umr_ioc_configure cmd;
	unsigned int k, n, i;
	long long wqes;
	__u32 big;

	ASSERT_EQ(0, umr_info(self->fd, &info));
	/*
	 * As many entries as one work request holds inline: with the BSF
	 * and SET_PSVs they no longer fit (rule 51).
	 */
	n = info.out_max_inline_entries;
	am.max_entries = n;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_ALLOC_MKEY, &am));
	big = am.out_handle;
	many = calloc(n, sizeof(*many));
	ASSERT_NE(NULL, many);
	/* the first four cover the memory view, the rest repeat 8 bytes */
	for (i = 0; i < n; i++)
		many[i] = (struct mlx5_umr_ioc_sge){
			(uintptr_t)self->buf + (i < 4 ? i * 260 : 0),
			i < 4 ? 260 : 8, self->key };

	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &good,
			       &self->sge));
	for (k = 0; k < ARRAY_SIZE(bad_sigs); k++) {
		const struct bad_sig *b = &bad_sigs[k];

		s = good;
		b->edit(&s);
		wqes = umr_fake_counter(self->path, "wqes");
		if (b->entries) {
			conf_init(&cmd, big, b->flags, many);
			cmd.num_entries = n;
			cmd.sig = s;
			EXPECT_EQ(b->err, umr_ioctl(self->fd,
						    MLX5_UMR_IOCTL_CONFIGURE,
						    &cmd)) TH_LOG("%s", b->what);
		} else {
			EXPECT_EQ(b->err,
				  configure(self->fd,
					    b->mkey == ON_SIG ? self->mk :
					    self->pk, b->flags, &s,
					    &self->sge)) TH_LOG("%s", b->what);
		}
		nothing_done_n(_metadata, self, wqes, 1, b->what);
	}
	/* a few entries fit with the BSF */
	conf_init(&cmd, big, MLX5_UMR_IOC_SIG_SET, many);
	cmd.num_entries = 4;
	cmd.sig = good;
	EXPECT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	EXPECT_EQ(MEM_LEN, cmd.out_length);
	EXPECT_EQ(0, umr_destroy(self->fd, big));
	free(many);

	/* the signature configured before the refusals still holds */
	write_dif(_metadata, self);
	expect_mem_dif(_metadata, self->buf, self->data);
}

/* A caller of the first version cannot ask for a signature it cannot give. */
TEST_F(sig, first_version_with_sig_flag)
{
	struct mlx5_umr_ioc_configure cmd;
	long long wqes = umr_fake_counter(self->path, "wqes");

	conf_init(&cmd, self->mk, MLX5_UMR_IOC_SIG_SET, &self->sge);
	cmd.sig = mem_dif();
	cmd.size = offsetof(struct mlx5_umr_ioc_configure, sig);
	/* the kernel reads no signature: no domain has one */
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	nothing_done(_metadata, self, wqes, "first version");
	/* the first version of a plain configure still works */
	conf_init(&cmd, self->mk, 0, &self->sge);
	cmd.size = offsetof(struct mlx5_umr_ioc_configure, sig);
	EXPECT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_CONFIGURE, &cmd));
	EXPECT_EQ(MEM_LEN, cmd.out_length);
}

TEST_F(sig, check_refusals)
{
	struct mlx5_umr_ioc_sig_check c;
	long long wqes = umr_fake_counter(self->path, "wqes");
	int fd2;

	EXPECT_EQ(-EINVAL, sig_check(self->fd, self->pk, &c));
	EXPECT_EQ(-ENOENT, sig_check(self->fd, self->mr, &c));
	EXPECT_EQ(-ENOENT, sig_check(self->fd, 12345, &c));
	fd2 = umr_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(-ENOENT, sig_check(fd2, self->mk, &c));
	close(fd2);
	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.handle = self->mk;
	c.flags = 1;
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_CHECK, &c));
	/* no signature set yet: nothing to report */
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_NONE, c.out_err_type);
	nothing_done(_metadata, self, wqes, "check");
}

TEST_F(sig, report_refusals)
{
	struct mlx5_umr_ioc_sig_report rep;
	long long wqes = umr_fake_counter(self->path, "wqes");
	static const struct {
		const char *what;
		int err;
		__u32 key;	/* 0: the fixture's signature mkey */
		__u8 op_own;
		__u32 flags, reserved;
	} c[] = {
		{ "opcode REQ", -EINVAL, 0, 0x00 },
		{ "opcode RESP_ERR", -EINVAL, 0, 0xe0 },
		{ "flags", -EOPNOTSUPP, 0, 0xc0, 1 },
		{ "__reserved", -EINVAL, 0, 0xc0, 0, 1 },
		{ "unknown key", -ENOENT, 0x12345678, 0xc0 },
		{ "a plain mkey", -EINVAL, 1, 0xc0 },
		{ "registered memory", -ENOENT, 2, 0xc0 },
	};
	struct mlx5_umr_ioc_sig_check chk;
	unsigned int k;
	__u32 key;

	for (k = 0; k < ARRAY_SIZE(c); k++) {
		memset(&rep, 0, sizeof(rep));
		rep.size = sizeof(rep);
		rep.flags = c[k].flags;
		rep.__reserved = c[k].reserved;
		key = c[k].key == 0 ? self->mkey : c[k].key == 1 ? self->pkey :
		      c[k].key == 2 ? self->key : c[k].key;
		put_be32(rep.cqe + 36, key);
		rep.cqe[63] = c[k].op_own;
		EXPECT_EQ(c[k].err, umr_ioctl(self->fd,
					      MLX5_UMR_IOCTL_SIG_REPORT, &rep))
			TH_LOG("%s", c[k].what);
	}
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &chk));
	EXPECT_EQ(MLX5_UMR_IOC_SIG_ERR_NONE, chk.out_err_type);
	nothing_done(_metadata, self, wqes, "report");
}

/*
 * A batch request carries no signature and no flags; a batch's configure
 * of a signature mkey keeps its signature.
 */
TEST_F(sig, batch)
{
	struct mlx5_umr_ioc_sig_block sig = mem_dif();
	struct mlx5_umr_ioc_batch_req req = {
		.op = MLX5_UMR_IOC_BATCH_CONFIGURE,
		.handle = self->mk,
		.flags = MLX5_UMR_IOC_SIG_SET,
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

	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &sig,
			       &self->sge));
	wqes = umr_fake_counter(self->path, "wqes");
	EXPECT_EQ(-EOPNOTSUPP, umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH, &b));
	EXPECT_EQ(0, b.out_index);
	nothing_done(_metadata, self, wqes, "batch");

	req.flags = 0;
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH, &b));
	EXPECT_EQ(0, req.out_status);
	EXPECT_EQ(MEM_LEN, req.out_length);
	write_dif(_metadata, self);
	expect_mem_dif(_metadata, self->buf, self->data);
}

#define MAX_QPS	64

/* Which of the QPs @q0/@w0 executed WQEs since, by @q1/@w1; -1 if none. */
static int qps_ran(const unsigned int *q0, const unsigned long long *w0,
		   const unsigned int *q1, const unsigned long long *w1, int n,
		   int *ran)
{
	int i, last = -1;

	*ran = 0;
	for (i = 0; i < n; i++)
		if (q0[i] == q1[i] && w1[i] != w0[i]) {
			(*ran)++;
			last = i;
		}
	return last;
}

/*
 * SET_PSV runs on a QP of the PSVs' PD (Documentation/signature.rst,
 * "PSVs and their PD"; the fake refuses it on any other): a file's
 * signature mkey, in its own PD, lives on a queue created in that PD (one
 * QP more than the device's queues and the files' queue), and its
 * configure runs there alone. A batch mixing it with plain mkeys of the
 * file (three runs of one queue each) runs each on its own queue; the
 * signature still lands.
 */
TEST_F(sig, pd_queue)
{
	struct mlx5_umr_ioc_sig_block sig = mem_dif();
	struct mlx5_umr_ioc_batch_req req[3] = {
		{ .op = MLX5_UMR_IOC_BATCH_CONFIGURE, .handle = self->pk },
		{ .op = MLX5_UMR_IOC_BATCH_CONFIGURE, .handle = self->mk },
		{ .op = MLX5_UMR_IOC_BATCH_CONFIGURE },
	};
	struct mlx5_umr_ioc_batch b = {
		.size = sizeof(b),
		.num_reqs = 3,
		.req_size = sizeof(req[0]),
		.reqs = (uintptr_t)req,
	};
	unsigned long long w0[MAX_QPS], w1[MAX_QPS];
	unsigned int q0[MAX_QPS], q1[MAX_QPS], pd[MAX_QPS];
	int n, i, pdq = -1, ran;
	__u32 pk2, pkey2;
	long long pdn;

	n = umr_fake_qps(self->path, q0, w0, pd, MAX_QPS);
	if (n < 0)
		SKIP(return, "no debugfs of the fake");
	pdn = umr_fake_mkey_pd(self->path, self->mkey);
	ASSERT_LT(0, pdn);
	EXPECT_EQ(pdn, umr_fake_mkey_pd(self->path, self->pkey));
	EXPECT_EQ(self->info0.out_nqueues + 2, n);
	for (i = 0; i < n; i++)
		if (pd[i] == pdn) {
			EXPECT_EQ(-1, pdq);
			pdq = i;
		}
	ASSERT_LE(0, pdq) TH_LOG("no QP in the file's PD 0x%llx", pdn);

	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &sig,
			       &self->sge));
	ASSERT_EQ(n, umr_fake_qps(self->path, q1, w1, NULL, MAX_QPS));
	EXPECT_EQ(pdq, qps_ran(q0, w0, q1, w1, n, &ran));
	EXPECT_EQ(1, ran);
	/* the chain: the UMR, the memory domain's SET_PSV */
	EXPECT_EQ(w0[pdq] + 2, w1[pdq]);

	ASSERT_EQ(0, umr_alloc(self->fd, 4, &pk2, &pkey2));
	req[2].handle = pk2;
	for (i = 0; i < 3; i++) {
		req[i].access = UMR_ACCESS_ALL3;
		req[i].layout = MLX5_UMR_IOC_LAYOUT_LIST;
		req[i].num_entries = 1;
		req[i].entries = (uintptr_t)&self->sge;
	}
	memcpy(w0, w1, sizeof(w0));
	ASSERT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_BATCH, &b));
	EXPECT_EQ(0, b.out_failed);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, req[i].out_status) TH_LOG("request %d", i);
	ASSERT_EQ(n, umr_fake_qps(self->path, q1, w1, NULL, MAX_QPS));
	qps_ran(q0, w0, q1, w1, n, &ran);
	EXPECT_EQ(2, ran);
	/* a configure that keeps the signature: the UMR alone */
	EXPECT_EQ(w0[pdq] + 1, w1[pdq]);
	EXPECT_EQ(0, umr_destroy(self->fd, pk2));
	write_dif(_metadata, self);
	expect_mem_dif(_metadata, self->buf, self->data);
}

/* The new ioctls follow the size rules of the others. */
TEST_F(sig, length)
{
	union {
		__u8 raw[256];
		__u64 align;
	} u;
	struct mlx5_umr_ioc_sig_check *c = (void *)u.raw;
	struct mlx5_umr_ioc_sig_report *r = (void *)u.raw;

	memset(&u, 0, sizeof(u));
	c->handle = self->mk;
	c->size = sizeof(*c) - 1;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_CHECK, c));
	c->size = sizeof(*c) + 8;
	u.raw[sizeof(*c) + 3] = 1;
	EXPECT_EQ(-E2BIG, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_CHECK, c));
	u.raw[sizeof(*c) + 3] = 0;
	EXPECT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_CHECK, c));

	memset(&u, 0, sizeof(u));
	put_be32(r->cqe + 36, self->mkey);
	r->cqe[63] = 0xc0;
	r->size = sizeof(*r) - 1;
	EXPECT_EQ(-EINVAL, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_REPORT, r));
	r->size = sizeof(*r) + 8;
	u.raw[sizeof(*r) + 3] = 1;
	EXPECT_EQ(-E2BIG, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_REPORT, r));
	u.raw[sizeof(*r) + 3] = 0;
	EXPECT_EQ(0, umr_ioctl(self->fd, MLX5_UMR_IOCTL_SIG_REPORT, r));
	EXPECT_EQ(self->mk, r->out_handle);
	/* nothing written past what the caller knows */
	EXPECT_EQ(0, u.raw[sizeof(*r)]);
}

/*
 * Issue 30 item 8: a re-arm posts the UMR with the BSF and a SET_PSV per
 * domain, 4 to 5 basic blocks, and was charged 2 to the files' share. Two
 * batches of another file hold 510 of the 512 blocks (170 short
 * configures of 3, their completions delayed by the fake): the re-arm
 * must wait for its blocks, and the wait ends with a signal (EINTR,
 * nothing posted, the error still reported). Charged 2 it went out at once.
 */
TEST_F(sig, rearm_charged_its_blocks)
{
	struct mlx5_umr_ioc_sig_block sig = mem_dif();
	struct mlx5_umr_ioc_sig_check c;
	struct mlx5_umr_test_xfer x;
	struct share_hog hog;
	__u8 back[WIRE_LEN];
	int ret, hret[2];

	ASSERT_EQ(0, configure(self->fd, self->mk, MLX5_UMR_IOC_SIG_SET, &sig,
			       &self->sge));
	write_dif(_metadata, self);
	self->buf[3] ^= 0xff;
	ASSERT_EQ(0, xfer(self->fd, self->mkey, 0, back, WIRE_LEN, 0, &x));
	ASSERT_EQ(MLX5_UMR_TEST_XFER_OUT_SIG_ERR, x.out_flags);

	ret = share_hog_start(&hog, self->path, 6000, 2000);
	if (ret == -1)
		SKIP(return, "needs the fake's debugfs");
	ASSERT_EQ(0, ret);
	share_hog_alarm_in(1);
	ret = sig_check(self->fd, self->mk, &c);
	alarm(0);
	EXPECT_EQ(-EINTR, ret);
	share_hog_stop(&hog, self->path, hret);
	EXPECT_EQ(0, hret[0]);
	EXPECT_EQ(0, hret[1]);
	/* the error is still there, and the re-arm goes out now */
	ASSERT_EQ(0, sig_check(self->fd, self->mk, &c));
	EXPECT_EQ(ret == -EINTR ? 1 : 0, c.out_errors);
}

TEST_HARNESS_MAIN
