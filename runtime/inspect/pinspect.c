/* SPDX-License-Identifier: MIT */
/*
 * pinspect.c - the paged inspector: vast_pinspect_K on the launch's own
 * device when the buffers the inspector reads pass the budget.
 *
 * An indirect kernel's inspector reads its index buffers (spmv-ell's
 * `col`) to compute the addresses it marks. When those buffers do not
 * fit the budget, inspect.c used to run the inspector on the host's CPU
 * device over the host copies, which on a GPU machine took most of the
 * launch. Here the inspector's reads are paged like the kernel's own:
 *
 *   1. the pages of every inspect-read slot that each PAS row of groups
 *      may access, from the footprint descriptors of the kernel's accesses
 *      to those slots (vrt_fp_slot_pages; index reads are usually affine,
 *      col[k*n + row]), written into the rows as scratch;
 *   2. Algorithm 1 over those rows (vrt_pas_reduce) cuts chunks of rows
 *      whose pages fit what the budget leaves beside the PAS buffer; a
 *      chunk starts at a row, so at a multiple of WG_PER_PAS groups;
 *   3. per chunk: its pages into frames with an LPT (vrt_lpt_build, spans
 *      moved as rectangles straight from the host copies, rects.c), then
 *      vast_pinspect_K, whose vast_load translates through the LPT, marks
 *      the chunk's rows (vrt_inspect_rows, shared with inspect.c).
 *
 * Exactness: the descriptors give a superset of the bytes each access
 * reaches (or exactly those), and the inspector's reads are the kernel's
 * own accesses. Every translation is checked all the same: a read of a
 * page not in the frames raises the fault word, and the rows are then
 * refused and the inspection runs on the CPU as before. So does a kernel
 * with no usable descriptor for an access that may reach an inspect-read
 * buffer, and a row whose pages alone pass the budget.
 *
 * The frames are this function's own buffers, released at its end: the
 * frame pool's (framepool.c) keep pages the residency map vouches for,
 * which writing them would falsify. The pool is released first when the
 * budget cannot hold both. One chunk at a time, on the program's queue,
 * finished between steps (the queue may be out of order).
 */
#include <string.h>

#include "inspect/inspect.h"

typedef struct pinspect {
	vrt_launch *L;
	const vrt_layout *lay;
	size_t wpp, nrows, rpc;       /* rows per chunk at most (the PAS buffer) */
	vrt_range *ranges;            /* the chunks: Algorithm 1's ranges, cut */
	size_t nranges;
	size_t per_buf;               /* frames one device buffer holds */
	size_t buf_frames[VAST_FRAME_BUFS];
	unsigned long long device_bytes; /* of all its buffers */
	unsigned char *u;             /* a chunk's pages */
	uint32_t *lpt;
	cl_mem frames[VAST_FRAME_BUFS], dummy, lptbuf, fault, pas, pasinfo;
	cl_kernel kin;
} pinspect;

/* Frames per device buffer at the layout's pages, as paged/planner.c
 * sizes them: CL_DEVICE_MAX_MEM_ALLOC_SIZE or VAST_MAX_ALLOC, below
 * VAST_NO_FRAME. */
static size_t frames_per_buffer(const vrt_launch *L, unsigned shift)
{
	cl_ulong maxalloc = 0;
	vrt_real.clGetDeviceInfo(L->dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc,
	                         NULL);
	if (vrt_cfg.max_alloc && (!maxalloc || maxalloc > vrt_cfg.max_alloc))
		maxalloc = vrt_cfg.max_alloc;
	size_t n = maxalloc ? (size_t)(maxalloc >> shift) : VAST_NO_FRAME;
	return n >= VAST_NO_FRAME ? VAST_NO_FRAME - 1 : n;
}

/* Step 1: rows[r] = the pages of the inspect-read slots that row r's
 * groups may access. 1 when every such slot's accesses have descriptors,
 * 0 when not, -1 out of memory. */
static int data_rows(pinspect *I, unsigned char *rows)
{
	const vrt_layout *lay = I->lay;
	vrt_launch *L = I->L;
	int oom = 0, r = 1;
	vrt_fp_plan *fp = vrt_fp_plan_new(L, &oom);
	if (!fp)
		return oom ? -1 : 0;
	memset(rows, 0, I->nrows * lay->row_bytes);
	for (size_t row = 0; r == 1 && row < I->nrows; row++) {
		size_t g0 = row * I->wpp, g1 = g0 + I->wpp < L->groups ? g0 + I->wpp : L->groups;
		unsigned char *at = rows + row * lay->row_bytes;
		for (unsigned s = 1; r == 1 && s <= lay->nslots; s++)
			if (L->slot_inspect_reads[s])
				r = vrt_fp_slot_pages(fp, lay, s, g0, g1, at + lay->slot_off[s]);
	}
	vrt_fp_plan_free(fp);
	return r;
}

