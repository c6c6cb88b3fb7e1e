/* SPDX-License-Identifier: MIT */
/*
 * vrt.h - the one internal header of libvastrt.
 *
 * Sections follow the files: icd.c (the real entry points, the lock),
 * alloc.c, log.c, config.c and device.c (the budget), registry.c,
 * stubjson.c, event.c, mem.c (host-backed buffers and their device
 * copies), program.c, kernel.c, pas.c (PAS reduction), lpt.c (page
 * tables, frames, recovery), args.c, inspect.c, paged.c, launch.c,
 * stats.c. entry.c defines the exported entry points over the vrt_api_
 * functions. The files use one another without a cycle (test
 * rt/no_file_cycles): a file uses only those it can be read after. Everything here is internal: symbols carry the vrt_ prefix
 * and hidden visibility, so a program linked with libvastrt sees only
 * the OpenCL entry points and vast_register_program().
 *
 * Thread-safety: the runtime's shared state (registry, resident list,
 * stats) is guarded by vrt_lock()/vrt_unlock(), a mutex every entry point
 * that changes state holds while it runs. It is not recursive: the
 * runtime never calls its own exported entry points, and the program's
 * callbacks run outside it. Commands (queue.c) run under it, one at a
 * time over all queues; capturing a command takes it only for a moment.
 */
#ifndef VRT_H
#define VRT_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <pthread.h>

#include "vast/stub.h"
#include "footprint.h"

#pragma GCC visibility push(hidden)

/* --- icd.c: the loader's functions, found once with dlopen/dlsym ------ */
typedef struct vrt_icd {
#define VRT_ENTRY(ret, name, params, args) ret (CL_API_CALL *name) params;
#include "entrypoints.def"
#undef VRT_ENTRY
	/* NULL where the loader lacks one (an OpenCL 1.2 loader: no SVM). */
#define VRT_FOREIGN(ret, name, params, args, absent) ret (CL_API_CALL *name) params;
#include "foreign.def"
#undef VRT_FOREIGN
} vrt_icd;
extern vrt_icd vrt_real;
/* The runtime's side of each entry point: the exported clNAME (entry.c) is
 * a thin wrapper that calls vrt_api_clNAME, and the runtime, which never
 * calls its exported symbols (test rt/no_self_calls), calls these. */
#define VRT_ENTRY(ret, name, params, args) ret vrt_api_##name params;
#include "entrypoints.def"
#undef VRT_ENTRY
/* Loads the table and the configuration; CL_SUCCESS or
 * CL_OUT_OF_RESOURCES when libOpenCL.so.1 cannot be loaded. Idempotent,
 * thread-safe (pthread_once). */
cl_int vrt_init(void);
/* Whether a call to one of the runtime's entry points from anywhere in the
 * process lands in the runtime: the global symbol lookup finds the
 * runtime's definitions (libvastrt.so preloaded, or an executable that
 * exports them: vastcc links with vastrt.dynlist), so a library loaded
 * later binds to them too. */
int vrt_entries_interposed(void);
void vrt_lock(void);
void vrt_unlock(void);
/* Work that waits until the lock is released, as the program's code it
 * calls may call the runtime (destructor callbacks of freed buffers,
 * OpenCL 1.2 §5.4.1). */
typedef struct vrt_later {
	void (*run)(struct vrt_later *); /* may free its node */
	struct vrt_later *next;
} vrt_later;
/* Queues the list first..last (linked by next, lock held) to run in that
 * order at the next vrt_unlock, ahead of what was queued before. */
void vrt_run_after_unlock(vrt_later *first, vrt_later *last);
/* A function of the loader (libOpenCL.so.1) by name, or NULL. */
void *vrt_loader_symbol(const char *name);

/* --- object.c: the objects handed to the program ------------------------- */
enum { VRT_OBJ_MEM = 1, VRT_OBJ_PROGRAM, VRT_OBJ_KERNEL, VRT_OBJ_KINDS };
/* The head of every vrt_mem, vrt_program and vrt_kernel. */
typedef struct vrt_object {
	/* First: the ICD loader follows it for functions the runtime does
	 * not define (dispatch.def). */
	const struct _cl_icd_dispatch *dispatch;
	int kind;  /* VRT_OBJ_* */
	int live;  /* 0: released, a husk kept for reuse */
	struct vrt_object *next_husk;
} vrt_object;
/* A zeroed, live object of `size` bytes whose head is filled in; NULL when
 * out of memory. Ends with vrt_object_retire, never vrt_free. */
void *vrt_object_new(int kind, size_t size);
/* After the last release: later uses of the handle are recognised. */
void vrt_object_retire(void *o);
/* p as a live object of `kind`, else NULL. Never dereferences p unless
 * it is one of ours, so any bytes may be asked about. Thread-safe. */
void *vrt_object_of(const void *p, int kind);
/* Whether p is (or was) one of ours: a released handle is not the
 * driver's to be forwarded to. */
int vrt_object_ours(const void *p);

/* Sets *errcode_ret when the caller asked for it (OpenCL 1.2 §5: every
 * clCreate* function); the entry point's parameter must be errcode_ret. */
#define SET_ERR(e) do { if (errcode_ret) *errcode_ret = (e); } while (0)

/* --- alloc.c: every allocation of the runtime --------------------------- */
void *vrt_malloc(size_t n);
void *vrt_calloc(size_t n, size_t size);
void *vrt_realloc(void *p, size_t n);
/* `align` a power of two and a multiple of sizeof(void *); vrt_free. */
void *vrt_aligned_alloc(size_t align, size_t n);
char *vrt_strdup(const char *s);
void vrt_free(void *p);
/* Tests: make the n-th allocation from now fail (0: never). */
void vrt_alloc_fail_after(unsigned long n);

/* --- log.c --------------------------------------------------------------- */
enum { VRT_LOG_WARN, VRT_LOG_INFO, VRT_LOG_DEBUG };
void vrt_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The most detailed level printed (VAST_LOG, read by config.c). */
void vrt_log_set_level(int level);
int vrt_log_level(void);
const char *vrt_cl_error_name(cl_int err);

/* --- config.c: the VAST_* environment ----------------------------------- */
enum { VRT_RUN_AUTO, VRT_RUN_PAGED, VRT_RUN_NATIVE };
typedef struct vrt_config {
	int mode;              /* VRT_RUN_* */
	int stats;             /* VAST_STATS: 0, 1, or 2 (adds kernel_ms) */
	unsigned long long mem_bytes; /* VAST_DEVICE_MEM as bytes, 0: unset */
	unsigned mem_percent;  /* VAST_DEVICE_MEM as N%, 0: unset */
	unsigned page_shift;   /* VAST_PAGE_SIZE, 0: choose per launch */
	int pinned;            /* VAST_PINNED: host copies in pinned memory */
	unsigned pipeline;     /* VAST_PIPELINE: frame sets in flight, 1..VRT_MAX_SETS */
	const char *trace;     /* VAST_TRACE: the trace file, NULL: off */
	int pipeline_forced;   /* VAST_PIPELINE was given: never fewer sets */
	unsigned long long max_alloc;       /* VAST_MAX_ALLOC, 0: unset */
	unsigned long long fail_device_mem; /* VAST_FAIL_DEVICE_MEM, 0: unset */
	unsigned long long fail_range;      /* VAST_FAIL_RANGE, 0: unset */
	int footprints;        /* VAST_FOOTPRINTS: VRT_FP_* */
	int jit;               /* VAST_JIT: compile programs at clBuildProgram */
	int cache;             /* VAST_CACHE: keep them on disk (cache.c) */
	unsigned long long cache_max; /* VAST_CACHE_MAX: the cache's bytes */
	const char *devices;   /* VAST_DEVICES: the virtual device's devices, NULL: one */
	int resident;          /* VAST_RESIDENT: reuse pages kept on the device */
	int hold;              /* VAST_HOLD: keep one buffer's first pages (paged.c) */
	int straight;          /* VAST_STRAIGHT: launch straight variants */
	int overlap;           /* VAST_OVERLAP: a launch's end overlaps the next command */
	int fuse;              /* VAST_FUSE: paged launches back to back may be fused */
	int wgsplit;           /* VAST_WGSPLIT: independent work-items' groups may shrink */
} vrt_config;
/* Devices a launch may be split over, its own included (VAST_DEVICES). */
#define VRT_MAX_DEVICES 8
/* How paged launches of affine kernels get their Page Accessed Sets. */
enum { VRT_FP_OFF, VRT_FP_ON, VRT_FP_CHECK };
/* Frame sets a paged launch may keep in flight (VAST_PIPELINE). */
#define VRT_MAX_SETS 8
/* The set number of the hold's runs of pages (vrt_res_run, hold.c). */
#define VRT_HOLD_SET VRT_MAX_SETS
extern vrt_config vrt_cfg;
void vrt_config_load(void);
/* getenv for every variable the runtime reads; NULL in a set-user-ID or
 * set-group-ID process, whose environment it must not trust. */
const char *vrt_getenv(const char *name);
/* "64M", "2G", "4096", "1.5G": bytes, or a percentage "50%" (*percent
 * set, return 0). Returns -1 on malformed input. */
int vrt_parse_size(const char *s, unsigned long long *bytes, unsigned *percent);
/* device.c: the device budget of a launch whose buffers take `footprint` bytes. */
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
static inline int vrt_native_mode(void) { return vrt_cfg.mode == VRT_RUN_NATIVE; }

/* --- registry.c: the programs registered by stubs ----------------------- */
const vast_program_info *vrt_registry_find(unsigned long long hash,
                                           unsigned long long size);
const vast_kernel_info *vrt_program_kernel(const vast_program_info *p,
                                           const char *name);
/* Programs compiled at run time (jit.c), by their source and exact
 * build options and device flags; they live until exit. Lock held. */
