/* SPDX-License-Identifier: MIT */
/*
 * vast/stub.h - the ABI between the host stub that `vastcc -c k.cl` emits
 * and libvastrt.
 *
 * The stub is a generated C file holding one vast_program_info: the
 * generated OpenCL program (original kernels plus, per kernel K,
 * PREFIXinspect_K, PREFIXpaged_K and, where it may run,
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

/* The header compiles as C89 and later, and as C++, warning-free under
 * -pedantic and clang's -Weverything: the stub is compiled C, and a
 * program may include it under its own flags. */
#if defined(__clang__)
#pragma clang diagnostic push
/* The structs' padding is their binary layout: VAST_STUB_ABI_VERSION. */
#pragma clang diagnostic ignored "-Wpadded"
#if __has_warning("-Wunsafe-buffer-usage")
/* vast_hash_bytes walks a byte array: what the warning flags. */
#pragma clang diagnostic ignored "-Wunsafe-buffer-usage"
#endif
#endif
/* 64-bit integers: long long, which C89 and C++98 lack but GCC and
 * clang accept there as an extension, said so to keep -pedantic quiet. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wlong-long" /* g++ -std=c++98 */
#if defined(__clang__) /* C++98 compatibility, asked of C++11 */
#pragma clang diagnostic ignored "-Wc++98-compat-pedantic"
#endif
__extension__ typedef long long vast_i64;
__extension__ typedef unsigned long long vast_u64;
#pragma GCC diagnostic pop
#else
typedef long long vast_i64;
typedef unsigned long long vast_u64;
#endif
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define VAST_INLINE inline
#elif defined(__GNUC__)
#define VAST_INLINE __inline__
#else
#define VAST_INLINE
#endif
/* A conversion C++'s -Wold-style-cast takes too (T one word). */
#ifdef __cplusplus
#define VAST_CAST(T, x) (T(x))
#else
#define VAST_CAST(T, x) ((T)(x))
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
 * entry says where its bytes lie (docs/generated-kernels.md). All ones,
 * written so that a C89 compiler takes it too. */
#define VAST_BOXED (~VAST_CAST(vast_u64, 0))
/* Device buffers one frame set spans: a device caps each buffer at
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE (OpenCL 1.2 §4.2: as little as a quarter
 * of its memory). A slot's frames of one range lie in one of them, the
 * buffer named by the slot's run-table entry; unused ones are bound to a
 * one-page buffer. */
#define VAST_FRAME_BUFS 8

/* ---- The look-ahead page table (LPT) of a paged launch -------------------
 * A uint array (docs/generated-kernels.md, "Paged kernel"): a header, the
 * run table, the box table, then each slot's page table. Indices are in
 * uint words; n is the number of slots, s a slot (1-based). */
#define VAST_LPT_NSLOTS 0                /* n */
#define VAST_LPT_TABLE(s) (2 * (s) - 1)  /* the index of slot s's page table */
#define VAST_LPT_PAGES(s) (2 * (s))      /* slot s's pages */
#define VAST_LPT_RUNS(n) (2 * (n) + 1)   /* the index of the run table */
#define VAST_LPT_HEADER(n) (2 * (n) + 2) /* words of the header */
/* A run-table or box-table entry is a ulong4 (these many words). The run
 * table starts at a multiple of it (32-byte aligned) and holds slot s's
 * at entry s - 1; the box table follows, slot s's at entry n + s - 1.
 * Their fields, as ulong indices (.s0 .. .s3): */
#define VAST_LPT_ENTRY_WORDS 8
#define VAST_RUN_FIRST 0  /* first byte of the slot's run */
#define VAST_RUN_BYTES 1  /* its length; 0: no run */
#define VAST_RUN_FRAME 2  /* the frame byte holding its first byte */
#define VAST_RUN_BUF 3    /* the frame buffer of all the slot's frames */
#define VAST_BOX_FIRST 0  /* a boxed slot: the box's first byte */
#define VAST_BOX_PITCH 1  /* bytes from one row to the next */
#define VAST_BOX_SHAPE 2  /* width | rows << 32 */
#define VAST_BOX_FRAME 3  /* the frame byte of its packed rows */

