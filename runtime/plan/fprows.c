/* SPDX-License-Identifier: MIT */
/*
 * fprows.c - Page Accessed Sets from footprint descriptors, without an
 * inspector.
 *
 * When every global access of a kernel has a descriptor (all affine,
 * lib/analysis/footprint.c), the pages a row of work-groups touches follow
 * from the launch geometry and the scalar arguments alone: each access's
 * boxes (vrt_fp_boxes) are marked page by page into the row, exactly as
 * the inspector would mark them, or a superset where a descriptor is
 * inexact. Nothing runs on the device and no buffer is read.
 *
 * A box marks its pages run by run; inner dimensions whose gaps are
 * shorter than a page are folded first (their pages form one interval),
 * so the work per row is proportional to the pages it marks, not to the
 * elements it touches. Bytes outside the buffer's pages are clipped: a kernel
 * that really reaches there faults in the paged kernel, whose every
 * translation is checked, and the launch is refused.
 *
 * A kernel with some accesses that have no descriptor (mixed) still gets
 * a plan: its rows come from the inspector, but its must-write boxes
 * still say which pages of a write-only buffer a range writes whole
 * (vrt_fp_must_write, cover.c), so those are not filled from the host.
 *
 * Scalar arguments are read from the bytes the program set. The stub does
 * not say whether an integer argument is signed, so a value whose top bit
 * is set (negative, or a large unsigned) makes the descriptors unusable
 * for the launch: the inspector runs instead, never a guess.
 */
#include <limits.h>
#include <string.h>

#include "footprint.h"
#include "plan/plan.h"

/* The kernel's descriptors, when the program has them. */
static const vast_kernel_footprints *kernel_footprints(const vrt_kernel *k)
{
	const vast_program_info *p = k->prog ? k->prog->info : NULL;
	if (!p || !p->footprints || !k->info)
		return NULL;
	size_t i = (size_t)(k->info - p->kernels);
	return i < p->nkernels ? &p->footprints[i] : NULL;
}

/* The integer value of scalar argument a, 0 when it has none that is the
 * same read as signed and as unsigned. */
static int arg_value(const vrt_arg *a, long long *v)
{
	if (!a->set || !a->bytes)
		return 0;
	switch (a->size) {
	case 1: { unsigned char x; memcpy(&x, a->bytes, 1); *v = x; return x < 0x80; }
	case 2: { uint16_t x; memcpy(&x, a->bytes, 2); *v = x; return x < 0x8000; }
	case 4: { uint32_t x; memcpy(&x, a->bytes, 4); *v = x; return x < 0x80000000u; }
	case 8: { uint64_t x; memcpy(&x, a->bytes, 8); *v = (long long)x; return x < (1ull << 63); }
	default: return 0;
	}
}

/* The extent of the kernel's term table: the furthest form of any
 * descriptor. */
static unsigned terms_extent(const vast_kernel_footprints *kf)
{
	unsigned nterms = 0;
	for (unsigned f = 0; f < kf->nfootprints; f++) {
		const vast_footprint *fp = &kf->footprints[f];
		if (fp->offset.first + fp->offset.n > nterms)
			nterms = fp->offset.first + fp->offset.n;
		for (unsigned i = 0; i < fp->nloops; i++) {
			const vast_fp_loop *lp = &kf->loops[fp->first_loop + i];
			if (lp->lo.first + lp->lo.n > nterms)
				nterms = lp->lo.first + lp->lo.n;
			if (lp->hi.first + lp->hi.n > nterms)
				nterms = lp->hi.first + lp->hi.n;
		}
		for (unsigned i = 0; i < fp->nguards; i++) {
			vast_fp_form g = kf->guards[fp->first_guard + i];
			if (g.first + g.n > nterms)
				nterms = g.first + g.n;
		}
		for (unsigned i = 0; i < fp->nchecks; i++) {
			vast_fp_form c = kf->checks[fp->first_check + i].form;
			if (c.first + c.n > nterms)
				nterms = c.first + c.n;
		}
	}
	return nterms;
}

/* Every argument the kernel's descriptors name has a value. The term
 * table holds the terms of all of them. */
