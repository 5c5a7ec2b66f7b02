// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: round trips of block signature through the service's encoder and
 * the fake's signature engine (drivers/fake/fake_sig.c).
 *
 * Every configure goes through mlx5_umr_exec() (the real encoder, rules,
 * posting and completion); every data movement through
 * mlx5_umr_test_xfer_out() (the fake's data path as an accessing QP, which
 * hands back the SIG_ERR CQE its CQ would receive; the test passes it to
 * mlx5_umr_sig_report() as that QP's owner would).
 *
 * For each domain combination: wire bytes with the wire domain's PI are
 * produced by reading raw memory through a (none -> wire) signature, the
 * tags checked where the format puts them (and a T10-DIF CRC guard against
 * the kernel's crc_t10dif(), not the fake's code); they are written
 * through the combination (checked on the wire, memory PI generated) and
 * read back (memory PI checked, wire PI generated again): the same bytes,
 * no error. Then errors (a flipped data byte, a wrong ref tag, a wrong
 * app tag) with their type, values and offset, escapes, the PSV latch and
 * the check's re-arm, and keep/reset on reconfigure.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/crc-t10dif.h>
#include <linux/crc32.h>
#include <linux/scatterlist.h>

#include "umr_kunit.h"

#define RT_BS		512
#define RT_NBLK		2
#define RT_RAW		0		/* raw data, in the page */
#define RT_MEM		2048		/* the combination's memory view */
#define RT_ACC		(MLX5_UMR_ACCESS_LOCAL_WRITE | \
			 MLX5_UMR_ACCESS_REMOTE_READ | \
			 MLX5_UMR_ACCESS_REMOTE_WRITE)
#define RT_APP		0x1234
#define RT_REF		0x00abcdefU
#define RT_MAX_PI	8
#define RT_ORDER	1		/* two pages: 8 blocks of 512 + PI */
#define RT_BIG		4096		/* the larger block of rt_block_sizes */

struct rt_ctx {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_mkey *mkey;
	struct page *page;
	u8 *mem;			/* the page, as the CPU sees it */
	struct sg_table sgt;
	dma_addr_t dma;
	struct mlx5_umr_sge sge;
	struct mlx5_umr_sig_attr attr;
	u8 wire[RT_NBLK * (RT_BS + RT_MAX_PI)];
	u8 back[RT_NBLK * (RT_BS + RT_MAX_PI)];
};

static int rt_init(struct kunit *test)
{
	struct rt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned int i;

	if (!c)
		return -ENOMEM;
	test->priv = c;
	c->fake = umr_kunit_fake_registered(test, MLX5_UMR_FAKE_F_SYNC);
	c->dev = umr_kunit_fake_umr(c->fake);
	c->page = alloc_pages(GFP_KERNEL | __GFP_ZERO, RT_ORDER);
	KUNIT_ASSERT_NOT_NULL(test, c->page);
	c->mem = page_address(c->page);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&c->sgt, 1, GFP_KERNEL), 0);
	sg_set_page(c->sgt.sgl, c->page, PAGE_SIZE << RT_ORDER, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_dma_map_sg(c->dev, &c->sgt,
						  DMA_BIDIRECTIONAL), 0);
	c->dma = sg_dma_address(c->sgt.sgl);
	c->mkey = mlx5_umr_alloc_mkey(c->dev, 4, MLX5_UMR_MKEY_SIGNATURE);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->mkey));
	for (i = 0; i < RT_NBLK * RT_BS; i++)
		c->mem[RT_RAW + i] = (u8)(i * 7 + i / 251);
	return 0;
}

static void rt_exit(struct kunit *test)
{
	struct rt_ctx *c = test->priv;

	if (!c || !c->fake)
		return;
	if (c->mkey && !IS_ERR(c->mkey))
		mlx5_umr_free_mkey(c->mkey);
	if (c->sgt.sgl) {
		mlx5_umr_dma_unmap_sg(c->dev, &c->sgt, DMA_BIDIRECTIONAL);
		sg_free_table(&c->sgt);
	}
	if (c->page)
		__free_pages(c->page, RT_ORDER);
	mlx5_umr_fake_destroy(c->fake);
}

