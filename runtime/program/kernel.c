/* SPDX-License-Identifier: MIT */
/*
 * kernel.c - kernels and their arguments.
 *
 * Every kernel the program creates is a vrt_kernel around the real
 * original kernel, with the stub's table when its program matched one.
 * Arguments are recorded: a buffer argument can only be bound at launch,
 * when the runtime knows which device copy or which virtual base it
 * stands for; every other argument also goes to the real kernel at once
 * so the implementation validates it (OpenCL 1.2 §5.7.2 errors).
 * The generated variants vast_inspect_K / vast_paged_K / vast_straight_K
 * are created on first use, from the variants' program (variants.c), and
 * receive the recorded arguments at each launch.
 */
#include <stdio.h>
#include <string.h>

#include "program/program.h"

void vrt_kernel_take_info(vrt_kernel *k)
{
	if (!k->prog || k->info_from == k->prog->info)
		return;
	k->info_from = k->prog->info;
	k->info = vrt_program_kernel(k->info_from, k->name);
	if (k->info && k->info->nparams != k->nargs) {
		vrt_log(VRT_LOG_WARN, "kernel '%s' has %u arguments but its stub lists %u; running natively",
		        k->name, k->nargs, k->info->nparams);
		k->info = NULL;
	}
}

static vrt_kernel *wrap(vrt_program *p, cl_program real_prog, cl_kernel real,
                        const char *name, cl_int *errcode_ret)
{
	vrt_kernel *k = vrt_object_new(VRT_OBJ_KERNEL, sizeof *k);
	cl_int err = CL_OUT_OF_HOST_MEMORY;
	if (!k)
		goto fail;
	k->name = vrt_strdup(name);
	if (!k->name)
		goto fail;
	err = vrt_real.clGetKernelInfo(real, CL_KERNEL_NUM_ARGS, sizeof k->nargs, &k->nargs, NULL);
	if (err != CL_SUCCESS)
		goto fail;
	err = CL_OUT_OF_HOST_MEMORY;
	k->args = vrt_calloc(k->nargs ? k->nargs : 1, sizeof *k->args);
	if (!k->args)
		goto fail;
	k->refs = 1;
	k->real = real;
	k->real_prog = real_prog;
	k->prog = p;
	if (p) {
		vrt_lock();
		p->refs++;
		p->nkernels++;
		int took = vrt_program_analysis_poll(p);
		vrt_kernel_take_info(k);
		vrt_unlock();
		if (took)
			vrt_program_devices_prepare(p);
	}
	vrt_lock();
	k->stats = vrt_stats_for(name);
	/* a counter under the lock, as buffers' serials are (mem.c) */
	static unsigned long long serials;
	k->serial = ++serials;
	vrt_unlock();
	SET_ERR(CL_SUCCESS);
	return k;
fail:
	if (k) {
		vrt_free(k->name);
		vrt_object_retire(k);
	}
	vrt_real.clReleaseKernel(real);
	SET_ERR(err);
	return NULL;
}

/* clCreateKernel past the initialization, for clCreateKernelsInProgram
 * too (the runtime never calls its own entry points). */
static cl_kernel create_kernel(cl_program prog, const char *name, cl_int *errcode_ret)
{
	vrt_program *p = vrt_program_of(prog);
	if (!p && vrt_object_ours(prog)) {
		SET_ERR(CL_INVALID_PROGRAM);
		return NULL;
	}
	if (p && name && vrt_program_is_generated_name(p, name)) {
		SET_ERR(CL_INVALID_KERNEL_NAME);
		return NULL;
	}
	cl_program rp = p ? p->real : prog;
	cl_kernel real = vrt_real.clCreateKernel(rp, name, errcode_ret);
	if (!real)
		return NULL;
	return (cl_kernel)(void *)wrap(p, rp, real, name, errcode_ret);
}

cl_kernel vrt_api_clCreateKernel(cl_program prog, const char *name,
	cl_int *errcode_ret)
{
	if (vrt_init() != CL_SUCCESS) {
		SET_ERR(CL_OUT_OF_RESOURCES);
		return NULL;
	}
	if (vrt_native_mode())
		return vrt_real.clCreateKernel(prog, name, errcode_ret);
	return create_kernel(prog, name, errcode_ret);
}

