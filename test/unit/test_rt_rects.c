/* SPDX-License-Identifier: MIT */
/*
 * test_rt_rects.c - vrt_span_rects against the spans it groups: on random
 * page sets (column strips of random pitch and width, noise, a buffer's
 * partial last page) and page sizes, the rectangles cover the spans in
 * order, and copying them row by row as clEnqueueWriteBufferRect would
 * puts in the frames exactly the bytes that copying the spans one by one
 * (vrt_gather) puts there, reading only the buffer's bytes and writing
 * no frame byte a span does not own. A strip alone is one rectangle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

static unsigned rnd(unsigned n)
{
	return (unsigned)rand() % n;
}

#define MAXPAGES 512

/* One slot of `pages` pages; a strip of `width` pages every `pitch`
 * pages from `first` (and noise when asked); returns 1 when the strip
 * alone was marked, so its spans make one rectangle. */
static int trial(int noise)
{
	vrt_layout l;
	memset(&l, 0, sizeof l);
	l.nslots = 1;
	l.page_shift = 4 + rnd(5);
	size_t page = (size_t)1 << l.page_shift;
	size_t pages = 1 + rnd(MAXPAGES);
	l.slot_size[1] = (pages - 1) * page + 1 + rnd((unsigned)page);
	vrt_layout_init(&l);
	unsigned char *u = calloc(1, l.row_bytes);
	size_t width = 1 + rnd(4), pitch = width + 1 + rnd(8), first = rnd(8);
	for (size_t p = first; p < pages; p += pitch)
		for (size_t w = 0; w < width && p + w < pages; w++)
			u[l.slot_off[1] + p + w] = 1;
	for (size_t i = 0; noise && i < 1 + rnd(8); i++)
		u[l.slot_off[1] + rnd((unsigned)pages)] = 1;
	uint32_t *lpt = malloc(vrt_lpt_bytes(&l));
	vrt_frames fr;
	CHECK(lpt && u && vrt_lpt_build(&l, u, NULL, VAST_NO_FRAME - 1, lpt, &fr) == 0);
	vrt_span *sp;
	vrt_rect *rc;
	size_t nsp = vrt_spans(&l, u, lpt, 1, &sp), nrc = vrt_span_rects(&l, sp, nsp, &rc);
	CHECK(nsp != (size_t)-1 && nrc != (size_t)-1 && nrc <= nsp);
	size_t fbytes = (fr.used[0] + 1) * page;
	unsigned char *host = malloc(l.slot_size[1]), *want = calloc(1, fbytes),
	              *got = calloc(1, fbytes), *own = calloc(1, fbytes), *hit = calloc(1, fbytes);
	for (size_t i = 0; i < l.slot_size[1]; i++)
		host[i] = (unsigned char)rand();
	size_t k = 0;
	for (size_t i = 0; i < nsp; i++) {
		vrt_gather(&l, &sp[i], host, want);
		memset(own + (sp[i].frame << l.page_shift), 1, vrt_span_valid(&l, &sp[i]));
	}
	for (size_t r = 0; r < nrc; r++) {
		const vrt_rect *x = &rc[r];
		CHECK(x->rows >= 1 && k + x->rows <= nsp);
		if (x->rows < 1 || k + x->rows > nsp)
			break;
		/* in order: its first row is the next span's */
		CHECK(x->host_off == sp[k].page << l.page_shift &&
		      x->dev_off == sp[k].frame << l.page_shift);
		CHECK(x->host_off + (x->rows - 1) * x->host_pitch + x->row_bytes <= l.slot_size[1]);
		CHECK(x->dev_off + (x->rows - 1) * x->dev_pitch + x->row_bytes <= fbytes);
		for (size_t row = 0; row < x->rows; row++) {
			size_t h = x->host_off + row * x->host_pitch, d = x->dev_off + row * x->dev_pitch;
			if (h + x->row_bytes > l.slot_size[1] || d + x->row_bytes > fbytes)
				break;
			memcpy(got + d, host + h, x->row_bytes);
			memset(hit + d, 1, x->row_bytes);
		}
		k += x->rows;
	}
	CHECK(k == nsp);
	CHECK(!memcmp(own, hit, fbytes));
	for (size_t b = 0; b < fbytes; b++)
		CHECK(!own[b] || got[b] == want[b]);
	/* A strip whose rows are all whole, of its width, in the buffer. */
	int strip = !noise && nsp > 1 && sp[nsp - 1].npages == width &&
	            vrt_span_valid(&l, &sp[nsp - 1]) == width * page;
	if (strip)
		CHECK(nrc == 1);
	free(u);
	free(lpt);
	free(host);
	free(want);
	free(got);
	free(own);
	free(hit);
	vrt_free(sp);
	vrt_free(rc);
	return strip;
}

int main(void)
{
	srand(11);
	int strips = 0;
	for (int i = 0; i < 4000; i++)
		strips += trial(i & 1);
	CHECK(strips > 100);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures != 0;
}
