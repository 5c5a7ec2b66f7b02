// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the optional start address of an indirect mkey
 * (MLX5_UMR_WR_SET_IOVA): rules 65 and 66, the two WQE fields it changes,
 * the fake's mkey table and data path addressing the mkey from it, and
 * mlx5_umr_map_sg() filling it as ib_map_mr_sg() fills mr->iova.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include "svc_kunit.h"

#define IOVA_A		0x7f0000001000ULL
/* be64 mkey_mask in the UMR ctrl segment, be64 start_addr in the mkc */
#define O_UMR_MASK	24
#define O_MK_START	80

static void iova_list_wr(struct mlx5_umr_wr *wr, struct mlx5_umr_mkey *mkey,
			 struct mlx5_umr_sge *sge, u64 iova)
{
	sge[0] = (struct mlx5_umr_sge) { 0x100000, 4096, 0x1000 };
	sge[1] = (struct mlx5_umr_sge) { 0x200000, 4096, 0x1001 };
	svc_wr_list(wr, mkey, sge, 2, ACC_ALL);
	wr->flags |= MLX5_UMR_WR_SET_IOVA;
	wr->iova = iova;
}

/* Rules 65 and 66, on the rule function and through mlx5_umr_post(). */
static void iova_rules(struct kunit *test)
{
	struct mlx5_umr_caps caps = {
		.max_klm_entries = 64, .max_inline_entries = 56,
		.dma_lkey = 0x5ff, .pdn = 1,
	};
	struct mlx5_umr_mkey mkey = { .key = 0x1234, .max_entries = 8 };
	struct svc_ctx *c = test->priv;
	struct mlx5_umr_wr wr;
	struct mlx5_umr_sge sge[2];
	dma_addr_t page = 0x40000000;
	struct mlx5_umr_mkey *m;
	u8 byte;

	/* a list of 8192 bytes may end at 2^64 ... */
	iova_list_wr(&wr, &mkey, sge, 0ULL - 8192);
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&caps, &wr), 0);
	/* ... not beyond: rule 66 */
	wr.iova = 0ULL - 8191;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&caps, &wr), -EOVERFLOW);
	/* without the flag the iova is not read */
	wr.flags &= ~MLX5_UMR_WR_SET_IOVA;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&caps, &wr), 0);

	/* rule 65: only with a layout */
	iova_list_wr(&wr, &mkey, sge, IOVA_A);
	wr.layout = MLX5_UMR_LAYOUT_NONE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&caps, &wr), -EINVAL);
	wr.flags = MLX5_UMR_WR_SET_IOVA;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&caps, &wr), -EINVAL);
	/* not on pages, which have their own (rule 65) */
	memset(&wr, 0, sizeof(wr));
	mkey.direct = true;
	wr.mkey = &mkey;
	wr.op = MLX5_UMR_OP_REG_PAGES;
	wr.pages.addrs = &page;
	wr.pages.npages = 1;
	wr.pages.length = PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&caps, &wr), 0);
	wr.flags = MLX5_UMR_WR_SET_IOVA;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&caps, &wr), -EINVAL);
	/* an invalidate takes NEW_KEY alone (rule 24 before 65) */
	wr.op = MLX5_UMR_OP_INVALIDATE;
	wr.mkey->direct = false;
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&caps, &wr), -EINVAL);

	/* through the service: refused, nothing posted, the mkey untouched */
	m = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m));
	iova_list_wr(&wr, m, sge, 0ULL - 4096);
	sge[0].key = c->mr[0].mkey->key;
	sge[1].key = c->mr[0].mkey->key;
	KUNIT_EXPECT_EQ(test, mlx5_umr_validate(c->dev, &wr), -EOVERFLOW);
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EOVERFLOW);
	wr.layout = MLX5_UMR_LAYOUT_NONE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), -EINVAL);
	KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, m->key, 0, &byte, 1,
						 false, false), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(m), 0);
}

/*
 * The flag changes two fields of the WQE, nothing else: the START_ADDR bit
 * of mkey_mask and mkc.start_addr (wr.c set_reg_mkey_seg()); without it
 * the bit is clear and start_addr 0, as in rdma-core's configure.
 */
