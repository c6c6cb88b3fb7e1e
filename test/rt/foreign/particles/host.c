/* SPDX-License-Identifier: MIT */
/*
 * oclParticles - in the manner of NVIDIA's OpenCL SDK samples: the kernel
 * loaded by an oclLoadProgSource() look-alike (preamble + file, with its
 * length), GPU preferred, pinned host buffers (CL_MEM_ALLOC_HOST_PTR)
 * mapped once and used as the source of non-blocking writes whose events
 * gate the first launch, a struct passed by value and a __constant
 * table, build options with -D, the local size asked of
 * clGetKernelWorkGroupInfo, clEnqueueCopyBuffer between kernels and a
 * __local reduction with barriers.
 * usage: oclParticles OUT
 */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 128
#define NUM_PARTICLES (BLOCK_SIZE * 300 + 17)
#define WIND_ENTRIES 64
#define STEPS 4
#define BUILD_OPTIONS "-DBLOCK_SIZE=128 -DUSE_DAMPING -cl-mad-enable"

#define oclCheckErrorEX(a, b, c) __oclCheckErrorEX(a, b, c, __FILE__, __LINE__)
#define oclCheckError(a, b) oclCheckErrorEX(a, b, 0)
static void __oclCheckErrorEX(cl_int iSample, cl_int iReference, void (*pCleanup)(int),
                              const char *cFile, const int iLine)
{
	if (iReference != iSample) {
		printf("\n !!! Error # %i (%i) at line %i , in file %s !!!\n\n", iSample, iReference,
		       iLine, cFile);
		if (pCleanup)
			pCleanup(EXIT_FAILURE);
		exit(EXIT_FAILURE);
	}
}

typedef struct {
	cl_float4 gravity;
	cl_float dt;
	cl_float damping;
	cl_uint numParticles;
	cl_uint windMask;
} SimParams;

static char *oclLoadProgSource(const char *cFilename, const char *cPreamble, size_t *szFinalLength)
{
	FILE *pFileStream = fopen(cFilename, "rb");
	if (pFileStream == 0)
		return NULL;
	size_t szPreambleLength = strlen(cPreamble);
	fseek(pFileStream, 0, SEEK_END);
	size_t szSourceLength = ftell(pFileStream);
	fseek(pFileStream, 0, SEEK_SET);
	char *cSourceString = (char *)malloc(szSourceLength + szPreambleLength + 1);
	memcpy(cSourceString, cPreamble, szPreambleLength);
	if (fread((cSourceString) + szPreambleLength, szSourceLength, 1, pFileStream) != 1) {
		fclose(pFileStream);
		free(cSourceString);
		return 0;
	}
	fclose(pFileStream);
	if (szFinalLength != 0)
		*szFinalLength = szSourceLength + szPreambleLength;
	cSourceString[szSourceLength + szPreambleLength] = '\0';
	return cSourceString;
}

static unsigned int uiSeed = 2024;
static float frand(void)
{
	uiSeed = uiSeed * 1664525u + 1013904223u;
	return (float)(uiSeed >> 8) / 16777216.0f * 2.0f - 1.0f;
}