static int args_known(const vast_kernel_footprints *kf, const unsigned char *known,
                      unsigned nargs)
{
	unsigned nterms = terms_extent(kf);
	for (unsigned t = 0; t < nterms; t++)
		for (int j = 0; j < VAST_FP_MAX_SYMS; j++) {
			unsigned name = kf->terms[t].sym[j];
			if (VAST_FP_KIND(name) == VAST_FP_ARG &&
			    (VAST_FP_INDEX(name) >= nargs || !known[VAST_FP_INDEX(name)]))
				return 0;
		}
	return 1;
}

int vrt_fp_named_args(const vrt_kernel *k, unsigned char *named, unsigned nargs)
{
	const vast_kernel_footprints *kf = kernel_footprints(k);
	if (!kf || !kf->nfootprints || vrt_cfg.footprints == VRT_FP_OFF)
		return 0;
	memset(named, 0, nargs);
	unsigned nterms = terms_extent(kf);
	for (unsigned t = 0; t < nterms; t++)
		for (int j = 0; j < VAST_FP_MAX_SYMS; j++) {
			unsigned name = kf->terms[t].sym[j];
			if (VAST_FP_KIND(name) == VAST_FP_ARG && VAST_FP_INDEX(name) < nargs)
				named[VAST_FP_INDEX(name)] = 1;
		}
	return 1;
}

/* Pages set among part[0..n), a word at a time between unaligned ends. */
static size_t ones(const unsigned char *part, size_t n)
{
	size_t c = 0, i = 0;
	for (; i < n && ((uintptr_t)(part + i) & 7); i++)
		c += part[i];
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, part + i, 8);
		/* marks are 0 or 1 a byte: the bytes' sum in the top byte */
		c += (size_t)((w * 0x0101010101010101ull) >> 56);
	}
	for (; i < n; i++)
		c += part[i];
	return c;
}

/* Marks the pages of bytes [b0, b1) of a slot's part of a row, and where
 * m is given, adds to it what it marked. */
static void mark_pages(unsigned char *part, size_t npages, long long b0, long long b1,
                       size_t size, unsigned shift, vrt_marked *m)
{
	/* clip the bytes [b0, b1) to the buffer's pages */
	if (b0 < 0)
		b0 = 0;
	if (b1 > (long long)size)
		b1 = (long long)size;
	if (b0 >= b1)
		return;
	size_t p0 = (size_t)b0 >> shift, p1 = (size_t)(b1 - 1) >> shift;
	if (p1 >= npages)
		p1 = npages - 1;
	if (m) {
		m->fresh += p1 - p0 + 1 - ones(part + p0, p1 - p0 + 1);
		if (m->lo == m->hi)
			m->lo = p0, m->hi = p1 + 1;
		m->lo = p0 < m->lo ? p0 : m->lo;
		m->hi = p1 + 1 > m->hi ? p1 + 1 : m->hi;
	}
	memset(part + p0, 1, p1 - p0 + 1);
}

typedef struct marker {
	unsigned char *part;
	size_t npages, size;
	unsigned shift;
	const vrt_box *b;
	vrt_marked *marked;     /* NULL: not counted */
	unsigned long long run; /* after folding */
	unsigned nd;            /* dimensions left after folding */
	/* inner[d]: bytes from a block's start to the end of dims below d */
	long long inner[VRT_BOX_MAX_DIMS];
} marker;

static void mark_dims(const marker *m, unsigned d, long long origin)
{
	if (d == 0) {
		mark_pages(m->part, m->npages, origin, origin + (long long)m->run, m->size, m->shift,
		           m->marked);
		return;
	}
	const long long pitch = m->b->dim[d - 1].pitch;
	/* Skip the blocks that lie wholly before the buffer. */
	unsigned long long i = 0;
	long long end = origin + m->inner[d - 1];
	if (end <= 0)
		i = (unsigned long long)((-end) / pitch + 1);
	for (; i < m->b->dim[d - 1].count; i++) {
		long long at = origin + (long long)i * pitch;
		if (at >= (long long)m->size)
			break; /* pitches are positive: the rest lies past the end */
		mark_dims(m, d - 1, at);
	}
}

int vrt_box_mark(unsigned char *part, size_t npages, unsigned shift, const vrt_box *b)
{
	return vrt_box_mark_count(part, npages, shift, b, NULL);
}

