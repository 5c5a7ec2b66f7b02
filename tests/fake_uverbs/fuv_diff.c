// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The differential test of issue 29 (Documentation/fake.rst, "rdma-core
 * on the fake", "The differential test"): each generated request runs
 * once through Debian's libmlx5 (an RC QP of the fake_uverbs device) and
 * once through the service (libmlx5umr, /dev/mlx5_umr), and the two are
 * compared by what the fakes do (the bytes read and written through both
 * keys with debugfs "xfer", the mkeys' state in "mkeys") and by the WQE
 * each fake executed (debugfs "wqes"), field by field. A field may differ
 * only when the table "Intended differences" of fake.rst (read at run
 * time: the single source of truth) has a row for it.
 *
 *   fuv_diff [-s seed] [-n requests] [-t fake.rst] [-v]
 *
 * Ends with "N requests, M unexplained differences"; exit status 0 when
 * M is 0. New request kinds (signature, crypto) add a generator, a
 * libmlx5 and a service poster and their fields to fuv_wqe_fields().
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include "mlx5umr.h"
#include "fuv_dbg.h"
#include "fuv_verbs.h"

#define PAGE		4096UL
#define BUF_SZ		(4 * PAGE)
#define MAX_ENT		8	/* entries of a request, at most */
#define MAX_WQE		1024	/* MLX5_SEND_WQE_MAX_SIZE */
#define MAX_ROWS	128
#define MAX_FIELDS	512
#define MAX_WQES	3	/* a UMR and two SET_PSVs */
#define ACC_ALL		(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | \
			 IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)

static int verbose;

/* request kinds */
enum {
	REQ_LIST, REQ_IL, REQ_INV, REQ_SIG, REQ_CRYPTO, REQ_PAIR, REQ_KINDS
};

#define REQ_BSF(k)	((k) >= REQ_SIG)
/* the mkeys of the BSF kinds, by kind - REQ_SIG */
#define NBSF		3

/* ---- the table of intended differences (fake.rst) ---- */

static char *rows[MAX_ROWS];
static unsigned int nrows, row_hits[MAX_ROWS];

/*
 * The first column of the simple table after the title "Intended
 * differences": each row's field name, in double back-quotes.
 */
static int table_load(const char *path)
{
	char line[512], *p, *q;
	int in = 0, borders = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!in) {
			in = !strncmp(line, "Intended differences", 20);
			continue;
		}
		if (!strncmp(line, "====", 4)) {
			if (++borders == 3)
				break;
			continue;
		}
		if (borders != 2 || strncmp(line, "``", 2))
			continue;
		p = line + 2;
		q = strstr(p, "``");
		if (!q || nrows == MAX_ROWS)
			continue;
		*q = 0;
		rows[nrows++] = strdup(p);
	}
	fclose(f);
	return in && borders == 3 && nrows ? 0 : -1;
}

static int table_row(const char *field)
{
	unsigned int i;

	/* a row may name fields by a pattern: "mkey.*.unmasked" */
	for (i = 0; i < nrows; i++)
		if (!fnmatch(rows[i], field, 0))
			return i;
	return -1;
}

/* ---- fields ---- */

struct field {
	const char *name;
	unsigned long long v;
};

struct fields {
	struct field f[MAX_FIELDS];
	unsigned int n;
};

static void put(struct fields *fs, const char *name, unsigned long long v)
{
	if (fs->n < MAX_FIELDS) {
		fs->f[fs->n].name = name;
		fs->f[fs->n].v = v;
		fs->n++;
	}
}

/* @name, or "@name.unmasked" when mask bit @bit (-1: none) is in neither */
static void mput(struct fields *fs, const char *name, unsigned long long v,
		 unsigned long long both, int bit)
{
	static char names[MAX_FIELDS][64];
	static unsigned int next;
	char *n;

	if (bit >= 0 && ((both >> bit) & 1)) {
		put(fs, name, v);
		return;
	}
	n = names[next++ % MAX_FIELDS];
	snprintf(n, 64, "%s.unmasked", name);
	put(fs, n, v);
}

static unsigned int be16(const __u8 *p)
{
	return p[0] << 8 | p[1];
}

