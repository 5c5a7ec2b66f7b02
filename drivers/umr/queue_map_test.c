// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: CPUs to device queues by NUMA node (queue_map.c). The topologies
 * are given as arrays, not read from the UML kernel (one CPU, one node),
 * and every map is compared whole.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/module.h>

#include "queue_map.h"

#define QM_CPUS		16
/* what a CPU that is not possible must not keep */
#define QM_POISON	0xdead

struct qm_case {
	unsigned int ncpus;
	unsigned int nnodes;
	int node[QM_CPUS];	/* -1: not possible */
	u16 nq;
	int ret;
	u16 want[QM_CPUS];	/* for the possible CPUs; 0 for the others */
};

/* Run @c, compare the whole map and check that no queue spans two nodes. */
static void qm_run(struct kunit *test, const struct qm_case *c)
{
	DECLARE_BITMAP(possible, QM_CPUS);
	int queue_node[QM_CPUS];
	u16 cpu_q[QM_CPUS];
	unsigned int cpu;
	int ret;

	bitmap_zero(possible, QM_CPUS);
	for (cpu = 0; cpu < c->ncpus; cpu++)
		if (c->node[cpu] >= 0)
			__set_bit(cpu, possible);
	for (cpu = 0; cpu < QM_CPUS; cpu++) {
		cpu_q[cpu] = QM_POISON;
		queue_node[cpu] = -1;
	}
	ret = mlx5_umr_queue_map_cpus(possible, c->node, c->ncpus, c->nnodes,
				      c->nq, cpu_q);
	KUNIT_ASSERT_EQ(test, ret, c->ret);
	if (ret < 0) {
		/* refused: nothing written */
		for (cpu = 0; cpu < QM_CPUS; cpu++)
			KUNIT_EXPECT_EQ(test, cpu_q[cpu], QM_POISON);
		return;
	}
	for (cpu = 0; cpu < c->ncpus; cpu++)
		KUNIT_EXPECT_EQ_MSG(test, cpu_q[cpu], c->want[cpu], "CPU %u",
				    cpu);
	/* nothing written past the CPUs it was given */
	for (; cpu < QM_CPUS; cpu++)
		KUNIT_EXPECT_EQ(test, cpu_q[cpu], QM_POISON);
	for (cpu = 0; cpu < c->ncpus; cpu++) {
		u16 q = cpu_q[cpu];

		if (c->node[cpu] < 0)
			continue;
		KUNIT_ASSERT_LT(test, q, (u16)ret);
		/* with fewer queues than nodes a queue serves several */
		if (c->nq < c->nnodes)
			continue;
		if (queue_node[q] < 0)
			queue_node[q] = c->node[cpu];
		KUNIT_EXPECT_EQ_MSG(test, queue_node[q], c->node[cpu],
				    "queue %u spans two nodes (CPU %u)", q, cpu);
	}
}

static void qm_one_node_one_queue(struct kunit *test)
{
	static const struct qm_case c = {
		.ncpus = 2, .nnodes = 1, .node = { 0, 0 }, .nq = 1,
		.ret = 1, .want = { 0, 0 },
	};

	qm_run(test, &c);
}

/* 2 nodes of 4 CPUs, 4 queues: 2 each, each CPU on one of its node's. */
static void qm_two_nodes_four_queues(struct kunit *test)
{
	static const struct qm_case blocks = {
		.ncpus = 8, .nnodes = 2, .node = { 0, 0, 0, 0, 1, 1, 1, 1 },
		.nq = 4, .ret = 4, .want = { 0, 1, 0, 1, 2, 3, 2, 3 },
	};
	/* CPUs interleaved across the nodes, as on many two-socket hosts */
	static const struct qm_case interleaved = {
		.ncpus = 8, .nnodes = 2, .node = { 0, 1, 0, 1, 0, 1, 0, 1 },
		.nq = 4, .ret = 4, .want = { 0, 2, 1, 3, 0, 2, 1, 3 },
	};

	qm_run(test, &blocks);
	qm_run(test, &interleaved);
}

/* 6 + 2 CPUs, 4 queues: shares 3 and 1, as the CPUs. */
static void qm_uneven_nodes(struct kunit *test)
{
	static const struct qm_case c = {
		.ncpus = 8, .nnodes = 2, .node = { 0, 0, 0, 0, 0, 0, 1, 1 },
		.nq = 4, .ret = 4, .want = { 0, 1, 2, 0, 1, 2, 3, 3 },
	};

	qm_run(test, &c);
}

