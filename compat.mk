# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Kernel API probes that C cannot make, run against the target kernel's
# headers ($(srctree)); included by every Kbuild. Each sets a flag that
# include/linux/mlx5_umr_compat.h (or the Kbuild) uses; see the entry there.

# Since 6.13 (6.12.y by a stable backport) DEFAULT_SYMBOL_NAMESPACE is a
# string literal; before, a token that export.h stringifies. Drop with 6.1.
ifneq ($(shell grep -s '__stringify(DEFAULT_SYMBOL_NAMESPACE)' $(srctree)/include/linux/export.h),)
mlx5_umr_ns = $(1)
else
mlx5_umr_ns = '"$(1)"'
endif

# __assign_str() lost its source argument (6.10). Drop with 6.1.
ifneq ($(shell grep -rs 'define __assign_str(dst)' $(srctree)/include/trace/),)
ccflags-y += -DMLX5_UMR_ASSIGN_STR_ONE_ARG
endif

# asm/unaligned.h became linux/unaligned.h (6.12). Drop with 6.1.
ifneq ($(wildcard $(srctree)/include/linux/unaligned.h),)
ccflags-y += -DMLX5_UMR_HAVE_LINUX_UNALIGNED_H
endif

# blk_mq_alloc_disk() takes the queue limits (6.9). Drop with 6.1.
ifneq ($(shell grep -s 'define blk_mq_alloc_disk(set, lim, queuedata)' $(srctree)/include/linux/blk-mq.h),)
ccflags-y += -DMLX5_UMR_BLK_MQ_ALLOC_DISK_LIM
endif

# mlx5_comp_eqn_get() replaced mlx5_vector2eqn() (6.5/6.6). Drop with 6.1.
ifneq ($(shell grep -s 'mlx5_comp_eqn_get' $(srctree)/include/linux/mlx5/driver.h),)
ccflags-y += -DMLX5_UMR_HAVE_COMP_EQN_GET
endif

# struct mlx5_ifc_crypto_cap_bits, cmd_hca_cap.crypto and SYNC_CRYPTO (6.2+;
# mlx5_umr_ifc.h checks its overlays against them). Drop with 6.1.
ifneq ($(shell grep -s 'struct mlx5_ifc_crypto_cap_bits {' $(srctree)/include/linux/mlx5/mlx5_ifc.h),)
ccflags-y += -DMLX5_UMR_HAVE_IFC_CRYPTO_CAP
endif

# ib_device_ops.create_cq takes the uverbs_attr_bundle (6.11).
# Drop with 6.1.
mlx5_umr_create_cq := int (*create_cq)(struct ib_cq
ifneq ($(shell grep -s -A2 -F '$(mlx5_umr_create_cq)' $(srctree)/include/rdma/ib_verbs.h | grep uverbs_attr_bundle),)
ccflags-y += -DMLX5_UMR_CREATE_CQ_ATTRS
endif