int main(int argc, char **argv)
{
	cl_int ciErrNum;
	if (argc < 2) {
		printf("usage: %s OUT\n", argv[0]);
		return 1;
	}
	cl_platform_id cpPlatform;
	ciErrNum = clGetPlatformIDs(1, &cpPlatform, NULL);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_device_id cdDevice;
	ciErrNum = clGetDeviceIDs(cpPlatform, CL_DEVICE_TYPE_GPU, 1, &cdDevice, NULL);
	if (ciErrNum != CL_SUCCESS)
		ciErrNum = clGetDeviceIDs(cpPlatform, CL_DEVICE_TYPE_ALL, 1, &cdDevice, NULL);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_context cxGPUContext = clCreateContext(0, 1, &cdDevice, NULL, NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_command_queue cqCommandQueue = clCreateCommandQueue(cxGPUContext, cdDevice, 0, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);

	size_t szKernelLength;
	char *cSourceCL = oclLoadProgSource("oclParticles.cl", "", &szKernelLength);
	if (!cSourceCL) {
		printf("cannot load oclParticles.cl\n");
		return 1;
	}
	cl_program cpProgram = clCreateProgramWithSource(cxGPUContext, 1, (const char **)&cSourceCL,
	                                                 &szKernelLength, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	ciErrNum = clBuildProgram(cpProgram, 0, NULL, BUILD_OPTIONS, NULL, NULL);
	if (ciErrNum != CL_SUCCESS) {
		char cBuildLog[10240];
		clGetProgramBuildInfo(cpProgram, cdDevice, CL_PROGRAM_BUILD_LOG, sizeof(cBuildLog), cBuildLog, NULL);
		printf("%s\n", cBuildLog);
		oclCheckError(ciErrNum, CL_SUCCESS);
	}
	cl_kernel ckIntegrate = clCreateKernel(cpProgram, "integrate", &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_kernel ckBounds = clCreateKernel(cpProgram, "blockBounds", &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);

	size_t wgSize = 0;
	ciErrNum = clGetKernelWorkGroupInfo(ckBounds, cdDevice, CL_KERNEL_WORK_GROUP_SIZE, sizeof wgSize, &wgSize, NULL);
	oclCheckError(ciErrNum, CL_SUCCESS);
	if (wgSize < BLOCK_SIZE) {
		printf("device work-group size %zu < %d\n", wgSize, BLOCK_SIZE);
		return 1;
	}
	size_t szLocalWorkSize = BLOCK_SIZE;
	size_t szGlobalWorkSize = (NUM_PARTICLES + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE;
	size_t numBlocks = szGlobalWorkSize / BLOCK_SIZE;
	size_t memSize = NUM_PARTICLES * sizeof(cl_float4);

	/* Pinned staging buffers, mapped once (NVIDIA's bandwidth-test idiom). */
	cl_mem cmPinnedPos = clCreateBuffer(cxGPUContext, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, memSize, NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_mem cmPinnedVel = clCreateBuffer(cxGPUContext, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, memSize, NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_float4 *h_Pos = (cl_float4 *)clEnqueueMapBuffer(cqCommandQueue, cmPinnedPos, CL_TRUE, CL_MAP_WRITE, 0, memSize, 0, NULL, NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_float4 *h_Vel = (cl_float4 *)clEnqueueMapBuffer(cqCommandQueue, cmPinnedVel, CL_TRUE, CL_MAP_WRITE, 0, memSize, 0, NULL, NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	for (int i = 0; i < NUM_PARTICLES; i++) {
		h_Pos[i].s[0] = frand();
		h_Pos[i].s[1] = frand();
		h_Pos[i].s[2] = frand();
		h_Pos[i].s[3] = 1.0f;
		h_Vel[i].s[0] = frand() * 0.1f;
		h_Vel[i].s[1] = frand() * 0.1f;
		h_Vel[i].s[2] = frand() * 0.1f;
		h_Vel[i].s[3] = 0.0f;
	}
	cl_float4 h_Wind[WIND_ENTRIES];
	for (int i = 0; i < WIND_ENTRIES; i++) {
		h_Wind[i].s[0] = frand() * 0.01f;
		h_Wind[i].s[1] = 0.0f;
		h_Wind[i].s[2] = frand() * 0.01f;
		h_Wind[i].s[3] = 0.0f;
	}

	cl_mem d_Pos = clCreateBuffer(cxGPUContext, CL_MEM_READ_WRITE, memSize, NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_mem d_Vel = clCreateBuffer(cxGPUContext, CL_MEM_READ_WRITE, memSize, NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_mem d_PosOld = clCreateBuffer(cxGPUContext, CL_MEM_READ_WRITE, memSize, NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_mem c_Wind = clCreateBuffer(cxGPUContext, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(h_Wind), h_Wind, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_mem d_Min = clCreateBuffer(cxGPUContext, CL_MEM_WRITE_ONLY, numBlocks * sizeof(cl_float4), NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_mem d_Max = clCreateBuffer(cxGPUContext, CL_MEM_WRITE_ONLY, numBlocks * sizeof(cl_float4), NULL, &ciErrNum);
	oclCheckError(ciErrNum, CL_SUCCESS);

	/* Non-blocking uploads; the first launch waits on both. */
	cl_event uploads[2];
	ciErrNum = clEnqueueWriteBuffer(cqCommandQueue, d_Pos, CL_FALSE, 0, memSize, h_Pos, 0, NULL, &uploads[0]);
	oclCheckError(ciErrNum, CL_SUCCESS);
	ciErrNum = clEnqueueWriteBuffer(cqCommandQueue, d_Vel, CL_FALSE, 0, memSize, h_Vel, 1, &uploads[0], &uploads[1]);
	oclCheckError(ciErrNum, CL_SUCCESS);

	SimParams params;
	memset(&params, 0, sizeof params);
	params.gravity.s[1] = -0.98f;
	params.dt = 0.05f;
	params.damping = 0.995f;
	params.numParticles = NUM_PARTICLES;
	params.windMask = WIND_ENTRIES - 1;
	ciErrNum = clSetKernelArg(ckIntegrate, 0, sizeof(cl_mem), (void *)&d_Pos);
	ciErrNum |= clSetKernelArg(ckIntegrate, 1, sizeof(cl_mem), (void *)&d_Vel);
	ciErrNum |= clSetKernelArg(ckIntegrate, 2, sizeof(cl_mem), (void *)&c_Wind);
	ciErrNum |= clSetKernelArg(ckIntegrate, 3, sizeof(SimParams), (void *)&params);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_uint n = NUM_PARTICLES;
	ciErrNum = clSetKernelArg(ckBounds, 0, sizeof(cl_mem), (void *)&d_Pos);
	ciErrNum |= clSetKernelArg(ckBounds, 1, sizeof(cl_mem), (void *)&d_Min);
	ciErrNum |= clSetKernelArg(ckBounds, 2, sizeof(cl_mem), (void *)&d_Max);
	ciErrNum |= clSetKernelArg(ckBounds, 3, BLOCK_SIZE * sizeof(cl_float4), NULL);
	ciErrNum |= clSetKernelArg(ckBounds, 4, BLOCK_SIZE * sizeof(cl_float4), NULL);
	ciErrNum |= clSetKernelArg(ckBounds, 5, sizeof(cl_uint), (void *)&n);
	oclCheckError(ciErrNum, CL_SUCCESS);

	cl_event evIntegrate = NULL;
	for (int step = 0; step < STEPS; step++) {
		ciErrNum = clEnqueueCopyBuffer(cqCommandQueue, d_Pos, d_PosOld, 0, 0, memSize,
		                               step == 0 ? 2 : 0, step == 0 ? uploads : NULL, NULL);
		oclCheckError(ciErrNum, CL_SUCCESS);
		if (evIntegrate)
			clReleaseEvent(evIntegrate);
		ciErrNum = clEnqueueNDRangeKernel(cqCommandQueue, ckIntegrate, 1, NULL, &szGlobalWorkSize,
		                                  &szLocalWorkSize, 0, NULL, &evIntegrate);
		oclCheckError(ciErrNum, CL_SUCCESS);
	}
	ciErrNum = clEnqueueNDRangeKernel(cqCommandQueue, ckBounds, 1, NULL, &szGlobalWorkSize,
	                                  &szLocalWorkSize, 1, &evIntegrate, NULL);
	oclCheckError(ciErrNum, CL_SUCCESS);
	clReleaseEvent(evIntegrate);
	clReleaseEvent(uploads[0]);
	clReleaseEvent(uploads[1]);

	/* Results back into the pinned buffers, then to the file. */
	ciErrNum = clEnqueueReadBuffer(cqCommandQueue, d_Pos, CL_FALSE, 0, memSize, h_Pos, 0, NULL, NULL);
	oclCheckError(ciErrNum, CL_SUCCESS);
	ciErrNum = clEnqueueReadBuffer(cqCommandQueue, d_Vel, CL_FALSE, 0, memSize, h_Vel, 0, NULL, NULL);
	oclCheckError(ciErrNum, CL_SUCCESS);
	cl_float4 *h_Min = (cl_float4 *)malloc(numBlocks * sizeof(cl_float4));
	cl_float4 *h_Max = (cl_float4 *)malloc(numBlocks * sizeof(cl_float4));
	cl_float4 *h_Old = (cl_float4 *)malloc(memSize);
	ciErrNum = clEnqueueReadBuffer(cqCommandQueue, d_Min, CL_FALSE, 0, numBlocks * sizeof(cl_float4), h_Min, 0, NULL, NULL);
	ciErrNum |= clEnqueueReadBuffer(cqCommandQueue, d_Max, CL_FALSE, 0, numBlocks * sizeof(cl_float4), h_Max, 0, NULL, NULL);
	ciErrNum |= clEnqueueReadBuffer(cqCommandQueue, d_PosOld, CL_FALSE, 0, memSize, h_Old, 0, NULL, NULL);
	oclCheckError(ciErrNum, CL_SUCCESS);
	clFinish(cqCommandQueue);

	FILE *f = fopen(argv[1], "wb");
	int ok = f && fwrite(h_Pos, memSize, 1, f) == 1 && fwrite(h_Vel, memSize, 1, f) == 1 &&
	         fwrite(h_Old, memSize, 1, f) == 1 &&
	         fwrite(h_Min, numBlocks * sizeof(cl_float4), 1, f) == 1 &&
	         fwrite(h_Max, numBlocks * sizeof(cl_float4), 1, f) == 1;
	if (f && fclose(f))
		ok = 0;
	printf("oclParticles: %d particles, %d steps, bounds y [%f, %f]\n", NUM_PARTICLES, STEPS,
	       h_Min[0].s[1], h_Max[0].s[1]);

	clEnqueueUnmapMemObject(cqCommandQueue, cmPinnedPos, h_Pos, 0, NULL, NULL);
	clEnqueueUnmapMemObject(cqCommandQueue, cmPinnedVel, h_Vel, 0, NULL, NULL);
	clFinish(cqCommandQueue);
	free(h_Min);
	free(h_Max);
	free(h_Old);
	free(cSourceCL);
	clReleaseKernel(ckIntegrate);
	clReleaseKernel(ckBounds);
	clReleaseProgram(cpProgram);
	clReleaseMemObject(cmPinnedPos);
	clReleaseMemObject(cmPinnedVel);
	clReleaseMemObject(d_Pos);
	clReleaseMemObject(d_Vel);
	clReleaseMemObject(d_PosOld);
	clReleaseMemObject(c_Wind);
	clReleaseMemObject(d_Min);
	clReleaseMemObject(d_Max);
	clReleaseCommandQueue(cqCommandQueue);
	clReleaseContext(cxGPUContext);
	return ok ? 0 : 1;
}
