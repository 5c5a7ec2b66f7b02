// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: the signature engine.
 *
 * A signature mkey is an mkey with bsf_en whose UMR left a BSF (struct
 * mlx5_bsf). Its translation maps the memory view: blocks of the memory
 * domain's size, each followed by its PI. Accesses address the wire view:
 * blocks of the wire domain's size (the same, or another) each followed
 * by the wire domain's PI, over the same data bytes. An access
 * reading through the mkey moves memory -> wire (the memory domain is the
 * input, its PI is checked, the wire PI is generated or copied); one
 * writing through it moves wire -> memory. A failed check does not stop the
 * access: the data moves, the requester's completion is good, and the
 * failure is reported by a SIG_ERR CQE and latched in the input domain's
 * PSV until SET_PSV re-arms it. Documentation/fake.rst, "Signature", gives
 * the source of every rule.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/gcd.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/mlx5_umr_compat.h>
#include <linux/mlx5_umr_ifc.h>

#include "fake.h"
#include "fake_sig.h"

#define ERR_OP(v)	fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, \
				     MLX5_UMR_FAKE_VS_##v)
#define ERR_PROT(v)	fake_wqe_err(MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, \
				     MLX5_UMR_FAKE_VS_##v)

/* bs_selector (mlx5_ib wr.c bs_selector(), rdma-core bs_to_bs_selector()) */
static int fake_sig_block_size(u8 sel, u32 *bs)
{
	switch (sel) {
	case 1:
		*bs = 512;
		return 0;
	case 2:
		*bs = 520;
		return 0;
	case 3:
		*bs = 4096;
		return 0;
	case 4:
		*bs = 4160;
		return 0;
	case 6:
		*bs = 4048;
		return 0;
	case 5:		/* 1 GiB: a block the fake cannot buffer */
		return ERR_OP(BSF_UNSUPPORTED);
	default:
		return ERR_OP(BSF_BAD);
	}
}

static int fake_sig_decode_crc(u8 bfs, struct fake_sig_domain *d)
{
	switch (bfs & ~(FAKE_BFS_CRC_REPEAT | FAKE_BFS_CRC_SEED)) {
	case FAKE_BFS_CRC32:
		d->kind = FAKE_SIG_CRC32;
		d->pi = 4;
		break;
	case FAKE_BFS_CRC32C:
		d->kind = FAKE_SIG_CRC32C;
		d->pi = 4;
		break;
	case FAKE_BFS_CRC64_XP10:
		d->kind = FAKE_SIG_CRC64;
		d->pi = 8;
		break;
	default:
		return ERR_OP(BSF_BAD);
	}
	/* one CRC per block; a CRC over several blocks is not modelled */
	if (!(bfs & FAKE_BFS_CRC_REPEAT))
		return ERR_OP(BSF_UNSUPPORTED);
	d->seed_ones = bfs & FAKE_BFS_CRC_SEED;
	return 0;
}

static int fake_sig_decode_dif(const struct mlx5_bsf_inl *inl,
			       struct fake_sig_domain *d)
{
	u8 f = inl->dif_inc_ref_guard_check;

	switch (inl->sig_type) {
	case MLX5_DIF_CRC:
		d->kind = FAKE_SIG_DIF_CRC;
		break;
	case MLX5_DIF_IPCS:
		d->kind = FAKE_SIG_DIF_IPCS;
		break;
	default:
		return ERR_OP(BSF_BAD);
	}
	if (inl->rp_inv_seed & ~(MLX5_BSF_REPEAT_BLOCK | FAKE_BSF_SEED))
		return ERR_OP(BSF_BAD);
	if (!(inl->rp_inv_seed & MLX5_BSF_REPEAT_BLOCK))
		return ERR_OP(BSF_UNSUPPORTED);
	if (f & ~(MLX5_BSF_INC_REFTAG | FAKE_BSF_ESCAPE_MASK) ||
	    (f & FAKE_BSF_ESCAPE_MASK) == FAKE_BSF_ESCAPE_MASK)
		return ERR_OP(BSF_BAD);
	if (inl->rsvd[0] || inl->rsvd[1] || inl->rsvd[2])
		return ERR_OP(BSF_BAD);
	d->pi = MLX5_DIF_SIZE;
	d->seed_ones = inl->rp_inv_seed & FAKE_BSF_SEED;
	d->inc_ref = f & MLX5_BSF_INC_REFTAG;
	d->escape = f & FAKE_BSF_ESCAPE_MASK;
	d->app_tag = be16_to_cpu(inl->dif_apptag);
	d->app_mask = be16_to_cpu(inl->dif_app_bitmask_check);
	d->ref_tag = be32_to_cpu(inl->dif_reftag);
	return 0;
}

/*
 * One domain: a CRC when the block format selector names one, T10-DIF when
 * the inline section is valid, else no signature.
 */
