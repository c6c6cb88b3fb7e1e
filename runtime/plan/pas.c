/* SPDX-License-Identifier: MIT */
/*
 * pas.c - Page Accessed Sets and their reduction (VAST, Algorithm 1).
 *
 * The inspector marks, per row of WG_PER_PAS consecutive work-groups, one
 * byte per page of every buffer slot the row touches. The reduction walks
 * the rows in order, OR-ing them into a running union while the union's
 * device footprint (its pages as frames, plus the scratch frame 0, plus
 * the LPT) fits the budget, and cuts a range where it would not. Rows are
 * OR-ed 64 bits (8 pages) at a time; each slot's part of a row starts at
 * a multiple of 8 bytes so words never straddle slots. Marks are
 * normalized to 0/1 once, so counting pages is a popcount.
 */
#include <string.h>

#include "plan/plan.h"

/* Set bits of x. Without -mpopcnt (x86-64's baseline lacks it),
 * __builtin_popcountll is a call into libgcc per word: planning a 4 GiB
 * launch on the H100 spent 100 ms in those calls. Rows are sparse, so
 * zero words cost a test only, and the rest a few shifts and a multiply. */
static inline size_t popcount64(uint64_t x)
{
#ifdef __POPCNT__
	return (size_t)__builtin_popcountll(x);
#else
	if (!x)
		return 0;
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (size_t)((x * 0x0101010101010101ull) >> 56);
#endif
}

void vrt_layout_init(vrt_layout *l)
{
	size_t off = 0, total = 0;
	l->slot_pages[0] = l->slot_off[0] = l->slot_size[0] = 0;
	for (unsigned s = 1; s <= l->nslots; s++) {
		size_t pg = ((size_t)1 << l->page_shift);
		l->slot_pages[s] = (l->slot_size[s] + pg - 1) >> l->page_shift;
		l->slot_off[s] = off;
		off += (l->slot_pages[s] + 7) & ~(size_t)7;
		total += l->slot_pages[s];
	}
	l->row_bytes = off ? off : 8;
	l->total_pages = total;
}

size_t vrt_lpt_bytes(const vrt_layout *l)
{
	/* the header, the run and box tables, the page tables */
	return 4 * (vrt_lpt_runs_index(l->nslots) + 2 * VAST_LPT_ENTRY_WORDS * (size_t)l->nslots +
	            l->total_pages);
}

unsigned long long vrt_range_footprint(const vrt_layout *l, size_t pages)
{
	return (((unsigned long long)pages + 1) << l->page_shift) + vrt_lpt_bytes(l);
}

void vrt_pas_normalize(unsigned char *rows, size_t bytes)
{
	size_t words = bytes / 8;
	for (size_t i = 0; i < words; i++) {
		uint64_t x;
		memcpy(&x, rows + 8 * i, 8);
		/* Fold each byte's bits into its bit 0; bits moved in from the
		 * next byte only reach bits 1..7, which the mask drops. */
		x |= x >> 4;
		x |= x >> 2;
		x |= x >> 1;
		x &= 0x0101010101010101ull;
		memcpy(rows + 8 * i, &x, 8);
	}
	for (size_t i = words * 8; i < bytes; i++)
		rows[i] = rows[i] != 0;
}

size_t vrt_pas_or(unsigned char *dst, const unsigned char *src, size_t n)
{
	size_t added = 0;
	for (size_t i = 0; i < n; i += 8) {
		uint64_t a, b;
		memcpy(&a, dst + i, 8);
		memcpy(&b, src + i, 8);
		added += popcount64(b & ~a);
		a |= b;
		memcpy(dst + i, &a, 8);
	}
	return added;
}

size_t vrt_pas_count(const unsigned char *row, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i += 8) {
		uint64_t a;
		memcpy(&a, row + i, 8);
		c += popcount64(a);
	}
	return c;
}

size_t vrt_pas_count_new(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i += 8) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		c += popcount64(x & ~y);
	}
	return c;
}

