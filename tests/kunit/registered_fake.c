// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr KUnit helpers: a fake HCA the UMR service has brought up.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>

#include "umr_kunit.h"

/**
 * umr_kunit_fake_registered_attr() - a new fake of @attr registered with
 *	the service
 * @test: the test (asserts the fake exists and the service brought it up)
 * @attr: the fake's attributes; MLX5_UMR_FAKE_F_REGISTER is added
 *
 * Return: the fake; umr_kunit_fake_umr() is the service's device on it.
 * The caller destroys it with mlx5_umr_fake_destroy(), which withdraws
 * it from the service.
 */
struct mlx5_umr_fake *
umr_kunit_fake_registered_attr(struct kunit *test,
			       const struct mlx5_umr_fake_attr *attr)
{
	struct mlx5_umr_fake_attr a = *attr;
	struct mlx5_umr_fake *fake;

	a.flags |= MLX5_UMR_FAKE_F_REGISTER;
	fake = mlx5_umr_fake_create(&a);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(fake));
	if (!umr_kunit_fake_umr(fake)) {
		mlx5_umr_fake_destroy(fake);
		KUNIT_FAIL_AND_ABORT(test, "the service did not bring it up");
	}
	return fake;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_fake_registered_attr, MLX5_UMR_KUNIT);

/**
 * umr_kunit_fake_registered() - a new fake registered with the service
 * @test: the test (asserts the fake exists and the service brought it up)
 * @flags: MLX5_UMR_FAKE_F_* besides MLX5_UMR_FAKE_F_REGISTER
 *
 * Return: as umr_kunit_fake_registered_attr(), default attributes.
 */
struct mlx5_umr_fake *umr_kunit_fake_registered(struct kunit *test,
						u32 flags)
{
	struct mlx5_umr_fake_attr attr;

	mlx5_umr_fake_attr_init(&attr);
	attr.flags = flags;
	return umr_kunit_fake_registered_attr(test, &attr);
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_fake_registered, MLX5_UMR_KUNIT);
