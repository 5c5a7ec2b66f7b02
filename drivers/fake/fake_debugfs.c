// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: debugfs, under <debugfs>/mlx5_umr_fake/<name>/.
 *
 * Read-only: caps, counters, qps, cqs, mkeys, wqes (last WQEs in hex).
 * Fault injection (write): fail_cmd "opcode status syndrome",
 * fail_cmd_nth "n status syndrome" (the nth command from now, any opcode;
 * counters' "cmd_nth_left" is what is left of it: 0 once it fired),
 * fail_wqe "syndrome vendor_synd", drop_cqe "count", delay_ms "ms",
 * internal_error "1". Data path probe (write): probe_read "pdn key offset",
 * a one-byte RDMA READ through rkey @key by a QP of PD @pdn: the write
 * succeeds when the read would, else fails with EACCES (any access error,
 * a PD mismatch at any level included). Consumer PDs, the PDs of users'
 * QPs (write): alloc_pd "1" allocates one, free_pd "pdn" frees one
 * (EBUSY while something is in it); pds (read) lists every PD.
 * Data path (xfer, see fake_xfer_dbg_write()): RDMA READ/WRITE of whole
 * buffers through a key, for tests of keys a user library configured.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include "fake.h"

static struct dentry *fake_dbg_root;

/*
 * Like DEFINE_SHOW_ATTRIBUTE, but with read_iter so that kernel_read()
 * works (the KUnit suite reads these files). The files are created with
 * debugfs_create_file_unsafe() because the debugfs proxy only forwards
 * .read/.write; fake_dbg_get() takes the removal protection the proxy
 * would have taken.
 */
#define FAKE_SHOW(__name)						\
static int __name##_show_safe(struct seq_file *s, void *unused)	\
{									\
	struct dentry *d = s->file->f_path.dentry;			\
	int ret = debugfs_file_get(d);					\
									\
	if (ret)							\
		return ret;						\
	ret = __name##_show(s, unused);					\
	debugfs_file_put(d);						\
	return ret;							\
}									\
									\
static int __name##_open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name##_show_safe, inode->i_private);	\
}									\
									\
static const struct file_operations __name##_fops = {			\
	.owner = THIS_MODULE,						\
	.open = __name##_open,						\
	.read_iter = seq_read_iter,					\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

static int fake_caps_show(struct seq_file *s, void *unused)
{
	struct mlx5_umr_fake *fd = s->private;
	struct mlx5_umr_fake_caps *c = &fd->caps;

	seq_printf(s, "log_max_klm_list_size %u\numr_fence %u\n",
		   c->log_max_klm_list_size, c->umr_fence);
	seq_printf(s, "umr_modify_entity_size_disabled %u\numr_modify_atomic_disabled %u\n",
		   c->umr_modify_entity_size_disabled,
		   c->umr_modify_atomic_disabled);
	seq_printf(s, "umr_indirect_mkey_disabled %u\numr_extended_translation_offset %u\n",
		   c->umr_indirect_mkey_disabled,
		   c->umr_extended_translation_offset);
	seq_printf(s, "relaxed_ordering_write_umr %u\nrelaxed_ordering_read_umr %u\n",
		   c->relaxed_ordering_write_umr, c->relaxed_ordering_read_umr);
	seq_printf(s, "atomic %u\numr_ptr_rlky %u\nlog_max_qp_sz %u\nlog_max_cq_sz %u\n",
		   c->atomic, c->umr_ptr_rlky, c->log_max_qp_sz,
		   c->log_max_cq_sz);
	seq_printf(s, "log_max_uctx %u\n", c->log_max_uctx);
	seq_printf(s, "sync %u\nresd_lkey 0x%x\n",
		   !!(fd->flags & MLX5_UMR_FAKE_F_SYNC),
		   MLX5_UMR_FAKE_RESD_LKEY);
	return 0;
}

FAKE_SHOW(fake_caps);

