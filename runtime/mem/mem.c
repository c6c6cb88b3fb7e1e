/* SPDX-License-Identifier: MIT */
/*
 * mem.c - host-backed buffers and their lazy device copies.
 *
 * A cl_mem the program creates is a vrt_mem: the data's home is host
 * memory (ours, or the program's for CL_MEM_USE_HOST_PTR), and a device
 * copy is allocated only when a native launch needs it. The memory
 * directory (directory.c) says which of them hold the bytes: a launch
 * makes the device copy hold them and, when the kernel may write the
 * buffer, the host copy not; a read or map brings the data back. Device copies stay resident across kernels and are evicted
 * least recently used first when a launch needs room under the budget
 * (written back first when dirty).
 *
 * Our host copy is made at its first need (vrt_mem_host_copy): a map, a
 * partial transfer, a paged launch, an eviction. Until then a buffer
 * whose data fits goes where a program built with cc sends it: a whole
 * write straight to a device copy, a read straight back from it, with
 * no pinning and no host copy to fill (0.54-0.72 s of the 1 GiB fill
 * program went to pinning host copies it never needed).
 * With neither copy the bytes are zeros.
 *
 * A CL_MEM_USE_HOST_PTR buffer whose memory the driver pinned
 * (pinned.c) outside a family has no device copy of its own: the driver's
 * USE_HOST_PTR buffer over the program's memory is lent as the device
 * copy (unmapped: device valid, host not) and mapped back when the host
 * needs the bytes, as a program built with cc would do; then exactly one
 * side is valid at a time.
 *
 * A buffer outside a family may also have replicas: windows of it that
 * split launches keep on their devices (replica.c), locations of the
 * same directory. The mover (vrt_mem_mover) moves bytes between any two
 * locations, so every path that brings bytes home or to the device copy
 * takes them from wherever the newest are.
 *
 * Every live vrt_mem is on one list (eviction walks it); object.c
 * records which handles are ours (a kernel argument's bytes naming one of
 * ours are told from a scalar without dereferencing them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem/mem.h"

/* A destructor callback of a buffer (clSetMemObjectDestructorCallback),
 * run once the runtime lock is released (vrt_run_after_unlock). */
typedef struct destructor {
	vrt_later later; /* first: run_destructor gets the destructor back */
	void (CL_CALLBACK *fn)(cl_mem, void *);
	void *user;
	cl_mem mem;
} destructor;

static void run_destructor(vrt_later *l)
{
	destructor *d = (destructor *)l;
	d->fn(d->mem, d->user);
	vrt_free(d);
}

static vrt_mem *all_mems;
static unsigned long long version_clock; /* serials and versions */

vrt_mem *vrt_mem_all(void)
{
	return all_mems;
}

unsigned long long vrt_mem_used(cl_device_id dev, int own)
{
	unsigned long long n = vrt_mem_replica_bytes(NULL, dev, NULL, 0);
	return own ? n + vrt_mem_resident_bytes() + vrt_framepool_bytes() : n;
}

size_t vrt_mem_resident_bytes(void)
{
	size_t n = 0;
	for (vrt_mem *m = all_mems; m; m = m->next)
		if (m->dev)
			n += m->size;
	return n;
}

/* Families (a parent and its sub-buffers) share host bytes but each
 * member has its own device copy. One directory (directory.h) says which
 * copies hold each byte of the family: a write through one member makes
 * the other copies of those bytes stale, exactly over the bytes it
 * wrote; before a member's host bytes are read or its device copy is
 * filled, the bytes only other members' device copies hold come home
 * (family_flush). */
static vrt_mem *family_root(vrt_mem *m)
{
	return m->parent ? m->parent : m;
}

/* The locations holding all of m's window (a split launch's private
 * view, with no directory: its host copy). */
static vrt_locs holders(const vrt_mem *m)
{
	if (!m->dir)
		return VRT_LOC(VRT_DIR_HOST);
	return vrt_dir_holders(m->dir, m->origin, m->size);
}

int vrt_mem_host_valid(const vrt_mem *m)
{
	return !m->dir || (holders(m) & VRT_LOC(VRT_DIR_HOST));
}

int vrt_mem_dev_valid(const vrt_mem *m)
{
	return m->dir && m->dev_loc >= 0 && (holders(m) & VRT_LOC(m->dev_loc));
}

/* The transitions of m's window (directory.h). The family's directory
 * has room for every run its members' windows can cut (reserved as each
 * member is made), so these never allocate and never fail. */
static void host_holds(vrt_mem *m)
{
	if (m->dir)
		vrt_dir_copied(m->dir, VRT_DIR_HOST, m->origin, m->size);
}

static void host_wrote(vrt_mem *m)
{
	if (m->dir)
		vrt_dir_wrote(m->dir, VRT_DIR_HOST, m->origin, m->size);
}

static void dev_holds(vrt_mem *m)
{
	if (m->dir && m->dev_loc >= 0)
		vrt_dir_copied(m->dir, m->dev_loc, m->origin, m->size);
}

static void dev_wrote(vrt_mem *m)
{
	if (m->dir && m->dev_loc >= 0)
		vrt_dir_wrote(m->dir, m->dev_loc, m->origin, m->size);
}

/* The host gives up m's window to the device copy (lent to the driver). */
static void host_lends(vrt_mem *m)
{
	if (m->dir)
		vrt_dir_drop(m->dir, VRT_DIR_HOST, m->origin, m->size);
}

/* m's device copy goes: what only it held is lost unless the caller
 * brought it home first (or replaces it whole). */
static void dev_gone(vrt_mem *m)
{
	if (m->dir && m->dev_loc >= 0) {
		vrt_dir_forget(m->dir, m->dev_loc, 0, m->dir->size);
		vrt_dir_remove_loc(m->dir, m->dev_loc);
	}
	m->dev_loc = -1;
}

/* A small number for each device and context the device copies live
 * on: which copies are near each other (directory.h). */
static int number_of(const void *h, const void **seen, int *n, int cap)
{
	for (int i = 0; i < *n; i++)
		if (seen[i] == h)
			return i;
	if (*n == cap)
		return cap; /* shared by the rest: only nearness suffers */
	seen[*n] = h;
	return (*n)++;
}

int vrt_mem_new_loc(vrt_mem *m, cl_device_id dev, cl_context ctx)
{
	static const void *devices[64], *contexts[64];
	static int ndevices, ncontexts;
	return vrt_dir_add_loc(m->dir, number_of(dev, devices, &ndevices, 64),
	                       number_of(ctx, contexts, &ncontexts, 64));
}

static int dev_location(vrt_mem *m, cl_command_queue q)
{
	cl_device_id dev = NULL;
	clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
	return vrt_mem_new_loc(m, dev, m->ctx);
}

static int in_family(const vrt_mem *m)
{
	return m->parent || m->nsubs;
}

int vrt_mem_overlap(const vrt_mem *a, const vrt_mem *b)
{
	if (a == b)
		return 1;
	if (family_root((vrt_mem *)a) != family_root((vrt_mem *)b))
		return 0;
	return a->host < b->host + b->size && b->host < a->host + a->size;
}

static cl_int read_back(vrt_mem *m);

static cl_int family_flush(vrt_mem *m)
{
	if (!in_family(m))
		return CL_SUCCESS;
	vrt_mem *root = family_root(m);
	for (vrt_mem *o = all_mems; o; o = o->next) {
		if (o == m || family_root(o) != root || vrt_mem_host_valid(o))
			continue;
		cl_int err = read_back(o);
		if (err != CL_SUCCESS)
			return err;
	}
	return CL_SUCCESS;
}

void vrt_mem_changed(vrt_mem *m)
{
	m->version = ++version_clock;
	m->zero = 0;
	if (!in_family(m))
		return;
	vrt_mem *root = family_root(m);
	for (vrt_mem *o = all_mems; o; o = o->next)
		if (family_root(o) == root && vrt_mem_overlap(o, m)) {
			o->version = version_clock;
			o->zero = 0;
		}
}

