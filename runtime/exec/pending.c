/* SPDX-License-Identifier: MIT */
/*
 * pending.c - a program's whole write left in its own memory until the
 * paged launch after it has taken the pages, so that a program that
 * streams its data moves it at the link's speed.
 *
 * A program that streams writes its inputs, launches, reads: the write's
 * copy into the host copy and the launch's transfers from it would run
 * one after the other. When a non-blocking whole write of which the
 * program holds no event is followed on its queue by a paged launch that
 * reads the buffer (and none of it through its inspector), the write
 * only records where the bytes are (vrt_pend_start): the launch copies
 * each range's pages into the host copy just before it sends them
 * (vrt_pend_fill_row, paged.c), so the copy of one range overlaps the
 * transfers of the one before, and every byte is still copied once.
 * What no range took is copied when the launch has run
 * (vrt_pend_settle_all, launch.c).
 *
 * Exactness: OpenCL lets the runtime read the program's memory until the
 * write completes (§5.2.2: it must not be changed before), and the
 * program cannot see the write complete before the launch does: it holds
 * no event of the write, nothing else is queued between the two, and
 * the write's completion gates only later commands on its queue. Before
 * any other command runs (queue.c), the pending bytes are copied
 * (vrt_pend_settle_except), so nothing but that launch sees the host
 * copy while bytes are missing, and the launch copies each page before
 * any of its ranges reads or writes it back. A page is copied once
 * (`done`): a range's write-back to it is not overwritten by a later
 * range's copy. VAST_OVERLAP=0 turns it off. Lock held throughout.
 *
 * Ahead: as soon as a range is enqueued, the next range's pages are
 * copied on a thread of their own (vrt_pend_prefetch) while the executor
 * finishes the range and plans the next; every other entry point here
 * first waits for that copy. Its pages are marked copied when it starts:
 * they are none of the range before's (those were copied first), so no
 * write-back of that range lands on them, and the range that sends them
 * waits for the copy (vrt_pend_fill_row) before it does.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"

typedef struct pending {
	vrt_mem *m;
	const unsigned char *src;   /* the program's bytes: all of m */
	const void *launch;         /* the command that takes them */
	unsigned char *done;        /* pages copied, at `shift`; NULL: none */
	unsigned shift;
} pending;

#define VRT_MAX_PENDING 32
#define VRT_PEND_GAP (64u << 10)
static pending pend[VRT_MAX_PENDING];
static unsigned npend;

static void await_ahead(void);

static pending *find(const vrt_mem *m)
{
	for (unsigned i = 0; i < npend; i++)
		if (pend[i].m == m)
			return &pend[i];
	return NULL;
}

int vrt_pend_start(vrt_mem *m, const void *src, const void *launch)
{
	await_ahead();
	if (!vrt_cfg.overlap || npend == VRT_MAX_PENDING || find(m) || !m->host)
		return 0;
	pend[npend++] = (pending){m, src, launch, NULL, 0};
	vrt_log(VRT_LOG_DEBUG, "a whole write of %zu bytes is left for the launch after it to copy",
	        m->size);
	return 1;
}

/* The copy of the next range's pages, on a thread of its own. */
static struct {
	pthread_t tid;
	int running;
	vrt_copy_batch b;
} ahead;

static void *ahead_main(void *arg)
{
	vrt_copy_batch *b = arg;
	vrt_trace_as("prefetch");
	double t0 = vrt_now_ms();
	size_t bytes = vrt_batch_bytes(b);
	vrt_copy_runs(b->runs, b->n);
	vrt_trace_host("prefetch", "", t0, vrt_now_ms(), -1, bytes);
	return NULL;
}

static void await_ahead(void)
{
	if (!ahead.running)
		return;
	pthread_join(ahead.tid, NULL);
	ahead.running = 0;
	vrt_free(ahead.b.runs);
	ahead.b = (vrt_copy_batch){0};
}

/* Copies (into b) pages [p0, p1) of p that are not yet copied. */
static void copy_pages(pending *p, size_t p0, size_t p1, vrt_copy_batch *bt)
{
	size_t size = p->m->size;
	for (size_t a = p0; a < p1;) {
		if (p->done[a]) {
			a++;
			continue;
		}
		size_t b = a;
		while (b < p1 && !p->done[b])
			p->done[b++] = 1;
		size_t lo = a << p->shift, hi = b << p->shift;
		if (hi > size)
			hi = size;
		if (lo < hi)
			vrt_batch_add(bt, p->m->host + lo, p->src + lo, hi - lo);
		a = b;
	}
}

