/* SPDX-License-Identifier: MIT */
/*
 * devmacros.c - does the device agree with the macros vastcc assumed?
 *
 * vastcc preprocessed the program for a generic device, and its stub
 * lists each device-dependent macro the program names with the value it
 * assumed (vast_device_macro; lib/analysis/devmacros.c). Before a build
 * uses the generated program, every device it is built for must give
 * each the same value, as its compiler would predefine it (OpenCL C 1.2
 * §6.10 and §9.1):
 *   cl_<vendor>_<name>   defined (1) iff named in CL_DEVICE_EXTENSIONS
 *   __IMAGE_SUPPORT__    CL_DEVICE_IMAGE_SUPPORT
 *   __ENDIAN_LITTLE__    CL_DEVICE_ENDIAN_LITTLE
 *   __EMBEDDED_PROFILE__ CL_DEVICE_PROFILE is EMBEDDED_PROFILE
 *   __OPENCL_VERSION__   CL_DEVICE_VERSION "OpenCL X.Y" as XY0
 *   __OPENCL_C_VERSION__ the build's -cl-std, else the device's OpenCL C
 *                        version, at most 1.2 (without -cl-std a compiler
 *                        uses the highest OpenCL C 1.x it supports)
 * Any other name (the OpenCL C 3.0 feature macros) cannot be checked, so
 * it counts as a difference: the program then runs natively, never on a
 * guess.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/program.h"

/* "OpenCL 3.0 ..." / "OpenCL C 1.2 ..." after `skip`: 300 / 120; 0 if
 * unreadable. */
static unsigned version_of(const char *s, const char *skip)
{
	unsigned major, minor;
	size_t k = strlen(skip);
	if (strncmp(s, skip, k) || sscanf(s + k, "%u.%u", &major, &minor) != 2)
		return 0;
	return major * 100 + minor * 10;
}

char *vrt_device_info_str(cl_device_id d, cl_device_info what)
{
	size_t n = 0;
	if (vrt_real.clGetDeviceInfo(d, what, 0, NULL, &n) != CL_SUCCESS)
		return NULL;
	char *s = vrt_malloc(n + 1);
	if (s && vrt_real.clGetDeviceInfo(d, what, n, s, NULL) != CL_SUCCESS) {
		vrt_free(s);
		return NULL;
	}
	if (s)
		s[n] = '\0';
	return s;
}

static int has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *s = list; s && (s = strstr(s, w)); s += n)
		if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
			return 1;
	return 0;
}

int vrt_device_macro_value(cl_device_id d, const char *name, const char *opts, char *val,
                           size_t n)
{
	cl_bool b = CL_FALSE;
	char *s = NULL;
	unsigned v = 0;
	val[0] = '\0';
	if (!strncmp(name, "cl_", 3)) {
		if (!(s = vrt_device_info_str(d, CL_DEVICE_EXTENSIONS)))
			return 0;
		if (has_word(s, name))
			snprintf(val, n, "1");
	} else if (!strcmp(name, "__IMAGE_SUPPORT__") || !strcmp(name, "__ENDIAN_LITTLE__")) {
		cl_device_info what = name[2] == 'I' ? CL_DEVICE_IMAGE_SUPPORT
		                                     : CL_DEVICE_ENDIAN_LITTLE;
		if (vrt_real.clGetDeviceInfo(d, what, sizeof b, &b, NULL) != CL_SUCCESS)
			return 0;
		if (b)
			snprintf(val, n, "1");
	} else if (!strcmp(name, "__EMBEDDED_PROFILE__")) {
		if (!(s = vrt_device_info_str(d, CL_DEVICE_PROFILE)))
			return 0;
		if (!strcmp(s, "EMBEDDED_PROFILE"))
			snprintf(val, n, "1");
	} else if (!strcmp(name, "__OPENCL_VERSION__")) {
		if (!(s = vrt_device_info_str(d, CL_DEVICE_VERSION)) || !(v = version_of(s, "OpenCL ")))
			goto unknown;
		snprintf(val, n, "%u", v);
	} else if (!strcmp(name, "__OPENCL_C_VERSION__")) {
		const char *std = opts ? strstr(opts, "-cl-std=") : NULL;
		if (std)
			v = version_of(std, "-cl-std=CL");
		else if ((s = vrt_device_info_str(d, CL_DEVICE_OPENCL_C_VERSION)) &&
		         (v = version_of(s, "OpenCL C ")) > 120)
			v = 120;
		if (!v)
			goto unknown;
		snprintf(val, n, "%u", v);
	} else {
		return 0;
	}
	vrt_free(s);
	return 1;
unknown:
	vrt_free(s);
	return 0;
}

int vrt_device_macros_match(const vast_program_info *stub, cl_context ctx, cl_uint ndev,
                            const cl_device_id *devs, const char *opts, char *why,
                            size_t n)
{
	cl_device_id own[16];
	if (!stub->ndevice_macros)
		return 1;
	if (!devs) {
		size_t sz = 0;
		if (clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof own, own, &sz) != CL_SUCCESS) {
			snprintf(why, n, "program '%s': cannot list its context's devices; running natively",
			         stub->file);
			return 0;
		}
		ndev = (cl_uint)(sz / sizeof *own);
		devs = own;
	}
	for (cl_uint i = 0; i < ndev; i++) {
		for (unsigned m = 0; m < stub->ndevice_macros; m++) {
			const vast_device_macro *dm = &stub->device_macros[m];
			const char *want = dm->value ? dm->value : "";
			char have[32];
			char *dev = vrt_device_info_str(devs[i], CL_DEVICE_NAME);
			int known = vrt_device_macro_value(devs[i], dm->name, opts, have, sizeof have);
			if (!known || strcmp(want, have)) {
				if (!known)
					snprintf(why, n, "program '%s' tests '%s', which vastcc cannot check on device '%s'; running natively",
					         stub->file, dm->name, dev ? dev : "?");
				else
					snprintf(why, n, "program '%s' tests '%s', which vastcc took as %s%s and device '%s' has %s%s; running natively",
					         stub->file, dm->name, *want ? "" : "undefined", want,
					         dev ? dev : "?", *have ? "" : "undefined", have);
				vrt_free(dev);
				return 0;
			}
			vrt_free(dev);
		}
	}
	return 1;
}
