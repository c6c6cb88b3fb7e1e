/* SPDX-License-Identifier: MIT */
/*
 * test_rw_stub.c - the host stub (lib/rewrite/stub.c) compiles cleanly
 * (-Wall -Wextra -pedantic -Werror, C11), two stubs link into one program,
 * and what their constructors register before main() is the model: the
 * tables, the hash, the options, and the generated program byte for byte
 * (so the escaping of every byte value survives the C compiler).
 */
#include <sys/stat.h>
#include <unistd.h>
#include "test_rw_model.h"

#ifndef VAST_TEST_CC
#define VAST_TEST_CC "cc"
#endif
#ifndef VAST_TEST_INCLUDE
#define VAST_TEST_INCLUDE "../../runtime/include"
#endif

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(s, f);
	return fclose(f);
}

/* The checker: registered programs, looked at after main() starts. */
static const char checker[] =
	"#include <stdio.h>\n#include <string.h>\n#include \"vast/stub.h\"\n"
	"static const vast_program_info *progs[4];\nstatic int n;\n"
	"void vast_register_program(const vast_program_info *p) { progs[n++] = p; }\n"
	"extern const char want_src1[], want_src2[];\n"
	"int main(void) {\n"
	"  int bad = 0;\n"
	"  if (n != 2) { printf(\"registered %%d\\n\", n); return 1; }\n"
	"  for (int i = 0; i < 2; i++) {\n"
	"    const vast_program_info *p = progs[i];\n"
	"    const char *want = strcmp(p->file, \"k.cl\") ? want_src2 : want_src1;\n"
	"    bad += p->abi_version != VAST_STUB_ABI_VERSION;\n"
	"    bad += strcmp(p->generated_source, want) != 0;\n"
	"    if (!strcmp(p->file, \"k.cl\")) {\n"
	"      bad += p->nkernels != 3 || strcmp(p->kernels[0].name, \"k\");\n"
	"      bad += p->kernels[0].nparams != 5;\n"
	"      bad += p->kernels[0].params[0].mode != (VAST_MODE_RW | VAST_MODE_ATOMIC);\n"
	"      bad += p->kernels[0].params[0].pattern != VAST_PAT_INDIRECT;\n"
	"      bad += p->kernels[0].params[2].inspect_reads != 1;\n"
	"      bad += p->kernels[0].params[3].kind != VAST_PARAM_SCALAR;\n"
	"      bad += p->kernels[0].merge_exact != 0 || p->kernels[1].merge_exact != 1;\n"
	"      bad += p->kernels[1].params[0].elem_size != 12;\n"
	"      bad += p->kernels[2].virtualizable != 0;\n"
	"      bad += strcmp(p->kernels[2].reason, \"writes through a \\\"pointer\\\"\");\n"
	"      bad += strcmp(p->kernels[2].location, \"k.cl:31:7\");\n"
	"      bad += p->kernels[0].reason != NULL || p->kernels[0].location != NULL;\n"
	"      bad += p->kernels[1].variants != (VAST_HAS_INSPECT | VAST_HAS_PAGED | VAST_HAS_STRAIGHT);\n"
	"      bad += strcmp(p->cl_options, \"-DN=4 -I inc\");\n"
	"      bad += p->source_hash != %lluull || p->source_size != %lluull;\n"
	"    } else {\n"
	"      bad += p->nkernels != 0 || p->kernels != NULL;\n"
	"      bad += strcmp(p->cl_options, \"\");\n"
	"    }\n"
	"  }\n"
	"  if (bad) printf(\"%%d mismatches\\n\", bad);\n"
	"  return bad != 0;\n"
	"}\n";

/* The wanted program text as a C array of byte values, independent of the
 * stub's own escaping. */
static void put_bytes(FILE *f, const char *name, const char *s)
{
	fprintf(f, "const char %s[] = {", name);
	for (size_t i = 0; s[i]; i++)
		fprintf(f, "%s%d,", i % 16 ? "" : "\n", (unsigned char)s[i]);
	fprintf(f, "0};\n");
}

int main(void)
{
	char dir[] = "/tmp/test_rw_stub.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char path[512], cmd[4096];

	tm_sample_ids id;
	an_program *p = tm_sample(&id);
	free(p->cl_options);
	p->cl_options = strdup("-DN=4 -I inc");
	an_func *red = &p->funcs[id.red];
	red->virtualizable = 0;
	red->reason = strdup("writes through a \"pointer\"");
	red->reason_loc = (an_loc){"k.cl", 31, 7};
	char *prog1 = rw_emit_program(p);
	char *stub1 = rw_emit_stub(p, prog1);
	CHECK(stub1 != NULL);
	CHECK_HAS(stub1, "#include \"vast/stub.h\"");
	CHECK_HAS(stub1, "__attribute__((constructor)) static void vast_stub_register_");

	/* A second file: no kernels, and a program with awkward bytes
	 * (quotes, backslashes, trigraph-looking ??=, tabs, non-ASCII, a long
	 * line) to exercise the escaping. */
	an_program *q = tm_create("dir/other.cl", "/* \"q\" \\ ?\?= \t \xc3\xa9 */\n");
	free(q->cl_options);
	q->cl_options = NULL;
	char *prog2 = rw_emit_program(q);
	size_t l2 = strlen(prog2);
	prog2 = realloc(prog2, l2 + 9000 + 2);
	memset(prog2 + l2, 'x', 9000);
	strcpy(prog2 + l2 + 9000, "\n");
	char *stub2 = rw_emit_stub(q, prog2);
	CHECK(stub2 != NULL);

	/* The same model twice yields the same stub (deterministic). */
	char *again = rw_emit_stub(p, prog1);
	CHECK(again && stub1 && !strcmp(again, stub1));
	free(again);

	/* rw_emit_stub(p, NULL) generates the program itself. */
	char *self = rw_emit_stub(p, NULL);
	CHECK(self && stub1 && !strcmp(self, stub1));
	free(self);

	if (stub1 && stub2 && prog1) {
		snprintf(path, sizeof path, "%s/k.vast.c", dir);
		CHECK(write_file(path, stub1) == 0);
		snprintf(path, sizeof path, "%s/other.vast.c", dir);
		CHECK(write_file(path, stub2) == 0);
		snprintf(path, sizeof path, "%s/main.c", dir);
		FILE *f = fopen(path, "w");
		CHECK(f != NULL);
		if (f) {
			fprintf(f, checker, p->source_hash,
			        (unsigned long long)p->source_size);
			put_bytes(f, "want_src1", prog1);
			put_bytes(f, "want_src2", prog2);
			fclose(f);
		}
		snprintf(cmd, sizeof cmd,
		         "cd %s && %s -std=c11 -Wall -Wextra -pedantic -Werror "
		         "-I%s -c k.vast.c -o k.o && %s -std=c11 -Wall -Wextra "
		         "-pedantic -Werror -I%s -c other.vast.c -o other.o && "
		         "%s -I%s main.c k.o other.o -o check && ./check",
		         dir, VAST_TEST_CC, VAST_TEST_INCLUDE, VAST_TEST_CC,
		         VAST_TEST_INCLUDE, VAST_TEST_CC, VAST_TEST_INCLUDE);
		int rc = system(cmd);
		if (rc != 0)
			fprintf(stderr, "failed (%d): %s\n", rc, cmd);
		CHECK(rc == 0);
	}

	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(prog1);
	free(prog2);
	free(stub1);
	free(stub2);
	tm_destroy(p);
	tm_destroy(q);
	return tm_report("test_rw_stub");
}