static int fake_counters_show(struct seq_file *s, void *unused)
{
	struct mlx5_umr_fake_counters c;

	mlx5_umr_fake_get_counters(s->private, &c);
	seq_printf(s, "pds %u\nmkeys %u\ncqs %u\nqps %u\npsvs %u\nuars %u\n",
		   c.pds, c.mkeys, c.cqs, c.qps, c.psvs, c.uars);
	seq_printf(s, "dma_bufs %u\nsg_maps %u\niommu_pages %llu\niommu_faults %llu\n",
		   c.dma_bufs, c.sg_maps, c.iommu_pages, c.iommu_faults);
	seq_printf(s, "wqes %llu\ncqes %llu\nerr_cqes %llu\nflush_cqes %llu\n",
		   c.wqes, c.cqes, c.err_cqes, c.flush_cqes);
	seq_printf(s, "events %llu\ncq_overruns %llu\nbad_doorbells %llu\n",
		   c.events, c.cq_overruns, c.bad_doorbells);
	seq_printf(s, "send_doorbells %llu\n", c.send_doorbells);
	seq_printf(s, "deks %u\nuctxs %u\n", c.deks, c.uctxs);
	seq_printf(s, "cmd_nth_left %u\n",
		   READ_ONCE(((struct mlx5_umr_fake *)s->private)->faults.cmd_nth));
	return 0;
}

FAKE_SHOW(fake_counters);

static int fake_qps_show(struct seq_file *s, void *unused)
{
	struct mlx5_umr_fake *fd = s->private;
	struct fake_qp *qp;
	unsigned long i, flags;

	seq_puts(s, "qpn state log_sq ci last_pi cqn wqes idx_mismatch rlky pd\n");
	/* qp->lock before fd->lock: walk under RCU, each QP under its lock */
	rcu_read_lock();
	xa_for_each(&fd->qps, i, qp) {
		spin_lock_irqsave(&qp->lock, flags);
		if (!qp->dead)
			seq_printf(s, "0x%x %s %u %u %u 0x%x %llu %llu %u %u\n",
				   qp->qpn, mlx5_qp_state_str(qp->state),
				   qp->log_sq, qp->ci, qp->last_pi,
				   qp->scq->cqn, qp->nr_wqes,
				   qp->nr_idx_mismatch, qp->rlky, qp->pdn);
		spin_unlock_irqrestore(&qp->lock, flags);
	}
	rcu_read_unlock();
	return 0;
}

FAKE_SHOW(fake_qps);

static int fake_cqs_show(struct seq_file *s, void *unused)
{
	struct mlx5_umr_fake *fd = s->private;
	struct fake_cq *cq;
	unsigned long i, flags;

	seq_puts(s, "cqn log_sz pi armed overrun qps\n");
	spin_lock_irqsave(&fd->lock, flags);
	xa_for_each(&fd->cqs, i, cq) {
		spin_lock(&cq->lock);
		seq_printf(s, "0x%x %u %u %u %u %u\n", cq->cqn, cq->log_sz,
			   cq->pi, cq->armed, cq->overrun, cq->qp_users);
		spin_unlock(&cq->lock);
	}
	spin_unlock_irqrestore(&fd->lock, flags);
	return 0;
}

FAKE_SHOW(fake_cqs);

static int fake_mkeys_show(struct seq_file *s, void *unused)
{
	struct mlx5_umr_fake *fd = s->private;
	struct fake_mkey *mk;
	unsigned long i, flags;

	seq_puts(s, "key pd mode free umr_en lr lw rr rw a rinval start len xlt_oct\n");
	spin_lock_irqsave(&fd->lock, flags);
	xa_for_each(&fd->mkeys, i, mk) {
		const void *m = mk->mkc;

		seq_printf(s, "0x%08x 0x%x %u %u %u %u%u%u%u%u %u 0x%llx 0x%llx %u\n",
			   mk->index << 8 | MLX5_GET(mkc, m, mkey_7_0),
			   MLX5_GET(mkc, m, pd), fake_mkey_access_mode(m),
			   MLX5_GET(mkc, m, free), MLX5_GET(mkc, m, umr_en),
			   MLX5_GET(mkc, m, lr), MLX5_GET(mkc, m, lw),
			   MLX5_GET(mkc, m, rr), MLX5_GET(mkc, m, rw),
			   MLX5_GET(mkc, m, a), MLX5_GET(mkc, m, en_rinval),
			   MLX5_GET64(mkc, m, start_addr),
			   MLX5_GET64(mkc, m, len), mk->xlt_oct);
	}
	spin_unlock_irqrestore(&fd->lock, flags);
	return 0;
}

