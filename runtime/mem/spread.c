/* SPDX-License-Identifier: MIT */
/*
 * spread.c - whole transfers between the program's memory and a buffer
 * whose bytes lie on several devices (docs/multi.md, "Whole transfers").
 *
 * After a split launch its outputs stay on the devices that wrote them
 * (replica.c); a whole write placed by the launch layer puts each
 * device's window of a buffer there before its launch. Either way the
 * bytes cross each device's own link, all links at once: one thread per
 * device, each through a ring of its own (ring.c), straight between the
 * program's memory and the device's copy. Through the host copy they
 * would be copied twice and cross the links one after the other.
 */
#include <string.h>

#include "mem/mem.h"

/* A run of a read from the host copy, or of the zeros no copy holds. */
typedef struct host_run {
	size_t off, n;
	int zero;
} host_run;

/* The runs of a read: from the devices' copies (vrt_xfer), from the host
 * copy or the zeros. */
typedef struct transfer {
	vrt_mem *m;
	unsigned char *mem;   /* the program's memory of byte `first` */
	size_t first;
	vrt_xfer *x;          /* the device runs */
	size_t nx, capx;
	host_run *h;
	size_t nh, caph;
	int refused;          /* a run only a frame pool holds */
} transfer;

static int add_xfer(transfer *t, vrt_xfer x)
{
	if (VRT_GROW(&t->x, &t->capx, t->nx + 1))
		return -1;
	t->x[t->nx++] = x;
	return 0;
}

static int add_host(transfer *t, size_t off, size_t n, int zero)
{
	if (VRT_GROW(&t->h, &t->caph, t->nh + 1))
		return -1;
	t->h[t->nh++] = (host_run){ off, n, zero };
	return 0;
}

static void transfer_free(transfer *t)
{
	vrt_free(t->x);
	vrt_free(t->h);
}

/* A run of the directory: from the host copy where it holds it, else
 * from a device copy or replica holding it; the zeros where none does. */
static int collect(void *u, size_t off, size_t n, vrt_locs valid)
{
	transfer *t = u;
	if (!valid || (valid & VRT_LOC(VRT_DIR_HOST)))
		return add_host(t, off, n, !valid) ? -1 : 0;
	for (int l = 1; l < VRT_DIR_MAX_LOCS; l++) {
		vrt_xfer x = { .host = t->mem + (off - t->first), .n = n };
		size_t base;
		if ((valid & VRT_LOC(l)) && vrt_mem_location(t->m, l, &x.buf, &x.q, &x.ctx, &base)) {
			x.buf_off = off - base;
			return add_xfer(t, x) ? -1 : 0;
		}
	}
	t->refused = 1; /* a frame pool's alone: only it moves them */
	return 1;
}

int vrt_mem_read_spread(vrt_mem *m, size_t off, size_t n, void *dst, cl_int *err)
{
	if (!m->dir || m->parent || m->nsubs || !m->replicas)
		return 0;
	transfer t = { .m = m, .mem = dst, .first = off };
	int e = vrt_dir_walk(m->dir, off, n, collect, &t);
	if (e || t.refused || !t.nx) {
		transfer_free(&t);
		if (e == -1) {
			*err = CL_OUT_OF_HOST_MEMORY;
			return 1;
		}
		return 0; /* the host copy's way (it holds them all) */
	}
	/* The program's array is often fresh (malloc'd for the result). */
	if (!m->host || (unsigned char *)dst != m->host + off)
		vrt_advise_huge(dst, n);
	double t0 = vrt_now_ms();
	*err = vrt_xfer_batch(t.x, t.nx, 0);
	size_t moved = 0;
	for (size_t i = 0; i < t.nx; i++)
		moved += t.x[i].n;
	for (size_t i = 0; i < t.nh && *err == CL_SUCCESS; i++) {
		unsigned char *at = t.mem + (t.h[i].off - off);
		if (t.h[i].zero)
			vrt_fill(at, "", 1, t.h[i].n);
		else
			vrt_copy(at, m->host + t.h[i].off, t.h[i].n);
	}
	transfer_free(&t);
	vrt_kstats *st = vrt_stats_for(NULL);
	if (st && *err == CL_SUCCESS)
		st->d2h += moved;
	vrt_trace_host("spread", "", t0, vrt_now_ms(), 1, moved);
	return 1;
}

