// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the fake HCA's data path. Indirect mkeys are configured with UMR
 * WQEs built by hand, then RDMA READ/WRITE through them must land on the
 * exact bytes the specification (the seed man pages) describes.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/sizes.h>
#include <linux/fs.h>
#include <linux/module.h>

#include "umr_kunit.h"

#define MR1_VA	0x100000ULL
#define MR2_VA	0x200000ULL
#define MR_SIZE	(2 * PAGE_SIZE)
#define SENT	0xee

struct fdp {
	struct ft *ft;
	struct ft_umr *w;
	struct mlx5_umr_dma_buf b1, b2;
	u32 mr1, mr2;
	u32 key;	/* indirect, 8 octowords */
	u8 *pat;	/* 16 KiB pattern */
	u8 *tmp;	/* 16 KiB scratch */
};

static struct fdp *fdp_setup(struct kunit *test)
{
	struct fdp *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	d->w = kunit_kzalloc(test, sizeof(*d->w), GFP_KERNEL);
	d->pat = kunit_kzalloc(test, 16384, GFP_KERNEL);
	d->tmp = kunit_kzalloc(test, 16384, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d->w);
	KUNIT_ASSERT_NOT_NULL(test, d->pat);
	KUNIT_ASSERT_NOT_NULL(test, d->tmp);
	for (i = 0; i < 16384; i++)
		d->pat[i] = i * 7 + 3 + (i >> 8);
	d->mr1 = ft_mr(d->ft, &d->b1, MR_SIZE, MR1_VA, FT_LW);
	d->mr2 = ft_mr(d->ft, &d->b2, MR_SIZE, MR2_VA, FT_LW);
	memset(d->b1.cpu, SENT, MR_SIZE);
	memset(d->b2.cpu, SENT, MR_SIZE);
	d->key = ft_indirect(d->ft, 8);
	return d;
}

static void fdp_teardown(struct fdp *d)
{
	struct mlx5_umr_hca *hca = d->ft->hca;

	if (d->key)
		ft_del_mkey(d->ft, d->key);
	ft_del_mkey(d->ft, d->mr1);
	ft_del_mkey(d->ft, d->mr2);
	hca->ops->free_dma_buf(hca, &d->b1);
	hca->ops->free_dma_buf(hca, &d->b2);
	ft_teardown(d->ft);
}

static int fdp_xfer(struct fdp *d, u32 key, u64 off, void *buf, size_t len,
		    bool write, bool remote)
{
	return mlx5_umr_fake_xfer(d->ft->fake, key, off, buf, len, write,
				  remote);
}

/* Configure d->key with @xlt and enable it with @access and @len. */
static void fdp_umr(struct fdp *d, const void *xlt, size_t bytes, u8 access,
		    u64 len)
{
	size_t size = ft_umr_init(d->w, d->key, access, len, xlt, bytes);

	ft_umr_ok(d->ft, d->w, size);
}

static bool fdp_is_sent(const u8 *p, size_t n)
{
	return !memchr_inv(p, SENT, n);
}

/* Seed 000: SGE list {64 B -> mr1, 4096 B -> mr2}. */
static void fake_dp_sge_list(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	struct mlx5_klm klm[2];
	const u8 *b1, *b2;

	ft_klm(&klm[0], 64, d->mr1, MR1_VA);
	ft_klm(&klm[1], 4096, d->mr2, MR2_VA);
	fdp_umr(d, klm, sizeof(klm), FT_RR | FT_RW, 64 + 4096);
	b1 = d->b1.cpu;
	b2 = d->b2.cpu;

	KUNIT_ASSERT_EQ(test, fdp_xfer(d, d->key, 0, d->pat, 4160, true, true),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(b1, d->pat, 64), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b1 + 64, MR_SIZE - 64));
	KUNIT_EXPECT_EQ(test, memcmp(b2, d->pat + 64, 4096), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b2 + 4096, MR_SIZE - 4096));

	KUNIT_ASSERT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 4160, false,
				       true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(d->tmp, d->pat, 4160), 0);
	/* a read straddling the two entries */
	KUNIT_ASSERT_EQ(test, fdp_xfer(d, d->key, 60, d->tmp, 10, false, true),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(d->tmp, b1 + 60, 4), 0);
	KUNIT_EXPECT_EQ(test, memcmp(d->tmp + 4, b2, 6), 0);
	fdp_teardown(d);
}

