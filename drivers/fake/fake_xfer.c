// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: the data path.
 *
 * An access through a key walks the mkey's translation the way the HCA's
 * translation unit does: PA and MTT mkeys resolve to device addresses,
 * KLM/KSM mkeys and repeat blocks resolve to (key, address) pairs that are
 * walked again, up to MLX5_UMR_FAKE_MAX_DEPTH mkeys deep. Every mkey on the
 * way must be valid (not free, variant matching), in the PD of the outer
 * key, and grant the access: RR/RW for the outer key of a remote access,
 * LR/LW otherwise. Every device address must be mapped in the fake IOMMU.
 *
 * The walk runs twice under fd->lock: once to check, once to copy, so a
 * failed access moves no data.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/mm.h>

#include "fake.h"

struct fake_walk {
	struct mlx5_umr_fake *fd;
	u8 *buf;	/* NULL: check only */
	bool write;
	bool remote;
	bool sig;	/* the signature engine reaches the outer key's memory */
	bool crypto;	/* the crypto engine reaches the outer key's memory */
	u32 pdn;	/* the accessor's, or FAKE_PD_OUTER until the outer key */
};

static int fake_walk_key(struct fake_walk *w, u32 key, u64 va, u64 len,
			 u64 boff, int depth);

static int fake_walk_dev(struct fake_walk *w, u64 addr, u64 len, u64 boff)
{
	if (fake_iommu_rw(w->fd, addr, w->buf ? w->buf + boff : NULL, len,
			  w->write))
		return FAKE_X_FAULT;
	return FAKE_X_OK;
}

static int fake_walk_mtt(struct fake_walk *w, struct fake_mkey *mk, u64 va,
			 u64 len, u64 boff)
{
	unsigned int lps = MLX5_GET(mkc, mk->mkc, log_page_size);
	u64 start = MLX5_GET64(mkc, mk->mkc, start_addr);
	u64 pgsz, a, nmtt;
	int err;

	if (lps < FAKE_PAGE_SHIFT || lps > 40)
		return FAKE_X_MODE;
	pgsz = 1ULL << lps;
	a = va - (start & ~(pgsz - 1));
	nmtt = (u64)mk->xlt_oct * 2;
	while (len) {
		u64 idx = a >> lps, in = a & (pgsz - 1);
		u64 n = min(len, pgsz - in);
		__be64 ptag;

		if (idx >= nmtt)
			return FAKE_X_BOUNDS;
		memcpy(&ptag, mk->xlt + idx * 8, 8);
		err = fake_walk_dev(w, (be64_to_cpu(ptag) & ~(pgsz - 1)) + in,
				    n, boff);
		if (err)
			return err;
		a += n;
		boff += n;
		len -= n;
	}
	return FAKE_X_OK;
}

static int fake_walk_klm(struct fake_walk *w, struct fake_mkey *mk, u64 off,
			 u64 len, u64 boff, int depth)
{
	u64 pos = 0;
	u32 i;
	int err;

	for (i = 0; i < mk->xlt_oct && len; i++) {
		const struct mlx5_klm *klm = (void *)(mk->xlt + i * 16);
		u64 bc = be32_to_cpu(klm->bcount), n, d;

		if (off < pos + bc) {
			d = off - pos;
			n = min(len, bc - d);
			err = fake_walk_key(w, be32_to_cpu(klm->key),
					    be64_to_cpu(klm->va) + d, n, boff,
					    depth + 1);
			if (err)
				return err;
			off += n;
			boff += n;
			len -= n;
		}
		pos += bc;
	}
	return len ? FAKE_X_BOUNDS : FAKE_X_OK;
}

static int fake_walk_ksm(struct fake_walk *w, struct fake_mkey *mk, u64 off,
			 u64 len, u64 boff, int depth)
{
	unsigned int lps = MLX5_GET(mkc, mk->mkc, log_page_size);
	u64 esz;
	int err;

	if (lps > 40)
		return FAKE_X_MODE;
	esz = 1ULL << lps;
	while (len) {
		u64 idx = off >> lps, in = off & (esz - 1);
		u64 n = min(len, esz - in);
		const struct mlx5_ksm *ksm;

		if (idx >= mk->xlt_oct)
			return FAKE_X_BOUNDS;
		ksm = (void *)(mk->xlt + idx * 16);
		err = fake_walk_key(w, be32_to_cpu(ksm->key),
				    be64_to_cpu(ksm->va) + in, n, boff,
				    depth + 1);
		if (err)
			return err;
		off += n;
		boff += n;
		len -= n;
	}
	return FAKE_X_OK;
}

