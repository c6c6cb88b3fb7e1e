/* SPDX-License-Identifier: MIT */
/*
 * devmerge.c - the pages two or more windows of a resident split may
 * write, merged on a device (docs/multi.md, "Resident shares").
 *
 * The directory records a page whole: a window that may write a page
 * claims every byte of it. Where several windows may write one page
 * (their may-write sets, footprint descriptors at 4 KiB pages), the
 * page's destination is the lowest-index share among its writers:
 *
 *   plan (pure): which shares may write each page (a bit per share),
 *   each destination's shared pages and the scratch they take ->
 *   before the kernels: the pre-launch bytes of each destination's
 *   shared pages copied on its device into a scratch buffer (`orig`),
 *   packed page after page ->
 *   after them: each other writer's copy of those pages brought to the
 *   destination's device (clEnqueueCopyBuffer in one context, through
 *   host memory between contexts), a chunk at a time, and merged there
 *   by a byte kernel: dst[i] = src[i] != orig[i] ? src[i] : dst[i] ->
 *   recorded: each share wrote its may-write pages but the shared pages
 *   of other destinations, each destination its shared pages (the other
 *   copies of them are then stale: the directory does that itself).
 *
 * A byte some share changed wins; bytes no share changed keep the
 * destination's, the pre-launch ones where the destination did not
 * write them either. Two shares changing one byte race as two work-groups
 * of one launch do (OpenCL 1.2 §3.3.1 orders no work-groups), so nothing
 * a program may rely on is lost: SKMD's merge (Lee et al., PACT 2013),
 * on the device rather than on host copies.
 *
 * The scratch buffers are no location of the directory (they hold bytes
 * no location may be said to hold), so they move by themselves rather
 * than through mem.c's mover, the same ways.
 *
 * The merge kernels are the runtime's own, not the program's: built once
 * per context and device, at the first split that needs them, kept until
 * exit like the devices' own programs (devices.c); the program's context
 * then lives until exit too (its program holds it). Guarded by the
 * runtime lock; nothing here runs on the shares' threads.
 */
#include <string.h>

#include "launch/launch.h"

#define PAGE_SHIFT VRT_RESIDENT_SHIFT
#define PAGE ((size_t)1 << PAGE_SHIFT)
/* Other writers' pages come to the destination a chunk at a time: the
 * scratch beyond the kept pre-launch bytes stays bounded, and a few MiB
 * already move at a link's speed. */
#define CHUNK ((size_t)4 << 20)
/* The word kernel's element: uchar16 (16 bytes, aligned: every offset is
 * a multiple of a page). */
#define WORD 16

static const char merge_source[] =
	"__kernel void vast_merge_words(__global uchar16 *dst, __global const uchar16 *src,\n"
	"                               __global const uchar16 *orig, ulong d, ulong s, ulong o)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	uchar16 a = src[s + i];\n"
	"	dst[d + i] = select(dst[d + i], a, a != orig[o + i]);\n"
	"}\n"
	"__kernel void vast_merge_bytes(__global uchar *dst, __global const uchar *src,\n"
	"                               __global const uchar *orig, ulong d, ulong s, ulong o)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	uchar a = src[s + i];\n"
	"	if (a != orig[o + i])\n"
	"		dst[d + i] = a;\n"
	"}\n";

/* The merge kernels of one context and device. */
typedef struct merge_prog {
	cl_context ctx;
	cl_device_id dev;
	cl_program prog;
	cl_kernel words, bytes;
	cl_int err; /* the build's result, kept: it is not tried again */
	struct merge_prog *next;
} merge_prog;
static merge_prog *all_merge_progs;

static cl_int build(merge_prog *p)
{
	cl_int err;
	const char *src = merge_source;
	if (!(p->prog = vrt_real.clCreateProgramWithSource(p->ctx, 1, &src, NULL, &err)))
		return err;
	if ((err = vrt_real.clBuildProgram(p->prog, 1, &p->dev, NULL, NULL, NULL)) != CL_SUCCESS)
		return err;
	if (!(p->words = vrt_real.clCreateKernel(p->prog, "vast_merge_words", &err)))
		return err;
	p->bytes = vrt_real.clCreateKernel(p->prog, "vast_merge_bytes", &err);
	return p->bytes ? CL_SUCCESS : err;
}

static merge_prog *merge_prog_for(cl_context ctx, cl_device_id dev, cl_int *err)
{
	merge_prog *p;
	for (p = all_merge_progs; p; p = p->next)
		if (p->ctx == ctx && p->dev == dev)
			break;
	if (!p) {
		if (!(p = vrt_calloc(1, sizeof *p))) {
			*err = CL_OUT_OF_HOST_MEMORY;
			return NULL;
		}
		p->ctx = ctx;
		p->dev = dev;
		if ((p->err = build(p)) != CL_SUCCESS)
			vrt_log(VRT_LOG_WARN, "building the runtime's merge kernels for device '%s' failed: %s; splits that need them merge on the host",
			        vrt_device_name(dev), vrt_cl_error_name(p->err));
		p->next = all_merge_progs;
		all_merge_progs = p;
	}
	*err = p->err;
	return p->err == CL_SUCCESS ? p : NULL;
}

