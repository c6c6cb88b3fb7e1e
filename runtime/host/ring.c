/* SPDX-License-Identifier: MIT */
/*
 * ring.c - pages from pageable host copies to the frames at the link's
 * speed without pinning them, and whole transfers between plain memory
 * and device copies (vrt_ring_send/receive, mem.c).
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

#include "host/host.h"

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

/* Chunk k's previous transfer done (and forgotten). */
static cl_int chunk_free(ring *r, unsigned k)
{
	if (!r->busy[k])
		return CL_SUCCESS;
	cl_int err = vrt_real.clWaitForEvents(1, &r->busy[k]);
	vrt_real.clReleaseEvent(r->busy[k]);
	r->busy[k] = NULL;
	return err;
}

static void ring_drop(ring *r)
{
	for (unsigned i = 0; i < RING_CHUNKS; i++) {
		chunk_free(r, i);
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
		r->failed = !(r->chunk[i] = vrt_pinned_alloc(ctx, RING_CHUNK, VRT_PIN_STAGING, &r->pin[i]));
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
	cl_int err = chunk_free(r, k);
	if (err)
		return err;
	vrt_copy(r->chunk[k], src, len);
	err = vrt_real.clEnqueueWriteBuffer(q, frames, CL_FALSE, dev_off, len, r->chunk[k], 0,
	                                    NULL, e);
	if (err)
		return err;
	vrt_real.clRetainEvent(*e);
	r->busy[k] = *e;
	r->next = (k + 1) % RING_CHUNKS;
	*sent = len;
	/* Submitted now: NVIDIA's driver starts nothing unflushed, so the
	 * link would idle until the wait for a chunk flushed them all (the
	 * ring ran at 22-30 GB/s on the H100, the copy and the transfer one
	 * after the other). */
	return vrt_real.clFlush(q);
}

/* Whole transfers between the program's memory (or a plain host copy)
 * and a device buffer (mem.c): below this the driver's own transfer
 * costs less than pinning the ring for ctx. */
#define RING_MIN (16u << 20)

unsigned vrt_ring_claim(cl_context ctx)
{
	for (unsigned i = 0; i < VRT_MAX_DEVICES; i++)
		if (rings[i].ctx == ctx)
			return i;
	for (unsigned i = 0; i < VRT_MAX_DEVICES; i++)
		if (!rings[i].ctx)
			return i;
	return 0;
}

cl_int vrt_ring_send(cl_context ctx, cl_command_queue q, cl_mem buf, size_t off,
                     const unsigned char *src, size_t n)
{
	return vrt_ring_send_on(0, ctx, q, buf, off, src, n);
}

cl_int vrt_ring_receive(cl_context ctx, cl_command_queue q, cl_mem buf, size_t off,
                        unsigned char *dst, size_t n)
{
	return vrt_ring_receive_on(0, ctx, q, buf, off, dst, n);
}

cl_int vrt_ring_send_on(unsigned id, cl_context ctx, cl_command_queue q, cl_mem buf,
                        size_t off, const unsigned char *src, size_t n)
{
	if (n < RING_MIN || !vrt_ring_usable(ctx, id))
		return vrt_real.clEnqueueWriteBuffer(q, buf, CL_TRUE, off, n, src, 0, NULL, NULL);
	double t0 = vrt_now_ms();
	cl_int err = CL_SUCCESS;
	cl_event last = NULL;
	for (size_t done = 0; done < n && err == CL_SUCCESS;) {
		size_t sent;
		cl_event e;
		err = vrt_ring_write(ctx, id, q, buf, off + done, src + done, n - done, &sent, &e);
		if (err != CL_SUCCESS)
			break;
		if (last)
			vrt_real.clReleaseEvent(last);
		last = e;
		done += sent;
	}
	if (last) {
		if (err == CL_SUCCESS)
			err = vrt_real.clWaitForEvents(1, &last);
		vrt_real.clReleaseEvent(last);
	}
	vrt_trace_host("ring", "", t0, vrt_now_ms(), 0, n);
	return err;
}

cl_int vrt_ring_receive_on(unsigned id, cl_context ctx, cl_command_queue q, cl_mem buf,
                           size_t off, unsigned char *dst, size_t n)
{
	ring *r = n < RING_MIN || !vrt_cfg.pinned || id >= VRT_MAX_DEVICES ? NULL : ring_for(ctx, id);
	if (!r)
		return vrt_real.clEnqueueReadBuffer(q, buf, CL_TRUE, off, n, dst, 0, NULL, NULL);
	double t0 = vrt_now_ms();
	cl_int err = CL_SUCCESS;
	size_t at[RING_CHUNKS], len[RING_CHUNKS], next = 0;
	for (unsigned k = 0; k < RING_CHUNKS && err == CL_SUCCESS; k++)
		err = chunk_free(r, k);
	/* Every chunk reads ahead; each is copied out, by several threads,
	 * while the others' transfers run, then reads the next piece. */
	for (unsigned k = 0; err == CL_SUCCESS; k = (k + 1) % RING_CHUNKS) {
		if (r->busy[k]) {
			if ((err = chunk_free(r, k)) != CL_SUCCESS)
				break;
			vrt_copy(dst + at[k], r->chunk[k], len[k]);
		}
		if (next < n) {
			at[k] = next;
			len[k] = n - next < RING_CHUNK ? n - next : RING_CHUNK;
			next += len[k];
			err = vrt_real.clEnqueueReadBuffer(q, buf, CL_FALSE, off + at[k], len[k],
			                                   r->chunk[k], 0, NULL, &r->busy[k]);
			if (err == CL_SUCCESS)
				err = vrt_real.clFlush(q);
		} else {
			unsigned left = 0;
			for (unsigned i = 0; i < RING_CHUNKS; i++)
				left += r->busy[i] != NULL;
			if (!left)
				break;
		}
	}
	/* After a failure no chunk is reused before its read ends. */
	vrt_trace_host("ring", "", t0, vrt_now_ms(), 1, n);
	return err;
}