static unsigned int be32(const __u8 *p)
{
	return (unsigned int)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static unsigned long long be64(const __u8 *p)
{
	return (unsigned long long)be32(p) << 32 | be32(p + 4);
}

static int all_zero(const __u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/* include/linux/mlx5/device.h MLX5_MKEY_MASK_*, by bit */
static const char *const mask_names[64] = {
	[0] = "umr.mkey_mask.LEN", [1] = "umr.mkey_mask.PAGE_SIZE",
	[6] = "umr.mkey_mask.START_ADDR", [7] = "umr.mkey_mask.PD",
	[8] = "umr.mkey_mask.EN_RINVAL", [9] = "umr.mkey_mask.EN_SIGERR",
	[12] = "umr.mkey_mask.BSF_EN", [13] = "umr.mkey_mask.KEY",
	[14] = "umr.mkey_mask.QPN", [17] = "umr.mkey_mask.LR",
	[18] = "umr.mkey_mask.LW", [19] = "umr.mkey_mask.RR",
	[20] = "umr.mkey_mask.RW", [21] = "umr.mkey_mask.A",
	[23] = "umr.mkey_mask.SMALL_FENCE",
	[25] = "umr.mkey_mask.RELAXED_ORDERING_WRITE",
	[29] = "umr.mkey_mask.FREE",
	[47] = "umr.mkey_mask.RELAXED_ORDERING_READ",
};

/* device.h MLX5_UMR_* and rdma-core's CHECK_QPN, by bit */
static const char *const uflag_names[8] = {
	"umr.flags.bit0", "umr.flags.bit1", "umr.flags.bit2",
	"umr.flags.CHECK_QPN", "umr.flags.TRANSLATION_OFFSET_EN",
	"umr.flags.CHECK_NOT_FREE", "umr.flags.CHECK_FREE",
	"umr.flags.INLINE",
};

/* mlx5_mkey_seg.flags: MLX5_PERM_* and the access mode's low bits */
static const char *const perm_names[8] = {
	"mkey.access_mode_1_0", NULL, "mkey.flags.LOCAL_READ",
	"mkey.flags.LOCAL_WRITE", "mkey.flags.REMOTE_READ",
	"mkey.flags.REMOTE_WRITE", "mkey.flags.ATOMIC", "mkey.flags.UMR_EN",
};

/* What each side's keys name, so that KLM keys compare as their MRs. */
struct keymap {
	__u32 key[2];	/* the MRs of buffers a and b */
	__u32 mkey;	/* the request's mkey */
	__u32 psv[2];	/* the memory and wire PSVs its UMR's BSF names */
};

static unsigned int psv_sym(const struct keymap *km, __u32 psv)
{
	if (psv == km->psv[0])
		return 1;
	if (psv == km->psv[1])
		return 2;
	return 0x100 | (psv & 0xff);
}

/* the control segment, the same in every WQE */
static void fuv_ctrl_fields(const __u8 *w, struct fields *fs)
{
	put(fs, "ctrl.opmod", w[0]);
	put(fs, "ctrl.wqe_index", be16(w + 1));
	put(fs, "ctrl.opcode", w[3]);
	put(fs, "ctrl.qpn", be32(w + 4) >> 8);
	put(fs, "ctrl.ds", w[7] & 0x3f);
	put(fs, "ctrl.signature", w[8]);
	put(fs, "ctrl.dci_stream_channel_id", be16(w + 9));
	put(fs, "ctrl.fence", w[11] >> 5);
	put(fs, "ctrl.ce", (w[11] >> 2) & 3);
	put(fs, "ctrl.se", (w[11] >> 1) & 1);
	put(fs, "ctrl.fm_ce_se.other", w[11] & 0x11);
}

/* include/linux/mlx5/qp.h struct mlx5_bsf_inl, of the wire or memory */
static void fuv_inl_fields(const __u8 *b, const char *const *nm,
			   struct fields *fs)
{
	put(fs, nm[0], be16(b));
	put(fs, nm[1], be16(b + 2));
	put(fs, nm[2], be32(b + 4));
	put(fs, nm[3], b[8]);
	put(fs, nm[4], b[9]);
	put(fs, nm[5], !all_zero(b + 10, 3));
	put(fs, nm[6], b[13]);
	put(fs, nm[7], be16(b + 14));
}

static const char *const w_inl_names[8] = {
	"bsf.w_inl.vld_refresh", "bsf.w_inl.dif_apptag",
	"bsf.w_inl.dif_reftag", "bsf.w_inl.sig_type",
	"bsf.w_inl.rp_inv_seed", "bsf.w_inl.rsvd",
	"bsf.w_inl.dif_inc_ref_guard_check",
	"bsf.w_inl.dif_app_bitmask_check",
};

static const char *const m_inl_names[8] = {
	"bsf.m_inl.vld_refresh", "bsf.m_inl.dif_apptag",
	"bsf.m_inl.dif_reftag", "bsf.m_inl.sig_type",
	"bsf.m_inl.rp_inv_seed", "bsf.m_inl.rsvd",
	"bsf.m_inl.dif_inc_ref_guard_check",
	"bsf.m_inl.dif_app_bitmask_check",
};

/*
 * The signature BSF (qp.h struct mlx5_bsf; rdma-core v44.0 qp.c
 * mlx5_umr_fill_sig_bsf()): the PSV numbers are the two fakes' own, so
 * they are compared by the domain they name in the SET_PSV WQEs
 * ("psv.psv_num.names").
 */
static void fuv_sig_bsf_fields(const __u8 *b, struct keymap *km,
			       struct fields *fs)
{
	put(fs, "bsf.size_sbs", b[0]);
	put(fs, "bsf.check_byte_mask", b[1]);
	put(fs, "bsf.wire_flags", b[2]);
	put(fs, "bsf.mem_flags", b[3]);
	put(fs, "bsf.raw_data_size", be32(b + 4));
	put(fs, "bsf.w_bfs", b[8]);
	put(fs, "bsf.w_psv", be32(b + 8) & 0xffffff);
	put(fs, "bsf.m_bfs", b[12]);
	put(fs, "bsf.m_psv", be32(b + 12) & 0xffffff);
	km->psv[1] = be32(b + 8) & 0xffffff;
	km->psv[0] = be32(b + 12) & 0xffffff;
	put(fs, "bsf.ext.t_init_gen_pro_size", be32(b + 16));
	put(fs, "bsf.ext.rsvd_epi_size", be32(b + 20));
	put(fs, "bsf.ext.w_tfs_psv", be32(b + 24));
	put(fs, "bsf.ext.m_tfs_psv", be32(b + 28));
	fuv_inl_fields(b + 32, w_inl_names, fs);
	fuv_inl_fields(b + 48, m_inl_names, fs);
}

/*
 * The crypto BSF (include/linux/mlx5_umr_ifc.h struct
 * mlx5_umr_crypto_bsf; rdma-core v44.0 qp.c mlx5_umr_fill_crypto_bsf()):
 * bsf_size_type is SIG_AND_CRYPTO (0xc1) after a signature BSF.
 */
static void fuv_crypto_bsf_fields(const __u8 *b, struct fields *fs)
{
	put(fs, "cbsf.bsf_size_type", b[0]);
	put(fs, "cbsf.enc_order", b[1]);
	put(fs, "cbsf.rsvd0", b[2]);
	put(fs, "cbsf.enc_standard", b[3]);
	put(fs, "cbsf.raw_data_size", be32(b + 4));
	put(fs, "cbsf.bs_pointer", b[8]);
	put(fs, "cbsf.rsvd1", !all_zero(b + 9, 7));
	put(fs, "cbsf.xts_init_tweak.0_7", be64(b + 16));
	put(fs, "cbsf.xts_init_tweak.8_15", be64(b + 24));
	put(fs, "cbsf.dek_pointer", be32(b + 32));
	put(fs, "cbsf.rsvd2", !all_zero(b + 36, 4));
	put(fs, "cbsf.keytag", be64(b + 40));
	put(fs, "cbsf.rsvd3", !all_zero(b + 48, 16));
}

/*
 * A SET_PSV WQE (qp.h struct mlx5_seg_set_psv after the control segment;
 * rdma-core v44.0 qp.c mlx5_umr_set_psv()).
 */
static void fuv_psv_fields(const __u8 *w, unsigned int len,
			   const struct keymap *km, struct fields *fs)
{
	put(fs, "wqe.len", len);
	if (len < 32)
		return;
	fuv_ctrl_fields(w, fs);
	put(fs, "ctrl.imm", be32(w + 12));
	put(fs, "psv.psv_num", be32(w + 16));
	put(fs, "psv.psv_num.names", psv_sym(km, be32(w + 16)));
	put(fs, "psv.syndrome", be16(w + 20));
	put(fs, "psv.status", be16(w + 22));
	put(fs, "psv.transient_sig", be32(w + 24));
	put(fs, "psv.ref_tag", be32(w + 28));
	put(fs, "wqe.tail", !all_zero(w + 32, len - 32));
}

static unsigned int key_sym(const struct keymap *km, __u32 key)
{
	if (key == km->key[0])
		return 1;
	if (key == km->key[1])
		return 2;
	return 0x100 | (key & 0xff);	/* no MR of ours: differs */
}

/*
 * The fields of a UMR WQE (ctrl, UMR ctrl, mkey segment, inline
 * translation: Documentation/wqe.rst, include/linux/mlx5/qp.h), with the
 * derived fields that compare keys by what they name ("*.names"); @both
 * is the two WQEs' mkey_mask ORed.
 */
static void fuv_wqe_fields(const __u8 *w, unsigned int len,
			   struct keymap *km, int kind,
			   unsigned long long both, struct fields *fs)
{
	const __u8 *u = w + 16, *m = w + 64, *x = w + 128;
	unsigned long long mask;
	unsigned int i, n, oct, ent, xlt_len, off;
	int il = kind == REQ_IL;

	put(fs, "wqe.len", len);
	if (len < 128)
		return;
	fuv_ctrl_fields(w, fs);
	put(fs, "ctrl.umr_mkey.index", be32(w + 12) >> 8);
	put(fs, "ctrl.umr_mkey.tag", w[15]);
	put(fs, "ctrl.umr_mkey.names", (be32(w + 12) >> 8) == km->mkey >> 8);

	for (i = 0; i < 8; i++)
		put(fs, uflag_names[i], (u[0] >> i) & 1);
	put(fs, "umr.rsvd0", !all_zero(u + 1, 3));
	oct = be16(u + 4);
	put(fs, "umr.xlt_octowords", oct);
	put(fs, "umr.xlt_offset", be16(u + 6));
	mask = be64(u + 8);
	for (i = 0; i < 64; i++) {
		if (mask_names[i])
			put(fs, mask_names[i], (mask >> i) & 1);
		else if ((mask >> i) & 1)
			put(fs, "umr.mkey_mask.reserved_bit", i);
	}
	put(fs, "umr.xlt_offset_47_16", be32(u + 16));
	put(fs, "umr.rsvd1", !all_zero(u + 20, 28));

	/*
	 * A field of the mkey segment that no mask bit of either WQE selects
	 * has no effect (the HCA takes what mkey_mask selects): its name
	 * says so, ".unmasked".
	 */
	mput(fs, "mkey.free", (m[0] >> 6) & 1, both, 29);
	mput(fs, "mkey.status.other", m[0] & ~0x40, both, -1);
	mput(fs, "mkey.pcie_control", m[1], both, -1);
	mput(fs, "mkey.access_mode_1_0", m[2] & 3, both, -1);
	for (i = 2; i < 7; i++)
		mput(fs, perm_names[i], (m[2] >> i) & 1, both, 15 + i);
	mput(fs, "mkey.flags.UMR_EN", m[2] >> 7, both, -1);
	mput(fs, "mkey.version", m[3], both, -1);
	mput(fs, "mkey.qpn", be32(m + 4) >> 8, both, 14);
	mput(fs, "mkey.mkey_7_0", m[7], both, 13);
	mput(fs, "mkey.rsvd1", !all_zero(m + 8, 4), both, -1);
	/* remote invalidate (bit 24), BSF enable (bit 30) */
	mput(fs, "mkey.flags_pd.en_rinval", m[12] & 1, both, 8);
	mput(fs, "mkey.flags_pd.bsf_en", (m[12] >> 6) & 1, both, 12);
	mput(fs, "mkey.flags_pd.other", m[12] & ~0x41, both, -1);
	mput(fs, "mkey.pd", be32(m + 12) & 0xffffff, both, 7);
	mput(fs, "mkey.start_addr", be64(m + 16), both, 6);
	mput(fs, "mkey.len", be64(m + 24), both, 0);
	mput(fs, "mkey.bsfs_octo_size", be32(m + 32), both, 12);
	mput(fs, "mkey.rsvd2", !all_zero(m + 36, 16), both, -1);
	mput(fs, "mkey.xlt_oct_size", be32(m + 52), both, -1);
	mput(fs, "mkey.rsvd3", !all_zero(m + 56, 3), both, -1);
	mput(fs, "mkey.log2_page_size", m[59], both, 1);
	mput(fs, "mkey.rsvd4", !all_zero(m + 60, 4), both, -1);

	/* the inline translation; the rest of the WQE must be zero */
	xlt_len = oct * 16;
	if (!(u[0] & 0x80) || 128 + xlt_len > len) {
		put(fs, "xlt.not_inline", 1);
		return;
	}
	if (il) {
		put(fs, "rb.byte_count", be32(x));
		put(fs, "rb.op", be32(x + 4));
		put(fs, "rb.repeat_count", be32(x + 8));
		put(fs, "rb.reserved", be16(x + 12));
		n = be16(x + 14);
		put(fs, "rb.num_ent", n);
		for (i = 0, ent = 1; i < n && (ent + 1) * 16 <= xlt_len;
		     i++, ent++) {
			const __u8 *e = x + 16 * ent;

			put(fs, "re.stride", be16(e));
			put(fs, "re.byte_count", be16(e + 2));
			put(fs, "re.key", be32(e + 4));
			put(fs, "re.key.names", key_sym(km, be32(e + 4)));
			put(fs, "re.va", be64(e + 8));
		}
	} else {
		for (ent = 0; (ent + 1) * 16 <= xlt_len; ent++) {
			const __u8 *e = x + 16 * ent;

			if (all_zero(e, 16))
				break;
			put(fs, "klm.bcount", be32(e));
			put(fs, "klm.key", be32(e + 4));
			put(fs, "klm.key.names", key_sym(km, be32(e + 4)));
			put(fs, "klm.va", be64(e + 8));
		}
	}
	put(fs, "xlt.entries", ent);
	put(fs, "xlt.padding", !all_zero(x + 16 * ent, xlt_len - 16 * ent));
	/* the BSFs follow the translation: signature first, then crypto */
	off = 128 + xlt_len;
	if ((kind == REQ_SIG || kind == REQ_PAIR) && off + 64 <= len) {
		fuv_sig_bsf_fields(w + off, km, fs);
		off += 64;
	}
	if ((kind == REQ_CRYPTO || kind == REQ_PAIR) && off + 64 <= len) {
		fuv_crypto_bsf_fields(w + off, fs);
		off += 64;
	}
	if (REQ_BSF(kind) && off == 128 + xlt_len)
		put(fs, "bsf.missing", 1);
	put(fs, "wqe.tail", !all_zero(w + off, len - off));
}

/* ---- the fakes' debugfs ---- */

/*
 * The WQEs the fake logged (debugfs "wqes": a header line each, then
 * seq_hex_dump()'s 32-bit groups, each printed as a host-order u32: read
 * back the same way) into a ring of MAX_WQES; *@count: how many.
 */
static int dbg_wqes_read(const char *dir, __u8 (*ring)[MAX_WQE], int *lr,
			 unsigned int *qr, unsigned int *count)
{
	char path[320], line[256], *p, *end;
	unsigned int q, idx, len = 0, off, n = 0;
	__u8 *w = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/wqes", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "qpn %x idx %u len %u", &q, &idx, &len) == 3) {
			if (len > MAX_WQE)
				break;
			w = ring[n % MAX_WQES];
			memset(w, 0, MAX_WQE);
			qr[n % MAX_WQES] = q;
			lr[n % MAX_WQES] = len;
			n++;
			continue;
		}
		p = strchr(line, ':');
		if (!w || !p || sscanf(line, "%x:", &off) != 1)
			continue;
		for (p++; off + 4 <= len && off + 4 <= MAX_WQE; off += 4) {
			unsigned long v = strtoul(p, &end, 16);
			__u32 g = v;

			if (end == p)
				break;
			memcpy(w + off, &g, 4);
			p = end;
		}
	}
	fclose(f);
	*count = n;
	return 0;
}

