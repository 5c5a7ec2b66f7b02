// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr benchmark (make bench): cost per configure of an indirect mkey.
 *
 * Runs from module_init on two private fake HCAs, a null device (WQEs
 * consumed and completed, never decoded: host-side cost only) and a fully
 * decoding one, and prints its tables to the console, each line prefixed
 * "BENCH|"; scripts/testbed/bench.sh copies them into
 * Documentation/bench.rst. Completions come from the fake's workqueue, as
 * from an interrupt. The module stays loaded with nothing allocated.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/err.h>
#include <linux/math64.h>
#include <linux/mlx5/device.h>
#include <linux/mlx5/mlx5_ifc.h>
#include <linux/mlx5/qp.h>

#include "bench.h"

static const struct bench_layout bench_layouts[] = {
	{ "list 1", false, 1 },
	{ "list 4", false, 4 },
	{ "list 16", false, 16 },
	{ "list 256 (ptr)", false, 256 },
	{ "list 4096 (ptr)", false, 4096 },
	{ "interleaved 2", true, 2 },
	{ "interleaved 3", true, 3 },
	{ "interleaved 16", true, 16 },
};

#define BENCH_NL	ARRAY_SIZE(bench_layouts)

static const unsigned int bench_batches[] = { 1, 8, 32, 128 };

#define BENCH_NB	ARRAY_SIZE(bench_batches)
#define BENCH_B32	2	/* index of batch 32 */

/* Live mkeys at which the growth table measures. */
static const unsigned int bench_live[] = { 1, 10, 100, 1000, 10000, 100000 };

#define BENCH_LIVE_MAX	100000

/* ps per configure; 0 = not measurable (batch larger than the ring). */
struct bench_row {
	u64 enc, cpy, up, b[BENCH_NB];
};

static struct bench_row bench_rows[2][BENCH_NL];
static bool bench_failed;

/* make bench-profile: one layout and batch on the null device, nothing else. */
static unsigned int profile_sec;
module_param(profile_sec, uint, 0444);
MODULE_PARM_DESC(profile_sec, "profile mode: run the batched path this many seconds (0: the tables)");
static unsigned int profile_layout;
module_param(profile_layout, uint, 0444);
MODULE_PARM_DESC(profile_layout, "profile mode: index of the layout (0: list 1)");
static unsigned int profile_batch = 32;
module_param(profile_batch, uint, 0444);
MODULE_PARM_DESC(profile_batch, "profile mode: requests per post");

/* make bench-scale: the scaling table only (bench_scale.c), in the VM. */
static unsigned int scale_sec;
module_param(scale_sec, uint, 0444);
MODULE_PARM_DESC(scale_sec, "scaling table only: seconds per thread count (0: the other tables)");

/*
 * make bench, uapi part: keep the null device (and so its character
 * device) until the module is unloaded, for tests/bench/uapi_bench, and
 * publish the in-kernel reference it compares with (list 1, null device).
 */
static unsigned int uapi;
module_param(uapi, uint, 0444);
MODULE_PARM_DESC(uapi, "keep the null device for the uapi benchmark until unload (1), without measuring (2: profiling the uapi)");
static char ref_ps[128];
module_param_string(ref_ps, ref_ps, sizeof(ref_ps), 0444);
MODULE_PARM_DESC(ref_ps, "out: list 1, null device, ps per configure: synchronous, then batches 1 8 32 128");
static char uapi_dev[32];
module_param_string(uapi_dev, uapi_dev, sizeof(uapi_dev), 0444);
MODULE_PARM_DESC(uapi_dev, "out: name of the kept null device");
static struct bench_dev *bench_kept;

#define bout(fmt, ...) pr_info("BENCH|" fmt "\n", ##__VA_ARGS__)

/* A bench_ns() or bench_ratio() text of any u64: "1844674407370955161.5x" */
#define BENCH_NUM_LEN 24

/* "12.3" (ns) from picoseconds, "n/a" when not measured. */
static const char *bench_ns(char *buf, size_t len, u64 ps)
{
	if (!ps)
		return "n/a";
	snprintf(buf, len, "%llu.%u", div_u64(ps, 1000),
		 (unsigned int)(ps % 1000) / 100);
	return buf;
}

/* Ratio in tenths; 0 when either side was not measured. */
static u64 bench_r10(u64 a, u64 b)
{
	return a && b ? div64_u64(a * 10 + b / 2, b) : 0;
}

