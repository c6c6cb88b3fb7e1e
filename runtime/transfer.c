/* SPDX-License-Identifier: MIT */
/*
 * transfer.c - buffer reads, writes, copies, fills and maps.
 *
 * All of them work on the host copy: make it current (vrt_mem_to_host),
 * touch it, and mark the device copy stale when the host side changed;
 * reads and writes choose the copy in mem.c (vrt_mem_read/write).
 * They complete before returning, blocking or not, after waiting for
 * their wait list (event.c). Handles that are not ours (images, buffers
 * of other libraries) go to the real entry point untouched.
 */
#include <string.h>

#include "vrt.h"

/* Validates the queue, [off, off+n) against m and the wait list. */
static cl_int validate(cl_command_queue q, vrt_mem *m, size_t off, size_t n,
                       cl_uint nw, const cl_event *w)
{
	cl_int err = vrt_wait_list(q, m->ctx, nw, w);
	if (err != CL_SUCCESS)
		return err;
	if (off > m->size || n > m->size - off)
		return CL_INVALID_VALUE;
	return vrt_mem_check(m);
}

/* validate(), then makes the host copy current. */
static cl_int prepare(cl_command_queue q, vrt_mem *m, size_t off, size_t n,
                      cl_uint nw, const cl_event *w)
{
	cl_int err = validate(q, m, off, n, nw, w);
	return err != CL_SUCCESS ? err : vrt_mem_to_host(m);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem mem,
	cl_bool blocking, size_t off, size_t n, void *ptr, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clEnqueueReadBuffer(q, mem, blocking, off, n, ptr, nw, w, ev);
	if (!ptr)
		return CL_INVALID_VALUE;
	vrt_lock();
	cl_int err = validate(q, m, off, n, nw, w);
	if (err == CL_SUCCESS)
		err = vrt_mem_read(m, off, n, ptr);
	if (err == CL_SUCCESS)
		err = vrt_complete(q, ev);
	vrt_unlock();
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem mem,
	cl_bool blocking, size_t off, size_t n, const void *ptr, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clEnqueueWriteBuffer(q, mem, blocking, off, n, ptr, nw, w, ev);
	if (!ptr)
		return CL_INVALID_VALUE;
	vrt_lock();
	cl_int err;
	if (off == 0 && n == m->size && !m->parent && !m->nsubs) {
		/* The whole buffer: it may have held a failed launch's results,
		 * which this write replaces. */
		err = vrt_wait_list(q, m->ctx, nw, w);
	} else {
		err = validate(q, m, off, n, nw, w);
	}
	if (err == CL_SUCCESS)
		err = vrt_mem_write(m, off, n, ptr);
	if (err == CL_SUCCESS)
		err = vrt_complete(q, ev);
	vrt_unlock();
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src,
	cl_mem dst, size_t so, size_t dso, size_t n, cl_uint nw, const cl_event *w,
	cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *a = vrt_mem_of(src), *b = vrt_mem_of(dst);
	if (!a && !b && !vrt_object_ours(src) && !vrt_object_ours(dst))
		return vrt_real.clEnqueueCopyBuffer(q, src, dst, so, dso, n, nw, w, ev);
	if (!a || !b)
		return CL_INVALID_MEM_OBJECT; /* one foreign or released */
	vrt_lock();
	cl_int err = prepare(q, a, so, n, nw, w);
	if (err == CL_SUCCESS)
		err = prepare(q, b, dso, n, 0, NULL);
	/* OpenCL 1.2 §5.2.3: overlapping regions of one buffer are an error. */
	if (err == CL_SUCCESS && a == b && so < dso + n && dso < so + n)
		err = CL_MEM_COPY_OVERLAP;
	if (err == CL_SUCCESS) {
		vrt_copy(b->host + dso, a->host + so, n);
		vrt_mem_host_written(b);
		err = vrt_complete(q, ev);
	}
	vrt_unlock();
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem mem,
	const void *pat, size_t ps, size_t off, size_t n, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clEnqueueFillBuffer(q, mem, pat, ps, off, n, nw, w, ev);
	/* OpenCL 1.2 §5.2.2: pattern size a power of two up to 128, offset
	 * and size its multiples. */
	if (!pat || ps == 0 || ps > 128 || (ps & (ps - 1)) || off % ps || n % ps)
		return CL_INVALID_VALUE;
	vrt_lock();
	cl_int err = prepare(q, m, off, n, nw, w);
	if (err == CL_SUCCESS) {
		vrt_fill(m->host + off, pat, ps, n);
		vrt_mem_host_written(m);
		err = vrt_complete(q, ev);
	}
	vrt_unlock();
	return err;
}

