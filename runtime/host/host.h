/* SPDX-License-Identifier: MIT */
/*
 * host.h - host/: host memory and the link. Large host copies on
 * several threads (parallel.c), host copies in pinned memory (pinned.c),
 * the pinned ring and staging areas that carry pages of plain memory
 * and the relay between contexts (ring.c), and the device budget
 * (device.c), which the pinned bytes shrink. Uses base/ only.
 */
#ifndef VRT_HOST_H
#define VRT_HOST_H

#include "base/base.h"

#pragma GCC visibility push(hidden)

/* --- device.c: the device budget ---------------------------------------- */
/* The device budget of a launch whose buffers take `footprint` bytes. */
unsigned long long vrt_budget(cl_device_id dev, unsigned long long footprint);
/* The default budget on a device of `mem` bytes with `pinned` bytes of
 * host memory pinned: all but a margin and the pinned bytes (at least a
 * sixteenth of it). */
unsigned long long vrt_budget_default(unsigned long long mem, unsigned long long pinned);
/* Whether a context's buffers of `bytes` in all pass the budget dev would
 * have with nothing pinned (they cannot all stay on it). */
int vrt_past_device(cl_device_id dev, unsigned long long bytes);
/* Caps every later budget on dev at `bytes` (it ran out of memory). */
void vrt_budget_shrink(cl_device_id dev, unsigned long long bytes);
/* The largest buffer dev allocates (CL_DEVICE_MAX_MEM_ALLOC_SIZE, or
 * VAST_MAX_ALLOC below it); 0 when unknown. */
unsigned long long vrt_max_alloc(cl_device_id dev);

/* --- parallel.c: large host copies on several threads ------------------- */
/* Runs fn over [0, n) split into contiguous shares on several threads when
 * `work` (bytes) is worth it, else on the calling thread. */
void vrt_parallel(size_t n, size_t work, void (*fn)(void *ctx, size_t begin, size_t end),
                  void *ctx);
/* Tests: run on `nthreads` threads (0: as many as the machine has, at
 * most 8) and make the fail_nth thread start from now fail (0: never). */
void vrt_parallel_test(unsigned nthreads, unsigned long fail_nth);
/* memcpy on several threads for large n; memmove when the areas overlap. */
void vrt_copy(void *dst, const void *src, size_t n);
/* Copies of several runs (none overlapping another) as one job: one wake
 * of the pool, each thread a share of all their bytes. */
typedef struct vrt_copy_run {
	void *dst;
	const void *src;
	size_t n;
} vrt_copy_run;
void vrt_copy_runs(const vrt_copy_run *runs, size_t nruns);
/* Copies gathered to run as one vrt_copy_runs: added one by one (one
 * that finds no memory copies at once), their bytes, run and freed. */
typedef struct vrt_copy_batch {
	vrt_copy_run *runs;
	size_t n, cap;
} vrt_copy_batch;
void vrt_batch_add(vrt_copy_batch *b, void *dst, const void *src, size_t n);
size_t vrt_batch_bytes(const vrt_copy_batch *b);
void vrt_batch_run(vrt_copy_batch *b);
/* Asks the kernel for huge pages over the whole 2 MiB pages inside
 * [p, p+n) of plain memory about to be written for the first time (the
 * program's array a read fills, a new host copy): their first-touch faults
 * cost half (parallel.c). A hint: nothing changes where it is refused. */
void vrt_advise_huge(void *p, size_t n);
/* n bytes (a multiple of ps) of the ps-byte pattern, on several threads
 * for large n. */
void vrt_fill(void *dst, const void *pat, size_t ps, size_t n);
/* The rectangle copy of OpenCL 1.2 §5.2.2 on host memory: r[0] bytes per
 * row, r[1] rows per slice, r[2] slices, at offsets (bytes, rows, slices)
 * dof/sof with row and slice pitches drp/dsp and srp/ssp (non-zero); rows
 * on several threads for large copies, on one when the areas overlap. */
void vrt_copy_rect(unsigned char *dst, const size_t *dof, size_t drp, size_t dsp,
                   const unsigned char *src, const size_t *sof, size_t srp, size_t ssp,
                   const size_t *r);