static const char *bench_ratio(char *buf, size_t len, u64 a, u64 b)
{
	u64 r = bench_r10(a, b);

	if (r)
		snprintf(buf, len, "%llu.%ux", div_u64(r, 10),
			 (unsigned int)(r % 10));
	else
		strscpy(buf, "n/a", len);
	return buf;
}

static u64 bench_best(const struct bench_row *r)
{
	u64 best = 0;
	unsigned int i;

	for (i = 0; i < BENCH_NB; i++)
		if (r->b[i] && (!best || r->b[i] < best))
			best = r->b[i];
	return best;
}

/* Sanity: what the HCA holds after the runs proves they did the work. */
static int bench_check(struct bench_set *s)
{
	u8 mkc[MLX5_ST_SZ_BYTES(mkc)];
	struct mlx5_umr_fake_counters cnt;
	union {
		struct mlx5_klm klm;
		struct mlx5_stride_block_ctrl_seg rb;
	} e;
	int oct;

	mlx5_umr_fake_get_counters(s->bd->fake, &cnt);
	if (cnt.err_cqes || cnt.flush_cqes || cnt.cq_overruns || !cnt.wqes)
		return -EIO;
	oct = mlx5_umr_fake_query_mkey(s->bd->fake, s->mkeys[0]->key, mkc,
				       &e, sizeof(e));
	if (oct < 0)
		return oct;
	/* A null device executes nothing: the mkey is still free. */
	if (MLX5_GET(mkc, mkc, free) != s->bd->null)
		return -EIO;
	if (s->bd->null)
		return 0;
	/* The first translation entry: a KLM, or the repeat block header. */
	if (s->lo->interleaved) {
		if (be32_to_cpu(e.rb.bcount_per_cycle) !=
		    BENCH_IL_BYTES * s->lo->entries ||
		    be32_to_cpu(e.rb.repeat_count) != BENCH_IL_REPEAT ||
		    be16_to_cpu(e.rb.num_entries) != s->lo->entries)
			return -EIO;
		return 0;
	}
	if (be32_to_cpu(e.klm.bcount) != s->sge[0].length ||
	    be32_to_cpu(e.klm.key) != s->sge[0].key ||
	    be64_to_cpu(e.klm.va) != s->sge[0].addr)
		return -EIO;
	return 0;
}

static int bench_layout_run(struct bench_dev *bd, const struct bench_layout *lo,
			    struct bench_row *row, const struct bench_row *host)
{
	struct bench_set s = {};
	unsigned int i;
	int err;

	err = bench_set_init(&s, bd, lo, NULL, 0);
	if (err)
		return err;
	if (host) {
		/* Encoding and copying never involve the device. */
		row->enc = host->enc;
		row->cpy = host->cpy;
	} else {
		err = bench_measure(bench_encode, &s, 0, 1, &row->enc);
		if (!err)
			err = bench_measure(bench_memcpy, &s, 0, 1, &row->cpy);
	}
	if (!err)
		err = bench_measure(bench_upstream, &s, 0, 1, &row->up);
	for (i = 0; i < BENCH_NB && !err; i++) {
		err = bench_measure(bench_batched, &s, bench_batches[i],
				    bench_batches[i], &row->b[i]);
		if (err == -EINVAL) {
			/* A batch this large can never fit the ring. */
			row->b[i] = 0;
			err = 0;
		}
	}
	if (!err)
		err = bench_check(&s);
	bench_set_fini(&s);
	return err;
}

static const u8 bench_main_w[] = { 15, 9, 9, 9, 9, 9, 9, 9, 7, 7 };
static const u8 bench_ratio_w[] = { 15, 7, 7, 7, 7, 7, 7, 7, 7 };

/* A reStructuredText table rule: '=' under each column of widths @w. */
static void bench_rule(const u8 *w, unsigned int n)
{
	char line[128], *p = line;
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(p, '=', w[i]);
		p += w[i];
		*p++ = ' ';
	}
	p[-1] = '\0';
	bout("%s", line);
}