static void kernel_free(vrt_kernel *k)
{
	vrt_real.clReleaseKernel(k->real);
	if (k->inspect)
		vrt_real.clReleaseKernel(k->inspect);
	if (k->paged)
		vrt_real.clReleaseKernel(k->paged);
	if (k->straight)
		vrt_real.clReleaseKernel(k->straight);
	for (cl_uint i = 0; i < k->nargs; i++) {
		vrt_free(k->args[i].bytes);
		if (k->args[i].mem)
			vrt_mem_unhold(k->args[i].mem);
	}
	vrt_free(k->args);
	vrt_free(k->name);
	vrt_plans_free(k->plans);
	if (k->prog) {
		k->prog->nkernels--;
		vrt_program_release(k->prog);
	}
	vrt_object_retire(k);
}

void vrt_kernel_release(vrt_kernel *k)
{
	if (--k->refs == 0)
		kernel_free(k);
}

cl_int vrt_api_clCreateKernelsInProgram(cl_program prog, cl_uint n,
	cl_kernel *kernels, cl_uint *nret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	if (vrt_native_mode())
		return vrt_real.clCreateKernelsInProgram(prog, n, kernels, nret);
	vrt_program *p = vrt_program_of(prog);
	if (!p && vrt_object_ours(prog))
		return CL_INVALID_PROGRAM;
	if (!p) {
		/* A foreign program: wrap each kernel so buffer arguments work. */
		cl_uint cnt;
		cl_int err = vrt_real.clCreateKernelsInProgram(prog, n, kernels, &cnt);
		if (err != CL_SUCCESS)
			return err;
		for (cl_uint i = 0; kernels && i < cnt; i++) {
			char name[256] = "";
			vrt_real.clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
			kernels[i] = (cl_kernel)(void *)wrap(NULL, prog, kernels[i], name, &err);
			if (!kernels[i]) {
				vrt_lock();
				for (cl_uint j = 0; j < i; j++)
					kernel_free((vrt_kernel *)(void *)kernels[j]);
				vrt_unlock();
				for (cl_uint j = i + 1; j < cnt; j++)
					vrt_real.clReleaseKernel(kernels[j]);
				return err;
			}
		}
		if (nret)
			*nret = cnt;
		return CL_SUCCESS;
	}
	cl_uint count = 0;
	char *names = vrt_program_kernel_names(p, &count);
	if (!names)
		return CL_INVALID_PROGRAM_EXECUTABLE;
	cl_int err = CL_SUCCESS;
	if (kernels && n < count)
		err = CL_INVALID_VALUE;
	cl_uint made = 0;
	char *save = NULL;
	for (char *t = strtok_r(names, ";", &save); kernels && t && err == CL_SUCCESS;
	     t = strtok_r(NULL, ";", &save)) {
		cl_kernel k = create_kernel(prog, t, &err);
		if (k)
			kernels[made++] = k;
	}
	if (err != CL_SUCCESS) {
		vrt_lock();
		while (made)
			kernel_free((vrt_kernel *)(void *)kernels[--made]);
		vrt_unlock();
	} else if (nret) {
		*nret = count;
	}
	vrt_free(names);
	return err;
}

/* Whether a launch with buffer m may page: m alone takes more than half
 * the budget a launch of it would have on a device the program is for.
 * Then the program's variants are built from now, in the background
 * (variants.c), while the program writes its inputs, not at the first
 * launch that pages. Asked at every buffer argument until they are:
 * the devices' budgets are asked of the driver once per program. */
