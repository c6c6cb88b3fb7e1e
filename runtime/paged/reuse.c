/* SPDX-License-Identifier: MIT */
/*
 * reuse.c - pages kept on the device used again instead of sent: a range
 * takes from the kept frames and the hold the pages it would fill from
 * the host (use_kept, copy_kept), and records what its frames and the
 * hold then hold for the ranges and launches after it (share_reads,
 * record_held, remember). What a range overwrites the pool forgets, a
 * kept page newer than the host going home first.
 */
#include <stdlib.h>
#include <string.h>

#include "paged/paged_int.h"

/* Read-only slot s of F's range is in place: the set's previous range
 * of this launch had the same pages in the same frames (compared within
 * their extents: both rows are clear outside them). */
static int in_place(const vrt_launch *L, const paged *P, const fset *F, unsigned s)
{
	const vrt_layout *lay = &P->lay;
	size_t lo = F->lo[s], off = lay->slot_off[s];
	return F->used && !(L->slot_mode[s] & VAST_MODE_W) && F->prev_fr.first[s] == F->fr.first[s] &&
	       F->prev_fr.buf[s] == F->fr.buf[s] && F->prev_lo[s] == lo &&
	       F->prev_hi[s] == F->hi[s] &&
	       !memcmp(F->u + off + lo, F->prev_u + off + lo, F->hi[s] - lo);
}

/* Whether slot s (not a box) sends pages into F's frames: some to fill
 * (a page of its range: within its extent), and not all in place from
 * the set's previous range. */
int vrt_paged_sends_in(const vrt_launch *L, const paged *P, const fset *F, unsigned s)
{
	const unsigned char *fill = F->fill + P->lay.slot_off[s];
	size_t end;
	return F->fr.count[s] && vrt_pas_next_run(fill, F->lo[s], F->hi[s], &end) < F->hi[s] &&
	       !in_place(L, P, F, s);
}

/* What range i on set `set` (frame set F) overwrites: the frames its LPT
 * gives out, and, of the slots it writes, its pages (it writes them
 * back: a kept copy of one is stale from then on). */
typedef struct overwrite {
	const vrt_launch *L;
	const paged *P;
	const fset *F;
	unsigned set;
} overwrite;

static int in_frames(const overwrite *o, unsigned set, unsigned buf, size_t frame)
{
	const vrt_frames *fr = &o->F->fr;
	for (unsigned s = 1; s <= o->P->lay.nslots; s++)
		if (set == o->set && fr->count[s] && buf == fr->buf[s] && frame >= fr->first[s] &&
		    frame < fr->first[s] + fr->count[s])
			return 1;
	return 0;
}

static int overwritten(const vrt_resident *e, void *ctx)
{
	const overwrite *o = ctx;
	const vrt_layout *lay = &o->P->lay;
	if (in_frames(o, e->set, e->buf, e->frame))
		return 1;
	for (unsigned s = 1; s <= lay->nslots; s++)
		if ((o->L->slot_mode[s] & VAST_MODE_W) && e->serial == o->L->slot_mem[s]->serial &&
		    e->page < lay->slot_pages[s] && o->F->u[lay->slot_off[s] + e->page])
			return 1;
	return 0;
}

/* Page p of slot s, to go in from the host, lies in a kept frame (or
 * the hold) whose copy is current (`held`, the directory's answer: the
 * pool's location holds the page's bytes) and that this range does not
 * overwrite before reading it: that frame; NULL otherwise. *here: it is
 * the very frame p goes to. */
static const vrt_resident *kept_page(const vrt_launch *L, const paged *P, const overwrite *o,
                                     unsigned s, size_t p, int held, int *here,
                                     vrt_resident *hold_at)
{
	const vrt_mem *m = L->slot_mem[s];
	const fset *F = o->F;
	if (!held)
		return NULL;
	if (P->devs.hold && vrt_hold_has(&P->devs, m->serial, p)) {
		*here = F->fr.held == s; /* page p in frame p, as the hold has it */
		*hold_at = (vrt_resident){m->serial, p, VRT_HOLD_SET, 0, p};
		return hold_at;
	}
	const vrt_resident *e = vrt_res_find(&P->devs.res, m->serial, p);
	if (!e || e->set >= P->nsets || !P->set[e->set].frames[e->buf])
		return NULL;
	const uint32_t *tf = vrt_lpt_table(F->lpt, s);
	*here = e->set == o->set && e->buf == F->fr.buf[s] && e->frame == tf[p];
	return *here || !in_frames(o, e->set, e->buf, e->frame) ? e : NULL;
}

