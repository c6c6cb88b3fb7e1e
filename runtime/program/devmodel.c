/* SPDX-License-Identifier: MIT */
/*
 * devmodel.c - what each device of VAST_DEVICES can do, measured once per
 * process, so that the first split of a kernel comes from a model of the
 * devices (partition.c, vrt_model_pdevs) instead of a profiling window.
 *
 * Compute: one kernel of four independent multiply-add chains per
 * work-item over compute units x 1024 work-items, the same on every
 * device so that their rates compare; timed by event profiling (else the
 * wall clock), its loop lengthened until a run takes a few ms. Where it
 * cannot be built or run, compute units x clock x FALLBACK_LANES.
 * Link: a timed write and read of LINK_BYTES from pinned host memory
 * (pinned.c), the fastest of LINK_ROUNDS, bytes per second per direction; none for a device
 * whose memory is the host's (CL_DEVICE_HOST_UNIFIED_MEMORY, OpenCL 1.2
 * §4.2), whose kernels read the host's bytes where they are.
 * Identical devices (the same name, compute units and clock) take the
 * first one's compute rate, and its link where theirs measures within
 * LINK_NOISE of it: two equal GPUs get equal models, and equal shares.
 * The host's memory: one timed vrt_copy of HOST_BYTES.
 *
 * State: the models, kept until exit, guarded by the runtime lock.
 */
#include <string.h>

#include "program/program.h"

/* Multiply-adds a compute unit does per clock cycle where the benchmark
 * cannot run: 32 lanes (a CPU core's two 8-wide FMA units twice over,
 * a quarter of an NVIDIA SM's 128). A guess, refined by the launches. */
#define FALLBACK_LANES 32
/* The benchmark's run time aimed at, ms: long beside a launch's latency
 * (tens of us), short beside a launch. */
#define BENCH_MS 2.0
#define LINK_BYTES (8u << 20)
#define LINK_ROUNDS 4
#define HOST_BYTES (16u << 20)
/* Two links of identical devices within this fraction are one speed. */
#define LINK_NOISE 0.25

static const char bench_src[] =
	"__kernel void vast_bench_mad(__global float *out, float a, float b, int n)\n"
	"{\n"
	"	float x0 = get_global_id(0), x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;\n"
	"	for (int i = 0; i < n; i++) {\n"
	"		x0 = mad(x0, a, b);\n"
	"		x1 = mad(x1, a, b);\n"
	"		x2 = mad(x2, a, b);\n"
	"		x3 = mad(x3, a, b);\n"
	"	}\n"
	"	out[get_global_id(0)] = x0 + x1 + x2 + x3;\n"
	"}\n";
#define BENCH_CHAINS 4
#define BENCH_ITEMS_PER_CU 1024

typedef struct model {
	cl_device_id dev;
	char *name; /* CL_DEVICE_NAME */
	cl_uint units, clock_mhz;
	vrt_devmodel m;
	struct model *next;
} model;
static model *all_models;
static double host_bw;
static int host_measured;

/* Seconds one run of the benchmark with loops of n takes on q, -1 when
 * it cannot run. */
static double bench_run(cl_command_queue q, cl_kernel k, size_t items, cl_int n)
{
	cl_event ev = NULL;
	double t0 = vrt_now_ms();
	if (vrt_real.clSetKernelArg(k, 3, sizeof n, &n) != CL_SUCCESS ||
	    vrt_real.clEnqueueNDRangeKernel(q, k, 1, NULL, &items, NULL, 0, NULL, &ev) != CL_SUCCESS)
		return -1;
	cl_int err = vrt_real.clWaitForEvents(1, &ev);
	double wall = (vrt_now_ms() - t0) / 1e3;
	cl_ulong start = 0, end = 0;
	if (err == CL_SUCCESS &&
	    (vrt_real.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start,
	                                      NULL) != CL_SUCCESS ||
	     vrt_real.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
	                                      NULL) != CL_SUCCESS))
		start = end = 0;
	vrt_real.clReleaseEvent(ev);
	if (err != CL_SUCCESS)
		return -1;
	return end > start ? (double)(end - start) / 1e9 : wall;
}

/* Multiply-adds per second of the benchmark on d in ctx, 0 when it
 * cannot run. */
