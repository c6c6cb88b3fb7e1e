/* SPDX-License-Identifier: MIT */
/*
 * directory.c - where a buffer's bytes live: runs of bytes and the
 * locations holding each (directory.h). Every transition is one pass
 * that splits the runs at the range's ends, changes the sets inside and
 * joins equal neighbours again, so a buffer touched in a few places has
 * a few runs however large it is. The same pass keeps each location's
 * count of the bytes it holds that the host lacks, which the paged path
 * asks every range (is there anything to write home?) and must not pay
 * a walk for.
 */
#include <stdlib.h>
#include <string.h>

#include "directory.h"

int vrt_dir_init(vrt_dir *d, size_t size)
{
	memset(d, 0, sizeof *d);
	d->size = size;
	d->used = VRT_LOC(VRT_DIR_HOST);
	d->device[VRT_DIR_HOST] = -1;
	d->context[VRT_DIR_HOST] = -1;
	if (!size)
		return 0;
	d->cap = 4;
	d->run = malloc(d->cap * sizeof *d->run);
	if (!d->run)
		return -1;
	d->run[0] = (vrt_dir_run){0, size, 0};
	d->nrun = 1;
	return 0;
}

void vrt_dir_fini(vrt_dir *d)
{
	free(d->run);
	memset(d, 0, sizeof *d);
}

int vrt_dir_add_loc(vrt_dir *d, int device, int context)
{
	for (int l = 0; l < VRT_DIR_MAX_LOCS; l++)
		if (!(d->used & VRT_LOC(l))) {
			d->used |= VRT_LOC(l);
			d->device[l] = device;
			d->context[l] = context;
			return l;
		}
	return -1;
}

