// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the guards and CRCs the fake's signature engine computes, against
 * published check values, never against the fake's own output.
 *
 * Check values ("123456789") from the reveng CRC catalogue
 * (https://reveng.sourceforge.io/crc-catalogue/all.htm): CRC-16/T10-DIF
 * 0xd0db, CRC-32/ISO-HDLC 0xcbf43926, CRC-32/BZIP2 0xfc891918,
 * CRC-32/ISCSI 0xe3069283, CRC-64/NVME 0xae8b14860a799888 (the XP10 CRC64,
 * see fake_crc.c). The IP checksum: RFC 1071 section 3, "Numerical
 * examples" (bytes 00 01 f2 03 f4 f5 f6 f7: sum 0xddf2, checksum 0x220d).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/crc-t10dif.h>
#include <linux/module.h>
#include <net/checksum.h>
#include <linux/mlx5_umr_fake.h>

static const u8 fake_crc_check[] = "123456789";
#define CHECK_LEN	9

/*
 * T10-DIF guard: the fake's table and the kernel's crc_t10dif_update(),
 * register starting at 0, against the catalogue; then against each other
 * on every length of a pattern, with both seeds.
 */
static void fake_crc_t10dif(struct kunit *test)
{
	u8 *buf = kunit_kmalloc(test, 600, GFP_KERNEL);
	unsigned int i, len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_crc_t10dif(0, fake_crc_check,
						       CHECK_LEN), 0xd0db);
	KUNIT_EXPECT_EQ(test, crc_t10dif_update(0, fake_crc_check, CHECK_LEN),
			0xd0db);
	for (i = 0; i < 600; i++)
		buf[i] = i * 31 + (i >> 3);
	for (len = 0; len <= 600; len += 37) {
		KUNIT_EXPECT_EQ(test, mlx5_umr_fake_crc_t10dif(0, buf, len),
				crc_t10dif_update(0, buf, len));
		KUNIT_EXPECT_EQ(test, mlx5_umr_fake_crc_t10dif(0xffff, buf, len),
				crc_t10dif_update(0xffff, buf, len));
	}
}

/* CRC32 both bit orders: crc32_le() (reflected) and crc32_be() (MSB first) */
static void fake_crc_crc32(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ~crc32_le(~0U, fake_crc_check, CHECK_LEN),
			0xcbf43926U);
	KUNIT_EXPECT_EQ(test, ~crc32_be(~0U, fake_crc_check, CHECK_LEN),
			0xfc891918U);
}

/* CRC32C: __crc32c_le() of lib/crc32.c */
static void fake_crc_crc32c(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ~__crc32c_le(~0U, fake_crc_check, CHECK_LEN),
			0xe3069283U);
}

/* CRC64-XP10: the fake's own table, as CRC-64/NVME */
static void fake_crc_crc64_xp10(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ~mlx5_umr_fake_crc64_xp10(~0ULL, fake_crc_check,
							CHECK_LEN),
			0xae8b14860a799888ULL);
	/* incremental: the register carries over between calls */
	KUNIT_EXPECT_EQ(test,
			~mlx5_umr_fake_crc64_xp10(mlx5_umr_fake_crc64_xp10(~0ULL,
									   fake_crc_check,
									   4),
						  fake_crc_check + 4,
						  CHECK_LEN - 4),
			0xae8b14860a799888ULL);
}

/* IP checksum: csum_partial() folded, bytes in network order */
static void fake_crc_ipcs(struct kunit *test)
{
	static const u8 rfc1071[] = {
		0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7,
	};
	__sum16 cs = csum_fold(csum_partial(rfc1071, sizeof(rfc1071), 0));
	u8 b[2];

	memcpy(b, &cs, sizeof(b));
	KUNIT_EXPECT_EQ(test, b[0], 0x22);
	KUNIT_EXPECT_EQ(test, b[1], 0x0d);
}

static struct kunit_case fake_crc_cases[] = {
	KUNIT_CASE(fake_crc_t10dif),
	KUNIT_CASE(fake_crc_crc32),
	KUNIT_CASE(fake_crc_crc32c),
	KUNIT_CASE(fake_crc_crc64_xp10),
	KUNIT_CASE(fake_crc_ipcs),
	{}
};

static struct kunit_suite fake_crc_suite = {
	.name = "mlx5_umr_fake_crc",
	.test_cases = fake_crc_cases,
};

kunit_test_suite(fake_crc_suite);

MODULE_DESCRIPTION("KUnit known-answer tests of the fake HCA's CRCs");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