static bool fake_is_repeat_block(struct fake_mkey *mk)
{
	const struct mlx5_stride_block_ctrl_seg *rb = (void *)mk->xlt;

	return mk->xlt_oct && be32_to_cpu(rb->op) == MLX5_STRIDE_BLOCK_OP;
}

/*
 * Repeat block: the pattern of num_entries entries repeats repeat_count
 * times; within cycle c, entry j contributes bcount bytes starting at
 * va + c * stride (stride = bytes_count + bytes_skip).
 */
static int fake_walk_rb(struct fake_walk *w, struct fake_mkey *mk, u64 off,
			u64 len, u64 boff, int depth)
{
	const struct mlx5_stride_block_ctrl_seg *rb = (void *)mk->xlt;
	const struct mlx5_stride_block_entry *ent = (void *)(mk->xlt + 16);
	u64 bcpc = be32_to_cpu(rb->bcount_per_cycle);
	u64 rep = be32_to_cpu(rb->repeat_count);
	u32 n = be16_to_cpu(rb->num_entries), j;
	int err;

	if (!n || n > mk->xlt_oct - 1 || !bcpc)
		return FAKE_X_RB;
	if (off + len > bcpc * rep || off + len < off)
		return FAKE_X_BOUNDS;
	while (len) {
		u64 cycle = div64_u64(off, bcpc), in = off - cycle * bcpc;
		u64 cum = 0, cnt;

		for (j = 0; j < n; j++) {
			cnt = be16_to_cpu(ent[j].bcount);
			if (in < cum + cnt)
				break;
			cum += cnt;
		}
		if (j == n)
			return FAKE_X_RB;	/* bcount_per_cycle > sum */
		cnt = min(len, cum + cnt - in);
		err = fake_walk_key(w, be32_to_cpu(ent[j].key),
				    be64_to_cpu(ent[j].va) +
				    cycle * be16_to_cpu(ent[j].stride) +
				    (in - cum), cnt, boff, depth + 1);
		if (err)
			return err;
		off += cnt;
		boff += cnt;
		len -= cnt;
	}
	return FAKE_X_OK;
}

