/* vastcc prelude: the software MMU and work-item functions shared by every
 * generated kernel (docs/generated-kernels.md). Emitted once at the top of
 * each generated program. */
/* VAST_VA_SHIFT, VAST_MAX_SLOTS, VAST_NO_FRAME, VAST_BOXED,
 * VAST_FRAME_BUFS, the LPT's and the pasinfo's layouts (VAST_LPT_*,
 * VAST_RUN_*, VAST_BOX_*, VAST_PASINFO_*) and VAST_FAULTED come first, from
 * VAST_ABI_OPENCL_DEFINES of vast/stub.h. */
#define VAST_VA_MASK ((1UL << VAST_VA_SHIFT) - 1)

typedef struct vast_ctx {
	/* The original NDRange, rebuilt for this work-item. */
	ulong grp[3], lid[3], lsz[3], gsz[3], ngrp[3], goff[3];
	uint dim;
	uint page_shift;
	ulong flat_group;
	/* Paged kernels: a frame set spans VAST_FRAME_BUFS device buffers
	 * (each within CL_DEVICE_MAX_MEM_ALLOC_SIZE). */
	__global uchar *frames[VAST_FRAME_BUFS];
	__global const uint *lpt;
	/* Per slot: one contiguous run (or len 0) and the slot's buffer. */
	__global const ulong4 *runs;
	uint nslots;
	__global uint *fault;
	/* Inspector. */
	__global uchar *pas;
	__global const ulong *pasinfo;
	__global uchar *data[VAST_MAX_SLOTS];
} vast_ctx;

/* Launched as a 1-D NDRange of whole work-groups starting at flattened
 * group `first`; rebuild the N-D ids of the original launch (OpenCL 1.2
 * §6.12.1). Group and local ids are flattened with dimension 0 fastest. */
/* 64-bit division is a long instruction sequence on GPUs: every quotient
 * here takes the 32-bit path when its operands fit, and a 1-D launch (the
 * common case) divides once per work-item. */
ulong vast_div(ulong a, ulong b)
{ return (a | b) >> 32 ? a / b : (ulong)((uint)a / (uint)b); }

void vast_init_ids(vast_ctx *c, ulong4 gsize, ulong4 lsize,
                          ulong4 goff, ulong first)
{
	c->dim = (uint)gsize.w;
	c->gsz[0] = gsize.x; c->gsz[1] = gsize.y; c->gsz[2] = gsize.z;
	c->lsz[0] = lsize.x; c->lsz[1] = lsize.y; c->lsz[2] = lsize.z;
	c->goff[0] = goff.x; c->goff[1] = goff.y; c->goff[2] = goff.z;
	ulong g = first + get_group_id(0);
	ulong l = get_local_id(0);
	c->flat_group = g;
	c->ngrp[0] = vast_div(gsize.x, lsize.x);
	if (gsize.y == 1 && gsize.z == 1) {
		c->ngrp[1] = c->ngrp[2] = 1;
		c->grp[0] = g;
		c->grp[1] = c->grp[2] = 0;
		c->lid[0] = l;
		c->lid[1] = c->lid[2] = 0;
		return;
	}
	c->ngrp[1] = vast_div(gsize.y, lsize.y);
	c->ngrp[2] = vast_div(gsize.z, lsize.z);
	ulong q = vast_div(g, c->ngrp[0]);
	c->grp[0] = g - q * c->ngrp[0];
	c->grp[2] = vast_div(q, c->ngrp[1]);
	c->grp[1] = q - c->grp[2] * c->ngrp[1];
	/* A work-group has at most a few thousand work-items: 32 bits. */
	uint li = (uint)l, lx = (uint)lsize.x, ly = (uint)lsize.y;
	uint lq = li / lx;
	c->lid[0] = li - lq * lx;
	c->lid[2] = lq / ly;
	c->lid[1] = lq - (uint)c->lid[2] * ly;
}