/* More queues than CPUs: one queue per CPU, the rest get none. */
static void qm_more_queues_than_cpus(struct kunit *test)
{
	static const struct qm_case one_node = {
		.ncpus = 2, .nnodes = 1, .node = { 0, 0 }, .nq = 4,
		.ret = 2, .want = { 0, 1 },
	};
	static const struct qm_case two_nodes = {
		.ncpus = 3, .nnodes = 2, .node = { 1, 0, 1 }, .nq = 8,
		.ret = 3, .want = { 1, 0, 2 },
	};

	qm_run(test, &one_node);
	qm_run(test, &two_nodes);
}

/*
 * Holes in the possible mask, an empty node between two: the absent CPUs
 * map to 0, the empty node gets no queue.
 */
static void qm_possible_holes(struct kunit *test)
{
	static const struct qm_case c = {
		.ncpus = 10, .nnodes = 3,
		.node = { 0, 0, -1, -1, 2, 2, -1, 2, 2, -1 },
		.nq = 4, .ret = 4, .want = { 0, 1, 0, 0, 2, 3, 0, 2, 3, 0 },
	};

	qm_run(test, &c);
}

/* Fewer queues than nodes: the nodes take them round-robin. */
static void qm_fewer_queues_than_nodes(struct kunit *test)
{
	static const struct qm_case c = {
		.ncpus = 6, .nnodes = 3, .node = { 0, 0, 1, 1, 2, 2 },
		.nq = 2, .ret = 2, .want = { 0, 0, 1, 1, 0, 0 },
	};

	qm_run(test, &c);
}

static void qm_invalid(struct kunit *test)
{
	static const struct qm_case no_queue = {
		.ncpus = 2, .nnodes = 1, .node = { 0, 0 }, .nq = 0,
		.ret = -EINVAL,
	};
	static const struct qm_case no_cpu = {
		.ncpus = 2, .nnodes = 1, .node = { -1, -1 }, .nq = 1,
		.ret = -EINVAL,
	};
	static const struct qm_case bad_node = {
		.ncpus = 2, .nnodes = 2, .node = { 0, 2 }, .nq = 2,
		.ret = -EINVAL,
	};

	qm_run(test, &no_queue);
	qm_run(test, &no_cpu);
	qm_run(test, &bad_node);
}

/* This kernel's CPUs: every possible CPU maps to a queue. */
static void qm_this_kernel(struct kunit *test)
{
	unsigned int cpu, nq = min(num_possible_cpus(), 4U);
	u16 *cpu_q;

	cpu_q = kunit_kcalloc(test, nr_cpu_ids, sizeof(*cpu_q), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cpu_q);
	KUNIT_ASSERT_EQ(test, mlx5_umr_queue_map(cpu_q, nq), (int)nq);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_LT(test, cpu_q[cpu], (u16)nq);
}

static void qm_count(struct kunit *test)
{
	u16 dflt = min_t(unsigned int, num_possible_cpus(),
			 MLX5_UMR_MAX_QUEUES);

	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_count(0, 0), dflt);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_count(5, 0), (u16)5);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_count(100, 0),
			(u16)MLX5_UMR_MAX_QUEUES);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_count(5, 3), (u16)3);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_count(0, 1), (u16)1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_queue_count(2, 100), (u16)2);
}

static struct kunit_case queue_map_cases[] = {
	KUNIT_CASE(qm_one_node_one_queue),
	KUNIT_CASE(qm_two_nodes_four_queues),
	KUNIT_CASE(qm_uneven_nodes),
	KUNIT_CASE(qm_more_queues_than_cpus),
	KUNIT_CASE(qm_possible_holes),
	KUNIT_CASE(qm_fewer_queues_than_nodes),
	KUNIT_CASE(qm_invalid),
	KUNIT_CASE(qm_this_kernel),
	KUNIT_CASE(qm_count),
	{}
};

static struct kunit_suite queue_map_suite = {
	.name = "mlx5_umr_queue_map",
	.test_cases = queue_map_cases,
};

kunit_test_suite(queue_map_suite);

MODULE_DESCRIPTION("KUnit tests of the CPU to queue map");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
