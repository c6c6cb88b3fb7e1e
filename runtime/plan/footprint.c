/* SPDX-License-Identifier: MIT */
/*
 * footprint.c - vrt_fp_boxes: a footprint descriptor, a launch and a range
 * of work-groups to a union of strided boxes (footprint.h).
 *
 * The range of flattened group ids is cut into at most five rectangles of
 * groups (a partial row, partial plane, whole planes, rows, a partial
 * row). In one rectangle every name of the descriptor becomes a linear
 * function of base variables, each with a range: group ids over the
 * rectangle, local ids over the work-group, and one per loop. A loop whose
 * trip count does not depend on outer variables (`for (k = t; k < t + T;
 * k++)` in a tiled loop as much as `for (i = 0; i < n; i++)`) is the
 * exact change of variable i = lo + step * b, b in [0, trips); any other
 * takes the hull of its bounds and the result is only a superset. A guard
 * over one base variable clips its range exactly; one over several is
 * dropped (superset). The offset is then origin + sum(a_b * b): one box,
 * its dimensions sorted and folded into the contiguous run where a pitch
 * does not exceed it. All arithmetic is checked: an overflow is -1, and
 * so is a form of the source's narrow arithmetic (a uint index) that
 * leaves its type's range: the source would wrap where the form does not.
 */
#include <string.h>
#include "footprint.h"

#define NB VRT_BOX_MAX_DIMS

/* c0 + sum(c[b] * base b) */
typedef struct lin {
	long long c0, c[NB];
} lin;

typedef struct space {
	lin name_val[VAST_FP_MAX_LOOPS];      /* loop counters */
	long long lo[NB], hi[NB];             /* base variable b in [lo, hi) */
	unsigned nb;
	int ok, exact;
	const vrt_fp_launch *l;
	const vast_kernel_footprints *k;
	size_t glo[3], ghi[3];                /* the rectangle of groups */
} space;

static long long mul(space *s, long long a, long long b)
{
	long long r;
	if (__builtin_mul_overflow(a, b, &r))
		s->ok = 0;
	return r;
}

static long long add(space *s, long long a, long long b)
{
	long long r;
	if (__builtin_add_overflow(a, b, &r))
		s->ok = 0;
	return r;
}

static size_t groups(const vrt_fp_launch *l, unsigned d)
{
	return d < l->work_dim && l->local[d] ? l->global[d] / l->local[d] : 1;
}

static long long sym_value(space *s, unsigned name)
{
	const vrt_fp_launch *l = s->l;
	unsigned d = VAST_FP_INDEX(name);
	int in = d < l->work_dim;
	switch (VAST_FP_KIND(name)) {
	case VAST_FP_ONE: return 1;
	case VAST_FP_ARG:
		if (d >= l->nargs)
			s->ok = 0;
		return d < l->nargs ? l->args[d] : 0;
	case VAST_FP_LOCAL_SIZE: return in ? (long long)l->local[d] : 1;
	case VAST_FP_GLOBAL_SIZE: return in ? (long long)l->global[d] : 1;
	case VAST_FP_NUM_GROUPS: return (long long)groups(l, d);
	case VAST_FP_GLOBAL_OFFSET: return in ? (long long)l->offset[d] : 0;
	default: s->ok = 0; return 0;
	}
}

/* Base variables: 0-2 group ids, 3-5 local ids, 6.. loops. */
static lin var_value(space *s, unsigned name)
{
	lin v;
	memset(&v, 0, sizeof v);
	unsigned d = VAST_FP_INDEX(name);
	switch (VAST_FP_KIND(name)) {
	case VAST_FP_ONE: v.c0 = 1; break;
	case VAST_FP_GROUP: if (d < 3) v.c[d] = 1; else s->ok = 0; break;
	case VAST_FP_LOCAL: if (d < 3) v.c[3 + d] = 1; else s->ok = 0; break;
	case VAST_FP_LOOP:
		if (d < VAST_FP_MAX_LOOPS && 6 + d < s->nb)
			v = s->name_val[d];
		else
			s->ok = 0;
		break;
	default: s->ok = 0;
	}
	return v;
}

