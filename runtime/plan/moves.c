/* SPDX-License-Identifier: MIT */
/*
 * moves.c - what each range of a paged launch moves, planned before
 * anything runs: per range, for every page it touches, where its bytes
 * come from (the host, a kept frame, the hold, an earlier range still
 * in flight, nowhere: written whole) and where the pages it writes go
 * (home now, dirty in the frames, the hold), as a move list of runs of
 * pages with their bytes.
 *
 * The planner walks the ranges in the order they run with a row of
 * where each page's current bytes lie (VRT_AT_*), as the executor
 * (paged/: pages_to_fill, use_kept, forward, share_reads, record_held,
 * goes_home_now, remember) would find it: a range's written pages leave
 * the frames and hold copies stale and, when the range finishes, lie at
 * home (or dirty in its frames); its read-only pages of a slot several
 * ranges touch stay in its frames for the ranges after it. Frames
 * themselves are not laid out here: a kept copy counts as usable until
 * a range writes the page (the executor may also lose one to a range
 * that reuses its frame, and then sends it: it sends every page the
 * plan sends, and maybe more). Not planned here either: slots moved
 * as boxes (their pages are in no row), and which pages a range written
 * in part fills by their gaps alone (gaps.c): such a page counts as sent
 * whole. Pure C: no device, no globals; the unit test drives it on
 * recorded launches (test_rt_moves.c).
 */
#include <string.h>

#include "plan/plan.h"

unsigned long long vrt_page_valid(const vrt_layout *lay, unsigned s, size_t p)
{
	unsigned long long at = (unsigned long long)p << lay->page_shift;
	unsigned long long n = 1ull << lay->page_shift, size = lay->slot_size[s];
	return at >= size ? 0 : size - at < n ? size - at : n;
}

/* The latest range in [lo, i) that touches byte k of a row, or i. */
static size_t writer_in_flight(const vrt_move_input *in, size_t lo, size_t i, size_t k)
{
	for (size_t j = i; j-- > lo;)
		if (in->unions[j * in->lay->row_bytes + k])
			return j;
	return i;
}

/* Slot s of range i is bound to the hold: all its pages of the hold's
 * slot lie in the hold (lpt.c binds it). */
static int bound(const vrt_move_input *in, size_t i, unsigned s)
{
	const vrt_layout *lay = in->lay;
	return s == lay->hold_slot && vrt_pas_held(lay, in->unions + i * lay->row_bytes);
}

static void add_bytes(vrt_move_bytes *b, int out, unsigned kind, unsigned long long n)
{
	if (out) {
		if (kind == VRT_OUT_HOME)
			b->home += n;
		else if (kind == VRT_OUT_DIRTY)
			b->dirty += n;
		else if (kind == VRT_OUT_HELD)
			b->held += n;
		return;
	}
	switch (kind) {
	case VRT_IN_HOST: b->in_host += n; break;
	case VRT_IN_KEPT: b->in_kept += n; break;
	case VRT_IN_HOLD: b->in_hold += n; break;
	case VRT_IN_FORWARD: b->forwarded += n; break;
	case VRT_IN_WRITTEN: b->written += n; break;
	}
}

/* Appends one move to M (growing *cap); -1 out of memory. */
static int push(vrt_moves *M, size_t *n, size_t *cap, const vrt_move *mv)
{
	if (VRT_GROW(&M->moves, cap, *n + 1))
		return -1;
	M->moves[(*n)++] = *mv;
	return 0;
}

/* Range i's rows as runs of one kind (and, forwarded, one source):
 * its moves, ins first. */
static int list_moves(const vrt_move_input *in, vrt_moves *M, size_t i, const size_t *from,
                      size_t *n, size_t *cap)
{
	const vrt_layout *lay = in->lay;
	for (int out = 0; out <= 1; out++) {
		const unsigned char *row = (out ? M->out : M->in) + i * lay->row_bytes;
		for (unsigned s = 1; s <= lay->nslots; s++) {
			const unsigned char *r = row + lay->slot_off[s];
			const size_t *f = from + lay->slot_off[s];
			for (size_t p = 0; p < lay->slot_pages[s];) {
				if (!r[p]) {
					p++;
					continue;
				}
				vrt_move mv = {r[p], (unsigned char)out, s, p, 0, out ? 0 : f[p], 0};
				for (; p < lay->slot_pages[s] && r[p] == mv.kind &&
				       (out || mv.kind != VRT_IN_FORWARD || f[p] == mv.from); p++) {
					mv.npages++;
					mv.bytes += vrt_page_valid(lay, s, p);
				}
				add_bytes(&M->bytes[i], out, mv.kind, mv.bytes);
				add_bytes(&M->total, out, mv.kind, mv.bytes);
				if (push(M, n, cap, &mv))
					return -1;
			}
		}
	}
	return 0;
}

/* Range i's ins and outs into M's rows (its forwarded pages' sources
 * into from), and the state row `at` moved on past it. */
