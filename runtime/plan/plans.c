/* SPDX-License-Identifier: MIT */
/*
 * plans.c - the plans of paged launches, kept for the next launch like
 * them, so that an iterative program's repeated launch is planned once.
 *
 * Iterative programs launch one kernel with the same arguments hundreds
 * of times; its plan (PAS rows, ranges, the frames each set needs) is the
 * same every time unless something it was made from changed. A plan is
 * kept on its kernel under a key of everything it depends on:
 *
 *   the device and the budget, the geometry (global, local, offset),
 *   the bytes of every argument that is not a buffer (scalars, and the
 *   size of __local ones), and per slot the buffer (its serial, never
 *   reused, unlike the handle), its size and mode;
 *   and for a slot the inspector reads (an indirect kernel's index
 *   buffer: the stub's inspect_reads), its version, which moves on with
 *   every write to its bytes (mem.c, vrt_mem_changed).
 *
 * A plan made from footprint descriptors alone depends, of the scalars,
 * only on those the descriptors name (fprows.c, vrt_fp_named_args): its
 * key leaves the others out, so fdtd2d's fdtd_ey, whose `source` changes
 * every step, plans once. Nor does it depend on which buffers are bound,
 * only on their sizes and modes, which parameters share one, and whether
 * one is in a family of sub-buffers (fprows.c boxes none of those): its
 * key has no serials, so a ping-pong stencil, its buffers swapped every
 * step, plans once too (fdtd3d planned twice, 2.5-3.4% of its run on
 * the H100). The two kinds of key are told apart by their first byte; a
 * launch looks for the descriptors' kind first, then the other.
 *
 * A fused launch's plan (paged/planner.c, plan_fused: two kernels range
 * by range on one set of slots) is kept on its first kernel under a third
 * kind of key: the first kernel's descriptors' key, and the second
 * kernel (its serial), the scalars its descriptors name, which slots its
 * arguments are, and both kernels' own modes of each slot. Such a launch
 * keeps nothing whole and has no hold, and its plan reads nothing of what
 * earlier launches left on the device, so fdtd2d's fdtd_ex and fdtd_hz,
 * fused every step, plan once (before, every step: 24 plans of 16 ms,
 * 0.38 s of a 2.2 s run at 4 GiB on the H200; on PoCL at 2048x2048, ten
 * steps, 33-41 ms of planning became 4-14 ms).
 *
 * So a direct or affine kernel plans once, and an indirect one inspects
 * again only after its index buffer changed. The knobs a plan also
 * depends on (VAST_PAGE_SIZE, VAST_PIPELINE, VAST_FOOTPRINTS,
 * VAST_MAX_ALLOC) are read once per process. VRT_PLANS_KEPT plans per
 * kernel at most, the least recently used dropped first (a ping-pong
 * stencil alternates two); freed with the kernel. Lock held throughout.
 */
#include <string.h>

#include "plan/plan.h"

#define VRT_PLANS_KEPT 4

typedef struct vrt_plans {
	unsigned char *key;
	size_t key_len;
	vrt_plan plan;
	struct vrt_plans *next; /* most recently used first */
} vrt_plans;

typedef struct key {
	unsigned char *p; /* NULL: only count */
	size_t n;
} key;

static void put(key *k, const void *v, size_t n)
{
	if (k->p)
		memcpy(k->p + k->n, v, n);
	k->n += n;
}

/* A launch as its plan's key sees it: L, and for a fused launch L2 (its
 * second kernel's arguments into L's slots, and its modes) and mode1 (L's
 * kernel's own modes); named, named2: the scalars of L's kernel and L2's
 * a plan from descriptors depends on, NULL: all. */
typedef struct who {
	const vrt_launch *L, *L2;
	const unsigned *mode1;
	const unsigned char *named, *named2;
} who;