static cl_int add_copy(paged *P, const vrt_resident *e, unsigned dst_buf, size_t dst)
{
	struct res_copy *c = P->ncopies ? &P->copies[P->ncopies - 1] : NULL;
	if (c && c->set == e->set && c->buf == e->buf && c->dst_buf == dst_buf &&
	    c->src + c->n == e->frame && c->dst + c->n == dst) {
		c->n++;
		return CL_SUCCESS;
	}
	if (P->ncopies == P->copies_cap) {
		size_t cap = P->copies_cap ? 2 * P->copies_cap : 16;
		struct res_copy *n = vrt_realloc(P->copies, cap * sizeof *n);
		if (!n)
			return CL_OUT_OF_HOST_MEMORY;
		P->copies = n;
		P->copies_cap = cap;
	}
	P->copies[P->ncopies++] = (struct res_copy){e->set, e->buf, dst_buf, e->frame, dst, 1};
	return CL_SUCCESS;
}

/* Page e, newer in its kept frame than every other copy, must go home
 * before range o->F's frames go in: the range fills it from the host
 * copy (no kept frame served it), or forgets it (overwritten) without
 * writing it home itself, whole: the range writes back every page it
 * touches of a slot it writes, its fill taken from this very entry
 * (use_kept) or not needed (written whole). */
static int goes_home(const vrt_resident *e, void *ctx)
{
	const overwrite *o = ctx;
	const vrt_layout *lay = &o->P->lay;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (o->L->slot_mem[s]->serial != e->serial || e->page >= lay->slot_pages[s])
			continue;
		size_t at = lay->slot_off[s] + e->page;
		if (o->F->fr.count[s] && o->F->fill[at])
			return 1;
		if ((o->L->slot_mode[s] & VAST_MODE_W) && o->F->u[at])
			return 0;
	}
	return overwritten(e, ctx);
}

/* Writes home (blocking) the pages goes_home names. They lie in frames
 * of the launch before, which no range of this one has refilled yet
 * (the range that does forgets them first, here). */
static cl_int write_lost_home(vrt_launch *L, paged *P, overwrite *o)
{
	vrt_res_run *runs;
	if (!P->devs.res.n)
		return CL_SUCCESS;
	size_t n = vrt_pool_newer_runs(&P->devs, NULL, VRT_POOL_FRAMES, goes_home, o, &runs);
	if (!n)
		return CL_SUCCESS;
	if (n == (size_t)-1)
		return CL_OUT_OF_HOST_MEMORY;
	unsigned long long d2h = L->st->d2h;
	cl_int err = vrt_paged_write_runs_home(&P->devs, P->qs->out, runs, n);
	vrt_log(VRT_LOG_DEBUG, "kernel '%s': %zu runs of pages only kept frames held written home (%llu bytes)",
	        L->k->name, n, L->st->d2h - d2h);
	vrt_free(runs);
	return err;
}

/* The buffers a range's overwritten entries are of, and their pool
 * locations, a few remembered (the map's entries come in hash order);
 * the pages whose copies the pool forgets with the entries, to be
 * forgotten in runs: one directory update a page, in hash order, cuts
 * its runs up, each update then moving all of them. The pages of a
 * slot's buffer are marked in its place of a row (P->forgetrow), in
 * order without a sort; those of other buffers (an earlier launch's,
 * in the frames the range gives out) gathered in P->forgot and sorted. */
typedef struct forgetting {
	const overwrite *o;
	paged *P;
	struct {
		unsigned long long serial;
		vrt_mem *m;
		int l;
		unsigned slot;          /* the first of the launch's slots of m, 0: none */
	} seen[8];
	unsigned next;
	size_t n;                   /* pages gathered in P->forgot */
	unsigned char *row;         /* P->forgetrow, NULL: every page gathered */
	size_t lo[VAST_MAX_SLOTS + 1], hi[VAST_MAX_SLOTS + 1]; /* a slot's pages
	                             * marked in row lie in [lo, hi) (none: equal) */
	int l[VAST_MAX_SLOTS + 1];  /* the location a slot's marked pages are of */
	vrt_mem *oom;               /* a buffer whose copies could not be forgotten */
} forgetting;