cl_int vrt_mem_write_spread(vrt_mem *m, const vrt_spread_part *parts, unsigned n,
                            const void *src)
{
	if (!m->dir || m->parent || m->nsubs || m->host || m->dev || n > VRT_MAX_DEVICES)
		return CL_INVALID_OPERATION;
	/* Every byte is replaced: no copy's bytes need keeping or moving
	 * (a replica that grows below then fills from nothing). */
	for (vrt_replica *r = m->replicas; r; r = r->next)
		if (vrt_dir_forget(m->dir, r->loc, r->lo, r->hi - r->lo) != 0)
			return CL_OUT_OF_HOST_MEMORY;
	/* A replica that does not hold its part's window goes now, holding
	 * nothing: grown, it would sit beside its successor while that
	 * fills, past what the placement counted. */
	for (unsigned i = 0; i < n; i++) {
		vrt_replica *old = vrt_replica_on(m, parts[i].dev);
		if (old && !(old->ctx == parts[i].ctx && old->lo <= parts[i].room_lo &&
		             parts[i].room_hi <= old->hi)) {
			vrt_dir_release_loc(m->dir, old->loc);
			vrt_replica_free(m, old);
		}
	}
	vrt_xfer x[VRT_MAX_DEVICES];
	vrt_replica *rep[VRT_MAX_DEVICES];
	cl_int err = CL_SUCCESS;
	for (unsigned i = 0; i < n && err == CL_SUCCESS; i++) {
		const vrt_spread_part *p = &parts[i];
		err = vrt_mem_replica_place(m, p->ctx, p->q, p->dev, p->room_lo, p->room_hi, &rep[i]);
		if (err == CL_SUCCESS)
			x[i] = (vrt_xfer){ rep[i]->ctx, rep[i]->q, rep[i]->buf, p->lo - rep[i]->lo,
			                   (unsigned char *)src + p->lo, p->hi - p->lo, 0 };
	}
	double t0 = vrt_now_ms();
	if (err == CL_SUCCESS)
		err = vrt_xfer_batch(x, n, 1);
	/* The windows written are the newest copies. */
	for (unsigned i = 0; i < n && err == CL_SUCCESS; i++)
		if (vrt_dir_wrote(m->dir, rep[i]->loc, parts[i].lo, parts[i].hi - parts[i].lo) != 0)
			err = CL_OUT_OF_HOST_MEMORY;
	if (err != CL_SUCCESS)
		return err;
	vrt_trace_host("spread", "", t0, vrt_now_ms(), 0, m->size);
	vrt_kstats *st = vrt_stats_for(NULL);
	if (st)
		st->h2d += m->size;
	m->failed[0] = '\0';
	return CL_SUCCESS;
}

/* The runs of one wanted range its replica lacks whose nearest holder
 * is the host copy (vrt_mem_bring_from_host). */
typedef struct wanting {
	const vrt_bring *b;
	vrt_xfer *x;
	size_t n, cap;
} wanting;

static int collect_wanted(void *u, size_t off, size_t n, vrt_locs valid)
{
	wanting *w = u;
	const vrt_replica *r = w->b->r;
	vrt_mem *m = w->b->m;
	/* The zeros of a buffer written by no one are the mover's to make
	 * on the device. */
	if (m->zero || (valid & VRT_LOC(r->loc)) ||
	    vrt_dir_nearest(m->dir, valid, r->loc) != VRT_DIR_HOST)
		return 0;
	if (VRT_GROW(&w->x, &w->cap, w->n + 1))
		return -1;
	w->x[w->n++] = (vrt_xfer){ r->ctx, r->q, r->buf, off - r->lo, m->host + off, n,
	                           m->pin.buf != NULL };
	return 0;
}

cl_int vrt_mem_bring_from_host(const vrt_bring *b, size_t n)
{
	wanting w = { 0 };
	size_t *first = vrt_malloc((n + 1) * sizeof *first);
	if (!first)
		return CL_OUT_OF_HOST_MEMORY;
	int e = 0;
	for (size_t i = 0; i < n && !e; i++) {
		first[i] = w.n;
		w.b = &b[i];
		if (b[i].m->dir && b[i].m->host && !b[i].m->parent && !b[i].m->nsubs)
			e = vrt_dir_walk(b[i].m->dir, b[i].off, b[i].n, collect_wanted, &w);
	}
	first[n] = w.n;
	cl_int err = e ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
	double t0 = vrt_now_ms();
	if (err == CL_SUCCESS && w.n)
		err = vrt_xfer_batch(w.x, w.n, 1);
	size_t moved = 0;
	for (size_t i = 0; i < n && err == CL_SUCCESS; i++)
		for (size_t k = first[i]; k < first[i + 1] && err == CL_SUCCESS; k++) {
			size_t off = (size_t)(w.x[k].host - b[i].m->host);
			if (vrt_dir_copied(b[i].m->dir, b[i].r->loc, off, w.x[k].n) != 0)
				err = CL_OUT_OF_HOST_MEMORY;
			moved += w.x[k].n;
		}
	vrt_free(first);
	vrt_free(w.x);
	vrt_kstats *st = vrt_stats_for(NULL);
	if (st && err == CL_SUCCESS)
		st->h2d += moved;
	if (moved)
		vrt_trace_host("spread", "", t0, vrt_now_ms(), 0, moved);
	return err;
}
