// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Test-bed proof: a passing suite that leaks must make the runner fail. */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>

static void *testbed_leaked;

static void testbed_leak(struct kunit *test)
{
	testbed_leaked = kmalloc(128, GFP_KERNEL);
	KUNIT_EXPECT_NOT_NULL(test, testbed_leaked);
	/* Forget the pointer so kmemleak sees an unreferenced object. */
	WRITE_ONCE(testbed_leaked, NULL);
}

static struct kunit_case testbed_leak_cases[] = {
	KUNIT_CASE(testbed_leak),
	{}
};

static struct kunit_suite testbed_leak_suite = {
	.name = "testbed_leak",
	.test_cases = testbed_leak_cases,
};

kunit_test_suite(testbed_leak_suite);

MODULE_LICENSE("Dual BSD/GPL");
