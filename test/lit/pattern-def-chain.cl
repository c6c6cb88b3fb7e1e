// A chain of 25 definitions (v1 = v0 + 1, ..., v25 = v24 + 1) from
// get_global_id: the address of 'a' is affine however long the chain.
// pattern.c once stopped following variables 20 deep and called such
// an access direct, silently (issue 9 item 6).
// RUN: cd %S && %vastcc --report=- -c pattern-def-chain.cl -o %t.o | %flatjson | FileCheck %s

// CHECK: param chain.a: {{.*}} pattern=affine
// CHECK: access chain {{.*}} params=a pattern=affine
__kernel void chain(__global const float *a, __global float *out)
{
	int v0 = get_global_id(0);
	int v1 = v0 + 1;
	int v2 = v1 + 1;
	int v3 = v2 + 1;
	int v4 = v3 + 1;
	int v5 = v4 + 1;
	int v6 = v5 + 1;
	int v7 = v6 + 1;
	int v8 = v7 + 1;
	int v9 = v8 + 1;
	int v10 = v9 + 1;
	int v11 = v10 + 1;
	int v12 = v11 + 1;
	int v13 = v12 + 1;
	int v14 = v13 + 1;
	int v15 = v14 + 1;
	int v16 = v15 + 1;
	int v17 = v16 + 1;
	int v18 = v17 + 1;
	int v19 = v18 + 1;
	int v20 = v19 + 1;
	int v21 = v20 + 1;
	int v22 = v21 + 1;
	int v23 = v22 + 1;
	int v24 = v23 + 1;
	int v25 = v24 + 1;
	out[v0] = a[v25];
}
