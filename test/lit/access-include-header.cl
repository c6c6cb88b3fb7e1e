// A header found through -I in --cl-options is inlined: its helper's access
// is found, and its clones carry #line directives into the header.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --cl-options="-I Inputs/include" --report=- -c access-include-header.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/access-include-header.vast.cl
// RUN: cd %S && %not %vastcc -c access-include-header.cl -o %t.noinc.o 2>&1 | FileCheck --check-prefix=NOINC %s

#include "access.h"

// CHECK: file access-include-header.cl cl_options="-I Inputs/include"
// CHECK-LABEL: kernel k:
// CHECK: param k.out: {{.*}} mode=W
// CHECK: param k.in: {{.*}} mode=R
// CHECK: access k 3:50: form=subscript mode=W size=4 params=out {{.*}} function=put
// CHECK: access k [[@LINE+4]]:{{[0-9]+}}: form=subscript mode=R size=4 params=in {{.*}} function=k
__kernel void k(__global int *out, __global const int *in)
{
	int i = get_global_id(0);
	put(out, i, 1 + AT(in, i));
}
// CHECK: helper put: cloned=true

// GEN: {{^}}#line 3 "Inputs/include/access.h"{{$}}
// GEN-NEXT: {{^}}void vast_inspect_put(vast_ctx *vast_c, __global int *p, int i, int v);
// GEN: {{^}}void vast_paged_put(vast_ctx *vast_c, __global int *p, int i, int v){{$}}
// GEN-NEXT: {{^}}#line 3 "Inputs/include/access.h"{{$}}
// GEN-NEXT: { (*(__global int *)vast_tr(vast_c, (ulong)&(p[i]))) = v; }

// NOINC: access-include-header.cl:7:10: fatal error: 'access.h' file not found