/*
 * The last @k WQEs the fake executed, oldest first, into @wq, their
 * lengths into @lens and QPs into @qpns; 0, or -1 when there are fewer.
 */
static int dbg_wqes(const char *dir, unsigned int k, __u8 (*wq)[MAX_WQE],
		    int *lens, unsigned int *qpns)
{
	static __u8 ring[MAX_WQES][MAX_WQE];
	unsigned int qr[MAX_WQES], n = 0, i, j;
	int lr[MAX_WQES];

	if (k > MAX_WQES || dbg_wqes_read(dir, ring, lr, qr, &n) || n < k)
		return -1;
	for (i = 0; i < k; i++) {
		j = (n - k + i) % MAX_WQES;
		memcpy(wq[i], ring[j], MAX_WQE);
		lens[i] = lr[j];
		qpns[i] = qr[j];
	}
	return 0;
}

/* ---- the two sides ---- */

struct lib_side {
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr[2];
	struct mlx5dv_mkey *mk;
	struct mlx5dv_mkey *bmk[NBSF];	/* signature, crypto, the pair */
	struct mlx5dv_dek *dek, *spare[2];
	unsigned int pdn;
	char dbg[256];
};

struct svc_side {
	struct mlx5umr_context *ctx;
	struct mlx5umr_device_attr attr;
	struct mlx5umr_mr *mr[2];
	struct mlx5umr_mkey *mk;
	struct mlx5umr_mkey *bmk[NBSF];
	struct mlx5umr_dek *dek;
	char dbg[256];
};

/*
 * The BSF kinds run when both fakes offer them: signature, and crypto
 * only when the two fakes run one crypto profile (the tweak's byte order:
 * fake.rst "Crypto profiles"; run.sh loads fake0 with fake1's).
 */
static int do_sig, do_crypto;
/* one AES-128-XTS key (key1 | key2) for both DEKs, fresh per run */
static __u8 dek_key[32];

static __u8 *bufs[2];
/* every right a layout may grant: the service refuses more (EACCES) */
static unsigned int mr_access;

static const __u32 bsf_lib_flags[NBSF] = {
	MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE,
	MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO,
	MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE |
	MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO,
};

static const __u32 bsf_svc_flags[NBSF] = {
	MLX5UMR_MKEY_SIGNATURE,
	MLX5UMR_MKEY_CRYPTO,
	MLX5UMR_MKEY_SIGNATURE | MLX5UMR_MKEY_CRYPTO,
};

static int bsf_kind_on(int i)
{
	return i == 0 ? do_sig : i == 1 ? do_crypto : do_sig && do_crypto;
}

/*
 * The BSF kinds' mkeys and a plaintext DEK: libmlx5 takes a plaintext key
 * only with MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN and no login object
 * (rdma-core v44.0 verbs.c check_dek_import_method()). The DEK used is
 * the third: fuv_test's DEKs, destroyed after an access, stay in fake1's
 * DEK cache under their (lowest) numbers until a SYNC_CRYPTO, which
 * libmlx5 never sends (fake.rst "Crypto profiles"); the service syncs.
 */
static int lib_open_bsf(struct lib_side *l, struct mlx5dv_mkey_init_attr *ma)
{
	struct mlx5dv_dek_init_attr da = {
		.key_size = MLX5DV_CRYPTO_KEY_SIZE_128,
		.key_purpose = MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS,
		.pd = l->pd,
		.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN,
	};
	int i;

	for (i = 0; i < NBSF; i++) {
		if (!bsf_kind_on(i))
			continue;
		ma->create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT |
				   bsf_lib_flags[i];
		l->bmk[i] = mlx5dv_create_mkey(ma);
		if (!l->bmk[i])
			return perror("mlx5dv_create_mkey (BSF)"), -1;
	}
	if (!do_crypto)
		return 0;
	memcpy(da.key, dek_key, sizeof(dek_key));
	for (i = 0; i < 2; i++)
		l->spare[i] = mlx5dv_dek_create(l->ctx, &da);
	l->dek = mlx5dv_dek_create(l->ctx, &da);
	explicit_bzero(da.key, sizeof(da.key));
	if (!l->dek || !l->spare[0] || !l->spare[1])
		return perror("mlx5dv_dek_create"), -1;
	return 0;
}

