/* SPDX-License-Identifier: MIT */
/*
 * program.c - programs: matched to what vastcc compiled, or native.
 *
 * clCreateProgramWithSource hashes the program's source (the strings
 * concatenated, as the compiler sees them) and looks for a stub that
 * registered the same hash and size. clBuildProgram builds the program's
 * own source, the original kernels and nothing else, as the driver
 * alone would; the stub's generated program, which holds the original
 * kernels again with their inspector/paged/straight variants, is a
 * second program built the first time a launch may page (variants.c).
 * When clBuildProgram's -D/-U/-I/-cl-std= options differ from those
 * vastcc parsed with, the generated code may not be what this build
 * means: one warning, and the program runs natively; so does a device
 * that predefines a macro the program tests otherwise than vastcc
 * assumed (devmacros.c). The choice is made at every build (a program
 * whose first build failed may be rebuilt with vastcc's options and
 * page). Programs from binaries or IL are the real ones, untouched.
 *
 * A build that has no stub, or none for its options and devices,
 * first compiles the program with vastcc (jit.c, docs/jit.md), then the
 * driver builds the original kernels; vastcc's result then
 * serves as the stub. When vastcc rejects the source and so does the
 * driver, the build fails (CL_BUILD_PROGRAM_FAILURE, OpenCL 1.2 §5.6.2)
 * and CL_PROGRAM_BUILD_LOG holds vastcc's diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/program.h"

/* The options that change what the source means, in a canonical form:
 * "-DX=1 -Ifoo -cl-std=CL2.0", sorted, one space apart. Caller frees. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *canonical_options(const char *opts)
{
	size_t n = opts ? strlen(opts) : 0;
	char *buf = vrt_malloc(n + 1), **toks = vrt_calloc(n / 2 + 2, sizeof *toks);
	char *out = vrt_malloc(2 * n + 2);
	if (!buf || !toks || !out) {
		vrt_free(buf), vrt_free(toks), vrt_free(out);
		return NULL;
	}
	memcpy(buf, opts ? opts : "", n + 1);
	size_t nt = 0;
	char *save = NULL;
	for (char *t = strtok_r(buf, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		int joined = (!strcmp(t, "-D") || !strcmp(t, "-U") || !strcmp(t, "-I"));
		if (joined) {
			/* "-D X" is "-DX": glue the argument to its flag. */
			char *arg = strtok_r(NULL, " \t\r\n", &save);
			if (!arg)
				break;
			t[2] = '\0';
			memmove(t + 2, arg, strlen(arg) + 1);
			toks[nt++] = t;
		} else if (!strncmp(t, "-D", 2) || !strncmp(t, "-U", 2) ||
		           !strncmp(t, "-I", 2) || !strncmp(t, "-cl-std=", 8)) {
			toks[nt++] = t;
		}
	}
	qsort(toks, nt, sizeof *toks, cmp_str);
	out[0] = '\0';
	size_t len = 0;
	for (size_t i = 0; i < nt; i++) {
		size_t l = strlen(toks[i]);
		if (i)
			out[len++] = ' ';
		memcpy(out + len, toks[i], l);
		len += l;
		out[len] = '\0';
	}
	vrt_free(buf);
	vrt_free(toks);
	return out;
}


