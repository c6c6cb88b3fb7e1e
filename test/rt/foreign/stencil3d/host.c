/* SPDX-License-Identifier: MIT */
/*
 * Stencil3D - written in the manner of the AMD APP SDK samples: platform
 * chosen by vendor, context from a device type, the kernel file read
 * whole and passed with its length, every kernel of the program created
 * with clCreateKernelsInProgram and found by name, host-allocated
 * buffers (CL_MEM_USE_HOST_PTR) filled and read through map/unmap, a
 * profiling queue timed with clGetEventProfilingInfo, 3-D NDRanges with
 * a global offset and no local size, clEnqueueCopyBuffer between steps.
 * usage: Stencil3D OUT   (writes the final volume to OUT)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_OPENCL_ERROR(actual, msg)                                      \
	if ((actual) != CL_SUCCESS) {                                        \
		fprintf(stderr, "Error: %s (%d) at %s:%d\n", msg, (int)(actual), \
		        __FILE__, __LINE__);                                 \
		return SDK_FAILURE;                                          \
	}
#define SDK_SUCCESS 0
#define SDK_FAILURE 1

typedef struct {
	cl_uint width, height, depth, iterations;
	cl_float c0, c1;
	cl_float *volume;       /* host memory behind both buffers */
	cl_float *scratch;
	cl_context context;
	cl_device_id device;
	cl_command_queue commandQueue;
	cl_program program;
	cl_kernel kernels[8];
	cl_uint numKernels;
	cl_mem volBuf, tmpBuf;
	double kernelTimeMs;
} Stencil3D;