void vrt_mem_host_changed(vrt_mem *m)
{
	vrt_mem_changed(m);
	host_wrote(m);
}

void vrt_mem_dev_written(vrt_mem *m)
{
	vrt_mem_changed(m);
	m->zero = 0;
	dev_wrote(m);
}

/* Pages of m that paged launches left in the frames they keep newer
 * than the host copy (the directory says so: poolloc.c) come home before
 * anything else reads or sends the host copy: a read, map, copy or
 * fill, a native launch, an inspector, a sub-buffer made of it. */
static cl_int from_frames(vrt_mem *m)
{
	return vrt_framepool_newer(m) ? vrt_framepool_write_home(m) : CL_SUCCESS;
}

vrt_mem *vrt_mem_by_serial(unsigned long long serial)
{
	for (vrt_mem *m = all_mems; m; m = m->next)
		if (m->serial == serial)
			return m;
	return NULL;
}

/* The device copy is the program's memory lent to the driver. */
static int lent(const vrt_mem *m)
{
	return m->dev && m->dev == m->pin.buf;
}

/* A wrapped USE_HOST_PTR buffer is made unmapped (pinned.c), as a program
 * built with cc leaves it: mapped before the runtime touches its bytes
 * (`overwrite`: they are all about to be replaced, none need keeping). */
static cl_int host_mapped(vrt_mem *m, int overwrite)
{
	if (m->pin.buf && m->pin.lent && !lent(m))
		return vrt_pin_reclaim(&m->pin, m->pin.queue, overwrite);
	return CL_SUCCESS;
}

/* Plain memory: pinning costs more than the transfers it would speed up
 * (about 0.25 s a GiB on the H100, against 18 ms at the link's speed),
 * and the ring moves plain memory at the link's speed (ring.c). */
cl_int vrt_mem_host_copy(vrt_mem *m)
{
	if (m->host)
		return host_mapped(m, 0);
	m->host = vrt_malloc(m->size);
	if (!m->host) {
		vrt_log(VRT_LOG_WARN, "no host memory for a host copy of %zu bytes", m->size);
		return CL_OUT_OF_HOST_MEMORY;
	}
	vrt_advise_huge(m->host, m->size);
	if (!holders(m) && !m->replicas) { /* the zeros, nowhere yet */
		vrt_fill(m->host, "", 1, m->size);
		host_holds(m);
	}
	return CL_SUCCESS;
}

cl_int vrt_mem_to_host(vrt_mem *m)
{
	cl_int err = vrt_mem_host_copy(m);
	if (err != CL_SUCCESS)
		return err;
	err = from_frames(m);
	if (err == CL_SUCCESS)
		err = family_flush(m);
	if (err != CL_SUCCESS)
		return err;
	return read_back(m);
}

/* Where location l of root's directory keeps its bytes: the host copy
 * (buf NULL), a member's device copy (native) or a replica (replica.c);
 * base is the directory offset of buf's first byte. 0: none of those (a
 * frame pool's location, whose pages only the pool can move). */
typedef struct place {
	cl_mem buf;
	cl_command_queue q;
	cl_context ctx;
	size_t base;
	int native;
} place;

static int place_of(vrt_mem *root, int l, place *p)
{
	memset(p, 0, sizeof *p);
	if (l == VRT_DIR_HOST)
		return 1;
	for (vrt_mem *x = all_mems; x; x = x->next)
		if (family_root(x) == root && x->dev_loc == l && x->dev) {
			*p = (place){ x->dev, x->dev_queue, x->ctx, x->origin, 1 };
			return 1;
		}
	for (vrt_replica *r = root->replicas; r; r = r->next)
		if (r->loc == l) {
			*p = (place){ r->buf, r->q, r->ctx, r->lo, 0 };
			return 1;
		}
	return 0;
}

int vrt_mem_location(vrt_mem *root, int l, cl_mem *buf, cl_command_queue *q, cl_context *ctx,
                     size_t *base)
{
	place p;
	if (l == VRT_DIR_HOST || !place_of(root, l, &p))
		return 0;
	*buf = p.buf;
	*q = p.q;
	*ctx = p.ctx;
	*base = p.base;
	return 1;
}

/* [off, off + n) from host memory at src into p's copy: from plain
 * memory through the ring of p's context (a device copy's, or a
 * replica's in the program's context or a device's), from a pinned host
 * copy straight. */
static cl_int put_bytes(vrt_mem *root, const place *p, size_t off, size_t n, const void *src)
{
	if (!root->pin.buf)
		return vrt_ring_send_on(vrt_ring_claim(p->ctx), p->ctx, p->q, p->buf, off - p->base,
		                        src, n);
	return vrt_real.clEnqueueWriteBuffer(p->q, p->buf, CL_TRUE, off - p->base, n, src, 0,
	                                     NULL, NULL);
}

static cl_int get_bytes(vrt_mem *root, const place *p, size_t off, size_t n, void *dst)
{
	if (!root->pin.buf)
		return vrt_ring_receive_on(vrt_ring_claim(p->ctx), p->ctx, p->q, p->buf, off - p->base,
		                           dst, n);
	return vrt_real.clEnqueueReadBuffer(p->q, p->buf, CL_TRUE, off - p->base, n, dst, 0,
	                                    NULL, NULL);
}

static cl_int zero_buffer(cl_command_queue q, cl_mem buf, size_t off, size_t n);

int vrt_mem_mover(void *u, int from, int to, size_t off, size_t n)
{
	vrt_mem *root = u;
	place src, dst;
	if (!place_of(root, to, &dst))
		return CL_INVALID_MEM_OBJECT;
	vrt_kstats *st = vrt_stats_for(NULL);
	cl_int err;
	if (from >= 0 && !place_of(root, from, &src)) {
		/* A frame pool's pages (poolloc.c): home through the pool,
		 * which records them there, then on from the host copy. */
		if ((err = vrt_framepool_move(root, from, off, n)) != CL_SUCCESS)
			return err;
		if (!(vrt_dir_holders(root->dir, off, n) & VRT_LOC(VRT_DIR_HOST)))
			return CL_INVALID_MEM_OBJECT; /* the pool lacked them: a bug */
		if (!dst.buf)
			return CL_SUCCESS;
		err = put_bytes(root, &dst, off, n, root->host + off);
		if (st && err == CL_SUCCESS)
			st->h2d += n;
		return err;
	}
	if (from < 0) { /* the zeros no one holds */
		if (!dst.buf) {
			vrt_fill(root->host + off, "", 1, n);
			return CL_SUCCESS;
		}
		return zero_buffer(dst.q, dst.buf, off - dst.base, n);
	}
	/* The zeros of a buffer written by no one: made on the device. */
	if (!src.buf && dst.buf && root->zero)
		return zero_buffer(dst.q, dst.buf, off - dst.base, n);
	if (!src.buf || !dst.buf) {
		err = !src.buf ? put_bytes(root, &dst, off, n, root->host + off)
		               : get_bytes(root, &src, off, n, root->host + off);
		if (st && err == CL_SUCCESS)
			*(!src.buf ? &st->h2d : &st->d2h) += n;
		return err;
	}
	if (src.ctx == dst.ctx) {
		/* One context: on the device, after what the source's queue
		 * still has in flight. */
		if ((err = vrt_real.clFinish(src.q)) == CL_SUCCESS &&
		    (err = vrt_real.clEnqueueCopyBuffer(dst.q, src.buf, dst.buf, off - src.base,
		                                        off - dst.base, n, 0, NULL, NULL)) == CL_SUCCESS)
			err = vrt_real.clFinish(dst.q);
		return err;
	}
	/* Another context: through host memory of the relay's own (ring.c),
	 * never the host copy, whose bytes there are other (older) ones;
	 * the bytes never go home, so neither h2d nor d2h counts them. */
	return vrt_ring_relay(src.ctx, src.q, src.buf, off - src.base, dst.ctx, dst.q, dst.buf,
	                      off - dst.base, n);
}