static void fdp_rb(u8 *xlt, u32 repeat, u32 n, const u16 *count,
		   const u16 *skip, const u32 *key, const u64 *va)
{
	struct mlx5_stride_block_ctrl_seg *rb = (void *)xlt;
	struct mlx5_stride_block_entry *e = (void *)(rb + 1);
	u32 i, sum = 0;

	for (i = 0; i < n; i++) {
		e[i].bcount = cpu_to_be16(count[i]);
		e[i].stride = cpu_to_be16(count[i] + skip[i]);
		e[i].key = cpu_to_be32(key[i]);
		e[i].va = cpu_to_be64(va[i]);
		sum += count[i];
	}
	rb->bcount_per_cycle = cpu_to_be32(sum);
	rb->op = cpu_to_be32(MLX5_STRIDE_BLOCK_OP);
	rb->repeat_count = cpu_to_be32(repeat);
	rb->num_entries = cpu_to_be16(n);
}

/*
 * Seed 000: interleaved, repeat 2, {mr1 512 B skip 4, mr2 8 B skip 0}:
 * bytes 0..511 -> mr1+0, 512..519 -> mr2+0, 520..1031 -> mr1+516,
 * 1032..1039 -> mr2+8.
 */
static void fake_dp_interleaved(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	u8 xlt[48] = {};
	const u8 *b1, *b2;

	fdp_rb(xlt, 2, 2, (u16 []){ 512, 8 }, (u16 []){ 4, 0 },
	       (u32 []){ d->mr1, d->mr2 }, (u64 []){ MR1_VA, MR2_VA });
	fdp_umr(d, xlt, sizeof(xlt), FT_RR | FT_RW, 1040);
	b1 = d->b1.cpu;
	b2 = d->b2.cpu;

	KUNIT_ASSERT_EQ(test, fdp_xfer(d, d->key, 0, d->pat, 1040, true, true),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(b1, d->pat, 512), 0);
	KUNIT_EXPECT_EQ(test, memcmp(b2, d->pat + 512, 8), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b1 + 512, 4));	/* skipped */
	KUNIT_EXPECT_EQ(test, memcmp(b1 + 516, d->pat + 520, 512), 0);
	KUNIT_EXPECT_EQ(test, memcmp(b2 + 8, d->pat + 1032, 8), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b1 + 1028, MR_SIZE - 1028));
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b2 + 16, MR_SIZE - 16));

	/* single bytes land where the seed says */
	KUNIT_ASSERT_EQ(test, fdp_xfer(d, d->key, 1031, d->tmp, 2, false,
				       true), 0);
	KUNIT_EXPECT_EQ(test, d->tmp[0], b1[516 + 511]);
	KUNIT_EXPECT_EQ(test, d->tmp[1], b2[8]);
	/* the mkey is 1040 bytes long */
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 1039, d->tmp, 2, false,
				       true), MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	fdp_teardown(d);
}

/*
 * Seed 002: one entry, 4096-byte message, 20 bytes of skip per message
 * split over two repeats: bytes_count 2038, bytes_skip 10, repeat 2.
 */
static void fake_dp_seed_002(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	u8 xlt[32] = {};
	const u8 *b1;

	fdp_rb(xlt, 2, 1, (u16 []){ (4096 - 20) / 2 }, (u16 []){ 20 / 2 },
	       (u32 []){ d->mr1 }, (u64 []){ MR1_VA });
	fdp_umr(d, xlt, sizeof(xlt), FT_RR | FT_RW, 2 * 2038);
	b1 = d->b1.cpu;

	KUNIT_ASSERT_EQ(test, fdp_xfer(d, d->key, 0, d->pat, 4076, true, true),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(b1, d->pat, 2038), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b1 + 2038, 10));
	KUNIT_EXPECT_EQ(test, memcmp(b1 + 2048, d->pat + 2038, 2038), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b1 + 4086, MR_SIZE - 4086));
	KUNIT_ASSERT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 4076, false,
				       true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(d->tmp, d->pat, 4076), 0);
	fdp_teardown(d);
}

