/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr hardware backend: the pure parts of the transport (DMA buffer
 * layout, command result mapping, CREATE_CQ fix-up, doorbell offsets).
 * No mlx5_core or ib_core symbols: KUnit-tested on UML.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_HW_TRANSPORT_H
#define _MLX5_UMR_HW_TRANSPORT_H

#include <linux/types.h>

int mlx5_umr_hw_buf_layout(size_t size, size_t *bytes, unsigned int *npages);
void mlx5_umr_hw_fill_pages(dma_addr_t base, unsigned int npages,
			    dma_addr_t *pages);
int mlx5_umr_hw_cmd_result(int err, const void *out);
int mlx5_umr_hw_cq_set_eqn(void *in, int inlen, u32 eqn);
bool mlx5_umr_hw_db_offset_valid(unsigned int offset);

#endif /* _MLX5_UMR_HW_TRANSPORT_H */
