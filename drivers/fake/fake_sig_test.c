// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the fake HCA's signature engine. Signature mkeys are configured
 * with UMR WQEs whose BSFs are built by hand (fake_sig_kunit.h), then RDMA
 * READs and WRITEs through them must move, insert, strip, check and report
 * protection information as Documentation/fake.rst, "Signature", says.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/crc-t10dif.h>
#include <linux/crc32.h>
#include <linux/module.h>
#include <linux/mlx5_umr_compat.h>

#include "fake_sig_kunit.h"

#define NBLK	4
#define BS	512
#define VA1	0x100000ULL
#define VA2	0x200000ULL
#define MR_SIZE	(2 * PAGE_SIZE)
#define MAXKEYS	8

struct fs {
	struct ft *ft;
	struct ft_umr *w;
	struct mlx5_umr_dma_buf b1, b2;
	u32 mr1, mr2;
	u32 mpsv, wpsv;
	u32 keys[MAXKEYS];
	unsigned int nkeys;
	u8 *data;	/* NBLK * BS bytes of data */
	u8 *wire;	/* NBLK blocks in a wire format */
	u8 *tmp;
};

static struct fs *fs_setup(struct kunit *test)
{
	struct fs *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->ft = ft_setup(test, MLX5_UMR_FAKE_F_SYNC, NULL, 6, 6);
	f->w = kunit_kzalloc(test, sizeof(*f->w), GFP_KERNEL);
	f->data = kunit_kzalloc(test, NBLK * BS, GFP_KERNEL);
	f->wire = kunit_kzalloc(test, MR_SIZE, GFP_KERNEL);
	f->tmp = kunit_kzalloc(test, MR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->w);
	KUNIT_ASSERT_NOT_NULL(test, f->data);
	KUNIT_ASSERT_NOT_NULL(test, f->wire);
	KUNIT_ASSERT_NOT_NULL(test, f->tmp);
	for (i = 0; i < NBLK * BS; i++)
		f->data[i] = i * 13 + 5 + (i >> 9);
	f->mr1 = ft_mr(f->ft, &f->b1, MR_SIZE, VA1, FT_LW);
	f->mr2 = ft_mr(f->ft, &f->b2, MR_SIZE, VA2, FT_LW);
	memset(f->b1.cpu, 0xee, MR_SIZE);
	memset(f->b2.cpu, 0xee, MR_SIZE);
	f->mpsv = ft_psv(f->ft);
	f->wpsv = ft_psv(f->ft);
	return f;
}

static void fs_teardown(struct fs *f)
{
	struct mlx5_umr_hca *hca = f->ft->hca;

	while (f->nkeys)
		ft_del_mkey(f->ft, f->keys[--f->nkeys]);
	ft_del_mkey(f->ft, f->mr1);
	ft_del_mkey(f->ft, f->mr2);
	hca->ops->free_dma_buf(hca, &f->b1);
	hca->ops->free_dma_buf(hca, &f->b2);
	ft_destroy_psv(f->ft, f->mpsv);
	ft_destroy_psv(f->ft, f->wpsv);
	ft_teardown(f->ft);
}

/* A signature mkey over NBLK memory blocks of @mr (1 or 2) with @bsf. */
static u32 fs_key_bsf(struct fs *f, int mr, u32 mem_pi,
		      const struct mlx5_bsf *bsf)
{
	u32 key = fs_sig_mkey(f->ft);
	size_t size;

	KUNIT_ASSERT_LT(f->ft->test, f->nkeys, MAXKEYS);
	f->keys[f->nkeys++] = key;
	size = fs_sig_umr(f->w, key, mr == 1 ? f->mr1 : f->mr2,
			  mr == 1 ? VA1 : VA2, NBLK * (BS + mem_pi), bsf);
	ft_umr_ok(f->ft, f->w, size);
	return key;
}

static u32 fs_key(struct fs *f, int mr, const struct fs_dom *mem,
		  const struct fs_dom *wire)
{
	struct mlx5_bsf bsf;

	fs_bsf(&bsf, mem, f->mpsv, wire, f->wpsv);
	return fs_key_bsf(f, mr, fs_pi(mem->kind), &bsf);
}

/* An RDMA READ (write: WRITE) through @key; expects success. */
static void fs_xfer(struct fs *f, u32 key, u64 off, void *buf, size_t len,
		    bool write, struct mlx5_umr_test_xfer_out *out)
{
	KUNIT_ASSERT_EQ(f->ft->test,
			mlx5_umr_fake_xfer_out(f->ft->fake, key, off, buf, len,
					       write, true, out), 0);
}

static void fs_set_psv(struct fs *f, u32 psvn)
{
	struct {
		struct mlx5_wqe_ctrl_seg ctrl;
		struct mlx5_seg_set_psv psv;
	} w = {};

	w.psv.psv_num = cpu_to_be32(psvn);
	ft_post_ok(f->ft, &w, sizeof(w), MLX5_OPCODE_SET_PSV);
}

static const char * const fs_kind_name[] = {
	"none", "dif-crc", "dif-ipcs", "crc32", "crc32c", "crc64",
};

static void fs_mem_dom(struct fs_dom *d, u8 kind)
{
	*d = (struct fs_dom){ .kind = kind, .seed = true, .inc = true,
			      .app = 0x1111, .ref = 0x100, .app_mask = 0xffff };
}

static void fs_wire_dom(struct fs_dom *d, u8 kind)
{
	*d = (struct fs_dom){ .kind = kind, .seed = false, .inc = true,
			      .app = 0x2222, .ref = 0x2000,
			      .app_mask = 0xffff };
}

