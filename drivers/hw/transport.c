// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr hardware backend: pure transport helpers.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5_umr_compat.h>

#include "transport.h"

/*
 * Largest queue buffer handed out: one physically contiguous allocation
 * without an IOMMU, so at most the largest buddy order.
 */
#define MLX5_UMR_HW_MAX_BUF (PAGE_SIZE << MAX_PAGE_ORDER)

/**
 * mlx5_umr_hw_buf_layout() - size of a DMA buffer in bytes and pages
 * @size: requested size in bytes
 * @bytes: @size rounded up to PAGE_SIZE
 * @npages: number of PAGE_SIZE pages
 *
 * Return: 0, or -EINVAL for 0 bytes or more than one contiguous allocation
 * can give.
 */
int mlx5_umr_hw_buf_layout(size_t size, size_t *bytes, unsigned int *npages)
{
	if (!size || size > MLX5_UMR_HW_MAX_BUF)
		return -EINVAL;
	*bytes = PAGE_ALIGN(size);
	*npages = *bytes >> PAGE_SHIFT;
	return 0;
}

/**
 * mlx5_umr_hw_fill_pages() - per-page DMA addresses of a contiguous buffer
 * @base: DMA address of the first byte, page aligned
 * @npages: number of pages
 * @pages: the array to fill, @npages entries
 *
 * dma_alloc_coherent() returns one range that is contiguous in the device's
 * address space (physically, or as one IOVA range behind an IOMMU), so page
 * i is at @base + i * PAGE_SIZE.
 */
void mlx5_umr_hw_fill_pages(dma_addr_t base, unsigned int npages,
			    dma_addr_t *pages)
{
	unsigned int i;

	for (i = 0; i < npages; i++)
		pages[i] = base + ((dma_addr_t)i << PAGE_SHIFT);
}

/**
 * mlx5_umr_hw_cmd_result() - map mlx5_core's command result onto the seam's
 * @err: return value of mlx5_cmd_do(), or of mlx5_cmd_check() when
 *	mlx5_cmd_do() returned -ENXIO (device down)
 * @out: the output mailbox; status and syndrome are left as firmware (or
 *	mlx5_core's internal-error emulation) wrote them
 *
 * mlx5_cmd_do() returns -EREMOTEIO exactly when firmware executed the
 * command and answered with a bad status; mlx5_cmd_exec() would turn that
 * into an errno guessed from the status and lose the distinction the seam
 * keeps. Every output mailbox starts with status and syndrome; they are read
 * through the generic object header layout.
 *
 * Return: 0 for status OK; -EREMOTEIO for a bad firmware status; -EIO when
 * @err and the status disagree; otherwise @err (delivery failure).
 */
int mlx5_umr_hw_cmd_result(int err, const void *out)
{
	u8 status = MLX5_GET(general_obj_out_cmd_hdr, out, status);

	if (err == -EREMOTEIO)
		return status == MLX5_CMD_STAT_OK ? -EIO : -EREMOTEIO;
	if (err > 0)
		return -EIO;
	if (err)
		return err;
	return status == MLX5_CMD_STAT_OK ? 0 : -EREMOTEIO;
}

/**
 * mlx5_umr_hw_cq_set_eqn() - put the backend's EQ into a CREATE_CQ mailbox
 * @in: create_cq_in mailbox built by the service
 * @inlen: its length in bytes
 * @eqn: the completion EQ to report this CQ's events on
 *
 * Return: 0, or -EINVAL when @in is too short to hold a create_cq_in.
 */
int mlx5_umr_hw_cq_set_eqn(void *in, int inlen, u32 eqn)
{
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);

	if (inlen < MLX5_ST_SZ_BYTES(create_cq_in))
		return -EINVAL;
	MLX5_SET(cqc, cqc, c_eqn_or_apu_element, eqn);
	return 0;
}

/**
 * mlx5_umr_hw_db_offset_valid() - is @offset a place for a 64-bit doorbell
 * @offset: byte offset into a UAR page
 *
 * Return: true when the 8-byte write is aligned and inside one 4 KiB UAR.
 */
bool mlx5_umr_hw_db_offset_valid(unsigned int offset)
{
	return !(offset & 7) && offset <= MLX5_ADAPTER_PAGE_SIZE - 8;
}