int vrt_box_mark_count(unsigned char *part, size_t npages, unsigned shift, const vrt_box *b,
                       vrt_marked *marked)
{
	/* A page is touched when any byte of the box is in it, also past the
	 * buffer's end in its last page: folded intervals are exact so. */
	marker m = { .part = part, .npages = npages, .size = npages << shift, .shift = shift,
	             .b = b, .marked = marked, .run = b->run };
	unsigned f = 0;
	/* Fold inner dimensions (ascending pitches) whose gap between blocks
	 * is under a page: their pages are one interval. */
	for (; f < b->ndims; f++) {
		unsigned long long n = b->dim[f].count;
		long long pitch = b->dim[f].pitch;
		if (n == 0)
			return 1; /* an empty box */
		if (pitch <= 0 || (unsigned long long)pitch >= m.run + (1ull << shift))
			break;
		unsigned long long span;
		if (__builtin_mul_overflow((unsigned long long)pitch, n - 1, &span) ||
		    __builtin_add_overflow(span, m.run, &span) || span > (1ull << 62))
			return 0;
		m.run = span;
	}
	/* The box's remaining dimensions, outermost last; re-based so that
	 * dim[0..nd) of a shifted view are the unfolded ones. */
	vrt_box rest = *b;
	m.nd = b->ndims - f;
	for (unsigned i = 0; i < m.nd; i++) {
		rest.dim[i] = b->dim[f + i];
		if (rest.dim[i].count == 0)
			return 1;
		unsigned long long ext;
		if (rest.dim[i].pitch <= 0 ||
		    __builtin_mul_overflow((unsigned long long)rest.dim[i].pitch, rest.dim[i].count, &ext) ||
		    ext > (1ull << 62))
			return 0;
	}
	m.b = &rest;
	if (m.run > (1ull << 62) || b->origin < -(1ll << 62) || b->origin > (1ll << 62))
		return 0;
	/* The extents below each dimension, summed in 128 bits: a box
	 * larger than 2^62 bytes is refused, never wrapped. */
	__int128 e = (__int128)m.run;
	for (unsigned i = 0; i < m.nd; i++) {
		m.inner[i] = (long long)e;
		e += (__int128)rest.dim[i].pitch * (__int128)(rest.dim[i].count - 1);
		if (e > ((__int128)1 << 62))
			return 0;
	}
	mark_dims(&m, m.nd, b->origin);
	return 1;
}

struct vrt_fp_plan {
	const vrt_launch *L;
	const vast_kernel_footprints *kf;
	vrt_fp_launch fl;
	long long args[VRT_MAX_ARGS];
	vrt_box *boxes;
	int cap;
	vrt_box *slot_boxes; /* vrt_fp_slot_box's scratch */
	size_t slot_boxes_cap;
	int complete;   /* every access has a usable descriptor */
	int writes_complete; /* every write has one (reads may not) */
	vrt_cover cover;
	/* Slots that go in as one strided box (vrt_fp_choose_boxes): no
	 * pages of theirs in the rows; vrt_fp_box_frames counts them. */
	unsigned char boxed[VAST_MAX_SLOTS + 1];
	int nboxed;
	/* The plan of the kernel that runs after this one on each range of a
	 * fused launch (vrt_fp_follow), over the same slots; NULL: none. */
	vrt_fp_plan *next;
};

/* Descriptor fp has a form the host can evaluate, for one parameter that
 * is one of L's buffers. */
static int usable(const vrt_launch *L, unsigned nargs, const vast_footprint *fp)
{
	if (!fp->affine || !fp->params || (fp->params & (fp->params - 1)))
		return 0;
	unsigned p = (unsigned)__builtin_ctz(fp->params);
	return p < nargs && L->arg_slot[p];
}

/* The slot of fp's one parameter, 0 when fp names none or several. */
static unsigned single_slot(const vrt_launch *L, unsigned nargs, const vast_footprint *fp)
{
	if (!fp->params || (fp->params & (fp->params - 1)))
		return 0;
	unsigned p = (unsigned)__builtin_ctz(fp->params);
	return p < nargs ? L->arg_slot[p] : 0;
}