/* P->forgetrow, all zeros (every use leaves it so); NULL out of memory. */
static unsigned char *forget_row(paged *P)
{
	size_t rb = P->lay.row_bytes;
	if (P->forgetrow_cap < rb) {
		unsigned char *r = vrt_realloc(P->forgetrow, rb);
		if (!r)
			return NULL;
		memset(r, 0, rb);
		P->forgetrow = r;
		P->forgetrow_cap = rb;
	}
	return P->forgetrow;
}

/* The first slot of L whose buffer is m and may keep pages, 0: none. */
static unsigned slot_of(const vrt_launch *L, const vrt_mem *m)
{
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_mem[s] == m && vrt_paged_may_reside(L, s))
			return s;
	return 0;
}

static int forget_overwritten(const vrt_resident *e, void *ctx)
{
	forgetting *f = ctx;
	if (!overwritten(e, (void *)f->o))
		return 0;
	paged *P = f->P;
	unsigned k = 0;
	while (k < 8 && f->seen[k].serial != e->serial)
		k++;
	if (k == 8) {
		k = f->next++ % 8;
		vrt_mem *m = vrt_mem_by_serial(e->serial);
		f->seen[k].serial = e->serial;
		f->seen[k].m = m;
		f->seen[k].l = m ? vrt_pool_find(&P->devs, m) : -1;
		f->seen[k].slot = m ? slot_of(f->o->L, m) : 0;
	}
	vrt_mem *m = f->seen[k].m;
	int l = f->seen[k].l;
	/* the hold's copy, should it have the page too, is the hold's */
	if (!m || l < 0 || vrt_hold_has(&P->devs, e->serial, e->page))
		return 1;
	unsigned s = f->seen[k].slot;
	if (s && f->row && e->page < P->lay.slot_pages[s]) {
		f->row[P->lay.slot_off[s] + e->page] = 1;
		if (f->lo[s] == f->hi[s]) {
			f->lo[s] = e->page;
			f->hi[s] = e->page + 1;
		} else if (e->page < f->lo[s]) {
			f->lo[s] = e->page;
		} else if (e->page >= f->hi[s]) {
			f->hi[s] = e->page + 1;
		}
		f->l[s] = l;
		return 1;
	}
	if (f->n == P->forgot_cap) {
		size_t cap = P->forgot_cap ? 2 * P->forgot_cap : 64;
		struct forgot *g = vrt_realloc(P->forgot, cap * sizeof *g);
		if (!g) { /* out of memory: forgotten one by one */
			if (vrt_pool_forget(m, l, e->page, 1, P->lay.page_shift))
				f->oom = m;
			return 1;
		}
		P->forgot = g;
		P->forgot_cap = cap;
	}
	P->forgot[f->n++] = (struct forgot){m, l, e->page};
	return 1;
}

static int by_buffer_page(const void *a, const void *b)
{
	const struct forgot *x = a, *y = b;
	if (x->m != y->m)
		return x->m < y->m ? -1 : 1;
	return x->page < y->page ? -1 : x->page > y->page;
}

/* The pool forgets the pages gathered and marked, in runs of
 * consecutive ones; the row is left all zeros. */
static void forget_gathered(paged *P, forgetting *f)
{
	const vrt_layout *lay = &P->lay;
	for (unsigned s = 1; f->row && s <= lay->nslots; s++) {
		unsigned char *r = f->row + lay->slot_off[s];
		vrt_mem *m = f->o->L->slot_mem[s];
		size_t q, hi = f->hi[s];
		for (size_t p = vrt_pas_next_run(r, f->lo[s], hi, &q); p < hi;
		     p = vrt_pas_next_run(r, q, hi, &q)) {
			if (vrt_pool_forget(m, f->l[s], p, q - p, lay->page_shift))
				f->oom = m;
			memset(r + p, 0, q - p);
		}
	}
	struct forgot *g = P->forgot;
	if (!f->n)
		return;
	qsort(g, f->n, sizeof *g, by_buffer_page);
	for (size_t i = 0, j; i < f->n; i = j) {
		for (j = i + 1; j < f->n && g[j].m == g[i].m && g[j].page == g[j - 1].page + 1; j++)
			;
		if (vrt_pool_forget(g[i].m, g[i].l, g[i].page, j - i, P->lay.page_shift))
			f->oom = g[i].m;
	}
}

/* The hold's copies of the pages F's range writes are stale from now:
 * it writes them back itself, or, bound to the hold, records them anew
 * (record_held). -1: out of memory forgetting them. */
