/* SPDX-License-Identifier: MIT */
/*
 * args.c - the gcc/clang-compatible command line.
 *
 * vastcc takes what cc takes, vastc++ what c++ takes. Inputs are
 * classified by suffix: .cl is analysed and rewritten, anything else (.c,
 * .cpp, .o, .a, .so) is handed to the real compiler. vastcc's own flags
 * are --emit-kernels=, --report=, --cl-options=, --emit-json=,
 * --emit-preprocessed=, --include-dir=, --device-extensions=,
 * --device-macro=, and --cache-stats, --clear-cache, --cache-max= (which
 * act on the runtime's cache and compile nothing: cache.c); every other
 * flag is passed to the
 * real compiler unchanged, with its argument when it takes a separate one.
 * Of those, vastcc reads -x (a language for the inputs after it, "cl"
 * being vastcc's own), -M... and -Wp,-M... (a .cl's dependency file), the
 * caret flags and the queries (-dumpversion, -print-...) too. @FILE
 * arguments are expanded first (response.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"

void strv_push(strv *s, const char *str)
{
	if (s->n + 2 > s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->v = realloc(s->v, s->cap * sizeof(char *));
		if (!s->v) {
			fprintf(stderr, "vastcc: error: out of memory\n");
			exit(1);
		}
	}
	s->v[s->n++] = (char *)str;
	s->v[s->n] = NULL;
}

void strv_append(strv *dst, const strv *src)
{
	for (size_t i = 0; i < src->n; i++)
		strv_push(dst, src->v[i]);
}

void strv_free(strv *s)
{
	free(s->v);
	*s = (strv){0};
}

/* gcc flags whose argument may come as the next word. */
static const char *const separate_arg_flags[] = {
	"-I", "-D", "-U", "-L", "-l", "-include", "-imacros", "-isystem",
	"-idirafter", "-iquote", "-isysroot", "-iprefix", "-iwithprefix",
	"-iwithprefixbefore", "-imultilib", "-MF", "-MT", "-MQ", "-MJ", "-Xlinker",
	"-Xassembler", "-Xpreprocessor", "-Xclang", "-mllvm", "-aux-info",
	"-T", "-z", "-u", "-B", "-dumpbase", "-dumpdir", "-target",
	"--param", "--sysroot", "--specs",
	NULL,
};

bool takes_separate_arg(const char *a)
{
	for (int i = 0; separate_arg_flags[i]; i++)
		if (!strcmp(a, separate_arg_flags[i]))
			return true;
	return false;
}

/* The double-dash options gcc takes; any other "--" option is an error
 * here, as in clang, rather than something only cc would notice. */
static bool gcc_long_option(const char *a)
{
	static const char *const ok[] = {
		"--sysroot", "--param", "--coverage", "--specs", "--save-temps",
		"--no-sysroot-suffix", "--verbose", "--target", NULL,
	};
	for (int i = 0; ok[i]; i++) {
		size_t n = strlen(ok[i]);
		if (!strncmp(a, ok[i], n) && (a[n] == '\0' || a[n] == '='))
			return true;
	}
	return false;
}

/* What a build system asks of the compiler itself (gcc's -dumpversion,
 * -print-search-dirs, clang's -print-resource-dir): the real compiler
 * answers, and nothing is compiled. */
