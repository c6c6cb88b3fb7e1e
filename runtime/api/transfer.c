/* SPDX-License-Identifier: MIT */
/*
 * transfer.c - buffer reads, writes, copies, fills and maps.
 *
 * Maps and rectangles work on the host copy: make it current
 * (vrt_mem_to_host), touch it, and mark the device copy stale when the
 * host side changed; reads, writes, copies and fills choose the copy in
 * mem.c (vrt_mem_read/write/copy/fill), the device's where there is no
 * host copy.
 * Each entry point checks its arguments and captures the command (an
 * xfer: the buffers held, the program's pointer, offsets, pattern) for
 * queue.c, which runs it in queue order: at once when blocking, later
 * when not (the program's memory is used then: OpenCL 1.2 §5.2.2 forbids
 * touching it until the event completes). Handles that are not ours
 * (images, buffers of other libraries) go to the real entry point
 * untouched.
 */
#include <string.h>

#include "api/api.h"

/* A captured transfer. Linear ones use a (and b for a copy's
 * destination) at offsets ao, bo over n bytes; rectangles use the
 * origins and pitches. */
typedef struct xfer {
	vrt_cmd cmd;
	vrt_mem *a, *b;         /* held */
	unsigned char *ptr;     /* the program's memory */
	size_t ao, bo, n;
	size_t ps;              /* a fill's pattern */
	unsigned char pat[128];
	cl_map_flags flags;
	size_t aorg[3], borg[3], region[3]; /* rectangles: a's and b's or the host's */
	size_t arp, asp, brp, bsp;
	const char *what;       /* the entry point, for fail_dst */
} xfer;

/* A non-blocking command that changes its destination (b, else a)
 * failed: the program believes it changed (vrt_cmd.fail). */
static void fail_dst(vrt_cmd *c, cl_int err)
{
	xfer *x = (xfer *)c;
	vrt_log(VRT_LOG_WARN, "%s failed (%s) after it returned; its buffer is refused until rewritten",
	        x->what, vrt_cl_error_name(err));
	vrt_mem_fail(x->b ? x->b : x->a, x->what);
}

/* x changes its destination; what: the entry point. */
static void writes(xfer *x, const char *what)
{
	if (!x)
		return;
	x->what = what;
	x->cmd.fail = fail_dst;
}

static void drop_xfer(vrt_cmd *c)
{
	xfer *x = (xfer *)c;
	if (c->reads_into)
		vrt_deliver_forget(c); /* a read that did not run keeps nothing */
	vrt_mem_unhold(x->a);
	if (x->b)
		vrt_mem_unhold(x->b);
}

/* A command on a (and b) that runs `run`; NULL when out of memory. */
static xfer *new_xfer(vrt_mem *a, vrt_mem *b, cl_int (*run)(vrt_cmd *, cl_command_queue))
{
	xfer *x = vrt_calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->cmd.run = run;
	x->cmd.drop = drop_xfer;
	x->a = a;
	x->b = b;
	vrt_lock();
	vrt_mem_hold(a);
	if (b)
		vrt_mem_hold(b);
	vrt_unlock();
	return x;
}

/* Submits x, or CL_OUT_OF_HOST_MEMORY when new_xfer failed. */
static cl_int submit(xfer *x, cl_command_queue q, cl_command_type type, cl_bool blocking,
                     cl_uint nw, const cl_event *w, cl_event *ev)
{
	if (!x)
		return CL_OUT_OF_HOST_MEMORY;
	return vrt_submit(&x->cmd, q, type, blocking, nw, w, ev);
}

/* [off, off+n) inside m. */
static cl_int check_range(const vrt_mem *m, size_t off, size_t n)
{
	return off > m->size || n > m->size - off ? CL_INVALID_VALUE : CL_SUCCESS;
}

/* Makes the host copy current, once the command runs. */
static cl_int prepare(vrt_mem *m)
{
	cl_int err = vrt_mem_check(m);
	if (err != CL_SUCCESS)
		return err;
	return vrt_mem_to_host(m);
}