const vast_program_info *vrt_registry_find_compiled(const char *options, const char *device,
                                                    unsigned long long hash,
                                                    unsigned long long size);
/* Takes p (from vrt_stub_from_json); 0, or -1 when out of memory (p is
 * then the caller's). Lock held. */
int vrt_registry_add_compiled(vast_program_info *p, const char *options, const char *device);

/* --- stubjson.c: a program read back from `vastcc --emit-json` ---------- */
/* What `vastcc --emit-json` wrote, as a program the registry can hold;
 * NULL and a malloc'd *error when the text is not such a file. Everything
 * it points to is owned by the result: free it with vrt_stub_json_free().
 * Every table is checked (docs/json.md), so a damaged file is an error,
 * never an out-of-bounds table. Thread-safe (no shared state). */
vast_program_info *vrt_stub_from_json(const char *text, size_t len, char **error);
void vrt_stub_json_free(vast_program_info *p);
/* Whether an --emit-json text ends with the seal of its bytes; and the
 * seal rewritten in place for what is before it, after an edit that kept
 * the seal's place at the end (jit.c strips a directory from the names,
 * having checked the seal first: never a text cut short). */
int vrt_json_sealed(const char *text, size_t len);
void vrt_json_seal(char *text, size_t len);

/* --- event.c: the events of the runtime's commands ---------------------- */
/* Checks the queue (CL_INVALID_COMMAND_QUEUE; CL_INVALID_CONTEXT when
 * ctx is not NULL and not the queue's) and the wait list, as every
 * enqueue does first. */
cl_int vrt_check_queue(cl_command_queue q, cl_context ctx, cl_uint n,
                       const cl_event *list);
/* The wait list's part of it (CL_INVALID_EVENT_WAIT_LIST). */
cl_int vrt_check_wait_list(cl_uint n, const cl_event *list);
/* Waits for n events (n may be 0); CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_
 * WAIT_LIST when one failed, ours included (OpenCL 1.2 §5.9). */
cl_int vrt_wait_events(cl_uint n, const cl_event *list);
/* Whether one of the events is a failed command of the runtime. */
int vrt_events_failed(cl_uint n, const cl_event *list);
/* clRetainEvent/clReleaseEvent, also counting on the runtime's record. */
cl_int vrt_event_retain(cl_event e);
cl_int vrt_event_release(cl_event e);
/* The record of a command's event, queued now on q (one reference for
 * the program, one for the command); bound to the handle the program
 * gets; then submitted (wait list done), started, ended (drops the
 * command's reference). NULL is ignored, but by vrt_event_bind. */
typedef struct vrt_event vrt_event;
vrt_event *vrt_event_new(cl_command_queue q, cl_command_type type);
void vrt_event_bind(vrt_event *r, cl_event handle);
void vrt_event_submitted(vrt_event *r);
void vrt_event_started(vrt_event *r);
void vrt_event_ended(vrt_event *r, cl_int err);

/* --- queue.c: commands in queue order, on one executor per queue -------- */
/* A command: embedded first in a struct holding what it captured at the
 * enqueue; allocated with vrt_malloc, freed by vrt_submit. */
struct vrt_mem;
typedef struct vrt_cmd vrt_cmd;
struct vrt_cmd {
	/* Runs it (lock held), its device work on q (the executor's). */
	cl_int (*run)(vrt_cmd *c, cl_command_queue q);
	/* Releases what it captured (lock held), run or not. */
	void (*drop)(vrt_cmd *c);
	/* A non-blocking command failed after its enqueue returned success
	 * (lock held; NULL: nothing to do): refuse the buffers it writes
	 * (vrt_mem_fail), whose contents the program expects changed. */
	void (*fail)(vrt_cmd *c, cl_int err);
	/* Completes what run left in flight (lock held; deferred set by run,
	 * only where the executor allowed it with may_defer): the executor
	 * calls it after the next command ran, or before one that may not
	 * overlap it. NULL: the command never defers. */
	cl_int (*finish)(vrt_cmd *c);
	/* Waits, without the lock, for what run left in flight, so that
	 * finish does not hold the lock while the device works. */
	void (*await)(vrt_cmd *c);
	int may_defer, deferred;
	int overlaps;       /* may run while the command before it is in flight */
	int overlapped;     /* it was in flight while the next command ran */
	/* Filled by vrt_submit. */
	cl_uint nwait;
	cl_event *wait;     /* retained */
	cl_event pre, user; /* see queue.c */
	vrt_event *ev;
	int blocking, done;
	cl_int err;
	vrt_cmd *next;
	/* The command queued after it when it started (queue.c), or NULL. */
	const vrt_cmd *after;
	/* A launch that would take m's pending whole write (pending.c):
	 * NULL, or 1 when c pages m and reads none of it in its inspector. */
	int (*takes_pending)(const vrt_cmd *c, const struct vrt_mem *m);
	/* The command uses m's bytes (a launch with m an argument; NULL:
	 * none known): the look-ahead of eviction (evict.c). */
	int (*uses)(const vrt_cmd *c, const struct vrt_mem *m);
	/* A write the command after it may take over (pending.c): the
	 * executor waits a moment for that command to be queued. */
	int waits_for_next;
	/* A read of [*off, *off + *n) of *m into *dst (1), for the launch
	 * before it to fill (deliver.c); NULL: no read. */
	int (*reads_into)(const vrt_cmd *c, struct vrt_mem **m, size_t *off, size_t *n, void **dst);
	/* A launch the launch before it ran with its own, range by range
	 * (launch.c, fused): its run only returns absorbed_err. Lock held. */
	int absorbed;
	cl_int absorbed_err;
};
/* Queues c on q after the wait list w; returns at once unless blocking
 * (then with its result); *event (when event is not NULL) is its event.
 * On an error before queueing, c is dropped and freed. */
cl_int vrt_submit(vrt_cmd *c, cl_command_queue q, cl_command_type type, cl_bool blocking,
                  cl_uint nw, const cl_event *w, cl_event *event);
/* Waits until every command submitted on q has run. */
void vrt_queue_drain(cl_command_queue q);
/* The executors of released queues (retired.c): one started running
 * what its queue still holds, ran a command, ended. vrt_retired_wait
 * waits for them to end (not for ever: a run of VRT_EXIT_STALL_S seconds
 * in which none ran a command ends the wait); the process's exit calls it
 * before its reports and the driver's teardown. */
void vrt_retired_start(void);
void vrt_retired_step(void);
void vrt_retired_end(void);
void vrt_retired_wait(void);
/* The place among the commands queued behind the one running (lock
 * held) of the first that uses m (uses; 1: the next one): VRT_NEVER
 * where none does, 0 where nothing is queued or no command is running
 * (nothing known). */
#define VRT_NEVER ((unsigned long)-1)
unsigned long vrt_queue_next_use(const struct vrt_mem *m);
/* Calls fn with each command queued behind the one running (lock held),
 * in order, while it returns 1. */
void vrt_queue_behind(int (*fn)(void *ctx, const vrt_cmd *c), void *ctx);
/* evict.c: of n candidates, the index of the one to evict: the farthest
 * next use (VRT_NEVER the farthest), the least recently used (smallest
 * lru) among those tied. */
size_t vrt_evict_pick(size_t n, const unsigned long *next_use, const unsigned long long *lru);
/* q's context and device (remembered with its executor, else asked of
 * the driver); CL_INVALID_COMMAND_QUEUE when q is not a queue. */
cl_int vrt_queue_info(cl_command_queue q, cl_context *ctx, cl_device_id *dev);
/* A queue of the runtime's own on dev, made with the call the device's
 * platform has (clCreateCommandQueue before OpenCL 2.0). */
cl_command_queue vrt_queue_create(cl_context ctx, cl_device_id dev,
                                  cl_command_queue_properties props, cl_int *err);
/* The program put a command of its own (one the runtime forwards whole)
 * on q: the runtime's next command there waits for it (queue.c). */
void vrt_queue_foreign(cl_command_queue q);
/* vrt_queue_foreign(q), then err: for `return vrt_forwarded(q, call)`. */
cl_int vrt_forwarded(cl_command_queue q, cl_int err);

/* --- mem.c: host-backed buffers ----------------------------------------- */
/* --- parallel.c: large host copies on several threads ------------------ */
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
/* --- ring.c: pinned chunks for pages of plain host copies ------------- */
/* Whether ring `id` (< VRT_MAX_DEVICES: one per device of a split launch)
 * has its pinned chunks for ctx (made now, kept across launches). */
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
/* Staging area number `set` (< VRT_MAX_SETS * VRT_MAX_DEVICES: one per
 * frame set in flight, per device of a split launch) of at least `size` bytes for ctx, pinned when possible, kept
 * across launches and never freed (it holds a reference to ctx); NULL
 * when out of memory. */
unsigned char *vrt_staging(cl_context ctx, unsigned set, size_t size);