/* --- replicas (replica.c keeps the records): their bytes --------------- */

cl_int vrt_mem_replica_bring(vrt_mem *m, vrt_replica *r, size_t off, size_t n)
{
	int err = vrt_dir_bring(m->dir, r->loc, off, n, vrt_mem_mover, m);
	return err == -1 ? CL_OUT_OF_HOST_MEMORY : err; /* -1: the directory's own */
}

int vrt_mem_replica_wrote(vrt_mem *m, vrt_replica *r, size_t off, size_t n)
{
	return vrt_dir_wrote(m->dir, r->loc, off, n);
}

cl_int vrt_mem_replica_evict(vrt_mem *m, vrt_replica *r)
{
	cl_int err = vrt_mem_host_copy(m);
	if (err != CL_SUCCESS)
		return err;
	vrt_log(VRT_LOG_DEBUG, "evict buffer %p's window [%zu, %zu) kept on a split launch's device",
	        (void *)m, r->lo, r->hi);
	int e = vrt_dir_evict(m->dir, r->loc, r->lo, r->hi - r->lo, vrt_mem_mover, m);
	if (e != 0) {
		vrt_log(VRT_LOG_WARN, "writing a device's window of a buffer home failed: %s",
		        e == -1 ? "out of host memory" : vrt_cl_error_name(e));
		return e == -1 ? CL_OUT_OF_HOST_MEMORY : e;
	}
	vrt_dir_remove_loc(m->dir, r->loc);
	vrt_replica_free(m, r);
	return CL_SUCCESS;
}

/* m is going: its replicas go without moving a byte. */
static void replicas_free(vrt_mem *m)
{
	while (m->replicas) {
		vrt_replica *r = m->replicas;
		vrt_dir_forget(m->dir, r->loc, 0, m->dir->size);
		vrt_dir_remove_loc(m->dir, r->loc);
		vrt_replica_free(m, r);
	}
}

/* The runs of a window location `loc` holds (vrt_dir_walk): collected
 * first, since bringing them changes the directory being walked. */
typedef struct held_runs {
	int loc;
	size_t n, cap;
	size_t *off, *len;
	int oom;
} held_runs;

static int collect_held(void *u, size_t off, size_t n, vrt_locs valid)
{
	held_runs *h = u;
	if (!(valid & VRT_LOC(h->loc)))
		return 0;
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		size_t *o = vrt_realloc(h->off, cap * sizeof *o);
		if (o)
			h->off = o;
		size_t *l = o ? vrt_realloc(h->len, cap * sizeof *l) : NULL;
		if (!l) {
			h->oom = 1;
			return 1;
		}
		h->len = l;
		h->cap = cap;
	}
	h->off[h->n] = off;
	h->len[h->n++] = n;
	return 0;
}

cl_int vrt_mem_replica_place(vrt_mem *m, cl_context ctx, cl_command_queue q,
                             cl_device_id dev, size_t lo, size_t hi, vrt_replica **out)
{
	vrt_replica *old = vrt_replica_on(m, dev), *r;
	/* One made in another context (dev was another launch's other
	 * device, in a runtime context, and is this one's own, in the
	 * program's) is no argument of this launch's kernels: replaced. */
	if (old && old->ctx == ctx && old->lo <= lo && hi <= old->hi) {
		*out = old;
		return CL_SUCCESS;
	}
	if (old) { /* a window only grows */
		lo = old->lo < lo ? old->lo : lo;
		hi = old->hi > hi ? old->hi : hi;
	}
	int loc = vrt_mem_new_loc(m, dev, ctx);
	if (loc < 0)
		return CL_MEM_OBJECT_ALLOCATION_FAILURE; /* every location taken */
	cl_int err = vrt_replica_new(m, ctx, q, dev, lo, hi, loc, &r);
	if (err != CL_SUCCESS) {
		vrt_dir_remove_loc(m->dir, loc);
		return err;
	}
	if (!old) {
		*out = r;
		return CL_SUCCESS;
	}
	/* What the old one held comes from it (the nearest: its device), the
	 * rest stays where it is; then the old one holds nothing alone. */
	held_runs h = { .loc = old->loc };
	vrt_dir_walk(m->dir, old->lo, old->hi - old->lo, collect_held, &h);
	for (size_t i = 0; i < h.n && !h.oom && err == CL_SUCCESS; i++)
		err = vrt_mem_replica_bring(m, r, h.off[i], h.len[i]);
	vrt_free(h.off);
	vrt_free(h.len);
	if (h.oom && err == CL_SUCCESS)
		err = CL_OUT_OF_HOST_MEMORY;
	if (err == CL_SUCCESS)
		err = vrt_mem_replica_evict(m, old); /* moves nothing */
	if (err != CL_SUCCESS) {
		vrt_mem_replica_evict(m, r);
		return err;
	}
	*out = r;
	return CL_SUCCESS;
}

/* Runs of a buffer's directory the host copy lacks, from device copies
 * and replicas (home_from_devices). */
typedef struct homing {
	vrt_mem *root;
	vrt_xfer *x;
	size_t n, cap;
} homing;

static int collect_home(void *u, size_t off, size_t n, vrt_locs valid)
{
	homing *h = u;
	if (!valid || (valid & VRT_LOC(VRT_DIR_HOST)))
		return 0;
	for (int l = 1; l < VRT_DIR_MAX_LOCS; l++) {
		place p;
		if (!(valid & VRT_LOC(l)) || !place_of(h->root, l, &p))
			continue;
		if (VRT_GROW(&h->x, &h->cap, h->n + 1))
			return -1;
		h->x[h->n++] = (vrt_xfer){ p.ctx, p.q, p.buf, off - p.base, h->root->host + off, n,
		                           h->root->pin.buf != NULL };
		return 0;
	}
	return 0; /* a frame pool's: vrt_dir_bring moves it */
}

/* The runs of m's window that device copies and replicas hold and the
 * host copy lacks, home from every device at once (host/batch.c); the
 * rest (a frame pool's, the zeros) is vrt_dir_bring's. */
static cl_int home_from_devices(vrt_mem *m)
{
	vrt_mem *root = family_root(m);
	homing h = { .root = root };
	int e = vrt_dir_walk(m->dir, m->origin, m->size, collect_home, &h);
	cl_int err = e == -1 ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
	if (err == CL_SUCCESS && h.n)
		err = vrt_xfer_batch(h.x, h.n, 0);
	vrt_kstats *st = vrt_stats_for(NULL);
	for (size_t i = 0; i < h.n && err == CL_SUCCESS; i++) {
		const vrt_xfer *x = &h.x[i];
		size_t off = (size_t)(x->host - root->host);
		if (vrt_dir_copied(m->dir, VRT_DIR_HOST, off, x->n) != 0)
			err = CL_OUT_OF_HOST_MEMORY;
		else if (st)
			st->d2h += x->n;
	}
	vrt_free(h.x);
	return err;
}

/* The bytes of m's window the host copy lacks come home from the device
 * copies holding them. */
static cl_int read_back(vrt_mem *m)
{
	if (vrt_mem_host_valid(m))
		return CL_SUCCESS;
	cl_int err;
	if (lent(m)) {
		/* Mapped back: no kernel may use it until it is lent again. */
		err = vrt_pin_reclaim(&m->pin, m->dev_queue, 0);
		if (err == CL_SUCCESS) {
			host_holds(m);
			vrt_dir_drop(m->dir, m->dev_loc, m->origin, m->size);
		}
	} else {
		/* Split launches' windows: from their devices at once. */
		err = family_root(m)->replicas ? home_from_devices(m) : CL_SUCCESS;
		if (err == CL_SUCCESS)
			err = vrt_dir_bring(m->dir, VRT_DIR_HOST, m->origin, m->size, vrt_mem_mover,
			                    family_root(m));
		if (err == -1) /* the directory's own: out of memory */
			err = CL_OUT_OF_HOST_MEMORY;
	}
	if (err != CL_SUCCESS) {
		vrt_log(VRT_LOG_WARN, "reading a buffer back from the device failed: %s",
		        vrt_cl_error_name(err));
		return err;
	}
	return CL_SUCCESS;
}

