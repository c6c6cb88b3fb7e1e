/* SPDX-License-Identifier: MIT */
/*
 * main.c - the vastcc driver: use it in place of cc.
 *
 * The pipeline, per invocation:
 *   parse the command line (args.c)
 *   -> each .cl input: analyse -> rewrite -> emit stub -> report -> compile
 *      the stub into an object (clfile.c); or, under --emit-json, the
 *      one .cl input's program as JSON and nothing else
 *   -> C inputs and the objects: the real compiler (run.c), adding
 *      libvastrt, -lOpenCL and an object naming this vastcc, the
 *      runtime's compiler (paths.c), when linking.
 * libvastrt is linked whole (--whole-archive) so that its definitions of
 * the OpenCL entry points take precedence over libOpenCL's wherever
 * -lOpenCL appears on the user's command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"

char *object_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *b = slash ? slash + 1 : path;
	size_t n = strlen(b);
	const char *dot = strrchr(b, '.');
	if (dot)
		n = (size_t)(dot - b);
	char *o = malloc(n + 3);
	memcpy(o, b, n);
	memcpy(o + n, ".o", 3);
	return o;
}

/* Files among the inputs (not linker flags). */
static size_t count_files(const options *opt)
{
	size_t n = 0;
	for (size_t i = 0; i < opt->ninputs; i++)
		n += is_file_input(opt->inputs[i].kind);
	return n;
}

static size_t count_kind(const options *opt, enum input_kind kind)
{
	size_t n = 0;
	for (size_t i = 0; i < opt->ninputs; i++)
		n += opt->inputs[i].kind == kind;
	return n;
}

static const input *first_of_kind(const options *opt, enum input_kind kind)
{
	for (size_t i = 0; i < opt->ninputs; i++)
		if (opt->inputs[i].kind == kind)
			return &opt->inputs[i];
	return NULL;
}

/* -c: each .cl becomes its stub object; everything else goes to cc -c. */
static int compile_only(const options *opt)
{
	if (count_files(opt) == count_kind(opt, IN_CL) && !flags_known(opt))
		return 1;
	strv cmd = {0};
	strv_push(&cmd, real_compiler(opt));
	strv_append(&cmd, &opt->cc_flags);
	strv_push(&cmd, "-c");
	size_t others = 0;
	int rc = 0;
	const char *lang = NULL;
	for (size_t i = 0; i < opt->ninputs && !rc; i++) {
		const input *in = &opt->inputs[i];
		if (in->kind == IN_LINK)
			continue; /* nothing is linked */
		if (in->kind == IN_CL) {
			char *obj = opt->output ? NULL : object_name(in->path);
			rc = !compile_cl(in, opt->output ? opt->output : obj, opt);
			free(obj);
		} else {
			push_input(&cmd, in, &lang);
			others += in->kind != IN_LANG;
		}
	}
	if (!rc && others) {
		if (opt->output) {
			strv_push(&cmd, "-o");
			strv_push(&cmd, opt->output);
		}
		rc = run_command(&cmd, opt) ? 1 : 0;
	}
	strv_free(&cmd);
	return rc;
}

/* Compile and link: .cl inputs become temporary objects in place. */
static int compile_and_link(const options *opt)
{
	strv cmd = {0}, objs = {0}; /* objs: the temporary objects, owned */
	strv_push(&cmd, real_compiler(opt));
	strv_append(&cmd, &opt->cc_flags);
	int rc = 0;
	const char *lang = NULL;
	for (size_t i = 0; i < opt->ninputs && !rc; i++) {
		const input *in = &opt->inputs[i];
		if (in->kind != IN_CL) {
			push_input(&cmd, in, &lang);
			continue;
		}
		char name[64];
		snprintf(name, sizeof name, "/cl%zu.o", i);
		size_t n = strlen(temp_dir()) + sizeof name;
		char *obj = malloc(n);
		snprintf(obj, n, "%s%s", temp_dir(), name);
		strv_push(&objs, obj);
		rc = !compile_cl(in, obj, opt);
		push_own_file(&cmd, obj, &lang);
	}
	if (rc)
		goto done;
	if (opt->output) {
		strv_push(&cmd, "-o");
		strv_push(&cmd, opt->output);
	}
#ifdef VAST_LINK_FLAGS
	strv_push(&cmd, VAST_LINK_FLAGS);
#endif
	const char *record = compiler_record(opt);
	if (!record) {
		rc = 1;
		goto done;
	}
	push_own_file(&cmd, record, &lang);
	strv_push(&cmd, "-Wl,--whole-archive");
	push_own_file(&cmd, runtime_lib(), &lang);
	strv_push(&cmd, "-Wl,--no-whole-archive");
	strv_push(&cmd, runtime_dynlist_flag());
	/* What libvastrt needs (runtime/CMakeLists.txt). */
	static const char *const runtime_libs[] = { VAST_RUNTIME_LIBS };
	for (size_t i = 0; i < sizeof runtime_libs / sizeof *runtime_libs; i++)
		strv_push(&cmd, runtime_libs[i]);
	rc = run_command(&cmd, opt) ? 1 : 0;
done:
	for (size_t i = 0; i < objs.n; i++)
		free(objs.v[i]);
	strv_free(&objs);
	strv_free(&cmd);
	return rc;
}

