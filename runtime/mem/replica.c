/* SPDX-License-Identifier: MIT */
/*
 * replica.c - windows of a buffer kept on the devices a split launch ran
 * on (docs/multi.md, "Resident shares").
 *
 * A share of a split launch runs on a copy of the bytes its window of
 * work-groups reaches, on its own device: a replica. It stays after the
 * launch, as a location of the buffer's memory directory (directory.h),
 * so that the next launch split the same way finds its bytes there and
 * the bytes it wrote go elsewhere only when the host or another device
 * needs them (the directory's bring, with mem.c's mover). A replica's
 * window only grows: a share that reaches past it gets a larger one,
 * filled on the device from the old one.
 *
 * Lock held throughout; the cl_mem and queue are the replica's own.
 */
#include "mem/mem.h"

vrt_replica *vrt_replica_on(const vrt_mem *m, cl_device_id dev)
{
	for (vrt_replica *r = m->replicas; r; r = r->next)
		if (r->dev == dev)
			return r;
	return NULL;
}

static void unlink_replica(vrt_mem *m, vrt_replica *r)
{
	for (vrt_replica **pp = &m->replicas; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			break;
		}
}

static void free_replica(vrt_replica *r)
{
	vrt_real.clReleaseMemObject(r->buf);
	vrt_real.clReleaseCommandQueue(r->q);
	vrt_free(r);
}

/* A replica of [lo, hi) of m on dev, holding nothing yet. */
static cl_int new_replica(vrt_mem *m, cl_context ctx, cl_command_queue q, cl_device_id dev,
                          size_t lo, size_t hi, vrt_replica **out)
{
	cl_int err = CL_SUCCESS;
	vrt_replica *r = vrt_calloc(1, sizeof *r);
	if (!r)
		return CL_OUT_OF_HOST_MEMORY;
	r->buf = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_WRITE, hi - lo, NULL, &err);
	if (!r->buf) {
		vrt_free(r);
		return err != CL_SUCCESS ? err : CL_MEM_OBJECT_ALLOCATION_FAILURE;
	}
	if ((r->loc = vrt_mem_new_loc(m, dev, ctx)) < 0) {
		vrt_real.clReleaseMemObject(r->buf);
		vrt_free(r);
		return CL_MEM_OBJECT_ALLOCATION_FAILURE; /* every location taken */
	}
	vrt_real.clRetainCommandQueue(q);
	r->ctx = ctx;
	r->q = q;
	r->dev = dev;
	r->lo = lo;
	r->hi = hi;
	r->next = m->replicas;
	m->replicas = r;
	*out = r;
	return CL_SUCCESS;
}

/* The runs of [lo, hi) location l holds (vrt_dir_walk): collected first,
 * since bringing them changes the directory being walked. */
typedef struct held_runs {
	int loc;
	size_t n, cap;
	size_t *off, *len;
	int oom;
} held_runs;

static int collect_held(void *u, size_t off, size_t n, vrt_locs valid)
{
	held_runs *h = u;
	if (!(valid & VRT_LOC(h->loc)))
		return 0;
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		size_t *o = vrt_realloc(h->off, cap * sizeof *o);
		if (o)
			h->off = o;
		size_t *l = o ? vrt_realloc(h->len, cap * sizeof *l) : NULL;
		if (!l) {
			h->oom = 1;
			return 1;
		}
		h->len = l;
		h->cap = cap;
	}
	h->off[h->n] = off;
	h->len[h->n++] = n;
	return 0;
}

cl_int vrt_replica_place(vrt_mem *m, cl_context ctx, cl_command_queue q, cl_device_id dev,
                         size_t lo, size_t hi, vrt_replica **out)
{
	vrt_replica *old = vrt_replica_on(m, dev), *r;
	if (old && old->lo <= lo && hi <= old->hi) {
		*out = old;
		return CL_SUCCESS;
	}
	if (old) {
		lo = old->lo < lo ? old->lo : lo;
		hi = old->hi > hi ? old->hi : hi;
	}
	cl_int err = new_replica(m, ctx, q, dev, lo, hi, &r);
	if (err != CL_SUCCESS)
		return err;
	if (!old) {
		*out = r;
		return CL_SUCCESS;
	}
	/* What the old one held comes from it (the nearest: its device), the
	 * rest stays where it is; then the old one holds nothing of its own. */
	held_runs h = { .loc = old->loc };
	vrt_dir_walk(m->dir, old->lo, old->hi - old->lo, collect_held, &h);
	for (size_t i = 0; i < h.n && !h.oom && err == CL_SUCCESS; i++)
		err = vrt_replica_bring(m, r, h.off[i], h.len[i]);
	vrt_free(h.off);
	vrt_free(h.len);
	if (h.oom && err == CL_SUCCESS)
		err = CL_OUT_OF_HOST_MEMORY;
	if (err == CL_SUCCESS)
		err = vrt_replica_evict(m, old); /* nothing left only there: moves nothing */
	if (err != CL_SUCCESS) {
		vrt_replica_evict(m, r);
		return err;
	}
	*out = r;
	return CL_SUCCESS;
}

cl_int vrt_replica_bring(vrt_mem *m, vrt_replica *r, size_t off, size_t n)
{
	int err = vrt_dir_bring(m->dir, r->loc, off, n, vrt_mem_mover, m);
	return err == -1 ? CL_OUT_OF_HOST_MEMORY : err; /* -1: the directory's own */
}

int vrt_replica_wrote(vrt_mem *m, vrt_replica *r, size_t off, size_t n)
{
	return vrt_dir_wrote(m->dir, r->loc, off, n);
}

cl_int vrt_replica_evict(vrt_mem *m, vrt_replica *r)
{
	cl_int err = vrt_mem_host_copy(m);
	if (err != CL_SUCCESS)
		return err;
	int e = vrt_dir_evict(m->dir, r->loc, r->lo, r->hi - r->lo, vrt_mem_mover, m);
	if (e != 0) {
		vrt_log(VRT_LOG_WARN, "writing a device's window of a buffer home failed: %s",
		        e == -1 ? "out of host memory" : vrt_cl_error_name(e));
		return e == -1 ? CL_OUT_OF_HOST_MEMORY : e;
	}
	vrt_dir_remove_loc(m->dir, r->loc);
	unlink_replica(m, r);
	free_replica(r);
	return CL_SUCCESS;
}

void vrt_replicas_free(vrt_mem *m)
{
	while (m->replicas) {
		vrt_replica *r = m->replicas;
		m->replicas = r->next;
		vrt_dir_forget(m->dir, r->loc, 0, m->dir->size);
		vrt_dir_remove_loc(m->dir, r->loc);
		free_replica(r);
	}
}

size_t vrt_replicas_bytes(const vrt_mem *m, cl_context ctx, cl_device_id dev)
{
	size_t n = 0;
	for (const vrt_replica *r = m->replicas; r; r = r->next)
		if ((!ctx || r->ctx == ctx) && (!dev || r->dev == dev))
			n += r->hi - r->lo;
	return n;
}
