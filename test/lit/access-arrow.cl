// `p->f` accesses only the field's bytes: size is the field's, not the
// struct's.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-arrow.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=INSPECT %s < %t/access-arrow.vast.cl

typedef struct { int count; double sum; } stats;

// CHECK-LABEL: kernel acc:
// CHECK: param acc.s: {{.*}} elem_type=stats elem_size=16 mode=RW
__kernel void acc(__global stats *s, float v)
{
// CHECK: access acc [[@LINE+1]]:2: form=arrow mode=W size=8 params=s
	s->sum = v;
// CHECK: access acc [[@LINE+1]]:2: form=arrow mode=R size=4 params=s
	s->count;
}

// INSPECT-LABEL: {{^}}__kernel void vast_inspect_acc(
// INSPECT: vast_touch(vast_c, (ulong)&(s->sum), 8);
