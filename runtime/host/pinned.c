/* SPDX-License-Identifier: MIT */
/*
 * pinned.c - host copies of buffers in pinned (page-locked) memory.
 *
 * The paged path moves every page between a buffer's host copy and the
 * frames. From malloc'd memory NVIDIA's driver copies at 9.6 GB/s; from
 * pinned memory at 55 GB/s (DESIGN §3). OpenCL has no call that pins
 * memory, but a driver pins the memory under a buffer it makes: the
 * runtime's pinned memory is its own, under a CL_MEM_USE_HOST_PTR buffer
 * never used (vrt_pinned_alloc; a CL_MEM_ALLOC_HOST_PTR buffer, mapped,
 * where the driver will not), and transfers from it run at the link's
 * speed with no staging copy. When the driver cannot pin (too large, no
 * memory), the host copy falls back to plain memory; nothing else changes.
 *
 * A CL_MEM_USE_HOST_PTR buffer's host copy is the program's own pageable
 * memory (OpenCL 1.2 §5.2.1). The driver pins that memory for a
 * USE_HOST_PTR buffer of its own over the same pointer (NVIDIA: ~50 GB/s
 * against 9.6 from the same memory unpinned), so vrt_pinned_wrap makes
 * one, left unmapped until the runtime touches the bytes (mem.c maps it
 * then): transfers from and to the program's pointer run at the link's
 * speed. mem.c also lends that buffer out as
 * the device copy of native launches (vrt_pin_lend unmaps it,
 * vrt_pin_reclaim maps it back), so the driver moves the bytes exactly
 * as it would for the program built with cc: zero-copy where the device
 * shares host memory (PoCL), pinned DMA on a GPU.
 *
 * Pinned memory is not free on the device: NVIDIA's driver backs every
 * mapped ALLOC_ or USE_HOST_PTR buffer with device memory of its size
 * (measured on the H100: after pinning 16, 32, 64 GiB, 62, 46, 14 GiB of
 * its 78 could still be allocated; memory the CUDA driver registers is
 * not used by its OpenCL). So what is pinned stays within half the
 * device's memory (a larger host copy stays pageable), and the default
 * budget leaves the pinned bytes out (device.c): a 96 GiB program no
 * longer finds its frames out of memory and replans six times. Where a
 * context's buffers are larger than the device anyway (none of them can
 * all stay there), its host copies may take more, up to all but the
 * driver's margin and an eighth of the device, left for the frames: the
 * 96 GiB triad's output and one of its inputs are pinned so (64 GiB; the
 * other input goes through the ring). The staging areas and the ring,
 * a few hundred MiB that serve the frames, may take half of that eighth.
 */
#include <string.h>

#include "host/host.h"

/* A queue on the context's first device, kept for the mapping's life. */
static cl_command_queue map_queue(cl_context ctx)
{
	cl_device_id dev;
	if (clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL) != CL_SUCCESS)
		return NULL;
	cl_int err;
	return vrt_queue_create(ctx, dev, 0, &err);
}

/* Bytes pinned by live vrt_pins; atomic: shares of a split launch pin
 * their staging from their own threads (multi.c). */
static unsigned long long pinned_bytes;

unsigned long long vrt_pinned_bytes(void)
{
	return __atomic_load_n(&pinned_bytes, __ATOMIC_RELAXED);
}

/* ctx's first device's `param` (a cl_ulong), 0 when unknown. */
static cl_ulong device_ulong(cl_context ctx, cl_device_info param)
{
	cl_device_id dev;
	cl_ulong v = 0;
	if (clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL) != CL_SUCCESS ||
	    vrt_real.clGetDeviceInfo(dev, param, sizeof v, &v, NULL) != CL_SUCCESS)
		return 0;
	return v;
}

unsigned long long vrt_pin_limit(unsigned long long mem, vrt_pin_use use)
{
	switch (use) {
	case VRT_PIN_PAST_DEVICE:
		return mem - mem / 16 - mem / 8;
	case VRT_PIN_STAGING:
		return mem - mem / 16 - mem / 16;
	case VRT_PIN_HOST_COPY:
		break;
	}
	return mem / 2;
}

/* Room to pin `size` more bytes for `use` on ctx's first device (see the
 * top of this file). */
static int room_to_pin(cl_context ctx, size_t size, vrt_pin_use use)
{
	unsigned long long mem = device_ulong(ctx, CL_DEVICE_GLOBAL_MEM_SIZE);
	return vrt_pinned_bytes() + size <= vrt_pin_limit(mem, use);
}

