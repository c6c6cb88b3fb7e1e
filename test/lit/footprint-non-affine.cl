// An access whose offset is not affine has no descriptor, and says why:
// division, a value loaded from memory, a product of ids, an access in a
// helper called from two places (its parameter stands for two arguments),
// the counter of a while loop.
// RUN: cd %S && %vastcc --report=- -c footprint-non-affine.cl -o %t.o | %flatjson | FileCheck %s

// CHECK: footprint nonaffine [[@LINE+1]]:52: affine=false reason="helper 'get' called from several places at line [[@LINE+1]]"
float get(__global const float *p, int i) { return p[i]; }

__kernel void nonaffine(__global const float *a, __global const int *idx, __global float *out,
                        int n)
{
	int gid = get_global_id(0);
// CHECK: footprint nonaffine [[@LINE+4]]:12: affine=false reason="an operator that is not affine (division, modulo, bit operation) at line [[@LINE+4]]"
// CHECK: footprint nonaffine [[@LINE+3]]:25: affine=false reason="a value loaded from memory at line [[@LINE+3]]"
// CHECK: footprint nonaffine [[@LINE+2]]:27: affine=true
// CHECK: footprint nonaffine [[@LINE+1]]:39: affine=false reason="a product of two values that vary at line [[@LINE+1]]"
	float s = a[gid / 2] + a[idx[gid]] + a[gid * gid] + get(a, gid) +
	          get(a, gid + 1);
	int i = 0;
	while (i < n) {
// CHECK: footprint nonaffine [[@LINE+1]]:8: affine=false reason="'i' changes and is not the counter of a for loop around the access at line [[@LINE+1]]"
		s += a[i];
		i++;
	}
	out[gid] = s;
}
