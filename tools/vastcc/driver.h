/* SPDX-License-Identifier: MIT */
/*
 * driver.h - the vastcc driver's internal interface, sectioned by file.
 *
 * The driver never frees: it is a short-lived process and everything it
 * allocates lives until exit (documented never-free policy, as in chibicc).
 */
#ifndef VASTCC_DRIVER_H
#define VASTCC_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

/* A growable list of strings; it does not own them. strv_free frees the
 * list itself. */
typedef struct strv {
	char **v;
	size_t n, cap;
} strv;

void strv_push(strv *s, const char *str);
void strv_append(strv *dst, const strv *src);
void strv_free(strv *s);

/* --- args.c: the gcc-compatible command line --- */

/* IN_LINK is a linker flag (-lfoo, -Wl,..., -Xlinker x): kept among the
 * inputs so the link sees libraries in the order the user gave them. */
enum input_kind { IN_C, IN_CL, IN_OTHER, IN_LINK };

typedef struct input {
	const char *path;
	enum input_kind kind;
} input;

typedef struct options {
	input *inputs;
	size_t ninputs;
	strv cc_flags;          /* everything handed to the real compiler */
	const char *output;     /* -o */
	bool compile_only;      /* -c */
	bool preprocess_only;   /* -E, -S, -M...: pass .c through, refuse .cl */
	bool verbose;           /* -v */
	bool dry_run;           /* -### */
	bool help, version;
	bool cxx;               /* invoked as vastc++: the C++ compiler links */
	const char *emit_kernels_dir; /* --emit-kernels=DIR */
	const char *report;           /* --report=FILE|- */
	const char *cl_options;       /* --cl-options="..." */
	const char *emit_json;        /* --emit-json=FILE: write FILE only */
	const char *emit_preprocessed; /* --emit-preprocessed=FILE */
	const char *include_dir;      /* --include-dir=DIR: before the -I's */
	const char *device_extensions; /* --device-extensions=LIST */
	strv device_macros;           /* --device-macro=NAME=VALUE|-NAME, in order */
	bool cache_stats, clear_cache; /* --cache-stats, --clear-cache */
	const char *cache_max;        /* --cache-max=SIZE */
} options;

/* Parses argv; on a bad argument prints "vastcc: error: ..." and returns
 * false. */
bool parse_args(int argc, char **argv, options *opt);
/* Frees what parse_args allocated (the strings are argv's). */
void free_args(options *opt);
void print_help(void);
/* gcc flags whose argument may come as the next word ("-I dir"). */
bool takes_separate_arg(const char *flag);

/* --- run.c: running the real tools --- */

/* Runs argv (NULL-terminated list in `cmd`); prints it first under -v,
 * only prints it under -###. Returns the exit status (0 = success). */
int run_command(const strv *cmd, const options *opt);
/* A fresh private directory for temporaries, removed at exit. */
const char *temp_dir(void);

/* --- paths.c: where vastcc finds its runtime --- */

const char *real_cc(void);       /* $VAST_CC, default "cc" */
/* The compiler that compiles the program's own sources and links:
 * real_cc(), or under vastc++ $VAST_CXX (default "c++"). */
const char *real_compiler(const options *opt);
const char *runtime_lib(void);   /* <prefix>/lib/libvastrt.a */
/* -Wl,--dynamic-list=<prefix>/lib/vastrt.dynlist: the program exports the
 * runtime's entry points, so libraries it loads call them too
 * (runtime/CMakeLists.txt). */
const char *runtime_dynlist_flag(void);
const char *include_dir(void);   /* <prefix>/include */
/* An object for the link that names this vastcc (<prefix>/bin/vastcc) as
 * the compiler beside the libvastrt.a it links (runtime/jit.c); NULL
 * after printing an error. */
const char *compiler_record(const options *opt);

/* --- output.c: files written atomically --- */

/* Writes `data` to `path` through a temporary name in the same directory
 * and a rename, so a failure leaves no partial file. "-" is stdout. */
bool write_file_atomic(const char *path, const char *data, size_t len);
/* Renames a finished temporary into place (copies it into a target that
 * is not a regular file); removes it either way. */
bool commit_file(const char *tmp, const char *path);
/* A mkstemp() template for a temporary that commit_file will move to
 * `path` (malloc'd; NULL when out of memory). */
char *temp_template(const char *path);

/* --- clfile.c: one .cl file through analysis, rewrite and the stub --- */

/* Compiles `in` into an object at `obj`; writes --emit-kernels and
 * --report outputs. Returns false after printing diagnostics. */
bool compile_cl(const input *in, const char *obj, const options *opt);
/* --emit-json and/or --emit-preprocessed: analyses `in` (only
 * preprocesses it without --emit-json) and writes the program as JSON to
 * opt->emit_json (docs/json.md) and the preprocessor's output to
 * opt->emit_preprocessed, nothing else. Returns false after printing
 * diagnostics. */
bool emit_json(const input *in, const options *opt);
/* The device options as the analysis takes them, validated; false after
 * printing a driver error. */
bool device_options_valid(const options *opt);
/* The user's flags that an object vastcc adds to the program (a stub)
 * is compiled with, appended to cmd: -O, -g, -f..., -m..., not what
 * selects or injects source or writes dependencies. */
void object_flags(const options *opt, strv *cmd);

/* --- cache.c: the runtime's cache of programs compiled at clBuildProgram --- */

/* --cache-max, --clear-cache, then --cache-stats, on the runtime's cache
 * directory; the exit status, after printing diagnostics. */
int cache_command(const options *opt);

#endif
