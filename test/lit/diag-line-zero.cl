// After `#line 0` an error on the line numbered 0 still prints its line
// and column (clang prints file:0:col), not a bare "file: error".
// RUN: cd %S && %not %vastcc -c diag-line-zero.cl -o %t.o 2>&1 | FileCheck %s
// CHECK: diag-line-zero.cl:0:26: error: use of undeclared identifier 'undeclared'
__kernel void k(__global float *out)
{
#line 0
	out[get_global_id(0)] = undeclared;
}
