// The "params" of an access inside a helper name the parameters of the
// kernel it is reported under: those that kernel passes to the helper.
// RUN: cd %S && %vastcc --report=- -c report-helper-access-params.cl -o %t.o | %flatjson | FileCheck %s

float get(__global const float *p, int i)
{
	return p[i];
}

// CHECK-LABEL: kernel first:
// CHECK: access first 7:9: form=subscript mode=R size=4 params=x pattern
__kernel void first(__global const float *x, __global float *y)
{
	int i = get_global_id(0);
	y[i] = get(x, i);
}

// CHECK-LABEL: kernel second:
// CHECK: access second 7:9: form=subscript mode=R size=4 params=b pattern
__kernel void second(__global float *a, __global const float *b)
{
	a[get_global_id(0)] = get(b, 0);
}
