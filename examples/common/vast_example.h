/* SPDX-License-Identifier: MIT */
/*
 * vast_example.h - the shared plumbing of the example programs: plain
 * OpenCL 1.2 host code with nothing vastcc-specific in it, so that every
 * example builds and runs the same with `cc` and with `vastcc`.
 *
 * A single header of static inline functions (no library to link). It
 * picks a device, creates a context and an in-order queue, reads a kernel
 * file and passes its exact bytes to clCreateProgramWithSource (the vastcc
 * runtime matches a program to its generated kernels by a hash of those
 * bytes, so the text must not be altered, not even a trailing NUL or a
 * newline), builds it and prints the build log on failure, and offers
 * error checks, a timer, raw output files and a deterministic RNG.
 *
 * Device choice: VAST_EXAMPLE_DEVICE=cpu|gpu|any. Default: the first GPU
 * of any platform, else the first device of any platform.
 *
 * Command line shared by the examples (vex_parse_args):
 *     app [-o OUT] [-k KERNEL.cl] [-q] [-m] [N ...]
 * -o writes every output buffer's raw bytes to OUT (for byte-for-byte
 * comparison of two runs), -k names the kernel file (default: NAME.cl next
 * to the executable), -q silences the progress lines, N are sizes. -m, in
 * the examples that move their data through vex_array: each host array is
 * its buffer's own memory (CL_MEM_ALLOC_HOST_PTR, mapped), not malloc'd.
 *
 * These are example programs: on an error the helpers print what failed
 * and exit(1). Nothing here is thread-safe. Every malloc'd result is the
 * caller's to free.
 */
#ifndef VAST_EXAMPLE_H
#define VAST_EXAMPLE_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif
#include <CL/cl.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- errors ------------------------------------------------------------ */

static inline const char *vex_errstr(cl_int err)
{
	switch (err) {
#define VEX_E(x) case x: return #x;
	VEX_E(CL_SUCCESS) VEX_E(CL_DEVICE_NOT_FOUND) VEX_E(CL_DEVICE_NOT_AVAILABLE)
	VEX_E(CL_COMPILER_NOT_AVAILABLE) VEX_E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
	VEX_E(CL_OUT_OF_RESOURCES) VEX_E(CL_OUT_OF_HOST_MEMORY)
	VEX_E(CL_PROFILING_INFO_NOT_AVAILABLE) VEX_E(CL_MEM_COPY_OVERLAP)
	VEX_E(CL_IMAGE_FORMAT_MISMATCH) VEX_E(CL_IMAGE_FORMAT_NOT_SUPPORTED)
	VEX_E(CL_BUILD_PROGRAM_FAILURE) VEX_E(CL_MAP_FAILURE)
	VEX_E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
	VEX_E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
	VEX_E(CL_COMPILE_PROGRAM_FAILURE) VEX_E(CL_LINKER_NOT_AVAILABLE)
	VEX_E(CL_LINK_PROGRAM_FAILURE) VEX_E(CL_DEVICE_PARTITION_FAILED)
	VEX_E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
	VEX_E(CL_INVALID_VALUE) VEX_E(CL_INVALID_DEVICE_TYPE)
	VEX_E(CL_INVALID_PLATFORM) VEX_E(CL_INVALID_DEVICE) VEX_E(CL_INVALID_CONTEXT)
	VEX_E(CL_INVALID_QUEUE_PROPERTIES) VEX_E(CL_INVALID_COMMAND_QUEUE)
	VEX_E(CL_INVALID_HOST_PTR) VEX_E(CL_INVALID_MEM_OBJECT)
	VEX_E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) VEX_E(CL_INVALID_IMAGE_SIZE)
	VEX_E(CL_INVALID_SAMPLER) VEX_E(CL_INVALID_BINARY)
	VEX_E(CL_INVALID_BUILD_OPTIONS) VEX_E(CL_INVALID_PROGRAM)
	VEX_E(CL_INVALID_PROGRAM_EXECUTABLE) VEX_E(CL_INVALID_KERNEL_NAME)
	VEX_E(CL_INVALID_KERNEL_DEFINITION) VEX_E(CL_INVALID_KERNEL)
	VEX_E(CL_INVALID_ARG_INDEX) VEX_E(CL_INVALID_ARG_VALUE)
	VEX_E(CL_INVALID_ARG_SIZE) VEX_E(CL_INVALID_KERNEL_ARGS)
	VEX_E(CL_INVALID_WORK_DIMENSION) VEX_E(CL_INVALID_WORK_GROUP_SIZE)
	VEX_E(CL_INVALID_WORK_ITEM_SIZE) VEX_E(CL_INVALID_GLOBAL_OFFSET)
	VEX_E(CL_INVALID_EVENT_WAIT_LIST) VEX_E(CL_INVALID_EVENT)
	VEX_E(CL_INVALID_OPERATION) VEX_E(CL_INVALID_GL_OBJECT)
	VEX_E(CL_INVALID_BUFFER_SIZE) VEX_E(CL_INVALID_MIP_LEVEL)
	VEX_E(CL_INVALID_GLOBAL_WORK_SIZE) VEX_E(CL_INVALID_PROPERTY)
	VEX_E(CL_INVALID_IMAGE_DESCRIPTOR) VEX_E(CL_INVALID_COMPILER_OPTIONS)
	VEX_E(CL_INVALID_LINKER_OPTIONS) VEX_E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef VEX_E
	default: return "unknown OpenCL error";
	}
}