cl_program vrt_api_clCreateProgramWithSource(cl_context ctx,
	cl_uint count, const char **strings, const size_t *lengths, cl_int *errcode_ret)
{
	if (vrt_init() != CL_SUCCESS) {
		SET_ERR(CL_OUT_OF_RESOURCES);
		return NULL;
	}
	if (vrt_native_mode())
		return vrt_real.clCreateProgramWithSource(ctx, count, strings, lengths, errcode_ret);
	if (count == 0 || !strings) {
		SET_ERR(CL_INVALID_VALUE);
		return NULL;
	}
	size_t total = 0;
	for (cl_uint i = 0; i < count; i++) {
		if (!strings[i]) {
			SET_ERR(CL_INVALID_VALUE);
			return NULL;
		}
		total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
	}
	vrt_program *p = vrt_object_new(VRT_OBJ_PROGRAM, sizeof *p);
	char *src = vrt_malloc(total + 1);
	if (!p || !src) {
		if (p)
			vrt_object_retire(p);
		vrt_free(src);
		SET_ERR(CL_OUT_OF_HOST_MEMORY);
		return NULL;
	}
	size_t at = 0;
	for (cl_uint i = 0; i < count; i++) {
		size_t l = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
		memcpy(src + at, strings[i], l);
		at += l;
	}
	src[total] = '\0';
	/* Lengths that count the terminating NUL (strlen(s) + 1, a file size
	 * plus one) are common; the text is the same, so is the match. */
	while (total > 0 && src[total - 1] == '\0')
		total--;
	unsigned long long h = vast_hash_bytes(VAST_HASH_SEED, src, total);
	vrt_lock();
	p->info = p->stub = vrt_registry_find(h, total);
	vrt_unlock();
	cl_int err;
	if (p->info)
		vrt_log(VRT_LOG_INFO, "program '%s' matched its vastcc stub", p->info->file);
	else
		vrt_log(VRT_LOG_INFO, "program (%zu bytes, hash %016llx) has no vastcc stub: %s", total, h,
		        vrt_cfg.jit ? "vastcc compiles it at its build" : "its kernels run natively");
	/* The original kernels, whatever the build decides: the variants are
	 * another program (variants.c). */
	p->real = vrt_real.clCreateProgramWithSource(ctx, count, strings, lengths, &err);
	if (!p->real) {
		vrt_free(src);
		vrt_object_retire(p);
		SET_ERR(err);
		return NULL;
	}
	p->refs = 1;
	p->ctx = ctx;
	p->source = src;
	p->source_len = total;
	SET_ERR(CL_SUCCESS);
	return (cl_program)(void *)p;
}

/* Whether p's stub holds for a build with options opts on devs: the
 * options mean what vastcc compiled, and the devices agree with the
 * macros it assumed (else why says so). 1, 0, or -1 out of memory. */
static int stub_holds(vrt_program *p, const char *opts, cl_uint ndev,
                      const cl_device_id *devs, char *why, size_t n)
{
	char *a = canonical_options(opts), *b = canonical_options(p->stub->cl_options);
	int holds = !a || !b ? -1
	            : !strcmp(a, b) && vrt_device_macros_match(p->stub, p->ctx, ndev, devs, opts,
	                                                       why, n);
	vrt_free(a);
	vrt_free(b);
	return holds;
}

/* Whether this build may page: the stub holds for it (p->info is the
 * stub), or not (NULL: native kernels). Decided per build, so a program
 * rebuilt with other options (a failed first build, a second
 * configuration) follows its latest options. Only while no kernel
 * exists: OpenCL 1.2 §5.6.2 forbids building a program with kernels
 * attached anyway. */
static cl_int choose_stub(vrt_program *p, const char *opts, cl_uint ndev,
                          const cl_device_id *devs, char *why, size_t n)
{
	int holds = stub_holds(p, opts, ndev, devs, why, n);
	if (holds < 0)
		return CL_OUT_OF_HOST_MEMORY;
	if (holds && p->info != p->stub)
		vrt_log(VRT_LOG_INFO, "program '%s' built with the options vastcc compiled it with: paging enabled",
		        p->stub->file);
	p->info = holds ? p->stub : NULL;
	return CL_SUCCESS;
}

/* The device a compile at build is for: the first of the build's, else
 * of the context's (the others are checked against it, choose_stub). */
static cl_device_id jit_device(vrt_program *p, const cl_device_id *devs)
{
	cl_device_id d = NULL;
	if (devs)
		return devs[0];
	if (clGetContextInfo(p->ctx, CL_CONTEXT_DEVICES, sizeof d, &d, NULL) != CL_SUCCESS)
		return NULL;
	return d;
}