/* Access rights, bounds and invalidation are enforced; failures move nothing. */
static void fake_dp_access(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	struct mlx5_klm klm[2];
	const u8 *b1;

	ft_klm(&klm[0], 64, d->mr1, MR1_VA);
	ft_klm(&klm[1], 4096, d->mr2, MR2_VA);
	fdp_umr(d, klm, sizeof(klm), FT_RR, 4160);	/* read-only */
	b1 = d->b1.cpu;

	/* remote write through a read-only key */
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->pat, 16, true, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b1, MR_SIZE));
	/* local write needs LW, which the UMR did not grant */
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->pat, 16, true, false),
			MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	/* reads are fine up to the end, not past it */
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 4150, d->tmp, 10, false,
				       true), 0);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 4150, d->tmp, 11, false,
				       true), MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 1ULL << 40, d->tmp, 1, false,
				       true), MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	/* the direct mkeys grant no remote access of their own */
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->mr1, 0, d->tmp, 1, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->mr1, 0, d->tmp, 1, false, false),
			0);
	/* a stale key variant is unknown */
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key ^ 0x80, 0, d->tmp, 1, false,
				       true), MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);

	/* local invalidation: a UMR that sets FREE */
	memset(d->w, 0, sizeof(*d->w));
	d->w->ctrl.umr_mkey = cpu_to_be32(d->key);
	d->w->uc.flags = MLX5_UMR_INLINE | MLX5_UMR_CHECK_FREE;
	d->w->uc.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_FREE);
	MLX5_SET(mkc, &d->w->mkey, free, 1);
	ft_umr_ok(d->ft, d->w, 128);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 1, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 1, false, false),
			MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);

	/* a destroyed mkey, referenced by the indirect one, faults accesses */
	fdp_umr(d, klm, sizeof(klm), FT_RR, 4160);
	ft_del_mkey(d->ft, d->mr2);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 64, false, true),
			0);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 65, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	d->ft->hca->ops->free_dma_buf(d->ft->hca, &d->b2);
	d->mr2 = ft_mr(d->ft, &d->b2, MR_SIZE, MR2_VA, FT_LW);
	fdp_teardown(d);
}

/* KLM entries with the reserved lkey address device memory directly. */
static void fake_dp_resd_lkey(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	struct mlx5_klm klm[2];
	const u8 *b1;

	ft_klm(&klm[0], 100, MLX5_UMR_FAKE_RESD_LKEY, d->b1.pages[0] + 8);
	ft_klm(&klm[1], 100, MLX5_UMR_FAKE_RESD_LKEY, d->b1.pages[1]);
	fdp_umr(d, klm, sizeof(klm), FT_RR | FT_RW, 200);
	b1 = d->b1.cpu;
	KUNIT_ASSERT_EQ(test, fdp_xfer(d, d->key, 0, d->pat, 200, true, true),
			0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b1, 8));
	KUNIT_EXPECT_EQ(test, memcmp(b1 + 8, d->pat, 100), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b1 + 108, PAGE_SIZE - 108));
	KUNIT_EXPECT_EQ(test, memcmp(b1 + PAGE_SIZE, d->pat + 100, 100), 0);
	/* the reserved lkey is never an rkey */
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, MLX5_UMR_FAKE_RESD_LKEY,
				       d->b1.pages[0], d->tmp, 1, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	fdp_teardown(d);
}

/* Unmapped device addresses fault, and are counted. */
static void fake_dp_iommu_fault(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	struct mlx5_umr_fake_counters c0, c1;
	struct mlx5_klm klm;

	/* the guard page after mr1's buffer */
	ft_klm(&klm, 100, MLX5_UMR_FAKE_RESD_LKEY,
	       d->b1.pages[1] + PAGE_SIZE);
	fdp_umr(d, &klm, sizeof(klm), FT_RR | FT_RW, 100);
	mlx5_umr_fake_get_counters(d->ft->fake, &c0);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 1, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	mlx5_umr_fake_get_counters(d->ft->fake, &c1);
	KUNIT_EXPECT_EQ(test, c1.iommu_faults, c0.iommu_faults + 1);
	fdp_teardown(d);
}

