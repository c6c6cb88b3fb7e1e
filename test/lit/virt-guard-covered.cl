// A condition on data the kernel writes that only decides whether to store
// at an address the kernel touches anyway (column statistics: `if (std[j] <=
// eps) std[j] = 1.0f;`) does not make the footprint data-dependent: the
// inspector drops the `if` and marks the store unguarded, which marks what
// the earlier stores do. The kernel is virtualizable, planned from
// descriptors (nothing loaded, no inspect_reads), and its merge stays exact.
// A guarded access at another address is not covered, nor is one covered
// only by a loop that may run zero times (for the analysis's merge slice,
// docs/report.md). A loop condition on written data is refused: the reason
// says the condition decides which accesses run.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c virt-guard-covered.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: FileCheck --check-prefix=GEN %s < %t/virt-guard-covered.vast.cl

__kernel void colstd(__global const float *data, __global const float *mean,
                     __global float *std, int n, int m, float eps)
{
	int j = get_global_id(0);
	if (j >= m)
		return;
	std[j] = 0.0f;
	for (int i = 0; i < n; i++)
		std[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
	std[j] = sqrt(std[j] / (float)n);
	if (std[j] <= eps)
		std[j] = 1.0f;
}

// CHECK-LABEL: kernel colstd: {{.*}} virtualizable=true merge_exact=true
// CHECK: param colstd.std: {{.*}} mode=RW {{.*}} inspect_reads=false inspect_superset=false
// CHECK: access colstd 25:6: form=subscript mode=R size=4 params=std {{.*}} inspect=touch merge=drop
// CHECK-NEXT: footprint colstd 25:6: affine=true
// CHECK: access colstd 26:3: form=subscript mode=W size=4 params=std {{.*}} inspect=touch merge=copy{{$}}
// CHECK-NEXT: footprint colstd 26:3: affine=true {{.*}} exact=false must_write=false

// GEN-LABEL: {{^}}__kernel void vast_inspect_colstd(
// GEN: {{^[[:blank:]]*}}for (int i = 0; i < n; i++)
// GEN-NEXT: {{^[[:blank:]]*}}{ vast_touch(vast_c, (ulong)&(std[j]), 4); vast_touch(vast_c, (ulong)&(data[i * m + j]
// GEN-NEXT: {{^[[:blank:]]*}}{ vast_touch(vast_c, (ulong)&(std[j]), 4); vast_touch(vast_c, (ulong)&(std[j]), 4); }
// GEN-NEXT: {{^[[:blank:]]*}}{ vast_touch(vast_c, (ulong)&(std[j]), 4); vast_touch(vast_c, (ulong)&(std[j]), 4); }
// GEN-EMPTY:
// GEN-EMPTY:
// GEN-NEXT: {{^}$}}

// The `if` on written data is dropped anyway (lit/virt-guard-written): the
// store is marked whether or not it runs.
// CHECK-LABEL: kernel neighbour: {{.*}} virtualizable=true
// CHECK: access neighbour [[@LINE+6]]:3: {{.*}} inspect=touch {{.*}} unguarded=true
__kernel void neighbour(__global float *w)
{
	int j = get_global_id(0);
	w[j] = 0.5f * w[j];
	if (w[j] > 1.0f)
		w[j + 1] = 1.0f;
}

// A loop that runs while written data says so cannot be marked whatever
// its condition: how far it goes depends on the data.
__kernel void halve(__global float *w)
{
	int j = get_global_id(0);
	w[j] = 0.5f * w[j];
	while (w[j] > 1.0f)
// CHECK-LABEL: kernel halve:
// CHECK-SAME: virtualizable=false reason="which accesses run depends on data the kernel writes" reason_line=[[@LINE-2]] reason_col=9
// WARN: virt-guard-covered.cl:[[@LINE-3]]:9: warning: kernel 'halve' cannot be virtualized: which accesses run depends on data the kernel writes; it runs natively when its data fits
		w[j + 1] = 0.5f * w[j + 1];
}

// The inspector's cover is the condition's own load; the analysis's merge
// slice has no store before the `if` that runs for sure, so it keeps the
// `if` and reads the output: virtualizable, merge_exact false.
// CHECK-LABEL: kernel inloop: {{.*}} virtualizable=true merge_exact=false
__kernel void inloop(__global float *w, int n)
{
	int j = get_global_id(0);
	for (int i = 0; i < n; i++)
		w[j] += 1.0f;
	if (w[j] > 1.0f)
		w[j] = 1.0f;
}

// Not covered: the earlier store reads the same text, but not the same
// address. a[*p] reads i through p, and `*q = i + 1;` changes it though p
// is never assigned; the inner `i` is another variable than the outer one.
// The inspector keeps the `if` and marks the store only where it may run.
// GEN-LABEL: {{^}}__kernel void vast_inspect_alias(
// GEN: {{^[[:blank:]]*}}*q = i + 1;
// GEN-NEXT: {{^[[:blank:]]*}}if ({{.*}}ld[i]{{.*}} > 0)
// GEN-NEXT: {{^[[:blank:]]*}}{ vast_touch(vast_c, (ulong)&(a[*p]), 4); }
__kernel void alias(__global int *a, __global const int *ld)
{
	int i = get_global_id(0);
	int *p = &i, *q = &i;
	a[*p] = 0;
	*q = i + 1;
	if (ld[i] > 0)
		a[*p] = 1;
}

// GEN-LABEL: {{^}}__kernel void vast_inspect_shadow(
// GEN: {{^[[:blank:]]*}}int i = gid + n;
// GEN-NEXT: {{^[[:blank:]]*}}if ({{.*}}ld[gid]{{.*}} > 0)
// GEN-NEXT: {{^[[:blank:]]*}}{ vast_touch(vast_c, (ulong)&(a[i]), 4); }
__kernel void shadow(__global int *a, __global const int *ld, int n)
{
	int gid = get_global_id(0);
	int i = gid;
	a[i] = 0;
	{
		int i = gid + n;
		if (ld[gid] > 0)
			a[i] = 1;
	}
}

// On data the kernel writes the inspector drops the `if` anyway: the
// store is marked whether or not it runs, a superset, since the outer
// a[i] does not cover it.
// CHECK-LABEL: kernel shadow_written: {{.*}} virtualizable=true
// CHECK: param shadow_written.a: {{.*}} inspect_superset=true
// CHECK: access shadow_written [[@LINE+9]]:4: {{.*}} unguarded=true
__kernel void shadow_written(__global int *a, int n)
{
	int gid = get_global_id(0);
	int i = gid;
	a[i] = 0;
	{
		int i = gid + n;
		if (a[gid] > 0)
			a[i] = 1;
	}
}

// WARN-NOT: kernel 'colstd'
// WARN-NOT: kernel 'inloop'
// WARN-NOT: kernel 'alias'
// WARN-NOT: kernel 'shadow