/* Starts vastcc's analysis of p for this build when no stub holds for
 * it (analysis.c, jit.c), in *out (NULL: none): it runs in the
 * background, and is taken into p when a launch needs it or once it has
 * finished (take_analysis). Touches nothing of p but reads: the build
 * may yet be refused, and then the last build's analysis stays p's
 * (clBuildProgram replaces it). Called without the lock; p's source
 * never changes. CL_OUT_OF_HOST_MEMORY, else CL_SUCCESS. */
static cl_int jit_start(vrt_program *p, const char *opts, cl_uint ndev,
                        const cl_device_id *devs, vrt_analysis **out, char *why, size_t n)
{
	*out = NULL;
	vrt_lock();
	int need = vrt_cfg.jit && (!p->stub || stub_holds(p, opts, ndev, devs, why, n) == 0);
	vrt_unlock();
	if (!need)
		return CL_SUCCESS;
	why[0] = '\0';
	cl_device_id dev = jit_device(p, devs);
	if (!dev) {
		snprintf(why, n, "program (%zu bytes) could not be compiled by vastcc: cannot list its "
		         "context's devices; running natively", p->source_len);
		return CL_SUCCESS;
	}
	/* What the compile reads of the program (its environment, working
	 * directory, and headers) is read now, as the driver's build reads
	 * it; the compile itself later. */
	vrt_jit_job *job = vrt_jit_prepare(p->source, p->source_len, opts, dev);
	if (!job || !(*out = vrt_analysis_start(job)))
		return CL_OUT_OF_HOST_MEMORY;
	vrt_log(VRT_LOG_DEBUG, "program (%zu bytes): analysed by vastcc in the background",
	        p->source_len);
	return CL_SUCCESS;
}

/* p's finished analysis taken into p: vastcc's program becomes p's stub,
 * and its info when it holds for the build's devices (choose_stub), with
 * the variants' record; otherwise p runs natively, with one warning that
 * says why. Lock held. */
static void take_analysis(vrt_program *p)
{
	const vast_program_info *prog = NULL;
	char *log = NULL, why[1024] = "";
	int res = vrt_analysis_result(p->analysis, &prog, &log, why, sizeof why);
	if (res < 0)
		return;
	vrt_analysis_drop(p->analysis);
	p->analysis = NULL;
	const char *devs_why = NULL;
	if (res == VRT_JIT_OK) {
		p->stub = prog;
		cl_int err = choose_stub(p, p->options, p->build_ndev, p->build_devs, why, sizeof why);
		if (err == CL_SUCCESS && p->info)
			err = vrt_variants_prepare(p, p->build_ndev, p->build_devs, p->options);
		if (err != CL_SUCCESS) {
			p->info = NULL;
			devs_why = "out of memory";
		}
		if (p->info && p->page_wanted)
			vrt_program_may_page(p, p->page_wanted);
		if (!p->info && why[0])
			vrt_log(VRT_LOG_WARN, "%s", why);
		else if (!p->info && devs_why)
			vrt_log(VRT_LOG_WARN, "program (%zu bytes) compiled by vastcc runs natively: %s",
			        p->source_len, devs_why);
	} else if (res == VRT_JIT_SOURCE_ERROR) {
		char *nl = log ? strchr(log, '\n') : NULL;
		if (nl)
			*nl = '\0';
		vrt_log(VRT_LOG_WARN, "vastcc rejected a program the driver builds (%s); running natively",
		        log ? log : "");
	} else {
		vrt_log(VRT_LOG_WARN, "program (%zu bytes) could not be compiled by vastcc: %s; running natively",
		        p->source_len, why);
	}
	p->page_wanted = NULL;
	vrt_free(log);
}

int vrt_program_analysing(const vrt_program *p)
{
	return p && p->analysis;
}

int vrt_program_analysis_poll(vrt_program *p)
{
	if (!p || !p->analysis || !vrt_analysis_done(p->analysis))
		return 0;
	take_analysis(p);
	return p->info != NULL;
}