static int fake_sig_decode_domain(struct mlx5_umr_fake *fd, __be32 bfs_psv,
				  const struct mlx5_bsf_inl *inl, u8 bs_sel,
				  bool has_sel, struct fake_sig_domain *d)
{
	u32 v = be32_to_cpu(bfs_psv);
	u8 bfs = v >> FAKE_BFS_SHIFT;
	bool dif = be16_to_cpu(inl->vld_refresh) & MLX5_BSF_INL_VALID;
	int err;

	memset(d, 0, sizeof(*d));
	if (bfs && dif)
		return ERR_OP(BSF_BAD);
	if (!bfs && !dif)
		return 0;
	err = bfs ? fake_sig_decode_crc(bfs, d) : fake_sig_decode_dif(inl, d);
	if (err)
		return err;
	if (has_sel) {
		err = fake_sig_block_size(bs_sel, &d->bs);
		if (err)
			return err;
	}
	d->psvn = v & FAKE_BFS_PSV_MASK;
	if (!xa_load(&fd->psvs, d->psvn))
		return ERR_PROT(PSV_UNKNOWN);
	return 0;
}

static bool fake_sig_is_dif(const struct fake_sig_domain *d)
{
	return d->kind == FAKE_SIG_DIF_CRC || d->kind == FAKE_SIG_DIF_IPCS;
}

/* The 64 bytes of a signature BSF whose size field must say @want. */
static int fake_sig_decode_as(struct mlx5_umr_fake *fd, const u8 *bsf,
			      u8 want, struct fake_sig *s)
{
	const struct mlx5_bsf *b = (const void *)bsf;
	const struct mlx5_bsf_basic *basic = &b->basic;
	u8 size = basic->bsf_size_sbs >> FAKE_BSF_SIZE_SHIFT;
	int err;

	memset(s, 0, sizeof(*s));
	if (size != want ||
	    basic->bsf_size_sbs & ~(3 << FAKE_BSF_SIZE_SHIFT | FAKE_BSF_SBS))
		return ERR_OP(BSF_BAD);
	/* transaction signatures (ext.{w,m}_tfs_psv) are not modelled */
	if (b->ext.w_tfs_psv || b->ext.m_tfs_psv)
		return ERR_OP(BSF_UNSUPPORTED);
	s->sbs = basic->bsf_size_sbs & FAKE_BSF_SBS;
	s->check_mask = basic->check_byte_mask;
	s->raw_data_size = be32_to_cpu(basic->raw_data_size);

	err = fake_sig_decode_domain(fd, basic->m_bfs_psv, &b->m_inl,
				     basic->mem.bs_selector, true, &s->mem);
	if (err)
		return err;
	/* with the same block structure, the wire byte is the copy mask */
	err = fake_sig_decode_domain(fd, basic->w_bfs_psv, &b->w_inl,
				     basic->wire.bs_selector, !s->sbs,
				     &s->wire);
	if (err)
		return err;
	if (s->sbs) {
		if (s->mem.kind == FAKE_SIG_NONE ||
		    s->wire.kind == FAKE_SIG_NONE ||
		    fake_sig_is_dif(&s->mem) != fake_sig_is_dif(&s->wire) ||
		    (!fake_sig_is_dif(&s->mem) && s->mem.kind != s->wire.kind))
			return ERR_OP(BSF_BAD);
		s->wire.bs = s->mem.bs;
		s->copy_mask = basic->wire.copy_byte_mask;
	}
	return 0;
}

/**
 * fake_sig_decode() - decode and validate a BSF
 * @fd: the fake (its PSVs)
 * @bsf: the BSF bytes
 * @oct: their length in octowords
 * @s: receives the decoded signature
 *
 * A signature BSF alone: size field WITH_INLINE. SIG_AND_CRYPTO announces
 * a crypto BSF after it, which only a pair on a crypto mkey has
 * (fake_bsf_pair_decode()): malformed here.
 *
 * Context: fd->lock held.
 * Return: 0 or fake_wqe_err() of the UMR that would carry it.
 */
int fake_sig_decode(struct mlx5_umr_fake *fd, const u8 *bsf, u32 oct,
		    struct fake_sig *s)
{
	memset(s, 0, sizeof(*s));
	if (oct != MLX5_MKEY_BSF_OCTO_SIZE)
		return ERR_OP(BSF_BAD);
	return fake_sig_decode_as(fd, bsf, FAKE_BSF_SIZE_WITH_INLINE, s);
}

/**
 * fake_bsf_pair_decode() - decode and validate the BSF pair of an mkey
 *	with signature and crypto
 * @fd: the fake (its PSVs)
 * @bsf: the 128 BSF bytes
 * @oct: their length in octowords: 8
 * @s: receives the decoded signature (none in either domain is allowed:
 *	a reset signature)
 * @x: receives the decoded crypto BSF (not its DEK)
 *
 * rdma-core crypto_umr_wqe_finalize(): the signature BSF with size field
 * MLX5_BSF_SIZE_SIG_AND_CRYPTO, then the crypto BSF (fake_crypto_decode()
 * with @in_pair). The orders that put
 * the signature on ciphertext (ENCRYPTED_RAW_WIRE, _RAW_MEMORY) with a
 * signature in both domains are what the device does not support
 * (get_crypto_order()).
 *
 * Context: fd->lock held.
 * Return: 0 or fake_wqe_err() of the UMR that would carry it.
 */