/* (d)/(b) and (c)/(d) at every batch size. */
static void bench_print_ratios(unsigned int d)
{
	char v[8][BENCH_NUM_LEN];
	unsigned int i, j;

	bout("Ratios: batched over the floor, upstream-style over batched:");
	bout("");
	bench_rule(bench_ratio_w, ARRAY_SIZE(bench_ratio_w));
	bout("%-15s %7s %7s %7s %7s %7s %7s %7s %7s", "layout", "d1/b",
	     "d8/b", "d32/b", "d128/b", "c/d1", "c/d8", "c/d32", "c/d128");
	bench_rule(bench_ratio_w, ARRAY_SIZE(bench_ratio_w));
	for (i = 0; i < BENCH_NL; i++) {
		const struct bench_row *r = &bench_rows[d][i];

		for (j = 0; j < BENCH_NB; j++) {
			bench_ratio(v[j], BENCH_NUM_LEN, r->b[j], r->cpy);
			bench_ratio(v[BENCH_NB + j], BENCH_NUM_LEN, r->up, r->b[j]);
		}
		bout("%-15s %7s %7s %7s %7s %7s %7s %7s %7s",
		     bench_layouts[i].name, v[0], v[1], v[2], v[3], v[4], v[5],
		     v[6], v[7]);
	}
	bench_rule(bench_ratio_w, ARRAY_SIZE(bench_ratio_w));
	bout("");
}

static void bench_print_table(unsigned int d, const char *title)
{
	char v[9][BENCH_NUM_LEN];
	unsigned int i;

	bout("%s", title);
	bout("");
	bench_rule(bench_main_w, ARRAY_SIZE(bench_main_w));
	bout("%-15s %9s %9s %9s %9s %9s %9s %9s %7s %7s", "layout", "(a) enc",
	     "(b) copy", "(c) sync", "(d) 1", "(d) 8", "(d) 32", "(d) 128",
	     "d/b", "c/d32");
	bench_rule(bench_main_w, ARRAY_SIZE(bench_main_w));
	for (i = 0; i < BENCH_NL; i++) {
		const struct bench_row *r = &bench_rows[d][i];

		bout("%-15s %9s %9s %9s %9s %9s %9s %9s %7s %7s",
		     bench_layouts[i].name, bench_ns(v[0], BENCH_NUM_LEN, r->enc),
		     bench_ns(v[1], BENCH_NUM_LEN, r->cpy), bench_ns(v[2], BENCH_NUM_LEN, r->up),
		     bench_ns(v[3], BENCH_NUM_LEN, r->b[0]), bench_ns(v[4], BENCH_NUM_LEN, r->b[1]),
		     bench_ns(v[5], BENCH_NUM_LEN, r->b[2]), bench_ns(v[6], BENCH_NUM_LEN, r->b[3]),
		     bench_ratio(v[7], BENCH_NUM_LEN, bench_best(r), r->cpy),
		     bench_ratio(v[8], BENCH_NUM_LEN, r->up, r->b[BENCH_B32]));
	}
	bench_rule(bench_main_w, ARRAY_SIZE(bench_main_w));
	bout("");
}

static bool bench_inline(const struct bench_layout *lo)
{
	return !strstr(lo->name, "ptr");
}

/* The targets, judged on the null device. */
static void bench_targets(void)
{
	u64 floor = 0, up = U64_MAX, ptr_up = U64_MAX;
	const char *wf = "", *wu = "", *wp = "";
	unsigned int i;

	for (i = 0; i < BENCH_NL; i++) {
		const struct bench_row *r = &bench_rows[0][i];
		u64 f = bench_r10(bench_best(r), r->cpy);
		u64 u = bench_r10(r->up, r->b[BENCH_B32]);

		if (!bench_inline(&bench_layouts[i])) {
			if (u < ptr_up) {
				ptr_up = u;
				wp = bench_layouts[i].name;
			}
			continue;
		}
		if (f > floor) {
			floor = f;
			wf = bench_layouts[i].name;
		}
		if (u < up) {
			up = u;
			wu = bench_layouts[i].name;
		}
	}
	bout("Targets (null device, inline layouts, worst case):");
	bout("");
	bout("- best batched path within 3x the memcpy floor: %llu.%llux (%s), %s",
	     div_u64(floor, 10), floor % 10, wf, floor <= 30 ? "met" : "MISSED");
	bout("- batch 32 at least 10x the upstream-style throughput: %llu.%llux (%s), %s",
	     div_u64(up, 10), up % 10, wu, up >= 100 ? "met" : "MISSED");
	bout("- pointer mode, for comparison (writing the table dominates both");
	bout("  paths): upstream-style / batch 32 = %llu.%llux at worst (%s)",
	     div_u64(ptr_up, 10), ptr_up % 10, wp);
	bout("");
}

