/* SPDX-License-Identifier: MIT */
/*
 * pasrun.c - an inspector over a chunk of Page Accessed Set rows: the PAS
 * description it reads (docs/generated-kernels.md, "Inspector") and one
 * chunk's launch, the rows zeroed first and read back after. Shared by
 * the inspector over whole buffers (inspect.c) and the paged inspector
 * (pinspect.c): both launch from a first group that is a multiple of
 * WG_PER_PAS and mark the same rows.
 */
#include "inspect/inspect.h"

/* vast/stub.h's VAST_PASINFO_* (docs/generated-kernels.md, "Inspector"):
 * per slot its first byte in a row and its pages, then per slot its bytes
 * (what vast_load checks its reads against), then, from
 * VAST_PASINFO_SCRATCH (aligned for any type read there),
 * VAST_INSPECT_SCRATCH zero bytes (what an out-of-bounds read gets). */
cl_mem vrt_pasinfo_new(cl_context ctx, const vrt_layout *lay, size_t wpp, cl_int *err)
{
	size_t n = VAST_PASINFO_SCRATCH((size_t)lay->nslots) + VAST_INSPECT_SCRATCH / sizeof(cl_ulong);
	cl_ulong *pi = vrt_calloc(n, sizeof *pi);
	if (!pi) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	pi[VAST_PASINFO_ROW_BYTES] = lay->row_bytes;
	pi[VAST_PASINFO_GROUPS] = wpp;
	pi[VAST_PASINFO_NSLOTS] = lay->nslots;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		pi[VAST_PASINFO_OFF(s)] = lay->slot_off[s];
		pi[VAST_PASINFO_PAGES(s)] = lay->slot_pages[s];
		pi[VAST_PASINFO_BYTES(lay->nslots, s)] = lay->slot_size[s];
	}
	cl_mem b = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
	                                   n * sizeof *pi, pi, err);
	vrt_free(pi);
	return b;
}

cl_int vrt_inspect_rows(vrt_launch *L, cl_command_queue q, cl_kernel kin, unsigned kind,
                        cl_mem pas, const vrt_layout *lay, size_t wpp, size_t r0, size_t r1,
                        unsigned char *rows)
{
	size_t lwg = L->lsize[0] * L->lsize[1] * L->lsize[2];
	size_t g0 = r0 * wpp, g1 = r1 * wpp < L->groups ? r1 * wpp : L->groups;
	size_t bytes = (r1 - r0) * lay->row_bytes;
	unsigned char zb = 0;
	cl_int err;
	/* Finishes between steps: the queue may be out of order. */
	if ((err = vrt_real.clEnqueueFillBuffer(q, pas, &zb, 1, 0, bytes, 0, NULL, NULL)) ||
	    (err = vrt_real.clFinish(q)))
		return err;
	cl_ulong first = L->group_base + g0; /* a share's window (multi.c) */
	vrt_tailargs t = { .first_group = &first };
	if ((err = vrt_tailargs_set(kin, L->k->nargs, kind, &t)))
		return err;
	size_t global = (g1 - g0) * lwg;
	err = vrt_real.clEnqueueNDRangeKernel(q, kin, 1, NULL, &global, &lwg, 0, NULL, NULL);
	if (err != CL_SUCCESS) {
		vrt_log(VRT_LOG_WARN, "kernel '%s': launching its inspector failed: %s",
		        L->k->name, vrt_cl_error_name(err));
		return err;
	}
	if ((err = vrt_real.clFinish(q)))
		return err;
	return vrt_real.clEnqueueReadBuffer(q, pas, CL_TRUE, 0, bytes, rows + r0 * lay->row_bytes,
	                                    0, NULL, NULL);
}