void vrt_program_devices_prepare(vrt_program *p)
{
	cl_device_id own = NULL, others[VRT_MAX_DEVICES];
	if (!vrt_cfg.devices ||
	    clGetContextInfo(p->ctx, CL_CONTEXT_DEVICES, sizeof own, &own, NULL) != CL_SUCCESS)
		return;
	vrt_lock();
	unsigned n = vrt_devices_others(own, others); /* VAST_DEVICES: devices.c */
	vrt_devices_prebuild(p, others, n);
	vrt_devmodels_prepare(p->ctx, own, others, n);
	vrt_unlock();
}

void vrt_program_analysis_wait(vrt_program *p)
{
	/* A reference of this thread's own: another waiter (a launch from
	 * another thread) may take the analysis into p and drop p's while
	 * this one waits. */
	vrt_lock();
	vrt_analysis *a = p->analysis;
	if (a)
		vrt_analysis_ref(a);
	vrt_unlock();
	if (!a)
		return;
	double t0 = vrt_now_ms();
	vrt_analysis_wait(a);
	vrt_log(VRT_LOG_DEBUG, "program (%zu bytes): a launch waited %.0f ms for vastcc's analysis",
	        p->source_len, vrt_now_ms() - t0);
	vrt_lock();
	if (p->analysis == a)
		take_analysis(p);
	int paging = p->info != NULL;
	vrt_unlock();
	vrt_analysis_drop(a);
	if (paging)
		vrt_program_devices_prepare(p);
}

/* After a build the driver rejected: vastcc's diagnostics are the build
 * log when vastcc rejects the source too (clang-style, located in the
 * user's files); else the driver's stays. Without the lock. */
static void failed_build_log(vrt_program *p)
{
	vrt_lock();
	vrt_analysis *a = p->analysis;
	p->analysis = NULL;
	vrt_unlock();
	if (!a)
		return;
	const vast_program_info *prog;
	char *log = NULL, why[16];
	if (vrt_analysis_wait(a) == VRT_JIT_SOURCE_ERROR &&
	    vrt_analysis_result(a, &prog, &log, why, sizeof why) == VRT_JIT_SOURCE_ERROR) {
		vrt_lock();
		vrt_free(p->build_log);
		p->build_log = log;
		vrt_unlock();
	} else {
		vrt_free(log);
	}
	vrt_analysis_drop(a);
}

static cl_int cpu_build(vrt_program *p);

static void cpu_join(vrt_program *p)
{
	if (p->cpu_thread_live) {
		pthread_join(p->cpu_thread, NULL);
		p->cpu_thread_live = 0;
	}
}

static void *cpu_prebuild(void *arg)
{
	vrt_program *p = arg;
	cpu_build(p);
	return NULL;
}

/* Whether some kernel's inspector reads buffer data (and so may run on
 * the CPU device) while the program runs on something else. */
static int wants_cpu_inspector(vrt_program *p)
{
	cl_device_id dev;
	cl_device_type type = 0;
	if (clGetContextInfo(p->ctx, CL_CONTEXT_DEVICES, sizeof dev, &dev, NULL) != CL_SUCCESS ||
	    vrt_real.clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS ||
	    (type & CL_DEVICE_TYPE_CPU))
		return 0;
	for (unsigned k = 0; k < p->info->nkernels; k++)
		for (unsigned i = 0; i < p->info->kernels[k].nparams; i++)
			if (p->info->kernels[k].params[i].inspect_reads)
				return 1;
	return 0;
}

void vrt_program_may_page(vrt_program *p, const char *why)
{
	if (p->analysis) {
		/* Started once the analysis is taken into p. */
		if (!p->page_wanted)
			p->page_wanted = why;
		return;
	}
	vrt_variants_start(p, why);
	if (!p->cpu_thread_live && !p->cpu_prog && p->info && wants_cpu_inspector(p) &&
	    pthread_create(&p->cpu_thread, NULL, cpu_prebuild, p) == 0)
		p->cpu_thread_live = 1;
}