/* a module parameter, or -1 */
static int mod_param(const char *mod, const char *name)
{
	char path[256];
	int v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", mod,
		 name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int lib_open(struct lib_side *l)
{
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_send_sge = 1,
			 .max_inline_data = 256 },
		.comp_mask = IBV_QP_INIT_ATTR_PD |
			     IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.send_ops_flags = IBV_QP_EX_WITH_LOCAL_INV,
	};
	struct mlx5dv_qp_init_attr dv = {
		.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS,
		.send_ops_flags = MLX5DV_QP_EX_WITH_MR_LIST |
				  MLX5DV_QP_EX_WITH_MR_INTERLEAVED |
				  MLX5DV_QP_EX_WITH_MKEY_CONFIGURE,
	};
	struct mlx5dv_mkey_init_attr ma = {
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		/* one more for the interleaved repeat block (man page) */
		.max_entries = MAX_ENT + 1,
	};
	struct mlx5dv_pd dvpd = {};
	struct mlx5dv_obj obj = { .pd = { .out = &dvpd } };
	char path[256], name[64];
	struct ibv_device **d;
	FILE *f;
	int i;

	l->list = ibv_get_device_list(NULL);
	for (d = l->list; d && *d; d++)
		if (!strncmp(ibv_get_device_name(*d), "fake_mlx5_", 10))
			break;
	if (!d || !*d)
		return fprintf(stderr, "no fake_mlx5_* device\n"), -1;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/node_desc",
		 ibv_get_device_name(*d));
	f = fopen(path, "r");
	if (!f || fscanf(f, "mlx5-umr %63s", name) != 1)
		return fprintf(stderr, "no node_desc\n"), -1;
	fclose(f);
	snprintf(l->dbg, sizeof(l->dbg), "/sys/kernel/debug/mlx5_umr_fake/%s",
		 name);
	l->ctx = ibv_open_device(*d);
	if (!l->ctx)
		return perror("ibv_open_device"), -1;
	l->pd = ibv_alloc_pd(l->ctx);
	l->cq = ibv_create_cq(l->ctx, 31, NULL, NULL, 0);
	if (!l->pd || !l->cq)
		return perror("pd/cq"), -1;
	obj.pd.in = l->pd;
	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD))
		return -1;
	l->pdn = dvpd.pdn;
	qa.send_cq = l->cq;
	qa.recv_cq = l->cq;
	qa.pd = l->pd;
	l->qp = mlx5dv_create_qp(l->ctx, &qa, &dv);
	if (!l->qp || fuv_to_rts(l->qp, l->qp->qp_num))
		return perror("mlx5dv_create_qp"), -1;
	for (i = 0; i < 2; i++) {
		l->mr[i] = ibv_reg_mr(l->pd, bufs[i], BUF_SZ, mr_access);
		if (!l->mr[i])
			return perror("ibv_reg_mr"), -1;
	}
	ma.pd = l->pd;
	l->mk = mlx5dv_create_mkey(&ma);
	if (!l->mk)
		return perror("mlx5dv_create_mkey"), -1;
	return lib_open_bsf(l, &ma);
}

static int svc_open_bsf(struct svc_side *s)
{
	struct mlx5umr_dek_init_attr da = {
		.key_size = MLX5DV_CRYPTO_KEY_SIZE_128,
		.key = dek_key,
		.key_len = sizeof(dek_key),
	};
	int p0, p1, i;

	do_sig = s->attr.sig;
	p0 = mod_param("mlx5_umr_fake", "crypto_profile");
	p1 = mod_param("mlx5_umr_fake_uverbs", "crypto");
	do_crypto = s->attr.crypto && p0 == p1 && p0 >= 0;
	if (!do_sig || !do_crypto)
		printf("# not run: %s%s (service sig %d crypto %d, profiles %d %d)\n",
		       do_sig ? "" : "signature, ",
		       do_crypto ? "" : "crypto and pairs", s->attr.sig,
		       s->attr.crypto, p0, p1);
	for (i = 0; i < NBSF; i++) {
		if (!bsf_kind_on(i))
			continue;
		s->bmk[i] = mlx5umr_create_mkey(s->ctx, MAX_ENT + 1,
						bsf_svc_flags[i]);
		if (!s->bmk[i])
			return perror("mlx5umr_create_mkey (BSF)"), -1;
	}
	if (!do_crypto)
		return 0;
	s->dek = mlx5umr_dek_create(s->ctx, &da);
	if (!s->dek)
		return perror("mlx5umr_dek_create"), -1;
	return 0;
}

/*
 * The service's device of mlx5_umr_fake (fakeN, with its debugfs
 * directory), not the one mlx5_umr_fake_uverbs offers under its
 * ib_device's name (fake_mlx5_0, fake.rst "The service on the
 * fake_uverbs device"); NULL for the first device if none is.
 */
static const char *svc_fake_name(char *name, size_t len)
{
	DIR *d = opendir("/dev/mlx5_umr");
	struct dirent *e;
	char path[300];

	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5_umr_fake/%s",
			 e->d_name);
		if (e->d_name[0] != '.' && !access(path, F_OK)) {
			snprintf(name, len, "%s", e->d_name);
			closedir(d);
			return name;
		}
	}
	closedir(d);
	return NULL;
}

static int svc_open(struct svc_side *s)
{
	char name[256];
	int i;

	s->ctx = mlx5umr_open(svc_fake_name(name, sizeof(name)));
	if (!s->ctx)
		return perror("mlx5umr_open"), -1;
	if (mlx5umr_query_device(s->ctx, &s->attr))
		return -1;
	snprintf(s->dbg, sizeof(s->dbg), "/sys/kernel/debug/mlx5_umr_fake/%s",
		 s->ctx->name);
	if (access(s->dbg, F_OK) || !s->attr.fake)
		return fprintf(stderr, "%s: not a fake\n", s->ctx->name), -1;
	mr_access = ACC_ALL & s->attr.access;
	for (i = 0; i < 2; i++) {
		s->mr[i] = mlx5umr_reg_mr(s->ctx, bufs[i], BUF_SZ, mr_access);
		if (!s->mr[i])
			return perror("mlx5umr_reg_mr"), -1;
	}
	s->mk = mlx5umr_create_mkey(s->ctx, MAX_ENT + 1, 0);
	if (!s->mk)
		return perror("mlx5umr_create_mkey"), -1;
	return svc_open_bsf(s);
}

/* ---- requests ---- */

/* a signature domain: none, T10-DIF or CRC32C (512-byte blocks) */
enum { DOM_NONE, DOM_DIF, DOM_CRC };

struct sig_req {
	int dom[2];		/* memory, wire */
	struct mlx5dv_sig_t10dif dif[2];
	struct mlx5dv_sig_crc crc[2];
	unsigned int check_mask;
};

struct crypto_req {
	int encrypt_on_tx, after;	/* signature after crypto on TX */
	enum mlx5dv_block_size du;
	char tweak[16];
};

struct req {
	int kind;
	int via_configure;	/* libmlx5: mkey_configure + setters */
	unsigned int access;
	unsigned int n, repeat;
	struct { int buf; unsigned int off, len, skip; } e[MAX_ENT];
	unsigned long long total;
	/* the BSF kinds: blocks of 512 data bytes, what each domain holds */
	unsigned int nblk;
	struct sig_req sig;
	struct crypto_req cr;
};

static unsigned long long rng;
/* what a run covered: requests per kind, with the setters, access sets */
static unsigned int nkind[REQ_KINDS], nconf, nacc[16];

static unsigned int rnd(unsigned int n)
{
	/* xorshift64*, reproducible from the printed seed */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (unsigned int)((rng * 2685821657736338717ULL) >> 33) % n;
}

/* PI bytes per 512-byte block of a domain */
static unsigned int pi_bytes(int dom)
{
	return dom == DOM_DIF ? 8 : dom == DOM_CRC ? 4 : 0;
}

static void gen_dom(struct sig_req *g, int d, int dom)
{
	struct mlx5dv_sig_t10dif *dif = &g->dif[d];

	g->dom[d] = dom;
	dif->bg_type = MLX5DV_SIG_T10DIF_CRC;
	dif->bg = rnd(2) ? 0 : 0xffff;
	dif->app_tag = rnd(0x10000);
	dif->ref_tag = rnd(0x10000) << 16 | rnd(0x10000);
	dif->flags = (rnd(2) ? MLX5DV_SIG_T10DIF_FLAG_REF_REMAP : 0) |
		     (rnd(4) ? 0 : MLX5DV_SIG_T10DIF_FLAG_APP_ESCAPE);
	g->crc[d].type = MLX5DV_SIG_CRC_TYPE_CRC32C;
	g->crc[d].seed = rnd(2) ? 0 : 0xffffffff;
}