static unsigned int rt_pi(const struct mlx5_umr_sig_domain *d)
{
	switch (d->sig_type) {
	case MLX5_UMR_SIG_T10DIF:
		return 8;
	case MLX5_UMR_SIG_CRC:
		return d->crc.type == MLX5_UMR_SIG_CRC64_XP10 ? 8 : 4;
	default:
		return 0;
	}
}

/* Configure the mkey over @len bytes at @off with @mem and @wire. */
static int rt_configure_len(struct rt_ctx *c, u32 off, u32 len,
			    const struct mlx5_umr_sig_domain *mem,
			    const struct mlx5_umr_sig_domain *wire, u8 check)
{
	struct mlx5_umr_wr wr = {
		.mkey = c->mkey,
		.op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_SIG,
		.access = RT_ACC,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = &c->sge, .num_sge = 1 },
		.sig = &c->attr,
	};

	c->attr = (struct mlx5_umr_sig_attr) {
		.mem = *mem, .wire = *wire, .check_mask = check,
	};
	c->sge = (struct mlx5_umr_sge) {
		.addr = c->dma + off,
		.length = len,
		.key = mlx5_umr_dev_caps(c->dev)->dma_lkey,
	};
	return mlx5_umr_exec(c->dev, &wr, 0);
}

static int rt_configure(struct rt_ctx *c, u32 off,
			const struct mlx5_umr_sig_domain *mem,
			const struct mlx5_umr_sig_domain *wire, u8 check)
{
	return rt_configure_len(c, off, RT_NBLK * (RT_BS + rt_pi(mem)), mem,
				wire, check);
}

/* Move @len wire bytes; a SIG_ERR CQE goes to the report, as its QP's owner. */
static int rt_xfer(struct kunit *test, struct rt_ctx *c, u8 *buf, size_t len,
		   bool write, bool *sig_err)
{
	struct mlx5_umr_test_xfer_out out;
	int ret;

	ret = mlx5_umr_test_xfer_out(c->dev, c->mkey->key, 0, buf, len, write,
				     true, &out);
	*sig_err = out.sig_err;
	if (out.sig_err)
		KUNIT_EXPECT_EQ(test, mlx5_umr_sig_report(c->dev, &out.cqe), 0);
	return ret;
}

static const struct mlx5_umr_sig_domain rt_none = {};

#define RT_DIF(bgt, seed, fl) {						\
	.sig_type = MLX5_UMR_SIG_T10DIF,				\
	.dif = { .bg_type = (bgt), .bg = (seed), .app_tag = RT_APP,	\
		 .ref_tag = RT_REF, .flags = (fl) },			\
	.block_size = MLX5_UMR_SIG_BLOCK_512,				\
}

#define RT_CRC(t, s) {							\
	.sig_type = MLX5_UMR_SIG_CRC,					\
	.crc = { .type = (t), .seed = (s) },				\
	.block_size = MLX5_UMR_SIG_BLOCK_512,				\
}

/**
 * struct rt_combo - a memory and a wire domain
 * @name: the test's name
 * @mem: memory domain
 * @wire: wire domain
 * @check: check mask
 */
struct rt_combo {
	const char *name;
	struct mlx5_umr_sig_domain mem;
	struct mlx5_umr_sig_domain wire;
	u8 check;
};