static int may_pin(cl_context ctx, size_t size, vrt_pin_use use)
{
	if (!vrt_cfg.pinned || size < VRT_PIN_MIN)
		return 0;
	if (!room_to_pin(ctx, size, use)) {
		vrt_log(VRT_LOG_DEBUG, "no pinned host copy of %zu bytes (%llu pinned already: the device backs pinned memory); using plain memory",
		        size, vrt_pinned_bytes());
		return 0;
	}
	return 1;
}

/* A driver buffer of `size` bytes with `flags` (and host_ptr), mapped
 * whole; NULL when the driver cannot, or when pinning it would pass
 * room_to_pin. With `want` (the program's host_ptr), left unmapped as a
 * program built with cc leaves it (a map of all of it costs as much as a
 * transfer: 20 ms for 512 MiB on the H100): only its first bytes are
 * mapped, to see that the driver maps it at `want` (NULL if not). */
static unsigned char *pin_map(cl_context ctx, cl_mem_flags flags, size_t size,
                              void *host_ptr, void *want, vrt_pin_use use, vrt_pin *pin)
{
	memset(pin, 0, sizeof *pin);
	if (!may_pin(ctx, size, use))
		return NULL;
	cl_int err = CL_SUCCESS;
	pin->queue = map_queue(ctx);
	if (!pin->queue)
		return NULL;
	pin->buf = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_WRITE | flags, size, host_ptr,
	                                   &err);
	void *p = NULL;
	size_t probe = size < 4096 ? size : 4096;
	if (pin->buf)
		p = vrt_real.clEnqueueMapBuffer(pin->queue, pin->buf, CL_TRUE,
		                                want ? CL_MAP_READ : CL_MAP_READ | CL_MAP_WRITE, 0,
		                                want ? probe : size, 0, NULL, NULL, &err);
	if (!p || (want && p != want)) {
		vrt_log(VRT_LOG_DEBUG, "no pinned host copy of %zu bytes (%s); using plain memory",
		        size, p ? "mapped elsewhere" : vrt_cl_error_name(err));
		vrt_pinned_free(pin, p);
		return NULL;
	}
	if (want) {
		vrt_real.clEnqueueUnmapMemObject(pin->queue, pin->buf, p, 0, NULL, NULL);
		vrt_real.clFinish(pin->queue);
		pin->lent = 1;
	}
	pin->ptr = p;
	pin->size = size;
	__atomic_add_fetch(&pinned_bytes, size, __ATOMIC_RELAXED);
	return p;
}

/* Pinned memory is the runtime's own plain memory, touched (zeroed) by
 * several threads in huge pages, then pinned by a USE_HOST_PTR buffer
 * over it that is never mapped nor used: on the H100 1 GiB so costs
 * about 0.1 s against 0.59 s for an ALLOC_HOST_PTR buffer and its map,
 * and transfers from and to it run at the same 55 GB/s
 * (bench/results/2026-11-24-session14/h100-probe). A driver that will not
 * map such a buffer in place gets an ALLOC_HOST_PTR buffer, mapped. */
unsigned char *vrt_pinned_alloc(cl_context ctx, size_t size, vrt_pin_use use, vrt_pin *pin)
{
	memset(pin, 0, sizeof *pin);
	if (!may_pin(ctx, size, use))
		return NULL;
	/* Past the device's largest buffer (19.8 GiB on the H100) NVIDIA
	 * still makes and maps an ALLOC_HOST_PTR buffer (a 32 GiB one on the
	 * H100, bench/results/2026-11-24-session13/h100-triad): that one. */
	size_t align = size >= (2u << 20) ? 2u << 20 : 4096;
	unsigned char *mem = size <= device_ulong(ctx, CL_DEVICE_MAX_MEM_ALLOC_SIZE)
	                             ? vrt_aligned_alloc(align, size)
	                             : NULL;
	if (mem) {
		vrt_advise_huge(mem, size);
		vrt_fill(mem, "", 1, size);
		if (pin_map(ctx, CL_MEM_USE_HOST_PTR, size, mem, mem, use, pin)) {
			pin->lent = 0; /* the bytes are ours to touch: never mapped */
			pin->owned = mem;
			return mem;
		}
		vrt_free(mem);
	}
	unsigned char *p = pin_map(ctx, CL_MEM_ALLOC_HOST_PTR, size, NULL, NULL, use, pin);
	if (p)
		vrt_fill(p, "", 1, size);
	return p;
}

