/* SPDX-License-Identifier: MIT */
/*
 * test_rt_stubjson.c - vrt_stub_from_json refuses every damaged file
 * (docs/json.md): a real `vastcc --emit-json` file (examples/matmul, which
 * has loops, guards and checks) cut at every length and with bits flipped
 * (the checksum catches them); the same cuts and flips re-sealed with a
 * good checksum (the parser must stay in bounds, and cuts are not JSON);
 * members of the wrong type, out of range, indices past their tables,
 * huge counts, missing members, each re-sealed (the validation catches
 * them, naming the member); allocation failures at every allocation.
 * Each refusal is NULL with an error. Run it under the ASan build too.
 *
 * usage: test_rt_stubjson FILE.json
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "vrt.h"

#include "check.h"

static char *text;
static size_t len;

/* Parses s[0..n); 1 when it was accepted. A refusal must come with an
 * error; *why receives it (malloc'd) when why is not NULL. */
static int accepted(const char *s, size_t n, char **why)
{
	char *error = NULL;
	vast_program_info *p = vrt_stub_from_json(s, n, &error);
	if (!p)
		CHECK(error && *error);
	else
		CHECK(!error);
	vrt_stub_json_free(p);
	if (why)
		*why = error;
	else
		free(error);
	return p != NULL;
}

/* body (the text before the seal) sealed as json.c seals it; malloc'd */
static char *seal(const char *body, size_t n, size_t *out)
{
	char tail[64];
	snprintf(tail, sizeof tail, VAST_JSON_SEAL_HEAD "%016llx" VAST_JSON_SEAL_TAIL,
	         vast_hash_bytes(VAST_HASH_SEED, body, n));
	size_t t = strlen(tail);
	char *s = malloc(n + t + 1);
	memcpy(s, body, n);
	memcpy(s + n, tail, t + 1);
	*out = n + t;
	return s;
}

static size_t body_len(void)
{
	return len - strlen(VAST_JSON_SEAL_HEAD) - 16 - strlen(VAST_JSON_SEAL_TAIL);
}

static void test_whole(void)
{
	CHECK(accepted(text, len, NULL));
	size_t n;
	char *again = seal(text, body_len(), &n);
	CHECK(n == len && !memcmp(again, text, len)); /* the test seals as vastcc does */
	free(again);
}

static void test_cut(void)
{
	/* raw cuts: the seal is gone or wrong */
	for (size_t n = 0; n < len; n++)
		CHECK(!accepted(text, n, NULL));
	/* re-sealed cuts of the body: never JSON, as the object stays open;
	 * every length through the tables, then a stride through the
	 * program text */
	const char *src = strstr(text, "\"generated_source\"");
	size_t tables = src ? (size_t)(src - text) : body_len();
	for (size_t n = 0; n < body_len(); n += n < tables ? 1 : 61) {
		size_t m;
		char *s = seal(text, n, &m);
		CHECK(!accepted(s, m, NULL));
		free(s);
	}
}

static void test_flip(void)
{
	char *s = malloc(len);
	for (size_t i = 0; i < len; i += i < 4096 ? 1 : 7) {
		memcpy(s, text, len);
		s[i] ^= (char)(1u << (i % 8));
		CHECK(!accepted(s, len, NULL));
		/* with a good seal the parser sees the damage: it may accept
		 * a flip inside a string, never read out of bounds */
		size_t m;
		char *r = seal(s, body_len(), &m);
		accepted(r, m, NULL);
		free(r);
	}
	free(s);
}

/* The item at path "kernels/0/params/1/kind" of root, or NULL. */
static cJSON *at(cJSON *root, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	cJSON *c = root;
	for (char *t = strtok(buf, "/"); t && c; t = strtok(NULL, "/"))
		c = cJSON_IsArray(c) ? cJSON_GetArrayItem(c, atoi(t))
		                     : cJSON_GetObjectItemCaseSensitive(c, t);
	return c;
}

/* The file with the item at path replaced by value (JSON text; NULL:
 * removed), re-sealed: malloc'd, its length in *n; NULL when the file has
 * no such item. */
