/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mlx5-umr: tracepoints of the submission path.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mlx5_umr

#if !defined(MLX5_UMR_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define MLX5_UMR_TRACE_H

#include <linux/tracepoint.h>
#include <linux/mlx5_umr_compat.h>

/* A WQE written to the send queue (before its doorbell). */
TRACE_EVENT(mlx5_umr_post,
	    TP_PROTO(const char *dev, u32 qpn, u16 idx, u32 key, int op,
		     unsigned int nbb, bool signaled),
	    TP_ARGS(dev, qpn, idx, key, op, nbb, signaled),
	    TP_STRUCT__entry(__string(dev, dev)
			     __field(u32, qpn)
			     __field(u16, idx)
			     __field(u32, key)
			     __field(int, op)
			     __field(unsigned int, nbb)
			     __field(bool, signaled)),
	    TP_fast_assign(mlx5_umr_assign_str(dev, dev);
			   __entry->qpn = qpn;
			   __entry->idx = idx;
			   __entry->key = key;
			   __entry->op = op;
			   __entry->nbb = nbb;
			   __entry->signaled = signaled;),
	    TP_printk("%s qpn 0x%x idx %u key 0x%x op %d bbs %u%s",
		      __get_str(dev), __entry->qpn, __entry->idx,
		      __entry->key, __entry->op, __entry->nbb,
		      __entry->signaled ? " signaled" : "")
);

/* A request completed (just before its done() callback). */
TRACE_EVENT(mlx5_umr_complete,
	    TP_PROTO(const char *dev, u32 key, int status),
	    TP_ARGS(dev, key, status),
	    TP_STRUCT__entry(__string(dev, dev)
			     __field(u32, key)
			     __field(int, status)),
	    TP_fast_assign(mlx5_umr_assign_str(dev, dev);
			   __entry->key = key;
			   __entry->status = status;),
	    TP_printk("%s key 0x%x status %d", __get_str(dev),
		      __entry->key, __entry->status)
);

/* An error CQE (flush errors included). */
TRACE_EVENT(mlx5_umr_error,
	    TP_PROTO(const char *dev, u32 qpn, u16 wqe_counter, u8 syndrome,
		     u8 vendor_syndrome),
	    TP_ARGS(dev, qpn, wqe_counter, syndrome, vendor_syndrome),
	    TP_STRUCT__entry(__string(dev, dev)
			     __field(u32, qpn)
			     __field(u16, wqe_counter)
			     __field(u8, syndrome)
			     __field(u8, vendor_syndrome)),
	    TP_fast_assign(mlx5_umr_assign_str(dev, dev);
			   __entry->qpn = qpn;
			   __entry->wqe_counter = wqe_counter;
			   __entry->syndrome = syndrome;
			   __entry->vendor_syndrome = vendor_syndrome;),
	    TP_printk("%s qpn 0x%x wqe %u syndrome 0x%x vendor 0x%x",
		      __get_str(dev), __entry->qpn, __entry->wqe_counter,
		      __entry->syndrome, __entry->vendor_syndrome)
);

#endif /* MLX5_UMR_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