/* The real compiler answers a question (-dumpversion, -print-..., a bare
 * -v) with the user's flags, which may change the answer (-m32); the
 * inputs are left out, as the question leaves them uncompiled. */
static int ask_compiler(const options *opt)
{
	strv cmd = {0};
	strv_push(&cmd, real_compiler(opt));
	strv_append(&cmd, &opt->cc_flags);
	if (opt->verbose)
		strv_push(&cmd, "-v");
	int rc = run_command(&cmd, opt) ? 1 : 0;
	strv_free(&cmd);
	return rc;
}

/* The driver's work once the command line is parsed; the exit status. */
static int drive(const options *opt)
{
	if (opt->help) {
		print_help();
		return 0;
	}
	if (opt->version) {
		printf("vastcc version %s (libclang 19)\n", VAST_VERSION);
		return 0;
	}
	if (opt->cache_stats || opt->clear_cache || opt->cache_max)
		return cache_command(opt);
	if (opt->query)
		return ask_compiler(opt);
	if (opt->verbose && count_files(opt) == 0) {
		/* A bare -v, as in cc: the versions, on standard error. */
		fprintf(stderr, "vastcc version %s (libclang 19)\n", VAST_VERSION);
		return ask_compiler(opt);
	}
	if (count_files(opt) == 0) {
		fprintf(stderr, "vastcc: error: no input files\n");
		return 1;
	}
	size_t ncl = count_kind(opt, IN_CL);
	if (ncl && opt->preprocess_only) {
		fprintf(stderr, "vastcc: error: -E, -S and -M do not apply to OpenCL input '%s'\n",
		        first_of_kind(opt, IN_CL)->path);
		return 1;
	}
	if (opt->report && strcmp(opt->report, "-") && ncl > 1) {
		fprintf(stderr, "vastcc: error: --report=FILE takes one .cl input; use --report=- for several\n");
		return 1;
	}
	if (!device_options_valid(opt))
		return 1;
	if (opt->emit_json || opt->emit_preprocessed) {
		if (ncl != 1 || count_files(opt) != 1 || opt->compile_only || opt->output ||
		    opt->report || opt->emit_kernels_dir) {
			fprintf(stderr, "vastcc: error: --%s=FILE takes one .cl input and "
			        "none of -c, -o, --report, --emit-kernels\n",
			        opt->emit_json ? "emit-json" : "emit-preprocessed");
			return 1;
		}
		for (size_t i = 0; i < opt->ninputs; i++)
			if (opt->inputs[i].kind == IN_CL)
				return emit_json(&opt->inputs[i], opt) ? 0 : 1;
	}
	if (opt->compile_only && opt->output && count_files(opt) > 1) {
		fprintf(stderr, "vastcc: error: cannot specify '-o' with '-c' with multiple files\n");
		return 1;
	}
	if (opt->preprocess_only) {
		strv cmd = {0};
		strv_push(&cmd, real_compiler(opt));
		strv_append(&cmd, &opt->cc_flags);
		const char *lang = NULL;
		for (size_t i = 0; i < opt->ninputs; i++)
			if (opt->inputs[i].kind != IN_LINK)
				push_input(&cmd, &opt->inputs[i], &lang);
		if (opt->output) {
			strv_push(&cmd, "-o");
			strv_push(&cmd, opt->output);
		}
		int rc = run_command(&cmd, opt) ? 1 : 0;
		strv_free(&cmd);
		return rc;
	}
	return opt->compile_only ? compile_only(opt) : compile_and_link(opt);
}

int main(int argc, char **argv)
{
	options opt;
	int rc = parse_args(argc, argv, &opt) ? drive(&opt) : 1;
	free_args(&opt);
	return rc;
}