/* ---- round trips through every pair of domains ---- */

struct fs_pair {
	u8 mem;
	u8 wire;
};

static struct fs_pair fs_pairs[FS_NKINDS * FS_NKINDS];

static const void *fs_pair_gen(const void *prev, char *desc)
{
	const struct fs_pair *p = prev ? (const struct fs_pair *)prev + 1 :
					 fs_pairs;
	unsigned int i;

	if (!prev)
		for (i = 0; i < ARRAY_SIZE(fs_pairs); i++) {
			fs_pairs[i].mem = i / FS_NKINDS;
			fs_pairs[i].wire = i % FS_NKINDS;
		}
	if (p >= fs_pairs + ARRAY_SIZE(fs_pairs))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "mem=%s wire=%s",
		 fs_kind_name[p->mem], fs_kind_name[p->wire]);
	return p;
}

static void fs_expect_dif(struct kunit *test, const u8 *pi, u16 app, u32 ref)
{
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(pi + 2), app);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(pi + 4), ref);
}

/*
 * Data written plainly into the memory domain M (PI inserted), read
 * through M/W (M checked, W generated), written through none/W elsewhere
 * (W checked and stripped) and through M/W back (W checked, M generated):
 * the data survives, the PIs agree, no check fails, and the tags are those
 * of each domain (remapped, incremented per block).
 */
static void fake_sig_round_trip(struct kunit *test)
{
	const struct fs_pair *p = test->param_value;
	struct mlx5_umr_test_xfer_out out;
	struct fs *f = fs_setup(test);
	struct fs_dom mem, wire, none = {};
	u32 pm = fs_pi(p->mem), pw = fs_pi(p->wire);
	u32 a, b, c, i;
	u8 *saved;

	fs_mem_dom(&mem, p->mem);
	fs_wire_dom(&wire, p->wire);
	a = fs_key(f, 1, &mem, &none);
	b = fs_key(f, 1, &mem, &wire);
	c = fs_key(f, 2, &none, &wire);

	fs_xfer(f, a, 0, f->data, NBLK * BS, true, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	for (i = 0; i < NBLK; i++) {
		u8 *m = (u8 *)f->b1.cpu + i * (BS + pm);

		KUNIT_EXPECT_EQ(test, memcmp(m, f->data + i * BS, BS), 0);
		if (p->mem == FS_DIF_CRC || p->mem == FS_DIF_IPCS)
			fs_expect_dif(test, m + BS, 0x1111, 0x100 + i);
	}

	fs_xfer(f, b, 0, f->wire, NBLK * (BS + pw), false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	for (i = 0; i < NBLK; i++) {
		u8 *w = f->wire + i * (BS + pw);

		KUNIT_EXPECT_EQ(test, memcmp(w, f->data + i * BS, BS), 0);
		if (p->wire == FS_DIF_CRC || p->wire == FS_DIF_IPCS)
			fs_expect_dif(test, w + BS, 0x2222, 0x2000 + i);
	}

	fs_xfer(f, c, 0, f->wire, NBLK * (BS + pw), true, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(f->b2.cpu, f->data, NBLK * BS), 0);

	saved = kunit_kmalloc(test, NBLK * (BS + pm), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, saved);
	memcpy(saved, f->b1.cpu, NBLK * (BS + pm));
	memset(f->b1.cpu, 0x5a, NBLK * (BS + pm));
	fs_xfer(f, b, 0, f->wire, NBLK * (BS + pw), true, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(f->b1.cpu, saved, NBLK * (BS + pm)), 0);

	memset(f->tmp, 0, NBLK * BS);
	fs_xfer(f, a, 0, f->tmp, NBLK * BS, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(f->tmp, f->data, NBLK * BS), 0);
	/* no check failed anywhere: both PSVs still armed */
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_psv(f->ft->fake, f->mpsv,
						      NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_psv(f->ft->fake, f->wpsv,
						      NULL, NULL), 0);
	fs_teardown(f);
}

/* ---- PI values hardware computed ---- */

/*
 * One 512-byte block of 0xa5 and the PI a ConnectX HCA stores for it,
 * from the Mellanox verbs gtest mkey_test_sig_block (type list
 * "sig_types"): T10-DIF type 1 with bg 0xffff -> guard 0xec7d, bg 0 ->
 * 0x9ec6 (app 0x5678, ref 0xf0debc9a); CRC32 0x699aca21, CRC32C
 * 0x4207e6b4, CRC64-XP10 0x8c8adb450cce85aa, each with rdma-core seed all
 * ones, i.e. the BFS seed bit clear (rdma-core mlx5_umr_crc_bfs()).
 */
struct fs_hw {
	const char *name;
	u8 kind;
	bool seed;
	u8 pi[8];
};

static const struct fs_hw fs_hw_cases[] = {
	{ "dif-crc bg ffff", FS_DIF_CRC, true,
	  { 0xec, 0x7d, 0x56, 0x78, 0xf0, 0xde, 0xbc, 0x9a } },
	{ "dif-crc bg 0", FS_DIF_CRC, false,
	  { 0x9e, 0xc6, 0x56, 0x78, 0xf0, 0xde, 0xbc, 0x9a } },
	{ "crc32", FS_CRC32, false, { 0x69, 0x9a, 0xca, 0x21 } },
	{ "crc32c", FS_CRC32C, false, { 0x42, 0x07, 0xe6, 0xb4 } },
	{ "crc64-xp10", FS_CRC64, false,
	  { 0x8c, 0x8a, 0xdb, 0x45, 0x0c, 0xce, 0x85, 0xaa } },
};

static void fs_hw_desc(const struct fs_hw *h, char *desc)
{
	strscpy(desc, h->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fs_hw, fs_hw_cases, fs_hw_desc);

/* The PI generated in either domain is the one hardware generated. */
static void fake_sig_hw_values(struct kunit *test)
{
	const struct fs_hw *h = test->param_value;
	struct mlx5_umr_test_xfer_out out;
	struct fs *f = fs_setup(test);
	struct fs_dom d = { .kind = h->kind, .seed = h->seed, .app = 0x5678,
			    .ref = 0xf0debc9a, .app_mask = 0xffff };
	struct fs_dom none = {};
	u32 pi = fs_pi(h->kind), ins, mem;

	memset(f->data, 0xa5, NBLK * BS);
	/* insertion on the wire (memory -> wire) */
	memcpy(f->b2.cpu, f->data, NBLK * BS);
	ins = fs_key(f, 2, &none, &d);
	fs_xfer(f, ins, 0, f->wire, BS + pi, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(f->wire + BS, h->pi, pi), 0);
	/* generation in memory (wire -> memory) */
	mem = fs_key(f, 1, &d, &none);
	fs_xfer(f, mem, 0, f->data, BS, true, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp((u8 *)f->b1.cpu + BS, h->pi, pi), 0);
	fs_teardown(f);
}

/* ---- failed checks ---- */

/*
 * A SIG_ERR CQE of @key: its syndrome, offset, and bytes 34-35 (signature
 * type 0, block; domain 1 memory or 0 wire: rdma-core verbs.c
 * MLX5_SIGERR_CQE_*) when the profile's device writes them, else zero.
 */
static void fs_expect_cqe_dom(struct kunit *test,
			      const struct mlx5_umr_test_xfer_out *out,
			      u32 key, u16 synd, u64 off, bool wire)
{
	const u8 *b = (const u8 *)&out->cqe;

	KUNIT_ASSERT_TRUE(test, out->sig_err);
	KUNIT_EXPECT_EQ(test, out->cqe.op_own >> 4, MLX5_CQE_SIG_ERR);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out->cqe.syndrome), synd);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out->cqe.mkey), key);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(out->cqe.err_offset), off);
	KUNIT_EXPECT_EQ(test, b[34], 0);
	KUNIT_EXPECT_EQ(test, b[35], umr_kunit_sig_err_domain() && !wire);
}