/* vrt_mem_to_host but for [off, off + n) of m (outside a family, not
 * lent), which the program put in the host copy itself. */
static cl_int to_host_around(vrt_mem *m, size_t off, size_t n)
{
	cl_int err;
	if ((err = vrt_mem_host_copy(m)) != CL_SUCCESS || (err = from_frames(m)) != CL_SUCCESS)
		return err;
	size_t end = off + n;
	int e = vrt_dir_bring(m->dir, VRT_DIR_HOST, m->origin, off, vrt_mem_mover, m);
	if (e == 0)
		e = vrt_dir_bring(m->dir, VRT_DIR_HOST, m->origin + end, m->size - end, vrt_mem_mover,
		                  m);
	return e == -1 ? CL_OUT_OF_HOST_MEMORY : e;
}

/* Reads and writes of part of a buffer whose only current copy is on
 * the device go to the device copy: fetching the whole buffer to change
 * or see a few bytes moves more than the driver would (OpenCL 1.2
 * §5.2.2 asks only that the n bytes be read or written). In a family the
 * others' device copies would go stale unseen, so families always take
 * the host copy. Whole-buffer transfers take the host copy where there
 * is one: it is pinned, and its parallel copy plus a pinned transfer
 * beats the driver's transfer from the program's pageable memory
 * (DESIGN §3); without one, making it would cost more than it saves. */
static int dev_only(const vrt_mem *m, size_t n)
{
	return !vrt_mem_host_valid(m) && vrt_mem_dev_valid(m) && !in_family(m) &&
	       (n < m->size || !m->host);
}

cl_int vrt_mem_read(vrt_mem *m, size_t off, size_t n, void *dst)
{
	cl_int err;
	/* The program's array is often fresh (malloc'd for the result). */
	if (!m->host || dst != m->host + off)
		vrt_advise_huge(dst, n);
	if (!m->host && !vrt_mem_dev_valid(m) && !m->replicas) { /* zeros, nowhere yet */
		vrt_fill(dst, "", 1, n);
		return CL_SUCCESS;
	}
	if (dev_only(m, n)) {
		err = vrt_ring_receive(m->ctx, m->dev_queue, m->dev, off, dst, n);
		vrt_kstats *st = vrt_stats_for(NULL);
		if (st && err == CL_SUCCESS)
			st->d2h += n;
		return err;
	}
	if ((err = vrt_mem_to_host(m)) != CL_SUCCESS)
		return err;
	/* A USE_HOST_PTR buffer read into its own host_ptr + off (OpenCL 1.2
	 * §5.2.2 defines it): already there. */
	if (dst != m->host + off)
		vrt_copy(dst, m->host + off, n);
	return CL_SUCCESS;
}

/* [off, off+n) of the host copy to the device copy on q: straight from
 * pinned memory, through the ring from plain. */
static cl_int send_host_copy(vrt_mem *m, cl_command_queue q, size_t off, size_t n)
{
	if (m->pin.buf)
		return vrt_real.clEnqueueWriteBuffer(q, m->dev, CL_TRUE, off, n, m->host + off, 0,
		                                     NULL, NULL);
	return vrt_ring_send(m->ctx, q, m->dev, off, m->host + off, n);
}

/* Drops m's device copy without reading it back: what it held is
 * being replaced whole. */
static void drop_device_copy(vrt_mem *m)
{
	vrt_real.clReleaseMemObject(m->dev);
	vrt_real.clReleaseCommandQueue(m->dev_queue);
	m->dev = NULL;
	m->dev_queue = NULL;
	dev_gone(m);
}

static cl_int place_device_copy(vrt_mem *m, cl_command_queue q, size_t budget,
                                vrt_mem *const *keep, unsigned nkeep);

static cl_int zero_device_copy(vrt_mem *m, cl_command_queue q);

/* Whether a command about to write [off, off+n) of m on q writes the
 * device copy, as the driver would: when m has no host copy, is outside
 * a family, and its device copy fits the budget beside the resident ones
 * without evicting any (a buffer that does not fit will be paged from a
 * host copy, as is every buffer under VAST_MODE=paged). Then the copy is
 * placed, its zeros made around [off, off+n) if it held no bytes yet. */
static int device_target(vrt_mem *m, cl_command_queue q, size_t off, size_t n)
{
	if (m->host || in_family(m) || m->replicas || !q || (m->dev && m->dev_queue != q) ||
	    vrt_cfg.mode == VRT_RUN_PAGED)
		return 0;
	cl_device_id dev;
	if (clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) !=
	    CL_SUCCESS)
		return 0;
	unsigned long long budget = vrt_budget(dev, m->size);
	if ((!m->dev && vrt_mem_used(dev, 1) + m->size > budget) ||
	    place_device_copy(m, q, budget, NULL, 0) != CL_SUCCESS)
		return 0;
	if (vrt_mem_dev_valid(m) || (off == 0 && n == m->size))
		return 1;
	if (zero_device_copy(m, q) != CL_SUCCESS)
		return 0;
	dev_holds(m); /* the zeros nobody holds */
	return 1;
}

/* A whole write to a buffer with no host copy, sent from the program's
 * memory to its device copy (device_target). 0: not sent, m unchanged. */
static int write_to_device(vrt_mem *m, cl_command_queue q, const void *src)
{
	if (!device_target(m, q, 0, m->size))
		return 0;
	if (vrt_ring_send(m->ctx, q, m->dev, 0, src, m->size) != CL_SUCCESS) {
		/* A device that allocates lazily may fail here: the host
		 * copy takes the bytes instead. */
		drop_device_copy(m);
		return 0;
	}
	vrt_kstats *st = vrt_stats_for(NULL);
	if (st)
		st->h2d += m->size;
	m->failed[0] = '\0';
	dev_wrote(m);
	return 1;
}

/* The device copy, which held all of m, took [off, off + n) from the
 * program: every other copy of those bytes is stale (replicas, and runs
 * the host copy holds beside it once they came back to the device copy
 * from there). Should the directory have no room to say so, the device
 * copy alone holds m, and the replicas go. */
static void dev_wrote_part(vrt_mem *m, size_t off, size_t n)
{
	if (vrt_dir_wrote(m->dir, m->dev_loc, m->origin + off, n) != 0) {
		dev_wrote(m);
		replicas_free(m);
	}
}

