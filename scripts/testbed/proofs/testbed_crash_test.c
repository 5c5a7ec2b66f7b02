// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Test-bed proof: an oops inside a test must make the runner fail. */
#include <kunit/test.h>
#include <linux/module.h>

static int *testbed_null;

static void testbed_crash(struct kunit *test)
{
	/* READ_ONCE keeps the compiler from proving the NULL dereference. */
	KUNIT_EXPECT_EQ(test, 0, *READ_ONCE(testbed_null));
}

static struct kunit_case testbed_crash_cases[] = {
	KUNIT_CASE(testbed_crash),
	{}
};

static struct kunit_suite testbed_crash_suite = {
	.name = "testbed_crash",
	.test_cases = testbed_crash_cases,
};

kunit_test_suite(testbed_crash_suite);

MODULE_LICENSE("Dual BSD/GPL");