/*
 * A signature (T10-DIF or CRC32C in memory, on the wire, or both), a
 * crypto (AES-XTS, either side encrypted, data units of 512 or 4096
 * bytes, a random initial tweak), or the pair; a list layout of one or
 * two entries holding whole blocks of the memory format.
 */
static void gen_bsf(struct req *r)
{
	struct sig_req *g = &r->sig;
	unsigned int i, mem, dif_groups;

	r->via_configure = 1;
	r->nblk = 1 + rnd(4);
	r->cr.du = MLX5DV_BLOCK_SIZE_512;
	if (r->kind == REQ_SIG) {
		gen_dom(g, 0, rnd(3));
		gen_dom(g, 1, g->dom[0] && rnd(3) ? rnd(3) : 1 + rnd(2));
	} else if (r->kind == REQ_PAIR) {
		/*
		 * One domain, the RAW orders (ENCRYPTED_RAW_MEMORY,
		 * ENCRYPTED_RAW_WIRE: rdma-core qp.c get_crypto_order()),
		 * whose data units are the 512 data bytes of a block
		 * (fake.rst "Crypto profiles")
		 */
		i = rnd(2);
		gen_dom(g, i, 1 + rnd(2));
		r->cr.encrypt_on_tx = i;
		r->cr.after = i;
	} else {
		r->cr.encrypt_on_tx = rnd(2);
		r->cr.after = rnd(2);
		if (!rnd(4)) {
			r->cr.du = MLX5DV_BLOCK_SIZE_4096;
			r->nblk = 8;
		}
	}
	if (r->kind != REQ_SIG)
		for (i = 0; i < 16; i++)
			r->cr.tweak[i] = i < 8 ? rnd(256) : 0;
	dif_groups = (rnd(2) ? MLX5DV_SIG_MASK_T10DIF_GUARD : 0) |
		     (rnd(2) ? MLX5DV_SIG_MASK_T10DIF_APPTAG : 0) |
		     (rnd(2) ? MLX5DV_SIG_MASK_T10DIF_REFTAG : 0);
	g->check_mask = (g->dom[0] == DOM_DIF || g->dom[1] == DOM_DIF ?
			 dif_groups : 0) |
			(g->dom[0] == DOM_CRC || g->dom[1] == DOM_CRC ?
			 MLX5DV_SIG_MASK_CRC32C : 0);
	mem = r->nblk * (512 + pi_bytes(g->dom[0]));
	r->total = mem;
	r->n = 1 + rnd(2);
	r->e[0].len = r->n == 1 ? mem : 1 + rnd(mem - 1);
	r->e[1].len = mem - r->e[0].len;
	r->e[0].buf = rnd(2);
	r->e[1].buf = !r->e[0].buf;
	for (i = 0; i < r->n; i++)
		r->e[i].off = rnd(BUF_SZ - r->e[i].len + 1);
}

/* the bytes of a BSF kind's wire view */
static unsigned long long wire_len(const struct req *r)
{
	return r->nblk * (512ULL + pi_bytes(r->sig.dom[1]));
}

static void gen(struct req *r, unsigned int acc_ok, int configured)
{
	unsigned int i, span, k;

	memset(r, 0, sizeof(*r));
	k = rnd(10);
	if (k >= 6 && do_sig && do_crypto)
		r->kind = k < 8 ? REQ_SIG : k == 8 ? REQ_CRYPTO : REQ_PAIR;
	else if (k >= 6 && (do_sig || do_crypto))
		r->kind = do_sig ? REQ_SIG : REQ_CRYPTO;
	else
		r->kind = configured && !rnd(5) ? REQ_INV : rnd(2);
	r->via_configure = rnd(2);
	/*
	 * At least one remote right; remote write and atomic with local
	 * write, as verbs require (ib_check_mr_access(): the service refuses
	 * it with EINVAL, libmlx5's setters do not check)
	 */
	do
		r->access = rnd(16) & acc_ok;
	while (!(r->access & (IBV_ACCESS_REMOTE_READ |
			      IBV_ACCESS_REMOTE_WRITE)));
	if (r->access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC))
		r->access |= IBV_ACCESS_LOCAL_WRITE;
	if (r->kind == REQ_INV)
		return;
	if (REQ_BSF(r->kind)) {
		/* reads and writes through the key, to compare the bytes */
		r->access |= acc_ok & (IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_READ |
				       IBV_ACCESS_REMOTE_WRITE);
		gen_bsf(r);
		return;
	}
	r->n = 1 + rnd(r->kind == REQ_IL ? MAX_ENT - 1 : MAX_ENT);
	r->repeat = r->kind == REQ_IL ? 1 + rnd(8) : 1;
	for (i = 0; i < r->n; i++) {
		r->e[i].buf = rnd(2);
		if (r->kind == REQ_IL) {
			r->e[i].len = 1 + rnd(64);
			r->e[i].skip = rnd(3) ? rnd(64) : 0;
			span = (r->e[i].len + r->e[i].skip) * r->repeat;
		} else {
			r->e[i].len = 1 + rnd(rnd(4) ? 512 : 3 * PAGE);
			span = r->e[i].len;
		}
		r->e[i].off = rnd(BUF_SZ - span + 1);
		r->total += r->e[i].len;
	}
	r->total *= r->repeat;
}

static int lib_poll(struct lib_side *l, struct ibv_wc *wc)
{
	int i, n;

	for (i = 0; i < 5000; i++) {
		n = ibv_poll_cq(l->cq, 1, wc);
		if (n)
			return n == 1 ? 0 : -1;
		usleep(1000);
	}
	return -1;
}

/* The request's signature as both sides take it (@dom: two domains). */
static const struct mlx5dv_sig_block_attr *
sig_attr(const struct req *r, struct mlx5dv_sig_block_domain *dom,
	 struct mlx5dv_sig_block_attr *sa)
{
	const struct sig_req *g = &r->sig;
	int d;

	if (r->kind == REQ_CRYPTO)
		return NULL;
	memset(sa, 0, sizeof(*sa));
	for (d = 0; d < 2; d++) {
		memset(&dom[d], 0, sizeof(dom[d]));
		dom[d].block_size = MLX5DV_BLOCK_SIZE_512;
		if (g->dom[d] == DOM_DIF) {
			dom[d].sig_type = MLX5DV_SIG_TYPE_T10DIF;
			dom[d].sig.dif = &g->dif[d];
		} else {
			dom[d].sig_type = MLX5DV_SIG_TYPE_CRC;
			dom[d].sig.crc = &g->crc[d];
		}
	}
	sa->mem = g->dom[0] ? &dom[0] : NULL;
	sa->wire = g->dom[1] ? &dom[1] : NULL;
	sa->check_mask = g->check_mask;
	return sa;
}

static enum mlx5dv_signature_crypto_order cr_order(const struct req *r)
{
	return r->cr.after ?
	       MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX :
	       MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX;
}

static void req_sgl(const struct req *r, struct mlx5dv_mr_interleaved *il,
		    struct ibv_sge *sgl, const __u32 *lkey)
{
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		sgl[i].addr = (uintptr_t)bufs[r->e[i].buf] + r->e[i].off;
		sgl[i].length = r->e[i].len;
		sgl[i].lkey = lkey[r->e[i].buf];
		il[i].addr = sgl[i].addr;
		il[i].bytes_count = r->e[i].len;
		il[i].bytes_skip = r->e[i].skip;
		il[i].lkey = sgl[i].lkey;
	}
}

/* libmlx5 signals only the last WQE of a chain: the UMR or a SET_PSV */
static int lib_post_bsf(struct lib_side *l, const struct req *r,
			struct mlx5dv_qp_ex *mqpx, const struct ibv_sge *sgl)
{
	struct mlx5dv_sig_block_domain dom[2];
	struct mlx5dv_sig_block_attr sab;
	const struct mlx5dv_sig_block_attr *sa = sig_attr(r, dom, &sab);
	struct mlx5dv_crypto_attr ca = {
		.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = r->cr.encrypt_on_tx,
		.signature_crypto_order = cr_order(r),
		.data_unit_size = r->cr.du,
		.dek = l->dek,
	};
	struct mlx5dv_mkey_conf_attr cfa = {};

