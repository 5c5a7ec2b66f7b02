// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hwcheck: one command that proves the UMR service on a real ConnectX.
 *
 * It opens an mlx5 RDMA device bound to mlx5_umr_hw with rdma-core verbs,
 * connects a loopback RC QP pair in its own PD, puts a /dev/mlx5_umr file's
 * registrations and mkeys in that PD (MLX5_UMR_IOCTL_SET_PD), configures
 * layouts through the uapi and moves bytes through the keys with RDMA
 * WRITE and READ, checking where every byte lands. Keys that must not work
 * (old after rotation, invalidated, of another PD, out of range) must fail
 * with the remote access error the verbs report.
 *
 * --fake runs the mlx5 mode on the fake HCA's mlx5_ib user device
 * (mlx5_umr_fake_uverbs, Documentation/fake.rst "The service on the
 * fake_uverbs device") in the test VM: libmlx5 and the uapi as on a NIC.
 * Without it a fake is never chosen, so a report always names hardware.
 *
 * --rxe runs the same harness on a soft-RoCE device with plain MRs in place
 * of the service's keys (the checker translates a layout's offsets itself):
 * it proves the QP pair, the RDMA operations, the checks that make sense
 * for plain MRs and the report, without a NIC.
 *
 * Output: one line per check (KTAP), "N passed, N failed, N skipped", a
 * JSON report. Exit 0 when every check that ran passed, 1 on a failure,
 * 4 (kselftest skip) when there is no device to check.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "hwcheck.h"

#define KSFT_SKIP	4

struct hc_state H;

/* ---- device ----------------------------------------------------------- */

static int read_line(const char *path, const char *prefix, char *out,
		     size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(out, len, "%.*s", (int)len - 1, line);
		found = 1;
		break;
	}
	fclose(f);
	return found;
}

/*
 * The fake's ib_device says which fake it is in its node description
 * (drivers/fake/fake_uverbs.c fuv_init(): "mlx5-umr fakeN").
 */
static int is_fake(const char *name)
{
	char path[300];

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/node_desc",
		 name);
	return read_line(path, "mlx5-umr fake", H.fake, sizeof(H.fake)) == 1;
}

/*
 * An mlx5 device is ours when the service made its node; a fake only with
 * --fake, and then only a fake.
 */
static int umr_bound(const char *name)
{
	char path[300], pfx[80];
	struct stat st;

	snprintf(path, sizeof(path), "/dev/mlx5_umr/%s", name);
	if (stat(path, &st))
		return 0;
	if (is_fake(name) != H.fake_mode)
		return 0;
	if (H.fake_mode)
		return 1;
	snprintf(pfx, sizeof(pfx), "%s ", name);
	read_line("/sys/kernel/debug/mlx5_umr_hw/devices", pfx, H.binding,
		  sizeof(H.binding));
	return 1;
}

/* rxe's ib_device has a "parent" netdev attribute and no bus device. */
static int is_rxe(struct ibv_device *d)
{
	char path[300];

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device",
		 ibv_get_device_name(d));
	if (!access(path, F_OK))
		return 0;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/parent",
		 ibv_get_device_name(d));
	return !access(path, R_OK);
}

static struct ibv_device *find_device(char *why, size_t len)
{
	int n, i;

	H.list = ibv_get_device_list(&n);
	if (!H.list) {
		snprintf(why, len, "no RDMA devices (%s)", strerror(errno));
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const char *name = ibv_get_device_name(H.list[i]);

		if (H.devname && strcmp(name, H.devname))
			continue;
		if (H.rxe ? is_rxe(H.list[i]) : umr_bound(name))
			return H.list[i];
	}
	if (H.rxe)
		snprintf(why, len,
			 "no rxe RDMA device%s%s (modprobe rdma_rxe; rdma link add rxe0 type rxe netdev IF)",
			 H.devname ? " named " : "",
			 H.devname ? H.devname : "");
	else if (H.fake_mode)
		snprintf(why, len,
			 "no fake RDMA device%s%s offered to the service (no /dev/mlx5_umr/<ibdev> of a node_desc \"mlx5-umr fake*\" among %d RDMA devices; modprobe mlx5_umr_fake_uverbs)",
			 H.devname ? " named " : "",
			 H.devname ? H.devname : "", n);
	else
		snprintf(why, len,
			 "no mlx5 RDMA device%s%s bound to mlx5_umr_hw (no /dev/mlx5_umr/<ibdev> for any of %d RDMA devices; modprobe mlx5_umr_hw)",
			 H.devname ? " named " : "",
			 H.devname ? H.devname : "", n);
	return NULL;
}

