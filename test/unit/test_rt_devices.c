/* SPDX-License-Identifier: MIT */
/*
 * test_rt_devices.c - VAST_DEVICES names (devices.c): "all", a type, a
 * type and its index over all platforms, lists in order, duplicates
 * dropped, and the errors for unknown or missing devices.
 */
#include <stdio.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

/* Two platforms' devices in order: gpu0, cpu0, gpu1, cpu1, acc0. */
static const cl_device_type types[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU,
                                       CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU,
                                       CL_DEVICE_TYPE_ACCELERATOR};

/* The selection of spec as a string of indices ("0,2"), or "error: why". */
static const char *pick(const char *spec)
{
	static char out[256];
	unsigned sel[VRT_MAX_DEVICES], n;
	char why[200];
	if (vrt_devices_select(spec, types, 5, sel, &n, why, sizeof why)) {
		snprintf(out, sizeof out, "error: %s", why);
		return out;
	}
	out[0] = 0;
	for (unsigned i = 0; i < n; i++)
		snprintf(out + strlen(out), sizeof out - strlen(out), "%s%u", i ? "," : "", sel[i]);
	return out;
}

int main(void)
{
	CHECK(!strcmp(pick("all"), "0,1,2,3,4"));
	CHECK(!strcmp(pick("gpu"), "0,2"));
	CHECK(!strcmp(pick("cpu"), "1,3"));
	CHECK(!strcmp(pick("gpu1"), "2"));
	CHECK(!strcmp(pick("gpu0,gpu1,cpu"), "0,2,1,3"));
	CHECK(!strcmp(pick("cpu1,acc0"), "3,4"));
	CHECK(!strcmp(pick("gpu0,gpu,gpu0"), "0,2"));
	CHECK(strstr(pick("gpu2"), "error: unknown device 'gpu2'"));
	CHECK(strstr(pick("gpu2"), "2 gpu devices"));
	CHECK(strstr(pick("tpu0"), "error: unknown device 'tpu0'"));
	CHECK(strstr(pick("gpux"), "error: unknown device 'gpux'"));
	CHECK(strstr(pick("gpu-1"), "error: unknown device 'gpu-1'"));
	CHECK(strstr(pick("gpu0,"), "error: "));
	CHECK(strstr(pick(",cpu"), "error: "));
	if (failures) {
		fprintf(stderr, "test_rt_devices: %d failures\n", failures);
		return 1;
	}
	printf("test_rt_devices: ok\n");
	return 0;
}