/* Indirect over indirect works up to the depth limit; PDs must match. */
static void fake_dp_nesting(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	u32 keys[MLX5_UMR_FAKE_MAX_DEPTH];
	struct mlx5_klm klm;
	u32 out[MLX5_ST_SZ_DW(dealloc_pd_out)];
	u32 inner, i, pd2;
	u8 st;

	/* keys[0] -> mr1; keys[i] -> keys[i - 1] */
	for (i = 0; i < MLX5_UMR_FAKE_MAX_DEPTH; i++) {
		keys[i] = ft_indirect(d->ft, 4);
		ft_klm(&klm, 256, i ? keys[i - 1] : d->mr1, i ? 0 : MR1_VA);
		ft_umr_ok(d->ft, d->w,
			  ft_umr_init(d->w, keys[i], FT_RR | FT_LW, 256, &klm,
				      sizeof(klm)));
	}
	memcpy(d->b1.cpu, d->pat, 256);
	/* depth 1 + (MAX - 1) indirect levels + mr1 = MAX + 1 > MAX */
	for (i = 0; i < MLX5_UMR_FAKE_MAX_DEPTH; i++) {
		int exp = i + 2 <= MLX5_UMR_FAKE_MAX_DEPTH ? 0 :
			  MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR;

		memset(d->tmp, 0, 256);
		KUNIT_EXPECT_EQ(test, fdp_xfer(d, keys[i], 0, d->tmp, 256,
					       false, true), exp);
		if (!exp)
			KUNIT_EXPECT_EQ(test, memcmp(d->tmp, d->pat, 256), 0);
	}
	for (i = 0; i < MLX5_UMR_FAKE_MAX_DEPTH; i++)
		ft_del_mkey(d->ft, keys[i]);

	/* an mkey of another PD is not reachable */
	pd2 = ft_alloc_pd(d->ft);
	swap(pd2, d->ft->pdn);
	inner = ft_create_mkey_full(d->ft, MLX5_MKC_ACCESS_MODE_PA, 0, false,
				    false, FT_LW, d->b1.pages[0], 64, 0, NULL,
				    0, &st);
	swap(pd2, d->ft->pdn);
	KUNIT_ASSERT_NE(test, inner, 0U);
	ft_klm(&klm, 64, inner, d->b1.pages[0]);
	fdp_umr(d, &klm, sizeof(klm), FT_RR, 64);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 1, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, inner, 0, d->tmp, 1, false, false),
			0);
	ft_del_mkey(d->ft, inner);
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(d->ft, pd2, out), 0);
	fdp_teardown(d);
}

/* An indirect mkey of 4 octowords in @pdn whose one KLM names @inner. */
static u32 fdp_indirect_pd(struct fdp *d, u32 pdn, u32 inner, u64 va)
{
	struct mlx5_klm klm;
	u32 key;

	swap(pdn, d->ft->pdn);
	key = ft_indirect(d->ft, 4);
	swap(pdn, d->ft->pdn);
	ft_klm(&klm, 64, inner, va);
	ft_umr_ok(d->ft, d->w, ft_umr_init(d->w, key, FT_RR | FT_LW, 64, &klm,
					   sizeof(klm)));
	return key;
}

/*
 * The accessor's PD (a consumer QP's): every mkey on the way, the outer
 * one included, must be in it, at any level of nesting; the key being
 * valid does not help.
 */