static int forget_written_held(const vrt_launch *L, paged *P, const fset *F)
{
	const vrt_layout *lay = &P->lay;
	for (unsigned s = 1; P->devs.held && s <= lay->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || L->slot_mem[s]->serial != P->devs.hold_serial)
			continue;
		const unsigned char *u = F->u + lay->slot_off[s];
		vrt_mem *m = L->slot_mem[s];
		int l = vrt_pool_find(&P->devs, m);
		size_t end = F->hi[s] < P->devs.hold_pages ? F->hi[s] : P->devs.hold_pages, e;
		for (size_t a = vrt_pas_next_run(u, F->lo[s], end, &e); a < end;
		     a = vrt_pas_next_run(u, e, end, &e))
			for (size_t p = a; p < e;) {
				size_t q = p;
				while (q < e && vrt_hold_has(&P->devs, m->serial, q))
					vrt_hold_forget(&P->devs, q++);
				if (q > p && l >= 0 &&
				    vrt_pool_forget(m, l, p, q - p, lay->page_shift))
					return -1;
				p = q + 1;
			}
	}
	return 0;
}

/* Slot s's pages of F's range (its extent), in P->poolrow (at the
 * slot's place in a row) as the pool's location holds them
 * (vrt_pool_pages): one walk of the directory for the slot, not a query
 * a page. 1; 0: the range has none; -1: out of memory. */
static int pool_pages(const vrt_launch *L, paged *P, const fset *F, unsigned s)
{
	const vrt_layout *lay = &P->lay;
	size_t a = F->lo[s], b = F->hi[s];
	if (a == b)
		return 0;
	if (!vrt_paged_scratch_row(&P->poolrow, &P->poolrow_cap, lay->row_bytes))
		return -1;
	vrt_pool_pages(L->slot_mem[s], P->loc[s], a, b - a, lay->page_shift,
	               P->poolrow + lay->slot_off[s] + a);
	return 1;
}

/* The entries of the pages F's range writes, in whatever frames they
 * lie (overwritten), forgotten as forget_overwritten says: looked up
 * only where the pool's location of their buffer holds some byte of
 * them (vrt_pool_some_runs), not page by page over the range. Where it
 * holds none an entry is stale, never used (a kept copy is used where
 * the location holds the page: kept_page, share_reads, write_lost_home),
 * and forgetting it would change no byte of the directory: it stays
 * until its frame is refilled or its page recorded again. */
typedef struct written_job {
	paged *P;
	forgetting *f;
	unsigned long long serial;
	const unsigned char *u;     /* the slot's pages of the range */
} written_job;

static void forget_written_run(void *ctx, size_t a, size_t b)
{
	written_job *j = ctx;
	vrt_residency *r = &j->P->devs.res;
	for (size_t p = a; p < b && r->n; p++) {
		const vrt_resident *e = j->u[p] ? vrt_res_find(r, j->serial, p) : NULL;
		if (e && forget_overwritten(e, j->f))
			vrt_res_forget(r, j->serial, p);
	}
}

/* What F's range overwrites (overwritten) leaves the residency map, the
 * pool forgetting it (forget_overwritten): the entries of the frames it
 * gives out, found by frame (vrt_res_drop_frames), and those of the
 * pages it writes (forget_written_run). */
static void forget_overwritten_all(const vrt_launch *L, paged *P, const fset *F, forgetting *f)
{
	const vrt_layout *lay = &P->lay;
	for (unsigned s = 1; s <= lay->nslots; s++)
		if (F->fr.count[s])
			vrt_res_drop_frames(&P->devs.res, f->o->set, F->fr.buf[s], F->fr.first[s],
			                    F->fr.count[s], forget_overwritten, f);
	for (unsigned s = 1; s <= lay->nslots && P->devs.res.n; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || F->lo[s] == F->hi[s])
			continue;
		vrt_mem *m = L->slot_mem[s];
		written_job j = {P, f, m->serial, F->u + lay->slot_off[s]};
		vrt_pool_some_runs(m, vrt_pool_find(&P->devs, m), F->lo[s], F->hi[s] - F->lo[s],
		                   lay->page_shift, forget_written_run, &j);
	}
}

/* Takes from the kept frames the pages of F's range (range i) that
 * would go in from the host (F->fill) where kept_page finds them: one
 * already in its frame stays there, the others are copied device-side
 * after the range's H2D (copy_kept). A staged slot goes in as one write
 * of all its frames (move_frames), over any page left in place: there
 * pages stay in place only when no page of the slot is left to send.
 * Then forgets what the range overwrites. */
