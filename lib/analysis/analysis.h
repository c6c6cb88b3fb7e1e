/* SPDX-License-Identifier: MIT */
/*
 * analysis.h - the kernel model: what lib/analysis learns from a .cl file
 * and everything lib/rewrite and the driver may see of it.
 *
 * Pipeline: an_program_create() preprocesses the file with the real clang
 * (user macros and build-option macros expanded, OpenCL headers left out,
 * `#line` directives keeping user locations), parses the result with
 * libclang, and fills the model below. Every range indexes
 * an_program.text, the preprocessed buffer; every an_loc is the user's
 * location (file, line, column) for diagnostics and reports.
 *
 * Ownership: the an_program owns every string and array it points to;
 * an_program_destroy() frees them all. Not thread-safe; one program per
 * thread.
 *
 * The slice. For the inspector (AN_V_INSPECT) and the merge kernel
 * (AN_V_MERGE) the analysis decides, per statement, whether it is kept,
 * and per access and call, its role. lib/rewrite renders exactly these
 * decisions and decides nothing itself:
 *   - A function body is always rendered. A statement with keep[v] set is
 *     rendered as its source text with the edits below applied.
 *   - A statement with keep[v] clear whose parent is kept (or which is a
 *     function body's direct child) is replaced by `{ ITEM; ITEM; }`, the
 *     items being, in source order, the accesses with role TOUCH or COPY
 *     and the calls with role EFFECT inside it that are not nested in
 *     another item; `;` when there are none. Newlines of the dropped text
 *     are kept so line numbers stay right.
 *   - Access roles: LOAD renders the access as a read of real data
 *     (inspector: from the data argument, marking its pages; merge: from
 *     the source frames); TOUCH as a mark of its pages; COPY (merge) as a
 *     copy of its bytes from source to destination frames; DROP renders
 *     nothing (only ever inside dropped text). The analysis guarantees that
 *     every access nested inside rendered text (kept statements, an item's
 *     address, a call's arguments) has role LOAD, and that no store is
 *     rendered as a LOAD (such kernels are not virtualizable).
 *   - Calls: target >= 0 with func.cloned set are renamed to the clone of
 *     the variant and get the context as first argument, wherever they are
 *     rendered; role EFFECT marks a call that is an item of a dropped
 *     statement (rendered `(void)clone(ctx, args)`).
 *   - Work-item functions (builtin != AN_BI_NONE) are renamed to the
 *     prelude's vast_ versions and get the context as first argument, in
 *     every variant.
 * The paged kernel (AN_V_PAGED) keeps everything and translates every
 * access; there is no slice for it.
 */
#ifndef VAST_ANALYSIS_H
#define VAST_ANALYSIS_H

#include <stddef.h>
#include "vast/stub.h"

typedef struct an_range {
	unsigned begin, end; /* byte offsets into an_program.text, [begin, end) */
} an_range;

typedef struct an_loc {
	const char *file; /* the user's file (or included file), as clang names it */
	unsigned line, col;
} an_loc;

enum an_variant { AN_V_INSPECT, AN_V_MERGE, AN_NSLICED };
#define AN_V_PAGED AN_NSLICED /* not sliced: only named for messages */

enum an_role {
	AN_ROLE_DROP,  /* rendered nowhere */
	AN_ROLE_TOUCH, /* inspector: mark the pages of its bytes */
	AN_ROLE_LOAD,  /* read real data (the value feeds kept code) */
	AN_ROLE_COPY,  /* merge: copy its bytes from source to destination */
	AN_ROLE_EFFECT /* calls only: an item of a dropped statement */
};

enum an_form {
	AN_FORM_SUBSCRIPT, /* p[i]                        address: &(expr) */
	AN_FORM_DEREF,     /* *p                          address: &(expr) */
	AN_FORM_ARROW,     /* p->f                        address: &(expr) */
	AN_FORM_VLOAD,     /* vloadN(off, p), vload_half[N](off, p), vloada_halfN */
	AN_FORM_VSTORE,    /* vstoreN(v, off, p), vstore_half[N][_rte..](v, off, p) */
	AN_FORM_ATOMIC     /* atomic_*(p, ...), atom_*(p, ...) */
};