/* The rectangle copies of OpenCL 1.2 §5.2.2, on host memory (the copy
 * itself is vrt_copy_rect): region[0] bytes per row, region[1] rows per
 * slice, region[2] slices. A zero pitch means tightly packed. */
static void rect_pitches(const size_t *r, size_t *rp, size_t *sp)
{
	if (*rp == 0)
		*rp = r[0];
	if (*sp == 0)
		*sp = r[1] * *rp;
}


static int bad_region(const size_t *r)
{
	return !r || r[0] == 0 || r[1] == 0 || r[2] == 0;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem mem,
	cl_bool blocking, const size_t *bo, const size_t *ho, const size_t *r,
	size_t brp, size_t bsp, size_t hrp, size_t hsp, void *ptr, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clEnqueueReadBufferRect(q, mem, blocking, bo, ho, r, brp,
		                                        bsp, hrp, hsp, ptr, nw, w, ev);
	if (!ptr || !bo || !ho || bad_region(r))
		return CL_INVALID_VALUE;
	rect_pitches(r, &brp, &bsp);
	rect_pitches(r, &hrp, &hsp);
	if (vrt_rect_end(bo, r, brp, bsp) > m->size)
		return CL_INVALID_VALUE;
	vrt_lock();
	cl_int err = prepare(q, m, 0, m->size, nw, w);
	if (err == CL_SUCCESS) {
		vrt_copy_rect(ptr, ho, hrp, hsp, m->host, bo, brp, bsp, r);
		err = vrt_complete(q, ev);
	}
	vrt_unlock();
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem mem,
	cl_bool blocking, const size_t *bo, const size_t *ho, const size_t *r,
	size_t brp, size_t bsp, size_t hrp, size_t hsp, const void *ptr, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clEnqueueWriteBufferRect(q, mem, blocking, bo, ho, r, brp,
		                                         bsp, hrp, hsp, ptr, nw, w, ev);
	if (!ptr || !bo || !ho || bad_region(r))
		return CL_INVALID_VALUE;
	rect_pitches(r, &brp, &bsp);
	rect_pitches(r, &hrp, &hsp);
	if (vrt_rect_end(bo, r, brp, bsp) > m->size)
		return CL_INVALID_VALUE;
	vrt_lock();
	cl_int err = prepare(q, m, 0, m->size, nw, w);
	if (err == CL_SUCCESS) {
		vrt_copy_rect(m->host, bo, brp, bsp, ptr, ho, hrp, hsp, r);
		vrt_mem_host_written(m);
		err = vrt_complete(q, ev);
	}
	vrt_unlock();
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src,
	cl_mem dst, const size_t *so, const size_t *dso, const size_t *r, size_t srp,
	size_t ssp, size_t drp, size_t dsp, cl_uint nw, const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *a = vrt_mem_of(src), *b = vrt_mem_of(dst);
	if (!a && !b && !vrt_object_ours(src) && !vrt_object_ours(dst))
		return vrt_real.clEnqueueCopyBufferRect(q, src, dst, so, dso, r, srp, ssp,
		                                        drp, dsp, nw, w, ev);
	if (!a || !b)
		return CL_INVALID_MEM_OBJECT;
	if (!so || !dso || bad_region(r))
		return CL_INVALID_VALUE;
	rect_pitches(r, &srp, &ssp);
	rect_pitches(r, &drp, &dsp);
	if (vrt_rect_end(so, r, srp, ssp) > a->size || vrt_rect_end(dso, r, drp, dsp) > b->size)
		return CL_INVALID_VALUE;
	vrt_lock();
	cl_int err = prepare(q, a, 0, a->size, nw, w);
	if (err == CL_SUCCESS)
		err = prepare(q, b, 0, b->size, 0, NULL);
	if (err == CL_SUCCESS) {
		vrt_copy_rect(b->host, dso, drp, dsp, a->host, so, srp, ssp, r);
		vrt_mem_host_written(b);
		err = vrt_complete(q, ev);
	}
	vrt_unlock();
	return err;
}

