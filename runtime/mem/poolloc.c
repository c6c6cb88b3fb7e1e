/* SPDX-License-Identifier: MIT */
/*
 * poolloc.c - a frame pool as a location of the memory directory.
 *
 * A frame pool (framepool.c: the frame sets and the hold kept for one
 * context and device) registers a location in the directory of every
 * buffer it holds pages of (directory.h). The residency map and the hold
 * (residency.c, hold.c) say which frame holds a page; the directory says
 * whether that copy is current: the location holds the page's bytes.
 * Every path that changes the bytes elsewhere (a host write, fill or map
 * for writing, a native launch writing the device copy, a paged launch
 * writing them home) makes the pool's copy of exactly those bytes stale
 * through the directory, with no stamp to compare. A page only the pool
 * holds is newer there (a launch wrote it and left it in the frames,
 * lazy write-back): it goes home before the host needs it, before its
 * frame is reused and before the pool goes (vrt_pool_newer_runs lists
 * them by frame, the sets' home writes them, vrt_pool_homed records
 * it). Where a device copy holds the bytes too, mem.c's own paths bring
 * them (a lent USE_HOST_PTR buffer mapped back); where the directory
 * picks the pool to bring bytes home from, every page of the range it
 * holds goes (VRT_POOL_MOVE, vrt_framepool_move).
 *
 * The invariant the paged path keeps (paged/): the location holds the
 * bytes of a page only where the hold or the residency map has the page,
 * and never both have it; an entry of either whose bytes the location
 * does not hold is stale, and harmless (never used, overwritten later).
 *
 * A pool location sits on no device the directory knows (device and
 * context VRT_POOL_NEAR): no copy is ever planned pool to pool, and a
 * device copy takes bytes from the host before a pool. Only buffers
 * outside sub-buffer families have pages in the pools (paged/writeback.c,
 * may_reside), so a location is of the buffer's own directory: it goes
 * with the buffer when the buffer is released, and is released with the
 * pool (vrt_pool_release_locs), or when the pool drops the buffer's
 * last page (vrt_pool_forget_frames, vrt_pool_forget_hold). An entry
 * names its buffer by handle and serial, checked live before use
 * (vrt_pool_live: mem.c uses this file, not the other way). Lock held
 * throughout.
 */
#include <string.h>

#include "mem/mem.h"

#define VRT_POOL_NEAR (-2)

static struct vrt_pool_loc *entry_of(const vrt_devsets *d, unsigned long long serial)
{
	for (unsigned i = 0; i < d->nlocs; i++)
		if (d->locs[i].serial == serial)
			return &d->locs[i];
	return NULL;
}

vrt_mem *vrt_pool_live(const struct vrt_pool_loc *e)
{
	vrt_mem *m = vrt_mem_of(e->mem);
	return m && m->serial == e->serial ? m : NULL;
}

/* The live buffer of `serial` d has a location of, NULL: none. */
static vrt_mem *buffer_of(const vrt_devsets *d, unsigned long long serial)
{
	const struct vrt_pool_loc *e = entry_of(d, serial);
	return e ? vrt_pool_live(e) : NULL;
}

int vrt_pool_find(const vrt_devsets *d, const vrt_mem *m)
{
	const struct vrt_pool_loc *e = m->dir ? entry_of(d, m->serial) : NULL;
	return e ? e->loc : -1;
}

int vrt_pool_loc(vrt_devsets *d, vrt_mem *m)
{
	int l = vrt_pool_find(d, m);
	if (l >= 0)
		return l;
	if (!m->dir || m->parent)
		return -1;
	/* The entry of a buffer released since is free. */
	struct vrt_pool_loc *e = NULL;
	for (unsigned i = 0; i < d->nlocs && !e; i++)
		if (!vrt_pool_live(&d->locs[i]))
			e = &d->locs[i];
	if (!e && d->nlocs == d->locs_cap) {
		unsigned cap = d->locs_cap ? 2 * d->locs_cap : 4;
		struct vrt_pool_loc *n = vrt_realloc(d->locs, cap * sizeof *n);
		if (!n)
			return -1;
		d->locs = n;
		d->locs_cap = cap;
	}
	if ((l = vrt_dir_add_loc(m->dir, VRT_POOL_NEAR, VRT_POOL_NEAR)) < 0)
		return -1;
	if (!e)
		e = &d->locs[d->nlocs++];
	*e = (struct vrt_pool_loc){m, m->serial, l};
	return l;
}

