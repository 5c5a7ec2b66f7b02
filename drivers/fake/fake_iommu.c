// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mlx5-umr fake HCA: a page-granular IOMMU.
 *
 * The fake hands out its own device addresses (IOVAs) for DMA buffers and
 * mapped scatterlists and translates every device access back through this
 * table, so an access to memory the service never mapped (or already
 * unmapped) is caught as a fault instead of silently touching RAM. IOVAs are
 * never reused and every mapping is followed by an unmapped guard page.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/scatterlist.h>

#include "fake.h"

/* A buffer from alloc_dma_buf, on fd->dma_bufs: what destruction frees. */
struct fake_dma_buf {
	u64 iova;
	struct list_head node;
	void *cpu;
	dma_addr_t *pages;
	unsigned int npages;
};

static u64 fake_iova_alloc(struct mlx5_umr_fake *fd, unsigned int npages)
{
	/* one guard page after each mapping */
	u64 len = (u64)(npages + 1) << PAGE_SHIFT;

	return atomic64_add_return(len, &fd->next_iova) - len;
}

/*
 * The IOMMU xarray's lock is never taken under fd->lock and always with
 * interrupts off (it shares its lock class with the object xarrays, which
 * nest inside fd->lock); fd->lock only guards the counters here.
 */
static void fake_iommu_count(struct mlx5_umr_fake *fd, long pages)
{
	unsigned long flags;

	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.iommu_pages += pages;
	spin_unlock_irqrestore(&fd->lock, flags);
}

static void fake_iommu_unmap(struct mlx5_umr_fake *fd, u64 iova,
			     unsigned int npages)
{
	unsigned long flags;
	unsigned int i;
	long n = 0;

	/* irqsave: dma_unmap_sg may be called with interrupts off */
	xa_lock_irqsave(&fd->iommu, flags);
	for (i = 0; i < npages; i++)
		if (__xa_erase(&fd->iommu, (iova >> PAGE_SHIFT) + i))
			n++;
	xa_unlock_irqrestore(&fd->iommu, flags);
	fake_iommu_count(fd, -n);
}

static int fake_iommu_map(struct mlx5_umr_fake *fd, u64 iova,
			  struct page **pages, unsigned int npages)
{
	unsigned int i;
	int err;

	for (i = 0; i < npages; i++) {
		err = xa_err(xa_store_irq(&fd->iommu, (iova >> PAGE_SHIFT) + i,
					  pages[i], GFP_KERNEL));
		if (err) {
			fake_iommu_count(fd, i);
			fake_iommu_unmap(fd, iova, i);
			return err;
		}
	}
	fake_iommu_count(fd, npages);
	return 0;
}

/**
 * fake_iommu_rw() - copy between @buf and device address @iova
 * @fd: the fake
 * @iova: device address
 * @buf: kernel buffer, or NULL to only check that the range is mapped
 * @len: bytes
 * @write: true to copy @buf to the device address
 *
 * Any context.
 * Return: 0, or -EFAULT when a page of the range is not mapped.
 */
int fake_iommu_rw(struct mlx5_umr_fake *fd, u64 iova, void *buf, size_t len,
		  bool write)
{
	while (len) {
		size_t off = iova & ~PAGE_MASK;
		size_t n = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page;
		void *kva;

		page = xa_load(&fd->iommu, iova >> PAGE_SHIFT);
		if (!page) {
			fake_count(fd, FAKE_EV_IOMMU_FAULTS);
			return -EFAULT;
		}
		if (buf) {
			kva = kmap_local_page(page);
			if (write)
				memcpy(kva + off, buf, n);
			else
				memcpy(buf, kva + off, n);
			kunmap_local(kva);
			buf += n;
		}
		iova += n;
		len -= n;
	}
	return 0;
}

int fake_alloc_dma_buf(struct mlx5_umr_hca *hca, size_t size, int node,
		       struct mlx5_umr_dma_buf *buf)
{
	struct mlx5_umr_fake *fd = to_fake(hca);
	struct page **pages;
	struct fake_dma_buf *fb;
	unsigned long flags;
	unsigned int i, npages;
	int err = -ENOMEM;

	if (!size)
		return -EINVAL;
	size = PAGE_ALIGN(size);
	npages = size >> PAGE_SHIFT;