static cl_int run_read(vrt_cmd *c, cl_command_queue q)
{
	(void)q;
	xfer *x = (xfer *)c;
	cl_int err = vrt_mem_check(x->a);
	/* The launch before it may have filled most of it (deliver.c). */
	if (err != CL_SUCCESS || vrt_deliver_read(c, x->a, &err))
		return err;
	/* A split launch's outputs: from each device at once. */
	if (!vrt_mem_host_valid(x->a) && vrt_mem_read_spread(x->a, x->ao, x->n, x->ptr, &err))
		return err;
	return vrt_mem_read(x->a, x->ao, x->n, x->ptr);
}

static int reads_into(const vrt_cmd *c, vrt_mem **m, size_t *off, size_t *n, void **dst)
{
	const xfer *x = (const xfer *)c;
	*m = x->a;
	*off = x->ao;
	*n = x->n;
	*dst = x->ptr;
	return 1;
}

static cl_int run_write(vrt_cmd *c, cl_command_queue q)
{
	xfer *x = (xfer *)c;
	vrt_mem *m = x->a;
	/* The whole buffer may have held a failed launch's results, which
	 * this write replaces. */
	if (!(x->ao == 0 && x->n == m->size && !m->parent && !m->nsubs)) {
		cl_int err = vrt_mem_check(m);
		if (err != CL_SUCCESS)
			return err;
	}
	/* A whole write of m (or of a buffer sharing its bytes) queued before
	 * this one and left for the launch after both: its bytes first. */
	vrt_pend_settle(m);
	/* Several devices: each window of it straight to its device. */
	if (x->ao == 0 && x->n == m->size && vrt_place_whole_write(m, q, x->ptr)) {
		vrt_mem_changed(m);
		return CL_SUCCESS;
	}
	/* Its bytes may stay in the program's memory until the launch queued
	 * after it (and after the whole writes between) takes them
	 * (pending.c): only when the program cannot see it complete before
	 * that launch does. */
	const vrt_cmd *next = !c->blocking && !c->ev ? c->after : NULL;
	if (next && !(next->takes_pending && next->takes_pending(next, m)))
		next = NULL;
	return vrt_mem_write(m, q, x->ao, x->n, x->ptr, next);
}

static cl_int run_copy(vrt_cmd *c, cl_command_queue q)
{
	xfer *x = (xfer *)c;
	cl_int err = vrt_mem_check(x->a);
	if (err == CL_SUCCESS)
		err = vrt_mem_check(x->b);
	return err != CL_SUCCESS ? err : vrt_mem_copy(x->a, x->b, q, x->ao, x->bo, x->n);
}

static cl_int run_fill(vrt_cmd *c, cl_command_queue q)
{
	xfer *x = (xfer *)c;
	cl_int err = vrt_mem_check(x->a);
	return err != CL_SUCCESS ? err : vrt_mem_fill(x->a, q, x->ao, x->n, x->pat, x->ps);
}

cl_int vrt_api_clEnqueueReadBuffer(cl_command_queue q, cl_mem mem,
	cl_bool blocking, size_t off, size_t n, void *ptr, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_forwarded(q, vrt_real.clEnqueueReadBuffer(q, mem, blocking, off, n, ptr, nw, w, ev));
	if (!ptr)
		return CL_INVALID_VALUE;
	cl_int err = vrt_check_queue(q, m->ctx, nw, w);
	if (err == CL_SUCCESS)
		err = check_range(m, off, n);
	if (err != CL_SUCCESS)
		return err;
	xfer *x = new_xfer(m, NULL, run_read);
	if (x) {
		x->ptr = ptr;
		x->ao = off;
		x->n = n;
		x->cmd.reads_into = reads_into;
	}
	return submit(x, q, CL_COMMAND_READ_BUFFER, blocking, nw, w, ev);
}

