/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the files of lib/analysis share and nobody else sees.
 *
 * The passes, in the order program.c runs them:
 *   preprocess.c  clang -E, system-header regions dropped, #line kept
 *   parse.c       libclang TU over that buffer; the cursor tree copied
 *                 into a flat node array with parent links (an_node)
 *   model.c       functions, parameters, variables, statements, calls
 *   access.c      every global access and its mode
 *   pointsto.c    points-to per kernel (and reasons.c: why a kernel
 *                 cannot be virtualized, as points-to shows it)
 *   taint.c       what depends on data loaded from global memory
 *   pattern.c     the address pattern of every access
 *   slice.c       keep flags and roles per variant (analysis.h header)
 *   footprint.c   per kernel and access, the bytes it touches
 *   report.c      the JSON report
 * Memory: everything the public an_program points to is owned by it and
 * freed by an_program_destroy(); the analysis context (an_ctx) and the
 * libclang objects live only inside an_program_create().
 */
#ifndef VAST_AN_INTERNAL_H
#define VAST_AN_INTERNAL_H

#include <clang-c/Index.h>
#include <stdint.h>
#include "analysis.h"

/* Growable arrays: `T *a; unsigned n, cap;` grown by an_grow(). */
void *an_grow_(void *a, unsigned n, unsigned *cap, size_t elem);
#define AN_PUSH(arr, n, cap) \
	((arr) = an_grow_((arr), (n), &(cap), sizeof *(arr)), &(arr)[(n)++])

void *an_xmalloc(size_t n);
void *an_xcalloc(size_t n, size_t m);
char *an_xstrdup(const char *s);
char *an_strndup(const char *s, size_t n);
/* Copies and disposes a CXString at once. */
char *an_cxstr(CXString s);

/* The public program plus what only the library sees. */
typedef struct an_program_impl {
	an_program pub;
	char **names;   /* interned file names that an_loc.file points to */
	unsigned nnames, capnames;
	unsigned capdevmacros, capincludes;
	/* Per kernel f and access a, the kernel's buffer parameters the
	 * access may reach: kacc[f * naccesses + a] (0 for non-kernels).
	 * an_access.params is the union over kernels, whose bits name
	 * different parameters. */
	unsigned *kacc;
} an_program_impl;

const char *an_intern_name(an_program *p, const char *name);

/* One cursor of a function body (or of a program-scope declaration). */
typedef struct an_node {
	enum CXCursorKind kind;
	CXCursor cur;
	unsigned begin, end;  /* offsets into text */
	int parent;           /* node index, -1 at the root of a function */
	int last;             /* nodes are in pre-order: the subtree is [n, last] */
	/* The nearest node from this one up (itself included) whose parent
	 * is an if, for, while, do, switch, ?:, && or ||, else -1: a walk up
	 * to the conditions around a node skips what lies between, so a
	 * 40,000-term sum costs one step per operand, not 40,000
	 * (an_ctl_next). */
	int ctl;
	/* The nearest proper ancestor that is an access or a call, else -1
	 * (access.c, for slice.c's walk to the access around a node). */
	int encl;
	int *kids; unsigned nkids, capkids;
	int func;             /* function index, -1 for program scope */
	int stmt;             /* innermost statement (index into stmts) */
	int var;              /* DeclRefExpr/VarDecl/ParmDecl: variable, else -1 */
	int fn_ref;           /* CallExpr: callee function index or -1 */
	char *callee;         /* CallExpr: callee name, else NULL */
	int access;           /* the access whose expr is this node, else -1 */
	int call;             /* the an_call of this CallExpr, else -1 */
	int op;               /* CXBinaryOperatorKind / CXUnaryOperatorKind */
	int header;           /* inside the header of its control statement */
	int ptr_store;        /* a store through a private or local pointer */
	int partial;          /* access: a store to some components of a vector */
	unsigned part_off, part_size; /* its bytes, when contiguous; else 0 */
} an_node;

/* A variable: local, parameter, or program-scope. */
typedef struct an_var {
	char *name;
	unsigned key;         /* offset of its name in text: identifies it */
	int func;             /* -1: program scope */
	int param;            /* parameter index or -1 */
	int node;             /* its VarDecl/ParmDecl node, -1 for program scope */
	unsigned as;          /* address space of the variable itself */
	int is_ptr;
	unsigned pointee_as;  /* pointers: address space of the pointee */
	int is_array;
	int is_local_mem;     /* __local variable, or pointer into __local */
	int addr_taken;
	int ndefs;            /* assignments outside its declaration */
	int has_init;
	int induction;        /* loop induction variable of a for */
	int tainted;          /* depends on data loaded from global memory */
	int cls;              /* pattern class, see pattern.c; -1 unknown */
} an_var;