typedef struct vrt_mem vrt_mem;
struct vrt_mem {
	vrt_object obj;
	cl_uint refs;        /* the program's references (what it can query) */
	cl_uint holds;       /* the runtime's own (kernel arguments) */
	/* A sub-buffer (OpenCL 1.2 §5.2.1) shares its parent's host copy:
	 * host = parent->host + origin. A parent with subs, and its subs,
	 * form a family whose device copies are kept coherent in mem.c. */
	struct vrt_mem *parent;   /* held; NULL for a buffer */
	size_t origin;
	unsigned nsubs;           /* live sub-buffers of this parent */
	cl_context ctx;
	cl_mem_flags flags;
	size_t size;
	/* The host copy: ours or the user's pointer. Ours is made at first
	 * need (vrt_mem_host_copy); until then (NULL) the bytes are the
	 * device copy's when dev_valid, else zeros, and host_valid is 0. */
	unsigned char *host;
	void *user_ptr;      /* host_ptr given at creation */
	int own_host;
	/* The bytes are the zeros of its creation, written by no one
	 * (outside a family): a device copy is filled, not sent. */
	int zero;
	vrt_pin pin;         /* own_host in pinned memory when pin.buf */
	int host_valid, dev_valid; /* at least one set, or neither and no host copy */
	cl_mem dev;                /* device copy, or NULL */
	cl_command_queue dev_queue; /* retained; where dev lives */
	unsigned long long lru;    /* last launch that used dev */
	/* The kernel whose failed launch left part of its results here (a
	 * mix of old and new bytes), "" if none: see vrt_mem_fail(). */
	char failed[64];
	vrt_mem *next;             /* all live buffers */
	vrt_later *dtors;          /* destructor callbacks, last registered first */
	/* Never reused, unlike the handle (object.c keeps husks): serial
	 * names the buffer, version moves on whenever its bytes may change
	 * (vrt_mem_changed); the plan cache compares them (plans.c). */
	unsigned long long serial, version;
	/* Kept frames of paged launches may hold pages of it newer than the
	 * host copy (residency.c, dirty): written home before the host copy
	 * is used (vrt_framepool_write_home). */
	int frames_dirty;
	/* Paged launches that used it (and could keep buffers): after one,
	 * a later one may keep it whole on the device (keep_resident);
	 * after two, an iterative program's, its first pages may stay in
	 * the hold (paged.c, choose_hold). */
	unsigned paged_uses;
};

/* The smallest page: a launch whose single work-group does not fit halves
 * its pages down to this before refusing (VAST_PAGE_SIZE's lower bound). */
#define VRT_MIN_PAGE_SHIFT 8
/* NULL unless m is one of the runtime's live buffers (looked up, never
 * dereferenced blindly: also used on kernel argument bytes). */
static inline vrt_mem *vrt_mem_of(const void *m)
{
	return vrt_object_of(m, VRT_OBJ_MEM);
}
/* The runtime's references, invisible in CL_MEM_REFERENCE_COUNT: a kernel
 * argument keeps its buffer alive until it is replaced or the kernel goes. */
void vrt_mem_hold(vrt_mem *m);
void vrt_mem_unhold(vrt_mem *m);
/* Two buffers whose host bytes overlap (a buffer and its sub-buffer, or
 * overlapping sub-buffers). */
int vrt_mem_overlap(const vrt_mem *a, const vrt_mem *b);
/* A kernel may have written m's device copy: the other device copies of
 * its family are stale. */
void vrt_mem_dev_written(vrt_mem *m);
/* Make the host copy current (made if m has none yet, the device copy
 * read back if needed). */
cl_int vrt_mem_to_host(vrt_mem *m);
/* Make m's host copy if it has none, its bytes current only where m held
 * no device copy (zeros), or map the program's memory of a USE_HOST_PTR
 * buffer not mapped since it was made; what paged launches and maps need
 * before they touch the bytes. */
cl_int vrt_mem_host_copy(vrt_mem *m);
/* The bodies of clEnqueueReadBuffer / clEnqueueWriteBuffer on m (range
 * already validated, wait list done): [off, off+n) to dst, or from src,
 * through whichever copy moves the fewest bytes at link speed (mem.c). */
cl_int vrt_mem_read(vrt_mem *m, size_t off, size_t n, void *dst);
/* launch, when not NULL: the command after the write, which may take a
 * whole write's bytes from src itself (pending.c). */
cl_int vrt_mem_write(vrt_mem *m, cl_command_queue q, size_t off, size_t n, const void *src,
                     const vrt_cmd *launch);
/* The bodies of clEnqueueFillBuffer and clEnqueueCopyBuffer (a to b) on
 * q: on the device copies where the destination has no host copy and
 * the source's bytes are there (nothing crosses the link), else on the
 * host copies. */
cl_int vrt_mem_fill(vrt_mem *m, cl_command_queue q, size_t off, size_t n, const void *pat,
                    size_t ps);
cl_int vrt_mem_copy(vrt_mem *a, vrt_mem *b, cl_command_queue q, size_t ao, size_t bo,
                    size_t n);
/* m's bytes may have changed (a host write, fill, copy or map for
 * writing, a kernel that writes it): its version, and that of every
 * member of its family overlapping it, moves on. */
void vrt_mem_changed(vrt_mem *m);
/* The host copy changed: the device copy is stale. The program wrote
 * it, so a failed launch's partial results are gone. */
void vrt_mem_host_written(vrt_mem *m);
/* A launch of `kernel` failed after changing some of m's bytes: m, and
 * the members of its family that overlap it, hold a mix of old and new
 * bytes. Until the program overwrites m whole, vrt_mem_check() refuses
 * it (docs/runtime.md). */
void vrt_mem_fail(vrt_mem *m, const char *kernel);
/* CL_SUCCESS, or CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (logged,
 * naming the failed launch) for a buffer vrt_mem_fail() marked. Every
 * read, map, copy, fill and launch of a buffer asks first. */
cl_int vrt_mem_check(const vrt_mem *m);
/* Make the device copy on q current, allocating it (and evicting other
 * buffers, least recently used first, not in `keep`) within budget. */
cl_int vrt_mem_to_device(vrt_mem *m, cl_command_queue q, size_t budget,
                         vrt_mem *const *keep, unsigned nkeep);
/* Write back if dirty, then free the device copy. */
cl_int vrt_mem_evict(vrt_mem *m);
/* Evict every device copy in ctx (before the paged path, which writes
 * host copies behind mem.c's back: no buffer of ctx is known zero after). */
cl_int vrt_mem_evict_all(cl_context ctx);
/* The same, but for the nkeep buffers of keep (a paged launch's resident
 * slots: paged.c). */
cl_int vrt_mem_evict_except(cl_context ctx, vrt_mem *const *keep, unsigned nkeep);
size_t vrt_mem_resident_bytes(void);
/* The live buffer of `serial`, NULL when it was released. */
vrt_mem *vrt_mem_by_serial(unsigned long long serial);
/* Copies a clGet*Info answer out (OpenCL 1.2 §5: size checks, *ret);
 * every file that answers a query uses it, so it lives here. */
static inline cl_int vrt_info_out(const void *val, size_t n, size_t size, void *out,
                                  size_t *ret)
{
	if (out) {
		if (size < n)
			return CL_INVALID_VALUE;
		memcpy(out, val, n);
	}
	if (ret)
		*ret = n;
	return CL_SUCCESS;
}

/* --- program.c / kernel.c ----------------------------------------------- */
typedef struct vrt_program {
	vrt_object obj;
	cl_uint refs;
	cl_context ctx;
	cl_program real;
	const vast_program_info *info; /* NULL: runs natively */
	const vast_program_info *stub; /* the match, kept when info goes NULL */
	unsigned nkernels;             /* live kernels made from it */
	char *source;                  /* the original source */
	size_t source_len;
	char *options;                 /* the last build's options */
	char *build_log;               /* vastcc's diagnostics when it failed the last build */
	/* The generated program built for the CPU inspector, lazily. */
	cl_context cpu_ctx;
	cl_command_queue cpu_queue;
	cl_program cpu_prog;
	cl_device_id cpu_dev;
	/* A build of cpu_prog started in the background when the program was
	 * built for a GPU, so the first indirect inspection does not wait for
	 * the CPU compiler; joined before anything touches the cpu_ fields. */
	pthread_t cpu_thread;
	int cpu_thread_live;
} vrt_program;

typedef struct vrt_arg {
	int set;
	size_t size;
	void *bytes;  /* copy of arg_value, NULL for __local and NULL values */
	vrt_mem *mem; /* the buffer when the value names one of ours */
} vrt_arg;

typedef struct vrt_kstats vrt_kstats;
typedef struct vrt_kernel {
	vrt_object obj;
	cl_uint refs;
	vrt_program *prog;   /* NULL for kernels of programs not ours */
	cl_program real_prog;
	cl_kernel real;      /* the original kernel */
	cl_kernel inspect, paged, straight; /* generated variants, created lazily */
	const vast_kernel_info *info; /* NULL: native only */
	char *name;
	cl_uint nargs;
	vrt_arg *args;
	vrt_kstats *stats;
	struct vrt_plans *plans; /* paged plans kept (plans.c) */
	/* The geometry of its last paged launch whose smaller ranges resent
	 * too much: one frame set won (paged.c). Lock held. */
	struct vrt_resend_hint {
		size_t groups;
		unsigned long long budget;
		unsigned shift;
	} resend;
	/* The geometry and budget of its last paged launch whose ranges did
	 * not fit what the buffers kept whole left: it keeps none there
	 * again (paged.c, keep_resident). Lock held. */
	struct vrt_keep_hint {
		size_t groups;
		unsigned long long budget;
	} keep_refused;
	/* Its work-group limits on `dev` (launch.c, check_local): queried
	 * once, not at every enqueue. Lock held. */
	struct {
		cl_device_id dev;   /* NULL: none yet */
		size_t reqd[3], max, items[3];
	} wg;
} vrt_kernel;
static inline vrt_program *vrt_program_of(cl_program p)
{
	return vrt_object_of(p, VRT_OBJ_PROGRAM);
}
static inline vrt_kernel *vrt_kernel_of(cl_kernel k)
{
	return vrt_object_of(k, VRT_OBJ_KERNEL);
}
/* Drops a reference to k (the program's or a launch's); lock held. */
void vrt_kernel_release(vrt_kernel *k);
/* The CPU device (PoCL) context and queue with the generated program
 * built there; created on first use. */
cl_int vrt_program_cpu(vrt_program *p);
/* The program's kernel names less the generated ones, "a;b" (vrt_free). */
char *vrt_program_kernel_names(vrt_program *p, cl_uint *count);
/* Whether `name` is one of the kernels vastcc generated in p's program
 * rather than one of the program's own. */