static void fake_dp_accessor_pd(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	u32 out[MLX5_ST_SZ_DW(dealloc_pd_out)];
	struct mlx5_umr_fake *fake = d->ft->fake;
	u32 x = d->ft->pdn, y, a1, a2, b2, c3, mry;
	struct mlx5_umr_dma_buf by;
	u8 *t = d->tmp;

	y = ft_alloc_pd(d->ft);
	KUNIT_ASSERT_NE(test, y, x);
	memcpy(d->b1.cpu, d->pat, 64);
	/* a1 (x) -> mr1 (x): accessor x reads, y is refused at level 0 */
	a1 = fdp_indirect_pd(d, x, d->mr1, MR1_VA);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(fake, x, a1, 0, t, 64,
						    false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t, d->pat, 64), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(fake, y, a1, 0, t, 64,
						    false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(fake, y, d->mr1, MR1_VA,
						    t, 64, false, false),
			MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	/* a2 (y) -> a1 (x): refused at level 1 */
	a2 = fdp_indirect_pd(d, y, a1, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(fake, y, a2, 0, t, 64,
						    false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	/* b2 (y) -> a2 (y) -> a1 (x): refused at level 2 */
	b2 = fdp_indirect_pd(d, y, a2, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(fake, y, b2, 0, t, 64,
						    false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	/* c3 (y) -> mry (y), all in y: accessor y works, x does not */
	swap(y, d->ft->pdn);
	mry = ft_mr(d->ft, &by, MR_SIZE, MR2_VA, FT_LW);
	swap(y, d->ft->pdn);
	memcpy(by.cpu, d->pat + 64, 64);
	c3 = fdp_indirect_pd(d, y, mry, MR2_VA);
	memset(t, 0, 64);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(fake, y, c3, 0, t, 64,
						    false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(t, d->pat + 64, 64), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(fake, x, c3, 0, t, 64,
						    false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	/* a local write (LW granted) refused by the PD moves no byte */
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(fake, y, c3, 0, d->pat,
						    64, true, false), 0);
	KUNIT_EXPECT_EQ(test, memcmp(by.cpu, d->pat, 64), 0);
	memcpy(by.cpu, d->pat + 64, 64);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_pd(fake, x, c3, 0, d->pat,
						    64, true, false),
			MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	KUNIT_EXPECT_EQ(test, memcmp(by.cpu, d->pat + 64, 64), 0);

	ft_del_mkey(d->ft, c3);
	ft_del_mkey(d->ft, mry);
	d->ft->hca->ops->free_dma_buf(d->ft->hca, &by);
	ft_del_mkey(d->ft, b2);
	ft_del_mkey(d->ft, a2);
	ft_del_mkey(d->ft, a1);
	KUNIT_EXPECT_EQ(test, ft_dealloc_pd(d->ft, y, out), 0);
	fdp_teardown(d);
}

/* KSM: fixed-size entities, created inline by CREATE_MKEY. */
static void fake_dp_ksm(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	struct mlx5_ksm ksm[4] = {};
	u32 key;

	ksm[0].key = cpu_to_be32(d->mr2);
	ksm[0].va = cpu_to_be64(MR2_VA + PAGE_SIZE);
	ksm[1].key = cpu_to_be32(d->mr1);
	ksm[1].va = cpu_to_be64(MR1_VA);
	key = ft_create_mkey_full(d->ft, MLX5_MKC_ACCESS_MODE_KSM, 4, false,
				  false, FT_RR, 0, 2 * PAGE_SIZE, PAGE_SHIFT,
				  ksm, sizeof(ksm), NULL);
	KUNIT_ASSERT_NE(test, key, 0U);
	memcpy(d->b2.cpu + PAGE_SIZE, d->pat, PAGE_SIZE);
	memcpy(d->b1.cpu, d->pat + PAGE_SIZE, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, fdp_xfer(d, key, 100, d->tmp, 2 * PAGE_SIZE - 200,
				       false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(d->tmp, d->pat + 100,
				     2 * PAGE_SIZE - 200), 0);
	ft_del_mkey(d->ft, key);
	fdp_teardown(d);
}

/* dma_map_sg mappings are reachable through the reserved lkey, until unmapped. */
static void fake_dp_map_sg(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	struct mlx5_umr_hca *hca = d->ft->hca;
	/* not called as ops->dma_map_sg(): that is a function-like macro */
	int (*map)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		   enum dma_data_direction dir) = hca->ops->dma_map_sg;
	void (*unmap)(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		      enum dma_data_direction dir) = hca->ops->dma_unmap_sg;
	struct mlx5_umr_fake_counters c;
	struct page *pg = alloc_pages(GFP_KERNEL, 1);
	struct sg_table sgt;
	struct mlx5_klm klm[2];
	u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, pg);
	p = page_address(pg);
	memset(p, SENT, 2 * PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&sgt, 2, GFP_KERNEL), 0);
	sg_set_page(sgt.sgl, pg, 100, 10);
	sg_set_page(sg_next(sgt.sgl), pg, 200, PAGE_SIZE + 50);
	KUNIT_ASSERT_EQ(test, map(hca, &sgt, DMA_BIDIRECTIONAL), 0);
	mlx5_umr_fake_get_counters(d->ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.sg_maps, 1U);

	ft_klm(&klm[0], 100, MLX5_UMR_FAKE_RESD_LKEY, sg_dma_address(sgt.sgl));
	ft_klm(&klm[1], 200, MLX5_UMR_FAKE_RESD_LKEY,
	       sg_dma_address(sg_next(sgt.sgl)));
	fdp_umr(d, klm, sizeof(klm), FT_RR | FT_RW, 300);
	KUNIT_ASSERT_EQ(test, fdp_xfer(d, d->key, 0, d->pat, 300, true, true),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(p + 10, d->pat, 100), 0);
	KUNIT_EXPECT_EQ(test, memcmp(p + PAGE_SIZE + 50, d->pat + 100, 200), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(p, 10));
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(p + 110, PAGE_SIZE - 110 + 50));

	unmap(hca, &sgt, DMA_BIDIRECTIONAL);
	mlx5_umr_fake_get_counters(d->ft->fake, &c);
	KUNIT_EXPECT_EQ(test, c.sg_maps, 0U);
	/* after unmap the same key faults */
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 1, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	sg_free_table(&sgt);
	__free_pages(pg, 1);
	fdp_teardown(d);
}

/* SEND with invalidate frees only mkeys enabled for remote invalidation. */
static void fake_dp_remote_invalidate(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	struct mlx5_klm klm;
	size_t size;

	ft_klm(&klm, 64, d->mr1, MR1_VA);
	fdp_umr(d, &klm, sizeof(klm), FT_RR, 64);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_remote_invalidate(d->ft->fake,
							      d->key),
			MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 1, false, true),
			0);

	/* invalidate locally, re-enable with en_rinval */
	memset(d->w, 0, sizeof(*d->w));
	d->w->ctrl.umr_mkey = cpu_to_be32(d->key);
	d->w->uc.flags = MLX5_UMR_INLINE;
	d->w->uc.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_FREE);
	MLX5_SET(mkc, &d->w->mkey, free, 1);
	ft_umr_ok(d->ft, d->w, 128);
	size = ft_umr_init(d->w, d->key, FT_RR, 64, &klm, sizeof(klm));
	d->w->uc.mkey_mask |= cpu_to_be64(MLX5_MKEY_MASK_EN_RINVAL);
	MLX5_SET(mkc, &d->w->mkey, en_rinval, 1);
	ft_umr_ok(d->ft, d->w, size);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_remote_invalidate(d->ft->fake,
							      d->key), 0);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, d->key, 0, d->tmp, 1, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	/* already free */
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_remote_invalidate(d->ft->fake,
							      d->key),
			MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	fdp_teardown(d);
}