static double bench(cl_device_id d, cl_context ctx, cl_uint units)
{
	double rate = 0;
	cl_int err;
	cl_command_queue q = vrt_queue_create(ctx, d, CL_QUEUE_PROFILING_ENABLE, &err);
	const char *src = bench_src;
	cl_program prog = vrt_real.clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	cl_kernel k = NULL;
	size_t items = (size_t)(units ? units : 1) * BENCH_ITEMS_PER_CU;
	cl_mem out = vrt_real.clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, items * sizeof(float), NULL,
	                                     &err);
	if (!q || !prog || !out || vrt_real.clBuildProgram(prog, 1, &d, "", NULL, NULL) != CL_SUCCESS ||
	    !(k = vrt_real.clCreateKernel(prog, "vast_bench_mad", &err)))
		goto done;
	float a = 0.999f, b = 0.001f;
	if (vrt_real.clSetKernelArg(k, 0, sizeof out, &out) != CL_SUCCESS ||
	    vrt_real.clSetKernelArg(k, 1, sizeof a, &a) != CL_SUCCESS ||
	    vrt_real.clSetKernelArg(k, 2, sizeof b, &b) != CL_SUCCESS)
		goto done;
	/* The first run pays for the driver's first launch; each next one's
	 * loop is as long as BENCH_MS takes at the last one's rate. */
	cl_int n = 16;
	double s = bench_run(q, k, items, n);
	for (int round = 0; round < 4 && s >= 0; round++) {
		if ((s = bench_run(q, k, items, n)) < 0)
			break;
		rate = (double)items * n * BENCH_CHAINS / (s > 0 ? s : 1e-9);
		if (s * 1e3 >= BENCH_MS / 2)
			break;
		double want = rate * (BENCH_MS / 1e3) / ((double)items * BENCH_CHAINS);
		n = want > 1 << 24 ? 1 << 24 : want < n * 2 ? n * 2 : (cl_int)want;
	}
done:
	if (k)
		vrt_real.clReleaseKernel(k);
	if (prog)
		vrt_real.clReleaseProgram(prog);
	if (out)
		vrt_real.clReleaseMemObject(out);
	if (q)
		vrt_real.clReleaseCommandQueue(q);
	return rate;
}

/* Bytes per second per direction between pinned host memory and d, 0
 * when it cannot tell. */
static double link_speed(cl_device_id d, cl_context ctx)
{
	double bw = 0;
	cl_int err;
	vrt_pin pin;
	memset(&pin, 0, sizeof pin);
	/* Pinned as the host copies are where they can be; else plain. */
	unsigned char *host = vrt_pinned_alloc(ctx, LINK_BYTES, VRT_PIN_STAGING, &pin), *plain = NULL;
	if (!host)
		host = plain = vrt_malloc(LINK_BYTES);
	cl_command_queue q = vrt_queue_create(ctx, d, 0, &err);
	cl_mem buf = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_WRITE, LINK_BYTES, NULL, &err);
	if (!host || !q || !buf)
		goto done;
	memset(host, 0, LINK_BYTES);
	/* A first small write makes the buffer the device's. */
	if (vrt_real.clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, 4096, host, 0, NULL, NULL))
		goto done;
	/* The fastest of a few rounds: one round of a few ms measured one
	 * H200 of two at 30 GB/s and its twin at 47. */
	for (int round = 0; round < LINK_ROUNDS; round++) {
		double t0 = vrt_now_ms();
		if (vrt_real.clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, LINK_BYTES, host, 0, NULL, NULL))
			goto done;
		if (vrt_real.clEnqueueReadBuffer(q, buf, CL_TRUE, 0, LINK_BYTES, host, 0, NULL, NULL))
			goto done;
		double t1 = vrt_now_ms(), r = t1 > t0 ? 2.0 * LINK_BYTES / ((t1 - t0) / 1e3) : 0;
		if (r > bw)
			bw = r;
	}
done:
	if (buf)
		vrt_real.clReleaseMemObject(buf);
	if (q)
		vrt_real.clReleaseCommandQueue(q);
	if (plain)
		vrt_free(plain);
	else if (host)
		vrt_pinned_free(&pin, host);
	return bw;
}

static cl_uint device_uint(cl_device_id d, cl_device_info what)
{
	cl_uint v = 0;
	if (vrt_real.clGetDeviceInfo(d, what, sizeof v, &v, NULL) != CL_SUCCESS)
		return 0;
	return v;
}