	memcpy(ca.initial_tweak, r->cr.tweak, sizeof(ca.initial_tweak));
	mlx5dv_wr_mkey_configure(mqpx, l->bmk[r->kind - REQ_SIG],
				 2 + !!sa + (r->kind != REQ_SIG), &cfa);
	mlx5dv_wr_set_mkey_access_flags(mqpx, r->access);
	mlx5dv_wr_set_mkey_layout_list(mqpx, r->n, sgl);
	if (sa)
		mlx5dv_wr_set_mkey_sig_block(mqpx, sa);
	if (r->kind != REQ_SIG)
		mlx5dv_wr_set_mkey_crypto(mqpx, &ca);
	return 0;
}

static int lib_post(struct lib_side *l, const struct req *r)
{
	struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(l->qp);
	struct mlx5dv_qp_ex *mqpx = mlx5dv_qp_ex_from_ibv_qp_ex(qpx);
	struct mlx5dv_mr_interleaved il[MAX_ENT];
	struct mlx5dv_mkey_conf_attr ca = {};
	struct ibv_sge sgl[MAX_ENT];
	struct ibv_wc wc;
	__u32 lkey[2] = { l->mr[0]->lkey, l->mr[1]->lkey };
	int err;

	req_sgl(r, il, sgl, lkey);
	ibv_wr_start(qpx);
	qpx->wr_id = 1;
	qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	if (REQ_BSF(r->kind)) {
		lib_post_bsf(l, r, mqpx, sgl);
	} else if (r->kind == REQ_INV) {
		qpx->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_local_inv(qpx, l->mk->lkey);
	} else if (r->via_configure) {
		mlx5dv_wr_mkey_configure(mqpx, l->mk, 2, &ca);
		mlx5dv_wr_set_mkey_access_flags(mqpx, r->access);
		if (r->kind == REQ_IL)
			mlx5dv_wr_set_mkey_layout_interleaved(mqpx, r->repeat,
							      r->n, il);
		else
			mlx5dv_wr_set_mkey_layout_list(mqpx, r->n, sgl);
	} else if (r->kind == REQ_IL) {
		mlx5dv_wr_mr_interleaved(mqpx, l->mk, r->access, r->repeat,
					 r->n, il);
	} else {
		mlx5dv_wr_mr_list(mqpx, l->mk, r->access, r->n, sgl);
	}
	err = ibv_wr_complete(qpx);
	if (err)
		return fprintf(stderr, "ibv_wr_complete: %d\n", err), -1;
	if (lib_poll(l, &wc) || wc.status != IBV_WC_SUCCESS)
		return fprintf(stderr, "libmlx5 CQE: %s vendor 0x%x\n",
			       ibv_wc_status_str(wc.status), wc.vendor_err),
		       -1;
	return 0;
}

static int svc_post(struct svc_side *s, const struct req *r)
{
	struct mlx5dv_mr_interleaved il[MAX_ENT];
	struct mlx5umr_configure_attr a = {};
	struct ibv_sge sgl[MAX_ENT];
	__u32 lkey[2] = { s->mr[0]->lkey, s->mr[1]->lkey };
	struct mlx5dv_sig_block_domain dom[2];
	struct mlx5dv_sig_block_attr sab;
	struct mlx5umr_crypto_attr ca = {
		.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS,
		.encrypt_on_tx = r->cr.encrypt_on_tx,
		.signature_crypto_order = cr_order(r),
		.data_unit_size = r->cr.du,
		.dek = s->dek,
	};
	int err;

	if (r->kind == REQ_INV) {
		err = mlx5umr_mkey_invalidate(s->mk);
		goto out;
	}
	req_sgl(r, il, sgl, lkey);
	a.access = r->access;
	a.num_entries = r->n;
	if (REQ_BSF(r->kind)) {
		memcpy(ca.initial_tweak, r->cr.tweak, sizeof(ca.initial_tweak));
		a.layout = MLX5UMR_LAYOUT_LIST;
		a.sge = sgl;
		a.sig = sig_attr(r, dom, &sab);
		a.crypto = r->kind != REQ_SIG ? &ca : NULL;
		err = mlx5umr_mkey_configure(s->bmk[r->kind - REQ_SIG], &a);
		goto out;
	}
	if (r->kind == REQ_IL) {
		a.layout = MLX5UMR_LAYOUT_INTERLEAVED;
		a.interleaved = il;
		a.repeat_count = r->repeat;
	} else {
		a.layout = MLX5UMR_LAYOUT_LIST;
		a.sge = sgl;
	}
	err = mlx5umr_mkey_configure(s->mk, &a);
out:
	if (err)
		fprintf(stderr, "service: %s\n", strerror(err));
	return err ? -1 : 0;
}

static void pattern(__u8 *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (__u8)((i + seed) * 131 + (i >> 8) * 7 + seed);
}

static void req_print(unsigned int i, const struct req *r)
{
	static const char *const kinds[] = { "list", "interleaved",
					     "invalidate", "signature",
					     "crypto", "pair" };
	static const char *const doms[] = { "-", "dif", "crc" };
	const struct sig_req *g = &r->sig;
	unsigned int j, d;

	printf("# request %u: %s%s access 0x%x repeat %u:", i, kinds[r->kind],
	       r->via_configure ? " (configure)" : "", r->access, r->repeat);
	for (j = 0; j < r->n; j++)
		printf(" %c+%u/%u/%u", 'a' + r->e[j].buf, r->e[j].off,
		       r->e[j].len, r->e[j].skip);
	if (REQ_BSF(r->kind))
		printf(" blocks %u", r->nblk);
	if (r->kind == REQ_SIG || r->kind == REQ_PAIR) {
		printf(" check 0x%x", g->check_mask);
		for (d = 0; d < 2; d++)
			printf(" %s %s app 0x%x ref 0x%x flags 0x%x bg 0x%x seed 0x%llx",
			       d ? "wire" : "mem", doms[g->dom[d]],
			       g->dif[d].app_tag, g->dif[d].ref_tag,
			       g->dif[d].flags, g->dif[d].bg,
			       (unsigned long long)g->crc[d].seed);
	}
	if (r->kind == REQ_CRYPTO || r->kind == REQ_PAIR)
		printf(" enc_on_tx %d after %d du %d tweak 0x%llx",
		       r->cr.encrypt_on_tx, r->cr.after, r->cr.du,
		       (unsigned long long)le64toh(*(__u64 *)r->cr.tweak));
	printf("\n");
}

static unsigned int nunexplained;
/* BSF requests whose bytes were compared through both keys */
static unsigned int nbsf_moved;

/* whether both buffers still hold nothing but 0xee */
static int all_zero_ee(const __u8 *a, const __u8 *b)
{
	size_t i;

	for (i = 0; i < BUF_SZ; i++)
		if (a[i] != 0xee || b[i] != 0xee)
			return 0;
	return 1;
}

static void differ(unsigned int req, const char *field,
		   unsigned long long lv, unsigned long long sv)
{
	int row = table_row(field);

	if (row >= 0) {
		row_hits[row]++;
		if (verbose)
			printf("#  request %u: %s: libmlx5 0x%llx service 0x%llx (explained)\n",
			       req, field, lv, sv);
		return;
	}
	nunexplained++;
	printf("# request %u: %s: libmlx5 0x%llx service 0x%llx: unexplained difference\n",
	       req, field, lv, sv);
}

/* The value of field @name in @fs, or ~0. */
static unsigned long long get(const struct fields *fs, const char *name)
{
	unsigned int i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->f[i].name, name))
			return fs->f[i].v;
	return ~0ULL;
}

/*
 * The decoder against the request itself, on each side: a UMR, and a
 * configure's length and entries are the request's (a misread "wqes"
 * dump would otherwise compare garbage with garbage).
 */
static void check_decode(unsigned int req, const struct fields *fs,
			 const struct req *r, const char *side)
{
	unsigned long long op = get(fs, "ctrl.opcode");
	unsigned long long len = get(fs, "mkey.len");
	unsigned long long n = get(fs, r->kind == REQ_IL ? "rb.num_ent" :
				   "xlt.entries");

	if (REQ_BSF(r->kind))
		len = r->total;	/* the mkey's length: compared between sides */
	if (op != 0x25 || (r->kind != REQ_INV &&
			   (len != r->total || n != r->n))) {
		nunexplained++;
		printf("# request %u: %s WQE: opcode 0x%llx len %llu entries %llu: ",
		       req, side, op, len, n);
		printf("not the request\n");
	}
}