static int bench_tables(struct bench_dev *bd)
{
	unsigned int d, i;
	int err;

	for (d = 0; d < 2; d++) {
		for (i = 0; i < BENCH_NL; i++) {
			err = bench_layout_run(&bd[d], &bench_layouts[i],
					       &bench_rows[d][i],
					       d ? &bench_rows[0][i] : NULL);
			if (err) {
				pr_err("mlx5_umr_bench: %s on the %s device: %d\n",
				       bench_layouts[i].name,
				       d ? "decoding" : "null", err);
				return err;
			}
		}
	}
	bench_print_table(0, "Null device (host-side cost only), ns per configure:");
	bench_print_ratios(0);
	bench_print_table(1, "Fully decoding fake ((a) and (b) as above), ns per configure:");
	bench_print_ratios(1);
	bench_targets();
	return 0;
}

/* ns per configure, list 4 at batch 32, as the live mkeys grow. */
static int bench_growth(struct bench_dev *bd)
{
	static const struct bench_layout lo = { "list 4", false, 4 };
	static const char rule[] = "=========== ========= =========";
	struct mlx5_umr_mkey **mkeys[2] = {}, **spread[2] = {};
	struct bench_set s[2] = {};
	unsigned int d, i, j, live = 0;
	u64 ps[2];
	char v[2][BENCH_NUM_LEN];
	int err = -ENOMEM;

	for (d = 0; d < 2; d++) {
		mkeys[d] = kvcalloc(BENCH_LIVE_MAX, sizeof(*mkeys[d]),
				    GFP_KERNEL);
		spread[d] = kcalloc(BENCH_POOL, sizeof(*spread[d]),
				    GFP_KERNEL);
		if (!mkeys[d] || !spread[d])
			goto out;
	}
	bout("Live mkeys, list 4 at batch 32, ns per configure (requests spread");
	bout("over all of them):");
	bout("");
	bout("%s", rule);
	bout("%-11s %9s %9s", "live mkeys", "null", "decoding");
	bout("%s", rule);
	for (j = 0; j < ARRAY_SIZE(bench_live); j++) {
		for (; live < bench_live[j]; live++) {
			for (d = 0; d < 2; d++) {
				mkeys[d][live] = mlx5_umr_alloc_mkey(bd[d].dev,
								     4, 0);
				if (IS_ERR(mkeys[d][live])) {
					err = PTR_ERR(mkeys[d][live]);
					mkeys[d][live] = NULL;
					goto out;
				}
			}
			if (!(live % 1024))
				cond_resched();
		}
		for (d = 0; d < 2; d++) {
			for (i = 0; i < BENCH_POOL; i++)
				spread[d][i] = mkeys[d][(u64)i * live /
							BENCH_POOL];
			if (j == 0)
				err = bench_set_init(&s[d], &bd[d], &lo,
						     spread[d], BENCH_POOL);
			else
				bench_set_bind(&s[d], spread[d], BENCH_POOL);
			if (err)
				goto out;
			err = bench_measure(bench_batched, &s[d], 32, 32, &ps[d]);
			if (err)
				goto out;
		}
		bout("%11u %9s %9s", live, bench_ns(v[0], BENCH_NUM_LEN, ps[0]),
		     bench_ns(v[1], BENCH_NUM_LEN, ps[1]));
	}
	bout("%s", rule);
	bout("");
	err = bench_check(&s[1]);
out:
	for (d = 0; d < 2; d++) {
		if (s[d].wrs)
			bench_set_fini(&s[d]);
		/* A failed allocation may have left one more on the other. */
		for (i = 0; mkeys[d] && i <= live && i < BENCH_LIVE_MAX; i++)
			if (mkeys[d][i])
				mlx5_umr_free_mkey(mkeys[d][i]);
		kfree(spread[d]);
		kvfree(mkeys[d]);
	}
	return err;
}

/*
 * Profile mode: the batched path of one layout alone, for perf on the host
 * (make bench-profile); timed once first, then run for profile_sec.
 */
