/* SPDX-License-Identifier: MIT */
/*
 * deliver.c - the program's reads queued behind a paged launch, filled
 * range by range while the launch runs, so that a program that streams
 * its data moves it at the link's speed.
 *
 * A program that streams writes its inputs, launches, reads its outputs:
 * the reads' copies from the host copies into its arrays (often fresh
 * memory, whose first touch costs as much as the copy) would start only
 * when the launch has ended. When reads of buffers the launch writes are
 * queued right behind it, each range's written pages that no later range
 * writes go to the read's memory as soon as the range's write-back is in
 * the host copy (vrt_deliver_finish), on a thread of their own, while the
 * next ranges run; the read itself then copies only what is left
 * (vrt_deliver_read): pages written home later (lazy, held), never
 * written, or written by ranges it could not follow.
 *
 * Exactness. A page is copied early only once its last writer among the
 * launch's ranges has written it home: the ranges finish in order, each
 * page records the last range that writes it (`last`, set when a range
 * starts: a later range writing it again clears `done`), and the copies
 * run in range order on one chain of threads, so a later copy of a page
 * lands after an earlier one. The read runs right after the launch on
 * its queue (nothing between but other reads) with no wait list: nothing
 * changes the buffer in between (another queue writing it unordered with
 * the read is a race in the program), and the program may not touch the
 * read's memory from its enqueue to its end (OpenCL 1.2 §5.2.2), so
 * writing it early is invisible. The read's memory must overlap no
 * buffer of the launch (a USE_HOST_PTR array the launch still reads), no
 * pending write's source (pending.c: the program writes an array, then
 * reads the result back into it) and no other read of the chain (order
 * between the two). The read uses what was copied only when the launch
 * went well and the buffer's version is the one the launch left; it
 * first brings dirty pages home (vrt_mem_to_host), none of which were
 * copied early (a page written home eagerly is clean everywhere).
 * VAST_OVERLAP=0 turns it off. Lock held throughout, but in the copies.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "paged/paged.h"

typedef struct early {
	vrt_mem *m;
	const vrt_launch *L;
	const vrt_cmd *read;        /* the read that takes it */
	unsigned slot;
	unsigned char *dst;         /* the program's memory for [off, off+n) of m */
	size_t off, n;
	unsigned shift;
	size_t npages;
	uint32_t *last;             /* 1 + the last range known to write the page; 0: none */
	unsigned char *done;        /* its final bytes are (being) copied to dst */
	unsigned long long version; /* m's when L ended well; 0: not yet, or it failed */
} early;

#define VRT_MAX_EARLY 16
static early ent[VRT_MAX_EARLY];
static unsigned nent;

/* The copies, in range order: each on a thread that first joins the one
 * before it, so they end in order and the next call need not wait. */
typedef struct job {
	vrt_copy_batch b;
	pthread_t prev;
	int has_prev;
	long range;
} job;
static pthread_t chain_tail;
static int chain_running;

static void *job_main(void *arg)
{
	job *j = arg;
	if (j->has_prev)
		pthread_join(j->prev, NULL);
	vrt_trace_as("deliver");
	double t0 = vrt_now_ms();
	size_t bytes = vrt_batch_bytes(&j->b);
	vrt_batch_run(&j->b);
	vrt_trace_host("deliver", "", t0, vrt_now_ms(), j->range, bytes);
	vrt_free(j);
	return NULL;
}

static void await_copies(void)
{
	if (chain_running)
		pthread_join(chain_tail, NULL);
	chain_running = 0;
}

static void dispatch(vrt_copy_batch *b, long range)
{
	job *j = vrt_malloc(sizeof *j);
	pthread_t tid;
	if (j) {
		*j = (job){*b, chain_tail, chain_running, range};
		if (pthread_create(&tid, NULL, job_main, j) == 0) {
			chain_tail = tid;
			chain_running = 1;
			*b = (vrt_copy_batch){0};
			return;
		}
		vrt_free(j);
	}
	await_copies(); /* no thread: now, after the ones before */
	vrt_batch_run(b);
}