int fake_bsf_pair_decode(struct mlx5_umr_fake *fd, const u8 *bsf, u32 oct,
			 struct fake_sig *s, struct fake_xts *x)
{
	int err;

	memset(s, 0, sizeof(*s));
	if (oct != FAKE_PAIR_BSF_OCT)
		return ERR_OP(BSF_BAD);
	err = fake_sig_decode_as(fd, bsf, FAKE_BSF_SIZE_SIG_AND_CRYPTO, s);
	if (err)
		return err;
	err = fake_crypto_decode(fd, (const void *)(bsf +
						     sizeof(struct mlx5_bsf)),
				 true, x);
	if (err)
		return err;
	if ((x->order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE ||
	     x->order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY) &&
	    s->mem.kind != FAKE_SIG_NONE && s->wire.kind != FAKE_SIG_NONE)
		return ERR_OP(BSF_UNSUPPORTED);
	/* the pair engine cuts one block size: not modelled otherwise */
	if (s->mem.kind != FAKE_SIG_NONE && s->wire.kind != FAKE_SIG_NONE &&
	    s->mem.bs != s->wire.bs)
		return ERR_OP(BSF_UNSUPPORTED);
	return 0;
}

/* ---- one block ---- */

/*
 * What a failed check reports: the value the HCA computed or was
 * configured with ("expected" in the CQE) and the one found in the input
 * PI ("actual"). Mellanox's verbs gtest, asserted on ConnectX
 * (SergeyGorenko/ibverbs-tests 0e71ce44abff tests/mkey/sig.cc
 * mkey_test_sig_corrupt, mkey.h check(err_type, actual, expected, offset)),
 * expects actual 0xec7d (the guard in the PI) and expected 0x9916 (the
 * CRC of the corrupted data), and rdma-core passes the CQE words through
 * (cq.c get_sig_err_info(), verbs.c mlx5_decode_sigerr(), 691953d8d502).
 */
struct fake_sig_err {
	u16 synd;
	u32 exp_sig;
	u32 act_sig;
	u32 exp_ref;
	u32 act_ref;
};

/* Mask of the bytes of an n-byte field starting at PI byte @first. */
static u32 fake_sig_byte_mask(u8 check_mask, unsigned int first,
			      unsigned int n)
{
	u32 m = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (check_mask & BIT(7 - (first + i)))
			m |= 0xffU << (8 * (n - 1 - i));
	return m;
}

static u32 fake_sig_ref(const struct fake_sig_domain *d, u64 blk)
{
	return d->ref_tag + (d->inc_ref ? (u32)blk : 0);
}

/* Check the PI @pi of the @bs data bytes of block @blk of the input domain. */
static void fake_sig_check(const struct fake_sig *s,
			   const struct fake_sig_domain *d, const u8 *data,
			   const u8 *pi, u64 blk, struct fake_sig_err *e)
{
	u8 calc[FAKE_SIG_MAX_PI];
	u32 m;

	memset(e, 0, sizeof(*e));
	if (fake_sig_is_dif(d)) {
		u16 g = get_unaligned_be16(pi), app = get_unaligned_be16(pi + 2);
		u32 ref = get_unaligned_be32(pi + 4);

		/* T10 escapes: the block is not checked at all */
		if (d->escape == MLX5_BSF_APPTAG_ESCAPE && app == 0xffff)
			return;
		if (d->escape == MLX5_BSF_APPREF_ESCAPE && app == 0xffff &&
		    ref == 0xffffffff)
			return;
		fake_sig_guard(d->kind, d->seed_ones, data, d->bs, calc);
		e->exp_sig = (u32)get_unaligned_be16(calc) << 16 | d->app_tag;
		e->act_sig = (u32)g << 16 | app;
		e->exp_ref = fake_sig_ref(d, blk);
		e->act_ref = ref;
		m = fake_sig_byte_mask(s->check_mask, 0, 2);
		if ((g ^ get_unaligned_be16(calc)) & m)
			e->synd |= FAKE_SIGERR_GUARD;
		m = fake_sig_byte_mask(s->check_mask, 2, 2) & d->app_mask;
		if ((app ^ d->app_tag) & m)
			e->synd |= FAKE_SIGERR_APPTAG;
		m = fake_sig_byte_mask(s->check_mask, 4, 4);
		if ((ref ^ e->exp_ref) & m)
			e->synd |= FAKE_SIGERR_REFTAG;
		return;
	}
	fake_sig_guard(d->kind, d->seed_ones, data, d->bs, calc);
	e->exp_sig = get_unaligned_be32(calc);
	e->act_sig = get_unaligned_be32(pi);
	if (d->pi == 8) {
		e->exp_ref = get_unaligned_be32(calc + 4);
		e->act_ref = get_unaligned_be32(pi + 4);
		if ((e->exp_ref ^ e->act_ref) &
		    fake_sig_byte_mask(s->check_mask, 4, 4))
			e->synd |= FAKE_SIGERR_GUARD;
	}
	if ((e->exp_sig ^ e->act_sig) & fake_sig_byte_mask(s->check_mask, 0, 4))
		e->synd |= FAKE_SIGERR_GUARD;
}