static int bench_profile(struct bench_dev *bd)
{
	const struct bench_layout *lo;
	struct bench_set s = {};
	u64 ps, end, n = 0;
	char v[BENCH_NUM_LEN];
	int err;

	if (profile_layout >= BENCH_NL || !profile_batch ||
	    profile_batch > BENCH_MAX_BATCH)
		return -EINVAL;
	lo = &bench_layouts[profile_layout];
	err = bench_set_init(&s, bd, lo, NULL, 0);
	if (err)
		return err;
	err = bench_measure(bench_batched, &s, profile_batch, profile_batch,
			    &ps);
	if (err)
		goto out;
	bout("profile|%s|batch %u|%s ns per configure", lo->name,
	     profile_batch, bench_ns(v, sizeof(v), ps));
	end = ktime_get_ns() + (u64)profile_sec * NSEC_PER_SEC;
	while (!err && ktime_get_ns() < end) {
		err = bench_batched(&s, profile_batch, 1024 * profile_batch);
		n += 1024 * profile_batch;
		cond_resched();
	}
	bout("profile|%llu configures", n);
	if (!err)
		err = bench_check(&s);
out:
	bench_set_fini(&s);
	return err;
}

static DECLARE_COMPLETION(bench_finished);
static int bench_err;

static int bench_main(void)
{
	struct bench_dev *bd;
	int err;

	bd = kcalloc(2, sizeof(*bd), GFP_KERNEL);
	if (!bd)
		return -ENOMEM;
	err = bench_ops_init();
	if (err)
		goto out_free;
	err = bench_dev_init(&bd[0], true);
	if (err)
		goto out_ops;
	err = bench_dev_init(&bd[1], false);
	if (err)
		goto out_null;

	if (scale_sec) {
		err = bench_scale(&bd[0], scale_sec);
	} else if (profile_sec) {
		err = bench_profile(bd);
	} else if (uapi == 2) {
		err = 0;
	} else {
		err = bench_tables(bd);
		if (!err)
			err = bench_growth(bd);
	}
	if (err)
		bench_failed = true;
	bout("%s", bench_failed ? "FAILED" : "done");

	if (uapi && !err && !profile_sec && !scale_sec) {
		const struct bench_row *r = &bench_rows[0][0];

		BUILD_BUG_ON(BENCH_NB != 4);
		snprintf(ref_ps, sizeof(ref_ps), "%llu %llu %llu %llu %llu",
			 r->up, r->b[0], r->b[1], r->b[2], r->b[3]);
		strscpy(uapi_dev, mlx5_umr_fake_hca(bd[0].fake)->name,
			sizeof(uapi_dev));
		bench_dev_fini(&bd[1]);
		bench_kept = bd;
		return 0;
	}
	bench_dev_fini(&bd[1]);
out_null:
	bench_dev_fini(&bd[0]);
out_ops:
	bench_ops_fini();
out_free:
	kfree(bd);
	return err;
}

static int bench_run(void *unused)
{
	bench_err = bench_main();
	/* Never returns into this module's text once init may go on. */
	kthread_complete_and_exit(&bench_finished, 0);
}

static int __init mlx5_umr_bench_init(void)
{
	struct task_struct *t;

	/*
	 * Measure in a kernel thread, where ULPs post from, not in insmod's
	 * task: under UML every switch back to a task with a user address
	 * space costs host ptrace calls (about 6 us), which would be charged
	 * to every sleep of the poster (Documentation/bench.rst).
	 */
	t = kthread_run(bench_run, NULL, "mlx5_umr_bench");
	if (IS_ERR(t)) {
		pr_err("mlx5_umr_bench: no thread: %ld\n", PTR_ERR(t));
		return 0;
	}
	wait_for_completion(&bench_finished);
	if (bench_err)
		pr_err("mlx5_umr_bench: failed: %d\n", bench_err);
	return 0;
}

static void __exit mlx5_umr_bench_exit(void)
{
	if (!bench_kept)
		return;
	bench_dev_fini(&bench_kept[0]);
	bench_ops_fini();
	kfree(bench_kept);
}

module_init(mlx5_umr_bench_init);
module_exit(mlx5_umr_bench_exit);

MODULE_DESCRIPTION("mlx5-umr: UMR configure benchmark on the fake HCA");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(MLX5_UMR);
MODULE_IMPORT_NS(MLX5_UMR_TESTING);