typedef struct dm_share {
	cl_context ctx;
	cl_command_queue q;
	cl_device_id dev;
	vrt_replica *rep[VAST_MAX_SLOTS + 1];
	merge_prog *mp;      /* a destination's merge kernels */
	size_t owned;        /* pages it is the destination of */
	cl_mem orig, chunk;  /* their pre-launch bytes; another writer's, a chunk */
	int used;
} dm_share;

struct vrt_devmerge {
	unsigned n, nslots;
	size_t size[VAST_MAX_SLOTS + 1];
	/* Per written slot, per page: bit j when share j may write it
	 * (VRT_MAX_DEVICES <= 8 bits). NULL for a slot not written. */
	unsigned char *who[VAST_MAX_SLOTS + 1];
	size_t shared;       /* pages two or more shares may write */
	dm_share sh[VRT_MAX_DEVICES];
	unsigned char *tmp;  /* host memory of a chunk between contexts */
	struct batch *batch; /* vrt_devmerge_run's, while it runs */
	size_t brought;      /* bytes other writers' copies brought */
};

static size_t npages(size_t size)
{
	return size ? ((size - 1) >> PAGE_SHIFT) + 1 : 0;
}

/* Two or more writers. */
static int is_shared(unsigned char w)
{
	return (w & (w - 1)) != 0;
}

/* The lowest writer: the page's destination. */
static unsigned dest_of(unsigned char w)
{
	unsigned j = 0;
	while (!(w & 1u << j))
		j++;
	return j;
}

static int owns(unsigned char w, unsigned j)
{
	return is_shared(w) && dest_of(w) == j;
}

vrt_devmerge *vrt_devmerge_new(const vrt_launch *L, unsigned n)
{
	vrt_devmerge *M = vrt_calloc(1, sizeof *M);
	if (!M)
		return NULL;
	M->n = n;
	M->nslots = L->nslots;
	for (unsigned s = 1; s <= L->nslots; s++) {
		M->size[s] = L->slot_mem[s]->size;
		if (!(L->slot_mode[s] & VAST_MODE_W))
			continue;
		size_t np = npages(M->size[s]);
		if (!(M->who[s] = vrt_calloc(np ? np : 1, 1))) {
			vrt_devmerge_free(M);
			return NULL;
		}
	}
	return M;
}

void vrt_devmerge_free(vrt_devmerge *M)
{
	if (!M)
		return;
	for (unsigned j = 0; j < M->n; j++) {
		if (M->sh[j].orig)
			vrt_real.clReleaseMemObject(M->sh[j].orig);
		if (M->sh[j].chunk)
			vrt_real.clReleaseMemObject(M->sh[j].chunk);
	}
	for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++)
		vrt_free(M->who[s]);
	vrt_free(M->tmp);
	vrt_free(M);
}

void vrt_devmerge_writes(vrt_devmerge *M, unsigned j, unsigned s, const unsigned char *wr)
{
	unsigned char *w = M->who[s];
	if (!w || !wr)
		return;
	size_t np = npages(M->size[s]);
	for (size_t p = 0; p < np; p++) {
		if (!wr[p])
			continue;
		int was = is_shared(w[p]);
		w[p] |= (unsigned char)(1u << j);
		if (is_shared(w[p]) && !was) {
			M->shared++;
			M->sh[dest_of(w[p])].owned++;
		}
	}
}

size_t vrt_devmerge_pages(const vrt_devmerge *M)
{
	return M->shared;
}

static size_t chunk_bytes(const dm_share *d)
{
	size_t owned = d->owned * PAGE;
	return owned < CHUNK ? owned : CHUNK;
}

size_t vrt_devmerge_scratch(const vrt_devmerge *M, unsigned j)
{
	const dm_share *d = &M->sh[j];
	return d->owned ? d->owned * PAGE + chunk_bytes(d) : 0;
}

cl_int vrt_devmerge_share(vrt_devmerge *M, unsigned j, cl_context ctx, cl_command_queue q,
                          cl_device_id dev)
{
	dm_share *d = &M->sh[j];
	d->ctx = ctx;
	d->q = q;
	d->dev = dev;
	d->used = 1;
	cl_int err = CL_SUCCESS;
	if (d->owned)
		d->mp = merge_prog_for(ctx, dev, &err);
	return err;
}

void vrt_devmerge_replica(vrt_devmerge *M, unsigned j, unsigned s, vrt_replica *r)
{
	M->sh[j].rep[s] = r;
}