static char *with(const char *path, const char *value, size_t *n)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	char parent[256];
	snprintf(parent, sizeof parent, "%s", path);
	char *slash = strrchr(parent, '/');
	const char *key = slash ? slash + 1 : parent;
	cJSON *dad = slash ? (*slash = '\0', at(root, parent)) : root;
	CHECK(dad && at(dad, key));
	if (!dad || !at(dad, key)) {
		fprintf(stderr, "  no '%s' in the file\n", path);
		cJSON_Delete(root);
		return NULL;
	}
	cJSON *v = value ? cJSON_Parse(value) : NULL;
	if (cJSON_IsArray(dad) && v)
		cJSON_ReplaceItemInArray(dad, atoi(key), v);
	else if (cJSON_IsArray(dad))
		cJSON_DeleteItemFromArray(dad, atoi(key));
	else if (v)
		cJSON_ReplaceItemInObjectCaseSensitive(dad, key, v);
	else
		cJSON_DeleteItemFromObjectCaseSensitive(dad, key);
	/* the checksum is a member like the others: take it out, re-seal */
	cJSON_DeleteItemFromObjectCaseSensitive(root, "checksum");
	char *printed = cJSON_Print(root);
	char *s = seal(printed, strlen(printed) - 2, n); /* without "\n}" */
	free(printed);
	cJSON_Delete(root);
	return s;
}

/* The same file: refused with an error that contains `why`. */
static void refused(const char *path, const char *value, const char *why)
{
	size_t n;
	char *s = with(path, value, &n);
	if (!s)
		return;
	char *error = NULL;
	int ok = accepted(s, n, &error);
	CHECK(!ok);
	if (ok || !error || !strstr(error, why))
		fprintf(stderr, "  %s = %s: error '%s', expected '%s'\n", path,
		        value ? value : "(removed)", error ? error : "(none)", why);
	free(error);
	free(s);
}

/* A file of a vastcc that still made merge kernels sets their bit, 4:
 * read, and dropped (vast/stub.h). */
static void test_old_merge_bit(void)
{
	size_t n;
	char *s = with("kernels/0/variants", "31", &n);
	char *error = NULL;
	vast_program_info *p = s ? vrt_stub_from_json(s, n, &error) : NULL;
	CHECK(p && !error);
	if (p)
		CHECK(p->kernels[0].variants == (VAST_HAS_INSPECT | VAST_HAS_PAGED |
		                                 VAST_HAS_STRAIGHT | VAST_HAS_PINSPECT));
	vrt_stub_json_free(p);
	free(error);
	free(s);
}

#define FP "kernels/0/footprints/"

/* The size of the array at path (count) or the number there, in the
 * file; -1 when there is none. */
static int number_at(const char *path, int count)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	cJSON *c = at(root, path);
	int n = !c ? -1 : count ? cJSON_GetArraySize(c) : (int)cJSON_GetNumberValue(c);
	CHECK(n >= 0);
	cJSON_Delete(root);
	return n;
}

