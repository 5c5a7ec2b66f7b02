// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: inline encryption of a block device through the kernel's own
 * blk-crypto, the glue (blk_crypto.c), the service and the fake's data
 * path. A small blk-mq disk registers the glue's profile; its queue_rq()
 * does what an RDMA initiator does per I/O (map the request, configure a
 * crypto mkey with mlx5_umr_blk_crypto_rq_attr(), let the "target" move
 * the data through the mkey with the fake's RDMA READ/WRITE, invalidate).
 * The target's medium (the wire side) must hold software AES-256-XTS of
 * the data with the DUN as tweak, and reads must give the plaintext back.
 * blk-crypto itself programs, reprograms (one slot, two keys) and evicts
 * the key slots.
 *
 * No fscrypt: bios get their encryption context through
 * bio_alloc_clone(), which copies a context into blk-crypto's own pool
 * (bio_crypt_set_ctx() and blk_crypto_init_key() are not exported to
 * modules in 6.1 or 6.12).
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/scatterlist.h>
#include <crypto/skcipher.h>
#include <linux/mlx5_umr_blk_crypto.h>
#include <linux/mlx5_umr_testing.h>
#include <linux/mlx5_umr_compat.h>

#include "umr_kunit.h"

#define DU		512
#define BD_SECTORS	64		/* the medium: 32 KiB */
#define BD_SEGS		4

static const enum mlx5_umr_fake_crypto bd_profiles[] = {
	MLX5_UMR_FAKE_CRYPTO_MULTI_LE,
	MLX5_UMR_FAKE_CRYPTO_MULTI_BE,
};

static void bd_profile_desc(const enum mlx5_umr_fake_crypto *p, char *desc)
{
	strscpy(desc, mlx5_umr_fake_crypto_name(*p), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bd_profile, bd_profiles, bd_profile_desc);

/**
 * struct bd - the disk, its "initiator" state and its "target"
 * @fake: the HCA
 * @dev: the service's device on it
 * @bc: the disk's blk-crypto profile, one key slot
 * @bc_live: @bc needs mlx5_umr_blk_crypto_destroy()
 * @set: the disk's tag set (depth 1: one mkey)
 * @set_live: @set needs blk_mq_free_tag_set()
 * @disk: the disk (never added: I/O goes to its part0)
 * @mk: the crypto mkey of the I/O in flight
 * @medium: what the target stores, written and read only through @mk
 * @requests: requests queue_rq() moved encrypted
 */
struct bd {
	struct mlx5_umr_fake *fake;
	struct mlx5_umr_dev *dev;
	struct mlx5_umr_blk_crypto bc;
	bool bc_live;
	struct blk_mq_tag_set set;
	bool set_live;
	struct gendisk *disk;
	struct mlx5_umr_mkey *mk;
	u8 *medium;
	unsigned int requests;
};

/* One I/O: configure the mkey over the request, the target moves data. */
static blk_status_t bd_rw(struct bd *d, struct request *rq)
{
	const struct mlx5_umr_caps *caps = mlx5_umr_dev_caps(d->dev);
	u64 off = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	unsigned int len = blk_rq_bytes(rq);
	struct scatterlist sgl[BD_SEGS];
	struct mlx5_umr_crypto_attr ca;
	struct mlx5_umr_wr wr = {
		.mkey = d->mk, .op = MLX5_UMR_OP_CONFIGURE,
		.flags = MLX5_UMR_WR_SET_ACCESS | MLX5_UMR_WR_SET_CRYPTO,
		.access = MLX5_UMR_ACCESS_REMOTE_READ |
			  MLX5_UMR_ACCESS_REMOTE_WRITE |
			  MLX5_UMR_ACCESS_LOCAL_WRITE,
		.layout = MLX5_UMR_LAYOUT_SGT,
		.crypto = &ca,
	};
	struct mlx5_umr_wr inv = { .mkey = d->mk,
				   .op = MLX5_UMR_OP_INVALIDATE };
	struct sg_table sgt = { .sgl = sgl };
	bool write = req_op(rq) == REQ_OP_WRITE;
	int err;

	if ((req_op(rq) != REQ_OP_READ && !write) ||
	    off + len > BD_SECTORS * SECTOR_SIZE)
		return BLK_STS_IOERR;
	/* this disk has only a crypto mkey: plaintext I/O is not for it */
	if (mlx5_umr_blk_crypto_rq_attr(&d->bc, rq, &ca) != 1)
		return BLK_STS_NOTSUPP;
	sg_init_table(sgl, BD_SEGS);
	sgt.orig_nents = blk_rq_map_sg(rq->q, rq, sgl);
	sgt.nents = sgt.orig_nents;
	if (mlx5_umr_dma_map_sg(d->dev, &sgt, DMA_BIDIRECTIONAL))
		return BLK_STS_RESOURCE;
	wr.sgt.sgl = sgt.sgl;
	wr.sgt.nents = sgt.nents;
	wr.sgt.lkey = caps->dma_lkey;
	wr.sgt.length = len;
	err = mlx5_umr_exec(d->dev, &wr, 0);
	/*
	 * The target: a write's data is pulled from the mkey (the HCA
	 * encrypts it), a read's pushed into it (decrypted as it lands).
	 */
	if (!err)
		err = mlx5_umr_fake_xfer(d->fake, d->mk->key, 0,
					 d->medium + off, len, !write, true);
	/* FRWR-style: the key dies with the I/O, its DEK may go */
	if (mlx5_umr_exec(d->dev, &inv, 0))
		err = err ?: -EIO;
	mlx5_umr_dma_unmap_sg(d->dev, &sgt, DMA_BIDIRECTIONAL);
	if (!err)
		d->requests++;
	return err ? BLK_STS_IOERR : BLK_STS_OK;
}

static blk_status_t bd_queue_rq(struct blk_mq_hw_ctx *hctx,
				const struct blk_mq_queue_data *qd)
{
	struct bd *d = hctx->queue->queuedata;
	struct request *rq = qd->rq;

	blk_mq_start_request(rq);
	blk_mq_end_request(rq, bd_rw(d, rq));
	return BLK_STS_OK;
}

static const struct blk_mq_ops bd_mq_ops = {
	.queue_rq = bd_queue_rq,
};

static const struct block_device_operations bd_fops = {
	.owner = THIS_MODULE,
};

static void bd_exit(struct kunit *test)
{
	struct bd *d = test->priv;

	if (!d)
		return;
	if (d->disk)
		put_disk(d->disk);
	if (d->set_live)
		blk_mq_free_tag_set(&d->set);
	if (d->fake)
		mlx5_umr_fake_destroy(d->fake);
	if (d->bc_live)
		mlx5_umr_blk_crypto_destroy(&d->bc);
}

static struct bd *bd_setup(struct kunit *test)
{
	struct bd *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct mlx5_umr_fake_attr attr;
#ifdef MLX5_UMR_BLK_MQ_ALLOC_DISK_LIM
	/* 6.9 made the limits an argument of blk_mq_alloc_disk() (compat.mk) */
	struct queue_limits lim = { .max_segments = BD_SEGS };
#endif
	const struct mlx5_umr_caps *caps;

	KUNIT_ASSERT_NOT_NULL(test, d);
	test->priv = d;
	d->medium = kunit_kzalloc(test, BD_SECTORS * SECTOR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d->medium);
	mlx5_umr_fake_attr_init(&attr);
	attr.flags = MLX5_UMR_FAKE_F_SYNC;
	mlx5_umr_fake_set_crypto(&attr.caps,
				 *(const enum mlx5_umr_fake_crypto *)
				 test->param_value);
	d->fake = umr_kunit_fake_registered_attr(test, &attr);
	d->dev = umr_kunit_fake_umr(d->fake);
	caps = mlx5_umr_dev_caps(d->dev);
	KUNIT_ASSERT_EQ(test,
			mlx5_umr_blk_crypto_init(&d->bc, d->dev, caps->pdn, 1),
			0);
	d->bc_live = true;
	d->mk = mlx5_umr_alloc_mkey(d->dev, BD_SEGS, MLX5_UMR_MKEY_CRYPTO);
	KUNIT_ASSERT_FALSE(test, IS_ERR(d->mk));

	d->set.ops = &bd_mq_ops;
	d->set.nr_hw_queues = 1;
	d->set.queue_depth = 1;
	d->set.numa_node = NUMA_NO_NODE;
	d->set.flags = BLK_MQ_F_BLOCKING;	/* queue_rq() waits for UMRs */
	KUNIT_ASSERT_EQ(test, blk_mq_alloc_tag_set(&d->set), 0);
	d->set_live = true;
#ifdef MLX5_UMR_BLK_MQ_ALLOC_DISK_LIM
	d->disk = blk_mq_alloc_disk(&d->set, &lim, d);
	KUNIT_ASSERT_FALSE(test, IS_ERR(d->disk));
#else
	d->disk = blk_mq_alloc_disk(&d->set, d);
	KUNIT_ASSERT_FALSE(test, IS_ERR(d->disk));
	blk_queue_max_segments(d->disk->queue, BD_SEGS);
#endif
	d->disk->fops = &bd_fops;
	strscpy(d->disk->disk_name, "umrblk", sizeof(d->disk->disk_name));
	set_capacity(d->disk, BD_SECTORS);
	KUNIT_ASSERT_TRUE(test, blk_crypto_register(&d->bc.profile,
						    d->disk->queue));
	return d;
}

/* A key as blk_crypto_init_key() makes it. */
static void bd_key(struct blk_crypto_key *key, u8 seed)
{
	unsigned int i;

	*key = (struct blk_crypto_key) {
		.crypto_cfg = {
			.crypto_mode = BLK_ENCRYPTION_MODE_AES_256_XTS,
			.data_unit_size = DU,
			.dun_bytes = 16,
		},
		.data_unit_size_bits = ilog2(DU),
		.size = 64,
	};
	for (i = 0; i < key->size; i++)
		key->raw[i] = seed ^ (i * 29);
}

/*
 * One bio of @page's first @len bytes at @sector, encrypted with @key
 * from DUN @dun. The template is never submitted: its clone gets a copy
 * of the context from blk-crypto's pool, freed by the block layer.
 */
static int bd_io(struct bd *d, enum req_op op, sector_t sector,
		 struct page *page, unsigned int len,
		 const struct blk_crypto_key *key, const u64 *dun)
{
	struct bio_crypt_ctx ctx = { .bc_key = key };
	struct bio tmpl, *bio;
	struct bio_vec bv;
	int err;

	memcpy(ctx.bc_dun, dun, 2 * sizeof(u64));
	bio_init(&tmpl, d->disk->part0, &bv, 1, op);
	tmpl.bi_iter.bi_sector = sector;
	__bio_add_page(&tmpl, page, len, 0);
	tmpl.bi_crypt_context = &ctx;
	bio = bio_alloc_clone(d->disk->part0, &tmpl, GFP_KERNEL, &fs_bio_set);
	tmpl.bi_crypt_context = NULL;
	bio_uninit(&tmpl);
	if (!bio)
		return -ENOMEM;
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/* Software XTS of @n data units from DUN @dun (128-bit, one per unit). */
static void bd_ref(struct kunit *test, const struct blk_crypto_key *key,
		   const u64 *dun, u8 *buf, unsigned int n)
{
	struct crypto_sync_skcipher *tfm;
	struct scatterlist sg;
	u64 lo = dun[0], hi = dun[1];
	unsigned int i;
	u8 iv[16];
	int err;

	tfm = crypto_alloc_sync_skcipher("xts(aes)", 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(tfm));
	err = crypto_sync_skcipher_setkey(tfm, key->raw, key->size);
	for (i = 0; !err && i < n; i++) {
		SYNC_SKCIPHER_REQUEST_ON_STACK(req, tfm);

		put_unaligned_le64(lo, iv);
		put_unaligned_le64(hi, iv + 8);
		sg_init_one(&sg, buf + i * DU, DU);
		skcipher_request_set_sync_tfm(req, tfm);
		skcipher_request_set_callback(req, 0, NULL, NULL);
		skcipher_request_set_crypt(req, &sg, &sg, DU, iv);
		err = crypto_skcipher_encrypt(req);
		skcipher_request_zero(req);
		if (!++lo)
			hi++;
	}
	crypto_free_sync_skcipher(tfm);
	KUNIT_ASSERT_EQ(test, err, 0);
}

static u32 bd_deks(struct bd *d)
{
	struct mlx5_umr_fake_counters cnt;

	mlx5_umr_fake_get_counters(d->fake, &cnt);
	return cnt.deks;
}

/*
 * Write a page with key A, read it back; write with key B (blk-crypto
 * reprograms the one slot), read A's data again (and back again); evict
 * both keys: every DEK is gone.
 */
static void blk_crypto_disk_rw(struct kunit *test)
{
	struct bd *d = bd_setup(test);
	struct blk_crypto_key *ka = kunit_kzalloc(test, sizeof(*ka), GFP_KERNEL);
	struct blk_crypto_key *kb = kunit_kzalloc(test, sizeof(*kb), GFP_KERNEL);
	u8 *pt = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct page *page = alloc_page(GFP_KERNEL);
	const u64 dun_a[2] = { 1000, 0 };
	const u64 dun_b[2] = { ~0ULL - 3, 0x42 };
	const unsigned int n = PAGE_SIZE / DU;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, ka);
	KUNIT_ASSERT_NOT_NULL(test, kb);
	KUNIT_ASSERT_NOT_NULL(test, pt);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, page);
	bd_key(ka, 0x17);
	bd_key(kb, 0xc3);
	for (i = 0; i < PAGE_SIZE; i++)
		pt[i] = (i * 7) ^ (i >> 9);

	/* write with A at sector 8: the medium holds XTS(A, 1000 + k) */
	memcpy(page_address(page), pt, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, bd_io(d, REQ_OP_WRITE, 8, page, PAGE_SIZE, ka,
				    dun_a), 0);
	KUNIT_EXPECT_EQ(test, d->requests, 1U);
	KUNIT_EXPECT_EQ(test, bd_deks(d), 1U);
	memcpy(want, pt, PAGE_SIZE);
	bd_ref(test, ka, dun_a, want, n);
	KUNIT_EXPECT_EQ(test, memcmp(d->medium + 8 * SECTOR_SIZE, want,
				     PAGE_SIZE), 0);
	KUNIT_EXPECT_NE(test, memcmp(d->medium + 8 * SECTOR_SIZE, pt,
				     PAGE_SIZE), 0);
	/* read it back */
	memset(page_address(page), 0, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, bd_io(d, REQ_OP_READ, 8, page, PAGE_SIZE, ka,
				    dun_a), 0);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(page), pt, PAGE_SIZE), 0);

	/* B takes the only slot; its DUN carries into the upper 64 bits */
	memcpy(page_address(page), pt, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, bd_io(d, REQ_OP_WRITE, 24, page, PAGE_SIZE, kb,
				    dun_b), 0);
	/* A's DEK went: its mkey was invalidated when the I/O completed */
	KUNIT_EXPECT_EQ(test, bd_deks(d), 1U);
	memcpy(want, pt, PAGE_SIZE);
	bd_ref(test, kb, dun_b, want, n);
	KUNIT_EXPECT_EQ(test, memcmp(d->medium + 24 * SECTOR_SIZE, want,
				     PAGE_SIZE), 0);
	/* A again: blk-crypto programs it back over B */
	memset(page_address(page), 0, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, bd_io(d, REQ_OP_READ, 8, page, PAGE_SIZE, ka,
				    dun_a), 0);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(page), pt, PAGE_SIZE), 0);
	/* with the wrong DUN the data is not the plaintext */
	KUNIT_ASSERT_EQ(test, bd_io(d, REQ_OP_READ, 24, page, PAGE_SIZE, kb,
				    dun_a), 0);
	KUNIT_EXPECT_NE(test, memcmp(page_address(page), pt, PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, bd_io(d, REQ_OP_READ, 24, page, PAGE_SIZE, kb,
				    dun_b), 0);
	KUNIT_EXPECT_EQ(test, memcmp(page_address(page), pt, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, d->requests, 6U);

	blk_crypto_evict_key(d->disk->part0, ka);
	blk_crypto_evict_key(d->disk->part0, kb);
	KUNIT_EXPECT_EQ(test, bd_deks(d), 0U);
	__free_page(page);
	put_disk(d->disk);
	d->disk = NULL;
	blk_mq_free_tag_set(&d->set);
	d->set_live = false;
	KUNIT_EXPECT_EQ(test, mlx5_umr_free_mkey(d->mk), 0);
	KUNIT_EXPECT_EQ(test, mlx5_umr_blk_crypto_destroy(&d->bc), 0);
	d->bc_live = false;
}

static struct kunit_case blk_crypto_disk_cases[] = {
	KUNIT_CASE_PARAM(blk_crypto_disk_rw, bd_profile_gen_params),
	{}
};

static struct kunit_suite blk_crypto_disk_suite = {
	.name = "mlx5_umr_blk_crypto_disk",
	.exit = bd_exit,
	.test_cases = blk_crypto_disk_cases,
};

kunit_test_suite(blk_crypto_disk_suite);

MODULE_DESCRIPTION("KUnit tests of a block device encrypted through blk-crypto");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
MODULE_IMPORT_NS(MLX5_UMR_KUNIT);