static size_t npages(const pending *p)
{
	return (p->m->size + ((size_t)1 << p->shift) - 1) >> p->shift;
}

/* Every byte not yet copied; p leaves the list. */
static void settle(pending *p)
{
	double t0 = vrt_now_ms();
	size_t bytes = p->m->size;
	if (p->done) {
		vrt_copy_batch b = {0};
		copy_pages(p, 0, npages(p), &b);
		bytes = vrt_batch_bytes(&b);
		vrt_batch_run(&b);
	} else {
		vrt_copy(p->m->host, p->src, p->m->size);
	}
	vrt_free(p->done);
	vrt_trace_host("settle", "", t0, vrt_now_ms(), -1, bytes);
	*p = pend[--npend];
}

int vrt_pend_overlaps(const void *p, size_t n)
{
	await_ahead();
	for (unsigned i = 0; i < npend; i++) {
		uintptr_t a = (uintptr_t)pend[i].src, b = (uintptr_t)p;
		if (n && pend[i].m->size && b < a + pend[i].m->size && a < b + n)
			return 1;
	}
	return 0;
}

int vrt_pend_has(const vrt_mem *m)
{
	await_ahead();
	return npend && find(m) != NULL;
}

/* The buffer m is a sub-buffer of, or m. */
static const vrt_mem *root(const vrt_mem *m)
{
	while (m->parent)
		m = m->parent;
	return m;
}

void vrt_pend_settle(vrt_mem *m)
{
	await_ahead();
	/* Buffers of one family may share bytes: all of them. */
	for (unsigned i = 0; i < npend;)
		if (root(pend[i].m) == root(m))
			settle(&pend[i]); /* the last moved into i */
		else
			i++;
}

void vrt_pend_settle_all(void)
{
	await_ahead();
	while (npend)
		settle(&pend[npend - 1]);
}

void vrt_pend_settle_except(const void *launch)
{
	await_ahead();
	for (unsigned i = 0; i < npend;)
		if (pend[i].launch != launch)
			settle(&pend[i]); /* the last moved into i */
		else
			i++;
}

/* Adds the copies of L's pending pages that `row` marks to bt. */
static void collect_row(const vrt_launch *L, const vrt_layout *lay, const unsigned char *row,
                        vrt_copy_batch *bt)
{
	for (unsigned s = 1; npend && s <= L->nslots; s++) {
		pending *p = find(L->slot_mem[s]);
		if (!p)
			continue;
		if (p->done && p->shift != lay->page_shift) {
			settle(p);
			continue;
		}
		if (!p->done) {
			p->shift = lay->page_shift;
			if (!(p->done = vrt_calloc(npages(p), 1))) {
				settle(p); /* the whole copy needs no memory */
				continue;
			}
		}
		/* Runs of the row closer than VRT_PEND_GAP are copied as one,
		 * the pages between them too (a page may be copied early, never
		 * twice), so that no run is tiny; all of them are one parallel
		 * job (vrt_copy_runs). Not more: fdtd3d's box rows, a plane
		 * (2.6 MB) apart at 4 GiB, merged under a gap of 4 MiB into the
		 * whole buffer, copied by its first range before any transfer. */
		const unsigned char *r = row + lay->slot_off[s];
		size_t n = lay->slot_pages[s] < npages(p) ? lay->slot_pages[s] : npages(p);
		size_t gap = (VRT_PEND_GAP >> p->shift) + 1, a = 0, b = 0;
		for (size_t i = 0; i < n; i++) {
			if (!r[i])
				continue;
			if (b && i - b >= gap) {
				copy_pages(p, a, b, bt);
				b = 0;
			}
			if (!b)
				a = i;
			b = i + 1;
		}
		if (b)
			copy_pages(p, a, b, bt);
	}
}

void vrt_pend_fill_row(const vrt_launch *L, const vrt_layout *lay, const unsigned char *row)
{
	await_ahead();
	vrt_copy_batch bt = {0};
	collect_row(L, lay, row, &bt);
	vrt_batch_run(&bt);
}

void vrt_pend_prefetch(const vrt_launch *L, const vrt_layout *lay, const unsigned char *row)
{
	await_ahead();
	if (!npend)
		return;
	collect_row(L, lay, row, &ahead.b);
	if (!ahead.b.n)
		return;
	if (pthread_create(&ahead.tid, NULL, ahead_main, &ahead.b) == 0)
		ahead.running = 1;
	else
		vrt_batch_run(&ahead.b); /* no thread: now */
}
