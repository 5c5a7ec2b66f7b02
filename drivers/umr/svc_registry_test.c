// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the registry of devices and clients (registry.c): a device
 * unregistered under a client and an mkey, then refusing every request.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "svc_kunit.h"

static atomic_t svc_adds, svc_removes;

static int svc_client_add(struct mlx5_umr_dev *dev)
{
	atomic_inc(&svc_adds);
	return 0;
}

static void svc_client_remove(struct mlx5_umr_dev *dev)
{
	atomic_inc(&svc_removes);
}

static void svc_unregister(struct kunit *test)
{
	struct mlx5_umr_client client = {
		.name = "svc_test", .add = svc_client_add,
		.remove = svc_client_remove,
	};
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_mkey *mk;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_wr wr = {}, *p = &wr;
	struct mlx5_umr_sge sge = { 0, 16, 0 };

	atomic_set(&svc_adds, 0);
	atomic_set(&svc_removes, 0);
	fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	KUNIT_ASSERT_EQ(test, mlx5_umr_register_client(&client), 0);
	/* told about both the fixture's device and this one */
	KUNIT_EXPECT_GE(test, atomic_read(&svc_adds), 2);
	dev = mlx5_umr_dev_get(mlx5_umr_fake_hca(fake)->name);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_EXPECT_PTR_EQ(test, dev, mlx5_umr_fake_hca(fake)->umr);
	mk = mlx5_umr_alloc_mkey(dev, 1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mk));

	mlx5_umr_fake_destroy(fake);
	KUNIT_EXPECT_EQ(test, atomic_read(&svc_removes), 1);
	KUNIT_EXPECT_NULL(test, mlx5_umr_dev_get(mlx5_umr_dev_name(dev)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(mlx5_umr_alloc_mkey(dev, 1, 0)),
			(long)-ENODEV);
	sge.key = mk->key;
	svc_wr_list(&wr, mk, &sge, 1, ACC_ALL);
	wr.done = (void *)svc_req_done;
	KUNIT_EXPECT_EQ(test, mlx5_umr_post(dev, &p, 1), -ENODEV);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(dev, &wr, 0), -ENODEV);
	mlx5_umr_free_mkey(mk);
	mlx5_umr_dev_put(dev);
	mlx5_umr_unregister_client(&client);
	KUNIT_EXPECT_EQ(test, atomic_read(&svc_removes), atomic_read(&svc_adds));
}

static struct kunit_case svc_registry_cases[] = {
	KUNIT_CASE(svc_unregister),
	{}
};

static struct kunit_suite svc_registry_suite = {
	.name = "mlx5_umr_svc_registry",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = svc_registry_cases,
};

kunit_test_suite(svc_registry_suite);

MODULE_DESCRIPTION("KUnit tests of the service's registry");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
