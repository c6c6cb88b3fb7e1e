// async_work_group_copy (and prefetch) move global memory behind the
// analysis' back: the kernel is not virtualizable, warned at the call.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c novirt-async-copy.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: FileCheck --check-prefix=STUB %s < %t/novirt-async-copy.vast.c

__kernel void tile(__global const float *src, __global float *dst, __local float *t)
{
	event_t e = async_work_group_copy(t, src + get_group_id(0) * 64, 64, 0);
	wait_group_events(1, &e);
	dst[get_global_id(0)] = t[get_local_id(0)] * 2.0f;
}

__kernel void pre(__global const float *src, __global float *dst)
{
	prefetch(src, 16);
	dst[get_global_id(0)] = src[get_global_id(0)];
}

// CHECK: kernel tile: line=7 col=1 virtualizable=false reason="async copies and prefetch of global memory are not supported" reason_line=9 reason_col=14
// CHECK: kernel pre: line=14 col=1 virtualizable=false reason="async copies and prefetch of global memory are not supported" reason_line=16 reason_col=2
// WARN: novirt-async-copy.cl:9:14: warning: kernel 'tile' cannot be virtualized: async copies and prefetch of global memory are not supported; it runs natively when its data fits
// WARN: novirt-async-copy.cl:16:2: warning: kernel 'pre' cannot be virtualized:
// STUB: .virtualizable = 0, .reason = "async copies and prefetch of global memory are not supported", .location = "novirt-async-copy.cl:9:14",