static bool is_query(const char *a)
{
	return !strcmp(a, "-dumpversion") || !strcmp(a, "-dumpfullversion") ||
	       !strcmp(a, "-dumpmachine") || !strcmp(a, "-dumpspecs") ||
	       !strncmp(a, "-print-", 7);
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

static void add_input_kind(options *opt, const char *path, enum input_kind kind)
{
	opt->inputs = realloc(opt->inputs, (opt->ninputs + 1) * sizeof(input));
	if (!opt->inputs) {
		fprintf(stderr, "vastcc: error: out of memory\n");
		exit(1);
	}
	input *in = &opt->inputs[opt->ninputs++];
	in->path = path;
	in->kind = kind;
}

/* A file is of the language of the last -x before it, as in gcc, or
 * without one (or after -x none) of its suffix's. */
static void add_input(options *opt, const char *path, const char *lang)
{
	if (lang)
		add_input_kind(opt, path, !strcmp(lang, "cl") ? IN_CL
		               : !strcmp(lang, "c") ? IN_C : IN_OTHER);
	else
		add_input_kind(opt, path, has_suffix(path, ".cl") ? IN_CL
		               : has_suffix(path, ".c") ? IN_C : IN_OTHER);
}

/* -x LANG: OpenCL C ("cl") is vastcc's, so it never reaches cc, whose
 * -x stays where the user put it among the files. */
static void set_language(options *opt, const char *lang, const char **cur)
{
	*cur = strcmp(lang, "none") ? lang : NULL;
	if (strcmp(lang, "cl"))
		add_input_kind(opt, lang, IN_LANG);
}

void push_input(strv *cmd, const input *in, const char **lang)
{
	if (in->kind == IN_LANG) {
		strv_push(cmd, "-x");
		*lang = strcmp(in->path, "none") ? in->path : NULL;
	}
	strv_push(cmd, in->path);
}

void push_own_file(strv *cmd, const char *path, const char **lang)
{
	if (*lang) {
		strv_push(cmd, "-x");
		strv_push(cmd, "none");
		*lang = NULL;
	}
	strv_push(cmd, path);
}

static bool missing_value(const char *flag)
{
	fprintf(stderr, "vastcc: error: argument to '%s' is missing\n", flag);
	return false;
}

/* -MD, -MMD, -MF, -MT, -MQ, -MP (gcc's), recorded for .cl inputs; `next`
 * is the following argument, an argument given apart. */
static bool dependency_option(options *opt, const char *a, const char *next)
{
	if (strncmp(a, "-M", 2))
		return true;
	if (!strcmp(a, "-MD"))
		opt->deps = DEP_MD;
	else if (!strcmp(a, "-MMD"))
		opt->deps = DEP_MMD;
	else if (!strcmp(a, "-MP"))
		opt->dep_phony = true;
	else if (!strncmp(a, "-MF", 3) || !strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3)) {
		const char *val = a[3] ? a + 3 : next;
		if (!val)
			return missing_value(a);
		if (a[2] == 'F') {
			opt->dep_file = val;
		} else {
			size_t n = strlen(val) + 2;
			char *t = malloc(n);
			if (!t) {
				fprintf(stderr, "vastcc: error: out of memory\n");
				exit(1);
			}
			snprintf(t, n, "%c%s", a[2], val);
			strv_push(&opt->arg_texts, t);
			strv_push(&opt->dep_targets, t);
		}
	}
	return true;
}

/* -Wp,ARG,...: ARGs for the preprocessor, kbuild's -Wp,-MD,FILE among
 * them. There -MD and -MMD take the file as their argument (cpp's own
 * spelling): -MD -MF FILE as gcc reads it. The other -M... go as they
 * would on the command line. The words are kept in arg_texts, where the
 * options may point. */
static bool preprocessor_option(options *opt, const char *a)
{
	char *words = strdup(a + 4);
	if (!words) {
		fprintf(stderr, "vastcc: error: out of memory\n");
		exit(1);
	}
	strv_push(&opt->arg_texts, words);
	strv w = {0};
	for (char *s = words, *comma; s; s = comma ? comma + 1 : NULL) {
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		strv_push(&w, s);
	}
	bool ok = true;
	for (size_t i = 0; ok && i < w.n; i++) {
		const char *m = w.v[i], *next = i + 1 < w.n ? w.v[i + 1] : NULL;
		if (!strcmp(m, "-MD") || !strcmp(m, "-MMD")) {
			if (!next || !*next) {
				fprintf(stderr, "vastcc: error: argument to '-Wp,%s' is missing\n", m);
				ok = false;
				break;
			}
			opt->deps = m[2] == 'D' ? DEP_MD : DEP_MMD;
			opt->dep_file = next;
			i++;
		} else {
			ok = dependency_option(opt, m, next);
			if (ok && takes_separate_arg(m))
				i++;
		}
	}
	strv_free(&w);
	return ok;
}

/* Our own long options: "--name=value" or "--name value". */
static bool own_option(const char *name, int argc, char **argv, int *i,
                       const char **value)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	if (strncmp(a, name, n))
		return false;
	if (a[n] == '=') {
		*value = a + n + 1;
		return true;
	}
	if (a[n] == '\0' && *i + 1 < argc) {
		*value = argv[++*i];
		return true;
	}
	return false;
}