/* The device's context, PD and (mlx5 mode) uapi file, or why not. */
static int open_device(char *why, size_t len)
{
	const char *name = ibv_get_device_name(H.dev);

	H.pair.ctx = ibv_open_device(H.dev);
	if (!H.pair.ctx) {
		snprintf(why, len, "ibv_open_device: %s", strerror(errno));
		return -1;
	}
	if (ibv_query_device(H.pair.ctx, &H.attr)) {
		snprintf(why, len, "ibv_query_device: %s", strerror(errno));
		return -1;
	}
	H.pair.pd = hc_alloc_pd_id(H.pair.ctx, &H.pair.pd_id);
	if (!H.pair.pd) {
		snprintf(why, len, "ibv_alloc_pd: %s", strerror(errno));
		return -1;
	}
	if (H.rxe)
		return 0;
	H.uctx = mlx5umr_open(name);
	if (!H.uctx) {
		snprintf(why, len, "open /dev/mlx5_umr/%s: %s", name,
			 strerror(errno));
		return -1;
	}
	return 0;
}

static void pci_of(const char *name)
{
	char path[300], link[300];
	ssize_t n;
	char *b;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = 0;
	b = strrchr(link, '/');
	snprintf(H.pci, sizeof(H.pci), "%.63s", b ? b + 1 : link);
}

/* ---- main ------------------------------------------------------------- */

/*
 * The uapi file's objects go before the verbs PD they are in: at exit the
 * kernel would close the verbs file first (lower fd), and DEALLOC_PD of a
 * PD that still holds mkeys may be refused by the HCA.
 */
