// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: struct ib_sig_attrs as the service's block signature
 * (mlx5_umr_sig_attr_from_ib()). The expected attributes follow mlx5_ib's
 * reading of each field (drivers/infiniband/hw/mlx5/wr.c mlx5_set_bsf(),
 * mlx5_fill_inl_bsf(), bs_selector(); 6.1 and 6.12) and the ULPs that
 * fill them (nvme-rdma nvme_rdma_set_sig_domain(), iSER
 * iser_set_dif_domain()); never this translation's output.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/mlx5_umr.h>
#include <rdma/signature.h>

/* A T10-DIF domain as nvme-rdma fills it for a type 1 namespace. */
static void nvme_type1(struct ib_sig_domain *d, u16 interval, u32 ref)
{
	d->sig_type = IB_SIG_TYPE_T10_DIF;
	d->sig.dif.bg_type = IB_T10DIF_CRC;
	d->sig.dif.pi_interval = interval;
	d->sig.dif.ref_tag = ref;
	d->sig.dif.ref_remap = true;
	d->sig.dif.app_tag = 0x1234;
	d->sig.dif.apptag_check_mask = 0xffff;
	d->sig.dif.app_escape = true;
}

/* nvme-rdma's WRITE of a PI namespace: PI on the wire, none in memory. */
static void ib_sig_nvme_write(struct kunit *test)
{
	struct ib_sig_attrs ib = {
		.check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_REFTAG,
	};
	struct mlx5_umr_sig_attr a;

	memset(&a, 0xa5, sizeof(a));
	ib.mem.sig_type = IB_SIG_TYPE_NONE;
	nvme_type1(&ib.wire, 512, 0x01020304);
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_attr_from_ib(&ib, &a), 0);
	KUNIT_EXPECT_EQ(test, a.mem.sig_type, MLX5_UMR_SIG_NONE);
	KUNIT_EXPECT_EQ(test, a.mem.block_size, 0);
	KUNIT_EXPECT_EQ(test, a.wire.sig_type, MLX5_UMR_SIG_T10DIF);
	KUNIT_EXPECT_EQ(test, a.wire.dif.bg_type, MLX5_UMR_SIG_T10DIF_CRC);
	KUNIT_EXPECT_EQ(test, a.wire.dif.bg, 0);
	KUNIT_EXPECT_EQ(test, a.wire.dif.app_tag, 0x1234);
	KUNIT_EXPECT_EQ(test, a.wire.dif.ref_tag, 0x01020304);
	/* ref_remap: MLX5_BSF_INC_REFTAG; app_escape alone: APPTAG_ESCAPE */
	KUNIT_EXPECT_EQ(test, a.wire.dif.flags,
			MLX5_UMR_SIG_T10DIF_REF_REMAP |
			MLX5_UMR_SIG_T10DIF_APP_ESCAPE);
	KUNIT_EXPECT_EQ(test, a.wire.block_size, MLX5_UMR_SIG_BLOCK_512);
	/* basic->check_byte_mask = sig_attrs->check_mask */
	KUNIT_EXPECT_EQ(test, a.check_mask, 0xcf);
	KUNIT_EXPECT_EQ(test, a.flags, 0);
	KUNIT_EXPECT_EQ(test, a.copy_mask, 0);
}

/* iSER with PI in memory and on the wire, a type 3 escape, IP checksum. */
static void ib_sig_both_domains(struct kunit *test)
{
	struct ib_sig_attrs ib = { .check_mask = IB_SIG_CHECK_GUARD };
	struct mlx5_umr_sig_attr a;

	nvme_type1(&ib.mem, 4096, 7);
	ib.mem.sig.dif.bg_type = IB_T10DIF_CSUM;
	ib.mem.sig.dif.bg = 0xffff;
	ib.mem.sig.dif.ref_escape = true;
	nvme_type1(&ib.wire, 520, 9);
	ib.wire.sig.dif.ref_remap = false;
	ib.wire.sig.dif.app_escape = false;
	/* the app tag is not checked: its mask does not matter */
	ib.wire.sig.dif.apptag_check_mask = 0;
	ib.meta_length = 8;
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_attr_from_ib(&ib, &a), 0);
	KUNIT_EXPECT_EQ(test, a.mem.dif.bg_type, MLX5_UMR_SIG_T10DIF_CSUM);
	KUNIT_EXPECT_EQ(test, a.mem.dif.bg, 0xffff);
	KUNIT_EXPECT_EQ(test, a.mem.dif.flags,
			MLX5_UMR_SIG_T10DIF_REF_REMAP |
			MLX5_UMR_SIG_T10DIF_APP_REF_ESCAPE);
	KUNIT_EXPECT_EQ(test, a.mem.block_size, MLX5_UMR_SIG_BLOCK_4096);
	KUNIT_EXPECT_EQ(test, a.wire.dif.flags, 0);
	KUNIT_EXPECT_EQ(test, a.wire.dif.ref_tag, 9);
	KUNIT_EXPECT_EQ(test, a.wire.block_size, MLX5_UMR_SIG_BLOCK_520);
	KUNIT_EXPECT_EQ(test, a.check_mask, 0xc0);
}

