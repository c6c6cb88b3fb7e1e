/* SPDX-License-Identifier: MIT */
/*
 * ring.c - pages from pageable host copies to the frames at the link's
 * speed (issue 8, item 3).
 *
 * A host copy too large to pin (pinned.c keeps pinned memory within half
 * the device's) moves its pages straight from plain memory when a range's
 * share of it would pass the staging bound (paged.c, choose_direct); from
 * plain memory NVIDIA's driver moves 7-9 GB/s against 55 from pinned. The
 * ring is a few small pinned chunks: each piece of a span is copied into
 * the next free chunk by several threads (vrt_copy) and sent from there,
 * so the copy of one chunk overlaps the transfer of the one before. A
 * chunk is free once its transfer completed; waiting for that is the
 * host's only wait, and the transfer needs nothing but the H2D queue,
 * which the caller flushed together with every queue it waits on.
 *
 * One ring per device of a split launch (its shares run on threads),
 * kept across launches like the staging areas. Guarded by the launch
 * that uses it.
 */
#include <string.h>

#include "vrt.h"

#define RING_CHUNKS 4
#define RING_CHUNK (32u << 20)

typedef struct ring {
	cl_context ctx;
	unsigned char *chunk[RING_CHUNKS];
	vrt_pin pin[RING_CHUNKS];
	cl_event busy[RING_CHUNKS]; /* the transfer from the chunk, if any */
	unsigned next;
	int failed; /* the driver could not pin: use no ring */
} ring;

static ring rings[VRT_MAX_DEVICES];

static void ring_drop(ring *r)
{
	for (unsigned i = 0; i < RING_CHUNKS; i++) {
		if (r->busy[i]) {
			vrt_real.clWaitForEvents(1, &r->busy[i]);
			vrt_real.clReleaseEvent(r->busy[i]);
		}
		if (r->chunk[i])
			vrt_pinned_free(&r->pin[i], r->chunk[i]);
	}
	if (r->ctx)
		clReleaseContext(r->ctx);
	memset(r, 0, sizeof *r);
}

/* Ring `id`'s chunks pinned for ctx; NULL when they cannot be. */
static ring *ring_for(cl_context ctx, unsigned id)
{
	ring *r = &rings[id];
	if (r->ctx == ctx)
		return r->failed ? NULL : r;
	ring_drop(r);
	r->ctx = ctx;
	clRetainContext(ctx);
	for (unsigned i = 0; i < RING_CHUNKS && !r->failed; i++)
		r->failed = !(r->chunk[i] = vrt_pinned_alloc(ctx, RING_CHUNK, &r->pin[i]));
	if (!r->failed)
		return r;
	vrt_log(VRT_LOG_DEBUG, "no pinned ring: pages move from plain memory");
	/* The chunks pinned so far are device memory too: given back. */
	for (unsigned i = 0; i < RING_CHUNKS; i++)
		if (r->chunk[i]) {
			vrt_pinned_free(&r->pin[i], r->chunk[i]);
			r->chunk[i] = NULL;
		}
	return NULL;
}

int vrt_ring_usable(cl_context ctx, unsigned id)
{
	return id < VRT_MAX_DEVICES && vrt_cfg.pinned && ring_for(ctx, id) != NULL;
}

cl_int vrt_ring_write(cl_context ctx, unsigned id, cl_command_queue q, cl_mem frames,
                      size_t dev_off, const unsigned char *src, size_t n, size_t *sent,
                      cl_event *e)
{
	ring *r = ring_for(ctx, id);
	*sent = 0;
	if (!r)
		return CL_OUT_OF_RESOURCES;
	size_t len = n < RING_CHUNK ? n : RING_CHUNK;
	unsigned k = r->next;
	if (r->busy[k]) {
		cl_int err = vrt_real.clWaitForEvents(1, &r->busy[k]);
		vrt_real.clReleaseEvent(r->busy[k]);
		r->busy[k] = NULL;
		if (err)
			return err;
	}
	vrt_copy(r->chunk[k], src, len);
	cl_int err = vrt_real.clEnqueueWriteBuffer(q, frames, CL_FALSE, dev_off, len, r->chunk[k], 0,
	                                           NULL, e);
	if (err)
		return err;
	vrt_real.clRetainEvent(*e);
	r->busy[k] = *e;
	r->next = (k + 1) % RING_CHUNKS;
	*sent = len;
	return CL_SUCCESS;
}
