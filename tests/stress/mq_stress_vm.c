// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The one-mkey ordering stress (mq_stress.h) where CPUs really run at
 * once: Debian's kernels (no KUnit, KASAN or lockdep) in the test VM,
 * QEMU -smp 2 with one host thread per vCPU. Loading the module runs the
 * cases and prints KTAP to the kernel log, each line after "MQS|"
 * (vm/mq_stress.sh turns them into the selftest's output and totals):
 *
 * - mq_one_mkey_stress: the stress, threads bound to the online CPUs,
 *   checked by mqs_check();
 * - mq_stress_ran_in_parallel: the threads ran on two CPUs or more and
 *   their posts overlapped (skipped with one CPU);
 * - mq_stress_detects_reorder: the deterministic negative control;
 * - mq_stress_detects_cpu_routing: the stress with every post sent to the
 *   posting CPU's queue (the design the guarantee rules out) must fail the
 *   same checker (skipped with one CPU).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/printk.h>

#include "mq_stress.h"

static unsigned int iters = MQS_ITERS;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "configure + invalidate pairs per thread (1..5000)");

struct mqs_vm {
	unsigned int n, pass, fail, skip;
};

static __printf(2, 3) void mqs_vm_log(void *ctx, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("MQS|# %pV\n", &vaf);
	va_end(args);
}

/* One KTAP result: @skip a reason to skip, else @ok. */
static void mqs_vm_result(struct mqs_vm *v, bool ok, const char *skip,
			  const char *name)
{
	v->n++;
	if (skip) {
		v->skip++;
		pr_info("MQS|ok %u %s # SKIP %s\n", v->n, name, skip);
	} else if (ok) {
		v->pass++;
		pr_info("MQS|ok %u %s\n", v->n, name);
	} else {
		v->fail++;
		pr_info("MQS|not ok %u %s\n", v->n, name);
	}
}

/* A run, or NULL with the reason logged: its case then fails. */
static struct mqs *mqs_vm_create(void)
{
	struct mqs *s = mqs_create(mqs_vm_log, NULL);

	if (!IS_ERR(s))
		return s;
	mqs_vm_log(NULL, "set-up: %ld", PTR_ERR(s));
	return NULL;
}

static void mqs_vm_stress(struct mqs_vm *v)
{
	const char *one_cpu = num_online_cpus() < 2 ? "one CPU online" : NULL;
	unsigned long t0 = jiffies;
	unsigned int bad = ~0U;
	bool parallel = false;
	struct mqs *s;
	int err;

	s = mqs_vm_create();
	if (s) {
		err = mqs_run(s, iters, false);
		mqs_vm_log(NULL, "%u requests in %u ms, %u threads on %u CPUs, %u overlaps",
			   s->npost, jiffies_to_msecs(jiffies - t0),
			   s->nthreads, s->ncpus, atomic_read(&s->overlaps));
		bad = mqs_check(s);
		if (err || s->npost != 2 * MQS_THREADS * iters)
			bad |= MQS_BAD_LOG;
		if (bad)
			mqs_vm_log(NULL, "err %d, MQS_BAD_* 0x%x", err, bad);
		parallel = s->ncpus >= 2 && atomic_read(&s->overlaps) > 0;
		mqs_destroy(s);
	}
	mqs_vm_result(v, !bad, NULL, "mq_one_mkey_stress");
	mqs_vm_result(v, parallel, one_cpu, "mq_stress_ran_in_parallel");
}

static void mqs_vm_reorder(struct mqs_vm *v)
{
	unsigned int bad = 0;
	struct mqs *s;
	int err;

	s = mqs_vm_create();
	if (s) {
		err = mqs_reorder(s);
		bad = mqs_check(s);
		mqs_vm_log(NULL, "reorder: err %d, %u posts, MQS_BAD_* 0x%x (expected 0x%x)",
			   err, s->npost, bad, MQS_REORDER_BAD);
		if (err || s->npost != 2)
			bad = 0;
		mqs_destroy(s);
	}
	mqs_vm_result(v, bad == MQS_REORDER_BAD, NULL,
		      "mq_stress_detects_reorder");
}

static void mqs_vm_cpu_routing(struct mqs_vm *v)
{
	unsigned int bad = 0;
	struct mqs *s;
	int err;

	if (num_online_cpus() < 2) {
		mqs_vm_result(v, false, "one CPU online",
			      "mq_stress_detects_cpu_routing");
		return;
	}
	s = mqs_vm_create();
	if (s) {
		err = mqs_run(s, min(iters, 500U), true);
		bad = mqs_check(s);
		mqs_vm_log(NULL, "by CPU: err %d, %u posts, %u CPUs, MQS_BAD_* 0x%x",
			   err, s->npost, s->ncpus, bad);
		if (s->ncpus < 2)
			bad = 0;
		mqs_destroy(s);
	}
	mqs_vm_result(v, bad & (MQS_BAD_EXEC | MQS_BAD_DONE | MQS_BAD_KEY),
		      NULL, "mq_stress_detects_cpu_routing");
}

static int __init mqs_vm_init(void)
{
	struct mqs_vm v = {};

	if (!iters || iters > MQS_ITERS)
		return -EINVAL;
	pr_info("MQS|TAP version 13\n");
	pr_info("MQS|1..4\n");
	mqs_vm_stress(&v);
	mqs_vm_reorder(&v);
	mqs_vm_cpu_routing(&v);
	pr_info("MQS|# passed %u failed %u skipped %u\n", v.pass, v.fail,
		v.skip);
	return 0;
}

static void __exit mqs_vm_exit(void)
{
}

module_init(mqs_vm_init);
module_exit(mqs_vm_exit);

MODULE_DESCRIPTION("The one-mkey ordering stress of several UMR queues on a kernel without KUnit (the test VM)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
