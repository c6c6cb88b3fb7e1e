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
#include <pthread.h>
#include <string.h>

#include "mem/mem.h"

/* One device's part of a transfer: its runs, read or written through
 * ring `ring`. */
typedef struct part {
	cl_context ctx;
	cl_command_queue q;
	unsigned ring;
	cl_int err;
} part;

/* A run of the transfer: [off, off + n) of the buffer, its part's copy
 * buf holding it at buf_off (part -1: the host copy; -2: the zeros). */
typedef struct run {
	size_t off, n, buf_off;
	cl_mem buf;
	int part;
} run;

typedef struct transfer {
	vrt_mem *m;
	unsigned char *mem;   /* the program's memory of byte `first` */
	const unsigned char *src;
	size_t first;
	run *run;
	size_t nrun, cap;
	part part[VRT_MAX_DEVICES];
	unsigned nparts;
	int refused;          /* a run only a frame pool holds */
} transfer;

typedef struct worker {
	transfer *t;
	unsigned p;
} worker;

/* The part of the copy in ctx through q, made when new. */
static int part_of(transfer *t, cl_context ctx, cl_command_queue q)
{
	for (unsigned i = 0; i < t->nparts; i++)
		if (t->part[i].q == q)
			return (int)i;
	if (t->nparts == VRT_MAX_DEVICES)
		return -1;
	t->part[t->nparts] = (part){ ctx, q, 0, CL_SUCCESS };
	return (int)t->nparts++;
}

static int add_run(transfer *t, run r)
{
	if (t->nrun == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		run *nr = vrt_realloc(t->run, cap * sizeof *nr);
		if (!nr)
			return -1;
		t->run = nr;
		t->cap = cap;
	}
	t->run[t->nrun++] = r;
	return 0;
}

/* A run of the directory: from the host copy where it holds it, else
 * from a device copy or replica holding it; the zeros where none does. */
static int collect(void *u, size_t off, size_t n, vrt_locs valid)
{
	transfer *t = u;
	run r = { off, n, 0, NULL, -2 };
	if (valid & VRT_LOC(VRT_DIR_HOST)) {
		r.part = -1;
	} else if (valid) {
		r.part = -3;
		for (int l = 1; l < VRT_DIR_MAX_LOCS && r.part == -3; l++) {
			cl_command_queue q;
			cl_context ctx;
			size_t base;
			if (!(valid & VRT_LOC(l)) || !vrt_mem_location(t->m, l, &r.buf, &q, &ctx, &base))
				continue;
			r.buf_off = off - base;
			if ((r.part = part_of(t, ctx, q)) < 0)
				return 1;
		}
		if (r.part == -3) { /* a frame pool's alone: only it moves them */
			t->refused = 1;
			return 1;
		}
	}
	return add_run(t, r) ? -1 : 0;
}

/* Part p's runs, each straight between its copy and the program's memory. */
static void *move_part(void *arg)
{
	worker *w = arg;
	transfer *t = w->t;
	part *p = &t->part[w->p];
	for (size_t i = 0; i < t->nrun && p->err == CL_SUCCESS; i++) {
		const run *r = &t->run[i];
		if (r->part != (int)w->p)
			continue;
		unsigned char *at = t->mem + (r->off - t->first);
		p->err = t->src ? vrt_ring_send_on(p->ring, p->ctx, p->q, r->buf, r->buf_off, at, r->n)
		                : vrt_ring_receive_on(p->ring, p->ctx, p->q, r->buf, r->buf_off, at, r->n);
	}
	return NULL;
}

/* Every part on a thread of its own but the first, on the caller's;
 * the first error. */
static cl_int move_parts(transfer *t)
{
	pthread_t tid[VRT_MAX_DEVICES];
	worker w[VRT_MAX_DEVICES];
	int started[VRT_MAX_DEVICES] = {0};
	/* Rings are claimed and pinned here, one after the other. */
	for (unsigned i = 0; i < t->nparts; i++) {
		t->part[i].ring = vrt_ring_claim(t->part[i].ctx);
		vrt_ring_usable(t->part[i].ctx, t->part[i].ring);
	}
	for (unsigned i = 0; i < t->nparts; i++) {
		w[i] = (worker){ t, i };
		if (i > 0)
			started[i] = !pthread_create(&tid[i], NULL, move_part, &w[i]);
	}
	for (unsigned i = 0; i < t->nparts; i++)
		if (!started[i])
			move_part(&w[i]); /* the first, or one whose thread did not start */
	cl_int err = CL_SUCCESS;
	for (unsigned i = 0; i < t->nparts; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		if (err == CL_SUCCESS)
			err = t->part[i].err;
	}
	return err;
}

int vrt_mem_read_spread(vrt_mem *m, size_t off, size_t n, void *dst, cl_int *err)
{
	if (!m->dir || m->parent || m->nsubs || !m->replicas)
		return 0;
	transfer t = { .m = m, .mem = dst, .first = off };
	int e = vrt_dir_walk(m->dir, off, n, collect, &t);
	if (e || t.refused || t.nparts < 2) {
		vrt_free(t.run);
		if (e == -1) {
			*err = CL_OUT_OF_HOST_MEMORY;
			return 1;
		}
		return 0; /* the host copy's way */
	}
	/* The program's array is often fresh (malloc'd for the result). */
	if (!m->host || (unsigned char *)dst != m->host + off)
		vrt_advise_huge(dst, n);
	double t0 = vrt_now_ms();
	*err = move_parts(&t);
	size_t moved = 0;
	for (size_t i = 0; i < t.nrun && *err == CL_SUCCESS; i++) {
		const run *r = &t.run[i];
		unsigned char *at = t.mem + (r->off - off);
		if (r->part == -1)
			vrt_copy(at, m->host + r->off, r->n);
		else if (r->part == -2)
			vrt_fill(at, "", 1, r->n);
		else
			moved += r->n;
	}
	vrt_free(t.run);
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
	transfer t = { .m = m, .mem = (unsigned char *)src, .src = src };
	vrt_replica *rep[VRT_MAX_DEVICES];
	cl_int err = CL_SUCCESS;
	for (unsigned i = 0; i < n && err == CL_SUCCESS; i++) {
		const vrt_spread_part *p = &parts[i];
		err = vrt_mem_replica_place(m, p->ctx, p->q, p->dev, p->lo, p->hi, &rep[i]);
		int k = err == CL_SUCCESS ? part_of(&t, rep[i]->ctx, rep[i]->q) : -1;
		if (err == CL_SUCCESS && (k < 0 || add_run(&t, (run){ p->lo, p->hi - p->lo,
		                                                      p->lo - rep[i]->lo,
		                                                      rep[i]->buf, k })))
			err = CL_OUT_OF_HOST_MEMORY;
	}
	double t0 = vrt_now_ms();
	if (err == CL_SUCCESS)
		err = move_parts(&t);
	/* The windows written are the newest copies. */
	for (unsigned i = 0; i < n && err == CL_SUCCESS; i++)
		if (vrt_dir_wrote(m->dir, rep[i]->loc, parts[i].lo, parts[i].hi - parts[i].lo) != 0)
			err = CL_OUT_OF_HOST_MEMORY;
	vrt_free(t.run);
	if (err != CL_SUCCESS)
		return err;
	vrt_trace_host("spread", "", t0, vrt_now_ms(), 0, m->size);
	vrt_kstats *st = vrt_stats_for(NULL);
	if (st)
		st->h2d += m->size;
	m->failed[0] = '\0';
	return CL_SUCCESS;
}