/* Out-of-range dimensions return the defaults of OpenCL 1.2 §6.12.1. */
size_t vast_get_global_id(vast_ctx *c, uint d)
{ return d < 3 ? c->grp[d] * c->lsz[d] + c->lid[d] + c->goff[d] : 0; }
size_t vast_get_local_id(vast_ctx *c, uint d)
{ return d < 3 ? c->lid[d] : 0; }
size_t vast_get_group_id(vast_ctx *c, uint d)
{ return d < 3 ? c->grp[d] : 0; }
size_t vast_get_num_groups(vast_ctx *c, uint d)
{ return d < 3 ? c->ngrp[d] : 1; }
size_t vast_get_global_size(vast_ctx *c, uint d)
{ return d < 3 ? c->gsz[d] : 1; }
size_t vast_get_local_size(vast_ctx *c, uint d)
{ return d < 3 ? c->lsz[d] : 1; }
size_t vast_get_enqueued_local_size(vast_ctx *c, uint d)
{ return d < 3 ? c->lsz[d] : 1; }
size_t vast_get_global_offset(vast_ctx *c, uint d)
{ return d < 3 ? c->goff[d] : 0; }
uint vast_get_work_dim(vast_ctx *c)
{ return c->dim; }
size_t vast_get_global_linear_id(vast_ctx *c)
{
	return ((vast_get_global_id(c, 2) - c->goff[2]) * c->gsz[1] +
	        (vast_get_global_id(c, 1) - c->goff[1])) * c->gsz[0] +
	       (vast_get_global_id(c, 0) - c->goff[0]);
}
size_t vast_get_local_linear_id(vast_ctx *c)
{ return (c->lid[2] * c->lsz[1] + c->lid[1]) * c->lsz[0] + c->lid[0]; }

/* Frame buffer b of the set. Fields read with constant indices only: a
 * private array indexed at run time, or its address taken, moves the
 * whole context from registers to scratch memory (the paged blackscholes
 * ran 12x slower on the H100). */
#define VAST_PICK(a, b) \
	((b) == 0 ? (a)[0] : (b) == 1 ? (a)[1] : (b) == 2 ? (a)[2] : \
	 (b) == 3 ? (a)[3] : (b) == 4 ? (a)[4] : (b) == 5 ? (a)[5] : \
	 (b) == 6 ? (a)[6] : (a)[7])
typedef char vast_pick_covers_every_buffer[VAST_FRAME_BUFS == 8 ? 1 : -1];
__global uchar *vast_buf(vast_ctx *c, uint b)
{ return VAST_PICK(c->frames, b); }

/* Paged kernels: virtual address -> byte in a frame buffer.
 * lpt[VAST_LPT_NSLOTS] = slots; slot s (1-based): lpt[VAST_LPT_TABLE(s)] =
 * first entry of its table, lpt[VAST_LPT_PAGES(s)] = its pages;
 * lpt[VAST_LPT_RUNS(slots)] = where the run table starts (a ulong4 per
 * slot: VAST_RUN_FIRST byte, VAST_RUN_BYTES, VAST_RUN_FRAME byte of its
 * run, VAST_RUN_BUF of the slot), followed by the box table (a ulong4 per
 * slot: VAST_BOX_FIRST byte, VAST_BOX_PITCH, VAST_BOX_SHAPE width | rows
 * << 32, VAST_BOX_FRAME byte), read only for a boxed slot, whose run's
 * first byte is VAST_BOXED. A slot's frames of one range lie in one
 * buffer, so an element that straddles two resident pages is contiguous
 * there too. A boxed slot has no page frames: its bytes of the range are
 * rows of `width` bytes `pitch` apart in the buffer, packed one after
 * another in its frames. A page with no frame outside the slot's box is
 * a fault: recorded, and the access goes to frame 0 of buffer 0, which
 * the runtime keeps as scratch. */
