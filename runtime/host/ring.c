/* SPDX-License-Identifier: MIT */
/*
 * ring.c - pages from pageable host copies to the frames at the link's
 * speed without pinning them, whole transfers between plain memory
 * and device copies (vrt_ring_send/receive, mem.c), and bytes between
 * two contexts through pinned chunks (vrt_ring_relay, at the end).
 *
 * A host copy too large to pin (pinned.c keeps pinned memory within half
 * the device's) moves its pages straight from plain memory when a range's
 * share of it would pass the staging bound (paged/move.c, choose_direct); from
 * plain memory NVIDIA's driver moves 7-9 GB/s against 55 from pinned. The
 * ring is a few small pinned chunks: each piece of a span is copied into
 * the next free chunk by several threads (vrt_copy) and sent from there,
 * so the copy of one chunk overlaps the transfer of the one before. A
 * chunk is free once its transfer completed; waiting for that is the
 * host's only wait, and the transfer needs nothing but the H2D queue,
 * which the caller flushed together with every queue it waits on.
 *
 * VRT_MAX_DEVICES rings, each pinned for one context and kept across
 * launches like the staging areas: a split launch's share j uses ring
 * j, the transfers of several devices at once (batch.c) the ring each
 * context claims (vrt_ring_claim), ring 0 the rest. Guarded by the
 * runtime lock, or by the launch or batch whose threads use them (one
 * ring to a thread).
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

/* A ring's or the relay's n chunks given back (those not pinned are
 * NULL). */
static void unpin_chunks(unsigned char **chunk, vrt_pin *pin, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (chunk[i]) {
			vrt_pinned_free(&pin[i], chunk[i]);
			chunk[i] = NULL;
		}
}

/* n chunks of `size` bytes pinned for ctx; 0 when the driver cannot pin
 * them all: those pinned so far are device memory too, given back. */
static int pin_chunks(cl_context ctx, unsigned char **chunk, vrt_pin *pin, unsigned n,
                      size_t size)
{
	for (unsigned i = 0; i < n; i++)
		if (!(chunk[i] = vrt_pinned_alloc(ctx, size, VRT_PIN_STAGING, &pin[i]))) {
			unpin_chunks(chunk, pin, i);
			return 0;
		}
	return 1;
}