/* A read's input is the memory domain. */
static void fs_expect_cqe(struct kunit *test,
			  const struct mlx5_umr_test_xfer_out *out, u32 key,
			  u16 synd, u64 off)
{
	fs_expect_cqe_dom(test, out, key, synd, off, false);
}

static void fs_arm(struct fs *f, u32 key, u8 count)
{
	ft_umr_ok(f->ft, f->w, fs_arm_umr(f->w, key, count));
}

#define SYND_GUARD	BIT(13)	/* mlx5_ib cq.c get_sig_err_item() */
#define SYND_APP	BIT(12)
#define SYND_REF	BIT(11)

/*
 * Memory T10-DIF, nothing on the wire: a flipped data byte, a wrong ref tag
 * and a wrong app tag are each reported with their type, the values
 * expected (computed or configured) and actual (found in the PI), and the
 * offset of the failing block's last byte; the data still moves. The PSV
 * stays in error (no second CQE) until SET_PSV, and the mkey is disarmed
 * until a UMR flips its expected_sigerr_count.
 */
static void fake_sig_read_errors(struct kunit *test)
{
	struct mlx5_umr_test_xfer_out out, again;
	struct fs *f = fs_setup(test);
	struct fs_dom mem, none = {};
	struct mlx5_sig_err_cqe latched;
	u8 *m = f->b1.cpu, *blk;
	u16 guard, calc;
	u32 key;

	fs_mem_dom(&mem, FS_DIF_CRC);
	key = fs_key(f, 1, &mem, &none);
	fs_xfer(f, key, 0, f->data, NBLK * BS, true, &out);
	KUNIT_ASSERT_FALSE(test, out.sig_err);

	/* a flipped data byte in block 2: guard */
	blk = m + 2 * (BS + 8);
	blk[17] ^= 0x40;
	guard = get_unaligned_be16(blk + BS);
	calc = crc_t10dif_update(0xffff, blk, BS);
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &out);
	fs_expect_cqe(test, &out, key, SYND_GUARD, 3 * (BS + 8) - 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.expected_trans_sig),
			(u32)calc << 16 | 0x1111);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.actual_trans_sig),
			(u32)guard << 16 | 0x1111);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.expected_reftag), 0x102U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.actual_reftag), 0x102U);
	/* the data moved anyway, the corrupted byte included */
	KUNIT_EXPECT_EQ(test, f->tmp[2 * BS + 17], f->data[2 * BS + 17] ^ 0x40);
	KUNIT_EXPECT_EQ(test, memcmp(f->tmp, f->data, 2 * BS), 0);
	/* latched: the PSV keeps the error, a second failure adds no CQE */
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_psv(f->ft->fake, f->mpsv,
						      NULL, &latched), 1);
	KUNIT_EXPECT_EQ(test, memcmp(&latched, &out.cqe, sizeof(latched)), 0);
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &again);
	KUNIT_EXPECT_FALSE(test, again.sig_err);
	/*
	 * SET_PSV and the count flipped re-arm it; the same failure is
	 * reported again
	 */
	fs_set_psv(f, f->mpsv);
	fs_arm(f, key, 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_psv(f->ft->fake, f->mpsv,
						      NULL, NULL), 0);
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &again);
	fs_expect_cqe(test, &again, key, SYND_GUARD, 3 * (BS + 8) - 1);
	blk[17] ^= 0x40;
	fs_set_psv(f, f->mpsv);
	fs_arm(f, key, 1);

	/* a wrong reference tag in block 1 */
	blk = m + 1 * (BS + 8);
	put_unaligned_be32(0x0bad, blk + BS + 4);
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &out);
	fs_expect_cqe(test, &out, key, SYND_REF, 2 * (BS + 8) - 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.expected_reftag), 0x101U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.actual_reftag), 0x0badU);
	put_unaligned_be32(0x101, blk + BS + 4);
	fs_set_psv(f, f->mpsv);
	fs_arm(f, key, 0);

	/* a wrong application tag in block 3 */
	blk = m + 3 * (BS + 8);
	put_unaligned_be16(0x1112, blk + BS + 2);
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &out);
	fs_expect_cqe(test, &out, key, SYND_APP, 4 * (BS + 8) - 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.expected_trans_sig) & 0xffff,
			0x1111U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.actual_trans_sig) & 0xffff,
			0x1112U);
	put_unaligned_be16(0x1111, blk + BS + 2);
	fs_set_psv(f, f->mpsv);
	fs_arm(f, key, 1);

	/* everything repaired: clean again */
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	fs_teardown(f);
}