size_t vrt_pas_next_run(const unsigned char *row, size_t from, size_t n, size_t *end)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	size_t p = from;
	uint64_t x;
	/* whole zero words skipped; the first byte found in the word that
	 * is not, byte by byte (any byte order) */
	while (p + 8 <= n && (memcpy(&x, row + p, 8), !x))
		p += 8;
	while (p < n && !row[p])
		p++;
	if (p >= n) /* from past n too */
		return n;
	size_t q = p + 1;
	/* words with no zero byte ((x - ones) & ~x & highs is 0) skipped */
	while (q + 8 <= n && (memcpy(&x, row + q, 8), !((x - ones) & ~x & highs)))
		q += 8;
	while (q < n && row[q])
		q++;
	*end = q;
	return p;
}

void vrt_pas_extent(const unsigned char *row, size_t n, size_t *lo, size_t *hi)
{
	size_t end, a = vrt_pas_next_run(row, 0, n, &end), b = n;
	uint64_t x;
	if (a == n) {
		*lo = *hi = 0;
		return;
	}
	while (b >= a + 8 && (memcpy(&x, row + b - 8, 8), !x))
		b -= 8;
	while (!row[b - 1])
		b--;
	*lo = a;
	*hi = b;
}

size_t vrt_pas_held(const vrt_layout *l, const unsigned char *u)
{
	unsigned s = l->hold_slot;
	if (!s || !l->hold_pages)
		return 0;
	const unsigned char *h = u + l->slot_off[s];
	for (size_t p = l->hold_pages; p < l->slot_pages[s]; p++)
		if (h[p])
			return 0; /* past the hold: the slot takes frames */
	size_t held = 0;
	for (size_t p = 0; p < l->hold_pages; p++)
		held += h[p] != 0;
	return held;
}

size_t vrt_pas_frame_pages(const vrt_layout *l, const unsigned char *u)
{
	return vrt_pas_count(u, l->row_bytes) - vrt_pas_held(l, u);
}

size_t vrt_pas_marked_frames(const vrt_layout *l, const vrt_marked *m)
{
	size_t pages = 0;
	for (unsigned s = 1; s <= l->nslots; s++)
		pages += m[s].fresh;
	/* The hold's pages take no frames when every mark lies in it
	 * (vrt_pas_held): the last page marked is below the hold's end. */
	unsigned h = l->hold_slot;
	if (h && l->hold_pages && m[h].hi <= l->hold_pages)
		pages -= m[h].fresh;
	return pages;
}

void vrt_pas_clear_marked(const vrt_layout *l, unsigned char *row, const vrt_marked *m)
{
	for (unsigned s = 1; s <= l->nslots; s++)
		if (m[s].hi > m[s].lo)
			memset(row + l->slot_off[s] + m[s].lo, 0, m[s].hi - m[s].lo);
}

unsigned long long vrt_frames_beside_lpt(unsigned long long share, size_t lb, unsigned sh)
{
	unsigned long long pages = share >> sh, step = pages / 32 ? pages / 32 : 1;
	unsigned long long lpt = (((lb + ((size_t)1 << sh) - 1) >> sh) + step - 1) / step * step;
	return lpt < pages ? pages - lpt : 0;
}

