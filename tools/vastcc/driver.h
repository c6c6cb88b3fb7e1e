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
 * inputs so the link sees libraries in the order the user gave them.
 * IN_LANG is `-x LANG` (path holds LANG, never "cl"): kept among the
 * inputs too, since it applies to the files after it. */
enum input_kind { IN_C, IN_CL, IN_OTHER, IN_LINK, IN_LANG };

/* A file among the inputs, not a flag kept in their order. */
static inline bool is_file_input(enum input_kind kind)
{
	return kind != IN_LINK && kind != IN_LANG;
}

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
	bool query;             /* -dumpversion, -print-...: cc answers */
	/* -f[no-]caret-diagnostics (clang), -f[no-]diagnostics-show-caret
	 * (gcc): 1 or 0, the last given; -1 when none: on a terminal */
	int caret;
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
	/* Dependency output for .cl inputs (cc gets these flags too, for
	 * its own inputs): -MD lists every file read, -MMD no system
	 * header; -MF the file, -MT/-MQ the targets (-MQ's quoted for make:
	 * kept as "Q" + target, -MT's as "T" + target), -MP a rule per
	 * header. */
	enum { DEP_NONE, DEP_MD, DEP_MMD } deps;
	const char *dep_file;
	strv dep_targets;
	bool dep_phony;
	strv args;             /* argv with @FILEs expanded; points into argv and texts */
	strv arg_texts;        /* the response files' texts, owned */
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
/* Appends input `in` to a real compiler's command, an IN_LANG as
 * "-x LANG"; *lang tracks the language in force there (NULL: none). */
void push_input(strv *cmd, const input *in, const char **lang);
/* Appends a file vastcc made (an object, the runtime archive), after a
 * "-x none" when a language is in force, so cc takes it by its suffix. */
void push_own_file(strv *cmd, const char *path, const char **lang);

/* --- depfile.c: -MD and -MMD for .cl inputs --- */

typedef struct an_program an_program;
/* Writes the dependency file of `in`, compiled as `p` (when opt asks for
 * one: -MD, -MMD). False after printing an error. */
bool write_depfile(const input *in, const an_program *p, const options *opt);

/* --- main.c: the pipeline --- */

/* "dir/k.cl" -> "k.o" (malloc'd): the object -c makes without -o. */
char *object_name(const char *path);

/* --- response.c: @FILE arguments --- */

/* Appends argv[0..argc) to *out with every readable @FILE replaced by the
 * arguments it holds (gcc's rules); *out points into argv and into the
 * texts read, which go to *owned (the caller frees them). False after an
 * error. */
bool expand_response_files(int argc, char **argv, strv *out, strv *owned);

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
/* With only .cl inputs and -c no cc command sees the flags the stub does
 * not take: the real compiler preprocesses an empty file with them, so
 * that one it does not know fails as it would on a C input (as clang
 * fails `clang -c k.cl -fbogus`). Runs nothing when the stub takes
 * every flag. False after cc's diagnostics. */
bool flags_known(const options *opt);

/* --- cache.c: the runtime's cache of programs compiled at clBuildProgram --- */

/* --cache-max, --clear-cache, then --cache-stats, on the runtime's cache
 * directory; the exit status, after printing diagnostics. */
int cache_command(const options *opt);

#endif