/* ---- The fault word ------------------------------------------------------
 * One uint per launch of a paged kernel or an inspector: the runtime
 * clears it, a translation that misses stores VAST_FAULTED, and the
 * runtime refuses what the launch computed when it reads that back. */
#define VAST_FAULT_CLEAR 0u
#define VAST_FAULTED 1u

/* ---- The inspector's pasinfo ---------------------------------------------
 * A ulong array (docs/generated-kernels.md, "Inspector"): indices below;
 * n slots, s a slot (1-based). */
#define VAST_PASINFO_ROW_BYTES 0          /* bytes per PAS row */
#define VAST_PASINFO_GROUPS 1             /* work-groups per row */
#define VAST_PASINFO_NSLOTS 2             /* n */
#define VAST_PASINFO_OFF(s) (2 * (s) + 1) /* slot s's first byte in a row */
#define VAST_PASINFO_PAGES(s) (2 * (s) + 2)
#define VAST_PASINFO_BYTES(n, s) (2 * (n) + 2 + (s)) /* the buffer's bytes */
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

/* Which kernel variants exist in the generated program, and which one a
 * tail argument belongs to (VAST_TAIL_ARGS). The straight variant is the
 * paged kernel with the arguments of the paged kernel and translation by
 * one add, no check: the runtime launches it for a range in which every
 * slot's pages are one run (docs/generated-kernels.md). The paged
 * inspector PREFIXpinspect_K (a kernel whose inspector reads buffers) is
 * the inspector with those reads translated through an LPT, with the
 * paged kernel's arguments and then the inspector's pas and pasinfo. */
enum vast_variant {
	VAST_HAS_INSPECT = 1,
	VAST_HAS_PAGED = 2,
	/* 4 was the merge kernel PREFIXmerge_K, which vastcc no longer
	 * emits (docs/multi.md says why) and the runtime never launched: it
	 * stays free so that the bits after it keep their values, and a stub
	 * of an older vastcc, which sets it, still loads (the runtime ignores
	 * it) under the same VAST_STUB_ABI_VERSION. */
	VAST_HAS_STRAIGHT = 8,
	VAST_HAS_PINSPECT = 16
};

/* ---- The generated kernels' tail arguments -------------------------------
 * A variant of kernel K keeps K's n parameters at 0 .. n-1 (a buffer as
 * its virtual base, a ulong); its tail follows them: argument n + index.
 * Every tail argument, once, with its index in each variant that takes
 * it (VAST_TAIL_NO where one does not):
 *
 *   X(name, count, each, OpenCL type, host type,
 *     inspect, paged, straight, pinspect)
 *
 * name: the parameter's, after the program's prefix (vast_lpt); count:
 * consecutive arguments, numbered from 0 (vast_frames0 ..
 * vast_frames7); each: 0, or the kernel's buffer parameters the
 * argument is repeated for, in parameter order (VAST_TAIL_EACH_*), named
 * after each (vast_sbuf_P; the parameter's index when it has no name):
 * the repeated arguments of a variant come last, one group per such
 * parameter, the variant's repeated rows in table order in each group,
 * so the row's index is its argument for the first parameter. The host
 * type is the value the runtime sets (clSetKernelArg), for a user with
 * <CL/cl.h>.
 *
 * lib/rewrite/kernels.c writes the variants' parameter lists and their
 * vast_init_* calls from it; the runtime sets the arguments by it
 * (runtime/args.c); docs/generated-kernels.md says what each holds. */