static int fake_walk_key(struct fake_walk *w, u32 key, u64 va, u64 len,
			 u64 boff, int depth)
{
	bool outer = depth == 0;
	struct fake_mkey *mk;
	const void *mkc;
	u64 start, mlen, off;
	bool ok;

	if (depth >= MLX5_UMR_FAKE_MAX_DEPTH)
		return FAKE_X_DEPTH;
	if (key == MLX5_UMR_FAKE_RESD_LKEY) {
		/* reserved lkey: device addresses, never as an rkey */
		if (outer && w->remote)
			return FAKE_X_KEY;
		return fake_walk_dev(w, va, len, boff);
	}
	mk = fake_mkey_lookup(w->fd, key);
	if (!mk)
		return FAKE_X_KEY;
	mkc = mk->mkc;
	if (MLX5_GET(mkc, mkc, free))
		return FAKE_X_FREE;
	/*
	 * A crypto mkey moves data only through fake_crypto_xfer(), a
	 * signature mkey only through fake_sig_xfer(), which maps its wire
	 * view to the memory view; nested, neither is modelled. A crypto
	 * mkey has a BSF too: crypto_en tells them apart.
	 */
	if (fake_mkey_crypto(mk) ? !(outer && w->crypto) :
	    fake_mkey_has_bsf(mk) && !(outer && w->sig))
		return FAKE_X_MODE;
	if (outer && w->remote)
		ok = w->write ? MLX5_GET(mkc, mkc, rw) : MLX5_GET(mkc, mkc, rr);
	else
		ok = w->write ? MLX5_GET(mkc, mkc, lw) : MLX5_GET(mkc, mkc, lr);
	if (!ok)
		return FAKE_X_ACCESS;
	/* mkey PD == the accessing QP's PD, at every level of nesting */
	if (outer && w->pdn == FAKE_PD_OUTER)
		w->pdn = MLX5_GET(mkc, mkc, pd);
	else if (MLX5_GET(mkc, mkc, pd) != w->pdn)
		return FAKE_X_PD;

	/*
	 * An mkey's addresses are [start_addr, start_addr + len): an FRWR
	 * MR is addressed from mr->iova, which mlx5_ib writes in start_addr
	 * (drivers/infiniband/hw/mlx5/wr.c set_reg_mkey_seg(), Linux 6.1 and
	 * 6.12), and a zero-based mkey from 0 (rdma-core providers/mlx5/qp.c
	 * set_umr_mkey_seg(): start_addr 0 for a zero-based bind, 691953d8d502).
	 */
	start = MLX5_GET64(mkc, mkc, start_addr);
	mlen = MLX5_GET64(mkc, mkc, len);
	if (va < start)
		return FAKE_X_BOUNDS;
	off = va - start;
	if (!MLX5_GET(mkc, mkc, length64) &&
	    (off > mlen || len > mlen - off))
		return FAKE_X_BOUNDS;

	switch (fake_mkey_access_mode(mkc)) {
	case MLX5_MKC_ACCESS_MODE_PA:
		return fake_walk_dev(w, va, len, boff);
	case MLX5_MKC_ACCESS_MODE_MTT:
		return fake_walk_mtt(w, mk, va, len, boff);
	case MLX5_MKC_ACCESS_MODE_KLMS:
		if (fake_is_repeat_block(mk))
			return fake_walk_rb(w, mk, off, len, boff, depth);
		return fake_walk_klm(w, mk, off, len, boff, depth);
	case MLX5_MKC_ACCESS_MODE_KSM:
		return fake_walk_ksm(w, mk, off, len, boff, depth);
	default:
		return FAKE_X_MODE;
	}
}

static int fake_access_walk(struct mlx5_umr_fake *fd, u32 key, u64 va,
			    void *buf, size_t len, bool write, bool remote,
			    u32 pdn, bool sig, bool crypto)
{
	struct fake_walk w = {
		.fd = fd, .write = write, .remote = remote, .pdn = pdn,
		.sig = sig, .crypto = crypto,
	};
	int err;

	lockdep_assert_held(&fd->lock);
	if (!len)
		return FAKE_X_OK;
	err = fake_walk_key(&w, key, va, len, 0, 0);
	if (err || !buf)
		return err;
	w.buf = buf;
	w.pdn = pdn;
	return fake_walk_key(&w, key, va, len, 0, 0);
}

/**
 * fake_access() - move data through a key
 * @fd: the fake
 * @key: outer key
 * @va: address in the key's address space (start_addr based)
 * @buf: data, or NULL to only check the access
 * @len: bytes
 * @write: write @buf to the memory (else read into @buf)
 * @remote: the outer key is used as an rkey
 * @pdn: PD of the accessing QP; every mkey on the way must be in it.
 *	FAKE_PD_OUTER: the outer mkey's PD (the service's own reads)
 *
 * A signature mkey (one with a BSF) is refused here: see fake_sig_xfer().
 *
 * Context: fd->lock held.
 * Return: FAKE_X_OK or the first violation found; on a violation no byte
 * was moved.
 */
int fake_access(struct mlx5_umr_fake *fd, u32 key, u64 va, void *buf,
		size_t len, bool write, bool remote, u32 pdn)
{
	return fake_access_walk(fd, key, va, buf, len, write, remote, pdn,
				false, false);
}

/**
 * fake_access_sig() - fake_access() of a signature mkey's memory view
 * @fd: the fake
 * @key: the signature mkey's key
 * @va: address in its memory view (start_addr based)
 * @buf: data, or NULL to only check the access
 * @len: bytes
 * @write: write @buf to the memory (else read into @buf)
 * @remote: the outer key is used as an rkey
 * @pdn: as fake_access()
 *
 * Context: fd->lock held.
 * Return: as fake_access().
 */