cl_int vrt_api_clEnqueueWriteBuffer(cl_command_queue q, cl_mem mem,
	cl_bool blocking, size_t off, size_t n, const void *ptr, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_forwarded(q, vrt_real.clEnqueueWriteBuffer(q, mem, blocking, off, n, ptr,
		                                                        nw, w, ev));
	if (!ptr)
		return CL_INVALID_VALUE;
	cl_int err = vrt_check_queue(q, m->ctx, nw, w);
	if (err == CL_SUCCESS)
		err = check_range(m, off, n);
	if (err != CL_SUCCESS)
		return err;
	xfer *x = new_xfer(m, NULL, run_write);
	writes(x, "clEnqueueWriteBuffer");
	if (x) {
		x->ptr = (unsigned char *)(uintptr_t)ptr; /* only read */
		x->ao = off;
		x->n = n;
		x->cmd.waits_for_next = !blocking && !ev && off == 0 && n == m->size;
	}
	return submit(x, q, CL_COMMAND_WRITE_BUFFER, blocking, nw, w, ev);
}

cl_int vrt_api_clEnqueueCopyBuffer(cl_command_queue q, cl_mem src,
	cl_mem dst, size_t so, size_t dso, size_t n, cl_uint nw, const cl_event *w,
	cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *a = vrt_mem_of(src), *b = vrt_mem_of(dst);
	if (!a && !b && !vrt_object_ours(src) && !vrt_object_ours(dst))
		return vrt_forwarded(q, vrt_real.clEnqueueCopyBuffer(q, src, dst, so, dso, n, nw, w, ev));
	if (!a || !b)
		return CL_INVALID_MEM_OBJECT; /* one foreign or released */
	cl_int err = vrt_check_queue(q, a->ctx, nw, w);
	if (err == CL_SUCCESS && b->ctx != a->ctx)
		err = CL_INVALID_CONTEXT;
	if (err == CL_SUCCESS)
		err = check_range(a, so, n);
	if (err == CL_SUCCESS)
		err = check_range(b, dso, n);
	/* OpenCL 1.2 §5.2.3: overlapping regions of one buffer are an error. */
	if (err == CL_SUCCESS && a == b && so < dso + n && dso < so + n)
		err = CL_MEM_COPY_OVERLAP;
	if (err != CL_SUCCESS)
		return err;
	xfer *x = new_xfer(a, b, run_copy);
	writes(x, "clEnqueueCopyBuffer");
	if (x) {
		x->ao = so;
		x->bo = dso;
		x->n = n;
	}
	return submit(x, q, CL_COMMAND_COPY_BUFFER, CL_FALSE, nw, w, ev);
}