enum { AN_LANG_DEFAULT = 0, AN_AS_GLOBAL = 1, AN_AS_LOCAL = 2,
       AN_AS_CONSTANT = 3, AN_AS_PRIVATE = 4, AN_AS_GENERIC = 5 };

/* A definition of a variable inside a statement (slice.c). */
typedef struct an_def {
	int var;
	int node;             /* the assignment / declaration node */
} an_def;

/* A construct that makes every kernel reaching its function not
 * virtualizable. */
typedef struct an_bad {
	int func;
	int node;
	const char *reason;   /* static string */
} an_bad;

/* Per kernel facts that pattern.c computes and slice.c/report.c use. */
typedef struct an_kfacts {
	uint64_t *pts;        /* per variable */
	uint64_t *ret;        /* per function: points-to of its return */
	unsigned char *reach; /* per function: reachable from the kernel */
	unsigned *acc_bits;   /* per access: params reached from this kernel */
} an_kfacts;

/* Points-to bits beyond the 32 parameter bits. */
#define AN_PT_UNKNOWN   (1ull << 40)
#define AN_PT_CONSTVAR  (1ull << 41) /* program-scope __constant */
#define AN_PT_GLOBALVAR (1ull << 42) /* program-scope __global */
#define AN_PT_PARAMS    0xffffffffull

typedef struct an_colmap an_colmap; /* colmap.c */

typedef struct an_ctx {
	an_program *p;
	const char *path;
	CXIndex index;
	CXTranslationUnit tu;
	an_node *nodes; unsigned nnodes, capnodes;
	an_var *vars; unsigned nvars, capvars;
	int *func_node;       /* per function: its FunctionDecl node */
	int *stmt_node;       /* per statement: its node */
	unsigned capfuncs, capstmts, capacc, capcalls;
	an_def *defs; unsigned ndefs, capdefs;
	an_kfacts *kf;        /* per function (kernels only filled) */
	int *effectful[AN_NSLICED]; /* per function */
	an_bad *bad; unsigned nbad, capbad;
	int errors;
	an_colmap *cm;        /* set when the text went through clang -E */
	CXFile main_file;     /* the preprocessed buffer, in the TU */
	an_devmacro *predef;  /* device-dependent macros as predefined */
	unsigned npredef, cappredef;
	/* model.c, while it builds the model: text offset -> variable + 1,
	 * and -> function + 1 */
	int *var_at, *fn_at;
	/* taint.c, per function: its return value is tainted, it runs under
	 * a tainted condition, it may store tainted data through a private
	 * or local pointer (into its callers' variables) */
	int *ret_taint, *fn_ctl_taint, *store_taint;
	/* taint.c, per function: it reads what a private or local pointer
	 * points to, other than as the value of a global store
	 * (an_pointee_reads) */
	unsigned char *pointee_read;
	/* slice.c, per variant and function: some caller's slice needs what
	 * the function stores through private pointers into its variables */
	unsigned char *out_needed[AN_NSLICED];
	/* pattern.c, per variable: its class + 1 once known in this round,
	 * -1 while it is being computed */
	signed char *cls_memo;
	/* pattern.c, per access: its address depends on global data */
	unsigned char *addr_taint;
	/* program.c, per access: its node, made when first asked */
	int *acc_node;
	/* diag.c: a located diagnostic shows its source line and a caret
	 * (an_options.caret_diagnostics) */
	int caret;
} an_ctx;

/* A diagnostic in the user's file, as an_diag_error/warning print them,
 * then, when c->caret, the line and a caret under loc's column. */
