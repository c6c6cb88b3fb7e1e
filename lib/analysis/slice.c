/* SPDX-License-Identifier: MIT */
/*
 * slice.c - keep flags and roles for the inspector and the merge kernel.
 *
 * The rules are the contract in analysis.h; this file implements them as a
 * backward slice over local variables, one function at a time, callers
 * before callees (a callee's return value is needed only if some call
 * that is rendered uses it):
 *   1. Seeds: the address operands of every access (inspector) or every
 *      store (merge), and the arguments of calls to helpers that have an
 *      effect in the variant, give their variables to R; the statements
 *      around them are kept, so items stay under their conditions and
 *      loops. return/break/continue/goto are always kept.
 *      Inspector only: an `if` whose condition depends on __local memory
 *      is not kept for its items' sake; dropped, it renders the items of
 *      both arms (a superset of the pages, so exact). Computing such a
 *      condition would need the group's __local stores and the barrier
 *      after them, and a barrier under a branch is where drivers differ
 *      (PoCL 3.1 ran such an inspector with every work-item seeing the
 *      first one's __local value; without vast_touch's loop after the
 *      barrier it was right). The branch is still computed when something
 *      kept needs it (a variable it defines).
 *   2. Fixed point: a statement that defines a variable of R is kept, and
 *      everything its own text reads joins R (for a control statement its
 *      own text is its header). Barriers are kept when __local data is in
 *      R; case/default/label when their parent is.
 *   3. Roles: an access in rendered text (kept text, an item's address, an
 *      effect call's arguments) is LOAD; in dropped text TOUCH (inspector)
 *      or COPY/DROP (merge); inside a DROP access DROP.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

enum { CTX_RENDERED, CTX_FREE, CTX_DEAD };

typedef struct slicer {
	an_ctx *c;
	int v;               /* the variant */
	int f;               /* the function */
	char *inR;           /* per variable */
	int changed;
	signed char *arole;  /* per access: -1 unknown */
	signed char *crole;  /* per call */
} slicer;

static unsigned fend(an_ctx *c, int f)
{
	return (unsigned)f + 1 < c->p->nfuncs ? (unsigned)c->func_node[f + 1] : c->nnodes;
}

static int is_barrier_name(const char *s)
{
	return s && (!strcmp(s, "barrier") || !strcmp(s, "mem_fence") ||
	             !strcmp(s, "read_mem_fence") || !strcmp(s, "write_mem_fence") ||
	             !strcmp(s, "work_group_barrier") || !strcmp(s, "sub_group_barrier"));
}

/* A helper's `return e;` whose value no rendered call uses. */
static int ret_dropped(slicer *S, int s)
{
	an_program *p = S->c->p;
	an_stmt *st = &p->stmts[s];
	if (st->kind != AN_STMT_RETURN || p->funcs[st->func].ret_needed[S->v])
		return 0;
	return S->c->nodes[S->c->stmt_node[s]].nkids > 0;
}

/* The variables expression n reads join R: a loop over its subtree, which
 * is [n, last] in the node array, not a recursion per operand. */
static void add_reads(slicer *S, int n)
{
	an_ctx *c = S->c;
	for (int m = n; m <= c->nodes[n].last; m++) {
		an_node *x = &c->nodes[m];
		if (x->kind == CXCursor_DeclRefExpr && x->var >= 0 && c->vars[x->var].func >= 0 &&
		    !S->inR[x->var]) {
			S->inR[x->var] = 1;
			S->changed = 1;
		}
	}
}

static void mark(slicer *S, int s)
{
	an_ctx *c = S->c;
	while (s >= 0 && !c->p->stmts[s].keep[S->v]) {
		c->p->stmts[s].keep[S->v] = 1;
		S->changed = 1;
		if (!ret_dropped(S, s)) {
			/* own text: nodes whose innermost statement is s */
			for (unsigned n = (unsigned)c->func_node[S->f]; n < fend(c, S->f); n++)
				if (c->nodes[n].stmt == s && c->nodes[n].kind == CXCursor_DeclRefExpr)
					add_reads(S, (int)n);
		}
		s = c->p->stmts[s].parent;
	}
}

