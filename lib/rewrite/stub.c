/* SPDX-License-Identifier: MIT */
/*
 * stub.c - rw_emit_stub: the host stub C file that `vastcc -c k.cl` turns
 * into k.o. It holds one vast_program_info (runtime/include/vast/stub.h),
 * the one info.c builds, printed as C:
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
		/* byte by byte without printf: a program of 12 MB (40,000
		 * statements in four variants) took a quarter of vastcc's time */
		char tmp[4] = { '\\', (char)ch };
		size_t len = 2;
		if (ch == '?') /* no trigraphs, whatever -std says */
			tmp[1] = '?';
		else if (ch == '\n')
			tmp[1] = 'n';
		else if (ch == '\t')
			tmp[1] = 't';
		else if (ch < 0x20 || ch >= 0x7f)
			tmp[1] = (char)('0' + (ch >> 6)), tmp[2] = (char)('0' + (ch >> 3 & 7)),
			tmp[3] = (char)('0' + (ch & 7)), len = 4;
		else if (ch != '\\' && ch != '"')
			tmp[0] = (char)ch, len = 1;
		rw_buf_put(out, tmp, len);
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

static void put_fp_form(rw_buf *out, vast_fp_form f)
{
	rw_buf_printf(out, "{ %u, %u }", f.first, f.n);
}

static const char *const fp_tab[RW_FP_NTAB] = { "fps", "fpterms", "fploops", "fpguards",
                                                "fpchecks" };

