/* SPDX-License-Identifier: MIT */
/*
 * jacobi - a Poisson solver the way small GitHub projects write OpenCL:
 * everything in main(), a CL_CHECK macro, the device's global and
 * max-alloc memory queried to size the grid, the local size asked of
 * clGetKernelWorkGroupInfo, ping-pong buffers re-bound every iteration,
 * and a convergence test that reads per-group partial sums back after
 * every step (many small launches).
 * usage: jacobi OUT   (writes the solution grid to OUT)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CL_CHECK(_expr)                                                        \
	do {                                                                   \
		cl_int _err = _expr;                                           \
		if (_err == CL_SUCCESS)                                        \
			break;                                                 \
		fprintf(stderr, "OpenCL Error: '%s' returned %d!\n", #_expr, (int)_err); \
		abort();                                                       \
	} while (0)

#define CL_CHECK_ERR(_expr)                                                    \
	({                                                                     \
		cl_int _err = CL_INVALID_VALUE;                                \
		__typeof__(_expr) _ret = _expr;                                \
		if (_err != CL_SUCCESS) {                                      \
			fprintf(stderr, "OpenCL Error: '%s' returned %d!\n", #_expr, (int)_err); \
			abort();                                               \
		}                                                              \
		_ret;                                                          \
	})

static char *load_file(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	long len = ftell(fp);
	rewind(fp);
	char *buf = malloc(len + 1);
	size_t got = fread(buf, 1, len, fp);
	buf[got] = 0;
	fclose(fp);
	return buf;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s OUT\n", argv[0]);
		return 1;
	}
	cl_platform_id platforms[4];
	cl_uint platforms_n = 0;
	CL_CHECK(clGetPlatformIDs(4, platforms, &platforms_n));
	cl_device_id device;
	cl_uint devices_n = 0;
	CL_CHECK(clGetDeviceIDs(platforms[0], CL_DEVICE_TYPE_DEFAULT, 1, &device, &devices_n));

	cl_ulong global_mem = 0, max_alloc = 0;
	CL_CHECK(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global_mem, &global_mem, NULL));
	CL_CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
	/* Three grids must fit in global memory, each in one allocation. */
	int nx = 500, ny = 300;
	while ((cl_ulong)nx * ny * sizeof(float) > max_alloc ||
	       3 * (cl_ulong)nx * ny * sizeof(float) > global_mem / 2)
		ny /= 2;
	fprintf(stderr, "device: %llu MB global, %llu MB max alloc; grid %dx%d\n",
	        (unsigned long long)(global_mem >> 20), (unsigned long long)(max_alloc >> 20), nx, ny);

	cl_context context = CL_CHECK_ERR(clCreateContext(NULL, 1, &device, NULL, NULL, &_err));
	cl_command_queue queue = CL_CHECK_ERR(clCreateCommandQueue(context, device, 0, &_err));
	char *src = load_file("jacobi.cl");
	if (!src) {
		fprintf(stderr, "cannot read jacobi.cl\n");
		return 1;
	}
	cl_program program = CL_CHECK_ERR(clCreateProgramWithSource(context, 1, (const char **)&src, NULL, &_err));
	if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
		char buffer[10240];
		clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof(buffer), buffer, NULL);
		fprintf(stderr, "CL Compilation failed:\n%s", buffer);
		abort();
	}
	cl_kernel step = CL_CHECK_ERR(clCreateKernel(program, "jacobi_step", &_err));
	cl_kernel norm = CL_CHECK_ERR(clCreateKernel(program, "change_norm", &_err));

	size_t wg_max = 0;
	CL_CHECK(clGetKernelWorkGroupInfo(norm, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg_max, &wg_max, NULL));
	size_t local[2] = { 16, 16 };
	while (local[0] * local[1] > wg_max)
		local[1] /= 2;
	size_t global[2] = { (nx + local[0] - 1) / local[0] * local[0],
	                     (ny + local[1] - 1) / local[1] * local[1] };
	size_t groups = (global[0] / local[0]) * (global[1] / local[1]);

	size_t bytes = (size_t)nx * ny * sizeof(float);
	float *u0 = calloc((size_t)nx * ny, sizeof(float));
	float *rhs = malloc(bytes);
	float h = 1.0f / (nx - 1), h2 = h * h;
	for (int y = 0; y < ny; y++)
		for (int x = 0; x < nx; x++) {
			rhs[y * nx + x] = ((x / 25 + y / 25) % 2) ? 40.0f : -10.0f;
			if (y == 0)
				u0[x] = 1.0f; /* a hot edge */
		}
	cl_mem buf[2];
	buf[0] = CL_CHECK_ERR(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, u0, &_err));
	buf[1] = CL_CHECK_ERR(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, u0, &_err));
	cl_mem fbuf = CL_CHECK_ERR(clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, rhs, &_err));
	cl_mem partial = CL_CHECK_ERR(clCreateBuffer(context, CL_MEM_WRITE_ONLY, groups * sizeof(float), NULL, &_err));
	float *h_partial = malloc(groups * sizeof(float));

	CL_CHECK(clSetKernelArg(step, 2, sizeof(fbuf), &fbuf));
	CL_CHECK(clSetKernelArg(step, 3, sizeof(nx), &nx));
	CL_CHECK(clSetKernelArg(step, 4, sizeof(ny), &ny));
	CL_CHECK(clSetKernelArg(step, 5, sizeof(h2), &h2));
	CL_CHECK(clSetKernelArg(norm, 2, sizeof(partial), &partial));
	CL_CHECK(clSetKernelArg(norm, 3, local[0] * local[1] * sizeof(float), NULL));
	CL_CHECK(clSetKernelArg(norm, 4, sizeof(nx), &nx));
	CL_CHECK(clSetKernelArg(norm, 5, sizeof(ny), &ny));

	int it, cur = 0;
	double change = 0;
	for (it = 0; it < 30; it++) {
		CL_CHECK(clSetKernelArg(step, 0, sizeof(cl_mem), &buf[cur]));
		CL_CHECK(clSetKernelArg(step, 1, sizeof(cl_mem), &buf[1 - cur]));
		CL_CHECK(clEnqueueNDRangeKernel(queue, step, 2, NULL, global, local, 0, NULL, NULL));
		CL_CHECK(clSetKernelArg(norm, 0, sizeof(cl_mem), &buf[cur]));
		CL_CHECK(clSetKernelArg(norm, 1, sizeof(cl_mem), &buf[1 - cur]));
		CL_CHECK(clEnqueueNDRangeKernel(queue, norm, 2, NULL, global, local, 0, NULL, NULL));
		CL_CHECK(clEnqueueReadBuffer(queue, partial, CL_TRUE, 0, groups * sizeof(float), h_partial, 0, NULL, NULL));
		change = 0;
		for (size_t g = 0; g < groups; g++)
			change += h_partial[g];
		cur = 1 - cur;
		if (change < 1e-9)
			break;
	}
	float *u = malloc(bytes);
	CL_CHECK(clEnqueueReadBuffer(queue, buf[cur], CL_TRUE, 0, bytes, u, 0, NULL, NULL));
	fprintf(stderr, "jacobi: %d iterations, last change %g\n", it, change);
	FILE *out = fopen(argv[1], "wb");
	if (!out || fwrite(u, 1, bytes, out) != bytes || fwrite(&it, sizeof it, 1, out) != 1 || fclose(out)) {
		fprintf(stderr, "cannot write %s\n", argv[1]);
		return 1;
	}

	CL_CHECK(clReleaseMemObject(buf[0]));
	CL_CHECK(clReleaseMemObject(buf[1]));
	CL_CHECK(clReleaseMemObject(fbuf));
	CL_CHECK(clReleaseMemObject(partial));
	CL_CHECK(clReleaseKernel(step));
	CL_CHECK(clReleaseKernel(norm));
	CL_CHECK(clReleaseProgram(program));
	CL_CHECK(clReleaseCommandQueue(queue));
	CL_CHECK(clReleaseContext(context));
	free(src);
	free(u0);
	free(rhs);
	free(u);
	free(h_partial);
	return 0;
}
