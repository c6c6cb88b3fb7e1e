// Indirect: the address depends on a value loaded from global memory
// (SpMV's x[col[j]]). The index buffer is read by the inspector, which takes
// its real contents as an extra vast_data_ argument and loads through it.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c pattern-indirect.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=INSPECT %s < %t/pattern-indirect.vast.cl
// RUN: FileCheck --check-prefix=STUB %s < %t/pattern-indirect.vast.c

// CHECK-LABEL: kernel spmv:
// CHECK: param spmv.rowptr: {{.*}} mode=R {{.*}} pattern=affine inspect_reads=true
// CHECK: param spmv.col: {{.*}} mode=R {{.*}} pattern=indirect inspect_reads=true
// CHECK: param spmv.val: {{.*}} mode=R {{.*}} pattern=indirect inspect_reads=false
// CHECK: param spmv.x: {{.*}} mode=R {{.*}} pattern=indirect inspect_reads=false
// CHECK: param spmv.y: {{.*}} mode=W {{.*}} pattern=affine inspect_reads=false
__kernel void spmv(__global const int *rowptr, __global const int *col,
                   __global const float *val, __global const float *x,
                   __global float *y)
{
	int row = get_global_id(0);
	float s = 0.0f;
// CHECK: access spmv [[@LINE+2]]:15: form=subscript mode=R size=4 params=rowptr pattern=affine {{.*}} inspect=load
// CHECK: access spmv [[@LINE+1]]:32: form=subscript mode=R size=4 params=rowptr pattern=affine {{.*}} inspect=load
	for (int j = rowptr[row]; j < rowptr[row + 1]; j++)
// CHECK: access spmv [[@LINE+3]]:8: form=subscript mode=R size=4 params=val pattern=indirect {{.*}} inspect=touch
// CHECK: access spmv [[@LINE+2]]:17: form=subscript mode=R size=4 params=x pattern=indirect {{.*}} inspect=touch
// CHECK: access spmv [[@LINE+1]]:19: form=subscript mode=R size=4 params=col pattern=indirect {{.*}} inspect=load
		s += val[j] * x[col[j]];
	y[row] = s;
}

// INSPECT-LABEL: {{^}}__kernel void vast_inspect_spmv(
// INSPECT-SAME: ulong vast_first_group, __global uchar *vast_data_rowptr, __global uchar *vast_data_col)
// INSPECT: if (vast_va_rowptr) vast_c->data[(vast_va_rowptr >> 44) - 1] = vast_data_rowptr;
// INSPECT: if (vast_va_col) vast_c->data[(vast_va_col >> 44) - 1] = vast_data_col;
// INSPECT: for (int j = (*(__global const int *)vast_load(vast_c, (ulong)&(rowptr[row]), 4)); j < (*(__global const int *)vast_load(vast_c, (ulong)&(rowptr[row + 1]), 4)); j++)
// INSPECT: { vast_touch(vast_c, (ulong)&(val[j]), 4); vast_touch(vast_c, (ulong)&(x[(*(__global const int *)vast_load(vast_c, (ulong)&(col[j]), 4))]), 4); }

// STUB: { .name = "rowptr", .kind = VAST_PARAM_GLOBAL, .mode = VAST_MODE_R, .pattern = VAST_PAT_AFFINE, .elem_size = 4, .inspect_reads = 1 },
// STUB: { .name = "col", .kind = VAST_PARAM_GLOBAL, .mode = VAST_MODE_R, .pattern = VAST_PAT_INDIRECT, .elem_size = 4, .inspect_reads = 1 },
// STUB: { .name = "val", .kind = VAST_PARAM_GLOBAL, .mode = VAST_MODE_R, .pattern = VAST_PAT_INDIRECT, .elem_size = 4, .inspect_reads = 0 },