/* mlx5_fill_inl_bsf(): ref_escape without app_escape escapes nothing. */
static void ib_sig_ref_escape_alone(struct kunit *test)
{
	struct ib_sig_attrs ib = {};
	struct mlx5_umr_sig_attr a;

	nvme_type1(&ib.wire, 4160, 0);
	ib.wire.sig.dif.app_escape = false;
	ib.wire.sig.dif.ref_escape = true;
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_attr_from_ib(&ib, &a), 0);
	KUNIT_EXPECT_EQ(test, a.wire.dif.flags, MLX5_UMR_SIG_T10DIF_REF_REMAP);
	KUNIT_EXPECT_EQ(test, a.wire.block_size, MLX5_UMR_SIG_BLOCK_4160);
}

/**
 * struct ib_sig_bad - an ib_sig_attrs the service cannot express
 * @what: the field changed from a valid nvme-rdma WRITE
 * @field: 0 sig_type, 1 bg_type, 2 pi_interval, 3 bg, 4 apptag mask
 * @val: its value
 * @err: the errno
 */
struct ib_sig_bad {
	const char *what;
	int field;
	u32 val;
	int err;
};

static const struct ib_sig_bad ib_sig_bad_rows[] = {
	{ "sig_type 2", 0, 2, -EINVAL },
	{ "bg_type 2", 1, 2, -EINVAL },
	{ "pi_interval 0", 2, 0, -EINVAL },
	{ "pi_interval 1024", 2, 1024, -EINVAL },
	{ "pi_interval 513", 2, 513, -EINVAL },
	{ "bg seed 1", 3, 1, -EINVAL },
	{ "bg seed 0xfffe", 3, 0xfffe, -EINVAL },
	{ "apptag_check_mask 0xff00, app tag checked", 4, 0xff00,
	  -EOPNOTSUPP },
	{ "apptag_check_mask 0, app tag checked", 4, 0, -EOPNOTSUPP },
};

static void ib_sig_bad_desc(const struct ib_sig_bad *r, char *desc)
{
	strscpy(desc, r->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ib_sig_bad, ib_sig_bad_rows, ib_sig_bad_desc);

static void ib_sig_bad(struct kunit *test)
{
	const struct ib_sig_bad *r = test->param_value;
	struct ib_sig_attrs ib = {
		.check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_APPTAG,
	};
	struct mlx5_umr_sig_attr a, was;

	nvme_type1(&ib.wire, 512, 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_sig_attr_from_ib(&ib, &a), 0);
	switch (r->field) {
	case 0:
		ib.wire.sig_type = r->val;
		break;
	case 1:
		ib.wire.sig.dif.bg_type = r->val;
		break;
	case 2:
		ib.wire.sig.dif.pi_interval = r->val;
		break;
	case 3:
		ib.wire.sig.dif.bg = r->val;
		break;
	default:
		ib.wire.sig.dif.apptag_check_mask = r->val;
		break;
	}
	memset(&a, 0x5a, sizeof(a));
	was = a;
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_attr_from_ib(&ib, &a), r->err);
	/* nothing is written on failure */
	KUNIT_EXPECT_EQ(test, memcmp(&a, &was, sizeof(a)), 0);
	/* the same domain in memory fails the same way */
	ib.mem = ib.wire;
	ib.wire.sig_type = IB_SIG_TYPE_NONE;
	KUNIT_EXPECT_EQ(test, mlx5_umr_sig_attr_from_ib(&ib, &a), r->err);
}

static struct kunit_case ib_sig_cases[] = {
	KUNIT_CASE(ib_sig_nvme_write),
	KUNIT_CASE(ib_sig_both_domains),
	KUNIT_CASE(ib_sig_ref_escape_alone),
	KUNIT_CASE_PARAM(ib_sig_bad, ib_sig_bad_gen_params),
	{}
};

static struct kunit_suite ib_sig_suite = {
	.name = "mlx5_umr_ib_sig",
	.test_cases = ib_sig_cases,
};

kunit_test_suite(ib_sig_suite);

MODULE_DESCRIPTION("mlx5-umr KUnit: ib_sig_attrs translation");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