/*
 * Wire T10-DIF into plain memory: the wire PI is checked (offset in the
 * wire view, the wire PSV in error), the data is written all the same.
 * A CRC32C memory domain reports a flipped byte as a guard error with the
 * PI bytes read big endian.
 */
static void fake_sig_write_and_crc_errors(struct kunit *test)
{
	struct mlx5_umr_test_xfer_out out;
	struct fs *f = fs_setup(test);
	struct fs_dom wire, crc, none = {};
	u32 gen, key, crckey;
	u8 *m;

	fs_wire_dom(&wire, FS_DIF_CRC);
	gen = fs_key(f, 1, &none, &wire);
	key = fs_key(f, 2, &none, &wire);
	memcpy(f->b1.cpu, f->data, NBLK * BS);
	fs_xfer(f, gen, 0, f->wire, NBLK * (BS + 8), false, &out);
	KUNIT_ASSERT_FALSE(test, out.sig_err);
	f->wire[1 * (BS + 8) + BS] ^= 0x01;	/* block 1's guard */
	fs_xfer(f, key, 0, f->wire, NBLK * (BS + 8), true, &out);
	fs_expect_cqe_dom(test, &out, key, SYND_GUARD, 2 * (BS + 8) - 1, true);
	KUNIT_EXPECT_EQ(test, memcmp(f->b2.cpu, f->data, NBLK * BS), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_psv(f->ft->fake, f->wpsv,
						      NULL, NULL), 1);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_psv(f->ft->fake, f->mpsv,
						      NULL, NULL), 0);

	fs_mem_dom(&crc, FS_CRC32C);
	crckey = fs_key(f, 1, &crc, &none);
	fs_xfer(f, crckey, 0, f->data, NBLK * BS, true, &out);
	KUNIT_ASSERT_FALSE(test, out.sig_err);
	m = f->b1.cpu;
	m[0] ^= 0x80;
	fs_xfer(f, crckey, 0, f->tmp, NBLK * BS, false, &out);
	fs_expect_cqe(test, &out, crckey, SYND_GUARD, (BS + 4) - 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.actual_trans_sig),
			get_unaligned_be32(m + BS));
	/* CRC32C goes into the PI little endian (rdma-core's test vectors) */
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.expected_trans_sig),
			swab32(~__crc32c_le(~0U, m, BS)));
	fs_teardown(f);
}

/*
 * The SIG_ERR CQE goes out only while the mkey is armed: never armed (the
 * UMR left expected_sigerr_count 0), or armed with the count of the last
 * reported error, a failed check is silent although the PSV goes into
 * error; flipping the count (and SET_PSV) re-arms it.
 */
static void fake_sig_arming(struct kunit *test)
{
	struct mlx5_umr_test_xfer_out out;
	struct fs *f = fs_setup(test);
	struct fs_dom mem, none = {};
	struct mlx5_bsf bsf;
	u32 key = fs_sig_mkey(f->ft);
	size_t size;

	f->keys[f->nkeys++] = key;
	fs_mem_dom(&mem, FS_DIF_CRC);
	fs_bsf(&bsf, &mem, f->mpsv, &none, f->wpsv);
	size = fs_sig_umr(f->w, key, f->mr1, VA1, NBLK * (BS + 8), &bsf);
	/* as the service before it armed: no EN_SIGERR, no count */
	f->w->uc.mkey_mask &= ~cpu_to_be64(MLX5_MKEY_MASK_EN_SIGERR);
	MLX5_SET(mkc, &f->w->mkey, expected_sigerr_count, 0);
	ft_umr_ok(f->ft, f->w, size);
	fs_xfer(f, key, 0, f->data, NBLK * BS, true, &out);
	KUNIT_ASSERT_FALSE(test, out.sig_err);
	((u8 *)f->b1.cpu)[5] ^= 1;
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_query_psv(f->ft->fake, f->mpsv,
						      NULL, NULL), 1);

	/* armed (count 1): reported once */
	fs_set_psv(f, f->mpsv);
	fs_arm(f, key, 1);
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &out);
	fs_expect_cqe(test, &out, key, SYND_GUARD, BS + 8 - 1);
	/* SET_PSV alone leaves it disarmed: the count is stale */
	fs_set_psv(f, f->mpsv);
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	fs_set_psv(f, f->mpsv);
	fs_arm(f, key, 1);
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	/* the count flipped: armed again */
	fs_set_psv(f, f->mpsv);
	fs_arm(f, key, 0);
	fs_xfer(f, key, 0, f->tmp, NBLK * BS, false, &out);
	fs_expect_cqe(test, &out, key, SYND_GUARD, BS + 8 - 1);
	fs_teardown(f);
}

