/* SPDX-License-Identifier: MIT */
/*
 * base.h - base/, the bottom layer: what every folder uses. The
 * loader's functions and the big lock (icd.c), the handles given to the
 * program and their ICD dispatch table (object.c, dispatch.def),
 * allocation (alloc.c), logging (log.c), the VAST_* environment
 * (config.c), the VAST_STATS report (stats.c), VAST_TRACE (trace.c), and
 * the count of released queues' executors that the exit waits for
 * before those reports (retired.c). The lists of entry points
 * (entrypoints.def, foreign.def) are here too, as icd.c and object.c
 * expand them; entry.c in api/ defines them.
 *
 * Everything in the runtime's headers is internal: symbols carry the
 * vrt_ prefix and hidden visibility, so a program linked with libvastrt
 * sees only the OpenCL entry points and vast_register_program().
 *
 * Thread-safety: the runtime's shared state (registry, resident list,
 * stats) is guarded by vrt_lock()/vrt_unlock(), a mutex every entry point
 * that changes state holds while it runs. It is not recursive: the
 * runtime never calls its own exported entry points, and the program's
 * callbacks run outside it. Commands (exec/queue.c) run under it, one at
 * a time over all queues; capturing a command takes it only for a moment.
 */
#ifndef VRT_BASE_H
#define VRT_BASE_H

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

#pragma GCC visibility push(hidden)

/* --- icd.c: the loader's functions, found once with dlopen/dlsym -------- */
typedef struct vrt_icd {
#define VRT_ENTRY(ret, name, params, args) ret (CL_API_CALL *name) params;
#include "base/entrypoints.def"
#undef VRT_ENTRY
	/* NULL where the loader lacks one (an OpenCL 1.2 loader: no SVM). */
#define VRT_FOREIGN(ret, name, params, args, absent) ret (CL_API_CALL *name) params;
#include "base/foreign.def"
#undef VRT_FOREIGN
} vrt_icd;
extern vrt_icd vrt_real;
/* The runtime's side of each entry point: the exported clNAME (entry.c) is
 * a thin wrapper that calls vrt_api_clNAME, and the runtime, which never
 * calls its exported symbols (test rt/no_self_calls), calls these. */
#define VRT_ENTRY(ret, name, params, args) ret vrt_api_##name params;
#include "base/entrypoints.def"
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
/* A queue of the runtime's own on dev, made with the call the device's
 * platform has (clCreateCommandQueue before OpenCL 2.0). */
cl_command_queue vrt_queue_create(cl_context ctx, cl_device_id dev,
                                  cl_command_queue_properties props, cl_int *err);

/* --- object.c: the objects handed to the program ------------------------ */
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

/* --- alloc.c: every allocation of the runtime --------------------------- */
void *vrt_malloc(size_t n);
void *vrt_calloc(size_t n, size_t size);
void *vrt_realloc(void *p, size_t n);
/* A dynamic array of *cap elements of `size` bytes, at *(T **)array,
 * with room for `need`: grown by doubling (from 16) when it has less.
 * 0, or -1 out of memory (the array and *cap as they were). */
int vrt_grow(void *array, size_t *cap, size_t need, size_t size);
/* vrt_grow of the array at *pp, its element size from its type: passing
 * the array itself, not its address, does not compile. */
#define VRT_GROW(pp, cap, need) vrt_grow((pp), (cap), (need), sizeof **(pp))
/* `align` a power of two and a multiple of sizeof(void *); vrt_free. */
void *vrt_aligned_alloc(size_t align, size_t n);
char *vrt_strdup(const char *s);
void vrt_free(void *p);
/* Tests: make the n-th allocation from now fail (0: never). */
void vrt_alloc_fail_after(unsigned long n);