static inline void vex_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
static inline void vex_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static inline void vex_check(cl_int err, const char *what, const char *file,
                             int line)
{
	if (err != CL_SUCCESS) {
		fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", file, line, what,
		        vex_errstr(err), (int)err);
		exit(1);
	}
}

/* CHECK(clFinish(q)): the call's text names it in the message.
 * CHECK_ERR(err, "clCreateBuffer"): for calls returning through errcode_ret. */
#define CHECK(expr) vex_check((expr), #expr, __FILE__, __LINE__)
#define CHECK_ERR(err, what) vex_check((err), (what), __FILE__, __LINE__)

static inline void *vex_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		vex_die("out of memory (%zu bytes)", n);
	return p;
}

/* ---- command line ------------------------------------------------------ */

#define VEX_MAX_SIZES 8

typedef struct vex_args {
	const char *out;      /* -o FILE, or NULL */
	const char *kernel;   /* -k FILE, or NULL: NAME.cl next to the binary */
	int quiet;            /* -q */
	int mapped;           /* -m: host arrays mapped from their buffers */
	int nsizes;
	size_t sizes[VEX_MAX_SIZES]; /* positional sizes, defaults kept */
	const char *argv0;
} vex_args;

/* Parses argv into a (whose sizes[] hold the defaults on entry; nsizes is
 * how many positional sizes the example accepts). Sizes take K/M/G. */
static inline void vex_parse_args(vex_args *a, int argc, char **argv,
                                  const char *usage)
{
	int pos = 0;
	a->argv0 = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "-o") && i + 1 < argc) {
			a->out = argv[++i];
		} else if (!strcmp(s, "-k") && i + 1 < argc) {
			a->kernel = argv[++i];
		} else if (!strcmp(s, "-q")) {
			a->quiet = 1;
		} else if (!strcmp(s, "-m")) {
			a->mapped = 1;
		} else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			printf("usage: %s [-o OUT] [-k KERNEL.cl] [-q] [-m] %s\n", argv[0], usage);
			exit(0);
		} else if (s[0] >= '0' && s[0] <= '9' && pos < a->nsizes) {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(s, &end, 0);
			switch (*end) {
			case 'k': case 'K': v <<= 10; end++; break;
			case 'm': case 'M': v <<= 20; end++; break;
			case 'g': case 'G': v <<= 30; end++; break;
			}
			if (errno || *end || v == 0)
				vex_die("bad size '%s'", s);
			a->sizes[pos++] = (size_t)v;
		} else {
			fprintf(stderr, "usage: %s [-o OUT] [-k KERNEL.cl] [-q] [-m] %s\n",
			        argv[0], usage);
			exit(2);
		}
	}
}

/* ---- device, context, queue ------------------------------------------- */

typedef struct vex_cl {
	cl_platform_id platform;
	cl_device_id device;
	cl_context ctx;
	cl_command_queue queue;
	char name[256];
} vex_cl;

/* First device of `type` on any platform; 0 when there is none. */
static inline int vex_find_device(cl_device_type type, cl_platform_id *pp,
                                  cl_device_id *dp)
{
	cl_platform_id plats[16];
	cl_uint np = 0;
	if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
		return 0;
	if (np > 16)
		np = 16;
	for (cl_uint i = 0; i < np; i++) {
		cl_uint nd = 0;
		if (clGetDeviceIDs(plats[i], type, 1, dp, &nd) == CL_SUCCESS && nd) {
			*pp = plats[i];
			return 1;
		}
	}
	return 0;
}

