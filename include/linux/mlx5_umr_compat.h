/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: kernel API differences between the supported kernels (6.1 and
 * 6.12 LTS), in one place. Each entry says which kernel changed what and
 * when it can go. The code uses the newer form; this header supplies it on
 * the older kernel. What C cannot probe (whether a function exists, what a
 * macro expects) compat.mk probes in the kernel's headers, for every Kbuild.
 * Wire definitions a kernel lacks are in mlx5_umr_ifc.h, not here.
 *
 * Not needed, for the record: file_operations.llseek = no_llseek (removed in
 * 6.12) is left out, as a NULL ->llseek already meant -ESPIPE in 6.1.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _LINUX_MLX5_UMR_COMPAT_H
#define _LINUX_MLX5_UMR_COMPAT_H

#include <linux/mmzone.h>
#include <linux/mlx5/driver.h>

/*
 * 6.8 renamed MAX_ORDER, the largest buddy order (6.4 had made it inclusive:
 * in 6.1 it is one past the largest), to MAX_PAGE_ORDER. Drop with 6.1.
 */
#ifndef MAX_PAGE_ORDER
#define MAX_PAGE_ORDER (MAX_ORDER - 1)
#endif

/*
 * 6.10 dropped __assign_str()'s second argument (the source now comes from
 * the __string() field; compat.mk defines MLX5_UMR_ASSIGN_STR_ONE_ARG).
 * Drop with 6.1, writing __assign_str(dst).
 */
#ifdef MLX5_UMR_ASSIGN_STR_ONE_ARG
#define mlx5_umr_assign_str(dst, src) __assign_str(dst)
#else
#define mlx5_umr_assign_str(dst, src) __assign_str(dst, src)
#endif

/*
 * 6.12 moved asm/unaligned.h to linux/unaligned.h (put_unaligned_be32()
 * and friends; compat.mk defines MLX5_UMR_HAVE_LINUX_UNALIGNED_H: sparse
 * has no __has_include). Drop with 6.1, including <linux/unaligned.h>.
 */
#ifdef MLX5_UMR_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * KUnit renamed KUNIT_ASSERT_FAILURE() to KUNIT_FAIL_AND_ABORT() (6.12 has
 * only the new name, 6.1 only the old). Include this after <kunit/test.h>.
 * Drop with 6.1.
 */
#if defined(KUNIT_ASSERT_FAILURE) && !defined(KUNIT_FAIL_AND_ABORT)
#define KUNIT_FAIL_AND_ABORT KUNIT_ASSERT_FAILURE
#endif

/*
 * Completion EQs: mlx5_core renamed mlx5_comp_vectors_count() to
 * mlx5_comp_vectors_max() and replaced mlx5_vector2eqn(dev, int, int *) with
 * mlx5_comp_eqn_get(dev, u16, int *), which may create the EQ on first use
 * (6.5/6.6; compat.mk defines MLX5_UMR_HAVE_COMP_EQN_GET where the kernel
 * has it). Drop with 6.1, calling the new functions.
 */
static inline unsigned int mlx5_umr_comp_vectors(struct mlx5_core_dev *dev)
{
#ifdef MLX5_UMR_HAVE_COMP_EQN_GET
	return mlx5_comp_vectors_max(dev);
#else
	return mlx5_comp_vectors_count(dev);
#endif
}

static inline int mlx5_umr_comp_eqn(struct mlx5_core_dev *dev, u16 vector,
				    int *eqn)
{
#ifdef MLX5_UMR_HAVE_COMP_EQN_GET
	return mlx5_comp_eqn_get(dev, vector, eqn);
#else
	return mlx5_vector2eqn(dev, vector, eqn);
#endif
}

#endif /* _LINUX_MLX5_UMR_COMPAT_H */