cl_int vrt_api_clEnqueueFillBuffer(cl_command_queue q, cl_mem mem,
	const void *pat, size_t ps, size_t off, size_t n, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_forwarded(q, vrt_real.clEnqueueFillBuffer(q, mem, pat, ps, off, n, nw, w, ev));
	/* OpenCL 1.2 §5.2.2: pattern size a power of two up to 128, offset
	 * and size its multiples. */
	if (!pat || ps == 0 || ps > 128 || (ps & (ps - 1)) || off % ps || n % ps)
		return CL_INVALID_VALUE;
	cl_int err = vrt_check_queue(q, m->ctx, nw, w);
	if (err == CL_SUCCESS)
		err = check_range(m, off, n);
	if (err != CL_SUCCESS)
		return err;
	xfer *x = new_xfer(m, NULL, run_fill);
	writes(x, "clEnqueueFillBuffer");
	if (x) {
		memcpy(x->pat, pat, ps); /* the pattern may be reused at once */
		x->ps = ps;
		x->ao = off;
		x->n = n;
	}
	return submit(x, q, CL_COMMAND_FILL_BUFFER, CL_FALSE, nw, w, ev);
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
/* §5.2.2: a row pitch, when given, of at least region[0]; a slice pitch,
 * when given, of at least region[1] rows and a multiple of the row pitch
 * (region[0] when not given). */
static int bad_pitches(const size_t *r, size_t rp, size_t sp)
{
	if (rp && rp < r[0])
		return 1;
	size_t row = rp ? rp : r[0], rows;
	return sp && (__builtin_mul_overflow(r[1], row, &rows) || sp < rows || sp % row);
}
/* The rectangle at origin o, pitches rp and sp (given), lies within
 * size bytes; its end computed without wrapping (an origin near
 * SIZE_MAX would otherwise pass and copy from before the buffer). */
static int rect_within(const size_t *o, const size_t *r, size_t rp, size_t sp, size_t size)
{
	size_t z, y, end;
	return !__builtin_mul_overflow(o[2] + (r[2] - 1), sp, &z) && o[2] + (r[2] - 1) >= o[2] &&
	       !__builtin_mul_overflow(o[1] + (r[1] - 1), rp, &y) && o[1] + (r[1] - 1) >= o[1] &&
	       !__builtin_add_overflow(z, y, &end) && !__builtin_add_overflow(end, o[0], &end) &&
	       !__builtin_add_overflow(end, r[0], &end) && end <= size;
}

static cl_int run_read_rect(vrt_cmd *c, cl_command_queue q)
{
	(void)q;
	xfer *x = (xfer *)c;
	cl_int err = prepare(x->a);
	if (err == CL_SUCCESS)
		vrt_copy_rect(x->ptr, x->borg, x->brp, x->bsp, x->a->host, x->aorg, x->arp, x->asp,
		          x->region);
	return err;
}

static cl_int run_write_rect(vrt_cmd *c, cl_command_queue q)
{
	(void)q;
	xfer *x = (xfer *)c;
	cl_int err = prepare(x->a);
	if (err == CL_SUCCESS) {
		vrt_copy_rect(x->a->host, x->aorg, x->arp, x->asp, x->ptr, x->borg, x->brp, x->bsp,
		          x->region);
		vrt_mem_host_written(x->a);
	}
	return err;
}

static cl_int run_copy_rect(vrt_cmd *c, cl_command_queue q)
{
	(void)q;
	xfer *x = (xfer *)c;
	cl_int err = prepare(x->a);
	if (err == CL_SUCCESS)
		err = prepare(x->b);
	if (err == CL_SUCCESS) {
		vrt_copy_rect(x->b->host, x->borg, x->brp, x->bsp, x->a->host, x->aorg, x->arp, x->asp,
		          x->region);
		vrt_mem_host_written(x->b);
	}
	return err;
}

/* A rectangle command between a (origin ao, pitches arp/asp) and b or
 * the program's ptr (bo, brp/bsp). */
static xfer *new_rect(vrt_mem *a, vrt_mem *b, cl_int (*run)(vrt_cmd *, cl_command_queue),
                      const size_t *ao, size_t arp, size_t asp, const size_t *bo, size_t brp,
                      size_t bsp, const size_t *r)
{
	xfer *x = new_xfer(a, b, run);
	if (!x)
		return NULL;
	memcpy(x->aorg, ao, sizeof x->aorg);
	memcpy(x->borg, bo, sizeof x->borg);
	memcpy(x->region, r, sizeof x->region);
	x->arp = arp;
	x->asp = asp;
	x->brp = brp;
	x->bsp = bsp;
	return x;
}

/* A rectangle between m (origin bo, pitches brp/bsp) and the program's
 * ptr (ho, hrp/hsp) that runs `run`, its arguments checked first; NULL
 * with *err set when they are wrong, or with CL_SUCCESS when out of
 * memory (submit says so). */
static xfer *host_rect(cl_command_queue q, vrt_mem *m, cl_int (*run)(vrt_cmd *, cl_command_queue),
                       const size_t *bo, const size_t *ho, const size_t *r, size_t brp,
                       size_t bsp, size_t hrp, size_t hsp, unsigned char *ptr, cl_uint nw,
                       const cl_event *w, cl_int *err)
{
	*err = CL_INVALID_VALUE;
	if (!ptr || !bo || !ho || bad_region(r) || bad_pitches(r, brp, bsp) ||
	    bad_pitches(r, hrp, hsp))
		return NULL;
	rect_pitches(r, &brp, &bsp);
	rect_pitches(r, &hrp, &hsp);
	if (!rect_within(bo, r, brp, bsp, m->size))
		return NULL;
	if ((*err = vrt_check_queue(q, m->ctx, nw, w)) != CL_SUCCESS)
		return NULL;
	xfer *x = new_rect(m, NULL, run, bo, brp, bsp, ho, hrp, hsp, r);
	if (x)
		x->ptr = ptr;
	return x;
}

cl_int vrt_api_clEnqueueReadBufferRect(cl_command_queue q, cl_mem mem,
	cl_bool blocking, const size_t *bo, const size_t *ho, const size_t *r,
	size_t brp, size_t bsp, size_t hrp, size_t hsp, void *ptr, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_forwarded(q, vrt_real.clEnqueueReadBufferRect(q, mem, blocking, bo, ho,
		                                                           r, brp, bsp, hrp, hsp,
		                                                           ptr, nw, w, ev));
	cl_int err;
	xfer *x = host_rect(q, m, run_read_rect, bo, ho, r, brp, bsp, hrp, hsp, ptr, nw, w, &err);
	if (err != CL_SUCCESS)
		return err;
	return submit(x, q, CL_COMMAND_READ_BUFFER_RECT, blocking, nw, w, ev);
}

cl_int vrt_api_clEnqueueWriteBufferRect(cl_command_queue q, cl_mem mem,
	cl_bool blocking, const size_t *bo, const size_t *ho, const size_t *r,
	size_t brp, size_t bsp, size_t hrp, size_t hsp, const void *ptr, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_forwarded(q, vrt_real.clEnqueueWriteBufferRect(q, mem, blocking, bo, ho,
		                                                            r, brp, bsp, hrp, hsp,
		                                                            ptr, nw, w, ev));
	cl_int err;
	xfer *x = host_rect(q, m, run_write_rect, bo, ho, r, brp, bsp, hrp, hsp,
	                    (unsigned char *)(uintptr_t)ptr /* only read */, nw, w, &err);
	if (err != CL_SUCCESS)
		return err;
	writes(x, "clEnqueueWriteBufferRect");
	return submit(x, q, CL_COMMAND_WRITE_BUFFER_RECT, blocking, nw, w, ev);
}

cl_int vrt_api_clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src,
	cl_mem dst, const size_t *so, const size_t *dso, const size_t *r, size_t srp,
	size_t ssp, size_t drp, size_t dsp, cl_uint nw, const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *a = vrt_mem_of(src), *b = vrt_mem_of(dst);
	if (!a && !b && !vrt_object_ours(src) && !vrt_object_ours(dst))
		return vrt_forwarded(q, vrt_real.clEnqueueCopyBufferRect(q, src, dst, so, dso, r,
		                                                         srp, ssp, drp, dsp, nw, w,
		                                                         ev));
	if (!a || !b)
		return CL_INVALID_MEM_OBJECT;
	if (!so || !dso || bad_region(r) || bad_pitches(r, srp, ssp) || bad_pitches(r, drp, dsp))
		return CL_INVALID_VALUE;
	rect_pitches(r, &srp, &ssp);
	rect_pitches(r, &drp, &dsp);
	if (!rect_within(so, r, srp, ssp, a->size) || !rect_within(dso, r, drp, dsp, b->size))
		return CL_INVALID_VALUE;
	cl_int err = vrt_check_queue(q, a->ctx, nw, w);
	if (err == CL_SUCCESS && b->ctx != a->ctx)
		err = CL_INVALID_CONTEXT;
	if (err != CL_SUCCESS)
		return err;
	xfer *x = new_rect(a, b, run_copy_rect, so, srp, ssp, dso, drp, dsp, r);
	writes(x, "clEnqueueCopyBufferRect");
	return submit(x, q, CL_COMMAND_COPY_BUFFER_RECT, CL_FALSE, nw, w, ev);
}

