/* SPDX-License-Identifier: MIT */
/*
 * program.h - program/: programs and kernels. Programs, their builds
 * and the CPU inspector's copy (program.c), kernels and their generated
 * variants (kernel.c, args.c), the stubs registered by programs
 * (registry.c) or read back from --emit-json (stubjson.c), compiling at
 * clBuildProgram (jit.c) with its disk cache (cache.c), the device
 * macros a stub assumed (devmacros.c), each device's model (devmodel.c),
 * and the devices of VAST_DEVICES
 * with the runtime's contexts there (devices.c). Uses plan/ and the
 * folders below it.
 */
#ifndef VRT_PROGRAM_H
#define VRT_PROGRAM_H

#include "plan/plan.h"

#pragma GCC visibility push(hidden)

/* --- program.c, kernel.c: programs, kernels and their variants -------- */
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
/* A launch of p may page (why: for the log): its variants start building
 * in the background (variants.c), and so does the CPU inspector's copy
 * when an inspector of p reads buffer data and p runs on another device.
 * Lock held. */
void vrt_program_may_page(vrt_program *p, const char *why);
/* The program's kernel names less the generated ones, "a;b" (vrt_free). */
char *vrt_program_kernel_names(vrt_program *p, cl_uint *count);
/* Whether `name` is one of the kernels vastcc generated in p's program
 * rather than one of the program's own. */
int vrt_program_is_generated_name(const vrt_program *p, const char *name);
/* Drops a reference (the program's or a kernel's); the caller holds the
 * lock. */
void vrt_program_release(vrt_program *p);

/* 1 when L may run with smaller work-groups than it has (kernel.c):
 * launch.c halves them, paged/planner.c's refusals make way for that. */
int vrt_local_may_shrink(const vrt_launch *L);
/* The name of k's generated variant <what> ("inspect", "paged"):
 * "<prefix><what>_<name>", the prefix the stub records. */
void vrt_variant_name(const vrt_kernel *k, const char *what, char *name, size_t n);
/* The program k's generated variants are made from: the variants'
 * program of k's (variants.c), built and waited for if need be, or a
 * split launch's device program (multi.c). Lock held. */
cl_int vrt_kernel_variants(const vrt_kernel *k, cl_program *out);
/* Creates a generated variant kernel lazily. */
cl_int vrt_kernel_variant(vrt_kernel *k, const char *what, cl_kernel *out);

/* --- variants.c: the variants' program, built when a launch may page --- */
typedef struct vrt_variants vrt_variants;
/* Records how p's variants are to be built (p->info's generated program,
 * the build's devices and options; devs NULL: the context's), after its
 * original kernels built; builds nothing. Drops an earlier record. Lock
 * held. */
cl_int vrt_variants_prepare(vrt_program *p, cl_uint ndev, const cl_device_id *devs,
                            const char *opts);
/* Starts their build on a thread of its own, once (why: for the log);
 * nothing when p has no record. Lock held. */
void vrt_variants_start(vrt_program *p, const char *why);
/* Waits for a started build: CL_SUCCESS, or the driver's error, told
 * once with its build log. With or without the lock. */
cl_int vrt_variants_wait(vrt_program *p);
/* Whether they are built and usable (without waiting); whether they
 * cannot be (a build that failed, or no record). */
/* The build was started (or there is nothing to build). */
int vrt_variants_started(vrt_program *p);
int vrt_variants_ready(vrt_program *p);
int vrt_variants_failed(vrt_program *p);
/* The built variants' program, started and waited for if need be (the
 * executor, lock held); the error of a build that failed. */
cl_int vrt_variants_program(vrt_program *p, cl_program *out);
/* Waits for a build in flight and releases everything. Lock held. */
void vrt_variants_drop(vrt_program *p);

/* --- args.c ------------------------------------------------------------- */
/* Whether argument i of L is a buffer (a __global or __constant
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
#define VRT_TAILARGS_FIELD(name, count, each, cltype, host, i, p, s, pi) const host *name;
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

/* --- devmacros.c -------------------------------------------------------- */
/* Whether every device a build is for (devs, or ctx's when
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

/* --- trust.c: files nobody but the user could have written ------------- */
struct stat;
/* Whether st is the effective user's (or, with root_too, root's) and
 * writable by neither its group nor others; if not, why (naming `what`)
 * in why[n]. */
int vrt_trusted_stat(const struct stat *st, int root_too, const char *what, char *why,
                     size_t n);
/* Whether the file at the resolved absolute path (realpath's) is a
 * regular file that, and every directory above it, passes
 * vrt_trusted_stat with root_too, a sticky directory writable by others
 * passing too; if not, why (naming the first that fails) in why[n]. */
