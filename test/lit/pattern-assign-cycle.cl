// Reassigned helper parameters defined through each other (p = q;
// q = p;): the class of each reaches itself. The analysis ends (no
// depth cut-off to stop it) and takes the address as direct, never
// affine: the inspector marks its pages.
// RUN: cd %S && %vastcc --report=- -c pattern-assign-cycle.cl -o %t.o | %flatjson | FileCheck %s

// CHECK: kernel k: {{.*}} virtualizable=true
// CHECK: access k {{.*}} params=a pattern=direct function=get
float get(__global const float *a, int p, int q)
{
	p = q;
	q = p;
	return a[p + q];
}

__kernel void k(__global const float *a, __global float *out)
{
	int i = get_global_id(0);
	out[i] = get(a, i, 1);
}
