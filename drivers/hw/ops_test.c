// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit: the hardware backend's seam operations (ops.c) against a scripted
 * stand-in for the mlx5_core functions they call.
 *
 * The stand-ins below are defined in this test module with mlx5_core's
 * prototypes, so ops.o links against them instead of mlx5_core (which UML
 * does not have). Each records what it was given and answers what the test
 * scripted, so the tests check what ops.c passes down and how it maps the
 * answers, byte for byte where bytes are involved.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/ioport.h>
#ifdef CONFIG_INDIRECT_IOMEM
#include <linux/logic_iomem.h>
#endif
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5/driver.h>

#include "hw.h"

#define HW_TEST_EQN_BASE 100

/* The script and the record; cases run one at a time. */
static struct {
	struct kunit *test;
	/* mlx5_cmd_do() */
	int do_ret;
	u8 do_status;
	u32 do_syndrome;
	int do_calls;
	const void *do_in;
	void *do_out;
	int do_inlen;
	int do_outlen;
	/* mlx5_cmd_check() */
	int check_ret;
	u8 check_status;
	u32 check_syndrome;
	int check_calls;
	int check_err;
	/* mlx5_cmd_out_err() */
	int out_err_calls;
	u16 out_err_opcode;
	u16 out_err_op_mod;
	/* completion vectors and mlx5_create_cq() */
	unsigned int nvec;
	int create_ret;
	u32 create_cqn;
	u32 create_eqn;
	struct mlx5_core_cq *create_mcq;
	/* mlx5_core_destroy_cq() */
	int destroy_ret;
	int destroy_calls;
	struct mlx5_core_cq *destroy_mcq;
	/* UAR page */
	struct mlx5_uars_page up;
	int put_calls;
} mock;

int mlx5_cmd_do(struct mlx5_core_dev *dev, void *in, int in_size, void *out,
		int out_size)
{
	mock.do_calls++;
	mock.do_in = in;
	mock.do_out = out;
	mock.do_inlen = in_size;
	mock.do_outlen = out_size;
	MLX5_SET(general_obj_out_cmd_hdr, out, status, mock.do_status);
	MLX5_SET(general_obj_out_cmd_hdr, out, syndrome, mock.do_syndrome);
	return mock.do_ret;
}

int mlx5_cmd_check(struct mlx5_core_dev *dev, int err, void *in, void *out)
{
	mock.check_calls++;
	mock.check_err = err;
	MLX5_SET(general_obj_out_cmd_hdr, out, status, mock.check_status);
	MLX5_SET(general_obj_out_cmd_hdr, out, syndrome, mock.check_syndrome);
	return mock.check_ret;
}

void mlx5_cmd_out_err(struct mlx5_core_dev *dev, u16 opcode, u16 op_mod,
		      void *out)
{
	mock.out_err_calls++;
	mock.out_err_opcode = opcode;
	mock.out_err_op_mod = op_mod;
}

/* The completion-vector functions of the target kernel (mlx5_umr_compat.h). */
#ifdef MLX5_UMR_HAVE_COMP_EQN_GET
unsigned int mlx5_comp_vectors_max(struct mlx5_core_dev *dev)
#else
unsigned int mlx5_comp_vectors_count(struct mlx5_core_dev *dev)
#endif
{
	return mock.nvec;
}

#ifdef MLX5_UMR_HAVE_COMP_EQN_GET
int mlx5_comp_eqn_get(struct mlx5_core_dev *dev, u16 vector, int *eqn)
#else
int mlx5_vector2eqn(struct mlx5_core_dev *dev, int vector, int *eqn)
#endif
{
	if (vector < 0 || vector >= mock.nvec)
		return -ENOENT;
	*eqn = HW_TEST_EQN_BASE + vector;
	return 0;
}

int mlx5_create_cq(struct mlx5_core_dev *dev, struct mlx5_core_cq *cq,
		   u32 *in, int inlen, u32 *out, int outlen)
{
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);

	/* As mlx5_create_cq() does. */
	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	mock.create_eqn = MLX5_GET(cqc, cqc, c_eqn_or_apu_element);
	mock.create_mcq = cq;
	memset(out, 0, outlen);
	if (mock.create_ret == -EREMOTEIO)
		MLX5_SET(general_obj_out_cmd_hdr, out, status,
			 MLX5_CMD_STAT_LIM_ERR);
	if (mock.create_ret)
		return mock.create_ret;
	cq->cqn = mock.create_cqn;
	return 0;
}