int vrt_trusted_path(const char *path, char *why, size_t n);
/* Whether the directories an absolute path passes through as written
 * ("/", then each one up to the one holding its last component; links
 * met on the way not followed for the check) pass that rule: nobody else
 * chose where the name leads. */
int vrt_trusted_dirs(const char *path, char *why, size_t n);

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
/* The cache directory's descriptor, checked by the trust rule (made 0700
 * first, parents included, when `make`); or -1 with why[n]: refused,
 * cannot be made or opened; why is "" when it does not exist yet. */
int vrt_cache_open_dir(const char *dir, int make, char *why, size_t n);
typedef struct vrt_cache_usage {
	unsigned long long entries, bytes;
} vrt_cache_usage;
/* Removes the entries of the checked directory dfd, least recently used
 * first, until they and the temporaries being written take at most max
 * bytes (ULLONG_MAX: none, 0: all), and stale temporaries; the entries
 * left and removed, and their bytes, in *left and *removed (each may be
 * NULL). Only what the cache wrote is counted or removed. */
void vrt_cache_trim(int dfd, unsigned long long max, vrt_cache_usage *left,
                    vrt_cache_usage *removed);
/* $VAST_CACHE_DIR, else $XDG_CACHE_HOME/vastcc, else ~/.cache/vastcc;
 * malloc'd, NULL when none can be named. */
char *vrt_cache_dir(void);

/* --- cachestats.c: the cache's counts and size setting, in its directory - */
/* The bound of a cache whose directory sets none, with no VAST_CACHE_MAX. */
#define VRT_CACHE_MAX_DEFAULT (256ull << 20)
typedef struct vrt_cache_numbers {
	unsigned long long hits, misses; /* the runtime's lookups */
	unsigned long long max;          /* set by vastcc --cache-max; 0: none */
} vrt_cache_numbers;
/* Counts a lookup in dir (made if missing): a hit or a miss. Never fails
 * the caller; process-safe. */
void vrt_cache_count(const char *dir, int hit);
/* The counts and setting of the checked directory dfd (zeros where it
 * has none); 0, or -1 with why[n] when a file is refused, whose numbers
 * are then zeros and the other file's read all the same. */
int vrt_cache_numbers_read(int dfd, vrt_cache_numbers *out, char *why, size_t n);
/* Sets dfd's bound, kept until set again; 0, or -1 with why[n]. */
int vrt_cache_set_max(int dfd, unsigned long long max, char *why, size_t n);
/* The bound dir is kept to: VAST_CACHE_MAX, else its setting, else
 * VRT_CACHE_MAX_DEFAULT. */
unsigned long long vrt_cache_max(const char *dir);
/* The whole file at path, malloc'd and NUL-terminated, its size in *len;
 * NULL when it cannot be read. */
char *vrt_read_file(const char *path, size_t *len);

/* --- jit.c: compile a program at clBuildProgram ------------------------- */
enum { VRT_JIT_OK, VRT_JIT_SOURCE_ERROR, VRT_JIT_UNAVAILABLE };
/* A compile of one build, in two halves: what it reads of the program's
 * state, taken at clBuildProgram, and the compile, run later anywhere. */
typedef struct vrt_jit_job vrt_jit_job;
/* At clBuildProgram, on its thread: the compile of source with build
 * options opts for device dev, with everything it reads of the program's
 * state copied now (the environment's PATH, VAST_COMPILER, TMPDIR and
 * cache directory, the environment the compiler gets, the working
 * directory), and for a source that includes files, the preprocessor's
 * output of them as they are now (the compiler runs here, for that
 * alone). NULL when out of memory; an outcome known already (no
 * compiler, a header not found) is vrt_jit_run's answer. Without the
 * runtime's lock. The caller owns the job (vrt_jit_job_free). */
vrt_jit_job *vrt_jit_prepare(const char *source, size_t len, const char *opts,
                             cl_device_id dev);
/* Runs j (once) by running the vastcc compiler, or finds it compiled
 * before, in this process or the cache. VRT_JIT_OK: *out is a registered
 * program, held until exit. VRT_JIT_SOURCE_ERROR: the compiler rejected
 * the source; *log is its diagnostics (malloc'd). VRT_JIT_UNAVAILABLE:
 * why[] says why it could not compile, or why what it compiled cannot
 * serve (the files it includes changed since vrt_jit_prepare). Takes
 * the runtime's lock only briefly: call without it. */
int vrt_jit_run(vrt_jit_job *j, const vast_program_info **out, char **log, char *why,
                size_t n);
void vrt_jit_job_free(vrt_jit_job *j);

/* Cancels every compile: one running is killed, none starts (at exit,
 * analysis.c). Thread-safe. */
void vrt_jit_cancel(void);

/* --- analysis.c: vastcc's analysis of a program, in the background ----- */
typedef struct vrt_analysis vrt_analysis;
/* Queues vrt_jit_run of job, which it takes (freed even on failure), on
 * the runtime's pool of compile threads; NULL when out of memory. The
 * caller holds a reference (vrt_analysis_drop). */