static void release(void)
{
	int i;

	for (i = 0; i < NUM_REGIONS; i++) {
		if (!H.reg[i].obj)
			continue;
		if (H.rxe)
			ibv_dereg_mr(H.reg[i].obj);
		else
			mlx5umr_dereg_mr(H.reg[i].obj);
		H.reg[i].obj = NULL;
	}
	if (H.uctx)
		mlx5umr_close(H.uctx);
	hc_pair_destroy(&H.pair);
	if (H.lmr)
		ibv_dereg_mr(H.lmr);
	if (H.pair.pd)
		ibv_dealloc_pd(H.pair.pd);
	if (H.pair.ctx)
		ibv_close_device(H.pair.ctx);
	if (H.list)
		ibv_free_device_list(H.list);
}

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: hwcheck [-d IBDEV] [--port N] [--json FILE] [--rxe | --fake]\n"
		"               [--first N]\n"
		"  Proves the mlx5-umr service on an mlx5 RDMA device bound to\n"
		"  mlx5_umr_hw: RDMA WRITE/READ through keys configured by the uapi.\n"
		"  --rxe   the same harness on a soft-RoCE device with plain MRs\n"
		"  --fake  the mlx5 mode on the fake HCA's device (test VM), never\n"
		"          chosen without it\n"
		"  --first N  run the first N checks only, skip the rest\n"
		"  --json  the report (default hwcheck-report.json)\n"
		"Exit: 0 all checks that ran passed, 1 a check failed,\n"
		"      4 no device to check (kselftest skip), 2 usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "port", required_argument, NULL, 'p' },
		{ "json", required_argument, NULL, 'j' },
		{ "rxe", no_argument, NULL, 'r' },
		{ "fake", no_argument, NULL, 'f' },
		{ "first", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, p = 0, f = 0, s = 0, setup_failed = 0;
	char why[300] = "";
	unsigned int i, first = ~0u;

	setvbuf(stdout, NULL, _IOLBF, 0);
	H.json = "hwcheck-report.json";
	H.pair.port = 1;
	while ((c = getopt_long(argc, argv, "d:p:j:rfn:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			H.devname = optarg;
			break;
		case 'p':
			H.pair.port = atoi(optarg);
			break;
		case 'j':
			H.json = optarg;
			break;
		case 'r':
			H.rxe = 1;
			break;
		case 'f':
			H.fake_mode = 1;
			break;
		case 'n':
			first = strtoul(optarg, NULL, 0);
			break;
		case 'h':
			print_help(stdout);
			return 0;
		default:
			print_help(stderr);
			return 2;
		}
	}
	if (H.rxe && H.fake_mode) {
		print_help(stderr);
		return 2;
	}
	H.t0 = boot_seconds();
	printf("KTAP version 1\n");
	H.dev = find_device(why, sizeof(why));
	if (H.dev) {
		if (open_device(why, sizeof(why))) {
			/* a device is there: not being able to use it fails */
			printf("1..1\nnot ok 1 - open %s: %s\n",
			       ibv_get_device_name(H.dev), why);
			printf("# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n");
			printf("0 passed, 1 failed, 0 skipped\n");
			write_json(H.json, 0, 1, 0, why);
			release();
			return 1;
		}
		if (H.uctx) {
			H.info.size = sizeof(H.info);
			H.have_info = !ioctl(H.uctx->fd, MLX5_UMR_IOCTL_INFO,
					     &H.info);
		}
		pci_of(ibv_get_device_name(H.dev));
	}
	if (!H.dev) {
		printf("1..0 # SKIP %s\n", why);
		printf("# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0\n");
		printf("hwcheck: %s: nothing checked\n", why);
		write_json(H.json, 0, 0, 0, why);
		release();
		return KSFT_SKIP;
	}
	printf("# device %s fw %s pci %s%s%s%s%s\n", ibv_get_device_name(H.dev),
	       H.attr.fw_ver, H.pci[0] ? H.pci : "-",
	       H.binding[0] ? ", mlx5_umr_hw: " : "", H.binding,
	       H.fake_mode ? ", fake: " : "", H.fake_mode ? H.fake : "");
	if (H.have_info)
		printf("# service: max_entries %u, inline %u, access 0x%x\n",
		       H.info.out_max_entries, H.info.out_max_inline_entries,
		       H.info.out_access);
	if (posix_memalign((void **)&H.lbuf, 4096, LBUF_LEN))
		return 1;
	printf("1..%zu\n", hc_ndefs);
	for (i = 0; i < hc_ndefs; i++) {
		hc_cur = &H.checks[H.nchecks++];
		hc_cur->name = hc_defs[i].name;
		if (i >= first)
			skip("not selected (--first %u)", first);
		else if (setup_failed || (!hc_defs[i].setup && !H.pair_ok))
			skip("not run: an earlier setup check failed");
		else
			hc_defs[i].run();
		if (hc_cur->result == HC_FAIL && !H.rxe)
			hc_cur->klog = klog_since_start();
		if (hc_cur->result == HC_FAIL && hc_defs[i].setup)
			setup_failed = 1;
		switch (hc_cur->result) {
		case HC_PASS:
			p++;
			printf("ok %u - %s%s%s\n", i + 1, hc_cur->name,
			       hc_cur->detail[0] ? ": " : "", hc_cur->detail);
			break;
		case HC_FAIL:
			f++;
			printf("not ok %u - %s: %s\n", i + 1, hc_cur->name,
			       hc_cur->detail);
			if (hc_cur->klog)
				printf("# kernel log:\n# %s", hc_cur->klog);
			break;
		case HC_SKIP:
			s++;
			printf("ok %u - %s # SKIP %s\n", i + 1, hc_cur->name,
			       hc_cur->detail);
			break;
		}
	}
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
	       p, f, s);
	printf("%d passed, %d failed, %d skipped\n", p, f, s);
	if (write_json(H.json, p, f, s, ""))
		fprintf(stderr, "hwcheck: cannot write %s: %s\n", H.json,
			strerror(errno));
	else
		printf("# report: %s\n", H.json);
	release();
	return f ? 1 : p ? 0 : KSFT_SKIP;
}
