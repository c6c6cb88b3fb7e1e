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
