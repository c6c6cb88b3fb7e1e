/* SPDX-License-Identifier: MIT */
/*
 * devmacros.c - the device-dependent macros a program tests, and the
 * values vastcc assumed for them.
 *
 * Some predefined macros belong to the device that builds the program, not
 * to the language: the extension macros (`cl_khr_fp64`, OpenCL C 1.2
 * §9.1), `__IMAGE_SUPPORT__`, `__ENDIAN_LITTLE__`, `__EMBEDDED_PROFILE__`,
 * `__OPENCL_VERSION__` and `__OPENCL_C_VERSION__` (§6.10), the OpenCL C 3.0
 * feature macros `__opencl_c_*`. vastcc preprocesses for a generic device
 * (clang's spir64 target, `__OPENCL_VERSION__` from -cl-std), so what it
 * generated holds only on a device that agrees on every such macro the
 * program names. We record each one the user's files mention (anywhere
 * outside comments: in `#ifdef`, `#if defined`, a `#pragma OPENCL
 * EXTENSION` or code) with the value the preprocessor had for it, NULL
 * when undefined; the stub carries the list and the runtime compares it
 * with the device it builds for, running natively when they differ.
 *
 * The predefined values are taken from the `#define`/`#undef` lines that
 * `clang -E -dD` prints for <built-in>, the command line and the OpenCL
 * headers (preprocess.c calls an_devmacro_predef for them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const char *const fixed[] = {
	"__OPENCL_VERSION__", "__OPENCL_C_VERSION__", "__IMAGE_SUPPORT__",
	"__ENDIAN_LITTLE__", "__EMBEDDED_PROFILE__",
};

static int is_id(int ch)
{
	return ch == '_' || (ch >= '0' && ch <= '9') || ((ch | 32) >= 'a' && (ch | 32) <= 'z');
}

int an_is_device_macro(const char *s, size_t n)
{
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
		if (strlen(fixed[i]) == n && !memcmp(s, fixed[i], n))
			return 1;
	if (n > 11 && !memcmp(s, "__opencl_c_", 11))
		return 1;
	/* cl_<vendor>_<name>: cl_khr_fp64, cl_amd_printf, cl_nv_pragma_unroll */
	if (n < 6 || memcmp(s, "cl_", 3))
		return 0;
	size_t i = 3;
	while (i < n && s[i] != '_')
		i++;
	return i > 3 && i + 1 < n;
}

static an_devmacro *find(an_devmacro *m, unsigned n, const char *s, size_t len)
{
	for (unsigned i = 0; i < n; i++)
		if (strlen(m[i].name) == len && !memcmp(m[i].name, s, len))
			return &m[i];
	return NULL;
}

void an_devmacro_predef(an_ctx *c, const char *name, size_t n, const char *value,
                        size_t vn)
{
	if (!an_is_device_macro(name, n))
		return;
	an_devmacro *d = find(c->predef, c->npredef, name, n);
	if (!d) {
		d = AN_PUSH(c->predef, c->npredef, c->cappredef);
		d->name = an_strndup(name, n);
		d->value = NULL;
	}
	free(d->value);
	while (vn && (value[vn - 1] == ' ' || value[vn - 1] == '\r'))
		vn--;
	d->value = value ? an_strndup(value, vn) : NULL;
}

void an_devmacro_scan(an_ctx *c, const char *s, size_t n)
{
	an_program *p = c->p;
	for (size_t i = 0; i < n;) {
		if (s[i] == '/' && i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '*')) {
			const char *end = s[i + 1] == '/' ? memchr(s + i, '\n', n - i) : NULL;
			if (s[i + 1] == '*')
				for (size_t j = i + 2; j + 1 < n && !end; j++)
					if (s[j] == '*' && s[j + 1] == '/')
						end = s + j + 2;
			i = end ? (size_t)(end - s) : n;
			continue;
		}
		if (!is_id((unsigned char)s[i])) {
			i++;
			continue;
		}
		size_t e = i;
		while (e < n && is_id((unsigned char)s[e]))
			e++;
		if (an_is_device_macro(s + i, e - i) &&
		    !find(p->devmacros, p->ndevmacros, s + i, e - i)) {
			an_program_impl *im = (an_program_impl *)p;
			an_devmacro *d = AN_PUSH(p->devmacros, p->ndevmacros, im->capdevmacros);
			d->name = an_strndup(s + i, e - i);
			d->value = NULL;
		}
		i = e;
	}
}

void an_devmacro_finish(an_ctx *c)
{
	an_program *p = c->p;
	for (unsigned i = 0; i < p->ndevmacros; i++) {
		an_devmacro *d = &p->devmacros[i];
		an_devmacro *v = find(c->predef, c->npredef, d->name, strlen(d->name));
		free(d->value);
		d->value = v && v->value ? an_xstrdup(v->value) : NULL;
	}
}