cl_int vrt_mem_write(vrt_mem *m, cl_command_queue q, size_t off, size_t n, const void *src,
                     const vrt_cmd *launch)
{
	cl_int err;
	vrt_kstats *st = vrt_stats_for(NULL);
	/* Pages kept dirty that the write leaves come home before the new
	 * version makes them stale (a whole write replaces every one). */
	if (n < m->size && (err = from_frames(m)) != CL_SUCCESS)
		return err;
	vrt_mem_changed(m);
	if (n == m->size && write_to_device(m, q, src))
		return CL_SUCCESS;
	if (!m->host && !vrt_mem_dev_valid(m) && (err = vrt_mem_host_copy(m)) != CL_SUCCESS)
		return err;
	if (dev_only(m, n)) {
		err = vrt_ring_send(m->ctx, m->dev_queue, m->dev, off, src, n);
		if (err != CL_SUCCESS)
			return err; /* the program is told; the copies' claims stand */
		if (st)
			st->h2d += n;
		dev_wrote_part(m, off, n);
		return CL_SUCCESS;
	}
	/* The whole buffer: no need to fetch what we overwrite (in a family
	 * of sub-buffers, the others' dirty data must come home first; a
	 * lent buffer is mapped back, its bytes not brought back). A part
	 * written from where it lies in the host copy (a USE_HOST_PTR
	 * buffer's own memory, OpenCL 1.2 §5.2.2: it holds "the latest
	 * bits") is not fetched either. */
	err = CL_SUCCESS;
	if (n < m->size && m->host && src == m->host + off && !in_family(m) && !lent(m))
		err = to_host_around(m, off, n);
	else if (n < m->size || in_family(m))
		err = vrt_mem_to_host(m);
	if (err != CL_SUCCESS)
		return err;
	if ((err = m->host ? host_mapped(m, 1) : vrt_mem_host_copy(m)) != CL_SUCCESS)
		return err;
	if (!vrt_mem_host_valid(m) && lent(m)) {
		/* Mapped back to be written whole: its old bytes are gone. */
		if ((err = vrt_pin_reclaim(&m->pin, m->dev_queue, 1)) != CL_SUCCESS)
			return err;
		host_wrote(m);
		vrt_dir_drop(m->dir, m->dev_loc, m->origin, m->size);
	}
	/* A whole write of our own host copy the next launch pages may be
	 * copied by it, range by range (pending.c). */
	int whole_own = launch && n == m->size && m->own_host && !in_family(m);
	if (src != m->host + off && !(whole_own && vrt_pend_start(m, src, launch)))
		vrt_copy(m->host + off, src, n); /* else written from its own host_ptr */
	/* A current device copy outside a family takes the same bytes from
	 * the (pinned) host copy, rather than all of them at the next
	 * launch; should that fail, the host copy alone is current. */
	int resident = m->dev && vrt_mem_dev_valid(m) && !in_family(m) && n < m->size;
	vrt_mem_host_wrote(m, off, n);
	if (resident && send_host_copy(m, m->dev_queue, off, n) == CL_SUCCESS) {
		dev_holds(m);
		if (st)
			st->h2d += n;
	}
	return CL_SUCCESS;
}

void vrt_mem_host_written(vrt_mem *m)
{
	vrt_mem_changed(m);
	m->failed[0] = '\0';
	m->zero = 0;
	host_wrote(m);
}

void vrt_mem_host_wrote(vrt_mem *m, size_t off, size_t n)
{
	/* Only those bytes: the others' copies elsewhere (a frame pool's
	 * pages) stay current. Out of memory, the whole window. */
	if (!m->dir || n == m->size ||
	    vrt_dir_wrote(m->dir, VRT_DIR_HOST, m->origin + off, n) != 0) {
		vrt_mem_host_written(m);
		return;
	}
	vrt_mem_changed(m);
	m->failed[0] = '\0';
	m->zero = 0;
}

/* A launch that fails part-way has already written some ranges back,
 * and restoring them would mean a copy of every written page made before
 * the launch: instead the buffer is refused until it is rewritten, so the
 * program never reads the mix without being told. */
void vrt_mem_fail(vrt_mem *m, const char *kernel)
{
	vrt_mem *root = family_root(m);
	vrt_mem_changed(m);
	for (vrt_mem *o = all_mems; o; o = o->next)
		if (o == m || (in_family(m) && family_root(o) == root && vrt_mem_overlap(o, m))) {
			snprintf(o->failed, sizeof o->failed, "%s", kernel);
			o->zero = 0;
		}
}

cl_int vrt_mem_check(const vrt_mem *m)
{
	if (!m->failed[0])
		return CL_SUCCESS;
	vrt_log(VRT_LOG_WARN, "buffer %p holds part of the results of a failed launch of kernel '%s'; write it whole before using it again",
	        (const void *)m, m->failed);
	return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
}

cl_int vrt_mem_evict(vrt_mem *m)
{
	if (!m->dev)
		return CL_SUCCESS;
	cl_int err = vrt_mem_to_host(m);
	if (err != CL_SUCCESS)
		return err;
	vrt_log(VRT_LOG_DEBUG, "evict buffer %p (%zu bytes)", (void *)m, m->size);
	int was_lent = lent(m);
	vrt_real.clReleaseMemObject(m->dev);
	vrt_real.clReleaseCommandQueue(m->dev_queue);
	m->dev = NULL;
	m->dev_queue = NULL;
	dev_gone(m);
	if (was_lent) {
		/* The driver may keep device memory for its buffer as long as it
		 * lives, and the budget must see it go: a fresh one pins again
		 * (or, failing that, none does). */
		vrt_pinned_free(&m->pin, m->host);
		vrt_pinned_wrap(m->ctx, m->host, m->size, &m->pin);
	}
	return CL_SUCCESS;
}

static int kept(const vrt_mem *m, vrt_mem *const *keep, unsigned nkeep)
{
	for (unsigned i = 0; i < nkeep; i++)
		if (keep[i] == m)
			return 1;
	return 0;
}

cl_int vrt_mem_evict_except(cl_context ctx, vrt_mem *const *keep, unsigned nkeep)
{
	for (vrt_mem *m = all_mems; m; m = m->next) {
		if ((!ctx || m->ctx == ctx) && m->host)
			m->zero = 0;
		/* Its replicas too, on every device: the caller works from the
		 * host copy, all of it current (a paged launch reads and writes
		 * it behind the directory's back), and the room is its
		 * device's. */
		if ((!ctx || m->ctx == ctx) && m->replicas && !kept(m, keep, nkeep)) {
			cl_int err = vrt_mem_to_host(m);
			while (err == CL_SUCCESS && m->replicas)
				err = vrt_mem_replica_evict(m, m->replicas);
			if (err != CL_SUCCESS)
				return err;
		}
		if (m->dev && (!ctx || m->ctx == ctx) && !kept(m, keep, nkeep)) {
			cl_int err = vrt_mem_evict(m);
			if (err != CL_SUCCESS)
				return err;
		}
	}
	return CL_SUCCESS;
}

cl_int vrt_mem_evict_all(cl_context ctx)
{
	return vrt_mem_evict_except(ctx, NULL, 0);
}

size_t vrt_mem_replica_bytes(cl_context ctx, cl_device_id dev, vrt_mem *const *skip,
                             unsigned nskip)
{
	size_t n = 0;
	for (vrt_mem *m = all_mems; m; m = m->next)
		if (!kept(m, skip, nskip))
			n += vrt_replicas_bytes(m, ctx, dev);
	return n;
}

cl_int vrt_mem_settle(vrt_mem *m)
{
	vrt_pend_settle(m);
	return from_frames(m);
}

/* [off, off+n) of buf on q filled with the ps-byte pattern in fills of
 * at most 1 GiB (NVIDIA's driver never finishes a one-byte fill of 4 GiB:
 * seen on the H100; 2 GiB take 2 ms), waited for. */
static cl_int fill_buffer(cl_command_queue q, cl_mem buf, const void *pat, size_t ps,
                          size_t off, size_t n)
{
	cl_int err = CL_SUCCESS;
	for (size_t done = 0; done < n && err == CL_SUCCESS; done += (size_t)1 << 30) {
		size_t len = n - done < ((size_t)1 << 30) ? n - done : (size_t)1 << 30;
		err = vrt_real.clEnqueueFillBuffer(q, buf, pat, ps, off + done, len, 0, NULL, NULL);
	}
	return err == CL_SUCCESS ? vrt_real.clFinish(q) : err;
}

/* [off, off+n) of buf zeroed, with the widest pattern the range allows
 * (a fill's offset and size are multiples of its pattern's). */
static cl_int zero_buffer(cl_command_queue q, cl_mem buf, size_t off, size_t n)
{
	static const unsigned char z[128];
	size_t ps = sizeof z;
	while (off % ps || n % ps)
		ps /= 2;
	return fill_buffer(q, buf, z, ps, off, n);
}

static cl_int fill_device_copy(vrt_mem *m, cl_command_queue q, const void *pat, size_t ps,
                               size_t off, size_t n)
{
	return fill_buffer(q, m->dev, pat, ps, off, n);
}

/* Zeros all of m's device copy. */
static cl_int zero_device_copy(vrt_mem *m, cl_command_queue q)
{
	return zero_buffer(q, m->dev, 0, m->size);
}