static lin form_value(space *s, vast_fp_form f)
{
	lin r;
	memset(&r, 0, sizeof r);
	for (unsigned i = 0; i < f.n; i++) {
		const vast_fp_term *t = &s->k->terms[f.first + i];
		long long m = t->coef;
		for (int j = 0; j < VAST_FP_MAX_SYMS; j++)
			m = mul(s, m, sym_value(s, t->sym[j]));
		lin v = var_value(s, t->var);
		r.c0 = add(s, r.c0, mul(s, m, v.c0));
		for (unsigned b = 0; b < NB; b++)
			r.c[b] = add(s, r.c[b], mul(s, m, v.c[b]));
	}
	return r;
}

static int has_vars(const lin *v)
{
	for (unsigned b = 0; b < NB; b++)
		if (v->c[b])
			return 1;
	return 0;
}

/* Smallest (want_max 0) or largest value of v over the base ranges. */
static long long extreme(space *s, const lin *v, int want_max)
{
	long long r = v->c0;
	for (unsigned b = 0; b < s->nb; b++) {
		if (!v->c[b])
			continue;
		long long at = (v->c[b] > 0) == want_max ? s->hi[b] - 1 : s->lo[b];
		r = add(s, r, mul(s, v->c[b], at));
	}
	return r;
}

static long long floor_div(long long a, long long b) /* b > 0 */
{
	return a / b - (a % b != 0 && a < 0);
}

/* Loop k: a base variable of its trips, its counter lo + step * b. */
static void add_loop(space *s, const vast_fp_loop *lp, unsigned k)
{
	lin lo = form_value(s, lp->lo), hi = form_value(s, lp->hi);
	lin span = hi;
	span.c0 = add(s, hi.c0, -lo.c0);
	for (unsigned b = 0; b < NB; b++)
		span.c[b] = add(s, hi.c[b], -lo.c[b]);
	long long step = lp->step, from = 0, trips;
	if (!has_vars(&span)) {
		trips = span.c0 > 0 ? floor_div(span.c0 + step - 1, step) : 0;
	} else {
		/* the hull of all its iterations: step 1 from the lowest start */
		s->exact = 0;
		from = extreme(s, &lo, 0);
		long long top = extreme(s, &hi, 1);
		trips = top > from ? top - from : 0;
		memset(&lo, 0, sizeof lo);
		lo.c0 = from;
		step = 1;
	}
	unsigned b = 6 + k;
	s->lo[b] = 0;
	s->hi[b] = trips;
	s->nb = b + 1;
	lo.c[b] = step;
	s->name_val[k] = lo;
}

/* Clip base variable b to the values where a * x + r >= 0. */
static void clip(space *s, unsigned b, long long a, long long r)
{
	if (a > 0) { /* x >= ceil(-r / a) */
		long long m = -floor_div(r, a);
		if (m > s->lo[b])
			s->lo[b] = m;
	} else if (a < 0) { /* x <= floor(r / -a) */
		long long m = floor_div(r, -a) + 1;
		if (m < s->hi[b])
			s->hi[b] = m;
	} else if (r < 0) {
		s->hi[b] = s->lo[b];
	}
}

/* Base variables of g that take more than one value, and g's constant
 * with the others at their only value. */
static unsigned free_vars(space *s, const lin *g, unsigned v[NB], long long *r)
{
	unsigned nv = 0;
	*r = g->c0;
	for (unsigned i = 0; i < s->nb; i++) {
		if (!g->c[i])
			continue;
		if (s->lo[i] < s->hi[i] - 1)
			v[nv++] = i;
		else
			*r = add(s, *r, mul(s, g->c[i], s->lo[i]));
	}
	return nv;
}