int vrt_fp_slot_indirect(const vrt_launch *L, unsigned s)
{
	const vast_kernel_footprints *kf = kernel_footprints(L->k);
	if (!kf || vrt_cfg.footprints == VRT_FP_OFF)
		return 0;
	unsigned nargs = L->k->nargs < VRT_MAX_ARGS ? L->k->nargs : VRT_MAX_ARGS;
	for (unsigned f = 0; f < kf->nfootprints; f++) {
		const vast_footprint *fp = &kf->footprints[f];
		if (!fp->affine && single_slot(L, nargs, fp) == s)
			return 1;
	}
	return 0;
}

vrt_fp_plan *vrt_fp_plan_new(const vrt_launch *L, int *oom)
{
	const vrt_kernel *k = L->k;
	const vast_kernel_footprints *kf = kernel_footprints(k);
	*oom = 0;
	if (!kf || !kf->nfootprints || vrt_cfg.footprints == VRT_FP_OFF)
		return NULL;
	/* Uniform work-groups only: the descriptors assume them. */
	for (unsigned d = 0; d < L->dim; d++)
		if (!L->lsize[d] || L->gsize[d] % L->lsize[d])
			return NULL;
	unsigned nargs = k->nargs < VRT_MAX_ARGS ? k->nargs : VRT_MAX_ARGS;
	/* The accesses of a buffer kept whole need no descriptor. */
	unsigned nusable = 0, nkept = 0;
	int writes_complete = 1;
	for (unsigned f = 0; f < kf->nfootprints; f++) {
		const vast_footprint *fp = &kf->footprints[f];
		unsigned s = single_slot(L, nargs, fp);
		if (usable(L, nargs, fp))
			nusable++;
		else if (s && L->res_buf[s])
			nkept++;
		else if (fp->mode & VAST_MODE_W)
			writes_complete = 0;
	}
	if (!nusable)
		return NULL;
	vrt_fp_plan *P = vrt_calloc(1, sizeof *P);
	if (!P || !(P->boxes = vrt_malloc(16 * sizeof *P->boxes))) {
		vrt_free(P);
		*oom = 1;
		return NULL;
	}
	P->cap = 16;
	unsigned char known[VRT_MAX_ARGS];
	for (unsigned i = 0; i < nargs; i++)
		known[i] = k->info->params[i].kind == VAST_PARAM_SCALAR &&
		           arg_value(&L->args[i], &P->args[i]);
	if (!args_known(kf, known, nargs)) {
		vrt_fp_plan_free(P);
		return NULL;
	}
	P->L = L;
	P->kf = kf;
	P->complete = nusable + nkept == kf->nfootprints;
	P->writes_complete = writes_complete;
	P->fl.work_dim = L->dim;
	P->fl.args = P->args;
	P->fl.nargs = nargs;
	for (unsigned d = 0; d < 3; d++) {
		P->fl.global[d] = L->gsize[d];
		P->fl.local[d] = L->lsize[d];
		P->fl.offset[d] = L->goff[d];
	}
	return P;
}

void vrt_fp_plan_free(vrt_fp_plan *P)
{
	if (P) {
		vrt_free(P->boxes);
		vrt_free(P->slot_boxes);
		vrt_cover_free(&P->cover);
	}
	vrt_free(P);
}

/* The boxes of footprint fp for groups [g0, g1) in P->boxes: their count,
 * -1 when the descriptor cannot be evaluated, -2 out of memory. */
static int boxes_of(vrt_fp_plan *P, const vast_footprint *fp, size_t g0, size_t g1, int *exact)
{
	/* A share of a split launch (multi.c) runs the window of groups
	 * [group_base, group_base + groups): its group g is the launch's
	 * group_base + g, and so are its footprints. */
	g0 += P->L->group_base;
	g1 += P->L->group_base;
	int n = vrt_fp_boxes(P->kf, fp, &P->fl, g0, g1, P->boxes, P->cap, exact);
	if (n > P->cap) {
		vrt_box *more = vrt_realloc(P->boxes, (size_t)n * sizeof *more);
		if (!more)
			return -2;
		P->boxes = more;
		P->cap = n;
		n = vrt_fp_boxes(P->kf, fp, &P->fl, g0, g1, P->boxes, P->cap, exact);
	}
	return n > P->cap ? -1 : n;
}

