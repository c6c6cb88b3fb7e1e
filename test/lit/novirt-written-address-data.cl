// Addresses that depend on data the same kernel writes (another work-item
// may overwrite the index before it is read) cannot be inspected before the
// kernel runs: not virtualizable, warned at the dependent access. The one
// exception: a 1-D kernel that reads its own element idx[gid] once and only
// then writes that same element sees the original data, as the inspector
// does (Rodinia BFS's mask[tid]); its merge is not exact.
// RUN: cd %S && %vastcc --report=- -c novirt-written-address-data.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

__kernel void scatter(__global int *idx, __global float *x)
{
	int i = get_global_id(0);
	x[idx[i]] = 1.0f;
	idx[i + 1] = 0;
}

__kernel void own(__global int *idx, __global float *x)
{
	int i = get_global_id(0);
	x[idx[i]] = 1.0f;
	idx[i] = 0;
}

__kernel void fine(__global const int *idx, __global float *x)
{
	x[idx[get_global_id(0)]] = 1.0f;
}

// CHECK: kernel scatter: line=10 col=1 virtualizable=false reason="addresses depend on data the kernel writes" reason_line=13 reason_col=4
// CHECK: kernel own: line=17 col=1 virtualizable=true merge_exact=false
// CHECK: kernel fine: line=24 col=1 virtualizable=true merge_exact=true
// WARN: novirt-written-address-data.cl:13:4: warning: kernel 'scatter' cannot be virtualized: addresses depend on data the kernel writes; it runs natively when its data fits
// WARN-NOT: warning: kernel 'own'
// WARN-NOT: warning: kernel 'fine'
