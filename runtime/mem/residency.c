/* SPDX-License-Identifier: MIT */
/*
 * residency.c - which host pages the kept frame sets hold, so that pages
 * stay on the device from one launch to the next.
 *
 * After a paged launch the frames of its last ranges hold clean copies
 * of host pages: what was sent, or what the kernel wrote and was written
 * back. The frame pool keeps those buffers (framepool.c), and this map
 * says what is where: (buffer serial, page) -> (set, buffer, frame) and
 * the buffer's write version when the frame got its bytes. The next
 * paged launch (paged.c) takes a page from its frame instead of the host
 * when the version still matches: the host bytes did not change since.
 *
 * Open addressing with linear probing, keyed by serial and page; serial
 * 0 marks an empty slot (mem.c's serials start at 1). Entries leave in
 * batches (vrt_res_drop_if: the frames a range is about to overwrite,
 * the pages it writes, every range of a paged launch), each by
 * backward-shift deletion: no tombstones, no allocation (a new table
 * each range cost a large calloc, its pages faulted in, per range), and
 * no work beyond the entry's cluster (re-inserting every entry after a
 * batch cost the H100's host ~1 ms a range with 18 K entries).
 *
 * A page a paged launch wrote and left in a kept frame is dirty there
 * (paged.c): the frame, not the host copy, holds its bytes until they
 * go home (vrt_res_dirty_runs lists them in runs of pages consecutive
 * in both the buffer and the frames, one copy each; vrt_res_settle
 * marks them clean or forgets them once home).
 * Pure C: no OpenCL calls; the unit test drives it directly.
 */
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"

static size_t slot_of(const vrt_residency *r, unsigned long long serial, size_t page)
{
	unsigned long long h = serial * 0x9e3779b97f4a7c15ull ^ (page * 0xc2b2ae3d27d4eb4full);
	h ^= h >> 29;
	return (size_t)h & (r->cap - 1);
}

static vrt_resident *lookup(const vrt_residency *r, unsigned long long serial, size_t page)
{
	if (!r->cap)
		return NULL;
	for (size_t i = slot_of(r, serial, page);; i = (i + 1) & (r->cap - 1)) {
		vrt_resident *e = &r->tab[i];
		if (!e->serial || (e->serial == serial && e->page == page))
			return e;
	}
}

const vrt_resident *vrt_res_find(const vrt_residency *r, unsigned long long serial, size_t page)
{
	const vrt_resident *e = lookup(r, serial, page);
	return e && e->serial ? e : NULL;
}

/* Rebuilds the table with room for `cap` slots (a power of two). -1 when
 * out of memory (r unchanged). */
static int rebuild(vrt_residency *r, size_t cap)
{
	vrt_resident *old = r->tab;
	size_t ocap = r->cap;
	vrt_resident *tab = vrt_calloc(cap, sizeof *tab);
	if (!tab)
		return -1;
	r->tab = tab;
	r->cap = cap;
	r->n = 0;
	for (size_t i = 0; i < ocap; i++) {
		if (!old[i].serial)
			continue;
		*lookup(r, old[i].serial, old[i].page) = old[i];
		r->n++;
	}
	vrt_free(old);
	return 0;
}

static int dirt(const vrt_resident *e)
{
	return e->serial && e->dirty;
}

int vrt_res_put(vrt_residency *r, const vrt_resident *e)
{
	/* At most half full, so probes stay short and always end. */
	if ((r->n + 1) * 2 > r->cap && rebuild(r, r->cap ? r->cap * 2 : 64))
		return -1;
	vrt_resident *slot = lookup(r, e->serial, e->page);
	r->n += !slot->serial;
	r->ndirty -= dirt(slot);
	r->ndirty += dirt(e);
	*slot = *e;
	return 0;
}

/* Empties slot i, and moves back into it the entries after it in its
 * cluster whose probe from their home would otherwise cross the hole
 * (backward-shift deletion): every entry stays reachable, with no
 * tombstones and no work beyond the cluster. */
static void delete_at(vrt_residency *r, size_t i)
{
	size_t mask = r->cap - 1;
	r->ndirty -= dirt(&r->tab[i]);
	for (size_t j = (i + 1) & mask; r->tab[j].serial; j = (j + 1) & mask) {
		size_t home = slot_of(r, r->tab[j].serial, r->tab[j].page);
		/* j's entry stays where its home lies cyclically in (i, j] */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		r->tab[i] = r->tab[j];
		i = j;
	}
	r->tab[i].serial = 0;
}

