/* SPDX-License-Identifier: MIT */
/*
 * variants.c - the program of the generated variants, built when paging
 * may need it.
 *
 * clBuildProgram builds the program's own source, which holds exactly
 * the original kernels: a program whose launches all fit runs natively
 * after one compile of its own size. The generated program (the
 * original kernels again, and their inspector, paged and straight
 * variants, several times their size) is a second program of the same
 * context, devices and options, built on a thread of its own the first
 * time a launch may page (launch.c: one that pages, or whose buffers take
 * more than half the budget; vrt_program_may_page), so that it compiles while the program's
 * commands run. A launch that pages waits for it at its enqueue (without
 * the runtime's lock); the variant kernels are created from it
 * (kernel.c, pinspect.c). Nothing builds it when nothing pages.
 *
 * When the driver rejects it, the program's kernels run as if vastcc had
 * not compiled it, as clBuildProgram used to decide: the launch that
 * found out warns once with the driver's build log, runs natively when
 * its buffers fit the budget, and fails with
 * CL_MEM_OBJECT_ALLOCATION_FAILURE (plan() in launch.c) otherwise.
 *
 * Thread-safety: prepare, start and drop with the runtime's lock held;
 * the build thread never takes it (a launch may wait for the build with
 * the lock held, on the executor); wait and ready without it or with it.
 * The build's result is guarded by the record's own mutex.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "program/program.h"

struct vrt_variants {
	/* What the build takes, fixed at prepare. */
	cl_context ctx;
	const char *source; /* the stub's generated program, kept until exit */
	const char *file;   /* the stub's file name, for logs */
	char *options;
	cl_uint ndev;
	cl_device_id *devs; /* NULL: the context's */
	pthread_t thread;
	int started; /* a thread was started (joined at drop) */
	/* The result, under mu. */
	pthread_mutex_t mu;
	pthread_cond_t done_cv;
	int done;
	int reported; /* a failure was told (once) */
	cl_int err;
	cl_program prog; /* built, or NULL */
	char *log;       /* the driver's build log of a failure */
};

/* The driver's build log of prog for the build's devices, those that
 * say something, one after the other (vrt_malloc'd; NULL if none). */
static char *build_log(vrt_variants *v, cl_program prog)
{
	cl_device_id one[1], *devs = v->devs;
	cl_uint n = v->ndev;
	if (!devs) {
		if (vrt_real.clGetProgramInfo(prog, CL_PROGRAM_DEVICES, sizeof one, one, NULL) !=
		    CL_SUCCESS)
			return NULL;
		devs = one, n = 1;
	}
	char *out = NULL;
	size_t len = 0;
	for (cl_uint i = 0; i < n; i++) {
		size_t sz = 0;
		if (vrt_real.clGetProgramBuildInfo(prog, devs[i], CL_PROGRAM_BUILD_LOG, 0, NULL,
		                                   &sz) != CL_SUCCESS || sz <= 1)
			continue;
		char *grown = vrt_realloc(out, len + sz + 1);
		if (!grown)
			break;
		out = grown;
		if (vrt_real.clGetProgramBuildInfo(prog, devs[i], CL_PROGRAM_BUILD_LOG, sz, out + len,
		                                   NULL) != CL_SUCCESS)
			continue;
		out[len + sz - 1] = '\0';
		len = strlen(out);
		while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
			out[--len] = '\0';
		if (len)
			out[len++] = '\n', out[len] = '\0';
	}
	if (out && len && out[len - 1] == '\n')
		out[len - 1] = '\0';
	return out;
}

static void *build(void *arg)
{
	vrt_variants *v = arg;
	double t0 = vrt_now_ms();
	cl_int err;
	char *log = NULL;
	cl_program prog = vrt_real.clCreateProgramWithSource(v->ctx, 1, &v->source, NULL, &err);
	if (prog)
		err = vrt_real.clBuildProgram(prog, v->ndev, v->devs, v->options, NULL, NULL);
	if (prog && err != CL_SUCCESS) {
		log = build_log(v, prog);
		vrt_real.clReleaseProgram(prog);
		prog = NULL;
	}
	if (err == CL_SUCCESS)
		vrt_log(VRT_LOG_DEBUG, "program '%s': variants built in %.0f ms", v->file,
		        vrt_now_ms() - t0);
	pthread_mutex_lock(&v->mu);
	v->prog = prog;
	v->err = err;
	v->log = log;
	v->done = 1;
	pthread_cond_broadcast(&v->done_cv);
	pthread_mutex_unlock(&v->mu);
	return NULL;
}

