// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: which ib_devices the hardware backend binds.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/ctype.h>

#include "bind_policy.h"

static void hw_bind_not_mlx5(struct kunit *test)
{
	static const enum rdma_driver_id others[] = {
		RDMA_DRIVER_UNKNOWN, RDMA_DRIVER_MLX4, RDMA_DRIVER_RXE,
		RDMA_DRIVER_SIW, RDMA_DRIVER_EFA, RDMA_DRIVER_IRDMA,
	};
	unsigned int i;

	/* Whatever the parent looks like, a non-mlx5 driver is never bound. */
	for (i = 0; i < ARRAY_SIZE(others); i++) {
		KUNIT_EXPECT_EQ(test, mlx5_umr_hw_classify(others[i], false, NULL),
				MLX5_UMR_HW_NOT_MLX5);
		KUNIT_EXPECT_EQ(test,
				mlx5_umr_hw_classify(others[i], true, "mlx5_core"),
				MLX5_UMR_HW_NOT_MLX5);
	}
}

static void hw_bind_mlx5_parents(struct kunit *test)
{
	/* Sub-function: the parent is an auxiliary device, not PCI. */
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_classify(RDMA_DRIVER_MLX5, false,
						   "mlx5_core"),
			MLX5_UMR_HW_NOT_PCI);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_classify(RDMA_DRIVER_MLX5, false, NULL),
			MLX5_UMR_HW_NOT_PCI);
	/* PCI parent without mlx5_core: its drvdata is not an mdev. */
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_classify(RDMA_DRIVER_MLX5, true, NULL),
			MLX5_UMR_HW_NOT_MLX5_CORE);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_classify(RDMA_DRIVER_MLX5, true,
						   "vfio-pci"),
			MLX5_UMR_HW_NOT_MLX5_CORE);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_classify(RDMA_DRIVER_MLX5, true,
						   "mlx5_core_x"),
			MLX5_UMR_HW_NOT_MLX5_CORE);
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_classify(RDMA_DRIVER_MLX5, true,
						   "mlx5_cor"),
			MLX5_UMR_HW_NOT_MLX5_CORE);
	/* PF or VF. */
	KUNIT_EXPECT_EQ(test, mlx5_umr_hw_classify(RDMA_DRIVER_MLX5, true,
						   "mlx5_core"),
			MLX5_UMR_HW_BIND);
}

/* debugfs and the VM selftest parse these names: one word each, distinct. */
static void hw_bind_verdict_names(struct kunit *test)
{
	const char *names[MLX5_UMR_HW_NR_VERDICTS];
	unsigned int i, j;

	KUNIT_EXPECT_STREQ(test, mlx5_umr_hw_verdict_name(MLX5_UMR_HW_BIND),
			   "bound");
	KUNIT_EXPECT_STREQ(test, mlx5_umr_hw_verdict_name(MLX5_UMR_HW_NOT_MLX5),
			   "not-mlx5");
	KUNIT_EXPECT_STREQ(test,
			   mlx5_umr_hw_verdict_name(MLX5_UMR_HW_MULTIPORT),
			   "multiport-unsupported");
	KUNIT_EXPECT_STREQ(test,
			   mlx5_umr_hw_verdict_name(MLX5_UMR_HW_NR_VERDICTS),
			   "unknown");
	KUNIT_EXPECT_STREQ(test, mlx5_umr_hw_verdict_name(-1), "unknown");

	for (i = 0; i < MLX5_UMR_HW_NR_VERDICTS; i++) {
		const char *p;

		names[i] = mlx5_umr_hw_verdict_name(i);
		KUNIT_ASSERT_NOT_NULL(test, names[i]);
		KUNIT_EXPECT_NE(test, names[i][0], '\0');
		KUNIT_EXPECT_STRNEQ(test, names[i], "unknown");
		for (p = names[i]; *p; p++)
			KUNIT_EXPECT_FALSE_MSG(test, isspace(*p),
					       "verdict %u name \"%s\"", i,
					       names[i]);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, names[i], names[j]);
	}
}

static struct kunit_case hw_bind_cases[] = {
	KUNIT_CASE(hw_bind_not_mlx5),
	KUNIT_CASE(hw_bind_mlx5_parents),
	KUNIT_CASE(hw_bind_verdict_names),
	{}
};

static struct kunit_suite hw_bind_suite = {
	.name = "mlx5_umr_hw_bind",
	.test_cases = hw_bind_cases,
};

kunit_test_suite(hw_bind_suite);