static inline void vex_init(vex_cl *cl, int quiet)
{
	const char *want = getenv("VAST_EXAMPLE_DEVICE");
	cl_int err;
	int ok;
	memset(cl, 0, sizeof *cl);
	if (!want || !*want)
		ok = vex_find_device(CL_DEVICE_TYPE_GPU, &cl->platform, &cl->device) ||
		     vex_find_device(CL_DEVICE_TYPE_ALL, &cl->platform, &cl->device);
	else if (!strcmp(want, "gpu"))
		ok = vex_find_device(CL_DEVICE_TYPE_GPU, &cl->platform, &cl->device);
	else if (!strcmp(want, "cpu"))
		ok = vex_find_device(CL_DEVICE_TYPE_CPU, &cl->platform, &cl->device);
	else if (!strcmp(want, "any"))
		ok = vex_find_device(CL_DEVICE_TYPE_ALL, &cl->platform, &cl->device);
	else
		vex_die("VAST_EXAMPLE_DEVICE must be cpu, gpu or any, not '%s'", want);
	if (!ok)
		vex_die("no OpenCL device found%s%s", want ? " of type " : "",
		        want ? want : "");
	CHECK(clGetDeviceInfo(cl->device, CL_DEVICE_NAME, sizeof cl->name - 1,
	                      cl->name, NULL));
	cl->ctx = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &err);
	CHECK_ERR(err, "clCreateContext");
	cl->queue = clCreateCommandQueue(cl->ctx, cl->device, 0, &err);
	CHECK_ERR(err, "clCreateCommandQueue");
	if (!quiet)
		fprintf(stderr, "device: %s\n", cl->name);
}

static inline void vex_release(vex_cl *cl)
{
	if (cl->queue)
		clReleaseCommandQueue(cl->queue);
	if (cl->ctx)
		clReleaseContext(cl->ctx);
	memset(cl, 0, sizeof *cl);
}

/* ---- kernel files and programs ---------------------------------------- */

/* The whole file, exactly its bytes; *size is its length. NULL (errno set)
 * when unreadable. A NUL follows the bytes for convenience only. */
static inline char *vex_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 16384;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	buf[n] = 0;
	*size = n;
	return buf;
}

static inline char *vex_path_join(const char *dir, size_t dirlen, const char *name)
{
	char *p = vex_malloc(dirlen + strlen(name) + 2);
	memcpy(p, dir, dirlen);
	p[dirlen] = '/';
	strcpy(p + dirlen + 1, name);
	return p;
}

/* Where the kernel file `name` is: `explicit_path` when given, else next to
 * the executable (/proc/self/exe, then argv0's directory), else the
 * current directory. Caller frees. */
static inline char *vex_kernel_path(const char *argv0, const char *name,
                                    const char *explicit_path)
{
	char exe[4096];
	if (explicit_path)
		return strcpy(vex_malloc(strlen(explicit_path) + 1), explicit_path);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			char *p = vex_path_join(exe, (size_t)(slash - exe), name);
			if (access(p, R_OK) == 0)
				return p;
			free(p);
		}
	}
	if (argv0) {
		const char *slash = strrchr(argv0, '/');
		if (slash) {
			char *p = vex_path_join(argv0, (size_t)(slash - argv0), name);
			if (access(p, R_OK) == 0)
				return p;
			free(p);
		}
	}
	return strcpy(vex_malloc(strlen(name) + 1), name);
}

/* Reads `path`, creates the program from its exact bytes and builds it for
 * cl's device with `options` (may be NULL). Prints the build log and exits
 * on failure. */
static inline cl_program vex_build(vex_cl *cl, const char *path,
                                   const char *options)
{
	size_t len;
	cl_int err;
	char *src = vex_read_file(path, &len);
	if (!src)
		vex_die("cannot read kernel file '%s': %s", path, strerror(errno));
	const char *srcs[1] = { src };
	cl_program prog = clCreateProgramWithSource(cl->ctx, 1, srcs, &len, &err);
	free(src);
	CHECK_ERR(err, "clCreateProgramWithSource");
	err = clBuildProgram(prog, 1, &cl->device, options, NULL, NULL);
	if (err != CL_SUCCESS) {
		size_t n = 0;
		clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
		char *log = vex_malloc(n + 1);
		log[0] = 0;
		clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
		log[n] = 0;
		fprintf(stderr, "%s: build failed:\n%s\n", path, log);
		free(log);
		CHECK_ERR(err, "clBuildProgram");
	}
	return prog;
}