/* The innermost access or helper call around n inside its statement. */
static int enclosing(an_ctx *c, int n)
{
	int s = c->nodes[n].stmt;
	for (int p = c->nodes[n].encl; p >= 0 && c->nodes[p].stmt == s; p = c->nodes[p].encl) {
		an_node *y = &c->nodes[p];
		if (y->access >= 0)
			return p;
		if (y->call >= 0 && c->p->calls[y->call].target >= 0 &&
		    c->p->funcs[c->p->calls[y->call].target].cloned)
			return p;
		if (s >= 0 && p == c->stmt_node[s])
			break;
	}
	return -1;
}

static int in_addr(an_ctx *c, int e, int n)
{
	an_access *a = &c->p->accesses[c->nodes[e].access];
	an_node *x = &c->nodes[n];
	if (a->form == AN_FORM_VLOAD || a->form == AN_FORM_VSTORE || a->form == AN_FORM_ATOMIC)
		return an_in(&a->ptr, x->begin, x->end) ||
		       (a->off.end > a->off.begin && an_in(&a->off, x->begin, x->end));
	return 1;
}

static int role_access(slicer *S, int ai, int n);
static int role_call(slicer *S, int ci, int n);

static int ctx_of(slicer *S, int n)
{
	an_ctx *c = S->c;
	int s = c->nodes[n].stmt;
	if (s >= 0 && c->p->stmts[s].keep[S->v] && !ret_dropped(S, s))
		return CTX_RENDERED;
	int e = enclosing(c, n);
	if (e < 0)
		return CTX_FREE;
	an_node *y = &c->nodes[e];
	if (y->access >= 0) {
		int r = role_access(S, y->access, e);
		if (r == AN_ROLE_LOAD)
			return CTX_RENDERED;
		if (r == AN_ROLE_DROP)
			return CTX_DEAD;
		return in_addr(c, e, n) ? CTX_RENDERED : CTX_FREE;
	}
	if (role_call(S, y->call, e) == AN_ROLE_EFFECT)
		return CTX_RENDERED;
	return ctx_of(S, e);
}

static int role_access(slicer *S, int ai, int n)
{
	if (S->arole[ai] >= 0)
		return S->arole[ai];
	an_access *a = &S->c->p->accesses[ai];
	int r;
	switch (ctx_of(S, n)) {
	case CTX_RENDERED: r = AN_ROLE_LOAD; break;
	case CTX_DEAD: r = AN_ROLE_DROP; break;
	default:
		if (S->v == AN_V_INSPECT)
			r = AN_ROLE_TOUCH;
		else
			r = (a->mode & VAST_MODE_W) ? AN_ROLE_COPY : AN_ROLE_DROP;
	}
	S->arole[ai] = (signed char)r;
	a->role[S->v] = (unsigned)r;
	return r;
}

static int role_call(slicer *S, int ci, int n)
{
	if (S->crole[ci] >= 0)
		return S->crole[ci];
	an_ctx *c = S->c;
	an_call *k = &c->p->calls[ci];
	int r = AN_ROLE_DROP;
	S->crole[ci] = (signed char)r; /* no cycles through one call */
	if (k->target >= 0 && c->p->funcs[k->target].cloned) {
		int ctx = ctx_of(S, n);
		if (ctx == CTX_RENDERED) {
			/* rendered with the code around it; is its value used? */
			int s = c->nodes[n].stmt, up = n;
			while (c->nodes[up].parent >= 0 && an_is_cast_like(c, c->nodes[up].parent))
				up = c->nodes[up].parent;
			int discarded = s >= 0 && c->stmt_node[s] == up &&
			                c->p->stmts[s].kind == AN_STMT_EXPR;
			if (!discarded)
				c->p->funcs[k->target].ret_needed[S->v] = 1;
		} else if (c->effectful[S->v][k->target]) {
			r = AN_ROLE_EFFECT;
		}
	}
	S->crole[ci] = (signed char)r;
	k->role[S->v] = (unsigned)r;
	return r;
}