static const struct rt_combo rt_combos[] = {
	{ "none / t10dif crc", {},
	  RT_DIF(MLX5_UMR_SIG_T10DIF_CRC, 0, MLX5_UMR_SIG_T10DIF_REF_REMAP),
	  0xff },
	{ "t10dif crc / none",
	  RT_DIF(MLX5_UMR_SIG_T10DIF_CRC, 0, MLX5_UMR_SIG_T10DIF_REF_REMAP),
	  {}, 0xff },
	{ "t10dif crc / t10dif crc",
	  RT_DIF(MLX5_UMR_SIG_T10DIF_CRC, 0xffff,
		 MLX5_UMR_SIG_T10DIF_REF_REMAP),
	  RT_DIF(MLX5_UMR_SIG_T10DIF_CRC, 0xffff,
		 MLX5_UMR_SIG_T10DIF_REF_REMAP), 0xff },
	{ "t10dif csum / t10dif crc",
	  RT_DIF(MLX5_UMR_SIG_T10DIF_CSUM, 0, 0),
	  RT_DIF(MLX5_UMR_SIG_T10DIF_CRC, 0, 0), 0xff },
	{ "none / crc32", {}, RT_CRC(MLX5_UMR_SIG_CRC32, U32_MAX), 0xf0 },
	{ "crc32c / none", RT_CRC(MLX5_UMR_SIG_CRC32C, 0), {}, 0xf0 },
	{ "crc32c / crc32c", RT_CRC(MLX5_UMR_SIG_CRC32C, U32_MAX),
	  RT_CRC(MLX5_UMR_SIG_CRC32C, U32_MAX), 0xf0 },
	{ "crc64_xp10 / none", RT_CRC(MLX5_UMR_SIG_CRC64_XP10, U64_MAX), {},
	  0xff },
	{ "none / crc64_xp10", {}, RT_CRC(MLX5_UMR_SIG_CRC64_XP10, 0), 0xff },
	{ "crc32c / t10dif crc", RT_CRC(MLX5_UMR_SIG_CRC32C, 0),
	  RT_DIF(MLX5_UMR_SIG_T10DIF_CRC, 0, MLX5_UMR_SIG_T10DIF_REF_REMAP),
	  0xf0 },
};

static void rt_combo_desc(const struct rt_combo *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rt_round_trip, rt_combos, rt_combo_desc);

/*
 * The wire bytes of the raw data for @wire: read through (none -> wire)
 * over the raw blocks; tags and a CRC-16/T10-DIF guard checked by hand.
 */
static void rt_make_wire(struct kunit *test, struct rt_ctx *c,
			 const struct mlx5_umr_sig_domain *wire)
{
	unsigned int wpi = rt_pi(wire), wb = RT_BS + wpi, i;
	bool sig_err;

	/* no wire signature: the wire bytes are the raw data */
	if (wire->sig_type == MLX5_UMR_SIG_NONE) {
		memcpy(c->wire, c->mem + RT_RAW, RT_NBLK * RT_BS);
		return;
	}
	KUNIT_ASSERT_EQ(test, rt_configure(c, RT_RAW, &rt_none, wire, 0), 0);
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, c->wire, RT_NBLK * wb, false,
				      &sig_err), 0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	for (i = 0; i < RT_NBLK; i++) {
		const u8 *blk = c->wire + i * wb, *pi = blk + RT_BS;

		KUNIT_EXPECT_EQ(test, memcmp(blk, c->mem + RT_RAW + i * RT_BS,
					     RT_BS), 0);
		if (wire->sig_type != MLX5_UMR_SIG_T10DIF)
			continue;
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(pi + 2), RT_APP);
		KUNIT_EXPECT_EQ(test, get_unaligned_be32(pi + 4),
				wire->dif.flags & MLX5_UMR_SIG_T10DIF_REF_REMAP ?
				RT_REF + i : RT_REF);
		/* T10 DIF guard, seed 0: CRC-16/T10-DIF of the block */
		if (wire->dif.bg_type == MLX5_UMR_SIG_T10DIF_CRC && !wire->dif.bg)
			KUNIT_EXPECT_EQ(test, get_unaligned_be16(pi),
					crc_t10dif(blk, RT_BS));
	}
}

/*
 * Wire -> memory -> wire through each combination: the wire PI checked and
 * the memory PI generated, then the reverse, the same bytes come back.
 */
static void rt_round_trip(struct kunit *test)
{
	const struct rt_combo *r = test->param_value;
	struct rt_ctx *c = test->priv;
	unsigned int wb = RT_BS + rt_pi(&r->wire), mpi = rt_pi(&r->mem), i;
	struct mlx5_umr_sig_status st;
	bool sig_err;

	rt_make_wire(test, c, &r->wire);
	KUNIT_ASSERT_EQ(test, rt_configure(c, RT_MEM, &r->mem, &r->wire,
					   r->check), 0);
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, c->wire, RT_NBLK * wb, true,
				      &sig_err), 0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	/* memory: the data, each block followed by its memory PI */
	for (i = 0; i < RT_NBLK; i++)
		KUNIT_EXPECT_EQ(test, memcmp(c->mem + RT_MEM + i * (RT_BS + mpi),
					     c->mem + RT_RAW + i * RT_BS,
					     RT_BS), 0);
	if (mpi && r->mem.sig_type == MLX5_UMR_SIG_T10DIF)
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(c->mem + RT_MEM +
							 RT_BS + 2), RT_APP);
	memset(c->back, 0, sizeof(c->back));
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, c->back, RT_NBLK * wb, false,
				      &sig_err), 0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(c->back, c->wire, RT_NBLK * wb), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);
}

