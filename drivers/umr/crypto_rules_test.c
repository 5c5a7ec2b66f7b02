// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the crypto request rules (rules.h, Documentation/validation.rst)
 * with their errnos: rules 53 to 58 on the attributes alone, and a table
 * of rules 58, 62 and 63 with the valid rows B, C, E, I, J on an mkey with
 * signature and crypto.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include "crypto_kunit.h"

/* Rules 53 to 58: each broken alone gives its errno. */
static void crypto_rules(struct kunit *test)
{
	struct mlx5_umr_dev *dev = (void *)0x1000, *other = (void *)0x2000;
	struct mlx5_umr_dek dek = { .dev = dev, .pdn = 7 };
	struct mlx5_umr_caps caps = { .crypto = true };
	struct mlx5_umr_crypto_attr ok = {
		.crypto_standard = MLX5_UMR_CRYPTO_STANDARD_AES_XTS,
		.signature_crypto_order =
			MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX,
		.data_unit_size = MLX5_UMR_BLOCK_SIZE_512,
		.dek = &dek,
	}, a;

	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev, 7), 0);
	caps.crypto = false;	/* rule 53 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev, 7),
			-EOPNOTSUPP);
	caps.crypto = true;	/* rule 54 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, NULL, dev, 7), -EINVAL);
	a = ok;
	a.crypto_standard = 1;	/* rule 55 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev, 7), -EINVAL);
	a = ok;
	a.signature_crypto_order = 2;	/* rule 56 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev, 7), -EINVAL);
	a = ok;
	a.data_unit_size = MLX5_UMR_BLOCK_SIZE_4160 + 1;	/* rule 57 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev, 7), -EINVAL);
	a = ok;
	a.dek = NULL;	/* rule 58 */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &a, dev, 7), -EINVAL);
	/* rule 58: a DEK of another device, of another PD */
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, other, 7),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5_umr_crypto_rules(&caps, &ok, dev,
						    MLX5_UMR_PDN_UNKNOWN),
			-EINVAL);
}

/**
 * struct pair_rule - one row of the rules on an mkey with both
 * @name: what breaks
 * @flags: MLX5_UMR_WR_* besides SET_CRYPTO
 * @tx: encrypt_on_tx
 * @after: SIGNATURE_AFTER_CRYPTO_ON_TX, else BEFORE
 * @mem: the memory domain has a T10-DIF signature
 * @wire: the wire domain has one
 * @pdn: SET_PD's PD, with MLX5_UMR_WR_SET_PD
 * @mkey_pdn: the PD the mkey is in
 * @repeat: 0: a list of one SGE; else an interleaved layout of one 4096
 *	byte entry, this many times
 * @err: the errno
 */
struct pair_rule {
	const char *name;
	u32 flags;
	bool tx, after, mem, wire;
	u32 pdn, mkey_pdn, repeat;
	int err;
};

#define SETSIG	MLX5_UMR_WR_SET_SIG
static const struct pair_rule pair_rules[] = {
	{ "C: tx, before, wire", SETSIG, true, false, false, true,
	  0, PAIR_PDN, 0, 0 },
	{ "E: tx, before, both", SETSIG, true, false, true, true,
	  0, PAIR_PDN, 0, 0 },
	{ "I: rx, after, both", SETSIG, false, true, true, true,
	  0, PAIR_PDN, 0, 0 },
	{ "B: raw wire, wire only", SETSIG, true, true, false, true,
	  0, PAIR_PDN, 0, 0 },
	{ "J: raw memory, memory only", SETSIG, false, false, true, false,
	  0, PAIR_PDN, 0, 0 },
	{ "rule 62: raw wire, both", SETSIG, true, true, true, true,
	  0, PAIR_PDN, 0, -EINVAL },
	{ "rule 62: raw memory, both", SETSIG, false, false, true, true,
	  0, PAIR_PDN, 0, -EINVAL },
	{ "raw wire, both, reset", MLX5_UMR_WR_RESET_SIG, true, true, true,
	  true, 0, PAIR_PDN, 0, 0 },
	{ "rule 58: DEK of another PD", SETSIG, true, false, false, true,
	  0, PAIR_PDN + 1, 0, -EINVAL },
	{ "rule 58: PD unknown after a failed move", SETSIG, true, false, false,
	  true, 0, MLX5_UMR_PDN_UNKNOWN, 0, -EINVAL },
	{ "rule 58: moved to the DEK's PD", SETSIG | MLX5_UMR_WR_SET_PD, true,
	  false, false, true, PAIR_PDN, PAIR_PDN + 1, 0, 0 },
	{ "rule 58: moved away from the DEK's PD", SETSIG | MLX5_UMR_WR_SET_PD,
	  true, false, false, true, PAIR_PDN + 1, PAIR_PDN, 0, -EINVAL },
	{ "4 GiB - 4096 bytes", SETSIG, true, false, false, true,
	  0, PAIR_PDN, 0xfffff, 0 },
	{ "rule 63: 4 GiB", SETSIG, true, false, false, true,
	  0, PAIR_PDN, 0x100000, -EINVAL },
	{ "rule 63: 4 GiB, no signature set", 0, true, false, false, false,
	  0, PAIR_PDN, 0x100000, -EINVAL },
};

static void pair_rule_desc(const struct pair_rule *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crypto_pair_rule, pair_rules, pair_rule_desc);

static void crypto_pair_rule(struct kunit *test)
{
	const struct pair_rule *r = test->param_value;
	struct pt *p = pt_new(test, r->flags);
	struct mlx5_umr_sig_attr sig = pair_sig;
	struct mlx5_umr_interleaved il = {
		.addr = 0x10000, .bytes_count = 4096, .key = 0x777,
	};

	if (r->mem)
		sig.mem = sig.wire;
	if (!r->wire)
		sig.wire = (struct mlx5_umr_sig_domain) {};
	p->wr.sig = &sig;
	p->ca.encrypt_on_tx = r->tx;
	p->ca.signature_crypto_order = r->after ?
		MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX :
		MLX5_UMR_SIG_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX;
	p->wr.pdn = r->pdn;
	p->mkey.pdn = r->mkey_pdn;
	if (r->repeat) {
		p->wr.layout = MLX5_UMR_LAYOUT_INTERLEAVED;
		p->wr.interleaved.ent = &il;
		p->wr.interleaved.num_entries = 1;
		p->wr.interleaved.repeat_count = r->repeat;
	}
	KUNIT_EXPECT_EQ(test, mlx5_umr_wr_check(&p->caps, &p->wr), r->err);
}

static struct kunit_case crypto_rules_cases[] = {
	KUNIT_CASE(crypto_rules),
	KUNIT_CASE_PARAM(crypto_pair_rule, crypto_pair_rule_gen_params),
	{}
};

static struct kunit_suite crypto_rules_suite = {
	.name = "mlx5_umr_crypto_rules",
	.test_cases = crypto_rules_cases,
};

kunit_test_suite(crypto_rules_suite);

MODULE_DESCRIPTION("KUnit tests of the crypto request rules");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
