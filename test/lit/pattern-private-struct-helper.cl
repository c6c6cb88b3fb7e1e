// A pointer to a private struct passed to a helper that indexes a store
// with one of its fields and advances it: the helper's store through the
// private pointer stores no global data, so the index is not tainted, and
// the kernel is accepted like its form with a local variable (issue 7,
// item 11). The helper's inspector clone keeps the private store and
// only touches the global one.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c pattern-private-struct-helper.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/pattern-private-struct-helper.vast.cl

// CHECK-LABEL: kernel f1: {{.*}} virtualizable=true
// CHECK: param f1.in: {{.*}} mode=R {{.*}} pattern=affine
// CHECK: param f1.out: {{.*}} mode=W {{.*}} pattern=direct
// CHECK: access f1 [[@LINE+2]]:51: form=subscript mode=W size=4 params=out pattern=direct function=save inspect=touch merge=copy
struct W { int next; };
int save(struct W *w, __global int *out, int v) { out[w->next] = v; w->next += 4; return w->next; }
__kernel void f1(__global const int *in, __global int *out) {
  struct W w; w.next = get_global_id(0);
  for (int i = 0; i < 4; i++) save(&w, out, in[get_global_id(0)] + i);
}

// A helper that stores global data through the pointer still taints the
// caller's variable: the index it feeds is indirect.
// CHECK-LABEL: kernel f2:
// CHECK: param f2.out: {{.*}} pattern=indirect
void load(struct W *w, __global const int *in) { w->next = in[get_global_id(0)]; }
__kernel void f2(__global const int *in, __global int *out) {
  struct W w;
  load(&w, in);
  out[w.next] = 1;
}

// GEN-LABEL: void save__vast_inspect(
// GEN: vast_touch(vast_c, (ulong)&(out[w->next]), 4); } w->next += 4;