/* A device command that changed [part of] m's device copy failed: its
 * bytes are a mix, refused until rewritten (vrt_mem_fail). */
static cl_int device_command_failed(vrt_mem *m, const char *what, cl_int err)
{
	vrt_mem_fail(m, what);
	dev_wrote(m);
	return err;
}

cl_int vrt_mem_fill(vrt_mem *m, cl_command_queue q, size_t off, size_t n, const void *pat,
                    size_t ps)
{
	cl_int err;
	if (device_target(m, q, off, n)) {
		vrt_mem_changed(m);
		if ((err = fill_device_copy(m, q, pat, ps, off, n)) != CL_SUCCESS)
			return device_command_failed(m, "clEnqueueFillBuffer", err);
		vrt_log(VRT_LOG_DEBUG, "fill of %zu bytes made on the device copy", n);
		dev_wrote(m);
		return CL_SUCCESS;
	}
	if ((err = vrt_mem_to_host(m)) != CL_SUCCESS)
		return err;
	vrt_fill(m->host + off, pat, ps, n);
	vrt_mem_host_wrote(m, off, n);
	return CL_SUCCESS;
}

cl_int vrt_mem_copy(vrt_mem *a, vrt_mem *b, cl_command_queue q, size_t ao, size_t bo,
                    size_t n)
{
	cl_int err;
	if (a->dev && vrt_mem_dev_valid(a) && a->dev_queue == q && !in_family(a) &&
	    device_target(b, q, bo, n)) {
		vrt_mem_changed(b);
		err = vrt_real.clEnqueueCopyBuffer(q, a->dev, b->dev, ao, bo, n, 0, NULL, NULL);
		if (err == CL_SUCCESS)
			err = vrt_real.clFinish(q);
		if (err != CL_SUCCESS)
			return device_command_failed(b, "clEnqueueCopyBuffer", err);
		vrt_log(VRT_LOG_DEBUG, "copy of %zu bytes made between device copies", n);
		dev_wrote(b);
		return CL_SUCCESS;
	}
	if ((err = vrt_mem_to_host(a)) != CL_SUCCESS || (err = vrt_mem_to_host(b)) != CL_SUCCESS)
		return err;
	vrt_copy(b->host + bo, a->host + ao, n);
	vrt_mem_host_wrote(b, bo, n);
	return CL_SUCCESS;
}

/* The device copy to evict for m's where a family's locations run short
 * (evict.c's order, as room.c evicts for the budget): among the others with one, outside keep (and of
 * the family of `family` when not NULL), the one the launches queued next
 * need last, least recently used among equals (evict.c); NULL if none. */
static vrt_mem *eviction_victim(const vrt_mem *m, vrt_mem *const *keep, unsigned nkeep,
                                const vrt_mem *family)
{
	vrt_mem *victim = NULL;
	unsigned long next[2] = {0, 0};
	for (vrt_mem *o = all_mems; o; o = o->next) {
		if (!o->dev || o == m || kept(o, keep, nkeep) ||
		    (family && family_root(o) != family))
			continue;
		next[1] = vrt_queue_next_use(o);
		unsigned long long lru[2] = {victim ? victim->lru : 0, o->lru};
		if (!victim || vrt_evict_pick(2, next, lru) == 1) {
			victim = o;
			next[0] = next[1];
		}
	}
	if (victim)
		vrt_log(VRT_LOG_DEBUG, "buffer %p: its next use %lu launches on (0: unknown, %lu: none queued)",
		        (void *)victim, next[0], VRT_NEVER);
	return victim;
}

/* m's device copy on q, allocated (not filled) within budget if it has
 * none there (room made: room.c). */
static cl_int place_device_copy(vrt_mem *m, cl_command_queue q, size_t budget,
                                vrt_mem *const *keep, unsigned nkeep)
{
	cl_int err;
	m->lru = vrt_evict_tick();
	/* Lent only outside a family: members' device copies are kept
	 * coherent through the host bytes, which a lent buffer does not own. */
	int lend = m->pin.buf && !m->own_host && !in_family(m);
	if (m->dev && (m->dev_queue != q || lent(m) != lend)) {
		/* Another queue (maybe another device), or the buffer joined a
		 * family since it was lent: start over. */
		if ((err = vrt_mem_evict(m)) != CL_SUCCESS)
			return err;
		lend = m->pin.buf && !m->own_host && !in_family(m); /* re-pinned? */
	}
	if (!m->dev) {
		/* The device copies, the replicas split launches left on q's
		 * device (in whichever context) and the frames kept for paged
		 * launches (framepool.c) take the budget; the room is the
		 * caller's to make (room.c, vrt_room_to_device). */
		cl_device_id dev = NULL;
		clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
		if (vrt_mem_used(dev, 1) + m->size > budget)
			return CL_MEM_OBJECT_ALLOCATION_FAILURE;
		if (lend) {
			m->dev = m->pin.buf;
			vrt_real.clRetainMemObject(m->dev);
		} else {
			cl_mem_flags f = m->flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY |
			                             CL_MEM_WRITE_ONLY);
			m->dev = vrt_real.clCreateBuffer(m->ctx, f ? f : CL_MEM_READ_WRITE,
			                                 m->size, NULL, &err);
			if (!m->dev)
				return err;
		}
		vrt_real.clRetainCommandQueue(q);
		m->dev_queue = q;
		/* A family's directory has VRT_DIR_MAX_LOCS locations: with
		 * every one taken by members' device copies, another member's
		 * copy goes home first, chosen as under the budget. */
		while ((m->dev_loc = dev_location(m, q)) < 0) {
			vrt_mem *victim = eviction_victim(m, keep, nkeep, family_root(m));
			if (!victim) {
				drop_device_copy(m);
				return CL_MEM_OBJECT_ALLOCATION_FAILURE;
			}
			if ((err = vrt_mem_evict(victim)) != CL_SUCCESS) {
				drop_device_copy(m);
				return err;
			}
		}
	}
	return CL_SUCCESS;
}

cl_int vrt_mem_to_device(vrt_mem *m, cl_command_queue q, size_t budget,
                         vrt_mem *const *keep, unsigned nkeep)
{
	cl_int err;
	/* A whole write left pending for a paged launch (pending.c) that
	 * keeps m whole on the device: its bytes first. */
	vrt_pend_settle(m);
	if ((err = from_frames(m)) != CL_SUCCESS || (err = family_flush(m)) != CL_SUCCESS ||
	    (err = place_device_copy(m, q, budget, keep, nkeep)) != CL_SUCCESS)
		return err;
	if (!vrt_mem_dev_valid(m) && !lent(m) && !m->zero && !in_family(m) &&
	    (m->replicas || !vrt_mem_host_valid(m))) {
		/* A split launch may have left the newest bytes on its
		 * devices, or, its replicas written home since, some only in
		 * this device copy (the host copy lacks them): each run from
		 * the nearest copy (the mover counts what crosses the link). */
		int e = vrt_dir_bring(m->dir, m->dev_loc, m->origin, m->size, vrt_mem_mover, m);
		if (e != 0)
			return e == -1 ? CL_OUT_OF_HOST_MEMORY : e;
	}
	if (!vrt_mem_dev_valid(m)) {
		if (lent(m)) {
			/* The driver owns the bytes now, to move as it likes. */
			if ((err = vrt_pin_lend(&m->pin, q)) != CL_SUCCESS)
				return err;
			dev_holds(m);
			host_lends(m);
		} else if (m->zero && !in_family(m)) {
			/* Zeros made on the device: nothing crosses the link (a
			 * driver's new buffer is undefined, OpenCL 1.2 §5.2.1; ours
			 * reads as zeros everywhere). */
			if ((err = zero_device_copy(m, q)) != CL_SUCCESS)
				return err;
		} else {
			if ((err = vrt_mem_host_copy(m)) != CL_SUCCESS ||
			    (err = send_host_copy(m, q, 0, m->size)) != CL_SUCCESS)
				return err;
		}
		vrt_kstats *st = vrt_stats_for(NULL);
		if (st && !m->zero)
			st->h2d += m->size;
		dev_holds(m);
	}
	return CL_SUCCESS;
}