/* Kernel n's footprint tables, named by the kernel's index. */
static void put_footprints(rw_buf *out, const rw_info *info, const char *sfx,
                           unsigned n)
{
	const vast_kernel_footprints *k = &info->prog.footprints[n];
	unsigned have[RW_FP_NTAB];
	rw_info_sizes(info, n, have);
	if (have[RW_FP_TERMS]) {
		rw_buf_printf(out, "static const vast_fp_term vast_stub_%s_%s_%u[] = {\n",
		              fp_tab[RW_FP_TERMS], sfx, n);
		for (unsigned i = 0; i < have[RW_FP_TERMS]; i++) {
			const vast_fp_term *t = &k->terms[i];
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
	if (have[RW_FP_LOOPS]) {
		rw_buf_printf(out, "static const vast_fp_loop vast_stub_%s_%s_%u[] = {\n",
		              fp_tab[RW_FP_LOOPS], sfx, n);
		for (unsigned i = 0; i < have[RW_FP_LOOPS]; i++) {
			rw_buf_puts(out, "\t{ ");
			put_fp_form(out, k->loops[i].lo);
			rw_buf_puts(out, ", ");
			put_fp_form(out, k->loops[i].hi);
			rw_buf_printf(out, ", %lldll },\n", k->loops[i].step);
		}
		rw_buf_puts(out, "};\n");
	}
	if (have[RW_FP_GUARDS]) {
		rw_buf_printf(out, "static const vast_fp_form vast_stub_%s_%s_%u[] = {\n",
		              fp_tab[RW_FP_GUARDS], sfx, n);
		for (unsigned i = 0; i < have[RW_FP_GUARDS]; i++) {
			rw_buf_puts(out, "\t");
			put_fp_form(out, k->guards[i]);
			rw_buf_puts(out, ",\n");
		}
		rw_buf_puts(out, "};\n");
	}
	if (have[RW_FP_CHECKS]) {
		rw_buf_printf(out, "static const vast_fp_check vast_stub_%s_%s_%u[] = {\n",
		              fp_tab[RW_FP_CHECKS], sfx, n);
		for (unsigned i = 0; i < have[RW_FP_CHECKS]; i++) {
			rw_buf_puts(out, "\t{ ");
			put_fp_form(out, k->checks[i].form);
			rw_buf_printf(out, ", %d },\n", k->checks[i].bits);
		}
		rw_buf_puts(out, "};\n");
	}
	if (!k->nfootprints)
		return;
	rw_buf_printf(out, "static const vast_footprint vast_stub_%s_%s_%u[] = {\n",
	              fp_tab[RW_FP_FPS], sfx, n);
	for (unsigned i = 0; i < k->nfootprints; i++) {
		const vast_footprint *fp = &k->footprints[i];
		rw_buf_printf(out, "\t{ .params = %#xu, .mode = ", fp->params);
		put_mode(out, fp->mode);
		rw_buf_printf(out, ", .size = %u, .affine = %u, .reason = ", fp->size,
		              fp->affine);
		put_string(out, fp->reason);
		rw_buf_puts(out, ",\n\t  .offset = ");
		put_fp_form(out, fp->offset);
		rw_buf_printf(out, ", .first_loop = %u, .nloops = %u, .first_guard = %u, "
		              ".nguards = %u,\n\t  .first_check = %u, .nchecks = %u, "
		              ".noffset_checks = %u, .exact = %u, .must_write = %u },\n",
		              fp->first_loop, fp->nloops, fp->first_guard, fp->nguards,
		              fp->first_check, fp->nchecks, fp->noffset_checks, fp->exact,
		              fp->must_write);
	}
	rw_buf_puts(out, "};\n\n");
}

static void put_variants(rw_buf *out, unsigned v)
{
	/* by bit; 4, the merge kernel's, is no longer used (vast/stub.h) */
	static const char *const name[] = { "VAST_HAS_INSPECT", "VAST_HAS_PAGED",
	                                    NULL, "VAST_HAS_STRAIGHT",
	                                    "VAST_HAS_PINSPECT" };
	const unsigned nnames = sizeof name / sizeof *name;
	unsigned named = 0;
	for (unsigned b = 0; b < nnames; b++)
		named |= name[b] ? 1u << b : 0u;
	const char *sep = "";
	if (!v)
		rw_buf_puts(out, "0");
	for (unsigned b = 0; b < nnames; b++)
		if (name[b] && (v & 1u << b)) {
			rw_buf_printf(out, "%s%s", sep, name[b]);
			sep = " | ";
		}
	if (v & ~named)
		rw_buf_printf(out, "%s%#xu", sep, v & ~named);
}

char *rw_emit_stub(const an_program *p, const char *program_text)
{
	return rw_emit_stub_depth(p, program_text, NULL);
}

char *rw_emit_stub_depth(const an_program *p, const char *program_text,
                         const unsigned char *too_deep)
{
	char *own = NULL;
	if (!program_text) {
		own = rw_emit_program(p);
		if (!own)
			return NULL;
		program_text = own;
	}
	rw_info *info = rw_info_create_depth(p, program_text, too_deep);
	if (!info) {
		free(own);
		return NULL;
	}
	const vast_program_info *pi = &info->prog;
	unsigned long long id = vast_hash_bytes(pi->source_hash, pi->file,
	                                        strlen(pi->file));
	char sfx[24];
	snprintf(sfx, sizeof sfx, "%016llx", id);
	rw_buf out = {0};

	rw_buf_puts(&out, "/* generated by vastcc from ");
	for (const char *s = pi->file; *s; s++)
		rw_buf_put(&out, s, *s == '*' && s[1] == '/' ? 0 : 1);
	rw_buf_puts(&out, "; do not edit */\n#include \"vast/stub.h\"\n"
	            "#include <stddef.h>\n"
	            "/* The program is one long string, which -pedantic flags. */\n"
	            "#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n\n");

	for (unsigned n = 0; n < pi->nkernels; n++) {
		const vast_kernel_info *k = &pi->kernels[n];
		if (k->nparams == 0)
			continue;
		rw_buf_printf(&out, "static const vast_param_info "
		              "vast_stub_params_%s_%u[] = {\n", sfx, n);
		for (unsigned i = 0; i < k->nparams; i++) {
			const vast_param_info *pa = &k->params[i];
			rw_buf_puts(&out, "\t{ .name = ");
			put_string(&out, pa->name);
			rw_buf_puts(&out, ", .kind = ");
			put_enum(&out, kind_name, 7, pa->kind);
			rw_buf_puts(&out, ", .mode = ");
			put_mode(&out, pa->mode);
			rw_buf_puts(&out, ", .pattern = ");
			put_enum(&out, pattern_name, 4, pa->pattern);
			rw_buf_printf(&out, ", .elem_size = %u, .inspect_reads = %u },\n",
			              pa->elem_size, pa->inspect_reads);
		}
		rw_buf_puts(&out, "};\n\n");
	}
	for (unsigned n = 0; n < pi->nkernels; n++)
		put_footprints(&out, info, sfx, n);

	if (pi->nkernels) {
		rw_buf_printf(&out, "static const vast_kernel_info "
		              "vast_stub_kernels_%s[] = {\n", sfx);
		for (unsigned n = 0; n < pi->nkernels; n++) {
			const vast_kernel_info *k = &pi->kernels[n];
			rw_buf_puts(&out, "\t{ .name = ");
			put_string(&out, k->name);
			rw_buf_printf(&out, ", .nparams = %u,\n\t  .params = ", k->nparams);
			if (k->nparams)
				rw_buf_printf(&out, "vast_stub_params_%s_%u", sfx, n);
			else
				rw_buf_puts(&out, "NULL");
			rw_buf_puts(&out, ",\n\t  .variants = ");
			put_variants(&out, k->variants);
			rw_buf_printf(&out, ",\n\t  .virtualizable = %u, .reason = ",
			              k->virtualizable);
			put_string(&out, k->reason);
			rw_buf_puts(&out, ", .location = ");
			put_string(&out, k->location);
			rw_buf_printf(&out, ",\n\t  .merge_exact = %u, .items_independent = %u },\n",
			              k->merge_exact, k->items_independent);
		}
		rw_buf_puts(&out, "};\n\n");

		rw_buf_printf(&out, "static const vast_kernel_footprints "
		              "vast_stub_footprints_%s[] = {\n", sfx);
		for (unsigned n = 0; n < pi->nkernels; n++) {
			unsigned have[RW_FP_NTAB];
			rw_info_sizes(info, n, have);
			rw_buf_printf(&out, "\t{ %u, ", have[RW_FP_FPS]);
			for (int t = 0; t < RW_FP_NTAB; t++) {
				if (have[t])
					rw_buf_printf(&out, "vast_stub_%s_%s_%u", fp_tab[t], sfx, n);
				else
					rw_buf_puts(&out, "NULL");
				rw_buf_puts(&out, t + 1 < RW_FP_NTAB ? ", " : " },\n");
			}
		}
		rw_buf_puts(&out, "};\n\n");
	}

	if (pi->ndevice_macros) {
		rw_buf_printf(&out, "static const vast_device_macro "
		              "vast_stub_devmacros_%s[] = {\n", sfx);
		for (unsigned i = 0; i < pi->ndevice_macros; i++) {
			rw_buf_puts(&out, "\t{ ");
			put_string(&out, pi->device_macros[i].name);
			rw_buf_puts(&out, ", ");
			put_string(&out, pi->device_macros[i].value);
			rw_buf_puts(&out, " },\n");
		}
		rw_buf_puts(&out, "};\n\n");
	}

	rw_buf_printf(&out, "static const char vast_stub_source_%s[] =\n\t\"", sfx);
	put_escaped(&out, pi->generated_source, strlen(pi->generated_source), "\t");
	rw_buf_puts(&out, "\";\n\n");

	rw_buf_printf(&out, "static const vast_program_info vast_stub_program_%s = {\n"
	              "\t.abi_version = VAST_STUB_ABI_VERSION,\n\t.file = ", sfx);
	put_string(&out, pi->file);
	rw_buf_printf(&out, ",\n\t.source_hash = 0x%016llxull,\n"
	              "\t.source_size = %lluull,\n\t.cl_options = ",
	              pi->source_hash, pi->source_size);
	put_string(&out, pi->cl_options);
	rw_buf_printf(&out, ",\n\t.generated_source = vast_stub_source_%s,\n"
	              "\t.nkernels = %u,\n\t.kernels = ", sfx, pi->nkernels);
	if (pi->nkernels)
		rw_buf_printf(&out, "vast_stub_kernels_%s,\n", sfx);
	else
		rw_buf_puts(&out, "NULL,\n");
	rw_buf_puts(&out, "\t.prefix = ");
	put_string(&out, pi->prefix);
	rw_buf_printf(&out, ",\n\t.ndevice_macros = %u,\n\t.device_macros = ",
	              pi->ndevice_macros);
	if (pi->ndevice_macros)
		rw_buf_printf(&out, "vast_stub_devmacros_%s,\n", sfx);
	else
		rw_buf_puts(&out, "NULL,\n");
	if (pi->nkernels)
		rw_buf_printf(&out, "\t.footprints = vast_stub_footprints_%s,\n};\n\n", sfx);
	else
		rw_buf_puts(&out, "\t.footprints = NULL,\n};\n\n");

	rw_buf_printf(&out, "__attribute__((constructor)) static void "
	              "vast_stub_register_%s(void)\n{\n"
	              "\tvast_register_program(&vast_stub_program_%s);\n}\n",
	              sfx, sfx);
	rw_info_destroy(info);
	free(own);
	return rw_buf_take(&out);
}
