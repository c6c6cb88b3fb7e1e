/* SPDX-License-Identifier: MIT */
/*
 * inspect.c - runs vast_inspect_K to get the launch's Page Accessed Sets.
 *
 * Direct and affine kernels inspect on the launch's own device with no
 * data at all. A kernel whose inspector reads buffer contents (indirect
 * addresses, data-dependent branches) needs those buffers: on the device
 * when they fit the budget, else paged through the device's frames by
 * vast_pinspect_K (pinspect.c) when the footprint descriptors say which
 * pages each chunk reads, else on the host's CPU device (PoCL) over
 * the host copies (CL_MEM_USE_HOST_PTR, no copy at all); a share of a
 * split launch reads such views on its own device. Rows are
 * computed in chunks so the PAS buffer stays small; each chunk is zeroed
 * first and launched with its first group a multiple of WG_PER_PAS, as
 * docs/generated-kernels.md requires.
 */
#include <stdio.h>
#include <string.h>

#include "inspect/inspect.h"

cl_int vrt_inspect_run(vrt_launch *L, const vrt_layout *lay, size_t wpp,
                       unsigned char *rows, size_t nrows)
{
	vrt_kernel *k = L->k;
	const vast_kernel_info *ki = k->info;
	cl_uint n = k->nargs;
	cl_int err = CL_SUCCESS;
	cl_context ctx = L->ctx;
	cl_command_queue q = L->q;
	cl_kernel kin = NULL, own_kernel = NULL;
	cl_mem pas = NULL, pasinfo = NULL, fault = NULL, dummy = NULL;
	cl_mem data[VAST_MAX_SLOTS + 1] = { 0 }; /* CPU path: our host views */

	/* Whole writes of what it reads, left for the launch to copy range
	 * by range (pending.c): their bytes first. */
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_inspect_reads[s])
			vrt_pend_settle(L->slot_mem[s]);

	/* Where: data needed and too large for the budget -> the CPU. */
	size_t need = 0;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_inspect_reads[s])
			need += L->slot_mem[s]->size;
	size_t rows_per_chunk = VRT_PAS_CHUNK_BYTES / lay->row_bytes;
	if (rows_per_chunk == 0)
		rows_per_chunk = 1;
	if (rows_per_chunk > nrows)
		rows_per_chunk = nrows;
	size_t chunk_bytes = rows_per_chunk * lay->row_bytes;
	int on_cpu = need && need + chunk_bytes > L->budget && !L->share;
	/* A share of a split launch (multi.c) reads host views in its own
	 * context: no device copies of the program's from its thread. */
	int host_view = on_cpu || (need && L->share);

	if (on_cpu) {
		int ran;
		if ((err = vrt_inspect_paged(L, lay, wpp, rows, nrows, &ran)) != CL_SUCCESS || ran)
			return err;
		err = vrt_program_cpu(k->prog);
		if (err != CL_SUCCESS) {
			vrt_log(VRT_LOG_WARN, "kernel '%s': its inspector reads %zu bytes of buffers, more than the budget of %llu, and no CPU device can run it",
			        k->name, need, L->budget);
			return err;
		}
		ctx = k->prog->cpu_ctx;
		q = k->prog->cpu_queue;
		char name[512];
		vrt_variant_name(k, "inspect", name, sizeof name);
		own_kernel = kin = vrt_real.clCreateKernel(k->prog->cpu_prog, name, &err);
		if (!kin)
			return err;
		vrt_log(VRT_LOG_INFO, "kernel '%s': inspecting on the CPU device", k->name);
		L->st->inspect_cpu++;
	} else {
		if ((err = vrt_kernel_variant(k, "inspect", &kin)) != CL_SUCCESS)
			return err;
	}

	if (!(pasinfo = vrt_pasinfo_new(ctx, lay, wpp, &err)))
		goto out;
	pas = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_WRITE, chunk_bytes, NULL, &err);
	if (!pas)
		goto out;
	cl_uint clear = VAST_FAULT_CLEAR;
	fault = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof clear, &clear, &err);
	if (!fault)
		goto out;

	if ((err = vrt_set_user_args(L, kin)) != CL_SUCCESS)
		goto out;
	cl_uint shift = lay->page_shift;
	vrt_geometry g;
	vrt_tailargs tail = { .pas = &pas, .pasinfo = &pasinfo, .fault = &fault,
	                      .page_shift = &shift };
	vrt_tailargs_geometry(L, &g, &tail);
	if ((err = vrt_tailargs_set(kin, n, VAST_HAS_INSPECT, &tail)))
		goto out;
	/* The data arguments, one per parameter that the inspector reads. */
	size_t nread = 0;
	for (cl_uint i = 0; i < n; i++) {
		if (!ki->params[i].inspect_reads)
			continue;
		unsigned s = L->arg_slot[i];
		cl_mem b = NULL;
		if (s && host_view) {
			if (!data[s]) {
				vrt_mem *m = L->slot_mem[s];
				/* A share's host copies are current (multi.c). */
				if (!L->share && (err = vrt_mem_to_host(m)) != CL_SUCCESS)
					goto out;
				data[s] = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
				                                  m->size, m->host, &err);
				if (!data[s])
					goto out;
			}
			b = data[s];
		} else if (s) {
			vrt_mem *keep[VAST_MAX_SLOTS];
			unsigned nk = 0;
			for (unsigned t = 1; t <= L->nslots; t++)
				if (L->slot_inspect_reads[t])
					keep[nk++] = L->slot_mem[t];
			/* Other buffers' copies left beside a paged launch
			 * (L->beside) count, and have their room. */
			unsigned long long have = L->budget + L->beside;
			err = vrt_room_to_device(L->slot_mem[s], q, have > chunk_bytes ? have - chunk_bytes : 0,
			                         keep, nk);
			if (err != CL_SUCCESS)
				goto out;
			b = L->slot_mem[s]->dev;
		} else {
			/* A NULL buffer: the inspector never reads through it,
			 * but the argument must be a valid buffer. */
			if (!dummy) {
				dummy = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_ONLY, 16, NULL, &err);
				if (!dummy)
					goto out;
			}
			b = dummy;
		}
		vrt_tailargs d = { .data = &b, .each_first = nread++, .neach = 1 };
		if ((err = vrt_tailargs_set(kin, n, VAST_HAS_INSPECT, &d)) != CL_SUCCESS)
			goto out;
	}

	for (size_t r0 = 0; r0 < nrows && !err; r0 += rows_per_chunk)
		err = vrt_inspect_rows(L, q, kin, VAST_HAS_INSPECT, pas, lay, wpp, r0,
		                       r0 + rows_per_chunk < nrows ? r0 + rows_per_chunk : nrows, rows);
	if (err != CL_SUCCESS)
		goto out;
	cl_uint f = 0;
	if ((err = vrt_real.clEnqueueReadBuffer(q, fault, CL_TRUE, 0, sizeof f, &f, 0, NULL, NULL)))
		goto out;
	/* Its loads are checked against the buffers' bytes (prelude.cl,
	 * vast_load): one outside them read zeros instead, so its rows may
	 * miss pages the kernel touches. The kernel itself reads there too,
	 * or the inspector's arithmetic parted from the kernel's. */
	if (f) {
		vrt_log(VRT_LOG_WARN, "kernel '%s': its inspector read outside the buffers it "
		        "was given; refusing to page it", k->name);
		err = CL_INVALID_OPERATION;
	}
out:
	if (own_kernel)
		vrt_real.clReleaseKernel(own_kernel);
	for (unsigned s = 1; s <= VAST_MAX_SLOTS; s++)
		if (data[s])
			vrt_real.clReleaseMemObject(data[s]);
	if (dummy)
		vrt_real.clReleaseMemObject(dummy);
	if (pas)
		vrt_real.clReleaseMemObject(pas);
	if (pasinfo)
		vrt_real.clReleaseMemObject(pasinfo);
	if (fault)
		vrt_real.clReleaseMemObject(fault);
	return err;
}