static unsigned slot_of(const vrt_fp_plan *P, const vast_footprint *fp)
{
	return P->L->arg_slot[__builtin_ctz(fp->params)];
}

/* Marks in row the pages P's own accesses reach for groups [g0, g1),
 * adding to m[s] what slot s's marks did where m is given; the returns
 * of vrt_fp_union. */
static int mark_union(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                      unsigned char *row, vrt_marked *m)
{
	const vast_kernel_footprints *kf = P->kf;
	int all_exact = 1;
	if (!P->complete)
		return 0;
	for (unsigned f = 0; f < kf->nfootprints; f++) {
		const vast_footprint *fp = &kf->footprints[f];
		unsigned s = slot_of(P, fp);
		if (P->boxed[s] || lay->res_buf[s])
			continue;
		int exact, n = boxes_of(P, fp, g0, g1, &exact);
		if (n < 0)
			return n == -2 ? -1 : 0;
		all_exact &= exact;
		for (int i = 0; i < n; i++)
			if (!vrt_box_mark_count(row + lay->slot_off[s], lay->slot_pages[s],
			                        lay->page_shift, &P->boxes[i], m ? &m[s] : NULL))
				return 0;
	}
	return all_exact ? 1 : 2;
}

int vrt_fp_union_own(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                     unsigned char *row)
{
	memset(row, 0, lay->row_bytes);
	return mark_union(P, lay, g0, g1, row, NULL);
}

/* P's union, and the next kernel's (vrt_fp_follow) marked over it. */
static int mark_both(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                     unsigned char *row, vrt_marked *m)
{
	int r = mark_union(P, lay, g0, g1, row, m);
	if (r > 0 && P->next) {
		int r2 = mark_union(P->next, lay, g0, g1, row, m);
		r = r2 <= 0 ? r2 : r2 > r ? r2 : r;
	}
	return r;
}

int vrt_fp_union(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                 unsigned char *row)
{
	memset(row, 0, lay->row_bytes);
	return mark_both(P, lay, g0, g1, row, NULL);
}

int vrt_fp_union_marked(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                        unsigned char *row, vrt_marked *m)
{
	memset(m, 0, (lay->nslots + 1) * sizeof *m);
	return mark_both(P, lay, g0, g1, row, m);
}

void vrt_fp_follow(vrt_fp_plan *P, vrt_fp_plan *next)
{
	P->next = next;
}

int vrt_fp_complete(const vrt_fp_plan *P)
{
	return P && P->complete;
}

int vrt_fp_rows(vrt_fp_plan *P, const vrt_layout *lay, size_t wpp, unsigned char *rows,
                size_t nrows)
{
	int got = 1;
	for (size_t r = 0; r < nrows; r++) {
		size_t g0 = r * wpp, g1 = g0 + wpp < P->L->groups ? g0 + wpp : P->L->groups;
		int u = vrt_fp_union(P, lay, g0, g1, rows + r * lay->row_bytes);
		if (u <= 0)
			return u;
		got = u > got ? u : got;
	}
	return got;
}

/* At most this many blocks per page of the slot, plus a few, are
 * enumerated: a range's must-write boxes are a handful of tiles and rows
 * (footprint.c), and more only makes coverage slower to find. */
#define COVER_BLOCKS_PER_PAGE 2
#define COVER_BLOCKS_MIN 4096

int vrt_fp_must_write(vrt_fp_plan *P, const vrt_layout *lay, unsigned s, size_t g0, size_t g1,
                      unsigned char *pages)
{
	const vast_kernel_footprints *kf = P->kf;
	unsigned nargs = P->fl.nargs;
	memset(pages, 0, lay->slot_pages[s]);
	vrt_cover_begin(&P->cover, COVER_BLOCKS_PER_PAGE * lay->slot_pages[s] + COVER_BLOCKS_MIN);
	for (unsigned f = 0; f < kf->nfootprints; f++) {
		const vast_footprint *fp = &kf->footprints[f];
		if (!fp->must_write || !usable(P->L, nargs, fp) || slot_of(P, fp) != s)
			continue;
		int exact, n = boxes_of(P, fp, g0, g1, &exact);
		if (n == -2)
			return -1;
		if (n < 0 || !exact)
			continue; /* a superset says nothing of what is written */
		for (int i = 0; i < n; i++)
			if (vrt_cover_add(&P->cover, &P->boxes[i]) < 0)
				return -1;
	}
	if (vrt_cover_pages(&P->cover, pages, lay->slot_pages[s], lay->page_shift, lay->slot_size[s]))
		return -1;
	return 1;
}