__global uchar *vast_tr(vast_ctx *c, ulong v)
{
	uint s = (uint)(v >> VAST_VA_SHIFT);
	ulong off = v & VAST_VA_MASK;
	ulong page = off >> c->page_shift;
	uint f = VAST_NO_FRAME, b = 0;
	if (s - 1 < c->nslots) {
		ulong4 r = c->runs[s - 1];
		ulong first = VAST_FIELD(r, VAST_RUN_FIRST);
		b = (uint)VAST_FIELD(r, VAST_RUN_BUF);
		/* The fast path: the slot's resident pages are one run, in
		 * consecutive frames, so translation is one add. */
		if (off - first < VAST_FIELD(r, VAST_RUN_BYTES))
			return vast_buf(c, b) + VAST_FIELD(r, VAST_RUN_FRAME) + (off - first);
		if (first == VAST_BOXED) {
			/* A boxed slot: re-pitched into its packed rows, no
			 * page table; outside the box, a fault. */
			ulong4 q = c->runs[c->nslots + s - 1];
			ulong pitch = VAST_FIELD(q, VAST_BOX_PITCH), shape = VAST_FIELD(q, VAST_BOX_SHAPE);
			ulong d = off - VAST_FIELD(q, VAST_BOX_FIRST), row = vast_div(d, pitch);
			ulong col = d - row * pitch, width = shape & 0xffffffffUL;
			if (col < width && row < (shape >> 32))
				return vast_buf(c, b) + VAST_FIELD(q, VAST_BOX_FRAME) + row * width + col;
		} else {
			__global const uint *lpt = c->lpt;
			if (page < lpt[VAST_LPT_PAGES(s)])
				f = lpt[lpt[VAST_LPT_TABLE(s)] + page];
		}
	}
	if (f == VAST_NO_FRAME) {
		*c->fault = VAST_FAULTED;
		f = b = 0;
	}
	return vast_buf(c, b) + ((ulong)f << c->page_shift) +
	       (off & ((1UL << c->page_shift) - 1));
}

/* A buffer parameter's run: its slot's run with the run's first byte in
 * its frame buffer already resolved. */
typedef struct vast_prun {
	__global uchar *base; /* where byte `lo` of the slot lies */
	ulong lo, len;
	uint slot;
} vast_prun;

/* The run of the slot of virtual address va: loaded once per work-item
 * for each buffer parameter in the paged kernel's prologue, so an access
 * known to reach that parameter translates with a compare and an add and
 * no load (vast_trp). Length 0 when va is 0 (a NULL buffer) or the slot's
 * pages are not one run. */
vast_prun vast_run(vast_ctx *c, ulong va)
{
	uint s = (uint)(va >> VAST_VA_SHIFT);
	vast_prun r = { c->frames[0], 0, 0, s };
	if (s - 1 < c->nslots) {
		ulong4 q = c->runs[s - 1];
		r.base = vast_buf(c, (uint)VAST_FIELD(q, VAST_RUN_BUF)) + VAST_FIELD(q, VAST_RUN_FRAME);
		r.lo = VAST_FIELD(q, VAST_RUN_FIRST);
		r.len = VAST_FIELD(q, VAST_RUN_BYTES);
	}
	return r;
}

/* vast_tr with the run of the access's parameter already at hand. The slot
 * check keeps it exact even if v is not in that parameter's buffer. */
__global uchar *vast_trp(vast_ctx *c, ulong v, vast_prun r)
{
	ulong off = v & VAST_VA_MASK;
	if ((v >> VAST_VA_SHIFT) == r.slot && off - r.lo < r.len)
		return r.base + (off - r.lo);
	return vast_tr(c, v);
}

/* The straight variant's translation: the runtime launches it only for a
 * range in which every slot's pages are one run (lpt.c), and the plan holds
 * every address the range's work-items reach, so v lies in its slot's run
 * and the check of vast_trp cannot fail. One add and no fallback, so the
 * device compiler keeps no page-table walk beside it. */
__global uchar *vast_trsp(vast_ctx *c, ulong v, vast_prun r)
{ return r.base + (v - (((ulong)r.slot << VAST_VA_SHIFT) + r.lo)); }

/* A buffer parameter's run in the straight kernel: from its arguments
 * (VAST_TAIL_SRUNS), the frame buffer and the delta, so that vast_trsp
 * is buf + (v - delta). No load: a load of the run table before every
 * work-item's first access made the straight blackscholes 1.69x the
 * original on the H100, 1.03x with the run in arguments. */
vast_prun vast_srun(__global uchar *buf, ulong delta)
{
	vast_prun r = { buf, delta, 0, 0 };
	return r;
}