/*
 * Memory T10 DIF (CRC, seed 0, ref remap) over valid memory: written from
 * raw wire data, so the memory holds data and PI the engine generated.
 */
static void rt_dif_memory(struct kunit *test, struct rt_ctx *c, u16 flags)
{
	const struct mlx5_umr_sig_domain mem =
		RT_DIF(MLX5_UMR_SIG_T10DIF_CRC, 0, flags);
	bool sig_err;

	KUNIT_ASSERT_EQ(test, rt_configure(c, RT_MEM, &mem, &rt_none, 0xff), 0);
	memcpy(c->wire, c->mem + RT_RAW, RT_NBLK * RT_BS);
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, c->wire, RT_NBLK * RT_BS, true,
				      &sig_err), 0);
	KUNIT_ASSERT_FALSE(test, sig_err);
}

/* Read it (memory PI checked); the status after, with the PSV re-armed. */
static void rt_read_check(struct kunit *test, struct rt_ctx *c,
			  struct mlx5_umr_sig_status *st, bool err)
{
	bool sig_err;

	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, c->back, RT_NBLK * RT_BS, false,
				      &sig_err), 0);
	KUNIT_EXPECT_EQ(test, sig_err, err);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, st), 0);
}

#define RT_PI1	(RT_MEM + 2 * RT_BS + 8)	/* block 1's PI in memory */
/* the last byte of block 1 in the input (memory) view */
#define RT_OFF1	(2 * (RT_BS + 8) - 1)

/*
 * A flipped data byte: a guard error at the block, expected the CRC of the
 * data as it is, actual the guard the PI carries (ConnectX: SergeyGorenko/
 * ibverbs-tests 0e71ce44abff mkey_test_sig_corrupt guardError).
 */
static void rt_bad_guard(struct kunit *test)
{
	struct rt_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	u16 guard;

	rt_dif_memory(test, c, MLX5_UMR_SIG_T10DIF_REF_REMAP);
	guard = get_unaligned_be16(c->mem + RT_PI1);
	c->mem[RT_MEM + RT_BS + 8 + 100] ^= 0x01;
	rt_read_check(test, c, &st, true);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
	KUNIT_EXPECT_EQ(test, st.actual, guard);
	KUNIT_EXPECT_EQ(test, st.expected,
			crc_t10dif(c->mem + RT_MEM + RT_BS + 8, RT_BS));
	KUNIT_EXPECT_EQ(test, st.offset, RT_OFF1);
	KUNIT_EXPECT_EQ(test, st.key, c->mkey->key);
}

/* A wrong ref tag (block 1 expects RT_REF + 1 with remap). */
static void rt_bad_ref(struct kunit *test)
{
	struct rt_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;

	rt_dif_memory(test, c, MLX5_UMR_SIG_T10DIF_REF_REMAP);
	KUNIT_ASSERT_EQ(test, get_unaligned_be32(c->mem + RT_PI1 + 4),
			RT_REF + 1);
	put_unaligned_be32(0x11111111, c->mem + RT_PI1 + 4);
	rt_read_check(test, c, &st, true);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_REFTAG);
	KUNIT_EXPECT_EQ(test, st.expected, RT_REF + 1);
	KUNIT_EXPECT_EQ(test, st.actual, 0x11111111);
	KUNIT_EXPECT_EQ(test, st.offset, RT_OFF1);
}

/* A wrong app tag. */
static void rt_bad_app(struct kunit *test)
{
	struct rt_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;

	rt_dif_memory(test, c, 0);
	put_unaligned_be16(0x4321, c->mem + RT_PI1 + 2);
	rt_read_check(test, c, &st, true);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_APPTAG);
	KUNIT_EXPECT_EQ(test, st.expected, RT_APP);
	KUNIT_EXPECT_EQ(test, st.actual, 0x4321);
	KUNIT_EXPECT_EQ(test, st.offset, RT_OFF1);
}

