// `p[i].f` on an array of structs: one access of the field's size at the
// element's field offset; the element size is the struct's (odd sizes too).
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-struct-field.cl -o %t.o | %flatjson | FileCheck %s

typedef struct { float x, y, z; } vec3;

// CHECK-LABEL: kernel scale_y:
// CHECK: param scale_y.v: {{.*}} elem_type=vec3 elem_size=12 mode=RW {{.*}} pattern=affine
__kernel void scale_y(__global vec3 *v, float k)
{
	int i = get_global_id(0);
// CHECK: access scale_y [[@LINE+2]]:2: form=subscript mode=W size=4 params=v
// CHECK: access scale_y [[@LINE+1]]:15: form=subscript mode=R size=4 params=v
	v[i].y = k * v[i].y;
}