/* Pages p..p+n-1 of m as a range of its directory (clipped to m). */
static void pages(const vrt_mem *m, size_t p, size_t n, unsigned sh, size_t *off, size_t *len)
{
	size_t at = p << sh, end = (p + n) << sh;
	if (at > m->size)
		at = m->size;
	if (end > m->size)
		end = m->size;
	*off = m->origin + at;
	*len = end - at;
}

int vrt_pool_holds(const vrt_mem *m, int l, size_t p, unsigned sh)
{
	size_t off, n;
	pages(m, p, 1, sh, &off, &n);
	return l >= 0 && n && (vrt_dir_holders(m->dir, off, n) & VRT_LOC(l));
}

void vrt_pool_pages(const vrt_mem *m, int l, size_t p, size_t n, unsigned sh, unsigned char *out)
{
	size_t off, len;
	pages(m, p, n, sh, &off, &len);
	size_t within = len ? ((len - 1) >> sh) + 1 : 0;
	vrt_dir_pages(m->dir, l, off, len, sh, out);
	memset(out + within, 0, n - within);
}

/* The runs of pages of a walk location l holds some byte of, a page
 * met by two runs of the directory joined into one. */
typedef struct some {
	int l;
	size_t base;
	unsigned sh;
	size_t a, b;                /* the run not yet given, a == b: none */
	void (*fn)(void *ctx, size_t a, size_t b);
	void *ctx;
} some;

static int some_run(void *u, size_t off, size_t n, vrt_locs valid)
{
	some *g = u;
	if (!(valid & VRT_LOC(g->l)))
		return 0;
	size_t first = (off - g->base) >> g->sh, end = ((off - g->base + n - 1) >> g->sh) + 1;
	if (g->a < g->b && first <= g->b) {
		g->b = end;
		return 0;
	}
	if (g->a < g->b)
		g->fn(g->ctx, g->a, g->b);
	g->a = first;
	g->b = end;
	return 0;
}

void vrt_pool_some_runs(const vrt_mem *m, int l, size_t p, size_t n, unsigned sh,
                        void (*fn)(void *ctx, size_t a, size_t b), void *ctx)
{
	size_t off, len;
	if (l < 0 || l >= VRT_DIR_MAX_LOCS || !m->dir || !(m->dir->used & VRT_LOC(l)))
		return;
	pages(m, p, n, sh, &off, &len);
	/* pages counted from m's page 0: base is its origin */
	some g = {l, m->origin, sh, 0, 0, fn, ctx};
	if (len)
		vrt_dir_walk(m->dir, off, len, some_run, &g);
	if (g.a < g.b)
		fn(ctx, g.a, g.b);
}

/* Bytes of a walk that location *u alone holds. */
typedef struct sole {
	int l;
	size_t bytes;
} sole;

static int sole_run(void *u, size_t off, size_t n, vrt_locs valid)
{
	(void)off;
	sole *s = u;
	if (valid == VRT_LOC(s->l))
		s->bytes += n;
	return 0;
}

static size_t sole_bytes(const vrt_dir *d, int l, size_t off, size_t n)
{
	sole s = {l, 0};
	vrt_dir_walk(d, off, n, sole_run, &s);
	return s.bytes;
}

int vrt_pool_copied(vrt_mem *m, int l, size_t p, size_t n, unsigned sh)
{
	size_t off, len;
	pages(m, p, n, sh, &off, &len);
	return vrt_dir_copied(m->dir, l, off, len);
}

int vrt_pool_wrote(vrt_mem *m, int l, size_t p, size_t n, unsigned sh)
{
	size_t off, len;
	pages(m, p, n, sh, &off, &len);
	return vrt_dir_wrote(m->dir, l, off, len);
}

int vrt_pool_forget(vrt_mem *m, int l, size_t p, size_t n, unsigned sh)
{
	size_t off, len;
	pages(m, p, n, sh, &off, &len);
	return vrt_dir_forget(m->dir, l, off, len);
}