void an_error_at(const an_ctx *c, an_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void an_warning_at(const an_ctx *c, an_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An internal error: a bug of vastcc, never of the user's program. The
 * analysis goes on to its end and an_program_create() fails. */
void an_diag_internal(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define AN_INTERNAL(c, ...) \
	((c)->errors++, an_diag_internal(__FILE__, __LINE__, __VA_ARGS__))

/* preprocess.c */
int an_preprocess(an_ctx *c, const char *path, const an_options *opt,
                  char **std_out);
char *an_normalize_options(const char *s);
unsigned an_cl_std_version(const char *std);

/* devmacros.c: the device-dependent macros the user's files name */
int an_is_device_macro(const char *s, size_t n);
/* value NULL: #undef */
void an_devmacro_predef(an_ctx *c, const char *name, size_t n, const char *value,
                        size_t vn);
void an_devmacro_scan(an_ctx *c, const char *s, size_t n);
void an_devmacro_finish(an_ctx *c);
/* The -U/-D words for opt's device options, appended to w; predefs is
 * the `clang -dM -E` output of an empty file (only read when
 * opt->device_extensions is set). */
void an_devmacro_args(const an_options *opt, const char *predefs, size_t len,
                      char ***w, unsigned *nw, unsigned *cap);

/* colmap.c: user columns of preprocessed-text locations */
void an_colmap_start(an_ctx *c);
void an_colmap_define(an_ctx *c, const char *name, size_t n, int funclike);
an_loc an_colmap_loc(an_ctx *c, an_loc loc, unsigned off);
void an_colmap_free(an_ctx *c);

/* parse.c */
int an_parse(an_ctx *c, const char *cl_std);
an_loc an_loc_of(an_ctx *c, CXSourceLocation l);
an_loc an_node_loc(an_ctx *c, int n);
unsigned an_offset(CXSourceLocation l);
int an_strip(an_ctx *c, int n);   /* skip parens and implicit casts down */
int an_up(an_ctx *c, int n);      /* parent, skipping parens and casts */
int an_is_cast_like(an_ctx *c, int n);
CXType an_node_type(an_ctx *c, int n);
/* Pointer-valued node, including a parameter declared as an array. */
int an_node_is_ptr(an_ctx *c, int n);
CXType an_node_pointee(an_ctx *c, int n);
unsigned an_type_as(CXType t);
int an_type_is_ptr(CXType t);
char *an_type_str(CXType t);

/* model.c */
int an_build_model(an_ctx *c);
int an_var_of_cursor(an_ctx *c, CXCursor decl);
int an_var_init(an_ctx *c, int vardecl); /* its initializer node or -1 */
int an_in(const an_range *r, unsigned b, unsigned e);
unsigned an_func_end(an_ctx *c, int f); /* f's nodes: [func_node[f], end) */
/* The next node up from m (m's parent a control construct) whose parent
 * is one, or -1: the edges from n up into the conditions around it are
 *   for (int m = c->nodes[n].ctl; m >= 0; m = an_ctl_next(c, m))
 *           (m, c->nodes[m].parent) */
int an_ctl_next(an_ctx *c, int m);
int an_param_var(an_ctx *c, int f, unsigned i); /* variable of parameter i */

/* access.c */
void an_find_accesses(an_ctx *c);
int an_access_base(an_ctx *c, int n); /* pointer operand node of an access */

void an_add_bad(an_ctx *c, int node, const char *reason);

/* pointsto.c */
void an_points_to(an_ctx *c);
uint64_t an_pts_expr(an_ctx *c, an_kfacts *k, int kern, int n);
/* The private variable an assignment to lhs defines, or -1 with *mem set
 * when it stores into memory. */
int an_lhs_var(an_ctx *c, int lhs, int *mem);

/* reasons.c */
void an_not_virtualizable(an_ctx *c, int kern, an_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void an_kernel_refusals(an_ctx *c, int kern); /* after its points-to */

/* taint.c */
void an_taint(an_ctx *c);
int an_expr_tainted(an_ctx *c, int n, int self); /* n's value, less node self */
int an_ctl_tainted(an_ctx *c, int n); /* the conditions that decide n runs */
int an_passes_private_ptr(an_ctx *c, int call);
void an_pointee_reads(an_ctx *c);
/* The private variable whose memory the pointer argument n points into
 * (`&v`, `&v[i]`, `&v.f`, an array v), or -1. */
int an_private_root(an_ctx *c, int n);
/* After f's slice for variant v (inR: the variables it needs): the
 * helpers f passes private pointers to whose stores f needs. */
void an_note_out_needed(an_ctx *c, int v, int f, const char *inR);

/* pattern.c */
void an_patterns(an_ctx *c);
int an_in_loop(an_ctx *c, int n);
/* Statement t is an `if` on loaded data that variant v may drop, its
 * accesses all covered by accesses that run anyway. */
int an_guard_covered(an_ctx *c, int v, int t);

/* footprint.c */
void an_footprints(an_ctx *c);
void an_footprints_free(an_func *fn); /* by an_program_destroy() */

/* slice.c */
void an_slice(an_ctx *c);

/* program.c */
void an_finish_kernels(an_ctx *c);
/* Kernel f's inspector may load access ai although f writes its buffer
 * (written: the parameter bits f stores to): it reads the value the
 * work-item reads (Rodinia BFS's mask[tid]). */
int an_load_sees_original(an_ctx *c, int f, unsigned ai, unsigned written);

/* items.c: an_func.items_independent of every kernel */
void an_items(an_ctx *c);

#endif
