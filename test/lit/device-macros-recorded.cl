// Device-dependent macros (issue 7, item 12): the file is preprocessed for
// a generic OpenCL device (clang's spir64 target, __OPENCL_VERSION__ from
// -cl-std), so __OPENCL_VERSION__ is declared, and the stub records every
// device macro the user's files name, headers and code included, with the
// value assumed (NULL: undefined); the runtime compares them with the
// device. Names in comments do not count: cl_khr_gl_sharing.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --cl-options="-I Inputs/include" -c device-macros-recorded.cl -o %t.o
// RUN: FileCheck %s < %t/device-macros-recorded.vast.c
// RUN: FileCheck --check-prefix=GEN %s < %t/device-macros-recorded.vast.cl
// RUN: rm -rf %t2 && %vastcc --emit-kernels=%t2 --cl-options="-I Inputs/include -cl-std=CL2.0" -c device-macros-recorded.cl -o %t2.o
// RUN: FileCheck --check-prefix=CL20 %s < %t2/device-macros-recorded.vast.c
#include "devmacro.h"

#if defined(cl_khr_fp64) && __OPENCL_VERSION__ >= 120
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void k(__global float *out)
{
#ifdef __IMAGE_SUPPORT__
	out[get_global_id(0)] = __OPENCL_VERSION__ + HAVE_ATOM64;
#endif
#ifdef cl_vendor_thing
	out[get_global_id(0)] = 0.0f;
#endif
}

// CHECK: static const vast_device_macro vast_stub_devmacros_[[SFX:[0-9a-f]+]][] = {
// CHECK-NEXT: { "cl_khr_fp64", "1" },
// CHECK-NEXT: { "__OPENCL_VERSION__", "120" },
// CHECK-NEXT: { "__IMAGE_SUPPORT__", "1" },
// CHECK-NEXT: { "cl_vendor_thing", NULL },
// CHECK-NEXT: { "cl_khr_int64_base_atomics", "1" },
// CHECK-NEXT: };
// CHECK: .ndevice_macros = 5,
// CHECK-NEXT: .device_macros = vast_stub_devmacros_[[SFX]],
// GEN: out[get_global_id(0)] = 120 + 1;
// CL20: { "__OPENCL_VERSION__", "200" },