int fake_access_sig(struct mlx5_umr_fake *fd, u32 key, u64 va, void *buf,
		    size_t len, bool write, bool remote, u32 pdn)
{
	return fake_access_walk(fd, key, va, buf, len, write, remote, pdn,
				true, false);
}

/**
 * fake_access_crypto() - fake_access(), of a crypto mkey's memory too
 * @fd: the fake
 * @key: outer key
 * @va: address in the key's address space (start_addr based)
 * @buf: data, or NULL to only check the access
 * @len: bytes
 * @write: write @buf to the memory (else read into @buf)
 * @remote: the outer key is used as an rkey
 * @pdn: as fake_access()
 * @crypto: the outer key may be a crypto mkey (its raw memory is moved)
 *
 * Context: fd->lock held.
 * Return: as fake_access().
 */
int fake_access_crypto(struct mlx5_umr_fake *fd, u32 key, u64 va, void *buf,
		       size_t len, bool write, bool remote, u32 pdn,
		       bool crypto)
{
	return fake_access_walk(fd, key, va, buf, len, write, remote, pdn,
				false, crypto);
}

/**
 * fake_xfer_key() - move data through a key at an address of its space
 * @fd: the fake
 * @pdn: the accessing QP's PD, or FAKE_PD_OUTER (as fake_access())
 * @key: the lkey or rkey
 * @va: the address, start_addr based, as an SGE or an RDMA raddr names it
 * @buf: source (@write) or destination of @len bytes; NULL: check only,
 *	which a signature or crypto mkey refuses (FAKE_X_MODE)
 * @len: bytes (for a signature mkey, wire bytes)
 * @write: into the memory, else out of it
 * @remote: the key is used as an rkey
 * @out: receives a signature engine's SIG_ERR CQE; zeroed here
 *
 * A crypto mkey goes through fake_crypto_xfer(), a signature mkey through
 * fake_sig_xfer(), any other key through fake_access().
 *
 * Context: fd->lock held.
 * Return: FAKE_X_OK or the first violation; on a violation no byte moved.
 */
int fake_xfer_key(struct mlx5_umr_fake *fd, u32 pdn, u32 key, u64 va,
		  void *buf, size_t len, bool write, bool remote,
		  struct mlx5_umr_test_xfer_out *out)
{
	struct fake_mkey *mk;
	u64 start;

	lockdep_assert_held(&fd->lock);
	memset(out, 0, sizeof(*out));
	mk = fake_mkey_lookup(fd, key);
	if (!mk || MLX5_GET(mkc, mk->mkc, free) ||
	    !(fake_mkey_crypto(mk) || fake_mkey_has_bsf(mk)))
		return fake_access(fd, key, va, buf, len, write, remote, pdn);
	start = MLX5_GET64(mkc, mk->mkc, start_addr);
	if (va < start)
		return FAKE_X_BOUNDS;
	if (!buf && len)
		return FAKE_X_MODE;
	if (fake_mkey_crypto(mk))
		return fake_crypto_xfer(fd, mk, key, va - start, buf, len,
					write, remote, pdn, out);
	return fake_sig_xfer(fd, mk, key, va - start, buf, len, write, remote,
			     pdn, out);
}

static int fake_xfer_pd(struct mlx5_umr_fake *fd, u32 pdn, u32 key,
			u64 offset, void *buf, size_t len, bool write,
			bool remote, struct mlx5_umr_test_xfer_out *out)
{
	struct mlx5_umr_test_xfer_out tmp;
	struct fake_mkey *mk;
	unsigned long flags;
	u64 va = offset;
	int err;

	if (!out)
		out = &tmp;
	memset(out, 0, sizeof(*out));
	if (len && !buf)
		return -EINVAL;
	spin_lock_irqsave(&fd->lock, flags);
	if (fd->internal_error) {
		spin_unlock_irqrestore(&fd->lock, flags);
		return -EIO;
	}
	mk = fake_mkey_lookup(fd, key);
	if (mk)
		va += MLX5_GET64(mkc, mk->mkc, start_addr);
	err = fake_xfer_key(fd, pdn, key, va, buf, len, write, remote, out);
	spin_unlock_irqrestore(&fd->lock, flags);
	if (!err)
		return 0;
	if (err == FAKE_X_NOMEM)
		return -ENOMEM;
	return remote ? MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR :
			MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
}

