// A helper's clone returns void in a variant where no call uses its value:
// `return e;` then renders as the items of e followed by `return;`. The
// paged clone always keeps the original return type.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c helper-clone-void-return.cl -o %t.o
// RUN: FileCheck %s < %t/helper-clone-void-return.vast.cl

float load(__global const float *p, int i)
{
	return p[i] * 2.0f;
}

int index_of(__global const int *idx, int i)
{
	return idx[i];
}

__kernel void k(__global const float *a, __global const int *idx, __global float *out)
{
	int i = get_global_id(0);
	out[index_of(idx, i)] = load(a, i);
}

// Inspector: load's value is never needed, index_of's feeds an address.
// CHECK-LABEL: {{^}}void vast_inspect_load(vast_ctx *vast_c, __global const float *p, int i){{$}}
// CHECK: { vast_touch(vast_c, (ulong)&(p[i]), 4); return; }
// CHECK-LABEL: {{^}}float vast_paged_load(vast_ctx *vast_c, __global const float *p, int i){{$}}
// CHECK: return (*(__global const float *)vast_tr(vast_c, (ulong)&(p[i]))) * 2.0f;
// CHECK-LABEL: {{^}}int vast_inspect_index_of(vast_ctx *vast_c, __global const int *idx, int i){{$}}
// CHECK: return (*(__global const int *)vast_load(vast_c, (ulong)&(idx[i]), 4));
// CHECK-LABEL: {{^}}int vast_paged_index_of(
// CHECK-LABEL: {{^}}__kernel void vast_inspect_k(
// CHECK: vast_touch(vast_c, (ulong)&(out[vast_inspect_index_of(vast_c, idx, i)]), 4); (void)vast_inspect_load(vast_c, a, i);
