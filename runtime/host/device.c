/* SPDX-License-Identifier: MIT */
/*
 * device.c - the device's memory: what queries report (the virtual
 * device's), and what a launch may use of the real one (its budget).
 *
 * Buffers are host-backed and paged onto the device on demand, so the
 * device a program sees has the host's physical memory as its global
 * memory, and one buffer may be as large as that. Programs that size
 * their data from these queries then create what they need; every other
 * query is the real device's answer.
 */
#include <unistd.h>

#include "host/host.h"

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

/* Budgets a device turned out not to hold (vrt_budget_shrink); a few
 * devices per process at most. Guarded by the runtime lock. */
static struct {
	cl_device_id dev;
	unsigned long long bytes;
} shrunk[16];

/* The budget of one launch on dev (DESIGN §3, docs/runtime.md):
 * VAST_DEVICE_MEM, else the device's memory less a margin of 1/16 (5 GiB
 * of the H100's 79.2) for the driver's context, the program, the LPTs
 * and the inspector's PAS rows, and less the pinned host memory, which
 * the device backs with its own (pinned.c). A device that allocates lazily may still
 * run out below it: paged.c then shrinks the budget (vrt_budget_shrink),
 * and what it learned holds for every later launch. */
unsigned long long vrt_budget(cl_device_id dev, unsigned long long footprint)
{
	unsigned long long b;
	if (vrt_cfg.mem_percent) {
		b = footprint * vrt_cfg.mem_percent / 100;
	} else if (vrt_cfg.mem_bytes) {
		b = vrt_cfg.mem_bytes;
	} else {
		cl_ulong g = 0;
		vrt_real.clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof g, &g, NULL);
		b = vrt_budget_default(g, vrt_pinned_bytes());
	}
	for (size_t i = 0; i < sizeof shrunk / sizeof *shrunk; i++)
		if (shrunk[i].dev == dev && shrunk[i].bytes < b)
			b = shrunk[i].bytes;
	return b;
}

unsigned long long vrt_budget_default(unsigned long long mem, unsigned long long pinned)
{
	unsigned long long b = mem - mem / 16;
	return pinned + mem / 16 <= b ? b - pinned : mem / 16;
}

int vrt_past_device(cl_device_id dev, unsigned long long bytes)
{
	unsigned long long b;
	if (vrt_cfg.mem_percent)
		return vrt_cfg.mem_percent < 100;
	if (vrt_cfg.mem_bytes) {
		b = vrt_cfg.mem_bytes;
	} else {
		cl_ulong g = 0;
		vrt_real.clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof g, &g, NULL);
		b = vrt_budget_default(g, 0);
	}
	return bytes > b;
}

unsigned long long vrt_max_alloc(cl_device_id dev)
{
	cl_ulong m = 0;
	vrt_real.clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof m, &m, NULL);
	if (vrt_cfg.max_alloc && (!m || m > vrt_cfg.max_alloc))
		m = vrt_cfg.max_alloc;
	return m;
}

void vrt_budget_shrink(cl_device_id dev, unsigned long long bytes)
{
	size_t i, n = sizeof shrunk / sizeof *shrunk;
	for (i = 0; i < n - 1 && shrunk[i].dev && shrunk[i].dev != dev; i++)
		;
	shrunk[i].dev = dev;
	shrunk[i].bytes = bytes;
}