int fake_test_xfer(struct mlx5_umr_hca *hca, u32 key, u64 offset, void *buf,
		   size_t len, bool write, bool remote)
{
	return fake_xfer_pd(to_fake(hca), FAKE_PD_OUTER, key, offset, buf, len,
			    write, remote, NULL);
}

int fake_test_xfer_out(struct mlx5_umr_hca *hca, u32 key, u64 offset,
		       void *buf, size_t len, bool write, bool remote,
		       struct mlx5_umr_test_xfer_out *out)
{
	return fake_xfer_pd(to_fake(hca), FAKE_PD_OUTER, key, offset, buf, len,
			    write, remote, out);
}

/**
 * mlx5_umr_fake_xfer() - RDMA READ/WRITE through a key (test-only)
 * @fake: the fake
 * @key: the rkey (@remote) or lkey
 * @offset: byte offset from the mkey's start_addr
 * @buf: source (@write) or destination buffer of @len bytes
 * @len: bytes to move
 * @write: RDMA WRITE into the memory, else RDMA READ from it
 * @remote: access as a remote peer (RR/RW needed), else locally (LR/LW)
 *
 * Same as the fake's test hook (struct mlx5_umr_test_hca_ops.xfer).
 * Context: any; does not sleep.
 * Return: 0, the CQE syndrome the requester would see
 * (MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR or _LOCAL_PROT_ERR), or -errno.
 */
int mlx5_umr_fake_xfer(struct mlx5_umr_fake *fake, u32 key, u64 offset,
		       void *buf, size_t len, bool write, bool remote)
{
	return fake_test_xfer(&fake->hca, key, offset, buf, len, write, remote);
}
EXPORT_SYMBOL(mlx5_umr_fake_xfer);

/**
 * mlx5_umr_fake_xfer_pd() - RDMA READ/WRITE by a QP of PD @pdn (test-only)
 * @fake: the fake
 * @pdn: the accessing QP's PD: the outer mkey and every mkey its
 *	translation names must be in it, as on a NIC (mkey PD == QP PD)
 * @key: the rkey (@remote) or lkey
 * @offset: byte offset from the mkey's start_addr
 * @buf: source (@write) or destination buffer of @len bytes
 * @len: bytes to move
 * @write: RDMA WRITE into the memory, else RDMA READ from it
 * @remote: access as a remote peer (RR/RW needed), else locally (LR/LW)
 *
 * Context: any; does not sleep.
 * Return: as mlx5_umr_fake_xfer(); a PD mismatch at any level is the
 * access error of @remote.
 */
int mlx5_umr_fake_xfer_pd(struct mlx5_umr_fake *fake, u32 pdn, u32 key,
			  u64 offset, void *buf, size_t len, bool write,
			  bool remote)
{
	return fake_xfer_pd(fake, pdn, key, offset, buf, len, write, remote,
			    NULL);
}
EXPORT_SYMBOL(mlx5_umr_fake_xfer_pd);

/**
 * fake_xfer_qp() - RDMA READ/WRITE through a key by QP @qpn (test-only)
 * @fd: the fake
 * @qpn: the accessing QP, an RC QP in RTR or RTS (a user's, debugfs
 *	"xfer" with a QP number)
 * @pdn: its PD, as the caller believes it: else -EINVAL
 * @key: the rkey (@remote) or lkey
 * @offset: as mlx5_umr_fake_xfer_out()
 * @buf: source (@write) or destination buffer of @len bytes
 * @len: bytes to move
 * @write: RDMA WRITE into the memory, else RDMA READ from it
 * @remote: access as a remote peer (RR/RW needed), else locally (LR/LW)
 *
 * As mlx5_umr_fake_xfer_pd() with the QP's PD; a failed signature check
 * of an armed mkey (fake_sig.c fake_sig_report()) writes its SIG_ERR CQE
 * to the QP's CQ, where a user library polls it: libmlx5 keeps it for
 * mlx5dv_mkey_check() (rdma-core v44.0 91392a91eb41 providers/mlx5/cq.c
 * mlx5_parse_cqe(), verbs.c _mlx5dv_mkey_check()).
 *
 * Context: process; does not sleep.
 * Return: as mlx5_umr_fake_xfer(); -ENOENT: no such QP; -EINVAL: not an
 * RC QP able to receive, or not of PD @pdn.
 */