int vrt_pas_reduce(const vrt_layout *l, const unsigned char *rows,
                   size_t nrows, unsigned long long budget,
                   vrt_range **ranges, size_t *nranges, size_t *bad_row)
{
	size_t rb = l->row_bytes, cap = 16, n = 0;
	*ranges = NULL;
	*nranges = 0;
	vrt_range *out = vrt_malloc(cap * sizeof *out);
	unsigned char *u = vrt_calloc(1, rb);
	/* With a hold, what a row adds to a range's frames is the frames of
	 * the union with it less those of the union without. */
	unsigned char *with = l->hold_pages ? vrt_malloc(rb) : NULL;
	if (!out || !u || (l->hold_pages && !with)) {
		vrt_free(out);
		vrt_free(u);
		vrt_free(with);
		return -2;
	}
	size_t pages = 0, first = 0;
	for (size_t r = 0; r < nrows; r++) {
		const unsigned char *row = rows + r * rb;
		size_t own = vrt_pas_frame_pages(l, row);
		if (vrt_range_footprint(l, own) > budget) {
			*bad_row = r;
			vrt_free(out);
			vrt_free(u);
			vrt_free(with);
			return -1;
		}
		/* Pages the union would have: popcount of row & ~u more. */
		size_t grown = pages;
		if (with) {
			memcpy(with, u, rb);
			vrt_pas_or(with, row, rb);
			grown = vrt_pas_frame_pages(l, with);
		} else {
			for (size_t i = 0; i < rb; i += 8) {
				uint64_t a, b;
				memcpy(&a, u + i, 8);
				memcpy(&b, row + i, 8);
				grown += popcount64(b & ~a);
			}
		}
		if (r > first && vrt_range_footprint(l, grown) > budget) {
			if (n == cap) {
				vrt_range *g = vrt_realloc(out, 2 * cap * sizeof *out);
				if (!g) {
					vrt_free(out);
					vrt_free(u);
					vrt_free(with);
					return -2;
				}
				out = g;
				cap *= 2;
			}
			out[n].first_row = first;
			out[n].last_row = r - 1;
			out[n].pages = pages;
			n++;
			memset(u, 0, rb);
			first = r;
		}
		vrt_pas_or(u, row, rb);
		pages = vrt_pas_frame_pages(l, u);
	}
	if (nrows > 0) {
		if (n == cap) {
			vrt_range *g = vrt_realloc(out, (cap + 1) * sizeof *out);
			if (!g) {
				vrt_free(out);
				vrt_free(u);
				vrt_free(with);
				return -2;
			}
			out = g;
		}
		out[n].first_row = first;
		out[n].last_row = nrows - 1;
		out[n].pages = pages;
		n++;
	}
	vrt_free(u);
	vrt_free(with);
	*ranges = out;
	*nranges = n;
	return 0;
}

int vrt_pas_reduce_sets(const vrt_layout *l, const unsigned char *rows, size_t nrows,
                        unsigned long long budget, unsigned sets, vrt_range **ranges,
                        size_t *nranges, size_t *bad_row)
{
	size_t rb = l->row_bytes;
	unsigned long long per = budget / sets;
	int r = vrt_pas_reduce(l, rows, nrows, per, ranges, nranges, bad_row);
	if (r || sets == 1 || *nranges < 2)
		return r;
	/* The first range's rows alone, against a quarter: its first piece
	 * becomes range 0, the rest of its rows (a subset of rows that fit
	 * per) range 1. */
	vrt_range *sub, *g = *ranges;
	size_t nsub, unused;
	r = vrt_pas_reduce(l, rows, g[0].last_row + 1, per / 4, &sub, &nsub, &unused);
	if (r == -1 || (r == 0 && nsub < 2)) {
		vrt_free(sub);
		return 0; /* the first range cannot be cut smaller: keep it */
	}
	g = r ? NULL : vrt_realloc(*ranges, (*nranges + 1) * sizeof *g);
	unsigned char *u = g ? vrt_calloc(1, rb) : NULL;
	if (!u) {
		vrt_free(g ? g : *ranges);
		vrt_free(sub);
		*ranges = NULL;
		*nranges = 0;
		return -2;
	}
	memmove(g + 1, g, (*nranges)++ * sizeof *g);
	g[0] = sub[0];
	g[1].first_row = sub[0].last_row + 1;
	for (size_t row = g[1].first_row; row <= g[1].last_row; row++)
		vrt_pas_or(u, rows + row * rb, rb);
	g[1].pages = vrt_pas_frame_pages(l, u);
	vrt_free(u);
	vrt_free(sub);
	*ranges = g;
	return 0;
}