/*
 * A wire T10-DIF guard error on an mkey whose memory domain is CRC32C:
 * decoded at the wire's width (16 bits) where the CQE names the domain.
 * A device without sigerr_domain_and_sig_type does not say which check
 * failed; the status then falls back to the memory domain and gives the
 * transient signature's 32 bits (guard << 16 | app tag).
 */
static void rt_wire_domain_width(struct kunit *test)
{
	const struct mlx5_umr_sig_domain mem =
		RT_CRC(MLX5_UMR_SIG_CRC32C, 0);
	const struct mlx5_umr_sig_domain wire =
		RT_DIF(MLX5_UMR_SIG_T10DIF_CRC, 0,
		       MLX5_UMR_SIG_T10DIF_REF_REMAP);
	struct rt_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	u16 guard, calc;
	bool sig_err;

	rt_make_wire(test, c, &wire);
	KUNIT_ASSERT_EQ(test, rt_configure(c, RT_MEM, &mem, &wire, 0xff), 0);
	/* block 1's wire guard, one bit off */
	guard = get_unaligned_be16(c->wire + RT_BS + 8 + RT_BS) ^
		0x0100;
	put_unaligned_be16(guard, c->wire + RT_BS + 8 + RT_BS);
	calc = crc_t10dif(c->wire + RT_BS + 8, RT_BS);
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, c->wire, RT_NBLK * (RT_BS + 8),
				      true, &sig_err), 0);
	KUNIT_EXPECT_TRUE(test, sig_err);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
	KUNIT_EXPECT_EQ(test, st.offset, 2 * (RT_BS + 8) - 1);
	if (umr_kunit_sig_err_domain()) {
		KUNIT_EXPECT_EQ(test, st.expected, calc);
		KUNIT_EXPECT_EQ(test, st.actual, guard);
	} else {
		KUNIT_EXPECT_EQ(test, st.expected, (u32)calc << 16 | RT_APP);
		KUNIT_EXPECT_EQ(test, st.actual, (u32)guard << 16 | RT_APP);
	}
}

/*
 * Escapes: app tag 0xffff skips a block's checks with APP_ESCAPE; with
 * APP_REF_ESCAPE only when the ref tag is 0xffffffff as well.
 */
static void rt_escape(struct kunit *test)
{
	struct rt_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;

	rt_dif_memory(test, c, MLX5_UMR_SIG_T10DIF_APP_ESCAPE);
	put_unaligned_be16(0xffff, c->mem + RT_PI1 + 2);
	c->mem[RT_MEM + RT_BS + 8 + 5] ^= 0x80;
	rt_read_check(test, c, &st, false);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);

	rt_dif_memory(test, c, MLX5_UMR_SIG_T10DIF_APP_REF_ESCAPE);
	put_unaligned_be16(0xffff, c->mem + RT_PI1 + 2);
	c->mem[RT_MEM + RT_BS + 8 + 5] ^= 0x80;
	rt_read_check(test, c, &st, true);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
	put_unaligned_be32(0xffffffff, c->mem + RT_PI1 + 4);
	rt_read_check(test, c, &st, false);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);
}

/*
 * The PSV stays in error after a failed check (no second CQE) until the
 * check re-arms it; then the next bad block is reported again: the
 * check's UMR wrote the flipped expected_sigerr_count (the fake reports
 * nothing to an mkey not re-armed so).
 */
static void rt_rearm(struct kunit *test)
{
	struct rt_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	bool sig_err;

	rt_dif_memory(test, c, 0);
	c->mem[RT_MEM + 3] ^= 0x10;
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, c->back, RT_NBLK * RT_BS, false,
				      &sig_err), 0);
	KUNIT_EXPECT_TRUE(test, sig_err);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_psv(c->fake, c->mkey->psv[0],
						      NULL, NULL), 1);
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, c->back, RT_NBLK * RT_BS, false,
				      &sig_err), 0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
	KUNIT_EXPECT_EQ(test, st.offset, RT_BS + 8 - 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_psv(c->fake, c->mkey->psv[0],
						      NULL, NULL), 0);
	rt_read_check(test, c, &st, true);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
}

/*
 * Keep and reset: a reconfigure without a signature flag keeps the
 * signature (the read still strips and checks); RESET_SIG drops it (the
 * read returns the memory view as it is, PI included).
 */