int vrt_program_is_generated_name(const vrt_program *p, const char *name);
/* Drops a reference (the program's or a kernel's); the caller holds the
 * lock. */
void vrt_program_release(vrt_program *p);

/* --- cache.c: programs compiled at clBuildProgram, on disk -------------- */
/* What a cached program was compiled from; every field is compared on a
 * lookup. Strings NUL-terminated (NULL: empty) but the source. */
typedef struct vrt_cache_key {
	const char *source;
	size_t source_len;
	const char *options;  /* clBuildProgram's options, as given */
	const char *device;   /* the device flags the compiler ran with */
	const char *compiler; /* the compiler's version and identity */
	/* The preprocessor's output (every file it read), NULL when the
	 * source includes nothing. */
	const char *preprocessed;
	size_t preprocessed_len;
} vrt_cache_key;
/* The key's file name hash. */
unsigned long long vrt_cache_hash(const vrt_cache_key *k);
/* The payload stored for k in dir (malloc'd, NUL-terminated, its length
 * in *len), or NULL: a miss, whatever went wrong. Thread- and
 * process-safe. */
char *vrt_cache_get(const char *dir, const vrt_cache_key *k, size_t *len);
/* Stores data for k in dir (made if missing), atomically, then evicts
 * the least recently used entries beyond max bytes; 0 or -1. */
int vrt_cache_put(const char *dir, const vrt_cache_key *k, const char *data,
                  size_t len, unsigned long long max);
void vrt_cache_evict(const char *dir, unsigned long long max);
/* $VAST_CACHE_DIR, else $XDG_CACHE_HOME/vastcc, else ~/.cache/vastcc;
 * malloc'd, NULL when none can be named. */
char *vrt_cache_dir(void);
/* The whole file at path, malloc'd and NUL-terminated, its size in *len;
 * NULL when it cannot be read. */
char *vrt_read_file(const char *path, size_t *len);

/* --- jit.c: compile a program at clBuildProgram ------------------------- */
enum { VRT_JIT_OK, VRT_JIT_SOURCE_ERROR, VRT_JIT_UNAVAILABLE };
/* Compiles source with build options opts for device dev by running the
 * vastcc compiler (or finds it compiled before, in this process or the
 * cache). VRT_JIT_OK: *out is a registered program, held until exit.
 * VRT_JIT_SOURCE_ERROR: the compiler rejected the source; *log is its
 * diagnostics (malloc'd). VRT_JIT_UNAVAILABLE: why[] says why it could
 * not compile. Takes the runtime's lock only briefly: call without it. */
int vrt_jit_program(const char *source, size_t len, const char *opts, cl_device_id dev,
                    const vast_program_info **out, char **log, char *why, size_t n);

/* --- stats.c ------------------------------------------------------------- */
struct vrt_kstats {
	char *name;
	unsigned long long launches, native, ranges, h2d, d2h;
	unsigned long long fp_plans; /* paged launches planned from descriptors */
	double inspect_ms, total_ms;
	double kernel_ms; /* the original or paged kernel itself, enqueue to finish */
	vrt_kstats *next;
	/* Work-groups each device of VAST_DEVICES ran (multi.c); device 0
	 * is the launch's own. */
	unsigned long long dev_groups[VRT_MAX_DEVICES];
	unsigned long long plan_hits; /* paged launches that reused a kept plan */
	unsigned long long h2d_saved; /* bytes not sent: already on the device */
	unsigned long long straight; /* paged ranges run by the straight variant */
	/* inspector chunks run by the paged inspector on the launch's device,
	 * their data in frames (pinspect.c); cpu: inspections on the CPU */
	unsigned long long inspect_paged, inspect_cpu;
	/* launches whose last kernel was still in flight when the next
	 * command ran (tail.c, queue.c) */
	unsigned long long overlapped;
	/* the least the paged launches could move (paged.c, compulsory) */
	unsigned long long compulsory;
	/* launches run range by range with the launch before them (launch.c,
	 * paged.c: fused), their ranges counted in ranges */
	unsigned long long fused;
};
vrt_kstats *vrt_stats_for(const char *kernel_name);
/* A program compiled at clBuildProgram (jit.c), from the cache or not;
 * printed at exit with the kernels'. Lock held. */
void vrt_stats_jit(int cache_hit);
double vrt_now_ms(void);

/* --- trace.c: VAST_TRACE, Chrome trace events ---------------------------- */
/* Every function is a no-op unless VAST_TRACE is set; all are thread-safe.
 * Events are kept in memory and written at exit (atexit), atomically. */
/* A host phase [t0, t1] (vrt_now_ms) on the calling thread's track; range
 * -1 when the phase belongs to no range. `kernel` is copied. */
void vrt_trace_host(const char *name, const char *kernel, double t0, double t1, long range,
                    unsigned long long bytes);
/* The calling thread's later events go on the host track `name`, shared
 * with the threads that name it too (a thread a job, one after another:
 * deliver.c, pending.c), not on a track of their own each. */
void vrt_trace_as(const char *name);
/* A launch's plan (inspection to ranges): its ranges and frame sets. */
void vrt_trace_plan(const char *kernel, double t0, double t1, size_t nranges, unsigned sets);
/* Gives a queue of the runtime's own (CL_QUEUE_PROFILING_ENABLE) a track
 * named `track` and maps its device clock onto the host's. */
void vrt_trace_queue(cl_command_queue q, const char *track);
/* A device phase from the profiling times of commands first..last (same
 * queue, in order, complete) on that queue's track. */
void vrt_trace_device(const char *name, const char *kernel, cl_command_queue q,
                      cl_event first, cl_event last, long range, unsigned long long bytes);

/* --- pas.c: Page Accessed Sets and their reduction (Algorithm 1) -------- */
/* Layout shared by the PAS rows, the LPT and the frames of one launch.
 * Slots are 1-based; a row holds one byte per page of every slot, each
 * slot's part starting at a multiple of 8 so rows OR as 64-bit words. */
typedef struct vrt_layout {
	unsigned nslots;
	unsigned page_shift;
	size_t slot_size[VAST_MAX_SLOTS + 1];  /* bytes of the buffer */
	size_t slot_pages[VAST_MAX_SLOTS + 1];
	size_t slot_off[VAST_MAX_SLOTS + 1];   /* first byte in a row */
	size_t row_bytes;                      /* multiple of 8 */
	size_t total_pages;
	/* A slot whose buffer stays whole on the device (paged.c,
	 * keep_resident): the frame buffer index its device copy is bound
	 * at, its pages frames 0.. of it in order; 0: paged. */
	unsigned char res_buf[VAST_MAX_SLOTS + 1];
	/* The slot whose first hold_pages pages the hold keeps on the device
	 * across launches (paged.c, choose_hold), 0: none; the frame buffer
	 * index the hold is bound at. A range whose pages of it all lie
	 * there is bound to the hold (page p in frame p), no frames of it
	 * in the set's buffers (lpt.c). */
	unsigned hold_slot, hold_buf;
	size_t hold_pages;
} vrt_layout;
/* The frame buffers a set may use: those below every resident slot's
 * and the hold's. */
static inline unsigned vrt_set_bufs(const vrt_layout *l)
{
	unsigned n = VAST_FRAME_BUFS;
	for (unsigned s = 1; s <= l->nslots; s++)
		if (l->res_buf[s] && l->res_buf[s] < n)
			n = l->res_buf[s];
	if (l->hold_slot && l->hold_buf < n)
		n = l->hold_buf;
	return n;
}
/* Fills pages, offsets and row_bytes from nslots, page_shift and sizes. */
void vrt_layout_init(vrt_layout *l);
/* Bytes of the LPT (uint entries) of this layout. */
size_t vrt_lpt_bytes(const vrt_layout *l);
/* Device bytes a range needs: frames of `pages` pages plus scratch frame
 * 0, plus the LPT. */
unsigned long long vrt_range_footprint(const vrt_layout *l, size_t pages);
/* The frames (pages of 2^sh bytes) a set of one frame buffer gets from
 * its share of the budget beside an LPT of lb bytes. The LPT is set
 * aside in steps of 1/32 of the share, not to the byte: the kernels of a
 * pipeline have LPTs of different sizes (fdtd2d's hz has three slots, ex
 * two), and frames sized to the byte differed by a page or two, so each
 * launch dropped the one before's frame buffers and the pages they held
 * (paged.c, make_sets). */
unsigned long long vrt_frames_beside_lpt(unsigned long long share, size_t lb, unsigned sh);
/* Pages of the hold's slot union row u touches when they all lie in the
 * hold (a range bound to it, lpt.c), 0 otherwise. */
size_t vrt_pas_held(const vrt_layout *l, const unsigned char *u);
/* Pages of union row u that take frames of a set: all of them, less
 * the hold's slot's where they all lie in the hold (lpt.c binds them
 * there). */
size_t vrt_pas_frame_pages(const vrt_layout *l, const unsigned char *u);
/* Normalizes marks to 0/1 (any non-zero byte is a touched page). */
void vrt_pas_normalize(unsigned char *rows, size_t bytes);
/* dst |= src over n bytes (n a multiple of 8); returns the pages newly set. */
size_t vrt_pas_or(unsigned char *dst, const unsigned char *src, size_t n);
size_t vrt_pas_count(const unsigned char *row, size_t n);

typedef struct vrt_range {
	size_t first_row, last_row; /* inclusive */
	size_t pages;               /* pages in the union of its rows */
} vrt_range;
/* Algorithm 1: OR consecutive rows while the union's footprint fits the
 * budget; cut a range there. On success *ranges (vrt_free) holds the
 * ranges in order. Returns 0, or -1 with *bad_row set to a row that
 * alone does not fit, or -2 when out of memory. */
int vrt_pas_reduce(const vrt_layout *l, const unsigned char *rows,
                   size_t nrows, unsigned long long budget,
                   vrt_range **ranges, size_t *nranges, size_t *bad_row);