cl_int vrt_paged_use_kept(vrt_launch *L, paged *P, size_t i, fset *F)
{
	const vrt_layout *lay = &P->lay;
	overwrite o = {L, P, F, (unsigned)(F - P->set)};
	P->ncopies = 0;
	if (!P->devs.res.n && !P->devs.held)
		return CL_SUCCESS;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		int some;
		size_t end;
		/* A slot with no page left to fill (written whole) asks the
		 * directory nothing. */
		if (!F->fr.count[s] || !vrt_paged_may_reside(L, s) || P->loc[s] < 0 ||
		    vrt_pas_next_run(F->fill + lay->slot_off[s], F->lo[s], F->hi[s], &end) ==
		            F->hi[s] ||
		    in_place(L, P, F, s) || !(some = pool_pages(L, P, F, s)))
			continue;
		/* Out of memory: not sent from the host instead, as the hold's
		 * copy may be the only current one (write_lost_home writes
		 * home the frames' alone). */
		if (some < 0)
			return CL_OUT_OF_HOST_MEMORY;
		unsigned char *fill = F->fill + lay->slot_off[s];
		const unsigned char *pool = P->poolrow + lay->slot_off[s];
		const uint32_t *tf = vrt_lpt_table(F->lpt, s);
		size_t want = 0, kept = 0, hi = F->hi[s], q;
		int here;
		vrt_resident at;
		/* the pages to fill, run by run; only those the pool's location
		 * holds are looked up */
		for (size_t a = vrt_pas_next_run(fill, F->lo[s], hi, &q); a < hi;
		     a = vrt_pas_next_run(fill, q, hi, &q)) {
			want += q - a;
			for (size_t p = a; p < q; p++)
				kept += (pool[p] & VRT_DIR_PAGE_HELD) &&
				        kept_page(L, P, &o, s, p, 1, &here, &at) != NULL;
		}
		int stay = P->direct[s] || F->fr.held == s || kept == want;
		for (size_t a = kept ? vrt_pas_next_run(fill, F->lo[s], hi, &q) : hi; a < hi;
		     a = vrt_pas_next_run(fill, q, hi, &q))
			for (size_t p = a; p < q; p++) {
				const vrt_resident *e =
					pool[p] & VRT_DIR_PAGE_HELD
						? kept_page(L, P, &o, s, p, 1, &here, &at)
						: NULL;
				if (!e || (here && !stay))
					continue;
				cl_int err =
					here ? CL_SUCCESS : add_copy(P, e, F->fr.buf[s], tf[p]);
				if (err)
					return err;
				if (fill[p] == 1) /* a page by its gaps saved few */
					L->st->h2d_saved +=
						vrt_paged_page_bytes(lay, L->slot_mem[s]->size, p);
				fill[p] = 0;
			}
	}
	vrt_log(VRT_LOG_DEBUG, "range %zu: %zu runs of pages copied from kept frames", i, P->ncopies);
	double th = vrt_now_ms();
	cl_int err = write_lost_home(L, P, &o);
	vrt_trace_host("home", L->k->name, th, vrt_now_ms(), (long)i, 0);
	if (err)
		return err;
	forgetting f = {.o = &o, .P = P, .row = forget_row(P)};
	forget_overwritten_all(L, P, F, &f);
	forget_gathered(P, &f);
	if (f.oom || forget_written_held(L, P, F)) {
		/* The pool's copies could not all be forgotten: they go whole,
		 * and the buffer with them (never read stale). */
		vrt_mem *m = f.oom ? f.oom : vrt_mem_by_serial(P->devs.hold_serial);
		if (m) {
			vrt_mem_fail(m, L->k->name);
			vrt_pool_drop_loc(&P->devs, m);
		}
		return CL_OUT_OF_HOST_MEMORY;
	}
	return CL_SUCCESS;
}

/* The current copy of a page lies in the hold. A range bound to the
 * hold records its pages there as it goes (record_held), and a range
 * that writes one of them forgets the hold's entry first (use_kept): so
 * the hold's current copy is the latest; frames that hold the page too
 * (the range before in the same launch) must not take its place. */
static int in_hold_now(const paged *P, const vrt_mem *m, int l, size_t p)
{
	return vrt_hold_has(&P->devs, m->serial, p) && vrt_pool_holds(m, l, p, P->lay.page_shift);
}

/* Another slot of L names s's buffer and writes it: what s's frames
 * read is not what the launch leaves. */
