// Whether a kernel's work-items depend on their work-group (items.c): the
// runtime may run a group that does not fit the device as smaller groups
// only where nothing a work-item computes depends on the group. The report
// says so per kernel, and why not; the stub's kernel table carries it.
// RUN: cd %S && %vastcc --report=- -c items-independent.cl -o %t.o | %flatjson | FileCheck %s
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c items-independent.cl -o %t.o
// RUN: FileCheck --check-prefix=STUB %s < %t/items-independent.vast.c

// CHECK-LABEL: kernel rows: {{.*}} items_independent=true{{$}}
__kernel void rows(__global float *a, int w)
{
	for (int j = 0; j < w; j++)
		a[get_global_id(0) * w + j] += get_global_size(0) + get_global_offset(0);
}

// The global id written out, in either order of the operands, with casts.
// CHECK-LABEL: kernel spelled: {{.*}} items_independent=true{{$}}
__kernel void spelled(__global float *a)
{
	int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
	int j = (int)get_local_id(1) + (int)(get_local_size(1) * get_group_id(1));
	a[j * 64 + i] = 1;
}

// Another dimension's local size in it is not the global id.
// CHECK: kernel crossed: {{.*}} items_independent=false items_reason="calls 'get_group_id' at line [[@LINE+3]]"
__kernel void crossed(__global float *a)
{
	int i = get_group_id(0) * get_local_size(1) + get_local_id(0);
	a[i] = 1;
}

// CHECK: kernel bar: {{.*}} items_independent=false items_reason="calls 'barrier' at line [[@LINE+4]]"
__kernel void bar(__global float *a)
{
	a[get_global_id(0)] = 1;
	barrier(CLK_GLOBAL_MEM_FENCE);
}

// A barrier in a helper it calls counts too.
// CHECK: kernel viahelper: {{.*}} items_independent=false items_reason="calls 'barrier' at line [[@LINE+1]]"
void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
__kernel void viahelper(__global float *a)
{
	a[get_global_id(0)] = 1;
	sync();
}

// CHECK: kernel locvar: {{.*}} items_independent=false items_reason="'t' is __local memory at line [[@LINE+3]]"
__kernel void locvar(__global float *a)
{
	__local float t[64];
	t[0] = 1;
	a[get_global_id(0)] = 2;
}

// CHECK: kernel locarg: {{.*}} items_independent=false items_reason="parameter 't' is __local memory at line [[@LINE+1]]"
__kernel void locarg(__global float *a, __local float *t)
{
	a[get_global_id(0)] = 2;
}

// CHECK: kernel lid: {{.*}} items_independent=false items_reason="calls 'get_local_id' at line [[@LINE+3]]"
__kernel void lid(__global float *a)
{
	a[get_global_id(0)] = get_local_id(0);
}

// CHECK: kernel groups: {{.*}} items_independent=false items_reason="calls 'get_num_groups' at line [[@LINE+3]]"
__kernel void groups(__global float *a)
{
	a[get_global_id(0)] = get_num_groups(0);
}

// A fence orders the work-item's own accesses (OpenCL C 1.2 §6.12.9).
// CHECK-LABEL: kernel fence: {{.*}} items_independent=true{{$}}
__kernel void fence(__global float *a)
{
	a[get_global_id(0)] = 1;
	mem_fence(CLK_GLOBAL_MEM_FENCE);
	a[get_global_id(0)] += 1;
}

// STUB: { .name = "rows", .nparams = 2,
// STUB: .items_independent = 1 },
// STUB: { .name = "spelled", .nparams = 1,
// STUB: .items_independent = 1 },
// STUB: { .name = "crossed", .nparams = 1,
// STUB: .items_independent = 0 },