/* ---- escapes, check masks, copy masks ---- */

/*
 * T10 escapes: with APPTAG_ESCAPE a block whose app tag is 0xffff is not
 * checked at all; with APPREF_ESCAPE only when the ref tag is also
 * 0xffffffff; without an escape it is.
 */
static void fake_sig_escapes(struct kunit *test)
{
	struct mlx5_umr_test_xfer_out out;
	struct fs *f = fs_setup(test);
	struct fs_dom mem, none = {};
	u32 plain, app_esc, ref_esc;
	u8 *pi;

	fs_mem_dom(&mem, FS_DIF_CRC);
	plain = fs_key(f, 1, &mem, &none);
	mem.esc = MLX5_BSF_APPTAG_ESCAPE;
	app_esc = fs_key(f, 1, &mem, &none);
	mem.esc = MLX5_BSF_APPREF_ESCAPE;
	ref_esc = fs_key(f, 1, &mem, &none);
	fs_xfer(f, plain, 0, f->data, NBLK * BS, true, &out);
	KUNIT_ASSERT_FALSE(test, out.sig_err);

	pi = (u8 *)f->b1.cpu + (BS + 8) + BS;	/* block 1 */
	put_unaligned_be16(0xffff, pi + 2);
	pi[0] ^= 0xff;
	fs_xfer(f, app_esc, 0, f->tmp, NBLK * BS, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	/* the ref tag is not 0xffffffff: checked, and only it is right */
	fs_xfer(f, ref_esc, 0, f->tmp, NBLK * BS, false, &out);
	fs_expect_cqe(test, &out, ref_esc, SYND_GUARD | SYND_APP,
		      2 * (BS + 8) - 1);
	fs_set_psv(f, f->mpsv);
	put_unaligned_be32(0xffffffff, pi + 4);
	fs_xfer(f, ref_esc, 0, f->tmp, NBLK * BS, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	fs_xfer(f, plain, 0, f->tmp, NBLK * BS, false, &out);
	fs_expect_cqe(test, &out, plain, SYND_GUARD | SYND_APP | SYND_REF,
		      2 * (BS + 8) - 1);
	fs_teardown(f);
}

/*
 * The check mask selects PI bytes (bit 7 - n for byte n), the app bit
 * mask app tag bits; with the same block structure the copy mask carries
 * input PI bytes to the output unchanged.
 */
static void fake_sig_masks(struct kunit *test)
{
	struct mlx5_umr_test_xfer_out out;
	struct fs *f = fs_setup(test);
	struct fs_dom mem, wire, none = {};
	struct mlx5_bsf bsf;
	u32 gen, noguard, lowapp, copy;
	u8 *pi;

	fs_mem_dom(&mem, FS_DIF_CRC);
	fs_wire_dom(&wire, FS_DIF_CRC);
	gen = fs_key(f, 1, &mem, &none);
	fs_bsf(&bsf, &mem, f->mpsv, &none, 0);
	bsf.basic.check_byte_mask = 0x3f;	/* no guard bytes */
	noguard = fs_key_bsf(f, 1, 8, &bsf);
	fs_bsf(&bsf, &mem, f->mpsv, &none, 0);
	bsf.m_inl.dif_app_bitmask_check = cpu_to_be16(0x00ff);
	lowapp = fs_key_bsf(f, 1, 8, &bsf);
	fs_bsf(&bsf, &mem, f->mpsv, &wire, f->wpsv);
	bsf.basic.bsf_size_sbs |= FS_BSF_SBS;
	bsf.basic.wire.copy_byte_mask = 0x3f;	/* app and ref copied */
	copy = fs_key_bsf(f, 1, 8, &bsf);

	fs_xfer(f, gen, 0, f->data, NBLK * BS, true, &out);
	KUNIT_ASSERT_FALSE(test, out.sig_err);
	((u8 *)f->b1.cpu)[5] ^= 1;
	fs_xfer(f, noguard, 0, f->tmp, NBLK * BS, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	((u8 *)f->b1.cpu)[5] ^= 1;

	pi = (u8 *)f->b1.cpu + BS;
	put_unaligned_be16(0x4411, pi + 2);	/* high byte differs */
	fs_xfer(f, lowapp, 0, f->tmp, NBLK * BS, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	put_unaligned_be16(0x1144, pi + 2);	/* low byte differs */
	fs_xfer(f, lowapp, 0, f->tmp, NBLK * BS, false, &out);
	fs_expect_cqe(test, &out, lowapp, SYND_APP, BS + 8 - 1);
	fs_set_psv(f, f->mpsv);
	put_unaligned_be16(0x1111, pi + 2);

	/* copied: the memory's tags on the wire, the wire's guard seed */
	fs_xfer(f, copy, 0, f->wire, NBLK * (BS + 8), false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	fs_expect_dif(test, f->wire + BS, 0x1111, 0x100);
	fs_expect_dif(test, f->wire + (BS + 8) + BS, 0x1111, 0x101);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(f->wire + BS),
			crc_t10dif_update(0, f->data, BS));
	fs_teardown(f);
}

/* ---- what the fake refuses ---- */

struct fs_rej {
	const char *name;
	void (*mut)(struct mlx5_bsf *b, u32 *mpsv);
	u8 synd;
	u8 vsynd;
};

static void rej_basic_size(struct mlx5_bsf *b, u32 *p)
{
	b->basic.bsf_size_sbs = 0;
}

static void rej_crypto_size(struct mlx5_bsf *b, u32 *p)
{
	b->basic.bsf_size_sbs = 3 << 6;
}

static void rej_reserved_size_bits(struct mlx5_bsf *b, u32 *p)
{
	b->basic.bsf_size_sbs |= 1;
}

static void rej_dif_type(struct mlx5_bsf *b, u32 *p)
{
	b->m_inl.sig_type = 3;
}

static void rej_escape_both(struct mlx5_bsf *b, u32 *p)
{
	b->m_inl.dif_inc_ref_guard_check |= 3;
}

static void rej_no_repeat(struct mlx5_bsf *b, u32 *p)
{
	b->m_inl.rp_inv_seed = 0;
}

static void rej_bs_zero(struct mlx5_bsf *b, u32 *p)
{
	b->basic.mem.bs_selector = 0;
}

static void rej_bs_1g(struct mlx5_bsf *b, u32 *p)
{
	b->basic.mem.bs_selector = 5;
	b->basic.wire.bs_selector = 5;
}

static void rej_psv_unknown(struct mlx5_bsf *b, u32 *p)
{
	b->basic.m_bfs_psv = cpu_to_be32(*p + 1000);
}

static void rej_crc_unknown(struct mlx5_bsf *b, u32 *p)
{
	u32 psvn = be32_to_cpu(b->basic.w_bfs_psv) & 0xffffff;

	b->basic.w_bfs_psv = cpu_to_be32((0x30 | FS_BFS_REPEAT) << 24 | psvn);
}

static void rej_crc_no_repeat(struct mlx5_bsf *b, u32 *p)
{
	b->basic.w_bfs_psv &= ~cpu_to_be32(FS_BFS_REPEAT << 24);
}

static void rej_crc_and_inline(struct mlx5_bsf *b, u32 *p)
{
	b->w_inl = b->m_inl;
}

static void rej_sbs_mixed(struct mlx5_bsf *b, u32 *p)
{
	b->basic.bsf_size_sbs |= FS_BSF_SBS;	/* T10-DIF and CRC32C */
}

static void rej_transaction(struct mlx5_bsf *b, u32 *p)
{
	b->ext.m_tfs_psv = cpu_to_be32(*p);
}

#define REJ(n, s, v) { #n, rej_##n, MLX5_CQE_SYNDROME_##s, \
		       MLX5_UMR_FAKE_VS_##v }

static const struct fs_rej fs_rej_cases[] = {
	REJ(basic_size, LOCAL_QP_OP_ERR, BSF_BAD),
	REJ(crypto_size, LOCAL_QP_OP_ERR, BSF_BAD),
	REJ(reserved_size_bits, LOCAL_QP_OP_ERR, BSF_BAD),
	REJ(dif_type, LOCAL_QP_OP_ERR, BSF_BAD),
	REJ(escape_both, LOCAL_QP_OP_ERR, BSF_BAD),
	REJ(no_repeat, LOCAL_QP_OP_ERR, BSF_UNSUPPORTED),
	REJ(bs_zero, LOCAL_QP_OP_ERR, BSF_BAD),
	REJ(bs_1g, LOCAL_QP_OP_ERR, BSF_UNSUPPORTED),
	REJ(psv_unknown, LOCAL_PROT_ERR, PSV_UNKNOWN),
	REJ(crc_unknown, LOCAL_QP_OP_ERR, BSF_BAD),
	REJ(crc_no_repeat, LOCAL_QP_OP_ERR, BSF_UNSUPPORTED),
	REJ(crc_and_inline, LOCAL_QP_OP_ERR, BSF_BAD),
	REJ(sbs_mixed, LOCAL_QP_OP_ERR, BSF_BAD),
	REJ(transaction, LOCAL_QP_OP_ERR, BSF_UNSUPPORTED),
};

static void fs_rej_desc(const struct fs_rej *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fs_rej, fs_rej_cases, fs_rej_desc);

/* A UMR whose BSF the fake refuses fails and leaves the mkey alone. */
static void fake_sig_bsf_refused(struct kunit *test)
{
	const struct fs_rej *r = test->param_value;
	struct fs *f = fs_setup(test);
	struct fs_dom mem, wire;
	struct mlx5_bsf bsf;
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)], got[64];
	u32 key = fs_sig_mkey(f->ft);
	size_t size;

	fs_mem_dom(&mem, FS_DIF_CRC);
	fs_wire_dom(&wire, FS_CRC32C);
	fs_bsf(&bsf, &mem, f->mpsv, &wire, f->wpsv);
	r->mut(&bsf, &f->mpsv);
	size = fs_sig_umr(f->w, key, f->mr1, VA1, NBLK * (BS + 8), &bsf);
	ft_expect_err(f->ft, f->w, size, MLX5_OPCODE_UMR, r->synd, r->vsynd);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_mkey(f->ft->fake, key, mkc,
						       NULL, 0), 4);
	KUNIT_EXPECT_EQ(test, MLX5_GET(mkc, mkc, free), 1);
	KUNIT_ASSERT_EQ(test, mlx5_umr_fake_query_bsf(f->ft->fake, key, got,
						      sizeof(got)), 4);
	KUNIT_EXPECT_NULL(test, memchr_inv(got, 0, sizeof(got)));
	ft_qp_recover(f->ft);
	ft_del_mkey(f->ft, key);
	fs_teardown(f);
}

/*
 * Accesses cover whole wire blocks within the mkey and raw_data_size; a
 * signature mkey is not reachable through another mkey.
 */
static void fake_sig_access_limits(struct kunit *test)
{
	struct fs *f = fs_setup(test);
	struct fs_dom mem, none = {};
	struct mlx5_umr_test_xfer_out out;
	struct mlx5_bsf bsf;
	struct mlx5_klm klm;
	u32 key, small, outer;
	size_t size;

	/* first, so that the signature key is not 0x400 (a repeat block op) */
	outer = ft_indirect(f->ft, 4);
	fs_mem_dom(&mem, FS_DIF_CRC);
	key = fs_key(f, 1, &mem, &none);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_out(f->ft->fake, key, 1,
						     f->tmp, BS, false, true,
						     &out),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_out(f->ft->fake, key, 0,
						     f->tmp, BS + 1, false,
						     true, &out),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_out(f->ft->fake, key, BS,
						     f->tmp, NBLK * BS, false,
						     true, &out),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	/* a local access needs LR/LW as usual */
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_out(f->ft->fake, key, 0,
						     f->tmp, BS, false, false,
						     &out), 0);

	fs_bsf(&bsf, &mem, f->mpsv, &none, 0);
	bsf.basic.raw_data_size = cpu_to_be32(2 * BS);
	small = fs_key_bsf(f, 1, 8, &bsf);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_out(f->ft->fake, small, 0,
						     f->tmp, 2 * BS, true, true,
						     &out), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_out(f->ft->fake, small, 0,
						     f->tmp, 3 * BS, true, true,
						     &out),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);

	ft_klm(&klm, BS, key, 0);
	size = ft_umr_init(f->w, outer, FT_RR, BS, &klm, sizeof(klm));
	ft_umr_ok(f->ft, f->w, size);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer(f->ft->fake, outer, 0, f->tmp,
						 BS, false, true),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	ft_del_mkey(f->ft, outer);
	fs_teardown(f);
}

