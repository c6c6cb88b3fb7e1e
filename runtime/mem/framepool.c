/* SPDX-License-Identifier: MIT */
/*
 * framepool.c - the device buffers of paged launches, kept between them
 * (frames kept across launches).
 *
 * A paged launch needs, per frame set, its frame buffers, an LPT buffer
 * and a fault word, and one dummy page; making and backing them costs a
 * driver allocation and a one-byte write each (paged/sets.c, backed_buffer),
 * every launch. So a launch that finished gives them here, one pool per
 * context and device, and the next paged launch there takes them and
 * keeps each buffer at least as large as the one it needs, within its
 * budget; it makes the others. A frame keeps its place in a buffer kept,
 * so what the residency map says of it stays true.
 *
 * The pool counts against the budget like the device copies of mem.c,
 * and is evicted by the same policy (room.c) in two parts that can go
 * alone: the frame sets (with the dummy page and the kept tables: a
 * plan uses them together) and the hold. Released whole, too, when a
 * launch runs out of device memory (it took the pool first). The pages the frames hold (the
 * residency map, residency.c) go with the buffers: released with them,
 * forgotten when a buffer they lie in is dropped; those newer than the
 * host copy (what a launch wrote and left there) written home before
 * either. A pool is a location of the directory of every buffer it
 * holds pages of (poolloc.c): the host needing bytes only a pool holds
 * brings them home through the pool's home (vrt_framepool_move). The hold
 * (paged/keeps.c, choose_hold) is the pool's too, but no set's: fitting the
 * sets leaves it and its pages alone. The context outlives
 * the pool: the runtime's own queues hold it until exit. Lock held throughout.
 */
#include <string.h>

#include "mem/mem.h"

typedef struct pool {
	cl_context ctx;
	cl_device_id dev;
	vrt_devsets sets;
	unsigned long long used;    /* when a launch last gave it (vrt_evict_tick) */
	struct pool *next;
} pool;
static pool *pools;

/* A frame set's device buffers and events given back (not cleared). */
static void release_set(vrt_devset *s)
{
	for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
		if (s->frames[b])
			vrt_real.clReleaseMemObject(s->frames[b]);
	if (s->lptbuf)
		vrt_real.clReleaseMemObject(s->lptbuf);
	if (s->fault)
		vrt_real.clReleaseMemObject(s->fault);
	vrt_free(s->lpt_held);
	if (s->busy)
		vrt_real.clReleaseEvent(s->busy);
	if (s->unread)
		vrt_real.clReleaseEvent(s->unread);
}

static unsigned long long sets_bytes(const vrt_devsets *d)
{
	unsigned long long n = (d->dummy ? d->dummy_bytes : 0) + (d->hold ? d->hold_bytes : 0);
	for (unsigned i = 0; i < d->nsets; i++) {
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
			if (d->set[i].frames[b])
				n += d->set[i].frame_bytes[b];
		n += d->set[i].lpt_bytes + sizeof(cl_uint);
	}
	for (unsigned i = 0; i < VRT_DEVLPTS_KEPT; i++)
		n += d->lpts[i].bytes;
	return n;
}

void vrt_devlpts_release(vrt_devlpts *t)
{
	for (size_t r = 0; t->range && r < t->n; r++)
		if (t->range[r])
			vrt_real.clReleaseMemObject(t->range[r]);
	vrt_free(t->range);
	memset(t, 0, sizeof *t);
}

void vrt_devsets_release(vrt_devsets *d)
{
	vrt_pool_release_locs(d);
	vrt_res_clear(&d->res);
	vrt_hold_free(d);
	if (d->dummy)
		vrt_real.clReleaseMemObject(d->dummy);
	if (d->hold)
		vrt_real.clReleaseMemObject(d->hold);
	for (unsigned i = 0; i < VRT_DEVLPTS_KEPT; i++)
		vrt_devlpts_release(&d->lpts[i]);
	for (unsigned i = 0; i < VRT_MAX_SETS; i++)
		release_set(&d->set[i]);
	memset(d, 0, sizeof *d);
}

static pool **find(cl_context ctx, cl_device_id dev)
{
	pool **pp = &pools;
	while (*pp && ((*pp)->ctx != ctx || (*pp)->dev != dev))
		pp = &(*pp)->next;
	return pp;
}

vrt_devsets *vrt_framepool_peek(cl_context ctx, cl_device_id dev)
{
	pool *p = *find(ctx, dev);
	return p ? &p->sets : NULL;
}

void vrt_framepool_take(cl_context ctx, cl_device_id dev, vrt_devsets *out)
{
	pool **pp = find(ctx, dev), *p = *pp;
	memset(out, 0, sizeof *out);
	if (!p)
		return;
	*pp = p->next;
	*out = p->sets;
	vrt_free(p);
}