int vrt_fp_box_written(vrt_fp_plan *P, const vrt_layout *lay, unsigned s, size_t g0,
                       size_t g1, const vrt_box2d *box)
{
	unsigned char *pages = vrt_malloc((lay->slot_pages[s] + 8) & ~(size_t)7);
	int r = pages ? vrt_fp_must_write(P, lay, s, g0, g1, pages) : -1;
	vrt_free(pages);
	for (unsigned long long row = 0; r == 1 && row < box->rows; row++) {
		long long at = (long long)(box->origin + row * box->pitch);
		r = vrt_cover_holds(&P->cover, at, at + (long long)box->width);
	}
	return r;
}

size_t vrt_fp_gaps(const vrt_fp_plan *P, size_t page, unsigned shift, size_t size,
                   size_t *lo, size_t *hi, size_t max)
{
	vrt_interval gap[VRT_GAPS_MAX];
	if (max > VRT_GAPS_MAX)
		max = VRT_GAPS_MAX;
	size_t n = vrt_cover_gaps(&P->cover, page, shift, size, gap, max);
	for (size_t i = 0; i < n && i < max; i++) {
		lo[i] = (size_t)gap[i].lo;
		hi[i] = (size_t)gap[i].hi;
	}
	return n;
}

int vrt_fp_may_write(vrt_fp_plan *P, unsigned s, unsigned shift, size_t npages,
                     unsigned char *pages)
{
	const vast_kernel_footprints *kf = P->kf;
	if (!P->writes_complete)
		return 0; /* a write without a descriptor may be anywhere */
	memset(pages, 0, npages);
	for (unsigned f = 0; f < kf->nfootprints; f++) {
		const vast_footprint *fp = &kf->footprints[f];
		if (!(fp->mode & VAST_MODE_W) || slot_of(P, fp) != s)
			continue;
		int exact, n = boxes_of(P, fp, 0, P->L->groups, &exact);
		if (n < 0)
			return n == -2 ? -1 : 0;
		for (int i = 0; i < n; i++)
			if (!vrt_box_mark(pages, npages, shift, &P->boxes[i]))
				return 0;
	}
	return 1;
}

int vrt_fp_write_span(vrt_fp_plan *P, unsigned s, size_t g0, size_t g1, long long *lo,
                      long long *hi)
{
	const vast_kernel_footprints *kf = P->kf;
	if (!P->writes_complete)
		return 0;
	*lo = LLONG_MAX;
	*hi = LLONG_MIN;
	for (unsigned f = 0; f < kf->nfootprints; f++) {
		const vast_footprint *fp = &kf->footprints[f];
		if (!(fp->mode & VAST_MODE_W) || slot_of(P, fp) != s)
			continue;
		int exact, n = boxes_of(P, fp, g0, g1, &exact);
		if (n < 0)
			return n == -2 ? -1 : 0;
		for (int i = 0; i < n; i++) {
			const vrt_box *b = &P->boxes[i];
			long long a = b->origin, z = b->origin + (long long)b->run, c;
			for (unsigned d = 0; d < b->ndims; d++) {
				if (__builtin_mul_overflow(b->dim[d].pitch, (long long)b->dim[d].count - 1, &c))
					return 0;
				if (c < 0)
					a += c;
				else
					z += c;
			}
			*lo = a < *lo ? a : *lo;
			*hi = z > *hi ? z : *hi;
		}
	}
	return 1;
}

/* Access fp may reach slot s: one of its parameters is bound there, or
 * it names none (its pointer's buffer is unknown). */
static int may_reach(const vrt_fp_plan *P, const vast_footprint *fp, unsigned s)
{
	if (!fp->params)
		return 1;
	for (unsigned p = 0; p < 32; p++)
		if (fp->params >> p & 1 && (p >= P->fl.nargs || P->L->arg_slot[p] == s))
			return 1;
	return 0;
}