static int written_by_another(const vrt_launch *L, unsigned s)
{
	for (unsigned t = 1; t <= L->nslots; t++)
		if (t != s && L->slot_mem[t] == L->slot_mem[s] && (L->slot_mode[t] & VAST_MODE_W))
			return 1;
	return 0;
}

/* Pages of one buffer recorded one by one into the pool's index, given
 * one directory transition a run of consecutive ones (poolloc.c). */
typedef struct pages_run {
	vrt_mem *m;
	int l, wrote;               /* wrote: newer than any other copy */
	size_t p, n;
} pages_run;

static int run_flush(pages_run *r, unsigned sh)
{
	int err = 0;
	if (r->n)
		err = r->wrote ? vrt_pool_wrote(r->m, r->l, r->p, r->n, sh)
		               : vrt_pool_copied(r->m, r->l, r->p, r->n, sh);
	r->n = 0;
	return err;
}

static int run_add(pages_run *r, vrt_mem *m, int l, size_t p, int wrote, unsigned sh)
{
	if (r->n && r->m == m && r->l == l && r->wrote == wrote && r->p + r->n == p) {
		r->n++;
		return 0;
	}
	int err = run_flush(r, sh);
	*r = (pages_run){m, l, wrote, p, 1};
	return err;
}

/* The pages of F's read-only slots lie in its frames once its H2D and
 * device copies are done: recorded, current (the pool's location holds
 * them: copied), so that the next ranges (on other sets) copy the pages
 * they share with it, a stencil's halo planes or a vector every row
 * reads, device-side instead of sending them again (use_kept). Those
 * copies go on the in-order kernel queue after this range's kernel,
 * which waits for its H2D; the frames are refilled only after them
 * (copy_kept's reader). A page whose recorded copy is newer than the
 * host's keeps its entry: the only place its bytes are indexed. Out of
 * memory, a page is simply not recorded. */
void vrt_paged_share_reads(const vrt_launch *L, paged *P, const fset *F)
{
	const vrt_layout *lay = &P->lay;
	vrt_residency *r = &P->devs.res;
	unsigned sh = lay->page_shift;
	pages_run run = {NULL, -1, 0, 0, 0};
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!F->fr.count[s] || F->box[s].rows || (L->slot_mode[s] & VAST_MODE_W) ||
		    !vrt_paged_may_reside(L, s) || F->fr.held == s || !(P->shared >> s & 1) ||
		    written_by_another(L, s))
			continue;
		vrt_mem *m = L->slot_mem[s];
		int l = P->loc[s];
		const unsigned char *u = F->u + lay->slot_off[s];
		const uint32_t *tf = vrt_lpt_table(F->lpt, s);
		size_t hi = F->hi[s], q;
		/* The directory as it is now for the slot's pages, another
		 * slot's of the same buffer recorded first; recording the
		 * slot's pages changes no other page of it. */
		int some = run_flush(&run, sh) ? -1 : pool_pages(L, P, F, s);
		if (some < 0)
			return;
		const unsigned char *pool = P->poolrow + lay->slot_off[s];
		for (size_t a = some ? vrt_pas_next_run(u, F->lo[s], hi, &q) : hi; a < hi;
		     a = vrt_pas_next_run(u, q, hi, &q))
			for (size_t p = a; p < q; p++) {
				/* the hold's copy is the current one (in_hold_now) */
				if ((pool[p] & VRT_DIR_PAGE_HELD) &&
				    vrt_hold_has(&P->devs, m->serial, p))
					continue;
				/* a recorded copy newer than the host's keeps its entry */
				if ((pool[p] & VRT_DIR_PAGE_SOLE) && vrt_res_find(r, m->serial, p))
					continue;
				if (m->serial == P->devs.hold_serial)
					vrt_hold_forget(&P->devs, p); /* stale there */
				vrt_resident e = {m->serial, p, (unsigned)(F - P->set),
				                  F->fr.buf[s], tf[p]};
				if (vrt_res_put(r, &e) || run_add(&run, m, l, p, 0, sh))
					return;
			}
	}
	run_flush(&run, sh);
}

/* Enqueues use_kept's copies on the kernel queue, after F's H2D (the
 * in-order queue keeps them before its kernel and forwarding copies).
 * The frames they read are refilled only after them: the next range on
 * the source set waits for its reader (start_range). */