static inline cl_kernel vex_kernel(cl_program prog, const char *name)
{
	cl_int err;
	cl_kernel k = clCreateKernel(prog, name, &err);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "kernel '%s':\n", name);
		CHECK_ERR(err, "clCreateKernel");
	}
	return k;
}

static inline cl_mem vex_buffer(vex_cl *cl, cl_mem_flags flags, size_t size,
                                void *host)
{
	cl_int err;
	cl_mem m = clCreateBuffer(cl->ctx, flags, size, host, &err);
	CHECK_ERR(err, "clCreateBuffer");
	return m;
}

/* ---- host arrays and their buffers ------------------------------------ */

/* A host array and the buffer it moves to and from, in one of two ways a
 * real program uses. Copied (the default): the array is malloc'd, a send
 * is clEnqueueWriteBuffer and a fetch clEnqueueReadBuffer. Mapped (-m):
 * the array is the buffer's own memory, CL_MEM_ALLOC_HOST_PTR mapped into
 * the program (how NVIDIA's OpenCL guide gets pinned host memory): a send
 * unmaps it, a fetch maps it for reading, and no copy between a program
 * array and a buffer is ever made. `host` is NULL while a mapped array is
 * unmapped. Sends and fetches are non-blocking: wait with clFinish. */
typedef struct vex_array {
	cl_mem mem;
	void *host;
	size_t bytes;
	int mapped;
} vex_array;

/* An array of `bytes` for a buffer of `flags`. `fill`: the program writes
 * it before its first send (a mapped array is mapped for writing, its old
 * bytes invalidated); otherwise a mapped array stays unmapped until its
 * first fetch. */
static inline vex_array vex_array_create(vex_cl *cl, int mapped, cl_mem_flags flags,
                                         size_t bytes, int fill)
{
	vex_array a = { NULL, NULL, bytes, mapped };
	cl_int err;
	if (!mapped) {
		a.mem = clCreateBuffer(cl->ctx, flags, bytes, NULL, &err);
		CHECK_ERR(err, "clCreateBuffer");
		a.host = malloc(bytes ? bytes : 1);
		if (!a.host)
			vex_die("out of memory (%zu bytes)", bytes);
		return a;
	}
	a.mem = clCreateBuffer(cl->ctx, flags | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
	CHECK_ERR(err, "clCreateBuffer");
	if (fill) {
		a.host = clEnqueueMapBuffer(cl->queue, a.mem, CL_TRUE,
		                            CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes, 0,
		                            NULL, NULL, &err);
		CHECK_ERR(err, "clEnqueueMapBuffer");
	}
	return a;
}

/* The array's bytes to its buffer. */
static inline void vex_array_send(vex_cl *cl, vex_array *a)
{
	if (!a->mapped) {
		CHECK(clEnqueueWriteBuffer(cl->queue, a->mem, CL_FALSE, 0, a->bytes, a->host,
		                           0, NULL, NULL));
	} else if (a->host) {
		CHECK(clEnqueueUnmapMemObject(cl->queue, a->mem, a->host, 0, NULL, NULL));
		a->host = NULL;
	}
}

/* The buffer's bytes to the array: readable once the queue has finished. */
static inline void vex_array_fetch(vex_cl *cl, vex_array *a)
{
	cl_int err;
	if (!a->mapped) {
		CHECK(clEnqueueReadBuffer(cl->queue, a->mem, CL_FALSE, 0, a->bytes, a->host,
		                          0, NULL, NULL));
	} else if (!a->host) {
		a->host = clEnqueueMapBuffer(cl->queue, a->mem, CL_FALSE, CL_MAP_READ, 0,
		                             a->bytes, 0, NULL, NULL, &err);
		CHECK_ERR(err, "clEnqueueMapBuffer");
	}
}

/* A sent array readable on the host again, once the queue has finished:
 * a copied array never left, a mapped one is mapped for reading. */
static inline void vex_array_regain(vex_cl *cl, vex_array *a)
{
	if (a->mapped)
		vex_array_fetch(cl, a);
}

static inline void vex_array_release(vex_cl *cl, vex_array *a)
{
	if (!a->mapped)
		free(a->host);
	else if (a->host)
		CHECK(clEnqueueUnmapMemObject(cl->queue, a->mem, a->host, 0, NULL, NULL));
	if (a->mapped)
		CHECK(clFinish(cl->queue));
	clReleaseMemObject(a->mem);
	a->host = NULL;
	a->mem = NULL;
}

/* clSetKernelArg with the argument's index in the message. */
#define VEX_ARG(k, i, v) do { \
	cl_int vex_e_ = clSetKernelArg((k), (i), sizeof(v), &(v)); \
	if (vex_e_ != CL_SUCCESS) { \
		fprintf(stderr, "argument %d (%s):\n", (int)(i), #v); \
		CHECK_ERR(vex_e_, "clSetKernelArg"); \
	} \
} while (0)

/* ---- timing ------------------------------------------------------------ */

static inline double vex_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- raw output files -------------------------------------------------- */

/* Output files are written to OUT.tmp and renamed on success, so a failed
 * run never leaves a partial file that a comparison could accept. An OUT
 * that exists and is no regular file (/dev/null, a pipe) is written
 * directly: renaming over it would replace the device. */
typedef struct vex_out {
	FILE *f;
	char *path, *tmp;
} vex_out;

/* path may be NULL: every call is then a no-op. */
static inline void vex_out_open(vex_out *o, const char *path)
{
	memset(o, 0, sizeof *o);
	if (!path)
		return;
	struct stat st;
	int special = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
	o->path = strcpy(vex_malloc(strlen(path) + 1), path);
	o->tmp = vex_malloc(strlen(path) + 5);
	sprintf(o->tmp, "%s%s", path, special ? "" : ".tmp");
	o->f = fopen(o->tmp, "wb");
	if (!o->f)
		vex_die("cannot write '%s': %s", o->tmp, strerror(errno));
}

static inline void vex_out_write(vex_out *o, const void *data, size_t n)
{
	if (o->f && n && fwrite(data, 1, n, o->f) != n)
		vex_die("cannot write '%s': %s", o->tmp, strerror(errno));
}

static inline void vex_out_close(vex_out *o)
{
	if (!o->f)
		return;
	int bad = ferror(o->f);
	if (fclose(o->f) != 0 || bad)
		vex_die("cannot write '%s'", o->tmp);
	if (strcmp(o->tmp, o->path) != 0 && rename(o->tmp, o->path) != 0)
		vex_die("cannot rename '%s' to '%s': %s", o->tmp, o->path,
		        strerror(errno));
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof *o);
}

