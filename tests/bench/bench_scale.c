// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr benchmark, scaling table (make bench-scale, issue 31):
 * configures per second when 1, 2, ... kernel threads post at once, each
 * bound to its own CPU, on the null device. It runs where CPUs really run
 * in parallel (the QEMU VM with -smp 2; UML has one CPU), and prints the
 * ratio of each thread count's rate to one thread's, from one run.
 *
 * Every thread posts asynchronous one-entry list configures, one request
 * per mlx5_umr_post() (the batch-1 path of the main table), on mkeys of
 * its own, and keeps at most BENCH_POOL requests in flight. Completions
 * are counted in done().
 *
 * Two designs, two rows from one run: "1 queue", a null device whose
 * service has one UMR queue that every thread posts on, and "per-CPU
 * queues", a second null device with a queue per online CPU, where each
 * thread allocates its mkeys on its own CPU, so they are homed on (and
 * every request of them runs on) that CPU's queue.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/math64.h>
#include <linux/delay.h>
#include <linux/workqueue.h>

#include "bench.h"

#define bout(fmt, ...) pr_info("BENCH|" fmt "\n", ##__VA_ARGS__)

/* Configures a thread posts between looks at the clock. */
#define SCALE_CHUNK	2048
/* The most posting threads measured. */
#define SCALE_MAX_THREADS	8

static const struct bench_layout scale_layout = { "list 1", false, 1 };

/**
 * struct scale_thread - one posting thread
 * @set: its requests and mkeys (bench_set_init(): BENCH_POOL of each)
 * @task: the thread, bound to @cpu
 * @cpu: where it runs
 * @go: all threads start together
 * @end_ns: when to stop posting (ktime_get_ns())
 * @done: configures completed, once the thread stopped
 * @err: 0 or the first error
 * @exited: the thread is about to exit
 */
struct scale_thread {
	struct bench_set set;
	struct task_struct *task;
	int cpu;
	struct completion *go;
	u64 end_ns;
	unsigned long done;
	int err;
	struct completion exited;
};

static int scale_fn(void *arg)
{
	struct scale_thread *st = arg;
	int err = 0;

	wait_for_completion(st->go);
	while (ktime_get_ns() < READ_ONCE(st->end_ns)) {
		err = bench_batched(&st->set, 1, SCALE_CHUNK);
		if (err)
			break;
		st->done += SCALE_CHUNK;
	}
	st->err = err;
	complete(&st->exited);
	return 0;
}

/* Thread @i runs on the @i-th online CPU. */
static int scale_cpu(unsigned int i)
{
	int cpu = cpumask_first(cpu_online_mask);

	while (i--)
		cpu = cpumask_next(cpu, cpu_online_mask);
	return cpu;
}

struct scale_init {
	struct bench_set *set;
	struct bench_dev *bd;
};

/* On the thread's CPU: its mkeys are homed on that CPU's queue. */
static long scale_set_init(void *arg)
{
	struct scale_init *si = arg;

	return bench_set_init(si->set, si->bd, &scale_layout, NULL, 0);
}

/*
 * Run @n threads on the first @n online CPUs for @sec seconds; the rate in
 * configures per second, or a negative errno.
 */
static long long scale_run(struct scale_thread *st, unsigned int n,
			   unsigned int sec)
{
	DECLARE_COMPLETION_ONSTACK(go);
	unsigned long total = 0;
	unsigned int i, started;
	u64 t0, t1;
	int cpu, err = 0;

	for (started = 0; started < n; started++) {
		struct scale_thread *t = &st[started];

		cpu = scale_cpu(started);
		t->cpu = cpu;
		t->go = &go;
		t->done = 0;
		t->err = 0;
		t->end_ns = U64_MAX;
		init_completion(&t->exited);
		t->task = kthread_create(scale_fn, t, "umr_scale/%d", cpu);
		if (IS_ERR(t->task)) {
			err = PTR_ERR(t->task);
			break;
		}
		kthread_bind(t->task, cpu);
		wake_up_process(t->task);
	}
	t0 = ktime_get_ns();
	for (i = 0; i < started; i++)
		WRITE_ONCE(st[i].end_ns, err ? 0 : t0 + (u64)sec * NSEC_PER_SEC);
	complete_all(&go);
	for (i = 0; i < started; i++) {
		wait_for_completion(&st[i].exited);
		total += st[i].done;
		if (!err)
			err = st[i].err;
	}
	t1 = ktime_get_ns();
	if (err)
		return err;
	return div64_u64((u64)total * NSEC_PER_SEC, t1 - t0);
}