/*
 * An MTT mkey filled by a pointer-mode UMR at a translation offset, the way
 * mlx5_ib updates MRs: 8 pages, the second half written separately.
 */
static void fake_dp_mtt_umr(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	struct mlx5_umr_dma_buf data, tbl;
	struct mlx5_wqe_data_seg *ds;
	__be64 *mtt;
	u32 key, i;
	u8 *p;

	KUNIT_ASSERT_EQ(test, ft_dma_buf(d->ft, 8 * PAGE_SIZE, &data), 0);
	KUNIT_ASSERT_EQ(test, ft_dma_buf(d->ft, PAGE_SIZE, &tbl), 0);
	key = ft_create_mkey_full(d->ft, MLX5_MKC_ACCESS_MODE_MTT, 4, true,
				  true, 0, 0, 0, PAGE_SHIFT, NULL, 0, NULL);
	KUNIT_ASSERT_NE(test, key, 0U);
	/* pages in reverse order, so a linear walk would be wrong */
	mtt = tbl.cpu;
	for (i = 0; i < 8; i++)
		mtt[i] = cpu_to_be64(data.pages[7 - i]);

	memset(d->w, 0, sizeof(*d->w));
	d->w->ctrl.umr_mkey = cpu_to_be32(key);
	d->w->uc.flags = MLX5_UMR_TRANSLATION_OFFSET_EN;
	d->w->uc.xlt_octowords = cpu_to_be16(2);
	d->w->uc.xlt_offset = cpu_to_be16(2);
	ds = (void *)d->w->xlt;
	ds->byte_count = cpu_to_be32(32);
	ds->lkey = cpu_to_be32(MLX5_UMR_FAKE_RESD_LKEY);
	/* the second half from its own 2048-aligned chunk, as mlx5_ib does */
	memcpy(tbl.cpu + SZ_2K, mtt + 4, 32);
	ds->addr = cpu_to_be64(tbl.pages[0] + SZ_2K);
	ft_umr_ok(d->ft, d->w, 128 + 16);

	d->w->uc.flags = MLX5_UMR_TRANSLATION_OFFSET_EN |
			 MLX5_UMR_CHECK_NOT_FREE;
	d->w->uc.xlt_offset = 0;
	ds->addr = cpu_to_be64(tbl.pages[0]);
	d->w->uc.mkey_mask = cpu_to_be64(MLX5_MKEY_MASK_FREE |
					 MLX5_MKEY_MASK_LEN |
					 MLX5_MKEY_MASK_START_ADDR |
					 MLX5_MKEY_MASK_RR);
	MLX5_SET64(mkc, &d->w->mkey, start_addr, 0x7000000);
	MLX5_SET64(mkc, &d->w->mkey, len, 8 * PAGE_SIZE);
	MLX5_SET(mkc, &d->w->mkey, rr, 1);
	ft_umr_ok(d->ft, d->w, 128 + 16);

	p = data.cpu;
	memcpy(p + 7 * PAGE_SIZE, d->pat, PAGE_SIZE);		/* page 0 */
	memcpy(p + 2 * PAGE_SIZE, d->pat + PAGE_SIZE, PAGE_SIZE); /* page 5 */
	KUNIT_ASSERT_EQ(test, fdp_xfer(d, key, 10, d->tmp, 100, false, true),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(d->tmp, d->pat + 10, 100), 0);
	KUNIT_ASSERT_EQ(test, fdp_xfer(d, key, 5 * PAGE_SIZE + 3, d->tmp, 50,
				       false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(d->tmp, d->pat + PAGE_SIZE + 3, 50), 0);
	KUNIT_EXPECT_EQ(test, fdp_xfer(d, key, 8 * PAGE_SIZE - 1, d->tmp, 2,
				       false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);

	ft_del_mkey(d->ft, key);
	d->ft->hca->ops->free_dma_buf(d->ft->hca, &tbl);
	d->ft->hca->ops->free_dma_buf(d->ft->hca, &data);
	fdp_teardown(d);
}

/* Write @hdr and @len bytes of @data to the open debugfs "xfer" @f. */
static ssize_t fdp_dbg_xfer(struct file *f, const char *hdr, const u8 *data,
			    size_t len, u8 *msg)
{
	size_t h = strlen(hdr);
	loff_t pos = 0;

	memcpy(msg, hdr, h);
	memcpy(msg + h, data, len);
	return kernel_write(f, msg, h + len, &pos);
}

/*
 * debugfs "xfer" (what fuv_test uses through libmlx5's mkeys): the seed's
 * SGE list written and read back whole through the key by a QP of its
 * PD; a READ's bytes are read() once; another PD, a write beyond the
 * length, a local access without LW: EACCES, nothing moved; malformed
 * requests: EINVAL.
 */
static void fake_dp_debugfs_xfer(struct kunit *test)
{
	struct fdp *d = fdp_setup(test);
	u8 *msg = kunit_kzalloc(test, 8192, GFP_KERNEL);
	struct mlx5_klm klm[2];
	char path[96], hdr[64];
	const u8 *b1, *b2;
	struct file *f;
	loff_t pos = 0;

	KUNIT_ASSERT_NOT_NULL(test, msg);
	ft_klm(&klm[0], 64, d->mr1, MR1_VA);
	ft_klm(&klm[1], 4096, d->mr2, MR2_VA);
	fdp_umr(d, klm, sizeof(klm), FT_RR | FT_RW, 64 + 4096);
	b1 = d->b1.cpu;
	b2 = d->b2.cpu;
	snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5_umr_fake/%s/xfer",
		 d->ft->hca->name);
	f = filp_open(path, O_RDWR, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));

	snprintf(hdr, sizeof(hdr), "W %u 0x%x 0 4160\n", d->ft->pdn, d->key);
	KUNIT_EXPECT_EQ(test, fdp_dbg_xfer(f, hdr, d->pat, 4160, msg),
			(ssize_t)(strlen(hdr) + 4160));
	KUNIT_EXPECT_EQ(test, memcmp(b1, d->pat, 64), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b1 + 64, MR_SIZE - 64));
	KUNIT_EXPECT_EQ(test, memcmp(b2, d->pat + 64, 4096), 0);
	KUNIT_EXPECT_TRUE(test, fdp_is_sent(b2 + 4096, MR_SIZE - 4096));

	snprintf(hdr, sizeof(hdr), "R %u 0x%x 60 10\n", d->ft->pdn, d->key);
	KUNIT_EXPECT_EQ(test, fdp_dbg_xfer(f, hdr, NULL, 0, msg),
			(ssize_t)strlen(hdr));
	memset(d->tmp, 0, 16);
	KUNIT_EXPECT_EQ(test, kernel_read(f, d->tmp, 16, &pos), 10);
	KUNIT_EXPECT_EQ(test, memcmp(d->tmp, d->pat + 60, 10), 0);
	KUNIT_EXPECT_EQ(test, kernel_read(f, d->tmp, 16, &pos), 0);

	/* refused: another PD, past the length, local without LW */
	snprintf(hdr, sizeof(hdr), "R %u 0x%x 0 8\n", d->ft->pdn + 1, d->key);
	KUNIT_EXPECT_EQ(test, fdp_dbg_xfer(f, hdr, NULL, 0, msg),
			(ssize_t)-EACCES);
	snprintf(hdr, sizeof(hdr), "W %u 0x%x 4150 16\n", d->ft->pdn, d->key);
	KUNIT_EXPECT_EQ(test, fdp_dbg_xfer(f, hdr, d->tmp, 16, msg),
			(ssize_t)-EACCES);
	snprintf(hdr, sizeof(hdr), "w %u 0x%x 0 8\n", d->ft->pdn, d->key);
	KUNIT_EXPECT_EQ(test, fdp_dbg_xfer(f, hdr, d->tmp, 8, msg),
			(ssize_t)-EACCES);
	KUNIT_EXPECT_EQ(test, memcmp(b2 + 4086, d->pat + 64 + 4086, 10), 0);
	KUNIT_EXPECT_EQ(test, memcmp(b1, d->pat, 8), 0);
	KUNIT_EXPECT_EQ(test, kernel_read(f, d->tmp, 16, &pos), 0);

	/* malformed: no newline, unknown op, zero or short length */
	snprintf(hdr, sizeof(hdr), "R %u 0x%x 0 8", d->ft->pdn, d->key);
	KUNIT_EXPECT_EQ(test, fdp_dbg_xfer(f, hdr, NULL, 0, msg),
			(ssize_t)-EINVAL);
	snprintf(hdr, sizeof(hdr), "X %u 0x%x 0 8\n", d->ft->pdn, d->key);
	KUNIT_EXPECT_EQ(test, fdp_dbg_xfer(f, hdr, NULL, 0, msg),
			(ssize_t)-EINVAL);
	snprintf(hdr, sizeof(hdr), "R %u 0x%x 0 0\n", d->ft->pdn, d->key);
	KUNIT_EXPECT_EQ(test, fdp_dbg_xfer(f, hdr, NULL, 0, msg),
			(ssize_t)-EINVAL);
	snprintf(hdr, sizeof(hdr), "W %u 0x%x 0 8\n", d->ft->pdn, d->key);
	KUNIT_EXPECT_EQ(test, fdp_dbg_xfer(f, hdr, d->tmp, 7, msg),
			(ssize_t)-EINVAL);
	filp_close(f, NULL);
	fdp_teardown(d);
}

static struct kunit_case fake_dp_cases[] = {
	KUNIT_CASE(fake_dp_sge_list),
	KUNIT_CASE(fake_dp_interleaved),
	KUNIT_CASE(fake_dp_seed_002),
	KUNIT_CASE(fake_dp_access),
	KUNIT_CASE(fake_dp_resd_lkey),
	KUNIT_CASE(fake_dp_iommu_fault),
	KUNIT_CASE(fake_dp_nesting),
	KUNIT_CASE(fake_dp_accessor_pd),
	KUNIT_CASE(fake_dp_ksm),
	KUNIT_CASE(fake_dp_map_sg),
	KUNIT_CASE(fake_dp_remote_invalidate),
	KUNIT_CASE(fake_dp_mtt_umr),
	KUNIT_CASE(fake_dp_debugfs_xfer),
	{}
};

static struct kunit_suite fake_dp_suite = {
	.name = "mlx5_umr_fake_datapath",
	.test_cases = fake_dp_cases,
};

kunit_test_suite(fake_dp_suite);

MODULE_DESCRIPTION("KUnit tests of the fake mlx5 HCA's data path");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