/* The pages of newer runs gathered as the directory is walked. */
typedef struct gather {
	const vrt_devsets *d;
	const vrt_mem *m;
	int l, where;
	int (*want)(const vrt_resident *, void *);
	void *ctx;
	size_t next;      /* pages before it were looked at */
	vrt_res_run *runs;
	size_t n, cap;
	int oom;
} gather;

static int append(gather *g, const vrt_resident *e)
{
	vrt_res_run *u = g->n ? &g->runs[g->n - 1] : NULL;
	if (u && u->serial == e->serial && u->set == e->set && u->buf == e->buf &&
	    u->page + u->n == e->page && u->frame + u->n == e->frame) {
		u->n++;
		return 0;
	}
	if (VRT_GROW(&g->runs, &g->cap, g->n + 1)) {
		g->oom = 1;
		return 1;
	}
	g->runs[g->n++] = (vrt_res_run){e->serial, e->page, e->frame, 1, e->set, e->buf};
	return 0;
}

/* A run of the directory: its pages, where l alone holds them (with
 * VRT_POOL_MOVE: where l holds them and the host does not), are listed
 * by the frame that has them. */
static int newer_run(void *u, size_t off, size_t n, vrt_locs valid)
{
	gather *g = u;
	if ((g->where & VRT_POOL_MOVE) ? !(valid & VRT_LOC(g->l)) || (valid & VRT_LOC(VRT_DIR_HOST))
	                               : valid != VRT_LOC(g->l))
		return 0;
	const vrt_devsets *d = g->d;
	const vrt_mem *m = g->m;
	unsigned sh = d->res.page_shift;
	int hold = d->held && d->hold_serial == m->serial;
	size_t first = (off - m->origin) >> sh, last = (off - m->origin + n - 1) >> sh;
	for (size_t p = first > g->next ? first : g->next; p <= last; p++) {
		vrt_resident e;
		if (hold && vrt_hold_has(d, m->serial, p)) {
			if (!(g->where & VRT_POOL_HOLD)) {
				/* The frames' pages only: the hold's are passed
				 * over at once (a hold of pages newer there is
				 * walked every range: write_lost_home). */
				p = vrt_hold_lacks(d, m->serial, p, last + 1) - 1;
				continue;
			}
			e = (vrt_resident){m->serial, p, VRT_HOLD_SET, 0, p};
		} else {
			const vrt_resident *r = vrt_res_find(&d->res, m->serial, p);
			if (!r || !(g->where & VRT_POOL_FRAMES) || (g->want && !g->want(r, g->ctx)))
				continue;
			e = *r;
		}
		if (append(g, &e))
			return 1;
	}
	g->next = last + 1;
	return 0;
}

size_t vrt_pool_newer_runs(const vrt_devsets *d, const vrt_mem *only, int where,
                           int (*want)(const vrt_resident *, void *), void *ctx,
                           vrt_res_run **runs)
{
	gather g = {d, NULL, -1, where, want, ctx, 0, NULL, 0, 0, 0};
	*runs = NULL;
	for (unsigned i = 0; i < d->nlocs && !g.oom; i++) {
		const vrt_mem *m = vrt_pool_live(&d->locs[i]);
		/* a location that holds no byte the host lacks has none of
		 * these pages: no walk (most ranges of a launch ask) */
		if (!m || !m->dir || (only && m->dir != only->dir) || !m->dir->dirty[d->locs[i].loc])
			continue;
		/* the hold's pages are of the frames' size (paged/sets.c,
		 * make_sets) */
		g.m = m;
		g.l = d->locs[i].loc;
		g.next = 0;
		vrt_dir_walk(m->dir, m->origin, m->size, newer_run, &g);
	}
	if (g.oom) {
		vrt_free(g.runs);
		return (size_t)-1;
	}
	*runs = g.runs;
	return g.n;
}

void vrt_pool_homed(const vrt_devsets *d, const vrt_res_run *runs, size_t n)
{
	vrt_mem *m = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!m || m->serial != runs[i].serial)
			m = buffer_of(d, runs[i].serial);
		/* Out of memory the host is not recorded: the pages go home
		 * again, harmlessly, next time. */
		if (m && m->dir)
			vrt_pool_copied(m, VRT_DIR_HOST, runs[i].page, runs[i].n, d->res.page_shift);
	}
}