static void test_members(void)
{
	refused("vastcc_json", "2", "format version 2");
	refused("vastcc_json", "\"1\"", "'vastcc_json'");
	refused("abi_version", "2", "stub ABI 2");
	refused("prefix", NULL, "'prefix' is missing");
	refused("file", "7", "'file' is not a string");
	refused("source_hash", "12345", "'source_hash'");
	refused("source_hash", "\"0x12345z\"", "'source_hash'");
	refused("source_hash", "\"0x00000000000000001\"", "'source_hash'");
	refused("source_size", "\"-1\"", "'source_size'");
	refused("source_size", "\"18446744073709551616\"", "'source_size'");
	refused("device_macros", "{}", "'device_macros' is not an array");
	refused("kernels/0", "[]", "kernel 0: not an object");
	refused("kernels/0/name", "null", "kernel 0: 'name'");
	refused("kernels/0/params/0/kind", "7", "'kind'");
	refused("kernels/0/params/0/kind", "-1", "'kind'");
	refused("kernels/0/params/0/kind", "1.5", "'kind'");
	refused("kernels/0/params/0/kind", "\"0\"", "'kind'");
	refused("kernels/0/params/0/elem_size", "4294967296", "'elem_size'");
	refused("kernels/0/params/0/inspect_reads", "2", "'inspect_reads'");
	refused("kernels/0/variants", "32", "'variants'");
	refused("kernels/0/virtualizable", "0", "'reason' must be null exactly");
	refused("kernels/0/footprints", "[]", "'footprints' is not an object");
	refused(FP "terms", "7", "'terms' is not an array");
	refused(FP "terms/0/coef", "3", "'coef'");
	refused(FP "terms/0/coef", "\"9223372036854775808\"", "'coef'");
	refused(FP "terms/0/var", "65535", "'var' is not a footprint name");
	refused(FP "terms/0/sym", "[0, 0]", "'sym' has 2 entries");
	refused(FP "terms/0/sym/1", "4294967295", "'sym'[1]");
	refused(FP "loops/0/step", "\"0\"", "'step' is not positive");
	refused(FP "loops/0/lo", "[70, 1000000]", "'lo'[0] is not a [first, n] range");
	refused(FP "guards/0", "[4294967295, 2]", "'guards'[0] is not a [first, n] range");
	refused(FP "checks/0/bits", "0", "'bits'");
	refused(FP "checks/0/bits", "65", "'bits'");
	/* values just past the file's own tables, which follow the analysis */
	char past_terms[32], past_checks[16], past_offset_checks[16], why[64];
	snprintf(past_terms, sizeof past_terms, "[%d, 1]", number_at(FP "terms", 1));
	refused(FP "footprints/0/offset", past_terms, "'offset'[0] is not a [first, n]");
	refused(FP "footprints/0/offset", "[3, 0]", "'offset'[0] is not a [first, n]");
	refused(FP "footprints/0/offset", "[0]", "'offset'[0] is not a [first, n]");
	refused(FP "footprints/0/first_loop", "2", "its loops [2, +1) lie outside");
	refused(FP "footprints/0/nloops", "4294967295", "its loops [0, +4294967295)");
	refused(FP "footprints/0/first_check", "4294967295", "its checks");
	int nchecks = number_at(FP "checks", 1) + 1;
	snprintf(past_checks, sizeof past_checks, "%d", nchecks);
	snprintf(why, sizeof why, "its checks [0, +%d)", nchecks);
	refused(FP "footprints/0/nchecks", past_checks, why);
	int noffset = number_at(FP "footprints/0/nchecks", 0) + 1;
	snprintf(past_offset_checks, sizeof past_offset_checks, "%d", noffset);
	snprintf(why, sizeof why, "'noffset_checks' %d exceeds", noffset);
	refused(FP "footprints/0/noffset_checks", past_offset_checks, why);
	refused(FP "footprints/0/affine", "0", "'reason' must be null exactly");
	refused(FP "footprints/0/params", "64", "'params' names a parameter past");
	refused(FP "footprints/0/mode", "8", "'mode'");
	refused(FP "footprints/0", "3", "'footprints'[0] is not an object");
}

static void test_alloc_failure(void)
{
	/* fail the n-th allocation until none fails: each is a refusal */
	int done = 0;
	for (unsigned long n = 1; !done && n < 100000; n++) {
		vrt_alloc_fail_after(n);
		char *error = NULL;
		vast_program_info *p = vrt_stub_from_json(text, len, &error);
		done = p != NULL;
		CHECK(p ? !error : error != NULL);
		vrt_stub_json_free(p);
		free(error);
	}
	vrt_alloc_fail_after(0);
	CHECK(done);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE.json\n", argv[0]);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	text = malloc(len + 1);
	if (fread(text, 1, len, f) != len)
		return 1;
	fclose(f);
	text[len] = '\0';
	test_whole();
	test_cut();
	test_flip();
	test_members();
	test_old_merge_bit();
	test_alloc_failure();
	free(text);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
