// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the hardware backend's pure transport helpers.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5_umr_compat.h>

#include "transport.h"

static void hw_buf_layout(struct kunit *test)
{
	const size_t max = PAGE_SIZE << MAX_PAGE_ORDER;
	static const struct {
		size_t size, bytes;
		unsigned int npages;
	} ok[] = {
		{ 1, PAGE_SIZE, 1 },
		{ 64, PAGE_SIZE, 1 },
		{ PAGE_SIZE, PAGE_SIZE, 1 },
		{ PAGE_SIZE + 1, 2 * PAGE_SIZE, 2 },
		{ 3 * PAGE_SIZE - 1, 3 * PAGE_SIZE, 3 },
	};
	unsigned int npages, i;
	size_t bytes;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		KUNIT_ASSERT_EQ(test, mlx5_umr_hw_buf_layout(ok[i].size, &bytes,
							     &npages), 0);
		KUNIT_EXPECT_EQ(test, bytes, ok[i].bytes);
		KUNIT_EXPECT_EQ(test, npages, ok[i].npages);
	}
	KUNIT_ASSERT_EQ(test, mlx5_umr_hw_buf_layout(max, &bytes, &npages), 0);
	KUNIT_EXPECT_EQ(test, bytes, max);
	KUNIT_EXPECT_EQ(test, npages, 1U << MAX_PAGE_ORDER);

	/* Rejected sizes leave the outputs alone. */
	bytes = 7;
	npages = 7;
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_buf_layout(0, &bytes, &npages),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_buf_layout(max + 1, &bytes, &npages),
			-EINVAL);
	/* PAGE_ALIGN(SIZE_MAX) would wrap to 0. */
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_buf_layout(SIZE_MAX, &bytes, &npages),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, bytes, 7);
	KUNIT_EXPECT_EQ(test, npages, 7);
}

static void hw_fill_pages(struct kunit *test)
{
	dma_addr_t pages[6];
	unsigned int i;

	memset(pages, 0xa5, sizeof(pages));
	mlx5_umr_hw_fill_pages(0x12340000, 5, pages);
	KUNIT_EXPECT_EQ(test, pages[0], (dma_addr_t)0x12340000);
	for (i = 1; i < 5; i++)
		KUNIT_EXPECT_EQ(test, pages[i],
				(dma_addr_t)(0x12340000 + i * PAGE_SIZE));
	/* Nothing past npages is written. */
	KUNIT_EXPECT_EQ(test, pages[5], (dma_addr_t)0xa5a5a5a5a5a5a5a5ULL);

	/* Crossing 4 GiB: no 32-bit truncation of the page offset. */
	if (sizeof(dma_addr_t) == 8) {
		u64 base = 0x100000000ULL - PAGE_SIZE;

		mlx5_umr_hw_fill_pages(base, 3, pages);
		KUNIT_EXPECT_EQ(test, (u64)pages[0], base);
		KUNIT_EXPECT_EQ(test, (u64)pages[1], 0x100000000ULL);
		KUNIT_EXPECT_EQ(test, (u64)pages[2], 0x100000000ULL + PAGE_SIZE);
	}

	/* Zero pages: nothing written. */
	memset(pages, 0x5a, sizeof(pages));
	mlx5_umr_hw_fill_pages(0x1000, 0, pages);
	KUNIT_EXPECT_EQ(test, pages[0], (dma_addr_t)0x5a5a5a5a5a5a5a5aULL);
}

static void hw_set_out(u32 *out, u8 status, u32 syndrome)
{
	memset(out, 0, MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	MLX5_SET(general_obj_out_cmd_hdr, out, status, status);
	MLX5_SET(general_obj_out_cmd_hdr, out, syndrome, syndrome);
}

static void hw_cmd_result(struct kunit *test)
{
	u32 out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)];
	u32 copy[ARRAY_SIZE(out)];
	const u8 *b = (const u8 *)out;

	/* Delivered, status OK. */
	hw_set_out(out, MLX5_CMD_STAT_OK, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_cmd_result(0, out), 0);

	/* Bad firmware status: -EREMOTEIO, mailbox untouched. */
	hw_set_out(out, MLX5_CMD_STAT_BAD_PARAM_ERR, 0x1234abcd);
	memcpy(copy, out, sizeof(out));
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_cmd_result(-EREMOTEIO, out),
			-EREMOTEIO);
	KUNIT_EXPECT_EQ(test, memcmp(copy, out, sizeof(out)), 0);
	/* Wire layout the service reads: status byte 0, syndrome bytes 4-7. */
	KUNIT_EXPECT_EQ(test, b[0], MLX5_CMD_STAT_BAD_PARAM_ERR);
	KUNIT_EXPECT_EQ(test, b[4], 0x12);
	KUNIT_EXPECT_EQ(test, b[7], 0xcd);

	/* A bad status reported with 0 is still a firmware error. */
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_cmd_result(0, out), -EREMOTEIO);

	/* -EREMOTEIO with status OK is inconsistent: not a firmware answer. */
	hw_set_out(out, MLX5_CMD_STAT_OK, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_cmd_result(-EREMOTEIO, out), -EIO);

	/* Delivery failures pass through whatever the mailbox says. */
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_cmd_result(-ETIMEDOUT, out),
			-ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_cmd_result(-ENOMEM, out), -ENOMEM);
	/* Device down, create-type command: mlx5_cmd_check() said -ENOLINK. */
	hw_set_out(out, 0xff, 0x5);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_cmd_result(-ENOLINK, out), -ENOLINK);
	/* A positive value is not an errno. */
	hw_set_out(out, MLX5_CMD_STAT_OK, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_cmd_result(1, out), -EIO);
}