/* --- log.c -------------------------------------------------------------- */
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
	int stats_kv;          /* VAST_STATS=kv, kv2: key=value lines, not a table */
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
	unsigned long long cache_max; /* VAST_CACHE_MAX: the cache's bytes; 0: unset */
	const char *devices;   /* VAST_DEVICES: the virtual device's devices, NULL: one */
	int resident;          /* VAST_RESIDENT: reuse pages kept on the device */
	int hold;              /* VAST_HOLD: keep one buffer's first pages (paged/keeps.c) */
	int straight;          /* VAST_STRAIGHT: launch straight variants */
	int overlap;           /* VAST_OVERLAP: a launch's end overlaps the next command */
	int fuse;              /* VAST_FUSE: paged launches back to back may be fused */
	int wgsplit;           /* VAST_WGSPLIT: independent work-items' groups may shrink */
	int plan_check;        /* VAST_PLAN_CHECK: check the move list against the ranges */
	const char *plan_dump; /* VAST_PLAN_DUMP: the file launches' plans go to, NULL: off */
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
/* An on/off value: 1 for 1, yes, true, on; 0 for 0, no, false, off (any
 * case); -1 for anything else. */
int vrt_parse_onoff(const char *s);
static inline int vrt_native_mode(void) { return vrt_cfg.mode == VRT_RUN_NATIVE; }
/* The smallest page: a launch whose single work-group does not fit halves
 * its pages down to this before refusing (VAST_PAGE_SIZE's lower bound). */
#define VRT_MIN_PAGE_SHIFT 8

/* --- retired.c: the executors of released queues ------------------------ */
/* The executors of released queues: one started running what its queue
 * still holds, ran a command, ended. vrt_retired_wait
 * waits for them to end (not for ever: a run of VRT_EXIT_STALL_S seconds
 * in which none ran a command ends the wait); the process's exit calls it
 * before its reports and the driver's teardown. */
void vrt_retired_start(void);
void vrt_retired_step(void);
void vrt_retired_end(void);
void vrt_retired_wait(void);

/* --- the records of the objects handed to the program ------------------- */
/* A program, a kernel and a kernel's arguments, made and used by program/
 * (program.c, kernel.c): defined here because object.c forwards a query
 * to the driver's twin of a kernel or program (their `real`). A buffer's
 * record, vrt_mem, is exec.h's (pending.c reads it); named here. */
typedef struct vrt_mem vrt_mem;
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
	/* The generated program with the variants, built apart from the
	 * original kernels (real) when a launch may page (variants.c); NULL
	 * when the program runs natively. */
	struct vrt_variants *variants;
	/* A buffer argument larger than this may make a launch page (the
	 * least of half the default budgets of its devices; kernel.c); 0:
	 * not asked yet. */
	unsigned long long page_from;
	/* vastcc's analysis of the last build, running in the background
	 * until taken into info (program.c); the build's devices (NULL: the
	 * context's) it is checked against then; why a launch wanted the
	 * variants meanwhile (NULL: none did). */
	struct vrt_analysis *analysis;
	cl_uint build_ndev;
	cl_device_id *build_devs;
	const char *page_wanted;
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
	/* The program's info that info was looked up in: an analysis taken
	 * into the program after the kernel was made gives it its info at
	 * its next launch (vrt_kernel_take_info). */
	const vast_program_info *info_from;
	char *name;
	cl_uint nargs;
	vrt_arg *args;
	vrt_kstats *stats;
	struct vrt_plans *plans; /* paged plans kept (plans.c) */
	/* Never reused, unlike the object (a released kernel's is the next
	 * one's): a fused launch's kept plan names its second kernel by it
	 * (plans.c). Set under the lock. */
	unsigned long long serial;
	/* The geometry of its last paged launch whose smaller ranges resent
	 * too much: one frame set won (paged/planner.c). Lock held. */
	struct vrt_resend_hint {
		size_t groups;
		unsigned long long budget;
		unsigned shift;
	} resend;
	/* The geometry and budget of its last paged launch whose ranges did
	 * not fit what the buffers kept whole left: it keeps none there
	 * again (paged/keeps.c, keep_resident). Lock held. */
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

