/* SPDX-License-Identifier: MIT */
/*
 * stub.c - rw_emit_stub: the host stub C file that `vastcc -c k.cl` turns
 * into k.o. It holds one vast_program_info (runtime/include/vast/stub.h):
 * the partitioning tables, the generated program as a string, the source
 * hash and build options, and a constructor registering it with libvastrt
 * before main(). Every name carries a suffix derived from the file and its
 * hash, so several stubs link into one program and stay tellable apart in
 * a debugger.
 *
 * The program text is written one literal per source line (long lines cut
 * into pieces); C11 §5.2.4.1 only promises 4095 characters per literal,
 * concatenation makes one object of any length for gcc and clang.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rewrite.h"

/* Append s[0..n) as the inside of C string literals; a new literal (on a
 * new line, indented by ind) after every '\n' and every 2000 bytes. */
static void put_escaped(rw_buf *out, const char *s, size_t n, const char *ind)
{
	size_t run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		char tmp[8];
		if (ch == '\\' || ch == '"')
			snprintf(tmp, sizeof tmp, "\\%c", ch);
		else if (ch == '?') /* no trigraphs, whatever -std says */
			snprintf(tmp, sizeof tmp, "\\?");
		else if (ch == '\n')
			snprintf(tmp, sizeof tmp, "\\n");
		else if (ch == '\t')
			snprintf(tmp, sizeof tmp, "\\t");
		else if (ch < 0x20 || ch >= 0x7f)
			snprintf(tmp, sizeof tmp, "\\%03o", ch);
		else
			snprintf(tmp, sizeof tmp, "%c", ch);
		rw_buf_puts(out, tmp);
		run++;
		if ((ch == '\n' || run >= 2000) && i + 1 < n) {
			rw_buf_printf(out, "\"\n%s\"", ind);
			run = 0;
		}
	}
}

static void put_string(rw_buf *out, const char *s)
{
	if (!s) {
		rw_buf_puts(out, "NULL");
		return;
	}
	rw_buf_puts(out, "\"");
	put_escaped(out, s, strlen(s), "\t");
	rw_buf_puts(out, "\"");
}

static const char *const kind_name[] = {
	"VAST_PARAM_GLOBAL", "VAST_PARAM_CONSTANT", "VAST_PARAM_LOCAL",
	"VAST_PARAM_SCALAR", "VAST_PARAM_IMAGE", "VAST_PARAM_SAMPLER",
	"VAST_PARAM_OTHER"};
static const char *const pattern_name[] = {
	"VAST_PAT_NONE", "VAST_PAT_AFFINE", "VAST_PAT_DIRECT",
	"VAST_PAT_INDIRECT"};

static void put_mode(rw_buf *out, unsigned mode)
{
	static const char *const rw[] = {"VAST_MODE_NONE", "VAST_MODE_R",
	                                 "VAST_MODE_W", "VAST_MODE_RW"};
	rw_buf_puts(out, rw[mode & 3]);
	if (mode & VAST_MODE_ATOMIC)
		rw_buf_puts(out, " | VAST_MODE_ATOMIC");
	if (mode & ~7u)
		rw_buf_printf(out, " | %#xu", mode & ~7u);
}

static void put_enum(rw_buf *out, const char *const *names, unsigned n,
                     unsigned v)
{
	if (v < n)
		rw_buf_puts(out, names[v]);
	else
		rw_buf_printf(out, "%uu", v);
}

static void put_fp_name(rw_buf *out, unsigned name)
{
	static const char *const kind[] = {
		"VAST_FP_ONE", "VAST_FP_GROUP", "VAST_FP_LOCAL", "VAST_FP_LOOP",
		"VAST_FP_ARG", "VAST_FP_LOCAL_SIZE", "VAST_FP_GLOBAL_SIZE",
		"VAST_FP_NUM_GROUPS", "VAST_FP_GLOBAL_OFFSET"};
	unsigned k = VAST_FP_KIND(name);
	if (name == VAST_FP_ONE)
		rw_buf_puts(out, "VAST_FP_ONE");
	else if (k < sizeof kind / sizeof *kind)
		rw_buf_printf(out, "VAST_FP_NAME(%s, %u)", kind[k], VAST_FP_INDEX(name));
	else
		rw_buf_printf(out, "%uu", name);
}

static void put_fp_form(rw_buf *out, vast_fp_form f, unsigned base)
{
	rw_buf_printf(out, "{ %u, %u }", f.n ? f.first + base : 0, f.n);
}

