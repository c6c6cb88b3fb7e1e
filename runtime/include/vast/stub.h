/* SPDX-License-Identifier: MIT */
/*
 * vast/stub.h - the ABI between the host stub that `vastcc -c k.cl` emits
 * and libvastrt.
 *
 * The stub is a generated C file holding one vast_program_info: the
 * generated OpenCL program (original kernels plus, per kernel K,
 * PREFIXinspect_K, PREFIXpaged_K, PREFIXmerge_K and, where it may run,
 * PREFIXstraight_K and PREFIXpinspect_K), a hash of the original
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

#define VAST_STUB_ABI_VERSION 6
/* The format of `vastcc --emit-json` (docs/json.md), which holds one
 * vast_program_info of this ABI: its "vastcc_json" member. */
#define VAST_JSON_VERSION 1
/* The file ends with its checksum, the last member: VAST_JSON_SEAL_HEAD,
 * 16 lowercase hex digits of vast_hash_bytes(VAST_HASH_SEED) over every
 * byte before the seal, VAST_JSON_SEAL_TAIL. A cut or damaged file (a
 * flipped bit in the generated program is valid JSON) fails it. */
#define VAST_JSON_SEAL_HEAD ",\n\t\"checksum\":\t\"0x"
#define VAST_JSON_SEAL_TAIL "\"\n}\n"

/* Virtual addresses: buffer slot s (1-based, assigned by the runtime per
 * distinct buffer of a launch) starts at s << VAST_VA_SHIFT. */
#define VAST_VA_SHIFT 44
/* Most distinct buffers one virtualized launch may use. */
#define VAST_MAX_SLOTS 32
/* LPT entry of a page that is not resident in this range. */
#define VAST_NO_FRAME 0xffffffffu
/* The run table's first byte for a boxed slot: no run, its box table
 * entry says where its bytes lie (docs/generated-kernels.md). */
#define VAST_BOXED 0xffffffffffffffffull
/* Device buffers one frame set spans: a device caps each buffer at
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE (OpenCL 1.2 §4.2: as little as a quarter
 * of its memory). A slot's frames of one range lie in one of them, the
 * buffer named by the slot's run-table entry; unused ones are bound to a
 * one-page buffer. */
#define VAST_FRAME_BUFS 8
/* Zero bytes at the end of the inspector's pasinfo: what its load of an
 * address outside the buffers reads, with the launch marked faulted. The
 * largest OpenCL C built-in type (long16, double16); the analysis
 * refuses an inspector that needs the value of a larger access. */
#define VAST_INSPECT_SCRATCH 128
/* The scratch's first ulong in the pasinfo of an inspector of n slots:
 * after its 3n+3 ulongs of layout (docs/generated-kernels.md,
 * "Inspector"), rounded up to a multiple of VAST_INSPECT_SCRATCH bytes.
 * A vector is aligned to its size (OpenCL C 6.1.5) and the compiler
 * loads it so: at byte (3n+3)*8, only 8-aligned, an out-of-bounds int4
 * load killed PoCL's CPU (NVIDIA's sticks a misaligned-address error).
 * The buffer itself starts at CL_DEVICE_MEM_BASE_ADDR_ALIGN, at least
 * long16's 128 bytes. The runtime and the prelude both take it from
 * here. */
#define VAST_PASINFO_SCRATCH(n)                                          \
	((3 * (n) + 3 + VAST_INSPECT_SCRATCH / 8 - 1) / (VAST_INSPECT_SCRATCH / 8) * \
	 (VAST_INSPECT_SCRATCH / 8))

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
	VAST_TAIL_DST, /* merge only: VAST_FRAME_BUFS destination buffers */
	/* The straight kernel only: the box of work-groups it runs (ulong4,
	 * its first group in each dimension: an N-D launch with a global
	 * offset), then per buffer parameter, in parameter order, the frame
	 * buffer holding its run and the run's delta (ulong): byte v of the
	 * virtual space lies at buffer + (v - delta). */
	VAST_TAIL_ORIGIN = VAST_TAIL_DST,
	VAST_TAIL_SRUNS,
	/* The paged inspector only (VAST_HAS_PINSPECT): the PAS rows it
	 * marks and their description, as the inspector's. */
	VAST_TAIL_PAS = VAST_TAIL_DST,
	VAST_TAIL_PASINFO
};

/* The constants above that generated OpenCL C uses, as its text: every
 * generated program's prelude begins with them (lib/rewrite/program.c), so
 * the compiler, the prelude and the runtime take them from this one place. */
#define VAST_STR_(x) #x
#define VAST_STR(x) VAST_STR_(x)
#define VAST_ABI_OPENCL_DEFINES                                  \
	"#define VAST_VA_SHIFT " VAST_STR(VAST_VA_SHIFT) "\n"     \
	"#define VAST_MAX_SLOTS " VAST_STR(VAST_MAX_SLOTS) "\n"   \
	"#define VAST_NO_FRAME " VAST_STR(VAST_NO_FRAME) "\n"     \
	"#define VAST_BOXED 0xffffffffffffffffUL\n"                \
	"#define VAST_FRAME_BUFS " VAST_STR(VAST_FRAME_BUFS) "\n"   \
	"#define VAST_INSPECT_SCRATCH " VAST_STR(VAST_INSPECT_SCRATCH) "\n" \
	"#define VAST_PASINFO_SCRATCH(n) " VAST_STR(VAST_PASINFO_SCRATCH(n)) "\n"

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