/* OpenCL 1.2 §5.4.2: the mapped region is the host copy itself (for
 * CL_MEM_USE_HOST_PTR, inside the program's pointer, as required), so
 * the pointer is known at the enqueue; its bytes are current when the
 * map's event completes. A map for writing makes the host copy the
 * current one when it runs: a kernel must not run on a buffer while it
 * is mapped for writing, and unmapping then has nothing left to do. */
static cl_int run_map(vrt_cmd *c, cl_command_queue q)
{
	(void)q;
	xfer *x = (xfer *)c;
	cl_int err = prepare(x->a);
	if (err == CL_SUCCESS && (x->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)))
		vrt_mem_host_wrote(x->a, x->ao, x->n);
	return err;
}

void *vrt_api_clEnqueueMapBuffer(cl_command_queue q, cl_mem mem,
	cl_bool blocking, cl_map_flags flags, size_t off, size_t n, cl_uint nw,
	const cl_event *w, cl_event *ev, cl_int *errcode_ret)
{
	if (vrt_init() != CL_SUCCESS) {
		SET_ERR(CL_OUT_OF_RESOURCES);
		return NULL;
	}
	vrt_mem *m = vrt_mem_of(mem);
	if (!m && vrt_object_ours(mem)) {
		SET_ERR(CL_INVALID_MEM_OBJECT);
		return NULL;
	}
	if (!m) {
		void *p = vrt_real.clEnqueueMapBuffer(q, mem, blocking, flags, off, n, nw, w, ev,
		                                      errcode_ret);
		vrt_queue_foreign(q);
		return p;
	}
	cl_int err = n == 0 ? CL_INVALID_VALUE : vrt_check_queue(q, m->ctx, nw, w);
	if (err == CL_SUCCESS)
		err = check_range(m, off, n);
	if (err == CL_SUCCESS) {
		/* The pointer is returned now, so the host copy is made now;
		 * its bytes come when the map runs. */
		vrt_lock();
		err = vrt_mem_host_copy(m);
		vrt_unlock();
	}
	if (err == CL_SUCCESS) {
		xfer *x = new_xfer(m, NULL, run_map);
		if (x) {
			x->flags = flags;
			x->ao = off;
			x->n = n;
		}
		if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
			writes(x, "clEnqueueMapBuffer");
		err = submit(x, q, CL_COMMAND_MAP_BUFFER, blocking, nw, w, ev);
	}
	SET_ERR(err);
	return err == CL_SUCCESS ? m->host + off : NULL;
}