/* The arguments of L that are not buffers: all, or those named names. */
static void put_args(key *k, const vrt_launch *L, const unsigned char *named)
{
	for (cl_uint i = 0; i < L->k->nargs; i++) {
		const vrt_arg *a = &L->args[i];
		unsigned char has = a->bytes != NULL;
		put(k, &L->arg_slot[i], sizeof L->arg_slot[i]);
		if (L->arg_slot[i] || (named && i < VRT_MAX_ARGS && !named[i]))
			continue;
		put(k, &a->size, sizeof a->size);
		put(k, &has, 1);
		if (has)
			put(k, a->bytes, a->size);
	}
}

static void build_key(const who *w, key *k)
{
	const vrt_launch *L = w->L;
	const unsigned char *named = w->named;
	unsigned char kind = w->L2 ? 2 : named != NULL;
	put(k, &kind, 1);
	put(k, &L->dev, sizeof L->dev);
	put(k, &L->budget, sizeof L->budget);
	put(k, &L->dim, sizeof L->dim);
	put(k, L->gsize, sizeof L->gsize);
	put(k, L->lsize, sizeof L->lsize);
	put(k, L->goff, sizeof L->goff);
	put_args(k, L, named);
	put(k, &L->nslots, sizeof L->nslots);
	for (unsigned s = 1; s <= L->nslots; s++) {
		const vrt_mem *m = L->slot_mem[s];
		unsigned long long version = L->slot_inspect_reads[s] ? m->version : 0;
		unsigned char family = m->parent || m->nsubs;
		if (named)
			put(k, &family, 1);
		else
			put(k, &m->serial, sizeof m->serial);
		put(k, &m->size, sizeof m->size);
		put(k, &L->slot_mode[s], sizeof L->slot_mode[s]);
		put(k, &version, sizeof version);
		put(k, &L->res_buf[s], sizeof L->res_buf[s]);
	}
	put(k, &L->hold_slot, sizeof L->hold_slot);
	put(k, &L->hold_bytes, sizeof L->hold_bytes);
	if (!w->L2)
		return;
	/* The second kernel by its serial: a kernel released leaves its
	 * object to the next one made (object.c), another kernel at the
	 * same address. Its geometry, device and slots' buffers are L's
	 * (launch.c, run_fused). */
	const vrt_launch *L2 = w->L2;
	put(k, &L2->k->serial, sizeof L2->k->serial);
	put_args(k, L2, w->named2);
	for (unsigned s = 1; s <= L->nslots; s++) {
		put(k, &L2->slot_mode[s], sizeof L2->slot_mode[s]);
		put(k, &w->mode1[s], sizeof w->mode1[s]);
	}
}

/* w's key (vrt_free), NULL when out of memory. */
static unsigned char *key_of(const who *w, size_t *len)
{
	key k = {NULL, 0};
	build_key(w, &k);
	if (!(k.p = vrt_malloc(k.n)))
		return NULL;
	*len = k.n;
	k.n = 0;
	build_key(w, &k);
	return k.p;
}

static const vrt_plan *find(const who *w)
{
	size_t len;
	vrt_plans **pp = &w->L->k->plans;
	unsigned char *kb = key_of(w, &len);
	if (!kb)
		return NULL; /* no plan: the launch plans and fails as it will */
	for (; *pp; pp = &(*pp)->next) {
		vrt_plans *e = *pp;
		if (e->key_len != len || memcmp(e->key, kb, len))
			continue;
		*pp = e->next;
		e->next = w->L->k->plans;
		w->L->k->plans = e;
		vrt_free(kb);
		return &e->plan;
	}
	vrt_free(kb);
	return NULL;
}

const vrt_plan *vrt_plan_find(const vrt_launch *L)
{
	unsigned char named[VRT_MAX_ARGS];
	unsigned nargs = L->k->nargs < VRT_MAX_ARGS ? L->k->nargs : VRT_MAX_ARGS;
	if (!L->k->plans)
		return NULL;
	who w = {L, NULL, NULL, named, NULL};
	const vrt_plan *p = vrt_fp_named_args(L->k, named, nargs) ? find(&w) : NULL;
	w.named = NULL;
	return p ? p : find(&w);
}

