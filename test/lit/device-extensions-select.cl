// --device-extensions=LIST preprocesses for a device with exactly those
// extensions (OpenCL C 1.2 §9.1: a device defines cl_khr_fp16 iff it
// supports it): `#ifdef cl_khr_fp16` takes the branch that device would,
// and the stub records the value the program was compiled with.
// RUN: rm -rf %t && mkdir -p %t && cd %S
// RUN: %vastcc --emit-json=%t/no.json --device-extensions=cl_khr_fp64 device-extensions-select.cl
// RUN: FileCheck --check-prefix=NO %s < %t/no.json
// RUN: %vastcc --emit-json=%t/yes.json "--device-extensions=cl_khr_fp64, cl_khr_fp16" device-extensions-select.cl
// RUN: FileCheck --check-prefix=YES %s < %t/yes.json
// Without the flag: clang's generic spir64 device, which has cl_khr_fp16.
// RUN: %vastcc --emit-json=%t/generic.json device-extensions-select.cl
// RUN: FileCheck --check-prefix=YES %s < %t/generic.json

#ifdef cl_khr_fp16
#define SCALE 16
#else
#define SCALE 32
#endif
__kernel void scale(__global float *a)
{
	a[get_global_id(0)] *= SCALE;
}

// NO: "name": "cl_khr_fp16",
// NO-NEXT: "value": null
// NO: "generated_source": "{{.*}}*= 32;
// YES: "name": "cl_khr_fp16",
// YES-NEXT: "value": "1"
// YES: "generated_source": "{{.*}}*= 16;