/* The same for `sets` frame sets in flight: ranges cut against
 * budget/sets, and with sets > 1 and several ranges the first cut again
 * against a quarter of that (when its rows allow) so a pipeline fills
 * fast. Same returns. */
int vrt_pas_reduce_sets(const vrt_layout *l, const unsigned char *rows, size_t nrows,
                        unsigned long long budget, unsigned sets, vrt_range **ranges,
                        size_t *nranges, size_t *bad_row);

/* --- lpt.c: page tables, frames and recovery ---------------------------- */
/* One run of consecutive resident pages of a slot: frames are
 * contiguous too, so a span moves with one copy. */
typedef struct vrt_span {
	unsigned slot;
	size_t page, npages, frame;
} vrt_span;
/* Where a range's frames lie: slot s has count[s] frames from frame
 * first[s] of device buffer buf[s]; buffer b holds used[b] frames. */
typedef struct vrt_frames {
	size_t first[VAST_MAX_SLOTS + 1], count[VAST_MAX_SLOTS + 1];
	unsigned buf[VAST_MAX_SLOTS + 1];
	unsigned long long lo[VAST_MAX_SLOTS + 1]; /* the run's first byte, when straight */
	size_t used[VAST_FRAME_BUFS];
	/* Every slot's frames are one run of pages or none: the straight
	 * variant may run the range (docs/generated-kernels.md). */
	int straight;
	unsigned held;              /* the hold's slot, bound to the hold (0: none) */
} vrt_frames;
/* Index in the LPT of the run table (vast/stub.h, VAST_LPT_*): the first
 * entry boundary after the header; inline, as the reduction (pas.c) sizes
 * LPTs too. */
static inline size_t vrt_lpt_runs_index(unsigned nslots)
{
	const size_t e = VAST_LPT_ENTRY_WORDS;
	return (VAST_LPT_HEADER((size_t)nslots) + e - 1) / e * e;
}
/* Slot s's page table in an LPT. */
static inline const uint32_t *vrt_lpt_table(const uint32_t *lpt, unsigned s)
{
	return lpt + lpt[VAST_LPT_TABLE(s)];
}
/* Work-groups of an N-D launch: the first in each dimension and how many
 * (groupbox.c). */
typedef struct vrt_gbox {
	size_t origin[3], count[3];
} vrt_gbox;
/* The groups [g0, g1) of a launch of ngrp[0] x ngrp[1] x ngrp[2] groups,
 * flattened with dimension 0 fastest, as at most five boxes, in order;
 * returns how many. */
unsigned vrt_group_boxes(size_t g0, size_t g1, const size_t ngrp[3], vrt_gbox box[5]);
/* Builds the LPT of a range from the union row `u` (0/1 per page): frames
 * slot by slot, pages ascending, no gaps, each slot's within one buffer
 * of at most per_buf frames (frame 0 of buffer 0 is scratch). A slot s
 * with boxes[s].rows (boxes may be NULL) takes the frames of its packed
 * box instead, and no page of it has one. lpt has vrt_lpt_bytes(l)/4
 * entries. Returns 0, or -1 when the frames do not fit VAST_FRAME_BUFS
 * such buffers. */
int vrt_lpt_build(const vrt_layout *l, const unsigned char *u, const vrt_box2d *boxes,
                  size_t per_buf, uint32_t *lpt, vrt_frames *fr);
/* Spans of slot s in u; returns the count, *spans (vrt_free) or NULL. */
size_t vrt_spans(const vrt_layout *l, const unsigned char *u,
                 const uint32_t *lpt, unsigned s, vrt_span **spans);
/* Bytes of the span that lie inside the buffer. */
size_t vrt_span_valid(const vrt_layout *l, const vrt_span *sp);
/* Frames <- host: copies the pages of a span from the buffer's host copy
 * into the frame image (the bytes past the buffer's end are zeroed). */
void vrt_gather(const vrt_layout *l, const vrt_span *sp,
                const unsigned char *host, unsigned char *frames);
/* Host <- frames: copies the span back, only the buffer's valid bytes of
 * its last page. */
void vrt_scatter(const vrt_layout *l, const vrt_span *sp,
                 unsigned char *host, const unsigned char *frames);

/* --- rects.c: spans that move as rectangles ----------------------------- */
/* Spans sp[first .. first+rows) of one slot as one copy: row k is
 * row_bytes at host_off + k*host_pitch of the host copy and at dev_off +
 * k*dev_pitch of the frames. rows == 1: a linear copy of row_bytes. */
typedef struct vrt_rect {
	size_t rows;
	size_t host_off, dev_off, row_bytes, host_pitch, dev_pitch;
} vrt_rect;
/* Groups the spans of one slot (vrt_spans, in order) into rectangles of
 * spans of one length at one pitch whose frames follow one another;
 * returns the count and *rects (vrt_free), (size_t)-1 out of memory. */
size_t vrt_span_rects(const vrt_layout *l, const vrt_span *sp, size_t nsp, vrt_rect **rects);
/* Enqueues rectangle r between the host copy `host` and `frames`, to the
 * host when out, non-blocking, with no wait list. */
cl_int vrt_rect_move(cl_command_queue q, cl_mem frames, const vrt_rect *r, unsigned char *host,
                     int out, cl_event *e);

/* gaps.c: the pieces [lo, hi) (buffer offsets, within page `page`) of
 * pages a range writes partly whole, which alone go in from the host.
 * Groups them (in buffer order, as vrt_fp_gaps gives them page by page)
 * into rectangles of pieces of one length whose places in the buffer and
 * the frames (frame_of[page], frames of 2^shift bytes) advance by
 * constant steps; returns the count and *rects (vrt_free), (size_t)-1 out
 * of memory. */
typedef struct vrt_gap {
	unsigned slot;
	size_t page, lo, hi;
} vrt_gap;
size_t vrt_gap_rects(const vrt_gap *g, size_t n, unsigned shift, const uint32_t *frame_of,
                     vrt_rect **rects);
/* Sending nrects rectangles of `rows` rows in all is cheaper than sending
 * whole_bytes of whole pages. */
int vrt_gaps_worth(size_t nrects, size_t rows, unsigned long long whole_bytes);

/* --- launch.c / paged.c / inspect.c ------------------------------------- */
/* The most arguments of a kernel the runtime launches. */
#define VRT_MAX_ARGS 256
typedef struct vrt_tail vrt_tail; /* tail.c */
typedef struct vrt_launch {
	vrt_kernel *k;
	cl_command_queue q;
	cl_context ctx;
	cl_device_id dev;
	cl_uint dim;
	size_t gsize[3], lsize[3], goff[3], ngroups[3];
	size_t groups;              /* all work-groups, flattened */
	int local_free;             /* the program passed no local size */
	int partial;                /* written buffers may hold part of its results */
	size_t max_item[3];         /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
	/* A launch may have more slots than it can page (VAST_MAX_SLOTS):
	 * it then runs natively when it fits. */
	unsigned nslots;
	vrt_mem *slot_mem[VRT_MAX_ARGS + 1];
	unsigned slot_mode[VRT_MAX_ARGS + 1];
	unsigned slot_inspect_reads[VRT_MAX_ARGS + 1];
	unsigned arg_slot[VRT_MAX_ARGS]; /* param -> slot, 0: not a buffer/NULL */
	unsigned long long budget;
	unsigned long long footprint; /* bytes of distinct buffers */
	vrt_kstats *st;
	vrt_arg *args;              /* k's arguments as at the enqueue (k->nargs) */
	int can_page;               /* a paged variant can run it (plan) */
	/* A share of a launch split over devices (multi.c) runs the groups
	 * [group_base, group_base + groups); 0 for a whole launch. */
	size_t group_base;
	unsigned stage_base;        /* its staging areas: vrt_staging's sets from here */
	int share;                  /* such a share: runs on a thread of multi.c */
	/* The executor completes the launch later (queue.c): its last device
	 * work may stay in flight, recorded in tail, when the run leaves it
	 * nothing to do on the host after it. */
	int may_defer;
	vrt_tail *tail;
	/* Slots whose buffers a paged launch keeps whole on the device
	 * (paged.c): their frame buffer index, 0: paged. */
	unsigned char res_buf[VRT_MAX_ARGS + 1];
	/* The slot whose first hold_bytes the hold keeps (paged.c,
	 * choose_hold), 0: none. */
	unsigned hold_slot;
	unsigned long long hold_bytes;
	/* Refused for good: no smaller work-group, no other try can fit it
	 * (paged.c, probe_first). */
	int no_retry;
} vrt_launch;
cl_int vrt_paged_run(vrt_launch *L);
/* 1 when L may run with smaller work-groups than it has (kernel.c):
 * launch.c halves them, paged.c's refusals make way for that. */
int vrt_local_may_shrink(const vrt_launch *L);
/* A fused launch (launch.c): on each range, L's kernel and then L2's, on
 * the same frames, so what the first writes for the second never goes
 * home between them. L holds the slots of both (modes joined), L2 the
 * same slots (nslots, slot_mem), its arguments mapped into them
 * (arg_slot) and its own modes (slot_mode); mode1[s] is L's kernel's own
 * mode of slot s (0: it has none). The same geometry. VRT_NOT_FUSED,
 * with nothing run and nothing changed, where the pair is not planned
 * from descriptors alone or its ranges' order would change a result
 * (paged.c, fused_exact): run them one after the other. Lock held. */
#define VRT_NOT_FUSED 1
cl_int vrt_paged_run_fused(vrt_launch *L, vrt_launch *L2, const unsigned *mode1);

/* --- tail.c: a launch's last device work, completed after the next ----- */
/* A range whose commands were enqueued and whose end the host has not yet
 * seen: its events (retained; the last of out, or run, is its end) on
 * the queues they went to, and its fault word (read by out). */