/* Generate the output PI of block @blk, copying what the copy mask says. */
static void fake_sig_gen(const struct fake_sig *s,
			 const struct fake_sig_domain *d, const u8 *data,
			 const u8 *in_pi, u8 *pi, u64 blk)
{
	unsigned int i;

	if (d->kind == FAKE_SIG_NONE)
		return;
	fake_sig_guard(d->kind, d->seed_ones, data, d->bs, pi);
	if (fake_sig_is_dif(d)) {
		put_unaligned_be16(d->app_tag, pi + 2);
		put_unaligned_be32(fake_sig_ref(d, blk), pi + 4);
	}
	if (!s->sbs || !in_pi)
		return;
	for (i = 0; i < d->pi; i++)
		if (s->copy_mask & BIT(7 - i))
			pi[i] = in_pi[i];
}

/* ---- an access ---- */

/*
 * The SIG_ERR CQE. Bytes 34-35 name the signature type (block) and the
 * domain whose check failed when the device reports
 * sigerr_domain_and_sig_type (rdma-core cq.c struct mlx5_sigerr_cqe,
 * verbs.c _mlx5dv_mkey_check(), 691953d8d502); else they stay reserved,
 * zero, as in the kernels' struct mlx5_sig_err_cqe (rsvd22).
 */
static void fake_sig_cqe(struct mlx5_umr_fake *fd,
			 struct mlx5_sig_err_cqe *cqe, u32 key, u64 err_off,
			 const struct fake_sig_err *e, bool wire)
{
	u8 *b = (u8 *)cqe;

	memset(cqe, 0, sizeof(*cqe));
	cqe->expected_trans_sig = cpu_to_be32(e->exp_sig);
	cqe->actual_trans_sig = cpu_to_be32(e->act_sig);
	cqe->expected_reftag = cpu_to_be32(e->exp_ref);
	cqe->actual_reftag = cpu_to_be32(e->act_ref);
	cqe->syndrome = cpu_to_be16(e->synd);
	cqe->mkey = cpu_to_be32(key);
	cqe->err_offset = cpu_to_be64(err_off);
	cqe->op_own = MLX5_CQE_SIG_ERR << 4;
	if (!fd->caps.sigerr_domain_and_sig_type)
		return;
	b[MLX5_UMR_SIGERR_CQE_SIG_TYPE_OFF] = MLX5_UMR_SIGERR_SIG_TYPE_BLOCK;
	b[MLX5_UMR_SIGERR_CQE_DOMAIN_OFF] = wire ? MLX5_UMR_SIGERR_DOMAIN_WIRE :
					    MLX5_UMR_SIGERR_DOMAIN_MEMORY;
}

/*
 * The first failed check of an access. The input domain's PSV goes into
 * error and keeps the CQE, unless it already is (then nothing). The CQE
 * reaches the accessor's CQ only when the mkey is armed: its
 * expected_sigerr_count differs from the low bit of the SIG_ERR CQEs it
 * produced so far, which then becomes equal to it. That is the rule the
 * references' bookkeeping implies: mlx5_ib counts every SIG_ERR CQE
 * (cq.c mlx5_poll_one(): sigerr_count++), starts at 1 before the first
 * UMR ("Next UMR, Arm SIGERR", mr.c mlx5_alloc_integrity_descs()) and
 * writes sigerr_count & 1 with each (wr.c set_sig_mkey_segment()); rdma-
 * core creates the context with err_count = 1 (verbs.c
 * mlx5_create_sig_ctx()), writes it with the next configure and again
 * after each SIG_ERR CQE (cq.c mlx5_parse_cqe(), qp.c
 * upd_mkc_sig_err_cnt(), 691953d8d502). An mkey never armed, or not
 * re-armed since its last SIG_ERR, reports nothing.
 */
static void fake_sig_report(struct mlx5_umr_fake *fd, struct fake_mkey *mk,
			    const struct fake_sig_domain *in, bool wire,
			    u32 key, u64 err_off,
			    const struct fake_sig_err *first,
			    struct mlx5_umr_test_xfer_out *out)
{
	struct fake_psv *psv = xa_load(&fd->psvs, in->psvn);
	u8 expect = MLX5_GET(mkc, mk->mkc, expected_sigerr_count);

	if (!psv || psv->sig_err)
		return;
	fake_sig_cqe(fd, &psv->err, key, err_off, first, wire);
	psv->sig_err = true;
	if (mk->sigerr_count == expect)
		return;
	mk->sigerr_count = expect;
	if (out) {
		out->sig_err = true;
		out->cqe = psv->err;
	}
}