FAKE_SHOW(fake_mkeys);

static int fake_wqes_show(struct seq_file *s, void *unused)
{
	struct mlx5_umr_fake *fd = s->private;
	struct fake_wqe_log *l;
	unsigned long flags;
	unsigned int i, n;

	l = kmalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	for (i = 0; i < FAKE_WQE_LOG; i++) {
		spin_lock_irqsave(&fd->lock, flags);
		n = fd->wqe_log_pos;
		if (i >= n) {
			spin_unlock_irqrestore(&fd->lock, flags);
			break;
		}
		/* oldest first */
		*l = fd->wqe_log[(n - min(n, FAKE_WQE_LOG) + i) % FAKE_WQE_LOG];
		spin_unlock_irqrestore(&fd->lock, flags);
		seq_printf(s, "qpn 0x%x idx %u len %u\n", l->qpn, l->idx,
			   l->len);
		seq_hex_dump(s, "  ", DUMP_PREFIX_OFFSET, 16, 4, l->data,
			     l->len, false);
	}
	kfree(l);
	return 0;
}

FAKE_SHOW(fake_wqes);

static int fake_pds_show(struct seq_file *s, void *unused)
{
	struct mlx5_umr_fake *fd = s->private;
	unsigned long i;
	void *pd;

	xa_lock_irq(&fd->pds);
	xa_for_each(&fd->pds, i, pd)
		seq_printf(s, "%lu\n", i);
	xa_unlock_irq(&fd->pds);
	return 0;
}

FAKE_SHOW(fake_pds);

static ssize_t fake_knob_do(struct kiocb *iocb, struct iov_iter *from)
{
	struct file *file = iocb->ki_filp;
	struct mlx5_umr_fake *fd = file->private_data;
	const char *name = file->f_path.dentry->d_name.name;
	size_t count = iov_iter_count(from);
	unsigned int a = 0, b = 0, c = 0;
	char buf[64];
	int n;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_iter(buf, count, from) != count)
		return -EFAULT;
	buf[count] = 0;
	n = sscanf(buf, "%i %i %i", &a, &b, &c);
	if (n < 1)
		return -EINVAL;
	if (!strcmp(name, "fail_cmd")) {
		if (n != 3)
			return -EINVAL;
		mlx5_umr_fake_inject_cmd_error(fd, a, b, c);
	} else if (!strcmp(name, "fail_cmd_nth")) {
		if (n != 3)
			return -EINVAL;
		mlx5_umr_fake_inject_cmd_nth(fd, a, b, c);
	} else if (!strcmp(name, "fail_wqe")) {
		if (n != 2)
			return -EINVAL;
		mlx5_umr_fake_inject_wqe_error(fd, a, b);
	} else if (!strcmp(name, "drop_cqe")) {
		mlx5_umr_fake_inject_drop_cqe(fd, a);
	} else if (!strcmp(name, "delay_ms")) {
		mlx5_umr_fake_inject_delay(fd, a);
	} else if (!strcmp(name, "internal_error")) {
		if (a)
			mlx5_umr_fake_inject_internal_error(fd);
	} else if (!strcmp(name, "alloc_pd")) {
		u32 pdn;

		if (mlx5_umr_fake_pd_alloc(fd, &pdn))
			return -ENOSPC;
	} else if (!strcmp(name, "free_pd")) {
		if (mlx5_umr_fake_pd_free(fd, a))
			return -EBUSY;
	} else if (!strcmp(name, "probe_read")) {
		u8 byte;
		int err;

		if (n != 3)
			return -EINVAL;
		err = mlx5_umr_fake_xfer_pd(fd, a, b, c, &byte, 1, false, true);
		if (err)
			return err < 0 ? err : -EACCES;
	} else {
		return -EINVAL;
	}
	return count;
}