/* One past the last byte of such a rectangle, from its base. */
size_t vrt_rect_end(const size_t *o, const size_t *r, size_t rp, size_t sp);

/* --- pinned.c: host copies in pinned memory ----------------------------- */
/* Host copies smaller than this stay plain memory: pinning costs a driver
 * call and a mapping, and small copies gain nothing from it. */
#define VRT_PIN_MIN (1u << 20)
typedef struct vrt_pin {
	cl_mem buf;             /* ALLOC_ or USE_HOST_PTR buffer, mapped */
	cl_command_queue queue; /* where it was first mapped */
	void *ptr;
	size_t size;
	/* Unmapped: lent as a device copy, or a USE_HOST_PTR buffer not
	 * mapped since it was made (the program's bytes are current). */
	int lent;
	/* The runtime's own memory, pinned by a USE_HOST_PTR buffer over it
	 * that is never mapped nor used (vrt_pinned_alloc); freed with it. */
	void *owned;
} vrt_pin;
/* What pinned memory is for, which bounds how much of it there may be. */
typedef enum vrt_pin_use {
	VRT_PIN_HOST_COPY,   /* a buffer's host copy */
	VRT_PIN_PAST_DEVICE, /* one of a context whose buffers pass the device */
	VRT_PIN_STAGING,     /* the runtime's staging areas and ring */
} vrt_pin_use;
/* The bytes that may be pinned in all, for `use`, on a device of `mem`
 * bytes (the driver backs pinned memory with device memory). */
unsigned long long vrt_pin_limit(unsigned long long mem, vrt_pin_use use);
/* A pinned host copy of `size` bytes, zeroed, or NULL when the driver
 * cannot pin it, vrt_pin_limit leaves no room or VAST_PINNED=0; *pin
 * describes it. */
unsigned char *vrt_pinned_alloc(cl_context ctx, size_t size, vrt_pin_use use, vrt_pin *pin);
/* Pins the program's memory [ptr, ptr+size) of a CL_MEM_USE_HOST_PTR
 * buffer through a driver buffer over it (*pin), left unmapped (lent set:
 * map it with vrt_pin_reclaim before touching the bytes); 0 when the
 * driver cannot or VAST_PINNED=0 (then nothing is held). */
int vrt_pinned_wrap(cl_context ctx, void *ptr, size_t size, vrt_pin *pin);
/* Bytes pinned now: the device backs them too (pinned.c, device.c). */
unsigned long long vrt_pinned_bytes(void);
/* Unmaps (unless lent) and releases; ptr is the pointer vrt_pinned_alloc
 * returned (or the wrapped pointer). */
void vrt_pinned_free(vrt_pin *pin, unsigned char *ptr);
/* A wrapped buffer as a device copy: lend unmaps it on q unless it is
 * unmapped (OpenCL 1.2 §5.4.2: the device's bytes are then the host's),
 * reclaim maps it back on
 * q, blocking, so the host pointer holds the current bytes (`overwrite`:
 * the caller replaces them all, none need to come back). Both return
 * once done. */
cl_int vrt_pin_lend(vrt_pin *pin, cl_command_queue q);
cl_int vrt_pin_reclaim(vrt_pin *pin, cl_command_queue q, int overwrite);

/* --- ring.c: pinned chunks for pages of plain host copies --------------- */
/* Whether ring `id` (< VRT_MAX_DEVICES: share id's of a split launch, or
 * the one a context claimed) has its pinned chunks for ctx (made now,
 * kept across launches). */
int vrt_ring_usable(cl_context ctx, unsigned id);
/* Enqueues the first *sent bytes (up to a chunk) of [src, src+n) to
 * frames at dev_off on q through the ring's next chunk, non-blocking,
 * event *e; waits first for that chunk's previous transfer (q and every
 * queue that transfer waits on must be flushed). */
cl_int vrt_ring_write(cl_context ctx, unsigned id, cl_command_queue q, cl_mem frames,
                      size_t dev_off, const unsigned char *src, size_t n, size_t *sent,
                      cl_event *e);
