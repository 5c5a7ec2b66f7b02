// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test-bed proof: each row of a parameterized case counts as a case, and
 * one failing row makes the runner fail (kunit-run.sh must report 2 passed,
 * 1 failed).
 */
#include <kunit/test.h>
#include <linux/module.h>

static const int testbed_rows[] = { 2, 3, 2 };

KUNIT_ARRAY_PARAM(testbed_rows, testbed_rows, NULL);

static void testbed_param(struct kunit *test)
{
	const int *row = test->param_value;

	KUNIT_EXPECT_EQ(test, *row, 1 + 1);
}

static struct kunit_case testbed_param_cases[] = {
	KUNIT_CASE_PARAM(testbed_param, testbed_rows_gen_params),
	{}
};

static struct kunit_suite testbed_param_suite = {
	.name = "testbed_param",
	.test_cases = testbed_param_cases,
};

kunit_test_suite(testbed_param_suite);

MODULE_LICENSE("Dual BSD/GPL");
