// OpenCL 2.0 generic address space: an access through a generic pointer
// may or may not be global memory: not virtualizable. -cl-std= comes from
// --cl-options.
// RUN: cd %S && %vastcc --cl-options=-cl-std=CL2.0 --report=- -c novirt-generic-pointer.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: cd %S && %not %vastcc -c novirt-generic-pointer.cl -o %t.o 2>&1 | FileCheck --check-prefix=CL12 %s

void set(float *p) { *p = 1.0f; }

__kernel void gen(__global float *a)
{
	set(a + get_global_id(0));
}

// CHECK: file novirt-generic-pointer.cl cl_options=-cl-std=CL2.0
// CHECK: kernel gen: {{.*}} virtualizable=false reason="an access through a generic address space pointer" reason_line=8 reason_col=22
// WARN: novirt-generic-pointer.cl:8:22: warning: kernel 'gen' cannot be virtualized: an access through a generic address space pointer; it runs natively when its data fits
// Without -cl-std=CL2.0 the unqualified pointer is private: a type error.
// CL12: novirt-generic-pointer.cl:12:6: error:
