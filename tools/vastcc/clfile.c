/* SPDX-License-Identifier: MIT */
/*
 * clfile.c - one .cl file: analyse, rewrite, emit, compile the stub.
 *
 * analysis (lib/analysis) -> generated program and host stub
 * (lib/rewrite) -> optional --report / --emit-kernels files -> the stub
 * compiled by the real cc into the requested object. Nothing is written
 * unless the analysis succeeded, and every file is written atomically.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "analysis.h"
#include "driver.h"
#include "rewrite.h"

/* "dir/k.cl" -> "k" */
static char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *b = slash ? slash + 1 : path;
	char *s = strdup(b);
	size_t n = strlen(s);
	if (n > 3 && !strcmp(s + n - 3, ".cl"))
		s[n - 3] = '\0';
	return s;
}

static char *join(const char *dir, const char *base, const char *suffix)
{
	size_t n = strlen(dir) + strlen(base) + strlen(suffix) + 2;
	char *p = malloc(n);
	snprintf(p, n, "%s/%s%s", dir, base, suffix);
	return p;
}

static bool make_dirs(const char *dir)
{
	char *p = strdup(dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			goto fail;
		*s = '/';
	}
	if (mkdir(p, 0777) && errno != EEXIST)
		goto fail;
	free(p);
	return true;
fail:
	fprintf(stderr, "vastcc: error: cannot create directory '%s': %s\n", p,
	        strerror(errno));
	free(p);
	return false;
}

/* The stub is generated C, compiled by $VAST_CC even under vastc++: of
 * the user's flags it takes those that make its object fit the
 * program's (the target, code model and ABI, registers reserved,
 * position independence, optimisation and debug information) and its
 * hardening: -fcf-protection above all, since the linker marks a
 * program for CET only if every object is marked, and the rest
 * (-fstack-protector..., frame pointers) so that the stub is built as
 * the program asked. No other: the warnings (-Wall -Werror,
 * -pedantic-errors), the dialect (-ansi, -std=), the program's macros
 * and header directories, C++ flags (-fno-rtti) and dependency output
 * all describe the program's own sources, and would fail or describe the
 * stub. Nor -fsanitize=: an uninstrumented object links into a sanitized
 * program as it is, and the stub's cc may not be the link's, whose
 * sanitizer runtime an instrumented stub would need. */
static bool stub_takes(const char *f)
{
	static const char *const exact[] = {
		"-fPIC", "-fpic", "-fPIE", "-fpie", "-fno-PIC", "-fno-pic",
		"-fno-PIE", "-fno-pie", "-fshort-enums", "-fno-short-enums",
		"-fshort-wchar", "-fno-short-wchar", "-funsigned-char",
		"-fsigned-char", "-fno-unsigned-char", "-fno-signed-char",
		"-fpcc-struct-return", "-freg-struct-return", "-target",
		"-isysroot", "--sysroot", "-fcf-protection", "-fno-cf-protection",
		"-fno-stack-protector", "-fstack-clash-protection",
		"-fno-stack-clash-protection", "-fomit-frame-pointer",
		"-fno-omit-frame-pointer", NULL,
	};
	static const char *const prefix[] = {
		"-m", "-O", "-g", "-fpack-struct", "-fdebug-prefix-map=",
		"-ffile-prefix-map=", "--target=", "--sysroot=", "-fcf-protection=",
		"-fstack-protector", "-ffixed-", "-fcall-used-", "-fcall-saved-",
		NULL,
	};
	for (int i = 0; exact[i]; i++)
		if (!strcmp(f, exact[i]))
			return true;
	for (int i = 0; prefix[i]; i++)
		if (!strncmp(f, prefix[i], strlen(prefix[i])))
			return true;
	/* -B DIR, -BDIR: where cc finds its own tools */
	return !strncmp(f, "-B", 2);
}

void object_flags(const options *opt, strv *cmd)
{
	for (size_t i = 0; i < opt->cc_flags.n; i++) {
		const char *f = opt->cc_flags.v[i];
		bool arg = takes_separate_arg(f) && i + 1 < opt->cc_flags.n;
		if (stub_takes(f)) {
			strv_push(cmd, f);
			if (arg)
				strv_push(cmd, opt->cc_flags.v[i + 1]);
		}
		if (arg)
			i++;
	}
}

/* Flags that vastcc reads for a .cl itself (the dependency file, the
 * caret in either compiler's spelling), and those that read files of the
 * program's own compilation (a header forced in): no check's business. */
static bool check_skips(const char *f)
{
	return !strncmp(f, "-M", 2) || (!strncmp(f, "-Wp,", 4) && strstr(f, ",-M")) ||
	       !strcmp(f, "-fcaret-diagnostics") || !strcmp(f, "-fno-caret-diagnostics") ||
	       !strcmp(f, "-fdiagnostics-show-caret") ||
	       !strcmp(f, "-fno-diagnostics-show-caret") ||
	       !strncmp(f, "-include", 8) || !strncmp(f, "-imacros", 8);
}

bool flags_known(const options *opt)
{
	strv cmd = {0};
	strv_push(&cmd, real_compiler(opt));
	size_t left_out = 0; /* flags the stub does not take */
	for (size_t i = 0; i < opt->cc_flags.n; i++) {
		const char *f = opt->cc_flags.v[i];
		bool arg = takes_separate_arg(f) && i + 1 < opt->cc_flags.n;
		if (!check_skips(f)) {
			left_out += !stub_takes(f);
			strv_push(&cmd, f);
			if (arg)
				strv_push(&cmd, opt->cc_flags.v[i + 1]);
		}
		if (arg)
			i++;
	}
	bool ok = true;
	if (left_out) {
		/* -w: cc's warnings about the program's flags (a C++ flag
		 * under vastcc, -Werror and all) are for its own sources. */
		static const char *const check[] = {
			"-w", "-E", "-x", NULL, "/dev/null", "-o", "/dev/null",
		};
		for (size_t i = 0; i < sizeof check / sizeof *check; i++)
			strv_push(&cmd, check[i] ? check[i] : opt->cxx ? "c++" : "c");
		ok = run_command(&cmd, opt) == 0;
	}
	strv_free(&cmd);
	return ok;
}