typedef struct an_access {
	enum an_form form;
	unsigned mode;      /* VAST_MODE_R, _W, _RW (x += .., x++), _W|_ATOMIC */
	an_range expr;      /* whole expression; the call for VLOAD/VSTORE/ATOMIC */
	an_range ptr;       /* VLOAD/VSTORE/ATOMIC: the pointer argument */
	an_range off;       /* VLOAD/VSTORE: the offset argument */
	unsigned vec;       /* VLOAD/VSTORE: elements per offset step */
	unsigned size;      /* bytes accessed */
	/* A store to some components of a vector element (`v[i].y = ..`,
	 * `v[i].s23 = ..`, `v[i][1]++`): size is the element's (what the
	 * inspector marks and the paged kernel translates) and the bytes
	 * written are [part_off, part_off + part_size) of it, which is all
	 * the merge kernel may copy. part_size 0: the whole element. */
	unsigned part_off, part_size;
	/* Pointer type through which the bytes are read or written, address
	 * space normalized to __global: "__global float *". For VLOAD/VSTORE
	 * and ATOMIC it is the pointer argument's type, likewise normalized. */
	char *ptr_type;
	int func;           /* index into an_program.funcs */
	int stmt;           /* innermost enclosing statement */
	unsigned params;    /* bit set of the kernel's buffer params it may
	                       reach (bit i = param i); for accesses in helpers,
	                       the union over the kernels that call them */
	unsigned pattern;   /* enum vast_pattern */
	unsigned role[AN_NSLICED];
	/* The inspector marks it unguarded, outside an `if` on data the
	 * kernel writes that may skip it (slice.c): a superset of its pages. */
	unsigned unguarded;
	an_loc loc;
} an_access;

enum an_builtin {
	AN_BI_NONE,
	AN_BI_GLOBAL_ID, AN_BI_LOCAL_ID, AN_BI_GROUP_ID, AN_BI_NUM_GROUPS,
	AN_BI_GLOBAL_SIZE, AN_BI_LOCAL_SIZE, AN_BI_ENQUEUED_LOCAL_SIZE,
	AN_BI_GLOBAL_OFFSET, AN_BI_WORK_DIM, AN_BI_GLOBAL_LINEAR_ID,
	AN_BI_LOCAL_LINEAR_ID
};

typedef struct an_call {
	an_range expr;      /* the whole call expression */
	an_range callee;    /* the callee's name token */
	unsigned lparen;    /* offset of '(' */
	unsigned nargs;
	int target;         /* index into funcs for calls to functions defined
	                       in the file, else -1 */
	enum an_builtin builtin;
	int func;           /* function containing the call */
	int stmt;
	unsigned role[AN_NSLICED]; /* EFFECT, or DROP; a call rendered inside
	                              kept text is always rendered */
} an_call;

enum an_stmt_kind {
	AN_STMT_COMPOUND, AN_STMT_DECL, AN_STMT_EXPR, AN_STMT_IF, AN_STMT_FOR,
	AN_STMT_WHILE, AN_STMT_DO, AN_STMT_SWITCH, AN_STMT_CASE,
	AN_STMT_DEFAULT, AN_STMT_RETURN, AN_STMT_BREAK, AN_STMT_CONTINUE,
	AN_STMT_GOTO, AN_STMT_LABEL, AN_STMT_NULL, AN_STMT_OTHER
};

typedef struct an_stmt {
	enum an_stmt_kind kind;
	an_range range;     /* includes the trailing ';' where there is one */
	int parent;         /* enclosing statement, -1 for a function body */
	int func;
	unsigned keep[AN_NSLICED];
} an_stmt;

typedef struct an_param {
	char *name;
	an_range range;     /* the whole declaration, "__global float *a" */
	unsigned kind;      /* enum vast_param_kind */
	char *type;         /* its type, "__global const float *restrict" */
	char *elem_type;    /* buffers: pointee type, "const float" */
	unsigned elem_size; /* buffers: sizeof pointee, 0 if incomplete */
	unsigned mode;      /* enum vast_mode, from every access that reaches it */
	unsigned pattern;   /* enum vast_pattern, the worst of its accesses */
	unsigned inspect_reads; /* some access reaching it has role LOAD in the
	                           inspector */
	unsigned inspect_superset; /* some access reaching it is unguarded */
	an_loc loc;
} an_param;

/* The footprint of one access of a kernel (footprint.c), the stub's
 * vast_footprint with its own tables: offset, loop bounds and guards
 * index terms; loop_names name the counters for the report. */
typedef struct an_footprint {
	unsigned access;     /* index into an_program.accesses */
	unsigned params;     /* the kernel's buffer parameters it may reach */
	int affine;
	char *reason;        /* why not affine, one line; NULL when affine */
	int exact, must_write;
	vast_fp_term *terms; unsigned nterms;
	vast_fp_form offset;
	vast_fp_loop *loops; unsigned nloops;
	char **loop_names;
	vast_fp_form *guards; unsigned nguards;
	vast_fp_check *checks; unsigned nchecks, noffset_checks;
} an_footprint;