/* Calls fn on each run of pages of destination j (those another share
 * writes too) that share k (k == j: any) may write, with its place in j's
 * packed scratch (`at`); stops at the first error. */
typedef cl_int (*piece_fn)(vrt_devmerge *M, unsigned j, unsigned k, unsigned s, size_t off,
                           size_t n, size_t at);

static cl_int each_piece(vrt_devmerge *M, unsigned j, unsigned k, piece_fn fn)
{
	size_t at = 0;
	for (unsigned s = 1; s <= M->nslots; s++) {
		const unsigned char *w = M->who[s];
		size_t np = w ? npages(M->size[s]) : 0;
		for (size_t p = 0; p < np;) {
			if (!owns(w[p], j)) {
				p++;
				continue;
			}
			if (!(w[p] & 1u << k)) {
				at += PAGE;
				p++;
				continue;
			}
			size_t q = p, at0 = at;
			while (q < np && owns(w[q], j) && (w[q] & 1u << k)) {
				q++;
				at += PAGE;
			}
			size_t off = p << PAGE_SHIFT, end = q << PAGE_SHIFT;
			if (end > M->size[s])
				end = M->size[s];
			cl_int err = fn(M, j, k, s, off, end - off, at0);
			if (err != CL_SUCCESS)
				return err;
			p = q;
		}
	}
	return CL_SUCCESS;
}

static cl_int keep_piece(vrt_devmerge *M, unsigned j, unsigned k, unsigned s, size_t off,
                         size_t n, size_t at)
{
	(void)k;
	dm_share *d = &M->sh[j];
	const vrt_replica *r = d->rep[s];
	return vrt_real.clEnqueueCopyBuffer(d->q, r->buf, d->orig, off - r->lo, at, n, 0, NULL,
	                                    NULL);
}

cl_int vrt_devmerge_keep(vrt_devmerge *M)
{
	cl_int err = CL_SUCCESS;
	for (unsigned j = 0; j < M->n && err == CL_SUCCESS; j++) {
		dm_share *d = &M->sh[j];
		if (!d->owned)
			continue;
		if (!d->mp)
			return CL_INVALID_OPERATION; /* vrt_devmerge_share said so */
		if (!(d->orig = vrt_real.clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, d->owned * PAGE,
		                                        NULL, &err)) ||
		    !(d->chunk = vrt_real.clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, chunk_bytes(d),
		                                         NULL, &err)))
			/* Past CL_DEVICE_MAX_MEM_ALLOC_SIZE too: no room, so
			 * the launch may still run another way. */
			return err != CL_SUCCESS && err != CL_INVALID_BUFFER_SIZE
			               ? err
			               : CL_MEM_OBJECT_ALLOCATION_FAILURE;
		/* On the destination's in-order queue: before its kernel. */
		err = each_piece(M, j, j, keep_piece);
	}
	return err;
}

/* Merges n bytes of the chunk (at c) into the destination's replica at
 * dst, against its kept bytes at o: words where n allows, bytes for the
 * rest. */
static cl_int merge_kernel(dm_share *d, const vrt_replica *r, size_t dst, size_t c, size_t o,
                           size_t n)
{
	cl_int err = CL_SUCCESS;
	size_t words = n / WORD, tail = n - words * WORD;
	struct {
		cl_kernel k;
		size_t unit, count, skip;
	} run[2] = { { d->mp->words, WORD, words, 0 }, { d->mp->bytes, 1, tail, words * WORD } };
	for (unsigned i = 0; i < 2 && err == CL_SUCCESS; i++) {
		if (!run[i].count)
			continue;
		cl_kernel k = run[i].k;
		cl_ulong a[3] = { (dst + run[i].skip) / run[i].unit, (c + run[i].skip) / run[i].unit,
		                  (o + run[i].skip) / run[i].unit };
		if ((err = vrt_real.clSetKernelArg(k, 0, sizeof r->buf, &r->buf)) != CL_SUCCESS ||
		    (err = vrt_real.clSetKernelArg(k, 1, sizeof d->chunk, &d->chunk)) != CL_SUCCESS ||
		    (err = vrt_real.clSetKernelArg(k, 2, sizeof d->orig, &d->orig)) != CL_SUCCESS)
			break;
		for (cl_uint x = 0; x < 3 && err == CL_SUCCESS; x++)
			err = vrt_real.clSetKernelArg(k, 3 + x, sizeof a[x], &a[x]);
		if (err == CL_SUCCESS)
			err = vrt_real.clEnqueueNDRangeKernel(d->q, k, 1, NULL, &run[i].count, NULL, 0,
			                                      NULL, NULL);
	}
	return err;
}