/* The pages of chunk c's rows in I->u, and their frames in I->lpt. */
static int chunk_frames(pinspect *I, const unsigned char *rows, const vrt_range *c,
                        vrt_frames *fr)
{
	size_t rb = I->lay->row_bytes;
	memset(I->u, 0, rb);
	for (size_t r = c->first_row; r <= c->last_row; r++)
		vrt_pas_or(I->u, rows + r * rb, rb);
	return vrt_lpt_build(I->lay, I->u, NULL, I->per_buf, I->lpt, fr);
}

/* Algorithm 1's ranges cut into chunks of at most rpc rows (the PAS
 * buffer's), in I->ranges; 0, or -1 out of memory. */
static int cut_chunks(pinspect *I)
{
	size_t n = 0;
	for (size_t i = 0; i < I->nranges; i++)
		n += (I->ranges[i].last_row - I->ranges[i].first_row) / I->rpc + 1;
	vrt_range *c = vrt_malloc(n * sizeof *c);
	if (!c)
		return -1;
	for (size_t i = 0, k = 0; i < I->nranges; i++)
		for (size_t r = I->ranges[i].first_row; r <= I->ranges[i].last_row; r += I->rpc, k++) {
			c[k].first_row = r;
			c[k].last_row = r + I->rpc <= I->ranges[i].last_row ? r + I->rpc - 1
			                                                    : I->ranges[i].last_row;
			c[k].pages = 0; /* unused */
		}
	vrt_free(I->ranges);
	I->ranges = c;
	I->nranges = n;
	return 0;
}

/* The frames of each buffer the largest chunk needs; 0 when a chunk's
 * pages of a slot do not fit one device buffer (lpt.c), 1 when they all
 * do. */
static int place_chunks(pinspect *I, const unsigned char *rows)
{
	memset(I->buf_frames, 0, sizeof I->buf_frames);
	for (size_t i = 0; i < I->nranges; i++) {
		vrt_frames fr;
		if (chunk_frames(I, rows, &I->ranges[i], &fr))
			return 0;
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
			if (fr.used[b] > I->buf_frames[b])
				I->buf_frames[b] = fr.used[b];
	}
	return 1;
}

/* Step 2: Algorithm 1 over the data rows against what the budget leaves
 * beside `fixed`, cut smaller (by an eighth at a time, as paged/planner.c does)
 * while a chunk's frames do not fit the device buffers. 1 when the
 * chunks fit the budget, 0 when not (a row alone does not), -1 out of
 * memory. */
static int plan_chunks(pinspect *I, const unsigned char *rows, unsigned long long fixed)
{
	const vrt_layout *lay = I->lay;
	for (unsigned long long budget = I->L->budget - fixed;; budget -= budget / 8) {
		size_t bad;
		vrt_free(I->ranges);
		I->ranges = NULL;
		int r = vrt_pas_reduce(lay, rows, I->nrows, budget, &I->ranges, &I->nranges, &bad);
		if (r)
			return r == -2 ? -1 : 0;
		if (cut_chunks(I))
			return -1;
		if (place_chunks(I, rows))
			break;
	}
	unsigned long long total = fixed + vrt_lpt_bytes(lay);
	for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
		total += (unsigned long long)I->buf_frames[b] << lay->page_shift;
	I->device_bytes = total;
	return total <= I->L->budget;
}

/* Step 3's device side: the buffers and the kernel with its fixed
 * arguments. */
