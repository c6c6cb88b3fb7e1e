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
 * needs them. This file keeps the records (the buffer's list, each one's
 * cl_mem, queue and window); mem.c moves their bytes and keeps the
 * directory (vrt_mem_replica_place and the rest).
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

cl_int vrt_replica_new(vrt_mem *m, cl_context ctx, cl_command_queue q, cl_device_id dev,
                       size_t lo, size_t hi, int loc, vrt_replica **out)
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
	vrt_real.clRetainCommandQueue(q);
	r->ctx = ctx;
	r->q = q;
	r->dev = dev;
	r->lo = lo;
	r->hi = hi;
	r->loc = loc;
	r->next = m->replicas;
	m->replicas = r;
	*out = r;
	return CL_SUCCESS;
}

void vrt_replica_free(vrt_mem *m, vrt_replica *r)
{
	for (vrt_replica **pp = &m->replicas; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	vrt_real.clReleaseMemObject(r->buf);
	vrt_real.clReleaseCommandQueue(r->q);
	vrt_free(r);
}

size_t vrt_replicas_bytes(const vrt_mem *m, cl_context ctx, cl_device_id dev)
{
	size_t n = 0;
	for (const vrt_replica *r = m->replicas; r; r = r->next)
		if ((!ctx || r->ctx == ctx) && (!dev || r->dev == dev))
			n += r->hi - r->lo;
	return n;
}
