/* SPDX-License-Identifier: MIT */
/*
 * room.c - room on a device: one eviction policy over everything that
 * takes its budget. The candidates are the device copies of buffers
 * (mem.c), the replicas split launches keep there (replica.c) and the
 * frame pools (framepool.c) in two parts that can go alone: a pool's
 * frame sets, which a plan uses together (one candidate, with the dummy
 * page and the kept tables), and its hold. Each has a size, a last use
 * (vrt_evict_tick's clock) and a next use, the place of the first launch
 * queued behind the one running that needs it (queue.c): one that uses
 * the buffer, for a device copy or a replica; one that pages on the
 * pool's context and device, for its sets; one of those that uses the
 * held buffer, for its hold. A pool the running launch pages on is
 * needed now: it goes last. evict.c chooses the victims, exactly as many
 * as free the room wanted; they go here (newer bytes home first). Above
 * mem.c and framepool.c: they keep the records and move the bytes, this
 * decides what goes. Lock held throughout.
 */
#include <limits.h>

#include "mem/mem.h"

enum { CAND_COPY, CAND_REPLICA, CAND_POOL };

typedef struct candidate {
	int kind;
	vrt_mem *m;                 /* a device copy's or a replica's buffer */
	vrt_replica *r;
	vrt_pool_part part;         /* a pool's */
} candidate;

typedef struct candidates {
	const vrt_room *room;
	candidate *c;
	unsigned long long *size, *lru;
	unsigned long *next;
	size_t n, cap, cap_size, cap_lru, cap_next;
	int oom;
} candidates;

static int kept(const vrt_mem *m, vrt_mem *const *keep, unsigned nkeep)
{
	for (unsigned i = 0; i < nkeep; i++)
		if (keep[i] == m)
			return 1;
	return 0;
}

static void add(candidates *cs, const candidate *c, unsigned long long size, unsigned long next,
                unsigned long long lru)
{
	if (cs->oom || VRT_GROW(&cs->c, &cs->cap, cs->n + 1) ||
	    VRT_GROW(&cs->size, &cs->cap_size, cs->n + 1) ||
	    VRT_GROW(&cs->lru, &cs->cap_lru, cs->n + 1) ||
	    VRT_GROW(&cs->next, &cs->cap_next, cs->n + 1)) {
		cs->oom = 1;
		return;
	}
	cs->c[cs->n] = *c;
	cs->size[cs->n] = size;
	cs->next[cs->n] = next;
	cs->lru[cs->n] = lru;
	cs->n++;
}

/* The look-ahead of a pool's part: a launch paging on its context and
 * device (that uses the held buffer, for the hold). */
typedef struct pool_use {
	const vrt_pool_part *part;
	const vrt_mem *held;
} pool_use;

static int takes_part(const vrt_cmd *c, const void *arg)
{
	const pool_use *u = arg;
	return c->pages_on && c->pages_on(c, u->part->ctx, u->part->dev) &&
	       (!u->part->hold || (u->held && c->uses && c->uses(c, u->held)));
}

static void add_part(void *arg, const vrt_pool_part *part)
{
	candidates *cs = arg;
	candidate c = {.kind = CAND_POOL, .part = *part};
	pool_use u = {part, part->hold ? vrt_mem_by_serial(part->hold_serial) : NULL};
	if (vrt_queue_running(takes_part, &u)) {
		add(cs, &c, part->bytes, 0, ULLONG_MAX); /* needed now */
		return;
	}
	add(cs, &c, part->bytes, part->hold && !u.held ? VRT_NEVER : vrt_queue_next(takes_part, &u),
	    part->used);
}

/* Every candidate of room's budget, but the kept ones, and those
 * `skip` (not NULL) rules out. */