#define VAST_TAIL_NO (-1)
#define VAST_TAIL_EACH_BUFFER 1 /* every __global or __constant pointer */
#define VAST_TAIL_EACH_READ 2   /* those whose inspect_reads is set */
#define VAST_TAIL_ARGS(X)                                                          \
	X(frames, VAST_FRAME_BUFS, 0, "__global uchar *", cl_mem,                  \
	  VAST_TAIL_NO, 0, 0, 0)                                                   \
	X(lpt, 1, 0, "__global const uint *", cl_mem,                              \
	  VAST_TAIL_NO, VAST_FRAME_BUFS, VAST_FRAME_BUFS, VAST_FRAME_BUFS)         \
	X(pas, 1, 0, "__global uchar *", cl_mem,                                   \
	  0, VAST_TAIL_NO, VAST_TAIL_NO, VAST_FRAME_BUFS + 7)                      \
	X(pasinfo, 1, 0, "__global const ulong *", cl_mem,                         \
	  1, VAST_TAIL_NO, VAST_TAIL_NO, VAST_FRAME_BUFS + 8)                      \
	X(fault, 1, 0, "__global uint *", cl_mem,                                  \
	  2, VAST_FRAME_BUFS + 1, VAST_FRAME_BUFS + 1, VAST_FRAME_BUFS + 1)        \
	X(page_shift, 1, 0, "uint ", cl_uint,                                      \
	  3, VAST_FRAME_BUFS + 2, VAST_FRAME_BUFS + 2, VAST_FRAME_BUFS + 2)        \
	X(gsize, 1, 0, "ulong4 ", cl_ulong4,                                       \
	  4, VAST_FRAME_BUFS + 3, VAST_FRAME_BUFS + 3, VAST_FRAME_BUFS + 3)        \
	X(lsize, 1, 0, "ulong4 ", cl_ulong4,                                       \
	  5, VAST_FRAME_BUFS + 4, VAST_FRAME_BUFS + 4, VAST_FRAME_BUFS + 4)        \
	X(goff, 1, 0, "ulong4 ", cl_ulong4,                                        \
	  6, VAST_FRAME_BUFS + 5, VAST_FRAME_BUFS + 5, VAST_FRAME_BUFS + 5)        \
	X(first_group, 1, 0, "ulong ", cl_ulong,                                   \
	  7, VAST_FRAME_BUFS + 6, VAST_FRAME_BUFS + 6, VAST_FRAME_BUFS + 6)        \
	X(origin, 1, 0, "ulong4 ", cl_ulong4,                                      \
	  VAST_TAIL_NO, VAST_TAIL_NO, VAST_FRAME_BUFS + 7, VAST_TAIL_NO)           \
	X(sbuf, 1, VAST_TAIL_EACH_BUFFER, "__global uchar *", cl_mem,              \
	  VAST_TAIL_NO, VAST_TAIL_NO, VAST_FRAME_BUFS + 8, VAST_TAIL_NO)           \
	X(sdelta, 1, VAST_TAIL_EACH_BUFFER, "ulong ", cl_ulong,                    \
	  VAST_TAIL_NO, VAST_TAIL_NO, VAST_FRAME_BUFS + 9, VAST_TAIL_NO)           \
	X(data, 1, VAST_TAIL_EACH_READ, "__global uchar *", cl_mem,                \
	  8, VAST_TAIL_NO, VAST_TAIL_NO, VAST_TAIL_NO)
/* A row's index in variant v (one VAST_HAS_* bit), from its four. */
#define VAST_TAIL_AT(v, inspect, paged, straight, pinspect)                     \
	((v) == VAST_HAS_INSPECT ? (inspect) : (v) == VAST_HAS_PAGED ? (paged) :   \
	 (v) == VAST_HAS_STRAIGHT ? (straight) :                                    \
	 (v) == VAST_HAS_PINSPECT ? (pinspect) : VAST_TAIL_NO)

/* The constants above that generated OpenCL C uses, as its text: every
 * generated program's prelude begins with them (lib/rewrite/program.c), so
 * the compiler, the prelude and the runtime take them from this one place.
 * VAST_FIELD(q, VAST_RUN_FIRST) is that field of a run-table entry q. */
