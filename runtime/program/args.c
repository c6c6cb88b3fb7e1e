/* SPDX-License-Identifier: MIT */
/*
 * args.c - the arguments of a launch's generated variants: the program's
 * own as the variants take them (scalars as captured at the enqueue,
 * each buffer as the virtual base of its slot, slot << VAST_VA_SHIFT,
 * which the variant's software MMU translates), then the tail, set by
 * vast/stub.h's table of it, VAST_TAIL_ARGS, the one lib/rewrite writes
 * the variants' parameter lists from (docs/generated-kernels.md). No
 * other file places a tail argument by its index.
 */
#include "program/program.h"

int vrt_arg_is_buffer(const vrt_launch *L, cl_uint i)
{
	const vrt_kernel *k = L->k;
	if (k->info)
		return k->info->params[i].kind == VAST_PARAM_GLOBAL ||
		       k->info->params[i].kind == VAST_PARAM_CONSTANT;
	return L->args[i].mem != NULL;
}

cl_int vrt_set_user_args(vrt_launch *L, cl_kernel kv)
{
	vrt_kernel *k = L->k;
	for (cl_uint i = 0; i < k->nargs; i++) {
		cl_int err;
		if (vrt_arg_is_buffer(L, i)) {
			cl_ulong va = (cl_ulong)L->arg_slot[i] << VAST_VA_SHIFT;
			err = vrt_real.clSetKernelArg(kv, i, sizeof va, &va);
		} else {
			err = vrt_real.clSetKernelArg(kv, i, L->args[i].size, L->args[i].bytes);
		}
		if (err != CL_SUCCESS) {
			vrt_log(VRT_LOG_WARN, "kernel '%s': setting argument %u of a generated variant failed: %s",
			        k->name, i, vrt_cl_error_name(err));
			return err;
		}
	}
	return CL_SUCCESS;
}

cl_int vrt_set_arg(cl_kernel k, cl_uint i, size_t size, const void *value)
{
	cl_int err = vrt_real.clSetKernelArg(k, i, size, value);
	if (err != CL_SUCCESS) {
		char name[256] = "?";
		vrt_real.clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
		vrt_log(VRT_LOG_WARN, "kernel '%s': setting argument %u failed: %s", name, i,
		        vrt_cl_error_name(err));
	}
	return err;
}

/* The OpenCL type is a pointer: a buffer, whose NULL cl_mem goes as a
 * NULL value (OpenCL 1.2 §5.7.2, a NULL global pointer in the kernel). */
static int is_pointer(const char *cltype)
{
	size_t n = strlen(cltype);
	while (n && cltype[n - 1] == ' ')
		n--;
	return n && cltype[n - 1] == '*';
}

/* n values of `size` bytes at arguments at, at + stride, ... */
static cl_int set_row(cl_kernel kv, cl_uint at, cl_uint stride, size_t n, size_t size,
                      const void *values, int pointer)
{
	const unsigned char *v = values;
	for (size_t i = 0; i < n; i++, v += size) {
		cl_mem m = NULL;
		if (pointer)
			memcpy(&m, v, sizeof m);
		cl_int err = vrt_set_arg(kv, at + (cl_uint)i * stride, size, pointer && !m ? NULL : v);
		if (err != CL_SUCCESS)
			return err;
	}
	return CL_SUCCESS;
}

/* A row the variant does not take: the runtime's own error. */
static cl_int no_such_arg(unsigned kind, const char *name, int line)
{
	const char *base = strrchr(__FILE__, '/');
	vrt_log(VRT_LOG_WARN, "internal error at %s:%d: variant %u has no tail argument '%s'",
	        base ? base + 1 : __FILE__, line, kind, name);
	return CL_INVALID_ARG_INDEX;
}

cl_int vrt_tailargs_set(cl_kernel kv, cl_uint nargs, unsigned kind, const vrt_tailargs *t)
{
	cl_int err = CL_SUCCESS;
	/* The rows repeated per parameter come as one group per parameter:
	 * a row's next argument is `stride` on. */
	cl_uint stride = 0;
#define VRT_TAIL_EACH(name, count, each, cltype, host, i, p, s, pi)    \
	stride += (each) && VAST_TAIL_AT(kind, i, p, s, pi) != VAST_TAIL_NO;
	VAST_TAIL_ARGS(VRT_TAIL_EACH)
#undef VRT_TAIL_EACH
#define VRT_TAIL_SET(name, count, each, cltype, host, i, p, s, pi)                          \
	if (err == CL_SUCCESS && t->name) {                                                 \
		int at = VAST_TAIL_AT(kind, i, p, s, pi);                                   \
		if (at == VAST_TAIL_NO) {                                                   \
			err = no_such_arg(kind, #name, __LINE__);                          \
		} else if (each) {                                                          \
			err = set_row(kv, nargs + (cl_uint)at + (cl_uint)t->each_first * stride, \
			              stride, t->neach, sizeof(host), t->name, is_pointer(cltype)); \
		} else {                                                                    \
			err = set_row(kv, nargs + (cl_uint)at, 1, (count), sizeof(host), t->name,  \
			              is_pointer(cltype));                                  \
		}                                                                           \
	}
	VAST_TAIL_ARGS(VRT_TAIL_SET)
#undef VRT_TAIL_SET
	return err;
}

void vrt_tailargs_geometry(const vrt_launch *L, vrt_geometry *g, vrt_tailargs *t)
{
	for (unsigned d = 0; d < 3; d++) {
		g->gsize.s[d] = L->gsize[d];
		g->lsize.s[d] = L->lsize[d];
		g->goff.s[d] = L->goff[d];
	}
	g->gsize.s[3] = L->dim;
	g->lsize.s[3] = g->goff.s[3] = 0;
	t->gsize = &g->gsize;
	t->lsize = &g->lsize;
	t->goff = &g->goff;
}