int mlx5_core_destroy_cq(struct mlx5_core_dev *dev, struct mlx5_core_cq *cq)
{
	mock.destroy_calls++;
	mock.destroy_mcq = cq;
	return mock.destroy_ret;
}

struct mlx5_uars_page *mlx5_get_uars_page(struct mlx5_core_dev *mdev)
{
	return &mock.up;
}

void mlx5_put_uars_page(struct mlx5_core_dev *mdev, struct mlx5_uars_page *up)
{
	KUNIT_EXPECT_PTR_EQ(mock.test, up, &mock.up);
	mock.put_calls++;
}

/* A device, an mdev and a backend device around them. */
struct hw_test_ctx {
	struct device *dev;
	struct mlx5_core_dev *mdev;
	struct pci_dev *pdev;
	struct mlx5_umr_hw_dev *hw;
	u8 *uar_mem;
	struct resource *uar_res;
	void __iomem *uar_map;
};

/*
 * MMIO as the device sees it: every write at its offset, with its size,
 * mirrored into a 4 KiB shadow of the UAR page.
 */
static struct {
	u8 *shadow;
	unsigned int nwrites;
	int sizes[4];
} hw_mmio;

#ifdef CONFIG_INDIRECT_IOMEM
/*
 * UML routes MMIO through logic_iomem: a region of our own catches the
 * doorbell writes, including their width. Regions cannot be removed, so
 * the resource is released and emptied afterwards and never freed.
 */
#define HW_TEST_UAR_PHYS 0xd0000000UL

static unsigned long hw_test_mmio_read(void *priv, unsigned int offset,
				       int size)
{
	return ~0UL;
}

static void hw_test_mmio_write(void *priv, unsigned int offset, int size,
			       unsigned long val)
{
	__le64 le = cpu_to_le64(val);

	if (hw_mmio.nwrites < ARRAY_SIZE(hw_mmio.sizes))
		hw_mmio.sizes[hw_mmio.nwrites] = size;
	hw_mmio.nwrites++;
	if (offset + size <= MLX5_ADAPTER_PAGE_SIZE)
		memcpy(hw_mmio.shadow + offset, &le, size);
}

static const struct logic_iomem_ops hw_test_mmio_ops = {
	.read = hw_test_mmio_read,
	.write = hw_test_mmio_write,
};

static long hw_test_mmio_map(unsigned long offset, size_t size,
			     const struct logic_iomem_ops **ops, void **priv)
{
	*ops = &hw_test_mmio_ops;
	return offset;
}

static const struct logic_iomem_region_ops hw_test_region_ops = {
	.map = hw_test_mmio_map,
};

static void __iomem *hw_test_map_uar(struct kunit *test,
				     struct hw_test_ctx *ctx)
{
	struct resource *res;

	res = kzalloc(sizeof(*res), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, res);
	res->name = "mlx5_umr_hw_test UAR";
	res->start = HW_TEST_UAR_PHYS;
	res->end = HW_TEST_UAR_PHYS + MLX5_ADAPTER_PAGE_SIZE - 1;
	res->flags = IORESOURCE_MEM;
	KUNIT_ASSERT_EQ(test, logic_iomem_add_region(res, &hw_test_region_ops),
			0);
	ctx->uar_res = res;
	ctx->uar_map = ioremap(HW_TEST_UAR_PHYS, MLX5_ADAPTER_PAGE_SIZE);
	KUNIT_ASSERT_TRUE(test, !!ctx->uar_map);
	return ctx->uar_map;
}

static void hw_test_unmap_uar(struct hw_test_ctx *ctx)
{
	if (ctx->uar_map)
		iounmap(ctx->uar_map);
	if (ctx->uar_res) {
		release_resource(ctx->uar_res);
		/* Empty: no later ioremap() can match it. */
		ctx->uar_res->start = 1;
		ctx->uar_res->end = 0;
	}
}
#else
/* Elsewhere MMIO accessors are plain stores: the shadow is the page. */
static void __iomem *hw_test_map_uar(struct kunit *test,
				     struct hw_test_ctx *ctx)
{
	return (__force void __iomem *)ctx->uar_mem;
}

static void hw_test_unmap_uar(struct hw_test_ctx *ctx)
{
}
#endif