cl_int vrt_paged_copy_kept(paged *P, fset *F)
{
	unsigned sh = P->lay.page_shift;
	cl_event after = vrt_paged_last_of(F->in);
	for (size_t c = 0; c < P->ncopies; c++) {
		const struct res_copy *k = &P->copies[c];
		int hold = k->set == VRT_HOLD_SET;
		fset *G = hold ? NULL : &P->set[k->set];
		cl_event e;
		cl_int err = vrt_real.clEnqueueCopyBuffer(P->qs->run, hold ? P->devs.hold : G->frames[k->buf],
		                                          F->frames[k->dst_buf], k->src << sh,
		                                          k->dst << sh, k->n << sh, after != NULL,
		                                          after ? &after : NULL, &e);
		if (err)
			return err;
		/* The hold is refilled only after the kernels before it
		 * (hold_in), which follow this copy. */
		if (hold) {
			vrt_real.clReleaseEvent(e);
			continue;
		}
		if (G->reader)
			vrt_real.clReleaseEvent(G->reader);
		G->reader = e;
	}
	return CL_SUCCESS;
}

/* Out of memory recording them: the lazy pages of the last ranges go
 * home now, later ranges over earlier ones (one in-order queue), and so
 * do the pages newer than the host recorded before; then the frames
 * keep nothing. */
static void remember_nothing(vrt_launch *L, paged *P, size_t k0)
{
	const vrt_layout *lay = &P->lay;
	unsigned long long bytes = 0;
	cl_int err = vrt_paged_after_kernels(&P->devs, P->qs->out);
	for (size_t k = k0; k < P->nranges; k++) {
		const fset *F = &P->set[k % P->nsets];
		for (unsigned s = 1; s <= lay->nslots; s++) {
			if (!F->fr.count[s] || !(F->lazy && vrt_paged_lazy_slot(L, s)) ||
			    F->fr.held == s)
				continue;
			const unsigned char *u = F->u + lay->slot_off[s];
			const uint32_t *tf = vrt_lpt_table(F->lpt, s);
			for (size_t p = 0; p < lay->slot_pages[s] && !err; p++)
				if (u[p])
					err = vrt_paged_read_home(P->qs->out, F->frames[F->fr.buf[s]],
					                          tf[p], L->slot_mem[s], p, 1,
					                          lay->page_shift, &bytes);
		}
	}
	if (!err)
		err = vrt_real.clFinish(P->qs->out);
	L->st->d2h += bytes;
	/* Home, the host copy holds their newest bytes. */
	for (size_t k = k0; k < P->nranges && !err; k++) {
		const fset *F = &P->set[k % P->nsets];
		for (unsigned s = 1; s <= lay->nslots; s++) {
			if (!F->fr.count[s] || !(F->lazy && vrt_paged_lazy_slot(L, s)) ||
			    F->fr.held == s)
				continue;
			const unsigned char *u = F->u + lay->slot_off[s];
			for (size_t p = 0; p < lay->slot_pages[s]; p++)
				if (u[p] && vrt_pool_wrote(L->slot_mem[s], VRT_DIR_HOST, p, 1,
				                           lay->page_shift))
					vrt_mem_fail(L->slot_mem[s], L->k->name);
		}
	}
	for (unsigned s = 1; err && s <= lay->nslots; s++)
		if (vrt_paged_lazy_slot(L, s))
			vrt_mem_fail(L->slot_mem[s], L->k->name);
	vrt_paged_write_home(&P->devs, L->ctx, L->dev, NULL, 0);
	vrt_pool_forget_frames(&P->devs);
	vrt_res_clear(&P->devs.res);
}

/* After a launch that went well, the frames of the last range on each
 * set hold copies of its pages: current ones, sent or written back
 * (copied: the pool's location holds them beside the host), and newer
 * ones, what it wrote of a lazy slot (wrote: the location alone holds
 * them, until they go home). Recorded for the next launch, later
 * ranges over earlier ones (the last nsets ranges are the last on their
 * sets; a page two of them hold is the later one's). A copy of a page
 * the location held newer than the host (a range took it from a kept
 * frame, use_kept) is as new: copied keeps the host out. `written`: the
 * slots the launch writes, after it went well; else those it only
 * reads, as soon as its last range started (run_ranges): recorded while
 * the last ranges' transfers run rather than after them (3-4 ms of
 * reduction's 91 ms on the H100, 16 K pages of its input). Should a
 * range fail after that, the frames and their records go (drop_sets).
 * Out of memory there, the rest are simply not recorded (what the
 * launch wrote goes home: remember_nothing). */
