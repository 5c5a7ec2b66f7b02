// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hwcheck's crypto check: IEEE 1619-2007 XTS-AES vector 4 through an
 * AES-XTS crypto mkey the service configured, moved by the HCA with RDMA
 * WRITE and READ on the loopback QP pair.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <errno.h>
#include <string.h>
#include "hwcheck.h"

/* The project's one copy of the vector (a KUnit header: its u8). */
typedef __u8 u8;
#include "xts_vectors.h"

#define DU		512	/* the vector's data unit */
#define CRYPTO_LEN	(2 * DU)

/* The first byte of @got that is not @want's, or -1. */
static long first_diff(const uint8_t *got, const uint8_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i])
			return i;
	return -1;
}

/* Why the service cannot run vector 4 on this device, or NULL. */
static const char *crypto_unsupported(void)
{
	if (!H.have_info)
		return "MLX5_UMR_IOCTL_INFO failed: the service's crypto caps are unknown";
	if (H.info.out_crypto_caps & MLX5_UMR_IOC_CRYPTO_CAP_WRAPPED_IMPORT)
		return "the HCA takes only wrapped DEKs, which the service does not offer";
	if (!(H.info.out_flags & MLX5_UMR_IOC_INFO_CRYPTO))
		return "no MLX5_UMR_IOC_INFO_CRYPTO: no cmd_hca_cap.crypto or no AES-XTS engine";
	if (!(H.info.out_crypto_key_sizes &
	      1u << MLX5_UMR_IOC_CRYPTO_KEY_SIZE_128))
		return "the service offers no AES-XTS-128 DEK (vector 4's key size)";
	if (!(H.info.out_crypto_data_unit_sizes &
	      1u << MLX5_UMR_IOC_SIG_BLOCK_512))
		return "the service offers no 512-byte crypto data unit (vector 4's)";
	return NULL;
}

/* A DEK of vector 4's key; the copy handed over is wiped at once. */
struct mlx5umr_dek *hc_v4_dek(void)
{
	struct mlx5umr_dek_init_attr da = {
		.key_size = MLX5DV_CRYPTO_KEY_SIZE_128,
		.key_len = sizeof(xts_v4_key),
	};
	uint8_t key[sizeof(xts_v4_key)];
	struct mlx5umr_dek *dek;
	int err;

	memcpy(key, xts_v4_key, sizeof(key));
	da.key = key;
	dek = mlx5umr_dek_create(H.uctx, &da);
	err = errno;
	explicit_bzero(key, sizeof(key));
	errno = err;
	return dek;
}

/*
 * encrypt_on_tx clear, tweak 0, data unit 512: memory holds ciphertext,
 * the wire plaintext. The plaintext the peer writes (bytes 0..255 twice,
 * in each of two data units) must land as the standard's ciphertext in
 * unit 0 and as another ciphertext (tweak 1) in unit 1; a READ through
 * the key returns the plaintext. A single-block engine takes one data
 * unit per mkey (INFO out_crypto_engine): unit 0 only.
 */