static int hw_ops_init(struct kunit *test)
{
	struct hw_test_ctx *ctx;

	test->priv = NULL;
	memset(&mock, 0, sizeof(mock));
	mock.test = test;
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	/* No owner: the module is still coming up while its tests run. */
	ctx->dev = __root_device_register("mlx5_umr_hw_ops_test", NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ctx->dev));
	ctx->dev->coherent_dma_mask = DMA_BIT_MASK(64);
	ctx->dev->dma_mask = &ctx->dev->coherent_dma_mask;

	ctx->pdev = kunit_kzalloc(test, sizeof(*ctx->pdev), GFP_KERNEL);
	ctx->mdev = kunit_kzalloc(test, sizeof(*ctx->mdev), GFP_KERNEL);
	ctx->hw = kunit_kzalloc(test, sizeof(*ctx->hw), GFP_KERNEL);
	ctx->uar_mem = kunit_kzalloc(test, MLX5_ADAPTER_PAGE_SIZE, GFP_KERNEL);
	hw_mmio.shadow = ctx->uar_mem;
	hw_mmio.nwrites = 0;
	KUNIT_ASSERT_NOT_NULL(test, ctx->pdev);
	KUNIT_ASSERT_NOT_NULL(test, ctx->mdev);
	KUNIT_ASSERT_NOT_NULL(test, ctx->hw);
	KUNIT_ASSERT_NOT_NULL(test, ctx->uar_mem);

	ctx->pdev->error_state = pci_channel_io_normal;
	ctx->mdev->pdev = ctx->pdev;
	ctx->mdev->device = ctx->dev;
	ctx->mdev->state = MLX5_DEVICE_STATE_UP;
	mutex_init(&ctx->mdev->priv.alloc_mutex);
	ctx->hw->mdev = ctx->mdev;
	ctx->hw->hca.ops = &mlx5_umr_hw_ops;
	ctx->hw->hca.dev = ctx->dev;
	ctx->hw->hca.numa_node = NUMA_NO_NODE;
	mock.up.index = 0x1234;
	test->priv = ctx;
	return 0;
}

static void hw_ops_exit(struct kunit *test)
{
	struct hw_test_ctx *ctx = test->priv;

	if (!ctx)
		return;
	hw_test_unmap_uar(ctx);
	if (!IS_ERR_OR_NULL(ctx->dev))
		root_device_unregister(ctx->dev);
}

static struct mlx5_umr_hca *hw_test_hca(struct kunit *test)
{
	return &((struct hw_test_ctx *)test->priv)->hw->hca;
}

/* Mailboxes on the heap: some layouts are too big for a KASAN stack frame. */
#define HW_TEST_MBOX 512