static void plan_range(const vrt_move_input *in, vrt_moves *M, size_t i, unsigned char *at,
                       size_t *from)
{
	const vrt_layout *lay = in->lay;
	size_t rb = lay->row_bytes, n = in->nranges, sets = in->nsets ? in->nsets : 1;
	const unsigned char *u = in->unions + i * rb;
	const unsigned char *whole = in->whole ? in->whole + i * rb : NULL;
	/* the set's previous range, and the ranges still in flight */
	const unsigned char *prev = i >= sets ? in->unions + (i - sets) * rb : NULL;
	size_t lo = i + 1 > sets ? i + 1 - sets : 0;
	/* Ranges that all have sets of their own leave lazy slots dirty. */
	int lazy = n <= sets;
	unsigned char *ir = M->in + i * rb, *orow = M->out + i * rb;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		size_t off = lay->slot_off[s], np = lay->slot_pages[s];
		if (lay->res_buf[s] || !vrt_pas_count(u + off, np))
			continue;
		int writes = (in->mode[s] & VAST_MODE_W) != 0, held = bound(in, i, s);
		int in_place = !writes && prev && !memcmp(prev + off, u + off, np);
		int keeps = in->resides >> s & 1, shares = (in->shared >> s & 1) && i + 1 < n;
		for (size_t p = 0; p < np; p++) {
			size_t k = off + p, j;
			if (!u[k])
				continue;
			if (whole && whole[k])
				ir[k] = VRT_IN_WRITTEN;
			else if (writes && (j = writer_in_flight(in, lo, i, k)) < i) {
				/* Both bound to the hold: the page is where j wrote it. */
				ir[k] = held && bound(in, j, s) ? VRT_IN_HOLD : VRT_IN_FORWARD;
				from[k] = j;
			} else if (in_place)
				ir[k] = VRT_IN_KEPT;
			else
				ir[k] = at[k] == VRT_AT_HOLD ? VRT_IN_HOLD
				        : at[k] == VRT_AT_KEPT || at[k] == VRT_AT_DIRTY ? VRT_IN_KEPT
				        : VRT_IN_HOST;
			if (held) {
				orow[k] = writes ? VRT_OUT_HELD : VRT_OUT_NONE;
				at[k] = VRT_AT_HOLD;
			} else if (writes) {
				int dirty = lazy && (in->lazy >> s & 1);
				orow[k] = dirty ? VRT_OUT_DIRTY : VRT_OUT_HOME;
				at[k] = dirty ? VRT_AT_DIRTY : VRT_AT_HOST;
			} else if (shares && keeps && at[k] == VRT_AT_HOST)
				at[k] = VRT_AT_KEPT;
		}
	}
}

/* What the launch leaves: the last range on each set keeps its pages of
 * the slots that may reside in its frames (clean, or dirty where left
 * lazily); a written slot's other clean copies are stale (its version
 * moved on). */
static void leave(const vrt_move_input *in, vrt_moves *M, unsigned char *at)
{
	const vrt_layout *lay = in->lay;
	size_t rb = lay->row_bytes, n = in->nranges, sets = in->nsets ? in->nsets : 1;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		size_t off = lay->slot_off[s];
		if (!(in->mode[s] & VAST_MODE_W))
			continue;
		for (size_t p = 0; p < lay->slot_pages[s]; p++)
			if (at[off + p] == VRT_AT_KEPT)
				at[off + p] = VRT_AT_HOST;
	}
	for (size_t i = n > sets ? n - sets : 0; i < n; i++) {
		const unsigned char *u = in->unions + i * rb, *o = M->out + i * rb;
		for (unsigned s = 1; s <= lay->nslots; s++) {
			size_t off = lay->slot_off[s];
			if (!(in->resides >> s & 1) || lay->res_buf[s] || bound(in, i, s))
				continue;
			for (size_t p = 0; p < lay->slot_pages[s]; p++) {
				size_t k = off + p;
				if (u[k] && at[k] != VRT_AT_HOLD && at[k] != VRT_AT_DIRTY)
					at[k] = o[k] == VRT_OUT_DIRTY ? VRT_AT_DIRTY : VRT_AT_KEPT;
			}
		}
	}
}

int vrt_moves_plan(const vrt_move_input *in, vrt_moves **out)
{
	const vrt_layout *lay = in->lay;
	size_t rb = lay->row_bytes, n = in->nranges, nmoves = 0, cap = 0;
	vrt_moves *M = vrt_calloc(1, sizeof *M);
	size_t *from = vrt_calloc(rb ? rb : 1, sizeof *from);
	*out = NULL;
	if (!M || !from)
		goto oom;
	M->nranges = n;
	M->in = vrt_calloc(n ? n : 1, rb ? rb : 1);
	M->out = vrt_calloc(n ? n : 1, rb ? rb : 1);
	M->after = vrt_calloc(1, rb ? rb : 1);
	M->first = vrt_calloc(n + 1, sizeof *M->first);
	M->bytes = vrt_calloc(n ? n : 1, sizeof *M->bytes);
	if (!M->in || !M->out || !M->after || !M->first || !M->bytes)
		goto oom;
	if (in->state)
		memcpy(M->after, in->state, rb);
	for (size_t i = 0; i < n; i++) {
		plan_range(in, M, i, M->after, from);
		M->first[i] = nmoves;
		if (list_moves(in, M, i, from, &nmoves, &cap))
			goto oom;
	}
	M->first[n] = nmoves;
	leave(in, M, M->after);
	vrt_free(from);
	*out = M;
	return 0;
oom:
	vrt_free(from);
	vrt_moves_free(M);
	return -1;
}

void vrt_moves_free(vrt_moves *M)
{
	if (!M)
		return;
	vrt_free(M->in);
	vrt_free(M->out);
	vrt_free(M->after);
	vrt_free(M->moves);
	vrt_free(M->first);
	vrt_free(M->bytes);
	vrt_free(M);
}

int vrt_moves_agree(const vrt_moves *M, size_t k, int sent, unsigned out)
{
	unsigned in = M->in[k];
	int in_ok = sent ? in == VRT_IN_HOST || in == VRT_IN_KEPT || in == VRT_IN_FORWARD
	                 : in != VRT_IN_HOST;
	return in_ok && M->out[k] == out;
}