/* A kernel's footprint tables, in vast_kernel_footprints' order. */
enum { FP_TAB_FPS, FP_TAB_TERMS, FP_TAB_LOOPS, FP_TAB_GUARDS, FP_TAB_CHECKS, FP_NTAB };
static const char *const fp_tab[FP_NTAB] = { "fps", "fpterms", "fploops", "fpguards",
                                             "fpchecks" };

static void fp_counts(const an_func *k, unsigned n[FP_NTAB])
{
	n[FP_TAB_FPS] = k->nfps;
	n[FP_TAB_TERMS] = n[FP_TAB_LOOPS] = n[FP_TAB_GUARDS] = n[FP_TAB_CHECKS] = 0;
	for (unsigned i = 0; i < k->nfps; i++) {
		n[FP_TAB_TERMS] += k->fps[i].nterms;
		n[FP_TAB_LOOPS] += k->fps[i].nloops;
		n[FP_TAB_GUARDS] += k->fps[i].nguards;
		n[FP_TAB_CHECKS] += k->fps[i].nchecks;
	}
}

/* Kernel f's footprint tables (vast_kernel_footprints): the footprints'
 * own term, loop and guard tables concatenated, their indices moved. */
static void put_footprints(rw_buf *out, const an_program *p, unsigned f, const char *sfx)
{
	const an_func *k = &p->funcs[f];
	unsigned have[FP_NTAB];
	fp_counts(k, have);
	unsigned nterms = have[FP_TAB_TERMS], nloops = have[FP_TAB_LOOPS];
	unsigned nguards = have[FP_TAB_GUARDS];
	if (nterms) {
		rw_buf_printf(out, "static const vast_fp_term vast_stub_%s_%s_%u[] = {\n",
		              fp_tab[FP_TAB_TERMS], sfx, f);
		for (unsigned i = 0; i < k->nfps; i++)
			for (unsigned j = 0; j < k->fps[i].nterms; j++) {
				const vast_fp_term *t = &k->fps[i].terms[j];
				rw_buf_printf(out, "\t{ %lldll, ", t->coef);
				put_fp_name(out, t->var);
				for (int m = 0; m < VAST_FP_MAX_SYMS; m++) {
					rw_buf_puts(out, m ? ", " : ", { ");
					put_fp_name(out, t->sym[m]);
				}
				rw_buf_puts(out, " } },\n");
			}
		rw_buf_puts(out, "};\n");
	}
	if (nloops) {
		rw_buf_printf(out, "static const vast_fp_loop vast_stub_%s_%s_%u[] = {\n",
		              fp_tab[FP_TAB_LOOPS], sfx, f);
		for (unsigned i = 0, base = 0; i < k->nfps; base += k->fps[i++].nterms)
			for (unsigned j = 0; j < k->fps[i].nloops; j++) {
				rw_buf_puts(out, "\t{ ");
				put_fp_form(out, k->fps[i].loops[j].lo, base);
				rw_buf_puts(out, ", ");
				put_fp_form(out, k->fps[i].loops[j].hi, base);
				rw_buf_printf(out, ", %lldll },\n", k->fps[i].loops[j].step);
			}
		rw_buf_puts(out, "};\n");
	}
	if (nguards) {
		rw_buf_printf(out, "static const vast_fp_form vast_stub_%s_%s_%u[] = {\n",
		              fp_tab[FP_TAB_GUARDS], sfx, f);
		for (unsigned i = 0, base = 0; i < k->nfps; base += k->fps[i++].nterms)
			for (unsigned j = 0; j < k->fps[i].nguards; j++) {
				rw_buf_puts(out, "\t");
				put_fp_form(out, k->fps[i].guards[j], base);
				rw_buf_puts(out, ",\n");
			}
		rw_buf_puts(out, "};\n");
	}
	if (have[FP_TAB_CHECKS]) {
		rw_buf_printf(out, "static const vast_fp_check vast_stub_%s_%s_%u[] = {\n",
		              fp_tab[FP_TAB_CHECKS], sfx, f);
		for (unsigned i = 0, base = 0; i < k->nfps; base += k->fps[i++].nterms)
			for (unsigned j = 0; j < k->fps[i].nchecks; j++) {
				rw_buf_puts(out, "\t{ ");
				put_fp_form(out, k->fps[i].checks[j].form, base);
				rw_buf_printf(out, ", %d },\n", k->fps[i].checks[j].bits);
			}
		rw_buf_puts(out, "};\n");
	}
	if (!k->nfps)
		return;
	rw_buf_printf(out, "static const vast_footprint vast_stub_%s_%s_%u[] = {\n",
	              fp_tab[FP_TAB_FPS], sfx, f);
	unsigned base = 0, loop = 0, guard = 0, check = 0;
	for (unsigned i = 0; i < k->nfps; i++) {
		const an_footprint *fp = &k->fps[i];
		const an_access *a = &p->accesses[fp->access];
		rw_buf_printf(out, "\t{ .params = %#xu, .mode = ", fp->params);
		put_mode(out, a->mode);
		rw_buf_printf(out, ", .size = %u, .affine = %u, .reason = ", a->size,
		              fp->affine ? 1u : 0u);
		put_string(out, fp->affine ? NULL : fp->reason);
		rw_buf_puts(out, ",\n\t  .offset = ");
		put_fp_form(out, fp->offset, base);
		rw_buf_printf(out, ", .first_loop = %u, .nloops = %u, .first_guard = %u, "
		              ".nguards = %u,\n\t  .first_check = %u, .nchecks = %u, "
		              ".noffset_checks = %u, .exact = %u, .must_write = %u },\n",
		              fp->nloops ? loop : 0, fp->nloops, fp->nguards ? guard : 0,
		              fp->nguards, fp->nchecks ? check : 0, fp->nchecks,
		              fp->noffset_checks, fp->exact ? 1u : 0u, fp->must_write ? 1u : 0u);
		base += fp->nterms;
		loop += fp->nloops;
		guard += fp->nguards;
		check += fp->nchecks;
	}
	rw_buf_puts(out, "};\n\n");
}

