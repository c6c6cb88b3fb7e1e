// --device-macro=NAME=VALUE and --device-macro=-NAME set the device's
// fixed macros (OpenCL C 1.2 §6.10) in place of the generic ones: the
// preprocessor sees them, and the stub records them.
// RUN: rm -rf %t && mkdir -p %t && cd %S
// RUN: %vastcc --emit-json=%t/a.json --device-macro=__OPENCL_VERSION__=300 --device-macro=-__IMAGE_SUPPORT__ --device-macro=__ENDIAN_LITTLE__=1 device-macro-recorded.cl 2>&1 | count 0
// RUN: FileCheck %s < %t/a.json

#if __OPENCL_VERSION__ >= 300 && !defined(__IMAGE_SUPPORT__) && __ENDIAN_LITTLE__
#define SCALE 3
#else
#define SCALE 1
#endif
__kernel void scale(__global float *a)
{
	a[get_global_id(0)] *= SCALE;
}

// CHECK: "name": "__OPENCL_VERSION__",
// CHECK-NEXT: "value": "300"
// CHECK: "name": "__IMAGE_SUPPORT__",
// CHECK-NEXT: "value": null
// CHECK: "name": "__ENDIAN_LITTLE__",
// CHECK-NEXT: "value": "1"
// CHECK: "generated_source": "{{.*}}*= 3;
