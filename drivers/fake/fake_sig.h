/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr fake HCA: the signature engine's view of a BSF.
 *
 * The values below are what the fake reads out of the BSF bytes a UMR
 * carries (struct mlx5_bsf of <linux/mlx5/qp.h>). Where the kernel's
 * headers define a value, it is used; the rest are taken from rdma-core's
 * providers/mlx5/wqe.h (the anonymous enum after struct
 * mlx5_wqe_inline_seg) and mlx5_ib wr.c bs_selector(), and are kept here,
 * private to the fake, so that the fake decodes independently of the
 * service's encoder. Documentation/fake.rst lists each with its source.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef _MLX5_UMR_FAKE_SIG_H
#define _MLX5_UMR_FAKE_SIG_H

#include <linux/bits.h>
#include <linux/types.h>

/* basic.bsf_size_sbs: size in bits 7:6, same block structure in bit 4 */
#define FAKE_BSF_SIZE_SHIFT		6
#define FAKE_BSF_SIZE_WITH_INLINE	2	/* basic + extended + inline */
#define FAKE_BSF_SIZE_SIG_AND_CRYPTO	3	/* and a crypto BSF after it */
#define FAKE_BSF_SBS			BIT(4)

/* basic.{m,w}_bfs_psv: block format selector 31:24, PSV index 23:0 */
#define FAKE_BFS_SHIFT			24
#define FAKE_BFS_PSV_MASK		0xffffff
#define FAKE_BFS_CRC32			0x20
#define FAKE_BFS_CRC32C			0x40
#define FAKE_BFS_CRC64_XP10		0x50
#define FAKE_BFS_CRC_REPEAT		0x2
#define FAKE_BFS_CRC_SEED		0x1	/* register starts all ones */

/* inline section: rp_inv_seed bit 3 (the kernel names bits 7 and 6) */
#define FAKE_BSF_SEED			BIT(3)
#define FAKE_BSF_ESCAPE_MASK		0x3

/* The largest data block (bs_selector 4: 4160 bytes) and PI (8 bytes). */
#define FAKE_SIG_MAX_BLOCK		4160
#define FAKE_SIG_MAX_PI			8

/* SIG_ERR CQE syndrome bits (mlx5_ib cq.c get_sig_err_item()) */
#define FAKE_SIGERR_GUARD		BIT(13)
#define FAKE_SIGERR_APPTAG		BIT(12)
#define FAKE_SIGERR_REFTAG		BIT(11)

/**
 * enum fake_sig_kind - what protects the blocks of one domain
 * @FAKE_SIG_NONE: nothing; blocks carry no PI in this domain
 * @FAKE_SIG_DIF_CRC: T10-DIF, CRC16 guard (8-byte PI)
 * @FAKE_SIG_DIF_IPCS: T10-DIF, IP checksum guard (8-byte PI)
 * @FAKE_SIG_CRC32: CRC32 (4-byte PI)
 * @FAKE_SIG_CRC32C: CRC32C (4-byte PI)
 * @FAKE_SIG_CRC64: CRC64-XP10 (8-byte PI)
 */
enum fake_sig_kind {
	FAKE_SIG_NONE,
	FAKE_SIG_DIF_CRC,
	FAKE_SIG_DIF_IPCS,
	FAKE_SIG_CRC32,
	FAKE_SIG_CRC32C,
	FAKE_SIG_CRC64,
};

/**
 * struct fake_sig_domain - one domain of a BSF, decoded
 * @kind: enum fake_sig_kind
 * @seed_ones: the guard/CRC register starts at all ones, else at zero
 * @inc_ref: the reference tag grows by one per block
 * @escape: MLX5_BSF_APPTAG_ESCAPE, MLX5_BSF_APPREF_ESCAPE or 0
 * @pi: PI bytes per block (0, 4 or 8)
 * @bs: data bytes per block
 * @app_tag: T10-DIF application tag
 * @app_mask: application tag bits that are checked
 * @ref_tag: T10-DIF reference tag of block 0
 * @psvn: the PSV of this domain
 */
struct fake_sig_domain {
	u8 kind;
	bool seed_ones;
	bool inc_ref;
	u8 escape;
	u8 pi;
	u32 bs;
	u16 app_tag;
	u16 app_mask;
	u32 ref_tag;
	u32 psvn;
};

/**
 * struct fake_sig - a signature mkey's BSF, decoded
 * @mem: the memory domain
 * @wire: the wire domain
 * @check_mask: input PI bytes checked, bit 7 - n for byte n
 * @copy_mask: input PI bytes copied to the output, bit 7 - n for byte n
 * @sbs: same block structure (copy_mask valid)
 * @raw_data_size: data bytes (PI excluded) the mkey may move
 */
struct fake_sig {
	struct fake_sig_domain mem;
	struct fake_sig_domain wire;
	u8 check_mask;
	u8 copy_mask;
	bool sbs;
	u32 raw_data_size;
};

#endif /* _MLX5_UMR_FAKE_SIG_H */
