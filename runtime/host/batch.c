/* SPDX-License-Identifier: MIT */
/*
 * batch.c - many transfers between host memory and device buffers, the
 * devices' all at once.
 *
 * A buffer spread over several devices (a split launch's windows, a
 * whole write placed over them) moves to or from host memory run by
 * run. One after the other, the runs of the second device wait for the
 * first's, and each device's link carries half the time; here the runs
 * of each queue go in order on a thread of their own, each queue's
 * through a ring of its own (ring.c: the program's plain memory at the
 * link's speed), or straight where the host memory is pinned.
 */
#include <pthread.h>

#include "host/host.h"

typedef struct lane {
	const vrt_xfer *x;
	size_t n;
	cl_command_queue q;
	cl_context ctx;
	unsigned ring;
	int to_dev;
	cl_int err;
} lane;

/* A pinned run: straight. */
static cl_int move_pinned(const lane *l, const vrt_xfer *r)
{
	return l->to_dev ? vrt_real.clEnqueueWriteBuffer(r->q, r->buf, CL_TRUE, r->buf_off, r->n,
	                                                 r->host, 0, NULL, NULL)
	                 : vrt_real.clEnqueueReadBuffer(r->q, r->buf, CL_TRUE, r->buf_off, r->n,
	                                                r->host, 0, NULL, NULL);
}

/* The lane's runs: pinned ones straight, the others through its ring,
 * as many to a chunk as fit (ring.c vrt_ring_pieces). */
static void *run_lane(void *arg)
{
	lane *l = arg;
	size_t np = 0;
	for (size_t i = 0; i < l->n; i++)
		np += l->x[i].q == l->q && !l->x[i].pinned;
	vrt_piece *p = np ? vrt_malloc(np * sizeof *p) : NULL;
	if (np && !p) {
		l->err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	np = 0;
	for (size_t i = 0; i < l->n && l->err == CL_SUCCESS; i++) {
		const vrt_xfer *r = &l->x[i];
		if (r->q != l->q)
			continue;
		if (r->pinned)
			l->err = move_pinned(l, r);
		else
			p[np++] = (vrt_piece){ r->buf, r->buf_off, r->host, r->n };
	}
	if (np && l->err == CL_SUCCESS)
		l->err = vrt_ring_pieces(l->ring, l->ctx, l->q, p, np, l->to_dev);
	vrt_free(p);
	return NULL;
}

cl_int vrt_xfer_batch(const vrt_xfer *x, size_t n, int to_dev)
{
	lane l[VRT_MAX_DEVICES];
	unsigned nl = 0;
	cl_int err = CL_SUCCESS;
	for (size_t i = 0; i < n; i++) {
		unsigned k = 0;
		while (k < nl && l[k].q != x[i].q)
			k++;
		if (k == nl) {
			if (nl == VRT_MAX_DEVICES) {
				/* More queues than rings: this one's runs here, now. */
				lane one = { x + i, 1, x[i].q, x[i].ctx, 0, to_dev, CL_SUCCESS };
				run_lane(&one);
				if ((err = one.err) != CL_SUCCESS)
					return err;
				continue;
			}
			l[nl++] = (lane){ x, n, x[i].q, x[i].ctx, 0, to_dev, CL_SUCCESS };
		}
	}
	/* Rings are claimed and pinned here, one after the other; a lane
	 * left with a ring another lane has (more contexts than rings) runs
	 * after the others. */
	int later[VRT_MAX_DEVICES] = {0};
	for (unsigned k = 0; k < nl; k++) {
		/* A lane of pinned runs, or of a few KiB, needs no ring. */
		size_t plain = 0;
		for (size_t i = 0; i < n; i++)
			plain += x[i].q == l[k].q && !x[i].pinned ? x[i].n : 0;
		if (plain < VRT_PIECES_RING_MIN) {
			l[k].ring = VRT_MAX_DEVICES; /* none (vrt_ring_pieces) */
			continue;
		}
		l[k].ring = vrt_ring_claim(l[k].ctx);
		vrt_ring_usable(l[k].ctx, l[k].ring);
		for (unsigned i = 0; i < k; i++)
			later[k] |= l[i].ring == l[k].ring; /* a lane with none is no match */
	}
	pthread_t tid[VRT_MAX_DEVICES];
	int started[VRT_MAX_DEVICES] = {0};
	for (unsigned k = 1; k < nl; k++)
		started[k] = !later[k] && !pthread_create(&tid[k], NULL, run_lane, &l[k]);
	for (unsigned k = 0; k < nl; k++)
		if (!started[k] && !later[k])
			run_lane(&l[k]); /* the first, or one whose thread did not start */
	for (unsigned k = 0; k < nl; k++)
		if (started[k])
			pthread_join(tid[k], NULL);
	for (unsigned k = 0; k < nl; k++)
		if (later[k])
			run_lane(&l[k]);
	for (unsigned k = 0; k < nl && err == CL_SUCCESS; k++)
		err = l[k].err;
	return err;
}