/*
 * A stretch of the data stream in the wire buffer: @len data bytes from
 * data byte @q of the access, whose wire blocks carry @wb - @bs PI bytes
 * after every @bs data bytes, copied to (@to_wire) or from @lin.
 */
static void fake_sig_wire_copy(u8 *wire, u32 bs, u32 wb, u64 q, u8 *lin,
			       u32 len, bool to_wire)
{
	while (len) {
		u32 in_blk = do_div(q, bs), n = min(len, bs - in_blk);
		u8 *w = wire + q * wb + in_blk;

		if (to_wire)
			memcpy(w, lin, n);
		else
			memcpy(lin, w, n);
		lin += n;
		len -= n;
		q = q * bs + in_blk + n;
	}
}

/*
 * Read: memory blocks checked (the input), their data laid into the wire
 * blocks, each wire block's PI generated once its data is complete. With
 * the same block structure the blocks match one to one and the copy mask
 * takes the memory PI.
 */
static int fake_sig_read(struct mlx5_umr_fake *fd, const struct fake_sig *s,
			 u32 key, u64 start, u64 d0, u64 dlen, u8 *buf,
			 bool remote, u32 pdn, u8 *mbuf,
			 struct fake_sig_err *first, u64 *err_off)
{
	const struct fake_sig_domain *m = &s->mem, *w = &s->wire;
	u32 mb = m->bs + m->pi, wb = w->bs + w->pi;
	u64 q, wdone = 0, mblk, wblk;
	struct fake_sig_err e;
	int err;

	for (q = 0; q < dlen; q += m->bs) {
		mblk = div_u64(d0 + q, m->bs);
		err = fake_access_sig(fd, key, start + mblk * mb, mbuf, mb,
				      false, remote, pdn);
		if (err)
			return err;
		if (m->kind != FAKE_SIG_NONE && !first->synd) {
			fake_sig_check(s, m, mbuf, mbuf + m->bs, mblk, &e);
			if (e.synd) {
				*first = e;
				*err_off = (mblk + 1) * mb - 1;
			}
		}
		fake_sig_wire_copy(buf, w->bs, wb, q, mbuf, m->bs, true);
		/* the wire blocks this memory block completed */
		for (; wdone + w->bs <= q + m->bs; wdone += w->bs) {
			u8 *wd = buf + div_u64(wdone, w->bs) * wb;

			wblk = div_u64(d0 + wdone, w->bs);
			fake_sig_gen(s, w, wd,
				     m->kind != FAKE_SIG_NONE ? mbuf + m->bs :
				     NULL, wd + w->bs, wblk);
		}
	}
	return 0;
}

/*
 * Write: every wire block checked (the input) in place, then each memory
 * block gathered from the wire blocks, its PI generated and stored.
 */
static int fake_sig_write(struct mlx5_umr_fake *fd, const struct fake_sig *s,
			  u32 key, u64 start, u64 d0, u64 dlen, u8 *buf,
			  bool remote, u32 pdn, u8 *mbuf,
			  struct fake_sig_err *first, u64 *err_off)
{
	const struct fake_sig_domain *m = &s->mem, *w = &s->wire;
	u32 mb = m->bs + m->pi, wb = w->bs + w->pi;
	struct fake_sig_err e;
	u64 q, blk;
	int err;

	for (q = 0; w->kind != FAKE_SIG_NONE && q < dlen; q += w->bs) {
		u8 *wd = buf + div_u64(q, w->bs) * wb;

		blk = div_u64(d0 + q, w->bs);
		fake_sig_check(s, w, wd, wd + w->bs, blk, &e);
		if (e.synd) {
			*first = e;
			*err_off = (blk + 1) * wb - 1;
			break;
		}
	}
	for (q = 0; q < dlen; q += m->bs) {
		const u8 *ipi = NULL;

		blk = div_u64(d0 + q, m->bs);
		fake_sig_wire_copy(buf, w->bs, wb, q, mbuf, m->bs, false);
		/* the copy mask: same block structure, one wire block */
		if (s->sbs)
			ipi = buf + div_u64(q, w->bs) * wb + w->bs;
		fake_sig_gen(s, m, mbuf, ipi, mbuf + m->bs, blk);
		err = fake_access_sig(fd, key, start + blk * mb, mbuf, mb,
				      true, remote, pdn);
		if (err)
			return err;
	}
	return 0;
}

/**
 * fake_sig_xfer() - an access through a signature mkey
 * @fd: the fake
 * @mk: the mkey (fake_mkey_has_bsf())
 * @key: its key as the access names it
 * @offset: byte offset in the wire view
 * @buf: the wire bytes: source of a write, destination of a read
 * @len: wire bytes
 * @write: wire -> memory, else memory -> wire
 * @remote: as fake_access()
 * @pdn: as fake_access()
 * @out: receives the SIG_ERR CQE of the first failed check, if any
 *
 * The two domains may have different block sizes (mlx5_ib wr.c
 * mlx5_set_bsf() and rdma-core qp.c mlx5_umr_fill_sig_bsf() write the
 * wire's selector when the structures differ): one stream of data bytes,
 * cut into memory blocks in memory and wire blocks on the wire. An access
 * covers whole wire blocks whose data are also whole memory blocks (the
 * fake does not model a partial block of either domain: access error).
 * Every access right is checked over the memory range first, so a
 * refused access moves no data.
 *
 * Context: fd->lock held.
 * Return: FAKE_X_OK or the first violation.
 */