static ssize_t fake_knob_write(struct kiocb *iocb, struct iov_iter *from)
{
	struct dentry *d = iocb->ki_filp->f_path.dentry;
	ssize_t ret = debugfs_file_get(d);

	if (ret)
		return ret;
	ret = fake_knob_do(iocb, from);
	debugfs_file_put(d);
	return ret;
}

static const struct file_operations fake_knob_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write_iter = fake_knob_write,
};

/* The largest access of "xfer" (MLX5_UMR_TEST_IOCTL_INFO's out_max_xfer). */
#define FAKE_DBG_XFER_MAX	SZ_1M

/* One open "xfer" file: the bytes the last "R" read, not yet read(). */
struct fake_xfer_dbg {
	struct mlx5_umr_fake *fd;
	struct mutex lock;	/* protects buf, len and off */
	void *buf;
	size_t len;
	size_t off;
};

static int fake_xfer_dbg_open(struct inode *inode, struct file *file)
{
	struct fake_xfer_dbg *x = kzalloc(sizeof(*x), GFP_KERNEL);

	if (!x)
		return -ENOMEM;
	x->fd = inode->i_private;
	mutex_init(&x->lock);
	file->private_data = x;
	return 0;
}

static int fake_xfer_dbg_release(struct inode *inode, struct file *file)
{
	struct fake_xfer_dbg *x = file->private_data;

	kvfree(x->buf);
	mutex_destroy(&x->lock);
	kfree(x);
	return 0;
}

/*
 * "R pdn key offset len\n": an RDMA READ of @len bytes at @offset from
 * the start of rkey @key by a QP of PD @pdn (the fake's responder checks,
 * mlx5_umr_fake_xfer_pd() remote), kept for the next read()s of this open
 * file. "W pdn key offset len\n" followed by @len bytes in the same
 * write(): an RDMA WRITE of them. Lower-case "r"/"w" access locally (an
 * lkey, LR/LW). An access error fails the write with EACCES and moves no
 * bytes. A sixth field names the accessing QP (an RC QP of PD @pdn in
 * RTR or RTS, else EINVAL; unknown: ENOENT): a signature error of the
 * access then reaches its CQ as a SIG_ERR CQE (fake_xfer_qp()). The
 * probe_read knob moves one byte and shows none; a user library's
 * indirect mkeys (libmlx5's mlx5dv_wr_mr_list() and friends on
 * the fake_uverbs device) need whole buffers in and out to be checked
 * byte by byte against the layout they were given.
 */
static ssize_t fake_xfer_dbg_do(struct fake_xfer_dbg *x, struct iov_iter *from)
{
	size_t count = iov_iter_count(from), hlen, n;
	unsigned int pdn, key, len, qpn;
	unsigned long long off;
	char hdr[80], op, *nl;
	bool write, remote;
	void *buf;
	int err, nf;

	n = min(count, sizeof(hdr) - 1);
	if (copy_from_iter(hdr, n, from) != n)
		return -EFAULT;
	hdr[n] = 0;
	nl = strchr(hdr, '\n');
	if (!nl)
		return -EINVAL;
	*nl = 0;
	hlen = nl - hdr + 1;
	nf = sscanf(hdr, "%c %i %i %lli %i %i", &op, &pdn, &key, &off, &len,
		    &qpn);
	if (nf < 5 || !len || len > FAKE_DBG_XFER_MAX || !op ||
	    !strchr("RWrw", op))
		return -EINVAL;
	write = op == 'W' || op == 'w';
	remote = op == 'R' || op == 'W';
	if (count != hlen + (write ? len : 0))
		return -EINVAL;
	/* the payload starts right after the header's newline */
	iov_iter_revert(from, n - hlen);
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (write && copy_from_iter(buf, len, from) != len) {
		err = -EFAULT;
		goto out;
	}
	if (nf == 6)
		err = fake_xfer_qp(x->fd, qpn, pdn, key, off, buf, len, write,
				   remote);
	else
		err = mlx5_umr_fake_xfer_pd(x->fd, pdn, key, off, buf, len,
					    write, remote);
	if (err) {
		err = err < 0 ? err : -EACCES;
		goto out;
	}
	if (!write) {
		mutex_lock(&x->lock);
		swap(x->buf, buf);
		x->len = len;
		x->off = 0;
		mutex_unlock(&x->lock);
	}
out:
	kvfree(buf);
	return err ? err : count;
}