/* OpenCL 1.2 §5.4.2: a USE_HOST_PTR buffer maps at host_ptr + offset, so
 * the mapping is the program's memory itself; a driver that maps it
 * elsewhere (a copy) is not used. */
int vrt_pinned_wrap(cl_context ctx, void *ptr, size_t size, vrt_pin *pin)
{
	return pin_map(ctx, CL_MEM_USE_HOST_PTR, size, ptr, ptr, VRT_PIN_HOST_COPY, pin) != NULL;
}

void vrt_pinned_free(vrt_pin *pin, unsigned char *ptr)
{
	if (ptr && pin->buf && !pin->lent && !pin->owned)
		vrt_real.clEnqueueUnmapMemObject(pin->queue, pin->buf, ptr, 0, NULL, NULL);
	if (pin->queue)
		vrt_real.clFinish(pin->queue);
	if (pin->buf)
		vrt_real.clReleaseMemObject(pin->buf);
	__atomic_sub_fetch(&pinned_bytes, pin->size, __ATOMIC_RELAXED);
	if (pin->queue)
		vrt_real.clReleaseCommandQueue(pin->queue);
	vrt_free(pin->owned); /* after its buffer: the driver unpins it first */
	memset(pin, 0, sizeof *pin);
}

cl_int vrt_pin_lend(vrt_pin *pin, cl_command_queue q)
{
	if (pin->lent) /* never mapped since it was made */
		return CL_SUCCESS;
	cl_event e;
	cl_int err = vrt_real.clEnqueueUnmapMemObject(q, pin->buf, pin->ptr, 0, NULL, &e);
	if (err != CL_SUCCESS)
		return err;
	err = vrt_real.clWaitForEvents(1, &e);
	vrt_real.clReleaseEvent(e);
	pin->lent = err == CL_SUCCESS;
	return err;
}

cl_int vrt_pin_reclaim(vrt_pin *pin, cl_command_queue q, int overwrite)
{
	cl_int err;
	cl_map_flags f = overwrite ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ | CL_MAP_WRITE;
	void *p = vrt_real.clEnqueueMapBuffer(q, pin->buf, CL_TRUE, f, 0, pin->size, 0, NULL,
	                                      NULL, &err);
	if (!p)
		return err;
	if (p != pin->ptr) { /* mapped at first here: a driver that breaks §5.4.2 */
		vrt_real.clEnqueueUnmapMemObject(q, pin->buf, p, 0, NULL, NULL);
		vrt_real.clFinish(q);
		vrt_log(VRT_LOG_WARN, "the driver mapped a CL_MEM_USE_HOST_PTR buffer away from its host pointer");
		return CL_INVALID_OPERATION;
	}
	pin->lent = 0;
	return CL_SUCCESS;
}

/* Staging areas, one per frame set in flight (and per device a launch is
 * split over, multi.c: their shares run at once), kept from launch to launch:
 * pinning hundreds of MiB costs more than the copies it serves, so it is
 * never done per launch. Each belongs to one context at a time and only
 * grows. */
typedef struct stage_area {
	cl_context ctx;
	size_t size;
	vrt_pin pin;
	unsigned char *ptr;
	int plain; /* ptr is vrt_malloc'd: pinning failed */
} stage_area;
static stage_area stages[VRT_MAX_SETS * VRT_MAX_DEVICES];

static void stage_drop(stage_area *st)
{
	if (st->plain)
		vrt_free(st->ptr);
	else if (st->ptr)
		vrt_pinned_free(&st->pin, st->ptr);
	if (st->ctx)
		clReleaseContext(st->ctx);
	memset(st, 0, sizeof *st);
}

unsigned char *vrt_staging(cl_context ctx, unsigned set, size_t size)
{
	stage_area *st = &stages[set];
	if (st->ptr && st->ctx == ctx && st->size >= size)
		return st->ptr;
	stage_drop(st);
	/* Grow by half again so a slowly growing need does not re-pin. */
	size_t want = size + size / 2;
	st->ptr = want >= VRT_PIN_MIN ? vrt_pinned_alloc(ctx, want, VRT_PIN_STAGING, &st->pin) : NULL;
	if (!st->ptr) {
		st->ptr = vrt_malloc(want);
		st->plain = 1;
	}
	if (!st->ptr) {
		memset(st, 0, sizeof *st);
		return NULL;
	}
	st->size = want;
	st->ctx = ctx;
	clRetainContext(ctx);
	return st->ptr;
}