/* Which kernel variants exist in the generated program. The straight
 * variant is the paged kernel with the arguments of the paged kernel and
 * translation by one add, no check: the runtime launches it for a range
 * in which every slot's pages are one run (docs/generated-kernels.md).
 * The paged inspector PREFIXpinspect_K (a kernel whose inspector reads
 * buffers) is the inspector with those reads translated through an LPT,
 * with the paged kernel's arguments and VAST_TAIL_PAS, VAST_TAIL_PASINFO. */
enum vast_variant {
	VAST_HAS_INSPECT = 1,
	VAST_HAS_PAGED = 2,
	VAST_HAS_MERGE = 4,
	VAST_HAS_STRAIGHT = 8,
	VAST_HAS_PINSPECT = 16
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
	/* Its work-items depend on nothing of their work-group: no barrier,
	 * no __local memory, no work-group or sub-group function, no local
	 * or group id or size but in the global id written out. Any subset
	 * of a work-group runs with the same results, so the runtime may run
	 * one that does not fit the device as smaller groups, rebuilding the
	 * same global ids (docs/runtime.md). */
	unsigned items_independent;
} vast_kernel_info;

/* A device-dependent predefined macro the program's source names
 * (cl_khr_fp64, __IMAGE_SUPPORT__, __OPENCL_VERSION__, ...) and the value
 * vastcc preprocessed with, NULL when it took it as undefined. The
 * generated program holds only on a device that agrees on each. */
typedef struct vast_device_macro {
	const char *name;
	const char *value;
} vast_device_macro;

/* ---- Footprints -----------------------------------------------------------
 * Per kernel, one descriptor per global access it reaches. For an access
 * whose byte offset is affine, the host computes from the descriptor, the
 * launch geometry and the scalar arguments (in time independent of the
 * data size) the bytes a range of work-groups touches; docs/footprints.md.
 *
 * A form is a sum of terms  coef * sym[0] * sym[1] * sym[2] * var  over
 * names: variables range over the launch (group and local ids, the
 * counters of the loops around the access), symbols are fixed per launch
 * (integer scalar arguments, work-group and NDRange sizes, offsets). A
 * guard is a form >= 0, all guards holding where the access runs. */
enum vast_fp_name_kind {
	VAST_FP_ONE,           /* no name: the constant 1 */
	VAST_FP_GROUP,         /* get_group_id(d)         variable */
	VAST_FP_LOCAL,         /* get_local_id(d)         variable */
	VAST_FP_LOOP,          /* counter of loop d       variable */
	VAST_FP_ARG,           /* scalar argument d       symbol */
	VAST_FP_LOCAL_SIZE,    /* get_local_size(d)       symbol */
	VAST_FP_GLOBAL_SIZE,   /* get_global_size(d)      symbol */
	VAST_FP_NUM_GROUPS,    /* get_num_groups(d)       symbol */
	VAST_FP_GLOBAL_OFFSET  /* get_global_offset(d)    symbol */
};
#define VAST_FP_NAME(kind, d) ((unsigned)(kind) << 8 | (unsigned)(d))
#define VAST_FP_KIND(name) ((name) >> 8)
#define VAST_FP_INDEX(name) ((name) & 0xffu)
#define VAST_FP_MAX_SYMS 3
#define VAST_FP_MAX_LOOPS 6

typedef struct vast_fp_term {
	long long coef;
	unsigned var;                   /* a variable, or VAST_FP_ONE */
	unsigned sym[VAST_FP_MAX_SYMS]; /* symbols, VAST_FP_ONE where unused */
} vast_fp_term;

/* terms[first, first + n) of the kernel's term table; n = 0 is 0 */
typedef struct vast_fp_form {
	unsigned first, n;
} vast_fp_form;

/* for (i = lo; i < hi; i += step), step > 0: lo and hi in symbols, ids
 * and the counters of the loops outside it */
typedef struct vast_fp_loop {
	vast_fp_form lo, hi;
	long long step;
} vast_fp_loop;

/* A form the descriptor holds only while it stays in range: an unsigned
 * operation or a conversion narrower than 64 bits in the source, which
 * would wrap (C99 6.2.5p9, 6.3.1.3). bits > 0: [0, 2^bits); bits < 0:
 * [-2^(-bits-1), 2^(-bits-1)). The host refuses the descriptor otherwise. */
typedef struct vast_fp_check {
	vast_fp_form form;
	int bits;
} vast_fp_check;

typedef struct vast_footprint {
	unsigned params;      /* bit set of the parameters it may touch */
	unsigned mode;        /* enum vast_mode of the access */
	unsigned size;        /* bytes at each offset */
	unsigned affine;      /* 0: no descriptor; reason says why */
	const char *reason;   /* NULL when affine */
	vast_fp_form offset;  /* bytes from the base of its parameter */
	/* its loops, outermost first: counter d is loops[first_loop + d] */
	unsigned first_loop, nloops;
	unsigned first_guard, nguards; /* guards[first_guard ..] */
	/* checks[first_check ..]: the first nchecks - noffset_checks come
	 * from loop bounds and guards (hold before any guard), the rest from
	 * the offset (hold where the access runs) */
	unsigned first_check, nchecks, noffset_checks;
	/* Every condition the access runs under is a loop or guard here, so
	 * the bytes computed are exact, not only a superset. */
	unsigned exact;
	/* exact, and a plain store of the whole size: every byte of the
	 * footprint is written */
	unsigned must_write;
} vast_footprint;

typedef struct vast_kernel_footprints {
	unsigned nfootprints;
	const vast_footprint *footprints;
	const vast_fp_term *terms;
	const vast_fp_loop *loops;
	const vast_fp_form *guards;
	const vast_fp_check *checks;
} vast_kernel_footprints;

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
	/* Per kernel, parallel to kernels: its footprints. */
	const vast_kernel_footprints *footprints;
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