/* dry: only says what fitting would drop (vrt_devsets_fit_keeps). */
static void drop(cl_mem *m, int dry)
{
	if (*m && !dry)
		vrt_real.clReleaseMemObject(*m);
	*m = NULL;
}

/* Drops have's buffer *m of `bytes` unless it holds `want` bytes; returns
 * the device bytes the launch will hold for it, kept or made anew. */
static size_t fit_one(cl_mem *m, size_t bytes, size_t want, int dry)
{
	if (*m && bytes < want)
		drop(m, dry);
	return *m ? bytes : want;
}

/* While *total passes the budget, a kept buffer larger than wanted is
 * dropped (made anew at the size wanted). */
static void shrink_one(cl_mem *m, size_t bytes, size_t want, unsigned long long budget,
                       unsigned long long *total, int dry)
{
	if (*total > budget && *m && bytes > want) {
		drop(m, dry);
		*total -= bytes - want;
	}
}

static void fit(vrt_devsets *have, const vrt_devsets *want, unsigned long long budget, int dry)
{
	cl_mem before[VRT_MAX_SETS][VAST_FRAME_BUFS];
	for (unsigned i = 0; i < VRT_MAX_SETS; i++)
		memcpy(before[i], have->set[i].frames, sizeof before[i]);
	unsigned long long total = fit_one(&have->dummy, have->dummy_bytes, want->dummy_bytes, dry);
	for (unsigned i = 0; i < VRT_MAX_SETS; i++) {
		vrt_devset *h = &have->set[i];
		const vrt_devset *w = &want->set[i];
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++) {
			if (i >= want->nsets || !w->frame_bytes[b])
				drop(&h->frames[b], dry);
			total += fit_one(&h->frames[b], h->frame_bytes[b], w->frame_bytes[b], dry);
		}
		if (i >= want->nsets) {
			drop(&h->lptbuf, dry);
			drop(&h->fault, dry);
			continue;
		}
		total += fit_one(&h->lptbuf, h->lpt_bytes, w->lpt_bytes, dry) + sizeof(cl_uint);
	}
	/* The plan's own sizes fit the budget: dropping every larger buffer
	 * kept would bring the total within it, and usually a few do. */
	shrink_one(&have->dummy, have->dummy_bytes, want->dummy_bytes, budget, &total, dry);
	for (unsigned i = 0; i < want->nsets; i++) {
		vrt_devset *h = &have->set[i];
		const vrt_devset *w = &want->set[i];
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
			shrink_one(&h->frames[b], h->frame_bytes[b], w->frame_bytes[b], budget, &total, dry);
		shrink_one(&h->lptbuf, h->lpt_bytes, w->lpt_bytes, budget, &total, dry);
	}
	have->nsets = want->nsets;
	if (dry)
		return;
	/* A frame buffer dropped takes its pages with it; the map names
	 * frames by set and buffer, so forget it all rather than guess.
	 * The hold is no set's: its pages (hold.c) stay. */
	for (unsigned i = 0; i < VRT_MAX_SETS; i++)
		if (memcmp(before[i], have->set[i].frames, sizeof before[i])) {
			vrt_pool_forget_frames(have);
			vrt_res_clear(&have->res);
		}
}

void vrt_devsets_fit(vrt_devsets *have, const vrt_devsets *want, unsigned long long budget)
{
	fit(have, want, budget, 0);
}

int vrt_devsets_fit_keeps(const vrt_devsets *have, const vrt_devsets *want,
                          unsigned long long budget)
{
	vrt_devsets d = *have;
	fit(&d, want, budget, 1);
	for (unsigned i = 0; i < VRT_MAX_SETS; i++)
		if (memcmp(d.set[i].frames, have->set[i].frames, sizeof d.set[i].frames))
			return 0;
	return 1;
}

void vrt_framepool_give(cl_context ctx, cl_device_id dev, vrt_devsets *sets)
{
	pool **pp = find(ctx, dev), *p = *pp;
	if (p) {
		*pp = p->next;
		if (p->sets.home)
			p->sets.home(&p->sets, ctx, dev, NULL, 0);
		vrt_devsets_release(&p->sets);
		vrt_free(p);
	}
	if (!(p = vrt_calloc(1, sizeof *p))) {
		vrt_devsets_release(sets); /* not kept: the next launch makes its own */
		return;
	}
	p->ctx = ctx;
	p->dev = dev;
	p->used = vrt_evict_tick();
	p->sets = *sets;
	memset(sets, 0, sizeof *sets);
	p->next = pools;
	pools = p;
}