static void mem_free(vrt_mem *m)
{
	/* A sub-buffer's device data belongs to its parent's bytes. */
	if (m->parent && !vrt_mem_host_valid(m) && read_back(m) != CL_SUCCESS) {
		/* Its bytes are lost with its device copy: the parent (and
		 * every member over them) is refused until rewritten, never
		 * read as the zeros the directory would then say. */
		vrt_log(VRT_LOG_WARN, "a released sub-buffer's data could not be written back to its parent");
		vrt_mem_fail(m, "(a released sub-buffer's write-back)");
	}
	for (vrt_mem **pp = &all_mems; *pp; pp = &(*pp)->next) {
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	}
	/* OpenCL 1.2 §5.4.1: destructors run in reverse order of
	 * registration (the order of the list), once the runtime is done
	 * with the memory: queued here, run when the lock is released. */
	if (m->dtors) {
		vrt_later *last = m->dtors;
		while (last->next)
			last = last->next;
		vrt_run_after_unlock(m->dtors, last);
		m->dtors = NULL;
	}
	if (m->dev) {
		vrt_real.clReleaseMemObject(m->dev);
		vrt_real.clReleaseCommandQueue(m->dev_queue);
		dev_gone(m);
	}
	replicas_free(m);
	if (!m->parent && m->dir) { /* its sub-buffers, which hold it, are gone */
		vrt_dir_fini(m->dir);
		vrt_free(m->dir);
	}
	if (m->pin.buf) /* ours, or the program's memory pinned */
		vrt_pinned_free(&m->pin, m->host);
	else if (m->own_host)
		vrt_free(m->host);
	clReleaseContext(m->ctx);
	vrt_mem *parent = m->parent;
	vrt_object_retire(m);
	if (parent) {
		parent->nsubs--;
		vrt_mem_unhold(parent);
	}
}

static int at_most_one(cl_mem_flags f)
{
	return (f & (f - 1)) == 0;
}

/* Bytes of physical memory of the host. */
static unsigned long long host_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	return pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page
	                             : ~0ull;
}

/* Whether a new buffer of `size` bytes gets its host copy now, pinned
 * (paged launches move it at the link's speed with no staging copy):
 * under VAST_MODE=paged, or when ctx's buffers with it pass a quarter of
 * the budget of its first device, so that its launches may well be paged
 * (the first of the 96 GiB triad's three buffers is pinned so, and its
 * paged launch's output comes back at 50 GB/s, not 8). Pinning costs
 * about 0.25 s a GiB (H100), which a program expects of clCreateBuffer,
 * not of its transfers; where the data is small beside the device, a
 * program built with cc pins nothing, and neither does ours. *use says
 * how much may be pinned: more once ctx's buffers pass the device
 * (vrt_pin_limit). */
static int pin_at_creation(cl_context ctx, size_t size, vrt_pin_use *use)
{
	cl_device_id devs[16];
	size_t nb = 0;
	*use = VRT_PIN_HOST_COPY;
	if (!vrt_cfg.pinned ||
	    clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof devs, devs, &nb) != CL_SUCCESS ||
	    nb < sizeof devs[0])
		return 0;
	unsigned long long total = size;
	vrt_lock();
	for (vrt_mem *m = all_mems; m; m = m->next)
		if (m->ctx == ctx && !m->parent)
			total += m->size;
	int pin = vrt_cfg.mode == VRT_RUN_PAGED || total > vrt_budget(devs[0], total) / 4;
	if (vrt_past_device(devs[0], total))
		*use = VRT_PIN_PAST_DEVICE;
	vrt_unlock();
	return pin;
}

cl_mem vrt_api_clCreateBuffer(cl_context ctx, cl_mem_flags flags,
	size_t size, void *host_ptr, cl_int *errcode_ret)
{
	if (vrt_init() != CL_SUCCESS) {
		SET_ERR(CL_OUT_OF_RESOURCES);
		return NULL;
	}
	if (vrt_native_mode())
		return vrt_real.clCreateBuffer(ctx, flags, size, host_ptr, errcode_ret);
	cl_uint rc;
	if (!ctx || clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof rc, &rc,
	                             NULL) != CL_SUCCESS) {
		SET_ERR(CL_INVALID_CONTEXT);
		return NULL;
	}
	/* OpenCL 1.2 §5.2.1: at most one device access and one host access
	 * flag; USE_HOST_PTR excludes ALLOC_ and COPY_HOST_PTR. */
	if (!at_most_one(flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY)) ||
	    !at_most_one(flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
	                          CL_MEM_HOST_NO_ACCESS)) ||
	    ((flags & CL_MEM_USE_HOST_PTR) &&
	     (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR)))) {
		SET_ERR(CL_INVALID_VALUE);
		return NULL;
	}
	/* A host pointer exactly when USE_ or COPY_HOST_PTR asks for one. */
	int want_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
	if (want_ptr != (host_ptr != NULL)) {
		SET_ERR(CL_INVALID_HOST_PTR);
		return NULL;
	}
	/* The buffer's home is host memory, so host memory bounds it, as
	 * CL_DEVICE_MAX_MEM_ALLOC_SIZE bounds a driver's. */
	if (size == 0 || size > host_memory()) {
		SET_ERR(CL_INVALID_BUFFER_SIZE);
		return NULL;
	}
	vrt_mem *m = vrt_object_new(VRT_OBJ_MEM, sizeof *m);
	if (!m) {
		SET_ERR(CL_OUT_OF_HOST_MEMORY);
		return NULL;
	}
	m->refs = 1;
	m->serial = m->version = ++version_clock;
	m->ctx = ctx;
	m->flags = flags;
	m->size = size;
	m->dev_loc = -1;
	m->dir = vrt_malloc(sizeof *m->dir);
	if (!m->dir || vrt_dir_init(m->dir, size) != 0 || vrt_dir_reserve(m->dir, 3) != 0) {
		if (m->dir)
			vrt_dir_fini(m->dir);
		vrt_free(m->dir);
		vrt_object_retire(m);
		SET_ERR(CL_OUT_OF_HOST_MEMORY);
		return NULL;
	}
	if (flags & CL_MEM_USE_HOST_PTR) {
		m->host = host_ptr;
		m->user_ptr = host_ptr;
		vrt_pinned_wrap(ctx, host_ptr, size, &m->pin);
		host_wrote(m);
	} else if (flags & CL_MEM_COPY_HOST_PTR) {
		/* The program may free host_ptr on return: copied now. */
		m->own_host = 1;
		vrt_pin_use use;
		pin_at_creation(ctx, size, &use); /* pinned whenever there is room */
		m->host = vrt_pinned_alloc(ctx, size, use, &m->pin);
		if (!m->host)
			m->host = vrt_malloc(size);
		if (!m->host) {
			vrt_dir_fini(m->dir);
			vrt_free(m->dir);
			vrt_object_retire(m);
			SET_ERR(CL_OUT_OF_HOST_MEMORY);
			return NULL;
		}
		vrt_copy(m->host, host_ptr, size);
		host_wrote(m);
	} else {
		/* Zeros (a kernel reading a buffer nobody wrote sees the same
		 * bytes on every run and in every range), in a pinned host copy
		 * made now where paging is foreseen, else nowhere yet. */
		m->own_host = 1;
		m->zero = 1;
		vrt_pin_use use;
		if (pin_at_creation(ctx, size, &use) &&
		    (m->host = vrt_pinned_alloc(ctx, size, use, &m->pin)))
			host_holds(m); /* its zeros */
	}
	clRetainContext(ctx);
	vrt_lock();
	m->next = all_mems;
	all_mems = m;
	vrt_unlock();
	SET_ERR(CL_SUCCESS);
	return (cl_mem)(void *)m;
}