static void *hw_test_mbox(struct kunit *test)
{
	void *p = kunit_kzalloc(test, HW_TEST_MBOX, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

static int hw_test_exec(struct mlx5_umr_hca *hca, void *in, void *out)
{
	return hca->ops->cmd_exec(hca, in, HW_TEST_MBOX, out, HW_TEST_MBOX);
}

static void hw_test_cmd_in(u32 *in, u16 opcode, u16 op_mod)
{
	MLX5_SET(query_hca_cap_in, in, opcode, opcode);
	MLX5_SET(query_hca_cap_in, in, op_mod, op_mod);
}

static void hw_ops_cmd_ok(struct kunit *test)
{
	struct mlx5_umr_hca *hca = hw_test_hca(test);
	u32 *in = hw_test_mbox(test);
	u32 *out = hw_test_mbox(test);
	u32 *copy = hw_test_mbox(test);

	hw_test_cmd_in(in, MLX5_CMD_OP_QUERY_HCA_CAP, 0x3);
	memcpy(copy, in, HW_TEST_MBOX);
	KUNIT_EXPECT_EQ(test, hw_test_exec(hca, in, out), 0);
	/* The service's mailboxes go down as they are. */
	KUNIT_EXPECT_EQ(test, mock.do_calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, mock.do_in, (const void *)in);
	KUNIT_EXPECT_PTR_EQ(test, mock.do_out, (void *)out);
	KUNIT_EXPECT_EQ(test, mock.do_inlen, HW_TEST_MBOX);
	KUNIT_EXPECT_EQ(test, mock.do_outlen, HW_TEST_MBOX);
	KUNIT_EXPECT_EQ(test, memcmp(in, copy, HW_TEST_MBOX), 0);
	KUNIT_EXPECT_EQ(test, mock.check_calls, 0);
	KUNIT_EXPECT_EQ(test, mock.out_err_calls, 0);
}

static void hw_ops_cmd_fw_error(struct kunit *test)
{
	struct mlx5_umr_hca *hca = hw_test_hca(test);
	u32 *in = hw_test_mbox(test);
	u32 *out = hw_test_mbox(test);
	const u8 *b = (const u8 *)out;

	hw_test_cmd_in(in, MLX5_CMD_OP_CREATE_QP, 0x7);
	mock.do_ret = -EREMOTEIO;
	mock.do_status = MLX5_CMD_STAT_BAD_PARAM_ERR;
	mock.do_syndrome = 0x6b39a4c1;
	KUNIT_EXPECT_EQ(test, hw_test_exec(hca, in, out), -EREMOTEIO);
	/* Status and syndrome reach the service untouched. */
	KUNIT_EXPECT_EQ(test, b[0], MLX5_CMD_STAT_BAD_PARAM_ERR);
	KUNIT_EXPECT_EQ(test, b[4], 0x6b);
	KUNIT_EXPECT_EQ(test, b[5], 0x39);
	KUNIT_EXPECT_EQ(test, b[6], 0xa4);
	KUNIT_EXPECT_EQ(test, b[7], 0xc1);
	KUNIT_EXPECT_EQ(test, mock.check_calls, 0);
	/* The service logs it from the outbox; the backend stays quiet. */
	KUNIT_EXPECT_EQ(test, mock.out_err_calls, 0);
}

static void hw_ops_cmd_device_down(struct kunit *test)
{
	struct mlx5_umr_hca *hca = hw_test_hca(test);
	u32 *in = hw_test_mbox(test);
	u32 *out = hw_test_mbox(test);
	const u8 *b = (const u8 *)out;

	/* Teardown while down: mlx5_core answers OK, so does the backend. */
	hw_test_cmd_in(in, MLX5_CMD_OP_DESTROY_QP, 0);
	mock.do_ret = -ENXIO;
	mock.check_ret = 0;
	mock.check_status = MLX5_CMD_STAT_OK;
	KUNIT_EXPECT_EQ(test, hw_test_exec(hca, in, out), 0);
	KUNIT_EXPECT_EQ(test, mock.check_calls, 1);
	KUNIT_EXPECT_EQ(test, mock.check_err, -ENXIO);

	/* Anything else: mlx5_core's -ENOLINK and its status/syndrome. */
	hw_test_cmd_in(in, MLX5_CMD_OP_CREATE_MKEY, 0);
	mock.check_ret = -ENOLINK;
	mock.check_status = 0xfe;
	mock.check_syndrome = 0xbadd00de;
	KUNIT_EXPECT_EQ(test, hw_test_exec(hca, in, out), -ENOLINK);
	KUNIT_EXPECT_EQ(test, mock.check_calls, 2);
	KUNIT_EXPECT_EQ(test, b[0], 0xfe);
	KUNIT_EXPECT_EQ(test, b[4], 0xba);
	KUNIT_EXPECT_EQ(test, b[7], 0xde);
	KUNIT_EXPECT_EQ(test, mock.out_err_calls, 0);
}

static void hw_ops_cmd_delivery_error(struct kunit *test)
{
	struct mlx5_umr_hca *hca = hw_test_hca(test);
	u32 *in = hw_test_mbox(test);
	u32 *out = hw_test_mbox(test);

	hw_test_cmd_in(in, MLX5_CMD_OP_QUERY_HCA_CAP, 0);
	mock.do_ret = -ETIMEDOUT;
	KUNIT_EXPECT_EQ(test, hw_test_exec(hca, in, out), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, mock.check_calls, 0);
	KUNIT_EXPECT_EQ(test, mock.out_err_calls, 0);
}

static int hw_test_comp_calls;
static struct mlx5_umr_hca_cq *hw_test_comp_cq;

static void hw_test_comp(struct mlx5_umr_hca_cq *cq)
{
	hw_test_comp_calls++;
	hw_test_comp_cq = cq;
}

static void hw_ops_cq_lifecycle(struct kunit *test)
{
	struct mlx5_umr_hca *hca = hw_test_hca(test);
	struct mlx5_umr_hw_dev *hw = container_of(hca, struct mlx5_umr_hw_dev,
						  hca);
	const int inlen = MLX5_ST_SZ_BYTES(create_cq_in) + 8;
	static const u32 eqns[] = { 1, 2, 0, 1 };
	struct mlx5_umr_hca_cq cqs[ARRAY_SIZE(eqns)] = {};
	struct mlx5_core_cq *mcqs[ARRAY_SIZE(eqns)];
	u8 *in, *copy;
	int i, j;

	in = kunit_kzalloc(test, inlen, GFP_KERNEL);
	copy = kunit_kzalloc(test, inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	mock.nvec = 3;
	hw_test_comp_calls = 0;

	/*
	 * Successive CQs without a vector go round the completion vectors;
	 * the last asks for vector 4, taken modulo the 3 there are.
	 */
	for (i = 0; i < ARRAY_SIZE(cqs); i++) {
		cqs[i].vector = i < ARRAY_SIZE(cqs) - 1 ? -1 : 4;
		for (j = 0; j < inlen; j++)
			in[j] = (u8)(j + i);
		/* The service's mailbox names its command. */
		MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
		memcpy(copy, in, inlen);
		cqs[i].comp = hw_test_comp;
		mock.create_cqn = 0x40 + i;
		KUNIT_ASSERT_EQ(test, hca->ops->create_cq(hca, &cqs[i], in,
							  inlen), 0);
		KUNIT_EXPECT_EQ(test, mock.create_eqn,
				HW_TEST_EQN_BASE + eqns[i]);
		KUNIT_EXPECT_EQ(test, cqs[i].cqn, 0x40 + i);
		KUNIT_EXPECT_NOT_NULL(test, cqs[i].backend);
		/* Only the EQN (bytes 0x24-0x27) differs from the service's. */
		KUNIT_EXPECT_EQ(test, memcmp(in, copy, 0x24), 0);
		KUNIT_EXPECT_EQ(test, memcmp(in + 0x28, copy + 0x28,
					     inlen - 0x28), 0);
		mcqs[i] = mock.create_mcq;
		/* mlx5_core's callbacks are set before the CQ can fire. */
		KUNIT_EXPECT_NOT_NULL(test, mcqs[i]->comp);
		KUNIT_EXPECT_NOT_NULL(test, mcqs[i]->event);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&hw->nr_cqs), 4);

	/* An EQ interrupt for CQ 2 reaches exactly the service's CQ 2. */
	mcqs[2]->comp(mcqs[2], NULL);
	KUNIT_EXPECT_EQ(test, hw_test_comp_calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, hw_test_comp_cq, &cqs[2]);
	/* A CQ error event is counted, not forwarded. */
	mcqs[0]->event(mcqs[0], MLX5_EVENT_TYPE_CQ_ERROR);
	KUNIT_EXPECT_EQ(test, hw_test_comp_calls, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hw->nr_cq_events), 1);

	for (i = 0; i < ARRAY_SIZE(cqs); i++) {
		hca->ops->destroy_cq(hca, &cqs[i]);
		KUNIT_EXPECT_PTR_EQ(test, mock.destroy_mcq, mcqs[i]);
		KUNIT_EXPECT_NULL(test, cqs[i].backend);
	}
	KUNIT_EXPECT_EQ(test, mock.destroy_calls, 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&hw->nr_cqs), 0);
}