/* Calls fn with the boxes of each access that may reach slot s, for
 * groups [g0, g1): 1 when done, 0 when such an access has no usable
 * descriptor or fn says 0, -1 out of memory. */
static int each_slot_access(vrt_fp_plan *P, unsigned s, size_t g0, size_t g1,
                            int (*fn)(void *ctx, const vast_footprint *fp, const vrt_box *b, int n),
                            void *ctx)
{
	const vast_kernel_footprints *kf = P->kf;
	for (unsigned f = 0; f < kf->nfootprints; f++) {
		const vast_footprint *fp = &kf->footprints[f];
		if (!may_reach(P, fp, s))
			continue;
		if (!usable(P->L, P->fl.nargs, fp))
			return 0;
		int exact, n = boxes_of(P, fp, g0, g1, &exact);
		if (n < 0)
			return n == -2 ? -1 : 0;
		if (!fn(ctx, fp, P->boxes, n))
			return 0;
	}
	return 1;
}

typedef struct page_marks {
	unsigned char *pages;
	size_t npages;
	unsigned shift;
} page_marks;

static int mark_boxes(void *ctx, const vast_footprint *fp, const vrt_box *b, int n)
{
	const page_marks *m = ctx;
	(void)fp;
	for (int i = 0; i < n; i++)
		if (!vrt_box_mark(m->pages, m->npages, m->shift, &b[i]))
			return 0;
	return 1;
}

int vrt_fp_slot_pages(vrt_fp_plan *P, const vrt_layout *lay, unsigned s, size_t g0, size_t g1,
                      unsigned char *pages)
{
	page_marks m = { pages, lay->slot_pages[s], lay->page_shift };
	return each_slot_access(P, s, g0, g1, mark_boxes, &m);
}

/* A slot's boxes for vrt_fp_slot_box, gathered in one pass over its
 * accesses (their pitch is known only once all are seen): each access's
 * boxes evaluated once, not once for the pitch and again for the bound
 * (a range search computes a boxed slot's box at every probe). */
typedef struct box_bound {
	unsigned long long pitch, align;
	vrt_box *all; /* P->slot_boxes */
	size_t n, cap;
	int oom;
} box_bound;

static int gather_boxes(void *ctx, const vast_footprint *fp, const vrt_box *b, int n)
{
	box_bound *B = ctx;
	/* An element's alignment divides its size: the size's lowest bit
	 * (at most 128, OpenCL C's largest). */
	unsigned long long a = fp->size & -fp->size;
	if (a > B->align)
		B->align = a > 128 ? 128 : a;
	for (int i = 0; i < n; i++) {
		long long p = vrt_box_pitch(&b[i]);
		if (p < 0 || (p > 0 && B->pitch && (unsigned long long)p != B->pitch))
			return 0;
		if (p > 0)
			B->pitch = (unsigned long long)p;
	}
	if (B->n + (size_t)n > B->cap) {
		size_t c = 2 * (B->n + (size_t)n);
		vrt_box *more = vrt_realloc(B->all, c * sizeof *more);
		if (!more) {
			B->oom = 1;
			return 0;
		}
		B->all = more;
		B->cap = c;
	}
	memcpy(B->all + B->n, b, (size_t)n * sizeof *b);
	B->n += (size_t)n;
	return 1;
}

int vrt_fp_slot_box(vrt_fp_plan *P, unsigned s, size_t g0, size_t g1, vrt_box2d *box)
{
	size_t size = P->L->slot_mem[s]->size;
	box_bound B = { 0, 1, P->slot_boxes, 0, P->slot_boxes_cap, 0 };
	memset(box, 0, sizeof *box);
	int r = each_slot_access(P, s, g0, g1, gather_boxes, &B);
	P->slot_boxes = B.all;
	P->slot_boxes_cap = B.cap;
	if (B.oom)
		return -1;
	if (r <= 0)
		return r;
	if (!B.n)
		return 1; /* the groups do not touch it: no box */
	if (!B.pitch)
		B.pitch = size; /* runs only: one row, past every byte */
	for (size_t i = 0; i < B.n; i++)
		if (!vrt_box2d_add(box, &B.all[i], B.pitch)) {
			memset(box, 0, sizeof *box);
			return 0;
		}
	/* Aligned as the buffer's elements, within the buffer, and rows
	 * and width of 32 bits each (the kernel's box entry, lpt.c). */
	if (box->rows && (!vrt_box2d_align(box, B.align) || box->rows >> 32 || box->width >> 32 ||
	                  box->origin + (box->rows - 1) * box->pitch + box->width > size)) {
		memset(box, 0, sizeof *box);
		return 0;
	}
	return 1;
}

