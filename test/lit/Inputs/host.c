/* Host program linked by driver-link.test: plain OpenCL host code. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

int main(void)
{
	cl_uint n = 0;
	cl_int err = clGetPlatformIDs(0, NULL, &n);
	printf("clGetPlatformIDs: %d\n", err);
	return 0;
}