/* The same for an access whose buffer is known only at run time: its
 * slot's run is loaded from the run table, not checked. */
__global uchar *vast_trs(vast_ctx *c, ulong v)
{
	__global const uint *lpt = c->lpt;
	uint s = (uint)(v >> VAST_VA_SHIFT);
	uint n = lpt[VAST_LPT_NSLOTS];
	if (s - 1 >= n) /* a NULL buffer's: undefined, kept in frame 0 */
		return c->frames[0];
	ulong4 q = ((__global const ulong4 *)(lpt + lpt[VAST_LPT_RUNS(n)]))[s - 1];
	return vast_buf(c, (uint)VAST_FIELD(q, VAST_RUN_BUF)) + VAST_FIELD(q, VAST_RUN_FRAME) +
	       ((v & VAST_VA_MASK) - VAST_FIELD(q, VAST_RUN_FIRST));
}

/* Inspector: pasinfo[VAST_PASINFO_ROW_BYTES] = bytes per PAS row,
 * [VAST_PASINFO_GROUPS] = work-groups per row, [VAST_PASINFO_NSLOTS] =
 * slots n; slot s (1-based): [VAST_PASINFO_OFF(s)] = its first byte in a
 * row, [VAST_PASINFO_PAGES(s)] = its pages, [VAST_PASINFO_BYTES(n, s)] =
 * its bytes; from [VAST_PASINFO_SCRATCH(n)] on ([3n+3] rounded up to 16
 * ulongs: aligned for any type vast_load's caller reads there),
 * VAST_INSPECT_SCRATCH zero bytes. Marks are plain stores of 1
 * (idempotent). Pages outside the buffer are not marked: the paged kernel
 * faults on them. */
void vast_touch(vast_ctx *c, ulong v, uint n)
{
	__global const ulong *pi = c->pasinfo;
	ulong s = v >> VAST_VA_SHIFT;
	if (s < 1 || s > pi[VAST_PASINFO_NSLOTS] || n == 0)
		return;
	ulong off = v & VAST_VA_MASK;
	ulong first = off >> c->page_shift;
	ulong last = (off + n - 1) >> c->page_shift;
	ulong npages = pi[VAST_PASINFO_PAGES(s)];
	__global uchar *row = c->pas + pi[VAST_PASINFO_OFF(s)];
	for (ulong p = first; p <= last && p < npages; p++)
		if (!row[p]) /* most marks repeat: a read is cheaper than a store */
			row[p] = 1;
}

/* Inspector: a read whose value the inspector needs; marks it too. The
 * paged inspector (an LPT set) finds the bytes in its frames, checked as
 * the paged kernel's are: a page it lacks faults, and the runtime refuses
 * the rows. The plain one reads the buffer whole, checked against its
 * bytes: the address comes from the program's own arithmetic, which may
 * leave the buffer where the kernel's reads go unnoticed (a read past a
 * device buffer returns garbage; past a host copy it kills the process).
 * Outside, it faults (the runtime refuses the launch) and reads zeros
 * from the scratch instead. n is at most VAST_INSPECT_SCRATCH (the
 * analysis refuses larger loads). */
__global uchar *vast_load(vast_ctx *c, ulong v, uint n)
{
	vast_touch(c, v, n);
	if (c->lpt)
		return vast_tr(c, v);
	__global const ulong *pi = c->pasinfo;
	ulong s = v >> VAST_VA_SHIFT, off = v & VAST_VA_MASK, ns = pi[VAST_PASINFO_NSLOTS];
	if (s - 1 < ns && c->data[s - 1]) {
		ulong size = pi[VAST_PASINFO_BYTES(ns, s)];
		if (off <= size && n <= size - off)
			return c->data[s - 1] + off;
	}
	*c->fault = VAST_FAULTED;
	return (__global uchar *)(pi + VAST_PASINFO_SCRATCH(ns));
}

/* Frame buffers are set by the kernel itself, one line each: they are
 * VAST_FRAME_BUFS arguments. */
