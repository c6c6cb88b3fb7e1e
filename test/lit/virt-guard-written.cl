// An `if` on data the kernel writes only decides whether its accesses run:
// the inspector drops it and marks them unguarded, a superset of the pages
// (a kernel's `return` under one is dropped with it). A BFS level whose
// addresses come from a read-only edge list (`w = adj[gid]`) or CSR arrays is
// virtualizable; `lev` is inspected as a superset and never read by the
// inspector. Rodinia BFS's `mask[tid]` is still computed (the work-item's own
// element, seen before its store). An `if` on written data that defines a
// variable an address needs must be computed: refused, as before.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c virt-guard-written.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: FileCheck --check-prefix=GEN %s < %t/virt-guard-written.vast.cl

__kernel void bfs_level(__global const uint *adj, __global uint *lev, uint curr,
                        __global int *changed)
{
	size_t gid = get_global_id(0);
	uint w = adj[gid];
	if (lev[w] == UINT_MAX) {
		lev[w] = curr + 1;
		*changed = 1;
	}
}

// CHECK-LABEL: kernel bfs_level: {{.*}} virtualizable=true
// CHECK: param bfs_level.adj: {{.*}} mode=R {{.*}} inspect_reads=true inspect_superset=false
// CHECK: param bfs_level.lev: {{.*}} mode=RW {{.*}} pattern=indirect inspect_reads=false inspect_superset=true
// CHECK: param bfs_level.changed: {{.*}} mode=W {{.*}} inspect_reads=false inspect_superset=true
// CHECK: access bfs_level 18:6: {{.*}} params=lev {{.*}} inspect=touch merge=load{{$}}
// CHECK: access bfs_level 19:3: form=subscript mode=W size=4 params=lev {{.*}} inspect=touch merge=copy unguarded=true
// CHECK: access bfs_level 20:3: form=deref mode=W size=4 params=changed {{.*}} inspect=touch merge=copy unguarded=true
// CHECK-NEXT: footprint bfs_level 20:3: affine=true {{.*}} exact=false must_write=false

// GEN-LABEL: {{^}}__kernel void vast_inspect_bfs_level(
// GEN-NOT: vast_data_lev
// GEN: uint w = (*(__global const uint *)vast_load(vast_c, (ulong)&(adj[gid]), 4));
// GEN-NEXT: { vast_touch(vast_c, (ulong)&(lev[w]), 4); vast_touch(vast_c, (ulong)&(lev[w]), 4); vast_touch(vast_c, (ulong)&(*changed), 4); }
// GEN-NOT: lev
// GEN: {{^}$}}

__kernel void bfs_csr(__global const uint *rowptr, __global const uint *col,
                      __global uint *lev, uint curr)
{
	size_t v = get_global_id(0);
	if (lev[v] != curr)
		return;
	for (uint e = rowptr[v]; e < rowptr[v + 1]; e++) {
		uint w = col[e];
		if (lev[w] == UINT_MAX)
			lev[w] = curr + 1;
	}
}

// CHECK-LABEL: kernel bfs_csr: {{.*}} virtualizable=true
// CHECK: param bfs_csr.lev: {{.*}} mode=RW {{.*}} inspect_reads=false inspect_superset=true

// GEN-LABEL: {{^}}__kernel void vast_inspect_bfs_csr(
// GEN-NOT: return
// GEN: { vast_touch(vast_c, (ulong)&(lev[v]), 4); }
// GEN-EMPTY:
// GEN-NEXT: for (uint e = (*(__global const uint *)vast_load(vast_c, (ulong)&(rowptr[v]), 4));
// GEN-NEXT: uint w = (*(__global const uint *)vast_load(vast_c, (ulong)&(col[e]), 4));
// GEN-NEXT: { vast_touch(vast_c, (ulong)&(lev[w]), 4); vast_touch(vast_c, (ulong)&(lev[w]), 4); }

__kernel void rodinia(__global const int2 *nodes, __global const int *edges,
                      __global char *mask, __global char *updating,
                      __global const char *visited, __global int *cost, int n)
{
	int tid = get_global_id(0);
	if (tid < n && mask[tid]) {
		mask[tid] = 0;
		for (int i = nodes[tid].x; i < nodes[tid].y + nodes[tid].x; i++) {
			int id = edges[i];
			if (!visited[id]) {
				cost[id] = cost[tid] + 1;
				updating[id] = 1;
			}
		}
	}
}

// CHECK-LABEL: kernel rodinia: {{.*}} virtualizable=true
// CHECK: param rodinia.mask: {{.*}} mode=RW {{.*}} inspect_reads=true inspect_superset=false
// CHECK: param rodinia.cost: {{.*}} mode=RW {{.*}} inspect_reads=false inspect_superset=false

__kernel void pick(__global const uint *adj, __global uint *lev, __global uint *out)
{
	size_t gid = get_global_id(0);
	uint x = 0;
	if (lev[adj[gid]] == 0) {
// CHECK-LABEL: kernel pick:
// CHECK-SAME: virtualizable=false reason="addresses depend on data the kernel writes" reason_line=[[@LINE-2]] reason_col=6
// WARN: virt-guard-written.cl:[[@LINE-3]]:6: warning: kernel 'pick' cannot be virtualized: addresses depend on data the kernel writes; it runs natively when its data fits
		lev[adj[gid]] = 1;
		x = adj[gid + 1];
	}
	out[x] = 1;
}

__kernel void inner_decl(__global const uint *src, __global const uint *dst,
                         __global uint *lev, uint curr)
{
	size_t e = get_global_id(0);
	if (lev[src[e]] == curr) {
// CHECK-LABEL: kernel inner_decl:
// CHECK-SAME: virtualizable=false reason="addresses depend on data the kernel writes" reason_line=[[@LINE-2]] reason_col=6
		uint w = dst[e];
		if (lev[w] == UINT_MAX)
			lev[w] = curr + 1;
	}
}

// WARN-NOT: kernel 'bfs_level'
// WARN-NOT: kernel 'bfs_csr'
// WARN-NOT: kernel 'rodinia'