static void hw_ops_cq_errors(struct kunit *test)
{
	struct mlx5_umr_hca *hca = hw_test_hca(test);
	struct mlx5_umr_hw_dev *hw = container_of(hca, struct mlx5_umr_hw_dev,
						  hca);
	u32 in[MLX5_ST_SZ_DW(create_cq_in)] = {};
	struct mlx5_umr_hca_cq cq = { .comp = hw_test_comp };

	/* No completion vector. */
	mock.nvec = 0;
	KUNIT_EXPECT_EQ(test, hca->ops->create_cq(hca, &cq, in, sizeof(in)),
			-ENODEV);
	mock.nvec = 1;
	/* Mailbox too short for a create_cq_in: refused before mlx5_core. */
	KUNIT_EXPECT_EQ(test, hca->ops->create_cq(hca, &cq, in,
						  sizeof(in) - 4), -EINVAL);
	KUNIT_EXPECT_NULL(test, mock.create_mcq);
	/* Firmware refuses: -EREMOTEIO, nothing kept. */
	mock.create_ret = -EREMOTEIO;
	KUNIT_EXPECT_EQ(test, hca->ops->create_cq(hca, &cq, in, sizeof(in)),
			-EREMOTEIO);
	KUNIT_EXPECT_EQ(test, mock.out_err_calls, 1);
	KUNIT_EXPECT_EQ(test, mock.out_err_opcode, MLX5_CMD_OP_CREATE_CQ);
	KUNIT_EXPECT_EQ(test, mock.out_err_op_mod, 0);
	KUNIT_EXPECT_NULL(test, cq.backend);
	/* Device down: mlx5_core's answer is passed on. */
	mock.create_ret = -ENXIO;
	mock.check_ret = -ENOLINK;
	mock.check_status = 0xfe;
	KUNIT_EXPECT_EQ(test, hca->ops->create_cq(hca, &cq, in, sizeof(in)),
			-ENOLINK);
	KUNIT_EXPECT_EQ(test, mock.check_err, -ENXIO);
	KUNIT_EXPECT_EQ(test, mock.out_err_calls, 1);
	KUNIT_EXPECT_NULL(test, cq.backend);
	KUNIT_EXPECT_EQ(test, atomic_read(&hw->nr_cqs), 0);

	/* DESTROY_CQ fails: the CQ is dropped from the service's view. */
	mock.create_ret = 0;
	KUNIT_ASSERT_EQ(test, hca->ops->create_cq(hca, &cq, in, sizeof(in)), 0);
	mock.destroy_ret = -EIO;
	hca->ops->destroy_cq(hca, &cq);
	KUNIT_EXPECT_NULL(test, cq.backend);
	KUNIT_EXPECT_EQ(test, atomic_read(&hw->nr_cqs), 0);
	/*
	 * The backend leaks its per-CQ state on purpose (firmware may still
	 * own the CQ); the mcq is its first member, free it here.
	 */
	KUNIT_EXPECT_PTR_EQ(test, mock.destroy_mcq, mock.create_mcq);
	kfree(mock.destroy_mcq);
}