unsigned long long vrt_framepool_bytes(void)
{
	unsigned long long n = 0;
	for (pool *p = pools; p; p = p->next)
		n += sets_bytes(&p->sets);
	return n;
}

cl_int vrt_framepool_write_home(vrt_mem *m)
{
	cl_int err = CL_SUCCESS;
	for (pool *p = pools; p && !err; p = p->next)
		if ((!m || p->ctx == m->ctx) && p->sets.home)
			err = p->sets.home(&p->sets, p->ctx, p->dev, m, 0);
	return err;
}

int vrt_framepool_newer(const vrt_mem *m)
{
	vrt_locs own = VRT_LOC(VRT_DIR_HOST) | (m->dev_loc >= 0 ? VRT_LOC(m->dev_loc) : 0);
	if (!m->dir || !(m->dir->used & ~own))
		return 0; /* no location but its own copies: no pool's */
	if (vrt_dir_holders(m->dir, m->origin, m->size) & VRT_LOC(VRT_DIR_HOST))
		return 0; /* the host holds every byte: nothing newer anywhere */
	for (pool *p = pools; p; p = p->next)
		if (p->ctx == m->ctx && vrt_pool_any_newer(&p->sets, m))
			return 1;
	return 0;
}

cl_int vrt_framepool_move(vrt_mem *root, int l, size_t off, size_t n)
{
	(void)off;
	(void)n;
	for (pool *p = pools; p; p = p->next)
		for (unsigned i = 0; i < p->sets.nlocs; i++) {
			vrt_mem *m = vrt_pool_live(&p->sets.locs[i]);
			if (m && m->dir == root->dir && p->sets.locs[i].loc == l)
				return p->sets.home ? p->sets.home(&p->sets, p->ctx, p->dev, m, 1)
				                    : CL_INVALID_MEM_OBJECT;
		}
	return CL_INVALID_MEM_OBJECT; /* a location no pool has: a bug */
}

void vrt_framepool_each_part(void (*fn)(void *arg, const vrt_pool_part *part), void *arg)
{
	for (pool *p = pools; p; p = p->next) {
		unsigned long long all = sets_bytes(&p->sets), hold = p->sets.hold ? p->sets.hold_bytes : 0;
		vrt_pool_part part = {p->ctx, p->dev, 0, all - hold, p->used, 0};
		if (part.bytes)
			fn(arg, &part);
		if (hold) {
			part.hold = 1;
			part.bytes = hold;
			part.hold_serial = p->sets.hold_serial;
			fn(arg, &part);
		}
	}
}

/* Releases the frame sets of d, with the dummy page and the kept tables,
 * and the pages they hold; the hold stays. */
static void release_sets(vrt_devsets *d)
{
	vrt_pool_forget_frames(d);
	vrt_res_clear(&d->res);
	if (d->dummy)
		vrt_real.clReleaseMemObject(d->dummy);
	d->dummy = NULL;
	d->dummy_bytes = 0;
	for (unsigned i = 0; i < VRT_DEVLPTS_KEPT; i++)
		vrt_devlpts_release(&d->lpts[i]);
	for (unsigned i = 0; i < VRT_MAX_SETS; i++) {
		release_set(&d->set[i]);
		memset(&d->set[i], 0, sizeof d->set[i]);
	}
	d->nsets = 0;
}

void vrt_framepool_release_part(const vrt_pool_part *part)
{
	pool **pp = find(part->ctx, part->dev), *p = *pp;
	if (!p)
		return;
	/* Newer pages go home first, the hold's and the frames' (the home
	 * writes both); those that cannot, their buffers refused. */
	if (p->sets.home)
		p->sets.home(&p->sets, p->ctx, p->dev, NULL, 0);
	if (part->hold && p->sets.hold) {
		vrt_pool_forget_hold(&p->sets);
		vrt_hold_free(&p->sets);
		vrt_real.clReleaseMemObject(p->sets.hold);
		p->sets.hold = NULL;
		p->sets.hold_bytes = 0;
	} else if (!part->hold) {
		release_sets(&p->sets);
	}
	if (p->sets.hold || p->sets.nsets || p->sets.dummy)
		return;
	*pp = p->next;
	vrt_devsets_release(&p->sets);
	vrt_free(p);
}

void vrt_framepool_release(void)
{
	/* Dirty pages go home first; those that cannot, their buffers
	 * refused (the sets' home, paged/writeback.c). */
	vrt_framepool_write_home(NULL);
	while (pools) {
		pool *p = pools;
		pools = p->next;
		vrt_devsets_release(&p->sets);
		vrt_free(p);
	}
}