static void gather(candidates *cs, int (*skip)(const vrt_mem *m, void *arg), void *arg)
{
	const vrt_room *room = cs->room;
	for (vrt_mem *m = vrt_mem_all(); m; m = m->next) {
		if (skip && skip(m, arg))
			continue;
		unsigned long next = 0;
		int asked = 0;
		if (room->own && m->dev && !kept(m, room->keep, room->nkeep)) {
			candidate c = {.kind = CAND_COPY, .m = m};
			next = vrt_queue_next_use(m);
			asked = 1;
			add(cs, &c, m->size, next, m->lru);
		}
		if (room->keep_replicas && kept(m, room->keep, room->nkeep))
			continue;
		for (vrt_replica *r = m->replicas; r; r = r->next) {
			if (room->dev && r->dev != room->dev)
				continue;
			candidate c = {.kind = CAND_REPLICA, .m = m, .r = r};
			if (!asked)
				next = vrt_queue_next_use(m);
			asked = 1;
			/* A replica's last use is its buffer's device copy's clock:
			 * replicas keep none of their own. */
			add(cs, &c, r->hi - r->lo, next, m->lru);
		}
	}
	if (room->own)
		vrt_framepool_each_part(add_part, cs);
}

static void candidates_free(candidates *cs)
{
	vrt_free(cs->c);
	vrt_free(cs->size);
	vrt_free(cs->lru);
	vrt_free(cs->next);
}

static cl_int evict_one(const candidate *c)
{
	switch (c->kind) {
	case CAND_COPY:
		return vrt_mem_evict(c->m);
	case CAND_REPLICA:
		return vrt_mem_replica_evict(c->m, c->r);
	default:
		vrt_framepool_release_part(&c->part);
		return CL_SUCCESS;
	}
}

/* Evicts the candidates out marks; idle too: every one no launch queued
 * needs (next use VRT_NEVER, or nothing known). The bytes freed in
 * *freed. */
static cl_int evict_marked(candidates *cs, const unsigned char *out, int idle,
                           unsigned long long *freed)
{
	cl_int err = CL_SUCCESS;
	*freed = 0;
	for (size_t i = 0; i < cs->n && err == CL_SUCCESS; i++) {
		if (!out[i] && !(idle && (cs->next[i] == VRT_NEVER || cs->next[i] == 0)))
			continue;
		if (cs->c[i].kind == CAND_COPY)
			vrt_log(VRT_LOG_DEBUG, "evict: buffer %p (%llu bytes), its next use %lu launches on (0: unknown, %lu: none queued)",
			        (void *)cs->c[i].m, cs->size[i], cs->next[i], VRT_NEVER);
		err = evict_one(&cs->c[i]);
		*freed += cs->size[i];
	}
	return err;
}

cl_int vrt_room_free(const vrt_room *room, unsigned long long need)
{
	if (!need)
		return CL_SUCCESS;
	candidates cs = {.room = room};
	gather(&cs, NULL, NULL);
	unsigned char *out = vrt_malloc(cs.n ? cs.n : 1);
	cl_int err = CL_OUT_OF_HOST_MEMORY;
	unsigned long long freed = 0;
	if (out && !cs.oom) {
		unsigned long long chosen = vrt_evict_choose(cs.n, cs.size, cs.next, cs.lru, need, out);
		err = evict_marked(&cs, out, 0, &freed);
		if (err == CL_SUCCESS && chosen < need)
			err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
	}
	vrt_free(out);
	candidates_free(&cs);
	return err;
}

cl_int vrt_room_to_device(vrt_mem *m, cl_command_queue q, size_t budget, vrt_mem *const *keep,
                          unsigned nkeep)
{
	if (!m->dev || m->dev_queue != q) {
		cl_device_id dev = NULL;
		clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
		/* A device copy m has elsewhere goes first (mem.c). */
		unsigned long long used = vrt_mem_used(dev, 1) - (m->dev ? m->size : 0);
		vrt_room room = {.dev = dev, .own = 1, .keep = keep, .nkeep = nkeep};
		cl_int err;
		if (used + m->size > budget &&
		    (err = vrt_room_free(&room, used + m->size - budget)) != CL_SUCCESS)
			return err;
	}
	return vrt_mem_to_device(m, q, budget, keep, nkeep);
}

/* A buffer sharing bytes with one of the launch's (a slot, or a member
 * of a slot's family over its bytes): the paged launch reads and writes
 * the host copies of its slots, so theirs are no candidates, they go. */
static int of_launch(const vrt_mem *m, void *arg)
{
	const vrt_launch *L = arg;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (vrt_mem_overlap(L->slot_mem[s], m))
			return 1;
	return 0;
}

