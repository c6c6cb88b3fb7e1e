/* SPDX-License-Identifier: MIT */
/*
 * clones.c - the helper clones of the generated program.
 *
 * Every helper the analysis marks cloned (it reaches global memory or a
 * work-item function) gets one clone per variant, vast_inspect_NAME,
 * vast_paged_NAME and vast_straight_NAME (vast_ being the program's prefix,
 * names.c: no user name begins with it, and a helper's name is never a
 * kernel's, so clones and kernel variants never collide), taking the
 * context first:
 *     RET vast_V_NAME(vast_ctx *vast_c, ORIGINAL PARAMETERS)
 * RET is void in a slice that does not use the helper's value. All
 * prototypes come first, so clones may call each other in any order (and
 * recursion, which OpenCL C forbids anyway, stays the device compiler's
 * diagnostic). A helper whose clones would nest too deep has none
 * (depth.c).
 */
#include <string.h>
#include "rewrite.h"

static void signature(const an_program *p, const char *pfx, int f,
                      enum rw_variant v, rw_buf *out)
{
	const an_func *fn = &p->funcs[f];
	unsigned b = fn->lparen + 1, e = fn->rparen;
	while (b < e && strchr(" \t\r\n", p->text[b]))
		b++;
	while (e > b && strchr(" \t\r\n", p->text[e - 1]))
		e--;
	int none = b == e || (e - b == 4 && !memcmp(p->text + b, "void", 4));
	rw_buf_printf(out, "%1$s %2$s%3$s_%4$s(%2$sctx *%2$sc",
	              rw_returns_void(p, f, v) ? "void" : fn->ret_type, pfx,
	              rw_variant_name[v], fn->name);
	if (!none) {
		rw_buf_puts(out, ", ");
		rw_buf_put(out, p->text + b, e - b);
	}
	rw_buf_puts(out, ")");
}

static int is_clone(const an_func *fn)
{
	return fn->cloned && !fn->is_kernel;
}

int rw_emit_clones(const an_program *p, const char *pfx, const rw_lines *l,
                   const unsigned char *too_deep, rw_buf *out)
{
	for (unsigned f = 0; f < p->nfuncs; f++) {
		if (!is_clone(&p->funcs[f]) || too_deep[f])
			continue;
		for (int v = 0; v < RW_NVARIANTS; v++) {
			rw_lines_directive(l, p->funcs[f].range.begin, out);
			signature(p, pfx, (int)f, (enum rw_variant)v, out);
			rw_buf_puts(out, ";\n");
		}
	}
	for (unsigned f = 0; f < p->nfuncs; f++) {
		const an_func *fn = &p->funcs[f];
		if (!is_clone(fn) || too_deep[f])
			continue;
		for (int v = 0; v < RW_NVARIANTS; v++) {
			rw_lines_directive(l, fn->range.begin, out);
			signature(p, pfx, (int)f, (enum rw_variant)v, out);
			rw_buf_puts(out, "\n");
			rw_lines_directive(l, fn->body.begin, out);
			if (rw_render_body(p, pfx, (int)f, (enum rw_variant)v, 1, out) < 0)
				return -1;
			rw_buf_puts(out, "\n\n");
		}
	}
	return 0;
}