cl_int vrt_api_clBuildProgram(cl_program prog, cl_uint ndev,
	const cl_device_id *devs, const char *opts,
	void (CL_CALLBACK *notify)(cl_program, void *), void *user)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_program *p = vrt_program_of(prog);
	if (!p)
		return vrt_object_ours(prog) ? CL_INVALID_PROGRAM
		       : vrt_real.clBuildProgram(prog, ndev, devs, opts, notify, user);
	if ((ndev == 0) != (devs == NULL) || (!notify && user))
		return CL_INVALID_VALUE;
	cl_int err = CL_SUCCESS;
	char why[1024] = "";
	vrt_analysis *a = NULL, *old = NULL;
	vrt_lock();
	cpu_join(p);
	if (p->nkernels)
		err = CL_INVALID_OPERATION; /* §5.6.2: kernels are attached */
	vrt_unlock();
	if (err == CL_SUCCESS && !vrt_native_mode())
		err = jit_start(p, opts, ndev, devs, &a, why, sizeof why);
	if (err != CL_SUCCESS)
		return err;
	cl_device_id *devs_copy = ndev ? vrt_calloc(ndev, sizeof *devs) : NULL;
	if (ndev && !devs_copy) {
		vrt_analysis_drop(a);
		return CL_OUT_OF_HOST_MEMORY;
	}
	if (ndev)
		memcpy(devs_copy, devs, ndev * sizeof *devs);
	vrt_lock();
	if (p->nkernels) {
		/* Made by another thread meanwhile: this build does not happen,
		 * its analysis is dropped, and the last build's stays with the
		 * kernels made from it. */
		err = CL_INVALID_OPERATION;
	} else {
		/* This build's analysis replaces the last build's (another
		 * build at once replaces this one's: one stays). */
		old = p->analysis;
		p->analysis = a;
		a = NULL;
		vrt_free(p->build_log); /* the last build's */
		p->build_log = NULL;
		p->page_wanted = NULL;
		if (p->stub && !why[0] && !p->analysis)
			err = choose_stub(p, opts, ndev, devs, why, sizeof why);
		else
			p->info = NULL;
	}
	if (err == CL_SUCCESS) {
		/* The variants and the CPU inspector's copy of the last build
		 * were built with its options. */
		vrt_variants_drop(p);
		if (p->cpu_prog) {
			vrt_real.clReleaseProgram(p->cpu_prog);
			p->cpu_prog = NULL;
		}
	}
	if (err == CL_SUCCESS) {
		char *o = vrt_strdup(opts ? opts : "");
		if (!o) {
			err = CL_OUT_OF_HOST_MEMORY;
		} else {
			vrt_free(p->options);
			p->options = o;
			vrt_free(p->build_devs);
			p->build_devs = devs_copy;
			p->build_ndev = ndev;
			devs_copy = NULL;
		}
	}
	vrt_unlock();
	vrt_free(devs_copy);
	vrt_analysis_drop(a);
	vrt_analysis_drop(old);
	if (err != CL_SUCCESS)
		return err;
	/* The original kernels only, built synchronously as the driver
	 * alone would (their errors are the program's), while vastcc's
	 * analysis, if any, runs in the background; the callback (OpenCL
	 * 1.2 §5.6.2) then sees the program handle the caller knows. */
	double t0 = vrt_now_ms();
	err = vrt_real.clBuildProgram(p->real, ndev, devs, opts, NULL, NULL);
	vrt_log(VRT_LOG_DEBUG, "program '%s': original kernels built in %.0f ms%s",
	        p->info ? p->info->file : "(native)", vrt_now_ms() - t0,
	        err != CL_SUCCESS ? " (failed)"
	        : p->info ? "; its variants wait for a launch that may page" : "");
	if (err != CL_SUCCESS) {
		/* The driver has the last word on what compiles; vastcc's
		 * diagnostics, when it rejects the source too, are the log. */
		failed_build_log(p);
		if (notify)
			notify(prog, user);
		return err == CL_BUILD_PROGRAM_FAILURE || !p->build_log ? err : CL_BUILD_PROGRAM_FAILURE;
	}
	if (p->info) {
		vrt_lock();
		err = vrt_variants_prepare(p, ndev, devs, opts);
		vrt_unlock();
	}
	/* Said once the build succeeded: a failed build that the program
	 * then repeats with vastcc's options is no reason to warn. */
	if (err == CL_SUCCESS && !p->info && why[0])
		vrt_log(VRT_LOG_WARN, "%s", why);
	else if (err == CL_SUCCESS && p->stub && !p->info && !p->analysis)
		vrt_log(VRT_LOG_WARN, "program built with options '%s' but vastcc compiled it with '%s'; running natively",
		        opts ? opts : "", p->stub->cl_options ? p->stub->cl_options : "");
	if (err == CL_SUCCESS && p->info)
		vrt_program_devices_prepare(p);
	if (notify)
		notify(prog, user);
	return err;
}