/* The table's border: "design", a rate per thread count, the ratios. */
static void scale_border(char *line, size_t size, unsigned int max)
{
	int len = scnprintf(line, size, "================");
	unsigned int n;

	for (n = 1; n <= max; n++)
		len += scnprintf(line + len, size - len, " =============");
	for (n = 2; n <= max; n++)
		len += scnprintf(line + len, size - len, " ===========");
}

/*
 * One row: the rates of 1..@max threads on @bd into @rate[1..@max], each
 * thread's requests and mkeys built on its own CPU.
 */
static int scale_row(struct scale_thread *st, struct bench_dev *bd,
		     unsigned int max, unsigned int sec, long long *rate)
{
	unsigned int n, i, ninit;
	long err = 0;

	memset(st, 0, max * sizeof(*st));
	for (ninit = 0; ninit < max; ninit++) {
		struct scale_init si = { &st[ninit].set, bd };

		err = work_on_cpu(scale_cpu(ninit), scale_set_init, &si);
		if (err)
			goto out;
	}
	for (n = 1; n <= max; n++) {
		rate[n] = scale_run(st, n, sec);
		if (rate[n] <= 0) {
			err = rate[n] ? rate[n] : -EIO;
			goto out;
		}
	}
out:
	for (i = 0; i < ninit; i++)
		bench_set_fini(&st[i].set);
	return err;
}

static void scale_print_row(const char *design, const long long *rate,
			    unsigned int max)
{
	char line[160];
	unsigned int n;
	int len;

	len = scnprintf(line, sizeof(line), "%-16s", design);
	for (n = 1; n <= max; n++)
		len += scnprintf(line + len, sizeof(line) - len, " %11lld/s", rate[n]);
	for (n = 2; n <= max; n++)
		len += scnprintf(line + len, sizeof(line) - len, " %8lld.%02lld",
				 rate[n] / rate[1], rate[n] * 100 / rate[1] % 100);
	bout("%s", line);
}

/**
 * bench_scale() - the scaling table: one queue against per-CPU queues
 * @bd: a null device with one UMR queue (bench_dev_init(bd, true))
 * @sec: seconds per measurement
 *
 * The per-CPU row runs on a second null device, made here with a queue
 * per online CPU.
 *
 * Return: 0 or -errno.
 */
int bench_scale(struct bench_dev *bd, unsigned int sec)
{
	unsigned int n, max = min_t(unsigned int, num_online_cpus(),
				    SCALE_MAX_THREADS);
	long long rate[2][SCALE_MAX_THREADS + 1] = { { 0 } };
	struct scale_thread *st;
	struct bench_dev *pq;
	char line[160];
	int len, err;

	st = kcalloc(max, sizeof(*st), GFP_KERNEL);
	pq = kzalloc(sizeof(*pq), GFP_KERNEL);
	if (!st || !pq) {
		err = -ENOMEM;
		goto out_free;
	}
	err = bench_dev_init_nq(pq, true, num_online_cpus());
	if (err)
		goto out_free;
	err = scale_row(st, bd, max, sec, rate[0]);
	if (!err)
		err = scale_row(st, pq, max, sec, rate[1]);
	bench_dev_fini(pq);
	if (err)
		goto out_free;

	bout("Scaling: configures per second with 1..%u posting threads, one per", max);
	bout("CPU (list 1, one request per post, null device, %u s each, %u online",
	     sec, num_online_cpus());
	bout("CPUs), and each thread count's rate over one thread's; \"1 queue\":");
	bout("every thread on the device's one UMR queue, \"per-CPU queues\": a queue");
	bout("per CPU, each thread's mkeys homed on its CPU's:");
	bout("");
	scale_border(line, sizeof(line), max);
	bout("%s", line);
	len = scnprintf(line, sizeof(line), "%-16s", "design");
	for (n = 1; n <= max; n++)
		len += scnprintf(line + len, sizeof(line) - len, " %9u thr", n);
	for (n = 2; n <= max; n++)
		len += scnprintf(line + len, sizeof(line) - len, "  %4ut/1t", n);
	bout("%s", line);
	scale_border(line, sizeof(line), max);
	bout("%s", line);
	scale_print_row("1 queue", rate[0], max);
	scale_print_row("per-CPU queues", rate[1], max);
	scale_border(line, sizeof(line), max);
	bout("%s", line);
	bout("");
out_free:
	kfree(pq);
	kfree(st);
	return err;
}
