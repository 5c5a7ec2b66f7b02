// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Test-bed proof: the UML kernel survives kernel TLB flushes that span the
 * flushing task's own stack while interrupts arrive.
 *
 * With CONFIG_VMAP_STACK, task stacks are vmalloc areas. vfree() flushes the
 * whole span of the lazily freed areas; UML 6.1 unmapped and then mapped
 * again each present page of the span, and an IRQ signal between the two
 * found the task's thread_info gone: a SIGSEGV its handler defers forever,
 * a silent stall (uml-patches/6.1/0002). This case makes such flushes as
 * often as it can for a few seconds: freed areas below and above the stack
 * in the purge list, then vm_unmap_aliases().
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched/task_stack.h>
#include <linux/vmalloc.h>

/* KUnit's speed attribute is in 6.12's kunit/test.h, not 6.1's */
#ifndef KUNIT_CASE_SLOW
#define KUNIT_CASE_SLOW(test_name) KUNIT_CASE(test_name)
#endif

#define KFLUSH_AREAS	4096
#define KFLUSH_SECONDS	5

static void testbed_kflush_stack(struct kunit *test)
{
	unsigned long stack = (unsigned long)task_stack_page(current);
	unsigned long end = jiffies + KFLUSH_SECONDS * HZ, flushes = 0;
	unsigned int n = 0, lo, hi, i;
	void **area;

	if (!is_vmalloc_addr((void *)stack))
		kunit_skip(test, "task stacks are not vmalloc areas");
	area = kunit_kcalloc(test, KFLUSH_AREAS, sizeof(*area), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, area);
	while (time_before(jiffies, end)) {
		/* first fit: fill the holes below the stack until one is above */
		lo = KFLUSH_AREAS;
		hi = KFLUSH_AREAS;
		for (i = 0; i < n; i++) {
			if ((unsigned long)area[i] < stack &&
			    (lo == KFLUSH_AREAS || area[i] < area[lo]))
				lo = i;
			if ((unsigned long)area[i] > stack &&
			    (hi == KFLUSH_AREAS || area[i] > area[hi]))
				hi = i;
		}
		if (lo == KFLUSH_AREAS || hi == KFLUSH_AREAS) {
			if (n == KFLUSH_AREAS)
				break;
			area[n] = vmalloc(PAGE_SIZE);
			if (!area[n])
				break;
			n++;
			continue;
		}
		vfree(area[lo]);
		vfree(area[hi]);
		/* the span of the purge list holds this task's stack */
		vm_unmap_aliases();
		flushes++;
		area[lo] = area[--n];
		if (hi == n)
			hi = lo;
		area[hi] = area[--n];
		cond_resched();
	}
	for (i = 0; i < n; i++)
		vfree(area[i]);
	kunit_info(test, "%lu flushes over the stack in %d s", flushes,
		   KFLUSH_SECONDS);
	KUNIT_EXPECT_LT(test, 0UL, flushes);
}

static struct kunit_case testbed_kflush_cases[] = {
	KUNIT_CASE_SLOW(testbed_kflush_stack),
	{}
};

static struct kunit_suite testbed_kflush_suite = {
	.name = "testbed_kflush",
	.test_cases = testbed_kflush_cases,
};

kunit_test_suite(testbed_kflush_suite);

MODULE_DESCRIPTION("Test-bed proof: UML kernel TLB flushes over a live stack");
MODULE_LICENSE("Dual BSD/GPL");