static bool compile_stub(const char *stub_c, const char *obj, const options *opt)
{
	char *tmp = temp_template(obj);
	if (!tmp)
		return false;
	if (!opt->dry_run) {
		int fd = mkstemp(tmp);
		if (fd < 0) {
			fprintf(stderr, "vastcc: error: cannot write '%s': %s\n", obj,
			        strerror(errno));
			free(tmp);
			return false;
		}
		close(fd);
	}
	strv cmd = {0};
	strv_push(&cmd, real_cc());
	object_flags(opt, &cmd);
	strv_push(&cmd, "-I");
	strv_push(&cmd, include_dir());
	strv_push(&cmd, "-c");
	strv_push(&cmd, stub_c);
	strv_push(&cmd, "-o");
	strv_push(&cmd, opt->dry_run ? obj : tmp);
	bool ok = run_command(&cmd, opt) == 0;
	if (!ok)
		unlink(tmp);
	else if (!opt->dry_run)
		ok = commit_file(tmp, obj);
	strv_free(&cmd);
	free(tmp);
	return ok;
}

/* The outputs of an analysed file: report, emitted kernels, the stub's
 * object. */
static bool write_outputs(const an_program *p, const char *base, const char *stub_c,
                          const char *obj, const options *opt)
{
	bool ok = false;
	/* The variants too deeply nested are worked out once, for both. */
	unsigned char *too_deep = NULL;
	char *program = rw_emit_program_depth(p, &too_deep);
	char *stub = program ? rw_emit_stub_depth(p, program, too_deep) : NULL;
	char *json = NULL, *cl = NULL, *c = NULL;
	if (!stub)
		goto done;
	if (opt->report) {
		json = an_report_json(p);
		if (!json || !write_file_atomic(opt->report, json, strlen(json)))
			goto done;
	}
	if (opt->emit_kernels_dir) {
		if (!make_dirs(opt->emit_kernels_dir))
			goto done;
		cl = join(opt->emit_kernels_dir, base, ".vast.cl");
		c = join(opt->emit_kernels_dir, base, ".vast.c");
		if (!write_file_atomic(cl, program, strlen(program)) ||
		    !write_file_atomic(c, stub, strlen(stub)))
			goto done;
	}
	ok = write_file_atomic(stub_c, stub, strlen(stub)) && compile_stub(stub_c, obj, opt);
done:
	free(too_deep);
	free(program);
	free(stub);
	free(json);
	free(cl);
	free(c);
	return ok;
}

static an_options analysis_options(const options *opt)
{
	return (an_options){
		.cl_options = opt->cl_options,
		.clang = getenv("VAST_CLANG"),
		.verbose = opt->verbose,
		.device_extensions = opt->device_extensions,
		.device_macros = (const char *const *)opt->device_macros.v,
		.ndevice_macros = (unsigned)opt->device_macros.n,
		.include_dir = opt->include_dir,
		.caret_diagnostics = opt->caret >= 0 ? opt->caret : isatty(2),
	};
}

bool device_options_valid(const options *opt)
{
	an_options ao = analysis_options(opt);
	return an_device_options_valid(&ao);
}

bool emit_json(const input *in, const options *opt)
{
	if (opt->dry_run) {
		fprintf(stderr, " \"vastcc\" \"-cc1cl\" \"%s\"", in->path);
		if (opt->emit_json)
			fprintf(stderr, " \"--emit-json=%s\"", opt->emit_json);
		if (opt->emit_preprocessed)
			fprintf(stderr, " \"--emit-preprocessed=%s\"", opt->emit_preprocessed);
		fputc('\n', stderr);
		return true;
	}
	an_options ao = analysis_options(opt);
	ao.preprocess_only = !opt->emit_json;
	an_program *p = an_program_create(in->path, &ao);
	char *program = p && opt->emit_json ? rw_emit_program(p) : NULL;
	char *json = program ? rw_emit_json(p, program) : NULL;
	/* The preprocessor's output first: a program whose JSON is written
	 * always has what it was compiled from beside it. */
	bool ok = p && (!opt->emit_preprocessed ||
	                write_file_atomic(opt->emit_preprocessed, p->cpp, p->cpp_len)) &&
	          (!opt->emit_json ||
	           (json && write_file_atomic(opt->emit_json, json, strlen(json))));
	free(json);
	free(program);
	an_program_destroy(p);
	return ok;
}

bool compile_cl(const input *in, const char *obj, const options *opt)
{
	char *base = base_name(in->path);
	static int seq;
	char stub_name[64];
	snprintf(stub_name, sizeof stub_name, "-%d.vast.c", seq++);
	char *stub_c = join(temp_dir(), base, stub_name);
	bool ok;

	if (opt->dry_run) {
		fprintf(stderr, " \"vastcc\" \"-cc1cl\" \"%s\" \"-o\" \"%s\"\n", in->path, stub_c);
		ok = compile_stub(stub_c, obj, opt);
	} else {
		an_options ao = analysis_options(opt);
		an_program *p = an_program_create(in->path, &ao);
		ok = p && write_outputs(p, base, stub_c, obj, opt) &&
		     write_depfile(in, p, opt);
		an_program_destroy(p);
	}
	free(base);
	free(stub_c);
	return ok;
}
