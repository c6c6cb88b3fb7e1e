/* SPDX-License-Identifier: MIT */
/*
 * hold.c - which pages the hold holds (paged.c, choose_hold).
 *
 * The hold keeps the first pages of one buffer on the device across
 * launches, page p in frame p of a device buffer of its own. Its pages
 * are recorded here, one entry a page, rather than in the residency map
 * of the frame sets (residency.c): a range looks up, records and forgets
 * a hold page in constant time, and nothing scans the hold's pages but
 * a write home. (In the residency map, the hold's 18 K pages at 4 GiB
 * on the H100 made every range's scans of the map cost ~1 ms.)
 *
 * An entry holds the buffer's write version when its page got its bytes
 * (0: the hold does not have the page) and whether the page is newer
 * than the host copy (dirty: the hold, not the host copy, has its bytes
 * until they go home). An entry whose version is not the buffer's is
 * stale: a host write replaced the whole buffer since, its bytes must
 * never go home. Pure C: no OpenCL calls; the unit test drives it.
 */
#include <string.h>

#include "mem/mem.h"

int vrt_hold_init(vrt_devsets *d, unsigned long long serial, size_t pages, unsigned shift)
{
	vrt_free(d->held);
	d->held = vrt_calloc(pages ? pages : 1, sizeof *d->held);
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

vrt_held *vrt_hold_find(const vrt_devsets *d, unsigned long long serial, size_t page)
{
	if (!d->held || serial != d->hold_serial || page >= d->hold_pages ||
	    !d->held[page].version)
		return NULL;
	return &d->held[page];
}

void vrt_hold_put(vrt_devsets *d, size_t page, unsigned long long version, int dirty)
{
	if (page < d->hold_pages)
		d->held[page] = (vrt_held){version, dirty};
}

void vrt_hold_forget(vrt_devsets *d, size_t page)
{
	if (page < d->hold_pages)
		d->held[page] = (vrt_held){0, 0};
}

void vrt_hold_restamp(vrt_devsets *d, unsigned long long before, unsigned long long after)
{
	for (size_t p = 0; p < d->hold_pages; p++)
		if (d->held[p].dirty && d->held[p].version == before)
			d->held[p].version = after;
}

size_t vrt_hold_dirty_runs(vrt_devsets *d, unsigned long long version, vrt_res_run **runs)
{
	size_t n = 0, nr = 0;
	*runs = NULL;
	for (size_t p = 0; p < d->hold_pages; p++) {
		vrt_held *h = &d->held[p];
		if (h->dirty && h->version != version)
			*h = (vrt_held){0, 0}; /* stale: forgotten, never written */
		n += h->dirty && (p == 0 || !d->held[p - 1].dirty);
	}
	if (!n)
		return 0;
	vrt_res_run *out = vrt_malloc(n * sizeof *out);
	if (!out)
		return (size_t)-1;
	for (size_t p = 0; p < d->hold_pages; p++) {
		if (!d->held[p].dirty)
			continue;
		if (nr && out[nr - 1].page + out[nr - 1].n == p)
			out[nr - 1].n++;
		else
			out[nr++] = (vrt_res_run){d->hold_serial, p, p, 1, VRT_HOLD_SET, 0};
	}
	*runs = out;
	return nr;
}

void vrt_hold_settle(vrt_devsets *d, const vrt_res_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t p = runs[i].page; p < runs[i].page + runs[i].n && p < d->hold_pages; p++)
			d->held[p].dirty = 0;
}
