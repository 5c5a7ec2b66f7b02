// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr KUnit helpers: a fake HCA the UMR service has brought up.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>

#include "umr_kunit.h"

/*
 * The signature profile of the fakes the helpers create: with
 * sigerr_domain_and_sig_type (the default, what rdma-core requires) or
 * without (a device whose SIG_ERR CQEs leave bytes 34-35 reserved). A
 * suite runs under the second by naming umr_kunit_sig_profile_legacy()
 * and umr_kunit_sig_profile_default() as its suite_init and suite_exit.
 * Suites of one module run one after the other.
 */
static bool umr_kunit_sig_legacy;

/**
 * umr_kunit_sig_profile_legacy() - later fakes report no SIG_ERR domain
 * @suite: the suite starting
 *
 * Return: 0.
 */
int umr_kunit_sig_profile_legacy(struct kunit_suite *suite)
{
	umr_kunit_sig_legacy = true;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_sig_profile_legacy, MLX5_UMR_KUNIT);

/**
 * umr_kunit_sig_profile_default() - back to the default profile
 * @suite: the suite ending
 */
void umr_kunit_sig_profile_default(struct kunit_suite *suite)
{
	umr_kunit_sig_legacy = false;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_sig_profile_default, MLX5_UMR_KUNIT);

/**
 * umr_kunit_sig_err_domain() - do the fakes of this profile name the
 *	domain and type in SIG_ERR CQEs?
 *
 * Return: the sigerr_domain_and_sig_type of umr_kunit_attr_init().
 */
bool umr_kunit_sig_err_domain(void)
{
	return !umr_kunit_sig_legacy;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_sig_err_domain, MLX5_UMR_KUNIT);

/**
 * umr_kunit_attr_init() - mlx5_umr_fake_attr_init() in the suite's profile
 * @attr: receives the attributes
 */
void umr_kunit_attr_init(struct mlx5_umr_fake_attr *attr)
{
	mlx5_umr_fake_attr_init(attr);
	attr->caps.sigerr_domain_and_sig_type = !umr_kunit_sig_legacy;
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_attr_init, MLX5_UMR_KUNIT);

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

	umr_kunit_attr_init(&attr);
	attr.flags = flags;
	return umr_kunit_fake_registered_attr(test, &attr);
}
EXPORT_SYMBOL_NS_GPL(umr_kunit_fake_registered, MLX5_UMR_KUNIT);
