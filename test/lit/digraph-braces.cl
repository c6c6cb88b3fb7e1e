// A kernel body braced with the digraphs <% %> (C99 6.4.6p3): the
// variants splice what is between them, leaving no stray '%', and the
// program builds (test/check.sh).
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c digraph-braces.cl -o %t.o
// RUN: FileCheck %s < %t/digraph-braces.vast.cl
// CHECK-LABEL: {{^}}__kernel void vast_paged_k(
// CHECK-NOT: %
// CHECK: = 1.0f;
// CHECK-NOT: %
// CHECK: {{^}}}
__kernel void k(__global float *out)
<%
	out[get_global_id(0)] = 1.0f;
%>
