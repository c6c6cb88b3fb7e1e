/* SPDX-License-Identifier: MIT */
/*
 * rewrite.h - lib/rewrite: the kernel model of analysis.h plus its source
 * text in, the generated OpenCL program and the host stub out.
 *
 * The public part is the two emitters at the top. The rest is internal to
 * lib/rewrite (and its unit tests), sectioned by the file that defines it:
 *
 *   buf.c      growable strings, internal-error reporting
 *   names.c    the prefix of every generated name
 *   depth.c    functions whose generated code would nest too deep
 *   edit.c     the source edit buffer: nested replacements of text ranges
 *   lines.c    user line numbers of offsets in an_program.text (#line)
 *   prelude.c  the OpenCL C prelude (prelude.cl, embedded at build time)
 *   render.c   a function body rendered for one variant
 *   clones.c   helper clones vast_inspect_NAME / _paged_ / _straight_NAME
 *   kernels.c  kernel variants vast_inspect_K / vast_paged_K /
 *              vast_straight_K / vast_pinspect_K
 *              (vast_ standing for the program's prefix, names.c)
 *   program.c  rw_emit_program: the whole generated program
 *   info.c     the vast_program_info both of these print
 *   stub.c     rw_emit_stub: the host stub C file
 *   json.c     rw_emit_json: the same as JSON (vastcc --emit-json)
 *
 * The calling convention of the generated kernels is
 * docs/generated-kernels.md; the stub's ABI is runtime/include/vast/stub.h.
 *
 * Memory: every function frees what it allocates; the emitters return
 * malloc'd strings the caller frees. Not thread-safe per program, but
 * holds no global state.
 */
#ifndef VAST_REWRITE_H
#define VAST_REWRITE_H

#include <stddef.h>
#include "analysis.h"

/* The generated OpenCL program for p (see docs/generated-kernels.md),
 * malloc'd; NULL only on internal errors, which are printed as
 * "vastcc: internal error at FILE:LINE: ...". */
char *rw_emit_program(const an_program *p);
/* The same, and in *too_deep (malloc'd, when not NULL) rw_too_deep's
 * answer it was made with: what rw_emit_stub_depth and
 * rw_info_create_depth take instead of rendering every variant again. */
char *rw_emit_program_depth(const an_program *p, unsigned char **too_deep);

/* The host stub C file for p whose generated program is program_text
 * (rw_emit_program's result; NULL: generate it here), malloc'd; NULL only
 * on internal errors. */
char *rw_emit_stub(const an_program *p, const char *program_text);
/* The same, given rw_too_deep's answer for p (NULL: worked out here). */
char *rw_emit_stub_depth(const an_program *p, const char *program_text,
                         const unsigned char *too_deep);

/* The same program as JSON (docs/json.md): what `vastcc --emit-json`
 * writes and libvastrt's vrt_stub_from_json reads; malloc'd, NULL only on
 * internal errors. */
char *rw_emit_json(const an_program *p, const char *program_text);

/* info.c - the vast_program_info the stub and the JSON hold, built in
 * memory: both print it, so they cannot disagree. Strings are borrowed
 * from p and program_text (which must outlive it), except the prefix and
 * the locations; rw_info_destroy frees what it owns. NULL only after an
 * internal error. */
typedef struct rw_info {
	vast_program_info prog;
	unsigned *nterms; /* per kernel: its term table's length (implicit in the ABI) */
} rw_info;
rw_info *rw_info_create(const an_program *p, const char *program_text);
/* The same, given rw_too_deep's answer for p (NULL: worked out here). */
rw_info *rw_info_create_depth(const an_program *p, const char *program_text,
                              const unsigned char *too_deep);
void rw_info_destroy(rw_info *info);
/* Kernel k's footprint tables, in vast_kernel_footprints' order, and
 * their lengths. */
enum { RW_FP_FPS, RW_FP_TERMS, RW_FP_LOOPS, RW_FP_GUARDS, RW_FP_CHECKS, RW_FP_NTAB };
void rw_info_sizes(const rw_info *info, unsigned k, unsigned n[RW_FP_NTAB]);

/* ---- internal ---------------------------------------------------------- */

/* buf.c */
typedef struct rw_buf {
	char *s;    /* NUL-terminated when non-NULL */
	size_t len, cap;
	int oom;    /* an allocation failed; the content is incomplete */
} rw_buf;