static void hw_ops_uar_doorbell(struct kunit *test)
{
	struct hw_test_ctx *ctx = test->priv;
	struct mlx5_umr_hca *hca = &ctx->hw->hca;
	const __be32 sq[2] = { cpu_to_be32(0x01020304),
			       cpu_to_be32(0x05060708) };
	const __be32 arm[2] = { cpu_to_be32(0x1f000abc),
				cpu_to_be32(0x00000041) };
	static const u8 sq_bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const u8 arm_bytes[8] = { 0x1f, 0, 0x0a, 0xbc, 0, 0, 0, 0x41 };
	struct mlx5_umr_uar uar = {};
	u8 *expect;
	int i;

	expect = kunit_kzalloc(test, MLX5_ADAPTER_PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, expect);
	mock.up.map = hw_test_map_uar(test, ctx);

	KUNIT_ASSERT_EQ(test, hca->ops->alloc_uar(hca, &uar), 0);
	KUNIT_EXPECT_EQ(test, uar.index, 0x1234U);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->hw->nr_uars), 1);

	/* The two big-endian words land in order at the offset, nowhere else. */
	hca->ops->write_db(hca, &uar, MLX5_BF_OFFSET, sq);
	hca->ops->write_db(hca, &uar, MLX5_CQ_DOORBELL, arm);
	memcpy(expect + MLX5_BF_OFFSET, sq_bytes, 8);
	memcpy(expect + MLX5_CQ_DOORBELL, arm_bytes, 8);
	for (i = 0; i < MLX5_ADAPTER_PAGE_SIZE; i++)
		KUNIT_EXPECT_EQ_MSG(test, ctx->uar_mem[i], expect[i],
				    "UAR byte 0x%x", i);
#ifdef CONFIG_INDIRECT_IOMEM
	/* Each doorbell is one 64-bit write, never two 32-bit halves. */
	KUNIT_EXPECT_EQ(test, hw_mmio.nwrites, 2U);
	KUNIT_EXPECT_EQ(test, hw_mmio.sizes[0], 8);
	KUNIT_EXPECT_EQ(test, hw_mmio.sizes[1], 8);
#endif

	hca->ops->free_uar(hca, &uar);
	KUNIT_EXPECT_EQ(test, mock.put_calls, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->hw->nr_uars), 0);
}