cl_int vrt_api_clRetainProgram(cl_program prog)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_program *p = vrt_program_of(prog);
	if (!p)
		return vrt_object_ours(prog) ? CL_INVALID_PROGRAM
		       : vrt_real.clRetainProgram(prog);
	vrt_lock();
	p->refs++;
	vrt_unlock();
	return CL_SUCCESS;
}

cl_int vrt_api_clReleaseProgram(cl_program prog)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_program *p = vrt_program_of(prog);
	if (!p)
		return vrt_object_ours(prog) ? CL_INVALID_PROGRAM
		       : vrt_real.clReleaseProgram(prog);
	vrt_lock();
	vrt_program_release(p);
	vrt_unlock();
	return CL_SUCCESS;
}

/* Generated kernels (vast_inspect_K, vast_paged_K, ...) are the
 * runtime's: the program sees only its own (OpenCL 1.2 §5.7.1). */
int vrt_program_is_generated_name(const vrt_program *p, const char *name)
{
	return p->info && !strncmp(name, p->info->prefix, strlen(p->info->prefix));
}

/* The kernel names of the real program without the generated ones:
 * "a;b". Caller frees. */
static char *user_kernel_names(vrt_program *p, cl_uint *count)
{
	size_t n = 0;
	*count = 0;
	if (vrt_real.clGetProgramInfo(p->real, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &n) != CL_SUCCESS)
		return NULL;
	char *all = vrt_malloc(n + 1), *out = vrt_malloc(n + 1);
	if (!all || !out ||
	    vrt_real.clGetProgramInfo(p->real, CL_PROGRAM_KERNEL_NAMES, n, all, NULL) != CL_SUCCESS) {
		vrt_free(all);
		vrt_free(out);
		return NULL;
	}
	all[n] = '\0';
	out[0] = '\0';
	size_t len = 0;
	char *save = NULL;
	for (char *t = strtok_r(all, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
		if (vrt_program_is_generated_name(p, t))
			continue;
		size_t l = strlen(t);
		if (len)
			out[len++] = ';';
		memcpy(out + len, t, l + 1);
		len += l;
		(*count)++;
	}
	vrt_free(all);
	return out;
}

char *vrt_program_kernel_names(vrt_program *p, cl_uint *count)
{
	return user_kernel_names(p, count);
}

cl_int vrt_api_clGetProgramInfo(cl_program prog, cl_program_info param,
	size_t size, void *value, size_t *ret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_program *p = vrt_program_of(prog);
	if (!p)
		return vrt_object_ours(prog) ? CL_INVALID_PROGRAM
		       : vrt_real.clGetProgramInfo(prog, param, size, value, ret);
	switch (param) {
	case CL_PROGRAM_REFERENCE_COUNT:
		return vrt_info_out(&p->refs, sizeof p->refs, size, value, ret);
	case CL_PROGRAM_SOURCE:
		return vrt_info_out(p->source, p->source_len + 1, size, value, ret);
	case CL_PROGRAM_NUM_KERNELS:
	case CL_PROGRAM_KERNEL_NAMES: {
		cl_uint count;
		char *names = user_kernel_names(p, &count);
		if (!names)
			/* Not built yet, or out of memory: the real answer. */
			return vrt_real.clGetProgramInfo(p->real, param, size, value, ret);
		size_t nk = count;
		cl_int err = param == CL_PROGRAM_NUM_KERNELS
		             ? vrt_info_out(&nk, sizeof nk, size, value, ret)
		             : vrt_info_out(names, strlen(names) + 1, size, value, ret);
		vrt_free(names);
		return err;
	}
	default:
		return vrt_real.clGetProgramInfo(p->real, param, size, value, ret);
	}
}

cl_int vrt_api_clGetProgramBuildInfo(cl_program prog, cl_device_id d,
	cl_program_build_info param, size_t size, void *value, size_t *ret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_program *p = vrt_program_of(prog);
	if (!p && vrt_object_ours(prog))
		return CL_INVALID_PROGRAM;
	if (p && param == CL_PROGRAM_BUILD_LOG) {
		/* vastcc's diagnostics of a build it failed, clang-style. */
		vrt_lock();
		int ours = p->build_log != NULL;
		cl_int err = ours ? vrt_info_out(p->build_log, strlen(p->build_log) + 1, size, value, ret)
		                  : CL_SUCCESS;
		vrt_unlock();
		if (ours)
			return err;
	}
	return vrt_real.clGetProgramBuildInfo(p ? p->real : prog, d, param, size, value, ret);
}

cl_int vrt_program_cpu(vrt_program *p)
{
	cpu_join(p);
	return cpu_build(p);
}

/* Runs on the calling thread or on cpu_thread, never both at once. */
static cl_int cpu_build(vrt_program *p)
{
	if (p->cpu_prog)
		return CL_SUCCESS;
	cl_int err;
	if (!p->cpu_ctx) {
		cl_platform_id plats[16];
		cl_uint np = 0;
		err = clGetPlatformIDs(16, plats, &np);
		if (err != CL_SUCCESS)
			return err;
		if (np > 16)
			np = 16;
		cl_device_id dev = NULL;
		cl_platform_id plat = NULL;
		for (cl_uint i = 0; i < np && !dev; i++) {
			cl_uint nd = 0;
			if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 1, &dev, &nd) != CL_SUCCESS || !nd)
				dev = NULL;
			else
				plat = plats[i];
		}
		if (!dev) {
			vrt_log(VRT_LOG_WARN, "no CPU OpenCL device (install pocl-opencl-icd) to run an inspector that reads buffer data");
			return CL_DEVICE_NOT_FOUND;
		}
		cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0 };
		p->cpu_ctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
		if (!p->cpu_ctx)
			return err;
		p->cpu_dev = dev;
	}
	if (!p->cpu_queue) {
		p->cpu_queue = vrt_queue_create(p->cpu_ctx, p->cpu_dev, 0, &err);
		if (!p->cpu_queue)
			return err;
	}
	const char *gen = p->info->generated_source;
	p->cpu_prog = vrt_real.clCreateProgramWithSource(p->cpu_ctx, 1, &gen, NULL, &err);
	if (!p->cpu_prog)
		return err;
	err = vrt_real.clBuildProgram(p->cpu_prog, 1, &p->cpu_dev, p->options, NULL, NULL);
	if (err != CL_SUCCESS) {
		vrt_log(VRT_LOG_WARN, "building '%s' for the CPU inspector failed: %s",
		        p->info->file, vrt_cl_error_name(err));
		vrt_real.clReleaseProgram(p->cpu_prog);
		p->cpu_prog = NULL;
	}
	return err;
}

void vrt_program_release(vrt_program *p)
{
	if (--p->refs)
		return;
	cpu_join(p);
	vrt_variants_drop(p);
	vrt_analysis_drop(p->analysis);
	vrt_free(p->build_devs);
	vrt_real.clReleaseProgram(p->real);
	if (p->cpu_prog)
		vrt_real.clReleaseProgram(p->cpu_prog);
	if (p->cpu_queue)
		vrt_real.clReleaseCommandQueue(p->cpu_queue);
	if (p->cpu_ctx)
		clReleaseContext(p->cpu_ctx);
	vrt_free(p->source);
	vrt_free(p->options);
	vrt_free(p->build_log);
	vrt_object_retire(p);
}
