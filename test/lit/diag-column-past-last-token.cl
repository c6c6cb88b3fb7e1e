// An error located just past the last token of a line ("expected ';'")
// keeps its column when clang -E ran (any --cl-options -D makes it run):
// it was one column short, at the last token itself.
// RUN: %not %vastcc --cl-options="-D SCALE=2.0f" -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: %not %vastcc -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: diag-column-past-last-token.cl:[[@LINE+4]]:29: error: expected ';' at end of declaration
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, uint n)
{
	size_t i = get_global_id(0)
	if (i < n)
		c[i] = a[i] + b[i] * SCALE;
}