typedef struct an_func {
	char *name;
	int is_kernel;
	an_range range;      /* the whole definition */
	an_range name_range; /* the function's name token */
	unsigned lparen, rparen; /* offsets of the parameter list's parentheses */
	an_range body;       /* the body, braces included */
	int body_stmt;       /* index of the body in stmts */
	char *ret_type;      /* "void", "float4" */
	unsigned nparams;
	an_param *params;
	/* Helpers: cloned per variant because they (transitively) access
	 * global memory or call work-item functions. */
	int cloned;
	/* Helpers: some call in the variant uses the return value; when clear
	 * the clone returns void and `return e;` renders as the items of e. */
	unsigned ret_needed[AN_NSLICED];
	/* Kernels: */
	int virtualizable;
	char *reason;        /* why not, one line, no final period */
	an_loc reason_loc;
	int merge_exact;     /* no global atomics, no store to a part of a
	                        vector element (v[i].y = ..), and the merge
	                        kernel loads nothing from a buffer the kernel
	                        writes */
	/* Its work-items depend on nothing of their work-group (items.c):
	 * the runtime may run part of a group. Else why not, one line. */
	int items_independent;
	char items_reason[160];
	/* one per access the kernel reaches, in access order */
	an_footprint *fps; unsigned nfps;
	an_loc loc;
} an_func;

typedef struct an_options {
	const char *cl_options; /* "-DN=4 -I inc -cl-std=CL2.0", may be NULL */
	const char *clang;      /* clang executable for preprocessing */
	int verbose;            /* print the preprocessor command line */
	/* The device to preprocess for in place of the generic one
	 * (devmacros.c): its extensions, comma or space separated, NULL to
	 * keep clang's spir64 set; and "NAME=VALUE" / "-NAME" for the fixed
	 * device macros (__OPENCL_VERSION__, __IMAGE_SUPPORT__, ...). */
	const char *device_extensions;
	const char *const *device_macros;
	unsigned ndevice_macros;
	/* A directory searched for #include files before the -I directories
	 * of cl_options, NULL for none: compiling at clBuildProgram, the
	 * program's working directory, which OpenCL device compilers search
	 * and the private copy of the source is not in. */
	const char *include_dir;
	/* Stop after preprocessing: the program then holds path, source,
	 * cl_options, text and cpp, and no analysis. */
	int preprocess_only;
	/* Follow each diagnostic located in a file by its source line and a
	 * caret under the column, as clang does on a terminal. */
	int caret_diagnostics;
} an_options;

/* 1 when opt's device options are well-formed; else prints
 * "vastcc: error: invalid value ..." naming the flag and returns 0. */
int an_device_options_valid(const an_options *opt);

/* A device-dependent predefined macro the user's files name (cl_khr_fp64,
 * __IMAGE_SUPPORT__, __OPENCL_VERSION__, ...: devmacros.c), and the value
 * vastcc preprocessed with; NULL when it assumed the macro undefined. */
typedef struct an_devmacro {
	char *name;
	char *value;
} an_devmacro;

/* A file the preprocessor read for the program other than the .cl file
 * itself: what a dependency file lists (vastcc -MD). */
typedef struct an_include {
	char *path;  /* as the preprocessor names it ("inc/a.h") */
	int system;  /* a system header: clang's own, or under -isystem */
} an_include;

typedef struct an_program {
	char *path;            /* the .cl file as given */
	unsigned char *source; /* its bytes, as the host will read them */
	size_t source_size;
	unsigned long long source_hash; /* vast_hash_bytes over source */
	char *cl_options;      /* normalized: single spaces, trimmed */
	char *text;            /* preprocessed buffer; ranges index it */
	size_t len;
	/* The preprocessor's whole output (clang -E -dD): every line of
	 * every file it read and every macro, so it changes when any file
	 * the program includes does; the source itself when the
	 * preprocessor did not run. What a cache of compiled programs keys
	 * on (runtime/program/jit.c). */
	char *cpp;
	size_t cpp_len;
	an_func *funcs;      unsigned nfuncs;
	an_stmt *stmts;      unsigned nstmts;
	an_access *accesses; unsigned naccesses;
	an_call *calls;      unsigned ncalls;
	an_devmacro *devmacros; unsigned ndevmacros;
	/* every file included, directly or not, in the order first read;
	 * none when the file needed no preprocessor (it includes nothing) */
	an_include *includes; unsigned nincludes;
} an_program;

/* Preprocess, parse and analyse `path`. On errors (unreadable file,
 * preprocessor or parse errors) prints clang-style diagnostics on stderr
 * and returns NULL. Warnings (kernels that cannot be virtualized) are
 * printed as well and recorded in the model. */
an_program *an_program_create(const char *path, const an_options *opt);
void an_program_destroy(an_program *p);

/* The analysis as a JSON document (see docs/report.md); caller frees. */
char *an_report_json(const an_program *p);

/* Diagnostics, clang's format: "file:line:col: error: msg". */
void an_diag_error(an_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void an_diag_warning(an_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void an_diag_note(an_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