/* One buffer to one file. */
static inline void vex_write_output(const char *path, const void *data, size_t n)
{
	vex_out o;
	vex_out_open(&o, path);
	vex_out_write(&o, data, n);
	vex_out_close(&o);
}

/* ---- deterministic random numbers -------------------------------------- */

/* splitmix64: the same sequence on every platform for a given seed. */
typedef struct vex_rng { uint64_t s; } vex_rng;

static inline vex_rng vex_rng_seed(uint64_t seed) { vex_rng r = { seed }; return r; }

static inline uint64_t vex_rand64(vex_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t vex_rand32(vex_rng *r) { return (uint32_t)(vex_rand64(r) >> 32); }

/* Uniform in [0, n). */
static inline uint32_t vex_rand_below(vex_rng *r, uint32_t n)
{
	return (uint32_t)(((uint64_t)vex_rand32(r) * n) >> 32);
}

/* Uniform in [lo, hi), 24 random bits: exactly representable floats. */
static inline float vex_randf(vex_rng *r, float lo, float hi)
{
	return lo + (hi - lo) * ((float)(vex_rand32(r) >> 8) * (1.0f / 16777216.0f));
}

/* ---- result checks ----------------------------------------------------- */

/* Number of i with |got-want| > abs_tol + rel_tol*|want| (NaNs differ);
 * the first few are printed under `what`. */
static inline size_t vex_compare_floats(const char *what, const float *got,
                                        const float *want, size_t n,
                                        float rel_tol, float abs_tol)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		float d = fabsf(got[i] - want[i]);
		if (!(d <= abs_tol + rel_tol * fabsf(want[i]))) {
			if (bad < 5)
				fprintf(stderr, "%s[%zu] = %.9g, expected %.9g\n", what, i,
				        (double)got[i], (double)want[i]);
			bad++;
		}
	}
	if (bad)
		fprintf(stderr, "%s: %zu of %zu elements differ\n", what, bad, n);
	return bad;
}

#endif