/* The box of space s (its ranges final); 0 when it is empty. */
static int space_box(space *s, const vast_footprint *fp, vrt_box *box)
{
	lin off = form_value(s, fp->offset);
	memset(box, 0, sizeof *box);
	box->origin = off.c0;
	box->run = fp->size;
	for (unsigned b = 0; b < s->nb; b++) {
		if (s->hi[b] <= s->lo[b])
			return 0;
		long long a = off.c[b];
		unsigned long long n = (unsigned long long)(s->hi[b] - s->lo[b]);
		box->origin = add(s, box->origin, mul(s, a, s->lo[b]));
		if (a < 0) { /* walk it upwards */
			box->origin = add(s, box->origin, mul(s, a, (long long)n - 1));
			a = -a;
		}
		if (!a || n == 1)
			continue;
		unsigned i = box->ndims++;
		while (i > 0 && box->dim[i - 1].pitch > a) { /* sorted insert */
			box->dim[i] = box->dim[i - 1];
			i--;
		}
		box->dim[i].pitch = a;
		box->dim[i].count = n;
	}
	/* A dimension whose pitch does not exceed the run makes it longer. */
	while (box->ndims && (unsigned long long)box->dim[0].pitch <= box->run) {
		box->run = (unsigned long long)add(s, mul(s, box->dim[0].pitch,
		                                          (long long)box->dim[0].count - 1),
		                                   (long long)box->run);
		box->ndims--;
		memmove(box->dim, box->dim + 1, box->ndims * sizeof box->dim[0]);
	}
	return 1;
}

/* Checks [from, to) of fp hold over the ranges of s (C99 6.2.5p9,
 * 6.3.1.3: where they do not, the source wraps and the form is wrong). */
static void check_range(space *s, const vast_footprint *fp, unsigned from, unsigned to)
{
	for (unsigned b = 0; b < s->nb; b++)
		if (s->hi[b] <= s->lo[b])
			return; /* no points */
	for (unsigned i = from; i < to && s->ok; i++) {
		const vast_fp_check *c = &s->k->checks[fp->first_check + i];
		int bits = c->bits > 0 ? c->bits : -c->bits;
		if (bits < 1 || bits > 63) {
			s->ok = 0;
			return;
		}
		lin f = form_value(s, c->form);
		long long lo = c->bits > 0 ? 0 : -(1ll << (bits - 1));
		long long hi = c->bits > 0 ? (long long)((1ull << bits) - 1)
		                           : (1ll << (bits - 1)) - 1;
		if (extreme(s, &f, 0) < lo || extreme(s, &f, 1) > hi)
			s->ok = 0;
	}
}

/* What a part of s found: inexact or refused is so for all of s. */
static void merge(space *s, const space *part)
{
	s->exact &= part->exact;
	s->ok &= part->ok;
}

/* Most values of the outer variable a two-variable guard splits off. */
#define SPLIT_MAX 4

/* Apply guards i.. of fp to s, emitting the boxes of what remains. A
 * guard over one free variable clips it. One over two, a * x + b * y + r
 * (|a| >= |b|), splits x's range: where it holds for every y, where it
 * holds for none, and the few values of x between, each of which makes
 * it a guard over y alone (a global id: group * size + local). */
static void guards_from(space *s, const vast_footprint *fp, unsigned i, vrt_box *out,
                        int max, int *nbox)
{
	if (!s->ok)
		return;
	if (i == fp->nguards) {
		check_range(s, fp, fp->nchecks - fp->noffset_checks, fp->nchecks);
		vrt_box b;
		if (space_box(s, fp, &b)) {
			if (*nbox < max)
				out[*nbox] = b;
			++*nbox;
		}
		return;
	}
	lin g = form_value(s, s->k->guards[fp->first_guard + i]);
	unsigned v[NB];
	long long r;
	unsigned nv = free_vars(s, &g, v, &r);
	if (nv == 0 || nv == 1) {
		clip(s, nv ? v[0] : 0, nv ? g.c[v[0]] : 0, r);
		guards_from(s, fp, i + 1, out, max, nbox);
		return;
	}
	if (nv > 2) {
		s->exact = 0;
		guards_from(s, fp, i + 1, out, max, nbox);
		return;
	}
	unsigned x = v[0], y = v[1];
	if ((g.c[y] < 0 ? -g.c[y] : g.c[y]) > (g.c[x] < 0 ? -g.c[x] : g.c[x]))
		x = v[1], y = v[0];
	long long b = g.c[y];
	long long lo = add(s, r, mul(s, b, b > 0 ? s->lo[y] : s->hi[y] - 1));
	long long hi = add(s, r, mul(s, b, b > 0 ? s->hi[y] - 1 : s->lo[y]));
	space all = *s, part = *s;
	clip(&all, x, g.c[x], lo); /* holds for every y */
	guards_from(&all, fp, i + 1, out, max, nbox);
	merge(s, &all);
	clip(&part, x, g.c[x], hi);              /* holds for some y */
	clip(&part, x, -g.c[x], add(s, -lo, -1)); /* not for every y */
	if (part.hi[x] - part.lo[x] > SPLIT_MAX) {
		part.exact = 0;
		guards_from(&part, fp, i + 1, out, max, nbox);
		merge(s, &part);
		return;
	}
	for (long long at = part.lo[x]; at < part.hi[x]; at++) {
		space one = part;
		one.lo[x] = at;
		one.hi[x] = at + 1;
		guards_from(&one, fp, i, out, max, nbox);
		merge(s, &one);
	}
}

