/* SPDX-License-Identifier: MIT */
/*
 * links - the host links of several devices at once: pinned
 * clEnqueueWrite/ReadBuffer of SIZE bytes (default 1 GiB) on each of the
 * first NDEV devices (default 2) of the type VAST_EXAMPLE_DEVICE names
 * (gpu, the default, cpu or any; in platform order, as VAST_DEVICES counts
 * gpu0, gpu1, ...), first on the first device alone, then on all of them
 * at once, one thread and one context per device, started together. Best
 * of REPS (default 5) after one warm-up copy.
 *
 * usage: links [-q] [SIZE [NDEV [REPS]]]
 * Prints one line per case:
 *   links: devices=N dir=h2d|d2h bytes=B seconds=S gbps=G
 * bytes are the devices' together and S the slowest device's time, so G
 * is what N links carry at once: the bound of a workload that streams its
 * data split over N devices (the host's memory may be the bound first).
 */
#include "vast_example.h"

#include <pthread.h>

#define MAX_DEVICES 8

typedef struct host_link {
	cl_device_id device;
	cl_context ctx;
	cl_command_queue queue;
	cl_mem dev, pin;
	void *host;
	double seconds;   /* of the last copy */
} host_link;

static size_t size;
static int h2d;
static pthread_barrier_t start;

static void link_open(host_link *l, cl_device_id d)
{
	cl_int err;
	l->device = d;
	l->ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
	CHECK_ERR(err, "clCreateContext");
	l->queue = clCreateCommandQueue(l->ctx, d, 0, &err);
	CHECK_ERR(err, "clCreateCommandQueue");
	l->dev = clCreateBuffer(l->ctx, CL_MEM_READ_WRITE, size, NULL, &err);
	CHECK_ERR(err, "clCreateBuffer");
	l->pin = clCreateBuffer(l->ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, size, NULL, &err);
	CHECK_ERR(err, "clCreateBuffer");
	l->host = clEnqueueMapBuffer(l->queue, l->pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
	                             size, 0, NULL, NULL, &err);
	CHECK_ERR(err, "clEnqueueMapBuffer");
	memset(l->host, 1, size);
}

static void link_close(host_link *l)
{
	CHECK(clEnqueueUnmapMemObject(l->queue, l->pin, l->host, 0, NULL, NULL));
	CHECK(clFinish(l->queue));
	clReleaseMemObject(l->pin);
	clReleaseMemObject(l->dev);
	clReleaseCommandQueue(l->queue);
	clReleaseContext(l->ctx);
}

/* One copy on one link, timed from the moment every link starts. */
static void *copy_once(void *arg)
{
	host_link *l = arg;
	pthread_barrier_wait(&start);
	double t = vex_now();
	if (h2d)
		CHECK(clEnqueueWriteBuffer(l->queue, l->dev, CL_TRUE, 0, size, l->host, 0, NULL,
		                           NULL));
	else
		CHECK(clEnqueueReadBuffer(l->queue, l->dev, CL_TRUE, 0, size, l->host, 0, NULL,
		                          NULL));
	l->seconds = vex_now() - t;
	return NULL;
}

/* Best over reps of the slowest of n links copying at once. */
static double best_at_once(host_link *links, int n, int reps)
{
	double best = 1e30;
	pthread_t th[MAX_DEVICES];
	for (int r = -1; r < reps; r++) {   /* r = -1: warm-up, not timed */
		if (pthread_barrier_init(&start, NULL, (unsigned)n))
			vex_die("pthread_barrier_init failed");
		for (int i = 0; i < n; i++)
			if (pthread_create(&th[i], NULL, copy_once, &links[i]))
				vex_die("pthread_create failed");
		double slowest = 0;
		for (int i = 0; i < n; i++) {
			pthread_join(th[i], NULL);
			if (links[i].seconds > slowest)
				slowest = links[i].seconds;
		}
		pthread_barrier_destroy(&start);
		if (r >= 0 && slowest < best)
			best = slowest;
	}
	return best;
}

/* The first n devices of the type asked for, over the platforms in order. */
static int find_devices(cl_device_id *out, int n)
{
	const char *want = getenv("VAST_EXAMPLE_DEVICE");
	cl_device_type type = CL_DEVICE_TYPE_GPU;
	if (want && !strcmp(want, "cpu"))
		type = CL_DEVICE_TYPE_CPU;
	else if (want && !strcmp(want, "any"))
		type = CL_DEVICE_TYPE_ALL;
	else if (want && *want && strcmp(want, "gpu"))
		vex_die("VAST_EXAMPLE_DEVICE must be cpu, gpu or any, not '%s'", want);
	cl_platform_id plats[16];
	cl_uint np = 0;
	int found = 0;
	if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
		return 0;
	for (cl_uint p = 0; p < np && p < 16 && found < n; p++) {
		cl_uint nd = 0;
		if (clGetDeviceIDs(plats[p], type, (cl_uint)(n - found), out + found, &nd) ==
		    CL_SUCCESS)
			found += (int)nd;
	}
	return found;
}

static void report(int n, size_t bytes, double s)
{
	printf("links: devices=%d dir=%s bytes=%zu seconds=%.6f gbps=%.2f\n", n,
	       h2d ? "h2d" : "d2h", bytes, s, (double)bytes / s * 1e-9);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 3, .sizes = { 1u << 30, 2, 5 } };
	vex_parse_args(&a, argc, argv, "[SIZE [NDEV [REPS]]]");
	size = a.sizes[0];
	int n = (int)a.sizes[1], reps = (int)a.sizes[2];
	if (n < 1 || n > MAX_DEVICES)
		vex_die("NDEV must be 1 to %d", MAX_DEVICES);

	cl_device_id devs[MAX_DEVICES];
	int found = find_devices(devs, n);
	if (found < n)
		vex_die("%d device(s) asked for, %d found", n, found);
	host_link links[MAX_DEVICES];
	for (int i = 0; i < n; i++) {
		link_open(&links[i], devs[i]);
		if (!a.quiet) {
			char name[256] = "";
			clGetDeviceInfo(devs[i], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
			fprintf(stderr, "device %d: %s\n", i, name);
		}
	}
	for (h2d = 1; h2d >= 0; h2d--) {
		report(1, size, best_at_once(links, 1, reps));
		if (n > 1)
			report(n, size * (size_t)n, best_at_once(links, n, reps));
	}
	for (int i = 0; i < n; i++)
		link_close(&links[i]);
	return 0;
}