/* w for the fused launch of L and L2: 0 when one of the kernels has no
 * descriptors (then there is no fused plan: planner.c, plan_fused). */
static int fused_who(who *w, const vrt_launch *L, const vrt_launch *L2, const unsigned *mode1,
                     unsigned char *named, unsigned char *named2)
{
	unsigned n1 = L->k->nargs < VRT_MAX_ARGS ? L->k->nargs : VRT_MAX_ARGS;
	unsigned n2 = L2->k->nargs < VRT_MAX_ARGS ? L2->k->nargs : VRT_MAX_ARGS;
	*w = (who){L, L2, mode1, named, named2};
	return vrt_fp_named_args(L->k, named, n1) && vrt_fp_named_args(L2->k, named2, n2);
}

const vrt_plan *vrt_plan_find_fused(const vrt_launch *L, const vrt_launch *L2,
                                    const unsigned *mode1)
{
	unsigned char named[VRT_MAX_ARGS], named2[VRT_MAX_ARGS];
	who w;
	return L->k->plans && fused_who(&w, L, L2, mode1, named, named2) ? find(&w) : NULL;
}

void vrt_plan_tables_free(vrt_plan_tables *t)
{
	vrt_free(t->lpts);
	vrt_free(t->frames);
	vrt_free(t->fills);
	vrt_free(t->gaps);
	vrt_free(t->gaps_at);
	vrt_free(t->gap_rects);
	vrt_free(t->gap_rects_at);
}

static void plans_free_one(vrt_plans *e)
{
	vrt_free(e->key);
	vrt_free(e->plan.rows);
	vrt_free(e->plan.ranges);
	vrt_free(e->plan.unions);
	vrt_plan_tables_free(&e->plan.tables);
	vrt_free(e);
}

static const vrt_plan *keep(const who *w, const vrt_plan *p)
{
	vrt_kernel *k = w->L->k;
	vrt_plans *e = vrt_calloc(1, sizeof *e);
	if (!e)
		return NULL;
	if (!(e->key = key_of(w, &e->key_len))) {
		vrt_free(e);
		return NULL;
	}
	/* Kept plans of every kernel are told apart by it (paged/lpts.c):
	 * a counter under the lock, as buffers' serials are (mem.c). */
	static unsigned long long serials;
	e->plan = *p;
	e->plan.serial = ++serials;
	e->next = k->plans;
	k->plans = e;
	vrt_plans **pp = &e->next;
	for (unsigned n = 1; *pp && n < VRT_PLANS_KEPT; n++)
		pp = &(*pp)->next;
	vrt_plans_free(*pp);
	*pp = NULL;
	return &e->plan;
}

const vrt_plan *vrt_plan_keep(const vrt_launch *L, const vrt_plan *p, int from_fp)
{
	unsigned char named[VRT_MAX_ARGS];
	unsigned nargs = L->k->nargs < VRT_MAX_ARGS ? L->k->nargs : VRT_MAX_ARGS;
	int by_named = from_fp && vrt_fp_named_args(L->k, named, nargs);
	who w = {L, NULL, NULL, by_named ? named : NULL, NULL};
	return keep(&w, p);
}

const vrt_plan *vrt_plan_keep_fused(const vrt_launch *L, const vrt_launch *L2,
                                    const unsigned *mode1, const vrt_plan *p)
{
	unsigned char named[VRT_MAX_ARGS], named2[VRT_MAX_ARGS];
	who w;
	return fused_who(&w, L, L2, mode1, named, named2) ? keep(&w, p) : NULL;
}

void vrt_plans_free(vrt_plans *e)
{
	while (e) {
		vrt_plans *next = e->next;
		plans_free_one(e);
		e = next;
	}
}