cl_mem vrt_api_clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
	cl_buffer_create_type type, const void *info, cl_int *errcode_ret)
{
	if (vrt_init() != CL_SUCCESS) {
		SET_ERR(CL_OUT_OF_RESOURCES);
		return NULL;
	}
	vrt_mem *pm = vrt_mem_of(buffer);
	if (!pm && vrt_object_ours(buffer)) {
		SET_ERR(CL_INVALID_MEM_OBJECT);
		return NULL;
	}
	if (vrt_native_mode() || !pm)
		return vrt_real.clCreateSubBuffer(buffer, flags, type, info, errcode_ret);
	/* OpenCL 1.2 §5.2.1: a region of a buffer that is not itself a
	 * sub-buffer; access and host-pointer flags inherit from the parent
	 * and may not widen it. */
	const cl_buffer_region *r = info;
	if (pm->parent) {
		SET_ERR(CL_INVALID_MEM_OBJECT);
		return NULL;
	}
	if (type != CL_BUFFER_CREATE_TYPE_REGION || !r ||
	    (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)) ||
	    ((pm->flags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
	    ((pm->flags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))) {
		SET_ERR(CL_INVALID_VALUE);
		return NULL;
	}
	if (r->size == 0) {
		SET_ERR(CL_INVALID_BUFFER_SIZE);
		return NULL;
	}
	if (r->origin > pm->size || r->size > pm->size - r->origin) {
		SET_ERR(CL_INVALID_VALUE);
		return NULL;
	}
	/* The origin must be aligned for at least one device of the context
	 * (CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bits). */
	cl_device_id devs[16];
	size_t nb = 0;
	int aligned = 0;
	if (clGetContextInfo(pm->ctx, CL_CONTEXT_DEVICES, sizeof devs, devs, &nb) == CL_SUCCESS) {
		for (size_t i = 0; i < nb / sizeof devs[0] && i < 16; i++) {
			cl_uint bits = 0;
			vrt_real.clGetDeviceInfo(devs[i], CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
			if (bits < 8 || r->origin % (bits / 8) == 0)
				aligned = 1;
		}
	}
	if (!aligned) {
		SET_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET);
		return NULL;
	}
	vrt_mem *m = vrt_object_new(VRT_OBJ_MEM, sizeof *m);
	if (!m) {
		SET_ERR(CL_OUT_OF_HOST_MEMORY);
		return NULL;
	}
	cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
	cl_mem_flags hostacc = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
	m->refs = 1;
	m->serial = m->version = ++version_clock;
	m->ctx = pm->ctx;
	m->flags = (flags & access ? flags & access : pm->flags & access) |
	           (flags & hostacc ? flags & hostacc : pm->flags & hostacc) |
	           (pm->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR));
	m->size = r->size;
	m->origin = r->origin;
	m->parent = pm;
	m->dir = pm->dir;
	m->dev_loc = -1;
	/* A failed launch's partial results in the parent are in it too. */
	memcpy(m->failed, pm->failed, sizeof m->failed);
	clRetainContext(m->ctx);
	vrt_lock();
	/* The host bytes are the parent's: make them current. */
	cl_int err = vrt_mem_to_host(pm);
	/* Room for the runs the members' windows may cut: runs are cut only
	 * at window ends, so the runs there are, plus two for each member
	 * and one, bound them until the next member is made. */
	if (err == CL_SUCCESS &&
	    vrt_dir_reserve(pm->dir, pm->dir->nrun + 2 * (pm->nsubs + 2) + 1) != 0)
		err = CL_OUT_OF_HOST_MEMORY;
	if (err != CL_SUCCESS) {
		vrt_unlock();
		clReleaseContext(m->ctx);
		vrt_object_retire(m);
		SET_ERR(err);
		return NULL;
	}
	m->host = pm->host + r->origin;
	m->user_ptr = (pm->flags & CL_MEM_USE_HOST_PTR) ? pm->host + r->origin : NULL;
	vrt_mem_hold(pm);
	pm->nsubs++;
	pm->zero = 0; /* the sub-buffer's writes are its bytes too */
	m->next = all_mems;
	all_mems = m;
	vrt_unlock();
	SET_ERR(CL_SUCCESS);
	return (cl_mem)(void *)m;
}

cl_int vrt_api_clRetainMemObject(cl_mem mem)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clRetainMemObject(mem);
	vrt_lock();
	m->refs++;
	vrt_unlock();
	return CL_SUCCESS;
}

cl_int vrt_api_clReleaseMemObject(cl_mem mem)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clReleaseMemObject(mem);
	vrt_lock();
	if (m->refs == 0) {
		/* Released more often than retained, but still held by a
		 * kernel: the program's own handle is gone. */
		vrt_unlock();
		return CL_INVALID_MEM_OBJECT;
	}
	if (--m->refs == 0 && m->holds == 0)
		mem_free(m);
	vrt_unlock();
	return CL_SUCCESS;
}

void vrt_mem_hold(vrt_mem *m)
{
	m->holds++;
}

void vrt_mem_unhold(vrt_mem *m)
{
	if (--m->holds == 0 && m->refs == 0)
		mem_free(m);
}

cl_int vrt_api_clSetMemObjectDestructorCallback(cl_mem mem,
	void (CL_CALLBACK *fn)(cl_mem, void *), void *user)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clSetMemObjectDestructorCallback(mem, fn, user);
	if (!fn)
		return CL_INVALID_VALUE;
	destructor *d = vrt_malloc(sizeof *d);
	if (!d)
		return CL_OUT_OF_HOST_MEMORY;
	d->later.run = run_destructor;
	d->fn = fn;
	d->user = user;
	d->mem = mem;
	vrt_lock();
	d->later.next = m->dtors;
	m->dtors = &d->later;
	vrt_unlock();
	return CL_SUCCESS;
}

cl_int vrt_api_clGetMemObjectInfo(cl_mem mem, cl_mem_info param,
	size_t size, void *value, size_t *ret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_mem *m = vrt_mem_of(mem);
	if (!m)
		return vrt_object_ours(mem) ? CL_INVALID_MEM_OBJECT
		       : vrt_real.clGetMemObjectInfo(mem, param, size, value, ret);
	cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
	size_t zero = 0;
	void *null = NULL;
	cl_bool no = CL_FALSE;
	cl_uint mapcount = 0;
	switch (param) {
	case CL_MEM_TYPE: return vrt_info_out(&type, sizeof type, size, value, ret);
	case CL_MEM_FLAGS: return vrt_info_out(&m->flags, sizeof m->flags, size, value, ret);
	case CL_MEM_SIZE: return vrt_info_out(&m->size, sizeof m->size, size, value, ret);
	case CL_MEM_HOST_PTR: return vrt_info_out(&m->user_ptr, sizeof m->user_ptr, size, value, ret);
	case CL_MEM_MAP_COUNT: return vrt_info_out(&mapcount, sizeof mapcount, size, value, ret);
	case CL_MEM_REFERENCE_COUNT: return vrt_info_out(&m->refs, sizeof m->refs, size, value, ret);
	case CL_MEM_CONTEXT: return vrt_info_out(&m->ctx, sizeof m->ctx, size, value, ret);
	case CL_MEM_ASSOCIATED_MEMOBJECT:
		return m->parent ? vrt_info_out(&m->parent, sizeof m->parent, size, value, ret)
		                 : vrt_info_out(&null, sizeof null, size, value, ret);
	case CL_MEM_OFFSET:
		return m->parent ? vrt_info_out(&m->origin, sizeof m->origin, size, value, ret)
		                 : vrt_info_out(&zero, sizeof zero, size, value, ret);
#ifdef CL_MEM_USES_SVM_POINTER
	case CL_MEM_USES_SVM_POINTER: return vrt_info_out(&no, sizeof no, size, value, ret);
#endif
	default:
		(void)no;
		return CL_INVALID_VALUE;
	}
}