int fake_sig_xfer(struct mlx5_umr_fake *fd, struct fake_mkey *mk, u32 key,
		  u64 offset, u8 *buf, size_t len, bool write, bool remote,
		  u32 pdn, struct mlx5_umr_test_xfer_out *out)
{
	u64 start = MLX5_GET64(mkc, mk->mkc, start_addr);
	struct fake_sig_err first = {};
	u64 d0, dlen, err_off = 0;
	struct fake_sig s;
	u32 wb, mb, nw;
	u8 *mbuf;
	int err;

	if (fake_sig_decode(fd, mk->bsf, mk->bsf_oct, &s))
		return FAKE_X_MODE;
	if (s.mem.kind == FAKE_SIG_NONE && s.wire.kind == FAKE_SIG_NONE)
		return fake_access_sig(fd, key, start + offset, buf, len, write,
				       remote, pdn);
	/* a domain without PI has no blocks of its own: the other's */
	if (s.mem.kind == FAKE_SIG_NONE)
		s.mem.bs = s.wire.bs;
	if (s.wire.kind == FAKE_SIG_NONE)
		s.wire.bs = s.mem.bs;
	wb = s.wire.bs + s.wire.pi;
	mb = s.mem.bs + s.mem.pi;
	if (do_div(offset, wb) || len % wb)
		return FAKE_X_BOUNDS;
	nw = len / wb;
	d0 = offset * s.wire.bs;
	dlen = (u64)nw * s.wire.bs;
	if (do_div(d0, s.mem.bs) || dlen % s.mem.bs ||
	    d0 * s.mem.bs + dlen > s.raw_data_size)
		return FAKE_X_BOUNDS;
	/* d0 is now the first memory block */
	err = fake_access_sig(fd, key, start + d0 * mb, NULL,
			      div_u64(dlen, s.mem.bs) * mb, write, remote,
			      pdn);
	if (err || !nw)
		return err;
	d0 *= s.mem.bs;

	mbuf = kmalloc(mb, GFP_ATOMIC);
	if (!mbuf)
		return FAKE_X_NOMEM;
	if (write)
		err = fake_sig_write(fd, &s, key, start, d0, dlen, buf, remote,
				     pdn, mbuf, &first, &err_off);
	else
		err = fake_sig_read(fd, &s, key, start, d0, dlen, buf, remote,
				    pdn, mbuf, &first, &err_off);
	kfree(mbuf);
	if (err || !first.synd)
		return err;
	fake_sig_report(fd, mk, write ? &s.wire : &s.mem, write, key, err_off,
			&first, out);
	return FAKE_X_OK;
}

/* ---- signature and crypto: the BSF pair ---- */

/* The largest chunk of blocks the pair engine buffers (each format). */
#define FAKE_SC_MAX_CHUNK	SZ_64K

/**
 * struct fake_sc - one access through an mkey with a BSF pair
 * @s: the signature (bs set in both domains)
 * @x: the crypto BSF, bound to its DEK
 * @bs: data bytes per block
 * @mb: memory bytes per block (data and memory PI)
 * @wb: wire bytes per block (data and wire PI)
 * @k: blocks per chunk: whole data units of the crypto stream
 * @eb: crypto stream bytes per block
 * @raw: the signature is over ciphertext and the crypto over data only
 *	(ENCRYPTED_RAW_*); else the crypto covers its side's PI too
 * @mem_side: the crypto runs on the memory format (signature after crypto
 *	on TX: ENCRYPTED_MEMORY_SIGNATURE, ENCRYPTED_RAW_WIRE), else on the
 *	wire format
 * @encrypt: this access encrypts (else decrypts)
 * @dbuf: data of a chunk, for a raw crypto stage between PI (or NULL)
 */
struct fake_sc {
	struct fake_sig s;
	struct fake_xts x;
	u32 bs, mb, wb, k, eb;
	bool raw, mem_side, encrypt;
	u8 *dbuf;
};

/*
 * The crypto stage on @k blocks of @fb bytes (data, then @pi bytes of PI)
 * from block @blk: all of it, or (raw) the data bytes only, gathered into
 * one stream. The data units are counted in that stream from the mkey's
 * start, which @blk * its block bytes is a whole number of.
 */