vrt_analysis *vrt_analysis_start(vrt_jit_job *job);
/* Another reference to a, for a thread that waits for it while another
 * may drop the one it was found by; the caller holds one (or the lock
 * that keeps the holder's). */
void vrt_analysis_ref(vrt_analysis *a);
/* Whether it has finished, without waiting. */
int vrt_analysis_done(vrt_analysis *a);
/* Waits for it to finish, running it on this thread when no pool thread
 * has taken it yet; its VRT_JIT_* outcome. The caller holds a reference
 * for the whole wait. Without the runtime's lock (the analysis takes it
 * briefly). */
int vrt_analysis_wait(vrt_analysis *a);
/* A finished analysis's outcome as vrt_jit_run gives it (*log moves to
 * the caller, once); -1, nothing set, while it runs. Never waits. */
int vrt_analysis_result(vrt_analysis *a, const vast_program_info **out, char **log, char *why,
                        size_t n);
/* Drops the caller's reference: one no thread has started never runs.
 * Never waits; NULL is nothing. */
void vrt_analysis_drop(vrt_analysis *a);

/* --- program.c: the analysis taken into the program --------------------- */
/* Whether p's last build has an analysis not taken into p->info yet
 * (p->info NULL meanwhile: its kernels run natively). Lock held. */
int vrt_program_analysing(const vrt_program *p);
/* Takes p's analysis into p if it has finished (p->info, the variants'
 * record; a failure warned once), without waiting. Lock held. 1 when it
 * did and p may page: the caller then calls vrt_program_devices_prepare
 * once it has let the lock go. */
int vrt_program_analysis_poll(vrt_program *p);
/* Waits for p's analysis and takes it into p, then builds what
 * VAST_DEVICES' split launches use. Without the lock. */
void vrt_program_analysis_wait(vrt_program *p);
/* What VAST_DEVICES' split launches of p use, made now if not yet: the
 * other devices' programs (devices.c) and models (devmodel.c), so that
 * no launch's executor makes them under the lock. p->info set; without
 * the lock (takes it). */
void vrt_program_devices_prepare(vrt_program *p);
/* k->info from its program's, once the program has one. Lock held. */
void vrt_kernel_take_info(vrt_kernel *k);

/* --- devmodel.c: what each device can do, measured once per process ---- */
typedef struct vrt_devmodel {
	double fma_per_s; /* single-precision FMAs per second */
	double link_bw;   /* bytes per second per direction; 0: host memory */
	int benchmarked;  /* fma_per_s measured (else compute units x clock) */
} vrt_devmodel;
/* Device d's model, made at the first call (a benchmark kernel and a
 * timed transfer in ctx, a context of d's), kept until exit and logged
 * at VAST_LOG=info; identical devices share one. NULL when out of
 * memory. Lock held. */
const vrt_devmodel *vrt_devmodel_of(cl_device_id d, cl_context ctx);
/* Bytes per second the host copies, measured once (a few MiB): the host
 * memory a host device's kernel and the links' transfers share. */
double vrt_host_bw(void);
/* Every model a split launch of a program would use (own's, its device
 * in ctx, and those of the n others of VAST_DEVICES) and the host's
 * memory, made now if not yet (none when n is 0): at clBuildProgram, as
 * the devices' programs are, so that the program's first transfer or
 * launch waits for no benchmark. Lock held. */
void vrt_devmodels_prepare(cl_context ctx, cl_device_id own, const cl_device_id *others,
                           unsigned n);
/* --- devices.c: VAST_DEVICES and the runtime's own contexts ------------- */
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
/* The runtime's own context on device d (one per device, shared by
 * every program) and an in-order queue there, made on first use and
 * kept until exit; CL_SUCCESS, or the error that made them fail. Lock
 * held. */
cl_int vrt_device_context(cl_device_id d, cl_context *ctx, cl_command_queue *q);
/* The program p's generated program built for device d in the context of
 * the runtime's own (vrt_device_context), with p's build options, and an in-order queue
 * there; made on first use and kept until exit. CL_SUCCESS, or the
 * error (logged) when d cannot run it. Lock held. */
cl_int vrt_device_program(vrt_program *p, cl_device_id d, cl_context *ctx,
                          cl_program *prog, cl_command_queue *q);
/* vrt_device_program for each of the n others, the devices of
 * VAST_DEVICES but p's own (vrt_devices_others), at p's clBuildProgram.
 * Lock held. */
void vrt_devices_prebuild(vrt_program *p, const cl_device_id *others, unsigned n);
/* "gpu1", "cpu0": d's VAST_DEVICES name, for logs. */
const char *vrt_device_name(cl_device_id d);

#pragma GCC visibility pop
#endif