static const char too_deep_reason[] =
	"its code nests more than 256 parentheses, brackets or braces deep "
	"once accesses are translated, more than device compilers accept";

char *rw_emit_stub(const an_program *p, const char *program_text)
{
	char *own = NULL;
	if (!program_text) {
		own = rw_emit_program(p);
		if (!own)
			return NULL;
		program_text = own;
	}
	const char *path = p->path ? p->path : "";
	unsigned long long id = vast_hash_bytes(p->source_hash, path,
	                                        strlen(path));
	char pfx[RW_PREFIX_MAX];
	rw_prefix(p, pfx);
	unsigned char *too_deep = rw_too_deep(p, pfx);
	if (!too_deep) {
		free(own);
		return NULL;
	}
	char sfx[24];
	snprintf(sfx, sizeof sfx, "%016llx", id);
	rw_buf out = {0};

	rw_buf_puts(&out, "/* generated by vastcc from ");
	for (const char *s = path; *s; s++)
		rw_buf_put(&out, s, *s == '*' && s[1] == '/' ? 0 : 1);
	rw_buf_puts(&out, "; do not edit */\n#include \"vast/stub.h\"\n"
	            "#include <stddef.h>\n"
	            "/* The program is one long string, which -pedantic flags. */\n"
	            "#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n\n");

	unsigned nkernels = 0;
	for (unsigned f = 0; f < p->nfuncs; f++) {
		const an_func *k = &p->funcs[f];
		if (!k->is_kernel)
			continue;
		nkernels++;
		if (k->nparams == 0)
			continue;
		rw_buf_printf(&out, "static const vast_param_info "
		              "vast_stub_params_%s_%u[] = {\n", sfx, f);
		for (unsigned i = 0; i < k->nparams; i++) {
			const an_param *pa = &k->params[i];
			rw_buf_puts(&out, "\t{ .name = ");
			put_string(&out, pa->name);
			rw_buf_puts(&out, ", .kind = ");
			put_enum(&out, kind_name, 7, pa->kind);
			rw_buf_puts(&out, ", .mode = ");
			put_mode(&out, pa->mode);
			rw_buf_puts(&out, ", .pattern = ");
			put_enum(&out, pattern_name, 4, pa->pattern);
			rw_buf_printf(&out, ", .elem_size = %u, .inspect_reads = %u },\n",
			              pa->elem_size, pa->inspect_reads ? 1u : 0u);
		}
		rw_buf_puts(&out, "};\n\n");
	}
	for (unsigned f = 0; f < p->nfuncs; f++)
		if (p->funcs[f].is_kernel)
			put_footprints(&out, p, f, sfx);

	if (nkernels) {
		rw_buf_printf(&out, "static const vast_kernel_info "
		              "vast_stub_kernels_%s[] = {\n", sfx);
		for (unsigned f = 0; f < p->nfuncs; f++) {
			const an_func *k = &p->funcs[f];
			if (!k->is_kernel)
				continue;
			rw_buf_puts(&out, "\t{ .name = ");
			put_string(&out, k->name);
			rw_buf_printf(&out, ", .nparams = %u,\n\t  .params = ", k->nparams);
			if (k->nparams)
				rw_buf_printf(&out, "vast_stub_params_%s_%u", sfx, f);
			else
				rw_buf_puts(&out, "NULL");
			/* No variants at all: their code would nest too deep
			 * (depth.c), the first reason the runtime must know. */
			int virt = k->virtualizable && !too_deep[f];
			rw_buf_printf(&out, ",\n\t  .variants = %s,\n"
			              "\t  .virtualizable = %u, .reason = ",
			              too_deep[f] ? "0" : "VAST_HAS_INSPECT | "
			              "VAST_HAS_PAGED | VAST_HAS_MERGE", virt ? 1u : 0u);
			put_string(&out, virt ? NULL : too_deep[f] ? too_deep_reason : k->reason);
			rw_buf_puts(&out, ", .location = ");
			if (virt) {
				rw_buf_puts(&out, "NULL");
			} else {
				char loc[64];
				an_loc at = too_deep[f] ? k->loc : k->reason_loc;
				const char *file = at.file ? at.file : path;
				snprintf(loc, sizeof loc, ":%u:%u", at.line, at.col);
				rw_buf_puts(&out, "\"");
				put_escaped(&out, file, strlen(file), "\t");
				put_escaped(&out, loc, strlen(loc), "\t");
				rw_buf_puts(&out, "\"");
			}
			rw_buf_printf(&out, ",\n\t  .merge_exact = %u },\n",
			              k->merge_exact ? 1u : 0u);
		}
		rw_buf_puts(&out, "};\n\n");
	}

	if (nkernels) {
		rw_buf_printf(&out, "static const vast_kernel_footprints "
		              "vast_stub_footprints_%s[] = {\n", sfx);
		for (unsigned f = 0; f < p->nfuncs; f++) {
			const an_func *k = &p->funcs[f];
			if (!k->is_kernel)
				continue;
			unsigned have[FP_NTAB];
			fp_counts(k, have);
			rw_buf_printf(&out, "\t{ %u, ", k->nfps);
			for (int t = 0; t < FP_NTAB; t++) {
				if (have[t])
					rw_buf_printf(&out, "vast_stub_%s_%s_%u", fp_tab[t], sfx, f);
				else
					rw_buf_puts(&out, "NULL");
				rw_buf_puts(&out, t + 1 < FP_NTAB ? ", " : " },\n");
			}
		}
		rw_buf_puts(&out, "};\n\n");
	}

	if (p->ndevmacros) {
		rw_buf_printf(&out, "static const vast_device_macro "
		              "vast_stub_devmacros_%s[] = {\n", sfx);
		for (unsigned i = 0; i < p->ndevmacros; i++) {
			rw_buf_puts(&out, "\t{ ");
			put_string(&out, p->devmacros[i].name);
			rw_buf_puts(&out, ", ");
			put_string(&out, p->devmacros[i].value);
			rw_buf_puts(&out, " },\n");
		}
		rw_buf_puts(&out, "};\n\n");
	}

	rw_buf_printf(&out, "static const char vast_stub_source_%s[] =\n\t\"", sfx);
	put_escaped(&out, program_text, strlen(program_text), "\t");
	rw_buf_puts(&out, "\";\n\n");

	rw_buf_printf(&out, "static const vast_program_info vast_stub_program_%s = {\n"
	              "\t.abi_version = VAST_STUB_ABI_VERSION,\n\t.file = ", sfx);
	put_string(&out, path);
	rw_buf_printf(&out, ",\n\t.source_hash = 0x%016llxull,\n"
	              "\t.source_size = %lluull,\n\t.cl_options = ",
	              p->source_hash, (unsigned long long)p->source_size);
	put_string(&out, p->cl_options ? p->cl_options : "");
	rw_buf_printf(&out, ",\n\t.generated_source = vast_stub_source_%s,\n"
	              "\t.nkernels = %u,\n\t.kernels = ", sfx, nkernels);
	if (nkernels)
		rw_buf_printf(&out, "vast_stub_kernels_%s,\n", sfx);
	else
		rw_buf_puts(&out, "NULL,\n");
	rw_buf_printf(&out, "\t.prefix = \"%s\",\n\t.ndevice_macros = %u,\n"
	              "\t.device_macros = ", pfx, p->ndevmacros);
	if (p->ndevmacros)
		rw_buf_printf(&out, "vast_stub_devmacros_%s,\n", sfx);
	else
		rw_buf_puts(&out, "NULL,\n");
	if (nkernels)
		rw_buf_printf(&out, "\t.footprints = vast_stub_footprints_%s,\n};\n\n", sfx);
	else
		rw_buf_puts(&out, "\t.footprints = NULL,\n};\n\n");

	rw_buf_printf(&out, "__attribute__((constructor)) static void "
	              "vast_stub_register_%s(void)\n{\n"
	              "\tvast_register_program(&vast_stub_program_%s);\n}\n",
	              sfx, sfx);
	free(too_deep);
	free(own);
	return rw_buf_take(&out);
}