static int fake_sc_crypto(struct fake_sc *c, u8 *buf, u32 fb, u32 pi,
			  u64 blk)
{
	u32 i, eb = c->raw ? c->bs : fb;
	u64 unit0 = div_u64(blk * eb, c->x.du);
	int err;

	if (!c->raw || !pi)
		return fake_xts_run(&c->x, buf, (u64)c->k * eb, unit0,
				    c->encrypt);
	for (i = 0; i < c->k; i++)
		memcpy(c->dbuf + i * c->bs, buf + i * fb, c->bs);
	err = fake_xts_run(&c->x, c->dbuf, (u64)c->k * c->bs, unit0,
			   c->encrypt);
	for (i = 0; i < c->k; i++)
		memcpy(buf + i * fb, c->dbuf + i * c->bs, c->bs);
	return err;
}

/*
 * The signature stage on @k blocks from @blk: check the input domain's
 * PI of each block of @ib, write its data and the output domain's PI to
 * @ob; the first failure goes to @first and @err_off.
 */
static void fake_sc_sig(struct fake_sc *c, bool write, const u8 *ib, u8 *ob,
			u64 blk, struct fake_sig_err *first, u64 *err_off)
{
	const struct fake_sig_domain *in = write ? &c->s.wire : &c->s.mem;
	const struct fake_sig_domain *od = write ? &c->s.mem : &c->s.wire;
	u32 ibs = c->bs + in->pi, obs = c->bs + od->pi, i;
	struct fake_sig_err e;

	for (i = 0; i < c->k; i++) {
		const u8 *idata = ib + i * ibs;
		const u8 *ipi = in->kind != FAKE_SIG_NONE ? idata + c->bs : NULL;
		u8 *odata = ob + i * obs;

		if (ipi && !first->synd) {
			fake_sig_check(&c->s, in, idata, ipi, blk + i, &e);
			if (e.synd) {
				*first = e;
				*err_off = (blk + i + 1) * ibs - 1;
			}
		}
		memcpy(odata, idata, c->bs);
		fake_sig_gen(&c->s, od, idata, ipi, odata + c->bs, blk + i);
	}
}

/* Decode, bind and size an access; FAKE_X_* */
static int fake_sc_setup(struct mlx5_umr_fake *fd, struct fake_mkey *mk,
			 bool write, struct fake_sc *c)
{
	const struct fake_sig_domain *m = &c->s.mem, *w = &c->s.wire;
	u32 eb;
	int err;

	if (fake_bsf_pair_decode(fd, mk->bsf, mk->bsf_oct, &c->s, &c->x))
		return FAKE_X_MODE;
	err = fake_crypto_bind(fd, mk, (const void *)(mk->bsf +
						       sizeof(struct mlx5_bsf)),
			       &c->x);
	if (err)
		return err;
	/* no signature set (a reset): blocks of one data unit, no PI */
	if (m->kind == FAKE_SIG_NONE && w->kind == FAKE_SIG_NONE)
		c->bs = c->x.du;
	else
		c->bs = m->kind != FAKE_SIG_NONE ? m->bs : w->bs;
	c->s.mem.bs = c->bs;
	c->s.wire.bs = c->bs;
	c->mb = c->bs + m->pi;
	c->wb = c->bs + w->pi;
	c->raw = c->x.order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE ||
		 c->x.order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_MEMORY;
	c->mem_side = c->x.order == MLX5_UMR_ENC_ORDER_ENCRYPTED_MEMORY_SIGNATURE ||
		      c->x.order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE;
	/* TX encrypts towards an encrypted wire; RX does the opposite */
	c->encrypt = write != (c->x.order ==
			       MLX5_UMR_ENC_ORDER_ENCRYPTED_WIRE_SIGNATURE ||
			       c->x.order == MLX5_UMR_ENC_ORDER_ENCRYPTED_RAW_WIRE);
	eb = c->raw ? c->bs : c->mem_side ? c->mb : c->wb;
	c->eb = eb;
	c->k = c->x.du / gcd(eb, c->x.du);
	if ((u64)c->k * max(c->mb, c->wb) > FAKE_SC_MAX_CHUNK)
		return FAKE_X_MODE;
	return FAKE_X_OK;
}

/**
 * fake_sig_crypto_xfer() - an access through an mkey with signature and
 *	crypto (a BSF pair)
 * @fd: the fake
 * @mk: the mkey, with crypto_en, not free
 * @key: its key as the access names it
 * @offset: byte offset in the wire view
 * @buf: the wire bytes: source of a write, destination of a read
 * @len: wire bytes
 * @write: wire -> memory (RX), else memory -> wire (TX)
 * @remote: as fake_access()
 * @pdn: as fake_access()
 * @out: receives the SIG_ERR CQE of the first failed check, if any
 *
 * The two engines run in the order enc_order gives (mlx5dv_wr_set_mkey_
 * crypto(3), the table of signature_crypto_order): on TX, crypto then
 * signature when the crypto is on the memory side, signature then crypto
 * when it is on the wire side; on RX the other way round. The orders
 * ENCRYPTED_WIRE_SIGNATURE and _MEMORY_SIGNATURE encrypt their side's
 * blocks with their PI (rows C, D, E, H, I: enc(data+SIG)) and sign
 * plaintext; the RAW orders encrypt the data bytes only and sign the
 * ciphertext (rows B, J: enc(data)+SIG). Data units run over that crypto
 * stream from the mkey's start; an access covers whole wire blocks that
 * are whole data units of it, in chunks of both.
 *
 * Context: fd->lock held.
 * Return: FAKE_X_OK or the first violation; on a violation no byte moved.
 */