/* --- stats.c ------------------------------------------------------------ */
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
	/* launches that took the paged path, and those split over the
	 * devices of VAST_DEVICES (launch.c); native ones are `native` */
	unsigned long long paged, split;
};
vrt_kstats *vrt_stats_for(const char *kernel_name);
/* A launch of st's kernel runs: the transfers made for no kernel of their
 * own (vrt_stats_for(NULL): a buffer sent whole, a read) count for it
 * from now on, not for the kernel enqueued last. Lock held. */
void vrt_stats_running(vrt_kstats *st);
/* A program compiled at clBuildProgram (jit.c), from the cache or not;
 * printed at exit with the kernels'. Lock held. */
void vrt_stats_jit(int cache_hit);
double vrt_now_ms(void);
/* vrt_now_ms() where VAST_TRACE records host phases, else 0: the clock
 * reads around a phase that only the trace times (several a range) cost
 * nothing when it is off. */
static inline double vrt_trace_now(void)
{
	return vrt_cfg.trace ? vrt_now_ms() : 0;
}
/* The statistics so far, from the thread that reports SIGINT and
 * SIGTERM (signals.c), naming the signal ("SIGTERM"); nothing when they
 * were printed before, or VAST_STATS is off. */
void vrt_stats_signal(const char *signame);
/* The process went on after such a signal: the report at exit comes too.
 * Async-signal-safe (called from the handler that chained to the
 * program's, signals.c). */
void vrt_stats_rearm(void);
/* The program's name as it was started (argv[0]). */
const char *vrt_program_name(void);
/* b as "512 B", "4.00 MiB" in buf (returned). */
const char *vrt_human_bytes(char *buf, size_t n, unsigned long long b);

/* --- progress.c: a long paged launch's line on a terminal --------------- */
/* A launch's progress; the executor running it owns it, on its stack. */
typedef struct vrt_progress {
	const char *kernel;
	size_t nranges;
	double t0, shown;          /* the start; the last line's time, 0: none yet */
	unsigned long long bytes0; /* st's h2d + d2h at the start */
	vrt_kstats *st;            /* NULL: nothing to show */
} vrt_progress;
/* A paged launch of nranges ranges starts; st counts its bytes. */
void vrt_progress_begin(vrt_progress *p, const char *kernel, size_t nranges, vrt_kstats *st);
/* `done` ranges finished: the line, when due (VAST_PROGRESS, a terminal). */
void vrt_progress_step(vrt_progress *p, size_t done);
/* The launch ended: its line, if shown, erased. */
void vrt_progress_end(vrt_progress *p);
/* Erases a line showing (before a report written meanwhile). */
void vrt_progress_clear(void);

/* --- start.c: the program's first call ---------------------------------- */
/* Once, at the program's first call of an entry point (entry.c): the
 * runtime loaded (vrt_init), the trace's path checked, the signals that
 * end a run caught; later calls return vrt_init's result at once. */
cl_int vrt_start(void);

/* --- signals.c: the report and trace of a run SIGINT or SIGTERM ends ---- */
/* At start, with VAST_STATS or VAST_TRACE set: catches the signals the
 * program does not ignore, chaining to the handlers found (called in the
 * handler, on the thread the signal interrupted, after the report). */
void vrt_signals_install(void);

/* --- trace.c: VAST_TRACE, Chrome trace events --------------------------- */
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
/* At start: the trace's path for this process ("%p": its pid), checked;
 * one that cannot be written is reported, and nothing is traced. */
void vrt_trace_start(void);
/* The events so far, written from the thread that reports SIGINT and
 * SIGTERM (signals.c); nothing when written before. */
void vrt_trace_signal(void);
/* The process went on after such a signal: the trace is written at exit.
 * Async-signal-safe, as vrt_stats_rearm. */
void vrt_trace_rearm(void);

#pragma GCC visibility pop
#endif
