/* SPDX-License-Identifier: MIT */
/*
 * device.c - the virtual device's memory, as device queries report it.
 *
 * Buffers are host-backed and paged onto the device on demand, so the
 * device a program sees has the host's physical memory as its global
 * memory, and one buffer may be as large as that. Programs that size
 * their data from these queries then create what they need; every other
 * query is the real device's answer.
 */
#include <unistd.h>

#include "vrt.h"

static cl_ulong host_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || psize <= 0)
		return 0;
	return (cl_ulong)pages * (cl_ulong)psize;
}

cl_int vrt_api_clGetDeviceInfo(cl_device_id d, cl_device_info param,
	size_t size, void *value, size_t *ret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	if (vrt_native_mode() ||
	    (param != CL_DEVICE_GLOBAL_MEM_SIZE && param != CL_DEVICE_MAX_MEM_ALLOC_SIZE))
		return vrt_real.clGetDeviceInfo(d, param, size, value, ret);
	/* Validate the device through the real query first. */
	cl_ulong real;
	cl_int err = vrt_real.clGetDeviceInfo(d, param, sizeof real, &real, NULL);
	if (err != CL_SUCCESS)
		return err;
	cl_ulong mem = host_memory();
	if (mem < real)
		mem = real;
	return vrt_info_out(&mem, sizeof mem, size, value, ret);
}