	fb = kzalloc(sizeof(*fb), GFP_KERNEL);
	if (!fb)
		return -ENOMEM;
	/* failure sweeps fail it: an error to the caller, not a warning */
	/*
	 * @node is not honoured: the kernels export no node-aware vmalloc
	 * that takes __GFP_NOWARN, and the fake's memory has no device side.
	 */
	buf->cpu = __vmalloc(size, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (!buf->cpu)
		goto err_fb;
	buf->pages = kcalloc(npages, sizeof(*buf->pages), GFP_KERNEL);
	if (!buf->pages)
		goto err_cpu;
	pages = kcalloc(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		goto err_pages;

	fb->iova = fake_iova_alloc(fd, npages);
	for (i = 0; i < npages; i++) {
		pages[i] = vmalloc_to_page(buf->cpu + ((size_t)i << PAGE_SHIFT));
		buf->pages[i] = fb->iova + ((u64)i << PAGE_SHIFT);
	}
	err = fake_iommu_map(fd, fb->iova, pages, npages);
	kfree(pages);
	if (err)
		goto err_pages;

	buf->size = size;
	buf->npages = npages;
	buf->backend = fb;
	fb->cpu = buf->cpu;
	fb->pages = buf->pages;
	fb->npages = npages;
	spin_lock_irqsave(&fd->lock, flags);
	list_add_tail(&fb->node, &fd->dma_bufs);
	fd->cnt.dma_bufs++;
	spin_unlock_irqrestore(&fd->lock, flags);
	return 0;

err_pages:
	kfree(buf->pages);
	buf->pages = NULL;
err_cpu:
	vfree(buf->cpu);
	buf->cpu = NULL;
err_fb:
	kfree(fb);
	return err;
}

void fake_free_dma_buf(struct mlx5_umr_hca *hca, struct mlx5_umr_dma_buf *buf)
{
	struct mlx5_umr_fake *fd = to_fake(hca);
	struct fake_dma_buf *fb = buf->backend;
	unsigned long flags;

	if (!fb)
		return;
	fake_iommu_unmap(fd, fb->iova, buf->npages);
	spin_lock_irqsave(&fd->lock, flags);
	list_del(&fb->node);
	fd->cnt.dma_bufs--;
	spin_unlock_irqrestore(&fd->lock, flags);
	kfree(buf->pages);
	vfree(buf->cpu);
	kfree(fb);
	buf->backend = NULL;
	buf->pages = NULL;
	buf->cpu = NULL;
}

/* Free the buffers nobody freed (fake destruction, no user left). */
void fake_reap_dma_bufs(struct mlx5_umr_fake *fd)
{
	struct fake_dma_buf *fb, *tmp;

	list_for_each_entry_safe(fb, tmp, &fd->dma_bufs, node) {
		fake_iommu_unmap(fd, fb->iova, fb->npages);
		list_del(&fb->node);
		kfree(fb->pages);
		vfree(fb->cpu);
		kfree(fb);
	}
}

static unsigned int fake_sg_npages(u64 off, u64 len)
{
	return DIV_ROUND_UP(off + len, PAGE_SIZE);
}

static void fake_unmap_sg_n(struct mlx5_umr_fake *fd, struct sg_table *sgt,
			    unsigned int n)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sg(sgt->sgl, sg, n, i) {
		u64 dma = sg_dma_address(sg);

		fake_iommu_unmap(fd, dma & PAGE_MASK,
				 fake_sg_npages(dma & ~PAGE_MASK,
						sg_dma_len(sg)));
	}
}

int fake_dma_map_sg(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		    enum dma_data_direction dir)
{
	struct mlx5_umr_fake *fd = to_fake(hca);
	struct scatterlist *sg;
	unsigned long flags;
	unsigned int i, j;
	int err;

	if (!valid_dma_direction(dir) || !sgt->orig_nents)
		return -EINVAL;

	for_each_sg(sgt->sgl, sg, sgt->orig_nents, i) {
		unsigned int off = sg->offset & ~PAGE_MASK;
		unsigned int npages = fake_sg_npages(off, sg->length);
		struct page *first = nth_page(sg_page(sg),
					      sg->offset >> PAGE_SHIFT);
		struct page **pages;
		u64 iova;

		pages = kcalloc(npages, sizeof(*pages), GFP_KERNEL);
		if (!pages) {
			err = -ENOMEM;
			goto err_unmap;
		}
		for (j = 0; j < npages; j++)
			pages[j] = nth_page(first, j);
		iova = fake_iova_alloc(fd, npages);
		err = fake_iommu_map(fd, iova, pages, npages);
		kfree(pages);
		if (err)
			goto err_unmap;
		sg_dma_address(sg) = iova + off;
		sg_dma_len(sg) = sg->length;
	}
	sgt->nents = sgt->orig_nents;
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.sg_maps++;
	spin_unlock_irqrestore(&fd->lock, flags);
	return 0;

err_unmap:
	fake_unmap_sg_n(fd, sgt, i);
	return err;
}

void fake_dma_unmap_sg(struct mlx5_umr_hca *hca, struct sg_table *sgt,
		       enum dma_data_direction dir)
{
	struct mlx5_umr_fake *fd = to_fake(hca);
	unsigned long flags;

	fake_unmap_sg_n(fd, sgt, sgt->nents);
	spin_lock_irqsave(&fd->lock, flags);
	fd->cnt.sg_maps--;
	spin_unlock_irqrestore(&fd->lock, flags);
}