/* ---- different block sizes in the two domains ---- */

#define BIG	4096			/* wire (or memory) block: 8 x BS */
#define NSMALL	(BIG / BS)

/* T10-DIF of @n blocks of @bs bytes of @d after each (seed 0, inc ref). */
static void fs_dif_blocks(u8 *to, const u8 *d, u32 bs, u32 n, u16 app,
			  u32 ref)
{
	u32 i;

	for (i = 0; i < n; i++) {
		u8 *blk = to + i * (bs + 8);

		memcpy(blk, d + i * bs, bs);
		put_unaligned_be16(crc_t10dif(blk, bs), blk + bs);
		put_unaligned_be16(app, blk + bs + 2);
		put_unaligned_be32(ref + i, blk + bs + 4);
	}
}

/*
 * A BSF: T10-DIF (app 0x1111, ref 0x100) in 512-byte blocks and CRC32C in
 * 4096-byte ones, T10-DIF in memory when @mem_small, else on the wire.
 */
static void fs_bsf_sizes(struct fs *f, struct mlx5_bsf *bsf, bool mem_small)
{
	struct fs_dom dif, crc;

	fs_mem_dom(&dif, FS_DIF_CRC);
	dif.seed = false;
	fs_wire_dom(&crc, FS_CRC32C);
	crc.seed = true;
	memset(bsf, 0, sizeof(*bsf));
	bsf->basic.bsf_size_sbs = FS_BSF_SIZE_INLINE;
	bsf->basic.check_byte_mask = 0xff;
	bsf->basic.raw_data_size = cpu_to_be32(0xffffffff);
	if (mem_small) {
		fs_bsf_dom(bsf, false, &dif, f->mpsv, 1);	/* 512 */
		fs_bsf_dom(bsf, true, &crc, f->wpsv, 3);	/* 4096 */
	} else {
		fs_bsf_dom(bsf, false, &crc, f->mpsv, 3);
		fs_bsf_dom(bsf, true, &dif, f->wpsv, 1);
	}
}