void vrt_paged_remember(vrt_launch *L, paged *P, int written)
{
	const vrt_layout *lay = &P->lay;
	vrt_residency *r = &P->devs.res;
	unsigned sh = lay->page_shift;
	pages_run run = {NULL, -1, 0, 0, 0};
	size_t k0 = P->nranges > P->nsets ? P->nranges - P->nsets : 0;
	for (size_t k = k0; k < P->nranges; k++) {
		const fset *F = &P->set[k % P->nsets];
		for (unsigned s = 1; s <= lay->nslots; s++) {
			/* the hold's pages were recorded as they went there */
			if (!F->fr.count[s] || !vrt_paged_may_reside(L, s) || F->fr.held == s ||
			    !(L->slot_mode[s] & VAST_MODE_W) != !written ||
			    (!written && written_by_another(L, s)))
				continue;
			vrt_mem *m = L->slot_mem[s];
			int l = P->loc[s], newer = F->lazy && vrt_paged_lazy_slot(L, s);
			const unsigned char *u = F->u + lay->slot_off[s];
			const uint32_t *tf = vrt_lpt_table(F->lpt, s);
			for (size_t p = 0; p < lay->slot_pages[s]; p++) {
				if (!u[p] || in_hold_now(P, m, l, p))
					continue;
				if (m->serial == P->devs.hold_serial)
					vrt_hold_forget(&P->devs, p); /* stale there */
				vrt_resident e = {m->serial, p, (unsigned)(k % P->nsets), F->fr.buf[s],
				                  tf[p]};
				if (vrt_res_put(r, &e) || run_add(&run, m, l, p, newer, sh))
					goto oom;
			}
		}
	}
	if (!run_flush(&run, sh))
		return;
oom:
	if (written)
		remember_nothing(L, P, k0);
}

/* Before a range's H2D into the hold: the kernels before it, and the
 * device copies out of the hold that precede them on the in-order
 * kernel queue, are done. A page goes in from the host only when the
 * hold's copy is not current, and an earlier range may still read that
 * copy (one in between wrote the page in frames of its own and dropped
 * the hold's entry). Rare once the hold is filled: its pages stay. */
cl_int vrt_paged_hold_in(paged *P)
{
	if (!P->last_run)
		return CL_SUCCESS;
	return vrt_real.clEnqueueBarrierWithWaitList(P->qs->in, 1, &P->last_run, NULL);
}

/* F's range bound the hold's slot to the hold: its pages there are the
 * current ones once its kernel ran, recorded now (later ranges and
 * launches take them from there: use_kept), and a kept frame's entry
 * of one is dropped (the hold's is the index now). Newer than any other
 * copy where the kernel writes the slot (wrote), else as new as the copy
 * they came from (copied): they go home when the host needs them, as
 * kept frames' do (write_home). Out of memory recording them, the
 * buffer is refused and the pool's copies of it go. */
cl_int vrt_paged_record_held(vrt_launch *L, paged *P, const fset *F, size_t i)
{
	unsigned s = F->fr.held;
	if (!s)
		return CL_SUCCESS;
	vrt_residency *r = &P->devs.res;
	vrt_mem *m = L->slot_mem[s];
	const unsigned char *u = F->u + P->lay.slot_off[s];
	int writes = (L->slot_mode[s] & VAST_MODE_W) != 0;
	unsigned sh = P->lay.page_shift;
	pages_run run = {NULL, -1, 0, 0, 0};
	int err = 0;
	vrt_log(VRT_LOG_DEBUG, "range %zu: slot %u in the hold (%llu bytes in)", i, s,
	        F->in_bytes);
	size_t end = F->hi[s] < P->devs.hold_pages ? F->hi[s] : P->devs.hold_pages, q;
	for (size_t a = vrt_pas_next_run(u, F->lo[s], end, &q); a < end && !err;
	     a = vrt_pas_next_run(u, q, end, &q))
		for (size_t p = a; p < q && !err; p++) {
			if (r->n)
				vrt_res_forget(r, m->serial, p);
			vrt_hold_put(&P->devs, p);
			err = run_add(&run, m, P->loc[s], p, writes, sh);
		}
	if (!err)
		err = run_flush(&run, sh);
	if (!err)
		return CL_SUCCESS;
	vrt_mem_fail(m, L->k->name);
	vrt_pool_drop_loc(&P->devs, m);
	return CL_OUT_OF_HOST_MEMORY;
}