/* Address operands of access node n: the whole expression, or the pointer
 * and offset arguments of a builtin. */
static void add_addr_reads(slicer *S, int n)
{
	an_ctx *c = S->c;
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_CallExpr) {
		for (unsigned i = 1; i < x->nkids; i++)
			if (in_addr(c, n, x->kids[i]))
				add_reads(S, x->kids[i]);
		return;
	}
	add_reads(S, n);
}

/* Whether the subtree at n reads a variable marked in dep. */
static int reads_any(an_ctx *c, int n, const char *dep)
{
	/* Pre-order: the subtree is [n, last], walked without recursion. */
	for (int m = n; m <= c->nodes[n].last; m++) {
		an_node *x = &c->nodes[m];
		if (x->kind == CXCursor_DeclRefExpr && x->var >= 0 && dep[x->var])
			return 1;
	}
	return 0;
}

/* Variables of f whose values depend on __local memory: __local
 * variables, pointers into it, and what is defined from them. Erring
 * either way only moves a branch between the two exact ways of
 * inspecting it (computed, or both arms marked). */
static char *local_deps(an_ctx *c, int f)
{
	char *dep = an_xcalloc(c->nvars + 1, 1);
	for (unsigned i = 0; i < c->nvars; i++)
		dep[i] = (char)(c->vars[i].is_local_mem != 0);
	for (int changed = 1; changed;) {
		changed = 0;
		for (unsigned d = 0; d < c->ndefs; d++) {
			int n = c->defs[d].node, v = c->defs[d].var;
			if (!dep[v] && c->nodes[n].func == f && reads_any(c, n, dep))
				dep[v] = 1, changed = 1;
		}
	}
	return dep;
}

/* Data kernel f writes, for its inspector: what it stores to (written,
 * parameter bits), the loads of it the inspector may not compute (every
 * one but a load that sees the original, an_load_sees_original), and the
 * variables defined from such loads, directly or through one another.
 * Only values are followed, not the branches around definitions: a
 * variable missed keeps an `if` on it computed, whose load of written
 * data the kernel's summary then refuses, as before. Loads and `if`s are
 * judged when first asked, once: asking of every access made a kernel of
 * 40,000 stores quadratic (lit/analysis-linear-time). */
typedef struct wdeps {
	int f;
	unsigned written;
	char *var;           /* per variable */
	signed char *load;   /* per access: 0 not asked, 1 such a load, -1 not */
	signed char *ifw;    /* per statement: if_on_written, as load */
} wdeps;

static int written_load(an_ctx *c, wdeps *w, int ai)
{
	if (!w->load[ai]) {
		an_access *a = &c->p->accesses[ai];
		w->load[ai] = a->func == w->f && (c->kf[w->f].acc_bits[ai] & w->written) &&
		                              !(a->mode & VAST_MODE_ATOMIC) &&
		                              !an_load_sees_original(c, w->f, (unsigned)ai, w->written)
		                      ? 1 : -1;
	}
	return w->load[ai] > 0;
}

static int reads_wdep(an_ctx *c, int n, wdeps *w)
{
	for (int m = n; m <= c->nodes[n].last; m++) {
		an_node *x = &c->nodes[m];
		if ((x->access >= 0 && written_load(c, w, x->access)) ||
		    (x->kind == CXCursor_DeclRefExpr && x->var >= 0 && w->var[x->var]))
			return 1;
	}
	return 0;
}

