// SPDX-License-Identifier: MIT
// Breadth-first search, one level per launch, and a scattered guarded store
// (e2e/bfs.sh). Each stores only where data the kernel writes says so: the
// inspector marks the store whether or not it happens (a superset), and the
// ranges' write-back must not bring back stale bytes of a page another
// range stored to.

// One work-item per edge u -> w: w joins the next level when u is on the
// current one and w was not reached yet. Work-items that store to lev[w]
// store the same value.
__kernel void bfs_edges(__global const uint *src, __global const uint *dst,
                        __global uint *lev, uint curr, __global uint *changed)
{
	size_t e = get_global_id(0);
	uint u = src[e], w = dst[e];
	if (lev[u] == curr && lev[w] == UINT_MAX) {
		lev[w] = curr + 1;
		*changed = 1;
	}
}

// One work-item per node, its edges in CSR form.
__kernel void bfs_csr(__global const uint *rowptr, __global const uint *col,
                      __global uint *lev, uint curr, __global uint *changed)
{
	size_t v = get_global_id(0);
	if (lev[v] != curr)
		return;
	for (uint e = rowptr[v]; e < rowptr[v + 1]; e++) {
		uint w = col[e];
		if (lev[w] == UINT_MAX) {
			lev[w] = curr + 1;
			*changed = 1;
		}
	}
}

// Work-item g stamps element perm[g] unless it holds a value already.
// perm interleaves the elements of a block among its work-items, so the
// ranges either side of a block's cut store to the same pages at
// different bytes.
__kernel void stamp(__global const uint *perm, __global uint *out)
{
	size_t g = get_global_id(0);
	uint w = perm[g];
	if (out[w] == 0)
		out[w] = (uint)g + 1;
}
