// Columns in the report are the user's: an access written after a macro
// expansion on the same line keeps its own column, and an access spelled
// inside a macro gets the expansion's (docs/report.md).
// RUN: cd %S && %vastcc --report=- -c report-column-after-macro.cl -o %t.o | %flatjson | FileCheck %s

#define IDX(x, y) ((y) * 64 + (x))
#define LOAD(p, i) ((p)[(i)])

// CHECK-LABEL: kernel k:
__kernel void k(__global const float *in, __global float *out)
{
	int x = get_global_id(0), y = get_global_id(1);
// CHECK: access k [[@LINE+2]]:2: form=subscript mode=W
// CHECK: access k [[@LINE+1]]:19: form=subscript mode=R
	out[IDX(x, y)] = in[x];
// CHECK: access k [[@LINE+2]]:2: form=subscript mode=W
// CHECK: access k [[@LINE+1]]:11: form=subscript mode=R
	out[x] = LOAD(in, y);
// CHECK: access k [[@LINE+4]]:2: form=subscript mode=W
// CHECK: access k [[@LINE+3]]:11: form=subscript mode=R
// CHECK: access k [[@LINE+2]]:33: form=subscript mode=R
// CHECK: access k [[@LINE+1]]:49: form=subscript mode=R
	out[y] = LOAD(in, IDX(x, y)) + in[IDX(y, x)] + in[0];
}