typedef struct vrt_tail_range {
	cl_command_queue qin, qrun, qout;
	cl_event in[2], run, out[2];
	cl_event run0;              /* the first of several kernels (the
	                             * straight kernel's boxes), else NULL */
	unsigned long long in_bytes, out_bytes;
	long range;                 /* -1: a native launch's kernel */
	size_t g0, g1;              /* its work-groups (for the refusal) */
	const cl_uint *fault;       /* a paged range's fault word, which must
	                             * read 0; NULL: not read (a native kernel,
	                             * a straight range: it never sets it) */
	int timed;                  /* its kernel's time counts in kernel_ms
	                             * (VAST_STATS=2, multi.c's shares) */
} vrt_tail_range;
/* What the executor completes of a launch after the next command's
 * enqueue (queue.c), so that its kernel runs while the host prepares
 * the next one. */
struct vrt_tail {
	unsigned n;
	vrt_tail_range r[VRT_MAX_SETS];
	cl_uint fault[VRT_MAX_SETS]; /* the paged sets' fault words land here */
};
/* Range r's commands are complete: traces its device phases, adds its
 * kernel time to st and, of a paged range, checks its fault word (one
 * that touched a page its plan did not hold: CL_INVALID_OPERATION, its
 * results refused) and counts it. */
cl_int vrt_tail_check(const char *kernel, const vrt_tail_range *r, vrt_kstats *st,
                      size_t group_base);
/* Waits for the ends of t's ranges (no lock needed: t is the launch's). */
void vrt_tail_wait(const vrt_tail *t);
/* Waits for t's ranges (entries without a kernel event are unused),
 * checks them (vrt_tail_check) and frees t (NULL: nothing); the first
 * error. */
cl_int vrt_tail_finish(vrt_tail *t, const char *kernel, vrt_kstats *st, size_t group_base);
/* plans.c: the plan of a paged launch, kept for later launches like it
 * (same kernel, device, budget, geometry, scalar arguments and buffers;
 * for a buffer the inspector reads, the same contents). */
typedef struct vrt_plan {
	vrt_layout lay;
	size_t wpp, nrows;
	unsigned char *rows;        /* nrows PAS rows */
	vrt_range *ranges;
	size_t nranges;
	unsigned char *unions;      /* each range's pages, then all (paged.c) */
	uint64_t shared;            /* slots with pages several ranges touch */
	unsigned nsets;
	size_t buf_frames[VAST_FRAME_BUFS]; /* frames of each buffer of a set */
	unsigned char boxed[VAST_MAX_SLOTS + 1]; /* slots planned as boxes */
} vrt_plan;
typedef struct vrt_plans vrt_plans;
/* The plan kept for a launch like L, NULL when none. It stays L->k's,
 * valid until the next vrt_plan_keep on that kernel. */
const vrt_plan *vrt_plan_find(const vrt_launch *L);
/* Keeps *p for launches like L, taking p->rows, ranges, unions (freed with
 * the plan); returns the kept plan, or NULL when out of memory (nothing
 * was taken). May drop the kernel's least recently used plan. from_fp:
 * the plan was made from footprint descriptors alone, so launches that
 * differ from L only in scalars they do not name share it. */
const vrt_plan *vrt_plan_keep(const vrt_launch *L, const vrt_plan *p, int from_fp);
/* Frees a kernel's list of plans. */
void vrt_plans_free(vrt_plans *plans);
/* residency.c: the host pages kept frame sets hold, between launches. */
typedef struct vrt_resident {
	unsigned long long serial;  /* the vrt_mem's (0: an empty slot) */
	unsigned long long version; /* its version when the frame got the bytes */
	size_t page;                /* page of the buffer, at the map's page size */
	unsigned set, buf;          /* frame set, and device buffer within it */
	size_t frame;               /* frame within that buffer */
	int dirty;                  /* newer than the host copy: goes home lazily */
} vrt_resident;
typedef struct vrt_residency {
	unsigned page_shift;        /* the pages' size */
	size_t n, cap;              /* entries; slots of tab, a power of two */
	size_t ndirty;              /* dirty entries */
	vrt_resident *tab;
} vrt_residency;
/* Where page `page` of the buffer of `serial` lies, NULL: nowhere. */
const vrt_resident *vrt_res_find(const vrt_residency *r, unsigned long long serial, size_t page);
/* Records *e, replacing the entry of its serial and page; -1 when out of
 * memory (nothing recorded). */
int vrt_res_put(vrt_residency *r, const vrt_resident *e);
/* Forgets the entry of serial and page, if any. */
void vrt_res_forget(vrt_residency *r, unsigned long long serial, size_t page);
/* Forgets every entry gone(e, ctx) says is gone; allocates nothing. */
void vrt_res_drop_if(vrt_residency *r, int (*gone)(const vrt_resident *, void *), void *ctx);
/* Forgets every entry. */
void vrt_res_clear(vrt_residency *r);
/* A run of dirty pages: pages page..page+n-1 of the buffer of `serial`
 * in frames frame..frame+n-1 of buffer buf of set `set`. */
typedef struct vrt_res_run {
	unsigned long long serial;
	size_t page, frame, n;
	unsigned set, buf;
} vrt_res_run;
/* The dirty entries want(e, ctx) accepts (want NULL: all), as runs
 * consecutive in both pages and frames, in *runs (vrt_free; NULL when
 * none); their count, or (size_t)-1 when out of memory. */
size_t vrt_res_dirty_runs(const vrt_residency *r, int (*want)(const vrt_resident *, void *),
                          void *ctx, vrt_res_run **runs);
/* Marks clean (their bytes went home) or, with drop, forgets the entries
 * of the pages of runs. */
void vrt_res_settle(vrt_residency *r, const vrt_res_run *runs, size_t n, int drop);

/* framepool.c: the device buffers of a paged launch's frame sets, kept
 * for the next one on the same context and device, with what their
 * frames hold (residency.c). */
typedef struct vrt_devset {
	cl_mem frames[VAST_FRAME_BUFS], lptbuf, fault;
	size_t frame_bytes[VAST_FRAME_BUFS], lpt_bytes;
	uint32_t *lpt_held;         /* what lptbuf holds (vrt_free), NULL: unknown */
	size_t lpt_held_bytes;
	int fault_clear;            /* fault holds 0 (read back so, or in flight: tail.c) */
	cl_event busy;              /* the end of a range still in flight on these
	                             * frames (tail.c), NULL: none */
	cl_event unread;            /* its kernel, when no D2H follows it: reads
	                             * of its frames wait for it (paged.c) */
} vrt_devset;
typedef struct vrt_devsets {
	cl_mem dummy;               /* one page, bound where a set lacks a buffer */
	size_t dummy_bytes;
	unsigned nsets;
	vrt_devset set[VRT_MAX_SETS];
	vrt_residency res;          /* the host pages their frames hold */
	/* The hold: one buffer's first pages, kept across launches (paged.c,
	 * choose_hold), page p in frame p; NULL: none. What it holds: held
	 * (hold.c), hold_pages entries of pages of 2^hold_shift bytes of the
	 * buffer of hold_serial. */
	cl_mem hold;
	unsigned long long hold_bytes, hold_serial;
	unsigned hold_shift;
	size_t hold_pages;
	struct vrt_held *held;
	int reverse;                /* the last launch ran its ranges last first */
	/* Writes home (blocking) the dirty pages of d, kept for ctx and dev,
	 * of the buffer `only` (NULL: of every buffer); a buffer whose pages
	 * could not go home is refused (vrt_mem_fail). Set by the paged
	 * launch that made the sets (paged.c); NULL: none did. */
	cl_int (*home)(struct vrt_devsets *d, cl_context ctx, cl_device_id dev,
	               const vrt_mem *only);
} vrt_devsets;
/* hold.c: the pages the hold holds, one entry a page (version 0: not
 * there). */
typedef struct vrt_held {
	unsigned long long version; /* the buffer's when the page got its bytes */
	int dirty;                  /* newer than the host copy */
} vrt_held;
/* Entries for `pages` pages of the buffer of `serial`, none held; -1 out
 * of memory (none then). */
int vrt_hold_init(vrt_devsets *d, unsigned long long serial, size_t pages, unsigned shift);
void vrt_hold_free(vrt_devsets *d);
/* Page `page` of the buffer of `serial` in the hold, NULL: not there. */
vrt_held *vrt_hold_find(const vrt_devsets *d, unsigned long long serial, size_t page);
void vrt_hold_put(vrt_devsets *d, size_t page, unsigned long long version, int dirty);
void vrt_hold_forget(vrt_devsets *d, size_t page);
/* Dirty entries of version `before` take `after` (a launch wrote the
 * buffer: what it left in the hold is of the new version). */
void vrt_hold_restamp(vrt_devsets *d, unsigned long long before, unsigned long long after);
/* The dirty pages of the buffer's current `version` as runs of set
 * VRT_HOLD_SET (frame = page) in *runs (vrt_free); dirty entries of
 * another version are stale: forgotten. Their count, (size_t)-1 when
 * out of memory. */
size_t vrt_hold_dirty_runs(vrt_devsets *d, unsigned long long version, vrt_res_run **runs);
/* Marks the pages of runs clean (their bytes went home). */
void vrt_hold_settle(vrt_devsets *d, const vrt_res_run *runs, size_t n);
/* Moves the sets kept for ctx and dev to *out (zeroed when none). */
void vrt_framepool_take(cl_context ctx, cl_device_id dev, vrt_devsets *out);
/* The sets kept for ctx and dev, left in the pool; NULL when none. */
vrt_devsets *vrt_framepool_peek(cl_context ctx, cl_device_id dev);
/* Releases the buffers of `have` a launch that needs `want` (sizes; 0:
 * no such buffer) cannot use: missing (NULL after), too small, unwanted,
 * or larger than wanted where keeping them would pass the budget. The
 * launch then makes every wanted buffer left NULL. */
