// A store to a component of a vector element (`v[i].y`) writes only that
// component's bytes: the access is the component's size, not the
// element's.
// RUN: cd %S && %vastcc --report=- -c access-vector-component.cl -o %t.o | %flatjson | FileCheck %s

// CHECK-LABEL: kernel comp:
__kernel void comp(__global float4 *v)
{
// CHECK: access comp [[@LINE+1]]:2: form=subscript mode={{W|RW}} size=4 params=v
	v[get_global_id(0)].y = 1.0f;
// CHECK: access comp [[@LINE+1]]:2: form=subscript mode={{W|RW}} size=8 params=v
	v[get_global_id(0)].s23 = (float2)(0.0f, 1.0f);
}