/* OpenCL 1.2 §5.4.2: the mapped region is the host copy itself (for
 * CL_MEM_USE_HOST_PTR, inside the program's pointer, as required). A map
 * for writing makes the host copy the current one at once: a kernel must
 * not run on a buffer while it is mapped for writing, and unmapping then
 * has nothing left to do. */
CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem mem,
	cl_bool blocking, cl_map_flags flags, size_t off, size_t n, cl_uint nw,
	const cl_event *w, cl_event *ev, cl_int *errcode_ret)
{
	if (vrt_init() != CL_SUCCESS) {
		if (errcode_ret)
			*errcode_ret = CL_OUT_OF_RESOURCES;
		return NULL;
	}
	vrt_mem *m = vrt_mem_of(mem);
	if (!m && vrt_object_ours(mem)) {
		SET_ERR(CL_INVALID_MEM_OBJECT);
		return NULL;
	}
	if (!m)
		return vrt_real.clEnqueueMapBuffer(q, mem, blocking, flags, off, n, nw, w,
		                                   ev, errcode_ret);
	vrt_lock();
	void *p = NULL;
	cl_int err = n == 0 ? CL_INVALID_VALUE : prepare(q, m, off, n, nw, w);
	if (err == CL_SUCCESS) {
		if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
			vrt_mem_host_written(m);
		p = m->host + off;
		err = vrt_complete(q, ev);
		if (err != CL_SUCCESS)
			p = NULL;
	}
	vrt_unlock();
	if (errcode_ret)
		*errcode_ret = err;
	return p;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem mem,
	void *ptr, cl_uint nw, const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clEnqueueUnmapMemObject(q, mem, ptr, nw, w, ev);
	if ((unsigned char *)ptr < m->host || (unsigned char *)ptr >= m->host + m->size)
		return CL_INVALID_VALUE;
	vrt_lock();
	cl_int err = vrt_wait_list(q, m->ctx, nw, w);
	if (err == CL_SUCCESS)
		err = vrt_complete(q, ev);
	vrt_unlock();
	return err;
}

/* Migration is a hint (OpenCL 1.2 §5.4.4); the runtime moves data when a
 * launch needs it, so only the foreign objects are forwarded. */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q,
	cl_uint nm, const cl_mem *mems, cl_mem_migration_flags flags, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	int ours = 0;
	for (cl_uint i = 0; mems && i < nm; i++) {
		if (!vrt_object_ours(mems[i]))
			continue;
		if (!vrt_mem_of(mems[i]))
			return CL_INVALID_MEM_OBJECT; /* released */
		ours = 1;
	}
	if (!ours)
		return vrt_real.clEnqueueMigrateMemObjects(q, nm, mems, flags, nw, w, ev);
	if (!mems || nm == 0)
		return CL_INVALID_VALUE;
	vrt_lock();
	cl_int err = vrt_wait_list(q, NULL, nw, w);
	if (err == CL_SUCCESS)
		err = vrt_complete(q, ev);
	vrt_unlock();
	return err;
}