static void written_deps(an_ctx *c, int f, wdeps *w)
{
	an_program *p = c->p;
	an_kfacts *k = &c->kf[f];
	w->f = f;
	w->written = 0;
	w->var = an_xcalloc(c->nvars + 1, 1);
	w->load = an_xcalloc(p->naccesses + 1, 1);
	w->ifw = an_xcalloc(p->nstmts + 1, 1);
	for (unsigned ai = 0; ai < p->naccesses; ai++)
		if (k->reach[p->accesses[ai].func] && (p->accesses[ai].mode & VAST_MODE_W))
			w->written |= k->acc_bits[ai];
	for (int changed = 1; changed;) {
		changed = 0;
		for (unsigned d = 0; d < c->ndefs; d++) {
			int n = c->defs[d].node, v = c->defs[d].var;
			if (!w->var[v] && c->nodes[n].func == f && reads_wdep(c, n, w))
				w->var[v] = 1, changed = 1;
		}
	}
}

/* Statement t is an `if` whose condition reads data the kernel writes
 * (wd; NULL: none is dropped). */
static int if_on_written(slicer *S, wdeps *wd, int t)
{
	an_ctx *c = S->c;
	if (!wd || c->p->stmts[t].kind != AN_STMT_IF)
		return 0;
	if (!wd->ifw[t]) {
		int sn = c->stmt_node[t], r = -1;
		/* node by node: a subtree's walk from each header node
		 * would be quadratic in a long condition */
		for (int n = sn; n <= c->nodes[sn].last && r < 0; n++) {
			an_node *x = &c->nodes[n];
			if (x->stmt == t && x->header &&
			    ((x->access >= 0 && written_load(c, wd, x->access)) ||
			     (x->kind == CXCursor_DeclRefExpr && x->var >= 0 && wd->var[x->var])))
				r = 1;
		}
		wd->ifw[t] = (signed char)r;
	}
	return wd->ifw[t] > 0;
}

/* A kernel's `return` s under an `if` on data it writes is not rendered
 * by the inspector, which goes on as if the work-item had not returned:
 * the path it walks holds every statement the work-item's path does, so
 * it marks a superset of its pages. (Not a helper's, whose return ends
 * only the helper; nor a break or continue, after which the loop's
 * variables would take other values than the kernel's.) */
static int return_dropped(slicer *S, wdeps *wd, int s)
{
	an_ctx *c = S->c;
	if (!wd)
		return 0;
	for (int t = c->p->stmts[s].parent; t >= 0; t = c->p->stmts[t].parent)
		if (if_on_written(S, wd, t))
			return 1;
	return 0;
}

/* The statement a seed at statement s keeps: its parent, or in the
 * inspector the parent of the outermost `if` on __local data (dep:
 * local_deps(), NULL for the merge kernel) or on data the kernel writes
 * (wd) around it. *over: an `if` of the second kind holding s was
 * dropped. */
static int seed_anchor(slicer *S, const char *dep, wdeps *wd, int s, int *over)
{
	an_ctx *c = S->c;
	int top = s;
	for (int t = s; dep && t >= 0; t = c->p->stmts[t].parent) {
		if (c->p->stmts[t].kind != AN_STMT_IF)
			continue;
		/* An `if` on what the kernel writes cannot be computed
		 * before the kernel runs (another work-item may store there
		 * first); dropped, both arms are marked whether or not they
		 * run, a superset of the pages, so the footprint stays
		 * computable where its addresses depend on read-only data
		 * alone. What the frames hold when the kernel runs is the
		 * runtime's, exact whatever it stores of them (docs/runtime.md). */
		if (if_on_written(S, wd, t)) {
			top = t;
			/* covered: marked by the accesses that cover it */
			*over |= t != s && !an_guard_covered(c, S->v, t);
			continue;
		}
		for (unsigned n = (unsigned)c->func_node[S->f]; n < fend(c, S->f); n++)
			if (c->nodes[n].stmt == t && c->nodes[n].kind == CXCursor_DeclRefExpr &&
			    c->nodes[n].var >= 0 && dep[c->nodes[n].var]) {
				top = t;
				break;
			}
	}
	/* an `if` on loaded data whose accesses are all covered is dropped:
	 * its items are rendered unguarded */
	for (int u = c->p->stmts[top].parent; u >= 0; u = c->p->stmts[u].parent) {
		if (c->p->stmts[u].kind == AN_STMT_COMPOUND)
			continue;
		if (!an_guard_covered(c, S->v, u))
			break;
		top = u;
	}
	return c->p->stmts[top].parent;
}

