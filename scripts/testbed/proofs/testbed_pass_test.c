// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Test-bed proof: a suite that passes, so the runner's green is meaningful. */
#include <kunit/test.h>
#include <linux/module.h>

static void testbed_pass(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2, 1 + 1);
}

static struct kunit_case testbed_pass_cases[] = {
	KUNIT_CASE(testbed_pass),
	{}
};

static struct kunit_suite testbed_pass_suite = {
	.name = "testbed_pass",
	.test_cases = testbed_pass_cases,
};

kunit_test_suite(testbed_pass_suite);

MODULE_LICENSE("Dual BSD/GPL");