void chk_crypto_vector4(void)
{
	struct mlx5umr_crypto_attr ca = {
		.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS,
		.data_unit_size = MLX5DV_BLOCK_SIZE_512,
	};
	struct hc_region *r = &H.reg[0];
	static uint8_t pt[CRYPTO_LEN];
	struct mlx5umr_dek *dek = NULL;
	struct mlx5umr_mkey *mk = NULL;
	const char *why;
	struct mlx5umr_configure_attr cfg;
	struct ibv_sge s;
	struct hc_wc wc;
	int i, ret, len = CRYPTO_LEN;
	long d;

	if (H.rxe) {
		skip("plain MRs have no crypto");
		return;
	}
	why = crypto_unsupported();
	if (why) {
		skip("%s", why);
		return;
	}
	if (H.info.out_crypto_engine == MLX5_UMR_IOC_CRYPTO_ENGINE_SINGLE_BLOCK)
		len = DU;
	for (i = 0; i < CRYPTO_LEN; i++)
		pt[i] = (uint8_t)i;
	/* after SET_PD: the DEK is created in the file's PD */
	dek = hc_v4_dek();
	if (!dek && errno == EIO) {
		hc_cur->err = EIO;
		fail("create a DEK: EIO, the HCA refused it (crypto.rst)");
		return;
	}
	if (!dek) {
		fail_err("create a DEK of vector 4's key", errno);
		return;
	}
	mk = mlx5umr_create_mkey(H.uctx, 1, MLX5UMR_MKEY_CRYPTO);
	if (!mk) {
		fail_err("create a crypto mkey", errno);
		goto out;
	}
	ca.dek = dek;
	s = (struct ibv_sge){ (uintptr_t)r->buf, len, r->lkey };
	cfg = (struct mlx5umr_configure_attr){
		.access = ACC_ALL,
		.layout = MLX5UMR_LAYOUT_LIST,
		.num_entries = 1,
		.sge = &s,
		.crypto = &ca,
	};
	ret = mlx5umr_mkey_configure(mk, &cfg);
	if (ret) {
		fail_err("configure the crypto mkey", ret);
		goto out;
	}
	if (mk->length != (unsigned int)len) {
		fail("configured length %llu, want %d",
		     (unsigned long long)mk->length, len);
		goto out;
	}

	guard_regions();
	memcpy(H.lbuf, pt, len);
	hc_rdma(&H.pair, 1, H.lbuf, H.lmr->lkey, 0, mk->rkey, len, &wc);
	if (!wc.posted || wc.status != IBV_WC_SUCCESS) {
		fail_wc_recover("RDMA WRITE of plaintext through the crypto mkey", &wc);
		goto out;
	}
	d = first_diff(r->buf, xts_v4_ctext, DU);
	if (d >= 0) {
		fail("RDMA WRITE: region 0 byte %ld is 0x%02x, want 0x%02x (vector 4's ciphertext)",
		     d, r->buf[d], xts_v4_ctext[d]);
		goto out;
	}
	if (len > DU && (!memcmp(r->buf + DU, xts_v4_ctext, DU) ||
			 !memcmp(r->buf + DU, pt + DU, DU))) {
		fail("RDMA WRITE: data unit 1 holds %s, want the ciphertext of tweak 1",
		     memcmp(r->buf + DU, pt + DU, DU) ?
		     "data unit 0's ciphertext" : "the plaintext");
		goto out;
	}
	for (i = len; i < (int)r->len; i++) {
		if (r->buf[i] != GUARD) {
			fail("RDMA WRITE: region 0 byte %d is 0x%02x, want 0x%02x (untouched)",
			     i, r->buf[i], GUARD);
			goto out;
		}
	}

	memset(H.lbuf, 0, len);
	hc_rdma(&H.pair, 0, H.lbuf, H.lmr->lkey, 0, mk->rkey, len, &wc);
	if (!wc.posted || wc.status != IBV_WC_SUCCESS) {
		fail_wc_recover("RDMA READ through the crypto mkey", &wc);
		goto out;
	}
	d = first_diff(H.lbuf, pt, len);
	if (d >= 0) {
		fail("RDMA READ: byte %ld read 0x%02x, want 0x%02x (plaintext)",
		     d, H.lbuf[d], pt[d]);
		goto out;
	}
	note("AES-XTS-128, unit 512, engine %u caps 0x%x: %d bytes land as vector 4",
	     H.info.out_crypto_engine, H.info.out_crypto_caps, len);
out:
	/* the mkey first: the service refuses to destroy a DEK it names */
	if (mk) {
		ret = mlx5umr_destroy_mkey(mk);
		if (ret && hc_cur->result == HC_PASS)
			fail_err("destroy the crypto mkey", ret);
	}
	ret = mlx5umr_dek_destroy(dek);
	if (ret && hc_cur->result == HC_PASS)
		fail_err("destroy the DEK", ret);
}