/* Field by field; a field only one side has differs too. */
static void compare(unsigned int req, const struct fields *lf,
		    const struct fields *sf)
{
	unsigned int i, n = lf->n > sf->n ? lf->n : sf->n;

	for (i = 0; i < n; i++) {
		const struct field *a = i < lf->n ? &lf->f[i] : NULL;
		const struct field *b = i < sf->n ? &sf->f[i] : NULL;

		if (a && b && !strcmp(a->name, b->name)) {
			if (a->v != b->v)
				differ(req, a->name, a->v, b->v);
			continue;
		}
		/* the lists diverge (entry counts): report, then stop */
		differ(req, a ? a->name : b->name, a ? a->v : ~0ULL,
		       b ? b->v : ~0ULL);
		break;
	}
}

/*
 * (a) What the fakes do: the mkeys' state; then, through both keys with
 * the same rights, a peer's RDMA READ of the whole length (the same bytes,
 * or the same refusal) and a peer's RDMA WRITE of one pattern into freshly
 * filled buffers (the same bytes of the buffers changed, or the same
 * refusal).
 */
static void compare_fakes(unsigned int req, struct lib_side *l,
			  struct svc_side *s, const struct req *r)
{
	static __u8 w[64 * 1024], rl[64 * 1024], rs[64 * 1024];
	static __u8 snap[2][BUF_SZ];
	size_t len = r->total ? r->total : 16;
	struct fuv_mkey lm, sm;
	int el, es;

	if (fuv_dbg_mkey(l->dbg, l->mk->lkey, 1, &lm) != 1 ||
	    fuv_dbg_mkey(s->dbg, s->mk->lkey, 1, &sm) != 1) {
		differ(req, "fake.mkey.missing", 0, 0);
		return;
	}
	if (lm.free != sm.free)
		differ(req, "fake.mkey.free", lm.free, sm.free);
	if (strcmp(lm.acc, sm.acc))
		differ(req, "fake.mkey.access", strtoull(lm.acc, NULL, 2),
		       strtoull(sm.acc, NULL, 2));
	if (lm.mode != sm.mode)
		differ(req, "fake.mkey.mode", lm.mode, sm.mode);
	if (lm.rinval != sm.rinval)
		differ(req, "fake.mkey.en_rinval", lm.rinval, sm.rinval);
	if ((lm.key & 0xff) != (sm.key & 0xff))
		differ(req, "fake.mkey.tag", lm.key & 0xff, sm.key & 0xff);
	if (r->kind != REQ_INV && (lm.len != sm.len || lm.len != r->total))
		differ(req, "fake.mkey.len", lm.len, sm.len);
	if (len > sizeof(w))
		len = sizeof(w);

	pattern(bufs[0], BUF_SZ, req);
	pattern(bufs[1], BUF_SZ, req + 77);
	el = fuv_dbg_xfer(l->dbg, 'R', l->pdn, l->mk->rkey, 0, rl, len);
	es = fuv_dbg_xfer(s->dbg, 'R', sm.pd, s->mk->rkey, 0, rs, len);
	if (el != es || (!el && memcmp(rl, rs, len)))
		differ(req, "fake.xfer.read", -el, -es);

	pattern(w, len, req * 3 + 1);
	memset(bufs[0], 0xee, BUF_SZ);
	memset(bufs[1], 0xee, BUF_SZ);
	el = fuv_dbg_xfer(l->dbg, 'W', l->pdn, l->mk->rkey, 0, w, len);
	memcpy(snap[0], bufs[0], BUF_SZ);
	memcpy(snap[1], bufs[1], BUF_SZ);
	memset(bufs[0], 0xee, BUF_SZ);
	memset(bufs[1], 0xee, BUF_SZ);
	es = fuv_dbg_xfer(s->dbg, 'W', sm.pd, s->mk->rkey, 0, w, len);
	if (el != es || memcmp(snap[0], bufs[0], BUF_SZ) ||
	    memcmp(snap[1], bufs[1], BUF_SZ))
		differ(req, "fake.xfer.write", -el, -es);
}

/* The mkeys of a request: the plain one, or its BSF kind's. */
static struct mlx5dv_mkey *lib_mk(const struct lib_side *l,
				  const struct req *r)
{
	return REQ_BSF(r->kind) ? l->bmk[r->kind - REQ_SIG] : l->mk;
}

static struct mlx5umr_mkey *svc_mk(const struct svc_side *s,
				   const struct req *r)
{
	return REQ_BSF(r->kind) ? s->bmk[r->kind - REQ_SIG] : s->mk;
}

/* (b) the request's WQEs, the UMR first, then its SET_PSVs */
static void compare_wqes(unsigned int i, struct lib_side *l,
			 struct svc_side *s, const struct req *r,
			 struct keymap *lk, struct keymap *sk,
			 long long lc, long long sc)
{
	static __u8 lw[MAX_WQES][MAX_WQE], sw[MAX_WQES][MAX_WQE];
	static struct fields lf, sf;
	unsigned int lq[MAX_WQES], sq[MAX_WQES], j, k;
	int ll[MAX_WQES], sl[MAX_WQES];
	unsigned long long both;
	long long dl, ds, want = 1;

	/* a UMR, and a SET_PSV per signature domain */
	if (r->kind == REQ_SIG || r->kind == REQ_PAIR)
		want += !!r->sig.dom[0] + !!r->sig.dom[1];
	dl = fuv_dbg_counter(l->dbg, "wqes") - lc;
	ds = fuv_dbg_counter(s->dbg, "wqes") - sc;
	if (dl != ds || dl != want)
		differ(i, "wqe.count", dl, ds);
	k = dl < ds ? dl : ds;
	if (k < 1 || k > MAX_WQES ||
	    dbg_wqes(l->dbg, k, lw, ll, lq) || dbg_wqes(s->dbg, k, sw, sl, sq) ||
	    lq[0] != l->qp->qp_num) {
		differ(i, "wqe.missing", dl, ds);
		return;
	}
	for (j = 0; j < k; j++) {
		lf.n = 0;
		sf.n = 0;
		if (j) {
			fuv_psv_fields(lw[j], ll[j], lk, &lf);
			fuv_psv_fields(sw[j], sl[j], sk, &sf);
			compare(i, &lf, &sf);
			continue;
		}
		both = ll[0] >= 32 && sl[0] >= 32 ?
		       be64(lw[0] + 24) | be64(sw[0] + 24) : 0;
		fuv_wqe_fields(lw[0], ll[0], lk, r->kind, both, &lf);
		fuv_wqe_fields(sw[0], sl[0], sk, r->kind, both, &sf);
		check_decode(i, &lf, r, "libmlx5");
		check_decode(i, &sf, r, "service");
		compare(i, &lf, &sf);
	}
}

static void dump_diff(const __u8 *a, const __u8 *b, size_t len)
{
	size_t i, j;

	for (i = 0; i < len && a[i] == b[i]; i++)
		;
	printf("#  first difference at %zu of %zu:", i, len);
	for (j = i; j < i + 16 && j < len; j++)
		printf(" %02x/%02x", a[j], b[j]);
	printf("\n#  at 0:");
	for (j = 0; j < 16 && j < len; j++)
		printf(" %02x/%02x", a[j], b[j]);
	printf("\n");
}

/*
 * (a) for the BSF kinds, through the wire view of both keys (debugfs
 * "xfer" by PD, no QP: a failed check moves the data all the same and
 * reports nothing): a peer's READ of the patterned buffers (the PI
 * inserted, stripped or checked, the plaintext or ciphertext produced:
 * the same bytes), a peer's WRITE of one pattern into buffers of 0xee (the
 * PI bytes and ciphertext stored: the same memory), and a READ of what
 * the service's key stored (decrypted, stripped: the same bytes).
 */
static void compare_bsf_fakes(unsigned int req, struct lib_side *l,
			      struct svc_side *s, const struct req *r)
{
	static __u8 w[64 * 1024], rl[64 * 1024], rs[64 * 1024];
	static __u8 snap[2][BUF_SZ];
	struct mlx5dv_mkey *lmk = lib_mk(l, r);
	struct mlx5umr_mkey *smk = svc_mk(s, r);
	size_t len = wire_len(r);
	struct fuv_mkey lm, sm;
	int el, es;