static void iova_wqe_bytes(struct kunit *test)
{
	struct mlx5_umr_caps caps = {
		.max_klm_entries = 64, .max_inline_entries = 56,
		.dma_lkey = 0x5ff, .pdn = 1,
	};
	const struct mlx5_umr_wqe_ctx ctx = {
		.caps = &caps, .qpn = 0x42, .ptr_lkey = caps.dma_lkey,
	};
	struct mlx5_umr_mkey mkey = { .key = 0x1234, .max_entries = 8 };
	const size_t max = MLX5_SEND_WQE_MAX_SIZE;
	u8 *with = kunit_kmalloc(test, max, GFP_KERNEL);
	u8 *without = kunit_kmalloc(test, max, GFP_KERNEL);
	struct mlx5_umr_sge sge[2];
	struct mlx5_umr_wr wr;
	unsigned int size, i;

	KUNIT_ASSERT_NOT_NULL(test, with);
	KUNIT_ASSERT_NOT_NULL(test, without);
	iova_list_wr(&wr, &mkey, sge, IOVA_A);
	size = mlx5_umr_wqe_size(&caps, &wr);
	KUNIT_ASSERT_LE(test, size, max);
	memset(with, 0xa5, max);
	memset(without, 0x5a, max);
	KUNIT_ASSERT_EQ(test, mlx5_umr_wqe_encode(&ctx, &wr, NULL, 7, 0, with,
						  size), (int)size);
	wr.flags &= ~MLX5_UMR_WR_SET_IOVA;
	KUNIT_ASSERT_EQ(test, mlx5_umr_wqe_size(&caps, &wr), size);
	KUNIT_ASSERT_EQ(test, mlx5_umr_wqe_encode(&ctx, &wr, NULL, 7, 0,
						  without, size), (int)size);

	KUNIT_EXPECT_EQ(test, get_unaligned_be64(with + O_MK_START), IOVA_A);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(without + O_MK_START), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(with + O_UMR_MASK) ^
			      get_unaligned_be64(without + O_UMR_MASK),
			MLX5_MKEY_MASK_START_ADDR);
	KUNIT_EXPECT_TRUE(test, get_unaligned_be64(with + O_UMR_MASK) &
				MLX5_MKEY_MASK_START_ADDR);
	for (i = 0; i < size; i++) {
		if ((i >= O_UMR_MASK && i < O_UMR_MASK + 8) ||
		    (i >= O_MK_START && i < O_MK_START + 8))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, with[i], without[i], "byte %u", i);
	}
	/* the field is the kernel's: mkc.start_addr of mlx5_ifc.h */
	KUNIT_EXPECT_EQ(test, MLX5_GET64(mkc, with + 64, start_addr), IOVA_A);
}

static u64 iova_start(struct kunit *test, struct svc_ctx *c, u32 key)
{
	u32 mkc[MLX5_ST_SZ_DW(mkc)];

	KUNIT_EXPECT_GT(test, mlx5_umr_fake_query_mkey(c->fake, key, mkc,
						       NULL, 0), 0);
	return MLX5_GET64(mkc, mkc, start_addr);
}

/*
 * On the fake: the mkey table holds the address, and a key nested in
 * another reaches byte n of the layout at iova + n, nothing below iova.
 * A layout without the flag keeps the address; iova 0 is zero-based again.
 */
