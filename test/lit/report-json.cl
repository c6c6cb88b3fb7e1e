// --report=- writes the analysis as JSON on stdout, keys in the documented
// order (docs/report.md); the file is named as given, never made absolute.
// RUN: cd %S && %vastcc --report=- -c report-json.cl -o %t.o > %t.json
// RUN: FileCheck --strict-whitespace %s < %t.json
// RUN: %python -c "import json,sys; json.load(open(sys.argv[1]))" %t.json
// RUN: FileCheck --check-prefix=NOABS %s < %t.json

// CHECK: {{^}}{
// CHECK-NEXT: "file":{{[[:space:]]+}}"report-json.cl",
// CHECK-NEXT: "cl_options":{{[[:space:]]+}}"",
// CHECK-NEXT: "kernels":{{[[:space:]]+}}[{
// CHECK-NEXT: "name":{{[[:space:]]+}}"scale",
// CHECK-NEXT: "line":{{[[:space:]]+}}[[@LINE+49]],
// CHECK-NEXT: "col":{{[[:space:]]+}}1,
// CHECK-NEXT: "virtualizable":{{[[:space:]]+}}true,
// CHECK-NEXT: "merge_exact":{{[[:space:]]+}}true,
// CHECK-NEXT: "items_independent":{{[[:space:]]+}}true,
// CHECK-NEXT: "params":{{[[:space:]]+}}[{
// CHECK-NEXT: "index":{{[[:space:]]+}}0,
// CHECK-NEXT: "name":{{[[:space:]]+}}"v",
// CHECK-NEXT: "kind":{{[[:space:]]+}}"global",
// CHECK-NEXT: "type":{{[[:space:]]+}}"__global float *",
// CHECK-NEXT: "elem_type":{{[[:space:]]+}}"float",
// CHECK-NEXT: "elem_size":{{[[:space:]]+}}4,
// CHECK-NEXT: "mode":{{[[:space:]]+}}"RW",
// CHECK-NEXT: "atomic":{{[[:space:]]+}}false,
// CHECK-NEXT: "pattern":{{[[:space:]]+}}"affine",
// CHECK-NEXT: "inspect_reads":{{[[:space:]]+}}false,
// CHECK-NEXT: "inspect_superset":{{[[:space:]]+}}false
// CHECK-NEXT: }, {
// CHECK-NEXT: "index":{{[[:space:]]+}}1,
// CHECK-NEXT: "name":{{[[:space:]]+}}"k",
// CHECK-NEXT: "kind":{{[[:space:]]+}}"scalar",
// CHECK: "accesses":{{[[:space:]]+}}[{
// CHECK-NEXT: "line":{{[[:space:]]+}}[[@LINE+29]],
// CHECK-NEXT: "col":{{[[:space:]]+}}2,
// CHECK-NEXT: "form":{{[[:space:]]+}}"subscript",
// CHECK-NEXT: "mode":{{[[:space:]]+}}"RW",
// CHECK-NEXT: "size":{{[[:space:]]+}}4,
// CHECK-NEXT: "params":{{[[:space:]]+}}["v"],
// CHECK-NEXT: "pattern":{{[[:space:]]+}}"affine",
// CHECK-NEXT: "function":{{[[:space:]]+}}"scale",
// CHECK-NEXT: "inspect":{{[[:space:]]+}}"touch",
// CHECK-NEXT: "merge":{{[[:space:]]+}}"copy",
// CHECK-NEXT: "footprint":{{[[:space:]]+}}{
// CHECK-NEXT: "affine":{{[[:space:]]+}}true,
// CHECK-NEXT: "offset":{{[[:space:]]+}}"4*lsz0*grp0 + 4*lid0 + 4*goff0",
// CHECK-NEXT: "loops":{{[[:space:]]+}}[],
// CHECK-NEXT: "guards":{{[[:space:]]+}}[],
// CHECK-NEXT: "checks":{{[[:space:]]+}}[],
// CHECK-NEXT: "exact":{{[[:space:]]+}}true,
// CHECK-NEXT: "must_write":{{[[:space:]]+}}true
// CHECK-NEXT: }
// CHECK-NEXT: }]
// CHECK-NEXT: }],
// CHECK-NEXT: "helpers":{{[[:space:]]+}}[]
// CHECK-NEXT: {{^}}}

// NOABS-NOT: /work
// NOABS-NOT: "/{{[^"]*}}report-json.cl"

__kernel void scale(__global float *v, float k)
{
	v[get_global_id(0)] *= k;
}