void vrt_res_forget(vrt_residency *r, unsigned long long serial, size_t page)
{
	vrt_resident *e = lookup(r, serial, page);
	if (e && e->serial) {
		delete_at(r, (size_t)(e - r->tab));
		r->n--;
	}
}

void vrt_res_drop_if(vrt_residency *r, int (*gone)(const vrt_resident *, void *), void *ctx)
{
	/* An entry moved back into slot i by a deletion is looked at
	 * again there: it comes from later in the cluster, not yet seen, or
	 * (a cluster wrapping past the table's end) was seen and kept, and
	 * `gone` answers the same again. */
	for (size_t i = 0; i < r->cap;) {
		if (r->tab[i].serial && gone(&r->tab[i], ctx)) {
			delete_at(r, i);
			r->n--;
			continue;
		}
		i++;
	}
}

void vrt_res_clear(vrt_residency *r)
{
	vrt_free(r->tab);
	r->tab = NULL;
	r->cap = r->n = r->ndirty = 0;
}

static int by_page(const void *a, const void *b)
{
	const vrt_resident *x = a, *y = b;
	if (x->serial != y->serial)
		return x->serial < y->serial ? -1 : 1;
	return x->page < y->page ? -1 : x->page > y->page;
}

size_t vrt_res_dirty_runs(const vrt_residency *r, int (*want)(const vrt_resident *, void *),
                          void *ctx, vrt_res_run **runs)
{
	size_t n = 0, nr = 0;
	*runs = NULL;
	for (size_t i = 0; i < r->cap; i++)
		n += r->tab[i].serial && r->tab[i].dirty && (!want || want(&r->tab[i], ctx));
	if (!n)
		return 0;
	vrt_resident *e = vrt_malloc(n * sizeof *e);
	vrt_res_run *out = vrt_malloc(n * sizeof *out);
	if (!e || !out) {
		vrt_free(e);
		vrt_free(out);
		return (size_t)-1;
	}
	n = 0;
	for (size_t i = 0; i < r->cap; i++)
		if (r->tab[i].serial && r->tab[i].dirty && (!want || want(&r->tab[i], ctx)))
			e[n++] = r->tab[i];
	qsort(e, n, sizeof *e, by_page);
	for (size_t i = 0; i < n; i++) {
		vrt_res_run *l = nr ? &out[nr - 1] : NULL;
		if (l && l->serial == e[i].serial && l->set == e[i].set && l->buf == e[i].buf &&
		    l->page + l->n == e[i].page && l->frame + l->n == e[i].frame)
			l->n++;
		else
			out[nr++] = (vrt_res_run){e[i].serial, e[i].page, e[i].frame, 1, e[i].set,
			                          e[i].buf};
	}
	vrt_free(e);
	*runs = out;
	return nr;
}

typedef struct settled {
	const vrt_res_run *runs;
	size_t n;
} settled;

/* The run of runs (sorted by serial and page) holding e's page in e's
 * frame, NULL if none. */
static const vrt_res_run *run_of(const settled *s, const vrt_resident *e)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const vrt_res_run *u = &s->runs[mid];
		if (u->serial < e->serial || (u->serial == e->serial && u->page + u->n <= e->page))
			lo = mid + 1;
		else
			hi = mid;
	}
	const vrt_res_run *u = lo < s->n ? &s->runs[lo] : NULL;
	if (!u || u->serial != e->serial || e->page < u->page || u->set != e->set ||
	    u->buf != e->buf || e->frame != u->frame + (e->page - u->page))
		return NULL;
	return u;
}

static int in_runs(const vrt_resident *e, void *ctx)
{
	return run_of(ctx, e) != NULL;
}

void vrt_res_settle(vrt_residency *r, const vrt_res_run *runs, size_t n, int drop)
{
	settled s = {runs, n};
	if (!n)
		return;
	if (drop) {
		vrt_res_drop_if(r, in_runs, &s);
		return;
	}
	for (size_t i = 0; i < r->cap; i++)
		if (r->tab[i].serial && run_of(&s, &r->tab[i])) {
			r->ndirty -= dirt(&r->tab[i]);
			r->tab[i].dirty = 0;
		}
}