/* Conditions of ?: && || around n inside its statement join R. */
static int cond_reads(slicer *S, int n)
{
	an_ctx *c = S->c;
	int s = c->nodes[n].stmt, in_arm = 0;
	for (int m = c->nodes[n].ctl; m >= 0 && c->nodes[c->nodes[m].parent].stmt == s;
	     m = an_ctl_next(c, m)) {
		int p = c->nodes[m].parent;
		an_node *y = &c->nodes[p];
		if (y->kind == CXCursor_ConditionalOperator && y->nkids == 3 && m != y->kids[0]) {
			add_reads(S, y->kids[0]);
			in_arm = 1;
		} else if (y->kind == CXCursor_BinaryOperator && y->nkids == 2 && m == y->kids[1] &&
		           (y->op == CXBinaryOperator_LAnd || y->op == CXBinaryOperator_LOr)) {
			add_reads(S, y->kids[0]);
			in_arm = 1;
		}
	}
	return in_arm;
}

/* Does the call at node n pass a pointer to private memory? (A pointer
 * to __local memory writes no variable of the caller.) */
static int passes_private_only_ptr(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	for (unsigned i = 1; i < x->nkids; i++) {
		int a = x->kids[i];
		if (an_node_is_ptr(c, a)) {
			unsigned as = an_type_as(an_node_pointee(c, a));
			if (as != AN_AS_GLOBAL && as != AN_AS_CONSTANT && as != AN_AS_LOCAL)
				return 1;
		}
	}
	return 0;
}