void rw_buf_put(rw_buf *b, const char *s, size_t n);
void rw_buf_puts(rw_buf *b, const char *s);
void rw_buf_printf(rw_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The content, malloc'd (the buffer is left empty); NULL after an
 * allocation failure, reported as an internal error. */
char *rw_buf_take(rw_buf *b);
void rw_buf_free(rw_buf *b);

void rw_internal_error(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define RW_INTERNAL(...) rw_internal_error(__FILE__, __LINE__, __VA_ARGS__)

/* names.c - every name the generated program adds begins with pfx,
 * chosen so that no identifier of the program begins with it ("vast_" in
 * the usual case); RW_PREFIX_MAX bytes hold it. */
#define RW_PREFIX_MAX 16
void rw_prefix(const an_program *p, char pfx[RW_PREFIX_MAX]);
/* Append text (the prelude, written with "vast_" and "VAST_") with pfx
 * and its upper case in their place. */
void rw_put_prefixed(rw_buf *out, const char *text, const char *pfx);
/* The end of the comment or string or character literal that starts at
 * s[i], or i itself when none does. */
size_t rw_skip_non_code(const char *s, size_t n, size_t i);

/* depth.c - device compilers (clang's -fbracket-depth) accept at most
 * RW_MAX_NESTING nested parentheses, brackets or braces of each kind, and
 * translation wraps every access in more. Per function, 1 when its
 * generated code would pass the limit, or it calls a clone that does:
 * the function gets no clones or variants. calloc'd, caller frees; NULL
 * after an internal error. */
#define RW_MAX_NESTING 256
unsigned char *rw_too_deep(const an_program *p, const char *pfx);

/* edit.c - the edit buffer.
 *
 * An edit replaces the range [b, e) of the text by a list of pieces, each
 * literal text or a sub-range of [b, e) that is itself rendered with the
 * edits nested inside it (so wrapping A[B[i]] wraps the inner access inside
 * the outer one). An insertion is an edit with b == e.
 *
 * Nesting: edit Y is nested in edit X when X is a replacement and Y lies
 * inside it: for a replacement Y, X.b <= Y.b && Y.e <= X.e, and when both
 * ranges are equal the one added first is outside; for an insertion at x,
 * X.b < x < X.e (an insertion at a replacement's first offset comes before
 * it, one at its end after it). Insertions at the same offset keep the
 * order they were added in. Edits that overlap without nesting are an
 * internal error reported by rw_edits_render.
 *
 * rw_edits_render(b, e) emits the text of [b, e) with the maximal edits
 * inside it applied (insertions at x with b <= x < e), recursively. A
 * replacement is followed by as many '\n' as it lost against the text it
 * replaced, so #line-based line numbers stay right after it.
 */
typedef struct rw_edits rw_edits;

/* text must outlive the buffer; len is its length. */
rw_edits *rw_edits_create(const char *text, size_t len);
void rw_edits_destroy(rw_edits *ed);
/* Start a replacement of [b, e); the pieces added next belong to it. */
void rw_edit_begin(rw_edits *ed, unsigned b, unsigned e);
void rw_edit_lit(rw_edits *ed, const char *s);            /* copied */
void rw_edit_litf(rw_edits *ed, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rw_edit_src(rw_edits *ed, unsigned b, unsigned e);   /* inside [b,e) */
/* Shorthands: one literal piece. */
void rw_edit_replace(rw_edits *ed, unsigned b, unsigned e, const char *s);
void rw_edit_insert(rw_edits *ed, unsigned at, const char *s);
/* Append the rendering of [b, e) to out; 0, or -1 after an internal error
 * (already reported). */
int rw_edits_render(rw_edits *ed, unsigned b, unsigned e, rw_buf *out);

/* lines.c - the user's line of an offset in an_program.text, from the
 * `#line N "file"` and `# N "file"` directives before it. */
typedef struct rw_lines rw_lines;
rw_lines *rw_lines_create(const an_program *p);
void rw_lines_destroy(rw_lines *l);
/* Append `#line N "file"\n` for the line holding offset off. */
void rw_lines_directive(const rw_lines *l, unsigned off, rw_buf *out);
/* The line and file (as spelled in the directive, without quotes, not
 * NUL-terminated: *file_len bytes) of offset off. */
unsigned rw_lines_at(const rw_lines *l, unsigned off, const char **file,
                     size_t *file_len);

/* prelude.c */
extern const char rw_prelude_text[];

/* render.c */
/* No merge variant: the multi-device merge is a byte diff of the pages
 * two devices may both write, not a second run of the kernel
 * (docs/multi.md). */
enum rw_variant { RW_INSPECT, RW_PAGED, RW_STRAIGHT, RW_NVARIANTS };
extern const char *const rw_variant_name[RW_NVARIANTS]; /* "inspect".. */
/* The paged and straight variants run the whole body, every access
 * translated; they differ only in how (docs/generated-kernels.md). */
static inline int rw_runs_all(enum rw_variant v)
{
	return v == RW_PAGED || v == RW_STRAIGHT;
}

/* Append function f's body rendered for variant v: the slice and roles of
 * the model applied, accesses translated (none in a straight kernel with
 * pointers into the frames, rw_straight_physical), calls to clones and work-item
 * functions rewritten (analysis.h, top comment). With braces clear, only
 * what is between the body's braces (a kernel variant splices it into its
 * own outermost block). 0, or -1 after an internal error. */
int rw_render_body(const an_program *p, const char *pfx, int f,
                   enum rw_variant v, int braces, rw_buf *out);
/* The paged kernel loads the run of buffer parameter pa once in its
 * prologue (`ulong4 PFXrun_NAME`), and accesses known to reach only pa
 * translate through it with vast_trp: a named buffer parameter. */
int rw_hoists_run(const an_param *pa);
/* The clone's return type is void: a helper whose value variant v does not
 * need. */
int rw_returns_void(const an_program *p, int f, enum rw_variant v);

/* clones.c: prototypes then definitions of every helper clone. */
int rw_emit_clones(const an_program *p, const char *pfx, const rw_lines *l,
                   const unsigned char *too_deep, rw_buf *out);

/* kernels.c: PFXinspect_K, PFXpaged_K, PFXstraight_K (unless
 * rw_no_straight) and PFXpinspect_K (when rw_has_pinspect) of kernel f. */
int rw_emit_kernel_variants(const an_program *p, const char *pfx,
                            const rw_lines *l, int f, rw_buf *out);
/* Why kernel k gets no straight variant (a static string), or NULL. */
const char *rw_no_straight(const an_func *k);
/* The straight kernels of program p hold their __global buffers as
 * pointers into the frames (docs/generated-kernels.md): every access is
 * the original's, untranslated. Not where a kernel has a __constant
 * buffer: its pointer cannot point into the frames, a __global buffer,
 * and accesses that may reach it must translate virtual addresses. */
int rw_straight_physical(const an_program *p);
/* Whether kernel k's inspector reads a buffer's contents, so it gets the
 * paged inspector PFXpinspect_K. */
int rw_has_pinspect(const an_func *k);

#endif