static void hw_cq_set_eqn(struct kunit *test)
{
	const int inlen = MLX5_ST_SZ_BYTES(create_cq_in) + 2 * 8;
	u8 *in, *copy;
	int i;

	in = kunit_kmalloc(test, inlen, GFP_KERNEL);
	copy = kunit_kmalloc(test, inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	for (i = 0; i < inlen; i++)
		in[i] = (u8)(i * 37 + 11);
	memcpy(copy, in, inlen);

	/* Pin the layout: cqc at byte 0x10, c_eqn_or_apu_element at 0x14. */
	KUNIT_EXPECT_EQ(test, MLX5_BYTE_OFF(create_cq_in, cq_context), 0x10);
	KUNIT_EXPECT_EQ(test, MLX5_BYTE_OFF(cqc, c_eqn_or_apu_element), 0x14);

	KUNIT_ASSERT_EQ(test, mlx5_umr_hw_cq_set_eqn(in, inlen, 0x01020317), 0);
	/* Big-endian EQN at 0x24..0x27, every other byte as the service wrote. */
	KUNIT_EXPECT_EQ(test, in[0x24], 0x01);
	KUNIT_EXPECT_EQ(test, in[0x25], 0x02);
	KUNIT_EXPECT_EQ(test, in[0x26], 0x03);
	KUNIT_EXPECT_EQ(test, in[0x27], 0x17);
	for (i = 0; i < inlen; i++)
		if (i < 0x24 || i > 0x27)
			KUNIT_EXPECT_EQ_MSG(test, in[i], copy[i], "byte %d", i);

	/* Too short for a create_cq_in: refused, untouched. */
	memcpy(in, copy, inlen);
	KUNIT_EXPECT_EQ(test,
			mlx5_umr_hw_cq_set_eqn(in, MLX5_ST_SZ_BYTES(create_cq_in) - 1,
					       7), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(in, copy, inlen), 0);
}

static void hw_db_offset(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, mlx5_umr_hw_db_offset_valid(MLX5_BF_OFFSET));
	KUNIT_EXPECT_TRUE(test, mlx5_umr_hw_db_offset_valid(MLX5_CQ_DOORBELL));
	KUNIT_EXPECT_TRUE(test, mlx5_umr_hw_db_offset_valid(0));
	KUNIT_EXPECT_TRUE(test, mlx5_umr_hw_db_offset_valid(4096 - 8));
	KUNIT_EXPECT_FALSE(test, mlx5_umr_hw_db_offset_valid(4096 - 4));
	KUNIT_EXPECT_FALSE(test, mlx5_umr_hw_db_offset_valid(4096));
	KUNIT_EXPECT_FALSE(test, mlx5_umr_hw_db_offset_valid(MLX5_BF_OFFSET + 4));
	KUNIT_EXPECT_FALSE(test, mlx5_umr_hw_db_offset_valid(UINT_MAX));
	KUNIT_EXPECT_FALSE(test, mlx5_umr_hw_db_offset_valid(UINT_MAX - 7));
}

static struct kunit_case hw_transport_cases[] = {
	KUNIT_CASE(hw_buf_layout),
	KUNIT_CASE(hw_fill_pages),
	KUNIT_CASE(hw_cmd_result),
	KUNIT_CASE(hw_cq_set_eqn),
	KUNIT_CASE(hw_db_offset),
	{}
};

static struct kunit_suite hw_transport_suite = {
	.name = "mlx5_umr_hw_transport",
	.test_cases = hw_transport_cases,
};

kunit_test_suite(hw_transport_suite);

MODULE_DESCRIPTION("KUnit tests for the mlx5 UMR hardware backend's pure parts");
MODULE_LICENSE("Dual BSD/GPL");