bool parse_args(int argc, char **argv, options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->caret = -1;
	if (!expand_response_files(argc, argv, &opt->args, &opt->arg_texts))
		return false;
	argc = (int)opt->args.n;
	argv = opt->args.v;
	/* vastc++, or any name ending in "++" (as g++, clang++). */
	size_t len = strlen(argv[0]);
	opt->cxx = len >= 2 && !strcmp(argv[0] + len - 2, "++");
	const char *lang = NULL; /* the -x in force */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val;
		if (a[0] != '-' || !strcmp(a, "-")) {
			add_input(opt, a, lang);
		} else if (!strcmp(a, "-x")) {
			if (i + 1 >= argc)
				return missing_value(a);
			set_language(opt, argv[++i], &lang);
		} else if (!strncmp(a, "-x", 2)) {
			set_language(opt, a + 2, &lang);
		} else if (!strcmp(a, "-c")) {
			opt->compile_only = true;
		} else if (!strcmp(a, "-o")) {
			if (i + 1 >= argc)
				return missing_value(a);
			opt->output = argv[++i];
		} else if (!strncmp(a, "-o", 2)) {
			opt->output = a + 2;
		} else if (!strcmp(a, "-v")) {
			opt->verbose = true;
		} else if (!strcmp(a, "-###")) {
			opt->dry_run = true;
		} else if (!strcmp(a, "--help")) {
			opt->help = true;
		} else if (!strcmp(a, "--version")) {
			opt->version = true;
		} else if (!strcmp(a, "--cache-stats")) {
			opt->cache_stats = true;
		} else if (!strcmp(a, "--clear-cache")) {
			opt->clear_cache = true;
		} else if (own_option("--cache-max", argc, argv, &i, &val)) {
			if (!*val)
				return missing_value("--cache-max");
			opt->cache_max = val;
		} else if (own_option("--emit-kernels", argc, argv, &i, &val)) {
			if (!*val)
				return missing_value("--emit-kernels");
			opt->emit_kernels_dir = val;
		} else if (own_option("--report", argc, argv, &i, &val)) {
			if (!*val)
				return missing_value("--report");
			opt->report = val;
		} else if (own_option("--cl-options", argc, argv, &i, &val)) {
			opt->cl_options = val;
		} else if (own_option("--emit-json", argc, argv, &i, &val)) {
			if (!*val)
				return missing_value("--emit-json");
			opt->emit_json = val;
		} else if (own_option("--emit-preprocessed", argc, argv, &i, &val)) {
			if (!*val)
				return missing_value("--emit-preprocessed");
			opt->emit_preprocessed = val;
		} else if (own_option("--include-dir", argc, argv, &i, &val)) {
			if (!*val)
				return missing_value("--include-dir");
			opt->include_dir = val;
		} else if (own_option("--device-extensions", argc, argv, &i, &val)) {
			opt->device_extensions = val;
		} else if (own_option("--device-macro", argc, argv, &i, &val)) {
			if (!*val)
				return missing_value("--device-macro");
			strv_push(&opt->device_macros, val);
		} else if (!strncmp(a, "--", 2) && !gcc_long_option(a)) {
			fprintf(stderr, "vastcc: error: unknown argument: '%s'\n", a);
			return false;
		} else if (!strcmp(a, "-l") || !strcmp(a, "-Xlinker")) {
			if (i + 1 >= argc)
				return missing_value(a);
			add_input_kind(opt, a, IN_LINK);
			add_input_kind(opt, argv[++i], IN_LINK);
		} else if (!strncmp(a, "-l", 2) || !strncmp(a, "-Wl,", 4)) {
			add_input_kind(opt, a, IN_LINK);
		} else {
			if (!strcmp(a, "-E") || !strcmp(a, "-S") ||
			    !strcmp(a, "-M") || !strcmp(a, "-MM"))
				opt->preprocess_only = true;
			if (is_query(a))
				opt->query = true;
			if (!strcmp(a, "-fcaret-diagnostics") ||
			    !strcmp(a, "-fdiagnostics-show-caret"))
				opt->caret = 1;
			if (!strcmp(a, "-fno-caret-diagnostics") ||
			    !strcmp(a, "-fno-diagnostics-show-caret"))
				opt->caret = 0;
			if (!dependency_option(opt, a, i + 1 < argc ? argv[i + 1] : NULL))
				return false;
			if (!strncmp(a, "-Wp,", 4) && !preprocessor_option(opt, a))
				return false;
			strv_push(&opt->cc_flags, a);
			if (takes_separate_arg(a)) {
				if (i + 1 >= argc)
					return missing_value(a);
				strv_push(&opt->cc_flags, argv[++i]);
			}
		}
	}
	return true;
}