static char *readKernelFile(const char *name, size_t *size)
{
	FILE *f = fopen(name, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = (char *)malloc((size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(s);
		return NULL;
	}
	s[n] = '\0';
	fclose(f);
	*size = (size_t)n + 1; /* with the NUL, as some SDK helpers count it */
	return s;
}

static cl_kernel kernelByName(Stencil3D *s, const char *name)
{
	for (cl_uint i = 0; i < s->numKernels; i++) {
		char buf[128];
		if (clGetKernelInfo(s->kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof buf, buf, NULL) == CL_SUCCESS &&
		    !strcmp(buf, name))
			return s->kernels[i];
	}
	return NULL;
}

static double eventMs(cl_event ev)
{
	cl_ulong t0 = 0, t1 = 0;
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
	return t1 >= t0 ? (double)(t1 - t0) * 1e-6 : 0.0;
}

static int setupCL(Stencil3D *s)
{
	cl_int status;
	cl_uint numPlatforms;
	cl_platform_id platform = NULL;
	status = clGetPlatformIDs(0, NULL, &numPlatforms);
	CHECK_OPENCL_ERROR(status, "clGetPlatformIDs failed.");
	cl_platform_id *platforms = (cl_platform_id *)malloc(numPlatforms * sizeof(cl_platform_id));
	status = clGetPlatformIDs(numPlatforms, platforms, NULL);
	CHECK_OPENCL_ERROR(status, "clGetPlatformIDs failed.");
	for (cl_uint i = 0; i < numPlatforms; ++i) {
		char pbuf[100];
		status = clGetPlatformInfo(platforms[i], CL_PLATFORM_VENDOR, sizeof(pbuf), pbuf, NULL);
		CHECK_OPENCL_ERROR(status, "clGetPlatformInfo failed.");
		platform = platforms[i];
		if (!strcmp(pbuf, "Advanced Micro Devices, Inc."))
			break;
	}
	free(platforms);
	cl_context_properties cps[3] = { CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0 };
	s->context = clCreateContextFromType(cps, CL_DEVICE_TYPE_ALL, NULL, NULL, &status);
	CHECK_OPENCL_ERROR(status, "clCreateContextFromType failed.");
	status = clGetContextInfo(s->context, CL_CONTEXT_DEVICES, sizeof(cl_device_id), &s->device, NULL);
	CHECK_OPENCL_ERROR(status, "clGetContextInfo failed.");
	s->commandQueue = clCreateCommandQueue(s->context, s->device, CL_QUEUE_PROFILING_ENABLE, &status);
	CHECK_OPENCL_ERROR(status, "clCreateCommandQueue failed.");

	size_t n = (size_t)s->width * s->height * s->depth;
	s->volume = (cl_float *)malloc(n * sizeof(cl_float));
	s->scratch = (cl_float *)malloc(n * sizeof(cl_float));
	s->volBuf = clCreateBuffer(s->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
	                           n * sizeof(cl_float), s->volume, &status);
	CHECK_OPENCL_ERROR(status, "clCreateBuffer failed. (volBuf)");
	s->tmpBuf = clCreateBuffer(s->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
	                           n * sizeof(cl_float), s->scratch, &status);
	CHECK_OPENCL_ERROR(status, "clCreateBuffer failed. (tmpBuf)");

	size_t sourceSize[1];
	char *source = readKernelFile("Stencil3D_Kernels.cl", &sourceSize[0]);
	if (!source) {
		fprintf(stderr, "Failed to load kernel file: Stencil3D_Kernels.cl\n");
		return SDK_FAILURE;
	}
	const char *sources[] = { source };
	s->program = clCreateProgramWithSource(s->context, 1, sources, sourceSize, &status);
	free(source);
	CHECK_OPENCL_ERROR(status, "clCreateProgramWithSource failed.");
	status = clBuildProgram(s->program, 1, &s->device, "", NULL, NULL);
	if (status != CL_SUCCESS) {
		char log[16384];
		clGetProgramBuildInfo(s->program, s->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		fprintf(stderr, "%s\n", log);
	}
	CHECK_OPENCL_ERROR(status, "clBuildProgram failed.");
	cl_uint numInProgram = 0;
	status = clCreateKernelsInProgram(s->program, 0, NULL, &numInProgram);
	CHECK_OPENCL_ERROR(status, "clCreateKernelsInProgram(count) failed.");
	if (numInProgram != 3) {
		fprintf(stderr, "Error: expected 3 kernels, program has %u\n", numInProgram);
		return SDK_FAILURE;
	}
	status = clCreateKernelsInProgram(s->program, 8, s->kernels, &s->numKernels);
	CHECK_OPENCL_ERROR(status, "clCreateKernelsInProgram failed.");
	return SDK_SUCCESS;
}

static int runCLKernels(Stencil3D *s)
{
	cl_int status;
	cl_event ev;
	size_t n = (size_t)s->width * s->height * s->depth;
	cl_kernel init = kernelByName(s, "initVolume");
	cl_kernel stencil = kernelByName(s, "stencil7");
	cl_kernel scale = kernelByName(s, "scaleVolume");
	if (!init || !stencil || !scale) {
		fprintf(stderr, "Error: kernel missing\n");
		return SDK_FAILURE;
	}

	/* Fill the scratch volume on the host, through a map. */
	cl_float *p = (cl_float *)clEnqueueMapBuffer(s->commandQueue, s->tmpBuf, CL_TRUE,
	                                             CL_MAP_WRITE, 0, n * sizeof(cl_float),
	                                             0, NULL, NULL, &status);
	CHECK_OPENCL_ERROR(status, "clEnqueueMapBuffer failed.");
	for (size_t i = 0; i < n; i++)
		p[i] = 0.0f;
	status = clEnqueueUnmapMemObject(s->commandQueue, s->tmpBuf, p, 0, NULL, &ev);
	CHECK_OPENCL_ERROR(status, "clEnqueueUnmapMemObject failed.");
	clWaitForEvents(1, &ev);
	clReleaseEvent(ev);

	/* The volume: every point, 3-D, no offset. */
	size_t globalThreads[3] = { s->width, s->height, s->depth };
	status = clSetKernelArg(init, 0, sizeof(cl_mem), &s->volBuf);
	status |= clSetKernelArg(init, 1, sizeof(cl_uint), &s->width);
	status |= clSetKernelArg(init, 2, sizeof(cl_uint), &s->height);
	CHECK_OPENCL_ERROR(status, "clSetKernelArg failed. (init)");
	status = clEnqueueNDRangeKernel(s->commandQueue, init, 3, NULL, globalThreads, NULL, 0, NULL, &ev);
	CHECK_OPENCL_ERROR(status, "clEnqueueNDRangeKernel failed. (init)");
	status = clWaitForEvents(1, &ev);
	CHECK_OPENCL_ERROR(status, "clWaitForEvents failed.");
	s->kernelTimeMs += eventMs(ev);
	clReleaseEvent(ev);

	size_t offset[3] = { 1, 1, 1 };
	size_t interior[3] = { s->width - 2, s->height - 2, s->depth - 2 };
	for (cl_uint it = 0; it < s->iterations; it++) {
		/* Boundaries carry over: out starts as a copy of in. */
		cl_event copied;
		status = clEnqueueCopyBuffer(s->commandQueue, s->volBuf, s->tmpBuf, 0, 0,
		                             n * sizeof(cl_float), 0, NULL, &copied);
		CHECK_OPENCL_ERROR(status, "clEnqueueCopyBuffer failed.");
		status = clSetKernelArg(stencil, 0, sizeof(cl_mem), &s->volBuf);
		status |= clSetKernelArg(stencil, 1, sizeof(cl_mem), &s->tmpBuf);
		status |= clSetKernelArg(stencil, 2, sizeof(cl_uint), &s->width);
		status |= clSetKernelArg(stencil, 3, sizeof(cl_uint), &s->height);
		status |= clSetKernelArg(stencil, 4, sizeof(cl_float), &s->c0);
		status |= clSetKernelArg(stencil, 5, sizeof(cl_float), &s->c1);
		CHECK_OPENCL_ERROR(status, "clSetKernelArg failed. (stencil)");
		status = clEnqueueNDRangeKernel(s->commandQueue, stencil, 3, offset, interior, NULL,
		                                1, &copied, &ev);
		CHECK_OPENCL_ERROR(status, "clEnqueueNDRangeKernel failed. (stencil)");
		clWaitForEvents(1, &ev);
		s->kernelTimeMs += eventMs(ev);
		clReleaseEvent(ev);
		clReleaseEvent(copied);
		status = clEnqueueCopyBuffer(s->commandQueue, s->tmpBuf, s->volBuf, 0, 0,
		                             n * sizeof(cl_float), 0, NULL, NULL);
		CHECK_OPENCL_ERROR(status, "clEnqueueCopyBuffer failed.");
	}
	/* Scale the whole volume, launched as width x height x depth again. */
	cl_float f = 0.5f;
	status = clSetKernelArg(scale, 0, sizeof(cl_mem), &s->volBuf);
	status |= clSetKernelArg(scale, 1, sizeof(cl_float), &f);
	CHECK_OPENCL_ERROR(status, "clSetKernelArg failed. (scale)");
	status = clEnqueueNDRangeKernel(s->commandQueue, scale, 3, NULL, globalThreads, NULL, 0, NULL, NULL);
	CHECK_OPENCL_ERROR(status, "clEnqueueNDRangeKernel failed. (scale)");
	status = clFinish(s->commandQueue);
	CHECK_OPENCL_ERROR(status, "clFinish failed.");
	return SDK_SUCCESS;
}

static int verifyAndWrite(Stencil3D *s, const char *out)
{
	cl_int status;
	size_t n = (size_t)s->width * s->height * s->depth;
	cl_float *res = (cl_float *)clEnqueueMapBuffer(s->commandQueue, s->volBuf, CL_TRUE, CL_MAP_READ,
	                                               0, n * sizeof(cl_float), 0, NULL, NULL, &status);
	CHECK_OPENCL_ERROR(status, "clEnqueueMapBuffer failed. (result)");
	if (res != s->volume) {
		fprintf(stderr, "Error: USE_HOST_PTR map did not return the host pointer\n");
		return SDK_FAILURE;
	}
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += res[i];
	FILE *f = fopen(out, "wb");
	int ok = f && fwrite(res, sizeof(cl_float), n, f) == n;
	if (f && fclose(f))
		ok = 0;
	status = clEnqueueUnmapMemObject(s->commandQueue, s->volBuf, res, 0, NULL, NULL);
	CHECK_OPENCL_ERROR(status, "clEnqueueUnmapMemObject failed.");
	clFinish(s->commandQueue);
	printf("Stencil3D %ux%ux%u, %u iterations, checksum %.6f\n", s->width, s->height,
	       s->depth, s->iterations, sum);
	return ok ? SDK_SUCCESS : SDK_FAILURE;
}

static void cleanup(Stencil3D *s)
{
	for (cl_uint i = 0; i < s->numKernels; i++)
		clReleaseKernel(s->kernels[i]);
	clReleaseProgram(s->program);
	clReleaseMemObject(s->volBuf);
	clReleaseMemObject(s->tmpBuf);
	clReleaseCommandQueue(s->commandQueue);
	clReleaseContext(s->context);
	free(s->volume);
	free(s->scratch);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s OUT\n", argv[0]);
		return 1;
	}
	Stencil3D s;
	memset(&s, 0, sizeof s);
	s.width = 48;
	s.height = 40;
	s.depth = 36;
	s.iterations = 3;
	s.c0 = 0.4f;
	s.c1 = 0.1f;
	int r = setupCL(&s);
	if (r == SDK_SUCCESS)
		r = runCLKernels(&s);
	if (r == SDK_SUCCESS)
		r = verifyAndWrite(&s, argv[1]);
	cleanup(&s);
	return r;
}