static int may_page_with(vrt_program *p, const vrt_mem *m)
{
	if (vrt_native_mode())
		return 0;
	if (vrt_cfg.mode == VRT_RUN_PAGED)
		return 1;
	if (vrt_cfg.mem_percent)
		return vrt_cfg.mem_percent < 200;
	if (vrt_cfg.mem_bytes)
		return m->size > vrt_cfg.mem_bytes / 2;
	if (!p->page_from) {
		cl_device_id devs[VRT_MAX_DEVICES];
		size_t bytes = 0;
		p->page_from = ~0ULL;
		if (vrt_real.clGetProgramInfo(p->real, CL_PROGRAM_DEVICES, 0, NULL, &bytes) ==
		            CL_SUCCESS &&
		    bytes && bytes <= sizeof devs &&
		    vrt_real.clGetProgramInfo(p->real, CL_PROGRAM_DEVICES, bytes, devs, NULL) ==
		            CL_SUCCESS)
			for (size_t d = 0; d < bytes / sizeof *devs; d++) {
				unsigned long long half = vrt_budget(devs[d], 0) / 2;
				p->page_from = half < p->page_from ? half : p->page_from;
			}
	}
	return m->size > p->page_from;
}

cl_int vrt_api_clSetKernelArg(cl_kernel kernel, cl_uint i, size_t size,
	const void *value)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_kernel *k = vrt_kernel_of(kernel);
	if (!k)
		return vrt_object_ours(kernel) ? CL_INVALID_KERNEL
		       : vrt_real.clSetKernelArg(kernel, i, size, value);
	if (i >= k->nargs)
		return CL_INVALID_ARG_INDEX;
	int took = 0;
	vrt_lock();
	vrt_mem *m = NULL;
	if (value && size == sizeof(cl_mem))
		m = vrt_mem_of(*(void *const *)value);
	cl_int err = CL_SUCCESS;
	if (m) {
		/* Bytes naming one of our buffers. The driver judges whether
		 * the parameter takes a buffer (OpenCL 1.2 §5.7.2: a buffer
		 * argument may be NULL): CL_INVALID_ARG_SIZE for a smaller
		 * scalar; CL_INVALID_ARG_VALUE for a scalar of this size,
		 * whose value merely equals a handle. The buffer itself is
		 * bound at launch. */
		err = vrt_real.clSetKernelArg(k->real, i, size, NULL);
		if (err == CL_INVALID_ARG_VALUE)
			m = NULL;
	}
	if (!m)
		err = vrt_real.clSetKernelArg(k->real, i, size, value);
	void *copy = NULL;
	if (err == CL_SUCCESS && value) {
		copy = vrt_malloc(size);
		if (!copy)
			err = CL_OUT_OF_HOST_MEMORY;
		else
			memcpy(copy, value, size);
	}
	if (err == CL_SUCCESS) {
		vrt_arg *a = &k->args[i];
		vrt_free(a->bytes);
		/* The kernel holds its buffer arguments, so a buffer released
		 * by the program before the launch stays valid. */
		if (m)
			vrt_mem_hold(m);
		if (a->mem)
			vrt_mem_unhold(a->mem);
		a->set = 1;
		a->size = size;
		a->bytes = copy;
		a->mem = m;
		/* An analysis still running records the wish (vrt_program_may_page). */
		took = vrt_program_analysis_poll(k->prog);
		if (m && k->prog &&
		    (!vrt_variants_started(k->prog) || (k->prog->analysis && !k->prog->page_wanted)) &&
		    may_page_with(k->prog, m))
			vrt_program_may_page(k->prog, "a buffer argument takes half the budget");
	}
	vrt_unlock();
	if (took)
		vrt_program_devices_prepare(k->prog);
	return err;
}

cl_int vrt_api_clRetainKernel(cl_kernel kernel)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_kernel *k = vrt_kernel_of(kernel);
	if (!k)
		return vrt_object_ours(kernel) ? CL_INVALID_KERNEL
		       : vrt_real.clRetainKernel(kernel);
	vrt_lock();
	k->refs++;
	vrt_unlock();
	return CL_SUCCESS;
}

cl_int vrt_api_clReleaseKernel(cl_kernel kernel)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_kernel *k = vrt_kernel_of(kernel);
	if (!k)
		return vrt_object_ours(kernel) ? CL_INVALID_KERNEL
		       : vrt_real.clReleaseKernel(kernel);
	vrt_lock();
	vrt_kernel_release(k);
	vrt_unlock();
	return CL_SUCCESS;
}