static void hw_ops_internal_error(struct kunit *test)
{
	struct hw_test_ctx *ctx = test->priv;
	struct mlx5_umr_hca *hca = &ctx->hw->hca;

	KUNIT_EXPECT_FALSE(test, hca->ops->internal_error(hca));
	ctx->mdev->state = MLX5_DEVICE_STATE_INTERNAL_ERROR;
	KUNIT_EXPECT_TRUE(test, hca->ops->internal_error(hca));
	ctx->mdev->state = MLX5_DEVICE_STATE_UP;
	ctx->pdev->error_state = pci_channel_io_frozen;
	KUNIT_EXPECT_TRUE(test, hca->ops->internal_error(hca));
	ctx->pdev->error_state = pci_channel_io_perm_failure;
	KUNIT_EXPECT_TRUE(test, hca->ops->internal_error(hca));
	ctx->pdev->error_state = pci_channel_io_normal;
	KUNIT_EXPECT_FALSE(test, hca->ops->internal_error(hca));
}

static void hw_ops_dma_buf(struct kunit *test)
{
	struct hw_test_ctx *ctx = test->priv;
	struct mlx5_umr_hca *hca = &ctx->hw->hca;
	struct mlx5_umr_dma_buf buf = {};
	unsigned int i;

	KUNIT_EXPECT_EQ(test, hca->ops->alloc_dma_buf(hca, 0, NUMA_NO_NODE,
						      &buf), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->hw->nr_bufs), 0);

	KUNIT_ASSERT_EQ(test, hca->ops->alloc_dma_buf(hca, 3 * PAGE_SIZE - 100,
						      NUMA_NO_NODE, &buf), 0);
	KUNIT_EXPECT_EQ(test, buf.size, 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, buf.npages, 3U);
	KUNIT_ASSERT_NOT_NULL(test, buf.cpu);
	KUNIT_ASSERT_NOT_NULL(test, buf.pages);
	/* Zeroed, linear for the CPU, one contiguous range for the device. */
	KUNIT_EXPECT_NULL(test, memchr_inv(buf.cpu, 0, buf.size));
	KUNIT_EXPECT_EQ(test, buf.pages[0] & (PAGE_SIZE - 1), 0);
	for (i = 1; i < buf.npages; i++)
		KUNIT_EXPECT_EQ(test, buf.pages[i],
				buf.pages[0] + i * PAGE_SIZE);
	memset(buf.cpu, 0xa5, buf.size);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->hw->nr_bufs), 1);

	hca->ops->free_dma_buf(hca, &buf);
	KUNIT_EXPECT_NULL(test, buf.cpu);
	KUNIT_EXPECT_NULL(test, buf.pages);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->hw->nr_bufs), 0);
}

/* A buffer on a given node: the device is pointed there only for the call. */
static void hw_ops_dma_buf_node(struct kunit *test)
{
	struct hw_test_ctx *ctx = test->priv;
	struct mlx5_umr_hca *hca = &ctx->hw->hca;
	struct mlx5_umr_dma_buf buf = {};
	int before = dev_to_node(ctx->dev);

	KUNIT_ASSERT_EQ(test, hca->ops->alloc_dma_buf(hca, PAGE_SIZE,
						      first_online_node, &buf),
			0);
	KUNIT_EXPECT_EQ(test, buf.npages, 1U);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf.cpu, 0, buf.size));
	KUNIT_EXPECT_EQ(test, dev_to_node(ctx->dev), before);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&ctx->mdev->priv.alloc_mutex));
	hca->ops->free_dma_buf(hca, &buf);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->hw->nr_bufs), 0);
}

static struct kunit_case hw_ops_cases[] = {
	KUNIT_CASE(hw_ops_cmd_ok),
	KUNIT_CASE(hw_ops_cmd_fw_error),
	KUNIT_CASE(hw_ops_cmd_device_down),
	KUNIT_CASE(hw_ops_cmd_delivery_error),
	KUNIT_CASE(hw_ops_cq_lifecycle),
	KUNIT_CASE(hw_ops_cq_errors),
	KUNIT_CASE(hw_ops_uar_doorbell),
	KUNIT_CASE(hw_ops_internal_error),
	KUNIT_CASE(hw_ops_dma_buf),
	KUNIT_CASE(hw_ops_dma_buf_node),
	{}
};

static struct kunit_suite hw_ops_suite = {
	.name = "mlx5_umr_hw_ops",
	.init = hw_ops_init,
	.exit = hw_ops_exit,
	.test_cases = hw_ops_cases,
};

kunit_test_suite(hw_ops_suite);

MODULE_DESCRIPTION("KUnit tests for the mlx5 UMR hardware backend's seam operations");
MODULE_LICENSE("Dual BSD/GPL");