/* Whether d's memory is the host's: its kernels read host memory. */
static int host_memory(cl_device_id d)
{
	cl_bool unified = CL_FALSE;
	cl_device_type type = 0;
	if (vrt_real.clGetDeviceInfo(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified,
	                             NULL) == CL_SUCCESS && unified)
		return 1;
	return vrt_real.clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS &&
	       (type & CL_DEVICE_TYPE_CPU);
}

static model *make(cl_device_id d, cl_context ctx)
{
	model *x = vrt_calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->dev = d;
	x->name = vrt_device_info_str(d, CL_DEVICE_NAME);
	if (!x->name && !(x->name = vrt_strdup("?"))) {
		vrt_free(x);
		return NULL;
	}
	x->units = device_uint(d, CL_DEVICE_MAX_COMPUTE_UNITS);
	x->clock_mhz = device_uint(d, CL_DEVICE_MAX_CLOCK_FREQUENCY);
	const model *same = NULL;
	for (const model *o = all_models; o && !same; o = o->next)
		if (!strcmp(o->name, x->name) && o->units == x->units && o->clock_mhz == x->clock_mhz)
			same = o;
	if (same) {
		x->m.fma_per_s = same->m.fma_per_s;
		x->m.benchmarked = same->m.benchmarked;
	} else {
		x->m.fma_per_s = bench(d, ctx, x->units);
		x->m.benchmarked = x->m.fma_per_s > 0;
		if (!x->m.benchmarked)
			x->m.fma_per_s = (double)(x->units ? x->units : 1) *
			                 (x->clock_mhz ? x->clock_mhz : 1000) * 1e6 * FALLBACK_LANES;
	}
	if (!host_memory(d)) {
		x->m.link_bw = link_speed(d, ctx);
		if (same && same->m.link_bw > 0 &&
		    x->m.link_bw > same->m.link_bw * (1 - LINK_NOISE) &&
		    x->m.link_bw < same->m.link_bw * (1 + LINK_NOISE))
			x->m.link_bw = same->m.link_bw;
		/* A link that could not be timed: as fast as the host's memory,
		 * so that it bounds nothing it would not. */
		if (!(x->m.link_bw > 0))
			x->m.link_bw = vrt_host_bw();
	}
	if (x->m.link_bw > 0)
		vrt_log(VRT_LOG_INFO, "device '%s' (%s): %.3g multiply-adds/s (%s), link %.3g GB/s",
		        vrt_device_name(d), x->name, x->m.fma_per_s,
		        x->m.benchmarked ? "measured" : "compute units x clock", x->m.link_bw / 1e9);
	else
		vrt_log(VRT_LOG_INFO, "device '%s' (%s): %.3g multiply-adds/s (%s), host memory",
		        vrt_device_name(d), x->name, x->m.fma_per_s,
		        x->m.benchmarked ? "measured" : "compute units x clock");
	x->next = all_models;
	all_models = x;
	return x;
}

const vrt_devmodel *vrt_devmodel_of(cl_device_id d, cl_context ctx)
{
	for (const model *x = all_models; x; x = x->next)
		if (x->dev == d)
			return &x->m;
	model *x = make(d, ctx);
	return x ? &x->m : NULL;
}

double vrt_host_bw(void)
{
	if (host_measured)
		return host_bw;
	host_measured = 1;
	unsigned char *a = vrt_malloc(HOST_BYTES), *b = vrt_malloc(HOST_BYTES);
	if (a && b) {
		memset(a, 1, HOST_BYTES);
		memset(b, 0, HOST_BYTES);
		double t0 = vrt_now_ms();
		vrt_copy(b, a, HOST_BYTES);
		double t1 = vrt_now_ms();
		if (t1 > t0)
			host_bw = HOST_BYTES / ((t1 - t0) / 1e3);
		vrt_log(VRT_LOG_INFO, "host memory: %.3g GB/s (a copy of %u MiB)", host_bw / 1e9,
		        HOST_BYTES >> 20);
	}
	vrt_free(a);
	vrt_free(b);
	return host_bw;
}

void vrt_devmodels_prepare(cl_context ctx, cl_device_id own, const cl_device_id *others,
                           unsigned n)
{
	if (!n)
		return;
	vrt_devmodel_of(own, ctx);
	for (unsigned j = 0; j < n; j++) {
		cl_context c;
		cl_command_queue q;
		if (vrt_device_context(others[j], &c, &q) == CL_SUCCESS)
			vrt_devmodel_of(others[j], c);
	}
	vrt_host_bw();
}