/* [src, src+n) to buf at off on q, or buf's [off, off+n) to dst: from or
 * into plain memory at the link's speed through ring 0 (the driver's
 * transfer for a few MiB, or when the ring cannot be pinned). Blocking;
 * the caller holds the runtime lock. */
cl_int vrt_ring_send(cl_context ctx, cl_command_queue q, cl_mem buf, size_t off,
                     const unsigned char *src, size_t n);
cl_int vrt_ring_receive(cl_context ctx, cl_command_queue q, cl_mem buf, size_t off,
                        unsigned char *dst, size_t n);
/* The same through ring `id`: transfers on several threads at once,
 * each device's through a ring of its own. */
cl_int vrt_ring_send_on(unsigned id, cl_context ctx, cl_command_queue q, cl_mem buf,
                        size_t off, const unsigned char *src, size_t n);
cl_int vrt_ring_receive_on(unsigned id, cl_context ctx, cl_command_queue q, cl_mem buf,
                           size_t off, unsigned char *dst, size_t n);
/* A piece of a transfer: n bytes between host memory and buf at buf_off. */
typedef struct vrt_piece {
	cl_mem buf;
	size_t buf_off;
	unsigned char *host;
	size_t n;
} vrt_piece;
/* The n pieces to their buffers (to_dev) or from them, on q of ctx
 * through ring `id`, as many to a chunk as fit: many small pieces at
 * the link's speed. Blocking; the pieces' host memory is plain. id
 * VRT_MAX_DEVICES: no ring, each piece the driver's own transfer (what
 * batch.c does below VRT_PIECES_RING_MIN bytes: a ring is pinned once
 * per context, 128 MiB, for transfers worth it). */
#define VRT_PIECES_RING_MIN (1u << 20)
cl_int vrt_ring_pieces(unsigned id, cl_context ctx, cl_command_queue q, const vrt_piece *p,
                       size_t n, int to_dev);
/* The ring pinned for ctx, else one pinned for none yet, else 0 (which
 * is then pinned again for ctx): what a transfer of ctx on a thread of
 * its own uses. */
unsigned vrt_ring_claim(cl_context ctx);
/* --- batch.c: many transfers, the devices' all at once ------------------ */
/* One transfer: n bytes between host memory and buf at buf_off, on q in
 * ctx; pinned: the host memory is pinned (sent straight, not through a
 * ring). */
typedef struct vrt_xfer {
	cl_context ctx;
	cl_command_queue q;
	cl_mem buf;
	size_t buf_off;
	unsigned char *host;
	size_t n;
	int pinned;
} vrt_xfer;
/* Runs the n transfers, to the buffers (to_dev) or from them, those of
 * one queue in order on a thread of their own through a ring of their
 * own, every queue's at once; blocking; the first error. The caller
 * holds the runtime lock. */
cl_int vrt_xfer_batch(const vrt_xfer *x, size_t n, int to_dev);

/* Staging area number `set` (< VRT_MAX_SETS * VRT_MAX_DEVICES: one per
 * frame set in flight, per device of a split launch) of at least `size` bytes for ctx, pinned when possible, kept
 * across launches and never freed (it holds a reference to ctx); NULL
 * when out of memory. */
unsigned char *vrt_staging(cl_context ctx, unsigned set, size_t size);

/* dst's [dst_off, dst_off+n) on dst_q (of dst_ctx) made src's [src_off,
 * src_off+n) on src_q (of another context, src_ctx), after what either
 * queue has in flight: through a few pinned chunks, each read from src
 * while the one before is written to dst (the driver's two transfers
 * through plain memory below 256 KiB, or when the chunks cannot be
 * pinned). Blocking; the caller holds the runtime lock. */
cl_int vrt_ring_relay(cl_context src_ctx, cl_command_queue src_q, cl_mem src, size_t src_off,
                      cl_context dst_ctx, cl_command_queue dst_q, cl_mem dst, size_t dst_off,
                      size_t n);

#pragma GCC visibility pop
#endif
