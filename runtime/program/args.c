/* SPDX-License-Identifier: MIT */
/*
 * args.c - the program's arguments of a launch, as its generated variants
 * (inspector, paged) take them: scalars as captured at the enqueue, each
 * buffer as the virtual base of its slot (slot << VAST_VA_SHIFT), which
 * the variant's software MMU translates (docs/generated-kernels.md).
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
