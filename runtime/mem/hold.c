/* SPDX-License-Identifier: MIT */
/*
 * hold.c - which pages the hold holds (paged/keeps.c, choose_hold).
 *
 * The hold keeps the first pages of one buffer on the device across
 * launches, page p in frame p of a device buffer of its own. Its pages
 * are recorded here, one byte a page, rather than in the residency map
 * of the frame sets (residency.c): a range looks up, records and forgets
 * a hold page in constant time, and nothing scans the hold's pages but
 * a write home. (In the residency map, the hold's 18 K pages at 4 GiB
 * on the H100 made every range's scans of the map cost ~1 ms.)
 *
 * Only the index: whether the hold's copy of a page is current, and
 * whether it is newer than the host copy, is the memory directory's
 * answer (the pool's location, poolloc.c). Pure C: no OpenCL calls; the
 * unit test drives it.
 */
#include <string.h>

#include "mem/mem.h"

int vrt_hold_init(vrt_devsets *d, unsigned long long serial, size_t pages, unsigned shift)
{
	vrt_free(d->held);
	d->held = vrt_calloc(pages ? pages : 1, 1);
	d->hold_serial = serial;
	d->hold_pages = d->held ? pages : 0;
	d->hold_shift = shift;
	return d->held ? 0 : -1;
}

void vrt_hold_free(vrt_devsets *d)
{
	vrt_free(d->held);
	d->held = NULL;
	d->hold_serial = 0;
	d->hold_pages = 0;
	d->hold_shift = 0;
}

int vrt_hold_has(const vrt_devsets *d, unsigned long long serial, size_t page)
{
	return d->held && serial == d->hold_serial && page < d->hold_pages && d->held[page];
}

void vrt_hold_put(vrt_devsets *d, size_t page)
{
	if (page < d->hold_pages)
		d->held[page] = 1;
}

size_t vrt_hold_lacks(const vrt_devsets *d, unsigned long long serial, size_t page, size_t end)
{
	if (!d->held || serial != d->hold_serial || page >= end || page >= d->hold_pages)
		return page;
	size_t in = end < d->hold_pages ? end : d->hold_pages;
	const unsigned char *lacks = memchr(d->held + page, 0, in - page);
	return lacks ? (size_t)(lacks - d->held) : in;
}

void vrt_hold_forget(vrt_devsets *d, size_t page)
{
	if (page < d->hold_pages)
		d->held[page] = 0;
}
