// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr: how many device queues, and which CPU posts on which.
 *
 * A device gets about one queue per CPU. The queues are shared out among
 * the NUMA nodes in proportion to their CPUs, and a CPU only ever maps to
 * a queue of its own node, so a queue's memory (allocated on the node of
 * its CPUs) is local to the CPUs that post on it. 6.1 has no
 * group_cpus_evenly() (6.3, lib/group_cpus.c), hence this file.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/topology.h>

#include "queue_map.h"

/**
 * mlx5_umr_queue_count() - how many device queues a device gets
 * @hint: how many were asked for (a module parameter, a test HCA's); 0 for
 *	the default, one per possible CPU
 * @hca_max: the most the HCA can take, 0 when unknown
 *
 * An explicit @hint may exceed the CPUs (a test on a one-CPU kernel wants
 * several queues); mlx5_umr_queue_map() then leaves the extra queues with
 * no CPU.
 *
 * Return: @hint, or the default, capped by MLX5_UMR_MAX_QUEUES and
 * @hca_max; at least 1.
 */
u16 mlx5_umr_queue_count(unsigned int hint, unsigned int hca_max)
{
	unsigned int n = hint ?: num_possible_cpus();

	n = min_t(unsigned int, n, MLX5_UMR_MAX_QUEUES);
	if (hca_max)
		n = min(n, hca_max);
	return max(n, 1U);
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_queue_count);

/*
 * Queues per node: one for each node with CPUs, then each further queue
 * to the node with the most CPUs per queue (the lower node on a tie), so
 * a node's share follows its CPUs (the largest-divisor rule). A node gets
 * no more queues than it has CPUs. Return: the queues given out.
 */
static unsigned int mlx5_umr_queue_share(const unsigned int *cpus,
					 unsigned int *nqs,
					 unsigned int nnodes, unsigned int nq)
{
	unsigned int node, best, given = 0;

	for (node = 0; node < nnodes; node++) {
		nqs[node] = cpus[node] ? 1 : 0;
		given += nqs[node];
	}
	while (given < nq) {
		best = nnodes;
		for (node = 0; node < nnodes; node++) {
			if (nqs[node] >= cpus[node])
				continue;
			if (best == nnodes ||
			    cpus[node] * nqs[best] > cpus[best] * nqs[node])
				best = node;
		}
		if (best == nnodes)
			break;
		nqs[best]++;
		given++;
	}
	return given;
}

/**
 * mlx5_umr_queue_map_cpus() - map CPUs to device queues by NUMA node
 * @possible: bitmap of the possible CPUs, @ncpus bits
 * @cpu_node: the node of each possible CPU, below @nnodes
 * @ncpus: CPU numbers are below this (nr_cpu_ids)
 * @nnodes: node numbers are below this (nr_node_ids)
 * @nq: queues there are, at least 1
 * @cpu_q: out, @ncpus entries: the queue each CPU posts on; 0 for a CPU
 *	that is not possible
 *
 * A pure function of its arguments. With at least as many queues as nodes,
 * every node with CPUs gets its own queues (see mlx5_umr_queue_share()),
 * numbered node after node, and the CPUs of a node take its queues
 * round-robin in CPU order; with fewer, the nodes take the queues
 * round-robin, one each, in node order.
 *
 * Context: process context, may sleep.
 * Return: how many queues got a CPU (queues 0 to that number - 1), at most
 * @nq; -EINVAL when @nq is 0, no CPU is possible or a node is out of
 * range; -ENOMEM.
 */
int mlx5_umr_queue_map_cpus(const unsigned long *possible,
			    const int *cpu_node, unsigned int ncpus,
			    unsigned int nnodes, u16 nq, u16 *cpu_q)
{
	unsigned int *cpus, *nqs, *placed, *base;
	unsigned int cpu, node, next = 0, nodes = 0;
	int ret = -EINVAL;

	if (!nq || !nnodes)
		return -EINVAL;
	cpus = kcalloc(4 * (size_t)nnodes, sizeof(*cpus), GFP_KERNEL);
	if (!cpus)
		return -ENOMEM;
	nqs = cpus + nnodes;
	placed = nqs + nnodes;
	base = placed + nnodes;

	for_each_set_bit(cpu, possible, ncpus) {
		/* a negative node is out of range too */
		if ((unsigned int)cpu_node[cpu] >= nnodes)
			goto out;
		cpus[cpu_node[cpu]]++;
	}
	for (node = 0; node < nnodes; node++)
		nodes += !!cpus[node];
	if (!nodes)
		goto out;

	if (nq < nodes) {
		for (node = 0; node < nnodes; node++) {
			if (!cpus[node])
				continue;
			base[node] = next++ % nq;
			nqs[node] = 1;
		}
		ret = nq;
	} else {
		ret = mlx5_umr_queue_share(cpus, nqs, nnodes, nq);
		for (node = 0; node < nnodes; node++) {
			base[node] = next;
			next += nqs[node];
		}
	}

	for (cpu = 0; cpu < ncpus; cpu++)
		cpu_q[cpu] = 0;
	for_each_set_bit(cpu, possible, ncpus) {
		node = cpu_node[cpu];
		cpu_q[cpu] = base[node] + placed[node]++ % nqs[node];
	}
out:
	kfree(cpus);
	return ret;
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_queue_map_cpus);

/**
 * mlx5_umr_queue_map() - map this kernel's CPUs to @nq device queues
 * @cpu_q: out, nr_cpu_ids entries (see mlx5_umr_queue_map_cpus())
 * @nq: queues there are, at least 1
 *
 * mlx5_umr_queue_map_cpus() over the possible CPUs and cpu_to_node().
 *
 * Context: process context, may sleep.
 * Return: as mlx5_umr_queue_map_cpus().
 */
int mlx5_umr_queue_map(u16 *cpu_q, u16 nq)
{
	unsigned int cpu;
	int *node, ret;

	node = kcalloc(nr_cpu_ids, sizeof(*node), GFP_KERNEL);
	if (!node)
		return -ENOMEM;
	/* a CPU of no known node counts as node 0's */
	for_each_possible_cpu(cpu)
		node[cpu] = max(cpu_to_node(cpu), 0);
	ret = mlx5_umr_queue_map_cpus(cpumask_bits(cpu_possible_mask), node,
				      nr_cpu_ids, nr_node_ids, nq, cpu_q);
	kfree(node);
	return ret;
}
EXPORT_SYMBOL_IF_MLX5_UMR_TESTING(mlx5_umr_queue_map);