static void iova_fake_addressing(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	struct svc_mr *mr = &c->mr[0];
	struct mlx5_umr_sge sge[2], outer;
	struct mlx5_umr_mkey *a, *b;
	struct mlx5_umr_wr wr = {};
	u8 buf[50];
	int i;

	a = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	b = mlx5_umr_alloc_mkey(c->dev, 4, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	for (i = 0; i < 2 * PAGE_SIZE; i++)
		*mr_byte(mr, i) = (u8)(i * 13 + (i >> 8));

	sge[0] = (struct mlx5_umr_sge) { MR_IOVA, PAGE_SIZE, mr->mkey->key };
	sge[1] = (struct mlx5_umr_sge) { MR_IOVA + PAGE_SIZE, PAGE_SIZE,
					 mr->mkey->key };
	svc_wr_list(&wr, a, sge, 2, ACC_ALL);
	wr.flags |= MLX5_UMR_WR_SET_IOVA;
	wr.iova = IOVA_A;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, iova_start(test, c, a->key), IOVA_A);

	/* b's one KLM names a at iova + 100 */
	outer = (struct mlx5_umr_sge) { IOVA_A + 100, sizeof(buf), a->key };
	svc_wr_list(&wr, b, &outer, 1, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, iova_start(test, c, b->key), 0);
	KUNIT_ASSERT_EQ(test, mlx5_umr_test_xfer(c->dev, b->key, 0, buf,
						 sizeof(buf), false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, mr_byte(mr, 100), sizeof(buf)), 0);
	/* below a's iova, and a's last byte + 1: out of a's range */
	outer.addr = IOVA_A - 1;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, b->key, 0, buf, 1,
						 false, true), 0);
	outer.addr = IOVA_A + 2 * PAGE_SIZE - sizeof(buf) + 1;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_GT(test, mlx5_umr_test_xfer(c->dev, b->key, 0, buf,
						 sizeof(buf), false, true), 0);

	/* a new layout without the flag keeps the address */
	svc_wr_list(&wr, a, sge, 1, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, iova_start(test, c, a->key), IOVA_A);
	/* iova 0: zero-based again, the peer's offset is the address */
	wr.flags |= MLX5_UMR_WR_SET_IOVA;
	wr.iova = 0;
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, iova_start(test, c, a->key), 0);
	outer.addr = 100;
	svc_wr_list(&wr, b, &outer, 1, ACC_ALL);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	memset(buf, 0, sizeof(buf));
	KUNIT_ASSERT_EQ(test, mlx5_umr_test_xfer(c->dev, b->key, 0, buf,
						 sizeof(buf), false, true), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, mr_byte(mr, 100), sizeof(buf)), 0);

	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(b), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(a), 0);
}

/*
 * mlx5_umr_map_sg() with SET_IOVA: the iova is the first mapped byte's
 * device address, as ib_sg_to_pages() sets mr->iova; the configured mkey
 * then has that start address in the fake's table.
 */
static void iova_map_sg(struct kunit *test)
{
	struct svc_ctx *c = test->priv;
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(c->dev);
	struct svc_mr *mr = &c->mr[1];
	struct mlx5_umr_wr wr = {};
	struct scatterlist sgl[2];
	struct mlx5_umr_sge sge[2];
	struct mlx5_umr_mkey *m;
	unsigned int off = 24;

	m = mlx5_umr_alloc_mkey(c->dev, 2, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(m));
	sg_init_table(sgl, 2);
	sg_dma_address(&sgl[0]) = mr->addrs[0] + 8;
	sg_dma_len(&sgl[0]) = 100;
	sg_dma_address(&sgl[1]) = mr->addrs[2];
	sg_dma_len(&sgl[1]) = 60;

	wr.mkey = m;
	wr.op = MLX5_UMR_OP_CONFIGURE;
	wr.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_IOVA;
	wr.access = ACC_ALL;
	wr.iova = 1;
	KUNIT_ASSERT_EQ(test, mlx5_umr_map_sg(&wr, sge, 2, sgl, 2, &off,
					      caps->dma_lkey), 2);
	KUNIT_EXPECT_EQ(test, wr.iova, mr->addrs[0] + 8 + off);
	KUNIT_ASSERT_EQ(test, mlx5_umr_exec(c->dev, &wr, 0), 0);
	KUNIT_EXPECT_EQ(test, iova_start(test, c, m->key),
			mr->addrs[0] + 8 + off);
	/* the peer's offsets are unchanged: the test path is start-relative */
	svc_check_layout(test, c->dev, m->key, (const struct svc_seg[]) {
		{ mr, 8 + off, 100 - off }, { mr, 2 * PAGE_SIZE, 60 },
	}, 2);

	/* without the flag the iova is left alone */
	wr.flags = MLX5_UMR_WR_SET_ACCESS;
	wr.iova = 1;
	KUNIT_ASSERT_EQ(test, mlx5_umr_map_sg(&wr, sge, 2, sgl, 2, &off,
					      caps->dma_lkey), 2);
	KUNIT_EXPECT_EQ(test, wr.iova, 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(m), 0);
}

static struct kunit_case iova_cases[] = {
	KUNIT_CASE(iova_rules),
	KUNIT_CASE(iova_wqe_bytes),
	KUNIT_CASE(iova_fake_addressing),
	KUNIT_CASE(iova_map_sg),
	{}
};

static struct kunit_suite iova_suite = {
	.name = "mlx5_umr_iova",
	.init = svc_init,
	.exit = svc_exit,
	.test_cases = iova_cases,
};

kunit_test_suite(iova_suite);

MODULE_DESCRIPTION("KUnit tests of the optional start address of an mkey");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