static void rt_keep_reset(struct kunit *test)
{
	struct rt_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	struct mlx5_umr_wr wr = {
		.mkey = c->mkey,
		.op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_ACCESS,
		.access = RT_ACC,
		.layout = MLX5_UMR_LAYOUT_LIST,
		.list = { .sge = &c->sge, .num_sge = 1 },
	};

	rt_dif_memory(test, c, 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	c->mem[RT_MEM + 3] ^= 0x10;
	rt_read_check(test, c, &st, true);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);

	wr.flags |= MLX5_UMR_WR_RESET_SIG;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	rt_read_check(test, c, &st, false);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_NONE);
	/* the memory view as is: block 0's PI at 512 */
	KUNIT_EXPECT_EQ(test, memcmp(c->back, c->mem + RT_MEM, RT_NBLK * RT_BS),
			0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(c->back + RT_BS + 2), RT_APP);
}

/*
 * Different block sizes in the two domains, through the service's encoder
 * (rule 50 lets them through; the BSF names the wire's selector) and the
 * fake: T10-DIF in 512-byte blocks on one side, CRC32C in 4096-byte blocks
 * on the other, over one stream of 4096 data bytes. Each direction lands
 * the data and the PI of its output domain, computed here with the
 * kernel's crc_t10dif() and __crc32c_le(); a corrupted memory block is
 * reported by its own domain's block.
 */
static void rt_block_sizes(struct kunit *test)
{
	const struct mlx5_umr_sig_domain dif = {
		.sig_type = MLX5_UMR_SIG_T10DIF,
		.dif = { .bg_type = MLX5_UMR_SIG_T10DIF_CRC, .app_tag = RT_APP,
			 .ref_tag = RT_REF,
			 .flags = MLX5_UMR_SIG_T10DIF_REF_REMAP },
		.block_size = MLX5_UMR_SIG_BLOCK_512,
	};
	const struct mlx5_umr_sig_domain crc = {
		.sig_type = MLX5_UMR_SIG_CRC,
		.crc = { .type = MLX5_UMR_SIG_CRC32C, .seed = 0 },
		.block_size = MLX5_UMR_SIG_BLOCK_4096,
	};
	const u32 n = RT_BIG / RT_BS, dlen = n * (RT_BS + 8);
	struct mlx5_umr_test_xfer_out out;
	struct rt_ctx *c = test->priv;
	struct mlx5_umr_sig_status st;
	u8 *d, *dw, *cw, *back, *m = c->mem;
	u32 i, crc32c;
	bool sig_err;
	u16 guard;

	d = kunit_kzalloc(test, RT_BIG, GFP_KERNEL);
	dw = kunit_kzalloc(test, dlen, GFP_KERNEL);
	cw = kunit_kzalloc(test, RT_BIG + 4, GFP_KERNEL);
	back = kunit_kzalloc(test, dlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_NOT_NULL(test, dw);
	KUNIT_ASSERT_NOT_NULL(test, cw);
	KUNIT_ASSERT_NOT_NULL(test, back);
	for (i = 0; i < RT_BIG; i++)
		d[i] = i * 37 + (i >> 9);
	/* the DIF format: 8 blocks of 512 + guard, app, ref + i */
	for (i = 0; i < n; i++) {
		u8 *b = dw + i * (RT_BS + 8);

		memcpy(b, d + i * RT_BS, RT_BS);
		put_unaligned_be16(crc_t10dif(b, RT_BS), b + RT_BS);
		put_unaligned_be16(RT_APP, b + RT_BS + 2);
		put_unaligned_be32(RT_REF + i, b + RT_BS + 4);
	}
	/* the CRC32C format: 4096 + CRC-32C stored little endian */
	crc32c = ~__crc32c_le(~0U, d, RT_BIG);
	memcpy(cw, d, RT_BIG);
	put_unaligned_le32(crc32c, cw + RT_BIG);

	/* memory DIF/512, wire CRC32C/4096 */
	memset(m, 0, dlen);
	KUNIT_ASSERT_EQ(test, rt_configure_len(c, 0, dlen, &dif, &crc, 0xff),
			0);
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, cw, RT_BIG + 4, true,
				      &sig_err), 0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(m, dw, dlen), 0);
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, back, RT_BIG + 4, false,
				      &sig_err), 0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(back, cw, RT_BIG + 4), 0);
	/* memory block 5's data: its guard, in the memory view */
	guard = get_unaligned_be16(m + 5 * (RT_BS + 8) + RT_BS);
	m[5 * (RT_BS + 8) + 77] ^= 0x04;
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, back, RT_BIG + 4, false,
				      &sig_err), 0);
	KUNIT_EXPECT_TRUE(test, sig_err);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
	KUNIT_EXPECT_EQ(test, st.offset, 6 * (RT_BS + 8) - 1);
	KUNIT_EXPECT_EQ(test, st.actual, guard);
	KUNIT_EXPECT_EQ(test, st.expected,
			crc_t10dif(m + 5 * (RT_BS + 8), RT_BS));

	/* memory CRC32C/4096, wire DIF/512 */
	memset(m, 0, dlen);
	KUNIT_ASSERT_EQ(test, rt_configure_len(c, 0, RT_BIG + 4, &crc, &dif,
					       0xff), 0);
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, dw, dlen, true, &sig_err), 0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(m, cw, RT_BIG + 4), 0);
	memset(back, 0, dlen);
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, back, dlen, false, &sig_err),
			0);
	KUNIT_EXPECT_FALSE(test, sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(back, dw, dlen), 0);
	/* a memory data byte: the 4096-byte block's CRC, as the PI reads */
	m[3000] ^= 0x80;
	KUNIT_ASSERT_EQ(test, rt_xfer(test, c, back, dlen, false, &sig_err),
			0);
	KUNIT_EXPECT_TRUE(test, sig_err);
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_check(c->mkey, &st), 0);
	KUNIT_EXPECT_EQ(test, st.err_type, MLX5_UMR_SIG_ERR_GUARD);
	KUNIT_EXPECT_EQ(test, st.offset, RT_BIG + 4 - 1);
	KUNIT_EXPECT_EQ(test, st.actual, swab32(crc32c));
	KUNIT_EXPECT_EQ(test, st.expected,
			swab32(~__crc32c_le(~0U, m, RT_BIG)));
	/* one 512-byte wire block is not a whole memory block: refused */
	KUNIT_EXPECT_NE(test, mlx5_umr_test_xfer_out(c->dev, c->mkey->key, 0,
						     back, RT_BS + 8, false,
						     true, &out), 0);
}

