/* SPDX-License-Identifier: MIT */
/*
 * traffic.c - the bytes a work-group of a split launch moves: what the
 * partitioner (partition.c) prices at each device's link.
 *
 * A share of n devices runs about groups / n work-groups and moves the
 * pages they reach (4 KiB, as resident.c keeps them): those it reads in,
 * those it may write out. The footprint descriptors give both for the
 * first such window (vrt_fp_slot_pages, vrt_fp_may_write); bytes a
 * window reaches whole, wherever it is (a matrix multiply's B), count
 * for every share, as they cross every link. Without descriptors for
 * every slot: the launch's buffer bytes per work-group.
 */
#include <string.h>

#include "launch/launch.h"

#define TRAFFIC_SHIFT 12

static size_t marked(const unsigned char *pages, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += pages[i] != 0;
	return c;
}

void vrt_slots_layout(const vrt_launch *L, unsigned shift, vrt_layout *lay)
{
	memset(lay, 0, sizeof *lay);
	lay->nslots = L->nslots;
	lay->page_shift = shift;
	for (unsigned s = 1; s <= L->nslots; s++) {
		lay->slot_size[s] = L->slot_mem[s]->size;
		lay->slot_pages[s] = (lay->slot_size[s] + ((size_t)1 << shift) - 1) >> shift;
	}
}

/* Bytes of slot s of W's window its groups reach (*in, when it reads
 * the slot) and may write (*out); 0 when the descriptors do not tell,
 * -1 out of memory. */
static int slot_bytes(const vrt_launch *W, vrt_fp_plan *P, const vrt_layout *lay, unsigned s,
                      double *in, double *out)
{
	size_t np = lay->slot_pages[s];
	unsigned char *pages = vrt_calloc(np ? np : 1, 1);
	if (!pages)
		return -1;
	int ok = vrt_fp_slot_pages(P, lay, s, 0, W->groups, pages);
	size_t reached = ok == 1 ? marked(pages, np) : 0, wrote = 0;
	if (ok == 1 && (W->slot_mode[s] & VAST_MODE_W)) {
		memset(pages, 0, np);
		ok = vrt_fp_may_write(P, s, TRAFFIC_SHIFT, np, pages);
		wrote = ok == 1 ? marked(pages, np) : 0;
	}
	vrt_free(pages);
	double size = (double)lay->slot_size[s];
	double r = (double)reached * (1u << TRAFFIC_SHIFT), w = (double)wrote * (1u << TRAFFIC_SHIFT);
	if (W->slot_mode[s] & VAST_MODE_R)
		*in += r < size ? r : size;
	*out += w < size ? w : size;
	return ok;
}

double vrt_group_bytes(const vrt_launch *L, unsigned n)
{
	double whole = L->groups ? (double)L->footprint / (double)L->groups : 0;
	vrt_launch W = *L;
	W.groups = L->groups / (n ? n : 1);
	if (!W.groups || L->nslots > VAST_MAX_SLOTS)
		return whole;
	int oom = 0;
	vrt_fp_plan *P = vrt_fp_plan_new(&W, &oom);
	if (!P)
		return whole;
	vrt_layout lay;
	vrt_slots_layout(L, TRAFFIC_SHIFT, &lay);
	double in = 0, out = 0;
	int ok = 1;
	for (unsigned s = 1; s <= L->nslots && ok == 1; s++)
		ok = slot_bytes(&W, P, &lay, s, &in, &out);
	vrt_fp_plan_free(P);
	if (ok != 1)
		return whole;
	return (in > out ? in : out) / (double)W.groups;
}
