// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Test-bed proof: a failing expectation must make the runner fail. */
#include <kunit/test.h>
#include <linux/module.h>

static void testbed_fail(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 3, 1 + 1);
}

static struct kunit_case testbed_fail_cases[] = {
	KUNIT_CASE(testbed_fail),
	{}
};

static struct kunit_suite testbed_fail_suite = {
	.name = "testbed_fail",
	.test_cases = testbed_fail_cases,
};

kunit_test_suite(testbed_fail_suite);

MODULE_LICENSE("Dual BSD/GPL");