static void slice_func(an_ctx *c, int v, int f)
{
	an_program *p = c->p;
	slicer S = { c, v, f, an_xcalloc(c->nvars + 1, 1), 0,
	             an_xmalloc(p->naccesses + 1), an_xmalloc(p->ncalls + 1) };
	memset(S.arole, -1, p->naccesses + 1);
	memset(S.crole, -1, p->ncalls + 1);
	an_func *fn = &p->funcs[f];

	wdeps wd = {0};
	if (v == AN_V_INSPECT && fn->is_kernel)
		written_deps(c, f, &wd);
	for (unsigned s = 0; s < p->nstmts; s++) {
		if (p->stmts[s].func != f)
			continue;
		enum an_stmt_kind k = p->stmts[s].kind;
		if ((k == AN_STMT_RETURN && !return_dropped(&S, wd.var ? &wd : NULL, (int)s)) ||
		    k == AN_STMT_BREAK || k == AN_STMT_CONTINUE || k == AN_STMT_GOTO)
			mark(&S, (int)s);
	}
	/* a helper's stores through private or local pointers, and the calls
	 * it passes such pointers to, may change its caller's variables:
	 * kept when a caller's slice needs them, or when the helper reads
	 * through such a pointer itself (two pointers may alias) */
	int keep_out = c->out_needed[v][f] || c->pointee_read[f];
	for (unsigned n = (unsigned)c->func_node[f]; !fn->is_kernel && keep_out && n < fend(c, f); n++)
		if (c->nodes[n].ptr_store ||
		    (c->nodes[n].kind == CXCursor_CallExpr && an_passes_private_ptr(c, (int)n)))
			mark(&S, c->nodes[n].stmt);
	/* seeds */
	char *dep = v == AN_V_INSPECT ? local_deps(c, f) : NULL;
	for (unsigned n = (unsigned)c->func_node[f]; n < fend(c, f); n++) {
		an_node *x = &c->nodes[n];
		int seed = 0;
		if (x->access >= 0) {
			an_access *a = &p->accesses[x->access];
			seed = v == AN_V_INSPECT || (a->mode & VAST_MODE_W);
			if (seed)
				add_addr_reads(&S, (int)n);
			if (seed && cond_reads(&S, (int)n) && v == AN_V_MERGE)
				an_add_bad(c, (int)n, "a global store inside a conditional expression "
				                      "(?:, &&, ||)");
		} else if (x->call >= 0 && p->calls[x->call].target >= 0 &&
		           c->effectful[v][p->calls[x->call].target]) {
			seed = 1;
			for (unsigned i = 1; i < x->nkids; i++) {
				/* `&v` to a helper that only stores through it:
				 * v's value is not needed, its declaration is */
				int y = c->pointee_read[x->fn_ref] ? -1 : an_private_root(c, x->kids[i]);
				char had = y >= 0 ? S.inR[y] : 0;
				add_reads(&S, x->kids[i]);
				if (y >= 0) {
					S.inR[y] = had;
					mark(&S, c->nodes[c->vars[y].node].stmt);
				}
			}
			cond_reads(&S, (int)n);
		}
		if (seed && x->stmt >= 0) {
			int over = 0;
			mark(&S, seed_anchor(&S, dep, wd.var ? &wd : NULL, x->stmt, &over));
			if (over && x->access >= 0)
				p->accesses[x->access].unguarded = 1;
		}
	}
	free(dep);
	free(wd.var);
	free(wd.load);
	free(wd.ifw);
	/* fixed point */
	do {
		S.changed = 0;
		int local_in_r = 0, escaped_in_r = 0;
		for (unsigned i = 0; i < c->nvars; i++) {
			if (S.inR[i] && c->vars[i].is_local_mem)
				local_in_r = 1;
			if (S.inR[i] && c->vars[i].func == f && c->vars[i].addr_taken)
				escaped_in_r = 1;
		}
		/* A kernel's call that passes a pointer to private memory may
		 * store through it into any of the kernel's variables whose
		 * address escaped, as a store through such a pointer may
		 * (model.c); it defines them whether or not its arguments
		 * name them with `&`. Without this, `turn(pio, pcur)`, a
		 * helper that accesses no global memory negating a stride or
		 * moving a cursor through pointer variables, was sliced
		 * away, and the inspector walked on where the kernel turned
		 * back (helpers keep all such calls, above). */
		for (unsigned n = (unsigned)c->func_node[f]; fn->is_kernel && escaped_in_r && n < fend(c, f);
		     n++) {
			an_node *x = &c->nodes[n];
			if (x->kind == CXCursor_CallExpr && x->stmt >= 0 && !p->stmts[x->stmt].keep[v] &&
			    passes_private_only_ptr(c, (int)n))
				mark(&S, x->stmt);
		}
		for (unsigned d = 0; d < c->ndefs; d++) {
			an_node *x = &c->nodes[c->defs[d].node];
			if (x->func == f && x->stmt >= 0 && S.inR[c->defs[d].var] &&
			    !p->stmts[x->stmt].keep[v])
				mark(&S, x->stmt);
		}
		for (unsigned s = 0; s < p->nstmts; s++) {
			an_stmt *st = &p->stmts[s];
			if (st->func != f || st->keep[v])
				continue;
			an_node *x = &c->nodes[c->stmt_node[s]];
			if ((st->kind == AN_STMT_CASE || st->kind == AN_STMT_DEFAULT ||
			     st->kind == AN_STMT_LABEL) && st->parent >= 0 && p->stmts[st->parent].keep[v])
				mark(&S, (int)s);
			else if (st->kind == AN_STMT_DECL) {
				for (unsigned i = 0; i < x->nkids; i++) {
					an_node *y = &c->nodes[x->kids[i]];
					if (y->kind == CXCursor_VarDecl && y->var >= 0 && S.inR[y->var])
						mark(&S, (int)s);
				}
			} else if (st->kind == AN_STMT_EXPR && local_in_r) {
				int e = an_strip(c, c->stmt_node[s]);
				if (e >= 0 && c->nodes[e].kind == CXCursor_CallExpr &&
				    is_barrier_name(c->nodes[e].callee))
					mark(&S, (int)s);
			}
		}
	} while (S.changed);
	an_note_out_needed(c, v, f, S.inR);

	/* roles */
	for (unsigned n = (unsigned)c->func_node[f]; n < fend(c, f); n++) {
		an_node *x = &c->nodes[n];
		if (x->access >= 0)
			role_access(&S, x->access, (int)n);
		if (x->call >= 0)
			role_call(&S, x->call, (int)n);
	}
	free(S.inR);
	free(S.arole);
	free(S.crole);
}