int fake_sig_crypto_xfer(struct mlx5_umr_fake *fd, struct fake_mkey *mk,
			 u32 key, u64 offset, u8 *buf, size_t len, bool write,
			 bool remote, u32 pdn,
			 struct mlx5_umr_test_xfer_out *out)
{
	u64 start = MLX5_GET64(mkc, mk->mkc, start_addr);
	struct fake_sig_err first = {};
	u64 blk0, blk, err_off = 0;
	u8 *mbuf = NULL, *wbuf = NULL;
	struct fake_sc c = {};
	u32 n, j, cm, cw;
	int err;

	err = fake_sc_setup(fd, mk, write, &c);
	if (err)
		return err;
	if (do_div(offset, c.wb) || len % c.wb)
		return FAKE_X_BOUNDS;
	blk0 = offset;
	n = len / c.wb;
	if (do_div(offset, c.k) || n % c.k ||
	    (blk0 + n) * c.bs > c.s.raw_data_size ||
	    !fake_crypto_units_ok(fd, (u64)n * c.eb, c.x.du))
		return FAKE_X_BOUNDS;
	err = fake_access_crypto(fd, key, start + blk0 * c.mb, NULL,
				 (u64)n * c.mb, write, remote, pdn, true);
	if (err || !n)
		return err;

	cm = c.k * c.mb;
	cw = c.k * c.wb;
	mbuf = kmalloc(cm, GFP_ATOMIC);
	wbuf = kmalloc(cw, GFP_ATOMIC);
	if (c.raw)
		c.dbuf = kmalloc(c.k * c.bs, GFP_ATOMIC);
	if (!mbuf || !wbuf || (c.raw && !c.dbuf)) {
		err = FAKE_X_NOMEM;
		goto out;
	}
	for (j = 0; j < n && !err; j += c.k) {
		u8 *w = buf + (u64)j * c.wb;

		blk = blk0 + j;
		if (write) {
			memcpy(wbuf, w, cw);
			if (!c.mem_side)
				err = fake_sc_crypto(&c, wbuf, c.wb,
						     c.s.wire.pi, blk);
			if (!err)
				fake_sc_sig(&c, true, wbuf, mbuf, blk, &first,
					    &err_off);
			if (!err && c.mem_side)
				err = fake_sc_crypto(&c, mbuf, c.mb,
						     c.s.mem.pi, blk);
			if (!err)
				err = fake_access_crypto(fd, key,
							 start + blk * c.mb,
							 mbuf, cm, true,
							 remote, pdn, true);
		} else {
			err = fake_access_crypto(fd, key, start + blk * c.mb,
						 mbuf, cm, false, remote, pdn,
						 true);
			if (!err && c.mem_side)
				err = fake_sc_crypto(&c, mbuf, c.mb,
						     c.s.mem.pi, blk);
			if (!err)
				fake_sc_sig(&c, false, mbuf, wbuf, blk, &first,
					    &err_off);
			if (!err && !c.mem_side)
				err = fake_sc_crypto(&c, wbuf, c.wb,
						     c.s.wire.pi, blk);
			if (!err)
				memcpy(w, wbuf, cw);
		}
	}
	if (err)
		err = FAKE_X_FAULT;
	else if (first.synd)
		fake_sig_report(fd, mk, write ? &c.s.wire : &c.s.mem, write,
				key, err_off, &first, out);
out:
	kfree_sensitive(c.dbuf);
	kfree_sensitive(wbuf);
	kfree_sensitive(mbuf);
	return err;
}

/**
 * mlx5_umr_fake_query_psv() - a PSV's state (test-only)
 * @fake: the fake
 * @psvn: the PSV index CREATE_PSV returned
 * @val: receives what the last SET_PSV wrote, or NULL
 * @err: receives the SIG_ERR CQE that put the PSV in error, or NULL
 *
 * Context: any.
 * Return: 1 when a failed check left the PSV in error (until SET_PSV), 0
 * when it is armed, -ENOENT for an unknown PSV.
 */
int mlx5_umr_fake_query_psv(struct mlx5_umr_fake *fake, u32 psvn,
			    struct mlx5_seg_set_psv *val,
			    struct mlx5_sig_err_cqe *err)
{
	struct fake_psv *psv;
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&fake->lock, flags);
	psv = xa_load(&fake->psvs, psvn);
	if (psv) {
		if (val)
			*val = psv->val;
		if (err)
			*err = psv->err;
		ret = psv->sig_err;
	}
	spin_unlock_irqrestore(&fake->lock, flags);
	return ret;
}
EXPORT_SYMBOL(mlx5_umr_fake_query_psv);