static void drop(early *e)
{
	vrt_free(e->last);
	vrt_free(e->done);
	*e = ent[--nent];
}

static early *find(const vrt_cmd *read)
{
	for (unsigned i = 0; i < nent; i++)
		if (ent[i].read == read)
			return &ent[i];
	return NULL;
}

static int overlaps(const void *a, size_t an, const void *b, size_t bn)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
	return an && bn && x < y + bn && y < x + an;
}

/* The walk along the reads behind the running launch. */
typedef struct walk {
	const vrt_launch *L;
	const vrt_layout *lay;
	uint64_t slots;             /* L's slots whose pages go home range by range */
	void *seen_dst[VRT_MAX_EARLY];  /* the reads of the chain so far */
	size_t seen_n[VRT_MAX_EARLY];
	unsigned nseen;
} walk;

/* The slot of L that m is, when it is exactly one and may be followed. */
static unsigned slot_of(const walk *w, const vrt_mem *m)
{
	unsigned slot = 0;
	for (unsigned s = 1; s <= w->L->nslots; s++)
		if (w->L->slot_mem[s] == m) {
			if (slot)
				return 0; /* two slots: two sets of rows */
			slot = s;
		}
	return slot && (w->slots >> slot & 1) ? slot : 0;
}

static int may_fill(const walk *w, const vrt_mem *m, const unsigned char *dst, size_t n)
{
	for (unsigned s = 1; s <= w->L->nslots; s++) {
		const vrt_mem *o = w->L->slot_mem[s];
		if (o->host && overlaps(dst, n, o->host, o->size))
			return 0;
	}
	for (unsigned i = 0; i < w->nseen; i++)
		if (overlaps(dst, n, w->seen_dst[i], w->seen_n[i]))
			return 0;
	return !m->parent && !m->nsubs && !vrt_pend_overlaps(dst, n);
}

static void follow(walk *w, const vrt_cmd *c, vrt_mem *m, size_t off, size_t n, void *dst)
{
	unsigned slot = slot_of(w, m);
	if (find(c) || !slot || !may_fill(w, m, dst, n) || nent == VRT_MAX_EARLY)
		return;
	early *e = &ent[nent];
	*e = (early){.m = m, .L = w->L, .read = c, .slot = slot, .dst = dst, .off = off, .n = n,
	              .shift = w->lay->page_shift, .npages = w->lay->slot_pages[slot]};
	e->last = vrt_calloc(e->npages, sizeof *e->last);
	e->done = vrt_calloc(e->npages, 1);
	if (!e->last || !e->done) {
		vrt_free(e->last);
		vrt_free(e->done);
		return;
	}
	nent++;
	/* Often fresh memory: huge pages halve its first touch. */
	vrt_advise_huge(dst, n);
	vrt_log(VRT_LOG_DEBUG, "kernel '%s': the read of %zu bytes queued behind it is filled range by range",
	        w->L->k->name, n);
}

static int visit(void *ctx, const vrt_cmd *c)
{
	walk *w = ctx;
	vrt_mem *m;
	size_t off, n;
	void *dst;
	/* The second kernel of a fused launch: it runs with the ranges. */
	if (c->absorbed)
		return 1;
	if (!c->reads_into || c->nwait || c->pre || !c->reads_into(c, &m, &off, &n, &dst) ||
	    w->nseen == VRT_MAX_EARLY)
		return 0;
	follow(w, c, m, off, n, dst);
	w->seen_dst[w->nseen] = dst;
	w->seen_n[w->nseen++] = n;
	return 1;
}

/* The first page at or after p that row r marks, n where none does: a
 * range's row is mostly zeros, skipped 8 bytes at a time. */
static size_t next_marked(const unsigned char *r, size_t p, size_t n)
{
	for (; p < n && (p & 7); p++)
		if (r[p])
			return p;
	for (uint64_t w; p + 8 <= n; p += 8) {
		memcpy(&w, r + p, 8);
		if (w)
			break;
	}
	while (p < n && !r[p])
		p++;
	return p;
}