/*
 * Memory blocks of 512 bytes with T10-DIF, wire blocks of 4096 with
 * CRC32C over the same data stream (rdma-core and mlx5_ib write the wire
 * selector when the structures differ), and the reverse: a WRITE checks
 * the wire CRC and lays 8 DIF blocks into memory (guards against the
 * kernel's crc_t10dif(), ref tags per 512-byte block), a READ checks them
 * and puts one CRC32C (the kernel's crc32c) back on the wire; a flipped
 * byte is reported by the block of its own domain; an access that is not
 * whole blocks of both domains moves nothing.
 */
static void fake_sig_block_sizes(struct kunit *test)
{
	u32 mlen = NSMALL * (BS + 8), crc_off = BIG, key, rev;
	struct mlx5_umr_test_xfer_out out;
	struct fs *f = fs_setup(test);
	u8 *d, *want, *m = f->b1.cpu, *m2 = f->b2.cpu;
	struct mlx5_bsf bsf;
	size_t size;
	u32 i;

	d = kunit_kzalloc(test, BIG, GFP_KERNEL);
	want = kunit_kzalloc(test, MR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (i = 0; i < BIG; i++)
		d[i] = i * 29 + (i >> 8);

	/* memory 512 + DIF, wire 4096 + CRC32C */
	fs_bsf_sizes(f, &bsf, true);
	key = fs_sig_mkey(f->ft);
	f->keys[f->nkeys++] = key;
	size = fs_sig_umr(f->w, key, f->mr1, VA1, mlen, &bsf);
	ft_umr_ok(f->ft, f->w, size);
	memcpy(f->wire, d, BIG);
	put_unaligned_le32(~__crc32c_le(~0U, d, BIG), f->wire + crc_off);
	fs_xfer(f, key, 0, f->wire, BIG + 4, true, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	fs_dif_blocks(want, d, BS, NSMALL, 0x1111, 0x100);
	KUNIT_EXPECT_EQ(test, memcmp(m, want, mlen), 0);
	memset(f->tmp, 0, BIG + 4);
	fs_xfer(f, key, 0, f->tmp, BIG + 4, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(f->tmp, f->wire, BIG + 4), 0);
	/* a data byte of memory block 5: that block's guard, memory view */
	m[5 * (BS + 8) + 3] ^= 0x10;
	fs_xfer(f, key, 0, f->tmp, BIG + 4, false, &out);
	fs_expect_cqe(test, &out, key, SYND_GUARD, 6 * (BS + 8) - 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.actual_trans_sig) >> 16,
			get_unaligned_be16(want + 5 * (BS + 8) + BS));
	m[5 * (BS + 8) + 3] ^= 0x10;
	fs_set_psv(f, f->mpsv);
	/* wire CRC wrong: the wire block's guard, wire view */
	f->wire[7] ^= 1;
	fs_arm(f, key, 0);
	fs_xfer(f, key, 0, f->wire, BIG + 4, true, &out);
	fs_expect_cqe_dom(test, &out, key, SYND_GUARD, BIG + 4 - 1, true);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(out.cqe.actual_trans_sig),
			swab32(~__crc32c_le(~0U, d, BIG)));
	f->wire[7] ^= 1;
	fs_set_psv(f, f->wpsv);

	/* the reverse: memory 4096 + CRC32C, wire 512 + DIF */
	fs_bsf_sizes(f, &bsf, false);
	rev = fs_sig_mkey(f->ft);
	f->keys[f->nkeys++] = rev;
	size = fs_sig_umr(f->w, rev, f->mr2, VA2, BIG + 4, &bsf);
	ft_umr_ok(f->ft, f->w, size);
	fs_dif_blocks(f->wire, d, BS, NSMALL, 0x1111, 0x100);
	fs_xfer(f, rev, 0, f->wire, mlen, true, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(m2, d, BIG), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(m2 + BIG),
			~__crc32c_le(~0U, d, BIG));
	memset(f->tmp, 0, mlen);
	fs_xfer(f, rev, 0, f->tmp, mlen, false, &out);
	KUNIT_EXPECT_FALSE(test, out.sig_err);
	KUNIT_EXPECT_EQ(test, memcmp(f->tmp, f->wire, mlen), 0);

	/* one 512-byte wire block is not a whole memory block: refused */
	memset(m2, 0x5a, BIG + 4);
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_out(f->ft->fake, rev, 0,
						     f->wire, BS + 8, true,
						     true, &out),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	KUNIT_EXPECT_NULL(test, memchr_inv(m2, 0x5a, BIG + 4));
	KUNIT_EXPECT_EQ(test, mlx5_umr_fake_xfer_out(f->ft->fake, rev,
						     BS + 8, f->tmp, mlen,
						     false, true, &out),
			MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	fs_teardown(f);
}

static struct kunit_case fake_sig_cases[] = {
	KUNIT_CASE_PARAM(fake_sig_round_trip, fs_pair_gen),
	KUNIT_CASE_PARAM(fake_sig_hw_values, fs_hw_gen_params),
	KUNIT_CASE(fake_sig_read_errors),
	KUNIT_CASE(fake_sig_write_and_crc_errors),
	KUNIT_CASE(fake_sig_arming),
	KUNIT_CASE(fake_sig_escapes),
	KUNIT_CASE(fake_sig_masks),
	KUNIT_CASE_PARAM(fake_sig_bsf_refused, fs_rej_gen_params),
	KUNIT_CASE(fake_sig_access_limits),
	KUNIT_CASE(fake_sig_block_sizes),
	{}
};

/* the same cases on fakes without sigerr_domain_and_sig_type */
static struct kunit_case fake_sig_cases_legacy[] = {
	KUNIT_CASE_PARAM(fake_sig_round_trip, fs_pair_gen),
	KUNIT_CASE_PARAM(fake_sig_hw_values, fs_hw_gen_params),
	KUNIT_CASE(fake_sig_read_errors),
	KUNIT_CASE(fake_sig_write_and_crc_errors),
	KUNIT_CASE(fake_sig_arming),
	KUNIT_CASE(fake_sig_escapes),
	KUNIT_CASE(fake_sig_masks),
	KUNIT_CASE_PARAM(fake_sig_bsf_refused, fs_rej_gen_params),
	KUNIT_CASE(fake_sig_access_limits),
	KUNIT_CASE(fake_sig_block_sizes),
	{}
};

static struct kunit_suite fake_sig_suite = {
	.name = "mlx5_umr_fake_sig",
	.test_cases = fake_sig_cases,
};

static struct kunit_suite fake_sig_suite_legacy = {
	.name = "mlx5_umr_fake_sig_legacy",
	.test_cases = fake_sig_cases_legacy,
	.suite_init = umr_kunit_sig_profile_legacy,
	.suite_exit = umr_kunit_sig_profile_default,
};

kunit_test_suites(&fake_sig_suite, &fake_sig_suite_legacy);

MODULE_DESCRIPTION("KUnit tests of the fake mlx5 HCA's signature engine");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