static cl_int run_nothing(vrt_cmd *c, cl_command_queue q)
{
	(void)c;
	(void)q;
	return CL_SUCCESS;
}

cl_int vrt_api_clEnqueueUnmapMemObject(cl_command_queue q, cl_mem mem,
	void *ptr, cl_uint nw, const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_forwarded(q, vrt_real.clEnqueueUnmapMemObject(q, mem, ptr, nw, w, ev));
	if ((unsigned char *)ptr < m->host || (unsigned char *)ptr >= m->host + m->size)
		return CL_INVALID_VALUE;
	cl_int err = vrt_check_queue(q, m->ctx, nw, w);
	if (err != CL_SUCCESS)
		return err;
	return submit(new_xfer(m, NULL, run_nothing), q, CL_COMMAND_UNMAP_MEM_OBJECT, CL_FALSE,
	              nw, w, ev);
}

/* Migration is a hint (OpenCL 1.2 §5.4.4); the runtime moves data when a
 * launch needs it, so only the foreign objects are forwarded. Ours is a
 * command that does nothing, in queue order. */
cl_int vrt_api_clEnqueueMigrateMemObjects(cl_command_queue q,
	cl_uint nm, const cl_mem *mems, cl_mem_migration_flags flags, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *first = NULL;
	for (cl_uint i = 0; mems && i < nm; i++) {
		if (!vrt_object_ours(mems[i]))
			continue;
		if (!vrt_mem_of(mems[i]))
			return CL_INVALID_MEM_OBJECT; /* released */
		if (!first)
			first = vrt_mem_of(mems[i]);
	}
	if (!first)
		return vrt_forwarded(q, vrt_real.clEnqueueMigrateMemObjects(q, nm, mems, flags, nw, w, ev));
	if (!mems || nm == 0)
		return CL_INVALID_VALUE;
	cl_int err = vrt_check_queue(q, NULL, nw, w);
	if (err != CL_SUCCESS)
		return err;
	return submit(new_xfer(first, NULL, run_nothing), q, CL_COMMAND_MIGRATE_MEM_OBJECTS,
	              CL_FALSE, nw, w, ev);
}