void vrt_deliver_start(const vrt_launch *L, const vrt_layout *lay, uint64_t slots, size_t i,
                       const unsigned char *row)
{
	if (!vrt_cfg.overlap || L->share || !slots)
		return;
	walk w = {.L = L, .lay = lay, .slots = slots};
	vrt_queue_behind(visit, &w);
	for (unsigned k = 0; k < nent; k++) {
		early *e = &ent[k];
		if (e->L != L)
			continue;
		const unsigned char *r = row + lay->slot_off[e->slot];
		for (size_t p = next_marked(r, 0, e->npages); p < e->npages;
		     p = next_marked(r, p + 1, e->npages)) {
			e->last[p] = (uint32_t)(i + 1);
			e->done[p] = 0;
		}
	}
}

/* Adds to b the copies of pages [a, b) of e that lie in its read. */
static void add_pages(vrt_copy_batch *b, const early *e, size_t a, size_t z)
{
	size_t lo = a << e->shift, hi = z << e->shift;
	if (lo < e->off)
		lo = e->off;
	if (hi > e->off + e->n)
		hi = e->off + e->n;
	if (lo < hi)
		vrt_batch_add(b, e->dst + (lo - e->off), e->m->host + lo, hi - lo);
}

void vrt_deliver_finish(const vrt_launch *L, const vrt_layout *lay, uint64_t home, size_t j,
                        const unsigned char *row)
{
	vrt_copy_batch b = {0};
	for (unsigned k = 0; k < nent; k++) {
		early *e = &ent[k];
		if (e->L != L || !(home >> e->slot & 1))
			continue;
		const unsigned char *r = row + lay->slot_off[e->slot];
		uint32_t mine = (uint32_t)(j + 1);
		for (size_t p = next_marked(r, 0, e->npages); p < e->npages;) {
			if (e->last[p] != mine) {
				p = next_marked(r, p + 1, e->npages);
				continue;
			}
			size_t q = p;
			while (q < e->npages && r[q] && e->last[q] == mine)
				e->done[q++] = 1;
			add_pages(&b, e, p, q);
			p = q;
		}
	}
	if (b.n)
		dispatch(&b, (long)j);
}

int vrt_deliver_follows(const vrt_launch *L)
{
	for (unsigned k = 0; k < nent; k++)
		if (ent[k].L == L)
			return 1;
	return 0;
}

void vrt_deliver_end(const vrt_launch *L, int ok)
{
	for (unsigned k = 0; k < nent;) {
		if (ent[k].L != L) {
			k++;
		} else if (ok) {
			ent[k].version = ent[k].m->version;
			ent[k].L = NULL; /* L's memory goes with it */
			k++;
		} else {
			await_copies();
			drop(&ent[k]); /* the last moved into k */
		}
	}
}

int vrt_deliver_read(const vrt_cmd *c, vrt_mem *m, cl_int *err)
{
	early *e = nent ? find(c) : NULL;
	if (!e)
		return 0;
	await_copies();
	if (!e->version || e->version != m->version || e->m != m) {
		drop(e);
		return 0;
	}
	double t0 = vrt_now_ms();
	*err = vrt_mem_to_host(m);
	vrt_copy_batch b = {0};
	for (size_t p = 0; *err == CL_SUCCESS && p < e->npages;) {
		if (e->done[p]) {
			p++;
			continue;
		}
		size_t q = p;
		while (q < e->npages && !e->done[q])
			q++;
		add_pages(&b, e, p, q);
		p = q;
	}
	size_t bytes = vrt_batch_bytes(&b);
	vrt_batch_run(&b);
	vrt_trace_host("delivered", "", t0, vrt_now_ms(), -1, bytes);
	drop(e);
	return 1;
}

void vrt_deliver_forget(const vrt_cmd *c)
{
	early *e = nent ? find(c) : NULL;
	if (e) {
		await_copies();
		drop(e);
	}
}
