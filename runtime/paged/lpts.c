/* SPDX-License-Identifier: MIT */
/*
 * lpts.c - every range's look-ahead page table of a plan on the device
 * at once.
 *
 * A range's kernel reads its LPT (docs/generated-kernels.md) from the
 * buffer bound as its vast_lpt argument. Sent range by range, each range
 * paid a write, and a compare to skip the unchanged ones, on the host's
 * way to its kernel. A kept plan's tables never change (plans.c,
 * paged.c: plan_tables), so they go to the device once, one after
 * another in one buffer made from them (CL_MEM_COPY_HOST_PTR: no command,
 * nothing to order against the queues), and range r binds the sub-buffer
 * of its table. Each table starts at a multiple of the device's
 * CL_DEVICE_MEM_BASE_ADDR_ALIGN, as a sub-buffer's origin must (OpenCL
 * 1.2 §5.2.1, clCreateSubBuffer).
 *
 * A pool keeps the tables of VRT_DEVLPTS_KEPT plans (an iterative
 * program alternates a few: a ping-pong stencil two, fdtd2d three), the
 * least recently used released first. A buffer is never written after it
 * is made, so a kernel still in flight that reads one it releases is
 * safe: the kernel holds it until it ends (OpenCL 1.2 §5.4.1). A plan
 * that is not kept (a split launch's share, a fused launch) gets tables
 * of its own, released with the launch. Lock held (or, for a share,
 * the tables are the share's alone).
 */
#include <string.h>

#include "paged/paged.h"

/* Bytes from one table to the next on dev: words rounded up to the
 * device's sub-buffer alignment. */
static size_t stride_on(cl_device_id dev, size_t words)
{
	cl_uint bits = 0;
	size_t align;
	vrt_real.clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
	align = bits >= 8 ? bits / 8 : 128;
	return (words * sizeof(uint32_t) + align - 1) / align * align;
}

/* Makes t: n tables of `words` words at `tables`, `stride` bytes apart
 * on the device. 0, or -1 (t left empty). */
static int make(vrt_devlpts *t, cl_context ctx, const uint32_t *tables, size_t n, size_t words,
                size_t stride)
{
	cl_int err;
	size_t lb = words * sizeof(uint32_t);
	unsigned char *img = vrt_calloc(n, stride);
	memset(t, 0, sizeof *t);
	if (!img || !(t->range = vrt_calloc(n, sizeof *t->range)))
		goto fail;
	for (size_t r = 0; r < n; r++)
		memcpy(img + r * stride, tables + r * words, lb);
	t->buf = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * stride,
	                                 img, &err);
	if (!t->buf)
		goto fail;
	t->n = n;
	t->bytes = n * stride;
	for (size_t r = 0; r < n; r++) {
		cl_buffer_region rg = {r * stride, lb};
		t->range[r] = vrt_real.clCreateSubBuffer(t->buf, CL_MEM_READ_ONLY,
		                                         CL_BUFFER_CREATE_TYPE_REGION, &rg, &err);
		if (!t->range[r])
			goto fail;
	}
	vrt_free(img);
	return 0;
fail:
	vrt_log(VRT_LOG_DEBUG, "%zu LPTs of %zu bytes not made on the device at once: sent range by range",
	        n, lb);
	vrt_free(img);
	vrt_devlpts_release(t);
	return -1;
}

const cl_mem *vrt_lpts_on_device(vrt_devsets *d, vrt_devlpts *own, cl_context ctx,
                                 cl_device_id dev, unsigned long long plan,
                                 const uint32_t *tables, size_t n, size_t words,
                                 unsigned long long max_bytes)
{
	vrt_devlpts *t = NULL;
	for (unsigned i = 0; plan && i < VRT_DEVLPTS_KEPT; i++) {
		vrt_devlpts *e = &d->lpts[i];
		if (e->plan == plan) {
			e->used = ++d->lpts_clock;
			return e->range;
		}
		if (!t || e->used < t->used)
			t = e;
	}
	size_t stride = stride_on(dev, words);
	if (!n || n * stride / n != stride || n * stride > max_bytes)
		return NULL;
	if (!plan)
		return make(own, ctx, tables, n, words, stride) ? NULL : own->range;
	vrt_devlpts_release(t);
	if (make(t, ctx, tables, n, words, stride))
		return NULL;
	t->plan = plan;
	t->used = ++d->lpts_clock;
	return t->range;
}