static void order(an_ctx *c, int f, char *seen, int *out, unsigned *n)
{
	if (seen[f])
		return;
	seen[f] = 1;
	for (unsigned k = (unsigned)c->func_node[f]; k < fend(c, f); k++)
		if (c->nodes[k].fn_ref >= 0)
			order(c, c->nodes[k].fn_ref, seen, out, n);
	out[(*n)++] = f;
}

void an_slice(an_ctx *c)
{
	an_program *p = c->p;
	unsigned nf = p->nfuncs;
	if (!nf)
		return;
	/* cloned and effectful, transitively over calls */
	int *has_acc = an_xcalloc(nf, sizeof(int)), *has_w = an_xcalloc(nf, sizeof(int)),
	    *has_wi = an_xcalloc(nf, sizeof(int)), *called = an_xcalloc(nf, sizeof(int));
	for (unsigned a = 0; a < p->naccesses; a++) {
		has_acc[p->accesses[a].func] = 1;
		if (p->accesses[a].mode & VAST_MODE_W)
			has_w[p->accesses[a].func] = 1;
	}
	for (unsigned k = 0; k < p->ncalls; k++) {
		if (p->calls[k].builtin != AN_BI_NONE)
			has_wi[p->calls[k].func] = 1;
		if (p->calls[k].target >= 0)
			called[p->calls[k].target] = 1;
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (unsigned k = 0; k < p->ncalls; k++) {
			int t = p->calls[k].target, f = p->calls[k].func;
			if (t < 0)
				continue;
			if (has_acc[t] && !has_acc[f]) has_acc[f] = changed = 1;
			if (has_w[t] && !has_w[f]) has_w[f] = changed = 1;
			if (has_wi[t] && !has_wi[f]) has_wi[f] = changed = 1;
		}
	}
	for (int v = 0; v < AN_NSLICED; v++)
		c->out_needed[v] = an_xcalloc(nf + 1, 1);
	c->effectful[AN_V_INSPECT] = has_acc;
	c->effectful[AN_V_MERGE] = has_w;
	for (unsigned f = 0; f < nf; f++)
		p->funcs[f].cloned = (!p->funcs[f].is_kernel || called[f]) &&
		                     (has_acc[f] || has_wi[f]);
	free(has_wi);
	free(called);

	char *seen = an_xcalloc(nf, 1);
	int *post = an_xcalloc(nf, sizeof(int));
	unsigned np = 0;
	for (unsigned f = 0; f < nf; f++)
		if (p->funcs[f].is_kernel)
			order(c, (int)f, seen, post, &np);
	for (unsigned f = 0; f < nf; f++)
		order(c, (int)f, seen, post, &np);
	for (int v = 0; v < AN_NSLICED; v++)
		for (unsigned i = np; i-- > 0;)
			slice_func(c, v, post[i]);
	free(seen);
	free(post);
}