	if (fuv_dbg_mkey(l->dbg, lmk->lkey, 1, &lm) != 1 ||
	    fuv_dbg_mkey(s->dbg, smk->lkey, 1, &sm) != 1) {
		differ(req, "fake.mkey.missing", 0, 0);
		return;
	}
	if (lm.free != sm.free)
		differ(req, "fake.mkey.free", lm.free, sm.free);
	if (strcmp(lm.acc, sm.acc))
		differ(req, "fake.mkey.access", strtoull(lm.acc, NULL, 2),
		       strtoull(sm.acc, NULL, 2));
	if (lm.mode != sm.mode)
		differ(req, "fake.mkey.mode", lm.mode, sm.mode);
	if (lm.len != sm.len)
		differ(req, "fake.mkey.len", lm.len, sm.len);

	pattern(bufs[0], BUF_SZ, req);
	pattern(bufs[1], BUF_SZ, req + 77);
	el = fuv_dbg_xfer(l->dbg, 'R', l->pdn, lmk->rkey, 0, rl, len);
	es = fuv_dbg_xfer(s->dbg, 'R', sm.pd, smk->rkey, 0, rs, len);
	if (el != es || (!el && memcmp(rl, rs, len))) {
		differ(req, "fake.xfer.read", -el, -es);
		dump_diff(rl, rs, len);
	}

	pattern(w, len, req * 3 + 1);
	memset(bufs[0], 0xee, BUF_SZ);
	memset(bufs[1], 0xee, BUF_SZ);
	el = fuv_dbg_xfer(l->dbg, 'W', l->pdn, lmk->rkey, 0, w, len);
	memcpy(snap[0], bufs[0], BUF_SZ);
	memcpy(snap[1], bufs[1], BUF_SZ);
	memset(bufs[0], 0xee, BUF_SZ);
	memset(bufs[1], 0xee, BUF_SZ);
	es = fuv_dbg_xfer(s->dbg, 'W', sm.pd, smk->rkey, 0, w, len);
	if (el != es || memcmp(snap[0], bufs[0], BUF_SZ) ||
	    memcmp(snap[1], bufs[1], BUF_SZ))
		differ(req, "fake.xfer.write", -el, -es);
	/* the write stored something: some PI or ciphertext to compare */
	if (!el && !memcmp(snap[0], bufs[0], BUF_SZ) &&
	    all_zero_ee(snap[0], snap[1]))
		differ(req, "fake.xfer.write.nothing", 0, 0);

	el = fuv_dbg_xfer(l->dbg, 'R', l->pdn, lmk->rkey, 0, rl, len);
	es = fuv_dbg_xfer(s->dbg, 'R', sm.pd, smk->rkey, 0, rs, len);
	if (el != es || (!el && memcmp(rl, rs, len)))
		differ(req, "fake.xfer.readback", -el, -es);
	nbsf_moved += !el && !es;
}

static int run(unsigned int nreq, struct lib_side *l, struct svc_side *s)
{
	unsigned int i, acc_ok;
	int configured = 0, el, es;
	unsigned int was;
	long long lc, sc;
	struct keymap lk, sk;
	struct req r;

	acc_ok = ACC_ALL & s->attr.access;
	lk.key[0] = l->mr[0]->lkey;
	lk.key[1] = l->mr[1]->lkey;
	sk.key[0] = s->mr[0]->lkey;
	sk.key[1] = s->mr[1]->lkey;
	for (i = 0; i < nreq; i++) {
		gen(&r, acc_ok, configured);
		if (!REQ_BSF(r.kind))
			configured = r.kind != REQ_INV;
		nkind[r.kind]++;
		nconf += r.kind != REQ_INV && r.via_configure;
		nacc[r.access & 15] += r.kind != REQ_INV;
		lk.mkey = lib_mk(l, &r)->lkey;
		sk.mkey = svc_mk(s, &r)->lkey;
		lk.psv[0] = ~0u;
		lk.psv[1] = ~0u;
		sk.psv[0] = ~0u;
		sk.psv[1] = ~0u;
		if (verbose)
			req_print(i, &r);
		lc = fuv_dbg_counter(l->dbg, "wqes");
		sc = fuv_dbg_counter(s->dbg, "wqes");
		el = lib_post(l, &r);
		es = svc_post(s, &r);
		if (el || es) {
			req_print(i, &r);
			differ(i, "request.refused", el, es);
			if (!REQ_BSF(r.kind))
				configured = 0;
			/* what each side had executed when it was refused */
			if (fuv_dbg_counter(l->dbg, "wqes") > lc &&
			    fuv_dbg_counter(s->dbg, "wqes") > sc)
				compare_wqes(i, l, s, &r, &lk, &sk, lc, sc);
			continue;
		}
		was = nunexplained;
		compare_wqes(i, l, s, &r, &lk, &sk, lc, sc);
		if (REQ_BSF(r.kind))
			compare_bsf_fakes(i, l, s, &r);
		else
			compare_fakes(i, l, s, &r);
		if (nunexplained != was && !verbose)
			req_print(i, &r);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *rst = "fake.rst";
	unsigned long long seed = time(NULL) ^ getpid();
	struct lib_side l = {};
	struct svc_side s = {};
	unsigned int nreq = 200, i;
	int opt, i0;

	/* the VM's clock starts alike at every boot: the kernel's entropy */
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed ^= (unsigned long long)clock() << 32;
	seed &= 0xffffffffffffULL;	/* short enough to type */
	while ((opt = getopt(argc, argv, "s:n:t:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			nreq = strtoul(optarg, NULL, 0);
			break;
		case 't':
			rst = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-s seed] [-n requests] [-t fake.rst] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	printf("# fuv_diff: seed %llu, %u requests, table %s\n", seed, nreq,
	       rst);
	rng = seed ? seed : 1;
	for (i = 0; i < sizeof(dek_key); i++)
		dek_key[i] = rnd(256);
	/* IEEE 1619: key1 and key2 differ (the fake refuses equal halves) */
	dek_key[16] ^= dek_key[0] == dek_key[16] ? 1 : 0;
	if (table_load(rst)) {
		printf("# no table \"Intended differences\" in %s\n", rst);
		return 1;
	}
	for (i0 = 0; i0 < 2; i0++) {
		bufs[i0] = mmap(NULL, BUF_SZ, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (bufs[i0] == MAP_FAILED)
			return 1;
		memset(bufs[i0], 0xee, BUF_SZ);
	}
	if (svc_open(&s) || lib_open(&l)) {
		printf("# setup failed\n");
		return 1;
	}
	printf("# libmlx5 on %s (QP 0x%x), service on %s, %u table rows\n", l.dbg,
	       l.qp->qp_num, s.dbg, nrows);
	if (run(nreq, &l, &s))
		nreq = 0;
	printf("# lists %u, interleaved %u (%u of them by mkey_configure), invalidations %u\n",
	       nkind[REQ_LIST], nkind[REQ_IL], nconf, nkind[REQ_INV]);
	printf("# signature %u, crypto %u, pairs %u (%u with bytes moved through both keys)\n",
	       nkind[REQ_SIG], nkind[REQ_CRYPTO], nkind[REQ_PAIR], nbsf_moved);
	printf("# access sets (IBV_ACCESS_*):");
	for (i = 0; i < 16; i++)
		if (nacc[i])
			printf(" 0x%x:%u", i, nacc[i]);
	printf("\n");
	for (i = 0; i < nrows; i++)
		printf("# table row %s: %u differences explained\n", rows[i],
		       row_hits[i]);
	for (i = 0; i < NBSF; i++) {
		if (s.bmk[i])
			mlx5umr_destroy_mkey(s.bmk[i]);
		if (l.bmk[i])
			mlx5dv_destroy_mkey(l.bmk[i]);
	}
	if (s.dek)
		mlx5umr_dek_destroy(s.dek);
	if (l.dek)
		mlx5dv_dek_destroy(l.dek);
	for (i = 0; i < 2; i++)
		if (l.spare[i])
			mlx5dv_dek_destroy(l.spare[i]);
	mlx5umr_destroy_mkey(s.mk);
	mlx5umr_dereg_mr(s.mr[0]);
	mlx5umr_dereg_mr(s.mr[1]);
	mlx5umr_close(s.ctx);
	mlx5dv_destroy_mkey(l.mk);
	ibv_dereg_mr(l.mr[0]);
	ibv_dereg_mr(l.mr[1]);
	ibv_destroy_qp(l.qp);
	ibv_destroy_cq(l.cq);
	ibv_dealloc_pd(l.pd);
	ibv_close_device(l.ctx);
	ibv_free_device_list(l.list);
	printf("%u requests, %u unexplained differences\n", nreq,
	       nunexplained);
	return nunexplained || !nreq;
}