static void ring_drop(ring *r)
{
	for (unsigned i = 0; i < RING_CHUNKS; i++)
		chunk_free(r, i);
	unpin_chunks(r->chunk, r->pin, RING_CHUNKS);
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
	if ((r->failed = !pin_chunks(ctx, r->chunk, r->pin, RING_CHUNKS, RING_CHUNK)))
		vrt_log(VRT_LOG_DEBUG, "no pinned ring: pages move from plain memory");
	return r->failed ? NULL : r;
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

/* --- the relay: bytes between two contexts ----------------------------- *
 *
 * A buffer's bytes move between devices of different contexts (a split
 * launch's devices, each other than the launch's own in a runtime context
 * of its own) through host memory, as OpenCL has no copy between
 * contexts. Through a temporary of plain memory that cost two transfers
 * from pageable memory and the temporary's first-touch faults (two
 * H200s: 430 MB in 110 ms, 4 GB/s). The relay is a few small pinned
 * chunks instead: piece k is read from the source into a chunk while
 * piece k-1 is written to the destination from the one before, no host
 * copy at all. A piece's write waits for its read on the host (a queue
 * cannot wait for an event of another context), and a chunk reads its
 * next piece once its write completed.
 *
 * The chunks are pinned for one of the two contexts (kept while moves
 * involve that one) and are plain host memory to the other's transfers:
 * NVIDIA's driver moves them at the link's speed for either context
 * (two contexts of one H200: 55 GB/s reading and writing from memory
 * pinned for either one, ALLOC_ or USE_HOST_PTR, against 15 and 8.3 GB/s
 * from pageable memory; contexts of two devices not measured yet). The
 * relay is apart from the rings, so that moves between contexts never
 * re-pin ring 0 for another context. Guarded by the runtime lock, like
 * ring 0.
 *
 * Three chunks of 8 MiB: 430 MiB between two contexts of one H200 in
 * 9.3 ms (48.7 GB/s; 16 MiB chunks the same, 4 MiB 47.4, two chunks
 * 45.5, more than three no faster), against 664 ms through a fresh
 * temporary (bench/results/2026-11-29-session24/h200-relay). */
#define RELAY_CHUNKS 3
#define RELAY_CHUNK (8u << 20)
/* Below this a move goes through plain memory: a split launch's pieces
 * of a few hundred KiB (a stencil's rows of every plane) each pay a
 * fresh temporary and pageable transfers otherwise. */
#define RELAY_MIN (256u << 10)

typedef struct relay {
	cl_context ctx; /* the context the chunks are pinned for */
	unsigned char *chunk[RELAY_CHUNKS];
	vrt_pin pin[RELAY_CHUNKS];
	int failed; /* the driver could not pin them for ctx */
} relay;

static relay the_relay;

static void relay_drop(relay *r)
{
	unpin_chunks(r->chunk, r->pin, RELAY_CHUNKS);
	if (r->ctx)
		clReleaseContext(r->ctx);
	memset(r, 0, sizeof *r);
}

/* The relay's chunks pinned for a or b (kept when they are for either);
 * NULL when they cannot be. */
static relay *relay_for(cl_context a, cl_context b)
{
	relay *r = &the_relay;
	if (r->ctx && (r->ctx == a || r->ctx == b))
		return r->failed ? NULL : r;
	relay_drop(r);
	r->ctx = a;
	clRetainContext(a);
	if ((r->failed = !pin_chunks(a, r->chunk, r->pin, RELAY_CHUNKS, RELAY_CHUNK)))
		vrt_log(VRT_LOG_DEBUG, "no pinned relay: bytes between contexts move through plain memory");
	return r->failed ? NULL : r;
}

/* Through a temporary of plain memory: below RELAY_MIN the driver's two
 * transfers cost less than pinning the relay. */
static cl_int relay_plain(cl_command_queue src_q, cl_mem src, size_t src_off,
                          cl_command_queue dst_q, cl_mem dst, size_t dst_off, size_t n)
{
	void *tmp = vrt_malloc(n ? n : 1);
	if (!tmp)
		return CL_OUT_OF_HOST_MEMORY;
	cl_int err = vrt_real.clEnqueueReadBuffer(src_q, src, CL_TRUE, src_off, n, tmp, 0, NULL,
	                                          NULL);
	if (err == CL_SUCCESS)
		err = vrt_real.clEnqueueWriteBuffer(dst_q, dst, CL_TRUE, dst_off, n, tmp, 0, NULL,
		                                    NULL);
	vrt_free(tmp);
	return err;
}

/* Waits for *e, if any, and forgets it; keeps the first error in *err. */
static void relay_wait(cl_event *e, cl_int *err)
{
	if (!*e)
		return;
	cl_int w = vrt_real.clWaitForEvents(1, e);
	if (*err == CL_SUCCESS)
		*err = w;
	vrt_real.clReleaseEvent(*e);
	*e = NULL;
}

/* Piece i of a move of n bytes: RELAY_CHUNK bytes, the last one the rest. */
static size_t piece_len(size_t n, size_t i)
{
	return (i + 1) * RELAY_CHUNK < n ? RELAY_CHUNK : n - i * RELAY_CHUNK;
}

/* Piece i of src's [off, off+n) read into its chunk, event rd[chunk],
 * submitted. */
static cl_int read_piece(relay *r, cl_command_queue q, cl_mem src, size_t off, size_t n,
                         size_t i, cl_event *rd)
{
	unsigned k = i % RELAY_CHUNKS;
	cl_int err = vrt_real.clEnqueueReadBuffer(q, src, CL_FALSE, off + i * RELAY_CHUNK,
	                                          piece_len(n, i), r->chunk[k], 0, NULL, &rd[k]);
	return err == CL_SUCCESS ? vrt_real.clFlush(q) : err;
}

cl_int vrt_ring_relay(cl_context src_ctx, cl_command_queue src_q, cl_mem src, size_t src_off,
                      cl_context dst_ctx, cl_command_queue dst_q, cl_mem dst, size_t dst_off,
                      size_t n)
{
	relay *r = n < RELAY_MIN || !vrt_cfg.pinned ? NULL : relay_for(src_ctx, dst_ctx);
	if (!r)
		return relay_plain(src_q, src, src_off, dst_q, dst, dst_off, n);
	double t0 = vrt_now_ms();
	size_t pieces = (n + RELAY_CHUNK - 1) / RELAY_CHUNK, next = 0;
	cl_event rd[RELAY_CHUNKS] = { 0 }, wr[RELAY_CHUNKS] = { 0 };
	cl_int err = CL_SUCCESS;
	for (; next < pieces && next < RELAY_CHUNKS && err == CL_SUCCESS; next++)
		err = read_piece(r, src_q, src, src_off, n, next, rd);
	for (size_t i = 0; i < pieces && err == CL_SUCCESS; i++) {
		unsigned k = i % RELAY_CHUNKS;
		relay_wait(&rd[k], &err);
		if (err != CL_SUCCESS)
			break;
		err = vrt_real.clEnqueueWriteBuffer(dst_q, dst, CL_FALSE, dst_off + i * RELAY_CHUNK,
		                                    piece_len(n, i), r->chunk[k], 0, NULL, &wr[k]);
		/* Submitted now: NVIDIA's driver starts nothing unflushed. */
		if (err == CL_SUCCESS)
			err = vrt_real.clFlush(dst_q);
		/* The chunk piece i-1 was written from reads the next piece
		 * once that write ended; piece i's write, queued behind it,
		 * keeps the destination's link busy meanwhile. */
		if (err == CL_SUCCESS && i > 0 && next < pieces) {
			relay_wait(&wr[(i - 1) % RELAY_CHUNKS], &err);
			if (err == CL_SUCCESS)
				err = read_piece(r, src_q, src, src_off, n, next++, rd);
		}
	}
	/* Every transfer ended, a failed move's too: no chunk is reused
	 * while one still reads into it or writes from it. */
	for (unsigned k = 0; k < RELAY_CHUNKS; k++) {
		relay_wait(&rd[k], &err);
		relay_wait(&wr[k], &err);
	}
	vrt_log(VRT_LOG_DEBUG, "relay: %zu bytes between two contexts, %zu pieces through %u pinned chunks of %u bytes",
	        n, pieces, RELAY_CHUNKS, RELAY_CHUNK);
	vrt_trace_host("relay", "", t0, vrt_now_ms(), -1, n);
	return err;
}

/* --- many pieces through one ring ---------------------------------------- *
 * A buffer's runs scattered over devices (a split launch's windows, the
 * pages its windows merged) come and go in many pieces of a few hundred
 * KiB. One blocking transfer each pays the driver's latency every time
 * and moves plain memory at 8-15 GB/s (ring.c's head); here each chunk
 * of the ring carries as many pieces as fit, their transfers enqueued
 * together and waited for once, the chunks in turn as in
 * vrt_ring_receive. */

/* A part of a piece in a chunk: chunk bytes [at, at + n) are piece p's
 * from its byte `from`. */
typedef struct part {
	size_t p, from, n, at;
} part;

typedef struct chunk_parts {
	part *part;
	size_t n, cap;
} chunk_parts;

static int add_part(chunk_parts *c, part x)
{
	if (VRT_GROW(&c->part, &c->cap, c->n + 1))
		return -1;
	c->part[c->n++] = x;
	return 0;
}

/* The parts of chunk c between it and their pieces' host memory (into
 * the chunk: to_dev), all as one copy on several threads: many small
 * copies into the program's fresh memory are bound by its page faults,
 * which one thread takes one at a time. */
static void copy_parts(const chunk_parts *c, const vrt_piece *p, unsigned char *chunk,
                       int to_dev)
{
	vrt_copy_run runs[64];
	size_t nr = 0;
	for (size_t j = 0; j < c->n; j++) {
		const part *x = &c->part[j];
		unsigned char *host = p[x->p].host + x->from, *at = chunk + x->at;
		runs[nr++] = to_dev ? (vrt_copy_run){ at, host, x->n } : (vrt_copy_run){ host, at, x->n };
		if (nr == sizeof runs / sizeof *runs || j + 1 == c->n) {
			vrt_copy_runs(runs, nr);
			nr = 0;
		}
	}
}

/* The pieces one after the other, each blocking: no ring. */
static cl_int pieces_plain(cl_command_queue q, const vrt_piece *p, size_t n, int to_dev)
{
	cl_int err = CL_SUCCESS;
	for (size_t i = 0; i < n && err == CL_SUCCESS; i++)
		err = to_dev ? vrt_real.clEnqueueWriteBuffer(q, p[i].buf, CL_TRUE, p[i].buf_off, p[i].n,
		                                             p[i].host, 0, NULL, NULL)
		             : vrt_real.clEnqueueReadBuffer(q, p[i].buf, CL_TRUE, p[i].buf_off, p[i].n,
		                                            p[i].host, 0, NULL, NULL);
	return err;
}

cl_int vrt_ring_pieces(unsigned id, cl_context ctx, cl_command_queue q, const vrt_piece *p,
                       size_t n, int to_dev)
{
	ring *r = !vrt_cfg.pinned || id >= VRT_MAX_DEVICES ? NULL : ring_for(ctx, id);
	if (!r)
		return pieces_plain(q, p, n, to_dev);
	double t0 = vrt_now_ms();
	chunk_parts cp[RING_CHUNKS] = { { 0 } };
	cl_int err = CL_SUCCESS;
	size_t i = 0, from = 0, bytes = 0; /* the next piece, and its next byte */
	for (unsigned k = 0; k < RING_CHUNKS && err == CL_SUCCESS; k++)
		err = chunk_free(r, k);
	for (unsigned k = 0; err == CL_SUCCESS; k = (k + 1) % RING_CHUNKS) {
		if (r->busy[k]) {
			if ((err = chunk_free(r, k)) != CL_SUCCESS)
				break;
			if (!to_dev)
				copy_parts(&cp[k], p, r->chunk[k], 0);
			cp[k].n = 0;
		}
		if (i == n) {
			unsigned left = 0;
			for (unsigned c = 0; c < RING_CHUNKS; c++)
				left += r->busy[c] != NULL;
			if (!left)
				break;
			continue;
		}
		/* Chunk k takes the next pieces, or parts of them, that fit. */
		size_t at = 0;
		while (i < n && at < RING_CHUNK && err == CL_SUCCESS) {
			size_t len = p[i].n - from < RING_CHUNK - at ? p[i].n - from : RING_CHUNK - at;
			if (add_part(&cp[k], (part){ i, from, len, at })) {
				err = CL_OUT_OF_HOST_MEMORY;
				break;
			}
			if (!to_dev)
				err = vrt_real.clEnqueueReadBuffer(q, p[i].buf, CL_FALSE, p[i].buf_off + from,
				                                   len, r->chunk[k] + at, 0, NULL, NULL);
			at += len;
			bytes += len;
			if ((from += len) == p[i].n) {
				i++;
				from = 0;
			}
		}
		/* Sent: the chunk's parts copied in at once, then their writes. */
		if (to_dev && err == CL_SUCCESS) {
			copy_parts(&cp[k], p, r->chunk[k], 1);
			for (size_t j = 0; j < cp[k].n && err == CL_SUCCESS; j++) {
				const part *x = &cp[k].part[j];
				err = vrt_real.clEnqueueWriteBuffer(q, p[x->p].buf, CL_FALSE,
				                                    p[x->p].buf_off + x->from, x->n,
				                                    r->chunk[k] + x->at, 0, NULL, NULL);
			}
		}
		/* The chunk is free again once all its transfers ended (the
		 * queue may run them out of order: a marker waits for all). */
		if (at && err == CL_SUCCESS)
			err = vrt_real.clEnqueueMarkerWithWaitList(q, 0, NULL, &r->busy[k]);
		if (err == CL_SUCCESS)
			err = vrt_real.clFlush(q);
	}
	/* After a failure no chunk is reused before its transfers end. */
	if (err != CL_SUCCESS)
		vrt_real.clFinish(q);
	for (unsigned k = 0; k < RING_CHUNKS; k++)
		vrt_free(cp[k].part);
	vrt_trace_host("ring", "", t0, vrt_now_ms(), to_dev ? 0 : 1, bytes);
	return err;
}