static cl_int make_buffers(pinspect *I, size_t pas_bytes)
{
	vrt_launch *L = I->L;
	vrt_kernel *k = L->k;
	cl_uint sh = I->lay->page_shift;
	cl_int err = CL_SUCCESS;
	cl_uint clear = VAST_FAULT_CLEAR, n = k->nargs;
	for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
		if (I->buf_frames[b] && !(I->frames[b] = vrt_real.clCreateBuffer(
		                              L->ctx, CL_MEM_READ_WRITE, I->buf_frames[b] << sh, NULL, &err)))
			return err;
	if (!(I->dummy = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_ONLY, (size_t)1 << sh, NULL, &err)) ||
	    !(I->lptbuf = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_ONLY, vrt_lpt_bytes(I->lay), NULL,
	                                          &err)) ||
	    !(I->fault = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
	                                         sizeof clear, &clear, &err)) ||
	    !(I->pas = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_WRITE, pas_bytes, NULL, &err)) ||
	    !(I->pasinfo = vrt_pasinfo_new(L->ctx, I->lay, I->wpp, &err)))
		return err;
	char name[512];
	vrt_variant_name(k, "pinspect", name, sizeof name);
	cl_program variants;
	if ((err = vrt_kernel_variants(k, &variants)) != CL_SUCCESS)
		return err;
	if (!(I->kin = vrt_real.clCreateKernel(variants, name, &err))) {
		vrt_log(VRT_LOG_WARN, "kernel '%s' has no generated '%s': %s", k->name, name,
		        vrt_cl_error_name(err));
		return err;
	}
	if ((err = vrt_set_user_args(L, I->kin)) != CL_SUCCESS)
		return err;
	cl_mem frames[VAST_FRAME_BUFS];
	for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
		frames[b] = I->frames[b] ? I->frames[b] : I->dummy;
	vrt_geometry g;
	vrt_tailargs t = { .frames = frames, .lpt = &I->lptbuf, .fault = &I->fault,
	                   .page_shift = &sh, .pas = &I->pas, .pasinfo = &I->pasinfo };
	vrt_tailargs_geometry(L, &g, &t);
	return vrt_tailargs_set(I->kin, n, VAST_HAS_PINSPECT, &t);
}

/* Step 3 for chunk c: its data pages into the frames, then the inspector
 * over its groups. *bytes: what was sent. */
static cl_int run_chunk(pinspect *I, unsigned char *rows, const vrt_range *c,
                        unsigned long long *bytes)
{
	vrt_launch *L = I->L;
	const vrt_layout *lay = I->lay;
	cl_command_queue q = L->q;
	vrt_frames fr;
	*bytes = 0;
	if (chunk_frames(I, rows, c, &fr))
		return CL_INVALID_OPERATION; /* place_chunks placed them before */
	cl_int err = vrt_real.clEnqueueWriteBuffer(q, I->lptbuf, CL_TRUE, 0, vrt_lpt_bytes(lay), I->lpt,
	                                           0, NULL, NULL);
	for (unsigned s = 1; !err && s <= lay->nslots; s++) {
		if (!L->slot_inspect_reads[s] || !fr.count[s])
			continue;
		vrt_span *sp = NULL;
		vrt_rect *rc = NULL;
		size_t nsp = vrt_spans(lay, I->u, I->lpt, s, &sp), nrc = 0;
		if (nsp == (size_t)-1 || (nrc = vrt_span_rects(lay, sp, nsp, &rc)) == (size_t)-1)
			err = CL_OUT_OF_HOST_MEMORY;
		for (size_t i = 0; !err && i < nrc; i++) {
			err = vrt_rect_move(q, I->frames[fr.buf[s]], &rc[i], L->slot_mem[s]->host, 0, NULL,
			                    NULL);
			*bytes += rc[i].rows * rc[i].row_bytes;
		}
		vrt_free(rc);
		vrt_free(sp);
	}
	if (!err)
		err = vrt_real.clFinish(q);
	if (!err)
		err = vrt_inspect_rows(L, q, I->kin, VAST_HAS_PINSPECT, I->pas, lay,
		                       I->wpp, c->first_row, c->last_row + 1, rows);
	return err;
}

static void release(pinspect *I)
{
	cl_mem *all[] = { &I->dummy, &I->lptbuf, &I->fault, &I->pas, &I->pasinfo };
	for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
		if (I->frames[b])
			vrt_real.clReleaseMemObject(I->frames[b]);
	for (unsigned i = 0; i < sizeof all / sizeof *all; i++)
		if (*all[i])
			vrt_real.clReleaseMemObject(*all[i]);
	if (I->kin)
		vrt_real.clReleaseKernel(I->kin);
	vrt_free(I->ranges);
	vrt_free(I->u);
	vrt_free(I->lpt);
}