/* The boxes of one rectangle of groups. */
static void rect_boxes(space *s, const vast_footprint *fp, vrt_box *out, int max, int *nbox)
{
	const vrt_fp_launch *l = s->l;
	memset(s->lo, 0, sizeof s->lo);
	memset(s->hi, 0, sizeof s->hi);
	for (unsigned d = 0; d < 3; d++) {
		s->lo[d] = (long long)s->glo[d];
		s->hi[d] = (long long)s->ghi[d];
		s->hi[3 + d] = d < l->work_dim ? (long long)l->local[d] : 1;
	}
	s->nb = 6;
	for (unsigned k = 0; k < fp->nloops; k++)
		add_loop(s, &s->k->loops[fp->first_loop + k], k);
	check_range(s, fp, 0, fp->nchecks - fp->noffset_checks);
	guards_from(s, fp, 0, out, max, nbox);
}

int vrt_fp_boxes(const vast_kernel_footprints *k, const vast_footprint *fp,
                 const vrt_fp_launch *l, size_t g0, size_t g1, vrt_box *out, int max,
                 int *exact)
{
	if (!fp->affine || fp->nloops > VAST_FP_MAX_LOOPS || l->work_dim < 1 || l->work_dim > 3 ||
	    fp->noffset_checks > fp->nchecks)
		return -1;
	space s;
	memset(&s, 0, sizeof s);
	s.ok = s.exact = 1;
	s.l = l;
	s.k = k;
	size_t n0 = groups(l, 0), n1 = groups(l, 1), n2 = groups(l, 2);
	size_t n01 = n0 * n1;
	if (g1 > n01 * n2)
		return -1;
	int nbox = 0;
	/* Cut [g0, g1) into rectangles: the step below ends each at the next
	 * row or plane boundary that the range reaches. */
	while (g0 < g1) {
		size_t x = g0 % n0, y = g0 / n0 % n1, z = g0 / n01, end;
		if (x || g1 - g0 < n0) { /* part of one row */
			end = g0 - x + n0 < g1 ? g0 - x + n0 : g1;
			s.glo[0] = x, s.ghi[0] = x + (end - g0);
			s.glo[1] = y, s.ghi[1] = y + 1;
			s.glo[2] = z, s.ghi[2] = z + 1;
		} else if (y || g1 - g0 < n01) { /* whole rows of one plane */
			size_t rows = (g1 - g0) / n0;
			if (rows > n1 - y)
				rows = n1 - y;
			end = g0 + rows * n0;
			s.glo[0] = 0, s.ghi[0] = n0;
			s.glo[1] = y, s.ghi[1] = y + rows;
			s.glo[2] = z, s.ghi[2] = z + 1;
		} else { /* whole planes */
			size_t planes = (g1 - g0) / n01;
			end = g0 + planes * n01;
			s.glo[0] = 0, s.ghi[0] = n0;
			s.glo[1] = 0, s.ghi[1] = n1;
			s.glo[2] = z, s.ghi[2] = z + planes;
		}
		rect_boxes(&s, fp, out, max, &nbox);
		g0 = end;
	}
	*exact = s.exact;
	return s.ok ? nbox : -1;
}