void vrt_devsets_fit(vrt_devsets *have, const vrt_devsets *want, unsigned long long budget);
/* Fitting `have` to `want` would keep every frame buffer (and so the
 * pages the map says they hold). */
int vrt_devsets_fit_keeps(const vrt_devsets *have, const vrt_devsets *want,
                          unsigned long long budget);
/* Keeps *sets (their handles, now the pool's; *sets is zeroed) for the
 * next paged launch on ctx and dev, releasing any kept before. */
void vrt_framepool_give(cl_context ctx, cl_device_id dev, vrt_devsets *sets);
/* Device bytes the pools hold; releases them all (a native launch needs
 * the room). */
unsigned long long vrt_framepool_bytes(void);
void vrt_framepool_release(void);
/* Releases every handle of d and zeroes it. */
void vrt_devsets_release(vrt_devsets *d);
/* Writes home the dirty pages the pools of m's context hold of m (m
 * NULL: every pool's of every buffer) and clears m->frames_dirty. */
cl_int vrt_framepool_write_home(vrt_mem *m);

/* fprows.c: planning from footprint descriptors. A plan exists when some
 * global access of L's kernel has a descriptor and the arguments they
 * name are known; NULL otherwise (*oom set when out of memory). Only
 * vrt_fp_must_write answers for a kernel with accesses that have none
 * (mixed): the others then return 0. */
typedef struct vrt_fp_plan vrt_fp_plan;
vrt_fp_plan *vrt_fp_plan_new(const vrt_launch *L, int *oom);
/* Slot s of L is reached through an access whose address is data the host
 * does not evaluate (spmv's x[col[i]]): only an inspector finds its
 * pages, unless the buffer is on the device whole (L->res_buf[s]: then
 * its descriptors are not needed, and a plan of the others' is complete). */
int vrt_fp_slot_indirect(const vrt_launch *L, unsigned s);
/* named[i] = 1 (i < nargs) for each argument k's descriptors name: all a
 * plan made from them depends on of the scalars (plans.c). 0 when k has
 * no descriptors (or they are off). */
int vrt_fp_named_args(const vrt_kernel *k, unsigned char *named, unsigned nargs);
void vrt_fp_plan_free(vrt_fp_plan *P);
/* Sets row (a PAS row of lay) to the pages groups [g0, g1) touch, from
 * the boxes of the whole range at once (or a superset); the same returns
 * as vrt_fp_rows. */
int vrt_fp_union(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                 unsigned char *row);
/* vrt_fp_union of P's own accesses alone, without the kernel that
 * follows it (vrt_fp_follow). */
int vrt_fp_union_own(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                     unsigned char *row);
/* A fused launch (paged.c): `next`, a plan over the same slots of the
 * kernel that runs after P's on each range, joins P's vrt_fp_union (and
 * so the ranges planned from P); nothing else of P's answers includes it.
 * next stays the caller's, and must outlive P's use. */
void vrt_fp_follow(vrt_fp_plan *P, vrt_fp_plan *next);
/* Every access of P's kernel has a descriptor the host evaluates (P may
 * be NULL: 0). */
int vrt_fp_complete(const vrt_fp_plan *P);
/* Fills rows as the inspector would (or a superset); 1 when done and
 * every descriptor was exact (the inspector's pages), 2 when done with
 * some a superset, 0 when a descriptor cannot be evaluated for this
 * launch (the inspector must), -1 out of memory. */
int vrt_fp_rows(vrt_fp_plan *P, const vrt_layout *lay, size_t wpp, unsigned char *rows,
                size_t nrows);
/* pages[p] = 1 (of slot s's slot_pages) for each page whose every byte
 * in the buffer groups [g0, g1) certainly write (exact must-write
 * descriptors); 1 when done, 0 when nothing is known (ignore pages), -1
 * out of memory. */
int vrt_fp_must_write(vrt_fp_plan *P, const vrt_layout *lay, unsigned s, size_t g0, size_t g1,
                      unsigned char *pages);
/* After vrt_fp_must_write: the bytes of page `page` of the slot (pages of
 * 2^shift bytes, the buffer `size` bytes) its must-write boxes leave out,
 * as up to max (at most VRT_GAPS_MAX) pieces [lo[i], hi[i]) of buffer
 * offsets, in order; returns how many, more than max when there are
 * more. */
#define VRT_GAPS_MAX 64
size_t vrt_fp_gaps(const vrt_fp_plan *P, size_t page, unsigned shift, size_t size,
                   size_t *lo, size_t *hi, size_t max);
/* pages[p] = 1 (of npages pages of 2^shift bytes) for each page of slot s
 * that any of L's groups may write (a superset); 1 when done, 0 when
 * nothing is known, -1 out of memory. */
int vrt_fp_may_write(vrt_fp_plan *P, unsigned s, unsigned shift, size_t npages,
                     unsigned char *pages);
/* [*lo, *hi): the bytes of slot s that groups [g0, g1) may write, from
 * their first to their last (*lo >= *hi: none); 1 when done, 0 when
 * nothing is known, -1 out of memory. */
int vrt_fp_write_span(vrt_fp_plan *P, unsigned s, size_t g0, size_t g1, long long *lo,
                      long long *hi);
/* Sets pages[p] = 1 (of slot s's slot_pages; others left) for each page
 * of slot s that groups [g0, g1) may access, read or written, even when
 * the kernel's other accesses have no descriptor; 1 when done, 0 when an
 * access that may reach s has none usable, -1 out of memory. */
int vrt_fp_slot_pages(vrt_fp_plan *P, const vrt_layout *lay, unsigned s, size_t g0, size_t g1,
                      unsigned char *pages);
/* Box frames (boxframes.c): slot s's bytes for groups [g0, g1) as one
 * strided box; 1 when they are, 0 when not (an access that may reach s
 * has no usable descriptor, none strides, pitches differ, a row crosses
 * the pitch, the box passes the buffer), -1 out of memory. */
int vrt_fp_slot_box(vrt_fp_plan *P, unsigned s, size_t g0, size_t g1, vrt_box2d *box);
/* The slots (outside sub-buffer families; read-only ones in a share of a
 * split launch) whose bytes for groups
 * [g0, g1) are one strided box, and with waste > 0 whose pages of lay
 * hold at least waste times its bytes or lie in at least `runs` runs
 * (runs > 0), go in as boxes from now on in P's plans (vrt_fp_union
 * leaves them out), with those boxed already; returns how many it adds.
 * Out of memory adds fewer. */
int vrt_fp_choose_boxes(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                        unsigned waste, size_t runs);
/* Whether groups [g0, g1) certainly write every byte of slot s's box
 * (exact must-write descriptors): 1 yes, 0 not known, -1 out of memory.
 * Only a slot the kernel never reads may then skip its box's fill. */
int vrt_fp_box_written(vrt_fp_plan *P, const vrt_layout *lay, unsigned s, size_t g0,
                       size_t g1, const vrt_box2d *box);
/* Boxed slots go back to pages: the written ones, or all. */
void vrt_fp_unbox(vrt_fp_plan *P, int written_only);
/* The boxed slots as flags (boxed[s], s <= VAST_MAX_SLOTS), to keep with
 * a plan, and set again on a new vrt_fp_plan of a launch like it. */
void vrt_fp_boxes_get(const vrt_fp_plan *P, unsigned char *boxed);
void vrt_fp_boxes_set(vrt_fp_plan *P, const unsigned char *boxed);
int vrt_fp_boxed(const vrt_fp_plan *P, unsigned s);   /* P may be NULL */
int vrt_fp_boxed_any(const vrt_fp_plan *P);
/* The frames (pages of 2^shift bytes) the boxed slots take for groups
 * [g0, g1), each slot's box in boxes[s] when not NULL (rows 0 for slots
 * not boxed); (size_t)-1 when a box cannot be made (or out of memory). */
size_t vrt_fp_box_frames(vrt_fp_plan *P, unsigned shift, size_t g0, size_t g1, vrt_box2d *boxes);
/* fpplan.c: a descriptor-planned launch's ranges straight from the boxes,
 * one work-group per PAS row (first_row, last_row are groups) and no rows
 * built: the same ranges vrt_pas_reduce_sets makes of rows of one group
 * each, when the union grows with the range (always, for exact
 * descriptors). *unions (vrt_free) holds each range's pages, then all
 * (paged.c's P->unions); *exact: 0 when some descriptor was a superset.
 * slot_max: the most pages one slot of a range may have (0: any).
 * Returns 0, -1 with *bad_group a group that alone does not fit
 * budget/sets, -2 out of memory, -3 when a descriptor cannot be
 * evaluated (the inspector must plan). */
int vrt_fp_plan_ranges(vrt_fp_plan *P, const vrt_layout *lay, size_t groups,
                       unsigned long long budget, unsigned sets, size_t slot_max,
                       vrt_range **ranges, size_t *nranges, unsigned char **unions,
                       size_t *bad_group, int *exact);
/* Runs the inspector over groups [first_row*wpp, ...) and fills rows. */
cl_int vrt_inspect_run(vrt_launch *L, const vrt_layout *lay, size_t wpp,
                       unsigned char *rows, size_t nrows);
/* pasrun.c, for inspect.c and pinspect.c: the device PAS is cut into
 * chunks of at most this many bytes. */
#define VRT_PAS_CHUNK_BYTES (64u << 20)
/* The PAS description of lay and wpp (docs/generated-kernels.md) as a
 * read-only buffer of ctx, NULL with *err on failure. */
cl_mem vrt_pasinfo_new(cl_context ctx, const vrt_layout *lay, size_t wpp, cl_int *err);
/* Rows [r0, r1) of L's PAS into rows + r0 * row_bytes: zeroes pas, runs
 * inspector kin (variant `kind`: VAST_HAS_INSPECT or VAST_HAS_PINSPECT)
 * on q over those rows' groups, its first group set, reads them back; q
 * is finished between steps. */