/* ---- Preprocessing for a known device ---------------------------------
 * vastcc --device-extensions=LIST and --device-macro=NAME=VALUE|-NAME
 * (the runtime passes the device's CL_DEVICE_EXTENSIONS and version when
 * it compiles at clBuildProgram) replace the spir64 guesses by the
 * device's values: each becomes -U (and -D) words that follow the spir64
 * predefines on clang's command line, which clang applies, in order,
 * after its built-in ones; -U before -D so that no redefinition is
 * warned about. An extension macro is defined to 1 iff it is listed
 * (OpenCL C 1.2 §9.1: a device defines the macro of each extension it
 * supports), so every cl_* macro clang predefines and the list leaves out
 * is undefined. What opencl-c-base.h itself defines for OpenCL C 3.0
 * (cl_khr_subgroup_*, from the __opencl_c_* features) is not undone. */

static int is_fixed(const char *s, size_t n)
{
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++)
		if (strlen(fixed[i]) == n && !memcmp(s, fixed[i], n))
			return 1;
	return 0;
}

static int is_ext(const char *s, size_t n)
{
	return n > 3 && !memcmp(s, "cl_", 3) && an_is_device_macro(s, n);
}

/* The next item of an extension list at *s (comma or space separated);
 * its length, 0 at the end. */
static size_t next_item(const char **s)
{
	while (**s == ',' || **s == ' ' || **s == '\t' || **s == '\n')
		(*s)++;
	size_t n = 0;
	while ((*s)[n] && !strchr(", \t\n", (*s)[n]))
		n++;
	return n;
}

static int invalid(const char *flag, const char *value, const char *why)
{
	fprintf(stderr, "vastcc: error: invalid value '%s' in '%s%s': %s\n", value, flag,
	        value, why);
	return 0;
}

int an_device_options_valid(const an_options *opt)
{
	if (opt->device_extensions) {
		const char *s = opt->device_extensions;
		for (size_t n; (n = next_item(&s)); s += n)
			if (!is_ext(s, n))
				return invalid("--device-extensions=", opt->device_extensions,
				               "not an extension name (cl_<vendor>_<name>)");
	}
	for (unsigned i = 0; i < opt->ndevice_macros; i++) {
		const char *m = opt->device_macros[i];
		const char *eq = strchr(m, '=');
		size_t n = eq ? (size_t)(eq - m) : strlen(m);
		const char *name = eq ? m : m + 1;
		if (!eq && m[0] != '-')
			return invalid("--device-macro=", m, "expected NAME=VALUE or -NAME");
		if (!eq)
			n--;
		if (!is_fixed(name, n))
			return invalid("--device-macro=", m, "not one of __OPENCL_VERSION__, "
			               "__OPENCL_C_VERSION__, __IMAGE_SUPPORT__, "
			               "__ENDIAN_LITTLE__, __EMBEDDED_PROFILE__");
		/* every one of them is a number (OpenCL C 1.2 §6.10) */
		if (eq && (!eq[1] || eq[1 + strspn(eq + 1, "0123456789")]))
			return invalid("--device-macro=", m, "the value is not a decimal number");
	}
	return 1;
}

static void push_word(char ***w, unsigned *nw, unsigned *cap, const char *a,
                      const char *name, size_t n, const char *b)
{
	size_t len = strlen(a) + n + strlen(b) + 1;
	char *s = an_xmalloc(len);
	snprintf(s, len, "%s%.*s%s", a, (int)n, name, b);
	*AN_PUSH(*w, *nw, *cap) = s;
}

static int listed(const char *list, const char *name, size_t n)
{
	for (size_t m; (m = next_item(&list)); list += m)
		if (m == n && !memcmp(list, name, n))
			return 1;
	return 0;
}

void an_devmacro_args(const an_options *opt, const char *predefs, size_t len,
                      char ***w, unsigned *nw, unsigned *cap)
{
	/* `#define NAME VALUE` lines of clang -dM: drop each unlisted
	 * extension */
	for (size_t i = 0; opt->device_extensions && i < len;) {
		const char *l = predefs + i, *nl = memchr(l, '\n', len - i);
		size_t ln = nl ? (size_t)(nl - l) : len - i;
		i += ln + 1;
		if (ln < 8 || memcmp(l, "#define ", 8))
			continue;
		size_t e = 8;
		while (e < ln && is_id((unsigned char)l[e]))
			e++;
		if (is_ext(l + 8, e - 8) && !listed(opt->device_extensions, l + 8, e - 8))
			push_word(w, nw, cap, "-U", l + 8, e - 8, "");
	}
	const char *s = opt->device_extensions;
	for (size_t n; s && (n = next_item(&s)); s += n) {
		push_word(w, nw, cap, "-U", s, n, "");
		push_word(w, nw, cap, "-D", s, n, "=1");
	}
	for (unsigned i = 0; i < opt->ndevice_macros; i++) {
		const char *m = opt->device_macros[i], *eq = strchr(m, '=');
		if (!eq) {
			push_word(w, nw, cap, "-U", m + 1, strlen(m + 1), "");
			continue;
		}
		push_word(w, nw, cap, "-U", m, (size_t)(eq - m), "");
		push_word(w, nw, cap, "-D", m, strlen(m), "");
	}
}