int vrt_pool_any_newer(const vrt_devsets *d, const vrt_mem *m)
{
	for (unsigned i = 0; m->dir && i < d->nlocs; i++) {
		const vrt_mem *x = vrt_pool_live(&d->locs[i]);
		int l = d->locs[i].loc;
		if (x && x->dir == m->dir && m->dir->dirty[l] && sole_bytes(m->dir, l, m->origin, m->size))
			return 1;
	}
	return 0;
}

/* Entry i goes, its location released (what only it held lost), and
 * with it every page of its buffer d indexes. */
static void drop_entry(vrt_devsets *d, unsigned i, vrt_mem *m)
{
	if (m) {
		vrt_dir_release_loc(m->dir, d->locs[i].loc);
		if (d->held && d->hold_serial == m->serial)
			memset(d->held, 0, d->hold_pages);
	}
	d->locs[i] = d->locs[--d->nlocs];
}

static int of_serial(const vrt_resident *e, void *ctx)
{
	return e->serial == *(const unsigned long long *)ctx;
}

void vrt_pool_drop_loc(vrt_devsets *d, vrt_mem *m)
{
	struct vrt_pool_loc *e = m->dir ? entry_of(d, m->serial) : NULL;
	if (!e)
		return;
	drop_entry(d, (unsigned)(e - d->locs), m);
	vrt_res_drop_if(&d->res, of_serial, &m->serial);
}

/* Forgets l's copies of the runs of pages the hold has (want 1) or
 * lacks (want 0) among its pages; -1 out of memory. */
static int forget_held(vrt_devsets *d, vrt_mem *m, int l, int want)
{
	unsigned sh = d->hold_shift;
	for (size_t p = 0; p < d->hold_pages;) {
		size_t q = p;
		while (q < d->hold_pages && !d->held[q] == !want)
			q++;
		if (q > p && vrt_pool_forget(m, l, p, q - p, sh))
			return -1;
		while (q < d->hold_pages && !d->held[q] != !want)
			q++;
		p = q;
	}
	return 0;
}

void vrt_pool_forget_hold(vrt_devsets *d)
{
	vrt_mem *m = d->held ? buffer_of(d, d->hold_serial) : NULL;
	struct vrt_pool_loc *e = m && m->dir ? entry_of(d, m->serial) : NULL;
	if (!e)
		return;
	/* With no page of m left in the frames either, the location goes
	 * (out of memory forgetting, too: whole). */
	unsigned long long serial = m->serial;
	int none = 1;
	for (size_t i = 0; i < d->res.cap && none; i++)
		none = d->res.tab[i].serial != serial;
	if (none || forget_held(d, m, e->loc, 1))
		drop_entry(d, (unsigned)(e - d->locs), m);
	memset(d->held, 0, d->hold_pages);
}

void vrt_pool_forget_frames(vrt_devsets *d)
{
	for (unsigned i = 0; i < d->nlocs;) {
		vrt_mem *m = vrt_pool_live(&d->locs[i]);
		int l = d->locs[i].loc;
		/* A buffer the hold has no page of: the pool drops its last
		 * page, and its location goes. */
		if (!m || !d->held || d->hold_serial != m->serial ||
		    !memchr(d->held, 1, d->hold_pages)) {
			drop_entry(d, i, m);
			continue;
		}
		/* every run of pages the hold does not have, and what lies
		 * past its pages */
		size_t sh = d->hold_shift;
		int err = forget_held(d, m, l, 0);
		if (!err && ((size_t)d->hold_pages << sh) < m->size)
			err = vrt_pool_forget(m, l, d->hold_pages,
			                      ((m->size - 1) >> sh) + 1 - d->hold_pages, (unsigned)sh);
		if (err) { /* out of memory: the location goes whole */
			drop_entry(d, i, m);
			continue;
		}
		i++;
	}
}

void vrt_pool_release_locs(vrt_devsets *d)
{
	for (unsigned i = 0; i < d->nlocs; i++) {
		vrt_mem *m = vrt_pool_live(&d->locs[i]);
		if (m)
			vrt_dir_release_loc(m->dir, d->locs[i].loc);
	}
	vrt_free(d->locs);
	d->locs = NULL;
	d->nlocs = d->locs_cap = 0;
}