cl_int vrt_inspect_rows(vrt_launch *L, cl_command_queue q, cl_kernel kin, unsigned kind,
                        cl_mem pas, const vrt_layout *lay, size_t wpp, size_t r0, size_t r1,
                        unsigned char *rows);
/* pinspect.c: the paged inspector vast_pinspect_K on L's own device, for
 * an inspector whose data passes the budget. *ran = 0 (rows undefined)
 * when it cannot run: no such variant, no descriptors for the buffers it
 * reads, a row's pages too many, or a fault; the caller then inspects on
 * the CPU. An error only for a device or host failure. */
cl_int vrt_inspect_paged(vrt_launch *L, const vrt_layout *lay, size_t wpp, unsigned char *rows,
                         size_t nrows, int *ran);
/* args.c: whether argument i of L is a buffer (a __global or __constant
 * pointer; for a kernel vastcc did not see, one of the runtime's buffers). */
int vrt_arg_is_buffer(const vrt_launch *L, cl_uint i);
/* Sets the original parameters (buffers as virtual bases) of a variant. */
cl_int vrt_set_user_args(vrt_launch *L, cl_kernel k);
/* clSetKernelArg, warning with the kernel's name and the index when it
 * fails. */
cl_int vrt_set_arg(cl_kernel k, cl_uint i, size_t size, const void *value);
/* Values of a generated variant's tail arguments (vast/stub.h,
 * VAST_TAIL_ARGS), one field per row of the table, named as the row,
 * pointing at its `count` values (a NULL buffer: a NULL cl_mem), or for
 * a row repeated per parameter at neach values: those of the variant's
 * parameters each_first, each_first + 1, ... among those it takes the
 * row for. A NULL field is left as it was set. The caller owns them. */
typedef struct vrt_tailargs {
#define VRT_TAILARGS_FIELD(name, count, each, cltype, host, i, p, m, s, pi) const host *name;
	VAST_TAIL_ARGS(VRT_TAILARGS_FIELD)
#undef VRT_TAILARGS_FIELD
	size_t each_first, neach;
} vrt_tailargs;
/* Sets t's arguments on kv, variant `kind` (a VAST_HAS_* bit) of a kernel
 * of nargs parameters: argument nargs + the row's index in that variant.
 * CL_INVALID_ARG_INDEX for a row the variant does not take (a runtime
 * error: the argument belongs to another variant). */
cl_int vrt_tailargs_set(cl_kernel kv, cl_uint nargs, unsigned kind, const vrt_tailargs *t);
/* L's geometry as the tail takes it (docs/generated-kernels.md,
 * "Geometry and partial execution"): the global size with work_dim in
 * .w, the local size, the global offset; t's gsize, lsize and goff are
 * pointed at g. */
typedef struct vrt_geometry {
	cl_ulong4 gsize, lsize, goff;
} vrt_geometry;
void vrt_tailargs_geometry(const vrt_launch *L, vrt_geometry *g, vrt_tailargs *t);
/* devmacros.c: whether every device a build is for (devs, or ctx's when
 * NULL) predefines the stub's device-dependent macros as vastcc assumed
 * under options opts; 0 with the warning to give in why when not. */
int vrt_device_macros_match(const vast_program_info *stub, cl_context ctx, cl_uint ndev,
                            const cl_device_id *devs, const char *opts, char *why,
                            size_t n);
/* A device info string (CL_DEVICE_EXTENSIONS, ...), malloc'd; NULL on
 * failure. */
char *vrt_device_info_str(cl_device_id d, cl_device_info what);
/* The value device d's compiler predefines for `name` (one of the
 * macros devmacros.c knows) under options opts, in val ("" when
 * undefined); 0 when it cannot tell. */
int vrt_device_macro_value(cl_device_id d, const char *name, const char *opts, char *val,
                           size_t n);
/* The name of k's generated variant <what> ("inspect", "paged"):
 * "<prefix><what>_<name>", the prefix the stub records. */
void vrt_variant_name(const vrt_kernel *k, const char *what, char *name, size_t n);
/* Creates a generated variant kernel lazily. */
cl_int vrt_kernel_variant(vrt_kernel *k, const char *what, cl_kernel *out);

/* --- devices.c: VAST_DEVICES and the runtime's own contexts ------------ */
/* Resolves a VAST_DEVICES list against the machine's devices, given by
 * type in platform order: "all", or comma-separated names "gpu", "cpu",
 * "acc" (every device of the type) and "gpu0", "cpu1", ... (the n-th of
 * the type over all platforms). sel[] gets indices into types[] in the
 * list's order, duplicates dropped, at most VRT_MAX_DEVICES. Returns 0,
 * or -1 with the reason in why. Pure (unit-tested). */
int vrt_devices_select(const char *spec, const cl_device_type *types, unsigned n,
                       unsigned *sel, unsigned *nsel, char *why, size_t wn);
/* The devices of VAST_DEVICES other than `own` (the launch's) into out[]
 * (VRT_MAX_DEVICES - 1 at most), resolved once; 0 when VAST_DEVICES is
 * unset, wrong (one warning) or names no other device. Lock held. */
unsigned vrt_devices_others(cl_device_id own, cl_device_id *out);
/* The program p's generated program built for device d in a context of
 * the runtime's own, with p's build options, and an in-order queue
 * there; made on first use and kept until exit. CL_SUCCESS, or the
 * error (logged) when d cannot run it. Lock held. */
cl_int vrt_device_program(vrt_program *p, cl_device_id d, cl_context *ctx,
                          cl_program *prog, cl_command_queue *q);
/* vrt_device_program for every device of VAST_DEVICES but p's own, at
 * its clBuildProgram; takes the lock. */
void vrt_devices_prebuild(vrt_program *p);
/* "gpu1", "cpu0": d's VAST_DEVICES name, for logs. */
const char *vrt_device_name(cl_device_id d);

/* --- partition.c: each device's share of a launch (docs/multi.md) ------- */
typedef struct vrt_pdev {
	double rate;       /* work-groups per second; not > 0: unusable */
	double link_bw;    /* bytes per second per direction; 0: host memory */
	unsigned link;     /* devices with the same link id share it */
	double overhead_s; /* fixed cost of a share, seconds */
} vrt_pdev;
typedef struct vrt_pwork {
	size_t groups;          /* work-groups of the launch */
	double bytes_per_group; /* most bytes a group moves in one direction */
	double merge_s;         /* merge cost per device used, when several */
} vrt_pwork;
/* Chooses out[j] work-groups for each of n devices (summing to
 * w->groups, 0: device unused) so the devices used finish together and
 * the launch ends soonest; returns the modelled seconds, or -1 when no
 * device has a rate (then everything goes to device 0). Pure. */
double vrt_partition(const vrt_pdev *d, unsigned n, const vrt_pwork *w, size_t *out);

/* --- multi.c: one launch split over the devices of VAST_DEVICES --------- */
/* Runs L over several devices when VAST_DEVICES names more than its own
 * and the split is exact and pays: 1 (*err its result), else 0 (the
 * launch runs on its own device as before; a log line says why when a
 * split was wanted). Lock held; the shares run on threads of their own
 * while the caller waits. */
int vrt_multi_run(vrt_launch *L, cl_int *err);

/* --- pending.c: whole writes the next paged launch copies --------------- */
/* Leaves m's host copy to be filled from src (all of m) by `launch`;
 * 0 when it cannot (then copy now). */
int vrt_pend_start(vrt_mem *m, const void *src, const void *launch);
int vrt_pend_has(const vrt_mem *m);
/* Whether [p, p+n) overlaps the program's memory a pending write reads. */
int vrt_pend_overlaps(const void *p, size_t n);
/* Copies what is still pending of m (and of buffers sharing its bytes),
 * of every buffer, of every buffer whose bytes another command than
 * `launch` is to take. */
void vrt_pend_settle(vrt_mem *m);
void vrt_pend_settle_all(void);
void vrt_pend_settle_except(const void *launch);
/* Copies the pending pages of L's slots that `row` (a PAS row of lay)
 * marks, unless copied already. */
void vrt_pend_fill_row(const vrt_launch *L, const vrt_layout *lay, const unsigned char *row);
/* The same, for the range after the one just enqueued, on a thread of its
 * own: the next call here waits for it. */
void vrt_pend_prefetch(const vrt_launch *L, const vrt_layout *lay, const unsigned char *row);

/* --- deliver.c: reads queued behind a paged launch, filled as it runs ---- */
/* Range i of L (its PAS row of lay) starts: the reads of L's buffers in
 * `slots` (a mask of slots whose written pages go home range by range)
 * queued right behind L are followed, and the range recorded as the last
 * writer of the pages it touches of theirs. */
void vrt_deliver_start(const vrt_launch *L, const vrt_layout *lay, uint64_t slots, size_t i,
                       const unsigned char *row);
/* Range j's written pages of the slots in `home` are in the host copies:
 * those no later range writes are copied to the reads' memory, on a
 * thread. */
void vrt_deliver_finish(const vrt_launch *L, const vrt_layout *lay, uint64_t home, size_t j,
                        const unsigned char *row);
/* Whether some read behind L is followed. */
int vrt_deliver_follows(const vrt_launch *L);
/* L ended, well (its reads may use what was copied) or not (dropped). */
void vrt_deliver_end(const vrt_launch *L, int ok);
/* The read c of m: 1 when it was followed and is now done (*err its
 * result): what the ranges did not copy copied now; 0: read as usual. */
int vrt_deliver_read(const vrt_cmd *c, vrt_mem *m, cl_int *err);
/* c ends: what was kept for it goes. */
void vrt_deliver_forget(const vrt_cmd *c);

#pragma GCC visibility pop
#endif