static struct kunit_case rt_cases[] = {
	KUNIT_CASE_PARAM(rt_round_trip, rt_round_trip_gen_params),
	KUNIT_CASE(rt_bad_guard),
	KUNIT_CASE(rt_bad_ref),
	KUNIT_CASE(rt_bad_app),
	KUNIT_CASE(rt_wire_domain_width),
	KUNIT_CASE(rt_escape),
	KUNIT_CASE(rt_rearm),
	KUNIT_CASE(rt_keep_reset),
	KUNIT_CASE(rt_block_sizes),
	{}
};

/* the same cases on fakes without sigerr_domain_and_sig_type */
static struct kunit_case rt_cases_legacy[] = {
	KUNIT_CASE_PARAM(rt_round_trip, rt_round_trip_gen_params),
	KUNIT_CASE(rt_bad_guard),
	KUNIT_CASE(rt_bad_ref),
	KUNIT_CASE(rt_bad_app),
	KUNIT_CASE(rt_wire_domain_width),
	KUNIT_CASE(rt_escape),
	KUNIT_CASE(rt_rearm),
	KUNIT_CASE(rt_keep_reset),
	KUNIT_CASE(rt_block_sizes),
	{}
};

static struct kunit_suite rt_suite = {
	.name = "mlx5_umr_sig_rt",
	.init = rt_init,
	.exit = rt_exit,
	.test_cases = rt_cases,
};

static struct kunit_suite rt_suite_legacy = {
	.name = "mlx5_umr_sig_rt_legacy",
	.init = rt_init,
	.exit = rt_exit,
	.test_cases = rt_cases_legacy,
	.suite_init = umr_kunit_sig_profile_legacy,
	.suite_exit = umr_kunit_sig_profile_default,
};

kunit_test_suites(&rt_suite, &rt_suite_legacy);

MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
MODULE_DESCRIPTION("KUnit round trips of block signature through the encoder and the fake");
MODULE_LICENSE("Dual BSD/GPL");