/* The device copies and replicas (on every device) of the launch's
 * buffers and of those sharing bytes with them go home and go, but the
 * kept ones' device copies. */
static cl_int launch_copies_home(const vrt_launch *L, vrt_mem *const *keep, unsigned nkeep)
{
	for (vrt_mem *m = vrt_mem_all(); m; m = m->next) {
		if (kept(m, keep, nkeep) || !of_launch(m, (void *)L))
			continue;
		cl_int err = m->replicas ? vrt_mem_to_host(m) : CL_SUCCESS;
		while (err == CL_SUCCESS && m->replicas)
			err = vrt_mem_replica_evict(m, m->replicas);
		if (err == CL_SUCCESS && m->dev)
			err = vrt_mem_evict(m);
		if (err != CL_SUCCESS)
			return err;
	}
	return CL_SUCCESS;
}

/* The frame sets of the pool the launch will take, where they pass its
 * budget: fitting them to its plan would drop them anyway, and meanwhile
 * they would push out what stays beside the launch. */
typedef struct own_sets {
	const vrt_launch *L;
	vrt_pool_part part;
	int found;
} own_sets;

static void find_own_sets(void *arg, const vrt_pool_part *part)
{
	own_sets *o = arg;
	if (!part->hold && part->ctx == o->L->ctx && part->dev == o->L->dev) {
		o->part = *part;
		o->found = 1;
	}
}

cl_int vrt_room_for_paging(vrt_launch *L, vrt_mem *const *keep, unsigned nkeep,
                           unsigned long long least)
{
	/* The paged path writes host copies behind mem.c's back: no buffer
	 * of the context is known zero after. */
	for (vrt_mem *m = vrt_mem_all(); m; m = m->next)
		if (m->ctx == L->ctx && m->host)
			m->zero = 0;
	/* A split launch's shares run on threads of their own: everything
	 * of the context comes home, as the shares work from host copies. */
	if (L->share)
		return vrt_mem_evict_except(L->ctx, keep, nkeep);
	cl_int err = launch_copies_home(L, keep, nkeep);
	if (err != CL_SUCCESS)
		return err;
	/* What stays beside the launch's frames: the others' device copies
	 * and replicas on its device, as the policy chooses, leaving the
	 * frames at least `least` of the room (L->budget and what stayed
	 * beside it before); those no launch queued needs go too, their room
	 * the frames'. */
	vrt_room room = {.dev = L->dev, .own = 1, .keep = keep, .nkeep = nkeep, .keep_replicas = 1};
	candidates cs = {.room = &room};
	gather(&cs, of_launch, L);
	unsigned long long total = L->budget + L->beside, others = 0;
	size_t n = 0;
	/* The pools are the frames' own room, no candidates here. */
	for (size_t i = 0; i < cs.n; i++)
		if (cs.c[i].kind != CAND_POOL) {
			cs.c[n] = cs.c[i];
			cs.size[n] = cs.size[i];
			cs.next[n] = cs.next[i];
			cs.lru[n] = cs.lru[i];
			others += cs.size[n++];
		}
	cs.n = n;
	unsigned long long need = others + least > total ? others + least - total : 0, freed = 0;
	unsigned char *out = vrt_malloc(cs.n ? cs.n : 1);
	err = CL_OUT_OF_HOST_MEMORY;
	if (out && !cs.oom) {
		vrt_evict_choose(cs.n, cs.size, cs.next, cs.lru, need, out);
		err = evict_marked(&cs, out, 1, &freed);
	}
	vrt_free(out);
	candidates_free(&cs);
	if (err != CL_SUCCESS)
		return err;
	L->beside = others - freed;
	L->budget = total - L->beside;
	if (L->beside)
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': %llu bytes of other buffers the launches queued after it need stay on the device, %llu bytes of budget left to page",
		        L->k->name, L->beside, L->budget);
	own_sets o = {.L = L};
	vrt_framepool_each_part(find_own_sets, &o);
	if (L->beside && o.found && o.part.bytes > L->budget)
		vrt_framepool_release_part(&o.part);
	return CL_SUCCESS;
}