cl_int vrt_variants_prepare(vrt_program *p, cl_uint ndev, const cl_device_id *devs,
                            const char *opts)
{
	vrt_variants_drop(p);
	vrt_variants *v = vrt_calloc(1, sizeof *v);
	if (!v)
		return CL_OUT_OF_HOST_MEMORY;
	v->ctx = p->ctx;
	v->source = p->info->generated_source;
	v->file = p->info->file;
	v->options = vrt_strdup(opts ? opts : "");
	v->ndev = ndev;
	v->devs = ndev ? vrt_calloc(ndev, sizeof *devs) : NULL;
	if (!v->options || (ndev && !v->devs)) {
		vrt_free(v->options);
		vrt_free(v->devs);
		vrt_free(v);
		return CL_OUT_OF_HOST_MEMORY;
	}
	if (ndev)
		memcpy(v->devs, devs, ndev * sizeof *devs);
	pthread_mutex_init(&v->mu, NULL);
	pthread_cond_init(&v->done_cv, NULL);
	p->variants = v;
	return CL_SUCCESS;
}

void vrt_variants_start(vrt_program *p, const char *why)
{
	vrt_variants *v = p->variants;
	if (!v || v->started || v->done)
		return;
	vrt_log(VRT_LOG_DEBUG, "program '%s': building its variants (%s)", v->file, why);
	if (pthread_create(&v->thread, NULL, build, v) == 0) {
		v->started = 1;
	} else {
		/* No thread to spare: built here, now. */
		build(v);
	}
}

cl_int vrt_variants_wait(vrt_program *p)
{
	vrt_variants *v = p->variants;
	if (!v)
		return CL_INVALID_PROGRAM_EXECUTABLE;
	pthread_mutex_lock(&v->mu);
	while (!v->done)
		pthread_cond_wait(&v->done_cv, &v->mu);
	cl_int err = v->err;
	if (err != CL_SUCCESS && !v->reported) {
		v->reported = 1;
		vrt_log(VRT_LOG_WARN, "program '%s': the variants vastcc generated do not build (%s); "
		        "its kernels run natively, and a launch whose buffers pass the budget fails "
		        "with CL_MEM_OBJECT_ALLOCATION_FAILURE; the build log:\n%s",
		        v->file, vrt_cl_error_name(err), v->log && *v->log ? v->log : "(empty)");
	}
	pthread_mutex_unlock(&v->mu);
	return err;
}

int vrt_variants_started(vrt_program *p)
{
	vrt_variants *v = p->variants;
	return !v || v->started || v->done; /* set under the runtime lock */
}

int vrt_variants_ready(vrt_program *p)
{
	vrt_variants *v = p->variants;
	if (!v)
		return 0;
	pthread_mutex_lock(&v->mu);
	int ready = v->done && v->err == CL_SUCCESS;
	pthread_mutex_unlock(&v->mu);
	return ready;
}

int vrt_variants_failed(vrt_program *p)
{
	vrt_variants *v = p->variants;
	if (!v)
		return 1;
	pthread_mutex_lock(&v->mu);
	int failed = v->done && v->err != CL_SUCCESS;
	pthread_mutex_unlock(&v->mu);
	return failed;
}

cl_int vrt_variants_program(vrt_program *p, cl_program *out)
{
	*out = NULL;
	if (!p->variants)
		return CL_INVALID_PROGRAM_EXECUTABLE;
	vrt_variants_start(p, "a launch needs them");
	cl_int err = vrt_variants_wait(p);
	if (err == CL_SUCCESS)
		*out = p->variants->prog;
	return err;
}

void vrt_variants_drop(vrt_program *p)
{
	vrt_variants *v = p->variants;
	if (!v)
		return;
	if (v->started)
		pthread_join(v->thread, NULL);
	if (v->prog)
		vrt_real.clReleaseProgram(v->prog);
	pthread_mutex_destroy(&v->mu);
	pthread_cond_destroy(&v->done_cv);
	vrt_free(v->log);
	vrt_free(v->options);
	vrt_free(v->devs);
	vrt_free(v);
	p->variants = NULL;
}