void free_args(options *opt)
{
	free(opt->inputs);
	strv_free(&opt->cc_flags);
	strv_free(&opt->device_macros);
	for (size_t i = 0; i < opt->arg_texts.n; i++)
		free(opt->arg_texts.v[i]);
	strv_free(&opt->arg_texts);
	strv_free(&opt->args);
	strv_free(&opt->dep_targets);
}

void print_help(void)
{
	fputs(
"OVERVIEW: vastcc - compile OpenCL programs whose data may exceed the device\n"
"\n"
"USAGE: vastcc [options] file...\n"
"       vastc++ [options] file...\n"
"\n"
"Use vastcc in place of cc and vastc++ in place of c++. Sources and flags go to\n"
"the real compiler ($VAST_CC, default cc; under vastc++ $VAST_CXX, default c++),\n"
"which also links, adding libvastrt and -lOpenCL. .cl files are analysed and\n"
"rewritten into inspector and paged-access kernels plus a host stub,\n"
"which $VAST_CC compiles into an object.\n"
"\n"
"OPTIONS:\n"
"  -c                     compile only; `vastcc -c k.cl -o k.o` yields the stub object\n"
"  -o <file>              write output to <file>\n"
"  --emit-kernels=<dir>   write <dir>/<base>.vast.cl (the generated program) and\n"
"                         <dir>/<base>.vast.c (the host stub)\n"
"  --report=<file>|-      write the analysis as JSON (- for stdout)\n"
"  --cl-options=<opts>    OpenCL build options (-D, -U, -I, -cl-std=) the program\n"
"                         passes to clBuildProgram; used for parsing and recorded\n"
"  --emit-json=<file>     write the generated program and its tables as JSON\n"
"                         (docs/json.md) to <file>, and nothing else\n"
"  --emit-preprocessed=<file>\n"
"                         write the preprocessor's whole output for the one .cl\n"
"                         input (every file it read) to <file>; alone, nothing\n"
"                         else, with --emit-json beside the JSON\n"
"  --include-dir=<dir>    search <dir> for #include files before the -I\n"
"                         directories of --cl-options (a device compiler\n"
"                         searches the program's working directory first)\n"
"  --device-extensions=<list>\n"
"                         preprocess for a device with these extensions (comma\n"
"                         or space separated): each cl_* macro is 1 iff listed\n"
"  --device-macro=<name>=<value>, --device-macro=-<name>\n"
"                         the device's __OPENCL_VERSION__, __OPENCL_C_VERSION__,\n"
"                         __IMAGE_SUPPORT__, __ENDIAN_LITTLE__ or\n"
"                         __EMBEDDED_PROFILE__ (repeatable)\n"
"  -x <language>          the inputs after it are in <language>; -x cl: OpenCL C\n"
"  -MD, -MMD              also write a .cl input's dependency file (-MF, -MT, -MQ, -MP)\n"
"  -fcaret-diagnostics    show a kernel diagnostic's source line and a caret (the\n"
"                         default on a terminal; -fno-caret-diagnostics: never)\n"
"  @<file>                read more arguments from <file>\n"
"  --cache-stats          print the runtime's cache of programs compiled at\n"
"                         clBuildProgram: its directory, entries, size, bound,\n"
"                         hits and misses\n"
"  --clear-cache          remove every entry of that cache\n"
"  --cache-max=<size>     bound that cache to <size> (256M, 1G), kept in its\n"
"                         directory; VAST_CACHE_MAX overrides it while set\n"
"  -v                     print the commands run\n"
"  -###                   print the commands without running them\n"
"  --help                 print this help\n"
"  --version              print the version\n"
"\n"
"Any other option is passed to the real compiler.\n"
"\n"
"ENVIRONMENT:\n"
"  VAST_CC     the real C compiler (default: cc)\n"
"  VAST_CXX    the real C++ compiler of vastc++ (default: c++)\n"
"  VAST_CLANG  the clang used to preprocess kernels (default: clang 19)\n"
"  VAST_CACHE_DIR\n"
"              the cache directory of --cache-stats, --clear-cache and\n"
"              --cache-max, the runtime's (default: $XDG_CACHE_HOME/vastcc,\n"
"              else ~/.cache/vastcc)\n",
		stdout);
}