/* The run holding byte `off` (off < size). */
static unsigned run_at(const vrt_dir *d, size_t off)
{
	unsigned lo = 0, hi = d->nrun;
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		if (d->run[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Splits the run holding `at` so that a run starts there (at < size);
 * capacity for it was reserved. Returns that run's index. */
static unsigned split_at(vrt_dir *d, size_t at)
{
	unsigned i = run_at(d, at);
	if (d->run[i].off == at)
		return i;
	memmove(&d->run[i + 2], &d->run[i + 1], (d->nrun - i - 1) * sizeof *d->run);
	d->run[i + 1] = d->run[i];
	d->run[i].end = at;
	d->run[i + 1].off = at;
	d->nrun++;
	return i + 1;
}

/* Joins equal neighbours among runs [from, to] (indexes clipped). */
static void join(vrt_dir *d, unsigned from, unsigned to)
{
	if (to >= d->nrun)
		to = d->nrun - 1;
	unsigned w = from;
	for (unsigned r = from + 1; r <= to; r++) {
		if (d->run[r].valid == d->run[w].valid)
			d->run[w].end = d->run[r].end;
		else
			d->run[++w] = d->run[r];
	}
	unsigned gone = to - w;
	if (gone) {
		memmove(&d->run[w + 1], &d->run[to + 1], (d->nrun - to - 1) * sizeof *d->run);
		d->nrun -= gone;
	}
}

int vrt_dir_reserve(vrt_dir *d, unsigned runs)
{
	if (runs + 2 <= d->cap)
		return 0;
	vrt_dir_run *r = realloc(d->run, (runs + 2) * sizeof *r);
	if (!r)
		return -1;
	d->run = r;
	d->cap = runs + 2;
	return 0;
}

/* n bytes held by `valid` count (sign 1) or no longer count (-1) as
 * dirty bytes of its locations: where the host lacks them. */
static void count_dirty(vrt_dir *d, vrt_locs valid, size_t n, int sign)
{
	if (valid & VRT_LOC(VRT_DIR_HOST))
		return;
	for (vrt_locs v = valid; v; v &= v - 1) {
		size_t *c = &d->dirty[__builtin_ctz(v)];
		*c = sign > 0 ? *c + n : *c - n;
	}
}

/* valid = (valid & keep) | add over [off, off + n). */
static int update(vrt_dir *d, size_t off, size_t n, vrt_locs keep, vrt_locs add)
{
	if (!n)
		return 0;
	if (d->nrun + 2 > d->cap && vrt_dir_reserve(d, d->cap * 2))
		return -1;
	unsigned first = split_at(d, off);
	unsigned last = off + n < d->size ? split_at(d, off + n) : d->nrun;
	for (unsigned i = first; i < last; i++) {
		vrt_dir_run *r = &d->run[i];
		vrt_locs was = r->valid;
		r->valid = (was & keep) | add;
		if (r->valid != was) {
			count_dirty(d, was, r->end - r->off, -1);
			count_dirty(d, r->valid, r->end - r->off, 1);
		}
	}
	join(d, first ? first - 1 : 0, last);
	return 0;
}

int vrt_dir_wrote(vrt_dir *d, int l, size_t off, size_t n)
{
	return update(d, off, n, 0, VRT_LOC(l));
}

int vrt_dir_copied(vrt_dir *d, int l, size_t off, size_t n)
{
	return update(d, off, n, ~(vrt_locs)0, VRT_LOC(l));
}

int vrt_dir_walk(const vrt_dir *d, size_t off, size_t n, vrt_dir_fn fn, void *u)
{
	if (!n)
		return 0;
	size_t end = off + n;
	for (unsigned i = run_at(d, off); i < d->nrun && d->run[i].off < end; i++) {
		size_t a = d->run[i].off > off ? d->run[i].off : off;
		size_t b = d->run[i].end < end ? d->run[i].end : end;
		int r = fn(u, a, b - a, d->run[i].valid);
		if (r)
			return r;
	}
	return 0;
}

typedef struct tally {
	int l;
	size_t bytes;
	vrt_locs all;
} tally;

static int sole_run(void *u, size_t off, size_t n, vrt_locs valid)
{
	(void)off;
	(void)n;
	tally *t = u;
	return valid == VRT_LOC(t->l);
}

static int dirty_run(void *u, size_t off, size_t n, vrt_locs valid)
{
	(void)off;
	tally *t = u;
	if ((valid & VRT_LOC(t->l)) && !(valid & VRT_LOC(VRT_DIR_HOST)))
		t->bytes += n;
	return 0;
}

static int common_run(void *u, size_t off, size_t n, vrt_locs valid)
{
	(void)off;
	(void)n;
	((tally *)u)->all &= valid;
	return 0;
}

int vrt_dir_drop(vrt_dir *d, int l, size_t off, size_t n)
{
	tally t = {l, 0, 0};
	if (vrt_dir_walk(d, off, n, sole_run, &t))
		return -1;
	return update(d, off, n, ~VRT_LOC(l), 0);
}

int vrt_dir_forget(vrt_dir *d, int l, size_t off, size_t n)
{
	return update(d, off, n, ~VRT_LOC(l), 0);
}

int vrt_dir_remove_loc(vrt_dir *d, int l)
{
	if (l == VRT_DIR_HOST || vrt_dir_drop(d, l, 0, d->size))
		return -1;
	d->used &= ~VRT_LOC(l);
	return 0;
}

void vrt_dir_release_loc(vrt_dir *d, int l)
{
	if (l == VRT_DIR_HOST || !(d->used & VRT_LOC(l)))
		return;
	/* In place: runs only lose l and join, never split; whether the
	 * host holds a run does not change. */
	for (unsigned i = 0; i < d->nrun; i++)
		d->run[i].valid &= ~VRT_LOC(l);
	if (d->nrun)
		join(d, 0, d->nrun - 1);
	d->used &= ~VRT_LOC(l);
	d->dirty[l] = 0;
}

vrt_locs vrt_dir_holders(const vrt_dir *d, size_t off, size_t n)
{
	tally t = {0, 0, d->used};
	vrt_dir_walk(d, off, n, common_run, &t);
	return t.all;
}

size_t vrt_dir_dirty_bytes(const vrt_dir *d, int l, size_t off, size_t n)
{
	tally t = {l, 0, 0};
	vrt_dir_walk(d, off, n, dirty_run, &t);
	return t.bytes;
}

/* The pages of a walk, flagged as they are met (vrt_dir_pages). */
typedef struct paging {
	int l;
	size_t base;
	unsigned sh;
	unsigned char *out;
} paging;

/* The runs come in order: the pages of this one past its first have
 * not been met before, and its interior ones lie in it alone. */
static int page_run(void *u, size_t off, size_t n, vrt_locs valid)
{
	paging *g = u;
	size_t first = (off - g->base) >> g->sh, last = (off - g->base + n - 1) >> g->sh;
	if (!(valid & VRT_LOC(g->l))) {
		g->out[first] &= (unsigned char)~VRT_DIR_PAGE_HELD;
		if (last > first)
			memset(g->out + first + 1, 0, last - first);
	} else if (valid == VRT_LOC(g->l)) {
		g->out[first] |= VRT_DIR_PAGE_SOLE;
		g->out[last] |= VRT_DIR_PAGE_SOLE;
		if (last > first + 1)
			memset(g->out + first + 1, VRT_DIR_PAGE_HELD | VRT_DIR_PAGE_SOLE,
			       last - first - 1);
	}
	return 0;
}

void vrt_dir_pages(const vrt_dir *d, int l, size_t off, size_t n, unsigned sh,
                   unsigned char *out)
{
	size_t np = n ? ((n - 1) >> sh) + 1 : 0;
	if (l < 0 || l >= VRT_DIR_MAX_LOCS || !(d->used & VRT_LOC(l))) {
		memset(out, 0, np);
		return;
	}
	memset(out, VRT_DIR_PAGE_HELD, np);
	paging g = {l, off, sh, out};
	vrt_dir_walk(d, off, n, page_run, &g);
}

int vrt_dir_nearest(const vrt_dir *d, vrt_locs have, int to)
{
	if (!have)
		return -1;
	if (have & VRT_LOC(to))
		return to;
	int best = -1, best_rank = 5;
	for (int l = 0; l < VRT_DIR_MAX_LOCS; l++) {
		if (!(have & VRT_LOC(l)))
			continue;
		int rank;
		if (l != VRT_DIR_HOST && d->device[l] == d->device[to])
			rank = 1;
		else if (l != VRT_DIR_HOST && d->context[l] == d->context[to])
			rank = 2;
		else if (l == VRT_DIR_HOST)
			rank = 3;
		else
			rank = 4;
		if (rank < best_rank) {
			best = l;
			best_rank = rank;
		}
	}
	return best;
}

/* A run of bytes to move, gathered before the directory changes: the
 * walk reads the runs, the moves then change them. */
typedef struct move {
	size_t off, n;
	int from;
} move;

typedef struct plan {
	const vrt_dir *d;
	int to;
	int only_sole; /* evict: the runs `to` alone holds, from `to` */
	move *m;
	unsigned n, cap;
	int oom;
} plan;

static int plan_run(void *u, size_t off, size_t n, vrt_locs valid)
{
	plan *p = u;
	int from;
	if (p->only_sole) {
		if (valid != VRT_LOC(p->to))
			return 0;
		from = p->to;
	} else {
		if (valid & VRT_LOC(p->to))
			return 0;
		from = vrt_dir_nearest(p->d, valid, p->to);
	}
	if (p->n && p->m[p->n - 1].from == from && p->m[p->n - 1].off + p->m[p->n - 1].n == off) {
		p->m[p->n - 1].n += n;
		return 0;
	}
	if (p->n == p->cap) {
		unsigned cap = p->cap * 2 + 4;
		move *m = realloc(p->m, cap * sizeof *m);
		if (!m) {
			p->oom = 1;
			return 1;
		}
		p->m = m;
		p->cap = cap;
	}
	p->m[p->n++] = (move){off, n, from};
	return 0;
}

int vrt_dir_bring(vrt_dir *d, int to, size_t off, size_t n, vrt_dir_mover mv, void *u)
{
	plan p = {d, to, 0, NULL, 0, 0, 0};
	vrt_dir_walk(d, off, n, plan_run, &p);
	int err = p.oom ? -1 : 0;
	for (unsigned i = 0; !err && i < p.n; i++) {
		err = mv(u, p.m[i].from, to, p.m[i].off, p.m[i].n);
		if (!err)
			err = vrt_dir_copied(d, to, p.m[i].off, p.m[i].n);
	}
	free(p.m);
	return err;
}

int vrt_dir_evict(vrt_dir *d, int l, size_t off, size_t n, vrt_dir_mover mv, void *u)
{
	plan p = {d, l, 1, NULL, 0, 0, 0};
	vrt_dir_walk(d, off, n, plan_run, &p);
	int err = p.oom ? -1 : 0;
	for (unsigned i = 0; !err && i < p.n; i++) {
		err = mv(u, l, VRT_DIR_HOST, p.m[i].off, p.m[i].n);
		if (!err)
			err = vrt_dir_copied(d, VRT_DIR_HOST, p.m[i].off, p.m[i].n);
	}
	free(p.m);
	return err ? err : vrt_dir_drop(d, l, off, n);
}