/* The pages of one destination that one other writer may write, packed
 * into the chunk a batch at a time: each piece brought (one copy on the
 * device in one context; between contexts, all of a batch's reads then
 * one write of them), then merged. fdtd3d's windows share a page at
 * every z plane: 1600 pieces of a page, each brought alone with two
 * blocking transfers, took 130 ms a launch. */
typedef struct bpiece {
	unsigned s;
	size_t off, n, at, c; /* slot bytes [off, off + n), kept at `at`, in the chunk at c */
} bpiece;
typedef struct batch {
	unsigned j, k;
	size_t used;          /* bytes of the chunk taken */
	bpiece *p;
	size_t n, cap;
} batch;

static cl_int flush_batch(vrt_devmerge *M, batch *b)
{
	dm_share *d = &M->sh[b->j], *src = &M->sh[b->k];
	cl_int err = CL_SUCCESS;
	if (!b->n)
		return err;
	if (src->ctx == d->ctx) {
		for (size_t i = 0; i < b->n && err == CL_SUCCESS; i++) {
			const vrt_replica *r = src->rep[b->p[i].s];
			err = vrt_real.clEnqueueCopyBuffer(d->q, r->buf, d->chunk, b->p[i].off - r->lo,
			                                   b->p[i].c, b->p[i].n, 0, NULL, NULL);
		}
	} else {
		/* Another context: through host memory of the merge's own. */
		if (!M->tmp && !(M->tmp = vrt_malloc(CHUNK)))
			return CL_OUT_OF_HOST_MEMORY;
		for (size_t i = 0; i < b->n && err == CL_SUCCESS; i++) {
			const vrt_replica *r = src->rep[b->p[i].s];
			err = vrt_real.clEnqueueReadBuffer(src->q, r->buf, CL_FALSE, b->p[i].off - r->lo,
			                                   b->p[i].n, M->tmp + b->p[i].c, 0, NULL, NULL);
		}
		/* After a failure too: no read may still be filling tmp. */
		cl_int fin = vrt_real.clFinish(src->q);
		if (err == CL_SUCCESS)
			err = fin;
		if (err == CL_SUCCESS)
			err = vrt_real.clEnqueueWriteBuffer(d->q, d->chunk, CL_TRUE, 0, b->used, M->tmp, 0,
			                                    NULL, NULL);
	}
	for (size_t i = 0; i < b->n && err == CL_SUCCESS; i++) {
		const vrt_replica *r = d->rep[b->p[i].s];
		err = merge_kernel(d, r, b->p[i].off - r->lo, b->p[i].c, b->p[i].at, b->p[i].n);
		M->brought += b->p[i].n;
	}
	b->n = b->used = 0;
	return err;
}

static cl_int add_piece(vrt_devmerge *M, unsigned j, unsigned k, unsigned s, size_t off,
                        size_t n, size_t at)
{
	batch *b = M->batch;
	size_t room = chunk_bytes(&M->sh[j]);
	cl_int err = CL_SUCCESS;
	(void)k;
	for (size_t done = 0; done < n && err == CL_SUCCESS;) {
		if (b->used == room && (err = flush_batch(M, b)) != CL_SUCCESS)
			break;
		size_t part = n - done < room - b->used ? n - done : room - b->used;
		if (VRT_GROW(&b->p, &b->cap, b->n + 1))
			return CL_OUT_OF_HOST_MEMORY;
		b->p[b->n++] = (bpiece){ s, off + done, part, at + done, b->used };
		/* The next piece on a word: the merge kernel reads words. */
		b->used += (part + WORD - 1) / WORD * WORD;
		if (b->used > room)
			b->used = room;
		done += part;
	}
	return err;
}

cl_int vrt_devmerge_run(vrt_devmerge *M, size_t *bytes)
{
	cl_int err = CL_SUCCESS;
	for (unsigned j = 0; j < M->n && err == CL_SUCCESS; j++) {
		dm_share *d = &M->sh[j];
		if (!d->owned)
			continue;
		for (unsigned k = 0; k < M->n && err == CL_SUCCESS; k++) {
			if (k == j || !M->sh[k].used)
				continue;
			batch b = { .j = j, .k = k };
			M->batch = &b;
			err = each_piece(M, j, k, add_piece);
			if (err == CL_SUCCESS)
				err = flush_batch(M, &b);
			M->batch = NULL;
			vrt_free(b.p);
		}
		if (err == CL_SUCCESS)
			err = vrt_real.clFinish(d->q);
	}
	*bytes = M->brought;
	return err;
}

void vrt_devmerge_claims(const vrt_devmerge *M, unsigned j, unsigned s, unsigned char *wr)
{
	const unsigned char *w = M->who[s];
	if (!w || !wr)
		return;
	size_t np = npages(M->size[s]);
	for (size_t p = 0; p < np; p++)
		if (is_shared(w[p]) && dest_of(w[p]) != j)
			wr[p] = 0;
}