static ssize_t fake_xfer_dbg_write(struct kiocb *iocb, struct iov_iter *from)
{
	struct dentry *d = iocb->ki_filp->f_path.dentry;
	ssize_t ret = debugfs_file_get(d);

	if (ret)
		return ret;
	ret = fake_xfer_dbg_do(iocb->ki_filp->private_data, from);
	debugfs_file_put(d);
	return ret;
}

/* What the last "R" read, once: then end of file until the next "R". */
static ssize_t fake_xfer_dbg_read(struct kiocb *iocb, struct iov_iter *to)
{
	struct fake_xfer_dbg *x = iocb->ki_filp->private_data;
	size_t n;

	mutex_lock(&x->lock);
	n = copy_to_iter(x->buf + x->off, x->len - x->off, to);
	x->off += n;
	mutex_unlock(&x->lock);
	return n;
}

static const struct file_operations fake_xfer_dbg_fops = {
	.owner = THIS_MODULE,
	.open = fake_xfer_dbg_open,
	.release = fake_xfer_dbg_release,
	.read_iter = fake_xfer_dbg_read,
	.write_iter = fake_xfer_dbg_write,
};

static const struct {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
} fake_dbg_files[] = {
	{ "caps", 0400, &fake_caps_fops },
	{ "counters", 0400, &fake_counters_fops },
	{ "qps", 0400, &fake_qps_fops },
	{ "cqs", 0400, &fake_cqs_fops },
	{ "mkeys", 0400, &fake_mkeys_fops },
	{ "wqes", 0400, &fake_wqes_fops },
	{ "fail_cmd", 0200, &fake_knob_fops },
	{ "fail_cmd_nth", 0200, &fake_knob_fops },
	{ "fail_wqe", 0200, &fake_knob_fops },
	{ "drop_cqe", 0200, &fake_knob_fops },
	{ "delay_ms", 0200, &fake_knob_fops },
	{ "internal_error", 0200, &fake_knob_fops },
	{ "probe_read", 0200, &fake_knob_fops },
	{ "pds", 0400, &fake_pds_fops },
	{ "alloc_pd", 0200, &fake_knob_fops },
	{ "free_pd", 0200, &fake_knob_fops },
	{ "xfer", 0600, &fake_xfer_dbg_fops },
};

void fake_debugfs_add(struct mlx5_umr_fake *fd)
{
	unsigned int i;

	if (!fake_dbg_root)
		return;
	fd->dbg = debugfs_create_dir(dev_name(&fd->dev), fake_dbg_root);
	for (i = 0; i < ARRAY_SIZE(fake_dbg_files); i++)
		debugfs_create_file_unsafe(fake_dbg_files[i].name,
					   fake_dbg_files[i].mode, fd->dbg, fd,
					   fake_dbg_files[i].fops);
}

void fake_debugfs_remove(struct mlx5_umr_fake *fd)
{
	debugfs_remove_recursive(fd->dbg);
	fd->dbg = NULL;
}

void fake_debugfs_init(void)
{
	fake_dbg_root = debugfs_create_dir("mlx5_umr_fake", NULL);
	if (IS_ERR(fake_dbg_root))
		fake_dbg_root = NULL;
}

void fake_debugfs_exit(void)
{
	debugfs_remove_recursive(fake_dbg_root);
	fake_dbg_root = NULL;
}
