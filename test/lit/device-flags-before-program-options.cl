// The device's macros come first and the program's build options after
// them, as a device compiler applies -D and -U after its predefined
// macros: a program that defines cl_khr_fp16 itself keeps its definition
// on a device without the extension.
// RUN: rm -rf %t && mkdir -p %t && cd %S
// RUN: %vastcc --emit-json=%t/a.json --cl-options="-Dcl_khr_fp16=1" --device-extensions=cl_khr_fp64 device-flags-before-program-options.cl
// RUN: FileCheck %s < %t/a.json

#ifdef cl_khr_fp16
#define SCALE 16
#else
#define SCALE 32
#endif
__kernel void scale(__global float *a)
{
	a[get_global_id(0)] *= SCALE;
}

// CHECK: "generated_source": "{{.*}}*= 16;
