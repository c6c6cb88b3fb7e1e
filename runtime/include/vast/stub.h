/* SPDX-License-Identifier: MIT */
/*
 * vast/stub.h - the ABI between the host stub that `vastcc -c k.cl` emits
 * and libvastrt.
 *
 * The stub is a generated C file holding one vast_program_info: the
 * generated OpenCL program (original kernels plus, per kernel K,
 * PREFIXinspect_K, PREFIXpaged_K and PREFIXmerge_K), a hash of the original
 * source text, the build options vastcc parsed with, and a partitioning
 * table per kernel. A constructor in the stub calls vast_register_program()
 * before main() runs. All tables are static, read-only data owned by the
 * stub; the runtime keeps pointers to them and never frees them.
 *
 * The calling convention of the generated kernels is in
 * docs/generated-kernels.md; it changes together with VAST_STUB_ABI_VERSION.
 */
#ifndef VAST_STUB_H
#define VAST_STUB_H

#ifdef __cplusplus
extern "C" {
#endif

#define VAST_STUB_ABI_VERSION 3

/* Virtual addresses: buffer slot s (1-based, assigned by the runtime per
 * distinct buffer of a launch) starts at s << VAST_VA_SHIFT. */
#define VAST_VA_SHIFT 44
/* Most distinct buffers one virtualized launch may use. */
#define VAST_MAX_SLOTS 32
/* LPT entry of a page that is not resident in this range. */
#define VAST_NO_FRAME 0xffffffffu
/* Device buffers one frame set spans: a device caps each buffer at
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE (OpenCL 1.2 §4.2: as little as a quarter
 * of its memory). A slot's frames of one range lie in one of them, the
 * buffer named by the slot's run-table entry; unused ones are bound to a
 * one-page buffer. */
#define VAST_FRAME_BUFS 8

/* The tail of the paged and merge kernels' arguments, after the kernel's
 * own n: argument n + VAST_TAIL_x (docs/generated-kernels.md). */
enum vast_tail {
	VAST_TAIL_FRAMES = 0, /* VAST_FRAME_BUFS of __global uchar * */
	VAST_TAIL_LPT = VAST_FRAME_BUFS,
	VAST_TAIL_FAULT,
	VAST_TAIL_PAGE_SHIFT,
	VAST_TAIL_GSIZE,
	VAST_TAIL_LSIZE,
	VAST_TAIL_GOFF,
	VAST_TAIL_FIRST_GROUP,
	VAST_TAIL_DST /* merge only: VAST_FRAME_BUFS destination buffers */
};

enum vast_param_kind {
	VAST_PARAM_GLOBAL,   /* __global T *    : a buffer */
	VAST_PARAM_CONSTANT, /* __constant T *  : a buffer */
	VAST_PARAM_LOCAL,    /* __local T *     : size only, set with NULL */
	VAST_PARAM_SCALAR,   /* by value: scalars, vectors, structs */
	VAST_PARAM_IMAGE,
	VAST_PARAM_SAMPLER,
	VAST_PARAM_OTHER
};

/* Access mode of a buffer parameter; a bit set. */
enum vast_mode {
	VAST_MODE_NONE = 0,
	VAST_MODE_R = 1,
	VAST_MODE_W = 2,
	VAST_MODE_RW = 3,
	VAST_MODE_ATOMIC = 4 /* set with W: global atomics on this buffer */
};

enum vast_pattern {
	VAST_PAT_NONE,    /* not a buffer, or never accessed */
	VAST_PAT_AFFINE,  /* offset affine in work-item ids */
	VAST_PAT_DIRECT,  /* offset computed from ids, scalars, constants */
	VAST_PAT_INDIRECT /* offset depends on a value loaded from a buffer */
};

/* Which kernel variants exist in the generated program. */
enum vast_variant {
	VAST_HAS_INSPECT = 1,
	VAST_HAS_PAGED = 2,
	VAST_HAS_MERGE = 4
};

typedef struct vast_param_info {
	const char *name;
	unsigned kind;      /* enum vast_param_kind */
	unsigned mode;      /* enum vast_mode (buffers only) */
	unsigned pattern;   /* enum vast_pattern */
	unsigned elem_size; /* bytes of the pointee (buffers), 0 if unknown */
	/* The inspector reads this buffer's contents (pattern indirect or a
	 * branch depends on its data): vast_inspect_K takes an extra
	 * `__global uchar *` argument for it and must run where it is readable. */
	unsigned inspect_reads;
} vast_param_info;

typedef struct vast_kernel_info {
	const char *name;
	unsigned nparams;
	const vast_param_info *params;
	unsigned variants;      /* enum vast_variant bit set */
	unsigned virtualizable; /* 0: run natively only, see reason */
	const char *reason;     /* why not virtualizable; NULL when it is */
	const char *location;   /* "file:line:col" of the reason, or NULL */
	/* The merge kernel copies exactly the bytes each write access writes;
	 * 0 when the kernel uses global atomics, which no copy can merge. */
	unsigned merge_exact;
} vast_kernel_info;

/* A device-dependent predefined macro the program's source names
 * (cl_khr_fp64, __IMAGE_SUPPORT__, __OPENCL_VERSION__, ...) and the value
 * vastcc preprocessed with, NULL when it took it as undefined. The
 * generated program holds only on a device that agrees on each. */
typedef struct vast_device_macro {
	const char *name;
	const char *value;
} vast_device_macro;

typedef struct vast_program_info {
	unsigned abi_version;          /* VAST_STUB_ABI_VERSION */
	const char *file;              /* the .cl file as named to vastcc */
	unsigned long long source_hash; /* vast_hash_source() of its bytes */
	unsigned long long source_size;
	const char *cl_options;        /* --cl-options, normalized; "" if none */
	const char *generated_source;  /* the program to build in its place */
	unsigned nkernels;
	const vast_kernel_info *kernels;
	/* Every name the generated program adds begins with this: "vast_",
	 * or "vast1_", ... when the program's own names begin with "vast_". */
	const char *prefix;
	unsigned ndevice_macros;
	const vast_device_macro *device_macros;
} vast_program_info;

/* Called by each stub's constructor. Defined in libvastrt. */
void vast_register_program(const vast_program_info *program);

/* FNV-1a, 64 bit: what source_hash holds. Shared by compiler and runtime
 * so both hash the same way. */
static inline unsigned long long vast_hash_bytes(unsigned long long h,
                                                 const void *data,
                                                 unsigned long long n)
{
	const unsigned char *p = (const unsigned char *)data;
	for (unsigned long long i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}
#define VAST_HASH_SEED 14695981039346656037ull

#ifdef __cplusplus
}
#endif
#endif