/* The runs of consecutive pages in row[0..n). */
static size_t page_runs(const unsigned char *row, size_t n)
{
	size_t runs = 0;
	for (size_t p = 0; p < n; p++)
		runs += row[p] && (p == 0 || !row[p - 1]);
	return runs;
}

int vrt_fp_choose_boxes(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                        unsigned waste, size_t runs)
{
	const vrt_launch *L = P->L;
	int chosen = 0;
	if (!P->complete)
		return 0;
	unsigned char *pages = NULL;
	for (unsigned s = 1; s <= L->nslots; s++) {
		const vrt_mem *m = L->slot_mem[s];
		vrt_box2d box;
		/* A share of a split launch may write a slot in place beside
		 * the others (multi.c): its box, written back whole, could
		 * pass over their bytes. */
		if (P->boxed[s] || lay->res_buf[s] || m->parent || m->nsubs ||
		    (L->share && (L->slot_mode[s] & VAST_MODE_W)))
			continue;
		int r = vrt_fp_slot_box(P, s, g0, g1, &box);
		if (r < 0)
			break;
		if (!r || box.rows < 2 || box.width >= box.pitch)
			continue;
		if (waste) {
			/* worth it only where pages move waste x its bytes, or
			 * take `runs` copies where the box, no larger, takes one */
			vrt_free(pages);
			/* whole words: vrt_pas_count reads 8 bytes at a time */
			if (!(pages = vrt_calloc(1, (lay->slot_pages[s] + 8) & ~(size_t)7)) ||
			    (r = vrt_fp_slot_pages(P, lay, s, g0, g1, pages)) < 0)
				break;
			unsigned long long n = vrt_pas_count(pages, lay->slot_pages[s]) << lay->page_shift;
			unsigned long long bytes = box.width * box.rows;
			if (!r || (n < waste * bytes &&
			           (!runs || bytes > n || page_runs(pages, lay->slot_pages[s]) < runs)))
				continue;
		}
		P->boxed[s] = 1;
		P->nboxed++;
		chosen++;
	}
	vrt_free(pages);
	return chosen;
}

void vrt_fp_unbox(vrt_fp_plan *P, int written_only)
{
	for (unsigned s = 1; s <= P->L->nslots; s++)
		if (P->boxed[s] && (!written_only || (P->L->slot_mode[s] & VAST_MODE_W))) {
			P->boxed[s] = 0;
			P->nboxed--;
		}
}

void vrt_fp_boxes_get(const vrt_fp_plan *P, unsigned char *boxed)
{
	memcpy(boxed, P->boxed, sizeof P->boxed);
}

void vrt_fp_boxes_set(vrt_fp_plan *P, const unsigned char *boxed)
{
	memcpy(P->boxed, boxed, sizeof P->boxed);
	P->nboxed = 0;
	for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++)
		P->nboxed += P->boxed[s] != 0;
}

int vrt_fp_boxed(const vrt_fp_plan *P, unsigned s)
{
	return P && P->boxed[s];
}

int vrt_fp_boxed_any(const vrt_fp_plan *P)
{
	return P && P->nboxed;
}

size_t vrt_fp_box_frames(vrt_fp_plan *P, unsigned shift, size_t g0, size_t g1, vrt_box2d *boxes)
{
	size_t frames = 0;
	for (unsigned s = 1; P->nboxed && s <= P->L->nslots; s++) {
		vrt_box2d box = {0};
		if (P->boxed[s] && vrt_fp_slot_box(P, s, g0, g1, &box) != 1)
			return (size_t)-1;
		unsigned long long bytes = box.width * box.rows;
		frames += (size_t)((bytes + (1ull << shift) - 1) >> shift);
		if (boxes)
			boxes[s] = box;
	}
	return frames;
}