int fake_xfer_qp(struct mlx5_umr_fake *fd, u32 qpn, u32 pdn, u32 key,
		 u64 offset, void *buf, size_t len, bool write, bool remote)
{
	struct mlx5_umr_test_xfer_out out;
	unsigned long flags;
	struct fake_qp *qp;
	int err;

	qp = fake_qp_lock(fd, qpn, &flags);
	if (!qp)
		return -ENOENT;
	if (qp->st != MLX5_QP_ST_RC || qp->pdn != pdn ||
	    (qp->state != MLX5_QP_STATE_RTR &&
	     qp->state != MLX5_QP_STATE_RTS)) {
		err = -EINVAL;
		goto out;
	}
	/* qp->lock before fd->lock, as the engine nests them */
	err = fake_xfer_pd(fd, pdn, key, offset, buf, len, write, remote,
			   &out);
	if (!err && out.sig_err)
		fake_qp_sig_err_cqe(fd, qp, &out.cqe);
out:
	fake_qp_unlock(qp, flags);
	return err;
}

/**
 * mlx5_umr_fake_xfer_out() - mlx5_umr_fake_xfer(), with what else it produced
 * @fake: the fake
 * @key: the rkey (@remote) or lkey
 * @offset: byte offset from the mkey's start_addr (for a signature mkey, in
 *	its wire view: whole wire blocks)
 * @buf: source (@write) or destination buffer of @len bytes
 * @len: bytes to move
 * @write: RDMA WRITE into the memory, else RDMA READ from it
 * @remote: access as a remote peer (RR/RW needed), else locally (LR/LW)
 * @out: receives the SIG_ERR CQE of the first failed signature check, when
 *	the check's PSV was armed
 *
 * Same as the fake's test hook (struct mlx5_umr_test_hca_ops.xfer_out).
 * Context: any; does not sleep.
 * Return: as mlx5_umr_fake_xfer(); a failed signature check does not fail
 * the access.
 */
int mlx5_umr_fake_xfer_out(struct mlx5_umr_fake *fake, u32 key, u64 offset,
			   void *buf, size_t len, bool write, bool remote,
			   struct mlx5_umr_test_xfer_out *out)
{
	return fake_xfer_pd(fake, FAKE_PD_OUTER, key, offset, buf, len, write,
			    remote, out);
}
EXPORT_SYMBOL(mlx5_umr_fake_xfer_out);

/**
 * mlx5_umr_fake_remote_invalidate() - a SEND with invalidate arrives (test-only)
 * @fake: the fake
 * @key: the rkey the peer invalidates
 *
 * Models the responder side of IB_WR_SEND_WITH_INV: the mkey becomes free
 * when it was enabled for remote invalidation (mkc.en_rinval).
 *
 * Context: any.
 * Return: 0, or MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR (the sender's
 * completion: the responder NAKs an invalid request) when the key is
 * unknown, free or not enabled for remote invalidation.
 */
int mlx5_umr_fake_remote_invalidate(struct mlx5_umr_fake *fake, u32 key)
{
	struct fake_mkey *mk;
	unsigned long flags;
	int ret = MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR;

	spin_lock_irqsave(&fake->lock, flags);
	mk = fake_mkey_lookup(fake, key);
	if (mk && !MLX5_GET(mkc, mk->mkc, free) &&
	    MLX5_GET(mkc, mk->mkc, en_rinval)) {
		MLX5_SET(mkc, mk->mkc, free, 1);
		ret = 0;
	}
	spin_unlock_irqrestore(&fake->lock, flags);
	return ret;
}
EXPORT_SYMBOL(mlx5_umr_fake_remote_invalidate);