cl_int vrt_api_clGetKernelInfo(cl_kernel kernel, cl_kernel_info param,
	size_t size, void *value, size_t *ret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_kernel *k = vrt_kernel_of(kernel);
	if (!k)
		return vrt_object_ours(kernel) ? CL_INVALID_KERNEL
		       : vrt_real.clGetKernelInfo(kernel, param, size, value, ret);
	if (param == CL_KERNEL_REFERENCE_COUNT)
		return vrt_info_out(&k->refs, sizeof k->refs, size, value, ret);
	if (param == CL_KERNEL_PROGRAM) {
		cl_program p = k->prog ? (cl_program)(void *)k->prog : k->real_prog;
		return vrt_info_out(&p, sizeof p, size, value, ret);
	}
	return vrt_real.clGetKernelInfo(k->real, param, size, value, ret);
}

cl_int vrt_api_clGetKernelArgInfo(cl_kernel kernel, cl_uint a,
	cl_kernel_arg_info param, size_t size, void *value, size_t *ret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_kernel *k = vrt_kernel_of(kernel);
	if (!k && vrt_object_ours(kernel))
		return CL_INVALID_KERNEL;
	return vrt_real.clGetKernelArgInfo(k ? k->real : kernel, a, param, size, value, ret);
}

cl_int vrt_api_clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id d,
	cl_kernel_work_group_info param, size_t size, void *value, size_t *ret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_kernel *k = vrt_kernel_of(kernel);
	if (!k && vrt_object_ours(kernel))
		return CL_INVALID_KERNEL;
	return vrt_real.clGetKernelWorkGroupInfo(k ? k->real : kernel, d, param, size, value, ret);
}

void vrt_variant_name(const vrt_kernel *k, const char *what, char *name, size_t n)
{
	snprintf(name, n, "%s%s_%s", k->prog->stub->prefix, what, k->name);
}

cl_int vrt_kernel_variants(const vrt_kernel *k, cl_program *out)
{
	/* A share of a launch split over devices (multi.c) is a copy of k
	 * whose real_prog is the generated program of its device. */
	if (k->real_prog != k->prog->real) {
		*out = k->real_prog;
		return CL_SUCCESS;
	}
	return vrt_variants_program(k->prog, out);
}

cl_int vrt_kernel_variant(vrt_kernel *k, const char *what, cl_kernel *out)
{
	cl_kernel *slot = !strcmp(what, "inspect") ? &k->inspect
	                  : !strcmp(what, "straight") ? &k->straight : &k->paged;
	if (!*slot) {
		char name[512];
		vrt_variant_name(k, what, name, sizeof name);
		cl_program variants;
		cl_int err = vrt_kernel_variants(k, &variants);
		if (err != CL_SUCCESS)
			return err;
		*slot = vrt_real.clCreateKernel(variants, name, &err);
		if (!*slot) {
			vrt_log(VRT_LOG_WARN, "kernel '%s' has no generated '%s': %s", k->name,
			        name, vrt_cl_error_name(err));
			return err;
		}
	}
	*out = *slot;
	return CL_SUCCESS;
}

/* The launch may run as smaller work-groups than it has: the program
 * left the local size to the implementation (OpenCL 1.2 §5.8:
 * local_work_size NULL), or the kernel's work-items depend on nothing of
 * their group (vast_kernel_info.items_independent: no barrier, no
 * __local memory, no local or group id or size but in the global id),
 * so any subsets of a group's work-items compute what the whole group
 * does, and the paged kernel rebuilds their global ids from the smaller
 * local size (vast_init_ids). Not a kernel declared reqd_work_group_size: its
 * variants are compiled for that size (lib/rewrite/kernels.c), and not a
 * share of a launch split over devices, whose window counts groups. */
int vrt_local_may_shrink(const vrt_launch *L)
{
	const vrt_kernel *k = L->k;
	if (L->local_free)
		return 1;
	return vrt_cfg.wgsplit && !L->share && k->info && k->info->items_independent &&
	       !(k->wg.reqd[0] || k->wg.reqd[1] || k->wg.reqd[2]);
}