void vast_init_paged(vast_ctx *c, __global const uint *lpt,
                            __global uint *fault, uint page_shift,
                            ulong4 gsize, ulong4 lsize, ulong4 goff,
                            ulong first)
{
	vast_init_ids(c, gsize, lsize, goff, first);
	c->lpt = lpt;
	c->nslots = lpt[VAST_LPT_NSLOTS];
	c->runs = (__global const ulong4 *)(lpt + lpt[VAST_LPT_RUNS(c->nslots)]);
	c->fault = fault;
	c->page_shift = page_shift;
}

/* The straight kernel runs an N-D box of the original work-groups,
 * launched with the original local size and a global offset of goff +
 * origin * lsize, so the device's own get_global_id and get_local_id are
 * the original ones: no ids rebuilt from a 1-D launch (their divisions
 * made the straight sobel filter 1.7x the original on the H100; 1.06x
 * this way), and nothing loaded from the LPT up front. */
void vast_init_straight(vast_ctx *c, __global const uint *lpt,
                        __global uint *fault, uint page_shift,
                        ulong4 gsize, ulong4 lsize, ulong4 goff,
                        ulong first, ulong4 origin)
{
	c->dim = (uint)gsize.w;
	c->gsz[0] = gsize.x; c->gsz[1] = gsize.y; c->gsz[2] = gsize.z;
	c->lsz[0] = lsize.x; c->lsz[1] = lsize.y; c->lsz[2] = lsize.z;
	c->goff[0] = goff.x; c->goff[1] = goff.y; c->goff[2] = goff.z;
	c->grp[0] = origin.x; c->grp[1] = origin.y; c->grp[2] = origin.z;
	c->lpt = lpt;
	c->fault = fault;
	c->page_shift = page_shift;
}

/* The work-item functions of the straight kernel that differ from the
 * other variants' (c->grp holds the box's origin): the device's where
 * they are the original's. The sizes, offset and dimensions are the
 * same vast_get_* as everywhere (vast_init_straight sets their fields). */
size_t vast_st_get_global_id(vast_ctx *c, uint d)
{ return d < 3 ? get_global_id(d) : 0; }
size_t vast_st_get_local_id(vast_ctx *c, uint d)
{ return d < 3 ? get_local_id(d) : 0; }
size_t vast_st_get_group_id(vast_ctx *c, uint d)
{ return d < 3 ? get_group_id(d) + c->grp[d] : 0; }
size_t vast_st_get_num_groups(vast_ctx *c, uint d)
{ return d < 3 ? vast_div(c->gsz[d], c->lsz[d]) : 1; }
size_t vast_st_get_global_linear_id(vast_ctx *c)
{
	return ((get_global_id(2) - c->goff[2]) * c->gsz[1] +
	        (get_global_id(1) - c->goff[1])) * c->gsz[0] +
	       (get_global_id(0) - c->goff[0]);
}
size_t vast_st_get_local_linear_id(vast_ctx *c)
{ return (get_local_id(2) * c->lsz[1] + get_local_id(1)) * c->lsz[0] + get_local_id(0); }

/* The inspectors: the PAS row this work-group marks (a launch starts at
 * a multiple of WG_PER_PAS = pasinfo[VAST_PASINFO_GROUPS] groups). The
 * paged inspector calls it after vast_init_paged. */
void vast_init_pas(vast_ctx *c, __global uchar *pas, __global const ulong *pasinfo)
{
	c->pasinfo = pasinfo;
	c->pas = pas + (get_group_id(0) / pasinfo[VAST_PASINFO_GROUPS]) *
	                   pasinfo[VAST_PASINFO_ROW_BYTES];
}

void vast_init_inspect(vast_ctx *c, __global uchar *pas,
                              __global const ulong *pasinfo,
                              __global uint *fault, uint page_shift,
                              ulong4 gsize, ulong4 lsize, ulong4 goff,
                              ulong first)
{
	vast_init_ids(c, gsize, lsize, goff, first);
	vast_init_pas(c, pas, pasinfo);
	c->lpt = 0; /* its data is whole buffers (vast_load) */
	/* the kernel sets the slots it reads; vast_load refuses the others */
	for (uint s = 0; s < VAST_MAX_SLOTS; s++)
		c->data[s] = 0;
	c->fault = fault;
	c->page_shift = page_shift;
}