#define VAST_STR_(x) #x
#define VAST_STR(x) VAST_STR_(x)
#define VAST_ABI_OPENCL_DEFINE_(name) "#define " #name " " VAST_STR(name) "\n"
#define VAST_ABI_OPENCL_DEFINES                                            \
	VAST_ABI_OPENCL_DEFINE_(VAST_VA_SHIFT)                               \
	VAST_ABI_OPENCL_DEFINE_(VAST_MAX_SLOTS)                              \
	VAST_ABI_OPENCL_DEFINE_(VAST_NO_FRAME)                               \
	"#define VAST_BOXED 0xffffffffffffffffUL\n"                          \
	VAST_ABI_OPENCL_DEFINE_(VAST_FRAME_BUFS)                             \
	VAST_ABI_OPENCL_DEFINE_(VAST_INSPECT_SCRATCH)                        \
	"#define VAST_PASINFO_SCRATCH(n) " VAST_STR(VAST_PASINFO_SCRATCH(n)) "\n" \
	VAST_ABI_OPENCL_DEFINE_(VAST_LPT_NSLOTS)                             \
	"#define VAST_LPT_TABLE(s) " VAST_STR(VAST_LPT_TABLE(s)) "\n"        \
	"#define VAST_LPT_PAGES(s) " VAST_STR(VAST_LPT_PAGES(s)) "\n"        \
	"#define VAST_LPT_RUNS(n) " VAST_STR(VAST_LPT_RUNS(n)) "\n"          \
	VAST_ABI_OPENCL_DEFINE_(VAST_RUN_FIRST)                              \
	VAST_ABI_OPENCL_DEFINE_(VAST_RUN_BYTES)                              \
	VAST_ABI_OPENCL_DEFINE_(VAST_RUN_FRAME)                              \
	VAST_ABI_OPENCL_DEFINE_(VAST_RUN_BUF)                                \
	VAST_ABI_OPENCL_DEFINE_(VAST_BOX_FIRST)                              \
	VAST_ABI_OPENCL_DEFINE_(VAST_BOX_PITCH)                              \
	VAST_ABI_OPENCL_DEFINE_(VAST_BOX_SHAPE)                              \
	VAST_ABI_OPENCL_DEFINE_(VAST_BOX_FRAME)                              \
	"#define VAST_FIELD(q, i) VAST_FIELD_(q, i)\n"                       \
	"#define VAST_FIELD_(q, i) ((q).s ## i)\n"                           \
	VAST_ABI_OPENCL_DEFINE_(VAST_FAULTED)                                \
	VAST_ABI_OPENCL_DEFINE_(VAST_PASINFO_ROW_BYTES)                      \
	VAST_ABI_OPENCL_DEFINE_(VAST_PASINFO_GROUPS)                         \
	VAST_ABI_OPENCL_DEFINE_(VAST_PASINFO_NSLOTS)                         \
	"#define VAST_PASINFO_OFF(s) " VAST_STR(VAST_PASINFO_OFF(s)) "\n"    \
	"#define VAST_PASINFO_PAGES(s) " VAST_STR(VAST_PASINFO_PAGES(s)) "\n" \
	"#define VAST_PASINFO_BYTES(n, s) " VAST_STR(VAST_PASINFO_BYTES(n, s)) "\n"

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
	/* A byte merge of the outputs of the devices a launch is split
	 * over is exact: 0 when the kernel uses global atomics, whose
	 * partial results no byte merge combines (the runtime then keeps
	 * the launch on one device, docs/multi.md). The analysis clears it
	 * also where the merge kernel it used to feed (no longer generated)
	 * could not be exact: docs/report.md. */
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
#define VAST_FP_NAME(kind, d) (VAST_CAST(unsigned, kind) << 8 | VAST_CAST(unsigned, d))
#define VAST_FP_KIND(name) ((name) >> 8)
#define VAST_FP_INDEX(name) ((name) & 0xffu)
#define VAST_FP_MAX_SYMS 3
#define VAST_FP_MAX_LOOPS 6

typedef struct vast_fp_term {
	vast_i64 coef;
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
	vast_i64 step;
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
	vast_u64 source_hash;         /* vast_hash_bytes() of its bytes */
	vast_u64 source_size;
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
 * so both hash the same way. The constants are spelled without the
 * suffix ull, which C89 lacks. */
#define VAST_HASH_SEED ((VAST_CAST(vast_u64, 0xcbf29ce4u) << 32) | 0x84222325u)
static VAST_INLINE vast_u64 vast_hash_bytes(vast_u64 h, const void *data, vast_u64 n)
{
#ifdef __cplusplus
	const unsigned char *p = static_cast<const unsigned char *>(data);
#else
	const unsigned char *p = (const unsigned char *)data;
#endif
	vast_u64 prime = 1, i;
	prime = prime << 40 | 0x1b3u; /* 1099511628211 */
	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= prime;
	}
	return h;
}

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
#ifdef __cplusplus
}
#endif
#endif