cl_int vrt_inspect_paged(vrt_launch *L, const vrt_layout *lay, size_t wpp, unsigned char *rows,
                         size_t nrows, int *ran)
{
	vrt_kernel *k = L->k;
	pinspect I = { .L = L, .lay = lay, .wpp = wpp, .nrows = nrows };
	cl_int err = CL_SUCCESS;
	*ran = 0;
	if (L->share || !(k->info->variants & VAST_HAS_PINSPECT))
		return CL_SUCCESS;
	/* The PAS buffer: a chunk's rows, within a quarter of the budget
	 * so that the frames keep most of it. */
	unsigned long long pas_most = L->budget / 4 < VRT_PAS_CHUNK_BYTES ? L->budget / 4
	                                                                  : VRT_PAS_CHUNK_BYTES;
	I.rpc = (size_t)(pas_most / lay->row_bytes);
	I.rpc = I.rpc ? I.rpc < nrows ? I.rpc : nrows : 1;
	size_t pas_bytes = I.rpc * lay->row_bytes;
	/* Beside the frames and the LPT: the PAS buffer, its description,
	 * the fault word and the page bound where a buffer is unused. */
	unsigned long long fixed = pas_bytes + (3 + 2 * (unsigned long long)lay->nslots) * 8 +
	                           sizeof(cl_uint) + (1ull << lay->page_shift);
	if (fixed >= L->budget)
		return CL_SUCCESS;
	double t0 = vrt_now_ms();
	I.per_buf = frames_per_buffer(L, lay->page_shift);
	I.u = vrt_malloc(lay->row_bytes);
	I.lpt = vrt_malloc(vrt_lpt_bytes(lay));
	int r = I.u && I.lpt ? data_rows(&I, rows) : -1;
	if (!r)
		vrt_log(VRT_LOG_INFO, "kernel '%s': an access that may reach a buffer its inspector reads has no footprint descriptor: no paged inspector",
		        k->name);
	if (r == 1 && !(r = plan_chunks(&I, rows, fixed)))
		vrt_log(VRT_LOG_INFO, "kernel '%s': the pages its inspector reads do not fit the budget in chunks of PAS rows: no paged inspector",
		        k->name);
	vrt_trace_host("inspect_plan", k->name, t0, vrt_now_ms(), -1, 0);
	if (r <= 0) {
		release(&I);
		return r ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
	}
	/* The inspector's buffers need the room: what else takes the budget
	 * goes as the policy chooses (mem/room.c), but the buffers the
	 * launch keeps whole (paged/keeps.c, keep_resident), whose bytes L->budget
	 * left out already: evicted, they would come back right after, and
	 * a written one would first go home. The other buffers' copies left
	 * beside the launch (L->beside) and the hold have their room. */
	vrt_mem *keep[VAST_FRAME_BUFS];
	unsigned nkeep = 0;
	unsigned long long kept = 0;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->res_buf[s] && nkeep < VAST_FRAME_BUFS) {
			keep[nkeep++] = L->slot_mem[s];
			kept += L->slot_mem[s]->dev ? L->slot_mem[s]->size : 0;
		}
	vrt_room room = {.dev = L->dev, .own = 1, .keep = keep, .nkeep = nkeep};
	unsigned long long used = vrt_mem_used(L->dev, 1) - kept;
	unsigned long long have = L->budget + L->beside + L->hold_bytes;
	/* Short of room after all, the inspector tries anyway, as before:
	 * the driver says whether the device has it. */
	if (used + I.device_bytes > have &&
	    (err = vrt_room_free(&room, used + I.device_bytes - have)) ==
	            CL_MEM_OBJECT_ALLOCATION_FAILURE)
		err = CL_SUCCESS;
	for (unsigned s = 1; !err && s <= lay->nslots; s++)
		if (L->slot_inspect_reads[s])
			err = vrt_mem_to_host(L->slot_mem[s]);
	if (!err)
		err = make_buffers(&I, pas_bytes);
	for (size_t i = 0; !err && i < I.nranges; i++) {
		unsigned long long bytes;
		double t1 = vrt_now_ms();
		err = run_chunk(&I, rows, &I.ranges[i], &bytes);
		vrt_trace_host("inspect_paged", k->name, t1, vrt_now_ms(), (long)i, bytes);
	}
	cl_uint f = 0;
	if (!err)
		err = vrt_real.clEnqueueReadBuffer(L->q, I.fault, CL_TRUE, 0, sizeof f, &f, 0, NULL, NULL);
	if (!err && f)
		vrt_log(VRT_LOG_WARN, "kernel '%s': its paged inspector read a page its footprint descriptors did not give; inspecting on the CPU instead",
		        k->name);
	else if (!err) {
		*ran = 1;
		L->st->inspect_paged += I.nranges;
		vrt_log(VRT_LOG_INFO, "kernel '%s': inspected on its device in %zu chunks, its data paged",
		        k->name, I.nranges);
	}
	release(&I);
	return err;
}
